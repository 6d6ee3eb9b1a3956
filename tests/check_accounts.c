/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Accounts that remember, and the store that keeps them: the figures,
 * ratings and last games of both backends; a finished game among two
 * registered players recorded and rated (Glicko-2 by their places), told
 * with "stats" and "leaders" in each one's language, its hand history
 * fetched with "history" and replayed by `tapis replay`; a game someone
 * left is not rated; settings kept and applied at the next login; the
 * lobby's people found by name as they come and go; an older
 * store file upgraded in place; and a backup made while a server runs that
 * a server opens. */
#define _GNU_SOURCE
#include <check.h>
#include <glob.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "core/rng.h"
#include "net/server/auth.h"
#include "net/server/lobby.h"
#include "net/store/rating.h"
#include "net/server/server.h"
#include "net/server/stats.h"
#include "app/log.h"
#include "net/store/store.h"
#include "testutil.h"
#include "ui/join.h"

static char *tmpdir(void)
{
	static char dir[64];
	snprintf(dir, sizeof dir, "/tmp/tapis-acc-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void rmdir_all(const char *dir)
{
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- the store's figures, both backends ---- */

struct seen_stats {
	struct store_stat x[8];
	int n;
};
static void on_stat(void *ctx, const struct store_stat *x)
{
	struct seen_stats *s = ctx;
	if (s->n < 8)
		s->x[s->n++] = *x;
}
struct seen_played {
	struct store_played p[64];
	int n;
};
static void on_played(void *ctx, const struct store_played *p)
{
	struct seen_played *s = ctx;
	if (s->n < 64)
		s->p[s->n++] = *p;
}

static void one_game(struct store *st, long table, const char *game, int rated, const char *a, int pa, long long na,
                     const char *b, int pb, long long nb)
{
	struct store_game g;
	memset(&g, 0, sizeof g);
	g.table = table;
	snprintf(g.game, sizeof g.game, "%s", game);
	g.ended = 1700000000 + table;
	g.deals = 3;
	g.rated = rated;
	g.n = 2;
	snprintf(g.p[0].name, sizeof g.p[0].name, "%s", a);
	g.p[0].place = pa;
	g.p[0].won = pa == 0;
	g.p[0].net = na;
	g.p[0].seat = 0;
	snprintf(g.p[1].name, sizeof g.p[1].name, "%s", b);
	g.p[1].place = pb;
	g.p[1].won = pb == 0;
	g.p[1].net = nb;
	g.p[1].seat = 1;
	struct stats_result r = { g, 0 };
	ck_assert_int_eq(stats_record(st, &r), 0);
}

static void figures(const char *backend, const char *path)
{
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, backend, path, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, "Anne", "h1"), 0);
	ck_assert_int_eq(store_account_put(&st, "Ben", "h2"), 0);
	/* Settings: none yet, kept, and nothing for a name without an account. */
	struct store_settings set;
	ck_assert_int_eq(store_settings_get(&st, "Anne", &set), 1);
	ck_assert_int_eq(set.verbosity, -1);
	ck_assert_str_eq(set.lang, "");
	snprintf(set.lang, sizeof set.lang, "fr");
	set.verbosity = 1;
	snprintf(set.extra, sizeof set.extra, "{\"sound\":false}");
	ck_assert_int_eq(store_settings_put(&st, "Anne", &set), 0);
	ck_assert_int_eq(store_settings_put(&st, "Nobody", &set), 0);
	ck_assert_int_eq(store_settings_get(&st, "Nobody", &set), 0);
	memset(&set, 0, sizeof set);
	ck_assert_int_eq(store_settings_get(&st, "Anne", &set), 1);
	ck_assert_str_eq(set.lang, "fr");
	ck_assert_int_eq(set.verbosity, 1);
	ck_assert_str_eq(set.extra, "{\"sound\":false}");
	/* 25 rated games of Brelan: Anne wins the odd ones. */
	struct rating ra, rb;
	rating_init(&ra);
	rating_init(&rb);
	for (int k = 1; k <= 25; k++) {
		int anne = k % 2 ? 0 : 1;
		one_game(&st, k, "brelan", 1, "Anne", anne, anne ? -10 : 10, "Ben", 1 - anne, anne ? 10 : -10);
		struct rating x[2] = { ra, rb };
		int rank[2] = { anne, 1 - anne };
		rating_game(x, rank, 2, RATING_TAU);
		ra = x[0];
		rb = x[1];
	}
	/* One unrated game of Le Bourré: figures, no rating. */
	one_game(&st, 26, "bourre", 0, "Anne", 1, -5, "Ben", 0, 5);
	struct rating got;
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &got), 1);
	ck_assert_msg(fabs(got.r - ra.r) < 1e-9 && fabs(got.rd - ra.rd) < 1e-9 && fabs(got.sigma - ra.sigma) < 1e-12,
	              "%s: Anne's rating %f, not %f", backend, got.r, ra.r);
	ck_assert_int_eq(store_rating_get(&st, "Ben", "brelan", &got), 1);
	ck_assert(fabs(got.r - rb.r) < 1e-9);
	ck_assert_int_eq(store_rating_get(&st, "Anne", "bourre", &got), 0);
	ck_assert(got.r == RATING_START && got.rd == RATING_START_RD);

	struct seen_stats s = { .n = 0 };
	ck_assert_int_eq(store_stat_each(&st, "Anne", on_stat, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.x[0].game, "bourre");
	ck_assert_int_eq(s.x[0].games, 1);
	ck_assert_int_eq(s.x[0].won, 0);
	ck_assert_int_eq(s.x[0].net, -5);
	ck_assert_int_eq(s.x[0].has_rating, 0);
	ck_assert_str_eq(s.x[1].game, "brelan");
	ck_assert_int_eq(s.x[1].games, 25);
	ck_assert_int_eq(s.x[1].deals, 75);
	ck_assert_int_eq(s.x[1].won, 13);
	ck_assert_int_eq(s.x[1].net, 13 * 10 - 12 * 10);
	ck_assert_int_eq(s.x[1].has_rating, 1);
	ck_assert_int_eq(s.x[1].rated_games, 25);

	/* The leaderboard: the better rated first; nobody at Bourré. */
	s.n = 0;
	ck_assert_int_eq(store_leaders(&st, "brelan", STATS_LEADERS, on_stat, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.x[0].name, ra.r > rb.r ? "Anne" : "Ben");
	ck_assert(s.x[0].rating.r >= s.x[1].rating.r);
	s.n = 0;
	ck_assert_int_eq(store_leaders(&st, "bourre", STATS_LEADERS, on_stat, &s), 0);
	ck_assert_int_eq(s.n, 0);

	/* The last games: STORE_RECENT_GAMES kept, the latest first. */
	struct seen_played p = { .n = 0 };
	ck_assert_int_eq(store_recent(&st, "Ben", on_played, &p), 0);
	ck_assert_int_eq(p.n, STORE_RECENT_GAMES);
	ck_assert_int_eq(p.p[0].table, 26);
	ck_assert_str_eq(p.p[0].game, "bourre");
	ck_assert_int_eq(p.p[0].won, 1);
	ck_assert_int_eq(p.p[0].rated, 0);
	ck_assert_int_eq(p.p[1].table, 25);
	ck_assert_int_eq(p.p[1].rated, 1);
	ck_assert_int_eq(p.p[STORE_RECENT_GAMES - 1].table, 26 - STORE_RECENT_GAMES + 1);
	store_close(&st);
}

START_TEST(test_figures_memory)
{
	figures("memory", "");
}
END_TEST

START_TEST(test_figures_sqlite)
{
	char *dir = tmpdir();
	char path[128];
	snprintf(path, sizeof path, "%s/s.db", dir);
	figures("sqlite", path);
	/* Kept across a reopening. */
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	struct seen_stats s = { .n = 0 };
	ck_assert_int_eq(store_stat_each(&st, "Ben", on_stat, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.x[1].games, 25);
	/* Only the games somebody still keeps remain. */
	sqlite3 *db = st.impl;
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM games", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(q, 0), STORE_RECENT_GAMES);
	sqlite3_finalize(q);
	store_close(&st);
	rmdir_all(dir);
}
END_TEST

/* ---- schema versions ---- */

/* The store's tables as main made them before versions were written
 * (version 1 without its number): the SQL of that time, word for word. */
static const char schema_before[] =
	"PRAGMA journal_mode=WAL;"
	"CREATE TABLE IF NOT EXISTS accounts (name TEXT PRIMARY KEY, hash TEXT NOT NULL,"
	"  created INTEGER NOT NULL DEFAULT (strftime('%s','now')));"
	"CREATE TABLE IF NOT EXISTS tables (id INTEGER PRIMARY KEY, game TEXT NOT NULL,"
	"  players INTEGER NOT NULL, seed TEXT NOT NULL, state INTEGER NOT NULL,"
	"  creator TEXT NOT NULL, private INTEGER NOT NULL, pwhash TEXT NOT NULL,"
	"  rules TEXT NOT NULL, seats TEXT NOT NULL, watchers TEXT NOT NULL DEFAULT '[]');"
	"CREATE TABLE IF NOT EXISTS journal (tab INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,"
	"  n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (tab, n));"
	"CREATE TABLE IF NOT EXISTS sessions (name TEXT PRIMARY KEY, hash TEXT NOT NULL,"
	"  expires INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	"INSERT INTO accounts (name, hash) VALUES ('Anne', 'hash-of-anne');"
	"INSERT INTO tables VALUES (7, 'brelan', 2, '42', 0, 'Anne', 0, '', '', '[\"open\",\"open\"]', '[]');"
	"INSERT INTO meta VALUES ('last_table', 9);";

static void sql(const char *path, const char *text)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	char *msg = NULL;
	ck_assert_msg(sqlite3_exec(db, text, NULL, NULL, &msg) == SQLITE_OK, "%s", msg);
	sqlite3_close(db);
}

static long long version_of(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema'", -1, &q, NULL),
	                 SQLITE_OK);
	long long v = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

static void count_table(void *ctx, const struct store_table *t)
{
	(*(int *)ctx)++;
	ck_assert_int_eq(t->id, 7);
	ck_assert_str_eq(t->creator, "Anne");
}

START_TEST(test_upgrade_in_place)
{
	char *dir = tmpdir();
	char path[128];
	snprintf(path, sizeof path, "%s/old.db", dir);
	sql(path, schema_before);
	/* Its bans, as the moderation block made them (with any version). */
	sql(path, "CREATE TABLE bans (name TEXT PRIMARY KEY, until INTEGER NOT NULL, reason TEXT NOT NULL,"
	          " by TEXT NOT NULL); INSERT INTO bans VALUES ('Paulo', 4000000000, 'spam', 'operator');");
	ck_assert_int_eq(version_of(path), 0);
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	/* Everything of before is there, and what is new works. */
	char hash[64];
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	ck_assert_str_eq(hash, "hash-of-anne");
	int n = 0;
	ck_assert_int_eq(store_table_each(&st, count_table, &n), 0);
	ck_assert_int_eq(n, 1);
	long last;
	ck_assert_int_eq(store_last_id(&st, &last), 0);
	ck_assert_int_eq(last, 9);
	struct store_settings set;
	ck_assert_int_eq(store_settings_get(&st, "Anne", &set), 1);
	ck_assert_int_eq(set.verbosity, -1);
	/* Its accounts are in the index of looks. */
	char other[100];
	ck_assert_int_eq(store_account_alike(&st, "ANNE", other, sizeof other), 1);
	ck_assert_str_eq(other, "Anne");
	struct store_ban ban;
	ck_assert_int_eq(store_ban_alike(&st, "P\u00e1ulo", &ban), 1);
	ck_assert_str_eq(ban.name, "Paulo");
	ck_assert_int_eq(store_account_put(&st, "Ben", "h"), 0);
	one_game(&st, 7, "brelan", 1, "Anne", 0, 4, "Ben", 1, -4);
	struct rating r;
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 1);
	ck_assert(r.r > RATING_START);
	store_close(&st);
	ck_assert_int_eq(version_of(path), STORE_SCHEMA_VERSION);
	/* Opened again: nothing to do, nothing lost. */
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 1);
	store_close(&st);
	/* A file from a tapis newer than this one is not touched. */
	char newer[128];
	snprintf(newer, sizeof newer, "%s/newer.db", dir);
	sql(newer, "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	           "INSERT INTO meta VALUES ('schema', 99);");
	ck_assert_int_eq(store_open(&st, "sqlite", newer, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "newer"), "%s", err);
	ck_assert_int_eq(version_of(newer), 99);
	rmdir_all(dir);
}
END_TEST

