/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SQLite backend of the store: one file in WAL mode; every statement is
 * prepared with bound parameters, none is built from outside text. */
#include "net/store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "net/wire/ident.h"

/* The store's tables, version by version: each step takes a file of the
 * version before it to the next one, in one transaction, and the version
 * reached is written in meta under "schema". A file made before versions
 * were written holds none (0): step 1 is the tables of that time, made
 * when missing, so that it takes a new file and any file of then alike. */
static const char pragmas[] =
	"PRAGMA journal_mode=WAL;"
	"PRAGMA synchronous=NORMAL;"
	"PRAGMA foreign_keys=ON;";

/* The highest table id given, kept when its table is removed (ids are
 * never given twice); and the schema's version. */
static const char meta_schema[] = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);";

/* Version 1: accounts, tables and their journals, guests' sessions. */
static const char schema_1[] =
	"CREATE TABLE IF NOT EXISTS accounts (name TEXT PRIMARY KEY, hash TEXT NOT NULL,"
	"  created INTEGER NOT NULL DEFAULT (strftime('%s','now')));"
	"CREATE TABLE IF NOT EXISTS tables (id INTEGER PRIMARY KEY, game TEXT NOT NULL,"
	"  players INTEGER NOT NULL, seed TEXT NOT NULL, state INTEGER NOT NULL,"
	"  creator TEXT NOT NULL, private INTEGER NOT NULL, pwhash TEXT NOT NULL,"
	"  rules TEXT NOT NULL, seats TEXT NOT NULL, watchers TEXT NOT NULL DEFAULT '[]',"
	"  seed_by INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS journal (tab INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,"
	"  n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (tab, n));"
	"CREATE TABLE IF NOT EXISTS sessions (name TEXT PRIMARY KEY, hash TEXT NOT NULL,"
	"  expires INTEGER NOT NULL);";

/* Version 2: accounts that remember: their settings, figures and ratings
 * per game, and their last games. */
static const char schema_2[] =
	"ALTER TABLE accounts ADD COLUMN lang TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE accounts ADD COLUMN verbosity INTEGER NOT NULL DEFAULT -1;"
	"ALTER TABLE accounts ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';"
	"CREATE TABLE stats (name TEXT NOT NULL, game TEXT NOT NULL, games INTEGER NOT NULL,"
	"  deals INTEGER NOT NULL, won INTEGER NOT NULL, net INTEGER NOT NULL, PRIMARY KEY (name, game));"
	"CREATE TABLE ratings (name TEXT NOT NULL, game TEXT NOT NULL, r REAL NOT NULL, rd REAL NOT NULL,"
	"  sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (name, game));"
	"CREATE INDEX ratings_game ON ratings (game, r);"
	"CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, tab INTEGER NOT NULL, game TEXT NOT NULL,"
	"  ended INTEGER NOT NULL, deals INTEGER NOT NULL, rated INTEGER NOT NULL);"
	"CREATE TABLE game_players (gid INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL, seat INTEGER NOT NULL, place INTEGER NOT NULL, won INTEGER NOT NULL,"
	"  net INTEGER NOT NULL, PRIMARY KEY (gid, name));"
	"CREATE INDEX game_players_name ON game_players (name, gid);";

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	errf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

static int to_1(sqlite3 *db, char *err, size_t errlen)
{
	if (exec(db, schema_1, err, errlen) < 0)
		return -1;
	/* A file made before the spectators were kept: their column is added
	 * (no spectators yet). */
	sqlite3_stmt *st = NULL;
	int has = sqlite3_prepare_v2(db, "SELECT watchers FROM tables LIMIT 0", -1, &st, NULL) == SQLITE_OK;
	sqlite3_finalize(st);
	if (!has && exec(db, "ALTER TABLE tables ADD COLUMN watchers TEXT NOT NULL DEFAULT '[]'", err, errlen) < 0)
		return -1;
	/* A file made before a table said who chose its seed: the server did
	 * (a client's seed was not marked then). */
	st = NULL;
	has = sqlite3_prepare_v2(db, "SELECT seed_by FROM tables LIMIT 0", -1, &st, NULL) == SQLITE_OK;
	sqlite3_finalize(st);
	return has ? 0 : exec(db, "ALTER TABLE tables ADD COLUMN seed_by INTEGER NOT NULL DEFAULT 0", err, errlen);
}

static int to_2(sqlite3 *db, char *err, size_t errlen) { return exec(db, schema_2, err, errlen); }

/* Version 3: a table's owner number, for the fencing of a store several
 * servers share (PostgreSQL); one server's file keeps it at 0. */
static int to_3(sqlite3 *db, char *err, size_t errlen)
{
	return exec(db, "ALTER TABLE tables ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0", err, errlen);
}

/* The bans, as moderation made them before version 5, for version 4 to
 * add to when they are not there yet. */
