"""Ohana on Apache Spark: dedupe and normalization past one machine.

The engine does the per-record and per-block work inside Spark tasks
(`mapInArrow`); Spark does the shuffles between them:

1. read: input files (vCard, CSV, NDJSON; a large NDJSON file is cut into
   pieces at line ends) are spread over tasks; each task reads its piece
   with the engine and emits, per contact, its record (the contact as one
   NDJSON line), its blocking keys and what the scorer needs;
2. candidate pairs: the keys are exploded and self-joined in Spark SQL
   with the one machine's block cap (a block over the cap pairs only rows
   sharing the name-and-phone neighbourhood key, each with its next 4);
   the sorted neighbourhood over names is a global sort;
3. scoring: each pair is joined with its two records and scored by the
   engine; with EM the comparison vectors are counted over all pairs and
   the model fitted once, on the driver, by the engine's EM; term
   frequencies are counted over all contacts;
4. clusters: connected components of the accepted pairs in Spark SQL
   (alternating large-star / small-star), then, per batch of whole
   components, the chaining guard and the merge by the engine;
5. write: merged contacts and `uid, cluster_id` as Parquet (NDJSON on
   request), the joined pairs with their evidence, and `report.json`.

Every piece is the one-machine `ohana dedupe`'s own code, and contacts keep
their input order (`gid`: input file, then line) wherever the one machine
breaks ties by row, so the clusters equal one machine's (see README
"More than one machine" for what is measured).

    python -m ohana.spark dedupe INPUT... OUTPUT_DIR [--region US] [--ndjson]
    python -m ohana.spark normalize INPUT... OUTPUT_DIR [--region US]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _ffi
from . import ContactTable, OhanaError, _check

CONTACT_EXTENSIONS = {
    "vcf": "vcard", "vcard": "vcard", "vcards": "vcard", "csv": "csv", "ndjson": "ndjson", "jsonl": "ndjson", "json": "ndjson",
}
# Lines of an input file fit in 40 bits; the file index takes the bits above.
LINE_BITS = 40
# Rows per Arrow batch handed back to Spark.
BATCH_ROWS = 8192
# Contacts per engine call when scoring or merging.
MERGE_BATCH = 20000
SPACE = 1 << 18  # ComparisonVector.space


# -- Inputs ----------------------------------------------------------------------

def _format_of(path: str) -> Optional[str]:
    ext = path.rsplit(".", 1)[-1].lower() if "." in os.path.basename(path) else ""
    return CONTACT_EXTENSIONS.get(ext)


def list_inputs(inputs: Sequence[str]) -> list[str]:
    """The contact files of `inputs` in the order `ohana dedupe` reads
    them: files as given; directories walked recursively in name order,
    hidden names skipped, a directory met again through a link walked once."""
    out: list[str] = []
    seen: set[tuple[int, int]] = set()

    def walk(d: str) -> None:
        st = os.stat(d)
        if (st.st_dev, st.st_ino) in seen:
            return
        seen.add((st.st_dev, st.st_ino))
        for name in sorted(os.listdir(d)):
            if name.startswith("."):
                continue
            p = d + name if d.endswith("/") else d + "/" + name
            try:
                if os.path.isdir(p):
                    walk(p)
                elif os.path.isfile(p) and _format_of(p):
                    out.append(p)
            except OSError:
                continue

    for arg in inputs:
        if os.path.isdir(arg):
            walk(arg)
        elif os.path.isfile(arg):
            out.append(arg)
        else:
            raise OhanaError(1, None, f"{arg}: no such file or directory")
    return out


@dataclass(frozen=True)
class Split:
    """A piece of an input: a whole file, or bytes [start, end) of an NDJSON
    file (owning the lines that begin in it)."""

    file: int
    path: str
    format: str
    start: int
    end: int
    whole: bool


def plan_splits(files: Sequence[str], split_bytes: int) -> list[Split]:
    splits = []
    for i, path in enumerate(files):
        fmt = _format_of(path) or "vcard"
        size = os.path.getsize(path)
        if fmt == "ndjson" and size > split_bytes:
            for s in range(0, size, split_bytes):
                splits.append(Split(i, path, fmt, s, min(size, s + split_bytes), False))
        else:
            splits.append(Split(i, path, fmt, 0, size, True))
    return splits


def _read_piece(split: Split, first_lines: dict) -> tuple[bytes, int]:
    """The bytes of a split's own lines and the line number of the first."""
    with open(split.path, "rb") as f:
        if split.whole:
            return f.read(), 1
        start = split.start
        if start > 0:
            f.seek(start - 1)
            head = f.read(1)
            if head != b"\n":
                f.readline()  # the line that began in the previous piece
            start = f.tell()
        if start >= split.end:
            return b"", 1
        data = f.read(split.end - start)
        if not data.endswith(b"\n"):
            data += f.readline()  # the last line runs past the end
        return data, first_lines[(split.file, split.start)]


def _read_split(split: Split, first_lines: dict, source: Optional[str]) -> ContactTable:
    """A split read by the engine; an input it cannot read raises
    OhanaError naming the path (`line N: path: reason`)."""
    data, first = _read_piece(split, first_lines)
    try:
        return _read_bytes(data, split.format, source, first)
    except OhanaError as e:
        raise OhanaError(e.code, e.line, f"{split.path}: {e.reason}") from None


def _gid(file: int, lines: pa.Array) -> pa.Array:
    """Contacts' ids in input order: the input's index, then the line."""
    return pc.add(pc.shift_left(pa.scalar(file, pa.int64()), pa.scalar(LINE_BITS, pa.int64())), lines)


def _values_by_kind(fields: pa.Table, n: int, kind: str) -> pa.Array:
    """Per contact (0..<n), the values of its fields of `kind` (`phone`, `email`)."""
    f = fields.filter(pc.equal(fields.column("type").cast(pa.string()), kind))
    groups: dict = {}
    for c, v in zip(f.column("contact").to_pylist(), f.column("value").cast(pa.string()).to_pylist()):
        groups.setdefault(c, []).append(v)
    return pa.array([groups.get(i, []) for i in range(n)], pa.list_(pa.string()))