static void keep_line(void *ctx, const char *line)
{
	snprintf(ctx, 256, "%s", line);
}

static int has_table(const char *path, const char *name)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", -1,
	                                    &q, NULL),
	                 SQLITE_OK);
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	int has = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	sqlite3_close(db);
	return has;
}

/* Moderation's tables are made by a version's step, as every other: a
 * store of version 4 gets them in the step to 5 (and says so in the log),
 * and nothing is made outside the steps (a store of the last version is
 * left as it is). */
START_TEST(test_moderation_in_versions)
{
	char *dir = tmpdir();
	char path[128], fresh[128];
	snprintf(path, sizeof path, "%s/four.db", dir);
	snprintf(fresh, sizeof fresh, "%s/fresh.db", dir);
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, "sqlite", fresh, err, sizeof err) == 0, "%s", err);
	store_close(&st);
	ck_assert_int_eq(version_of(fresh), STORE_SCHEMA_VERSION);
	ck_assert_int_ge(STORE_SCHEMA_VERSION, 5);
	ck_assert(has_table(fresh, "roles") && has_table(fresh, "audit") && has_table(fresh, "mutes"));
	/* The same store taken back to version 4, without them. */
	sql(fresh, "DROP TABLE roles; DROP TABLE audit; DROP TABLE mutes; UPDATE meta SET value = 4 WHERE key = 'schema';");
	rename(fresh, path);
	char said[256] = "";
	log_set(keep_line, said);
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	log_set(NULL, NULL);
	ck_assert_msg(strstr(said, "store upgraded from 4 to"), "'%s'", said);
	ck_assert_int_eq(store_role_put(&st, "Anne", "moderator"), 0);
	ck_assert_int_eq(store_mute_put(&st, "Anne", "Bruno", 1), 0);
	store_close(&st);
	ck_assert_int_eq(version_of(path), STORE_SCHEMA_VERSION);
	ck_assert(has_table(path, "roles") && has_table(path, "audit") && has_table(path, "mutes"));
	/* At the last version, opening makes nothing. */
	sql(path, "DROP TABLE mutes;");
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	store_close(&st);
	ck_assert(!has_table(path, "mutes"));
	rmdir_all(dir);
}
END_TEST

/* The bytes of a file (free them), *len set. */
static char *file_bytes(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	char *b = malloc((size_t)*len + 1);
	ck_assert_int_eq(fread(b, 1, (size_t)*len, f), (size_t)*len);
	fclose(f);
	return b;
}

/* Opened and refused, the file is as it was, byte for byte. */
static void refused_untouched(const char *path, const char *why)
{
	long n0, n1;
	char *before = file_bytes(path, &n0), err[256];
	struct store st;
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(store_open(&st, "sqlite", path, err, sizeof err), -1);
		ck_assert_msg(strstr(err, why) != NULL, "%s", err);
	}
	char *after = file_bytes(path, &n1);
	ck_assert_int_eq(n0, n1);
	ck_assert_msg(memcmp(before, after, (size_t)n0) == 0, "the refused store was changed");
	free(before);
	free(after);
}

/* A store whose version is garbled, or gone while its tables are of the
 * current version, is refused before anything is written, every time;
 * with its version put back it opens, its accounts there. */
