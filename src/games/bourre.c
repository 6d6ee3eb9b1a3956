/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bourré: the rules core (docs/rules/bourre.en.md). */
#include "core/deckfile.h"
#include "core/err.h"
#include "games/bourre.h"

#include <string.h>

static const char *const ANTE_CHOICES[] = { "single", "double", NULL };
static const char *const TRUMP_CHOICES[] = { "hand", "separate", "dealer", NULL };
static const char *const DECLARE_CHOICES[] = { "turn", "simultaneous", NULL };
static const char *const DRAW_CHOICES[] = { "together", "separate", NULL };
static const char *const VARIANT_CHOICES[] = { "five", "four", NULL };

static const struct rule_def RULES[] = {
	{ "chips", RULE_INT, 100, 0, 1000000, NULL, NULL, 0, 0,
	  N_("Chips each player starts with; 0 plays for points only.") },
	{ "limit", RULE_INT, 0, 1, 1000000, NULL, "none", 0, 0,
	  N_("Most chips a winner takes or a bourre player pays; none means the whole pot.") },
	{ "ante", RULE_CHOICE, 0, 0, 0, ANTE_CHOICES, NULL, 0, 0,
	  N_("Double: everyone antes every deal, and each player who stays adds 1 chip. Single: the usual ante.") },
	{ "trump", RULE_CHOICE, 0, 0, 0, TRUMP_CHOICES, NULL, 0, 0,
	  N_("Hand: the dealer's fifth card is turned up and is his. Separate: an extra card is turned up, nobody's. Dealer: an extra card the dealer may take.") },
	{ "declare", RULE_CHOICE, 0, 0, 0, DECLARE_CHOICES, NULL, 0, 0,
	  N_("Turn: stay or pass in turn. Simultaneous: everyone decides at once.") },
	{ "draw", RULE_CHOICE, 0, 0, 0, DRAW_CHOICES, NULL, 0, 0,
	  N_("Together: discard as you stay. Separate: everyone declares, then the draw.") },
	{ "variant", RULE_CHOICE, 0, 0, 0, VARIANT_CHOICES, NULL, 0, 0,
	  N_("Five: the usual game. Four: Indiana four-card Bourre.") },
	{ "hands", RULE_INT, 0, 0, 100000, NULL, "none", 0, 0,
	  N_("Number of deals; none means no limit.") },
	{ "strict", RULE_CHOICE, 0, 0, 0, RULES_YES_NO, NULL, 0, 0,
	  N_("Yes: a card that breaks a rule of play is played, the renege is announced after the trick, and its player pays the pot as for a bourre. No: it is refused.") },
};
#define NRULES ((int)(sizeof RULES / sizeof RULES[0]))

/* ---- helpers ---- */

static int next_seat(const struct bourre_state *st, int s) { return (s + 1) % st->players; }

static uint64_t bit(card_t c) { return (uint64_t)1 << c; }

/* The cards of one suit in a mask of cards (bit c for card c). */
#define SUIT_BITS(suit) ((uint64_t)0x1111111111111111ULL << (suit))
/* Every card of the pack: ranks 2 to ace, bits 8 to 59. */
#define PACK_BITS ((uint64_t)0x0fffffffffffff00ULL)

/* The seat's hand as a mask; the hidden cards (CARD_NONE) of a view are
 * in none of the suits. */
static uint64_t hand_mask(const struct bourre_state *st, int seat)
{
	uint64_t m = 0;
	for (int i = 0; i < st->nhand[seat]; i++)
		m |= bit(st->hand[seat][i]);
	return m & PACK_BITS;
}

static int in_hand(const struct bourre_state *st, int seat, card_t c)
{
	return card_find(st->hand[seat], st->nhand[seat], c) >= 0;
}

static int has_suit(const struct bourre_state *st, int seat, int suit)
{
	return (hand_mask(st, seat) & SUIT_BITS(suit)) != 0;
}

static int sure_trumps(const struct bourre_state *st, int seat, uint64_t mine);

/* The number of cards of a mask as small as a hand (a loop a card: no
 * popcount instruction is taken for granted). */
