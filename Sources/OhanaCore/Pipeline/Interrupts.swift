import COhanaCore

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
}