START_TEST(test_version_garbled_untouched)
{
	char *dir = tmpdir();
	char path[128], err[256];
	snprintf(path, sizeof path, "%s/server.db", dir);
	struct store st;
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, "Anne", "hash-of-anne"), 0);
	store_close(&st);
	sql(path, "UPDATE meta SET value = 'three' WHERE key = 'schema'");
	refused_untouched(path, "garbled");
	sql(path, "DELETE FROM meta WHERE key = 'schema'");
	refused_untouched(path, "missing");
	sql(path, "DROP TABLE meta");
	refused_untouched(path, "missing");
	char set[160];
	snprintf(set, sizeof set,
	         "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	         "INSERT INTO meta VALUES ('schema', %d)", STORE_SCHEMA_VERSION);
	sql(path, set);
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	char hash[64];
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	store_close(&st);
	rmdir_all(dir);
}
END_TEST

/* A file from before the spectators were kept (no watchers column) takes
 * both steps. */
START_TEST(test_upgrade_oldest)
{
	char *dir = tmpdir();
	char path[128];
	snprintf(path, sizeof path, "%s/oldest.db", dir);
	sql(path, "CREATE TABLE tables (id INTEGER PRIMARY KEY, game TEXT NOT NULL,"
	          "  players INTEGER NOT NULL, seed TEXT NOT NULL, state INTEGER NOT NULL,"
	          "  creator TEXT NOT NULL, private INTEGER NOT NULL, pwhash TEXT NOT NULL,"
	          "  rules TEXT NOT NULL, seats TEXT NOT NULL);"
	          "INSERT INTO tables VALUES (7, 'brelan', 2, '42', 0, 'Anne', 0, '', '', '[]');");
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	int n = 0;
	ck_assert_int_eq(store_table_each(&st, count_table, &n), 0);
	ck_assert_int_eq(n, 1);
	store_close(&st);
	ck_assert_int_eq(version_of(path), STORE_SCHEMA_VERSION);
	rmdir_all(dir);
}
END_TEST

static pid_t serve(const char *db, const char *dir, const char *logs, int *port);
static void halt(pid_t pid);

/* ---- a lobby and its players, in process ---- */

struct said {
	long conn[20000];
	json_t *msg[20000];
	int n;
};

static void on_send(void *ctx, long conn, char *text)
{
	struct said *s = ctx;
	json_t *j = json_loads(text, 0, NULL);
	free(text);
	ck_assert_ptr_nonnull(j);
	if (s->n < 20000) {
		s->conn[s->n] = conn;
		s->msg[s->n++] = j;
	} else {
		json_decref(j);
	}
}
static void on_close(void *ctx, long conn)
{
	(void)ctx;
	(void)conn;
}

static const char *mtype(json_t *j) { return json_string_value(json_object_get(j, "type")); }

/* The last message of a type to a connection (NULL: none). */
static json_t *last_to(const struct said *s, long conn, const char *type)
{
	for (int i = s->n - 1; i >= 0; i--)
		if (s->conn[i] == conn && !strcmp(mtype(s->msg[i]), type))
			return s->msg[i];
	return NULL;
}

static void said_free(struct said *s)
{
	for (int i = 0; i < s->n; i++)
		json_decref(s->msg[i]);
	s->n = 0;
}

static long long now = 1000;

static void msg(struct lobby *l, long conn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void msg(struct lobby *l, long conn, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	lobby_message(l, conn, buf, strlen(buf), now);
}

/* A message of a type to a connection from index from on (NULL: none). */
static json_t *since(const struct said *s, int from, long conn, const char *type)
{
	for (int i = from; i < s->n; i++)
		if (s->conn[i] == conn && !strcmp(mtype(s->msg[i]), type))
			return s->msg[i];
	return NULL;
}

static void login(struct lobby *l, struct said *s, long conn, const char *name, const char *lang, const char *pw)
{
	int from = s->n;
	lobby_open(l, conn, "127.0.0.1", NULL);
	if (pw && lang)
		msg(l, conn, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\",\"password\":\"%s\"}", name,
		    lang, pw);
	else if (pw)
		msg(l, conn, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"password\":\"%s\"}", name, pw);
	else
		msg(l, conn, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\"}", name, lang);
	/* A password is checked on the lobby's worker: its answer comes with
	 * a tick. */
	for (int k = 0; k < 1000 && !since(s, from, conn, "welcome") && !since(s, from, conn, "error"); k++) {
		usleep(5000);
		lobby_tick(l, now);
	}
	ck_assert_msg(since(s, from, conn, "welcome") != NULL, "%s: no welcome", name);
}

static struct host *table_id(struct lobby *l, long id)
{
	for (int i = 0; i < l->ntables; i++)
		if (l->tables[i]->id == id)
			return l->tables[i];
	return NULL;
}

/* A table of Brelan for two, one deal, Anne (conn 1) and Ben (conn 2) at it. */
static long two_at_table(struct lobby *l, struct said *s, long long seed)
{
	l->cfg.seed = seed; /* the operator's seed: a client may not choose one with two people */
	msg(l, 1,
	    "{\"type\":\"create\",\"game\":\"brelan\",\"players\":2,\"seats\":[\"open\",\"open\"],"
	    "\"rules\":{\"hands\":1}}");
	json_t *c = last_to(s, 1, "created");
	ck_assert_msg(c != NULL, "not created: %s", json_string_value(json_object_get(last_to(s, 1, "error"), "message")));
	long id = (long)json_integer_value(json_object_get(c, "table"));
	msg(l, 2, "{\"type\":\"sit\",\"table\":%ld,\"seat\":1}", id);
	ck_assert_ptr_nonnull(last_to(s, 2, "joined"));
	msg(l, 1, "{\"type\":\"start\",\"table\":%ld}", id);
	return id;
}

/* Play to the end: each person's moves what a bot would choose for them;
 * stand_at: Ben stands up at that move (-1: never). */
static void play_out(struct lobby *l, long id, int stand_at)
{
	struct host *h = table_id(l, id);
	ck_assert_ptr_nonnull(h);
	struct rng rng;
	rng_seed(&rng, 3);
	/* The bots decide on the lobby's workers: their moves come with a
	 * later tick, so the loop gives them time (20 s at most in all). */
	for (int k = 0; k < 20000 && h->state != HOST_OVER; k++) {
		now += 10;
		if (k == stand_at)
			msg(l, 2, "{\"type\":\"stand\",\"table\":%ld}", id);
		int seat = table_to_act(&h->t);
		if (seat >= 0 && h->seat[seat].name[0] && table_awaits(&h->t, seat)) {
			struct action a;
			bot_choose(h->g, tu_bot(h->g), h->t.st, 1, &rng, &a);
			char text[ACT_STR_MAX];
			act_format(&a, text, sizeof text);
			msg(l, seat == 0 ? 1 : 2, "{\"type\":\"action\",\"table\":%ld,\"action\":\"%s\"}", id, text);
		} else {
			usleep(1000);
		}
		lobby_tick(l, now);
	}
	ck_assert_int_eq(h->state, HOST_OVER);
}

struct lobby_fix {
	char *dir;
	char logs[128];
	struct store st;
	struct said said;
	struct lobby l;
	struct host_config cfg;
};

static void lobby_up(struct lobby_fix *f, const char *backend)
{
	memset(f, 0, sizeof *f);
	f->dir = tmpdir();
	snprintf(f->logs, sizeof f->logs, "%s/logs", f->dir);
	ck_assert_int_eq(mkdir(f->logs, 0700), 0);
	char db[128], err[256];
	snprintf(db, sizeof db, "%s/server.db", f->dir);
	ck_assert_msg(store_open(&f->st, backend, db, err, sizeof err) == 0, "%s", err);
	struct host_config cfg = { 600000, 0, f->logs, 0, 600000, 0, 0, NULL, NULL, NULL, 0 };
	f->cfg = cfg;
	struct lobby_io io = { on_send, on_close, &f->said, NULL };
	ck_assert_msg(lobby_init(&f->l, &f->st, &f->cfg, io, 1, now, err, sizeof err) == 0, "%s", err);
}

static void lobby_down(struct lobby_fix *f)
{
	lobby_release(&f->l);
	store_close(&f->st);
	said_free(&f->said);
	rmdir_all(f->dir);
}

/* A sit at a private table without its password is checked on the
 * worker as a wrong password is (a refusal costs what a guess costs): no
 * answer at once, then "this table needs a password", counted. */
START_TEST(test_no_password_costs_a_guess)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	struct said *s = &f.said;
	login(l, s, 1, "Anne", "en", NULL);
	login(l, s, 2, "Ben", "en", NULL);
	msg(l, 1, "{\"type\":\"create\",\"game\":\"brouc\",\"private\":true,\"password\":\"door\"}");
	/* Its password is hashed on the worker too. */
	for (int i = 0; i < 1000 && !last_to(s, 1, "created"); i++) {
		usleep(2000);
		lobby_tick(l, now);
	}
	json_t *c = last_to(s, 1, "created");
	ck_assert_ptr_nonnull(c);
	long id = (long)json_integer_value(json_object_get(c, "table"));
	for (int k = 0; k < AUTH_FREE_FAILS; k++) {
		int from = s->n;
		msg(l, 2, "{\"type\":\"sit\",\"table\":%ld}", id);
		ck_assert_msg(since(s, from, 2, "error") == NULL, "refused at once, without the worker");
		ck_assert(lobbyrec_conn_of(l, 2)->job != 0);
		for (int i = 0; i < 1000 && !since(s, from, 2, "error"); i++) {
			usleep(2000);
			lobby_tick(l, now);
		}
		json_t *e = since(s, from, 2, "error");
		ck_assert_ptr_nonnull(e);
		ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "password");
		ck_assert_str_eq(json_string_value(json_object_get(e, "message")), "this table needs a password");
	}
	lobby_down(&f);
}
END_TEST

