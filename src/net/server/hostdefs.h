/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hostdefs: what a table played over the network is made of (net/server/host
 * plays it; net/server/hostview says it to its members): its seats, its
 * members, its settings and the host itself. Declarations only. */
#ifndef TAPIS_HOSTDEFS_H
#define TAPIS_HOSTDEFS_H

#include <stdint.h>

#include "core/game.h"
#include "app/table.h"
#include "app/view.h"
#include "net/store/store.h"
#include "words/talk.h"

#define HOST_PLAYER_MAX 100
#define HOST_MAX_MEMBERS 64
#define HOST_MISSED_MAX 30   /* announcements kept for a player who is away */
#define HOST_RETRY_MS 1000  /* a paused table tries to keep its move again this often */
#define HOST_TURN_WARN_MS 20000 /* the warning comes this long before the turn time runs out (a third of it at most) */

/* HOST_SAVED is a store row's only: a table in play saved and closed when
 * nobody was left at it, taken up again by one of its players (net/lobby). */
enum host_state { HOST_WAITING, HOST_PLAYING, HOST_OVER, HOST_SAVED };
/* Who chose a table's seed: the server (a secret), the creator, or the
 * operator (tapis serve --seed, for tests). */
enum host_seed { HOST_SEED_SERVER, HOST_SEED_CLIENT, HOST_SEED_OPERATOR };

/* Where the host's messages go: send takes ownership of text (malloc'd). */
struct net_out {
	void (*send)(void *ctx, long conn, char *text);
	void *ctx;
	/* When the connection takes its states as changes (its hello's
	 * "state_changes"), the set of the moments (jstate_moment_of) whose
	 * words it has been sent; else NULL. NULL: no connection does. */
	uint64_t *(*changes)(void *ctx, long conn);
};

struct work;
struct host_job;
struct host_kind;

struct host_seat {
	char name[HOST_PLAYER_MAX];   /* the player holding it, "" none */
	int open;                   /* a player may sit here */
	int level;                  /* of the bot that plays it when nobody does */
	long long away_ms;          /* when its player left (0: present) */
	int bot_told;               /* the others were told a bot took over */
	/* Who last left it in a deal, and which (host deal): until that deal
	 * ends, it is theirs alone to take back, and they may take no other
	 * seat (nobody sees two seats' cards in one deal). */
	char left_by[HOST_PLAYER_MAX];
	int left_deal;
};

struct host_member {
	struct host *h;
	char name[HOST_PLAYER_MAX];
	char lang[3];
	long conn;                  /* -1 while disconnected */
	long long gone_ms;          /* when a spectator's connection dropped (kept cfg keep_ms) */
	int seat;                   /* -1: a spectator */
	int verbosity;              /* enum talk_verbosity, kept when they are bound again */
	struct host_kind *kind;     /* the view they hear (shared with their kind), NULL none */
	int changes;                /* their connection takes states as changes from the one before */
	unsigned long base;         /* the state their connection has (host's nstates), 0 none */
	char acting[ACT_STR_MAX];   /* the action being tried (for a refusal) */
	struct host_job *hint_job;  /* the hint being searched on a worker (one at a time) */
	int nmissed, dropped;       /* announcements kept while away, and those lost */
	char *missed[HOST_MISSED_MAX];
	char *catch_up;             /* the `missed` message back at a table in play, sent before the
	                             * first state with where the game stands (JSON) */
};

struct host_config {
	long long grace_ms;         /* a disconnected player's seat waits this long for them */
	long long bot_delay_ms;     /* between a move and a bot's next one */
	const char *log_dir;        /* NULL: no hand histories */
	long long turn_ms;          /* a present player's time to act (0: no limit); then a bot plays that move */
	long long keep_ms;          /* a finished table, or a waiting one nobody is at, stays this long */
	long long seed;             /* > 0: every table's seed, the operator's (tests; tapis serve --seed); else secret */
	long long close_ms;         /* a table in play nobody is connected to is saved and closed after this (0: never) */
	/* Called once when a table's game ends (the lobby's: the accounts'
	 * figures and ratings, net/stats); NULL: nothing. */
	int (*game_over)(struct host *h);
	/* Bots' decisions and hints are searched there, off the loop, and
	 * applied when collected (work_collect); NULL: on the caller's thread. */
	struct work *work;
	/* Tests: called on the worker after each search (hint: 1 for a hint),
	 * as if it took that long; NULL none. */
	void (*think)(int hint);
	/* A waiting table nobody is connected to goes after this, when
	 * shorter than keep_ms (0: keep_ms). */
	long long deserted_ms;
};

