import OhanaCore

#if canImport(Glibc)
  import Glibc
#endif

/// The properties that have a home in the table; everything else is an
/// extra property.
enum VCardPropertyKind {
  case version, uid, fullName, name, nickname, organization, title, birthday, note, photo
  case tel, email, url, impp, address, otherField, extra
  /// BEGIN or END as a property name: the card markers themselves never
  /// reach the parser, so this is one with parameters (`END;X=1:VCARD`).
  case marker

  private static let names: [(String, VCardPropertyKind)] = [
    ("TEL", .tel), ("EMAIL", .email), ("FN", .fullName), ("N", .name), ("ADR", .address),
    ("VERSION", .version), ("UID", .uid), ("ORG", .organization), ("TITLE", .title),
    ("NOTE", .note), ("BDAY", .birthday), ("URL", .url), ("NICKNAME", .nickname),
    ("PHOTO", .photo), ("IMPP", .impp), ("X-OHANA-OTHER", .otherField), ("BEGIN", .marker), ("END", .marker),
  ]
  private static let table: [([UInt8], VCardPropertyKind)] = names.map { (Array($0.0.utf8), $0.1) }

  static func of(_ name: ArraySlice<UInt8>) -> VCardPropertyKind {
    name.withUnsafeBufferPointer { of($0) }
  }

  static func of(_ name: UnsafeBufferPointer<UInt8>) -> VCardPropertyKind {
    // Names of up to 8 bytes: pack the upper-cased bytes into one integer
    // (little-endian) and switch on (length, packed).
    let n = name.count
    if n == 0 { return .extra }
    if n > 8 {
      return n == 13 && name.asciiEqualsUppercase(otherFieldName) ? .otherField : .extra
    }
    guard let p = name.baseAddress else { return .extra }
    let key = ByteScan.upper(ByteScan.smallWord(UnsafeRawPointer(p), n))
    switch (n, key) {
    case (3, 0x4C4554): return .tel  // TEL
    case (5, 0x4C49414D45): return .email  // EMAIL
    case (2, 0x4E46): return .fullName  // FN
    case (1, 0x4E): return .name  // N
    case (3, 0x524441): return .address  // ADR
    case (7, 0x4E4F4953524556): return .version  // VERSION
    case (3, 0x444955): return .uid  // UID
    case (3, 0x47524F): return .organization  // ORG
    case (5, 0x454C544954): return .title  // TITLE
    case (4, 0x45544F4E): return .note  // NOTE
    case (4, 0x59414442): return .birthday  // BDAY
    case (3, 0x4C5255): return .url  // URL
    case (8, 0x454D414E4B43494E): return .nickname  // NICKNAME
    case (5, 0x4F544F4850): return .photo  // PHOTO
    case (4, 0x50504D49): return .impp  // IMPP
    case (3, 0x444E45), (5, 0x4E49474542): return .marker  // END, BEGIN
    default: return .extra
    }
  }

  private static let otherFieldName: [UInt8] = Array("X-OHANA-OTHER".utf8)

  /// The kind by a plain table scan (the reference for ``of(_:)``, in tests).
  static func slowKind(_ name: ArraySlice<UInt8>) -> VCardPropertyKind {
    for (n, k) in table where name.asciiEqualsUppercase(n) { return k }
    return .extra
  }
}

