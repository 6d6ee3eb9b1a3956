/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG t->lang
#include "words/announce.h"

#include "core/game.h"

#include <stdio.h>
#include <string.h>

#include "i18n/i18n.h"
#include "words/say.h"

void ann_hand(const struct talk *t, const card_t *cards, int n, struct sbuf *b)
{
	if (n == 0) {
		/* "Your 0 cards" in English, "Votre carte" in French: say it plainly. */
		int before_deal = t && t->me >= 0 && t->heard.deal_seen && !t->heard.dealt;
		sb_puts(b, before_deal ? _("You have no cards yet.") : _("You hold no cards."));
		return;
	}
	sb_printf(b, P_("Your card: ", "Your %d cards: ", n), n);
	say_hand(t->lang, b, cards, n);
	sb_puts(b, ".");
}

static void winners(const struct talk *t, unsigned mask, struct sbuf *b)
{
	int n = 0, k = 0;
	for (int s = 0; s < 32; s++)
		n += (mask >> s) & 1;
	for (int s = 0; s < 32; s++)
		if ((mask >> s) & 1) {
			say_join(t->lang, b, k++, n);
			sb_puts(b, k == 1 ? say_Name(t, s) : say_name(t, s));
		}
}

static void generic_event(const struct talk *t, const struct game_talk *gt, const void *view,
                          const struct event *e, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	switch (e->type) {
	case EV_GAME_START:
		sb_printf(b, P_("%1$s, %2$d player.", "%1$s, %2$d players.", e->nvalues),
		          _(t->game->title), e->nvalues);
		break;
	case EV_HAND_START:
		if (e->dealer == t->me)
			sb_printf(b, _("Deal %d. You deal."), e->hand);
		else
			sb_printf(b, _("Deal %1$d. %2$s deals."), e->hand, say_name(t, e->dealer));
		break;
	case EV_DEAL:
		if (e->seat == t->me && ev_visible_to(e, t->me)) {
			card_t cards[EV_MAX_CARDS];
			int n = t->game->hand(view, t->me, cards);
			if (n == 0) {
				for (n = 0; n < e->ncards; n++)
					cards[n] = e->cards[n];
			}
			ann_hand(t, cards, n, b);
		}
		break;
	case EV_TURNUP:
		sb_printf(b, _("Turned card: %s."), say_card_str(t->lang, e->cards[0], SAY_THE, card, sizeof card));
		break;
	case EV_ACTION:
		if (e->act.kind == ACT_PLAY) {
			say_card_str(t->lang, e->act.cards[0], SAY_THE, card, sizeof card);
			say_who(b, t, e->seat, _("You play %s."), _("%1$s plays %2$s."), card);
		} else if (e->seat != t->me) {
			struct sbuf a;
			sb_clear(&a);
			ann_action(t, gt, view, &e->act, &a);
			sb_printf(b, _("%1$s: %2$s."), say_name(t, e->seat), a.s);
		}
		break;
	case EV_TRICK:
		if (e->points)
			say_who(b, t, e->winner, P_("You take the trick, %s point.", "You take the trick, %s points.",
			                            e->points),
			        P_("%1$s takes the trick, %2$s point.", "%1$s takes the trick, %2$s points.", e->points),
			        (snprintf(card, sizeof card, "%d", e->points), card));
		else if (e->winner == t->me)
			sb_puts(b, _("You take the trick."));
		else
			sb_printf(b, _("%s takes the trick."), say_name(t, e->winner));
		break;
	case EV_GAME_END:
		sb_puts(b, _("Game over."));
		if (e->winners) {
			sb_puts(b, " ");
			struct sbuf w;
			sb_clear(&w);
			winners(t, e->winners, &w);
			int n = 0;
			for (unsigned m = e->winners; m; m &= m - 1)
				n++;
			int you = t->me >= 0 && ((e->winners >> t->me) & 1);
			if (n == 1 && you)
				sb_puts(b, _("You win."));
			else
				sb_printf(b, P_("Winner: %s.", "Winners: %s.", n), w.s);
		}
		break;
	default:
		break;
	}
}

