/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Three `tapis serve --cluster` nodes as one server (net/clnet): each a
 * server process on a free loopback port, all on a redis-server and a
 * PostgreSQL of the suite's own (tests/redistmp, tests/pgtmp), started
 * once and stopped at the end. Checked: the lobby (tables and people) and
 * its chat seen from every node; table ids never given twice; a table
 * owned by one node played to its end by clients of the two others, its
 * hand history refereed clean, no client given a card its seat may not
 * see. Without redis-server or PostgreSQL the suite is skipped (exit 77),
 * except under CI=true where that is a failure. */
#define _GNU_SOURCE
#include <check.h>
#include <hiredis/hiredis.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/replay.h"
#include "net/wire/proto.h"
#include "netutil.h"
#include "pgtmp.h"
#include "redistmp.h"
#include "testutil.h"

static struct redistmp redis;
static struct pgtmp pg;

#define NODES 3
static const char *const node_name[NODES] = { "north", "south", "east" };

/* 1 when the log of node i says it saw the node named node_name[j]-tag
 * (its lease read: "cluster: node NAME seen"). */
static int saw(const struct srv *s, int i, int j, const char *tag)
{
	char path[128], want[96], line[512];
	snprintf(path, sizeof path, "%s/stderr.txt", s[i].dir);
	snprintf(want, sizeof want, "cluster: node %s-%s seen ", node_name[j], tag);
	FILE *f = fopen(path, "r");
	int found = 0;
	while (f && !found && fgets(line, sizeof line, f))
		found = strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found;
}

/* Every node has read the leases of the two others. Until then a node
 * still to see one reads the directory again when it does (what the
 * others told it on tapis:lobby alone, not in the directory, is dropped
 * then), and a node it never saw is never lost to it: a test that needs
 * either waits for this. 10 s at most (the leases are read every second). */
static void nodes_meet(struct srv *s, const char *tag)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int all = 1;
		for (int i = 0; i < NODES; i++)
			for (int j = 0; j < NODES; j++)
				if (i != j && !saw(s, i, j, tag))
					all = 0;
		if (all)
			return;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ck_assert_msg(t1.tv_sec - t0.tv_sec < 10, "the nodes never saw each other");
		usleep(20000);
	}
}

/* Three nodes on one fresh database, named for the test (each test's
 * nodes are new ones: north-lobby, then north-relay…). */
static void nodes_start(struct srv *s, const char *tag)
{
	char err[512], db[64], url[128];
	snprintf(db, sizeof db, "clnet%d", (int)getpid());
	ck_assert_msg(pgtmp_db(&pg, db, url, sizeof url, err, sizeof err) == 0, "%s", err);
	for (int i = 0; i < NODES; i++) {
		srv_make(&s[i]);
		snprintf(s[i].store, sizeof s[i].store, "postgresql");
		snprintf(s[i].db, sizeof s[i].db, "%s", url);
		snprintf(s[i].cluster, sizeof s[i].cluster, "%s", redis.url);
		snprintf(s[i].node, sizeof s[i].node, "%s-%s", node_name[i], tag);
		srv_run(&s[i]);
	}
	nodes_meet(s, tag);
}

static void nodes_stop(struct srv *s)
{
	for (int i = 0; i < NODES; i++)
		srv_stop(&s[i]);
}

/* Service the clients until done(ctx) says so; 20 s at most. */
static void pump(struct tc **all, int n, int (*done)(void *ctx), void *ctx, const char *what)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < n; i++)
			netc_service(all[i]->c, 2);
		if (done(ctx))
			return;
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while (t1.tv_sec - t0.tv_sec < 20);
	for (int i = 0; i < n; i++)
		for (int k = all[i]->n > 6 ? all[i]->n - 6 : 0; k < all[i]->n; k++) {
			char *x = json_dumps(all[i]->msg[k], JSON_COMPACT);
			fprintf(stderr, "%s got: %.300s\n", all[i]->name, x);
			free(x);
		}
	ck_abort_msg("never: %s", what);
}

/* What a client's lobby holds: the names of its people, a table. */
static int lobby_has_person(const struct tc *t, const char *name)
{
	json_t *l = tc_lobby(t);
	int found = 0;
	size_t i;
	json_t *u;
	json_array_foreach(json_object_get(l, "users"), i, u)
		found |= !strcmp(json_string_value(json_object_get(u, "name")), name);
	json_decref(l);
	return found;
}

