#!/usr/bin/env python3
"""ohana against ez-vcard (Debian libez-vcard-java), card by card.

    compare.py --corpus [DIR]        every .vcf under DIR (default /work/shared/corpus/vcard)
    compare.py --generated N         N cards from gen_folded.py (N >= 100000 for the target figure)

Options: --ohana PATH (default ROOT/.build/release/ohana), --seed S (generator
seed, default 1), --work DIR (scratch, default /tmp/ohana-ezvcard), --samples K
(examples printed per kind of disagreement and property in --generated mode,
default 5; --corpus prints every one), --per-file M (cards per generated file).

Both readers' values go through the same normalisation: Unicode NFC, CRLF and
CR to LF, surrounding whitespace trimmed, empty as absent; phone numbers as
their decimal digits only; empty e-mails, phones and notes and all-empty
addresses left out; notes compared as a sorted list (ohana keeps the first
NOTE as `note` and the others among its extras, so their order is lost).
Properties compared: fullName (first FN), name (given + family of the first
N), emails (in order), phones (digits, in order), addresses (street +
locality, in order), notes; "addresses (all parts)" is shown as well.

Cards are aligned by UID when every card on both sides has a distinct one,
else by order; when the counts differ and there are no UIDs, by a sequence
alignment on the name (so one lost card does not shift the rest).

Disagreements are put in kinds. The documented ez-vcard faults (see README.md):
  ez-vcard fault: fold inside a UTF-8 character  (RFC 6350 section 3.2)
  ez-vcard fault: card after a UTF-8 BOM         (RFC 3629 section 6)
and, in --corpus mode only, values ez-vcard cannot decode from a legacy 8-bit
charset (U+FFFD on its side, not on ohana's). In --generated mode the
generator's own values (truth.ndjson) say which reader is right: a
disagreement is an ez-vcard fault only when ez-vcard's value has U+FFFD
where the generator folded inside a character of that property (or the card
is the first after a BOM) and ohana's value is the generator's.
"""
import argparse
import collections
import difflib
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
LOCK = "/tmp/ohana-build.lock"
PROPS = ["fullName", "name", "emails", "phones", "addresses", "notes"]
ISSUE20_PROPS = ["fullName", "name", "emails", "phones", "addresses"]  # issue 20's target leaves notes out
EXTRA_PROPS = ["addresses (all parts)"]
FOLD_KEY = {"fullName": "FN", "name": "N", "emails": "EMAIL", "phones": "TEL", "addresses": "ADR",
            "notes": "NOTE", "addresses (all parts)": "ADR"}
FAULT_UTF8 = "ez-vcard fault: fold inside a UTF-8 character (RFC 6350 section 3.2)"
FAULT_BOM = "ez-vcard fault: card after a UTF-8 BOM (RFC 3629 section 6)"
FAULT_LEGACY = "ez-vcard cannot decode: legacy 8-bit charset (U+FFFD)"
FAULT_FFFD = "ez-vcard cannot decode: U+FFFD, cause not found"
EZ_FAULTS = {FAULT_UTF8, FAULT_BOM, FAULT_LEGACY, FAULT_FFFD}


def say(*a):
    print(*a, flush=True)


# --- tools ----------------------------------------------------------------

def locked(cmd, **kw):
    if shutil.which("flock"):
        cmd = ["flock", LOCK] + cmd
    return subprocess.run(cmd, **kw)


