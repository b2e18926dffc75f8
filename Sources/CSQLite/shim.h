// The system SQLite (Debian libsqlite3-dev), for the entity store
// (Sources/OhanaStore). SQLITE_TRANSIENT is a macro Swift cannot import.
#ifndef OHANA_CSQLITE_SHIM_H
#define OHANA_CSQLITE_SHIM_H
#include <sqlite3.h>

static inline sqlite3_destructor_type ohana_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
