/// Finds the role of a table's column from its header and confirms it by
/// its values (DESIGN §15): the header read in English, German, French,
/// Spanish, Italian, Dutch and Portuguese; then the values must have the
/// role's shape (an e-mail's `@`, a phone's digits, a date). A column whose
/// values do not agree with its header is left unmapped. A column with no
/// known header whose values are all e-mail addresses is an e-mail column.
public enum ColumnDetection {
  /// Lower case, accents of Latin letters taken off, every run of
  /// characters other than letters and digits one space; camel case and
  /// glued words are not split (so `first_name`, `First Name` and
  /// `FIRST-NAME` read alike, and `FIRSTNAME` as `firstname`).
  public static func normalized(_ header: String) -> String {
    var out = ""
    var space = false
    for ch in header.lowercased() {
      let c = fold(ch)
      if c.isLetter || c.isNumber {
        if space && !out.isEmpty { out.append(" ") }
        space = false
        if ch == "ß" { out.append("s") }
        out.append(c)
      } else {
        space = true
      }
    }
    return out
  }

  static func fold(_ c: Character) -> Character {
    switch c {
    case "à", "á", "â", "ã", "ä", "å": "a"
    case "è", "é", "ê", "ë": "e"
    case "ì", "í", "î", "ï": "i"
    case "ò", "ó", "ô", "õ", "ö": "o"
    case "ù", "ú", "û", "ü": "u"
    case "ç": "c"
    case "ñ": "n"
    case "ß": "s"
    case "°", "º": "o"
    default: c
    }
  }

