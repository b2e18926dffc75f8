/// The uids of a table that are UUIDs, 16 bytes and a form byte a row.
///
/// Most contact uids are UUIDs written as text (`2f5d4a59-573b-4bcd-aa21-
/// 19495a7561cd`, Apple's in capitals, some behind `urn:uuid:`). Interned,
/// each costs its 36 to 45 bytes in the pool's arena, an end offset, a hash
/// slot and a 3-byte cell: about 50 bytes a contact that no other value
/// shares (uids are unique). Here a UUID costs 17 bytes, and the text is
/// written back byte for byte.
///
/// ### Layout
/// ```
///  forms   [UInt8]   per row: Form (0 = the row's uid is not here)
///  halves  [UInt64]  per row two: the UUID's first and last 8 bytes
/// ```
/// Both are empty while no row holds a UUID (a table read from a file
/// without UUID uids pays nothing); then ``rowCount`` is 0 whatever the
/// table's size, and every row reads as ``Form/none``.
///
/// A contact's uid lives in exactly one place: here when its text is one of
/// the ``Form``s exactly, else in the table's `uid` string column (see
/// ``ContactTable/withUID(at:_:)``).
public struct UUIDColumn: Sendable, Equatable {
  /// How a UUID was written. The text of a form is fixed by the 16 bytes,
  /// so writing it back gives the bytes that were read.
  public enum Form: UInt8, Sendable, CaseIterable {
    /// Not a UUID (or no uid).
    case none = 0
    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, hex digits in lower case.
    case lower = 1
    /// The same in capitals.
    case upper = 2
    /// `urn:uuid:` and the lower-case form.
    case urnLower = 3
    /// `urn:uuid:` and the capital form.
    case urnUpper = 4

    var hasPrefix: Bool { self == .urnLower || self == .urnUpper }
    var isUpper: Bool { self == .upper || self == .urnUpper }
    /// The length of the text.
    public var textLength: Int { self == .none ? 0 : (hasPrefix ? 45 : 36) }
  }

  @usableFromInline var forms: [UInt8] = []
  @usableFromInline var halves: [UInt64] = []

  /// A column with no UUIDs.
  public init() {}

  /// Whether no row holds a UUID (storage is empty).
  public var isEmpty: Bool { forms.isEmpty }

  /// Rows stored: 0 while ``isEmpty``, else the table's row count.
  public var rowCount: Int { forms.count }

  /// Rows holding a UUID.
  public var uuidCount: Int { forms.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }

  /// Approximate heap bytes held.
  public var memoryFootprint: Int { forms.capacity + halves.capacity * 8 }

  /// The form of `row`'s UUID (``Form/none`` when it has none).
  @inlinable
  public func form(at row: Int) -> Form {
    guard row >= 0 && row < forms.count else { return .none }
    return Form(rawValue: forms[row]) ?? .none
  }

  /// The 16 bytes of `row`'s UUID as two big-endian halves, nil when none.
  public func value(at row: Int) -> (UInt64, UInt64)? {
    guard form(at: row) != .none else { return nil }
    return (halves[2 * row], halves[2 * row + 1])
  }

  // MARK: Text

  /// The form and value of `text` when it is exactly a UUID in one of the
  /// ``Form``s (case consistent, hyphens at 8, 13, 18 and 23), else nil.
  /// Called for every uid a reader meets: a length test, then one pass
  /// over the bytes with no allocation and no checked access.
  public static func parse(_ text: UnsafeRawBufferPointer) -> (form: Form, high: UInt64, low: UInt64)? {
    guard text.count == 36 || text.count == 45, let base = text.baseAddress else { return nil }
    if text.count == 45 {
      // "urn:uuid:" and the UUID, in one case throughout (or no letters
      // in the UUID), so that the form writes back the same bytes.
      let lowerPrefix: Bool
      switch prefixWord(base) {
      case Self.urnLower: lowerPrefix = true
      case Self.urnUpper: lowerPrefix = false
      default: return nil
      }
      guard let (upper, high, low) = parseBody(base + 9) else { return nil }
      if lowerPrefix { return upper == true ? nil : (.urnLower, high, low) }
      return upper == false ? nil : (.urnUpper, high, low)
    }
    guard let (upper, high, low) = parseBody(base) else { return nil }
    return (upper == true ? .upper : .lower, high, low)
  }

