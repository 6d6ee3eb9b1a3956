/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Nothing lost, and said when it is: a table whose store or hand history
 * cannot be written. The host plays with bots and one player (Anne, in
 * French) whose messages are kept; the store fails on demand (the memory
 * backend's store_memory_full, PostgreSQL's refusal of a role's writes) or
 * for real (SQLite and the hand history under a small RLIMIT_FSIZE, in a
 * child process: EFBIG, as on a full disk). No move is told while it cannot be kept, the pause is said once,
 * play resumes when it can, and a restart from the store replays exactly
 * the moves told. Then the hand history's file: whole lines only, never
 * emptied, never overwritten; and the ids a store gives never repeat.
 * Every operation of the store, with SQLite's meaning, on the memory,
 * SQLite and PostgreSQL backends (a PostgreSQL of the suite's own,
 * tests/pgtmp; skipped when it is not installed, except under CI=true). */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/registry.h"
#include "app/replay.h"
#include "bots/bot.h"
#include "core/history.h"
#include "core/rng.h"
#include "net/server/host.h"
#include "net/store/store.h"
#include "pgtmp.h"
#include "testutil.h"

/* ---- every backend: memory, SQLite and PostgreSQL ---- */

/* The PostgreSQL of the suite: started in main() before the tests (they
 * run in forked children), stopped after them. pg_state: 1 up, 0 not
 * installed (its tests skip, said once), -1 failed (its tests fail). */
static struct pgtmp pg;
static int pg_state;
static char pg_why[256];

enum { B_MEMORY, B_SQLITE, B_PG, B_COUNT };
static const char *const backend_name[B_COUNT] = { "memory", "sqlite", "postgresql" };

/* Where a store of a test lives: a folder (SQLite) or a database (PostgreSQL). */
struct where {
	char dir[64];
	char path[256];
	char name[48];   /* PostgreSQL: the database, and the role that owns it */
};

/* Open backend b, empty; 0 when it cannot be tried here (PostgreSQL not
 * installed, outside CI): the test has nothing to check. */
static int open_fresh(int b, struct store *st, struct where *w)
{
	char err[512];
	static int seq;
	memset(w, 0, sizeof *w);
	if (b == B_SQLITE) {
		snprintf(w->dir, sizeof w->dir, "/tmp/tapis-store-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(w->dir));
		snprintf(w->path, sizeof w->path, "%s/s.db", w->dir);
	} else if (b == B_PG) {
		if (pg_state == 0)
			return 0;
		ck_assert_msg(pg_state == 1, "PostgreSQL: %s", pg_why);
		snprintf(w->name, sizeof w->name, "t%d_%d", (int)getpid(), seq++);
		ck_assert_msg(pgtmp_db(&pg, w->name, w->path, sizeof w->path, err, sizeof err) == 0, "%s", err);
	}
	ck_assert_msg(store_open(st, backend_name[b], w->path, err, sizeof err) == 0, "%s: %s", backend_name[b], err);
	return 1;
}

/* The same store opened again, as another process would (memory: none). */
static int open_again(int b, struct store *st, const struct where *w)
{
	char err[512];
	if (b == B_MEMORY)
		return 0;
	ck_assert_msg(store_open(st, backend_name[b], w->path, err, sizeof err) == 0, "%s", err);
	return 1;
}

static void where_free(struct where *w)
{
	if (w->dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf %s", w->dir);
		ck_assert_int_eq(system(cmd), 0);
	}
}

/* The store's writes refused, as on a full disk, or allowed again: the
 * memory backend's switch, or PostgreSQL's own refusal (the store's role,
 * not a superuser, loses and gets back its right to write). */
static int open_full(int b, struct store *st, struct where *w)
{
	if (b != B_PG)
		return open_fresh(b, st, w);
	if (pg_state == 0)
		return 0;
	ck_assert_msg(pg_state == 1, "PostgreSQL: %s", pg_why);
	static int seq;
	char err[512], admin[160], sql[256];
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "f%d_%d", (int)getpid(), seq++);
	ck_assert_msg(pgtmp_db(&pg, w->name, w->path, sizeof w->path, err, sizeof err) == 0, "%s", err);
	snprintf(admin, sizeof admin, "postgresql://tapis@127.0.0.1:%d/postgres", pg.port);
	snprintf(sql, sizeof sql, "CREATE ROLE \"%s\" LOGIN; ALTER DATABASE \"%s\" OWNER TO \"%s\"", w->name, w->name,
	         w->name);
	ck_assert_msg(pgtmp_sql(admin, sql, err, sizeof err) == 0, "%s", err);
	snprintf(w->path, sizeof w->path, "postgresql://%s@127.0.0.1:%d/%s", w->name, pg.port, w->name);
	ck_assert_msg(store_open(st, "postgresql", w->path, err, sizeof err) == 0, "%s", err);
	return 1;
}

static void set_full(struct store *st, const struct where *w, int full)
{
	if (!w->name[0]) {
		store_memory_full(st, full);
		return;
	}
	char err[512], url[160], sql[256];
	snprintf(url, sizeof url, "postgresql://tapis@127.0.0.1:%d/%s", pg.port, w->name);
	snprintf(sql, sizeof sql,
	         full ? "REVOKE INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public FROM \"%s\""
	              : "GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \"%s\"",
	         w->name);
	ck_assert_msg(pgtmp_sql(url, sql, err, sizeof err) == 0, "%s", err);
}

/* ---- a table and what Anne hears ---- */

struct heard {
	json_t *msg[4096];
	int n;
};

static void on_send(void *ctx, long conn, char *text)
{
	struct heard *h = ctx;
	(void)conn;
	json_t *j = json_loads(text, 0, NULL);
	free(text);
	if (j && h->n < 4096)
		h->msg[h->n++] = j;
	else
		json_decref(j);
}

static void heard_free(struct heard *h)
{
	for (int i = 0; i < h->n; i++)
		json_decref(h->msg[i]);
	h->n = 0;
}

/* The greatest `moves` Anne was told of (say and state), from message from on. */
static int told_moves(const struct heard *h, int from)
{
	int most = 0;
	for (int i = from; i < h->n; i++) {
		int m = (int)json_integer_value(json_object_get(h->msg[i], "moves"));
		if (m > most)
			most = m;
	}
	return most;
}

/* The says with "paused": 1 (pause) or 0 (play resumes), from message from on. */
static int pauses(const struct heard *h, int from, int paused, const char **text)
{
	int n = 0;
	for (int i = from; i < h->n; i++) {
		json_t *p = json_object_get(h->msg[i], "paused");
		if (json_is_boolean(p) && json_is_true(p) == paused &&
		    !strcmp(json_string_value(json_object_get(h->msg[i], "type")), "say")) {
			n++;
			if (text)
				*text = json_string_value(json_object_get(h->msg[i], "text"));
		}
	}
	return n;
}

static const struct host_config cfg_nolog = { 600000, 0, NULL, 0, 600000, 0, 0, NULL, NULL, NULL, 0 };

/* A table of Brelan: Anne at seat 0 (French), bots elsewhere, started. */
static void table_up(struct host *h, long id, struct store *st, const struct host_config *cfg, struct heard *heard)
{
	const struct game_ops *g = registry_ops("brelan");
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	char err[256];
	ck_assert_int_eq(rules_set_arg(&r, "hands=1", err, sizeof err), 0);
	struct net_out out = { .send = on_send, .ctx = heard };
	ck_assert_msg(host_create(h, id, g, 4, &r, 12345, HOST_SEED_SERVER, "Anne", st, cfg, out, err, sizeof err) == 0, "%s", err);
	for (int s = 1; s < 4; s++)
		ck_assert_int_eq(host_set_seat(h, s, 0, 1, NULL, err, sizeof err), 0);
	h->seat[0].open = 1;
	ck_assert_msg(host_join(h, "Anne", "fr", 1, 0, 1000, err, sizeof err) == 0, "%s", err);
	host_save(h);
	ck_assert_msg(host_start(h, 1000, NULL, err, sizeof err) == 0, "%s", err);
}

/* Bots play (the clock runs) until Anne is to act; the time is returned. */
static long long until_anne(struct host *h, long long now)
{
	for (int i = 0; i < 2000 && !table_awaits(&h->t, 0); i++) {
		now += 10;
		host_tick(h, now);
		ck_assert_int_eq(h->paused, 0);
	}
	ck_assert_msg(table_awaits(&h->t, 0), "Anne never got her turn");
	return now;
}

/* What a bot would play for Anne: a legal move. */
static void anne_move(struct host *h, struct action *a)
{
	struct rng rng;
	rng_seed(&rng, 7);
	bot_choose(h->g, tu_bot(h->g), h->t.st, 1, &rng, a);
}

/* stderr into a file, to count what the operator is told. */
static int saved_stderr = -1;
static void stderr_to(const char *path)
{
	fflush(stderr);
	saved_stderr = dup(2);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	close(fd);
}
static void stderr_back(void)
{
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
}
static int count_in(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0;
	while (f && fgets(line, sizeof line, f))
		n += strstr(line, needle) != NULL;
	if (f)
		fclose(f);
	return n;
}

struct restored {
	struct host *h;
	struct store *st;
	const struct host_config *cfg;
	struct heard *heard;
	int n;
};
static void restore_row(void *ctx, const struct store_table *t)
{
	struct restored *r = ctx;
	char err[256];
	struct net_out out = { .send = on_send, .ctx = r->heard };
	ck_assert_msg(host_restore(r->h, t, r->st, r->cfg, out, 1, err, sizeof err) == 0, "%s", err);
	r->n++;
}

/* A restart from the store: the same game, at the move last told. */
static void check_restart(struct host *h, struct store *st, const struct host_config *cfg, int told)
{
	static struct host again;
	struct heard heard2 = { { 0 }, 0 };
	struct restored r = { &again, st, cfg, &heard2, 0 };
	ck_assert_int_eq(store_table_each(st, restore_row, &r), 0);
	ck_assert_int_eq(r.n, 1);
	ck_assert_int_eq(table_moves(&again.t), told);
	ck_assert_int_eq(table_moves(&again.t), table_moves(&h->t));
	ck_assert_int_eq(table_to_act(&again.t), table_to_act(&h->t));
	ck_assert(memcmp(again.t.st, h->t.st, h->g->state_size) == 0);
	host_free(&again);
	heard_free(&heard2);
}

START_TEST(test_store_full_pauses)
{
	struct store st;
	struct where w;
	if (!open_full(_i ? B_PG : B_MEMORY, &st, &w))
		return;
	static struct host h;
	static struct heard heard;
	table_up(&h, 1, &st, &cfg_nolog, &heard);
	long long now = until_anne(&h, 1000);
	int before = table_moves(&h.t), from = heard.n;
	char log[] = "/tmp/tapis-store-err-XXXXXX";
	int fd = mkstemp(log);
	ck_assert_int_ge(fd, 0);
	close(fd);
	stderr_to(log);
	/* The disk is full: Anne's move is neither kept nor told; the table
	 * pauses, and says why once. */
	set_full(&st, &w, 1);
	struct action a;
	anne_move(&h, &a);
	ck_assert_int_eq(host_action(&h, "Anne", &a, now), -1);
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert_int_eq(told_moves(&heard, from), before);
	const char *said = NULL;
	ck_assert_int_eq(pauses(&heard, from, 1, &said), 1);
	ck_assert_str_eq(said, "Le serveur ne peut pas enregistrer la partie ; le jeu est en pause.");
	/* Seconds go by: nothing is played (no bot, no timer), nothing more is
	 * said, the store is tried again each second, the operator told once. */
	for (int i = 0; i < 50; i++) {
		now += 100;
		host_tick(&h, now);
	}
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert_int_eq(told_moves(&heard, from), before);
	ck_assert_int_eq(pauses(&heard, from, 1, NULL), 1);
	ck_assert_int_eq(pauses(&heard, from, 0, NULL), 0);
	ck_assert(h.paused);
	/* Anne tries again: told again, to her. */
	ck_assert_int_eq(host_action(&h, "Anne", &a, now), -1);
	ck_assert_int_eq(pauses(&heard, from, 1, NULL), 2);
	/* Space again: within a second her move is kept, play resumes (said
	 * before the move), and the bots go on. */
	set_full(&st, &w, 0);
	int resumed_at = heard.n;
	now += HOST_RETRY_MS;
	host_tick(&h, now);
	ck_assert_int_eq(h.paused, 0);
	ck_assert_int_eq(table_moves(&h.t), before + 1);
	ck_assert_int_eq(pauses(&heard, from, 0, &said), 1);
	ck_assert_str_eq(said, "Le jeu reprend.");
	ck_assert_int_eq(told_moves(&heard, from), before + 1);
	ck_assert_int_eq(pauses(&heard, resumed_at, 0, NULL), 1);
	ck_assert_int_eq(told_moves(&heard, resumed_at + 1) >= before + 1, 1);
	/* The resuming is said before the move it lets through. */
	for (int i = resumed_at; i < heard.n; i++) {
		if (json_is_boolean(json_object_get(heard.msg[i], "paused")))
			break;
		ck_assert_int_le((int)json_integer_value(json_object_get(heard.msg[i], "moves")), before);
	}
	for (int i = 0; i < 20; i++) {
		now += 10;
		host_tick(&h, now);
	}
	stderr_back();
	ck_assert_int_eq(count_in(log, "store: cannot write"), 1);
	ck_assert_int_eq(count_in(log, "store: writing again"), 1);
	unlink(log);
	/* A restart replays exactly what was told. */
	check_restart(&h, &st, &cfg_nolog, told_moves(&heard, 0));
	host_free(&h);
	heard_free(&heard);
	store_close(&st);
	where_free(&w);
}
END_TEST

/* A bot's move that cannot be kept pauses the table too; nothing is told,
 * and the bots wait. */
START_TEST(test_store_full_bots_wait)
{
	struct store st;
	struct where w;
	if (!open_full(_i ? B_PG : B_MEMORY, &st, &w))
		return;
	static struct host h;
	static struct heard heard;
	table_up(&h, 3, &st, &cfg_nolog, &heard);
	long long now = until_anne(&h, 1000);
	struct action a;
	anne_move(&h, &a);
	ck_assert_int_eq(host_action(&h, "Anne", &a, now), 0);
	/* Now a bot is to act: the store fails before its move. */
	if (table_awaits(&h.t, 0))
		return; /* Anne again at once: nothing to see here (not this seed) */
	set_full(&st, &w, 1);
	int before = table_moves(&h.t), from = heard.n;
	for (int i = 0; i < 30; i++) {
		now += 200;
		host_tick(&h, now);
	}
	ck_assert(h.paused);
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert_int_eq(told_moves(&heard, from), before);
	ck_assert_int_eq(pauses(&heard, from, 1, NULL), 1);
	set_full(&st, &w, 0);
	now += HOST_RETRY_MS;
	host_tick(&h, now);
	ck_assert_int_eq(h.paused, 0);
	ck_assert_int_gt(table_moves(&h.t), before);
	ck_assert_int_eq(pauses(&heard, from, 0, NULL), 1);
	check_restart(&h, &st, &cfg_nolog, told_moves(&heard, 0));
	host_free(&h);
	heard_free(&heard);
	store_close(&st);
	where_free(&w);
}
END_TEST

/* The turn timer's move cannot be kept: the table pauses, the timer stops;
 * once the store writes again, play resumes and the player has her whole
 * time again. */
START_TEST(test_store_full_timer_stops)
{
	struct store st;
	struct where w;
	if (!open_full(_i ? B_PG : B_MEMORY, &st, &w))
		return;
	struct host_config cfg = cfg_nolog;
	cfg.turn_ms = 3000;
	static struct host h;
	static struct heard heard;
	table_up(&h, 5, &st, &cfg, &heard);
	long long now = until_anne(&h, 1000);
	host_tick(&h, now); /* the timer starts */
	int before = table_moves(&h.t), from = heard.n;
	set_full(&st, &w, 1);
	for (int i = 0; i < 100; i++) {
		now += 100;
		host_tick(&h, now);
	}
	ck_assert(h.paused);
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert_int_eq(told_moves(&heard, from), before);
	ck_assert_int_eq(pauses(&heard, from, 1, NULL), 1);
	set_full(&st, &w, 0);
	now += HOST_RETRY_MS;
	host_tick(&h, now);
	ck_assert_int_eq(h.paused, 0);
	ck_assert_int_eq(pauses(&heard, from, 0, NULL), 1);
	/* Her whole time: two seconds on, nobody played for her. */
	for (int i = 0; i < 20; i++) {
		now += 100;
		host_tick(&h, now);
	}
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert(table_awaits(&h.t, 0));
	struct action a;
	anne_move(&h, &a);
	ck_assert_int_eq(host_action(&h, "Anne", &a, now), 0);
	ck_assert_int_eq(table_moves(&h.t), before + 1);
	check_restart(&h, &st, &cfg, told_moves(&heard, 0));
	host_free(&h);
	heard_free(&heard);
	store_close(&st);
	where_free(&w);
}
END_TEST

/* ---- real failures: a file size limit (EFBIG) in a child process ---- */

static long long file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static void limit_files(long long bytes)
{
	struct rlimit rl;
	getrlimit(RLIMIT_FSIZE, &rl);
	rl.rlim_cur = bytes < 0 ? rl.rlim_max : (rlim_t)bytes;
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
		_exit(90);
}

/* Run fn in a child with SIGXFSZ ignored; its failures come back as the
 * exit status (0: every check held). */
static void in_child(int (*fn)(const char *dir), const char *dir)
{
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		alarm(60);
		_exit(fn(dir));
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "check %d failed in the child (status %d)",
	              WIFEXITED(status) ? WEXITSTATUS(status) : -1, status);
}

