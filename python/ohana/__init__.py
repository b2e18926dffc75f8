"""Ohana for Swift, from Python: read, normalize, sort, dedupe and write
contact lists with the engine, and get the columns as Arrow.

Columns leave the engine through the Arrow C Data Interface: string columns
are dictionary arrays whose dictionary is the engine's string pool (each
distinct string once) and whose indices are the rows' string ids, so
nothing is copied per string. `pyarrow` imports them; Polars, DuckDB and
pandas take the resulting `pyarrow.Table`.

    >>> import ohana
    >>> contacts = ohana.read(["contacts.vcf"])          # a pyarrow.Table
    >>> phones = ohana.normalize_phones(contacts, region="US")
    >>> merged, clusters = ohana.dedupe(phones)

Each function takes a `pyarrow.Table` (returned as one) or a
:class:`ContactTable`, a handle on a table held by the engine (returned as
one, for chaining without leaving the engine).
"""

from __future__ import annotations

import ctypes
import json
import enum
import math
import netrc
import os
import urllib.parse
import warnings
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence, Tuple, Union, overload

import pyarrow as pa
import pyarrow.compute as pc

from . import _carddav, _ffi, _tables

__all__ = [
    "ContactTable",
    "ErrorCode",
    "OhanaError",
    "Problem",
    "read",
    "read_table",
    "normalize_phones",
    "sort",
    "dedupe",
    "link",
    "show_mapping",
    "write",
    "build_info",
    "engine_version",
    "set_threads",
    "threads",
]

PathLike = Union[str, "os.PathLike[str]"]

ATTRIBUTE_COLUMNS = (
    "uid", "fullName", "givenName", "familyName", "middleName", "prefix", "suffix", "nickname",
    "organization", "department", "jobTitle", "birthday", "note", "source",
)
FIELD_COLUMNS = ("type", "label", "value", "group", "parameters")
ADDRESS_COLUMNS = (
    "label", "street", "locality", "region", "postalCode", "country", "poBox", "extended", "group", "parameters",
)


class ErrorCode(enum.IntEnum):
    """What went wrong, as the C interface's `ohana_error.code` says it
    (`Sources/COhanaArrow/include/ohana_arrow.h`), with the exit status the
    command lines (`ohana`, `python -m ohana.spark`) give for it."""

    IO = 1  # a file that cannot be opened, read or written
    FORMAT = 2  # an unknown or unsupported format
    INVALID_INPUT = 3  # input that cannot be read at all
    CHARSET = 4  # text in an encoding that cannot be decoded
    ARGUMENT = 5  # a bad setting or argument
    ARROW = 6  # an Arrow structure that cannot be taken
    SERVER = 7  # a CardDAV server that cannot be reached or does not speak CardDAV (ohana.read of a URL)
    LOGIN = 8  # a CardDAV server that refused the login (ohana.read of a URL)

    @property
    def exit_status(self) -> int:
        """sysexits(3): 66 no input, 65 data error, 64 usage, 70 software,
        69 unavailable, 77 no permission."""
        return {
            ErrorCode.IO: 66,
            ErrorCode.ARGUMENT: 64,
            ErrorCode.ARROW: 70,
            ErrorCode.SERVER: 69,
            ErrorCode.LOGIN: 77,
        }.get(self, 65)


class OhanaError(Exception):
    """An error from the engine: `reason` (one line, never a contact value),
    `line` (1-based line of the input, or None when not known) and `code`
    (an :class:`ErrorCode`)."""

    CODES = {c.value: c.name.lower().replace("_", " ") for c in ErrorCode}

    def __init__(self, code: int, line: Optional[int], reason: str) -> None:
        self.code = ErrorCode(code) if code in ErrorCode._value2member_map_ else code
        self.line = line
        self.reason = reason
        where = f"line {line}: " if line else ""
        super().__init__(f"{where}{reason}")


@dataclass(frozen=True)
class Problem:
    """A warning or skip the reader reported (the line kept reading)."""

    line: int
    severity: str  # "warning" or "skipped"
    text: str  # "source:line: property: reason"


def _check(rc: int, err: _ffi._Error) -> None:
    if rc != 0:
        reason = err.message.decode("utf-8", "replace")
        raise OhanaError(rc, err.line or None, reason)


