"""The engine's link functions (`Sources/OhanaFFI/LinkInterface.swift`) as
the job's stages call them: each is the one-machine dedupe's own code on
part of the data. Arrays are NumPy's, passed by pointer for exactly the
counts given."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np
import pyarrow as pa

from .. import ContactTable, ErrorCode, OhanaError, _check, _ffi

# The comparison vector's space (ComparisonVector.space): EM's counts and
# the weight table have one entry per vector.
SPACE = 1 << 18


def settings_text(region: str, threshold: Optional[float], weights: str, blocking: str, max_block: int, threads: int = 1,
                  table: bool = False) -> str:
    """The engine's `key=value;...` settings (those of `ohana dedupe`);
    `table`: the contacts are a table's rows (`tables.dedupe_table`), whose
    `auto` weights are decided as the command line decides a table's."""
    parts = [f"region={region}", f"weights={weights}", f"blocking={blocking}", f"max_block={max_block}", f"threads={threads}"]
    if table:
        parts.append("table=1")
    if threshold is not None:
        parts.append(f"threshold={threshold!r}")
    return ";".join(parts)


def _ptr(a: Optional[np.ndarray]) -> Optional[ctypes.c_void_p]:
    return None if a is None else a.ctypes.data_as(ctypes.c_void_p)


def list_inputs(inputs: Sequence[str]) -> List[str]:
    """The contact files `inputs` name, in the order `ohana dedupe` reads
    them: the engine's own rule (directories walked recursively in name
    order, hidden names left out, globs expanded)."""
    paths = (ctypes.c_char_p * len(inputs))(*[p.encode() for p in inputs])
    needed = ctypes.c_int64()
    err = _ffi.new_error()
    _check(_ffi.lib.ohana_list_inputs(paths, len(inputs), None, 0, ctypes.byref(needed), ctypes.byref(err)), err)
    buf = ctypes.create_string_buffer(max(1, needed.value))
    _check(_ffi.lib.ohana_list_inputs(paths, len(inputs), buf, needed.value, ctypes.byref(needed), ctypes.byref(err)), err)
    raw = buf.raw[: needed.value]
    return [p.decode() for p in raw.split(b"\0")[:-1]]


def read_bytes(data: bytes, fmt: str, source: Optional[str], first_line: int) -> ContactTable:
    """Contacts held in memory (a whole file or a piece cut at line ends)."""
    out = ctypes.c_void_p()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_read_bytes(
        data, len(data), fmt.encode(), None if source is None else source.encode(), first_line, 0, ctypes.byref(out), ctypes.byref(err))
    _check(rc, err)
    if out.value is None:
        raise OhanaError(ErrorCode.ARROW, None, "the engine returned no table")
    return ContactTable(out.value)


def read_table_bytes(data: bytes, first_line: int, mapping: Optional[str]) -> ContactTable:
    """A piece of a table (CSV text, its header first) read with the column
    roles `mapping` (a `--columns` file's text; None: detected from the
    piece itself)."""
    out = ctypes.c_void_p()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_read_table_bytes(
        data, len(data), None, first_line, None if mapping is None else mapping.encode(), ctypes.byref(out), ctypes.byref(err))
    _check(rc, err)
    if out.value is None:
        raise OhanaError(ErrorCode.ARROW, None, "the engine returned no table")
    return ContactTable(out.value)


def records_table(records: pa.Array) -> ContactTable:
    """A table of contacts given as NDJSON lines (the job's `record`s, an
    Arrow string array), joined by Arrow without passing through Python."""
    if len(records) == 0:
        return read_bytes(b"", "ndjson", None, 1)
    import pyarrow.compute as pc

    one = pa.ListArray.from_arrays(pa.array([0, len(records)], pa.int32()), records.cast(pa.string()))
    data = pc.binary_join(one, "\n")[0].as_buffer().to_pybytes() + b"\n"
    return read_bytes(data, "ndjson", None, 1)


def prepare(table: ContactTable, settings: Optional[str], start: int, count: int) -> pa.RecordBatch:
    """Rows of `table` as a batch: `uid`, `line`, `record`; with settings
    also the dedupe keys (`keys`, `neighbourhood`, `name_order`, `class`,
    `tf_family`, `tf_given`) and the comparison record `cmp`."""
    structs = _ffi.Structs()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_link_prepare(
        table._handle, None if settings is None else settings.encode(), start, count, int(settings is not None),
        structs.schema_ptr, structs.array_ptr, ctypes.byref(err))
    _check(rc, err)
    return pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)


@dataclass(frozen=True)
class Plan:
    """What the one machine decides before scoring: EM or the built-in
    weights, the threshold, and per pair of contact classes
    (`a * 4 + b`) whether the typo-tolerant rules skip it."""

    estimates: bool
    threshold: float
    skip: Tuple[bool, ...]


def plan(settings: str, n: int, with_phone_or_email: int) -> Plan:
    est = ctypes.c_int32()
    th = ctypes.c_double()
    skip = (ctypes.c_int8 * 16)()
    err = _ffi.new_error()
    _check(_ffi.lib.ohana_link_plan(settings.encode(), n, with_phone_or_email, ctypes.byref(est), ctypes.byref(th), skip, ctypes.byref(err)), err)
    return Plan(bool(est.value), float(th.value), tuple(bool(x) for x in skip))


