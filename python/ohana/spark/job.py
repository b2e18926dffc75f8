"""The dedupe job: the stages in order, each timed and named as a Spark
job group (`ohana:STEP`), and the report."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .. import ErrorCode, OhanaError
from . import blocking as blocks
from . import components, engine, home, merge, output, scoring
from .blocking import BlockStats, Layout
from .exchange import keep, route, together
from .inputs import LINE_BITS, line_numbers, list_inputs, plan_splits


@dataclass
class SparkReport:
    inputs: List[str] = field(default_factory=list)
    contacts: int = 0
    problems: int = 0
    problem_lines: List[Dict[str, Any]] = field(default_factory=list)
    pairs_compared: int = 0
    pairs_accepted: int = 0
    pairs_refused_by_guard: int = 0
    clusters: int = 0
    contacts_in_clusters: int = 0
    merged_contacts: int = 0
    weights: str = ""
    component_rounds: int = 0
    largest_component: int = 0
    blocking: Dict[str, int] = field(default_factory=dict)
    seconds: Dict[str, float] = field(default_factory=dict)
    homes: int = 0
    partitions: int = 0
    workers: List[Dict[str, Any]] = field(default_factory=list)  # the read tasks' processes: pid, ohana's path, engine threads
    driver: Dict[str, Any] = field(default_factory=dict)
    mapping: List[Dict[str, Any]] = field(default_factory=list)  # a table's columns: column, role, how (tables.dedupe_table)
    rows: str = ""  # where a table's rows went back, with the cluster columns (tables.dedupe_table)
    moved_after_guard: int = 0  # pieces of output rows placed in another home than their component's (the guard split it)

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=2, sort_keys=True)


def task_error(e: Exception) -> Exception:
    """The engine's error inside a failed Spark task, as an OhanaError
    (`line N: path: reason`), or `e` itself when it is not one."""
    import re

    m = re.search(r"ohana\.OhanaError: (?:line (\d+): )?([^\n]*)", str(e))
    if not m:
        return e
    return OhanaError(ErrorCode.FORMAT, int(m.group(1)) if m.group(1) else None, m.group(2).strip())


def group_splits(splits, homes: int) -> List[List[int]]:
    """At most `homes` groups of consecutive splits, of about equal bytes."""
    sizes = [max(1, s.end - s.start) for s in splits]
    total = sum(sizes)
    count = max(1, min(homes, len(splits)))
    groups: List[List[int]] = [[]]
    running = 0
    for i, size in enumerate(sizes):
        # Start a new group once this one holds its share, leaving one
        # split at least for each group still to come.
        if groups[-1] and running >= total * len(groups) / count and len(groups) < count:
            groups.append([])
        groups[-1].append(i)
        running += size
    return groups


def task_cpus(spark) -> int:
    """The CPUs each Spark task is given: the engine's threads inside it."""
    try:
        return max(1, int(spark.sparkContext.getConf().get("spark.task.cpus", "1")))
    except ValueError:
        return 1


