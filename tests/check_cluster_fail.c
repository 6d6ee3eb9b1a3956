/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A cluster losing nodes (docs/cluster.md): three `tapis serve --cluster
 * --store postgresql://...` processes on a redis-server and a PostgreSQL
 * of the suite's own (free loopback ports, temporary folders, stopped at
 * the end), one hand-history folder for all. Clients play tables on one
 * node; that node killed with kill -9 mid-game: every table it ran is
 * taken by another, its players reconnect there (the table's owner read in
 * Redis) at the very moment they left, and play to the end; each hand
 * history replays clean, as the game rebuilt from its seed. A node stopped
 * with SIGTERM hands its tables over; a cluster stopped whole and started
 * again resumes every unfinished table. The fencing of the store: a former
 * owner's writes refused. `tapis bench --net` over the three nodes, one
 * of them killed while it plays: its clients back at their seats through
 * the others, every table played to its end. Without redis-server or PostgreSQL the suite is
 * skipped (77), except under CI=true where that is a failure. */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/replay.h"
#include "net/client/bench_net.h"
#include "net/cluster/cladopt.h"
#include "net/cluster/cluster.h"
#include "net/server/lobby.h"
#include "net/store/store.h"
#include "net/store/storew.h"
#include "netutil.h"
#include "pgtmp.h"
#include "redistmp.h"
#include "testutil.h"
/* After the headers above: libev's ev_init macro would meet core/event.h's. */
#include <ev.h>

static struct redistmp rd;
static struct pgtmp pg;
static pid_t main_pid;

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------- the nodes */

struct node {
	char id[16];
	pid_t pid;
	char log[160];
	int gen;           /* starts so far: each one its own log */
	struct srv s;      /* its address, for the clients */
};

/* What a test holds: its folder (logs, hand histories), its database. */
static char dir[64], hands[96], db[160];

static const char *tapis_bin(void)
{
	const char *b = getenv("TAPIS_BIN");
	return b ? b : "build/tapis";
}

/* The port in the node's "listening on ws://127.0.0.1:PORT", or 0. */
static int listening(const struct node *n)
{
	FILE *f = fopen(n->log, "r");
	char line[512];
	int port = 0;
	while (f && !port && fgets(line, sizeof line, f)) {
		const char *p = strstr(line, "listening on ws://127.0.0.1:");
		if (p)
			port = atoi(p + strlen("listening on ws://127.0.0.1:"));
	}
	if (f)
		fclose(f);
	return port;
}

static int log_has(const struct node *n, const char *what)
{
	FILE *f = fopen(n->log, "r");
	char line[512];
	int found = 0;
	while (f && !found && fgets(line, sizeof line, f))
		found = strstr(line, what) != NULL;
	if (f)
		fclose(f);
	return found;
}

/* A player's time to act on the nodes started from now ("0": none). */
static const char *turn_seconds = "0";

