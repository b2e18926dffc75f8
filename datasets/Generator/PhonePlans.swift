// Per-country phone numbering, written for the generator (not derived from
// libphonenumber): for mobile and fixed lines, the leading digits, the
// national significant number (NSN) length, and how people of that country
// write the number. Templates use `#` for the NSN digits in order; other
// characters (including a trunk prefix such as `0` or `8`) are literal.
// National templates are written as dialled at home; international ones
// follow `+<cc> `. `next` lists the digits allowed right after the prefix.

final class NumberPattern: Sendable {
  let prefixes: [[UInt8]]
  let length: Int
  let national: [String]
  let international: [String]
  let next: [UInt8]

  init(prefixes: [String], length: Int, national: [String], international: [String], next: String = "23456789") {
    self.prefixes = prefixes.map { Array($0.utf8) }
    self.length = length
    self.national = national
    self.international = international
    self.next = Array(next.utf8)
  }
}

final class PhonePlan: Sendable {
  let region: String
  let countryCode: String
  let idd: String
  let mobile: [NumberPattern]
  let fixed: [NumberPattern]
  /// Whether work numbers sometimes carry an extension (`ext. 12`, `x12`).
  let extensions: Bool

  init(
    region: String, countryCode: String, idd: String, mobile: [NumberPattern], fixed: [NumberPattern],
    extensions: Bool = false
  ) {
    self.region = region
    self.countryCode = countryCode
    self.idd = idd
    self.mobile = mobile
    self.fixed = fixed
    self.extensions = extensions
  }
}

private let nanpNational = [
  "(###) ###-####", "(###) ###-####", "###-###-####", "###.###.####", "### ### ####",
  "1-###-###-####", "1 (###) ###-####", "##########",
]
private let nanpIntl = ["(###) ###-####", "###-###-####", "### ### ####"]

let usPhonePlan = PhonePlan(
  region: "US", countryCode: "1", idd: "011",
  mobile: [NumberPattern(
    prefixes: ["201", "206", "212", "213", "303", "305", "312", "404", "415", "503", "512",
               "602", "617", "646", "702", "713", "718", "805", "917", "919"],
    length: 10, national: nanpNational, international: nanpIntl)],
  fixed: [NumberPattern(
    prefixes: ["202", "215", "310", "408", "469", "480", "510", "612", "704", "773"],
    length: 10, national: nanpNational, international: nanpIntl)],
  extensions: true)

