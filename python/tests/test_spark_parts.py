"""The pure NumPy building blocks of the Spark job (ohana.spark.blocking,
.components, job.group_splits), called directly (no Spark is started), each
against a small reference written here with plain loops, itertools and
dicts, on random inputs with fixed seeds and on hand-made edge cases:

- `pack` / `unique_pairs`: the pair packing `a << 32 | b << 1 | unconditional`
  (a < b whatever the argument order) and deduplication keeping the flag if
  any copy had it, against a dict {(a, b): any(flags)};
- `all_pairs`: every pair i < j inside each block, against
  itertools.combinations over each block's slice;
- `block_pairs`: the one machine's `BlockPairs` (Blocking.swift) for blocks
  of 2 to `cap` entries (all pairs of distinct rows, unconditional unless
  the block's rule flag is set), capped keys and statistics, and the routing
  (pairs to the home of a, a `want` to the home of b when it lives elsewhere);
- `capped_pairs`: the Swift loop inside a capped block (sorted by
  neighbourhood then row, each entry with its next 4 of equal neighbourhood,
  a == b skipped), all unconditional;
- `following` + `window_pairs`: `sortedNamePairs` (BlockingRules.swift),
  each entry with the next 3 in the whole sorted order, over partitions of
  a range-partitioned sorted array (some empty, some shorter than 3);
- `local_forest` / `on_driver`: connected components against a plain
  union-find;
- `group_splits`: at most `homes` groups, none empty, consecutive, covering
  every split once in order.

A pair is decoded here as (p >> 32, (p >> 1) & 0x7FFFFFFF, p & 1)."""

import itertools
import random
from collections import Counter, defaultdict

import numpy as np
import pytest

from ohana.spark import blocking, components, job
from ohana.spark.blocking import BlockStats, Layout
from ohana.spark.inputs import Split

U64 = np.uint64


# ---------------------------------------------------------------- helpers


def decode(p):
    p = int(p)
    return p >> 32, (p >> 1) & 0x7FFFFFFF, p & 1


def layout_of(counts):
    """A Layout whose homes hold `counts` rows each (zeros allowed)."""
    offsets = np.array([0] + list(itertools.accumulate(counts)), dtype=np.int64)
    return Layout(offsets, np.arange(len(counts), dtype=np.int64) * 1000)


def home_ref(layout, row):
    """The home holding `row`: offsets[h] <= row < offsets[h + 1]."""
    offsets = [int(x) for x in layout.offsets]
    for h in range(len(offsets) - 1):
        if offsets[h] <= row < offsets[h + 1]:
            return h
    raise AssertionError(f"row {row} is in no home")


def masks(layout):
    row_bits = max(1, (layout.n - 1).bit_length())
    row_mask = (1 << row_bits) - 1
    return row_bits, row_mask, row_mask + 1


def block_bits(rng, layout, count):
    """`count` distinct random block keys, clear of the rule flag and row bits."""
    row_bits, _, _ = masks(layout)
    low = (1 << (row_bits + 1)) - 1
    out = set()
    while len(out) < count:
        out.add(rng.getrandbits(64) & ~low)
    return sorted(out)


def check_routed(msgs, layout):
    """Checks the routing of one stage call's output and returns its pairs
    {(a, b): unconditional}: every pair once, in the `pairs` message of
    home(a); exactly one `want` (b << 32 | home(a)) for each pair whose b
    lives in another home, sent to home(b), and no other want."""
    pairs = {}
    wants = []
    for target, (kind, payload) in msgs:
        if kind == "pairs":
            assert payload.dtype == np.uint64
            for p in payload.tolist():
                a, b, u = decode(p)
                assert a < b, (a, b)
                assert target == home_ref(layout, a), (a, b, target)
                assert (a, b) not in pairs, f"pair {(a, b)} sent twice"
                pairs[(a, b)] = u
        elif kind == "want":
            for w in payload.tolist():
                assert target == home_ref(layout, w >> 32), (w >> 32, w & 0xFFFFFFFF, target)
                wants.append(w)
    assert len(wants) == len(set(wants)), "a want sent twice"
    expected = {b << 32 | home_ref(layout, a) for (a, b) in pairs if home_ref(layout, a) != home_ref(layout, b)}
    assert set(wants) == expected
    return pairs


