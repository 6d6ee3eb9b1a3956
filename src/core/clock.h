/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clock: the one monotonic clock (CLOCK_MONOTONIC) that timers, waits and
 * measurements read, in seconds or milliseconds. */
#ifndef TAPIS_CLOCK_H
#define TAPIS_CLOCK_H

/* Monotonic seconds, fractions included. */
double clock_s(void);
/* Monotonic milliseconds, fractions included. */
double clock_ms(void);

#endif
