/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mod: what keeps the lobby pleasant and lets friends play again: the
 * moderators' acts (mute, kick, ban, each written to the store's audit),
 * the bans the operator or a moderator set (refused at login, noticed
 * within MOD_BAN_POLL_MS while the server runs), each person's own mutes,
 * the chat's flood control, invitations to a table, and the rematch
 * offered at a game's end. The lobby calls it from its dispatch and at a
 * few points (login, chat, entering a private table, every message sent,
 * its tick); everything it says goes out through the lobby's send. */
#ifndef TAPIS_MOD_H
#define TAPIS_MOD_H

#include "net/proto.h"

struct lobby;
struct lobby_conn;
struct mod;

/* Chat: more than MOD_FLOOD_LINES lines in MOD_FLOOD_MS are refused ("slow
 * down"); MOD_FLOOD_STRIKES refusals in that time mute the person for
 * MOD_FLOOD_MUTE_MIN minutes. */
#define MOD_FLOOD_LINES 5
#define MOD_FLOOD_MS 10000
#define MOD_FLOOD_STRIKES 3
#define MOD_FLOOD_MUTE_MIN 5
#define MOD_MUTE_MIN 10           /* a moderator's mute when no minutes are given */
#define MOD_BAN_MIN 60            /* a moderator's ban when no minutes are given */
#define MOD_BAN_POLL_MS 2000      /* the store's bans are read again this often */
#define MOD_INVITE_MS (10 * 60 * 1000LL) /* an invitation holds this long */
#define MOD_INVITES_MAX 32        /* invitations waiting, per table */
#define MOD_MUTES_MAX 200         /* names one person may mute */

struct mod *mod_new(void);
void mod_free(struct mod *d);

/* At hello, once the name is checked: 1 when the name is banned (the
 * refusal, saying until when and why, was sent), else 0. */
int mod_login_refused(struct lobby *l, long conn, const char *name);
/* The person logged in: an account's own mutes are read from the store. */
void mod_login(struct lobby *l, const char *name, int guest);
/* A chat line of the connection's person: 1 when it may go out; else the
 * refusal (muted, slow down) was sent. */
int mod_chat_allowed(struct lobby *l, long conn, const char *name);
/* A server message (malloc'd) about to go to conn, without what its
 * person muted: NULL for a chat line of someone they muted (text freed),
 * a new text for what they missed at a table less those lines, else text
 * itself. */
char *mod_filter(struct lobby *l, long conn, char *text);
/* 1 when mod_filter may change text for someone: a chat line or a table's
 * missed lines while anybody mutes anybody (one buffer shared by many
 * listeners cannot then serve them all). */
int mod_filters(const struct lobby *l, const char *text);
/* 1 when name holds an invitation to the table. */
int mod_invited(struct lobby *l, long table, const char *name);
/* invite, rematch, mod, mute. */
void mod_message(struct lobby *l, struct lobby_conn *c, const struct proto_msg *m, long long now_ms);
/* Rematch offers at the tables that ended, bans set while the server
 * runs, invitations that lapse. */
void mod_tick(struct lobby *l, long long now_ms);

#endif
