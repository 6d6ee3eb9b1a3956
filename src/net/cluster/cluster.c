/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/cluster/cluster.h"

#include <arpa/inet.h>
#include <ev.h>
#include <hiredis/adapters/libev.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "net/cluster/clwords.h"

/* The Redis names (docs/cluster.md). */
#define K_NODES "tapis:nodes"
#define K_NODE "tapis:node:"             /* + id: the node's lease */
#define K_TABLE "tapis:table:"           /* + id + ":owner": a table's lease */
#define TABLES_KEEP_MS 60000             /* a lost node's list of tables stays this long */
#define CHUNK 512                        /* tables in one script */

/* Renew this node's leases on the tables KEYS: 1 where it holds (or takes
 * again, lapsed and untaken) the lease, 0 where another node took it. */
static const char renew_script[] =
	"local r = {} "
	"for i, k in ipairs(KEYS) do "
	"  local o = redis.call('GET', k) "
	"  if o == ARGV[1] then redis.call('PEXPIRE', k, ARGV[2]); r[i] = 1 "
	"  elseif not o then redis.call('SET', k, ARGV[1], 'PX', ARGV[2]); r[i] = 1 "
	"  else r[i] = 0 end "
	"end "
	"return r";
/* Take the tables KEYS[1..n] for ARGV[1] and list them in its set of
 * tables, KEYS[n + 1] (in the same step: a node that dies just after
 * still has them listed): 1 taken (free, or already ours), 0 still
 * leased to ARGV[2 + i] (the lost node it was: try again), -1 another's. */
static const char take_script[] =
	"local n = #KEYS - 1 "
	"local r = {} "
	"for i = 1, n do "
	"  local k = KEYS[i] "
	"  local o = redis.call('GET', k) "
	"  local t = string.match(k, '^tapis:table:(%d+):owner$') "
	"  if not o or o == ARGV[1] then "
	"    redis.call('SET', k, ARGV[1], 'PX', ARGV[2]); redis.call('SADD', KEYS[n + 1], t); r[i] = 1 "
	"  elseif o == ARGV[i + 2] then r[i] = 0 "
	"  else r[i] = -1 end "
	"end "
	"return r";
/* Drop the leases KEYS[1..n] that are still ARGV[1]'s; with ARGV[2] "1",
 * take them off the set of its tables KEYS[n + 1] too (else the others
 * find them there and take them). How many were its. */
static const char release_script[] =
	"local n = #KEYS - 1 "
	"local m = 0 "
	"for i = 1, n do "
	"  local k = KEYS[i] "
	"  if redis.call('GET', k) == ARGV[1] then "
	"    redis.call('DEL', k); m = m + 1 "
	"    if ARGV[2] == '1' then redis.call('SREM', KEYS[n + 1], string.match(k, '^tapis:table:(%d+):owner$')) end "
	"  end "
	"end "
	"return m";

/* Delete the field ARGV[1] of the hash KEYS[1] only while its value
 * begins with ARGV[2] (the row names this node): a row another node wrote
 * since (a table it took over, a person logged in there) is left. */
static const char del_mine_script[] =
	"local v = redis.call('HGET', KEYS[1], ARGV[1]) "
	"if v and string.sub(v, 1, #ARGV[2]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end "
	"return 0";

struct link {
	struct cluster *c;
	redisAsyncContext *ac;
	int up;
	int sub;                 /* the SUBSCRIBE connection */
	int backoff_ms;
	ev_timer retry, connect_to;
};

struct node {
	char id[CLUSTER_ID_MAX + 1];
	int mark;
};

struct orphan {
	long table;
	char node[CLUSTER_ID_MAX + 1];
	int tries;
	int defer;    /* renewals to wait first: another node is its first choice */
};

struct sub {
	char ch[CLUSTER_CHANNEL_MAX + 1];
	cluster_msg_fn fn;
	void *ctx;
};

struct cluster {
	struct ev_loop *loop;
	char host[INET_ADDRSTRLEN];
	int port;
	char id[CLUSTER_ID_MAX + 1];
	char info[CLUSTER_INFO_MAX + 1];
	struct cluster_hooks h;
	struct link cmd, sub;
	ev_timer tick;
	int closing;
	int polling;             /* a read of the others' leases under way */
	double up_at;            /* when the command link last came up (the loop's clock, s) */
	struct node *nodes;
	int nnodes, nodes_cap;
	/* The nodes last reported lost, not reported again until seen alive
	 * (the removal from the set may have been lost with the link). */
	char gone[CLUSTER_MAX_NODES][CLUSTER_ID_MAX + 1];
	int ngone, gone_next;
	long *owned;             /* sorted */
	int nowned, owned_cap;
	struct orphan *orphans;
	int norphans, orphans_cap;
	struct sub subs[CLUSTER_MAX_SUBS];
	int nsubs;
};

/* One command's context, given back with its answer. */
struct req {
	struct cluster *c;
	long table;
	cluster_done_fn done;
	cluster_owner_fn owner;
	cluster_dir_fn dir;
	cluster_ids_fn ids_done;
	cluster_eval_fn eval_done;
	void *ctx;
	char node[CLUSTER_ID_MAX + 1];
	int n;
	long *tables;            /* the tables of a script */
	struct orphan *orph;     /* the lost nodes' tables of a take */
	char (*ids)[CLUSTER_ID_MAX + 1]; /* the nodes of a read */
};

static struct req *req_new(struct cluster *c)
{
	struct req *r = xcalloc(1, sizeof *r);
	r->c = c;
	return r;
}

