"""GoldenMatch on one FEBRL data set, zero-config, as its README tells a user.

usage: goldenmatch_febrl.py FLAT.csv OUT_PREFIX

Runs `goldenmatch.dedupe(FLAT.csv)` with no settings (auto-config picks the
columns, scorers and blocking), then writes OUT_PREFIX.csv as `uid,cluster_id`
(the format ../pairwise_f1.py reads): each input row's `rec_id` and the id of
the GoldenMatch cluster it is in (rows in no cluster are their own). Prints
`goldenmatch_seconds=S` (the dedupe call alone, Python start-up and imports
excluded) and what GoldenMatch printed of its result.
"""
import csv
import sys
import time

import goldenmatch as gm


def main() -> None:
    flat, prefix = sys.argv[1], sys.argv[2]
    with open(flat, newline="") as f:
        uids = [row["rec_id"] for row in csv.DictReader(f)]
    start = time.perf_counter()
    result = gm.dedupe(flat)
    seconds = time.perf_counter() - start
    cluster_of = {}
    for cid, cluster in result.clusters.items():
        for row in cluster["members"]:
            cluster_of[row] = f"g{cid}"
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["uid", "cluster_id"])
        for i, uid in enumerate(uids):
            w.writerow([uid, cluster_of.get(i, f"s{i}")])
    print(result)
    print(f"goldenmatch_seconds={seconds:.2f}")


if __name__ == "__main__":
    main()
