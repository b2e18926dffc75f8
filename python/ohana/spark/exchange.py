"""How the job moves data between tasks: every exchange is an RDD of
`(partition, message)` pairs partitioned by the partition number itself,
one message a blob of NumPy or Arrow arrays (so Spark shuffles a few large
binary values, never a row per contact or per pair).

The contacts stay where they were read: the *home* RDD holds partition i's
contacts in partition i, and a message for partition i, partitioned with
the same function, lands in the same partition of a union. So a stage
meets a home's own contacts and the messages sent to it without the
contacts crossing the network again (Spark unions RDDs of one partitioner
partition by partition)."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from pyspark import RDD, StorageLevel

Message = Tuple[int, Tuple[str, Any]]
# A stage: the function Spark runs over one partition's items.
Stage = Callable[[Iterable[Any]], Iterator[Any]]


def partition_of(key: int) -> int:
    """The partitioner of every exchange: the key is the partition. One
    function object, so that Spark sees one partitioner and unions
    partition by partition."""
    return key


def route(messages: RDD, partitions: int) -> RDD:
    """`messages` ((partition, message) pairs) delivered to their partitions.
    (Always a shuffle: an RDD that kept the home partitioning may still hold
    messages for other partitions, and PySpark's partitionBy would take
    such an RDD as partitioned already.)"""
    return messages.mapPartitions(_same, preservesPartitioning=False).partitionBy(partitions, partition_of)


def _same(items: Iterable[Any]) -> Iterable[Any]:
    return items


def together(*rdds: RDD) -> RDD:
    """The union of RDDs partitioned alike: partition i holds each one's partition i."""
    out = rdds[0]
    for r in rdds[1:]:
        out = out.union(r)
    return out


def by_kind(items: Iterable[Message]) -> Dict[str, List[Any]]:
    """A partition's messages grouped by their kind."""
    out: Dict[str, List[Any]] = {}
    for _, (kind, payload) in items:
        # A home's views ("home:keys", ...) are its "home" to the stage given it.
        out.setdefault("home" if kind.startswith("home:") else kind, []).append(payload)
    return out


def at_home(items: Iterable[Message], offsets) -> Optional[Tuple[Dict[str, List[Any]], Any, int]]:
    """A home stage's partition: its messages by kind, its home (None for a
    partition without one) and the home's first row (`offsets[home]`)."""
    got = by_kind(items)
    homes = got.get("home", [])
    if not homes:
        return None
    home = homes[0]
    return got, home, int(offsets[home.split])


def keep(rdd: RDD) -> RDD:
    return rdd.persist(StorageLevel.MEMORY_AND_DISK)


def one_each(pairs: Iterator[Tuple[int, Any]], kind: str) -> Iterator[Message]:
    for p, payload in pairs:
        yield p, (kind, payload)
