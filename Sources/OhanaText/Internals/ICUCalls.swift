import COhanaICU

// Every ICU call of OhanaText goes through this file (as swift-system routes
// every syscall through `Internals/Syscalls.swift`). Each wrapper names the
// ICU function it reaches through COhanaICU. Wrappers convert Swift buffers
// to pointer/length pairs, map `UErrorCode` to `ICUStatus`, and retry once
// when ICU reports the exact size it needs (`U_BUFFER_OVERFLOW_ERROR`).

/// An owned or borrowed ICU object handle (`UCollator*`, `UTransliterator*`, ...).
///
/// `@unchecked Sendable`: a handle is moved between threads only through
/// `ICUClonePool`, which lends each one to a single thread at a time.
struct ICUHandle: @unchecked Sendable {
  let raw: OpaquePointer
}

// MARK: Library

/// `u_getVersion` + `u_versionToString`.
func icu_versionString() -> String {
  var buffer = [CChar](repeating: 0, count: 32)
  buffer.withUnsafeMutableBufferPointer { ohana_icu_version_string($0.baseAddress, 32) }
  return icu_string(cString: buffer)
}

/// `u_errorName`.
func icu_errorName(_ status: ICUStatus) -> String {
  guard let name = ohana_icu_error_name(status.rawValue) else { return "\(status.rawValue)" }
  return String(cString: name)
}

/// `uloc_forLanguageTag`: nil when `tag` is not (entirely) a BCP 47 tag.
func icu_localeForLanguageTag(_ tag: String) -> String? {
  var buffer = [CChar](repeating: 0, count: 160)
  var parsed: Int32 = 0
  var status = ICUStatus.zeroError.rawValue
  let length = buffer.withUnsafeMutableBufferPointer {
    ohana_icu_locale_for_language_tag(tag, $0.baseAddress, Int32($0.count - 1), &parsed, &status)
  }
  guard status <= 0, length > 0, Int(parsed) == tag.utf8.count, Int(length) < buffer.count
  else { return nil }
  return icu_string(cString: buffer)
}

private func icu_string(cString buffer: [CChar]) -> String {
  let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
  return String(decoding: bytes, as: UTF8.self)
}

// MARK: Strings

/// `u_strFromUTF8WithSub` into `dest`, which must hold `src.count` units
/// (UTF-16 never needs more code units than UTF-8 has bytes).
@inline(__always)
func icu_utf16(
  fromUTF8 src: UnsafeBufferPointer<UInt8>, into dest: UnsafeMutableBufferPointer<UInt16>
) -> Int {
  precondition(dest.count >= src.count, "UTF-16 scratch too small")
  if src.isEmpty { return 0 }
  var status = ICUStatus.zeroError.rawValue
  let n = ohana_icu_utf16_from_utf8(
    dest.baseAddress, Int32(clamping: dest.count), src.baseAddress, Int32(src.count), &status)
  return status > 0 ? 0 : Int(n)
}

/// `u_strFromUTF8WithSub` into a new array.
func icu_utf16(fromUTF8 src: UnsafeBufferPointer<UInt8>) -> [UInt16] {
  [UInt16](unsafeUninitializedCapacity: max(src.count, 1)) { buffer, count in
    count = icu_utf16(fromUTF8: src, into: buffer)
  }
}

/// `u_strToUTF8WithSub` into a new array.
func icu_utf8(fromUTF16 src: UnsafeBufferPointer<UInt16>) -> [UInt8] {
  if src.isEmpty { return [] }
  // Each UTF-16 unit yields at most 3 UTF-8 bytes.
  return [UInt8](unsafeUninitializedCapacity: src.count * 3) { buffer, count in
    var status = ICUStatus.zeroError.rawValue
    let n = ohana_icu_utf8_from_utf16(
      buffer.baseAddress, Int32(clamping: buffer.count), src.baseAddress, Int32(src.count),
      &status)
    count = status > 0 ? 0 : Int(n)
  }
}

