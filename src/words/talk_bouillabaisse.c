/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG t->lang
/* La Bouillabaisse in words: the choices, each round's objective, tricks
 * with their points, round and game ends, and the answers to the query
 * keys, from a view redacted for the listening seat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/bouillabaisse.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"

/* "55 points", "minus 55 points", "1 point". */
static const char *points_str(const struct talk *t, int n, char *buf, size_t len)
{
	struct sbuf b;
	sb_clear(&b);
	say_points(t->lang, &b, n);
	return sb_copy(&b, buf, len);
}

/* 1 when both copies of card c are in play: two decks, and c not among the
 * cards taken out so that every player gets as many (bouillabaisse.c). */
static int both_copies(const struct bouillabaisse *st, card_t c)
{
	if (st->decks < 2)
		return 0;
	card_t pack[CARD_MAX_PACK];
	int n = bou_pack(st->players, st->decks, pack), k = 0;
	for (int i = 0; i < n; i++)
		k += pack[i] == c;
	return k >= 2;
}

/* The objective of a round, as one or two sentences. */
static void objective(const struct talk *t, const struct bouillabaisse *st, int round, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	const char *suit = say_suit(t->lang, st->suit);
	const char *rank = say_rank(t->lang, st->figure, SAY_RANK_BARE);
	int both = both_copies(st, (card_t)st->card);
	say_card_str(t->lang, (card_t)st->card, both ? SAY_BARE : SAY_THE, card, sizeof card);
	switch (round) {
	case 1:
		sb_puts(b, _("Each trick costs 5 points."));
		break;
	case 2: {
		struct sbuf one;
		sb_clear(&one);
		/* TRANSLATORS: %s is the chosen suit ("hearts"); French: "Chaque carte de %s coûte 10 points." */
		sb_printf(&one, _("%s cost 10 points each."), suit);
		sb_capitalize(&one);
		sb_puts(b, one.s);
		break;
	}
	case 3:
		/* TRANSLATORS: %s is the chosen rank, bare ("queen"). */
		sb_printf(b, _("Each %s costs 50 points."), rank);
		break;
	case 4: {
		struct sbuf one;
		sb_clear(&one);
		if (both)
			/* TRANSLATORS: %s is the chosen card without article; two decks. */
			sb_printf(&one, _("Each %s costs 200 points."), card);
		else
			/* TRANSLATORS: %s is the chosen card with its article. */
			sb_printf(&one, _("%s costs 200 points."), card);
		sb_capitalize(&one);
		sb_puts(b, one.s);
		break;
	}
	case 5:
	case 6:
		say_card_str(t->lang, (card_t)st->card, SAY_THE, card, sizeof card);
		/* TRANSLATORS: %1$s suit, %2$s rank (bare), %3$s card with its article. */
		sb_printf(b, _("Everything counts: each trick 5, each card of %1$s 10, each %2$s 50, %3$s 200."),
		          suit, rank, card);
		if (round == 6) {
			sb_puts(b, " ");
			if (st->all_or_nothing)
				sb_puts(b, _("All of it counts negative: take as many points as you can, but not all of them."));
			else
				sb_puts(b, _("All of it counts negative: take as many points as you can."));
		}
		break;
	}
}

/* "Anne 15, you 0 and Bruno 125." from per-seat values. */
static void seat_values(const struct talk *t, int players, const int *v, struct sbuf *b)
{
	for (int s = 0; s < players; s++) {
		char n[SAY_NUMBER_MAX];
		say_join(t->lang, b, s, players);
		/* TRANSLATORS: a seat and its score in a list: "Anne 15", "Anne minus 15". */
		sb_printf(b, _("%1$s %2$s"), say_name(t, s), say_number_str(t->lang, v[s], 0, n, sizeof n));
	}
}

static int trick_seat(const struct bouillabaisse *st, int i)
{
	return bou_trick_seat(st, i);
}