#define BANS_SCHEMA                                                                                                \
	"CREATE TABLE IF NOT EXISTS bans (name TEXT PRIMARY KEY, until INTEGER NOT NULL,"                          \
	"  reason TEXT NOT NULL, by TEXT NOT NULL);"

/* Version 4: the look of every account's and every ban's name (its two
 * keys, net/ident), indexed: a new name is compared with every account,
 * and with every ban, present or not. */
static const char schema_4[] =
	BANS_SCHEMA
	"ALTER TABLE accounts ADD COLUMN look0 TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE accounts ADD COLUMN look1 TEXT NOT NULL DEFAULT '';"
	"CREATE INDEX accounts_look0 ON accounts (look0);"
	"CREATE INDEX accounts_look1 ON accounts (look1);"
	"ALTER TABLE bans ADD COLUMN look0 TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE bans ADD COLUMN look1 TEXT NOT NULL DEFAULT '';"
	"CREATE INDEX bans_look0 ON bans (look0);"
	"CREATE INDEX bans_look1 ON bans (look1);";

/* The keys of every name of a table (accounts or bans) written. */
static int looks_fill(sqlite3 *db, const char *table, char *err, size_t errlen)
{
	char sel[80], upd[120];
	snprintf(sel, sizeof sel, "SELECT name FROM %s", table);
	snprintf(upd, sizeof upd, "UPDATE %s SET look0 = ?1, look1 = ?2 WHERE name = ?3", table);
	sqlite3_stmt *q = NULL, *u = NULL;
	if (sqlite3_prepare_v2(db, sel, -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, upd, -1, &u, NULL) != SQLITE_OK) {
		errf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlite3_finalize(q);
		sqlite3_finalize(u);
		return -1;
	}
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct ident_keys k;
		ident_keys_of((const char *)sqlite3_column_text(q, 0), &k);
		sqlite3_bind_text(u, 1, k.k[0], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(u, 2, k.k[1], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(u, 3, (const char *)sqlite3_column_text(q, 0), -1, SQLITE_TRANSIENT);
		if (sqlite3_step(u) != SQLITE_DONE) {
			rc = SQLITE_ERROR;
			break;
		}
		sqlite3_reset(u);
	}
	if (rc != SQLITE_DONE)
		errf(err, errlen, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int to_4(sqlite3 *db, char *err, size_t errlen)
{
	return exec(db, schema_4, err, errlen) < 0 || looks_fill(db, "accounts", err, errlen) < 0 ||
	               looks_fill(db, "bans", err, errlen) < 0
	           ? -1
	           : 0;
}

/* Version 5: moderation's roles, audit and mutes (the bans came with 4).
 * A file of version 4 or less may hold them already (they were made
 * outside the versions before): made when missing. From this version on,
 * every table of the store is made by a step, so that a later version can
 * change them. */
static const char schema_5[] =
	"CREATE TABLE IF NOT EXISTS roles (name TEXT PRIMARY KEY, role TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL,"
	"  who TEXT NOT NULL, whom TEXT NOT NULL, what TEXT NOT NULL, until INTEGER NOT NULL,"
	"  reason TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS mutes (owner TEXT NOT NULL, target TEXT NOT NULL,"
	"  PRIMARY KEY (owner, target));";

static int to_5(sqlite3 *db, char *err, size_t errlen) { return exec(db, schema_5, err, errlen); }

/* steps[v] takes version v to v + 1. */
static int (*const steps[STORE_SCHEMA_VERSION])(sqlite3 *db, char *err, size_t errlen) = { to_1, to_2, to_3, to_4,
                                                                                         to_5 };

/* The version of the file (0: none written), or -1. */
static int schema_version(sqlite3 *db, long long *v)
{
	sqlite3_stmt *st = NULL;
	*v = 0;
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema'", -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* 1 when the file has a column of the tables of version 2 or later. */
static int has_later_columns(sqlite3 *db)
{
	static const char *const probes[] = { "SELECT lang FROM accounts LIMIT 0", "SELECT epoch FROM tables LIMIT 0" };
	for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
		sqlite3_stmt *st = NULL;
		int has = sqlite3_prepare_v2(db, probes[i], -1, &st, NULL) == SQLITE_OK;
		sqlite3_finalize(st);
		if (has)
			return 1;
	}
	return 0;
}

/* Before anything is written: a version that is not a whole number, or
 * none while the tables are of a later version than the first (its row
 * lost), is refused, the file left as it is (taking it for version 0
 * would run the first step on it, write 1, then fail at the second: a
 * file changed and still refused). 0, or -1 with err. */
static int version_sane(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT typeof(value), value FROM meta WHERE key = 'schema'", -1, &st, NULL) ==
	    SQLITE_OK) {
		int rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "integer") != 0) {
			errf(err, errlen, "the store's version is garbled ('%.40s', not a number): restore a backup",
			     (const char *)sqlite3_column_text(st, 1));
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW)
			return 0;
		if (rc != SQLITE_DONE)
			return errf(err, errlen, "cannot read the store's version: %s", sqlite3_errmsg(db));
	} else {
		sqlite3_finalize(st);
	}
	if (has_later_columns(db))
		return errf(err, errlen, "the store's version is missing although its tables are of a later one: "
		            "restore a backup");
	return 0;
}