/// Runs an ICU "fill this buffer" function, growing the buffer once to the
/// size ICU asks for.
private func icu_fill<T>(
  initialCapacity: Int,
  _ body: (UnsafeMutablePointer<T>?, Int32, inout Int32) -> Int32
) -> Result<[T], ICUStatus> {
  var capacity = max(initialCapacity, 1)
  for _ in 0..<2 {
    var status = ICUStatus.zeroError.rawValue
    var needed: Int32 = 0
    let array = [T](unsafeUninitializedCapacity: capacity) { buffer, count in
      needed = body(buffer.baseAddress, Int32(clamping: buffer.count), &status)
      count = status > 0 ? 0 : min(Int(needed), buffer.count)
    }
    if status == ICUStatus.bufferOverflowError.rawValue {
      capacity = Int(needed) + 1
      continue
    }
    if status > 0 { return .failure(ICUStatus(rawValue: status)) }
    return .success(array)
  }
  return .failure(.bufferOverflowError)
}

// MARK: Collation

/// `ucol_open`.
func icu_collatorOpen(_ locale: String) -> (ICUHandle?, ICUStatus) {
  var status = ICUStatus.zeroError.rawValue
  let raw = ohana_icu_collator_open(locale, &status)
  guard status <= 0, let raw else { return (nil, ICUStatus(rawValue: status)) }
  return (ICUHandle(raw: raw), ICUStatus(rawValue: status))
}

/// `ucol_clone`.
func icu_collatorClone(_ collator: ICUHandle) -> ICUHandle? {
  var status = ICUStatus.zeroError.rawValue
  let raw = ohana_icu_collator_clone(collator.raw, &status)
  guard status <= 0, let raw else { return nil }
  return ICUHandle(raw: raw)
}

/// `ucol_close`.
func icu_collatorClose(_ collator: ICUHandle) { ohana_icu_collator_close(collator.raw) }

/// `ucol_setAttribute`.
func icu_collatorSetAttribute(_ collator: ICUHandle, _ attribute: Int32, _ value: Int32)
  -> ICUStatus
{
  var status = ICUStatus.zeroError.rawValue
  ohana_icu_collator_set_attribute(collator.raw, attribute, value, &status)
  return ICUStatus(rawValue: status)
}

/// `ucol_getLocaleByType`.
func icu_collatorLocale(_ collator: ICUHandle, actual: Bool) -> String {
  var status = ICUStatus.zeroError.rawValue
  let type = actual ? OHANA_ICU_ACTUAL_LOCALE : OHANA_ICU_VALID_LOCALE
  guard let name = ohana_icu_collator_locale(collator.raw, type, &status), status <= 0
  else { return "" }
  return String(cString: name)
}

/// `ucol_getSortKey`: writes the key (with its terminating zero) into `dest`
/// and returns its length; a result larger than `dest.count` means the
/// buffer was too small and its content is undefined.
@inline(__always)
func icu_sortKey(
  _ collator: ICUHandle, utf16: UnsafeBufferPointer<UInt16>, into dest: UnsafeMutableBufferPointer<UInt8>
) -> Int {
  Int(
    ohana_icu_collator_sort_key(
      collator.raw, utf16.baseAddress, Int32(utf16.count), dest.baseAddress,
      Int32(clamping: dest.count)))
}

/// `ucol_strcollUTF8`: -1, 0 or 1.
func icu_compareUTF8(
  _ collator: ICUHandle, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>
) -> Int32 {
  var status = ICUStatus.zeroError.rawValue
  return ohana_icu_collator_compare_utf8(
    collator.raw, a.baseAddress, Int32(a.count), b.baseAddress, Int32(b.count), &status)
}

// MARK: Charset conversion

/// `ucnv_convert` from `charset` to UTF-8.
func icu_convertToUTF8(_ src: UnsafeBufferPointer<UInt8>, from charset: String)
  -> Result<[UInt8], ICUStatus>
{
  if src.isEmpty { return .success([]) }
  // Most legacy charsets need at most 3 UTF-8 bytes per input byte.
  return icu_fill(initialCapacity: src.count * 3 + 4) { dest, capacity, status in
    ohana_icu_convert("UTF-8", charset, dest, capacity, src.baseAddress, Int32(src.count), &status)
  }
}

