"""The Spark job (ohana.spark) against the one-machine `ohana dedupe` on the
same files: the oracle is the command line's output (clusters CSV, merged
NDJSON, --explain lines, --report problems), which shares no code path
with the Spark stages (blocking in SQL, connected components, merge per
batch of components). They must agree exactly: the job keeps the one
machine's order wherever it breaks ties.

Needs PySpark and a Java runtime (`.ci/run` installs both). Without them
the tests fail; set OHANA_SKIP_SPARK=1 to skip them on purpose (the skip
says so)."""

import csv
import json
import os
import subprocess

import pyarrow.parquet as pq
import pytest

from conftest import SAMPLE, cli_ndjson, run_cli

if os.environ.get("OHANA_SKIP_SPARK") == "1":
    pytest.skip("OHANA_SKIP_SPARK=1: the Spark tests are NOT run", allow_module_level=True)

import pyspark  # noqa: E402,F401  (a missing PySpark fails here, loudly)

from ohana import spark as ospark  # noqa: E402


def one_machine(cli, inputs, out_dir, *extra):
    """`ohana dedupe` of `inputs`: (clusters {uid: cluster_id}, merged NDJSON
    lines, explain lines, report, stderr summary)."""
    merged = out_dir / "one.ndjson"
    clusters = out_dir / "one.csv"
    explain = out_dir / "one-explain.ndjson"
    report = out_dir / "one-report.json"
    done = subprocess.run(
        [str(cli), "dedupe", *map(str, inputs), "-o", str(merged), "--clusters", str(clusters), "--explain", str(explain),
         "--report", str(report), *extra],
        check=True, capture_output=True, text=True)
    with open(clusters) as f:
        mapping = {r["uid"]: r["cluster_id"] for r in csv.DictReader(f)}
    return (mapping, merged.read_text().splitlines(), explain.read_text().splitlines(), json.loads(report.read_text()), done.stderr)


def spark_outputs(out_dir):
    t = pq.read_table(out_dir / "clusters").to_pydict()
    mapping = dict(zip(t["uid"], t["cluster_id"]))
    merged = []
    for part in sorted((out_dir / "merged-ndjson").glob("part-*")):
        merged += part.read_text().splitlines()
    pairs = []
    for part in sorted((out_dir / "pairs").glob("part-*")):
        pairs += part.read_text().splitlines()
    return mapping, merged, pairs, json.loads((out_dir / "report.json").read_text())


def compared(stderr: str) -> int:
    # "deduped N contacts into M (C clusters); P pairs compared, ..."
    return int(stderr.split("; ")[1].split(" pairs compared")[0])


def check_equal(cli, spark, tmp_path, inputs, *cli_extra, **spark_options):
    one_clusters, one_merged, one_explain, one_report, stderr = one_machine(cli, inputs, tmp_path, *cli_extra)
    out = tmp_path / "spark"
    report = ospark.dedupe(spark, [str(p) for p in inputs], str(out), ndjson=True, **spark_options)
    clusters, merged, pairs, written = spark_outputs(out)
    assert written["contacts"] == len(one_clusters) == report.contacts
    # The same candidate pairs (blocking in Spark SQL vs the engine's sort).
    assert report.pairs_compared == compared(stderr)
    # The same clusters, named by the same uids.
    assert clusters == one_clusters
    # The same merged contacts, byte for byte, in the same order.
    assert merged == one_merged
    # The same evidence for every joined pair.
    assert sorted(pairs) == sorted(one_explain)
    return report, one_report


def test_address_book_equals_one_machine(cli, spark, tmp_path):
    book = tmp_path / "book.vcf"
    run_cli(cli, "generate", "--contacts", "2500", "--seed", "31", "--dup-rate", "0.2", "-o", str(book))
    report, _ = check_equal(cli, spark, tmp_path, [book])
    assert report.weights == "built-in defaults"
    assert report.clusters > 200  # duplicates were found, so the comparison is not vacuous
    assert report.pairs_refused_by_guard >= 0


def test_hand_keyed_records_with_em_and_term_frequencies_equal_one_machine(cli, spark, tmp_path):
    book = tmp_path / "hand.vcf"
    run_cli(cli, "generate", "--contacts", "2500", "--seed", "32", "--dup-rate", "0.2", "--style", "hand-keyed", "-o", str(book))
    report, _ = check_equal(cli, spark, tmp_path, [book])
    # Fewer than half have a phone or an e-mail: EM, fitted once over all tasks' pairs.
    assert report.weights == "estimated (EM)"
    assert report.clusters > 200


