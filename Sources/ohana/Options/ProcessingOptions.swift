import ArgumentParser
import Ohana

/// The processors `ohana process` can run, one flag each.
///
/// To add a processor: declare its flag here and add one line to
/// `stages()`, at the place in the chain where it belongs.
struct ProcessingOptions: ParsableArguments {
  @Option(
    name: .customLong("require"),
    help: "Keep contacts that have this (repeatable): phone, email, url, impp, address, photo, or an attribute such as givenName.")
  var require: [RequirementName] = []

  @Option(
    name: .customLong("normalize"),
    help: ArgumentHelp(
      "Normalize these, written into the values (comma-separated): names, emails, phones (E.164 unless --format-phones names a format), addresses, dates, or all (README \"Normalizing\").",
      valueName: "list"))
  var normalize: NormalizerList?

  @OptionGroup var normalizers: NormalizerOptions

  @Option(
    name: .customLong("format-phones"),
    help: ArgumentHelp(
      "Parse phone fields and write each number in the first of these formats (comma-separated): e164, international, national, rfc3966. vCard and CSV outputs get it as the value (README \"Phones written as asked\"); NDJSON keeps the typed value with every format as a property.",
      valueName: "formats"))
  var formatPhones: PhoneFormatList?

  @Flag(help: "With --format-phones: keep a rewritten number's typed text in the parameter X-OHANA-ORIGINAL (vCard).")
  var keepOriginal = false

  @Option(name: .customLong("region"), help: "Default region for national phone numbers (ISO 3166 code, e.g. US, GB, DE).")
  var region: RegionName = RegionName(code: .us)

  @Flag(help: "Merge duplicate contacts (keys, blocking, Fellegi-Sunter scoring, clusters); see `ohana dedupe` for the outputs.")
  var dedupe = false

  @Option(name: .customLong("dedupe-threshold"), help: "With --dedupe: the match weight (log2) a pair needs (default 3, 1 under fitted weights).")
  var dedupeThreshold: Double?

  @Option(name: .customLong("split"), help: "One contact per field of this kind: phone or email.")
  var split: FieldKindName?

  @Flag(help: "Add per-contact statistics (stats.phoneCount, stats.emailCount, stats.hasMobile...).")
  var stats = false

  @Option(name: .customLong("sort"), help: "Sort by name with ICU collation: full, given or family.")
  var sort: SortModeName?

  @Option(name: .customLong("locale"), help: "ICU locale for --sort (en, de, de-u-co-phonebk, sv, ja, zh-u-co-pinyin, root...).")
  var locale: String = "root"

  @Flag(help: "With --sort: descending (the sort followed by a reverse, as in Ohana).")
  var descending = false

  @Flag(help: "Reverse the order of the contacts.")
  var reverse = false

  @Option(name: .customLong("disable"), help: "Skip the stage of this name (repeatable), e.g. stats or required-phone.")
  var disable: [String] = []

