/* SPDX-License-Identifier: GPL-3.0-or-later */
/* yardstick: the least a random playout of a game can cost on this
 * machine, to weigh the rules core's playouts against (`tapis bench`,
 * docs/performance.md, "Playouts against a yardstick").
 *
 *   yardstick GAME [SECONDS]   prints "GAME DEALS-PER-CPU-SECOND"
 *
 * A plain loop of the game's rules on masks of cards (bit rank*4+suit),
 * random choices where the players choose, as `tapis bench` plays them
 * (each legal choice alike), with none of what the rules core keeps
 * besides: no events, no views, no refusals told, no interface. Not the
 * referee of anything: the rules core is (tests/check_*.c). Built by the
 * Makefile, not installed. Bourré, La Bouillabaisse and Le Brouc so far. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* xoshiro256**, seeded by splitmix64 (the generator kind of core/rng). */
struct gen {
	uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static void gen_seed(struct gen *g, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		g->s[i] = z ^ (z >> 31);
	}
}

static uint64_t gen_next(struct gen *g)
{
	uint64_t *s = g->s, r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static unsigned below(struct gen *g, unsigned n)
{
	return (unsigned)(((gen_next(g) >> 32) * n) >> 32);
}

static int count(uint64_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

static int top(uint64_t m) { return 63 - __builtin_clzll(m); }

/* A card of m taken at random (m not empty). */
static int pick(struct gen *g, uint64_t m)
{
	for (unsigned k = below(g, (unsigned)count(m)); k; k--)
		m &= m - 1;
	return __builtin_ctzll(m);
}

#define SUIT(s) ((uint64_t)0x1111111111111111ULL << (s))
#define PACK ((uint64_t)0x0fffffffffffff00ULL)
#define ABOVE(c) ((c) >= 63 ? 0 : ~(((uint64_t)2 << (c)) - 1))

/* A pack of n cards, first..first+n-1, shuffled (Fisher-Yates). */
static void shuffle(struct gen *g, int *pack, int n, int first)
{
	for (int c = 0; c < n; c++)
		pack[c] = first + c;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)below(g, (unsigned)i + 1), x = pack[i];
		pack[i] = pack[j];
		pack[j] = x;
	}
}

/* Deals per CPU-second: whole games of play_game (which counts its deals
 * and returns a figure of the game, summed into *sum so that no compiler
 * drops the loop), a hundred at a time, for about `seconds` of CPU time. */
static double rate(double seconds, long *sum, long (*play_game)(struct gen *g, long *deals))
{
	struct gen g;
	gen_seed(&g, 12345);
	long deals = 0;
	clock_t t0 = clock(), t;
	do {
		for (int k = 0; k < 100; k++)
			*sum += play_game(&g, &deals);
		t = clock();
	} while ((double)(t - t0) / CLOCKS_PER_SEC < seconds);
	return deals / ((double)(t - t0) / CLOCKS_PER_SEC);
}

/* ---- Bourré: seven players, the default rules (docs/rules/bourre.en.md) ---- */

enum { BR_N = 7, BR_CHIPS = 100 };

struct bourre {
	int chips[BR_N], pot, dealer;
	unsigned char exempt[BR_N];
};

/* Sure trump tricks of a hand: its trumps less those an outstanding trump
 * above can take, paired down the ranks. */
static int sure_trumps(uint64_t mine, uint64_t out)
{
	int n = 0, open = 0, pairs = 0;
	for (uint64_t all = mine | out; all; ) {
		int c = top(all);
		all &= ~((uint64_t)1 << c);
		if (out >> c & 1) {
			open++;
		} else {
			n++;
			if (open) {
				open--;
				pairs++;
			}
		}
	}
	return n - pairs;
}

