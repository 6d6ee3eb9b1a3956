/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tapis admin: the operator's commands on a server's store, while the
 * server runs or not (SQLite in WAL mode lets both write): roles, bans
 * (a running server notices one within net/mod's MOD_BAN_POLL_MS), and the
 * list of them with the audit of every act. */
#ifndef TAPIS_CMD_ADMIN_H
#define TAPIS_CMD_ADMIN_H

/* Parse a duration: N followed by s, m, h or d (no unit: minutes); 0 with
 * *seconds, or -1. */
int admin_duration(const char *text, long long *seconds);
int admin_main(int argc, char **argv);

#endif
