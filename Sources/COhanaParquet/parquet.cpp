// Parquet through Apache Arrow's C++ library (see ohana_parquet.h). The
// code below only calls the library's public API: the reader and writer of
// parquet/arrow, the compute casts, and the CSV writer. Without the
// library's headers (a build without the `Parquet` trait) it compiles to
// functions that answer "not built".
#include "ohana_parquet.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <vector>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#if __has_include(<parquet/arrow/reader.h>)
#define OHANA_HAVE_PARQUET 1
#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/csv/api.h>
#include <arrow/io/api.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>
#elif defined(OHANA_PARQUET_REQUIRED)
#error "the Parquet trait needs Apache Arrow's C++ headers: set OHANA_ARROW_DIR to a pyarrow installation (Scripts/parquet-env.sh)"
#endif

namespace {

int32_t fail(char* error, int64_t capacity, const std::string& message) {
  if (error && capacity > 0) {
    size_t n = message.size() < static_cast<size_t>(capacity - 1) ? message.size() : static_cast<size_t>(capacity - 1);
    std::memcpy(error, message.data(), n);
    error[n] = 0;
  }
  return 1;
}

#ifdef OHANA_HAVE_PARQUET

arrow::Result<std::shared_ptr<arrow::Table>> ReadFile(const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::ReadableFile::Open(path));
  ARROW_ASSIGN_OR_RAISE(auto reader, parquet::arrow::OpenFile(file, arrow::default_memory_pool()));
  // Columns decoded in parallel, on Arrow's CPU thread pool.
  reader->set_use_threads(true);
  return reader->ReadTable();
}

// A file, or a directory of part files as Spark and DuckDB write them
// (`*.parquet` in name order; names starting with `_` or `.` are not
// data), concatenated into one table.
arrow::Result<std::shared_ptr<arrow::Table>> ReadTable(const char* path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return ReadFile(path);
  std::vector<std::string> parts;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    auto name = entry.path().filename().string();
    if (name.empty() || name[0] == '_' || name[0] == '.' || !entry.is_regular_file()) continue;
    if (name.size() < 8 || name.compare(name.size() - 8, 8, ".parquet") != 0) continue;
    parts.push_back(entry.path().string());
  }
  if (ec) return arrow::Status::IOError("cannot list ", path, ": ", ec.message());
  if (parts.empty()) return arrow::Status::Invalid(path, " holds no .parquet files");
  std::sort(parts.begin(), parts.end());
  std::vector<std::shared_ptr<arrow::Table>> tables;
  for (const auto& part : parts) {
    ARROW_ASSIGN_OR_RAISE(auto table, ReadFile(part));
    tables.push_back(table);
  }
  if (tables.size() == 1) return tables[0];
  return arrow::ConcatenateTables(tables);
}

// One column as text: what the engine reads of it.
arrow::Result<std::shared_ptr<arrow::ChunkedArray>> AsText(const std::shared_ptr<arrow::ChunkedArray>& column) {
  auto type = column->type();
  if (type->id() == arrow::Type::DICTIONARY) {
    auto value = std::static_pointer_cast<arrow::DictionaryType>(type)->value_type();
    ARROW_ASSIGN_OR_RAISE(auto decoded, arrow::compute::Cast(column, value));
    return AsText(decoded.chunked_array());
  }
  if (type->id() == arrow::Type::STRING) return column;
  if (type->id() == arrow::Type::DATE32 || type->id() == arrow::Type::DATE64 ||
      type->id() == arrow::Type::TIMESTAMP) {
    arrow::compute::StrftimeOptions options("%Y-%m-%d");
    ARROW_ASSIGN_OR_RAISE(auto text, arrow::compute::CallFunction("strftime", {column}, &options));
    return text.chunked_array();
  }
  bool nested = arrow::is_nested(type->id()) || arrow::is_binary(type->id()) ||
                type->id() == arrow::Type::FIXED_SIZE_BINARY;
  if (!nested) {
    auto cast = arrow::compute::Cast(column, arrow::utf8());
    if (cast.ok()) return cast->chunked_array();
  }
  ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(arrow::utf8(), column->length()));
  return std::make_shared<arrow::ChunkedArray>(nulls);
}

