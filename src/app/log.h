/* SPDX-License-Identifier: GPL-3.0-or-later */
/* log: the one way library code tells whoever runs the program something
 * that is not an error of the call (a table's history that cannot be
 * written, a store that stops writing, a server listening). Library code
 * never writes to stderr itself: it calls log_say, and the sink that the
 * command's entry point chose (log_set) writes the line. The same line at
 * most once every LOG_EVERY_MS; the ones not written are counted, and the
 * count told with the next one written ("(12 more like it)"). */
#ifndef TAPIS_LOG_H
#define TAPIS_LOG_H

#define LOG_EVERY_MS 1000

/* A sink: one whole line, without its newline. */
typedef void (*log_fn)(void *ctx, const char *line);

/* The sink of the program's lines; fn NULL restores the default,
 * log_stderr with "tapis". Set by main and by the server command. */
void log_set(log_fn fn, void *ctx);
/* The default sink: "PREFIX: line" on stderr, ctx the prefix (a string
 * that outlives the program's use of it). */
void log_stderr(void *ctx, const char *line);
/* A line (printf format, without a newline), unless the same went out
 * less than LOG_EVERY_MS ago: then counted. Its level is LOGL_WARNING when
 * it says "warning: " first (or after its subject, "store: warning: "),
 * LOGL_ERROR for "error: ", else LOGL_INFO. */
void log_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same at a level given. A line's subject is its first words, before
 * a colon ("store: ", "cluster: ", "reload: ", "ban: "). On standard
 * error when it is the journal's (JOURNAL_STREAM, under systemd), each
 * line begins with its level as syslog's <N>; plain otherwise. */
enum { LOGL_ERROR = 3, LOGL_WARNING = 4, LOGL_NOTICE = 5, LOGL_INFO = 6 };
void log_at(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The level log_say gives a line. */
int log_level_of(const char *line);
/* Write the counts of lines not written: those whose second is over, or
 * all of them. */
void log_flush(int all);

#endif