def split_messages(rng, values, kind, parts):
    """`values` cut at random into up to `parts` messages for one partition."""
    values = list(values)
    cuts = sorted(rng.randint(0, len(values)) for _ in range(parts - 1))
    out = []
    for lo, hi in zip([0] + cuts, cuts + [len(values)]):
        if hi > lo:
            out.append((7, (kind, np.array(values[lo:hi], dtype=np.uint64))))
    return out


# ---------------------------------------------------------- pack, unique


def test_pack_orders_and_packs():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 1 << 31, 2000)
    b = rng.integers(0, 1 << 31, 2000)
    a[:4] = [0, (1 << 31) - 1, 5, (1 << 31) - 2]
    b[:4] = [(1 << 31) - 1, 0, 6, (1 << 31) - 1]
    keep = a != b
    a, b = a[keep], b[keep]
    u = rng.integers(0, 2, len(a)).astype(bool)
    for x, y in ((a, b), (b, a), (a.astype(np.uint64), b.astype(np.uint64))):
        got = blocking.pack(x, y, u)
        assert got.dtype == np.uint64
        for g, ai, bi, ui in zip(got.tolist(), a.tolist(), b.tolist(), u.tolist()):
            lo, hi = min(ai, bi), max(ai, bi)
            assert g == lo << 32 | hi << 1 | int(ui)
            assert decode(g) == (lo, hi, int(ui))


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_unique_pairs_keeps_any_unconditional(seed):
    rng = np.random.default_rng(seed)
    m = 3000
    a = rng.integers(0, 40, m)
    b = rng.integers(0, 40, m)
    keep = a != b
    a, b = a[keep], b[keep]
    u = rng.random(len(a)) < 0.3
    p = blocking.pack(a, b, u)
    rng.shuffle(p)
    ref = {}
    for ai, bi, ui in zip(a.tolist(), b.tolist(), u.tolist()):
        key = (min(ai, bi), max(ai, bi))
        ref[key] = ref.get(key, False) or ui
    got = blocking.unique_pairs(p)
    decoded = [decode(x) for x in got.tolist()]
    assert len(decoded) == len({(x, y) for x, y, _ in decoded}), "a pair kept twice"
    assert {(x, y): bool(f) for x, y, f in decoded} == ref


def test_unique_pairs_edge_cases():
    empty = np.zeros(0, dtype=np.uint64)
    assert len(blocking.unique_pairs(empty)) == 0
    # The same pair three times, the unconditional copy first, in the middle, last.
    for flags in ([True, False, False], [False, True, False], [False, False, True]):
        p = blocking.pack(np.array([4, 9, 4]), np.array([9, 4, 9]), np.array(flags))
        assert [decode(x) for x in blocking.unique_pairs(p).tolist()] == [(4, 9, 1)]
    p = blocking.pack(np.array([4, 9]), np.array([9, 4]), np.array([False, False]))
    assert [decode(x) for x in blocking.unique_pairs(p).tolist()] == [(4, 9, 0)]
    # Pairs sharing b stay apart.
    got = blocking.unique_pairs(blocking.pack(np.array([1, 2, 3]), np.array([9, 9, 9]), np.array([False, True, False])))
    assert sorted(decode(x) for x in got.tolist()) == [(1, 9, 0), (2, 9, 1), (3, 9, 0)]


# -------------------------------------------------------------- all_pairs


def all_pairs_ref(rows, starts, sizes):
    out = []
    for k, (s, n) in enumerate(zip(starts, sizes)):
        block = rows[s:s + n]
        for i, j in itertools.combinations(range(n), 2):
            out.append((block[i], block[j], k))
    return Counter(out)


