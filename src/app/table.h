/* SPDX-License-Identifier: GPL-3.0-or-later */
/* table: one game in progress and everything around it: the state, who
 * controls each seat (human, bot, script, remote), the journal of actions
 * (the saved game), the hand history, and the views that listen (app/view):
 * after every action its events go to the hand history and to each view,
 * phrased there in the view's language. The table owns no listener and
 * makes no sound: local play (app/local) attaches its own view and sink,
 * and tells the table which is the player's (table_set_player); a server
 * attaches one view a connection. The main loop, a server and the tests
 * drive it. */
#ifndef TAPIS_TABLE_H
#define TAPIS_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/history.h"
#include "core/script.h"
#include "core/sbuf.h"
#include "app/save.h"
#include "bots/bot.h"
#include "words/talk.h"

struct view;

#define TABLE_MAX_VIEWS 64
/* Bytes of the name of a person holding a seat, NUL included. */
#define TABLE_PERSON_MAX 100
/* refusal.code of an action sent by a seat that is not to act. */
#define TABLE_NOT_YOUR_TURN (-1)
/* refusal.code of an action undone because it could not be kept: the
 * commit (table_set_commit) failed, or the hand history could not be
 * written. */
#define TABLE_NOT_STORED (-2)
#define TABLE_NOT_LOGGED (-3)

/* SEAT_HUMAN: a person, at this machine or over the network (the table
 * waits for table_act); SEAT_BOT: the table plays it. */
enum seat_kind { SEAT_HUMAN, SEAT_BOT };

struct table_options {
	const struct game_ops *game;
	int players;
	int dealer;              /* -1: from the seed */
	uint64_t seed;
	const char *seed_from;   /* NULL, or "server" / "client": said in the hand history (a server's tables) */
	struct rules rules;
	int seat_kind[GAME_MAX_SEATS];
	int bot_level[GAME_MAX_SEATS];
	const char *deck_path;   /* --deck */
	const char *actions_path;/* --actions */
	const char *log_path;    /* --log */
	int log_mode;            /* enum hist_mode of the hand history (HIST_REPLACE: --log) */
	int log_shut;            /* its file open only while written (hist_shut: a server's tables) */
	const struct deckstack *deck_stack; /* stacked packs of a saved game (without deck_path) */
};

/* What the table calls on a view it tells: app/view gives its own when it
 * attaches (view_init); the table knows no more of a view. */
struct table_ear {
	void (*events)(struct view *v, const struct event *ev, int n);   /* an action's events */
	void (*remember)(struct view *v, const struct event *ev, int n); /* the same, in silence */
	void (*refresh)(struct view *v);   /* the state after an action */
	void (*names)(struct view *v);     /* the seats named again (table_set_names) */
	void (*gone)(struct view *v);      /* the table is closed: it hears no more */
};

/* The player at this machine, as local play (app/local) sets it up: the
 * view it hears, what the table itself tells it, and the stream its words
 * are written to. */
struct table_player {
	struct view *view;   /* attached by its owner (table_attach) */
	/* table_say: text in its final words, flags as speech_say's
	 * (SPEECH_QUEUE, SPEECH_INTERRUPT). */
	void (*tell)(void *ctx, const char *text, int flags);
	void *ctx;
	FILE *text;          /* where its words are written when they are text
	                      * (checked and flushed with the hand history), else NULL */
};

