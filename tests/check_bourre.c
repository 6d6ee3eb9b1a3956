/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bourré: the seed's worked examples, the play rules, the cinch, the
 * variations, a legality checker against a plain reference, the referee. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "core/card.h"
#include "bots/bot.h"
#include "core/rng.h"
#include "games/bourre.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"
#include "words/talk_hint.h"
#include "testutil.h"

#define ST(t) ((struct bourre_state *)(t)->st)

/* Parse "AS KS 2H" into cards; returns the count. */
static int cards_of(const char *text, card_t *out)
{
	int n = 0;
	const char *p = text;
	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t used = card_parse_prefix(p, &out[n]);
		ck_assert_msg(used > 0, "bad card near %s", p);
		n++;
		p += used;
	}
	return n;
}

/* Append to deck text a pack dealing `hands` (per seat, ncards each, the
 * dealer's last card being his last dealt) one at a time from the dealer's
 * left, then `extra` (the turned card when separate, the stock top), then
 * every other card. */
static void pack_text(char *buf, size_t len, int players, int dealer, int ncards,
                      const char *const *hands, const char *extra)
{
	card_t h[8][8];
	int used[64] = { 0 };
	for (int s = 0; s < players; s++) {
		int n = hands[s] ? cards_of(hands[s], h[s]) : 0;
		ck_assert_msg(n == 0 || n == ncards, "seat %d: %d cards", s, n);
		for (int i = 0; i < n; i++)
			used[h[s][i]]++;
		if (n == 0)
			h[s][0] = 0;
	}
	card_t ex[52];
	int nex = extra ? cards_of(extra, ex) : 0;
	for (int i = 0; i < nex; i++)
		used[ex[i]]++;
	card_t full[52];
	card_pack_full(full, 1);
	card_t rest[52];
	int nrest = 0;
	for (int i = 0; i < 52; i++)
		if (!used[full[i]])
			rest[nrest++] = full[i];
		else
			ck_assert_msg(used[full[i]] == 1, "card twice in a stacked pack");
	/* unnamed hands take the last free cards */
	for (int s = 0; s < players; s++)
		if (!h[s][0])
			for (int i = 0; i < ncards; i++)
				h[s][i] = rest[--nrest];
	size_t at = strlen(buf);
	char c[CARD_STR_MAX];
	for (int r = 0; r < ncards; r++)
		for (int k = 1; k <= players; k++) {
			int s = (dealer + k) % players;
			at += (size_t)snprintf(buf + at, len - at, "%s ", card_str(h[s][r], c));
		}
	for (int i = 0; i < nex; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s ", card_str(ex[i], c));
	for (int i = 0; i < nrest; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s ", card_str(rest[i], c));
	snprintf(buf + at, len - at, "\n--\n");
}

static int pot_after_antes(struct tu_game *t) { return ST(t)->pot; }

/* ---- the seed's three deals: pots 7, 13, 30, 65 ---- */

START_TEST(test_three_deals)
{
	static const char *const rules[] = { "hands=4", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 7, 6, 1, rules);
	char deck[8192] = "";
	/* Deal 1, dealer G (6), spades: E has A-K-Q (a cinch). */
	const char *d1[7] = { NULL, "AH KH QH JH 8C", "2H 3H 4H 5H 6H", NULL, "AS KS QS 3D 4D",
	                      NULL, "AD 5C 6C 7C 2S" };
	pack_text(deck, sizeof deck, 7, 6, 5, d1, NULL);
	/* Deal 2, dealer A (0), clubs turned (3C). */
	const char *d2[7] = { "TS AD KD 2C 3C", "AS 6S 7S 8S 2D", NULL, NULL, "2S 3S 4S 5S 3D",
	                      "9S 4D 5D AC KC", NULL };
	pack_text(deck, sizeof deck, 7, 0, 5, d2, NULL);
	/* Deal 3, dealer B (1), spades turned (2S), D holds the five top trumps. */
	const char *d3[7] = { NULL, "3C 4C 5C 6C 2S", "3H 4H 5H 6H 7H", "AS KS QS JS TS",
	                      "3D 4D 5D 6D 7D", NULL, NULL };
	pack_text(deck, sizeof deck, 7, 1, 5, d3, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(pot_after_antes(&t), 7);
	ck_assert_int_eq(ST(&t)->trump, SUIT_SPADES);
	tu_game_script(&t,
		"0 pass\n1 stay\n1 discard\n2 stay\n2 discard\n3 pass\n4 stay\n4 discard\n5 pass\n"
		"6 stay\n6 discard\n"
		"1 play AH\n2 play 2H\n4 play AS\n6 play 2S\n"
		"4 play KS\n6 play 5C\n1 play JH\n2 play 3H\n"
		"4 play QS\n6 play 6C\n1 play QH\n2 play 4H\n"
		"4 play 3D\n6 play AD\n1 play KH\n2 play 5H\n"
		"6 play 7C\n1 play 8C\n2 play 6H\n4 play 4D\n");
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	ck_assert_int_eq(ST(&t)->chips[4], 100 - 1 + 7 - 1);  /* E took 7, anted again */
	ck_assert_int_eq(ST(&t)->chips[2], 100 - 1 - 7);      /* C: bourré, no ante */
	ck_assert_int_eq(pot_after_antes(&t), 13);
	ck_assert_int_eq(ST(&t)->trump, SUIT_CLUBS);
	int he = tu_events_find(&t.ev, EV_HAND_END, 0);
	ck_assert_int_ge(he, 0);
	ck_assert_int_eq(t.ev.e[he].pot, 7);
	tu_game_script(&t,
		"1 stay\n1 discard\n2 pass\n3 pass\n4 stay\n4 discard\n5 stay\n5 discard\n6 pass\n"
		"0 stay\n0 discard\n"
		"1 play AS\n4 play 2S\n5 play 9S\n0 play TS\n"
		"1 play 2D\n4 play 3D\n5 play 4D\n0 play AD\n"
		"0 play 2C\n1 play 6S\n4 play 3S\n5 play AC\n"
		"5 play KC\n0 play 3C\n1 play 7S\n4 play 4S\n"
		"5 play 5D\n0 play KD\n1 play 8S\n4 play 5S\n");
	ck_assert_int_eq(ST(&t)->hand_no, 3);
	ck_assert_int_eq(pot_after_antes(&t), 30);
	tu_game_script(&t,
		"2 stay\n2 discard\n3 stay\n3 discard\n4 stay\n4 discard\n5 pass\n6 pass\n0 pass\n1 pass\n"
		"2 play 3H\n3 play AS\n4 play 3D\n"
		"3 play KS\n4 play 4D\n2 play 4H\n"
		"3 play QS\n4 play 5D\n2 play 5H\n"
		"3 play JS\n4 play 6D\n2 play 6H\n"
		"3 play TS\n4 play 7D\n2 play 7H\n");
	ck_assert_int_eq(ST(&t)->hand_no, 4);
	ck_assert_int_eq(pot_after_antes(&t), 65);
	char err[200];
	ck_assert_msg(t.g->audit(t.st, err, sizeof err) == 0, "%s", err);
	/* the payments of deal 3: D took 30, C and E paid 30 each */
	int n30 = 0;
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PAYMENT && t.ev.e[i].amount == 30)
			n30++;
	ck_assert_int_eq(n30, 3);
	tu_game_release(&t);
}
END_TEST

/* ---- the seed's card-play example ---- */

/* A 3-player deal, dealer 2, spades trumps; seat 0 leads. */
static void play_example(struct tu_game *t, const char *second)
{
	tu_game_init(t, "bourre", 3, 2, 1, NULL);
	char deck[2048] = "";
	const char *h[3] = { "QD 2C 3C 4C 5C", second, "AD 6D 7S 8S 9S" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, NULL);
	tu_game_stack(t, deck);
	tu_game_start(t);
	tu_game_script(t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 discard\n0 play QD\n");
}

START_TEST(test_play_example)
{
	struct tu_game t;
	struct refusal why;
	/* the second player trumps with the four of spades */
	play_example(&t, "4S 2H 3H 4H 5H");
	tu_game_script(&t, "1 play 4S\n");
	ck_assert_int_eq(tu_game_try(&t, "play 7S", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_FOLLOW);
	ck_assert_int_eq(why.suit, SUIT_DIAMONDS);
	struct action legal[GAME_MAX_LEGAL];
	int n = t.g->legal(t.st, legal, GAME_MAX_LEGAL);
	ck_assert_int_eq(n, 2); /* AD and 6D: the ace is not required */
	tu_game_script(&t, "2 play 6D\n");
	ck_assert_int_eq(ST(&t)->tricks[1], 1);
	tu_game_release(&t);
	/* the second player follows with a diamond: the ace is required */
	play_example(&t, "2D 2H 3H 4H 5H");
	tu_game_script(&t, "1 play 2D\n");
	ck_assert_int_eq(tu_game_try(&t, "play 6D", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_BEAT);
	ck_assert_int_eq(why.card, card_make(RANK_QUEEN, SUIT_DIAMONDS));
	tu_game_script(&t, "2 play AD\n");
	tu_game_release(&t);
	/* void in diamonds with trumps: must trump, and overtrump when able */
	play_example(&t, "4S 2H 3H 4H 5H");
	ck_assert_int_eq(tu_game_try(&t, "play 2H", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_TRUMP);
	ck_assert_int_eq(why.suit, SUIT_SPADES);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_overtrump)
{
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	char deck[2048] = "";
	const char *h[3] = { "QD 2C 3C 4C 5C", "8S 2H 3H 4H 5H", "3S JS 6H 7H 9S" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 discard\n0 play QD\n1 play 8S\n");
	ck_assert_int_eq(tu_game_try(&t, "play 3S", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_OVERTRUMP);
	ck_assert_int_eq(why.card, card_make(RANK_EIGHT, SUIT_SPADES));
	ck_assert_int_eq(tu_game_try(&t, "play 6H", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_TRUMP);
	struct refusal r;
	ck_assert_int_eq(bourre_constraint(ST(&t), 2, &r), BR_REF_OVERTRUMP);
	tu_game_script(&t, "2 play 9S\n");
	ck_assert_int_eq(ST(&t)->tricks[2], 1);
	tu_game_release(&t);
}
END_TEST

/* ---- the cinch ---- */

START_TEST(test_cinch_akq)
{
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	char deck[2048] = "";
	/* trumps: spades (the dealer's 2S) */
	const char *h[3] = { "AS KS QS 3D 4D", "5H 6H 7H 8H 9H", "2C 3C 4C 5C 2S" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 discard\n");
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 3);
	ck_assert(bourre_cinch(ST(&t), 0));
	ck_assert_int_eq(tu_game_try(&t, "play 3D", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_CINCH_LEAD);
	ck_assert_int_eq(why.card, card_make(RANK_ACE, SUIT_SPADES));
	/* the king from ace-king is accepted */
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 3);
	tu_game_script(&t, "0 play KS\n1 play 5H\n2 play 2S\n");
	ck_assert_int_eq(ST(&t)->tricks[0], 1);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_cinch_kq1098)
{
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	char deck[2048] = "";
	/* the ace with seat 1, the jack in the stock: three sure (the ace takes the king, the jack the ten) */
	const char *h[3] = { "KS QS TS 9S 8S", "5H 6H 7H 8H AS", "2C 3C 4C 5C 2S" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 discard\n");
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 3);
	ck_assert(bourre_cinch(ST(&t), 0));
	ck_assert_int_eq(tu_game_try(&t, "play TS", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_CINCH_LEAD);
	ck_assert_int_eq(why.card, card_make(RANK_KING, SUIT_SPADES));
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 2); /* K, and Q next to it */
	tu_game_script(&t, "0 play QS\n1 play AS\n2 play 2S\n");
	/* seat 1 leads a heart; seat 2 is void but has no trump; seat 0 last */
	tu_game_script(&t, "1 play 5H\n2 play 2C\n");
	/* seat 0 plays last: no extra restriction beyond the plain rules */
	struct refusal r;
	ck_assert_int_eq(bourre_constraint(ST(&t), 0, &r), BR_REF_TRUMP);
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 4);
	tu_game_script(&t, "0 play 8S\n");
	tu_game_release(&t);
}
END_TEST

START_TEST(test_cinch_follow)
{
	/* four players: the cinch holder plays second, void in the led suit */
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 4, 3, 1, NULL);
	char deck[2048] = "";
	const char *h[4] = { "5H 6H 7H 8H 9H", "AS KS QS 9S 4C", "2D 3D 4D 5D 6D", "7C 8C 9C TC 2S" };
	pack_text(deck, sizeof deck, 4, 3, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 discard\n3 stay\n3 discard\n"
	                   "0 play 5H\n");
	ck_assert_int_eq(tu_game_try(&t, "play 9S", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_CINCH_FOLLOW);
	ck_assert_int_eq(why.card, card_make(RANK_ACE, SUIT_SPADES));
	struct refusal r;
	ck_assert_int_eq(bourre_constraint(ST(&t), 1, &r), BR_REF_CINCH_FOLLOW);
	tu_game_script(&t, "1 play KS\n2 play 2D\n3 play 2S\n");
	tu_game_release(&t);
}
END_TEST

START_TEST(test_cinch_three_tricks)
{
	/* seat 0 wins three tricks with side aces, then must lead its trump */
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 2, 1, 1, NULL);
	char deck[2048] = "";
	const char *h[2] = { "AH AD AC 3S 2H", "KH KD KC 4H 2S" };
	pack_text(deck, sizeof deck, 2, 1, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n"
	                   "0 play AH\n1 play KH\n0 play AD\n1 play KD\n0 play AC\n1 play KC\n");
	ck_assert_int_eq(ST(&t)->tricks[0], 3);
	ck_assert(bourre_cinch(ST(&t), 0));
	ck_assert_int_eq(tu_game_try(&t, "play 2H", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_CINCH_LEAD);
	ck_assert_int_eq(why.card, card_make(RANK_THREE, SUIT_SPADES));
	tu_game_script(&t, "0 play 3S\n1 play 2S\n0 play 2H\n1 play 4H\n");
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	tu_game_release(&t);
}
END_TEST

/* ---- the strict table ---- */

static const char *const STRICT[] = { "strict=yes", NULL };

/* A game under these rules whose first deal gives each seat its hand (five
 * cards, dealer's last turned); everyone stays and keeps his cards. */
static void deal_hands(struct tu_game *t, const char *const *rules, int players, int dealer,
                       const char *const *hands)
{
	tu_game_init(t, "bourre", players, dealer, 1, rules);
	char deck[2048] = "", script[256] = "";
	pack_text(deck, sizeof deck, players, dealer, 5, hands, NULL);
	tu_game_stack(t, deck);
	tu_game_start(t);
	for (int k = 1; k <= players; k++) {
		int s = (dealer + k) % players;
		snprintf(script + strlen(script), sizeof script - strlen(script), "%d stay\n%d discard\n", s, s);
	}
	tu_game_script(t, script);
}

/* Count the renege announcements (EV_PHASE "renege") and the renege
 * payments of a seat. */
static int reneges_of(const struct tu_game *t, int seat, int *paid)
{
	int n = 0;
	*paid = 0;
	for (int i = 0; i < t->ev.n; i++) {
		const struct event *e = &t->ev.e[i];
		if (e->type == EV_PHASE && e->note == EV_NOTE_RENEGE && e->seat == seat)
			n++;
		if (e->type == EV_PAYMENT && e->reason == EV_PAY_RENEGE && e->from == seat)
			*paid += e->amount;
	}
	return n;
}

/* A renege is played, announced after the trick, and paid for at the end of
 * the deal as a bourre; a card not held is still refused. */
START_TEST(test_strict_renege)
{
	struct tu_game t;
	struct refusal why;
	const char *h[3] = { "QD 2C 3C 4C 5C", "2D 2H 3H 4H 5H", "AD 6D 7S 8S 9S" };
	deal_hands(&t, STRICT, 3, 2, h);
	tu_game_script(&t, "0 play QD\n");
	/* every held card is legal, the proper one first */
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 5);
	ck_assert_int_eq(legal[0].cards[0], card_make(RANK_TWO, SUIT_DIAMONDS));
	ck_assert(bourre_renege(ST(&t), 1, card_make(RANK_TWO, SUIT_HEARTS)));
	ck_assert(!bourre_renege(ST(&t), 1, card_make(RANK_TWO, SUIT_DIAMONDS)));
	ck_assert_int_eq(tu_game_try(&t, "play AS", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_NOT_HELD);
	tu_game_script(&t, "1 play 2H\n");
	int paid, n = t.ev.n;
	/* nothing said before the trick is complete */
	ck_assert_int_eq(reneges_of(&t, 1, &paid), 0);
	tu_game_script(&t, "2 play AD\n");
	ck_assert_int_eq(reneges_of(&t, 1, &paid), 1);
	int tr = tu_events_find(&t.ev, EV_TRICK, n);
	int ph = tu_events_find(&t.ev, EV_PHASE, n);
	ck_assert_int_gt(ph, tr);
	const struct event *e = &t.ev.e[ph];
	ck_assert_int_eq(e->note, EV_NOTE_RENEGE);
	ck_assert_int_eq(e->code, BR_REF_FOLLOW);
	ck_assert_int_eq(e->value, SUIT_DIAMONDS);
	ck_assert_int_eq(e->cards[0], card_make(RANK_TWO, SUIT_HEARTS));
	/* the hearts played are no void in diamonds */
	ck_assert_int_eq(ST(&t)->voids[1] & (1 << SUIT_DIAMONDS), 0);
	ck_assert_int_eq(ST(&t)->reneges[1], 1);
	tu_game_script(&t, "2 play 6D\n0 play 2C\n1 play 2D\n"
	                   "2 play 7S\n0 play 3C\n1 play 3H\n"
	                   "2 play 9S\n0 play 4C\n1 play 4H\n"
	                   "2 play 8S\n0 play 5C\n1 play 5H\n");
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	/* pot 3 to seat 2; seats 0 and 1 bourre (3 each); seat 1 pays 3 more */
	ck_assert_int_eq(reneges_of(&t, 1, &paid), 1);
	ck_assert_int_eq(paid, 3);
	int he = tu_events_find(&t.ev, EV_HAND_END, 0);
	ck_assert_int_eq(t.ev.e[he].values[0], 96);
	ck_assert_int_eq(t.ev.e[he].values[1], 93);
	ck_assert_int_eq(t.ev.e[he].values[2], 102);
	ck_assert_int_eq(t.ev.e[he].pot, 9);
	/* the offender, like a bourre, antes nothing for the next deal */
	ck_assert_int_eq(ST(&t)->chips[1], 93);
	ck_assert_int_eq(ST(&t)->chips[2], 101);
	char err[200];
	ck_assert_msg(t.g->audit(t.st, err, sizeof err) == 0, "%s", err);
	tu_game_release(&t);

	/* strict=no (the default): the same card is refused */
	deal_hands(&t, NULL, 3, 2, h);
	tu_game_script(&t, "0 play QD\n");
	ck_assert_int_eq(tu_game_try(&t, "play 2H", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_FOLLOW);
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 1);
	ck_assert(!bourre_renege(ST(&t), 1, card_make(RANK_TWO, SUIT_HEARTS)));
	tu_game_release(&t);
}
END_TEST

/* Every rule of play makes a renege: trump, overtrump, beat, the cinch
 * lead and the cinch follow; each is announced with its rule. */
START_TEST(test_strict_every_rule)
{
	struct tu_game t;
	struct action legal[GAME_MAX_LEGAL];
	int paid;
	/* overtrump, then (another deal of the same cards) trump */
	for (int k = 0; k < 2; k++) {
		const char *h[3] = { "QD 2C 3C 4C 5C", "8S 2H 3H 4H 5H", "3S JS 6H 7H 9S" };
		deal_hands(&t, STRICT, 3, 2, h);
		tu_game_script(&t, "0 play QD\n1 play 8S\n");
		ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 5);
		tu_game_script(&t, k == 0 ? "2 play 3S\n" : "2 play 6H\n");
		ck_assert_int_eq(reneges_of(&t, 2, &paid), 1);
		const struct event *e = &t.ev.e[tu_events_find(&t.ev, EV_PHASE, tu_events_find(&t.ev, EV_TRICK, 0))];
		ck_assert_int_eq(e->code, k == 0 ? BR_REF_OVERTRUMP : BR_REF_TRUMP);
		if (k == 0)
			ck_assert_int_eq(e->cards[1], card_make(RANK_EIGHT, SUIT_SPADES));
		/* a renege of the duty to trump still shows the void in diamonds */
		if (k == 1)
			ck_assert_int_ne(ST(&t)->voids[2] & (1 << SUIT_DIAMONDS), 0);
		tu_game_release(&t);
	}
	/* beat: the ace of diamonds was required over the queen */
	const char *h[3] = { "QD 2C 3C 4C 5C", "2D 2H 3H 4H 5H", "AD 6D 7S 8S 9S" };
	deal_hands(&t, STRICT, 3, 2, h);
	tu_game_script(&t, "0 play QD\n1 play 2D\n2 play 6D\n");
	ck_assert_int_eq(reneges_of(&t, 2, &paid), 1);
	ck_assert_int_eq(ST(&t)->tricks[0], 1);
	tu_game_release(&t);
	/* the cinch lead: ace-king-queen of trumps, a diamond led */
	const char *c[3] = { "AS KS QS 3D 4D", "5H 6H 7H 8H 9H", "2C 3C 4C 5C 2S" };
	deal_hands(&t, STRICT, 3, 2, c);
	tu_game_script(&t, "0 play 3D\n1 play 5H\n2 play 2C\n");
	ck_assert_int_eq(reneges_of(&t, 0, &paid), 1);
	ck_assert_int_eq(t.ev.e[tu_events_find(&t.ev, EV_PHASE, tu_events_find(&t.ev, EV_TRICK, 0))].code,
	                 BR_REF_CINCH_LEAD);
	tu_game_release(&t);
	/* the cinch follow: void in hearts, the nine of trumps instead of the ace */
	const char *f[4] = { "5H 6H 7H 8H 9H", "AS KS QS 9S 4C", "2D 3D 4D 5D 6D", "7C 8C 9C TC 2S" };
	deal_hands(&t, STRICT, 4, 3, f);
	tu_game_script(&t, "0 play 5H\n1 play 9S\n2 play 2D\n3 play 2S\n");
	ck_assert_int_eq(reneges_of(&t, 1, &paid), 1);
	ck_assert_int_eq(t.ev.e[tu_events_find(&t.ev, EV_PHASE, tu_events_find(&t.ev, EV_TRICK, 0))].code,
	                 BR_REF_CINCH_FOLLOW);
	/* two reneges in a deal pay twice */
	tu_game_script(&t, "1 play 4C\n2 play 3D\n3 play 7C\n0 play 6H\n");
	ck_assert_int_eq(reneges_of(&t, 1, &paid), 2);
	tu_game_release(&t);
}
END_TEST

/* Four-card Bourre: a renege costs twice the pot. */
START_TEST(test_strict_four)
{
	static const char *const rules[] = { "strict=yes", "variant=four", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 3, 2, 1, rules);
	char deck[2048] = "";
	/* the separate trump card is the top of the stock: the 2 of spades */
	const char *h[3] = { "QD 2C 3C 4C", "2D 2H 3H 3S", "AD 6D 7S 8S" };
	pack_text(deck, sizeof deck, 3, 2, 4, h, "2S");
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(ST(&t)->trump, SUIT_SPADES);
	tu_game_script(&t, "0 stay\n1 stay\n2 stay\n0 discard\n1 discard\n2 discard\n0 stay\n1 stay\n2 stay\n"
	                   "0 play QD\n1 play 2H\n2 play AD\n"
	                   "2 play 6D\n0 play 2C\n1 play 2D\n"
	                   "2 play 7S\n0 play 3C\n1 play 3S\n"
	                   "2 play 8S\n0 play 4C\n1 play 3H\n");
	int paid;
	ck_assert_int_eq(reneges_of(&t, 1, &paid), 1);
	/* pot: 3 antes, 3 stays, 3 second stays = 9; the renege pays 18 */
	ck_assert_int_eq(paid, 18);
	tu_game_release(&t);
}
END_TEST

/* ---- declaring ---- */

START_TEST(test_lone_and_dealer)
{
	struct tu_game t;
	tu_game_init(&t, "bourre", 4, 3, 5, NULL);
	tu_game_start(&t);
	/* seat 1 stays alone: it wins the pot without play */
	tu_game_script(&t, "0 pass\n1 stay\n1 discard\n2 pass\n");
	if (ST(&t)->hand_no == 1 && card_rank(ST(&t)->turnup) != RANK_ACE)
		tu_game_script(&t, "3 pass\n");
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_TRICK), 0);
	ck_assert_int_eq(ST(&t)->chips[1], 100 - 1 + 4 - 1);
	/* everyone before the dealer (0) passes: the dealer takes the pot */
	ck_assert_int_eq(ST(&t)->dealer, 0);
	int pot = ST(&t)->pot;
	int before = ST(&t)->chips[0];
	tu_game_script(&t, "1 pass\n2 pass\n3 pass\n");
	ck_assert_int_eq(ST(&t)->hand_no, 3);
	ck_assert_int_eq(ST(&t)->chips[0], before + pot - 1);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_ace_forces_dealer)
{
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	char deck[2048] = "";
	const char *h[3] = { "KS QS 2H 3H 4H", "5H 6H 7H 8H 9H", "2C 3C 4C 5C AS" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 pass\n");
	ck_assert_int_eq(tu_game_try(&t, "pass", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_ACE_STAY);
	tu_game_script(&t, "2 stay\n2 discard 2C 3C\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_PLAY);
	ck_assert(card_find(ST(&t)->hand[2], ST(&t)->nhand[2], card_make(RANK_ACE, SUIT_SPADES)) >= 0);
	int d = tu_events_find(&t.ev, EV_DRAW, 0);
	d = tu_events_find(&t.ev, EV_DRAW, d + 1);
	ck_assert_int_eq(t.ev.e[d].ncards2, 2);
	ck_assert_int_eq(t.ev.e[d].visible, EV_SEAT(2));
	tu_game_release(&t);
}
END_TEST

START_TEST(test_discard_refusals)
{
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	char deck[2048] = "";
	const char *h[3] = { "KS QS 2H 3H 4H", "5H 6H 7H 8H 9H", "2C 3C 4C 5C 6S" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(tu_game_try(&t, "play KS", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_NOT_NOW);
	tu_game_script(&t, "0 stay\n");
	ck_assert_int_eq(tu_game_try(&t, "discard AS", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_NOT_HELD);
	ck_assert_int_eq(tu_game_try(&t, "discard KS KS", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_DISCARD_TWICE);
	struct action legal[GAME_MAX_LEGAL];
	/* the draw: one entry for the 32 sets of the hand */
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 1);
	ck_assert_int_eq(act_choices(&legal[0]), 32);
	struct action kq = act_simple(ACT_DISCARD), twice = kq, six = kq;
	kq.ncards = 2;
	kq.cards[0] = card_make(RANK_QUEEN, SUIT_SPADES);
	kq.cards[1] = card_make(RANK_KING, SUIT_SPADES);
	ck_assert(act_in_list(&kq, legal, 1));
	twice.ncards = 2;
	twice.cards[0] = twice.cards[1] = kq.cards[0];
	ck_assert(!act_in_list(&twice, legal, 1));
	six.ncards = 1;
	six.cards[0] = card_make(RANK_SIX, SUIT_SPADES);
	ck_assert(!act_in_list(&six, legal, 1));
	tu_game_script(&t, "0 discard KS QS 2H 3H 4H\n");
	ck_assert_int_eq(ST(&t)->nhand[0], 5);
	tu_game_release(&t);
}
END_TEST

/* Eight players: the stock runs out; the discards and passed hands of those
 * who acted are shuffled, not those of the player being served. */
START_TEST(test_stock_runs_out)
{
	struct tu_game t;
	tu_game_init(&t, "bourre", 8, 7, 3, NULL);
	char deck[2048] = "";
	const char *h[8] = { NULL };
	pack_text(deck, sizeof deck, 8, 7, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(ST(&t)->stock_n - ST(&t)->stock_pos, 12);
	char line[128];
	for (int s = 0; s < 3; s++) {
		char *p = line;
		p += sprintf(p, "%d stay\n%d discard", s, s);
		for (int i = 0; i < 5; i++) {
			char c[4];
			p += sprintf(p, " %s", card_str(ST(&t)->hand[s][i], c));
		}
		sprintf(p, "\n");
		card_t old[5];
		memcpy(old, ST(&t)->hand[s], 5);
		tu_game_script(&t, line);
		for (int i = 0; i < 5; i++)
			ck_assert_int_lt(card_find(ST(&t)->hand[s], 5, old[i]), 0);
		char err[200];
		ck_assert_msg(t.g->audit(t.st, err, sizeof err) == 0, "%s", err);
	}
	ck_assert_int_eq(ST(&t)->reshuffles, 1);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_PHASE), 1);
	/* 12 - 10 = 2 left when seat 2 drew: 2 then 3 from the 10 reshuffled */
	ck_assert_int_eq(ST(&t)->stock_n - ST(&t)->stock_pos, 7);
	ck_assert_int_eq(ST(&t)->ndead, 5);
	/* a pass adds a hand to the discards; then more draws */
	tu_game_script(&t, "3 pass\n4 stay\n");
	char *p = line;
	p += sprintf(p, "4 discard");
	for (int i = 0; i < 5; i++) {
		char c[4];
		p += sprintf(p, " %s", card_str(ST(&t)->hand[4][i], c));
	}
	sprintf(p, "\n");
	tu_game_script(&t, line);
	tu_game_script(&t, "5 stay\n5 discard\n6 stay\n6 discard\n7 stay\n7 discard\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_PLAY);
	char err[200];
	ck_assert_msg(t.g->audit(t.st, err, sizeof err) == 0, "%s", err);
	tu_game_release(&t);
}
END_TEST

/* Seat s stays and throws its whole hand; returns the cards thrown. */
static void throw_all(struct tu_game *t, int s, card_t *thrown)
{
	char line[128], *p = line;
	p += sprintf(p, "%d stay\n%d discard", s, s);
	for (int i = 0; i < 5; i++) {
		char c[4];
		thrown[i] = ST(t)->hand[s][i];
		p += sprintf(p, " %s", card_str(thrown[i], c));
	}
	sprintf(p, "\n");
	tu_game_script(t, line);
}

/* The cards left in the stock and the last `k` received by seat s make up
 * exactly the set `want` (n cards), and none of the seat's own discards. */
static void check_reshuffled(struct tu_game *t, int s, int k, const card_t *want, int n, const card_t *own)
{
	int d = -1, j;
	while ((j = tu_events_find(&t->ev, EV_DRAW, d + 1)) >= 0)
		d = j;
	const struct event *e = &t->ev.e[d];
	ck_assert_int_eq(e->seat, s);
	card_t got[52];
	int ng = 0;
	for (int i = ST(t)->stock_pos; i < ST(t)->stock_n; i++)
		got[ng++] = ST(t)->stock[i];
	for (int i = e->ncards2 - k; i < e->ncards2; i++)
		got[ng++] = e->cards2[i];
	ck_assert(card_same_multiset(got, ng, want, n));
	for (int i = 0; i < 5; i++)
		ck_assert_int_lt(card_find(got, ng, own[i]), 0);
}

/* Whose cards go back in when the stock runs out: the discards and passed
 * hands of the players who have acted, never those of the player being
 * served; twice in one deal. */
START_TEST(test_reshuffle_whose_cards)
{
	struct tu_game t;
	tu_game_init(&t, "bourre", 8, 7, 9, NULL);
	char deck[2048] = "";
	const char *h[8] = { NULL };
	pack_text(deck, sizeof deck, 8, 7, 5, h, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(ST(&t)->stock_n - ST(&t)->stock_pos, 12);
	card_t d[8][5], want[15];
	throw_all(&t, 0, d[0]);
	throw_all(&t, 1, d[1]);
	ck_assert_int_eq(ST(&t)->reshuffles, 0);
	/* seat 2 gets the last 2 cards, then 3 from the discards of seats 0
	 * and 1 (10 cards shuffled), never its own */
	throw_all(&t, 2, d[2]);
	ck_assert_int_eq(ST(&t)->reshuffles, 1);
	int ph = tu_events_find(&t.ev, EV_PHASE, 0);
	ck_assert_int_eq(t.ev.e[ph].note, EV_NOTE_RESHUFFLE);
	ck_assert_int_eq(t.ev.e[ph].value, 10);
	memcpy(want, d[0], 5);
	memcpy(want + 5, d[1], 5);
	check_reshuffled(&t, 2, 3, want, 10, d[2]);
	ck_assert_int_eq(ST(&t)->ndead, 5);
	/* seat 3 passes: its hand joins seat 2's discards; seat 4 draws the
	 * stock down to 2; seat 5 takes those 2, then 3 of the 15 shuffled:
	 * seat 2's discards, seat 3's hand and seat 4's discards */
	card_t h3[5];
	memcpy(h3, ST(&t)->hand[3], 5);
	tu_game_script(&t, "3 pass\n");
	throw_all(&t, 4, d[4]);
	ck_assert_int_eq(ST(&t)->stock_n - ST(&t)->stock_pos, 2);
	throw_all(&t, 5, d[5]);
	ck_assert_int_eq(ST(&t)->reshuffles, 2);
	ph = tu_events_find(&t.ev, EV_PHASE, ph + 1);
	ck_assert_int_eq(t.ev.e[ph].note, EV_NOTE_RESHUFFLE);
	ck_assert_int_eq(t.ev.e[ph].value, 15);
	memcpy(want, d[2], 5);
	memcpy(want + 5, h3, 5);
	memcpy(want + 10, d[4], 5);
	check_reshuffled(&t, 5, 3, want, 15, d[5]);
	char err[200];
	ck_assert_msg(t.g->audit(t.st, err, sizeof err) == 0, "%s", err);
	tu_game_release(&t);
}
END_TEST

/* ---- payments ---- */

START_TEST(test_limit)
{
	static const char *const rules[] = { "limit=5", "hands=2", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 7, 6, 1, rules);
	char deck[8192] = "";
	const char *d1[7] = { NULL, "AH KH QH JH 8C", "2H 3H 4H 5H 6H", NULL, "AS KS QS 3D 4D",
	                      NULL, "AD 5C 6C 7C 2S" };
	pack_text(deck, sizeof deck, 7, 6, 5, d1, NULL);
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t,
		"0 pass\n1 stay\n1 discard\n2 stay\n2 discard\n3 pass\n4 stay\n4 discard\n5 pass\n"
		"6 stay\n6 discard\n"
		"1 play AH\n2 play 2H\n4 play AS\n6 play 2S\n"
		"4 play KS\n6 play 5C\n1 play JH\n2 play 3H\n"
		"4 play QS\n6 play 6C\n1 play QH\n2 play 4H\n"
		"4 play 3D\n6 play AD\n1 play KH\n2 play 5H\n"
		"6 play 7C\n1 play 8C\n2 play 6H\n4 play 4D\n");
	/* E takes 5 of 7, C pays 5: 2 + 5 + 6 antes */
	int he = tu_events_find(&t.ev, EV_HAND_END, 0);
	ck_assert_int_eq(t.ev.e[he].pot, 7);
	ck_assert_int_eq(ST(&t)->pot, 13);
	ck_assert_int_eq(ST(&t)->chips[2], 100 - 1 - 5);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_points_only)
{
	static const char *const rules[] = { "chips=0", "hands=3", NULL };
	ck_assert_int_gt(tu_referee("bourre", 5, rules, 5, 0, 11, 0), 0);
}
END_TEST

/* ---- variations ---- */

START_TEST(test_double_ante)
{
	static const char *const rules[] = { "ante=double", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 4, 3, 2, rules);
	tu_game_start(&t);
	ck_assert_int_eq(ST(&t)->pot, 4);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 pass\n");
	ck_assert_int_eq(ST(&t)->pot, 6);
	int a = tu_events_find(&t.ev, EV_ACTION, 0);
	ck_assert_int_eq(t.ev.e[a].amount, 1);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_trump_separate)
{
	static const char *const rules[] = { "trump=separate", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 3, 2, 1, rules);
	char deck[2048] = "";
	const char *h[3] = { "KS QS 2H 3H 4H", "5H 6H 7H 8H 9H", "2C 3C 4C 5C 6C" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, "AS");
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(ST(&t)->turnup, card_make(RANK_ACE, SUIT_SPADES));
	ck_assert_int_eq(ST(&t)->turnup_place, BR_TU_TABLE);
	ck_assert_int_eq(ST(&t)->trump, SUIT_SPADES);
	/* the ace is nobody's: it does not force the dealer; K-Q are then sure */
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 2);
	tu_game_script(&t, "0 stay\n0 discard\n1 pass\n2 pass\n");
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_trump_dealer)
{
	static const char *const rules[] = { "trump=dealer", NULL };
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, rules);
	char deck[2048] = "";
	const char *h[3] = { "KS QS 2H 3H 4H", "5H 6H 7H 8H 9H", "2C 3C 4C 5C 6C" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, "AS");
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_TAKE);
	ck_assert_int_eq(tu_game_try(&t, "discard", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_NOT_NOW);
	tu_game_script(&t, "2 take\n");
	ck_assert_int_eq(ST(&t)->nhand[2], 6);
	ck_assert_int_eq(tu_game_try(&t, "discard", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_DISCARD_TOO_FEW);
	ck_assert_int_eq(why.amount, 1);
	/* discard four, keep the ace: three replacements */
	tu_game_script(&t, "2 discard 2C 3C 4C 5C\n");
	ck_assert_int_eq(ST(&t)->nhand[2], 5);
	int d = -1, k = 0;
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_DRAW)
			d = i, k++;
	ck_assert_int_eq(k, 3);
	ck_assert_int_eq(t.ev.e[d].ncards2, 3);
	ck_assert_int_eq(ST(&t)->phase, BR_PH_PLAY);
	tu_game_release(&t);
	/* leaving it: the card stays on the table */
	tu_game_init(&t, "bourre", 3, 2, 1, rules);
	char deck2[2048] = "";
	pack_text(deck2, sizeof deck2, 3, 2, 5, h, "AS");
	tu_game_stack(&t, deck2);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 leave\n2 discard 2C\n");
	ck_assert_int_eq(ST(&t)->turnup_place, BR_TU_TABLE);
	ck_assert_int_eq(ST(&t)->nhand[2], 5);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_simultaneous)
{
	static const char *const rules[] = { "declare=simultaneous", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 4, 3, 9, rules);
	tu_game_start(&t);
	int turn_ace = card_rank(ST(&t)->turnup) == RANK_ACE;
	tu_game_script(&t, "0 stay\n1 pass\n2 stay\n");
	/* nothing revealed yet; the decisions are seen by their seat only */
	ck_assert_int_eq(ST(&t)->status[0], BR_ST_NONE);
	int a = tu_events_find(&t.ev, EV_ACTION, 0);
	ck_assert_int_eq(t.ev.e[a].visible, EV_SEAT(0));
	tu_game_script(&t, turn_ace ? "3 stay\n" : "3 pass\n");
	ck_assert_int_eq(ST(&t)->status[0], BR_ST_STAY);
	ck_assert_int_eq(ST(&t)->status[1], BR_ST_PASS);
	ck_assert_int_eq(ST(&t)->phase, BR_PH_DISCARD);
	ck_assert_int_eq(ST(&t)->to_act, 0);
	tu_game_script(&t, "0 discard\n2 discard\n");
	if (turn_ace)
		tu_game_script(&t, "3 discard\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_PLAY);
	tu_game_release(&t);
	/* nobody stays: the dealer takes the pot */
	tu_game_init(&t, "bourre", 3, 2, 9, rules);
	tu_game_start(&t);
	if (card_rank(ST(&t)->turnup) != RANK_ACE) {
		tu_game_script(&t, "0 pass\n1 pass\n2 pass\n");
		ck_assert_int_eq(ST(&t)->hand_no, 2);
		ck_assert_int_eq(ST(&t)->chips[2], 100 - 1 + 3 - 1);
	}
	tu_game_release(&t);
}
END_TEST

START_TEST(test_draw_separate)
{
	static const char *const rules[] = { "draw=separate", NULL };
	struct tu_game t;
	tu_game_init(&t, "bourre", 4, 3, 4, rules);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n1 stay\n2 pass\n3 stay\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_DISCARD);
	ck_assert_int_eq(ST(&t)->to_act, 0);
	tu_game_script(&t, "0 discard\n1 discard\n3 discard\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_PLAY);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_four)
{
	static const char *const rules[] = { "variant=four", NULL };
	struct tu_game t;
	struct refusal why;
	tu_game_init(&t, "bourre", 3, 2, 1, rules);
	char deck[2048] = "";
	const char *h[3] = { "KS QS 2H 3H", "5H 6H 7H 8H", "2C 3C 4C 5C" };
	pack_text(deck, sizeof deck, 3, 2, 4, h, "AS");
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	ck_assert_int_eq(ST(&t)->nhand[0], 4);
	ck_assert_int_eq(ST(&t)->turnup_place, BR_TU_TABLE);
	ck_assert_int_eq(ST(&t)->pot, 3);
	tu_game_script(&t, "0 stay\n");
	ck_assert_int_eq(ST(&t)->pot, 4);
	/* no trump, no club: seat 1 may not stay */
	ck_assert_int_eq(tu_game_try(&t, "stay", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_NEED_TRUMP_CLUB);
	tu_game_script(&t, "1 pass\n2 stay\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_DISCARD);
	ck_assert_int_eq(tu_game_try(&t, "discard KS QS 2H 3H", &why), -1);
	ck_assert_int_eq(why.code, BR_REF_DISCARD_TOO_MANY);
	ck_assert_int_eq(why.amount, 3);
	tu_game_script(&t, "0 discard 2H 3H\n2 discard\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_CONFIRM);
	tu_game_script(&t, "0 stay\n2 stay\n");
	ck_assert_int_eq(ST(&t)->pot, 7);
	ck_assert_int_eq(ST(&t)->phase, BR_PH_PLAY);
	tu_game_release(&t);
	/* the second chance: seat 0 passes, seat 2 plays alone */
	tu_game_init(&t, "bourre", 3, 2, 1, rules);
	char deck2[2048] = "";
	pack_text(deck2, sizeof deck2, 3, 2, 4, h, "AS");
	tu_game_stack(&t, deck2);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n1 pass\n2 stay\n0 discard\n2 discard\n0 pass\n");
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	ck_assert_int_eq(ST(&t)->chips[2], 100 - 1 - 1 - 1 + 6 - 1);
	tu_game_release(&t);
}
END_TEST

/* ---- the legality checker against a plain reference ---- */

static int ref_strength(card_t c, int led, int trump)
{
	if (card_suit(c) == trump)
		return 100 + card_rank(c);
	if (card_suit(c) == led)
		return card_rank(c);
	return 0;
}

/* Kuhn's augmenting path from outstanding trump i to a trump of mine it
 * beats. */
static int ref_augment(int i, const card_t *outs, const card_t *my, int nmine, int *partner, int *seen_m)
{
	for (int j = 0; j < nmine; j++) {
		if (seen_m[j] || card_rank(outs[i]) <= card_rank(my[j]))
			continue;
		seen_m[j] = 1;
		if (partner[j] < 0 || ref_augment(partner[j], outs, my, nmine, partner, seen_m)) {
			partner[j] = i;
			return 1;
		}
	}
	return 0;
}

/* The rules said the long way round: which cards of `hand` may be played. */
static int ref_legal(const card_t *hand, int n, const card_t *trick, int nt, const card_t *gone,
                     int ng, int trump, int won, int last, card_t table_card, card_t *out)
{
	int seen[64] = { 0 };
	for (int i = 0; i < ng; i++)
		seen[gone[i]] = 1;
	for (int i = 0; i < nt; i++)
		seen[trick[i]] = 1;
	int mine[64] = { 0 };
	for (int i = 0; i < n; i++)
		mine[hand[i]] = 1;
	/* sure trump tricks: the trumps of mine no outstanding trump (not in a
	 * completed trick, the current trick's counted) can be matched to, in a
	 * largest matching of outstanding trumps to lower trumps of mine, found
	 * by augmenting paths */
	int top = 0, nmine = 0, nout = 0;
	card_t my[13], outs[13];
	for (int i = 0; i < n; i++)
		if (card_suit(hand[i]) == trump) {
			my[nmine++] = hand[i];
			if (card_rank(hand[i]) > top)
				top = card_rank(hand[i]);
		}
	for (int r = RANK_TWO; r <= RANK_ACE; r++) {
		card_t c = card_make(r, trump);
		int done_c = 0;
		for (int i = 0; i < ng; i++)
			done_c |= gone[i] == c;
		if (!mine[c] && !done_c && c != table_card)
			outs[nout++] = c;
	}
	int partner[13];
	for (int j = 0; j < nmine; j++)
		partner[j] = -1;
	int pairs = 0;
	for (int i = 0; i < nout; i++) {
		int seen_m[13] = { 0 };
		if (ref_augment(i, outs, my, nmine, partner, seen_m))
			pairs++;
	}
	int sure = nmine - pairs;
	int cinch = won + sure >= 3;
	card_t cand[8];
	int nc = 0;
	if (nt == 0) {
		for (int i = 0; i < n; i++)
			cand[nc++] = hand[i];
	} else {
		int led = card_suit(trick[0]);
		for (int i = 0; i < n; i++)
			if (card_suit(hand[i]) == led)
				cand[nc++] = hand[i];
		if (!nc)
			for (int i = 0; i < n; i++)
				if (card_suit(hand[i]) == trump)
					cand[nc++] = hand[i];
		if (!nc)
			for (int i = 0; i < n; i++)
				cand[nc++] = hand[i];
		int best = 0;
		for (int i = 0; i < nt; i++)
			if (ref_strength(trick[i], led, trump) > best)
				best = ref_strength(trick[i], led, trump);
		card_t beat[8];
		int nb = 0;
		for (int i = 0; i < nc; i++)
			if (ref_strength(cand[i], led, trump) > best)
				beat[nb++] = cand[i];
		if (nb) {
			memcpy(cand, beat, (size_t)nb);
			nc = nb;
		}
	}
	int trump_in = 0;
	for (int i = 0; i < nc; i++)
		trump_in |= card_suit(cand[i]) == trump;
	if (cinch && trump_in && (nt == 0 || !last)) {
		card_t keep[8];
		int nk = 0;
		for (int i = 0; i < nc; i++) {
			if (card_suit(cand[i]) != trump)
				continue;
			int ok = 1;
			for (int r = card_rank(cand[i]) + 1; r <= top; r++) {
				card_t c = card_make(r, trump);
				if (!mine[c] && !seen[c] && c != table_card)
					ok = 0;
			}
			if (ok)
				keep[nk++] = cand[i];
		}
		memcpy(cand, keep, (size_t)nk);
		nc = nk;
	}
	memcpy(out, cand, (size_t)nc);
	return nc;
}

START_TEST(test_legality_reference)
{
	struct rng rng;
	rng_seed(&rng, 2024);
	int checked = 0;
	struct bourre_state *st = calloc(1, sizeof *st);
	for (int iter = 0; iter < 20000; iter++) {
		memset(st, 0, sizeof *st);
		int players = 2 + (int)rng_below(&rng, 7);
		st->players = players;
		st->ncards = 5;
		st->phase = BR_PH_PLAY;
		for (int s = 0; s < players; s++)
			st->status[s] = BR_ST_STAY;
		card_t pack[52];
		card_pack_full(pack, 1);
		card_shuffle(pack, 52, &rng);
		int pos = 0;
		/* biased toward few suits so following and trumping happen */
		st->trump = (int)rng_below(&rng, 4);
		st->turnup = pack[51];
		st->turnup_place = rng_below(&rng, 2) ? BR_TU_TABLE : BR_TU_HAND;
		int done = (int)rng_below(&rng, 5);
		st->ntricks = done;
		int ngone = (int)rng_below(&rng, (uint32_t)(done * players + 1));
		for (int i = 0; i < ngone; i++)
			st->gone[st->ngone++] = pack[pos++];
		int nt = (int)rng_below(&rng, (uint32_t)players);
		int seat = nt % players;
		for (int i = 0; i < nt; i++) {
			st->trick[i] = pack[pos++];
			st->trick_seat[i] = (signed char)i;
		}
		st->ntrick = nt;
		int nh = 5 - done;
		for (int i = 0; i < nh; i++)
			st->hand[seat][i] = pack[pos++];
		st->nhand[seat] = nh;
		st->tricks[seat] = (int)rng_below(&rng, (uint32_t)(done + 1));
		card_t want[8];
		int nw = ref_legal(st->hand[seat], nh, st->trick, nt, st->gone, st->ngone, st->trump,
		                   st->tricks[seat], nt == players - 1,
		                   st->turnup_place == BR_TU_TABLE ? st->turnup : CARD_NONE, want);
		ck_assert_int_gt(nw, 0);
		for (int i = 0; i < nh; i++) {
			card_t c = st->hand[seat][i];
			struct refusal r;
			int code = bourre_check_play(st, seat, c, &r);
			int ref_ok = card_find(want, nw, c) >= 0;
			char b[4];
			ck_assert_msg((code == 0) == ref_ok, "iter %d: %s: game %d, reference %d", iter,
			              card_str(c, b), code, ref_ok);
			checked++;
		}
	}
	free(st);
	ck_assert_int_gt(checked, 50000);
}
END_TEST

/* ---- speech ---- */

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

START_TEST(test_talk)
{
	const struct game_talk *gt = registry_find("bourre")->talk;
	ck_assert_ptr_nonnull(gt);
	struct tu_game t;
	play_example(&t, "2D 2H 3H 4H 5H");
	tu_game_script(&t, "1 play 2D\n");
	struct bourre_state view = *ST(&t);
	t.g->redact(&view, 2);
	struct talk tk = { .game = t.g, .me = 2, .players = 3 };
	struct sbuf b;
	lang("en");
	sb_clear(&b);
	gt->query(&tk, &view, TALK_RULES, &b);
	ck_assert_str_eq(b.s, "Follow diamonds and beat the queen of diamonds.");
	sb_clear(&b);
	gt->query(&tk, &view, TALK_TABLE, &b);
	ck_assert_str_eq(b.s, "Anne: the queen of diamonds; Bruno: the two of diamonds. Anne holds the trick.");
	struct refusal r = { BR_REF_TRUMP, CARD_NONE, SUIT_SPADES, -1, -1 };
	sb_clear(&b);
	gt->refusal(&tk, &view, &r, &b);
	ck_assert_str_eq(b.s, "You cannot follow: you must play a trump, spades.");
	r = (struct refusal){ BR_REF_BEAT, card_make(RANK_KING, SUIT_SPADES), SUIT_SPADES, -1, -1 };
	sb_clear(&b);
	gt->refusal(&tk, &view, &r, &b);
	ck_assert_str_eq(b.s, "You must beat the king of spades.");
	r = (struct refusal){ BR_REF_CINCH_LEAD, card_make(RANK_ACE, SUIT_SPADES), SUIT_SPADES, -1, -1 };
	sb_clear(&b);
	gt->refusal(&tk, &view, &r, &b);
	ck_assert_str_eq(b.s, "You hold a cinch: lead your highest trump, the ace of spades.");
	struct action a = act_simple(ACT_DISCARD);
	a.ncards = 3;
	sb_clear(&b);
	gt->action(&tk, &view, &a, &b);
	ck_assert_str_eq(b.s, "discard 3 cards");
	/* a draw: the count to the others, the cards to the drawer only */
	struct event e;
	ev_init(&e, EV_DRAW);
	e.seat = 1;
	e.visible = EV_SEAT(1);
	e.ncards = 2;
	e.cards[0] = card_make(RANK_TWO, SUIT_CLUBS);
	e.cards[1] = card_make(RANK_THREE, SUIT_CLUBS);
	e.ncards2 = 2;
	e.cards2[0] = card_make(RANK_KING, SUIT_HEARTS);
	e.cards2[1] = card_make(RANK_FOUR, SUIT_CLUBS);
	sb_clear(&b);
	ck_assert_int_eq(gt->event(&tk, &view, &e, &b), 1);
	ck_assert_str_eq(b.s, "Bruno draws 2 cards.");
	struct talk tk1 = { .game = t.g, .me = 1, .players = 3 };
	sb_clear(&b);
	gt->event(&tk1, &view, &e, &b);
	ck_assert_str_eq(b.s, "You discard 2 cards and receive the king of hearts and the four of clubs.");
	lang("fr");
	sb_clear(&b);
	gt->query(&tk, &view, TALK_RULES, &b);
	ck_assert_str_eq(b.s, "Fournissez à carreau et montez sur la dame de carreau.");
	r = (struct refusal){ BR_REF_BEAT, card_make(RANK_KING, SUIT_SPADES), SUIT_SPADES, -1, -1 };
	sb_clear(&b);
	gt->refusal(&tk, &view, &r, &b);
	ck_assert_str_eq(b.s, "Vous devez battre le roi de pique.");
	sb_clear(&b);
	gt->event(&tk, &view, &e, &b);
	ck_assert_str_eq(b.s, "Bruno en change 2.");
	lang("en");
	tu_game_release(&t);
}
END_TEST

/* The sentences the speech polish added: debts, the bourré cost, statuses,
 * the second chance, the final standings, the turned card to take. */
static const char *q(const struct game_talk *gt, struct tu_game *t, int me, int key, struct sbuf *b)
{
	struct bourre_state view = *ST(t);
	t->g->redact(&view, me);
	struct talk tk = { .game = t->g, .me = me, .players = ST(t)->players };
	sb_clear(b);
	gt->query(&tk, &view, key, b);
	return b->s;
}

static const char *ev_said(const struct game_talk *gt, struct tu_game *t, int me, const struct event *e,
                           struct sbuf *b)
{
	struct bourre_state view = *ST(t);
	t->g->redact(&view, me);
	struct talk tk = { .game = t->g, .me = me, .players = ST(t)->players };
	ann_event(&tk, gt, &view, e, b);
	return b->s;
}

START_TEST(test_talk_polish)
{
	const struct game_talk *gt = registry_find("bourre")->talk;
	struct sbuf b;
	struct tu_game t;
	lang("en");
	/* debts: a balance below zero is said as a debt; points only: minus */
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	tu_game_start(&t);
	ST(&t)->chips[1] -= 120;
	ST(&t)->chips[0] += 120;
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_SCORES, &b), "Bruno: a debt of 21 chips."));
	/* R at the declaration: what a bourré costs now */
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_RULES, &b),
	                             "If you stay and take no trick, you pay the pot, 3 chips so far, into the next pot."));
	lang("fr");
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_SCORES, &b), "Bruno : une dette de 21 jetons."));
	lang("en");
	struct event e;
	ev_init(&e, EV_HAND_END);
	e.nvalues = 3;
	e.values[0] = -4;
	e.pot = 0;
	ck_assert_str_eq(ev_said(gt, &t, 0, &e, &b), "Deal over. You have a debt of 4 chips. The pot is empty.");
	ev_init(&e, EV_GAME_END);
	e.nvalues = 3;
	e.values[0] = 110;
	e.values[1] = -5;
	e.values[2] = 195;
	e.winners = 1u << 2;
	ck_assert_str_eq(ev_said(gt, &t, 1, &e, &b),
	                 "Game over. Winner: Claire. You: a debt of 5 chips. Claire: 195 chips. Anne: 110 chips.");
	/* statuses in S before the play */
	tu_game_script(&t, "0 stay\n0 discard\n1 pass\n");
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 2, TALK_SCORES, &b), "Anne: 219 chips, staying. Bruno: a debt of 21 chips, passed."));
	tu_game_release(&t);
	static const char *const points[] = { "chips=0", NULL };
	tu_game_init(&t, "bourre", 3, 2, 1, points);
	tu_game_start(&t);
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_SCORES, &b), "You: minus 1 point."));
	tu_game_release(&t);

	/* simultaneous: the others only know that a player has decided */
	static const char *const simul[] = { "declare=simultaneous", NULL };
	tu_game_init(&t, "bourre", 4, 3, 9, simul);
	tu_game_start(&t);
	tu_game_script(&t, "0 stay\n1 pass\n");
	q(gt, &t, 2, TALK_SCORES, &b);
	ck_assert_ptr_nonnull(strstr(b.s, "Anne: 99 chips, has decided. Bruno: 99 chips, has decided."));
	ck_assert_ptr_null(strstr(b.s, "staying"));
	ck_assert_ptr_null(strstr(b.s, "pass"));
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_SCORES, &b), "You: 99 chips, staying, not yet shown."));
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 2, TALK_RULES, &b), "Everyone decides in secret"));
	int a = tu_events_find(&t.ev, EV_ACTION, 0);
	ck_assert_str_eq(ev_said(gt, &t, 1, &t.ev.e[a], &b), "Anne has decided.");
	tu_game_release(&t);

	/* trump=dealer: the turned card named to the dealer who may take it */
	static const char *const dealer[] = { "trump=dealer", NULL };
	tu_game_init(&t, "bourre", 3, 2, 1, dealer);
	char deck[2048] = "";
	const char *h[3] = { "KS QS 2H 3H 4H", "5H 6H 7H 8H 9H", "2C 3C 4C 5C 6C" };
	pack_text(deck, sizeof deck, 3, 2, 5, h, "AS");
	tu_game_stack(&t, deck);
	tu_game_start(&t);
	int tu = tu_events_find(&t.ev, EV_TURNUP, 0);
	ck_assert_str_eq(ev_said(gt, &t, 2, &t.ev.e[tu], &b),
	                 "Turned card: the ace of spades, you may take it if you stay. Trumps: spades. Pot: 3 chips.");
	ck_assert_str_eq(ev_said(gt, &t, 0, &t.ev.e[tu], &b),
	                 "Turned card: the ace of spades, Claire may take it. Trumps: spades. Pot: 3 chips.");
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n");
	{
		struct bourre_state view = *ST(&t);
		t.g->redact(&view, 2);
		struct talk tk = { .game = t.g, .me = 2, .players = 3 };
		sb_clear(&b);
		gt->prompt(&tk, &view, &b);
		ck_assert_str_eq(b.s, "Your turn. Take or leave the turned card, the ace of spades?");
	}
	tu_game_release(&t);

	/* four-card Bourré: the second chance is announced, with its cost */
	static const char *const four[] = { "variant=four", NULL };
	tu_game_init(&t, "bourre", 3, 2, 1, four);
	char deck4[2048] = "";
	const char *h4[3] = { "KS QS 2H 3H", "5H 6H 7H 8H", "2C 3C 4C 5C" };
	pack_text(deck4, sizeof deck4, 3, 2, 4, h4, "AS");
	tu_game_stack(&t, deck4);
	tu_game_start(&t);
	{
		struct bourre_state view = *ST(&t);
		t.g->redact(&view, 0);
		struct talk tk = { .game = t.g, .me = 0, .players = 3 };
		sb_clear(&b);
		gt->prompt(&tk, &view, &b);
		ck_assert_str_eq(b.s, "Your turn. Stay for 1 chip, or pass?");
	}
	tu_game_script(&t, "0 stay\n");
	{
		struct bourre_state view = *ST(&t);
		t.g->redact(&view, 1);
		struct talk tk = { .game = t.g, .me = 1, .players = 3 };
		sb_clear(&b);
		gt->prompt(&tk, &view, &b);
		ck_assert_str_eq(b.s, "Your turn. You hold no trump, spades, and no club: you must pass.");
	}
	tu_game_script(&t, "1 pass\n2 stay\n0 discard\n2 discard\n");
	ck_assert_int_eq(ST(&t)->phase, BR_PH_CONFIRM);
	int ph = -1;
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_SECOND)
			ph = i;
	ck_assert_int_ge(ph, 0);
	ck_assert_str_eq(ev_said(gt, &t, 0, &t.ev.e[ph], &b),
	                 "Second chance, 2 players in: each may still pass.");
	{
		/* The question is the prompt's alone. */
		struct bourre_state view = *ST(&t);
		t.g->redact(&view, 0);
		struct talk tk = { .game = t.g, .me = 0, .players = 3 };
		sb_clear(&b);
		gt->prompt(&tk, &view, &b);
		ck_assert_str_eq(b.s, "Your turn. Stay for 1 more chip, or pass?");
	}
	ck_assert_str_eq(q(gt, &t, 0, TALK_RULES, &b),
	                 "Second chance: stay for 1 more chip, or pass. "
	                 "If you stay and take no trick, you pay the pot, 5 chips so far, into the next pot.");
	lang("fr");
	ck_assert_str_eq(ev_said(gt, &t, 0, &t.ev.e[ph], &b),
	                 "Seconde chance, 2 joueurs en jeu : chacun peut encore passer.");
	lang("en");
	tu_game_release(&t);

	/* R says why a lighter rule applies; C at a trick's start says who leads */
	play_example(&t, "4S 2H 3H 4H 5H");
	tu_game_script(&t, "1 play 4S\n");
	ck_assert_str_eq(q(gt, &t, 2, TALK_RULES, &b),
	                 "Follow diamonds: the trick is trumped, any card of that suit will do.");
	tu_game_script(&t, "2 play 6D\n");
	ck_assert_str_eq(q(gt, &t, 0, TALK_TABLE, &b), "No card on the table. Bruno leads.");
	ck_assert_str_eq(q(gt, &t, 1, TALK_TABLE, &b), "No card on the table. You lead.");
	tu_game_release(&t);

	/* an ace turned binds the dealer; the dealer who discards it hears so */
	tu_game_init(&t, "bourre", 3, 2, 1, NULL);
	char deckace[2048] = "";
	const char *hace[3] = { "KH QH 2H 3H 4H", "5H 6H 7H 8H 9H", "2C 3C 4C 5C AS" };
	pack_text(deckace, sizeof deckace, 3, 2, 5, hace, NULL);
	tu_game_stack(&t, deckace);
	tu_game_start(&t);
	tu = tu_events_find(&t.ev, EV_TURNUP, 0);
	ck_assert_str_eq(ev_said(gt, &t, 0, &t.ev.e[tu], &b),
	                 "Turned card: the ace of spades, it belongs to Claire. Trumps: spades. "
	                 "An ace turned: Claire must stay. Pot: 3 chips.");
	tu_game_script(&t, "0 stay\n0 discard\n1 stay\n1 discard\n2 stay\n2 discard AS 2C\n");
	ck_assert_str_eq(q(gt, &t, 2, TALK_SUIT, &b),
	                 "Trumps: spades. Turned card: the ace of spades, discarded by you.");
	ck_assert_str_eq(q(gt, &t, 0, TALK_SUIT, &b), "Trumps: spades. Turned card: the ace of spades, Claire's.");
	tu_game_release(&t);

	/* a limit caps the bourré */
	static const char *const lim[] = { "limit=2", NULL };
	tu_game_init(&t, "bourre", 3, 2, 1, lim);
	tu_game_start(&t);
	ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_RULES, &b),
	                             "If you stay and take no trick, you pay 2 chips, the limit, into the next pot."));
	tu_game_release(&t);
}
END_TEST