/* One who paid another amount than everyone, after "1 chip each": the
 * dealer said to be so ("Claire 2 as dealer"), the French agreeing with
 * the dealer's name (« comme donneuse »), or not naming a gender for a
 * person's name (« 2 pour Alice, qui donne »). */
static void due_apart(const struct talk *t, struct sbuf *b, int seat, int amount)
{
	if (!t->heard.deal_seen || seat != t->heard.dealer)
		sb_printf(b, ", %s %d", say_name(t, seat), amount);
	else if (seat == t->me)
		/* TRANSLATORS: after "Antes paid: 1 chip each": what the listener
		 * paid as the dealer (French: « , 2 pour vous, qui donnez »). */
		sb_printf(b, _(", you %d as dealer"), amount);
	else {
		int f = say_feminine(t, seat);
		/* TRANSLATORS: after "Antes paid: 1 chip each": what the dealer
		 * paid, a person whose gender is not known (French: « , %2$d pour
		 * %1$s, qui donne »), a woman, a man. */
		sb_printf(b, f < 0 ? C_("person", ", %1$s %2$d as dealer") : f ? C_("she", ", %1$s %2$d as dealer")
		                                                              : C_("he", ", %1$s %2$d as dealer"),
		          say_name(t, seat), amount);
	}
}

int ann_is_due(const struct event *e)
{
	return e->type == EV_PAYMENT && e->from >= 0 && e->to == -1 && e->amount > 0 &&
	       (e->reason == EV_PAY_ANTE || e->reason == EV_PAY_PASSE);
}

void ann_dues(const struct talk *t, struct sbuf *b)
{
	const struct talk_memory *m = &t->heard;
	if (m->ndues <= 0)
		return;
	if (m->ndues == 1) {
		struct sbuf a;
		sb_clear(&a);
		say_chips(t->lang, &a, m->due_amount[0]);
		if (m->due_passe)
			say_who(b, t, m->due_seat[0], _("You pay the passe: %s."), _("%1$s pays the passe: %2$s."), a.s);
		else
			say_who(b, t, m->due_seat[0], _("You pay the ante: %s."), _("%1$s pays the ante: %2$s."), a.s);
		return;
	}
	/* The amount most paid, said once for everyone ("1 chip each"), then
	 * who paid otherwise ("Claire 2"). */
	int common = m->due_amount[0], best = 0;
	for (int i = 0; i < m->ndues; i++) {
		int n = 0;
		for (int j = 0; j < m->ndues; j++)
			n += m->due_amount[j] == m->due_amount[i];
		if (n > best) {
			best = n;
			common = m->due_amount[i];
		}
	}
	/* TRANSLATORS: what everyone paid, a whole clause (French: "Chacun
	 * met 1 jeton au pot"); who paid otherwise or not at all follows. */
	const char *each = m->due_passe ? _("Passe paid: %s each") : _("Antes paid: %s each");
	if (m->ndues == t->players && best >= m->ndues - 1) {
		struct sbuf a;
		sb_clear(&a);
		say_chips(t->lang, &a, common);
		sb_printf(b, each, a.s);
		for (int i = 0; i < m->ndues; i++)
			if (m->due_amount[i] != common)
				due_apart(t, b, m->due_seat[i], m->due_amount[i]);
	} else if (best == m->ndues && t->players - m->ndues <= 2) {
		/* All but one or two paid the same: those are named ("1 chip
		 * each, except you"), not the payers. */
		struct sbuf a, who;
		sb_clear(&a);
		sb_clear(&who);
		say_chips(t->lang, &a, common);
		int nfree = t->players - m->ndues, k = 0;
		for (int s = 0; s < t->players; s++) {
			int paid = 0;
			for (int i = 0; i < m->ndues; i++)
				paid |= m->due_seat[i] == s;
			if (paid)
				continue;
			say_join(t->lang, &who, k++, nfree);
			sb_puts(&who, say_name(t, s));
		}
		sb_printf(b, each, a.s);
		sb_puts(b, ", ");
		/* TRANSLATORS: who paid no ante: "1 chip each, except you". */
		sb_printf(b, _("except %s"), who.s);
	} else {
		sb_puts(b, m->due_passe ? _("Passe paid:") : _("Antes paid:"));
		sb_puts(b, " ");
		for (int i = 0; i < m->ndues; i++) {
			say_join(t->lang, b, i, m->ndues);
			sb_printf(b, "%s %d", say_name(t, m->due_seat[i]), m->due_amount[i]);
		}
	}
	sb_puts(b, ".");
}