static json_t *lobby_table(const struct tc *t, long id)
{
	json_t *l = tc_lobby(t), *found = NULL;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(l, "tables"), i, e)
		if (json_integer_value(json_object_get(e, "id")) == id)
			found = json_incref(e);
	json_decref(l);
	return found;
}

struct want {
	struct tc **all;
	int n;
	const char *name;   /* a person every client's lobby lists (or does not, gone) */
	int gone;
	long table;         /* a table every client's lobby lists (in state, when set) */
	const char *state;
	const char *text;   /* a chat line every client but its sayer heard */
};

static int everyone(void *ctx)
{
	struct want *w = ctx;
	for (int i = 0; i < w->n; i++) {
		struct tc *t = w->all[i];
		if (w->name && strcmp(t->name, w->name) && lobby_has_person(t, w->name) == w->gone)
			return 0;
		if (w->table) {
			json_t *e = lobby_table(t, w->table);
			int ok = e && (!w->state || !strcmp(json_string_value(json_object_get(e, "state")), w->state));
			json_decref(e);
			if (!ok)
				return 0;
		}
		if (w->text && strcmp(t->name, w->name)) {
			int heard = 0;
			for (int k = 0; k < t->n && !heard; k++)
				heard = !strcmp(mtype(t->msg[k]), "chat") && !json_object_get(t->msg[k], "table") &&
				        !strcmp(json_string_value(json_object_get(t->msg[k], "text")), w->text) &&
				        !strcmp(json_string_value(json_object_get(t->msg[k], "from")), w->name);
			if (!heard)
				return 0;
		}
	}
	return 1;
}

/* A message published on a channel of the cluster, as a node would. */
static void inject(const char *channel, const char *msg)
{
	redisContext *rc = redisConnect("127.0.0.1", redis.port);
	ck_assert(rc && !rc->err);
	redisReply *r = redisCommand(rc, "PUBLISH %s %s", channel, msg);
	ck_assert(r && r->type == REDIS_REPLY_INTEGER && r->integer >= 1); /* heard */
	freeReplyObject(r);
	redisFree(rc);
}

/* The lobby of every node: its people and tables, its chat. */
START_TEST(test_lobby_across)
{
	struct srv s[NODES];
	nodes_start(s, "lobby");
	static struct tc a, b, c;
	tc_login(&a, &s[0], "Anne", "en", NULL);
	tc_login(&b, &s[1], "Bruno", "fr", NULL);
	tc_login(&c, &s[2], "Carl", "en", NULL);
	struct tc *all[] = { &a, &b, &c };
	/* Each sees the two others, wherever they logged in. */
	const char *names[] = { "Anne", "Bruno", "Carl" };
	for (int i = 0; i < NODES; i++) {
		struct want w = { all, 3, names[i], 0, 0, NULL, NULL };
		pump(all, 3, everyone, &w, "every person in every lobby");
	}
	/* A guest's name is theirs on every node. */
	static struct tc twin;
	tc_hello(&twin, &s[2], "Anne", "en", NULL, NULL);
	json_t *e = tc_wait(&twin, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "name_in_use");
	tc_free(&twin);
	/* A table made on each node: listed by all (followed from a table),
	 * its id given once. */
	long id[NODES];
	for (int i = 0; i < NODES; i++) {
		tc_send(all[i], "{\"type\":\"lobby_query\",\"follow\":true}");
		id[i] = tc_create(all[i], "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot:1\"]", NULL);
		for (int k = 0; k < i; k++)
			ck_assert_int_ne(id[i], id[k]);
	}
	for (int i = 0; i < NODES; i++) {
		struct want w = { all, 3, NULL, 0, id[i], "waiting", NULL };
		pump(all, 3, everyone, &w, "every table in every lobby");
	}
	/* A chat line said on one node, heard on all. */
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"bonjour de south\"}");
	struct want chat = { all, 3, "Bruno", 0, 0, NULL, "bonjour de south" };
	pump(all, 3, everyone, &chat, "the chat line heard everywhere");
	/* Said once to each (not again by every node). */
	int lines = 0;
	for (int k = 0; k < a.n; k++)
		lines += !strcmp(mtype(a.msg[k]), "chat");
	ck_assert_int_eq(lines, 1);
	/* An invitation from a table of north to Carl on east, and from
	 * Carl's table to Bruno on south: told in their language. */
	tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Carl\"}", id[0]);
	json_t *inv = tc_wait(&c, "invited");
	ck_assert_int_eq(json_integer_value(json_object_get(inv, "table")), id[0]);
	ck_assert_str_eq(json_string_value(json_object_get(inv, "from")), "Anne");
	tc_wait(&a, "notice");
	tc_send(&c, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Bruno\"}", id[2]);
	inv = tc_wait(&b, "invited");
	ck_assert_int_eq(json_integer_value(json_object_get(inv, "table")), id[2]);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(inv, "text")), "vous invite"));
	/* Carl leaves: gone from every lobby. */
	tc_free(&c);
	struct want gone = { all, 2, "Carl", 1, 0, NULL, NULL };
	pump(all, 2, everyone, &gone, "Carl gone from every lobby");
	/* Everything a node has, in two parts (as a long one goes): both
	 * listed; then all again in one part: what it no longer names is
	 * gone. */
	inject("tapis:lobby", "{\"from\":\"ghost\",\"full\":true,\"part\":0,\"last\":false,"
	                      "\"tables\":[{\"id\":900001,\"game\":\"brouc\",\"state\":\"waiting\"}],"
	                      "\"in\":[{\"name\":\"Gaspard\",\"guest\":true}]}");
	inject("tapis:lobby", "{\"from\":\"ghost\",\"full\":true,\"part\":1,\"last\":true,"
	                      "\"tables\":[{\"id\":900002,\"game\":\"brouc\",\"state\":\"waiting\"}],"
	                      "\"in\":[{\"name\":\"Gilles\",\"guest\":true}]}");
	struct want g1 = { all, 2, "Gaspard", 0, 900001, NULL, NULL }, g2 = { all, 2, "Gilles", 0, 900002, NULL, NULL };
	pump(all, 2, everyone, &g1, "the first part listed");
	pump(all, 2, everyone, &g2, "the second part listed");
	inject("tapis:lobby", "{\"from\":\"ghost\",\"full\":true,"
	                      "\"tables\":[{\"id\":900002,\"game\":\"brouc\",\"state\":\"playing\"}],"
	                      "\"in\":[{\"name\":\"Gilles\",\"guest\":true}]}");
	struct want g3 = { all, 2, "Gaspard", 1, 900002, "playing", NULL };
	pump(all, 2, everyone, &g3, "what a full message no longer names gone");
	json_t *ghost = lobby_table(&a, 900001);
	ck_assert_ptr_null(ghost);
	ck_assert(lobby_has_person(&b, "Gilles"));
	tc_free(&a);
	tc_free(&b);
	nodes_stop(s);
}
END_TEST