static void bourre_deal(struct bourre *b, struct gen *g)
{
	int pack[52];
	shuffle(g, pack, 52, 8);
	for (int s = 0; s < BR_N; s++)
		if (!b->exempt[s]) {
			b->chips[s]--;
			b->pot++;
		}
	memset(b->exempt, 0, sizeof b->exempt);
	uint64_t hand[BR_N] = { 0 };
	int pos = 0;
	for (int r = 0; r < 5; r++)
		for (int k = 1; k <= BR_N; k++)
			hand[(b->dealer + k) % BR_N] |= (uint64_t)1 << pack[pos++];
	int turnup = pack[pos - 1], trump = turnup & 3;
	uint64_t T = SUIT(trump) & PACK;
	int stock[52], nstock = 0, dead[52], ndead = 0;
	for (int i = pos; i < 52; i++)
		stock[nstock++] = pack[i];
	/* declare and draw together, in turn from the dealer's left */
	unsigned stay = 0;
	for (int k = 1; k <= BR_N; k++) {
		int s = (b->dealer + k) % BR_N;
		if (s == b->dealer && !stay) {
			stay = 1u << s;   /* everyone else passed: the dealer wins alone */
			break;
		}
		int forced = s == b->dealer && (turnup >> 2) == 14;
		if (!forced && below(g, 2) == 0) {
			for (uint64_t m = hand[s]; m; m &= m - 1)
				dead[ndead++] = __builtin_ctzll(m);
			hand[s] = 0;
			continue;
		}
		stay |= 1u << s;
		/* a random set of the hand thrown (each of the 32 alike), as many drawn */
		unsigned set = below(g, 32);
		int i = 0;
		for (uint64_t m = hand[s]; m; m &= m - 1, i++)
			if (set >> i & 1) {
				int c = __builtin_ctzll(m);
				hand[s] &= ~((uint64_t)1 << c);
				dead[ndead++] = c;
			}
		while (count(hand[s]) < 5) {
			if (!nstock) {
				for (int d = ndead - 1; d > 0; d--) {
					int j = (int)below(g, (unsigned)d + 1), x = dead[d];
					dead[d] = dead[j];
					dead[j] = x;
				}
				memcpy(stock, dead, sizeof(int) * (size_t)ndead);
				nstock = ndead;
				ndead = 0;
			}
			hand[s] |= (uint64_t)1 << stock[--nstock];
		}
	}
	int nst = count(stay), tricks[BR_N] = { 0 };
	if (nst == 1) {
		int w = __builtin_ctz(stay);
		b->chips[w] += b->pot;
		b->pot = 0;
		b->dealer = (b->dealer + 1) % BR_N;
		return;
	}
	/* five tricks */
	uint64_t gone = 0;
	int lead = (b->dealer + 1) % BR_N;
	while (!(stay >> lead & 1))
		lead = (lead + 1) % BR_N;
	for (int t = 0; t < 5; t++) {
		int s = lead, best = -1, winner = -1, led = -1, played = 0;
		uint64_t table = 0;
		for (int k = 0; k < nst; k++, s = (s + 1) % BR_N) {
			while (!(stay >> s & 1))
				s = (s + 1) % BR_N;
			uint64_t h = hand[s], ok = h;
			int cinch = count(h & T) + tricks[s] >= 3 &&
			            tricks[s] + sure_trumps(h & T, T & ~h & ~gone) >= 3;
			int trump_ok = 1;
			if (played) {
				int trumped = led != trump && (best & 3) == trump;
				if (h & SUIT(led)) {
					ok = h & SUIT(led);
					if (!trumped && (ok & ABOVE(best)))
						ok &= ABOVE(best);
					trump_ok = led == trump;
				} else if (h & T) {
					ok = h & T;
					if ((best & 3) == trump && (ok & ABOVE(best)))
						ok &= ABOVE(best);
				} else {
					trump_ok = 0;
				}
			}
			if (cinch && trump_ok && (h & T) && (!played || k < nst - 1)) {
				/* the highest trump, or one that counts as it */
				uint64_t gap = T & ~h & ~gone & ~table & ~ABOVE(top(h & T)) & ~((uint64_t)1 << top(h & T));
				uint64_t tops = gap ? (h & T & ABOVE(top(gap))) : (h & T);
				if (ok & tops)
					ok &= tops;
			}
			int c = pick(g, ok);
			hand[s] &= ~((uint64_t)1 << c);
			table |= (uint64_t)1 << c;
			if (!played) {
				led = c & 3;
				best = c;
				winner = s;
			} else if (((c & 3) == (best & 3) && c > best) || ((c & 3) == trump && (best & 3) != trump)) {
				best = c;
				winner = s;
			}
			played++;
		}
		gone |= table;
		tricks[winner]++;
		lead = winner;
	}
	int top_tricks = 0, nbest = 0, w = -1, pot = b->pot;
	for (int s = 0; s < BR_N; s++)
		if (stay >> s & 1) {
			if (tricks[s] > top_tricks) {
				top_tricks = tricks[s];
				nbest = 1;
				w = s;
			} else if (tricks[s] == top_tricks) {
				nbest++;
			}
		}
	if (nbest == 1) {
		b->chips[w] += pot;
		b->pot = 0;
	} else {
		for (int s = 0; s < BR_N; s++)
			if (stay >> s & 1 && tricks[s] == top_tricks)
				b->exempt[s] = 1;
	}
	for (int s = 0; s < BR_N; s++)
		if (stay >> s & 1 && tricks[s] == 0) {
			b->chips[s] -= pot;
			b->pot += pot;
			b->exempt[s] = 1;
		}
	b->dealer = (b->dealer + 1) % BR_N;
}

