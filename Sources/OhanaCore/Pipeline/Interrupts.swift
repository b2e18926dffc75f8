import COhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a program does when SIGINT (Ctrl-C) or SIGTERM stops it: the
/// files registered here (temporary outputs, a store being built) are
/// removed, a progress line is cleared, and it exits with 130 or 143.
/// OhanaIO's `OutputTarget` registers its temporary files; the `ohana`
/// tool installs the handlers (a library leaves signals to its program).
package enum Interrupts {
  package static func install() { ohana_cleanup_install() }

  /// Registers `path` for removal on a signal; the slot is given back to ``forget(_:)``.
  package static func register(_ path: String) -> Int32 { ohana_cleanup_add(path) }

  package static func forget(_ slot: Int32) { ohana_cleanup_remove(slot) }

  /// Whether a progress line is on the terminal.
  package static func progressLine(_ shown: Bool) { ohana_cleanup_progress_line(shown ? 1 : 0) }

  /// Removes the files in `directory` (a path ending in `/`, or empty for
  /// the working directory) named `stem` + a process id (+ `-` and more)
  /// whose process is gone: what a run killed outright (SIGKILL, power
  /// loss) left behind. A live process's files, or another user's, stay.
  package static func removeLeftovers(in directory: String, stem: String) {
    guard let d = opendir(directory.isEmpty ? "." : directory) else { return }
    defer { closedir(d) }
    while let e = readdir(d) {
      let name = withUnsafePointer(to: e.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      guard name.hasPrefix(stem) else { continue }
      let rest = name.dropFirst(stem.count)
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      let after = rest.dropFirst(digits.count)
      guard after.isEmpty || after.first == "-", let pid = pid_t(digits), pid > 0, pid != getpid() else { continue }
      if kill(pid, 0) == -1 && errno == ESRCH { unlink(directory + name) }
    }
  }
}
