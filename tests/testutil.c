/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "core/action.h"
#include "core/paths.h"

const struct bot_ops *tu_bot(const struct game_ops *g)
{
	const struct registry_game *e = registry_find(g->name);
	ck_assert_ptr_nonnull(e);
	return e->bot;
}

/* A suite run by hand (build/tests/check_X, from anywhere) finds what
 * tests/run.sh gives it: the source tree as its data and working
 * directory, the catalogues built beside it and the program. A variable
 * already set is kept. */
static void tu_find_tree(void)
{
	char top[PATHS_MAX + PATHS_MORE], build[PATHS_MAX + PATHS_MORE];
	if (paths_tree(NULL, top, sizeof top, build, sizeof build) < 0)
		return;
	char p[2 * PATHS_MAX];
	char *abs = realpath(top, NULL);
	if (!abs)
		return;
	setenv("TAPIS_DATADIR", abs, 0);
	snprintf(p, sizeof p, "%s/locale", build);
	char *loc = realpath(p, NULL);
	if (loc)
		setenv("TAPIS_LOCALEDIR", loc, 0);
	snprintf(p, sizeof p, "%s/tapis", build);
	char *bin = realpath(p, NULL);
	if (bin)
		setenv("TAPIS_BIN", bin, 0);
	if (chdir(abs) < 0)
		perror(abs);
	free(abs);
	free(loc);
	free(bin);
}

int tu_run(Suite *s)
{
	tu_find_tree();
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void tu_events_init(struct tu_events *ev)
{
	memset(ev, 0, sizeof *ev);
}

void tu_events_release(struct tu_events *ev)
{
	free(ev->e);
	memset(ev, 0, sizeof *ev);
}

static void capture(void *ctx, const struct event *e)
{
	struct tu_events *ev = ctx;
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? ev->cap * 2 : 64;
		ev->e = realloc(ev->e, (size_t)ev->cap * sizeof *ev->e);
		ck_assert_ptr_nonnull(ev->e);
	}
	ev->e[ev->n++] = *e;
}

struct sink tu_events_sink(struct tu_events *ev)
{
	struct sink s = { capture, ev };
	return s;
}

int tu_events_find(const struct tu_events *ev, int type, int from)
{
	for (int i = from < 0 ? 0 : from; i < ev->n; i++)
		if (ev->e[i].type == type)
			return i;
	return -1;
}

int tu_events_count(const struct tu_events *ev, int type)
{
	int n = 0;
	for (int i = 0; i < ev->n; i++)
		n += ev->e[i].type == type;
	return n;
}

void tu_game_init(struct tu_game *t, const char *game, int players, int dealer,
                  uint64_t seed, const char *const *rules)
{
	memset(t, 0, sizeof *t);
	t->g = registry_ops(game);
	ck_assert_msg(t->g != NULL, "no game %s", game);
	rules_init(&t->rules, t->g->rules, t->g->nrules);
	char err[256];
	for (int i = 0; rules && rules[i]; i++)
		ck_assert_msg(rules_set_arg(&t->rules, rules[i], err, sizeof err) == 0, "%s", err);
	t->st = calloc(1, t->g->state_size);
	ck_assert_ptr_nonnull(t->st);
	tu_events_init(&t->ev);
	struct game_setup setup = { players, dealer, seed, &t->rules, NULL };
	ck_assert_msg(t->g->init(t->st, &setup, err, sizeof err) == 0, "init: %s", err);
	ck_assert_int_eq(game_players(t->st), players);
}

void tu_game_stack(struct tu_game *t, const char *deck_text)
{
	/* Re-initialise with the packs: the stack is part of the setup. */
	struct deckstack *ds = calloc(1, sizeof *ds);
	ck_assert_ptr_nonnull(ds);
	const char *p = deck_text;
	int pack = 0;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		if (*p == '#') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '-' && p[1] == '-') {
			pack++;
			p += 2;
			continue;
		}
		card_t c;
		size_t used = card_parse_prefix(p, &c);
		ck_assert_msg(used > 0, "bad card in stacked deck near '%.8s'", p);
		ds->cards[pack][ds->size[pack]++] = c;
		p += used;
	}
	ds->npacks = ds->size[pack] ? pack + 1 : pack;
	free(t->stack);
	t->stack = ds;
	int players = game_players(t->st);
	char err[256];
	struct game_setup setup = { players, t->g->dealer(t->st), 0, &t->rules, ds };
	memset(t->st, 0, t->g->state_size);
	ck_assert_msg(t->g->init(t->st, &setup, err, sizeof err) == 0, "init: %s", err);
}

