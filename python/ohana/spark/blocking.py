"""Candidate pairs, as the one machine makes them (Sources/OhanaDedupe/
Clustering/Blocking.swift), with rows numbered in input order across all
homes (`row` = the home's offset + the contact's place in it):

- each blocking key is an entry `block bits | rule flag | row` (the one
  machine's packing, with its row bits for the whole input); entries go to
  block partitions by their block bits, and each block of 2 to `max_block`
  entries yields all its pairs;
- a larger (capped) block pairs only rows that share the neighbourhood key,
  each with its next 4 in row order: its keys are broadcast and the homes
  send those rows' neighbourhood keys in a second, small round;
- the sorted neighbourhood pairs each contact with the next 3 in name
  order: name keys are range-partitioned, sorted, and each partition gets
  the first keys of the ones after it.

A pair is `a << 32 | b << 1 | unconditional` (a < b): the typo-tolerant
rules' blocks and the sorted neighbourhood skip a pair whose two contact
classes cannot reach the threshold; the scoring side, which has both
contacts' classes, drops a pair when every rule that found it may skip it.
Pairs go to the home of `a`, where a's contact is: every pair of a contact
with a later one is scored in the earlier one's home, so each pair is
deduplicated and scored in one place, and no pair crosses the network more
than once. A `want` (b, home of a) tells b's home to send b's comparison
record there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Sequence, Tuple

import numpy as np

from .exchange import Message, Stage, by_kind
from .home import Home

U64 = np.uint64
CAPPED_NEIGHBOURS = 4  # Blocking.neighbours
WINDOW_NEIGHBOURS = 3  # Blocking.windowNeighbours


@dataclass(frozen=True)
class Layout:
    """The row numbering: `offsets[h]` is home h's first row; `n` rows in
    all. `gid_starts[h]` is the gid (input, line) where home h's piece
    starts, so any gid names its home."""

    offsets: np.ndarray  # int64, homes + 1
    gid_starts: np.ndarray  # int64, homes

    @property
    def n(self) -> int:
        return int(self.offsets[-1])

    @property
    def row_bits(self) -> int:
        return max(1, (self.n - 1).bit_length())

    @property
    def row_mask(self) -> int:
        return (1 << self.row_bits) - 1

    def home(self, rows: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.offsets, rows, side="right") - 1

    def home_of_gid(self, gids: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.gid_starts, gids, side="right") - 1


def block_partition(entries: np.ndarray, partitions: int) -> np.ndarray:
    """The block partition of entries (by their hash bits, above any row bit)."""
    return ((entries >> U64(33)) % U64(partitions)).astype(np.int64)


def entries_of(home: Home, layout: Layout) -> np.ndarray:
    """The home's blocking entries: `block bits | rule flag | row`."""
    row_mask = U64(layout.row_mask)
    rule_flag = U64(layout.row_mask + 1)
    keep = ~(row_mask | rule_flag)
    first = int(layout.offsets[home.split])
    rows = np.repeat(np.arange(first, first + home.count, dtype=np.uint64), np.diff(home.key_offsets))
    k = home.keys
    return (k & keep) | np.where(k & U64(1), rule_flag, U64(0)) | rows


def send_entries(layout: Layout, partitions: int) -> Stage:
    """Home → block partitions: each home's entries, one blob per partition."""

    def run(items) -> Iterator[Message]:
        for home in by_kind(items).get("home", []):
            e = entries_of(home, layout)
            yield from _split_by(e, block_partition(e, partitions), "entries")

    return run


def _split_by(values: np.ndarray, targets: np.ndarray, kind: str) -> Iterator[Message]:
    if len(values) == 0:
        return
    order = np.argsort(targets, kind="stable")
    values, targets = values[order], targets[order]
    cuts = np.flatnonzero(np.diff(targets)) + 1
    for part in np.split(np.arange(len(values)), cuts):
        yield int(targets[part[0]]), (kind, values[part])


def pack(a: np.ndarray, b: np.ndarray, unconditional: np.ndarray) -> np.ndarray:
    lo, hi = np.minimum(a, b).astype(np.uint64), np.maximum(a, b).astype(np.uint64)
    return (lo << U64(32)) | (hi << U64(1)) | unconditional.astype(np.uint64)


def unique_pairs(p: np.ndarray) -> np.ndarray:
    """Distinct pairs; a pair found both ways keeps the unconditional flag."""
    if len(p) == 0:
        return p
    p = np.sort(p)
    # After the sort a pair's unconditional copy comes last: keep the last of each.
    last = np.r_[(p[1:] >> U64(1)) != (p[:-1] >> U64(1)), True]
    return p[last]


