/* SPDX-License-Identifier: GPL-3.0-or-later */
/* store: where the server keeps what must survive it: accounts, tables
 * (their options and seats) and each table's journal of actions, in the
 * words of the --actions files. Restoring a table is replaying its journal
 * through the game's own apply. Backends: "memory" (the null one, for the
 * tests: nothing survives the process), "sqlite" (a file in WAL mode,
 * every statement with bound parameters) and "postgresql" (a database that
 * several servers share, its path a postgresql:// URL; store_pg.c). */
#ifndef TAPIS_STORE_H
#define TAPIS_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "net/store/rating.h"

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

/* The version of the store's tables (kept in its meta table under
 * "schema"), the same for SQLite and PostgreSQL: a new version is a step in
 * both; an older store is upgraded in place when opened, one step a
 * version (docs/hosting.md). */
#define STORE_SCHEMA_VERSION 5
#define STORE_RECENT_GAMES 20        /* the last games kept for each player */
#define STORE_SETTINGS_MAX 1024      /* bytes of a player's other settings (a JSON object) */
#define STORE_GAME_NAME_MAX 32

/* What an account keeps between sessions: lang "" and verbosity -1 when
 * never set; extra is a JSON object of the client's own settings. */
struct store_settings {
	char lang[3];
	int verbosity;                 /* enum talk_verbosity, or -1 */
	char extra[STORE_SETTINGS_MAX];
};

/* One registered player's figures at one game, and their rating there
 * (has_rating 0: never rated). */
struct store_stat {
	char name[100];
	char game[STORE_GAME_NAME_MAX];
	int games, deals, won;
	long long net;                 /* chips or points, from the game's standings */
	int has_rating;
	struct rating rating;
	int rated_games;
};

/* A finished game as recorded: its registered players only. after: their
 * ratings after the game, when it was rated. */
struct store_game_player {
	char name[100];
	int seat, place, won;          /* place 0: first (shared places equal) */
	long long net;
	struct rating after;
};
struct store_game {
	long table;
	char game[STORE_GAME_NAME_MAX];
	long long ended;               /* seconds since the epoch */
	int deals;
	int rated;
	int n;
	struct store_game_player p[GAME_MAX_SEATS];
	long long id;                  /* set by store_game_record: the game's own id (0: not kept) */
};

