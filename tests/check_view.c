/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Views of a table: the same events phrased for several listeners in their
 * own languages; no view ever names a card its seat could not see (checked
 * against what the events showed each seat, across whole games of every
 * game); a view attached in the middle of a game gets the state a view
 * attached from the start has; refusals; labels of amounts and discards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "app/local.h"
#include "app/registry.h"
#include "app/table.h"
#include "app/view.h"
#include "games/bourre.h"
#include "audio/audio.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "speech/speech.h"
#include "testutil.h"

#define MAX_SAID 4096

/* A recording sink. */
struct rec {
	struct view v;
	int nsaid;
	struct view_say *said;   /* the first MAX_SAID */
	long nsay, nupdate;
	/* The leak check, when set. */
	struct leak *leak;
};

static void rec_say(void *ctx, const struct view_say *m);
static void rec_update(void *ctx, const struct view_state *vs);

static void rec_open(struct rec *r, struct table *t, int seat, const char *lang)
{
	memset(r, 0, sizeof *r);
	r->said = calloc(MAX_SAID, sizeof *r->said);
	ck_assert(r->said != NULL);
	struct view_sink s = { rec_say, rec_update, r };
	char err[128];
	ck_assert_msg(view_init(&r->v, t, seat, lang, &s, err, sizeof err) == 0, "%s", err);
}

static void rec_close(struct rec *r)
{
	view_release(&r->v);
	free(r->said);
}

/* ---- what each seat may know ---- */

struct leak {
	const struct game_ops *g;
	int players;
	/* Cards seen, per listener (seat + 1; 0 the spectator), in this deal
	 * and the one before. */
	unsigned char now[GAME_MAX_SEATS + 1][256];
	unsigned char before[GAME_MAX_SEATS + 1][256];
	/* Every card's name in both languages. */
	int npack;
	card_t pack[CARD_MAX_PACK];
	char name[2][CARD_MAX_PACK][96];
	long checked;
	long trick_seen;        /* cards of tricks in progress checked */
	int spectator_heard;
};

static void see(unsigned char *known, const card_t *cards, int n)
{
	for (int i = 0; i < n; i++)
		known[cards[i]] = 1;
}

static void tap(void *ctx, const struct event *e)
{
	struct leak *l = ctx;
	for (int k = 0; k <= l->players; k++) {
		int seat = k - 1;
		if (e->type == EV_HAND_START) {
			memcpy(l->before[k], l->now[k], sizeof l->now[k]);
			memset(l->now[k], 0, sizeof l->now[k]);
			continue;   /* the pack's order is for the hand history */
		}
		if (!ev_visible_to(e, seat))
			continue;
		see(l->now[k], e->cards, e->ncards);
		see(l->now[k], e->cards2, e->ncards2);
		see(l->now[k], e->act.cards, e->act.ncards);
		if (e->type == EV_CHOICE && e->what == EV_WHAT_CARD)
			l->now[k][(card_t)e->value] = 1;
	}
}

/* name at p, ASCII letters in any case ("Queen" at a sentence's start). */
static int at(const char *p, const char *name, size_t n)
{
	return strncasecmp(p, name, n) == 0;
}

/* The card name found in text as words of their own, or NULL. */
static const char *named(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; *p; p++) {
		if (!at(p, name, n))
			continue;
		unsigned char before = p > text ? (unsigned char)p[-1] : ' ';
		unsigned char after = (unsigned char)p[n];
		int word_start = !(before >= 'a' && before <= 'z') && !(before >= 'A' && before <= 'Z') && before < 0x80;
		int word_end = !(after >= 'a' && after <= 'z') && !(after >= 'A' && after <= 'Z') && after < 0x80;
		if (word_start && word_end)
			return p;
	}
	return NULL;
}

static void check_text(const struct rec *r, const char *text, const char *what)
{
	struct leak *l = r->leak;
	int k = r->v.seat + 1;
	int fr = strcmp(r->v.lang, "fr") == 0;
	for (int i = 0; i < l->npack; i++) {
		card_t c = l->pack[i];
		if (l->now[k][c] || l->before[k][c])
			continue;
		ck_assert_msg(!named(text, l->name[fr][i]),
		              "%s: seat %d (%s) hears '%s', not seen, in %s: \"%s\"", l->g->name, r->v.seat,
		              r->v.lang, l->name[fr][i], what, text);
	}
	l->checked++;
}

static void rec_say(void *ctx, const struct view_say *m)
{
	struct rec *r = ctx;
	if (r->nsaid < MAX_SAID)
		r->said[r->nsaid++] = *m;
	r->nsay++;
	if (r->leak) {
		check_text(r, m->text, "an announcement");
		if (r->v.seat < 0 && m->text[0])
			r->leak->spectator_heard = 1;
	}
}

