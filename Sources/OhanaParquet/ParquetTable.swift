import COhanaParquet
import Foundation
import OhanaCore
import OhanaIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parquet tables (DESIGN §15, README "Parquet"), read and written by
/// Apache Arrow's C++ library: the engine holds no codec of its own.
///
/// Reading: the table's columns become the text of a CSV (each cell its
/// value's text; dates and timestamps as ISO dates; a list, struct, map or
/// binary column empty), read by the table route as any CSV is, with the
/// same mapping, detection and reports. Writing: the user's rows again,
/// as Arrow read them (every column, its values and its type), with the
/// engine's columns appended.
///
/// Built with the package trait `Parquet` (`swift build --traits Parquet`,
/// `OHANA_ARROW_DIR` naming a pyarrow installation). Without it
/// ``isAvailable`` is false and every call throws
/// ``ContactIOError/Code/unsupportedFormat``.
///
/// This type owns the pointers that cross into the C functions; nothing
/// else in the engine touches them.
public enum ParquetTable {
  /// Whether this build reads and writes Parquet.
  public static var isAvailable: Bool { ohana_parquet_available() != 0 }

  /// Parquet's magic number, at the start and the end of every file.
  static let magic: [UInt8] = Array("PAR1".utf8)

  /// Whether `path` names a Parquet file: its extension is `.parquet` (any
  /// case), or its first four bytes are Parquet's magic number.
  /// A directory is one Parquet table when it holds `*.parquet` part files
  /// (as Spark and DuckDB write them; `_SUCCESS` and `.crc` files beside)
  /// and no other contact file.
  public static func isParquet(path: String) -> Bool {
    var st = stat()
    if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
      let data = names.filter { !$0.hasPrefix("_") && !$0.hasPrefix(".") }
      return data.contains { $0.lowercased().hasSuffix(".parquet") }
        && !data.contains { ContactFormat(path: $0) != nil }
    }
    if path.lowercased().hasSuffix(".parquet") || path.lowercased().hasSuffix(".parq") { return true }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 4)
    #if canImport(Glibc)
      let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 4) }
    #else
      let n = head.withUnsafeMutableBytes { Darwin.read(fd, $0.baseAddress, 4) }
    #endif
    return n == 4 && head == magic
  }

  /// The table at `path` as CSV text (header first, comma-delimited, RFC
  /// 4180 quoting) and its number of rows.
  public static func csvText(path: String) throws(ContactIOError) -> (bytes: [UInt8], rows: Int) {
    var out: UnsafeMutablePointer<UInt8>? = nil
    var length: Int64 = 0
    var rows: Int64 = 0
    var error = [CChar](repeating: 0, count: 1024)
    let status = error.withUnsafeMutableBufferPointer {
      ohana_parquet_read_csv(path, &out, &length, &rows, $0.baseAddress, Int64($0.count))
    }
    guard status == 0, let out else { throw failure(error, path: path) }
    defer { ohana_parquet_free(out) }
    return (Array(UnsafeBufferPointer(start: out, count: Int(length))), Int(rows))
  }

  /// Reads the table at `path` through the table route (as a CSV with
  /// its own header; ``ReadResult/tableDelimiter`` is a comma).
  public static func read(path: String, options: ReadOptions = ReadOptions()) throws(ContactIOError) -> ReadResult {
    let (bytes, _) = try csvText(path: path)
    var options = options
    if options.sourceName == nil { options.sourceName = path }
    options.delimiter = UInt8(ascii: ",")
    var result = try ContactIO.read(bytes: bytes, format: .csv, options: options)
    result.bytesRead = fileSize(path) ?? result.bytesRead
    return result
  }

  /// A column written after the table's own.
  public enum Column: Sendable {
    /// Text; nil is null.
    case text(name: String, values: [String?])
    /// 32-bit integers.
    case int32(name: String, values: [Int32])
    /// Doubles; NaN is null.
    case float64(name: String, values: [Double])

    var name: String {
      switch self {
      case .text(let name, _), .int32(let name, _), .float64(let name, _): name
      }
    }

    var count: Int {
      switch self {
      case .text(_, let v): v.count
      case .int32(_, let v): v.count
      case .float64(_, let v): v.count
      }
    }
  }

  /// A Parquet file's bytes (Snappy-compressed, the Arrow schema stored):
  /// the rows of the Parquet file `base` (every column with its values and
  /// type; only the rows `take` names, in that order, when given), then
  /// `columns`; a column named as one of the base's replaces it in its
  /// place (a normalization job's rewritten column). Without a base, the
  /// table is `columns` alone. Every column has as many values as the table
  /// has rows.
  public static func write(base: String?, columns: [Column], take: [Int]? = nil) throws(ContactIOError) -> [UInt8] {
    let rows = columns.first?.count ?? take?.count ?? 0
    guard columns.allSatisfy({ $0.count == rows }) else {
      throw ContactIOError(.invalidInput, "the appended columns differ in length")
    }
    // Every column's data in one buffer, each part 8-byte aligned: text as
    // UTF-8 with int32 offsets (Arrow's string layout), numbers as they are.
    var data: [UInt8] = []
    var dataStart: [Int] = []
    var offsets: [Int32] = []
    var offsetStart: [Int] = []
    var kinds: [Int32] = []
    for column in columns {
      while data.count % 8 != 0 { data.append(0) }
      dataStart.append(data.count)
      offsetStart.append(offsets.count)
      switch column {
      case .text(let name, let values):
        let first = data.count
        offsets.append(0)
        for v in values {
          if let v { data.append(contentsOf: v.utf8) }
          guard data.count - first <= Int(Int32.max) else {
            throw ContactIOError(.invalidInput, "column \(name) holds over 2 GiB of text")
          }
          offsets.append(Int32(data.count - first))
        }
        kinds.append(Int32(OHANA_PARQUET_UTF8))
      case .int32(_, let values):
        values.withUnsafeBytes { data.append(contentsOf: $0) }
        offsets.append(0)
        kinds.append(Int32(OHANA_PARQUET_INT32))
      case .float64(_, let values):
        values.withUnsafeBytes { data.append(contentsOf: $0) }
        offsets.append(0)
        kinds.append(Int32(OHANA_PARQUET_FLOAT64))
      }
    }
    let names = columns.map { strdup($0.name) }
    defer { for n in names { free(n) } }
    // (One element at least, so that an empty `take` still has an address.)
    let takeRows = (take ?? []).map(Int64.init) + [0]
    var out: UnsafeMutablePointer<UInt8>? = nil
    var length: Int64 = 0
    var error = [CChar](repeating: 0, count: 1024)
    let status = data.withUnsafeBytes { dataBytes in
      offsets.withUnsafeBufferPointer { offsetBuffer in
        takeRows.withUnsafeBufferPointer { takeBuffer in
          error.withUnsafeMutableBufferPointer { errorBuffer in
            // (An empty buffer may have no address: then no column reads it.)
            let dataPointers = dataStart.map { dataBytes.baseAddress?.advanced(by: $0) }
            let offsetPointers = offsetStart.map { offsetBuffer.baseAddress?.advanced(by: $0) }
            let namePointers = names.map { UnsafePointer($0) }
            return ohana_parquet_write_appended(
              base, Int64(columns.count), namePointers, kinds, dataPointers, offsetPointers,
              take == nil ? nil : takeBuffer.baseAddress, Int64(take?.count ?? 0),
              Int64(rows), &out, &length, errorBuffer.baseAddress, Int64(errorBuffer.count))
          }
        }
      }
    }
    guard status == 0, let out else { throw failure(error, path: base ?? "the table") }
    defer { ohana_parquet_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: Int(length)))
  }

  private static func failure(_ error: [CChar], path: String) -> ContactIOError {
    let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if ohana_parquet_available() == 0 { return ContactIOError(.unsupportedFormat, message) }
    return ContactIOError(.invalidInput, "\(path): not a Parquet table Arrow can read (\(message))")
  }

  private static func fileSize(_ path: String) -> Int? {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : nil
  }
}
