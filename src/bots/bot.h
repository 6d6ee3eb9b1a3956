/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bot: computer opponents. A bot sees only a view (the state redacted for
 * its seat), never the real state, so it cannot cheat; it may resample the
 * hidden cards to search. Levels: 0 random legal moves, 1 simple rules,
 * 2 the default heuristic, 3 and up: stronger (search) where a game has it. */
#ifndef TAPIS_BOT_H
#define TAPIS_BOT_H

#include "core/action.h"
#include "core/game.h"
#include "core/rng.h"

#define BOT_LEVEL_DEFAULT 2
#define BOT_LEVEL_MAX 3
/* The time budget of a search (level 3), in milliseconds on this kind of
 * machine. Bots turn it into a fixed number of samples or iterations, so
 * a bot stays deterministic for a seed whatever the machine's speed. */
#define BOT_BUDGET_DEFAULT 40

/* Why the strongest bot chooses an action (the hint key): a code and what
 * the sentence needs. The words layer phrases it (words/talk_hint.h). */
enum bot_why {
	BOT_WHY_BEST,        /* the strongest bot's choice, nothing more to say */
	BOT_WHY_ONLY,        /* the only legal action */
	BOT_WHY_SEARCH,      /* it did best when the rest of the deal was simulated */
	/* trick games; card: the card concerned */
	BOT_WHY_MASTER,      /* a lead: no higher card of its suit is still out */
	BOT_WHY_HIGHER_OUT,  /* a lead to lose: higher cards of its suit are still out */
	BOT_WHY_TAKES,       /* the last card of the trick, and it takes it */
	BOT_WHY_BEATS,       /* it beats `card`, the best card so far */
	BOT_WHY_UNDER,       /* it stays under `card`, the best card so far */
	BOT_WHY_KEEP,        /* it keeps the better cards for later */
	BOT_WHY_SHED,        /* cannot follow: it gets rid of a card that could cost points */
	BOT_WHY_LEAST,       /* cannot win the trick: the least useful card */
	/* betting games; chance and price in percent */
	BOT_WHY_BET,         /* chance to win the pot: worth a bet */
	BOT_WHY_BLUFF,       /* a weak hand: a bet may make the others fold */
	BOT_WHY_CALL,        /* the chance covers the price (the call's share of the pot) */
	BOT_WHY_FOLD,        /* the chance is below the price */
	BOT_WHY_CHECK,       /* free to stay in, with that chance */
	BOT_WHY_WEAK,        /* not worth opening: only that chance */
	BOT_WHY_STRADDLE,    /* for one pot, speak last */
	BOT_WHY_NO_STRADDLE, /* a blind stake is not worth it */
	BOT_WHY_CAVE,        /* chips running low: add a cave */
	BOT_WHY_NO_CAVE,     /* enough chips in front */
	/* Bourré's decisions by simulation of the deal */
	BOT_WHY_STAY,        /* simulated deals favour staying */
	BOT_WHY_PASS,        /* simulated deals show staying would cost chips */
	BOT_WHY_DRAW,        /* of the discards tried in simulated deals, the best */
	/* added later (the numbers of the codes above stay) */
	BOT_WHY_MASTER_RUFF, /* a lead: no higher card of its suit out, but a trump could take it */
	BOT_WHY_DRAW_OUT,    /* a lead: higher cards of its suit are out, this one may draw them */
	BOT_WHY_LEAD_TAKES,  /* a lead where tricks are avoided: no higher card out, the trick is yours */
	BOT_WHY_TAKE_TRUMP,  /* Bourré's dealer: take `card`, the turned trump */
	BOT_WHY_LEAVE_TRUMP, /* Bourré's dealer: leave `card`, the turned trump */
	BOT_WHY_TRUMPS,      /* it trumps `card`, the best card so far */
	/* A fold or a call whose chance and price alone would say otherwise:
	 * what decided it. */
	BOT_WHY_FOLD_BEHIND, /* the chance covers the price, but `behind` players still to speak may raise */
	BOT_WHY_FOLD_DEAL,   /* the chance covers the price, not what the rest of the deal may cost */
	BOT_WHY_CALL_LOW,    /* the chance is no more than the price, but the pot may pay more later */
	BOT_WHY_DRAW_TRUMPS, /* a lead of a trump: higher trumps are out, this one may draw them */
};