static void rec_update(void *ctx, const struct view_state *vs)
{
	struct rec *r = ctx;
	r->nupdate++;
	if (!r->leak)
		return;
	char what[32];
	for (int k = 0; k < VIEW_NQUERY; k++) {
		snprintf(what, sizeof what, "key %c", VIEW_QUERY_KEYS[k]);
		check_text(r, vs->answer[k], what);
	}
	check_text(r, vs->hand_text, "key H");
	check_text(r, vs->prompt, "the prompt");
	for (int i = 0; i < vs->nhand; i++)
		check_text(r, vs->hand[i].name, "the hand");
	for (int i = 0; i < vs->nchoices; i++)
		check_text(r, vs->choice[i].label, "a choice");
	for (int i = 0; i < vs->nvariants; i++)
		check_text(r, vs->variant[i], "an amount or discard label");
	if (r->v.seat < 0)
		ck_assert_int_eq(vs->nhand, 0);
	/* The trick in progress: cards the listener saw played, by seats of
	 * the table, each seat once; every seat tagged, no two alike. */
	int k = r->v.seat + 1, played[GAME_MAX_SEATS] = { 0 };
	ck_assert_int_le(vs->ntrick, vs->players);
	for (int i = 0; i < vs->ntrick; i++) {
		int s = vs->trick_seat[i];
		ck_assert_int_ge(s, 0);
		ck_assert_int_lt(s, vs->players);
		ck_assert_int_eq(played[s]++, 0);
		ck_assert_msg(r->leak->now[k][vs->trick_card[i]], "%s: seat %d sees an unseen card in the trick",
		              r->leak->g->name, r->v.seat);
		r->leak->trick_seen++;
	}
	for (int s = 0; s < vs->players; s++) {
		ck_assert(vs->tag[s][0]);
		for (int o = 0; o < s; o++)
			ck_assert_str_ne(vs->tag[s], vs->tag[o]);
	}
}

/* The seats' tags: the fewest first letters that tell the names apart. */
START_TEST(tags_tell_seats_apart)
{
	char tag[GAME_MAX_SEATS][VIEW_TAG_MAX];
	const char *a[5] = { "you", "Bruno", "Claire (bot)", "Colin", "claude" };
	view_tags(a, 5, tag);
	ck_assert_str_eq(tag[0], "Y");
	ck_assert_str_eq(tag[1], "B");
	ck_assert_str_eq(tag[2], "Clai");
	ck_assert_str_eq(tag[3], "Co");
	ck_assert_str_eq(tag[4], "Clau");
	const char *b[4] = { "vous", "Élodie", "Élise", "Anne-Marie Dupont" };
	view_tags(b, 4, tag);
	ck_assert_str_eq(tag[0], "V");
	ck_assert_str_eq(tag[1], "Élo");
	ck_assert_str_eq(tag[2], "Éli");
	ck_assert_str_eq(tag[3], "A");
	/* Alike in four letters: the seat's number too. */
	const char *c[3] = { "Sam", "Sam", "Samuel" };
	view_tags(c, 3, tag);
	ck_assert_str_eq(tag[0], "Sam1");
	ck_assert_str_eq(tag[1], "Sam2");
	ck_assert_str_eq(tag[2], "Samu");
}
END_TEST

/* ---- tables ---- */

static void options(struct table_options *o, const struct game_ops *g, int players, uint64_t seed, int hands)
{
	memset(o, 0, sizeof *o);
	o->game = g;
	o->players = players;
	o->dealer = -1;
	o->seed = seed;
	rules_init(&o->rules, g->rules, g->nrules);
	char err[256], v[16];
	if (hands && rules_index(&o->rules, "hands") >= 0) {
		snprintf(v, sizeof v, "%d", hands);
		ck_assert_msg(rules_set(&o->rules, "hands", v, err, sizeof err) == 0, "%s", err);
	}
	for (int s = 0; s < players; s++) {
		o->seat_kind[s] = SEAT_BOT;
		o->bot_level[s] = 1;
	}
}

static void open_table(struct table *t, const struct table_options *o)
{
	char err[512];
	ck_assert_msg(table_open(t, o, err, sizeof err) == 0, "%s", err);
}

static void step(struct table *t)
{
	char err[512];
	ck_assert_msg(table_auto_step(t, err, sizeof err) == 0, "%s", err);
}

/* The same events, for one seat in English and in French. */
START_TEST(two_languages)
{
	char err[128];
	i18n_set_lang("en", err, sizeof err);
	const struct game_ops *g = registry_ops("brouc");
	struct table_options o;
	options(&o, g, 4, 11, 0);
	o.dealer = 2;
	struct table t;
	open_table(&t, &o);
	struct rec en, fr;
	rec_open(&en, &t, 0, "en");
	rec_open(&fr, &t, 0, "fr");
	table_start(&t);
	for (int i = 0; i < 20 && table_to_act(&t) >= 0; i++)
		step(&t);
	ck_assert_str_eq(i18n_lang(), "en");   /* the language in force is given back */
	ck_assert_int_gt(en.nsaid, 3);
	ck_assert_int_eq(en.nsaid, fr.nsaid);
	ck_assert_str_eq(en.said[0].text, "Le Brouc, 4 players. You play with Claire against Bruno and Denis.");
	ck_assert_str_eq(fr.said[0].text, "Le Brouc, 4 joueurs. Vous jouez avec Claire contre Bruno et Denis.");
	ck_assert_msg(strncmp(en.said[1].text, "Deal 1. ", 8) == 0, "%s", en.said[1].text);
	ck_assert_msg(strncmp(fr.said[1].text, "Donne 1. ", 9) == 0, "%s", fr.said[1].text);
	int differ = 0;
	for (int i = 0; i < en.nsaid; i++) {
		/* The same event: the same cue from the same seat. */
		ck_assert_int_eq(en.said[i].cue, fr.said[i].cue);
		ck_assert_int_eq(en.said[i].seat, fr.said[i].seat);
		ck_assert_int_eq(en.said[i].kind, fr.said[i].kind);
		differ += strcmp(en.said[i].text, fr.said[i].text) != 0;
	}
	ck_assert_int_gt(differ, en.nsaid / 2);
	const struct view_state *a = view_state(&en.v), *b = view_state(&fr.v);
	ck_assert_int_eq(a->nhand, b->nhand);
	ck_assert_msg(strncmp(a->hand_text, "Your ", 5) == 0, "%s", a->hand_text);
	ck_assert_msg(strncmp(b->hand_text, "Vo", 2) == 0, "%s", b->hand_text);
	for (int i = 0; i < a->nhand; i++) {
		ck_assert_int_eq(a->hand[i].card, b->hand[i].card);
		ck_assert_str_ne(a->hand[i].name, b->hand[i].name);
	}
	rec_close(&en);
	rec_close(&fr);
	table_close(&t);
}
END_TEST

