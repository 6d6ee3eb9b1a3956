/* SPDX-License-Identifier: GPL-3.0-or-later */
/* auth: passwords (libsodium's crypto_pwhash_str, Argon2id) and the limit
 * on wrong passwords, per name and per address. A password is only ever
 * hashed or compared here and never written anywhere else. */
#ifndef TAPIS_AUTH_H
#define TAPIS_AUTH_H

#include <stddef.h>

#define AUTH_HASH_MAX 128
#define AUTH_SLOTS 256      /* names and addresses remembered for the limit */
#define AUTH_FREE_FAILS 3   /* wrong passwords allowed before waiting */

struct auth_slot {
	char key[112];          /* "n:NAME" or "a:ADDRESS" */
	int fails;
	long long until_ms;     /* no attempt before this time */
	long long last_ms;
};

struct auth {
	int cheap;              /* 1: the cheapest hashing (tests) */
	struct auth_slot slot[AUTH_SLOTS];
};

/* 0, or -1 when libsodium cannot start. cheap: the minimum hashing cost
 * (for the tests; never for a real server). */
int auth_init(struct auth *a, int cheap);
/* Hash a password for storing: 0, or -1 (out of memory). */
int auth_hash(const struct auth *a, const char *password, char out[AUTH_HASH_MAX]);
/* 1 when password matches hash. */
int auth_verify(const char *hash, const char *password);
/* The wait before name (or addr) may try again, in ms (0: now). */
long long auth_wait(struct auth *a, const char *name, const char *addr, long long now_ms);
/* Count a wrong password for name and addr; a right one clears the name. */
void auth_failed(struct auth *a, const char *name, const char *addr, long long now_ms);
void auth_succeeded(struct auth *a, const char *name);
/* Session tokens: the hash kept of a guest's resume token (BLAKE2b,
 * libsodium's crypto_generichash, in hex); the token itself is never
 * kept. */
#define AUTH_TOKEN_HASH_MAX 65
void auth_token_hash(const char *token, char out[AUTH_TOKEN_HASH_MAX]);
/* 1 when token hashes to hash (compared in constant time). */
int auth_token_matches(const char *hash, const char *token);
/* Wipe a password buffer. */
void auth_wipe(void *p, size_t n);

#endif