def _line_numbers(spark, splits: Sequence[Split]) -> dict:
    """For every piece of a cut NDJSON file, the line number of its first
    own line (one parallel pass counting line ends)."""
    cut = [s for s in splits if not s.whole]
    if not cut:
        return {}

    def count(s: Split):
        with open(s.path, "rb") as f:
            f.seek(s.start)
            data = f.read(s.end - s.start)
            before = b""
            if s.start > 0:
                f.seek(s.start - 1)
                before = f.read(1)
        return (s.file, s.start, data.count(b"\n"), before == b"\n")

    counts = spark.sparkContext.parallelize(cut, max(1, len(cut))).map(count).collect()
    counts.sort()
    out, running, last_file = {}, 0, None
    for file, start, n, after_newline in counts:
        if file != last_file:
            running, last_file = 0, file
        # Lines before the first own line: the line ends before `start`,
        # plus the one that ends the line begun in the previous piece.
        out[(file, start)] = 1 if start == 0 else running + (1 if after_newline else 2)
        running += n
    return out


# -- Engine calls ----------------------------------------------------------------

def _settings(region: str, threshold: Optional[float], weights: str, blocking: str, max_block: int) -> str:
    parts = [f"region={region}", f"weights={weights}", f"blocking={blocking}", f"max_block={max_block}"]
    if threshold is not None:
        parts.append(f"threshold={threshold!r}")
    return ";".join(parts)


def _read_bytes(data: bytes, fmt: str, source: Optional[str], first_line: int) -> ContactTable:
    out = ctypes.c_void_p()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_read_bytes(data, len(data), fmt.encode(), None if source is None else source.encode(), first_line, 0, ctypes.byref(out), ctypes.byref(err))
    _check(rc, err)
    return ContactTable(out.value)


def _prepare(table: ContactTable, settings: Optional[str], start: int, count: int) -> pa.RecordBatch:
    structs = _ffi.Structs()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_link_prepare(
        table._handle, None if settings is None else settings.encode(), start, count, int(settings is not None),
        structs.schema_ptr, structs.array_ptr, ctypes.byref(err))
    _check(rc, err)
    return pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)


def _records_table(records: Sequence[str]) -> ContactTable:
    data = ("\n".join(records) + "\n").encode() if records else b""
    return _read_bytes(data, "ndjson", None, 1)


def _ptr(a: Optional[np.ndarray]):
    return None if a is None else a.ctypes.data_as(ctypes.c_void_p)


def model(settings: str, counts: Optional[np.ndarray] = None) -> tuple[str, np.ndarray, bool]:
    """The built-in model (counts None) or EM's fit to `counts`: (model
    text, weight per comparison vector as float32, plausible)."""
    text = ctypes.create_string_buffer(1 << 16)
    weights = np.zeros(SPACE, dtype=np.float32)
    plausible = ctypes.c_int32(1)
    err = _ffi.new_error()
    c = None if counts is None else np.ascontiguousarray(counts, dtype=np.int64)
    rc = _ffi.lib.ohana_link_model(settings.encode(), _ptr(c), SPACE, text, len(text), _ptr(weights), ctypes.byref(plausible), ctypes.byref(err))
    _check(rc, err)
    return text.value.decode(), weights, bool(plausible.value)


@dataclass(frozen=True)
class Plan:
    estimates: bool
    threshold: float
    skip: list


def _plan(settings: str, n: int, with_phone_or_email: int) -> Plan:
    """What the one machine decides before scoring: EM or not, the
    threshold, and the typo-tolerant rules' skip per pair of contact classes."""
    est = ctypes.c_int32()
    th = ctypes.c_double()
    skip = (ctypes.c_int8 * 16)()
    err = _ffi.new_error()
    _check(_ffi.lib.ohana_link_plan(settings.encode(), n, with_phone_or_email, ctypes.byref(est), ctypes.byref(th), skip, ctypes.byref(err)), err)
    return Plan(bool(est.value), float(th.value), [bool(x) for x in skip])


# -- Spark stages ------------------------------------------------------------------

READ_FIELDS = ["kind", "gid", "file", "uid", "line", "record", "keys", "neighbourhood", "name_order", "class", "tf_family", "tf_given"]
READ_ARROW = pa.schema([
    ("kind", pa.int32()), ("gid", pa.int64()), ("file", pa.int32()), ("uid", pa.string()), ("line", pa.int64()),
    ("record", pa.string()), ("keys", pa.list_(pa.int64())), ("neighbourhood", pa.int64()), ("name_order", pa.int64()),
    ("class", pa.int32()), ("tf_family", pa.int64()), ("tf_given", pa.int64()),
])


def _batch(arrays: list, schema: pa.Schema) -> pa.RecordBatch:
    """A batch of exactly `schema` (Spark wants every batch of a task alike)."""
    return pa.RecordBatch.from_arrays([a.cast(f.type) for a, f in zip(arrays, schema)], schema=schema)


PREPARED_SCHEMA = (
    "kind int, gid long, file int, uid string, line long, record string, keys array<long>, "
    "neighbourhood long, name_order long, class int, tf_family long, tf_given long"
)


def _read_stage(splits: Sequence[Split], first_lines: dict, settings: str):
    """mapInArrow function: each split row → its contacts (kind 0) and the
    reader's problems (kind 1: `line`, and `record` holds `{"severity",
    "reason"}` as JSON)."""

    # As `ohana dedupe`: contacts name their input (`source`) when there are several.
    several = len({s.file for s in splits}) > 1

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            for i in b.column("split").to_pylist():
                s = splits[i]
                t = _read_split(s, first_lines, s.path if several else None)
                n = len(t)
                for start in range(0, n, BATCH_ROWS):
                    p = _prepare(t, settings, start, min(BATCH_ROWS, n - start))
                    gid = _gid(s.file, p.column("line"))
                    m = p.num_rows
                    yield _batch(
                        [pa.array([0] * m, pa.int32()), gid, pa.array([s.file] * m, pa.int32())]
                        + [p.column(c) for c in READ_FIELDS[3:]], READ_ARROW)
                problems = t.problems
                if problems:
                    k = len(problems)
                    yield _batch(
                        [pa.array([1] * k, pa.int32()), pa.array([-1] * k, pa.int64()), pa.array([s.file] * k, pa.int32()),
                         pa.nulls(k, pa.string()), pa.array([p.line for p in problems], pa.int64()),
                         pa.array([json.dumps({"severity": p.severity, "reason": _reason(p)}) for p in problems], pa.string()),
                         pa.nulls(k, pa.list_(pa.int64())), pa.nulls(k, pa.int64()), pa.nulls(k, pa.int64()),
                         pa.nulls(k, pa.int32()), pa.nulls(k, pa.int64()), pa.nulls(k, pa.int64())], READ_ARROW)
    return run