  /// "urn:uuid" and "URN:UUID" as little-endian words, and the colon after.
  private static let urnLower: UInt64 = 0x6469_7575_3A6E_7275
  private static let urnUpper: UInt64 = 0x4449_5555_3A4E_5255

  /// The first 8 bytes as a little-endian word when the 9th is ':', else 0.
  @inline(__always)
  private static func prefixWord(_ p: UnsafeRawPointer) -> UInt64 {
    guard p.load(fromByteOffset: 8, as: UInt8.self) == 0x3A else { return 0 }
    return UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
  }

  /// The 36 bytes at `p`: nil unless hex digits with hyphens at 8, 13, 18,
  /// 23; `upper` is nil when no letter appeared, else whether the letters
  /// were capitals (mixed case is not a UUID form: nil).
  @inline(__always)
  private static func parseBody(_ p: UnsafeRawPointer) -> (upper: Bool?, UInt64, UInt64)? {
    guard p.load(fromByteOffset: 8, as: UInt8.self) == 0x2D, p.load(fromByteOffset: 13, as: UInt8.self) == 0x2D,
      p.load(fromByteOffset: 18, as: UInt8.self) == 0x2D, p.load(fromByteOffset: 23, as: UInt8.self) == 0x2D
    else { return nil }
    // Five runs of hex digits, each digit decoded without a branch (hex
    // letters and digits come in random order: branches on them mispredict).
    var high: UInt64 = 0, low: UInt64 = 0
    var lowerLetters: UInt32 = 0, upperLetters: UInt32 = 0, bad: UInt32 = 0
    @inline(__always)
    func run(_ start: Int, _ count: Int, into word: inout UInt64) {
      for k in start..<(start &+ count) {
        let c = UInt32(p.load(fromByteOffset: k, as: UInt8.self))
        let isDigit: UInt32 = (c &- 0x30) < 10 ? 1 : 0
        let isLetter: UInt32 = ((c | 0x20) &- 0x61) < 6 ? 1 : 0
        let isCapital = isLetter & ((c >> 5) & 1 ^ 1)
        lowerLetters |= isLetter & ~isCapital
        upperLetters |= isCapital
        bad |= (isDigit | isLetter) ^ 1
        word = word << 4 | UInt64((c & 0xF) &+ 9 &* isLetter)
      }
    }
    run(0, 8, into: &high)
    run(9, 4, into: &high)
    run(14, 4, into: &high)
    run(19, 4, into: &low)
    run(24, 12, into: &low)
    let words = (high, low)
    if bad != 0 || (lowerLetters != 0 && upperLetters != 0) { return nil }
    return (upperLetters != 0 ? true : (lowerLetters != 0 ? false : nil), words.0, words.1)
  }