/* Two registered players finish a game: it is in the store, rated by
 * their places; each hears their figures in their language, the
 * leaderboard lists them; Ben fetches the hand history, which replays. */
START_TEST(test_game_recorded)
{
	struct lobby_fix f;
	lobby_up(&f, "sqlite");
	struct lobby *l = &f.l;
	struct said *s = &f.said;
	login(l, s, 1, "Anne", "en", "secret-anne");
	login(l, s, 2, "Ben", "fr", "secret-ben");
	login(l, s, 3, "Cleo", "en", NULL); /* a guest */
	long id = two_at_table(l, s, 4242);
	play_out(l, id, -1);
	struct host *h = table_id(l, id);
	int out[GAME_MAX_SEATS];
	h->g->standings(h->t.st, out);

	/* In the store: one game each, places from the chips, net that sums to
	 * nothing, ratings as rating_game makes them from the start. */
	struct seen_stats a = { .n = 0 }, b = { .n = 0 };
	ck_assert_int_eq(store_stat_each(&f.st, "Anne", on_stat, &a), 0);
	ck_assert_int_eq(store_stat_each(&f.st, "Ben", on_stat, &b), 0);
	ck_assert_int_eq(a.n, 1);
	ck_assert_int_eq(b.n, 1);
	ck_assert_str_eq(a.x[0].game, "brelan");
	ck_assert_int_eq(a.x[0].games, 1);
	ck_assert_int_eq(a.x[0].deals, 1);
	ck_assert_int_eq(a.x[0].net + b.x[0].net, 0);
	ck_assert_int_eq(a.x[0].won, out[0] >= out[1]);
	ck_assert_int_eq(b.x[0].won, out[1] >= out[0]);
	ck_assert(a.x[0].net != 0 || out[0] == out[1]);
	struct rating x[2];
	rating_init(&x[0]);
	rating_init(&x[1]);
	int rank[2] = { out[1] > out[0], out[0] > out[1] };
	rating_game(x, rank, 2, RATING_TAU);
	ck_assert_int_eq(a.x[0].has_rating, 1);
	ck_assert(fabs(a.x[0].rating.r - x[0].r) < 1e-9 && fabs(b.x[0].rating.r - x[1].r) < 1e-9);
	ck_assert(fabs(a.x[0].rating.rd - x[0].rd) < 1e-9);

	/* stats: a sentence in each one's language. */
	msg(l, 1, "{\"type\":\"stats\"}");
	json_t *m = last_to(s, 1, "stats");
	ck_assert_ptr_nonnull(m);
	const char *text = json_string_value(json_object_get(m, "text"));
	char want[200];
	snprintf(want, sizeof want, "Le Brelan: 1 game, %d won, deals: 1, net: %+lld; rating %ld", a.x[0].won, a.x[0].net,
	         lround(x[0].r));
	ck_assert_msg(strstr(text, want) == text, "%s", text);
	ck_assert_int_eq(json_array_size(json_object_get(m, "games")), 1);
	msg(l, 2, "{\"type\":\"stats\",\"game\":\"brelan\"}");
	m = last_to(s, 2, "stats");
	text = json_string_value(json_object_get(m, "text"));
	ck_assert_msg(strstr(text, "1 partie") && strstr(text, "donnes"), "%s", text);
	msg(l, 2, "{\"type\":\"stats\",\"game\":\"bourre\"}");
	text = json_string_value(json_object_get(last_to(s, 2, "stats"), "text"));
	ck_assert_msg(strstr(text, "Bourré"), "%s", text);
	/* A guest has no figures. */
	msg(l, 3, "{\"type\":\"stats\"}");
	m = last_to(s, 3, "error");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(json_string_value(json_object_get(m, "code")), "guest");

	/* leaders: both, the better first, for anyone. */
	msg(l, 3, "{\"type\":\"leaders\",\"game\":\"brelan\"}");
	m = last_to(s, 3, "leaders");
	ck_assert_ptr_nonnull(m);
	json_t *list = json_object_get(m, "leaders");
	ck_assert_int_eq(json_array_size(list), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(list, 0), "name")),
	                 x[0].r >= x[1].r ? "Anne" : "Ben");
	text = json_string_value(json_object_get(m, "text"));
	ck_assert_msg(strstr(text, "Best rated at Le Brelan: 1, "), "%s", text);
	msg(l, 3, "{\"type\":\"leaders\",\"game\":\"brouc\"}");
	text = json_string_value(json_object_get(last_to(s, 3, "leaders"), "text"));
	ck_assert_msg(strstr(text, "Nobody is rated"), "%s", text);

	/* history: Ben's last game, replayed by tapis replay. */
	msg(l, 2, "{\"type\":\"history\"}");
	m = last_to(s, 2, "history");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(json_integer_value(json_object_get(m, "table")), id);
	ck_assert_int_eq(json_array_size(json_object_get(m, "games")), 1);
	json_t *lines = json_object_get(m, "lines");
	ck_assert(json_array_size(lines) > 2);
	ck_assert(strstr(json_string_value(json_array_get(lines, 0)), "game_start"));
	char path[200];
	snprintf(path, sizeof path, "%s/fetched.jsonl", f.dir);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	for (size_t i = 0; i < json_array_size(lines); i++) {
		ck_assert(!strchr(json_string_value(json_array_get(lines, i)), '\n'));
		fprintf(fp, "%s\n", json_string_value(json_array_get(lines, i)));
	}
	fclose(fp);
	/* The same as the server's own file. */
	char theirs[400];
	/* The finished game's own file, DIR/TABLE-GAME.jsonl (the table's
	 * next game would write DIR/TABLE.jsonl). */
	snprintf(theirs, sizeof theirs, "cmp -s '%s' '%s/%ld-'[0-9]*.jsonl", path, f.logs, id);
	ck_assert_int_eq(system(theirs), 0);
	/* And DIR/TABLE.jsonl, CLI.md's name for a table's hand history,
	 * still holds it until the table's next game. */
	snprintf(theirs, sizeof theirs, "cmp -s '%s' '%s/%ld.jsonl'", path, f.logs, id);
	ck_assert_int_eq(system(theirs), 0);
	const char *bin = getenv("TAPIS_BIN");
	if (bin) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "'%s' replay '%s' --text >/dev/null", bin, path);
		ck_assert_int_eq(system(cmd), 0);
	}
	/* The same through tapis join --history, from a server on this store. */
	if (bin) {
		char db[200], pw[200], got[200], cmd[1200];
		snprintf(db, sizeof db, "%s/server.db", f.dir);
		snprintf(pw, sizeof pw, "%s/pw", f.dir);
		snprintf(got, sizeof got, "%s/joined.jsonl", f.dir);
		fp = fopen(pw, "w");
		fputs("secret-ben\n", fp);
		fclose(fp);
		int port;
		pid_t pid = serve(db, f.dir, f.logs, &port);
		snprintf(cmd, sizeof cmd,
		         "'%s' join ws://127.0.0.1:%d --name Ben --password-file '%s' --text --no-sound --history last"
		         " --out '%s' </dev/null >/dev/null 2>&1 && cmp -s '%s' '%s'",
		         bin, port, pw, got, got, path);
		ck_assert_msg(system(cmd) == 0, "%s", cmd);
		snprintf(cmd, sizeof cmd,
		         "'%s' join ws://127.0.0.1:%d --name Ben --password-file '%s' --no-speech --no-sound --history %ld"
		         " --out - </dev/null 2>/dev/null | cmp -s - '%s'",
		         bin, port, pw, id, path);
		ck_assert_msg(system(cmd) == 0, "%s", cmd);
		/* A table not his: refused, exit status 1. */
		snprintf(cmd, sizeof cmd,
		         "'%s' join ws://127.0.0.1:%d --name Ben --password-file '%s' --text --no-sound --history %ld"
		         " --out '%s.x' </dev/null >/dev/null 2>&1",
		         bin, port, pw, id + 100, got);
		int st = system(cmd);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		halt(pid);
	}
	/* A history longer than a message may carry is refused as such. */
	char pattern[200];
	snprintf(pattern, sizeof pattern, "%s/%ld-[0-9]*.jsonl", f.logs, id);
	glob_t gl;
	ck_assert_int_eq(glob(pattern, 0, NULL, &gl), 0);
	ck_assert_int_eq(gl.gl_pathc, 1);
	fp = fopen(gl.gl_pathv[0], "a");
	globfree(&gl);
	for (long k = 0; k <= LOBBY_HISTORY_MAX / 32; k++)
		fputs("{\"type\":\"padding\",\"text\":\"..............................\"}\n", fp);
	fclose(fp);
	msg(l, 2, "{\"type\":\"history\",\"table\":%ld}", id);
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 2, "error"), "code")), "history_too_long");
	/* Nobody else's: the guest, and a table Ben did not play at. */
	msg(l, 3, "{\"type\":\"history\",\"table\":%ld}", id);
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 3, "error"), "code")), "guest");
	msg(l, 2, "{\"type\":\"history\",\"table\":%ld}", id + 100);
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 2, "error"), "code")), "no_game");
	lobby_down(&f);
}
END_TEST

