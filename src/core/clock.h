/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clock: the one monotonic clock (CLOCK_MONOTONIC) that timers, waits and
 * measurements read, in seconds or milliseconds; and a thread's CPU time. */
#ifndef TAPIS_CLOCK_H
#define TAPIS_CLOCK_H

/* Monotonic seconds, fractions included. */
double clock_s(void);
/* Monotonic milliseconds, fractions included. */
double clock_ms(void);
/* CPU seconds the calling thread has used (CLOCK_THREAD_CPUTIME_ID): what
 * a benchmark counts on a shared machine. */
double clock_cpu_s(void);

#endif
