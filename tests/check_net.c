/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The network server: the protocol reader, the store's backends, the
 * passwords; then a real server (a child process on a free loopback port,
 * with a temporary SQLite store) and scripted clients through net/client:
 * every game played to the end with the hand histories replayed, the leak
 * test, reconnection, bots taking seats and giving them back, a server
 * killed with kill -9 and restarted, spectators, private tables, wrong
 * passwords, bad messages, and many clients that vanish. */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "app/registry.h"
#include "app/replay.h"
#include "core/game.h"
#include "net/server/auth.h"
#include "net/client/client.h"
#include "net/server/host.h"
#include "net/server/lobby.h"
#include "net/server/req.h"
#include "net/wire/proto.h"
#include "net/server/server.h"
#include "net/store/store.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "netutil.h"
#include "pgtmp.h"
#include "testutil.h"

/* ---- the protocol reader ---- */

static int rd(const char *text, struct req *m, char *err)
{
	return req_read(text, strlen(text), m, NULL, err, 256);
}

START_TEST(test_proto_read)
{
	struct req m;
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
	ck_assert_int_eq(rd("{\"type\":\"hint\",\"table\":7}", &m, err), 0);
	ck_assert_int_eq(m.type, PM_HINT);
	ck_assert_int_eq(m.table, 7);
	ck_assert_int_eq(rd("{\"type\":\"hint\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"chess\"}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"brouc\",\"players\":3}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"brelan\",\"rules\":{\"nonsense\":1}}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"create\",\"game\":\"brelan\",\"private\":true}", &m, err), -1);
	ck_assert_int_eq(rd("{\"type\":\"chat\",\"text\":\"   \"}", &m, err), -1);
	/* A line break in chat is a space: one line said, never two. */
	ck_assert_int_eq(rd("{\"type\":\"chat\",\"text\":\"a\\nb\"}", &m, err), 0);
	ck_assert_str_eq(m.text, "a b");
	ck_assert_int_eq(rd("{\"type\":\"chat\",\"text\":\"\\u200b\\n\"}", &m, err), -1);
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
	t.seed_by = 1;
	snprintf(t.rules, sizeof t.rules, "hands=2\n");
	snprintf(t.seats, sizeof t.seats, "[]");
	snprintf(t.watchers, sizeof t.watchers, "[{\"name\":\"Wendy\",\"lang\":\"fr\"}]");
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
	ck_assert_int_eq(s.t.seed_by, 1);
	ck_assert_str_eq(s.t.watchers, "[{\"name\":\"Wendy\",\"lang\":\"fr\"}]");
	ck_assert_int_eq(s.actions, 2);
	ck_assert_str_eq(s.last, "2 fold");
	store_table_delete(&st, 7);
	memset(&s, 0, sizeof s);
	store_table_each(&st, on_table, &s);
	store_journal_each(&st, 7, on_action, &s);
	ck_assert_int_eq(s.tables + s.actions, 0);
	ck_assert_int_eq(store_account_get(&st, "Robert'); DROP TABLE accounts;--", hash, sizeof hash), 1);
	long long expires = 0;
	ck_assert_int_eq(store_session_get(&st, "Gina", hash, sizeof hash, &expires), 0);
	ck_assert_int_eq(store_session_put(&st, "Gina", "ab12", 100), 0);
	ck_assert_int_eq(store_session_put(&st, "Gina", "cd34", 200), 0);
	ck_assert_int_eq(store_session_get(&st, "Gina", hash, sizeof hash, &expires), 1);
	ck_assert_str_eq(hash, "cd34");
	ck_assert(expires == 200);
	ck_assert_int_eq(store_session_delete(&st, "Gina"), 0);
	ck_assert_int_eq(store_session_get(&st, "Gina", hash, sizeof hash, &expires), 0);
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
	/* A file made before the spectators were kept opens, its tables with
	 * none. */
	snprintf(path, sizeof path, "%s/old.db", dir);
	sqlite3 *db = NULL;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db,
	                              "CREATE TABLE tables (id INTEGER PRIMARY KEY, game TEXT NOT NULL,"
	                              " players INTEGER NOT NULL, seed TEXT NOT NULL, state INTEGER NOT NULL,"
	                              " creator TEXT NOT NULL, private INTEGER NOT NULL, pwhash TEXT NOT NULL,"
	                              " rules TEXT NOT NULL, seats TEXT NOT NULL);"
	                              "INSERT INTO tables VALUES (3, 'brelan', 4, '1', 0, 'Anne', 0, '', '', '[]');",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	ck_assert_msg(store_open(&st, "sqlite", path, err, sizeof err) == 0, "%s", err);
	struct seen old = { 0 };
	ck_assert_int_eq(store_table_each(&st, on_table, &old), 0);
	ck_assert_int_eq(old.tables, 1);
	ck_assert_str_eq(old.t.watchers, "[]");
	ck_assert_int_eq(old.t.seed_by, 0); /* nor who chose the seed: the server */
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
	if (e->type == EV_CHOICE && e->what == EV_WHAT_CARD)
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

/* The seed of a history message's game (its first line's), -1 when none. */
static long long history_seed(json_t *msg)
{
	json_t *first = json_loads(json_string_value(json_array_get(json_object_get(msg, "lines"), 0)) ?: "", 0, NULL);
	long long seed = json_is_integer(json_object_get(first, "seed")) ? json_integer_value(json_object_get(first, "seed")) : -1;
	json_decref(first);
	return seed;
}

/* Every card name in every message a client received (from its message
 * from[c] on; NULL: all) is one its seat had seen by then (the events of
 * the action then told included); and a hand history sent of this very
 * game (history) came only once the game was over. */
static void check_no_leak_from(struct srv *s, long table, struct tc **all, int n, const int *from)
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
	const struct game_ops *g = registry_ops(row.t.game);
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
	/* The last event told after m actions (the views are told once an
	 * action's events are all in). */
	int *end_of = calloc((size_t)j.n + 1, sizeof *end_of);
	for (int i = 0; i <= j.n; i++) {
		end_of[i] = k.nevents - 1;
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
		ck_assert_msg(i18n_set_lang(t->lang, ierr, sizeof ierr) == 0, "%s: lang %s: %s", t->name, t->lang, ierr);
		char names[CARD_MAX_PACK * 4][64];
		memset(names, 0, sizeof names);
		for (int cd = 0; cd < 256; cd++)
			if (card_valid((card_t)cd))
				say_card_str(NULL, (card_t)cd, SAY_BARE, names[cd], sizeof names[cd]);
		int seen[256] = { 0 };
		int upto = -1, last_moves = 0;
		for (int m = from ? from[c] : 0; m < t->n; m++) {
			json_t *msg = t->msg[m];
			const char *type = mtype(msg);
			if (json_integer_value(json_object_get(msg, "table")) != table)
				continue;
			if (!strcmp(type, "history")) {
				/* Every hand, the pack and the seed: this game's only once over. */
				ck_assert_msg(history_seed(msg) != (long long)row.t.seed || last_moves == j.n,
				              "%s (seat %d) was sent the hand history of the game in play, after %d of %d moves",
				              t->name, t->seat, last_moves, j.n);
				checked++;
				continue;
			}
			if (strcmp(type, "say") && strcmp(type, "state"))
				continue;
			int moves = (int)json_integer_value(json_object_get(msg, "moves"));
			last_moves = moves;
			ck_assert_int_le(moves, j.n);
			if (!strcmp(type, "state"))
				ck_assert_msg(json_integer_value(json_object_get(msg, "seat")) == t->seat,
				              "%s: a state of another seat than its own (%d)", t->name, t->seat);
			int to = end_of[moves];
			for (; upto < to; upto++)
				add_seen(&k.ev[upto + 1], t->seat, seen);
			char *text = json_dumps(msg, JSON_COMPACT);
			for (char *p = text; *p; p++)
				if (*p >= 'A' && *p <= 'Z')
					*p = (char)(*p - 'A' + 'a');
			for (int cd = 0; cd < 256; cd++) {
				if (!names[cd][0] || seen[cd])
					continue;
				char cs[4];
				char quoted[8];
				snprintf(quoted, sizeof quoted, "\"%s\"", card_str((card_t)cd, cs));
				for (char *p = quoted; *p; p++)
					if (*p >= 'A' && *p <= 'Z')
						*p = (char)(*p - 'A' + 'a');
				ck_assert_msg(!has_words(text, names[cd]) && !strstr(text, quoted),
				              "%s (seat %d) heard %s before seeing it, after %d moves: %.300s", t->name,
				              t->seat, names[cd], moves, text);
			}
			free(text);
			checked++;
		}
	}
	ck_assert_int_gt(checked, 10);
	free(end_of);
	free(k.ev);
}

static void check_no_leak(struct srv *s, long table, struct tc **all, int n)
{
	check_no_leak_from(s, table, all, n, NULL);
}

/* ---- whole games ---- */

static void replay_log(struct srv *s, long table)
{
	char path[256], err[1024];
	history_path(s->logs, table, path, sizeof path);
	ck_assert_msg(replay_file(path, NULL, err, sizeof err) == 0, "%s", err);
}

/* One game at a table: an English and a French player, bots, a spectator. */
/* A table of game made by a, who sits at seat 0, b at seat 1, bots of
 * two levels at the others. */
static long two_open(struct tc *a, struct tc *b, const char *game, int players, const char *rules)
{
	char seats[128] = "[\"open\",\"open\"";
	for (int i = 2; i < players; i++)
		strcat(seats, i % 2 ? ",\"bot:1\"" : ",\"bot\"");
	strcat(seats, "]");
	char extra[256];
	snprintf(extra, sizeof extra, ",\"rules\":{%s}", rules);
	long id = tc_create(a, game, players, seats, extra);
	a->seat = 0;
	tc_sit(b, id, 1);
	return id;
}

static void whole_game(const char *game, int players, const char *rules)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, w;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_login(&w, &s, "Wanda", "en", NULL);
	long id = two_open(&a, &b, game, players, rules);
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
	/* The trick in progress by seat (in a game of tricks only: how often
	 * a client sees one depends on how the server's rounds gather the
	 * states; tests/braille_vr.py reads one at tapis join), each seat at
	 * most once, its card a card; every seat's tag. */
	int tricks = 0;
	struct tc *all3[] = { &a, &b, &w };
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < all3[c]->n; i++) {
			json_t *tr = json_object_get(all3[c]->msg[i], "trick");
			if (strcmp(mtype(all3[c]->msg[i]), "state") || !json_array_size(tr))
				continue;
			tricks++;
			int played[GAME_MAX_SEATS] = { 0 };
			for (size_t k = 0; k < json_array_size(tr); k++) {
				json_t *x = json_array_get(tr, k);
				long long seat = json_integer_value(json_object_get(x, "seat"));
				card_t cd;
				ck_assert(seat >= 0 && seat < players && !played[seat]++);
				ck_assert(card_parse(json_string_value(json_object_get(x, "card")), &cd) == 0);
			}
		}
	if (!strcmp(game, "bouillotte") || !strcmp(game, "brelan"))
		ck_assert_int_eq(tricks, 0);
	ck_assert_int_eq(json_array_size(json_object_get(a.state, "tags")), players);
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

/* ---- history and the rematch: a finished game's, never the one in play ---- */

/* Each client asks for the table's hand history every `every` states it
 * receives; play goes on until every one has seen the end. */
static int count_type(const struct tc *t, const char *type);

struct asking {
	int every;
	int next[4];
	int asked;
};

static int ask_history(struct tc **all, int n, void *ctx)
{
	struct asking *a = ctx;
	int done = 1;
	for (int i = 0; i < n; i++) {
		done &= all[i]->over;
		if (count_type(all[i], "state") >= a->next[i]) {
			tc_send(all[i], "{\"type\":\"history\",\"table\":%ld}", all[i]->table);
			a->next[i] += a->every;
			a->asked++;
		}
	}
	return done;
}

/* The seed of the table's game now, from the store. */
static long long table_seed(struct srv *s, long table)
{
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "sqlite", s->db, err, sizeof err), 0);
	struct seen row = { 0 };
	store_table_each(&st, on_table, &row);
	store_close(&st);
	ck_assert_int_eq(row.t.id, table);
	return (long long)row.t.seed;
}

/* The history answers of t since message from: how many, and how many of
 * them hold the game of seed whole (its game_end line included). */
static int histories_of(const struct tc *t, int from, long long seed, int *whole)
{
	int n = 0;
	*whole = 0;
	for (int i = from; i < t->n; i++) {
		if (strcmp(mtype(t->msg[i]), "history"))
			continue;
		n++;
		json_t *lines = json_object_get(t->msg[i], "lines");
		const char *last = json_string_value(json_array_get(lines, json_array_size(lines) - 1));
		*whole += history_seed(t->msg[i]) == seed && last && strstr(last, "\"game_end\"");
	}
	return n;
}

/* Two accounts play a game, asking for its history all along; both ask
 * for a rematch and play the second game, asking all along again. Before
 * the first game ends they have none; after it, and during the second,
 * the first game's; after the second, the second's; and no message of
 * either game tells a card its seat had not seen. */
static void history_rematch(const char *game, int players, const char *rules)
{
	static struct tc a, b;
	/* A server a game (the accounts made from one address are few). */
	struct srv srv;
	struct srv *s = &srv;
	srv_start(s);
	tc_login(&a, s, "Anne", "en", "pw-a");
	tc_login(&b, s, "Bruno", "fr", "pw-b");
	long id = two_open(&a, &b, game, players, rules);
	long long seed1 = table_seed(s, id);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	struct asking ask = { 6, { 1, 1 }, 0 };
	play_until(all, 2, ask_history, &ask);
	/* Until its end (the answers come, or came, by the next ping's); the
	 * rematch offered with the game's last words. */
	for (int i = 0; i < 2; i++) {
		tc_wait(all[i], "rematch");
		tc_send(all[i], "{\"type\":\"ping\"}");
		tc_wait(all[i], "pong");
	}
	int whole;
	ck_assert_int_gt(ask.asked, 2);
	check_no_leak(s, id, all, 2);
	/* After it: the first game, whole. */
	tc_send(&a, "{\"type\":\"history\",\"table\":%ld}", id);
	tc_wait(&a, "history");
	histories_of(&a, 0, seed1, &whole);
	ck_assert_int_ge(whole, 1);
	/* The rematch. */
	tc_send(&a, "{\"type\":\"rematch\",\"table\":%ld}", id);
	tc_send(&b, "{\"type\":\"rematch\",\"table\":%ld}", id);
	json_t *ja = tc_wait(&a, "joined"), *jb = tc_wait(&b, "joined");
	int from[2] = { a.cursor, b.cursor };
	a.seat = (int)json_integer_value(json_object_get(ja, "seat"));
	b.seat = (int)json_integer_value(json_object_get(jb, "seat"));
	a.over = b.over = 0;
	a.acted_seq = b.acted_seq = -1;
	/* The new game's last state (those before the joined were the first game's). */
	for (int i = 0; i < 2; i++) {
		struct tc *t = all[i];
		t->state = NULL;
		for (int k = t->cursor; k < t->n; k++)
			if (!strcmp(mtype(t->msg[k]), "state") && json_integer_value(json_object_get(t->msg[k], "table")) == id)
				t->state = t->msg[k];
		/* None yet: on_msg keeps the last that comes (tc_wait's answer may
		 * be older than one read in the same service). */
		if (!t->state)
			tc_wait(t, "state");
	}
	long long seed2 = table_seed(s, id);
	ck_assert(seed2 != seed1);
	/* During the second game: asked at once, and all along. */
	for (int i = 0; i < 2; i++)
		tc_send(all[i], "{\"type\":\"history\",\"table\":%ld}", id);
	struct asking ask2 = { 5, { count_type(&a, "state") + 1, count_type(&b, "state") + 1 }, 0 };
	play_until(all, 2, ask_history, &ask2);
	for (int i = 0; i < 2; i++) {
		tc_send(all[i], "{\"type\":\"ping\"}");
		tc_wait(all[i], "pong");
	}
	ck_assert_int_gt(ask2.asked, 2);
	int during = histories_of(&a, from[0], seed1, &whole) + histories_of(&b, from[1], seed1, &whole);
	ck_assert_int_gt(during, 0);
	check_no_leak_from(s, id, all, 2, from);
	/* After the second: the second game, whole. */
	int mark = b.n;
	tc_send(&b, "{\"type\":\"history\",\"table\":%ld}", id);
	json_t *h = tc_wait(&b, "history");
	ck_assert_int_eq(history_seed(h), seed2);
	histories_of(&b, mark, seed2, &whole);
	ck_assert_int_eq(whole, 1);
	ck_assert_int_eq(json_array_size(json_object_get(h, "games")), 2);
	tc_free(&a);
	tc_free(&b);
	srv_stop(s);
}

START_TEST(test_history_rematch)
{
	history_rematch("bouillotte", 4, "\"hands\":2");
	history_rematch("brelan", 4, "\"hands\":2");
	history_rematch("bourre", 4, "\"hands\":2");
	history_rematch("brouc", 4, "\"hands\":1");
	history_rematch("bouillabaisse", 3, "\"hands\":1");
}
END_TEST


/* The states as changes (hello's "state_changes"): a spectator who asks
 * for them and one who does not hear the same table alike (one kind), so
 * after every state the first's, changes applied, is the second's whole
 * state; a seated player who asks for them plays the game to its end on
 * the state it holds; the changes are smaller. Every game. */
static size_t state_bytes(const struct tc *t, int *nchanges)
{
	size_t n = 0;
	for (int i = 0; i < t->n; i++)
		if (!strcmp(mtype(t->msg[i]), "state")) {
			char *x = json_dumps(t->msg[i], JSON_COMPACT);
			n += strlen(x);
			free(x);
			*nchanges += json_is_true(json_object_get(t->msg[i], "changes"));
		}
	return n;
}

static void changes_game(struct srv *s, const char *game, int players, const char *rules, int round)
{
	static struct tc p, q, w1, w2;
	char name[4][16];
	for (int i = 0; i < 4; i++)
		snprintf(name[i], sizeof name[i], "%c%s%d", "PQVW"[i], i ? "ierre" : "aul", round);
	tc_login_changes(&p, s, name[0], "fr");
	tc_login(&q, s, name[1], "en", NULL);
	tc_login_changes(&w1, s, name[2], "en");
	tc_login(&w2, s, name[3], "en", NULL);
	long id = two_open(&p, &q, game, players, rules);
	struct tc *ws[] = { &w1, &w2 };
	for (int i = 0; i < 2; i++) {
		ws[i]->table = id;
		tc_send(ws[i], "{\"type\":\"watch\",\"table\":%ld}", id);
		tc_wait(ws[i], "joined");
	}
	tc_send(&p, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &p, &q, &w1, &w2 };
	play_until(all, 4, NULL, NULL);
	/* The two spectators' states, one against the other. */
	json_t *held = NULL, *moments = json_object();
	int nmoments = 0;
	int k = 0, compared = 0;
	for (int i = 0; i < w1.n; i++) {
		if (!strcmp(mtype(w1.msg[i]), "moment")) {
			proto_moment_keep(moments, w1.msg[i]);
			nmoments++;
		}
		if (strcmp(mtype(w1.msg[i]), "state") != 0 || json_integer_value(json_object_get(w1.msg[i], "table")) != id)
			continue;
		/* Changes never carry the queries and f1: the client has them by the moment's name. */
		ck_assert(!json_is_true(json_object_get(w1.msg[i], "changes")) || !json_object_get(w1.msg[i], "f1"));
		json_t *st = proto_state_apply(held, w1.msg[i], moments);
		ck_assert_ptr_nonnull(st);
		if (st == w1.msg[i]) {
			json_decref(st);
			st = json_deep_copy(w1.msg[i]);
		}
		json_decref(held);
		held = st;
		while (k < w2.n && (strcmp(mtype(w2.msg[k]), "state") != 0 ||
		                    json_integer_value(json_object_get(w2.msg[k], "table")) != id))
			k++;
		ck_assert_int_lt(k, w2.n);
		if (!json_equal(held, w2.msg[k])) {
			char *a = json_dumps(held, JSON_COMPACT), *b = json_dumps(w2.msg[k], JSON_COMPACT);
			fprintf(stderr, "held:  %s\nwhole: %s\n", a, b);
			ck_abort_msg("%s: state %d held unlike the whole one", game, compared);
		}
		k++;
		compared++;
	}
	json_decref(held);
	json_decref(moments);
	ck_assert_int_gt(compared, 5);
	ck_assert_int_gt(nmoments, 0);
	int c1 = 0, c2 = 0, cp = 0;
	size_t b1 = state_bytes(&w1, &c1), b2 = state_bytes(&w2, &c2);
	state_bytes(&p, &cp);
	ck_assert_int_eq(c2, 0);
	ck_assert_int_gt(c1, compared / 2);
	ck_assert_int_gt(cp, 3);
	ck_assert_msg(b1 * 2 < b2, "%s: the changes are %zu bytes, the whole states %zu", game, b1, b2);
	/* The player who holds the state by its changes ended the game on it. */
	ck_assert_str_eq(json_string_value(json_object_get(p.state, "state")), "over");
	ck_assert_ptr_nonnull(json_object_get(json_object_get(p.state, "keys"), "H"));
	check_no_leak(s, id, all, 4);
	tc_free(&p);
	tc_free(&q);
	tc_free(&w1);
	tc_free(&w2);
}

