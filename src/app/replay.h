/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay: read a hand history (`--log FILE`, docs/tapis.6) and rebuild the game.
 *
 * The first line (game_start) gives the game, players, seed and rules; the
 * packs of the hand_start lines give the stacked packs of a game played
 * with --deck; every action line is applied in order. The events the game
 * emits again are written with hist_format and compared with the file line
 * by line (seq included): the first difference is reported with its line
 * number. A log that stops in the middle of a game (a game left with Q) is
 * fine as long as it stops after the events of an action.
 *
 * Which first dealer (drawn from the seed, or given with --dealer) and how
 * many packs were stacked is not in the log: the replay tries the seed
 * alone, then every pack of the log stacked, then fewer packs, with the
 * dealer drawn or given, and keeps the first that reproduces the file. */
#ifndef TAPIS_REPLAY_H
#define TAPIS_REPLAY_H

#include <stddef.h>
#include <stdio.h>

enum replay_status {
	REPLAY_SAME = 0,      /* the game rebuilt gives the same lines */
	REPLAY_INVALID = -1,  /* unreadable, not our JSON, unknown game/rule/word (exit 2) */
	REPLAY_DIFFERS = -2,  /* a line differs, an action is refused (exit 3) */
};

/* How the packs are found. */
enum replay_mode {
	REPLAY_AUTO,   /* try the seed, the log's packs stacked, fewer packs... */
	REPLAY_SEED,   /* every pack from the seed (a game played without --deck) */
	REPLAY_STACK,  /* every pack of the log stacked (as many as a deck holds) */
};

struct replay_result {
	int status;        /* enum replay_status */
	int line;          /* the line named by the message (1, 2, ...), 0 none */
	int lines;         /* lines read */
	int actions;       /* actions applied */
	int hands;         /* hand_start lines replayed */
	int stacked;       /* packs stacked in the replay that matched */
	int dealer_given;  /* 1: the first dealer was given, not drawn */
	int cut;           /* 1: the log ends inside the events of its last
	                      action (a game stopped suddenly): the rest of
	                      that action's events are missing, what is there
	                      replays the same */
	char msg[1024];    /* "NAME:LINE: what is wrong" */
};

/* Replay the log held in text (NUL-terminated; `name` names it in
 * messages). When announce is not NULL, the announcements of the game are
 * written to it, one a line, as a spectator hears them in the current
 * language (for a log that does not replay: up to the difference). Returns
 * res->status. */
int replay_text(const char *text, const char *name, enum replay_mode mode, FILE *announce,
                struct replay_result *res);

/* The same for size bytes that need not end with a NUL: a NUL byte inside
 * is an error like any byte that is not JSON. */
int replay_buffer(const char *text, size_t size, const char *name, enum replay_mode mode, FILE *announce,
                  struct replay_result *res);

/* The longest line of a hand history: far above any line tapis writes. */
#define REPLAY_LINE_MAX 16384

/* The same for a log read one line at a time (core/file), of any length:
 * it is read once to check every line, then once more for each way of
 * setting the game up that is tried (the stream must be able to seek back
 * to its start). Nothing of the log but its first line is held. */
struct file_lines;
int replay_lines(struct file_lines *in, const char *name, enum replay_mode mode, FILE *announce,
                 struct replay_result *res);

/* Read and replay a file (one line at a time: any length): 0 when identical, else -1 (invalid) or -2
 * (differs) with the message "PATH:LINE: ..." in err. */
int replay_file(const char *path, FILE *announce, char *err, size_t errlen);

#endif