  /// The processors, in the order they run. `provenance`: whether the
  /// output writes derived columns (NDJSON does; vCard and CSV write
  /// none), so that dedupe's provenance and the phones' type, region and
  /// validity columns are built only for an output that writes them.
  ///
  /// `output`: the format written. For vCard and CSV the first phone format
  /// is written into each number's value (``PhoneValues``); NDJSON keeps
  /// the typed value and carries every format as a property.
  func stages(provenance: Bool = true, output: ContactFormat = .ndjson) -> [any PostProcessor] {
    var s: [any PostProcessor] = []
    for r in require { s.append(RequiredField(r.requirement)) }
    let normalizers = normalize?.kinds ?? []
    if normalizers.contains(.names) { s.append(NameNormalization(rebuildFullName: self.normalizers.rebuildFullName)) }
    if normalizers.contains(.emails) { s.append(EmailNormalization(comparisonKeys: self.normalizers.comparisonKeys)) }
    if normalizers.contains(.addresses) {
      s.append(
        AddressNormalization(
          countryLocale: self.normalizers.countryNames, defaultCountry: self.normalizers.addressCountry?.uppercased(),
          streetStyle: self.normalizers.streetTypes?.style, comparisonKeys: self.normalizers.comparisonKeys))
    }
    if normalizers.contains(.dates) { s.append(BirthdayNormalization(order: self.normalizers.dateOrder?.order)) }
    // `--normalize phones` writes E.164 unless --format-phones names a format.
    let phoneFormats = formatPhones ?? (normalizers.contains(.phones) ? PhoneFormatList(formats: [.e164]) : nil)
    // A normalization job reads a national number in its contact's country
    // (its first address that names one), else in --region.
    let contactRegions = normalizers.contains(.phones)
    if contactRegions && phoneFormats != nil { s.append(ContactCountry()) }
    if let formatPhones = phoneFormats {
      // NDJSON keeps the typed value for --format-phones alone; a
      // normalization job writes the number into it in every format.
      if (output == .ndjson && !normalizers.contains(.phones)) || formatPhones.formats.isEmpty {
        s.append(PhoneNumberFormatting(
          formats: formatPhones.formats, defaultRegion: region.code,
          regionColumn: contactRegions ? ContactCountry.column : nil, details: provenance))
      } else {
        let values = PhoneValues(
          format: formatPhones.formats[0], keepOriginal: keepOriginal,
          extensions: output == .csv ? .value : .parameter, uriValue: output == .vcard4 && formatPhones.formats[0] == .rfc3966)
        var formats = formatPhones.formats
        for f in values.neededFormats where !formats.contains(f) { formats.append(f) }
        s.append(
          PhoneNumberFormatting(
            formats: formats, defaultRegion: region.code, regionColumn: contactRegions ? ContactCountry.column : nil,
            details: provenance, extensions: values.neededExtensions))
        s.append(values)
      }
    }
    if dedupe {
      var configuration = DedupeConfiguration()
      configuration.defaultRegion = region.code.description
      if let dedupeThreshold { configuration.setThreshold(dedupeThreshold) }
      s.append(OhanaDedupe.Dedupe(configuration: configuration, provenance: provenance))
    }
    if let split { s.append(SplitOnFieldType(split.kind)) }
    if stats { s.append(Statistics()) }
    if let sort {
      s.append(AlphabeticalSort(mode: sort.mode, locale: locale))
      if descending { s.append(ReverseOrder().stage(name: "descending")) }
    }
    if reverse { s.append(ReverseOrder()) }
    return s
  }
}

struct RequirementName: ExpressibleByArgument, Sendable {
  var requirement: Requirement
  init?(argument: String) {
    guard let r = Requirement(name: argument) else { return nil }
    requirement = r
  }
}

struct FieldKindName: ExpressibleByArgument, Sendable {
  var kind: FieldKind
  init?(argument: String) {
    guard let k = FieldKind(name: argument) else { return nil }
    kind = k
  }
  static var defaultCompletionKind: CompletionKind { .list(["phone", "email", "url", "impp"]) }
}

/// How the normalizers write (`normalize`, and `process --normalize`).
struct NormalizerOptions: ParsableArguments {
  @Flag(name: .customLong("rebuild-full-name"), help: "Names: write the full name (FN) anew from the name parts.")
  var rebuildFullName = false

  @Option(name: .customLong("country-names"), help: ArgumentHelp("Addresses: write countries as their names in this locale (en, de, fr...) instead of ISO 3166-1 codes.", valueName: "locale"))
  var countryNames: String?

  @Option(name: .customLong("address-country"), help: ArgumentHelp("Addresses: the country of addresses that name none (ISO code), for their region and postcode; without it those are left as typed.", valueName: "code"))
  var addressCountry: String?

  @Option(name: .customLong("date-order"), help: ArgumentHelp("Dates: how to read a date such as 4/12/1985 whose first two numbers could both be a month: mdy or dmy (without it such a date is left as typed and counted).", valueName: "order"))
  var dateOrder: DateOrderName?

  @Option(name: .customLong("street-types"), help: ArgumentHelp("Addresses: rewrite each street's type (Street, St, Straße, rue...) in full (expand) or in its standard abbreviation (abbreviate); without it streets are left as typed.", valueName: "style"))
  var streetTypes: StreetStyleName?

