#!/usr/bin/env python3
"""GoldenMatch on one table of Benchmarks/quality/corrupt.py, zero-config.

usage: goldenmatch_table.py TABLE.csv OUT.csv

Runs `goldenmatch.dedupe(TABLE.csv)` with no settings (its auto-config picks
the columns, scorers and blocking, as its README tells a user), the way
../febrl/goldenmatch_febrl.py does, then writes OUT.csv as `uid,cluster_id`
(the format ../pairwise_f1.py reads): each row's value in the table's first
column (the record id: rec_id, id or record_id) and the id of the
GoldenMatch cluster the row is in (cluster members are 0-based row numbers;
a row in no cluster is its own). Prints `goldenmatch_seconds=S` (the dedupe
call alone; Python start-up, imports and writing excluded) and what
GoldenMatch printed of its result.
"""
import csv
import sys
import time

import goldenmatch as gm


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: goldenmatch_table.py TABLE.csv OUT.csv")
    table, out = sys.argv[1], sys.argv[2]
    with open(table, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        next(reader)
        uids = [row[0] for row in reader]
    start = time.perf_counter()
    result = gm.dedupe(table)
    seconds = time.perf_counter() - start
    cluster_of = {}
    for cid, cluster in result.clusters.items():
        for row in cluster["members"]:
            cluster_of[row] = f"g{cid}"
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["uid", "cluster_id"])
        for i, uid in enumerate(uids):
            w.writerow([uid, cluster_of.get(i, f"s{i}")])
    print(result)
    print(f"goldenmatch_seconds={seconds:.2f}")


if __name__ == "__main__":
    main()
