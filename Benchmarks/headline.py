#!/usr/bin/env python3
"""Reads what Benchmarks/headline.sh's run left in WORK (rows/ROW.meta: the
command, date, exit status and skipped peers of each row; logs/ROW.log: the
compare script's output) and writes the headline table in Markdown.

Every figure comes from those outputs: nothing is typed here, nothing is
taken from an earlier run. A row whose output does not match what its
parser expects becomes a FAILED row with the reason (on standard error
too), never a guess.

    headline.py --work DIR --rows "phone io ..." --machine TEXT --commit REV
                --ohana PATH --built DATE --seconds N [--write README.md]

Exit status: 0 every row ran with every peer, 2 some peer did not run
(its cell says why), 1 a row failed or did not run (--write then leaves
README.md as it is).
"""

import argparse
import json
import os
import re
import statistics
import sys

BEGIN = "<!-- headline:begin -->"
END = "<!-- headline:end -->"
DASH = "—"


class ParseError(Exception):
    """The output of a compare script is not what its parser expects."""


class Row:
    """What one compare script run gives: its meta data and log text."""

    def __init__(self, name, work):
        self.name = name
        path = os.path.join(work, "rows", name + ".meta")
        if not os.path.exists(path):
            raise ParseError(f"{path} is missing: headline.sh did not start this row")
        self.meta = {}
        self.skips = {}
        self.notrun = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition("\t")
                if key == "skip":
                    peer, _, reason = value.partition("\t")
                    self.skips[peer] = reason
                elif key == "notrun":
                    self.notrun.append(value)
                else:
                    self.meta[key] = value
        self.text = ""
        log = self.meta.get("log")
        if log and os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                self.text = f.read()
        self.quick = self.meta.get("quick") == "1"

    def need(self, pattern, what, text=None):
        m = re.search(pattern, self.text if text is None else text, re.M)
        if not m:
            raise ParseError(f"{self.name}: {what}: no line matches /{pattern}/")
        return m

    def all(self, pattern, what, text=None):
        found = list(re.finditer(pattern, self.text if text is None else text, re.M))
        if not found:
            raise ParseError(f"{self.name}: {what}: no line matches /{pattern}/")
        return found

    def sections(self):
        """The log cut at lines '== TITLE' (compare/io, compare/store)."""
        out, title, lines = [], None, []
        for line in self.text.split("\n"):
            m = re.match(r"^== (.*)$", line)
            if m:
                out.append((title, "\n".join(lines)))
                title, lines = m.group(1), []
            else:
                lines.append(line)
        out.append((title, "\n".join(lines)))
        return out

    def section(self, pattern, what):
        found = [(t, body) for t, body in self.sections() if t is not None and re.search(pattern, t)]
        if not found:
            raise ParseError(f"{self.name}: {what}: no section '== ...' matches /{pattern}/")
        return found


def num(x, digits=0):
    return f"{x:,.{digits}f}"


def faster(ours, theirs, better="faster", worse="slower"):
    """ours and theirs as rates (higher is better): "23.4× faster", "1.5× slower"."""
    if theirs <= 0 or ours <= 0:
        return DASH
    r = ours / theirs
    return f"{r:.1f}× {better}" if r >= 1 else f"{1 / r:.1f}× {worse}"


def not_run_peer(label, row, key):
    return f"{label}: peer not run: {row.skips[key]}"


def wall_seconds(text):
    """GNU time's elapsed 'h:mm:ss' or 'm:ss.ss', or plain seconds."""
    parts = text.split(":")
    try:
        s = 0.0
        for p in parts:
            s = s * 60 + float(p)
        return s
    except ValueError:
        raise ParseError(f"not a wall time: {text!r}")


# --- one parser per row: each returns [(job, size, ohana, peer, ratio)] and a
# set of peers that did not run --------------------------------------------------