def dedupe(
    spark, inputs: Sequence[str], output_dir: str, *, region: str = "US", threshold: Optional[float] = None,
    weights: str = "auto", blocking: str = "all", max_block: int = 50, ndjson: bool = False,
    split_bytes: int = 64 << 20, partitions: Optional[int] = None, homes: Optional[int] = None, max_problem_lines: int = 1000,
    mapping: Optional[str] = None,
) -> SparkReport:
    """Dedupes the contact files `inputs` (files or directories) on `spark`
    and writes under `output_dir`: `merged/` (Parquet, one merged contact a
    row: `cluster_id`, `size`, `uid`, name columns, `phones`, `emails`,
    `sources`, `reason`, `record` = the contact as an NDJSON line),
    `clusters/` (Parquet: `uid`, `cluster_id`, `gid`), `pairs/` (text: one
    `--explain` JSON line per joined pair), `merged-ndjson/` with `ndjson`,
    and `report.json`. Settings as `ohana dedupe`'s.

    `homes`: how many partitions hold the contacts (default twice the
    cluster's parallelism, at most one per split). Each pair is scored in
    the home of its first contact, so a contact's comparison record
    travels to at most `homes - 1` others: fewer homes, less shuffle;
    more, more parallel tasks. `partitions`: block partitions (default the
    parallelism, at least the homes). `mapping`: the inputs are the CSV
    part files of one table, read with these column roles (a `--columns`
    file's text; `tables.dedupe_table` writes them)."""
    import ohana

    report = SparkReport(driver={"pid": os.getpid(), "ohana": ohana.__file__})
    sc = spark.sparkContext
    clock = time.monotonic()
    t0 = clock

    def lap(name: str, following: Optional[str] = None) -> None:
        nonlocal clock
        now = time.monotonic()
        report.seconds[name] = round(now - clock, 3)
        clock = now
        if following:
            sc.setJobGroup(f"ohana:{following}", following)

    sc.setJobGroup("ohana:read", "read")
    threads = task_cpus(spark)
    settings = engine.settings_text(region, threshold, weights, blocking, max_block, threads, table=mapping is not None)
    files = list_inputs(inputs)
    if not files:
        raise OhanaError(ErrorCode.IO, None, "no contact files in the inputs")
    report.inputs = files
    splits = plan_splits(files, split_bytes)
    first_lines = line_numbers(spark, splits)
    groups = group_splits(splits, homes or 2 * sc.defaultParallelism)
    homes_n = len(groups)
    parts = max(homes_n, partitions or sc.defaultParallelism)
    report.homes, report.partitions = homes_n, parts

    # Read: the home RDD, partition i holding the contacts of its splits.
    seeds = route(sc.parallelize([(i, None) for i in range(homes_n)], homes_n), homes_n)
    read = keep(seeds.mapPartitions(home.reader(splits, groups, first_lines, settings, mapping), preservesPartitioning=True))
    # Each stage reads only the view of the homes it needs.
    key_homes = keep(read.filter(lambda kv: kv[1][0] == "home:keys"))
    scoring_homes = keep(read.filter(lambda kv: kv[1][0] == "home:score"))
    full_homes = keep(read.filter(lambda kv: kv[1][0] == "home:full"))
    try:
        counts = full_homes.map(lambda kv: (kv[0], kv[1][1].count, [p.__dict__ for p in kv[1][1].problems], kv[1][1].worker)).collect()
        classes = dict(key_homes.map(lambda kv: (kv[0], int((kv[1][1].cls != 0).sum()))).collect())
        scoring_homes.count()
    except Exception as e:  # an input that cannot be read at all: nothing is written
        raise task_error(e) from None
    read.unpersist()
    counts.sort()
    sizes = np.zeros(homes_n, dtype=np.int64)
    with_pe = 0
    problems: List[Dict[str, Any]] = []
    seen_workers = set()
    for i, n_i, probs, worker in counts:
        sizes[i] = n_i
        with_pe += classes[i]
        problems += probs
        seen_workers.add(worker)
    report.workers = [{"pid": p, "ohana": f, "threads": t} for p, f, t in sorted(seen_workers)]
    n = int(sizes.sum())
    report.contacts = n
    report.problems = len(problems)
    problems.sort(key=lambda p: (p["file"], p["line"]))
    report.problem_lines = [{"source": files[p["file"]], "line": p["line"], "severity": p["severity"], "reason": p["reason"]}
                            for p in problems[:max_problem_lines]]
    gid_starts = np.array([(s.file << LINE_BITS) | (1 if s.whole else first_lines[(s.file, s.start)])
                           for s in (splits[g[0]] for g in groups)], dtype=np.int64)
    layout = Layout(np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64), gid_starts)
    if n >= 1 << 31:
        raise OhanaError(ErrorCode.ARGUMENT, None, "more than 2^31 contacts in one job")
    lap("read", "blocking")

    plan = engine.plan(settings, n, with_pe)
    builtin_text = engine.model(settings)[0]

    # Blocks: entries to block partitions; blocks of 2..max_block give their pairs.
    entries = route(key_homes.mapPartitions(blocks.send_entries(layout, parts)), parts)
    from_blocks = keep(entries.mapPartitions(blocks.block_pairs(layout, max_block)))
    to_driver = from_blocks.filter(lambda kv: kv[0] == -1).map(lambda kv: kv[1]).collect()
    stats = BlockStats()
    capped_keys: List[np.ndarray] = []
    for kind, payload in to_driver:
        if kind == "stats":
            stats.add(payload)
        else:
            capped_keys.append(payload)
    report.blocking = {"largest_block": stats.largest_block, "capped_blocks": stats.capped_blocks,
                       "rows_in_capped_blocks": stats.rows_in_capped_blocks, "blocks": stats.blocks, "keys": stats.keys}
    messages = [from_blocks.filter(lambda kv: kv[0] >= 0)]
    # Capped blocks: the neighbourhood inside them.
    if capped_keys:
        keys = np.unique(np.concatenate(capped_keys))
        capped = route(key_homes.mapPartitions(blocks.send_capped(layout, keys, parts)), parts)
        messages.append(capped.mapPartitions(blocks.capped_pairs(layout)))
    # Sorted neighbourhood over names.
    samples: List[np.ndarray] = key_homes.mapPartitions(blocks.sample_names(layout, 200)).collect()
    sample = np.sort(np.concatenate(samples or [np.zeros(0, np.uint64)]))
    if len(sample):
        window_parts = max(1, min(parts, len(sample)))
        bounds = np.unique(sample[np.linspace(0, len(sample) - 1, window_parts + 1).astype(np.int64)[1:-1]])
        names = keep(route(key_homes.mapPartitions(blocks.send_names(layout, bounds)), len(bounds) + 1).mapPartitions(blocks.sort_names))
        heads = dict(names.map(lambda kv: (kv[0], kv[1][: blocks.WINDOW_NEIGHBOURS])).collect())
        after = blocks.following(heads, len(bounds) + 1)
        messages.append(names.mapPartitions(blocks.window_pairs(layout, after)))
    found = route(together(*messages), homes_n)
    lap("blocking", "scoring")

    # Scoring where the records are.
    wants = found.filter(lambda kv: kv[1][0] == "want")
    shipped = route(together(scoring_homes, wants).mapPartitions(scoring.ship_records(layout)), homes_n)
    pairs = found.filter(lambda kv: kv[1][0] == "pairs")
    model_text = None if plan.estimates else builtin_text
    th32 = np.float32(plan.threshold)
    scored = keep(together(scoring_homes, pairs, shipped).mapPartitions(scoring.score(layout, settings, model_text, th32, plan.skip),
                                                               preservesPartitioning=True))
    summaries = scored.mapPartitions(scoring.summary).collect()
    report.pairs_compared = sum(s[0] for s in summaries)
    tf = None
    with_tf = False
    if plan.estimates:
        vc = np.zeros(engine.SPACE, dtype=np.int64)
        for _, _, counted_vectors in summaries:
            if counted_vectors is not None:  # without a model every home counts its vectors
                np.add.at(vc, counted_vectors[0], counted_vectors[1])
        model_text, weight_table, plausible, threshold = engine.model(settings, vc)
        # Fitted weights are judged against their own threshold (the engine's).
        th32 = np.float32(threshold)
        report.weights = "estimated (EM)" if plausible else "built-in defaults (EM's fit was not plausible)"
        with_tf = plausible
        if with_tf:
            counted = scoring_homes.mapPartitions(scoring.name_counts).reduceByKey(lambda x, y: x + y).collect()
            fam = {h: c for (w, h), c in counted if w == 0}
            giv = {h: c for (w, h), c in counted if w == 1}
            tf = scoring.TermAdjustments(scoring.adjustments(fam), scoring.adjustments(giv))
        accepted = keep(together(scoring_homes, scored).mapPartitions(scoring.accept(layout, weight_table, tf, th32), preservesPartitioning=True))
        scored.unpersist()
        scored = accepted
        report.pairs_accepted = sum(s[1] for s in scored.mapPartitions(scoring.summary).collect())
    else:
        report.weights = "built-in defaults"
        report.pairs_accepted = sum(s[1] for s in summaries)
    lap("scoring", "components")

    # Clusters: each home's accepted pairs reduced to a forest by a union-find;
    # the forests' components on the driver when they are small enough
    # (OHANA_SPARK_DRIVER_EDGES, default 50 million edges: 800 MB), else in
    # Spark (large-star / small-star).
    forest = scored.mapPartitions(components.reduced_edges)
    edge_count = forest.map(lambda e: len(e[0])).sum()
    if edge_count <= int(os.environ.get("OHANA_SPARK_DRIVER_EDGES", 50_000_000)):
        parts_uv = forest.collect()
        u = np.concatenate([p[0] for p in parts_uv]) if parts_uv else np.zeros(0, dtype=np.int64)
        v = np.concatenate([p[1] for p in parts_uv]) if parts_uv else np.zeros(0, dtype=np.int64)
        node, comp_of_node, report.component_rounds = components.on_driver(u, v)
        comp_messages = route(sc.parallelize(list(components.by_home(layout, node, comp_of_node)), max(1, homes_n)), homes_n)
    else:
        from pyspark.sql.types import LongType, StructField, StructType

        edge_schema = StructType([StructField("u", LongType(), False), StructField("v", LongType(), False)])
        edges = spark.createDataFrame(forest.flatMap(lambda e: zip(e[0].tolist(), e[1].tolist())), edge_schema)
        comp, report.component_rounds = components.components(spark, edges)
        comp_messages = route(comp.mapInArrow(components.send_components(layout), "home int, blob binary").rdd.map(components.as_messages), homes_n)
    comp_messages = keep(comp_messages)
    lap("components", "merge")

    # Merge and write.
    members = route(together(full_homes, scored, comp_messages).mapPartitions(merge.send_members(layout, tf)), homes_n)
    staging = output.new_staging()
    try:
        merged = keep(together(full_homes, comp_messages, members).mapPartitions(
            merge.merge_home(layout, settings, model_text or builtin_text, with_tf, tf, output_dir, staging, ndjson)))
        written = merged.filter(lambda kv: kv[1][0] == "written").map(lambda kv: kv[1][1]).collect()
        # The rare cluster whose first contact lives in another home than its
        # component's first: its rows go into that home's part, in order.
        moved = merged.filter(lambda kv: kv[1][0] == "moved")
        report.moved_after_guard = moved.count()
        if report.moved_after_guard:
            written += route(moved, homes_n).mapPartitions(output.fix_up(output_dir, staging, ndjson)).collect()
        output.commit(output_dir, staging, ndjson)
    except BaseException:
        output.discard(output_dir, staging)
        raise
    report.merged_contacts = sum(w.merged for w in written)
    report.clusters = sum(w.clusters for w in written)
    report.contacts_in_clusters = sum(w.contacts_in_clusters for w in written)
    report.largest_component = max([w.largest_cluster for w in written] or [0])
    report.pairs_refused_by_guard = sum(w.refused for w in written)
    lap("merge+write")
    report.seconds["total"] = round(time.monotonic() - t0, 3)
    fs, root = output.filesystem(output_dir)
    with fs.open_output_stream(f"{root}/report.json") as f:
        f.write((report.to_json() + "\n").encode())
    for rdd in (key_homes, scoring_homes, full_homes, from_blocks, scored, comp_messages, merged):
        rdd.unpersist()
    return report
