import OhanaText

/// Street types (`Street`, `St`, `Straße`, `rue`, `Avenida`), recognised
/// per language, for a comparison key and, only when asked, rewritten
/// (issue 46, item 2).
///
/// Decided here (README "Normalizing"):
/// - The language is the address's country's (``language(country:)``);
///   an address of no known country is read as English.
/// - English types follow the street's name (`12 Main St`, `Elm Ave N`):
///   the last word that names a type is the type, and never the street's
///   first word (`St Johns Rd`: `Rd` is). Its forms are the USPS
///   Publication 28 (Appendix C1) suffixes: the primary name, its standard
///   abbreviation and the common variants (`AV`, `AVEN`, `AVNUE` are
///   `Avenue`). French, Spanish, Italian and Portuguese types lead: the
///   first word of the name (`12 rue de la Paix`, `Calle Mayor 5`). German
///   and Dutch types are the end of a word as often as a word
///   (`Hauptstr.` and `Hauptstraße`, `Kalverstraat`), and are read as both.
/// - A trailing `.` of an abbreviation belongs to it.
/// - Rewriting (``rewritten(_:country:style:)``) replaces only the type
///   word, in the case it was typed in (all capitals stay capitals); every
///   other character stays as typed.
/// - The comparison key (``key(_:country:)``) is the street with each type
///   in its full form, case-folded (NFKC), words of letters and digits
///   joined by one space: `12 Main St.` and `12 MAIN STREET` have one key.
public enum StreetText {
  /// How ``rewritten(_:country:style:)`` writes a type.
  public enum Style: String, Sendable, CaseIterable {
    /// In full: `Street`, `Straße`, `Avenida`.
    case expand
    /// In its standard abbreviation: `St`, `Str.`, `Av.`.
    case abbreviate
  }

  /// The languages whose street types are known.
  public enum Language: String, Sendable, CaseIterable {
    case en, de, nl, fr, es, it, pt
  }

  /// A street type: its full form and its standard abbreviation, as
  /// written in title case.
  package struct Kind: Sendable {
    package var full: String
    var abbreviation: String
  }

  /// The language of a country's street names (ISO 3166-1 alpha-2); nil
  /// for a country whose language has no table here. Countries of several
  /// languages take their most used one (`BE`: `nl`, `CH`: `de`, `CA`:
  /// `en`).
  public static func language(country: String?) -> Language? {
    guard let c = country?.uppercased() else { return .en }
    switch c {
    case "US", "GB", "UK", "CA", "AU", "NZ", "IE", "ZA", "IN", "SG", "PH", "PR", "GU", "VI", "AS", "MP", "JM", "TT", "BS",
      "BB", "NG", "KE", "GH", "MT":
      return .en
    case "DE", "AT", "CH", "LI", "LU": return .de
    case "NL", "BE", "SR": return .nl
    case "FR", "MC", "RE", "GP", "MQ", "GF", "YT", "PF", "NC", "PM", "BL", "MF", "WF", "SN", "CI", "CM", "MA", "TN", "DZ":
      return .fr
    case "ES", "MX", "AR", "CO", "CL", "PE", "VE", "EC", "GT", "CU", "BO", "DO", "HN", "PY", "SV", "NI", "CR", "PA", "UY":
      return .es
    case "IT", "SM", "VA": return .it
    case "PT", "BR", "AO", "MZ", "CV": return .pt
    default: return nil
    }
  }

  /// The street with its type in `style`; nil when no type was found or
  /// the text would not change.
  public static func rewritten(_ street: String, country: String?, style: Style) -> String? {
    guard let language = language(country: country), let found = find(street, language: language) else { return nil }
    let kind = found.kind
    var word = style == .expand ? kind.full : kind.abbreviation
    let typed = String(street[found.range])
    if typed == typed.uppercased() && typed != typed.lowercased() && typed.count > 1 {
      word = word.uppercased()
    } else if let first = typed.first, first.isLowercase {
      // A lower-case type stays lower case (`rue`, `calle`, `main st`).
      word = word.lowercased()
    }
    var out = street
    out.replaceSubrange(found.range, with: word)
    return out == street ? nil : out
  }

