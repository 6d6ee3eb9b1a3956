/* SPDX-License-Identifier: GPL-3.0-or-later */
/* client: one connection to a tapis server, through libwebsockets' client
 * API. Connect to ws://HOST:PORT (or wss://), send messages (JSON text, see
 * docs/protocol.md), receive each whole message through a callback while
 * servicing the connection, close. Single-threaded: everything happens
 * inside netc_service. Used by the tests, `tapis join` and `bench --net`.
 *
 *     struct netc *c = netc_open("ws://127.0.0.1:7410", on_msg, me, err, sizeof err);
 *     netc_send(c, "{\"type\":\"hello\",\"version\":1,\"name\":\"Ann\",\"lang\":\"en\"}");
 *     while (netc_connected(c)) netc_service(c, 50);
 *     netc_close(c);
 */
#ifndef TAPIS_CLIENT_H
#define TAPIS_CLIENT_H

#include <stddef.h>

struct netc;

/* A whole message from the server (text, NUL-terminated, len bytes). */
typedef void (*netc_on_message)(void *ctx, const char *text, size_t len);

/* Connect and wait (up to 5 s) until the WebSocket is open. NULL with a
 * message on failure. */
struct netc *netc_open(const char *url, netc_on_message on_message, void *ctx, char *err, size_t errlen);
/* The same, trusting the certificates signed by ca_file (PEM) for wss://
 * (NULL: the system's authorities), as for a server with its own. */
struct netc *netc_open_ca(const char *url, const char *ca_file, netc_on_message on_message, void *ctx,
                          char *err, size_t errlen);
/* Queue a message (copied); it leaves during netc_service. 0, or -1 when
 * the connection is closed or memory runs out. */
int netc_send(struct netc *c, const char *text);
/* Send and receive for up to timeout_ms (0: what is ready, no wait).
 * Returns 0, or -1 once the connection is closed. */
int netc_service(struct netc *c, int timeout_ms);
/* 1 while the connection is open. */
int netc_connected(const struct netc *c);
/* The code of the server's closing frame (PROTO_CLOSE_AGAIN: connect
 * again at once), 0 when none came. */
int netc_close_code(const struct netc *c);
/* Close (what is queued is dropped) and free. */
void netc_close(struct netc *c);
/* Drop the connection at once, without a closing handshake, as a client
 * that vanishes would (tests). Frees c. */
void netc_abandon(struct netc *c);

#endif
