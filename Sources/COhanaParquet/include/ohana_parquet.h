/* Parquet through Apache Arrow's C++ library (DESIGN §15: a maintained
   implementation of the format, never a hand-written codec). Built with the
   package trait `Parquet` (`swift build --traits Parquet`, with
   OHANA_ARROW_DIR naming a pyarrow installation: its headers and
   libarrow / libparquet); without it every function answers "not built".
   The engine reads a Parquet table as the CSV text of its columns (the
   table route of DESIGN §15, the same mapping and detection as a CSV) and
   writes the user's rows back as Arrow read them, with columns appended. */
#ifndef OHANA_PARQUET_H
#define OHANA_PARQUET_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build reads and writes Parquet, else 0. */
int32_t ohana_parquet_available(void);

/* The Parquet file at `path` as CSV text: a header of the column names,
   then one line per row, each cell its value's text (dates and timestamps
   as ISO dates, numbers as Arrow casts them to text; a list, struct, map
   or binary column empty: not compared). `*out` (free with
   ohana_parquet_free) holds `*length` bytes; `*rows` the table's rows.
   Returns 0, or 1 with a one-line message in `error` (`capacity` bytes). */
int32_t ohana_parquet_read_csv(const char* path, uint8_t** out, int64_t* length, int64_t* rows, char* error,
                               int64_t capacity);

void ohana_parquet_free(void* p);

/* Column kinds of ohana_parquet_write_appended. */
enum { OHANA_PARQUET_UTF8 = 0, OHANA_PARQUET_INT32 = 1, OHANA_PARQUET_FLOAT64 = 2 };

/* A Parquet file's bytes in `*out` (`*length` bytes; free with
   ohana_parquet_free; the caller writes them where it writes its outputs):
   the table of the Parquet file `input` (NULL: no base table), every
   column with its values and type as read, then `count` appended columns
   of `rows` values each, named `names[i]`, of kind `kinds[i]`: UTF8
   (`data[i]` the bytes, `offsets[i]` rows + 1 int32 offsets; an empty
   value is null), INT32 (int32 values; INT32_MIN is null) or FLOAT64 (doubles; NaN is null).
   An appended column named as a column of the input replaces it, in its place.
   `take` non-NULL: only those `take_count` rows of the input, in that
   order. The appended columns must have as many rows as the (taken)
   table. Returns 0, or 1 with a message in `error`. */
int32_t ohana_parquet_write_appended(const char* input, int64_t count, const char* const* names,
                                     const int32_t* kinds, const void* const* data, const int32_t* const* offsets,
                                     const int64_t* take, int64_t take_count, int64_t rows, uint8_t** out,
                                     int64_t* length, char* error, int64_t capacity);

#ifdef __cplusplus
}
#endif

#endif
