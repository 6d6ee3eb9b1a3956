/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG t->lang
/* Talk of Bouillotte and Le Brelan (one file, two game_talk): bets and
 * stakes, pots in levels, the showdown with the winning combination or
 * suit and its owner, the query keys, the action menu and the refusals. */
#include <stdio.h>
#include <string.h>

#include "bots/bot.h"
#include "games/vying.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"

static const char *chips(const struct talk *t, int n, char *buf, size_t len)
{
	snprintf(buf, len, P_("%d chip", "%d chips", n), n);
	return buf;
}

static int brelan_game(const struct vying *v) { return v->cfg.brelan_rules; }

/* The name of the next straddle offered (Le Brelan names each level). */
static const char *straddle_word(const struct talk *t, const struct vying *v, int kind)
{
	if (!brelan_game(v))
		return kind == ACT_BUYBACK ? C_("bet", "buy back") : v->nchain ? C_("bet", "straddle again")
		                                                              : C_("bet", "straddle");
	if (kind == ACT_BUYBACK)
		return v->nchain >= 3 ? C_("bet", "surcontrecarre") : C_("bet", "surcarre");
	switch (v->nchain) {
	case 0: return C_("bet", "carre");
	case 1: return C_("bet", "contrecarre");
	case 2: return C_("bet", "tricarre");
	default: return C_("bet", "quadricarre");
	}
}

/* The same as a verb, for "Your turn: straddle again (...) or not." */
static const char *straddle_verb(const struct talk *t, const struct vying *v, int kind)
{
	if (!brelan_game(v))
		return kind == ACT_BUYBACK ? C_("straddle-verb", "buy back")
		       : v->nchain        ? C_("straddle-verb", "straddle again")
		                          : C_("straddle-verb", "straddle");
	if (kind == ACT_BUYBACK)
		return v->nchain >= 3 ? C_("straddle-verb", "surcontrecarre") : C_("straddle-verb", "surcarre");
	switch (v->nchain) {
	case 0: return C_("straddle-verb", "carre");
	case 1: return C_("straddle-verb", "contrecarre");
	case 2: return C_("straddle-verb", "tricarre");
	default: return C_("straddle-verb", "quadricarre");
	}
}

/* The name of a level of the carre (enum vy_straddle_name). */
static const char *carre_name(const struct talk *t, int name)
{
	switch (name) {
	case VY_CONTRECARRE: return C_("bet", "contrecarre");
	case VY_TRICARRE: return C_("bet", "tricarre");
	case VY_QUADRICARRE: return C_("bet", "quadricarre");
	case VY_SURCARRE: return C_("bet", "surcarre");
	case VY_SURCONTRECARRE: return C_("bet", "surcontrecarre");
	default: return C_("bet", "carre");
	}
}

/* "a brelan of kings", "a brelan carré of nines", "mistigri with a pair of
 * nines", "spades, 40 points". */
static void combo_words(const struct talk *t, struct sbuf *b, int kind, int rank, int suit, int points)
{
	char buf[SAY_NUMBER_MAX];
	switch (kind) {
	case VY_CARRE:
		if (rank == RANK_ACE)
			sb_puts(b, C_("bet", "a brelan carré of aces"));
		else
			sb_printf(b, C_("bet", "a brelan carré of %s"), say_rank(t->lang, rank, SAY_RANK_PLURAL));
		break;
	case VY_BRELAN:
		if (rank == RANK_ACE)
			sb_puts(b, C_("bet", "a brelan of aces"));
		else
			sb_printf(b, C_("bet", "a brelan of %s"), say_rank(t->lang, rank, SAY_RANK_PLURAL));
		break;
	case VY_MISTIGRI:
		if (rank == RANK_ACE)
			sb_puts(b, C_("bet", "the mistigri with a pair of aces"));
		else
			sb_printf(b, C_("bet", "the mistigri with a pair of %s"), say_rank(t->lang, rank, SAY_RANK_PLURAL));
		break;
	default:
		snprintf(buf, sizeof buf, P_("%d point", "%d points", points), points);
		/* TRANSLATORS: the winning point: a suit and its points ("hearts, 39 points";
		 * French "39 points à cœur"). */
		sb_printf(b, C_("point", "%1$s, %2$s"), suit >= 0 ? say_suit(t->lang, suit) : "?", buf);
	}
}

/* ---- actions ---- */

/* What the stake of the player to act becomes: ", stake 8", or for a range
 * ", stake 6 to 100". */
static void stake_after(const struct talk *t, const struct vying *v, int lo, int hi, struct sbuf *b)
{
	int s = v->to_act;
	if (s < 0 || s >= v->players)
		return;
	if (hi > lo)
		sb_printf(b, C_("bet", ", stake %1$d to %2$d"), v->stake[s] + lo, v->stake[s] + hi);
	else
		sb_printf(b, C_("bet", ", stake %d"), v->stake[s] + lo);
}

static void vy_action(const struct talk *t, const void *view, const struct action *a, struct sbuf *b)
{
	(void)t;
	const struct vying *v = view;
	char c1[SAY_NUMBER_MAX], c2[SAY_NUMBER_MAX];
	int range = a->amount_max > a->amount;
	switch (a->kind) {
	case ACT_STRADDLE:
	case ACT_BUYBACK:
		sb_printf(b, C_("bet", "%1$s, %2$s"), straddle_word(t, v, a->kind), chips(t, a->amount, c1, sizeof c1));
		stake_after(t, v, a->amount, a->amount, b);
		break;
	case ACT_TAKE:
		sb_printf(b, C_("bet", "add a waiting cave, %s"), chips(t, v->cfg.cave, c1, sizeof c1));
		break;
	case ACT_DECLINE:
		if (v->phase == VY_CAVE) {
			sb_puts(b, C_("bet", "no cave"));
			break;
		}
		sb_puts(b, v->offer == 2 ? C_("bet", "no buy-back")
		           : brelan_game(v) ? C_("bet", "no carre")
		           : v->nchain ? C_("bet", "no further straddle") : C_("bet", "no straddle"));
		break;
	case ACT_PASS:
		sb_puts(b, v->extra ? C_("bet", "stand") : C_("bet", "pass"));
		break;
	case ACT_OPEN:
		if (range)
			sb_printf(b, C_("bet", "open, %1$d to %2$s"), a->amount, chips(t, a->amount_max, c1, sizeof c1));
		else
			sb_printf(b, C_("bet", "open, %s"), chips(t, a->amount, c1, sizeof c1));
		stake_after(t, v, a->amount, range ? a->amount_max : a->amount, b);
		break;
	case ACT_RAISE:
		/* Le Brelan's word is renvier. */
		if (range)
			sb_printf(b, brelan_game(v) ? C_("brelan", "raise, %1$d to %2$s") : C_("bet", "raise, %1$d to %2$s"),
			          a->amount, chips(t, a->amount_max, c1, sizeof c1));
		else
			sb_printf(b, brelan_game(v) ? C_("brelan", "raise, %s") : C_("bet", "raise, %s"),
			          chips(t, a->amount, c1, sizeof c1));
		stake_after(t, v, a->amount, range ? a->amount_max : a->amount, b);
		break;
	case ACT_CALL: {
		int amt = v->to_act >= 0 ? vying_to_call(v, v->to_act) : a->amount;
		if (amt == 0)
			sb_puts(b, C_("bet", "call, for nothing"));
		else
			sb_printf(b, C_("bet", "call, %s"), chips(t, amt, c1, sizeof c1));
		stake_after(t, v, amt, amt, b);
		break;
	}
	case ACT_FOLD:
		sb_puts(b, C_("bet", "fold"));
		break;
	case ACT_ALLIN: {
		int amt = v->to_act >= 0 ? v->chips[v->to_act] : a->amount;
		if (amt == 0)
			sb_puts(b, C_("bet", "tapis, with no chips"));
		else if (v->to_act >= 0 && vying_call_short(v, v->to_act))
			sb_printf(b, C_("bet", "call all in, %s"), chips(t, amt, c2, sizeof c2));
		else
			sb_printf(b, C_("bet", "all in, %s"), chips(t, amt, c2, sizeof c2));
		stake_after(t, v, amt, amt, b);
		break;
	}
	default:
		break;
	}
}