START_TEST(test_state_changes)
{
	struct srv s;
	srv_start(&s);
	changes_game(&s, "bouillotte", 4, "\"hands\":2", 0);
	changes_game(&s, "brelan", 4, "\"hands\":2", 1);
	changes_game(&s, "bourre", 4, "\"hands\":2", 2);
	changes_game(&s, "brouc", 4, "\"hands\":1", 3);
	changes_game(&s, "bouillabaisse", 3, "\"hands\":1", 4);
	srv_stop(&s);
}
END_TEST

/* ---- the names at a table ---- */

/* Every string of a message (its values, not its keys), one a line. */
static void strings_of(json_t *j, char **buf, size_t *len, size_t *cap)
{
	if (json_is_string(j)) {
		const char *v = json_string_value(j);
		size_t n = strlen(v);
		if (*len + n + 2 > *cap) {
			*cap = (*len + n + 2) * 2;
			*buf = realloc(*buf, *cap);
			ck_assert_ptr_nonnull(*buf);
		}
		memcpy(*buf + *len, v, n);
		*len += n;
		(*buf)[(*len)++] = '\n';
		(*buf)[*len] = '\0';
	} else if (json_is_array(j)) {
		for (size_t i = 0; i < json_array_size(j); i++)
			strings_of(json_array_get(j, i), buf, len, cap);
	} else if (json_is_object(j)) {
		const char *k;
		json_t *v;
		json_object_foreach(j, k, v)
			strings_of(v, buf, len, cap);
	}
}

static const char *const BUILTIN_NAMES[12] = {
	"Anne", "Bruno", "Claire", "Denis", "Emma", "Félix", "Gaston", "Hélène", "Inès", "Jules", "Karim", "Léa",
};

/* a and b the same name by ear: ASCII case aside ("emma", "Emma"). */
static int same_name(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

/* What the clients at a table heard of it (its says, refusals and states:
 * every game line, every key's answer, every choice), checked against the
 * people sitting there: no seat held by a person is called by a built-in
 * name; every built-in name heard is a bot's ("Anne (bot)" / "Anne,
 * (robot)") and no bot is called as a person is; every person is named by
 * the others; no French contraction touched a name. */
static void check_names(struct tc **all, int n, long table, const char *const *person, int players, int bots)
{
	for (int c = 0; c < n; c++) {
		struct tc *t = all[c];
		const char *bot = !strcmp(t->lang, "fr") ? " (robot)" : " (bot)";
		char *text = NULL;
		size_t len = 0, cap = 0;
		for (int m = 0; m < t->n; m++) {
			const char *type = mtype(t->msg[m]);
			if (json_integer_value(json_object_get(t->msg[m], "table")) != table)
				continue;
			if (!strcmp(type, "say") || !strcmp(type, "state") || !strcmp(type, "refused"))
				strings_of(t->msg[m], &text, &len, &cap);
		}
		ck_assert_msg(text && len > 100, "%s heard nothing", t->name);
		ck_assert_msg(strpbrk(text, "\x0e\x0f") == NULL, "%s: a name's mark was sent", t->name);
		ck_assert_msg(!strstr(text, "du Goff") && !strstr(text, "au Goff") && !strstr(text, "le Goff"),
		              "%s: a contracted name", t->name);
		int bots_heard = 0;
		for (int k = 0; k < 12; k++) {
			const char *b = BUILTIN_NAMES[k];
			size_t nb = strlen(b);
			for (const char *p = text; (p = strstr(p, b)); p++) {
				if ((p > text && letter((unsigned char)p[-1])) || letter((unsigned char)p[nb]))
					continue;
				const char *around = p - text > 100 ? p - 100 : text;
				if (!strncmp(p + nb, bot, strlen(bot))) {
					bots_heard++;
					for (int s = 0; s < players; s++)
						ck_assert_msg(!same_name(person[s], b), "%s: a bot is called %s as a person is: %.200s",
						              t->name, b, around);
					continue;
				}
				int a_person = 0;
				for (int s = 0; s < players; s++)
					a_person |= !strcmp(person[s], b);
				ck_assert_msg(a_person, "%s: a seat called %s, a built-in name: %.200s", t->name, b, around);
			}
		}
		ck_assert_msg(bots ? bots_heard > 0 : bots_heard == 0, "%s: %d bots named", t->name, bots_heard);
		for (int s = 0; s < players; s++)
			if (person[s][0] && s != t->seat)
				ck_assert_msg(has_words(text, person[s]), "%s never heard %s named", t->name, person[s]);
		free(text);
	}
}

/* Four people in two languages at one table (and a spectator), every game:
 * each hears the others by their names, and the bots by bots' names. */
static void names_game(const char *game, int players, const char *rules)
{
	struct srv s;
	srv_start(&s);
	/* Claire and emma have built-in names: the bots that had them take
	 * others. Le Goff tries the French contractions. */
	static const char *const people[4] = { "Claire", "Le Goff", "emma", "Ben" };
	static const char *const langs[4] = { "en", "fr", "fr", "en" };
	static struct tc p[4], w;
	for (int i = 0; i < 4; i++)
		tc_login(&p[i], &s, people[i], langs[i], NULL);
	tc_login(&w, &s, "Wanda", "fr", NULL);
	int seated = players < 4 ? players : 4;
	char seats[128] = "[";
	for (int i = 0; i < players; i++)
		strcat(seats, i == 0 ? "\"open\"" : i < seated ? ",\"open\"" : ",\"bot\"");
	strcat(seats, "]");
	char extra[256];
	snprintf(extra, sizeof extra, ",\"rules\":{%s}", rules);
	long id = tc_create(&p[0], game, players, seats, extra);
	p[0].seat = 0;
	for (int i = 1; i < seated; i++)
		tc_sit(&p[i], id, i);
	struct tc *all[6];
	int n = 0;
	for (int i = 0; i < 4; i++)
		all[n++] = &p[i];
	all[n++] = &w;
	for (int i = seated; i < 4; i++) {
		/* More people than seats: they watch. */
		p[i].table = id;
		tc_send(&p[i], "{\"type\":\"watch\",\"table\":%ld}", id);
		tc_wait(&p[i], "joined");
	}
	w.table = id;
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld}", id);
	tc_wait(&w, "joined");
	tc_send(&p[0], "{\"type\":\"start\",\"table\":%ld}", id);
	play_until(all, n, NULL, NULL);
	const char *person[GAME_MAX_SEATS];
	for (int i = 0; i < players; i++)
		person[i] = i < seated ? people[i] : "";
	check_names(all, n, id, person, players, players - seated);
	/* The hand history names the people (a bot's seat ""), and replays. */
	char path[256], want[256] = ",\"names\":[";
	for (int i = 0; i < players; i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s\"%s\"", i ? "," : "", person[i]);
	strcat(want, "]");
	history_path(s.logs, id, path, sizeof path);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	char line[4096];
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	fclose(f);
	ck_assert_msg(strstr(line, "\"type\":\"game_start\"") && strstr(line, want), "%s", line);
	replay_log(&s, id);
	for (int i = 0; i < n; i++)
		tc_free(all[i]);
	srv_stop(&s);
}

START_TEST(test_names_bouillotte) { names_game("bouillotte", 5, "\"hands\":2"); }
END_TEST
START_TEST(test_names_brelan) { names_game("brelan", 5, "\"hands\":2"); }
END_TEST
START_TEST(test_names_bourre) { names_game("bourre", 5, "\"hands\":2"); }
END_TEST
START_TEST(test_names_brouc) { names_game("brouc", 4, "\"hands\":1"); }
END_TEST
START_TEST(test_names_bouillabaisse) { names_game("bouillabaisse", 5, "\"hands\":1"); }
END_TEST
START_TEST(test_names_three_seats) { names_game("bouillabaisse", 3, "\"hands\":1"); }
END_TEST

/* ---- around the games ---- */

static int count_type(const struct tc *t, const char *type)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += !strcmp(mtype(t->msg[i]), type);
	return n;
}

/* 1 when t heard a sentence holding part. */
static int heard(const struct tc *t, const char *part)
{
	for (int i = 0; i < t->n; i++) {
		const char *x = json_string_value(json_object_get(t->msg[i], "text"));
		if (!strcmp(mtype(t->msg[i]), "say") && x && strstr(x, part))
			return 1;
	}
	return 0;
}

/* The error code of the next error message. */
static const char *next_error(struct tc *t)
{
	return json_string_value(json_object_get(tc_wait(t, "error"), "code"));
}

/* The last state of t's table come so far, the ones that came before
 * t->table was set included (a bot may have played meanwhile, and the
 * messages of the table may come in the same read as the welcome): whose
 * turn it is, and whether the game is over. */
static void tc_catch_up(struct tc *t)
{
	for (int i = t->n - 1; i >= 0; i--)
		if (!strcmp(mtype(t->msg[i]), "state") &&
		    json_integer_value(json_object_get(t->msg[i], "table")) == t->table) {
			t->state = t->msg[i];
			if (!strcmp(json_string_value(json_object_get(t->state, "state")), "over"))
				t->over = 1;
			return;
		}
}

static int stop_after_states(struct tc **all, int n, void *ctx)
{
	(void)n;
	return count_type(all[0], "state") >= *(int *)ctx;
}

/* Stop once past so many states, at the first's turn (the table waits). */
static int stop_at_my_turn(struct tc **all, int n, void *ctx)
{
	(void)n;
	return stop_after_states(all, n, ctx) && all[0]->state &&
	       json_integer_value(json_object_get(all[0]->state, "to_act")) == all[0]->seat;
}

struct heard_ctx {
	int who;
	const char *part;
};

static int stop_when_heard(struct tc **all, int n, void *ctx)
{
	struct heard_ctx *h = ctx;
	(void)n;
	return heard(all[h->who], h->part);
}

/* The index of the first say heard after message `from` holding part, or -1. */
static int said_from(const struct tc *t, int from, const char *part)
{
	for (int i = from; i < t->n; i++)
		if (!strcmp(mtype(t->msg[i]), "say") && strstr(json_string_value(json_object_get(t->msg[i], "text")), part))
			return i;
	return -1;
}

struct heard_after {
	int from;
	const char *part;
};

/* The first client heard part after message `from`. */
static int stop_when_heard_after(struct tc **all, int n, void *ctx)
{
	struct heard_after *h = ctx;
	(void)n;
	return said_from(all[0], h->from, h->part) >= 0;
}

/* Two people with accounts, one English and one French, at a table of
 * each game (Le Brouc with the two as partners, and a deal of L'Homme de
 * Brou), bots in the other seats: each hears their own sit as "you" with
 * the seat counted from 1, the other's by name, the bots as bots, and the
 * game to its end. */
START_TEST(test_two_people_every_game)
{
	static const struct {
		const char *game, *seats, *rules;
		int players, bernard;
	} g[] = {
		{ "bouillotte", "[\"open\",\"open\",\"bot\",\"bot\"]", "\"hands\":2", 4, 1 },
		{ "brelan", "[\"open\",\"open\",\"bot\",\"bot\"]", "\"hands\":2", 4, 1 },
		{ "bourre", "[\"open\",\"bot\",\"open\",\"bot\",\"bot\"]", "\"hands\":2", 5, 2 },
		{ "brouc", "[\"open\",\"bot\",\"open\",\"bot\"]", "\"hands\":1", 4, 2 },
		{ "brouc", "[\"open\",\"bot\",\"open\",\"bot\"]", "\"hands\":1,\"variant\":\"homme\"", 4, 2 },
		{ "bouillabaisse", "[\"open\",\"open\",\"bot\"]", "\"hands\":1", 3, 1 },
	};
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", "anne-secret");
	tc_login(&b, &s, "Bernard", "fr", "bernard-secret");
	char extra[128];
	snprintf(extra, sizeof extra, ",\"rules\":{%s}", g[_i].rules);
	long id = tc_create(&a, g[_i].game, g[_i].players, g[_i].seats, extra);
	a.seat = 0;
	tc_sit(&b, id, g[_i].bernard);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	play_until(all, 2, NULL, NULL);
	char mine[96];
	snprintf(mine, sizeof mine, "You sit at table %ld, seat 1.", id);
	ck_assert_msg(heard(&a, mine), "%s: %s", g[_i].game, mine);
	snprintf(mine, sizeof mine, "Vous vous asseyez à la table %ld, place %d.", id, g[_i].bernard + 1);
	ck_assert_msg(heard(&b, mine), "%s: %s", g[_i].game, mine);
	ck_assert(heard(&a, "Bernard sits down."));
	ck_assert(!heard(&b, "Bernard s'assied"));
	const char *person[GAME_MAX_SEATS];
	for (int i = 0; i < g[_i].players; i++)
		person[i] = i == 0 ? "Anne" : i == g[_i].bernard ? "Bernard" : "";
	check_names(all, 2, id, person, g[_i].players, g[_i].players - 2);
	replay_log(&s, id);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* A person leaving mid-game gives the seat a bot's name from then on; a
 * person sitting down there gives it theirs. */
START_TEST(test_names_change_mid_game)
{
	struct srv s;
	srv_start(&s);
	static struct tc z, b, w;
	tc_login(&z, &s, "Zoé", "en", NULL);
	tc_login(&b, &s, "Ben", "fr", NULL);
	tc_login(&w, &s, "Wanda", "fr", NULL);
	long id = tc_create(&z, "bouillabaisse", 3, "[\"open\",\"open\",\"bot\"]", ",\"rules\":{\"hands\":2}");
	z.seat = 0;
	tc_sit(&b, id, 1);
	w.table = id;
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld}", id);
	tc_wait(&w, "joined");
	tc_send(&z, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &z, &b, &w };
	int states = 6;
	play_until(all, 3, stop_after_states, &states);
	tc_send(&b, "{\"type\":\"stand\",\"table\":%ld}", id);
	b.seat = -1;
	struct heard_ctx up = { 0, "Ben stands up" };
	play_until(all, 3, stop_when_heard, &up);
	int left = said_from(&z, 0, "Ben stands up");
	struct heard_ctx bot = { 0, "Bruno (bot)" };
	play_until(all, 3, stop_when_heard, &bot);
	ck_assert_int_gt(said_from(&z, 0, "Bruno (bot)"), left);
	ck_assert_int_lt(said_from(&z, 0, "Bruno (bot)") - left, 200);
	struct tc *watchers[] = { &w };
	struct heard_ctx robot = { 0, "Bruno (robot)" };
	play_until(watchers, 1, stop_when_heard, &robot);
	/* Ben sits again: the seat is his from then on. */
	tc_sit(&b, id, 1);
	struct heard_after sat = { left, "Ben sits down" };
	play_until(all, 3, stop_when_heard_after, &sat);
	int back = said_from(&z, left, "Ben sits down");
	play_until(all, 3, NULL, NULL);
	ck_assert_int_lt(said_from(&z, back, "Bruno"), 0);
	ck_assert_int_gt(said_from(&z, back + 1, "Ben plays"), back);
	int wback = said_from(&w, said_from(&w, 0, "Ben se lève"), "Ben s'assied");
	ck_assert_int_ge(wback, 0);
	ck_assert_int_lt(said_from(&w, wback, "Bruno"), 0);
	tc_free(&z);
	tc_free(&b);
	tc_free(&w);
	srv_stop(&s);
}
END_TEST

/* A player drops: after the grace a bot plays the seat; back with their
 * token, they hear what they missed and take the seat again. */
START_TEST(test_reconnect)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, a2;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	int states = 6;
	play_until(all, 2, stop_after_states, &states);
	char token[40];
	snprintf(token, sizeof token, "%s", a.token);
	netc_abandon(a.c);
	a.c = NULL;
	/* Bruno plays on; a bot plays Anne's seat once the grace is over. */
	struct heard_ctx hc = { 1, "A bot plays for Anne." };
	play_until(all, 2, stop_when_heard, &hc);
	/* Told at once before, with how long the seat waits. */
	int lost = said_from(&b, 0, "Anne lost the connection; the seat waits ");
	ck_assert_int_ge(lost, 0);
	ck_assert_int_lt(lost, said_from(&b, 0, "A bot plays for Anne."));
	struct tc *b_only[] = { &b };
	states = count_type(&b, "state") + 12;
	play_until(b_only, 1, stop_after_states, &states);
	/* Someone else cannot take the name while it holds a seat. */
	static struct tc x;
	tc_hello(&x, &s, "Anne", "en", NULL, "0123");
	json_t *taken = tc_wait(&x, "error");
	ck_assert_str_eq(json_string_value(json_object_get(taken, "code")), "name_in_use");
	/* The message says why and what to do. */
	ck_assert(strstr(json_string_value(json_object_get(taken, "message")), "keeps a seat at a table"));
	tc_free(&x);
	/* Anne comes back. */
	tc_hello(&a2, &s, "Anne", "en", NULL, token);
	tc_wait(&a2, "welcome");
	json_t *j = tc_wait(&a2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 0);
	a2.table = id;
	a2.seat = 0;
	json_t *missed = tc_wait(&a2, "missed");
	ck_assert_int_gt(json_array_size(json_object_get(missed, "says")), 0);
	ck_assert_int_le(json_array_size(json_object_get(missed, "says")), 30);
	/* Her own absence told to her as hers ("you"), never by her name. */
	int you_away = 0;
	json_t *said;
	size_t k;
	json_array_foreach(json_object_get(missed, "says"), k, said) {
		const char *y = json_string_value(json_object_get(said, "text"));
		ck_assert_msg(!y || !strstr(y, "Anne"), "Anne's own catch-up names her: %s", y);
		you_away |= y && !strcmp(y, "You were away: a bot played for you.");
	}
	/* (unless more than the 30 kept came after it) */
	ck_assert(you_away || json_integer_value(json_object_get(missed, "dropped")) > 0);
	/* With it, in her language, its heading and where the game stands:
	 * the state's answers that follow (the cards on the table, the scores). */
	ck_assert_str_eq(json_string_value(json_object_get(missed, "heading")), "While you were away:");
	const char *now = json_string_value(json_object_get(missed, "now"));
	json_t *st = tc_wait(&a2, "state");
	const char *scores = json_string_value(json_object_get(json_object_get(st, "keys"), "S"));
	ck_assert_msg(now && scores && *scores && strstr(now, scores), "now: %s; S: %s", now ? now : "none",
	              scores ? scores : "none");
	tc_catch_up(&a2);
	struct heard_ctx back = { 1, "Anne is back" };
	struct tc *both[] = { &a2, &b };
	play_until(both, 2, stop_when_heard, &back);
	play_until(both, 2, NULL, NULL);
	/* Anne herself hears where she is back, not her name. */
	ck_assert(heard(&a2, "You are back at table "));
	ck_assert(!heard(&a2, "Anne is back"));
	replay_log(&s, id);
	tc_free(&a);
	tc_free(&a2);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* A player whose client dies is told to the others at once, in their
 * language, by the connection's end and not by the grace (here far longer
 * than the test may run): "Bernard lost the connection; the seat waits 10
 * minutes." Back, Bernard hears nothing of himself in the third person. */
START_TEST(test_lost_at_once)
{
	struct srv s;
	srv_make(&s);
	s.grace_ms = 600000;
	srv_run(&s);
	static struct tc a, b, b2;
	tc_login(&a, &s, "Anne", "en", "anne-secret");
	tc_login(&b, &s, "Bernard", "fr", "bernard-secret");
	long id = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":3}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	int states = 4;
	play_until(all, 2, stop_after_states, &states);
	netc_abandon(b.c);
	b.c = NULL;
	struct heard_ctx hc = { 0, "Bernard lost the connection; the seat waits 10 minutes." };
	play_until(all, 2, stop_when_heard, &hc);
	ck_assert(!heard(&a, "A bot plays for Bernard"));
	tc_hello(&b2, &s, "Bernard", "fr", "bernard-secret", NULL);
	tc_wait(&b2, "welcome");
	tc_wait(&b2, "joined");
	tc_wait(&b2, "state");
	for (int i = 0; i < b2.n; i++) {
		json_t *said;
		size_t k;
		json_array_foreach(json_object_get(b2.msg[i], "says"), k, said) {
			const char *x = json_string_value(json_object_get(said, "text"));
			ck_assert_msg(!x || !strstr(x, "Bernard"), "Bernard's own catch-up names him: %s", x);
		}
	}
	tc_free(&a);
	tc_free(&b);
	tc_free(&b2);
	srv_stop(&s);
}
END_TEST

/* One's own events are said to oneself as "you", in one's language, with
 * a confirmation of the seat taken (counted from 1); the others hear the
 * name. */
