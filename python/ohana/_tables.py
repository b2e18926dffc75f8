"""Tables in their own columns: `ohana.dedupe(frame)`, `ohana.link(left,
right)` and `ohana.show_mapping(frame)` (README "Tables with their own
columns"; Sources/Ohana/Ohana.docc/Python.md).

A frame (pandas, Polars, pyarrow, or a DuckDB relation; anything with the
Arrow PyCapsule stream interface, `__arrow_c_stream__`) is read into a
pyarrow table; the engine is handed a text view of it (every column as
strings, dates as ISO, written with pyarrow's CSV writer) and reads that
through the same column mapping and detection as `ohana dedupe people.csv`.
What comes back is per row; the columns are appended here to the frame the
caller gave, whose own columns are never touched.
"""

from __future__ import annotations

import ctypes
from typing import Any, Mapping, Optional, Sequence, Union

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from . import _ffi

Columns = Optional[Mapping[str, Union[str, Sequence[str]]]]


def to_arrow(frame: Any) -> tuple[pa.Table, str]:
    """The frame as a pyarrow table, and its kind (`pyarrow`, `batch`,
    `pandas`, `polars`, `duckdb`)."""
    if isinstance(frame, pa.Table):
        return frame, "pyarrow"
    if isinstance(frame, pa.RecordBatch):
        return pa.Table.from_batches([frame]), "batch"
    module = type(frame).__module__.split(".")[0]
    if module == "pandas":
        # The index as pandas hands it over (a named index is a column,
        # FEBRL's rec_id among them); rows keep their order.
        return pa.Table.from_pandas(frame), "pandas"
    if hasattr(frame, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(frame).read_all(), module
    if module == "polars":
        return frame.to_arrow(), module
    if module == "duckdb":
        return frame.arrow(), module
    raise TypeError(
        f"expected a pandas, Polars or pyarrow frame, a DuckDB relation or an object with __arrow_c_stream__, "
        f"not {type(frame).__name__}"
    )


def _text_column(column: Union[pa.Array, pa.ChunkedArray]) -> pa.ChunkedArray:
    """A column as strings for the engine: dates and timestamps as ISO
    dates, numbers and booleans as their text; a column that has no text
    form (lists, structs, binary) as nulls: it is not compared, and it
    still comes back untouched in the caller's frame."""
    t = column.type
    if pa.types.is_dictionary(t):
        column = pc.cast(column, t.value_type)
        t = column.type
    if pa.types.is_string(t):
        return column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])
    if pa.types.is_large_string(t):
        return pc.cast(column, pa.string())
    if pa.types.is_date(t) or pa.types.is_timestamp(t):
        return pc.strftime(column, format="%Y-%m-%d")
    if pa.types.is_nested(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return pa.chunked_array([pa.nulls(len(column), pa.string())])
    # Numbers, booleans, decimals, string views (Polars hands strings over
    # as `string_view`): their text.
    try:
        return pc.cast(column, pa.string())
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        return pa.chunked_array([pa.nulls(len(column), pa.string())])


def _engine_view(table: pa.Table) -> tuple[bytes, list[pa.Array]]:
    """The CSV text the engine reads, and the text columns it was made of."""
    texts = [_text_column(c).combine_chunks() for c in table.columns]
    sink = pa.BufferOutputStream()
    view = pa.table(texts, names=[str(n) for n in table.column_names])
    pacsv.write_csv(view, sink, write_options=pacsv.WriteOptions(include_header=True, quoting_style="needed"))
    return sink.getvalue().to_pybytes(), texts


def _mapping_text(columns: Columns, id: Optional[str]) -> Optional[bytes]:
    lines = []
    for role, names in (columns or {}).items():
        names = [names] if isinstance(names, str) else list(names)
        for n in names:
            if "," in n or "\n" in n:
                raise ValueError(f"column {n!r}: a mapped column's name cannot hold a comma or a line end")
        lines.append(f"{role}={','.join(names)}")
    if id is not None:
        lines.append(f"id={id}")
    return "\n".join(lines).encode() if lines else None


def _settings(region: str, threshold: Optional[float], weights: str, blocking: Optional[str], mode: str) -> bytes:
    parts = [f"region={region}", f"weights={weights}", f"mode={mode}"]
    if threshold is not None:
        parts.append(f"threshold={float(threshold)!r}")
    if blocking is not None:
        parts.append(f"blocking={blocking}")
    return ";".join(parts).encode()


def _match(left: bytes, left_map, right: Optional[bytes], right_map, settings: bytes):
    from . import _check

    structs = _ffi.Structs()
    err = _ffi.new_error()
    capacity = 1 << 20
    mapping = ctypes.create_string_buffer(capacity)
    rc = _ffi.lib.ohana_table_match(
        left, len(left), left_map, right, 0 if right is None else len(right), right_map, settings,
        structs.schema_ptr, structs.array_ptr, mapping, capacity, ctypes.byref(err),
    )
    _check(rc, err)
    batch = pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)
    sides: list[list[tuple[str, Optional[str], str]]] = [[], []]
    for line in mapping.value.decode("utf-8").split("\n"):
        if line:
            side, column, role, how = line.split("\t")[0], *line.split("\t")[-3:]
            sides[int(side)].append((column, role or None, how))
    return batch, sides


