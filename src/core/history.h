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
	FILE *f;       /* a stream (standard output, or attached), or NULL */
	int fd;        /* a file of ours, written a whole line at a time (when owned) */
	int owned;     /* opened by us (closed on release) */
	int shut;      /* the file is open only while read or written (hist_shut): fd is -1 between */
	int seq;
	int failed;    /* a write failed: nothing more is written (but by hist_sync) */
	int error;     /* its errno (0: unknown) */
	long long size; /* the bytes of the file, whole lines only */
	int hold;      /* lines wait in held until hist_sync writes them, all at once */
	char *held;
	size_t nheld, capheld;
	char *path;    /* the file's path (owned files) */
	char name[HIST_NAME_MAX];
};

/* How hist_open treats a file already there: HIST_REPLACE empties it (a
 * player's --log); HIST_NEW never touches it: it is moved aside to PATH.1
 * (or .2, ...) and a new file made; HIST_APPEND goes on after it. Files
 * are made 0600. */
enum hist_mode { HIST_REPLACE, HIST_NEW, HIST_APPEND };

/* Where the history stood: taken before an action, so that the lines of an
 * action undone can be taken back (hist_rewind). */
struct hist_mark {
	long long size;
	size_t held;
	int seq;
};

/* path "-" is standard output. 0, or -1 with a message. */
int hist_open(struct history *h, const char *path, char *err, size_t errlen);
int hist_open_mode(struct history *h, const char *path, enum hist_mode mode, char *err, size_t errlen);
/* A file of ours is closed now and opened again only for each write (or
 * read, or cut) and closed after: a server holding thousands of tables
 * holds no descriptor for any between their moves. */
void hist_shut(struct history *h);
/* The file of ours renamed to path (rename(2): a file there is replaced);
 * what is written later goes on in it. 0, or -1 with a message. */
int hist_rename(struct history *h, const char *path, char *err, size_t errlen);
/* Lines wait in memory from now on, written by hist_sync. */
void hist_hold(struct history *h);
/* Write the lines held, whole: 0, or -1 when the write failed, and then
 * the file is cut back to its last whole line and the lines stay held (a
 * later call tries again). Nothing held: 0 (or -1 after a failure). */
int hist_sync(struct history *h);
struct hist_mark hist_mark(const struct history *h);
/* Take back what was held or written since the mark (file cut back). */
void hist_rewind(struct history *h, struct hist_mark m);
/* A history opened HIST_APPEND whose lines were held while the game was
 * replayed: the file is made to hold exactly those lines: when it holds
 * their beginning, what is missing is written after it; any other file
 * (longer: lines of moves never stored; another game) is moved aside
 * (PATH.1...) and the lines written to a new one. 0, or -1 when a write
 * failed (the lines stay held: hist_sync tries again). */
int hist_reconcile(struct history *h, char *err, size_t errlen);
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
/* seed_from: who chose the seed ("server", "client", "operator": a
 * server's tables), or NULL (no such field: local play). names: the people
 * at the seats (players entries, "" a bot), written as game_start's
 * "names"; NULL: none (a game at one machine). */
int hist_game_start(struct history *h, const char *game, int players, uint64_t seed, const char *seed_from,
                    const struct rules *r, const char *const *names);
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