static int bou_event(const struct talk *t, const void *view, const struct event *e, struct sbuf *b)
{
	const struct bouillabaisse *st = view;
	char buf[SAY_CARD_MAX];
	switch (e->type) {
	case EV_CHOICE:
		if (e->what == EV_WHAT_SUIT)
			sb_printf(b, _("Chosen suit: %s."), say_suit(t->lang, e->value));
		else if (e->what == EV_WHAT_FIGURE)
			sb_printf(b, _("Chosen figure: %s."), say_rank(t->lang, e->value, SAY_RANK_PLURAL));
		else if (both_copies(st, (card_t)e->value))
			/* TRANSLATORS: two decks: both copies of the card count. */
			sb_printf(b, _("Chosen card: %s; both copies count."),
			          say_card_str(t->lang, (card_t)e->value, SAY_THE, buf, sizeof buf));
		else
			sb_printf(b, _("Chosen card: %s."), say_card_str(t->lang, (card_t)e->value, SAY_THE, buf, sizeof buf));
		return 1;
	case EV_HAND_START:
		sb_printf(b, _("Round %1$d of %2$d."), e->hand, st->rounds);
		sb_puts(b, " ");
		objective(t, st, e->hand, b);
		sb_puts(b, " ");
		if (e->dealer == t->me)
			sb_puts(b, _("You deal."));
		else
			sb_printf(b, _("%s deals."), say_name(t, e->dealer));
		return 1;
	case EV_TRICK:
		points_str(t, e->points, buf, sizeof buf);
		if (e->points)
			say_who(b, t, e->winner, _("You take the trick: %s."), _("%1$s takes the trick: %2$s."), buf);
		else if (e->winner == t->me)
			sb_puts(b, _("You take the trick: no points."));
		else
			sb_printf(b, _("%s takes the trick: no points."), say_name(t, e->winner));
		/* Two decks: the winner's card met its copy. */
		for (int k = 0; k < e->ncards; k++)
			if (e->card_seat[k] == e->winner)
				for (int j = 0; j < e->ncards; j++)
					if (j != k && e->cards[j] == e->cards[k]) {
						sb_puts(b, " ");
						sb_puts(b, _("Of two identical cards, the first played wins."));
						return 1;
					}
		return 1;
	case EV_PHASE:
		if (e->note == EV_NOTE_ALL_OR_NOTHING) {
			points_str(t, e->value, buf, sizeof buf);
			say_who(b, t, e->seat, _("All or nothing: you took everything, the round counts the other way: %s."),
			        _("All or nothing: %1$s took everything, the round counts the other way: %2$s."), buf);
			return 1;
		}
		if (e->note == EV_NOTE_ROUND_POINTS) {
			struct sbuf l;
			sb_clear(&l);
			seat_values(t, e->nvalues, e->values, &l);
			/* TRANSLATORS: %2$s lists each player's points: "Anne 5, you 0 and Bruno 10". */
			sb_printf(b, _("End of round %1$d. Points this round: %2$s."), e->code, l.s);
			return 1;
		}
		return -1;
	case EV_HAND_END: {
		/* After the first round the totals are that round's points, just
		 * said: do not say them twice. */
		int same = 1;
		for (int s = 0; s < e->nvalues && s < st->players; s++)
			same &= e->values[s] == st->last_points[s];
		if (same)
			return -1;
		struct sbuf l;
		sb_clear(&l);
		seat_values(t, e->nvalues, e->values, &l);
		sb_printf(b, _("Totals: %s."), l.s);
		return 1;
	}
	case EV_GAME_END: {
		int n = 0, best = 0;
		for (int s = 0; s < e->nvalues; s++)
			if ((e->winners >> s) & 1) {
				n++;
				best = e->values[s];
			}
		points_str(t, best, buf, sizeof buf);
		sb_puts(b, _("Game over."));
		sb_puts(b, " ");
		if (n == 1) {
			say_who(b, t, e->winner, _("You win with %s."), _("%1$s wins with %2$s."), buf);
		} else {
			struct sbuf w;
			sb_clear(&w);
			int k = 0;
			for (int s = 0; s < e->nvalues; s++)
				if ((e->winners >> s) & 1) {
					say_join(t->lang, &w, k++, n);
					sb_puts(&w, say_name(t, s));
				}
			/* TRANSLATORS: %1$s the winners ("you and Bruno"), %2$s their score. */
			sb_printf(b, _("Shared win: %1$s, with %2$s."), w.s, buf);
		}
		return 1;
	}
	default:
		return 0;
	}
}

/* What the seat to act must do: "You lead.", "Follow hearts.", "No hearts:
 * play any card." */