  /// Writes the text of a UUID in `form` into `out` (at least
  /// ``Form/textLength`` bytes); returns the length.
  static func render(_ form: Form, _ high: UInt64, _ low: UInt64, into out: UnsafeMutableRawBufferPointer) -> Int {
    guard form != .none, out.count >= form.textLength else { return 0 }
    var o = 0
    if form.hasPrefix {
      for c in (form.isUpper ? "URN:UUID:" : "urn:uuid:").utf8 {
        out[o] = c
        o += 1
      }
    }
    // Eight hex digits at a time (a word of eight ASCII bytes, see `hex8`),
    // in the groups 8-4-4-4-12.
    let letters: UInt64 = form.isUpper ? 0x07 : 0x27
    let w0 = hex8(UInt32(truncatingIfNeeded: high >> 32), letters), w1 = hex8(UInt32(truncatingIfNeeded: high), letters)
    let w2 = hex8(UInt32(truncatingIfNeeded: low >> 32), letters), w3 = hex8(UInt32(truncatingIfNeeded: low), letters)
    @inline(__always) func put(_ word: UInt64, bytes: Range<Int>, hyphen: Bool) {
      for k in bytes {
        out[o] = UInt8(truncatingIfNeeded: word >> UInt64(8 * k))
        o += 1
      }
      if hyphen {
        out[o] = 0x2D
        o += 1
      }
    }
    put(w0, bytes: 0..<8, hyphen: true)
    put(w1, bytes: 0..<4, hyphen: true)
    put(w1, bytes: 4..<8, hyphen: true)
    put(w2, bytes: 0..<4, hyphen: true)
    put(w2, bytes: 4..<8, hyphen: false)
    put(w3, bytes: 0..<8, hyphen: false)
    return o
  }