def build_info() -> dict[str, str]:
    """What the engine library is made of, to check a worker before a job:
    ``version``, ``icu`` (the ICU linked in), ``phone_metadata``
    (libphonenumber's metadata the phone tables come from), ``glibc`` (the
    oldest glibc the library runs on: "2.28" for the wheel) and
    ``glibc_running`` (the one this process runs on)."""
    size = _ffi.lib.ohana_build_info(None, 0)
    buffer = ctypes.create_string_buffer(size + 1)
    _ffi.lib.ohana_build_info(buffer, size + 1)
    lines = buffer.value.decode("utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def engine_version() -> str:
    """The version string of the engine library."""
    return _ffi.lib.ohana_version().decode()


def set_threads(n: Optional[int]) -> None:
    """Sets the worker threads of every later engine call in this process.

    `n` of 1 or more, or None for the default: `OHANA_THREADS`, else the
    CPUs this process may run on (its affinity mask, capped by its cgroup's
    CPU quota), as the `ohana` tool's `--threads`. Outputs are the same
    whatever the count; only the speed changes.
    """
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise ValueError(f"threads must be a whole number, 1 or more (or None for the default), not {n!r}")
    err = _ffi.new_error()
    _check(_ffi.lib.ohana_set_threads(0 if n is None else n, ctypes.byref(err)), err)


def threads() -> int:
    """The worker threads engine calls use now."""
    return int(_ffi.lib.ohana_threads())


class ContactTable:
    """A contact table held by the engine (an opaque handle).

    Operations return new tables; a table never changes. `to_arrow()` (and
    `contacts()`, `fields()`, `addresses()`) hand the columns to pyarrow
    without copying strings.
    """

    __slots__ = ("_handle",)

    def __init__(self, handle: int) -> None:
        if not handle:
            raise ValueError("ContactTable needs a handle from the engine")
        self._handle = ctypes.c_void_p(handle)

    def __del__(self) -> None:
        h = getattr(self, "_handle", None)
        lib = getattr(_ffi, "lib", None)  # None late in interpreter shutdown
        if h is not None and h.value and lib is not None:
            lib.ohana_table_free(h)
            self._handle = ctypes.c_void_p(None)

    def __len__(self) -> int:
        return int(_ffi.lib.ohana_table_rows(self._handle))

    def __repr__(self) -> str:
        return f"<ohana.ContactTable {len(self)} contacts>"

    # -- Arrow out ---------------------------------------------------------

    def _export(self, part: int) -> pa.RecordBatch:
        structs = _ffi.Structs()
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_table_export(self._handle, part, structs.schema_ptr, structs.array_ptr, ctypes.byref(err))
        _check(rc, err)
        return pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)

    def contacts(self) -> pa.Table:
        """One row per contact: `uid`, the name and organization columns,
        `birthday`, `note`, `source` (the file it came from), `sourceLine`
        and the derived columns over contacts. Strings are dictionary arrays."""
        return pa.Table.from_batches([self._export(_ffi.PART_CONTACTS)])

    def fields(self) -> pa.Table:
        """One row per phone, e-mail, URL... field: `contact` (the row of its
        contact), `type`, `label`, `value`, `group`, `parameters` and the
        derived columns over fields (`phone.e164`...)."""
        return pa.Table.from_batches([self._export(_ffi.PART_FIELDS)])

    def addresses(self) -> pa.Table:
        """One row per postal address: `contact` and the address columns."""
        return pa.Table.from_batches([self._export(_ffi.PART_ADDRESSES)])

    def extras(self) -> pa.Table:
        """One row per vCard property the model has no column for (`REV`,
        `X-...`): `contact`, `name`, `group`, `parameters`, `value` (in
        vCard text syntax, as read)."""
        return pa.Table.from_batches([self._export(_ffi.PART_EXTRAS)])

    def to_arrow(self) -> pa.Table:
        """The contacts with their fields and addresses as list columns
        (`fields`, `addresses`: list<struct>), built over the engine's
        offsets without copying."""
        contacts = self._export(_ffi.PART_CONTACTS)
        columns = list(contacts.columns)
        names = list(contacts.schema.names)
        for part, offsets_part, name in (
            (_ffi.PART_FIELDS, _ffi.PART_FIELD_OFFSETS, "fields"),
            (_ffi.PART_ADDRESSES, _ffi.PART_ADDRESS_OFFSETS, "addresses"),
        ):
            children = self._export(part)
            offsets = self._export(offsets_part).column(0)
            keep = [i for i, n in enumerate(children.schema.names) if n != "contact"]
            struct = pa.StructArray.from_arrays(
                [children.column(i) for i in keep], names=[children.schema.names[i] for i in keep]
            )
            columns.append(pa.ListArray.from_arrays(offsets, struct))
            names.append(name)
        return pa.Table.from_arrays(columns, names=names)

    @property
    def problems(self) -> list[Problem]:
        """Every warning and skip met while reading, in input order."""
        out = []
        buf = ctypes.create_string_buffer(2048)
        for i in range(int(_ffi.lib.ohana_table_problem_count(self._handle))):
            line = ctypes.c_int64()
            sev = ctypes.c_int32()
            if _ffi.lib.ohana_table_problem(self._handle, i, ctypes.byref(line), ctypes.byref(sev), buf, len(buf)) == 0:
                out.append(Problem(line.value, "warning" if sev.value == 0 else "skipped", buf.value.decode("utf-8", "replace")))
        return out

    # -- Arrow in ----------------------------------------------------------

    @classmethod
    def from_arrow(cls, table: pa.Table) -> "ContactTable":
        """A table of contacts given as Arrow: string columns named like the
        exported ones (`uid`, `fullName`, `givenName`, `familyName`, ...,
        `source`); fields as a `fields` list<struct<type, label, value, ...>>
        column and/or `phones` / `emails` columns (a string or a list of
        strings a row); addresses as an `addresses` list<struct<street,
        locality, ...>> column. Other columns are ignored."""
        if isinstance(table, pa.RecordBatch):
            table = pa.Table.from_batches([table])
        n = table.num_rows
        contact_cols, contact_names = [], []
        for name in ATTRIBUTE_COLUMNS:
            if name in table.column_names:
                contact_cols.append(_as_strings(table.column(name)))
                contact_names.append(name)
        if not contact_cols:
            contact_cols, contact_names = [pa.nulls(n, pa.string())], ["uid"]
        contacts = pa.RecordBatch.from_arrays(contact_cols, names=contact_names)

        parts: list[pa.Table] = []
        if "fields" in table.column_names:
            parts.append(_flatten_structs(table.column("fields"), FIELD_COLUMNS))
        for column, kind in (("phones", "phone"), ("phone", "phone"), ("emails", "email"), ("email", "email")):
            if column in table.column_names:
                parts.append(_flatten_values(table.column(column), kind))
        fields = _concat_children(parts, ("contact",) + FIELD_COLUMNS)
        addresses = None
        if "addresses" in table.column_names:
            addresses = _flatten_structs(table.column("addresses"), ADDRESS_COLUMNS).combine_chunks().to_batches()
            addresses = addresses[0] if addresses else None

        keep = []  # Python-side structs, alive until the call returns
        def export(batch: Optional[pa.RecordBatch]) -> Tuple[Optional[int], Optional[int]]:
            if batch is None:
                return None, None
            s = _ffi.Structs()
            keep.append(s)
            batch._export_to_c(s.array_ptr, s.schema_ptr)
            return s.schema_ptr, s.array_ptr

        cs, ca = export(contacts)
        fs, fa = export(fields)
        as_, aa = export(addresses)
        out = ctypes.c_void_p()
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_table_import(cs, ca, fs, fa, as_, aa, ctypes.byref(out), ctypes.byref(err))
        _check(rc, err)
        return cls(out.value)

    # -- Operations ----------------------------------------------------------

    def normalize_phones(self, region: str = "US", formats: Sequence[str] = ("e164",)) -> "ContactTable":
        """Parses every phone field (national numbers in `region`) and adds a
        `phone.<format>` column over fields for each of `formats` (`e164`,
        `international`, `national`, `rfc3966`); unparsable numbers are null."""
        if isinstance(formats, str):
            formats = (formats,)
        out = ctypes.c_void_p()
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_normalize_phones(
            self._handle, region.encode(), ",".join(formats).encode(), ctypes.byref(out), ctypes.byref(err)
        )
        _check(rc, err)
        return ContactTable(out.value)

    def sort(self, by: str = "family", locale: str = "root", descending: bool = False) -> "ContactTable":
        """Sorted by `by` (`full`, `given` or `family` name) with ICU collation
        for `locale` (`en`, `de`, `de-u-co-phonebk`, `sv`, ...)."""
        out = ctypes.c_void_p()
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_sort(self._handle, by.encode(), locale.encode(), int(descending), ctypes.byref(out), ctypes.byref(err))
        _check(rc, err)
        return ContactTable(out.value)

    def dedupe(
        self, region: str = "US", threshold: Optional[float] = None, decisions=None
    ) -> Tuple["ContactTable", pa.Table]:
        """Finds the same person across contacts and merges each cluster into
        one contact. Returns (merged, clusters): clusters has one row per
        input contact: `row`, `uid` and `dedupe.cluster`, the row of its
        merged contact in `merged`.

        `decisions`: a reviewer's decisions, obeyed whatever the scores
        (Sources/Ohana/Ohana.docc/Review.md, "Review decisions"): the path
        of a decisions file (NDJSON), or a list of dicts such as
        `{"kind": "same", "uids": ["a", "b"]}` and
        `{"kind": "different", "uids": ["a"], "from": ["b"]}`. A line that is
        not a decision, or a decision naming an unknown uid or contradicting
        an earlier one, is skipped: it is in `merged.problems` and given as a
        `UserWarning`."""
        out = ctypes.c_void_p()
        structs = _ffi.Structs()
        err = _ffi.new_error()
        limit = math.nan if threshold is None else float(threshold)
        if decisions is None:
            rc = _ffi.lib.ohana_dedupe(
                self._handle, region.encode(), limit, ctypes.byref(out), structs.schema_ptr, structs.array_ptr,
                ctypes.byref(err),
            )
        else:
            data = _decisions_bytes(decisions)
            rc = _ffi.lib.ohana_dedupe_decisions(
                self._handle, region.encode(), limit, data, len(data), ctypes.byref(out), structs.schema_ptr,
                structs.array_ptr, ctypes.byref(err),
            )
        _check(rc, err)
        clusters = pa.RecordBatch._import_from_c(structs.array_ptr, structs.schema_ptr)
        merged = ContactTable(out.value)
        if decisions is not None:
            for problem in merged.problems:
                warnings.warn(f"decisions: {problem.text}", UserWarning, stacklevel=2)
        return merged, pa.Table.from_batches([clusters])

    def write(self, path: PathLike, format: Optional[str] = None) -> None:
        """Writes the contacts to `path` (`format`: `vcard`, `vcard3`,
        `vcard21`, `csv`, `ndjson`; None: from the extension). The file is
        replaced whole or not at all."""
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_write(self._handle, os.fsencode(path), None if format is None else format.encode(), ctypes.byref(err))
        _check(rc, err)


