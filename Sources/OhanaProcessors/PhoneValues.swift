import OhanaCore
import OhanaPhone

/// Writes each phone number in one format into the field's value (issue
/// 46: a normalization job writes what it normalizes). Runs after
/// ``PhoneNumberFormatting``, whose column for `format` it reads; a field
/// that column has no value for (a number that did not parse) keeps its
/// typed text and is counted (`phone.unparsed`) with its contact's line in
/// the stage's notes.
///
/// What each format keeps (decided here, documented in the README):
/// - `national`, `international`: the extension as ` ext. N`, as
///   libphonenumber writes it;
/// - `rfc3966`: a `tel:` URI with `;ext=N`; with ``uriValue`` (vCard 4.0)
///   the property also gets `VALUE=uri` (RFC 6350 §6.4.1);
/// - `e164` has no extension: it goes into the parameter `X-EXT=N`
///   (``ExtensionPlace/parameter``, vCard), or after the number as
///   `;ext=N` (``ExtensionPlace/value``: CSV, which has no parameters), and
///   is counted (`phone.extensions`).
///
/// The field's other parameters (`TYPE=CELL`) and its label are kept.
/// With ``keepOriginal`` the typed text goes into `X-OHANA-ORIGINAL`
/// when it differs from what is written. An enricher: keeps rows, order
/// and every other column.
public struct PhoneValues: PostProcessor {
  public enum ExtensionPlace: Sendable { case parameter, value }

  public static let unparsedCounter = "phone.unparsed"
  public static let extensionsCounter = "phone.extensions"
  public static let rewrittenCounter = "phone.rewritten"
  public static let extensionParameter = "X-EXT"
  public static let originalParameter = "X-OHANA-ORIGINAL"
  /// At most this many unparsed numbers are listed by line in the notes
  /// (all are counted).
  public static let listedLines = 1000

  public let format: PhoneNumberFormat
  public let keepOriginal: Bool
  public let extensions: ExtensionPlace
  public let uriValue: Bool
  public let role: StageRole

  public init(
    format: PhoneNumberFormat, keepOriginal: Bool = false, extensions: ExtensionPlace = .parameter,
    uriValue: Bool = false, role: StageRole = .core
  ) {
    self.format = format
    self.keepOriginal = keepOriginal
    self.extensions = extensions
    self.uriValue = uriValue
    self.role = role
  }

  public var name: String { "phone-values" }

  /// The formats ``PhoneNumberFormatting`` must make for this stage: the
  /// one written.
  public var neededFormats: [PhoneNumberFormat] { [format] }

