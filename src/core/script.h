/* SPDX-License-Identifier: GPL-3.0-or-later */
/* script: the `--actions FILE` reader (docs/tapis.6): one
 * action a line, "SEAT ACTION [ARGUMENTS]", '#' starts a comment. */
#ifndef TAPIS_SCRIPT_H
#define TAPIS_SCRIPT_H

#include <stddef.h>

#include "core/action.h"

/* The longest line of an --actions file (comments included); a longer one
 * is refused, never cut. */
#define SCRIPT_LINE_MAX 512
#define SCRIPT_NAME_MAX 256  /* room for the file's name, said in messages */

struct script_line {
	int line;           /* line number in the file */
	int seat;
	struct action act;
	char text[ACT_STR_MAX]; /* the line as written, trimmed, control characters escaped */
};

struct script {
	char name[SCRIPT_NAME_MAX];
	int n, next, cap;
	struct script_line *lines;
};

/* Parse; 0, or -1 with "FILE:LINE: problem" (syntax only: legality is
 * checked when the line is used). `players` bounds the seats. */
int script_parse(struct script *s, const char *text, const char *name, int players,
                 char *err, size_t errlen);
int script_load(struct script *s, const char *path, int players, char *err, size_t errlen);
void script_release(struct script *s);
/* The next unused line, or NULL when all are used. */
const struct script_line *script_peek(const struct script *s);
void script_advance(struct script *s);

#endif
