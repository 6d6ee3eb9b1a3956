/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rating: Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2
 * system"), one per player and game. A rating is the displayed r and RD
 * on the Glicko scale (1500, 350 for a new player) and the volatility
 * sigma. A finished game among N rated people is one rating period for
 * each of them: every other person is an opponent, scored 1 (finished
 * ahead), 0.5 (level) or 0 (behind). */
#ifndef TAPIS_RATING_H
#define TAPIS_RATING_H

#define RATING_START 1500.0
#define RATING_START_RD 350.0
#define RATING_START_SIGMA 0.06
#define RATING_TAU 0.5          /* the system constant: how fast volatility moves */
#define RATING_MAX_GAMES 16     /* opponents in one period (people at one table) */

struct rating {
	double r, rd, sigma;
};

struct rating_game {
	struct rating opp;          /* the opponent's rating before the period */
	double score;               /* 1 win, 0.5 draw, 0 loss */
};

/* A new player's rating. */
void rating_init(struct rating *x);
/* The rating after one period with n games (0: RD grows as for an idle
 * period), with system constant tau. */
struct rating rating_update(struct rating x, const struct rating_game *games, int n, double tau);
/* The ratings of the n players of one finished game (n <= RATING_MAX_GAMES),
 * updated in place from their places: rank[i] is player i's place, 0 the
 * best, equal ranks for a shared place. Everyone's opponents are taken at
 * their ratings before the game. */
void rating_game(struct rating *players, const int *rank, int n, double tau);

#endif
