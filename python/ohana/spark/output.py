"""Writing: each home writes its part of every output (`part-NNNNN`, in
home order, which is input order) into a staging folder beside the
outputs; the driver puts the folders in place once every task succeeded,
so a failed job leaves earlier outputs as they were.

The files are written by pyarrow's file systems from the tasks: the
output folder must be one every executor and the driver reach (a local
path in local mode or on one machine, a shared mount, or a URI pyarrow
opens: `hdfs://`, `s3://`, `gs://`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Iterator, List, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from .exchange import by_kind
from .merge import Out

OUTPUTS = ("merged", "clusters", "pairs", "merged-ndjson")


def filesystem(output_dir: str) -> Tuple[pafs.FileSystem, str]:
    if "://" not in output_dir:
        import os

        output_dir = os.path.abspath(output_dir)
    return pafs.FileSystem.from_uri(output_dir)


@dataclass
class Written:
    merged: int = 0
    clusters: int = 0
    contacts_in_clusters: int = 0
    largest_cluster: int = 0
    refused: int = 0
    explained: int = 0


def write_home(output_dir: str, staging: str, ndjson: bool):
    """Home: its outputs, in input order, into the staging folder."""

    def run(items) -> Iterator[Written]:
        items = list(items)
        if not items:
            return
        index = items[0][0]
        got = by_kind(items)
        parts: List[Out] = got.get("out", []) + got.get("moved", [])
        fs, root = filesystem(output_dir)
        yield from _write(fs, root, staging, parts, ndjson, index)

    return run


def _write(fs: pafs.FileSystem, root: str, staging: str, parts: List[Out], ndjson: bool, index: int) -> Iterator[Written]:
    merged = [p.merged for p in parts if p.merged is not None]
    clusters = [p.clusters for p in parts if p.clusters is not None]
    m = pa.concat_tables(merged) if merged else None
    c = pa.concat_tables(clusters) if clusters else None
    w = Written(refused=sum(p.refused for p in parts))
    base = f"{root}/{staging}"
    name = f"part-{index:05d}"
    if m is not None:
        order = np.argsort(np.asarray(m.column("_gid").to_numpy(), dtype=np.int64), kind="stable")
        m = m.take(pa.array(order)).drop_columns(["_gid"])
        fs.create_dir(f"{base}/merged", recursive=True)
        pq.write_table(m, f"{base}/merged/{name}.parquet", filesystem=fs)
        size = np.asarray(m.column("size").to_numpy(), dtype=np.int64)
        w.merged = len(size)
        w.clusters = int((size > 1).sum())
        w.contacts_in_clusters = int(size[size > 1].sum())
        w.largest_cluster = int(size.max()) if len(size) else 0
        if ndjson:
            fs.create_dir(f"{base}/merged-ndjson", recursive=True)
            _text(fs, f"{base}/merged-ndjson/{name}.txt", m.column("record").to_pylist())
    if c is not None:
        order = np.argsort(np.asarray(c.column("gid").to_numpy(), dtype=np.int64), kind="stable")
        fs.create_dir(f"{base}/clusters", recursive=True)
        pq.write_table(c.take(pa.array(order)), f"{base}/clusters/{name}.parquet", filesystem=fs)
    lines = [line for p in parts for line in p.pairs]
    w.explained = len(lines)
    fs.create_dir(f"{base}/pairs", recursive=True)
    _text(fs, f"{base}/pairs/{name}.txt", lines)
    yield w


def _text(fs: pafs.FileSystem, path: str, lines: List[str]) -> None:
    with fs.open_output_stream(path) as f:
        f.write("".join(line + "\n" for line in lines).encode())


def new_staging() -> str:
    return f"_ohana-staging-{uuid.uuid4().hex}"


def commit(output_dir: str, staging: str, ndjson: bool) -> None:
    """The staged outputs put in place (each replacing the one before)."""
    fs, root = filesystem(output_dir)
    for name in OUTPUTS:
        if name == "merged-ndjson" and not ndjson:
            continue
        src, dst = f"{root}/{staging}/{name}", f"{root}/{name}"
        if fs.get_file_info(src).type == pafs.FileType.NotFound:
            fs.create_dir(src, recursive=True)
        if fs.get_file_info(dst).type != pafs.FileType.NotFound:
            fs.delete_dir(dst)
        fs.move(src, dst)
    fs.delete_dir(f"{root}/{staging}")


def discard(output_dir: str, staging: str) -> None:
    fs, root = filesystem(output_dir)
    if fs.get_file_info(f"{root}/{staging}").type != pafs.FileType.NotFound:
        fs.delete_dir(f"{root}/{staging}")
