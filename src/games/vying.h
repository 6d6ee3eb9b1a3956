/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vying: the machinery Bouillotte and Le Brelan share (antes or passe,
 * straddles / carres with buy-back, opening, calling, raising, folding,
 * va-tout and tapis, pots in levels, brelan carre / brelan / point,
 * primaute). Each game fills a struct vying_cfg from its rule options and
 * wraps these functions in its own game_ops. */
#ifndef TAPIS_VYING_H
#define TAPIS_VYING_H

#include "core/game.h"

#define VY_MAX 5        /* seats */
#define VY_MAX_PACK 36
/* The most chips a table holds, every cave bought included: past it a
 * player with no chips leaves instead of buying a new cave, so that no
 * stack, pot or net result can overflow an int. */
#define VY_CHIPS_MAX 1000000000

/* VY_CAVE: before the antes, players with caves waiting (Brelan cave) and
 * less than a full cave in front may add one (`take`) or not (`decline`). */
enum vy_phase { VY_STRADDLE = 1, VY_BET, VY_OVER, VY_CAVE };

/* Combinations, weakest first. */
enum vy_kind { VY_POINT, VY_MISTIGRI, VY_BRELAN, VY_CARRE };

enum vy_straddle { VY_STRADDLE_NO, VY_STRADDLE_YES, VY_STRADDLE_FORCED };

/* Names of the straddles (EV_ACTION points of straddle / buyback). */
enum vy_straddle_name {
	VY_CARRE_1 = 1, VY_CONTRECARRE, VY_TRICARRE, VY_QUADRICARRE, VY_SURCARRE, VY_SURCONTRECARRE
};

/* Refusal codes (struct refusal.code). */
enum vy_refusal {
	VY_REF_NONE,
	VY_REF_OVER,         /* the game is over */
	VY_REF_UNKNOWN,      /* not an action of this game */
	VY_REF_STRADDLE_NOW, /* only straddle / decline (buyback / decline) now */
	VY_REF_NO_STRADDLE,  /* no straddle now (betting has begun) */
	VY_REF_NO_BUYBACK,   /* buy-back is not offered now */
	VY_REF_OPENED,       /* the betting is open: no more pass / open */
	VY_REF_NOT_OPENED,   /* nobody opened: no call / raise / fold yet */
	VY_REF_MIN_OPEN,     /* amount: the minimum opening */
	VY_REF_MIN_RAISE,    /* amount: the minimum raise */
	VY_REF_TOO_MANY,     /* amount: the chips the player has */
	VY_REF_SHORT,        /* not enough chips to open or raise (amount: needed) */
	VY_REF_EXTRA_ROUND,  /* Bouillotte's extra round: raise or stand only */
	VY_REF_CAVE_NOW,     /* before the deal: add a waiting cave (take) or decline */
	VY_REF_NO_RAISE,     /* every other survivor is all in: call or fold (before the opening:
	                        open for no more than amount, the least opening) */
};

/* Options of the shared machinery (plain ints: the state is memcmp-able). */
struct vying_cfg {
	int brelan_rules;    /* 1: Le Brelan's conventions (for speech) */
	int extra_round;     /* Bouillotte: extra raising round with 3+ survivors */
	int fixed_suit;      /* Bouillotte: the first level's winning suit decides the others */
	int antes_stake;     /* 1: antes count in the stakes (Bouillotte); 0: a passe (dead money) */
	int ante_all;        /* every player antes (else the dealer alone, or nobody) */
	int ante_none;       /* no ante / passe at all */
	int ante_chips;      /* chips per ante (Brelan passe_chips, Bouillotte 1) */
	int dealer_extra;    /* the dealer adds this many more (Bouillotte ante=all) */
	int carry_dealer;    /* after an all-pass deal only the new dealer antes 1 (Bouillotte);
	                        else the previous payers pay again (Brelan) */
	int straddle;        /* enum vy_straddle */
	int straddle_max;    /* most straddles in a chain (buy-backs included) */
	int buyback;         /* buy-back offered */
	int straddle_opens;  /* the straddle is an implicit opening (Brelan's carre) */
	int open_min_pot;    /* the opening is at least the passe (Brelan) */
	int short_open;      /* a player short of the minimum may open all in / tapis (Brelan) */
	int brelans;         /* brelans (and brelan carre) count */
	int mistigri;
	int brelan_pay;      /* chips paid for a brelan (a carre: double) */
	int cave;
	int rebuy;           /* a player with no chips buys a new cave before the next deal */
	int caves;           /* caves owned (Brelan cave); 1 otherwise */
	int hands;           /* deals to play, 0 = no limit */
	int npack;
	card_t pack[VY_MAX_PACK];   /* the pack in fixed order (not secret) */
};

