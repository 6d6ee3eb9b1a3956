/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/cluster/clseat.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "net/cluster/clnet.h"
#include "net/cluster/cluster.h"
#include "net/server/lobby.h"
#include "net/server/lobbyseat.h"

/* KEYS[1] the person's key; ARGV: the table, this node, force ("1"),
 * the key's time to live. The key names "TABLE NODE"; it holds while
 * tapis:node:NODE (its node's lease) and tapis:table:TABLE:owner (the
 * table's) do. Returns {won, the table it named before (or ""), that
 * table's node}: won "0" when it names another table held and force is
 * not given. */
static const char take_script[] =
	"local v = redis.call('GET', KEYS[1]) "
	"local t, o = '', '' "
	"if v then "
	"  local a, b = string.match(v, '^(%d+) (.+)$') "
	"  if a and a ~= ARGV[1] and redis.call('EXISTS', 'tapis:node:' .. b) == 1 and "
	"     redis.call('EXISTS', 'tapis:table:' .. a .. ':owner') == 1 then t, o = a, b end "
	"end "
	"if t ~= '' and ARGV[3] ~= '1' then return {'0', t, o} end "
	"redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'PX', ARGV[4]) "
	"return {'1', t, o}";

/* KEYS[1] dropped if it still names the table ARGV[1] (any node). */
static const char drop_script[] =
	"local v = redis.call('GET', KEYS[1]) "
	"if v and string.match(v, '^(%d+) ') == ARGV[1] then return redis.call('DEL', KEYS[1]) end "
	"return 0";

/* A key asked for. */
struct asked {
	struct clseat *s;
	long conn;             /* the connection waiting (-1: a table restored) */
	char name[HOST_PLAYER_MAX];
	long table;
	int force;
};

struct clseat {
	struct cluster *c;
	struct clnet *net;
	struct lobby *l;
	struct lobby_seats seats;
	char self[CLUSTER_ID_MAX + 1];
	char channel[CLUSTER_CHANNEL_MAX + 1];
	struct asked **asked;  /* the answers to come */
	int nasked, capasked;
};