def ez_classpath():
    """The jars of libez-vcard-java and libvinnie-java (the Debian package does not depend on vinnie)."""
    pkgs = ["libez-vcard-java", "libvinnie-java"]
    missing = [p for p in pkgs if subprocess.run(["dpkg", "-s", p], capture_output=True).returncode != 0]
    if missing or not shutil.which("javac"):
        if not shutil.which("javac"):
            missing.append("default-jdk-headless")
        say("installing %s (apt-get)" % " ".join(missing))
        cmd = ["apt-get", "install", "-y", "-qq"] + missing
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "-o", "APT::Sandbox::User=root", "update", "-qq"], check=True)
            subprocess.run(cmd, check=True)
    jars = []
    for p in pkgs:
        listed = subprocess.run(["dpkg", "-L", p], capture_output=True, text=True, check=True).stdout.split()
        # the unversioned link in /usr/share/java (ez-vcard.jar, vinnie.jar)
        cands = [f for f in listed if f.startswith("/usr/share/java/") and f.endswith(".jar")
                 and not re.search(r"-\d[\d.]*\.jar$", f)]
        jars += cands[:1] or [f for f in listed if f.endswith(".jar")][:1]
    return ":".join(jars)


def compile_dumper(work, cp):
    out = os.path.join(work, "java")
    cls = os.path.join(out, "EzDump.class")
    src = os.path.join(HERE, "EzDump.java")
    if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
        os.makedirs(out, exist_ok=True)
        locked(["javac", "-cp", cp, "-d", out, src], check=True)
    return out


def run_ez(files, work, cp):
    """{file: (cards, error)} from EzDump, one JVM for all files."""
    classes = compile_dumper(work, cp)
    result = {f: ([], None) for f in files}
    # in groups, so a command line never gets too long
    for k in range(0, len(files), 200):
        group = files[k:k + 200]
        p = subprocess.run(["java", "-Xmx2g", "-Dfile.encoding=UTF-8", "-cp", classes + ":" + cp, "EzDump"] + group,
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("EzDump failed: " + p.stderr[-2000:])
        for line in p.stdout.splitlines():
            o = json.loads(line)
            if "index" not in o:
                result[o["file"]] = ([], o.get("error"))
            else:
                result[o["file"]][0].append(o)
    return result


def run_ohana(ohana, path):
    """(cards, stderr summary, exit status) of `ohana convert FILE -o - --to ndjson`."""
    p = subprocess.run([ohana, "convert", path, "-o", "-", "--to", "ndjson"], capture_output=True)
    cards = []
    for line in p.stdout.decode("utf-8", "surrogateescape").splitlines():
        if line.strip():
            cards.append(json.loads(line))
    return cards, p.stderr.decode("utf-8", "replace").strip(), p.returncode


# --- normalisation --------------------------------------------------------

def norm(s):
    if s is None:
        return None
    s = unicodedata.normalize("NFC", s).replace("\r\n", "\n").replace("\r", "\n").strip()
    return s or None


def digits(s):
    return "".join(str(unicodedata.decimal(c)) for c in (s or "") if c.isdecimal())


def unescape(v):
    """vCard text escapes (ohana's extra-property values stay in vCard text syntax)."""
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), v or "", flags=re.S)


ADR_PARTS = ["street", "locality", "region", "postalCode", "country", "poBox", "extended"]


def record(uid, full, given, family, emails, phones, addresses, notes):
    adrs = []
    for a in addresses:
        t = tuple(norm(a.get(k)) for k in ADR_PARTS)
        if any(t):
            adrs.append(t)
    return {
        "uid": norm(uid),
        "fullName": norm(full),
        "name": (norm(given), norm(family)),
        "emails": [x for x in (norm(e) for e in emails) if x],
        "phones": [d for d in (digits(norm(t)) for t in phones) if d],
        "addresses": [(a[0], a[1]) for a in adrs],
        "addresses (all parts)": adrs,
        "notes": sorted(x for x in (norm(n) for n in notes) if x),
    }


def from_ez(o):
    return record(o["uid"], o["fullName"], o["given"], o["family"], o["emails"], o["phones"], o["addresses"],
                  o["notes"])


def from_ohana(o):
    fields = o.get("fields", [])
    notes = ([o["note"]] if "note" in o else []) + [
        unescape(x.get("value")) for x in o.get("extras", []) if x.get("name", "").upper() == "NOTE"]
    return record(o.get("uid"), o.get("fullName"), o.get("givenName"), o.get("familyName"),
                  [f.get("value") for f in fields if f.get("type") == "email"],
                  [f.get("value") for f in fields if f.get("type") == "phone"],
                  o.get("addresses", []), notes)