/// Turns the cards of one chunk into rows of a ``ContactTableBuilder``.
///
/// What goes where (see also `VCardParameters` for the parameter text):
/// - FN, N (family;given;middle;prefix;suffix), NICKNAME, ORG
///   (organization;department), TITLE, BDAY, NOTE, UID: their columns,
///   unescaped. A second occurrence becomes an extra property (an empty
///   first one does not count: the next one fills the column). Parameters on
///   these properties (LANGUAGE, SORT-AS...) are not kept.
/// - TEL, EMAIL, URL, IMPP: fields (phone, email, url, impp) with label
///   (TYPE values, see `writeLabel`), value (unescaped), group, parameters.
///   X-OHANA-OTHER: a field of kind `other` (what we write for it).
/// - ADR: addresses (pobox;extended;street;locality;region;code;country).
/// - PHOTO: the first inline one (base64 or `data:` URI) is the photo
///   column; others (URLs, second photos) are extra properties.
/// - everything else: extra properties, name as written, value kept in vCard
///   text syntax (escapes untouched), after quoted-printable and charset
///   decoding (line breaks that decoding produced become `\n`).
struct VCardCardParser {
  var builder: ChunkBuilder
  /// Every string of the chunk, by provisional id: the builder's columns
  /// hold these ids, and the reader interns the batch into the result
  /// table's pool when it merges the chunk (see `StringBatch`).
  var strings: StringBatch
  var errors: [InputError] = []
  var cardsRead = 0
  /// Cards that could not be imported at all (always 0 here: a card is
  /// imported with what can be read; stray text is counted by the reader).
  var cardsSkipped = 0
  /// Charset for values that are not UTF-8 and carry no (known) CHARSET.
  var fallbackCharset: [UInt8]
  /// What undeclared 8-bit text is (`ReadOptions.declaredCharset`, or the
  /// charset detection chose): used before `fallbackCharset`, after any
  /// CHARSET of the value or of its card.
  var declaredCharset: [UInt8]? = nil
  /// Values that were not UTF-8 and had no CHARSET of their own or their
  /// card's (decoded with `declaredCharset` or `fallbackCharset`).
  var undeclaredValues = 0
  /// Their raw bytes (after quoted-printable), one line each, whole values
  /// up to `undeclaredTextLimit`, for charset detection; collected only
  /// while there is no `declaredCharset`.
  var undeclaredText: [UInt8] = []
  static let undeclaredTextLimit = 64 << 10

  /// The card's property lines, split, with their kind and where their
  /// bytes are (`isCopy`: unfolded into the card's own bytes).
  private var props: [(line: VCardPropertyLine, kind: VCardPropertyKind, isCopy: Bool, lineNo: Int)] = []
  private var parts: [Range<Int>] = []
  private var params = VCardParameters()
  private var value: [UInt8] = []
  private var scratch: [UInt8] = []
  private var text: [UInt8] = []
  /// The first non-UTF-8 CHARSET named anywhere in the card (looked up only
  /// when a value without a usable CHARSET is not UTF-8): legacy writers
  /// label one property and leave the others in the same charset.
  private var cardCharset: [UInt8]?? = nil
  private var cardParams = VCardParameters()
  /// Bit `attribute.rawValue` is set once the current card has set it.
  private var seen: UInt32 = 0

  @inline(__always)
  private func isSet(_ a: ContactAttribute) -> Bool { seen & (1 << UInt32(a.rawValue)) != 0 }

  @inline(__always)
  /// Sets a column; an empty value does not count as set, so a later
  /// occurrence of the property fills it (what the writer writes back).
  private mutating func set(_ a: ContactAttribute, _ id: StringID) {
    if id.isPresent { seen |= 1 << UInt32(a.rawValue) }
    builder.set(a, id)
  }

  /// `strings`: the batch to collect into, sized for the chunk.
  init(fallbackCharset: String, strings: StringBatch = StringBatch(), builder: ChunkBuilder = ChunkBuilder()) {
    self.builder = builder
    self.strings = strings
    self.fallbackCharset = Array(fallbackCharset.utf8)
  }

  /// N's components in order: family; given; middle; prefix; suffix (a
  /// switch, not a static array: a global `let` costs a `swift_once` check
  /// per access in the hot loop).
  @inline(__always)
  private static func nameColumn(_ k: Int) -> ContactAttribute {
    switch k {
    case 0: return .familyName
    case 1: return .givenName
    case 2: return .middleName
    case 3: return .prefix
    default: return .suffix
    }
  }
  private static let qp: [UInt8] = Array("QUOTED-PRINTABLE".utf8)
  private static let b: [UInt8] = Array("B".utf8)
  private static let base64: [UInt8] = Array("BASE64".utf8)
  private static let bit7: [UInt8] = Array("7BIT".utf8)
  private static let bit8: [UInt8] = Array("8BIT".utf8)
  private static let dataScheme: [UInt8] = Array("DATA:".utf8)