/* Every event of random deals is phrased for every seat without a crash,
 * and no one hears a card of another player's draw. */
START_TEST(test_talk_all_events)
{
	const struct game_talk *gt = registry_find("bourre")->talk;
	static const char *const rules[] = { "hands=3", "declare=simultaneous", "trump=dealer", NULL };
	for (int l = 0; l < 2; l++) {
		lang(l ? "fr" : "en");
		struct tu_game t;
		tu_game_init(&t, "bourre", 5, -1, 31, rules);
		tu_game_start(&t);
		struct rng rng;
		rng_seed(&rng, 4);
		while (t.g->to_act(t.st) >= 0) {
			struct action a;
			bot_choose(t.g, tu_bot(t.g), t.st, 1, &rng, &a);
			struct refusal why;
			struct sink sk = tu_events_sink(&t.ev);
			ck_assert_int_eq(t.g->apply(t.st, &a, &sk, &why), 0);
		}
		struct bourre_state view;
		for (int me = 0; me < 5; me++) {
			struct talk tk = { .game = t.g, .me = me, .players = 5 };
			view = *ST(&t);
			t.g->redact(&view, me);
			for (int i = 0; i < t.ev.n; i++) {
				const struct event *e = &t.ev.e[i];
				struct sbuf b;
				ann_event(&tk, gt, &view, e, &b);
				if (e->type == EV_DRAW && e->seat != me && e->ncards2 > 0) {
					char name[96];
					say_card_str(NULL, e->cards2[0], SAY_THE, name, sizeof name);
					ck_assert_msg(strstr(b.s, name) == NULL, "%s", b.s);
				}
			}
			for (const char *k = "CFRST123"; *k; k++) {
				struct sbuf b;
				ann_query(&tk, gt, &view, *k, &b);
				ck_assert_int_gt((int)b.len, 0);
			}
		}
		tu_game_release(&t);
	}
	lang("en");
}
END_TEST

