/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG t->lang
/* Bourré put into words: the declarations, the draw (how many cards each
 * player drew; your own new cards only to you), the rule that binds the
 * player now (follow, trump, beat, overtrump, cinch), the pot and the
 * bourrés. */
#include <stdio.h>
#include <string.h>

#include "games/bourre.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"

static const char *card_s(const struct talk *t, card_t c, char *buf, size_t len)
{
	return say_card_str(t->lang, c, SAY_THE, buf, len);
}

static int me_is(const struct talk *t, int seat) { return t->me >= 0 && seat == t->me; }

/* A sentence about a seat: `you` for the listener, `other` (one %s: the
 * name) for the others. */
static void subject(struct sbuf *b, const struct talk *t, int seat, const char *you, const char *other)
{
	if (me_is(t, seat))
		sb_puts(b, you);
	else
		sb_printf(b, other, say_name(t, seat));
}

/* A balance: chips, or points when the game is played for points only
 * (chips=0); below zero it is said as a debt, never as a bare minus sign. */
static void say_balance(const struct talk *t, struct sbuf *b, const struct bourre_state *st, int n)
{
	int a = n < 0 ? -n : n;
	if (st && st->chips0 == 0) {
		say_points(t->lang, b, n);
	} else if (n < 0) {
		sb_printf(b, P_("a debt of %d chip", "a debt of %d chips", a), a);
	} else {
		say_chips(t->lang, b, n);
	}
}

/* What a player who stays and takes no trick pays now: the pot, or the
 * limit. */
static void say_bourre_cost(const struct talk *t, struct sbuf *b, const struct bourre_state *st)
{
	struct sbuf c;
	sb_clear(&c);
	if (st->limit > 0 && st->pot > st->limit) {
		say_chips(t->lang, &c, st->limit);
		sb_printf(b, _("If you stay and take no trick, you pay %s, the limit, into the next pot."), c.s);
	} else {
		say_chips(t->lang, &c, st->pot);
		sb_printf(b, _("If you stay and take no trick, you pay the pot, %s so far, into the next pot."), c.s);
	}
}

/* 1 when the listener's view shows `seat` holding a card of `suit`. */
static int holds_suit(const struct bourre_state *st, int seat, int suit)
{
	return seat >= 0 && card_has_suit(st->hand[seat], st->nhand[seat], suit);
}

/* 1 when the dealer `seat` no longer holds card c and has not played it:
 * it was discarded (the listener knows it only of its own cards). */
static int discarded(const struct bourre_state *st, int seat, card_t c)
{
	if (card_find(st->hand[seat], st->nhand[seat], c) >= 0 || card_find(st->gone, st->ngone, c) >= 0 ||
	    card_find(st->trick, st->ntrick, c) >= 0)
		return 0;
	return 1;
}

/* ---- events ---- */

static void ev_turnup(const struct talk *t, const struct bourre_state *st, const struct event *e,
                      struct sbuf *b)
{
	char c[SAY_CARD_MAX];
	card_s(t, e->cards[0], c, sizeof c);
	if (e->seat < 0 && st->trump_mode == BR_TRUMP_DEALER && !st->four && me_is(t, st->dealer))
		sb_printf(b, _("Turned card: %s, you may take it if you stay."), c);
	else if (e->seat < 0 && st->trump_mode == BR_TRUMP_DEALER && !st->four)
		sb_printf(b, _("Turned card: %1$s, %2$s may take it."), c, say_name(t, st->dealer));
	else if (e->seat < 0)
		sb_printf(b, _("Turned card: %s, it belongs to nobody."), c);
	else if (me_is(t, e->seat))
		sb_printf(b, _("Turned card: %s, it is yours."), c);
	else
		sb_printf(b, _("Turned card: %1$s, it belongs to %2$s."), c, say_name(t, e->seat));
	sb_puts(b, " ");
	sb_printf(b, C_("bourre", "Trumps: %s."), say_suit(t->lang, e->value));
	if (e->seat >= 0 && !st->four && card_rank(e->cards[0]) == RANK_ACE) {
		sb_puts(b, " ");
		subject(b, t, e->seat, _("An ace turned: you must stay."), _("An ace turned: %s must stay."));
	}
	sb_puts(b, " ");
	struct sbuf chips;
	sb_clear(&chips);
	say_chips(t->lang, &chips, e->pot);
	sb_printf(b, C_("bourre", "Pot: %s."), chips.s);
	(void)st;
}

