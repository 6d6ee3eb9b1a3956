/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbyev: what changes in the lobby, told as it happens to the people in
 * the lobby (at no table): someone arrives or leaves, a table is made,
 * begins, ends, is closed or saved. Each change is a small "lobby_event"
 * message whose sentence the server phrases in each listener's language
 * (docs/protocol.md). The changes are found by comparing the lobby with
 * what was told last, when the lobby's list goes out: many changes at once
 * (hundreds logging in) cost one comparison; each message is made once per
 * language and sent to all its listeners at once, and a listener hears a
 * few changes and how many more there were, of what its list shows (its
 * page of tables and people, and what comes onto it): news that grows
 * with its page, not with the lobby. net/lobby gives what it needs
 * (lobbyev knows nothing of the lobby's own structures). */
#ifndef TAPIS_LOBBYEV_H
#define TAPIS_LOBBYEV_H

#include <stddef.h>

#include "net/server/host.h"
#include "net/server/lobbylist.h"

#define LOBBYEV_MAX 6   /* events a listener is told at one time; more are counted */

struct lobbyev_table {
	long id;
	int state;              /* enum host_state */
};

struct lobbyev {
	char **online;          /* the names online as last told, sorted */
	int nonline, caponline;
	struct lobbyev_table *tables;   /* the tables as last told */
	int ntables, captables;
	int primed;             /* the first look only remembers */
};

struct lobbyev_listener {
	long conn;
	const char *name;
	const char *lang;
	/* What its list shows (net/lobbylist): it hears the changes of that
	 * only; NULL: every change. */
	const struct lobbylist_view *view;
};

/* The lobby now, and where its news go. */
struct lobbyev_in {
	const char *const *online;      /* the names online (any order) */
	int nonline;
	struct host *const *tables;
	int ntables;
	const struct lobbyev_listener *to;   /* the connections in the lobby */
	int nto;
	int (*saved)(void *ctx, long id);   /* 1 when a table gone was saved, not removed */
	/* text (malloc'd, taken) to n connections; one buffer for all. */
	void (*send_many)(void *ctx, const long *conns, int n, char *text);
	void *ctx;
	/* 1: the names online are those of the last look (online not read:
	 * nobody came or went). */
	int same_people;
};

/* Compare the lobby with what was told, tell the listeners what changed,
 * and remember it. */
void lobbyev_tick(struct lobbyev *e, const struct lobbyev_in *in);
/* Free what it holds. */
void lobbyev_release(struct lobbyev *e);

#endif