  @Flag(name: .customLong("comparison-keys"), help: "Write comparison keys: each e-mail's mailbox key (Gmail dots, +tags, googlemail) and each address's street key (types in full, case-folded) in the parameter X-OHANA-KEY (vCard, NDJSON), or in columns <column>_key after a table's own.")
  var comparisonKeys = false

  /// The options as arguments again (for `normalize`, which runs `process`'s stages).
  var arguments: [String] {
    var out: [String] = []
    if rebuildFullName { out.append("--rebuild-full-name") }
    if let countryNames { out += ["--country-names", countryNames] }
    if let addressCountry { out += ["--address-country", addressCountry] }
    if let dateOrder { out += ["--date-order", dateOrder.order.rawValue] }
    if let streetTypes { out += ["--street-types", streetTypes.style.rawValue] }
    if comparisonKeys { out.append("--comparison-keys") }
    return out
  }
}

/// `--normalize`: which normalizers run.
struct NormalizerList: ExpressibleByArgument, Sendable {
  enum Kind: String, CaseIterable, Sendable { case names, emails, phones, addresses, dates }
  var kinds: [Kind]
  init(kinds: [Kind]) { self.kinds = kinds }
  init?(argument: String) {
    var out: [Kind] = []
    for part in argument.split(separator: ",") {
      let name = part.filter { $0 != " " && $0 != "\t" }.lowercased()
      if name == "all" {
        out = Kind.allCases
        continue
      }
      guard let k = Kind(rawValue: name) else { return nil }
      if !out.contains(k) { out.append(k) }
    }
    guard !out.isEmpty else { return nil }
    kinds = out
  }
  static var defaultCompletionKind: CompletionKind { .list(["all"] + Kind.allCases.map(\.rawValue)) }
}

struct StreetStyleName: ExpressibleByArgument, Sendable {
  var style: StreetText.Style
  init?(argument: String) {
    guard let s = StreetText.Style(rawValue: argument.lowercased()) else { return nil }
    style = s
  }
  static var defaultCompletionKind: CompletionKind { .list(StreetText.Style.allCases.map(\.rawValue)) }
}

struct DateOrderName: ExpressibleByArgument, Sendable {
  var order: BirthdayText.Order
  init?(argument: String) {
    guard let o = BirthdayText.Order(rawValue: argument.lowercased()) else { return nil }
    order = o
  }
  static var defaultCompletionKind: CompletionKind { .list(BirthdayText.Order.allCases.map(\.rawValue)) }
}

struct PhoneFormatList: ExpressibleByArgument, Sendable {
  var formats: [PhoneNumberFormat]
  init(formats: [PhoneNumberFormat]) { self.formats = formats }
  init?(argument: String) {
    var out: [PhoneNumberFormat] = []
    for part in argument.split(separator: ",") {
      switch part.filter({ $0 != " " && $0 != "\t" }).lowercased() {
      case "e164": out.append(.e164)
      case "international": out.append(.international)
      case "national": out.append(.national)
      case "rfc3966": out.append(.rfc3966)
      default: return nil
      }
    }
    guard !out.isEmpty else { return nil }
    formats = out
  }
}

struct RegionName: ExpressibleByArgument, Sendable {
  var code: RegionCode
  init(code: RegionCode) { self.code = code }
  init?(argument: String) {
    guard let c = RegionCode(argument), PhoneNumberEngine().isSupportedRegion(c) else { return nil }
    code = c
  }
  /// How `--help` shows the default: `US`, not `RegionName(code: US)`.
  var defaultValueDescription: String { code.description }
}

struct SortModeName: ExpressibleByArgument, Sendable {
  var mode: AlphabeticalSort.Mode
  init?(argument: String) {
    switch argument.lowercased() {
    case "full", "fullname": mode = .fullName
    case "given", "givenname", "first": mode = .givenName
    case "family", "familyname", "last": mode = .familyName
    default: return nil
    }
  }
  static var defaultCompletionKind: CompletionKind { .list(["full", "given", "family"]) }
}