/* ---- events ---- */

/* Three cards, highest first. */
static void say_three(const struct talk *t, struct sbuf *b, const card_t *cards)
{
	card_t h[3] = { cards[0], cards[1], cards[2] };
	for (int i = 1; i < 3; i++)
		for (int j = i; j > 0 && (card_rank(h[j - 1]) < card_rank(h[j]) ||
		                          (card_rank(h[j - 1]) == card_rank(h[j]) && h[j - 1] > h[j]));
		     j--) {
			card_t x = h[j];
			h[j] = h[j - 1];
			h[j - 1] = x;
		}
	say_cards(t->lang, b, h, 3, SAY_BARE);
}

/* A sentence with only its subject: you_text, or other_fmt with the name. */
static void plain(struct sbuf *b, const struct talk *t, int seat, const char *you_text, const char *other_fmt)
{
	if (t && seat == t->me)
		sb_puts(b, you_text);
	else
		sb_printf(b, other_fmt, say_Name(t, seat));
}

/* A va-tout in one sentence with the stake it makes ("Anne goes all in:
 * 69 chips, stake 93."): that nothing is left, the verb says. */
static void all_in(struct sbuf *b, const struct talk *t, int seat, const char *you_fmt, const char *other_fmt,
                   const char *c, int stake)
{
	if (t && seat == t->me)
		sb_printf(b, you_fmt, c, stake);
	else
		sb_printf(b, other_fmt, say_Name(t, seat), c, stake);
}

static void action_heard(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	int s = e->seat, amt = e->amount, staked = 0;
	chips(t, amt < 0 ? 0 : amt, c, sizeof c);
	switch (e->act.kind) {
	case ACT_STRADDLE:
	case ACT_BUYBACK:
		if (brelan_game(v)) {
			/* Each level of the carre has its verb, as the players say it. */
			switch (e->points) {
			case VY_CONTRECARRE:
				say_who(b, t, s, C_("bet", "You contrecarre: %s."), C_("bet", "%1$s contrecarres: %2$s."), c);
				break;
			case VY_TRICARRE:
				say_who(b, t, s, C_("bet", "You tricarre: %s."), C_("bet", "%1$s tricarres: %2$s."), c);
				break;
			case VY_QUADRICARRE:
				say_who(b, t, s, C_("bet", "You quadricarre: %s."), C_("bet", "%1$s quadricarres: %2$s."), c);
				break;
			case VY_SURCARRE:
				say_who(b, t, s, C_("bet", "You surcarre: %s."), C_("bet", "%1$s surcarres: %2$s."), c);
				break;
			case VY_SURCONTRECARRE:
				say_who(b, t, s, C_("bet", "You surcontrecarre: %s."),
				        C_("bet", "%1$s surcontrecarres: %2$s."), c);
				break;
			default:
				say_who(b, t, s, C_("bet", "You carre: %s."), C_("bet", "%1$s carres: %2$s."), c);
			}
		} else if (e->act.kind == ACT_BUYBACK)
			say_who(b, t, s, C_("bet", "You buy back the last word: %s."),
			        C_("bet", "%1$s buys back the last word: %2$s."), c);
		else if (e->points >= VY_CONTRECARRE)
			say_who(b, t, s, C_("bet", "You straddle again: %s."), C_("bet", "%1$s straddles again: %2$s."), c);
		else
			say_who(b, t, s, C_("bet", "You straddle: %s."), C_("bet", "%1$s straddles: %2$s."), c);
		break;
	case ACT_DECLINE:
		/* e->points: what was declined (enum vy_straddle_name; 0 a cave). */
		if (e->points == 0) {
			/* Others' caves left waiting are no news at every deal. */
			if (s != t->me)
				return;
			plain(b, t, s, C_("bet", "You add no cave."), C_("bet", "%s adds no cave."));
		}
		else if (brelan_game(v))
			say_who(b, t, s, C_("bet", "You decline the %s."), C_("bet", "%1$s declines the %2$s."),
			        carre_name(t, e->points));
		else if (e->points >= VY_SURCARRE)
			plain(b, t, s, C_("bet", "You do not buy back."), C_("bet", "%s does not buy back."));
		else
			plain(b, t, s, C_("bet", "You do not straddle."), C_("bet", "%s does not straddle."));
		break;
	case ACT_PASS:
		if (e->points)
			plain(b, t, s, C_("bet", "You stand."), C_("bet", "%s stands."));
		else
			plain(b, t, s, C_("bet", "You pass."), C_("bet", "%s passes."));
		break;
	case ACT_OPEN:
		say_who(b, t, s, C_("bet", "You open: %s."), C_("bet", "%1$s opens: %2$s."), c);
		break;
	case ACT_CALL:
		/* A call with the last chips, short of the bet: the va-tout. */
		if (amt > 0 && e->code == 0) {
			all_in(b, t, s, C_("bet", "You go all in: %1$s, your stake %2$d."),
			       C_("bet", "%1$s goes all in: %2$s, stake %3$d."), c, e->value);
			staked = 1;
			break;
		}
		if (amt <= 0)
			plain(b, t, s, C_("bet", "You call."), C_("bet", "%s calls."));
		else
			say_who(b, t, s, C_("bet", "You call: %s."), C_("bet", "%1$s calls: %2$s."), c);
		break;
	case ACT_RAISE:
		/* A raise with the last chips is a va-tout: said so. */
		if (amt > 0 && e->code == 0) {
			all_in(b, t, s, C_("bet", "You raise with all you have: %1$s, your stake %2$d."),
			       C_("bet", "%1$s raises with all they have: %2$s, stake %3$d."), c, e->value);
			staked = 1;
		} else if (brelan_game(v))
			say_who(b, t, s, C_("brelan", "You raise: %s."), C_("brelan", "%1$s raises: %2$s."), c);
		else
			say_who(b, t, s, C_("bet", "You raise: %s."), C_("bet", "%1$s raises: %2$s."), c);
		break;
	case ACT_FOLD:
		plain(b, t, s, C_("bet", "You fold."), C_("bet", "%s folds."));
		break;
	case ACT_ALLIN:
		if (amt <= 0)
			plain(b, t, s, C_("bet", "You play tapis."), C_("bet", "%s plays tapis."));
		else if (e->code == 0) {
			all_in(b, t, s, C_("bet", "You go all in: %1$s, your stake %2$d."),
			       C_("bet", "%1$s goes all in: %2$s, stake %3$d."), c, e->value);
			staked = 1;
		} else
			say_who(b, t, s, C_("bet", "You go all in: %s."), C_("bet", "%1$s goes all in: %2$s."), c);
		break;
	default:
		return;
	}
	/* The running totals (a va-tout said its stake). */
	if (amt > 0 && !staked) {
		sb_puts(b, " ");
		if (e->code == 0 && s == t->me)
			sb_printf(b, C_("bet", "Your stake: %d, nothing left."), e->value);
		else if (e->code == 0)
			sb_printf(b, C_("bet", "Stake %d, nothing left."), e->value);
		else
			sb_printf(b, C_("bet", "Stake %1$d, %2$d left."), e->value, e->code);
	}
	/* A straddle or carre buys the last word after the deal. */
	if (e->act.kind == ACT_STRADDLE || e->act.kind == ACT_BUYBACK) {
		sb_puts(b, " ");
		plain(b, t, s, C_("bet", "You will speak last."), C_("bet", "%s will speak last."));
	}
}

