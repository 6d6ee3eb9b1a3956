/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbyacct: the people of the lobby: a hello (a name checked, a password
 * given to the worker), the welcome and the seats a person comes back
 * to, their logout, the accounts that remember (settings, figures,
 * leaders, the history of their last games), and the lobby's chat. */
#ifndef TAPIS_LOBBYACCT_H
#define TAPIS_LOBBYACCT_H

#include <stddef.h>
#include <stdint.h>

#include "net/server/lobbydefs.h"

/* For net/clnet: a chat line of the lobby said on another node, told to
 * the people here; a connection of a person of another node, relayed
 * (conn >= LOBBY_RELAYED_CONN, opened with lobby_open), logged in by that
 * node's word (no password here, no welcome: they sit back down where
 * they hold a place). */
void lobbyacct_chat_heard(struct lobby *l, const char *from, const char *text);
void lobbyacct_relayed_login(struct lobby *l, long conn, const char *name, const char *lang, int guest);
void lobbyacct_logout(struct lobby *l, struct lobby_conn *c, long long now_ms);
void lobbyacct_on_settings(struct lobby *l, struct lobby_conn *c, struct req *m);
void lobbyacct_on_stats(struct lobby *l, struct lobby_conn *c, struct req *m);
void lobbyacct_on_leaders(struct lobby *l, struct lobby_conn *c, struct req *m);
/* history: the registered player's last games, and the hand history of
 * one of them (the table asked for, or the latest) as its JSONL text. */
void lobbyacct_on_history(struct lobby *l, struct lobby_conn *c, struct req *m);
void lobbyacct_welcome(struct lobby *l, struct lobby_conn *c, const char *name, const char *lang, int guest,
                    const char *resume_token);
/* Back at table h, where u holds a seat or a spectator's place. */
void lobbyacct_seat_back(struct lobby *l, struct lobby_conn *c, struct lobby_user *u, struct host *h);
void lobbyacct_on_hello(struct lobby *l, struct lobby_conn *c, struct req *m);
void lobbyacct_chat(struct lobby *l, struct lobby_conn *c, struct req *m);
/* Forget the people gone who hold no seat (their guest names are free
 * again); the connections keep pointing at the right entries. */
void lobbyacct_prune_users(struct lobby *l, unsigned char *at);

#endif
