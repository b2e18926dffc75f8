"""The merge: each component's members and accepted pairs go to the home
of its first contact (the members' NDJSON records cross the network once,
singletons never), where the engine's chaining guard and merge run over
batches of whole components (`ohana_link_merge`). Each home then writes
its part of every output in input order, so the part files, read in
order, are the one machine's order; the rare cluster the guard splits off
with its first contact in another home is moved there first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import engine
from .blocking import Layout
from .components import comp_of
from .exchange import Message, Stage, at_home, by_kind
from .home import Home
from .inputs import LINE_BITS
from .scoring import TermAdjustments

# Contacts per engine call when merging.
MERGE_BATCH = 20000

MERGED_COLUMNS = ("fullName", "givenName", "familyName", "organization", "birthday")


@dataclass
class Members:
    """Contacts of components, sent to the components' homes."""

    rows: np.ndarray
    comp: np.ndarray
    gid: np.ndarray
    uid: pa.Array
    record: pa.Array
    tf_family: np.ndarray
    tf_given: np.ndarray


@dataclass
class Edges:
    a: np.ndarray
    b: np.ndarray
    weight: np.ndarray
    comp: np.ndarray


def send_members(layout: Layout, tf: Optional[TermAdjustments]) -> Stage:
    """Home: its contacts that belong to a component, and its accepted
    pairs, to the home of the component."""

    def run(items) -> Iterator[Message]:
        here = at_home(items, layout.offsets)
        if here is None:
            return
        got, home, first = here
        comps = comp_of(got)
        if not comps:
            return
        rows = np.array(sorted(comps), dtype=np.int64)
        comp = np.array([comps[r] for r in rows.tolist()], dtype=np.int64)
        local = rows - first
        if tf is not None:
            f, g = tf.of(home, local)
        else:
            f = g = np.zeros(len(rows), dtype=np.float32)
        target = layout.home(comp)
        for t in np.unique(target).tolist():
            sel = target == t
            ti = pa.array(local[sel])
            yield t, ("member", Members(rows[sel], comp[sel], home.gid[local[sel]], home.uid.take(ti), home.record.take(ti), f[sel], g[sel]))
        for s in got.get("scored", []):
            if s.accepted is None or not s.accepted.any():
                continue
            a, b, w = s.a[s.accepted], s.b[s.accepted], s.weight[s.accepted]
            c = np.array([comps[x] for x in a.tolist()], dtype=np.int64)
            target = layout.home(c)
            for t in np.unique(target).tolist():
                sel = target == t
                yield t, ("edge", Edges(a[sel], b[sel], w[sel], c[sel]))

    return run


@dataclass
class Out:
    """Rows of the outputs, each with the gid that places it."""

    merged: Optional[pa.Table] = None  # with `_gid`: the cluster's first contact
    clusters: Optional[pa.Table] = None  # uid, cluster_id, gid
    pairs: List[str] = field(default_factory=list)
    refused: int = 0


def _values_by_kind(fields: pa.Table, n: int, kind: str) -> pa.Array:
    """Per contact (0..<n), the values of its fields of `kind`."""
    types = fields.column("type").cast(pa.string())
    f = fields.filter(pc.equal(types, kind))
    contact = np.asarray(f.column("contact").to_numpy(), dtype=np.int64)
    values = f.column("value").cast(pa.string()).combine_chunks()
    order = np.argsort(contact, kind="stable")
    counts = np.bincount(contact, minlength=n) if len(contact) else np.zeros(n, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), values.take(pa.array(order)))


def _uids(uid: pa.Array, gid: np.ndarray) -> List[str]:
    """Each contact's uid, or `line-L@F` (its line and input) without one."""
    out = uid.cast(pa.string()).to_pylist()
    for i, u in enumerate(out):
        if u is None:
            g = int(gid[i])
            out[i] = f"line-{g & ((1 << LINE_BITS) - 1)}@{g >> LINE_BITS}"
    return out


def merge_batch(settings: str, model_text: str, with_tf: bool, rows: np.ndarray, comp: np.ndarray, gid: np.ndarray,
                uid: pa.Array, record: pa.Array, tff: np.ndarray, tfg: np.ndarray, edges: List[Edges]) -> Out:
    """Whole components (members in (component, row) order) through the guard and the merge."""
    n = len(rows)
    table = engine.records_table(record)
    if len(table) != n:
        raise RuntimeError("ohana.spark: a record did not read back as one contact")
    ea = np.concatenate([e.a for e in edges]) if edges else np.zeros(0, dtype=np.int64)
    eb = np.concatenate([e.b for e in edges]) if edges else np.zeros(0, dtype=np.int64)
    ew = np.concatenate([e.weight for e in edges]) if edges else np.zeros(0, dtype=np.float32)
    order = np.argsort(rows)
    la = order[np.searchsorted(rows[order], ea)]
    lb = order[np.searchsorted(rows[order], eb)]
    m = engine.merge(table, settings, model_text, la, lb, ew, tff if with_tf else None, tfg if with_tf else None)
    uids = _uids(uid, gid)
    cluster = m.cluster
    cluster_uid = [uids[c] for c in cluster.tolist()]
    out = Out(refused=m.refused)
    out.clusters = pa.table({"uid": pa.array(uids, pa.string()), "cluster_id": pa.array(cluster_uid, pa.string()),
                             "gid": pa.array(gid, pa.int64())})
    sizes = np.bincount(cluster, minlength=n)
    firsts = np.unique(cluster)
    k = len(m.table)
    contacts = m.table.contacts()
    fields = m.table.fields()
    prepared = engine.prepare(m.table, None, 0, k)
    cols: Dict[str, pa.Array] = {
        "_gid": pa.array(gid[firsts], pa.int64()),
        "cluster_id": pa.array([uids[f] for f in firsts.tolist()], pa.string()),
        "size": pa.array(sizes[firsts], pa.int32()),
        "uid": contacts.column("uid").cast(pa.string()).combine_chunks(),
    }
    for c in MERGED_COLUMNS:
        cols[c] = contacts.column(c).cast(pa.string()).combine_chunks() if c in contacts.column_names else pa.nulls(k, pa.string())
    cols["phones"] = _values_by_kind(fields, k, "phone")
    cols["emails"] = _values_by_kind(fields, k, "email")
    for src, dst in (("dedupe.sources", "sources"), ("dedupe.reason", "reason")):
        cols[dst] = contacts.column(src).cast(pa.string()).combine_chunks() if src in contacts.column_names else pa.nulls(k, pa.string())
    cols["record"] = prepared.column("record")
    out.merged = pa.table(cols)
    out.pairs = m.joined.column("explanation").to_pylist() if m.joined.num_rows else []
    return out


