/* table: one game in progress and everything around it: the state, who
 * controls each seat (human, bot, script), the event fan-out (hand history,
 * announcements, sound cues), the saved game. The main loop and the tests
 * drive it. */
#ifndef TAPIS_TABLE_H
#define TAPIS_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/history.h"
#include "core/script.h"
#include "core/sbuf.h"
#include "speech/talk.h"

struct speech;
struct audio;

enum seat_kind { SEAT_HUMAN, SEAT_BOT };

struct table_options {
	const struct game_ops *game;
	int players;
	int dealer;              /* -1: from the seed */
	uint64_t seed;
	struct rules rules;
	int seat_kind[GAME_MAX_SEATS];
	int bot_level[GAME_MAX_SEATS];
	const char *deck_path;   /* --deck */
	const char *actions_path;/* --actions */
	const char *log_path;    /* --log */
	const char *save_path;   /* where the game is saved after every action, or NULL */
	char deck_store[1024];   /* the deck path read from a saved game */
};

struct table {
	struct table_options opt;
	const struct game_ops *g;
	const struct game_talk *gt;
	void *st;                /* the real state */
	void *view;              /* scratch: the state redacted for the human */
	struct deckstack *stack; /* owned, NULL without --deck */
	struct script script;
	int has_script;
	struct history hist;
	struct rng bot_rng;
	struct talk talk;        /* me = the human seat (-1 when all are bots) */
	struct speech *sp;       /* may be NULL */
	struct audio *audio;     /* may be NULL */
	/* Events of the action being applied, phrased once it is complete. */
	struct event *pending;
	int npending, cap_pending;
	/* Every action played (for the saved game). */
	struct action *played;
	int *played_seat;
	int nplayed, cap_played;
	int hands_done;
	int game_over_said;
};

/* Set up a table: reads --deck, --actions, opens --log. 0, or -1 with a
 * message (nothing played; the caller exits with status 2). */
int table_open(struct table *t, const struct table_options *opt, struct speech *sp,
               struct audio *audio, char *err, size_t errlen);
void table_close(struct table *t);
/* game_start and the game's first events. */
void table_start(struct table *t);
/* Seat to act, -1 when over. */
int table_to_act(const struct table *t);
/* 1 when the seat to act is driven by the script (next line) or a bot. */
int table_auto_turn(const struct table *t);
/* Play the seat to act automatically (script line or bot). 0 done, 3 a
 * scripted line could not be applied (message in err). */
int table_auto_step(struct table *t, char *err, size_t errlen);
/* Play a human action. 0, or -1 with the reason phrased into why. */
int table_play(struct table *t, const struct action *a, struct sbuf *why);
/* Refresh t->view for the human (or a spectator) and return it. */
const void *table_view(struct table *t);
/* Say something to the player (NULL speech: nothing). */
void table_say(struct table *t, const char *text, int flags);
/* -1 with a message when the hand history or the text on standard output
 * could not be written (the game must stop), else 0. */
int table_output_failed(const struct table *t, char *err, size_t errlen);
/* At the end of play: close the hand history and flush the text output.
 * 0, or -1 with a message when anything could not be written. */
int table_finish_output(struct table *t, char *err, size_t errlen);
/* Save the game (seed, options, actions) atomically; 0 or -1. */
int table_save(const struct table *t);
/* Read a saved game: its options and its actions (as a script). 0, or -1
 * with a message. */
int table_read_save(const char *path, struct table_options *o, struct script *actions,
                    char *err, size_t errlen);
/* Play the actions of a saved game silently (after table_start); 0, or -1
 * with a message when one does not apply. */
int table_replay(struct table *t, const struct script *actions, char *err, size_t errlen);

#endif
