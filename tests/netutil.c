/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "netutil.h"

#include <check.h>
#include <glob.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/action.h"
#include "net/cluster/node.h"
#include "net/server/auth.h"
#include "net/wire/proto.h"
#include "net/server/server.h"


/* Slow searches, for the tests: a bot's search (a hint's) ends only once
 * the file hold-bot (hold-hint) is gone from the server's directory. It
 * is called wherever the search runs: on the loop, it would hold
 * everything. */
static char hold_dir[64];

static void think_hold(int hint)
{
	char p[128];
	snprintf(p, sizeof p, "%s/hold-%s", hold_dir, hint ? "hint" : "bot");
	while (access(p, F_OK) == 0)
		usleep(1000);
}

static void ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

void history_path(const char *dir, long table, char *out, size_t len)
{
	snprintf(out, len, "%s/%ld.jsonl", dir, table);
	char pattern[4200];
	snprintf(pattern, sizeof pattern, "%s/%ld-[0-9]*.jsonl", dir, table);
	glob_t gl;
	if (access(out, F_OK) == 0 || glob(pattern, 0, NULL, &gl) != 0)
		return;
	/* The newest: the greatest game number. */
	long long best = -1;
	for (size_t i = 0; i < gl.gl_pathc; i++) {
		const char *dash = strrchr(gl.gl_pathv[i], '-');
		long long g = dash ? atoll(dash + 1) : 0;
		if (g > best) {
			best = g;
			snprintf(out, len, "%s", gl.gl_pathv[i]);
		}
	}
	globfree(&gl);
}

void srv_run(struct srv *s)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL); /* the server ends with exit(): nothing of ours twice */
	s->pid = fork();
	ck_assert_int_ge(s->pid, 0);
	if (s->pid == 0) {
		close(fds[0]);
		struct server_options o;
		server_options_default(&o);
		o.port = 0;
		o.db = s->db;
		if (s->store[0])
			o.store = s->store;
		if (s->cluster[0]) {
			o.cluster = s->cluster;
			o.node_id = s->node[0] ? s->node : NULL;
			o.node = &node_ops;
		}
		o.log_dir = s->logs;
		if (s->cert[0]) {
			o.cert = s->cert;
			o.key = s->key;
		}
		o.grace_ms = s->grace_ms ? s->grace_ms : 300;
		o.bot_delay_ms = 0;
		if (s->turn_ms)
			o.turn_ms = s->turn_ms;
		if (s->keep_ms)
			o.keep_ms = s->keep_ms;
		if (s->deserted_ms)
			o.deserted_ms = s->deserted_ms;
		if (s->close_ms)
			o.close_ms = s->close_ms;
		o.max_conns = s->max_conns;
		o.max_per_addr = s->max_per_addr;
		o.max_handshakes = s->max_handshakes;
		o.handshakes_per_prefix = s->handshakes_per_prefix;
		if (s->no_table_cap)
			o.tables_per_addr = o.tables_max = 0;
		if (s->rate_per_s)
			o.rate_per_s = s->rate_per_s;
		if (s->rate_burst)
			o.rate_burst = s->rate_burst;
		o.registration_closed = s->registration_closed;
		o.cheap_hash = s->hash_cost ? s->hash_cost : AUTH_COST_CHEAP;
		if (s->hello_ms)
			o.hello_ms = s->hello_ms;
		o.counters = s->counters;
		if (s->mem_floor_kb)
			o.mem_floor_kb = s->mem_floor_kb;
		o.meminfo = s->meminfo;
		if (s->fd_limit > 0) {
			struct rlimit r = { (rlim_t)s->fd_limit, (rlim_t)s->fd_limit };
			if (setrlimit(RLIMIT_NOFILE, &r) < 0)
				_exit(1);
		}
		if (s->hold) {
			snprintf(hold_dir, sizeof hold_dir, "%s", s->dir);
			o.think = think_hold;
		}
		o.quiet = 0;
		char logpath[160];
		snprintf(logpath, sizeof logpath, "%s/stderr.txt", s->dir);
		if (!freopen(logpath, "a", stderr))
			_exit(1);
		setvbuf(stderr, NULL, _IONBF, 0);
		o.on_ready = ready;
		o.ready_ctx = &fds[1];
		char err[256];
		alarm(60); /* never outlive the test */
		/* exit, not _exit: a coverage build (make coverage) writes what
		 * the server ran. */
		exit(server_run(&o, err, sizeof err) == 0 ? 0 : 1);
	}
	close(fds[1]);
	int port = 0;
	ck_assert_int_eq(read(fds[0], &port, sizeof port), (int)sizeof port);
	close(fds[0]);
	s->port = port;
	/* The certificate names localhost; plain connections go to the address. */
	snprintf(s->url, sizeof s->url, "%s://%s:%d", s->cert[0] ? "wss" : "ws", s->cert[0] ? "localhost" : "127.0.0.1",
	         port);
}