/* No two cards at once in the hands of two seats (the messages of one
 * seat never reach another's client), none in a spectator's. */
static void no_crossed_hands(struct tc **players, int n, struct tc *watcher)
{
	for (int i = 0; i < watcher->n; i++)
		if (!strcmp(mtype(watcher->msg[i]), "state"))
			ck_assert_int_eq(json_array_size(json_object_get(watcher->msg[i], "hand")), 0);
	for (int p = 0; p < n; p++)
		for (int q = p + 1; q < n; q++)
			for (int i = 0; i < players[p]->n; i++) {
				json_t *x = players[p]->msg[i];
				if (strcmp(mtype(x), "state"))
					continue;
				for (int k = 0; k < players[q]->n; k++) {
					json_t *y = players[q]->msg[k];
					if (strcmp(mtype(y), "state") ||
					    !json_equal(json_object_get(x, "moves"), json_object_get(y, "moves")))
						continue;
					size_t a, b;
					json_t *ca, *cb;
					json_array_foreach(json_object_get(x, "hand"), a, ca)
						json_array_foreach(json_object_get(y, "hand"), b, cb)
							ck_assert_msg(!json_equal(json_object_get(ca, "card"), json_object_get(cb, "card")),
							              "a card in two hands");
				}
			}
}

static int count_type(const struct tc *t, const char *type)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += !strcmp(mtype(t->msg[i]), type);
	return n;
}

struct count_ctx {
	const struct tc *t;
	const char *type;
	int n;
};

static int has_count(void *ctx)
{
	struct count_ctx *c = ctx;
	return count_type(c->t, c->type) >= c->n;
}

struct joined_ctx {
	struct tc *t;
	long table;
};

/* The client was told it joined that table. */
static int joined_at(void *ctx)
{
	struct joined_ctx *j = ctx;
	for (int i = 0; i < j->t->n; i++)
		if (!strcmp(mtype(j->t->msg[i]), "joined") &&
		    json_integer_value(json_object_get(j->t->msg[i], "table")) == j->table)
			return 1;
	return 0;
}

static int stop_after_states(struct tc **all, int n, void *ctx)
{
	(void)n;
	return count_type(all[0], "state") >= *(int *)ctx;
}