/* Bring the file to STORE_SCHEMA_VERSION, each step in a transaction of
 * its own (a step that fails leaves the file at the version before it). */
static int upgrade(sqlite3 *db, char *err, size_t errlen)
{
	long long v;
	if (exec(db, meta_schema, err, errlen) < 0)
		return -1;
	if (schema_version(db, &v) < 0)
		return errf(err, errlen, "cannot read the store's version: %s", sqlite3_errmsg(db));
	if (v > STORE_SCHEMA_VERSION || v < 0)
		return errf(err, errlen, "the store is of version %lld, made by a newer tapis (this one knows up to %d)",
		            v, STORE_SCHEMA_VERSION);
	long long from = v;
	for (; v < STORE_SCHEMA_VERSION; v++) {
		char e[200];
		char set[160];
		snprintf(set, sizeof set,
		         "INSERT INTO meta (key, value) VALUES ('schema', %lld)"
		         " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
		         v + 1);
		if (exec(db, "BEGIN IMMEDIATE", e, sizeof e) < 0)
			return errf(err, errlen, "cannot upgrade the store: %s", e);
		if (steps[v](db, e, sizeof e) < 0 || exec(db, set, e, sizeof e) < 0 || exec(db, "COMMIT", e, sizeof e) < 0) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return errf(err, errlen, "cannot upgrade the store from version %lld to %lld: %s", v, v + 1, e);
		}
	}
	store_upgraded(from, STORE_SCHEMA_VERSION);
	return 0;
}

static sqlite3 *db_of(struct store *s) { return s->impl; }

/* The failure's message is kept for the operator (net/store tells it once). */
static int fail(struct store *s, const char *what)
{
	snprintf(s->err, sizeof s->err, "%s: %s", what, sqlite3_errmsg(db_of(s)));
	return -1;
}


static int sq_open(struct store *s, const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	/* A new store is the server's alone (0600); its -wal and -shm files
	 * take its mode. */
	if (strcmp(path, ":memory:") != 0 && path[0]) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return errf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		errf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 2000);
	char e[ERR_MAX];
	if (version_sane(db, e, sizeof e) < 0 || exec(db, pragmas, e, sizeof e) < 0 || upgrade(db, e, sizeof e) < 0) {
		errf(err, errlen, "%s: %s", path, e);
		sqlite3_close(db);
		return -1;
	}
	s->impl = db;
	return 0;
}

static void sq_close(struct store *s)
{
	sqlite3_close(db_of(s));
}

/* Prepare sql; NULL on error (reported). */
static sqlite3_stmt *prep(struct store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db_of(s), sql, -1, &st, NULL) != SQLITE_OK) {
		fail(s, "prepare");
		return NULL;
	}
	return st;
}

/* Step a statement that returns no rows, then finalize it. */
static int done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, what);
}

/* The hash (and, with expires, the second column) of the row of name that
 * sql selects: 1, 0 when there is none, -1 on failure. */
static int get_hash(struct store *s, const char *sql, const char *what, const char *name, char *hash,
                    size_t hashlen, long long *expires)
{
	sqlite3_stmt *st = prep(s, sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), found = 0;
	if (rc == SQLITE_ROW) {
		snprintf(hash, hashlen, "%s", (const char *)sqlite3_column_text(st, 0));
		if (expires)
			*expires = sqlite3_column_int64(st, 1);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = fail(s, what);
	}
	sqlite3_finalize(st);
	return found;
}

static int sq_account_get(struct store *s, const char *name, char *hash, size_t hashlen)
{
	return get_hash(s, "SELECT hash FROM accounts WHERE name = ?1", "account", name, hash, hashlen, NULL);
}

static int sq_account_put(struct store *s, const char *name, const char *hash)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO accounts (name, hash, look0, look1) VALUES (?1, ?2, ?3, ?4)"
	                           " ON CONFLICT(name) DO UPDATE SET hash = excluded.hash");
	if (!st)
		return -1;
	struct ident_keys k;
	ident_keys_of(name, &k);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, k.k[0], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, k.k[1], -1, SQLITE_TRANSIENT);
	return done(s, st, "account");
}

