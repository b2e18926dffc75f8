#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output written to a temporary file next to its destination and
/// renamed into place by `commit()`, so that an interrupted run never
/// leaves a half-written file. The path `-` is standard output.
final class OutputFile {
  let path: String
  private let tempPath: String?
  private var fd: Int32
  private var committed = false

  init(path: String) throws {
    self.path = path
    if path == "-" {
      fd = 1
      tempPath = nil
      return
    }
    let slash = path.lastIndex(of: "/")
    let dir = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temp = (dir.isEmpty ? "" : dir + "/") + "." + name + ".ohana-tmp-" + String(getpid())
    let opened = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard opened >= 0 else {
      throw CLIError("cannot write \(path): \(OutputFile.reason(errno))")
    }
    fd = opened
    tempPath = temp
  }

  deinit {
    if !committed, let tempPath {
      close(fd)
      unlink(tempPath)
    }
  }

  func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { buf in
      var off = 0
      while off < buf.count {
        let n = posixWrite(fd, buf.baseAddress.map { $0 + off }, buf.count - off)
        if n < 0 {
          if errno == EINTR { continue }
          throw CLIError("cannot write \(path): \(OutputFile.reason(errno))")
        }
        off += n
      }
    }
  }

  /// Closes the file and renames it into place.
  func commit() throws {
    guard let tempPath else {
      committed = true
      return
    }
    guard close(fd) == 0 else {
      throw CLIError("cannot write \(path): \(OutputFile.reason(errno))")
    }
    committed = true
    guard rename(tempPath, path) == 0 else {
      let e = errno
      unlink(tempPath)
      throw CLIError("cannot write \(path): \(OutputFile.reason(e))")
    }
  }

  static func reason(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    return String(cString: s).lowercased()
  }
}