void tu_game_start(struct tu_game *t)
{
	struct sink s = tu_events_sink(&t->ev);
	t->g->start(t->st, &s);
}

void tu_game_release(struct tu_game *t)
{
	free(t->st);
	free(t->stack);
	tu_events_release(&t->ev);
	memset(t, 0, sizeof *t);
}

int tu_game_try(struct tu_game *t, const char *text, struct refusal *why)
{
	struct action a;
	char err[128];
	ck_assert_msg(act_parse(text, &a, err, sizeof err) == 0, "%s: %s", text, err);
	struct sink s = tu_events_sink(&t->ev);
	struct refusal r;
	memset(&r, 0, sizeof r);
	int rc = t->g->apply(t->st, &a, &s, why ? why : &r);
	return rc;
}

void tu_game_script(struct tu_game *t, const char *lines)
{
	const char *p = lines;
	int lineno = 0;
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)len, p);
		p += len + (end ? 1 : 0);
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *q = line;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!*q)
			continue;
		char *rest;
		long seat = strtol(q, &rest, 10);
		ck_assert_msg(rest != q, "script line %d: no seat: %s", lineno, line);
		int to_act = t->g->to_act(t->st);
		ck_assert_msg(to_act == seat, "script line %d (%s): seat %d must act, not %ld",
		              lineno, q, to_act, seat);
		struct refusal why;
		memset(&why, 0, sizeof why);
		ck_assert_msg(tu_game_try(t, rest, &why) == 0, "script line %d (%s): refused, code %d",
		              lineno, q, why.code);
	}
}

/* ---- the referee ---- */

/* A stable fingerprint of an event (every field a consumer reads). */
static uint64_t ev_hash(const struct event *e, uint64_t h)
{
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3ULL)
	MIX(e->type); MIX(e->seat); MIX(e->visible); MIX(e->act.kind); MIX(e->act.amount);
	for (int i = 0; i < e->act.ncards; i++) MIX(e->act.cards[i]);
	MIX(e->amount); MIX(e->from); MIX(e->to); MIX(e->code); MIX(e->value);
	MIX(e->hand); MIX(e->dealer); MIX(e->winner); MIX(e->winners); MIX(e->points); MIX(e->pot);
	MIX(e->nvalues);
	for (int i = 0; i < e->nvalues; i++) MIX(e->values[i]);
	MIX(e->ncards);
	for (int i = 0; i < e->ncards; i++) { MIX(e->cards[i]); MIX(e->card_seat[i]); }
	MIX(e->ncards2);
	for (int i = 0; i < e->ncards2; i++) MIX(e->cards2[i]);
	MIX(e->reason); MIX(e->what); MIX(e->note);
#undef MIX
	return h;
}

struct hasher {
	uint64_t h;
	long n;
};

static void hash_emit(void *ctx, const struct event *e)
{
	struct hasher *hs = ctx;
	hs->h = ev_hash(e, hs->h);
	hs->n++;
}