static int sq_account_alike(struct store *s, const struct ident_keys *k, const char *name, char *out, size_t outlen)
{
	sqlite3_stmt *st = prep(s, "SELECT name FROM accounts WHERE (look0 = ?1 OR look1 = ?2) AND name <> ?3 LIMIT 1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, k->k[0], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, k->k[1], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), found = 0;
	if (rc == SQLITE_ROW) {
		snprintf(out, outlen, "%s", (const char *)sqlite3_column_text(st, 0));
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = fail(s, "account");
	}
	sqlite3_finalize(st);
	return found;
}

static int sq_table_put(struct store *s, const struct store_table *t)
{
	/* An upsert, not INSERT OR REPLACE: a replaced row would take its
	 * journal with it (ON DELETE CASCADE). */
	sqlite3_stmt *st = prep(s, "INSERT INTO tables (id, game, players, seed, state, creator,"
	                           " private, pwhash, rules, seats, watchers, seed_by)"
	                           " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"
	                           " ON CONFLICT(id) DO UPDATE SET game = excluded.game, players = excluded.players,"
	                           " seed = excluded.seed, state = excluded.state, creator = excluded.creator,"
	                           " private = excluded.private, pwhash = excluded.pwhash, rules = excluded.rules,"
	                           " seats = excluded.seats, watchers = excluded.watchers,"
	                           " seed_by = excluded.seed_by");
	if (!st)
		return -1;
	char seed[24];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)t->seed);
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_text(st, 2, t->game, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, t->players);
	sqlite3_bind_text(st, 4, seed, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 5, t->state);
	sqlite3_bind_text(st, 6, t->creator, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 7, t->private_);
	sqlite3_bind_text(st, 8, t->pwhash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, t->rules, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, t->seats, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 11, t->watchers[0] ? t->watchers : "[]", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 12, t->seed_by);
	return done(s, st, "table");
}

static int sq_table_delete(struct store *s, long id)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO meta (key, value) VALUES ('last_table', ?1)"
	                           " ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (done(s, st, "meta") < 0)
		return -1;
	st = prep(s, "DELETE FROM journal WHERE tab = ?1");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (done(s, st, "journal") < 0)
		return -1;
	st = prep(s, "DELETE FROM tables WHERE id = ?1");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return done(s, st, "table");
}

static void col(sqlite3_stmt *st, int i, char *out, size_t len)
{
	const unsigned char *v = sqlite3_column_text(st, i);
	snprintf(out, len, "%s", v ? (const char *)v : "");
}

static int sq_table_each(struct store *s, void (*fn)(void *, const struct store_table *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT id, game, players, seed, state, creator, private, pwhash, rules, seats,"
	                           " watchers, seed_by FROM tables ORDER BY id");
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_table t;
		memset(&t, 0, sizeof t);
		char seed[24];
		t.id = (long)sqlite3_column_int64(st, 0);
		col(st, 1, t.game, sizeof t.game);
		t.players = sqlite3_column_int(st, 2);
		col(st, 3, seed, sizeof seed);
		t.seed = strtoull(seed, NULL, 10);
		t.state = sqlite3_column_int(st, 4);
		col(st, 5, t.creator, sizeof t.creator);
		t.private_ = sqlite3_column_int(st, 6);
		col(st, 7, t.pwhash, sizeof t.pwhash);
		col(st, 8, t.rules, sizeof t.rules);
		col(st, 9, t.seats, sizeof t.seats);
		col(st, 10, t.watchers, sizeof t.watchers);
		t.seed_by = sqlite3_column_int(st, 11);
		fn(ctx, &t);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "tables");
}

static int sq_journal_add(struct store *s, long id, int n, int seat, const char *action)
{
	sqlite3_stmt *st = prep(s, "INSERT OR REPLACE INTO journal (tab, n, seat, action) VALUES (?1,?2,?3,?4)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, n);
	sqlite3_bind_int(st, 3, seat);
	sqlite3_bind_text(st, 4, action, -1, SQLITE_TRANSIENT);
	return done(s, st, "journal");
}

static int sq_journal_each(struct store *s, long id, void (*fn)(void *, int, const char *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT seat, action FROM journal WHERE tab = ?1 ORDER BY n");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, sqlite3_column_int(st, 0), (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "journal");
}

static int sq_session_put(struct store *s, const char *name, const char *hash, long long expires)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO sessions (name, hash, expires) VALUES (?1, ?2, ?3)"
	                           " ON CONFLICT(name) DO UPDATE SET hash = excluded.hash, expires = excluded.expires");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, expires);
	return done(s, st, "session");
}

static int sq_session_get(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires)
{
	return get_hash(s, "SELECT hash, expires FROM sessions WHERE name = ?1", "session", name, hash, hashlen,
	                expires);
}

static int sq_session_delete(struct store *s, const char *name)
{
	sqlite3_stmt *st = prep(s, "DELETE FROM sessions WHERE name = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	return done(s, st, "session");
}

static int sq_last_id(struct store *s, long *id)
{
	sqlite3_stmt *st = prep(s, "SELECT max(coalesce((SELECT value FROM meta WHERE key = 'last_table'), 0),"
	                           " coalesce((SELECT max(id) FROM tables), 0))");
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(s, "meta");
}

static int sq_flag_get(struct store *s, const char *key, long long *v)
{
	sqlite3_stmt *st = prep(s, "SELECT value FROM meta WHERE key = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail(s, "meta");
}

static int sq_flag_put(struct store *s, const char *key, long long v)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO meta (key, value) VALUES (?1, ?2)"
	                           " ON CONFLICT(key) DO UPDATE SET value = excluded.value");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, v);
	return done(s, st, "meta");
}