def parse_phone(row):
    job = "phone numbers: parse, 4 formats, validity, type (1 core, CPU time of the whole process)"
    tools = {}
    for m in row.all(r"^(ohana phone|C\+\+ libphonenumber|Python phonenumbers)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+(\S+)\s*$",
                     "the tool table"):
        count, cpu = int(m.group(2)), float(m.group(3))
        if cpu <= 0:
            raise ParseError(f"phone: {m.group(1)} has CPU time {cpu}")
        tools[m.group(1)] = (count, cpu, count / cpu)
    if "ohana phone" not in tools:
        raise ParseError("phone: no 'ohana phone' line in the tool table")
    n, oh_cpu, oh = tools["ohana phone"]
    same = {m.group(1).split()[0]: (int(m.group(2)), int(m.group(3)))
            for m in re.finditer(r"^rows identical to (Python phonenumbers [\d.]+|C\+\+ libphonenumber \(own metadata\)): (\d+) / (\d+)$",
                                 row.text, re.M)}
    ours = f"{num(oh)} numbers/s ({oh_cpu:.3f} s CPU)"
    out = []
    if "cpp" in row.skips:
        row.need(r"^C\+\+ libphonenumber\s+not run", "the C++ line saying it did not run")
        out.append((job, f"{num(n)} numbers", ours, not_run_peer("C++ libphonenumber", row, "cpp"), DASH))
    else:
        if "C++ libphonenumber" not in tools:
            raise ParseError("phone: no 'C++ libphonenumber' line in the tool table")
        version = row.need(r"^C\+\+ libphonenumber version: (.*)$", "the C++ library's version").group(1)
        cn, ccpu, crate = tools["C++ libphonenumber"]
        s, t = same.get("C++", (None, None))
        if s is None:
            raise ParseError("phone: no 'rows identical to C++ libphonenumber' line")
        out.append((job, f"{num(n)} numbers", ours,
                    f"C++ libphonenumber {version}: {num(crate)} numbers/s ({ccpu:.3f} s CPU); rows identical: {num(s)} / {num(t)}",
                    faster(oh, crate)))
    if "Python phonenumbers" not in tools:
        raise ParseError("phone: no 'Python phonenumbers' line in the tool table")
    version = row.need(r"^Python phonenumbers version: (.*)$", "phonenumbers' version").group(1)
    pn, pcpu, prate = tools["Python phonenumbers"]
    s, t = same.get("Python", (None, None))
    if s is None:
        raise ParseError("phone: no 'rows identical to Python phonenumbers' line")
    out.append((job, f"{num(n)} numbers (Python: the first {num(pn)})", ours,
                f"Python phonenumbers {version}: {num(prate)} numbers/s ({pcpu:.3f} s CPU); rows identical: {num(s)} / {num(t)}",
                faster(oh, prate)))
    return out


