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
    let local = (try? Normalizer(.nfc).normalize(localTyped)) ?? localTyped
    if let p = localPartProblem(local) { return refused(p) }
    if domainTyped.hasPrefix("[") { return refused(.domainLiteral) }
    guard let domain = normalizedDomain(domainTyped) else { return refused(.domain) }
    if let tld = domain.ascii.split(separator: ".").last, specialUseNames.contains(String(tld)) {
      return refused(.specialUseDomain)
    }
    if local.utf8.count + 1 + domain.ascii.utf8.count > 254 { return refused(.tooLong) }
    return Result(address: local + "@" + domain.unicode, problem: nil)
  }

  /// Top-level names reserved for special use (RFC 6761 §6, RFC 6762,
  /// RFC 7686, RFC 3172): no mail is delivered to them on the Internet.
  static let specialUseNames: Set<String> = ["arpa", "invalid", "local", "localhost", "onion", "test"]

  /// The characters of RFC 5322's `atext` besides letters and digits.
  static let atextSymbols: Set<UInt8> = Set("!#$%&'*+-/=?^_`{|}~".utf8)

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
