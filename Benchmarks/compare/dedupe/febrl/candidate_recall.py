#!/usr/bin/env python3
"""Candidate-pair recall of ohana's blocking against the truth.

usage: candidate_recall.py TRUTH.csv CANDIDATES.ndjson

CANDIDATES.ndjson is what `ohana dedupe --explain-candidates FILE` writes
(a hidden tuning option: one JSON line per compared pair, with "a" and "b"
uids). Prints how many true pairs (truth uid,cluster_id as pairwise_f1.py
reads it) were compared at all: the ceiling on ohana's pairwise recall
before clustering's transitivity, and how many were found by each blocking key.
"""
import json
import os
import sys
from collections import Counter

sys.dont_write_bytecode = True  # no __pycache__ next to pairwise_f1.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pairwise_f1  # noqa: E402


def main():
    truth = pairwise_f1.read(sys.argv[1])
    sizes = Counter(truth.values())
    true_pairs = sum(pairwise_f1.pairs(n) for n in sizes.values())
    seen, hits, by_key = set(), 0, Counter()
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            a, b = c["a"], c["b"]
            key = (a, b) if a < b else (b, a)
            if key in seen:
                continue
            seen.add(key)
            if a in truth and truth.get(a) == truth.get(b):
                hits += 1
                for k in c.get("keys", []):
                    by_key[k] += 1
    recall = hits / true_pairs if true_pairs else 1.0
    keys = " ".join(f"{k}={n}" for k, n in by_key.most_common())
    print(f"candidate_pairs={len(seen)} true_pairs_compared={hits} true_pairs={true_pairs} "
          f"candidate_recall={recall:.4f} (true pairs by shared key: {keys or 'none'})")


if __name__ == "__main__":
    main()
