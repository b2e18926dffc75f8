#!/usr/bin/env python3
"""Dedupe one table of Benchmarks/quality/corrupt.py with Splink (DuckDB).

usage: splink_table.py PROFILE TABLE.csv OUT_PREFIX [TRUTH.csv]
  PROFILE: census, web or crm (corrupt.py's --profile that wrote TABLE.csv)

Writes OUT_PREFIX-<threshold>.csv (uid,cluster_id, every record listed, a
record in no pair in a cluster of its own; the format ../pairwise_f1.py reads)
for every match probability in SPLINK_THRESHOLDS (default
0.2,0.5,0.9,0.99,0.999). Prints splink_seconds= : reading the CSV, the data
preparation, training, prediction and clustering at 0.5 (not Python's
start-up nor the other thresholds). With TRUTH.csv (record_id,person_id),
prints pairwise precision/recall/F1 at every threshold and marks the best F1.

What a Splink user would do, step by step, after Splink's own tutorial
(docs "Tutorials", DuckDB backend, on the fake_1000 data: 01 Data
prerequisites, 03 Blocking, 04 Estimating model parameters, 05 Predicting
results):

1. Data preparation (01 "Data prerequisites": consistent formats, lower case,
   trimmed, true nulls, special characters removed, dates as yyyy-mm-dd
   strings). Done in Python on every cell, read as text:
   - names, city, birthplace, occupation, street: Unicode accents folded
     (NFKD, combining marks dropped), lower case, every character that is not
     a letter, digit, space or hyphen removed ("O'Hara" -> "ohara", as the
     prerequisites page shows), spaces collapsed, trimmed; empty -> null.
   - web full_name split into first_name/surname as a user would: "Last,
     First" (a comma) is split at the comma; otherwise the first word is the
     first name and the rest the surname (one word: surname null).
     crm: a last_name cell holding "Last, First" with an empty first_name is
     split the same way (the only thing the user can do with such a row).
   - dates (census birth_date, crm dob) parsed into ISO yyyy-mm-dd strings:
     yyyy-mm-dd, yyyymmdd, dd.mm.yyyy (dots are the German order, day first),
     and a/b/yyyy or a-b-yyyy, where a part above 12 decides the order
     (13/02/1978 is day first, 02/13/1978 month first). When both parts are
     12 or less the order is AMBIGUOUS: it is read in the order that the
     column's own unambiguous slash/dash dates use most (census 10k: month
     first, the US order, half the persons being en; crm 10k: day first, its
     slashes come only from reformatted ISO dates, in both orders); the
     order used is printed.
     A census row's locale is unknown, so every format is accepted in every
     profile. A year alone (1978), an impossible date (31/02) and anything
     else (OCR damage such as 1O/02/1978) -> null.
   - e-mail: trimmed, lower case.
   - phone (crm): digits only, then the international prefix removed (a
     leading + or 00 followed by 1, 49 or 33, the three countries of the
     data; also an 11-digit number starting with 1, the US "1-212-..."
     form), then a national trunk 0 removed, so that "+49 (0)30 1234567",
     "030/1234567" and "0049301234567" are all 301234567.
   - postcode: digits only (drops "D-", "F-", "FR-", spaces), the first five
     of a longer number (US ZIP+4), a four-digit code zero-padded to five (a
     spreadsheet's lost leading zero: all three countries use five digits),
     anything shorter -> null.
   - gender mapped to f/m from the values the column shows (female, w,
     weiblich, frau, femme, mme / male, männlich, herr, h, homme, m.);
     country (crm) mapped to us/de/fr from its values (USA, United States,
     U.S., Deutschland, BRD, D, France, République française, F, ...).
   These rules were written from looking at the values of the columns
   (tutorial 02, exploratory analysis), never from the truth.
2. Comparisons (04 "Specifying the model"), from splink.comparison_library:
   NameComparison on first_name and surname with term frequency adjustments;
   DateOfBirthComparison on the ISO string (input_is_string, %Y-%m-%d,
   invalid dates as null); EmailComparison; ExactMatch with term frequencies
   for city, birthplace, gender and occupation; ExactMatch for country.
   Postcodes here are US ZIP / German PLZ / French codes, not UK ones, so
   PostcodeComparison (UK sectors and districts) does not fit:
   DamerauLevenshteinAtThresholds(postcode, [1, 2]) with term frequencies
   (a digit typo or swap is 1, another code of the same district mostly 2).
   Phone: DamerauLevenshteinAtThresholds(phone digits, 1) with term
   frequencies (a keypad typo or two swapped digits). Street (crm; the
   tutorial has none): JaroWinklerAtThresholds([0.9, 0.7]), since
   abbreviations ("avenue" -> "ave") shorten the end of a long string and
   Jaro-Winkler weighs the shared beginning. web's signup_date is the date
   of an account, not a property of the person: not compared.
3. Blocking rules for prediction (03 "Blocking"; the tutorial predicts with
   block_on("first_name", "city") and block_on("surname") and shows
   block_on("email") and block_on("substr(first_name,1,1)", "surname")):
   pairs of columns from each profile, so that a true match is lost only
   when each pair has an error in it:
     census: first+surname, first+dob, surname+dob, postcode+surname,
             postcode+first, dob+postcode
     crm:    first+surname, first+dob, surname+dob, email, phone,
             postcode+surname, postcode+first
     web:    first+surname, email, first+city, surname+city,
             substr(first,1,1)+surname
4. probability_two_random_records_match from deterministic rules with
   recall=0.7, the tutorial's guess (its rules are first_name+dob,
   first_name+fuzzy surname, email; the fuzzy-surname join on first name
   alone is left out, it compares every pair of the same first name and
   grows quadratically on the 1M set): census first+dob and
   first+surname+postcode; crm the same and email; web first+surname+city
   and email.
5. u by estimate_u_using_random_sampling(max_pairs=1e6, seed=1) (the tutorial
   uses 2e6 on 1000 records and no seed; 1e6 and a seed here, for a fixed
   budget and repeatable runs).
6. m by EM, blocked as the tutorial does: first on first_name+surname, then
   on dob (web has no date of birth: then on email), with term frequencies
   as the tutorial leaves them (estimate_without_term_frequencies=False).
7. predict(threshold_match_probability=0.2) (the tutorial predicts at 0.1 and
   clusters at 0.2; 0.2 is the lowest threshold clustered here), then
   cluster_pairwise_predictions_at_threshold (connected components) at each
   threshold.
Nothing here was chosen by looking at F1 or at the truth; the truth file is
read only after all clusterings are written.
"""
import csv
import os
import re
import sys
import time
import unicodedata

