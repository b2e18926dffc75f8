"""Tables in their own columns from Python (issue 44, item 7):
`ohana.dedupe(frame)` and `ohana.link(left, right)` on pandas, Polars,
pyarrow and DuckDB frames. The oracles: the frames' own construction (who
is who), the input frame itself (every column comes back unchanged), and
the command line run on the same table written as CSV by Python's csv
module (`ohana dedupe people.csv -o out.csv`, read back with csv)."""

import csv
import subprocess

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import ohana

PEOPLE = [
    ["unique_id", "first_name", "surname", "dob", "city", "email", "segment"],
    ["a1", "Margaret", "Hughes", "1961-02-14", "Leeds", "m.hughes@example.com", "gold"],
    ["b1", "Tomasz", "Nowak", "1979-11-03", "York", "tnowak@example.org", "silver"],
    ["a2", "Margaret", "Hughes", "1961-02-14", "Leeds", "M.Hughes@Example.com", None],
    ["c1", "Priya", "Raman", "1990-07-22", "Bath", None, "bronze"],
    ["a3", "Margret", "Hughes", "1961-02-14", "Leeds", "m.hughes@example.com", "gold"],
    ["b2", "Tomasz", "Nowak", "1979-11-03", "York", "tnowak@example.org", None],
    ["d1", "Owen", "Price", "1985-01-30", "Hull", "owen.price@example.net", "silver"],
]
APPENDED = ["cluster_id", "cluster_size", "match_weight_min", "match_weight_max"]


def people_arrow() -> pa.Table:
    header, rows = PEOPLE[0], PEOPLE[1:]
    return pa.table({h: [r[i] for r in rows] for i, h in enumerate(header)})


def frames():
    t = people_arrow()
    yield "pyarrow", t
    yield "pandas", t.to_pandas()
    yield "polars", pl.from_arrow(t)
    con = duckdb.connect()
    yield "duckdb", con.from_arrow(t)


def as_arrow(frame) -> pa.Table:
    if isinstance(frame, pa.Table):
        return frame
    if isinstance(frame, pd.DataFrame):
        return pa.Table.from_pandas(frame, preserve_index=False)
    if isinstance(frame, pl.DataFrame):
        return frame.to_arrow()
    return pa.RecordBatchReader.from_stream(frame).read_all()


@pytest.mark.parametrize("kind", ["pyarrow", "pandas", "polars", "duckdb"])
def test_a_frame_comes_back_as_it_went_in_with_its_clusters(kind):
    frame = dict(frames())[kind]
    out = ohana.dedupe(frame)
    assert type(out).__module__.split(".")[0] == type(frame).__module__.split(".")[0]
    got = as_arrow(out)
    given = as_arrow(frame)
    assert got.column_names == given.column_names + APPENDED
    for name in given.column_names:
        assert got.column(name).to_pylist() == given.column(name).to_pylist(), name
    cluster = dict(zip(got.column("unique_id").to_pylist(), got.column("cluster_id").to_pylist()))
    assert cluster == {"a1": "a1", "a2": "a1", "a3": "a1", "b1": "b1", "b2": "b1", "c1": "c1", "d1": "d1"}
    size = dict(zip(got.column("unique_id").to_pylist(), got.column("cluster_size").to_pylist()))
    assert size["a2"] == 3 and size["b2"] == 2 and size["d1"] == 1
    low = dict(zip(got.column("unique_id").to_pylist(), got.column("match_weight_min").to_pylist()))
    assert low["d1"] is None and low["a1"] is not None


def registry():
    """300 people, two records each (the second with a typo in the given
    name and no e-mail), an occupation out of 6: 600 rows, so weights are
    fitted (as for the command line)."""
    given = ["Margaret", "Tomasz", "Priya", "Owen", "Aisha", "Lukas", "Ines", "Kenji", "Maeve", "Rafael"]
    family = ["Hughes", "Nowak", "Raman", "Price", "Okafor", "Brandt", "Silva", "Tanaka", "Byrne", "Costa",
              "Weber", "Moreau", "Lindqvist", "Haddad", "Ferreira", "Novak", "Jensen", "Rossi", "Dubois", "Keller",
              "Murphy", "Sato", "Kaya", "Horvat", "Nielsen", "Garcia", "Ivanova", "Mensah", "Berg", "Costa"]
    jobs = ["nurse", "teacher", "welder", "clerk", "chef", "pilot"]
    rows = [["rec", "Vorname", "Nachname", "Geburtsdatum", "email", "Beruf"]]
    for p in range(300):
        g, f = given[p % 10], family[p // 10]
        dob = f"{1930 + p // 12:04d}-{1 + p % 12:02d}-{1 + (p * 7) % 28:02d}"
        rows.append([f"r{p}-0", g, f, dob, f"{g.lower()}.{f.lower()}{p}@example.org", jobs[p % 6]])
        rows.append([f"r{p}-1", g[:-1] + "y", f, dob, None, jobs[p % 6]])
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])