static int sq_role_get(struct store *s, const char *name, char *role, size_t rolelen)
{
	return get_hash(s, "SELECT role FROM roles WHERE name = ?1", "role", name, role, rolelen, NULL);
}

static int sq_role_put(struct store *s, const char *name, const char *role)
{
	int none = !strcmp(role, "player");
	sqlite3_stmt *st = prep(s, none ? "DELETE FROM roles WHERE name = ?1"
	                                : "INSERT INTO roles (name, role) VALUES (?1, ?2)"
	                                  " ON CONFLICT(name) DO UPDATE SET role = excluded.role");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	if (!none)
		sqlite3_bind_text(st, 2, role, -1, SQLITE_TRANSIENT);
	return done(s, st, "role");
}

static int sq_role_each(struct store *s, void (*fn)(void *, const char *, const char *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT name, role FROM roles ORDER BY name");
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "roles");
}

static int sq_ban_put(struct store *s, const struct store_ban *b)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO bans (name, until, reason, by, look0, look1) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
	                           " ON CONFLICT(name) DO UPDATE SET until = excluded.until,"
	                           " reason = excluded.reason, by = excluded.by");
	if (!st)
		return -1;
	struct ident_keys k;
	ident_keys_of(b->name, &k);
	sqlite3_bind_text(st, 1, b->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, b->until);
	sqlite3_bind_text(st, 3, b->reason, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, b->by, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, k.k[0], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, k.k[1], -1, SQLITE_TRANSIENT);
	return done(s, st, "ban");
}

static void ban_row(sqlite3_stmt *st, struct store_ban *b);

static int ban_step(struct store *s, sqlite3_stmt *st, struct store_ban *b);
static int sq_ban_alike(struct store *s, const struct ident_keys *k, const char *name, struct store_ban *b)
{
	sqlite3_stmt *st = prep(s, "SELECT name, until, reason, by FROM bans"
	                           " WHERE name = ?3 OR look0 = ?1 OR look1 = ?2 ORDER BY until DESC LIMIT 1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, k->k[0], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, k->k[1], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
	return ban_step(s, st, b);
}

static void ban_row(sqlite3_stmt *st, struct store_ban *b)
{
	memset(b, 0, sizeof *b);
	col(st, 0, b->name, sizeof b->name);
	b->until = sqlite3_column_int64(st, 1);
	col(st, 2, b->reason, sizeof b->reason);
	col(st, 3, b->by, sizeof b->by);
}

/* The bound statement st stepped once: 1 with its ban in b, 0 when none,
 * -1 on failure; st finalized. */
static int ban_step(struct store *s, sqlite3_stmt *st, struct store_ban *b)
{
	int rc = sqlite3_step(st), found = 0;
	if (rc == SQLITE_ROW) {
		ban_row(st, b);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = fail(s, "ban");
	}
	sqlite3_finalize(st);
	return found;
}

static int sq_ban_get(struct store *s, const char *name, struct store_ban *b)
{
	sqlite3_stmt *st = prep(s, "SELECT name, until, reason, by FROM bans WHERE name = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	return ban_step(s, st, b);
}

static int sq_ban_delete(struct store *s, const char *name)
{
	sqlite3_stmt *st = prep(s, "DELETE FROM bans WHERE name = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	return done(s, st, "ban");
}

static int sq_ban_each(struct store *s, void (*fn)(void *, const struct store_ban *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT name, until, reason, by FROM bans ORDER BY name");
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_ban b;
		ban_row(st, &b);
		fn(ctx, &b);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "bans");
}

static int sq_audit_add(struct store *s, const struct store_audit *a)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO audit (at, who, whom, what, until, reason)"
	                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a->when);
	sqlite3_bind_text(st, 2, a->who, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, a->whom, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, a->what, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, a->until);
	sqlite3_bind_text(st, 6, a->reason, -1, SQLITE_TRANSIENT);
	return done(s, st, "audit");
}

static int sq_audit_each(struct store *s, void (*fn)(void *, const struct store_audit *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT at, who, whom, what, until, reason FROM audit ORDER BY id");
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_audit a;
		memset(&a, 0, sizeof a);
		a.when = sqlite3_column_int64(st, 0);
		col(st, 1, a.who, sizeof a.who);
		col(st, 2, a.whom, sizeof a.whom);
		col(st, 3, a.what, sizeof a.what);
		a.until = sqlite3_column_int64(st, 4);
		col(st, 5, a.reason, sizeof a.reason);
		fn(ctx, &a);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "audit");
}

static int sq_mute_put(struct store *s, const char *owner, const char *target, int on)
{
	sqlite3_stmt *st = prep(s, on ? "INSERT OR IGNORE INTO mutes (owner, target) VALUES (?1, ?2)"
	                              : "DELETE FROM mutes WHERE owner = ?1 AND target = ?2");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, owner, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, target, -1, SQLITE_TRANSIENT);
	return done(s, st, "mute");
}