struct bot_reason {
	int code;      /* enum bot_why */
	card_t card;   /* the card the reason speaks of, or CARD_NONE */
	int chance;    /* percent, or -1 */
	int price;     /* percent, or -1 */
	/* Bourré's stay, pass and draw: the cards the reason names (the
	 * trumps and side aces; the cards kept) and the chips at stake (the
	 * pot a bourré pays), 0 none. */
	int ncards;
	card_t cards[8];
	int amount;
	/* A straddle (carre) offered or declined: which one, as the betting
	 * games name them (enum vy_straddle_name), 0 none. */
	int straddle;
	/* A fold said by the players still to speak: how many, 0 none. */
	int behind;
};

struct bot_ops {
	const char *game;  /* game_ops name */
	/* Choose a legal action for `seat` (the seat to act) from its view. */
	void (*choose)(const void *view, int seat, int level, int budget, struct rng *rng, struct action *out);
	/* The strongest level's choice and why (NULL: choose at BOT_LEVEL_MAX,
	 * and the reason is BOT_WHY_SEARCH). */
	void (*hint)(const void *view, int seat, int budget, struct rng *rng, struct action *out,
	             struct bot_reason *why);
	/* Optional: 0 for a legal action no bot plays on purpose (a renege that
	 * a strict Bourre table accepts), 1 otherwise; NULL: every legal action
	 * is proper. Random play and the fallback keep to proper actions. */
	int (*proper)(const void *st, const struct action *a);
};

/* Every function below takes the game and its bot (app/registry pairs
 * them; NULL: the game has no bot, and every choice is random). */

/* A uniformly random legal action, proper when the game's bot says which
 * are (an amount range gives a random amount). */
void bot_random(const struct game_ops *g, const struct bot_ops *b, const void *st, struct rng *rng,
                struct action *out);

/* The whole decision for a seat: makes the view (a redacted copy of st),
 * asks the game's bot at that level (random at level 0 or with no bot),
 * and checks the answer is legal (falls back to random otherwise). */
void bot_choose(const struct game_ops *g, const struct bot_ops *b, const void *st, int level, struct rng *rng,
                struct action *out);
/* The same with a search budget (ms, see BOT_BUDGET_DEFAULT). */
void bot_choose_budget(const struct game_ops *g, const struct bot_ops *b, const void *st, int level, int budget,
                       struct rng *rng, struct action *out);

/* The hint key: what the strongest bot would do now for the seat to act, and
 * why. Sees only that seat's view, like every bot. The action is legal. */
void bot_hint(const struct game_ops *g, const struct bot_ops *b, const void *st, int budget, struct rng *rng,
              struct action *out, struct bot_reason *why);

/* A trick in progress as a trick game's hint sees it, for bot_trick_reason. */
struct bot_trick {
	int ntrick;      /* cards already played to the trick */
	int nplay;       /* cards the trick will hold */
	card_t best;     /* the card winning the trick so far (CARD_NONE when leading) */
	int avoid;       /* 1: tricks are to be avoided (La Bouillabaisse but its last round) */
	int holds_led;   /* 1: the hand holds the suit led */
};
/* Why a card is played in that trick: `beats` (it beats the best card so
 * far), `higher_out` (unseen cards of its suit above it, -1 unknown),
 * `lowest` (the lowest of its suit in the hand). */
void bot_trick_reason(const struct bot_trick *t, card_t c, int beats, int higher_out, int lowest,
                      struct bot_reason *why);
/* What the hand tells of card c (ranks in the usual order): sets
 * t->holds_led from the trick's cards (t->ntrick of them), and returns 1
 * when c is the lowest of its suit in the hand. */
int bot_trick_hand(struct bot_trick *t, const card_t *hand, int n, const card_t *trick, card_t c);

#endif
