/* SPDX-License-Identifier: GPL-3.0-or-later */
/* store: where the server keeps what must survive it: accounts, tables
 * (their options and seats) and each table's journal of actions, in the
 * words of the --actions files. Restoring a table is replaying its journal
 * through the game's own apply. Backends: "memory" (the null one, for the
 * tests: nothing survives the process) and "sqlite" (a file in WAL mode,
 * every statement with bound parameters). */
#ifndef TAPIS_STORE_H
#define TAPIS_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_TEXT_MAX 2048
#define STORE_WATCHERS_MAX 4096

/* A table as stored: everything but its journal. Its spectators are
 * kept with it, as its players are in its seats, so that a restart keeps
 * their places too. */
struct store_table {
	long id;
	char game[32];
	int players;
	uint64_t seed;
	int seed_by;                   /* who chose the seed: enum host_seed of net/host.h (0: the server) */
	int state;                     /* enum host_state of net/host.h */
	char creator[100];
	int private_;
	char pwhash[128];              /* the private table's password hash, or "" */
	char rules[STORE_TEXT_MAX];    /* "key=value" lines */
	char seats[STORE_TEXT_MAX];    /* JSON array: "open", "bot:L", {"name":N,"level":L} */
	char watchers[STORE_WATCHERS_MAX]; /* JSON array of the spectators: {"name":N,"lang":L} */
};

/* Moderation (net/mod, tapis admin): times in seconds since the epoch. */
#define STORE_NAME_MAX 100
#define STORE_REASON_MAX 256
struct store_ban {
	char name[STORE_NAME_MAX];
	long long until;               /* the name may log in again from then */
	char reason[STORE_REASON_MAX];
	char by[STORE_NAME_MAX];       /* the moderator, or "operator" (tapis admin) */
};
/* One act of a moderator or of the operator, as the audit keeps it. */
struct store_audit {
	long long when;
	char who[STORE_NAME_MAX];      /* who acted ("operator": tapis admin) */
	char whom[STORE_NAME_MAX];
	char what[16];                 /* mute, unmute, kick, ban, unban, role */
	long long until;               /* the end of a mute or ban (0: none) */
	char reason[STORE_REASON_MAX]; /* the reason given; the role set for "role" */
};

struct store;

struct store_ops {
	const char *name;
	int (*open)(struct store *s, const char *path, char *err, size_t errlen);
	void (*close)(struct store *s);
	/* 1 found (hash copied), 0 no such account, -1 error. */
	int (*account_get)(struct store *s, const char *name, char *hash, size_t hashlen);
	int (*account_put)(struct store *s, const char *name, const char *hash);
	/* Insert or replace the table of that id. */
	int (*table_put)(struct store *s, const struct store_table *t);
	/* Forget a table and its journal. */
	int (*table_delete)(struct store *s, long id);
	/* Every table, in order of id. */
	int (*table_each)(struct store *s, void (*fn)(void *ctx, const struct store_table *t), void *ctx);
	/* Action n (from 0) of a table's journal: the seat and its text. */
	int (*journal_add)(struct store *s, long id, int n, int seat, const char *action);
	int (*journal_each)(struct store *s, long id, void (*fn)(void *ctx, int seat, const char *action),
	                    void *ctx);
	/* A guest's session: the hash of its resume token (never the token)
	 * and when it expires (seconds since the epoch). get: 1 found, 0 none,
	 * -1 error. */
	int (*session_put)(struct store *s, const char *name, const char *hash, long long expires);
	int (*session_get)(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires);
	int (*session_delete)(struct store *s, const char *name);
	/* The highest table id ever stored, removed tables included (0: none):
	 * ids are never given twice, across restarts. 0 or -1. */
	int (*last_id)(struct store *s, long *id);
	/* Moderation. A role is "moderator" (none kept: "player"). get: 1
	 * found, 0 none, -1 error. A ban replaces the name's earlier one;
	 * ban_each gives every ban kept, ended ones included. The audit only
	 * grows; audit_each in the order of the acts. A person's mutes: the
	 * names whose chat they do not want (on 0 takes one back). */
	int (*role_get)(struct store *s, const char *name, char *role, size_t rolelen);
	int (*role_put)(struct store *s, const char *name, const char *role);
	int (*role_each)(struct store *s, void (*fn)(void *ctx, const char *name, const char *role), void *ctx);
	int (*ban_put)(struct store *s, const struct store_ban *b);
	int (*ban_get)(struct store *s, const char *name, struct store_ban *b);
	int (*ban_delete)(struct store *s, const char *name);
	int (*ban_each)(struct store *s, void (*fn)(void *ctx, const struct store_ban *b), void *ctx);
	int (*audit_add)(struct store *s, const struct store_audit *a);
	int (*audit_each)(struct store *s, void (*fn)(void *ctx, const struct store_audit *a), void *ctx);
	int (*mute_put)(struct store *s, const char *owner, const char *target, int on);
	int (*mute_each)(struct store *s, const char *owner, void (*fn)(void *ctx, const char *target), void *ctx);
};

/* A backend that fails fills err (the shorthands below tell the operator,
 * once when the store starts failing and once when it works again). */
struct store {
	const struct store_ops *ops;
	void *impl;
	char err[256];              /* the last failure */
	int failing;                /* since the last failure, nothing was written */
};

/* Open the backend called name ("memory", "sqlite") on path (ignored by
 * memory). 0, or -1 with a message. */
int store_open(struct store *s, const char *backend, const char *path, char *err, size_t errlen);
void store_close(struct store *s);
/* Shorthands of the operations. */
int store_account_get(struct store *s, const char *name, char *hash, size_t hashlen);
int store_account_put(struct store *s, const char *name, const char *hash);
int store_table_put(struct store *s, const struct store_table *t);
int store_table_delete(struct store *s, long id);
int store_table_each(struct store *s, void (*fn)(void *ctx, const struct store_table *t), void *ctx);
int store_journal_add(struct store *s, long id, int n, int seat, const char *action);
int store_journal_each(struct store *s, long id, void (*fn)(void *ctx, int seat, const char *action),
                       void *ctx);

int store_session_put(struct store *s, const char *name, const char *hash, long long expires);
int store_session_get(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires);
int store_session_delete(struct store *s, const char *name);
int store_last_id(struct store *s, long *id);

int store_role_get(struct store *s, const char *name, char *role, size_t rolelen);
int store_role_put(struct store *s, const char *name, const char *role);
int store_role_each(struct store *s, void (*fn)(void *ctx, const char *name, const char *role), void *ctx);
int store_ban_put(struct store *s, const struct store_ban *b);
int store_ban_get(struct store *s, const char *name, struct store_ban *b);
int store_ban_delete(struct store *s, const char *name);
int store_ban_each(struct store *s, void (*fn)(void *ctx, const struct store_ban *b), void *ctx);
int store_audit_add(struct store *s, const struct store_audit *a);
int store_audit_each(struct store *s, void (*fn)(void *ctx, const struct store_audit *a), void *ctx);
int store_mute_put(struct store *s, const char *owner, const char *target, int on);
int store_mute_each(struct store *s, const char *owner, void (*fn)(void *ctx, const char *target), void *ctx);

/* The memory backend only (tests): while full is set, every write fails as
 * on a full disk. */
void store_memory_full(struct store *s, int full);

extern const struct store_ops store_memory_ops;
extern const struct store_ops store_sqlite_ops;

#endif
