/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbydefs: what the lobby is made of (net/server/lobby and its parts:
 * lobbyrec, lobbyround, lobbyacct, lobbytab): its connections, the people
 * known, the tables saved, its output, what the cluster and moderation add,
 * and the lobby itself. Declarations only. */
#ifndef TAPIS_LOBBYDEFS_H
#define TAPIS_LOBBYDEFS_H

#include <stddef.h>
#include <stdint.h>

#include "core/hashmap.h"
#include "net/server/auth.h"
#include "net/server/dir.h"
#include "net/server/due.h"
#include "net/server/host.h"
#include "net/server/lobbyev.h"
#include "net/server/lobbylist.h"
#include "net/server/req.h"
#include "net/wire/proto.h"
#include "net/store/store.h"

struct lobby_user {
	char name[HOST_PLAYER_MAX];
	char lang[3];
	int guest;
	char token_hash[AUTH_TOKEN_HASH_MAX]; /* of the resume token ("" none known) */
	long conn;              /* -1: disconnected */
	long long gone_ms;
	int verbosity;          /* enum talk_verbosity asked for, kept for the session at every table */
	int relayed;            /* logged in here by another node of a cluster (lobby_relayed_login) */
	char *look[2];          /* its name's keys (net/ident): the names alike are found by them */
	int listed;             /* among the people online at the last round (shown) */
};

#define LOBBY_SESSION_DAYS 7   /* a guest's resume token outlives a restart this long */
/* The lobby's changes (and a waiting table's entry) go out at most this
 * often: the changes in between (hundreds of people logging in or sitting
 * down at once) go together in the next round, a table's changes in one
 * entry. */
#define LOBBY_LIST_MS 100
/* The loop's time given to starting games between two ticks (a start
 * deals and phrases every seat's state), counted on the loop thread's CPU
 * clock (what a preemption does not spend): past it, the starts asked wait
 * for the next tick in turn, so that a burst of them never holds up the
 * tables in play (docs/performance.md). */
#define LOBBY_START_MS 1.0
/* The loop's time a round of the lobby's list gives to making the
 * entries of the tables changed; the others wait for the next round. */
#define LOBBY_ROUND_MS 5.0
/* Bytes of a hand history sent by "history" (some 300 deals of
 * Bouillotte): its message, escaped, stays well under what a connection's
 * queue may hold (WS_QUEUE_BYTES). */
#define LOBBY_HISTORY_MAX (512L * 1024)
/* A connection's messages waiting for its password's answer: more are
 * refused (rate). */
#define LOBBY_HELD_MAX 32
/* And the rounds less often when they cost much: what one round sends
 * (snapshots and deltas, each at most a page) at most this many bytes a
 * second. */
#define LOBBY_LIST_BYTES_S (16L * 1024 * 1024)
/* Tables waiting or in play that one person, one address, one network (an
 * IPv4 /24, an IPv6 /64: net/netaddr) may have made, and the server in
 * all: more are refused (`tables`). */
#define LOBBY_TABLES_PER_PERSON 4
#define LOBBY_TABLES_PER_ADDR 16
#define LOBBY_TABLES_PER_PREFIX 32
#define LOBBY_TABLES_MAX 2000

/* A table saved and closed because nobody was left at it (HOST_SAVED in
 * the store): its players see it in their "saved" list and may resume it. */
#define LOBBY_SAVED_MAX 1000   /* more: the oldest is forgotten, its store row removed */
struct lobby_saved {
	long id;
	char game[32];
	int players;
	char seat[GAME_MAX_SEATS][HOST_PLAYER_MAX];   /* the names holding its seats ("" none) */
};

struct lobby_conn {
	long id;
	char addr[64];
	int user;               /* index in users, -1 before hello */
	char lang[3];           /* of its errors: "en" until its hello says */
	int lang_given;         /* its hello named its language */
	int state_changes;      /* its hello asked for states as changes (net/host) */
	int aside;              /* its hello asked to be aside the session: history, stats, leaders only */
	int going;              /* its hello said it goes to a table of its own: not put back at its seats
	                         * (here, nor at another node's tables) */
	uint64_t moments_sent;  /* then: the moments whose words it was sent (jstate_moment_of) */
	/* A message whose password the worker (net/auth) is hashing or
	 * checking: a hello, a private table's create, sit or watch. Its
	 * number (0: none) and the message (its password wiped). The
	 * connection's messages that come meanwhile wait, in order. */
	long job;
	struct req *job_msg;
	struct lobby_held *held;
	int nheld, capheld;
	struct lobbylist_view view;   /* what of the lobby's list it shows (net/lobbylist) */
};

