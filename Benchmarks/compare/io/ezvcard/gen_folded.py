#!/usr/bin/env python3
"""Seeded generator of vCard 2.1 / 3.0 / 4.0 files folded at random byte positions.

    gen_folded.py --cards 100000 --seed 1 --out DIR [--per-file 5000]

Writes DIR/gen-0000.vcf, DIR/gen-0001.vcf, ... and DIR/truth.ndjson (one
JSON line per card: the values the generator wrote, unescaped and decoded,
and where it folded). The same arguments give the same bytes.

Cards are written the way real exporters write them:
  - android21: vCard 2.1 as Android's VCardBuilder writes it: bare TYPE
    parameters (TEL;CELL), CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE on any
    non-ASCII value (soft line breaks "=" + EOL, the next line starting
    without whitespace), BASE64 photos on continuation lines that start with
    two spaces and end with an empty line;
  - raw21: vCard 2.1 with raw UTF-8 bytes and CHARSET=UTF-8 (Nokia style);
  - apple30: vCard 3.0 as Apple Contacts writes it: item1. groups with
    X-ABLabel, type=...;type=pref, escaped "\\:" in URLs, X-ABADR, PHOTO;ENCODING=b;
  - google30: vCard 3.0 with TYPE=... lists;
  - sabre40: vCard 4.0 (Sabre / Nextcloud style): urn:uuid UIDs, TEL;VALUE=uri,
    quoted TYPE="voice,cell", ADR with a quoted LABEL parameter holding ",", ";",
    ":" and "\\n" (and RFC 6868 "^n"), GEO, data: URI photos.
Names, streets and notes come in several scripts (Latin with diacritics,
Cyrillic, Greek, Han, Kana, Hangul, Arabic, Hebrew, Devanagari, Thai and
4-byte emoji); notes run over several lines with "\\n", "\\,", "\\;" and "\\\\".
Every card has a UID (unique in the run).

Folding (vCard 3.0 and 4.0): RFC 6350 section 3.2 lets a line be split
between any two octets by EOL + one SPACE or HTAB. Lines longer than 75
octets are folded at 75 (by a UTF-8-aware writer, or by a "simple" one that
splits characters), and a share of the lines (--fold-rate, default 0.35; BEGIN,
END and VERSION about 1% of that) also at 1 to 3 random byte positions, each
of a kind picked at random among those the line has:
  name          inside the group or property name (EM / AIL)
  param_bare    inside a bare parameter value (TYPE=VO / ICE)
  param_quoted  inside a quoted parameter value (LABEL="x / y")
  param_name    inside a parameter name or at ";" / "="
  before_colon  right before the colon that starts the value
  after_colon   right after it
  escape        between "\\" and the escaped character (\\ / n)
  utf8          inside a multi-byte UTF-8 character (ez-vcard fault)
  base64        inside base64 data
  value         anywhere else in the value
  begin_end     inside BEGIN:VCARD / END:VCARD / VERSION (rare)
vCard 2.1 keeps the whitespace when it unfolds (2.1 section 2.1.3), so random
folds would be ambiguous there: 2.1 cards are folded only where 2.1
exporters fold, at quoted-printable soft line breaks (random positions
between encoded octets, also between the octets of one character:
qp_soft, qp_utf8) and in base64 (base64).

Files: every fifth file (gen-0001, gen-0006, ...) starts with a UTF-8 byte
order mark (ez-vcard loses the first card of such a file); gen-0004,
gen-0010, ... (index % 6 == 4) end lines with LF only, gen-0009, gen-0019,
... (index % 10 == 9) with CR only, the others with CRLF.

truth.ndjson, one line per card:
  {"uid", "file", "index", "version", "style", "bom" (first card after a
   BOM), "fullName", "given", "family", "emails", "phones", "addresses"
   [{street, locality, region, postalCode, country, poBox, extended}],
   "notes", "folds" {PROPERTY: [kinds]}}
Values are the text as written, before escaping and encoding; absent or
empty values are null.
"""
import argparse
import base64
import json
import os
import random

# --- values ---------------------------------------------------------------

