#!/usr/bin/env python3
"""Writes N realistic vCards of mixed versions (2.1 / 3.0 / 4.0) to a file.

Stand-in for `ohana generate` until the CLI has it. Seeded, so the same
arguments give the same bytes. About 380 bytes per card on average.

    gen_vcards.py --contacts 1000000 --seed 42 -o contacts.vcf
"""
import argparse
import base64
import random

GIVEN = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
         "José", "María", "Zoë", "Björn", "Søren", "François", "Ægir", "Łukasz", "Dmitri", "Аня", "Ελένη",
         "太郎", "花子", "민준", "Ngozi", "Aarav", "Fatima", "Mohammed", "Chen", "Olivia"]
FAMILY = ["Smith", "Johnson", "Williams", "Brown", "Jones", "García", "Miller", "Davis", "Müller", "Schmidt",
          "Rossi", "Dubois", "Novák", "Kowalski", "Иванов", "Παπαδόπουλος", "山田", "김", "Okafor", "Patel",
          "Nguyen", "O'Brien", "van der Berg", "da Silva", "Al-Sayed"]
ORGS = ["Acme Corp", "Globex", "Initech", "Umbrella", "Stark Industries", "Wayne Enterprises", "Hooli",
        "Vandelay Industries", "Soylent, Inc.", "Müller & Söhne GmbH"]
TITLES = ["Engineer", "Manager", "Director", "Sales Rep", "Accountant", "Designer", "CEO", "Intern"]
STREETS = ["Main St", "Elm St", "Oak Ave", "Hauptstraße", "Rue de la Paix", "Via Roma", "Baker Street"]
CITIES = [("Springfield", "IL", "62701", "USA"), ("Berlin", "", "10115", "Germany"),
          ("Paris", "", "75001", "France"), ("London", "", "SW1A 1AA", "UK"), ("Tokyo", "", "100-0001", "Japan")]
DOMAINS = ["example.com", "mail.example.org", "corp.example.net"]
NOTES = ["Met at the conference; follow up in Q3.", "Prefers email, not phone.",
         "Birthday party, bring cake!\nAlso: call back", "VIP customer — handle with care", ""]


def esc(s):
    return s.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")


def fold(line):
    b = line.encode("utf-8")
    if len(b) <= 75:
        return line + "\r\n"
    out, start, limit = [], 0, 75
    while start < len(b):
        end = min(len(b), start + limit)
        while end < len(b) and (b[end] & 0xC0) == 0x80:
            end -= 1
        out.append((b" " if start else b"") + b[start:end])
        start, limit = end, 74
    return b"\r\n".join(out).decode("utf-8") + "\r\n"


def qp(s):
    """Quoted-printable with CRLF as =0D=0A and soft breaks every ~73 chars."""
    out, line = [], ""
    for b in s.replace("\n", "\r\n").encode("utf-8"):
        t = chr(b) if (33 <= b <= 126 and b != 61) or b == 32 else "=%02X" % b
        if len(line) + len(t) > 73:
            out.append(line + "=")
            line = ""
        line += t
    out.append(line)
    return "\r\n".join(out)


def card(r, i):
    g, f = r.choice(GIVEN), r.choice(FAMILY)
    version = r.choices(["2.1", "3.0", "4.0"], [2, 5, 3])[0]
    org, title = r.choice(ORGS), r.choice(TITLES)
    lines = ["BEGIN:VCARD", "VERSION:" + version]
    if version == "4.0":
        lines.append("UID:urn:uuid:%08x-%04x-4%03x-a%03x-%012x" % (
            r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48)))
    if version == "2.1" and any(ord(c) > 127 for c in g + f):
        lines.append("N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qp("%s;%s;;;" % (f, g)).rstrip("\r\n"))
        lines.append("FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qp("%s %s" % (g, f)).rstrip("\r\n"))
    else:
        lines.append("N:%s;%s;;;" % (esc(f), esc(g)))
        lines.append("FN:%s %s" % (esc(g), esc(f)))
    lines.append("ORG:%s" % esc(org))
    lines.append("TITLE:%s" % esc(title))
    for k in range(r.choice([1, 1, 2, 3])):
        t = r.choice(["CELL", "HOME", "WORK"])
        num = "+1 %03d %03d %04d" % (r.randrange(200, 999), r.randrange(100, 999), r.randrange(10000))
        if version == "2.1":
            lines.append("TEL;%s;VOICE:%s" % (t, num))
        elif version == "3.0" and k == 0 and r.random() < 0.3:
            lines.append("item1.TEL;type=%s:%s" % (t.lower(), num))
            lines.append("item1.X-ABLabel:_$!<Mobile>!$_")
        else:
            lines.append("TEL;TYPE=%s,VOICE:%s" % (t.lower() if version == "4.0" else t, num))
    mail = "%s.%s%d@%s" % (g.lower(), f.lower().replace(" ", ""), i, r.choice(DOMAINS))
    lines.append(("EMAIL;INTERNET:" if version == "2.1" else "EMAIL;TYPE=INTERNET,HOME:") + mail)
    if r.random() < 0.6:
        city, region, code, country = r.choice(CITIES)
        street = "%d %s" % (r.randrange(1, 999), r.choice(STREETS))
        lines.append("ADR;%s:;;%s;%s;%s;%s;%s" % ("WORK" if version == "2.1" else "TYPE=WORK",
                                                 esc(street), esc(city), esc(region), esc(code), esc(country)))
    note = r.choice(NOTES)
    if note:
        if version == "2.1":
            lines.append("NOTE;ENCODING=QUOTED-PRINTABLE:" + qp(note).rstrip("\r\n"))
        else:
            lines.append("NOTE:" + esc(note))
    if r.random() < 0.3:
        lines.append("BDAY:%04d-%02d-%02d" % (r.randrange(1940, 2010), r.randrange(1, 13), r.randrange(1, 29)))
    if r.random() < 0.2:
        lines.append("CATEGORIES:friends,work")
    if r.random() < 0.02:
        data = base64.b64encode(bytes(r.getrandbits(8) for _ in range(600))).decode()
        if version == "4.0":
            lines.append("PHOTO:data:image/jpeg;base64," + data)
        else:
            lines.append("PHOTO;ENCODING=%s;TYPE=JPEG:%s" % ("BASE64" if version == "2.1" else "b", data))
    lines.append("REV:2024%02d%02dT120000Z" % (r.randrange(1, 13), r.randrange(1, 29)))
    lines.append("END:VCARD")
    out = []
    for l in lines:
        out.append(l + "\r\n" if "QUOTED-PRINTABLE" in l else fold(l))
    return "".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--contacts", type=int, default=1000000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    r = random.Random(a.seed)
    with open(a.output, "w", encoding="utf-8", newline="") as f:
        buf = []
        for i in range(a.contacts):
            buf.append(card(r, i))
            if len(buf) == 10000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))


if __name__ == "__main__":
    main()