// The table as CSV text in `parts`, to be joined in order: the rows are
// cut into one slice per core (at most 8; one for a small table), each
// written by Arrow's CSV writer on a thread of its own, the header with
// the first. Arrow's writer is one thread; this was the Parquet route's
// longest serial step.
arrow::Status ReadCSV(const char* path, std::vector<std::shared_ptr<arrow::Buffer>>* parts, int64_t* rows) {
  ARROW_RETURN_NOT_OK(arrow::compute::Initialize());
  ARROW_ASSIGN_OR_RAISE(auto table, ReadTable(path));
  std::vector<std::shared_ptr<arrow::Field>> fields;
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns;
  for (int i = 0; i < table->num_columns(); i++) {
    ARROW_ASSIGN_OR_RAISE(auto text, AsText(table->column(i)));
    fields.push_back(arrow::field(table->field(i)->name(), arrow::utf8()));
    columns.push_back(text);
  }
  auto view = arrow::Table::Make(arrow::schema(fields), columns, table->num_rows());
  const int64_t total = view->num_rows();
  int64_t slices = std::max<int64_t>(1, std::min<int64_t>(8, std::thread::hardware_concurrency()));
  if (total < (int64_t{1} << 16)) slices = 1;
  std::vector<arrow::Status> statuses(slices, arrow::Status::OK());
  parts->assign(slices, nullptr);
  auto write = [&](int64_t k) {
    int64_t lo = total * k / slices, hi = total * (k + 1) / slices;
    auto options = arrow::csv::WriteOptions::Defaults();
    options.include_header = k == 0;
    options.quoting_style = arrow::csv::QuotingStyle::Needed;
    auto sink = arrow::io::BufferOutputStream::Create();
    if (!sink.ok()) {
      statuses[k] = sink.status();
      return;
    }
    auto status = arrow::csv::WriteCSV(*view->Slice(lo, hi - lo), options, sink->get());
    if (!status.ok()) {
      statuses[k] = status;
      return;
    }
    auto buffer = (*sink)->Finish();
    if (!buffer.ok()) {
      statuses[k] = buffer.status();
      return;
    }
    (*parts)[k] = *buffer;
  };
  std::vector<std::thread> threads;
  for (int64_t k = 1; k < slices; k++) threads.emplace_back(write, k);
  write(0);
  for (auto& t : threads) t.join();
  for (const auto& status : statuses) ARROW_RETURN_NOT_OK(status);
  *rows = total;
  return arrow::Status::OK();
}

arrow::Result<std::shared_ptr<arrow::Array>> Appended(int32_t kind, const void* data, const int32_t* offsets,
                                                      int64_t rows) {
  switch (kind) {
    case OHANA_PARQUET_UTF8: {
      arrow::StringBuilder b;
      ARROW_RETURN_NOT_OK(b.Reserve(rows));
      const char* bytes = static_cast<const char*>(data);
      for (int64_t r = 0; r < rows; r++) {
        int32_t start = offsets[r], end = offsets[r + 1];
        if (end == start) {
          ARROW_RETURN_NOT_OK(b.AppendNull());
        } else {
          ARROW_RETURN_NOT_OK(b.Append(bytes + start, end - start));
        }
      }
      return b.Finish();
    }
    case OHANA_PARQUET_INT32: {
      arrow::Int32Builder b;
      ARROW_RETURN_NOT_OK(b.Reserve(rows));
      const int32_t* values = static_cast<const int32_t*>(data);
      for (int64_t r = 0; r < rows; r++) {
        if (values[r] == INT32_MIN) {
          ARROW_RETURN_NOT_OK(b.AppendNull());
        } else {
          ARROW_RETURN_NOT_OK(b.Append(values[r]));
        }
      }
      return b.Finish();
    }
    case OHANA_PARQUET_FLOAT64: {
      arrow::DoubleBuilder b;
      ARROW_RETURN_NOT_OK(b.Reserve(rows));
      const double* values = static_cast<const double*>(data);
      for (int64_t r = 0; r < rows; r++) {
        if (values[r] != values[r]) {
          ARROW_RETURN_NOT_OK(b.AppendNull());
        } else {
          ARROW_RETURN_NOT_OK(b.Append(values[r]));
        }
      }
      return b.Finish();
    }
    default:
      return arrow::Status::Invalid("unknown column kind");
  }
}