/* One shown hand: "Denis, folded: ...", with its brelan or mistigri named
 * (the point is said with the winner). turn: the turned card. */
static void hand_shown(const struct talk *t, const struct vying *v, int s, const card_t *cards, card_t turn,
                       int folded, struct sbuf *b)
{
	struct sbuf h;
	sb_clear(&h);
	say_three(t, &h, cards);
	int rank = 0;
	card_t hand[4] = { cards[0], cards[1], cards[2], 0 };
	int kind = vying_combo(&v->cfg, hand, turn, &rank);
	if (kind != VY_POINT) {
		sb_puts(&h, ", ");
		combo_words(t, &h, kind, rank, -1, 0);
	}
	if (folded)
		sb_printf(b, C_("bet", "%1$s, folded: %2$s."), say_Name(t, s), h.s);
	else
		sb_printf(b, _("%1$s: %2$s."), say_Name(t, s), h.s);
}

/* The hands of a showdown, as shown: "Denis: ...; Anne, folded: ...". */
static void showdown_hands(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	card_t turn = e->ncards2 > 0 ? e->cards2[0] : 0;
	for (int i = 0; i + 2 < e->ncards; i += 3) {
		int s = e->card_seat[i];
		if (i)
			sb_puts(b, " ");
		hand_shown(t, v, s, &e->cards[i], turn, s >= 0 && ((unsigned)e->amount >> s) & 1, b);
	}
}

/* The deal of a showdown rebuilt from its event alone (the view may be at
 * the next deal already): hands, turned card, the dealer (last in order of
 * primaute), who was dealt in and who folded. */
static void showdown_deal(const struct vying *v, const struct event *e, struct vying *d)
{
	*d = *v;
	memset(d->hands, 0, sizeof d->hands);
	memset(d->in_deal, 0, sizeof d->in_deal);
	memset(d->folded, 0, sizeof d->folded);
	d->turn = e->ncards2 > 0 ? e->cards2[0] : 0;
	for (int i = 0; i + 2 < e->ncards; i += 3) {
		int s = e->card_seat[i];
		if (s < 0 || s >= d->players)
			continue;
		for (int c = 0; c < 3; c++)
			d->hands[s][c] = e->cards[i + c];
		d->in_deal[s] = 1;
		d->folded[s] = ((unsigned)e->amount >> s) & 1;
		d->dealer = s;
	}
}

/* The highest card of a suit in a seat's hand of the deal, or 0. */
static card_t top_card(const struct vying *deal, int seat, int suit)
{
	card_t best = 0;
	for (int c = 0; c < 3; c++) {
		card_t x = deal->hands[seat][c];
		if (x && card_suit(x) == suit && (!best || card_rank(x) > card_rank(best)))
			best = x;
	}
	return best;
}

/* Bouillotte's later pots go to the highest card of the suit that won the
 * first on the point (brelans aside, among all who stayed): that suit, or
 * -1 in a game where every pot is played like the first. As the game
 * decides it (vying.c). */
static int suit_of_later_pots(const struct vying *deal)
{
	if (!deal->cfg.fixed_suit)
		return -1;
	struct vying d = *deal;
	return vying_point_suit(&d, (unsigned)vying_survivors(&d));
}

/* A later pot of Bouillotte won by the highest card of the first pot's
 * suit: "The suit of the first pot decides: the king of diamonds. Next
 * best: Bruno, the jack of diamonds." */
static void why_by_suit(const struct talk *t, const struct vying *deal, const struct event *d, int suit,
                        unsigned others, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	sb_puts(b, " ");
	sb_printf(b, C_("bet", "The suit of the first pot decides: %s."),
	          say_card_str(t->lang, top_card(deal, d->seat, suit), SAY_THE, card, sizeof card));
	int second = -1;
	card_t top = 0;
	for (int s = 0; s < deal->players; s++) {
		card_t c = (others >> s) & 1 ? top_card(deal, s, suit) : 0;
		if (c && (!top || card_rank(c) > card_rank(top))) {
			top = c;
			second = s;
		}
	}
	sb_puts(b, " ");
	if (second >= 0) {
		sb_printf(b, C_("bet", "Next best: %1$s, %2$s."), say_name(t, second),
		          say_card_str(t->lang, top, SAY_THE, card, sizeof card));
	} else if (__builtin_popcount(others) == 1) {
		int only = __builtin_ctz(others);
		/* TRANSLATORS: the other contender holds no card of that suit. */
		plain(b, t, only, C_("bet", "You have none."), C_("bet", "%s has none."));
	} else {
		/* TRANSLATORS: none of the other contenders holds that suit. */
		sb_puts(b, C_("bet", "The others have none."));
	}
}

