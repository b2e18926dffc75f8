"""ohana.read: every value the engine exports equals what the command line
writes as NDJSON for the same file, and pyarrow's full validation passes."""

import pyarrow as pa
import pytest

import ohana
from conftest import EXAMPLE, SAMPLE, cli_ndjson

ATTRS = ["uid", "fullName", "givenName", "familyName", "middleName", "prefix", "suffix", "nickname",
         "organization", "department", "jobTitle", "birthday", "note"]
FIELD_KEYS = ["type", "label", "value", "group", "parameters"]
ADDRESS_KEYS = ["label", "street", "locality", "region", "postalCode", "country", "poBox", "extended", "group", "parameters"]


def strip(d: dict) -> dict:
    return {k: v for k, v in d.items() if v is not None}


def test_every_value_matches_the_cli_ndjson(sample_ndjson):
    table = ohana.read([SAMPLE])
    table.validate(full=True)
    assert table.num_rows == len(sample_ndjson) == 1000
    rows = table.to_pylist()
    for got, want in zip(rows, sample_ndjson):
        for a in ATTRS:
            assert got[a] == want.get(a), a
        assert [strip({k: f[k] for k in FIELD_KEYS}) for f in got["fields"]] == [
            {k: f[k] for k in FIELD_KEYS if k in f} for f in want.get("fields", [])
        ]
        assert [strip({k: x[k] for k in ADDRESS_KEYS}) for x in got["addresses"]] == [
            {k: x[k] for k in ADDRESS_KEYS if k in x} for x in want.get("addresses", [])
        ]
        assert got["source"] == str(SAMPLE)


def test_strings_are_dictionary_arrays_over_one_pool():
    t = ohana.read_table(SAMPLE)
    contacts = t.contacts()
    fam = contacts.column("familyName").chunk(0)
    given = contacts.column("givenName").chunk(0)
    assert pa.types.is_dictionary(fam.type) and fam.type.index_type == pa.int32()
    # One pool: every string column shares the same dictionary.
    assert fam.dictionary.equals(given.dictionary)
    assert len(set(fam.dictionary.to_pylist())) == len(fam.dictionary)  # each string once


def test_separate_child_tables_carry_the_contact_index(sample_ndjson):
    t = ohana.read_table(SAMPLE)
    fields = t.fields()
    addresses = t.addresses()
    for part in (t.contacts(), fields, addresses):
        part.validate(full=True)
    want = [(i, f["value"]) for i, c in enumerate(sample_ndjson) for f in c.get("fields", [])]
    got = list(zip(fields.column("contact").to_pylist(), fields.column("value").to_pylist()))
    assert got == want
    want_adr = [(i, a.get("street")) for i, c in enumerate(sample_ndjson) for a in c.get("addresses", [])]
    assert list(zip(addresses.column("contact").to_pylist(), addresses.column("street").to_pylist())) == want_adr


def test_several_paths_concatenate_with_their_source(cli):
    t = ohana.read([EXAMPLE, SAMPLE])
    t.validate(full=True)
    example = cli_ndjson(cli, "convert", str(EXAMPLE))
    assert t.num_rows == len(example) + 1000
    sources = t.column("source").to_pylist()
    assert sources == [str(EXAMPLE)] * len(example) + [str(SAMPLE)] * 1000
    assert t.column("uid").to_pylist()[: len(example)] == [c.get("uid") for c in example]


def test_source_line_is_where_the_card_begins():
    t = ohana.read(SAMPLE)
    begins = [i + 1 for i, line in enumerate(SAMPLE.read_text(encoding="utf-8").splitlines()) if line == "BEGIN:VCARD"]
    assert t.column("sourceLine").to_pylist() == begins


def test_duckdb_and_polars_read_the_contacts(sample_ndjson):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    contacts = ohana.read(SAMPLE)
    want = sum(1 for c in sample_ndjson if c.get("familyName") == "Smith")
    got = duckdb.sql("select count(*) from contacts where familyName = 'Smith'").fetchall()[0][0]
    assert got == want
    phones = duckdb.sql("select count(*) from (select unnest(fields) as f from contacts) where f.type = 'phone'").fetchall()[0][0]
    assert phones == sum(1 for c in sample_ndjson for f in c.get("fields", []) if f["type"] == "phone")
    df = pl.from_arrow(contacts)
    assert df.height == 1000
    assert df.filter(pl.col("familyName") == "Smith").height == want
    pdf = contacts.select(["uid", "familyName"]).to_pandas()
    assert list(pdf["uid"]) == [c.get("uid") for c in sample_ndjson]


def test_bytes_that_are_not_utf8_still_export_valid_arrow(tmp_path):
    # Latin-1 and stray bytes, no CHARSET: the reader decodes them, and the
    # exported dictionary passes pyarrow's full (UTF-8) validation.
    bad = tmp_path / "latin.vcf"
    bad.write_bytes(b"BEGIN:VCARD\nVERSION:3.0\nFN:Jos\xe9 \xff\xfe Garc\xeda\nNOTE:bad \xc3\x28 bytes\nX-FOO:\x80\x81\nEND:VCARD\n")
    t = ohana.read(bad)
    t.validate(full=True)
    assert t.column("fullName").to_pylist()[0].startswith("Jos")


def test_extras_match_the_cli_ndjson(sample_ndjson):
    extras = ohana.read_table(SAMPLE).extras()
    extras.validate(full=True)
    want = [(i, x["name"], x.get("group"), x.get("parameters"), x["value"])
            for i, c in enumerate(sample_ndjson) for x in c.get("extras", [])]
    got = list(zip(*(extras.column(n).to_pylist() for n in ["contact", "name", "group", "parameters", "value"])))
    assert len(want) > 0
    assert got == want