/// `ucnv_convert` from UTF-8 to `charset`.
func icu_convertFromUTF8(_ src: UnsafeBufferPointer<UInt8>, to charset: String) -> Result<[UInt8], ICUStatus> {
  if src.isEmpty { return .success([]) }
  // No legacy charset needs more than 4 bytes per character (GB18030).
  return icu_fill(initialCapacity: src.count * 2 + 8) { dest, capacity, status in
    ohana_icu_convert(charset, "UTF-8", dest, capacity, src.baseAddress, Int32(src.count), &status)
  }
}

/// `ucnv_open` + `ucnv_getName` + `ucnv_close`: nil when ICU cannot open the charset.
func icu_charsetCanonicalName(_ alias: String) -> String? {
  var status = ICUStatus.zeroError.rawValue
  guard let converter = ohana_icu_converter_open(alias, &status), status <= 0 else { return nil }
  defer { ohana_icu_converter_close(converter) }
  guard let name = ohana_icu_converter_name(converter, &status), status <= 0 else { return nil }
  return String(cString: name)
}

/// `ucnv_open`.
func icu_converterOpen(_ charset: String) -> (ICUHandle?, ICUStatus) {
  var status = ICUStatus.zeroError.rawValue
  let raw = ohana_icu_converter_open(charset, &status)
  guard status <= 0, let raw else { return (nil, ICUStatus(rawValue: status)) }
  return (ICUHandle(raw: raw), ICUStatus(rawValue: status))
}

/// `ucnv_close`.
func icu_converterClose(_ converter: ICUHandle) { ohana_icu_converter_close(converter.raw) }

/// `ucnv_reset`.
func icu_converterReset(_ converter: ICUHandle) { ohana_icu_converter_reset(converter.raw) }

/// `ucnv_toUnicode` over a whole chunk: returns the UTF-16 it produced
/// (partial characters at the end stay in the converter unless `flush`).
func icu_converterToUTF16(_ converter: ICUHandle, _ src: UnsafeBufferPointer<UInt8>, flush: Bool)
  -> Result<[UInt16], ICUStatus>
{
  var out: [UInt16] = []
  out.reserveCapacity(src.count + 16)
  var scratch = [UInt16](repeating: 0, count: max(1024, min(src.count + 16, 1 << 20)))
  var offset = 0
  while true {
    var status = ICUStatus.zeroError.rawValue
    var consumed: Int32 = 0
    let remaining = src.count - offset
    let produced = scratch.withUnsafeMutableBufferPointer { dest in
      ohana_icu_converter_to_utf16(
        converter.raw, dest.baseAddress, Int32(dest.count), src.baseAddress.map { $0 + offset },
        Int32(remaining), flush ? 1 : 0, &consumed, &status)
    }
    out.append(contentsOf: scratch[0..<Int(produced)])
    offset += Int(consumed)
    if status == ICUStatus.bufferOverflowError.rawValue { continue }
    if status > 0 { return .failure(ICUStatus(rawValue: status)) }
    return .success(out)
  }
}

// MARK: Charset detection

/// `ucsdet_open`, `ucsdet_setText`, `ucsdet_detectAll`, `ucsdet_getName`,
/// `ucsdet_getConfidence`, `ucsdet_close`: every match, best first. The
/// detector borrows `text` (no copy), so it lives only inside this call.
func icu_detectCharsets(_ text: UnsafeBufferPointer<UInt8>) -> Result<[(String, Int)], ICUStatus> {
  var status = ICUStatus.zeroError.rawValue
  guard let detector = ohana_icu_charset_detector_open(&status), status <= 0 else {
    return .failure(ICUStatus(rawValue: status))
  }
  defer { ohana_icu_charset_detector_close(detector) }
  ohana_icu_charset_detector_set_text(detector, text.baseAddress, Int32(text.count), &status)
  guard status <= 0 else { return .failure(ICUStatus(rawValue: status)) }
  var count: Int32 = 0
  guard let matches = ohana_icu_charset_detector_detect_all(detector, &count, &status), status <= 0 else {
    // No match at all is not a failure (ICU reports none for empty text).
    return status <= 0 ? .success([]) : .failure(ICUStatus(rawValue: status))
  }
  var out: [(String, Int)] = []
  for i in 0..<Int(max(0, count)) {
    guard let match = matches[i] else { continue }
    var s = ICUStatus.zeroError.rawValue
    guard let name = ohana_icu_charset_match_name(match, &s), s <= 0 else { continue }
    let confidence = ohana_icu_charset_match_confidence(match, &s)
    guard s <= 0 else { continue }
    out.append((String(cString: name), Int(confidence)))
  }
  return .success(out)
}

