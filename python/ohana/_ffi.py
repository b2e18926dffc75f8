"""The ctypes binding of libOhanaFFI (Sources/COhanaArrow/include/ohana_arrow.h).

ctypes releases the GIL for the length of every call into a CDLL, so engine
work (reading, normalizing, sorting, deduping, exporting) runs while other
Python threads go on. No compiler is needed at import: the library was built
by `pip install ./python`.
"""

from __future__ import annotations

import ctypes
import os
import pathlib
from typing import Optional

# Sizes of the Arrow C Data Interface structs on 64-bit targets (pinned by
# _Static_assert in Sources/COhanaArrow/layout.c).
ARROW_SCHEMA_SIZE = 72
ARROW_ARRAY_SIZE = 80

PART_CONTACTS = 0
PART_FIELDS = 1
PART_ADDRESSES = 2
PART_FIELD_OFFSETS = 3
PART_ADDRESS_OFFSETS = 4
PART_EXTRAS = 5


class _Error(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
        ("line", ctypes.c_int64),
        ("message", ctypes.c_char * 1024),
    ]


def _library_path() -> pathlib.Path:
    override = os.environ.get("OHANA_FFI_LIBRARY")
    if override:
        return pathlib.Path(override)
    return pathlib.Path(__file__).with_name("libOhanaFFI.so")


def _load() -> ctypes.CDLL:
    path = _library_path()
    if not path.exists():
        raise ImportError(
            f"ohana: the engine library {path} is missing; install the package with `pip install ./python`"
        )
    lib = ctypes.CDLL(str(path))
    p = ctypes.c_void_p
    s = ctypes.c_char_p
    i32 = ctypes.c_int32
    i64 = ctypes.c_int64
    err = ctypes.POINTER(_Error)
    out = ctypes.POINTER(ctypes.c_void_p)
    sigs = {
        "ohana_version": (s, []),
        "ohana_build_info": (i64, [ctypes.c_char_p, i64]),
        "ohana_set_threads": (i32, [i64, err]),
        "ohana_threads": (i64, []),
        "ohana_read": (i32, [ctypes.POINTER(s), i64, s, i32, out, err]),
        "ohana_table_free": (None, [p]),
        "ohana_table_rows": (i64, [p]),
        "ohana_table_problem_count": (i64, [p]),
        "ohana_table_problem": (i32, [p, i64, ctypes.POINTER(i64), ctypes.POINTER(i32), ctypes.c_char_p, i64]),
        "ohana_table_export": (i32, [p, i32, p, p, err]),
        "ohana_table_import": (i32, [p, p, p, p, p, p, out, err]),
        "ohana_normalize_phones": (i32, [p, s, s, out, err]),
        "ohana_sort": (i32, [p, s, s, i32, out, err]),
        "ohana_dedupe": (i32, [p, s, ctypes.c_double, out, p, p, err]),
        "ohana_dedupe_decisions": (i32, [p, s, ctypes.c_double, ctypes.c_char_p, i64, out, p, p, err]),
        "ohana_write": (i32, [p, s, s, err]),
        "ohana_read_bytes": (i32, [ctypes.c_char_p, i64, s, s, i64, i32, out, err]),
        "ohana_read_table_bytes": (i32, [ctypes.c_char_p, i64, s, i64, s, out, err]),
        "ohana_link_prepare": (i32, [p, s, i64, i64, i32, p, p, err]),
        "ohana_link_plan": (i32, [s, i64, i64, ctypes.POINTER(i32), ctypes.POINTER(ctypes.c_double), p, err]),
        "ohana_link_model": (i32, [s, p, i64, ctypes.c_char_p, i64, p, ctypes.POINTER(i32), ctypes.POINTER(ctypes.c_double), err]),
        "ohana_link_score": (i32, [p, s, s, i64, p, p, p, p, p, p, p, err]),
        "ohana_link_score_records": (i32, [p, p, i64, s, s, i64, p, p, p, p, p, p, p, err]),
        "ohana_list_inputs": (i32, [ctypes.POINTER(s), i64, p, i64, ctypes.POINTER(i64), err]),
        "ohana_link_merge": (i32, [p, s, s, i64, p, p, p, p, p, out, p, ctypes.POINTER(i64), p, p, err]),
        "ohana_name_keys": (i32, [p, s, s, p, p, err]),
        "ohana_table_match": (i32, [ctypes.c_char_p, i64, s, ctypes.c_char_p, i64, s, s, p, p, ctypes.c_char_p, i64, err]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


lib = _load()


class Structs:
    """An ArrowSchema and an ArrowArray in memory Python owns, to be filled
    by one side and moved out by the other."""

    def __init__(self) -> None:
        self.schema = ctypes.create_string_buffer(ARROW_SCHEMA_SIZE)
        self.array = ctypes.create_string_buffer(ARROW_ARRAY_SIZE)

    @property
    def schema_ptr(self) -> int:
        return ctypes.addressof(self.schema)

    @property
    def array_ptr(self) -> int:
        return ctypes.addressof(self.array)


def new_error() -> _Error:
    return _Error()