void srv_counters(struct srv *s)
{
	s->counters = mmap(NULL, sizeof *s->counters, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(s->counters, MAP_FAILED);
	memset(s->counters, 0, sizeof *s->counters);
}

/* A fresh directory for a server's store and logs (options may be set
 * before srv_run). */
void srv_make(struct srv *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->dir, sizeof s->dir, "/tmp/tapis-net-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->dir));
	snprintf(s->db, sizeof s->db, "%s/server.db", s->dir);
	snprintf(s->logs, sizeof s->logs, "%s/logs", s->dir);
	ck_assert_int_eq(mkdir(s->logs, 0700), 0);
}

void srv_start(struct srv *s)
{
	srv_make(s);
	srv_run(s);
}

/* SIGTERM and wait, keeping the store for a restart. */
void srv_halt(struct srv *s)
{
	int status = 0;
	ck_assert_int_eq(kill(s->pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(s->pid, &status, 0), s->pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not stop cleanly (%d)", status);
}

/* SIGTERM: the server stops cleanly, with status 0. */
void srv_stop(struct srv *s)
{
	srv_halt(s);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
	ck_assert_int_eq(system(cmd), 0);
}

int srv_alive(struct srv *s)
{
	return waitpid(s->pid, NULL, WNOHANG) == 0;
}

/* ---- scripted clients ---- */


void on_msg(void *ctx, const char *text, size_t len)
{
	struct tc *t = ctx;
	json_error_t e;
	json_t *j = json_loadb(text, len, 0, &e);
	ck_assert_msg(j != NULL, "the server sent something not JSON: %.80s", text);
	ck_assert_ptr_nonnull(json_object_get(j, "type"));
	/* Byte for byte what jansson writes of it: the server writes its
	 * `say`s and `state`s itself (net/jtext). */
	char *again = json_dumps(j, JSON_COMPACT);
	ck_assert_msg(again && strlen(again) == len && !memcmp(again, text, len), "written unlike jansson: %.*s",
	              (int)len, text);
	free(again);
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->msg = realloc(t->msg, (size_t)t->cap * sizeof *t->msg);
	}
	t->msg[t->n++] = j;
	const char *type = json_string_value(json_object_get(j, "type"));
	if (!strcmp(type, "state") && json_integer_value(json_object_get(j, "table")) == t->table) {
		/* The seat is the one the client was given (joined), never what a
		 * state says: the leak test checks the server against it. */
		t->state = j;
		if (t->changes) {
			json_t *st = proto_state_apply(t->held, j, t->moments);
			ck_assert_msg(st != NULL, "%s: changes to no state: %.*s", t->name, (int)len, text);
			if (st == j) { /* held apart: the messages stay as they came */
				json_decref(st);
				st = json_deep_copy(j);
			}
			json_decref(t->held);
			t->state = t->held = st;
		} else {
			ck_assert_msg(!json_object_get(j, "changes"), "%s: changes it did not ask for", t->name);
		}

		if (!strcmp(json_string_value(json_object_get(j, "state")), "over"))
			t->over = 1;
	}
	if (!strcmp(type, "moment")) {
		ck_assert_msg(t->changes, "%s: moments it did not ask for", t->name);
		proto_moment_keep(t->moments, j);
	}
	if (!strcmp(type, "refused"))
		t->refused++;
	if (!strcmp(type, "welcome"))
		snprintf(t->token, sizeof t->token, "%s", json_string_value(json_object_get(j, "token")));
}

const char *mtype(json_t *j)
{
	return json_string_value(json_object_get(j, "type"));
}

static void drop_by(json_t *list, json_t *which, const char *key)
{
	for (size_t i = json_array_size(list); i-- > 0;)
		for (size_t k = 0; k < json_array_size(which); k++)
			if (json_equal(json_object_get(json_array_get(list, i), key), json_array_get(which, k))) {
				json_array_remove(list, i);
				break;
			}
}

json_t *tc_lobby(const struct tc *t)
{
	int from = -1;
	for (int i = t->n - 1; i >= 0 && from < 0; i--)
		if (!strcmp(mtype(t->msg[i]), "lobby"))
			from = i;
	if (from < 0)
		return NULL;
	json_t *l = json_deep_copy(t->msg[from]);
	for (int i = from + 1; i < t->n; i++) {
		json_t *d = t->msg[i];
		if (strcmp(mtype(d), "lobby_delta"))
			continue;
		json_int_t seq = json_integer_value(json_object_get(d, "seq"));
		if (seq != json_integer_value(json_object_get(l, "seq")) + 1) {
			json_decref(l);
			return NULL;
		}
		json_object_set_new(l, "seq", json_integer(seq));
		json_t *tables = json_object_get(l, "tables"), *changed = json_object_get(d, "tables");
		for (size_t k = 0; k < json_array_size(changed); k++) {
			json_t *e = json_array_get(changed, k);
			size_t j = 0;
			for (; j < json_array_size(tables); j++)
				if (json_equal(json_object_get(json_array_get(tables, j), "id"), json_object_get(e, "id")))
					break;
			if (j < json_array_size(tables))
				json_array_set(tables, j, e);
			else
				json_array_append(tables, e);
		}
		drop_by(tables, json_object_get(d, "gone"), "id");
		json_t *users = json_object_get(l, "users"), *out = json_object_get(d, "out");
		for (size_t k = 0; k < json_array_size(out); k++)
			for (size_t j = 0; j < json_array_size(users); j++)
				if (json_equal(json_object_get(json_array_get(users, j), "name"), json_array_get(out, k))) {
					json_array_remove(users, j);
					break;
				}
		json_array_extend(users, json_object_get(d, "in"));
		json_object_set(l, "online", json_object_get(d, "online"));
	}
	return l;
}

void tc_send(struct tc *t, const char *fmt, ...)
{
	char buf[PROTO_MAX_MESSAGE * 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ck_assert_int_eq(netc_send(t->c, buf), 0);
	netc_service(t->c, 2); /* out it goes */
}

/* The next message of a type (after the cursor), waiting up to 5 s. */
json_t *tc_wait(struct tc *t, const char *type)
{
	for (int waited = 0; waited < 5000; waited += 5) {
		for (; t->cursor < t->n; t->cursor++)
			if (!strcmp(mtype(t->msg[t->cursor]), type))
				return t->msg[t->cursor++];
		if (netc_service(t->c, 5) < 0 && t->cursor >= t->n)
			break;
	}
	for (int i = 0; i < t->n; i++) {
		char *x = json_dumps(t->msg[i], JSON_COMPACT);
		fprintf(stderr, "%s got: %.200s\n", t->name, x);
		free(x);
	}
	ck_abort_msg("%s: no '%s' message came", t->name, type);
	return NULL;
}

void tc_connect(struct tc *t, struct srv *s)
{
	char err[256];
	t->c = netc_open(s->url, on_msg, t, err, sizeof err);
	ck_assert_msg(t->c != NULL, "%s", err);
}

/* Connect and say hello; the welcome must come. */
void tc_hello(struct tc *t, struct srv *s, const char *name, const char *lang, const char *password,
                     const char *token)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	snprintf(t->lang, sizeof t->lang, "%s", lang);
	t->seat = -1;
	t->acted_seq = -1;
	tc_connect(t, s);
	if (password)
		tc_send(t, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\",\"password\":\"%s\"}", name,
		        lang, password);
	else
		tc_send(t, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\",\"token\":\"%s\"}", name,
		        lang, token ? token : "");
}

void tc_login(struct tc *t, struct srv *s, const char *name, const char *lang, const char *password)
{
	tc_hello(t, s, name, lang, password, NULL);
	json_t *w = tc_wait(t, "welcome");
	ck_assert_str_eq(json_string_value(json_object_get(w, "name")), name);
}

void tc_login_changes(struct tc *t, struct srv *s, const char *name, const char *lang)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	snprintf(t->lang, sizeof t->lang, "%s", lang);
	t->seat = -1;
	t->acted_seq = -1;
	t->changes = 1;
	t->moments = json_object();
	tc_connect(t, s);
	tc_send(t, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\",\"state_changes\":true}", name, lang);
	json_t *w = tc_wait(t, "welcome");
	ck_assert_str_eq(json_string_value(json_object_get(w, "name")), name);
}

void tc_free(struct tc *t)
{
	json_decref(t->held);
	json_decref(t->moments);
	if (t->c)
		netc_close(t->c);
	for (int i = 0; i < t->n; i++)
		json_decref(t->msg[i]);
	free(t->msg);
	memset(t, 0, sizeof *t);
}

/* Create a table; the creator sits (or watches); returns its id. */
long tc_create(struct tc *t, const char *game, int players, const char *seats, const char *extra)
{
	tc_send(t, "{\"type\":\"create\",\"game\":\"%s\",\"players\":%d,\"seats\":%s%s}", game, players, seats,
	        extra ? extra : "");
	json_t *c = tc_wait(t, "created");
	t->table = (long)json_integer_value(json_object_get(c, "table"));
	tc_wait(t, "joined");
	return t->table;
}

void tc_sit(struct tc *t, long table, int seat)
{
	t->table = table;
	tc_send(t, "{\"type\":\"sit\",\"table\":%ld,\"seat\":%d}", table, seat);
	json_t *j = tc_wait(t, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), seat);
	t->seat = seat;
}