/* Why a pot went where it did, after "Claire wins the pot, 25 chips,
 * with diamonds, 38 points." (or "the next pot"): the best hand of another
 * contender of that pot, and when it ties, primaute named; a later pot of
 * Bouillotte, by the first pot's suit. Nothing when nobody else
 * contended. */
static void why_won(const struct talk *t, const struct vying *v, const struct event *d, struct sbuf *b)
{
	if (!t->heard.has_showdown)
		return;
	struct vying deal;
	showdown_deal(v, &t->heard.showdown, &deal);
	unsigned others = d->winners & ~(1u << d->seat);
	if (!others)
		return;
	int fixed = d->pot > 1 ? suit_of_later_pots(&deal) : -1;
	if (fixed >= 0 && d->code == VY_POINT && top_card(&deal, d->seat, fixed)) {
		why_by_suit(t, &deal, d, fixed, others, b);
		return;
	}
	/* The other contenders' best: the top combination, else the suit
	 * with most points among those whose top card is not the winner's. */
	int kind, suit, points;
	int second = vying_best(&deal, others, -1, &kind, &suit, &points);
	if (kind == VY_POINT && d->code == VY_POINT) {
		unsigned dealt = 0;
		for (int s = 0; s < deal.players; s++)
			if (deal.in_deal[s])
				dealt |= 1u << s;
		int order[VY_MAX], n = vying_primaute(&deal, order), first[VY_MAX] = { 0 };
		for (int i = 0; i < n; i++)
			first[order[i]] = n - i;
		second = -1;
		points = -1;
		for (int su = 0; su < SUIT_COUNT; su++) {
			/* The owner of a suit among all the contenders. */
			int owner = -1, top = 0;
			for (int i = 0; i < n; i++) {
				int s = order[i];
				if (!((d->winners >> s) & 1))
					continue;
				for (int c = 0; c < 3; c++)
					if (deal.hands[s][c] && card_suit(deal.hands[s][c]) == su &&
					    card_rank(deal.hands[s][c]) > top) {
						top = card_rank(deal.hands[s][c]);
						owner = s;
					}
			}
			if (owner < 0 || owner == d->seat)
				continue;
			int p = vying_suit_points(deal.hands, dealt, deal.turn, su);
			/* Equal points: primauté decides, as for the pot itself. */
			if (p > points || (p == points && first[owner] > first[second])) {
				points = p;
				suit = su;
				second = owner;
			}
		}
		if (second < 0)
			return;
	}
	struct sbuf w;
	sb_clear(&w);
	int rank = 0;
	if (kind != VY_POINT)
		vying_combo(&deal.cfg, deal.hands[second], deal.turn, &rank);
	combo_words(t, &w, kind, rank, suit, points);
	sb_puts(b, " ");
	if (kind == VY_POINT && d->code == VY_POINT && points == d->points) {
		/* TRANSLATORS: a tie on the point: "Tie with Bruno, clubs, 38
		 * points." then who has primaute. */
		sb_printf(b, C_("bet", "Tie with %1$s, %2$s."), say_name(t, second), w.s);
		sb_puts(b, " ");
		plain(b, t, d->seat, C_("bet", "You win on primauté."), C_("bet", "%s wins on primauté."));
	} else {
		/* TRANSLATORS: the best hand beaten: "Next best: Bruno, clubs, 30 points." */
		sb_printf(b, C_("bet", "Next best: %1$s, %2$s."), say_name(t, second), w.s);
	}
}

static void showdown_heard(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	/* The winner and why come next; the hands are on a key, or said
	 * where no key is pressed (a replay told). */
	if (!t->told) {
		sb_puts(b, C_("bet", "Showdown. L: the hands."));
		return;
	}
	sb_puts(b, C_("bet", "Showdown:"));
	sb_puts(b, " ");
	showdown_hands(t, v, e, b);
}

static void chips_line(const struct talk *t, const struct vying *v, struct sbuf *b);

/* The winner of the pot and the hand it wins with. */
static int heard_declare(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	char name[SAY_NAME_MAX];
	struct sbuf w;
	sb_clear(&w);
	int rank = 0;
	for (int i = 0; i < e->ncards; i++)
		if (e->code != VY_MISTIGRI || e->cards[i] != card_make(RANK_QUEEN, SUIT_CLUBS))
			rank = card_rank(e->cards[i]);
	combo_words(t, &w, e->code, rank, e->value, e->points);
	chips(t, e->amount, c, sizeof c);
	snprintf(name, sizeof name, "%s", say_Name(t, e->seat));
	if (e->seat == t->me)
		sb_printf(b, e->pot <= 1 ? C_("bet", "You win the pot, %1$s, with %2$s.")
		                         : C_("bet", "You win the next pot, %1$s, with %2$s."),
		          c, w.s);
	else
		sb_printf(b, e->pot <= 1 ? C_("bet", "%1$s wins the pot, %2$s, with %3$s.")
		                         : C_("bet", "%1$s wins the next pot, %2$s, with %3$s."),
		          name, c, w.s);
	why_won(t, v, e, b);
	return 1;
}

/* The antes or the passe, said once the last payer has paid: the straddle
 * question may follow at once. */
static int heard_dues(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	int last = -1;
	for (int k = 1; k <= v->players; k++)
		if (v->paid_passe[(v->dealer + k) % v->players])
			last = (v->dealer + k) % v->players;
	if (e->from != last)
		return -1;
	ann_dues(t, b);
	return b->len ? 1 : -1;
}

/* A brelan (or a brelan carré) served is paid by the others. */
static int heard_brelan(const struct talk *t, const struct event *e, const char *c, struct sbuf *b)
{
	char name[SAY_NAME_MAX];
	snprintf(name, sizeof name, "%s", say_name(t, e->to));
	if (e->reason == EV_PAY_CARRE) {
		if (e->from == t->me)
			sb_printf(b, C_("bet", "You pay %1$s %2$s for the brelan carré."), name, c);
		else if (e->to == t->me)
			sb_printf(b, C_("bet", "%1$s pays you %2$s for your brelan carré."), say_Name(t, e->from), c);
		else
			sb_printf(b, C_("bet", "%1$s pays %2$s %3$s for the brelan carré."), say_Name(t, e->from), name, c);
	} else if (e->from == t->me)
		sb_printf(b, C_("bet", "You pay %1$s %2$s for the brelan."), name, c);
	else if (e->to == t->me)
		sb_printf(b, C_("bet", "%1$s pays you %2$s for your brelan."), say_Name(t, e->from), c);
	else
		sb_printf(b, C_("bet", "%1$s pays %2$s %3$s for the brelan."), say_Name(t, e->from), name, c);
	return 1;
}

/* Payments said here: a pot nobody contested, chips given back, a brelan
 * paid; antes, bets (said with the action) and contended pots (said with
 * the winner) are not. */
