/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Redis side of a cluster (net/cluster): several nodes on one libev
 * loop in the test process, against a redis-server of our own (a free
 * loopback port, a temporary folder, nothing saved), started once and
 * stopped at the end. Without redis-server the suite is skipped (exit
 * 77), except under CI=true where that is a failure. */
#define _GNU_SOURCE
#include <check.h>
/* Before libev, whose ev_init macro would meet core/event.h's own. */
#include "testutil.h"
#include <ev.h>
#include <hiredis/hiredis.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/cluster/cluster.h"
#include "redistmp.h"

/* ---------------------------------------------------------------- our redis-server */

static struct redistmp rt; /* the suite's; a test may put another in its place (its process only) */
static pid_t main_pid;


static void redis_stop(void)
{
	if (getpid() == main_pid)
		redistmp_stop(&rt);
}

static void on_fatal(int sig)
{
	redis_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

static redisContext *redis_sync(void)
{
	struct timeval tv = { 2, 0 };
	redisContext *rc = redisConnectWithTimeout("127.0.0.1", rt.port, tv);
	if (rc && rc->err) {
		redisFree(rc);
		return NULL;
	}
	return rc;
}

static long long redis_int(const char *fmt, const char *arg)
{
	redisContext *rc = redis_sync();
	ck_assert_ptr_nonnull(rc);
	redisReply *r = redisCommand(rc, fmt, arg);
	ck_assert_ptr_nonnull(r);
	long long v = r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 2 && r->element[1]->type == REDIS_REPLY_INTEGER)
		v = r->element[1]->integer; /* PUBSUB NUMSUB channel */
	freeReplyObject(r);
	redisFree(rc);
	return v;
}

/* ---------------------------------------------------------------- nodes under test */

#define MAXN 16
#define MAXMSG 400

struct tn {
	struct cluster *c;
	char name[16];
	char seen[MAXN][CLUSTER_ID_MAX + 1];
	int nseen;
	char lost[MAXN][CLUSTER_ID_MAX + 1];
	int nlost;
	long adopted[256];
	int nadopted;
	long taken_away[16];
	int ntaken_away;
	int links_up, links_down;
	char *msg[MAXMSG];
	size_t msglen[MAXMSG];
	int nmsg;
};

static struct ev_loop *loop;
static ev_timer pulse;

static void on_pulse(struct ev_loop *l, ev_timer *w, int revents)
{
	(void)l;
	(void)w;
	(void)revents;
}

static void h_link(void *ctx, int up)
{
	struct tn *t = ctx;
	if (up)
		t->links_up++;
	else
		t->links_down++;
}

static void h_seen(void *ctx, const char *node, const char *info)
{
	struct tn *t = ctx;
	ck_assert_int_lt(t->nseen, MAXN);
	ck_assert_str_eq(info, "info of a node");
	snprintf(t->seen[t->nseen++], CLUSTER_ID_MAX + 1, "%s", node);
}

static void h_lost(void *ctx, const char *node)
{
	struct tn *t = ctx;
	ck_assert_int_lt(t->nlost, MAXN);
	snprintf(t->lost[t->nlost++], CLUSTER_ID_MAX + 1, "%s", node);
}

static void h_adopted(void *ctx, long table)
{
	struct tn *t = ctx;
	ck_assert_int_lt(t->nadopted, 256);
	t->adopted[t->nadopted++] = table;
}

static void h_table_lost(void *ctx, long table)
{
	struct tn *t = ctx;
	ck_assert_int_lt(t->ntaken_away, 16);
	t->taken_away[t->ntaken_away++] = table;
}

static void h_msg(void *ctx, const char *channel, const void *msg, size_t len)
{
	struct tn *t = ctx;
	(void)channel;
	ck_assert_int_lt(t->nmsg, MAXMSG);
	t->msg[t->nmsg] = malloc(len + 1);
	memcpy(t->msg[t->nmsg], msg, len);
	t->msg[t->nmsg][len] = '\0';
	t->msglen[t->nmsg++] = len;
}

static void tn_start(struct tn *t, const char *name)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	struct cluster_hooks h = { t, h_link, h_seen, h_lost, h_adopted, h_table_lost };
	char err[256];
	t->c = cluster_new(loop, rt.url, name, "info of a node", &h, err, sizeof err);
	ck_assert_msg(t->c != NULL, "%s", err);
}

static void tn_stop(struct tn *t, int gently)
{
	cluster_free(t->c, gently);
	t->c = NULL;
	for (int i = 0; i < t->nmsg; i++)
		free(t->msg[i]);
	t->nmsg = 0;
}

static int tn_saw(const struct tn *t, const char *node, int lost)
{
	int n = 0;
	for (int i = 0; i < (lost ? t->nlost : t->nseen); i++)
		n += !strcmp(lost ? t->lost[i] : t->seen[i], node);
	return n;
}

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run the loop until cond holds; 0 when it did not within max_ms (a guard
 * against hanging, far above what it takes). */
static int spin(int (*cond)(void *), void *ctx, int max_ms)
{
	long long end = mono_ms() + max_ms;
	while (!cond || !cond(ctx)) {
		if (mono_ms() > end)
			return cond ? 0 : 1;
		ev_run(loop, EVRUN_ONCE);
	}
	return 1;
}

static void fresh(void)
{
	redisContext *rc = redis_sync();
	ck_assert_ptr_nonnull(rc);
	freeReplyObject(redisCommand(rc, "FLUSHALL"));
	redisFree(rc);
	loop = ev_loop_new(EVFLAG_AUTO);
	ck_assert_ptr_nonnull(loop);
	ev_timer_init(&pulse, on_pulse, 0.02, 0.02);
	ev_timer_start(loop, &pulse);
}

