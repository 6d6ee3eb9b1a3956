/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/cluster/node.h"

#include <stdlib.h>

#include "app/log.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "net/cluster/cladopt.h"
#include "net/cluster/clnet.h"
#include "net/cluster/clseat.h"
#include "net/cluster/cluster.h"

_Static_assert(SERVER_NODE_ID_MAX == CLUSTER_ID_MAX, "a node's id: the same bound on both sides");
_Static_assert(SERVER_NODE_INFO_MAX == CLUSTER_INFO_MAX, "a node's info: the same bound on both sides");

struct server_node {
	struct cluster *cluster; /* the other nodes, through Redis */
	struct clnet *clnet;     /* and the lobby and tables joined to them */
	struct cladopt *adopt;   /* and the leases of its tables */
	struct clseat *seats;    /* and one seat a person across the nodes */
};

static int node_check(const char *url, const char *id, char *err, size_t errlen)
{
	char host[CLUSTER_HOST_MAX + 1];
	int port;
	if (clwords_parse_url(url, host, sizeof host, &port, err, errlen) < 0)
		return -1;
	if (id && clwords_check_id(id) < 0)
		return errf(err, errlen, "--node-id: 1 to 64 letters, digits, '.', '_', '-' or ':'");
	return 0;
}

/* The node keeps its lease and says what it sees of the others. */
static void cl_link(void *ctx, int up)
{
	struct server_node *n = ctx;
	log_say("cluster: the link to Redis is %s", up ? "up" : "down, trying again");
	clnet_link(n->clnet, up);
}

static void cl_seen(void *ctx, const char *node, const char *info)
{
	struct server_node *n = ctx;
	log_say("cluster: node %s seen (%s)", node, info);
	clnet_node_seen(n->clnet, node);
}

static void cl_lost(void *ctx, const char *node)
{
	struct server_node *n = ctx;
	log_say("cluster: node %s lost", node);
	clnet_node_lost(n->clnet, node);
}

/* A lost node's table won: rebuilt from the store at the next tick
 * (net/cluster/cladopt); one whose lease another node took: stopped here. */
static void cl_adopted(void *ctx, long table)
{
	struct server_node *n = ctx;
	log_say("cluster: table %ld taken from a lost node", table);
	cladopt_adopted(n->adopt, table);
}

static void cl_table_lost(void *ctx, long table)
{
	struct server_node *n = ctx;
	log_say("cluster: table %ld now owned by another node", table);
	cladopt_lost(n->adopt, table);
	clnet_table_lost(n->clnet, table);
}

static struct server_node *node_join(void *loop, const char *url, const char *id, const char *info,
                                     struct lobby *l, struct server_node_io io, char *err, size_t errlen)
{
	struct server_node *n = xcalloc(1, sizeof *n);
	struct cluster_hooks h = { n, cl_link, cl_seen, cl_lost, cl_adopted, cl_table_lost };
	n->cluster = cluster_new(loop, url, id, info, &h, err, errlen);
	if (!n->cluster) {
		free(n);
		return NULL;
	}
	struct clnet_io cio = { io.send, io.again, io.ctx };
	n->clnet = clnet_new(n->cluster, l, cio);
	n->seats = clseat_new(n->cluster, n->clnet, l);
	n->adopt = cladopt_new(l, n->cluster);
	return n;
}

static void node_set_worker(struct server_node *n, struct storew *w)
{
	cladopt_set_worker(n->adopt, w);
}

static int node_message(struct server_node *n, long conn, const char *text, size_t len)
{
	return clnet_message(n->clnet, conn, text, len);
}

static void node_send(struct server_node *n, long id, char *text)
{
	clnet_send(n->clnet, id, text);
}

static void node_close(struct server_node *n, long id)
{
	clnet_close(n->clnet, id);
}

static void node_closed(struct server_node *n, long conn)
{
	clnet_closed(n->clnet, conn);
}

static void node_tick_before(struct server_node *n, long long now)
{
	clnet_tick(n->clnet, now);
}

static void node_tick_after(struct server_node *n, long long now)
{
	cladopt_tick(n->adopt, now);
}

static void node_leave(struct server_node *n, int hand_over)
{
	if (!n)
		return;
	cluster_free(n->cluster, hand_over);
	clseat_free(n->seats);
	clnet_free(n->clnet);
	cladopt_free(n->adopt);
	free(n);
}

/* The metrics' figures: the nodes alive (the others as last read, and
 * this one) and the tables' leases held. */
static void node_counts(struct server_node *n, int *nodes, int *leases)
{
	const char *ids[CLUSTER_MAX_NODES];
	*nodes = cluster_nodes(n->cluster, ids, CLUSTER_MAX_NODES) + 1;
	*leases = cluster_owned_count(n->cluster);
}

const struct server_node_ops node_ops = {
	node_check, node_join, node_set_worker, node_message, node_send, node_close, node_closed,
	node_tick_before, node_tick_after, node_leave, node_counts,
};
