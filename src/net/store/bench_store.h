/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_store: `tapis bench --store URL|FILE [--json]`: the time of the
 * store's common operations, as the server calls them on its loop:
 * account_get (a login), table_put (a table saved) and journal_add (a move
 * kept), n times each, on a PostgreSQL database (postgresql:// URL) or a
 * SQLite file. It writes accounts named bench-N and tables from the
 * highest id on (removed at the end): give it a store of its own. */
#ifndef TAPIS_BENCH_STORE_H
#define TAPIS_BENCH_STORE_H

#include <stddef.h>
#include <stdio.h>

/* Print the figures (median, p99, max in ms for each operation); 0, or -1
 * with a message. */
int bench_store_run(const char *where, int n, int json, FILE *out, char *err, size_t errlen);

#endif
