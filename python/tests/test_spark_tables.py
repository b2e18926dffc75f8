"""The Spark job on a table in its own columns (issue 44, item 7):
`ohana.spark.dedupe_table` on a DataFrame and on a Parquet path, against
the one-machine `ohana dedupe people.csv -o rows.csv` on the same table
written by Python's csv module. The oracles: the command line's rows
(read back with csv: the cluster of every row, its size and weights), and
the input itself (pyarrow: every column comes back with its values and
type).

Needs PySpark and a Java runtime, as test_spark.py (OHANA_SKIP_SPARK=1
skips, and says so)."""

import csv
import math
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import run_cli

if os.environ.get("OHANA_SKIP_SPARK") == "1":
    pytest.skip("OHANA_SKIP_SPARK=1: the Spark table tests are NOT run", allow_module_level=True)

import pyspark  # noqa: E402,F401  (a missing PySpark fails here, loudly)

from ohana import OhanaError  # noqa: E402
from ohana import spark as ospark  # noqa: E402

APPENDED = ["cluster_id", "cluster_size", "match_weight_min", "match_weight_max"]


def people(cli, tmp_path, contacts=1500, seed=41):
    """A customer table in the user's own column names, made from a
    generated book (the engine's CSV, columns renamed and picked as a CRM
    export would have them), with a typed column (`visits`, int64) and a
    date column (`signed_up`) the engine does not model."""
    book = tmp_path / "book.vcf"
    run_cli(cli, "generate", "--contacts", str(contacts), "--seed", str(seed), "--dup-rate", "0.25", "-o", str(book))
    ours = tmp_path / "book.csv"
    run_cli(cli, "convert", str(book), "-o", str(ours))
    with open(ours, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    pick = [("customer_id", "uid"), ("first_name", "givenName"), ("surname", "familyName"), ("dob", "birthday"),
            ("email", "email 1 value"), ("mobile", "phone 1 value"), ("city", "address 1 locality"),
            ("zip", "address 1 postalCode")]
    cols = {mine: [r[theirs] or None for r in rows] for mine, theirs in pick}
    # Awkward cells the staging text must carry whole: a comma, a quote and
    # a line break in a name.
    cols["surname"][3] = 'O"Neil, Jr.\nthe second'
    import datetime

    # Distinct on every row, so that no comparison is made of them on
    # either side (the one machine compares a table's repeating columns,
    # the job not yet: Spark.md).
    cols["visits"] = [i * 3 for i in range(len(rows))]
    cols["signed_up"] = [datetime.date(2020, 1, 1) + datetime.timedelta(days=i % 900) for i in range(len(rows))]
    return pa.table({k: pa.array(v) for k, v in cols.items()})


def one_machine(cli, table: pa.Table, tmp_path):
    """`ohana dedupe people.csv -o rows.csv` (the table as Python's csv
    writes it): per customer_id, (cluster_id, size, weight min, max)."""
    path = tmp_path / "people.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(table.column_names)
        for r in table.to_pylist():
            w.writerow(["" if v is None else str(v) for v in r.values()])
    out = tmp_path / "rows.csv"
    subprocess.run([str(cli), "dedupe", str(path), "-o", str(out), "-q"], check=True)
    with open(out, newline="", encoding="utf-8") as f:
        got = list(csv.DictReader(f))

    def weight(s):
        return None if s == "" else float(s)

    return {r["customer_id"]: (r["cluster_id"], int(r["cluster_size"]), weight(r["match_weight_min"]),
                               weight(r["match_weight_max"])) for r in got}


def as_clusters(rows: pa.Table):
    d = rows.to_pydict()
    return {cid: (c, s, wmin, wmax) for cid, c, s, wmin, wmax in
            zip(d["customer_id"], d["cluster_id"], d["cluster_size"], d["match_weight_min"], d["match_weight_max"])}


def same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        ca, sa, mina, maxa = a[k]
        cb, sb, minb, maxb = b[k]
        assert (ca, sa) == (cb, sb), k
        for x, y in ((mina, minb), (maxa, maxb)):
            assert (x is None) == (y is None), k
            if x is not None:
                assert math.isclose(x, y, abs_tol=0.0051), (k, x, y)


def test_a_dataframe_comes_back_as_its_rows_with_the_one_machines_clusters(cli, spark, tmp_path):
    table = people(cli, tmp_path)
    expected = one_machine(cli, table, tmp_path)
    # Two partitions (local[2]): rows are numbered across them in order.
    ordered = spark.createDataFrame(table.to_pandas())
    assert ordered.rdd.getNumPartitions() > 1
    report, rows_df = ospark.dedupe_table(spark, ordered, str(tmp_path / "out"), homes=3)
    rows = pq.read_table(tmp_path / "out" / "rows")
    # Every row back, in order, every column its values and type.
    assert rows.num_rows == table.num_rows
    assert rows.column_names == table.column_names + APPENDED
    for name in table.column_names:
        assert rows.column(name).to_pylist() == table.column(name).to_pylist(), name
    assert rows.schema.field("visits").type == pa.int64()
    assert rows.schema.field("signed_up").type == pa.date32()
    # The same clusters, sizes and weights as the command line's.
    got = as_clusters(rows)
    same(got, expected)
    assert sum(1 for c in got.values() if c[1] > 1) > 100  # duplicates were found: the comparison is not vacuous
    # The mapping, detected once on the driver, is in the report.
    roles = {m["column"]: m["role"] for m in report.mapping}
    assert roles["first_name"] == "given" and roles["surname"] == "family" and roles["customer_id"] == "id"
    assert roles["visits"] is None
    assert rows_df.count() == table.num_rows


def test_a_parquet_path_with_a_mapping_given(cli, spark, tmp_path):
    table = people(cli, tmp_path, contacts=900, seed=42)
    # Names detection cannot read: given through `columns`, as ohana.dedupe(frame, columns=...).
    renamed = table.rename_columns(["kundennr", "vn", "nn", "geb", "mail", "handy", "ort", "plz", "visits", "signed_up"])
    path = tmp_path / "people.parquet"
    pq.write_table(renamed, path)
    cols = {"given": "vn", "family": "nn", "birthday": "geb", "email": "mail", "phone": "handy", "locality": "ort",
            "postcode": "plz"}
    report, _ = ospark.dedupe_table(spark, str(path), str(tmp_path / "out"), columns=cols, id="kundennr")
    rows = pq.read_table(tmp_path / "out" / "rows")
    assert rows.column_names == renamed.column_names + APPENDED
    expected = one_machine(cli, table, tmp_path)
    got = {k: v for k, v in zip(rows.column("kundennr").to_pylist(), zip(
        rows.column("cluster_id").to_pylist(), rows.column("cluster_size").to_pylist(),
        rows.column("match_weight_min").to_pylist(), rows.column("match_weight_max").to_pylist()))}
    same(got, expected)


def test_a_table_with_no_name_email_or_phone_stops(spark, tmp_path):
    df = spark.createDataFrame([("1", "x"), ("2", "y")], "code string, colour string")
    with pytest.raises(OhanaError) as e:
        ospark.dedupe_table(spark, df, str(tmp_path / "out"))
    assert "no column is a name" in str(e.value) and "'code'" in str(e.value)
    assert not (tmp_path / "out" / "rows").exists()


def test_the_command_line_takes_a_table_path(cli, tmp_path):
    table = people(cli, tmp_path, contacts=300, seed=43)
    path = tmp_path / "people.parquet"
    pq.write_table(table, path)
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-m", "ohana.spark", "dedupe", str(path), str(tmp_path / "out"),
         "--master", "local[2]", "--id", "customer_id"],
        capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "rows back in" in done.stderr
    rows = pq.read_table(tmp_path / "out" / "rows")
    same(as_clusters(rows), one_machine(cli, table, tmp_path))