let phonePlans: [String: PhonePlan] = [
  "US": usPhonePlan,
  "CA": PhonePlan(
    region: "CA", countryCode: "1", idd: "011",
    mobile: [NumberPattern(
      prefixes: ["416", "647", "604", "778", "514", "438", "403", "587", "613", "902"],
      length: 10, national: nanpNational, international: nanpIntl)],
    fixed: [NumberPattern(
      prefixes: ["416", "604", "514", "403", "613", "780", "204", "306"],
      length: 10, national: nanpNational, international: nanpIntl)],
    extensions: true),
  "GB": PhonePlan(
    region: "GB", countryCode: "44", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["77", "78", "79", "74", "75"], length: 10,
      national: ["0#### ######", "0#### ### ###", "0##########"],
      international: ["#### ######", "#### ### ###", "(0)#### ######"])],
    fixed: [
      NumberPattern(
        prefixes: ["203", "207", "208"], length: 10,
        national: ["0## #### ####", "(0##) #### ####", "0##########"],
        international: ["## #### ####", "(0)## #### ####"]),
      NumberPattern(
        prefixes: ["161", "121", "131", "117"], length: 10,
        national: ["0### ### ####", "(0###) ### ####"], international: ["### ### ####"], next: "234"),
    ],
    extensions: true),
  "DE": PhonePlan(
    region: "DE", countryCode: "49", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["151", "152", "157", "160", "162", "170", "171", "172", "173", "174", "175",
                 "176", "177", "178", "179"],
      length: 11,
      national: ["0### ########", "0###/########", "0###-########", "0### #### ####", "0###########"],
      international: ["### ########", "### #### ####", "(0)### ########"])],
    fixed: [
      NumberPattern(
        prefixes: ["30", "40", "69", "89"], length: 10,
        national: ["0## ########", "0##/########", "(0##) #### ####", "0##-########"],
        international: ["## ########", "## #### ####"]),
      NumberPattern(
        prefixes: ["221", "211", "711"], length: 10,
        national: ["0### #######", "0###/#######", "(0###) ### ####"],
        international: ["### #######"]),
    ],
    extensions: true),
  "FR": PhonePlan(
    region: "FR", countryCode: "33", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["60", "61", "62", "64", "65", "66", "67", "68", "73", "75", "76", "77", "78"], length: 9,
      national: ["0# ## ## ## ##", "0# ## ## ## ##", "0#.##.##.##.##", "0#-##-##-##-##", "0#########"],
      international: ["# ## ## ## ##", "(0)# ## ## ## ##", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["1", "3", "4", "20", "23", "24", "28", "29", "51", "53", "54", "55", "56"], length: 9,
      national: ["0# ## ## ## ##", "0#.##.##.##.##", "0#########"],
      international: ["# ## ## ## ##", "(0)# ## ## ## ##"])],
    extensions: false),
  "ES": PhonePlan(
    region: "ES", countryCode: "34", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["6", "71", "72", "73", "74"], length: 9,
      national: ["### ## ## ##", "### ### ###", "#########"],
      international: ["### ## ## ##", "### ### ###", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["91", "93", "94", "95", "96", "98"], length: 9,
      national: ["## ### ## ##", "### ## ## ##", "#########"],
      international: ["## ### ## ##", "### ### ###"], next: "2345678")]),
  "IT": PhonePlan(
    region: "IT", countryCode: "39", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["32", "33", "34", "35", "36", "37", "38", "39"], length: 10,
      national: ["### ### ####", "### #######", "###-#######", "##########"],
      international: ["### ### ####", "### #######"])],
    fixed: [NumberPattern(
      prefixes: ["06", "02"], length: 10,
      national: ["## #### ####", "##/########", "##-########", "## ########"],
      international: ["## #### ####", "## ########"])]),
  "NL": PhonePlan(
    region: "NL", countryCode: "31", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["61", "62", "63", "64", "65"], length: 9,
      national: ["0#-########", "0# ## ## ## ##", "0# ########", "0#########"],
      international: ["# ########", "# ## ## ## ##", "(0)# ########"])],
    fixed: [NumberPattern(
      prefixes: ["20", "10", "30", "70"], length: 9,
      national: ["0##-#######", "0## ### ####", "(0##) #######"],
      international: ["## ### ####", "## #######"])]),
  "BR": PhonePlan(
    region: "BR", countryCode: "55", idd: "",
    mobile: [NumberPattern(
      prefixes: ["119", "219", "319", "419", "519", "619", "719", "819"], length: 11,
      national: ["(##) #####-####", "(##) #####-####", "## #####-####", "(0##) #####-####", "###########"],
      international: ["## #####-####", "## ##### ####", "###########"], next: "6789")],
    fixed: [NumberPattern(
      prefixes: ["11", "21", "31", "41", "51", "61", "71", "81"], length: 10,
      national: ["(##) ####-####", "## ####-####", "(0##) ####-####"],
      international: ["## ####-####", "## #### ####"], next: "2345")]),
  "MX": PhonePlan(
    region: "MX", countryCode: "52", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["55", "33", "81"], length: 10,
      national: ["## #### ####", "(##) ####-####", "##-####-####", "##########"],
      international: ["## #### ####", "##########"])],
    fixed: [NumberPattern(
      prefixes: ["222", "442", "664"], length: 10,
      national: ["### ### ####", "(###) ###-####"], international: ["### ### ####"])]),
  "PL": PhonePlan(
    region: "PL", countryCode: "48", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["50", "51", "53", "57", "60", "66", "69", "72", "73", "78", "79", "88"], length: 9,
      national: ["### ### ###", "###-###-###", "#########"],
      international: ["### ### ###", "###-###-###", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["22", "12", "61", "71", "58"], length: 9,
      national: ["## ### ## ##", "(##) ### ## ##", "## ###-##-##"],
      international: ["## ### ## ##"])]),
  "SE": PhonePlan(
    region: "SE", countryCode: "46", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["70", "72", "73", "76", "79"], length: 9,
      national: ["0##-### ## ##", "0## ### ## ##", "0##-#######", "0#########"],
      international: ["## ### ## ##", "##-### ## ##", "#########"])],
    fixed: [
      NumberPattern(
        prefixes: ["8"], length: 9,
        national: ["0#-### ### ##", "0# ### ### ##", "0#-########"],
        international: ["# ### ### ##"]),
      NumberPattern(
        prefixes: ["31", "40"], length: 9,
        national: ["0##-### ## ##", "0## ### ## ##"], international: ["## ### ## ##"]),
    ]),
  "TR": PhonePlan(
    region: "TR", countryCode: "90", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["505", "506", "507", "530", "532", "533", "535", "536", "537", "538", "539",
                 "541", "542", "543", "544", "545", "551", "552", "553", "554", "555"],
      length: 10,
      national: ["0### ### ## ##", "0 ### ### ## ##", "0(###) ### ## ##", "0##########", "### ### ## ##"],
      international: ["### ### ## ##", "### ### ####", "##########"])],
    fixed: [NumberPattern(
      prefixes: ["212", "216", "312", "232"], length: 10,
      national: ["(0###) ### ## ##", "0### ### ## ##", "0 (###) ### ## ##"],
      international: ["### ### ## ##"])]),
  "RU": PhonePlan(
    region: "RU", countryCode: "7", idd: "810",
    mobile: [NumberPattern(
      prefixes: ["900", "903", "905", "906", "909", "910", "915", "916", "917", "919", "921",
                 "925", "926", "929", "960", "965", "977", "985", "999"],
      length: 10,
      national: ["8 (###) ###-##-##", "8 (###) ###-##-##", "8-###-###-##-##", "8 ### ### ## ##",
                 "8##########", "(###) ###-##-##"],
      international: ["(###) ###-##-##", "### ###-##-##", "### ### ## ##", "##########"])],
    fixed: [NumberPattern(
      prefixes: ["495", "499", "812"], length: 10,
      national: ["8 (###) ###-##-##", "(###) ###-##-##", "8 ### ###-##-##"],
      international: ["(###) ###-##-##", "### ###-##-##"])],
    extensions: false),
  "UA": PhonePlan(
    region: "UA", countryCode: "380", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["50", "63", "66", "67", "68", "73", "93", "95", "96", "97", "98", "99"], length: 9,
      national: ["0## ### ####", "(0##) ###-##-##", "0## ### ## ##", "0#########"],
      international: ["## ### ## ##", "(##) ###-##-##", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["44", "32", "57"], length: 9,
      national: ["0## ### ## ##", "(0##) ###-##-##"], international: ["## ### ## ##"])]),
  "GR": PhonePlan(
    region: "GR", countryCode: "30", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["690", "693", "694", "695", "697", "698", "699"], length: 10,
      national: ["### ### ####", "###-#######", "##########"],
      international: ["### ### ####", "##########"])],
    fixed: [NumberPattern(
      prefixes: ["210", "231"], length: 10,
      national: ["### ### ####", "###-#######", "### #######"],
      international: ["### ### ####", "### #######"])]),
  "SA": PhonePlan(
    region: "SA", countryCode: "966", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["50", "53", "54", "55", "56", "58", "59"], length: 9,
      national: ["0## ### ####", "0##-###-####", "0#########"],
      international: ["## ### ####", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["11", "124", "126", "135", "138"], length: 9,
      national: ["0## ### ####", "0##-###-####"], international: ["## ### ####"])]),
  "EG": PhonePlan(
    region: "EG", countryCode: "20", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["10", "11", "12", "15"], length: 10,
      national: ["0### ### ####", "0##########", "0## #### ####"],
      international: ["## #### ####", "### ### ####", "##########"])],
    fixed: [NumberPattern(
      prefixes: ["22", "23", "24"], length: 9,
      national: ["0# #### ####", "0#-########", "(0#) ########"],
      international: ["# #### ####"])]),
  "IL": PhonePlan(
    region: "IL", countryCode: "972", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["50", "52", "53", "54"], length: 9,
      national: ["0##-###-####", "0##-#######", "0## ### ####", "0#########"],
      international: ["##-###-####", "## ### ####", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["2", "3", "4", "8", "9"], length: 8,
      national: ["0#-###-####", "0#-#######", "0# ### ####"],
      international: ["#-###-####", "# ### ####"], next: "3456")]),
  "IN": PhonePlan(
    region: "IN", countryCode: "91", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["98", "99", "97", "96", "94", "93", "90", "88", "87", "86", "81", "80", "70"],
      length: 10,
      national: ["#####-#####", "##### #####", "0##### #####", "##########", "0##########"],
      international: ["##### #####", "##########", "#####-#####"])],
    fixed: [NumberPattern(
      prefixes: ["11", "22", "80", "44"], length: 10,
      national: ["0## #### ####", "0##-########", "(0##) ########"],
      international: ["## #### ####", "## ########"], next: "2346")]),
  "CN": PhonePlan(
    region: "CN", countryCode: "86", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["130", "131", "132", "133", "135", "136", "137", "138", "139", "150", "151",
                 "152", "153", "155", "156", "157", "158", "159", "177", "180", "181", "182",
                 "183", "185", "186", "187", "188", "189", "199"],
      length: 11,
      national: ["### #### ####", "###-####-####", "###########", "###########"],
      international: ["### #### ####", "###########"], next: "0123456789")],
    fixed: [NumberPattern(
      prefixes: ["10", "21"], length: 10,
      national: ["0##-########", "(0##) #### ####", "0## #### ####", "0##-#### ####"],
      international: ["## #### ####", "## ########"], next: "23456")]),
  "JP": PhonePlan(
    region: "JP", countryCode: "81", idd: "010",
    mobile: [NumberPattern(
      prefixes: ["70", "80", "90"], length: 10,
      national: ["0##-####-####", "0##-####-####", "0## #### ####", "0##########"],
      international: ["##-####-####", "## #### ####"], next: "123456789")],
    fixed: [NumberPattern(
      prefixes: ["3", "6"], length: 9,
      national: ["0#-####-####", "0# #### ####", "(0#) ####-####", "0#(####)####"],
      international: ["#-####-####"], next: "3456")]),
  "KR": PhonePlan(
    region: "KR", countryCode: "82", idd: "001",
    mobile: [NumberPattern(
      prefixes: ["10"], length: 10,
      national: ["0##-####-####", "0##-####-####", "0## #### ####", "0##########"],
      international: ["##-####-####", "## #### ####", "##########"])],
    fixed: [
      NumberPattern(
        prefixes: ["2"], length: 9,
        national: ["0#-####-####", "0# #### ####", "(0#) ####-####"],
        international: ["#-####-####"]),
      NumberPattern(
        prefixes: ["51", "53"], length: 9,
        national: ["0##-###-####", "0## ### ####"], international: ["##-###-####"]),
    ]),
  "TH": PhonePlan(
    region: "TH", countryCode: "66", idd: "001",
    mobile: [NumberPattern(
      prefixes: ["61", "62", "63", "64", "65", "80", "81", "82", "84", "85", "86", "87", "88",
                 "89", "90", "91", "92", "93", "94", "95", "96", "97", "98", "99"],
      length: 9,
      national: ["0##-###-####", "0## ### ####", "0#########", "0#-####-####"],
      international: ["## ### ####", "##-###-####", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["2"], length: 8,
      national: ["0#-###-####", "0# ### ####", "0########"], international: ["# ### ####"])]),
  "VN": PhonePlan(
    region: "VN", countryCode: "84", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["90", "91", "93", "94", "96", "97", "98", "32", "33", "34", "35", "36", "37",
                 "38", "39", "70", "77", "78", "79", "81", "83", "84", "85", "88"],
      length: 9,
      national: ["0### ### ###", "0## ### ## ##", "0#########", "0##.###.####"],
      international: ["## ### ## ##", "### ### ###", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["24", "28"], length: 10,
      national: ["0## #### ####", "(0##) #### ####", "0##-########"],
      international: ["## #### ####"], next: "3")]),
  "AU": PhonePlan(
    region: "AU", countryCode: "61", idd: "0011",
    mobile: [NumberPattern(
      prefixes: ["40", "41", "42", "43", "447", "448", "450", "451", "455", "458", "466", "468", "470",
                 "472", "474", "476", "478", "481", "488", "490", "497", "499"], length: 9,
      national: ["0### ### ###", "0### ### ###", "0#########", "0### ######"],
      international: ["### ### ###", "###-###-###", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["29", "39", "73", "89"], length: 9,
      national: ["(0#) #### ####", "0# #### ####", "0#-####-####"],
      international: ["# #### ####"])],
    extensions: true),
  "GE": PhonePlan(
    region: "GE", countryCode: "995", idd: "00",
    mobile: [NumberPattern(
      prefixes: ["555", "557", "568", "577", "591", "593", "595", "597", "598", "599"], length: 9,
      national: ["### ## ## ##", "0### ## ## ##", "###-##-##-##", "#########"],
      international: ["### ## ## ##", "### ### ###", "#########"])],
    fixed: [NumberPattern(
      prefixes: ["322"], length: 9,
      national: ["0## # ## ## ##", "(0##) ### ## ##", "0## ### ## ##"],
      international: ["## ### ## ##"])]),
]

