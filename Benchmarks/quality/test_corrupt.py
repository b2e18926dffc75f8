"""Tests for corrupt.py.  Run: python -m pytest -q Benchmarks/quality"""
import csv
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
pytest.importorskip("faker")       # requirements.txt; skip, not fail, without them
pytest.importorskip("nicknames")
import corrupt  # noqa: E402

RATE_RECORDS = 20_000
MIN_EXPECTED_FIRES = 40     # below this a ±30% check is noise, so it must not happen


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def gen(tmp_path, name, **kw):
    out, truth = tmp_path / f"{name}.out", tmp_path / f"{name}.truth.csv"
    stats = corrupt.generate(out=str(out), truth=str(truth), **kw)
    return out, truth, stats


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """One 20k-record set per profile, mixed locales so every rule has values."""
    tmp = tmp_path_factory.mktemp("big")
    res = {}
    for prof in corrupt.PROFILES:
        res[prof] = gen(tmp, prof, records=RATE_RECORDS, seed=11, profile=prof,
                        locale="mixed")
    return res


def test_deterministic_per_seed(tmp_path):
    for fmt in ("csv", "ndjson"):
        a = gen(tmp_path, f"a{fmt}", people=400, seed=5, fmt=fmt, locale="mixed")
        b = gen(tmp_path, f"b{fmt}", people=400, seed=5, fmt=fmt, locale="mixed")
        c = gen(tmp_path, f"c{fmt}", people=400, seed=6, fmt=fmt, locale="mixed")
        assert a[0].read_bytes() == b[0].read_bytes()
        assert a[1].read_bytes() == b[1].read_bytes()
        assert a[0].read_bytes() != c[0].read_bytes()


