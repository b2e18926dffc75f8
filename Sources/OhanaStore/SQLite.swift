import CSQLite

/// An entity-store failure: SQLite's own message, or what was wrong with
/// the store (another schema, a damaged file).
public struct StoreError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// One connection to an SQLite database file. Owns the `sqlite3` handle;
/// the only type (with ``SQLiteStatement``) that touches SQLite's C API.
/// Used from one thread at a time.
final class SQLiteDatabase {
  private(set) var handle: OpaquePointer

  /// Opens (and with `create`, creates) the database at `path`.
  init(path: String, create: Bool) throws(StoreError) {
    var db: OpaquePointer? = nil
    let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let db { sqlite3_close_v2(db) }
      throw StoreError("cannot open \(path): \(message)")
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    // A locked store (another run) is waited for, briefly, not failed at once.
    sqlite3_busy_timeout(db, 5000)
  }

  deinit { sqlite3_close_v2(handle) }

  var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws(StoreError) {
    var message: UnsafeMutablePointer<CChar>? = nil
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? errorMessage
      sqlite3_free(message)
      throw StoreError("SQLite: \(text) (in: \(sql.prefix(80)))")
    }
  }

  func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement { try SQLiteStatement(self, sql) }

  /// The rowid of the last row inserted.
  var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows the last INSERT, UPDATE or DELETE changed.
  var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared statement: bind, step, read columns, reset.
final class SQLiteStatement {
  private let database: SQLiteDatabase
  private let handle: OpaquePointer

  fileprivate init(_ database: SQLiteDatabase, _ sql: String) throws(StoreError) {
    self.database = database
    var stmt: OpaquePointer? = nil
    let rc = sqlite3_prepare_v2(database.handle, sql, -1, &stmt, nil)
    guard rc == SQLITE_OK, let stmt else {
      throw StoreError("SQLite: \(database.errorMessage) (in: \(sql.prefix(80)))")
    }
    handle = stmt
  }

  deinit { sqlite3_finalize(handle) }

  func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
  func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }
  func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

  /// Binds text (copied by SQLite).
  func bind(_ index: Int32, text: String) { bind(index, bytes: Array(text.utf8)) }

  /// Binds raw bytes as text (UTF-8, copied) or, with `blob`, as a blob.
  func bind(_ index: Int32, raw: UnsafeRawBufferPointer, blob: Bool = false) {
    guard let p = raw.baseAddress, raw.count > 0 else {
      bind(index, bytes: [], blob: blob)
      return
    }
    if blob {
      _ = sqlite3_bind_blob(handle, index, p, Int32(raw.count), ohana_sqlite_transient())
    } else {
      _ = sqlite3_bind_text(handle, index, p.assumingMemoryBound(to: CChar.self), Int32(raw.count), ohana_sqlite_transient())
    }
  }

  /// Binds bytes as text (UTF-8, copied) or, with `blob`, as a blob.
  func bind(_ index: Int32, bytes: [UInt8], blob: Bool = false) {
    // SQLite reads a null pointer as SQL NULL: an empty value gets a real one.
    let value = bytes.isEmpty ? [0] : bytes
    value.withUnsafeBytes { b in
      guard let p = b.baseAddress else { return }
      if blob {
        _ = sqlite3_bind_blob(handle, index, p, Int32(bytes.count), ohana_sqlite_transient())
      } else {
        _ = sqlite3_bind_text(handle, index, p.assumingMemoryBound(to: CChar.self), Int32(bytes.count), ohana_sqlite_transient())
      }
    }
  }

  /// Steps once: true when a row is ready, false when done.
  @discardableResult
  func step() throws(StoreError) -> Bool {
    let rc = sqlite3_step(handle)
    if rc == SQLITE_ROW { return true }
    if rc == SQLITE_DONE { return false }
    throw StoreError("SQLite: \(database.errorMessage)")
  }

  /// Resets for the next bindings (bindings are kept until rebound).
  func reset() {
    sqlite3_reset(handle)
  }

  /// Steps to the end, then resets.
  func run() throws(StoreError) {
    defer { reset() }
    while try step() {}
  }

  func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  /// The column's bytes (text or blob).
  func bytes(_ column: Int32) -> [UInt8] {
    // The pointer first, then the size (SQLite's documented order).
    let p = sqlite3_column_blob(handle, column)
    let n = Int(sqlite3_column_bytes(handle, column))
    guard n > 0, let p else { return [] }
    return Array(UnsafeRawBufferPointer(start: p, count: n))
  }

  /// Calls `body` with the column's bytes in place (valid only inside it).
  func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    let p = sqlite3_column_blob(handle, column)
    let n = Int(sqlite3_column_bytes(handle, column))
    guard n > 0, let p else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return body(UnsafeRawBufferPointer(start: p, count: n))
  }

  /// Appends the column's bytes to `out`.
  func appendBytes(_ column: Int32, to out: inout [UInt8]) {
    let p = sqlite3_column_blob(handle, column)
    let n = Int(sqlite3_column_bytes(handle, column))
    guard n > 0, let p else { return }
    out.append(contentsOf: UnsafeRawBufferPointer(start: p, count: n))
  }

  func text(_ column: Int32) -> String? {
    if isNull(column) { return nil }
    return String(decoding: bytes(column), as: UTF8.self)
  }
}
