import Foundation

/// The sqlite3 shell (Debian's `sqlite3`), for tests that read or change an
/// entity store with a SQLite reader other than the store's own code.
public enum SQLiteShell {
  /// The shell's path, or nil when it is not installed.
  public static let path: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Runs `sql` on the database at `database`; its exit status and output
  /// (trimmed). nil when the shell is not installed.
  public static func run(_ database: String, _ sql: String, readOnly: Bool) throws -> (status: Int32, output: String)? {
    guard let path else { return nil }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = (readOnly ? ["-readonly"] : []) + [database, sql]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
