/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Talk of Bouillotte and Le Brelan: every event and query phrased, in
 * English (the msgids), on whole games; the worked example's showdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "games/vying.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/talk.h"
#include "testutil.h"

struct listen {
	const struct game_ops *g;
	const struct game_talk *gt;
	struct talk t;
	void *st;
	void *view;
	long said;
	char last_showdown[SBUF_SIZE];
	char last_declare[SBUF_SIZE];
};

static void hear(void *ctx, const struct event *e)
{
	struct listen *l = ctx;
	memcpy(l->view, l->st, l->g->state_size);
	l->g->redact(l->view, l->t.me);
	struct sbuf b;
	ann_event(&l->t, l->gt, l->view, e, &b);
	l->said += (long)b.len;
	if (e->type == EV_SHOWDOWN)
		snprintf(l->last_showdown, sizeof l->last_showdown, "%s", b.s);
	if (e->type == EV_DECLARE)
		snprintf(l->last_declare, sizeof l->last_declare, "%s", b.s);
	/* Nobody's hidden cards are named before the showdown. */
	if (e->type == EV_DEAL && e->seat != l->t.me)
		ck_assert_int_eq((int)b.len, 0);
}

static void play_and_talk(const char *game, int players, const char *const *rules, uint64_t seed)
{
	struct listen l;
	memset(&l, 0, sizeof l);
	l.g = registry_ops(game);
	l.gt = registry_find(game)->talk;
	ck_assert_ptr_nonnull(l.gt);
	l.t.game = l.g;
	l.t.me = 0;
	l.t.players = players;
	l.st = calloc(1, l.g->state_size);
	l.view = calloc(1, l.g->state_size);
	struct rules r;
	char err[256];
	rules_init(&r, l.g->rules, l.g->nrules);
	for (int i = 0; rules && rules[i]; i++)
		ck_assert(rules_set_arg(&r, rules[i], err, sizeof err) == 0);
	struct game_setup setup = { players, -1, seed, &r, NULL };
	ck_assert(l.g->init(l.st, &setup, err, sizeof err) == 0);
	struct sink s = { hear, &l };
	l.g->start(l.st, &s);
	struct rng rng;
	rng_seed(&rng, seed);
	int seat;
	while ((seat = l.g->to_act(l.st)) >= 0) {
		memcpy(l.view, l.st, l.g->state_size);
		l.g->redact(l.view, 0);
		static const char keys[] = "CSTRFLN123456";
		for (const char *k = keys; *k; k++) {
			struct sbuf b;
			ann_query(&l.t, l.gt, l.view, *k, &b);
			ck_assert_int_gt((int)b.len, 0);
		}
		struct action legal[GAME_MAX_LEGAL];
		int n = l.g->legal(l.st, legal, GAME_MAX_LEGAL);
		for (int i = 0; i < n; i++) {
			struct sbuf b;
			sb_clear(&b);
			ann_action(&l.t, l.gt, l.view, &legal[i], &b);
			ck_assert_int_gt((int)b.len, 0);
		}
		if (seat == 0) {
			struct sbuf b;
			sb_clear(&b);
			l.gt->prompt(&l.t, l.view, &b);
			ck_assert_int_gt((int)b.len, 0);
			/* A refusal is phrased. */
			struct action bad = act_amount(ACT_RAISE, 100000);
			struct refusal why;
			struct vying copy;
			memcpy(&copy, l.st, sizeof copy);
			if (l.g->apply(&copy, &bad, NULL, &why) != 0) {
				struct sbuf rb;
				ann_refusal(&l.t, l.gt, l.view, &why, &rb);
				ck_assert_int_gt((int)rb.len, 0);
			}
		}
		struct action a;
		bot_choose(l.g, tu_bot(l.g), l.st, 2, &rng, &a);
		struct refusal why;
		ck_assert(l.g->apply(l.st, &a, &s, &why) == 0);
	}
	ck_assert_int_gt(l.said, 100);
	free(l.st);
	free(l.view);
}

START_TEST(whole_games_spoken)
{
	play_and_talk("bouillotte", 4, (const char *const[]){ "hands=15", "buyback=yes", "mistigri=yes", NULL }, 3);
	play_and_talk("bouillotte", 3, (const char *const[]){ "hands=15", "rebuy=no", "cave=20", NULL }, 4);
	play_and_talk("brelan", 5, (const char *const[]){ "hands=15", "carre=yes", "carre_levels=4", "brelan_pay=1", NULL }, 5);
	play_and_talk("brelan", 2, (const char *const[]){ "hands=15", "carre=forced", "caves=3", "cave=15", NULL }, 6);
}
END_TEST