/* A game of 50 deals from fresh chips, as the bench plays it (or until
 * the pot passes its bound): the first player's chips. */
static long bourre_game(struct gen *g, long *deals)
{
	struct bourre b;
	memset(&b, 0, sizeof b);
	for (int s = 0; s < BR_N; s++)
		b.chips[s] = BR_CHIPS;
	b.dealer = (int)below(g, BR_N);
	for (int d = 0; d < 50 && b.pot <= 100000000; d++, (*deals)++)
		bourre_deal(&b, g);
	return b.chips[0];
}

/* ---- La Bouillabaisse: four players, one pack, six rounds (docs/rules/bouillabaisse.en.md) ---- */

enum { BO_N = 4, BO_ROUNDS = 6 };

/* A game: a suit, a figure (jack, queen or king) and a card drawn; each
 * round the whole pack dealt, thirteen tricks, following suit when one
 * can, the highest of the suit led taking; the round's points counted.
 * The sum of the scores is returned (kept by the caller). */
static long bouillabaisse_game(struct gen *g, long *deals)
{
	int suit = (int)below(g, 4), figure = 11 + (int)below(g, 3), chosen = 8 + (int)below(g, 52);
	uint64_t SU = SUIT(suit) & PACK, FIG = (uint64_t)0xf << (figure * 4), CARD = (uint64_t)1 << chosen;
	long score[BO_N] = { 0 };
	int dealer = (int)below(g, BO_N);
	for (int round = 1; round <= BO_ROUNDS; round++, (*deals)++) {
		int pack[52];
		shuffle(g, pack, 52, 8);
		uint64_t hand[BO_N] = { 0 }, taken[BO_N] = { 0 };
		int tricks[BO_N] = { 0 };
		for (int i = 0; i < 52; i++)
			hand[(dealer + 1 + i) % BO_N] |= (uint64_t)1 << pack[i];
		int lead = (dealer + 1) % BO_N;
		for (int t = 0; t < 52 / BO_N; t++) {
			int led = -1, best = -1, winner = lead;
			uint64_t table = 0;
			for (int k = 0, s = lead; k < BO_N; k++, s = (s + 1) % BO_N) {
				uint64_t ok = led >= 0 && (hand[s] & SUIT(led)) ? hand[s] & SUIT(led) : hand[s];
				int c = pick(g, ok);
				hand[s] &= ~((uint64_t)1 << c);
				table |= (uint64_t)1 << c;
				if (led < 0) {
					led = c & 3;
					best = c;
				} else if ((c & 3) == led && c > best) {
					best = c;
					winner = s;
				}
			}
			taken[winner] |= table;
			tricks[winner]++;
			lead = winner;
		}
		for (int s = 0; s < BO_N; s++) {
			long pts = 0;
			if (round == 1 || round >= 5)
				pts += 5L * tricks[s];
			if (round == 2 || round >= 5)
				pts += 10L * count(taken[s] & SU);
			if (round == 3 || round >= 5)
				pts += 50L * count(taken[s] & FIG);
			if (round >= 4)
				pts += 200L * count(taken[s] & CARD);
			score[s] += round == 6 ? -pts : pts;
		}
		dealer = (dealer + 1) % BO_N;
	}
	return score[0] + score[1] + score[2] + score[3];
}


/* ---- Le Brouc: four players in two teams, 32 cards, the modern game to one game (docs/rules/brouc.en.md) ---- */

/* Cards as bit strength*4+suit, strength from the seven (0) up to the ten
 * (6) and the ace (7): 7 8 9 J Q K 10 A. */
enum { BC_J = 3, BC_Q = 4, BC_K = 5 };
static const int BC_POINTS[8] = { 0, 0, 0, 2, 3, 4, 10, 11 };
#define BC_SUIT(s) ((uint64_t)0x11111111ULL << (s))
#define BC_BIT(st, s) ((uint64_t)1 << ((st) * 4 + (s)))

/* The combination of suit s in mask m: 0, K-Q 20, K-Q-J 30 (doubled in trumps). */
static int bc_combo(uint64_t m, int s, int trump)
{
	if (!(m & BC_BIT(BC_K, s)) || !(m & BC_BIT(BC_Q, s)))
		return 0;
	int v = m & BC_BIT(BC_J, s) ? 30 : 20;
	return s == trump ? 2 * v : v;
}

static int bc_hand_combos(uint64_t h, int trump)
{
	int v = 0;
	for (int s = 0; s < 4; s++)
		v += bc_combo(h, s, trump);
	return v;
}

/* A match of one game: deals until a team goes above 30 (or a cape), at
 * most 50 deals as the bench plays it; the deals counted. */