def parse_io(row):
    read_pat = r"^read: ([\d.]+) MB, (\d+) contacts, (\d+) errors, ([\d.]+) s, ([\d.]+) MB/s.*workers (\d+)"
    (title, body), = row.section(r"^OhanaIO read \(\d+ workers\)$", "the OhanaIO read")
    whole = row.need(read_pat, "OhanaIO's read line", body)
    mb, cards, errors, secs, rate, workers = (float(whole.group(1)), int(whole.group(2)), int(whole.group(3)),
                                               float(whole.group(4)), float(whole.group(5)), int(whole.group(6)))
    peak = int(row.need(r"^peak memory: (\d+) MiB", "the read's peak memory", body).group(1))
    job = f"vCard read: file to table (OhanaIO, {workers} workers; the peers stream cards)"
    ours = f"{rate:.1f} MB/s ({secs:.3f} s, peak {num(peak)} MiB, {errors} errors)"
    out = []
    size = f"{num(cards)} generated cards, {mb:.1f} MB (mixed 2.1 / 3.0 / 4.0)"
    if "ezvcard" in row.skips:
        row.need(r"^vs ez-vcard: not run", "the summary's ez-vcard line saying it did not run")
        out.append((job, size, ours, not_run_peer("ez-vcard", row, "ezvcard"), DASH))
    else:
        version = row.need(r"^ez-vcard version: (.*)$", "ez-vcard's version").group(1)
        (_, ez_body), = row.section(r"^ez-vcard \(", "the ez-vcard run")
        ez = row.need(r"^ez-vcard: ([\d.]+) MB, (\d+) cards, ([\d.]+) s, ([\d.]+) MB/s", "ez-vcard's line", ez_body)
        ez_mb, ez_cards, ez_rate = float(ez.group(1)), int(ez.group(2)), float(ez.group(4))
        if abs(ez_mb - mb) > 0.05 + 0.001 * mb:
            size = f"{num(cards)} generated cards, {mb:.1f} MB (ez-vcard: {ez_mb:.1f} MB)"
        out.append((job, size, ours, f"ez-vcard {version}: {ez_rate:.1f} MB/s ({num(ez_cards)} cards read)",
                    faster(rate, ez_rate)))
    (_, sub_body), = row.section(r"^OhanaIO read, vobject subset", "the OhanaIO read of the vobject subset")
    sub = row.need(read_pat, "OhanaIO's read line on the subset", sub_body)
    sub_mb, sub_cards, sub_rate = float(sub.group(1)), int(sub.group(2)), float(sub.group(5))
    sub_size = f"the first {num(sub_cards)} of those cards, {sub_mb:.1f} MB"
    sub_ours = f"{sub_rate:.1f} MB/s on those cards"
    if "vobject" in row.skips:
        row.need(r"^vs vobject:\s+not run", "the summary's vobject line saying it did not run")
        out.append((job, sub_size, sub_ours, not_run_peer("vobject", row, "vobject"), DASH))
    else:
        version = row.need(r"^vobject version: (.*)$", "vobject's version").group(1)
        (_, v_body), = row.section(r"^vobject \(", "the vobject run")
        v = row.need(r"^vobject: ([\d.]+) MB, (\d+) cards, (\d+) failed, ([\d.]+) s, ([\d.]+) MB/s", "vobject's line", v_body)
        ok, failed, v_rate = int(v.group(2)), int(v.group(3)), float(v.group(5))
        out.append((job, sub_size, sub_ours,
                    f"vobject {version}: {v_rate:.1f} MB/s ({num(failed)} of {num(ok + failed)} cards failed)",
                    faster(sub_rate, v_rate)))
    return out


def parse_sort(row):
    checksum = r"\| first=.* \| checksum=([0-9a-f]+)\s*$"
    icu = row.all(r"^icu-floor rows=(\d+) locale=(\S+) keys: .*\| total: cpu=([\d.]+)s wall=([\d.]+)s " + checksum,
                  "the ICU floor's lines")
    ours = row.all(r"^ohana rows=(\d+) distinct=(\d+) locale=(\S+) threads=all run=\d+ \|.*\| total: cpu=([\d.]+)s wall=([\d.]+)s "
                   + checksum, "ohana-sort-bench's lines (all threads)")
    seq = row.all(r"^ohana rows=\d+ distinct=\d+ locale=\S+ threads=1 run=\d+ \|.*\| total: cpu=([\d.]+)s wall=([\d.]+)s ",
                  "ohana-sort-bench's one-thread line")
    rows, distinct, locale = int(ours[0].group(1)), int(ours[0].group(2)), ours[0].group(3)
    if {int(m.group(1)) for m in icu} != {rows}:
        raise ParseError("sort: the ICU floor sorted another number of rows than ohana")
    icu_sum = {int(m.group(5), 16) for m in icu}
    if len(icu_sum) != 1:
        raise ParseError("sort: the ICU floor's runs disagree on the checksum")
    same = all(int(m.group(6), 16) in icu_sum for m in ours)
    o_wall = statistics.median(float(m.group(5)) for m in ours)
    o_cpu = statistics.median(float(m.group(4)) for m in ours)
    one_wall = statistics.median(float(m.group(2)) for m in seq)
    icu_wall = statistics.median(float(m.group(4)) for m in icu)
    icu_cpu = statistics.median(float(m.group(3)) for m in icu)
    icu_version = row.need(r"^== machine: .*ICU (\S+)$", "the ICU version").group(1)
    job = f"sort names for a locale (`{locale}`): the sort alone, file read excluded"
    size = f"{num(rows)} names, {num(distinct)} distinct"
    if "names" in row.meta:
        size += f" (`{row.meta['names']}`)"
    ours_cell = (f"{o_wall:.3f} s wall, {o_cpu:.3f} s CPU (all cores; one thread {one_wall:.3f} s wall); "
                 f"median of {len(ours)}; same order as ICU: {'yes' if same else 'NO'}")
    out = []
    if "duckdb" in row.skips:
        out.append((job, size, ours_cell, not_run_peer("DuckDB", row, "duckdb"), DASH))
    else:
        duck = row.all(r"^duckdb rows=(\d+) locale=(\S+) threads=(\d+) duckdb=(\S+) \| total: cpu=([\d.]+)s wall=([\d.]+)s",
                       "DuckDB's lines")
        d_wall = statistics.median(float(m.group(6)) for m in duck)
        d_cpu = statistics.median(float(m.group(5)) for m in duck)
        out.append((job, size, ours_cell,
                    f"DuckDB {duck[0].group(4)} `ORDER BY ... COLLATE {locale}` ({duck[0].group(3)} threads): "
                    f"{d_wall:.3f} s wall, {d_cpu:.3f} s CPU (median of {len(duck)})",
                    f"{faster(1 / o_wall, 1 / d_wall)} (wall)"))
    out.append((job, size, ours_cell,
                f"ICU {icu_version} floor (C: `ucol_getSortKey` + `qsort`, 1 thread): {icu_wall:.3f} s wall, "
                f"{icu_cpu:.3f} s CPU (median of {len(icu)})",
                f"{faster(1 / o_wall, 1 / icu_wall)} (wall), {faster(1 / o_cpu, 1 / icu_cpu, 'less CPU', 'more CPU')}"))
    return out


