/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/auth.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

int auth_init(struct auth *a, int cheap)
{
	memset(a, 0, sizeof *a);
	a->cheap = cheap;
	return sodium_init() < 0 ? -1 : 0;
}

int auth_hash(const struct auth *a, const char *password, char out[AUTH_HASH_MAX])
{
	char h[crypto_pwhash_STRBYTES];
	unsigned long long ops = a->cheap ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE;
	size_t mem = a->cheap ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE;
	if (crypto_pwhash_str_alg(h, password, strlen(password), ops, mem, crypto_pwhash_ALG_ARGON2ID13) != 0)
		return -1;
	snprintf(out, AUTH_HASH_MAX, "%s", h);
	return 0;
}

int auth_verify(const char *hash, const char *password)
{
	return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

void auth_token_hash(const char *token, char out[AUTH_TOKEN_HASH_MAX])
{
	unsigned char h[32];
	crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
	sodium_bin2hex(out, AUTH_TOKEN_HASH_MAX, h, sizeof h);
}

int auth_token_matches(const char *hash, const char *token)
{
	char mine[AUTH_TOKEN_HASH_MAX];
	auth_token_hash(token, mine);
	return strlen(hash) == AUTH_TOKEN_HASH_MAX - 1 && sodium_memcmp(mine, hash, AUTH_TOKEN_HASH_MAX - 1) == 0;
}

void auth_wipe(void *p, size_t n)
{
	sodium_memzero(p, n);
}

/* The slot of a key, a free or the oldest one when absent and make is set. */
static struct auth_slot *slot(struct auth *a, char kind, const char *key, int make)
{
	char k[sizeof a->slot[0].key];
	snprintf(k, sizeof k, "%c:%s", kind, key);
	struct auth_slot *old = NULL;
	for (int i = 0; i < AUTH_SLOTS; i++) {
		struct auth_slot *x = &a->slot[i];
		if (x->key[0] && !strcmp(x->key, k))
			return x;
		if (!old || (old->key[0] && (!x->key[0] || x->last_ms < old->last_ms)))
			old = x;
	}
	if (!make)
		return NULL;
	memset(old, 0, sizeof *old);
	snprintf(old->key, sizeof old->key, "%s", k);
	return old;
}

long long auth_wait(struct auth *a, const char *name, const char *addr, long long now_ms)
{
	long long w = 0;
	struct auth_slot *s[2] = { slot(a, 'n', name, 0), addr ? slot(a, 'a', addr, 0) : NULL };
	for (int i = 0; i < 2; i++)
		if (s[i] && s[i]->until_ms - now_ms > w)
			w = s[i]->until_ms - now_ms;
	return w;
}

static void fail_one(struct auth_slot *s, long long now_ms, int free_fails)
{
	/* A quiet hour forgives. */
	if (now_ms - s->last_ms > 3600 * 1000LL)
		s->fails = 0;
	s->fails++;
	s->last_ms = now_ms;
	if (s->fails > free_fails) {
		int k = s->fails - free_fails - 1;
		long long wait = 1000LL << (k > 6 ? 6 : k); /* 1 s, 2 s, ... 64 s */
		s->until_ms = now_ms + wait;
	}
}

void auth_failed(struct auth *a, const char *name, const char *addr, long long now_ms)
{
	fail_one(slot(a, 'n', name, 1), now_ms, AUTH_FREE_FAILS);
	/* One address may try a few names before it waits as well. */
	if (addr)
		fail_one(slot(a, 'a', addr, 1), now_ms, AUTH_FREE_FAILS * 3);
}

void auth_succeeded(struct auth *a, const char *name)
{
	struct auth_slot *s = slot(a, 'n', name, 0);
	if (s)
		memset(s, 0, sizeof *s);
}
