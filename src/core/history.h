/* SPDX-License-Identifier: GPL-3.0-or-later */
/* history: the hand history, one JSON object a line (`--log FILE`, docs/tapis.6). */
#ifndef TAPIS_HISTORY_H
#define TAPIS_HISTORY_H

#include <stdint.h>
#include <stdio.h>

#include "core/event.h"
#include "core/rules.h"

/* Room for one line of the hand history (far above the longest a game writes). */
#define HIST_LINE_MAX 8192
/* Room for the name of where the history goes, said in messages. */
#define HIST_NAME_MAX 256

struct history {
	FILE *f;
	int owned;     /* opened by us (closed on release) */
	int seq;
	int failed;    /* a write failed: nothing more is written */
	int error;     /* its errno (0: unknown) */
	char name[HIST_NAME_MAX];
};

/* path "-" is standard output. 0, or -1 with a message. */
int hist_open(struct history *h, const char *path, char *err, size_t errlen);
/* Write to an already open stream (not closed on release). */
void hist_attach(struct history *h, FILE *f);
/* Close (or flush, for a stream not ours): 0, or -1 with a message when any
 * write of the history failed. */
int hist_close(struct history *h, char *err, size_t errlen);
/* hist_close when the outcome no longer matters (an error path). */
void hist_release(struct history *h);
/* Every line is written and flushed at once, so that a game killed at any
 * moment leaves a history that replays up to its last action. 0, or -1 when
 * the write failed (then and after: see hist_failed). */
/* seed_from: who chose the seed ("server", "client"; a server's tables),
 * or NULL (no such field: local play). */
int hist_game_start(struct history *h, const char *game, int players, uint64_t seed, const char *seed_from,
                    const struct rules *r);
int hist_event(struct history *h, const struct event *e);
/* -1 with a message naming the file when a write failed, else 0. */
int hist_failed(const struct history *h, char *err, size_t errlen);
/* The log word of an event type ("game_start"...), and back: the type
 * of a word, -1 when none has it. */
const char *hist_type_word(int type);
int hist_type_of(const char *word);
/* One event as a JSON object (no newline) into buf; returns the length. */
size_t hist_format(const struct event *e, int seq, char *buf, size_t len);

#endif
