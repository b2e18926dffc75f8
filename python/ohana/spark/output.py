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
from typing import Iterator, List, Optional, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from .exchange import Stage, by_kind
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


def _stats(m: Optional[pa.Table]) -> Written:
    w = Written()
    if m is not None and m.num_rows:
        size = np.asarray(m.column("size").to_numpy(), dtype=np.int64)
        w.merged = len(size)
        w.clusters = int((size > 1).sum())
        w.contacts_in_clusters = int(size[size > 1].sum())
        w.largest_cluster = int(size.max())
    return w


def write_part(fs: pafs.FileSystem, root: str, staging: str, index: int, merged: Optional[pa.Table],
               clusters: Optional[pa.Table], pairs: List[str], ndjson: bool) -> None:
    """Home `index`'s part of every output, each in input order: merged
    contacts by their cluster's first contact (`_gid`, kept beside in
    `_gids/` for a fix-up), cluster rows by gid."""
    base = f"{root}/{staging}"
    name = f"part-{index:05d}"
    if merged is not None:
        order = np.argsort(np.asarray(merged.column("_gid").to_numpy(), dtype=np.int64), kind="stable")
        merged = merged.take(pa.array(order))
        for d in ("merged", "_gids") + (("merged-ndjson",) if ndjson else ()):
            fs.create_dir(f"{base}/{d}", recursive=True)
        with fs.open_output_stream(f"{base}/_gids/{name}.bin") as f:
            f.write(np.asarray(merged.column("_gid").to_numpy(), dtype=np.int64).tobytes())
        pq.write_table(merged.drop_columns(["_gid"]), f"{base}/merged/{name}.parquet", filesystem=fs)
        if ndjson:
            _text(fs, f"{base}/merged-ndjson/{name}.txt", merged.column("record").to_pylist())
    if clusters is not None:
        order = np.argsort(np.asarray(clusters.column("gid").to_numpy(), dtype=np.int64), kind="stable")
        fs.create_dir(f"{base}/clusters", recursive=True)
        pq.write_table(clusters.take(pa.array(order)), f"{base}/clusters/{name}.parquet", filesystem=fs)
    if pairs:
        fs.create_dir(f"{base}/pairs", recursive=True)
        _text(fs, f"{base}/pairs/{name}.txt", pairs)


def fix_up(output_dir: str, staging: str, ndjson: bool) -> Stage:
    """Home: rows moved to it from another home's merge, put in place in
    its part files (read back, joined, sorted, written again)."""

    def run(items) -> Iterator[Written]:
        items = list(items)
        if not items:
            return
        index = items[0][0]
        moved: List[Out] = by_kind(items).get("moved", [])
        fs, root = filesystem(output_dir)
        base = f"{root}/{staging}"
        name = f"part-{index:05d}"
        new_merged = [o.merged for o in moved if o.merged is not None]
        new_clusters = [o.clusters for o in moved if o.clusters is not None]
        merged = clusters = None
        if new_merged:
            tables = list(new_merged)
            if fs.get_file_info(f"{base}/merged/{name}.parquet").type != pafs.FileType.NotFound:
                old = pq.read_table(f"{base}/merged/{name}.parquet", filesystem=fs)
                with fs.open_input_stream(f"{base}/_gids/{name}.bin") as f:
                    gids = np.frombuffer(f.read(), dtype=np.int64)
                tables.insert(0, old.append_column("_gid", pa.array(gids)))
            names = new_merged[0].column_names
            merged = pa.concat_tables([t.select(names) for t in tables])
        if new_clusters:
            tables = list(new_clusters)
            if fs.get_file_info(f"{base}/clusters/{name}.parquet").type != pafs.FileType.NotFound:
                tables.insert(0, pq.read_table(f"{base}/clusters/{name}.parquet", filesystem=fs))
            clusters = pa.concat_tables(tables)
        write_part(fs, root, staging, index, merged, clusters, [], ndjson)
        yield _stats(pa.concat_tables(new_merged) if new_merged else None)

    return run


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