START_TEST(test_you_own_events)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", "anne-secret");
	tc_login(&b, &s, "Bernard", "fr", "bernard-secret");
	long id = tc_create(&a, "bouillotte", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	char mine[80];
	snprintf(mine, sizeof mine, "Vous vous asseyez à la table %ld, place 2.", id);
	struct heard_ctx sat = { 1, mine };
	struct tc *all[] = { &a, &b };
	play_until(all, 2, stop_when_heard, &sat);
	struct heard_ctx other = { 0, "Bernard sits down." };
	play_until(all, 2, stop_when_heard, &other);
	tc_send(&b, "{\"type\":\"stand\",\"table\":%ld}", id);
	struct heard_ctx up = { 1, "Vous vous levez." };
	play_until(all, 2, stop_when_heard, &up);
	struct heard_ctx up2 = { 0, "Bernard stands up." };
	play_until(all, 2, stop_when_heard, &up2);
	ck_assert(!heard(&b, "Bernard"));
	ck_assert(!heard(&a, "Anne "));
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* The tables a client was told it holds a seat at (a "joined" with a seat,
 * not yet "left" nor a state there with no seat). */
static int seats_held(const struct tc *t, long *tables, int max)
{
	int n = 0;
	for (int i = 0; i < t->n; i++) {
		long id = (long)json_integer_value(json_object_get(t->msg[i], "table"));
		int k = 0;
		while (k < n && tables[k] != id)
			k++;
		if (!strcmp(mtype(t->msg[i]), "joined") && json_integer_value(json_object_get(t->msg[i], "seat")) >= 0) {
			if (k == n && n < max)
				tables[n++] = id;
		} else if (k < n && (!strcmp(mtype(t->msg[i]), "left") ||
		                     (!strcmp(mtype(t->msg[i]), "state") &&
		                      json_integer_value(json_object_get(t->msg[i], "seat")) < 0))) {
			tables[k] = tables[--n];
		}
	}
	return n;
}

/* Everything said to t so far has come (a ping answered). */
static void tc_settle(struct tc *t)
{
	int pongs = count_type(t, "pong");
	tc_send(t, "{\"type\":\"ping\"}");
	for (int i = 0; i < 400 && count_type(t, "pong") == pongs; i++)
		netc_service(t->c, 5);
	ck_assert_int_gt(count_type(t, "pong"), pongs);
}

/* The question one holds a seat at (the last "ask"), its choices. */
static json_t *asked(struct tc *t, long table, int seat)
{
	json_t *q = tc_wait(t, "ask");
	ck_assert_str_eq(json_string_value(json_object_get(q, "about")), "seat_held");
	ck_assert_int_eq(json_integer_value(json_object_get(q, "table")), table);
	ck_assert_int_eq(json_integer_value(json_object_get(q, "seat")), seat);
	json_t *ch = json_object_get(q, "choices");
	ck_assert_int_eq(json_array_size(ch), 2);
	json_t *back = json_object_get(json_array_get(ch, 0), "send");
	ck_assert_str_eq(json_string_value(json_object_get(back, "type")), "sit");
	ck_assert_int_eq(json_integer_value(json_object_get(back, "table")), table);
	ck_assert_int_eq(json_integer_value(json_object_get(back, "seat")), seat);
	ck_assert(json_is_true(json_object_get(json_array_get(ch, 1), "again")));
	return q;
}

/* The next entry of table id in the lobby's list sent to t (a snapshot
 * or its changes), waiting up to 5 s; NULL when none comes. */
static json_t *lobby_entry(struct tc *t, long id)
{
	for (int waited = 0; waited < 5000; waited += 5) {
		for (; t->cursor < t->n; t->cursor++) {
			json_t *m = t->msg[t->cursor], *x;
			size_t k;
			if (strcmp(mtype(m), "lobby") && strcmp(mtype(m), "lobby_delta"))
				continue;
			json_array_foreach(json_object_get(m, "tables"), k, x)
				if (json_integer_value(json_object_get(x, "id")) == id) {
					t->cursor++;
					return x;
				}
		}
		if (netc_service(t->c, 5) < 0 && t->cursor >= t->n)
			break;
	}
	return NULL;
}

/* Bernard back, bound for a table of his own (hello "going"). */
static void hello_going(struct tc *t, struct srv *s)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "Bernard");
	snprintf(t->lang, sizeof t->lang, "fr");
	t->seat = -1;
	t->acted_seq = -1;
	tc_connect(t, s);
	tc_send(t, "{\"type\":\"hello\",\"version\":1,\"name\":\"Bernard\",\"lang\":\"fr\",\"password\":\"bernard-secret\","
	           "\"going\":true}");
	tc_wait(t, "welcome");
	tc_settle(t);
}

/* One person, one table, by their choice: Bernard, Anne's partner at Le
 * Brouc, loses his connection; back bound for a table of his own (hello
 * "going", tapis join --create or --table), he is not put back there, and
 * making a table is answered by a question in his language (keep the
 * seat and go back, or give it up); giving it up makes the table, the
 * seat played by a bot as a stand does. A seat at a table that waits is
 * given up without a question (--table); at a table in play again, a
 * create asked about and the seat kept makes nothing. After a restart he
 * holds one seat, at the table he kept. */
START_TEST(test_one_table)
{
	struct srv s;
	srv_make(&s);
	s.grace_ms = 600000;
	srv_run(&s);
	static struct tc a, b, b2, c, b3;
	tc_login(&a, &s, "Anne", "en", "anne-secret");
	tc_login(&b, &s, "Bernard", "fr", "bernard-secret");
	tc_login(&c, &s, "Carl", "en", NULL);
	long t1 = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"open\",\"bot\"]", ",\"rules\":{\"hands\":2}");
	a.seat = 0;
	tc_sit(&b, t1, 2); /* partners */
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", t1);
	struct tc *all[] = { &a, &b };
	int states = 4;
	play_until(all, 2, stop_after_states, &states);
	netc_abandon(b.c);
	b.c = NULL;
	struct heard_ctx lost = { 0, "Bernard lost the connection" };
	play_until(all, 2, stop_when_heard, &lost);
	/* Back, bound for a table of his own: not at t1, and asked. */
	hello_going(&b2, &s);
	ck_assert_int_eq(count_type(&b2, "joined"), 0);
	const char *create2 = "{\"type\":\"create\",\"game\":\"bouillotte\",\"players\":4,"
	                      "\"seats\":[\"open\",\"open\",\"bot\",\"bot\"],\"rules\":{\"hands\":1}%s}";
	tc_send(&b2, create2, "");
	json_t *q = asked(&b2, t1, 2);
	char want[64];
	snprintf(want, sizeof want, "la place 3 à la table %ld", t1);
	ck_assert_msg(strstr(json_string_value(json_object_get(q, "text")), want), "%s",
	              json_string_value(json_object_get(q, "text")));
	ck_assert_int_eq(count_type(&b2, "created"), 0);
	/* Given up: the table made, the seat at t1 played by a bot. */
	tc_send(&b2, create2, ",\"give_up\":true");
	long t2 = (long)json_integer_value(json_object_get(tc_wait(&b2, "created"), "table"));
	tc_wait(&b2, "joined");
	ck_assert_int_ne(t2, t1);
	tc_settle(&b2);
	long held[8];
	ck_assert_int_eq(seats_held(&b2, held, 8), 1);
	ck_assert_int_eq(held[0], t2);
	struct heard_ctx up = { 0, "Bernard stands up. A bot plays the seat." };
	struct tc *anne[] = { &a };
	play_until(anne, 1, stop_when_heard, &up);
	/* Nothing of t1 left to him: out of t2, the lobby's list comes, t1's
	 * seat no longer his; then a table of his own again, waiting. */
	tc_send(&b2, "{\"type\":\"leave\",\"table\":%ld}", t2);
	json_t *entry = lobby_entry(&b2, t1);
	ck_assert_ptr_nonnull(entry);
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(entry, "seats"), 2), "name"));
	t2 = tc_create(&b2, "bouillotte", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	/* --table (or a sit from the lobby) while t2 waits: no question. */
	/* (Deals enough that its game goes on whatever the bots do meanwhile.) */
	long t3 = tc_create(&c, "bourre", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":30}");
	c.seat = 0;
	tc_sit(&b2, t3, 1);
	tc_settle(&b2);
	ck_assert_int_eq(seats_held(&b2, held, 8), 1);
	ck_assert_int_eq(held[0], t3);
	/* In play at t3, a create asked about, the seat kept: nothing made. */
	tc_send(&c, "{\"type\":\"start\",\"table\":%ld}", t3);
	struct tc *at3[] = { &c, &b2 };
	int st3 = count_type(&b2, "state") + 2;
	play_until(at3, 2, stop_after_states, &st3);
	/* Away again, then back: the seat kept, "joined" before the state
	 * and the return said there. */
	netc_abandon(b2.c);
	b2.c = NULL;
	struct heard_ctx lost2 = { 0, "Bernard lost the connection" };
	struct tc *carl[] = { &c };
	play_until(carl, 1, stop_when_heard, &lost2);
	tc_free(&b2);
	hello_going(&b2, &s);
	tc_send(&b2, create2, "");
	asked(&b2, t3, 1);
	tc_send(&b2, "{\"type\":\"sit\",\"table\":%ld,\"seat\":1}", t3);
	tc_settle(&b2);
	ck_assert_int_eq(count_type(&b2, "created"), 0);
	ck_assert_int_eq(count_type(&b2, "joined"), 1);
	ck_assert_int_eq(seats_held(&b2, held, 8), 1);
	ck_assert_int_eq(held[0], t3);
	int joined_at = -1, back_at = -1, state_at = -1;
	for (int i = 0; i < b2.n; i++) {
		const char *ty = mtype(b2.msg[i]);
		if (!strcmp(ty, "joined") && joined_at < 0)
			joined_at = i;
		else if (!strcmp(ty, "state") && state_at < 0)
			state_at = i;
		else if (!strcmp(ty, "say") && strstr(json_string_value(json_object_get(b2.msg[i], "text")), "de retour") &&
		         back_at < 0)
			back_at = i;
	}
	ck_assert_int_ge(joined_at, 0);
	ck_assert_int_gt(state_at, joined_at);
	ck_assert_int_gt(back_at, joined_at);
	/* A restart: one seat, at t3. */
	tc_free(&b2);
	srv_halt(&s);
	srv_run(&s);
	tc_hello(&b3, &s, "Bernard", "fr", "bernard-secret", NULL);
	tc_wait(&b3, "welcome");
	tc_settle(&b3);
	ck_assert_int_eq(seats_held(&b3, held, 8), 1);
	ck_assert_int_eq(held[0], t3);
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	tc_free(&b3);
	srv_stop(&s);
}
END_TEST

/* A history fetched while the same account plays (tapis join --history
 * beside the open client) comes through a connection aside the session:
 * the game goes on at the open client, never "replaced"; the aside
 * connection may ask nothing else. */
START_TEST(test_history_aside)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, x;
	tc_login(&a, &s, "Anne", "en", "anne-secret");
	tc_login(&b, &s, "Bernard", "fr", "bernard-secret");
	/* A game of Anne's that ended, to fetch. */
	long t1 = tc_create(&a, "bouillabaisse", 3, "[\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", t1);
	struct tc *anne[] = { &a };
	play_until(anne, 1, NULL, NULL);
	tc_send(&a, "{\"type\":\"leave\",\"table\":%ld}", t1);
	a.over = 0;
	a.state = NULL;
	/* Anne and Bernard at a table in play. */
	long t2 = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":3}");
	a.seat = 0;
	tc_sit(&b, t2, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", t2);
	struct tc *all[] = { &a, &b };
	int states = 4;
	play_until(all, 2, stop_after_states, &states);
	memset(&x, 0, sizeof x);
	snprintf(x.name, sizeof x.name, "Anne (aside)");
	x.seat = -1;
	tc_connect(&x, &s);
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"lang\":\"en\",\"password\":\"anne-secret\","
	            "\"aside\":true}");
	json_t *w = tc_wait(&x, "welcome");
	ck_assert(json_is_true(json_object_get(w, "aside")));
	tc_send(&x, "{\"type\":\"history\",\"table\":%ld}", t1);
	json_t *hist = tc_wait(&x, "history");
	ck_assert_int_gt(json_array_size(json_object_get(hist, "lines")), 2);
	/* Nothing else is asked there. */
	tc_send(&x, "{\"type\":\"sit\",\"table\":%ld}", t2);
	ck_assert_str_eq(json_string_value(json_object_get(tc_wait(&x, "error"), "code")), "aside");
	tc_free(&x);
	/* Anne's session was never cut, and plays on to the end. */
	play_until(all, 2, NULL, NULL);
	for (int i = 0; i < a.n; i++)
		ck_assert_msg(strcmp(mtype(a.msg[i]), "error") || strcmp(json_string_value(json_object_get(a.msg[i], "code")), "replaced"),
		              "Anne's session was replaced");
	ck_assert(!heard(&b, "Anne a perdu la connexion"));
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* Standing up gives the seat to a bot; sitting down again takes it back. */
/* A client that plays and closes at once reads nothing more: what the
 * bots do after its move is kept for its return, in "missed", not written
 * to the connection closing. */
START_TEST(test_bye_then_missed)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, a2;
	tc_login(&a, &s, "Kim", "en", NULL);
	long id = tc_create(&a, "bouillabaisse", 3, "[\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	for (int k = 0; k < 1000 && !(a.state && json_is_true(json_object_get(a.state, "my_turn"))); k++)
		netc_service(a.c, 5);
	ck_assert(json_is_true(json_object_get(a.state, "my_turn")));
	char token[40];
	snprintf(token, sizeof token, "%s", a.token);
	tc_play(&a);
	ck_assert_int_gt(a.acted_seq, -1);
	netc_service(a.c, 1);   /* the move leaves, then the closing frame */
	netc_close(a.c);
	a.c = NULL;
	usleep(500000);
	tc_hello(&a2, &s, "Kim", "en", NULL, token);
	tc_wait(&a2, "welcome");
	json_t *missed = tc_wait(&a2, "missed");
	ck_assert_int_gt(json_array_size(json_object_get(missed, "says")), 0);
	tc_free(&a);
	tc_free(&a2);
	srv_stop(&s);
}
END_TEST

START_TEST(test_stand_and_sit)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	long id = tc_create(&a, "bouillabaisse", 3, "[\"open\",\"open\",\"bot:0\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	int states = 4;
	play_until(all, 2, stop_after_states, &states);
	tc_send(&b, "{\"type\":\"stand\",\"table\":%ld}", id);
	b.seat = -1;
	struct heard_ctx hc = { 0, "Bruno stands up" };
	play_until(all, 2, stop_when_heard, &hc);
	/* Bruno himself hears it said to him, in his language. */
	struct heard_ctx self = { 1, "Vous quittez votre place ; un robot joue à votre place." };
	play_until(all, 2, stop_when_heard, &self);
	ck_assert(!heard(&b, "Bruno se lève"));
	/* A bot plays for Bruno: the game goes on with Anne alone. */
	struct tc *a_only[] = { &a };
	states = count_type(&a, "state") + 6;
	play_until(a_only, 1, stop_after_states, &states);
	tc_sit(&b, id, 1);
	struct heard_ctx sat = { 0, "Bruno sits down" };
	play_until(all, 2, stop_when_heard, &sat);
	play_until(all, 2, NULL, NULL);
	replay_log(&s, id);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* The PostgreSQL of the suite (tests/pgtmp), started in main(): pg_state 1
 * up, 0 not installed (its tests skip), -1 failed or missing under CI. */
static struct pgtmp pg;
static int pg_state;
static char pg_why[256];

/* kill -9 in the middle of a deal: started again on the same store (the
 * SQLite file, then a PostgreSQL database), the table is where it was and
 * its player sits back down on logging in. */
START_TEST(test_kill9_restart)
{
	struct srv s;
	srv_make(&s);
	if (_i == 1) {
		char err[512], name[32];
		if (pg_state == 0) {
			snprintf(err, sizeof err, "rm -rf %s", s.dir);
			ck_assert_int_eq(system(err), 0);
			return;
		}
		ck_assert_msg(pg_state == 1, "PostgreSQL: %s", pg_why);
		snprintf(s.store, sizeof s.store, "postgresql");
		snprintf(name, sizeof name, "net%d", (int)getpid());
		ck_assert_msg(pgtmp_db(&pg, name, s.db, sizeof s.db, err, sizeof err) == 0, "%s", err);
	}
	srv_run(&s);
	static struct tc a, a2, c;
	tc_login(&a, &s, "Anne", "en", "secret words");
	long id = tc_create(&a, "bourre", 4, "[\"open\",\"bot\",\"bot:1\",\"bot\"]", ",\"rules\":{\"hands\":2}");
	a.seat = 0;
	tc_login(&c, &s, "Carl", "en", NULL);
	long waiting = tc_create(&c, "brelan", 5, "[\"open\",\"open\",\"bot\",\"bot\",\"bot\"]", NULL);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a };
	int states = 5;
	play_until(all, 1, stop_at_my_turn, &states);
	int seq = (int)json_integer_value(json_object_get(a.state, "moves"));
	char hand[2048];
	char *h = json_dumps(json_object_get(a.state, "hand"), JSON_COMPACT);
	snprintf(hand, sizeof hand, "%s", h);
	free(h);
	ck_assert_int_eq(kill(s.pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(s.pid, NULL, 0), s.pid);
	netc_abandon(a.c);
	a.c = NULL;
	netc_abandon(c.c);
	c.c = NULL;
	srv_run(&s);
	tc_login(&a2, &s, "Anne", "en", "secret words");
	json_t *lobby = tc_wait(&a2, "lobby");
	ck_assert_int_eq(json_array_size(json_object_get(lobby, "tables")), 2);
	json_t *t1 = json_array_get(json_object_get(lobby, "tables"), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(t1, "id")), waiting);
	ck_assert_str_eq(json_string_value(json_object_get(t1, "state")), "waiting");
	json_t *j = tc_wait(&a2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 0);
	a2.table = id;
	a2.seat = 0;
	json_t *st = tc_wait(&a2, "state");
	tc_catch_up(&a2);
	/* The same moment of the same deal. */
	ck_assert_int_eq(json_integer_value(json_object_get(st, "moves")), seq);
	h = json_dumps(json_object_get(st, "hand"), JSON_COMPACT);
	ck_assert_str_eq(h, hand);
	free(h);
	struct tc *again[] = { &a2 };
	play_until(again, 1, NULL, NULL);
	replay_log(&s, id);
	tc_free(&a);
	tc_free(&a2);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* A private table wants its password, to sit or to watch; a spectator hears
 * the game but no hidden card (the leak test covers spectators too). */
START_TEST(test_private_table)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, w;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&w, &s, "Wanda", "fr", NULL);
	long id = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]",
	                    ",\"private\":true,\"password\":\"door\",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&b, "{\"type\":\"sit\",\"table\":%ld}", id);
	ck_assert_str_eq(next_error(&b), "password");
	tc_send(&b, "{\"type\":\"sit\",\"table\":%ld,\"password\":\"window\"}", id);
	ck_assert_str_eq(next_error(&b), "password");
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld}", id);
	ck_assert_str_eq(next_error(&w), "password");
	b.table = id;
	tc_send(&b, "{\"type\":\"sit\",\"table\":%ld,\"password\":\"door\"}", id);
	ck_assert_int_eq(json_integer_value(json_object_get(tc_wait(&b, "joined"), "seat")), 1);
	b.seat = 1;
	w.table = id;
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld,\"password\":\"door\"}", id);
	ck_assert_int_eq(json_integer_value(json_object_get(tc_wait(&w, "joined"), "seat")), -1);
	/* Only the creator starts. */
	tc_send(&b, "{\"type\":\"start\",\"table\":%ld}", id);
	ck_assert_str_eq(next_error(&b), "not_creator");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b, &w };
	play_until(all, 3, NULL, NULL);
	ck_assert(count_type(&w, "say") > 5);
	check_no_leak(&s, id, all, 3);
	/* The lobby shows the table private, its password nowhere (at the
	 * table, its entry comes alone: in "joined", then as "table" when it
	 * changes while the table waits). */
	json_t *lobby = NULL;
	for (int i = 0; i < a.n; i++)
		if (!strcmp(mtype(a.msg[i]), "lobby") || !strcmp(mtype(a.msg[i]), "table") ||
		    !strcmp(mtype(a.msg[i]), "joined"))
			lobby = a.msg[i];
	char *text = json_dumps(lobby, JSON_COMPACT);
	ck_assert_ptr_nonnull(strstr(text, "\"private\":true"));
	ck_assert_ptr_null(strstr(text, "door"));
	free(text);
	tc_free(&a);
	tc_free(&b);
	tc_free(&w);
	srv_stop(&s);
}
END_TEST

/* memmem over a whole file. */
static int file_holds(const char *path, const char *what)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return memmem(buf, n, what, strlen(what)) != NULL;
}

START_TEST(test_passwords)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, x;
	tc_login(&a, &s, "Anne", "en", "hunter two");
	tc_free(&a);
	/* The name has a password now: no guest may take it. */
	tc_hello(&x, &s, "Anne", "en", NULL, NULL);
	ck_assert_str_eq(next_error(&x), "password");
	for (int i = 0; i < AUTH_FREE_FAILS; i++) {
		tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"password\":\"guess %d\"}", i);
		ck_assert_str_eq(next_error(&x), "password");
	}
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"password\":\"guess x\"}");
	ck_assert_str_eq(next_error(&x), "password");
	/* Now even the right password waits. */
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"password\":\"hunter two\"}");
	ck_assert_str_eq(next_error(&x), "wait");
	tc_free(&x);
	usleep(1100 * 1000);
	tc_login(&a, &s, "Anne", "en", "hunter two");
	tc_free(&a);
	/* The password is in no file of the server. */
	char path[200];
	snprintf(path, sizeof path, "%s/stderr.txt", s.dir);
	ck_assert(!file_holds(path, "hunter"));
	ck_assert(!file_holds(s.db, "hunter"));
	snprintf(path, sizeof path, "%s-wal", s.db);
	ck_assert(!file_holds(path, "hunter"));
	srv_stop(&s);
}
END_TEST

/* Oversized, malformed and unknown messages get an error; the server and
 * the connection survive. */