def route_pairs(pairs: np.ndarray, layout: Layout) -> Iterator[Message]:
    """Pairs to the home of their first row, and a `want` for each second
    row that lives elsewhere (b, home of a) to b's home."""
    if len(pairs) == 0:
        return
    pairs = unique_pairs(pairs)
    a = (pairs >> U64(32)).astype(np.int64)
    b = ((pairs >> U64(1)) & U64(0x7FFFFFFF)).astype(np.int64)
    ha, hb = layout.home(a), layout.home(b)
    yield from _split_by(pairs, ha, "pairs")
    away = ha != hb
    if away.any():
        want = np.unique((b[away].astype(np.uint64) << U64(32)) | ha[away].astype(np.uint64))
        yield from _split_by(want, layout.home((want >> U64(32)).astype(np.int64)), "want")


def all_pairs(rows: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of positions i < j inside each block (`starts`, `sizes`):
    (rows at i, rows at j, the block's index per pair)."""
    a_out: List[np.ndarray] = []
    b_out: List[np.ndarray] = []
    blk_out: List[np.ndarray] = []
    for s in np.unique(sizes):
        which = np.flatnonzero(sizes == s)
        iu, ju = np.triu_indices(int(s), 1)
        base = starts[which][:, None]
        a_out.append(rows[base + iu[None, :]].ravel())
        b_out.append(rows[base + ju[None, :]].ravel())
        blk_out.append(np.repeat(which, len(iu)))
    if not a_out:
        e = np.zeros(0, dtype=rows.dtype)
        return e, e, np.zeros(0, dtype=np.int64)
    return np.concatenate(a_out), np.concatenate(b_out), np.concatenate(blk_out)


@dataclass
class BlockStats:
    keys: int = 0
    blocks: int = 0
    largest_block: int = 0
    capped_blocks: int = 0
    rows_in_capped_blocks: int = 0

    def add(self, other: "BlockStats") -> None:
        self.keys += other.keys
        self.blocks += other.blocks
        self.largest_block = max(self.largest_block, other.largest_block)
        self.capped_blocks += other.capped_blocks
        self.rows_in_capped_blocks += other.rows_in_capped_blocks


def block_pairs(layout: Layout, cap: int) -> Stage:
    """Block partition: the pairs of its blocks of 2 to `cap` entries (to
    the homes), the keys of its capped blocks and its statistics (to the
    driver, as `capped` and `stats` messages to partition -1)."""
    row_mask = U64(layout.row_mask)
    rule_flag = U64(layout.row_mask + 1)

    def run(items) -> Iterator[Message]:
        parts = by_kind(items).get("entries", [])
        e = np.sort(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint64)
        stats = BlockStats(keys=len(e))
        if len(e):
            block = e & ~row_mask
            starts = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])
            sizes = np.diff(np.r_[starts, len(e)])
            stats.blocks = len(starts)
            stats.largest_block = int(sizes.max())
            capped = sizes > cap
            stats.capped_blocks = int(capped.sum())
            stats.rows_in_capped_blocks = int(sizes[capped].sum())
            if capped.any():
                yield -1, ("capped", block[starts[capped]])
            small = (sizes >= 2) & ~capped
            rows = (e & row_mask).astype(np.int64)
            a, b, blk = all_pairs(rows, starts[small], sizes[small])
            differ = a != b
            rule = (block[starts[small]] & rule_flag) != U64(0)
            yield from route_pairs(pack(a[differ], b[differ], ~rule[blk[differ]]), layout)
        yield -1, ("stats", stats)

    return run


def send_capped(layout: Layout, capped_keys: np.ndarray, partitions: int) -> Stage:
    """Home → block partitions: for each entry in a capped block of a row
    with a neighbourhood key, (block entry, neighbourhood key)."""
    row_mask = U64(layout.row_mask)

    def run(items) -> Iterator[Message]:
        for home in by_kind(items).get("home", []):
            e = entries_of(home, layout)
            hit = np.isin(e & ~row_mask, capped_keys)
            if not hit.any():
                continue
            first = int(layout.offsets[home.split])
            rows = (e[hit] & row_mask).astype(np.int64)
            nb = home.neighbourhood[rows - first]
            with_key = nb != U64(0)
            sel_e, sel_nb = e[hit][with_key], nb[with_key]
            # By block and neighbourhood key together: a hot block (a common
            # name) is spread over the partitions, one neighbourhood each.
            targets = block_partition((sel_e & ~row_mask) ^ sel_nb, partitions)
            both = np.stack([sel_e, sel_nb], axis=1)
            for t, (kind, chunk) in _split_by(np.arange(len(sel_e)), targets, "capped"):
                yield t, (kind, both[chunk])

    return run