def from_truth(o):
    return record(o["uid"], o["fullName"], o["given"], o["family"], o["emails"], o["phones"], o["addresses"],
                  o["notes"])


def uid_key(u):
    u = (u or "").strip().lower()
    return u[9:] if u.startswith("urn:uuid:") else u


def has_fffd(v):
    return "\ufffd" in json.dumps(v, ensure_ascii=False)


# --- alignment ------------------------------------------------------------

def name_key(r):
    return r["fullName"] or " ".join(x for x in r["name"] if x) or (r["emails"][:1] or [""])[0]


def align(ez, oh):
    """Pairs (i, j) of ez-vcard and ohana card indexes; None where a side has no card. And the method."""
    def uids_ok(side):
        keys = [uid_key(r["uid"]) for r in side]
        return all(keys) and len(set(keys)) == len(keys)
    if ez and oh and uids_ok(ez) and uids_ok(oh):
        where = {uid_key(r["uid"]): j for j, r in enumerate(oh)}
        pairs, used = [], set()
        for i, r in enumerate(ez):
            j = where.get(uid_key(r["uid"]))
            pairs.append((i, j))
            if j is not None:
                used.add(j)
        pairs += [(None, j) for j in range(len(oh)) if j not in used]
        return pairs, "uid"
    if len(ez) == len(oh):
        return list(zip(range(len(ez)), range(len(oh)))), "order"
    sm = difflib.SequenceMatcher(None, [name_key(r) for r in ez], [name_key(r) for r in oh], autojunk=False)
    pairs = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        n = min(i2 - i1, j2 - j1) if tag in ("equal", "replace") else 0
        pairs += [(i1 + k, j1 + k) for k in range(n)]
        pairs += [(i, None) for i in range(i1 + n, i2)]
        pairs += [(None, j) for j in range(j1 + n, j2)]
    return pairs, "name alignment"


# --- file survey (corpus) -------------------------------------------------

def unfolded(data):
    return re.sub(rb"(\r\n|\r|\n)[ \t]", b"", data)


def survey(path):
    data = open(path, "rb").read()
    bom = data.startswith(b"\xef\xbb\xbf")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return bom, "utf-16"
    try:
        data.decode("utf-8")
        enc = "utf-8"
    except UnicodeDecodeError:
        try:
            unfolded(data).decode("utf-8")
            enc = "utf-8-split-by-folding"
        except UnicodeDecodeError:
            enc = "8bit-non-utf8"
    return bom, enc


# --- report ---------------------------------------------------------------

def show(v):
    return json.dumps(v, ensure_ascii=False)


class Tally:
    def __init__(self):
        self.same = collections.Counter()       # property -> pairs identical
        self.pairs = 0                          # matched cards
        self.fault_pairs = collections.Counter()  # property -> pairs left out as ez-vcard faults
        self.kinds = collections.Counter()      # (kind, property) -> count
        self.samples = collections.defaultdict(list)
        self.cards_identical = 0
        self.cards_identical5 = 0
        self.fault_cards = 0
        self.fault_cards5 = 0
        self.cards_total = 0
        self.fold_kinds = collections.Counter()  # (property, fold kind) -> ohana disagreements
        self.truth_ok = {"ohana": collections.Counter(), "ez-vcard": collections.Counter()}

    def pct(self, a, b):
        return "%.3f%%" % (100.0 * a / b) if b else "n/a"


def print_table(t):
    say("")
    say("per-property agreement (matched cards: %d)" % t.pairs)
    say("  %-24s %12s %10s %14s %12s" % ("property", "identical", "all", "ez faults out", "outside"))
    for p in PROPS + EXTRA_PROPS:
        base = t.pairs - t.fault_pairs[p]
        same_out = t.same[p]
        say("  %-24s %12d %10s %14d %12s" % (p, t.same[p], t.pct(t.same[p], t.pairs), t.fault_pairs[p],
                                              t.pct(same_out, base)))