/* Act when the last state says it is this client's turn. */
void tc_play(struct tc *t)
{
	if (!t->state || t->over || !t->c)
		return;
	int seq = (int)json_integer_value(json_object_get(t->state, "moves"));
	if (!json_is_true(json_object_get(t->state, "my_turn")) || t->seat < 0 || seq == t->acted_seq)
		return;
	/* The choices: the menu's, and each card that may be played now. */
	char opt[64][ACT_STR_MAX];
	int nopt = 0;
	json_t *ch = json_object_get(t->state, "choices");
	for (size_t i = 0; i < json_array_size(ch) && nopt < 64; i++)
		snprintf(opt[nopt++], ACT_STR_MAX, "%s", json_string_value(json_object_get(json_array_get(ch, i), "action")));
	json_t *hand = json_object_get(t->state, "hand");
	for (size_t i = 0; i < json_array_size(hand) && nopt < 64; i++)
		if (json_is_true(json_object_get(json_array_get(hand, i), "playable")))
			snprintf(opt[nopt++], ACT_STR_MAX, "play %s",
			         json_string_value(json_object_get(json_array_get(hand, i), "card")));
	ck_assert_msg(nopt > 0, "%s: its turn with no choices", t->name);
	/* Mostly the first choice (it keeps games short), now and then another. */
	t->pick = t->pick * 1103515245u + 12345u;
	int k = (t->pick >> 16) % 4 == 0 ? (int)((t->pick >> 8) % (unsigned)nopt) : 0;
	tc_send(t, "{\"type\":\"action\",\"table\":%ld,\"action\":\"%s\"}", t->table, opt[k]);
	t->acted_seq = seq;
}