static void req_free(struct req *r)
{
	free(r->tables);
	free(r->orph);
	free(r->ids);
	free(r);
}

/* Send a's command on l (then forget a); 0, or -1 when the link is down
 * (then fn is not called: the caller frees priv). */
static int av_send(struct link *l, redisCallbackFn *fn, void *priv, struct clwords *a)
{
	int rc = -1;
	if (l->up && l->ac && !l->c->closing)
		rc = redisAsyncCommandArgv(l->ac, fn, priv, a->n, (const char **)a->v, a->len) == REDIS_OK ? 0 : -1;
	clwords_clear(a);
	return rc;
}

/* ---------------------------------------------------------------- tables owned */

static int owned_find(const struct cluster *c, long t, int *at)
{
	int lo = 0, hi = c->nowned;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (c->owned[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < c->nowned && c->owned[lo] == t;
}

static int owned_add(struct cluster *c, long t)
{
	int at;
	if (owned_find(c, t, &at))
		return 0;
	if (c->nowned >= CLUSTER_MAX_TABLES)
		return -1;
	xgrow((void **)&c->owned, &c->owned_cap, c->nowned + 1, sizeof *c->owned);
	memmove(c->owned + at + 1, c->owned + at, (size_t)(c->nowned - at) * sizeof *c->owned);
	c->owned[at] = t;
	c->nowned++;
	return 1;
}

static int owned_del(struct cluster *c, long t)
{
	int at;
	if (!owned_find(c, t, &at))
		return 0;
	memmove(c->owned + at, c->owned + at + 1, (size_t)(c->nowned - at - 1) * sizeof *c->owned);
	c->nowned--;
	return 1;
}

int cluster_owns(const struct cluster *c, long table)
{
	int at;
	return owned_find(c, table, &at);
}

int cluster_owned_count(const struct cluster *c)
{
	return c->nowned;
}

/* The node's list of its tables, where the others find them. */
static void tables_list(struct cluster *c, const char *verb, long t)
{
	struct clwords a = { 0 };
	clwords_add(&a, verb, strlen(verb));
	clwords_addf(&a, K_NODE "%s:tables", c->id);
	clwords_addf(&a, "%ld", t);
	av_send(&c->cmd, NULL, NULL, &a);
}

/* EVAL script on the leases of the tables t, then (with set) the set of
 * this node's tables. */
static void lease_keys(struct clwords *a, const char *script, const long *t, int n, const struct cluster *set)
{
	clwords_add(a, "EVAL", 4);
	clwords_add(a, script, strlen(script));
	clwords_addf(a, "%d", n + (set != NULL));
	for (int i = 0; i < n; i++)
		clwords_addf(a, K_TABLE "%ld:owner", t[i]);
	if (set)
		clwords_addf(a, K_NODE "%s:tables", set->id);
}

static void on_renewed(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	struct cluster *c = r->c;
	redisReply *rep = reply;
	if (rep && !c->closing && rep->type == REDIS_REPLY_ARRAY && (int)rep->elements == r->n) {
		for (int i = 0; i < r->n; i++) {
			if (rep->element[i]->type == REDIS_REPLY_INTEGER && rep->element[i]->integer == 0 &&
			    owned_del(c, r->tables[i])) {
				tables_list(c, "SREM", r->tables[i]);
				if (c->h.on_table_lost)
					c->h.on_table_lost(c->h.ctx, r->tables[i]);
			}
		}
	}
	req_free(r);
}

static void renew_tables(struct cluster *c)
{
	for (int from = 0; from < c->nowned; from += CHUNK) {
		int n = c->nowned - from < CHUNK ? c->nowned - from : CHUNK;
		struct req *r = req_new(c);
		r->n = n;
		r->tables = xmalloc((size_t)n * sizeof *r->tables);
		memcpy(r->tables, c->owned + from, (size_t)n * sizeof *r->tables);
		struct clwords a = { 0 };
		lease_keys(&a, renew_script, r->tables, n, NULL);
		clwords_add(&a, c->id, strlen(c->id));
		clwords_addf(&a, "%d", CLUSTER_LEASE_MS);
		if (av_send(&c->cmd, on_renewed, r, &a) < 0)
			req_free(r);
	}
}

/* ---------------------------------------------------------------- lost nodes' tables */

static struct orphan *orphan_add(struct cluster *c, long t, const char *node, int tries)
{
	for (int i = 0; i < c->norphans; i++)
		if (c->orphans[i].table == t)
			return NULL;
	if (c->norphans >= CLUSTER_MAX_ORPHANS)
		return NULL;
	xgrow((void **)&c->orphans, &c->orphans_cap, c->norphans + 1, sizeof *c->orphans);
	struct orphan *o = &c->orphans[c->norphans++];
	o->table = t;
	snprintf(o->node, sizeof o->node, "%s", node);
	o->tries = tries;
	o->defer = 0;
	return o;
}

/* A node's weight for table t (rendezvous hashing): FNV-1a of its id and
 * the table's number. */
static uint64_t weight(const char *node, long t)
{
	uint64_t x = 14695981039346656037ULL;
	for (; *node; node++)
		x = (x ^ (unsigned char)*node) * 1099511628211ULL;
	for (int i = 0; i < 8; i++)
		x = (x ^ (uint64_t)(((unsigned long)t >> (8 * i)) & 0xff)) * 1099511628211ULL;
	return x ^ (x >> 31);
}

/* 1 when this node is t's first choice among the nodes alive as last
 * read: a lost node's tables are shared out among the survivors that way,
 * each trying its own at once and the others' only after
 * CLUSTER_ORPHAN_DEFER renewals (when their first choice is gone too). */
static int first_choice(const struct cluster *c, long t)
{
	uint64_t mine = weight(c->id, t);
	for (int i = 0; i < c->nnodes; i++) {
		uint64_t w = weight(c->nodes[i].id, t);
		if (w > mine || (w == mine && strcmp(c->nodes[i].id, c->id) > 0))
			return 0;
	}
	return 1;
}

/* A node seen alive again keeps its tables. */
static void orphans_drop_node(struct cluster *c, const char *node)
{
	int k = 0;
	for (int i = 0; i < c->norphans; i++)
		if (strcmp(c->orphans[i].node, node) != 0)
			c->orphans[k++] = c->orphans[i];
	c->norphans = k;
}

static void on_taken(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	struct cluster *c = r->c;
	redisReply *rep = reply;
	if (c->closing) {
		req_free(r);
		return;
	}
	int ok = rep && rep->type == REDIS_REPLY_ARRAY && (int)rep->elements == r->n;
	for (int i = 0; i < r->n; i++) {
		long long v = ok && rep->element[i]->type == REDIS_REPLY_INTEGER ? rep->element[i]->integer : 0;
		struct orphan *o = r->orph ? &r->orph[i] : NULL;
		if (v == 1 && owned_add(c, r->tables[i]) >= 0) {
			if (!o && r->done)
				r->done(r->ctx, r->tables[i], 1);
			else if (o && c->h.on_table_adopted)
				c->h.on_table_adopted(c->h.ctx, r->tables[i]);
		} else if (!o) {
			if (r->done)
				r->done(r->ctx, r->tables[i], ok ? 0 : -1);
		} else if (!ok || (v == 0 && o->tries + 1 < CLUSTER_ORPHAN_TRIES)) {
			orphan_add(c, o->table, o->node, ok ? o->tries + 1 : o->tries);
		}
	}
	req_free(r);
}

/* Try to take every table of a lost node waiting and not deferred. */
static void take_orphans(struct cluster *c)
{
	while (c->norphans > 0 && c->cmd.up) {
		int ready = 0;
		for (int i = 0; i < c->norphans; i++)
			ready += c->orphans[i].defer == 0;
		if (!ready)
			return;
		int n = ready < CHUNK ? ready : CHUNK, k = 0;
		struct req *r = req_new(c);
		r->n = n;
		r->orph = xmalloc((size_t)n * sizeof *r->orph);
		r->tables = xmalloc((size_t)n * sizeof *r->tables);
		int taken = 0;
		for (int i = 0; i < c->norphans; i++) {
			if (c->orphans[i].defer == 0 && taken < n)
				r->orph[taken++] = c->orphans[i];
			else
				c->orphans[k++] = c->orphans[i];
		}
		c->norphans = k;
		for (int i = 0; i < n; i++)
			r->tables[i] = r->orph[i].table;
		struct clwords a = { 0 };
		lease_keys(&a, take_script, r->tables, n, c);
		clwords_add(&a, c->id, strlen(c->id));
		clwords_addf(&a, "%d", CLUSTER_LEASE_MS);
		for (int i = 0; i < n; i++)
			clwords_add(&a, r->orph[i].node, strlen(r->orph[i].node));
		if (av_send(&c->cmd, on_taken, r, &a) < 0) {
			for (int i = 0; i < n; i++)
				orphan_add(c, r->orph[i].table, r->orph[i].node, r->orph[i].tries);
			req_free(r);
			return;
		}
	}
}

static int parse_table(const redisReply *e, long *t)
{
	if (e->type != REDIS_REPLY_STRING || e->len == 0 || e->len > 19)
		return -1;
	char buf[24], *end;
	memcpy(buf, e->str, e->len);
	buf[e->len] = '\0';
	long v = strtol(buf, &end, 10);
	if (*end || v < 0)
		return -1;
	*t = v;
	return 0;
}

static void on_lost_tables(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	struct cluster *c = r->c;
	redisReply *rep = reply;
	if (rep && !c->closing && rep->type == REDIS_REPLY_ARRAY) {
		for (size_t i = 0; i < rep->elements; i++) {
			long t;
			struct orphan *o = parse_table(rep->element[i], &t) == 0 ? orphan_add(c, t, r->node, 0) : NULL;
			if (o && !first_choice(c, t))
				o->defer = CLUSTER_ORPHAN_DEFER;
		}
		take_orphans(c);
	}
	req_free(r);
}

/* ---------------------------------------------------------------- the nodes */

static int gone_find(const struct cluster *c, const char *id)
{
	for (int i = 0; i < c->ngone; i++)
		if (!strcmp(c->gone[i], id))
			return i;
	return -1;
}

static void node_lost(struct cluster *c, const char *id)
{
	for (int i = 0; i < c->nnodes; i++)
		if (!strcmp(c->nodes[i].id, id)) {
			c->nodes[i] = c->nodes[--c->nnodes];
			break;
		}
	if (gone_find(c, id) < 0) {
		snprintf(c->gone[c->gone_next], sizeof c->gone[0], "%s", id);
		c->gone_next = (c->gone_next + 1) % CLUSTER_MAX_NODES;
		if (c->ngone < CLUSTER_MAX_NODES)
			c->ngone++;
		if (c->h.on_node_lost)
			c->h.on_node_lost(c->h.ctx, id);
	}
	struct clwords a = { 0 };
	clwords_add(&a, "SREM", 4);
	clwords_add(&a, K_NODES, strlen(K_NODES));
	clwords_add(&a, id, strlen(id));
	av_send(&c->cmd, NULL, NULL, &a);
	struct req *r = req_new(c);
	snprintf(r->node, sizeof r->node, "%s", id);
	clwords_add(&a, "SMEMBERS", 8);
	clwords_addf(&a, K_NODE "%s:tables", id);
	if (av_send(&c->cmd, on_lost_tables, r, &a) < 0)
		req_free(r);
	/* Kept a while for the nodes that have not read it yet. */
	clwords_add(&a, "PEXPIRE", 7);
	clwords_addf(&a, K_NODE "%s:tables", id);
	clwords_addf(&a, "%d", TABLES_KEEP_MS);
	av_send(&c->cmd, NULL, NULL, &a);
}

static struct node *node_find(struct cluster *c, const char *id)
{
	for (int i = 0; i < c->nnodes; i++)
		if (!strcmp(c->nodes[i].id, id))
			return &c->nodes[i];
	return NULL;
}

static void on_leases(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	struct cluster *c = r->c;
	redisReply *rep = reply;
	if (c->closing) {
		req_free(r);
		return;
	}
	c->polling = 0;
	if (!rep || (r->n > 0 && (rep->type != REDIS_REPLY_ARRAY || (int)rep->elements != r->n))) {
		req_free(r);
		return;
	}
	/* Just after the link came back (Redis restarted, empty), the others
	 * may not have written their leases again yet: none is taken for
	 * lost until a lease has had time to be written. */
	int settled = ev_now(c->loop) - c->up_at >= CLUSTER_LEASE_MS / 1000.0;
	for (int i = 0; i < c->nnodes; i++)
		c->nodes[i].mark = !settled;
	for (int i = 0; i < r->n; i++) {
		const redisReply *e = rep->element[i];
		if (e->type != REDIS_REPLY_STRING) {
			if (settled)
				node_lost(c, r->ids[i]);
			continue;
		}
		struct node *nd = node_find(c, r->ids[i]);
		if (!nd && c->nnodes < CLUSTER_MAX_NODES) {
			xgrow((void **)&c->nodes, &c->nodes_cap, c->nnodes + 1, sizeof *c->nodes);
			nd = &c->nodes[c->nnodes++];
			snprintf(nd->id, sizeof nd->id, "%s", r->ids[i]);
			orphans_drop_node(c, nd->id);
			int g = gone_find(c, nd->id);
			if (g >= 0)
				c->gone[g][0] = '\0'; /* back: its next loss is news */
			if (c->h.on_node_seen) {
				char info[CLUSTER_INFO_MAX + 1];
				size_t n = e->len < CLUSTER_INFO_MAX ? e->len : CLUSTER_INFO_MAX;
				memcpy(info, e->str, n);
				info[n] = '\0';
				c->h.on_node_seen(c->h.ctx, nd->id, info);
			}
		}
		if (nd)
			nd->mark = 1;
	}
	/* Known, and gone from the set (another node saw it lost first). */
	for (int i = 0; i < c->nnodes;) {
		if (c->nodes[i].mark) {
			i++;
			continue;
		}
		char id[CLUSTER_ID_MAX + 1];
		snprintf(id, sizeof id, "%s", c->nodes[i].id);
		node_lost(c, id);
	}
	req_free(r);
}

static void on_members(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	struct cluster *c = r->c;
	redisReply *rep = reply;
	if (c->closing || !rep || rep->type != REDIS_REPLY_ARRAY) {
		if (!c->closing)
			c->polling = 0;
		req_free(r);
		return;
	}
	size_t max = rep->elements < CLUSTER_MAX_NODES ? rep->elements : CLUSTER_MAX_NODES;
	r->ids = xcalloc(max ? max : 1, sizeof *r->ids);
	for (size_t i = 0; i < max; i++) {
		const redisReply *e = rep->element[i];
		if (e->type != REDIS_REPLY_STRING || e->len > CLUSTER_ID_MAX)
			continue;
		memcpy(r->ids[r->n], e->str, e->len);
		r->ids[r->n][e->len] = '\0';
		if (clwords_check_id(r->ids[r->n]) == 0 && strcmp(r->ids[r->n], c->id) != 0)
			r->n++;
	}
	if (r->n == 0) {
		on_leases(ac, rep, r);
		return;
	}
	struct clwords a = { 0 };
	clwords_add(&a, "MGET", 4);
	for (int i = 0; i < r->n; i++)
		clwords_addf(&a, K_NODE "%s", r->ids[i]);
	if (av_send(&c->cmd, on_leases, r, &a) < 0) {
		c->polling = 0;
		req_free(r);
	}
}

/* Every CLUSTER_RENEW_MS: this node's leases renewed, the others' read,
 * the lost nodes' tables tried. */
static void tick(struct cluster *c)
{
	if (!c->cmd.up || c->closing)
		return;
	struct clwords a = { 0 };
	clwords_add(&a, "SET", 3);
	clwords_addf(&a, K_NODE "%s", c->id);
	clwords_add(&a, c->info, strlen(c->info));
	clwords_add(&a, "PX", 2);
	clwords_addf(&a, "%d", CLUSTER_LEASE_MS);
	av_send(&c->cmd, NULL, NULL, &a);
	clwords_add(&a, "SADD", 4);
	clwords_add(&a, K_NODES, strlen(K_NODES));
	clwords_add(&a, c->id, strlen(c->id));
	av_send(&c->cmd, NULL, NULL, &a);
	/* Its list of tables lives as long as it does. */
	clwords_add(&a, "PERSIST", 7);
	clwords_addf(&a, K_NODE "%s:tables", c->id);
	av_send(&c->cmd, NULL, NULL, &a);
	renew_tables(c);
	for (int i = 0; i < c->norphans; i++)
		if (c->orphans[i].defer > 0)
			c->orphans[i].defer--;
	take_orphans(c);
	if (!c->polling) {
		struct req *r = req_new(c);
		clwords_add(&a, "SMEMBERS", 8);
		clwords_add(&a, K_NODES, strlen(K_NODES));
		if (av_send(&c->cmd, on_members, r, &a) == 0)
			c->polling = 1;
		else
			req_free(r);
	}
}

static void on_tick(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	tick(w->data);
}

/* ---------------------------------------------------------------- the links */

static void link_start(struct link *l);

static void link_later(struct link *l)
{
	struct cluster *c = l->c;
	if (c->closing)
		return;
	ev_timer_stop(c->loop, &l->retry);
	ev_timer_set(&l->retry, l->backoff_ms / 1000.0, 0);
	ev_timer_start(c->loop, &l->retry);
	l->backoff_ms = l->backoff_ms * 2 > CLUSTER_RETRY_MAX_MS ? CLUSTER_RETRY_MAX_MS : l->backoff_ms * 2;
}

static void on_message(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct cluster *c = priv;
	redisReply *rep = reply;
	if (!rep || c->closing || rep->type != REDIS_REPLY_ARRAY || rep->elements != 3)
		return;
	const redisReply *kind = rep->element[0], *ch = rep->element[1], *msg = rep->element[2];
	if (kind->type != REDIS_REPLY_STRING || strcmp(kind->str, "message") != 0 || ch->type != REDIS_REPLY_STRING ||
	    msg->type != REDIS_REPLY_STRING || msg->len > CLUSTER_MESSAGE_MAX)
		return;
	for (int i = 0; i < c->nsubs; i++)
		if (strlen(c->subs[i].ch) == ch->len && !memcmp(c->subs[i].ch, ch->str, ch->len)) {
			c->subs[i].fn(c->subs[i].ctx, c->subs[i].ch, msg->str, msg->len);
			return;
		}
}

static int subscribe_one(struct cluster *c, const char *verb, const char *ch)
{
	struct clwords a = { 0 };
	clwords_add(&a, verb, strlen(verb));
	clwords_add(&a, ch, strlen(ch));
	return av_send(&c->sub, on_message, c, &a);
}

static void on_connect(const redisAsyncContext *ac, int status)
{
	struct link *l = ac->data;
	struct cluster *c = l->c;
	ev_timer_stop(c->loop, &l->connect_to);
	if (c->closing)
		return;
	if (status != REDIS_OK) {
		l->ac = NULL; /* hiredis frees it */
		link_later(l);
		return;
	}
	l->up = 1;
	l->backoff_ms = CLUSTER_RETRY_MIN_MS;
	if (l->sub) {
		for (int i = 0; i < c->nsubs; i++)
			subscribe_one(c, "SUBSCRIBE", c->subs[i].ch);
		return;
	}
	c->polling = 0;
	c->up_at = ev_now(c->loop);
	/* The list of this node's tables again (an empty Redis lost it), so
	 * that the others find them should this node be lost. */
	for (int from = 0; from < c->nowned; from += CHUNK) {
		struct clwords a = { 0 };
		clwords_add(&a, "SADD", 4);
		clwords_addf(&a, K_NODE "%s:tables", c->id);
		for (int i = from; i < c->nowned && i < from + CHUNK; i++)
			clwords_addf(&a, "%ld", c->owned[i]);
		av_send(&c->cmd, NULL, NULL, &a);
	}
	if (c->h.on_link)
		c->h.on_link(c->h.ctx, 1);
	tick(c);
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
	(void)status;
	struct link *l = ac->data;
	struct cluster *c = l->c;
	int was = l->up;
	l->ac = NULL;
	l->up = 0;
	if (c->closing)
		return;
	if (!l->sub) {
		c->polling = 0;
		if (was && c->h.on_link)
			c->h.on_link(c->h.ctx, 0);
	}
	link_later(l);
}

static void on_connect_late(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	struct link *l = w->data;
	if (l->ac && !l->up) {
		redisAsyncContext *ac = l->ac;
		l->ac = NULL;
		redisAsyncFree(ac);
		link_later(l);
	}
}

static void on_retry(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	link_start(w->data);
}

static void link_start(struct link *l)
{
	struct cluster *c = l->c;
	redisAsyncContext *ac = redisAsyncConnect(c->host, c->port);
	if (!ac || ac->err) {
		if (ac)
			redisAsyncFree(ac);
		link_later(l);
		return;
	}
	ac->data = l;
	if (redisLibevAttach(c->loop, ac) != REDIS_OK) {
		redisAsyncFree(ac);
		link_later(l);
		return;
	}
	redisAsyncSetConnectCallback(ac, on_connect);
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
	l->ac = ac;
	ev_timer_set(&l->connect_to, CLUSTER_CONNECT_MS / 1000.0, 0);
	ev_timer_start(c->loop, &l->connect_to);
}

static void link_init(struct cluster *c, struct link *l, int sub)
{
	l->c = c;
	l->sub = sub;
	l->backoff_ms = CLUSTER_RETRY_MIN_MS;
	ev_timer_init(&l->retry, on_retry, 0, 0);
	l->retry.data = l;
	ev_timer_init(&l->connect_to, on_connect_late, 0, 0);
	l->connect_to.data = l;
}

static void link_close(struct link *l)
{
	struct cluster *c = l->c;
	ev_timer_stop(c->loop, &l->retry);
	ev_timer_stop(c->loop, &l->connect_to);
	if (l->ac) {
		redisAsyncContext *ac = l->ac;
		l->ac = NULL;
		l->up = 0;
		redisAsyncFree(ac);
	}
}

/* ---------------------------------------------------------------- life */

struct cluster *cluster_new(struct ev_loop *loop, const char *url, const char *node, const char *info,
                            const struct cluster_hooks *hooks, char *err, size_t errlen)
{
	char host[CLUSTER_HOST_MAX + 1];
	int port;
	if (!loop) {
		errf(err, errlen, "--cluster needs the server on libev (libwebsockets' libev plugin)");
		return NULL;
	}
	if (clwords_parse_url(url, host, sizeof host, &port, err, errlen) < 0)
		return NULL;
	if (node && clwords_check_id(node) < 0) {
		errf(err, errlen, "--node-id: 1 to %d letters, digits, '.', '_', '-' or ':'", CLUSTER_ID_MAX);
		return NULL;
	}
	if (info && strlen(info) > CLUSTER_INFO_MAX) {
		errf(err, errlen, "cluster: a node's description is at most %d bytes", CLUSTER_INFO_MAX);
		return NULL;
	}
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	int rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc != 0 || !res) {
		errf(err, errlen, "--cluster: cannot find %s: %s", host, gai_strerror(rc));
		return NULL;
	}
	struct cluster *c = xcalloc(1, sizeof *c);
	inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)res->ai_addr)->sin_addr, c->host, sizeof c->host);
	freeaddrinfo(res);
	c->loop = loop;
	c->port = port;
	if (node) {
		snprintf(c->id, sizeof c->id, "%s", node);
	} else {
		unsigned char raw[8] = { 0 };
		if (getentropy(raw, sizeof raw) < 0) {
			free(c);
			errf(err, errlen, "cluster: no random id");
			return NULL;
		}
		for (size_t i = 0; i < sizeof raw; i++)
			snprintf(c->id + 2 * i, 3, "%02x", raw[i]);
	}
	snprintf(c->info, sizeof c->info, "%s", info ? info : "");
	if (hooks)
		c->h = *hooks;
	link_init(c, &c->cmd, 0);
	link_init(c, &c->sub, 1);
	ev_timer_init(&c->tick, on_tick, CLUSTER_RENEW_MS / 1000.0, CLUSTER_RENEW_MS / 1000.0);
	c->tick.data = c;
	ev_timer_start(loop, &c->tick);
	link_start(&c->cmd);
	link_start(&c->sub);
	return c;
}