import duckdb
import pandas as pd
import splink
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, SettingsCreator, block_on

sys.dont_write_bytecode = True  # no __pycache__ next to pairwise_f1.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pairwise_f1  # noqa: E402  (Benchmarks/compare/dedupe/pairwise_f1.py)

# Each profile: the id column, and the table's columns under the names used
# below (first_name, surname, dob, ...).
PROFILES = {
    "census": ("rec_id", {"given": "first_name", "surname": "surname", "birth_date": "dob",
                          "birthplace": "birthplace", "postcode": "postcode", "gender": "gender",
                          "occupation": "occupation"}),
    "web": ("id", {"full_name": "full_name", "email": "email", "city": "city"}),
    "crm": ("record_id", {"first_name": "first_name", "last_name": "surname", "dob": "dob",
                          "email": "email", "phone": "phone", "street": "street", "city": "city",
                          "postcode": "postcode", "country": "country", "gender": "gender",
                          "occupation": "occupation"}),
}

# ---------------------------------------------------------------- preparation

_NOT_KEPT = re.compile(r"[^\w\s-]|_")
_SPACES = re.compile(r"\s+")


def clean_text(v):
    """Accents folded, lower case, punctuation but hyphens removed, trimmed."""
    if v is None:
        return None
    v = unicodedata.normalize("NFKD", v)
    v = "".join(c for c in v if not unicodedata.combining(c)).lower()
    v = _SPACES.sub(" ", _NOT_KEPT.sub("", v)).strip()
    return v or None


def split_full_name(v):
    """'Last, First' at the comma, else first word and the rest; cleaned."""
    if v is None or not v.strip():
        return None, None
    if "," in v:
        last, first = v.split(",", 1)
        return clean_text(first), clean_text(last)
    words = v.split()
    return clean_text(words[0]), clean_text(" ".join(words[1:])) if len(words) > 1 else None


_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_SLASHED = re.compile(r"^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$")


def iso(y, m, d):
    """yyyy-mm-dd when y-m-d is a real date, else None."""
    import datetime
    try:
        return datetime.date(int(y), int(m), int(d)).isoformat()
    except ValueError:
        return None


def slash_order(values):
    """'md' or 'dm': the order most of the column's unambiguous a/b/yyyy dates use."""
    md = dm = 0
    for v in values:
        m = _SLASHED.match(v.strip()) if v else None
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if a > 12 >= b:
                dm += 1
            elif b > 12 >= a:
                md += 1
    return "dm" if dm > md else "md"


def parse_date(v, order):
    """ISO string of a date in any of the table's formats, else None."""
    if v is None:
        return None
    v = v.strip()
    if m := _ISO.match(v):
        return iso(*m.groups())
    if m := _COMPACT.match(v):
        return iso(*m.groups())
    if m := _DOTTED.match(v):
        return iso(m.group(3), m.group(2), m.group(1))
    if m := _SLASHED.match(v):
        a, b, y = int(m.group(1)), int(m.group(2)), m.group(3)
        if a > 12:
            return iso(y, b, a)
        if b > 12:
            return iso(y, a, b)
        return iso(y, a, b) if order == "md" else iso(y, b, a)
    return None  # year only, OCR damage, empty


