#!/usr/bin/env python3
"""ohana reading an address book from Xandikos on loopback, against curl
making the same requests (README.md next to this file says what and why).

  python3 Benchmarks/compare/carddav/bench.py                  # 1,000 / 5,000 / 10,000 cards, 5 runs each
  python3 Benchmarks/compare/carddav/bench.py --sizes 10000 --runs 9
  python3 Benchmarks/compare/carddav/bench.py --sizes 1000 --check   # ohana's requests == curl's, through a recording proxy
  python3 Benchmarks/compare/carddav/bench.py --sizes 1000 --populate put --cache /tmp/put-check

Only the standard library; Xandikos runs from its own virtual environment
(--python). Populated servers are cached (--cache), so a rerun uploads nothing.
"""

import argparse
import datetime
import hashlib
import http.client
import http.server
import json
import os
import re
import shutil
import signal
import socket
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

DAV = "{DAV:}"
BOOK_PATH = "/user/contacts/addressbook/"
BATCH = 200  # CardDAVClient.batchSize

# The bodies CardDAVClient sends, byte for byte (Swift multi-line literals:
# indentation stripped, no final newline).
PROPFIND_START = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\n'
    "  <d:prop><d:resourcetype/><d:current-user-principal/><card:addressbook-home-set/><d:displayname/></d:prop>\n"
    "</d:propfind>"
)
SYNC_BODY = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<d:sync-collection xmlns:d="DAV:">\n'
    "  <d:sync-token></d:sync-token><d:sync-level>1</d:sync-level>\n"
    "  <d:prop><d:getetag/></d:prop>\n"
    "</d:sync-collection>"
)
MULTIGET_HEAD = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\n'
    "  <d:prop><d:getetag/><card:address-data/></d:prop>"
)
HEADERS = {"User-Agent": "ohana-carddav", "Content-Type": "application/xml; charset=utf-8"}

# Run by Xandikos's interpreter: every card through the checks a PUT makes
# (xandikos.vcard.VCardFile.validate: header/trailer and vobject parse; the
# duplicate-UID check only where the file type reads UIDs, which VCardFile
# does not), so that importing with one git commit stores only what PUTs
# would have stored.
VALIDATE = r"""
import os, sys
from xandikos.vcard import VCardFile
d = sys.argv[1]
uids = {}
for name in sorted(os.listdir(d)):
    if not name.endswith(".vcf"):
        continue
    with open(os.path.join(d, name), "rb") as f:
        data = f.read()
    fi = VCardFile([data], "text/vcard")
    fi.validate()
    try:
        uid = fi.get_uid()
    except (KeyError, NotImplementedError):  # as import_one: no UID check then
        uid = None
    if uid is not None and uid in uids:
        sys.exit("duplicate UID %r in %s and %s" % (uid, uids[uid], name))
    uids[uid if uid is not None else name] = name
print(len(uids))
"""


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clk_tck():
    return os.sysconf("SC_CLK_TCK")


