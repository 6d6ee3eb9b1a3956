/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Phrased once for each kind of listener: at a table of Bourré, two
 * players in two languages, bots, and spectators of three kinds (English,
 * French, English in short). Each action is phrased once for every kind
 * present (the host's count), members of one kind receive the same bytes,
 * kinds that differ in seat, language or verbosity are phrased apart, a
 * spectator coming to a kind already here costs no phrasing and gets its
 * latest state, a spectator never receives a seat's hand, and a refusal
 * goes to the refused player alone. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "i18n/i18n.h"
#include "bots/bot.h"
#include "core/rng.h"
#include "net/server/host.h"
#include "net/store/store.h"
#include "testutil.h"

#define CONNS 8
#define KEPT 20000

/* What each connection received, as sent. */
struct wire {
	char *msg[CONNS][KEPT];
	int n[CONNS];
};

static void on_send(void *ctx, long conn, char *text)
{
	struct wire *w = ctx;
	ck_assert(conn >= 0 && conn < CONNS);
	if (w->n[conn] < KEPT)
		w->msg[conn][w->n[conn]++] = text;
	else
		free(text);
}

static void wire_free(struct wire *w)
{
	for (int c = 0; c < CONNS; c++)
		for (int i = 0; i < w->n[c]; i++)
			free(w->msg[c][i]);
	memset(w->n, 0, sizeof w->n);
}

/* 1 when connections a and b received the same messages, byte for byte,
 * from message from_a and from_b on. */
static int same_bytes(const struct wire *w, int a, int from_a, int b, int from_b)
{
	if (w->n[a] - from_a != w->n[b] - from_b)
		return 0;
	for (int i = 0; i < w->n[a] - from_a; i++)
		if (strcmp(w->msg[a][from_a + i], w->msg[b][from_b + i]) != 0)
			return 0;
	return 1;
}

static const struct host_config cfg = { 600000, 0, NULL, 0, 600000, 0, 0, NULL, NULL, NULL, 0 };

enum { ANNE = 1, BRUNO, CLEO, DAN, EVE, FAY, GUS };

static struct host h;
static struct wire w;
static struct store st;

/* Bourré for four: Anne (French) at seat 0, Bruno (English) at seat 1,
 * bots at 2 and 3; Cleo and Dan watch in English, Eve in French, Fay in
 * English with short announcements. */
static void table_up(void)
{
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", NULL, err, sizeof err), 0);
	const struct game_ops *g = registry_ops("bourre");
	ck_assert_ptr_nonnull(g);
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	struct net_out out = { .send = on_send, .ctx = &w };
	ck_assert_msg(host_create(&h, 1, g, 4, &r, 4242, HOST_SEED_OPERATOR, "Anne", &st, &cfg, out, err,
	                          sizeof err) == 0, "%s", err);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(host_set_seat(&h, s, s < 2, 1, NULL, err, sizeof err), 0);
	ck_assert_msg(host_join(&h, "Anne", "fr", ANNE, 0, 1000, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_join(&h, "Bruno", "en", BRUNO, 1, 1000, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_join(&h, "Cleo", "en", CLEO, -1, 1000, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_join(&h, "Dan", "en", DAN, -1, 1000, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_join(&h, "Eve", "fr", EVE, -1, 1000, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_join(&h, "Fay", "en", FAY, -1, 1000, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(host_verbosity(&h, "Fay", TALK_SHORT, 0), 0);
	ck_assert_msg(host_start(&h, 1000, NULL, err, sizeof err) == 0, "%s", err);
}

/* One move: a player's (a bot's choice made for them) or a bot's. 0 when
 * the game is over. */
static int one_move(long long *now)
{
	int s = table_to_act(&h.t);
	if (s < 0)
		return 0;
	if (s < 2 && table_awaits(&h.t, s)) {
		struct action a;
		struct rng rng;
		rng_seed(&rng, (uint64_t)table_moves(&h.t) + 1);
		bot_choose(h.g, tu_bot(h.g), h.t.st, 1, &rng, &a);
		ck_assert_int_eq(host_action(&h, s == 0 ? "Anne" : "Bruno", &a, *now), 0);
	} else {
		*now += 10;
		host_tick(&h, *now);
	}
	return 1;
}

/* 1 when some message of a differs from b's at the same place. */
static int differ(int a, int b)
{
	return !same_bytes(&w, a, 0, b, 0);
}

START_TEST(test_phrased_once_per_kind)
{
	table_up();
	/* Anne's seat, Bruno's, and three kinds of spectator. */
	ck_assert_int_eq(h.nkinds, 5);
	long long now = 1000;
	int moves = 0, gus_from = -1;
	while (moves < 400) {
		int before = table_moves(&h.t);
		unsigned long phrased = h.phrasings;
		if (!one_move(&now))
			break;
		if (table_moves(&h.t) == before)
			continue;
		moves++;
		/* One phrasing for each kind present, not for each member. */
		ck_assert_uint_eq(h.phrasings - phrased, (unsigned long)h.nkinds);
		if (moves == 20) {
			/* A spectator of a kind already here: no phrasing, its state. */
			char err[256];
			int kinds = h.nkinds;
			phrased = h.phrasings;
			ck_assert_int_eq(host_join(&h, "Gus", "en", GUS, -1, now, err, sizeof err), 0);
			ck_assert_int_eq(h.nkinds, kinds);
			ck_assert_uint_eq(h.phrasings, phrased);
			ck_assert_int_eq(w.n[GUS], 1);
			ck_assert_str_eq(w.msg[GUS][0], w.msg[CLEO][w.n[CLEO] - 1]);
			gus_from = w.n[CLEO];
		}
	}
	ck_assert_int_ge(moves, 40);
	ck_assert_int_ge(gus_from, 0);
	/* One kind, the same bytes; Gus from the move he came. */
	ck_assert(w.n[CLEO] > 100);
	ck_assert(same_bytes(&w, CLEO, 0, DAN, 0));
	ck_assert(same_bytes(&w, CLEO, gus_from, GUS, 1));
	/* Kinds apart: seat, language, verbosity. */
	ck_assert(differ(ANNE, BRUNO));
	ck_assert(differ(CLEO, EVE));
	ck_assert(differ(CLEO, FAY));
	ck_assert(differ(ANNE, EVE));
	ck_assert(differ(BRUNO, CLEO));
	/* A spectator never holds a hand: no cards, no H key, in any state. */
	int states = 0;
	for (int c = CLEO; c <= GUS; c++)
		for (int i = 0; i < w.n[c]; i++) {
			json_t *o = json_loads(w.msg[c][i], 0, NULL);
			ck_assert_ptr_nonnull(o);
			if (!strcmp(json_string_value(json_object_get(o, "type")), "state")) {
				states++;
				ck_assert_int_eq(json_integer_value(json_object_get(o, "seat")), -1);
				ck_assert_uint_eq(json_array_size(json_object_get(o, "hand")), 0);
				ck_assert_ptr_null(json_object_get(json_object_get(o, "keys"), "H"));
			}
			json_decref(o);
		}
	ck_assert_int_gt(states, 100);
	host_free(&h);
	store_close(&st);
	wire_free(&w);
}
END_TEST

/* A refusal is the refused player's alone; a spectator changing verbosity
 * changes kind, and the kind left behind stays for the others. */
START_TEST(test_refusal_and_verbosity)
{
	table_up();
	long long now = 1000;
	while (!table_awaits(&h.t, 0) && table_to_act(&h.t) >= 0)
		one_move(&now);
	ck_assert(table_awaits(&h.t, 1) == 0);
	int n[CONNS];
	memcpy(n, w.n, sizeof n);
	struct action bad = { 0 };
	bad.kind = ACT_PLAY; /* no card: refused */
	ck_assert_int_eq(host_action(&h, "Anne", &bad, now), -1);
	ck_assert_int_eq(w.n[ANNE], n[ANNE] + 1);
	ck_assert_ptr_nonnull(strstr(w.msg[ANNE][n[ANNE]], "\"refused\""));
	for (int c = BRUNO; c <= FAY; c++)
		ck_assert_int_eq(w.n[c], n[c]);
	/* Dan goes short: Fay's kind; Cleo's stays. */
	ck_assert_int_eq(h.nkinds, 5);
	ck_assert_int_eq(host_verbosity(&h, "Dan", TALK_SHORT, 0), 0);
	ck_assert_int_eq(h.nkinds, 5);
	ck_assert_ptr_eq(host_member(&h, "Dan")->kind, host_member(&h, "Fay")->kind);
	ck_assert_ptr_ne(host_member(&h, "Dan")->kind, host_member(&h, "Cleo")->kind);
	/* Cleo goes short too: her kind goes with her. */
	ck_assert_int_eq(host_verbosity(&h, "Cleo", TALK_SHORT, 0), 0);
	ck_assert_int_eq(h.nkinds, 4);
	int from_d = w.n[DAN], from_f = w.n[FAY];
	for (int i = 0; i < 30; i++)
		one_move(&now);
	ck_assert_int_gt(w.n[FAY], from_f);
	ck_assert(same_bytes(&w, DAN, from_d, FAY, from_f));
	/* Leaving frees a kind left empty. */
	host_stand(&h, "Eve", 1);
	ck_assert_int_eq(h.nkinds, 3);
	host_free(&h);
	store_close(&st);
	wire_free(&w);
}
END_TEST

/* A language as a value: words looked up in it whatever the language in
 * force, which stays as it was. */
START_TEST(test_language_value)
{
	char err[256];
	ck_assert_msg(i18n_set_lang("en", err, sizeof err) == 0, "%s", err);
	const struct i18n_lang *fr = i18n_of("fr"), *en = i18n_of("en");
	ck_assert_str_eq(i18n_code(fr), "fr");
	ck_assert_str_eq(i18n_code(en), "en");
	ck_assert_str_eq(i18n_tr(fr, "Play resumes."), "Le jeu reprend.");
	ck_assert_str_eq(i18n_tr(en, "Play resumes."), "Play resumes.");
	ck_assert_str_eq(i18n_ntr(fr, "Hurry, %ld second left.", "Hurry, %ld seconds left.", 2),
	                 "Vite, encore %ld secondes.");
	ck_assert_str_eq(i18n_lang(), "en");
	ck_assert_str_eq(_("Play resumes."), "Play resumes.");
	/* And the other way round. */
	ck_assert_msg(i18n_set_lang("fr", err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(i18n_tr(en, "Play resumes."), "Play resumes.");
	ck_assert_str_eq(_("Play resumes."), "Le jeu reprend.");
	ck_assert_str_eq(i18n_lang(), "fr");
}
END_TEST

/* The table's words do not depend on the language in force: the same
 * game with English, then French in force sends every member the same
 * bytes. */
START_TEST(test_language_in_force_irrelevant)
{
	static struct wire first;
	char err[256];
	for (int round = 0; round < 2; round++) {
		ck_assert_msg(i18n_set_lang(round ? "fr" : "en", err, sizeof err) == 0, "%s", err);
		table_up();
		long long now = 1000;
		for (int i = 0; i < 200 && one_move(&now);)
			i++;
		ck_assert_str_eq(i18n_lang(), round ? "fr" : "en");
		if (!round) {
			first = w;
			memset(&w, 0, sizeof w);
		} else {
			for (int c = ANNE; c <= FAY; c++) {
				ck_assert_int_gt(w.n[c], 50);
				ck_assert_int_eq(w.n[c], first.n[c]);
				for (int k = 0; k < w.n[c]; k++)
					ck_assert_str_eq(w.msg[c][k], first.msg[c][k]);
			}
			wire_free(&first);
		}
		host_free(&h);
		store_close(&st);
		wire_free(&w);
	}
}
END_TEST

static Suite *kinds_suite(void)
{
	Suite *s = suite_create("kinds");
	TCase *tc = tcase_create("kinds");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_phrased_once_per_kind);
	tcase_add_test(tc, test_refusal_and_verbosity);
	tcase_add_test(tc, test_language_value);
	tcase_add_test(tc, test_language_in_force_irrelevant);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(kinds_suite());
}