START_TEST(test_bad_messages)
{
	struct srv s;
	srv_start(&s);
	static struct tc x, v;
	memset(&x, 0, sizeof x);
	snprintf(x.name, sizeof x.name, "x");
	tc_connect(&x, &s);
	tc_send(&x, "{\"type\":\"create\",\"game\":\"brelan\"}");
	ck_assert_str_eq(next_error(&x), "hello_first");
	tc_send(&x, "{\"type\":");
	ck_assert_str_eq(next_error(&x), "bad_message");
	tc_send(&x, "{\"type\":\"teleport\"}");
	json_t *e = tc_wait(&x, "error");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "message")), "unknown message type"));
	tc_send(&x, "\"just a string\"");
	ck_assert_str_eq(next_error(&x), "bad_message");
	static char big[PROTO_MAX_MESSAGE * 3];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ck_assert_int_eq(netc_send(x.c, big), 0);
	ck_assert_str_eq(next_error(&x), "too_long");
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Xavier\"}");
	tc_wait(&x, "welcome");
	/* A message of a small type is bounded by its row: a ping padded to
	 * its limit is answered, one byte more is too long. */
	int small = lobby_message_max(PM_PING);
	ck_assert_int_lt(small, PROTO_MAX_MESSAGE);
	for (int over = 0; over < 2; over++) {
		char ping[PROTO_MAX_MESSAGE];
		int head = snprintf(ping, sizeof ping, "{\"type\":\"ping\",\"pad\":\"");
		int pad = small + over - head - 2;
		memset(ping + head, 'p', (size_t)pad);
		snprintf(ping + head + pad, sizeof ping - (size_t)(head + pad), "\"}");
		ck_assert_int_eq((int)strlen(ping), small + over);
		tc_send(&x, "%s", ping);
		if (over) {
			e = tc_wait(&x, "error");
			ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "too_long");
			ck_assert_str_eq(json_string_value(json_object_get(e, "re")), "ping");
		} else {
			tc_wait(&x, "pong");
		}
	}
	tc_send(&x, "{\"type\":\"action\",\"table\":99,\"action\":\"pass\"}");
	ck_assert_str_eq(next_error(&x), "no_table");
	tc_send(&x, "{\"type\":\"create\",\"game\":\"brouc\",\"players\":3}");
	e = tc_wait(&x, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "bad_message");
	/* A refused message of a known type names it (re). */
	ck_assert_str_eq(json_string_value(json_object_get(e, "re")), "create");
	/* A chat line of no-break spaces is refused, never delivered, and the
	 * refusal names the chat. */
	tc_send(&x, "{\"type\":\"chat\",\"text\":\"\u00a0\u00a0\u3000\"}");
	e = tc_wait(&x, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "bad_message");
	ck_assert_str_eq(json_string_value(json_object_get(e, "re")), "chat");
	ck_assert_int_eq(count_type(&x, "chat"), 0);
	/* Too many at once: the rate limit answers, then calm returns. */
	for (int i = 0; i < WS_RATE_BURST + 20; i++)
		tc_send(&x, "{\"type\":\"ping\"}");
	ck_assert_str_eq(next_error(&x), "rate");
	usleep(500 * 1000);
	int pongs = count_type(&x, "pong");
	tc_send(&x, "{\"type\":\"ping\"}");
	for (int i = 0; i < 200 && count_type(&x, "pong") == pongs; i++)
		netc_service(x.c, 5);
	ck_assert_int_gt(count_type(&x, "pong"), pongs);
	/* A client of another version is told and let go. */
	tc_hello(&v, &s, "Vera", "en", NULL, NULL);
	tc_free(&v);
	memset(&v, 0, sizeof v);
	tc_connect(&v, &s);
	tc_send(&v, "{\"type\":\"hello\",\"version\":2,\"name\":\"Vera\"}");
	ck_assert_str_eq(next_error(&v), "version");
	for (int i = 0; i < 200 && netc_connected(v.c); i++)
		netc_service(v.c, 5);
	ck_assert(!netc_connected(v.c));
	ck_assert(srv_alive(&s));
	tc_free(&x);
	tc_free(&v);
	srv_stop(&s);
}
END_TEST

/* 100 clients connect and vanish, some in the middle of a message; the
 * server forgets them and serves the next one. */
START_TEST(test_vanishing_clients)
{
	struct srv s;
	srv_start(&s);
	static struct tc many[100];
	for (int i = 0; i < 100; i++) {
		memset(&many[i], 0, sizeof many[i]);
		snprintf(many[i].name, sizeof many[i].name, "ghost%d", i);
		tc_connect(&many[i], &s);
		if (i % 2)
			tc_send(&many[i], "{\"type\":\"hello\",\"version\":1,\"name\":\"Ghost %d\"}", i);
		netc_service(many[i].c, 0);
	}
	for (int i = 0; i < 100; i++) {
		if (i % 3)
			netc_abandon(many[i].c);
		else
			netc_close(many[i].c);
		many[i].c = NULL;
		tc_free(&many[i]);
	}
	/* And a few raw sockets that send half a request. */
	for (int i = 0; i < 10; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)s.port) };
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
		const char half[] = "GET / HTTP/1.1\r\nUpgrade: websocket\r\nConn";
		ck_assert_int_eq(write(fd, half, i % 2 ? sizeof half - 1 : 0), i % 2 ? (int)sizeof half - 1 : 0);
		close(fd);
	}
	usleep(200 * 1000);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	/* The lobby counts Anne alone among those online. */
	json_t *lobby = NULL;
	for (int tries = 0; tries < 100; tries++) {
		netc_service(a.c, 10);
		json_decref(lobby);
		lobby = tc_lobby(&a);
		if (lobby && json_array_size(json_object_get(lobby, "users")) == 1)
			break;
	}
	ck_assert_int_eq(json_array_size(json_object_get(lobby, "users")), 1);
	json_decref(lobby);
	ck_assert(srv_alive(&s));
	/* A vanished guest's name is free again. */
	static struct tc g;
	tc_login(&g, &s, "Ghost 1", "en", NULL);
	tc_free(&g);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* Chat at a table and in the lobby, each line with its cue. */
START_TEST(test_chat)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_send(&a, "{\"type\":\"chat\",\"text\":\"Bonjour à tous\"}");
	json_t *c = tc_wait(&b, "chat");
	ck_assert_str_eq(json_string_value(json_object_get(c, "text")), "Bonjour à tous");
	ck_assert_str_eq(json_string_value(json_object_get(c, "from")), "Anne");
	ck_assert_str_eq(json_string_value(json_object_get(c, "cue")), "chat");
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	tc_send(&b, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"me?\"}", id);
	ck_assert_str_eq(next_error(&b), "not_member");
	tc_sit(&b, id, 1);
	tc_send(&b, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"à vous\"}", id);
	for (;;) {
		c = tc_wait(&a, "chat");
		if (json_integer_value(json_object_get(c, "table")) == id)
			break;
	}
	ck_assert_str_eq(json_string_value(json_object_get(c, "text")), "à vous");
	/* The creator opens a bot's seat and gives it back to a bot; nobody
	 * else may. */
	tc_send(&b, "{\"type\":\"seat\",\"table\":%ld,\"seat\":3,\"kind\":\"open\"}", id);
	ck_assert_str_eq(next_error(&b), "not_creator");
	tc_send(&a, "{\"type\":\"seat\",\"table\":%ld,\"seat\":3,\"kind\":\"open\"}", id);
	tc_send(&a, "{\"type\":\"seat\",\"table\":%ld,\"seat\":1,\"kind\":\"bot\"}", id);
	ck_assert_str_eq(next_error(&a), "seat"); /* Bruno holds it */
	/* At the table, the creator is told the table's own entry ("table"). */
	json_t *entry;
	do {
		entry = tc_wait(&a, "table");
	} while (strcmp(json_string_value(json_object_get(json_array_get(json_object_get(
	                    json_object_get(entry, "info"), "seats"), 3), "state")), "open") != 0);
	tc_send(&a, "{\"type\":\"seat\",\"table\":%ld,\"seat\":3,\"kind\":\"bot:3\"}", id);
	do {
		entry = tc_wait(&a, "table");
	} while (json_integer_value(json_object_get(json_array_get(json_object_get(
	                 json_object_get(entry, "info"), "seats"), 3), "level")) != 3);
	/* A bot's seat names the bot as the table's sentences do; a person's
	 * seat names no bot. */
	json_t *seats = json_object_get(json_object_get(entry, "info"), "seats");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 3), "bot")), "Denis");
	ck_assert_ptr_null(json_object_get(json_array_get(seats, 1), "bot"));
	/* The creator removes a player; the player is told. */
	tc_send(&a, "{\"type\":\"kick\",\"table\":%ld,\"seat\":1}", id);
	json_t *l = tc_wait(&b, "left");
	ck_assert_str_eq(json_string_value(json_object_get(l, "reason")), "removed");
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST


static const char *error_text(struct tc *t, const char *code);

/* A name that imitates another person's, the server's or a bot's, or that
 * hides characters, is refused at hello with its reason in the player's
 * language; chat loses controls, bidi overrides and invisible characters. */
START_TEST(test_names_and_chat)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, x, z;
	tc_login(&a, &s, "Anne", "en", NULL);
	/* A Cyrillic А: the same look as Anne, two scripts. */
	tc_hello(&x, &s, "\\u0410nne", "en", NULL, NULL);
	ck_assert_ptr_nonnull(strstr(error_text(&x, "bad_message"), "one script"));
	/* Another case of a name here: the same person to the ear. */
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"ANNE\"}");
	ck_assert_ptr_nonnull(strstr(error_text(&x, "name_alike"), "Anne"));
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"A-nne\",\"password\":\"pass word\"}");
	ck_assert_str_eq(next_error(&x), "name_alike");
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"SYSTEM\"}");
	ck_assert_ptr_nonnull(strstr(error_text(&x, "bad_message"), "kept for the server"));
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Claire bot\"}");
	ck_assert_str_eq(next_error(&x), "bad_message");
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Ann\\u202ee\"}");
	ck_assert_str_eq(next_error(&x), "bad_message");
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Bea\\u200d\"}");
	ck_assert_str_eq(next_error(&x), "bad_message");
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Serveur\",\"lang\":\"fr\"}");
	ck_assert_ptr_nonnull(strstr(error_text(&x, "bad_message"), "réservé"));
	tc_free(&x);
	/* Good names of other languages, trimmed. */
	tc_hello(&z, &s, " Zo\u00eb ", "fr", NULL, NULL);
	json_t *w = tc_wait(&z, "welcome");
	ck_assert_str_eq(json_string_value(json_object_get(w, "name")), "Zo\u00eb");
	/* Chat: what a terminal would obey is gone, the words stay. */
	tc_send(&a, "{\"type\":\"chat\",\"text\":\"\\u001b]0;pwn\\u0007\\u202eok\\u2066 a\\u200bb\\u2028c \\u2764\\ufe0f\"}");
	json_t *c = tc_wait(&z, "chat");
	ck_assert_str_eq(json_string_value(json_object_get(c, "text")), "]0;pwnok ab c \u2764\ufe0f");
	tc_send(&a, "{\"type\":\"chat\",\"text\":\"\\u200b\\u202e\\u0085\"}");
	ck_assert_str_eq(next_error(&a), "bad_message");
	tc_free(&a);
	tc_free(&z);
	srv_stop(&s);
}
END_TEST

