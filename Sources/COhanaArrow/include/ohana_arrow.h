// The C interface of the Ohana engine (library libOhanaFFI), for Python and
// other foreign callers.
//
// The ArrowSchema and ArrowArray structs are the Arrow C Data Interface,
// written from its specification
// (https://arrow.apache.org/docs/format/CDataInterface.html, see NOTICE):
// same names, same member order, same ABI. The engine fills them (producer);
// the consumer calls `release` when done, which frees what the engine
// allocated for them.
#ifndef OHANA_ARROW_H
#define OHANA_ARROW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

/// An error: `code` (0 = none), the 1-based input `line` when known (0 =
/// unknown), and a one-line `message` (NUL-terminated, never a contact value).
typedef struct ohana_error {
  int32_t code;
  int32_t reserved;
  int64_t line;
  char message[1024];
} ohana_error;

/// Error codes.
enum {
  OHANA_OK = 0,
  OHANA_ERROR_IO = 1,            // a file that cannot be opened, read or written
  OHANA_ERROR_FORMAT = 2,        // an unsupported or unknown format
  OHANA_ERROR_INVALID_INPUT = 3, // bad data (with strict reading: the first bad line)
  OHANA_ERROR_CHARSET = 4,       // an unknown or undecodable charset
  OHANA_ERROR_ARGUMENT = 5,      // a bad argument (region, locale, column type...)
  OHANA_ERROR_ARROW = 6,         // an Arrow input the engine cannot take
};

/// The parts of a table that export as Arrow record batches.
enum {
  OHANA_PART_CONTACTS = 0,       // one row per contact
  OHANA_PART_FIELDS = 1,         // one row per field, `contact` = its contact's row
  OHANA_PART_ADDRESSES = 2,      // one row per postal address, `contact` likewise
  OHANA_PART_FIELD_OFFSETS = 3,  // one int32 column, rows + 1 offsets into FIELDS
  OHANA_PART_ADDRESS_OFFSETS = 4,// one int32 column, rows + 1 offsets into ADDRESSES
  OHANA_PART_EXTRAS = 5,         // one row per extra (unmodelled) property, `contact` likewise
};

// The functions, declared for C callers. (Swift defines them with @_cdecl;
// the Clang importer of Swift defines __swift__, so Swift does not see two
// declarations.)
#if !defined(__swift__)
typedef struct ohana_table ohana_table;

const char* ohana_version(void);
/* The worker threads every later call uses (the process's one setting,
   as `ohana --threads`): n >= 1, or 0 for the default (OHANA_THREADS, else
   the CPUs the process may run on, capped by its cgroup quota). */
int32_t ohana_set_threads(int64_t n, ohana_error* error);
int64_t ohana_threads(void);
int32_t ohana_read(const char* const* paths, int64_t count, const char* format, int32_t strict,
                   ohana_table** out, ohana_error* error);
void ohana_table_free(ohana_table* table);
int64_t ohana_table_rows(const ohana_table* table);
int64_t ohana_table_problem_count(const ohana_table* table);
int32_t ohana_table_problem(const ohana_table* table, int64_t index, int64_t* line, int32_t* severity,
                            char* text, int64_t capacity);
int32_t ohana_table_export(const ohana_table* table, int32_t part, struct ArrowSchema* schema,
                           struct ArrowArray* array, ohana_error* error);
int32_t ohana_table_import(struct ArrowSchema* contacts_schema, struct ArrowArray* contacts,
                           struct ArrowSchema* fields_schema, struct ArrowArray* fields,
                           struct ArrowSchema* addresses_schema, struct ArrowArray* addresses,
                           ohana_table** out, ohana_error* error);
int32_t ohana_normalize_phones(const ohana_table* table, const char* region, const char* formats,
                               ohana_table** out, ohana_error* error);
int32_t ohana_sort(const ohana_table* table, const char* by, const char* locale, int32_t descending,
                   ohana_table** out, ohana_error* error);
int32_t ohana_dedupe(const ohana_table* table, const char* region, double threshold,
                     ohana_table** merged, struct ArrowSchema* clusters_schema,
                     struct ArrowArray* clusters, ohana_error* error);