def clean_phone(v):
    """National digits: international prefix and trunk 0 removed."""
    if v is None:
        return None
    d = re.sub(r"\D", "", v)
    intl = v.strip().startswith("+") or d.startswith("00")
    if d.startswith("00"):
        d = d[2:]
    if intl:
        for cc in ("1", "49", "33"):
            if d.startswith(cc):
                d = d[len(cc):]
                break
    elif len(d) == 11 and d.startswith("1"):
        d = d[1:]
    if d.startswith("0"):
        d = d[1:]
    return d or None


def clean_postcode(v):
    """Five digits (ZIP+4 cut, a lost leading zero put back), else None."""
    if v is None:
        return None
    d = re.sub(r"\D", "", v)
    if len(d) > 5:
        d = d[:5]
    if len(d) == 4:
        d = "0" + d
    return d if len(d) == 5 else None


GENDER = {"f": "f", "female": "f", "w": "f", "weiblich": "f", "frau": "f", "femme": "f", "mme": "f",
          "m": "m", "male": "m", "mannlich": "m", "herr": "m", "h": "m", "homme": "m"}
COUNTRY = {"us": "us", "usa": "us", "united states": "us", "united states of america": "us",
           "de": "de", "deu": "de", "germany": "de", "deutschland": "de", "d": "de", "brd": "de",
           "fr": "fr", "fra": "fr", "france": "fr", "f": "fr", "republique francaise": "fr"}


def mapped(table, v):
    v = clean_text(v)
    return table.get(v, v) if v is not None else None


def prepare(profile, path):
    """The table as a pandas frame of cleaned columns, unique_id first."""
    id_col, columns = PROFILES[profile]
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[], encoding="utf-8")
    raw = raw.where(raw.map(lambda x: x.strip() != ""), None)
    out = pd.DataFrame({"unique_id": raw[id_col]})
    src = {ours: raw[theirs] for theirs, ours in columns.items()}
    if profile == "web":
        names = [split_full_name(v) for v in src["full_name"]]
        out["first_name"] = [f for f, _ in names]
        out["surname"] = [s for _, s in names]
    else:
        firsts, lasts = [], []
        for f, s in zip(src["first_name"], src["surname"]):
            if f is None and s is not None and "," in s:
                f, s = split_full_name(s)
                firsts.append(f)
                lasts.append(s)
            else:
                firsts.append(clean_text(f))
                lasts.append(clean_text(s))
        out["first_name"], out["surname"] = firsts, lasts
    if "dob" in src:
        order = slash_order(src["dob"])
        out["dob"] = [parse_date(v, order) for v in src["dob"]]
    for c in ("birthplace", "city", "occupation", "street"):
        if c in src:
            out[c] = [clean_text(v) for v in src[c]]
    if "email" in src:
        out["email"] = [(v.strip().lower() or None) if v is not None else None for v in src["email"]]
    if "phone" in src:
        out["phone"] = [clean_phone(v) for v in src["phone"]]
    if "postcode" in src:
        out["postcode"] = [clean_postcode(v) for v in src["postcode"]]
    if "gender" in src:
        out["gender"] = [mapped(GENDER, v) for v in src["gender"]]
    if "country" in src:
        out["country"] = [mapped(COUNTRY, v) for v in src["country"]]
    return out, (order if "dob" in src else None)


# ---------------------------------------------------------------- the model

def comparisons(profile):
    name = [cl.NameComparison("first_name").configure(term_frequency_adjustments=True),
            cl.NameComparison("surname").configure(term_frequency_adjustments=True)]
    dob = cl.DateOfBirthComparison("dob", input_is_string=True, datetime_format="%Y-%m-%d",
                                   invalid_dates_as_null=True)
    postcode = cl.DamerauLevenshteinAtThresholds("postcode", [1, 2]).configure(term_frequency_adjustments=True)

    def exact_tf(c):
        return cl.ExactMatch(c).configure(term_frequency_adjustments=True)

    if profile == "census":
        return name + [dob, exact_tf("birthplace"), postcode, exact_tf("gender"), exact_tf("occupation")]
    if profile == "web":
        return name + [cl.EmailComparison("email"), exact_tf("city")]
    return name + [dob, cl.EmailComparison("email"),
                   cl.DamerauLevenshteinAtThresholds("phone", 1).configure(term_frequency_adjustments=True),
                   cl.JaroWinklerAtThresholds("street", [0.9, 0.7]), exact_tf("city"), postcode,
                   cl.ExactMatch("country"), exact_tf("gender"), exact_tf("occupation")]