  /// Whole normalized headers (after an optional owner prefix such as
  /// `person`, `contact`, `customer`) and their roles.
  static let exact: [String: ColumnRole] = {
    var d: [String: ColumnRole] = [:]
    func add(_ role: ColumnRole, _ names: String) {
      for n in names.split(separator: "|") { d[String(n)] = role }
    }
    add(
      .id,
      "id|uid|unique id|record id|rec id|rec|ref|reference|reference number|ref no|record number|record no|contact id|customer id|person id|client id|member id|user id|customer number|customer no|account number|kundennummer|kunden nr|kundennr|kunden id|no client|n client|numero client|num client|id client|identifiant|code client|numero de cliente|id cliente|codice cliente|klantnummer|klant id"
    )
    add(
      .name,
      "name|full name|fullname|display name|contact name|person name|customer name|nom complet|vollstandiger name|nombre completo|nome completo|volledige naam|naam"
    )
    add(
      .given,
      "first name|firstname|first|given name|givenname|given|forename|fore name|christian name|vorname|prenom|nombre|nome|voornaam|primeiro nome|fname|f name"
    )
    add(.middle, "middle name|middlename|middle|middle initial|second name|weitere vornamen|zweiter vorname|deuxieme prenom|segundo nombre")
    add(
      .family,
      "last name|lastname|last|surname|family name|familyname|family|nachname|familienname|nom|nom de famille|apellido|apellidos|cognome|achternaam|sobrenome|apelido|lname|l name"
    )
    add(.prefix, "salutation|prefix|name prefix|honorific|anrede|titel|civilite|titre de civilite|tratamiento|saludo|titolo|aanhef")
    add(.suffix, "suffix|name suffix|generation|namenszusatz")
    add(.nickname, "nickname|nick name|nick|spitzname|surnom|apodo|soprannome|bijnaam|alias|known as|preferred name")
    add(
      .organization,
      "company|company name|organization|organisation|organization name|organisation name|org|employer|business name|account name|associated company|firma|unternehmen|firmenname|societe|entreprise|raison sociale|empresa|compania|azienda|societa|bedrijf|bedrijfsnaam|organizacao"
    )
    add(.department, "department|dept|division|abteilung|service|departamento|reparto|afdeling")
    add(
      .title,
      "job title|jobtitle|position|role|job|occupation|profession|designation|beruf|berufsbezeichnung|fonction|poste|profession|cargo|puesto|ocupacion|professione|mansione|functie|beroep|job role"
    )
    add(
      .birthday,
      "birthday|birthdate|birth date|date of birth|dob|d o b|born|bday|birth|geburtsdatum|geburtstag|geb datum|date de naissance|naissance|fecha de nacimiento|data di nascita|data de nascimento|geboortedatum|birth year|birth month|birth day|year of birth"
    )
    add(
      .email,
      "email|e mail|email address|e mail address|mail|mail address|emailaddress|email 1|email 2|email 3|primary email|secondary email|work email|personal email|home email|other email|alternate email|alternate email 1|alternate email 2|e mail adresse|mailadresse|courriel|adresse e mail|adresse email|adresse mail|correo|correo electronico|posta elettronica|e mail adres|emailadres"
    )
    add(
      .phone(label: nil),
      "phone|phone number|telephone|telephone number|tel|tel no|phone no|phonenumber|primary phone|other phone|main phone|contact number|telefon|telefonnummer|rufnummer|telephone fixe|numero de telephone|telefono|numero de telefono|telefone|telefoonnummer|yahoo phone|pager|pager number|callback|car phone|radio phone|tty tdd phone|phone 1|phone 2|other|otherphone|phone number 1"
    )
    add(
      .phone(label: "cell"),
      "mobile|mobilephone|mobile phone|mobile number|mobile phone number|cell|cell phone|cellphone|cell number|handy|mobil|mobiltelefon|mobilnummer|handynummer|portable|telephone portable|mobile telephone|celular|movil|telefono movil|cellulare|mobiel|gsm|whatsapp phone number|whatsapp"
    )
    add(.phone(label: "work"), "work phone|workphone|businessphone|business phone|office phone|work|business phone 2|company main phone|telefon geschaftlich|telephone professionnel")
    add(.phone(label: "home"), "home phone|homephone|home|home phone 2|private phone|telefon privat|telephone domicile")
    add(.phone(label: "fax"), "fax|faxnumber|fax number|business fax|home fax|other fax|telefax|fax number 1")
    add(
      .street,
      "street|street address|street 1|address 1|address1|address line 1|addressline1|street line 1|strasse|str|strasse und hausnummer|hausnummer|house number|housenumber|street name|street road name|house no|rue|adresse ligne 1|calle|direccion|via|indirizzo|straat|huisnummer|rua|logradouro|numero"
    )
    add(
      .extended,
      "address 2|address2|address line 2|addressline2|street 2|street line 2|apartment|apt|suite|unit|adresszusatz|complement d adresse|complement adresse|adresse ligne 2|c o"
    )
    add(
      .locality,
      "city|town|town city|suburb|locality|city town village locality|municipality|ort|stadt|wohnort|gemeinde|ville|commune|ciudad|localidad|poblacion|citta|comune|localita|plaats|woonplaats|cidade|municipio|city town"
    )
    add(
      .region,
      "state|region|province|state region|state province|county|state county|prefecture|territory|province code|state code|bundesland|kanton|departement|region administrative|provincia|estado|comunidad autonoma|regione|provincie"
    )
    add(
      .postcode,
      "zip|zipcode|zip code|postcode|post code|postal code|postalcode|postal|zip postal code|plz|postleitzahl|code postal|cp|codigo postal|cap|codice postale|postcode nl|cep"
    )
    add(.country, "country|country region|country code|nation|land|staat|pays|pais|paese|nazione|country name")
    add(.address, "address|full address|formatted|address formatted|postal address|mailing address|adresse|anschrift|direccion completa|indirizzo completo|adres|endereco|formatted address")
    add(.gender, "gender|sex|geschlecht|sexe|genre|sexo|genere|geslacht")
    add(.note, "note|notes|comment|comments|remarks|description|bemerkung|bemerkungen|notiz|notizen|kommentar|commentaire|commentaires|remarque|nota|notas|comentario|opmerking|opmerkingen|memo")
    return d
  }()

  /// Words that, before a part's name, name an address (`Mailing Street`,
  /// `Home City`) or an owner (`Person - Email`).
  static let prefixWords: Set<String> = [
    "person", "contact", "customer", "client", "member", "user", "primary", "default", "main", "mailing", "billing",
    "shipping", "home", "work", "business", "other", "private", "postal", "delivery", "residential", "office",
    "current", "permanent", "kunden", "kunde",
  ]