/* A table of north played to its end by clients of south and east. */
START_TEST(test_relay_game)
{
	struct srv s[NODES];
	nodes_start(s, "relay");
	static struct tc c, a, b, w;
	tc_login(&c, &s[0], "Carl", "en", NULL);
	tc_login(&a, &s[1], "Anne", "en", NULL);
	tc_login(&b, &s[2], "Bruno", "fr", NULL);
	tc_login(&w, &s[1], "Wanda", "en", NULL);
	long id = tc_create(&c, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot:1\"]", ",\"rules\":{\"hands\":1}");
	/* Carl stands up: he watches, his seat is free. */
	tc_send(&c, "{\"type\":\"stand\",\"table\":%ld}", id);
	tc_send(&c, "{\"type\":\"lobby_query\",\"follow\":true}");
	struct tc *lobby[] = { &c, &a, &b, &w };
	struct want listed = { lobby, 4, NULL, 0, id, "waiting", NULL };
	pump(lobby, 4, everyone, &listed, "north's table in every lobby");
	/* Seated through their own nodes. */
	tc_sit(&a, id, 0);
	tc_sit(&b, id, 1);
	w.table = id;
	tc_send(&w, "{\"type\":\"watch\",\"table\":%ld}", id);
	tc_wait(&w, "joined");
	tc_send(&c, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b, &w };
	int states = 3;
	play_until(all, 3, stop_after_states, &states);
	/* Both ways between north and south: Carl, north's first connection,
	 * watches a table of south, whose first connection (Anne) plays at
	 * north's: each node relays a client numbered 1 to the other, and
	 * what the owner says to its client is never taken for the other's
	 * message. */
	static struct tc d;
	tc_login(&d, &s[1], "Dora", "en", NULL);
	long sid = tc_create(&d, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot:1\"]", NULL);
	struct tc *carl[] = { &c };
	struct want south_listed = { carl, 1, NULL, 0, sid, NULL, NULL };
	pump(carl, 1, everyone, &south_listed, "south's table in Carl's lobby");
	tc_send(&c, "{\"type\":\"watch\",\"table\":%ld}", sid);
	struct joined_ctx carl_in = { &c, sid };
	pump(carl, 1, joined_at, &carl_in, "Carl watching south's table");
	/* Relayed messages lost, each way (numbers skipped): the table's
	 * state sent again to Anne (her "joined", then her state). Anne is
	 * the first connection of south. */
	ck_assert_int_eq(count_type(&a, "joined"), 1);
	inject("tapis:inbox:south-relay", "{\"op\":\"msg\",\"from\":\"north-relay\",\"conn\":1,\"seq\":100000,"
	                                  "\"back\":true,\"text\":\"{\\\"type\\\":\\\"pong\\\"}\"}");
	struct count_ctx two = { &a, "joined", 2 };
	pump(all, 3, has_count, &two, "the state again after a gap (owner to node)");
	inject("tapis:inbox:north-relay", "{\"op\":\"msg\",\"from\":\"south-relay\",\"conn\":1,\"seq\":100000,"
	                                  "\"text\":\"{\\\"type\\\":\\\"ping\\\"}\"}");
	struct count_ctx three = { &a, "joined", 3 };
	pump(all, 3, has_count, &three, "the state again after a gap (node to owner)");
	ck_assert_int_ge(count_type(&a, "pong"), 2);
	play_until(all, 3, NULL, NULL);
	/* Each heard it in its language, phrased by north. */
	int en = 0, fr = 0;
	for (int i = 0; i < a.n; i++)
		en += !strcmp(mtype(a.msg[i]), "say");
	for (int i = 0; i < b.n; i++)
		fr += !strcmp(mtype(b.msg[i]), "say");
	ck_assert_int_gt(en, 3);
	ck_assert_int_gt(fr, 3);
	int french = 0;
	for (int i = 0; i < b.n; i++)
		french |= !strcmp(mtype(b.msg[i]), "say") &&
		          strstr(json_string_value(json_object_get(b.msg[i], "text")), "Vous vous asseyez à la table ") != NULL;
	ck_assert_msg(french, "Bruno's table is not told in French");
	/* Numbered: nothing skipped, nothing twice (no state sent again). */
	ck_assert_int_eq(a.refused + b.refused, 0);
	for (int i = 0; i < 20; i++)
		netc_service(c.c, 5);
	ck_assert_int_eq(count_type(&c, "error"), 0);
	struct tc *players[] = { &a, &b };
	no_crossed_hands(players, 2, &w);
	/* The hand history, on north, refereed clean. */
	char path[256], err[1024];
	history_path(s[0].logs, id, path, sizeof path);
	ck_assert_msg(replay_file(path, NULL, err, sizeof err) == 0, "%s", err);
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	tc_free(&d);
	tc_free(&w);
	nodes_stop(s);
}
END_TEST

