"""Parquet through the command line (README "Parquet"), checked with
readers that are not ours: tables written by pyarrow, DuckDB and Spark are
read; what ohana writes is read back by all three, with the input's values
and types. The duplicates are planted, so the clusters are known without
asking the engine.

Parquet needs a build with the `Parquet` trait: $OHANA_PARQUET_CLI names it
(CI sets it to the release archive's binary). Without it these tests skip,
saying so, unless OHANA_REQUIRE_PARQUET=1 (CI), where that is a failure."""

import csv
import datetime
import io
import os
import pathlib
import subprocess

import pytest

import duckdb
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

CLI = os.environ.get("OHANA_PARQUET_CLI")
if not CLI:
    if os.environ.get("OHANA_REQUIRE_PARQUET") == "1":
        raise RuntimeError("OHANA_REQUIRE_PARQUET=1 but OHANA_PARQUET_CLI names no ohana built with --traits Parquet")
    pytest.skip("SKIPPED LOUDLY: no Parquet build of ohana (set OHANA_PARQUET_CLI to one built with --traits Parquet)",
                allow_module_level=True)


def ohana(*args, expect=0):
    done = subprocess.run([CLI, *map(str, args), "-q"], capture_output=True, text=True)
    assert done.returncode == expect, (done.returncode, done.stderr)
    return done


# Six people; rows 0/3, 1/4 and 2/5 are the same person with the e-mail
# and birth date kept and the name typed again (a missing value, a case
# change, a nickname); 6 and 7 are alone.
PEOPLE = [
    ("c-1", "Margaret", "Whitfield", datetime.date(1961, 3, 14), "Leeds", "m.whitfield@example.org", 41),
    ("c-2", "Oskar", "Brandauer", datetime.date(1979, 11, 2), "Graz", "oskar.b@example.at", 12),
    ("c-3", "Ines", "Carvalho", datetime.date(1990, 7, 30), "Porto", "ines.carvalho@example.pt", 7),
    ("c-4", "Margaret", "WHITFIELD", datetime.date(1961, 3, 14), None, "m.whitfield@example.org", 41),
    ("c-5", "Oskar", "Brandauer", datetime.date(1979, 11, 2), "Graz", "oskar.b@example.at", None),
    ("c-6", "Ines", "Carvalho", datetime.date(1990, 7, 30), "Porto", "ines.carvalho@example.pt", 7),
    ("c-7", "Tomasz", "Zielinski", datetime.date(1985, 1, 9), "Gdansk", "t.zielinski@example.pl", 3),
    ("c-8", "Aiko", "Tanaka", None, "Osaka", "aiko.tanaka@example.jp", 19),
]
SAME = {"c-1": "c-1", "c-4": "c-1", "c-2": "c-2", "c-5": "c-2", "c-3": "c-3", "c-6": "c-3", "c-7": "c-7", "c-8": "c-8"}


def partition(cluster_of):
    groups = {}
    for member, cluster in cluster_of.items():
        groups.setdefault(cluster, set()).add(member)
    return sorted(sorted(g) for g in groups.values())


def arrow_table():
    cols = list(zip(*PEOPLE))
    return pa.table({
        "customer_id": pa.array(cols[0], pa.string()),
        "first_name": pa.array(cols[1], pa.string()),
        "surname": pa.array(cols[2], pa.string()),
        "dob": pa.array(cols[3], pa.date32()),
        "city": pa.array(cols[4], pa.string()).dictionary_encode(),
        "email": pa.array(cols[5], pa.string()),
        "orders": pa.array(cols[6], pa.int64()),
        "score": pa.array([0.5 * i for i in range(len(PEOPLE))], pa.float64()),
    })


def check_rows_back(table, original):
    """The user's columns unchanged (values and types), the cluster columns
    appended and right."""
    n = original.num_columns
    assert table.schema.names[:n] == original.schema.names
    for name in original.schema.names:
        want = original.column(name)
        got = table.column(name)
        if pa.types.is_dictionary(want.type):
            want = want.cast(want.type.value_type)
            got = got.cast(got.type.value_type) if pa.types.is_dictionary(got.type) else got
        assert got.type == want.type, name
        assert got.to_pylist() == want.to_pylist(), name
    assert table.schema.names[n:] == ["cluster_id", "cluster_size", "match_weight_min", "match_weight_max"]
    assert table.schema.field("cluster_id").type == pa.string()
    assert table.schema.field("cluster_size").type == pa.int32()
    assert table.schema.field("match_weight_max").type == pa.float64()
    ids = table.column("customer_id").to_pylist()
    clusters = table.column("cluster_id").to_pylist()
    assert [SAME[i] for i in ids] == clusters
    sizes = table.column("cluster_size").to_pylist()
    assert sizes == [sum(1 for c in clusters if c == mine) for mine in clusters]
    lows = table.column("match_weight_min").to_pylist()
    assert [low is None for low in lows] == [s == 1 for s in sizes]