static void node_start(struct node *n, const char *id)
{
	snprintf(n->id, sizeof n->id, "%s", id);
	snprintf(n->log, sizeof n->log, "%s/%s.%d.log", dir, id, n->gen++);
	fflush(NULL);
	n->pid = fork();
	ck_assert_int_ge(n->pid, 0);
	if (n->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the test */
		if (!freopen(n->log, "w", stderr) || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(tapis_bin(), tapis_bin(), "serve", "--port", "0", "--store", db, "--cluster", rd.url, "--node-id",
		      id, "--log-dir", hands, "--seed", "4242", "--bot-delay", "0", "--turn-seconds", turn_seconds,
		      (char *)NULL);
		_exit(127);
	}
	int port = 0;
	for (int i = 0; i < 1500 && !(port = listening(n)); i++) {
		ck_assert_msg(waitpid(n->pid, NULL, WNOHANG) == 0, "node %s ended", id);
		usleep(10000);
	}
	ck_assert_msg(port > 0, "node %s did not listen", id);
	memset(&n->s, 0, sizeof n->s);
	n->s.pid = n->pid;
	n->s.port = port;
	snprintf(n->s.url, sizeof n->s.url, "ws://127.0.0.1:%d", port);
}

/* SIGTERM: the node hands its tables over and ends with status 0. */
static void node_term(struct node *n)
{
	int st = 0;
	ck_assert_int_eq(kill(n->pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(n->pid, &st, 0), n->pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "node %s did not stop cleanly (%d)", n->id, st);
	n->pid = 0;
}

static void node_kill(struct node *n)
{
	ck_assert_int_eq(kill(n->pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(n->pid, NULL, 0), n->pid);
	n->pid = 0;
}

/* Each node has seen every other one (so that it notices its loss). */
static void nodes_meet(struct node *nodes, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			if (i == k)
				continue;
			char what[64];
			snprintf(what, sizeof what, "cluster: node %s seen", nodes[k].id);
			int ok = 0;
			for (int w = 0; w < 1500 && !(ok = log_has(&nodes[i], what)); w++)
				usleep(10000);
			ck_assert_msg(ok, "%s never saw %s", nodes[i].id, nodes[k].id);
		}
}

/* A fresh start: Redis emptied, a new database, a new folder. */
static void fresh(const char *name)
{
	ck_assert_int_ge(redistmp_int(&rd, "FLUSHALL", NULL), -1);
	snprintf(dir, sizeof dir, "/tmp/tapis-clfail-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(hands, sizeof hands, "%s/hands", dir);
	ck_assert_int_eq(mkdir(hands, 0700), 0);
	char err[512], dbname[48];
	snprintf(dbname, sizeof dbname, "%s%d", name, (int)getpid());
	ck_assert_msg(pgtmp_db(&pg, dbname, db, sizeof db, err, sizeof err) == 0, "%s", err);
}

static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The node owning table id, as Redis says ("" none). */
static void owner_of(long id, char *out, size_t len)
{
	char key[64];
	snprintf(key, sizeof key, "%ld", id);
	redistmp_str(&rd, "GET tapis:table:%s:owner", key, out, len);
}

/* ---------------------------------------------------------------- the players */

#define NT 6                /* tables, one person and three bots each */

struct player {
	struct tc t;
	char name[32];
	char token[sizeof ((struct tc *)0)->token];
	long table;
	int moves;          /* where the table stood when its node went */
	char hand[2048];
	long long resumed_ms; /* from the node's loss to the table's state at its new node */
};

static struct player pl[NT];

static int count_states(const struct tc *t)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += !strcmp(mtype(t->msg[i]), "state");
	return n;
}

/* Every table played until past so many more states and waiting for its
 * person (who then stops acting there). */
static void play_to_turn(int n, int more)
{
	int want[NT], parked[NT] = { 0 }, left = n;
	for (int i = 0; i < n; i++)
		want[i] = count_states(&pl[i].t) + more;
	long long until = mono_ms() + 45000;
	while (left && mono_ms() < until) {
		for (int i = 0; i < n; i++) {
			struct tc *t = &pl[i].t;
			if (parked[i])
				continue;
			netc_service(t->c, 1);
			ck_assert_msg(!t->over, "%s: the game ended too soon", t->name);
			if (count_states(t) >= want[i] && t->state &&
			    json_integer_value(json_object_get(t->state, "to_act")) == t->seat &&
			    json_is_true(json_object_get(t->state, "my_turn"))) {
				parked[i] = 1;
				left--;
			} else {
				tc_play(t);
			}
		}
	}
	ck_assert_msg(left == 0, "%d tables never came to their person's turn", left);
}

static void hand_of(json_t *state, char *out, size_t len)
{
	char *h = json_dumps(json_object_get(state, "hand"), JSON_COMPACT);
	snprintf(out, len, "%s", h ? h : "");
	free(h);
}

/* n tables at node, each with a guest and three bots, played to the
 * guest's turn a few moves in; their ids owned by node in Redis. */
static void tables_at(struct node *node, int n)
{
	for (int i = 0; i < n; i++) {
		struct player *p = &pl[i];
		memset(p, 0, sizeof *p);
		snprintf(p->name, sizeof p->name, "Guest%d", i);
		tc_login(&p->t, &node->s, p->name, "en", NULL);
		memcpy(p->token, p->t.token, sizeof p->token);
		ck_assert_int_gt((int)strlen(p->token), 0);
		p->table = tc_create(&p->t, i % 2 ? "bouillotte" : "bourre", 4, "[\"open\",\"bot\",\"bot:1\",\"bot\"]",
		                     ",\"rules\":{\"hands\":3}");
		p->t.seat = 0;
		tc_send(&p->t, "{\"type\":\"start\",\"table\":%ld}", p->table);
	}
	play_to_turn(n, 4);
	for (int i = 0; i < n; i++) {
		char owner[64] = "";
		for (int w = 0; w < 500 && strcmp(owner, node->id) != 0; w++) {
			owner_of(pl[i].table, owner, sizeof owner);
			if (strcmp(owner, node->id) != 0)
				usleep(10000);
		}
		ck_assert_str_eq(owner, node->id);
	}
}

/* Where each table stands, its players' connections let go (their node is
 * about to go). */
static void players_leave(int n)
{
	for (int i = 0; i < n; i++) {
		struct player *p = &pl[i];
		p->moves = (int)json_integer_value(json_object_get(p->t.state, "moves"));
		hand_of(p->t.state, p->hand, sizeof p->hand);
		netc_abandon(p->t.c);
		p->t.c = NULL;
		tc_free(&p->t);
		p->resumed_ms = -1;
	}
}

static struct node *node_named(struct node *nodes, int n, const char *id)
{
	for (int i = 0; i < n; i++)
		if (nodes[i].pid > 0 && !strcmp(nodes[i].id, id))
			return &nodes[i];
	return NULL;
}

/* Each player finds their table's new node in Redis (not gone), logs in
 * again with their token, sits back at the same moment of the same deal;
 * from t0, how long each took. */
static void players_return(struct node *nodes, int nn, const char *gone, int n, long long t0)
{
	int left = n;
	long long until = mono_ms() + 40000;
	while (left && mono_ms() < until) {
		for (int i = 0; i < n; i++) {
			struct player *p = &pl[i];
			if (p->resumed_ms >= 0)
				continue;
			char owner[64];
			owner_of(p->table, owner, sizeof owner);
			struct node *to = owner[0] && (!gone || strcmp(owner, gone) != 0) ? node_named(nodes, nn, owner) : NULL;
			if (!to)
				continue;
			tc_hello(&p->t, &to->s, p->name, "en", NULL, p->token);
			tc_wait(&p->t, "welcome");
			json_t *j = tc_wait(&p->t, "joined");
			ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), p->table);
			ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 0);
			p->t.table = p->table;
			p->t.seat = 0;
			json_t *st = tc_wait(&p->t, "state");
			p->resumed_ms = mono_ms() - t0;
			/* The same moment of the same deal. */
			ck_assert_int_eq(json_integer_value(json_object_get(st, "moves")), p->moves);
			char hand[2048];
			hand_of(st, hand, sizeof hand);
			ck_assert_str_eq(hand, p->hand);
			/* The newest state is the one to act on. */
			for (int k = p->t.n - 1; k >= 0; k--)
				if (!strcmp(mtype(p->t.msg[k]), "state")) {
					p->t.state = p->t.msg[k];
					break;
				}
			left--;
		}
		usleep(5000);
	}
	ck_assert_msg(left == 0, "%d tables were not taken over", left);
}