def parse_dedupe(row):
    head = row.need(r"^== ohana dedupe \((\d+) contacts, dup rate ([\d.]+), seed (\d+), style (\S+)\)$", "the ohana header")
    n, dup, seed, style = int(head.group(1)), head.group(2), head.group(3), head.group(4)
    score = r"^precision=([\d.]+) recall=([\d.]+) f1=([\d.]+) true_pairs=(\d+)"
    o = row.need(score, "ohana's precision / recall / F1")
    o_p, o_r, o_f1 = o.group(1), o.group(2), float(o.group(3))
    t = row.need(r"^ohana\s+([\d.]+)\s+(\S+)\s+(\d+)\s*$", "the table's ohana line")
    if abs(float(t.group(1)) - o_f1) > 1e-9:
        raise ParseError("dedupe: the table's ohana F1 is not the one scored")
    o_wall, o_rss = wall_seconds(t.group(2)), int(t.group(3))
    job = "dedupe a generated address book: pairwise F1 against the generator's truth, wall time"
    size = f"{num(n)} contacts, dup rate {dup}, seed {seed} ({style})"
    ours = f"F1 {o_f1:.4f} (precision {o_p}, recall {o_r}); {o_wall:.2f} s (read, dedupe, write), {num(o_rss)} MiB peak"
    if "splink" in row.skips:
        return [(job, size, ours, not_run_peer("Splink", row, "splink"), DASH)]
    version = row.need(r"^== Splink (\S+) \(DuckDB\), thresholds (\S+)$", "Splink's version").group(1)
    s = row.need(r"^splink\s+([\d.]+)\s+(\S+)\s+(\d+)\s+\(best threshold ([\d.]+);", "the table's Splink line")
    s_f1, s_wall, s_rss, best = float(s.group(1)), wall_seconds(s.group(2)), int(s.group(3)), s.group(4)
    at = row.need(r"^threshold " + re.escape(best) + r": precision=([\d.]+) recall=([\d.]+) f1=([\d.]+)",
                  "Splink's score at its best threshold")
    if abs(float(at.group(3)) - s_f1) > 1e-9:
        raise ParseError("dedupe: the table's Splink F1 is not the one scored at its best threshold")
    peer = (f"Splink {version} (DuckDB; best of its thresholds, {best}): F1 {s_f1:.4f} (precision {at.group(1)}, "
            f"recall {at.group(2)}); {s_wall:.2f} s (CSV export excluded), {num(s_rss)} MiB peak")
    return [(job, size, ours, peer, f"{faster(1 / o_wall, 1 / s_wall)}; F1 {o_f1 - s_f1:+.4f}")]


