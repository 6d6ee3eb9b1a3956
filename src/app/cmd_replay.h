/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_replay: the `tapis replay` command line (docs/tapis.6, REPLAY); the
 * replay itself is app/replay. */
#ifndef TAPIS_CMD_REPLAY_H
#define TAPIS_CMD_REPLAY_H

/* `tapis replay LOG [--text] [--lang en|fr]` (argv[0] = "replay"): the exit
 * status of the manual page (0 identical, 2 unreadable or invalid, 3 does not
 * replay). */
int replay_main(int argc, char **argv);

#endif
