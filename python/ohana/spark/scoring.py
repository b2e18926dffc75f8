"""Scoring where the records are: each home scores the pairs of its own
contacts with later ones (`blocking`), after the homes of those later
contacts sent their comparison records (`want` → `recs`). A pair is
scored once, in one place, by the engine (`ohana_link_score_records`); only
the accepted pairs leave the home (with EM: the counts of comparison
vectors, for one fit on the driver)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pyarrow as pa

from . import engine
from .blocking import Layout, U64, unique_pairs
from .exchange import Message, Stage, at_home, by_kind
from .home import Home


@dataclass
class Records:
    """Comparison records of some rows (sorted by row)."""

    rows: np.ndarray  # int64
    cmp: pa.Array  # binary
    cls: np.ndarray  # int8


def ship_records(layout: Layout) -> Stage:
    """Home: the comparison records other homes asked for (`want`)."""

    def run(items) -> Iterator[Message]:
        here = at_home(items, layout.offsets)
        if here is None or not here[0].get("want"):
            return
        got, home, first = here
        w = np.unique(np.concatenate(got["want"]))
        b = (w >> U64(32)).astype(np.int64)
        target = (w & U64(0xFFFFFFFF)).astype(np.int64)
        order = np.lexsort((b, target))
        b, target = b[order], target[order]
        cuts = np.flatnonzero(np.diff(target)) + 1
        for part in np.split(np.arange(len(b)), cuts):
            rows = b[part]
            local = rows - first
            yield int(target[part[0]]), ("recs", Records(rows, home.cmp.take(pa.array(local)), home.cls[local]))

    return run


@dataclass
class Scored:
    """A home's scored pairs (rows a < b; a lives in this home)."""

    a: np.ndarray
    b: np.ndarray
    vector: np.ndarray  # int64 (-1: ruled out early under the built-in model)
    weight: np.ndarray  # float32
    terms: np.ndarray  # int8: term agreements (EM only)
    compared: int
    accepted: Optional[np.ndarray] = None  # bool, once the weights are known


def score(layout: Layout, settings: str, model_text: Optional[str], threshold32: np.float32, skip: Sequence[bool]) -> Stage:
    """Home: its pairs deduplicated, those every finder may skip dropped
    (contact classes), then scored. With a model the accepted pairs are
    marked; without (EM) every vector is kept for the counts."""
    skip_table = np.array(skip, dtype=bool)

    def run(items) -> Iterator[Message]:
        here = at_home(items, layout.offsets)
        if here is None:
            return
        got, home, first = here
        parts = got.get("pairs", [])
        p = unique_pairs(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint64)
        a = (p >> U64(32)).astype(np.int64)
        b = ((p >> U64(1)) & U64(0x7FFFFFFF)).astype(np.int64)
        unconditional = (p & U64(1)) != U64(0)
        # Every record this home scores: its own, then those sent to it.
        recs: List[Records] = got.get("recs", [])
        rows = np.concatenate([np.arange(first, first + home.count, dtype=np.int64)] + [r.rows for r in recs])
        cmp = pa.concat_arrays([home.cmp] + [r.cmp for r in recs]) if recs else home.cmp
        cls = np.concatenate([home.cls] + [r.cls for r in recs])
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
        la = order[np.searchsorted(rows, a)]
        lb = order[np.searchsorted(rows, b)]
        if skip_table.any() and len(p):
            kept = unconditional | ~skip_table[cls[la].astype(np.int64) * 4 + cls[lb].astype(np.int64)]
            a, b, la, lb = a[kept], b[kept], la[kept], lb[kept]
        s = engine.score_records(cmp, settings, model_text, la, lb)
        if model_text is not None:
            # Only the accepted pairs are kept (and their count of all).
            ok = (s.vector >= 0) & (s.weight >= threshold32)
            out = Scored(a[ok], b[ok], s.vector[ok], s.weight[ok], s.terms[ok], compared=len(a), accepted=np.ones(int(ok.sum()), dtype=bool))
        else:
            out = Scored(a, b, s.vector, s.weight, s.terms, compared=len(a))
        yield home.split, ("scored", out)

    return run


def summary(items) -> Iterator[Tuple[int, int, Optional[Tuple[np.ndarray, np.ndarray]]]]:
    """(compared, accepted, EM's vector counts as (vectors, counts)) of a home."""
    for _, (kind, s) in items:
        if kind != "scored":
            continue
        if s.accepted is None:
            v, c = np.unique(s.vector, return_counts=True)
            yield s.compared, 0, (v, c)
        else:
            yield s.compared, int(s.accepted.sum()), None


@dataclass(frozen=True)
class TermAdjustments:
    """Per name hash, the term-frequency adjustment (sorted hashes, values)."""

    family: Tuple[np.ndarray, np.ndarray]
    given: Tuple[np.ndarray, np.ndarray]

    @staticmethod
    def lookup(table: Tuple[np.ndarray, np.ndarray], hashes: np.ndarray) -> np.ndarray:
        keys, values = table
        out = np.zeros(len(hashes), dtype=np.float32)
        if len(keys) == 0:
            return out
        i = np.clip(np.searchsorted(keys, hashes), 0, len(keys) - 1)
        hit = (keys[i] == hashes) & (hashes != U64(0))
        out[hit] = values[i[hit]]
        return out

    def of(self, home: Home, local: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        return self.lookup(self.family, home.tf_family[local]), self.lookup(self.given, home.tf_given[local])


def name_counts(items) -> Iterator[Tuple[Tuple[int, int], int]]:
    """((which, hash), count) of a home's family (0) and given (1) name hashes."""
    for home in by_kind(items).get("home", []):
        for which, hashes in ((0, home.tf_family), (1, home.tf_given)):
            h = hashes[hashes != U64(0)]
            v, c = np.unique(h, return_counts=True)
            for x, k in zip(v.tolist(), c.tolist()):
                yield (which, x), k


def adjustments(counts: Dict[int, int]) -> Tuple[np.ndarray, np.ndarray]:
    """The one machine's formula: log2(typical share / this name's share),
    clamped to [-2, 1], as float32 (C's log2, as the engine computes it)."""
    import math

    total = float(sum(counts.values()))
    squares = float(sum(c * c for c in counts.values()))
    keys = np.array(sorted(counts), dtype=np.uint64)
    values = np.zeros(len(keys), dtype=np.float32)
    if total > 0:
        typical = squares / (total * total)
        for i, k in enumerate(keys.tolist()):
            values[i] = np.float32(max(-2.0, min(1.0, math.log2(typical / (counts[k] / total)))))
    return keys, values


def accept(layout: Layout, weights: np.ndarray, tf: Optional[TermAdjustments], threshold32: np.float32) -> Stage:
    """Home, with EM: the weight of each pair (the fitted table, plus the
    first contact's term-frequency adjustments, in float32 as the engine
    sums them) against the threshold."""

    def run(items) -> Iterator[Message]:
        here = at_home(items, layout.offsets)
        if here is None:
            return
        got, home, first = here
        for s in got.get("scored", []):
            adj = np.zeros(len(s.a), dtype=np.float32)
            if tf is not None and len(s.a):
                f, g = tf.of(home, s.a - first)
                adj = np.where(s.terms & 1, adj + f, adj).astype(np.float32)
                adj = np.where(s.terms & 2, adj + g, adj).astype(np.float32)
            w = (weights[s.vector] + adj).astype(np.float32)
            s.weight = w
            s.accepted = w >= threshold32
            yield home.split, ("scored", s)

    return run