struct lobby_held {
	char *text;
	size_t len;
};

struct lobby_io {
	void (*send)(void *ctx, long conn, char *text);   /* takes text (malloc'd) */
	void (*close)(void *ctx, long conn);              /* close after what was sent */
	void *ctx;
	/* The same text to n connections, held once for all of them (takes
	 * text); NULL: sent to each through send. */
	void (*send_many)(void *ctx, const long *conns, int n, char *text);
};

struct lobby;
struct mod;

/* Connections numbered from here are people of other nodes of a cluster
 * at a table of this one (net/clnet relays them): they are not among the
 * people of this lobby (their own node lists them), nor sent its list. */
#define LOBBY_RELAYED_CONN (1L << 40)

/* What the other nodes of a cluster add to the lobby (net/clnet fills it):
 * their tables, after this node's, and their people. NULL: one server. */
struct lobby_far {
	void *ctx;
	/* The other nodes' tables (entries with h NULL), and their people. */
	int (*tables)(void *ctx, const struct lobbylist_entry **out);
	int (*people)(void *ctx, const struct lobbylist_person **out);
	/* A round of the list: mine is what changed here (to tell the
	 * others); far is set to what changed there since the last round
	 * (valid until the next call). */
	void (*round)(void *ctx, const struct lobbylist_round *mine, struct lobbylist_round *far);
	/* A chat line said in this lobby (to tell the others). */
	void (*chat)(void *ctx, const char *from, const char *text);
	/* 1 when a connection here is at a table of another node. */
	int (*away)(void *ctx, long conn);
	/* 1 when name is online on another node; an invitation to the table
	 * whose entry is info, from by, sent to them there. */
	int (*person)(void *ctx, const char *name);
	void (*invite)(void *ctx, const char *name, long table, const char *by, const json_t *info);
};

/* One person, one table across the nodes of a cluster
 * (net/cluster/clseat fills it); NULL: one server, whose own tables say
 * where each person sits. */
struct lobby_seats {
	void *ctx;
	/* A seat of name's at another node's table (not table) whose game
	 * goes on, as the directory lists it: 1, its table and seat. */
	int (*held)(void *ctx, const char *name, long table, long *at, int *seat);
	/* name takes a seat at table, run here: its key asked for. 0 when
	 * asked: the answer comes to lobby_seat_answer for the connection
	 * conn waiting for it, or with conn -1 (nobody waits: a table
	 * restored, or a seat taken already) to lobbytab_seat_restored; -1
	 * not asked (no link: go on as one server). force: a seat held at
	 * another table is given up (always won). */
	int (*take)(void *ctx, long conn, const char *name, long table, int force);
	/* name gave up their seat at table. */
	void (*freed)(void *ctx, const char *name, long table);
};

/* A connection's job while the key of the seat it takes is asked for
 * (lobby_seats.take): its messages wait as for a password. */
#define LOBBY_JOB_SEAT (-1L)

/* What moderation adds to the lobby (net/mod: mod_attach fills it), so that
 * the lobby calls it without knowing it. Every member is called only when
 * the lobby has an extension. */
struct lobby_ext {
	/* At hello, once the name is checked: 1 when refused (the refusal sent). */
	int (*login_refused)(struct lobby *l, long conn, const char *name);
	void (*login)(struct lobby *l, const char *name, int guest);
	/* A chat line may go out (else the refusal was sent). */
	int (*chat_allowed)(struct lobby *l, long conn, const char *name);
	/* A message about to go to conn, changed or dropped (NULL) for its person. */
	char *(*filter)(struct lobby *l, long conn, char *text);
	/* 1 when filter may change text for someone. */
	int (*filters)(const struct lobby *l, const char *text);
	/* 1 when the person u may enter the private table without its
	 * password (invited: u itself, not whoever holds the name now). */
	int (*invited)(struct lobby *l, long table, const struct lobby_user *u);
	/* The messages it adds (invite, rematch, mod, mute). */
	void (*message)(struct lobby *l, struct lobby_conn *c, const struct req *m, long long now_ms);
	void (*tick)(struct lobby *l, long long now_ms);
	/* A table's game just ended (its last words queued, in this round). */
	void (*over)(struct lobby *l, struct host *h);
	void (*release)(struct lobby *l);
};