def _decisions_bytes(decisions) -> bytes:
    """A decisions file's bytes: read from a path, or NDJSON made from dicts."""
    if isinstance(decisions, (str, bytes, os.PathLike)):
        with open(decisions, "rb") as f:
            return f.read()
    lines = []
    for d in decisions:
        if not isinstance(d, dict):
            raise TypeError("decisions: a path or a list of dicts")
        lines.append(json.dumps(d, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


# -- Helpers for Arrow in ------------------------------------------------------

def _combine(column: Union[pa.Array, pa.ChunkedArray]) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        return column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return column


def _as_strings(column: Union[pa.Array, pa.ChunkedArray], keep_dictionary: bool = True) -> pa.Array:
    """A column as utf8 or large_utf8, or as a dictionary of those with
    signed integer indices (which the engine interns once per distinct
    value: what `read` exports goes back in without decoding)."""
    if isinstance(column, pa.ChunkedArray) and column.num_chunks > 1 and pa.types.is_dictionary(column.type):
        try:
            column = column.unify_dictionaries()
            a = column.combine_chunks()
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            a = pa.concat_arrays([c.dictionary_decode() for c in column.chunks])
    else:
        a = _combine(column)
    if pa.types.is_dictionary(a.type):
        t = a.type
        string_values = pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)
        if keep_dictionary and string_values and pa.types.is_signed_integer(t.index_type):
            return a
        a = a.dictionary_decode()
    if pa.types.is_string(a.type) or pa.types.is_large_string(a.type):
        return a
    return pc.cast(a, pa.large_string())  # string views, numbers, ...


def _flatten_structs(column: Union[pa.Array, pa.ChunkedArray], names: Iterable[str]) -> pa.Table:
    lists = _combine(column)
    parents = pc.list_parent_indices(lists).cast(pa.int32())
    flat = pc.list_flatten(lists)
    cols, out_names = [parents], ["contact"]
    child_names = [flat.type.field(i).name for i in range(flat.type.num_fields)] if pa.types.is_struct(flat.type) else []
    for name in names:
        if name in child_names:
            cols.append(_as_strings(flat.field(name)))
            out_names.append(name)
    return pa.table(cols, names=out_names)


def _flatten_values(column: Union[pa.Array, pa.ChunkedArray], kind: str) -> pa.Table:
    a = _combine(column)
    if pa.types.is_list(a.type) or pa.types.is_large_list(a.type):
        parents = pc.list_parent_indices(a).cast(pa.int32())
        values = _as_strings(pc.list_flatten(a))
    else:
        values = _as_strings(a)
        parents = pa.array(range(len(values)), pa.int32())
    present = pc.is_valid(values)
    parents, values = parents.filter(present), values.filter(present)
    return pa.table([parents, pa.array([kind] * len(values), pa.string()), values], names=["contact", "type", "value"])


def _concat_children(parts: list[pa.Table], names: Sequence[str]) -> Optional[pa.RecordBatch]:
    if not parts:
        return None
    unified = []
    for p in parts:
        cols = [p.column(n) if n in p.column_names else pa.nulls(p.num_rows, pa.large_string()) for n in names]
        cols = [c if n == "contact" else _as_strings(c, keep_dictionary=len(parts) == 1) for c, n in zip(cols, names)]
        unified.append(pa.table([_combine(c) for c in cols], names=list(names)))
    t = pa.concat_tables(unified, promote_options="permissive").combine_chunks()
    batches = t.to_batches()
    return batches[0] if batches else None


# -- The functions ---------------------------------------------------------------

TableLike = Union[pa.Table, ContactTable]


def _paths(paths: Union[PathLike, Sequence[PathLike]]) -> list[bytes]:
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsencode(p) for p in paths]