static void ev_action(const struct talk *t, const struct bourre_state *st, const struct event *e,
                      struct sbuf *b)
{
	int s = e->seat;
	int hidden = !ev_visible_to(e, t->me);
	switch (e->act.kind) {
	case ACT_STAY:
	case ACT_PASS:
		if (hidden) {
			sb_printf(b, C_("bourre", "%s has decided."), say_name(t, s));
			return;
		}
		if (e->act.kind == ACT_STAY) {
			if (e->amount > 0) {
				struct sbuf c;
				sb_clear(&c);
				say_chips(t->lang, &c, e->amount);
				say_who(b, t, s, _("You stay and put in %s."), _("%1$s stays and puts in %2$s."), c.s);
			} else {
				subject(b, t, s, C_("bourre", "You stay."), C_("bourre", "%s stays."));
			}
		} else {
			subject(b, t, s, C_("bourre", "You pass."), C_("bourre", "%s passes."));
		}
		if (st->simultaneous && st->phase == BR_PH_DECLARE && me_is(t, s))
			sb_printf(b, " %s", _("The others will know when everyone has decided."));
		return;
	case ACT_TAKE:
		subject(b, t, s, C_("bourre", "You take the turned card."), C_("bourre", "%s takes the turned card."));
		return;
	case ACT_LEAVE:
		subject(b, t, s, C_("bourre", "You leave the turned card."), C_("bourre", "%s leaves the turned card."));
		return;
	default:
		break;
	}
}

static void ev_draw(const struct talk *t, const struct event *e, struct sbuf *b)
{
	int s = e->seat;
	int n = e->ncards;
	if (me_is(t, s) && ev_visible_to(e, t->me)) {
		if (n == 0) {
			sb_puts(b, C_("bourre", "You keep your cards."));
			return;
		}
		struct sbuf got;
		sb_clear(&got);
		say_cards(t->lang, &got, e->cards2, e->ncards2, SAY_THE);
		if (e->ncards2 == 0)
			sb_printf(b, P_("You discard %d card.", "You discard %d cards.", n), n);
		else
			sb_printf(b, P_("You discard %1$d card and receive %2$s.",
			                "You discard %1$d cards and receive %2$s.", n), n, got.s);
		return;
	}
	if (n == 0)
		sb_printf(b, _("%s draws no cards."), say_name(t, s));
	else
		sb_printf(b, P_("%1$s draws %2$d card.", "%1$s draws %2$d cards.", e->ncards2),
		          say_name(t, s), e->ncards2);
}

/* A renege, told when its trick is complete (strict=yes): who, and the rule
 * broken (e->code, a refusal code; e->value the suit, cards[1] the card
 * that had to be beaten). */
static void say_renege(const struct talk *t, const struct event *e, struct sbuf *b)
{
	char c[SAY_CARD_MAX];
	card_t w = e->ncards > 1 ? e->cards[1] : CARD_NONE;
	switch (e->code) {
	case BR_REF_FOLLOW:
		say_who(b, t, e->seat, _("Renege: you did not follow %s."), _("Renege: %1$s did not follow %2$s."),
		        say_suit(t->lang, e->value));
		break;
	case BR_REF_TRUMP:
		subject(b, t, e->seat, _("Renege: you did not trump."), _("Renege: %s did not trump."));
		break;
	case BR_REF_BEAT:
		say_who(b, t, e->seat, _("Renege: you did not beat %s."), _("Renege: %1$s did not beat %2$s."),
		        card_s(t, w, c, sizeof c));
		break;
	case BR_REF_OVERTRUMP:
		say_who(b, t, e->seat, _("Renege: you did not overtrump %s."),
		        _("Renege: %1$s did not overtrump %2$s."), card_s(t, w, c, sizeof c));
		break;
	default: /* the cinch */
		subject(b, t, e->seat, _("Renege: you held a cinch and did not play your highest trump."),
		        _("Renege: %s held a cinch and did not play the highest trump."));
		break;
	}
}