def prediction_rules(profile):
    if profile == "census":
        return [block_on("first_name", "surname"), block_on("first_name", "dob"),
                block_on("surname", "dob"), block_on("postcode", "surname"),
                block_on("postcode", "first_name"), block_on("dob", "postcode")]
    if profile == "web":
        return [block_on("first_name", "surname"), block_on("email"), block_on("first_name", "city"),
                block_on("surname", "city"), block_on("substr(first_name, 1, 1)", "surname")]
    return [block_on("first_name", "surname"), block_on("first_name", "dob"), block_on("surname", "dob"),
            block_on("email"), block_on("phone"), block_on("postcode", "surname"),
            block_on("postcode", "first_name")]


def deterministic_rules(profile):
    if profile == "census":
        return [block_on("first_name", "dob"), block_on("first_name", "surname", "postcode")]
    if profile == "web":
        return [block_on("first_name", "surname", "city"), block_on("email")]
    return [block_on("first_name", "dob"), block_on("first_name", "surname", "postcode"), block_on("email")]


def train(linker, profile):
    linker.training.estimate_probability_two_random_records_match(deterministic_rules(profile), recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6, seed=1)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("first_name", "surname"))
    second = block_on("email") if profile == "web" else block_on("dob")
    linker.training.estimate_parameters_using_expectation_maximisation(second)


# ---------------------------------------------------------------- scoring

def score(truth, pred):
    """Pairwise precision, recall, F1, predicted and true pairs, and the
    truth's uids missing from `pred`: pairwise_f1.score's figures."""
    p, r, f1, tpairs, ppairs, _, missing = pairwise_f1.score(truth, pred)
    return p, r, f1, ppairs, tpairs, missing


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in PROFILES:
        sys.exit("usage: splink_table.py census|web|crm TABLE.csv OUT_PREFIX [TRUTH.csv]")
    profile, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    truth_path = sys.argv[4] if len(sys.argv) > 4 else None
    timed = 0.5
    thresholds = sorted({float(t) for t in os.environ.get(
        "SPLINK_THRESHOLDS", "0.2,0.5,0.9,0.99,0.999").split(",")} | {timed})
    predict_at = min(0.2, thresholds[0])

    start = time.time()
    df, order = prepare(profile, src)
    prepared = time.time() - start
    db_api = DuckDBAPI()
    con = db_api.duckdb_con
    records = db_api.register(df, table_name="records")
    settings = SettingsCreator(
        unique_id_column_name="unique_id",
        link_type="dedupe_only",
        blocking_rules_to_generate_predictions=prediction_rules(profile),
        comparisons=comparisons(profile),
        retain_intermediate_calculation_columns=False,
        retain_matching_columns=False,
    )
    linker = Linker(records, settings, log_level=30)
    train(linker, profile)
    pairs = linker.inference.predict(threshold_match_probability=predict_at)
    # DuckDB 2 refuses new work on a connection with an unfinished result:
    # every execute() is fetched to the end.
    n_pairs = con.execute(f"SELECT count(*) FROM {pairs.physical_name}").fetchall()[0][0]
    trained = time.time() - start
    timed_seconds = None
    for t in thresholds:
        t0 = time.time()
        clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(pairs, t)
        con.execute(f"COPY (SELECT unique_id AS uid, cluster_id FROM {clusters.physical_name} "
                    f"ORDER BY uid) TO '{dst}-{t}.csv' (HEADER, DELIMITER ',')").fetchall()
        if t == timed:
            timed_seconds = trained + time.time() - t0
    total = time.time() - start

    dates = (f"; ambiguous a/b/yyyy dates read {'month' if order == 'md' else 'day'} first"
             if order else "")
    print(f"splink {splink.__version__} duckdb {duckdb.__version__}: profile {profile}, "
          f"{len(df)} records, {n_pairs} pairs scored at p>={predict_at}{dates}")
    nulls = ", ".join(f"{c} {df[c].isna().mean():.0%}" for c in df.columns if c != "unique_id")
    print(f"null after preparation: {nulls}")
    if truth_path:
        truth = pairwise_f1.read(truth_path)
        rows = [(t, *score(truth, pairwise_f1.read(f"{dst}-{t}.csv"))) for t in thresholds]
        best = max(rows, key=lambda r: r[3])[0]
        for t, p, r, f, pp, tpairs, missing in rows:
            mark = "  <- best F1" if t == best else ""
            print(f"splink threshold {t}: precision={p:.4f} recall={r:.4f} f1={f:.4f} "
                  f"true_pairs={tpairs} predicted_pairs={pp} missing={missing}{mark}")
    print(f"splink_seconds={timed_seconds:.2f} (read+prepare {prepared:.2f}, +train+predict "
          f"{trained - prepared:.2f}, +clustering at {timed}; all {len(thresholds)} thresholds {total:.2f})")


if __name__ == "__main__":
    main()
