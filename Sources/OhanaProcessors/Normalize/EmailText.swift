import OhanaText

/// E-mail addresses as a normalization job writes them (issue 46, item 2),
/// one value at a time; ``EmailNormalization`` runs it over a table's
/// e-mail fields.
///
/// What is done, decided here (README "Normalizing"):
/// - white space around the address is taken off;
/// - the local part is put in Unicode NFC and otherwise kept as typed
///   (its case is the mail server's business: RFC 5321 §2.4);
/// - the domain goes through UTS #46 (IDNA 2008, nontransitional, STD3
///   rules) into its Unicode form, in lower case (`Example.COM` →
///   `example.com`, `xn--bcher-kva.example` → `bücher.example`);
/// - the syntax is checked: a dot-atom local part of RFC 5321 §4.1.2 with
///   RFC 6531's UTF-8 letters, at most 64 bytes; a domain name with at
///   least two labels, none numeric at the end, at most 253 bytes in its
///   ASCII form; the whole at most 254 bytes. Quoted local parts and
///   address literals (`"john smith"@x`, `x@[192.0.2.1]`) are valid mail
///   syntax but not in address books, and are refused, as the Python
///   library `email-validator` refuses them by default; so are domains
///   under a special-use top-level name (`.test`, `.invalid`, `.local`,
///   `.localhost`, `.onion`, `.arpa`), where no mail is delivered.
///
/// A refused address is left as typed (white space trimmed) and counted.
public enum EmailText {
  /// Why an address was refused.
  public enum Problem: String, Sendable, CaseIterable {
    case empty
    case noAt = "no-at-sign"
    case localPart = "local-part"
    case localPartTooLong = "local-part-too-long"
    case quotedLocalPart = "quoted-local-part"
    case domain
    case domainLiteral = "domain-literal"
    case specialUseDomain = "special-use-domain"
    case tooLong = "too-long"
  }

  /// An address normalized: the text to write and, when refused, why (the
  /// text is then the address as typed, trimmed).
  public struct Result: Sendable, Equatable {
    public var address: String
    public var problem: Problem?
  }

  /// `text` normalized (see ``EmailText``).
  public static func normalized(_ text: String) -> Result {
    let trimmed = text.trimmingWhitespace
    func refused(_ p: Problem) -> Result { Result(address: trimmed, problem: p) }
    guard !trimmed.isEmpty else { return refused(.empty) }
    guard let at = trimmed.lastIndex(of: "@") else { return refused(.noAt) }
    let localTyped = String(trimmed[..<at])
    let domainTyped = String(trimmed[trimmed.index(after: at)...])
    if localTyped.hasPrefix("\"") { return refused(.quotedLocalPart) }
    let local = localTyped.utf8.allSatisfy({ $0 < 0x80 }) ? localTyped : (try? Normalizer.nfc.normalize(localTyped)) ?? localTyped
    if let p = localPartProblem(local) { return refused(p) }
    if domainTyped.hasPrefix("[") { return refused(.domainLiteral) }
    guard let domain = normalizedDomain(domainTyped) else { return refused(.domain) }
    if let tld = domain.ascii.split(separator: ".").last, specialUseNames.contains(String(tld)) {
      return refused(.specialUseDomain)
    }
    if local.utf8.count + 1 + domain.ascii.utf8.count > 254 { return refused(.tooLong) }
    return Result(address: local + "@" + domain.unicode, problem: nil)
  }

  /// The mailbox an address reaches, as a comparison key (issue 46: used
  /// by dedupe, written by `normalize --comparison-keys`); nil for a value
  /// without a local part and a domain around its last `@`.
  ///
  /// Decided, as the providers deliver mail:
  /// - the whole address NFKC case-folded (ASCII: lower case), white
  ///   space, `<` `>` and a `mailto:` prefix taken off;
  /// - a sub-address is dropped for every domain (`ann+news@x.org` is
  ///   `ann@x.org`): the major providers deliver `+tag` to the mailbox;
  /// - dots in the local part are dropped only for Gmail, and
  ///   `googlemail.com` is `gmail.com` (one domain, where dots are
  ///   ignored); elsewhere `a.b` and `ab` are different people.
  public static func comparisonKey(_ text: String) -> String? {
    var s = text
    let key = s.withUTF8 { comparisonKey(utf8: UnsafeRawBufferPointer($0)) }
    return key.isEmpty ? nil : String(decoding: key, as: UTF8.self)
  }