struct vying {
	int players;
	struct vying_cfg cfg;
	struct rng rng;
	const struct deckstack *stack;
	int deal_k;          /* packs used so far */
	int hand;            /* deal number from 1 */
	int dealer;
	int phase;           /* enum vy_phase */
	int to_act;
	int chips[VY_MAX];   /* in front of each player */
	int reserve[VY_MAX]; /* caves waiting (Brelan cave) */
	int bought[VY_MAX];  /* chips bought in, reserve included */
	int out[VY_MAX];     /* left the game */
	int in_deal[VY_MAX]; /* dealt in this deal */
	int folded[VY_MAX];
	int stake[VY_MAX];   /* put in during this deal (antes too in Bouillotte) */
	int dead;            /* the passe / carried chips: nobody's stake */
	int paid_passe[VY_MAX]; /* paid the passe this deal */
	int carried;         /* the previous deal was thrown in */
	int dealt;           /* cards dealt */
	int shown;           /* hands shown (showdown done) */
	int npack;
	card_t pack[VY_MAX_PACK];   /* this deal's pack in dealing order */
	card_t hands[VY_MAX][4];    /* 3 cards (4th unused) */
	card_t turn;
	card_t pad_[3];
	/* straddle chain */
	int chain[VY_MAX];   /* chain[j]: the (j+1)-th seat after the dealer */
	int nchain;          /* seats of the chain that straddled */
	int cave_idx;        /* VY_CAVE: position (from dealer+1) of the seat asked */
	int steps;           /* straddles made, buy-backs included */
	int offer;           /* 1 straddle offered to to_act, 2 buy-back */
	int last_straddler;  /* -1 none */
	int nstraddles[VY_MAX]; /* straddles per seat this deal */
	int vol[VY_MAX];     /* chips put in by choice after the deal (open, call, raise) */
	int due[VY_MAX];     /* antes of this deal counted in the stake (Bouillotte) */
	/* betting */
	int opened;
	int high;            /* the largest stake */
	int last_bettor;     /* opener or last raiser, -1 */
	unsigned need;       /* seats that must still speak in this round */
	int extra;           /* in Bouillotte's extra round */
	int called3;         /* the last bet was called while 3 or more were in */
	int order[VY_MAX];   /* before the opening: speaking order */
	int norder, pidx;
	/* last deal's outcome, for speech */
	int win_seat[VY_MAX + 1];   /* winner of each stage (-1 end) */
	int win_amount[VY_MAX + 1];
	int win_kind[VY_MAX + 1];
	int win_suit[VY_MAX + 1];   /* winning suit (point) or -1 */
	int nwins;
};

/* Set up (the cfg already filled). 0 or -1 with a message. */
int vying_init(struct vying *v, const struct game_setup *setup, const struct vying_cfg *cfg,
               char *err, size_t errlen);
void vying_start(struct vying *v, const struct sink *out);
int vying_to_act(const struct vying *v);
int vying_legal(const struct vying *v, struct action *out, int max);
int vying_apply(struct vying *v, const struct action *a, const struct sink *out, struct refusal *why);
int vying_hand(const struct vying *v, int seat, card_t *out);
void vying_redact(struct vying *v, int seat);
void vying_resample(struct vying *v, int seat, struct rng *rng);
int vying_standings(const struct vying *v, int *out);
int vying_hand_number(const struct vying *v);
int vying_dealer(const struct vying *v);
int vying_audit(const struct vying *v, char *err, size_t errlen);

