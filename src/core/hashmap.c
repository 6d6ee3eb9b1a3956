/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/hashmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* FNV-1a of the n bytes of s. (Eight bytes at a time saved 1-2 % of the
 * phrasing once each sentence was phrased once a kind of listener and the
 * catalogue's memo skips most hashes: not worth its lines; see
 * docs/performance.md.) */
uint32_t hashmap_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

int hashmap_make(struct hashmap *m, uint32_t n, hashmap_key key, const void *ctx)
{
	memset(m, 0, sizeof *m);
	if (n > (1u << 28))
		return -1;   /* far past any use: the slots would not fit */
	uint32_t size = 16;
	while (size < 2ull * n)
		size *= 2;
	m->slot = xcalloc(size, sizeof *m->slot);
	m->mask = size - 1;
	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		const char *k = key(ctx, i, &len);
		for (uint32_t s = hashmap_hash(k, len) & m->mask;; s = (s + 1) & m->mask) {
			if (!m->slot[s]) {
				m->slot[s] = i + 1;
				break;
			}
			size_t olen;
			const char *other = key(ctx, m->slot[s] - 1, &olen);
			if (olen == len && !memcmp(other, k, len))
				break;
		}
	}
	m->n = 0;
	for (uint32_t s = 0; s <= m->mask; s++)
		m->n += m->slot[s] != 0;
	return 0;
}

long hashmap_find(const struct hashmap *m, const char *k, size_t len, hashmap_key key, const void *ctx)
{
	if (!m->slot)
		return -1;
	for (uint32_t s = hashmap_hash(k, len) & m->mask; m->slot[s]; s = (s + 1) & m->mask) {
		size_t olen;
		const char *other = key(ctx, m->slot[s] - 1, &olen);
		if (olen == len && !memcmp(other, k, len))
			return (long)(m->slot[s] - 1);
	}
	return -1;
}

void hashmap_free(struct hashmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof *m);
}

/* The slot where entry i's key starts its search. */
static uint32_t home(const struct hashmap *m, uint32_t i, hashmap_key key, const void *ctx)
{
	size_t len;
	const char *k = key(ctx, i, &len);
	return hashmap_hash(k, len) & m->mask;
}

/* The slot holding entry i, or -1. */
static long slot_of(const struct hashmap *m, uint32_t i, uint32_t from, hashmap_key key, const void *ctx)
{
	if (!m->slot)
		return -1;
	for (uint32_t s = home(m, from, key, ctx); m->slot[s]; s = (s + 1) & m->mask)
		if (m->slot[s] == i + 1)
			return s;
	return -1;
}

void hashmap_add(struct hashmap *m, uint32_t i, hashmap_key key, const void *ctx)
{
	if (!m->slot || 2ull * (m->n + 1) > (uint64_t)m->mask + 1) {
		/* Twice the slots, the entries held placed again. */
		uint32_t *old = m->slot, oldsize = old ? m->mask + 1 : 0;
		uint32_t size = old ? oldsize * 2 : 16;
		m->slot = xcalloc(size, sizeof *m->slot);
		m->mask = size - 1;
		for (uint32_t s = 0; s < oldsize; s++)
			if (old[s]) {
				uint32_t t = home(m, old[s] - 1, key, ctx);
				while (m->slot[t])
					t = (t + 1) & m->mask;
				m->slot[t] = old[s];
			}
		free(old);
	}
	uint32_t s = home(m, i, key, ctx);
	while (m->slot[s])
		s = (s + 1) & m->mask;
	m->slot[s] = i + 1;
	m->n++;
}

void hashmap_remove(struct hashmap *m, uint32_t i, hashmap_key key, const void *ctx)
{
	long at = slot_of(m, i, i, key, ctx);
	if (at < 0)
		return;
	/* The entries after it in its run that could not be at their home or
	 * before it move back into the hole (no tombstones). */
	uint32_t hole = (uint32_t)at;
	m->slot[hole] = 0;
	m->n--;
	for (uint32_t s = (hole + 1) & m->mask; m->slot[s]; s = (s + 1) & m->mask) {
		uint32_t h = home(m, m->slot[s] - 1, key, ctx);
		/* Stays when its home is in (hole, s], cyclically. */
		int stays = hole < s ? (h > hole && h <= s) : (h > hole || h <= s);
		if (!stays) {
			m->slot[hole] = m->slot[s];
			m->slot[s] = 0;
			hole = s;
		}
	}
}

void hashmap_move(struct hashmap *m, uint32_t from, uint32_t to, hashmap_key key, const void *ctx)
{
	long at = slot_of(m, from, to, key, ctx);
	if (at >= 0)
		m->slot[at] = to + 1;
}