  /// Bytes borrowed from the card (or from a decoded copy) for the length
  /// of one property: no slice of an array is made per value, so handling a
  /// property retains nothing.
  typealias Bytes = UnsafeBufferPointer<UInt8>

  @inline(__always)
  private mutating func intern(_ bytes: Bytes) -> StringID {
    if bytes.isEmpty { return .absent }
    return strings.add(UnsafeRawBufferPointer(bytes))
  }

  /// A text value: unescaped (3.0 / 4.0) or CRLF-normalized (2.1); interned
  /// straight from the card when there is nothing to change.
  private mutating func internText(_ v: Bytes, legacy: Bool) -> StringID {
    if !Self.needsUnescaping(v) { return intern(v) }
    text.removeAll(keepingCapacity: true)
    if legacy {
      VCardEscaping.copyLegacyText(v, into: &text)
    } else {
      VCardEscaping.unescapeText(v, into: &text)
    }
    return intern(text)
  }

  @inline(__always)
  private static func needsUnescaping(_ v: Bytes) -> Bool {
    ByteScan.contains(UnsafeRawBufferPointer(v), ASCII.backslash, or: ASCII.cr)
  }

  private mutating func internComponent(_ v: Bytes, legacy: Bool) -> StringID {
    if !Self.needsUnescaping(v) { return intern(v) }
    text.removeAll(keepingCapacity: true)
    VCardEscaping.unescapeComponent(v, legacy: legacy, into: &text)
    return intern(text)
  }

  @inline(__always)
  private mutating func intern(_ bytes: [UInt8]) -> StringID {
    if bytes.isEmpty { return .absent }
    return bytes.withUnsafeBytes { strings.add($0) }
  }

  /// A warning about the card being parsed (it is still imported).
  mutating func warn(_ line: Int, _ reason: String, property: Bytes? = nil) {
    let name = property.flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
    errors.append(InputError(line: line, reason: reason, severity: .warning, property: name))
  }

  /// Parses one card; its lines point into `chunk` or into `card.bytes`
  /// (see `VCardCard`). The card is always imported: a line that cannot be
  /// read is kept verbatim as an extra property and reported as a warning.
  mutating func parse(card: inout VCardCard, chunk: Bytes) {
    props.removeAll(keepingCapacity: true)
    var legacy = false
    let firstWarning = errors.count
    if !card.warnings.isEmpty {
      for w in card.warnings { warn(w.line, w.reason) }
    }
    // Split every line over the borrowed bytes (no slice per line); the
    // ranges of a line are kept relative to the buffer it lives in.
    card.bytes.withUnsafeBufferPointer { copy in
      for l in card.lines {
        let (buf, range, isCopy) = VCardCard.buffer(of: l.range, chunk: chunk, copy: copy)
        guard let p = VCardPropertyLine.split(borrowing: buf, range) else {
          // No property name or no `:`: the whole line, kept verbatim.
          props.append((VCardPropertyLine(unreadable: range), .extra, isCopy, l.number))
          continue
        }
        let kind = VCardPropertyKind.of(UnsafeBufferPointer(rebasing: buf[p.name]))
        if p.group.isEmpty && kind == .marker && Self.isVCARD(UnsafeBufferPointer(rebasing: buf[p.value])) {
          // `END;X=1:VCARD` (no group): written back with its parameters in
          // the canonical form it could become the marker itself, so the
          // whole line is kept as it was.
          props.append((VCardPropertyLine(unreadable: range), .marker, isCopy, l.number))
          continue
        }
        if p.group.isEmpty && kind == .version {
          let v = UnsafeBufferPointer(rebasing: buf[p.value])
          legacy = v.count == 3 && v[0] == 0x32 && v[1] == 0x2E && v[2] == 0x31  // "2.1"
        }
        props.append((p, kind, isCopy, l.number))
      }
      cardCharset = nil
      seen = 0
      builder.beginContact(sourceLine: card.startLine)
      let lines = CardLines(chunk: chunk, copy: copy)
      for i in props.indices {
        let (p, kind, isCopy, lineNo) = props[i]
        let bytes = isCopy ? copy : chunk
        if p.name.isEmpty {
          keepUnreadable(p, in: bytes, line: lineNo, reason: nil, marker: kind == .marker, legacy: legacy)
        } else if let reason = property(p, kind: kind, in: bytes, card: lines, legacy: legacy) {
          keepUnreadable(p, in: bytes, line: lineNo, reason: reason, legacy: legacy)
        }
      }
    }
    if errors.count - firstWarning > 1 {
      // The lexer's and the parser's warnings, in line order.
      errors[firstWarning...].sort { $0.line < $1.line }
    }
    builder.endContact()
    cardsRead += 1
  }