LATIN_GIVEN = ["James", "Mary", "José", "María", "Zoë", "Björn", "Søren", "François", "Ægir", "Łukasz",
               "Dvořák", "Ngozi", "Aarav", "Fatima", "Siobhán", "Renée", "Jürgen", "Ines", "Chloé", "Oğuz"]
LATIN_FAMILY = ["Smith", "García", "Müller", "Schmidt", "Rossi", "Dubois", "Novák", "Kowalski", "Okafor",
                "Nguyễn", "O'Brien", "van der Berg", "da Silva", "Al-Sayed", "Żółkiewski", "Þórsdóttir",
                "Smith-Jones", "Brontë", "Çelik", "Ibáñez"]
SCRIPTS = {
    "cyrillic": (["Анна", "Дмитрий", "Ольга", "Сергей", "Юлия"], ["Иванов", "Смирнова", "Кузнецов", "Попова"]),
    "greek": (["Ελένη", "Γιώργος", "Μαρία", "Νίκος"], ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου"]),
    "han": (["伟", "芳", "秀英", "建华"], ["王", "李", "张", "欧阳"]),
    "kana": (["太郎", "花子", "さくら", "ケンジ"], ["山田", "佐藤", "たなか", "スズキ"]),
    "hangul": (["민준", "서연", "지호"], ["김", "이", "박", "최"]),
    "arabic": (["محمد", "فاطمة", "علي"], ["الأحمد", "حسن", "العلي"]),
    "hebrew": (["אפרים", "שרה", "דוד"], ["קישון", "כהן", "לוי"]),
    "devanagari": (["आरव", "प्रिया", "राहुल"], ["शर्मा", "वर्मा", "पटेल"]),
    "thai": (["สมชาย", "สุดา"], ["ใจดี", "ศรีสุข"]),
}
PREFIXES = ["Dr.", "Mr.", "Ms.", "Prof.", "Mme", "Herr"]
SUFFIXES = ["Jr.", "III", "PhD", "Esq."]
ORGS = ["Acme, Inc.", "Globex", "Müller & Söhne GmbH", "株式会社テスト", "ООО Ромашка", "Initech; Dept. 7",
        "Soylent Corp"]
STREETS = ["Main St", "Elm St", "Oak Ave", "Hauptstraße", "Rue de la Paix", "Via Roma", "Baker Street",
           "Ленинский проспект", "銀座", "Οδός Ερμού", "שדרות רוטשילד", "Sukhumvit Rd", "강남대로",
           "Calle Mayor"]
CITIES = [("Springfield", "IL", "62701", "USA"), ("Berlin", "", "10115", "Deutschland"),
          ("Paris", "Île-de-France", "75001", "France"), ("London", "", "SW1A 1AA", "UK"),
          ("東京都", "中央区", "100-0001", "日本"), ("Москва", "", "119049", "Россия"),
          ("Αθήνα", "", "105 63", "Ελλάδα"), ("תל אביב", "", "6578401", "ישראל"),
          ("서울", "", "06236", "대한민국"), ("São Paulo", "SP", "01310-100", "Brasil"),
          ("Zürich", "ZH", "8001", "Schweiz")]
DOMAINS = ["example.com", "mail.example.org", "corp.example.net", "beispiel.de", "例え.jp"]
NOTE_LINES = ["Met at the conference; follow up in Q3.", "Prefers email, not phone.",
              "Birthday party, bring cake!", "VIP customer — handle with care", "Path: C:\\Users\\joe",
              "Größe: 42, Farbe: blau", "会議は月曜日です。", "Позвонить после 18:00", "Ελληνικά; και άλλα",
              "שלום, עולם", "🎉 party 🎂 time", "Key=value; other=\"quoted\"", "a\\b\\c",
              "   indented line", "tabs\there", "colon: semi; comma, backslash \\ end"]
PHONE_FORMATS = ["+1 (%03d) %03d-%04d", "+49 30 %03d%04d", "+44 20 %04d %04d", "+81-3-%04d-%04d",
                 "0%03d %03d %04d", "(%03d) %03d-%04d", "+7 495 %03d-%02d-%02d", "+33 1 %02d %02d %02d %02d"]
TEL_TYPES = ["CELL", "HOME", "WORK", "FAX", "PAGER", "MAIN"]


def phone(r):
    fmt = r.choice(PHONE_FORMATS)
    return fmt % tuple(r.randrange(10, 999) for _ in range(fmt.count("%")))


def person(r):
    kind = r.choices(["latin", "script"], [6, 4])[0]
    if kind == "latin":
        given, family = r.choice(LATIN_GIVEN), r.choice(LATIN_FAMILY)
        full = "%s %s" % (given, family)
    else:
        script = r.choice(list(SCRIPTS))
        gs, fs = SCRIPTS[script]
        given, family = r.choice(gs), r.choice(fs)
        full = family + given if script in ("han", "kana", "hangul") else "%s %s" % (given, family)
    middle = r.choice(["", "", "", "Maria", "J.", "Анатольевич"])
    prefix = r.choice(PREFIXES) if r.random() < 0.15 else ""
    suffix = r.choice(SUFFIXES) if r.random() < 0.1 else ""
    if prefix:
        full = prefix + " " + full
    if suffix:
        full = full + ", " + suffix
    if r.random() < 0.03:
        given = ""  # a family name only
        full = family
    return dict(given=given, family=family, middle=middle, prefix=prefix, suffix=suffix, full=full)


def email(r, p, i, unicode_ok):
    local = r.choice(["info", "contact", "me", "hello"]) if not p["given"] else p["given"]
    if not unicode_ok or r.random() < 0.8:
        local = "".join(c for c in local.lower() if c.isascii() and c.isalnum()) or "user"
        domain = r.choice(DOMAINS[:4])
    else:
        domain = r.choice(DOMAINS)
    return "%s.%d@%s" % (local, i, domain)


def address(r):
    city, region, code, country = r.choice(CITIES)
    street = "%d %s" % (r.randrange(1, 999), r.choice(STREETS))
    if r.random() < 0.15:
        street += ", Apt %d" % r.randrange(1, 99)
    if r.random() < 0.1:
        street += "\nBuilding %s" % r.choice("ABC")
    return dict(street=street, locality=city, region=region, postalCode=code, country=country,
                poBox="PO Box %d" % r.randrange(1, 9999) if r.random() < 0.1 else "",
                extended="Suite %d" % r.randrange(1, 500) if r.random() < 0.1 else "")


def note(r, backslashes):
    """Lines of a note; 2.1 has no backslash escapes, so its notes have no backslash."""
    lines = NOTE_LINES if backslashes else [x for x in NOTE_LINES if "\\" not in x]
    return "\n".join(r.choice(lines) for _ in range(r.choice([1, 1, 2, 3, 4])))


def photo(r):
    return b"\xff\xd8\xff\xe0" + bytes(r.getrandbits(8) for _ in range(r.randrange(40, 400)))


# --- escaping and encoding ------------------------------------------------

def esc(s):
    """RFC 6350 section 3.4 text escapes (also for structured components)."""
    return s.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")


def qp_tokens(s):
    """Quoted-printable tokens of s as UTF-8: (text, octet, literal)."""
    out = []
    for b in s.replace("\n", "\r\n").encode("utf-8"):
        if (33 <= b <= 126 and b != 61) or b == 32:
            out.append((chr(b), b, True))
        else:
            out.append(("=%02X" % b, b, False))
    return out


# --- lines as segments ----------------------------------------------------

class Prop:
    """One property line built from segments (bytes, kind), so folds know where they fall."""

    def __init__(self, key, group, name, params, value, value_kind="value", qp=None, raw_tail=None):
        self.key = key            # the compared property it belongs to (FN, N, EMAIL, ...) or None
        self.qp = qp              # quoted-printable tokens (2.1): the value is written from these
        self.raw_tail = raw_tail  # bytes written verbatim after the line (2.1 base64 block)
        segs = []
        if group:
            segs.append((group.encode() + b".", "name"))
        segs.append((name.encode(), "name"))
        for p in params:
            segs.append((b";", "param_name"))
            if isinstance(p, str):  # a bare 2.1 parameter (TEL;CELL)
                segs.append((p.encode(), "param_bare"))
                continue
            pname, pvalue, quoted = p
            segs.append((pname.encode() + b"=", "param_name"))
            if quoted:
                segs += [(b'"', "param_quoted"), (pvalue.encode(), "param_quoted"), (b'"', "param_quoted")]
            else:
                segs.append((pvalue.encode(), "param_bare"))
        segs.append((b":", "colon"))
        if qp is None:
            segs.append((value.encode() if isinstance(value, str) else value, value_kind))
        self.segs = segs


def kinds_of(segs):
    """The byte string of the line and the fold kind of each position 1..n-1 (fold before byte i)."""
    line = b"".join(s for s, _ in segs)
    owner = []
    for s, k in segs:
        owner += [k] * len(s)
    colon = len(line) - len(segs[-1][0]) - 1 if segs[-1][1] != "colon" else len(line) - 1
    kinds = [None] * len(line)
    for i in range(1, len(line)):
        if 0x80 <= line[i] <= 0xBF:
            kinds[i] = "utf8"
        elif i == colon + 1:
            kinds[i] = "after_colon"
        elif i == colon:
            kinds[i] = "before_colon"
        elif i > colon and line[i - 1] == 0x5C and owner[i] == "value":
            kinds[i] = "escape"
        else:
            k = owner[i]
            kinds[i] = k if k != "colon" else "before_colon"
    return line, kinds


def width_folds(line, kinds, aware):
    """Fold positions of a writer that folds at 75 octets (then 74 after the whitespace)."""
    out, start, limit = [], 0, 75
    while len(line) - start > limit:
        end = start + limit
        if aware:
            while kinds[end] == "utf8":
                end -= 1
        out.append(end)
        start, limit = end, 74
    return out


class Writer:
    def __init__(self, r, eol):
        self.r = r
        self.eol = eol

    def fold_line(self, segs, version, random_folds, folds_seen, key):
        r = self.r
        line, kinds = kinds_of(segs)
        positions = set()
        if version != "2.1" and len(line) > 1:
            if len(line) > 75 and r.random() < 0.85:
                positions.update(width_folds(line, kinds, aware=r.random() < 0.6))
            if random_folds:
                by_kind = {}
                for i in range(1, len(line)):
                    by_kind.setdefault(kinds[i], []).append(i)
                for _ in range(r.choice([1, 1, 1, 2, 3])):
                    k = r.choice(sorted(by_kind))
                    positions.add(r.choice(by_kind[k]))
        for p in positions:
            folds_seen.setdefault(key or "other", set()).add(kinds[p])
        out = bytearray()
        last = 0
        for p in sorted(positions):
            out += line[last:p] + self.eol + (b"\t" if r.random() < 0.15 else b" ")
            last = p
        out += line[last:] + self.eol
        return bytes(out)

    def qp_line(self, segs, tokens, folds_seen, key):
        """A 2.1 quoted-printable line: soft breaks (= + EOL) at random places between tokens."""
        r = self.r
        head = b"".join(s for s, _ in segs)
        out = bytearray(head)
        col = len(head)
        for j, (text, octet, literal) in enumerate(tokens):
            if j > 0:
                prev_space = tokens[j - 1][0] == " "
                here_space = text == " "
                breakable = not prev_space and not here_space
                cont = (not literal) and 0x80 <= octet <= 0xBF
                if breakable and (col + len(text) > 74 or (cont and r.random() < 0.08) or r.random() < 0.01):
                    out += b"=" + self.eol
                    col = 0
                    folds_seen.setdefault(key or "other", set()).add("qp_utf8" if cont else "qp_soft")
            out += text.encode()
            col += len(text)
        return bytes(out) + self.eol


# --- cards ----------------------------------------------------------------

def uid_for(r, style, serial):
    u = "%08x-%04x-4%03x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
                                        0x8000 | r.getrandbits(14), serial)
    if style == "sabre40":
        return "urn:uuid:" + u
    if style == "apple30":
        return u.upper()
    return u