/* Keep what leaves the table for the query keys L and C. */
static void remember(struct talk *t, const struct event *e)
{
	if (ann_is_due(e)) {
		struct talk_memory *m = &t->heard;
		if (m->ndues < EV_MAX_SEATS) {
			m->due_seat[m->ndues] = (signed char)e->from;
			m->due_amount[m->ndues] = e->amount;
			m->ndues++;
		}
		m->due_passe = e->reason == EV_PAY_PASSE;
		return;
	}
	switch (e->type) {
	case EV_HAND_START:
		/* L tells the deal before's last trick until this deal's first. */
		t->heard.trick_before = t->heard.has_trick;
		t->heard.deal_seen = 1;
		t->heard.dealer = e->dealer;
		t->heard.dealt = 0;
		break;
	case EV_DEAL:
		if (e->seat == t->me)
			t->heard.dealt = 1;
		break;
	case EV_TRICK:
		t->heard.trick = *e;
		t->heard.has_trick = 1;
		t->heard.trick_before = 0;
		break;
	case EV_SHOWDOWN:
		t->heard.showdown = *e;
		t->heard.has_showdown = 1;
		break;
	default:
		break;
	}
}

void ann_remember(struct talk *t, const struct event *e)
{
	if (!ann_is_due(e))
		remember(t, e);
}

void ann_generic(const struct talk *t, const void *view, const struct event *e, struct sbuf *b)
{
	generic_event(t, NULL, view, e, b);
}

static void phrase(const struct talk *t, const struct game_talk *gt, const void *view,
                   const struct event *e, struct sbuf *b)
{
	if (gt && gt->event) {
		int rc = gt->event(t, view, e, b);
		if (rc != 0) {
			if (rc < 0)
				sb_clear(b);
			return;
		}
		sb_clear(b);
	}
	generic_event(t, gt, view, e, b);
}

void ann_event(struct talk *t, const struct game_talk *gt, const void *view,
               const struct event *e, struct sbuf *b)
{
	sb_clear(b);
	/* Antes paid before this event are said first, as a message of their
	 * own before it (ANN_BREAK). */
	struct sbuf dues;
	sb_clear(&dues);
	if (!ann_is_due(e)) {
		ann_dues(t, &dues);
		t->heard.ndues = 0;
	}
	remember(t, e);
	phrase(t, gt, view, e, b);
	if (ann_is_due(e) && b->len)
		t->heard.ndues = 0;   /* the game said them */
	if (dues.len) {
		if (b->len) { /* two sentences, two messages (ANN_BREAK) */
			sb_puts(&dues, ANN_BREAK);
			sb_puts(&dues, b->s);
		}
		sb_clear(b);
		sb_puts(b, dues.s);
	}
}

/* L: "Claire took the last trick, 13 points: Anne, the ace of hearts; you,
 * the king of hearts; ..." */
