"""The command line: `python -m ohana.spark dedupe|normalize INPUT... OUTPUT_DIR` (a Parquet table, or `--map` / `--columns` / `--id` / `--rows`: the table route of `tables.dedupe_table`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from .. import ErrorCode, OhanaError


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ohana.spark", description="Ohana on Apache Spark.")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dedupe", help="dedupe contact files into OUTPUT_DIR (Parquet)")
    d.add_argument("paths", nargs="+", help="INPUT... OUTPUT_DIR: files or directories, then the output directory")
    d.add_argument("--region", default="US")
    d.add_argument("--threshold", type=float)
    d.add_argument("--weights", default="auto", choices=["auto", "defaults", "em"])
    d.add_argument("--blocking", default="all")
    d.add_argument("--max-block", type=int, default=50)
    d.add_argument("--ndjson", action="store_true", help="also write the merged contacts as NDJSON")
    d.add_argument("--master", help="Spark master (default local[*]; under spark-submit, spark-submit's)")
    d.add_argument("--split-mb", type=float, default=64, help="cut NDJSON files into pieces of this many MiB")
    d.add_argument("--partitions", type=int, help="block partitions (default: the cluster's parallelism)")
    d.add_argument("--homes", type=int, help="partitions that hold the contacts (default: twice the parallelism)")
    t = d.add_argument_group("a table in its own columns (rows back in OUTPUT_DIR/rows)",
                             "A Parquet input, or any of these options, makes the input one table: its columns mapped "
                             "as `ohana dedupe` maps them, its rows written back with the cluster columns.")
    t.add_argument("--map", action="append", default=[], metavar="ROLE=COLUMN[,COLUMN...]", help="a column's role (repeatable)")
    t.add_argument("--columns", metavar="FILE", help="the roles, one ROLE=COLUMN a line (as `ohana dedupe --columns`)")
    t.add_argument("--id", metavar="COLUMN", help="the table's id column (names the clusters)")
    t.add_argument("--rows", action="store_true", help="a CSV, TSV or NDJSON input is one table too")
    n = sub.add_parser("normalize", help="read contact files and write them with normalized columns (Parquet)")
    n.add_argument("paths", nargs="+", help="INPUT... OUTPUT_DIR")
    n.add_argument("--region", default="US")
    n.add_argument("--formats", default="e164", help="comma-separated: e164, international, national, rfc3966")
    n.add_argument("--sort-by", default="family")
    n.add_argument("--locale", default="root")
    n.add_argument("--master")
    return p


def is_table(args, inputs: Sequence[str]) -> bool:
    """The table route: asked for (a mapping, an id, `--rows`), or every
    input a Parquet table."""
    if args.map or args.columns or args.id or args.rows:
        return True
    from .tables import table_kind

    return all(table_kind(p) == "parquet" for p in inputs)


def main(argv: Optional[Sequence[str]] = None) -> int:
    from . import dedupe, normalize, read, session

    args = parser().parse_args(argv)
    if len(args.paths) < 2:
        parser().error("give at least one input and the output directory")
    inputs, output = args.paths[:-1], args.paths[-1]
    spark = session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    try:
        if args.command == "dedupe" and is_table(args, inputs):
            from .tables import dedupe_table

            columns = {}
            for m in args.map:
                role, _, names = m.partition("=")
                if not names:
                    parser().error(f"--map {m}: expected ROLE=COLUMN[,COLUMN...]")
                columns.setdefault(role.strip(), []).extend(n.strip() for n in names.split(",") if n.strip())
            columns_file = None
            if args.columns:
                with open(args.columns, encoding="utf-8") as f:
                    columns_file = f.read()
            r, _ = dedupe_table(spark, inputs if len(inputs) > 1 else inputs[0], output, columns=columns or None, id=args.id,
                                columns_file=columns_file, region=args.region, threshold=args.threshold, weights=args.weights,
                                blocking=args.blocking, max_block=args.max_block, partitions=args.partitions, homes=args.homes)
            mapped = ", ".join(f"{m['column']}={m['role']}" for m in r.mapping if m["role"])
            print(f"columns mapped: {mapped}", file=sys.stderr)
            print(f"deduped {r.contacts} rows into {r.merged_contacts} ({r.clusters} clusters); {r.pairs_compared} pairs compared, "
                  f"{r.pairs_accepted} accepted, {r.pairs_refused_by_guard} refused by the chaining guard; {r.problems} problems; "
                  f"rows back in {r.rows}; report in {os.path.join(output, 'report.json')}", file=sys.stderr)
        elif args.command == "dedupe":
            r = dedupe(spark, inputs, output, region=args.region, threshold=args.threshold, weights=args.weights,
                       blocking=args.blocking, max_block=args.max_block, ndjson=args.ndjson, split_bytes=max(1, int(args.split_mb * (1 << 20))),
                       partitions=args.partitions, homes=args.homes)
            print(f"deduped {r.contacts} contacts into {r.merged_contacts} ({r.clusters} clusters); {r.pairs_compared} pairs compared, "
                  f"{r.pairs_accepted} accepted, {r.pairs_refused_by_guard} refused by the chaining guard; {r.problems} problems; "
                  f"total {r.seconds.get('total')} s; report in {os.path.join(output, 'report.json')}", file=sys.stderr)
        else:
            df = read(spark, inputs)
            out = normalize(df, region=args.region, formats=args.formats.split(","), sort_by=args.sort_by, locale=args.locale)
            out.write.mode("overwrite").parquet(output)
            print(f"normalized {out.count()} contacts into {output}", file=sys.stderr)
    except OhanaError as e:
        print(f"ohana.spark: {e}", file=sys.stderr)
        code = e.code if isinstance(e.code, ErrorCode) else ErrorCode.INVALID_INPUT
        return code.exit_status
    finally:
        spark.stop()
    return 0
