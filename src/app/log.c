/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/clock.h"

/* The one mutable state of core, and none of the rules': where the lines
 * go and which were lately written; under a lock, for the server's
 * workers may say a line too (a store failing on its own connection). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#define LOG_KINDS 8
static struct logged {
	char line[1280];
	long long at_ms;
	int unsaid;           /* the same since, not written */
	int level;            /* LOGL_ERROR ... LOGL_INFO */
} logged[LOG_KINDS];
static int journal = -1;  /* standard error is the journal's stream: -1 not yet looked at */

static log_fn sink = log_stderr;
static void *sink_ctx = "tapis";

static long long now_ms(void)
{
	return (long long)clock_ms();
}

void log_set(log_fn fn, void *ctx)
{
	sink = fn ? fn : log_stderr;
	sink_ctx = fn ? ctx : "tapis";
}

void log_stderr(void *ctx, const char *line)
{
	fprintf(stderr, "%s: %s\n", ctx ? (const char *)ctx : "tapis", line);
}

/* 1 when standard error is the journal's stream (systemd sets
 * JOURNAL_STREAM to its device and inode). */
static int to_journal(void)
{
	if (journal < 0) {
		const char *js = getenv("JOURNAL_STREAM");
		unsigned long long dev = 0, ino = 0;
		struct stat st;
		journal = js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0 &&
		          (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
	}
	return journal;
}

static void write_line(const struct logged *g, const char *line)
{
	char buf[1320];
	if (g && g->unsaid) {
		snprintf(buf, sizeof buf, "%s (%d more like it)", line, g->unsaid);
		line = buf;
	}
	/* To the journal, the level first: <N>, syslog's priorities, which
	 * journald reads off the line (and strips). */
	if (sink == log_stderr && to_journal())
		fprintf(stderr, "<%d>", g ? g->level : LOGL_INFO);
	sink(sink_ctx, line);
}

int log_level_of(const char *line)
{
	if (!strncmp(line, "error: ", 7) || strstr(line, ": error: "))
		return LOGL_ERROR;
	if (!strncmp(line, "warning: ", 9) || strstr(line, ": warning: "))
		return LOGL_WARNING;
	return LOGL_INFO;
}

static void say(int level, const char *fmt, va_list ap)
{
	char line[sizeof logged[0].line];
	vsnprintf(line, sizeof line, fmt, ap);
	if (level <= 0)
		level = log_level_of(line);
	long long now = now_ms();
	pthread_mutex_lock(&lock);
	struct logged *g = NULL, *oldest = &logged[0];
	for (int i = 0; i < LOG_KINDS; i++) {
		if (logged[i].line[0] && !strcmp(logged[i].line, line))
			g = &logged[i];
		if (logged[i].at_ms < oldest->at_ms)
			oldest = &logged[i];
	}
	if (g && now - g->at_ms < LOG_EVERY_MS) {
		g->unsaid++;
		pthread_mutex_unlock(&lock);
		return;
	}
	if (!g) {
		if (oldest->line[0] && oldest->unsaid)
			write_line(oldest, oldest->line);
		g = oldest;
		snprintf(g->line, sizeof g->line, "%s", line);
		g->unsaid = 0;
	}
	g->level = level;
	write_line(g, line);
	g->unsaid = 0;
	g->at_ms = now;
	pthread_mutex_unlock(&lock);
}

void log_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(0, fmt, ap);
	va_end(ap);
}

void log_at(int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(level, fmt, ap);
	va_end(ap);
}

void log_flush(int all)
{
	long long now = now_ms();
	pthread_mutex_lock(&lock);
	for (int i = 0; i < LOG_KINDS; i++)
		if (logged[i].unsaid && (all || now - logged[i].at_ms >= LOG_EVERY_MS)) {
			write_line(&logged[i], logged[i].line);
			logged[i].unsaid = 0;
			logged[i].at_ms = now;
		}
	pthread_mutex_unlock(&lock);
}