def _task_error(e: Exception) -> Exception:
    """The engine's error inside a failed Spark task, as an OhanaError
    (`line N: path: reason`), or `e` itself when it is not one."""
    import re

    m = re.search(r"ohana\.OhanaError: (?:line (\d+): )?([^\n]*)", str(e))
    if not m:
        return e
    return OhanaError(2, int(m.group(1)) if m.group(1) else None, m.group(2).strip())


def _reason(p) -> str:
    """A problem's reason without the `source:line: ` its text starts with."""
    parts = p.text.split(f":{p.line}: ", 1)
    return parts[1] if len(parts) == 2 else p.text


def _index_in_order(df, order_cols: Sequence[str], partitions: int):
    """`df` with `idx`: its 0-based place in the order of `order_cols`
    (a range partitioning, a count per partition, offsets on the driver;
    no single-partition window)."""
    from pyspark.sql import functions as F

    sorted_df = df.repartitionByRange(partitions, *order_cols).sortWithinPartitions(*order_cols)
    from pyspark.sql.types import IntegerType, LongType, StructField, StructType

    schema = StructType(list(sorted_df.schema.fields) + [StructField("pid", IntegerType()), StructField("local", LongType())])

    def number(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext

        pid = TaskContext.get().partitionId()
        at = 0
        for b in batches:
            n = b.num_rows
            yield pa.RecordBatch.from_arrays(
                list(b.columns) + [pa.array([pid] * n, pa.int32()), pa.array(np.arange(at, at + n, dtype=np.int64))],
                names=list(b.schema.names) + ["pid", "local"])
            at += n

    numbered = sorted_df.mapInArrow(number, schema).persist()
    counts = dict(numbered.groupBy("pid").count().collect())
    offsets, running = {}, 0
    for pid in sorted(counts):
        offsets[pid] = running
        running += counts[pid]
    spark = df.sparkSession
    off = spark.createDataFrame([(int(k), int(v)) for k, v in offsets.items()], "pid int, offset long")
    out = numbered.join(F.broadcast(off), "pid").withColumn("idx", F.col("offset") + F.col("local")).drop("pid", "local", "offset")
    return out, numbered


def _components(spark, edges, max_rounds: int = 64):
    """Connected components of `edges` (a, b: gids) by alternating
    large-star and small-star (Kiveris et al., 2014): (node, comp) with
    comp the smallest gid of the component, for nodes with an edge."""
    from pyspark.sql import functions as F

    e = edges.select(F.least("a", "b").alias("u"), F.greatest("a", "b").alias("v")).distinct().localCheckpoint()
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        # Large-star: each node's larger neighbours attach to the smallest
        # of its neighbourhood (itself included).
        both = e.select(F.col("u").alias("x"), F.col("v").alias("y")).union(e.select(F.col("v").alias("x"), F.col("u").alias("y")))
        m = both.groupBy("x").agg(F.min("y").alias("m"))
        large = (
            both.join(m, "x").where(F.col("y") > F.col("x"))
            .select(F.col("y").alias("u"), F.least(F.col("m"), F.col("x")).alias("v"))
        )
        # Small-star: each node's smaller-or-equal neighbours attach to the
        # smallest of them.
        directed = large.select(F.greatest("u", "v").alias("x"), F.least("u", "v").alias("y")).where(F.col("x") != F.col("y"))
        m2 = directed.groupBy("x").agg(F.min("y").alias("m"))
        small = (
            directed.join(m2, "x")
            .select(F.when(F.col("y") == F.col("m"), F.col("x")).otherwise(F.col("y")).alias("p"), F.col("m"))
            .select(F.greatest("p", "m").alias("u"), F.least("p", "m").alias("v"))
            .where(F.col("u") != F.col("v")).distinct().localCheckpoint()
        )
        changed = small.join(e, ["u", "v"], "left_anti").limit(1).count() + e.join(small, ["u", "v"], "left_anti").limit(1).count()
        e = small
        if changed == 0:
            break
    # Every edge now points a node at its component's smallest node.
    comp = e.select(F.col("u").alias("node"), F.col("v").alias("comp"))
    roots = e.select(F.col("v").alias("node"), F.col("v").alias("comp")).distinct()
    return comp.union(roots).distinct(), rounds


def _pairs(prepared, n: int, max_block: int, skip_table: Optional[list], spark, partitions: int):
    """Candidate pairs (a < b, gids) as the one machine makes them, and the
    blocking statistics."""
    from pyspark.sql import functions as F

    row_bits = max(1, (n - 1).bit_length())
    row_mask = (1 << row_bits) - 1
    rule_flag = row_mask + 1
    keep = ~(row_mask | rule_flag)

    def signed(x: int) -> int:
        x &= (1 << 64) - 1
        return x - (1 << 64) if x >= 1 << 63 else x

    entries = prepared.select("gid", "neighbourhood", "class", F.explode("keys").alias("k")).select(
        "gid", "neighbourhood", "class",
        F.col("k").bitwiseAND(F.lit(signed(keep))).bitwiseOR(
            F.when(F.col("k").bitwiseAND(F.lit(1)) == 1, F.lit(signed(rule_flag))).otherwise(F.lit(0))).alias("block"),
        (F.col("k").bitwiseAND(F.lit(1)) == 1).alias("rule"))
    sizes = entries.groupBy("block").agg(F.count("*").alias("size"))
    entries = entries.join(sizes, "block").persist()
    stats = sizes.agg(F.max("size"), F.sum(F.when(F.col("size") > max_block, 1).otherwise(0)),
                      F.sum(F.when(F.col("size") > max_block, F.col("size")).otherwise(0)), F.count("*")).first()

    small = entries.where((F.col("size") > 1) & (F.col("size") <= max_block))
    l, r = small.alias("l"), small.alias("r")
    block_pairs = l.join(r, (F.col("l.block") == F.col("r.block")) & (F.col("l.gid") < F.col("r.gid"))).select(
        F.col("l.gid").alias("a"), F.col("r.gid").alias("b"), F.col("l.rule").alias("rule"),
        F.col("l.class").alias("ca"), F.col("r.class").alias("cb"))
    if skip_table is not None and any(skip_table):
        skip = F.create_map(*[x for i, s in enumerate(skip_table) for x in (F.lit(i), F.lit(bool(s)))])
        block_pairs = block_pairs.where(~(F.col("rule") & skip[F.col("ca") * 4 + F.col("cb")]))
    block_pairs = block_pairs.select("a", "b")

    # Capped blocks: the name-and-phone neighbourhood, next 4 in row order.
    from pyspark.sql import Window

    capped = entries.where((F.col("size") > max_block) & (F.col("neighbourhood") != 0))
    w = Window.partitionBy("block", "neighbourhood").orderBy("gid")
    leads = capped.select("gid", *[F.lead("gid", d).over(w).alias(f"n{d}") for d in range(1, 5)])
    capped_pairs = leads.select("gid", F.explode(F.array(*[F.col(f"n{d}") for d in range(1, 5)])).alias("o")).where(
        F.col("o").isNotNull() & (F.col("o") != F.col("gid"))).select(
        F.least("gid", "o").alias("a"), F.greatest("gid", "o").alias("b"))

    parts = [block_pairs, capped_pairs]
    numbered = None
    # Sorted neighbourhood over names: the next 3 in the masked name order.
    names = prepared.where(F.col("name_order").isNotNull()).select(
        "gid", "class",
        F.col("name_order").bitwiseAND(F.lit(signed(~row_mask))).bitwiseXOR(F.lit(signed(1 << 63))).alias("ord"))
    if names.limit(1).count() > 0:
        indexed, numbered = _index_in_order(names, ["ord", "gid"], partitions)
        ahead = indexed.select(
            F.explode(F.array(*[F.lit(d) for d in (1, 2, 3)])).alias("d"), "idx", "gid", "class").select(
            (F.col("idx") + F.col("d")).alias("idx"), F.col("gid").alias("a0"), F.col("class").alias("ca"))
        name_pairs = ahead.join(indexed.select("idx", F.col("gid").alias("b0"), F.col("class").alias("cb")), "idx")
        if skip_table is not None and any(skip_table):
            skip = F.create_map(*[x for i, s in enumerate(skip_table) for x in (F.lit(i), F.lit(bool(s)))])
            name_pairs = name_pairs.where(~skip[F.col("ca") * 4 + F.col("cb")])
        parts.append(name_pairs.select(F.least("a0", "b0").alias("a"), F.greatest("a0", "b0").alias("b")))
    pairs = parts[0]
    for p in parts[1:]:
        pairs = pairs.union(p)
    pairs = pairs.distinct()
    blocking = {
        "largest_block": int(stats[0] or 0), "capped_blocks": int(stats[1] or 0),
        "rows_in_capped_blocks": int(stats[2] or 0), "blocks": int(stats[3] or 0),
    }
    return pairs, entries, numbered, blocking


def _score_stage(settings: str, model_text: Optional[str], threshold32: np.float32):
    """mapInArrow function over pairs joined with both records: with a
    model, the accepted pairs (a, b, weight); without (EM), every pair's
    vector and term agreements."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            if b.num_rows == 0:
                continue
            ga = b.column("a").to_numpy()
            gb = b.column("b").to_numpy()
            gids = np.concatenate([ga, gb])
            uniq, first = np.unique(gids, return_index=True)
            recs = pa.concat_arrays([b.column("ra"), b.column("rb")]).take(pa.array(first)).to_pylist()
            table = _records_table(recs)
            la = np.searchsorted(uniq, ga).astype(np.int32)
            lb = np.searchsorted(uniq, gb).astype(np.int32)
            n = b.num_rows
            vector = np.zeros(n, dtype=np.int64)
            weight = np.zeros(n, dtype=np.float32)
            terms = np.zeros(n, dtype=np.int8)
            err = _ffi.new_error()
            rc = _ffi.lib.ohana_link_score(
                table._handle, settings.encode(), None if model_text is None else model_text.encode(), n,
                _ptr(la), _ptr(lb), None, None, _ptr(vector), _ptr(weight), _ptr(terms), ctypes.byref(err))
            _check(rc, err)
            if model_text is not None:
                keep = (vector >= 0) & (weight >= threshold32)
                yield pa.RecordBatch.from_arrays(
                    [pa.array(ga[keep]), pa.array(gb[keep]), pa.array(weight[keep])], names=["a", "b", "weight"])
            else:
                yield pa.RecordBatch.from_arrays(
                    [pa.array(ga), pa.array(gb), pa.array(vector), pa.array(terms)], names=["a", "b", "vector", "terms"])
    return run


MERGED_COLUMNS = ("fullName", "givenName", "familyName", "organization", "birthday")
OUT_SCHEMA = (
    "kind int, comp long, gid long, uid string, cluster_id string, size int, record string, "
    + ", ".join(f"`{c}` string" for c in MERGED_COLUMNS)
    + ", phones array<string>, emails array<string>, sources string, reason string, weight double, explanation string"
)


def _merge_stage(settings: str, model_text: str, with_tf: bool):
    """mapInArrow function over members (kind 0) and accepted edges (kind
    1) sorted by component: batches of whole components through the
    engine's guard and merge. Emits kind 0 (a member's cluster), 1 (a
    merged contact) and 2 (a joined pair's explanation)."""
    names = ["kind", "comp", "gid", "uid", "cluster_id", "size", "record", *MERGED_COLUMNS, "phones", "emails", "sources", "reason", "weight", "explanation"]

    def out_batch(cols: dict, n: int) -> pa.RecordBatch:
        types = {"kind": pa.int32(), "comp": pa.int64(), "gid": pa.int64(), "size": pa.int32(), "weight": pa.float64(),
                 "phones": pa.list_(pa.string()), "emails": pa.list_(pa.string())}
        arrays = []
        for nm in names:
            t = types.get(nm, pa.string())
            v = cols.get(nm)
            arrays.append(pa.nulls(n, t) if v is None else (v if isinstance(v, (pa.Array, pa.ChunkedArray)) else pa.array(v, t)))
        arrays = [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays]
        arrays = [a.cast(pa.string()) if pa.types.is_dictionary(a.type) else a for a in arrays]
        return pa.RecordBatch.from_arrays(arrays, names=names)

    def flush(members: list, edges: list) -> Iterator[pa.RecordBatch]:
        if not members:
            return
        # members: (comp, gid, uid, record, tff, tfg) in comp, gid order.
        gids = np.array([m[1] for m in members], dtype=np.int64)
        comps = np.array([m[0] for m in members], dtype=np.int64)
        order = np.lexsort((gids, comps))
        members = [members[i] for i in order]
        gids = gids[order]
        comps = comps[order]
        table = _records_table([m[3] for m in members])
        local = {g: i for i, g in enumerate(gids.tolist())}
        ea = np.array([local[e[0]] for e in edges], dtype=np.int32)
        eb = np.array([local[e[1]] for e in edges], dtype=np.int32)
        ew = np.array([e[2] for e in edges], dtype=np.float32)
        tff = np.ascontiguousarray(np.array([m[4] for m in members], dtype=np.float32)) if with_tf else None
        tfg = np.ascontiguousarray(np.array([m[5] for m in members], dtype=np.float32)) if with_tf else None
        n = len(members)
        cluster = np.zeros(n, dtype=np.int32)
        refused = ctypes.c_int64()
        merged = ctypes.c_void_p()
        joined = _ffi.Structs()
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_link_merge(
            table._handle, settings.encode(), model_text.encode(), len(edges), _ptr(ea), _ptr(eb), _ptr(ew), _ptr(tff), _ptr(tfg),
            ctypes.byref(merged), _ptr(cluster), ctypes.byref(refused), joined.schema_ptr, joined.array_ptr, ctypes.byref(err))
        _check(rc, err)
        merged_table = ContactTable(merged.value)
        pairs = pa.RecordBatch._import_from_c(joined.array_ptr, joined.schema_ptr)
        uids = [m[2] if m[2] is not None else f"line-{m[1] & ((1 << LINE_BITS) - 1)}@{m[1] >> LINE_BITS}" for m in members]
        cluster_uid = [uids[c] for c in cluster.tolist()]
        sizes = np.bincount(cluster, minlength=n)
        yield out_batch({"kind": [0] * n, "comp": comps.tolist(), "gid": gids.tolist(), "uid": uids, "cluster_id": cluster_uid}, n)
        # Merged contacts, in the order of their clusters' first rows.
        firsts = sorted(set(cluster.tolist()))
        k = len(merged_table)
        prepared = _prepare(merged_table, None, 0, k)
        contacts = merged_table.contacts()
        fields = merged_table.fields()

        cols = {
            "kind": [1] * k, "comp": [int(comps[f]) for f in firsts], "gid": [int(gids[f]) for f in firsts],
            "uid": contacts.column("uid").cast(pa.string()), "cluster_id": [uids[f] for f in firsts],
            "size": [int(sizes[f]) for f in firsts], "record": prepared.column("record"),
            "phones": _values_by_kind(fields, k, "phone"), "emails": _values_by_kind(fields, k, "email"),
        }
        for c in MERGED_COLUMNS:
            if c in contacts.column_names:
                cols[c] = contacts.column(c).cast(pa.string())
        for src, dst in (("dedupe.sources", "sources"), ("dedupe.reason", "reason")):
            if src in contacts.column_names:
                cols[dst] = contacts.column(src).cast(pa.string())
        yield out_batch(cols, k)
        j = pairs.num_rows
        if j:
            yield out_batch({
                "kind": [2] * j, "comp": [int(comps[a]) for a in pairs.column("a").to_pylist()],
                "gid": [int(gids[a]) for a in pairs.column("a").to_pylist()],
                "weight": pairs.column("weight"), "explanation": pairs.column("explanation"),
            }, j)
        if refused.value:
            yield out_batch({"kind": [3], "comp": [-1], "gid": [-1], "size": [int(refused.value)]}, 1)

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        members: list = []
        edges: list = []
        current = None
        for b in batches:
            d = b.to_pydict()
            for i in range(b.num_rows):
                comp = d["comp"][i]
                if comp != current:
                    if len(members) >= MERGE_BATCH:
                        yield from flush(members, edges)
                        members, edges = [], []
                    current = comp
                if d["kind"][i] == 0:
                    members.append((comp, d["gid"][i], d["uid"][i], d["record"][i], d["tf_f"][i] or 0.0, d["tf_g"][i] or 0.0))
                else:
                    edges.append((d["a"][i], d["b"][i], d["weight"][i]))
        yield from flush(members, edges)
    return run


def _term_adjustments(spark, prepared, column: str):
    """Per name hash, the term-frequency adjustment (the one machine's
    formula, computed with the C library's log2 as the engine's is)."""
    from pyspark.sql import functions as F

    counts = prepared.where(F.col(column) != 0).groupBy(F.col(column).alias("h")).agg(F.count("*").alias("c"))
    agg = counts.agg(F.sum("c"), F.sum(F.col("c") * F.col("c"))).first()
    total, squares = float(agg[0] or 0), float(agg[1] or 0)

    def adjust(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        lo, hi = -2.0, 1.0
        for b in batches:
            out = []
            for c in b.column("c").to_pylist():
                if c == 0 or total == 0:
                    out.append(0.0)
                    continue
                typical = squares / (total * total)
                share = float(c) / total
                out.append(float(np.float32(max(lo, min(hi, math.log2(typical / share))))))
            yield pa.RecordBatch.from_arrays([b.column("h"), pa.array(out, pa.float64())], names=["h", "adj"])

    return counts.mapInArrow(adjust, "h long, adj double")


@dataclass
class SparkReport:
    inputs: list = field(default_factory=list)
    contacts: int = 0
    problems: int = 0
    problem_lines: list = field(default_factory=list)
    pairs_compared: int = 0
    pairs_accepted: int = 0
    pairs_refused_by_guard: int = 0
    clusters: int = 0
    contacts_in_clusters: int = 0
    merged_contacts: int = 0
    weights: str = ""
    component_rounds: int = 0
    largest_component: int = 0
    blocking: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=2, sort_keys=True)


def dedupe(
    spark, inputs: Sequence[str], output_dir: str, *, region: str = "US", threshold: Optional[float] = None,
    weights: str = "auto", blocking: str = "all", max_block: int = 50, ndjson: bool = False,
    split_bytes: int = 64 << 20, partitions: Optional[int] = None, max_problem_lines: int = 1000,
) -> SparkReport:
    """Dedupes the contact files `inputs` (files or directories) on `spark`
    and writes under `output_dir`: `merged/` (Parquet, one merged contact a
    row: `cluster_id`, `size`, name columns, `phones`, `emails`, `sources`,
    `reason`, `record` = the contact as an NDJSON line), `clusters/`
    (Parquet: `uid`, `cluster_id`, `gid`), `pairs/` (text: one `--explain`
    JSON line per joined pair), `merged-ndjson/` with `ndjson`, and
    `report.json`. Settings as `ohana dedupe`'s."""
    from pyspark.sql import functions as F

    report = SparkReport()
    clock = time.monotonic()
    t0 = clock

    sc = spark.sparkContext

    def lap(name: str, following: Optional[str] = None) -> None:
        """Ends stage `name` (its seconds) and names the Spark jobs of the
        next one (job group `ohana:NAME`: the event log and the Spark UI
        attribute every stage, and its shuffle, to a step of the job)."""
        nonlocal clock
        now = time.monotonic()
        report.seconds[name] = round(now - clock, 3)
        clock = now
        if following:
            sc.setJobGroup(f"ohana:{following}", following)

    sc.setJobGroup("ohana:read", "read")

    settings = _settings(region, threshold, weights, blocking, max_block)
    files = list_inputs(inputs)
    if not files:
        raise OhanaError(1, None, "no contact files in the inputs")
    report.inputs = files
    parts = partitions or spark.sparkContext.defaultParallelism
    splits = plan_splits(files, split_bytes)
    first_lines = _line_numbers(spark, splits)
    split_df = spark.sparkContext.parallelize([(i,) for i in range(len(splits))], len(splits)).toDF("split int")
    read = split_df.mapInArrow(_read_stage(splits, first_lines, settings), PREPARED_SCHEMA).persist()
    problems = read.where("kind = 1")
    try:
        report.problems = problems.count()
    except Exception as e:  # an input that cannot be read at all: nothing is written
        raise _task_error(e) from None
    report.problem_lines = [
        {"source": files[r["file"]], "line": r["line"], **json.loads(r["record"])}
        for r in problems.orderBy("file", "line").limit(max_problem_lines).collect()
    ]
    prepared = read.where("kind = 0").drop("kind")
    counts = prepared.agg(F.count("*"), F.sum(F.when(F.col("class") != 0, 1).otherwise(0))).first()
    n, with_pe = int(counts[0]), int(counts[1] or 0)
    report.contacts = n
    lap("read", "blocking")

    plan = _plan(settings, n, with_pe)
    use_em = plan.estimates
    builtin_text = model(settings)[0]
    pairs, entries, numbered, report.blocking = _pairs(prepared, n, max_block, plan.skip, spark, parts)
    pairs = pairs.persist()
    report.pairs_compared = pairs.count()
    lap("blocking", "scoring")

    records = prepared.select("gid", "record", "tf_family", "tf_given")
    with_tf = False
    if use_em:
        scored = _score(pairs, records, settings, None, np.float32(0)).persist()
        vc = scored.groupBy("vector").count().collect()
        counts_arr = np.zeros(SPACE, dtype=np.int64)
        for v, c in vc:
            counts_arr[int(v)] = int(c)
        model_text, weight_table, plausible = model(settings, counts_arr)
        report.weights = "estimated (EM)" if plausible else "built-in defaults (EM's fit was not plausible)"
        with_tf = plausible
        tf = None
        if with_tf:
            fam = _term_adjustments(spark, prepared, "tf_family").withColumnRenamed("adj", "tf_f")
            giv = _term_adjustments(spark, prepared, "tf_given").withColumnRenamed("adj", "tf_g")
            tf = (prepared.select("gid", "tf_family", "tf_given")
                  .join(fam, F.col("tf_family") == F.col("h"), "left").drop("h")
                  .join(giv, F.col("tf_given") == F.col("h"), "left").drop("h")
                  .select("gid", F.coalesce("tf_f", F.lit(0.0)).alias("tf_f"), F.coalesce("tf_g", F.lit(0.0)).alias("tf_g")))
            tf = tf.persist()
        accepted = _accept(scored, weight_table, tf, plan.threshold)
    else:
        model_text, report.weights, tf = builtin_text, "built-in defaults", None
        accepted = _score(pairs, records, settings, model_text, np.float32(plan.threshold))
    accepted = accepted.persist()
    report.pairs_accepted = accepted.count()
    lap("scoring", "components")

    comp, report.component_rounds = _components(spark, accepted)
    comp = comp.persist()
    lap("components", "merge+write")

    members = prepared.select("gid", "uid", "record").join(comp, prepared["gid"] == comp["node"], "left").select(
        F.coalesce("comp", "gid").alias("comp"), "gid", "uid", "record")
    if tf is not None:
        members = members.join(tf, "gid", "left")
    else:
        members = members.withColumn("tf_f", F.lit(0.0)).withColumn("tf_g", F.lit(0.0))
    edge_rows = accepted.join(comp, accepted["a"] == comp["node"]).select(
        "comp", F.lit(1).alias("kind"), F.col("a").alias("gid"), "a", "b", F.col("weight").cast("double").alias("weight"))
    member_rows = members.select(
        "comp", F.lit(0).alias("kind"), "gid", "uid", "record", "tf_f", "tf_g")
    union = member_rows.unionByName(edge_rows, allowMissingColumns=True)
    work = union.repartition(parts, "comp").sortWithinPartitions("comp", "kind", "gid", "b")
    out = work.mapInArrow(_merge_stage(settings, model_text, with_tf), OUT_SCHEMA).persist()
    clusters = out.where("kind = 0").select("uid", "cluster_id", "gid")
    merged = out.where("kind = 1").select("cluster_id", "size", "uid", *[F.col(f"`{c}`") for c in MERGED_COLUMNS],
                                          "phones", "emails", "sources", "reason", "record", "gid")
    explained = out.where("kind = 2").orderBy("comp", "gid").select("explanation")
    clusters.orderBy("gid").write.mode("overwrite").parquet(os.path.join(output_dir, "clusters"))
    merged.orderBy("gid").drop("gid").write.mode("overwrite").parquet(os.path.join(output_dir, "merged"))
    explained.write.mode("overwrite").text(os.path.join(output_dir, "pairs"))
    if ndjson:
        merged.orderBy("gid").select("record").write.mode("overwrite").text(os.path.join(output_dir, "merged-ndjson"))
    sizes = out.where("kind = 1").agg(F.count("*"), F.sum(F.when(F.col("size") > 1, 1).otherwise(0)),
                                      F.sum(F.when(F.col("size") > 1, F.col("size")).otherwise(0)), F.max("size")).first()
    report.merged_contacts = int(sizes[0] or 0)
    report.clusters = int(sizes[1] or 0)
    report.contacts_in_clusters = int(sizes[2] or 0)
    report.largest_component = int(sizes[3] or 0)
    report.pairs_refused_by_guard = int(out.where("kind = 3").agg(F.sum("size")).first()[0] or 0)
    lap("merge+write")
    report.seconds["total"] = round(time.monotonic() - t0, 3)
    os.makedirs(output_dir, exist_ok=True)
    with open(os.path.join(output_dir, "report.json"), "w") as f:
        f.write(report.to_json() + "\n")
    for df in (read, pairs, accepted, comp, out, entries):
        df.unpersist()
    if numbered is not None:
        numbered.unpersist()
    return report


def _score(pairs, records, settings: str, model_text: Optional[str], threshold32):
    from pyspark.sql import functions as F

    ra = records.select(F.col("gid").alias("a"), F.col("record").alias("ra"))
    rb = records.select(F.col("gid").alias("b"), F.col("record").alias("rb"))
    joined = pairs.join(ra, "a").join(rb, "b").select("a", "b", "ra", "rb")
    if model_text is not None:
        return joined.mapInArrow(_score_stage(settings, model_text, threshold32), "a long, b long, weight float")
    return joined.mapInArrow(_score_stage(settings, None, threshold32), "a long, b long, vector long, terms byte")


def _accept(scored, weight_table: np.ndarray, tf, threshold: float):
    """The pairs whose weight (EM's table, plus the term-frequency
    adjustments, in float32 as the engine sums them) reaches the threshold."""
    from pyspark.sql import functions as F

    rows = scored
    if tf is not None:
        rows = rows.join(tf.select(F.col("gid").alias("a"), "tf_f", "tf_g"), "a", "left")
    else:
        rows = rows.withColumn("tf_f", F.lit(0.0)).withColumn("tf_g", F.lit(0.0))
    table = weight_table
    th = np.float32(threshold)

    def accept(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            v = b.column("vector").to_numpy()
            terms = b.column("terms").to_numpy()
            f = b.column("tf_f").to_numpy(zero_copy_only=False).astype(np.float32)
            g = b.column("tf_g").to_numpy(zero_copy_only=False).astype(np.float32)
            adj = np.zeros(len(v), dtype=np.float32)
            adj = np.where(terms & 1, adj + f, adj).astype(np.float32)
            adj = np.where(terms & 2, adj + g, adj).astype(np.float32)
            w = (table[v] + adj).astype(np.float32)
            keep = w >= th
            yield pa.RecordBatch.from_arrays(
                [pa.array(b.column("a").to_numpy()[keep]), pa.array(b.column("b").to_numpy()[keep]), pa.array(w[keep])],
                names=["a", "b", "weight"])

    return rows.select("a", "b", "vector", "terms", "tf_f", "tf_g").mapInArrow(accept, "a long, b long, weight float")


# -- Normalization ----------------------------------------------------------------

def normalize(df, *, region: str = "US", formats: Sequence[str] = ("e164",), sort_by: str = "family", locale: str = "root"):
    """A DataFrame of contacts (columns named as `ohana.read`'s: `uid`,
    `givenName`, `familyName`, `fullName`, ..., and `phones` (a string or
    an array of strings) and/or a `fields` array of structs) with new
    columns: `phone_<format>` (an array aligned with `phones`, null where
    a number does not parse), `given_folded`, `family_folded`,
    `full_folded` (names folded as dedupe folds them) and `sort_key`
    (binary: ordering by it ascending with nulls last, then by input order
    (`gid`), is `ohana process --sort SORT_BY --locale LOCALE`'s order)."""
    from pyspark.sql.types import ArrayType, BinaryType, StringType, StructField, StructType

    fmts = [formats] if isinstance(formats, str) else list(formats)
    extra = [StructField(f"phone_{f}", ArrayType(StringType())) for f in fmts]
    extra += [StructField(c, StringType()) for c in ("given_folded", "family_folded", "full_folded")]
    extra.append(StructField("sort_key", BinaryType()))
    schema = StructType(list(df.schema.fields) + extra)
    has_phones = "phones" in df.columns

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            n = b.num_rows
            t = pa.Table.from_batches([b])
            engine = ContactTable.from_arrow(t)
            keys = _name_keys(engine, sort_by, locale)
            columns = list(b.columns)
            if has_phones:
                phones = b.column("phones")
                if not (pa.types.is_list(phones.type) or pa.types.is_large_list(phones.type)):
                    phones = pa.array([[p] if p is not None else [] for p in phones.to_pylist()], pa.list_(pa.string()))
                flat = pc.list_flatten(phones)
                from . import normalize_phones

                normalized = normalize_phones(flat, region=region, formats=fmts)
                offsets = phones.offsets
                for f in fmts:
                    columns.append(pa.ListArray.from_arrays(offsets, normalized.column(f"phone.{f}").combine_chunks(), mask=phones.is_null()))
            else:
                for f in fmts:
                    columns.append(pa.nulls(n, pa.list_(pa.string())))
            for c in ("given_folded", "family_folded", "full_folded", "sort_key"):
                columns.append(keys.column(c))
            yield pa.RecordBatch.from_arrays(columns, schema=pa.schema(list(b.schema) + [
                *(pa.field(f"phone_{f}", pa.list_(pa.string())) for f in fmts),
                pa.field("given_folded", pa.string()), pa.field("family_folded", pa.string()),
                pa.field("full_folded", pa.string()), pa.field("sort_key", pa.binary())]))

    return df.mapInArrow(run, schema)


def _name_keys(table: ContactTable, by: str, locale: str) -> pa.RecordBatch:
    structs = _ffi.Structs()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_name_keys(table._handle, by.encode(), locale.encode(), structs.schema_ptr, structs.array_ptr, ctypes.byref(err))
    _check(rc, err)
    return pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)


def read(spark, inputs: Sequence[str], split_bytes: int = 64 << 20):
    """The contacts of `inputs` as a DataFrame (`gid`, `uid`, `line`,
    `record` and the name columns), read by the engine in parallel."""
    files = list_inputs(inputs)
    splits = plan_splits(files, split_bytes)
    first_lines = _line_numbers(spark, splits)
    split_df = spark.sparkContext.parallelize([(i,) for i in range(len(splits))], len(splits)).toDF("split int")
    cols = ("uid", "fullName", "givenName", "middleName", "familyName", "prefix", "suffix", "nickname", "organization", "birthday")
    schema = "gid long, source string, line long, " + ", ".join(f"`{c}` string" for c in cols) + ", phones array<string>, emails array<string>, record string"

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            for i in b.column("split").to_pylist():
                s = splits[i]
                t = _read_split(s, first_lines, s.path)
                n = len(t)
                if n == 0:
                    continue
                contacts = t.contacts()
                fields = t.fields()
                p = _prepare(t, None, 0, n)
                lines = p.column("line")
                arrays = [_gid(s.file, lines), pa.array([s.path] * n, pa.string()), lines]
                for c in cols:
                    arrays.append(contacts.column(c).cast(pa.string()) if c in contacts.column_names else pa.nulls(n, pa.string()))
                arrays.append(_values_by_kind(fields, n, "phone"))
                arrays.append(_values_by_kind(fields, n, "email"))
                arrays.append(p.column("record"))
                arrays = [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays]
                yield pa.RecordBatch.from_arrays(arrays, names=["gid", "source", "line", *cols, "phones", "emails", "record"])

    return split_df.mapInArrow(run, schema)


# -- Command line ------------------------------------------------------------------

def session(master: Optional[str] = None, app: str = "ohana"):
    """A SparkSession for the job: `master` (default $OHANA_SPARK_MASTER or
    local[*]); Python workers run this interpreter (the one with ohana)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app).master(master or os.environ.get("OHANA_SPARK_MASTER", "local[*]"))
    builder = builder.config("spark.sql.execution.arrow.maxRecordsPerBatch", str(BATCH_ROWS))
    # Local mode runs every task in the driver's JVM: give it room
    # (OHANA_SPARK_DRIVER_MEMORY, default 4g; on a cluster set the
    # executors' memory as usual).
    builder = builder.config("spark.driver.memory", os.environ.get("OHANA_SPARK_DRIVER_MEMORY", "4g"))
    builder = builder.config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", os.environ.get("OHANA_SPARK_PARTITIONS", "8"))
    return builder.getOrCreate()


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ohana.spark", description="Ohana on Apache Spark.")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dedupe", help="dedupe contact files into OUTPUT_DIR (Parquet)")
    d.add_argument("paths", nargs="+", help="INPUT... OUTPUT_DIR: files or directories, then the output directory")
    d.add_argument("--region", default="US")
    d.add_argument("--threshold", type=float)
    d.add_argument("--weights", default="auto", choices=["auto", "defaults", "em"])
    d.add_argument("--blocking", default="all")
    d.add_argument("--max-block", type=int, default=50)
    d.add_argument("--ndjson", action="store_true", help="also write the merged contacts as NDJSON")
    d.add_argument("--master", help="Spark master (default local[*])")
    d.add_argument("--split-mb", type=int, default=64, help="cut NDJSON files into pieces of this size")
    nrm = sub.add_parser("normalize", help="read contact files and write them with normalized columns (Parquet)")
    nrm.add_argument("paths", nargs="+", help="INPUT... OUTPUT_DIR")
    nrm.add_argument("--region", default="US")
    nrm.add_argument("--formats", default="e164", help="comma-separated: e164, international, national, rfc3966")
    nrm.add_argument("--sort-by", default="family")
    nrm.add_argument("--locale", default="root")
    nrm.add_argument("--master")
    args = parser.parse_args(argv)
    if len(args.paths) < 2:
        parser.error("give at least one input and the output directory")
    inputs, output = args.paths[:-1], args.paths[-1]
    spark = session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    try:
        if args.command == "dedupe":
            r = dedupe(spark, inputs, output, region=args.region, threshold=args.threshold, weights=args.weights,
                       blocking=args.blocking, max_block=args.max_block, ndjson=args.ndjson, split_bytes=args.split_mb << 20)
            print(f"deduped {r.contacts} contacts into {r.merged_contacts} ({r.clusters} clusters); {r.pairs_compared} pairs compared, "
                  f"{r.pairs_accepted} accepted, {r.pairs_refused_by_guard} refused by the chaining guard; {r.problems} problems; "
                  f"total {r.seconds.get('total')} s; report in {os.path.join(output, 'report.json')}", file=sys.stderr)
        else:
            df = read(spark, inputs)
            out = normalize(df, region=args.region, formats=args.formats.split(","), sort_by=args.sort_by, locale=args.locale)
            out.write.mode("overwrite").parquet(output)
            print(f"normalized {out.count()} contacts into {output}", file=sys.stderr)
    except OhanaError as e:
        print(f"ohana.spark: {e}", file=sys.stderr)
        return 65  # as `ohana dedupe` exits on an input it cannot read
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