static int sq_mute_each(struct store *s, const char *owner, void (*fn)(void *, const char *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT target FROM mutes WHERE owner = ?1 ORDER BY target");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, owner, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "mutes");
}

static int sq_settings_get(struct store *s, const char *name, struct store_settings *out)
{
	sqlite3_stmt *st = prep(s, "SELECT lang, verbosity, settings FROM accounts WHERE name = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), found = 0;
	if (rc == SQLITE_ROW) {
		col(st, 0, out->lang, sizeof out->lang);
		out->verbosity = sqlite3_column_int(st, 1);
		col(st, 2, out->extra, sizeof out->extra);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = fail(s, "account");
	}
	sqlite3_finalize(st);
	return found;
}

static int sq_settings_put(struct store *s, const char *name, const struct store_settings *in)
{
	sqlite3_stmt *st = prep(s, "UPDATE accounts SET lang = ?2, verbosity = ?3, settings = ?4 WHERE name = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, in->lang, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, in->verbosity);
	sqlite3_bind_text(st, 4, in->extra[0] ? in->extra : "{}", -1, SQLITE_TRANSIENT);
	return done(s, st, "account");
}

static int sq_rating_get(struct store *s, const char *name, const char *game, struct rating *out)
{
	sqlite3_stmt *st = prep(s, "SELECT r, rd, sigma FROM ratings WHERE name = ?1 AND game = ?2");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, game, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), found = 0;
	if (rc == SQLITE_ROW) {
		out->r = sqlite3_column_double(st, 0);
		out->rd = sqlite3_column_double(st, 1);
		out->sigma = sqlite3_column_double(st, 2);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = fail(s, "rating");
	}
	sqlite3_finalize(st);
	return found;
}

/* One player's part of a recorded game (in the transaction of sq_game_record). */
static int record_player(struct store *s, const struct store_game *g, long long gid,
                         const struct store_game_player *p)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO game_players (gid, name, seat, place, won, net)"
	                           " VALUES (?1,?2,?3,?4,?5,?6)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, gid);
	sqlite3_bind_text(st, 2, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, p->seat);
	sqlite3_bind_int(st, 4, p->place);
	sqlite3_bind_int(st, 5, p->won);
	sqlite3_bind_int64(st, 6, p->net);
	if (done(s, st, "game_players") < 0)
		return -1;
	st = prep(s, "INSERT INTO stats (name, game, games, deals, won, net) VALUES (?1,?2,1,?3,?4,?5)"
	             " ON CONFLICT(name, game) DO UPDATE SET games = games + 1, deals = deals + excluded.deals,"
	             " won = won + excluded.won, net = net + excluded.net");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, g->game, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, g->deals);
	sqlite3_bind_int(st, 4, p->won);
	sqlite3_bind_int64(st, 5, p->net);
	if (done(s, st, "stats") < 0)
		return -1;
	if (g->rated) {
		st = prep(s, "INSERT INTO ratings (name, game, r, rd, sigma, games) VALUES (?1,?2,?3,?4,?5,1)"
		             " ON CONFLICT(name, game) DO UPDATE SET r = excluded.r, rd = excluded.rd,"
		             " sigma = excluded.sigma, games = games + 1");
		if (!st)
			return -1;
		sqlite3_bind_text(st, 1, p->name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, g->game, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, p->after.r);
		sqlite3_bind_double(st, 4, p->after.rd);
		sqlite3_bind_double(st, 5, p->after.sigma);
		if (done(s, st, "ratings") < 0)
			return -1;
	}
	/* Only the player's last games are kept (one goes at most, each time);
	 * a game nobody keeps any more goes too. */
	st = prep(s, "SELECT gid FROM game_players WHERE name = ?1 ORDER BY gid DESC LIMIT -1 OFFSET ?2");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, STORE_RECENT_GAMES);
	long long old[8];
	int nold = 0, rc;
	while (nold < 8 && (rc = sqlite3_step(st)) == SQLITE_ROW)
		old[nold++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (int i = 0; i < nold; i++) {
		if (!(st = prep(s, "DELETE FROM game_players WHERE gid = ?1 AND name = ?2")))
			return -1;
		sqlite3_bind_int64(st, 1, old[i]);
		sqlite3_bind_text(st, 2, p->name, -1, SQLITE_TRANSIENT);
		if (done(s, st, "game_players") < 0)
			return -1;
		if (!(st = prep(s, "DELETE FROM games WHERE id = ?1 AND NOT EXISTS"
		                   " (SELECT 1 FROM game_players WHERE gid = ?1)")))
			return -1;
		sqlite3_bind_int64(st, 1, old[i]);
		if (done(s, st, "games") < 0)
			return -1;
	}
	return 0;
}

