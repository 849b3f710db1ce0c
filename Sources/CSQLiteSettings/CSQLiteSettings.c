#include "CSQLiteSettings.h"

#include <sqlite3.h>

// sqlite3_config takes variadic arguments, which Swift cannot pass.
int csqlite_stop_counting_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
}