arrow::Status WriteAppended(const char* input, int64_t count, const char* const* names, const int32_t* kinds,
                            const void* const* data, const int32_t* const* offsets, const int64_t* take,
                            int64_t take_count, int64_t rows, std::shared_ptr<arrow::Buffer>* out) {
  ARROW_RETURN_NOT_OK(arrow::compute::Initialize());
  std::shared_ptr<arrow::Table> table;
  if (input) {
    ARROW_ASSIGN_OR_RAISE(table, ReadTable(input));
    if (take) {
      for (int64_t i = 0; i < take_count; i++)
        if (take[i] < 0 || take[i] >= table->num_rows()) return arrow::Status::Invalid("row out of range");
      arrow::Int64Builder indices;
      ARROW_RETURN_NOT_OK(indices.AppendValues(take, take_count));
      ARROW_ASSIGN_OR_RAISE(auto index, indices.Finish());
      ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(table, index));
      table = taken.table();
    }
    if (table->num_rows() != rows)
      return arrow::Status::Invalid("the appended columns have ", rows, " rows; the table has ", table->num_rows());
  } else {
    ARROW_ASSIGN_OR_RAISE(table, arrow::Table::MakeEmpty(arrow::schema({})));
  }
  for (int64_t i = 0; i < count; i++) {
    ARROW_ASSIGN_OR_RAISE(auto column, Appended(kinds[i], data[i], offsets[i], rows));
    auto chunked = std::make_shared<arrow::ChunkedArray>(column);
    const int existing = table->schema()->GetFieldIndex(names[i]);
    if (table->num_columns() == 0) {
      // A table with no columns yet (no base): the first column sets the rows.
      table = arrow::Table::Make(arrow::schema({arrow::field(names[i], column->type())}), {chunked}, rows);
    } else if (existing >= 0) {
      // A column of the base's name replaces it, in its place (a
      // normalization job's rewritten column).
      ARROW_ASSIGN_OR_RAISE(table, table->SetColumn(existing, arrow::field(names[i], column->type()), chunked));
    } else {
      ARROW_ASSIGN_OR_RAISE(table,
                            table->AddColumn(table->num_columns(), arrow::field(names[i], column->type()), chunked));
    }
  }
  // Spark keeps its own copy of the schema in the file's metadata and
  // reads that, not the file's: without the appended columns it would hide
  // them. The copy is dropped (Spark then reads the file's schema); other
  // keys (pandas', Spark's calendar flags) stay.
  if (auto metadata = table->schema()->metadata()) {
    auto kept = metadata->Copy();
    const char* key = "org.apache.spark.sql.parquet.row.metadata";
    if (kept->Contains(key)) ARROW_RETURN_NOT_OK(kept->Delete(key));
    table = table->ReplaceSchemaMetadata(kept);
  }
  ARROW_ASSIGN_OR_RAISE(auto sink, arrow::io::BufferOutputStream::Create());
  auto properties = parquet::WriterProperties::Builder().compression(parquet::Compression::SNAPPY)->build();
  auto arrow_properties = parquet::ArrowWriterProperties::Builder().store_schema()->build();
  ARROW_RETURN_NOT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, 1 << 20, properties,
                                                 arrow_properties));
  ARROW_ASSIGN_OR_RAISE(*out, sink->Finish());
  return arrow::Status::OK();
}

// Buffers, joined in order, into malloc'd memory the caller frees with
// ohana_parquet_free.
bool Give(const std::vector<std::shared_ptr<arrow::Buffer>>& buffers, uint8_t** out, int64_t* length) {
  int64_t size = 0;
  for (const auto& b : buffers) size += b->size();
  *out = static_cast<uint8_t*>(std::malloc(size > 0 ? size : 1));
  if (!*out) return false;
  int64_t at = 0;
  for (const auto& b : buffers) {
    if (b->size() > 0) std::memcpy(*out + at, b->data(), b->size());
    at += b->size();
  }
  *length = size;
  return true;
}

#endif

}  // namespace

extern "C" int32_t ohana_parquet_available(void) {
#ifdef OHANA_HAVE_PARQUET
  return 1;
#else
  return 0;
#endif
}

extern "C" void ohana_parquet_free(void* p) { std::free(p); }

extern "C" int32_t ohana_parquet_read_csv(const char* path, uint8_t** out, int64_t* length, int64_t* rows,
                                          char* error, int64_t capacity) {
#ifdef OHANA_HAVE_PARQUET
  if (!path || !out || !length || !rows) return fail(error, capacity, "NULL argument");
  std::vector<std::shared_ptr<arrow::Buffer>> parts;
  auto status = ReadCSV(path, &parts, rows);
  if (!status.ok()) return fail(error, capacity, status.ToString());
  if (!Give(parts, out, length)) return fail(error, capacity, "out of memory");
  return 0;
#else
  (void)path, (void)out, (void)length, (void)rows;
  return fail(error, capacity, "this build of ohana reads no Parquet (build it with --traits Parquet)");
#endif
}

extern "C" int32_t ohana_parquet_write_appended(const char* input, int64_t count, const char* const* names,
                                                const int32_t* kinds, const void* const* data,
                                                const int32_t* const* offsets, const int64_t* take,
                                                int64_t take_count, int64_t rows, uint8_t** out, int64_t* length,
                                                char* error, int64_t capacity) {
#ifdef OHANA_HAVE_PARQUET
  if (!out || !length || (count > 0 && (!names || !kinds || !data || !offsets)) || rows < 0 || take_count < 0)
    return fail(error, capacity, "NULL argument");
  if (!input && count == 0) return fail(error, capacity, "no columns to write");
  std::shared_ptr<arrow::Buffer> buffer;
  auto status = WriteAppended(input, count, names, kinds, data, offsets, take, take_count, rows, &buffer);
  if (!status.ok()) return fail(error, capacity, status.ToString());
  if (!Give({buffer}, out, length)) return fail(error, capacity, "out of memory");
  return 0;
#else
  (void)input, (void)count, (void)names, (void)kinds, (void)data, (void)offsets, (void)take, (void)take_count,
      (void)rows, (void)out, (void)length;
  return fail(error, capacity, "this build of ohana writes no Parquet (build it with --traits Parquet)");
#endif
}