static int key_of(const char *name, char *key, size_t len)
{
	int n = snprintf(key, len, CLSEAT_KEY "%s", name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void answer(struct clseat *s, const struct asked *a, int won, long at, int seat)
{
	if (a->conn < 0)
		lobbytab_seat_restored(s->l, a->table, a->name, won);
	else
		lobby_seat_answer(s->l, a->conn, a->table, won, at, seat, (long long)clock_ms());
}

static void forget(struct clseat *s, struct asked *a)
{
	for (int i = 0; i < s->nasked; i++)
		if (s->asked[i] == a) {
			s->asked[i] = s->asked[--s->nasked];
			break;
		}
	free(a);
}

static int ask(struct clseat *s, struct asked *a);

/* The seat the key named before, given up where its table runs (the
 * directory's node for it, else the key's). */
static void give_up(struct clseat *s, const char *name, long table, const char *node)
{
	if (lobbyrec_table_of(s->l, table)) {
		lobbyseat_give_up(s->l, table, name);
		return;
	}
	char far[CLUSTER_ID_MAX + 1], ch[CLUSTER_CHANNEL_MAX + 1];
	int seat, playing;
	if (clnet_far_seat(s->net, table, name, &seat, &playing, far, sizeof far))
		node = far;
	if (!strcmp(node, s->self) || clwords_check_id(node) < 0 ||
	    snprintf(ch, sizeof ch, CLSEAT_CHANNEL "%s", node) >= (int)sizeof ch)
		return;
	json_t *o = json_pack("{s:s, s:s, s:I}", "from", s->self, "name", name, "table", (json_int_t)table);
	char *text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (text)
		cluster_publish(s->c, ch, text, strlen(text));
	free(text);
}

static void on_taken(void *ctx, int n, const char *const *v)
{
	struct asked *a = ctx;
	struct clseat *s = a->s;
	if (n < 3) { /* no answer: as on one server */
		answer(s, a, 1, 0, -1);
		forget(s, a);
		return;
	}
	long at = atol(v[1]);
	if (!strcmp(v[0], "1")) {
		if (at > 0 && at != a->table)
			give_up(s, a->name, at, v[2]);
		answer(s, a, 1, 0, -1);
		forget(s, a);
		return;
	}
	/* Held at table at. For a table restored here: the seat there is
	 * theirs (taken while this table's node was lost), this one goes.
	 * For a sit: asked about when its game goes on and they sit there,
	 * as far as this node knows; else taken over. */
	if (a->conn < 0) {
		answer(s, a, 0, at, -1);
		forget(s, a);
		return;
	}
	int seat = -1, playing = 0;
	char node[CLUSTER_ID_MAX + 1];
	int held = lobbyseat_in_play(s->l, a->name, at, &seat) ||
	           (clnet_far_seat(s->net, at, a->name, &seat, &playing, node, sizeof node) && playing && seat >= 0);
	if (held || a->force) {
		answer(s, a, 0, at, seat);
		forget(s, a);
		return;
	}
	a->force = 1;
	if (ask(s, a) < 0) {
		answer(s, a, 1, 0, -1);
		forget(s, a);
	}
}

static int ask(struct clseat *s, struct asked *a)
{
	char key[CLUSTER_KEY_MAX + 1], table[24], ttl[24];
	if (key_of(a->name, key, sizeof key) < 0)
		return -1;
	snprintf(table, sizeof table, "%ld", a->table);
	snprintf(ttl, sizeof ttl, "%lld", CLSEAT_TTL_MS);
	const char *keys[] = { key };
	const char *args[] = { table, s->self, a->force ? "1" : "0", ttl };
	return cluster_eval(s->c, take_script, 1, keys, 4, args, on_taken, a);
}

/* lobby_seats */

static int seat_take(void *ctx, long conn, const char *name, long table, int force)
{
	struct clseat *s = ctx;
	if (s->nasked >= CLSEAT_WAITING || strlen(name) >= HOST_PLAYER_MAX)
		return -1;
	struct asked *a = xcalloc(1, sizeof *a);
	a->s = s;
	a->conn = conn;
	snprintf(a->name, sizeof a->name, "%s", name);
	a->table = table;
	a->force = force;
	if (ask(s, a) < 0) {
		free(a);
		return -1;
	}
	xgrow((void **)&s->asked, &s->capasked, s->nasked + 1, sizeof *s->asked);
	s->asked[s->nasked++] = a;
	return 0;
}

static void seat_freed(void *ctx, const char *name, long table)
{
	struct clseat *s = ctx;
	char key[CLUSTER_KEY_MAX + 1], t[24];
	if (key_of(name, key, sizeof key) < 0)
		return;
	snprintf(t, sizeof t, "%ld", table);
	const char *keys[] = { key };
	const char *args[] = { t };
	cluster_eval(s->c, drop_script, 1, keys, 1, args, NULL, NULL);
}

static int seat_held(void *ctx, const char *name, long table, long *at, int *seat)
{
	struct clseat *s = ctx;
	return clnet_far_held(s->net, name, table, at, seat);
}

/* {"from":NODE,"name":NAME,"table":T} on tapis:stand:NODE: another node
 * took NAME's key for a seat there; their seat at T, run here, goes. */
static void on_stand(void *ctx, const char *channel, const void *msg, size_t len)
{
	struct clseat *s = ctx;
	(void)channel;
	json_t *j = json_loadb(msg, len, 0, NULL);
	const char *from = json_string_value(json_object_get(j, "from"));
	const char *name = json_string_value(json_object_get(j, "name"));
	json_t *jt = json_object_get(j, "table");
	if (from && name && json_is_integer(jt) && clwords_check_id(from) == 0 && strcmp(from, s->self) &&
	    strlen(name) < HOST_PLAYER_MAX)
		lobbyseat_give_up(s->l, (long)json_integer_value(jt), name);
	json_decref(j);
}

struct clseat *clseat_new(struct cluster *c, struct clnet *net, struct lobby *l)
{
	struct clseat *s = xcalloc(1, sizeof *s);
	s->c = c;
	s->net = net;
	s->l = l;
	snprintf(s->self, sizeof s->self, "%s", cluster_node(c));
	s->seats = (struct lobby_seats){ s, seat_held, seat_take, seat_freed };
	l->seats = &s->seats;
	if (snprintf(s->channel, sizeof s->channel, CLSEAT_CHANNEL "%s", s->self) < (int)sizeof s->channel)
		cluster_subscribe(c, s->channel, on_stand, s);
	return s;
}

void clseat_free(struct clseat *s)
{
	if (!s)
		return;
	if (s->l->seats == &s->seats)
		s->l->seats = NULL;
	for (int i = 0; i < s->nasked; i++)
		free(s->asked[i]);
	free(s->asked);
	free(s);
}
