"""Inputs: the files, the pieces (splits) they are read in, and the line
each piece starts at, so that every contact keeps its place (file, line)
in the whole input, as on one machine."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .engine import list_inputs

__all__ = ["Split", "list_inputs", "plan_splits", "read_piece", "line_numbers", "format_of", "LINE_BITS"]

# What the reader is told a file holds, by extension (the engine's
# ContactFormat(path:) reads the same extensions).
EXTENSIONS = {
    "vcf": "vcard", "vcard": "vcard", "vcards": "vcard", "csv": "csv", "ndjson": "ndjson", "jsonl": "ndjson", "json": "ndjson",
}

# A contact's gid is its input's index, then its line: lines fit in 40 bits.
LINE_BITS = 40


def format_of(path: str) -> Optional[str]:
    name = os.path.basename(path)
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return EXTENSIONS.get(ext)


@dataclass(frozen=True)
class Split:
    """A piece of an input: a whole file, or bytes [start, end) of an NDJSON
    file (owning the lines that begin in it)."""

    file: int
    path: str
    format: str
    start: int
    end: int
    whole: bool


def plan_splits(files: Sequence[str], split_bytes: int) -> List[Split]:
    """NDJSON files larger than `split_bytes` are cut into pieces; other
    files are read whole, one task each."""
    splits: List[Split] = []
    for i, path in enumerate(files):
        fmt = format_of(path) or "vcard"
        size = os.path.getsize(path)
        if fmt == "ndjson" and size > split_bytes:
            for s in range(0, size, split_bytes):
                splits.append(Split(i, path, fmt, s, min(size, s + split_bytes), False))
        else:
            splits.append(Split(i, path, fmt, 0, size, True))
    return splits


def read_piece(split: Split, first_lines: Dict[Tuple[int, int], int]) -> Tuple[bytes, int]:
    """The bytes of a split's own lines and the line number of the first."""
    with open(split.path, "rb") as f:
        if split.whole:
            return f.read(), 1
        start = split.start
        if start > 0:
            f.seek(start - 1)
            if f.read(1) != b"\n":
                f.readline()  # the line that began in the previous piece
            start = f.tell()
        if start >= split.end:
            return b"", 1
        data = f.read(split.end - start)
        if not data.endswith(b"\n"):
            data += f.readline()  # the last line runs past the end
        return data, first_lines[(split.file, split.start)]


def _count_lines(s: Split) -> Tuple[int, int, int, bool]:
    with open(s.path, "rb") as f:
        f.seek(s.start)
        data = f.read(s.end - s.start)
        before = b""
        if s.start > 0:
            f.seek(s.start - 1)
            before = f.read(1)
    return (s.file, s.start, data.count(b"\n"), before == b"\n")


def line_numbers(spark, splits: Sequence[Split]) -> Dict[Tuple[int, int], int]:
    """For every piece of a cut NDJSON file, the line number of its first
    own line (one parallel pass counting line ends)."""
    cut = [s for s in splits if not s.whole]
    if not cut:
        return {}
    counts = spark.sparkContext.parallelize(cut, max(1, len(cut))).map(_count_lines).collect()
    counts.sort()
    out: Dict[Tuple[int, int], int] = {}
    running, last_file = 0, None
    for file, start, n, after_newline in counts:
        if file != last_file:
            running, last_file = 0, file
        # Lines before the first own line: the line ends before `start`,
        # plus the one that ends the line begun in the previous piece.
        out[(file, start)] = 1 if start == 0 else running + (1 if after_newline else 2)
        running += n
    return out