def _is_url(p: PathLike) -> bool:
    return isinstance(p, str) and p.lower().startswith(("http://", "https://"))


def _carddav_password(url: str, user: Optional[str], password_file: Optional[PathLike]) -> tuple[Optional[str], Optional[str]]:
    """The login for `url`, as the `ohana` tool finds it: `password_file`'s
    first line, else $OHANA_CARDDAV_PASSWORD, else ~/.netrc (which may
    give the user too); never a password in an argument or the URL."""
    if password_file is not None:
        if user is None:
            raise ValueError("password_file needs user")
        with open(password_file, encoding="utf-8") as f:
            return user, f.readline().rstrip("\r\n")
    env = os.environ.get("OHANA_CARDDAV_PASSWORD")
    if env is not None:
        if user is None:
            raise ValueError("OHANA_CARDDAV_PASSWORD needs user")
        return user, env
    host = urllib.parse.urlsplit(url).hostname or ""
    try:
        found = netrc.netrc().authenticators(host)
    except (FileNotFoundError, netrc.NetrcParseError):
        found = None
    if found and found[2] is not None and (user is None or user == found[0]):
        return found[0], found[2]
    if user is not None:
        raise ValueError("user needs a password: password_file, OHANA_CARDDAV_PASSWORD or ~/.netrc")
    return None, None