/* The strict table in words: the renege told after its trick and its
 * payment, in both languages; R says the table is strict. */
START_TEST(test_strict_talk)
{
	const struct game_talk *gt = registry_find("bourre")->talk;
	struct sbuf b;
	for (int l = 0; l < 2; l++) {
		lang(l ? "fr" : "en");
		struct tu_game t;
		const char *h[3] = { "QD 2C 3C 4C 5C", "2D 2H 3H 4H 5H", "AD 6D 7S 8S 9S" };
		deal_hands(&t, STRICT, 3, 2, h);
		ck_assert_ptr_nonnull(strstr(q(gt, &t, 0, TALK_RULES, &b),
		                             l ? "Table stricte : une fausse renonce n'est pas refusée"
		                               : "Strict table: a renege is not refused"));
		tu_game_script(&t, "0 play QD\n1 play 2H\n2 play AD\n");
		int ph = tu_events_find(&t.ev, EV_PHASE, tu_events_find(&t.ev, EV_TRICK, 0));
		ck_assert_str_eq(ev_said(gt, &t, 1, &t.ev.e[ph], &b),
		                 l ? "Fausse renonce : vous n'avez pas fourni à carreau."
		                   : "Renege: you did not follow diamonds.");
		const char *other = ev_said(gt, &t, 0, &t.ev.e[ph], &b);
		ck_assert_msg(strstr(other, l ? "n'a pas fourni à carreau." : "did not follow diamonds.") != NULL, "%s",
		              other);
		tu_game_script(&t, "2 play 6D\n0 play 2C\n1 play 2D\n2 play 7S\n0 play 3C\n1 play 3H\n"
		                   "2 play 9S\n0 play 4C\n1 play 4H\n2 play 8S\n0 play 5C\n1 play 5H\n");
		int pay = -1;
		for (int i = 0; i < t.ev.n; i++)
			if (t.ev.e[i].type == EV_PAYMENT && t.ev.e[i].reason == EV_PAY_RENEGE)
				pay = i;
		ck_assert_int_ge(pay, 0);
		ck_assert_str_eq(ev_said(gt, &t, 1, &t.ev.e[pay], &b),
		                 l ? "Fausse renonce : vous payez 3 jetons pour le prochain pot."
		                   : "Renege: you pay 3 chips into the next pot.");
		tu_game_release(&t);

		/* not strict: R says nothing of it */
		tu_game_init(&t, "bourre", 3, 2, 1, NULL);
		tu_game_start(&t);
		ck_assert_ptr_null(strstr(q(gt, &t, 0, TALK_RULES, &b), l ? "stricte" : "Strict"));
		tu_game_release(&t);
	}
	lang("en");
}
END_TEST