  /// ``comparisonKey(_:)`` on UTF-8 bytes; empty for none.
  public static func comparisonKey(utf8 bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var folded: [UInt8]
    var ascii = true
    for b in bytes where b >= 0x80 { ascii = false; break }
    if ascii {
      folded = bytes.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
    } else {
      folded = (try? Normalizer.nfkcCasefold.normalize(utf8: bytes)) ?? Array(bytes)
    }
    while let f = folded.first, f == 0x20 || f == 0x09 || f == 0x3C { folded.removeFirst() }
    while let l = folded.last, l == 0x20 || l == 0x09 || l == 0x3E { folded.removeLast() }
    if folded.starts(with: Array("mailto:".utf8)) { folded.removeFirst(7) }
    guard let at = folded.lastIndex(of: 0x40), at > 0, at < folded.count - 1 else { return [] }
    var domain = Array(folded[(at + 1)...])
    if domain == Array("googlemail.com".utf8) { domain = Array("gmail.com".utf8) }
    let gmail = domain == Array("gmail.com".utf8)
    var local: [UInt8] = []
    local.reserveCapacity(at)
    for b in folded[..<at] {
      if b == 0x2B { break }  // '+': sub-address
      if gmail && b == 0x2E { continue }
      local.append(b)
    }
    if local.isEmpty { return [] }
    return local + [0x40] + domain
  }

  /// Top-level names reserved for special use (RFC 6761 §6, RFC 6762,
  /// RFC 7686, RFC 3172): no mail is delivered to them on the Internet.
  static let specialUseNames: Set<String> = ["arpa", "invalid", "local", "localhost", "onion", "test"]

  /// The characters of RFC 5322's `atext` besides letters and digits.
  static let atextSymbols: Set<UInt8> = Set("!#$%&'*+-/=?^_`{|}~".utf8)

  /// Per ASCII byte: 1 a letter or digit, 2 another `atext` character.
  static let atextClass: [UInt8] = (0..<128).map { b -> UInt8 in
    let c = UInt8(b)
    if (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) { return 1 }
    return atextSymbols.contains(c) ? 2 : 0
  }

