/* SPDX-License-Identifier: GPL-3.0-or-later */
/* join: `tapis join URL`, a seat at a table of a tapis server. The lobby
 * and the making of a table are spoken menus (ui/menu); at the table the
 * keys are play's, answered from the view the server sends (net/remote);
 * Tab opens a chat line, F2 the table's menu (start, seats, stand up,
 * leave). With --table or --create the lobby is passed by options, so that
 * a client runs without a terminal (scripts, tests). */
#ifndef TAPIS_JOIN_H
#define TAPIS_JOIN_H

/* argv[0] is "join"; returns the exit status (0 done, 1 the server could
 * not be reached, 2 usage, 3 a scripted action refused). */
int join_main(int argc, char **argv);

#endif