def test_pyarrow_parquet_in_and_out(tmp_path):
    original = arrow_table()
    src = tmp_path / "people.parquet"
    pq.write_table(original, src)
    out = tmp_path / "out.parquet"
    ohana("dedupe", src, "-o", out, "--clusters", tmp_path / "c.csv")
    check_rows_back(pq.read_table(out), original)
    # DuckDB reads the same file with the same values.
    con = duckdb.connect()
    rows = con.execute(f"select customer_id, cluster_id, cluster_size from read_parquet('{out}') order by customer_id").fetchall()
    assert [(r[0], r[1]) for r in rows] == [(i, SAME[i]) for i in sorted(SAME)]


def test_duckdb_parquet_in_and_our_output_read_by_duckdb(tmp_path):
    src = tmp_path / "duck.parquet"
    con = duckdb.connect()
    con.register("people", arrow_table())
    con.execute(f"copy (select * exclude (city), city::varchar as city from people) to '{src}' (format parquet)")
    original = pq.read_table(src)
    out = tmp_path / "out.parquet"
    ohana("dedupe", src, "-o", out)
    check_rows_back(pq.read_table(out), original)
    back = con.execute(f"select dob, orders, cluster_id, cluster_size from read_parquet('{out}')").fetchall()
    assert [r[0] for r in back] == original.column("dob").to_pylist()
    assert [r[1] for r in back] == original.column("orders").to_pylist()
    assert [r[2] for r in back] == [SAME[i] for i in original.column("customer_id").to_pylist()]
    types = dict(con.execute(f"describe select * from read_parquet('{out}')").fetchall()[i][:2] for i in range(original.num_columns + 4))
    assert types["dob"] == "DATE" and types["orders"] == "BIGINT" and types["cluster_size"] == "INTEGER"


def test_golden_rows_are_each_clusters_first_row(tmp_path):
    original = arrow_table()
    src = tmp_path / "people.parquet"
    pq.write_table(original, src)
    golden = tmp_path / "golden.parquet"
    ohana("dedupe", src, "-o", tmp_path / "out.parquet", "--golden", golden)
    g = pq.read_table(golden)
    firsts = sorted(set(SAME.values()))
    assert sorted(g.column("customer_id").to_pylist()) == firsts
    assert g.schema.names[-2:] == ["cluster_id", "cluster_size"]
    assert g.schema.field("orders").type == pa.int64()
    by_id = {r["customer_id"]: r for r in original.to_pylist()}
    for row in g.to_pylist():
        want = by_id[row["customer_id"]]
        assert row["first_name"] == want["first_name"] and row["orders"] == want["orders"]
        assert row["cluster_id"] == row["customer_id"]


