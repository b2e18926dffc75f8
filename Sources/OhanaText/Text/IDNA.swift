import COhanaICU

/// Internationalized domain names in one form (UTS #46 processing with
/// IDNA 2008's nontransitional rules, over ICU's `UIDNA`): a domain as
/// typed (`Bücher.Example`, `xn--bcher-kva.example`) to its Unicode form
/// (`bücher.example`) or its ASCII form (`xn--bcher-kva.example`), with
/// the errors ICU found (a label too long, a hyphen in the wrong place, a
/// disallowed character, a bidi or CONTEXTJ rule broken).
///
/// An `IDNA` is immutable and may be shared across threads (ICU's UTS #46
/// object is const after it is made).
public final class IDNA: Sendable {
  private let handle: ICUHandle

  /// Nontransitional processing (ß and ς kept, as IDNA 2008 has them),
  /// with the bidi and CONTEXTJ checks and the STD3 rules (letters, digits
  /// and hyphens only: a host name, as in an e-mail address).
  public static let shared = IDNA()

  private init() {
    let options = UInt32(
      OHANA_ICU_IDNA_USE_STD3_RULES | OHANA_ICU_IDNA_CHECK_BIDI | OHANA_ICU_IDNA_CHECK_CONTEXTJ
        | OHANA_ICU_IDNA_NONTRANSITIONAL_TO_ASCII | OHANA_ICU_IDNA_NONTRANSITIONAL_TO_UNICODE)
    let (handle, _) = icu_idnaOpen(options: options)
    // uidna_openUTS46 fails only when out of memory or without ICU's data.
    guard let handle else { fatalError("uidna_openUTS46 failed") }
    self.handle = handle
  }

  deinit { icu_idnaClose(handle) }

  /// A domain name processed: its form, and ICU's error bits (`UIDNA_ERROR_*`;
  /// 0: none, the name is valid).
  public struct Result: Sendable, Equatable {
    public var name: String
    public var errors: UInt32
    public var isValid: Bool { errors == 0 }
  }

  /// `domain` in Unicode form (`uidna_nameToUnicodeUTF8`).
  public func toUnicode(_ domain: String) -> Result { process(domain, toASCII: false) }

  /// `domain` in ASCII form, its labels Punycode (`uidna_nameToASCII_UTF8`).
  public func toASCII(_ domain: String) -> Result { process(domain, toASCII: true) }

  private func process(_ domain: String, toASCII: Bool) -> Result {
    var text = domain
    return text.withUTF8 { bytes in
      switch icu_idnaName(handle, toASCII: toASCII, bytes) {
      case .success(let r): return Result(name: String(decoding: r.name, as: UTF8.self), errors: r.errors)
      case .failure: return Result(name: domain, errors: UInt32.max)
      }
    }
  }
}