def capped_pairs(layout: Layout) -> Stage:
    """Block partition: inside each capped block, rows that share the
    neighbourhood key paired with their next 4 in row order (the one
    machine's sorted neighbourhood inside a capped block)."""
    row_mask = U64(layout.row_mask)

    def run(items) -> Iterator[Message]:
        parts = by_kind(items).get("capped", [])
        if not parts:
            return
        both = np.concatenate(parts)
        block = both[:, 0] & ~row_mask
        rows = (both[:, 0] & row_mask).astype(np.int64)
        nb = both[:, 1]
        order = np.lexsort((rows, nb, block))
        block, rows, nb = block[order], rows[order], nb[order]
        out: List[np.ndarray] = []
        for d in range(1, CAPPED_NEIGHBOURS + 1):
            same = (block[d:] == block[:-d]) & (nb[d:] == nb[:-d]) & (rows[d:] != rows[:-d])
            if same.any():
                out.append(pack(rows[:-d][same], rows[d:][same], np.ones(int(same.sum()), dtype=bool)))
        if out:
            yield from route_pairs(np.concatenate(out), layout)

    return run


def name_entries(home: Home, layout: Layout) -> np.ndarray:
    """The home's sorted-neighbourhood entries: `name bits | row`, for
    contacts with a family name."""
    row_mask = U64(layout.row_mask)
    first = int(layout.offsets[home.split])
    rows = np.arange(first, first + home.count, dtype=np.uint64)
    have = home.has_name_order
    return (home.name_order[have] & ~row_mask) | rows[have]


def sample_names(layout: Layout, per_home: int) -> Stage:
    def run(items) -> Iterator[np.ndarray]:
        for home in by_kind(items).get("home", []):
            e = name_entries(home, layout)
            if len(e) > per_home:
                e = e[np.linspace(0, len(e) - 1, per_home).astype(np.int64)]
            yield e

    return run


def send_names(layout: Layout, bounds: np.ndarray) -> Stage:
    """Home → window partitions (ranges of the name order)."""

    def run(items) -> Iterator[Message]:
        for home in by_kind(items).get("home", []):
            e = name_entries(home, layout)
            yield from _split_by(e, np.searchsorted(bounds, e, side="right"), "names")

    return run


def sort_names(items) -> Iterator[Tuple[int, np.ndarray]]:
    """Window partition: its name entries, sorted."""
    parts: Dict[int, List[np.ndarray]] = {}
    for p, (_, e) in items:
        parts.setdefault(p, []).append(e)
    for p, es in parts.items():
        yield p, np.sort(np.concatenate(es))


def following(heads: Dict[int, np.ndarray], partitions: int) -> Dict[int, np.ndarray]:
    """Per window partition, the first WINDOW_NEIGHBOURS entries after it
    (from the partitions that follow, skipping empty ones)."""
    out: Dict[int, np.ndarray] = {}
    ahead = np.zeros(0, dtype=np.uint64)
    for p in range(partitions - 1, -1, -1):
        out[p] = ahead[:WINDOW_NEIGHBOURS]
        own = heads.get(p)
        if own is not None and len(own):
            ahead = np.concatenate([own[:WINDOW_NEIGHBOURS], ahead])[:WINDOW_NEIGHBOURS]
    return out


def window_pairs(layout: Layout, after: Dict[int, np.ndarray]) -> Stage:
    """Window partition: each entry paired with the next 3 in name order
    (those of the following partitions included)."""
    row_mask = U64(layout.row_mask)

    def run(items) -> Iterator[Message]:
        for p, own in items:
            if len(own) == 0:
                continue
            e = np.concatenate([own, after.get(p, np.zeros(0, dtype=np.uint64))])
            rows = (e & row_mask).astype(np.int64)
            m = len(own)
            out: List[np.ndarray] = []
            for d in range(1, WINDOW_NEIGHBOURS + 1):
                if len(e) <= d:
                    break
                i = np.arange(min(m, len(e) - d))
                out.append(pack(rows[i], rows[i + d], np.zeros(len(i), dtype=bool)))
            if out:
                yield from route_pairs(np.concatenate(out), layout)

    return run