/* Ben stands up during the game: a bot ends it for him; the game is in
 * their figures, and nobody's rating moves. */
START_TEST(test_left_not_rated)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	struct said *s = &f.said;
	login(l, s, 1, "Anne", "en", "secret-anne");
	login(l, s, 2, "Ben", "en", "secret-ben");
	long id = two_at_table(l, s, 77);
	play_out(l, id, 1);
	struct seen_stats a = { .n = 0 };
	ck_assert_int_eq(store_stat_each(&f.st, "Anne", on_stat, &a), 0);
	ck_assert_int_eq(a.n, 1);
	ck_assert_int_eq(a.x[0].games, 1);
	ck_assert_int_eq(a.x[0].has_rating, 0);
	struct seen_played p = { .n = 0 };
	ck_assert_int_eq(store_recent(&f.st, "Anne", on_played, &p), 0);
	ck_assert_int_eq(p.n, 1);
	ck_assert_int_eq(p.p[0].rated, 0);
	/* Ben's seat was a bot's at the end: he is not in it. */
	p.n = 0;
	ck_assert_int_eq(store_recent(&f.st, "Ben", on_played, &p), 0);
	ck_assert_int_eq(p.n, 0);
	lobby_down(&f);
}
END_TEST

/* A guest and an account: the account's figures only, and no rating (one
 * account is not enough). */
START_TEST(test_guest_not_recorded)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	struct said *s = &f.said;
	login(l, s, 1, "Anne", "en", "secret-anne");
	login(l, s, 2, "Cleo", "en", NULL);
	long id = two_at_table(l, s, 5);
	play_out(l, id, -1);
	struct seen_stats a = { .n = 0 }, c = { .n = 0 };
	ck_assert_int_eq(store_stat_each(&f.st, "Anne", on_stat, &a), 0);
	ck_assert_int_eq(store_stat_each(&f.st, "Cleo", on_stat, &c), 0);
	ck_assert_int_eq(a.n, 1);
	ck_assert_int_eq(a.x[0].games, 1);
	ck_assert_int_eq(a.x[0].has_rating, 0);
	ck_assert_int_eq(c.n, 0);
	lobby_down(&f);
}
END_TEST

/* Le Brouc: partners share their team's result (the same place and net),
 * and are level with each other in the rating. Bots the creator chose
 * take no part, and leave the game rated. */
START_TEST(test_partners_level)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	struct said *s = &f.said;
	login(l, s, 1, "Anne", "en", "secret-anne");
	login(l, s, 2, "Ben", "en", "secret-ben");
	l->cfg.seed = 9;
	msg(l, 1,
	    "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,\"seats\":[\"open\",\"bot\",\"open\",\"bot\"],"
	    "\"rules\":{\"hands\":1}}");
	long id = (long)json_integer_value(json_object_get(last_to(s, 1, "created"), "table"));
	msg(l, 2, "{\"type\":\"sit\",\"table\":%ld,\"seat\":2}", id);
	ck_assert_ptr_nonnull(last_to(s, 2, "joined"));
	msg(l, 1, "{\"type\":\"start\",\"table\":%ld}", id);
	struct host *h = table_id(l, id);
	struct rng rng;
	rng_seed(&rng, 3);
	for (int k = 0; k < 20000 && h->state != HOST_OVER; k++) {   /* bots on the workers: see play_out */
		now += 10;
		int seat = table_to_act(&h->t);
		if ((seat == 0 || seat == 2) && table_awaits(&h->t, seat)) {
			struct action a;
			bot_choose(h->g, tu_bot(h->g), h->t.st, 1, &rng, &a);
			char text[ACT_STR_MAX];
			act_format(&a, text, sizeof text);
			msg(l, seat == 0 ? 1 : 2, "{\"type\":\"action\",\"table\":%ld,\"action\":\"%s\"}", id, text);
		} else {
			usleep(1000);
		}
		lobby_tick(l, now);
	}
	ck_assert_int_eq(h->state, HOST_OVER);
	struct seen_stats a = { .n = 0 }, b = { .n = 0 };
	ck_assert_int_eq(store_stat_each(&f.st, "Anne", on_stat, &a), 0);
	ck_assert_int_eq(store_stat_each(&f.st, "Ben", on_stat, &b), 0);
	ck_assert_int_eq(a.n, 1);
	ck_assert_int_eq(b.n, 1);
	ck_assert_int_eq(a.x[0].won, b.x[0].won);
	ck_assert_int_eq(a.x[0].net, b.x[0].net);
	ck_assert_int_eq(a.x[0].has_rating, 1);
	/* Level: neither rating moves from the start, only the deviation. */
	ck_assert(fabs(a.x[0].rating.r - RATING_START) < 1e-6 && fabs(b.x[0].rating.r - RATING_START) < 1e-6);
	ck_assert(a.x[0].rating.rd < RATING_START_RD);
	lobby_down(&f);
}
END_TEST

