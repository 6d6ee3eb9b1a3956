/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hostview: how the members of a table hear it (net/server/host plays
 * it). The members who hear the table alike (one seat, or the spectators;
 * one language; one verbosity) are a kind of listener sharing one view
 * (app/view), so that an action is phrased once for each kind present,
 * never for each member; the view's sink turns what it says and its state
 * into messages, the same bytes to each member of the kind, a state as
 * its changes from the one before to a client that asked for them. A
 * member away keeps what they missed (HOST_MISSED_MAX). And the sentences
 * about a player told to every member. */
#ifndef TAPIS_HOSTVIEW_H
#define TAPIS_HOSTVIEW_H

#include "net/server/hostdefs.h"

struct json_t;

/* The seat of the player called name, or -1. */
int hostview_seat_of(const struct host *h, const char *name);
/* text (malloc'd, taken; NULL nothing) to member m: to their connection,
 * or kept among what they missed while away. */
void hostview_send(struct host *h, struct host_member *m, char *text);
/* A JSON string of s ("" when s is not UTF-8). */
struct json_t *hostview_text(const char *s);
/* Bind (again) the member to the view of their kind (seat, language,
 * verbosity): made for the first of a kind, when it sends the state at
 * once (and the prompt when the seat is to act); a kind already here
 * sends them its latest state. */
void hostview_bind(struct host *h, struct host_member *m);
/* The member hears their kind no more; the kind's view goes with its
 * last member. */
void hostview_unbind(struct host *h, struct host_member *m);
/* What was missed, sent back at the table (host_join): its heading and,
 * when the view has its state, where the game stands (view_catch_up_state:
 * the cards on the table, whose turn, the scores), in the member's
 * language, so that a client says it as it comes. */
void hostview_catch_up(struct host_member *mb, const struct view_state *vs);
/* A sentence about a player ("%s sits down.") told to every member; the
 * player themself hears self_msgid ("You sit at table %lld, seat %d."),
 * given the table's number and their seat counted from 1, when it is
 * given ("": nothing). */
void hostview_announce(struct host *h, const char *msgid, const char *self_msgid, const char *name);
/* A player's connection is gone: the others hear it at once, with the
 * minutes their seat waits for them (cfg keep_ms). */
void hostview_say_lost(struct host *h, const char *name);

#endif