static int heard_payment(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	if (ann_is_due(e))
		return heard_dues(t, v, e, b);
	char c[SAY_NUMBER_MAX];
	chips(t, e->amount, c, sizeof c);
	switch (e->reason) {
	case EV_PAY_UNCONTESTED:
		say_who(b, t, e->to, C_("bet", "You take the pot: %s."), C_("bet", "%1$s takes the pot: %2$s."), c);
		return 1;
	case EV_PAY_SIDE_POT:
		/* A later pot nobody else contended, made of folded players'
		 * chips: won, not given back (a contended one is said with its
		 * winner). */
		if (__builtin_popcount(e->winners) != 1)
			return -1;
		say_who(b, t, e->to, C_("bet", "You take the next pot: %s."), C_("bet", "%1$s takes the next pot: %2$s."), c);
		return 1;
	case EV_PAY_RETURN:
		/* What nobody matched: before the pot when it is uncontested,
		 * after the pots at a showdown. */
		if (e->to == t->me)
			sb_printf(b, P_("%d uncalled chip comes back to you.", "%d uncalled chips come back to you.",
			                e->amount), e->amount);
		else
			sb_printf(b, P_("%2$d uncalled chip goes back to %1$s.", "%2$d uncalled chips go back to %1$s.",
			                e->amount), say_name(t, e->to), e->amount);
		return 1;
	case EV_PAY_BRELAN:
	case EV_PAY_CARRE:
		return heard_brelan(t, e, c, b);
	default:
		return -1;
	}
}

/* Everybody passed: what the next deal adds to the pot differs between the games. */
static int heard_all_passed(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	if (v->cfg.carry_dealer)
		sb_printf(b, C_("bet", "Everybody passed. The pot stays, %s; the next dealer adds 1 chip."),
		          chips(t, e->value, c, sizeof c));
	else if (v->cfg.ante_none)
		sb_printf(b, C_("bet", "Everybody passed. The pot stays: %s."), chips(t, e->value, c, sizeof c));
	else
		sb_printf(b, C_("bet", "Everybody passed. The passe stays, %s, and is paid again."),
		          chips(t, e->value, c, sizeof c));
	return 1;
}

/* A forced straddle, done by the rules, not asked. */
static int heard_forced_straddle(const struct talk *t, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	say_who(b, t, e->seat, C_("bet", "Forced carre: you put in %s."),
	        C_("bet", "Forced carre: %1$s puts in %2$s."), chips(t, e->value, c, sizeof c));
	sb_puts(b, " ");
	plain(b, t, e->seat, C_("bet", "You will speak last."), C_("bet", "%s will speak last."));
	return 1;
}

/* A new cave taken; in Brelan cavé, how many are still waiting. */
static int heard_new_cave(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	say_who(b, t, e->seat, C_("bet", "You take a new cave: %s."), C_("bet", "%1$s takes a new cave: %2$s."),
	        chips(t, e->value, c, sizeof c));
	/* Brelan cavé: how many caves are still waiting. */
	if (v->cfg.caves > 1 && v->cfg.cave > 0 && e->seat >= 0 && e->seat < v->players) {
		int left = v->reserve[e->seat] / v->cfg.cave;
		sb_puts(b, " ");
		if (left == 0)
			sb_puts(b, e->seat == t->me ? C_("bet", "It is your last cave.") : C_("bet", "It is the last cave."));
		else
			sb_printf(b, P_("%d more cave waiting.", "%d more caves waiting.", left), left);
	}
	return 1;
}

/* The moments of the betting games. */
static int heard_phase(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	switch (e->note) {
	case EV_NOTE_EXTRA_ROUND:
		sb_puts(b, C_("bet", "All called. Each in turn may raise again or stand."));
		return 1;
	case EV_NOTE_ALL_PASSED:
		return heard_all_passed(t, v, e, b);
	case EV_NOTE_FORCED_STRADDLE:
		return heard_forced_straddle(t, e, b);
	case EV_NOTE_ADD_CAVE:
		say_who(b, t, e->seat, C_("bet", "You add a waiting cave: %s."),
		        C_("bet", "%1$s adds a waiting cave: %2$s."), chips(t, e->value, c, sizeof c));
		return 1;
	case EV_NOTE_REBUY:
	case EV_NOTE_RECAVE:
		return heard_new_cave(t, v, e, b);
	case EV_NOTE_OUT:
		plain(b, t, e->seat, C_("bet", "You are out of the game: watch the rest, or leave the table."),
		      C_("bet", "%s has no chips left and leaves the game."));
		return 1;
	default:
		return -1;
	}
}

/* The turned card and the pot. */
static int heard_turnup(const struct talk *t, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	char card[SAY_CARD_MAX];
	sb_printf(b, _("Turned card: %s."), say_card_str(t->lang, e->cards[0], SAY_THE, card, sizeof card));
	sb_puts(b, " ");
	sb_printf(b, C_("bet", "Pot: %s."), chips(t, e->value, c, sizeof c));
	return 1;
}

/* The winner as every game says it, then everyone's chips. */
static int heard_game_end(const struct talk *t, const struct vying *v, const struct event *e, struct sbuf *b)
{
	ann_generic(t, v, e, b);
	sb_puts(b, " ");
	chips_line(t, v, b);
	return 1;
}

/* The end of a deal: the listener's chips, and what stays in the pot. */
static int heard_hand_end(const struct talk *t, const struct event *e, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	if (t->me >= 0 && t->me < e->nvalues) {
		if (e->values[t->me] == 0)
			sb_puts(b, C_("bet", "You have no chips left."));
		else
			sb_printf(b, C_("bet", "You have %s."), chips(t, e->values[t->me], c, sizeof c));
		if (e->pot > 0) {
			sb_puts(b, " ");
			sb_printf(b, C_("bet", "In the pot for the next deal: %s."), chips(t, e->pot, c, sizeof c));
		}
		return 1;
	}
	return -1;
}

static int vy_event(const struct talk *t, const void *view, const struct event *e, struct sbuf *b)
{
	const struct vying *v = view;
	switch (e->type) {
	case EV_ACTION:
		action_heard(t, v, e, b);
		return 1;
	case EV_SHOWDOWN:
		showdown_heard(t, v, e, b);
		return 1;
	case EV_DECLARE:
		return heard_declare(t, v, e, b);
	case EV_PAYMENT:
		return heard_payment(t, v, e, b);
	case EV_PHASE:
		return heard_phase(t, v, e, b);
	case EV_TURNUP:
		return heard_turnup(t, e, b);
	case EV_GAME_END:
		return heard_game_end(t, v, e, b);
	case EV_HAND_END:
		return heard_hand_end(t, e, b);
	default:
		return 0;
	}
}

/* ---- queries ---- */