/* Every table played to its end; each hand history is whole (its game's
 * end) and replays as the game rebuilt from its seed. */
static void play_out(int n)
{
	struct tc *all[NT];
	for (int i = 0; i < n; i++)
		all[i] = &pl[i].t;
	play_until(all, n, NULL, NULL);
	for (int i = 0; i < n; i++) {
		char path[160], err[1024];
		history_path(hands, pl[i].table, path, sizeof path);
		ck_assert_msg(replay_file(path, NULL, err, sizeof err) == 0, "%s", err);
		FILE *f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		char line[REPLAY_LINE_MAX], last[REPLAY_LINE_MAX] = "";
		while (fgets(line, sizeof line, f))
			snprintf(last, sizeof last, "%s", line);
		fclose(f);
		ck_assert_msg(strstr(last, "\"game_end\""), "%s ends with %.200s", path, last);
		tc_free(&pl[i].t);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* The three nodes of a test (ids[i] the name of nodes[i]), started and
 * each seen by the others. */
static const char *const ids[] = { "north", "south", "east" };

static void three_up(struct node nodes[3])
{
	memset(nodes, 0, 3 * sizeof *nodes);
	for (int i = 0; i < 3; i++)
		node_start(&nodes[i], ids[i]);
	nodes_meet(nodes, 3);
}

/* ---------------------------------------------------------------- the tests */

/* kill -9 mid-game: every table the node ran is taken by the two others
 * and played to its end there. */
START_TEST(test_kill9_adopted)
{
	fresh("clkill");
	struct node nodes[3];
	three_up(nodes);
	tables_at(&nodes[0], NT);
	players_leave(NT);
	long long t0 = mono_ms();
	node_kill(&nodes[0]);
	players_return(nodes, 3, "north", NT, t0);
	/* Taken by the others, each exactly once. */
	int by[3] = { 0 };
	for (int i = 0; i < NT; i++) {
		char owner[64];
		owner_of(pl[i].table, owner, sizeof owner);
		for (int k = 1; k < 3; k++)
			by[k] += !strcmp(owner, ids[k]);
	}
	ck_assert_int_eq(by[1] + by[2], NT);
	long long ms[NT];
	for (int i = 0; i < NT; i++)
		ms[i] = pl[i].resumed_ms;
	qsort(ms, NT, sizeof *ms, cmp_ll);
	fprintf(stderr, "check_cluster_fail: kill -9, %d tables taken over (%d south, %d east): resumed after %lld ms "
	        "(median), %lld ms (max)\n",
	        NT, by[1], by[2], (ms[NT / 2 - 1] + ms[NT / 2]) / 2, ms[NT - 1]);
	play_out(NT);
	node_term(&nodes[1]);
	node_term(&nodes[2]);
	cleanup();
}
END_TEST

/* SIGTERM: the node's tables handed over at once; then the whole cluster
 * stopped and started again: every unfinished table resumed. */
START_TEST(test_handover_and_restart)
{
	fresh("clterm");
	struct node nodes[3];
	three_up(nodes);
	int n = 4;
	tables_at(&nodes[0], n);
	players_leave(n);
	long long t0 = mono_ms();
	node_term(&nodes[0]);
	ck_assert(log_has(&nodes[0], "cluster: 4 tables handed over"));
	players_return(nodes, 3, "north", n, t0);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "check_cluster_fail: SIGTERM: table %ld resumed after %lld ms\n", pl[i].table,
		        pl[i].resumed_ms);
	/* A few moves more there, then the whole cluster stops. */
	play_to_turn(n, 3);
	players_leave(n);
	node_term(&nodes[1]);
	node_term(&nodes[2]);
	for (int i = 0; i < n; i++) {
		char owner[64];
		owner_of(pl[i].table, owner, sizeof owner);
		ck_assert_msg(!owner[0], "table %ld still leased to %s", pl[i].table, owner);
	}
	/* Started again: each table taken by one node, restored, played out. */
	for (int i = 0; i < 3; i++)
		node_start(&nodes[i], ids[i]);
	t0 = mono_ms();
	players_return(nodes, 3, NULL, n, t0);
	int by[3] = { 0 };
	for (int i = 0; i < n; i++) {
		char owner[64];
		owner_of(pl[i].table, owner, sizeof owner);
		for (int k = 0; k < 3; k++)
			by[k] += !strcmp(owner, ids[k]);
	}
	ck_assert_int_eq(by[0] + by[1] + by[2], n);
	fprintf(stderr, "check_cluster_fail: restarted, %d tables resumed (%d north, %d south, %d east) after %lld ms (max)\n",
	        n, by[0], by[1], by[2], pl[n - 1].resumed_ms);
	play_out(n);
	for (int i = 0; i < 3; i++)
		node_term(&nodes[i]);
	cleanup();
}
END_TEST

static void row(struct store_table *t, long id)
{
	memset(t, 0, sizeof *t);
	t->id = id;
	snprintf(t->game, sizeof t->game, "bourre");
	t->players = 4;
	t->seed = 7;
	t->state = 1;
	snprintf(t->creator, sizeof t->creator, "Anne");
	snprintf(t->seats, sizeof t->seats, "[]");
}

static void count_action(void *ctx, int seat, const char *action)
{
	(void)seat;
	(void)action;
	(*(int *)ctx)++;
}

/* Two servers on one database: once one takes a table over, the other's
 * writes to it are refused; its own go in. */
START_TEST(test_fencing)
{
	fresh("clfence");
	struct store a, b;
	char err[256];
	ck_assert_msg(store_open(&a, "postgresql", db, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(store_open(&b, "postgresql", db, err, sizeof err) == 0, "%s", err);
	struct store_table t;
	row(&t, 5);
	ck_assert_int_eq(store_table_put(&a, &t), 0);
	ck_assert_int_eq(store_journal_add(&a, 5, 0, 0, "pass"), 0);
	ck_assert_int_eq(store_table_own(&b, 5), 1);
	ck_assert_int_eq(store_table_own(&b, 99), 0);
	/* a's move and row refused, b's taken. */
	ck_assert_int_eq(store_journal_add(&a, 5, 1, 1, "pass"), -1);
	ck_assert_ptr_nonnull(strstr(a.err, "another server"));
	t.state = 3;
	ck_assert_int_eq(store_table_put(&a, &t), -1);
	ck_assert_int_eq(store_journal_add(&b, 5, 1, 2, "fold"), 0);
	t.state = 1;
	ck_assert_int_eq(store_table_put(&b, &t), 0);
	int n = 0;
	ck_assert_int_eq(store_journal_each(&b, 5, count_action, &n), 0);
	ck_assert_int_eq(n, 2);
	/* Nor may a remove it. */
	store_table_delete(&a, 5);
	int rows = 0;
	ck_assert_int_eq(store_journal_each(&b, 5, count_action, &rows), 0);
	ck_assert_int_eq(rows, 2);
	/* Taken back by a: b is refused in turn. */
	ck_assert_int_eq(store_table_own(&a, 5), 1);
	ck_assert_int_eq(store_journal_add(&b, 5, 2, 0, "pass"), -1);
	ck_assert_int_eq(store_journal_add(&a, 5, 2, 0, "pass"), 0);
	/* A third, making a table of the same id, writes nothing over it. */
	struct store c;
	ck_assert_msg(store_open(&c, "postgresql", db, err, sizeof err) == 0, "%s", err);
	t.state = 3;
	ck_assert_int_eq(store_table_put(&c, &t), -1);
	ck_assert_int_eq(store_table_put(&a, &t), 0);
	store_close(&c);
	store_close(&a);
	store_close(&b);
	cleanup();
}
END_TEST

/* A table's lease found another node's (this node was cut off long
 * enough): the table stops here at once, its player told it moved. */
START_TEST(test_lease_taken_away)
{
	fresh("cllost");
	struct node north;
	memset(&north, 0, sizeof north);
	node_start(&north, "north");
	tables_at(&north, 1);
	char key[32];
	snprintf(key, sizeof key, "%ld", pl[0].table);
	char ok[16];
	ck_assert_int_eq(redistmp_str(&rd, "SET tapis:table:%s:owner elsewhere PX 60000", key, ok, sizeof ok), 0);
	ck_assert_str_eq(ok, "OK");
	json_t *j = tc_wait(&pl[0].t, "left");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "table")), pl[0].table);
	ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), "moved");
	ck_assert(log_has(&north, "stopped here"));
	tc_free(&pl[0].t);
	node_term(&north);
	cleanup();
}
END_TEST

