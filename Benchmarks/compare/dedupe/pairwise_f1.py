#!/usr/bin/env python3
"""Pairwise precision, recall and F1 of a clustering against the truth.

usage: pairwise_f1.py TRUTH.csv PREDICTED.csv
Both files are CSV with a header and columns uid,cluster_id (every contact
listed; extra columns ignored). A pair of contacts is predicted when both
have the same predicted cluster id, true when the truth puts them together.
Counting is by cluster intersections, so it is linear in the input.
"""
import csv
import sys
from collections import Counter


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        r = csv.reader(f)
        next(r)
        return {row[0]: row[1] for row in r if len(row) >= 2}


def pairs(n):
    return n * (n - 1) // 2


def score(truth, pred):
    """(precision, recall, f1, true_pairs, predicted_pairs, tp, missing) of
    the clustering `pred` (uid -> cluster id) against `truth` (the same)."""
    uids = [u for u in truth if u in pred]
    missing = len(truth) - len(uids)
    t = Counter(truth[u] for u in uids)
    p = Counter(pred[u] for u in uids)
    both = Counter((truth[u], pred[u]) for u in uids)
    tp = sum(pairs(n) for n in both.values())
    tpairs = sum(pairs(n) for n in t.values())
    ppairs = sum(pairs(n) for n in p.values())
    precision = tp / ppairs if ppairs else 1.0
    recall = tp / tpairs if tpairs else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, tpairs, ppairs, tp, missing


def main():
    precision, recall, f1, tpairs, ppairs, tp, missing = score(read(sys.argv[1]), read(sys.argv[2]))
    print(f"precision={precision:.4f} recall={recall:.4f} f1={f1:.4f} "
          f"true_pairs={tpairs} predicted_pairs={ppairs} tp={tp} missing={missing}")


if __name__ == "__main__":
    main()