/* A French title after "de" contracts in the view itself, so that a network
 * client hears it as a local player does. */
START_TEST(french_titles_contract)
{
	char err[128];
	ck_assert_int_eq(i18n_set_lang("fr", err, sizeof err), 0);
	const struct game_ops *g = registry_ops("brelan");
	struct table_options o;
	options(&o, g, 3, 5, 0);
	struct table t;
	open_table(&t, &o);
	struct rec fr;
	rec_open(&fr, &t, 0, "fr");
	int n = fr.nsaid;
	view_tell(&fr.v, VIEW_SAY_SYSTEM, "Une partie de Le Brelan vous attend.");
	view_tell(&fr.v, VIEW_SAY_SYSTEM, "Options de La Bouillabaisse.");
	ck_assert_int_eq(fr.nsaid, n + 2);
	ck_assert_str_eq(fr.said[n].text, "Une partie de Brelan vous attend.");
	ck_assert_str_eq(fr.said[n + 1].text, "Options de la Bouillabaisse.");
	rec_close(&fr);
	table_close(&t);
	i18n_set_lang("en", err, sizeof err);
}
END_TEST

/* The hint: at every decision of a few games of every game, the seat to
 * act hears one sentence in its language and nothing is played; a seat
 * that is not to act is told so. */
START_TEST(hint_every_decision)
{
	char err[128];
	i18n_set_lang("en", err, sizeof err);
	int total = 0;
	for (int gi = 0; registry_games[gi].ops; gi++) {
		const struct game_ops *g = registry_games[gi].ops;
		struct table_options o;
		options(&o, g, g->default_players, 3 + (uint64_t)gi, 1);
		struct table t;
		open_table(&t, &o);
		struct rec r[GAME_MAX_SEATS];
		for (int s = 0; s < o.players; s++)
			rec_open(&r[s], &t, s, s % 2 ? "fr" : "en");
		table_start(&t);
		int hints = 0;
		for (int i = 0; i < 400 && table_to_act(&t) >= 0; i++) {
			int seat = table_to_act(&t);
			int other = (seat + 1) % o.players;
			int moves = t.moves, n = r[seat].nsaid, no = r[other].nsaid;
			if (i % 3 == 0 && n < MAX_SAID - 2 && no < MAX_SAID - 2) {
				ck_assert_int_eq(view_hint(&r[seat].v), 0);
				ck_assert_int_eq(t.moves, moves);
				ck_assert_int_eq(r[seat].nsaid, n + 1);
				ck_assert_msg(strlen(r[seat].said[n].text) > 8, "%s: '%s'", g->name, r[seat].said[n].text);
				ck_assert_int_eq(view_hint(&r[other].v), -1);
				ck_assert_int_eq(r[other].nsaid, no + 1);
				hints++;
			}
			step(&t);
		}
		ck_assert_int_gt(hints, 0);
		total += hints;
		for (int s = 0; s < o.players; s++)
			rec_close(&r[s]);
		table_close(&t);
	}
	ck_assert_int_gt(total, 20);
}
END_TEST

/* Whole games of every game, every seat and two spectators listening:
 * nothing any of them hears or could ask names a card it has not seen. */
START_TEST(no_leak)
{
	const struct game_ops *g = registry_games[_i].ops;
	struct leak *l = calloc(1, sizeof *l);
	ck_assert(l != NULL);
	l->g = g;
	l->players = g->default_players;
	char err[256];
	struct rules rules;
	rules_init(&rules, g->rules, g->nrules);
	l->npack = g->pack(&rules, l->players, l->pack, err, sizeof err);
	ck_assert_msg(l->npack > 0, "%s", err);
	const char *langs[2] = { "en", "fr" };
	for (int li = 0; li < 2; li++) {
		ck_assert(i18n_set_lang(langs[li], err, sizeof err) == 0);
		for (int i = 0; i < l->npack; i++)
			say_card_str(NULL, l->pack[i], SAY_BARE, l->name[li][i], sizeof l->name[li][i]);
	}
	i18n_set_lang("en", err, sizeof err);
	struct table_options o;
	options(&o, g, l->players, 40 + (uint64_t)_i, 2);
	struct table t;
	open_table(&t, &o);
	t.tap = (struct sink){ tap, l };
	struct rec *r = calloc((size_t)l->players + 2, sizeof *r);
	ck_assert(r != NULL);
	int nr = l->players + 2;
	for (int k = 0; k < nr; k++) {
		int seat = k < l->players ? k : VIEW_SPECTATOR;
		rec_open(&r[k], &t, seat, langs[k % 2]);
		r[k].leak = l;
	}
	table_start(&t);
	long steps = 0;
	while (table_to_act(&t) >= 0 && steps < 20000) {
		step(&t);
		steps++;
	}
	ck_assert_msg(table_to_act(&t) < 0, "%s: the game did not end", g->name);
	ck_assert(l->spectator_heard);
	for (int k = 0; k < nr; k++) {
		ck_assert_int_gt(r[k].nsay, 0);
		ck_assert_int_eq(r[k].nupdate, steps + 1);
		rec_close(&r[k]);
	}
	ck_assert_int_gt(l->checked, steps);
	/* A game of tricks shows them. */
	ck_assert(g->trick ? l->trick_seen > 0 : l->trick_seen == 0);
	free(r);
	table_close(&t);
	free(l);
}
END_TEST