START_TEST(example_showdown_words)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_stack(&t, "AD QH KD KH  9C AC QD 8D  8H 8C AS QS  AH  KS 9S 8S 9H 9D KC QC\n");
	struct listen l;
	memset(&l, 0, sizeof l);
	l.g = t.g;
	l.gt = registry_find("bouillotte")->talk;
	l.t.game = t.g;
	l.t.me = 0;
	l.t.players = 4;
	l.st = t.st;
	l.view = calloc(1, t.g->state_size);
	struct sink s = { hear, &l };
	t.g->start(t.st, &s);
	/* Claire called with four in: after the folds she still stands. */
	static const char *const acts[] = { "pass", "open 1", "call", "fold", "fold", "pass" };
	for (int i = 0; i < 6; i++) {
		struct action a;
		char err[64];
		ck_assert(act_parse(acts[i], &a, err, sizeof err) == 0);
		struct refusal why;
		ck_assert(t.g->apply(t.st, &a, &s, &why) == 0);
	}
	/* Every hand shown, then the winner with the suit and its points. */
	ck_assert_ptr_nonnull(strstr(l.last_showdown, "Showdown."));
	/* Short: the hands are on a key. */
	ck_assert_int_lt((int)strlen(l.last_showdown), 40);
	ck_assert_ptr_nonnull(strstr(l.last_declare, "hearts"));
	ck_assert_ptr_nonnull(strstr(l.last_declare, "39"));
	free(l.view);
	tu_game_release(&t);
}
END_TEST


/* ---- as the table speaks: the events of one action phrased afterwards,
 * with the view of the state after the whole action ---- */

struct batch {
	const struct game_ops *g;
	const struct game_talk *gt;
	struct talk t;
	void *st, *view;
	struct event ev[256];
	int nev;
	char said[32768];
	struct event log[256];  /* every event so far, for the tests */
	int nlog;
};

static void gather(void *ctx, const struct event *e)
{
	struct batch *bt = ctx;
	if (bt->nev < 256)
		bt->ev[bt->nev++] = *e;
	if (bt->nlog < 256)
		bt->log[bt->nlog++] = *e;
}

static void batch_flush(struct batch *bt)
{
	memcpy(bt->view, bt->st, bt->g->state_size);
	bt->g->redact(bt->view, bt->t.me);
	for (int i = 0; i < bt->nev; i++) {
		struct sbuf b;
		ann_event(&bt->t, bt->gt, bt->view, &bt->ev[i], &b);
		if (b.len) {
			strncat(bt->said, b.s, sizeof bt->said - strlen(bt->said) - 2);
			strcat(bt->said, "\n");
		}
	}
	bt->nev = 0;
}

static void batch_init(struct batch *bt, struct tu_game *tg, const char *game)
{
	memset(bt, 0, sizeof *bt);
	bt->g = tg->g;
	bt->gt = registry_find(game)->talk;
	bt->t.game = tg->g;
	bt->t.me = 0;
	bt->t.players = *(int *)tg->st;
	bt->st = tg->st;
	bt->view = calloc(1, tg->g->state_size);
	struct sink s = { gather, bt };
	tg->g->start(tg->st, &s);
	batch_flush(bt);
}

static void batch_do(struct batch *bt, const char *act)
{
	struct action a;
	char err[64];
	ck_assert(act_parse(act, &a, err, sizeof err) == 0);
	struct refusal why;
	struct sink s = { gather, bt };
	ck_assert_msg(bt->g->apply(bt->st, &a, &s, &why) == 0, "refused: %s", act);
	batch_flush(bt);
}

/* What the player hears now: a query key, or the prompt (key 0). */
static const char *batch_ask(struct batch *bt, int key, struct sbuf *b)
{
	memcpy(bt->view, bt->st, bt->g->state_size);
	bt->g->redact(bt->view, bt->t.me);
	sb_clear(b);
	if (key)
		ann_query(&bt->t, bt->gt, bt->view, key, b);
	else
		bt->gt->prompt(&bt->t, bt->view, b);
	return b->s;
}

#define HEARD(bt, text) ck_assert_msg(strstr((bt)->said, text) != NULL, "not heard: %s\n%s", text, (bt)->said)