  /// Whether `bytes` is an address that ``normalized(_:)`` would accept and
  /// leave as it is, decided on its bytes without making a string: ASCII,
  /// no white space, a dot-atom local part, a domain in lower case with
  /// no `xn--` label and no special-use name. Most addresses are; the
  /// others take the full path.
  static func isNormalASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let n = bytes.count
    guard n >= 3, n <= 254 else { return false }
    var at = -1
    for i in 0..<n {
      let b = bytes[i]
      if b >= 0x80 || b <= 0x20 { return false }
      if b == 0x40 { at = i }
    }
    guard at > 0, at <= 64, at < n - 1 else { return false }
    // The local part: atext runs joined by single dots.
    var previousDot = true
    for i in 0..<at {
      let b = bytes[i]
      if b == 0x2E {
        if previousDot { return false }
        previousDot = true
      } else {
        if atextClass[Int(b)] == 0 { return false }
        previousDot = false
      }
    }
    if previousDot { return false }
    // The domain: lower-case LDH labels.
    var labels = 0, start = at + 1, allDigits = true
    var i = start
    while i <= n {
      if i == n || bytes[i] == 0x2E {
        let length = i - start
        guard length >= 1, length <= 63, bytes[start] != 0x2D, bytes[i - 1] != 0x2D else { return false }
        if length >= 4 && bytes[start + 2] == 0x2D && bytes[start + 3] == 0x2D { return false }  // xn-- and the like
        labels += 1
        if i == n {
          if allDigits { return false }
          // Special-use top-level names take the full path.
          let tld = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<n]), as: UTF8.self)
          if specialUseNames.contains(tld) { return false }
        }
        start = i + 1
        allDigits = true
      } else {
        let b = bytes[i]
        let digit = b >= 0x30 && b <= 0x39
        guard (b >= 0x61 && b <= 0x7A) || digit || b == 0x2D else { return false }
        if !digit { allDigits = false }
      }
      i += 1
    }
    return labels >= 2
  }

  /// Why `local` is not a dot-atom local part (RFC 5321 §4.1.2, RFC 6531
  /// §3.3 for UTF-8), or nil.
  static func localPartProblem(_ local: String) -> Problem? {
    guard !local.isEmpty else { return .localPart }
    if local.utf8.count > 64 { return .localPartTooLong }
    var previousDot = true  // a leading dot is refused
    for s in local.unicodeScalars {
      if s == "." {
        if previousDot { return .localPart }
        previousDot = true
        continue
      }
      previousDot = false
      if s.isASCII {
        let b = UInt8(s.value)
        let alnum = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
        if !alnum && !atextSymbols.contains(b) { return .localPart }
      } else if isUnsafe(s) {
        return .localPart
      }
    }
    return previousDot ? .localPart : nil
  }

  /// An ASCII domain without Punycode labels, checked and lower-cased
  /// here as UTS #46 would (STD3: letters, digits and hyphens; no hyphen at
  /// a label's ends or in its third and fourth places; labels of 1-63
  /// bytes; at least two, the last not all digits; 253 bytes at most):
  /// the name, "" when refused, nil when ICU is to decide (not ASCII, or
  /// an `xn--` label).
  static func asciiDomain(_ domain: String) -> String? {
    var bytes = Array(domain.utf8)
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 0x20 }
    guard bytes.count <= 253 else { return "" }
    let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return "" }
    for label in labels {
      let l = Array(label)
      if l.count >= 4 && l[0] == 0x78 && l[1] == 0x6E && l[2] == 0x2D && l[3] == 0x2D { return nil }  // xn--
      guard !l.isEmpty, l.count <= 63, l.first != 0x2D, l.last != 0x2D else { return "" }
      if l.count >= 4 && l[2] == 0x2D && l[3] == 0x2D { return "" }
      for b in l where !((b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D) { return "" }
    }
    if let last = labels.last, last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return "" }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `s` (beyond ASCII) may not stand in an address (RFC 6531
  /// §3.3 allows UTF-8 letters, marks, digits, symbols and punctuation):
  /// controls, invisible format characters, white space and separators,
  /// unassigned, surrogate and private-use code points.
  static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .unassigned, .surrogate, .privateUse:
      true
    default: false
    }
  }

  /// `domain` in Unicode and ASCII form, or nil when it is no host name an
  /// address can have: UTS #46 errors, fewer than two labels, a last label
  /// that is all digits, or too long.
  static func normalizedDomain(_ domain: String) -> (unicode: String, ascii: String)? {
    guard !domain.isEmpty, !domain.hasSuffix("."), !domain.hasPrefix(".") else { return nil }
    if let plain = asciiDomain(domain) { return plain.isEmpty ? nil : (plain, plain) }
    // UTS #46 would drop a zero-width or other invisible character; in an
    // address book one is a pasting accident to be seen, not hidden.
    guard !domain.unicodeScalars.contains(where: { !$0.isASCII && isUnsafe($0) }) else { return nil }
    let unicode = IDNA.shared.toUnicode(domain)
    let ascii = IDNA.shared.toASCII(domain)
    guard unicode.isValid, ascii.isValid, !ascii.name.isEmpty, ascii.name.utf8.count <= 253 else { return nil }
    let labels = ascii.name.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return nil }
    if let last = labels.last, last.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
    return (unicode.name, ascii.name)
  }
}
