/// Regions (states, provinces, Länder) to their ISO 3166-2 codes, without
/// the country part (`California` → `CA`, `Bayern` and `Bavaria` → `BY`),
/// for the countries whose addresses write a region and where this
/// project holds the table: the United States, Canada, Australia and
/// Germany. Facts from ISO 3166-2, typed for this project, with the names
/// in the country's languages and in English.
public enum RegionText {
  public static let tables: [String: [String: [String]]] = [
    "US": [
      "AL": ["Alabama"], "AK": ["Alaska"], "AZ": ["Arizona"], "AR": ["Arkansas"], "CA": ["California"],
      "CO": ["Colorado"], "CT": ["Connecticut"], "DE": ["Delaware"], "FL": ["Florida"], "GA": ["Georgia"],
      "HI": ["Hawaii"], "ID": ["Idaho"], "IL": ["Illinois"], "IN": ["Indiana"], "IA": ["Iowa"], "KS": ["Kansas"],
      "KY": ["Kentucky"], "LA": ["Louisiana"], "ME": ["Maine"], "MD": ["Maryland"], "MA": ["Massachusetts"],
      "MI": ["Michigan"], "MN": ["Minnesota"], "MS": ["Mississippi"], "MO": ["Missouri"], "MT": ["Montana"],
      "NE": ["Nebraska"], "NV": ["Nevada"], "NH": ["New Hampshire"], "NJ": ["New Jersey"], "NM": ["New Mexico"],
      "NY": ["New York"], "NC": ["North Carolina"], "ND": ["North Dakota"], "OH": ["Ohio"], "OK": ["Oklahoma"],
      "OR": ["Oregon"], "PA": ["Pennsylvania"], "RI": ["Rhode Island"], "SC": ["South Carolina"],
      "SD": ["South Dakota"], "TN": ["Tennessee"], "TX": ["Texas"], "UT": ["Utah"], "VT": ["Vermont"],
      "VA": ["Virginia"], "WA": ["Washington"], "WV": ["West Virginia"], "WI": ["Wisconsin"], "WY": ["Wyoming"],
      "DC": ["District of Columbia", "Washington DC", "Washington D.C."], "AS": ["American Samoa"], "GU": ["Guam"],
      "MP": ["Northern Mariana Islands"], "PR": ["Puerto Rico"],
      "UM": ["United States Minor Outlying Islands"], "VI": ["Virgin Islands, U.S.", "U.S. Virgin Islands"],
    ],
    "CA": [
      "AB": ["Alberta"], "BC": ["British Columbia", "Colombie-Britannique"], "MB": ["Manitoba"],
      "NB": ["New Brunswick", "Nouveau-Brunswick"], "NL": ["Newfoundland and Labrador", "Terre-Neuve-et-Labrador"],
      "NS": ["Nova Scotia", "Nouvelle-Écosse"], "NT": ["Northwest Territories", "Territoires du Nord-Ouest"],
      "NU": ["Nunavut"], "ON": ["Ontario"], "PE": ["Prince Edward Island", "Île-du-Prince-Édouard"],
      "QC": ["Quebec", "Québec"], "SK": ["Saskatchewan"], "YT": ["Yukon", "Yukon Territory"],
    ],
    "AU": [
      "ACT": ["Australian Capital Territory"], "NSW": ["New South Wales"], "NT": ["Northern Territory"],
      "QLD": ["Queensland"], "SA": ["South Australia"], "TAS": ["Tasmania"], "VIC": ["Victoria"],
      "WA": ["Western Australia"],
    ],
    "DE": [
      "BW": ["Baden-Württemberg"], "BY": ["Bayern", "Bavaria"], "BE": ["Berlin"], "BB": ["Brandenburg"],
      "HB": ["Bremen"], "HH": ["Hamburg"], "HE": ["Hessen", "Hesse"], "MV": ["Mecklenburg-Vorpommern"],
      "NI": ["Niedersachsen", "Lower Saxony"], "NW": ["Nordrhein-Westfalen", "North Rhine-Westphalia"],
      "RP": ["Rheinland-Pfalz", "Rhineland-Palatinate"], "SL": ["Saarland"], "SN": ["Sachsen", "Saxony"],
      "ST": ["Sachsen-Anhalt", "Saxony-Anhalt"], "SH": ["Schleswig-Holstein"], "TH": ["Thüringen", "Thuringia"],
    ],
  ]

  /// Folded name or code → code, per country.
  static let lookup: [String: [String: String]] = tables.mapValues { table in
    var out: [String: String] = [:]
    for (code, names) in table {
      out[CountryText.key(code)] = code
      for n in names { out[CountryText.key(n)] = code }
    }
    return out
  }

  /// The subdivision code of `text` in `country` (`"california"`, `"Calif"`
  /// no: names and codes only), or nil when the country has no table here
  /// or the text names none of its regions. `US-CA` is read as `CA`.
  public static func code(_ text: String, country: String) -> String? {
    guard let table = lookup[country] else { return nil }
    var t = text
    if t.uppercased().hasPrefix(country + "-") { t = String(t.dropFirst(country.count + 1)) }
    return table[CountryText.key(t)]
  }
}