/* A node cut off (stopped) longer than its lease: the others take its
 * tables; its players' moves, sent to it meanwhile, are refused by the
 * store when it wakes (the new owner took the tables over there), it stops
 * the tables (left: moved), and the players find them at the new node as
 * they were before those moves. */
START_TEST(test_cut_off)
{
	fresh("clcut");
	struct node nodes[3];
	three_up(nodes);
	int n = 2;
	tables_at(&nodes[0], n);
	for (int i = 0; i < n; i++) {
		pl[i].moves = (int)json_integer_value(json_object_get(pl[i].t.state, "moves"));
		hand_of(pl[i].t.state, pl[i].hand, sizeof pl[i].hand);
	}
	ck_assert_int_eq(kill(nodes[0].pid, SIGSTOP), 0);
	int taken = 0;
	for (long long until = mono_ms() + 20000; taken < n && mono_ms() < until; usleep(20000)) {
		taken = 0;
		for (int i = 0; i < n; i++) {
			char owner[64];
			owner_of(pl[i].table, owner, sizeof owner);
			taken += owner[0] && strcmp(owner, "north") != 0;
		}
	}
	ck_assert_int_eq(taken, n);
	/* Each plays its move to the node that no longer owns the table. */
	for (int i = 0; i < n; i++)
		tc_play(&pl[i].t);
	ck_assert_int_eq(kill(nodes[0].pid, SIGCONT), 0);
	for (int i = 0; i < n; i++) {
		json_t *j = tc_wait(&pl[i].t, "left");
		ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), "moved");
		/* No state past the move: it was never stored. */
		for (int k = 0; k < pl[i].t.n; k++)
			if (!strcmp(mtype(pl[i].t.msg[k]), "state"))
				ck_assert_int_le(json_integer_value(json_object_get(pl[i].t.msg[k], "moves")), pl[i].moves);
		tc_free(&pl[i].t);
		pl[i].resumed_ms = -1;
	}
	/* The moves were taken before the node heard it lost the leases: the
	 * store refused them (fencing). */
	ck_assert_msg(log_has(&nodes[0], "another server runs it now"), "north's moves were not refused by the store");
	players_return(nodes, 3, "north", n, mono_ms());
	play_out(n);
	for (int i = 0; i < 3; i++)
		node_term(&nodes[i]);
	cleanup();
}
END_TEST

