/* The network server: the protocol reader, the store's backends, the
 * passwords; then a real server (a child process on a free loopback port,
 * with a temporary SQLite store) and scripted clients through net/client:
 * every game played to the end with the hand histories replayed, the leak
 * test, reconnection, bots taking seats and giving them back, a server
 * killed with kill -9 and restarted, spectators, private tables, wrong
 * passwords, bad messages, and many clients that vanish. */
#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "app/replay.h"
#include "core/game.h"
#include "net/auth.h"
#include "net/client.h"
#include "net/proto.h"
#include "net/server.h"
#include "net/store.h"
#include "speech/i18n.h"
#include "speech/say.h"
#include "testutil.h"

/* ---- the protocol reader ---- */

static int rd(const char *text, struct proto_msg *m, char *err)
{
	return proto_read(text, strlen(text), m, err, 256);
}

START_TEST(test_proto_read)
{
	struct proto_msg m;
	char err[256];
	ck_assert_int_eq(rd("{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"lang\":\"fr\",\"extra\":[1]}", &m, err), 0);
	ck_assert_int_eq(m.type, PM_HELLO);
	ck_assert_str_eq(m.name, "Anne");
	ck_assert_str_eq(m.lang, "fr");
	ck_assert_int_eq(m.has_password, 0);
	ck_assert_int_eq(rd("{\"type\":\"action\",\"table\":3,\"action\":\"raise 12\"}", &m, err), 0);
	ck_assert_int_eq(m.act.kind, ACT_RAISE);
	ck_assert_int_eq(m.act.amount, 12);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"bourré\",\"players\":4,\"rules\":{\"hands\":2},"
	                    "\"seats\":[\"open\",\"bot:1\",\"bot\",\"open\"],\"private\":true,\"password\":\"x\"}",
	                    &m, err), 0);
	ck_assert_str_eq(m.game->name, "bourre");
	ck_assert_int_eq(m.seat_kind[1], PSEAT_BOT);
	ck_assert_int_eq(m.seat_level[1], 1);
	ck_assert_int_eq(m.seat_kind[3], PSEAT_OPEN);
	ck_assert_int_eq(rules_get(&m.rules, "hands"), 2);
	ck_assert_int_eq(m.private_, 1);
	/* Refused, each with its reason. */
	ck_assert_int_eq(rd("{\"type\":\"fly\"}", &m, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "unknown message type"));
	ck_assert_int_eq(rd("[1,2]", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"hello\"", &m, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not JSON"));
	ck_assert_int_eq(rd("{\"version\":1}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"hello\",\"version\":1,\"name\":\"a\\u0000b\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"hello\",\"version\":1,\"name\":\"<script>\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"lang\":\"de\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"action\",\"table\":3,\"action\":\"jump 3\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"action\",\"table\":\"3\",\"action\":\"pass\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"chess\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"brouc\",\"players\":3}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"brelan\",\"rules\":{\"nonsense\":1}}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"brelan\",\"private\":true}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"chat\",\"text\":\"   \"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"chat\",\"text\":\"a\\nb\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"hello\",\"type\":\"ping\"}", &m, err), -1);
	char big[PROTO_MAX_MESSAGE + 64];
	memset(big, ' ', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "{\"type\":\"ping\"}", 15);
	ck_assert_int_eq(rd(big, &m, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "too long"));
}
END_TEST

/* ---- the store ---- */

struct seen {
	int tables, actions;
	char last[64];
	struct store_table t;
};

static void on_table(void *ctx, const struct store_table *t)
{
	struct seen *s = ctx;
	s->tables++;
	s->t = *t;
}

static void on_action(void *ctx, int seat, const char *a)
{
	struct seen *s = ctx;
	s->actions++;
	snprintf(s->last, sizeof s->last, "%d %s", seat, a);
}

static void store_roundtrip(const char *backend, const char *path)
{
	struct store st;
	char err[256], hash[128];
	ck_assert_msg(store_open(&st, backend, path, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 0);
	ck_assert_int_eq(store_account_put(&st, "Anne", "h1"), 0);
	ck_assert_int_eq(store_account_put(&st, "Robert'); DROP TABLE accounts;--", "h2"), 0);
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	ck_assert_str_eq(hash, "h1");
	struct store_table t;
	memset(&t, 0, sizeof t);
	t.id = 7;
	snprintf(t.game, sizeof t.game, "brelan");
	t.players = 4;
	t.seed = 0xffffffffffffULL;
	snprintf(t.rules, sizeof t.rules, "hands=2\n");
	snprintf(t.seats, sizeof t.seats, "[]");
	ck_assert_int_eq(store_table_put(&st, &t), 0);
	ck_assert_int_eq(store_journal_add(&st, 7, 0, 1, "raise 2"), 0);
	ck_assert_int_eq(store_journal_add(&st, 7, 1, 2, "fold"), 0);
	/* Saving the table again keeps its journal. */
	t.state = 1;
	ck_assert_int_eq(store_table_put(&st, &t), 0);
	struct seen s = { 0 };
	store_table_each(&st, on_table, &s);
	store_journal_each(&st, 7, on_action, &s);
	ck_assert_int_eq(s.tables, 1);
	ck_assert_int_eq(s.t.state, 1);
	ck_assert(s.t.seed == 0xffffffffffffULL);
	ck_assert_int_eq(s.actions, 2);
	ck_assert_str_eq(s.last, "2 fold");
	store_table_delete(&st, 7);
	memset(&s, 0, sizeof s);
	store_table_each(&st, on_table, &s);
	store_journal_each(&st, 7, on_action, &s);
	ck_assert_int_eq(s.tables + s.actions, 0);
	ck_assert_int_eq(store_account_get(&st, "Robert'); DROP TABLE accounts;--", hash, sizeof hash), 1);
	store_close(&st);
}

START_TEST(test_store_backends)
{
	store_roundtrip("memory", NULL);
	char dir[] = "/tmp/tapis-store-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/s.db", dir);
	store_roundtrip("sqlite", path);
	/* What was written is there after reopening. */
	struct store st;
	char err[256], hash[128];
	ck_assert_int_eq(store_open(&st, "sqlite", path, err, sizeof err), 0);
	ck_assert_int_eq(store_account_get(&st, "Anne", hash, sizeof hash), 1);
	store_close(&st);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_auth)
{
	struct auth a;
	ck_assert_int_eq(auth_init(&a, 1), 0);
	char h[AUTH_HASH_MAX];
	ck_assert_int_eq(auth_hash(&a, "correct horse", h), 0);
	ck_assert(strncmp(h, "$argon2id$", 10) == 0);
	ck_assert(!strstr(h, "correct"));
	ck_assert_int_eq(auth_verify(h, "correct horse"), 1);
	ck_assert_int_eq(auth_verify(h, "correct horsf"), 0);
	long long t = 1000000;
	for (int i = 0; i < AUTH_FREE_FAILS; i++) {
		ck_assert_int_eq(auth_wait(&a, "Anne", "1.2.3.4", t), 0);
		auth_failed(&a, "Anne", "1.2.3.4", t);
	}
	ck_assert_int_eq(auth_wait(&a, "Anne", "1.2.3.4", t), 0);
	auth_failed(&a, "Anne", "1.2.3.4", t);
	ck_assert(auth_wait(&a, "Anne", "1.2.3.4", t) > 0);
	ck_assert(auth_wait(&a, "Anne", "5.6.7.8", t) > 0);   /* the name waits, from anywhere */
	ck_assert_int_eq(auth_wait(&a, "Bruno", "5.6.7.8", t), 0);
	ck_assert_int_eq(auth_wait(&a, "Anne", "1.2.3.4", t + 1000), 0);
	auth_failed(&a, "Anne", "1.2.3.4", t + 1000);
	ck_assert(auth_wait(&a, "Anne", "1.2.3.4", t + 1500) > 0); /* the wait grows */
	auth_succeeded(&a, "Anne");
	ck_assert_int_eq(auth_wait(&a, "Anne", NULL, t + 1500), 0);
}
END_TEST

/* ---- a server in a child process ---- */

struct srv {
	pid_t pid;
	int port;
	char dir[64];
	char db[128];
	char logs[128];
	char url[64];
	long long grace_ms;
};

static void ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

static void srv_run(struct srv *s)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	s->pid = fork();
	ck_assert_int_ge(s->pid, 0);
	if (s->pid == 0) {
		close(fds[0]);
		struct server_options o;
		server_options_default(&o);
		o.port = 0;
		o.db = s->db;
		o.log_dir = s->logs;
		o.grace_ms = s->grace_ms ? s->grace_ms : 300;
		o.bot_delay_ms = 0;
		o.cheap_hash = 1;
		o.quiet = 1;
		o.on_ready = ready;
		o.ready_ctx = &fds[1];
		char err[256];
		alarm(60); /* never outlive the test */
		_exit(server_run(&o, err, sizeof err) == 0 ? 0 : 1);
	}
	close(fds[1]);
	int port = 0;
	ck_assert_int_eq(read(fds[0], &port, sizeof port), (int)sizeof port);
	close(fds[0]);
	s->port = port;
	snprintf(s->url, sizeof s->url, "ws://127.0.0.1:%d", port);
}