static void ev_phase(const struct talk *t, const struct event *e, struct sbuf *b)
{
	struct sbuf c;
	sb_clear(&c);
	switch (e->note) {
	case EV_NOTE_RESHUFFLE:
		sb_printf(b, P_("The stock is empty: the discards are shuffled, %d card.",
		                "The stock is empty: the discards are shuffled, %d cards.", e->value),
		          e->value);
		break;
	case EV_NOTE_REVEAL: {
		if (e->value == 0) {
			sb_puts(b, C_("bourre", "Nobody stays."));
			return;
		}
		struct sbuf who;
		sb_clear(&who);
		int k = 0;
		for (int s = 0; s < EV_MAX_SEATS; s++)
			if (((unsigned)e->code >> s) & 1) {
				say_join(t->lang, &who, k++, e->value);
				sb_puts(&who, say_name(t, s));
			}
		sb_printf(b, P_("Staying: %s, %d player.", "Staying: %s, %d players.", e->value), who.s,
		          e->value);
		break;
	}
	case EV_NOTE_DEALER_STAYS:
		subject(b, t, e->seat, _("Everyone else passed: you stay."),
		        _("Everyone else passed: %s stays."));
		break;
	case EV_NOTE_LONE:
		subject(b, t, e->seat, _("You play alone and take the pot without play."),
		        _("%s plays alone and takes the pot without play."));
		break;
	case EV_NOTE_PLAY:
		if (me_is(t, e->seat))
			sb_printf(b, P_("Play begins, %d player. You lead.", "Play begins, %d players. You lead.",
			                e->value), e->value);
		else
			sb_printf(b, P_("Play begins, %1$d player. %2$s leads.",
			                "Play begins, %1$d players. %2$s leads.", e->value),
			          e->value, say_name(t, e->seat));
		break;
	case EV_NOTE_SPLIT:
		sb_printf(b, P_("Tie for most tricks, %d trick each: nobody takes the pot, it stays.",
		                "Tie for most tricks, %d tricks each: nobody takes the pot, it stays.", e->value),
		          e->value);
		break;
	case EV_NOTE_BOURRE:
		say_chips(t->lang, &c, e->value);
		/* French agrees "bourré" with the player: a context for each,
		 * and one without agreement for a person (whose gender is not
		 * known). */
		say_who(b, t, e->seat, _("Bourré for you: no trick, you put %s into the next pot."),
		        say_feminine(t, e->seat) < 0 ? C_("person", "%1$s is bourré: no trick, %2$s into the next pot.")
		        : say_feminine(t, e->seat) ? C_("she", "%1$s is bourré: no trick, %2$s into the next pot.")
		                                   : C_("he", "%1$s is bourré: no trick, %2$s into the next pot."),
		        c.s);
		break;
	case EV_NOTE_RENEGE:
		say_renege(t, e, b);
		break;
	case EV_NOTE_SECOND:
		/* The question itself is the prompt's. */
		sb_printf(b, P_("Second chance, %d player in: each may still pass.",
		                "Second chance, %d players in: each may still pass.", e->value),
		          e->value);
		break;
	case EV_NOTE_NOBODY:
		sb_puts(b, _("Nobody plays: the pot stays for the next deal."));
		break;
	case EV_NOTE_STAKES:
		sb_puts(b, _("The stakes are too high: the game ends here."));
		break;
	default:
		break;
	}
}

