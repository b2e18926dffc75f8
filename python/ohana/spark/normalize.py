"""Normalization alone, as DataFrame columns: phones in the formats asked
for, names folded as dedupe folds them, and ICU sort keys."""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import ContactTable, normalize_phones
from . import engine
from .inputs import LINE_BITS, line_numbers, list_inputs, plan_splits, read_piece

NAME_COLUMNS = ("uid", "fullName", "givenName", "middleName", "familyName", "prefix", "suffix", "nickname", "organization", "birthday")


def normalize(df: Any, *, region: str = "US", formats: Sequence[str] = ("e164",), sort_by: str = "family", locale: str = "root") -> Any:
    """A DataFrame of contacts (columns named as `ohana.read`'s: `uid`,
    `givenName`, `familyName`, `fullName`, ..., and `phones` (a string or
    an array of strings)) with new columns: `phone_<format>` (an array
    aligned with `phones`, null where a number does not parse),
    `given_folded`, `family_folded`, `full_folded` (names folded as dedupe
    folds them) and `sort_key` (binary: ordering by it ascending with nulls
    last, then by input order (`gid`), is `ohana process --sort SORT_BY
    --locale LOCALE`'s order)."""
    from pyspark.sql.types import ArrayType, BinaryType, StringType, StructField, StructType

    fmts = [formats] if isinstance(formats, str) else list(formats)
    extra = [StructField(f"phone_{f}", ArrayType(StringType())) for f in fmts]
    extra += [StructField(c, StringType()) for c in ("given_folded", "family_folded", "full_folded")]
    extra.append(StructField("sort_key", BinaryType()))
    schema = StructType(list(df.schema.fields) + extra)
    has_phones = "phones" in df.columns

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            n = b.num_rows
            table = ContactTable.from_arrow(pa.Table.from_batches([b]))
            keys = engine.name_keys(table, sort_by, locale)
            columns = list(b.columns)
            if has_phones:
                phones = b.column("phones")
                if not (pa.types.is_list(phones.type) or pa.types.is_large_list(phones.type)):
                    phones = pa.array([[p] if p is not None else [] for p in phones.to_pylist()], pa.list_(pa.string()))
                normalized = normalize_phones(pc.list_flatten(phones), region=region, formats=fmts)
                for f in fmts:
                    columns.append(pa.ListArray.from_arrays(phones.offsets, normalized.column(f"phone.{f}").combine_chunks(), mask=phones.is_null()))
            else:
                for f in fmts:
                    columns.append(pa.nulls(n, pa.list_(pa.string())))
            for c in ("given_folded", "family_folded", "full_folded", "sort_key"):
                columns.append(keys.column(c))
            yield pa.RecordBatch.from_arrays(columns, schema=pa.schema(list(b.schema) + [
                *(pa.field(f"phone_{f}", pa.list_(pa.string())) for f in fmts),
                pa.field("given_folded", pa.string()), pa.field("family_folded", pa.string()),
                pa.field("full_folded", pa.string()), pa.field("sort_key", pa.binary())]))

    return df.mapInArrow(run, schema)


def read(spark: Any, inputs: Sequence[str], split_bytes: int = 64 << 20) -> Any:
    """The contacts of `inputs` as a DataFrame (`gid`, `source`, `line`,
    the name columns, `phones`, `emails`, `record`), read by the engine in
    parallel."""
    from .merge import _values_by_kind

    files = list_inputs(inputs)
    splits = plan_splits(files, split_bytes)
    first_lines = line_numbers(spark, splits)
    split_df = spark.sparkContext.parallelize([(i,) for i in range(len(splits))], max(1, len(splits))).toDF("split int")
    schema = ("gid long, source string, line long, " + ", ".join(f"`{c}` string" for c in NAME_COLUMNS)
              + ", phones array<string>, emails array<string>, record string")

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for b in batches:
            for i in b.column("split").to_pylist():
                s = splits[i]
                data, first = read_piece(s, first_lines)
                try:
                    t = engine.read_bytes(data, s.format, s.path, first)
                except Exception as e:
                    from .. import OhanaError

                    if isinstance(e, OhanaError):
                        raise engine.located(e, s.path) from None
                    raise
                n = len(t)
                if n == 0:
                    continue
                contacts = t.contacts()
                fields = t.fields()
                p = engine.prepare(t, None, 0, n)
                lines = np.asarray(p.column("line").to_numpy(), dtype=np.int64)
                arrays = [pa.array((np.int64(s.file) << np.int64(LINE_BITS)) + lines), pa.array([s.path] * n, pa.string()), pa.array(lines)]
                for c in NAME_COLUMNS:
                    arrays.append(contacts.column(c).cast(pa.string()).combine_chunks() if c in contacts.column_names else pa.nulls(n, pa.string()))
                arrays.append(_values_by_kind(fields, n, "phone"))
                arrays.append(_values_by_kind(fields, n, "email"))
                arrays.append(p.column("record"))
                yield pa.RecordBatch.from_arrays(arrays, names=["gid", "source", "line", *NAME_COLUMNS, "phones", "emails", "record"])

    return split_df.mapInArrow(run, schema)