def model(settings: str, counts: Optional[np.ndarray] = None) -> Tuple[str, np.ndarray, bool, float]:
    """The built-in model (counts None) or EM's fit to `counts`: (model
    text, weight per comparison vector as float32, plausible, the
    threshold a pair's weight under it is judged against: the engine's
    own choice for built-in or fitted weights)."""
    text = ctypes.create_string_buffer(1 << 16)
    weights = np.zeros(SPACE, dtype=np.float32)
    plausible = ctypes.c_int32(1)
    threshold = ctypes.c_double(0)
    err = _ffi.new_error()
    c = None if counts is None else np.ascontiguousarray(counts, dtype=np.int64)
    rc = _ffi.lib.ohana_link_model(settings.encode(), _ptr(c), SPACE, text, len(text), _ptr(weights), ctypes.byref(plausible),
                                   ctypes.byref(threshold), ctypes.byref(err))
    _check(rc, err)
    return text.value.decode(), weights, bool(plausible.value), float(threshold.value)


@dataclass
class Scored:
    """Per pair: the comparison vector (-1: ruled out early under a
    model), the weight (float32) and, without a model, the term agreements
    (bit 0 family name, bit 1 given name)."""

    vector: np.ndarray
    weight: np.ndarray
    terms: np.ndarray


def score_records(cmp: pa.Array, settings: str, model_text: Optional[str], a: np.ndarray, b: np.ndarray) -> Scored:
    """Scores pairs `a[i]`, `b[i]` (indices into `cmp`, a binary array of
    comparison records) with `model_text`, or without a model (EM: every
    vector and its term agreements)."""
    if isinstance(cmp, pa.ChunkedArray):
        cmp = cmp.combine_chunks()
    if cmp.offset != 0 or cmp.null_count:
        cmp = pa.concat_arrays([cmp])  # offsets from 0, no nulls expected
    n = len(a)
    vector = np.zeros(n, dtype=np.int64)
    weight = np.zeros(n, dtype=np.float32)
    terms = np.zeros(n, dtype=np.int8)
    bufs = cmp.buffers()
    offsets = np.frombuffer(bufs[1], dtype=np.int32, count=len(cmp) + 1) if len(cmp) else np.zeros(1, dtype=np.int32)
    data = bufs[2]
    data_ptr = ctypes.c_void_p(data.address) if data is not None and data.size else None
    a32 = np.ascontiguousarray(a, dtype=np.int32)
    b32 = np.ascontiguousarray(b, dtype=np.int32)
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_link_score_records(
        data_ptr, _ptr(offsets), len(cmp), settings.encode(), None if model_text is None else model_text.encode(), n,
        _ptr(a32), _ptr(b32), None, None, _ptr(vector), _ptr(weight), _ptr(terms), ctypes.byref(err))
    _check(rc, err)
    return Scored(vector, weight, terms)


@dataclass
class Merged:
    """What the guard and the merge of a batch of components gave."""

    table: ContactTable  # one merged contact per cluster, in the order of each cluster's first row
    cluster: np.ndarray  # per row: the row of its cluster's first contact
    refused: int  # pairs the chaining guard refused
    joined: pa.RecordBatch  # the pairs that joined: a, b (rows), weight, explanation


def merge(table: ContactTable, settings: str, model_text: str, ea: np.ndarray, eb: np.ndarray, ew: np.ndarray,
          tf_family: Optional[np.ndarray], tf_given: Optional[np.ndarray]) -> Merged:
    """The chaining guard and the merge of whole components (`table` holds
    their contacts in input order; edges are rows a < b with weights)."""
    n = len(table)
    cluster = np.zeros(n, dtype=np.int32)
    refused = ctypes.c_int64()
    merged = ctypes.c_void_p()
    joined = _ffi.Structs()
    err = _ffi.new_error()
    ea = np.ascontiguousarray(ea, dtype=np.int32)
    eb = np.ascontiguousarray(eb, dtype=np.int32)
    ew = np.ascontiguousarray(ew, dtype=np.float32)
    tff = None if tf_family is None else np.ascontiguousarray(tf_family, dtype=np.float32)
    tfg = None if tf_given is None else np.ascontiguousarray(tf_given, dtype=np.float32)
    rc = _ffi.lib.ohana_link_merge(
        table._handle, settings.encode(), model_text.encode(), len(ea), _ptr(ea), _ptr(eb), _ptr(ew), _ptr(tff), _ptr(tfg),
        ctypes.byref(merged), _ptr(cluster), ctypes.byref(refused), joined.schema_ptr, joined.array_ptr, ctypes.byref(err))
    _check(rc, err)
    if merged.value is None:
        raise OhanaError(ErrorCode.ARROW, None, "the engine returned no merged table")
    return Merged(ContactTable(merged.value), cluster, int(refused.value),
                  pa.RecordBatch._import_from_c(joined.array_ptr, joined.schema_ptr))


def name_keys(table: ContactTable, by: str, locale: str) -> pa.RecordBatch:
    """Folded names and ICU sort keys (`ohana_name_keys`)."""
    structs = _ffi.Structs()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_name_keys(table._handle, by.encode(), locale.encode(), structs.schema_ptr, structs.array_ptr, ctypes.byref(err))
    _check(rc, err)
    return pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)


def located(e: OhanaError, path: str) -> OhanaError:
    """`e` with the input's path before its reason (`line N: path: reason`)."""
    return OhanaError(e.code, e.line, f"{path}: {e.reason}")