/* Settings: kept for an account, applied at its next login (the language
 * when the hello names none), refused to a guest. */
START_TEST(test_settings_kept)
{
	struct lobby_fix f;
	lobby_up(&f, "sqlite");
	struct lobby *l = &f.l;
	struct said *s = &f.said;
	login(l, s, 1, "Anne", "en", "secret-anne");
	ck_assert_ptr_nonnull(last_to(s, 1, "settings")); /* an account is always told its settings */
	msg(l, 1, "{\"type\":\"settings\",\"lang\":\"fr\",\"level\":\"short\",\"settings\":{\"sound\":false,\"rate\":3}}");
	json_t *m = last_to(s, 1, "settings");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(json_string_value(json_object_get(m, "text")), "Vos réglages sont gardés.");
	ck_assert_str_eq(lobby_lang(l, 1), "fr");
	lobby_close(l, 1, now);
	login(l, s, 4, "Anne", NULL, "secret-anne");
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 4, "welcome"), "lang")), "fr");
	m = last_to(s, 4, "settings");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(json_string_value(json_object_get(m, "lang")), "fr");
	ck_assert_str_eq(json_string_value(json_object_get(m, "level")), "short");
	ck_assert(json_is_false(json_object_get(json_object_get(m, "settings"), "sound")));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(m, "settings"), "rate")), 3);
	/* Back at a table after a restart: the kept length is hers there. */
	msg(l, 4, "{\"type\":\"create\",\"game\":\"brelan\",\"players\":2,\"seats\":[\"open\",\"open\"]}");
	long id = (long)json_integer_value(json_object_get(last_to(s, 4, "created"), "table"));
	ck_assert_int_eq(host_member(table_id(l, id), "Anne")->verbosity, TALK_SHORT);
	lobby_save_all(l);
	lobby_release(l);
	char err[256];
	struct lobby_io io = { on_send, on_close, s, NULL };
	ck_assert_msg(lobby_init(l, &f.st, &f.cfg, io, 1, now, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(host_member(table_id(l, id), "Anne")->verbosity, TALK_FULL);
	login(l, s, 4, "Anne", NULL, "secret-anne");
	ck_assert_int_eq(host_member(table_id(l, id), "Anne")->verbosity, TALK_SHORT);
	/* A hello that names its language keeps it. */
	lobby_close(l, 4, now);
	login(l, s, 5, "Anne", "en", "secret-anne");
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 5, "welcome"), "lang")), "en");
	/* Bad settings, and a guest's. */
	msg(l, 5, "{\"type\":\"settings\",\"settings\":[1]}");
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 5, "error"), "code")), "bad_message");
	msg(l, 5, "{\"type\":\"settings\",\"level\":\"loud\"}");
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 5, "error"), "code")), "bad_message");
	login(l, s, 6, "Cleo", "en", NULL);
	msg(l, 6, "{\"type\":\"settings\",\"lang\":\"fr\"}");
	ck_assert_str_eq(json_string_value(json_object_get(last_to(s, 6, "error"), "code")), "guest");
	lobby_down(&f);
}
END_TEST

/* The lobby's indexes of people by name and connections by id kept in
 * step: 300 guests log in, every third leaves and is forgotten at the
 * next round (the last entry takes each one's place), and each one left
 * is still found by name at their own entry, and so is their connection,
 * and by the look of their name; those gone are not found, and their
 * names can be taken again. */
/* gone by guest: 1 gone, -1 back on connection 1000 + i, 0 on 1 + i. */
static void names_found(struct lobby *l, int n, const int *gone)
{
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof name, "Guest%d", i);
		struct lobby_user *u = lobbyrec_user_named(l, name);
		if (gone[i] > 0) {
			ck_assert_msg(u == NULL, "%s still found", name);
			ck_assert_ptr_null(lobbyrec_conn_of(l, 1 + i));
			continue;
		}
		ck_assert_msg(u != NULL, "%s not found", name);
		ck_assert_str_eq(u->name, name);
		ck_assert_int_eq(u->conn, gone[i] < 0 ? 1000 + i : 1 + i);
		struct lobby_conn *c = lobbyrec_conn_of(l, u->conn);
		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(c->id, u->conn);
		ck_assert_int_eq(c->user, (int)(u - l->users));
	}
}

/* A hello with name refused as alike the one of known (NULL: welcome). */
static void name_alike(struct lobby_fix *f, const char *name, const char *known)
{
	struct lobby *l = &f->l;
	lobby_open(l, 5000, "127.0.0.1", NULL);
	msg(l, 5000, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"en\"}", name);
	json_t *e = last_to(&f->said, 5000, "error");
	if (known) {
		ck_assert_ptr_nonnull(e);
		ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "name_alike");
		ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "message")), known));
	} else {
		ck_assert_ptr_null(e);
		ck_assert_ptr_nonnull(last_to(&f->said, 5000, "welcome"));
	}
	lobby_close(l, 5000, now);
	said_free(&f->said);
}

START_TEST(test_names_indexed)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	int gone[300] = { 0 };
	for (int i = 0; i < 300; i++) {
		char name[32];
		snprintf(name, sizeof name, "Guest%d", i);
		login(l, &f.said, 1 + i, name, "en", NULL);
		said_free(&f.said);
	}
	ck_assert_int_eq(l->nusers, 300);
	names_found(l, 300, gone);
	now += 1000;
	lobby_tick(l, now);   /* a round: all 300 listed */
	said_free(&f.said);
	for (int i = 0; i < 300; i += 3) {
		lobby_close(l, 1 + i, now);
		gone[i] = 1;
	}
	now += 1000;
	lobby_tick(l, now);
	/* Gone and forgotten in one round: the others are told. */
	json_t *d = last_to(&f.said, 2, "lobby_delta");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(json_integer_value(json_object_get(d, "online")), 200);
	said_free(&f.said);
	ck_assert_int_eq(l->nusers, 200);
	names_found(l, 300, gone);
	/* A name alike one left is refused, that one named; alike one gone,
	 * it is not. */
	name_alike(&f, "GUEST1", "Guest1");
	name_alike(&f, "guest-299", "Guest299");
	name_alike(&f, "GUEST3", NULL);
	now += 1000;
	lobby_tick(l, now);   /* GUEST3 forgotten */
	said_free(&f.said);
	ck_assert_int_eq(l->nusers, 200);
	/* The names freed are taken again, on other connections. */
	for (int i = 0; i < 300; i += 3) {
		char name[32];
		snprintf(name, sizeof name, "Guest%d", i);
		login(l, &f.said, 1000 + i, name, "en", NULL);
		said_free(&f.said);
		gone[i] = -1;
	}
	ck_assert_int_eq(l->nusers, 300);
	names_found(l, 300, gone);
	name_alike(&f, "guest-299", "Guest299");
	name_alike(&f, "GUEST3", "Guest3");
	ck_assert_ptr_null(lobbyrec_user_named(l, "Guest300"));
	ck_assert_ptr_null(lobbyrec_user_named(l, "guest1"));   /* compared as written, as before */
	lobby_down(&f);
}
END_TEST

/* ---- a backup while the server runs ---- */

static void ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	(void)port;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

/* A server on db in a child process; returns its pid once it listens. */
static pid_t serve(const char *db, const char *dir, const char *logs, int *port_out)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		struct server_options o;
		server_options_default(&o);
		o.port = 0;
		o.db = db;
		o.log_dir = logs;
		o.cheap_hash = 1;
		o.quiet = 1;
		o.on_ready = ready;
		o.ready_ctx = &fds[1];
		char logpath[200];
		snprintf(logpath, sizeof logpath, "%s/stderr.txt", dir);
		if (!freopen(logpath, "a", stderr))
			_exit(1);
		alarm(30);
		char err[256];
		exit(server_run(&o, err, sizeof err) == 0 ? 0 : 1);
	}
	close(fds[1]);
	int port = 0;
	ck_assert_int_eq(read(fds[0], &port, sizeof port), (int)sizeof port);
	close(fds[0]);
	if (port_out)
		*port_out = port;
	return pid;
}

