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