/* ---------------------------------------------------------------- relayed clients through a fault */

/* The fault tests: three tables, one a node, each with a player of its
 * own node (seat 1, who never acts: the turn timer plays for them), a
 * player of the next node (seat 2, relayed) and a spectator of the one
 * after (relayed); bots on the other seats. */
#define FT 3
#define FC (3 * FT)
#define FAULT_TURN_S 3      /* --turn-seconds of these nodes */
#define FAULT_MORE 6        /* moves every table makes after the fault */
#define FAULT_WITHIN_MS 40000

struct fclient {
	struct tc t;
	char name[32];
	struct node *home;   /* the node it logs in at */
	int table;           /* of ft[] */
	int seat;            /* -1: watching */
	int sleeps;          /* never acts: its moves are the turn timer's */
	int closes;          /* connections closed on it, each after it was told to come back */
	int rejoin;          /* a spectator back, not yet watching again */
	long long asked_ms;  /* when it last asked */
	int done;            /* its table reached the moves wanted */
};

static struct fclient fc[FC];
static long ft[FT];
static int ft_want[FT];     /* moves each table must reach */

/* The table's moves as c last saw them (-1 none). */
static int seen_moves(const struct fclient *c)
{
	return c->t.state ? (int)json_integer_value(json_object_get(c->t.state, "moves")) : -1;
}

static int table_over(const struct fclient *c)
{
	return c->t.state && !strcmp(json_string_value(json_object_get(c->t.state, "state")), "over");
}

/* Service a client until its lobby lists table id (a table of another
 * node reaches its lobby through Redis). */
static void until_listed(struct tc *t, long id)
{
	for (long long until = mono_ms() + 10000; mono_ms() < until;) {
		netc_service(t->c, 5);
		json_t *l = tc_lobby(t);
		size_t i;
		json_t *e;
		int found = 0;
		json_array_foreach(json_object_get(l, "tables"), i, e)
			found |= json_integer_value(json_object_get(e, "id")) == id;
		json_decref(l);
		if (found)
			return;
	}
	ck_abort_msg("%s: table %ld never listed", t->name, id);
}

static void fault_tables(struct node nodes[3])
{
	for (int k = 0; k < FT; k++) {
		struct fclient *own = &fc[3 * k], *far = &fc[3 * k + 1], *watch = &fc[3 * k + 2];
		memset(own, 0, 3 * sizeof *own);
		own->home = &nodes[k];
		far->home = &nodes[(k + 1) % 3];
		watch->home = &nodes[(k + 2) % 3];
		snprintf(own->name, sizeof own->name, "Own%d", k);
		snprintf(far->name, sizeof far->name, "Far%d", k);
		snprintf(watch->name, sizeof watch->name, "Watch%d", k);
		for (int i = 0; i < 3; i++) {
			fc[3 * k + i].table = k;
			tc_login(&fc[3 * k + i].t, &fc[3 * k + i].home->s, fc[3 * k + i].name, i == 1 ? "fr" : "en", NULL);
		}
		ft[k] = tc_create(&own->t, "bourre", 4, "[\"open\",\"open\",\"bot\",\"bot:1\"]", NULL);
		own->seat = own->t.seat = 0;
		own->sleeps = 1;
		until_listed(&far->t, ft[k]);
		tc_sit(&far->t, ft[k], 1);
		far->seat = 1;
		until_listed(&watch->t, ft[k]);
		watch->t.table = ft[k];
		tc_send(&watch->t, "{\"type\":\"watch\",\"table\":%ld}", ft[k]);
		tc_wait(&watch->t, "joined");
		watch->seat = watch->t.seat = -1;
		tc_send(&own->t, "{\"type\":\"start\",\"table\":%ld}", ft[k]);
	}
}

/* One pass over the clients: serviced, the awake ones acting; a client
 * closed must have been told to come back (the error `reconnect`), and
 * does at once, where it logged in, with its token. */