  /// A line the card cannot use, kept verbatim with a warning: a line with
  /// no property name (`reason` nil) or a property that failed for `reason`.
  /// (Out of line: the loop above stays small.)
  @inline(never)
  private mutating func keepUnreadable(
    _ p: VCardPropertyLine, in bytes: Bytes, line: Int, reason: String?, marker: Bool = false, legacy: Bool
  ) {
    guard let reason else {
      let whole = Bytes(rebasing: bytes[p.value])
      if let dropped = Self.unkeepable(whole) {
        warn(line, dropped)
        return
      }
      warn(line, marker ? "BEGIN or END with parameters is not a card marker; kept verbatim" : "not a property line (no name or no ':'); kept verbatim")
      keepVerbatim(name: .absent, group: .absent, parameters: .absent, value: whole)
      return
    }
    let name = Bytes(rebasing: bytes[p.name])
    warn(line, reason + "; kept verbatim", property: name)
    // The property as written: name, group, every parameter (ENCODING and
    // CHARSET included, in the canonical form any extra property gets, so
    // reading it back gives the same text) and the undecoded value.
    params.parse(ArraySlice(bytes[p.params]), legacy: legacy)
    text.removeAll(keepingCapacity: true)
    params.writeCanonical(skipping: 0, into: &text)
    let paramsID = text.withUnsafeBufferPointer { keptText($0) }
    keepVerbatim(
      name: intern(name), group: intern(Bytes(rebasing: bytes[p.group])), parameters: paramsID,
      value: Bytes(rebasing: bytes[p.value]))
  }

  /// Why a line cannot be kept verbatim, or nil when it can. A line kept
  /// verbatim is written back as it is, on a line of its own, and must read
  /// back as itself: not starting with a blank (that continues the line
  /// before), not starting with `#` (a comment), not a card marker. Such
  /// lines come only from a line that starts with a blank and has nothing
  /// to continue (right after BEGIN:VCARD or a nested card's END:VCARD),
  /// which the lexer reads without its blanks: ` #x`, ` END:VCARD`. Kept,
  /// they would be lost or end the card early when read again, so they are
  /// dropped here, each with a warning at its line (a property with a name,
  /// ` #x:y`, is kept: the writer puts an empty group before `#`).
  static func unkeepable(_ line: Bytes) -> String? {
    guard let first = line.first else { return nil }
    if ASCII.isSpace(first) {
      return "line starts with a blank but has nothing to continue; dropped"
    }
    if first == ASCII.hash {
      return "indented line with nothing to continue starts with '#' (a comment); dropped"
    }
    if VCardLexer.isMarker(line, VCardLexer.begin) || VCardLexer.isMarker(line, VCardLexer.end) {
      return "indented BEGIN:VCARD or END:VCARD with nothing to continue is no card marker; dropped"
    }
    return nil
  }

  /// An extra property holding text as it was written (valid UTF-8 kept as
  /// is; other bytes through the fallback charset, else U+FFFD).
  private mutating func keepVerbatim(name: StringID, group: StringID, parameters: StringID, value: Bytes) {
    builder.appendExtra(name: name, group: group, parameters: parameters, value: keptText(value))
  }

  private mutating func keptText(_ v: Bytes) -> StringID {
    if ByteScan.isValidUTF8(UnsafeRawBufferPointer(v)) { return intern(v) }
    scratch.removeAll(keepingCapacity: true)
    do {
      try Charset.toUTF8(Array(v), charset: fallbackCharset, into: &scratch)
    } catch {
      scratch = Array(String(decoding: v, as: UTF8.self).utf8)
    }
    return intern(scratch)
  }