def proc_cpu(pid):
    """User + system CPU seconds of a process (all its threads) from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / clk_tck()


def request(port, method, path, depth, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    h = dict(HEADERS)
    h["Depth"] = depth
    c.request(method, path, body=body.encode() if body is not None else None, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


class Xandikos:
    """A Xandikos server on a free loopback port, serving `directory`."""

    def __init__(self, python, directory, defaults=False):
        self.port = free_port()
        args = [python, "-m", "xandikos.web", "-d", directory, "-l", "127.0.0.1", "-p", str(self.port)]
        if defaults:
            args.append("--defaults")
        self.log = open(os.path.join(os.path.dirname(directory.rstrip("/")), "xandikos.log"), "ab")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                status, _ = request(self.port, "PROPFIND", BOOK_PATH, "0", PROPFIND_START)
                if status == 207:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                raise SystemExit(f"xandikos did not start (see {self.log.name})")
            time.sleep(0.2)
        self.url = f"http://127.0.0.1:{self.port}{BOOK_PATH}"

    def cpu(self):
        return proc_cpu(self.proc.pid)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def split_cards(data):
    """The cards of a .vcf file, each BEGIN:VCARD..END:VCARD with its line ends."""
    cards = re.findall(rb"BEGIN:VCARD\r?\n.*?\nEND:VCARD\r?\n?", data, re.S)
    if not cards:
        raise SystemExit("no cards in the generated file")
    return cards


def card_name(i, card, used):
    m = re.search(rb"^UID:(.*?)\r?$", card, re.M)
    base = re.sub(r"[^A-Za-z0-9._-]", "-", m.group(1).decode()) if m else ""
    if not base or base in used:
        base = f"card-{i:06d}"
    used.add(base)
    return base + ".vcf"


def populate(args, n, cache):
    """A Xandikos folder holding the n generated cards, made once and cached."""
    folder = os.path.join(cache, f"n{n}-seed{args.seed}")
    served = os.path.join(folder, "served")
    marker = os.path.join(folder, "populated.json")
    vcf = os.path.join(folder, "book.vcf")
    if os.path.exists(marker):
        with open(marker) as f:
            m = json.load(f)
        if m.get("cards") == n:
            return served, vcf, m
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    log(f"[{n}] generating {n} vCard 4.0 cards (seed {args.seed})")
    subprocess.run(
        [args.ohana, "generate", "--contacts", str(n), "--seed", str(args.seed), "--version", "4.0", "-o", vcf, "-q"],
        check=True)
    with open(vcf, "rb") as f:
        cards = split_cards(f.read())
    if len(cards) != n:
        raise SystemExit(f"generated {len(cards)} cards, not {n}")
    used = set()
    named = [(card_name(i, c, used), c) for i, c in enumerate(cards)]
    t0 = time.time()
    if args.populate == "put":
        server = Xandikos(args.python, served, defaults=True)
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        for k, (name, card) in enumerate(named):
            c.request("PUT", BOOK_PATH + name, body=card,
                      headers={"Content-Type": "text/vcard", "If-None-Match": "*"})
            r = c.getresponse()
            r.read()
            if r.status not in (201, 204):
                raise SystemExit(f"PUT {name}: HTTP {r.status}")
            if k % 1000 == 999:
                log(f"[{n}] PUT {k + 1} cards, {time.time() - t0:.0f} s")
        c.close()
        server.stop()
    else:
        # Xandikos makes its layout (principal, address book, .xandikos
        # files, each a git repository with a work tree and index) ...
        server = Xandikos(args.python, served, defaults=True)
        server.stop()
        book = os.path.join(served, BOOK_PATH.strip("/"))
        # ... then the cards go into the address book's work tree and index
        # in one commit: what Xandikos's TreeGitStore does per PUT (the file
        # as sent, since VCardFile.normalized() is the content unchanged;
        # the ETag is the blob's SHA-1), without a commit per card.
        for name, card in named:
            with open(os.path.join(book, name), "wb") as f:
                f.write(card)
        out = subprocess.run([args.python, "-c", VALIDATE, book], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit("a card Xandikos would refuse: " + out.stderr.strip()[-500:])
        git = ["git", "-C", book, "-c", "user.name=ohana bench", "-c", "user.email=bench@localhost",
               "-c", "core.autocrlf=false", "-c", "index.version=2"]
        subprocess.run(git + ["add", "--", "."], check=True)
        subprocess.run(git + ["commit", "-q", "-m", f"Import {n} cards"], check=True)
    log(f"[{n}] {n} cards stored by {args.populate} in {time.time() - t0:.1f} s")
    m = {"cards": n, "seed": args.seed, "populate": args.populate,
         "vcf_sha256": hashlib.sha256(open(vcf, "rb").read()).hexdigest(),
         "made": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    with open(marker, "w") as f:
        json.dump(m, f)
    return served, vcf, m


def listing(port):
    """The hrefs of the sync-collection listing, in the server's order (as ohana keeps them)."""
    status, data = request(port, "REPORT", BOOK_PATH, "1", SYNC_BODY)
    if status != 207:
        raise SystemExit(f"sync-collection: HTTP {status}")
    hrefs = []
    for r in ET.fromstring(data).iter(DAV + "response"):
        href = r.find(DAV + "href").text.strip()
        if href.rstrip("/") == BOOK_PATH.rstrip("/"):
            continue
        hrefs.append(href)
    return hrefs