def test_the_frame_route_is_the_command_lines(tmp_path, cli):
    rows = registry()
    path = tmp_path / "people.csv"
    write_csv(path, rows)
    subprocess.run([str(cli), "dedupe", str(path), "-o", str(tmp_path / "out.csv"), "-q"], check=True)
    with open(tmp_path / "out.csv", newline="", encoding="utf-8") as f:
        expected = list(csv.reader(f))
    frame = pd.DataFrame(rows[1:], columns=rows[0])
    out = ohana.dedupe(frame)
    assert list(out["cluster_id"]) == [r[6] for r in expected[1:]]
    assert [str(s) for s in out["cluster_size"]] == [r[7] for r in expected[1:]]
    # And who is who, from the construction: every person's two records.
    assert all(out["cluster_id"][2 * p + 1] == f"r{p}-0" for p in range(300))


def test_columns_and_id_map_what_detection_cannot():
    t = pa.table({"key": ["x1", "x2", "x3"], "a": ["Ann", "Ann", "Bo"], "b": ["Lee", "Lee", "Ng"],
                  "c": ["1961-02-14", "1961-02-14", "1970-05-01"]})
    with pytest.raises(ohana.OhanaError) as e:
        ohana.dedupe(t)
    assert e.value.code == ohana.ErrorCode.INVALID_INPUT
    assert "'key', 'a', 'b', 'c'" in str(e.value)
    out = ohana.dedupe(t, columns={"given": "a", "family": "b", "birthday": "c"}, id="key")
    assert out.column("cluster_id").to_pylist() == ["x1", "x1", "x3"]
    mapping = ohana.show_mapping(t, columns={"given": "a"}, id="key")
    assert mapping[:3] == [("key", "id", "given"), ("a", "given", "given"), ("b", None, "unmapped")]


def test_link_matches_across_and_agrees_with_the_command_line(tmp_path, cli):
    rows = registry()
    left = [rows[0]] + [r for r in rows[1:] if r[0].endswith("-0")]
    right = [["ref", "fname", "lname", "birth_date", "mail", "job"]] + [
        r for r in rows[1:] if r[0].endswith("-1") and int(r[0][1:].split("-")[0]) < 200]
    write_csv(tmp_path / "a.csv", left)
    write_csv(tmp_path / "b.csv", right)
    subprocess.run([str(cli), "link", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "-o", str(tmp_path / "o.csv"),
                    "-q"], check=True)
    with open(tmp_path / "o.csv", newline="", encoding="utf-8") as f:
        expected = list(csv.reader(f))
    lf = pl.DataFrame(left[1:], schema=left[0], orient="row")
    rf = pa.table({h: [r[i] for r in right[1:]] for i, h in enumerate(right[0])})
    lo, ro = ohana.link(lf, rf)
    assert isinstance(lo, pl.DataFrame) and isinstance(ro, pa.Table)
    assert lo["match_id"].to_list() == [r[7] or None for r in expected[1:]]
    assert lo["cluster_id"].to_list() == [r[6] for r in expected[1:]]
    # From the construction: person p's left record r{p}-0 and right r{p}-1.
    found = sum(1 for rec, m in zip(lo["rec"].to_list(), lo["match_id"].to_list())
                if m == rec[:-1] + "1")
    assert found >= 190
    assert ro.column("match_count").to_pylist().count(1) >= 190


def test_parquet_through_pyarrow_keeps_its_types(tmp_path):
    """Parquet from Python is pyarrow's: a typed table read with
    `pq.read_table` comes back with every column's type and values, the
    cluster columns appended, and is written again with `pq.write_table`."""
    import datetime

    import pyarrow.parquet as pq

    t = people_arrow()
    typed = t.set_column(3, "dob", pa.array([datetime.date.fromisoformat(d) for d in t.column("dob").to_pylist()], pa.date32()))
    typed = typed.append_column("orders", pa.array(range(typed.num_rows), pa.int64()))
    pq.write_table(typed, tmp_path / "people.parquet")
    out = ohana.dedupe(pq.read_table(tmp_path / "people.parquet"))
    pq.write_table(out, tmp_path / "out.parquet")
    back = pq.read_table(tmp_path / "out.parquet")
    assert back.schema.names == typed.schema.names + APPENDED
    for name in typed.schema.names:
        assert back.schema.field(name).type == typed.schema.field(name).type, name
        assert back.column(name).to_pylist() == typed.column(name).to_pylist(), name
    cluster = dict(zip(back.column("unique_id").to_pylist(), back.column("cluster_id").to_pylist()))
    assert cluster == {"a1": "a1", "a2": "a1", "a3": "a1", "b1": "b1", "b2": "b1", "c1": "c1", "d1": "d1"}