/* Helpers for the bots, the speech and the tests. */
int vying_pot(const struct vying *v);            /* dead money + stakes */
int vying_to_call(const struct vying *v, int seat);
/* Whether the seat holds no more than the bet to match: its call is an all-in. */
int vying_call_short(const struct vying *v, int seat);
/* Whether a raise by the seat could be answered: another survivor still
 * has chips (DECISIONS: with every other survivor all in, nobody can
 * answer a raise, so none is offered, played or announced). */
int vying_may_raise(const struct vying *v, int seat);
int vying_min_open(const struct vying *v, int seat);   /* chips to put in */
int vying_straddle_amount(const struct vying *v);     /* the next straddle / buy-back */
/* The straddle offered now (enum vy_straddle_name): the next of the chain,
 * or the buy-back. */
int vying_straddle_name(const struct vying *v);
int vying_survivors(const struct vying *v);            /* mask of players still in */
/* Pots in levels: amounts[i] and contenders[i] (mask), stakes only; the dead
 * money (passe) is left out. Returns the number of levels (0 when no stake). */
int vying_levels(const struct vying *v, int *amounts, unsigned *contenders);
/* The combination of a hand: kind (enum vy_kind) and its rank (brelan,
 * mistigri's pair), or 0 for point. */
int vying_combo(const struct vying_cfg *cfg, const card_t *h, card_t turn, int *rank);
/* Points of a suit over the hands of the seats in `dealt` and the turned card. */
int vying_suit_points(const card_t hands[][4], unsigned dealt, card_t turn, int suit);
/* Card's point value: A 11, figures and ten 10, others their pip. */
int vying_card_points(card_t c);
/* The winner among `contenders` (mask): returns the seat; kind, suit (of the
 * winning point, -1 for a combination) and points filled. fixed_suit >= 0:
 * Bouillotte's later levels. */
int vying_best(const struct vying *v, unsigned contenders, int fixed_suit, int *kind, int *suit,
               int *points);
/* The suit that wins on the point among contenders, combinations aside:
 * the suit of Bouillotte's later pots. v's rules are changed during the
 * call, and put back. */
int vying_point_suit(struct vying *v, unsigned contenders);
/* The seats in order of primaute (dealer+1 first, the dealer last), of the
 * players dealt in; returns the count. */
int vying_primaute(const struct vying *v, int *order);

/* The game_ops entries Bouillotte and Le Brelan share (the state is a struct
 * vying); a game's table lists them with VYING_GAME_OPS. */
void vying_op_start(void *st, const struct sink *out);
int vying_op_to_act(const void *st);
int vying_op_legal(const void *st, struct action *out, int max);
int vying_op_apply(void *st, const struct action *a, const struct sink *out, struct refusal *why);
int vying_op_hand(const void *st, int seat, card_t *out);
void vying_op_redact(void *st, int seat);
void vying_op_resample(void *st, int seat, struct rng *rng);
int vying_op_standings(const void *st, int *out);
void vying_op_chips(const void *st, int seat, int *held, int *put);
int vying_op_hand_number(const void *st);
int vying_op_dealer(const void *st);
int vying_op_audit(const void *st, char *err, size_t errlen);
#define VYING_GAME_OPS \
	.start = vying_op_start, .to_act = vying_op_to_act, .legal = vying_op_legal, \
	.apply = vying_op_apply, .hand = vying_op_hand, .redact = vying_op_redact, \
	.resample = vying_op_resample, .standings = vying_op_standings, .chips = vying_op_chips, \
	.hand_number = vying_op_hand_number, .dealer = vying_op_dealer, .audit = vying_op_audit

#endif