/* The HTTP side: without --web, a page saying how to join. */
START_TEST(test_http_page)
{
	struct srv s;
	srv_start(&s);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)s.port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	const char req[] = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
	ck_assert_int_eq(write(fd, req, sizeof req - 1), (int)sizeof req - 1);
	char buf[4096];
	size_t got = 0;
	ssize_t n;
	while (got < sizeof buf - 1 && (n = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
	ck_assert_ptr_nonnull(strstr(buf, "200 OK"));
	ck_assert_ptr_nonnull(strstr(buf, "tapis join ws://"));
	/* What the browser may load and run: this server's own files only. */
	ck_assert_ptr_nonnull(strcasestr(buf, "\r\ncontent-security-policy: default-src 'self';"));
	ck_assert_ptr_nonnull(strcasestr(buf, "\r\nx-content-type-options: nosniff\r\n"));
	ck_assert_ptr_null(strcasestr(buf, "strict-transport-security")); /* not over plain HTTP */
	srv_stop(&s);
}
END_TEST

/* `tapis serve` itself: its options, and a clean stop on SIGINT. */
static int run_serve(const char *const *args, int sig)
{
	const char *bin = getenv("TAPIS_BIN");
	pid_t pid = fork();
	if (pid == 0) {
		const char *argv[16] = { bin, "serve" };
		for (int i = 0; args[i] && i < 13; i++)
			argv[i + 2] = args[i];
		if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	if (sig) {
		/* Started: its store is there (the signals are caught before). */
		const char *db = NULL;
		for (int i = 0; args[i]; i++)
			if (!strcmp(args[i], "--db") && args[i + 1])
				db = args[i + 1];
		for (int i = 0; i < 200 && db && access(db, F_OK) != 0; i++)
			usleep(25 * 1000);
		usleep(100 * 1000);
		kill(pid, sig);
	}
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(test_serve_command)
{
	if (!getenv("TAPIS_BIN"))
		return; /* run from make check, which names the program */
	const char *bad_port[] = { "--port", "99999", NULL };
	ck_assert_int_eq(run_serve(bad_port, 0), 2);
	const char *half_tls[] = { "--cert", "x.pem", NULL };
	ck_assert_int_eq(run_serve(half_tls, 0), 2);
	const char *unknown[] = { "--colour", "red", NULL };
	ck_assert_int_eq(run_serve(unknown, 0), 2);
	const char *bad_turn[] = { "--turn-seconds", "soon", NULL };
	ck_assert_int_eq(run_serve(bad_turn, 0), 2);
	const char *bad_cap[] = { "--max-conns", "-3", NULL };
	ck_assert_int_eq(run_serve(bad_cap, 0), 2);
	const char *help[] = { "--help", NULL };
	ck_assert_int_eq(run_serve(help, 0), 0);
	char dir[] = "/tmp/tapis-serve-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char db[64];
	snprintf(db, sizeof db, "%s/s.db", dir);
	const char *ok[] = { "--port", "0", "--db", db, "--log-dir", dir, "--turn-seconds", "60", "--max-conns", "50",
		              "--max-per-addr", "5", NULL };
	ck_assert_int_eq(run_serve(ok, SIGINT), 0);
	ck_assert_int_eq(access(db, F_OK), 0);
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST


/* TLS: with --cert and --key the server speaks wss://; a client that
 * trusts the certificate logs in and plays. */
START_TEST(test_tls)
{
	struct srv s;
	srv_make(&s);
	snprintf(s.cert, sizeof s.cert, "%s/cert.pem", s.dir);
	snprintf(s.key, sizeof s.key, "%s/key.pem", s.dir);
	char cmd[512];
	snprintf(cmd, sizeof cmd,
	         "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
	         "-addext subjectAltName=DNS:localhost -keyout %s -out %s >/dev/null 2>&1", s.key, s.cert);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", s.dir);
		ck_assert_int_eq(system(cmd), 0);
		return; /* no openssl command here: nothing to sign a certificate with */
	}
	srv_run(&s);
	ck_assert(strncmp(s.url, "wss://", 6) == 0);
	static struct tc a;
	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "Anne");
	snprintf(a.lang, sizeof a.lang, "en");
	a.seat = -1;
	a.acted_seq = -1;
	char err[256];
	/* Not trusted: refused. */
	struct netc *bad = netc_open(s.url, on_msg, &a, err, sizeof err);
	ck_assert_ptr_null(bad);
	a.c = netc_open_ca(s.url, s.cert, on_msg, &a, err, sizeof err);
	ck_assert_msg(a.c != NULL, "%s", err);
	tc_send(&a, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"password\":\"over tls\"}");
	tc_wait(&a, "welcome");
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a };
	play_until(all, 1, NULL, NULL);
	replay_log(&s, id);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* The index of the first sentence t heard holding part, or -1. */
static int heard_at(const struct tc *t, const char *part)
{
	for (int i = 0; i < t->n; i++) {
		const char *x = json_string_value(json_object_get(t->msg[i], "text"));
		if (!strcmp(mtype(t->msg[i]), "say") && x && strstr(x, part))
			return i;
	}
	return -1;
}

/* Players who are here but do not act: each is warned in their language,
 * then a bot plays that one move; the seats stay theirs and they play the
 * game to its end. */
START_TEST(test_turn_timer)
{
	struct srv s;
	srv_make(&s);
	s.turn_ms = 900;
	srv_run(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	/* Nobody acts: the timer plays for both, in turn. */
	for (int i = 0; i < 3000 && (heard_at(&a, "Bruno ran out of time") < 0 || heard_at(&a, "Your time is up") < 0 ||
	                             heard_at(&b, "Anne n'a plus") < 0 || heard_at(&b, "Votre temps est") < 0);
	     i++) {
		netc_service(a.c, 1);
		netc_service(b.c, 1);
	}
	int warned = heard_at(&a, "Hurry, 1 second left."), out = heard_at(&a, "Your time is up: a bot plays this move.");
	ck_assert_int_ge(warned, 0);
	ck_assert_int_gt(out, warned);
	ck_assert(json_is_true(json_object_get(a.msg[warned], "urgent")));
	ck_assert_int_ge(heard_at(&b, "Vite, encore 1 seconde."), 0);
	/* Each hears their own as theirs, in their language. */
	ck_assert_int_ge(heard_at(&b, "Votre temps est écoulé : un robot joue ce coup."), 0);
	ck_assert_int_lt(heard_at(&a, "Anne ran out"), 0);
	/* Only the player whose turn it is hears the warning. */
	for (int i = 0; i < a.n; i++) {
		const char *x = json_string_value(json_object_get(a.msg[i], "text"));
		if (x && !strncmp(x, "Hurry", 5))
			ck_assert_int_eq(json_integer_value(json_object_get(a.msg[i], "from")), 0);
	}
	ck_assert_int_ge(heard_at(&a, "Bruno ran out of time"), 0);
	ck_assert_int_eq(a.refused + b.refused, 0);
	/* The seats are still theirs: they play on to the end. */
	struct tc *all[] = { &a, &b };
	play_until(all, 2, NULL, NULL);
	replay_log(&s, id);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* The choice of a state whose action begins with word, or NULL. */
static json_t *choice_of(json_t *state, const char *word)
{
	json_t *ch = json_object_get(state, "choices");
	for (size_t i = 0; i < json_array_size(ch); i++) {
		const char *a = json_string_value(json_object_get(json_array_get(ch, i), "action"));
		if (a && !strncmp(a, word, strlen(word)) && (!a[strlen(word)] || a[strlen(word)] == ' '))
			return json_array_get(ch, i);
	}
	return NULL;
}

/* What a state's choices say of asking for a yes: all-in always; a range
 * of bets from the least amount above half the chips (the top of the
 * range, all of them); fold only with chips put in; nothing else. */
static void check_confirms(json_t *state, int chips_in)
{
	json_t *ch = json_object_get(state, "choices");
	for (size_t i = 0; i < json_array_size(ch); i++) {
		json_t *c = json_array_get(ch, i);
		const char *a = json_string_value(json_object_get(c, "action"));
		int always = json_is_true(json_object_get(c, "confirm"));
		json_t *from = json_object_get(c, "confirm_from");
		if (!strncmp(a, "allin", 5)) {
			ck_assert_msg(always, "%s", a);
		} else if (!strcmp(a, "fold")) {
			ck_assert_msg(always == (chips_in > 0), "fold, chips in: %d", chips_in);
		} else if (json_object_get(c, "max") && (!strncmp(a, "open", 4) || !strncmp(a, "raise", 5))) {
			int lo = (int)json_integer_value(json_object_get(c, "min"));
			int hi = (int)json_integer_value(json_object_get(c, "max"));
			int want = hi / 2 + 1 > lo ? hi / 2 + 1 : lo;
			ck_assert_msg(!always, "%s", a);
			ck_assert_msg(json_integer_value(from) == want, "%s to %d: confirm_from %lld", a, hi,
			              (long long)json_integer_value(from));
		} else {
			ck_assert_msg(!always && !from, "%s asks", a);
		}
	}
}

/* The state's menu (app/menuorder, as the terminal's): every choice once,
 * the safest first, a fold last; `showdowns` for a game of showdowns;
 * what F1 and the query keys say (app/keymap): L the last showdown, the
 * page's keys only, the menu's keys with choices. */
static void check_menu(json_t *state)
{
	json_t *ch = json_object_get(state, "choices"), *menu = json_object_get(state, "menu");
	size_t n = json_array_size(ch);
	ck_assert_int_eq(json_array_size(menu), n);
	ck_assert(json_is_true(json_object_get(state, "showdowns")));
	json_t *f1 = json_object_get(state, "f1");
	const char *brief = json_string_value(json_object_get(f1, "brief"));
	const char *all = json_string_value(json_object_get(f1, "all"));
	const char *mk = json_string_value(json_object_get(f1, "menu"));
	const char *amount = json_string_value(json_object_get(f1, "amount"));
	ck_assert_msg(brief && strstr(brief, "F1 again for all keys.") && strstr(brief, "Enter: open the action menu"),
	              "%s", brief ? brief : "no f1.brief");
	ck_assert_msg(all && strstr(all, "L: the last showdown") && !strstr(all, "last trick") && !strstr(all, "F2") &&
	              strstr(all, "Q: leave the table") && strstr(all, "question mark"), "%s", all ? all : "no f1.all");
	ck_assert_msg(mk && strstr(mk, "Escape: close the menu") && !strstr(mk, "one chip"), "%s", mk ? mk : "no f1.menu");
	ck_assert_msg(amount && strstr(amount, "change the amount by one chip"), "%s", amount ? amount : "no f1.amount");
	json_t *q = json_object_get(state, "queries");
	char keys[16] = "";
	for (size_t i = 0; i < json_array_size(q) && i + 2 < sizeof keys; i++) {
		const char *k = json_string_value(json_object_get(json_array_get(q, i), "key"));
		ck_assert(k && strlen(k) <= 2);
		if (strcmp(k, "F1") != 0)
			strcat(keys, k);
		if (!strcmp(k, "L"))
			ck_assert_str_eq(json_string_value(json_object_get(json_array_get(q, i), "what")),
			                 "the last showdown: the hands shown, folded ones too");
	}
	ck_assert_str_eq(keys, "CFRSTLNH?");
	int seen[64] = { 0 };
	const char *first = NULL, *last = NULL;
	for (size_t i = 0; i < n; i++) {
		json_int_t k = json_integer_value(json_array_get(menu, i));
		ck_assert(k >= 0 && (size_t)k < n && k < 64 && !seen[k]);
		seen[k] = 1;
		const char *a = json_string_value(json_object_get(json_array_get(ch, (size_t)k), "action"));
		if (!i)
			first = a;
		last = a;
	}
	if (choice_of(state, "fold"))
		ck_assert_str_eq(last, "fold");
	if (choice_of(state, "call"))
		ck_assert_msg(!strncmp(first, "call", 4), "first: %s", first);
	else if (choice_of(state, "pass"))
		ck_assert_str_eq(first, "pass");
}

/* The state tells which choices ask for a yes, by the one rule of the
 * terminal; a player back at the table in the middle of a deal still has
 * the chips put in before, and folding still asks. */
START_TEST(test_confirm_fields)
{
	struct srv s;
	srv_make(&s);
	s.grace_ms = 20000;
	srv_run(&s);
	static struct tc a, a2;
	tc_login(&a, &s, "Anne", "en", NULL);
	long id = tc_create(&a, "bouillotte", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]",
	                    ",\"rules\":{\"hands\":20},\"seed\":1");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	/* Put chips in (a straddle, a call, the least open) until a turn
	 * offers to fold with them in. */
	int chips_in = 0, seen = 0, acted = -1;
	json_t *fold = NULL;
	for (int i = 0; i < 20000 && !fold; i++) {
		netc_service(a.c, 1);
		ck_assert_int_eq(a.refused, 0);
		ck_assert_msg(!a.over, "no turn to fold with chips in");
		for (; seen < a.n; seen++)
			if (!strcmp(mtype(a.msg[seen]), "say")) {
				const char *x = json_string_value(json_object_get(a.msg[seen], "text"));
				if (x && !strncmp(x, "Deal ", 5))
					chips_in = 0;
			}
		json_t *st = a.state;
		int moves = st ? (int)json_integer_value(json_object_get(st, "moves")) : -1;
		if (!st || !json_is_true(json_object_get(st, "my_turn")) || moves == acted)
			continue;
		check_confirms(st, chips_in);
		check_menu(st);
		if (chips_in > 0 && choice_of(st, "fold")) {
			fold = choice_of(st, "fold");
			break;
		}
		const char *pick = NULL;
		json_t *c;
		if ((c = choice_of(st, "straddle")) || (c = choice_of(st, "call")) || (c = choice_of(st, "open")) ||
		    (c = choice_of(st, "pass")) || (c = choice_of(st, "decline")) || (c = choice_of(st, "take")))
			pick = json_string_value(json_object_get(c, "action"));
		ck_assert_ptr_nonnull(pick);
		if (!strncmp(pick, "straddle", 8) || !strncmp(pick, "call", 4) || !strncmp(pick, "open", 4))
			chips_in = 1;
		tc_send(&a, "{\"type\":\"action\",\"table\":%ld,\"action\":\"%s\"}", id, pick);
		acted = moves;
	}
	ck_assert_ptr_nonnull(fold);
	ck_assert(json_is_true(json_object_get(fold, "confirm")));
	/* Gone and back in the middle of the deal: the new view knows. */
	char token[40];
	snprintf(token, sizeof token, "%s", a.token);
	netc_abandon(a.c);
	a.c = NULL;
	tc_hello(&a2, &s, "Anne", "en", NULL, token);
	tc_wait(&a2, "welcome");
	tc_wait(&a2, "joined");
	a2.table = id;
	a2.seat = 0;
	json_t *st = tc_wait(&a2, "state");
	ck_assert(json_is_true(json_object_get(st, "my_turn")));
	check_confirms(st, chips_in);
	ck_assert(json_is_true(json_object_get(choice_of(st, "fold"), "confirm")));
	tc_free(&a);
	tc_free(&a2);
	srv_stop(&s);
}
END_TEST

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Service the clients for ms milliseconds. */
static void service_for(struct tc **t, int n, int ms)
{
	for (long long end = mono_ms() + ms; mono_ms() < end;)
		for (int i = 0; i < n; i++)
			netc_service(t[i]->c, 2);
}

/* Many changes in a row (people logging in one after another): the lobby's
 * changes go at most every LOBBY_LIST_MS, each holding every change since;
 * the members of a waiting table hear its entry only when it changed. */
START_TEST(test_lobby_coalesced)
{
	struct srv s;
	srv_start(&s);
	static struct tc o, a, p[20];
	tc_login(&o, &s, "Olga", "en", NULL);
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	struct tc *both[] = { &o, &a };
	service_for(both, 2, 300);
	int lists = count_type(&o, "lobby") + count_type(&o, "lobby_delta"), entries = count_type(&a, "table");
	long long t0 = mono_ms();
	for (int i = 0; i < 20; i++) {
		char name[24];
		snprintf(name, sizeof name, "Guest%d", i);
		tc_hello(&p[i], &s, name, "en", NULL, NULL);
		service_for(both, 2, 10);
	}
	long long elapsed = mono_ms() - t0;
	service_for(both, 2, 3 * LOBBY_LIST_MS);
	lists = count_type(&o, "lobby") + count_type(&o, "lobby_delta") - lists;
	ck_assert_int_ge(lists, 1);
	ck_assert_msg(lists <= elapsed / LOBBY_LIST_MS + 2, "%d lists in %lld ms", lists, elapsed);
	json_t *last = tc_lobby(&o);
	ck_assert_int_eq(json_array_size(json_object_get(last, "users")), 22);
	ck_assert_int_eq(json_array_size(json_object_get(last, "tables")), 1);
	json_decref(last);
	/* Anne's table did not change: she heard nothing of it. */
	ck_assert_int_eq(count_type(&a, "table"), entries);
	for (int i = 0; i < 20; i++)
		tc_free(&p[i]);
	tc_free(&o);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* The size of a list ("tables", "users") in the lobby as t holds it,
 * after servicing it until that size is want (or 6 s). */
static int lobby_size(struct tc *t, const char *list, int want)
{
	int n = -1;
	for (int tries = 0; tries < 1200; tries++) {
		netc_service(t->c, 5);
		json_t *l = tc_lobby(t);
		n = l ? (int)json_array_size(json_object_get(l, list)) : -1;
		json_decref(l);
		if (n == want)
			break;
	}
	return n;
}

/* The last message of a type t got, NULL none. */
static json_t *last_of(const struct tc *t, const char *type)
{
	for (int i = t->n - 1; i >= 0; i--)
		if (!strcmp(mtype(t->msg[i]), type))
			return t->msg[i];
	return NULL;
}

/* Back with the token after a lost connection or a restart: joined at the
 * same seat, then (after what was missed, if anything) the state. */
static void tc_back(struct tc *t, struct srv *s, const struct tc *before, long table)
{
	tc_hello(t, s, before->name, before->lang, NULL, before->token);
	tc_wait(t, "welcome");
	json_t *j = tc_wait(t, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), table);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), before->seat);
	t->table = table;
	t->seat = before->seat;
	tc_wait(t, "state");
	tc_catch_up(t);
}

/* 1 when t heard who deals, in lang ("en", "fr"). */
static int heard_deal(const struct tc *t, const char *lang)
{
	if (!strcmp(lang, "fr"))
		return heard(t, " donne.") || heard(t, "Vous donnez.");
	return heard(t, " deals.") || heard(t, "You deal.");
}

/* Playing together, from end to end: four people meet in the lobby (two in
 * English, two in French) and chat there; one makes a game with options,
 * the others sit, they chat at the table and play; one loses the
 * connection and comes back; the server is killed in the middle and
 * started again, everyone comes back and the game goes to its end. No
 * message of any of them told a card its seat had not seen. */
START_TEST(test_play_together)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, c, d, c2, a2, b2, c3, d2;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	tc_login(&d, &s, "Denis", "fr", NULL);
	ck_assert_int_eq(lobby_size(&a, "users", 4), 4);
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"On joue ?\"}");
	struct tc *lobby[] = { &a, &c, &d };
	for (int i = 0; i < 3; i++) {
		json_t *m = tc_wait(lobby[i], "chat");
		ck_assert_str_eq(json_string_value(json_object_get(m, "from")), "Bruno");
		ck_assert_str_eq(json_string_value(json_object_get(m, "text")), "On joue ?");
	}
	long id = tc_create(&a, "bouillotte", 4, "[\"open\",\"open\",\"open\",\"open\"]",
	                    ",\"rules\":{\"hands\":4,\"cave\":50}");
	a.seat = 0;
	/* Denis, still in the lobby, sees the table and its options. */
	ck_assert_int_eq(lobby_size(&d, "tables", 1), 1);
	json_t *dl = tc_lobby(&d);
	json_t *entry = json_array_get(json_object_get(dl, "tables"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(entry, "game")), "bouillotte");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(entry, "rules"), "cave")), "50");
	json_decref(dl);
	tc_sit(&b, id, 1);
	tc_sit(&c, id, 2);
	tc_sit(&d, id, 3);
	tc_send(&d, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"Bonne chance\"}", id);
	struct tc *others[] = { &a, &b, &c };
	for (int i = 0; i < 3; i++) {
		json_t *m;
		do
			m = tc_wait(others[i], "chat");
		while (json_integer_value(json_object_get(m, "table")) != id);
		ck_assert_str_eq(json_string_value(json_object_get(m, "text")), "Bonne chance");
	}
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *four[] = { &a, &b, &c, &d };
	int states = 4;
	play_until(four, 4, stop_after_states, &states);
	/* Carla's connection drops; the others play on, and she comes back. */
	netc_abandon(c.c);
	c.c = NULL;
	struct tc *three[] = { &a, &b, &d };
	states = count_type(&a, "state") + 3;
	play_until(three, 3, stop_after_states, &states);
	tc_back(&c2, &s, &c, id);
	json_t *missed = last_of(&c2, "missed");
	ck_assert_ptr_nonnull(missed);
	ck_assert_int_gt(json_array_size(json_object_get(missed, "says")), 0);
	struct tc *again[] = { &a, &b, &c2, &d };
	states = count_type(&a, "state") + 3;
	play_until(again, 4, stop_after_states, &states);
	ck_assert_msg(!a.over, "the game ended before the restart");
	/* The server dies in the middle of the game and starts again. */
	ck_assert_int_eq(kill(s.pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(s.pid, NULL, 0), s.pid);
	struct tc *gone[] = { &a, &b, &c2, &d };
	for (int i = 0; i < 4; i++) {
		netc_abandon(gone[i]->c);
		gone[i]->c = NULL;
	}
	srv_run(&s);
	tc_back(&a2, &s, &a, id);
	tc_back(&b2, &s, &b, id);
	tc_back(&c3, &s, &c2, id);
	tc_back(&d2, &s, &d, id);
	struct tc *after[] = { &a2, &b2, &c3, &d2 };
	int moves = (int)json_integer_value(json_object_get(a2.state, "moves"));
	play_until(after, 4, NULL, NULL);
	ck_assert_int_gt(json_integer_value(json_object_get(a2.state, "moves")), moves);
	/* Each heard the game in their language: who deals, at every deal. */
	struct tc *en[] = { &a, &c, &a2, &c3 }, *fr[] = { &b, &d, &b2, &d2 };
	for (int i = 0; i < 2; i++) {
		ck_assert(heard_deal(en[i], "en") || heard_deal(en[i + 2], "en"));
		ck_assert(heard_deal(fr[i], "fr") || heard_deal(fr[i + 2], "fr"));
		ck_assert(!heard_deal(en[i], "fr") && !heard_deal(fr[i], "en"));
	}
	replay_log(&s, id);
	struct tc *every[] = { &a, &b, &c, &d, &c2, &a2, &b2, &c3, &d2 };
	check_no_leak(&s, id, every, 9);
	for (int i = 0; i < 9; i++)
		tc_free(every[i]);
	srv_stop(&s);
}
END_TEST

/* Tables go: a waiting one when everybody left it, a finished one a while
 * after its end (players coming back in between still hear the end); they
 * are gone from the store too, their hand histories stay. */
/* A waiting table whose people all left goes soon (not after the ten
 * minutes a finished one stays): a crowd's tables, made and deserted, do
 * not pile up. One that someone is still at stays. */
START_TEST(test_deserted_table)
{
	struct srv s;
	srv_make(&s);
	s.deserted_ms = 600;
	srv_run(&s);
	static struct tc a, b, o;
	tc_login(&o, &s, "Olga", "en", NULL);
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_create(&a, "brelan", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", NULL);
	long kept = tc_create(&b, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	ck_assert_int_eq(lobby_size(&o, "tables", 2), 2);
	netc_abandon(a.c);
	a.c = NULL;
	ck_assert_int_eq(lobby_size(&o, "tables", 1), 1);
	json_t *l = tc_lobby(&o);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(json_object_get(l, "tables"), 0), "id")), kept);
	json_decref(l);
	tc_free(&a);
	tc_free(&b);
	tc_free(&o);
	srv_stop(&s);
}
END_TEST

/* A table saved because nobody was left at it, resumed by two of its
 * players at once: the first takes it up again, the second is back at
 * their seat too (not told there is no such table). */
START_TEST(test_resume_together)
{
	struct srv s;
	srv_make(&s);
	s.close_ms = 300;
	s.grace_ms = 30000; /* their seats wait: no bot ends the game meanwhile */
	srv_run(&s);
	static struct tc a, b, o, a2, b2;
	tc_login(&o, &s, "Olga", "en", NULL);
	tc_login(&a, &s, "Anne", "en", "pw-anne");
	tc_login(&b, &s, "Bruno", "fr", "pw-bruno");
	long id = two_open(&a, &b, "bouillotte", 4, "\"hands\":3");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *both[] = { &a, &b };
	int states = 3;
	play_until(both, 2, stop_after_states, &states);
	netc_abandon(a.c);
	a.c = NULL;
	netc_abandon(b.c);
	b.c = NULL;
	/* Saved and closed (its row in the store says so). */
	int saved = 0;
	for (int tries = 0; tries < 100 && !saved; tries++) {
		netc_service(o.c, 50);
		struct store st;
		char err[256];
		ck_assert_int_eq(store_open(&st, "sqlite", s.db, err, sizeof err), 0);
		struct seen row = { 0 };
		store_table_each(&st, on_table, &row);
		store_close(&st);
		saved = row.tables == 1 && row.t.state == HOST_SAVED;
	}
	ck_assert_msg(saved, "the table was not saved");
	tc_login(&a2, &s, "Anne", "en", "pw-anne");
	tc_login(&b2, &s, "Bruno", "fr", "pw-bruno");
	tc_wait(&a2, "saved");
	tc_wait(&b2, "saved");
	tc_send(&a2, "{\"type\":\"resume\",\"table\":%ld}", id);
	tc_send(&b2, "{\"type\":\"resume\",\"table\":%ld}", id);
	json_t *ja = tc_wait(&a2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(ja, "table")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(ja, "seat")), 0);
	for (int i = b2.cursor; i < b2.n; i++)
		ck_assert_msg(strcmp(mtype(b2.msg[i]), "error"), "Bruno was refused: %s",
		              json_string_value(json_object_get(b2.msg[i], "message")));
	json_t *jb = tc_wait(&b2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(jb, "table")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(jb, "seat")), 1);
	tc_send(&b2, "{\"type\":\"ping\"}");
	tc_wait(&b2, "pong");
	for (int i = 0; i < b2.n; i++)
		ck_assert_msg(strcmp(mtype(b2.msg[i]), "error"), "Bruno was refused: %s",
		              json_string_value(json_object_get(b2.msg[i], "message")));
	tc_free(&a);
	tc_free(&b);
	tc_free(&o);
	tc_free(&a2);
	tc_free(&b2);
	srv_stop(&s);
}
END_TEST

START_TEST(test_tables_removed)
{
	struct srv s;
	srv_make(&s);
	s.keep_ms = 4000;
	s.grace_ms = 200;
	srv_run(&s);
	static struct tc a, b, b2, o;
	tc_login(&a, &s, "Anne", "en", NULL);
	/* Olga stays in the lobby: the list of tables goes to those at no table. */
	tc_login(&o, &s, "Olga", "en", NULL);
	long waiting = tc_create(&a, "brelan", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", NULL);
	ck_assert_int_eq(lobby_size(&o, "tables", 1), 1);
	tc_send(&a, "{\"type\":\"leave\",\"table\":%ld}", waiting);
	tc_wait(&a, "left");
	ck_assert_int_eq(lobby_size(&o, "tables", 0), 0);
	/* A game played to its end; Bruno drops before it and comes back late. */
	tc_login(&b, &s, "Bruno", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *both[] = { &a, &b };
	int states = 4;
	play_until(both, 2, stop_after_states, &states);
	char token[40];
	snprintf(token, sizeof token, "%s", b.token);
	netc_abandon(b.c);
	b.c = NULL;
	struct tc *anne[] = { &a };
	play_until(anne, 1, NULL, NULL);
	ck_assert_int_eq(lobby_size(&o, "tables", 1), 1);
	tc_hello(&b2, &s, "Bruno", "en", NULL, token);
	json_t *j = tc_wait(&b2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), id);
	tc_wait(&b2, "missed");
	b2.table = id;
	json_t *st = tc_wait(&b2, "state");
	ck_assert_str_eq(json_string_value(json_object_get(st, "state")), "over");
	/* Then the table goes, and its members hear so. */
	ck_assert_int_eq(lobby_size(&o, "tables", 0), 0);
	json_t *left = tc_wait(&b2, "left");
	ck_assert_str_eq(json_string_value(json_object_get(left, "reason")), "closed");
	char log[200];
	history_path(s.logs, id, log, sizeof log);
	ck_assert(access(log, R_OK) == 0);
	tc_free(&a);
	tc_free(&b);
	tc_free(&b2);
	tc_free(&o);
	/* Not in the store: a restarted server has no table. */
	srv_halt(&s);
	srv_run(&s);
	tc_login(&a, &s, "Anne", "en", NULL);
	ck_assert_int_eq(lobby_size(&a, "tables", 0), 0);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* After a restart a guest's seat goes back to the holder of its token
 * alone: not to someone else choosing the name, nor to a wrong token. The
 * store keeps the token's hash, never the token. */
START_TEST(test_guest_token_restart)
{
	struct srv s;
	srv_start(&s);
	static struct tc g, x, g2;
	tc_login(&g, &s, "Gina", "en", NULL);
	long id = tc_create(&g, "bourre", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":2}");
	g.seat = 0;
	tc_send(&g, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &g };
	int states = 3;
	play_until(all, 1, stop_after_states, &states);
	char token[40];
	snprintf(token, sizeof token, "%s", g.token);
	ck_assert_int_eq((int)strlen(token), PROTO_TOKEN_LEN);
	tc_free(&g);
	srv_halt(&s);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", s.db);
	ck_assert(!file_holds(s.db, token) && !file_holds(wal, token));
	srv_run(&s);
	tc_hello(&x, &s, "Gina", "en", NULL, NULL);
	ck_assert_str_eq(next_error(&x), "name_in_use");
	tc_free(&x);
	tc_hello(&x, &s, "Gina", "en", NULL, "0123456789abcdef0123456789abcdef");
	ck_assert_str_eq(next_error(&x), "name_in_use");
	tc_free(&x);
	tc_hello(&g2, &s, "Gina", "en", NULL, token);
	json_t *w = tc_wait(&g2, "welcome");
	ck_assert_str_eq(json_string_value(json_object_get(w, "token")), token);
	json_t *j = tc_wait(&g2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 0);
	tc_free(&g2);
	/* A session past its expiry brings nothing back, not even with its
	 * token. */
	srv_halt(&s);
	struct store st;
	char err[256], hash[AUTH_TOKEN_HASH_MAX];
	ck_assert_int_eq(store_open(&st, "sqlite", s.db, err, sizeof err), 0);
	auth_token_hash(token, hash);
	ck_assert_int_eq(store_session_put(&st, "Gina", hash, (long long)time(NULL) - 1), 0);
	store_close(&st);
	srv_run(&s);
	tc_hello(&g2, &s, "Gina", "en", NULL, token);
	ck_assert_str_eq(next_error(&g2), "name_in_use");
	tc_free(&g2);
	srv_stop(&s);
}
END_TEST

/* Anne plays Bourré with three bots, Wendy (in French) watches; a few
 * moves are played. Returns the table. */
static long watched_game(struct srv *s, struct tc *a, struct tc *w)
{
	tc_login(a, s, "Anne", "en", NULL);
	tc_login(w, s, "Wendy", "fr", NULL);
	/* Six deals: long enough for the states the tests wait for after
	 * this even when every deal is a lone stayer's (four moves). */
	long id = tc_create(a, "bourre", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":6}");
	a->seat = 0;
	w->table = id;
	tc_send(w, "{\"type\":\"watch\",\"table\":%ld}", id);
	ck_assert_int_eq(json_integer_value(json_object_get(tc_wait(w, "joined"), "seat")), -1);
	tc_send(a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { a, w };
	int states = 3;
	play_until(all, 2, stop_after_states, &states);
	return id;
}

/* A spectator away from table id comes back as name, in French, with the
 * token of their session: nobody else may take the name meanwhile; the
 * table takes them back as a spectator, with what they missed (returned)
 * and its state, which shows no hand. */
static json_t *watcher_back(struct tc *w2, struct srv *s, const char *name, const char *token, long id)
{
	static struct tc x;
	tc_hello(&x, s, name, "fr", NULL, NULL);
	ck_assert_str_eq(next_error(&x), "name_in_use");
	tc_free(&x);
	tc_hello(w2, s, name, "fr", NULL, token);
	tc_wait(w2, "welcome");
	json_t *j = tc_wait(w2, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), -1);
	w2->table = id;
	json_t *missed = tc_wait(w2, "missed");
	json_t *st = tc_wait(w2, "state");
	ck_assert_int_eq(json_integer_value(json_object_get(st, "seat")), -1);
	/* A spectator has no hand. */
	ck_assert_int_eq(json_array_size(json_object_get(st, "hand")), 0);
	return missed;
}

/* A spectator who drops keeps their place: nobody else may take the guest
 * name, and back with the token they hear a bounded summary of what they
 * missed, then the table's state. */
START_TEST(test_spectator_back)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, w, w2;
	long id = watched_game(&s, &a, &w);
	char token[40];
	snprintf(token, sizeof token, "%s", w.token);
	netc_abandon(w.c);
	w.c = NULL;
	struct tc *anne[] = { &a };
	int states = count_type(&a, "state") + 8;
	play_until(anne, 1, stop_after_states, &states);
	json_t *missed = watcher_back(&w2, &s, "Wendy", token, id);
	size_t n = json_array_size(json_object_get(missed, "says"));
	ck_assert_int_gt(n, 0);
	ck_assert_int_le(n, 30);
	tc_free(&a);
	tc_free(&w);
	tc_free(&w2);
	srv_stop(&s);
}
END_TEST

/* A spectator's place outlives the server (killed, not even stopped): back
 * with their token after the restart, they watch again, with what was said
 * meanwhile (in their language) and where the table is. */
START_TEST(test_spectator_restart)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, w, a2, w2;
	long id = watched_game(&s, &a, &w);
	char wtoken[40];
	snprintf(wtoken, sizeof wtoken, "%s", w.token);
	ck_assert_int_eq(kill(s.pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(s.pid, NULL, 0), s.pid);
	netc_abandon(a.c);
	a.c = NULL;
	netc_abandon(w.c);
	w.c = NULL;
	srv_run(&s);
	/* Anne first: Wendy, still away, misses her return. */
	tc_back(&a2, &s, &a, id);
	json_t *missed = watcher_back(&w2, &s, "Wendy", wtoken, id);
	char *text = json_dumps(json_object_get(missed, "says"), JSON_COMPACT);
	ck_assert_msg(strstr(text, "Anne est de retour") != NULL, "missed: %s", text);
	free(text);
	tc_catch_up(&w2);
	/* She watches the rest of the game; she is told no card she could not
	 * see. */
	struct tc *again[] = { &a2, &w2 };
	play_until(again, 2, NULL, NULL);
	ck_assert(count_type(&w2, "say") > 5);
	check_no_leak(&s, id, again, 2);
	tc_free(&a);
	tc_free(&w);
	tc_free(&a2);
	tc_free(&w2);
	srv_stop(&s);
}
END_TEST

/* all[0] asks for a hint at its turn: one say comes back, in its language
 * (a card game: "Play ..." / "Jouez ..."), and nothing is played. */
static void hint_at_turn(struct tc **all, int n, const char *starts)
{
	struct tc *t = all[0];
	int states = count_type(t, "state") + 1;
	play_until(all, n, stop_at_my_turn, &states);
	json_int_t moves = json_integer_value(json_object_get(t->state, "moves"));
	int says = count_type(t, "say"), nstates = count_type(t, "state");
	t->cursor = t->n;
	tc_send(t, "{\"type\":\"hint\",\"table\":%ld}", t->table);
	json_t *say = tc_wait(t, "say");
	const char *text = json_string_value(json_object_get(say, "text"));
	ck_assert_msg(text && !strncmp(text, starts, strlen(starts)), "%s: hint '%s'", t->name, text ? text : "");
	ck_assert_int_eq(json_integer_value(json_object_get(say, "moves")), moves);
	/* After a ping's answer: that one say, no other, and no move played. */
	tc_send(t, "{\"type\":\"ping\"}");
	tc_wait(t, "pong");
	ck_assert_int_eq(count_type(t, "say"), says + 1);
	ck_assert_int_eq(count_type(t, "state"), nstates);
	ck_assert_int_eq(count_type(t, "error"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(t->state, "moves")), moves);
}

/* The hint key at a network table: each seated player hears it, in their
 * language; a spectator is refused. */
START_TEST(test_hint)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, w;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_login(&w, &s, "Wendy", "fr", NULL);
	long id = tc_create(&a, "bouillabaisse", 3, "[\"open\",\"open\",\"bot:0\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	w.table = id;
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld}", id);
	tc_wait(&w, "joined");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *ab[] = { &a, &b, &w }, *ba[] = { &b, &a, &w };
	hint_at_turn(ab, 3, "Play ");
	hint_at_turn(ba, 3, "Jouez ");
	w.cursor = w.n;
	tc_send(&w, "{\"type\":\"hint\",\"table\":%ld}", id);
	json_t *e = tc_wait(&w, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "not_seated");
	ck_assert_str_eq(json_string_value(json_object_get(e, "re")), "hint");
	play_until(ab, 3, NULL, NULL);
	replay_log(&s, id);
	tc_free(&a);
	tc_free(&b);
	tc_free(&w);
	srv_stop(&s);
}
END_TEST

