#!/usr/bin/env python3
"""Splink on its own historical-persons table, trained as its example does.

usage: splink_h50k.py TABLE.parquet OUT_PREFIX [TRUTH.csv]
  TABLE.parquet: Splink's historical_figures_with_errors_50k.parquet
  (splink_datasets, `historical_50k`), its `cluster` column the truth.

The model is the one of Splink's own example for this table
(docs/demos/examples/duckdb/deduplicate_50k_synthetic, Splink 4/5 API):
its ten blocking rules; ForenameSurnameComparison over first_name and
surname with their concatenation for term frequencies, DateOfBirthComparison,
PostcodeComparison, exact birth_place and occupation with term frequencies;
the prior from its three deterministic rules at recall 0.6; u from 1e7
random pairs; EM in two sessions, blocked on first_name+surname and on dob.
So this is "the other project's own model, trained for this data".

Writes OUT_PREFIX-<threshold>.csv (uid,cluster_id, every record) for every
match probability in SPLINK_THRESHOLDS (default 0.5,0.9,0.95,0.99,0.999;
the example clusters at 0.95) and prints splink_seconds= (registering the
table, training, prediction and clustering at 0.95; not Python's start-up
nor the other thresholds). With TRUTH.csv (uid,entity) prints pairwise
precision/recall/F1 at every threshold and marks the best (picked with the
truth: an upper bound, not a setting a user would know).
"""
import csv
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ next to pairwise_f1.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pairwise_f1  # noqa: E402  (Benchmarks/compare/dedupe/pairwise_f1.py)



def main():
    table, prefix = sys.argv[1], sys.argv[2]
    truth = pairwise_f1.read(sys.argv[3]) if len(sys.argv) > 3 else None
    thresholds = [float(x) for x in os.environ.get("SPLINK_THRESHOLDS", "0.5,0.9,0.95,0.99,0.999").split(",")]

    import pyarrow.parquet as pq
    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    arrow = pq.read_table(table)
    start = time.perf_counter()
    db_api = DuckDBAPI()
    blocking_rules = [
        block_on("substr(first_name,1,3)", "substr(surname,1,4)"),
        block_on("surname", "dob"),
        block_on("first_name", "dob"),
        block_on("postcode_fake", "first_name"),
        block_on("postcode_fake", "surname"),
        block_on("dob", "birth_place"),
        block_on("substr(postcode_fake,1,3)", "dob"),
        block_on("substr(postcode_fake,1,3)", "first_name"),
        block_on("substr(postcode_fake,1,3)", "surname"),
        block_on("substr(first_name,1,2)", "substr(surname,1,2)", "substr(dob,1,4)"),
    ]
    settings = SettingsCreator(
        link_type="dedupe_only",
        blocking_rules_to_generate_predictions=blocking_rules,
        comparisons=[
            cl.ForenameSurnameComparison("first_name", "surname", forename_surname_concat_col_name="first_name_surname_concat"),
            cl.DateOfBirthComparison("dob", input_is_string=True),
            cl.PostcodeComparison("postcode_fake"),
            cl.ExactMatch("birth_place").configure(term_frequency_adjustments=True),
            cl.ExactMatch("occupation").configure(term_frequency_adjustments=True),
        ],
        retain_intermediate_calculation_columns=True,
    )
    rel = db_api.duckdb_con.from_arrow(arrow).project("*, first_name || ' ' || surname as first_name_surname_concat")
    linker = Linker(db_api.register(rel), settings)
    linker.training.estimate_probability_two_random_records_match(
        [
            block_on("first_name", "surname", "dob"),
            block_on("substr(first_name,1,2)", "surname", "substr(postcode_fake,1,2)"),
            block_on("dob", "postcode_fake"),
        ],
        recall=0.6,
    )
    linker.training.estimate_u_using_random_sampling(max_pairs=1e7)
    linker.training.estimate_parameters_using_expectation_maximisation(
        block_on("first_name", "surname"), estimate_without_term_frequencies=True)
    linker.training.estimate_parameters_using_expectation_maximisation(
        block_on("dob"), estimate_without_term_frequencies=True)
    predictions = linker.inference.predict()
    ids = [str(u) for u in arrow.column("unique_id").to_pylist()]
    results = []
    for th in thresholds:
        t0 = time.perf_counter()
        clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(predictions, threshold_match_probability=th)
        df = clusters.as_pandas_dataframe()
        if th == 0.95:
            print(f"splink_seconds={t0 - start + time.perf_counter() - t0:.2f}")
        pred = {str(u): str(c) for u, c in zip(df["unique_id"], df["cluster_id"])}
        for u in ids:
            pred.setdefault(u, "single-" + u)
        out = f"{prefix}-{th}.csv"
        with open(out, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["uid", "cluster_id"])
            for u in ids:
                w.writerow([u, pred[u]])
        if truth is not None:
            results.append((th,) + pairwise_f1.score(truth, pred)[:3])
    if results:
        best = max(results, key=lambda r: r[3])
        for th, p, r, f in results:
            mark = "  <- best" if (th, p, r, f) == best else ""
            print(f"splink threshold {th}: precision {p:.4f}, recall {r:.4f}, F1 {f:.4f}{mark}")


if __name__ == "__main__":
    main()