// MARK: Normalization

/// `unorm2_get…Instance`: ICU-owned singletons, never closed.
func icu_normalizerInstance(_ form: Normalizer.Form) -> (ICUHandle?, ICUStatus) {
  var status = ICUStatus.zeroError.rawValue
  let raw: OpaquePointer?
  switch form {
  case .nfc: raw = ohana_icu_normalizer_nfc(&status)
  case .nfd: raw = ohana_icu_normalizer_nfd(&status)
  case .nfkc: raw = ohana_icu_normalizer_nfkc(&status)
  case .nfkcCasefold: raw = ohana_icu_normalizer_nfkc_casefold(&status)
  }
  guard status <= 0, let raw else { return (nil, ICUStatus(rawValue: status)) }
  return (ICUHandle(raw: raw), .zeroError)
}

/// `unorm2_isNormalized`.
func icu_isNormalized(_ normalizer: ICUHandle, _ src: UnsafeBufferPointer<UInt16>) -> Bool {
  var status = ICUStatus.zeroError.rawValue
  let result = ohana_icu_normalizer_is_normalized(
    normalizer.raw, src.baseAddress, Int32(src.count), &status)
  return status <= 0 && result != 0
}

/// `unorm2_normalize`.
func icu_normalize(_ normalizer: ICUHandle, _ src: UnsafeBufferPointer<UInt16>)
  -> Result<[UInt16], ICUStatus>
{
  if src.isEmpty { return .success([]) }
  return icu_fill(initialCapacity: src.count + src.count / 2 + 4) { dest, capacity, status in
    ohana_icu_normalizer_normalize(
      normalizer.raw, src.baseAddress, Int32(src.count), dest, capacity, &status)
  }
}

// MARK: Case mapping

/// `ucasemap_open`.
func icu_caseMapOpen(locale: String?, excludeSpecialI: Bool) -> (ICUHandle?, ICUStatus) {
  var status = ICUStatus.zeroError.rawValue
  let raw = ohana_icu_casemap_open(locale ?? "", excludeSpecialI ? 1 : 0, &status)
  guard status <= 0, let raw else { return (nil, ICUStatus(rawValue: status)) }
  return (ICUHandle(raw: raw), ICUStatus(rawValue: status))
}

/// `ucasemap_close`.
func icu_caseMapClose(_ caseMap: ICUHandle) { ohana_icu_casemap_close(caseMap.raw) }

/// `ucasemap_utf8FoldCase`.
func icu_foldCaseUTF8(_ caseMap: ICUHandle, _ src: UnsafeBufferPointer<UInt8>)
  -> Result<[UInt8], ICUStatus>
{
  if src.isEmpty { return .success([]) }
  return icu_fill(initialCapacity: src.count + src.count / 4 + 8) { dest, capacity, status in
    ohana_icu_casemap_utf8_fold(caseMap.raw, dest, capacity, src.baseAddress, Int32(src.count), &status)
  }
}

/// `ucasemap_utf8ToLower`.
func icu_lowercaseUTF8(_ caseMap: ICUHandle, _ src: UnsafeBufferPointer<UInt8>)
  -> Result<[UInt8], ICUStatus>
{
  if src.isEmpty { return .success([]) }
  return icu_fill(initialCapacity: src.count + src.count / 4 + 8) { dest, capacity, status in
    ohana_icu_casemap_utf8_lower(caseMap.raw, dest, capacity, src.baseAddress, Int32(src.count), &status)
  }
}

// MARK: Transliteration

/// `utrans_openU` (forward, no custom rules).
func icu_transliteratorOpen(_ id: String) -> (ICUHandle?, ICUStatus) {
  let units = Array(id.utf16)
  var status = ICUStatus.zeroError.rawValue
  let raw = units.withUnsafeBufferPointer {
    ohana_icu_transliterator_open($0.baseAddress, Int32($0.count), OHANA_ICU_TRANS_FORWARD, &status)
  }
  guard status <= 0, let raw else { return (nil, ICUStatus(rawValue: status)) }
  return (ICUHandle(raw: raw), ICUStatus(rawValue: status))
}

