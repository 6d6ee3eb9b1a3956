/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbyev: what changes in the lobby, told as it happens to the people in
 * the lobby (at no table): someone arrives or leaves, a table is made,
 * begins, ends, is closed or saved. Each change is a small "lobby_event"
 * message whose sentence the server phrases in each listener's language
 * (docs/protocol.md). The changes are found by comparing the lobby with
 * what was told last, when the lobby's list goes out: many changes at once
 * (hundreds logging in) cost one comparison, and a listener hears a few of
 * them and how many more there were. */
#ifndef TAPIS_LOBBYEV_H
#define TAPIS_LOBBYEV_H

#include <stddef.h>

struct lobby;

#define LOBBYEV_MAX 6   /* events a listener is told at one time; more are counted */

struct lobbyev_table {
	long id;
	int state;              /* enum host_state */
};

struct lobbyev {
	char **online;          /* the names online as last told, sorted */
	int nonline, caponline;
	struct lobbyev_table *tables;   /* the tables as last told, by id */
	int ntables, captables;
	int primed;             /* the first look only remembers */
};

/* Compare the lobby with what was told, and tell the connections in the
 * lobby (at: by user index, 1 for a user at a table) what changed. */
void lobbyev_tick(struct lobby *l, const unsigned char *at);
/* Free what it holds. */
void lobbyev_release(struct lobbyev *e);

#endif