/* The leases dropped at once on a short blocking connection: the loop is
 * ending. The list of tables stays for the others to take them. */
static void leave(struct cluster *c)
{
	struct timeval tv = { 1, 0 };
	redisContext *rc = redisConnectWithTimeout(c->host, c->port, tv);
	if (!rc || rc->err) {
		if (rc)
			redisFree(rc);
		return;
	}
	redisSetTimeout(rc, tv);
	int pending = 0;
	for (int from = 0; from < c->nowned; from += CHUNK) {
		int n = c->nowned - from < CHUNK ? c->nowned - from : CHUNK;
		struct clwords a = { 0 };
		lease_keys(&a, release_script, c->owned + from, n, c);
		clwords_add(&a, c->id, strlen(c->id));
		clwords_add(&a, "0", 1); /* still listed, for the others to take */
		redisAppendCommandArgv(rc, a.n, (const char **)a.v, a.len);
		clwords_clear(&a);
		pending++;
	}
	redisAppendCommand(rc, "DEL " K_NODE "%s", c->id);
	redisAppendCommand(rc, "SREM " K_NODES " %s", c->id);
	pending += 2;
	for (int i = 0; i < pending; i++) {
		void *rep = NULL;
		if (redisGetReply(rc, &rep) != REDIS_OK)
			break;
		freeReplyObject(rep);
	}
	redisFree(rc);
}