/* The message of the next error, checked to be of that code. */
static const char *error_text(struct tc *t, const char *code)
{
	json_t *e = tc_wait(t, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), code);
	return json_string_value(json_object_get(e, "message"));
}

/* Errors are phrased in the language of the connection's hello: a French
 * player reads French, an English one English, for the same refusal. */
START_TEST(test_errors_in_language)
{
	struct srv s;
	srv_start(&s);
	/* A language in the address: the errors before the hello speak it. */
	static struct tc a;
	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "a");
	char err[256], url[128];
	snprintf(url, sizeof url, "%s/?lang=fr", s.url);
	a.c = netc_open(url, on_msg, &a, err, sizeof err);
	ck_assert_msg(a.c != NULL, "%s", err);
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brelan\"}");
	ck_assert_str_eq(error_text(&a, "hello_first"), "commencez par hello");
	tc_send(&a, "{\"type\":");
	ck_assert_ptr_nonnull(strstr(error_text(&a, "bad_message"), "pas du JSON"));
	/* The hello's language takes over. */
	tc_send(&a, "{\"type\":\"hello\",\"version\":1,\"name\":\"Odile\",\"lang\":\"en\"}");
	tc_wait(&a, "welcome");
	tc_send(&a, "{\"type\":");
	ck_assert_ptr_nonnull(strstr(error_text(&a, "bad_message"), "not JSON"));
	tc_free(&a);
	static struct tc f, e, x;
	tc_login(&f, &s, "Fanny", "fr", "secret un");
	tc_login(&e, &s, "Eddie", "en", NULL);
	tc_send(&f, "{\"type\":\"sit\",\"table\":99}");
	ck_assert_str_eq(error_text(&f, "no_table"), "cette table n'existe pas");
	tc_send(&e, "{\"type\":\"sit\",\"table\":99}");
	ck_assert_str_eq(error_text(&e, "no_table"), "there is no such table");
	/* Read by the message parser, with what was wrong. */
	tc_send(&f, "{\"type\":\"create\",\"game\":\"whist\"}");
	ck_assert_str_eq(error_text(&f, "bad_message"), "aucun jeu ne s'appelle 'whist'");
	/* Made by the table. */
	long id = tc_create(&e, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	tc_send(&f, "{\"type\":\"sit\",\"table\":%ld,\"seat\":0}", id);
	ck_assert_str_eq(error_text(&f, "seat"), "la place 1 n'est pas libre");
	tc_send(&f, "{\"type\":\"start\",\"table\":%ld}", id);
	ck_assert_str_eq(error_text(&f, "not_creator"), "seul le créateur de la table peut le faire");
	tc_send(&f, "{\"type\":\"hint\",\"table\":%ld}", id);
	ck_assert_str_eq(error_text(&f, "not_playing"), "la partie n'est pas en cours");
	/* The server loop's own: too many messages at once. */
	for (int i = 0; i < WS_RATE_BURST + 20; i++)
		tc_send(&f, "{\"type\":\"ping\"}");
	ck_assert_str_eq(error_text(&f, "rate"), "trop de messages : ralentissez");
	usleep(500 * 1000);
	/* A refused hello is in the language it asked for; the connection
	 * replaced hears it in its own. */
	tc_hello(&x, &s, "Fanny", "fr", "secret deux", NULL);
	ck_assert_str_eq(error_text(&x, "password"), "mot de passe faux");
	tc_send(&x, "{\"type\":\"hello\",\"version\":1,\"name\":\"Fanny\",\"lang\":\"en\",\"password\":\"secret un\"}");
	tc_wait(&x, "welcome");
	json_t *r;
	while (!strcmp(json_string_value(json_object_get(r = tc_wait(&f, "error"), "code")), "rate"))
		continue; /* the rest of the burst */
	ck_assert_str_eq(json_string_value(json_object_get(r, "code")), "replaced");
	ck_assert_str_eq(json_string_value(json_object_get(r, "message")), "Vous vous êtes connecté ailleurs : cette session est fermée.");
	tc_free(&f);
	tc_free(&e);
	tc_free(&x);
	srv_stop(&s);
}
END_TEST

/* The same message from a French client f and an English one e, sent in
 * turn (f's first, then e's first): each refusal, of that code, is read
 * whole in the asker's own language, whatever the other asked just before. */
static void refused_each(struct tc *f, struct tc *e, const char *msg_f, const char *msg_e, const char *code,
                         const char *fr, const char *en)
{
	for (int round = 0; round < 2; round++) {
		if (round == 0) {
			tc_send(f, "%s", msg_f);
			tc_send(e, "%s", msg_e);
		} else {
			tc_send(e, "%s", msg_e);
			tc_send(f, "%s", msg_f);
		}
		ck_assert_str_eq(error_text(f, code), fr);
		ck_assert_str_eq(error_text(e, code), en);
	}
}

/* The same, the message of each made from fmt and a table's number
 * (%ld): f asks about table tf, e about te. */
static void refused_at(struct tc *f, struct tc *e, const char *fmt, long tf, long te, const char *code,
                       const char *fr, const char *en) __attribute__((format(printf, 3, 0)));
static void refused_at(struct tc *f, struct tc *e, const char *fmt, long tf, long te, const char *code,
                       const char *fr, const char *en)
{
	char mf[160], me[160];
	snprintf(mf, sizeof mf, fmt, tf);
	snprintf(me, sizeof me, fmt, te);
	refused_each(f, e, mf, me, code, fr, en);
}

/* The text of the next message of that type t got. */
static const char *text_of(struct tc *t, const char *type)
{
	return json_string_value(json_object_get(tc_wait(t, type), "text"));
}

/* A French and an English client at one server, their messages
 * interleaved: the server holds no language of its own while it handles
 * one, so each reads every refusal and notice in theirs (a bad name at
 * hello, a full table, a seat taken, a refused start, a seat set, a hint
 * and a move without a seat, a guest's figures, the leaderboard, an
 * invitation to nobody, a personal mute, a malformed message). */
START_TEST(test_errors_interleaved)
{
	struct srv s;
	srv_start(&s);
	static struct tc x, y, f, e, fg, eg;
	/* A name refused at hello, in the hello's language. */
	tc_connect(&x, &s);
	tc_connect(&y, &s);
	refused_each(&x, &y, "{\"type\":\"hello\",\"version\":1,\"name\":\"A\",\"lang\":\"fr\"}",
	             "{\"type\":\"hello\",\"version\":1,\"name\":\"A\",\"lang\":\"en\"}", "bad_message",
	             "un nom a de 2 à 24 caractères", "a name has 2 to 24 characters");
	refused_each(&x, &y, "{\"type\":\"hello\",\"version\":1,\"name\":\"Serveur\",\"lang\":\"fr\"}",
	             "{\"type\":\"hello\",\"version\":1,\"name\":\"Serveur\",\"lang\":\"en\"}", "bad_message",
	             "ce nom est réservé au serveur et à ses robots", "that name is kept for the server and its bots");
	tc_free(&x);
	tc_free(&y);
	tc_login(&f, &s, "Fanny", "fr", "secret un");
	tc_login(&e, &s, "Eddie", "en", "secret deux");
	tc_login(&fg, &s, "Flore", "fr", NULL);
	tc_login(&eg, &s, "Erin", "en", NULL);
	/* Two full tables, one made by each creator. */
	long te = tc_create(&e, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	long tf = tc_create(&f, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	refused_at(&fg, &eg, "{\"type\":\"sit\",\"table\":%ld}", te, tf, "no_seat",
	           "aucune place n'est libre à cette table", "no seat is free at this table");
	refused_at(&fg, &eg, "{\"type\":\"sit\",\"table\":%ld,\"seat\":0}", te, tf, "seat", "la place 1 n'est pas libre",
	           "seat 1 is not free");
	/* Each creator starts theirs, then asks again. */
	tc_send(&e, "{\"type\":\"start\",\"table\":%ld}", te);
	tc_send(&f, "{\"type\":\"start\",\"table\":%ld}", tf);
	tc_wait(&e, "state");
	tc_wait(&f, "state");
	refused_at(&f, &e, "{\"type\":\"start\",\"table\":%ld}", tf, te, "start", "la partie a déjà commencé",
	           "the game has already begun");
	refused_at(&f, &e, "{\"type\":\"seat\",\"table\":%ld,\"seat\":0,\"kind\":\"bot\"}", tf, te, "seat",
	           "la place 1 est occupée par un joueur", "seat 1 is held by a player");
	/* The guests watch the other language's table: the asker's language,
	 * not the table's. */
	tc_send(&fg, "{\"type\":\"watch\",\"table\":%ld}", te);
	tc_send(&eg, "{\"type\":\"watch\",\"table\":%ld}", tf);
	tc_wait(&fg, "joined");
	tc_wait(&eg, "joined");
	refused_at(&fg, &eg, "{\"type\":\"hint\",\"table\":%ld}", te, tf, "not_seated",
	           "vous n'avez pas de place à cette table", "you hold no seat at this table");
	refused_at(&fg, &eg, "{\"type\":\"action\",\"table\":%ld,\"action\":\"pass\"}", te, tf, "not_seated",
	           "vous n'avez pas de place à cette table", "you hold no seat at this table");
	refused_each(&fg, &eg, "{\"type\":\"stats\"}", "{\"type\":\"stats\"}", "guest",
	             "seul un joueur avec un mot de passe a cela : connectez-vous avec le vôtre",
	             "only a player with a password has that: log in with one");
	refused_each(&f, &e, "{\"type\":\"verbosity\",\"table\":1,\"level\":\"loud\"}",
	             "{\"type\":\"verbosity\",\"table\":1,\"level\":\"loud\"}", "bad_message",
	             "'level' doit valoir \"short\" ou \"full\"", "'level' must be \"short\" or \"full\"");
	refused_at(&f, &e, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Nobody\"}", tf, te, "no_user",
	           "personne de ce nom n'est connecté", "nobody of that name is online");
	/* Answers that are no refusals: the leaderboard, a personal mute's
	 * notice. */
	tc_send(&fg, "{\"type\":\"leaders\",\"game\":\"brelan\"}");
	tc_send(&eg, "{\"type\":\"leaders\",\"game\":\"brelan\"}");
	ck_assert_ptr_nonnull(strstr(text_of(&fg, "leaders"), "Personne n'est encore classé"));
	ck_assert_ptr_nonnull(strstr(text_of(&eg, "leaders"), "Nobody is rated at"));
	tc_send(&e, "{\"type\":\"mute\",\"name\":\"Fanny\"}");
	tc_send(&f, "{\"type\":\"mute\",\"name\":\"Eddie\"}");
	ck_assert_str_eq(text_of(&f, "notice"), "Vous n'entendrez plus les messages de Eddie.");
	ck_assert_str_eq(text_of(&e, "notice"), "You will not hear Fanny's chat.");
	tc_free(&f);
	tc_free(&e);
	tc_free(&fg);
	tc_free(&eg);
	srv_stop(&s);
}
END_TEST

/* How many says t heard holding part. */
static int heard_count(const struct tc *t, const char *part)
{
	int n = 0;
	for (int i = 0; i < t->n; i++) {
		const char *x = json_string_value(json_object_get(t->msg[i], "text"));
		n += !strcmp(mtype(t->msg[i]), "say") && x && strstr(x, part);
	}
	return n;
}

/* V over the network: a listener asks for short announcements, is told so
 * in their language, and their view phrases short from then on (Bourré's
 * trick count left to S), while another listener still hears it all. */
START_TEST(test_verbosity)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "fr", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	long id = tc_create(&a, "bourre", 4, "[\"bot:1\",\"bot:1\",\"bot:1\",\"bot:1\"]",
	                   ",\"rules\":{\"hands\":2},\"seed\":7");
	b.table = id;
	tc_send(&b, "{\"type\":\"watch\",\"table\":%ld}", id);
	tc_wait(&b, "joined");
	tc_send(&a, "{\"type\":\"verbosity\",\"table\":%ld,\"level\":\"brief\"}", id);
	ck_assert_str_eq(next_error(&a), "bad_message");
	tc_send(&a, "{\"type\":\"verbosity\",\"table\":%ld,\"level\":\"short\"}", id + 1);
	ck_assert_str_eq(next_error(&a), "no_table");
	tc_send(&a, "{\"type\":\"verbosity\",\"table\":%ld,\"level\":\"short\"}", id);
	json_t *say = tc_wait(&a, "say");
	ck_assert_str_eq(json_string_value(json_object_get(say, "text")), "Annonces brèves.");
	ck_assert_int_eq(json_integer_value(json_object_get(say, "table")), id);
	ck_assert_int_eq(count_type(&b, "say"), 0); /* to Anne alone */
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	play_until(all, 2, NULL, NULL);
	/* Short leaves out the others' passing and staying (T and S tell
	 * them) and the running count of tricks (S tells it). */
	int full = heard_count(&b, " passe.") + heard_count(&b, "le pli, ");
	ck_assert_int_gt(full, 0);
	ck_assert_int_eq(heard_count(&a, " passe.") + heard_count(&a, "le pli, "), 0);
	ck_assert_int_eq(heard_count(&a, "prend le pli"), heard_count(&b, "prend le pli"));
	/* Back to full: said, and kept. */
	a.cursor = a.n;
	tc_send(&a, "{\"type\":\"verbosity\",\"table\":%ld,\"level\":\"full\"}", id);
	say = tc_wait(&a, "say");
	ck_assert_str_eq(json_string_value(json_object_get(say, "text")), "Annonces complètes.");
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* Connect without hello (in the address's language: path "/?lang=fr", or
 * "" for none); the connection must be refused with 'busy' and closed. */
static void refused_busy(struct srv *s, const char *path, const char *why)
{
	static struct tc x;
	memset(&x, 0, sizeof x);
	snprintf(x.name, sizeof x.name, "extra");
	char err[256], url[128];
	snprintf(url, sizeof url, "%s%s", s->url, path);
	/* The error and the close may come before the opening is noticed. */
	x.c = netc_open(url, on_msg, &x, err, sizeof err);
	for (int i = 0; i < 400 && x.c && netc_connected(x.c); i++)
		netc_service(x.c, 5);
	ck_assert(!x.c || !netc_connected(x.c));
	ck_assert_int_eq(x.n, 1);
	ck_assert_str_eq(mtype(x.msg[0]), "error");
	ck_assert_str_eq(json_string_value(json_object_get(x.msg[0], "code")), "busy");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(x.msg[0], "message")), why));
	tc_free(&x);
}

/* Caps on connections, from one address and in all: the connection over
 * the cap hears why and is closed; the others play on; once one leaves,
 * there is room again. */
/* The rate limit is the server's setting (--rate, --burst, server.conf's
 * [limits]): at 1 a second in bursts of 3, a fourth ping at once is
 * refused; a while later one goes again. */
START_TEST(test_rate_setting)
{
	struct srv s;
	srv_make(&s);
	s.rate_per_s = 1;
	s.rate_burst = 3;
	srv_run(&s);
	static struct tc x;
	tc_login(&x, &s, "Rita", "en", NULL);
	usleep(3100 * 1000);   /* the hello's token back, the bucket full */
	int pongs = count_type(&x, "pong");
	for (int i = 0; i < 6; i++)
		tc_send(&x, "{\"type\":\"ping\"}");
	ck_assert_str_eq(next_error(&x), "rate");
	for (int i = 0; i < 100; i++)
		netc_service(x.c, 5);
	int got = count_type(&x, "pong") - pongs;
	ck_assert_msg(got >= 2 && got <= 4, "%d pongs of 6 pings at a rate of 1 in bursts of 3", got);
	usleep(1100 * 1000);
	pongs = count_type(&x, "pong");
	tc_send(&x, "{\"type\":\"ping\"}");
	for (int i = 0; i < 400 && count_type(&x, "pong") == pongs; i++)
		netc_service(x.c, 5);
	ck_assert_int_gt(count_type(&x, "pong"), pongs);
	tc_free(&x);
	srv_stop(&s);
}
END_TEST

/* Registration closed: a new name with a password is refused (the error
 * `closed`, in the player's language), an account made before logs in,
 * a guest comes. */