static int ncards_of(uint64_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* 1 when seat, holding `mine`, has a cinch. Each sure trump is a trump
 * held, so too few trumps and tricks answer without the pairing. */
static int cinch_of(const struct bourre_state *st, int seat, uint64_t mine)
{
	int need = 3 - st->tricks[seat];
	if (ncards_of(mine & SUIT_BITS(st->trump)) < need)
		return 0;
	return sure_trumps(st, seat, mine) >= need;
}

/* The highest card of a mask, CARD_NONE for none. */
static card_t top_card(uint64_t m)
{
	return m ? (card_t)(63 - __builtin_clzll(m)) : CARD_NONE;
}

/* The cards of a mask above card c in its suit. */
static uint64_t above_in_suit(uint64_t m, card_t c)
{
	uint64_t higher = c >= 63 ? 0 : ~(((uint64_t)2 << c) - 1);
	return m & higher & SUIT_BITS(card_suit(c));
}

/* Cards played to tricks, the current one included. */
static uint64_t played_mask(const struct bourre_state *st)
{
	uint64_t m = 0;
	for (int i = 0; i < st->ngone; i++)
		m |= bit(st->gone[i]);
	for (int i = 0; i < st->ntrick; i++)
		m |= bit(st->trick[i]);
	return m;
}

static int active(const struct bourre_state *st, int s)
{
	return st->status[s] == BR_ST_STAY;
}

int bourre_active(const struct bourre_state *st)
{
	int n = 0;
	for (int s = 0; s < st->players; s++)
		n += st->status[s] != BR_ST_PASS;
	return n;
}

static int nstayers(const struct bourre_state *st)
{
	int n = 0;
	for (int s = 0; s < st->players; s++)
		n += active(st, s);
	return n;
}

static void emit_action(const struct bourre_state *st, const struct sink *out, int seat,
                        const struct action *a, int amount, unsigned visible)
{
	(void)st;
	if (!out)
		return;
	struct event e;
	ev_init(&e, EV_ACTION);
	e.seat = seat;
	e.act = *a;
	e.act.amount_max = e.act.amount;
	e.amount = amount;
	e.visible = visible;
	ev_emit(out, &e);
}


static void pay(struct bourre_state *st, const struct sink *out, int from, int to, int amount,
                enum ev_reason reason)
{
	if (amount <= 0)
		return;
	if (from >= 0)
		st->chips[from] -= amount;
	else
		st->pot -= amount;
	if (to >= 0)
		st->chips[to] += amount;
	else
		st->pot += amount;
	if (from >= 0 && to < 0 && reason == EV_PAY_STAY)
		st->put[from] += amount;
	ev_emit_payment(out, from, to, amount, reason);
}

/* ---- cinch ---- */

/* Sure trump tricks (docs/rules/bourre.en.md, "The cinch"). The
 * outstanding trumps are those in no completed trick: in the other hands,
 * the stock or the discards, and in the current trick (but not the seat's
 * own card there, nor a turned card that is nobody's). Each is paired with
 * a different trump of the seat's that it beats, as many pairs as can be
 * made; the seat's trumps left unpaired are sure. The most pairs: walking
 * down the ranks, each outstanding trump takes the highest of the seat's
 * trumps below it that is still free. (An optimal pairing can be changed
 * into that one, pair by pair, without losing a pair: the highest
 * outstanding trump may always take the highest trump it beats, giving
 * its own partner to whoever had that one, who beats it too.) */
static int sure_trumps(const struct bourre_state *st, int seat, uint64_t mine)
{
	uint64_t off = st->turnup_place == BR_TU_TABLE ? bit(st->turnup) : 0;
	for (int i = 0; i < st->ngone; i++)
		off |= bit(st->gone[i]);
	for (int i = 0; i < st->ntrick; i++)
		if (st->trick_seat[i] == seat)
			off |= bit(st->trick[i]);
	uint64_t trumps = SUIT_BITS(st->trump) & PACK_BITS;
	mine &= trumps;
	uint64_t out = trumps & ~mine & ~off;
	/* Down the ranks, each trump of the seat's pairs with an outstanding
	 * one above it still unpaired: the same count of pairs as the walk
	 * above (both are the most pairs that can be made). */
	int nmine = 0, open = 0, pairs = 0;
	for (uint64_t all = mine | out; all; ) {
		card_t c = top_card(all);
		all &= ~bit(c);
		if (out & bit(c)) {
			open++;
		} else {
			nmine++;
			if (open) {
				open--;
				pairs++;
			}
		}
	}
	return nmine - pairs;
}

int bourre_sure_trumps(const struct bourre_state *st, int seat)
{
	return sure_trumps(st, seat, hand_mask(st, seat));
}

int bourre_cinch(const struct bourre_state *st, int seat)
{
	return cinch_of(st, seat, hand_mask(st, seat));
}

/* The seat's highest trump, or CARD_NONE. */
static card_t top_trump(const struct bourre_state *st, int seat)
{
	return top_card(hand_mask(st, seat) & SUIT_BITS(st->trump));
}

/* The trumps of a hand `mine` that count as its highest: every trump
 * between such a card and the highest is in the hand or already played. */
static uint64_t top_trumps(const struct bourre_state *st, uint64_t mine)
{
	uint64_t trumps = SUIT_BITS(st->trump) & PACK_BITS, held = mine & trumps;
	card_t top = top_card(held);
	if (!top)
		return 0;
	uint64_t played = played_mask(st);
	if (st->turnup_place == BR_TU_TABLE)
		played |= bit(st->turnup);
	/* the highest trump below the top that is neither held nor played */
	card_t gap = top_card(trumps & ~mine & ~played & ~above_in_suit(PACK_BITS, top));
	return gap ? above_in_suit(held, gap) : held;
}

/* c, held by seat, counts as its highest trump. */
static int as_top(const struct bourre_state *st, int seat, card_t c)
{
	return (top_trumps(st, hand_mask(st, seat)) & bit(c)) != 0;
}

/* The card winning the trick so far. */
static card_t trick_best(const struct bourre_state *st)
{
	card_t best = st->trick[0];
	for (int i = 1; i < st->ntrick; i++) {
		card_t c = st->trick[i];
		if (card_suit(c) == card_suit(best)) {
			if (card_rank(c) > card_rank(best))
				best = c;
		} else if (card_suit(c) == st->trump) {
			best = c;
		}
	}
	return best;
}

static int trick_winner(const struct bourre_state *st)
{
	card_t best = trick_best(st);
	for (int i = 0; i < st->ntrick; i++)
		if (st->trick[i] == best)
			return st->trick_seat[i];
	return -1;
}

static void ref(struct refusal *r, int code, card_t card, int suit)
{
	if (!r)
		return;
	r->code = code;
	r->card = card;
	r->suit = suit;
	r->amount = r->amount2 = -1;
}

/* Follow the suit led, beating the best card when it can (unless the
 * trick is trumped); without the suit, trump, overtrumping a trump when it
 * can; with a cinch, lead the highest trump, and play it whenever a trump
 * is played except as the last card of the trick. */
static void play_duty(const struct bourre_state *st, int seat, struct bourre_duty *d)
{
	int t = st->trump;
	uint64_t mine = d->hand = hand_mask(st, seat);
	d->code = 0;
	d->card = CARD_NONE;
	d->suit = -1;
	d->cinch = 0;
	/* The cinch is weighed only where it can change the duty: it is the
	 * costliest question here. */
	if (st->ntrick == 0) {
		card_t top = top_card(mine & SUIT_BITS(t));
		if (top && cinch_of(st, seat, mine)) {
			d->code = BR_REF_CINCH_LEAD;
			d->card = top;
			d->suit = t;
		}
		return;
	}
	int led = card_suit(st->trick[0]);
	card_t w = trick_best(st);
	int trumped = led != t && card_suit(w) == t;
	int trump_ok = 0;   /* a trump may be played under the plain rules */
	if (mine & SUIT_BITS(led)) {
		d->code = !trumped && above_in_suit(mine, w) ? BR_REF_BEAT : BR_REF_FOLLOW;
		d->suit = led;
		trump_ok = led == t;
	} else if (mine & SUIT_BITS(t)) {
		d->code = card_suit(w) == t && above_in_suit(mine, w) ? BR_REF_OVERTRUMP : BR_REF_TRUMP;
		d->suit = t;
		trump_ok = 1;
	}
	if (d->code == BR_REF_BEAT || d->code == BR_REF_OVERTRUMP)
		d->card = w;
	/* (not as the last card of the trick) */
	d->cinch = trump_ok && cinch_of(st, seat, mine) && st->ntrick != nstayers(st) - 1;
}

/* Card c, held by seat, against the duty d of its next card (play_duty):
 * 0 or the refusal's code, told in r. */
static int card_vs_duty(const struct bourre_state *st, int seat, struct bourre_duty d, card_t c, struct refusal *r)
{
	int code = 0;
	switch (d.code) {
	case BR_REF_CINCH_LEAD:
		if (!as_top(st, seat, c))
			code = d.code;
		break;
	case BR_REF_FOLLOW:
	case BR_REF_BEAT:
	case BR_REF_TRUMP:
	case BR_REF_OVERTRUMP:
		if (card_suit(c) != d.suit) {
			code = d.code == BR_REF_FOLLOW || d.code == BR_REF_BEAT ? BR_REF_FOLLOW : BR_REF_TRUMP;
			d.card = CARD_NONE;
		} else if (d.card != CARD_NONE && card_rank(c) <= card_rank(d.card)) {
			code = d.code;
		}
		break;
	default:
		break;
	}
	if (!code && d.cinch && !as_top(st, seat, c)) {
		code = BR_REF_CINCH_FOLLOW;
		d.card = top_trump(st, seat);
		d.suit = st->trump;
	}
	if (code)
		ref(r, code, d.card, d.suit);
	return code;
}

/* The cards of seat's hand that meet the duty d (play_duty): those
 * card_vs_duty accepts, as a mask (bit c for card c). */
static uint64_t proper_cards(const struct bourre_state *st, const struct bourre_duty *d)
{
	uint64_t mine = d->hand, ok = mine;
	switch (d->code) {
	case BR_REF_CINCH_LEAD:
		ok = top_trumps(st, mine);
		break;
	case BR_REF_FOLLOW:
	case BR_REF_BEAT:
	case BR_REF_TRUMP:
	case BR_REF_OVERTRUMP:
		ok = mine & SUIT_BITS(d->suit);
		if (d->card != CARD_NONE)
			ok = above_in_suit(ok, d->card);
		break;
	default:
		break;
	}
	if (d->cinch)
		ok &= top_trumps(st, mine);
	return ok;
}

/* The seat's duty weighed afresh into d, with what it is weighed on. */
static void weigh_duty(const struct bourre_state *st, int seat, struct bourre_duty *d)
{
	play_duty(st, seat, d);
	d->ok = proper_cards(st, d);
	/* a card hidden in a view is in no suit: fewer cards in the mask */
	if (ncards_of(d->hand) < st->nhand[seat] && card_vs_duty(st, seat, *d, CARD_NONE, NULL) == 0)
		d->ok |= bit(CARD_NONE);
	d->valid = 1;
	d->seat = (signed char)seat;
	d->nhand = (unsigned char)st->nhand[seat];
	d->ntrick = (unsigned char)st->ntrick;
	d->ngone = (unsigned char)st->ngone;
	d->tricks = (unsigned char)st->tricks[seat];
}

/* The duty kept for the seat to act, weighed when its turn came. */
static void keep_duty(struct bourre_state *st)
{
	memset(&st->duty, 0, sizeof st->duty);
	if (st->phase == BR_PH_PLAY && st->to_act >= 0 && st->nhand[st->to_act] > 0)
		weigh_duty(st, st->to_act, &st->duty);
}

/* The duty of seat: the one kept, while it is still the turn it was
 * weighed for; else weighed afresh into *fresh. */
static const struct bourre_duty *duty_of(const struct bourre_state *st, int seat, struct bourre_duty *fresh)
{
	const struct bourre_duty *d = &st->duty;
	if (d->valid && d->seat == seat && d->nhand == st->nhand[seat] && d->ntrick == st->ntrick &&
	    d->ngone == st->ngone && d->tricks == st->tricks[seat])
		return d;
	weigh_duty(st, seat, fresh);
	return fresh;
}

int bourre_check_play(const struct bourre_state *st, int seat, card_t c, struct refusal *r)
{
	ref(r, 0, CARD_NONE, -1);
	if (!in_hand(st, seat, c)) {
		ref(r, BR_REF_NOT_HELD, c, -1);
		return BR_REF_NOT_HELD;
	}
	struct bourre_duty d;
	play_duty(st, seat, &d);
	return card_vs_duty(st, seat, d, c, r);
}

int bourre_renege(const struct bourre_state *st, int seat, card_t c)
{
	if (!st->strict || st->phase != BR_PH_PLAY)
		return 0;
	int code = bourre_check_play(st, seat, c, NULL);
	return code != 0 && code != BR_REF_NOT_HELD;
}

int bourre_constraint(const struct bourre_state *st, int seat, struct refusal *r)
{
	ref(r, 0, CARD_NONE, -1);
	if (st->phase != BR_PH_PLAY || st->nhand[seat] == 0)
		return 0;
	struct bourre_duty d;
	play_duty(st, seat, &d);
	if (d.cinch) {
		d.code = BR_REF_CINCH_FOLLOW;
		d.card = top_trump(st, seat);
		d.suit = st->trump;
	}
	ref(r, d.code, d.card, d.suit);
	return d.code;
}

/* ---- deals ---- */

static int pack_fn(const struct rules *r, int players, card_t *out, char *err, size_t errlen)
{
	(void)r;
	if (players < 2 || players > BR_MAX_SEATS)
		return errf(err, errlen, "Bourre is played by 2 to 8 players");
	return card_pack_full(out, 1);
}

static void pay_antes(struct bourre_state *st, const struct sink *out)
{
	for (int k = 1; k <= st->players; k++) {
		int s = (st->dealer + k) % st->players;
		if (st->hand_no > 1 && !st->ante_double && st->exempt[s])
			continue;
		pay(st, out, s, -1, 1, EV_PAY_ANTE);
	}
	memset(st->exempt, 0, sizeof st->exempt);
}

static void begin_declare(struct bourre_state *st, const struct sink *out);

static void start_deal(struct bourre_state *st, const struct sink *out)
{
	st->hand_no++;
	int k = st->hand_no - 1;
	card_t pack[BR_PACK];
	int n = card_pack_full(pack, 1);
	deckfile_deal_pack(st->stack, k, pack, n, &st->rng, pack);
	st->packsize = n;
	/* clear the deal */
	memset(st->hand, 0, sizeof st->hand);
	memset(st->nhand, 0, sizeof st->nhand);
	memset(st->status, 0, sizeof st->status);
	memset(st->pending, 0, sizeof st->pending);
	memset(st->drawn, 0, sizeof st->drawn);
	memset(st->confirmed, 0, sizeof st->confirmed);
	memset(st->put, 0, sizeof st->put);
	memset(st->tricks, 0, sizeof st->tricks);
	memset(st->trick, 0, sizeof st->trick);
	memset(st->trick_seat, 0, sizeof st->trick_seat);
	memset(st->voids, 0, sizeof st->voids);
	memset(st->trick_renege, 0, sizeof st->trick_renege);
	memset(st->trick_renege_card, 0, sizeof st->trick_renege_card);
	memset(st->trick_renege_suit, 0, sizeof st->trick_renege_suit);
	memset(st->renege_voids, 0, sizeof st->renege_voids);
	memset(st->reneges, 0, sizeof st->reneges);
	memset(st->dead, 0, sizeof st->dead);
	memset(st->dead_by, 0, sizeof st->dead_by);
	memset(st->gone, 0, sizeof st->gone);
	memset(st->stock, 0, sizeof st->stock);
	for (int s = 0; s < BR_MAX_SEATS; s++)
		st->ndrew[s] = -1;
	st->ndead = st->ngone = st->ntrick = st->ntricks = 0;
	st->reshuffles = 0;
	st->dealer_took = -1;
	st->lone = -1;
	st->leader = -1;

	struct event e;
	if (out) {
		ev_init(&e, EV_HAND_START);
		e.hand = st->hand_no;
		e.dealer = st->dealer;
		e.ncards = n;
		memcpy(e.cards, pack, (size_t)n);
		memset(e.card_seat, -1, (size_t)n);
		ev_emit(out, &e);
	}

	pay_antes(st, out);

	int pos = 0;
	for (int round = 0; round < st->ncards; round++)
		for (int k2 = 1; k2 <= st->players; k2++) {
			int s = (st->dealer + k2) % st->players;
			st->hand[s][st->nhand[s]++] = pack[pos++];
		}
	if (st->trump_mode == BR_TRUMP_HAND && !st->four) {
		st->turnup = st->hand[st->dealer][st->ncards - 1];
		st->turnup_place = BR_TU_HAND;
	} else {
		st->turnup = pack[pos++];
		st->turnup_place = BR_TU_TABLE;
	}
	st->trump = card_suit(st->turnup);
	memcpy(st->stock, pack + pos, (size_t)(n - pos));
	st->stock_pos = 0;
	st->stock_n = n - pos;

	for (int k2 = 1; k2 <= st->players; k2++) {
		int s = (st->dealer + k2) % st->players;
		ev_emit_deal(out, s, st->hand[s], st->nhand[s]);
	}
	if (out) {
		ev_init(&e, EV_TURNUP);
		e.seat = st->turnup_place == BR_TU_HAND ? st->dealer : -1;
		e.ncards = 1;
		e.cards[0] = st->turnup;
		e.card_seat[0] = (signed char)e.seat;
		e.value = st->trump;
		e.pot = st->pot;
		ev_emit(out, &e);
	}

	begin_declare(st, out);
}

static int can_stay_four(const struct bourre_state *st, int seat)
{
	return has_suit(st, seat, st->trump) || has_suit(st, seat, SUIT_CLUBS);
}

/* The dealer must stay: an ace turned up that is his. */
static int ace_forces(const struct bourre_state *st, int seat)
{
	return seat == st->dealer && st->turnup_place == BR_TU_HAND && !st->four &&
	       card_rank(st->turnup) == RANK_ACE;
}

static void end_deal(struct bourre_state *st, const struct sink *out);
static void begin_draw(struct bourre_state *st, const struct sink *out);
static void begin_play(struct bourre_state *st, const struct sink *out);

static void lone_win(struct bourre_state *st, const struct sink *out, int seat)
{
	st->lone = seat;
	memset(st->tricks, 0, sizeof st->tricks);
	st->tricks[seat] = st->ncards;
	ev_emit_phase(out, EV_NOTE_LONE, seat, 0, st->ncards);
	end_deal(st, out);
}

/* The one seat still staying plays alone. */
static void lone_stayer_wins(struct bourre_state *st, const struct sink *out)
{
	for (int s = 0; s < st->players; s++)
		if (active(st, s))
			lone_win(st, out, s);
}

static void move_to_dead(struct bourre_state *st, int seat)
{
	for (int i = 0; i < st->nhand[seat]; i++) {
		st->dead[st->ndead] = st->hand[seat][i];
		st->dead_by[st->ndead++] = (signed char)seat;
	}
	st->nhand[seat] = 0;
	memset(st->hand[seat], 0, sizeof st->hand[seat]);
}

static int stay_cost(const struct bourre_state *st)
{
	return (st->ante_double ? 1 : 0) + (st->four ? 1 : 0);
}

/* The dealer stays because everyone before passed. */
static void dealer_alone(struct bourre_state *st, const struct sink *out)
{
	int d = st->dealer;
	if (st->four && !can_stay_four(st, d)) {
		/* Nobody may play: the pot waits for the next deal. */
		st->status[d] = BR_ST_PASS;
		move_to_dead(st, d);
		ev_emit_phase(out, EV_NOTE_NOBODY, -1, 0, 0);
		end_deal(st, out);
		return;
	}
	st->status[d] = BR_ST_STAY;
	ev_emit_phase(out, EV_NOTE_DEALER_STAYS, d, 0, 0);
	pay(st, out, d, -1, stay_cost(st), EV_PAY_STAY);
	lone_win(st, out, d);
}

static void begin_declare(struct bourre_state *st, const struct sink *out)
{
	(void)out;
	st->phase = BR_PH_DECLARE;
	st->to_act = next_seat(st, st->dealer);
}

/* Every seat has declared: reveal (simultaneous), then the draw or the end. */
static void declared(struct bourre_state *st, const struct sink *out)
{
	if (st->simultaneous) {
		unsigned mask = 0;
		int nst = 0;
		for (int s = 0; s < st->players; s++)
			if (st->pending[s] == BR_ST_STAY) {
				mask |= 1u << s;
				nst++;
			}
		ev_emit_phase(out, EV_NOTE_REVEAL, -1, (int)mask, nst);
		for (int s = 0; s < st->players; s++) {
			st->status[s] = st->pending[s];
			st->pending[s] = BR_ST_NONE;
		}
		if (nst == 0) {
			for (int s = 0; s < st->players; s++)
				if (s != st->dealer)
					move_to_dead(st, s);
			dealer_alone(st, out);
			return;
		}
		for (int k = 1; k <= st->players; k++) {
			int s = (st->dealer + k) % st->players;
			if (st->status[s] == BR_ST_STAY)
				pay(st, out, s, -1, stay_cost(st), EV_PAY_STAY);
			else
				move_to_dead(st, s);
		}
	}
	int n = nstayers(st);
	if (n == 0) {
		ev_emit_phase(out, EV_NOTE_NOBODY, -1, 0, 0);
		end_deal(st, out);
		return;
	}
	if (n == 1) {
		lone_stayer_wins(st, out);
		return;
	}
	begin_draw(st, out);
}

/* The next staying seat after `from` (exclusive), up to the dealer, whose
 * `done` flag is not set, or -1. */
static int next_staying(const struct bourre_state *st, int from, const unsigned char *done)
{
	for (int k = 1; k <= st->players; k++) {
		int s = (from + k) % st->players;
		if (active(st, s) && !done[s])
			return s;
		if (s == st->dealer)
			break;
	}
	return -1;
}

static void set_draw_turn(struct bourre_state *st, int s)
{
	st->to_act = s;
	if (s == st->dealer && st->trump_mode == BR_TRUMP_DEALER && !st->four && st->dealer_took < 0)
		st->phase = BR_PH_TAKE;
	else
		st->phase = BR_PH_DISCARD;
}

static void begin_draw(struct bourre_state *st, const struct sink *out)
{
	int s = next_staying(st, st->dealer, st->drawn);
	if (s < 0) {
		begin_play(st, out);
		return;
	}
	set_draw_turn(st, s);
}

/* variant=four: the second chance to pass, seat by seat. */
static void confirm_turn(struct bourre_state *st, const struct sink *out, int from)
{
	int s = next_staying(st, from, st->confirmed);
	if (s < 0) {
		if (nstayers(st) == 1) {
			lone_stayer_wins(st, out);
			return;
		}
		begin_play(st, out);
		return;
	}
	/* The last one left after everyone else passed plays alone. */
	int others = 0;
	for (int x = 0; x < st->players; x++)
		if (x != s && active(st, x))
			others++;
	if (others == 0) {
		st->confirmed[s] = 1;
		pay(st, out, s, -1, 1, EV_PAY_STAY);
		lone_win(st, out, s);
		return;
	}
	st->phase = BR_PH_CONFIRM;
	st->to_act = s;
}

static void after_draw(struct bourre_state *st, const struct sink *out, int seat)
{
	if (!st->draw_separate && !st->simultaneous && !st->four) {
		/* declaring and drawing together: the next declarer */
		if (seat == st->dealer) {
			declared(st, out);
			return;
		}
		int nx = next_seat(st, seat);
		st->phase = BR_PH_DECLARE;
		st->to_act = nx;
		if (nx == st->dealer && nstayers(st) == 0)
			dealer_alone(st, out);
		return;
	}
	int s = next_staying(st, seat, st->drawn);
	if (s >= 0 && s != seat) {
		set_draw_turn(st, s);
		return;
	}
	if (st->four) {
		/* the second chance to pass, announced before the first answer */
		if (nstayers(st) >= 2)
			ev_emit_phase(out, EV_NOTE_SECOND, -1, 0, nstayers(st));
		confirm_turn(st, out, st->dealer);
		return;
	}
	begin_play(st, out);
}

static void begin_play(struct bourre_state *st, const struct sink *out)
{
	st->phase = BR_PH_PLAY;
	st->ntrick = 0;
	int s = next_seat(st, st->dealer);
	while (!active(st, s))
		s = next_seat(st, s);
	st->leader = s;
	st->to_act = s;
	keep_duty(st);
	ev_emit_phase(out, EV_NOTE_PLAY, s, 0, nstayers(st));
}

/* 1 when the pot or a player's chips (or points) passed BR_STAKES_MAX: the
 * game ends after this deal. A deal moves at most eight times the pot, so
 * nothing can overflow before that check. */
static int stakes_at_bound(const struct bourre_state *st)
{
	if (st->pot > BR_STAKES_MAX)
		return 1;
	for (int s = 0; s < st->players; s++)
		if (st->chips[s] > BR_STAKES_MAX || st->chips[s] < -BR_STAKES_MAX)
			return 1;
	return 0;
}

static void end_deal(struct bourre_state *st, const struct sink *out)
{
	int pot = st->pot;
	st->last_pot = pot;
	int cap = st->limit > 0 && pot > st->limit ? st->limit : pot;
	int best = -1, nbest = 0;
	for (int s = 0; s < st->players; s++) {
		if (!active(st, s))
			continue;
		if (best < 0 || st->tricks[s] > st->tricks[best]) {
			best = s;
			nbest = 1;
		} else if (st->tricks[s] == st->tricks[best]) {
			nbest++;
		}
	}
	memset(st->exempt, 0, sizeof st->exempt);
	if (best >= 0 && nbest == 1) {
		pay(st, out, -1, best, cap, EV_PAY_POT);
	} else if (best >= 0) {
		for (int s = 0; s < st->players; s++)
			if (active(st, s) && st->tricks[s] == st->tricks[best])
				st->exempt[s] = 1;
		ev_emit_phase(out, EV_NOTE_SPLIT, -1, 0, st->tricks[best]);
	}
	for (int k = 1; k <= st->players; k++) {
		int s = (st->dealer + k) % st->players;
		if (active(st, s) && st->tricks[s] == 0 && st->lone < 0) {
			ev_emit_phase(out, EV_NOTE_BOURRE, s, 0, cap);
			pay(st, out, s, -1, cap, EV_PAY_BOURRE);
			st->exempt[s] = 1;
		}
	}
	/* strict=yes: each renege costs the same as a bourre (twice that in
	 * four-card Bourre), paid into the next pot. */
	for (int k = 1; k <= st->players; k++) {
		int s = (st->dealer + k) % st->players;
		for (int i = 0; i < st->reneges[s]; i++)
			pay(st, out, s, -1, st->four ? 2 * cap : cap, EV_PAY_RENEGE);
		if (st->reneges[s])
			st->exempt[s] = 1;
	}
	struct event e;
	if (out) {
		ev_init(&e, EV_HAND_END);
		e.hand = st->hand_no;
		e.dealer = st->dealer;
		e.values_kind = st->chips0 ? EV_VALUES_CHIPS : EV_VALUES_SCORES;
		e.nvalues = st->players;
		memcpy(e.values, st->chips, sizeof(int) * (size_t)st->players);
		e.pot = st->pot;
		e.winner = nbest == 1 ? best : -1;
		ev_emit(out, &e);
	}

	int last = st->hands_max > 0 && st->hand_no >= st->hands_max;
	if (!last && stakes_at_bound(st)) {
		ev_emit_phase(out, EV_NOTE_STAKES, -1, 0, BR_STAKES_MAX);
		last = 1;
	}
	if (last) {
		st->phase = BR_PH_OVER;
		st->to_act = -1;
		ev_init(&e, EV_GAME_END);
		e.values_kind = EV_VALUES_STANDINGS;
		e.nvalues = st->players;
		memcpy(e.values, st->chips, sizeof(int) * (size_t)st->players);
		int top = st->chips[0];
		for (int s = 1; s < st->players; s++)
			if (st->chips[s] > top)
				top = st->chips[s];
		unsigned mask = 0;
		int nw = 0, w = -1;
		for (int s = 0; s < st->players; s++)
			if (st->chips[s] == top) {
				mask |= 1u << s;
				nw++;
				w = s;
			}
		e.winners = mask;
		e.winner = nw == 1 ? w : -1;
		ev_emit(out, &e);
		return;
	}
	st->dealer = next_seat(st, st->dealer);
	start_deal(st, out);
}

/* ---- the draw ---- */

static void reshuffle(struct bourre_state *st, const struct sink *out)
{
	memcpy(st->stock, st->dead, (size_t)st->ndead);
	st->stock_pos = 0;
	st->stock_n = st->ndead;
	card_shuffle(st->stock, st->stock_n, &st->rng);
	memset(st->dead, 0, sizeof st->dead);
	memset(st->dead_by, 0, sizeof st->dead_by);
	st->ndead = 0;
	st->reshuffles++;
	ev_emit_phase(out, EV_NOTE_RESHUFFLE, -1, 0, st->stock_n);
}

void bourre_discard_range(const struct bourre_state *st, int seat, int *min, int *max)
{
	*min = 0;
	*max = st->nhand[seat];
	if (st->four)
		*max = st->ncards - 1;
	if (seat == st->dealer && st->dealer_took == 1)
		*min = st->nhand[seat] - st->ncards;
}

static int do_discard(struct bourre_state *st, int seat, const struct action *a,
                      const struct sink *out, struct refusal *why)
{
	int min, max;
	bourre_discard_range(st, seat, &min, &max);
	for (int i = 0; i < a->ncards; i++) {
		if (!in_hand(st, seat, a->cards[i])) {
			ref(why, BR_REF_NOT_HELD, a->cards[i], -1);
			return -1;
		}
		for (int j = 0; j < i; j++)
			if (a->cards[j] == a->cards[i]) {
				ref(why, BR_REF_DISCARD_TWICE, a->cards[i], -1);
				return -1;
			}
	}
	if (a->ncards > max) {
		ref(why, BR_REF_DISCARD_TOO_MANY, CARD_NONE, -1);
		why->amount = max;
		return -1;
	}
	if (a->ncards < min) {
		ref(why, BR_REF_DISCARD_TOO_FEW, CARD_NONE, -1);
		why->amount = min;
		return -1;
	}
	emit_action(st, out, seat, a, -1, EV_SEAT(seat));
	for (int i = 0; i < a->ncards; i++)
		card_remove(st->hand[seat], &st->nhand[seat], a->cards[i]);
	int want = st->ncards - st->nhand[seat];
	int from = st->nhand[seat];
	for (int i = 0; i < want; i++) {
		if (st->stock_pos >= st->stock_n)
			reshuffle(st, out);
		card_t c = st->stock[st->stock_pos];
		st->stock[st->stock_pos++] = CARD_NONE;
		st->hand[seat][st->nhand[seat]++] = c;
	}
	for (int i = 0; i < a->ncards; i++) {
		st->dead[st->ndead] = a->cards[i];
		st->dead_by[st->ndead++] = (signed char)seat;
	}
	st->drawn[seat] = 1;
	st->ndrew[seat] = (signed char)want;
	if (out) {
		struct event e;
		ev_init(&e, EV_DRAW);
		e.seat = seat;
		e.visible = EV_SEAT(seat);
		e.ncards = a->ncards;
		memcpy(e.cards, a->cards, (size_t)a->ncards);
		memset(e.card_seat, seat, (size_t)a->ncards);
		e.ncards2 = want;
		memcpy(e.cards2, st->hand[seat] + from, (size_t)want);
		e.value = want;
		ev_emit(out, &e);
	}
	after_draw(st, out, seat);
	return 0;
}

/* ---- play ---- */

/* The reneges of the trick just completed: announced (the rule broken,
 * in the order of play), counted for the end of the deal; the voids they
 * seemed to show are forgotten. */
static void announce_reneges(struct bourre_state *st, const struct sink *out)
{
	for (int i = 0; i < st->ntrick; i++) {
		if (!st->trick_renege[i])
			continue;
		int s = st->trick_seat[i];
		st->reneges[s]++;
		st->voids[s] &= (unsigned char)~st->renege_voids[s];
		st->renege_voids[s] = 0;
		struct event e;
		ev_init(&e, EV_PHASE);
		e.note = EV_NOTE_RENEGE;
		e.seat = s;
		e.code = st->trick_renege[i];
		e.value = st->trick_renege_suit[i];
		e.ncards = st->trick_renege_card[i] ? 2 : 1;
		e.cards[0] = st->trick[i];
		e.cards[1] = st->trick_renege_card[i];
		e.card_seat[0] = (signed char)s;
		e.card_seat[1] = -1;
		ev_emit(out, &e);
	}
	memset(st->trick_renege, 0, sizeof st->trick_renege);
	memset(st->trick_renege_card, 0, sizeof st->trick_renege_card);
	memset(st->trick_renege_suit, 0, sizeof st->trick_renege_suit);
}

/* Seat plays c, held; r: the rule of play it breaks (a renege a strict
 * table accepts), code 0 when none. */
static void do_play(struct bourre_state *st, int seat, card_t c, const struct refusal *r, const struct sink *out)
{
	if (r->code) {
		st->trick_renege[st->ntrick] = (unsigned char)r->code;
		st->trick_renege_card[st->ntrick] = r->card;
		st->trick_renege_suit[st->ntrick] = (signed char)r->suit;
	}
	if (st->ntrick > 0) {
		int led = card_suit(st->trick[0]);
		unsigned char before = st->voids[seat];
		if (card_suit(c) != led) {
			st->voids[seat] |= (unsigned char)(1u << led);
			if (card_suit(c) != st->trump)
				st->voids[seat] |= (unsigned char)(1u << st->trump);
		}
		/* A renege shows no void, except in the led suit when the player
		 * broke the duty to trump (he could not follow). */
		if (st->trick_renege[st->ntrick]) {
			unsigned char shown = (unsigned char)(st->voids[seat] & ~before);
			if (st->trick_renege[st->ntrick] != BR_REF_FOLLOW)
				shown &= (unsigned char)~(1u << led);
			st->renege_voids[seat] |= shown;
		}
	}
	card_remove(st->hand[seat], &st->nhand[seat], c);
	st->trick[st->ntrick] = c;
	st->trick_seat[st->ntrick++] = (signed char)seat;
	struct action a = act_card(ACT_PLAY, c);
	emit_action(st, out, seat, &a, -1, EV_ALL);
	/* the next in play, or the trick is complete when that is its leader */
	int s = next_seat(st, seat);
	while (!active(st, s))
		s = next_seat(st, s);
	if (s != st->leader) {
		st->to_act = s;
		keep_duty(st);
		return;
	}
	int w = trick_winner(st);
	st->tricks[w]++;
	st->ntricks++;
	if (out) {
		struct event e;
		ev_init(&e, EV_TRICK);
		e.winner = w;
		e.seat = w;
		e.ncards = st->ntrick;
		memcpy(e.cards, st->trick, (size_t)st->ntrick);
		memcpy(e.card_seat, st->trick_seat, (size_t)st->ntrick);
		e.points = 0;
		e.value = st->tricks[w];   /* the winner's tricks in this deal */
		ev_emit(out, &e);
	}
	announce_reneges(st, out);
	for (int i = 0; i < st->ntrick; i++)
		st->gone[st->ngone++] = st->trick[i];
	memset(st->trick, 0, sizeof st->trick);
	memset(st->trick_seat, 0, sizeof st->trick_seat);
	st->ntrick = 0;
	if (st->ntricks == st->ncards) {
		end_deal(st, out);
		return;
	}
	st->leader = w;
	st->to_act = w;
	keep_duty(st);
}

/* ---- the interface ---- */

static int init_fn(void *vst, const struct game_setup *setup, char *err, size_t errlen)
{
	struct bourre_state *st = vst;
	memset(st, 0, sizeof *st);
	if (setup->players < 2 || setup->players > BR_MAX_SEATS)
		return errf(err, errlen, "Bourre is played by 2 to 8 players");
	st->players = setup->players;
	const struct rules *r = setup->rules;
	struct rules defaults;
	if (!r) {
		rules_init(&defaults, RULES, NRULES);
		r = &defaults;
	}
	st->chips0 = rules_get(r, "chips");
	st->limit = rules_get(r, "limit");
	st->ante_double = rules_get(r, "ante") == 1;
	st->trump_mode = rules_get(r, "trump");
	st->simultaneous = rules_get(r, "declare") == 1;
	st->draw_separate = rules_get(r, "draw") == 1;
	st->four = rules_get(r, "variant") == 1;
	st->hands_max = rules_get(r, "hands");
	st->strict = rules_get(r, "strict");
	st->ncards = st->four ? 4 : 5;
	if (st->four)
		st->trump_mode = BR_TRUMP_SEPARATE;
	st->stack = setup->stack;
	rng_seed(&st->rng, setup->seed);
	if (setup->dealer >= 0 && setup->dealer < st->players)
		st->dealer = setup->dealer;
	else
		st->dealer = (int)rng_below(&st->rng, (uint32_t)st->players);
	for (int s = 0; s < st->players; s++)
		st->chips[s] = st->chips0;
	st->to_act = -1;
	st->lone = -1;
	st->leader = -1;
	st->dealer_took = -1;
	for (int s = 0; s < BR_MAX_SEATS; s++)
		st->ndrew[s] = -1;
	return 0;
}

static void start_fn(void *vst, const struct sink *out)
{
	struct bourre_state *st = vst;
	start_deal(st, out);
}

static int to_act_fn(const void *vst)
{
	const struct bourre_state *st = vst;
	return st->phase == BR_PH_OVER ? -1 : st->to_act;
}

static int legal_fn(const void *vst, struct action *out, int max)
{
	const struct bourre_state *st = vst;
	int n = 0, s = st->to_act;
	if (st->phase == BR_PH_OVER || s < 0)
		return 0;
	switch (st->phase) {
	case BR_PH_DECLARE:
		if (!ace_forces(st, s) && n < max)
			out[n++] = act_simple(ACT_PASS);
		if ((!st->four || can_stay_four(st, s)) && n < max)
			out[n++] = act_simple(ACT_STAY);
		break;
	case BR_PH_CONFIRM:
		out[n++] = act_simple(ACT_PASS);
		if (n < max)
			out[n++] = act_simple(ACT_STAY);
		break;
	case BR_PH_TAKE:
		out[n++] = act_simple(ACT_TAKE);
		if (n < max)
			out[n++] = act_simple(ACT_LEAVE);
		break;
	case BR_PH_DISCARD: {
		/* One entry: every set of the hand's cards from min to max cards. */
		int min, mx;
		bourre_discard_range(st, s, &min, &mx);
		struct action a = act_simple(ACT_DISCARD);
		a.sets = 1;
		a.ncards = (unsigned char)st->nhand[s];
		memcpy(a.cards, st->hand[s], (size_t)st->nhand[s]);
		a.amount = min;
		a.amount_max = mx;
		out[n++] = a;
		break;
	}
	case BR_PH_PLAY: {
		/* The proper cards first; a strict table accepts the others too.
		 * The duty is the seat's, the same for every card. */
		struct bourre_duty fresh;
		uint64_t ok = duty_of(st, s, &fresh)->ok;
		for (int i = 0; i < st->nhand[s] && n < max; i++)
			if (ok & bit(st->hand[s][i])) {
				struct action *a = &out[n++];
				memset(a, 0, sizeof *a);
				a->kind = ACT_PLAY;
				a->ncards = 1;
				a->cards[0] = st->hand[s][i];
			}
		for (int i = 0; st->strict && i < st->nhand[s] && n < max; i++)
			if (!(ok & bit(st->hand[s][i])))
				out[n++] = act_card(ACT_PLAY, st->hand[s][i]);
		break;
	}
	}
	return n;
}

static int apply_unchecked(void *vst, const struct action *a, const struct sink *out, struct refusal *why)
{
	struct bourre_state *st = vst;
	struct refusal dummy;
	if (!why)
		why = &dummy;
	ref(why, 0, CARD_NONE, -1);
	int s = st->to_act;
	if (st->phase == BR_PH_OVER || s < 0) {
		ref(why, BR_REF_GAME_OVER, CARD_NONE, -1);
		return -1;
	}
	switch (st->phase) {
	case BR_PH_DECLARE:
		if (a->kind == ACT_PASS) {
			if (ace_forces(st, s)) {
				ref(why, BR_REF_ACE_STAY, st->turnup, st->trump);
				return -1;
			}
			emit_action(st, out, s, a, -1, st->simultaneous ? EV_SEAT(s) : EV_ALL);
			if (st->simultaneous) {
				st->pending[s] = BR_ST_PASS;
			} else {
				st->status[s] = BR_ST_PASS;
				move_to_dead(st, s);
			}
		} else if (a->kind == ACT_STAY) {
			if (st->four && !can_stay_four(st, s)) {
				ref(why, BR_REF_NEED_TRUMP_CLUB, CARD_NONE, st->trump);
				return -1;
			}
			if (st->simultaneous) {
				emit_action(st, out, s, a, -1, EV_SEAT(s));
				st->pending[s] = BR_ST_STAY;
			} else {
				int cost = stay_cost(st);
				emit_action(st, out, s, a, cost, EV_ALL);
				st->status[s] = BR_ST_STAY;
				pay(st, out, s, -1, cost, EV_PAY_STAY);
			}
		} else {
			ref(why, BR_REF_NOT_NOW, CARD_NONE, -1);
			return -1;
		}
		if (a->kind == ACT_STAY && !st->simultaneous && !st->draw_separate && !st->four) {
			set_draw_turn(st, s);
			return 0;
		}
		if (s == st->dealer) {
			declared(st, out);
			return 0;
		}
		st->to_act = next_seat(st, s);
		if (st->to_act == st->dealer && !st->simultaneous && nstayers(st) == 0)
			dealer_alone(st, out);
		return 0;
	case BR_PH_TAKE:
		if (a->kind != ACT_TAKE && a->kind != ACT_LEAVE) {
			ref(why, BR_REF_NOT_NOW, CARD_NONE, -1);
			return -1;
		}
		emit_action(st, out, s, a, -1, EV_ALL);
		st->dealer_took = a->kind == ACT_TAKE;
		if (st->dealer_took) {
			st->hand[s][st->nhand[s]++] = st->turnup;
			st->turnup_place = BR_TU_HAND;
		}
		st->phase = BR_PH_DISCARD;
		return 0;
	case BR_PH_DISCARD:
		if (a->kind != ACT_DISCARD) {
			ref(why, BR_REF_NOT_NOW, CARD_NONE, -1);
			return -1;
		}
		return do_discard(st, s, a, out, why);
	case BR_PH_CONFIRM:
		if (a->kind == ACT_STAY) {
			emit_action(st, out, s, a, 1, EV_ALL);
			pay(st, out, s, -1, 1, EV_PAY_STAY);
		} else if (a->kind == ACT_PASS) {
			emit_action(st, out, s, a, -1, EV_ALL);
			st->status[s] = BR_ST_PASS;
			move_to_dead(st, s);
		} else {
			ref(why, BR_REF_NOT_NOW, CARD_NONE, -1);
			return -1;
		}
		st->confirmed[s] = 1;
		confirm_turn(st, out, s);
		return 0;
	case BR_PH_PLAY:
		if (a->kind != ACT_PLAY || a->ncards != 1) {
			ref(why, BR_REF_NOT_NOW, CARD_NONE, -1);
			return -1;
		}
	{
		/* The rules of play weighed once a turn: a proper card is played
		 * at once; one that breaks a rule is refused, or played as a
		 * renege on a strict table. */
		struct refusal broken;
		struct bourre_duty fresh;
		card_t c = a->cards[0];
		if (c != CARD_NONE && c < 64 && (duty_of(st, s, &fresh)->ok & bit(c))) {
			ref(&broken, 0, CARD_NONE, -1);
			do_play(st, s, c, &broken, out);
			return 0;
		}
		int code = bourre_check_play(st, s, a->cards[0], &broken);
		if (code != 0 && (!st->strict || code == BR_REF_NOT_HELD)) {
			*why = broken;
			return -1;
		}
		do_play(st, s, a->cards[0], &broken, out);
		return 0;
	}
	}
	ref(why, BR_REF_NOT_NOW, CARD_NONE, -1);
	return -1;
}

static int hand_fn(const void *vst, int seat, card_t *out)
{
	const struct bourre_state *st = vst;
	int n = 0;
	for (int i = 0; i < st->nhand[seat]; i++)
		if (st->hand[seat][i])
			out[n++] = st->hand[seat][i];
	card_sort(out, n, NULL);
	return n;
}

static void redact_fn(void *vst, int seat)
{
	struct bourre_state *st = vst;
	for (int s = 0; s < st->players; s++) {
		if (s == seat)
			continue;
		for (int i = 0; i < st->nhand[s]; i++)
			if (!(st->hand[s][i] == st->turnup && st->turnup_place == BR_TU_HAND &&
			      s == st->dealer))
				st->hand[s][i] = CARD_NONE;
		if (st->pending[s])
			st->pending[s] = BR_ST_HIDDEN;
	}
	for (int i = st->stock_pos; i < st->stock_n; i++)
		st->stock[i] = CARD_NONE;
	for (int i = 0; i < st->ndead; i++)
		if (st->dead_by[i] != seat)
			st->dead[i] = CARD_NONE;
	/* A renege is the offender's secret until the trick is complete. */
	for (int i = 0; i < st->ntrick; i++)
		if (st->trick_seat[i] != seat) {
			st->trick_renege[i] = 0;
			st->trick_renege_card[i] = CARD_NONE;
			st->trick_renege_suit[i] = 0;
		}
	for (int s = 0; s < st->players; s++)
		if (s != seat)
			st->renege_voids[s] = 0;
	st->stack = NULL;
	rng_seed(&st->rng, 0x5eedULL);
	keep_duty(st);   /* as the seat sees it */
}

/* Deal `cards` into the empty slots; a hand of a seat shown void in a suit
 * gets none of it when possible. */
static void resample_fn(void *vst, int seat, struct rng *rng)
{
	struct bourre_state *st = vst;
	uint64_t known = 0;
	for (int s = 0; s < st->players; s++)
		for (int i = 0; i < st->nhand[s]; i++)
			if (st->hand[s][i])
				known |= bit(st->hand[s][i]);
	for (int i = st->stock_pos; i < st->stock_n; i++)
		if (st->stock[i])
			known |= bit(st->stock[i]);
	for (int i = 0; i < st->ndead; i++)
		if (st->dead[i])
			known |= bit(st->dead[i]);
	known |= played_mask(st);
	if (st->turnup_place == BR_TU_TABLE)
		known |= bit(st->turnup);
	card_t pool[BR_PACK];
	int np = 0;
	card_t full[BR_PACK];
	int nf = card_pack_full(full, 1);
	for (int i = 0; i < nf; i++)
		if (!(known & bit(full[i])))
			pool[np++] = full[i];
	int placed = 0;
	for (int attempt = 0; attempt < 40 && !placed; attempt++) {
		card_shuffle(pool, np, rng);
		card_t left[BR_PACK];
		int nl = np;
		memcpy(left, pool, (size_t)np);
		struct bourre_state t = *st;
		int ok = 1;
		/* the most constrained hands first */
		for (int pass = 0; pass < 2 && ok; pass++)
			for (int s = 0; s < st->players && ok; s++) {
				if (s == seat || (pass == 0) != (st->voids[s] != 0))
					continue;
				for (int i = 0; i < t.nhand[s]; i++) {
					if (t.hand[s][i])
						continue;
					int k = 0;
					while (k < nl && attempt < 39 && ((st->voids[s] >> card_suit(left[k])) & 1))
						k++;
					if (k == nl) {
						ok = 0;
						break;
					}
					t.hand[s][i] = left[k];
					card_remove_at(left, &nl, k);
				}
			}
		if (!ok)
			continue;
		for (int i = t.stock_pos; i < t.stock_n; i++)
			if (!t.stock[i])
				t.stock[i] = left[--nl];
		for (int i = 0; i < t.ndead; i++)
			if (!t.dead[i])
				t.dead[i] = left[--nl];
		*st = t;
		placed = 1;
	}
	for (int s = 0; s < st->players; s++)
		if (st->pending[s] == BR_ST_HIDDEN)
			st->pending[s] = (has_suit(st, s, st->trump) || st->four) ? BR_ST_STAY : BR_ST_PASS;
	rng_seed(&st->rng, rng_next(rng));
	keep_duty(st);
}

static int standings_fn(const void *vst, int *out)
{
	const struct bourre_state *st = vst;
	memcpy(out, st->chips, sizeof(int) * (size_t)st->players);
	return st->players;
}

static void chips_fn(const void *vst, int seat, int *held, int *put)
{
	const struct bourre_state *st = vst;
	int ok = seat >= 0 && seat < st->players;
	*held = ok ? st->chips[seat] : 0;
	*put = ok ? st->put[seat] : 0;
}

static int hand_number_fn(const void *vst) { return ((const struct bourre_state *)vst)->hand_no; }
static int dealer_fn(const void *vst) { return ((const struct bourre_state *)vst)->dealer; }

static int audit_fn(const void *vst, char *err, size_t errlen)
{
	const struct bourre_state *st = vst;
	long sum = st->pot;
	for (int s = 0; s < st->players; s++)
		sum += st->chips[s];
	if (sum != (long)st->chips0 * st->players)
		return errf(err, errlen, "chips: %ld on the table, %d bought in", sum, st->chips0 * st->players);
	/* Within a deal the stakes grow at most eightfold past the bound. */
	for (int s = 0; s <= st->players; s++) {
		long v = s < st->players ? st->chips[s] : st->pot;
		if (v > 9L * BR_STAKES_MAX || v < -9L * BR_STAKES_MAX)
			return errf(err, errlen, "%s: %ld, beyond the bound of the stakes", s < st->players ? "chips" : "pot", v);
	}
	if (st->hand_no == 0)
		return 0;
	int count[64] = { 0 };
	int total = 0;
	for (int s = 0; s < st->players; s++) {
		if (st->nhand[s] < 0 || st->nhand[s] > BR_HAND_MAX)
			return errf(err, errlen, "seat %d holds %d cards", s, st->nhand[s]);
		if (st->status[s] == BR_ST_PASS && st->nhand[s])
			return errf(err, errlen, "seat %d passed but holds cards", s);
		for (int i = 0; i < st->nhand[s]; i++, total++)
			count[st->hand[s][i] & 63]++;
	}
	for (int i = st->stock_pos; i < st->stock_n; i++, total++)
		count[st->stock[i] & 63]++;
	for (int i = 0; i < st->ndead; i++, total++)
		count[st->dead[i] & 63]++;
	for (int i = 0; i < st->ngone; i++, total++)
		count[st->gone[i] & 63]++;
	for (int i = 0; i < st->ntrick; i++, total++)
		count[st->trick[i] & 63]++;
	if (st->turnup_place == BR_TU_TABLE) {
		count[st->turnup & 63]++;
		total++;
	}
	if (total != BR_PACK)
		return errf(err, errlen, "%d cards in play, not 52", total);
	for (int r = RANK_TWO; r <= RANK_ACE; r++)
		for (int su = 0; su < 4; su++) {
			card_t c = card_make(r, su);
			if (count[c] != 1) {
				char b[CARD_STR_MAX];
				return errf(err, errlen, "card %s is in %d places", card_str(c, b), count[c]);
			}
		}
	if (st->phase == BR_PH_PLAY) {
		int tsum = 0;
		for (int s = 0; s < st->players; s++) {
			tsum += st->tricks[s];
			if (!active(st, s))
				continue;
			int played = 0;
			for (int i = 0; i < st->ntrick; i++)
				played += st->trick_seat[i] == s;
			if (st->nhand[s] != st->ncards - st->ntricks - played)
				return errf(err, errlen, "seat %d holds %d cards after %d tricks", s, st->nhand[s],
				            st->ntricks);
		}
		if (tsum != st->ntricks)
			return errf(err, errlen, "%d tricks counted, %d played", tsum, st->ntricks);
		if (st->ntrick >= nstayers(st))
			return errf(err, errlen, "a full trick left on the table");
	}
	for (int i = 0; i < BR_MAX_SEATS; i++) {
		if ((st->reneges[i] || st->trick_renege[i]) && !st->strict)
			return errf(err, errlen, "a renege without the strict table");
		if (st->trick_renege[i] && i >= st->ntrick)
			return errf(err, errlen, "a renege recorded outside the trick");
	}
	if (st->phase != BR_PH_OVER && (st->to_act < 0 || st->to_act >= st->players))
		return errf(err, errlen, "no seat to act");
	return 0;
}

static int apply_fn(void *vst, const struct action *a, const struct sink *out, struct refusal *why)
{
	game_assert_before(vst, a);
	int rc = apply_unchecked(vst, a, out, why);
	return game_assert_after(vst, to_act_fn(vst), rc, why);
}

static int trick_fn(const void *vst, int *seat, card_t *cards)
{
	const struct bourre_state *st = vst;
	for (int i = 0; i < st->ntrick; i++) {
		seat[i] = st->trick_seat[i];
		cards[i] = st->trick[i];
	}
	return st->ntrick;
}

const struct game_ops bourre_ops = {
	.name = "bourre",
	.title = "Bourré",
	.min_players = 2,
	.max_players = 8,
	.default_players = 7,
	.clockwise = 1,
	.lower_wins = 0,
	.teams = 0,
	.state_size = sizeof(struct bourre_state),
	.rules = RULES,
	.nrules = NRULES,
	.pack = pack_fn,
	.init = init_fn,
	.start = start_fn,
	.to_act = to_act_fn,
	.legal = legal_fn,
	.apply = apply_fn,
	.hand = hand_fn,
	.redact = redact_fn,
	.resample = resample_fn,
	.standings = standings_fn,
	.chips = chips_fn,
	.trick = trick_fn,
	.hand_number = hand_number_fn,
	.dealer = dealer_fn,
	.audit = audit_fn,
};
