/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rng: the one seeded random generator (xoshiro256**, seeded by splitmix64).
 * A plain value: copying it copies the stream, so a cloned game replays the
 * same future. */
#ifndef TAPIS_RNG_H
#define TAPIS_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

/* The next and the bounded draws are inline: every shuffle and every
 * random playout draws from them. */
static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0, without modulo bias (Lemire's
 * multiply-and-reject). */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
	uint32_t low = (uint32_t)m;
	if (low < n) {
		uint32_t threshold = (uint32_t)-n % n;
		while (low < threshold) {
			m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}
/* Uniform double in [0, 1). */
double rng_unit(struct rng *r);
/* A seed derived from a seed and a stream number (bots use their own streams). */
uint64_t rng_derive(uint64_t seed, uint64_t stream);

#endif