static void stakes(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	int first = 1;
	int order[VY_MAX], n = vying_primaute(v, order);
	for (int i = 0; i < n; i++) {
		int s = order[i];
		sb_puts(b, first ? " " : ", ");
		first = 0;
		sb_printf(b, "%s %d", say_name(t, s), v->stake[s]);
		if (v->folded[s])
			sb_printf(b, " (%s)", C_("bet", "folded"));
		else if (v->chips[s] == 0)
			sb_printf(b, " (%s)", C_("bet", "all in"));
	}
	sb_puts(b, ".");
}

static void query_table(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	char card[SAY_CARD_MAX], c[SAY_NUMBER_MAX];
	if (v->dealt)
		sb_printf(b, _("Turned card: %s."), say_card_str(t->lang, v->turn, SAY_THE, card, sizeof card));
	else
		sb_puts(b, C_("bet", "No card dealt yet."));
	sb_puts(b, " ");
	sb_puts(b, C_("bet", "Stakes:"));
	stakes(t, v, b);
	sb_puts(b, " ");
	sb_printf(b, C_("bet", "Pot: %s."), chips(t, vying_pot(v), c, sizeof c));
	if (v->shown) {
		for (int s = 0; s < v->players; s++) {
			if (!v->in_deal[s])
				continue;
			sb_puts(b, " ");
			hand_shown(t, v, s, v->hands[s], v->turn, v->folded[s], b);
		}
	}
}

/* "Chips: Anne 98, you 102, Bruno out." */
static void chips_line(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	sb_puts(b, C_("bet", "Chips:"));
	for (int s = 0; s < v->players; s++) {
		/* TRANSLATORS: between the players of a list of figures ("Anne
		 * 98, you 102"); French: " ; ", a name and its number held apart
		 * from the next. */
		sb_puts(b, s ? C_("figures", ", ") : " ");
		if (v->out[s])
			sb_printf(b, "%s %s", say_name(t, s), C_("bet", "out"));
		else
			sb_printf(b, "%s %d", say_name(t, s), v->chips[s]);
		if (v->reserve[s] > 0)
			sb_printf(b, C_("bet", " (%d waiting in caves)"), v->reserve[s]);
	}
	sb_puts(b, ".");
}

static void query_scores(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	char c[SAY_NUMBER_MAX];
	chips_line(t, v, b);
	if (v->dead > 0) {
		sb_puts(b, " ");
		if (brelan_game(v))
			sb_printf(b, C_("bet", "Passe: %s."), chips(t, v->dead, c, sizeof c));
		else
			sb_printf(b, C_("bet", "Carried in the pot: %s."), chips(t, v->dead, c, sizeof c));
	}
	int amounts[VY_MAX + 1];
	unsigned cont[VY_MAX + 1];
	int n = vying_levels(v, amounts, cont);
	if (n == 0 && v->dead > 0) {
		/* Only the passe or the carried chips: said above. */
	} else if (n <= 1) {
		sb_puts(b, " ");
		sb_printf(b, C_("bet", "Pot: %s."), chips(t, vying_pot(v), c, sizeof c));
	} else {
		sb_puts(b, " ");
		sb_printf(b, P_("Pot in %d level:", "Pot in %d levels:", n), n);
		for (int i = 0; i < n; i++) {
			sb_puts(b, i ? C_("bet", "; ") : " ");
			sb_printf(b, C_("bet", "level %1$d, %2$s, for"), i + 1, chips(t, amounts[i], c, sizeof c));
			int k = 0, m = 0;
			for (int s = 0; s < v->players; s++)
				m += (cont[i] >> s) & 1;
			for (int s = 0; s < v->players; s++)
				if ((cont[i] >> s) & 1) {
					sb_puts(b, k ? (k == m - 1 ? _(" and ") : ", ") : " ");
					sb_puts(b, say_name(t, s));
					k++;
				}
		}
		sb_puts(b, ".");
	}
	int st[VY_MAX];
	vying_standings(v, st);
	if (t->me >= 0 && t->me < v->players) {
		sb_puts(b, " ");
		char r[SAY_NUMBER_MAX];
		sb_printf(b, C_("bet", "Your result: %s."), say_number_str(t->lang, st[t->me], SAY_PLUS, r, sizeof r));
	}
}

static void list_legal(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	struct action l[16];
	int n = vying_legal(v, l, 16);
	for (int i = 0; i < n; i++) {
		/* TRANSLATORS: between the items of a list of moves (French: " ; "). */
		sb_puts(b, i ? C_("bet", "; ") : " ");
		vy_action(t, v, &l[i], b);
	}
	sb_puts(b, ".");
}

static void query_turn(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	int s = vying_to_act(v);
	if (s < 0) {
		sb_puts(b, _("Game over."));
		return;
	}
	struct action l[16];
	int n = s == t->me ? vying_legal(v, l, 16) : 0;
	if (n == 2 && (l[0].kind == ACT_STRADDLE || l[0].kind == ACT_BUYBACK) && l[1].kind == ACT_DECLINE) {
		/* A yes or no: "Your turn: straddle (5 chips, stake raised to 6) or not." */
		char c[SAY_NUMBER_MAX];
		sb_printf(b, C_("bet", "Your turn: %1$s (%2$s, stake raised to %3$d) or not."),
		          straddle_verb(t, v, l[0].kind), chips(t, l[0].amount, c, sizeof c), v->stake[s] + l[0].amount);
		return;
	}
	if (s == t->me)
		sb_puts(b, C_("bet", "Your turn:"));
	else
		sb_printf(b, C_("bet", "%s to speak:"), say_Name(t, s));
	list_legal(t, v, b);
}

