/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/sdnotify.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#ifdef HAVE_SYSTEMD
static void say(const char *text)
{
	sd_notify(0, text);
}
#else
static void say(const char *text)
{
	(void)text;
}
#endif

int sdnotify_built(void)
{
#ifdef HAVE_SYSTEMD
	return 1;
#else
	return 0;
#endif
}

void sdnotify_init(struct sdnotify *n)
{
	memset(n, 0, sizeof *n);
#ifdef HAVE_SYSTEMD
	uint64_t usec = 0;
	if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0)
		n->every_ms = (long long)(usec / 2000); /* half of it, in ms */
	if (n->every_ms < 1 && usec > 0)
		n->every_ms = 1;
#endif
}

void sdnotify_ready(struct sdnotify *n, const char *status)
{
	(void)n;
	char text[300];
	snprintf(text, sizeof text, "READY=1\nSTATUS=%.256s", status ? status : "");
	say(text);
}

void sdnotify_reloading(struct sdnotify *n)
{
	(void)n;
#ifdef HAVE_SYSTEMD
	/* systemd 253 on wants the monotonic time with it. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	char text[80];
	snprintf(text, sizeof text, "RELOADING=1\nMONOTONIC_USEC=%llu",
	         (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL);
	say(text);
#endif
}

void sdnotify_stopping(struct sdnotify *n)
{
	(void)n;
	say("STOPPING=1");
}

void sdnotify_tick(struct sdnotify *n, long long now_ms)
{
	if (!n->every_ms || (now_ms - n->last_ms < n->every_ms && now_ms >= n->last_ms))
		return;
	n->last_ms = now_ms;
	n->pings++;
	say("WATCHDOG=1");
}
