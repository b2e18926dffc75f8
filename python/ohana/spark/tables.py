"""Tables in their own columns on Spark (issue 44, item 7): a DataFrame, or
a Parquet, CSV or NDJSON table path, deduped with the column mapping that
`ohana dedupe people.csv` and `ohana.dedupe(frame)` use, and handed back as
the user's own rows with the cluster columns appended.

How it runs, and why:
- Every row gets its number (`_ohana_row`, 0-based in the DataFrame's
  order: per partition counts, then offsets; no Python row objects).
- The mapping is chosen once, on the driver, from the table's first 200
  rows (the same sample `ohana dedupe` reads its detection from), merged
  with `columns` and `id` as given. Every part is then read with that
  mapping and detection off, so two parts can never map a column
  differently.
- The engine reads a text view of the table: every column as a string,
  dates and timestamps as ISO dates, nested and binary columns empty (as
  `ohana.dedupe(frame)` does). Spark writes it as CSV part files into a
  staging folder under the output (RFC 4180 quoting), removed afterwards.
  In it the row number is the engine's id, so each contact names its row;
  the user's own id column labels the clusters.
- The dedupe is `job.dedupe` on those parts: the same stages, the same
  answer as on one machine (on the columns the job compares; see
  Spark.md).
- The rows come back from the DataFrame itself, never from the text:
  every column keeps its values and type. Appended: `cluster_id` (the
  user's id of the cluster's first row, else `row-N`), `cluster_size`,
  `match_weight_min`, `match_weight_max` (the weakest and strongest pair
  that joined the cluster; null for a row alone), as `ohana dedupe
  table -o rows.csv` appends them. A name the table already uses gets
  `ohana_` in front. Written to `OUTPUT_DIR/rows/` (Parquet), in the
  table's row order.
"""

from __future__ import annotations

import csv
import io
import os
import uuid
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import pyarrow.fs as pafs

from .. import ErrorCode, OhanaError
from .. import _tables
from . import job, output

__all__ = ["dedupe_table", "load_table", "table_mapping", "mapping_text", "ROW", "APPENDED"]

ROW = "_ohana_row"
APPENDED = ["cluster_id", "cluster_size", "match_weight_min", "match_weight_max"]
SAMPLE_ROWS = 200

Columns = Optional[Mapping[str, Union[str, Sequence[str]]]]


def _by_name(name: str) -> Optional[str]:
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return {"parquet": "parquet", "pq": "parquet", "csv": "csv", "tsv": "tsv", "ndjson": "ndjson",
            "jsonl": "ndjson", "json": "ndjson"}.get(ext)