  /// The eight hex digits of `x`, most significant first, as ASCII bytes
  /// of a word (its first digit in the lowest byte): each nibble spread to
  /// a byte, then `0` added, and `letters` more (7 upper case, 0x27 lower)
  /// where the nibble is 10 or more. No branch a digit: a UUID would
  /// otherwise cost 32 data-dependent branches, for every uid written.
  @inline(__always)
  static func hex8(_ x: UInt32, _ letters: UInt64) -> UInt64 {
    var n = UInt64(x.byteSwapped)
    // Bytes b3 b2 b1 b0 (b3 = the first two digits) → one nibble a byte.
    n = (n | (n << 16)) & 0x0000_FFFF_0000_FFFF
    n = (n | (n << 8)) & 0x00FF_00FF_00FF_00FF
    // Each byte holds two digits, high nibble first: split them so that the
    // first digit lands in the lower byte (little-endian text order).
    n = ((n & 0x00F0_00F0_00F0_00F0) >> 4) | ((n & 0x000F_000F_000F_000F) << 8)
    let tens = ((n &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
    return n &+ 0x3030_3030_3030_3030 &+ tens &* letters
  }

  /// Calls `body` with the text of `row`'s UUID; nil (without calling it)
  /// when the row has none.
  public func withText<R>(at row: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
    guard let (high, low) = value(at: row) else { return nil }
    let form = form(at: row)
    return try withUnsafeTemporaryAllocation(byteCount: 48, alignment: 8) { buffer in
      let n = Self.render(form, high, low, into: buffer)
      return try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<n]))
    }
  }

  /// Appends the text of `row`'s UUID to `out`; false (nothing appended)
  /// when it has none. Not generic, unlike ``withText(at:_:)``: a writer
  /// of a million uids in another module pays no metadata lookup per call.
  public func appendText(at row: Int, to out: inout [UInt8]) -> Bool {
    guard let (high, low) = value(at: row) else { return false }
    let form = form(at: row)
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: form.textLength))
    out.withUnsafeMutableBytes { b in
      _ = Self.render(form, high, low, into: UnsafeMutableRawBufferPointer(rebasing: b[start...]))
    }
    return true
  }

  /// The text of `row`'s UUID, nil when it has none.
  public func text(at row: Int) -> String? {
    withText(at: row) { String(decoding: $0, as: UTF8.self) }
  }

  // MARK: Building

  /// Reserves room for `rows` rows when the column stores any (a column
  /// without UUIDs stays empty).
  package mutating func reserveCapacity(_ rows: Int) {
    guard !isEmpty else { return }
    forms.reserveCapacity(rows)
    halves.reserveCapacity(2 * rows)
  }

  /// Makes room for rows `0 ..< rows` (new rows hold no UUID).
  mutating func extend(to rows: Int) {
    guard rows > forms.count else { return }
    let more = rows - forms.count
    forms.append(contentsOf: repeatElement(0, count: more))
    halves.append(contentsOf: repeatElement(0, count: 2 * more))
  }

  /// Stores a UUID at `row` of a table with `rowCount` rows (the storage
  /// is filled up to `rowCount` first).
  package mutating func set(_ row: Int, form: Form, high: UInt64, low: UInt64, rowCount: Int) {
    guard row >= 0 && row < rowCount else { return }
    extend(to: rowCount)
    forms[row] = form.rawValue
    halves[2 * row] = high
    halves[2 * row + 1] = low
  }

  /// Clears `row` (it holds no UUID afterwards).
  package mutating func clear(_ row: Int) {
    guard row >= 0 && row < forms.count else { return }
    forms[row] = 0
    halves[2 * row] = 0
    halves[2 * row + 1] = 0
  }

  /// Drops rows from `rows` on.
  package mutating func truncate(to rows: Int) {
    guard rows < forms.count else { return }
    forms.removeLast(forms.count - rows)
    halves.removeLast(halves.count - 2 * rows)
  }

  /// Appends `other`'s rows, `otherRows` of them, after this column's
  /// `rows` rows (either side may be empty storage).
  package mutating func append(_ other: UUIDColumn, otherRows: Int, after rows: Int) {
    if other.isEmpty {
      if !isEmpty { extend(to: rows + otherRows) }
      return
    }
    extend(to: rows)
    forms.append(contentsOf: other.forms.prefix(otherRows))
    halves.append(contentsOf: other.halves.prefix(2 * otherRows))
    // `other` may store fewer rows than it has.
    extend(to: rows + otherRows)
  }

  /// ``gathering(_:)`` of a list of `Int32` rows, specialized here (the
  /// generic one, called from another module, runs unspecialized).
  package func gathering(rows: [Int32]) -> UUIDColumn { gathering(rows) }

  /// The rows `rows` (indices into this column) in that order; empty
  /// storage when none of them holds a UUID.
  package func gathering<C: Collection>(_ rows: C) -> UUIDColumn where C.Element: BinaryInteger {
    guard !isEmpty else { return UUIDColumn() }
    var out = UUIDColumn()
    out.forms.reserveCapacity(rows.count)
    out.halves.reserveCapacity(rows.count * 2)
    var any = false
    for r in rows {
      let i = Int(r)
      if i >= 0 && i < forms.count && forms[i] != 0 {
        any = true
        out.forms.append(forms[i])
        out.halves.append(halves[2 * i])
        out.halves.append(halves[2 * i + 1])
      } else {
        out.forms.append(0)
        out.halves.append(0)
        out.halves.append(0)
      }
    }
    return any ? out : UUIDColumn()
  }

  /// A column from per-row forms and halves (2 per row), for builders that
  /// gather them in raw memory; empty storage when no form is set.
  package init(forms: [UInt8], halves: [UInt64]) {
    guard forms.contains(where: { $0 != 0 }), halves.count == 2 * forms.count else { return }
    self.forms = forms
    self.halves = halves
  }

  /// Checks that the storage is empty or `rows` long, with known forms and
  /// zero halves where there is no UUID. With OHANA_INTERNAL_CHECKS only.
  public func checkInvariants(rows: Int) {
    #if OHANA_INTERNAL_CHECKS
    precondition(forms.isEmpty || forms.count == rows, "UUIDColumn row count")
    precondition(halves.count == 2 * forms.count, "UUIDColumn halves")
    for (i, f) in forms.enumerated() {
      precondition(Form(rawValue: f) != nil, "UUIDColumn form")
      if f == 0 { precondition(halves[2 * i] == 0 && halves[2 * i + 1] == 0, "UUIDColumn: stray value") }
    }
    #endif
  }

  /// Equal when every row has the same form and value (empty storage
  /// equals storage of rows without UUIDs).
  public static func == (a: UUIDColumn, b: UUIDColumn) -> Bool {
    for r in 0..<max(a.forms.count, b.forms.count) {
      if a.form(at: r) != b.form(at: r) { return false }
      if let x = a.value(at: r), let y = b.value(at: r), x != y { return false }
    }
    return true
  }
}