/* A player holding no more than the bet has one way to call: all in. */
START_TEST(short_call_is_one_item)
{
	struct tu_game tg;
	tu_game_init(&tg, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	struct batch bt;
	batch_init(&bt, &tg, "bouillotte");
	batch_do(&bt, "open 4");
	batch_do(&bt, "call");
	/* Seat 2 owes 4 and holds only 3. */
	struct vying *v = tg.st;
	v->chips[2] = 3;
	struct action l[16];
	int n = tg.g->legal(tg.st, l, 16), all = -1;
	for (int i = 0; i < n; i++)
		if (l[i].kind == ACT_ALLIN)
			all = i;
	ck_assert_int_ge(all, 0);
	ck_assert_int_eq(l[all].amount, 3);
	struct sbuf b;
	sb_clear(&b);
	memcpy(bt.view, tg.st, tg.g->state_size);
	ann_action(&bt.t, bt.gt, bt.view, &l[all], &b);
	ck_assert_str_eq(b.s, "call all in, 3 chips, stake 4");
	bt.t.me = 2;
	ck_assert_ptr_nonnull(strstr(batch_ask(&bt, 0, &b), "To call: 4 chips; you have only 3 chips, all in."));
	/* A hand history's "call" is still taken for it. */
	batch_do(&bt, "call");
	ck_assert_int_eq(v->chips[2], 0);
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

START_TEST(menu_says_the_stake)
{
	struct tu_game tg;
	tu_game_init(&tg, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	struct batch bt;
	batch_init(&bt, &tg, "bouillotte");
	struct sbuf b;
	/* Seat 0 speaks first: ante 1, so opening 1 to 99 makes a stake of 2 to 100. */
	ck_assert_ptr_nonnull(strstr(batch_ask(&bt, 'T', &b), "open, 1 to 99 chips, stake 2 to 100"));
	batch_do(&bt, "open 4");
	batch_do(&bt, "call");
	/* Seat 2 calls 4 to reach 5; the menu opens on call, fold comes last. */
	struct action l[16];
	int n = tg.g->legal(tg.st, l, 16);
	ck_assert_int_eq(l[0].kind, ACT_CALL);
	ck_assert_int_eq(l[n - 1].kind, ACT_FOLD);
	sb_clear(&b);
	memcpy(bt.view, tg.st, tg.g->state_size);
	ann_action(&bt.t, bt.gt, bt.view, &l[0], &b);
	ck_assert_str_eq(b.s, "call, 4 chips, stake 5");
	/* One amount of a range, as the menu says it when the amount changes. */
	struct action r = l[1];
	ck_assert_int_eq(r.kind, ACT_RAISE);
	r.amount = r.amount_max = 10;
	sb_clear(&b);
	ann_action(&bt.t, bt.gt, bt.view, &r, &b);
	ck_assert_str_eq(b.s, "raise, 10 chips, stake 11");
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

START_TEST(straddle_question_before_the_cards)
{
	struct tu_game tg;
	tu_game_init(&tg, "bouillotte", 4, 3, 1, (const char *const[]){ "buyback=yes", NULL });
	struct batch bt;
	batch_init(&bt, &tg, "bouillotte");
	struct sbuf b;
	batch_ask(&bt, 0, &b);
	ck_assert_msg(strstr(b.s, "Before seeing your cards: straddle for 5 chips?") && strstr(b.s, "speak last"), "%s", b.s);
	/* T: a yes or no, said as one. */
	ck_assert_str_eq(batch_ask(&bt, 'T', &b), "Your turn: straddle (5 chips, stake raised to 6) or not.");
	batch_do(&bt, "straddle");
	HEARD(&bt, "You straddle: 5 chips. Stake 6, 94 left. You will speak last.");
	/* Bruno's choices: the second straddle has its own word. */
	struct action l[8];
	int n = tg.g->legal(tg.st, l, 8);
	ck_assert_int_ge(n, 2);
	memcpy(bt.view, tg.st, tg.g->state_size);
	sb_clear(&b);
	ann_action(&bt.t, bt.gt, bt.view, &l[0], &b);
	ck_assert_msg(strncmp(b.s, "straddle again, 10 chips", 24) == 0, "%s", b.s);
	sb_clear(&b);
	ann_action(&bt.t, bt.gt, bt.view, &l[1], &b);
	ck_assert_str_eq(b.s, "no further straddle");
	batch_do(&bt, "straddle");
	HEARD(&bt, "Bruno straddles again: 10 chips.");
	HEARD(&bt, "Bruno will speak last.");
	batch_ask(&bt, 0, &b);
	ck_assert_msg(strstr(b.s, "buy back for 20 chips?") != NULL, "%s", b.s);
	ck_assert_str_eq(batch_ask(&bt, 'T', &b), "Your turn: buy back (20 chips, stake raised to 26) or not.");
	batch_do(&bt, "decline");
	HEARD(&bt, "You do not buy back.");
	batch_do(&bt, "decline");
	HEARD(&bt, "Claire does not straddle.");
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

START_TEST(carre_levels_have_their_verbs)
{
	struct tu_game tg;
	tu_game_init(&tg, "brelan", 4, 3, 1, (const char *const[]){ "carre=yes", "carre_levels=4", NULL });
	struct batch bt;
	batch_init(&bt, &tg, "brelan");
	struct sbuf b;
	batch_ask(&bt, 0, &b);
	ck_assert_msg(strstr(b.s, "Before seeing your cards: carre for 4 chips? It opens the game") != NULL, "%s", b.s);
	batch_do(&bt, "straddle");
	HEARD(&bt, "You carre: 4 chips.");
	batch_do(&bt, "straddle");
	HEARD(&bt, "Bruno contrecarres: 8 chips.");
	batch_ask(&bt, 0, &b);
	ck_assert_msg(strstr(b.s, "surcarre for 16 chips?") != NULL, "%s", b.s);
	batch_do(&bt, "decline");
	HEARD(&bt, "You decline the surcarre.");
	batch_do(&bt, "straddle");
	HEARD(&bt, "Claire tricarres: 16 chips.");
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

START_TEST(showdown_after_the_whole_action)
{
	/* The worked example, phrased as the table does: after the last word
	 * (Claire, who called with four in, stands after the folds) the next
	 * deal has begun, yet the showdown names who had folded and the
	 * winner's suit. */
	struct tu_game tg;
	tu_game_init(&tg, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_stack(&tg, "AD QH KD KH  9C AC QD 8D  8H 8C AS QS  AH  KS 9S 8S 9H 9D KC QC\n--\n"
	                   "KD KH KC  9C AC QD  8H 8C AS  AD QH QS  AH  KS 9S 8S 9H 9D 8D QC\n");
	struct batch bt;
	batch_init(&bt, &tg, "bouillotte");
	static const char *const acts[] = { "pass", "open 1", "call", "fold", "fold", "pass" };
	for (int i = 0; i < 6; i++)
		batch_do(&bt, acts[i]);
	HEARD(&bt, "Showdown. L: the hands.");
	/* The winner and why first; the hands on L, even at the next deal. */
	HEARD(&bt, "Bruno wins the pot, 7 chips, with hearts, 39 points. Tie with Claire, diamonds, 39 points. "
	            "Bruno wins on primauté.");
	struct sbuf b;
	batch_ask(&bt, 'L', &b);
	ck_assert_msg(strstr(b.s, "Last showdown: ") == b.s, "%s", b.s);
	ck_assert_msg(strstr(b.s, ", folded: ") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "You, folded: ace of diamonds, nine of clubs and eight of hearts.") != NULL, "%s", b.s);
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

START_TEST(scores_in_levels)
{
	/* A short player goes all in: S gives the pot in levels and who may win each. */
	struct tu_game tg;
	tu_game_init(&tg, "bouillotte", 3, 2, 1, (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
	struct vying *v = tg.st;
	v->chips[0] = v->bought[0] = 10;
	struct batch bt;
	batch_init(&bt, &tg, "bouillotte");
	batch_do(&bt, "allin");    /* seat 0: stake 10 */
	HEARD(&bt, "You go all in: 9 chips, your stake 10.");
	batch_do(&bt, "raise 30"); /* seat 1: stake 31 */
	struct sbuf b;
	batch_ask(&bt, 'S', &b);
	ck_assert_msg(strstr(b.s, "Pot in 2 levels: level 1, 22 chips, for you, Bruno and Claire; "
	                          "level 2, 21 chips, for Bruno and Claire.") != NULL, "%s", b.s);
	batch_ask(&bt, 'T', &b);
	ck_assert_msg(strstr(b.s, "Claire to speak: call, 29 chips, stake 31; raise") != NULL, "%s", b.s);
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

/* A va-tout is one sentence with its stake, in both languages, for
 * oneself and for another (« Bruno fait son va-tout : 19 jetons, mise
 * portée à 20. »), a raise with all one has as a call all in. */
START_TEST(va_tout_in_one_sentence)
{
	static const char *const want[2][3] = {
		{ "You go all in: 9 chips, your stake 10.\n", "Bruno raises with all they have: 19 chips, stake 20.\n",
		  "Claire goes all in: 4 chips, stake 6.\n" },
		{ "Vous faites votre va-tout : 9 jetons, mise portée à 10.\n",
		  "Bruno fait son va-tout : 19 jetons, mise portée à 20.\n",
		  "Claire fait son va-tout : 4 jetons, mise portée à 6.\n" },
	};
	for (int fr = 0; fr < 2; fr++) {
		char err[256];
		ck_assert_int_eq(i18n_set_lang(fr ? "fr" : "en", err, sizeof err), 0);
		struct tu_game tg;
		tu_game_init(&tg, "bouillotte", 3, 2, 1, (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
		struct vying *v = tg.st;
		v->chips[0] = v->bought[0] = 10;
		v->chips[1] = v->bought[1] = 20;
		v->chips[2] = v->bought[2] = 6;
		struct batch bt;
		batch_init(&bt, &tg, "bouillotte");
		batch_do(&bt, "allin");     /* you: stake 10 */
		batch_do(&bt, "raise 19");  /* Bruno: 19 chips, all he has */
		batch_do(&bt, "call");      /* Claire: 4 chips short of the bet */
		for (int k = 0; k < 3; k++)
			HEARD(&bt, want[fr][k]);
		ck_assert_msg(!strstr(bt.said, fr ? "il ne lui reste rien" : "nothing left"), "%s", bt.said);
		free(bt.view);
		tu_game_release(&tg);
	}
	char err[256];
	ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
}
END_TEST

/* A deal where you, seat 0 with 10 chips, go all in; Bruno raises 30,
 * Claire calls, the others up to seat `callers` call too, the rest fold,
 * then everyone stands: two pots. Heard in lang; the game released by the
 * caller. */
static void short_stack_deal(struct batch *bt, struct tu_game *tg, const char *lang, const char *game,
                             int players, const char *const *rules, const char *deck, int callers)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(lang, err, sizeof err) == 0, "%s", err);
	tu_game_init(tg, game, players, players - 1, 1, rules);
	tu_game_stack(tg, deck);
	struct vying *v = tg->st;
	v->chips[0] = v->bought[0] = 10;
	batch_init(bt, tg, game);
	batch_do(bt, "allin");
	batch_do(bt, "raise 30");
	batch_do(bt, "call");
	for (int s = 3; s < players; s++)
		batch_do(bt, s <= callers ? "call" : "fold");
	while (tg->g->to_act(tg->st) >= 0 && ((struct vying *)tg->st)->hand == 1)
		batch_do(bt, "pass");
	ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
}

static void side_pot_heard(int fr, const char *game, int players, const char *const *rules, const char *deck,
                           int callers, const char *want)
{
	struct tu_game tg;
	struct batch bt;
	short_stack_deal(&bt, &tg, fr ? "fr" : "en", game, players, rules, deck, callers);
	HEARD(&bt, want);
	free(bt.view);
	tu_game_release(&tg);
}

/* A side pot explained as the first is: you win the first pot on the
 * point in diamonds; the next pot, between Bruno and Claire (and Denis),
 * goes by Bouillotte's rule to the highest diamond, or to the only one who
 * holds a diamond. In English and in French. */
START_TEST(side_pot_why)
{
	static const char *const rules[] = { "straddle=no", "brelan_pay=0", NULL };
	static const char *const deck[] = { "AD KD 9D  8C 8S AC  9H 9S KC  8D  AS KS AH KH 8H 9C\n",
	                                    "AD KD AC  9D 8S KC  9H 9S 9C  8D  AS KS AH KH 8H 8C\n" };
	static const char *const want[][4] = {
		{ "You win the pot, 30 chips, with diamonds, 38 points. Next best: Claire, clubs, 29 points.",
		  "Bruno wins the next pot, 42 chips, with diamonds, 38 points. The suit of the first pot decides: "
		  "the king of diamonds. Next best: Claire, the nine of diamonds.",
		  "Bruno wins the next pot, 42 chips, with diamonds, 38 points. The suit of the first pot decides: "
		  "the king of diamonds. Claire has none.",
		  "with diamonds, 41 points. The suit of the first pot decides: the king of diamonds. The others have none." },
		{ "Vous gagnez le pot, 30 jetons, avec 38 points à carreau. Ensuite : Claire, avec 29 points "
		  "à trèfle.",
		  "Bruno gagne le pot suivant, 42 jetons, avec 38 points à carreau. La couleur du premier pot décide : "
		  "le roi de carreau. Ensuite : Claire, avec le neuf de carreau.",
		  "Bruno gagne le pot suivant, 42 jetons, avec 38 points à carreau. La couleur du premier pot décide : "
		  "le roi de carreau. Claire n'en a pas.",
		  "avec 41 points à carreau. La couleur du premier pot décide : le roi de carreau. Les autres n'en ont pas." },
	};
	side_pot_heard(_i, "bouillotte", 3, rules, deck[0], 2, want[_i][0]);
	side_pot_heard(_i, "bouillotte", 3, rules, deck[0], 2, want[_i][1]);
	side_pot_heard(_i, "bouillotte", 3, rules, deck[1], 2, want[_i][2]);
	/* Five players, three in the next pot: only Bruno holds a diamond. */
	side_pot_heard(_i, "bouillotte", 5, rules,
	               "AD KD AC AH QS  QD 8S KC KH JH  8C 9S 9H JS 9C  JD  AS KS 8H 9D 8D QH QC JC\n", 3,
	               want[_i][3]);
}
END_TEST

/* Le Brelan's side pot tied on the point: primauté named, as in the
 * first pot (Bruno's spades and Claire's clubs, 31 points each; Bruno
 * speaks first). */
START_TEST(side_pot_tie)
{
	static const char *const want[] = {
		"Bruno wins the next pot, 42 chips, with spades, 31 points. Tie with Claire, clubs, 31 points. "
		"Bruno wins on primauté.",
		"Bruno gagne le pot suivant, 42 jetons, avec 31 points à pique. Égalité avec Claire, 31 points à trèfle. "
		"Bruno l'emporte à la primauté.",
	};
	side_pot_heard(_i, "brelan", 4, (const char *const[]){ "pack=20", NULL },
	               "AH AS AC JH  KH KS KC 10H  QH 10S 10C QD  JD  QS JS QC JC AD KD 10D\n", 2, want[_i]);
}
END_TEST

START_TEST(brelan_shown_and_paid)
{
	/* Bruno's brelan of kings named in the showdown and paid by everyone;
	 * the next deal turns a king, which must not make it a carré. */
	struct tu_game tg;
	tu_game_init(&tg, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_stack(&tg, "AD KH QH 9H  9C KD QD 8D  8H KC AS QS  AH  KS 9S 8S 9D AC QC 8C\n--\n"
	                   "AD KH QH 9H  9C KD QD 8D  8H KC AS QS  KS  AH 9S 8S 9D AC QC 8C\n");
	struct batch bt;
	batch_init(&bt, &tg, "bouillotte");
	static const char *const acts[] = { "open 1", "call", "fold", "fold", "pass" };
	for (int i = 0; i < 5; i++)
		batch_do(&bt, acts[i]);
	HEARD(&bt, "Bruno wins the pot, 7 chips, with a brelan of kings. Next best: ");
	struct sbuf b;
	batch_ask(&bt, 'L', &b);
	ck_assert_msg(strstr(b.s, "Bruno: king of hearts, king of diamonds and king of clubs, a brelan of kings.") != NULL,
	              "%s", b.s);
	HEARD(&bt, "You pay Bruno 1 chip for the brelan.");
	HEARD(&bt, "Claire pays Bruno 1 chip for the brelan.");
	ck_assert_ptr_null(strstr(bt.said, "carré"));
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

START_TEST(cave_question)
{
	/* Brelan cavé: a player short of a full cave is asked before the deal. */
	struct tu_game tg;
	tu_game_init(&tg, "brelan", 3, 2, 1, (const char *const[]){ "caves=3", "cave=10", NULL });
	struct vying *v = tg.st;
	v->chips[0] = 5;
	v->bought[0] -= 5;
	struct batch bt;
	batch_init(&bt, &tg, "brelan");
	struct sbuf b;
	batch_ask(&bt, 0, &b);
	ck_assert_msg(strstr(b.s, "Before the deal: add a waiting cave, 10 chips, to the 5 chips in front of you?") != NULL,
	              "%s", b.s);
	batch_do(&bt, "take");
	HEARD(&bt, "You add a waiting cave: 10 chips.");
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

/* An all-in everybody folds to: the uncalled chips are said to come back
 * first, then the pot as it was matched; in English and in French, to the
 * winner and to another player. */
START_TEST(uncalled_chips_come_back)
{
	static const char *const want[][4] = {
		{ "98 uncalled chips come back to you.\nYou take the pot: 6 chips.\n",
		  "98 uncalled chips go back to ", "takes the pot: 6 chips." },
		{ "Personne n'a tenu : vos 98 jetons vous reviennent.\nVous ramassez le pot : 6 jetons.\n",
		  "Les 98 jetons que personne n'a tenus reviennent à ", "ramasse le pot : 6 jetons." },
	};
	char err[256];
	for (int me = 0; me < 2; me++) {
		ck_assert_msg(i18n_set_lang(_i ? "fr" : "en", err, sizeof err) == 0, "%s", err);
		struct tu_game tg;
		tu_game_init(&tg, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
		struct batch bt;
		batch_init(&bt, &tg, "bouillotte");
		bt.t.me = me;
		bt.said[0] = 0;
		static const char *const acts[] = { "allin", "fold", "fold", "fold" };
		for (int i = 0; i < 4; i++)
			batch_do(&bt, acts[i]);
		if (me == 0) {
			HEARD(&bt, want[_i][0]);
		} else {
			HEARD(&bt, want[_i][1]);
			HEARD(&bt, want[_i][2]);
			ck_assert(strstr(bt.said, want[_i][1]) < strstr(bt.said, want[_i][2]));
		}
		free(bt.view);
		tu_game_release(&tg);
		ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
	}
}
END_TEST

/* Every survivor but Denis is all in: nobody could answer his raise, so
 * the menu, T, the bots and the hint keep to call and fold, a raise typed
 * is refused with the reason, and no raise is ever heard. In Bouillotte
 * and in Le Brelan. */
START_TEST(raise_nobody_can_answer)
{
	const char *game = _i ? "brelan" : "bouillotte";
	struct tu_game tg;
	tu_game_init(&tg, game, 4, 3, 1,
	             _i ? (const char *const[]){ "brelan_pay=0", NULL }
	                : (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
	struct vying *v = tg.st;
	v->chips[0] = v->bought[0] = 10;
	v->chips[1] = v->bought[1] = 20;
	struct batch bt;
	batch_init(&bt, &tg, game);
	batch_do(&bt, "allin");
	batch_do(&bt, "allin");
	batch_do(&bt, "fold");
	ck_assert_int_eq(tg.g->to_act(tg.st), 3);
	ck_assert(!vying_may_raise(v, 3));
	struct action l[16];
	int n = tg.g->legal(tg.st, l, 16);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(l[0].kind, ACT_CALL);
	ck_assert_int_eq(l[1].kind, ACT_FOLD);
	bt.t.me = 3;
	struct sbuf b;
	batch_ask(&bt, 'T', &b);
	ck_assert_msg(strstr(b.s, "raise") == NULL && strstr(b.s, "all in") == NULL, "%s", b.s);
	struct refusal why;
	struct vying copy = *v;
	struct action r = act_amount(ACT_RAISE, 50);
	ck_assert_int_ne(tg.g->apply(&copy, &r, NULL, &why), 0);
	ck_assert_int_eq(why.code, VY_REF_NO_RAISE);
	sb_clear(&b);
	ann_refusal(&bt.t, bt.gt, bt.view, &why, &b);
	ck_assert_str_eq(b.s, "The others are all in: nobody could answer a raise. Call or fold.");
	copy = *v;
	struct action all = act_simple(ACT_ALLIN);
	ck_assert_int_ne(tg.g->apply(&copy, &all, NULL, &why), 0);
	ck_assert_int_eq(why.code, VY_REF_NO_RAISE);
	/* No bot raises, at any level, and the hint does not either. */
	for (int k = 0; k < 40; k++) {
		struct rng rng;
		rng_seed(&rng, (uint64_t)k);
		struct action a;
		bot_choose(tg.g, tu_bot(tg.g), tg.st, 1 + k % 3, &rng, &a);
		ck_assert_msg(a.kind == ACT_CALL || a.kind == ACT_FOLD, "level %d: kind %d", 1 + k % 3, a.kind);
		struct bot_reason hw;
		bot_hint(tg.g, tu_bot(tg.g), tg.st, 2, &rng, &a, &hw);
		ck_assert(a.kind == ACT_CALL || a.kind == ACT_FOLD);
	}
	batch_do(&bt, "call");
	ck_assert_msg(strstr(bt.said, "Denis raises") == NULL, "%s", bt.said);
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

/* A deal of three where you (seat 0) and Bruno (seat 1) start with the
 * chips given, Claire with 100; the deck gives you the point (diamonds).
 * The actions from seat 0; the events and the state kept in tg. */
static void pots_deal(struct batch *bt, struct tu_game *tg, int fr, int mine, int bruno,
                      const char *const *acts)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(fr ? "fr" : "en", err, sizeof err) == 0, "%s", err);
	tu_game_init(tg, "bouillotte", 3, 2, 1, (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
	tu_game_stack(tg, "AD KD 9D  8C 8S AC  9H 9S KC  8D  AS KS AH KH 8H 9C\n");
	struct vying *v = tg->st;
	v->chips[0] = v->bought[0] = mine;
	v->chips[1] = v->bought[1] = bruno;
	batch_init(bt, tg, "bouillotte");
	for (int i = 0; acts[i]; i++)
		batch_do(bt, acts[i]);
	ck_assert_int_eq(v->hand, 2);
	ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
}

/* The payments of deal 1 to seat s with reason r, summed. */
static int paid(struct batch *bt, struct tu_game *tg, int s, enum ev_reason r)
{
	(void)bt;
	(void)tg;
	int n = 0;
	for (int i = 0; i < bt->nlog; i++)
		if (bt->log[i].type == EV_PAYMENT && bt->log[i].to == s && bt->log[i].reason == r)
			n += bt->log[i].amount;
	return n;
}

/* At a showdown, the winner's chips nobody matched are not won: "You win
 * the pot" holds what was matched, and the rest comes back, said apart. */
START_TEST(showdown_uncalled_said_apart)
{
	static const char *const want[][2] = {
		{ "You win the pot, 42 chips, with diamonds, 38 points.", "61 uncalled chips come back to you." },
		{ "Vous gagnez le pot, 42 jetons, avec 38 points à carreau.", "Personne n'a tenu : vos 61 jetons vous reviennent." },
	};
	struct tu_game tg;
	struct batch bt;
	/* You open 80 (stake 81); Bruno calls all in with his 20; Claire folds. */
	pots_deal(&bt, &tg, _i, 100, 20, (const char *const[]){ "open 80", "allin", "fold", NULL });
	HEARD(&bt, want[_i][0]);
	HEARD(&bt, want[_i][1]);
	ck_assert(strstr(bt.said, want[_i][0]) < strstr(bt.said, want[_i][1]));
	ck_assert_int_eq(paid(&bt, &tg, 0, EV_PAY_POT), 42);
	ck_assert_int_eq(paid(&bt, &tg, 0, EV_PAY_RETURN), 61);
	/* The chips are what they were: 100 - 81 + 103 */
	int he = -1;
	for (int i = 0; i < bt.nlog; i++)
		if (bt.log[i].type == EV_HAND_END && he < 0)
			he = i;
	ck_assert_int_ge(he, 0);
	ck_assert_int_eq(bt.log[he].values[0], 122);
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

/* Bruno, alone in the last pot, takes Claire's chips, who folded there:
 * they are won, and only what she did not match of his comes back. */
START_TEST(lone_side_pot_is_won)
{
	static const char *const want[][2] = {
		{ "Bruno takes the next pot: 100 chips.", "40 uncalled chips go back to Bruno." },
		{ "Bruno ramasse le pot suivant : 100 jetons.", "Les 40 jetons que personne n'a tenus reviennent à Bruno." },
	};
	struct tu_game tg;
	struct batch bt;
	/* You go all in with 10; Bruno raises to 31, Claire to 60, Bruno all
	 * in to 100; Claire folds. You win the first pot on the point. */
	pots_deal(&bt, &tg, _i, 10, 100, (const char *const[]){ "allin", "raise 30", "raise 58", "allin", "fold", NULL });
	HEARD(&bt, _i ? "Vous gagnez le pot, 30 jetons" : "You win the pot, 30 chips");
	HEARD(&bt, want[_i][0]);
	HEARD(&bt, want[_i][1]);
	ck_assert_int_eq(paid(&bt, &tg, 1, EV_PAY_SIDE_POT), 100);
	ck_assert_int_eq(paid(&bt, &tg, 1, EV_PAY_RETURN), 40);
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

/* Short of the opening: nothing to call yet, so no "call with all you
 * have" (Bouillotte: pass; Le Brelan: all in, tapis, is allowed); short of
 * a raise: the call with all you have. */
START_TEST(short_refusal_before_the_opening)
{
	static const char *const want[][3] = {
		{ "Not enough chips: opening takes 1 chip. You may pass.",
		  "Not enough chips: opening takes 4 chips. You may go all in with what you have.",
		  "Not enough chips: it takes 5 chips. You may call with all you have." },
		{ "Pas assez de jetons : ouvrir demande 1 jeton. Vous pouvez passer.",
		  "Pas assez de jetons : ouvrir demande 4 jetons. Vous pouvez jouer votre va-tout avec ce qui vous reste.",
		  "Pas assez de jetons : il en faut 5 jetons. Vous pouvez tenir avec tout ce que vous avez." },
	};
	char err[256];
	ck_assert_msg(i18n_set_lang(_i ? "fr" : "en", err, sizeof err) == 0, "%s", err);
	for (int k = 0; k < 3; k++) {
		const char *game = k == 1 ? "brelan" : "bouillotte";
		struct tu_game tg;
		tu_game_init(&tg, game, 4, 3, 1, k == 1 ? NULL : (const char *const[]){ "straddle=no", NULL });
		struct batch bt;
		batch_init(&bt, &tg, game);
		struct vying *v = tg.st;
		if (k == 2) {
			batch_do(&bt, "open 4");   /* stake 5 */
			v->chips[1] = 4;           /* Bruno: 4 to call, 4 chips */
		} else {
			v->chips[0] = k == 1 ? 3 : 0;
		}
		struct refusal why;
		struct action a = k == 2 ? act_amount(ACT_RAISE, 5) : act_amount(ACT_OPEN, k == 1 ? 3 : 1);
		ck_assert_int_ne(tg.g->apply(tg.st, &a, NULL, &why), 0);
		ck_assert_int_eq(why.code, VY_REF_SHORT);
		memcpy(bt.view, tg.st, tg.g->state_size);
		struct sbuf b;
		sb_clear(&b);
		ann_refusal(&bt.t, bt.gt, bt.view, &why, &b);
		ck_assert_str_eq(b.s, want[_i][k]);
		free(bt.view);
		tu_game_release(&tg);
	}
	ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
}
END_TEST

/* Le Brelan: Claire's spades and Bruno's clubs tie for the next best, 21
 * points each; Bruno, nearer the dealer's right, has primauté and is the
 * one named, as the rules would rank them. */
START_TEST(next_best_by_primaute)
{
	static const char *const want[] = {
		"You win the pot, 12 chips, with hearts, 41 points. Next best: Bruno, clubs, 21 points.",
		"Vous gagnez le pot, 12 jetons, avec 41 points à cœur. Ensuite : Bruno, avec 21 points à trèfle.",
	};
	char err[256];
	ck_assert_msg(i18n_set_lang(_i ? "fr" : "en", err, sizeof err) == 0, "%s", err);
	struct tu_game tg;
	tu_game_init(&tg, "brelan", 3, 2, 1, NULL);
	tu_game_stack(&tg, "AH AC AS  KH KC KS  QH 8D 9D  JH  AD KD QS QC QD JS JC JD TS TH TD TC 9S 9H 9C 8S 8H 8C\n");
	struct batch bt;
	batch_init(&bt, &tg, "brelan");
	batch_do(&bt, "open 3");
	batch_do(&bt, "call");
	batch_do(&bt, "call");
	HEARD(&bt, want[_i]);
	free(bt.view);
	tu_game_release(&tg);
	ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
}
END_TEST

/* Before the opening, the others' last chips went into the antes or the
 * passe: nobody could answer more than the least opening, so that is all
 * the opener is offered, and more is refused with the reason. */
START_TEST(opening_nobody_can_answer)
{
	const char *game = _i ? "brelan" : "bouillotte";
	struct tu_game tg;
	tu_game_init(&tg, game, 3, 2, 1,
	             _i ? (const char *const[]){ "brelan_pay=0", NULL }
	                : (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
	struct vying *v = tg.st;
	v->chips[1] = v->bought[1] = 1;
	v->chips[2] = v->bought[2] = _i ? 1 : 2;
	struct batch bt;
	batch_init(&bt, &tg, game);
	ck_assert_int_eq(tg.g->to_act(tg.st), 0);
	int m = vying_min_open(v, 0);
	struct action l[16];
	int n = tg.g->legal(tg.st, l, 16);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(l[0].kind, ACT_PASS);
	ck_assert_int_eq(l[1].kind, ACT_OPEN);
	ck_assert_int_eq(l[1].amount, m);
	ck_assert_int_eq(l[1].amount_max, m);
	struct refusal why;
	struct vying copy = *v;
	struct action big = act_amount(ACT_OPEN, m + 10);
	ck_assert_int_ne(tg.g->apply(&copy, &big, NULL, &why), 0);
	ck_assert_int_eq(why.code, VY_REF_NO_RAISE);
	struct sbuf b;
	sb_clear(&b);
	memcpy(bt.view, tg.st, tg.g->state_size);
	ann_refusal(&bt.t, bt.gt, bt.view, &why, &b);
	char want[128];
	snprintf(want, sizeof want, "The others are all in: nobody could answer more than the opening, %d chip%s.", m,
	         m == 1 ? "" : "s");
	ck_assert_str_eq(b.s, want);
	for (int k = 0; k < 30; k++) {
		struct rng rng;
		rng_seed(&rng, (uint64_t)k);
		struct action a;
		bot_choose(tg.g, tu_bot(tg.g), tg.st, 1 + k % 3, &rng, &a);
		ck_assert(a.kind == ACT_PASS || (a.kind == ACT_OPEN && a.amount == m));
	}
	free(bt.view);
	tu_game_release(&tg);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("talk_vying");
	TCase *tc = tcase_create("talk");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, whole_games_spoken);
	tcase_add_test(tc, example_showdown_words);
	tcase_add_test(tc, menu_says_the_stake);
	tcase_add_test(tc, short_call_is_one_item);
	tcase_add_test(tc, straddle_question_before_the_cards);
	tcase_add_test(tc, carre_levels_have_their_verbs);
	tcase_add_test(tc, showdown_after_the_whole_action);
	tcase_add_test(tc, scores_in_levels);
	tcase_add_test(tc, va_tout_in_one_sentence);
	tcase_add_test(tc, brelan_shown_and_paid);
	tcase_add_loop_test(tc, side_pot_why, 0, 2);
	tcase_add_loop_test(tc, side_pot_tie, 0, 2);
	tcase_add_test(tc, cave_question);
	tcase_add_loop_test(tc, uncalled_chips_come_back, 0, 2);
	tcase_add_loop_test(tc, raise_nobody_can_answer, 0, 2);
	tcase_add_loop_test(tc, opening_nobody_can_answer, 0, 2);
	tcase_add_loop_test(tc, showdown_uncalled_said_apart, 0, 2);
	tcase_add_loop_test(tc, lone_side_pot_is_won, 0, 2);
	tcase_add_loop_test(tc, short_refusal_before_the_opening, 0, 2);
	tcase_add_loop_test(tc, next_best_by_primaute, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