void cluster_free(struct cluster *c, int gently)
{
	if (!c)
		return;
	c->closing = 1;
	ev_timer_stop(c->loop, &c->tick);
	if (gently)
		leave(c);
	link_close(&c->cmd);
	link_close(&c->sub);
	free(c->nodes);
	free(c->owned);
	free(c->orphans);
	free(c);
}

const char *cluster_node(const struct cluster *c)
{
	return c->id;
}

int cluster_up(const struct cluster *c)
{
	return c->cmd.up && c->sub.up;
}

int cluster_nodes(const struct cluster *c, const char **ids, int max)
{
	int n = 0;
	for (int i = 0; i < c->nnodes && n < max; i++)
		ids[n++] = c->nodes[i].id;
	return n;
}

/* ---------------------------------------------------------------- leases asked for */

int cluster_claim_table(struct cluster *c, long table, cluster_done_fn done, void *ctx)
{
	if (table < 0 || (c->nowned >= CLUSTER_MAX_TABLES && !cluster_owns(c, table)))
		return -1;
	struct req *r = req_new(c);
	r->n = 1;
	r->tables = xmalloc(sizeof *r->tables);
	r->tables[0] = table;
	r->done = done;
	r->ctx = ctx;
	struct clwords a = { 0 };
	lease_keys(&a, take_script, r->tables, 1, c);
	clwords_add(&a, c->id, strlen(c->id));
	clwords_addf(&a, "%d", CLUSTER_LEASE_MS);
	clwords_add(&a, "", 0); /* no lost node: another's lease is another's */
	if (av_send(&c->cmd, on_taken, r, &a) < 0) {
		req_free(r);
		return -1;
	}
	return 0;
}