static int sq_game_record(struct store *s, struct store_game *g)
{
	if (sqlite3_exec(db_of(s), "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "games");
	sqlite3_stmt *st = prep(s, "INSERT INTO games (tab, game, ended, deals, rated) VALUES (?1,?2,?3,?4,?5)");
	int rc = -1;
	if (st) {
		sqlite3_bind_int64(st, 1, g->table);
		sqlite3_bind_text(st, 2, g->game, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 3, g->ended);
		sqlite3_bind_int(st, 4, g->deals);
		sqlite3_bind_int(st, 5, g->rated);
		rc = done(s, st, "games");
	}
	long long gid = sqlite3_last_insert_rowid(db_of(s));
	for (int i = 0; rc == 0 && i < g->n; i++)
		rc = record_player(s, g, gid, &g->p[i]);
	/* A game of nobody registered is not kept. */
	if (rc == 0 && !g->n && (st = prep(s, "DELETE FROM games WHERE id = ?1"))) {
		sqlite3_bind_int64(st, 1, gid);
		rc = done(s, st, "games");
	}
	if (rc == 0 && sqlite3_exec(db_of(s), "COMMIT", NULL, NULL, NULL) == SQLITE_OK) {
		g->id = g->n ? gid : 0;
		return 0;
	}
	if (rc == 0)
		fail(s, "games");
	sqlite3_exec(db_of(s), "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static void stat_row(sqlite3_stmt *st, struct store_stat *x)
{
	memset(x, 0, sizeof *x);
	col(st, 0, x->name, sizeof x->name);
	col(st, 1, x->game, sizeof x->game);
	x->games = sqlite3_column_int(st, 2);
	x->deals = sqlite3_column_int(st, 3);
	x->won = sqlite3_column_int(st, 4);
	x->net = sqlite3_column_int64(st, 5);
	x->has_rating = sqlite3_column_type(st, 6) != SQLITE_NULL;
	rating_init(&x->rating);
	if (x->has_rating) {
		x->rating.r = sqlite3_column_double(st, 6);
		x->rating.rd = sqlite3_column_double(st, 7);
		x->rating.sigma = sqlite3_column_double(st, 8);
		x->rated_games = sqlite3_column_int(st, 9);
	}
}

static int stat_rows(struct store *s, sqlite3_stmt *st, void (*fn)(void *, const struct store_stat *), void *ctx)
{
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_stat x;
		stat_row(st, &x);
		fn(ctx, &x);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "stats");
}

static int sq_stat_each(struct store *s, const char *name, void (*fn)(void *, const struct store_stat *),
                        void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT s.name, s.game, s.games, s.deals, s.won, s.net, r.r, r.rd, r.sigma, r.games"
	                           " FROM stats s LEFT JOIN ratings r ON r.name = s.name AND r.game = s.game"
	                           " WHERE s.name = ?1 ORDER BY s.game");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	return stat_rows(s, st, fn, ctx);
}

static int sq_leaders(struct store *s, const char *game, int n, void (*fn)(void *, const struct store_stat *),
                      void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT r.name, r.game, coalesce(s.games, 0), coalesce(s.deals, 0),"
	                           " coalesce(s.won, 0), coalesce(s.net, 0), r.r, r.rd, r.sigma, r.games"
	                           " FROM ratings r LEFT JOIN stats s ON s.name = r.name AND s.game = r.game"
	                           " WHERE r.game = ?1 ORDER BY r.r DESC, r.games DESC, r.name LIMIT ?2");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, n);
	return stat_rows(s, st, fn, ctx);
}

static int sq_recent(struct store *s, const char *name, void (*fn)(void *, const struct store_played *), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT g.tab, g.game, g.ended, p.seat, p.place, p.won, g.rated, p.net, g.id"
	                           " FROM game_players p JOIN games g ON g.id = p.gid"
	                           " WHERE p.name = ?1 ORDER BY p.gid DESC");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_played p;
		memset(&p, 0, sizeof p);
		p.table = (long)sqlite3_column_int64(st, 0);
		col(st, 1, p.game, sizeof p.game);
		p.ended = sqlite3_column_int64(st, 2);
		p.seat = sqlite3_column_int(st, 3);
		p.place = sqlite3_column_int(st, 4);
		p.won = sqlite3_column_int(st, 5);
		p.rated = sqlite3_column_int(st, 6);
		p.net = sqlite3_column_int64(st, 7);
		p.id = sqlite3_column_int64(st, 8);
		fn(ctx, &p);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "games");
}

/* The full name of path: its folder's real path, then its own name (""
 * when the folder cannot be resolved). */
static void full_name(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real)) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path);
}

/* 1 when path is the store db or one of the files SQLite keeps beside it:
 * the same file (device and inode: a hard link, a symbolic link, another
 * spelling) or the same full name (a companion not there now). */