def test_deterministic_across_processes(tmp_path):
    """Same bytes from two fresh interpreters with different hash seeds."""
    outs = []
    for i, hs in enumerate(("1", "2")):
        out, truth = tmp_path / f"p{i}.csv", tmp_path / f"p{i}.truth.csv"
        env = dict(os.environ, PYTHONHASHSEED=hs)
        subprocess.run([sys.executable, os.path.join(HERE, "corrupt.py"), "--people", "300",
                        "--seed", "3", "--out", str(out), "--truth", str(truth),
                        "--profile", "census", "--locale", "mixed"], check=True, env=env)
        outs.append((out.read_bytes(), truth.read_bytes()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("profile", sorted(corrupt.PROFILES))
def test_truth_covers_every_record_once(tmp_path, profile):
    out, truth, stats = gen(tmp_path, "t", people=700, seed=2, profile=profile)
    header, rows = read_csv(out)
    th, trows = read_csv(truth)
    assert th == ["record_id", "person_id"]
    ids = [r[0] for r in rows]
    tids = [r[0] for r in trows]
    assert len(ids) == len(set(ids)) == stats["records"]
    assert ids == tids                      # same ids, same order, once each
    assert len(set(Counter(tids).values())) == 1
    assert len({r[1] for r in trows}) == 700 == stats["people"]


@pytest.mark.parametrize("dist,lo,hi", [("zipf", 1, 20), ("uniform", 2, 5), ("zipf", 3, 3)])
def test_records_per_person_within_bounds(tmp_path, dist, lo, hi):
    out, truth, stats = gen(tmp_path, "k", people=1500, seed=4, dist=dist,
                            min_records=lo, max_records=hi)
    _, trows = read_csv(truth)
    per = Counter(r[1] for r in trows)
    assert len(per) == 1500
    assert min(per.values()) >= lo and max(per.values()) <= hi
    if dist == "zipf" and lo == 1:
        share1 = sum(1 for v in per.values() if v == 1) / len(per)
        assert 0.5 < share1 < 0.75         # P(1) = 1/sum(k^-2) ~ 0.63
        assert max(per.values()) >= 10
    if dist == "uniform":
        assert set(per.values()) == set(range(lo, hi + 1))


def test_records_option_stops_at_exact_count(tmp_path):
    out, truth, stats = gen(tmp_path, "r", records=1234, seed=9)
    _, rows = read_csv(out)
    assert len(rows) == 1234 == stats["records"]


def test_rows_are_shuffled(tmp_path):
    """Records of one person must not sit next to each other in the output."""
    out, truth, _ = gen(tmp_path, "s", people=2000, seed=8)
    _, trows = read_csv(truth)
    adjacent = sum(1 for a, b in zip(trows, trows[1:]) if a[1] == b[1])
    assert adjacent < 0.01 * len(trows)


@pytest.mark.parametrize("profile", sorted(corrupt.PROFILES))
def test_header_is_profile_columns(tmp_path, profile):
    cols = corrupt.PROFILES[profile]["columns"]
    assert set(corrupt.PROFILES[profile]["fields"]) == set(cols[1:])
    out, _, _ = gen(tmp_path, "h", people=50, seed=1, profile=profile)
    header, rows = read_csv(out)
    assert header == cols
    assert all(len(r) == len(cols) for r in rows)
    out, _, _ = gen(tmp_path, "hj", people=50, seed=1, profile=profile, fmt="ndjson")
    with open(out, encoding="utf-8") as f:
        objs = [json.loads(line) for line in f]
    assert objs and all(list(o) == cols for o in objs)


def test_profile_headers_match_brief():
    assert corrupt.PROFILES["crm"]["columns"] == [
        "record_id", "first_name", "last_name", "dob", "email", "phone", "street", "city",
        "postcode", "country", "gender", "occupation"]
    assert corrupt.PROFILES["census"]["columns"] == [
        "rec_id", "given", "surname", "birth_date", "birthplace", "postcode", "gender",
        "occupation"]
    assert corrupt.PROFILES["web"]["columns"] == [
        "id", "full_name", "email", "city", "signup_date"]


@pytest.mark.parametrize("profile", sorted(corrupt.PROFILES))
def test_each_corruption_fires_at_its_rate(big, profile):
    _, _, stats = big[profile]
    assert stats["records"] == RATE_RECORDS
    configured = [(f"{field}.{name}", r)
                  for field, rates in corrupt.PROFILES[profile]["rates"].items()
                  for name, r in rates.items() if r > 0]
    bad = []
    for key, rate in configured:
        s = stats["rates"].get(key)
        assert s is not None, f"{key} never considered"
        expected = s["eligible"] * rate
        assert expected >= MIN_EXPECTED_FIRES, f"{key}: too few eligible ({s['eligible']})"
        if abs(s["fired"] - expected) > 0.3 * expected:
            bad.append(f"{key}: configured {rate}, observed {s['observed']} "
                       f"({s['fired']}/{s['eligible']})")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("profile", sorted(corrupt.PROFILES))
def test_missing_rates_seen_in_output(big, profile):
    """Measured on the written table, not on the generator's own counters."""
    out, _, _ = big[profile]
    header, rows = read_csv(out)
    prof = corrupt.PROFILES[profile]
    for col, field in prof["fields"].items():
        rate = prof["rates"].get(field, {}).get("missing")
        if not rate or field in ("given", "family"):   # names also move between cells
            continue
        i = header.index(col)
        share = sum(1 for r in rows if r[i] == "") / len(rows)
        assert abs(share - rate) <= 0.3 * rate, (col, share, rate)


def test_output_shows_the_corruptions(big):
    """Spot checks on the crm table itself."""
    out, truth, _ = big["crm"]
    header, rows = read_csv(out)
    col = {h: i for i, h in enumerate(header)}
    dobs = [r[col["dob"]] for r in rows if r[col["dob"]]]
    iso = sum(1 for d in dobs if len(d) == 10 and d[4] == "-") / len(dobs)
    assert 0.6 < iso < 0.8                           # date_format 0.30, other formats
    assert any(len(d) == 4 for d in dobs)            # year only
    assert any(len(d) == 8 and d.isdigit() for d in dobs)   # yyyymmdd
    emails = [r[col["email"]] for r in rows if r[col["email"]]]
    assert 0.02 < sum("+" in e for e in emails) / len(emails) < 0.07
    assert any("," in r[col["last_name"]] and not r[col["first_name"]] for r in rows)
    phones = [r[col["phone"]] for r in rows if r[col["phone"]]]
    assert any(p.startswith("+") for p in phones) and any(p.startswith("(") for p in phones)
    # the same person appears with different first names (nicknames etc.)
    _, trows = read_csv(truth)
    pid = {r[0]: r[1] for r in trows}
    names = {}
    for r in rows:
        names.setdefault(pid[r[0]], set()).add(r[col["first_name"]])
    assert sum(1 for s in names.values() if len(s) > 1) > 500


def test_common_names_repeat(big):
    """Term frequencies: many different people share a common name."""
    out, truth, _ = big["census"]
    header, rows = read_csv(out)
    _, trows = read_csv(truth)
    pid = {r[0]: r[1] for r in trows}
    people_by_surname = {}
    for r in rows:
        people_by_surname.setdefault(r[header.index("surname")], set()).add(pid[r[0]])
    top = max(len(v) for v in people_by_surname.values())
    assert top >= 40
    assert len(people_by_surname) > 1000


def test_cli_people(tmp_path):
    out, truth = tmp_path / "cli.ndjson", tmp_path / "cli.truth.csv"
    subprocess.run([sys.executable, os.path.join(HERE, "corrupt.py"), "--people", "120",
                    "--seed", "1", "--min-records", "1", "--max-records", "4", "--dist",
                    "uniform", "--out", str(out), "--truth", str(truth), "--format", "ndjson",
                    "--profile", "web", "--locale", "fr"], check=True)
    lines = out.read_text(encoding="utf-8").splitlines()
    _, trows = read_csv(truth)
    assert len(lines) == len(trows)
    assert len({r[1] for r in trows}) == 120