/* Service every client and let them play until each has seen the end, or
 * until stop() says so. */
void play_until(struct tc **all, int n, int (*stop)(struct tc **all, int n, void *ctx), void *ctx)
{
	/* 45 s at most (the case has 60): a loaded machine plays slowly, a stuck game never ends. */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 45)
			break;
		int done = 1;
		for (int i = 0; i < n; i++) {
			if (!all[i]->c)
				continue;
			if (netc_service(all[i]->c, 1) < 0 && !all[i]->gone) {
				all[i]->gone = 1;
				fprintf(stderr, "%s: the connection closed\n", all[i]->name);
			}
			ck_assert_msg(all[i]->refused == 0, "%s: an action was refused", all[i]->name);
			done &= all[i]->over;
		}
		if (stop ? stop(all, n, ctx) : done)
			return;
		for (int i = 0; i < n; i++)
			tc_play(all[i]);
	}
	for (int i = 0; i < n; i++) {
		struct tc *t = all[i];
		fprintf(stderr, "%s: seat %d, acted at %d, over %d, refused %d, state moves %lld, my turn %d\n", t->name,
		        t->seat, t->acted_seq, t->over, t->refused,
		        t->state ? (long long)json_integer_value(json_object_get(t->state, "moves")) : -1LL,
		        t->state ? json_is_true(json_object_get(t->state, "my_turn")) : -1);
	}
	for (int i = 0; i < n; i++)
		for (int k = all[i]->n > 8 ? all[i]->n - 8 : 0; k < all[i]->n; k++) {
			char *x = json_dumps(all[i]->msg[k], JSON_COMPACT);
			fprintf(stderr, "%s got: %.300s\n", all[i]->name, x);
			free(x);
		}
	ck_abort_msg("the game did not end");
}

