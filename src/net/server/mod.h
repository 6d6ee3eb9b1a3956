/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mod: what keeps the lobby pleasant and lets friends play again: the
 * moderators' acts (mute, kick, ban, each written to the store's audit),
 * the bans the operator or a moderator set (refused at login, noticed
 * within MOD_BAN_POLL_MS while the server runs), each person's own mutes,
 * the chat's flood control, invitations to a table, and the rematch
 * offered at a game's end. The lobby calls it through its lobby_ext at a
 * few points (login, chat, entering a private table, every message sent,
 * its dispatch and its tick); everything it says goes out through the
 * lobby's send. */
#ifndef TAPIS_MOD_H
#define TAPIS_MOD_H

#include <jansson.h>

struct lobby;

/* Chat: more than MOD_FLOOD_LINES lines in MOD_FLOOD_MS are refused ("slow
 * down"); MOD_FLOOD_STRIKES refusals in that time mute the person for
 * MOD_FLOOD_MUTE_MIN minutes. These are the defaults of the lobby's
 * chat_lines, chat_ms, chat_strikes and chat_mute_min (tapis serve
 * --chat-lines, --chat-seconds, --chat-strikes, --chat-mute-minutes),
 * which go up to the _MAX below. */
#define MOD_FLOOD_LINES 5
#define MOD_FLOOD_MS 10000
#define MOD_FLOOD_STRIKES 3
#define MOD_FLOOD_MUTE_MIN 5
#define MOD_FLOOD_LINES_MAX 100
#define MOD_FLOOD_STRIKES_MAX 20
#define MOD_MUTE_MIN 10           /* a moderator's mute when no minutes are given */
#define MOD_BAN_MIN 60            /* a moderator's ban when no minutes are given */
#define MOD_BAN_POLL_MS 2000      /* the store's bans are read again this often */
#define MOD_INVITE_MS (10 * 60 * 1000LL) /* an invitation holds this long */
#define MOD_INVITES_MAX 32        /* invitations waiting, per table */
#define MOD_MUTES_MAX 200         /* names one person may mute */
/* Invitations sent and rematches asked: MOD_ASKS in MOD_ASKS_MS per
 * person, the next refused ("slow down"); a rematch asked again is said to
 * the others once. */
#define MOD_ASKS 5
#define MOD_ASKS_MS 60000

/* Give the lobby its moderation, invitations and rematches (its
 * lobby_ext, released with the lobby). */
void mod_attach(struct lobby *l);
/* The store's bans read again at the next tick (SIGHUP). */
void mod_reread_bans(struct lobby *l);
/* The "invited" message of a table (its entry as the lobby lists it) from
 * by, in the language named (net/clnet: an invitation from another node). */
char *mod_invited_text(const char *lang, const char *by, const json_t *info);

#endif
