"""The command line: `python -m ohana.spark dedupe|normalize INPUT... OUTPUT_DIR`."""

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
    n = sub.add_parser("normalize", help="read contact files and write them with normalized columns (Parquet)")
    n.add_argument("paths", nargs="+", help="INPUT... OUTPUT_DIR")
    n.add_argument("--region", default="US")
    n.add_argument("--formats", default="e164", help="comma-separated: e164, international, national, rfc3966")
    n.add_argument("--sort-by", default="family")
    n.add_argument("--locale", default="root")
    n.add_argument("--master")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    from . import dedupe, normalize, read, session

    args = parser().parse_args(argv)
    if len(args.paths) < 2:
        parser().error("give at least one input and the output directory")
    inputs, output = args.paths[:-1], args.paths[-1]
    spark = session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    try:
        if args.command == "dedupe":
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
