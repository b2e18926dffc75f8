#!/usr/bin/env python3
"""DuckDB baseline: ORDER BY "full" COLLATE <locale> over the same names.

Loads the file into a table first (not timed), then times
CREATE TABLE sorted AS SELECT "full" FROM names ORDER BY "full" COLLATE de
(materialized, so the sort is not streamed away). Prints CPU time of the
process (all DuckDB threads) and wall time. Requires `pip install duckdb`.

Usage: duckdb_sort.py NAMES.txt [locale] [threads]
"""
import sys
import time

import duckdb


if __name__ == "__main__":
    path = sys.argv[1]
    locale = sys.argv[2] if len(sys.argv) > 2 else "de"
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {threads}")
    con.execute(
        'CREATE TABLE names AS SELECT column0 AS "full" FROM read_csv(?, header=false, '
        "delim='\\x01', quote='', escape='', columns={'column0': 'VARCHAR'})",
        [path],
    )
    rows = con.execute("SELECT count(*) FROM names").fetchone()[0]
    used_threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    c0, w0 = time.process_time(), time.perf_counter()
    con.execute(f'CREATE TABLE sorted AS SELECT "full" FROM names ORDER BY "full" COLLATE {locale}')
    c1, w1 = time.process_time(), time.perf_counter()
    first = con.execute("SELECT \"full\" FROM sorted LIMIT 1").fetchone()[0]
    print(
        f"duckdb rows={rows} locale={locale} threads={used_threads} duckdb={duckdb.__version__} "
        f"| total: cpu={c1 - c0:.3f}s wall={w1 - w0:.3f}s | first={first}"
    )