#define NEED(cond, code)                                                                                    \
	do {                                                                                                   \
		if (!(cond))                                                                                       \
			return (code);                                                                                 \
	} while (0)

/* SQLite for real: its file cannot grow (EFBIG). */
static int sqlite_full(const char *dir)
{
	char db[256], wal[300], err[256];
	snprintf(db, sizeof db, "%s/server.db", dir);
	snprintf(wal, sizeof wal, "%s-wal", db);
	char errs[300];
	snprintf(errs, sizeof errs, "%s/stderr.txt", dir);
	NEED(freopen(errs, "w", stderr) != NULL, 20);
	setvbuf(stderr, NULL, _IONBF, 0);
	struct store st;
	NEED(store_open(&st, "sqlite", db, err, sizeof err) == 0, 2);
	static struct host h;
	static struct heard heard;
	table_up(&h, 1, &st, &cfg_nolog, &heard);
	long long now = until_anne(&h, 1000);
	int before = table_moves(&h.t), from = heard.n;
	long long big = file_size(wal) > file_size(db) ? file_size(wal) : file_size(db);
	NEED(big > 0, 3);
	limit_files(big);
	struct action a;
	anne_move(&h, &a);
	NEED(host_action(&h, "Anne", &a, now) == -1, 4);
	NEED(table_moves(&h.t) == before && told_moves(&heard, from) == before, 5);
	NEED(pauses(&heard, from, 1, NULL) == 1, 6);
	for (int i = 0; i < 5; i++) {
		now += HOST_RETRY_MS;
		host_tick(&h, now);
	}
	NEED(h.paused && table_moves(&h.t) == before && pauses(&heard, from, 1, NULL) == 1, 7);
	limit_files(-1);
	now += HOST_RETRY_MS;
	host_tick(&h, now);
	NEED(!h.paused && table_moves(&h.t) == before + 1 && pauses(&heard, from, 0, NULL) == 1, 8);
	for (int i = 0; i < 20; i++) {
		now += 10;
		host_tick(&h, now);
	}
	int told = told_moves(&heard, 0);
	host_free(&h);
	store_close(&st);
	/* The operator was told once, then once more when it wrote again. */
	NEED(count_in(errs, "store: cannot write") == 1 && count_in(errs, "store: writing again") == 1, 21);
	/* Another process starts from the file: exactly the moves told. */
	NEED(store_open(&st, "sqlite", db, err, sizeof err) == 0, 9);
	struct heard heard2 = { { 0 }, 0 };
	struct restored r = { &h, &st, &cfg_nolog, &heard2, 0 };
	NEED(store_table_each(&st, restore_row, &r) == 0 && r.n == 1, 10);
	NEED(table_moves(&h.t) == told, 11);
	host_free(&h);
	store_close(&st);
	return 0;
}