static void fault_pass(int reconnect)
{
	for (int i = 0; i < FC; i++) {
		struct fclient *c = &fc[i];
		netc_service(c->t.c, 1);
		if (!netc_connected(c->t.c)) {
			int told = 0;
			for (int k = 0; k < c->t.n; k++)
				told |= !strcmp(mtype(c->t.msg[k]), "error") &&
				        !strcmp(json_string_value(json_object_get(c->t.msg[k], "code")), "reconnect");
			ck_assert_msg(told, "%s: its connection closed without a word", c->name);
			ck_assert_msg(reconnect, "%s: closed before the fault", c->name);
			c->closes++;
			char token[sizeof c->t.token];
			memcpy(token, c->t.token, sizeof token);
			tc_free(&c->t);
			tc_hello(&c->t, &c->home->s, c->name, c->seat == 1 ? "fr" : "en", NULL, token);
			tc_wait(&c->t, "welcome");
			c->t.table = ft[c->table];
			c->t.seat = c->seat;
			c->rejoin = c->seat < 0;
			c->asked_ms = 0;
		}
		/* A spectator back asks to watch again (the table may not be
		 * listed on its node yet), as tapis join does. */
		if (c->rejoin && mono_ms() - c->asked_ms > 1000) {
			int joined = 0;
			for (int k = 0; k < c->t.n; k++)
				joined |= !strcmp(mtype(c->t.msg[k]), "joined");
			if (joined) {
				c->rejoin = 0;
			} else {
				tc_send(&c->t, "{\"type\":\"watch\",\"table\":%ld}", ft[c->table]);
				c->asked_ms = mono_ms();
			}
		}
		if (!c->sleeps && c->seat >= 0)
			tc_play(&c->t);
		c->t.refused = 0;
	}
}

/* For ms, every client serviced (the fault under way). */
static void fault_wait(long long ms)
{
	for (long long until = mono_ms() + ms; mono_ms() < until;)
		fault_pass(1);
}

/* After the fault: every client, player or spectator, hears its table
 * reach FAULT_MORE moves more (or its end), on its connection or on the
 * one it was told to make again; no table stops, the moves of the
 * sleeping players made by the turn timer. */
static void fault_after(const char *what)
{
	for (int k = 0; k < FT; k++) {
		int most = 0;
		for (int i = 0; i < FC; i++)
			if (fc[i].table == k && seen_moves(&fc[i]) > most)
				most = seen_moves(&fc[i]);
		ft_want[k] = most + FAULT_MORE;
	}
	long long t0 = mono_ms();
	int left = FC;
	while (left && mono_ms() - t0 < FAULT_WITHIN_MS) {
		fault_pass(1);
		left = 0;
		for (int i = 0; i < FC; i++) {
			struct fclient *c = &fc[i];
			if (!c->done && (seen_moves(c) >= ft_want[c->table] || table_over(c)))
				c->done = 1;
			left += !c->done;
		}
	}
	int closes = 0;
	for (int i = 0; i < FC; i++) {
		closes += fc[i].closes;
		if (!fc[i].done)
			fprintf(stderr, "check_cluster_fail: %s: %s (%s, table %ld) at move %d of %d\n", what, fc[i].name,
			        fc[i].home->id, ft[fc[i].table], seen_moves(&fc[i]), ft_want[fc[i].table]);
	}
	fprintf(stderr, "check_cluster_fail: %s: %d of %d clients heard their tables go on within %lld ms (%d told "
	        "to come back)\n", what, FC - left, FC, mono_ms() - t0, closes);
	ck_assert_msg(left == 0, "%s: %d clients never heard their tables go on", what, left);
	for (int i = 0; i < FC; i++)
		tc_free(&fc[i].t);
}

static void fault_start(struct node nodes[3], const char *name)
{
	fresh(name);
	turn_seconds = "3";
	three_up(nodes);
	turn_seconds = "0";
	fault_tables(nodes);
	/* A few moves everywhere first. */
	for (long long until = mono_ms() + 20000; mono_ms() < until;) {
		fault_pass(0);
		int ready = 1;
		for (int i = 0; i < FC; i++)
			ready &= seen_moves(&fc[i]) >= 3;
		if (ready)
			return;
	}
	ck_abort_msg("the tables did not start");
}

/* A node stopped past its lease (SIGSTOP 9 s), then woken: its tables
 * go to the others, and every client relayed to it or through it, and
 * its own, hears play go on, or is told to come back and then hears it. */
START_TEST(test_stopped_relays)
{
	struct node nodes[3];
	fault_start(nodes, "clstall");
	ck_assert_int_eq(kill(nodes[0].pid, SIGSTOP), 0);
	fault_wait(9000);
	ck_assert_int_eq(kill(nodes[0].pid, SIGCONT), 0);
	fault_after("north stopped 9 s");
	for (int i = 0; i < 3; i++)
		node_term(&nodes[i]);
	cleanup();
}
END_TEST

/* Redis killed for 8 s, then started again empty: no live node is taken
 * for lost, and every relayed client hears play go on (or is told to
 * come back and then hears it). */