  /// Words after a kind that only label it (`Email - Work`, `Phone 2`).
  static let labelWords: Set<String> = [
    "work", "home", "other", "mobile", "cell", "personal", "private", "business", "office", "main", "primary",
    "secondary", "fax", "1", "2", "3", "4", "5",
  ]

  /// The role a header names, nil when none is known.
  public static func role(forHeader header: String) -> ColumnRole? {
    let n = normalized(header)
    if let r = exact[n] { return r }
    // Glued names (Salesforce's API names: `MAILINGCITY`, `OTHERSTREET`).
    if !n.contains(" ") {
      for p in prefixWords where n.hasPrefix(p) && n.count > p.count {
        if let r = exact[String(n.dropFirst(p.count))], r.isAddressPart || r == .email { return r }
      }
    }
    var words = n.split(separator: " ").map(String.init)
    // A formatted address (`Address 1 - Formatted`).
    if words.contains("formatted") && words.contains(where: { $0.hasPrefix("addr") }) { return .address }
    // Owner or address words in front (`Mailing Street`, `Person Email
    // Work`), then trailing numbers (`Email 2`, `Phone 3`).
    var owners: [String] = []
    while let first = words.first, prefixWords.contains(first), words.count > 1 {
      owners.append(first)
      words.removeFirst()
      if let r = exact[words.joined(separator: " ")] { return labelled(r, owners: owners, tail: []) }
    }
    var rest = words
    while let last = rest.last, last.allSatisfy(\.isNumber), rest.count > 1 {
      rest.removeLast()
      if let r = exact[rest.joined(separator: " ")] { return labelled(r, owners: owners, tail: []) }
    }
    // Pipedrive's `Person - Phone - Work`, `Person - Email - Home`: the
    // kind, then only label words.
    if rest.count >= 2, let kind = exact[rest[0]], rest.dropFirst().allSatisfy(labelWords.contains) {
      let tail = Array(rest.dropFirst())
      if case .phone = kind { return labelled(kind, owners: owners, tail: tail) }
      if kind == .email { return .email }
    }
    // `Postal address - City/town/village/locality`, `Default Address City`,
    // `Default Address Company`.
    for cut in 1..<max(1, rest.count) {
      let head = rest.prefix(cut).joined(separator: " "), tail = rest.dropFirst(cut).joined(separator: " ")
      if ["address", "postal address", "adresse", "anschrift"].contains(head), let r = exact[tail], r != .address {
        return labelled(r, owners: owners, tail: [])
      }
    }
    // A known header with a word that only says how the value was made
    // or kept (`postcode_fake`, `email_clean`, `raw phone`, `dob_std`):
    // the role of the rest. Only the words of ``qualifierWords``: any
    // other word may change the meaning (`email domain`, `phone type`).
    if rest.count >= 2 {
      if let last = rest.last, qualifierWords.contains(last), let r = exact[rest.dropLast().joined(separator: " ")] {
        return labelled(r, owners: owners, tail: [])
      }
      if let first = rest.first, qualifierWords.contains(first), let r = exact[rest.dropFirst().joined(separator: " ")] {
        return labelled(r, owners: owners, tail: [])
      }
    }
    return nil
  }

  /// Words before or after a header that say how its value was made or
  /// kept, not what it is (see ``role(forHeader:)``).
  static let qualifierWords: Set<String> = [
    "fake", "synthetic", "masked", "anon", "anonymised", "anonymized", "raw", "clean", "cleaned", "std", "standard",
    "standardised", "standardized", "norm", "normalised", "normalized", "orig", "original", "verified", "validated",
    "latest", "new", "old", "current", "value", "val", "txt", "text", "str",
  ]

  /// Honorifics a prefix column holds (lower case, dots off).
  static let honorifics: Set<String> = [
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "madam", "rev", "herr", "frau", "m", "mme", "mlle",
    "sr", "sra", "srta", "dott", "ing", "mag", "lord", "lady", "fr", "hr", "dr med", "prof dr",
  ]

  /// Whether most values of a column are honorifics (a prefix, not a job title).
  static func areHonorifics(_ values: [String]) -> Bool {
    let v = values.filter { !isMissing($0) }
    guard !v.isEmpty else { return true }
    let n = v.filter { honorifics.contains($0.lowercased().filter { $0 != "." }.trimmingCharacters(in: " ")) }.count
    return n * 2 >= v.count
  }