struct table {
	struct table_options opt;
	const struct game_ops *g;
	const struct bot_ops *bot;    /* g's entry in app/registry */
	const struct game_talk *gt;
	void *st;                /* the real state */
	void *view;              /* scratch: the state redacted for the human */
	struct deckstack *stack; /* owned, NULL without --deck */
	struct script script;
	int has_script;
	struct history hist;
	struct rng bot_rng;
	/* The people holding the seats ("" none: a bot), as a server names
	 * them (table_set_names); named 0: the built-in names (local play). */
	char person[GAME_MAX_SEATS][TABLE_PERSON_MAX];
	int named;
	struct talk talk;        /* me = the human seat (-1 when all are bots); its
	                          * memory (talk.heard) is kept from every event */
	int dealt;               /* cards were dealt in this deal */
	/* The views listening, and the player at this machine (none: every
	 * member NULL). */
	struct view *views[TABLE_MAX_VIEWS];
	const struct table_ear *ears[TABLE_MAX_VIEWS];   /* how to tell each */
	int nviews;
	struct table_player player;
	int silent;              /* > 0: actions are applied without telling the views */
	int started;
	struct sink tap;          /* every event as applied, with all its cards (tests, tools); may be empty */
	int moves;               /* actions applied */
	/* Events of the action being applied, phrased once it is complete. */
	struct event *pending;
	int npending, cap_pending;
	/* The actions played: nplayed in all, those of the deal being played
	 * kept (from index played_from; the earlier ones are in the saved
	 * game, the journal and the hand history, not in memory). */
	struct action *played;
	int *played_seat;
	int nplayed, cap_played, played_from;
	int hands_done;
	int game_over_said;
	struct save_writer save; /* the saved game being appended to (fd -1: not saved) */
	int save_failed;         /* the player was told the game is not saved */
	double save_synced_at;   /* when the save was last made durable (monotonic seconds) */
	/* A server's journal: every action is committed before anyone is told
	 * of it (table_set_commit). */
	int (*commit)(void *ctx, int seat, const struct action *a);
	void *commit_ctx;
	void *undo;              /* the state before the action being applied */
};

/* Set up a table: reads --deck, --actions, opens --log; no view listens
 * yet (local play: local_open). talk.me is the first human seat (-1 when
 * all are bots). 0, or -1 with a message (nothing played; the caller exits
 * with status 2). */
int table_open(struct table *t, const struct table_options *opt, char *err, size_t errlen);
void table_close(struct table *t);
/* game_start and the game's first events. */
void table_start(struct table *t);
/* Seat to act, -1 when over. */
int table_to_act(const struct table *t);
/* 1 when the seat to act is driven by the script (next line) or a bot. */
int table_auto_turn(const struct table *t);
/* Play the seat to act automatically (script line or bot). 0 done, 3 a
 * scripted line could not be applied (message in err), 4 the move could
 * not be stored, 5 nor written to the hand history (TABLE_NOT_STORED,
 * TABLE_NOT_LOGGED: nothing was played). */
int table_auto_step(struct table *t, char *err, size_t errlen);
/* Play a human action. 0, or -1 with the reason phrased into why. */
int table_play(struct table *t, const struct action *a, struct sbuf *why);
/* Play seat's action (a person at this machine or over the network). 0, or
 * -1 with why filled (code TABLE_NOT_YOUR_TURN when seat is not to act);
 * the caller tells the seat's view (view_refusal). */
int table_act(struct table *t, int seat, const struct action *a, struct refusal *why);
/* 1 when seat is to act and the table waits for its player (no script
 * line, not a bot). */
int table_awaits(const struct table *t, int seat);
/* Who plays seat from now on: a person (SEAT_HUMAN: the table waits for
 * table_act) or a bot of that level (SEAT_BOT). */
void table_set_seat(struct table *t, int seat, int kind, int level);
/* The people at the seats from now on: person[s] holds seat s ("" or
 * NULL: nobody, a bot plays it; a person away keeps the seat's name), for
 * players seats. The views name the seats so (a bot's seat by a bot's
 * name), and the hand history's game_start lists them. A change of name
 * refreshes the views of a table being played. */
void table_set_names(struct table *t, const char *const *person);
/* The number of actions played, and action i (from 0) with its seat: 0, or
 * -1 when there is no such action or it is of a finished deal. */
int table_played(const struct table *t);
/* The actions applied (what `moves` counts in messages). */
int table_moves(const struct table *t);
int table_journal(const struct table *t, int i, int *seat, struct action *a);
/* Only the actions of the deal being played are kept: table_journal knows
 * actions table_played() - table_kept() to table_played() - 1. Returns how
 * many are kept, and the room held for them in *cap (when not NULL). */
