import OhanaCore
import OhanaIO

#if canImport(Glibc)
  import Glibc
#endif

/// A finding: prints what differs and traps, so that libFuzzer keeps the
/// input as a crash (`crash-<sha1>` in the run's artifact directory).
public func fuzzFailure(_ check: String, _ detail: @autoclosure () -> String) -> Never {
  var text = "FUZZ FINDING [\(check)]: \(detail())\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  fatalError("fuzz check failed: \(check)")
}

/// Which checks run: `OHANA_FUZZ_CHECKS=chunks,roundtrip,coverage` (the
/// default, `all`, is these three). `chunklines` instead of `chunks`
/// compares the error lists of the chunk check by line only, not by
/// reason. Crashes, hangs and sanitizer reports are always findings.
/// Turning a check off lets a long campaign go on past a known, not yet
/// fixed finding; CI runs all of them.
public struct FuzzChecks: Sendable {
  public var chunks = true
  public var chunkReasons = true
  public var roundTrip = true
  public var coverage = true

  public static let current: FuzzChecks = {
    var c = FuzzChecks()
    guard let raw = getenv("OHANA_FUZZ_CHECKS") else { return c }
    let names = String(cString: raw).split(separator: ",").map { $0.trimmingCharacters() }
    if names.contains("all") { return c }
    c.chunks = names.contains("chunks") || names.contains("chunklines")
    c.chunkReasons = names.contains("chunks")
    c.roundTrip = names.contains("roundtrip")
    c.coverage = names.contains("coverage")
    return c
  }()
}

extension Substring {
  func trimmingCharacters() -> String {
    String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}

/// The outcome of one read: the result, or the error it threw.
public enum ReadOutcome {
  case ok(ReadResult)
  case failed(ContactIOError)

  public static func read(_ bytes: [UInt8], format: ContactFormat?, chunkSize: Int, workers: Int) -> ReadOutcome {
    do {
      return .ok(try ContactIO.read(bytes: bytes, format: format, options: ReadOptions(chunkSize: chunkSize, workers: workers)))
    } catch {
      return .failed(error)
    }
  }
}

/// What one format needs from the shared checks.
public struct ReaderSpec: Sendable {
  /// The format passed to the reader (nil: sniffed, as `ohana` does for `-`).
  public var readFormat: ContactFormat?
  /// The format written for the round trip, and read back with.
  public var writeFormat: ContactFormat
  /// Builds the input of the chunk check: the fuzz input behind (or, for
  /// CSV, inside) a prefix of at least 8 KiB that the reader skips or
  /// reads whole, so that the chunk size governs the cuts in the fuzz
  /// input. (`ContactIO.read` peeks at the first 4 KiB and the first chunk
  /// grows to twice that, so without it a small input is always one chunk.)
  public var padded: @Sendable ([UInt8]) -> [UInt8]
  /// A contact projected on what the written format keeps (the round trip
  /// compares these); nil drops a contact that the format cannot hold at all.
  public var roundTripView: @Sendable (Contact) -> Contact?
  /// The 1-based lines where a record starts in the input as the reader
  /// sees it (after `ReaderInput.prepared`); nil when this cannot be told
  /// (e.g. UTF-16 input).
  public var recordStarts: @Sendable ([UInt8]) -> [Int]?
  /// Inputs the chunk check leaves out, for a limit the reader documents:
  /// vCard 2.1 nesting across a chunk cut (README, "Reading files we did
  /// not write"). Everything else must give the same table for any chunking.
  public var chunkDependent: @Sendable ([UInt8]) -> Bool = { _ in false }

