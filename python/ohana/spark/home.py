"""The read stage: each home partition reads its piece of the input with
the engine and keeps its contacts (the *home state*) for every later
stage: the NDJSON record (for the merge and the outputs), the comparison
record (for scoring), the blocking keys and the rest the stages read."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pyarrow as pa

from .. import OhanaError
from . import engine
from .inputs import LINE_BITS, Split, read_piece


@dataclass
class Problem:
    file: int
    line: int
    severity: str
    reason: str


@dataclass
class Home:
    """One home partition's contacts, in input order (gid order). The read
    stage keeps three views of it, each holding only what its stages read
    (``views``), so a stage does not load the NDJSON records to block or
    score."""

    split: int
    n: int
    gid: np.ndarray  # int64: input index << 40 | line
    uid: pa.Array  # utf8, null without a uid
    record: pa.Array  # utf8: the contact as one NDJSON line
    cmp: pa.Array  # binary: the comparison record
    key_offsets: np.ndarray  # int32, n + 1
    keys: np.ndarray  # uint64: block hashes, lowest bit set for the typo-tolerant rules
    neighbourhood: np.ndarray  # uint64, 0 none
    name_order: np.ndarray  # uint64
    has_name_order: np.ndarray  # bool
    cls: np.ndarray  # int8: 1 has phones, 2 has e-mails
    tf_family: np.ndarray  # uint64 name hashes, 0 none
    tf_given: np.ndarray
    problems: List[Problem] = field(default_factory=list)
    worker: Tuple[int, str, int] = (0, "", 1)  # pid, ohana's path, engine threads

    @property
    def count(self) -> int:
        return self.n

    def views(self) -> List[Tuple[str, "Home"]]:
        """("keys", blocking's view), ("score", scoring's), ("full", the merge's)."""
        empty_u64 = np.zeros(0, dtype=np.uint64)
        base = dict(split=self.split, n=self.n, gid=np.zeros(0, dtype=np.int64), uid=pa.nulls(0, pa.string()),
                    record=pa.nulls(0, pa.string()), cmp=pa.nulls(0, pa.binary()), key_offsets=np.zeros(1, dtype=np.int32),
                    keys=empty_u64, neighbourhood=empty_u64, name_order=empty_u64, has_name_order=np.zeros(0, dtype=bool),
                    cls=np.zeros(0, dtype=np.int8), tf_family=empty_u64, tf_given=empty_u64)
        keys = Home(**dict(base, key_offsets=self.key_offsets, keys=self.keys, neighbourhood=self.neighbourhood,
                           name_order=self.name_order, has_name_order=self.has_name_order, cls=self.cls))
        score = Home(**dict(base, cmp=self.cmp, cls=self.cls, tf_family=self.tf_family, tf_given=self.tf_given))
        full = Home(**dict(base, gid=self.gid, uid=self.uid, record=self.record, tf_family=self.tf_family, tf_given=self.tf_given),
                    problems=self.problems, worker=self.worker)
        return [("keys", keys), ("score", score), ("full", full)]


def _u64(a: pa.Array) -> np.ndarray:
    return np.asarray(a.fill_null(0).to_numpy(zero_copy_only=False)).astype(np.int64).view(np.uint64)


def _reason(text: str, line: int) -> str:
    """A problem's reason without the `source:line: ` its text starts with."""
    parts = text.split(f":{line}: ", 1)
    return parts[1] if len(parts) == 2 else text


def read_home(split: Split, first_lines: Dict[Tuple[int, int], int], settings: str, source: Optional[str],
              mapping: Optional[str] = None) -> Home:
    """Reads `split` with the engine; an input it cannot read raises
    OhanaError naming the path (`line N: path: reason`). With `mapping`
    (a `--columns` file's text), the split is a part of a table, CSV with
    its header, read with those column roles."""
    import ohana

    # Every stage of the engine in this task uses the CPUs Spark gave it
    # (spark.task.cpus), not the executor's whole machine.
    ohana.set_threads(int(dict(kv.split("=", 1) for kv in settings.split(";")).get("threads", "1")))
    data, first = read_piece(split, first_lines)
    try:
        if mapping is not None:
            table = engine.read_table_bytes(data, first, mapping)
        else:
            table = engine.read_bytes(data, split.format, source, first)
    except OhanaError as e:
        raise engine.located(e, split.path) from None
    n = len(table)
    p = engine.prepare(table, settings, 0, n)
    lines = np.asarray(p.column("line").to_numpy(zero_copy_only=False), dtype=np.int64)
    keys = p.column("keys")
    order = p.column("name_order")
    threads = ohana.threads()
    home = Home(
        split=-1,
        n=n,
        gid=(np.int64(split.file) << np.int64(LINE_BITS)) + lines,
        uid=p.column("uid"),
        record=p.column("record"),
        cmp=p.column("cmp"),
        key_offsets=np.asarray(keys.offsets.to_numpy(), dtype=np.int32),
        keys=np.asarray(keys.values.to_numpy(), dtype=np.int64).view(np.uint64),
        neighbourhood=_u64(p.column("neighbourhood")),
        name_order=_u64(order),
        has_name_order=np.asarray(order.is_valid().to_numpy(zero_copy_only=False), dtype=bool),
        cls=np.asarray(p.column("class").to_numpy(), dtype=np.int8),
        tf_family=_u64(p.column("tf_family")),
        tf_given=_u64(p.column("tf_given")),
        worker=(os.getpid(), ohana.__file__, threads),
    )
    home.problems = [Problem(split.file, pr.line, pr.severity, _reason(pr.text, pr.line)) for pr in table.problems]
    return home


def concat(parts: List[Home]) -> Home:
    """Homes of consecutive splits as one (their contacts stay in input order)."""
    if len(parts) == 1:
        return parts[0]
    key_offsets = [np.zeros(1, dtype=np.int64)]
    base = 0
    for p in parts:
        key_offsets.append(p.key_offsets[1:].astype(np.int64) + base)
        base += int(p.key_offsets[-1])
    out = Home(
        split=parts[0].split, n=sum(p.n for p in parts),
        gid=np.concatenate([p.gid for p in parts]),
        uid=pa.concat_arrays([p.uid.cast(pa.string()) for p in parts]),
        record=pa.concat_arrays([p.record for p in parts]),
        cmp=pa.concat_arrays([p.cmp for p in parts]),
        key_offsets=np.concatenate(key_offsets).astype(np.int32),
        keys=np.concatenate([p.keys for p in parts]),
        neighbourhood=np.concatenate([p.neighbourhood for p in parts]),
        name_order=np.concatenate([p.name_order for p in parts]),
        has_name_order=np.concatenate([p.has_name_order for p in parts]),
        cls=np.concatenate([p.cls for p in parts]),
        tf_family=np.concatenate([p.tf_family for p in parts]),
        tf_given=np.concatenate([p.tf_given for p in parts]),
        worker=parts[0].worker,
    )
    out.problems = [q for p in parts for q in p.problems]
    return out


def reader(splits: Sequence[Split], groups: Sequence[Sequence[int]], first_lines: Dict[Tuple[int, int], int], settings: str,
           mapping: Optional[str] = None) -> Callable[[Iterable[Any]], Iterator[Tuple[int, Tuple[str, Home]]]]:
    """The read stage's function over the home partitions: home i reads the
    consecutive splits `groups[i]` and keeps three views of its contacts.
    `mapping`: the splits are the part files of one table (see
    `tables.dedupe_table`), read with these column roles."""
    # As `ohana dedupe`: contacts name their input (`source`) when there are
    # several; a table's part files are one input.
    several = len({s.file for s in splits}) > 1 and mapping is None

    def run(items: Iterable[Any]) -> Iterator[Tuple[int, Tuple[str, Home]]]:
        for i, _ in items:
            parts = [read_home(splits[k], first_lines, settings, splits[k].path if several else None, mapping) for k in groups[i]]
            home = concat(parts)
            home.split = i
            for view, part in home.views():
                yield i, (f"home:{view}", part)

    return run


def home_of(items) -> Home:
    """The home state among a partition's messages."""
    for _, (kind, payload) in items:
        if kind == "home":
            return payload
    raise RuntimeError("ohana.spark: a partition without its home state")