  /// The two buffers the lines of the card being parsed point into.
  struct CardLines {
    var chunk: Bytes
    var copy: Bytes
  }

  private mutating func charsetHint(_ card: CardLines, legacy: Bool) -> [UInt8]? {
    if let known = cardCharset { return known }
    var found: [UInt8]? = nil
    for i in props.indices where !props[i].line.params.isEmpty {
      let bytes = props[i].isCopy ? card.copy : card.chunk
      cardParams.parse(ArraySlice(bytes[props[i].line.params]), legacy: legacy)
      if let v = cardParams.firstValue(of: VCardParameters.charsetName), !Charset.isUTF8Label(v) {
        found = Array(v)
        break
      }
    }
    cardCharset = .some(found)
    return found
  }

  /// What a property's parameter text means, cached per chunk: the same
  /// few parameter strings (`;TYPE=CELL,VOICE`, `;CHARSET=UTF-8;ENCODING=
  /// QUOTED-PRINTABLE`) repeat on most lines.
  struct ParamInfo {
    var key: [UInt8] = []
    var legacy = false
    var isQP = false
    var isBase64 = false
    var failure: String?
    var charset: [UInt8]?
    var paramsID = StringID.absent
    var labelID = StringID.absent
    static let unknownEncoding = "unknown ENCODING parameter"
    static let conflictingEncodings = "conflicting ENCODING parameters"

    /// The trivially copyable part, handed out per property.
    var summary: ParamSummary {
      ParamSummary(
        isQP: isQP, isBase64: isBase64, failure: failure == nil ? 0 : (failure == Self.conflictingEncodings ? 2 : 1),
        hasCharset: charset != nil,
        paramsID: paramsID, labelID: labelID)
    }
  }

  struct ParamSummary {
    var isQP = false
    var isBase64 = false
    /// Why the parameters make the property unreadable: 0 they do not,
    /// 1 an unknown ENCODING, 2 conflicting ENCODINGs (a code, not a
    /// string, so the summary stays trivially copyable).
    var failure: UInt8 = 0
    var hasCharset = false
    var paramsID = StringID.absent
    var labelID = StringID.absent
    /// Cache slot holding the charset name when `hasCharset`.
    var slot = 0
  }

  // Direct-mapped, so it needs room well beyond the number of distinct
  // parameter texts (a few hundred in real exports): with little room to
  // spare, lookups miss on collisions, and each miss re-parses.
  private static let paramCacheSize = 2048
  // The cache as parallel arrays, so a hit copies no reference-counted value.
  private var paramKeys = [[UInt8]](repeating: [], count: paramCacheSize)
  private var paramLegacy = [Bool](repeating: false, count: paramCacheSize)
  private var paramSummaries = [ParamSummary?](repeating: nil, count: paramCacheSize)
  private var paramCharsets = [[UInt8]?](repeating: nil, count: paramCacheSize)

