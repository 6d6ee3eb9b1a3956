/* Talk of Bouillotte and Le Brelan: every event and query phrased, in
 * English (the msgids), on whole games; the worked example's showdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "games/vying.h"
#include "speech/announce.h"
#include "speech/talk.h"
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
	l.g = game_find(game);
	l.gt = talk_find(game);
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
		static const char keys[] = "CSTRF123456";
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
		bot_choose(l.g, l.st, 2, &rng, &a);
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
	l.gt = talk_find("bouillotte");
	l.t.game = t.g;
	l.t.me = 0;
	l.t.players = 4;
	l.st = t.st;
	l.view = calloc(1, t.g->state_size);
	struct sink s = { hear, &l };
	t.g->start(t.st, &s);
	static const char *const acts[] = { "pass", "open 1", "call", "fold", "fold" };
	for (int i = 0; i < 5; i++) {
		struct action a;
		char err[64];
		ck_assert(act_parse(acts[i], &a, err, sizeof err) == 0);
		struct refusal why;
		ck_assert(t.g->apply(t.st, &a, &s, &why) == 0);
	}
	/* Every hand shown, then the winner with the suit and its points. */
	ck_assert_ptr_nonnull(strstr(l.last_showdown, "Showdown."));
	ck_assert_ptr_nonnull(strstr(l.last_declare, "hearts"));
	ck_assert_ptr_nonnull(strstr(l.last_declare, "39"));
	free(l.view);
	tu_game_release(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("talk_vying");
	TCase *tc = tcase_create("talk");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, whole_games_spoken);
	tcase_add_test(tc, example_showdown_words);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