static void halt(pid_t pid)
{
	int status = 0;
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void count_table_3(void *ctx, const struct store_table *t)
{
	(*(int *)ctx)++;
	ck_assert_int_eq(t->id, 3);
}

/* The tables in all are bounded (LOBBY_TABLES_MAX, lowered here): one
 * more create is refused, in the player's language; a table over makes
 * room no more than it counts. */
START_TEST(test_tables_in_all)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	l->tables_max = 2;
	for (int i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof name, "Maker%d", i);
		login(l, &f.said, 1 + i, name, i == 2 ? "fr" : "en", NULL);
		msg(l, 1 + i, "{\"type\":\"create\",\"game\":\"brelan\",\"players\":2,\"seats\":[\"open\",\"bot\"]}");
	}
	ck_assert_ptr_nonnull(last_to(&f.said, 1, "created"));
	ck_assert_ptr_nonnull(last_to(&f.said, 2, "created"));
	ck_assert_ptr_null(last_to(&f.said, 3, "created"));
	json_t *e = last_to(&f.said, 3, "error");
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "tables");
	ck_assert_str_eq(json_string_value(json_object_get(e, "message")), "le serveur a trop de tables : réessayez plus tard");
	lobby_down(&f);
}
END_TEST

/* Starts take turns: past the loop's time for them (here none: one a
 * tick), a start asked waits for the next tick, in the order asked; asked
 * again meanwhile, it is refused as begun. A round of the lobby's list
 * makes the entries of the tables changed within its time (here one), the
 * others at the next rounds: a person in the lobby is told them all. */
START_TEST(test_bursts_take_turns)
{
	struct lobby_fix f;
	lobby_up(&f, "memory");
	struct lobby *l = &f.l;
	l->start_ms = 0;
	l->round_ms = 0;
	l->tables_per_addr = 0;
	enum { N = 8 };
	long id[N];
	for (int i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof name, "Maker%d", i);
		login(l, &f.said, 1 + i, name, "en", NULL);
		msg(l, 1 + i, "{\"type\":\"create\",\"game\":\"brelan\",\"players\":2,\"seats\":[\"open\",\"bot\"],"
		              "\"rules\":{\"hands\":1}}");
		json_t *c = last_to(&f.said, 1 + i, "created");
		ck_assert_ptr_nonnull(c);
		id[i] = (long)json_integer_value(json_object_get(c, "table"));
	}
	/* Someone in the lobby, told of the tables by the rounds. */
	login(l, &f.said, 100, "Watcher", "en", NULL);
	for (int i = 0; i < N; i++)
		msg(l, 1 + i, "{\"type\":\"start\",\"table\":%ld}", id[i]);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(table_id(l, id[i])->state, HOST_WAITING);
	int from = f.said.n;
	msg(l, 1, "{\"type\":\"start\",\"table\":%ld}", id[0]);
	ck_assert_ptr_nonnull(since(&f.said, from, 1, "error"));
	for (int k = 1; k <= N; k++) {
		now += 5;
		lobby_tick(l, now);
		for (int i = 0; i < N; i++)
			ck_assert_int_eq(table_id(l, id[i])->state != HOST_WAITING, i < k);
	}
	/* The rounds, one entry each, until nothing is left to tell. */
	now += 1000;
	lobby_tick(l, now);
	ck_assert_int_eq(l->dirty, 1);
	for (int k = 0; k < 4 * N && l->dirty; k++) {
		now += 1000;
		lobby_tick(l, now);
	}
	ck_assert_int_eq(l->dirty, 0);
	/* The watcher's list, snapshot and deltas applied: every table playing. */
	json_t *tables = json_object();
	for (int i = 0; i < f.said.n; i++) {
		if (f.said.conn[i] != 100)
			continue;
		json_t *arr = json_object_get(f.said.msg[i], "tables");
		for (size_t k = 0; k < json_array_size(arr); k++) {
			json_t *e = json_array_get(arr, k);
			char key[24];
			snprintf(key, sizeof key, "%lld", json_integer_value(json_object_get(e, "id")));
			json_object_set(tables, key, json_object_get(e, "state"));
		}
	}
	for (int i = 0; i < N; i++) {
		char key[24];
		snprintf(key, sizeof key, "%ld", id[i]);
		ck_assert_str_eq(json_string_value(json_object_get(tables, key)), "playing");
	}
	json_decref(tables);
	lobby_down(&f);
}
END_TEST

START_TEST(test_backup_while_serving)
{
	char *dir = tmpdir();
	char db[128], copy[128], copy2[128], err[256];
	snprintf(db, sizeof db, "%s/server.db", dir);
	snprintf(copy, sizeof copy, "%s/backup.db", dir);
	snprintf(copy2, sizeof copy2, "%s/backup2.db", dir);
	/* A store with an account, a table and a player's figures. */
	struct store st;
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, "Anne", "hash-a"), 0);
	ck_assert_int_eq(store_account_put(&st, "Ben", "hash-b"), 0);
	struct store_table t;
	memset(&t, 0, sizeof t);
	t.id = 3;
	snprintf(t.game, sizeof t.game, "brelan");
	t.players = 2;
	t.seed = 5;
	snprintf(t.creator, sizeof t.creator, "Anne");
	snprintf(t.seats, sizeof t.seats, "[\"open\",\"open\"]");
	snprintf(t.watchers, sizeof t.watchers, "[]");
	ck_assert_int_eq(store_table_put(&st, &t), 0);
	one_game(&st, 2, "brelan", 1, "Anne", 0, 4, "Ben", 1, -4);
	store_close(&st);
	pid_t pid = serve(db, dir, NULL, NULL);
	/* While it runs: the library call, and the command. */
	ck_assert_msg(store_backup_file(db, copy, err, sizeof err) == 0, "%s", err);
	struct stat sb;
	ck_assert_int_eq(stat(copy, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0600);
	const char *bin = getenv("TAPIS_BIN");
	if (bin) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "'%s' serve --db '%s' --backup '%s'", bin, db, copy2);
		ck_assert_int_eq(system(cmd), 0);
		ck_assert_int_eq(stat(copy2, &sb), 0);
		snprintf(cmd, sizeof cmd, "'%s' serve --db '%s/none.db' --backup '%s/x.db' 2>/dev/null", bin, dir, dir);
		ck_assert_int_ne(system(cmd), 0);
	}
	halt(pid);
	/* The copy is a store: its accounts, tables and figures; a server
	 * starts on it. */
	ck_assert_msg(store_open(&st, "sqlite", copy, err, sizeof err) == 0, "%s", err);
	char hash[64];
	ck_assert_int_eq(store_account_get(&st, "Ben", hash, sizeof hash), 1);
	ck_assert_str_eq(hash, "hash-b");
	int n = 0;
	ck_assert_int_eq(store_table_each(&st, count_table_3, &n), 0);
	ck_assert_int_eq(n, 1);
	struct rating r;
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 1);
	store_close(&st);
	ck_assert_int_eq(version_of(copy), STORE_SCHEMA_VERSION);
	pid = serve(copy, dir, NULL, NULL);
	halt(pid);
	rmdir_all(dir);
}
END_TEST

/* ---- the Figures of tapis join's lobby, on a terminal ---- */

struct tty {
	pid_t pid;
	int fd;
	char out[1 << 16];
	size_t n, mark;
};

/* Wait (up to 20 s) until text is said after the mark; the mark moves past. */
static void tty_expect(struct tty *t, const char *text)
{
	for (int i = 0; i < 200; i++) {
		char *at = strstr(t->out + t->mark, text);
		if (at) {
			t->mark = (size_t)(at - t->out) + strlen(text);
			return;
		}
		struct pollfd p = { t->fd, POLLIN, 0 };
		if (poll(&p, 1, 100) > 0 && t->n + 1 < sizeof t->out) {
			ssize_t k = read(t->fd, t->out + t->n, sizeof t->out - t->n - 1);
			if (k <= 0)
				break;
			t->n += (size_t)k;
			t->out[t->n] = '\0';
		}
	}
	ck_abort_msg("never said: \"%s\"; what was said:\n%s", text, t->out + (t->n > 2000 ? t->n - 2000 : 0));
}

