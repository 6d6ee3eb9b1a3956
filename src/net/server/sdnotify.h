/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sdnotify: the server telling systemd how it is (a unit of
 * Type=notify): READY=1 once it listens, RELOADING=1 and READY=1 around a
 * reload (SIGHUP), STOPPING=1 as it stops, and WATCHDOG=1 from the loop
 * at half the unit's WatchdogSec, so that a loop that stops turning is
 * killed and started again. Through libsystemd's sd_notify when built
 * with it (HAVE_SYSTEMD); the null version, without it, does nothing.
 * Outside systemd (no NOTIFY_SOCKET) each is nothing either. */
#ifndef TAPIS_SDNOTIFY_H
#define TAPIS_SDNOTIFY_H

struct sdnotify {
	long long every_ms;   /* the watchdog's ping every this often (0: no watchdog) */
	long long last_ms;    /* the last ping */
	long pings;
};

/* The watchdog asked for by the unit (WATCHDOG_USEC), read once. */
void sdnotify_init(struct sdnotify *n);
/* "READY=1" and the status line given. */
void sdnotify_ready(struct sdnotify *n, const char *status);
void sdnotify_reloading(struct sdnotify *n);
void sdnotify_stopping(struct sdnotify *n);
/* Each tick: WATCHDOG=1 when it is time. */
void sdnotify_tick(struct sdnotify *n, long long now_ms);
/* 1 when built with libsystemd. */
int sdnotify_built(void);

#endif