/// `utrans_clone`.
func icu_transliteratorClone(_ t: ICUHandle) -> ICUHandle? {
  var status = ICUStatus.zeroError.rawValue
  let raw = ohana_icu_transliterator_clone(t.raw, &status)
  guard status <= 0, let raw else { return nil }
  return ICUHandle(raw: raw)
}

/// `utrans_close`.
func icu_transliteratorClose(_ t: ICUHandle) { ohana_icu_transliterator_close(t.raw) }

/// `utrans_transUChars` over the whole text.
func icu_transliterate(_ t: ICUHandle, _ src: UnsafeBufferPointer<UInt16>)
  -> Result<[UInt16], ICUStatus>
{
  if src.isEmpty { return .success([]) }
  var capacity = src.count * 2 + 16
  for _ in 0..<3 {
    var status = ICUStatus.zeroError.rawValue
    var needed = 0
    let out = [UInt16](unsafeUninitializedCapacity: capacity) { buffer, count in
      guard let base = buffer.baseAddress, let source = src.baseAddress else { return }
      base.update(from: source, count: src.count)
      needed = Int(
        ohana_icu_transliterator_transliterate(
          t.raw, base, Int32(src.count), Int32(clamping: buffer.count), &status))
      count = status > 0 ? 0 : min(needed, buffer.count)
    }
    if status > 0 && status != ICUStatus.bufferOverflowError.rawValue {
      return .failure(ICUStatus(rawValue: status))
    }
    if needed < capacity && status <= 0 { return .success(out) }
    capacity = needed + 16
  }
  return .failure(.bufferOverflowError)
}

// MARK: IDNA

/// `uidna_openUTS46`.
func icu_idnaOpen(options: UInt32) -> (ICUHandle?, ICUStatus) {
  var status = ICUStatus.zeroError.rawValue
  let raw = ohana_icu_idna_open_uts46(options, &status)
  guard status <= 0, let raw else { return (nil, ICUStatus(rawValue: status)) }
  return (ICUHandle(raw: raw), ICUStatus(rawValue: status))
}

/// `uidna_close`.
func icu_idnaClose(_ idna: ICUHandle) { ohana_icu_idna_close(idna.raw) }

/// `uidna_nameToUnicodeUTF8` or `uidna_nameToASCII_UTF8`: the name and
/// `UIDNAInfo.errors`.
func icu_idnaName(_ idna: ICUHandle, toASCII: Bool, _ src: UnsafeBufferPointer<UInt8>)
  -> Result<(name: [UInt8], errors: UInt32), ICUStatus>
{
  var errors: UInt32 = 0
  let result: Result<[UInt8], ICUStatus> = icu_fill(initialCapacity: src.count * 2 + 16) { dest, capacity, status in
    ohana_icu_idna_name_utf8(idna.raw, toASCII ? 1 : 0, src.baseAddress, Int32(src.count), dest, capacity, &errors, &status)
  }
  return result.map { ($0, errors) }
}

// MARK: Countries

/// `uloc_getISOCountries`.
func icu_isoCountries() -> [String] {
  guard let list = ohana_icu_iso_countries() else { return [] }
  var out: [String] = []
  var i = 0
  while let code = list[i] {
    out.append(String(cString: code))
    i += 1
  }
  return out
}

/// `uloc_getISO3Country`.
func icu_iso3Country(_ locale: String) -> String {
  guard let code = ohana_icu_iso3_country(locale) else { return "" }
  return String(cString: code)
}

/// `uloc_getDisplayCountry`: nil when ICU has no name (it then returns the
/// code itself, with a fallback warning or none).
func icu_displayCountry(_ locale: String, in displayLocale: String) -> String? {
  let result: Result<[UInt16], ICUStatus> = icu_fill(initialCapacity: 64) { dest, capacity, status in
    ohana_icu_display_country(locale, displayLocale, dest, capacity, &status)
  }
  guard case .success(let units) = result, !units.isEmpty else { return nil }
  return String(decoding: units, as: UTF16.self)
}