/* Random games on a strict table where every legal card may be chosen,
 * reneges included: the audit holds after every action, each renege told
 * is paid once, and a redacted view never shows another seat's renege
 * before its trick is complete. */
START_TEST(test_strict_random)
{
	const struct game_ops *g = registry_ops("bourre");
	static const char *const variants[][4] = {
		{ "strict=yes", "hands=6", NULL },
		{ "strict=yes", "hands=6", "variant=four", NULL },
	};
	int told_total = 0;
	for (int v = 0; v < 2; v++)
		for (int p = 2; p <= 8; p += 2) {
			struct tu_game t;
			tu_game_init(&t, "bourre", p, -1, (uint64_t)(40 + p + v), variants[v]);
			tu_game_start(&t);
			struct rng rng;
			rng_seed(&rng, (uint64_t)(p * 3 + v));
			while (g->to_act(t.st) >= 0) {
				struct action legal[GAME_MAX_LEGAL];
				int n = g->legal(t.st, legal, GAME_MAX_LEGAL);
				ck_assert_int_gt(n, 0);
				/* an entry, and one of its sets for a draw */
				const struct action *l = &legal[rng_below(&rng, (uint32_t)n)];
				struct action a;
				act_choice(l, (int)rng_below(&rng, (uint32_t)act_choices(l)), &a);
				struct refusal why;
				struct sink sk = tu_events_sink(&t.ev);
				ck_assert_int_eq(g->apply(t.st, &a, &sk, &why), 0);
				char err[200];
				ck_assert_msg(g->audit(t.st, err, sizeof err) == 0, "%s", err);
				if (g->to_act(t.st) < 0)
					break;
				struct bourre_state view = *ST(&t);
				int me = g->to_act(t.st);
				g->redact(&view, me);
				for (int i = 0; i < view.ntrick; i++)
					if (view.trick_seat[i] != me)
						ck_assert_int_eq(view.trick_renege[i], 0);
			}
			int told = 0, paid = 0;
			for (int i = 0; i < t.ev.n; i++) {
				const struct event *e = &t.ev.e[i];
				told += e->type == EV_PHASE && e->note == EV_NOTE_RENEGE;
				paid += e->type == EV_PAYMENT && e->reason == EV_PAY_RENEGE;
			}
			/* a payment of 0 (an empty pot) is not emitted */
			ck_assert_int_ge(told, paid);
			told_total += told;
			tu_game_release(&t);
		}
	ck_assert_int_gt(told_total, 10);
}
END_TEST