def merge_home(layout: Layout, settings: str, model_text: str, with_tf: bool, tf: Optional[TermAdjustments],
               output_dir: str, staging: str, ndjson: bool) -> Stage:
    """Home: its components (those whose first contact lives here) and its
    lone contacts, merged, and its part of the outputs written (`written`,
    to the driver); rows whose place is in another home's part are sent
    there (`moved`)."""
    from . import output

    def run(items) -> Iterator[Message]:
        here = at_home(items, layout.offsets)
        if here is None:
            return
        got, home, first = here
        own_comp = comp_of(got)
        members: List[Members] = got.get("member", [])
        edges: List[Edges] = got.get("edge", [])
        # Lone contacts: this home's contacts in no component.
        alone = np.ones(home.count, dtype=bool)
        if own_comp:
            alone[np.array(list(own_comp), dtype=np.int64) - first] = False
        lone_local = np.flatnonzero(alone)
        if tf is not None:
            lf, lg = tf.of(home, lone_local)
        else:
            lf = lg = np.zeros(len(lone_local), dtype=np.float32)
        li = pa.array(lone_local)
        units = [Members(lone_local + first, lone_local + first, home.gid[lone_local], home.uid.take(li), home.record.take(li), lf, lg)]
        units += members
        rows = np.concatenate([u.rows for u in units])
        comp = np.concatenate([u.comp for u in units])
        gid = np.concatenate([u.gid for u in units])
        uid = pa.concat_arrays([u.uid.cast(pa.string()) for u in units])
        record = pa.concat_arrays([u.record.cast(pa.string()) for u in units])
        tff = np.concatenate([u.tf_family for u in units]).astype(np.float32)
        tfg = np.concatenate([u.tf_given for u in units]).astype(np.float32)
        order = np.lexsort((rows, comp))
        rows, comp, gid, tff, tfg = rows[order], comp[order], gid[order], tff[order], tfg[order]
        ti = pa.array(order)
        uid, record = uid.take(ti), record.take(ti)
        ea = np.concatenate([e.a for e in edges]) if edges else np.zeros(0, dtype=np.int64)
        eb = np.concatenate([e.b for e in edges]) if edges else np.zeros(0, dtype=np.int64)
        ew = np.concatenate([e.weight for e in edges]) if edges else np.zeros(0, dtype=np.float32)
        ec = np.concatenate([e.comp for e in edges]) if edges else np.zeros(0, dtype=np.int64)
        # Batches of whole components.
        starts = np.flatnonzero(np.r_[True, comp[1:] != comp[:-1]]) if len(comp) else np.zeros(0, dtype=np.int64)
        outs: List[Out] = []
        begin = 0
        while begin < len(rows):
            j = np.searchsorted(starts, begin + MERGE_BATCH, side="left")
            end = int(starts[j]) if j < len(starts) and starts[j] > begin else len(rows)
            sel = slice(begin, end)
            cs = comp[sel]
            in_batch = np.isin(ec, cs)
            batch_edges = [Edges(ea[in_batch], eb[in_batch], ew[in_batch], ec[in_batch])]
            outs.append(merge_batch(settings, model_text, with_tf, rows[sel], cs, gid[sel], uid[begin:end], record[begin:end],
                                    tff[sel], tfg[sel], batch_edges))
            begin = end
        merged = pa.concat_tables([o.merged for o in outs]) if outs else None
        clusters = pa.concat_tables([o.clusters for o in outs]) if outs else None
        pairs = [p for o in outs for p in o.pairs]
        refused = sum(o.refused for o in outs)
        own_merged = own_clusters = None
        # Rows that belong in another home's part of the outputs.
        for t, part in _by_home(layout, merged, "_gid"):
            if t == home.split:
                own_merged = part
            else:
                yield t, ("moved", Out(merged=part))
        for t, part in _by_home(layout, clusters, "gid"):
            if t == home.split:
                own_clusters = part
            else:
                yield t, ("moved", Out(clusters=part))
        fs, root = output.filesystem(output_dir)
        output.write_part(fs, root, staging, home.split, own_merged, own_clusters, pairs, ndjson)
        written = output._stats(own_merged)
        written.refused = refused
        written.explained = len(pairs)
        yield -1, ("written", written)

    return run


def _by_home(layout: Layout, table: Optional[pa.Table], gid_column: str) -> Iterator[Tuple[int, pa.Table]]:
    """`table`'s rows grouped by the home their gid falls in."""
    if table is None:
        return
    where = layout.home_of_gid(np.asarray(table.column(gid_column).to_numpy(), dtype=np.int64))
    for t in np.unique(where).tolist():
        yield t, table.filter(pa.array(where == t))
