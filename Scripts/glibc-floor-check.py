#!/usr/bin/env python3
"""Checks the glibc 2.28 floor of shipped ELF files (README "Where it runs").

    Scripts/glibc-floor-check.py [--floor 2.28] OWN... [--bundled LIB...]
    Scripts/glibc-floor-check.py --wheel ohana-*.whl
    Scripts/glibc-floor-check.py --archive ohana-*-linux-x86_64.tar.gz

OWN are our own builds (the `ohana` binary, libOhanaFFI.so): libstdc++ is
linked into them, so they may need no GLIBCXX_ or CXXABI_ version at all.
LIB are others' libraries shipped beside them (Apache Arrow's, from the
pyarrow wheel): they may need the system's libstdc++, up to what
manylinux_2_28 allows (GLIBCXX_3.4.25, CXXABI_1.3.11: GCC 8, RHEL 8's).
Every file: no GLIBC_ version above the floor, no GCC_ (libgcc_s) version
above 7.0.0, no undefined symbol that names no version unless another
shipped file defines it or it is weak (a symbol left unversioned by a link
against the wrong library would bind to anything, or fail only at run
time), and no NEEDED library but glibc's, libgcc_s, libstdc++ (LIB only)
and the shipped files themselves.

Reads the files with binutils' `readelf`. Prints a line per file and
exits 1 on any finding, naming the symbol and the version.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile

GLIBC_LIBRARIES = {
    "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1",
    "libresolv.so.2", "ld-linux-x86-64.so.2",
}
SYSTEM_CXX = {"libgcc_s.so.1", "libstdc++.so.6"}
# manylinux_2_28's policy (PEP 600; auditwheel's policy list): RHEL 8's GCC 8.
BUNDLED_LIMITS = {"GLIBCXX": (3, 4, 25), "CXXABI": (1, 3, 11)}
GCC_LIMIT = (7, 0, 0)
SYMBOL = re.compile(r"^\s*\d+:\s+[0-9a-f]+\s+\d+\s+(\w+)\s+(\w+)\s+\w+\s+(\w+)\s+(\S+)")


def version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p.isdigit())


def readelf(*args: str) -> str:
    return subprocess.run(["readelf", "-W", *args], check=True, capture_output=True, text=True).stdout


class Elf:
    def __init__(self, path: pathlib.Path, own: bool):
        self.path, self.own = path, own
        self.undefined: list[tuple[str, str | None, bool]] = []  # (name, version, weak)
        self.defined: set[str] = set()
        for line in readelf("--dyn-syms", str(path)).splitlines():
            m = SYMBOL.match(line)
            if not m:
                continue
            _type, bind, ndx, name = m.groups()
            base, _, ver = name.partition("@")
            ver = ver.lstrip("@") or None
            if ndx == "UND":
                if base:
                    self.undefined.append((base, ver, bind == "WEAK"))
            else:
                self.defined.add(base)
        dynamic = readelf("-d", str(path))
        self.needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
        soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", dynamic)
        self.soname = soname.group(1) if soname else path.name


def check(files: list[Elf], floor: tuple[int, ...]) -> list[str]:
    findings: list[str] = []
    shipped = {f.soname for f in files} | {f.path.name for f in files}
    defined = set().union(*(f.defined for f in files)) if files else set()
    for f in files:
        who = f"{f.path.name}"
        highest = (0,)
        for name, ver, weak in f.undefined:
            if ver is None:
                if not weak and name not in defined:
                    findings.append(f"{who}: {name} is undefined and names no version")
                continue
            family, _, number = ver.partition("_")
            v = version(number)
            if family == "GLIBC":
                highest = max(highest, v)
                if v > floor:
                    findings.append(f"{who}: {name}@{ver} is above GLIBC_{'.'.join(map(str, floor))}")
            elif family in ("GLIBCXX", "CXXABI"):
                if f.own:
                    findings.append(f"{who}: {name}@{ver}: libstdc++ should be linked in")
                elif v > BUNDLED_LIMITS[family]:
                    findings.append(f"{who}: {name}@{ver} is above manylinux_2_28's {family} limit")
            elif family == "GCC" and v > GCC_LIMIT:
                findings.append(f"{who}: {name}@{ver} is above GCC_7.0.0 (RHEL 8's libgcc_s)")
        allowed = GLIBC_LIBRARIES | shipped | ({"libgcc_s.so.1"} if f.own else SYSTEM_CXX)
        for lib in f.needed:
            if lib not in allowed:
                findings.append(f"{who}: needs {lib}, neither glibc's nor shipped")
        print(f"{who}: GLIBC_{'.'.join(map(str, highest))} at most; needs {', '.join(f.needed) or 'nothing'}")
    return findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("own", nargs="*", type=pathlib.Path)
    parser.add_argument("--bundled", nargs="*", type=pathlib.Path, default=[])
    parser.add_argument("--wheel", type=pathlib.Path)
    parser.add_argument("--archive", type=pathlib.Path)
    parser.add_argument("--floor", default="2.28")
    args = parser.parse_args()
    floor = version(args.floor)

    with tempfile.TemporaryDirectory(prefix="ohana-floor-") as tmp:
        work = pathlib.Path(tmp)
        own, bundled = list(args.own), list(args.bundled)
        if args.wheel:
            with zipfile.ZipFile(args.wheel) as z:
                z.extractall(work)
            own += sorted(work.glob("ohana/*.so"))
            bundled += sorted(work.glob("ohana.libs/*.so*"))
        if args.archive:
            with tarfile.open(args.archive) as t:
                t.extractall(work, filter="data")
            own += sorted(work.glob("*/bin/ohana"))
            bundled += sorted(p for p in work.glob("*/lib/*") if p.is_file())
        if not own:
            sys.exit("glibc-floor-check: no file of ours to check")
        files = [Elf(p, True) for p in own] + [Elf(p, False) for p in bundled]
        findings = check(files, floor)
    for line in findings[:40]:
        print("FAIL " + line)
    if len(findings) > 40:
        print(f"FAIL ... and {len(findings) - 40} more")
    print(f"glibc floor {args.floor}: {len(files)} files, {len(findings)} findings")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