static void done_loop(void)
{
	ev_timer_stop(loop, &pulse);
	ev_loop_destroy(loop);
	loop = NULL;
}

struct group {
	struct tn *t;
	int n;
};

static int all_up(void *ctx)
{
	struct group *g = ctx;
	for (int i = 0; i < g->n; i++)
		if (g->t[i].c && !cluster_up(g->t[i].c))
			return 0;
	return 1;
}

/* Every living node has seen every other. */
static int all_seen(void *ctx)
{
	struct group *g = ctx;
	for (int i = 0; i < g->n; i++)
		for (int j = 0; j < g->n; j++)
			if (i != j && g->t[i].c && g->t[j].c && !tn_saw(&g->t[i], g->t[j].name, 0))
				return 0;
	return 1;
}

/* ---------------------------------------------------------------- leases */

static int gamma_lost(void *ctx)
{
	struct tn *t = ctx;
	return tn_saw(&t[0], "gamma:7410", 1) && tn_saw(&t[1], "gamma:7410", 1);
}

START_TEST(test_leases_seen)
{
	fresh();
	struct tn t[3];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	tn_start(&t[2], "gamma:7410");
	struct group g = { t, 3 };
	ck_assert(spin(all_seen, &g, 10000));
	for (int i = 0; i < 3; i++) {
		const char *ids[8];
		ck_assert_int_eq(cluster_nodes(t[i].c, ids, 8), 2);
		ck_assert_int_eq(t[i].nseen, 2);
		ck_assert_int_eq(t[i].nlost, 0);
		ck_assert_str_eq(cluster_node(t[i].c), t[i].name);
	}
	ck_assert_int_eq(redis_int("PTTL tapis:node:%s", "alpha") > 0, 1);
	ck_assert_int_eq(redis_int("SCARD %s", "tapis:nodes"), 3);
	/* A node leaving gently is lost to the others at their next read. */
	tn_stop(&t[2], 1);
	g.n = 2;
	ck_assert_int_eq(redis_int("EXISTS tapis:node:%s", "gamma:7410"), 0);
	ck_assert(spin(gamma_lost, t, 10000));
	ck_assert_int_eq(tn_saw(&t[0], "gamma:7410", 1), 1);
	ck_assert_int_eq(tn_saw(&t[1], "gamma:7410", 1), 1);
	tn_stop(&t[0], 1);
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

struct claim_count {
	int ok, refused, failed;
};

static void on_done(void *ctx, long table, int ok)
{
	(void)table;
	struct claim_count *n = ctx;
	if (ok == 1)
		n->ok++;
	else if (ok == 0)
		n->refused++;
	else
		n->failed++;
}

static int answered(void *ctx)
{
	struct claim_count *n = ctx;
	return n->ok + n->refused + n->failed > 0;
}

static int claim(struct tn *t, long table)
{
	struct claim_count n = { 0 };
	ck_assert_int_eq(cluster_claim_table(t->c, table, on_done, &n), 0);
	ck_assert(spin(answered, &n, 10000));
	ck_assert_int_eq(n.failed, 0);
	return n.ok;
}

static int release(struct tn *t, long table)
{
	struct claim_count n = { 0 };
	ck_assert_int_eq(cluster_release_table(t->c, table, on_done, &n), 0);
	ck_assert(spin(answered, &n, 10000));
	ck_assert_int_eq(n.failed, 0);
	return n.ok;
}

struct owner_ask {
	int answered;
	char owner[CLUSTER_ID_MAX + 1];
};

static void on_owner(void *ctx, long table, const char *owner)
{
	(void)table;
	struct owner_ask *a = ctx;
	a->answered = 1;
	snprintf(a->owner, sizeof a->owner, "%s", owner ? owner : "");
}

static int owner_answered(void *ctx)
{
	return ((struct owner_ask *)ctx)->answered;
}

static const char *owner(struct tn *t, long table, struct owner_ask *a)
{
	memset(a, 0, sizeof *a);
	ck_assert_int_eq(cluster_owner_of(t->c, table, on_owner, a), 0);
	ck_assert(spin(owner_answered, a, 10000));
	return a->owner;
}

/* alpha, beta and gamma, each linked and seeing the two others. */
static void three_up(struct tn *t)
{
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	tn_start(&t[2], "gamma");
	struct group g = { t, 3 };
	ck_assert(spin(all_up, &g, 10000));
	ck_assert(spin(all_seen, &g, 10000));
}

struct kill_wait {
	struct tn *t;
	int ntables;
};

static int orphans_taken(void *ctx)
{
	struct kill_wait *k = ctx;
	return tn_saw(&k->t[1], "alpha", 1) && tn_saw(&k->t[2], "alpha", 1) &&
	       k->t[1].nadopted + k->t[2].nadopted >= k->ntables;
}

START_TEST(test_kill_adopt)
{
	fresh();
	struct tn t[3];
	three_up(t);
	enum { N = 12 };
	for (long i = 1; i <= N; i++)
		ck_assert_int_eq(claim(&t[0], i), 1);
	ck_assert_int_eq(claim(&t[1], 100), 1);
	ck_assert_int_eq(cluster_owned_count(t[0].c), N);
	/* alpha stops renewing without a word, as after kill -9. */
	long long killed = mono_ms();
	tn_stop(&t[0], 0);
	struct kill_wait k = { t, N };
	ck_assert(spin(orphans_taken, &k, 15000));
	long long took = mono_ms() - killed;
	fprintf(stderr, "check_cluster: a killed node's %d tables taken by the others in %lld ms (lease %d ms)\n", N,
	        took, CLUSTER_LEASE_MS);
	/* A few more rounds: nobody takes a table twice. */
	long long until = mono_ms() + 2 * CLUSTER_RENEW_MS + 200;
	while (mono_ms() < until)
		ev_run(loop, EVRUN_ONCE);
	ck_assert_int_eq(t[1].nadopted + t[2].nadopted, N);
	/* Shared out: each survivor takes the tables it is the first choice
	 * for (rendezvous hashing), so neither takes them all. */
	fprintf(stderr, "check_cluster: shared out %d and %d\n", t[1].nadopted, t[2].nadopted);
	ck_assert_int_gt(t[1].nadopted, 0);
	ck_assert_int_gt(t[2].nadopted, 0);
	ck_assert_int_eq(tn_saw(&t[1], "alpha", 1), 1);
	ck_assert_int_eq(tn_saw(&t[2], "alpha", 1), 1);
	for (long i = 1; i <= N; i++) {
		int in1 = 0, in2 = 0;
		for (int j = 0; j < t[1].nadopted; j++)
			in1 += t[1].adopted[j] == i;
		for (int j = 0; j < t[2].nadopted; j++)
			in2 += t[2].adopted[j] == i;
		ck_assert_int_eq(in1 + in2, 1);
		struct owner_ask a;
		ck_assert_str_eq(owner(&t[1], i, &a), in1 ? "beta" : "gamma");
		ck_assert_int_eq(cluster_owns(in1 ? t[1].c : t[2].c, i), 1);
	}
	/* beta's own table stayed beta's. */
	struct owner_ask a;
	ck_assert_str_eq(owner(&t[2], 100, &a), "beta");
	ck_assert_int_eq(cluster_owns(t[2].c, 100), 0);
	tn_stop(&t[1], 0);
	tn_stop(&t[2], 0);
	done_loop();
}
END_TEST

static void redis_do(const char *cmd)
{
	redisContext *rc = redis_sync();
	ck_assert_ptr_nonnull(rc);
	redisReply *r = redisCommand(rc, cmd);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_ne(r->type, REDIS_REPLY_ERROR);
	freeReplyObject(r);
	redisFree(rc);
}

static int saw_zeta(void *ctx)
{
	struct tn *t = ctx;
	return tn_saw(&t[1], "zeta", 0) && tn_saw(&t[2], "zeta", 0);
}

/* A node alive that takes nothing (zeta: a lease written by hand): the
 * tables of the lost node it is the first choice for wait a little, then
 * the others take them; every table taken once. */
START_TEST(test_share_deferred)
{
	fresh();
	char ok[8];
	ck_assert_int_eq(redistmp_str(&rt, "SET tapis:node:zeta %s PX 60000", "info of a node", ok, sizeof ok), 0);
	ck_assert_str_eq(ok, "OK");
	redis_do("SADD tapis:nodes zeta");
	struct tn t[3];
	three_up(t);
	ck_assert(spin(saw_zeta, t, 10000));
	enum { N = 24 };
	for (long i = 1; i <= N; i++)
		ck_assert_int_eq(claim(&t[0], i), 1);
	long long killed = mono_ms();
	tn_stop(&t[0], 0);
	struct kill_wait k = { t, N };
	ck_assert(spin(orphans_taken, &k, 20000));
	fprintf(stderr, "check_cluster: %d tables taken with an idle node about, in %lld ms\n", N, mono_ms() - killed);
	long long until = mono_ms() + 2 * CLUSTER_RENEW_MS + 200;
	while (mono_ms() < until)
		ev_run(loop, EVRUN_ONCE);
	ck_assert_int_eq(t[1].nadopted + t[2].nadopted, N);
	for (long i = 1; i <= N; i++) {
		int in = 0;
		for (int n = 1; n <= 2; n++)
			for (int j = 0; j < t[n].nadopted; j++)
				in += t[n].adopted[j] == i;
		ck_assert_int_eq(in, 1);
	}
	tn_stop(&t[1], 1);
	tn_stop(&t[2], 1);
	done_loop();
}
END_TEST

/* A lost node's table whose lease it still holds is tried again until it
 * lapses; one another node holds is left to it. */
static int two_taken(void *ctx)
{
	return ((struct tn *)ctx)->nadopted >= 2;
}

START_TEST(test_orphan_retry)
{
	fresh();
	struct tn t[2];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	struct group g = { t, 2 };
	ck_assert(spin(all_seen, &g, 10000));
	ck_assert_int_eq(claim(&t[0], 1), 1);
	ck_assert_int_eq(claim(&t[0], 2), 1);
	tn_stop(&t[0], 0);
	/* Table 2's lease outlives alpha's by seconds; table 3, listed as
	 * alpha's, is zeta's. */
	redis_do("SET tapis:table:2:owner alpha PX 6500");
	redis_do("SET tapis:table:3:owner zeta PX 60000");
	redis_do("SADD tapis:node:alpha:tables 3");
	ck_assert(spin(two_taken, &t[1], 15000));
	long long until = mono_ms() + 2 * CLUSTER_RENEW_MS + 200;
	while (mono_ms() < until)
		ev_run(loop, EVRUN_ONCE);
	ck_assert_int_eq(t[1].nadopted, 2);
	ck_assert_int_eq(cluster_owns(t[1].c, 1), 1);
	ck_assert_int_eq(cluster_owns(t[1].c, 2), 1);
	ck_assert_int_eq(cluster_owns(t[1].c, 3), 0);
	struct owner_ask a;
	ck_assert_str_eq(owner(&t[1], 3, &a), "zeta");
	ck_assert_str_eq(owner(&t[1], 2, &a), "beta");
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

/* A lease found taken by another node at a renewal is reported and given
 * up; one that lapsed untaken is taken back. */
static int taken_away(void *ctx)
{
	return ((struct tn *)ctx)->ntaken_away >= 1;
}

START_TEST(test_lease_taken_away)
{
	fresh();
	struct tn t;
	tn_start(&t, "beta");
	struct group g = { &t, 1 };
	ck_assert(spin(all_up, &g, 10000));
	ck_assert_int_eq(claim(&t, 10), 1);
	ck_assert_int_eq(claim(&t, 11), 1);
	redis_do("SET tapis:table:10:owner zeta");
	redis_do("DEL tapis:table:11:owner");
	ck_assert(spin(taken_away, &t, 10000));
	ck_assert_int_eq(t.ntaken_away, 1);
	ck_assert_int_eq(t.taken_away[0], 10);
	ck_assert_int_eq(cluster_owns(t.c, 10), 0);
	ck_assert_int_eq(cluster_owns(t.c, 11), 1);
	struct owner_ask a;
	ck_assert_str_eq(owner(&t, 11, &a), "beta");
	ck_assert_str_eq(owner(&t, 10, &a), "zeta");
	ck_assert_int_eq(redis_int("SISMEMBER tapis:node:beta:tables %s", "10"), 0);
	ck_assert_int_eq(redis_int("SISMEMBER tapis:node:beta:tables %s", "11"), 1);
	tn_stop(&t, 1);
	done_loop();
}
END_TEST

START_TEST(test_release_owner)
{
	fresh();
	struct tn t[2];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	struct group g = { t, 2 };
	ck_assert(spin(all_up, &g, 10000));
	struct owner_ask a;
	ck_assert_int_eq(claim(&t[0], 5), 1);
	ck_assert_int_eq(claim(&t[0], 5), 1); /* already its own */
	ck_assert_int_eq(claim(&t[1], 5), 0);
	ck_assert_int_eq(release(&t[1], 5), 0);
	ck_assert_str_eq(owner(&t[1], 5, &a), "alpha");
	ck_assert_int_eq(cluster_owns(t[0].c, 5), 1);
	ck_assert_int_eq(cluster_owns(t[1].c, 5), 0);
	ck_assert_int_eq(release(&t[0], 5), 1);
	ck_assert_int_eq(cluster_owns(t[0].c, 5), 0);
	ck_assert_str_eq(owner(&t[1], 5, &a), "");
	ck_assert_int_eq(claim(&t[1], 5), 1);
	ck_assert_str_eq(owner(&t[0], 5, &a), "beta");
	/* The lease is renewed: it outlives its first PX. */
	long long until = mono_ms() + CLUSTER_LEASE_MS + 2 * CLUSTER_RENEW_MS;
	while (mono_ms() < until)
		ev_run(loop, EVRUN_ONCE);
	ck_assert_str_eq(owner(&t[0], 5, &a), "beta");
	ck_assert_int_eq(t[0].nlost + t[1].nlost, 0);
	tn_stop(&t[0], 1);
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

/* ---------------------------------------------------------------- pub/sub */

struct numsub {
	const char *ch;
	long long want;
};

static int subscribed(void *ctx)
{
	struct numsub *n = ctx;
	return redis_int("PUBSUB NUMSUB %s", n->ch) == n->want;
}

struct got {
	struct tn *t;
	int n, want;
};

static int all_got(void *ctx)
{
	struct got *g = ctx;
	for (int i = 0; i < g->n; i++)
		if (g->t[i].nmsg < g->want)
			return 0;
	return 1;
}

START_TEST(test_pubsub_order)
{
	fresh();
	struct tn t[3];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	tn_start(&t[2], "gamma");
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(cluster_subscribe(t[i].c, CLUSTER_CH_CHAT, h_msg, &t[i]), 0);
	struct numsub ns = { CLUSTER_CH_CHAT, 3 };
	ck_assert(spin(subscribed, &ns, 10000));
	enum { M = 200 };
	for (int i = 0; i < M; i++) {
		unsigned char m[16] = { 0 };
		snprintf((char *)m + 1, sizeof m - 1, "m%d", i);
		/* bytes, with a NUL first: opaque to the module */
		ck_assert_int_eq(cluster_publish(t[i % 3].c, CLUSTER_CH_CHAT, m, 1 + strlen((char *)m + 1)), 0);
	}
	struct got g = { t, 3, M };
	ck_assert(spin(all_got, &g, 10000));
	/* Every node gets every message, all in one order, each sender's in
	 * the order it sent them. */
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(t[k].nmsg, M);
		int last[3] = { -1, -1, -1 };
		for (int i = 0; i < M; i++) {
			ck_assert_uint_eq(t[k].msglen[i], t[0].msglen[i]);
			ck_assert_int_eq(memcmp(t[k].msg[i], t[0].msg[i], t[0].msglen[i]), 0);
			ck_assert_int_eq(t[k].msg[i][0], 0);
			ck_assert_int_eq(t[k].msg[i][1], 'm');
			int n = atoi(t[k].msg[i] + 2);
			ck_assert_int_gt(n, last[n % 3]);
			last[n % 3] = n;
		}
	}
	/* A node's inbox reaches that node only. */
	char inbox[CLUSTER_CHANNEL_MAX + 1];
	ck_assert_int_eq(clwords_inbox("beta", inbox, sizeof inbox), 0);
	ck_assert_str_eq(inbox, "tapis:inbox:beta");
	ck_assert_int_eq(cluster_subscribe(t[1].c, inbox, h_msg, &t[1]), 0);
	struct numsub ni = { inbox, 1 };
	ck_assert(spin(subscribed, &ni, 10000));
	ck_assert_int_eq(cluster_publish(t[0].c, inbox, "to beta", 7), 0);
	struct got g1 = { t + 1, 1, M + 1 };
	ck_assert(spin(all_got, &g1, 10000));
	ck_assert_int_eq(memcmp(t[1].msg[M], "to beta", 7), 0);
	/* Unsubscribed: no more. */
	ck_assert_int_eq(cluster_unsubscribe(t[2].c, CLUSTER_CH_CHAT), 0);
	ck_assert_int_eq(cluster_unsubscribe(t[2].c, CLUSTER_CH_CHAT), -1);
	struct numsub n2 = { CLUSTER_CH_CHAT, 2 };
	ck_assert(spin(subscribed, &n2, 10000));
	ck_assert_int_eq(cluster_publish(t[0].c, CLUSTER_CH_CHAT, "last", 4), 0);
	struct got g2 = { t, 1, M + 1 };
	ck_assert(spin(all_got, &g2, 10000));
	ck_assert_int_eq(t[2].nmsg, M);
	ck_assert_int_eq(t[0].nmsg, M + 1);
	for (int i = 0; i < 3; i++)
		tn_stop(&t[i], 1);
	done_loop();
}
END_TEST

static int leased_again(void *ctx)
{
	(void)ctx;
	return redis_int("EXISTS tapis:node:%s", "beta") == 1 && redis_int("EXISTS tapis:table:%s:owner", "4") == 1;
}

static int relinked(void *ctx)
{
	struct tn *t = ctx;
	return t->links_down >= 1 && t->links_up >= 2 && cluster_up(t->c);
}

START_TEST(test_reconnect)
{
	fresh();
	struct tn t[2];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	struct group g = { t, 2 };
	ck_assert(spin(all_up, &g, 10000));
	ck_assert(spin(all_seen, &g, 10000));
	ck_assert_int_eq(cluster_subscribe(t[0].c, CLUSTER_CH_LOBBY, h_msg, &t[0]), 0);
	struct numsub ns = { CLUSTER_CH_LOBBY, 1 };
	ck_assert(spin(subscribed, &ns, 10000));
	ck_assert_int_eq(claim(&t[1], 3), 1);
	/* Every link of the nodes cut by Redis (ours, the killer's, is spared). */
	long long cut = mono_ms();
	ck_assert_int_ge(redis_int("CLIENT KILL TYPE %s", "normal"), 2);
	ck_assert_int_ge(redis_int("CLIENT KILL TYPE %s", "pubsub"), 1);
	ck_assert(spin(relinked, &t[0], 10000));
	ck_assert(spin(relinked, &t[1], 10000));
	ck_assert(spin(subscribed, &ns, 10000));
	fprintf(stderr, "check_cluster: every link cut by Redis, made again and subscribed in %lld ms\n",
	        mono_ms() - cut);
	ck_assert_int_eq(cluster_publish(t[1].c, CLUSTER_CH_LOBBY, "after", 5), 0);
	struct got got = { t, 1, 1 };
	ck_assert(spin(all_got, &got, 10000));
	ck_assert_int_eq(memcmp(t[0].msg[0], "after", 5), 0);
	struct owner_ask a;
	ck_assert_str_eq(owner(&t[0], 3, &a), "beta");
	ck_assert_int_eq(cluster_owns(t[1].c, 3), 1);
	ck_assert_int_eq(t[0].nlost + t[1].nlost, 0);
	tn_stop(&t[0], 1);
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

/* Redis killed and started again, empty: the node makes its links again,
 * writes its lease again, takes its table's lease back and subscribes
 * again. This Redis is the test's own. */
static int link_down(void *ctx)
{
	return ((struct tn *)ctx)->links_down >= 1;
}

START_TEST(test_redis_restarted)
{
	/* In this test's process only: the suite's Redis left alone. */
	ck_assert_int_eq(redistmp_start(&rt), 0);
	fresh();
	struct tn t;
	tn_start(&t, "beta");
	struct group g = { &t, 1 };
	ck_assert(spin(all_up, &g, 10000));
	ck_assert_int_eq(cluster_subscribe(t.c, CLUSTER_CH_INVITE, h_msg, &t), 0);
	struct numsub ns = { CLUSTER_CH_INVITE, 1 };
	ck_assert(spin(subscribed, &ns, 10000));
	ck_assert_int_eq(claim(&t, 4), 1);
	redistmp_kill(&rt);
	ck_assert(spin(link_down, &t, 10000));
	ck_assert_int_eq(cluster_up(t.c), 0);
	ck_assert_int_eq(redistmp_restart(&rt), 0);
	ck_assert(spin(relinked, &t, 10000));
	ck_assert(spin(subscribed, &ns, 10000));
	/* Its lease and its table's, at the next renewal at the latest. */
	ck_assert(spin(leased_again, &t, 10000));
	struct owner_ask a;
	ck_assert_str_eq(owner(&t, 4, &a), "beta");
	ck_assert_int_eq(cluster_owns(t.c, 4), 1);
	ck_assert_int_eq(cluster_publish(t.c, CLUSTER_CH_INVITE, "hi", 2), 0);
	struct got got = { &t, 1, 1 };
	ck_assert(spin(all_got, &got, 10000));
	tn_stop(&t, 1);
	done_loop();
	redistmp_stop(&rt);
}
END_TEST

/* Redis away: what is asked is refused at once, the loop goes on, and the
 * link comes back by itself. */
START_TEST(test_redis_away)
{
	fresh();
	struct tn t;
	memset(&t, 0, sizeof t);
	struct cluster_hooks h = { &t, h_link, h_seen, h_lost, h_adopted, NULL };
	char err[256], nowhere[64];
	snprintf(nowhere, sizeof nowhere, "redis://127.0.0.1:%d", redistmp_free_port());
	struct cluster *c = cluster_new(loop, nowhere, NULL, NULL, &h, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq((int)strlen(cluster_node(c)), 16);
	long long until = mono_ms() + 500;
	while (mono_ms() < until)
		ev_run(loop, EVRUN_ONCE);
	ck_assert_int_eq(cluster_up(c), 0);
	ck_assert_int_eq(cluster_claim_table(c, 1, NULL, NULL), -1);
	ck_assert_int_eq(cluster_publish(c, CLUSTER_CH_CHAT, "x", 1), -1);
	ck_assert_int_eq(cluster_dir_set(c, CLUSTER_DIR_PEOPLE, "ann", "x", 1), -1);
	ck_assert_int_eq(t.links_up, 0);
	cluster_free(c, 1);
	done_loop();
}
END_TEST

/* ---------------------------------------------------------------- the directory */

struct listing {
	int done;
	int n;
	char keys[8][CLUSTER_KEY_MAX + 1];
	char vals[8][64];
};

static void on_field(void *ctx, const char *key, const void *val, size_t len)
{
	struct listing *l = ctx;
	if (!key) {
		ck_assert_uint_eq(len, 0);
		l->done = 1;
		return;
	}
	ck_assert_int_lt(l->n, 8);
	ck_assert_uint_lt(len, 64);
	snprintf(l->keys[l->n], sizeof l->keys[0], "%s", key);
	memcpy(l->vals[l->n], val, len);
	l->vals[l->n++][len] = '\0';
}

static int listed(void *ctx)
{
	return ((struct listing *)ctx)->done;
}

static void list(struct tn *t, enum cluster_dir d, struct listing *l)
{
	memset(l, 0, sizeof *l);
	ck_assert_int_eq(cluster_dir_all(t->c, d, on_field, l), 0);
	ck_assert(spin(listed, l, 10000));
}

START_TEST(test_directory)
{
	fresh();
	struct tn t[2];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	struct group g = { t, 2 };
	ck_assert(spin(all_up, &g, 10000));
	ck_assert_int_eq(cluster_dir_set(t[0].c, CLUSTER_DIR_TABLES, "12", "{\"game\":\"brelan\"}", 17), 0);
	ck_assert_int_eq(cluster_dir_set(t[0].c, CLUSTER_DIR_PEOPLE, "ann", "alpha", 5), 0);
	ck_assert_int_eq(cluster_dir_set(t[1].c, CLUSTER_DIR_PEOPLE, "bob", "beta", 4), 0);
	struct listing l;
	list(&t[0], CLUSTER_DIR_TABLES, &l); /* alpha's writes are done */
	list(&t[1], CLUSTER_DIR_TABLES, &l);
	ck_assert_int_eq(l.n, 1);
	ck_assert_str_eq(l.keys[0], "12");
	ck_assert_str_eq(l.vals[0], "{\"game\":\"brelan\"}");
	list(&t[0], CLUSTER_DIR_PEOPLE, &l);
	ck_assert_int_eq(l.n, 2);
	list(&t[1], CLUSTER_DIR_PEOPLE, &l);
	ck_assert_int_eq(l.n, 2);
	ck_assert_int_eq(cluster_dir_del(t[1].c, CLUSTER_DIR_PEOPLE, "ann"), 0);
	list(&t[1], CLUSTER_DIR_PEOPLE, &l);
	list(&t[0], CLUSTER_DIR_PEOPLE, &l);
	ck_assert_int_eq(l.n, 1);
	ck_assert_str_eq(l.keys[0], "bob");
	ck_assert_str_eq(l.vals[0], "beta");
	tn_stop(&t[0], 1);
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

struct ids {
	long first, count;
	int answered;
};

static void on_ids(void *ctx, long first, long count)
{
	struct ids *i = ctx;
	i->first = first;
	i->count = count;
	i->answered = 1;
}

static int ids_answered(void *ctx)
{
	return ((struct ids *)ctx)->answered;
}

static long new_ids(struct tn *t, long count, long floor)
{
	struct ids i = { 0, 0, 0 };
	ck_assert_int_eq(cluster_new_ids(t->c, count, floor, on_ids, &i), 0);
	ck_assert(spin(ids_answered, &i, 10000));
	ck_assert_int_eq(i.count, count);
	return i.first;
}

/* Blocks of table ids never overlap, and never go below the floor. */
START_TEST(test_table_ids)
{
	fresh();
	struct tn t[2];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	struct group g = { t, 2 };
	ck_assert(spin(all_up, &g, 10000));
	ck_assert_int_eq(new_ids(&t[0], 100, 0), 1);
	ck_assert_int_eq(new_ids(&t[1], 100, 0), 101);
	ck_assert_int_eq(new_ids(&t[1], 10, 5000), 5001);
	ck_assert_int_eq(new_ids(&t[0], 1, 40), 5011);
	ck_assert_int_eq(cluster_new_ids(t[0].c, 0, 0, on_ids, NULL), -1);
	ck_assert_int_eq(cluster_new_ids(t[0].c, CLUSTER_MAX_ID_BLOCK + 1, 0, on_ids, NULL), -1);
	ck_assert_int_eq(cluster_new_ids(t[0].c, 1, -1, on_ids, NULL), -1);
	tn_stop(&t[0], 1);
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

/* A node stopped gently drops its leases: the others take its tables at
 * once, without waiting for them to lapse. */
static int three_taken(void *ctx)
{
	struct tn *t = ctx;
	return t[1].nadopted >= 3;
}

START_TEST(test_gentle_stop)
{
	fresh();
	struct tn t[2];
	tn_start(&t[0], "alpha");
	tn_start(&t[1], "beta");
	struct group g = { t, 2 };
	ck_assert(spin(all_seen, &g, 10000));
	for (long i = 1; i <= 3; i++)
		ck_assert_int_eq(claim(&t[0], i), 1);
	tn_stop(&t[0], 1);
	for (int i = 1; i <= 3; i++) {
		char id[16];
		snprintf(id, sizeof id, "%d", i);
		ck_assert_int_eq(redis_int("EXISTS tapis:table:%s:owner", id), 0);
		ck_assert_int_eq(redis_int("SISMEMBER tapis:node:alpha:tables %s", id), 1);
	}
	ck_assert(spin(three_taken, t, 10000));
	ck_assert_int_eq(tn_saw(&t[1], "alpha", 1), 1);
	ck_assert_int_eq(cluster_owned_count(t[1].c), 3);
	tn_stop(&t[1], 1);
	done_loop();
}
END_TEST

/* ---------------------------------------------------------------- hostile sizes */

START_TEST(test_hostile_sizes)
{
	char host[CLUSTER_HOST_MAX + 1], err[256];
	int port;
	ck_assert_int_eq(clwords_parse_url("redis://127.0.0.1:6380", host, sizeof host, &port, err, sizeof err), 0);
	ck_assert_str_eq(host, "127.0.0.1");
	ck_assert_int_eq(port, 6380);
	ck_assert_int_eq(clwords_parse_url("redis://cache.example", host, sizeof host, &port, err, sizeof err), 0);
	ck_assert_int_eq(port, 6379);
	static const char *bad[] = {
		"", "redis://", "http://h:1", "redis://:6379", "redis://h:0", "redis://h:65536", "redis://h:99999999999",
		"redis://h:-1", "redis://h:12x", "redis://u:p@h:1", "redis://h:1/2", "redis://[::1]:1", "redis://h h:1",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(clwords_parse_url(bad[i], host, sizeof host, &port, err, sizeof err) < 0, "%s", bad[i]);
	char big[CLUSTER_URL_MAX + 64];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "redis://", 8);
	ck_assert_int_lt(clwords_parse_url(big, host, sizeof host, &port, err, sizeof err), 0);

	char id[CLUSTER_ID_MAX + 2];
	memset(id, 'n', sizeof id - 1);
	id[sizeof id - 1] = '\0';
	ck_assert_int_lt(clwords_check_id(id), 0);
	id[CLUSTER_ID_MAX] = '\0';
	ck_assert_int_eq(clwords_check_id(id), 0);
	ck_assert_int_lt(clwords_check_id(""), 0);
	ck_assert_int_lt(clwords_check_id("a b"), 0);
	ck_assert_int_lt(clwords_check_id("a*"), 0);
	ck_assert_int_lt(clwords_check_id("a\n"), 0);

	fresh();
	memset(id, 'n', sizeof id - 1);
	id[sizeof id - 1] = '\0';
	ck_assert_ptr_null(cluster_new(loop, rt.url, id, NULL, NULL, err, sizeof err));
	ck_assert_ptr_null(cluster_new(loop, rt.url, "tapis:*", NULL, NULL, err, sizeof err));
	ck_assert_ptr_null(cluster_new(NULL, rt.url, "a", NULL, NULL, err, sizeof err));
	char info[CLUSTER_INFO_MAX + 2];
	memset(info, 'i', sizeof info - 1);
	info[sizeof info - 1] = '\0';
	ck_assert_ptr_null(cluster_new(loop, rt.url, "a", info, NULL, err, sizeof err));

	struct tn t;
	tn_start(&t, "alpha");
	struct group g = { &t, 1 };
	ck_assert(spin(all_up, &g, 10000));
	char ch[CLUSTER_CHANNEL_MAX + 2];
	memset(ch, 'c', sizeof ch - 1);
	ch[sizeof ch - 1] = '\0';
	ck_assert_int_eq(cluster_publish(t.c, ch, "x", 1), -1);
	ck_assert_int_eq(cluster_subscribe(t.c, ch, h_msg, &t), -1);
	ck_assert_int_eq(cluster_publish(t.c, "", "x", 1), -1);
	ck_assert_int_eq(cluster_publish(t.c, "a b", "x", 1), -1);
	ck_assert_int_eq(clwords_inbox(ch, ch, sizeof ch), -1);
	char *msg = calloc(1, CLUSTER_MESSAGE_MAX + 1);
	ck_assert_int_eq(cluster_publish(t.c, CLUSTER_CH_CHAT, msg, CLUSTER_MESSAGE_MAX + 1), -1);
	ck_assert_int_eq(cluster_claim_table(t.c, -1, NULL, NULL), -1);
	ck_assert_int_eq(cluster_release_table(t.c, -1, NULL, NULL), -1);
	ck_assert_int_eq(cluster_owner_of(t.c, -1, NULL, NULL), -1);
	char key[CLUSTER_KEY_MAX + 2];
	memset(key, 'k', sizeof key - 1);
	key[sizeof key - 1] = '\0';
	ck_assert_int_eq(cluster_dir_set(t.c, CLUSTER_DIR_PEOPLE, key, "x", 1), -1);
	ck_assert_int_eq(cluster_dir_del(t.c, CLUSTER_DIR_PEOPLE, key), -1);
	ck_assert_int_eq(cluster_dir_set(t.c, CLUSTER_DIR_PEOPLE, "", "x", 1), -1);
	ck_assert_int_eq(cluster_dir_set(t.c, CLUSTER_DIR_TABLES, "1", msg, CLUSTER_VALUE_MAX + 1), -1);
	/* At most CLUSTER_MAX_SUBS channels. */
	for (int i = 0; i < CLUSTER_MAX_SUBS; i++) {
		char name[32];
		snprintf(name, sizeof name, "ch%d", i);
		ck_assert_int_eq(cluster_subscribe(t.c, name, h_msg, &t), 0);
	}
	ck_assert_int_eq(cluster_subscribe(t.c, "one-more", h_msg, &t), -1);
	for (int i = 1; i < CLUSTER_MAX_SUBS; i++) {
		char name[32];
		snprintf(name, sizeof name, "ch%d", i);
		ck_assert_int_eq(cluster_unsubscribe(t.c, name), 0);
	}
	/* A message longer than the bound, put on the channel by another
	 * client of Redis, is not taken; the largest allowed and the next
	 * ones are, in order. */
	struct numsub ns = { "ch0", 1 };
	ck_assert(spin(subscribed, &ns, 10000));
	redisContext *rc = redis_sync();
	ck_assert_ptr_nonnull(rc);
	freeReplyObject(redisCommand(rc, "PUBLISH ch0 %b", msg, (size_t)CLUSTER_MESSAGE_MAX + 1));
	redisFree(rc);
	ck_assert_int_eq(cluster_publish(t.c, "ch0", msg, CLUSTER_MESSAGE_MAX), 0);
	ck_assert_int_eq(cluster_publish(t.c, "ch0", "end", 3), 0);
	struct got got = { &t, 1, 2 };
	ck_assert(spin(all_got, &got, 10000));
	ck_assert_uint_eq(t.msglen[0], CLUSTER_MESSAGE_MAX);
	ck_assert_uint_eq(t.msglen[1], 3);
	free(msg);
	tn_stop(&t, 1);
	done_loop();
}
END_TEST

/* ---------------------------------------------------------------- tapis serve --cluster */

static const char *tapis_bin(void)
{
	const char *b = getenv("TAPIS_BIN");
	return b ? b : "build/tapis";
}

/* A `tapis serve --cluster` node in a child process, its standard error
 * in log; it dies with the test. */
static pid_t serve_node(const char *name, const char *log)
{
	char db[128];
	snprintf(db, sizeof db, "%s/%s.db", rt.dir, name);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (!freopen(log, "w", stderr) || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(tapis_bin(), tapis_bin(), "serve", "--port", "0", "--db", db, "--cluster", rt.url, "--node-id", name,
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

struct logwait {
	const char *file, *line;
};

static int log_has(void *ctx)
{
	struct logwait *w = ctx;
	FILE *f = fopen(w->file, "r");
	char buf[512];
	int found = 0;
	while (f && !found && fgets(buf, sizeof buf, f))
		found = strstr(buf, w->line) != NULL;
	if (f)
		fclose(f);
	usleep(20000);
	return found;
}

START_TEST(test_serve_nodes)
{
	fresh();
	char loga[128], logb[128];
	snprintf(loga, sizeof loga, "%s/north.log", rt.dir);
	snprintf(logb, sizeof logb, "%s/south.log", rt.dir);
	pid_t a = serve_node("north", loga), b = serve_node("south", logb);
	struct logwait wa = { loga, "cluster: node south seen (ws://127.0.0.1:" };
	struct logwait wb = { logb, "cluster: node north seen (ws://127.0.0.1:" };
	ck_assert(spin(log_has, &wa, 15000));
	ck_assert(spin(log_has, &wb, 15000));
	/* north killed: south says so, once its lease lapsed. */
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	struct logwait lost = { logb, "cluster: node north lost" };
	ck_assert(spin(log_has, &lost, 15000));
	/* south stopped gently: its lease goes with it. */
	ck_assert_int_eq(redis_int("EXISTS tapis:node:%s", "south"), 1);
	kill(b, SIGTERM);
	int st;
	waitpid(b, &st, 0);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(redis_int("EXISTS tapis:node:%s", "south"), 0);
	ck_assert_int_eq(redis_int("SISMEMBER tapis:nodes %s", "south"), 0);
	const char *files[] = { "north.log", "south.log", "north.db", "south.db", "north.db-wal", "south.db-wal",
	                        "north.db-shm", "south.db-shm" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char p[160];
		snprintf(p, sizeof p, "%s/%s", rt.dir, files[i]);
		unlink(p);
	}
	done_loop();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cluster");
	TCase *tc = tcase_create("redis");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_leases_seen);
	tcase_add_test(tc, test_kill_adopt);
	tcase_add_test(tc, test_share_deferred);
	tcase_add_test(tc, test_release_owner);
	tcase_add_test(tc, test_orphan_retry);
	tcase_add_test(tc, test_lease_taken_away);
	tcase_add_test(tc, test_pubsub_order);
	tcase_add_test(tc, test_reconnect);
	tcase_add_test(tc, test_redis_away);
	tcase_add_test(tc, test_redis_restarted);
	tcase_add_test(tc, test_directory);
	tcase_add_test(tc, test_table_ids);
	tcase_add_test(tc, test_gentle_stop);
	tcase_add_test(tc, test_hostile_sizes);
	tcase_add_test(tc, test_serve_nodes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	const char *ci = getenv("CI");
	int in_ci = ci && strcmp(ci, "true") == 0;
	main_pid = getpid();
	if (redistmp_start(&rt) < 0) {
		fprintf(stderr, "check_cluster: SKIPPED: no redis-server to start (Debian: apt-get install redis-server)%s\n",
		        in_ci ? " (CI: a failure)" : "");
		return in_ci ? EXIT_FAILURE : 77;
	}
	atexit(redis_stop);
	signal(SIGINT, on_fatal);
	signal(SIGTERM, on_fatal);
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	int rc = tu_run(suite());
	redis_stop();
	return rc;
}
