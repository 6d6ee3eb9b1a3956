/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbytab: the tables of the lobby: entering one (a seat, as a
 * spectator; a private table's password), making one (the caps per
 * person, address and network), a table resumed from the saved ones, a
 * table restored from the store or dropped for another node, and each
 * table's tick (its bots, its grace periods, saved when nobody is left,
 * the starts waiting their turn). */
#ifndef TAPIS_LOBBYTAB_H
#define TAPIS_LOBBYTAB_H

#include <stddef.h>
#include <stdint.h>

#include "net/server/lobbydefs.h"

/* Restore one stored table (not a saved one) and run it here: its
 * players sit back down when they log in again. The caller took it over
 * in the store first (store_table_own), then read its row. 0, or -1 (said
 * in the log). */
int lobbytab_restore_table(struct lobby *l, const struct store_table *t);
/* The same for a table restored already (host_restore on another
 * connection to the store, off the loop: net/cladopt): run here from now,
 * on the lobby's store, settings and output (h is the lobby's). */
void lobbytab_add_restored(struct lobby *l, struct host *h);
/* Stop running table id without writing anything of it (another process
 * runs it now): its members here are told "left" (reason "moved"). 1
 * dropped, 0 not here. */
int lobbytab_drop_table(struct lobby *l, long id);
int lobbytab_is_creator(struct lobby *l, struct lobby_conn *c, struct host *h, int type);
/* The key of a private table's password in the limiter: no name holds a #. */
void lobbytab_table_key(const struct host *h, char key[64]);
/* A private table's password, unless already a member or its creator: 1
 * to enter now, 0 not now (refused, or its password given to the worker:
 * the answer comes to on_auth). */
int lobbytab_may_enter(struct lobby *l, struct lobby_conn *c, struct host *h, struct req *m);
void lobbytab_join(struct lobby *l, struct lobby_conn *c, struct host *h, int seat, int type, const struct req *m);
/* In a cluster, the answer for the key of the seat c waited for
 * (lobbyseat_hold; m: what it held): won, the seat taken now; else the
 * question about the seat held at table at. */
void lobbytab_seat_keyed(struct lobby *l, struct lobby_conn *c, const struct req *m, int won, long at, int seat);
/* The same for a seat of a table restored here: not won, it is given up
 * (its person took a seat elsewhere meanwhile). */
void lobbytab_seat_restored(struct lobby *l, long table, const char *name, int won);
/* Make the table of a create (pwhash: its password's hash, a private
 * one's), the creator seated or watching. */
void lobbytab_make_table(struct lobby *l, struct lobby_conn *c, struct req *m, const char *pwhash);
void lobbytab_on_create(struct lobby *l, struct lobby_conn *c, struct req *m);
/* "resume": a player of a saved table takes it up again, at their seat;
 * the others sit back down when they come, or resume it too (the second
 * of two at once finds it taken up already: back at their seat). */
void lobbytab_on_resume(struct lobby *l, struct lobby_conn *c, struct req *m);
/* Table i's timers: closed when its time is up, saved when idle, its
 * away players' seats released, its bots' and turn timer's moves; then
 * when it is next due. 1 when it went. */
int lobbytab_tick_table(struct lobby *l, int i, long long now_ms);
/* A table's game begun now, its time counted against LOBBY_START_MS. */
void lobbytab_start_now(struct lobby *l, struct host *h, long long now_ms);
/* The starts that waited, in turn, as long as the time allows (one at
 * least). */
void lobbytab_start_waiting(struct lobby *l, long long now_ms);

#endif