/* ohana_dedupe obeying a reviewer's decisions: `length` bytes of a decisions
   file (NDJSON, README "Review decisions"); lines that are not decisions and
   decisions skipped (unknown uid, contradiction) are the merged table's
   problems. */
int32_t ohana_dedupe_decisions(const ohana_table* table, const char* region, double threshold,
                               const uint8_t* decisions, int64_t length, ohana_table** merged,
                               struct ArrowSchema* clusters_schema, struct ArrowArray* clusters,
                               ohana_error* error);
int32_t ohana_write(const ohana_table* table, const char* path, const char* format, ohana_error* error);
/* Tables in their own columns (Sources/OhanaFFI/TableInterface.swift;
   Python's ohana.dedupe(frame) and ohana.link(left, right)): CSV text with a
   header, column roles as a --columns file's text (NULL: detected), `right`
   NULL for a dedupe; a record batch of cluster, cluster_size, weight_min,
   weight_max, match, match_weight per row, and the mapping as text. */
int32_t ohana_table_match(const uint8_t* left, int64_t left_length, const char* left_mapping,
                          const uint8_t* right, int64_t right_length, const char* right_mapping,
                          const char* settings, struct ArrowSchema* schema, struct ArrowArray* array,
                          char* columns, int64_t columns_capacity, ohana_error* error);

// The distributed job's pieces (Sources/OhanaFFI/LinkInterface.swift;
// python/ohana/spark.py). `settings` is `key=value;...` text: region,
// threshold, max_block, blocking, weights, threads.
int32_t ohana_read_bytes(const uint8_t* data, int64_t length, const char* format, const char* source,
                         int64_t first_line, int32_t strict, ohana_table** out, ohana_error* error);
// A piece of a table (CSV text, header first) read with the column roles
// `mapping` (a --columns file's text; NULL: detected from the piece).
int32_t ohana_read_table_bytes(const uint8_t* data, int64_t length, const char* source, int64_t first_line,
                               const char* mapping, ohana_table** out, ohana_error* error);
int32_t ohana_link_prepare(const ohana_table* table, const char* settings, int64_t start, int64_t count,
                           int32_t with_keys, struct ArrowSchema* schema, struct ArrowArray* array,
                           ohana_error* error);
int32_t ohana_link_plan(const char* settings, int64_t count, int64_t with_phone_or_email, int32_t* estimates,
                        double* threshold, int8_t* skip, ohana_error* error);
int32_t ohana_link_model(const char* settings, const int64_t* counts, int64_t n, char* text, int64_t capacity,
                         float* weights, int32_t* plausible, double* threshold, ohana_error* error);
int32_t ohana_link_score(const ohana_table* table, const char* settings, const char* model, int64_t n,
                         const int32_t* a, const int32_t* b, const float* tf_family, const float* tf_given,
                         int64_t* vector, float* weight, int8_t* terms, ohana_error* error);
int32_t ohana_link_score_records(const uint8_t* data, const int32_t* offsets, int64_t count, const char* settings,
                                 const char* model, int64_t n, const int32_t* a, const int32_t* b,
                                 const float* tf_family, const float* tf_given, int64_t* vector, float* weight,
                                 int8_t* terms, ohana_error* error);
int32_t ohana_list_inputs(const char* const* paths, int64_t count, char* out, int64_t capacity, int64_t* needed,
                          ohana_error* error);
int32_t ohana_link_merge(const ohana_table* table, const char* settings, const char* model, int64_t n,
                         const int32_t* ea, const int32_t* eb, const float* ew, const float* tf_family,
                         const float* tf_given, ohana_table** merged, int32_t* cluster, int64_t* refused,
                         struct ArrowSchema* joined_schema, struct ArrowArray* joined, ohana_error* error);
int32_t ohana_name_keys(const ohana_table* table, const char* by, const char* locale,
                        struct ArrowSchema* schema, struct ArrowArray* array, ohana_error* error);
#endif

#ifdef __cplusplus
}
#endif

#endif  // OHANA_ARROW_H
