"""normalize_phones, sort and dedupe against independent oracles: the
`phonenumbers` package (Google's libphonenumber, ported) for E.164, and the
command line's own output for sorting and clusters."""

import csv
import io

import pyarrow as pa
import pytest

import ohana
from conftest import SAMPLE, cli_ndjson, run_cli


def test_e164_agrees_with_phonenumbers():
    phonenumbers = pytest.importorskip("phonenumbers")
    t = ohana.read_table(SAMPLE).normalize_phones(region="US", formats=("e164",))
    f = t.fields()
    f.validate(full=True)
    phones = f.filter(pa.compute.equal(f.column("type").cast(pa.string()), "phone"))
    values = phones.column("value").to_pylist()
    e164 = phones.column("phone.e164").to_pylist()
    assert len(values) > 1000
    compared = agreed = 0
    for raw, got in zip(values, e164):
        try:
            n = phonenumbers.parse(raw, "US")
        except phonenumbers.NumberParseException:
            continue
        if not phonenumbers.is_valid_number(n):
            continue
        compared += 1
        if got == phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164):
            agreed += 1
    assert compared > 0.4 * len(values)  # the rest are other countries' national numbers, invalid in the US
    assert agreed == compared


def test_normalize_phones_on_an_array_row_for_row():
    phonenumbers = pytest.importorskip("phonenumbers")
    raw = ["(202) 555-0143", None, "not a number", "+44 20 7946 0958", "030 901820", "+1 650-253-0000"]
    out = ohana.normalize_phones(pa.array(raw), region="DE", formats=("e164", "international"))
    assert out.num_rows == len(raw)
    for r, e, i in zip(raw, out.column("phone.e164").to_pylist(), out.column("phone.international").to_pylist()):
        if r is None:
            assert e is None and i is None
            continue
        try:
            n = phonenumbers.parse(r, "DE")
            ok = phonenumbers.is_valid_number(n)
        except phonenumbers.NumberParseException:
            ok = False
        if ok:
            assert e == phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)
            assert i == phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
        elif r == "not a number":
            assert e is None


def test_normalize_phones_on_a_pyarrow_table_keeps_the_contacts():
    table = ohana.read(SAMPLE)
    out = ohana.normalize_phones(table, region="US")
    out.validate(full=True)
    assert out.column("uid").to_pylist() == table.column("uid").to_pylist()
    names = out.schema.field("fields").type.value_type
    assert names.get_field_index("phone.e164") >= 0


def test_sort_matches_the_cli(cli):
    want = cli_ndjson(cli, "process", str(SAMPLE), "--sort", "family", "--locale", "de")
    got = ohana.sort(ohana.read(SAMPLE), by="family", locale="de")
    got.validate(full=True)
    assert got.column("uid").to_pylist() == [c.get("uid") for c in want]
    # Chained in the engine: the same order.
    handle = ohana.read_table(SAMPLE).sort(by="family", locale="de")
    assert handle.contacts().column("uid").to_pylist() == [c.get("uid") for c in want]


def test_descending_is_the_reverse_order(cli):
    want = cli_ndjson(cli, "process", str(SAMPLE), "--sort", "given", "--locale", "en", "--descending")
    got = ohana.read_table(SAMPLE).sort(by="given", locale="en", descending=True)
    assert got.contacts().column("uid").to_pylist() == [c.get("uid") for c in want]


def partition(pairs):
    groups = {}
    for uid, cluster in pairs:
        groups.setdefault(cluster, set()).add(uid)
    return sorted(sorted(g) for g in groups.values())


def test_dedupe_clusters_match_the_cli(cli, tmp_path):
    clusters_csv = tmp_path / "clusters.csv"
    merged_path = tmp_path / "merged.ndjson"
    run_cli(cli, "dedupe", str(SAMPLE), "-o", str(merged_path), "--clusters", str(clusters_csv))
    rows = list(csv.DictReader(io.StringIO(clusters_csv.read_text())))
    want = partition((r["uid"], r["cluster_id"]) for r in rows)
    merged, clusters = ohana.dedupe(ohana.read(SAMPLE))
    merged.validate(full=True)
    clusters.validate(full=True)
    assert clusters.column("row").to_pylist() == list(range(1000))
    got = partition(zip(clusters.column("uid").to_pylist(), clusters.column("dedupe.cluster").to_pylist()))
    assert got == want
    cli_merged = [line for line in merged_path.read_text().splitlines() if line]
    assert merged.num_rows == len(cli_merged) == len(want)
    # dedupe.cluster names the merged contact's row.
    import json
    merged_uids = [json.loads(line).get("uid") for line in cli_merged]
    assert merged.column("uid").to_pylist() == merged_uids
    assert max(clusters.column("dedupe.cluster").to_pylist()) == merged.num_rows - 1
    # Each value of a merged contact names the member it came from
    # (README "Golden records"): one of its cluster's uids, whose own card,
    # read on its own, holds that very value.
    cards = {r["uid"]: r for r in ohana.read(SAMPLE).to_pylist()}
    prefix = str(SAMPLE) + ":"
    checked = 0
    for row in merged.to_pylist():
        members = (row.get("dedupe.sourceUIDs") or "").split(",")
        for kind, values in (("fields", "value"), ("addresses", "street")):
            for v in row[kind] or []:
                origin = v.get("origin")
                if len(members) < 2:
                    assert origin is None, "a contact alone names no origin"
                    continue
                assert origin is not None and origin.startswith(prefix), origin
                uid = origin[len(prefix):]
                assert uid in members
                assert v[values] in [w[values] for w in cards[uid][kind] or []], (uid, v[values])
                checked += 1
    assert checked > 100


def test_write_is_what_the_cli_writes(cli, tmp_path):
    ours = tmp_path / "ours.ndjson"
    ohana.write(ohana.read_table(SAMPLE), ours)
    # ohana.read names each contact's (and field's) source: the CLI does
    # the same when the input is given a source name.
    assert ours.read_text() == run_cli(cli, "convert", str(SAMPLE), "--source", str(SAMPLE), "-o", "-", "--to", "ndjson")


def test_normalize_phones_edge_arrays():
    assert ohana.normalize_phones(pa.array([None, None], pa.string())).to_pylist() == [{"phone.e164": None}] * 2
    assert ohana.normalize_phones(pa.array([], pa.string())).num_rows == 0
    chunked = pa.chunked_array([["+1 202 555 0143"], [None, "030 901820"]])
    out = ohana.normalize_phones(chunked, region="DE").column("phone.e164").to_pylist()
    assert out[1] is None and len(out) == 3
    empty = ohana.ContactTable.from_arrow(pa.table({"fullName": pa.array([], pa.string())}))
    assert len(empty) == 0 and empty.to_arrow().num_rows == 0