static void on_released(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	redisReply *rep = reply;
	if (!r->c->closing && r->done)
		r->done(r->ctx, r->table, !rep ? -1 : rep->type == REDIS_REPLY_INTEGER && rep->integer == 1);
	req_free(r);
}

int cluster_release_table(struct cluster *c, long table, cluster_done_fn done, void *ctx)
{
	if (table < 0 || !c->cmd.up)
		return -1;
	struct req *r = req_new(c);
	r->table = table;
	r->done = done;
	r->ctx = ctx;
	struct clwords a = { 0 };
	lease_keys(&a, release_script, &table, 1, c);
	clwords_add(&a, c->id, strlen(c->id));
	clwords_add(&a, "1", 1);
	if (av_send(&c->cmd, on_released, r, &a) < 0) {
		req_free(r);
		return -1;
	}
	owned_del(c, table);
	return 0;
}

static void on_owner(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	redisReply *rep = reply;
	if (!r->c->closing && r->owner) {
		char id[CLUSTER_ID_MAX + 1];
		const char *who = NULL;
		if (rep && rep->type == REDIS_REPLY_STRING && rep->len <= CLUSTER_ID_MAX) {
			memcpy(id, rep->str, rep->len);
			id[rep->len] = '\0';
			who = id;
		}
		r->owner(r->ctx, r->table, who);
	}
	req_free(r);
}