START_TEST(test_sqlite_full_pauses)
{
	char dir[] = "/tmp/tapis-store-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	in_child(sqlite_full, dir);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The hand history cannot grow: the move waits, the file keeps whole lines
 * only; once it can, the history goes on and replays. */
static int log_full(const char *dir)
{
	char err[256], path[300];
	struct store st;
	NEED(store_open(&st, "memory", NULL, err, sizeof err) == 0, 2);
	struct host_config cfg = cfg_nolog;
	cfg.log_dir = dir;
	char errs[300];
	snprintf(errs, sizeof errs, "%s/stderr.txt", dir);
	NEED(freopen(errs, "w", stderr) != NULL, 20);
	setvbuf(stderr, NULL, _IONBF, 0);
	static struct host h;
	static struct heard heard;
	table_up(&h, 4, &st, &cfg, &heard);
	long long now = until_anne(&h, 1000);
	snprintf(path, sizeof path, "%s/4.jsonl", dir);
	long long size = file_size(path);
	NEED(size > 0, 3);
	int before = table_moves(&h.t), from = heard.n;
	/* Room for a few bytes more, not for the lines of the move. */
	limit_files(size + 10);
	struct action a;
	anne_move(&h, &a);
	NEED(host_action(&h, "Anne", &a, now) == -1, 4);
	NEED(table_moves(&h.t) == before && told_moves(&heard, from) == before, 5);
	NEED(pauses(&heard, from, 1, NULL) == 1, 6);
	NEED(file_size(path) == size, 7); /* no part of a line left */
	for (int i = 0; i < 5; i++) {
		now += HOST_RETRY_MS;
		host_tick(&h, now);
	}
	NEED(h.paused && file_size(path) == size && pauses(&heard, from, 1, NULL) == 1, 8);
	/* Nothing was stored either: the journal and the history agree. */
	limit_files(-1);
	now += HOST_RETRY_MS;
	host_tick(&h, now);
	NEED(!h.paused && table_moves(&h.t) == before + 1 && pauses(&heard, from, 0, NULL) == 1, 9);
	NEED(file_size(path) > size, 10);
	for (int i = 0; i < 2000 && table_to_act(&h.t) >= 0; i++) {
		now += 10;
		if (table_awaits(&h.t, 0)) {
			anne_move(&h, &a);
			NEED(host_action(&h, "Anne", &a, now) == 0, 11);
		}
		host_tick(&h, now);
	}
	NEED(table_to_act(&h.t) < 0, 12);
	host_free(&h);
	store_close(&st);
	NEED(count_in(errs, "cannot be written") == 1 && count_in(errs, "written again") == 1, 21);
	/* The history replays: each line once, whole. */
	NEED(replay_file(path, NULL, err, sizeof err) == 0, 13);
	return 0;
}

START_TEST(test_log_full_pauses)
{
	char dir[] = "/tmp/tapis-store-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	in_child(log_full, dir);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---- the hand history's file ---- */

static char *slurp(const char *path)
{
	size_t len = 0;
	char *s = NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		s = realloc(s, len + n + 1);
		memcpy(s + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!s)
		s = calloc(1, 1);
	s[len] = '\0';
	return s;
}

/* A line that cannot be written whole is not written at all. */
static int whole_lines(const char *dir)
{
	char path[300], err[256];
	snprintf(path, sizeof path, "%s/h.jsonl", dir);
	struct history h;
	NEED(hist_open(&h, path, err, sizeof err) == 0, 2);
	struct event e;
	ev_init(&e, EV_HAND_START);
	e.hand = 1;
	NEED(hist_event(&h, &e) == 0, 3);
	long long size = file_size(path);
	limit_files(size + 5);
	NEED(hist_event(&h, &e) == -1, 4);
	NEED(file_size(path) == size, 5);
	NEED(hist_failed(&h, err, sizeof err) == -1 && strstr(err, "File too large"), 6);
	limit_files(-1);
	hist_release(&h);
	char *text = slurp(path);
	NEED(text && strlen(text) == (size_t)size && text[size - 1] == '\n', 7);
	free(text);
	return 0;
}

START_TEST(test_history_whole_lines)
{
	char dir[] = "/tmp/tapis-store-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	in_child(whole_lines, dir);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A new table's history never empties a file there (moved aside); a
 * restored table's goes on after its lines, each written once; the files
 * are the server's alone, whatever the umask. */
START_TEST(test_history_never_emptied)
{
	char dir[] = "/tmp/tapis-store-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	umask(0);
	char path[300], aside[320];
	snprintf(path, sizeof path, "%s/9.jsonl", dir);
	snprintf(aside, sizeof aside, "%s.1", path);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"type\":\"game_start\",\"seq\":0,\"game\":\"an older game\"}\n", f);
	fclose(f);
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", NULL, err, sizeof err), 0);
	struct host_config cfg = cfg_nolog;
	cfg.log_dir = dir;
	static struct host h;
	static struct heard heard;
	table_up(&h, 9, &st, &cfg, &heard);
	long long now = until_anne(&h, 1000);
	struct action a;
	anne_move(&h, &a);
	ck_assert_int_eq(host_action(&h, "Anne", &a, now), 0);
	for (int i = 0; i < 10; i++)
		host_tick(&h, now += 10);
	char *old = slurp(aside);
	ck_assert_ptr_nonnull(old);
	ck_assert_ptr_nonnull(strstr(old, "an older game"));
	free(old);
	struct stat sb;
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 077, 0);
	char *before = slurp(path);
	/* The server stops (the table is kept in the store) and starts again. */
	host_free(&h);
	static struct host again;
	struct heard heard2 = { { 0 }, 0 };
	struct restored r = { &again, &st, &cfg, &heard2, 0 };
	ck_assert_int_eq(store_table_each(&st, restore_row, &r), 0);
	char *after = slurp(path);
	ck_assert_str_eq(after, before);
	/* Play goes on; the file grows from where it was, and replays. */
	for (int i = 0; i < 3000 && table_to_act(&again.t) >= 0; i++) {
		now += 10;
		if (table_awaits(&again.t, 0)) {
			struct host_member *m = host_member(&again, "Anne");
			ck_assert_ptr_nonnull(m);
			char e2[256];
			ck_assert_int_eq(host_join(&again, "Anne", "fr", 1, 0, now, e2, sizeof e2), 0);
			anne_move(&again, &a);
			ck_assert_int_eq(host_action(&again, "Anne", &a, now), 0);
		}
		host_tick(&again, now);
	}
	ck_assert_int_lt(table_to_act(&again.t), 0);
	host_free(&again);
	char *end = slurp(path);
	ck_assert_int_eq(strncmp(end, before, strlen(before)), 0);
	ck_assert_msg(replay_file(path, NULL, err, sizeof err) == 0, "%s", err);
	free(before);
	free(after);
	free(end);
	heard_free(&heard);
	heard_free(&heard2);
	store_close(&st);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* What the callbacks saw, as text, one line a call. */
struct seen {
	char text[16384];
	int n;
};
static void seen_add(struct seen *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void seen_add(struct seen *x, const char *fmt, ...)
{
	size_t len = strlen(x->text);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->text + len, sizeof x->text - len, fmt, ap);
	va_end(ap);
	x->n++;
}
static void see_table(void *ctx, const struct store_table *t)
{
	seen_add(ctx, "%ld %s %d %llu %d %d %s %d %s|%s|%s|%s\n", t->id, t->game, t->players,
	         (unsigned long long)t->seed, t->seed_by, t->state, t->creator, t->private_, t->pwhash, t->rules,
	         t->seats, t->watchers);
}
static void see_action(void *ctx, int seat, const char *action) { seen_add(ctx, "%d %s\n", seat, action); }
static void see_stat(void *ctx, const struct store_stat *x)
{
	/* The rating means something only when there is one. */
	seen_add(ctx, "%s %s %d %d %d %lld %d %.6f %.6f %.6f %d\n", x->name, x->game, x->games, x->deals, x->won, x->net,
	         x->has_rating, x->has_rating ? x->rating.r : 0, x->has_rating ? x->rating.rd : 0,
	         x->has_rating ? x->rating.sigma : 0, x->rated_games);
}
static void see_played(void *ctx, const struct store_played *p)
{
	ck_assert_int_gt(p->id, 0);
	seen_add(ctx, "%ld %s %lld %d %d %d %d %lld\n", p->table, p->game, p->ended, p->seat, p->place, p->won, p->rated,
	         p->net);
}
static void see_role(void *ctx, const char *name, const char *role) { seen_add(ctx, "%s=%s\n", name, role); }
static void see_ban(void *ctx, const struct store_ban *b)
{
	seen_add(ctx, "%s %lld %s|%s\n", b->name, b->until, b->reason, b->by);
}
static void see_audit(void *ctx, const struct store_audit *a)
{
	seen_add(ctx, "%lld %s %s %s %lld %s\n", a->when, a->who, a->whom, a->what, a->until, a->reason);
}
static void see_name(void *ctx, const char *name) { seen_add(ctx, "%s\n", name); }

static struct store_table a_table(long id, const char *creator)
{
	struct store_table t;
	memset(&t, 0, sizeof t);
	t.id = id;
	snprintf(t.game, sizeof t.game, "brelan");
	t.players = 4;
	t.seed = 18446744073709551615ULL; /* the largest: kept as text */
	t.seed_by = 1;
	t.state = 2;
	snprintf(t.creator, sizeof t.creator, "%s", creator);
	t.private_ = 1;
	snprintf(t.pwhash, sizeof t.pwhash, "$argon2id$v=19$m=65536");
	snprintf(t.rules, sizeof t.rules, "hands=3\nante=2");
	snprintf(t.seats, sizeof t.seats, "[\"open\",\"bot:2\",{\"name\":\"%s\",\"level\":0}]", creator);
	snprintf(t.watchers, sizeof t.watchers, "[{\"name\":\"Zoé\",\"lang\":\"fr\"}]");
	return t;
}

static void record_game(struct store *st, long table, const char *game, int rated, long long ended, const char *a,
                        const char *b)
{
	struct store_game g;
	memset(&g, 0, sizeof g);
	g.table = table;
	snprintf(g.game, sizeof g.game, "%s", game);
	g.ended = ended;
	g.deals = 3;
	g.rated = rated;
	g.n = 2;
	snprintf(g.p[0].name, sizeof g.p[0].name, "%s", a);
	g.p[0].seat = 0;
	g.p[0].place = 0;
	g.p[0].won = 1;
	g.p[0].net = 40;
	g.p[0].after = (struct rating){ 1612.5, 250.25, 0.06 };
	snprintf(g.p[1].name, sizeof g.p[1].name, "%s", b);
	g.p[1].seat = 2;
	g.p[1].place = 1;
	g.p[1].net = -40;
	g.p[1].after = (struct rating){ 1387.5, 250.25, 0.06 };
	ck_assert_int_eq(store_game_record(st, &g), 0);
	/* Its own id, which names its hand history, and is listed with it. */
	ck_assert_int_gt(g.id, 0);
}

/* Every operation, with the meaning SQLite gives it, on each backend. */
START_TEST(test_store_ops)
{
	struct store st;
	struct where w;
	if (!open_fresh(_i, &st, &w))
		return;
	char hash[128];
	long long exp = 0;
	/* Accounts and their settings. */
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 0);
	ck_assert_int_eq(store_account_put(&st, "Anne", "h1"), 0);
	ck_assert_int_eq(store_account_put(&st, "Anne", "h2"), 0);
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	ck_assert_str_eq(hash, "h2");
	struct store_settings set = { "fr", 2, "{\"rate\":3}" }, got;
	ck_assert_int_eq(store_settings_put(&st, "Nobody", &set), 0);
	ck_assert_int_eq(store_settings_get(&st, "Nobody", &got), 0);
	ck_assert_int_eq(store_settings_put(&st, "Anne", &set), 0);
	ck_assert_int_eq(store_settings_get(&st, "Anne", &got), 1);
	ck_assert_str_eq(got.lang, "fr");
	ck_assert_int_eq(got.verbosity, 2);
	ck_assert_str_eq(got.extra, "{\"rate\":3}");
	/* Sessions. */
	ck_assert_int_eq(store_session_get(&st, "guest1", hash, sizeof hash, &exp), 0);
	ck_assert_int_eq(store_session_put(&st, "guest1", "s1", 100), 0);
	ck_assert_int_eq(store_session_put(&st, "guest1", "s2", 4102444800LL), 0);
	ck_assert_int_eq(store_session_get(&st, "guest1", hash, sizeof hash, &exp), 1);
	ck_assert_str_eq(hash, "s2");
	ck_assert_int_eq(exp, 4102444800LL);
	ck_assert_int_eq(store_session_delete(&st, "guest1"), 0);
	ck_assert_int_eq(store_session_get(&st, "guest1", hash, sizeof hash, &exp), 0);
	/* Several at once (a batch of logins), in their order. */
	struct store_session_write many[] = { { "g2", "a", 10 }, { "g3", "b", 20 }, { "g2", NULL, 0 },
		                              { "g3", "c", 30 } };
	ck_assert_int_eq(store_session_write_many(&st, many, 4), 0);
	ck_assert_int_eq(store_session_get(&st, "g2", hash, sizeof hash, &exp), 0);
	ck_assert_int_eq(store_session_get(&st, "g3", hash, sizeof hash, &exp), 1);
	ck_assert_str_eq(hash, "c");
	ck_assert_int_eq(exp, 30);
	/* Tables, in order of id, and their journals: a table saved again
	 * keeps its journal; an action written again replaces it. */
	struct store_table t3 = a_table(3, "Anne"), t1 = a_table(1, "Ben");
	ck_assert_int_eq(store_table_put(&st, &t3), 0);
	ck_assert_int_eq(store_table_put(&st, &t1), 0);
	for (int n = 0; n < 3; n++)
		ck_assert_int_eq(store_journal_add(&st, 3, n, n, n == 1 ? "raise 5" : "call"), 0);
	ck_assert_int_eq(store_journal_add(&st, 3, 1, 2, "fold"), 0);
	t3.state = 3;
	ck_assert_int_eq(store_table_put(&st, &t3), 0);
	/* One row by id; several taken over at once. */
	struct store_table one;
	ck_assert_int_eq(store_table_get(&st, 3, &one), 1);
	ck_assert_str_eq(one.creator, "Anne");
	ck_assert_int_eq(one.state, 3);
	ck_assert_int_eq(store_table_get(&st, 99, &one), 0);
	long own_ids[] = { 3, 99, 1 };
	signed char owned[3];
	ck_assert_int_eq(store_table_own_many(&st, own_ids, 3, owned), 0);
	ck_assert_int_eq(owned[0], 1);
	ck_assert_int_eq(owned[2], 1);
	if (_i == B_PG)
		ck_assert_int_eq(owned[1], 0);
	struct seen x = { "", 0 }, want = { "", 0 };
	see_table(&want, &t1);
	see_table(&want, &t3);
	ck_assert_int_eq(store_table_each(&st, see_table, &x), 0);
	ck_assert_str_eq(x.text, want.text);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_journal_each(&st, 3, see_action, &x), 0);
	ck_assert_str_eq(x.text, "0 call\n2 fold\n2 call\n");
	ck_assert_int_eq(store_table_delete(&st, 3), 0);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_journal_each(&st, 3, see_action, &x), 0);
	ck_assert_int_eq(x.n, 0);
	long last;
	ck_assert_int_eq(store_last_id(&st, &last), 0);
	ck_assert_int_eq(last, 3);
	/* Finished games: figures, ratings, the leaders, the last games. */
	struct rating r;
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 0);
	ck_assert_int_eq(store_account_put(&st, "Ben", "h"), 0);
	record_game(&st, 1, "brelan", 1, 1000, "Anne", "Ben");
	record_game(&st, 1, "bourre", 0, 1001, "Ben", "Anne");
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 1);
	ck_assert(r.r == 1612.5 && r.rd == 250.25 && r.sigma == 0.06);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_stat_each(&st, "Anne", see_stat, &x), 0);
	ck_assert_str_eq(x.text, "Anne bourre 1 3 0 -40 0 0.000000 0.000000 0.000000 0\n"
	                         "Anne brelan 1 3 1 40 1 1612.500000 250.250000 0.060000 1\n");
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_leaders(&st, "brelan", 10, see_stat, &x), 0);
	ck_assert_str_eq(x.text, "Anne brelan 1 3 1 40 1 1612.500000 250.250000 0.060000 1\n"
	                         "Ben brelan 1 3 0 -40 1 1387.500000 250.250000 0.060000 1\n");
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_leaders(&st, "brelan", 1, see_stat, &x), 0);
	ck_assert_int_eq(x.n, 1);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_recent(&st, "Anne", see_played, &x), 0);
	ck_assert_str_eq(x.text, "1 bourre 1001 2 1 0 0 -40\n1 brelan 1000 0 0 1 1 40\n");
	/* Only the last STORE_RECENT_GAMES are kept, the latest first. */
	for (int i = 0; i < STORE_RECENT_GAMES + 3; i++)
		record_game(&st, 10 + i, "brelan", 0, 2000 + i, "Anne", "Ben");
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_recent(&st, "Anne", see_played, &x), 0);
	ck_assert_int_eq(x.n, STORE_RECENT_GAMES);
	ck_assert_int_eq(strncmp(x.text, "32 brelan 2022 ", 15), 0);
	/* Moderation. */
	char role[32];
	ck_assert_int_eq(store_role_get(&st, "Ben", role, sizeof role), 0);
	ck_assert_int_eq(store_role_put(&st, "Ben", "moderator"), 0);
	ck_assert_int_eq(store_role_put(&st, "Anne", "moderator"), 0);
	ck_assert_int_eq(store_role_get(&st, "Ben", role, sizeof role), 1);
	ck_assert_str_eq(role, "moderator");
	ck_assert_int_eq(store_role_put(&st, "Ben", "player"), 0);
	ck_assert_int_eq(store_role_get(&st, "Ben", role, sizeof role), 0);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_role_each(&st, see_role, &x), 0);
	ck_assert_str_eq(x.text, "Anne=moderator\n");
	struct store_ban b = { "Zed", 5000, "spam", "Anne" }, bz = { "Eve", 0, "", "operator" }, bg;
	ck_assert_int_eq(store_ban_put(&st, &b), 0);
	ck_assert_int_eq(store_ban_put(&st, &bz), 0);
	b.until = 6000;
	ck_assert_int_eq(store_ban_put(&st, &b), 0);
	ck_assert_int_eq(store_ban_get(&st, "Zed", &bg), 1);
	ck_assert_int_eq(bg.until, 6000);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_ban_each(&st, see_ban, &x), 0);
	ck_assert_str_eq(x.text, "Eve 0 |operator\nZed 6000 spam|Anne\n");
	/* A ban holds for the names alike (the one ending last). */
	struct store_ban bz2 = { "ZED", 7000, "again", "Anne" };
	ck_assert_int_eq(store_ban_put(&st, &bz2), 0);
	ck_assert_int_eq(store_ban_alike(&st, "Z\u00e9d", &bg), 1);
	ck_assert_str_eq(bg.name, "ZED");
	ck_assert_int_eq(bg.until, 7000);
	ck_assert_int_eq(store_ban_delete(&st, "ZED"), 0);
	ck_assert_int_eq(store_ban_alike(&st, "zed", &bg), 1);
	ck_assert_str_eq(bg.name, "Zed");
	ck_assert_int_eq(store_ban_alike(&st, "Zoe", &bg), 0);
	ck_assert_int_eq(store_ban_delete(&st, "Zed"), 0);
	ck_assert_int_eq(store_ban_get(&st, "Zed", &bg), 0);
	ck_assert_int_eq(store_ban_alike(&st, "zed", &bg), 0);
	/* The accounts whose names look alike, here or not (an index). */
	char other[100];
	ck_assert_int_eq(store_account_put(&st, "Paulo", "hp"), 0);
	static const char *const like[] = { "paulo", "P\u00e1ulo", "Pau1o", "PAU-LO" };
	for (size_t i = 0; i < sizeof like / sizeof *like; i++) {
		other[0] = '\0';
		ck_assert_msg(store_account_alike(&st, like[i], other, sizeof other) == 1, "%s", like[i]);
		ck_assert_str_eq(other, "Paulo");
	}
	ck_assert_int_eq(store_account_alike(&st, "Paulo", other, sizeof other), 0); /* itself */
	ck_assert_int_eq(store_account_alike(&st, "Paula", other, sizeof other), 0);
	struct store_audit a1 = { 10, "Anne", "Zed", "ban", 6000, "spam" }, a2 = { 9, "operator", "Ben", "role", 0, "player" };
	ck_assert_int_eq(store_audit_add(&st, &a1), 0);
	ck_assert_int_eq(store_audit_add(&st, &a2), 0);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_audit_each(&st, see_audit, &x), 0);
	ck_assert_str_eq(x.text, "10 Anne Zed ban 6000 spam\n9 operator Ben role 0 player\n");
	ck_assert_int_eq(store_mute_put(&st, "Anne", "Zed", 1), 0);
	ck_assert_int_eq(store_mute_put(&st, "Anne", "Zed", 1), 0);
	ck_assert_int_eq(store_mute_put(&st, "Anne", "Ben", 1), 0);
	ck_assert_int_eq(store_mute_put(&st, "Ben", "Anne", 1), 0);
	ck_assert_int_eq(store_mute_put(&st, "Anne", "Zed", 0), 0);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_mute_each(&st, "Anne", see_name, &x), 0);
	ck_assert_str_eq(x.text, "Ben\n");
	store_close(&st);
	/* Opened again: everything kept. */
	if (open_again(_i, &st, &w)) {
		ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
		ck_assert_str_eq(hash, "h2");
		memset(&x, 0, sizeof x);
		ck_assert_int_eq(store_table_each(&st, see_table, &x), 0);
		ck_assert_int_eq(x.n, 1);
		ck_assert_int_eq(store_last_id(&st, &last), 0);
		ck_assert_int_eq(last, 3);
		store_close(&st);
	}
	where_free(&w);
}
END_TEST

