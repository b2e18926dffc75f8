/// Region codes for country names as address books write them: ISO codes,
/// English names and the endonyms (folded by ``NameFolder``). Facts, typed
/// for this project; used to pick the region for national phone numbers.
enum Countries {
  static let names: String = """
    US united states|usa|united states of america|america
    GB united kingdom|uk|great britain|england|scotland|wales|northern ireland
    CA canada
    AU australia
    NZ new zealand|aotearoa
    IE ireland|eire
    IN india|bharat|bharata
    DE germany|deutschland
    AT austria|osterreich
    CH switzerland|schweiz|suisse|svizzera
    FR france
    BE belgium|belgique|belgie
    LU luxembourg
    ES spain|espana
    PT portugal
    IT italy|italia
    NL netherlands|nederland|holland|the netherlands
    BR brazil|brasil
    AR argentina
    MX mexico
    CO colombia
    CL chile
    PE peru
    PL poland|polska
    CZ czech republic|czechia|cesko|ceska republika
    SK slovakia|slovensko
    HU hungary|magyarorszag
    RO romania
    BG bulgaria|balgarija|bulgarija
    SE sweden|sverige
    NO norway|norge
    DK denmark|danmark
    FI finland|suomi
    IS iceland|island
    TR turkey|turkiye
    RU russia|rossia|rossija|russian federation
    UA ukraine|ukraina|ukrayina
    BY belarus|belarus
    GR greece|ellada|ellas
    CY cyprus
    SA saudi arabia|almmlkt alrbyt alswdyt|al mamlaka al arabiya as saudiya
    AE united arab emirates|uae
    EG egypt|msr|misr
    IL israel|ysral|yisrael
    CN china|zhong guo|zhongguo|prc
    HK hong kong
    TW taiwan
    JP japan|ri ben|nihon|nippon
    KR south korea|korea|daehanmingug|daehan minguk|hanguk
    TH thailand|prathes thiy|prathet thai
    VN vietnam|viet nam
    GE georgia|sakartvelo
    ID indonesia
    MY malaysia
    SG singapore
    PH philippines
    PK pakistan
    ZA south africa
    NG nigeria
    KE kenya
    MA morocco
    """

  /// Endonyms outside ASCII as address books write them (lower case) →
  /// region code: each is also in ``names`` as ``NameFolder`` folds it
  /// (a test holds the two to the same region), so that the common ones
  /// are found without ICU's transliterator, whose opening and first use
  /// on a script would come before the row keys, on one core.
  static let spellings: String = """
    AT österreich
    BE belgië
    ES españa
    MX méxico
    PE perú
    CZ česko|česká republika
    HU magyarország
    IS ísland
    TR türkiye
    RU россия
    UA україна
    GR ελλάδα|ελλάς
    EG مصر
    CN 中国
    JP 日本
    KR 대한민국
    VN việt nam
    GE საქართველო
    """

  /// Lower-case spelling outside ASCII → region code (see ``spellings``).
  static let spelled: [String: String] = {
    var map: [String: String] = [:]
    for line in spellings.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { continue }
      for n in parts[1].split(separator: "|") { map[String(n)] = String(parts[0]) }
    }
    return map
  }()

  /// The region code of a country as written: a spelling of ``spellings``
  /// as it is (in any case), else its ``NameFolder`` fold in ``regions``.
  static func region(_ bytes: UnsafeRawBufferPointer) -> String? {
    if !NameFolder.isASCII(bytes), let code = spelled[String(decoding: bytes, as: UTF8.self).lowercased()] {
      return code
    }
    var out: [UInt8] = []
    NameFolder.shared.fold(bytes, into: &out)
    return regions[String(decoding: out, as: UTF8.self)]
  }

  /// Folded country name or code → region code.
  static let regions: [String: String] = {
    var map: [String: String] = [:]
    for line in names.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let code = String(parts[0])
      map[code.lowercased()] = code
      for n in parts[1].split(separator: "|") { map[String(n)] = code }
    }
    // Country-code top-level domains that differ from the region code.
    map["uk"] = "GB"
    return map
  }()
}

/// The region code of a country as an address book writes it ("Deutschland",
/// "united states", "GB"), from the same table dedupe reads addresses with;
/// for callers outside dedupe that pick a default region for national
/// phone numbers (the CardDAV merge).
public enum CountryRegion {
  /// The ISO 3166-1 alpha-2 code, or nil when the name is not in the table.
  public static func code(forCountry name: String) -> String? {
    let bytes = Array(name.utf8)
    return bytes.withUnsafeBytes { Countries.region($0) }
  }
}