int cluster_owner_of(struct cluster *c, long table, cluster_owner_fn cb, void *ctx)
{
	if (table < 0)
		return -1;
	struct req *r = req_new(c);
	r->table = table;
	r->owner = cb;
	r->ctx = ctx;
	struct clwords a = { 0 };
	clwords_add(&a, "GET", 3);
	clwords_addf(&a, K_TABLE "%ld:owner", table);
	if (av_send(&c->cmd, on_owner, r, &a) < 0) {
		req_free(r);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- table ids */

/* Raise the counter KEYS[1] to ARGV[2] if below, then add ARGV[1]: the
 * last id of the block. */
static const char ids_script[] =
	"local v = tonumber(redis.call('GET', KEYS[1]) or '0') "
	"if v < tonumber(ARGV[2]) then redis.call('SET', KEYS[1], ARGV[2]) end "
	"return redis.call('INCRBY', KEYS[1], ARGV[1])";

static void on_ids(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	redisReply *rep = reply;
	if (!r->c->closing && r->ids_done) {
		if (rep && rep->type == REDIS_REPLY_INTEGER && rep->integer >= r->table)
			r->ids_done(r->ctx, (long)(rep->integer - r->table + 1), r->table);
		else
			r->ids_done(r->ctx, -1, r->table);
	}
	req_free(r);
}

int cluster_new_ids(struct cluster *c, long count, long floor, cluster_ids_fn done, void *ctx)
{
	if (count < 1 || count > CLUSTER_MAX_ID_BLOCK || floor < 0 || floor > (1L << 52) || !done)
		return -1;
	struct req *r = req_new(c);
	r->table = count;
	r->ids_done = done;
	r->ctx = ctx;
	struct clwords a = { 0 };
	clwords_add(&a, "EVAL", 4);
	clwords_add(&a, ids_script, strlen(ids_script));
	clwords_add(&a, "1", 1);
	clwords_add(&a, K_TABLE "ids", strlen(K_TABLE "ids"));
	clwords_addf(&a, "%ld", count);
	clwords_addf(&a, "%ld", floor);
	if (av_send(&c->cmd, on_ids, r, &a) < 0) {
		req_free(r);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- pub/sub */

int cluster_publish(struct cluster *c, const char *channel, const void *msg, size_t len)
{
	if (clwords_check_channel(channel) < 0 || len > CLUSTER_MESSAGE_MAX || (!msg && len))
		return -1;
	struct clwords a = { 0 };
	clwords_add(&a, "PUBLISH", 7);
	clwords_add(&a, channel, strlen(channel));
	clwords_add(&a, msg ? msg : "", len);
	return av_send(&c->cmd, NULL, NULL, &a);
}

int cluster_subscribe(struct cluster *c, const char *channel, cluster_msg_fn fn, void *ctx)
{
	if (clwords_check_channel(channel) < 0 || !fn)
		return -1;
	for (int i = 0; i < c->nsubs; i++)
		if (!strcmp(c->subs[i].ch, channel)) {
			c->subs[i].fn = fn;
			c->subs[i].ctx = ctx;
			return 0;
		}
	if (c->nsubs >= CLUSTER_MAX_SUBS)
		return -1;
	struct sub *s = &c->subs[c->nsubs++];
	snprintf(s->ch, sizeof s->ch, "%s", channel);
	s->fn = fn;
	s->ctx = ctx;
	/* Down: subscribed when the link is made again. */
	if (c->sub.up)
		subscribe_one(c, "SUBSCRIBE", channel);
	return 0;
}

int cluster_unsubscribe(struct cluster *c, const char *channel)
{
	for (int i = 0; i < c->nsubs; i++)
		if (!strcmp(c->subs[i].ch, channel)) {
			c->subs[i] = c->subs[--c->nsubs];
			if (c->sub.up)
				subscribe_one(c, "UNSUBSCRIBE", channel);
			return 0;
		}
	return -1;
}

/* ---------------------------------------------------------------- the directory */

static const char *dir_key(enum cluster_dir d)
{
	return d == CLUSTER_DIR_PEOPLE ? "tapis:people" : "tapis:tables";
}

static int check_key(const char *key)
{
	size_t n = key ? strlen(key) : 0;
	return n == 0 || n > CLUSTER_KEY_MAX ? -1 : 0;
}

int cluster_dir_set(struct cluster *c, enum cluster_dir d, const char *key, const void *val, size_t len)
{
	if (check_key(key) < 0 || len > CLUSTER_VALUE_MAX || (!val && len))
		return -1;
	struct clwords a = { 0 };
	clwords_add(&a, "HSET", 4);
	clwords_add(&a, dir_key(d), strlen(dir_key(d)));
	clwords_add(&a, key, strlen(key));
	clwords_add(&a, val ? val : "", len);
	return av_send(&c->cmd, NULL, NULL, &a);
}

int cluster_dir_del(struct cluster *c, enum cluster_dir d, const char *key)
{
	if (check_key(key) < 0)
		return -1;
	struct clwords a = { 0 };
	clwords_add(&a, "HDEL", 4);
	clwords_add(&a, dir_key(d), strlen(dir_key(d)));
	clwords_add(&a, key, strlen(key));
	return av_send(&c->cmd, NULL, NULL, &a);
}

int cluster_dir_del_mine(struct cluster *c, enum cluster_dir d, const char *key)
{
	if (check_key(key) < 0)
		return -1;
	struct clwords a = { 0 };
	clwords_add(&a, "EVAL", 4);
	clwords_add(&a, del_mine_script, strlen(del_mine_script));
	clwords_add(&a, "1", 1);
	clwords_add(&a, dir_key(d), strlen(dir_key(d)));
	clwords_add(&a, key, strlen(key));
	clwords_addf(&a, "{\"node\":\"%s\"", c->id);
	return av_send(&c->cmd, NULL, NULL, &a);
}

static void on_dir(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	redisReply *rep = reply;
	if (!r->c->closing) {
		if (rep && rep->type == REDIS_REPLY_ARRAY) {
			for (size_t i = 0; i + 1 < rep->elements; i += 2) {
				const redisReply *k = rep->element[i], *v = rep->element[i + 1];
				if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING || k->len == 0 ||
				    k->len > CLUSTER_KEY_MAX || v->len > CLUSTER_VALUE_MAX || memchr(k->str, '\0', k->len))
					continue;
				r->dir(r->ctx, k->str, v->str, v->len);
			}
		}
		r->dir(r->ctx, NULL, NULL, rep && rep->type == REDIS_REPLY_ARRAY ? 0 : (size_t)-1);
	}
	req_free(r);
}

int cluster_dir_all(struct cluster *c, enum cluster_dir d, cluster_dir_fn fn, void *ctx)
{
	if (!fn)
		return -1;
	struct req *r = req_new(c);
	r->dir = fn;
	r->ctx = ctx;
	struct clwords a = { 0 };
	clwords_add(&a, "HGETALL", 7);
	clwords_add(&a, dir_key(d), strlen(dir_key(d)));
	if (av_send(&c->cmd, on_dir, r, &a) < 0) {
		req_free(r);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- scripts of the users */

static void reply_word(const redisReply *e, char *out)
{
	size_t n = 0;
	if (e->type == REDIS_REPLY_STRING || e->type == REDIS_REPLY_STATUS) {
		n = e->len < CLUSTER_EVAL_WORD_MAX ? e->len : CLUSTER_EVAL_WORD_MAX;
		memcpy(out, e->str, n);
	} else if (e->type == REDIS_REPLY_INTEGER) {
		n = (size_t)snprintf(out, CLUSTER_EVAL_WORD_MAX + 1, "%lld", e->integer);
	}
	out[n] = '\0';
}

static void on_eval(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	struct req *r = priv;
	redisReply *rep = reply;
	if (!r->c->closing && r->eval_done) {
		char words[CLUSTER_EVAL_WORDS][CLUSTER_EVAL_WORD_MAX + 1];
		const char *v[CLUSTER_EVAL_WORDS];
		int n = -1;
		if (rep && rep->type == REDIS_REPLY_ARRAY) {
			n = 0;
			for (size_t i = 0; i < rep->elements && n < CLUSTER_EVAL_WORDS; i++, n++) {
				reply_word(rep->element[i], words[n]);
				v[n] = words[n];
			}
		} else if (rep && rep->type != REDIS_REPLY_ERROR) {
			reply_word(rep, words[0]);
			v[0] = words[0];
			n = 1;
		}
		r->eval_done(r->ctx, n, v);
	}
	req_free(r);
}

int cluster_eval(struct cluster *c, const char *script, int nkeys, const char *const *keys, int nargs,
                 const char *const *args, cluster_eval_fn done, void *ctx)
{
	if (!script || nkeys < 0 || nargs < 0 || nkeys + nargs > CLUSTER_EVAL_WORDS || !c->cmd.up)
		return -1;
	for (int i = 0; i < nkeys; i++)
		if (check_key(keys[i]) < 0)
			return -1;
	for (int i = 0; i < nargs; i++)
		if (!args[i] || strlen(args[i]) > CLUSTER_VALUE_MAX)
			return -1;
	struct req *r = req_new(c);
	r->eval_done = done;
	r->ctx = ctx;
	struct clwords a = { 0 };
	clwords_add(&a, "EVAL", 4);
	clwords_add(&a, script, strlen(script));
	clwords_addf(&a, "%d", nkeys);
	for (int i = 0; i < nkeys; i++)
		clwords_add(&a, keys[i], strlen(keys[i]));
	for (int i = 0; i < nargs; i++)
		clwords_add(&a, args[i], strlen(args[i]));
	if (av_send(&c->cmd, on_eval, r, &a) < 0) {
		req_free(r);
		return -1;
	}
	return 0;
}