START_TEST(test_registration_closed)
{
	struct srv s;
	srv_make(&s);
	srv_run(&s);
	static struct tc a, b, g;
	tc_login(&a, &s, "Anne", "en", "anne-pw");
	tc_free(&a);
	srv_halt(&s);
	s.registration_closed = 1;
	srv_run(&s);
	tc_hello(&b, &s, "Bruno", "fr", "bruno-pw", NULL);
	ck_assert_ptr_nonnull(strstr(error_text(&b, "closed"), "aucun nouveau compte"));
	tc_free(&b);
	tc_login(&a, &s, "Anne", "en", "anne-pw");
	tc_login(&g, &s, "Gaston", "en", NULL);
	tc_free(&a);
	tc_free(&g);
	srv_stop(&s);
}
END_TEST

START_TEST(test_connection_caps)
{
	struct srv s;
	srv_make(&s);
	for (int round = 0; round < 2; round++) {
		/* First 6 from 127.0.0.1 with no total cap, then 4 in all. */
		int cap = round == 0 ? 6 : 4;
		s.max_per_addr = round == 0 ? 6 : 0;
		s.max_conns = round == 0 ? 0 : 4;
		srv_run(&s);
		static struct tc c[6];
		for (int i = 0; i < cap; i++) {
			char name[16];
			snprintf(name, sizeof name, "P%d", i);
			tc_login(&c[i], &s, name, "en", NULL);
		}
		refused_busy(&s, "", round == 0 ? "your address" : "full");
		refused_busy(&s, "/?lang=en", round == 0 ? "your address" : "full");
		/* Asked in French in the address, said in French. */
		refused_busy(&s, "/?lang=fr", round == 0 ? "votre adresse" : "plein");
		/* Those in are still served. */
		for (int i = 0; i < cap; i++) {
			tc_send(&c[i], "{\"type\":\"ping\"}");
			tc_wait(&c[i], "pong");
		}
		tc_free(&c[0]);
		static struct tc again;
		for (int i = 0; i < 200; i++) { /* the server notices the close */
			netc_service(c[1].c, 5);
		}
		tc_login(&again, &s, "P0", "en", NULL);
		tc_free(&again);
		for (int i = 1; i < cap; i++)
			tc_free(&c[i]);
		srv_halt(&s);
	}
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---- the loop: its writes, its wake-ups, its descriptors ---- */

/* Two people and two bots play a game: no connection is written to twice
 * in one round of the loop, a write carries all that was queued for its
 * connection (an action's `say`s and `state` together: more messages than
 * writes), and the bots' moves, searched on the workers, woke the loop. */
START_TEST(test_one_write_a_round)
{
	struct srv s;
	srv_make(&s);
	srv_counters(&s);
	srv_run(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	long id = tc_create(&a, "bourre", 4, "[\"open\",\"open\",\"bot\",\"bot:1\"]", ",\"rules\":{\"hands\":2}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	play_until(all, 2, NULL, NULL);
	struct ws_counters k = *s.counters;
	ck_assert_int_gt(k.writes, 5);   /* fewer on a loaded machine: more a write */
	ck_assert_int_ge(k.rounds, 1);
	ck_assert_int_eq(k.twice, 0);
	ck_assert_msg(k.messages >= 2 * k.writes, "%ld messages in %ld writes", k.messages, k.writes);
	ck_assert_int_gt(k.woken, 0);
	ck_assert_int_eq(k.dropped + k.busy + k.shut, 0);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* Connect and say hello: the type of the first message ("welcome", or
 * "error" with code busy), or NULL when closed without a word. */
static const char *try_hello(struct tc *t, struct srv *s, const char *name)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	char err[256];
	/* The error and the close may come before the opening is noticed. */
	t->c = netc_open(s->url, on_msg, t, err, sizeof err);
	if (!t->c)
		return t->n ? mtype(t->msg[0]) : NULL;
	char hello[128];
	snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"en\"}", name);
	netc_send(t->c, hello);
	for (int i = 0; i < 1000 && !t->n; i++)
		if (netc_service(t->c, 5) < 0 && !t->n)
			break;
	if (!t->n)
		return NULL;
	if (!strcmp(mtype(t->msg[0]), "error"))
		ck_assert_str_eq(json_string_value(json_object_get(t->msg[0], "code")), "busy");
	return mtype(t->msg[0]);
}

/* A server at its open-file limit: the connections within the last
 * descriptors before those it keeps are told `busy`, those past them
 * closed at their accept; the server stays up, serves those in, and takes
 * new ones once descriptors are free again. */
START_TEST(test_descriptor_budget)
{
	struct srv s;
	srv_make(&s);
	srv_counters(&s);
	s.max_conns = s.max_per_addr = 0;
	s.fd_limit = WS_FD_RESERVE + WS_CAP_SLACK + 24;
	srv_run(&s);
	static struct tc c[24], x;
	int in = 0;
	const char *first = NULL;
	while (in < 24) {
		char name[16];
		snprintf(name, sizeof name, "Player%d", in);
		first = try_hello(&c[in], &s, name);
		ck_assert_msg(first != NULL, "connection %d closed without a word", in);
		if (strcmp(first, "welcome") != 0)
			break;
		in++;
	}
	/* The server's own descriptors (store, loop, listener) come first. */
	ck_assert_int_ge(in, 4);
	ck_assert_int_lt(in, 24);
	ck_assert_str_eq(first, "error");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(c[in].msg[0], "message")), "full"));
	tc_free(&c[in]);
	ck_assert_int_ge(s.counters->busy, 1);
	/* Connections that never finish their handshake hold descriptors: past
	 * the slack, the next ones are closed at their accept. */
	int raw[2 * WS_CAP_SLACK + 4];
	int nraw = (int)(sizeof raw / sizeof raw[0]);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)s.port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (int i = 0; i < nraw; i++) {
		raw[i] = socket(AF_INET, SOCK_STREAM, 0);
		ck_assert_int_ge(raw[i], 0);
		ck_assert_int_eq(connect(raw[i], (struct sockaddr *)&sa, sizeof sa), 0);
	}
	for (int i = 0; i < 500 && s.counters->shut == 0; i++)
		usleep(10000);
	ck_assert_int_ge(s.counters->shut, 1);
	ck_assert_ptr_null(try_hello(&x, &s, "Late"));
	tc_free(&x);
	/* Those in are served. */
	ck_assert(srv_alive(&s));
	for (int i = 0; i < in; i++) {
		tc_send(&c[i], "{\"type\":\"ping\"}");
		tc_wait(&c[i], "pong");
	}
	/* Descriptors free again: room for a new one. */
	for (int i = 0; i < nraw; i++)
		close(raw[i]);
	tc_free(&c[0]);
	const char *again = NULL;
	for (int i = 0; i < 100 && !(again && !strcmp(again, "welcome")); i++) {
		tc_free(&x);
		usleep(20000);
		again = try_hello(&x, &s, "Again");
	}
	ck_assert_ptr_nonnull(again);
	ck_assert_str_eq(again, "welcome");
	tc_free(&x);
	for (int i = 1; i < in; i++)
		tc_free(&c[i]);
	srv_stop(&s);
}
END_TEST

/* A server whose machine has less memory left than it wants tells new
 * connections `busy` (and says it once in its log). */
START_TEST(test_memory_floor)
{
	struct srv s;
	srv_make(&s);
	srv_counters(&s);
	s.mem_floor_kb = 1LL << 50; /* a petabyte */
	srv_run(&s);
	refused_busy(&s, "", "full");
	refused_busy(&s, "/?lang=fr", "plein");
	ck_assert_int_eq(s.counters->busy, 2);
	ck_assert(srv_alive(&s));
	srv_stop(&s);
}
END_TEST

/* A server that cannot read the memory left (no /proc/meminfo) says once,
 * as a warning, that it never refuses for want of memory; it still serves. */
START_TEST(test_memory_unknown)
{
	struct srv s;
	srv_make(&s);
	s.meminfo = "/nonexistent/meminfo";
	srv_run(&s);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_free(&a);
	usleep(300 * 1000); /* the loop checks the memory again, 10 times a second */
	tc_login(&a, &s, "Bea", "en", NULL);
	tc_free(&a);
	char path[200], *text = NULL;
	snprintf(path, sizeof path, "%s/stderr.txt", s.dir);
	size_t len = 0;
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	const char *said = strstr(text, "memory left cannot be read");
	ck_assert_ptr_nonnull(said);
	ck_assert_ptr_null(strstr(said + 1, "memory left cannot be read")); /* once */
	free(text);
	ck_assert(srv_alive(&s));
	srv_stop(&s);
}
END_TEST

/* A removed table's id is never given again, not even after a restart, and
 * its hand history is never emptied; the store and the histories are the
 * server's alone, whatever the umask. */
START_TEST(test_ids_never_repeat)
{
	umask(0);
	struct srv s;
	srv_make(&s);
	srv_run(&s);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	long first = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", first);
	struct tc *anne[] = { &a };
	play_until(anne, 1, NULL, NULL);
	tc_send(&a, "{\"type\":\"leave\",\"table\":%ld}", first);
	tc_wait(&a, "left");
	ck_assert_int_eq(lobby_size(&a, "tables", 0), 0); /* removed */
	char log[200];
	history_path(s.logs, first, log, sizeof log);
	struct stat before, sb;
	ck_assert_int_eq(stat(log, &before), 0);
	ck_assert_int_gt(before.st_size, 0);
	ck_assert_int_eq(before.st_mode & 077, 0);
	ck_assert_int_eq(stat(s.db, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 077, 0);
	tc_free(&a);
	srv_halt(&s);
	srv_run(&s);
	tc_login(&a, &s, "Anne", "en", NULL);
	long second = tc_create(&a, "brelan", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", NULL);
	ck_assert_int_gt(second, first);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", second);
	tc_wait(&a, "state");
	ck_assert_int_eq(stat(log, &sb), 0);
	ck_assert_int_eq(sb.st_size, before.st_size);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* Run `tapis serve` with args; its exit status, or -1 when it was still
 * running after two seconds (killed). */
static int serve_exits(const char *const *args)
{
	const char *bin = getenv("TAPIS_BIN");
	pid_t pid = fork();
	if (pid == 0) {
		const char *argv[16] = { bin, "serve" };
		for (int i = 0; args[i] && i < 13; i++)
			argv[i + 2] = args[i];
		if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	int status = 0;
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		usleep(10 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* A server that would listen on nothing, or keep nothing, does not start. */
START_TEST(test_serve_refuses)
{
	if (!getenv("TAPIS_BIN"))
		return; /* run from make check, which names the program */
	char dir[] = "/tmp/tapis-serve-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char db[64];
	snprintf(db, sizeof db, "%s/s.db", dir);
	const char *empty_db[] = { "--port", "0", "--db", "", NULL };
	ck_assert_int_eq(serve_exits(empty_db), 2);
	const char *memory_db[] = { "--port", "0", "--db", ":memory:", NULL };
	ck_assert_int_eq(serve_exits(memory_db), 2);
	/* 192.0.2.1 is for documentation: no machine has it. */
	const char *far[] = { "--host", "192.0.2.1", "--port", "0", "--db", db, NULL };
	ck_assert_int_eq(serve_exits(far), 1);
	const char *unknown[] = { "--host", "no-such-host.invalid", "--port", "0", "--db", db, NULL };
	ck_assert_int_eq(serve_exits(unknown), 1);
	/* A port already taken. */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	ck_assert_int_eq(listen(fd, 1), 0);
	socklen_t len = sizeof sa;
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	char port[16];
	snprintf(port, sizeof port, "%d", ntohs(sa.sin_port));
	const char *taken[] = { "--port", port, "--db", db, NULL };
	ck_assert_int_eq(serve_exits(taken), 1);
	close(fd);
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---- seats, seeds and accounts ---- */

/* A dropped guest's name and seat are theirs: a hello with a password on
 * the name makes no account and takes nothing, before a restart and
 * after; the guest's own token brings them back each time. */
START_TEST(test_guest_name_kept)
{
	struct srv s;
	srv_make(&s);
	s.grace_ms = 20000;
	srv_run(&s);
	static struct tc g, x;
	tc_login(&g, &s, "Gina", "en", NULL);
	long id = tc_create(&g, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	tc_send(&g, "{\"type\":\"start\",\"table\":%ld}", id);
	tc_wait(&g, "state");
	char token[40];
	snprintf(token, sizeof token, "%s", g.token);
	tc_free(&g);
	for (int round = 0; round < 2; round++) {
		tc_hello(&x, &s, "Gina", "en", "any password", NULL);
		ck_assert_str_eq(next_error(&x), "name_in_use");
		tc_free(&x);
		/* No account was made: the guest's token still works. */
		tc_hello(&g, &s, "Gina", "en", NULL, token);
		json_t *w = tc_wait(&g, "welcome");
		ck_assert(json_is_true(json_object_get(w, "guest")));
		json_t *j = tc_wait(&g, "joined");
		ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), id);
		ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 0);
		tc_free(&g);
		/* The same after a restart: the token's hash is in the store. */
		srv_halt(&s);
		srv_run(&s);
	}
	srv_stop(&s);
}
END_TEST

/* The code of t's next error, or "joined" when it joins t->table first. */
static const char *joined_or_error(struct tc *t)
{
	for (int waited = 0; waited < 5000; waited += 5) {
		for (; t->cursor < t->n; t->cursor++) {
			const char *type = mtype(t->msg[t->cursor]);
			if (!strcmp(type, "joined") &&
			    json_integer_value(json_object_get(t->msg[t->cursor], "table")) == t->table)
				return t->cursor++, "joined";
			if (!strcmp(type, "error"))
				return json_string_value(json_object_get(t->msg[t->cursor++], "code"));
		}
		netc_service(t->c, 5);
	}
	ck_abort_msg("%s: neither joined nor error", t->name);
	return NULL;
}

struct deal_ctx {
	struct srv *s;
	long table;
	int deals;
};

/* Stop once the table's hand history has begun so many deals. */
static int stop_at_deal(struct tc **all, int n, void *ctx)
{
	struct deal_ctx *d = ctx;
	(void)all;
	(void)n;
	char path[1024], line[4096];
	history_path(d->s->logs, d->table, path, sizeof path);
	FILE *f = fopen(path, "r");
	int deals = 0;
	while (f && fgets(line, sizeof line, f))
		deals += strstr(line, "\"type\":\"hand_start\"") != NULL;
	if (f)
		fclose(f);
	return deals >= d->deals;
}

/* Nobody holds two seats' cards in one deal: a seat left in the deal is
 * its player's alone to take back, and its player takes no other seat
 * before the next deal, whether they stood, left or were removed. */
START_TEST(test_seat_hopping)
{
	struct srv s;
	srv_make(&s);
	s.grace_ms = 20000;
	srv_run(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Carl", "en", NULL);
	/* Nine games to win: one deal never ends the match (a cape gives two). */
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"open\",\"open\"]",
	                    ",\"rules\":{\"hands\":3,\"games\":9}");
	tc_sit(&b, id, 1);
	/* Bruno never plays: the deal waits for him. */
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	tc_wait(&a, "state");
	tc_send(&a, "{\"type\":\"stand\",\"table\":%ld}", id);
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld,\"seat\":2}", id);
	ck_assert_str_eq(joined_or_error(&a), "seat");
	c.table = id;
	tc_send(&c, "{\"type\":\"sit\",\"table\":%ld,\"seat\":0}", id);
	ck_assert_str_eq(joined_or_error(&c), "seat");
	/* An open seat nobody held in this deal is anyone's. */
	tc_send(&c, "{\"type\":\"sit\",\"table\":%ld,\"seat\":2}", id);
	ck_assert_str_eq(joined_or_error(&c), "joined");
	/* Gone from the table and back: still not another seat. */
	tc_send(&a, "{\"type\":\"leave\",\"table\":%ld}", id);
	tc_wait(&a, "left");
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld,\"seat\":3}", id);
	ck_assert_str_eq(joined_or_error(&a), "seat");
	/* Her own seat, yes: the first free one she may take. */
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld}", id);
	ck_assert_str_eq(joined_or_error(&a), "joined");
	/* Removed by the creator: no other seat either. */
	tc_send(&a, "{\"type\":\"kick\",\"table\":%ld,\"seat\":2}", id);
	tc_wait(&c, "left");
	tc_send(&c, "{\"type\":\"sit\",\"table\":%ld,\"seat\":3}", id);
	ck_assert_str_eq(joined_or_error(&c), "seat");
	/* A spectator hears what is public: watching is allowed. */
	tc_send(&c, "{\"type\":\"watch\",\"table\":%ld}", id);
	ck_assert_str_eq(joined_or_error(&c), "joined");
	/* The marks outlive a restart. */
	struct tc *three[] = { &a, &b, &c };
	char tokens[3][40];
	for (int i = 0; i < 3; i++) {
		snprintf(tokens[i], sizeof tokens[i], "%s", three[i]->token);
		tc_free(three[i]);
	}
	srv_halt(&s);
	srv_run(&s);
	const char *names[] = { "Anne", "Bruno", "Carl" };
	for (int i = 0; i < 3; i++) {
		tc_hello(three[i], &s, names[i], "en", NULL, tokens[i]);
		tc_wait(three[i], "welcome");
		tc_wait(three[i], "joined"); /* back at the table: seated, or watching */
		three[i]->table = id;
	}
	tc_send(&c, "{\"type\":\"sit\",\"table\":%ld,\"seat\":3}", id);
	ck_assert_str_eq(joined_or_error(&c), "seat");
	/* The next deal: any free seat again. */
	a.seat = 0;
	b.seat = 1;
	tc_catch_up(&a);
	tc_catch_up(&b);
	struct deal_ctx next = { &s, id, 2 };
	/* Played until then, however slow a busy machine makes the bots. */
	time_t until = time(NULL) + 40;
	while (!stop_at_deal(NULL, 0, &next)) {
		if (time(NULL) >= until) {
			for (int i = 0; i < 2; i++)
				for (int k = three[i]->n > 6 ? three[i]->n - 6 : 0; k < three[i]->n; k++) {
					char *x = json_dumps(three[i]->msg[k], JSON_COMPACT);
					fprintf(stderr, "%s got: %.600s\n", three[i]->name, x);
					free(x);
				}
			ck_abort_msg("the second deal did not begin");
		}
		for (int i = 0; i < 2; i++) {
			netc_service(three[i]->c, 1);
			ck_assert_msg(three[i]->refused == 0, "%s: an action was refused", three[i]->name);
			tc_play(three[i]);
		}
	}
	tc_send(&c, "{\"type\":\"sit\",\"table\":%ld,\"seat\":3}", id);
	ck_assert_str_eq(joined_or_error(&c), "joined");
	srv_stop(&s);
}
END_TEST

/* The first line of a table's hand history. */
static json_t *history_start(struct srv *s, long id)
{
	char path[160], line[4096];
	history_path(s->logs, id, path, sizeof path);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	fclose(f);
	json_t *j = json_loads(line, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(mtype(j), "game_start");
	return j;
}

/* 1 when a message t received holds text. */
static int received(const struct tc *t, const char *text)
{
	for (int i = 0; i < t->n; i++) {
		char *x = json_dumps(t->msg[i], JSON_COMPACT);
		int has = x && strstr(x, text);
		free(x);
		if (has)
			return 1;
	}
	return 0;
}

/* A table where others may sit plays from the server's secret seed: a
 * client's seed is refused there; a client's seed is taken at a table of
 * bots, where nobody else may sit, and the hand history says who chose. */
START_TEST(test_seed_secret)
{
	struct srv s;
	srv_make(&s);
	s.grace_ms = 20000;
	srv_run(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,\"seats\":[\"open\",\"open\",\"bot\",\"bot\"],"
	            "\"seed\":5}");
	ck_assert_str_eq(next_error(&a), "create");
	/* Two tables of the server's seeds: 63 random bits each. */
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":2}");
	long id2 = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":2}");
	tc_sit(&b, id, 1);
	a.table = id;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	tc_wait(&b, "state");
	struct tc *all[] = { &a, &b };
	a.seat = 0;
	b.seat = 1;
	int states = 6;
	play_until(all, 2, stop_after_states, &states);
	json_t *gs = history_start(&s, id);
	ck_assert_str_eq(json_string_value(json_object_get(gs, "seed_from")), "server");
	uint64_t seed = (uint64_t)json_integer_value(json_object_get(gs, "seed"));
	json_decref(gs);
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "sqlite", s.db, err, sizeof err), 0);
	struct seen row = { 0 };
	store_table_each(&st, on_table, &row);
	store_close(&st);
	ck_assert_int_eq(row.t.id, id2);
	ck_assert_msg(seed >= (1ULL << 48) || row.t.seed >= (1ULL << 48), "seeds of 48 bits or less: %llu %llu",
	              (unsigned long long)seed, (unsigned long long)row.t.seed);
	/* Nothing either client received holds it. */
	char dec[32], hex[32];
	snprintf(dec, sizeof dec, "%llu", (unsigned long long)seed);
	snprintf(hex, sizeof hex, "%llx", (unsigned long long)seed);
	for (int i = 0; i < 2; i++)
		ck_assert(!received(all[i], dec) && !received(all[i], hex));
	/* A seed chosen at a table of bots: taken; its seats stay the
	 * creator's alone. */
	long id3 = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1},\"seed\":5");
	tc_send(&a, "{\"type\":\"seat\",\"table\":%ld,\"seat\":1,\"kind\":\"open\"}", id3);
	b.table = id3;
	for (int i = 0; i < 2; i++) {
		tc_send(&b, "{\"type\":\"sit\",\"table\":%ld,\"seat\":1}", id3);
		ck_assert_str_eq(joined_or_error(&b), "seat");
		/* The same after a restart. */
		if (!i) {
			char token[40];
			snprintf(token, sizeof token, "%s", b.token);
			tc_free(&b);
			srv_halt(&s);
			srv_run(&s);
			tc_hello(&b, &s, "Bruno", "en", NULL, token);
			tc_wait(&b, "welcome");
		}
	}
	char token[40];
	snprintf(token, sizeof token, "%s", a.token);
	tc_free(&a);
	tc_hello(&a, &s, "Anne", "en", NULL, token);
	tc_wait(&a, "welcome");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id3);
	/* Its first state in play (Anne hears her other tables too). */
	for (json_t *st3 = NULL; !st3;) {
		json_t *x = tc_wait(&a, "state");
		if (json_integer_value(json_object_get(x, "table")) == id3 &&
		    strcmp(json_string_value(json_object_get(x, "state")), "waiting") != 0)
			st3 = x;
	}
	gs = history_start(&s, id3);
	ck_assert_str_eq(json_string_value(json_object_get(gs, "seed_from")), "client");
	ck_assert_int_eq(json_integer_value(json_object_get(gs, "seed")), 5);
	json_decref(gs);
	srv_stop(&s);
}
END_TEST

