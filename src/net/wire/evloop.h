/* SPDX-License-Identifier: GPL-3.0-or-later */
/* evloop: the event loop a libwebsockets context runs on, for the server
 * and the bench's clients, which hold hundreds of connections: libev on
 * epoll, given to libwebsockets as a foreign loop (its libev plugin), so
 * that a round of the loop costs what is ready rather than a poll() over
 * every connection. Without the plugin, libwebsockets' own poll() loop. */
#ifndef TAPIS_EVLOOP_H
#define TAPIS_EVLOOP_H

struct lws_context;
struct lws_context_creation_info;

/* Create the context of info on an epoll loop when libwebsockets can run
 * on it, else on its own; NULL when neither can be made. *loop is the
 * loop made (NULL: libwebsockets' own). info is changed. */
struct lws_context *evloop_context(struct lws_context_creation_info *info, void **loop);
/* Wait for what comes next and serve it (events, timers) once; -1 when
 * the context failed. */
int evloop_service(struct lws_context *ctx, void *loop);
/* Destroy the context, then its loop. */
void evloop_destroy(struct lws_context *ctx, void *loop);

#endif