  public init(
    readFormat: ContactFormat?, writeFormat: ContactFormat, padded: @escaping @Sendable ([UInt8]) -> [UInt8],
    roundTripView: @escaping @Sendable (Contact) -> Contact?, recordStarts: @escaping @Sendable ([UInt8]) -> [Int]?
  ) {
    self.readFormat = readFormat
    self.writeFormat = writeFormat
    self.padded = padded
    self.roundTripView = roundTripView
    self.recordStarts = recordStarts
  }
}

public enum ReaderInput {
  /// The input as `ContactIO.read` parses it: a UTF-8 byte order mark
  /// dropped, and CR line ends turned into LF when the first 4096 bytes
  /// hold a CR and no LF. nil for a UTF-16 byte order mark (converted by
  /// ICU; its lines are not worth mapping back).
  public static func prepared(_ input: [UInt8]) -> [UInt8]? {
    var bytes = input
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      bytes.removeFirst(3)
    } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      return nil
    }
    // The reader looks at the first 4096 bytes of the input (BOM included).
    let head = bytes.prefix(input.starts(with: [0xEF, 0xBB, 0xBF]) ? 4093 : 4096)
    if head.contains(13) && !head.contains(10) {
      for i in bytes.indices where bytes[i] == 13 { bytes[i] = 10 }
    }
    return bytes
  }

  /// The input's lines (LF-separated), without the LF and without the CRs
  /// that end them, numbered from 1 (index 0 is line 1).
  public static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var out: [ArraySlice<UInt8>] = []
    var start = 0
    for i in 0...bytes.count {
      if i == bytes.count || bytes[i] == 10 {
        if i == bytes.count && start == i && !out.isEmpty { break }
        var end = i
        while end > start && bytes[end - 1] == 13 { end -= 1 }
        out.append(bytes[start..<end])
        start = i + 1
      }
    }
    return out
  }
}

public enum ReaderCheck {
  /// Runs every check on one fuzz input.
  public static func run(_ data: UnsafePointer<UInt8>, _ size: Int, _ spec: ReaderSpec) {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let checks = FuzzChecks.current
    let plain = ReadOutcome.read(input, format: spec.readFormat, chunkSize: 1 << 20, workers: 1)
    if checks.chunks { chunkCheck(input, size: size, spec) }
    guard case .ok(let result) = plain else { return }
    let contacts = result.table.contacts
    if contacts.count != result.recordsRead {
      fuzzFailure("count", "\(contacts.count) contacts, recordsRead \(result.recordsRead)")
    }
    if checks.roundTrip { roundTrip(result, contacts, spec) }
    if checks.coverage { coverage(input, result, contacts, spec) }
  }

  // MARK: (a) the same table for every chunk size and worker count

  static func chunkCheck(_ input: [UInt8], size: Int, _ spec: ReaderSpec) {
    if spec.chunkDependent(input) { return }
    let padded = spec.padded(input)
    let reference = ReadOutcome.read(padded, format: spec.readFormat, chunkSize: 1 << 20, workers: 1)
    // Chunks of 64-263 bytes on one worker, and of 1-97 bytes (a cut at
    // nearly every record) on two, merged in input order.
    for (chunk, workers) in [(64 + size % 200, 1), (1 + size % 97, 2)] {
      let other = ReadOutcome.read(padded, format: spec.readFormat, chunkSize: chunk, workers: workers)
      compare(reference, other, what: "chunkSize \(chunk) workers \(workers)", reasons: FuzzChecks.current.chunkReasons)
    }
  }