/* The check above finds a card named in a real sentence: Bourré's draw
 * names the cards received to their receiver, and to nobody else. */
START_TEST(leak_check_can_fail)
{
	char err[128];
	i18n_set_lang("en", err, sizeof err);
	const struct game_ops *g = registry_ops("bourre");
	struct table_options o;
	options(&o, g, 4, 3, 1);
	struct table t;
	open_table(&t, &o);
	table_start(&t);
	card_t hand[GAME_MAX_HAND];
	ck_assert_int_eq(g->hand(t.st, 1, hand), 5);
	struct event draw;
	ev_init(&draw, EV_DRAW);
	draw.seat = 1;
	draw.visible = EV_SEAT(1);
	draw.ncards = 1;
	draw.cards[0] = hand[0];
	draw.ncards2 = 1;
	draw.cards2[0] = hand[1];
	void *view = calloc(1, g->state_size);
	char name[96];
	say_card_str(NULL, hand[1], SAY_BARE, name, sizeof name);
	for (int seat = -1; seat < 4; seat++) {
		struct talk tk = { .game = g, .me = seat, .players = 4 };
		struct sbuf b;
		memcpy(view, t.st, g->state_size);
		g->redact(view, seat);
		view_phrase_event(&tk, registry_find(g->name)->talk, view, &draw, &b);
		if (seat == 1)
			ck_assert_msg(named(b.s, name), "%s / %s", b.s, name);
		else
			ck_assert_msg(!named(b.s, name) && b.len > 0, "seat %d: %s", seat, b.s);
	}
	free(view);
	table_close(&t);
}
END_TEST

static void same_state(const struct view_state *a, const struct view_state *b)
{
	ck_assert_int_eq(a->seat, b->seat);
	ck_assert_str_eq(a->lang, b->lang);
	ck_assert_int_eq(a->to_act, b->to_act);
	ck_assert_int_eq(a->my_turn, b->my_turn);
	ck_assert_int_eq(a->moves, b->moves);
	/* L too: a view attached later is told what the table showed before
	 * (the last trick, the last showdown). */
	for (int k = 0; k < VIEW_NQUERY; k++)
		ck_assert_str_eq(a->answer[k], b->answer[k]);
	ck_assert_str_eq(a->hand_text, b->hand_text);
	ck_assert_str_eq(a->prompt, b->prompt);
	ck_assert_int_eq(a->nhand, b->nhand);
	for (int i = 0; i < a->nhand; i++) {
		ck_assert_int_eq(a->hand[i].card, b->hand[i].card);
		ck_assert_int_eq(a->hand[i].playable, b->hand[i].playable);
		ck_assert_str_eq(a->hand[i].name, b->hand[i].name);
	}
	ck_assert_int_eq(a->nchoices, b->nchoices);
	for (int i = 0; i < a->nchoices; i++) {
		ck_assert_str_eq(a->choice[i].word, b->choice[i].word);
		ck_assert_str_eq(a->choice[i].label, b->choice[i].label);
		ck_assert_int_eq(a->choice[i].confirm, b->choice[i].confirm);
		ck_assert_int_eq(a->choice[i].confirm_from, b->choice[i].confirm_from);
	}
	ck_assert_int_eq(a->chips, b->chips);
	ck_assert_int_eq(a->chips_in, b->chips_in);
	ck_assert_int_eq(a->nvariants, b->nvariants);
	for (int i = 0; i < a->nvariants; i++)
		ck_assert_str_eq(a->variant[i], b->variant[i]);
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		ck_assert_int_eq(a->ncards[s], b->ncards[s]);
}

/* A listener arriving in the middle of a deal. */
START_TEST(attach_mid_game)
{
	const struct game_ops *g = registry_games[_i].ops;
	struct table_options o;
	options(&o, g, g->default_players, 77, 2);
	struct table t;
	open_table(&t, &o);
	struct rec early, early_spect;
	rec_open(&early, &t, 1, "fr");
	rec_open(&early_spect, &t, VIEW_SPECTATOR, "en");
	table_start(&t);
	for (int i = 0; i < 9 && table_to_act(&t) >= 0; i++)
		step(&t);
	struct rec late, late_spect;
	rec_open(&late, &t, 1, "fr");
	rec_open(&late_spect, &t, VIEW_SPECTATOR, "en");
	ck_assert_int_eq(late.nupdate, 1);   /* the state at once */
	same_state(view_state(&early.v), view_state(&late.v));
	same_state(view_state(&early_spect.v), view_state(&late_spect.v));
	/* From then on both hear the same. */
	int e0 = early.nsaid, l0 = late.nsaid;
	for (int i = 0; i < 9 && table_to_act(&t) >= 0; i++)
		step(&t);
	ck_assert_int_eq(early.nsaid - e0, late.nsaid - l0);
	for (int i = 0; i < late.nsaid - l0; i++)
		ck_assert_str_eq(early.said[e0 + i].text, late.said[l0 + i].text);
	same_state(view_state(&early.v), view_state(&late.v));
	/* Detached, a view hears no more; the others go on. */
	rec_close(&late);
	long n = early_spect.nupdate;
	rec_close(&late_spect);
	long gone = late_spect.nupdate;
	if (table_to_act(&t) >= 0) {
		step(&t);
		ck_assert_int_eq(early_spect.nupdate, n + 1);
		ck_assert_int_eq(late_spect.nupdate, gone);
	}
	rec_close(&early);
	rec_close(&early_spect);
	table_close(&t);
}
END_TEST

/* A view kept through whole games (what it keeps from one state to the
 * next: the names of the cards it held, its hand's sentence) says what a
 * view made afresh at each move says, in both languages. */