struct unlisted_ctx {
	struct tc **all;
	int n;
	long table;
};

/* No client's lobby holds the lost node's entry of the table any more:
 * it is gone, or listed again by the live node that took it over (which
 * shows its first seat, the lost node's player, away). */
static int unlisted(void *ctx)
{
	struct unlisted_ctx *u = ctx;
	for (int i = 0; i < u->n; i++) {
		json_t *e = lobby_table(u->all[i], u->table);
		if (!e)
			continue;
		json_t *seat = json_array_get(json_object_get(e, "seats"), 0);
		const char *state = json_string_value(json_object_get(seat, "state"));
		int taken = state && !strcmp(state, "away");
		json_decref(e);
		if (!taken)
			return 0;
	}
	return 1;
}

/* A node killed: the others drop its people from their lobbies, and its
 * tables (or list them again once a live node took them over); a client of another node at its table is told to connect
 * again, and does. */
START_TEST(test_node_lost)
{
	struct srv s[NODES];
	nodes_start(s, "lost");
	static struct tc a, b, c;
	tc_login(&a, &s[0], "Anne", "en", NULL);
	tc_login(&b, &s[1], "Bruno", "en", NULL);
	tc_login(&c, &s[2], "Carl", "en", NULL);
	long id = tc_create(&c, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot:1\"]", NULL);
	struct tc *all[] = { &a, &b, &c };
	struct want listed = { all, 2, "Carl", 0, id, "waiting", NULL };
	pump(all, 3, everyone, &listed, "east's table and Carl in every lobby");
	tc_sit(&b, id, 1);
	/* east killed: Bruno, at its table from south, is told and his
	 * connection closed (PROTO_CLOSE_AGAIN) to be made again at once. */
	kill(s[2].pid, SIGKILL);
	waitpid(s[2].pid, NULL, 0);
	tc_free(&c);
	json_t *again = tc_wait(&b, "error");
	ck_assert_str_eq(json_string_value(json_object_get(again, "code")), "reconnect");
	for (int i = 0; i < 400 && netc_connected(b.c); i++)
		netc_service(b.c, 5);
	ck_assert(!netc_connected(b.c));
	ck_assert_int_eq(netc_close_code(b.c), PROTO_CLOSE_AGAIN);
	char token[sizeof b.token];
	memcpy(token, b.token, sizeof token);
	tc_free(&b);
	tc_hello(&b, &s[1], "Bruno", "en", NULL, token);
	tc_wait(&b, "welcome");
	/* Carl and his table gone from the lobbies of the two others within
	 * its lease and a renewal. */
	struct want gone = { all, 2, "Carl", 1, 0, NULL, NULL };
	pump(all, 2, everyone, &gone, "Carl gone with his node");
	struct unlisted_ctx off = { all, 2, id };
	pump(all, 2, unlisted, &off, "east's table gone from every lobby, or taken over");
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s[0]);
	srv_stop(&s[1]);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s[2].dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST


/* ---------------------------------------------------------------- one person, one table */

/* The seat name holds at table as the watcher's lobby lists it, or -1
 * (-2: the table not listed). */
static int seat_of(const struct tc *watcher, long table, const char *name)
{
	json_t *e = lobby_table(watcher, table);
	if (!e)
		return -2;
	int seat = -1;
	size_t k;
	json_t *x;
	json_array_foreach(json_object_get(e, "seats"), k, x) {
		const char *who = json_string_value(json_object_get(x, "name"));
		if (who && !strcmp(who, name))
			seat = (int)k;
	}
	json_decref(e);
	return seat;
}

struct seats_want {
	const struct tc *watcher;
	const char *name;
	long table[4];
	int seat[4];       /* the seat wanted at each table (-1: none), or -3: any */
	int n;
	int exactly;       /* with every seat -3: seated at exactly this many of them */
};

static int seats_are(void *ctx)
{
	struct seats_want *w = ctx;
	int at = 0;
	for (int i = 0; i < w->n; i++) {
		int s = seat_of(w->watcher, w->table[i], w->name);
		if (s == -2)
			return 0;
		if (w->seat[i] != -3 && s != w->seat[i])
			return 0;
		at += s >= 0;
	}
	return w->exactly < 0 || at == w->exactly;
}

