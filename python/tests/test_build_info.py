"""`ohana.build_info()` against outside readings: the running glibc as the
C library's confstr says it, the floor against the newest GLIBC_ symbol
version the loaded library needs (binutils' readelf), ICU against
pkg-config where the headers are installed."""

import os
import re
import shutil
import subprocess

import pytest

import ohana
from ohana import _ffi


def version(text: str) -> tuple:
    return tuple(int(p) for p in text.split("."))


def test_fields_are_named_and_filled():
    info = ohana.build_info()
    assert list(info) == ["version", "icu", "phone_metadata", "glibc", "glibc_running"], info
    assert all(re.fullmatch(r"\d+(\.\d+)+", v) for v in info.values()), info


def test_running_glibc_is_the_c_library_s_own():
    running = os.confstr("CS_GNU_LIBC_VERSION")  # "glibc 2.36"
    assert ohana.build_info()["glibc_running"] == running.split()[-1]


@pytest.mark.skipif(shutil.which("readelf") is None, reason="NOT CHECKED: binutils' readelf is missing")
def test_floor_is_no_lower_than_what_the_library_needs():
    info = ohana.build_info()
    library = _ffi.lib._name
    symbols = subprocess.run(["readelf", "-W", "--dyn-syms", library], check=True, capture_output=True, text=True).stdout
    needed = max(version(v) for v in re.findall(r"@GLIBC_([0-9.]+)", symbols))
    floor = version(info["glibc"])
    assert floor >= needed, f"{library}: floor {floor} but it needs GLIBC_{needed}"
    assert version(info["glibc_running"]) >= floor


@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="NOT CHECKED: pkg-config is missing")
def test_icu_is_the_one_built_against():
    built = subprocess.run(["pkg-config", "--modversion", "icu-uc"], capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip("NOT CHECKED: pkg-config knows no icu-uc (libicu-dev is missing)")
    assert ohana.build_info()["icu"] == built.stdout.strip()