static void tty_key(struct tty *t, const char *keys, const char *text)
{
	size_t n = strlen(keys);
	ck_assert_int_eq(write(t->fd, keys, n), (ssize_t)n);
	tty_expect(t, text);
}

/* Zoe, an account who played one rated game of Brelan against Ben, asks
 * for her figures and a leaderboard from the lobby's Figures item. */
START_TEST(test_join_figures)
{
	char *dir = tmpdir();
	char db[128], pw[128], err[256];
	snprintf(db, sizeof db, "%s/server.db", dir);
	snprintf(pw, sizeof pw, "%s/pw", dir);
	struct store st;
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	struct auth a;
	ck_assert_int_eq(auth_init(&a, 1), 0);
	char hash[AUTH_HASH_MAX];
	ck_assert_int_eq(auth_hash(&a, "secret-zoe", hash), 0);
	ck_assert_int_eq(store_account_put(&st, "Zoe", hash), 0);
	ck_assert_int_eq(store_account_put(&st, "Ben", "h"), 0);
	one_game(&st, 2, "brelan", 1, "Zoe", 0, 4, "Ben", 1, -4);
	struct rating r;
	ck_assert_int_eq(store_rating_get(&st, "Zoe", "brelan", &r), 1);
	store_close(&st);
	FILE *f = fopen(pw, "w");
	fputs("secret-zoe\n", f);
	fclose(f);
	int port;
	pid_t srv = serve(db, dir, NULL, &port);
	char url[64];
	snprintf(url, sizeof url, "ws://127.0.0.1:%d", port);
	static struct tty t;
	memset(&t, 0, sizeof t);
	struct winsize ws = { 24, 200, 0, 0 };
	fflush(NULL);
	t.pid = forkpty(&t.fd, NULL, NULL, &ws);
	ck_assert_int_ge(t.pid, 0);
	if (t.pid == 0) {
		setenv("XDG_CONFIG_HOME", dir, 1);
		setenv("XDG_STATE_HOME", dir, 1);
		const char *argv[] = { "join", url, "--name", "Zoe", "--password-file", pw, "--text", "--lang", "en", NULL };
		alarm(50);
		exit(join_main(9, (char **)argv));
	}
	tty_expect(&t, "Create a table, 1 of 4.");
	tty_key(&t, "\033[B", "Chat in the lobby, 2 of 4.");
	tty_key(&t, "\033[B", "Figures, 3 of 4.");
	tty_key(&t, "\r", "My figures, 1 of 6.");
	char want[200];
	snprintf(want, sizeof want, "Le Brelan: 1 game, 1 won, deals: 3, net: +4; rating %ld, give or take %ld.",
	         lround(r.r), lround(2 * r.rd));
	tty_key(&t, "\r", want);
	/* Down to Le Brelan's leaderboard. */
	tty_expect(&t, "My figures, 1 of 6.");
	int found = 0;
	for (int k = 0; k < 6 && !found; k++) {
		size_t from = t.mark;
		tty_key(&t, "\033[B", " of 6.");
		found = strstr(t.out + from, "Best rated at Le Brelan,") != NULL;
	}
	ck_assert(found);
	snprintf(want, sizeof want, "Best rated at Le Brelan: 1, Zoe, %ld; 2, Ben,", lround(r.r));
	tty_key(&t, "\r", want);
	kill(t.pid, SIGTERM);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	halt(srv);
	rmdir_all(dir);
}
END_TEST

/* A backup never lands on the store it copies: not on the file, its -wal,
 * -shm or -journal (by name, or by another name of the same file), and
 * nothing that is there and is not a regular file is replaced (a device
 * stays a device). The store keeps every account. */
START_TEST(test_backup_not_onto_store)
{
	char *dir = tmpdir();
	char db[128], wal[140], journal[140], hard[140], soft[140], sub[140], err[256];
	snprintf(db, sizeof db, "%s/server.db", dir);
	snprintf(wal, sizeof wal, "%s-wal", db);
	snprintf(journal, sizeof journal, "%s-journal", db);
	snprintf(hard, sizeof hard, "%s/hard.db", dir);
	snprintf(soft, sizeof soft, "%s/soft.db", dir);
	snprintf(sub, sizeof sub, "%s/folder", dir);
	struct store st;
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, "Anne", "hash-a"), 0);
	/* While it is open, its -wal is there. */
	struct stat sb;
	ck_assert_int_eq(stat(wal, &sb), 0);
	ck_assert_int_eq(link(db, hard), 0);
	ck_assert_int_eq(symlink(wal, soft), 0);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	char dotted[160], node[140];
	snprintf(dotted, sizeof dotted, "%s/./server.db-shm", dir);
	/* A device of its own (a null device as root, else a pipe): never the
	 * machine's /dev/null, which old code would have replaced. */
	snprintf(node, sizeof node, "%s/null", dir);
	if (mknod(node, S_IFCHR | 0600, makedev(1, 3)) != 0)
		ck_assert_int_eq(mkfifo(node, 0600), 0);
	const char *const refused[] = { db, wal, journal, hard, soft, dotted, sub, node };
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		err[0] = '\0';
		ck_assert_msg(store_backup_file(db, refused[i], err, sizeof err) == -1, "a backup onto %s", refused[i]);
		ck_assert_msg(strstr(err, refused[i]) != NULL, "%s", err);
		/* The server's own connection refuses alike. */
		ck_assert_int_eq(store_backup(&st, refused[i], err, sizeof err), -1);
	}
	ck_assert_int_eq(stat(node, &sb), 0);
	ck_assert(S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode));
	ck_assert_int_eq(stat(sub, &sb), 0);
	ck_assert(S_ISDIR(sb.st_mode));
	ck_assert_int_eq(access(journal, F_OK), -1);
	ck_assert_int_eq(store_account_put(&st, "Ben", "hash-b"), 0);
	const char *bin = getenv("TAPIS_BIN");
	if (bin) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "'%s' serve --db '%s' --backup '%s' 2>/dev/null", bin, db, wal);
		ck_assert_int_ne(system(cmd), 0);
		snprintf(cmd, sizeof cmd, "'%s' serve --db '%s' --backup '%s' 2>/dev/null", bin, db, node);
		ck_assert_int_ne(system(cmd), 0);
	}
	/* A new name is taken. */
	char copy[140];
	snprintf(copy, sizeof copy, "%s/copy.db", dir);
	ck_assert_msg(store_backup(&st, copy, err, sizeof err) == 0, "%s", err);
	store_close(&st);
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	char hash[64];
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	ck_assert_int_eq(store_account_get(&st, "Ben", hash, sizeof hash), 1);
	store_close(&st);
	rmdir_all(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("accounts");
	TCase *tc = tcase_create("accounts");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_figures_memory);
	tcase_add_test(tc, test_figures_sqlite);
	tcase_add_test(tc, test_upgrade_in_place);
	tcase_add_test(tc, test_moderation_in_versions);
	tcase_add_test(tc, test_upgrade_oldest);
	tcase_add_test(tc, test_version_garbled_untouched);
	tcase_add_test(tc, test_game_recorded);
	tcase_add_test(tc, test_no_password_costs_a_guess);
	tcase_add_test(tc, test_left_not_rated);
	tcase_add_test(tc, test_guest_not_recorded);
	tcase_add_test(tc, test_partners_level);
	tcase_add_test(tc, test_settings_kept);
	tcase_add_test(tc, test_names_indexed);
	tcase_add_test(tc, test_bursts_take_turns);
	tcase_add_test(tc, test_tables_in_all);
	tcase_add_test(tc, test_backup_while_serving);
	tcase_add_test(tc, test_backup_not_onto_store);
	tcase_add_test(tc, test_join_figures);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