static void duty(const struct talk *t, const struct bouillabaisse *st, struct sbuf *b)
{
	if (st->ntrick == 0) {
		sb_puts(b, _("You lead."));
		return;
	}
	int led = card_suit(st->trick[0]), has = 0;
	for (int i = 0; i < st->nhand[st->to_act]; i++)
		has |= card_suit(st->hand[st->to_act][i]) == led;
	if (has)
		sb_printf(b, _("Follow %s."), say_suit(t->lang, led));
	else
		sb_printf(b, _("No %s: play any card."), say_suit(t->lang, led));
}

static void say_trick_card(const struct talk *t, int seat, card_t c, int first, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	/* TRANSLATORS: who played a card of the trick: "Bruno: the ace of hearts". */
	sb_printf(b, _("%1$s: %2$s"), first ? say_Name(t, seat) : say_name(t, seat),
	          say_card_str(t->lang, c, SAY_THE, card, sizeof card));
}

/* The cards of a trick led by `leader`, "Anne: the ace of spades; Bruno: ...". */
static void say_trick_cards(const struct talk *t, const struct bouillabaisse *st, int leader,
                            const card_t *cards, int n, int capital, struct sbuf *b)
{
	for (int i = 0; i < n; i++) {
		if (i)
			sb_puts(b, _("; "));
		say_trick_card(t, (leader + i) % st->players, cards[i], i == 0 && capital, b);
	}
}

/* Who leads the trick to come: "You lead." / "Bruno to lead." */
static void say_leader(const struct talk *t, const struct bouillabaisse *st, struct sbuf *b)
{
	if (st->leader == t->me)
		sb_puts(b, _("You lead."));
	else
		sb_printf(b, _("%s to lead."), say_Name(t, st->leader));
}

/* "Bruno holds the trick, 55 points so far." */
static void say_holder(const struct talk *t, int seat, int pts, struct sbuf *b)
{
	char buf[SAY_NUMBER_MAX];
	if (pts == 0) {
		if (seat == t->me)
			sb_puts(b, _("You hold the trick, no points so far."));
		else
			sb_printf(b, _("%s holds the trick, no points so far."), say_Name(t, seat));
		return;
	}
	points_str(t, pts, buf, sizeof buf);
	/* TRANSLATORS: "Bruno holds the trick, 55 points so far." */
	say_who(b, t, seat, _("You hold the trick, %s so far."), _("%1$s holds the trick, %2$s so far."), buf);
}

/* The trick just finished (the table is empty and the round has begun):
 * its cards are the last ones its winner, the leader now, has taken. */
static void say_last_trick(const struct talk *t, const struct bouillabaisse *st, struct sbuf *b)
{
	int w = st->leader, n = st->players;
	if (st->tricks_played == 0 || st->ntaken[w] < n)
		return;
	const card_t *c = st->taken[w] + st->ntaken[w] - n;
	int best = 0;
	for (int i = 1; i < n; i++)
		if (card_suit(c[i]) == card_suit(c[0]) && card_rank(c[i]) > card_rank(c[best]))
			best = i;
	int leader = ((w - best) % n + n) % n;
	char buf[SAY_NUMBER_MAX];
	sb_puts(b, " ");
	sb_puts(b, _("Last trick: "));
	say_trick_cards(t, st, leader, c, n, 0, b);   /* after "Last trick: " */
	sb_puts(b, ". ");
	points_str(t, bou_trick_points(st, c, n), buf, sizeof buf);
	say_who(b, t, w, _("You took it: %s."), _("%1$s took it: %2$s."), buf);
}