/* The person's key in Redis (tapis:seat:NAME) into buf ("" none). */
static void seat_key(const char *name, char *buf, size_t len)
{
	redisContext *rc = redisConnect("127.0.0.1", redis.port);
	ck_assert(rc && !rc->err);
	redisReply *r = redisCommand(rc, "GET tapis:seat:%s", name);
	ck_assert(r);
	snprintf(buf, len, "%s", r->type == REDIS_REPLY_STRING ? r->str : "");
	freeReplyObject(r);
	redisFree(rc);
}

/* One person, one table, across two nodes: a seat held at a table in
 * play on one node is asked about (by the person's own node, in their
 * language) when they sit or make a table on another; given up, it goes
 * to a bot there and they sit here; two sits at once on two nodes leave
 * one seat. */
START_TEST(test_one_seat)
{
	struct srv s[NODES];
	nodes_start(s, "seat");
	static struct tc a, b, z, y;
	tc_login(&a, &s[0], "Anne", "fr", NULL);   /* on north */
	tc_login(&b, &s[1], "Bruno", "en", NULL);  /* on south */
	tc_login(&z, &s[0], "Zoe", "en", NULL);    /* watches north's lobby */
	tc_login(&y, &s[1], "Yann", "en", NULL);   /* and south's */
	tc_send(&z, "{\"type\":\"lobby_query\",\"follow\":true}");
	tc_send(&y, "{\"type\":\"lobby_query\",\"follow\":true}");
	struct tc *all[] = { &a, &b, &z, &y };
	const char *four = "[\"open\",\"open\",\"bot\",\"bot\"]";
	/* Anne at south's table in play. */
	long tb = tc_create(&b, "brouc", 4, four, NULL);
	struct want listed = { (struct tc *[]){ &z }, 1, NULL, 0, tb, "waiting", NULL };
	pump(all, 4, everyone, &listed, "south's table in north's lobby");
	tc_sit(&a, tb, 1);
	tc_send(&b, "{\"type\":\"start\",\"table\":%ld}", tb);
	struct want playing = { (struct tc *[]){ &z }, 1, NULL, 0, tb, "playing", NULL };
	pump(all, 4, everyone, &playing, "south's table in play, in north's lobby");
	/* A table made on north: asked first, in French, nothing made. */
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,\"seats\":%s}", four);
	json_t *q = tc_wait(&a, "ask");
	ck_assert_str_eq(json_string_value(json_object_get(q, "about")), "seat_held");
	ck_assert_int_eq(json_integer_value(json_object_get(q, "table")), tb);
	ck_assert_int_eq(json_integer_value(json_object_get(q, "seat")), 1);
	ck_assert_msg(strstr(json_string_value(json_object_get(q, "text")), "place 2") != NULL, "not in French: %s",
	              json_string_value(json_object_get(q, "text")));
	ck_assert_int_eq(count_type(&a, "created"), 0);
	/* Given up: made, Anne at it, her seat at south's table a bot's. */
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,\"seats\":%s,\"give_up\":true}", four);
	long ta = (long)json_integer_value(json_object_get(tc_wait(&a, "created"), "table"));
	struct seats_want moved = { &y, "Anne", { tb, ta }, { -1, 0 }, 2, -1 };
	pump(all, 4, seats_are, &moved, "Anne's seat at south's table given up, her seat at her new one");
	char key[128];
	seat_key("Anne", key, sizeof key);
	char want_key[128];
	snprintf(want_key, sizeof want_key, "%ld north-seat", ta);
	ck_assert_str_eq(key, want_key);
	/* Her table in play on north; a sit at a table of south: asked by
	 * north, nothing relayed. */
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", ta);
	struct want north_playing = { (struct tc *[]){ &y }, 1, NULL, 0, ta, "playing", NULL };
	pump(all, 4, everyone, &north_playing, "north's table in play, in south's lobby");
	long tb2 = tc_create(&y, "brouc", 4, four, NULL);
	tc_send(&y, "{\"type\":\"stand\",\"table\":%ld}", tb2);
	tc_send(&y, "{\"type\":\"lobby_query\",\"follow\":true}");
	struct want listed2 = { (struct tc *[]){ &z }, 1, NULL, 0, tb2, "waiting", NULL };
	pump(all, 4, everyone, &listed2, "south's second table in north's lobby");
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld,\"seat\":1}", tb2);
	q = tc_wait(&a, "ask");
	ck_assert_int_eq(json_integer_value(json_object_get(q, "table")), ta);
	ck_assert_int_eq(json_integer_value(json_object_get(q, "seat")), 0);
	/* Given up: seated at south's, her seat at north's a bot's. */
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld,\"seat\":1,\"give_up\":true}", tb2);
	struct seats_want moved2 = { &z, "Anne", { ta, tb2 }, { -1, 1 }, 2, -1 };
	pump(all, 4, seats_are, &moved2, "Anne's seat at north's table given up, her seat at south's");
	/* Two sits at once, one on each node (tables waiting: the seat left
	 * is given up without a question): one seat in the end. */
	long tc1 = tc_create(&z, "brouc", 4, four, NULL);
	tc_send(&z, "{\"type\":\"stand\",\"table\":%ld}", tc1);
	long td = tc_create(&y, "brouc", 4, four, NULL);
	tc_send(&y, "{\"type\":\"stand\",\"table\":%ld}", td);
	tc_send(&z, "{\"type\":\"lobby_query\",\"follow\":true}");
	tc_send(&y, "{\"type\":\"lobby_query\",\"follow\":true}");
	struct seats_want listed3 = { &z, "Anne", { tc1, td }, { -3, -3 }, 2, 0 };
	pump(all, 4, seats_are, &listed3, "both new tables in north's lobby");
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld,\"seat\":2}", tc1);
	tc_send(&a, "{\"type\":\"sit\",\"table\":%ld,\"seat\":2}", td);
	struct seats_want one = { &z, "Anne", { tb2, tc1, td }, { -3, -3, -3 }, 3, 1 };
	pump(all, 4, seats_are, &one, "one seat after two sits at once");
	for (int k = 0; k < 100; k++) /* and still one a moment later */
		for (int i = 0; i < 4; i++)
			netc_service(all[i]->c, 5);
	ck_assert(seats_are(&one));
	struct seats_want one_south = { &y, "Anne", { tb2, tc1, td }, { -3, -3, -3 }, 3, 1 };
	pump(all, 4, seats_are, &one_south, "one seat, as south lists them");
	tc_free(&a);
	tc_free(&b);
	tc_free(&z);
	tc_free(&y);
	nodes_stop(s);
}
END_TEST

