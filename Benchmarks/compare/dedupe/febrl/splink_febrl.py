#!/usr/bin/env python3
"""Dedupe a FEBRL flat CSV (from febrl_to_vcard.py) with Splink (DuckDB).

usage: splink_febrl.py FLAT.csv OUT_PREFIX [TRUTH.csv]

Writes OUT_PREFIX-<threshold>.csv (uid,cluster_id, the format pairwise_f1.py
reads) for every threshold in SPLINK_THRESHOLDS (match probabilities, default
0.2,0.5,0.9,0.99,0.999) and OUT_PREFIX.csv at the headline threshold
SPLINK_THRESHOLD (default 0.99). With TRUTH.csv, prints pairwise
precision/recall/F1 at every threshold. Prints the seconds spent in Splink
(reading the CSV, training, prediction, clustering at the headline threshold;
not Python's start-up nor the other thresholds) as splink_seconds=.

The model follows Splink's own documented FEBRL examples
(splink docs/demos/examples/duckdb/febrl3 "Deduplicating the febrl3 dataset"
and febrl4 "Linking the febrl4 datasets", "detailed model"), with soc_sec_id
removed everywhere (the benchmark leaves the social security number out):
- blocking for predictions: the febrl3 example's single-column rules
  (given_name, surname, date_of_birth, postcode) plus the febrl4 example's
  rules that these do not already cover (given name and surname swapped;
  state + address_1; street_number + address_1);
- comparisons: the febrl4 detailed model: NameComparison on given_name and
  surname with term-frequency adjustments, DateOfBirthComparison on the
  YYYYMMDD string (invalid dates as null), exact street_number with term
  frequencies, Damerau-Levenshtein <= 1, <= 2 on postcode with term
  frequencies (Splink's PostcodeComparison is for UK postcodes; the examples
  do not use it on FEBRL's four-digit Australian ones);
- training: probability two random records match from deterministic rules
  (given_name + surname + date_of_birth; the swapped-name rule with the same
  date of birth) at recall 0.8 (febrl4 example); u by random sampling
  (1e6 pairs, fixed seed); m by EM blocked on date_of_birth, then on postcode,
  without term frequencies (febrl4 example);
- prediction at match probability 0.2 (both examples), clustering by connected
  components; headline threshold 0.99 (the febrl4 example's clustering
  threshold). Nothing here was tuned on any FEBRL truth.
"""
import os
import sys
import time

import duckdb  # noqa: F401  (the backend)
import splink
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, SettingsCreator, block_on

sys.dont_write_bytecode = True  # no __pycache__ next to pairwise_f1.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pairwise_f1  # noqa: E402  (Benchmarks/compare/dedupe/pairwise_f1.py)


def score(truth, pred):
    """Pairwise precision, recall, F1 as pairwise_f1.py computes them."""
    from collections import Counter
    uids = [u for u in truth if u in pred]
    tp = sum(pairwise_f1.pairs(n) for n in Counter((truth[u], pred[u]) for u in uids).values())
    tpairs = sum(pairwise_f1.pairs(n) for n in Counter(truth[u] for u in uids).values())
    ppairs = sum(pairwise_f1.pairs(n) for n in Counter(pred[u] for u in uids).values())
    p = tp / ppairs if ppairs else 1.0
    r = tp / tpairs if tpairs else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0), ppairs


def blocking_rules():
    """The febrl3 example's single-column rules and the febrl4 example's others."""
    return [
        block_on("given_name"),
        block_on("surname"),
        block_on("date_of_birth"),
        block_on("postcode"),
        "l.given_name = r.surname and l.surname = r.given_name",
        block_on("state", "address_1"),
        block_on("street_number", "address_1"),
    ]


def comparisons():
    """The febrl4 example's detailed model without soc_sec_id."""
    return [
        cl.NameComparison("given_name").configure(term_frequency_adjustments=True),
        cl.NameComparison("surname").configure(term_frequency_adjustments=True),
        cl.DateOfBirthComparison("date_of_birth", input_is_string=True,
                                 datetime_format="%Y%m%d", invalid_dates_as_null=True),
        cl.ExactMatch("street_number").configure(term_frequency_adjustments=True),
        cl.DamerauLevenshteinAtThresholds("postcode", [1, 2]).configure(term_frequency_adjustments=True),
    ]


def train(linker):
    """The prior from deterministic rules, u by random sampling, m by EM."""
    linker.training.estimate_probability_two_random_records_match(
        [block_on("given_name", "surname", "date_of_birth"),
         "l.given_name = r.surname and l.surname = r.given_name and l.date_of_birth = r.date_of_birth"],
        recall=0.8)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6, seed=1)
    linker.training.estimate_parameters_using_expectation_maximisation(
        block_on("date_of_birth"), estimate_without_term_frequencies=True)
    linker.training.estimate_parameters_using_expectation_maximisation(
        block_on("postcode"), estimate_without_term_frequencies=True)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    truth_path = sys.argv[3] if len(sys.argv) > 3 else None
    headline = float(os.environ.get("SPLINK_THRESHOLD", "0.99"))
    thresholds = sorted({float(t) for t in os.environ.get(
        "SPLINK_THRESHOLDS", "0.2,0.5,0.9,0.99,0.999").split(",")} | {headline})
    predict_at = min(0.2, thresholds[0])

    start = time.time()
    db_api = DuckDBAPI()
    con = db_api.duckdb_con
    # DuckDB 2 refuses new work on a connection with an unfinished result:
    # every execute() below is fetched to the end.
    con.execute(f"CREATE TABLE records AS FROM read_csv('{src}', all_varchar = true, header = true)").fetchall()
    df = db_api.register("records")

    blocking = blocking_rules()
    settings = SettingsCreator(
        unique_id_column_name="rec_id",
        link_type="dedupe_only",
        blocking_rules_to_generate_predictions=blocking,
        comparisons=comparisons(),
        retain_intermediate_calculation_columns=False,
        retain_matching_columns=False,
    )
    linker = Linker(df, settings, log_level=30)
    train(linker)
    pairs = linker.inference.predict(threshold_match_probability=predict_at)
    n_pairs = con.execute(f"SELECT count(*) FROM {pairs.physical_name}").fetchall()[0][0]
    trained = time.time() - start
    headline_seconds = None
    for t in thresholds:
        t0 = time.time()
        clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(pairs, t)
        con.execute(f"COPY (SELECT rec_id AS uid, cluster_id FROM {clusters.physical_name}) "
                    f"TO '{dst}-{t}.csv' (HEADER, DELIMITER ',')").fetchall()
        if t == headline:
            con.execute(f"COPY (SELECT rec_id AS uid, cluster_id FROM {clusters.physical_name}) "
                        f"TO '{dst}.csv' (HEADER, DELIMITER ',')").fetchall()
            # one run's time: training + prediction + clustering at the headline
            headline_seconds = trained + time.time() - t0
    total = time.time() - start

    print(f"splink {splink.__version__} duckdb {duckdb.__version__}: {n_pairs} pairs scored at p>={predict_at}")
    if truth_path:
        truth = pairwise_f1.read(truth_path)
        for t in thresholds:
            p, r, f, pp = score(truth, pairwise_f1.read(f"{dst}-{t}.csv"))
            mark = "  <- headline" if t == headline else ""
            print(f"splink threshold {t}: precision={p:.4f} recall={r:.4f} f1={f:.4f} predicted_pairs={pp}{mark}")
    print(f"splink_seconds={headline_seconds:.2f} (read+train+predict {trained:.2f}, + clustering at {headline}; "
          f"all {len(thresholds)} thresholds {total:.2f})")


if __name__ == "__main__":
    main()