struct lobby {
	struct lobby_io io;
	struct store *store;
	struct dir dir;
	struct auth auth;
	struct host_config cfg;
	struct lobby_user *users;
	int nusers, capusers;
	struct hashmap byname;  /* the users by name (exact bytes), kept in step */
	struct hashmap bylook[2]; /* and by each of their names' keys (look) */
	struct lobby_conn *conns;
	int nconns, capconns;
	struct hashmap byid;    /* the connections by id (its bytes), kept in step */
	struct host **tables;
	int ntables, captables;
	/* When each table's tick is next due (host_due; its due_ms), by id:
	 * a tick pops only those due. An entry whose time is no longer its
	 * table's is stale and skipped. */
	struct due due;
	int sweep;              /* the next table of the slow sweep (every table once a second) */
	long long sweep_ms;     /* when the sweep last went on */
	char **told;            /* by table: its entry as last listed (its members' "table", the deltas), or NULL */
	char (*made_from)[64];  /* by table: the address of its creator ("" restored) */
	unsigned long long *print; /* by table: a hash of its entry as last listed (told), to skip the unchanged */
	int capprint;
	int capmade;
	int captold;
	int dirty;              /* the lobby changed: a round at the next tick */
	long *starts;           /* the tables whose start waits its turn (LOBBY_START_MS), in order */
	int nstarts, capstarts;
	double start_spent_ms;  /* the loop thread's CPU time on starts since the last tick */
	double start_ms;        /* LOBBY_START_MS (tests: 0, one start a tick) */
	double round_ms;        /* LOBBY_ROUND_MS (tests: 0, one table's entry a round) */
	long long list_ms;      /* when the lobby's last round went out */
	long long list_gap_ms;  /* and the time until the next one may */
	int tables_per_person;  /* LOBBY_TABLES_PER_PERSON */
	int registration_closed; /* no new account (the error `closed`): the accounts there log in, guests come */
	int draining;           /* no table made or started (tapis admin drain): those in play finish */
	/* The chat's flood rules (net/mod; 0: MOD_FLOOD_*): lines in a window
	 * of chat_ms, refusals in that window that mute, for minutes. */
	int chat_lines, chat_strikes, chat_mute_min;
	long long chat_ms;
	int tables_per_addr;    /* LOBBY_TABLES_PER_ADDR (0: no limit, by network neither; the bench's clients share one) */
	int tables_max;         /* LOBBY_TABLES_MAX (0: no limit) */
	long *gone;             /* the tables removed since the last round */
	int ngone, capgone;
	char **shown;           /* the names online at the last round, sorted */
	int nshown, capshown;
	int unlisted;           /* someone listed was forgotten since the last round */
	int people_same;        /* the last round had the people of the one before */
	long long now_ms;
	struct lobbyev ev;      /* what the lobby was last told of its changes (net/lobbyev) */
	struct lobby_saved *saved;   /* the tables saved and closed, by id */
	int nsaved, capsaved;
	long next_job;          /* the number of the last job given to the worker */
	const struct lobby_ext *ext; /* moderation, invitations, rematches (net/mod), or NULL */
	struct mod *mod;        /* its state */
	const struct lobby_far *far; /* the other nodes of a cluster (net/clnet), or NULL */
	const struct lobby_seats *seats; /* one seat a person across them (net/clseat), or NULL */
	/* Told of each table this process starts running (made, restored:
	 * running 1) and stops running (0); NULL: nobody (net/cladopt, in
	 * cluster mode, takes and drops the table's lease). */
	void (*on_running)(void *ctx, long table, int running);
	void *running_ctx;
};

#endif