def build_card(r, serial):
    style = r.choices(["android21", "raw21", "apple30", "google30", "sabre40"], [3, 1, 3, 2, 3])[0]
    version = {"android21": "2.1", "raw21": "2.1", "apple30": "3.0", "google30": "3.0", "sabre40": "4.0"}[style]
    p = person(r)
    uid = uid_for(r, style, serial)
    emails = [email(r, p, serial * 10 + k, version != "2.1") for k in range(r.choice([0, 1, 1, 2, 3]))]
    phones = [phone(r) for _ in range(r.choice([0, 1, 1, 2, 3]))]
    addrs = [address(r) for _ in range(r.choice([0, 0, 1, 1, 2]))]
    notes = [note(r, version != "2.1")] if r.random() < 0.5 else []
    org = r.choice(ORGS) if r.random() < 0.4 else ""
    pic = photo(r) if r.random() < 0.12 else None
    props = []  # Prop objects in order

    def text21(key, name, params, value, structured=None):
        """A 2.1 property: QP + CHARSET=UTF-8 for non-ASCII (android21), raw UTF-8 (raw21)."""
        parts = structured if structured is not None else [value]
        if structured is not None:
            parts = [c.replace(";", "\\;") for c in parts]
        joined = ";".join(parts)
        needs = any(ord(c) > 126 or c in "\r\n" for c in joined)
        if needs and style == "android21":
            tokens = []
            for k, c in enumerate(parts):
                if k:
                    tokens.append((";", 59, True))
                tokens += qp_tokens(c)
            props.append(Prop(key, None, name, params + [("CHARSET", "UTF-8", False),
                                                         ("ENCODING", "QUOTED-PRINTABLE", False)], None,
                              qp=tokens))
        elif needs:
            if "\n" in joined:  # raw 2.1 cannot hold a newline: QP for this one
                tokens = qp_tokens(joined)
                props.append(Prop(key, None, name, params + ["QUOTED-PRINTABLE", ("CHARSET", "UTF-8", False)],
                                  None, qp=tokens))
            else:
                props.append(Prop(key, None, name, params + [("CHARSET", "UTF-8", False)], joined))
        else:
            props.append(Prop(key, None, name, params, joined))

    props.append(Prop("VERSION", None, "VERSION", [], version))
    if version == "2.1":
        text21("N", "N", [], None, [p["family"], p["given"], p["middle"], p["prefix"], p["suffix"]])
        text21("FN", "FN", [], p["full"])
        for k, t in enumerate(phones):
            typ = r.choice(TEL_TYPES)
            props.append(Prop("TEL", None, "TEL", [typ] + (["PREF"] if k == 0 and r.random() < 0.3 else []), t))
        for e in emails:
            text21("EMAIL", "EMAIL", [r.choice(["HOME", "WORK", "INTERNET"])], e)
        for a in addrs:
            text21("ADR", "ADR", [r.choice(["HOME", "WORK"])], None,
                   [a["poBox"], a["extended"], a["street"], a["locality"], a["region"], a["postalCode"],
                    a["country"]])
        if org:
            text21(None, "ORG", [], org.replace(";", ","))
        for n in notes:
            text21("NOTE", "NOTE", [], n)
        props.append(Prop("UID", None, "UID", [], uid))
        if style == "android21" and r.random() < 0.3:
            props.append(Prop(None, None, "X-ANDROID-CUSTOM", [],
                              "vnd.android.cursor.item/nickname;Nick;1;;;;;;;;;;;;;"))
        if pic is not None:
            data = base64.b64encode(pic)
            first = data[:50]
            block = bytearray()
            for k in range(50, len(data), 74):
                block += b"  " + data[k:k + 74]
            props.append(Prop("PHOTO", None, "PHOTO", [("ENCODING", "BASE64", False), "JPEG"], first,
                              value_kind="base64", raw_tail=bytes(block)))
    else:
        apple = style == "apple30"
        if version == "4.0":
            props.append(Prop(None, None, "PRODID", [], "-//Sabre//Sabre VObject 4.5.4//EN"))
            props.append(Prop("UID", None, "UID", [], uid))
        elif apple:
            props.append(Prop(None, None, "PRODID", [], "-//Apple Inc.//iPhone OS 17.4//EN"))
        props.append(Prop("N", None, "N", [], ";".join(esc(c) for c in (
            p["family"], p["given"], p["middle"], p["prefix"], p["suffix"]))))
        props.append(Prop("FN", None, "FN", [], esc(p["full"])))
        if org:
            props.append(Prop(None, None, "ORG", [], esc(org) + (";" if apple else "")))
        item = [0]

        def group():
            item[0] += 1
            return "item%d" % item[0]

        for k, e in enumerate(emails):
            if apple:
                g = group() if r.random() < 0.5 else None
                params = [("type", "INTERNET", False), ("type", r.choice(["HOME", "WORK"]), False)]
                if k == 0:
                    params.append(("type", "pref", False))
                props.append(Prop("EMAIL", g, "EMAIL", params, esc(e)))
                if g:
                    props.append(Prop(None, g, "X-ABLabel", [], "_$!<Other>!$_"))
            elif version == "4.0":
                params = [("TYPE", r.choice(["work", "home"]), False)]
                if k == 0:
                    params.append(("PREF", "1", False))
                props.append(Prop("EMAIL", None, "EMAIL", params, esc(e)))
            else:
                props.append(Prop("EMAIL", None, "EMAIL", [("TYPE", "INTERNET," + r.choice(["HOME", "WORK"]),
                                                             False)], esc(e)))
        for k, t in enumerate(phones):
            typ = r.choice(TEL_TYPES)
            if apple:
                g = group() if r.random() < 0.3 else None
                params = [("type", typ, False), ("type", "VOICE", False)] + (
                    [("type", "pref", False)] if k == 0 else [])
                props.append(Prop("TEL", g, "TEL", params, t))
                if g:
                    props.append(Prop(None, g, "X-ABLabel", [], r.choice(["_$!<Mobile>!$_", "iPhone", "Büro"])))
            elif version == "4.0":
                if r.random() < 0.5:
                    uri = "tel:" + "".join(c if c.isdigit() or c == "+" else "-" for c in t).strip("-")
                    while "--" in uri:
                        uri = uri.replace("--", "-")
                    phones[k] = uri
                    props.append(Prop("TEL", None, "TEL", [("VALUE", "uri", False),
                                                           ("TYPE", "voice," + typ.lower(), True)], uri))
                else:
                    props.append(Prop("TEL", None, "TEL", [("TYPE", typ.lower(), False)], t))
            else:
                props.append(Prop("TEL", None, "TEL", [("TYPE", typ + ",VOICE", False)], t))
        for a in addrs:
            comps = ";".join(esc(a[c]) for c in ("poBox", "extended", "street", "locality", "region",
                                                  "postalCode", "country"))
            if apple:
                g = group()
                props.append(Prop("ADR", g, "ADR", [("type", r.choice(["HOME", "WORK"]), False),
                                                     ("type", "pref", False)], comps))
                props.append(Prop(None, g, "X-ABADR", [], r.choice(["us", "de", "jp", "ru"])))
            elif version == "4.0":
                label_lines = [a["street"].replace("\n", " "), ("%s %s %s" % (a["postalCode"], a["locality"],
                                                                              a["region"])).strip(), a["country"]]
                nl = r.choice(["\\n", "^n"])
                label = nl.join(label_lines).replace('"', "'")
                if r.random() < 0.3:
                    label += "; note: call first"
                params = [("TYPE", r.choice(["home", "work"]), False), ("LABEL", label, True)]
                if r.random() < 0.3:
                    params.insert(1, ("GEO", "geo:%.4f,%.4f" % (r.uniform(-80, 80), r.uniform(-170, 170)), True))
                props.append(Prop("ADR", None, "ADR", params, comps))
            else:
                props.append(Prop("ADR", None, "ADR", [("TYPE", r.choice(["HOME", "WORK"]), False)], comps))
        for n in notes:
            params = [("LANGUAGE", "en", False)] if version == "4.0" and r.random() < 0.3 else []
            props.append(Prop("NOTE", None, "NOTE", params, esc(n)))
        if r.random() < 0.3:
            props.append(Prop(None, group() if apple else None, "URL",
                              [("type", "pref", False)] if apple else [],
                              "https\\://example.com/~%d" % serial if apple else "https://example.com/~%d" % serial))
        if pic is not None:
            data = base64.b64encode(pic).decode()
            if version == "4.0":
                props.append(Prop("PHOTO", None, "PHOTO", [], "data:image/jpeg;base64," + data, value_kind="base64"))
            else:
                props.append(Prop("PHOTO", None, "PHOTO", [("ENCODING", "b", False), ("TYPE", "JPEG", False)], data,
                                  value_kind="base64"))
        if version != "4.0":
            props.append(Prop("UID", None, "UID", [], uid))
        if apple:
            props.append(Prop(None, None, "X-ABUID", [], uid + ":ABPerson"))
        if version == "4.0":
            props.append(Prop(None, None, "REV", [], "2024%02d%02dT120000Z" % (r.randrange(1, 13), r.randrange(1, 29))))

    truth = dict(uid=uid, version=version, style=style, fullName=p["full"] or None,
                 given=p["given"] or None, family=p["family"] or None, emails=emails, phones=phones,
                 addresses=[{k: (v or None) for k, v in a.items()} for a in addrs], notes=notes)
    return version, props, truth