/// A generated phone number: its country and national significant number.
struct PhoneNumberValue: Sendable {
  var plan: PhonePlan
  var region: String { plan.region }
  var nsn: [UInt8]  // ASCII digits
  var isMobile: Bool
  /// Index into the pattern list, so reformatting keeps the right templates.
  var pattern: Int
  var ext: String?
}

extension PhonePlan {
  func patterns(mobile isMobile: Bool) -> [NumberPattern] { isMobile ? mobile : fixed }

  func makeNumber(mobile isMobile: Bool, rng: inout SplitMix64) -> PhoneNumberValue {
    let list = patterns(mobile: isMobile)
    let pi = rng.below(list.count)
    let p = list[pi]
    var digits = rng.pick(p.prefixes)
    digits.reserveCapacity(p.length)
    digits.append(p.next[rng.below(p.next.count)])
    while digits.count < p.length {
      digits.append(UInt8(ascii: "0") + UInt8(rng.below(10)))
    }
    if countryCode == "1" {
      // NANP: exchanges never end in 11, and 555 is mostly fictional.
      if digits[4] == UInt8(ascii: "1") && digits[5] == UInt8(ascii: "1") {
        digits[5] = UInt8(ascii: "2")
      }
      if digits[3] == UInt8(ascii: "5") && digits[4] == UInt8(ascii: "5") && digits[5] == UInt8(ascii: "5") {
        digits[5] = UInt8(ascii: "6")
      }
    }
    return PhoneNumberValue(plan: self, nsn: digits, isMobile: isMobile, pattern: pi, ext: nil)
  }

