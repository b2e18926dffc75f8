#!/usr/bin/env python3
"""Dedupe the flat CSV with Splink (DuckDB backend) and write uid,cluster_id.

usage: splink_dedupe.py FLAT.csv CLUSTERS_PREFIX [THRESHOLDS] [PAIRS.csv]

THRESHOLDS: match probabilities, comma-separated (default 0.5,0.99,0.9999);
predictions are made once at the lowest and clustered at each, writing
CLUSTERS_PREFIX-<threshold>.csv.

A reasonable Splink model, as its tutorials build one:
- blocking for predictions on phone (any of three against any), e-mail
  (first two against each other), first name + surname, postcode + surname;
- comparisons: Jaro-Winkler levels on first name and surname (with term
  frequency adjustments, so common names weigh less), "any phone in
  common" and "any e-mail in common" (custom levels over the three columns),
  exact date of birth, exact whole address;
- training: lambda from deterministic rules, u by random sampling, m by EM
  on two blocking rules (phone; e-mail: each round estimates the other
  comparisons; a round blocked on names would teach EM that namesakes are
  matches);
- clustering: connected components at the threshold (default 0.5).
Prints the seconds spent in Splink (reading the CSV included). DuckDB's
memory is capped by SPLINK_MEMORY_LIMIT (default 6GB); at 1,000,000 contacts
an uncapped run with threshold 0.5 grew past 20 GB here.
"""
import os
import sys
import time

import duckdb  # noqa: F401  (the backend)
from splink import Linker, SettingsCreator, block_on
import splink.comparison_library as cl
from splink.backends.duckdb import DuckDBAPI


def any_match(cols, label):
    pairs = [f"({a}_l = {b}_r)" for a in cols for b in cols]
    null = f"{cols[0]}_l is null or {cols[0]}_r is null"
    return cl.CustomComparison(
        output_column_name=label,
        comparison_levels=[
            {"sql_condition": null, "label_for_charts": "null", "is_null_level": True},
            {"sql_condition": " or ".join(pairs), "label_for_charts": "any in common"},
            {"sql_condition": "ELSE", "label_for_charts": "none in common"},
        ],
    )


def main():
    src, dst = sys.argv[1], sys.argv[2]
    thresholds = sorted(float(t) for t in (sys.argv[3] if len(sys.argv) > 3 else "0.5,0.99,0.9999").split(","))
    start = time.time()
    db_api = DuckDBAPI()
    con = db_api.duckdb_con
    # Keep DuckDB within a share of a machine used by others (it spills to disk).
    con.execute(f"SET memory_limit = '{os.environ.get('SPLINK_MEMORY_LIMIT', '6GB')}'")
    # Spill next to the outputs, not into the current directory.
    spill = os.path.join(os.path.dirname(os.path.abspath(dst)), "duckdb_tmp")
    con.execute(f"SET temp_directory = '{spill}'")
    con.execute(f"CREATE TABLE contacts AS FROM read_csv('{src}', all_varchar = true, header = true)")
    df = db_api.register("contacts")
    phones = ["phone1", "phone2", "phone3"]
    emails = ["email1", "email2", "email3"]
    blocking = [
        *[f"l.{a} = r.{b}" for a in phones for b in phones],
        *[f"l.{a} = r.{b}" for a in emails[:2] for b in emails[:2]],
        block_on("first_name", "surname"),
        block_on("postcode", "surname"),
    ]
    settings = SettingsCreator(
        link_type="dedupe_only",
        blocking_rules_to_generate_predictions=blocking,
        comparisons=[
            cl.JaroWinklerAtThresholds("first_name", [0.92, 0.8]).configure(term_frequency_adjustments=True),
            cl.JaroWinklerAtThresholds("surname", [0.92, 0.8]).configure(term_frequency_adjustments=True),
            any_match(phones, "phone"),
            any_match(emails, "email"),
            cl.ExactMatch("dob"),
            cl.ExactMatch("address").configure(term_frequency_adjustments=True),
        ],
        retain_intermediate_calculation_columns=False,
        retain_matching_columns=False,
    )
    linker = Linker(df, settings, log_level=30)
    linker.training.estimate_probability_two_random_records_match(
        ["l.phone1 = r.phone1 and l.first_name = r.first_name", block_on("email1", "surname")], recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=2e6, seed=1)
    linker.training.estimate_parameters_using_expectation_maximisation("l.phone1 = r.phone1")
    linker.training.estimate_parameters_using_expectation_maximisation("l.email1 = r.email1")
    pairs = linker.inference.predict(threshold_match_probability=thresholds[0])
    trained = time.time() - start
    for threshold in thresholds:
        clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(pairs, threshold)
        con.execute(
            f"COPY (SELECT unique_id AS uid, cluster_id FROM {clusters.physical_name}) "
            f"TO '{dst}-{threshold}.csv' (HEADER, DELIMITER ',')")
        if threshold == thresholds[0]:
            first = time.time() - start
    if len(sys.argv) > 4:
        # Also the scored pairs (for diagnosis): uid_l, uid_r, match_weight.
        con.execute(
            f"COPY (SELECT unique_id_l, unique_id_r, match_weight FROM {pairs.physical_name}) "
            f"TO '{sys.argv[4]}' (HEADER, DELIMITER ',')")
    print(f"splink_seconds_first_threshold={first:.2f} predict={trained:.2f} all={time.time() - start:.2f}")


if __name__ == "__main__":
    main()