static long brouc_game(struct gen *g, long *deals)
{
	int score[2] = { 0, 0 }, dealer = (int)below(g, 4);
	for (int d = 0; d < 50; d++) {
		(*deals)++;
		int pack[32];
		shuffle(g, pack, 32, 0);
		uint64_t hand[4] = { 0 };
		for (int i = 0; i < 32; i++)
			hand[(dealer + 1 + i / 8) % 4] |= (uint64_t)1 << pack[i];
		int trump = pack[31] & 3;   /* the dealer's last card */
		int pts[2] = { 0, 0 }, tricks[2] = { 0, 0 }, first[2] = { 0, 0 }, won = -1;
		int lead = (dealer + 1) % 4;
		for (int t = 0; t < 8 && won < 0; t++) {
			int led = -1, best = -1, winner = lead, high_trump = -1;
			uint64_t table = 0;
			for (int k = 0, s = lead; k < 4; k++, s = (s + 1) % 4) {
				uint64_t h = hand[s], ok = h;
				if (led >= 0 && (h & BC_SUIT(led))) {
					ok = h & BC_SUIT(led);
				} else if (led >= 0 && led != trump && high_trump >= 0) {
					/* no undertrumping, unless the low trump makes a
					 * K-Q (-J) of trumps with the trick's, or the hand
					 * holds nothing else */
					uint64_t low = 0;
					for (int st = 0; st <= high_trump >> 2; st++)
						low |= BC_BIT(st, trump);
					uint64_t bad = h & low;
					for (uint64_t m = bad; m; m &= m - 1) {
						int c = __builtin_ctzll(m), r = c >> 2;
						uint64_t tt = table & BC_SUIT(trump);
						if ((r == BC_K || r == BC_Q || r == BC_J) && !(tt & ((uint64_t)1 << c)) &&
						    bc_combo(tt | ((uint64_t)1 << c), trump, trump) &&
						    (r != BC_J || bc_combo(tt | ((uint64_t)1 << c), trump, trump) % 30 == 0))
							bad &= ~((uint64_t)1 << c);
					}
					if (h & ~bad)
						ok = h & ~bad;
				}
				int c = pick(g, ok);
				hand[s] &= ~((uint64_t)1 << c);
				table |= (uint64_t)1 << c;
				int cs = c & 3;
				if (led < 0) {
					led = cs;
					best = c;
				} else if ((cs == (best & 3) && c > best) || (cs == trump && (best & 3) != trump)) {
					best = c;
					winner = s;
				}
				if (cs == trump && c > high_trump)
					high_trump = c;
			}
			int team = winner & 1, p = 0;
			for (uint64_t m = table; m; m &= m - 1)
				p += BC_POINTS[__builtin_ctzll(m) >> 2];
			for (int su = 0; su < 4; su++)
				p += bc_combo(table, su, trump);
			if (!first[team]) {
				first[team] = 1;
				p += bc_hand_combos(hand[winner], trump) + bc_hand_combos(hand[(winner + 2) % 4], trump);
			}
			pts[team] += p;
			tricks[team]++;
			lead = winner;
			for (int tm = 0; tm < 2; tm++)
				if (10 * score[tm] + pts[tm] > 300)
					won = tm;
		}
		for (int tm = 0; tm < 2; tm++)
			score[tm] += (pts[tm] + 5) / 10;
		dealer = (dealer + 1) % 4;
		if (won >= 0 || tricks[0] == 8 || tricks[1] == 8)
			break;
	}
	return score[0] - score[1];
}


int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: yardstick GAME [SECONDS]\n");
		return 2;
	}
	double seconds = argc == 3 ? atof(argv[2]) : 1.0;
	if (!(seconds > 0 && seconds <= 600)) {
		fprintf(stderr, "yardstick: SECONDS from 0 to 600\n");
		return 2;
	}
	/* Bourré's games counted in deals of 50 from fresh chips, La
	 * Bouillabaisse's in rounds of whole games of six, Le Brouc's in
	 * deals of whole matches of one game. */
	static const struct {
		const char *name;
		long (*play_game)(struct gen *g, long *deals);
	} games[] = { { "bourre", bourre_game }, { "bouillabaisse", bouillabaisse_game }, { "brouc", brouc_game } };
	for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
		if (!strcmp(argv[1], games[i].name)) {
			long sum = 0;
			double r = rate(seconds, &sum, games[i].play_game);
			printf("%s %.0f\n", games[i].name, r);
			return sum == 0x7fffffff;
		}
	fprintf(stderr, "yardstick: no yardstick for '%s' (only bourre, bouillabaisse, brouc)\n", argv[1]);
	return 1;
}