  /// How the number is written. `style` picks among the ways people of the
  /// country write it: 0-59 national, 60-84 international with spaces,
  /// 85-94 compact E.164, 95-99 with the international call prefix (the
  /// caller's: only for numbers of the caller's own country).
  func format(_ n: PhoneNumberValue, style: Int, variant: Int) -> String {
    let p = patterns(mobile: n.isMobile)[n.pattern]
    var s: [UInt8] = []
    s.reserveCapacity(24)
    if style < 60 {
      fill(&s, template: p.national[variant % p.national.count], nsn: n.nsn)
    } else if style < 85 {
      s.append(UInt8(ascii: "+"))
      s.append(contentsOf: countryCode.utf8)
      s.append(UInt8(ascii: " "))
      fill(&s, template: p.international[variant % p.international.count], nsn: n.nsn)
    } else if style < 95 {
      s.append(UInt8(ascii: "+"))
      s.append(contentsOf: countryCode.utf8)
      s.append(contentsOf: n.nsn)
    } else if idd.isEmpty {
      s.append(UInt8(ascii: "+"))
      s.append(contentsOf: countryCode.utf8)
      s.append(UInt8(ascii: " "))
      fill(&s, template: p.international[variant % p.international.count], nsn: n.nsn)
    } else {
      s.append(contentsOf: idd.utf8)
      s.append(contentsOf: countryCode.utf8)
      s.append(UInt8(ascii: " "))
      fill(&s, template: p.international[variant % p.international.count], nsn: n.nsn)
    }
    if let ext = n.ext {
      switch variant % 3 {
      case 0: s.append(contentsOf: " ext. ".utf8)
      case 1: s.append(contentsOf: " x".utf8)
      default: s.append(contentsOf: " ext ".utf8)
      }
      s.append(contentsOf: ext.utf8)
    }
    return String(decoding: s, as: UTF8.self)
  }

  /// The `tel:` URI form (RFC 3966) used by some vCard 4.0 writers.
  func telURI(_ n: PhoneNumberValue) -> String {
    var s = "tel:+" + countryCode
    s += String(decoding: n.nsn, as: UTF8.self)
    if let ext = n.ext { s += ";ext=" + ext }
    return s
  }

  private func fill(_ s: inout [UInt8], template: String, nsn: [UInt8]) {
    var i = 0
    for b in template.utf8 {
      if b == UInt8(ascii: "#") {
        s.append(i < nsn.count ? nsn[i] : UInt8(ascii: "0"))
        i += 1
      } else {
        s.append(b)
      }
    }
  }
}