static void query_rules(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	(void)t;
	char c[SAY_NUMBER_MAX];
	const struct vying_cfg *k = &v->cfg;
	if (brelan_game(v)) {
		sb_printf(b, C_("bet", "Le Brelan, %d cards."), k->npack);
		sb_puts(b, " ");
		if (k->ante_none)
			sb_puts(b, C_("bet", "No passe."));
		else if (k->ante_all)
			sb_printf(b, C_("bet", "Passe: %s from each player."), chips(t, k->ante_chips, c, sizeof c));
		else
			sb_printf(b, C_("bet", "Passe: %s from the dealer."), chips(t, k->ante_chips, c, sizeof c));
		sb_puts(b, " ");
		if (k->straddle == VY_STRADDLE_NO)
			sb_puts(b, C_("bet", "No carre."));
		else
			sb_printf(b, k->straddle == VY_STRADDLE_FORCED ? C_("bet", "Forced carre, up to %d levels.")
			                                                : C_("bet", "Carre allowed, up to %d levels."),
			          k->straddle_max);
		sb_puts(b, " ");
		sb_puts(b, C_("bet", "No extra round; ties go to the player nearest the dealer's right."));
	} else {
		sb_printf(b, C_("bet", "Bouillotte, %d cards."), k->npack);
		sb_puts(b, " ");
		sb_puts(b, k->ante_all ? C_("bet", "Antes: 1 chip each, the dealer 2.") : C_("bet", "Ante: the dealer 1 chip."));
		sb_puts(b, " ");
		sb_puts(b, k->straddle ? (k->buyback ? C_("bet", "Straddles with buy-back.") : C_("bet", "Straddles allowed."))
		                       : C_("bet", "No straddles."));
		sb_puts(b, " ");
		sb_puts(b, C_("bet", "A call made with three players or more in gives another round once all have called."));
		if (k->mistigri) {
			sb_puts(b, " ");
			sb_puts(b, C_("bet", "Mistigri counts."));
		}
		if (!k->brelans) {
			sb_puts(b, " ");
			sb_puts(b, C_("bet", "Brelans do not count: only the point."));
		}
	}
	sb_puts(b, " ");
	if (k->brelan_pay && k->brelans)
		sb_printf(b, C_("bet", "A brelan is paid %s by each other player, a brelan carré double."),
		          chips(t, k->brelan_pay, c, sizeof c));
	else
		sb_puts(b, C_("bet", "Brelans are not paid."));
	sb_puts(b, " ");
	sb_printf(b, C_("bet", "Cave: %s."), chips(t, k->cave, c, sizeof c));
	int s = vying_to_act(v);
	if (s >= 0 && v->phase == VY_BET) {
		sb_puts(b, " ");
		if (!v->opened)
			sb_printf(b, C_("bet", "To open now: at least %s."), chips(t, vying_min_open(v, s), c, sizeof c));
		else if (v->extra)
			sb_puts(b, C_("bet", "Now: raise or stand."));
		else
			sb_printf(b, C_("bet", "To call now: %s."), chips(t, vying_to_call(v, s), c, sizeof c));
	} else if (s >= 0 && v->phase == VY_CAVE) {
		sb_puts(b, " ");
		sb_printf(b, C_("bet", "Before the deal, a waiting cave of %s may be added."), chips(t, k->cave, c, sizeof c));
	} else if (s >= 0 && v->phase == VY_STRADDLE) {
		sb_puts(b, " ");
		if (brelan_game(v) && v->nchain == 0 && v->offer != 2)
			sb_printf(b, C_("bet", "The carre costs %s."), chips(t, vying_straddle_amount(v), c, sizeof c));
		else if (brelan_game(v))
			sb_printf(b, C_("bet", "The next level of the carre, the %1$s, costs %2$s."),
			          straddle_word(t, v, v->offer == 2 ? ACT_BUYBACK : ACT_STRADDLE),
			          chips(t, vying_straddle_amount(v), c, sizeof c));
		else
			sb_printf(b, C_("bet", "The next straddle costs %s."), chips(t, vying_straddle_amount(v), c, sizeof c));
	}
}

static void query_suit(const struct talk *t, const struct vying *v, struct sbuf *b)
{
	(void)t;
	if (!v->dealt) {
		sb_puts(b, C_("bet", "No card turned yet."));
		return;
	}
	char card[SAY_CARD_MAX];
	sb_printf(b, _("Turned card: %s."), say_card_str(t->lang, v->turn, SAY_THE, card, sizeof card));
	sb_puts(b, " ");
	sb_printf(b, C_("bet", "Suit: %1$s, worth %2$d points to its owner. A brelan of %3$s would be a brelan carré."),
	          say_suit(t->lang, card_suit(v->turn)), vying_card_points(v->turn),
	          say_rank(t->lang, card_rank(v->turn), SAY_RANK_PLURAL));
}

static void query_seat(const struct talk *t, const struct vying *v, int s, struct sbuf *b)
{
	if (s >= v->players) {
		sb_printf(b, P_("There is only %d player.", "There are only %d players.", v->players), v->players);
		return;
	}
	char c[SAY_NUMBER_MAX];
	sb_printf(b, _("%1$s: %2$s"), say_Name(t, s), chips(t, v->chips[s], c, sizeof c));
	sb_printf(b, C_("bet", ", stake %d"), v->stake[s]);
	if (v->out[s])
		sb_printf(b, ", %s", C_("bet", "out"));
	else if (v->folded[s])
		sb_printf(b, ", %s", C_("bet", "folded"));
	if (s == v->dealer)
		sb_printf(b, ", %s", C_("bet", "dealer"));
	sb_puts(b, ".");
	card_t h[3];
	if (vying_hand(v, s, h) == 3) {
		struct sbuf w;
		sb_clear(&w);
		say_three(t, &w, h);
		sb_capitalize(&w);
		sb_puts(b, " ");
		sb_printf(b, "%s.", w.s);
	}
}

static void vy_query(const struct talk *t, const void *view, int key, struct sbuf *b)
{
	const struct vying *v = view;
	switch (key) {
	case TALK_TABLE: query_table(t, v, b); break;
	case TALK_SCORES: query_scores(t, v, b); break;
	case TALK_TURN: query_turn(t, v, b); break;
	case TALK_RULES: query_rules(t, v, b); break;
	case TALK_SUIT: query_suit(t, v, b); break;
	case TALK_COUNT: {
		/* Three cards for each player still in once dealt; a folded hand is
		 * thrown in. */
		int count[VY_MAX];
		for (int s = 0; s < v->players && s < VY_MAX; s++)
			count[s] = v->dealt && v->in_deal[s] && !v->folded[s] ? 3 : 0;
		ann_cards_held(t, count, v->players < VY_MAX ? v->players : VY_MAX, b);
		break;
	}
	case TALK_LAST:
		if (t->heard.has_showdown) {
			sb_puts(b, C_("bet", "Last showdown:"));
			sb_puts(b, " ");
			showdown_hands(t, v, &t->heard.showdown, b);
		} else {
			sb_puts(b, C_("bet", "No showdown yet."));
		}
		break;
	default:
		if (key >= '1' && key <= '9')
			query_seat(t, v, key - '1', b);
	}
}

/* ---- refusals and prompt ---- */