static int event_fn(const struct talk *t, const void *view, const struct event *e, struct sbuf *b)
{
	const struct bourre_state *st = view;
	struct sbuf c;
	sb_clear(&c);
	switch (e->type) {
	case EV_TURNUP:
		ev_turnup(t, st, e, b);
		return 1;
	case EV_ACTION:
		if (e->act.kind == ACT_PLAY)
			return 0;
		if (e->act.kind == ACT_DISCARD)
			return -1;  /* the draw says it */
		if (t->verbosity == TALK_SHORT && !me_is(t, e->seat) &&
		    (e->act.kind == ACT_STAY || e->act.kind == ACT_PASS))
			return -1;  /* short: T and S tell who stays */
		ev_action(t, st, e, b);
		return b->len ? 1 : -1;
	case EV_DRAW:
		ev_draw(t, e, b);
		return 1;
	case EV_PHASE:
		ev_phase(t, e, b);
		return b->len ? 1 : -1;
	case EV_TRICK:
		if (t->verbosity == TALK_SHORT) {
			/* short: the running count is S's */
			subject(b, t, e->winner, _("You take the trick."), _("%s takes the trick."));
			return 1;
		}
		if (me_is(t, e->winner))
			sb_printf(b, P_("You take the trick, %d trick.", "You take the trick, %d tricks.",
			                e->value), e->value);
		else
			sb_printf(b, P_("%1$s takes the trick, %2$d trick.", "%1$s takes the trick, %2$d tricks.",
			                e->value), say_name(t, e->winner), e->value);
		return 1;
	case EV_PAYMENT:
		if (e->reason == EV_PAY_POT && e->to >= 0) {
			say_chips(t->lang, &c, e->amount);
			say_who(b, t, e->to, C_("bourre", "You win the pot: %s."), C_("bourre", "%1$s wins the pot: %2$s."), c.s);
			return 1;
		}
		if (e->reason == EV_PAY_RENEGE && e->from >= 0) {
			say_chips(t->lang, &c, e->amount);
			say_who(b, t, e->from, _("Renege: you pay %s into the next pot."),
			        _("Renege: %1$s pays %2$s into the next pot."), c.s);
			return 1;
		}
		return -1;  /* antes, stays and bourrés are said elsewhere */
	case EV_HAND_END:
		if (t->me >= 0 && t->me < e->nvalues) {
			say_balance(t, &c, st, e->values[t->me]);
			sb_printf(b, _("Deal over. You have %s."), c.s);
		} else {
			sb_puts(b, C_("bourre", "Deal over."));
		}
		sb_puts(b, " ");
		if (e->pot == 0) {
			sb_puts(b, _("The pot is empty."));
		} else {
			sb_clear(&c);
			say_chips(t->lang, &c, e->pot);
			sb_printf(b, C_("bourre", "Left in the pot: %s."), c.s);
		}
		return 1;
	case EV_GAME_END: {
		/* the announcer names the winners; the standings follow here */
		if (e->nvalues <= 0)
			return 0;
		struct sbuf w;
		sb_clear(&w);
		int n = 0;
		for (unsigned m = e->winners; m; m &= m - 1)
			n++;
		int k = 0;
		for (int s = 0; s < e->nvalues; s++)
			if ((e->winners >> s) & 1) {
				say_join(t->lang, &w, k++, n);
				sb_puts(&w, say_name(t, s));
			}
		sb_puts(b, _("Game over."));
		if (n == 1 && t->me >= 0 && ((e->winners >> t->me) & 1)) {
			sb_printf(b, " %s", _("You win."));
		} else if (n > 0) {
			sb_puts(b, " ");
			sb_printf(b, P_("Winner: %s.", "Winners: %s.", n), w.s);
		}
		for (int k2 = 0; k2 < e->nvalues; k2++) {
			int s = t->me >= 0 ? (t->me + k2) % e->nvalues : k2;
			sb_clear(&c);
			say_balance(t, &c, st, e->values[s]);
			sb_puts(b, " ");
			sb_printf(b, _("%1$s: %2$s"), say_Name(t, s), c.s);
			sb_puts(b, ".");
		}
		return 1;
	}
	default:
		return 0;
	}
}

/* ---- the rule in force ---- */

/* The best card of the trick under way (CARD_NONE when it is empty). */
static card_t trick_best(const struct bourre_state *st)
{
	if (st->ntrick == 0)
		return CARD_NONE;
	card_t w = st->trick[0];
	for (int i = 1; i < st->ntrick; i++) {
		card_t x = st->trick[i];
		if (card_suit(x) == card_suit(w) ? card_rank(x) > card_rank(w) : card_suit(x) == st->trump)
			w = x;
	}
	return w;
}

/* The rule that binds `seat` now, as a sentence addressed to the player;
 * `why` adds the reason a lighter rule applies (for R). */
