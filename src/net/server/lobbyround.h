/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbyround: the lobby's list as it goes out (net/server/lobbylist holds
 * each connection's view of it): a table's entry, the people online, the
 * snapshot a newcomer is sent, and each round of the list, the changes
 * found once and told to every connection in the lobby (and its events,
 * net/server/lobbyev). */
#ifndef TAPIS_LOBBYROUND_H
#define TAPIS_LOBBYROUND_H

#include <stddef.h>
#include <stdint.h>

#include "net/server/lobbydefs.h"

/* The people a snapshot names, and how many are online: found once for
 * all the snapshots of a round (each a walk of every person). */
struct snap_people {
	struct lobbylist_person p[LOBBYLIST_PEOPLE];
	int n, online, made;
};

/* For net/mod: the "joined" message of a member of h (seat -1: a
 * spectator); a table whose seats changed (told to its members when in
 * play, to the lobby at its next tick). */
char *lobbyround_joined_text(const struct host *h, int seat);
/* A table's entry as the lobby lists it (a new reference). */
json_t *lobbyround_table_info(const struct host *h);
void lobbyround_table_changed(struct lobby *l, const struct host *h);
json_t *lobbyround_table_json(const struct host *h);
/* "joined", with the table as the lobby lists it (a player at a table in
 * play is not sent the lobby's list). */
char *lobbyround_joined_msg(const struct host *h, int seat);
/* "joined" for the one arriving at h (a seat taken, a table watched or
 * resumed), with where they are said in their language ("Table 3,
 * Bourré, 3 players. Start when ready.": the last words for its creator
 * while it waits). */
char *lobbyround_arrival_joined_msg(const struct host *h, int seat, const char *name, const char *lang);
/* The lobby as one arriving hears it: "Lobby: 2 tables, 3 people." */
const char *lobbyround_arrival(struct lobby *l, const char *lang, char *buf, size_t len);
/* A connection's snapshot of the lobby (its view's page), sent; its
 * bytes. people: kept for the next snapshot of the same moment, or NULL. */
size_t lobbyround_send_snapshot(struct lobby *l, struct lobby_conn *c, struct snap_people *people);
/* Flags by user index: 1 for a user at a table (seated or watching). One
 * pass over the tables' members, each found among the users by the
 * lobby's index of names, rather than every table searched for every user
 * (hundreds of each). */
unsigned char *lobbyround_users_at_tables(struct lobby *l);
/* A table's own entry to its members connected (as the lobby's updates
 * send it while the table waits). */
void lobbyround_send_table(struct lobby *l, const struct host *h);
/* A round of the lobby's list: each table whose hash changed has its entry
 * made once and compared with the one last listed (its changes since, one
 * entry), the tables gone
 * and the people who came and went; then each connection in the lobby (at
 * no table, or following it) is sent what of it its view shows, or its
 * snapshot when it has just come back to the lobby or asked for one. The
 * members of a table still waiting to begin are told its entry ("table")
 * when it changed. The bytes sent. */
size_t lobbyround_round(struct lobby *l, const unsigned char *at);
/* The lobby's changes to the connections in the lobby (at: by user, 1
 * for someone at a table): net/lobbyev, each told what its page shows;
 * called before lobbyround_round, whose deltas change the pages. */
void lobbyround_tell_changes(struct lobby *l, const unsigned char *at);

#endif