START_TEST(test_redis_restart_relays)
{
	struct node nodes[3];
	fault_start(nodes, "clredis");
	redistmp_kill(&rd);
	fault_wait(8000);
	ck_assert_int_eq(redistmp_restart(&rd), 0);
	fault_after("Redis restarted");
	for (int i = 0; i < 3; i++) {
		char what[64];
		for (int k = 0; k < 3; k++) {
			snprintf(what, sizeof what, "cluster: node %s lost", ids[k]);
			ck_assert_msg(!log_has(&nodes[i], what), "%s took %s for lost", ids[i], ids[k]);
		}
	}
	for (int i = 0; i < 3; i++)
		node_term(&nodes[i]);
	cleanup();
}
END_TEST

/* ---------------------------------------------------------------- the bench */

struct bench_run {
	char urls[3 * 64];
	struct bench_net_result r;
	char err[256];
	int rc;
};

static void *bench_thread(void *arg)
{
	struct bench_run *b = arg;
	b->rc = bench_net_run(NULL, b->urls, 24, 6, 3, 200, &b->r, b->err, sizeof b->err);
	return NULL;
}

/* Every table's hand history begun (its game started). */
static int histories_begun(int n)
{
	DIR *d = opendir(hands);
	int found = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[400];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", hands, e->d_name);
		found += strstr(e->d_name, ".jsonl") && stat(path, &st) == 0 && st.st_size > 0;
	}
	if (d)
		closedir(d);
	return found >= n;
}

/* `tapis bench --net` on the three nodes (24 clients at 6 tables, two a
 * node), the first node killed a moment into play: its clients' links are
 * made again to the others with their tokens, they are led back to their
 * seats at the tables taken over, and every table ends: no error, no table
 * lost, some resumed. */
START_TEST(test_bench_kill9)
{
	fresh("clbench");
	struct node nodes[3];
	three_up(nodes);
	static struct bench_run b;
	memset(&b, 0, sizeof b);
	snprintf(b.urls, sizeof b.urls, "%s,%s,%s", nodes[0].s.url, nodes[1].s.url, nodes[2].s.url);
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, bench_thread, &b), 0);
	int begun = 0;
	for (long long until = mono_ms() + 60000; !(begun = histories_begun(6)) && mono_ms() < until;)
		usleep(20000);
	ck_assert_msg(begun, "the bench's tables did not start");
	usleep(1500000);
	node_kill(&nodes[0]);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_msg(b.rc == 0, "%s", b.err);
	fprintf(stderr, "check_cluster_fail: bench, north killed: %d errors, %ld links made again, %d tables resumed "
	        "(%d lost), after %.0f ms (median), %.0f ms (max)\n",
	        b.r.errors, b.r.relinks, b.r.resumed_tables, b.r.lost_tables, b.r.resume_median_ms, b.r.resume_max_ms);
	ck_assert_int_eq(b.r.errors, 0);
	ck_assert_int_eq(b.r.lost_tables, 0);
	ck_assert_int_gt(b.r.resumed_tables, 0);
	ck_assert_int_ge(b.r.relinks, 4);
	ck_assert_int_eq(b.r.idle_tables, 0);
	node_term(&nodes[1]);
	node_term(&nodes[2]);
	cleanup();
}
END_TEST

/* ---------------------------------------------------------------- a table taken over off the loop */

/* A job that holds the store's worker until its gate is opened (a byte
 * written to the pipe): what is queued behind it waits. */
static void gate_run(struct store *st, void *arg)
{
	(void)st;
	char c;
	ck_assert_int_eq(read(((int *)arg)[0], &c, 1), 1);
}

static void flag_done(void *arg, int ran)
{
	(void)ran;
	*(int *)((int *)arg + 2) = 1;
}

static void nothing_run(struct store *st, void *arg)
{
	(void)st;
	(void)arg;
}

static void drop_send(void *ctx, long conn, char *text)
{
	(void)ctx;
	(void)conn;
	free(text);
}

static void no_close(void *ctx, long conn)
{
	(void)ctx;
	(void)conn;
}

/* Everything the worker was given before now is back, collected. */
static void worker_drained(struct storew *w)
{
	int gate[3] = { -1, -1, 0 };
	ck_assert_int_eq(storew_submit(w, nothing_run, flag_done, gate), 0);
	for (int i = 0; i < 20000 && !gate[2]; i++) {
		storew_collect(w);
		usleep(1000);
	}
	ck_assert_msg(gate[2], "the store's worker never came back");
}

/* A node of a cluster on PostgreSQL takes over the tables it wins on the
 * store's worker (net/storew), its own connection: while the worker is
 * held, the loop goes on without the table; once back, the table is
 * installed, run on the loop's connection with the owner number the
 * worker took (another server's take-over refuses its writes). A table
 * whose lease went to another node while it was being restored is
 * dropped, not installed. */
