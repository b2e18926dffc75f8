"""`ohana process --format-phones F` writes each number in F into the value
(issue 46, item 1), checked against the `phonenumbers` package, not against
our own engine: 3,000 numbers as typed in the phone fixture's corpus (its
raw column only; the expected answers come from phonenumbers here), one
card each, through vCard 4.0 and CSV, in every format."""

import csv
import io
import pathlib
import subprocess

import phonenumbers
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "Tests" / "OhanaPhoneTests" / "Fixtures" / "phone-fixture.tsv"
FORMATS = {
    "e164": phonenumbers.PhoneNumberFormat.E164,
    "international": phonenumbers.PhoneNumberFormat.INTERNATIONAL,
    "national": phonenumbers.PhoneNumberFormat.NATIONAL,
    "rfc3966": phonenumbers.PhoneNumberFormat.RFC3966,
}


def corpus():
    """Raw numbers (every 8th line, and every one with an extension)."""
    raws = []
    with open(FIXTURE, encoding="utf-8") as f:
        for i, line in enumerate(f):
            raw = line.split("\t")[0]
            if raw.strip() != raw or not raw or "\\" in raw:
                continue
            if i % 8 == 0 or "ext" in line.split("\t")[5]:
                raws.append(raw)
    return raws[:3000]


def escape(v):
    return v.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")


def expected(raw, fmt):
    """What phonenumbers makes of `raw` read with region US: the formatted
    number and its extension, or None when it does not parse."""
    try:
        n = phonenumbers.parse(raw, "US")
    except phonenumbers.NumberParseException:
        return None
    if n.national_number == 0:
        # All zeros past the country code: ohana leaves it as typed (README
        # "Phones written as asked"); phonenumbers writes it shorter each
        # time it is read again (+49000000, +4900000, +490000).
        return None
    return phonenumbers.format_number(n, FORMATS[fmt]), n.extension or None


def unfolded(text):
    out = []
    for line in text.splitlines():
        if line.startswith((" ", "\t")) and out:
            out[-1] += line[1:]
        else:
            out.append(line)
    return out


def read_vcard(text):
    """uid -> (value, parameters) of each card's one TEL."""
    cards, uid, tel = {}, None, None
    for line in unfolded(text):
        if line.startswith("UID:"):
            uid = line[4:]
        elif line.startswith("TEL"):
            head, value = line.split(":", 1)
            params = dict(p.split("=", 1) for p in head.split(";")[1:] if "=" in p)
            value = value.replace("\\,", ",").replace("\\;", ";").replace("\\\\", "\\")
            tel = (value, params)
        elif line == "END:VCARD":
            cards[uid] = tel
            uid, tel = None, None
    return cards


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    raws = corpus()
    path = tmp_path_factory.mktemp("phones") / "book.vcf"
    with open(path, "w", encoding="utf-8") as f:
        for i, raw in enumerate(raws):
            f.write(f"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:n{i}\r\nFN:Person {i}\r\nTEL;TYPE=cell:{escape(raw)}\r\nEND:VCARD\r\n")
    return path, raws


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_vcard_values_are_phonenumbers_answers(cli, book, fmt):
    path, raws = book
    out = subprocess.run([str(cli), "process", str(path), "--format-phones", fmt, "--region", "US", "-o", "-", "--to", "vcard4", "-q"],
                         check=True, capture_output=True, text=True).stdout
    cards = read_vcard(out)
    assert len(cards) == len(raws)
    parsed = extensions = 0
    for i, raw in enumerate(raws):
        value, params = cards[f"n{i}"]
        assert params.get("TYPE", "").lower() == "cell", raw
        want = expected(raw, fmt)
        if want is None:
            assert value.strip() == raw.strip(), raw  # left as typed
            continue
        parsed += 1
        number, ext = want
        assert value == number, (raw, value, number)
        if fmt == "e164":
            assert params.get("X-EXT") == ext, raw
            extensions += ext is not None
        if fmt == "rfc3966":
            assert params.get("VALUE") == "uri", raw
    assert parsed > len(raws) // 2
    if fmt == "e164":
        assert extensions > 100


def test_csv_keeps_an_e164_extension_after_the_number(cli, book):
    path, raws = book
    out = subprocess.run([str(cli), "process", str(path), "--format-phones", "e164", "--region", "US", "-o", "-", "--to", "csv", "-q"],
                         check=True, capture_output=True, text=True).stdout
    rows = {r["uid"]: r for r in csv.DictReader(io.StringIO(out))}
    for i, raw in enumerate(raws):
        value = rows[f"n{i}"]["phone 1 value"]
        want = expected(raw, "e164")
        if want is None:
            assert value.strip() == raw.strip(), raw
        else:
            number, ext = want
            assert value == (number + ";ext=" + ext if ext else number), raw


def test_keep_original_and_the_report(cli, tmp_path):
    book = tmp_path / "one.vcf"
    book.write_text("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:John Smith\r\nTEL;TYPE=CELL:(415) 555-0132\r\n"
                    "TEL;TYPE=WORK:+1 415.555.0199 ext. 12\r\nTEL:not a number\r\nEND:VCARD\r\n")
    report = tmp_path / "r.json"
    out = subprocess.run([str(cli), "process", str(book), "--format-phones", "e164", "--keep-original", "-o", "-", "--to", "vcard3",
                          "--report", str(report), "-q"], check=True, capture_output=True, text=True).stdout
    tels = [line for line in unfolded(out) if line.startswith("TEL")]
    assert tels == [
        "TEL;TYPE=CELL;X-OHANA-ORIGINAL=(415) 555-0132:+14155550132",
        "TEL;TYPE=WORK;X-EXT=12;X-OHANA-ORIGINAL=+1 415.555.0199 ext. 12:+14155550199",
        "TEL:not a number",
    ]
    import json

    stage = next(s for s in json.loads(report.read_text())["stages"] if s["name"] == "phone-values")
    assert stage["counters"] == {"phone.rewritten": 2, "phone.extensions": 1, "phone.unparsed": 1}
    assert stage["notes"][0].startswith("line 1")