/* The bots never renege on purpose, whatever their level, even where the
 * strict table would accept it. */
/* The lists of legal actions against the rules said card by card: in
 * random games of every variation, the cards to play are those
 * bourre_check_play accepts, in the order of the hand (then, on a strict
 * table, the others in that order), and the draws are every set of the
 * hand's cards from the fewest to the most allowed, by size, then by the
 * set read as a number (bit i for card i of the hand). */
START_TEST(test_legal_lists_reference)
{
	const struct game_ops *g = registry_ops("bourre");
	static const char *const variants[][4] = {
		{ "hands=8", NULL },
		{ "strict=yes", "hands=8", NULL },
		{ "variant=four", "hands=8", NULL },
		{ "trump=dealer", "hands=8", NULL },
		{ "trump=separate", "draw=separate", "hands=8", NULL },
		{ "declare=simultaneous", "strict=yes", "hands=8", NULL },
	};
	long plays = 0, draws = 0;
	for (int v = 0; v < (int)(sizeof variants / sizeof variants[0]); v++)
		for (int p = 2; p <= 8; p++) {
			struct tu_game t;
			tu_game_init(&t, "bourre", p, -1, (uint64_t)(900 + 10 * v + p), variants[v]);
			tu_game_start(&t);
			struct rng rng;
			rng_seed(&rng, (uint64_t)(v * 16 + p));
			while (g->to_act(t.st) >= 0) {
				const struct bourre_state *st = ST(&t);
				int s = g->to_act(t.st);
				struct action legal[GAME_MAX_LEGAL], want[GAME_MAX_LEGAL];
				int n = g->legal(t.st, legal, GAME_MAX_LEGAL), nw = 0;
				if (st->phase == BR_PH_PLAY) {
					for (int pass = 0; pass < 1 + st->strict; pass++)
						for (int i = 0; i < st->nhand[s]; i++)
							if ((bourre_check_play(st, s, st->hand[s][i], NULL) == 0) == (pass == 0))
								want[nw++] = act_card(ACT_PLAY, st->hand[s][i]);
					plays++;
				} else if (st->phase == BR_PH_DISCARD) {
					/* one entry for every set: its sets listed */
					ck_assert_int_eq(n, 1);
					ck_assert(legal[0].sets);
					n = act_choices(&legal[0]);
					ck_assert_int_le(n, GAME_MAX_LEGAL);
					struct action entry = legal[0];
					for (int i = 0; i < n; i++)
						act_choice(&entry, i, &legal[i]);
					int lo, hi, h = st->nhand[s];
					bourre_discard_range(st, s, &lo, &hi);
					for (int size = lo; size <= hi; size++)
						for (int m = 0; m < (1 << h); m++) {
							int k = 0;
							for (int i = 0; i < h; i++)
								k += (m >> i) & 1;
							if (k != size)
								continue;
							want[nw] = act_simple(ACT_DISCARD);
							for (int i = 0; i < h; i++)
								if ((m >> i) & 1)
									want[nw].cards[want[nw].ncards++] = st->hand[s][i];
							nw++;
						}
					draws++;
				} else {
					nw = -1;
				}
				if (nw >= 0) {
					ck_assert_int_eq(n, nw);
					for (int i = 0; i < n; i++) {
						ck_assert_int_eq(legal[i].kind, want[i].kind);
						ck_assert_int_eq(legal[i].ncards, want[i].ncards);
						ck_assert_mem_eq(legal[i].cards, want[i].cards, ACT_MAX_CARDS);
					}
				}
				struct action a = legal[rng_below(&rng, (uint32_t)n)];
				struct refusal why;
				ck_assert_int_eq(g->apply(t.st, &a, NULL, &why), 0);
			}
			tu_game_release(&t);
		}
	ck_assert_int_gt(plays, 2000);
	ck_assert_int_gt(draws, 300);
}
END_TEST

