/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lobby's list as deltas (net/lobbylist through net/lobby), against a
 * real server in a child process: a client's copy (its snapshot and the
 * changes since) equals a fresh snapshot after random comings and goings;
 * a connection at a table hears nothing of the other tables; what a
 * client in the lobby receives for the actions at one table does not grow
 * with the number of tables; pages and filters bound the snapshot, and
 * hostile queries are refused or coalesced. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net/client/client.h"
#include "net/server/lobby.h"
#include "net/server/lobbylist.h"
#include "netutil.h"
#include "testutil.h"

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void service(struct tc **t, int n, int ms)
{
	for (long long end = now_ms() + ms; now_ms() < end;)
		for (int i = 0; i < n; i++)
			if (t[i]->c)
				netc_service(t[i]->c, 2);
}

static int count_type(const struct tc *t, const char *type)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += !strcmp(mtype(t->msg[i]), type);
	return n;
}

/* The bytes of the messages of the lobby's list t got from message from on. */
static size_t list_bytes(const struct tc *t, int from)
{
	size_t n = 0;
	for (int i = from; i < t->n; i++)
		if (!strcmp(mtype(t->msg[i]), "lobby") || !strcmp(mtype(t->msg[i]), "lobby_delta")) {
			char *x = json_dumps(t->msg[i], JSON_COMPACT);
			n += strlen(x);
			free(x);
		}
	return n;
}

/* Wait (at most 3 s) for a message of a type past the had t got before;
 * the last, or NULL. */
static json_t *next_after(struct tc *t, const char *type, int had)
{
	for (long long end = now_ms() + 3000; now_ms() < end && count_type(t, type) == had;)
		netc_service(t->c, 5);
	for (int i = t->n - 1; i >= 0 && count_type(t, type) > had; i--)
		if (!strcmp(mtype(t->msg[i]), type))
			return t->msg[i];
	return NULL;
}

/* A fresh snapshot of t's view (a lobby_query answered). */
static json_t *query(struct tc *t, const char *args)
{
	int had = count_type(t, "lobby");
	tc_send(t, "{\"type\":\"lobby_query\"%s}", args);
	return next_after(t, "lobby", had);
}

static int by_id(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "id"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "id"));
	return x < y ? -1 : x > y;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "name")),
	              json_string_value(json_object_get(*(json_t *const *)b, "name")));
}

/* 1 when two lists hold the same entries, in any order. */
static int same_list(json_t *a, json_t *b, int (*cmp)(const void *, const void *))
{
	size_t n = json_array_size(a);
	if (n != json_array_size(b))
		return 0;
	json_t **x = calloc(n + 1, sizeof *x), **y = calloc(n + 1, sizeof *y);
	for (size_t i = 0; i < n; i++)
		x[i] = json_array_get(a, i), y[i] = json_array_get(b, i);
	qsort(x, n, sizeof *x, cmp);
	qsort(y, n, sizeof *y, cmp);
	int same = 1;
	for (size_t i = 0; i < n && same; i++)
		same = json_equal(x[i], y[i]);
	free(x);
	free(y);
	return same;
}

/* Random comings and goings: people make tables, sit, leave (a waiting
 * table left by all its people is removed), log out and in again; a
 * client in the lobby all along holds the same list as a fresh snapshot. */