def compare_pair(t, e, o, truth, ctx, survey_info, sample_limit):
    """Compares one matched card; returns (identical on all, any ez fault, identical on the 5, fault on the 5)."""
    all_same, fault_any, same5, fault5 = True, False, True, False
    for p in PROPS + EXTRA_PROPS:
        ev, ov = e[p], o[p]
        if ev == ov:
            t.same[p] += 1
            continue
        kind = None
        ez_bad = has_fffd(ev) and not has_fffd(ov)
        if truth is not None:
            tv = truth[p]
            o_ok, e_ok = ov == tv, ev == tv
            folds = truth["_folds"].get(FOLD_KEY[p], [])
            utf8_fault = ez_bad and "utf8" in folds
            if utf8_fault and o_ok:
                kind = FAULT_UTF8
            elif o_ok and not e_ok:
                kind = "ez-vcard differs from the generator (ohana right)"
            elif e_ok and not o_ok:
                kind = "ohana differs from the generator (ez-vcard right)"
            elif utf8_fault:
                kind = "ohana differs from the generator (ez-vcard hit its UTF-8 fault there)"
            else:
                kind = "both differ from the generator"
            if not o_ok and p in PROPS:
                for f in folds or ["no fold"]:
                    t.fold_kinds[(p, f)] += 1
        elif ez_bad:
            bom, enc = survey_info
            kind = FAULT_UTF8 if enc == "utf-8-split-by-folding" else FAULT_LEGACY if enc == "8bit-non-utf8" \
                else FAULT_FFFD
        else:
            kind = "ohana and ez-vcard differ"
        if kind in EZ_FAULTS:
            t.fault_pairs[p] += 1
            if p in PROPS:
                fault_any = True
            if p in ISSUE20_PROPS:
                fault5 = True
        elif p in PROPS:
            all_same = False
            if p in ISSUE20_PROPS:
                same5 = False
        if p in EXTRA_PROPS:
            continue
        t.kinds[(kind, p)] += 1
        lst = t.samples[(kind, p)]
        if sample_limit is None or len(lst) < sample_limit:
            extra = " truth=%s" % show(truth[p]) if truth is not None else ""
            lst.append("%s %s: ohana=%s ez-vcard=%s%s" % (ctx, p, show(ov), show(ev), extra))
    return all_same, fault_any, same5, fault5


def count_card(t, same, fault, same5, fault5):
    """A card left out as an ez-vcard fault differs only by documented faults; one that also differs
    otherwise counts as different."""
    t.cards_identical += same and not fault
    t.fault_cards += same and fault
    t.cards_identical5 += same5 and not fault5
    t.fault_cards5 += same5 and fault5


def print_kinds(t, sample_limit):
    say("")
    say("disagreements by kind and property (a card counts once per property)")
    if not t.kinds:
        say("  none")
    for (kind, p), n in sorted(t.kinds.items(), key=lambda kv: (kv[0][0] not in EZ_FAULTS, kv[0][0], kv[0][1])):
        say("  %6d  %-66s %s" % (n, kind, p))
    say("")
    say("examples" + ("" if sample_limit is None else " (up to %d per kind and property)" % sample_limit))
    for (kind, p), lst in sorted(t.samples.items()):
        say("  [%s] %s" % (kind, p))
        for s in lst:
            say("    " + s)


# --- modes ----------------------------------------------------------------

