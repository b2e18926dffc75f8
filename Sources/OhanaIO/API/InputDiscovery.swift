#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How an input argument names contact files: one rule for the command
/// line's verbs and for the Spark job (through `ohana_list_inputs`), so
/// both read the same files in the same order.
///
/// - `-` is standard input;
/// - a directory is its contact files (by extension: `.vcf`, `.csv`,
///   `.ndjson`, ...), recursively, in name order, hidden names left out, a
///   directory met again through a link (a loop) walked once; a directory
///   without any is an error;
/// - a path that does not exist and holds `*`, `?` or `[` is a glob
///   pattern, its matches sorted; no match is an error;
/// - anything else is a file, read as given (a missing one is reported by
///   the read, with the reason).
public enum InputDiscovery {
  /// The files `argument` names, in reading order (see ``InputDiscovery``).
  public static func files(_ argument: String) throws(ContactIOError) -> [String] {
    if argument == "-" { return ["-"] }
    var st = stat()
    if stat(argument, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
      let files = contactFiles(in: argument)
      if files.isEmpty {
        throw ContactIOError(.io, "\(argument): no contact files (.vcf, .csv, .ndjson) in this directory")
      }
      return files
    }
    if stat(argument, &st) != 0 && argument.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) {
      let files = globbed(argument)
      if files.isEmpty { throw ContactIOError(.io, "\(argument): no file matches") }
      return files
    }
    return [argument]
  }

  /// Contact files under `dir`, recursively, by extension, in name order.
  /// A directory met again through a link (a loop) is not walked twice.
  public static func contactFiles(in dir: String) -> [String] {
    var seen = Set<[UInt64]>()
    return contactFiles(in: dir, seen: &seen)
  }

  private static func contactFiles(in dir: String, seen: inout Set<[UInt64]>) -> [String] {
    var out: [String] = []
    var here = stat()
    guard stat(dir, &here) == 0, seen.insert([UInt64(here.st_dev), UInt64(here.st_ino)]).inserted else { return [] }
    guard let d = opendir(dir) else { return [] }
    var names: [String] = []
    while let e = readdir(d) {
      let name = withUnsafePointer(to: e.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name.hasPrefix(".") { continue }
      names.append(name)
    }
    closedir(d)
    for name in names.sorted() {
      let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
      var st = stat()
      guard stat(path, &st) == 0 else { continue }
      if (st.st_mode & S_IFMT) == S_IFDIR {
        out += contactFiles(in: path, seen: &seen)
      } else if (st.st_mode & S_IFMT) == S_IFREG, ContactFormat(path: path) != nil {
        out.append(path)
      }
    }
    return out
  }

  /// Paths matching a glob pattern, sorted (glob(3)).
  public static func globbed(_ pattern: String) -> [String] {
    var g = glob_t()
    defer { globfree(&g) }
    guard glob(pattern, 0, nil, &g) == 0 else { return [] }
    var out: [String] = []
    for i in 0..<Int(g.gl_pathc) {
      if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
    }
    return out.sorted()
  }
}