def parse_febrl(row):
    line = (r"^(febrl\d(?: \(HELD OUT\))?)\s+(\d+)\s+(\d+)\s+(ohana|splink|goldenm)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"
            r"\s+([\d.]+)\s+(\d+)\s*$")
    sets, by = [], {}
    for m in row.all(line, "the closing table"):
        name = m.group(1)
        if name not in by:
            sets.append(name)
            by[name] = {"records": int(m.group(2))}
        by[name][m.group(4)] = (float(m.group(7)), float(m.group(8)))
    for name in sets:
        if "ohana" not in by[name]:
            raise ParseError(f"febrl: no ohana line for {name}")

    def label(name):
        return name.replace("febrl", "FEBRL").replace(" (HELD OUT)", " (held out)")

    # "FEBRL1 / 2 / 4 / 3 (held out): 1,000 / 5,000 / 10,000 / 5,000 records"
    size = (" / ".join([label(sets[0])] + [label(s)[len("FEBRL"):] for s in sets[1:]]) + ": "
            + " / ".join(num(by[s]["records"]) for s in sets) + " records")

    def f1s(tool):
        return " / ".join(f"{by[s][tool][0]:.4f}" for s in sets)

    def secs(tool):
        return " / ".join(f"{by[s][tool][1]:.2f}" for s in sets)

    job = "dedupe FEBRL (names, addresses, birth dates; no SSN): pairwise F1"
    ours = f"F1 {f1s('ohana')} ({secs('ohana')} s, whole process)"
    out = []
    for key, tool, label_ in (("splink", "splink", "Splink"), ("goldenmatch", "goldenm", "GoldenMatch")):
        if key in row.skips:
            out.append((job, size, ours, not_run_peer(label_, row, key), DASH))
            continue
        for s in sets:
            if tool not in by[s]:
                raise ParseError(f"febrl: no {tool} line for {s}")
        if key == "splink":
            version = row.need(r"^-- Splink (\S+) \(DuckDB\)$", "Splink's version").group(1)
            at = row.need(r"^at match probability ([\d.]+);", "Splink's threshold").group(1)
            name = f"Splink {version} (DuckDB, p ≥ {at}; seconds in process)"
        else:
            version = row.need(r"^-- GoldenMatch (\S+) \(zero-config\)$", "GoldenMatch's version").group(1)
            name = f"GoldenMatch {version} (zero-config; seconds of the dedupe call)"
        diff = " / ".join(f"{by[s]['ohana'][0] - by[s][tool][0]:+.4f}" for s in sets)
        out.append((job, size, ours, f"{name}: F1 {f1s(tool)} ({secs(tool)} s)", f"F1 {diff}"))
    return out


def parse_store(row):
    time_pat = r"wall ([\d.]+) s, peak (\d+) KB"
    (title, body), = row.section(r"^ohana dedupe, no store \(day 1: \d+ contacts\)$", "the plain dedupe")
    day1 = int(re.search(r"(\d+) contacts", title).group(1))
    plain = row.need(time_pat, "the plain dedupe's time", body)
    (_, body), = row.section(r"^first store run \(day 1\)$", "the first store run")
    first = row.need(time_pat, "the first store run's time", body)
    days = row.section(r"^day 2 \(\d+ contacts\) into the store, run \d+$", "the day-2 runs")
    new = int(re.search(r"\((\d+) contacts\)", days[0][0]).group(1))
    day2 = [row.need(time_pat, "a day-2 run's time", b) for _, b in days]
    size_line = row.need(r"^\S+\s+\d+\s+\S+\s+\S+\s+(\d+)\s.*\bbase\.sqlite$", "the store's size (ls -l base.sqlite)")
    store_bytes = int(size_line.group(1))
    d2 = statistics.median(float(m.group(1)) for m in day2)
    d2_peak = max(int(m.group(2)) for m in day2) / 1024
    job = "entity store: a day's new contacts linked into the stored book (`--store --changed-only`)"
    size = f"{num(new)} new contacts into {num(day1)} stored (generated, dup rate 0.1)"
    ours = (f"{d2:.2f} s (median of {len(day2)}), peak {num(d2_peak)} MiB; the first store run {float(first.group(1)):.1f} s, "
            f"plain `ohana dedupe` of the stored book {float(plain.group(1)):.1f} s; store {num(store_bytes / day1)} B a contact")
    return [(job, size, ours, "none", DASH)]