def corpus_mode(a, cp):
    files = sorted(glob.glob(os.path.join(a.corpus, "**", "*.vcf"), recursive=True))
    say("corpus: %s, %d .vcf files" % (a.corpus, len(files)))
    ez = run_ez(files, a.work, cp)
    t = Tally()
    mismatches, only_ez, only_oh, errors, warn_total = [], [], [], [], 0
    methods = collections.Counter()
    ez_cards = oh_cards = 0
    skipped_lines = []
    for f in files:
        rel = os.path.relpath(f, a.corpus)
        ecards, err = ez[f]
        if err:
            errors.append("%s: ez-vcard error %s" % (rel, err))
        ocards, summary, rc = run_ohana(a.ohana, f)
        if rc != 0:
            errors.append("%s: ohana exit %d: %s" % (rel, rc, summary.splitlines()[-1:] if summary else ""))
        m = re.search(r"\((\d+) skipped\)", summary)
        if m and int(m.group(1)):
            skipped_lines.append("%s: %s" % (rel, summary.splitlines()[-1]))
        warn_total += sum(c["warnings"] for c in ecards)
        E = [from_ez(c) for c in ecards]
        O = [from_ohana(c) for c in ocards]
        ez_cards += len(E)
        oh_cards += len(O)
        info = survey(f)
        if len(E) != len(O):
            mismatches.append("%s: ez-vcard %d, ohana %d%s" % (rel, len(E), len(O),
                                                              " (file starts with a BOM)" if info[0] else ""))
        pairs, method = align(E, O)
        methods[method] += 1
        for i, j in pairs:
            if i is None:
                o = O[j]
                why = FAULT_BOM if info[0] and j == 0 else \
                    "only ohana reads it: UTF-16 with a BOM (ez-vcard reads the bytes as UTF-8)" \
                    if info[1] == "utf-16" else "only ohana reads it"
                only_oh.append("%s card %d (ohana): %s [%s]" % (rel, j, show(name_key(o)), why))
                continue
            if j is None:
                only_ez.append("%s card %d (ez-vcard): %s, ez-vcard warnings %d" % (
                    rel, i, show(name_key(E[i])), ecards[i]["warnings"]))
                continue
            t.pairs += 1
            same, fault, same5, fault5 = compare_pair(t, E[i], O[j], None, "%s card %d/%d" % (rel, i, j), info, None)
            count_card(t, same, fault, same5, fault5)
    say("cards: ez-vcard %d, ohana %d, matched %d; ez-vcard warnings %d" % (ez_cards, oh_cards, t.pairs, warn_total))
    say("alignment: %s" % ", ".join("%s %d files" % kv for kv in sorted(methods.items())))
    say("")
    say("files where the counts differ (%d)" % len(mismatches))
    for s in mismatches:
        say("  " + s)
    say("")
    say("cards ez-vcard reads and ohana does not (%d)" % len(only_ez))
    for s in only_ez:
        say("  " + s)
    say("cards ohana reads and ez-vcard does not (%d)" % len(only_oh))
    for s in only_oh:
        say("  " + s)
    say("ohana's skip summaries (%d files)" % len(skipped_lines))
    for s in skipped_lines:
        say("  " + s)
    for s in errors:
        say("  error: " + s)
    print_table(t)
    say("")
    say("cards identical on all six properties: %d of %d matched (%s); outside ez-vcard's undecodable values: %s"
        % (t.cards_identical, t.pairs, t.pct(t.cards_identical, t.pairs),
           t.pct(t.cards_identical, t.pairs - t.fault_cards)))
    say("issue 20's figure (full name, given+family, e-mails, phone digits, street+locality; values ez-vcard"
        " cannot decode left out): %d of %d = %s; over every card ez-vcard reads (a card ohana loses counts"
        " as different): %s"
        % (t.cards_identical5, t.pairs - t.fault_cards5, t.pct(t.cards_identical5, t.pairs - t.fault_cards5),
           t.pct(t.cards_identical5, ez_cards - t.fault_cards5)))
    print_kinds(t, None)