/* What a stranger sends, kept as sent: quotes, backslashes, SQL, dollars,
 * letters of every script, each field at its limit. */
static void fill(char *dst, size_t len, const char *pattern)
{
	size_t n = 0, plen = strlen(pattern);
	while (n + plen < len) {
		memcpy(dst + n, pattern, plen);
		n += plen;
	}
	while (n + 1 < len)
		dst[n++] = 'x';
	dst[n] = '\0';
}

START_TEST(test_store_hostile)
{
	struct store st;
	struct where w;
	if (!open_fresh(_i, &st, &w))
		return;
	static const char evil[] = "'\"\\;$1 DROP TABLE accounts; -- é€𝄞%s\t";
	char name[STORE_NAME_MAX], hash[128], back[128];
	fill(name, sizeof name, evil);
	fill(hash, sizeof hash, "'\\");
	ck_assert_int_eq(store_account_put(&st, name, hash), 0);
	ck_assert_int_eq(store_account_get(&st, name, back, sizeof back), 1);
	ck_assert_str_eq(back, hash);
	struct store_settings set, got;
	memset(&set, 0, sizeof set);
	snprintf(set.lang, sizeof set.lang, "'x");
	set.verbosity = 3;
	fill(set.extra, sizeof set.extra, "{\"'\":\"\\\\\"}");
	ck_assert_int_eq(store_settings_put(&st, name, &set), 0);
	ck_assert_int_eq(store_settings_get(&st, name, &got), 1);
	ck_assert_str_eq(got.extra, set.extra);
	ck_assert_str_eq(got.lang, set.lang);
	struct store_table t = a_table(LONG_MAX / 2, "x");
	fill(t.creator, sizeof t.creator, evil);
	fill(t.pwhash, sizeof t.pwhash, "$'");
	fill(t.rules, sizeof t.rules, "k='v'\n");
	fill(t.seats, sizeof t.seats, evil);
	fill(t.watchers, sizeof t.watchers, evil);
	ck_assert_int_eq(store_table_put(&st, &t), 0);
	struct seen x = { "", 0 }, want = { "", 0 };
	see_table(&want, &t);
	ck_assert_int_eq(store_table_each(&st, see_table, &x), 0);
	ck_assert_str_eq(x.text, want.text);
	char action[60];
	fill(action, sizeof action, "'; --");
	ck_assert_int_eq(store_journal_add(&st, t.id, 0, 1, action), 0);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_journal_each(&st, t.id, see_action, &x), 0);
	char line[80];
	snprintf(line, sizeof line, "1 %s\n", action);
	ck_assert_str_eq(x.text, line);
	struct store_ban b, bg;
	memset(&b, 0, sizeof b);
	fill(b.name, sizeof b.name, evil);
	fill(b.reason, sizeof b.reason, evil);
	fill(b.by, sizeof b.by, "\"");
	b.until = LLONG_MAX;
	ck_assert_int_eq(store_ban_put(&st, &b), 0);
	ck_assert_int_eq(store_ban_get(&st, b.name, &bg), 1);
	ck_assert(memcmp(&b, &bg, sizeof b) == 0);
	ck_assert_int_eq(store_mute_put(&st, name, b.name, 1), 0);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_mute_each(&st, name, see_name, &x), 0);
	ck_assert_int_eq(x.n, 1);
	/* A name that only looks like another matches nothing. */
	ck_assert_int_eq(store_account_get(&st, "' OR '1'='1", back, sizeof back), 0);
	ck_assert_int_eq(store_account_get(&st, "%", back, sizeof back), 0);
	store_close(&st);
	where_free(&w);
}
END_TEST