static void bou_query(const struct talk *t, const void *view, int key, struct sbuf *b)
{
	const struct bouillabaisse *st = view;
	char card[SAY_CARD_MAX];
	switch (key) {
	case TALK_RULES:
		if (st->round >= 1) {
			sb_printf(b, _("Round %1$d of %2$d."), st->round, st->rounds);
			sb_puts(b, " ");
			objective(t, st, st->round, b);
			sb_puts(b, " ");
		}
		/* TRANSLATORS: the suit, the rank (plural) and the card chosen. */
		sb_printf(b, _("Suit: %1$s; figure: %2$s; card: %3$s."), say_suit(t->lang, st->suit),
		          say_rank(t->lang, st->figure, SAY_RANK_PLURAL), say_card_str(t->lang, (card_t)st->card, SAY_THE, card, sizeof card));
		if (st->decks > 1) {
			sb_puts(b, " ");
			sb_puts(b, _("Two decks: of two identical cards, the first played wins."));
		}
		if (st->all_or_nothing) {
			sb_puts(b, " ");
			sb_puts(b, st->round == 4 ? _("All or nothing is on, but not in this round.")
			                          : _("All or nothing is on: take every scoring item and the round counts the other way."));
		}
		break;
	case TALK_SCORES:
	{
		struct sbuf l;
		sb_clear(&l);
		seat_values(t, st->players, st->total, &l);
		sb_printf(b, _("Totals: %s."), l.s);
		if (st->round >= 1 && !st->over) {
			sb_clear(&l);
			seat_values(t, st->players, st->round_points, &l);
			sb_puts(b, " ");
			sb_printf(b, _("This round so far: %s."), l.s);
		}
	}
		break;
	case TALK_TURN:
		if (st->over || st->to_act < 0) {
			sb_puts(b, _("The game is over."));
		} else if (st->to_act == t->me) {
			sb_puts(b, _("Your turn."));
			sb_puts(b, " ");
			duty(t, st, b);
		} else if (st->ntrick == 0) {
			sb_printf(b, _("%s to lead."), say_Name(t, st->to_act));
		} else {
			sb_printf(b, _("%s to play."), say_Name(t, st->to_act));
		}
		break;
	case TALK_SUIT:
		if (st->ntrick == 0) {
			sb_puts(b, _("No card led yet."));
			if (!st->over && st->to_act >= 0) {
				sb_puts(b, " ");
				say_leader(t, st, b);
			}
		} else {
			sb_printf(b, _("%1$s led by %2$s."), say_suit(t->lang, card_suit(st->trick[0])), say_name(t, st->leader));
		}
		sb_capitalize(b);
		break;
	case TALK_TABLE:
		if (st->ntrick == 0) {
			sb_puts(b, _("No cards on the table."));
			if (!st->over && st->to_act >= 0) {
				sb_puts(b, " ");
				say_leader(t, st, b);
				say_last_trick(t, st, b);
			}
			break;
		}
		say_trick_cards(t, st, st->leader, st->trick, st->ntrick, 1, b);
		sb_puts(b, ". ");
		say_holder(t, trick_seat(st, bou_trick_best(st)), bou_trick_points(st, st->trick, st->ntrick), b);
		break;
	default:
		if (key >= '1' && key <= '9') {
			int k = key - '1';
			if (k < st->ntrick) {
				say_trick_card(t, trick_seat(st, k), st->trick[k], 1, b);
				sb_puts(b, ".");
			} else if (st->ntrick == 0) {
				sb_printf(b, _("No card %d: the table is empty."), k + 1);
			} else {
				sb_printf(b, P_("No card %1$d on the table: %2$d card so far.",
				                "No card %1$d on the table: %2$d cards so far.", st->ntrick),
				          k + 1, st->ntrick);
			}
		}
		break;
	}
}

static void bou_refusal(const struct talk *t, const void *view, const struct refusal *r, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	(void)t;
	(void)view;
	switch (r->code) {
	case BOU_NOT_YOUR_TURN:
		sb_puts(b, _("It is not your turn."));
		break;
	case BOU_NOT_A_PLAY:
		sb_puts(b, _("Play a card."));
		break;
	case BOU_NOT_IN_HAND:
		sb_printf(b, _("You do not hold %s."), say_card_str(t->lang, r->card, SAY_THE, card, sizeof card));
		break;
	case BOU_MUST_FOLLOW:
		sb_printf(b, _("You must follow %s."), say_suit(t->lang, r->suit));
		break;
	default:
		break;
	}
}

static void bou_prompt(const struct talk *t, const void *view, struct sbuf *b)
{
	const struct bouillabaisse *st = view;
	(void)t;
	if (st->over || st->to_act < 0)
		return;
	sb_puts(b, _("Your turn."));
	sb_puts(b, " ");
	duty(t, st, b);
}

const struct game_talk bouillabaisse_talk = {
	.game = "bouillabaisse",
	.event = bou_event,
	.query = bou_query,
	.refusal = bou_refusal,
	.action = NULL,
	.prompt = bou_prompt,
};