static void vy_refusal(const struct talk *t, const void *view, const struct refusal *r, struct sbuf *b)
{
	(void)t;
	const struct vying *v = view;
	char c[SAY_NUMBER_MAX];
	switch (r->code) {
	case VY_REF_OVER: sb_puts(b, C_("bet", "The game is over.")); break;
	case VY_REF_UNKNOWN: sb_puts(b, C_("bet", "That is not a move of this game.")); break;
	case VY_REF_STRADDLE_NOW:
		sb_printf(b, C_("bet", "Before the deal: %1$s for %2$s, or decline."), straddle_word(t, v, ACT_STRADDLE),
		          chips(t, r->amount, c, sizeof c));
		break;
	case VY_REF_NO_STRADDLE: sb_puts(b, C_("bet", "The straddles are over: the cards are dealt.")); break;
	case VY_REF_NO_BUYBACK: sb_puts(b, C_("bet", "No buy-back is offered now.")); break;
	case VY_REF_OPENED:
		sb_puts(b, C_("bet", "The betting is open: call, raise or fold."));
		break;
	case VY_REF_NOT_OPENED: sb_puts(b, C_("bet", "Nobody has opened: pass or open.")); break;
	case VY_REF_MIN_OPEN:
		sb_printf(b, C_("bet", "To open you must put in at least %s."), chips(t, r->amount, c, sizeof c));
		break;
	case VY_REF_MIN_RAISE:
		sb_printf(b, C_("bet", "A raise must put in at least %s."), chips(t, r->amount, c, sizeof c));
		break;
	case VY_REF_TOO_MANY: sb_printf(b, C_("bet", "You have only %s."), chips(t, r->amount, c, sizeof c)); break;
	case VY_REF_SHORT:
		/* Before the opening there is nothing to call. */
		if (!v->opened && v->cfg.short_open)
			sb_printf(b, C_("bet", "Not enough chips: opening takes %s. You may go all in with what you have."),
			          chips(t, r->amount, c, sizeof c));
		else if (!v->opened)
			sb_printf(b, C_("bet", "Not enough chips: opening takes %s. You may pass."),
			          chips(t, r->amount, c, sizeof c));
		else
			sb_printf(b, C_("bet", "Not enough chips: it takes %s. You may call with all you have."),
			          chips(t, r->amount, c, sizeof c));
		break;
	case VY_REF_CAVE_NOW:
		sb_printf(b, C_("bet", "Before the deal: add a waiting cave of %s, or decline."),
		          chips(t, r->amount, c, sizeof c));
		break;
	case VY_REF_EXTRA_ROUND:
		sb_puts(b, C_("bet", "Everybody has called: raise or stand."));
		break;
	case VY_REF_NO_RAISE:
		if (!v->opened)
			sb_printf(b, C_("bet", "The others are all in: nobody could answer more than the opening, %s."),
			          chips(t, r->amount, c, sizeof c));
		else
			sb_puts(b, C_("bet", "The others are all in: nobody could answer a raise. Call or fold."));
		break;
	default: break;
	}
}

static void vy_prompt(const struct talk *t, const void *view, struct sbuf *b)
{
	const struct vying *v = view;
	char c[SAY_NUMBER_MAX];
	sb_puts(b, _("Your turn."));
	sb_puts(b, " ");
	if (v->phase == VY_CAVE) {
		int s = t->me >= 0 ? t->me : v->to_act;
		char c2[SAY_NUMBER_MAX];
		sb_printf(b, C_("bet", "Before the deal: add a waiting cave, %1$s, to the %2$s in front of you?"),
		          chips(t, v->cfg.cave, c, sizeof c), chips(t, s >= 0 ? v->chips[s] : 0, c2, sizeof c2));
		return;
	}
	if (v->phase == VY_STRADDLE) {
		/* Asked before the cards are seen: the price, and what it buys. */
		chips(t, vying_straddle_amount(v), c, sizeof c);
		if (brelan_game(v) && v->nchain == 0 && v->offer != 2)
			sb_printf(b, C_("bet", "Before seeing your cards: carre for %s? It opens the game and you speak last."), c);
		else if (brelan_game(v))
			sb_printf(b, C_("bet", "Before seeing your cards: %1$s for %2$s? It doubles the carre and you speak last."),
			          straddle_word(t, v, v->offer == 2 ? ACT_BUYBACK : ACT_STRADDLE), c);
		else if (v->offer == 2)
			sb_printf(b, C_("bet", "Before seeing your cards: buy back for %s? It doubles the pot and you speak last again."), c);
		else if (v->nchain)
			sb_printf(b, C_("bet", "Before seeing your cards: straddle again for %s? It doubles the pot and you speak last."), c);
		else
			sb_printf(b, C_("bet", "Before seeing your cards: straddle for %s? It doubles the pot and you speak last."), c);
		return;
	}
	int s = t->me >= 0 ? t->me : v->to_act;
	if (!v->opened)
		sb_printf(b, C_("bet", "Pass or open, at least %s."), chips(t, vying_min_open(v, s), c, sizeof c));
	else if (v->extra)
		sb_puts(b, C_("bet", "Raise or stand."));
	else if (vying_to_call(v, s) == 0)
		sb_puts(b, C_("bet", "Call for nothing, or raise."));
	else if (vying_call_short(v, s)) {
		char c2[SAY_NUMBER_MAX];
		sb_printf(b, C_("bet", "To call: %1$s; you have only %2$s, all in."),
		          chips(t, v->high - v->stake[s], c, sizeof c), chips(t, v->chips[s], c2, sizeof c2));
	} else
		sb_printf(b, C_("bet", "To call: %s."), chips(t, vying_to_call(v, s), c, sizeof c));
	/* Once bets are made the pot has grown since the turned card was said. */
	if (v->opened) {
		sb_puts(b, " ");
		sb_printf(b, C_("bet", "Pot: %s."), chips(t, vying_pot(v), c, sizeof c));
	}
}

const struct game_talk bouillotte_talk = { "bouillotte", vy_event, vy_query, vy_refusal, vy_action, vy_prompt, 1, NULL };
/* The hint's orders in Le Brelan: its straddles are carres, each level
 * past the first by its name (the bot's reason says which); a buy-back
 * not named is a surcarre. */
static int brelan_order(const struct talk *t, const struct action *a, const struct bot_reason *why, struct sbuf *b)
{
	struct sbuf x;
	sb_clear(&x);
	switch (a->kind) {
	case ACT_DECLINE:
		if (why->code == BOT_WHY_NO_CAVE || why->straddle >= VY_SURCARRE)
			return 0; /* the words all games share */
		sb_puts(b, C_("hint", "no carre"));
		return 1;
	case ACT_STRADDLE:
		say_chips(t->lang, &x, a->amount);
		if (why->straddle <= VY_CARRE_1)
			sb_printf(b, C_("hint", "carre for %s"), x.s);
		else
			sb_printf(b, C_("hint", "%1$s for %2$s"), carre_name(t, why->straddle), x.s);
		return 1;
	case ACT_BUYBACK:
		say_chips(t->lang, &x, a->amount);
		sb_printf(b, C_("hint", "%1$s for %2$s"),
		          why->straddle > VY_CARRE_1 ? carre_name(t, why->straddle) : C_("bet", "surcarre"), x.s);
		return 1;
	default:
		return 0;
	}
}

const struct game_talk brelan_talk = { "brelan", vy_event, vy_query, vy_refusal, vy_action, vy_prompt, 1, brelan_order };