def test_many_inputs_cut_ndjson_capped_blocks_and_bad_lines(cli, spark, tmp_path):
    book = tmp_path / "book.vcf"
    run_cli(cli, "generate", "--contacts", "2400", "--seed", "33", "--dup-rate", "0.25", "-o", str(book))
    ndjson = [json.dumps(c) for c in (json.loads(line) for line in run_cli(cli, "convert", str(book), "--to", "ndjson", "-o", "-").splitlines())]
    # Three inputs of three formats: cards 0-799 as vCard, 800-1599 as CSV,
    # the rest as NDJSON with two broken lines in it.
    first = tmp_path / "a.ndjson"
    first.write_text("\n".join(ndjson[:800]) + "\n")
    vcf = tmp_path / "a.vcf"
    run_cli(cli, "convert", str(first), "-o", str(vcf))
    first.unlink()
    part = tmp_path / "b.ndjson"
    part.write_text("\n".join(ndjson[800:1600]) + "\n")
    csv_path = tmp_path / "b.csv"
    run_cli(cli, "convert", str(part), "-o", str(csv_path))
    part.unlink()
    rest = ndjson[1600:]
    rest.insert(7, '{"uid": "broken')
    rest.insert(500, "not json")
    nd = tmp_path / "c.ndjson"
    nd.write_text("\n".join(rest) + "\n")
    # Cut the NDJSON into pieces of 16 KiB (about 20 pieces, cut mid-line),
    # and cap blocks at 3 so that capped blocks take the neighbourhood path.
    report, one_report = check_equal(cli, spark, tmp_path, [vcf, csv_path, nd], "--max-block", "3",
                                     max_block=3, split_bytes=16 << 10, homes=4)
    assert report.blocking["capped_blocks"] > 0
    # The guard split components whose clusters start in another home than
    # the component: those rows were moved there and put in order.
    assert report.moved_after_guard > 0
    # One home per piece (37): every pair crosses homes more often, same answer.
    (tmp_path / "many").mkdir()
    many, _ = check_equal(cli, spark, tmp_path / "many", [vcf, csv_path, nd], "--max-block", "3",
                          max_block=3, split_bytes=16 << 10, homes=1000)
    assert many.homes > 30
    # The broken lines are reported with their lines in the whole file, as the command line reports them.
    want = [(p["source"], p["line"], p["severity"], p["reason"]) for p in one_report["problems"]]
    got = [(p["source"], p["line"], p["severity"], p["reason"]) for p in report.problem_lines]
    assert len(want) == 2 and got == want


def test_normalize_adds_phones_folded_names_and_sort_keys(cli, spark, tmp_path):
    phonenumbers = pytest.importorskip("phonenumbers")
    df = ospark.read(spark, [str(SAMPLE)])
    out = ospark.normalize(df, region="US", formats=("e164", "international"), sort_by="family", locale="en")
    from pyspark.sql import functions as F

    rows = out.orderBy(F.col("sort_key").asc_nulls_last(), "gid").select("uid", "phones", "phone_e164", "phone_international", "family_folded").collect()
    assert len(rows) == 1000
    # Sorting by sort_key then input order is `ohana process --sort family --locale en`.
    want = [c["uid"] for c in cli_ndjson(cli, "process", str(SAMPLE), "--sort", "family", "--locale", "en")]
    assert [r["uid"] for r in rows] == want
    # E.164 agrees with libphonenumber wherever libphonenumber finds the number valid.
    checked = 0
    for r in rows:
        assert len(r["phone_e164"]) == len(r["phones"])
        for raw, e164 in zip(r["phones"], r["phone_e164"]):
            try:
                n = phonenumbers.parse(raw, "US")
            except phonenumbers.NumberParseException:
                continue
            if phonenumbers.is_valid_number(n):
                checked += 1
                assert e164 == phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)
    assert checked > 300
    # Folded family names: ASCII, lower case, for every Latin-script name a plain reference folds the same.
    import unicodedata

    def reference(s):
        # Accents off, lower case, apostrophes gone (O'Brien = OBrien), anything else not a letter or digit a space.
        d = "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch)).lower()
        d = "".join(ch for ch in d if ch not in "'`\u2019\u02b9")
        return " ".join("".join(ch if ch.isalnum() else " " for ch in d).split())

    family = df.select("uid", "familyName").collect()
    folded = {r["uid"]: r["family_folded"] for r in out.select("uid", "family_folded").collect()}
    latin = 0
    for r in family:
        name = r["familyName"]
        # Latin-script names that accent-stripping alone turns into ASCII (not ß, ø, ı...: the engine transliterates those).
        if name and all(ord(ch) < 0x250 for ch in name) and reference(name).isascii():
            latin += 1
            assert folded[r["uid"]] == (reference(name) or None)
    assert latin > 300


def test_an_input_that_cannot_be_read_stops_the_job_before_writing(cli, spark, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text('"an unterminated header\n')
    good = tmp_path / "good.vcf"
    run_cli(cli, "generate", "--contacts", "50", "--seed", "34", "-o", str(good))
    out = tmp_path / "out"
    with pytest.raises(ospark.OhanaError) as e:
        ospark.dedupe(spark, [str(bad), str(good)], str(out))
    # The command line says the same of the same file: its line, its path, the reason.
    done = subprocess.run([str(cli), "dedupe", str(bad), str(good), "-o", str(tmp_path / "x.vcf")], capture_output=True, text=True)
    assert done.returncode != 0
    assert e.value.line == 1
    assert str(e.value) in done.stderr
    assert not out.exists()