def _row_labels(texts: list[pa.Array], mapping, rows: pa.Array, base: int) -> pa.Array:
    """The id of each of `rows` (rows of one side, counted from `base` in
    the engine's table): its id column's text (the first column mapped to
    `id`), else `row-N`, N its row in its own table."""
    local = pc.subtract(rows, pa.scalar(base, pa.int32()))
    fallback = pc.binary_join_element_wise("row-", pc.cast(pc.add(local, pa.scalar(1, pa.int32())), pa.string()), "")
    for i, (_, role, _) in enumerate(mapping):
        if role == "id":
            ids = pc.take(texts[i], local)
            ids = pc.if_else(pc.equal(pc.utf8_length(ids), 0), pa.scalar(None, pa.string()), ids)
            return pc.coalesce(ids, fallback)
    return fallback


def _give_back(frame: Any, kind: str, table: pa.Table, appended: list[tuple[str, pa.Array]]):
    """`frame` with the appended columns, as the kind it came in; a name it
    already uses gets `ohana_` in front (as the command line's CSV does)."""
    used = set(str(n) for n in table.column_names)
    named = [
        ("ohana_" + n if n in used else n, a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a)
        for n, a in appended
    ]
    if kind == "pandas":
        out = frame.copy()
        for n, a in named:
            out[n] = a.to_pandas().values
        return out
    if kind == "polars":
        import polars as pl

        return frame.with_columns([pl.from_arrow(a).alias(n) for n, a in named])
    result = table
    for n, a in named:
        result = result.append_column(n, a)
    if kind == "batch":
        return result.combine_chunks().to_batches()[0]
    if kind == "duckdb":
        import duckdb

        return duckdb.from_arrow(result)
    return result


def show_mapping(frame: Any, columns: Columns = None, id: Optional[str] = None) -> list[tuple[str, Optional[str], str]]:
    """How each column of `frame` maps onto the contact model:
    `(column, role or None, how)` in the frame's order, as
    `ohana dedupe --show-mapping` prints it (`how`: given, detected, values,
    known, unmapped...)."""
    table, _ = to_arrow(frame)
    data, _ = _engine_view(table)
    _, sides = _match(data, _mapping_text(columns, id), None, None, b"mode=mapping")
    return sides[0]


def dedupe_frame(
    frame: Any, columns: Columns = None, id: Optional[str] = None, region: str = "US",
    threshold: Optional[float] = None, weights: str = "auto", blocking: Optional[str] = None,
):
    table, kind = to_arrow(frame)
    data, texts = _engine_view(table)
    batch, sides = _match(data, _mapping_text(columns, id), None, None, _settings(region, threshold, weights, blocking, "dedupe"))
    cluster = batch.column("cluster")
    labels = _row_labels(texts, sides[0], cluster, 0)
    return _give_back(frame, kind, table, [
        ("cluster_id", labels),
        ("cluster_size", batch.column("cluster_size")),
        ("match_weight_min", batch.column("weight_min")),
        ("match_weight_max", batch.column("weight_max")),
    ])


