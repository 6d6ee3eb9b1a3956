/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hashmap: the one hash table of strings. An index, by open addressing,
 * of entries 0..n-1 that the caller keeps (a catalogue's msgids, the
 * lobby's names): each slot holds an entry's number, and the caller says
 * what the key of entry i is. Made once and searched many times (a
 * catalogue), or kept in step with entries that come, go and move (the
 * lobby's people and connections, moderation's people). */
#ifndef TAPIS_HASHMAP_H
#define TAPIS_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct hashmap {
	uint32_t *slot;   /* entry + 1, 0 empty */
	uint32_t mask;    /* slots - 1: a power of two, at least twice the entries */
	uint32_t n;       /* the entries held */
};

/* The key of entry i (len bytes). */
typedef const char *(*hashmap_key)(const void *ctx, uint32_t i, size_t *len);

/* Index entries 0..n-1; an entry whose key an earlier one has is left
 * out (a search finds the first). 0, or -1 when n is past 2^28. */
int hashmap_make(struct hashmap *m, uint32_t n, hashmap_key key, const void *ctx);
/* The entry whose key is the len bytes at k, or -1. */
long hashmap_find(const struct hashmap *m, const char *k, size_t len, hashmap_key key, const void *ctx);
void hashmap_free(struct hashmap *m);

/* Kept in step (a map zeroed, or made, then these). Entry i now has a key
 * (the slots grow as needed; when an entry held has the same key, that
 * one is found until it leaves). */
void hashmap_add(struct hashmap *m, uint32_t i, hashmap_key key, const void *ctx);
/* Entry i, held, leaves (its key still readable). */
void hashmap_remove(struct hashmap *m, uint32_t i, hashmap_key key, const void *ctx);
/* Entry from, held, is now entry to (its key read at to). */
void hashmap_move(struct hashmap *m, uint32_t from, uint32_t to, hashmap_key key, const void *ctx);
/* The hash of n bytes (FNV-1a). */
uint32_t hashmap_hash(const char *s, size_t n);

#endif
