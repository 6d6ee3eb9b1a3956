/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host: one table played over the network. The host holds the game's state
 * and applies actions with the game's own apply; its seats are held by
 * players (by name), by bots, or open; its members are the players and
 * spectators listening, each in their own language. After every action it
 * phrases the events once for each kind of listener present (a seat or the
 * spectators, a language, a verbosity) with the announcer (only what that
 * seat may see; spectators hear what is public), sends the cues with the
 * seat they come from, and the kind's view: the answers to the query
 * keys, the hand, the legal choices. The table (app/table) plays the game;
 * each kind is a view (app/view) whose sink turns what it says and its
 * state into messages, the same bytes to each member of the kind. Every action goes to the hand history and the
 * store's journal before it is told; one that cannot is undone and the
 * table pauses until it can. A table is restored by replaying the journal. */
#ifndef TAPIS_HOST_H
#define TAPIS_HOST_H

#include <stdint.h>

#include "core/game.h"
#include "app/table.h"
#include "app/view.h"
#include "net/store.h"
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

/* Create a table (state WAITING) from the options; 0, or -1 with a message
 * for the client. Saved in the store. seed_by: enum host_seed, who
 * chose the seed (the creator: then nobody else may sit); the hand history
 * says who. */
int host_create(struct host *h, long id, const struct game_ops *g, int players, const struct rules *rules,
                uint64_t seed, int seed_by, const char *creator, struct store *store,
                const struct host_config *cfg, struct net_out out, char *err, size_t errlen);
/* Restore a stored table: its seats and options, then its journal replayed
 * through apply. Players are all away until they come back. 0 or -1. */
int host_restore(struct host *h, const struct store_table *t, struct store *store,
                 const struct host_config *cfg, struct net_out out, long long now_ms, char *err,
                 size_t errlen);
void host_free(struct host *h);
/* Save the table's options and seats (not the journal). */
void host_save(struct host *h);
/* Where a table's hand history is (--log-dir DIR): DIR/TABLE.jsonl for the
 * game being played (game 0), DIR/TABLE-GAME.jsonl for a finished game
 * kept for its players (GAME: its store_game id). */
void host_history_path(const char *dir, long table, long long game, char *out, size_t len);
/* The game just finished and recorded as game: its hand history takes its
 * own name, so that the table's next game (a rematch) never writes where a
 * finished game is read. 0, or -1 (logged). */
int host_history_keep(struct host *h, long long game);

/* The member of that name, or NULL. */
struct host_member *host_member(struct host *h, const char *name);
/* 0 when name may take seat now (free or theirs, within the seat rules:
 * a seat left in this deal is its player's alone, a player who left a seat
 * in this deal takes no other, only the creator sits at a table whose seed
 * they chose), or -1 with a message. A message of the host's functions is
 * in the language given, that of the one asking (NULL: the one in force);
 * host_join's in its lang. */
int host_may_sit(const struct host *h, const char *name, int seat, const struct i18n_lang *L, char *err,
                 size_t errlen);
/* A player or spectator joins (or comes back on a new connection): they hear
 * what they missed, then the table's state. seat -1 watches; otherwise the
 * seat must be free for them. 0, or -1 with a message. */
int host_join(struct host *h, const char *name, const char *lang, long conn, int seat, long long now_ms,
              char *err, size_t errlen);
/* The member sitting at a seat hears it: "You sit at table 2, seat 2."
 * (after their `joined`, which host_join does not send). */
void host_tell_seat(struct host *h, const char *name);
/* The member's connection is gone: their seat waits grace_ms, then a bot
 * plays it until they come back; a spectator's place is kept keep_ms (what
 * they miss is kept for both). */
void host_disconnect(struct host *h, const char *name, long long now_ms);
/* Stand up (the seat goes to a bot and is open to anyone, its player
 * included), or leave the table entirely (leave = 1). */
void host_stand(struct host *h, const char *name, int leave);
/* The creator sets an unheld seat open or to a bot of a level. 0 or -1. */
int host_set_seat(struct host *h, int seat, int open, int level, const struct i18n_lang *L, char *err,
                  size_t errlen);
/* Begin play (bots play the empty seats). 0 or -1. */
int host_start(struct host *h, long long now_ms, const struct i18n_lang *L, char *err, size_t errlen);
/* A player's action (text already parsed); 0, or -1: refused, and the
 * spoken reason was sent to them. */
int host_action(struct host *h, const char *name, const struct action *a, long long now_ms);
/* The hint key of a seated player: view_hint says, to them only, what the
 * strongest bot would do now. Nothing is played. 0; or -1 with the error's
 * code and message (in L) when they hold no seat or the game is not being played;
 * or -1 with code NULL when it is not their turn (and that was said).
 * With cfg work, the search is made on a worker and the hint said when it
 * comes back (dropped if the move was played meanwhile); one hint at a
 * time per member: asked again while theirs is on its way, 0 and nothing
 * more is searched (the one coming answers). */
int host_hint(struct host *h, const char *name, const struct i18n_lang *L, const char **code, const char **msg);
/* Full or short announcements (enum talk_verbosity) for a member from now
 * on, kept while they are at the table; say: tell them which, in their
 * language, with one say. 0, or -1 when they are not at the table. */
int host_verbosity(struct host *h, const char *name, int verbosity, int say);
/* Let bots play what is due, and a bot play the move of a player whose
 * turn time ran out (warned before); at a paused table, try again to keep
 * the move waiting. Returns 1 when something happened. */
int host_tick(struct host *h, long long now_ms);
/* 1 when the table should be removed: its game over for keep_ms, or
 * waiting with nobody connected for keep_ms; or finished or waiting with
 * no member left at all. Call it often: it notices who is connected, and
 * forgets the spectators gone for keep_ms. */
int host_expired(struct host *h, long long now_ms);
/* The earliest time at which host_tick or host_expired may have something
 * to do, as things stand (<= now_ms: at once; LLONG_MAX: nothing until
 * the table is touched). Never later than what they would do. */
long long host_due(const struct host *h, long long now_ms);
/* Send a chat line to every member (spoken by the client with the chat cue). */
void host_chat(struct host *h, const char *from, const char *text);
/* Fill a store row of the table. */
void host_row(const struct host *h, struct store_table *t);
/* The seat's state word for the lobby: "open", "bot", "player", "away". */
const char *host_seat_word(const struct host *h, int seat);

#endif