static void say_constraint(const struct talk *t, const struct bourre_state *st, int code,
                           const struct refusal *r, int why, struct sbuf *b)
{
	(void)t;
	char c[SAY_CARD_MAX];
	card_t w = trick_best(st);
	int trumped = w != CARD_NONE && card_suit(w) == st->trump && card_suit(st->trick[0]) != st->trump;
	switch (code) {
	case BR_REF_FOLLOW:
		if (why && trumped)
			sb_printf(b, _("Follow %s: the trick is trumped, any card of that suit will do."),
			          say_suit(t->lang, r->suit));
		else if (why && w != CARD_NONE)
			sb_printf(b, _("Follow %1$s: you cannot beat %2$s, any card of that suit will do."),
			          say_suit(t->lang, r->suit), card_s(t, w, c, sizeof c));
		else
			sb_printf(b, _("Follow %s."), say_suit(t->lang, r->suit));
		break;
	case BR_REF_BEAT:
		sb_printf(b, C_("bourre", "Follow %1$s and beat %2$s."), say_suit(t->lang, card_suit(r->card)),
		          card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_TRUMP:
		if (why && trumped)
			sb_printf(b, _("You cannot follow: play a trump, %1$s; you cannot overtrump %2$s, any trump will do."),
			          say_suit(t->lang, st->trump), card_s(t, w, c, sizeof c));
		else
			sb_printf(b, _("You cannot follow: play a trump, %s."), say_suit(t->lang, st->trump));
		break;
	case BR_REF_OVERTRUMP:
		sb_printf(b, _("You cannot follow: overtrump %s."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_CINCH_LEAD:
		sb_printf(b, _("You hold a cinch: lead your highest trump, %s."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_CINCH_FOLLOW:
		sb_printf(b, _("You hold a cinch: play your highest trump, %s."), card_s(t, r->card, c, sizeof c));
		break;
	default:
		if (st->ntrick == 0)
			sb_puts(b, C_("bourre", "You lead: any card."));
		else
			sb_puts(b, _("You can neither follow nor trump: any card."));
		break;
	}
}

static void phase_rules(const struct talk *t, const struct bourre_state *st, struct sbuf *b)
{
	(void)t;
	int min = 0, max = st->ncards;
	switch (st->phase) {
	case BR_PH_DECLARE:
		if (st->four)
			sb_puts(b, _("Stay or pass. Staying costs 1 chip and needs a trump or a club."));
		else
			sb_puts(b, C_("bourre", "Stay or pass."));
		if (st->simultaneous)
			sb_printf(b, " %s", _("Everyone decides in secret; the decisions are shown together."));
		else if (st->draw_separate || st->four)
			sb_printf(b, " %s", _("Everyone declares first; then those who stay discard in turn."));
		if (!st->simultaneous && !st->draw_separate && !st->four)
			sb_printf(b, " %s", _("If you stay, you discard at once and receive as many cards."));
		if (st->ante_double)
			sb_printf(b, " %s", _("Staying costs 1 more chip."));
		sb_puts(b, " ");
		say_bourre_cost(t, b, st);
		break;
	case BR_PH_TAKE:
		sb_puts(b, _("Take the turned card and then discard at least one card, or leave it."));
		break;
	case BR_PH_DISCARD:
		if (st->to_act >= 0)
			bourre_discard_range(st, st->to_act, &min, &max);
		sb_printf(b, _("Discard from %1$d to %2$d cards; you receive as many as you need for %3$d."),
		          min, max, st->ncards);
		break;
	case BR_PH_CONFIRM:
		sb_puts(b, _("Second chance: stay for 1 more chip, or pass."));
		sb_puts(b, " ");
		say_bourre_cost(t, b, st);
		break;
	case BR_PH_PLAY:
		sb_puts(b, _("Follow suit; if you cannot, trump; and beat the best card so far if you can."));
		sb_printf(b, " %s", _("With a cinch, three tricks sure, lead your highest trump, and play it when you can trump, except last to the trick."));
		break;
	default:
		sb_puts(b, C_("bourre", "The game is over."));
		break;
	}
}

static void rules_now(const struct talk *t, const struct bourre_state *st, struct sbuf *b)
{
	if (st->phase == BR_PH_PLAY && t->me >= 0 && st->to_act == t->me) {
		struct refusal r;
		int code = bourre_constraint(st, t->me, &r);
		say_constraint(t, st, code, &r, 1, b);
	} else {
		phase_rules(t, st, b);
	}
	if (st->strict && st->phase != BR_PH_OVER) {
		sb_puts(b, " ");
		sb_puts(b, st->four ? _("Strict table: a renege is not refused; it is told after the trick and costs twice the pot.")
		                    : _("Strict table: a renege is not refused; it is told after the trick and costs the pot."));
	}
}

/* ---- queries ---- */

static void say_table(const struct talk *t, const struct bourre_state *st, struct sbuf *b)
{
	char c[SAY_CARD_MAX];
	if (st->ntrick == 0) {
		sb_puts(b, C_("bourre", "No card on the table."));
		if (st->phase == BR_PH_PLAY && st->to_act >= 0) {
			sb_puts(b, " ");
			subject(b, t, st->to_act, _("You lead."), _("%s leads."));
		}
		if (st->turnup_place == BR_TU_TABLE) {
			sb_puts(b, " ");
			sb_printf(b, _("Turned card: %s."), card_s(t, st->turnup, c, sizeof c));
		}
		return;
	}
	for (int i = 0; i < st->ntrick; i++) {
		if (i)
			sb_puts(b, _("; "));
		sb_printf(b, _("%1$s: %2$s"), i ? say_name(t, st->trick_seat[i]) : say_Name(t, st->trick_seat[i]),
		          card_s(t, st->trick[i], c, sizeof c));
	}
	sb_puts(b, ".");
	/* Who holds it: the highest trump, else the highest of the suit led. */
	int best = 0;
	for (int i = 1; i < st->ntrick; i++) {
		card_t x = st->trick[i], w = st->trick[best];
		if (card_suit(x) == card_suit(w) ? card_rank(x) > card_rank(w) : card_suit(x) == st->trump)
			best = i;
	}
	sb_puts(b, " ");
	if (me_is(t, st->trick_seat[best]))
		sb_puts(b, _("You hold the trick."));
	else
		sb_printf(b, _("%s holds the trick."), say_Name(t, st->trick_seat[best]));
}

static void say_suits(const struct talk *t, const struct bourre_state *st, struct sbuf *b)
{
	char c[SAY_CARD_MAX];
	if (st->phase == BR_PH_PLAY && st->ntrick > 0) {
		sb_printf(b, C_("bourre", "Led: %s."), say_suit(t->lang, card_suit(st->trick[0])));
		sb_puts(b, " ");
	}
	sb_printf(b, C_("bourre", "Trumps: %s."), say_suit(t->lang, st->trump));
	sb_puts(b, " ");
	card_s(t, st->turnup, c, sizeof c);
	if (st->turnup_place == BR_TU_TABLE)
		sb_printf(b, _("Turned card: %s, on the table."), c);
	else if (me_is(t, st->dealer) && st->status[t->me] == BR_ST_PASS)
		sb_printf(b, _("Turned card: %s."), c);
	else if (me_is(t, st->dealer) && discarded(st, t->me, st->turnup))
		sb_printf(b, _("Turned card: %s, discarded by you."), c);
	else if (me_is(t, st->dealer))
		sb_printf(b, _("Turned card: %s, yours."), c);
	else
		sb_printf(b, _("Turned card: %1$s, %2$s's."), c, say_name(t, st->dealer));
}

static void say_scores(const struct talk *t, const struct bourre_state *st, struct sbuf *b)
{
	struct sbuf c;
	sb_clear(&c);
	say_chips(t->lang, &c, st->pot);
	sb_printf(b, C_("bourre", "Pot: %s."), c.s);
	for (int k = 0; k < st->players; k++) {
		int s = t->me >= 0 ? (t->me + k) % st->players : k;
		sb_clear(&c);
		say_balance(t, &c, st, st->chips[s]);
		sb_puts(b, " ");
		sb_printf(b, _("%1$s: %2$s"), say_Name(t, s), c.s);
		if (st->phase == BR_PH_OVER)
			(void)0;  /* no deal under way */
		else if (st->status[s] == BR_ST_STAY && st->phase == BR_PH_PLAY)
			sb_printf(b, P_(", %d trick", ", %d tricks", st->tricks[s]), st->tricks[s]);
		else if (st->status[s] == BR_ST_STAY)
			sb_printf(b, ", %s", C_("bourre", "staying"));
		else if (st->status[s] == BR_ST_PASS)
			sb_printf(b, ", %s", C_("bourre", "passed"));
		else if (st->pending[s] == BR_ST_STAY)
			sb_printf(b, ", %s", C_("bourre", "staying, not yet shown"));
		else if (st->pending[s] == BR_ST_PASS)
			sb_printf(b, ", %s", C_("bourre", "passing, not yet shown"));
		else if (st->pending[s] == BR_ST_HIDDEN)
			sb_printf(b, ", %s", C_("bourre", "has decided"));
		sb_puts(b, ".");
	}
}

static void say_turn(const struct talk *t, const struct bourre_state *st, struct sbuf *b)
{
	int s = st->to_act;
	if (st->phase == BR_PH_OVER || s < 0) {
		sb_puts(b, C_("bourre", "The game is over."));
		return;
	}
	const char *what;
	switch (st->phase) {
	case BR_PH_DECLARE: what = C_("bourre", "stay or pass"); break;
	case BR_PH_TAKE: what = C_("bourre", "take or leave the turned card"); break;
	case BR_PH_DISCARD: what = C_("bourre", "discard"); break;
	case BR_PH_CONFIRM: what = C_("bourre", "stay or pass again"); break;
	default: what = st->ntrick == 0 ? C_("bourre", "lead") : C_("bourre", "play"); break;
	}
	if (me_is(t, s)) {
		sb_printf(b, C_("bourre", "Your turn: %s."), what);
		if (st->phase == BR_PH_PLAY || st->phase == BR_PH_DISCARD) {
			sb_puts(b, " ");
			rules_now(t, st, b);
		}
	} else {
		sb_printf(b, C_("bourre", "%1$s's turn: %2$s."), say_Name(t, s), what);
	}
}

static void query_fn(const struct talk *t, const void *view, int key, struct sbuf *b)
{
	const struct bourre_state *st = view;
	char c[SAY_CARD_MAX];
	switch (key) {
	case TALK_TABLE:
		say_table(t, st, b);
		return;
	case TALK_COUNT:
		/* The view hides the others' cards, not how many they hold. */
		ann_cards_held(t, st->nhand, st->players, b);
		return;
	case TALK_SUIT:
		say_suits(t, st, b);
		return;
	case TALK_RULES:
		rules_now(t, st, b);
		return;
	case TALK_SCORES:
		say_scores(t, st, b);
		return;
	case TALK_TURN:
		say_turn(t, st, b);
		return;
	default:
		if (key >= '1' && key <= '9') {
			int i = key - '1';
			if (i < st->ntrick)
				sb_printf(b, _("%1$s: %2$s."), say_Name(t, st->trick_seat[i]),
				          card_s(t, st->trick[i], c, sizeof c));
			else
				sb_printf(b, C_("bourre", "No card %d on the table."), i + 1);
		}
		return;
	}
}

/* ---- refusals, actions, prompt ---- */

static void refusal_fn(const struct talk *t, const void *view, const struct refusal *r, struct sbuf *b)
{
	const struct bourre_state *st = view;
	char c[SAY_CARD_MAX];
	switch (r->code) {
	case BR_REF_NOT_HELD:
		sb_printf(b, C_("bourre", "You do not hold %s."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_FOLLOW:
		sb_printf(b, _("You must follow %s."), say_suit(t->lang, r->suit));
		break;
	case BR_REF_TRUMP:
		sb_printf(b, _("You cannot follow: you must play a trump, %s."), say_suit(t->lang, r->suit));
		break;
	case BR_REF_BEAT:
		sb_printf(b, C_("bourre", "You must beat %s."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_OVERTRUMP:
		sb_printf(b, C_("bourre", "You must overtrump %s."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_CINCH_LEAD:
	case BR_REF_CINCH_FOLLOW:
		say_constraint(t, st, r->code, r, 0, b);
		break;
	case BR_REF_ACE_STAY:
		sb_printf(b, _("%s is turned: the dealer must stay."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_NEED_TRUMP_CLUB:
		sb_printf(b, _("To stay you need a trump, %s, or a club."), say_suit(t->lang, r->suit));
		break;
	case BR_REF_DISCARD_TOO_MANY:
		sb_printf(b, P_("You may discard at most %d card.", "You may discard at most %d cards.",
		                r->amount), r->amount);
		break;
	case BR_REF_DISCARD_TOO_FEW:
		sb_printf(b, P_("You hold one card too many: discard at least %d card.",
		                "You hold too many cards: discard at least %d cards.", r->amount), r->amount);
		break;
	case BR_REF_DISCARD_TWICE:
		sb_printf(b, C_("bourre", "%s is named twice."), card_s(t, r->card, c, sizeof c));
		break;
	case BR_REF_GAME_OVER:
		sb_puts(b, C_("bourre", "The game is over."));
		break;
	default:
		sb_puts(b, C_("bourre", "Not now."));
		sb_puts(b, " ");
		if (st)
			say_turn(t, st, b);
		break;
	}
}

/* 1 when every card of the action is in the listener's own hand. */
static int all_mine(const struct talk *t, const struct bourre_state *st, const struct action *a)
{
	if (!st || t->me < 0 || a->ncards == 0)
		return 0;
	for (int k = 0; k < a->ncards; k++)
		if (card_find(st->hand[t->me], st->nhand[t->me], a->cards[k]) < 0)
			return 0;
	return 1;
}

static void action_fn(const struct talk *t, const void *view, const struct action *a, struct sbuf *b)
{
	const struct bourre_state *st = view;
	switch (a->kind) {
	case ACT_STAY:
		sb_puts(b, C_("bourre", "stay"));
		break;
	case ACT_PASS:
		sb_puts(b, C_("bourre", "pass"));
		break;
	case ACT_TAKE:
		sb_puts(b, C_("bourre", "take the turned card"));
		break;
	case ACT_LEAVE:
		sb_puts(b, C_("bourre", "leave the turned card"));
		break;
	case ACT_DISCARD:
		if (a->ncards == 0) {
			sb_puts(b, C_("bourre", "keep all your cards"));
		} else if (all_mine(t, st, a)) {
			/* the player hears which cards go, to check the marks */
			struct sbuf l;
			sb_clear(&l);
			say_cards(t->lang, &l, a->cards, a->ncards, SAY_THE);
			sb_printf(b, _("discard %s"), l.s);
		} else
			sb_printf(b, P_("discard %d card", "discard %d cards", a->ncards), a->ncards);
		break;
	case ACT_PLAY: {
		char c[SAY_CARD_MAX];
		sb_puts(b, card_s(t, a->cards[0], c, sizeof c));
		break;
	}
	default:
		break;
	}
}

static void prompt_fn(const struct talk *t, const void *view, struct sbuf *b)
{
	const struct bourre_state *st = view;
	char c[SAY_CARD_MAX];
	sb_puts(b, _("Your turn."));
	sb_puts(b, " ");
	int min = 0, max = 0;
	switch (st->phase) {
	case BR_PH_DECLARE:
		if (t->me == st->dealer && st->turnup_place == BR_TU_HAND && !st->four &&
		    card_rank(st->turnup) == RANK_ACE)
			sb_puts(b, _("The ace is turned: you must stay."));
		else if (st->four && !holds_suit(st, t->me, st->trump) && !holds_suit(st, t->me, SUIT_CLUBS))
			sb_printf(b, _("You hold no trump, %s, and no club: you must pass."), say_suit(t->lang, st->trump));
		else if (st->ante_double || st->four) {
			struct sbuf cost;
			sb_clear(&cost);
			say_chips(t->lang, &cost, (st->ante_double ? 1 : 0) + (st->four ? 1 : 0));
			sb_printf(b, _("Stay for %s, or pass?"), cost.s);
		} else {
			sb_puts(b, C_("bourre", "Stay or pass?"));
		}
		break;
	case BR_PH_CONFIRM:
		sb_puts(b, _("Stay for 1 more chip, or pass?"));
		break;
	case BR_PH_TAKE:
		sb_printf(b, _("Take or leave the turned card, %s?"), card_s(t, st->turnup, c, sizeof c));
		break;
	case BR_PH_DISCARD:
		bourre_discard_range(st, t->me, &min, &max);
		if (min > 0)
			sb_printf(b, P_("Mark with Space at least %1$d card to discard, at most %2$d, then press Enter.",
			                "Mark with Space at least %1$d cards to discard, at most %2$d, then press Enter.", min),
			          min, max);
		else
			sb_printf(b, P_("Mark up to %d card to discard with Space, then press Enter.",
			                "Mark up to %d cards to discard with Space, then press Enter.", max), max);
		break;
	case BR_PH_PLAY: {
		struct refusal r;
		int code = bourre_constraint(st, t->me, &r);
		say_constraint(t, st, code, &r, 0, b);
		break;
	}
	default:
		break;
	}
}

/* The hint's orders: the dealer takes or leaves the turned card, and a
 * player who does not stay passes (never "stands": there is no bet to
 * check). */
static int order_fn(const struct talk *t, const struct action *a, const struct bot_reason *why, struct sbuf *b)
{
	(void)why;
	switch (a->kind) {
	case ACT_PASS: sb_puts(b, C_("hint", "pass")); return 1;
	case ACT_TAKE: sb_puts(b, C_("hint", "take the turned card")); return 1;
	case ACT_LEAVE: sb_puts(b, C_("hint", "leave the turned card")); return 1;
	default: return 0;
	}
}

const struct game_talk bourre_talk = {
	.game = "bourre",
	.event = event_fn,
	.query = query_fn,
	.refusal = refusal_fn,
	.action = action_fn,
	.prompt = prompt_fn,
	.order = order_fn,
};