/* A table played on each backend, and the server restarted on the same
 * store (another connection, as a new process): the same game, at the
 * move last told. */
START_TEST(test_store_restart)
{
	struct store st, again;
	struct where w;
	if (!open_fresh(_i, &st, &w))
		return;
	static struct host h;
	static struct heard heard;
	table_up(&h, 2, &st, &cfg_nolog, &heard);
	long long now = until_anne(&h, 1000);
	struct action a;
	anne_move(&h, &a);
	ck_assert_int_eq(host_action(&h, "Anne", &a, now), 0);
	for (int i = 0; i < 30; i++)
		host_tick(&h, now += 10);
	int told = told_moves(&heard, 0);
	ck_assert_int_gt(told, 1);
	check_restart(&h, open_again(_i, &again, &w) ? &again : &st, &cfg_nolog, told);
	if (_i != B_MEMORY)
		store_close(&again);
	host_free(&h);
	heard_free(&heard);
	store_close(&st);
	where_free(&w);
}
END_TEST

static void ids_survive(int b)
{
	struct store st;
	struct where w;
	if (!open_fresh(b, &st, &w))
		return;
	long last = -1;
	ck_assert_int_eq(store_last_id(&st, &last), 0);
	ck_assert_int_eq(last, 0);
	struct store_table t;
	memset(&t, 0, sizeof t);
	snprintf(t.game, sizeof t.game, "brelan");
	snprintf(t.seats, sizeof t.seats, "[]");
	t.players = 4;
	t.id = 4;
	ck_assert_int_eq(store_table_put(&st, &t), 0);
	t.id = 6;
	ck_assert_int_eq(store_table_put(&st, &t), 0);
	ck_assert_int_eq(store_last_id(&st, &last), 0);
	ck_assert_int_eq(last, 6);
	/* The newest table goes: its id is still given. */
	ck_assert_int_eq(store_table_delete(&st, 6), 0);
	ck_assert_int_eq(store_last_id(&st, &last), 0);
	ck_assert_int_eq(last, 6);
	store_close(&st);
	if (open_again(b, &st, &w)) {
		ck_assert_int_eq(store_last_id(&st, &last), 0);
		ck_assert_int_eq(last, 6);
		store_close(&st);
	}
	if (b == B_SQLITE) {
		struct stat sb;
		ck_assert_int_eq(stat(w.path, &sb), 0);
		ck_assert_int_eq(sb.st_mode & 077, 0);
	}
	where_free(&w);
}