  /// A phone role with the label its header words give (`work`, `home`,
  /// `mobile`, `fax`).
  static func labelled(_ role: ColumnRole, owners: [String], tail: [String]) -> ColumnRole {
    guard case .phone(let label) = role, label == nil else { return role }
    for w in tail + owners {
      switch w {
      case "work", "business", "office": return .phone(label: "work")
      case "home", "private": return .phone(label: "home")
      case "mobile", "cell": return .phone(label: "cell")
      case "fax": return .phone(label: "fax")
      default: continue
      }
    }
    return role
  }

  // MARK: Values

  /// Whether the non-empty `values` of a column (a sample) have the shape
  /// of `role`; at least 80 % of them must (an empty sample agrees).
  public static func confirms(_ role: ColumnRole, _ values: [String]) -> Bool {
    let v = values.filter { !isMissing($0) }
    guard !v.isEmpty else { return true }
    let fits: (String) -> Bool
    switch role {
    case .email: fits = isEmail
    case .phone: fits = isPhone
    case .birthday: fits = { DateText.parse($0, order: .dayFirst) != nil || DateText.parse($0, order: .monthFirst) != nil || isDatePart($0) }
    case .given, .family, .middle, .name, .nickname, .locality, .prefix, .suffix:
      fits = { s in !isEmail(s) && s.unicodeScalars.filter { ("0"..."9").contains($0) }.count * 2 < s.unicodeScalars.count }
    case .postcode: fits = { s in s.count <= 12 && s.contains(where: \.isNumber) }
    case .id: return Set(v).count * 10 >= v.count * 9
    default: return true
    }
    return v.filter(fits).count * 5 >= v.count * 4
  }

  /// Empty, `NULL`, `N/A`, `NA`, `nan`, `None`, `-` (any case, blanks aside).
  public static func isMissing(_ value: String) -> Bool {
    let t = value.trimmingCharacters(in: " \t").lowercased()
    return t.isEmpty || missingWords.contains(t)
  }
  static let missingWords: Set<String> = ["null", "n/a", "na", "nan", "none", "-", "nil", "#n/a", "(null)"]

  /// An e-mail address, or several in one cell (`,`, `;` or blanks between).
  static func isEmail(_ s: String) -> Bool {
    let parts = emails(in: s)
    return !parts.isEmpty && parts.allSatisfy(isOneEmail)
  }

  /// The addresses of a cell: split at `,`, `;` and blanks when it holds
  /// more than one `@`.
  public static func emails(in s: String) -> [String] {
    guard s.filter({ $0 == "@" }).count > 1 else { return [s.trimmingCharacters(in: " \t")] }
    return s.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " || $0 == "\t" }).map(String.init).filter { !$0.isEmpty }
  }

  static func isOneEmail(_ s: String) -> Bool {
    let t = s.trimmingCharacters(in: " \t")
    guard let at = t.firstIndex(of: "@"), at != t.startIndex else { return false }
    let domain = t[t.index(after: at)...]
    return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !t.contains(" ")
      && t.filter({ $0 == "@" }).count == 1
  }

  static func isPhone(_ s: String) -> Bool {
    var digits = 0
    for c in s.unicodeScalars {
      if ("0"..."9").contains(c) {
        digits += 1
      } else if !" +-()./'x#extEXT:".unicodeScalars.contains(c) {
        return false
      }
    }
    return digits >= 5 && digits <= 20
  }

  static func isDatePart(_ s: String) -> Bool {
    guard let n = Int(s.trimmingCharacters(in: " \t")) else { return false }
    return (1...31).contains(n) || (1000...2999).contains(n)
  }
}

extension ColumnRole {
  var isAddressPart: Bool {
    switch self {
    case .street, .extended, .locality, .region, .postcode, .country: return true
    default: return false
    }
  }
}

extension StringProtocol {
  /// Without the characters of `set` at either end.
  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s.removeFirst() }
    while let l = s.last, set.contains(l) { s.removeLast() }
    return String(s)
  }
}
