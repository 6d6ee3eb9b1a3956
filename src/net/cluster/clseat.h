/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clseat: one person, one table across the nodes of a cluster
 * (docs/cluster.md, "One person, one table"). A node seats a person at
 * one of its tables only once it holds the person's key,
 * tapis:seat:NAME = "TABLE NODE", taken in one script: refused while the
 * key names another table and its node's lease is alive (the seat held
 * there), unless that seat is given up (force). Two nodes seating one
 * person at once: one wins, the other asks. A refusal whose other seat
 * is not at a game in play (as the table's row in the directory, or this
 * node's own table, says) is taken over anyway, as one server gives up a
 * waiting table's seat without a question. A key taken over names the
 * seat it replaced: that seat is given up where its table runs (here,
 * or by the message {"from":NODE,"name":NAME,"table":T} on
 * tapis:stand:NODE). A stand drops the key (compare and delete); the key
 * lives with its node's lease and its table's, so a node lost frees its
 * seats' keys, and the node that restores one of its tables takes them
 * again (a key had by another table meanwhile: that seat is given up). Without an
 * answer (the link down) the seat is taken as on one server. It fills
 * the lobby's lobby_seats. */
#ifndef TAPIS_CLSEAT_H
#define TAPIS_CLSEAT_H

struct cluster;
struct clnet;
struct lobby;
struct clseat;

#define CLSEAT_KEY "tapis:seat:"      /* + a person's name */
#define CLSEAT_CHANNEL "tapis:stand:" /* + a node's id: seats to give up there */
#define CLSEAT_TTL_MS (24LL * 3600 * 1000) /* a key not taken again is dropped after this */
#define CLSEAT_WAITING 4096           /* keys asked for at once (more: taken as on one server) */

/* Wire the lobby l (its lobby_seats) to the cluster c and the directory
 * of net (all outlive it). */
struct clseat *clseat_new(struct cluster *c, struct clnet *net, struct lobby *l);
void clseat_free(struct clseat *s);

#endif