int table_kept(const struct table *t, int *cap);
/* Write what the hand history holds so far to its file (none: nothing):
 * 0, or -1 when it could not be written (a later call tries again). */
int table_log_flush(struct table *t);
/* From now on every action applied (not replayed) is written to the hand
 * history and given to commit (its index is table_played) before anyone is
 * told of it; when either fails, the action is undone, nothing is told, and
 * it is refused with code TABLE_NOT_LOGGED or TABLE_NOT_STORED. The hand
 * history's lines are held until written together (hist_hold). */
void table_set_commit(struct table *t, int (*commit)(void *ctx, int seat, const struct action *a), void *ctx);
/* After a silent replay with a commit set: the hand history's file made to
 * hold exactly the game replayed (hist_reconcile). 0 or -1 with a message. */
int table_log_reconcile(struct table *t, char *err, size_t errlen);
/* The hand history's file given a second name, path (hist_link): 0, or -1
 * with a message. */
int table_log_link(struct table *t, const char *path, char *err, size_t errlen);
/* The rule options in force. */
const struct rules *table_rules(const struct table *t);
/* Views: attach (0, or -1 when the list is full) and detach at any time;
 * the table tells v through ear (view_init attaches so). */
int table_attach(struct table *t, struct view *v, const struct table_ear *ear);
void table_detach(struct table *t, struct view *v);
/* The player at this machine from now on (a copy of *p; NULL: none). Its
 * view is attached by its owner, not by this call. */
void table_set_player(struct table *t, const struct table_player *p);
/* The view of the player at this machine (NULL: none). */
struct view *table_local_view(const struct table *t);
/* Refresh every view (after a silent replay, or to prompt the seat to act). */
void table_refresh_views(struct table *t);
/* Refresh t->view for the human (or a spectator) and return it. */
const void *table_view(struct table *t);
/* Say something to the player at this machine (none: nothing), in French
 * with the contractions made; flags: SPEECH_INTERRUPT or SPEECH_QUEUE. */
void table_say(struct table *t, const char *text, int flags);
/* A saved game read back: its options (deck_stack points to stack when it
 * has stacked packs), its actions, and where appending goes on. */
struct table_saved {
	struct table_options opt;
	struct deckstack stack;
	struct script actions;
	long valid_len;
	uint32_t crc;
	int torn;                /* a torn last line was left out */
};

/* Save the game from now on in a new save at path (NULL: there is no place
 * for saves), replacing one there only when replace != 0. A save that
 * cannot be made is said once to the player and play goes on unsaved. */
int table_save_begin(struct table *t, const char *path, int replace);
/* Go on appending to the save a resumed game was read from. */
int table_save_resume(struct table *t, const char *path, const struct table_saved *s);
/* Make the save durable now (quitting, an interrupt); also done at the end
 * of every deal. */
void table_save_sync(struct table *t);
/* 1 while the game is being saved. */
int table_saving(const struct table *t);
/* Read a saved game. 0, or -1 with a message (the file is never changed). */
int table_read_save(const char *path, struct table_saved *s, char *err, size_t errlen);
/* The same from the text of a save (named path in messages). */
int table_parse_save(const char *text, size_t len, const char *path, struct table_saved *s,
                     char *err, size_t errlen);
void table_saved_release(struct table_saved *s);
/* -1 with a message when the hand history or the text on standard output
 * could not be written (the game must stop), else 0. */
int table_output_failed(const struct table *t, char *err, size_t errlen);
/* At the end of play: close the hand history and flush the text output.
 * 0, or -1 with a message when anything could not be written. */
int table_finish_output(struct table *t, char *err, size_t errlen);
/* Play the actions of a saved game silently (after table_start); 0, or -1
 * with a message when one does not apply. */
int table_replay(struct table *t, const struct script *actions, char *err, size_t errlen);

#endif