  /// The street's comparison key (see ``StreetText``); empty for a street
  /// of no letters or digits.
  public static func key(_ street: String, country: String?) -> String {
    var text = street
    if let language = language(country: country), let found = find(street, language: language) {
      text.replaceSubrange(found.range, with: found.kind.full)
    }
    let folded = text.utf8.allSatisfy({ $0 < 0x80 }) ? text.lowercased() : (try? Normalizer.nfkcCasefold.normalize(text)) ?? text.lowercased()
    return words(folded).joined(separator: " ")
  }

  // MARK: Finding the type

  private struct Found {
    var range: Range<String.Index>
    var kind: Kind
  }

  /// The words of `text`: runs of letters and digits.
  private static func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
  }

  /// Word ranges, each with a following `.` included.
  private static func wordRanges(_ text: String) -> [Range<String.Index>] {
    var out: [Range<String.Index>] = []
    var i = text.startIndex
    while i < text.endIndex {
      guard text[i].isLetter || text[i].isNumber else {
        i = text.index(after: i)
        continue
      }
      var j = i
      while j < text.endIndex, text[j].isLetter || text[j].isNumber || text[j] == "'" { j = text.index(after: j) }
      var end = j
      if end < text.endIndex, text[end] == "." { end = text.index(after: end) }
      out.append(i..<end)
      i = j
    }
    return out
  }

  private static func isNumberWord(_ s: Substring) -> Bool { s.first?.isNumber ?? false }

  private static func find(_ street: String, language: Language) -> Found? {
    let ranges = wordRanges(street)
    guard !ranges.isEmpty, let table = tables[language] else { return nil }
    func kind(_ r: Range<String.Index>) -> Kind? {
      var w = street[r]
      if w.hasSuffix(".") { w = w.dropLast() }
      return table[w.lowercased()]
    }
    // The street's name: its words other than a leading house number.
    let first = ranges.firstIndex { !isNumberWord(street[$0]) } ?? ranges.count
    switch language {
    case .en:
      // The last type word, not the name's first word.
      var k = ranges.count - 1
      while k > first {
        if let kd = kind(ranges[k]) { return Found(range: ranges[k], kind: kd) }
        k -= 1
      }
      return nil
    case .fr, .es, .it, .pt:
      // The type leads a name of at least one more word.
      guard first + 1 < ranges.count else { return nil }
      guard let kd = kind(ranges[first]) else { return nil }
      return Found(range: ranges[first], kind: kd)
    case .de, .nl:
      // A type word after the name's first word, else a word ending in a
      // type (`Hauptstr.`).
      var k = ranges.count - 1
      while k >= first {
        let r = ranges[k]
        if k > first, let kd = kind(r) { return Found(range: r, kind: kd) }
        if let found = compound(street, r, language: language) { return found }
        k -= 1
      }
      return nil
    }
  }

  /// A German or Dutch word that ends in a type: the range of that end.
  private static func compound(_ street: String, _ r: Range<String.Index>, language: Language) -> Found? {
    let word = street[r].lowercased()
    for (ending, kind) in endings[language] ?? [] where word.hasSuffix(ending) && word.count > ending.count + 1 {
      let start = street.index(r.upperBound, offsetBy: -ending.count)
      return Found(range: start..<r.upperBound, kind: kind)
    }
    return nil
  }

  // MARK: Tables

  /// Per language: each form (lower case, without a trailing `.`) to its
  /// type. English from USPS Publication 28, Appendix C1; the others from
  /// common usage in each country's postal addressing.
  package static let tables: [Language: [String: Kind]] = {
    var out: [Language: [String: Kind]] = [:]
    for (language, rows) in sources {
      var table: [String: Kind] = [:]
      for row in rows {
        let kind = Kind(full: row[0], abbreviation: row[1])
        for form in row {
          var f = form.lowercased()
          if f.hasSuffix(".") { f.removeLast() }
          if table[f] == nil { table[f] = kind }
        }
      }
      out[language] = table
    }
    return out
  }()

  /// German and Dutch types that end compound words, longest first (only
  /// forms too long to end an unrelated word: `Weg.` is no `Gasse`).
  package static let endings: [Language: [(String, Kind)]] = {
    var out: [Language: [(String, Kind)]] = [:]
    for (language, rows) in compoundSources {
      var list: [(String, Kind)] = []
      for row in rows {
        // The kind is the whole-word table's, with its abbreviation.
        guard let kind = tables[language]?[row[0].lowercased()] else { continue }
        for form in row { list.append((form.lowercased(), kind)) }
      }
      out[language] = list.sorted { $0.0.count > $1.0.count }
    }
    return out
  }()

  /// Rows: the full form, the standard abbreviation, other forms.
  private static let sources: [Language: [[String]]] = [
    .en: [
      ["Alley", "Aly", "Allee", "Ally"], ["Annex", "Anx", "Anex", "Annx"], ["Arcade", "Arc"],
      ["Avenue", "Ave", "Av", "Aven", "Avenu", "Avn", "Avnue"], ["Bayou", "Byu", "Bayoo"], ["Beach", "Bch"],
      ["Bend", "Bnd"], ["Bluff", "Blf", "Bluf"], ["Bluffs", "Blfs"], ["Bottom", "Btm", "Bot", "Bottm"],
      ["Boulevard", "Blvd", "Boul", "Boulv"], ["Branch", "Br", "Brnch"], ["Bridge", "Brg", "Brdge"],
      ["Brook", "Brk"], ["Brooks", "Brks"], ["Burg", "Bg"], ["Burgs", "Bgs"],
      ["Bypass", "Byp", "Bypa", "Bypas", "Byps"], ["Camp", "Cp", "Cmp"], ["Canyon", "Cyn", "Canyn", "Cnyn"],
      ["Cape", "Cpe"], ["Causeway", "Cswy", "Causway", "Causwa"],
      ["Center", "Ctr", "Cen", "Cent", "Centr", "Centre", "Cnter", "Cntr"], ["Centers", "Ctrs"],
      ["Circle", "Cir", "Circ", "Circl", "Crcl", "Crcle"], ["Circles", "Cirs"], ["Cliff", "Clf"], ["Cliffs", "Clfs"],
      ["Club", "Clb"], ["Common", "Cmn"], ["Commons", "Cmns"], ["Corner", "Cor"], ["Corners", "Cors"],
      ["Course", "Crse"], ["Court", "Ct", "Crt"], ["Courts", "Cts"], ["Cove", "Cv"], ["Coves", "Cvs"], ["Creek", "Crk", "Ck", "Cr"],
      ["Crescent", "Cres", "Crsent", "Crsnt", "Crecent", "Cresent", "Crscnt"], ["Crest", "Crst"], ["Crossing", "Xing", "Crssng", "Crssing"],
      ["Crossroad", "Xrd"], ["Crossroads", "Xrds"], ["Curve", "Curv"], ["Dale", "Dl"], ["Dam", "Dm"],
      ["Divide", "Dv", "Div", "Dvd"], ["Drive", "Dr", "Driv", "Drv"], ["Drives", "Drs"], ["Estate", "Est"],
      ["Estates", "Ests"], ["Expressway", "Expy", "Exp", "Expr", "Express", "Expw"],
      ["Extension", "Ext", "Extn", "Extnsn"], ["Extensions", "Exts"], ["Fall", "Fall"], ["Falls", "Fls"],
      ["Ferry", "Fry", "Frry"], ["Field", "Fld"], ["Fields", "Flds"], ["Flat", "Flt"], ["Flats", "Flts"],
      ["Ford", "Frd"], ["Fords", "Frds"], ["Forest", "Frst", "Forests"], ["Forge", "Frg", "Forg"],
      ["Forges", "Frgs"], ["Fork", "Frk"], ["Forks", "Frks"], ["Fort", "Ft", "Frt"],
      ["Freeway", "Fwy", "Freewy", "Frway", "Frwy"], ["Garden", "Gdn", "Gardn", "Grden", "Grdn"],
      ["Gardens", "Gdns", "Grdns"], ["Gateway", "Gtwy", "Gatewy", "Gatway", "Gtway"], ["Glen", "Gln"],
      ["Glens", "Glns"], ["Green", "Grn"], ["Greens", "Grns"], ["Grove", "Grv", "Grov"], ["Groves", "Grvs"],
      ["Harbor", "Hbr", "Harb", "Harbr", "Hrbor"], ["Harbors", "Hbrs"], ["Haven", "Hvn", "Havn"], ["Heights", "Hts", "Ht", "Height", "Hgts"],
      ["Highway", "Hwy", "Highwy", "Hiway", "Hiwy", "Hway"], ["Hill", "Hl"], ["Hills", "Hls"],
      ["Hollow", "Holw", "Hllw", "Hollows", "Holws"], ["Inlet", "Inlt"], ["Island", "Is", "Islnd"],
      ["Islands", "Iss", "Islnds"], ["Isle", "Isle", "Isles"],
      ["Junction", "Jct", "Jction", "Jctn", "Junctn", "Juncton"], ["Junctions", "Jcts", "Jctns"], ["Key", "Ky"],
      ["Keys", "Kys"], ["Knoll", "Knl", "Knol"], ["Knolls", "Knls"], ["Lake", "Lk"], ["Lakes", "Lks"],
      ["Land", "Land"], ["Landing", "Lndg", "Lndng"], ["Lane", "Ln", "La", "Lanes"], ["Light", "Lgt"], ["Lights", "Lgts"],
      ["Loaf", "Lf"], ["Lock", "Lck"], ["Locks", "Lcks"], ["Lodge", "Ldg", "Ldge", "Lodg"],
      ["Loop", "Loop", "Loops"], ["Mall", "Mall"], ["Manor", "Mnr"], ["Manors", "Mnrs"], ["Meadow", "Mdw"],
      ["Meadows", "Mdws", "Medows"], ["Mews", "Mews"], ["Mill", "Ml"], ["Mills", "Mls"],
      ["Mission", "Msn", "Missn", "Mssn"], ["Motorway", "Mtwy"], ["Mount", "Mt", "Mnt"],
      ["Mountain", "Mtn", "Mntain", "Mntn", "Mountin", "Mtin"], ["Mountains", "Mtns", "Mntns"], ["Neck", "Nck"],
      ["Orchard", "Orch", "Orchrd"], ["Oval", "Oval", "Ovl"], ["Overpass", "Opas"], ["Park", "Park", "Prk", "Parks", "Pk"],
      ["Parkway", "Pkwy", "Parkwy", "Pkway", "Pky", "Parkways", "Pkwys"], ["Pass", "Pass"], ["Passage", "Psge"],
      ["Path", "Path", "Paths"], ["Pike", "Pike", "Pikes"], ["Pine", "Pne"], ["Pines", "Pnes"], ["Place", "Pl"],
      ["Plain", "Pln"], ["Plains", "Plns", "Plaines"], ["Plaza", "Plz", "Plza"], ["Point", "Pt"], ["Points", "Pts"],
      ["Port", "Prt"], ["Ports", "Prts"], ["Prairie", "Pr", "Prr", "Prarie"], ["Radial", "Radl", "Rad", "Radiel"],
      ["Ramp", "Ramp"], ["Ranch", "Rnch", "Ranches", "Rnchs"], ["Rapid", "Rpd"], ["Rapids", "Rpds"], ["Rest", "Rst"],
      ["Ridge", "Rdg", "Rdge"], ["Ridges", "Rdgs"], ["River", "Riv", "Rvr", "Rivr"], ["Road", "Rd"],
      ["Roads", "Rds"], ["Route", "Rte"], ["Row", "Row"], ["Rue", "Rue"], ["Run", "Run"], ["Shoal", "Shl"],
      ["Shoals", "Shls"], ["Shore", "Shr", "Shoar"], ["Shores", "Shrs", "Shoars"], ["Skyway", "Skwy"],
      ["Spring", "Spg", "Spng", "Sprng"], ["Springs", "Spgs", "Spngs", "Sprngs"], ["Spur", "Spur", "Spurs"],
      ["Square", "Sq", "Sqr", "Sqre", "Squ"], ["Squares", "Sqs", "Sqrs"], ["Station", "Sta", "Statn", "Stn"],
      ["Stravenue", "Stra", "Strave", "Strav", "Straven", "Stravn", "Strvn", "Strvnue"], ["Stream", "Strm", "Streme"],
      ["Street", "St", "Strt", "Str"], ["Streets", "Sts"], ["Summit", "Smt", "Sumit", "Sumitt"],
      ["Terrace", "Ter", "Terr"], ["Throughway", "Trwy"], ["Trace", "Trce", "Traces"],
      ["Track", "Trak", "Tracks", "Trk", "Trks"], ["Trafficway", "Trfy"], ["Trail", "Trl", "Trails", "Trls", "Tr"],
      ["Trailer", "Trlr", "Trlrs"], ["Tunnel", "Tunl", "Tunel", "Tunls", "Tunnels", "Tunnl"],
      ["Turnpike", "Tpke", "Trnpk", "Turnpk", "Tpk", "Trpk"], ["Underpass", "Upas"], ["Union", "Un"], ["Unions", "Uns"],
      ["Valley", "Vly", "Vally", "Vlly"], ["Valleys", "Vlys"], ["Viaduct", "Via", "Vdct", "Viadct"], ["View", "Vw"],
      ["Views", "Vws"], ["Village", "Vlg", "Vill", "Villag", "Villg", "Villiage"], ["Villages", "Vlgs"],
      ["Ville", "Vl"], ["Vista", "Vis", "Vist", "Vst", "Vsta"], ["Walk", "Walk", "Walks"], ["Wall", "Wall"],
      ["Way", "Way", "Wy"], ["Ways", "Ways"], ["Well", "Wl"], ["Wells", "Wls"],
    ],
    .de: [
      ["Straße", "Str.", "Strasse", "Str"], ["Platz", "Pl.", "Pl"], ["Allee", "Al."], ["Gasse", "G."],
      ["Weg", "Weg"], ["Ring", "Ring"], ["Damm", "Damm"], ["Ufer", "Ufer"],
    ],
    .nl: [
      ["straat", "str.", "str"], ["laan", "ln.", "ln"], ["plein", "pln.", "pln"], ["weg", "weg"],
      ["gracht", "gr.", "gr"], ["kade", "kd.", "kd"], ["singel", "sngl."],
    ],
    .fr: [
      ["Rue", "R.", "R"], ["Avenue", "Av.", "Av", "Ave"], ["Boulevard", "Bd", "Bld", "Boul", "Bvd"],
      ["Place", "Pl.", "Pl"], ["Chemin", "Ch.", "Ch", "Chem"], ["Impasse", "Imp.", "Imp"], ["Route", "Rte", "Rte."],
      ["Allée", "All.", "Allee", "All"], ["Quai", "Qu.", "Qu"], ["Cours", "Crs"], ["Faubourg", "Fg", "Fbg"],
      ["Square", "Sq.", "Sq"], ["Passage", "Pass.", "Pas"],
    ],
    .es: [
      ["Calle", "C.", "C", "Cl", "Cll"], ["Avenida", "Av.", "Av", "Avda", "Avd"], ["Paseo", "P.º", "Pº", "Po", "Pso"],
      ["Plaza", "Pl.", "Pza", "Plz", "Pl"], ["Carretera", "Ctra.", "Ctra", "Crta"], ["Camino", "Cno.", "Cno", "Cmno"],
      ["Ronda", "Rda.", "Rda"], ["Travesía", "Trav.", "Travesia", "Trv"], ["Glorieta", "Gta.", "Gta"],
      ["Callejón", "Cjón.", "Callejon", "Cjon"],
    ],
    .it: [
      ["Via", "V.", "V"], ["Viale", "V.le", "Vle"], ["Piazza", "P.za", "P.zza", "Pza", "Pzza"],
      ["Corso", "C.so", "Cso"], ["Largo", "L.go", "Lgo"], ["Vicolo", "V.lo", "Vlo"], ["Piazzale", "P.le", "Ple"],
      ["Strada", "Str.", "Str"], ["Lungomare", "L.mare"],
    ],
    .pt: [
      ["Rua", "R.", "R"], ["Avenida", "Av.", "Av", "Avda"], ["Praça", "Pç.", "Praca", "Pca", "Pc"],
      ["Travessa", "Tv.", "Trav", "Tv"], ["Estrada", "Estr.", "Estr", "Est"], ["Largo", "Lg.", "Lgo", "Lg"],
      ["Alameda", "Al.", "Al"], ["Rodovia", "Rod.", "Rod"],
    ],
  ]

  /// Types that end compound words in German and Dutch.
  private static let compoundSources: [Language: [[String]]] = [
    .de: [["straße", "str.", "strasse"], ["platz"], ["allee"], ["gasse"]],
    .nl: [["straat", "str."], ["laan"], ["plein"], ["gracht"], ["kade"]],
  ]
}
