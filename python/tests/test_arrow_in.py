"""Arrow in: a pyarrow.Table of contacts given to the engine. The oracle is
Python's json module reading what the engine then writes as NDJSON."""

import json

import pyarrow as pa

import ohana
from conftest import SAMPLE


def test_a_plain_pyarrow_table_goes_in(tmp_path):
    table = pa.table({
        "uid": ["u1", "u2", None],
        "givenName": ["Ann", "Bo", "Cy"],
        "familyName": pa.array(["Lee", None, "Ng"]).dictionary_encode(),
        "phones": [["+1 202 555 0143", "(202) 555-0199"], [], None],
        "email": ["ann@example.org", None, "cy@example.org"],
        "addresses": [[{"street": "1 Main St", "locality": "Springfield", "country": "US"}], [], None],
        "ignored": [1, 2, 3],
    })
    t = ohana.ContactTable.from_arrow(table)
    assert len(t) == 3
    out = tmp_path / "in.ndjson"
    t.write(out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r.get("uid") for r in rows] == ["u1", "u2", None]
    assert [r.get("familyName") for r in rows] == ["Lee", None, "Ng"]
    assert [[f["value"] for f in r.get("fields", []) if f["type"] == "phone"] for r in rows] == [
        ["+1 202 555 0143", "(202) 555-0199"], [], []]
    assert [[f["value"] for f in r.get("fields", []) if f["type"] == "email"] for r in rows] == [
        ["ann@example.org"], [], ["cy@example.org"]]
    assert rows[0]["addresses"] == [{"street": "1 Main St", "locality": "Springfield", "country": "US"}]


def test_what_read_gives_goes_back_in_unchanged(tmp_path):
    table = ohana.read(SAMPLE)
    back = ohana.ContactTable.from_arrow(table).to_arrow()
    back.validate(full=True)
    keep = ["uid", "fullName", "givenName", "familyName", "organization", "note"]
    assert back.select(keep).to_pylist() == table.select(keep).to_pylist()
    strip = lambda fs: [(f["type"], f["label"], f["value"], f["parameters"]) for f in fs]
    assert [strip(x) for x in back.column("fields").to_pylist()] == [strip(x) for x in table.column("fields").to_pylist()]


def test_sliced_and_chunked_input():
    table = ohana.read(SAMPLE)
    part = pa.concat_tables([table.slice(10, 5), table.slice(500, 3)])
    t = ohana.ContactTable.from_arrow(part)
    assert t.contacts().column("uid").to_pylist() == part.column("uid").to_pylist()
