#ifndef PRODUCT_CATALOG_CSQLITE_SHIM_H
#define PRODUCT_CATALOG_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_STATIC and SQLITE_TRANSIENT are casts of integers to function pointers,
// which Swift cannot import as macros.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call: SQLITE_CONFIG_MEMSTATUS off, before
// SQLite initializes (SQLITE_MISUSE after).
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

#endif