def read_table(
    paths: Union[PathLike, Sequence[PathLike]],
    format: Optional[str] = None,
    strict: bool = False,
    *,
    user: Optional[str] = None,
    password_file: Optional[PathLike] = None,
    ca_file: Optional[PathLike] = None,
    address_book: Optional[str] = None,
    insecure_http: bool = False,
) -> ContactTable:
    """Reads contact files (vCard 2.1/3.0/4.0, CSV, NDJSON) into the engine,
    one after the other, as one :class:`ContactTable`; each contact's
    `source` is the path it came from. `format` None: from each file's
    extension, else its content. A bad line costs that line and is reported
    in `problems`; with `strict=True` the first one raises
    :class:`OhanaError` with its line number instead.

    An `http` or `https` URL (one, alone) is a CardDAV address book, or a
    server or principal to discover them from (`address_book`: only the one
    of that name), as the `ohana` tool reads it
    (Sources/Ohana/Ohana.docc/CardDAV.md): `user`, and the password from
    `password_file`, $OHANA_CARDDAV_PASSWORD or ~/.netrc; `ca_file` for a private CA; plain
    http only to this machine unless `insecure_http`. A server that cannot
    be reached raises :class:`OhanaError` with code SERVER, a refused login
    LOGIN."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    urls = [p for p in paths if _is_url(p)]
    if urls:
        if len(paths) != 1:
            raise ValueError("read one address book URL at a time, without files")
        url = urls[0]
        login, password = _carddav_password(url, user, password_file)
        try:
            books = _carddav.read_books(
                url, login, password, None if ca_file is None else os.fspath(ca_file), address_book, insecure_http
            )
        except _carddav.CardDAVError as e:
            code = {"login": ErrorCode.LOGIN, "argument": ErrorCode.ARGUMENT}.get(e.kind, ErrorCode.SERVER)
            raise OhanaError(code, None, str(e)) from None
        if len(books) != 1:
            raise ValueError(
                f"{_carddav.redacted(url)} leads to {len(books)} address books: name one with address_book"
            )
        book, cards = books[0]
        data = b"".join(c if c.endswith(b"\n") else c + b"\r\n" for c in cards)
        out = ctypes.c_void_p()
        err = _ffi.new_error()
        rc = _ffi.lib.ohana_read_bytes(data, len(data), b"vcard", book.encode(), 1, int(strict), ctypes.byref(out), ctypes.byref(err))
        _check(rc, err)
        return ContactTable(out.value)
    encoded = _paths(paths)
    array = (ctypes.c_char_p * max(1, len(encoded)))(*encoded)
    out = ctypes.c_void_p()
    err = _ffi.new_error()
    rc = _ffi.lib.ohana_read(
        array, len(encoded), None if format is None else format.encode(), int(strict), ctypes.byref(out), ctypes.byref(err)
    )
    _check(rc, err)
    return ContactTable(out.value)


def read(
    paths: Union[PathLike, Sequence[PathLike]], format: Optional[str] = None, strict: bool = False, **carddav
) -> pa.Table:
    """Reads contact files, or a CardDAV address book URL (the keywords of
    :func:`read_table`), into a `pyarrow.Table`: one row per contact, with
    `fields` and `addresses` list columns (see :meth:`ContactTable.to_arrow`).
    Raises :class:`OhanaError` (with `line` and `reason`) when a file cannot
    be read, or with `strict=True` at its first bad line."""
    return read_table(paths, format=format, strict=strict, **carddav).to_arrow()


def _engine(table: TableLike) -> ContactTable:
    if isinstance(table, ContactTable):
        return table
    if isinstance(table, (pa.Table, pa.RecordBatch)):
        return ContactTable.from_arrow(table)
    raise TypeError(f"expected a pyarrow.Table or an ohana.ContactTable, not {type(table).__name__}")


@overload
def normalize_phones(table_or_array: ContactTable, region: str = ..., formats: Sequence[str] = ...) -> ContactTable: ...
@overload
def normalize_phones(table_or_array: pa.Table, region: str = ..., formats: Sequence[str] = ...) -> pa.Table: ...
@overload
def normalize_phones(table_or_array: Union[pa.Array, pa.ChunkedArray], region: str = ..., formats: Sequence[str] = ...) -> pa.Table: ...


def normalize_phones(table_or_array, region="US", formats=("e164",)):
    """Parses phone numbers (national ones in `region`) and formats them.

    - a table: every phone field gets a `phone.<format>` value for each of
      `formats` (`e164`, `international`, `national`, `rfc3966`) in its
      `fields` entries; null where the number cannot be parsed;
    - an array of strings: a `pyarrow.Table` with one `phone.<format>` column
      per format, row for row (null in, null out)."""
    if isinstance(formats, str):
        formats = (formats,)
    if isinstance(table_or_array, ContactTable):
        return table_or_array.normalize_phones(region, formats)
    if isinstance(table_or_array, (pa.Array, pa.ChunkedArray)):
        values = _as_strings(table_or_array)
        n = len(values)
        fields = pa.table(
            [pa.array(range(n), pa.int32()), pa.array(["phone"] * n, pa.string()), values],
            names=["contact", "type", "value"],
        ).filter(pc.is_valid(values))
        contacts = pa.table([pa.nulls(n, pa.string())], names=["uid"])
        present = pc.cast(pc.is_valid(values), pa.int32())
        offsets = pa.concat_arrays([pa.array([0], pa.int32()), pc.cumulative_sum(present)])
        struct = pa.StructArray.from_arrays([_combine(fields.column("type")), _combine(fields.column("value"))], names=["type", "value"])
        t = ContactTable.from_arrow(contacts.append_column("fields", pa.ListArray.from_arrays(offsets, struct)))
        f = t.normalize_phones(region, formats).fields()
        columns, names = [], []
        for fmt in formats:
            name = f"phone.{fmt}"
            col = f.column(name) if name in f.column_names else pa.nulls(len(f), pa.string())
            # Field rows are in contact order, one per non-null input: scatter back.
            positions = pc.index_in(pa.array(range(n), pa.int32()), value_set=f.column("contact").combine_chunks())
            columns.append(pc.take(_as_strings(col), positions))
            names.append(name)
        return pa.table(columns, names=names)
    return _engine(table_or_array).normalize_phones(region, formats).to_arrow()


def sort(table: TableLike, by: str = "family", locale: str = "root", descending: bool = False):
    """Sorts contacts by `by` (`full`, `given`, `family`) with ICU collation
    for `locale`; returns the same kind of table it was given."""
    result = _engine(table).sort(by, locale, descending)
    return result if isinstance(table, ContactTable) else result.to_arrow()


def _engine_layout(table) -> bool:
    """Whether `table` is contacts in the engine's own layout: an
    :class:`ContactTable`, or a pyarrow table as :func:`read` makes it (a
    `fields` list column beside `uid`)."""
    if isinstance(table, ContactTable):
        return True
    if isinstance(table, (pa.Table, pa.RecordBatch)):
        names = set(table.schema.names)
        return "uid" in names and "fields" in names and pa.types.is_list(table.schema.field("fields").type)
    return False


def dedupe(
    table,
    region: str = "US",
    threshold: Optional[float] = None,
    decisions=None,
    *,
    columns=None,
    id: Optional[str] = None,
    weights: str = "auto",
    blocking: Optional[str] = None,
):
    """Finds the same person across records.

    A table in its own columns (a pandas, Polars or pyarrow frame, a DuckDB
    relation, anything with `__arrow_c_stream__`): its columns are mapped
    onto the contact model as `ohana dedupe people.csv` maps a CSV's (given
    `columns`, e.g. `{"given": "first_name", "phone.mobile": ["Handy"]}`,
    and `id`, the id column; the rest detected from names and values, see
    :func:`show_mapping`), and the same kind of frame comes back, every
    column as it was, with `cluster_id` (the id of the cluster's first row,
    else `row-N`), `cluster_size`, `match_weight_min` and `match_weight_max`
    appended. A frame where no column is a name, an e-mail or a phone raises
    :class:`OhanaError` (INVALID_INPUT) naming its columns.

    Contacts in the engine's layout (an :class:`ContactTable`, or what
    :func:`read` returns): returns (merged, clusters), `merged` of the kind
    given, `clusters` a `pyarrow.Table` of `row`, `uid` and `dedupe.cluster`
    (the row of each input contact's merged contact); `decisions`: a
    reviewer's decisions (see `ContactTable.dedupe`)."""
    if _engine_layout(table):
        if columns is not None or id is not None or weights != "auto" or blocking is not None:
            raise ValueError("columns, id, weights and blocking are for tables in their own columns")
        merged, clusters = _engine(table).dedupe(region, threshold, decisions)
        return (merged if isinstance(table, ContactTable) else merged.to_arrow()), clusters
    if decisions is not None:
        raise ValueError("decisions are for contacts in the engine's layout (ohana.read_table)")
    return _tables.dedupe_frame(
        table, columns=columns, id=id, region=region, threshold=threshold, weights=weights, blocking=blocking
    )


def link(left, right, **options):
    """Matches the records of one frame against another's, as `ohana link`
    (see :func:`ohana._tables.link` for the options: `columns`,
    `right_columns`, `id`, `right_id`, `region`, `threshold`, `weights`,
    `blocking`, `and_dedupe`). Returns `(left, right)`, each the kind it was
    given, with `cluster_id`, `match_id`, `match_weight` and `match_count`."""
    return _tables.link(left, right, **options)


def show_mapping(frame, columns=None, id: Optional[str] = None):
    """How each column of a frame maps onto the contact model, as
    `(column, role or None, how)` tuples in the frame's order."""
    return _tables.show_mapping(frame, columns=columns, id=id)


def write(table: TableLike, path: PathLike, format: Optional[str] = None) -> None:
    """Writes contacts to `path` (`format` None: from the extension)."""
    _engine(table).write(path, format)