START_TEST(kept_state_is_fresh)
{
	const struct game_ops *g = registry_games[_i].ops;
	struct table_options o;
	options(&o, g, g->default_players, 91, 2);
	struct table t;
	open_table(&t, &o);
	static struct rec kept[GAME_MAX_SEATS];
	for (int s = 0; s < o.players; s++)
		rec_open(&kept[s], &t, s, s % 2 ? "fr" : "en");
	table_start(&t);
	int steps = 0;
	while (table_to_act(&t) >= 0 && steps < 400) {
		step(&t);
		steps++;
		for (int s = 0; s < o.players; s++) {
			struct rec fresh;
			rec_open(&fresh, &t, s, s % 2 ? "fr" : "en");
			same_state(view_state(&kept[s].v), view_state(&fresh.v));
			rec_close(&fresh);
		}
	}
	ck_assert_int_gt(steps, 10);
	for (int s = 0; s < o.players; s++)
		rec_close(&kept[s]);
	table_close(&t);
}
END_TEST

/* The chips a seat put in by choice, counted from the payments every
 * player heard (antes and the passe left out). */
struct paid {
	int seat, put;
};

static void count_paid(void *ctx, const struct event *e)
{
	struct paid *p = ctx;
	if (e->type == EV_HAND_START)
		p->put = 0;
	else if (e->type == EV_PAYMENT && e->from == p->seat && e->to < 0 && e->reason != EV_PAY_ANTE &&
	         e->reason != EV_PAY_PASSE)
		p->put += e->amount;
}

/* The game's count of a seat's chips agrees with the payments heard, at
 * every action of whole games of each game played with chips. */
START_TEST(chips_from_the_game)
{
	static const char *const games[] = { "bouillotte", "brelan", "bourre" };
	const struct game_ops *g = registry_ops(games[_i]);
	ck_assert_ptr_nonnull(g->chips);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct table_options o;
		options(&o, g, 4, seed, 3);
		struct table t;
		open_table(&t, &o);
		struct paid paid = { 2, 0 };
		t.tap = (struct sink){ count_paid, &paid };
		struct rec r;
		rec_open(&r, &t, 2, "en");
		table_start(&t);
		int asked = 0;
		for (int i = 0; i < 3000 && table_to_act(&t) >= 0; i++) {
			const struct view_state *vs = view_state(&r.v);
			ck_assert_int_eq(vs->chips_in, paid.put);
			int held, put;
			g->chips(t.st, 2, &held, &put);
			ck_assert_int_eq(vs->chips, held);
			for (int c = 0; c < vs->nchoices; c++)
				asked |= vs->choice[c].confirm || vs->choice[c].confirm_from;
			step(&t);
		}
		if (strcmp(g->name, "bourre"))
			ck_assert_msg(asked, "%s, seed %d: no choice ever asked", g->name, (int)seed);
		rec_close(&r);
		table_close(&t);
	}
}
END_TEST

/* The one rule of risky actions. */
START_TEST(risky_rule)
{
	struct view_state vs;
	struct view_choice choice[4];
	memset(&vs, 0, sizeof vs);
	memset(choice, 0, sizeof choice);
	vs.choice = choice;
	vs.chips = 40;
	vs.nchoices = 4;
	vs.choice[0].act = act_amount(ACT_CALL, 5);
	vs.choice[0].lo = vs.choice[0].hi = 5;
	vs.choice[1].act = act_amount(ACT_RAISE, 6);
	vs.choice[1].act.amount_max = 40;
	vs.choice[1].lo = 6;
	vs.choice[1].hi = 40;
	vs.choice[2].act = act_amount(ACT_ALLIN, 40);
	vs.choice[3].act = act_simple(ACT_FOLD);
	struct action a = act_amount(ACT_RAISE, 20);
	ck_assert(!view_risky(&vs, &a));   /* half is not more than half */
	a.amount = 21;
	ck_assert(view_risky(&vs, &a));
	ck_assert(view_risky(&vs, &vs.choice[2].act));
	ck_assert(!view_risky(&vs, &vs.choice[0].act));
	ck_assert(!view_risky(&vs, &vs.choice[3].act));   /* no chips in yet */
	vs.chips_in = 3;
	ck_assert(view_risky(&vs, &vs.choice[3].act));
	/* A pass gives chips up only when staying is offered (Bourré). */
	struct action pass = act_simple(ACT_PASS);
	ck_assert(!view_risky(&vs, &pass));
	vs.choice[0].act = act_simple(ACT_STAY);
	ck_assert(view_risky(&vs, &pass));
	/* A single amount above half: the straddle of a short stack. */
	vs.chips = 6;
	struct action straddle = act_amount(ACT_STRADDLE, 4);
	ck_assert(view_risky(&vs, &straddle));
	struct action buyback = act_amount(ACT_BUYBACK, 4);
	ck_assert(view_risky(&vs, &buyback));
	buyback.amount = 3;
	ck_assert(!view_risky(&vs, &buyback));
	/* Chips unknown: no bet asks by its size. */
	vs.chips = -1;
	ck_assert(!view_risky(&vs, &a));
	/* The marks a view or a server sets. */
	vs.choice[1].confirm_from = 21;
	vs.choice[2].confirm = 1;
	ck_assert(!view_asks(&vs, 1, 20));
	ck_assert(view_asks(&vs, 1, 21));
	ck_assert(view_asks(&vs, 2, 40));
	ck_assert(!view_asks(&vs, 0, 5));
	ck_assert(!view_asks(&vs, 9, 5));
}
END_TEST

/* The table's small API for a host: who plays a seat, the actions played
 * with their seats, the hand history flushed as it goes. */