  static func compare(_ a: ReadOutcome, _ b: ReadOutcome, what: String, reasons: Bool) {
    switch (a, b) {
    case (.failed(let x), .failed(let y)):
      if x.code != y.code || x.line != y.line {
        fuzzFailure("chunks", "\(what): threw \(y), one chunk threw \(x)")
      }
    case (.ok, .failed(let y)):
      fuzzFailure("chunks", "\(what): threw \(y), one chunk read")
    case (.failed(let x), .ok):
      fuzzFailure("chunks", "\(what): read, one chunk threw \(x)")
    case (.ok(let x), .ok(let y)):
      let ex = x.errors.map { reasons ? "\($0.line): \($0.reason)" : "\($0.line)" }
      let ey = y.errors.map { reasons ? "\($0.line): \($0.reason)" : "\($0.line)" }
      if ex != ey { fuzzFailure("chunks", "\(what): errors \(ey), one chunk gave \(ex)") }
      if x.recordsRead != y.recordsRead || x.recordsSkipped != y.recordsSkipped {
        fuzzFailure(
          "chunks",
          "\(what): read/skipped \(y.recordsRead)/\(y.recordsSkipped), one chunk \(x.recordsRead)/\(x.recordsSkipped)")
      }
      let cx = x.table.contacts
      let cy = y.table.contacts
      if let d = firstDifference(cx, cy) { fuzzFailure("chunks", "\(what): \(d)") }
    }
  }

  /// Where two contact lists differ, with both sides; nil when equal.
  public static func firstDifference(_ a: [Contact], _ b: [Contact]) -> String? {
    if a == b { return nil }
    if a.count != b.count {
      return "\(a.count) contacts against \(b.count)\n  first: \(a)\n  second: \(b)"
    }
    for i in a.indices where a[i] != b[i] {
      return "contact \(i) differs\n  first:  \(a[i])\n  second: \(b[i])"
    }
    return "contacts differ"
  }

  // MARK: (b) write, read back, same contacts

  static func roundTrip(_ first: ReadResult, _ contacts: [Contact], _ spec: ReaderSpec) {
    let table = first.table
    var out: [UInt8] = []
    do {
      try ContactIO.write(table, format: spec.writeFormat, to: &out)
    } catch {
      fuzzFailure("roundtrip", "write failed: \(error)")
    }
    let back: ReadResult
    do {
      back = try ContactIO.read(bytes: out, format: spec.writeFormat, options: ReadOptions(chunkSize: 1 << 20, workers: 1))
    } catch {
      fuzzFailure("roundtrip", "reading what was written threw \(error)\n  written: \(String(decoding: out, as: UTF8.self))")
    }
    // What the first read kept verbatim (a line it could not read) is
    // written back as it was, so reading it again may warn about those lines
    // again (not always: a broken PHOTO written after a good one is just an
    // extra property), and about nothing else.
    let keptVerbatim = first.errors.filter { $0.reason.hasSuffix("kept verbatim") }.map(\.reason)
    var allowed = keptVerbatim
    let unexpected = back.errors.filter { e in
      guard let i = allowed.firstIndex(of: e.reason) else { return true }
      allowed.remove(at: i)
      return false
    }
    if !unexpected.isEmpty {
      fuzzFailure("roundtrip", "reading what was written: errors \(back.errors)\n  written: \(String(decoding: out, as: UTF8.self))")
    }
    let expected = contacts.compactMap(spec.roundTripView)
    let got = back.table.contacts.compactMap(spec.roundTripView)
    if let d = firstDifference(expected, got) {
      fuzzFailure("roundtrip", "\(d)\n  written: \(String(decoding: out, as: UTF8.self))")
    }
  }

  // MARK: (c) every record imported or reported

  static func coverage(_ input: [UInt8], _ result: ReadResult, _ contacts: [Contact], _ spec: ReaderSpec) {
    guard let prepared = ReaderInput.prepared(input), let starts = spec.recordStarts(prepared) else { return }
    var covered = Set(contacts.map(\.sourceLine))
    for e in result.errors { covered.insert(e.line) }
    for line in starts where !covered.contains(line) {
      fuzzFailure(
        "coverage",
        "record starting at line \(line) neither imported nor reported; contacts at lines "
          + "\(contacts.map(\.sourceLine)), errors \(result.errors.map { "\($0.line): \($0.reason)" }), record starts \(starts)")
    }
  }
}

/// The round-trip projection shared by the formats: the position in the
/// source is not content.
public func withoutPosition(_ c: Contact) -> Contact {
  var c = c
  c.sourceLine = 0
  return c
}
