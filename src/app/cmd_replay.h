/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_replay: the `tapis replay` command line (docs/tapis.6, REPLAY); the
 * replay itself is app/replay. */
#ifndef TAPIS_CMD_REPLAY_H
#define TAPIS_CMD_REPLAY_H

#include <stdio.h>

/* `tapis replay LOG [--text] [--lang en|fr]` (argv[0] = "replay"): the exit
 * status of the manual page (0 identical, 2 unreadable or invalid, 3 does not
 * replay). */
int replay_main(int argc, char **argv);

/* What `tapis replay -` keeps of its standard input at most (a hand
 * history of thousands of deals is a few megabytes). */
#define REPLAY_INPUT_MAX (64LL << 20)

/* A stream (standard input) kept in an unnamed temporary file, read from
 * its start, so that it can be read more than once. The copy stops after
 * a NUL byte (no hand history holds one: the replay then names its line),
 * and fails past max bytes. NULL with a message (name: what it is called
 * in it). */
FILE *replay_copy_stream(FILE *in, const char *name, long long max, char *err, size_t errlen);

#endif
