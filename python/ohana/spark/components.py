"""Clusters: connected components of the accepted pairs. Each home first
joins its own accepted pairs with a union-find (so only one edge per
contact that has any leaves it: to the smallest row it reaches locally),
then Spark finds the components of those edges by alternating large-star
and small-star (Kiveris et al., 2014), each round checkpointed. A
component is named by its smallest row."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

import numpy as np

from .blocking import Layout
from .exchange import Message, Stage, by_kind


def local_forest(a: np.ndarray, b: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Edges (node, root) with the same components as (a, b): each node
    to the smallest node of its component among these edges."""
    if len(a) == 0:
        return a, b
    nodes, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
    parent = np.arange(len(nodes))

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    m = len(a)
    for x, y in zip(inverse[:m].tolist(), inverse[m:].tolist()):
        rx, ry = find(x), find(y)
        if rx != ry:
            # The smaller index (nodes are sorted: the smaller row) is the root.
            if rx < ry:
                parent[ry] = rx
            else:
                parent[rx] = ry
    roots = np.array([find(i) for i in range(len(nodes))], dtype=np.int64)
    moved = roots != np.arange(len(nodes))
    return nodes[moved], nodes[roots[moved]]


def reduced_edges(items) -> Iterator[Tuple[np.ndarray, np.ndarray]]:
    """A home's accepted pairs as a forest (node, local root)."""
    for _, (kind, s) in items:
        if kind == "scored" and s.accepted is not None:
            yield local_forest(s.a[s.accepted], s.b[s.accepted])


def on_driver(u: np.ndarray, v: np.ndarray) -> Tuple[np.ndarray, np.ndarray, int]:
    """Connected components of edges (u, v), vectorized: each node's label
    is lowered to the smallest label of its edges' ends, then labels jump
    to their label's label, until nothing moves. (node, comp = the
    smallest row of its component, rounds)."""
    if len(u) == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, 0
    nodes, inverse = np.unique(np.concatenate([u, v]), return_inverse=True)
    m = len(u)
    iu, iv = inverse[:m], inverse[m:]
    label = np.arange(len(nodes))
    rounds = 0
    while True:
        rounds += 1
        before = label.copy()
        low = np.minimum(label[iu], label[iv])
        np.minimum.at(label, iu, low)
        np.minimum.at(label, iv, low)
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(before, label):
            break
    return nodes, nodes[label], rounds


def by_home(layout: Layout, node: np.ndarray, comp: np.ndarray) -> Iterator[Message]:
    """(node, comp) packed per home of the node."""
    homes = layout.home(node)
    order = np.argsort(homes, kind="stable")
    node, comp, homes = node[order], comp[order], homes[order]
    cuts = np.flatnonzero(np.diff(homes)) + 1
    for part in np.split(np.arange(len(node)), cuts):
        if len(part):
            yield int(homes[part[0]]), ("comp", np.stack([node[part], comp[part]], axis=1))


def components(spark: Any, edges: Any, max_rounds: int = 64) -> Tuple[Any, int]:
    """Connected components of `edges` (a DataFrame `u, v` of rows):
    (node, comp) with comp the smallest row of its component, for every
    node with an edge; and the number of rounds."""
    from pyspark.sql import functions as F

    e = edges.select(F.least("u", "v").alias("u"), F.greatest("u", "v").alias("v")).distinct().localCheckpoint()
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


def send_components(layout: Layout) -> Stage:
    """mapInArrow over (node, comp) batches: packed per home of the node."""
    import pyarrow as pa

    def run(batches) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            node = np.asarray(batch.column("node").to_numpy(), dtype=np.int64)
            comp = np.asarray(batch.column("comp").to_numpy(), dtype=np.int64)
            homes = layout.home(node)
            order = np.argsort(homes, kind="stable")
            node, comp, homes = node[order], comp[order], homes[order]
            cuts = np.flatnonzero(np.diff(homes)) + 1
            out_home: List[int] = []
            out_blob: List[bytes] = []
            for part in np.split(np.arange(len(node)), cuts):
                if len(part) == 0:
                    continue
                out_home.append(int(homes[part[0]]))
                out_blob.append(np.stack([node[part], comp[part]], axis=1).tobytes())
            yield pa.RecordBatch.from_arrays([pa.array(out_home, pa.int32()), pa.array(out_blob, pa.binary())], names=["home", "blob"])

    return run


def as_messages(row) -> Message:
    pairs = np.frombuffer(row["blob"], dtype=np.int64).reshape(-1, 2)
    return int(row["home"]), ("comp", pairs)


def comp_of(got: Dict[str, list]) -> Dict[int, int]:
    out: Dict[int, int] = {}
    for pairs in got.get("comp", []):
        out.update(zip(pairs[:, 0].tolist(), pairs[:, 1].tolist()))
    return out