def parse_carddav(row):
    path = row.meta.get("json")
    if not path or not os.path.exists(path):
        raise ParseError(f"carddav: bench.py wrote no JSON ({path})")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    head = row.need(r"^ohana reading a Xandikos address book on loopback, .*curl (\S+), Xandikos (\S+)$",
                    "bench.py's header line")
    curl, xandikos = head.group(1), head.group(2)
    out = []
    for r in data.get("rows") or []:
        try:
            n, ohana, curl_s, rss, pair = r["n"], r["ohana"], r["curl"], r["rss"], r["pair_ratio"]
            runs, mb, requests = len(r["ohana_walls"]), r["bytes"] / 1e6, r["requests"]
        except KeyError as e:
            raise ParseError(f"carddav: the JSON row lacks {e}")
        row.need(r"^\| " + re.escape(num(n)) + r" \| " + re.escape(f"{ohana:.3f}") + r" \| " + re.escape(f"{curl_s:.3f}") + r" \|",
                 f"the printed table's row for {n} cards (the JSON is not this run's)")
        out.append((f"CardDAV read: listing, multiget, parse into the table (Xandikos {xandikos} on loopback)",
                    f"{num(n)} cards ({mb:.1f} MB of vCard, {requests} requests)",
                    f"{ohana:.3f} s (median of {runs} interleaved runs), peak {rss:.1f} MB",
                    f"curl {curl} (the same requests, responses discarded): {curl_s:.3f} s",
                    f"{ohana / curl_s:.2f}× curl's time (median of pair ratios {pair:.2f})"))
    if not out:
        raise ParseError("carddav: the JSON has no rows")
    return out


def parse_spark(row):
    versions = row.need(r"^versions: pyspark (\S+), (.*?), ohana package", "scale.py's versions line")
    out = []
    found = row.all(r"^\{.*\}$", "scale.py's JSON lines")
    for m in found:
        try:
            r = json.loads(m.group(0))
            n, one, spark, peak = r["n"], r["one_s"], r["spark_s"], r["one_peak_gb"]
            same, ids = r["equal_partitions"], r["equal_ids"]
        except (ValueError, KeyError) as e:
            raise ParseError(f"spark: a JSON line does not parse or lacks a key: {e}")
        master = re.search(r"--master (\S+)", row.meta.get("command", ""))
        mode = master.group(1) if master else "local"
        verdict = "yes, and the same ids" if ids else ("yes" if same else f"NO ({r.get('clusters_differing')} clusters differ)")
        ratio = f"Spark {spark / one:.1f}× slower" if one > 0 else DASH
        java = re.search(r'version "([^"]+)"', versions.group(2))
        java = f"Java {java.group(1)}" if java else versions.group(2)
        out.append((f"dedupe as a Spark job (`ohana.spark`, pyspark {versions.group(1)}, `{mode}`, {java})",
                    f"{num(n)} generated contacts (NDJSON, dup rate 0.1)",
                    f"{spark:.2f} s, the whole process; same clusters as one machine: {verdict}",
                    f"one-machine `ohana dedupe` on the same file: {one:.2f} s, {peak:.2f} GB peak",
                    ratio))
    return out


PARSERS = {"phone": parse_phone, "io": parse_io, "sort": parse_sort, "dedupe": parse_dedupe, "febrl": parse_febrl,
           "store": parse_store, "carddav": parse_carddav, "spark": parse_spark}