START_TEST(test_strict_bots_play_proper)
{
	const struct game_ops *g = registry_ops("bourre");
	static const char *const rules[] = { "strict=yes", "hands=4", NULL };
	long plays = 0;
	for (int level = 0; level <= 2; level++) {
		struct tu_game t;
		tu_game_init(&t, "bourre", 5, -1, (uint64_t)(70 + level), rules);
		tu_game_start(&t);
		struct rng rng;
		rng_seed(&rng, (uint64_t)level);
		while (g->to_act(t.st) >= 0) {
			struct action a;
			bot_choose(g, tu_bot(g), t.st, level, &rng, &a);
			if (a.kind == ACT_PLAY) {
				ck_assert(!bourre_renege(ST(&t), g->to_act(t.st), a.cards[0]));
				plays++;
			}
			struct refusal why;
			struct sink sk = tu_events_sink(&t.ev);
			ck_assert_int_eq(g->apply(t.st, &a, &sk, &why), 0);
		}
		for (int i = 0; i < t.ev.n; i++)
			ck_assert(!(t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_RENEGE));
		tu_game_release(&t);
	}
	ck_assert_int_gt(plays, 20);
}
END_TEST

/* ---- bot strength ---- */

/* Seat 0 at level `mine`, the others at level `theirs`, over `games` games
 * of `deals` deals (fixed seeds): seat 0's chips won, and its pots won minus
 * its bourrés (the same measure without the size of the pots). */