static void last_trick(const struct talk *t, struct sbuf *b)
{
	const struct event *e = &t->heard.trick;
	char card[SAY_CARD_MAX];
	if (!t->heard.has_trick) {
		sb_puts(b, _("No trick taken yet in this deal."));
		return;
	}
	if (t->heard.trick_before && e->winner == t->me)
		sb_puts(b, _("In the deal before, you took the last trick"));
	else if (t->heard.trick_before)
		sb_printf(b, _("In the deal before, %s took the last trick"), say_name(t, e->winner));
	else if (e->winner == t->me)
		sb_puts(b, _("You took the last trick"));
	else
		sb_printf(b, _("%s took the last trick"), say_Name(t, e->winner));
	if (e->points > 0) {
		sb_puts(b, ", ");
		say_points(t->lang, b, e->points);
	}
	/* TRANSLATORS: before the cards of the last trick (French " : "). */
	sb_puts(b, _(": "));
	for (int i = 0; i < e->ncards; i++) {
		if (i)
			sb_puts(b, _("; "));
		/* TRANSLATORS: who played a card of the last trick: "Anne, the ace of hearts". */
		sb_printf(b, _("%1$s, %2$s"), say_name(t, e->card_seat[i]),
		          say_card_str(t->lang, e->cards[i], SAY_THE, card, sizeof card));
	}
	sb_puts(b, ".");
}

void ann_cards_held(const struct talk *t, const int *count, int players, struct sbuf *b)
{
	int same = 1;
	if (players <= 0)
		return;
	for (int s = 1; s < players; s++)
		same &= count[s] == count[0];
	if (same && count[0] == 0) {
		sb_puts(b, _("Nobody holds any cards."));
		return;
	}
	if (same) {
		sb_printf(b, P_("Everyone holds %d card.", "Everyone holds %d cards.", count[0]), count[0]);
		return;
	}
	sb_puts(b, _("Cards held:"));
	for (int s = 0; s < players; s++) {
		sb_puts(b, s ? ", " : " ");
		sb_printf(b, "%s %d", say_name(t, s), count[s]);
	}
	sb_puts(b, ".");
}

/* N for a game that keeps every hand's size in its view. */
static void cards_held(const struct talk *t, const void *view, struct sbuf *b)
{
	if (!view || !t->game || !t->game->hand)
		return;
	int players = game_players(view), count[EV_MAX_SEATS];
	if (players > EV_MAX_SEATS)
		players = EV_MAX_SEATS;
	for (int s = 0; s < players; s++) {
		card_t cards[CARD_MAX_PACK];
		count[s] = t->game->hand(view, s, cards);
	}
	ann_cards_held(t, count, players, b);
}

void ann_query(const struct talk *t, const struct game_talk *gt, const void *view, int key,
               struct sbuf *b)
{
	sb_clear(b);
	if (gt && gt->query)
		gt->query(t, view, key, b);
	if (!b->len && key == TALK_LAST)
		last_trick(t, b);
	if (!b->len && key == TALK_COUNT)
		cards_held(t, view, b);
	if (!b->len)
		sb_puts(b, _("Nothing to say."));
}

void ann_action(const struct talk *t, const struct game_talk *gt, const void *view,
                const struct action *a, struct sbuf *b)
{
	sb_clear(b);
	if (gt && gt->action) {
		gt->action(t, view, a, b);
		if (b->len)
			return;
	}
	char card[SAY_CARD_MAX];
	switch (a->kind) {
	case ACT_PLAY:
		sb_puts(b, say_card_str(t->lang, a->cards[0], SAY_THE, card, sizeof card));
		break;
	default: {
		char buf[ACT_STR_MAX];
		sb_puts(b, act_format(a, buf, sizeof buf));
	}
	}
}

void ann_refusal(const struct talk *t, const struct game_talk *gt, const void *view,
                 const struct refusal *r, struct sbuf *b)
{
	sb_clear(b);
	if (gt && gt->refusal)
		gt->refusal(t, view, r, b);
	if (!b->len)
		sb_puts(b, _("Not allowed now."));
}