@pytest.mark.parametrize("seed", [10, 11])
def test_all_pairs_every_pair_of_each_block(seed):
    rng = random.Random(seed)
    sizes = [rng.randint(2, 50) for _ in range(25)] + [2, 50, 2, 3, 50]
    rng.shuffle(sizes)
    starts, pos = [], 0
    for n in sizes:
        pos += rng.randint(0, 3)  # gaps between blocks are allowed
        starts.append(pos)
        pos += n
    rows = [rng.randint(0, 10_000) for _ in range(pos)]
    rows[starts[0] + 1] = rows[starts[0]]  # a row repeated inside a block
    rows[starts[3] + sizes[3] - 1] = rows[starts[3]]
    r = np.array(rows, dtype=np.int64)
    a, b, blk = blocking.all_pairs(r, np.array(starts, dtype=np.int64), np.array(sizes, dtype=np.int64))
    assert len(a) == len(b) == len(blk) == sum(n * (n - 1) // 2 for n in sizes)
    assert Counter(zip(a.tolist(), b.tolist(), blk.tolist())) == all_pairs_ref(rows, starts, sizes)


def test_all_pairs_edge_cases():
    rows = np.array([5, 5, 7], dtype=np.int64)
    a, b, blk = blocking.all_pairs(rows, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    assert len(a) == len(b) == len(blk) == 0
    a, b, blk = blocking.all_pairs(rows, np.array([0]), np.array([3]))
    assert sorted(zip(a.tolist(), b.tolist(), blk.tolist())) == [(5, 5, 0), (5, 7, 0), (5, 7, 0)]
    # Overlapping blocks are taken as given.
    a, b, blk = blocking.all_pairs(rows, np.array([1, 0]), np.array([2, 2]))
    assert sorted(zip(a.tolist(), b.tolist(), blk.tolist())) == [(5, 5, 1), (5, 7, 0)]


# ------------------------------------------------------------ block_pairs


def block_pairs_ref(entries, layout, cap):
    """BlockPairs (Blocking.swift) without the skip table: blocks are the
    entries with equal `e & ~row_mask`."""
    _, row_mask, rule_flag = masks(layout)
    blocks = defaultdict(list)
    for e in entries:
        blocks[e & ~row_mask].append(e & row_mask)
    pairs = {}
    capped = set()
    stats = BlockStats(keys=len(entries), blocks=len(blocks))
    for key, rows in blocks.items():
        stats.largest_block = max(stats.largest_block, len(rows))
        if len(rows) > cap:
            capped.add(key)
            stats.capped_blocks += 1
            stats.rows_in_capped_blocks += len(rows)
            continue
        unconditional = int(key & rule_flag == 0)
        for x, y in itertools.combinations(rows, 2):
            if x != y:
                k = (min(x, y), max(x, y))
                pairs[k] = pairs.get(k, 0) | unconditional
    return pairs, capped, stats


def run_block_pairs(items, layout, cap):
    msgs = list(blocking.block_pairs(layout, cap)(items))
    to_driver = [m for t, m in msgs if t == -1]
    stats = [payload for kind, payload in to_driver if kind == "stats"]
    capped = [payload for kind, payload in to_driver if kind == "capped"]
    assert len(stats) == 1 and len(capped) <= 1
    assert {kind for kind, _ in to_driver} <= {"stats", "capped"}
    assert all(t >= 0 and kind in ("pairs", "want") for t, (kind, _) in msgs if t != -1)
    got_capped = capped[0].tolist() if capped else []
    assert len(got_capped) == len(set(got_capped))
    return check_routed([m for m in msgs if m[0] != -1], layout), set(got_capped), stats[0]


def random_blocks(rng, layout, cap, count):
    """Entries of `count` random blocks (sizes 1 to cap + 4, some with a row
    twice, random rule flags), plus a block key used with and without the
    rule flag."""
    _, row_mask, rule_flag = masks(layout)
    n = layout.n
    keys = block_bits(rng, layout, count)
    entries = []
    for key in keys:
        size = rng.choice([1, 2, 2, 3, cap - 1, cap, cap + 1, rng.randint(1, cap + 4)])
        rows = [rng.randrange(n) for _ in range(size)]
        if size >= 3 and rng.random() < 0.3:
            rows[1] = rows[0]
        flag = rule_flag if rng.random() < 0.5 else 0
        entries += [key | flag | r for r in rows]
    # Same block bits, with and without the rule flag: two blocks.
    entries += [keys[0] ^ rule_flag | r for r in rng.sample(range(n), min(n, 3))]
    return entries


@pytest.mark.parametrize("seed,counts,cap", [
    (20, [7, 0, 13, 13, 7], 6),
    (21, [1, 1, 1, 1], 3),
    (22, [300, 0, 0, 212, 500], 50),
    (23, [2], 4),
    (24, [40, 1, 30], 10),
])
def test_block_pairs_against_swift_rules(seed, counts, cap):
    rng = random.Random(seed)
    layout = layout_of(counts)
    entries = random_blocks(rng, layout, cap, count=60)
    # Entries from several homes, in no order.
    rng.shuffle(entries)
    items = split_messages(rng, entries, "entries", 4)
    pairs, capped, stats = run_block_pairs(items, layout, cap)
    ref_pairs, ref_capped, ref_stats = block_pairs_ref(entries, layout, cap)
    assert pairs == ref_pairs
    assert capped == ref_capped
    assert stats == ref_stats


def test_block_pairs_edge_cases():
    layout = layout_of([3, 0, 5])  # n = 8, three row bits, rule flag 8
    _, row_mask, flag = masks(layout)
    assert (row_mask, flag) == (7, 8) == (layout.row_mask, layout.row_mask + 1)
    k1, k2 = 1 << 40, 3 << 50
    cap = 3

    # Nothing at all: only (zero) statistics.
    msgs = list(blocking.block_pairs(layout, cap)([]))
    assert msgs == [(-1, ("stats", BlockStats()))]

    entries = [
        k1 | 0, k1 | 5,                # a pair across homes 0 and 2
        k1 | flag | 5, k1 | flag | 0,  # the same pair from a rule block
        k2 | 6, k2 | 6,                # one row twice: no pair
        k2 | flag | 1, k2 | flag | 2, k2 | flag | 7,  # size 3 = cap: rule pairs
        (k1 << 1) | 1, (k1 << 1) | 2, (k1 << 1) | 3, (k1 << 1) | 4,  # cap + 1: capped
        (k2 << 1) | 4,                 # alone
    ]
    pairs, capped, stats = run_block_pairs([(0, ("entries", np.array(entries, dtype=np.uint64)))], layout, cap)
    assert pairs == {(0, 5): 1, (1, 2): 0, (1, 7): 0, (2, 7): 0}
    assert capped == {k1 << 1}
    assert stats == BlockStats(keys=14, blocks=6, largest_block=4, capped_blocks=1, rows_in_capped_blocks=4)
    assert pairs == block_pairs_ref(entries, layout, cap)[0]


def test_block_pairs_wants_go_to_b_home():
    layout = layout_of([2, 2, 2])
    key = 1 << 40
    entries = np.array([key | r for r in range(6)], dtype=np.uint64)
    msgs = list(blocking.block_pairs(layout, 10)([(0, ("entries", entries))]))
    wants = {(t, w >> 32, w & 0xFFFFFFFF) for t, (kind, p) in msgs if kind == "want" for w in p.tolist()}
    # (home of b, b, home of a): b = 2, 3 wanted by home 0; 4, 5 by homes 0 and 1.
    assert wants == {(1, 2, 0), (1, 3, 0), (2, 4, 0), (2, 5, 0), (2, 4, 1), (2, 5, 1)}
    assert check_routed([m for m in msgs if m[0] != -1], layout) == {
        (a, b): 1 for a, b in itertools.combinations(range(6), 2)}


# ----------------------------------------------------------- capped_pairs


def capped_pairs_ref(both, layout):
    """The Swift loop in BlockPairs for each capped block."""
    _, row_mask, _ = masks(layout)
    blocks = defaultdict(list)
    for e, nb in both:
        blocks[e & ~row_mask].append((nb, e & row_mask))
    pairs = {}
    for scratch in blocks.values():
        scratch.sort()
        for i in range(len(scratch)):
            j = i + 1
            while j < len(scratch) and j <= i + 4 and scratch[j][0] == scratch[i][0]:
                a, b = scratch[i][1], scratch[j][1]
                if a != b:
                    pairs[(min(a, b), max(a, b))] = 1
                j += 1
    return pairs


def run_capped(items, layout):
    msgs = list(blocking.capped_pairs(layout)(items))
    assert all(t >= 0 for t, _ in msgs)
    return check_routed(msgs, layout)


@pytest.mark.parametrize("seed,counts", [(30, [20, 0, 25, 15]), (31, [100]), (32, [3, 3, 3, 3, 3, 3, 3]), (33, [500, 700])])
def test_capped_pairs_against_swift_loop(seed, counts):
    rng = random.Random(seed)
    layout = layout_of(counts)
    _, _, flag = masks(layout)
    n = layout.n
    both = []
    for key in block_bits(rng, layout, 6):
        key |= flag if rng.random() < 0.5 else 0
        hoods = [rng.getrandbits(64) or 1 for _ in range(rng.randint(1, 4))]
        size = rng.randint(5, 40)
        rows = [rng.randrange(n) for _ in range(size)]
        rows += rng.sample(rows, min(len(rows), 4))  # rows twice in the block
        for r in rows:
            both.append((key | r, rng.choice(hoods)))
    rng.shuffle(both)
    ref = capped_pairs_ref(both, layout)
    assert ref  # the input makes pairs
    arr = [tuple(x) for x in both]
    cuts = sorted(rng.randint(0, len(arr)) for _ in range(3))
    items = [(5, ("capped", np.array(arr[lo:hi], dtype=np.uint64).reshape(-1, 2)))
             for lo, hi in zip([0] + cuts, cuts + [len(arr)])]
    assert run_capped(items, layout) == ref


def test_capped_pairs_edge_cases():
    layout = layout_of([10, 10])
    k1, k2 = 1 << 40, 1 << 41
    h1, h2 = 111, 222

    assert list(blocking.capped_pairs(layout)([])) == []

    # Seven rows of one neighbourhood: each with its next 4 only.
    both = [(k1 | r, h1) for r in (13, 2, 9, 4, 11, 6, 0)]
    got = run_capped([(0, ("capped", np.array(both, dtype=np.uint64)))], layout)
    order = [0, 2, 4, 6, 9, 11, 13]
    assert got == {(order[i], order[j]): 1 for i in range(7) for j in range(i + 1, min(7, i + 5))}
    assert got == capped_pairs_ref(both, layout)

    # A row twice takes a place among the next 4, and the pair (r, r) is skipped.
    both = [(k1 | r, h1) for r in (1, 1, 1, 1, 2, 3)]
    got = run_capped([(0, ("capped", np.array(both, dtype=np.uint64)))], layout)
    assert got == {(1, 2): 1, (1, 3): 1, (2, 3): 1} == capped_pairs_ref(both, layout)
    both = [(k1 | r, h1) for r in (1, 1, 1, 1, 1, 2)]
    assert run_capped([(0, ("capped", np.array(both, dtype=np.uint64)))], layout) == {(1, 2): 1}

    # Other neighbourhoods and other blocks stay apart.
    both = [(k1 | 1, h1), (k1 | 2, h2), (k2 | 3, h1), (k1 | 4, h1), (k2 | 5, h2), (k2 | 6, h1)]
    got = run_capped([(0, ("capped", np.array(both[:3], dtype=np.uint64))),
                      (0, ("capped", np.array(both[3:], dtype=np.uint64)))], layout)
    assert got == {(1, 4): 1, (3, 6): 1} == capped_pairs_ref(both, layout)


# ------------------------------------------------- following, window_pairs


def window_ref(entries, layout):
    """sortedNamePairs (BlockingRules.swift) without the skip table."""
    _, row_mask, _ = masks(layout)
    s = sorted(entries)
    pairs = {}
    for i in range(len(s)):
        for j in range(i + 1, min(len(s), i + 4)):
            a, b = s[i] & row_mask, s[j] & row_mask
            pairs[(min(a, b), max(a, b))] = 0
    return pairs


def run_windows(parts, layout, heads_of_empty=True):
    P = len(parts)
    heads = {p: own[:3] for p, own in enumerate(parts) if heads_of_empty or len(own)}
    after = blocking.following(heads, P)
    assert set(after) == set(range(P))
    got = {}
    total = 0
    for p, own in enumerate(parts):
        msgs = list(blocking.window_pairs(layout, after)([(p, own)]))
        pairs = check_routed(msgs, layout)
        total += len(pairs)
        got.update(pairs)
    assert total == len(got), "a pair made in two partitions"
    return got, after


def name_entries(rng, layout, names):
    _, row_mask, _ = masks(layout)
    keys = [rng.getrandbits(64) & ~row_mask for _ in range(names)]
    rows = [r for r in range(layout.n) if rng.random() < 0.8]  # some rows have no name
    return sorted(rng.choice(keys) | r for r in rows)


@pytest.mark.parametrize("seed,counts,P", [(40, [30, 0, 20], 6), (41, [200, 300], 12), (42, [9], 5), (43, [50, 50], 40)])
def test_window_pairs_against_whole_order(seed, counts, P):
    rng = random.Random(seed)
    layout = layout_of(counts)
    entries = name_entries(rng, layout, names=max(2, layout.n // 6))  # ties between names
    cuts = sorted(rng.randint(0, len(entries)) for _ in range(P - 1))
    # Force a run of empty and short partitions.
    if P >= 5:
        cuts[1] = cuts[2] = cuts[0]
        cuts[3] = min(len(entries), cuts[0] + 1)
        cuts = sorted(cuts)
    bounds = list(zip([0] + cuts, cuts + [len(entries)]))
    parts = [np.array(entries[lo:hi], dtype=np.uint64) for lo, hi in bounds]
    assert any(len(x) == 0 for x in parts) or P < 5
    for heads_of_empty in (True, False):
        got, after = run_windows(parts, layout, heads_of_empty)
        assert got == window_ref(entries, layout)
        for p, (lo, hi) in enumerate(bounds):
            assert after[p].tolist() == entries[hi:hi + 3]


def test_window_pairs_edge_cases():
    layout = layout_of([4, 4])
    _, row_mask, _ = masks(layout)
    name = [(i + 1) << 20 for i in range(8)]
    entries = [name[i] | r for i, r in enumerate([7, 0, 5, 2, 3, 6, 1, 4])]
    ref = window_ref(entries, layout)
    assert len(ref) == 3 + 3 + 3 + 3 + 3 + 2 + 1
    for sizes in ([8], [0, 8, 0], [1, 1, 1, 1, 1, 1, 1, 1], [0, 2, 0, 0, 1, 0, 2, 0, 3], [3, 0, 0, 0, 5], [7, 1], [1, 7]):
        cuts = list(itertools.accumulate(sizes))
        parts = [np.array(entries[lo:hi], dtype=np.uint64) for lo, hi in zip([0] + cuts[:-1], cuts)]
        got, _ = run_windows(parts, layout)
        assert got == ref, sizes
    # Nothing, or one entry: no pair.
    assert run_windows([np.zeros(0, dtype=np.uint64)] * 3, layout)[0] == {}
    assert run_windows([np.zeros(0, dtype=np.uint64), np.array([name[0] | 3], dtype=np.uint64)], layout)[0] == {}
    # Equal names: ties by row.
    same = [name[0] | r for r in range(8)]
    got, _ = run_windows([np.array(same[:2], dtype=np.uint64), np.array(same[2:], dtype=np.uint64)], layout)
    assert got == {(a, b): 0 for a in range(8) for b in range(a + 1, min(8, a + 4))}


def test_following_alone():
    P = 6
    heads = {0: np.array([1, 2, 3], dtype=np.uint64), 2: np.array([4], dtype=np.uint64),
             3: np.zeros(0, dtype=np.uint64), 4: np.array([5, 6], dtype=np.uint64)}
    after = blocking.following(heads, P)
    assert {p: a.tolist() for p, a in after.items()} == {0: [4, 5, 6], 1: [4, 5, 6], 2: [5, 6], 3: [5, 6], 4: [], 5: []}


# ------------------------------------------------------------- components


def components_ref(u, v):
    """{node: smallest node of its component} by a plain union-find."""
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for x, y in zip(u, v):
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    roots = {x: find(x) for x in list(parent)}
    low = {}
    for x, r in roots.items():
        low[r] = min(low.get(r, x), x)
    return {x: low[r] for x, r in roots.items()}


def partition_of(comp):
    groups = defaultdict(set)
    for x, c in comp.items():
        groups[c].add(x)
    return {frozenset(g) for g in groups.values()}


def graphs():
    rng = random.Random(50)
    out = []
    # Random sparse graphs over large, scattered node ids.
    for m, spread in ((0, 10), (1, 10), (30, 40), (300, 400), (2000, 3000)):
        ids = rng.sample(range(1 << 31), spread)
        out.append(("random", [rng.choice(ids) for _ in range(m)], [rng.choice(ids) for _ in range(m)]))
    # A long chain over a random permutation, edges in random order and direction.
    for n in (2, 50, 3000):
        perm = rng.sample(range(10 * n), n)
        edges = [(perm[i], perm[i + 1]) if rng.random() < 0.5 else (perm[i + 1], perm[i]) for i in range(n - 1)]
        rng.shuffle(edges)
        out.append((f"chain{n}", [e[0] for e in edges], [e[1] for e in edges]))
    # Chains by increasing and decreasing nodes.
    out.append(("up", list(range(999)), list(range(1, 1000))))
    out.append(("down", list(range(1000, 1, -1)), list(range(999, 0, -1))))
    # Stars, one with a large centre, one with the smallest centre, plus duplicates.
    leaves = rng.sample(range(1000), 200)
    out.append(("stars", [5000] * 200 + [leaves[0]] * 50, leaves + rng.sample(range(2000, 3000), 50)))
    u = [1, 2, 1, 2, 3, 3, 10, 11, 11]
    v = [2, 1, 2, 1, 4, 4, 11, 10, 12]
    out.append(("duplicates", u, v))
    # Self-loops: on nodes with other edges, and alone.
    out.append(("loops", [1, 2, 2, 8, 8, 30], [1, 2, 3, 8, 8, 30]))
    # Many small components.
    u = [2 * i for i in range(500)] + [2 * i + 1 for i in range(0, 500, 3)]
    v = [2 * i + 1 for i in range(500)] + [2 * i + 2 for i in range(0, 500, 3)]
    out.append(("pairs", u, v))
    return out


@pytest.mark.parametrize("name,u,v", graphs(), ids=[g[0] + str(i) for i, g in enumerate(graphs())])
def test_on_driver_smallest_of_component(name, u, v):
    nodes, comp, rounds = components.on_driver(np.array(u, dtype=np.int64), np.array(v, dtype=np.int64))
    ref = components_ref(u, v)
    assert len(nodes) == len(ref) and len(comp) == len(nodes)
    assert dict(zip(nodes.tolist(), comp.tolist())) == ref
    assert (rounds == 0) == (len(u) == 0)


@pytest.mark.parametrize("name,u,v", graphs(), ids=[g[0] + str(i) for i, g in enumerate(graphs())])
def test_local_forest_same_components(name, u, v):
    a, b = components.local_forest(np.array(u, dtype=np.int64), np.array(v, dtype=np.int64))
    # A self-loop links nothing: a node with only self-loops is a singleton
    # and gets no edge (see test_self_loops).
    links = [(x, y) for x, y in zip(u, v) if x != y]
    ref = components_ref([x for x, _ in links], [y for _, y in links])
    fa, fb = a.tolist(), b.tolist()
    forest = components_ref(fa, fb)
    # Same nodes, same components.
    assert set(forest) == set(ref)
    assert partition_of(forest) == partition_of(ref)
    # Each edge points a node (once) at its component's smallest node.
    assert len(fa) == len(set(fa))
    for x, r in zip(fa, fb):
        assert x != r and r == ref[x], (x, r, ref[x])
    assert len(fa) == len(ref) - len(partition_of(ref))


def test_self_loops():
    """A self-loop (a == b, never an accepted pair: a < b there) adds no
    link: on_driver keeps its node as its own component; local_forest
    leaves out a node that has only self-loops (a singleton needs no edge)."""
    u = np.array([5, 1, 7, 7, 9], dtype=np.int64)
    v = np.array([5, 3, 7, 1, 9], dtype=np.int64)
    nodes, comp, _ = components.on_driver(u, v)
    assert dict(zip(nodes.tolist(), comp.tolist())) == {1: 1, 3: 1, 5: 5, 7: 1, 9: 9} == components_ref(u.tolist(), v.tolist())
    a, b = components.local_forest(u, v)
    assert sorted(zip(a.tolist(), b.tolist())) == [(3, 1), (7, 1)]
    a, b = components.local_forest(np.array([4], dtype=np.int64), np.array([4], dtype=np.int64))
    assert len(a) == len(b) == 0
    nodes, comp, _ = components.on_driver(np.array([4], dtype=np.int64), np.array([4], dtype=np.int64))
    assert nodes.tolist() == [4] and comp.tolist() == [4]


def test_components_empty():
    e = np.zeros(0, dtype=np.int64)
    a, b = components.local_forest(e, e)
    assert len(a) == len(b) == 0
    nodes, comp, rounds = components.on_driver(e, e)
    assert len(nodes) == len(comp) == 0 and rounds == 0


# ----------------------------------------------------------- group_splits


def splits_of(sizes):
    out, pos = [], 0
    for s in sizes:
        out.append(Split(0, "x.ndjson", "ndjson", pos, pos + s, False))
        pos += s
    return out


def check_groups(groups, n, homes):
    assert 1 <= len(groups) <= max(1, homes)
    assert all(groups), "an empty group"
    flat = [i for g in groups for i in g]
    assert flat == list(range(n))  # consecutive, in order, each split once
    for g in groups:
        assert g == list(range(g[0], g[-1] + 1))


def test_group_splits_random():
    rng = random.Random(60)
    for _ in range(300):
        n = rng.randint(1, 40)
        kind = rng.random()
        if kind < 0.3:
            sizes = [rng.randint(0, 3) for _ in range(n)]  # zero-byte splits too
        elif kind < 0.6:
            sizes = [rng.choice([1, 1 << 30]) for _ in range(n)]  # skewed
        else:
            sizes = [rng.randint(1, 1 << 26) for _ in range(n)]
        homes = rng.randint(1, n + 5)
        check_groups(job.group_splits(splits_of(sizes), homes), n, homes)


def test_group_splits_edge_cases():
    for sizes, homes in (([10], 1), ([10], 8), ([0, 0, 0], 2), ([5] * 9, 1), ([1, 1, 1, 1000], 4), ([1000, 1, 1, 1], 4)):
        check_groups(job.group_splits(splits_of(sizes), homes), len(sizes), homes)
    assert job.group_splits(splits_of([7, 7, 7]), 1) == [[0, 1, 2]]
    # Equal splits and enough homes: one split a home.
    assert job.group_splits(splits_of([64] * 6), 6) == [[i] for i in range(6)]
    assert job.group_splits(splits_of([64] * 6), 10) == [[i] for i in range(6)]
    assert job.group_splits(splits_of([64] * 6), 3) == [[0, 1], [2, 3], [4, 5]]
    # Whole files (start 0) of various sizes.
    whole = [Split(i, f"f{i}.vcf", "vcard", 0, s, True) for i, s in enumerate([100, 5, 5, 100, 5])]
    check_groups(job.group_splits(whole, 3), 5, 3)