JOBS = {"phone": "phone numbers vs C++ libphonenumber, Python phonenumbers", "io": "vCard read vs ez-vcard, vobject",
        "sort": "sort names for a locale vs DuckDB", "dedupe": "dedupe a generated book vs Splink",
        "febrl": "dedupe FEBRL vs Splink, GoldenMatch", "store": "entity store, a day's batch",
        "carddav": "CardDAV read vs curl", "spark": "the Spark job vs one machine"}


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True)
    ap.add_argument("--rows", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--ohana", required=True)
    ap.add_argument("--built", required=True)
    ap.add_argument("--seconds", type=int, default=0)
    ap.add_argument("--write")
    args = ap.parse_args()

    lines, failed, missing, quick = [], [], [], False
    for name in args.rows.split():
        try:
            row = Row(name, args.work)
        except ParseError as e:
            failed.append(str(e))
            lines.append((JOBS[name], DASH, f"FAILED: {e}", DASH, DASH, args.machine, DASH, DASH))
            continue
        quick = quick or row.quick
        machine = f"{args.machine}; load {row.meta['load']}" if "load" in row.meta else args.machine
        date = row.meta.get("date", DASH)
        command = f"`{row.meta['command']}`" if "command" in row.meta else DASH
        for peer, reason in row.skips.items():
            missing.append(f"{name}: {peer}: {reason}")
        if row.notrun:
            reason = "; ".join(row.notrun)
            failed.append(f"{name}: not run: {reason}")
            lines.append((JOBS[name], DASH, f"not run: {reason}", DASH, DASH, machine, date, command))
            continue
        rc = row.meta.get("rc")
        if rc != "0":
            tail = "\n".join(row.text.rstrip().split("\n")[-8:])
            failed.append(f"{name}: exited {rc} (log {row.meta.get('log')}):\n{tail}")
            lines.append((JOBS[name], DASH, f"FAILED: the script exited {rc} (its log: {os.path.basename(row.meta.get('log', '?'))})",
                          DASH, DASH, machine, date, command))
            continue
        try:
            got = PARSERS[name](row)
        except (ParseError, ValueError, ZeroDivisionError, statistics.StatisticsError) as e:
            failed.append(f"{name}: the output does not parse: {e} (log {row.meta.get('log')})")
            lines.append((JOBS[name], DASH, f"FAILED: the output does not parse: {e}", DASH, DASH, machine, date, command))
            continue
        for job, size, ours, peer, ratio in got:
            lines.append((job, size, ours, peer, ratio, machine, date, command))

    out = [f"Measured by `Benchmarks/headline.sh` in one run of {args.seconds // 60} min {args.seconds % 60} s, "
           f"each row with its peer in the same minutes, on commit `{args.commit}` (the release `ohana` built "
           f"{args.built}). Commands run from the repository root; the paths of the binary, scratch folders and "
           "virtual environments are left out."]
    if quick:
        out.append("")
        out.append("**QUICK=1: tiny sizes that test the script. These are not figures.**")
    out.append("")
    out.append("| job | size | ohana | peer: figure | ratio | machine | date | command |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for line in lines:
        out.append("| " + " | ".join(cell(c) for c in line) + " |")
    table = "\n".join(out) + "\n"
    sys.stdout.write(table)

    for f in failed:
        print(f"headline: FAILED {f}", file=sys.stderr)
    for m in missing:
        print(f"headline: peer not run: {m}", file=sys.stderr)
    if args.write:
        if failed:
            print(f"headline: {args.write} left as it is: {len(failed)} row(s) failed", file=sys.stderr)
        else:
            with open(args.write, encoding="utf-8") as f:
                text = f.read()
            if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
                print(f"headline: {args.write} needs exactly one {BEGIN} ... {END} pair", file=sys.stderr)
                return 1
            start = text.index(BEGIN) + len(BEGIN)
            text = text[:start] + "\n" + table + text[text.index(END):]
            with open(args.write, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"headline: table written into {args.write}", file=sys.stderr)
    if failed:
        return 1
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
