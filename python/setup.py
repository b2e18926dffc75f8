"""Builds the engine library and puts it in the package.

`pip install ./python` runs `swift build -c release --product OhanaFFI
-Xswiftc -static-stdlib` in the repository (the directory above this one,
or $OHANA_SWIFT_PACKAGE) and copies `.build/release/libOhanaFFI.so` into
`ohana/`. The Swift runtime is linked statically, so the library needs
nothing at run time beyond the C library and the system's ICU; the wheel
is platform-specific (it holds a native library), not pure Python.
$OHANA_SWIFT_BUILD_FLAGS adds flags to the build (e.g. `--scratch-path`).
OHANA_GLIBC_FLOOR=2.28 (python/build_wheel.py sets it) links against glibc
2.28's symbol versions with libstdc++, ICU and SQLite linked in
(Scripts/glibc-floor.sh prints the flags), so that the library loads on
RHEL 8 and every later glibc.
"""

import os
import pathlib
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = pathlib.Path(__file__).resolve().parent
LIBRARY = "libOhanaFFI.so"


def package_root() -> pathlib.Path:
    root = pathlib.Path(os.environ.get("OHANA_SWIFT_PACKAGE", HERE.parent)).resolve()
    if not (root / "Package.swift").exists():
        raise SystemExit(f"ohana: no Package.swift in {root}; set OHANA_SWIFT_PACKAGE to the repository")
    return root


class BuildEngine(build_py):
    def run(self) -> None:
        root = package_root()
        extra = shlex.split(os.environ.get("OHANA_SWIFT_BUILD_FLAGS", ""))
        command_prefix: list = []
        floor = os.environ.get("OHANA_GLIBC_FLOOR", "none")
        if floor != "none":
            if floor != "2.28":
                raise SystemExit(f"ohana: OHANA_GLIBC_FLOOR={floor}: only 2.28 (or none) is built")
            # The script runs the build with its arguments appended and its
            # sqlite3.pc first on PKG_CONFIG_PATH.
            command_prefix = [str(root / "Scripts" / "glibc-floor.sh"), "--"]
        command = ["swift", "build", "-c", "release", "--product", "OhanaFFI", "-Xswiftc", "-static-stdlib", *extra]
        print("ohana: " + " ".join(command_prefix + command), flush=True)
        subprocess.run(command_prefix + command, cwd=root, check=True)
        shown = subprocess.run(command + ["--show-bin-path"], cwd=root, check=True, capture_output=True, text=True)
        built = pathlib.Path(shown.stdout.strip()) / LIBRARY
        super().run()
        target = pathlib.Path(self.build_lib) / "ohana" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


class NativeDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildEngine}, distclass=NativeDistribution)