def link(
    left: Any, right: Any, columns: Columns = None, right_columns: Columns = None, id: Optional[str] = None,
    right_id: Optional[str] = None, region: str = "US", threshold: Optional[float] = None, weights: str = "auto",
    blocking: Optional[str] = None, and_dedupe: bool = False,
):
    """Matches `left`'s records against `right`'s (no dedupe within either
    unless `and_dedupe`), as `ohana link`. Returns `(left, right)`, each the
    kind it was given with `cluster_id`, `match_id` (the other side's record
    whose pair with this one weighed most; else the first of its cluster),
    `match_weight` (null when it joined through another record) and
    `match_count` (the other side's records in its cluster) appended.
    `columns` maps both frames unless `right_columns` is given, which then
    maps `right` alone; `id` / `right_id` name the id columns. When an id
    occurs on both sides, a cluster named by a right record is `right:ID`."""
    lt, lkind = to_arrow(left)
    rt, rkind = to_arrow(right)
    ldata, ltexts = _engine_view(lt)
    rdata, rtexts = _engine_view(rt)
    lmap = _mapping_text(columns, id)
    rmap = _mapping_text(right_columns if right_columns is not None else columns, right_id if right_id is not None else (id if right_columns is None else None))
    mode = "link-and-dedupe" if and_dedupe else "link"
    batch, sides = _match(ldata, lmap, rdata, rmap, _settings(region, threshold, weights, blocking, mode))
    n = lt.num_rows
    cluster = batch.column("cluster")
    match = batch.column("match")
    rows = pa.array(range(batch.num_rows), pa.int32())
    is_right = pc.greater_equal(rows, pa.scalar(n, pa.int32()))

    def label(of: pa.Array) -> pa.Array:
        # Labels of rows of both sides: each side's own ids.
        on_right = pc.greater_equal(of, pa.scalar(n, pa.int32()))
        left_rows = pc.if_else(on_right, pa.scalar(0, pa.int32()), of)
        right_rows = pc.if_else(on_right, of, pa.scalar(n, pa.int32()))
        if rt.num_rows == 0:
            return _row_labels(ltexts, sides[0], left_rows, 0)
        return pc.if_else(on_right, _row_labels(rtexts, sides[1], right_rows, n), _row_labels(ltexts, sides[0], left_rows, 0))

    own = label(rows)
    left_ids = set(own.slice(0, n).to_pylist())
    overlap = any(x in left_ids for x in own.slice(n).to_pylist())
    cluster_ids = label(cluster)
    if overlap:
        named_right = pc.greater_equal(cluster, pa.scalar(n, pa.int32()))
        cluster_ids = pc.if_else(named_right, pc.binary_join_element_wise("right:", cluster_ids, ""), cluster_ids)
    # The match: the strongest joined pair, else the first other-side row of the cluster.
    first_other = _first_other_side(cluster, is_right)
    chosen = pc.coalesce(match, first_other)
    match_ids = pc.if_else(pc.is_null(chosen), pa.scalar(None, pa.string()), label(pc.fill_null(chosen, 0)))
    appended = []
    for name, column in [
        ("cluster_id", cluster_ids), ("match_id", match_ids), ("match_weight", batch.column("match_weight")),
        ("match_count", batch.column("match_count")),
    ]:
        appended.append((name, column))
    out_left = _give_back(left, lkind, lt, [(nm, c.slice(0, n)) for nm, c in appended])
    out_right = _give_back(right, rkind, rt, [(nm, c.slice(n)) for nm, c in appended])
    return out_left, out_right


def _first_other_side(cluster: pa.Array, is_right: pa.Array) -> pa.Array:
    """Per row, the first row of its cluster on the other side (null: none)."""
    clusters = cluster.to_pylist()
    right = is_right.to_pylist()
    first: dict[tuple[int, bool], int] = {}
    for r, (c, side) in enumerate(zip(clusters, right)):
        first.setdefault((c, side), r)
    return pa.array([first.get((c, not side)) for c, side in zip(clusters, right)], pa.int32())