def generated_mode(a, cp):
    gen_dir = os.path.join(a.work, "gen-%d-seed%d-per%d-fold%g" % (a.generated, a.seed, a.per_file, a.fold_rate))
    truth_path = os.path.join(gen_dir, "truth.ndjson")
    src = os.path.join(HERE, "gen_folded.py")
    if not os.path.exists(truth_path) or os.path.getmtime(truth_path) < os.path.getmtime(src):
        say("generating %d cards (seed %d) into %s" % (a.generated, a.seed, gen_dir))
        subprocess.run([sys.executable, src, "--cards", str(a.generated), "--seed", str(a.seed),
                        "--per-file", str(a.per_file), "--fold-rate", str(a.fold_rate), "--out", gen_dir],
                       check=True)
    truth = collections.defaultdict(list)
    with open(truth_path, encoding="utf-8") as fh:
        for line in fh:
            o = json.loads(line)
            r = from_truth(o)
            r["_folds"] = o["folds"]
            r["_bom"] = o["bom"]
            r["_version"] = o["version"]
            r["_style"] = o["style"]
            truth[o["file"]].append(r)
    files = sorted(truth)
    paths = [os.path.join(gen_dir, f) for f in files]
    say("generated: %d cards in %d files (seed %d), %s" % (sum(map(len, truth.values())), len(files), a.seed, gen_dir))
    ez = run_ez(paths, a.work, cp)
    t = Tally()
    missing = collections.Counter()
    missing_samples = collections.defaultdict(list)
    mismatches = []
    ez_cards = oh_cards = 0
    warn_total = 0
    fault_cards = 0
    uid_damaged = 0
    by_style = collections.defaultdict(lambda: [0, 0])  # style -> [cards outside faults, identical]
    for f, path in zip(files, paths):
        ecards, err = ez[path]
        if err:
            say("  %s: ez-vcard error %s" % (f, err))
        ocards, summary, rc = run_ohana(a.ohana, path)
        if rc != 0:
            say("  %s: ohana exit %d: %s" % (f, rc, summary))
        warn_total += sum(c["warnings"] for c in ecards)
        E = {uid_key(c["uid"]): from_ez(c) for c in ecards}
        O = {}
        for c in ocards:
            O.setdefault(uid_key(c.get("uid")), from_ohana(c))
        T = truth[f]
        # An ohana card whose UID was damaged (a line glued onto it) is paired with the card the
        # generator wrote at its place: the one unmatched card between the same matched neighbours.
        O_by_pos = {}
        where = {uid_key(tr["uid"]): k for k, tr in enumerate(T)}
        pos = [where.get(uid_key(c.get("uid"))) for c in ocards]
        prev = -1
        run = []
        for j in range(len(ocards) + 1):
            k = pos[j] if j < len(ocards) else len(T)
            if k is None:
                run.append(j)
                continue
            gap = [x for x in range(prev + 1, k) if uid_key(T[x]["uid"]) not in O]
            if len(run) == 1 and len(gap) == 1:
                O_by_pos[gap[0]] = from_ohana(ocards[run[0]])
            run = []
            prev = k
        ez_cards += len(ecards)
        oh_cards += len(ocards)
        if len(ecards) != len(T) or len(ocards) != len(T):
            mismatches.append("%s: cards written %d, ez-vcard %d, ohana %d (%s)" % (
                f, len(T), len(ecards), len(ocards), summary.splitlines()[-1] if summary else ""))
        for k, tr in enumerate(T):
            key = uid_key(tr["uid"])
            e, o = E.get(key), O.get(key)
            if o is None and k in O_by_pos:
                o = O_by_pos[k]
                uid_damaged += 1
            ctx = "%s card %d uid %s (%s)" % (f, k, tr["uid"], tr["_style"])
            t.cards_total += 1
            if e is None or o is None:
                if e is None and o is not None and tr["_bom"]:
                    o_ok = all(o[p] == tr[p] for p in PROPS)
                    kind = FAULT_BOM if o_ok else "missing in ez-vcard (after a BOM) and ohana differs from the generator"
                else:
                    kind = "missing in " + " and ".join(n for n, v in (("ez-vcard", e), ("ohana", o)) if v is None)
                if kind == FAULT_BOM:
                    fault_cards += 1
                missing[kind] += 1
                if len(missing_samples[kind]) < a.samples:
                    missing_samples[kind].append("%s: %s folds %s" % (ctx, show(name_key(tr)), show(tr["_folds"])))
                if kind != FAULT_BOM:
                    by_style[tr["_style"]][0] += 1
                continue
            t.pairs += 1
            same, fault, same5, fault5 = compare_pair(t, e, o, tr, ctx, None, a.samples)
            for side, v in (("ohana", o), ("ez-vcard", e)):
                for p in PROPS:
                    t.truth_ok[side][p] += v[p] == tr[p]
            count_card(t, same, fault, same5, fault5)
            if same and fault:
                fault_cards += 1
            else:
                by_style[tr["_style"]][0] += 1
                by_style[tr["_style"]][1] += same and not fault
    total = t.cards_total
    say("cards: written %d, ez-vcard read %d, ohana read %d, matched %d (%d of them by place: ohana's UID"
        " was damaged); ez-vcard warnings %d" % (total, ez_cards, oh_cards, t.pairs, uid_damaged, warn_total))
    say("")
    say("files where the counts differ (%d)" % len(mismatches))
    for s in mismatches:
        say("  " + s)
    say("")
    say("cards missing on a side")
    if not missing:
        say("  none")
    for kind, n in sorted(missing.items()):
        say("  %6d  %s" % (n, kind))
        for s in missing_samples[kind]:
            say("          " + s)
    print_table(t)
    say("")
    say("agreement with the generator's values (matched cards)")
    say("  %-24s %12s %12s" % ("property", "ohana", "ez-vcard"))
    for p in PROPS:
        say("  %-24s %12s %12s" % (p, t.pct(t.truth_ok["ohana"][p], t.pairs), t.pct(t.truth_ok["ez-vcard"][p], t.pairs)))
    outside = total - fault_cards
    say("")
    say("cards identical on all six properties (a card missing on either side counts as different):")
    say("  %d of %d cards outside documented ez-vcard faults = %s (target >= 99.9%%); ez-vcard fault cards left"
        " out: %d" % (t.cards_identical, outside, t.pct(t.cards_identical, outside), fault_cards))
    say("  by exporter style: " + ", ".join("%s %s of %d" % (s, t.pct(v[1], v[0]), v[0])
                                            for s, v in sorted(by_style.items())))
    if t.fold_kinds:
        say("")
        say("ohana's wrong values by property and by the fold kinds on that property's line(s)")
        say("  (a value can have several kinds; 'no fold' = no fold on that property)")
        for (p, f), n in sorted(t.fold_kinds.items(), key=lambda kv: -kv[1]):
            say("  %6d  %-10s %s" % (n, p, f))
    print_kinds(t, a.samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--corpus", nargs="?", const="/work/shared/corpus/vcard", metavar="DIR")
    g.add_argument("--generated", type=int, metavar="N")
    ap.add_argument("--ohana", default=os.path.join(ROOT, ".build", "release", "ohana"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-file", type=int, default=5000)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--fold-rate", type=float, default=0.35, help="passed to gen_folded.py")
    ap.add_argument("--work", default="/tmp/ohana-ezvcard")
    a = ap.parse_args()
    if not os.access(a.ohana, os.X_OK):
        sys.exit("no ohana binary at %s: build one with\n  flock %s swift build -c release --product ohana\n"
                 "or give --ohana PATH" % (a.ohana, LOCK))
    os.makedirs(a.work, exist_ok=True)
    cp = ez_classpath()
    say("ez-vcard classpath: %s" % cp)
    say("ohana: %s" % a.ohana)
    if a.corpus:
        corpus_mode(a, cp)
    else:
        generated_mode(a, cp)


if __name__ == "__main__":
    main()