  private static func sameBytes(_ a: borrowing [UInt8], _ b: Bytes) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
      guard let p = x.baseAddress, let q = b.baseAddress else { return true }
      return memcmp(p, q, x.count) == 0
    }
  }

  private mutating func paramInfo(_ raw: Bytes, legacy: Bool) -> ParamSummary {
    if raw.isEmpty { return ParamSummary() }
    let h = StringPool.hash(UnsafeRawBufferPointer(raw))
    let slot = Int(h ^ (legacy ? 0x9E37 : 0)) & (Self.paramCacheSize - 1)
    if let hit = paramSummaries[slot], paramLegacy[slot] == legacy, Self.sameBytes(paramKeys[slot], raw) {
      return hit
    }
    var info = ParamInfo(key: Array(raw), legacy: legacy)
    params.parse(info.key[...], legacy: legacy)
    var skip: UInt64 = 0
    // Every ENCODING and CHARSET parameter counts, not just the first: one
    // left among the extra parameters would be written back beside a value
    // already decoded, and decoded a second time when read again. Several
    // ENCODINGs must agree (else the property is kept verbatim with a
    // warning); of several CHARSETs the first decodes and all are consumed.
    var encoding: UInt8 = 0  // 0 none yet, 1 quoted-printable, 2 base64, 3 7bit / 8bit
    for i in params.names.indices where params.bytes[params.names[i]].elementsEqual(VCardParameters.encodingName) {
      let enc = params.valueSpans[i].first.map { params.bytes[params.values[$0]] } ?? []
      let kind: UInt8
      if enc.asciiEqualsUppercase(Self.qp) {
        kind = 1
      } else if enc.asciiEqualsUppercase(Self.b) || enc.asciiEqualsUppercase(Self.base64) {
        kind = 2
      } else if enc.asciiEqualsUppercase(Self.bit7) || enc.asciiEqualsUppercase(Self.bit8) {
        kind = 3
      } else {
        info.failure = ParamInfo.unknownEncoding
        continue
      }
      if encoding != 0 && encoding != kind { info.failure = ParamInfo.conflictingEncodings }
      encoding = kind
      // Base64 values of extra properties are kept encoded, with their ENCODING.
      if kind != 2 && i < 64 { skip |= 1 << UInt64(i) }
    }
    if info.failure == nil {
      info.isQP = encoding == 1
      info.isBase64 = encoding == 2
    }
    for i in params.names.indices where params.bytes[params.names[i]].elementsEqual(VCardParameters.charsetName) {
      if i < 64 { skip |= 1 << UInt64(i) }
      if info.charset == nil, let vi = params.valueSpans[i].first { info.charset = Array(params.bytes[params.values[vi]]) }
    }
    text.removeAll(keepingCapacity: true)
    params.writeCanonical(skipping: skip, into: &text)
    info.paramsID = intern(text)
    text.removeAll(keepingCapacity: true)
    params.writeLabel(into: &text)
    info.labelID = intern(text)
    var summary = info.summary
    summary.slot = slot
    paramKeys[slot] = info.key
    paramLegacy[slot] = legacy
    paramSummaries[slot] = summary
    paramCharsets[slot] = info.charset
    return summary
  }

  /// Handles one property; returns a failure reason or nil.
  @inline(__always)
  private mutating func property(
    _ p: VCardPropertyLine, kind: VCardPropertyKind, in bytes: Bytes, card: CardLines, legacy: Bool
  ) -> String? {
    if kind == .version && p.group.isEmpty { return nil }
    let info = paramInfo(Bytes(rebasing: bytes[p.params]), legacy: legacy)
    if info.failure != 0 { return info.failure == 2 ? ParamInfo.conflictingEncodings : ParamInfo.unknownEncoding }
    let isQP = info.isQP
    let isBase64 = info.isBase64
    let raw = Bytes(rebasing: bytes[p.value])
    if !isQP && (isBase64 || ByteScan.isValidUTF8(UnsafeRawBufferPointer(raw))) {
      // The common case: the value is used where it stands in the card.
      return store(p, kind: kind, raw, decoded: false, in: bytes, info: info, legacy: legacy)
    }

    // Decoded values live in `value`, moved out of `self` while they are
    // borrowed (so storing them can change `self`) and moved back after, to
    // keep its capacity.
    var decodedValue: [UInt8] = []
    swap(&decodedValue, &value)
    defer { swap(&decodedValue, &value) }
    decodedValue.removeAll(keepingCapacity: true)
    if isQP {
      guard QuotedPrintable.decode(raw, into: &decodedValue) else { return "invalid quoted-printable value" }
    } else {
      decodedValue.append(contentsOf: raw)
    }
    if !isBase64 && !decodedValue.withUnsafeBytes({ ByteScan.isValidUTF8($0) }) {
      scratch.removeAll(keepingCapacity: true)
      var converted = false
      if info.hasCharset, let name = paramCharsets[info.slot] {
        do {
          try Charset.toUTF8(decodedValue, charset: name, into: &scratch)
          converted = true
        } catch {
          scratch.removeAll(keepingCapacity: true)
        }
      }
      if !converted, let hint = charsetHint(card, legacy: legacy) {
        do {
          try Charset.toUTF8(decodedValue, charset: hint, into: &scratch)
          converted = true
        } catch {
          scratch.removeAll(keepingCapacity: true)
        }
      }
      if !converted {
        undeclaredValues += 1
        if let declared = declaredCharset {
          do {
            try Charset.toUTF8(decodedValue, charset: declared, into: &scratch)
            converted = true
          } catch {
            scratch.removeAll(keepingCapacity: true)
          }
        } else if undeclaredText.count + decodedValue.count < Self.undeclaredTextLimit {
          // Whole values only: a multi-byte character cut in two would
          // count against the charset it belongs to.
          undeclaredText.append(contentsOf: decodedValue)
          undeclaredText.append(ASCII.lf)
        }
      }
      if !converted {
        do {
          try Charset.toUTF8(decodedValue, charset: fallbackCharset, into: &scratch)
        } catch {
          return "value is not valid in any known charset"
        }
      }
      swap(&decodedValue, &scratch)
    }
    return decodedValue.withUnsafeBufferPointer { v in
      store(p, kind: kind, v, decoded: true, in: bytes, info: info, legacy: legacy)
    }
  }

  /// Stores a property whose value `v` is decoded (quoted-printable and
  /// charset undone); `decoded` says whether it differs from the card's text.
  private mutating func store(
    _ p: VCardPropertyLine, kind: VCardPropertyKind, _ v: Bytes, decoded: Bool, in bytes: Bytes,
    info: ParamSummary, legacy: Bool
  ) -> String? {
    let isBase64 = info.isBase64
    switch kind {
    case .version:
      return nil
    case .uid, .fullName, .nickname, .title, .birthday, .note:
      let attribute: ContactAttribute
      switch kind {
      case .uid: attribute = .uid
      case .fullName: attribute = .fullName
      case .nickname: attribute = .nickname
      case .title: attribute = .jobTitle
      case .birthday: attribute = .birthday
      default: attribute = .note
      }
      if isSet(attribute) || !p.group.isEmpty { break }
      if attribute == .uid && builder.setUUID(UnsafeRawBufferPointer(v)) {
        seen |= 1 << UInt32(ContactAttribute.uid.rawValue)
        return nil
      }
      set(attribute, internText(v, legacy: legacy))
      return nil
    case .name:
      if isSet(.familyName) || !p.group.isEmpty { break }
      VCardEscaping.splitStructured(v, maxParts: 5, into: &parts)
      var any = false
      for k in 0..<min(parts.count, 5) {
        let id = internComponent(Bytes(rebasing: v[parts[k]]), legacy: legacy)
        any = any || id.isPresent
        set(Self.nameColumn(k), id)
      }
      if any { seen |= 1 << UInt32(ContactAttribute.familyName.rawValue) }
      return nil
    case .organization:
      if isSet(.organization) || !p.group.isEmpty { break }
      VCardEscaping.splitStructured(v, maxParts: 2, into: &parts)
      var any = false
      for k in 0..<min(parts.count, 2) {
        let id = internComponent(Bytes(rebasing: v[parts[k]]), legacy: legacy)
        any = any || id.isPresent
        set(k == 0 ? .organization : .department, id)
      }
      if any { seen |= 1 << UInt32(ContactAttribute.organization.rawValue) }
      return nil
    case .photo:
      params.parse(ArraySlice(bytes[p.params]), legacy: legacy)
      if let reason = photo(p, v, isBase64: isBase64) {
        if reason.isEmpty { break }  // not an inline photo: an extra property
        return reason
      }
      return nil
    case .tel, .email, .url, .impp, .otherField:
      let fieldKind: FieldKind
      switch kind {
      case .tel: fieldKind = .phone
      case .email: fieldKind = .email
      case .url: fieldKind = .url
      case .impp: fieldKind = .impp
      default: fieldKind = .other
      }
      let valueID = internText(v, legacy: legacy)
      let groupID = intern(Bytes(rebasing: bytes[p.group]))
      builder.appendField(
        kind: fieldKind, label: info.labelID, value: valueID, group: groupID, parameters: info.paramsID)
      return nil
    case .address:
      VCardEscaping.splitStructured(v, maxParts: 7, into: &parts)
      // ADR order: pobox;extended;street;locality;region;code;country.
      var pobox = StringID.absent, extended = StringID.absent, street = StringID.absent
      var locality = StringID.absent, region = StringID.absent, code = StringID.absent
      var country = StringID.absent
      for k in parts.indices {
        let id = internComponent(Bytes(rebasing: v[parts[k]]), legacy: legacy)
        switch k {
        case 0: pobox = id
        case 1: extended = id
        case 2: street = id
        case 3: locality = id
        case 4: region = id
        case 5: code = id
        default: country = id
        }
      }
      let groupID = intern(Bytes(rebasing: bytes[p.group]))
      builder.appendAddress(
        label: info.labelID, street: street, locality: locality, region: region, postalCode: code,
        country: country, poBox: pobox, extended: extended, group: groupID, parameters: info.paramsID)
      return nil
    case .extra, .marker:
      break
    }

    // An extra property, kept whole.
    let nameID = intern(Bytes(rebasing: bytes[p.name]))
    let groupID = intern(Bytes(rebasing: bytes[p.group]))
    let paramsID = info.paramsID
    let valueID: StringID
    if decoded {
      text.removeAll(keepingCapacity: true)
      VCardEscaping.escapeNewlinesOnly(v, into: &text)
      valueID = intern(text)
    } else {
      valueID = intern(v)
    }
    builder.appendExtra(name: nameID, group: groupID, parameters: paramsID, value: valueID)
    return nil
  }

  /// The photo column: returns nil when set, "" when the property should be
  /// kept as an extra property instead, or a failure reason.
  private mutating func photo(_ p: VCardPropertyLine, _ value: Bytes, isBase64: Bool) -> String? {
    if builder.photoTaken || !p.group.isEmpty { return "" }
    scratch.removeAll(keepingCapacity: true)
    text.removeAll(keepingCapacity: true)
    if isBase64 {
      guard Base64.decode(value, into: &scratch) else { return "invalid base64 data" }
      if let t = params.firstValue(of: VCardParameters.typeName) {
        // A media type is printable ASCII (RFC 6838); other bytes would be
        // read as text in another charset once written into a data: URI.
        guard Self.isMediaTypeText(t) else { return "" }
        Self.mediaType(fromType: t, into: &text)
      }
    } else if value.asciiHasPrefixUppercase(Self.dataScheme) {
      // data:[<media type>][;base64],<data>
      guard let comma = value.firstIndex(of: ASCII.comma) else { return "" }
      let head = value[(value.startIndex + 5)..<comma]
      let isB64 = head.count >= 7 && head.suffix(7).asciiEqualsUppercase(Array(";BASE64".utf8))
      guard isB64, Self.isMediaTypeText(head.dropLast(7)) else { return "" }
      for b in head.dropLast(7) { text.append(ASCII.lower(b)) }
      guard Base64.decode(value[(comma + 1)...], into: &scratch) else { return "invalid base64 data" }
    } else {
      return ""
    }
    let mediaID = intern(text)
    builder.setPhoto(scratch, mediaType: mediaID)
    return nil
  }

  /// `VCARD` in any case, blanks after it allowed (what makes a BEGIN or
  /// END line a card marker).
  static func isVCARD(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
    var n = v.count
    while n > 5 && ASCII.isSpace(v[n - 1]) { n -= 1 }
    return n == 5 && UnsafeBufferPointer(rebasing: v[0..<5]).asciiEqualsUppercase(vcardWord)
  }

  private static let vcardWord: [UInt8] = Array("VCARD".utf8)

  /// Printable ASCII only (no space): what a media type can hold.
  static func isMediaTypeText<C: Collection<UInt8>>(_ t: C) -> Bool {
    t.allSatisfy { $0 > 0x20 && $0 < 0x7F }
  }

  /// `JPEG` → `image/jpeg`; a value that already has a `/` is lower-cased.
  static func mediaType(fromType t: ArraySlice<UInt8>, into out: inout [UInt8]) {
    if !t.contains(UInt8(ascii: "/")) { out.append(contentsOf: Array("image/".utf8)) }
    for b in t { out.append(ASCII.lower(b)) }
  }
}
