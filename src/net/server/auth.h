/* SPDX-License-Identifier: GPL-3.0-or-later */
/* auth: passwords (libsodium's crypto_pwhash_str, Argon2id) and the limits
 * on wrong passwords, per name and per address, and on accounts made from
 * one address. A password is only ever hashed or compared here and never
 * written anywhere else. Hashing and checking take a tenth of a second or
 * more: a server has them done by a worker thread (auth_submit: one
 * thread of a net/wire/work pool of its own, never the loop), and
 * collects the answers on its own loop (auth_done). */
#ifndef TAPIS_AUTH_H
#define TAPIS_AUTH_H

#include <stddef.h>

#define AUTH_HASH_MAX 128
#define AUTH_PASSWORD_MAX 160
/* Names, addresses and account makers remembered for the limits. A slot
 * that holds a lock (a wait not passed, or more wrong passwords than are
 * free in the last hour) is never forgotten to make room; the others go,
 * the fewest failures and the oldest first; when every slot holds a lock,
 * a name or an address not yet known waits as well. */
#define AUTH_SLOTS 1024
#define AUTH_FREE_FAILS 3   /* wrong passwords allowed before waiting */
#define AUTH_ACCOUNTS_PER_HOUR 3 /* accounts made from one address in an hour */
#define AUTH_QUEUE_MAX 32   /* hashes and checks waiting for the worker at once */

enum auth_cost { AUTH_COST_REAL, AUTH_COST_CHEAP, AUTH_COST_SLOW };

struct auth_slot {
	char key[112];          /* "n:NAME", "a:ADDRESS", or "c:ADDRESS" (accounts made) */
	int fails;              /* wrong passwords; for "c:", accounts made in the hour */
	long long until_ms;     /* no attempt before this time; kept until then */
	long long last_ms;      /* the last failure; for "c:", the hour's start */
};

struct auth_worker;

struct auth {
	int cost;               /* enum auth_cost */
	int accounts_per_hour;  /* from one address (AUTH_ACCOUNTS_PER_HOUR, set by auth_init) */
	struct auth_worker *w;  /* started at the first auth_submit */
	struct auth_slot slot[AUTH_SLOTS];
};

/* 0, or -1 when libsodium cannot start. cost: enum auth_cost: the real
 * one; the cheapest (tests); or a slow one, a few times the real one
 * (tests of the worker; never for a real server). */
int auth_init(struct auth *a, int cost);
/* Stop the worker (its jobs not done are dropped). */
void auth_release(struct auth *a);
/* Hash a password for storing: 0, or -1 (out of memory). */
int auth_hash(const struct auth *a, const char *password, char out[AUTH_HASH_MAX]);
/* 1 when password matches hash. */
int auth_verify(const char *hash, const char *password);

/* The worker. Submit a hash of password (hash NULL) or a check of it
 * against hash, under the caller's number id: 0, or -1 when AUTH_QUEUE_MAX
 * are waiting already. The password is copied and wiped once used. */
int auth_submit(struct auth *a, long id, const char *password, const char *hash);
struct auth_answer {
	long id;
	int verify;             /* it was a check */
	int ok;                 /* the hash was made / the password matches */
	char hash[AUTH_HASH_MAX]; /* the hash made */
};
/* One answer of the worker: 1 (out filled), or 0 when none is ready. */
int auth_done(struct auth *a, struct auth_answer *out);

/* The wait before name (or addr) may try again, in ms (0: now). */
long long auth_wait(struct auth *a, const char *name, const char *addr, long long now_ms);
/* Count a wrong password for name and addr; a right one clears the name. */
void auth_failed(struct auth *a, const char *name, const char *addr, long long now_ms);
void auth_succeeded(struct auth *a, const char *name);
/* The wait before addr may make another account (0: now), and an account
 * made from addr counted. */
long long auth_create_wait(struct auth *a, const char *addr, long long now_ms);
void auth_created(struct auth *a, const char *addr, long long now_ms);
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