struct host {
	long id;
	const struct game_ops *g;
	int players;
	uint64_t seed;              /* the server's secret, or the creator's (seed_by) */
	int seed_by;                /* enum host_seed (the creator's: only they may sit) */
	int deal;                   /* deals begun (0: none yet) */
	int starting;               /* its start asked, waiting its turn (the lobby's starts) */
	int deal_tap;               /* the same, counting a move applied but not yet kept */
	struct rules rules;
	char creator[HOST_PLAYER_MAX];
	int private_;
	char pwhash[128];
	int state;                  /* enum host_state */
	struct host_seat seat[GAME_MAX_SEATS];
	struct host_member *member[HOST_MAX_MEMBERS]; /* each allocated: views point into them */
	int nmembers;
	/* The kinds of listener present (a seat or the spectators, a language,
	 * a verbosity): one view each, made when its first member comes and
	 * freed with its last; what it phrases is sent, the same bytes, to
	 * every member of the kind. */
	struct host_kind *kind[HOST_MAX_MEMBERS];
	int nkinds;
	unsigned long phrasings;    /* states phrased (one per kind per action): for the tests */
	unsigned long nstates;      /* states written, each numbered (host_member's base) */
	struct table t;             /* the game, its journal, its hand history, the views */
	int opened;
	long long next_bot_ms;
	/* A bot's decision being searched on a worker (cfg work): applied when
	 * it comes back if the table is still at that move; none other is
	 * asked meanwhile. */
	struct host_job *bot_job;
	long long now_ms;           /* the last tick's time (for what comes back) */
	int state_seen;             /* the state the lobby last noticed (its own) */
	long long due_ms;           /* when the lobby ticks it next (its own, net/due) */
	/* Told when the table may have something due sooner than it said
	 * (host_due): a member came, left, acted; a bot's decision came
	 * back. NULL: nobody (the lobby's, as it takes the table). */
	void (*touched)(void *ctx, struct host *h);
	void *touched_ctx;
	/* The turn timer: the seat waited for, since when, at which move. */
	int turn_seat;              /* -1: no person's turn is being timed */
	int turn_moves;
	long long turn_since_ms;
	int turn_warned;
	long long over_ms;          /* when the game ended (0: not over) */
	long long empty_ms;         /* since when no member is connected (0: someone is) */
	/* Play is paused while the moves cannot be kept: TABLE_NOT_STORED (the
	 * store's journal) or TABLE_NOT_LOGGED (the hand history); 0: playing.
	 * Bots and the turn timer wait; every HOST_RETRY_MS the move waiting
	 * (a player's, held; or a bot's) is tried again. */
	int paused;
	long long retry_ms;
	int has_held, held_seat;
	struct action held;
	struct store *store;
	const struct host_config *cfg;
	struct net_out out;
};

/* A state as written, with where each of its members that may change is
 * (`,"key":value`; a key of "keys" without its comma when it is the first
 * there), so that a state can be told as the changes from the one before
 * to a connection that has that one (docs/protocol.md, "state_changes").
 * What comes before them (type, table, moves, seat, state) is sent
 * always. */
enum {
	SM_PAUSED,
	SM_TO_ACT,
	SM_MY_TURN,
	SM_KEY0,                          /* the keys' answers, VIEW_QUERY_KEYS order, */
	SM_KEYH = SM_KEY0 + VIEW_NQUERY,  /* then the hand's */
	SM_PROMPT,
	SM_HAND,
	SM_CHOICES,
	SM_DISCARD,
	SM_TRICK,
	SM_TAGS,
	SM_MENU,                          /* jstate's, in its order */
	SM_SHOWDOWNS,
	SM_MOMENT,
	SM_QUERIES,
	SM_F1,
	SM_CURSOR,
	SM_N
};

struct state_text {
	char *s;                    /* the whole message (NULL none yet) */
	size_t len;
	size_t head;                /* the bytes before its members that may change */
	size_t at[SM_N], n[SM_N];   /* each member's bytes (n 0: not in this state) */
	int game;                   /* a state of a game begun (with "keys"): changes apply to it */
	int moment;                 /* then: its moment (jstate_moment_of) */
	unsigned long id;           /* host's nstates when written */
};

/* A kind of listener: the members who hear the table alike (one seat, or
 * the spectators; one language; one verbosity) share one view, so that an
 * action is phrased once for each kind present, never for each member. A
 * seat's kind is its player's alone: no other member sees its cards. */
struct host_kind {
	struct host *h;
	int seat;                   /* -1: the spectators */
	int verbosity;
	char lang[3];
	int users;                  /* members bound to it */
	struct host_member *only;   /* while set, what it says goes to this member alone */
	struct view v;
	struct state_text last;     /* the last state its members were sent */
};

#endif