def write_card(w, r, version, props, fold_rate):
    folds = {}
    out = bytearray()
    begin = [(b"BEGIN", "begin_end"), (b":", "colon"), (b"VCARD", "begin_end")]
    end = [(b"END", "begin_end"), (b":", "colon"), (b"VCARD", "begin_end")]
    rare = version != "2.1" and r.random() < 0.003 * fold_rate / 0.35
    out += w.fold_line(begin, version, rare, folds, "BEGIN")
    for p in props:
        if p.qp is not None:
            out += w.qp_line(p.segs, p.qp, folds, p.key)
            continue
        rare_line = p.key == "VERSION"
        fold_here = (r.random() < 0.003 * fold_rate / 0.35) if rare_line else (r.random() < fold_rate)
        out += w.fold_line(p.segs, version, fold_here and version != "2.1", folds, p.key)
        if p.raw_tail is not None:  # 2.1 base64: continuation lines, then an empty line
            tail = p.raw_tail
            for k in range(0, len(tail), 76):
                out += tail[k:k + 76] + w.eol
            out += w.eol
            folds.setdefault("PHOTO", set()).add("base64")
    rare = version != "2.1" and r.random() < 0.003 * fold_rate / 0.35
    out += w.fold_line(end, version, rare, folds, "END")
    return bytes(out), {k: sorted(v) for k, v in folds.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-file", type=int, default=5000)
    ap.add_argument("--out", required=True, help="folder for the .vcf files and truth.ndjson")
    ap.add_argument("--fold-rate", type=float, default=0.35,
                    help="share of 3.0/4.0 lines given random folds (default 0.35; 0 leaves only the 75-octet folds)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    r = random.Random(a.seed)
    files = (a.cards + a.per_file - 1) // a.per_file
    serial = 0
    with open(os.path.join(a.out, "truth.ndjson"), "w", encoding="utf-8") as truth_out:
        for fi in range(files):
            name = "gen-%04d.vcf" % fi
            eol = b"\n" if fi % 6 == 4 else b"\r" if fi % 10 == 9 else b"\r\n"
            bom = fi % 5 == 1
            w = Writer(r, eol)
            n = min(a.per_file, a.cards - serial)
            with open(os.path.join(a.out, name), "wb") as f:
                if bom:
                    f.write(b"\xef\xbb\xbf")
                for k in range(n):
                    version, props, truth = build_card(r, serial)
                    data, folds = write_card(w, r, version, props, a.fold_rate)
                    f.write(data)
                    truth.update(file=name, index=k, bom=bom and k == 0, folds=folds)
                    truth_out.write(json.dumps(truth, ensure_ascii=False) + "\n")
                    serial += 1


if __name__ == "__main__":
    main()