/* Passwords are hashed and checked by a worker thread: a new account's
 * hello (a slow hash here) holds up nobody else's messages; its own
 * connection's next messages wait for it, then come in order; a
 * connection closed meanwhile makes no account; an address makes
 * AUTH_ACCOUNTS_PER_HOUR accounts an hour. */
START_TEST(test_hash_worker)
{
	struct srv s;
	srv_make(&s);
	s.hash_cost = AUTH_COST_SLOW;
	s.hello_ms = 1500;
	srv_run(&s);
	static struct tc a, b, c, d;
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_hello(&a, &s, "Alba", "en", "slow hash", NULL);
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brouc\"}");
	/* Bruno's pings come back while Alba's hash is made. */
	for (int i = 0; i < 3; i++) {
		tc_send(&b, "{\"type\":\"ping\"}");
		tc_wait(&b, "pong");
	}
	netc_service(a.c, 20);
	for (int i = 0; i < a.n; i++)
		ck_assert_msg(strcmp(mtype(a.msg[i]), "welcome") != 0, "the hello was answered before the pings");
	tc_wait(&a, "welcome");
	tc_wait(&a, "created");
	/* Its hello was answered from the worker: the connection counts as
	 * greeted, and stays past the time to say hello. */
	for (int i = 0; i < 400; i++)
		netc_service(a.c, 5);
	tc_send(&a, "{\"type\":\"ping\"}");
	tc_wait(&a, "pong");
	/* Gone before its answer: no account. Its hash waits behind the check
	 * of Alba's password (the worker takes one at a time), and the
	 * connection drops at once. */
	tc_free(&a);
	tc_hello(&a, &s, "Alba", "en", "slow hash", NULL);
	tc_hello(&c, &s, "Cleo", "en", "first", NULL);
	netc_abandon(c.c);
	c.c = NULL;
	tc_free(&c);
	tc_wait(&a, "welcome");
	for (int tries = 0;; tries++) {
		tc_hello(&d, &s, "Cleo", "en", "second", NULL);
		json_t *j = NULL;
		for (int waited = 0; !j && waited < 5000; waited += 5) {
			for (; d.cursor < d.n && !j; d.cursor++)
				if (!strcmp(mtype(d.msg[d.cursor]), "welcome") || !strcmp(mtype(d.msg[d.cursor]), "error"))
					j = d.msg[d.cursor];
			netc_service(d.c, 5);
		}
		ck_assert_ptr_nonnull(j);
		if (!strcmp(mtype(j), "welcome"))
			break;
		/* Cleo's first hello may still be waiting for its hash. */
		ck_assert_str_eq(json_string_value(json_object_get(j, "code")), "wait");
		ck_assert_int_lt(tries, 100);
		tc_free(&d);
		usleep(50000);
	}
	tc_free(&d);
	/* Alba, Cleo, Cleo again: the address's third account; a fourth waits. */
	tc_hello(&d, &s, "Dora", "en", "fourth", NULL);
	ck_assert_str_eq(next_error(&d), "wait");
	tc_free(&d);
	/* A private table's password being hashed when its creator logs in
	 * from elsewhere: no table, and the server goes on. */
	tc_send(&b, "{\"type\":\"create\",\"game\":\"brouc\",\"private\":true,\"password\":\"door\"}");
	static struct tc b2;
	tc_hello(&b2, &s, "Bruno", "en", NULL, b.token);
	tc_wait(&b2, "welcome");
	ck_assert_str_eq(next_error(&b), "replaced");
	tc_send(&b2, "{\"type\":\"create\",\"game\":\"brouc\",\"private\":true,\"password\":\"door\"}");
	json_t *made = tc_wait(&b2, "created");
	ck_assert_int_eq(json_integer_value(json_object_get(made, "table")), 2);
	ck_assert(srv_alive(&s));
	srv_stop(&s);
}
END_TEST

/* The limiter remembers a name's wait however many others fail: when
 * every slot holds a wait, a name not known waits too. */
START_TEST(test_auth_crowded)
{
	static struct auth a;
	ck_assert_int_eq(auth_init(&a, AUTH_COST_CHEAP), 0);
	long long t = 1000000;
	for (int i = 0; i <= AUTH_FREE_FAILS; i++)
		auth_failed(&a, "Anne", NULL, t);
	ck_assert(auth_wait(&a, "Anne", NULL, t) > 0);
	char name[32];
	for (int k = 0; k < 2 * AUTH_SLOTS; k++) {
		snprintf(name, sizeof name, "n%d", k);
		for (int i = 0; i <= AUTH_FREE_FAILS; i++)
			if (auth_wait(&a, name, NULL, t + 1) == 0)
				auth_failed(&a, name, NULL, t + 1);
	}
	ck_assert_msg(auth_wait(&a, "Anne", NULL, t + 500) > 0, "Anne's wait was forgotten");
	ck_assert(auth_wait(&a, "Zoe", "10.9.9.9", t + 500) > 0);
	/* Their waits over, each name still holds its lock (its next wrong
	 * password waits at once) until a quiet hour forgives it: then room
	 * again. */
	long long hour = 3600 * 1000LL;
	ck_assert(auth_wait(&a, "Zoe", "10.9.9.9", t + 10000) > 0);
	ck_assert_int_eq(auth_wait(&a, "Zoe", "10.9.9.9", t + 2 + hour), 0);
	/* Accounts from one address. */
	long long u = t + 2 * hour;
	for (int i = 0; i < AUTH_ACCOUNTS_PER_HOUR; i++) {
		ck_assert_int_eq(auth_create_wait(&a, "1.2.3.4", u), 0);
		auth_created(&a, "1.2.3.4", u);
	}
	ck_assert(auth_create_wait(&a, "1.2.3.4", u) > 0);
	ck_assert_int_eq(auth_create_wait(&a, "5.6.7.8", u), 0);
	ck_assert_int_eq(auth_create_wait(&a, "1.2.3.4", u + hour), 0);
}
END_TEST

/* A locked name stays locked however many others fail once: after its
 * wait it has no free guess again (the others, holding no lock, make
 * the room); a quiet hour forgives it. */
START_TEST(test_auth_lock_kept)
{
	static struct auth a;
	ck_assert_int_eq(auth_init(&a, AUTH_COST_CHEAP), 0);
	long long t = 1000000;
	for (int i = 0; i <= AUTH_FREE_FAILS; i++)
		auth_failed(&a, "Anne", NULL, t);
	ck_assert(auth_wait(&a, "Anne", NULL, t) > 0);
	/* Its wait passes; a crowd of names (one wrong password each, from
	 * as many addresses) fills the slots many times over. */
	char name[32], addr[32];
	for (int k = 0; k < 3 * AUTH_SLOTS; k++) {
		snprintf(name, sizeof name, "#%d", k);
		snprintf(addr, sizeof addr, "10.%d.%d.%d", k >> 16 & 255, k >> 8 & 255, k & 255);
		long long at = t + 5000 + k;
		ck_assert_int_eq(auth_wait(&a, name, addr, at), 0);
		auth_failed(&a, name, addr, at);
	}
	long long after = t + 5000 + 3 * AUTH_SLOTS;
	ck_assert_int_eq(auth_wait(&a, "Anne", NULL, after), 0);
	auth_failed(&a, "Anne", NULL, after);
	ck_assert_msg(auth_wait(&a, "Anne", NULL, after) > 0, "Anne's lock was forgotten: free guesses again");
	/* An hour without a wrong password forgives. */
	long long later = after + 3600 * 1000LL + 70000;
	for (int i = 0; i < AUTH_FREE_FAILS; i++)
		auth_failed(&a, "Anne", NULL, later);
	ck_assert_int_eq(auth_wait(&a, "Anne", NULL, later), 0);
}
END_TEST

/* An action at a table one is not at is refused, as a chat there is. */
START_TEST(test_action_not_member)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	tc_send(&b, "{\"type\":\"action\",\"table\":%ld,\"action\":\"pass\"}", id);
	ck_assert_str_eq(next_error(&b), "not_member");
	srv_stop(&s);
}
END_TEST

/* ---- bots and hints off the loop ---- */

/* Hold (on) or let go the searches of bots (what "bot") or hints ("hint"). */
static void hold(struct srv *s, const char *what, int on)
{
	char p[160];
	snprintf(p, sizeof p, "%s/hold-%s", s->dir, what);
	if (on) {
		FILE *f = fopen(p, "w");
		ck_assert_ptr_nonnull(f);
		fclose(f);
	} else {
		ck_assert_int_eq(unlink(p), 0);
	}
}

static json_int_t state_int(const struct tc *t, const char *key)
{
	return t->state ? json_integer_value(json_object_get(t->state, key)) : -1;
}

/* Stop once a bot is to act at the first's table. */
static int stop_at_bot_turn(struct tc **all, int n, void *ctx)
{
	(void)n;
	(void)ctx;
	json_int_t to = state_int(all[0], "to_act");
	return all[0]->state && to >= 0 && to != all[0]->seat;
}

/* A table whose bot thinks (held) delays no other table: a whole game is
 * played at another meanwhile, and the bot plays once let go. */
START_TEST(test_bot_off_loop)
{
	struct srv s;
	srv_make(&s);
	s.hold = 1;
	srv_run(&s);
	hold(&s, "bot", 1);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Cleo", "en", NULL);
	long t1 = tc_create(&a, "bourre", 4, "[\"open\",\"bot:3\",\"bot:3\",\"bot:3\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", t1);
	struct tc *pa[] = { &a };
	play_until(pa, 1, stop_at_bot_turn, NULL);
	json_int_t held = state_int(&a, "moves");
	long t2 = tc_create(&b, "bouillabaisse", 2, "[\"open\",\"open\"]", ",\"rules\":{\"hands\":1}");
	b.seat = 0;
	tc_sit(&c, t2, 1);
	tc_send(&b, "{\"type\":\"start\",\"table\":%ld}", t2);
	struct tc *bc[] = { &b, &c };
	play_until(bc, 2, NULL, NULL);
	tc_send(&a, "{\"type\":\"ping\"}");
	tc_wait(&a, "pong");
	ck_assert_int_eq(state_int(&a, "moves"), held);
	hold(&s, "bot", 0);
	for (int i = 0; i < 1000 && state_int(&a, "moves") == held; i++)
		netc_service(a.c, 5);
	ck_assert_int_gt(state_int(&a, "moves"), held);
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* The number of says since message from whose text begins with start. */
static int says_from(const struct tc *t, int from, const char *start)
{
	int k = 0;
	for (int i = from; i < t->n; i++) {
		const char *x = json_string_value(json_object_get(t->msg[i], "text"));
		k += !strcmp(mtype(t->msg[i]), "say") && x && !strncmp(x, start, strlen(start));
	}
	return k;
}

/* Let a client's messages in for a while (a ping's answer, then 100 ms). */
static void settle(struct tc *t)
{
	tc_send(t, "{\"type\":\"ping\"}");
	tc_wait(t, "pong");
	for (int i = 0; i < 20; i++)
		netc_service(t->c, 5);
}

/* Hints asked again and again: one on its way at a time for the asker,
 * and another client's round trips answered, in order, meanwhile. */
START_TEST(test_hint_flood)
{
	struct srv s;
	srv_make(&s);
	s.hold = 1;
	srv_run(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Cleo", "en", NULL);
	long id = tc_create(&a, "bouillabaisse", 2, "[\"open\",\"open\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *ab[] = { &a, &b };
	int states = count_type(&a, "state") + 1;
	play_until(ab, 2, stop_at_my_turn, &states);
	hold(&s, "hint", 1);
	int from = a.n;
	for (int i = 0; i < 5; i++)
		tc_send(&a, "{\"type\":\"hint\",\"table\":%ld}", id);
	for (int i = 0; i < 20; i++) {
		tc_send(&c, "{\"type\":\"ping\"}");
		tc_wait(&c, "pong");
	}
	settle(&a);
	ck_assert_int_eq(says_from(&a, from, "Play "), 0);
	hold(&s, "hint", 0);
	for (int i = 0; i < 1000 && !says_from(&a, from, "Play "); i++)
		netc_service(a.c, 5);
	settle(&a);
	ck_assert_int_eq(says_from(&a, from, "Play "), 1);
	ck_assert_int_eq(count_type(&a, "error"), 0);
	/* Not held: Cleo's pings and Anne's hints interleaved. */
	from = a.n;
	for (int i = 0; i < 15; i++) {
		tc_send(&a, "{\"type\":\"hint\",\"table\":%ld}", id);
		tc_send(&c, "{\"type\":\"ping\"}");
		tc_wait(&c, "pong");
		netc_service(a.c, 0);
	}
	settle(&a);
	int n = says_from(&a, from, "Play ");
	ck_assert_int_ge(n, 1);
	ck_assert_int_le(n, 15);
	ck_assert_int_eq(count_type(&c, "pong"), 35);
	ck_assert_int_eq(count_type(&a, "error"), 0);
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* A hint for a move played meanwhile is never said; nor is a bot's move
 * played for a turn gone: the turn timer's bot, held, loses to the
 * player's own move. */
START_TEST(test_stale_results_dropped)
{
	struct srv s;
	srv_make(&s);
	s.hold = 1;
	s.turn_ms = 600;
	srv_run(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	long id = tc_create(&a, "bouillabaisse", 2, "[\"open\",\"open\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *ab[] = { &a, &b };
	int states = count_type(&a, "state") + 1;
	play_until(ab, 2, stop_at_my_turn, &states);
	json_int_t moves = state_int(&a, "moves");
	hold(&s, "hint", 1);
	hold(&s, "bot", 1);
	int from = a.n;
	tc_send(&a, "{\"type\":\"hint\",\"table\":%ld}", id);
	/* Anne's time runs out (warned 200 ms before): the bot that would
	 * play for her is held. */
	for (int i = 0; i < 400 && !heard(&a, "Hurry"); i++)
		netc_service(a.c, 5);
	ck_assert(heard(&a, "Hurry"));
	for (int i = 0; i < 80; i++)
		netc_service(a.c, 5);
	tc_play(&a);
	for (int i = 0; i < 1000 && state_int(&a, "moves") == moves; i++)
		netc_service(a.c, 5);
	ck_assert_int_eq(state_int(&a, "moves"), moves + 1);
	hold(&s, "hint", 0);
	hold(&s, "bot", 0);
	/* Their searches end within a millisecond of being let go; the loop
	 * takes what they found at its next tick. */
	usleep(50000);
	settle(&a);
	ck_assert_int_eq(says_from(&a, from, "Play "), 0);
	/* The one to act now asks a hint, and has it (Anne's own, on its way,
	 * is no more). */
	struct tc *now = state_int(&a, "to_act") == a.seat ? &a : &b;
	int before = says_from(now, 0, "Play ");
	tc_send(now, "{\"type\":\"hint\",\"table\":%ld}", id);
	for (int i = 0; i < 1000 && says_from(now, 0, "Play ") == before; i++)
		netc_service(now->c, 5);
	ck_assert_int_eq(says_from(now, 0, "Play "), before + 1);
	settle(&a);
	ck_assert_int_eq(says_from(&a, from, "Play "), now == &a);
	/* One move only: the held bot's was dropped, and not said. */
	ck_assert(!heard(&a, "ran out of time") && !heard(&a, "Your time is up"));
	ck_assert_int_eq(state_int(&a, "moves"), moves + 1);
	ck_assert_int_eq(a.refused, 0);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* Stopped with searches on their way: the server ends cleanly (and, built
 * with the sanitizers, with nothing leaked). */
START_TEST(test_stop_with_jobs)
{
	struct srv s;
	srv_make(&s);
	s.hold = 1;
	srv_run(&s);
	hold(&s, "bot", 1);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	for (int k = 0; k < 3; k++) {
		/* (The seat at the table before, in play, given up.) */
		long id = tc_create(&a, "bourre", 4, "[\"open\",\"bot:3\",\"bot:3\",\"bot:3\"]",
		                    ",\"rules\":{\"hands\":1},\"give_up\":true");
		a.seat = 0;
		a.state = NULL;
		a.acted_seq = -1;
		tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
		struct tc *pa[] = { &a };
		play_until(pa, 1, stop_at_bot_turn, NULL);
	}
	tc_free(&a);
	int status = 0;
	ck_assert_int_eq(kill(s.pid, SIGTERM), 0);
	usleep(100000);
	ck_assert_int_eq(waitpid(s.pid, &status, WNOHANG), 0); /* its workers wait on the searches */
	hold(&s, "bot", 0);
	ck_assert_int_eq(waitpid(s.pid, &status, 0), s.pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not stop cleanly (%d)", status);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s.dir);
	ck_assert_int_eq(system(cmd), 0);
}
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
	tcase_add_test(tc, test_state_changes);
	suite_add_tcase(s, tc);
	tc = tcase_create("history");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_history_rematch);
	suite_add_tcase(s, tc);
	tc = tcase_create("names");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_names_bouillotte);
	tcase_add_test(tc, test_names_brelan);
	tcase_add_test(tc, test_names_bourre);
	tcase_add_test(tc, test_names_brouc);
	tcase_add_test(tc, test_names_bouillabaisse);
	tcase_add_test(tc, test_names_three_seats);
	tcase_add_test(tc, test_names_change_mid_game);
	suite_add_tcase(s, tc);
	tc = tcase_create("server");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_reconnect);
	tcase_add_test(tc, test_lost_at_once);
	tcase_add_test(tc, test_you_own_events);
	tcase_add_test(tc, test_one_table);
	tcase_add_test(tc, test_history_aside);
	tcase_add_loop_test(tc, test_two_people_every_game, 0, 6);
	tcase_add_test(tc, test_bye_then_missed);
	tcase_add_test(tc, test_stand_and_sit);
	tcase_add_loop_test(tc, test_kill9_restart, 0, 2);
	tcase_add_test(tc, test_private_table);
	tcase_add_test(tc, test_passwords);
	tcase_add_test(tc, test_bad_messages);
	tcase_add_test(tc, test_vanishing_clients);
	tcase_add_test(tc, test_chat);
	tcase_add_test(tc, test_names_and_chat);
	tcase_add_test(tc, test_http_page);
	tcase_add_test(tc, test_serve_command);
	tcase_add_test(tc, test_serve_refuses);
	tcase_add_test(tc, test_tls);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_connection_caps);
	tcase_add_test(tc, test_rate_setting);
	tcase_add_test(tc, test_registration_closed);
	tcase_add_test(tc, test_guest_token_restart);
	tcase_add_test(tc, test_turn_timer);
	tcase_add_test(tc, test_tables_removed);
	tcase_add_test(tc, test_deserted_table);
	tcase_add_test(tc, test_resume_together);
	tcase_add_test(tc, test_ids_never_repeat);
	tcase_add_test(tc, test_lobby_coalesced);
	tcase_add_test(tc, test_spectator_back);
	tcase_add_test(tc, test_spectator_restart);
	tcase_add_test(tc, test_play_together);
	tcase_add_test(tc, test_hint);
	tcase_add_test(tc, test_errors_in_language);
	tcase_add_test(tc, test_errors_interleaved);
	tcase_add_test(tc, test_verbosity);
	tcase_add_test(tc, test_confirm_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("trust");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_guest_name_kept);
	tcase_add_test(tc, test_seat_hopping);
	tcase_add_test(tc, test_seed_secret);
	tcase_add_test(tc, test_hash_worker);
	tcase_add_test(tc, test_auth_crowded);
	tcase_add_test(tc, test_auth_lock_kept);
	tcase_add_test(tc, test_action_not_member);
	suite_add_tcase(s, tc);
	tc = tcase_create("workers");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bot_off_loop);
	tcase_add_test(tc, test_hint_flood);
	tcase_add_test(tc, test_stale_results_dropped);
	tcase_add_test(tc, test_stop_with_jobs);
	suite_add_tcase(s, tc);
	tc = tcase_create("loop");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_one_write_a_round);
	tcase_add_test(tc, test_descriptor_budget);
	tcase_add_test(tc, test_memory_floor);
	tcase_add_test(tc, test_memory_unknown);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	alarm(120);
	pg_state = pgtmp_start(&pg, pg_why, sizeof pg_why);
	if (pg_state == 0 && pgtmp_missing_fails(pg_why))
		pg_state = -1;
	else if (pg_state < 0)
		fprintf(stderr, "PostgreSQL could not start: %s\n", pg_why);
	int rc = tu_run(net_suite());
	pgtmp_stop(&pg);
	return rc;
}