START_TEST(test_deltas_equal_snapshot)
{
	struct srv s;
	srv_start(&s);
	enum { N = 6 };
	static struct tc o, p[N];
	tc_login(&o, &s, "Olga", "en", NULL);
	char name[32];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "Player%d", i);
		tc_login(&p[i], &s, name, "en", NULL);
	}
	long at[N] = { 0 };   /* the table each is at (0: none) */
	unsigned seed = 23;
	struct tc *all[N + 1];
	for (int i = 0; i < N; i++)
		all[i] = &p[i];
	all[N] = &o;
	for (int op = 0; op < 40; op++) {
		int i = (int)(rand_r(&seed) % N);
		struct tc *t = &p[i];
		if (at[i]) {
			tc_send(t, "{\"type\":\"leave\",\"table\":%ld}", at[i]);
			tc_wait(t, "left");
			at[i] = 0;
		} else if (rand_r(&seed) % 5 == 0) {
			/* Out and back in, under the same name. */
			tc_free(t);
			snprintf(name, sizeof name, "Player%d", i);
			tc_login(t, &s, name, "en", NULL);
		} else {
			/* Sit at a table with an open seat, else make one. */
			long target = 0;
			for (int k = 0; k < N && !target; k++)
				if (at[k] && k != i) {
					int taken = 0;
					for (int m = 0; m < N; m++)
						taken += at[m] == at[k];
					if (taken < 2)
						target = at[k];
				}
			if (target && rand_r(&seed) % 2) {
				/* The seat left is 0 or 1: the open one. */
				tc_send(t, "{\"type\":\"sit\",\"table\":%ld}", target);
				tc_wait(t, "joined");
				at[i] = target;
			} else {
				at[i] = tc_create(t, rand_r(&seed) % 2 ? "brelan" : "bouillotte", 4,
				                  "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
			}
		}
		service(all, N + 1, rand_r(&seed) % 3 ? 0 : 120);
	}
	if (!at[0]) /* a table at least, to compare */
		tc_create(&p[0], "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	service(all, N + 1, 500);
	json_t *held = tc_lobby(&o);
	ck_assert_ptr_nonnull(held);
	ck_assert_int_gt(count_type(&o, "lobby_delta"), 5);
	json_t *fresh = query(&o, "");
	ck_assert_ptr_nonnull(fresh);
	ck_assert_int_gt(json_array_size(json_object_get(fresh, "tables")), 0);
	char *h = json_dumps(held, JSON_COMPACT), *f = json_dumps(fresh, JSON_COMPACT);
	ck_assert_msg(same_list(json_object_get(held, "tables"), json_object_get(fresh, "tables"), by_id),
	              "held %s\nfresh %s", h, f);
	ck_assert_msg(same_list(json_object_get(held, "users"), json_object_get(fresh, "users"), by_name),
	              "held %s\nfresh %s", h, f);
	ck_assert(json_equal(json_object_get(held, "online"), json_object_get(fresh, "online")));
	free(h);
	free(f);
	json_decref(held);
	for (int i = 0; i < N; i++)
		tc_free(&p[i]);
	tc_free(&o);
	srv_stop(&s);
}
END_TEST

/* 1 when t got (within 3 s) a lobby_event of a kind for a table. */
static int heard_event(struct tc *t, const char *event, long table)
{
	for (long long end = now_ms() + 3000;; netc_service(t->c, 5)) {
		for (int i = 0; i < t->n; i++)
			if (!strcmp(mtype(t->msg[i]), "lobby_event") &&
			    !strcmp(json_string_value(json_object_get(t->msg[i], "event")), event) &&
			    json_integer_value(json_object_get(t->msg[i], "table")) == table)
				return 1;
		if (now_ms() > end)
			return 0;
	}
}

/* Someone at a table hears nothing of the lobby's list while the other
 * tables change (those in the lobby do); back in the lobby, a snapshot. */
START_TEST(test_at_table_no_delta)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, c, o;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	tc_login(&o, &s, "Olga", "en", NULL);
	long mine = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	struct tc *all[] = { &a, &b, &c, &o };
	service(all, 4, 300);
	int deltas = count_type(&a, "lobby_delta"), lists = count_type(&a, "lobby");
	int heard = count_type(&o, "lobby_delta");
	long other = tc_create(&b, "bouillotte", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	service(all, 4, 250);
	tc_sit(&c, other, 1);
	service(all, 4, 250);
	tc_send(&b, "{\"type\":\"leave\",\"table\":%ld}", other);
	service(all, 4, 250);
	ck_assert_int_eq(count_type(&a, "lobby_delta"), deltas);
	ck_assert_int_eq(count_type(&a, "lobby"), lists);
	ck_assert_int_ge(count_type(&o, "lobby_delta") - heard, 3);
	/* Back in the lobby: the list as it is now. */
	lists = count_type(&a, "lobby");
	tc_send(&a, "{\"type\":\"leave\",\"table\":%ld}", mine);
	json_t *back = next_after(&a, "lobby", lists);
	for (int i = 0; !back && i < a.n; i++) {
		char *x = json_dumps(a.msg[i], JSON_COMPACT);
		fprintf(stderr, "Anne got %.300s\n", x);
		free(x);
	}
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(json_array_size(json_object_get(back, "tables")), 1);
	/* What Olga heard of it: the tables made, the one removed. */
	ck_assert(heard_event(&o, "table_new", other));
	ck_assert(heard_event(&o, "table_gone", mine));
	ck_assert(!heard_event(&o, "table_gone", other));
	/* Following the lobby from a table: asked for, given. */
	tc_sit(&a, other, 0);
	ck_assert_ptr_nonnull(query(&a, ",\"follow\":true"));
	deltas = count_type(&a, "lobby_delta");
	tc_create(&b, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	ck_assert_ptr_nonnull(next_after(&a, "lobby_delta", deltas));
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	tc_free(&o);
	srv_stop(&s);
}
END_TEST

/* Tables made by makers (4 each, the most a person may). */
static void make_tables(struct srv *s, struct tc *mk, int tables)
{
	char name[32];
	for (int t = 0; t < tables; t++) {
		if (t % LOBBY_TABLES_PER_PERSON == 0) {
			snprintf(name, sizeof name, "maker%d", t / LOBBY_TABLES_PER_PERSON);
			tc_login(&mk[t / LOBBY_TABLES_PER_PERSON], s, name, "en", NULL);
		}
		tc_create(&mk[t / LOBBY_TABLES_PER_PERSON], t % 3 ? "brelan" : "bouillotte", 4,
		          "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	}
}

enum { ACTIONS = 8, MAKERS_MAX = 40 };

/* The bytes of the lobby's list a client in the lobby receives while
 * someone sits down and stands up ACTIONS times at a table, the lobby
 * holding that table and tables others. */
static size_t bytes_for_actions(int tables)
{
	struct srv s;
	srv_make(&s);
	s.no_table_cap = 1;
	srv_run(&s);
	static struct tc l, a, b, mk[MAKERS_MAX];
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	long t = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	make_tables(&s, mk, tables);
	tc_login(&l, &s, "Lena", "en", NULL);
	struct tc *all[] = { &l, &a, &b };
	service(all, 3, 300);
	int from = l.n, deltas = count_type(&l, "lobby_delta");
	for (int k = 0; k < ACTIONS; k++) {
		int had = count_type(&l, "lobby_delta");
		tc_send(&b, "{\"type\":\"sit\",\"table\":%ld,\"seat\":1}", t);
		ck_assert_ptr_nonnull(next_after(&l, "lobby_delta", had));
		tc_send(&b, "{\"type\":\"stand\",\"table\":%ld}", t);
		ck_assert_ptr_nonnull(next_after(&l, "lobby_delta", had + 1));
	}
	service(all, 3, 300);
	/* One change of one table each: one entry each. */
	ck_assert_int_eq(count_type(&l, "lobby_delta") - deltas, 2 * ACTIONS);
	size_t bytes = list_bytes(&l, from);
	for (int i = 0; i < MAKERS_MAX; i++)
		tc_free(&mk[i]);
	tc_free(&l);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
	return bytes;
}

START_TEST(test_bytes_flat)
{
	size_t few = bytes_for_actions(4), many = bytes_for_actions(120);
	fprintf(stderr, "lobby bytes for %d actions: %zu with 5 tables, %zu with 121\n", 2 * ACTIONS, few, many);
	ck_assert_int_gt(few, 0);
	/* The same messages; only their numbers' digits may differ. */
	ck_assert_msg(many <= few + 2 * ACTIONS * 4 && few <= many + 2 * ACTIONS * 4, "%zu against %zu", many, few);
}
END_TEST

/* 1 when t already got a lobby_event of a kind for a table (no wait). */
static int got_event(struct tc *t, const char *event, long table)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(mtype(t->msg[i]), "lobby_event") &&
		    !strcmp(json_string_value(json_object_get(t->msg[i], "event")), event) &&
		    json_integer_value(json_object_get(t->msg[i], "table")) == table)
			return 1;
	return 0;
}

/* The lobby's news follow each one's list: a table's events reach those
 * whose page shows it, or has room for it and whose filter it matches. */
START_TEST(test_events_by_page)
{
	struct srv s;
	srv_make(&s);
	s.no_table_cap = 1;
	srv_run(&s);
	static struct tc a, f, p0, p1, mk[MAKERS_MAX];
	tc_login(&f, &s, "Olga", "en", NULL);
	ck_assert_ptr_nonnull(query(&f, ",\"filter\":\"bouillotte\""));
	tc_login(&a, &s, "Anne", "en", NULL);
	long br = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	long bo = tc_create(&a, "bouillotte", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	ck_assert(heard_event(&f, "table_new", bo));
	ck_assert(!got_event(&f, "table_new", br));
	/* Past a full page: those on it hear nothing of a table made, those
	 * on the last page (with room) do. */
	make_tables(&s, mk, LOBBYLIST_PAGE + 2);
	tc_login(&p0, &s, "Pia", "en", NULL);
	tc_login(&p1, &s, "Paul", "en", NULL);
	ck_assert_ptr_nonnull(query(&p0, ""));
	ck_assert_ptr_nonnull(query(&p1, ",\"page\":1"));
	struct tc *all[] = { &p0, &p1, &f };
	service(all, 3, 300);
	long last = tc_create(&a, "brelan", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	ck_assert(heard_event(&p1, "table_new", last));
	service(all, 3, 300);
	ck_assert(!got_event(&p0, "table_new", last));
	ck_assert(!got_event(&f, "table_new", last));
	for (int i = 0; i < MAKERS_MAX; i++)
		tc_free(&mk[i]);
	tc_free(&a);
	tc_free(&f);
	tc_free(&p0);
	tc_free(&p1);
	srv_stop(&s);
}
END_TEST

/* A page bounds the snapshot; a filter chooses; past the last page,
 * nothing; too high a page or too long a filter, refused; a flood of
 * queries, a snapshot a round. */
START_TEST(test_paging_and_hostile)
{
	struct srv s;
	srv_make(&s);
	s.no_table_cap = 1;
	srv_run(&s);
	enum { TABLES = 60 };
	static struct tc l, mk[TABLES / LOBBY_TABLES_PER_PERSON];
	make_tables(&s, mk, TABLES);
	tc_login(&l, &s, "Lena", "en", NULL);
	json_t *first = tc_wait(&l, "lobby");
	ck_assert_int_eq(json_array_size(json_object_get(first, "tables")), LOBBYLIST_PAGE);
	ck_assert_int_eq(json_integer_value(json_object_get(first, "total")), TABLES);
	ck_assert_int_eq(json_integer_value(json_object_get(first, "pages")), 2);
	json_t *two = query(&l, ",\"page\":1");
	ck_assert_int_eq(json_array_size(json_object_get(two, "tables")), TABLES - LOBBYLIST_PAGE);
	json_t *past = query(&l, ",\"page\":100000");
	ck_assert_int_eq(json_array_size(json_object_get(past, "tables")), 0);
	json_t *bou = query(&l, ",\"filter\":\"BOUILL\"");
	ck_assert_int_eq(json_array_size(json_object_get(bou, "tables")), TABLES / 3);
	ck_assert_int_eq(json_integer_value(json_object_get(bou, "total")), TABLES / 3);
	json_t *e;
	size_t k;
	json_array_foreach(json_object_get(bou, "tables"), k, e)
		ck_assert_str_eq(json_string_value(json_object_get(e, "game")), "bouillotte");
	/* Hostile: refused. */
	int errors = count_type(&l, "error");
	tc_send(&l, "{\"type\":\"lobby_query\",\"page\":100001}");
	tc_send(&l, "{\"type\":\"lobby_query\",\"page\":-1}");
	char longf[PROTO_FILTER_MAX + 2];
	memset(longf, 'x', sizeof longf - 1);
	longf[sizeof longf - 1] = '\0';
	tc_send(&l, "{\"type\":\"lobby_query\",\"filter\":\"%s\"}", longf);
	tc_send(&l, "{\"type\":\"lobby_query\",\"filter\":7}");
	struct tc *me[] = { &l };
	service(me, 1, 300);
	ck_assert_int_eq(count_type(&l, "error") - errors, 4);
	/* A flood: one snapshot a round at most, each a page. */
	int lists = count_type(&l, "lobby");
	long long t0 = now_ms();
	for (int i = 0; i < 40; i++)
		tc_send(&l, "{\"type\":\"lobby_query\"}");
	service(me, 1, 400);
	long long elapsed = now_ms() - t0;
	int got = count_type(&l, "lobby") - lists;
	ck_assert_int_ge(got, 1);
	ck_assert_msg(got <= elapsed / LOBBY_LIST_MS + 2, "%d snapshots in %lld ms", got, elapsed);
	for (int i = lists; i < l.n; i++)
		if (!strcmp(mtype(l.msg[i]), "lobby"))
			ck_assert_int_le(json_array_size(json_object_get(l.msg[i], "tables")), LOBBYLIST_PAGE);
	/* The people are counted, some named. */
	ck_assert_int_eq(json_integer_value(json_object_get(first, "online")), TABLES / LOBBY_TABLES_PER_PERSON + 1);
	ck_assert_int_le(json_array_size(json_object_get(first, "users")), LOBBYLIST_PEOPLE);
	for (int i = 0; i < TABLES / LOBBY_TABLES_PER_PERSON; i++)
		tc_free(&mk[i]);
	tc_free(&l);
	srv_stop(&s);
}
END_TEST

/* The deltas of a round made once for the views that show the same: each
 * view is sent, byte for byte, what it would be sent alone, and is left
 * as it would be, over rounds of tables made and gone and people come and
 * gone; views that differ (a filter, a page, tables held) get their own. */
START_TEST(test_deltas_shared)
{
	enum { NV = 6 };
	struct lobbylist_view alone[NV], shared[NV];
	memset(alone, 0, sizeof alone);
	for (int i = 0; i < NV; i++) {
		alone[i].seq = 10 * i;   /* the numbers of their messages apart */
		alone[i].listening = 1;
	}
	snprintf(alone[4].filter, sizeof alone[4].filter, "brouc");
	alone[5].page = 1;
	memcpy(shared, alone, sizeof shared);
	const char *names[] = { "Anne", "Bruno", "Chloé", "Denis" };
	long next = 1;
	int made = 0;
	for (int round = 0; round < 12; round++) {
		struct lobbylist_entry e[3];
		long gone[2];
		int ne = 0, ng = 0;
		for (int k = 0; k < 1 + round % 3; k++) {
			json_t *info = json_pack("{s:I, s:s, s:s, s:[]}", "id", (json_int_t)next, "game",
			                         next % 2 ? "brouc" : "bourre", "creator", names[next % 4], "seats");
			e[ne++] = (struct lobbylist_entry){ next++, NULL, info, 1 };
			made++;
		}
		if (round % 4 == 3)
			gone[ng++] = next - 4;
		struct lobbylist_person in[1] = { { names[round % 4], round % 2 } };
		const char *out[1] = { names[(round + 2) % 4] };
		struct lobbylist_round r = { e, ne, gone, ng, in, round % 3 != 2, out, round % 3 == 2, 3, made };
		/* A view that differs from the others midway. */
		if (round == 6) {
			alone[1].held[alone[1].nheld++] = 999;
			shared[1].held[shared[1].nheld++] = 999;
		}
		struct lobbylist_memo memo = { NULL, 0 };
		for (int i = 0; i < NV; i++) {
			char *a = lobbylist_delta(&alone[i], &r);
			char *b = lobbylist_delta_memo(&memo, &shared[i], &r);
			ck_assert_msg((a == NULL) == (b == NULL), "round %d, view %d: a delta on one side only", round, i);
			if (a)
				ck_assert_str_eq(a, b);
			ck_assert_int_eq(memcmp(&alone[i], &shared[i], sizeof alone[i]), 0);
			free(a);
			free(b);
		}
		/* Views 0, 2 and 3 alike: one delta made for them. */
		ck_assert_int_le(memo.n, NV - 2);
		lobbylist_memo_free(&memo);
		for (int k = 0; k < ne; k++)
			json_decref(e[k].info);
	}
}
END_TEST

static Suite *lobby_suite(void)
{
	Suite *s = suite_create("lobby");
	TCase *tc = tcase_create("deltas");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_deltas_equal_snapshot);
	tcase_add_test(tc, test_at_table_no_delta);
	tcase_add_test(tc, test_bytes_flat);
	tcase_add_test(tc, test_paging_and_hostile);
	tcase_add_test(tc, test_deltas_shared);
	tcase_add_test(tc, test_events_by_page);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	alarm(600);
	return tu_run(lobby_suite());
}
