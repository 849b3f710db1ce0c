#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Turns off SQLite's count of the memory it holds, which no part of
/// contactsdb reads: every allocation and free then skips a global mutex.
/// Takes effect only before SQLite's first use in the process; returns 1
/// when it did, 0 when SQLite was in use already.
int csqlite_stop_counting_memory(void);

#endif