/* A person coming back bound for a table of their own is not taken back
 * to another node's table. A node lost frees its seats' keys: the node
 * that takes a table of it over takes them again, and the seat is still
 * asked about there. */
START_TEST(test_seat_node_lost)
{
	struct srv s[NODES];
	nodes_start(s, "seatlost");
	static struct tc a, c, o;
	tc_login(&a, &s[0], "Anne", "en", NULL);   /* on north */
	tc_login(&c, &s[2], "Carl", "en", NULL);   /* on east */
	tc_login(&o, &s[0], "Olga", "en", NULL);   /* on north */
	long tn = tc_create(&o, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", NULL);
	tc_send(&o, "{\"type\":\"stand\",\"table\":%ld}", tn);
	tc_send(&o, "{\"type\":\"lobby_query\",\"follow\":true}");
	tc_send(&a, "{\"type\":\"lobby_query\",\"follow\":true}");
	long te = tc_create(&c, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	struct tc *both[] = { &a, &c };
	struct want listed = { both, 1, NULL, 0, te, "waiting", NULL };
	pump(both, 2, everyone, &listed, "east's table in north's lobby");
	tc_sit(&a, te, 1);
	tc_send(&c, "{\"type\":\"start\",\"table\":%ld}", te);
	char key[128], want_key[128];
	snprintf(want_key, sizeof want_key, "%ld east-seatlost", te);
	for (int i = 0; i < 200 && (seat_key("Anne", key, sizeof key), strcmp(key, want_key)); i++)
		netc_service(a.c, 5);
	ck_assert_str_eq(key, want_key);
	struct tc *olga[] = { &o };
	struct want playing = { olga, 1, NULL, 0, te, "playing", NULL };
	pump(olga, 1, everyone, &playing, "east's table in play, in north's lobby");
	/* Back on north bound for a table of her own (its hello says going):
	 * not taken back to east's table, asked at her create; then back
	 * there by the question's first choice. */
	char token[sizeof a.token];
	memcpy(token, a.token, sizeof token);
	tc_free(&a);
	snprintf(a.name, sizeof a.name, "Anne");
	snprintf(a.lang, sizeof a.lang, "en");
	a.seat = -1;
	a.acted_seq = -1;
	tc_connect(&a, &s[0]);
	tc_send(&a, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\",\"lang\":\"en\",\"token\":\"%s\","
	            "\"going\":true}", token);
	tc_wait(&a, "welcome");
	struct tc *anne[] = { &a };
	struct want listed_here = { anne, 1, NULL, 0, te, "playing", NULL };
	pump(anne, 1, everyone, &listed_here, "east's table in play, in Anne's lobby");
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,\"seats\":[\"open\",\"bot\",\"bot\",\"bot\"]}");
	json_t *q = tc_wait(&a, "ask");
	ck_assert_int_eq(json_integer_value(json_object_get(q, "table")), te);
	for (int i = 0; i < 100; i++) /* a lobby's round or more */
		netc_service(a.c, 5);
	ck_assert_int_eq(count_type(&a, "joined"), 0);
	ck_assert_int_eq(count_type(&a, "created"), 0);
	char *keep = json_dumps(json_object_get(json_array_get(json_object_get(q, "choices"), 0), "send"), JSON_COMPACT);
	tc_send(&a, "%s", keep);
	free(keep);
	json_t *j = tc_wait(&a, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), te);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 1);
	/* east killed: Anne told to connect again; the table taken over by
	 * north or south, which takes her key again. */
	kill(s[2].pid, SIGKILL);
	waitpid(s[2].pid, NULL, 0);
	tc_free(&c);
	/* Her key now names a table of north as east's: east lost, it holds
	 * nothing (else the table taken over would give her seat up, as one
	 * she left for another). */
	redisContext *rc = redisConnect("127.0.0.1", redis.port);
	ck_assert(rc && !rc->err);
	snprintf(want_key, sizeof want_key, "%ld east-seatlost", tn);
	redisReply *r = redisCommand(rc, "SET tapis:seat:Anne %s", want_key);
	ck_assert(r && r->type == REDIS_REPLY_STATUS);
	freeReplyObject(r);
	redisFree(rc);
	json_t *again = tc_wait(&a, "error");
	ck_assert_str_eq(json_string_value(json_object_get(again, "code")), "reconnect");
	memcpy(token, a.token, sizeof token);
	tc_free(&a);
	tc_hello(&a, &s[0], "Anne", "en", NULL, token);
	tc_wait(&a, "welcome");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		netc_service(a.c, 20);
		seat_key("Anne", key, sizeof key);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ck_assert_msg(t1.tv_sec - t0.tv_sec < 20, "Anne's key not taken again: %s", key);
	} while (!strcmp(key, want_key));
	char north[64], south[64];
	snprintf(north, sizeof north, "%ld north-seatlost", te);
	snprintf(south, sizeof south, "%ld south-seatlost", te);
	ck_assert_msg(!strcmp(key, north) || !strcmp(key, south), "Anne's key: %s", key);
	/* Her seat there still holds: a table made is asked about first
	 * (once north lists the table again, from its new node). */
	struct seats_want back = { &o, "Anne", { te }, { 1 }, 1, -1 };
	pump(olga, 1, seats_are, &back, "east's table listed again on north, Anne at her seat");
	tc_send(&a, "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,\"seats\":[\"open\",\"bot\",\"bot\",\"bot\"]}");
	q = tc_wait(&a, "ask");
	ck_assert_int_eq(json_integer_value(json_object_get(q, "table")), te);
	tc_free(&a);
	tc_free(&o);
	srv_stop(&s[0]);
	srv_stop(&s[1]);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s[2].dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cluster_net");
	TCase *tc = tcase_create("nodes");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lobby_across);
	tcase_add_test(tc, test_relay_game);
	tcase_add_test(tc, test_node_lost);
	tcase_add_test(tc, test_one_seat);
	tcase_add_test(tc, test_seat_node_lost);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	alarm(300);
	const char *ci = getenv("CI");
	int in_ci = ci && !strcmp(ci, "true");
	if (redistmp_start(&redis) < 0) {
		fprintf(stderr, "check_cluster_net: SKIPPED: no redis-server to start%s\n", in_ci ? " (CI: a failure)" : "");
		return in_ci ? EXIT_FAILURE : 77;
	}
	char why[256];
	int pg_state = pgtmp_start(&pg, why, sizeof why);
	if (pg_state <= 0) {
		redistmp_stop(&redis);
		if (pg_state == 0 && !pgtmp_missing_fails(why))
			return 77;
		fprintf(stderr, "check_cluster_net: PostgreSQL: %s\n", why);
		return EXIT_FAILURE;
	}
	int rc = tu_run(suite());
	pgtmp_stop(&pg);
	redistmp_stop(&redis);
	return rc;
}