START_TEST(table_api)
{
	const struct game_ops *g = registry_ops("brouc");
	struct table_options o;
	options(&o, g, 4, 9, 1);
	o.seat_kind[2] = SEAT_HUMAN;
	char log[] = "/tmp/tapis-table-api-XXXXXX";
	int fd = mkstemp(log);
	ck_assert_int_ge(fd, 0);
	close(fd);
	o.log_path = log;
	struct table t;
	open_table(&t, &o);
	table_start(&t);
	ck_assert_int_eq(table_played(&t), 0);
	ck_assert_int_eq(table_journal(&t, 0, NULL, NULL), -1);
	while (table_to_act(&t) != 2)
		step(&t);
	ck_assert(table_awaits(&t, 2));
	table_set_seat(&t, 2, SEAT_BOT, 3);
	ck_assert(!table_awaits(&t, 2));
	ck_assert(table_auto_turn(&t));
	step(&t);
	int n = table_played(&t), seat = -1;
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(table_moves(&t), n);
	struct action a;
	ck_assert_int_eq(table_journal(&t, n - 1, &seat, &a), 0);
	ck_assert_int_eq(seat, 2);
	ck_assert_int_eq(table_journal(&t, n, &seat, &a), -1);
	table_set_seat(&t, 2, SEAT_HUMAN, 3);
	while (table_to_act(&t) != 2 && table_to_act(&t) >= 0)
		step(&t);
	ck_assert(table_awaits(&t, 2));
	ck_assert_int_ge(rules_index(table_rules(&t), "hands"), 0);
	/* Flushed: the file holds the game so far while the table is open. */
	table_log_flush(&t);
	FILE *f = fopen(log, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	ck_assert_int_gt(ftell(f), 0);
	fclose(f);
	table_close(&t);
	unlink(log);
}
END_TEST

/* A person's seat: the prompt, refusals, the labels of the menu. */
START_TEST(seat_of_a_person)
{
	char err[128];
	i18n_set_lang("en", err, sizeof err);
	const struct game_ops *g = registry_ops("bouillotte");
	struct table_options o;
	options(&o, g, 4, 5, 3);
	o.seat_kind[0] = SEAT_HUMAN;
	struct table t;
	open_table(&t, &o);
	struct rec me, other;
	rec_open(&me, &t, 0, "en");
	rec_open(&other, &t, 2, "fr");
	table_start(&t);
	int ranges = 0, prompts = 0;
	for (int i = 0; i < 400 && table_to_act(&t) >= 0; i++) {
		const struct view_state *vs = view_state(&me.v);
		if (!table_awaits(&t, 0)) {
			ck_assert(!vs->my_turn);
			ck_assert_int_eq(vs->prompt[0], '\0');
			step(&t);
			continue;
		}
		ck_assert(vs->my_turn);
		ck_assert_int_eq(me.said[me.nsaid - 1].kind, VIEW_SAY_PROMPT);
		ck_assert_int_eq(me.said[me.nsaid - 1].cue, CUE_YOUR_TURN);
		ck_assert(me.said[me.nsaid - 1].urgent);
		ck_assert_str_eq(me.said[me.nsaid - 1].text, vs->prompt);
		prompts++;
		ck_assert_int_gt(vs->nchoices, 0);
		for (int c = 0; c < vs->nchoices; c++) {
			const struct view_choice *ch = &vs->choice[c];
			struct action a;
			ck_assert_msg(act_parse(ch->word, &a, err, sizeof err) == 0, "%s: %s", ch->word, err);
			ck_assert_int_eq(a.kind, ch->act.kind);
			if (ch->hi > ch->lo) {
				ranges++;
				ck_assert_int_eq(ch->nvariants, ch->hi - ch->lo + 1);
				char num[16];
				snprintf(num, sizeof num, "%d", ch->hi);
				const char *hi = view_amount_label(vs, c, ch->hi);
				ck_assert_msg(hi && strstr(hi, num), "%s", hi ? hi : "(none)");
				ck_assert_ptr_null(view_amount_label(vs, c, ch->hi + 1));
			} else {
				ck_assert_str_eq(view_amount_label(vs, c, ch->lo), ch->label);
			}
		}
		/* Another seat's action, then an illegal one: refused, said. */
		struct refusal why;
		struct action fold = act_simple(ACT_FOLD);
		ck_assert_int_eq(table_act(&t, 1, &fold, &why), -1);
		ck_assert_int_eq(why.code, TABLE_NOT_YOUR_TURN);
		view_refusal(&other.v, &why);
		ck_assert_str_eq(other.said[other.nsaid - 1].text, "Ce n'est pas votre tour.");
		struct action silly = act_simple(ACT_RAISE);
		silly.amount = silly.amount_max = 100000;
		ck_assert_int_eq(table_act(&t, 0, &silly, &why), -1);
		view_refusal(&me.v, &why);
		const struct view_say *m = &me.said[me.nsaid - 1];
		ck_assert_int_eq(m->kind, VIEW_SAY_REFUSAL);
		ck_assert(m->interrupt && m->urgent);
		ck_assert_int_eq(m->cue, CUE_ILLEGAL);
		ck_assert_int_gt((int)strlen(m->text), 3);
		/* The first choice, in the words of --actions. */
		struct action a;
		ck_assert(act_parse(vs->choice[0].word, &a, err, sizeof err) == 0);
		ck_assert_int_eq(table_act(&t, 0, &a, &why), 0);
	}
	ck_assert_int_gt(prompts, 3);
	ck_assert_int_gt(ranges, 0);
	rec_close(&me);
	rec_close(&other);
	table_close(&t);
}
END_TEST

/* Bourré's discard: one item, a label for every set of marked cards. */
START_TEST(discard_labels)
{
	char err[128];
	i18n_set_lang("en", err, sizeof err);
	const struct game_ops *g = registry_ops("bourre");
	int found = 0;
	for (uint64_t seed = 1; seed < 40 && !found; seed++) {
		struct table_options o;
		options(&o, g, 4, seed, 1);
		o.seat_kind[0] = SEAT_HUMAN;
		struct table t;
		open_table(&t, &o);
		struct rec me;
		rec_open(&me, &t, 0, "en");
		table_start(&t);
		for (int i = 0; i < 200 && table_to_act(&t) >= 0 && !found; i++) {
			const struct view_state *vs = view_state(&me.v);
			if (!table_awaits(&t, 0)) {
				step(&t);
				continue;
			}
			int d = -1;
			for (int c = 0; c < vs->nchoices; c++)
				if (vs->choice[c].act.kind == ACT_DISCARD)
					d = c;
			if (d >= 0) {
				found = 1;
				ck_assert_int_eq(vs->choice[d].nvariants, 1 << vs->nhand);
				ck_assert_str_eq(view_discard_label(vs, d, 0), "Keep all your cards");
				const char *two = view_discard_label(vs, d, 3);
				char name[96];
				say_card_str(NULL, vs->hand[1].card, SAY_THE, name, sizeof name);
				ck_assert_msg(two && strstr(two, name), "%s / %s", two ? two : "(none)", name);
				break;
			}
			struct action a;
			struct refusal why;
			ck_assert(act_parse(vs->choice[0].word, &a, err, sizeof err) == 0);
			if (vs->can_play) {
				for (int k = 0; k < vs->nhand; k++)
					if (vs->hand[k].playable)
						a = act_card(ACT_PLAY, vs->hand[k].card);
			}
			ck_assert_int_eq(table_act(&t, 0, &a, &why), 0);
		}
		rec_close(&me);
		table_close(&t);
	}
	ck_assert(found);
}
END_TEST

/* Bourré variant=four: staying at the declaration leads to the discard;
 * staying at the second chance, after it, does not. The view tells both
 * apart from the rules alone; every seat stays when it may. */
START_TEST(discard_ahead_four)
{
	char err[128];
	const struct game_ops *g = registry_ops("bourre");
	int declared = 0, confirmed = 0;
	for (uint64_t seed = 1; seed < 60 && !confirmed; seed++) {
		struct table_options o;
		options(&o, g, 3, seed, 1);
		ck_assert_msg(rules_set(&o.rules, "variant", "four", err, sizeof err) == 0, "%s", err);
		for (int s = 0; s < 3; s++)
			o.seat_kind[s] = SEAT_HUMAN;
		struct table t;
		open_table(&t, &o);
		struct rec me;
		rec_open(&me, &t, 0, "en");
		table_start(&t);
		for (int i = 0; i < 40 && table_to_act(&t) >= 0 && !confirmed; i++) {
			int s = table_to_act(&t);
			const struct bourre_state *st = t.st;
			struct action l[GAME_MAX_LEGAL];
			int n = g->legal(t.st, l, GAME_MAX_LEGAL), k = 0;
			for (int j = 0; j < n; j++)
				if (l[j].kind == ACT_STAY)
					k = j;
			if (l[k].kind == ACT_DISCARD)
				l[k] = act_simple(ACT_DISCARD);
			if (s == 0 && l[k].kind == ACT_STAY) {
				const struct view_state *vs = view_state(&me.v);
				if (st->phase == BR_PH_DECLARE) {
					ck_assert_int_eq(vs->discard_ahead, 1);
					declared = 1;
				} else {
					ck_assert_int_eq(st->phase, BR_PH_CONFIRM);
					ck_assert_int_eq(vs->discard_ahead, 0);
					/* Announced, then asked, in other words. */
					ck_assert_str_eq(vs->prompt, "Your turn. Stay for 1 more chip, or pass?");
					int heard = 0;
					for (int m = 0; m < me.nsaid && m < MAX_SAID; m++)
						if (strstr(me.said[m].text, "Second chance")) {
							heard = 1;
							ck_assert_ptr_null(strstr(me.said[m].text, "tay for"));
						}
					ck_assert(heard);
					confirmed = 1;
				}
			}
			if (s == 0 && st->phase == BR_PH_DISCARD)
				ck_assert_int_eq(view_state(&me.v)->discard_ahead, 1);
			if (st->phase == BR_PH_PLAY)
				break;
			struct refusal why;
			ck_assert_int_eq(table_act(&t, s, &l[k], &why), 0);
		}
		rec_close(&me);
		table_close(&t);
	}
	ck_assert(declared && confirmed);
}
END_TEST

/* A call that puts in every chip the player has is the all-in: the menu
 * says it once, as a call all in. */
START_TEST(short_call_said_once)
{
	char err[256];
	i18n_set_lang("en", err, sizeof err);
	const struct game_ops *g = registry_ops("bouillotte");
	int found = 0;
	for (uint64_t seed = 1; seed < 60 && !found; seed++) {
		struct table_options o;
		options(&o, g, 4, seed, 0);
		ck_assert_msg(rules_set(&o.rules, "cave", "10", err, sizeof err) == 0, "%s", err);
		ck_assert_msg(rules_set(&o.rules, "rebuy", "no", err, sizeof err) == 0, "%s", err);
		o.seat_kind[0] = SEAT_HUMAN;
		struct table t;
		open_table(&t, &o);
		struct rec me;
		rec_open(&me, &t, 0, "en");
		table_start(&t);
		for (int i = 0; i < 400 && table_to_act(&t) >= 0 && !found; i++) {
			const struct view_state *vs = view_state(&me.v);
			if (!table_awaits(&t, 0)) {
				step(&t);
				continue;
			}
			int calls = 0, all = -1;
			for (int c = 0; c < vs->nchoices; c++) {
				calls += vs->choice[c].act.kind == ACT_CALL;
				if (vs->choice[c].act.kind == ACT_ALLIN)
					all = c;
			}
			if (all >= 0 && calls == 0 && strstr(vs->choice[all].label, "all in")) {
				found = 1;
				ck_assert_msg(strncmp(vs->choice[all].label, "Call all in, ", 13) == 0, "%s",
				              vs->choice[all].label);
				break;
			}
			/* Calls and all-ins of the same chips never both. */
			for (int c = 0; c < vs->nchoices; c++)
				ck_assert_msg(!(all >= 0 && vs->choice[c].act.kind == ACT_CALL &&
				                vs->choice[c].lo == vs->choice[all].lo && vs->choice[c].lo > 0),
				              "%s and %s", vs->choice[c].label, vs->choice[all].label);
			/* Call whatever it costs: the chips run out. */
			int pick = 0;
			for (int c = 0; c < vs->nchoices; c++)
				if (vs->choice[c].act.kind == ACT_CALL)
					pick = c;
			struct action a;
			struct refusal why;
			ck_assert(act_parse(vs->choice[pick].word, &a, err, sizeof err) == 0);
			ck_assert_int_eq(table_act(&t, 0, &a, &why), 0);
		}
		rec_close(&me);
		table_close(&t);
	}
	ck_assert(found);
}
END_TEST

/* The table owns no listener: without a player, table_say says nothing and
 * the table plays on; local_open makes a view the table's player, which
 * hears the table's own words and every action; the player and the table
 * close in either order; a player's text that cannot be written is the
 * table's output failing. */
START_TEST(player_attached_by_local)
{
	const struct game_ops *g = registry_ops("brouc");
	struct table_options o;
	options(&o, g, 4, 9, 1);
	char err[512];
	for (int order = 0; order < 2; order++) {
		struct table t;
		open_table(&t, &o);
		ck_assert_ptr_null(table_local_view(&t));
		table_say(&t, "Nobody hears this.", SPEECH_QUEUE);
		char *said = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&said, &len);
		struct speech sp;
		memset(&sp, 0, sizeof sp);
		sp.out = f;
		ck_assert_msg(speech_open(&sp, "text", "en", NULL, NULL, err, sizeof err) == 0, "%s", err);
		struct local player;
		ck_assert_msg(local_open(&player, &t, VIEW_SPECTATOR, &sp, NULL, err, sizeof err) == 0, "%s", err);
		ck_assert_ptr_eq(table_local_view(&t), &player.view);
		ck_assert_int_eq(t.nviews, 1);
		table_say(&t, "The table speaks.", SPEECH_QUEUE);
		table_start(&t);
		while (table_to_act(&t) >= 0)
			step(&t);
		ck_assert_int_eq(table_output_failed(&t, err, sizeof err), 0);
		ck_assert_int_eq(table_finish_output(&t, err, sizeof err), 0);
		if (order == 0) {
			local_close(&player);
			ck_assert_ptr_null(table_local_view(&t));
			ck_assert_int_eq(t.nviews, 0);
			table_close(&t);
		} else {
			table_close(&t);   /* the view hears no more, then goes */
			ck_assert_ptr_null(player.view.t);
			local_close(&player);
		}
		speech_close(&sp);
		fclose(f);
		ck_assert_msg(strstr(said, "The table speaks.") != NULL, "%s", said);
		ck_assert_msg(strstr(said, "Nobody hears") == NULL, "%s", said);
		ck_assert_msg(strstr(said, "Game over") != NULL, "%s", said);
		free(said);
	}
	/* Text that cannot be written (a full disk): the table's output fails. */
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		struct table t;
		open_table(&t, &o);
		struct speech sp;
		memset(&sp, 0, sizeof sp);
		sp.out = full;
		ck_assert_msg(speech_open(&sp, "text", "en", NULL, NULL, err, sizeof err) == 0, "%s", err);
		struct local player;
		ck_assert_msg(local_open(&player, &t, VIEW_SPECTATOR, &sp, NULL, err, sizeof err) == 0, "%s", err);
		table_start(&t);
		ck_assert_int_eq(table_output_failed(&t, err, sizeof err), -1);
		ck_assert_msg(strstr(err, "could not be written") != NULL, "%s", err);
		local_close(&player);
		table_close(&t);
		speech_close(&sp);
		fclose(full);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");
	tcase_set_timeout(tc, 300);
	int ngames = 0;
	while (registry_games[ngames].ops)
		ngames++;
	tcase_add_test(tc, two_languages);
	tcase_add_test(tc, tags_tell_seats_apart);
	tcase_add_test(tc, hint_every_decision);
	tcase_add_test(tc, french_titles_contract);
	tcase_add_loop_test(tc, no_leak, 0, ngames);
	tcase_add_test(tc, leak_check_can_fail);
	tcase_add_loop_test(tc, attach_mid_game, 0, ngames);
	tcase_add_loop_test(tc, kept_state_is_fresh, 0, ngames);
	tcase_add_test(tc, seat_of_a_person);
	tcase_add_test(tc, table_api);
	tcase_add_test(tc, player_attached_by_local);
	tcase_add_test(tc, discard_labels);
	tcase_add_test(tc, discard_ahead_four);
	tcase_add_test(tc, short_call_said_once);
	tcase_add_loop_test(tc, chips_from_the_game, 0, 3);
	tcase_add_test(tc, risky_rule);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
