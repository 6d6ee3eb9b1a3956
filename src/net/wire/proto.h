/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto: the network protocol's words shared by the server and its clients
 * (docs/protocol.md): its version and limits, a message as JSON text
 * (jansson), the error message, and a client's way of holding a table's
 * state from its messages. What the client messages mean to the server is
 * net/server/req's; this knows nothing of games. */
#ifndef TAPIS_PROTO_H
#define TAPIS_PROTO_H

#include <stddef.h>


#define PROTO_VERSION 1
#define PROTO_CLOSE_AGAIN 4001   /* a WebSocket close: connect again at once (error `reconnect` before it) */
#define PROTO_MAX_MESSAGE 8192   /* bytes of one client message */
#define PROTO_SMALL_MESSAGE 1024 /* bytes of one that carries no text of its own (the dispatch's rows say which) */
#define PROTO_NAME_MAX 24        /* characters of a player's name */
#define PROTO_PASSWORD_MAX 128
#define PROTO_CHAT_MAX 400       /* bytes of one chat line */
#define PROTO_TOKEN_LEN 32       /* hex characters of a session token */
#define PROTO_SETTINGS_MAX 1000  /* bytes of a settings object, as JSON */
#define PROTO_SETTINGS_KEYS 32   /* its members */
#define PROTO_FILTER_MAX 32      /* characters of a lobby_query's filter */
#define PROTO_PAGE_MAX 100000    /* the highest page of the lobby a client may ask for */
#define PROTO_REASON_MAX 200     /* bytes of a moderator's reason */
#define PROTO_MINUTES_MAX 5256000L /* ten years */

/* Server messages are built as jansson objects by the callers (json_pack)
 * and turned into text here; NULL when out of memory. The object is
 * released (its reference stolen). */
struct json_t;
char *proto_dump(struct json_t *msg);
/* A client's: the state of a table it holds (NULL none) with the state
 * message msg taken in, as the client holds it now (a new reference): msg
 * itself when it is whole, else held with the changes applied (in place;
 * a member or a key of "keys" null is gone), its "queries" and "f1" those
 * kept in moments by the name its "moment" says (proto_moment_keep). NULL
 * when msg is changes and held is not a state of msg's table (nothing to
 * apply them to). */
struct json_t *proto_state_apply(struct json_t *held, struct json_t *msg, struct json_t *moments);
/* A "moment" message kept in moments (an object: by the moment's name). */
void proto_moment_keep(struct json_t *moments, struct json_t *msg);
/* {"type":"error","code":CODE,"message":TEXT[,"re":TYPE]} as text. */
char *proto_error(const char *code, const char *message, const char *re);

#endif