def xml_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def multiget_bodies(hrefs):
    """ohana's multiget bodies: batches of 200, each href as the URL's path."""
    from urllib.parse import unquote
    bodies = []
    for i in range(0, len(hrefs), BATCH):
        # CardDAVClient sends `URL.path`, which is percent-decoded.
        body = MULTIGET_HEAD + "".join(f"<d:href>{xml_escape(unquote(h))}</d:href>" for h in hrefs[i:i + BATCH])
        bodies.append(body + "</card:addressbook-multiget>")
    return bodies


def curl_command(url, files):
    """One curl process, one keep-alive connection: PROPFIND Depth 0, the
    sync-collection REPORT, then every multiget REPORT (--next). Bodies are
    files written before the timing (curl does not build them from the listing)."""
    cmd = ["curl"]
    steps = [("PROPFIND", "0", files[0])] + [("REPORT", "1", f) for f in files[1:]]
    for k, (method, depth, body) in enumerate(steps):
        if k:
            cmd.append("--next")
        cmd += ["-sS", "-X", method, "-H", f"Depth: {depth}", "-H", "User-Agent: ohana-carddav",
                "-H", "Content-Type: application/xml; charset=utf-8",
                "-H", "Expect:",  # no 100-continue round trip (curl 7.x sends it for bodies over 1 KiB; ohana does not)
                "--data-binary", "@" + body, "-o", "/dev/null", "-w", "%{http_code}\\n", url]
    return cmd


def timed(cmd, server, env=None, stdout=subprocess.DEVNULL):
    """Wall seconds, peak RSS in MiB (`/usr/bin/time -v`'s "Maximum resident
    set size"), the command's CPU seconds (user + system), the server's CPU
    seconds meanwhile, and the command's stdout and stderr.

    The peak RSS comes from /usr/bin/time, not from this script's own
    wait4: Linux carries the forking parent's peak RSS into the child's
    (exec records the old memory's high-water mark), so a child of this
    Python process would report at least Python's RSS."""
    out_f, err_f = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        s0 = server.cpu() if server else 0.0
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", tf.name] + cmd,
                           stdout=out_f if stdout == subprocess.PIPE else stdout, stderr=err_f, env=env)
        wall = time.perf_counter() - t0
        s1 = server.cpu() if server else 0.0
        fields = tf.read().split()
    out_f.seek(0)
    err_f.seek(0)
    out, err = out_f.read(), err_f.read()
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({p.returncode}): {err.decode(errors='replace')[-800:]}")
    rss_kib, user, system = int(fields[-3]), float(fields[-2]), float(fields[-1])
    return {"wall": wall, "rss": rss_kib / 1024, "cpu": user + system,
            "server": s1 - s0, "out": out, "err": err}


def run_local(args, vcf):
    """ohana stats on the same cards from a file: the parse and the table alone."""
    r = timed([args.ohana, "stats", vcf, "-q"], None)
    return r["rss"], r["cpu"]


