/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pgtmp: a PostgreSQL of the tests' own, for the suites that try the
 * store on it. Debian's binaries (/usr/lib/postgresql/N/bin), a cluster in
 * a temporary folder listening on a free loopback port (its socket in that
 * folder, fsync off), run as the postgres user when the tests run as root
 * (initdb and postgres refuse root); stopped and removed by pgtmp_stop.
 * Started once in main(), before the suite's tests (forked children each
 * take a fresh database of it). */
#ifndef TAPIS_TESTS_PGTMP_H
#define TAPIS_TESTS_PGTMP_H

#include <stddef.h>

struct pgtmp {
	char dir[64];       /* the temporary folder ("" : none) */
	char bin[256];      /* the folder of initdb, pg_ctl */
	int port;
	int up;             /* the server runs */
};

/* 1 started, 0 PostgreSQL is not installed (why in err), -1 failed (err). */
int pgtmp_start(struct pgtmp *p, char *err, size_t errlen);
/* Stop the server (immediate) and remove its folder; nothing when not started. */
void pgtmp_stop(struct pgtmp *p);
/* Stop the server, its folder kept (0 or -1), and start it again on the
 * same port (0 or -1): PostgreSQL restarted under a running store. */
int pgtmp_halt(struct pgtmp *p);
int pgtmp_resume(struct pgtmp *p);
/* The URL of a database of that name (made empty: dropped first, then
 * created). 0, or -1 with err. */
int pgtmp_db(const struct pgtmp *p, const char *name, char *url, size_t len, char *err, size_t errlen);
/* Run one SQL text on the database of url (no parameters: the tests' own
 * statements). 0, or -1 with err. */
int pgtmp_sql(const char *url, const char *sql, char *err, size_t errlen);
/* What the suites do without PostgreSQL: under CI=true it is a failure
 * (1), elsewhere a skip said once on stderr (0). */
int pgtmp_missing_fails(const char *why);

#endif
