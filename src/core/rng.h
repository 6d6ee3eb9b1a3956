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
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Uniform double in [0, 1). */
double rng_unit(struct rng *r);
/* A seed derived from a seed and a stream number (bots use their own streams). */
uint64_t rng_derive(uint64_t seed, uint64_t stream);

#endif
