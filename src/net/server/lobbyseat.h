/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbyseat: one person, one table. A seat taken by one who holds a seat
 * where a game goes on, at a table of this server or (in a cluster) of
 * another node, is asked about first (`ask`, in the person's language);
 * given up, that seat goes to a bot as a stand does. In a cluster the
 * seat is taken only once the person's key is had (lobby_seats.take,
 * net/cluster/clseat): the connection's messages wait for it meanwhile,
 * as for a password. */
#ifndef TAPIS_LOBBYSEAT_H
#define TAPIS_LOBBYSEAT_H

#include "net/server/lobbydefs.h"

/* A seat of name's at a table other than table (its id) whose game goes
 * on, here or on another node: 1 with its table and seat. */
int lobbyseat_held(struct lobby *l, const char *name, long table, long *at, int *seat);
/* The question about that seat, to c: keep it and go back (a sit
 * there), or give it up (the request again, with give_up; create: a
 * create's, else a sit's). */
void lobbyseat_ask(struct lobby *l, struct lobby_conn *c, int create, long at, int seat);
/* A sit at table (create: a create) from c, without give_up: 1 when
 * asked (a seat held elsewhere), 0 to go on. */
int lobbyseat_ask_held(struct lobby *l, struct lobby_conn *c, long table, int create, int give_up);
/* In a cluster: c's person to take a seat at table h (type, m as
 * lobbytab_join has them). A sit without give_up waits for the person's
 * key: 1, c waits (the sit is then taken as asked, its seat looked for
 * again). Given up (or m NULL: a create's seat, asked about before), the
 * key is taken after the seat, by force: 0, go on now. */
int lobbyseat_hold(struct lobby *l, struct lobby_conn *c, const struct host *h, int type, const struct req *m);
/* 1 when name holds a seat at table (run here) whose game goes on (its
 * seat in *seat). */
int lobbyseat_in_play(struct lobby *l, const char *name, long table, int *seat);
/* name's seat at table (run here), if they hold one, given up to a bot
 * as a stand does (they stay as a spectator). */
void lobbyseat_give_up(struct lobby *l, long table, const char *name);
/* name gave up their seat at h (told to the cluster). */
void lobbyseat_freed(struct lobby *l, const struct host *h, const char *name);

#endif
