/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Nothing lost, and said when it is: a table whose store or hand history
 * cannot be written. The host plays with bots and one player (Anne, in
 * French) whose messages are kept; the store fails on demand (the memory
 * backend's store_memory_full) or for real (SQLite and the hand history
 * under a small RLIMIT_FSIZE, in a child process: EFBIG, as on a full
 * disk). No move is told while it cannot be kept, the pause is said once,
 * play resumes when it can, and a restart from the store replays exactly
 * the moves told. Then the hand history's file: whole lines only, never
 * emptied, never overwritten; and the ids a store gives never repeat. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
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
#include "net/host.h"
#include "net/store.h"
#include "testutil.h"

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

static const struct host_config cfg_nolog = { 600000, 0, NULL, 0, 600000, 0, 0, NULL, NULL, NULL };

/* A table of Brelan: Anne at seat 0 (French), bots elsewhere, started. */
static void table_up(struct host *h, long id, struct store *st, const struct host_config *cfg, struct heard *heard)
{
	const struct game_ops *g = registry_ops("brelan");
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	char err[256];
	ck_assert_int_eq(rules_set_arg(&r, "hands=1", err, sizeof err), 0);
	struct net_out out = { on_send, heard };
	ck_assert_msg(host_create(h, id, g, 4, &r, 12345, HOST_SEED_SERVER, "Anne", st, cfg, out, err, sizeof err) == 0, "%s", err);
	for (int s = 1; s < 4; s++)
		ck_assert_int_eq(host_set_seat(h, s, 0, 1, err, sizeof err), 0);
	h->seat[0].open = 1;
	ck_assert_msg(host_join(h, "Anne", "fr", 1, 0, 1000, err, sizeof err) == 0, "%s", err);
	host_save(h);
	ck_assert_msg(host_start(h, 1000, err, sizeof err) == 0, "%s", err);
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
	struct net_out out = { on_send, r->heard };
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
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", NULL, err, sizeof err), 0);
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
	store_memory_full(&st, 1);
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
	store_memory_full(&st, 0);
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
}
END_TEST

/* A bot's move that cannot be kept pauses the table too; nothing is told,
 * and the bots wait. */
START_TEST(test_store_full_bots_wait)
{
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", NULL, err, sizeof err), 0);
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
	store_memory_full(&st, 1);
	int before = table_moves(&h.t), from = heard.n;
	for (int i = 0; i < 30; i++) {
		now += 200;
		host_tick(&h, now);
	}
	ck_assert(h.paused);
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert_int_eq(told_moves(&heard, from), before);
	ck_assert_int_eq(pauses(&heard, from, 1, NULL), 1);
	store_memory_full(&st, 0);
	now += HOST_RETRY_MS;
	host_tick(&h, now);
	ck_assert_int_eq(h.paused, 0);
	ck_assert_int_gt(table_moves(&h.t), before);
	ck_assert_int_eq(pauses(&heard, from, 0, NULL), 1);
	check_restart(&h, &st, &cfg_nolog, told_moves(&heard, 0));
	host_free(&h);
	heard_free(&heard);
	store_close(&st);
}
END_TEST

/* The turn timer's move cannot be kept: the table pauses, the timer stops;
 * once the store writes again, play resumes and the player has her whole
 * time again. */
START_TEST(test_store_full_timer_stops)
{
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", NULL, err, sizeof err), 0);
	struct host_config cfg = cfg_nolog;
	cfg.turn_ms = 3000;
	static struct host h;
	static struct heard heard;
	table_up(&h, 5, &st, &cfg, &heard);
	long long now = until_anne(&h, 1000);
	host_tick(&h, now); /* the timer starts */
	int before = table_moves(&h.t), from = heard.n;
	store_memory_full(&st, 1);
	for (int i = 0; i < 100; i++) {
		now += 100;
		host_tick(&h, now);
	}
	ck_assert(h.paused);
	ck_assert_int_eq(table_moves(&h.t), before);
	ck_assert_int_eq(told_moves(&heard, from), before);
	ck_assert_int_eq(pauses(&heard, from, 1, NULL), 1);
	store_memory_full(&st, 0);
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

/* ---- the store's ids and files ---- */

static void ids_survive(const char *backend, const char *path)
{
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, backend, path, err, sizeof err) == 0, "%s", err);
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
	if (path) {
		store_close(&st);
		ck_assert_int_eq(store_open(&st, backend, path, err, sizeof err), 0);
		ck_assert_int_eq(store_last_id(&st, &last), 0);
		ck_assert_int_eq(last, 6);
	}
	store_close(&st);
}

START_TEST(test_store_ids_and_mode)
{
	ids_survive("memory", NULL);
	char dir[] = "/tmp/tapis-store-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/s.db", dir);
	umask(0);
	ids_survive("sqlite", path);
	struct stat sb;
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 077, 0);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_store_full_pauses);
	tcase_add_test(tc, test_store_full_bots_wait);
	tcase_add_test(tc, test_store_full_timer_stops);
	tcase_add_test(tc, test_sqlite_full_pauses);
	tcase_add_test(tc, test_log_full_pauses);
	tcase_add_test(tc, test_history_whole_lines);
	tcase_add_test(tc, test_history_never_emptied);
	tcase_add_test(tc, test_store_ids_and_mode);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