struct score {
	long chips, pots, wins, bourres;
};

static void count_pots(void *ctx, const struct event *e)
{
	struct score *sc = ctx;
	if (e->type != EV_PAYMENT)
		return;
	if (e->to == 0 && e->reason == EV_PAY_POT)
		sc->wins++;
	if (e->from == 0 && e->reason == EV_PAY_BOURRE)
		sc->bourres++;
}

static struct score match(int players, int mine, int theirs, int games, int deals, uint64_t seed)
{
	const struct game_ops *g = registry_ops("bourre");
	struct bourre_state *st = calloc(1, sizeof *st);
	struct score sc = { 0, 0, 0, 0 };
	struct sink out = { count_pots, &sc };
	for (int k = 0; k < games; k++) {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		char err[128], arg[32];
		snprintf(arg, sizeof arg, "hands=%d", deals);
		ck_assert(rules_set_arg(&r, arg, err, sizeof err) == 0);
		struct game_setup setup = { players, k % players, rng_derive(seed, (uint64_t)k), &r, NULL };
		memset(st, 0, sizeof *st);
		ck_assert(g->init(st, &setup, err, sizeof err) == 0);
		g->start(st, &out);
		struct rng brng;
		rng_seed(&brng, rng_derive(seed, 1000 + (uint64_t)k));
		while (g->to_act(st) >= 0) {
			int s = g->to_act(st);
			struct action a;
			bot_choose(g, tu_bot(g), st, s == 0 ? mine : theirs, &brng, &a);
			struct refusal why;
			ck_assert(g->apply(st, &a, &out, &why) == 0);
		}
		sc.chips += st->chips[0] - st->chips0;
	}
	sc.pots = sc.wins - sc.bourres;
	free(st);
	return sc;
}

static void show(const char *name, struct score s)
{
	printf("  %-22s chips %+6ld  pots won %5ld  bourre %5ld  balance %+5ld\n", name, s.chips, s.wins,
	       s.bourres, s.pots);
}

START_TEST(test_bot_strength)
{
	const char *env = getenv("BOURRE_BENCH_GAMES");
	const int games = env ? atoi(env) : 60, deals = 10;
	const int players = getenv("BOURRE_BENCH_PLAYERS") ? atoi(getenv("BOURRE_BENCH_PLAYERS")) : 7;
	struct score l2_1 = match(players, 2, 1, games, deals, 77);
	struct score l1_1 = match(players, 1, 1, games, deals, 77);
	struct score l0_1 = match(players, 0, 1, games, deals, 77);
	struct score l2_0 = match(players, 2, 0, games, deals, 78);
	struct score l0_0 = match(players, 0, 0, games, deals, 78);
	printf("bourre bots: seat 0 of %d, %d deals, others at level 1:\n", players, games * deals);
	show("level 2", l2_1);
	show("level 1", l1_1);
	show("level 0 (random)", l0_1);
	printf("others at level 0 (random):\n");
	show("level 2", l2_0);
	show("level 0 (random)", l0_0);
	ck_assert_int_gt(l2_1.pots, l1_1.pots);
	ck_assert_int_gt(l2_1.chips, l1_1.chips);
	ck_assert_int_gt(l2_1.pots, l0_1.pots);
	ck_assert_int_gt(l2_1.chips, l0_1.chips);
	ck_assert_int_gt(l2_0.pots, l0_0.pots);
	ck_assert_int_gt(l2_0.chips, l0_0.chips);
}
END_TEST

/* ---- the referee ---- */

static const char *const *variation(int v)
{
	static const char *const sets[][4] = {
		{ "hands=4", NULL },
		{ "hands=4", "ante=double", NULL },
		{ "hands=4", "trump=separate", NULL },
		{ "hands=4", "trump=dealer", NULL },
		{ "hands=4", "declare=simultaneous", NULL },
		{ "hands=4", "draw=separate", NULL },
		{ "hands=4", "variant=four", NULL },
		{ "hands=4", "limit=3", "trump=dealer", NULL },
		{ "hands=4", "declare=simultaneous", "draw=separate", NULL },
		{ "hands=4", "strict=yes", NULL },
		{ "hands=4", "strict=yes", "variant=four", NULL },
	};
	return sets[v];
}
#define NVARIATIONS 11

