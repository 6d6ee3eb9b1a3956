/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbylist: the lobby's list as each connection sees it. A connection in
 * the lobby is sent a snapshot of one page of the tables (those matching
 * its filter, in the lobby's order) and of the people online, then only
 * what changed among what that page shows ("lobby_delta"), each message
 * numbered so that a client can tell it missed one and ask again. What a
 * connection holds is bounded (a page of table ids, a page of people's
 * name hashes), and so is what it is sent, whatever the lobby's size.
 * net/lobby finds the round's changes once and gives them here; lobbylist
 * knows nothing of the lobby's own structures (docs/protocol.md). */
#ifndef TAPIS_LOBBYLIST_H
#define TAPIS_LOBBYLIST_H

#include <jansson.h>
#include <stdint.h>

#include "net/server/host.h"
#include "net/wire/proto.h"

#define LOBBYLIST_PAGE 50          /* tables in a page */
#define LOBBYLIST_PEOPLE 50        /* people named in a snapshot (the others counted) */

struct lobbylist_view {
	char filter[PROTO_FILTER_MAX * 4 + 1];   /* "" all */
	int page;
	int follow;             /* lobby changes also while at a table */
	int listening;          /* had its snapshot: is sent the deltas */
	int want;               /* a snapshot asked for, sent at the next round */
	long seq;               /* of the last message of the list sent */
	long held[LOBBYLIST_PAGE];   /* the tables it shows */
	int nheld;
	uint64_t people[LOBBYLIST_PEOPLE];   /* the hashes of the names it shows */
	int npeople;
};

struct lobbylist_person {
	const char *name;
	int guest;
};

/* A table made or changed in a round: its entry as the lobby lists it.
 * h is NULL for a table of another node of a cluster (net/clnet): it is
 * matched on its entry. */
struct lobbylist_entry {
	long id;
	const struct host *h;
	json_t *info;
	int made;
};

/* What changed in the lobby since the last round. */
struct lobbylist_round {
	const struct lobbylist_entry *tables;
	int ntables;
	const long *gone;
	int ngone;
	const struct lobbylist_person *in;   /* arrived */
	int nin;
	const char *const *out;              /* left */
	int nout;
	int online;             /* people online now */
	int count;              /* tables in the lobby now */
};

/* A change in the lobby told as news (net/lobbyev): a person who comes
 * or goes, or a table made, changed or gone. */
struct lobbylist_change {
	int person;             /* 1: name; 0: the table id */
	int in;                 /* a person who comes, a table made (h: matched with the filter) */
	const char *name;
	long id;
	const struct host *h;
};

/* Which of n changes the list of view v shows, as it stands before this
 * round's delta: a person or a table it holds, or one that comes onto
 * its page (while it has room; a table matching its filter), and the
 * later changes of what came onto it: seen[k] 1 or 0; the number seen. Each change is looked up once, whatever the
 * page holds. */
int lobbylist_sees(const struct lobbylist_view *v, const struct lobbylist_change *c, int n, unsigned char *seen);

/* 1 when a table matches a filter (a piece, without regard to ASCII case,
 * of its game's name or title, its creator's or a seated player's name, or
 * its number; "" matches all). */
int lobbylist_matches(const char *filter, const struct host *h);
/* The same for a table known by its entry alone (another node's). */
int lobbylist_matches_info(const char *filter, const json_t *info);
/* The snapshot of a view ("lobby"), its held tables and people set anew.
 * entry: a table's entry as the lobby lists it (a new reference); far:
 * the tables of the other nodes of a cluster, listed after these (h NULL;
 * NULL, 0 when none); people: some of the people online (the first
 * LOBBYLIST_PEOPLE are named), of online in all. */
char *lobbylist_snapshot(struct lobbylist_view *v, struct host *const *tables, int ntables,
                         json_t *(*entry)(const struct host *), const struct lobbylist_entry *far, int nfar,
                         const struct lobbylist_person *people, int npeople, int online);
/* What of a round concerns a view ("lobby_delta"), or NULL when nothing. */
char *lobbylist_delta(struct lobbylist_view *v, const struct lobbylist_round *r);

/* The deltas of one round, each made once for the views that show the
 * same (their filter, page, tables and people alike; the numbers of their
 * messages apart): thousands of people in the lobby looking at its first
 * page cost one delta, not thousands. Zeroed before the round's first
 * delta, freed after its last. */
#define LOBBYLIST_MEMO_MAX 64
struct lobbylist_memo {
	struct lobbylist_memo_item *item;
	int n;
};
/* lobbylist_delta of v, through m. */
char *lobbylist_delta_memo(struct lobbylist_memo *m, struct lobbylist_view *v, const struct lobbylist_round *r);
void lobbylist_memo_free(struct lobbylist_memo *m);

#endif