def test_csv_in_parquet_out_and_parquet_in_csv_out(tmp_path):
    original = arrow_table()
    src_csv = tmp_path / "people.csv"
    plain = original.set_column(4, "city", original.column("city").cast(pa.string()))
    pcsv.write_csv(plain, src_csv)
    out = tmp_path / "out.parquet"
    ohana("dedupe", src_csv, "-o", out)
    t = pq.read_table(out)
    # A CSV's columns come back as text, cell for cell as Python's csv module reads them.
    with open(src_csv, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert t.schema.names[: len(header)] == header
    for c, name in enumerate(header):
        assert t.column(name).to_pylist() == [r[c] if r[c] != "" else None for r in body], name
    assert t.column("cluster_id").to_pylist() == [SAME[r[0]] for r in body]

    # And the other way: a Parquet table's rows as CSV.
    src = tmp_path / "people.parquet"
    pq.write_table(original, src)
    out_csv = tmp_path / "out.csv"
    ohana("dedupe", src, "-o", out_csv)
    with open(out_csv, newline="") as f:
        back = list(csv.DictReader(f))
    assert [r["customer_id"] for r in back] == original.column("customer_id").to_pylist()
    assert [r["dob"] for r in back] == [d.isoformat() if d else "" for d in original.column("dob").to_pylist()]
    assert [r["orders"] for r in back] == [str(o) if o is not None else "" for o in original.column("orders").to_pylist()]
    assert [r["cluster_id"] for r in back] == [SAME[i] for i in original.column("customer_id").to_pylist()]


def test_a_table_read_in_slices_comes_back_whole_and_in_order(tmp_path):
    """Above 65,536 rows the Parquet reader writes the table's text in one
    slice per core, on threads, then joins them: every row once, in order,
    the header once, cells with commas, quotes and line breaks intact."""
    n = 70_001
    ids = [f"r{i:06d}" for i in range(n)]
    notes = [f'note {i}, "quoted"\nsecond line' if i % 7 == 0 else (None if i % 11 == 0 else f"n{i}") for i in range(n)]
    table = pa.table({
        "record_id": pa.array(ids, pa.string()),
        "first_name": pa.array([f"Given{i % 997}" for i in range(n)], pa.string()),
        "surname": pa.array([f"Family{i}" for i in range(n)], pa.string()),
        "note": pa.array(notes, pa.string()),
        "visits": pa.array(range(n), pa.int64()),
    })
    src = tmp_path / "big.parquet"
    pq.write_table(table, src, row_group_size=10_000)
    out = tmp_path / "rows.csv"
    ohana("dedupe", src, "-o", out)
    with open(out, newline="") as f:
        back = list(csv.DictReader(f))
    assert len(back) == n
    assert [r["record_id"] for r in back] == ids
    assert [r["note"] for r in back] == [x if x is not None else "" for x in notes]
    assert [r["visits"] for r in back] == [str(i) for i in range(n)]


def test_link_parquet_tables(tmp_path):
    original = arrow_table()
    left = original.slice(0, 3)
    right = original.slice(3, 3).rename_columns(["ref", "given", "family", "birth_date", "town", "mail", "orders", "score"])
    pq.write_table(left, tmp_path / "left.parquet")
    pq.write_table(right, tmp_path / "right.parquet")
    out = tmp_path / "linked.parquet"
    ohana("link", tmp_path / "left.parquet", tmp_path / "right.parquet", "-o", out)
    t = pq.read_table(out)
    assert t.num_rows == 3
    assert t.schema.names[-4:] == ["cluster_id", "match_id", "match_weight", "match_count"]
    assert t.column("match_id").to_pylist() == ["c-4", "c-5", "c-6"]
    assert t.schema.field("match_count").type == pa.int32()


def test_bad_parquet_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1" + b"\x00" * 64 + b"PAR1")
    done = ohana("dedupe", bad, "-o", tmp_path / "out.parquet", expect=65)
    assert "bad.parquet" in done.stderr and not (tmp_path / "out.parquet").exists()


def test_spark_writes_and_reads(tmp_path):
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").appName("ohana-parquet").getOrCreate()
    try:
        schema = "customer_id string, first_name string, surname string, dob date, city string, email string, orders bigint, score double"
        df = spark.createDataFrame([p + (0.5 * i,) for i, p in enumerate(PEOPLE)], schema)
        src = tmp_path / "spark_in"
        df.repartition(2).write.parquet(str(src))  # a directory of part files
        out = tmp_path / "out.parquet"
        ohana("dedupe", src, "-o", out)
        back = spark.read.parquet(str(out))
        rows = {r["customer_id"]: r for r in back.collect()}
        # The same partition (a cluster is named by its first row in the
        # parts' order, which the shuffle decided).
        assert partition({i: r["cluster_id"] for i, r in rows.items()}) == partition(SAME)
        assert all(r["cluster_id"] in rows and SAME[r["cluster_id"]] == SAME[i] for i, r in rows.items())
        types = dict(back.dtypes)
        assert types["dob"] == "date" and types["orders"] == "bigint" and types["cluster_size"] == "int"
        assert types["match_weight_max"] == "double"
    finally:
        spark.stop()


def test_normalize_parquet_in_and_out(tmp_path):
    """`ohana normalize` on a Parquet table (issue 46): the columns it
    changed come back as text in their place, checked against the Python
    libraries (nameparser, email-validator, phonenumbers); every other
    column keeps its values and Arrow type; the keys asked for follow."""
    import email_validator
    import nameparser
    import phonenumbers
    original = arrow_table().append_column("phone", pa.array([4155550132 + i for i in range(len(PEOPLE))], pa.int64()))
    emails = [e.upper().replace("EXAMPLE", "Example") if i % 2 else e for i, e in enumerate(original.column("email").to_pylist())]
    original = original.set_column(original.schema.get_field_index("email"), "email", pa.array(emails, pa.string()))
    src, out = tmp_path / "people.parquet", tmp_path / "clean.parquet"
    pq.write_table(original, src)
    ohana("normalize", src, "-o", out, "--comparison-keys", "--map", "phone=phone")
    table = pq.read_table(out)
    assert table.schema.names == original.schema.names + ["email_key"]
    changed = {"surname", "email", "phone"}
    for name in original.schema.names:
        if name in changed:
            assert table.schema.field(name).type == pa.string(), name
            continue
        want, got = original.column(name), table.column(name)
        if pa.types.is_dictionary(want.type):
            want = want.cast(want.type.value_type)
            got = got.cast(got.type.value_type) if pa.types.is_dictionary(got.type) else got
        assert got.type == want.type and got.to_pylist() == want.to_pylist(), name
    for typed, got in zip(original.column("surname").to_pylist(), table.column("surname").to_pylist()):
        h = nameparser.HumanName(f"JOHN {typed}" if typed.isupper() else f"John {typed}")
        if typed.isupper():
            h.capitalize()
        assert got == h.last, (typed, got)
    for typed, got in zip(emails, table.column("email").to_pylist()):
        assert got == email_validator.validate_email(typed, check_deliverability=False).normalized
    for typed, got in zip(original.column("phone").to_pylist(), table.column("phone").to_pylist()):
        want = phonenumbers.format_number(phonenumbers.parse(str(typed), "US"), phonenumbers.PhoneNumberFormat.E164)
        assert got == want
    keys = table.column("email_key").to_pylist()
    assert keys == [e.lower() for e in table.column("email").to_pylist()]
    # Parquet in, CSV out: the same cells.
    csv_out = tmp_path / "clean.csv"
    ohana("normalize", src, "-o", csv_out, "--map", "phone=phone")
    back = list(csv.DictReader(io.StringIO(csv_out.read_text())))
    assert [r["surname"] for r in back] == table.column("surname").to_pylist()
    assert [r["phone"] for r in back] == table.column("phone").to_pylist()


def test_golden_rows_in_parquet_follow_the_survivorship_rules(tmp_path):
    """--golden to Parquet with --survivorship (README "Golden records"):
    the ruled column takes the cell of the member its rule chose (here the
    longest name, written by hand below); a column no rule changed keeps
    its values and Arrow type."""
    people = PEOPLE + [("c-9", "Aiko Mei", "Tanaka", None, "Osaka", "aiko.tanaka@example.jp", 19)]
    cols = list(zip(*people))
    original = pa.table({
        "customer_id": pa.array(cols[0], pa.string()),
        "first_name": pa.array(cols[1], pa.string()),
        "surname": pa.array(cols[2], pa.string()),
        "dob": pa.array(cols[3], pa.date32()),
        "email": pa.array(cols[5], pa.string()),
        "orders": pa.array(cols[6], pa.int64()),
    })
    src = tmp_path / "people.parquet"
    pq.write_table(original, src)
    rules = tmp_path / "rules.txt"
    rules.write_text("name=longest\n")
    golden = tmp_path / "golden.parquet"
    ohana("dedupe", src, "-o", tmp_path / "rows.parquet", "--golden", golden, "--survivorship", rules)
    table = pq.read_table(golden)
    rows = {r["customer_id"]: r for r in table.to_pylist()}
    clusters = dict(zip(pq.read_table(tmp_path / "rows.parquet").column("customer_id").to_pylist(),
                        pq.read_table(tmp_path / "rows.parquet").column("cluster_id").to_pylist()))
    assert clusters["c-9"] == clusters["c-8"], "the two Tanaka rows are one person (same e-mail and city)"
    # "Aiko Tanaka" (c-8, the first row) against "Aiko Mei Tanaka" (c-9):
    # the longer name wins.
    assert rows["c-8"]["first_name"] == "Aiko Mei"
    # ...and says which member gave it: the name's columns, from c-9.
    assert rows["c-8"]["golden_sources"] == "first_name=c-9;surname=c-9"
    assert rows["c-1"]["golden_sources"] is None
    # Other clusters: their first row's cells (the names are as long).
    assert rows["c-1"]["first_name"] == "Margaret" and rows["c-2"]["first_name"] == "Oskar"
    assert table.schema.field("dob").type == pa.date32() and table.schema.field("orders").type == pa.int64()
    assert rows["c-1"]["dob"] == datetime.date(1961, 3, 14) and rows["c-8"]["orders"] == 19