  /// Whether ``PhoneNumberFormatting`` must make its extension column for
  /// this stage: for E.164, which has no place for one. (Without that
  /// column an RFC 3966 column, when made, gives the extension.)
  public var neededExtensions: Bool { format == .e164 }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    guard case .string(let formatted)? = table.fields.annotations[column: PhoneNumberFormatting.columnName(format)]
    else {
      // phone-number-formatting did not run (disabled): nothing to write.
      context.note("no \(PhoneNumberFormatting.columnName(format)) column (phone-number-formatting did not run): phones left as typed")
      return frame
    }
    var extensionIDs: [StringID]? = nil
    var uri: [StringID]? = nil
    if format == .e164 {
      if case .string(let e)? = table.fields.annotations[column: PhoneNumberFormatting.extensionColumn] {
        extensionIDs = e
      } else if case .string(let u)? = table.fields.annotations[column: PhoneNumberFormatting.rfc3966] {
        uri = u
      }
    }
    let n = table.fields.count
    var values = (0..<n).map { table.fields.value[$0] }
    var parameters = (0..<n).map { table.fields.parameters[$0] }
    // A field's parameters with only what every rewritten field adds
    // (VALUE=uri), once per distinct (parameters, label).
    var plain: [Pair: StringID] = [:]
    // Per stored parameters id (indexed by the id): the parameters written.
    var valueTypeOf = [StringID](repeating: .absent, count: table.pool.count)
    var unparsed = 0, withExtension = 0, rewritten = 0
    var lines: [String] = []
    for row in 0..<table.rowCount {
      for f in table.fieldRange(of: row) where table.fields.kind[f] == .phone {
        let typed = values[f]
        guard typed.isPresent else { continue }
        let out = formatted[f]
        guard out.isPresent else {
          unparsed += 1
          if lines.count < Self.listedLines {
            let line = row < table.sourceLine.count ? Int(table.sourceLine[row]) : 0
            lines.append(line > 0 ? "line \(line): a phone number did not parse; left as typed" : "contact \(row + 1): a phone number did not parse; left as typed")
          }
          continue
        }
        // A number whose digits are all zeros past its country code
        // (`+49000000`) is no number: libphonenumber parses it, but writes
        // it shorter each time (`+4900000`, `+490000`). Left as typed.
        if table.pool.withBytes(of: out, Self.isAllZeros) {
          unparsed += 1
          if lines.count < Self.listedLines {
            let line = row < table.sourceLine.count ? Int(table.sourceLine[row]) : 0
            lines.append(line > 0 ? "line \(line): a phone number of zeros; left as typed" : "contact \(row + 1): a phone number of zeros; left as typed")
          }
          continue
        }
        var ext: String? = nil
        if let extensionIDs, extensionIDs[f].isPresent {
          ext = table.pool.string(extensionIDs[f])
        } else if let uri, uri[f].isPresent {
          ext = table.pool.withBytes(of: uri[f]) { Self.extensionOf(uri: $0) }
        }
        var value = out
        if let ext, extensions == .value {
          value = table.pool.intern((table.pool.string(out) ?? "") + ";ext=" + ext)
        }
        if ext != nil { withExtension += 1 }
        let extraParams = (ext != nil && extensions == .parameter) || (keepOriginal && value != typed)
        if !extraParams {
          // Only VALUE changes: once per distinct parameters (a field
          // without any, only when VALUE=uri is added: then by its label).
          let stored = parameters[f]
          if stored.isPresent {
            let i = stored.index
            if i < valueTypeOf.count, valueTypeOf[i] != .absent {
              parameters[f] = valueTypeOf[i]
            } else {
              var list = Self.list(stored, label: .absent, pool: table.pool)
              let id = setValueType(&list) ? table.pool.intern(list.encoded) : stored
              if i < valueTypeOf.count { valueTypeOf[i] = id }
              parameters[f] = id
            }
          } else if uriValue {
            let key = Pair(parameters: stored, label: table.fields.label[f])
            if let id = plain[key] {
              parameters[f] = id
            } else {
              var list = Self.list(stored, label: table.fields.label[f], pool: table.pool)
              _ = setValueType(&list)
              let id = table.pool.intern(list.encoded)
              plain[key] = id
              parameters[f] = id
            }
          }
        } else {
          var list = Self.list(parameters[f], label: table.fields.label[f], pool: table.pool)
          _ = setValueType(&list)
          if let ext, extensions == .parameter { list.append(Self.extensionParameter, [ext]) }
          if keepOriginal && value != typed, let text = table.pool.string(typed) {
            list.append(Self.originalParameter, [text])
          }
          parameters[f] = table.pool.intern(list.encoded)
        }
        if value != typed { rewritten += 1 }
        values[f] = value
      }
    }
    table.fields.value = StringColumn(values)
    table.fields.parameters = StringColumn(parameters)
    context.count(Self.rewrittenCounter, rewritten)
    if unparsed > 0 { context.count(Self.unparsedCounter, unparsed) }
    if withExtension > 0 { context.count(Self.extensionsCounter, withExtension) }
    for l in lines { context.note(l) }
    if unparsed > lines.count { context.note("\(unparsed - lines.count) more numbers did not parse") }
    var result = frame
    result.table = table
    return result
  }

  /// The value type as written: `VALUE=uri` for a `tel:` URI in vCard 4.0,
  /// else none (a typed `VALUE=uri` would no longer describe a plain
  /// number). Whether the list changed.
  private func setValueType(_ list: inout ParameterList) -> Bool {
    let before = list
    list.parameters.removeAll { $0.name.uppercased() == "VALUE" }
    if uriValue { list.append("VALUE", ["uri"]) }
    return list != before
  }

  private struct Pair: Hashable {
    var parameters: StringID
    var label: StringID
  }

  /// Whether a formatted number's digits are all zeros (a national
  /// format), or all zeros after a country code of one to three digits (a
  /// format with `+`); its extension (after `;` or ` ext`) not counted.
  static func isAllZeros(_ text: UnsafeRawBufferPointer) -> Bool {
    // No allocation: every phone field passes here. The digits' count, the
    // first three, and where the last non-zero one is.
    var count = 0, lastNonZero = -1
    var first: (Int, Int, Int) = (0, 0, 0)
    var plus = false
    for b in text {
      if b == UInt8(ascii: ";") || b == UInt8(ascii: "x") { break }  // ";ext=", " ext. "
      if b == UInt8(ascii: "+") { plus = true }
      guard b >= 0x30 && b <= 0x39 else { continue }
      let d = Int(b - 0x30)
      switch count {
      case 0: first.0 = d
      case 1: first.1 = d
      case 2: first.2 = d
      default: break
      }
      if d != 0 { lastNonZero = count }
      count += 1
    }
    guard count > 0 else { return false }
    guard plus else { return lastNonZero < 0 }
    // The country calling code: the one prefix of one to three digits that
    // is assigned (calling codes are prefix-free, ITU-T E.164).
    for k in 1...3 where count > k {
      let cc = k == 1 ? first.0 : k == 2 ? first.0 * 10 + first.1 : first.0 * 100 + first.1 * 10 + first.2
      if engine.regionCode(forCountryCode: cc) != nil { return lastNonZero < k }
    }
    return false
  }

  private static let engine = PhoneNumberEngine()

  /// The `ext` parameter of an RFC 3966 `tel:` URI (libphonenumber writes
  /// it as `;ext=`, lower case), read from its bytes: most numbers have
  /// none, and cost no String.
  static func extensionOf(uri: UnsafeRawBufferPointer) -> String? {
    // `;ext=`
    let m0 = UInt8(ascii: ";"), m1 = UInt8(ascii: "e"), m2 = UInt8(ascii: "x"), m3 = UInt8(ascii: "t")
    let m4 = UInt8(ascii: "=")
    var i = 0
    while i + 5 <= uri.count {
      if uri[i] == m0 && uri[i + 1] == m1 && uri[i + 2] == m2 && uri[i + 3] == m3 && uri[i + 4] == m4 {
        var end = i + 5
        while end < uri.count && uri[end] != m0 { end += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: uri[(i + 5)..<end]), as: UTF8.self)
      }
      i += 1
    }
    return nil
  }

  /// A field's parameters; with none stored, its label as `TYPE` (what the
  /// vCard writer would have written for it).
  static func list(_ parameters: StringID, label: StringID, pool: StringPool) -> ParameterList {
    if parameters.isPresent, let text = pool.string(parameters) { return ParameterList(encoded: text) }
    var list = ParameterList()
    if label.isPresent, let l = pool.string(label) { list.append("TYPE", [l]) }
    return list
  }
}