long tu_referee(const char *game, int players, const char *const *rules,
                int games, int level, uint64_t seed, long max_actions)
{
	const struct game_ops *g = registry_ops(game);
	ck_assert_msg(g != NULL, "no game %s", game);
	if (max_actions <= 0)
		max_actions = 100000;
	long total = 0;
	void *st = malloc(g->state_size), *clone = malloc(g->state_size), *replay = malloc(g->state_size);
	struct action *log = malloc(sizeof *log * (size_t)max_actions);
	ck_assert(st && clone && replay && log);
	for (int k = 0; k < games; k++) {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		char err[256];
		for (int i = 0; rules && rules[i]; i++)
			ck_assert_msg(rules_set_arg(&r, rules[i], err, sizeof err) == 0, "%s", err);
		struct rules r2 = r;
		uint64_t gseed = rng_derive(seed, (uint64_t)k);
		struct game_setup setup = { players, -1, gseed, &r, NULL };
		memset(st, 0, g->state_size);
		ck_assert_msg(g->init(st, &setup, err, sizeof err) == 0, "%s: %s", game, err);
		struct hasher h1 = { 1469598103934665603ULL, 0 };
		struct sink s1 = { hash_emit, &h1 };
		g->start(st, &s1);
		struct rng brng;
		rng_seed(&brng, rng_derive(gseed, 99));
		long n = 0;
		char aerr[256];
		ck_assert_msg(g->audit(st, aerr, sizeof aerr) == 0, "%s seed %llu at start: %s", game,
		              (unsigned long long)gseed, aerr);
		while (g->to_act(st) >= 0) {
			ck_assert_msg(n < max_actions, "%s: game did not end in %ld actions", game, max_actions);
			struct action legal[GAME_MAX_LEGAL];
			int nl = g->legal(st, legal, GAME_MAX_LEGAL);
			ck_assert_msg(nl > 0, "%s seed %llu action %ld: no legal action", game,
			              (unsigned long long)gseed, n);
			struct action a;
			bot_choose(g, tu_bot(g), st, level, &brng, &a);
			memcpy(clone, st, g->state_size);
			struct hasher hc = { 7, 0 }, ho = { 7, 0 };
			struct sink sc = { hash_emit, &hc }, so = { hash_emit, &ho };
			struct refusal why;
			char txt[ACT_STR_MAX];
			ck_assert_msg(g->apply(st, &a, &so, &why) == 0, "%s seed %llu action %ld: legal %s refused (%d)",
			              game, (unsigned long long)gseed, n, act_format(&a, txt, sizeof txt), why.code);
			ck_assert_msg(g->apply(clone, &a, &sc, &why) == 0, "clone refused");
			ck_assert_msg(hc.h == ho.h && hc.n == ho.n, "%s: clone emitted other events", game);
			ck_assert_msg(memcmp(clone, st, g->state_size) == 0, "%s: clone differs after %ld", game, n);
			h1.h = ev_hash(&(struct event){ .type = -1, .seat = n }, h1.h) ^ ho.h;
			log[n++] = a;
			ck_assert_msg(g->audit(st, aerr, sizeof aerr) == 0, "%s seed %llu after action %ld (%s): %s",
			              game, (unsigned long long)gseed, n, act_format(&a, txt, sizeof txt), aerr);
		}
		/* Replay from the same setup. */
		struct game_setup setup2 = { players, -1, gseed, &r2, NULL };
		memset(replay, 0, g->state_size);
		ck_assert(g->init(replay, &setup2, err, sizeof err) == 0);
		struct hasher h2 = { 1469598103934665603ULL, 0 };
		struct sink s2 = { hash_emit, &h2 };
		g->start(replay, &s2);
		for (long i = 0; i < n; i++) {
			struct hasher hr = { 7, 0 };
			struct sink sr = { hash_emit, &hr };
			struct refusal why;
			ck_assert_msg(g->apply(replay, &log[i], &sr, &why) == 0, "replay refused action %ld", i);
			h2.h = ev_hash(&(struct event){ .type = -1, .seat = i }, h2.h) ^ hr.h;
		}
		ck_assert_msg(h1.h == h2.h, "%s: replay emitted other events", game);
		ck_assert_msg(memcmp(replay, st, g->state_size) == 0, "%s: replay ended in another state", game);
		total += n;
	}
	free(st);
	free(clone);
	free(replay);
	free(log);
	return total;
}

void tu_referee_game(struct tu_game *t, const char *game, int players, const char *const *rules,
                     int level, uint64_t seed)
{
	uint64_t gseed = rng_derive(seed, 0);
	tu_game_init(t, game, players, -1, gseed, rules);
	tu_game_start(t);
	struct rng brng;
	rng_seed(&brng, rng_derive(gseed, 99));
	struct sink none = { NULL, NULL };
	while (t->g->to_act(t->st) >= 0) {
		struct action a;
		struct refusal why;
		bot_choose(t->g, tu_bot(t->g), t->st, level, &brng, &a);
		ck_assert(t->g->apply(t->st, &a, &none, &why) == 0);
	}
}