class Recorder(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def recording_proxy(upstream_port):
    """A keep-alive HTTP/1.1 proxy to Xandikos that records each request
    (method, path, headers, body) and the connection it came on."""
    seen = []
    connections = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            connections.append(self.client_address)

        def log_message(self, *a):
            pass

        def relay(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            seen.append({"conn": self.client_address[1], "method": self.command, "path": self.path,
                         "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
            c = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=120)
            h = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "expect")}
            c.request(self.command, self.path, body=body, headers=h)
            r = c.getresponse()
            data = r.read()
            self.send_response(r.status)
            for k, v in r.getheaders():
                if k.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            c.close()

        do_PROPFIND = do_REPORT = do_GET = relay

    srv = Recorder(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, seen, connections


def check_requests(args, server, files, n):
    """Through a recording proxy: does curl send what ohana sends?"""
    results = {}
    for who in ("ohana", "curl"):
        srv, seen, conns = recording_proxy(server.port)
        url = f"http://127.0.0.1:{srv.server_address[1]}{BOOK_PATH}"
        cmd = [args.ohana, "stats", url, "-q"] if who == "ohana" else curl_command(url, files)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        srv.shutdown()
        results[who] = (seen, conns)
    (o, oc), (c, cc) = results["ohana"], results["curl"]
    log(f"ohana: {len(o)} requests on {len(oc)} connection(s); curl: {len(c)} requests on {len(cc)} connection(s)")
    same = len(o) == len(c)
    for k, (a, b) in enumerate(zip(o, c)):
        diff = [f for f in ("method", "path", "body") if a[f] != b[f]]
        ha = {k2: v for k2, v in a["headers"].items() if k2 not in ("host", "accept", "user-agent")}
        hb = {k2: v for k2, v in b["headers"].items() if k2 not in ("host", "accept", "user-agent")}
        if diff or ha != hb:
            same = False
            log(f"request {k}: differs in {diff}; ohana headers {a['headers']}; curl headers {b['headers']}")
    log("ohana's request headers (first multiget):", o[2]["headers"] if len(o) > 2 else o)
    log("requests: " + ("the same (method, path, body, Depth, Content-Type)" if same else "DIFFERENT"))
    return same


def bench_size(args, n):
    served, vcf, meta = populate(args, n, args.cache)
    server = Xandikos(args.python, served)
    try:
        hrefs = listing(server.port)
        if len(hrefs) != n:
            raise SystemExit(f"[{n}] Xandikos lists {len(hrefs)} cards, not {n}")
        work = os.path.join(args.cache, f"n{n}-seed{args.seed}", "curl")
        os.makedirs(work, exist_ok=True)
        files = []
        for k, body in enumerate([PROPFIND_START, SYNC_BODY] + multiget_bodies(hrefs)):
            path = os.path.join(work, f"{k:03d}.xml")
            with open(path, "w") as f:
                f.write(body)
            files.append(path)
        if args.check:
            check_requests(args, server, files, n)
        ohana_cmd = [args.ohana, "stats", server.url, "-q"]
        curl_cmd = curl_command(server.url, files)
        # Warm-up (not timed): Xandikos reads the git index and object packs
        # into its caches on first use; ohana's output says how many cards it read.
        first = timed([args.ohana, "stats", server.url], server, stdout=subprocess.PIPE)
        warm_curl = timed(curl_cmd, server, stdout=subprocess.PIPE)
        codes = warm_curl["out"].decode().split()
        if codes != ["207"] * len(files):
            raise SystemExit(f"[{n}] curl statuses {sorted(set(codes))}")
        m = re.search(r"(\d[\d,]*)\s+cards", first["err"].decode())
        if not m or int(m.group(1).replace(",", "")) != n:
            raise SystemExit(f"[{n}] ohana read: {first['err'].decode()[-300:]}")
        o, c = [], []
        for i in range(args.runs):
            order = [("ohana", ohana_cmd, o), ("curl", curl_cmd, c)]
            if i % 2:
                order.reverse()
            for who, cmd, into in order:
                r = timed(cmd, server)
                into.append(r)
                log(f"[{n}] run {i + 1} {who}: {r['wall']:.3f} s wall, client CPU {r['cpu']:.3f} s, "
                    f"server CPU {r['server']:.3f} s, peak RSS {r['rss']:.1f} MiB")
        local_rss, local_cpu = run_local(args, vcf)
    finally:
        server.stop()
    med = lambda xs, k: statistics.median(x[k] for x in xs)
    return {"n": n, "ohana": med(o, "wall"), "curl": med(c, "wall"), "rss": med(o, "rss"),
            "ohana_cpu": med(o, "cpu"), "curl_cpu": med(c, "cpu"), "srv_ohana": med(o, "server"),
            "srv_curl": med(c, "server"), "curl_rss": med(c, "rss"), "local_rss": local_rss,
            "local_cpu": local_cpu, "bytes": os.path.getsize(vcf), "requests": len(files),
            "ohana_walls": [x["wall"] for x in o], "curl_walls": [x["wall"] for x in c],
            "ohana_server": [x["server"] for x in o], "curl_server": [x["server"] for x in c],
            # Each interleaved pair's ratio, and each client's own time (its
            # wall time less Xandikos's CPU meanwhile): Xandikos's speed
            # drifts from run to run (and over its lifetime) far more than
            # the clients' costs do, so these two are the steadier figures.
            "pair_ratio": statistics.median(a["wall"] / b["wall"] for a, b in zip(o, c)),
            "ohana_own": statistics.median(x["wall"] - x["server"] for x in o),
            "curl_own": statistics.median(x["wall"] - x["server"] for x in c),
            "populate": meta["populate"]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ohana", default=os.environ.get("OHANA", "/tmp/ohana-dav"), help="release ohana binary")
    ap.add_argument("--python", default="/tmp/dav-venv/bin/python", help="Python with xandikos installed")
    ap.add_argument("--sizes", default="1000,5000,10000")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each, interleaved")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cache", default="/tmp/ohana-carddav-bench", help="populated servers are kept here")
    ap.add_argument("--populate", choices=["git", "put"], default="git",
                    help="git: cards validated as a PUT would, then one commit (seconds); put: one PUT per card (~63 ms each)")
    ap.add_argument("--check", action="store_true", help="first compare ohana's and curl's requests through a recording proxy")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    for tool in (args.ohana, args.python):
        if not os.access(tool, os.X_OK):
            raise SystemExit(f"{tool}: not found (see {os.path.join(here, 'README.md')})")
    os.makedirs(args.cache, exist_ok=True)
    rows = [bench_size(args, int(s)) for s in args.sizes.split(",")]
    load = os.getloadavg()
    built = datetime.datetime.fromtimestamp(os.path.getmtime(args.ohana), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    curl_version = subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]
    xandikos_version = subprocess.run(
        [args.python, "-c", "import xandikos; print('.'.join(map(str, xandikos.__version__)))"],
        capture_output=True, text=True).stdout.strip()
    print(f"\nohana reading a Xandikos address book on loopback, {datetime.date.today().isoformat()}, "
          f"{os.cpu_count()} CPUs, load {load[0]:.2f}; medians of {args.runs} interleaved runs each; "
          f"ohana {args.ohana} (built {built}), curl {curl_version}, Xandikos {xandikos_version}\n")
    print("| cards | ohana median s | curl median s | ratio ohana/curl | ohana peak RSS MB |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['n']:,} | {r['ohana']:.3f} | {r['curl']:.3f} | {r['ohana'] / r['curl']:.2f} | {r['rss']:.1f} |")
    print("\nWhere the time goes (medians; CPU = user + system seconds; own = wall less Xandikos's CPU meanwhile;"
          " ratio at equal server time = 1 + (ohana own - curl own) / curl median):\n")
    print("| cards | MB of vCard | requests | Xandikos CPU during ohana s | Xandikos CPU during curl s "
          "| ohana CPU s | curl CPU s | ohana own s | curl own s | median of pair ratios | ratio at equal server time "
          "| ohana stats FILE: CPU s, peak RSS MB |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['n']:,} | {r['bytes'] / 1e6:.1f} | {r['requests']} | {r['srv_ohana']:.3f} | {r['srv_curl']:.3f} "
              f"| {r['ohana_cpu']:.3f} | {r['curl_cpu']:.3f} | {r['ohana_own']:.3f} | {r['curl_own']:.3f} "
              f"| {r['pair_ratio']:.2f} | {1 + (r['ohana_own'] - r['curl_own']) / r['curl']:.2f} "
              f"| {r['local_cpu']:.3f}, {r['local_rss']:.1f} |")
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        print(f"\nohana peak RSS grows {(b['rss'] - a['rss']) * 1024 / (b['n'] - a['n']):.2f} KiB per card "
              f"from {a['n']:,} to {b['n']:,} cards (reading the file: "
              f"{(b['local_rss'] - a['local_rss']) * 1024 / (b['n'] - a['n']):.2f} KiB per card)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
