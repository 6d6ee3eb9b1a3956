/* history: the hand history, one JSON object a line (CLI.md "--log FILE"). */
#ifndef TAPIS_HISTORY_H
#define TAPIS_HISTORY_H

#include <stdint.h>
#include <stdio.h>

#include "core/event.h"
#include "core/rules.h"

struct history {
	FILE *f;
	int owned;     /* opened by us (closed on release) */
	int seq;
};

/* path "-" is standard output. 0, or -1 with a message. */
int hist_open(struct history *h, const char *path, char *err, size_t errlen);
/* Write to an already open stream (not closed on release). */
void hist_attach(struct history *h, FILE *f);
void hist_release(struct history *h);
void hist_game_start(struct history *h, const char *game, int players, uint64_t seed,
                     const struct rules *r);
void hist_event(struct history *h, const struct event *e);
/* One event as a JSON object (no newline) into buf; returns the length. */
size_t hist_format(const struct event *e, int seq, char *buf, size_t len);

#endif
