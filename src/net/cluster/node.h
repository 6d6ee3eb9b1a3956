/* SPDX-License-Identifier: GPL-3.0-or-later */
/* node: a `tapis serve` process as a node of a cluster (docs/cluster.md):
 * the Redis link (net/cluster/cluster) with the lobby joined to the other
 * nodes (net/cluster/clnet) and the leases of its tables
 * (net/cluster/cladopt), put together behind the server's
 * server_node_ops. The server's floor is below this one: whoever starts a
 * server (main, the tests) hands node_ops down through
 * server_options.node. */
#ifndef TAPIS_NODE_H
#define TAPIS_NODE_H

#include "net/server/server.h"

extern const struct server_node_ops node_ops;

#endif