/* One of a player's last games, as listed to them. */
struct store_played {
	long table;
	char game[STORE_GAME_NAME_MAX];
	long long ended;
	int seat, place, won, rated;
	long long net;
	long long id;                  /* the game's own id (store_game's), which names its hand history */
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
struct ident_keys;

/* A guest's session to write (hash) or remove (hash NULL). */
struct store_session_write {
	const char *name;
	const char *hash;
	long long expires;
};

struct store_ops {
	const char *name;
	int (*open)(struct store *s, const char *path, char *err, size_t errlen);
	void (*close)(struct store *s);
	/* 1 found (hash copied), 0 no such account, -1 error. */
	int (*account_get)(struct store *s, const char *name, char *hash, size_t hashlen);
	int (*account_put)(struct store *s, const char *name, const char *hash);
	/* An account whose name looks like one of keys k (net/ident), other
	 * than name itself: 1 (its name in out), 0 none, -1 error. The
	 * backends keep each account's keys, indexed, as its name is put. */
	int (*account_alike)(struct store *s, const struct ident_keys *k, const char *name, char *out, size_t outlen);
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
	/* Fencing, for a store several servers share (NULL: the store is one
	 * server's): this process runs table id from now on (it made it, or
	 * restored or adopted it); the writes to the table (its row, its
	 * journal) of any process that owned it before are refused from then
	 * on. 1 owned, 0 no such table, -1 error. */
	int (*table_own)(struct store *s, long id);
	/* The owner number held for a table, handed from one connection of
	 * this process to another (net/storew: a table taken over on a
	 * worker's connection, then run on the loop's): taken out of s (1,
	 * with *epoch; 0 none held), or held by s from now. NULL: no fencing. */
	/* table_own for n tables in one step (one commit): owned[i] 1 or 0
	 * (no such table); 0, or -1 error. NULL: one table_own each. */
	int (*table_own_many)(struct store *s, const long *ids, int n, signed char *owned);
	int (*held_take)(struct store *s, long id, long long *epoch);
	void (*held_put)(struct store *s, long id, long long epoch);
	/* One table's row: 1 found, 0 none, -1 error. NULL: found by table_each. */
	int (*table_get)(struct store *s, long id, struct store_table *out);
	/* A guest's session: the hash of its resume token (never the token)
	 * and when it expires (seconds since the epoch). get: 1 found, 0 none,
	 * -1 error. */
	int (*session_put)(struct store *s, const char *name, const char *hash, long long expires);
	int (*session_get)(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires);
	int (*session_delete)(struct store *s, const char *name);
	/* n sessions written (hash) or removed (hash NULL) in order, in one
	 * transaction (one commit): 0, or -1 and none written. NULL: one
	 * at a time. */
	int (*session_write_many)(struct store *s, const struct store_session_write *w, int n);
	/* The highest table id ever stored, removed tables included (0: none):
	 * ids are never given twice, across restarts. 0 or -1. */
	int (*last_id)(struct store *s, long *id);
	/* An account's settings: 1 found, 0 no such account, -1 error; put
	 * does nothing for a name without an account. */
	int (*settings_get)(struct store *s, const char *name, struct store_settings *out);
	int (*settings_put)(struct store *s, const char *name, const struct store_settings *in);
	/* The rating of a player at a game: 1 found, 0 none, -1 error. */
	int (*rating_get)(struct store *s, const char *name, const char *game, struct rating *out);
	/* Record a finished game at once: its row and its players', their
	 * figures (and ratings when rated), and forget each player's games
	 * beyond STORE_RECENT_GAMES. 0 or -1. */
	int (*game_record)(struct store *s, struct store_game *g);
	/* A player's figures, one call a game they played, by game name. */
	int (*stat_each)(struct store *s, const char *name, void (*fn)(void *ctx, const struct store_stat *st),
	                 void *ctx);
	/* The n best rated at a game, best first (ties: more rated games). */
	int (*leaders)(struct store *s, const char *game, int n, void (*fn)(void *ctx, const struct store_stat *st),
	               void *ctx);
	/* A player's last games, the latest first. */
	int (*recent)(struct store *s, const char *name, void (*fn)(void *ctx, const struct store_played *p),
	              void *ctx);
	/* Copy the whole store into a new file at path while it is in use (the
	 * SQLite backend only). 0, or -1 with err. */
	int (*backup)(struct store *s, const char *path, char *err, size_t errlen);
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
	/* The ban (the one ending last, ended or not) on name or on a name
	 * that looks like it (keys k): 1, 0 none, -1 error. */
	int (*ban_alike)(struct store *s, const struct ident_keys *k, const char *name, struct store_ban *b);
	int (*ban_delete)(struct store *s, const char *name);
	int (*ban_each)(struct store *s, void (*fn)(void *ctx, const struct store_ban *b), void *ctx);
	int (*audit_add)(struct store *s, const struct store_audit *a);
	int (*audit_each)(struct store *s, void (*fn)(void *ctx, const struct store_audit *a), void *ctx);
	int (*mute_put)(struct store *s, const char *owner, const char *target, int on);
	int (*mute_each)(struct store *s, const char *owner, void (*fn)(void *ctx, const char *target), void *ctx);
	/* The operator's flags (a number by key, meta's rows): flag_get 1
	 * (*v), 0 none, -1. */
	int (*flag_get)(struct store *s, const char *key, long long *v);
	int (*flag_put)(struct store *s, const char *key, long long v);
};

/* The bounds (ms) of the journal's write times counted (struct store). */
#define STORE_LAT_BUCKETS 8
extern const double store_lat_ms[STORE_LAT_BUCKETS];

/* A backend that fails fills err (the shorthands below tell the operator,
 * once when the store starts failing and once when it works again). */
struct store {
	const struct store_ops *ops;
	void *impl;
	char err[256];              /* the last failure */
	int failing;                /* since the last failure, nothing was written */
	/* The journal's writes (an action each, kept before anyone hears
	 * it), timed: how many, their time in all, and how many took at most
	 * store_lat_ms[i] (the server's metrics). */
	long long journal_writes;
	double journal_ms;
	long long journal_le[STORE_LAT_BUCKETS];
	/* A guest's session written (hash) or removed (hash NULL) may be
	 * handed to defer_session, which writes it later on another
	 * connection (net/storew), in the order given: 0 taken, -1 not (then
	 * written here at once). NULL (store_open's): written here. */
	int (*defer_session)(void *ctx, const char *name, const char *hash, long long expires);
	void *defer_ctx;
};

/* Open the backend called name ("memory", "sqlite", "postgresql") on path
 * (ignored by memory; a URL for postgresql). 0, or -1 with a message. */
int store_open(struct store *s, const char *backend, const char *path, char *err, size_t errlen);
/* The backends say what their open did to the store's version (a line in
 * the log when an older store was upgraded). */
void store_upgraded(long long from, long long to);
void store_close(struct store *s);
/* Shorthands of the operations. */
int store_account_get(struct store *s, const char *name, char *hash, size_t hashlen);
int store_account_put(struct store *s, const char *name, const char *hash);
/* An account other than name whose name looks like it (net/ident): 1 with
 * its name in out, 0 none, -1. */
int store_account_alike(struct store *s, const char *name, char *out, size_t outlen);
int store_table_put(struct store *s, const struct store_table *t);
int store_table_delete(struct store *s, long id);
int store_table_each(struct store *s, void (*fn)(void *ctx, const struct store_table *t), void *ctx);
int store_journal_add(struct store *s, long id, int n, int seat, const char *action);
int store_journal_each(struct store *s, long id, void (*fn)(void *ctx, int seat, const char *action),
                       void *ctx);
/* table_own: 1 (also when the backend has no fencing), 0 no such table, -1. */
int store_table_own(struct store *s, long id);
/* table_own_many: 0 with owned[i] 1 or 0 for each table, or -1. */
int store_table_own_many(struct store *s, const long *ids, int n, signed char *owned);
/* held_take: 1 taken (*epoch), 0 none held (or no fencing). */
int store_held_take(struct store *s, long id, long long *epoch);
void store_held_put(struct store *s, long id, long long epoch);
/* table_get: 1 found, 0 none, -1. */
int store_table_get(struct store *s, long id, struct store_table *out);

int store_session_put(struct store *s, const char *name, const char *hash, long long expires);
int store_session_get(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires);
int store_session_delete(struct store *s, const char *name);
/* Several at once, in order (one commit when the backend can; else, or
 * when that fails, one at a time, each here and now): how many failed. */
int store_session_write_many(struct store *s, const struct store_session_write *w, int n);
int store_last_id(struct store *s, long *id);
int store_settings_get(struct store *s, const char *name, struct store_settings *out);
int store_settings_put(struct store *s, const char *name, const struct store_settings *in);
int store_rating_get(struct store *s, const char *name, const char *game, struct rating *out);
int store_game_record(struct store *s, struct store_game *g);
int store_stat_each(struct store *s, const char *name, void (*fn)(void *ctx, const struct store_stat *st),
                    void *ctx);
int store_leaders(struct store *s, const char *game, int n, void (*fn)(void *ctx, const struct store_stat *st),
                  void *ctx);
int store_recent(struct store *s, const char *name, void (*fn)(void *ctx, const struct store_played *p),
                 void *ctx);
int store_backup(struct store *s, const char *path, char *err, size_t errlen);
/* The backup of a store file in use (a server running on it): opened apart,
 * copied page by page with SQLite's online backup into path (made 0600,
 * replaced when it exists). 0, or -1 with a message. */
int store_backup_file(const char *db, const char *path, char *err, size_t errlen);

int store_role_get(struct store *s, const char *name, char *role, size_t rolelen);
int store_role_put(struct store *s, const char *name, const char *role);
int store_role_each(struct store *s, void (*fn)(void *ctx, const char *name, const char *role), void *ctx);
int store_ban_put(struct store *s, const struct store_ban *b);
int store_ban_get(struct store *s, const char *name, struct store_ban *b);
/* The ban on name or on a name alike (the one ending last): 1, 0, -1. */
int store_ban_alike(struct store *s, const char *name, struct store_ban *b);
int store_ban_delete(struct store *s, const char *name);
int store_ban_each(struct store *s, void (*fn)(void *ctx, const struct store_ban *b), void *ctx);
int store_audit_add(struct store *s, const struct store_audit *a);
int store_audit_each(struct store *s, void (*fn)(void *ctx, const struct store_audit *a), void *ctx);
int store_mute_put(struct store *s, const char *owner, const char *target, int on);
int store_mute_each(struct store *s, const char *owner, void (*fn)(void *ctx, const char *target), void *ctx);
/* The operator's flags, set by tapis admin for a server that runs (a
 * drain asked: "drain", "drain:NODE"), each a number (the time it was
 * set); kept apart from the store's own keys. key: at most
 * STORE_FLAG_MAX bytes. get: 1 (*v), 0 none, -1. */
#define STORE_FLAG_MAX 80
int store_flag_get(struct store *s, const char *key, long long *v);
int store_flag_put(struct store *s, const char *key, long long v);

/* 1 when where is a PostgreSQL URL (postgresql:// or postgres://), the
 * "postgresql" backend's path; 0 for anything else (a SQLite file). */
int store_is_url(const char *where);
/* The PostgreSQL URL as it may be shown: its password (after user: or in
 * password=) replaced by "***". */
int store_pg_redact(const char *url, char *out, size_t len);

/* The memory backend only (tests): while full is set, every write fails as
 * on a full disk. */
void store_memory_full(struct store *s, int full);

extern const struct store_ops store_memory_ops;
extern const struct store_ops store_sqlite_ops;
extern const struct store_ops store_pg_ops;

#endif