START_TEST(test_store_ids_and_mode)
{
	umask(0);
	ids_survive(_i);
}
END_TEST

/* ---- PostgreSQL alone ---- */

/* The tables of version 1 as the SQLite store had them, in PostgreSQL's
 * words, with a few rows. */
static const char pg_schema_1[] =
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);"
	"CREATE TABLE accounts (name TEXT PRIMARY KEY, hash TEXT NOT NULL,"
	"  created BIGINT NOT NULL DEFAULT 0);"
	"CREATE TABLE tables (id BIGINT PRIMARY KEY, game TEXT NOT NULL,"
	"  players INTEGER NOT NULL, seed TEXT NOT NULL, state INTEGER NOT NULL,"
	"  creator TEXT NOT NULL, private INTEGER NOT NULL, pwhash TEXT NOT NULL,"
	"  rules TEXT NOT NULL, seats TEXT NOT NULL, watchers TEXT NOT NULL DEFAULT '[]',"
	"  seed_by INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE journal (tab BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,"
	"  n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (tab, n));"
	"CREATE TABLE sessions (name TEXT PRIMARY KEY, hash TEXT NOT NULL, expires BIGINT NOT NULL);"
	"INSERT INTO meta VALUES ('schema', 1), ('last_table', 9);"
	"INSERT INTO accounts (name, hash) VALUES ('Anne', 'hash-of-anne');"
	"INSERT INTO tables VALUES (7, 'brelan', 2, '42', 0, 'Anne', 0, '', '', '[\"open\",\"open\"]', '[]', 0);"
	"INSERT INTO journal VALUES (7, 0, 1, 'call');";