static void srv_start(struct srv *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->dir, sizeof s->dir, "/tmp/tapis-net-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->dir));
	snprintf(s->db, sizeof s->db, "%s/server.db", s->dir);
	snprintf(s->logs, sizeof s->logs, "%s/logs", s->dir);
	ck_assert_int_eq(mkdir(s->logs, 0700), 0);
	srv_run(s);
}

/* SIGTERM: the server stops cleanly, with status 0. */
static void srv_stop(struct srv *s)
{
	int status = 0;
	ck_assert_int_eq(kill(s->pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(s->pid, &status, 0), s->pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not stop cleanly (%d)", status);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int srv_alive(struct srv *s)
{
	return waitpid(s->pid, NULL, WNOHANG) == 0;
}

/* ---- scripted clients ---- */

struct tc {
	struct netc *c;
	char name[32];
	char lang[3];
	char token[40];
	json_t **msg;
	int n, cap, cursor;
	long table;
	int seat;
	json_t *state;     /* the last state of its table */
	int acted_seq;
	int over;
	int refused;
	unsigned pick;     /* how it chooses among the legal choices */
};

static void on_msg(void *ctx, const char *text, size_t len)
{
	struct tc *t = ctx;
	json_error_t e;
	json_t *j = json_loadb(text, len, 0, &e);
	ck_assert_msg(j != NULL, "the server sent something not JSON: %.80s", text);
	ck_assert_ptr_nonnull(json_object_get(j, "type"));
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->msg = realloc(t->msg, (size_t)t->cap * sizeof *t->msg);
	}
	t->msg[t->n++] = j;
	const char *type = json_string_value(json_object_get(j, "type"));
	if (!strcmp(type, "state") && json_integer_value(json_object_get(j, "table")) == t->table) {
		t->state = j;
		t->seat = (int)json_integer_value(json_object_get(j, "seat"));
		if (!strcmp(json_string_value(json_object_get(j, "state")), "over"))
			t->over = 1;
	}
	if (!strcmp(type, "refused"))
		t->refused++;
	if (!strcmp(type, "welcome"))
		snprintf(t->token, sizeof t->token, "%s", json_string_value(json_object_get(j, "token")));
}

static const char *mtype(json_t *j)
{
	return json_string_value(json_object_get(j, "type"));
}

static void tc_send(struct tc *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tc_send(struct tc *t, const char *fmt, ...)
{
	char buf[PROTO_MAX_MESSAGE * 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ck_assert_int_eq(netc_send(t->c, buf), 0);
}

/* The next message of a type (after the cursor), waiting up to 5 s. */
static json_t *tc_wait(struct tc *t, const char *type)
{
	for (int waited = 0; waited < 5000; waited += 5) {
		for (; t->cursor < t->n; t->cursor++)
			if (!strcmp(mtype(t->msg[t->cursor]), type))
				return t->msg[t->cursor++];
		if (netc_service(t->c, 5) < 0 && t->cursor >= t->n)
			break;
	}
	ck_abort_msg("%s: no '%s' message came", t->name, type);
	return NULL;
}

static void tc_connect(struct tc *t, struct srv *s)
{
	char err[256];
	t->c = netc_open(s->url, on_msg, t, err, sizeof err);
	ck_assert_msg(t->c != NULL, "%s", err);
}

/* Connect and say hello; the welcome must come. */
static void tc_login(struct tc *t, struct srv *s, const char *name, const char *lang, const char *password)
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
		tc_send(t, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\"}", name, lang);
	json_t *w = tc_wait(t, "welcome");
	ck_assert_str_eq(json_string_value(json_object_get(w, "name")), name);
}

static void tc_free(struct tc *t)
{
	if (t->c)
		netc_close(t->c);
	for (int i = 0; i < t->n; i++)
		json_decref(t->msg[i]);
	free(t->msg);
	memset(t, 0, sizeof *t);
}

/* Create a table; the creator sits (or watches); returns its id. */
static long tc_create(struct tc *t, const char *game, int players, const char *seats, const char *extra)
{
	tc_send(t, "{\"type\":\"create\",\"game\":\"%s\",\"players\":%d,\"seats\":%s%s}", game, players, seats,
	        extra ? extra : "");
	json_t *c = tc_wait(t, "created");
	t->table = (long)json_integer_value(json_object_get(c, "table"));
	tc_wait(t, "joined");
	return t->table;
}

static void tc_sit(struct tc *t, long table, int seat)
{
	t->table = table;
	tc_send(t, "{\"type\":\"sit\",\"table\":%ld,\"seat\":%d}", table, seat);
	json_t *j = tc_wait(t, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), seat);
	t->seat = seat;
}

/* Act when the last state says it is this client's turn. */
static void tc_play(struct tc *t)
{
	if (!t->state || t->over || !t->c)
		return;
	int seq = (int)json_integer_value(json_object_get(t->state, "seq"));
	if (json_integer_value(json_object_get(t->state, "to_act")) != t->seat || t->seat < 0 || seq == t->acted_seq)
		return;
	json_t *ch = json_object_get(t->state, "choices");
	ck_assert_msg(json_array_size(ch) > 0, "%s: its turn with no choices", t->name);
	/* Mostly the first choice (it keeps games short), now and then another. */
	t->pick = t->pick * 1103515245u + 12345u;
	size_t k = (t->pick >> 16) % 4 == 0 ? (t->pick >> 8) % json_array_size(ch) : 0;
	json_t *c = json_array_get(ch, k);
	tc_send(t, "{\"type\":\"action\",\"table\":%ld,\"action\":\"%s\"}", t->table,
	        json_string_value(json_object_get(c, "action")));
	t->acted_seq = seq;
}

/* Service every client and let them play until each has seen the end, or
 * until stop() says so. */
static void play_until(struct tc **all, int n, int (*stop)(struct tc **all, int n, void *ctx), void *ctx)
{
	for (int rounds = 0; rounds < 20000; rounds++) {
		int done = 1;
		for (int i = 0; i < n; i++) {
			if (!all[i]->c)
				continue;
			netc_service(all[i]->c, 1);
			ck_assert_msg(all[i]->refused == 0, "%s: an action was refused", all[i]->name);
			tc_play(all[i]);
			done &= all[i]->over;
		}
		if (stop ? stop(all, n, ctx) : done)
			return;
	}
	ck_abort_msg("the game did not end");
}

/* ---- the leak test: what each seat may know, rebuilt from the journal ---- */

struct known {
	int nevents;
	struct event *ev;
	int cap;
};

static void known_emit(void *ctx, const struct event *e)
{
	struct known *k = ctx;
	if (k->nevents == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 256;
		k->ev = realloc(k->ev, (size_t)k->cap * sizeof *k->ev);
	}
	k->ev[k->nevents++] = *e;
}

struct journal {
	int n;
	int seat[4096];
	char text[4096][64];
};

static void on_journal(void *ctx, int seat, const char *a)
{
	struct journal *j = ctx;
	if (j->n < 4096) {
		j->seat[j->n] = seat;
		snprintf(j->text[j->n++], 64, "%s", a);
	}
}

/* Cards of e seen by seat (-1: a spectator). */
static void add_seen(const struct event *e, int seat, int *seen)
{
	if (e->type == EV_HAND_START)
		return;
	int vis = seat < 0 ? e->visible == EV_ALL : ev_visible_to(e, seat);
	if (!vis)
		return;
	for (int i = 0; i < e->ncards; i++)
		seen[e->cards[i]] = 1;
	for (int i = 0; i < e->ncards2; i++)
		seen[e->cards2[i]] = 1;
	if (e->type == EV_ACTION)
		for (int i = 0; i < e->act.ncards; i++)
			seen[e->act.cards[i]] = 1;
	if (e->type == EV_CHOICE && e->what && !strcmp(e->what, "card"))
		seen[e->value & 0xff] = 1;
}

static int letter(unsigned char c)
{
	return c >= 0x80 || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* name in text as whole words ("as de trèfle" is not in "Pas de trèfle"). */
static int has_words(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; (p = strstr(p, name)); p++)
		if ((p == text || !letter((unsigned char)p[-1])) && !letter((unsigned char)p[n]))
			return 1;
	return 0;
}

/* Every card name in every message a client received is one its seat had
 * seen by then (the events of the action then told included). */
static void check_no_leak(struct srv *s, long table, struct tc **all, int n)
{
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "sqlite", s->db, err, sizeof err), 0);
	struct seen row = { 0 };
	store_table_each(&st, on_table, &row);
	while (row.t.id != table) {
		/* The last table listed is the newest; find ours. */
		ck_assert_int_gt(row.tables, 0);
		break;
	}
	ck_assert_int_eq(row.t.id, table);
	static struct journal j;
	j.n = 0;
	store_journal_each(&st, table, on_journal, &j);
	store_close(&st);
	const struct game_ops *g = game_find(row.t.game);
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	char buf[STORE_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", row.t.rules);
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ck_assert_int_eq(rules_set_arg(&r, line, err, sizeof err), 0);
	void *gs = calloc(1, g->state_size);
	struct game_setup setup = { row.t.players, -1, row.t.seed, &r, NULL };
	ck_assert_int_eq(g->init(gs, &setup, err, sizeof err), 0);
	struct known k = { 0 };
	struct sink sk = { known_emit, &k };
	struct event e0;
	ev_init(&e0, EV_GAME_START);
	known_emit(&k, &e0);
	g->start(gs, &sk);
	/* The last seq of each action's events. */
	int *end_of = calloc(100000, sizeof *end_of);
	int first = 0;
	for (int i = 0; i <= j.n; i++) {
		for (int q = first; q < k.nevents; q++)
			end_of[q] = k.nevents - 1;
		first = k.nevents;
		if (i == j.n)
			break;
		struct action a;
		struct refusal why;
		ck_assert_int_eq(act_parse(j.text[i], &a, err, sizeof err), 0);
		ck_assert_int_eq(g->apply(gs, &a, &sk, &why), 0);
	}
	free(gs);
	int checked = 0;
	for (int c = 0; c < n; c++) {
		struct tc *t = all[c];
		char ierr[128];
		ck_assert_int_eq(i18n_set_lang(t->lang, ierr, sizeof ierr), 0);
		char names[CARD_MAX_PACK * 4][64];
		memset(names, 0, sizeof names);
		for (int cd = 0; cd < 256; cd++)
			if (card_valid((card_t)cd))
				say_card_str((card_t)cd, SAY_BARE, names[cd], sizeof names[cd]);
		int seen[256] = { 0 };
		int upto = -1;
		for (int m = 0; m < t->n; m++) {
			json_t *msg = t->msg[m];
			const char *type = mtype(msg);
			if (json_integer_value(json_object_get(msg, "table")) != table)
				continue;
			if (strcmp(type, "say") && strcmp(type, "state"))
				continue;
			int seq = (int)json_integer_value(json_object_get(msg, "seq"));
			ck_assert_int_lt(seq, k.nevents);
			int to = end_of[seq];
			for (; upto < to; upto++)
				add_seen(&k.ev[upto + 1], t->seat, seen);
			char *text = json_dumps(msg, JSON_COMPACT);
			for (int cd = 0; cd < 256; cd++) {
				if (!names[cd][0] || seen[cd])
					continue;
				char cs[4];
				char quoted[8];
				snprintf(quoted, sizeof quoted, "\"%s\"", card_str((card_t)cd, cs));
				ck_assert_msg(!has_words(text, names[cd]) && !strstr(text, quoted),
				              "%s (seat %d) heard %s before seeing it, at seq %d: %.300s", t->name, t->seat,
				              names[cd], seq, text);
			}
			free(text);
			checked++;
		}
	}
	ck_assert_int_gt(checked, 10);
	free(end_of);
	free(k.ev);
}

/* ---- whole games ---- */

static void replay_log(struct srv *s, long table)
{
	char path[256], err[1024];
	snprintf(path, sizeof path, "%s/%ld.jsonl", s->logs, table);
	ck_assert_msg(replay_file(path, NULL, err, sizeof err) == 0, "%s", err);
}

/* One game at a table: an English and a French player, bots, a spectator. */
static void whole_game(const char *game, int players, const char *rules)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, w;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_login(&w, &s, "Wanda", "en", NULL);
	char seats[128] = "[\"open\",\"open\"";
	for (int i = 2; i < players; i++)
		strcat(seats, i % 2 ? ",\"bot:1\"" : ",\"bot\"");
	strcat(seats, "]");
	char extra[256];
	snprintf(extra, sizeof extra, ",\"rules\":{%s}", rules);
	long id = tc_create(&a, game, players, seats, extra);
	a.seat = 0;
	tc_sit(&b, id, 1);
	w.table = id;
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld}", id);
	tc_wait(&w, "joined");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b, &w };
	play_until(all, 3, NULL, NULL);
	/* Each heard the game in its own language. */
	int en = 0, fr = 0;
	for (int i = 0; i < a.n; i++)
		if (!strcmp(mtype(a.msg[i]), "say"))
			en++;
	for (int i = 0; i < b.n; i++)
		if (!strcmp(mtype(b.msg[i]), "say"))
			fr++;
	ck_assert_int_gt(en, 3);
	ck_assert_int_gt(fr, 3);
	ck_assert_ptr_nonnull(json_object_get(json_object_get(a.state, "keys"), "S"));
	replay_log(&s, id);
	check_no_leak(&s, id, all, 3);
	tc_free(&a);
	tc_free(&b);
	tc_free(&w);
	srv_stop(&s);
}

START_TEST(test_game_bouillotte) { whole_game("bouillotte", 4, "\"hands\":2"); }
END_TEST
START_TEST(test_game_brelan) { whole_game("brelan", 4, "\"hands\":2"); }
END_TEST
START_TEST(test_game_bourre) { whole_game("bourre", 4, "\"hands\":2"); }
END_TEST
START_TEST(test_game_brouc) { whole_game("brouc", 4, "\"hands\":1"); }
END_TEST
START_TEST(test_game_bouillabaisse) { whole_game("bouillabaisse", 3, "\"hands\":1"); }
END_TEST

Suite *net_suite(void);
Suite *net_suite(void)
{
	Suite *s = suite_create("net");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, test_proto_read);
	tcase_add_test(tc, test_store_backends);
	tcase_add_test(tc, test_auth);
	suite_add_tcase(s, tc);
	tc = tcase_create("games");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_game_bouillotte);
	tcase_add_test(tc, test_game_brelan);
	tcase_add_test(tc, test_game_bourre);
	tcase_add_test(tc, test_game_brouc);
	tcase_add_test(tc, test_game_bouillabaisse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	alarm(120);
	return tu_run(net_suite());
}