static int store_file(const char *db, const char *path)
{
	static const char *const beside[] = { "", "-wal", "-shm", "-journal" };
	struct stat p, f;
	int there = stat(path, &p) == 0;
	char mine[PATH_MAX + 8], theirs[PATH_MAX + 8], name[PATH_MAX + 16];
	full_name(path, mine, sizeof mine);
	for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
		snprintf(name, sizeof name, "%s%s", db, beside[i]);
		if (there && stat(name, &f) == 0 && f.st_dev == p.st_dev && f.st_ino == p.st_ino)
			return 1;
		full_name(name, theirs, sizeof theirs);
		if (mine[0] && !strcmp(mine, theirs))
			return 1;
	}
	return 0;
}

/* Where a backup may go: not the store nor its companions (a copy renamed
 * onto them would lose what the server wrote since), nor anything that is
 * there and is not a regular file (a device, a folder, a pipe); its
 * ".part" (made, then renamed) neither. 0, or -1 with err. */
static int backup_target(const char *db, const char *path, const char *tmp, char *err, size_t errlen)
{
	struct stat t;
	if (db && db[0] && (store_file(db, path) || store_file(db, tmp)))
		return errf(err, errlen, "%s: that is the store itself or one of its files (-wal, -shm, -journal): "
		            "give the copy another name", path);
	if (stat(path, &t) == 0 && !S_ISREG(t.st_mode))
		return errf(err, errlen, "%s: not a regular file: give a new name or a file to replace", path);
	if (lstat(tmp, &t) == 0 && !S_ISREG(t.st_mode))
		return errf(err, errlen, "%s: not a regular file", tmp);
	return 0;
}

/* Copy src into a new file at path with the online backup: a few pages a
 * step, waiting while the server writes, so that it never stops for us. */
static int backup_db(sqlite3 *src, const char *path, char *err, size_t errlen)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp)
		return errf(err, errlen, "%s: the name is too long", path);
	if (backup_target(sqlite3_db_filename(src, "main"), path, tmp, err, errlen) < 0)
		return -1;
	unlink(tmp);
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errf(err, errlen, "%s: %s", tmp, strerror(errno));
	close(fd);
	sqlite3 *dst = NULL;
	if (sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		errf(err, errlen, "%s: %s", tmp, dst ? sqlite3_errmsg(dst) : "cannot open");
		sqlite3_close(dst);
		unlink(tmp);
		return -1;
	}
	sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
	int rc = SQLITE_ERROR;
	if (b) {
		do {
			rc = sqlite3_backup_step(b, 64);
			if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
				sqlite3_sleep(20);
		} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
		sqlite3_backup_finish(b);
	}
	if (rc != SQLITE_DONE) {
		errf(err, errlen, "%s: %s", path, sqlite3_errmsg(dst));
		sqlite3_close(dst);
		unlink(tmp);
		return -1;
	}
	/* The copy is a store on its own: one file, no -wal beside it. */
	sqlite3_exec(dst, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
	sqlite3_close(dst);
	if (rename(tmp, path) < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static int sq_backup(struct store *s, const char *path, char *err, size_t errlen)
{
	return backup_db(db_of(s), path, err, errlen);
}

int store_backup_file(const char *db, const char *path, char *err, size_t errlen)
{
	sqlite3 *src = NULL;
	if (access(db, R_OK) != 0)
		return errf(err, errlen, "%s: %s", db, strerror(errno));
	if (sqlite3_open_v2(db, &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		errf(err, errlen, "%s: %s", db, src ? sqlite3_errmsg(src) : "cannot open");
		sqlite3_close(src);
		return -1;
	}
	sqlite3_busy_timeout(src, 2000);
	int rc = backup_db(src, path, err, errlen);
	sqlite3_close(src);
	return rc;
}

const struct store_ops store_sqlite_ops = {
	.name = "sqlite",
	.open = sq_open,
	.close = sq_close,
	.account_get = sq_account_get,
	.account_put = sq_account_put,
	.account_alike = sq_account_alike,
	.table_put = sq_table_put,
	.table_delete = sq_table_delete,
	.table_each = sq_table_each,
	.journal_add = sq_journal_add,
	.journal_each = sq_journal_each,
	.session_put = sq_session_put,
	.session_get = sq_session_get,
	.session_delete = sq_session_delete,
	.last_id = sq_last_id,
	.flag_get = sq_flag_get,
	.flag_put = sq_flag_put,
	.role_get = sq_role_get,
	.role_put = sq_role_put,
	.role_each = sq_role_each,
	.ban_put = sq_ban_put,
	.ban_get = sq_ban_get,
	.ban_alike = sq_ban_alike,
	.ban_delete = sq_ban_delete,
	.ban_each = sq_ban_each,
	.audit_add = sq_audit_add,
	.audit_each = sq_audit_each,
	.mute_put = sq_mute_put,
	.mute_each = sq_mute_each,
	.settings_get = sq_settings_get,
	.settings_put = sq_settings_put,
	.rating_get = sq_rating_get,
	.game_record = sq_game_record,
	.stat_each = sq_stat_each,
	.leaders = sq_leaders,
	.recent = sq_recent,
	.backup = sq_backup,
};
