/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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
} logged[LOG_KINDS];

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

static void write_line(const struct logged *g, const char *line)
{
	if (g && g->unsaid) {
		char buf[1320];
		snprintf(buf, sizeof buf, "%s (%d more like it)", line, g->unsaid);
		sink(sink_ctx, buf);
	} else {
		sink(sink_ctx, line);
	}
}

void log_say(const char *fmt, ...)
{
	char line[sizeof logged[0].line];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
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
	write_line(g, line);
	g->unsaid = 0;
	g->at_ms = now;
	pthread_mutex_unlock(&lock);
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