static long long pg_version(const char *url)
{
	PGconn *c = PQconnectdb(url);
	ck_assert_int_eq(PQstatus(c), CONNECTION_OK);
	PGresult *r = PQexec(c, "SELECT value FROM meta WHERE key = 'schema'");
	long long v = PQntuples(r) ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
	PQclear(r);
	PQfinish(c);
	return v;
}

/* A database of version 1 is upgraded in place, its rows kept; one of a
 * newer tapis is refused untouched. */
START_TEST(test_pg_upgrade)
{
	if (pg_state == 0)
		return;
	ck_assert_msg(pg_state == 1, "PostgreSQL: %s", pg_why);
	char url[256], err[512];
	ck_assert_msg(pgtmp_db(&pg, "old", url, sizeof url, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(pgtmp_sql(url, pg_schema_1, err, sizeof err) == 0, "%s", err);
	struct store st;
	ck_assert_msg(store_open(&st, "postgresql", url, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(pg_version(url), STORE_SCHEMA_VERSION);
	char hash[64];
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	ck_assert_str_eq(hash, "hash-of-anne");
	struct seen x = { "", 0 };
	ck_assert_int_eq(store_journal_each(&st, 7, see_action, &x), 0);
	ck_assert_str_eq(x.text, "1 call\n");
	long last;
	ck_assert_int_eq(store_last_id(&st, &last), 0);
	ck_assert_int_eq(last, 9);
	struct store_settings set;
	ck_assert_int_eq(store_settings_get(&st, "Anne", &set), 1);
	ck_assert_int_eq(set.verbosity, -1);
	ck_assert_str_eq(set.lang, "");
	ck_assert_int_eq(store_account_put(&st, "Ben", "h"), 0);
	record_game(&st, 7, "brelan", 1, 1000, "Anne", "Ben");
	struct rating r;
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 1);
	store_close(&st);
	/* Opened again: nothing to do, nothing lost. */
	ck_assert_msg(store_open(&st, "postgresql", url, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_rating_get(&st, "Anne", "brelan", &r), 1);
	/* The accounts of before are in the index of looks. */
	char other[100];
	ck_assert_int_eq(store_account_alike(&st, "ANNE", other, sizeof other), 1);
	ck_assert_str_eq(other, "Anne");
	store_close(&st);
	/* Its version lost: refused every time, nothing written (not taken
	 * for a version 0 and stepped to 1). */
	ck_assert_int_eq(pgtmp_sql(url, "DELETE FROM meta WHERE key = 'schema'", err, sizeof err), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(store_open(&st, "postgresql", url, err, sizeof err), -1);
		ck_assert_msg(strstr(err, "missing"), "%s", err);
		ck_assert_int_eq(pg_version(url), -1);
	}
	char newer[256];
	ck_assert_msg(pgtmp_db(&pg, "newer", newer, sizeof newer, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(pgtmp_sql(newer, "CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);"
	                                  "INSERT INTO meta VALUES ('schema', 99);", err, sizeof err), 0);
	ck_assert_int_eq(store_open(&st, "postgresql", newer, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "newer"), "%s", err);
	ck_assert_int_eq(pg_version(newer), 99);
}
END_TEST

/* The server's connection is cut (as by a restart of PostgreSQL): the next
 * call resets it and goes through; a call that must not be sent twice
 * fails once, and the one after it works. */
START_TEST(test_pg_reconnect)
{
	struct store st;
	struct where w;
	if (!open_fresh(B_PG, &st, &w))
		return;
	char err[512];
	static const char cut[] = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
	                          " WHERE datname = current_database() AND pid <> pg_backend_pid()";
	ck_assert_int_eq(store_account_put(&st, "Anne", "h"), 0);
	ck_assert_msg(pgtmp_sql(w.path, cut, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, "Ben", "h"), 0);
	char hash[64];
	ck_assert_int_eq(store_account_get(&st, "Ben", hash, sizeof hash), 1);
	ck_assert_msg(pgtmp_sql(w.path, cut, err, sizeof err) == 0, "%s", err);
	record_game(&st, 1, "brelan", 1, 1000, "Anne", "Ben");
	ck_assert_msg(pgtmp_sql(w.path, cut, err, sizeof err) == 0, "%s", err);
	struct store_audit a = { 10, "Anne", "Ben", "kick", 0, "" };
	ck_assert_int_eq(store_audit_add(&st, &a), -1);
	ck_assert_ptr_nonnull(strstr(st.err, "audit"));
	ck_assert_int_eq(store_audit_add(&st, &a), 0);
	struct seen x = { "", 0 };
	ck_assert_int_eq(store_audit_each(&st, see_audit, &x), 0);
	ck_assert_int_eq(x.n, 1);
	memset(&x, 0, sizeof x);
	ck_assert_int_eq(store_recent(&st, "Ben", see_played, &x), 0);
	ck_assert_int_eq(x.n, 1);
	store_close(&st);
	/* PostgreSQL restarted under the store: the next call finds it again.
	 * While it is down, a failed reconnection is not tried again for a
	 * while: the calls fail at once, even once it is back; then they work. */
	ck_assert_int_eq(store_open(&st, "postgresql", w.path, err, sizeof err), 0);
	ck_assert_int_eq(pgtmp_halt(&pg), 0);
	ck_assert_int_eq(pgtmp_resume(&pg), 0);
	ck_assert_int_eq(store_account_get(&st, "Ben", hash, sizeof hash), 1);
	ck_assert_int_eq(pgtmp_halt(&pg), 0);
	ck_assert_int_eq(store_account_get(&st, "Ben", hash, sizeof hash), -1);
	ck_assert_int_eq(pgtmp_resume(&pg), 0);
	ck_assert_int_eq(store_account_get(&st, "Ben", hash, sizeof hash), -1);
	int back = 0;
	for (int i = 0; i < 100 && !back; i++) {
		usleep(100000);
		back = store_account_get(&st, "Ben", hash, sizeof hash) == 1;
	}
	ck_assert(back);
	store_close(&st);
	/* Nobody there: the open fails, saying where without the password. */
	char url[128];
	snprintf(url, sizeof url, "postgresql://tapis:secret-word@127.0.0.1:%d/none", pg.port);
	ck_assert_int_eq(store_open(&st, "postgresql", url, err, sizeof err), -1);
	ck_assert_ptr_null(strstr(err, "secret-word"));
	ck_assert_ptr_nonnull(strstr(err, "tapis:***@127.0.0.1"));
}
END_TEST

START_TEST(test_pg_redact)
{
	char out[256];
	store_pg_redact("postgresql://u:p%40ss@h:5432/db", out, sizeof out);
	ck_assert_str_eq(out, "postgresql://u:***@h:5432/db");
	store_pg_redact("postgres://u@h/db?sslmode=require&password=pw&x=1", out, sizeof out);
	ck_assert_str_eq(out, "postgres://u@h/db?sslmode=require&password=***&x=1");
	store_pg_redact("postgresql://h/db", out, sizeof out);
	ck_assert_str_eq(out, "postgresql://h/db");
	store_pg_redact("postgresql://u@h/db?options=a:b@c", out, sizeof out);
	ck_assert_str_eq(out, "postgresql://u@h/db?options=a:b@c");
}
END_TEST

int main(void)
{
	char why[256];
	pg_state = pgtmp_start(&pg, why, sizeof why);
	snprintf(pg_why, sizeof pg_why, "%s", why);
	if (pg_state == 0 && pgtmp_missing_fails(why))
		pg_state = -1;
	else if (pg_state < 0)
		fprintf(stderr, "PostgreSQL could not start: %s\n", why);
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_store_full_pauses, 0, 2); /* memory, PostgreSQL */
	tcase_add_loop_test(tc, test_store_full_bots_wait, 0, 2); /* memory, PostgreSQL */
	tcase_add_loop_test(tc, test_store_full_timer_stops, 0, 2); /* memory, PostgreSQL */
	tcase_add_test(tc, test_sqlite_full_pauses);
	tcase_add_test(tc, test_log_full_pauses);
	tcase_add_test(tc, test_history_whole_lines);
	tcase_add_test(tc, test_history_never_emptied);
	tcase_add_loop_test(tc, test_store_ids_and_mode, 0, B_COUNT);
	tcase_add_loop_test(tc, test_store_ops, 0, B_COUNT);
	tcase_add_loop_test(tc, test_store_hostile, 0, B_COUNT);
	tcase_add_loop_test(tc, test_store_restart, 0, B_COUNT);
	tcase_add_test(tc, test_pg_upgrade);
	tcase_add_test(tc, test_pg_reconnect);
	tcase_add_test(tc, test_pg_redact);
	suite_add_tcase(s, tc);
	int rc = tu_run(s);
	pgtmp_stop(&pg);
	return rc;
}