START_TEST(test_restore_off_loop)
{
	fresh("cloffloop");
	char err[256];
	struct store maker, ls, other;
	ck_assert_msg(store_open(&maker, "postgresql", db, err, sizeof err) == 0, "%s", err);
	struct store_table t;
	for (long id = 7; id <= 8; id++) {
		row(&t, id);
		snprintf(t.seats, sizeof t.seats, "[{\"name\":\"Anne%ld\",\"level\":2},{\"level\":1},{\"level\":1},{\"level\":1}]", id);
		ck_assert_int_eq(store_table_put(&maker, &t), 0);
	}
	store_close(&maker);
	ck_assert_msg(store_open(&ls, "postgresql", db, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(store_open(&other, "postgresql", db, err, sizeof err) == 0, "%s", err);
	struct lobby l;
	struct host_config cfg = { 30000, 0, NULL, 0, 60000, 4242, 0, NULL, NULL, NULL, 0 };
	struct lobby_io io = { drop_send, no_close, NULL, NULL };
	ck_assert_msg(lobby_init_shared(&l, &ls, &cfg, io, 1, mono_ms(), err, sizeof err) == 0, "%s", err);
	/* A cluster whose link never comes up (its loop is not run): the
	 * leases are asked in vain, which cladopt keeps for later. */
	struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
	struct cluster_hooks hooks;
	memset(&hooks, 0, sizeof hooks);
	struct cluster *c = cluster_new(loop, rd.url, "offloop", "ws://127.0.0.1:1", &hooks, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	struct cladopt *a = cladopt_new(&l, c);
	struct storew *w = storew_new("postgresql", db, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	cladopt_set_worker(a, w);

	/* Won while the worker is held: the loop's tick leaves it to the worker. */
	int gate[3] = { -1, -1, 0 };
	ck_assert_int_eq(pipe(gate), 0);
	ck_assert_int_eq(storew_submit(w, gate_run, flag_done, gate), 0);
	cladopt_adopted(a, 7);
	cladopt_tick(a, mono_ms());
	ck_assert_ptr_null(lobbyrec_table_of(&l, 7));
	cladopt_tick(a, mono_ms());
	ck_assert_ptr_null(lobbyrec_table_of(&l, 7));
	ck_assert_int_eq(write(gate[1], "x", 1), 1);
	worker_drained(w);
	struct host *h = lobbyrec_table_of(&l, 7);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_eq(h->store, &ls);
	ck_assert_int_eq(h->state, HOST_PLAYING);
	ck_assert_ptr_nonnull(host_member(h, "Anne7"));
	ck_assert_int_eq(cladopt_restored(a), 1);
	/* The owner number is the loop's connection's now: its writes go in,
	 * until another server takes the table over. */
	ck_assert_int_eq(store_journal_add(&ls, 7, 0, 0, "pass"), 0);
	ck_assert_int_eq(store_table_own(&other, 7), 1);
	ck_assert_int_eq(store_journal_add(&ls, 7, 1, 1, "pass"), -1);

	/* Lost while its restore runs: back, and dropped. */
	ck_assert_int_eq(storew_submit(w, gate_run, flag_done, gate), 0);
	cladopt_adopted(a, 8);
	cladopt_tick(a, mono_ms());
	cladopt_lost(a, 8);
	ck_assert_int_eq(write(gate[1], "x", 1), 1);
	worker_drained(w);
	cladopt_tick(a, mono_ms());
	worker_drained(w);
	ck_assert_ptr_null(lobbyrec_table_of(&l, 8));
	ck_assert_int_eq(cladopt_restored(a), 1);
	long long epoch = 0;
	ck_assert_int_eq(store_held_take(&ls, 8, &epoch), 0);

	storew_free(w);
	cladopt_free(a);
	cluster_free(c, 0);
	ev_loop_destroy(loop);
	lobby_release(&l);
	store_close(&ls);
	store_close(&other);
	close(gate[0]);
	close(gate[1]);
	cleanup();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cluster_fail");
	TCase *tc = tcase_create("nodes");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, test_fencing);
	tcase_add_test(tc, test_restore_off_loop);
	tcase_add_test(tc, test_lease_taken_away);
	tcase_add_test(tc, test_cut_off);
	tcase_add_test(tc, test_kill9_adopted);
	tcase_add_test(tc, test_handover_and_restart);
	tcase_add_test(tc, test_bench_kill9);
	suite_add_tcase(s, tc);
	/* Relayed clients through a stopped node and a restarted Redis. */
	TCase *relays = tcase_create("relays");
	tcase_set_timeout(relays, 180);
	tcase_add_test(relays, test_stopped_relays);
	tcase_add_test(relays, test_redis_restart_relays);
	suite_add_tcase(s, relays);
	return s;
}

static void stop_all(void)
{
	if (getpid() != main_pid)
		return;
	redistmp_stop(&rd);
	pgtmp_stop(&pg);
}

static void on_fatal(int sig)
{
	stop_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(void)
{
	const char *ci = getenv("CI");
	int in_ci = ci && strcmp(ci, "true") == 0;
	main_pid = getpid();
	char why[256];
	int pgs = pgtmp_start(&pg, why, sizeof why);
	if (pgs != 1) {
		if (pgs < 0 || pgtmp_missing_fails(why)) {
			fprintf(stderr, "check_cluster_fail: PostgreSQL: %s\n", why);
			pgtmp_stop(&pg);
			return EXIT_FAILURE;
		}
		return 77;
	}
	if (redistmp_start(&rd) < 0) {
		fprintf(stderr, "check_cluster_fail: SKIPPED: no redis-server to start (Debian: apt-get install "
		        "redis-server)%s\n", in_ci ? " (CI: a failure)" : "");
		pgtmp_stop(&pg);
		return in_ci ? EXIT_FAILURE : 77;
	}
	atexit(stop_all);
	signal(SIGINT, on_fatal);
	signal(SIGTERM, on_fatal);
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	int rc = tu_run(suite());
	stop_all();
	return rc;
}