START_TEST(test_referee)
{
	long total = 0;
	for (int v = 0; v < NVARIATIONS; v++)
		for (int p = 2; p <= 8; p++)
			total += tu_referee("bourre", p, variation(v), 6, 0, (uint64_t)(v * 10 + p), 0);
	ck_assert_int_gt(total, 1000);
}
END_TEST

START_TEST(test_referee_bots)
{
	for (int p = 2; p <= 8; p += 3)
		for (int v = 0; v < NVARIATIONS; v += 2)
			tu_referee("bourre", p, variation(v), 1, 2, (uint64_t)(p * 7 + v), 0);
	tu_referee("bourre", 5, variation(3), 2, 1, 5, 0);
}
END_TEST

/* Points only, eight players, random bots, no end but the bound: the pot
 * doubles whenever a bourré matches it, and a long game (past 8,000 deals
 * with this seed) overflowed an int. Every action is audited (the chips are
 * counted and bounded); the game must end by itself once the stakes pass
 * the bound, with every count exact. */
START_TEST(test_stakes_bound)
{
	static const char *const points[] = { "chips=0", NULL };
	long actions = tu_referee("bourre", 8, points, 1, 0, 1, 2000000);
	ck_assert_int_gt(actions, 10000);
	/* The same game watched: its last deal passed the bound. */
	struct tu_game t;
	tu_referee_game(&t, "bourre", 8, points, 0, 1);
	const struct bourre_state *st = t.st;
	int beyond = st->pot > BR_STAKES_MAX;
	for (int s = 0; s < 8; s++)
		beyond |= st->chips[s] > BR_STAKES_MAX || st->chips[s] < -BR_STAKES_MAX;
	ck_assert_msg(beyond, "the game ended after %d deals below the bound", st->hand_no);
	ck_assert_int_gt(st->hand_no, 500);
	tu_game_release(&t);
	/* A pot past the bound: the game ends after this deal, and says why. */
	static const char *const one[] = { "chips=0", NULL };
	tu_game_init(&t, "bourre", 4, 0, 5, one);
	ST(&t)->pot = BR_STAKES_MAX + 1;
	tu_game_start(&t);
	struct rng brng;
	rng_seed(&brng, 3);
	while (t.g->to_act(t.st) >= 0) {
		struct action a;
		struct refusal why;
		struct sink sk = tu_events_sink(&t.ev);
		bot_choose(t.g, tu_bot(t.g), t.st, 1, &brng, &a);
		ck_assert_int_eq(t.g->apply(t.st, &a, &sk, &why), 0);
	}
	ck_assert_int_eq(ST(&t)->hand_no, 1);
	int said = 0;
	for (int i = 0; i < t.ev.n; i++) {
		const struct event *e = &t.ev.e[i];
		if (e->type != EV_PHASE || !e->note || e->note != EV_NOTE_STAKES)
			continue;
		ck_assert_int_eq(tu_events_find(&t.ev, EV_GAME_END, i), i + 1);
		for (int l = 0; l < 2; l++) {
			lang(l ? "fr" : "en");
			struct talk tk = { .game = t.g, .me = 0, .players = 4 };
			struct sbuf b;
			ann_event(&tk, registry_find("bourre")->talk, t.st, e, &b);
			ck_assert_msg(strstr(b.s, l ? "trop" : "too high"), "%s", b.s);
		}
		said++;
	}
	lang("en");
	ck_assert_int_eq(said, 1);
	tu_game_release(&t);
	/* Four players stay far below the bound: 12,000 deals, all played. */
	static const char *const long_game[] = { "chips=0", "hands=12000", NULL };
	ck_assert_int_gt(tu_referee("bourre", 4, long_game, 1, 0, 2, 2000000), 12000 * 4);
}
END_TEST

/* ---- the cinch counted as DECISIONS.md counts it: each outstanding trump
 * (the table's included) takes a trump of yours that it beats ---- */

/* What seat `me` hears now in both languages: the prompt and R. Fails when
 * "cinch" is heard and `cinch` is 0, or not heard and `cinch` is 1. */
static void cinch_heard(struct tu_game *t, int me, int cinch)
{
	const struct game_talk *gt = registry_find("bourre")->talk;
	struct bourre_state view = *ST(t);
	t->g->redact(&view, me);
	struct talk tk = { .game = t->g, .me = me, .players = ST(t)->players };
	for (int fr = 0; fr < 2; fr++) {
		lang(fr ? "fr" : "en");
		const char *word = fr ? "sûr du pot" : "cinch";
		struct sbuf b;
		sb_clear(&b);
		gt->prompt(&tk, &view, &b);
		ck_assert_msg((strstr(b.s, word) != NULL) == cinch, "prompt: %s", b.s);
		sb_clear(&b);
		gt->query(&tk, &view, TALK_RULES, &b);
		ck_assert_msg((strstr(b.s, word) != NULL) == cinch, "R: %s", b.s);
	}
	lang("en");
}

START_TEST(test_cinch_kq109_against_a_j)
{
	/* K-Q-10-9 against the ace and the jack: two sure, no cinch, any lead */
	struct tu_game t;
	const char *h[3] = { "KS QS TS 9S 3D", "AS JS 5H 6H 7H", "2C 3C 4C 5C 2S" };
	deal_hands(&t, NULL, 3, 2, h);
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 2);
	ck_assert(!bourre_cinch(ST(&t), 0));
	struct refusal r;
	ck_assert_int_eq(bourre_constraint(ST(&t), 0, &r), 0);
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 5);
	cinch_heard(&t, 0, 0);
	tu_game_script(&t, "0 play 3D\n");
	tu_game_release(&t);
	/* with the eight as well: three sure, a cinch */
	const char *h2[3] = { "KS QS TS 9S 8S", "AS JS 5H 6H 7H", "2C 3C 4C 5C 2S" };
	deal_hands(&t, NULL, 3, 2, h2);
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 3);
	ck_assert_int_eq(bourre_constraint(ST(&t), 0, &r), BR_REF_CINCH_LEAD);
	ck_assert_int_eq(r.card, card_make(RANK_KING, SUIT_SPADES));
	cinch_heard(&t, 0, 1);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_cinch_king_on_the_table)
{
	/* A-10-9-7 against the king led, the queen, the jack and the eight:
	 * one sure; the plain rule (beat the king) binds, not the cinch */
	struct tu_game t;
	const char *h[3] = { "AS TS 9S 2D 7S", "QS JS 8S 3C 4S", "KS 3H 4H 5H 6H" };
	deal_hands(&t, NULL, 3, 1, h);
	tu_game_script(&t, "2 play KS\n");
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 1);
	ck_assert(!bourre_cinch(ST(&t), 0));
	struct refusal r;
	ck_assert_int_eq(bourre_constraint(ST(&t), 0, &r), BR_REF_BEAT);
	cinch_heard(&t, 0, 0);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_cinch_jack_on_the_table)
{
	/* One trick won, then nine-seven of trumps while the jack is on the
	 * table and the eight is out (ace, king, queen and ten played): the
	 * jack takes the nine, the eight the seven; no cinch, either trump */
	struct tu_game t;
	const char *h[4] = { "AH 2C 3D 9S 7S", "2H TS 4D 5H 6H", "3H QS KS 7H 8H", "4H AS 5D 8D JS" };
	deal_hands(&t, NULL, 4, 3, h);
	tu_game_script(&t, "0 play AH\n1 play 2H\n2 play 3H\n3 play 4H\n"
	                   "0 play 2C\n1 play TS\n2 play QS\n3 play AS\n"
	                   "3 play 5D\n0 play 3D\n1 play 4D\n2 play KS\n"
	                   "2 play 7H\n3 play JS\n");
	ck_assert_int_eq(ST(&t)->tricks[0], 1);
	ck_assert_int_eq(ST(&t)->to_act, 0);
	ck_assert_int_eq(bourre_sure_trumps(ST(&t), 0), 0);
	ck_assert(!bourre_cinch(ST(&t), 0));
	struct refusal r;
	ck_assert_int_eq(bourre_constraint(ST(&t), 0, &r), BR_REF_TRUMP);
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 2);
	cinch_heard(&t, 0, 0);
	tu_game_script(&t, "0 play 7S\n");
	tu_game_release(&t);
}
END_TEST

/* The hint's lead: every card of the hand is the best of its suit, but
 * the other player holds trumps, so no lead is said to be safe: "though a
 * trump could take it". */
START_TEST(test_hint_ruff)
{
	struct tu_game t;
	const char *h[2] = { "AH KH AD KD AC", "2S 3S 4S 5S 6S" };
	deal_hands(&t, NULL, 2, 1, h);
	ck_assert_int_eq(ST(&t)->to_act, 0);
	struct rng rng;
	rng_seed(&rng, 3);
	struct action a;
	struct bot_reason why;
	bot_hint(t.g, tu_bot(t.g), t.st, 2, &rng, &a, &why);
	ck_assert_int_eq(a.kind, ACT_PLAY);
	ck_assert_int_eq(why.code, BOT_WHY_MASTER_RUFF);
	struct talk tk = { .game = t.g, .me = 0, .players = 2 };
	struct sbuf b;
	sb_clear(&b);
	talk_hint(&tk, registry_find(t.g->name)->talk, &a, &why, &b);
	ck_assert_msg(strstr(b.s, "though a trump could take it") != NULL, "%s", b.s);
	tu_game_release(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bourre");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_three_deals);
	tcase_add_test(tc, test_play_example);
	tcase_add_test(tc, test_overtrump);
	tcase_add_test(tc, test_cinch_akq);
	tcase_add_test(tc, test_cinch_kq1098);
	tcase_add_test(tc, test_cinch_follow);
	tcase_add_test(tc, test_cinch_three_tricks);
	tcase_add_test(tc, test_cinch_kq109_against_a_j);
	tcase_add_test(tc, test_cinch_king_on_the_table);
	tcase_add_test(tc, test_cinch_jack_on_the_table);
	tcase_add_test(tc, test_hint_ruff);
	tcase_add_test(tc, test_lone_and_dealer);
	tcase_add_test(tc, test_ace_forces_dealer);
	tcase_add_test(tc, test_discard_refusals);
	tcase_add_test(tc, test_stock_runs_out);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_points_only);
	tcase_add_test(tc, test_double_ante);
	tcase_add_test(tc, test_trump_separate);
	tcase_add_test(tc, test_trump_dealer);
	tcase_add_test(tc, test_simultaneous);
	tcase_add_test(tc, test_draw_separate);
	tcase_add_test(tc, test_four);
	tcase_add_test(tc, test_legality_reference);
	tcase_add_test(tc, test_talk);
	tcase_add_test(tc, test_talk_all_events);
	tcase_add_test(tc, test_talk_polish);
	tcase_add_test(tc, test_reshuffle_whose_cards);
	tcase_add_test(tc, test_strict_renege);
	tcase_add_test(tc, test_strict_every_rule);
	tcase_add_test(tc, test_strict_four);
	tcase_add_test(tc, test_strict_talk);
	tcase_add_test(tc, test_strict_random);
	tcase_add_test(tc, test_legal_lists_reference);
	tcase_add_test(tc, test_strict_bots_play_proper);
	tcase_add_test(tc, test_referee);
	tcase_add_test(tc, test_referee_bots);
	tcase_add_test(tc, test_stakes_bound);
	tcase_add_test(tc, test_bot_strength);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