def table_kind(path: str) -> Optional[str]:
    """`parquet`, `csv`, `tsv` or `ndjson`: a file by its extension (or
    Parquet's magic bytes), a folder by the first of its files that has one
    (Spark's and DuckDB's part files; hidden and `_` names left out); None
    for anything else (a folder of vCards)."""
    if "://" in path:
        return _by_name(path.rstrip("/")) or "parquet"
    if os.path.isdir(path):
        for root, dirs, files in sorted(os.walk(path)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
            for f in sorted(files):
                if not f.startswith((".", "_")):
                    kind = _by_name(f) or _magic(os.path.join(root, f))
                    if kind:
                        return kind
        return None
    return _by_name(path) or _magic(path)


def _magic(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as f:
            return "parquet" if f.read(4) == b"PAR1" else None
    except OSError:
        return None


def load_table(spark, table: Any):
    """`table` as a DataFrame: a DataFrame as it is; a path (or paths) to a
    Parquet file or folder, a CSV with a header (every column a string) or
    NDJSON."""
    from pyspark.sql import DataFrame

    if isinstance(table, DataFrame):
        return table
    paths = [table] if isinstance(table, str) else [str(p) for p in table]
    if not paths:
        raise OhanaError(ErrorCode.ARGUMENT, None, "no table given")
    kinds = {table_kind(p) for p in paths}
    if None in kinds:
        raise OhanaError(ErrorCode.FORMAT, None, f"not a table (Parquet, CSV, TSV or NDJSON): {', '.join(p for p in paths if table_kind(p) is None)}")
    if len(kinds) != 1:
        raise OhanaError(ErrorCode.ARGUMENT, None, f"one table at a time: the paths hold {', '.join(sorted(map(str, kinds)))}")
    kind = kinds.pop()
    if kind == "parquet":
        return spark.read.parquet(*paths)
    if kind == "ndjson":
        return spark.read.json(paths)
    return (spark.read.option("header", True).option("multiLine", True).option("escape", '"')
            .option("sep", "\t" if kind == "tsv" else ",").option("inferSchema", False).csv(paths))


def _name(c: str) -> str:
    return "`" + c.replace("`", "``") + "`"


def _text_view(df):
    """Every column of `df` as a string for the engine (see the module's
    notes), in the table's order and under its names; the row number
    (`_ohana_row`) stays a number."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    cols = []
    for f in df.schema.fields:
        c = F.col(_name(f.name))
        t = f.dataType
        if f.name == ROW or isinstance(t, T.StringType):
            cols.append(c.alias(f.name))
        elif isinstance(t, (T.DateType, T.TimestampType, T.TimestampNTZType)):
            cols.append(F.date_format(c, "yyyy-MM-dd").alias(f.name))
        elif isinstance(t, (T.ArrayType, T.MapType, T.StructType, T.BinaryType)):
            cols.append(F.lit(None).cast("string").alias(f.name))
        else:
            cols.append(c.cast("string").alias(f.name))
    return df.select(*cols)


def _numbered(df):
    """`df` with `_ohana_row`: each row's number in the DataFrame's order
    (partition by partition), from partition counts and offsets."""
    from pyspark.sql import functions as F

    tagged = df.withColumn("_ohana_pid", F.spark_partition_id()).withColumn("_ohana_mid", F.monotonically_increasing_id())
    counts = dict(tagged.groupBy("_ohana_pid").count().collect())
    offsets: Dict[int, int] = {}
    running = 0
    for pid in sorted(counts):
        offsets[pid] = running
        running += counts[pid]
    spark = df.sparkSession
    offset_df = spark.createDataFrame([(p, o) for p, o in offsets.items()] or [(0, 0)], "_ohana_pid int, _ohana_off long")
    # monotonically_increasing_id: the partition in the upper 31 bits, the
    # row within it in the lower 33.
    local = F.col("_ohana_mid").bitwiseAND(F.lit((1 << 33) - 1))
    out = tagged.join(F.broadcast(offset_df), "_ohana_pid").withColumn(ROW, F.col("_ohana_off") + local)
    return out.drop("_ohana_pid", "_ohana_mid", "_ohana_off")


def _csv_text(names: List[str], rows: List[List[Optional[str]]]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(names)
    for r in rows:
        w.writerow(["" if v is None else v for v in r])
    return buf.getvalue().encode("utf-8")


def table_mapping(view, columns: Columns = None, id: Optional[str] = None,
                  columns_file: Optional[str] = None) -> List[Tuple[str, Optional[str], str]]:
    """How each column of the text view `view` (with `_ohana_row`) maps:
    `(column, role or None, how)`, decided by the engine on the first
    rows, as `ohana dedupe --show-mapping` decides it."""
    from pyspark.sql import functions as F

    names = [c for c in view.columns if c != ROW]
    sample = view.filter(F.col(ROW) < SAMPLE_ROWS).orderBy(ROW).select(*[_name(c) for c in names]).collect()
    data = _csv_text(names, [list(r) for r in sample])
    given = _tables._mapping_text(columns, id)
    if columns_file is not None:
        given = columns_file.encode() + b"\n" + (given or b"")
    _, sides = _tables._match(data, given, None, None, b"mode=mapping")
    return sides[0]


def mapping_text(mapping: Sequence[Tuple[str, Optional[str], str]]) -> str:
    """The mapping every part is read with: each mapped column's role, the
    row number as the id, detection off (the driver decided)."""
    lines = []
    for column, role, _ in mapping:
        if role is None or role == "id":
            continue
        if "," in column or "\n" in column:
            raise OhanaError(ErrorCode.ARGUMENT, None,
                             f"column {column!r}: a mapped column's name cannot hold a comma or a line end; rename it")
        lines.append(f"{role}={column}")
    lines.append(f"id={ROW}")
    lines.append("detect=off")
    return "\n".join(lines) + "\n"


def dedupe_table(
    spark, table: Any, output_dir: str, *, columns: Columns = None, id: Optional[str] = None,
    columns_file: Optional[str] = None, region: str = "US",
    threshold: Optional[float] = None, weights: str = "auto", blocking: str = "all", max_block: int = 50,
    partitions: Optional[int] = None, homes: Optional[int] = None,
) -> Tuple[job.SparkReport, Any]:
    """Dedupes the table `table` (a DataFrame, or a Parquet, CSV or NDJSON
    path) on `spark` with `columns` (`{role: column or [columns]}`, as
    `ohana.dedupe(frame, columns=...)`; the other columns detected) and
    `id` (the id column); `columns_file`: a `--columns` file's text, read
    before them. Writes `OUTPUT_DIR/rows/` (Parquet: the table's
    rows with the cluster columns appended, see the module's notes) beside
    the job's outputs (`clusters/`, whose `uid` is the row number, `merged/`,
    `pairs/`, `report.json` with the mapping), and returns the report and
    the rows as a DataFrame. A table with no name, e-mail or phone column
    stops with OhanaError (exit 65 from the command line), naming its
    columns."""
    from pyspark import StorageLevel

    df = load_table(spark, table)
    if ROW in df.columns:
        raise OhanaError(ErrorCode.ARGUMENT, None, f"the table has a column named {ROW}, which the job uses for row numbers")
    numbered = _numbered(df).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        texts = _text_view(numbered)
        mapping = table_mapping(texts, columns, id, columns_file)
        if not any(role in ("name", "given", "family", "email") or (role or "").startswith("phone") for _, role, _ in mapping):
            seen = ", ".join(f"'{c}'" for c, _, _ in mapping[:12])
            raise OhanaError(
                ErrorCode.FORMAT, None,
                f"the table: no column is a name, an e-mail or a phone, so no contact can be told from another "
                f"(columns: {seen}); map them, for example columns={{\"given\": \"{mapping[0][0] if mapping else 'COLUMN'}\"}}")
        id_column = next((c for c, role, _ in mapping if role == "id"), None)
        staging = f"{output_dir.rstrip('/')}/_ohana-table-{uuid.uuid4().hex}"
        try:
            ordered = texts.select(ROW, *[_name(c) for c in texts.columns if c != ROW]).orderBy(ROW)
            (ordered.write.mode("overwrite").option("header", True).option("quote", '"').option("escape", '"')
             .option("ignoreLeadingWhiteSpace", False).option("ignoreTrailingWhiteSpace", False)
             .option("lineSep", "\n").option("encoding", "UTF-8").csv(staging))
            fs, root = output.filesystem(staging)
            listed = fs.get_file_info(pafs.FileSelector(root))
            parts = sorted(i.path for i in listed if os.path.basename(i.path).startswith("part-") and i.size)
            if "://" in staging:
                scheme = staging.split("://", 1)[0]
                parts = [f"{scheme}://{p}" for p in parts]
            report = job.dedupe(spark, parts, output_dir, region=region, threshold=threshold, weights=weights,
                                blocking=blocking, max_block=max_block, partitions=partitions, homes=homes,
                                mapping=mapping_text(mapping)) if parts else None
        finally:
            fs, root = output.filesystem(staging)
            if fs.get_file_info(root).type != pafs.FileType.NotFound:
                fs.delete_dir(root)
        if report is None:
            raise OhanaError(ErrorCode.FORMAT, None, "the table has no rows")
        rows = _rows_back(spark, numbered, texts, id_column, output_dir)
        rows_dir = f"{output_dir.rstrip('/')}/rows"
        rows.write.mode("overwrite").parquet(rows_dir)
    finally:
        numbered.unpersist()
    report.inputs = [table] if isinstance(table, str) else [str(p) for p in table] if isinstance(table, (list, tuple)) else ["DataFrame"]
    report.mapping = [{"column": c, "role": r, "how": h} for c, r, h in mapping]
    report.rows = rows_dir
    fs, root = output.filesystem(output_dir)
    with fs.open_output_stream(f"{root}/report.json") as f:
        f.write((report.to_json() + "\n").encode())
    return report, spark.read.parquet(rows_dir)


def _rows_back(spark, numbered, texts, id_column: Optional[str], output_dir: str):
    """The table's rows in order with the cluster columns appended."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    base = output_dir.rstrip("/")
    clusters = spark.read.parquet(f"{base}/clusters").select(
        F.col("uid").cast("long").alias(ROW), F.col("cluster_id").cast("long").alias("_ohana_first"))
    fs, root = output.filesystem(f"{base}/pairs")
    info = fs.get_file_info(pafs.FileSelector(root, allow_not_found=True))
    if any(i.size for i in info):
        schema = T.StructType([T.StructField("cluster", T.StringType()), T.StructField("weight", T.DoubleType())])
        pairs = spark.read.schema(schema).json(f"{base}/pairs")
        weights = pairs.groupBy(F.col("cluster").cast("long").alias("_ohana_first")).agg(
            F.min("weight").alias("_ohana_wmin"), F.max("weight").alias("_ohana_wmax"))
    else:
        weights = spark.createDataFrame([], "_ohana_first long, _ohana_wmin double, _ohana_wmax double")
    # A row the engine did not read (a cell past its limits) is a cluster of one.
    joined = numbered.join(clusters, ROW, "left").withColumn("_ohana_first", F.coalesce("_ohana_first", ROW))
    sizes = joined.groupBy("_ohana_first").agg(F.count(F.lit(1)).cast("int").alias("_ohana_size"))
    if id_column is not None:
        ids = texts.select(F.col(ROW).alias("_ohana_first"), F.col(_name(id_column)).alias("_ohana_idtext"))
    else:
        ids = texts.select(F.col(ROW).alias("_ohana_first"), F.lit(None).cast("string").alias("_ohana_idtext"))
    labels = ids.withColumn("_ohana_label", F.coalesce(
        F.when(F.length("_ohana_idtext") > 0, F.col("_ohana_idtext")),
        F.concat(F.lit("row-"), (F.col("_ohana_first") + 1).cast("string")))).drop("_ohana_idtext")
    out = (joined.join(sizes, "_ohana_first").join(labels, "_ohana_first").join(weights, "_ohana_first", "left")
           .orderBy(ROW))
    used = set(numbered.columns)
    own = [_name(c) for c in numbered.columns if c != ROW]

    def named(n: str) -> str:
        return "ohana_" + n if n in used else n

    size = F.col("_ohana_size")
    return out.select(
        *own,
        F.col("_ohana_label").alias(named("cluster_id")),
        size.alias(named("cluster_size")),
        F.when(size > 1, F.col("_ohana_wmin")).alias(named("match_weight_min")),
        F.when(size > 1, F.col("_ohana_wmax")).alias(named("match_weight_max")),
    )
