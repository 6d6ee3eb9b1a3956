/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "net/cluster/clnet.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/log.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/cluster/cluster.h"
#include "net/server/lobby.h"
#include "net/server/lobbyseat.h"
#include "net/server/mod.h"
#include "net/wire/proto.h"

/* A table of another node, as its lobby lists it. */
struct far_table {
	long id;
	char node[CLUSTER_ID_MAX + 1];
	json_t *info;
	int seen;              /* in the directory read last (a reconciliation) */
};

struct far_person {
	char *name;
	int guest;
	char node[CLUSTER_ID_MAX + 1];
	int seen;
};

/* A client of this node at tables of another node. */
struct relay_out {
	long conn;
	char node[CLUSTER_ID_MAX + 1];
	long seq_out, seq_in;
	long *tables;          /* where it is there (joined, not yet left) */
	int ntables, captables;
};

/* A person of another node at tables here: a relayed connection of the
 * lobby. */
struct relay_in {
	long vconn;
	char node[CLUSTER_ID_MAX + 1];
	long conn;             /* on its node */
	long seq_out, seq_in;
	int closing;           /* closed by the lobby: to be done at the next tick */
};

/* What changed among the other nodes since the last round. */
struct changes {
	struct lobbylist_entry *tables;
	int ntables, captables;
	long *gone;
	int ngone, capgone;
	struct lobbylist_person *in;   /* names owned */
	int nin, capin;
	const char **out;              /* owned */
	int nout, capout;
};

struct clnet {
	struct cluster *c;
	struct lobby *l;
	struct clnet_io io;
	struct lobby_far far;
	char self[CLUSTER_ID_MAX + 1];
	char inbox[CLUSTER_CHANNEL_MAX + 1];
	struct far_table *tables;
	int ntables, captables;
	struct far_person *people;
	int npeople, cappeople;
	struct lobbylist_entry *entries;   /* the lobby's view of tables (rebuilt when stale) */
	int capentries, entries_stale;
	struct lobbylist_person *persons;
	int cappersons, persons_stale;
	struct changes pending, given;
	long floor;                        /* the store's last id when the node started */
	struct relay_out *outs;
	int nouts, capouts;
	struct relay_in *ins;
	int nins, capins;
	long next_vconn;
	long long now_ms;
	struct ids_moved {
		long *v;               /* tables run here until another node took them */
		int n, cap;
		long long until_ms;    /* looked for in the directory until then, */
		long long next_ms;     /* next at this time */
	} moved;
};

static void seats_elsewhere(struct clnet *n, const char *name);
static void seats_here(struct clnet *n, const struct far_table *t);

static long long now_ms(void)
{
	return (long long)clock_ms();
}

/* ---------------------------------------------------------------- changes */

static void changes_clear(struct changes *ch)
{
	for (int i = 0; i < ch->ntables; i++)
		json_decref(ch->tables[i].info);
	for (int i = 0; i < ch->nin; i++)
		free((char *)ch->in[i].name);
	for (int i = 0; i < ch->nout; i++)
		free((char *)ch->out[i]);
	ch->ntables = ch->ngone = ch->nin = ch->nout = 0;
}

static void changes_free(struct changes *ch)
{
	changes_clear(ch);
	free(ch->tables);
	free(ch->gone);
	free(ch->in);
	free(ch->out);
	memset(ch, 0, sizeof *ch);
}

static void change_table(struct clnet *n, long id, json_t *info, int made)
{
	struct changes *ch = &n->pending;
	for (int i = 0; i < ch->ngone; i++)
		if (ch->gone[i] == id) { /* gone, then back (another node adopted it) */
			ch->gone[i] = ch->gone[--ch->ngone];
			break;
		}
	for (int i = 0; i < ch->ntables; i++)
		if (ch->tables[i].id == id) {
			json_decref(ch->tables[i].info);
			ch->tables[i].info = json_incref(info);
			return;
		}
	xgrow((void **)&ch->tables, &ch->captables, ch->ntables + 1, sizeof *ch->tables);
	ch->tables[ch->ntables++] = (struct lobbylist_entry){ id, NULL, json_incref(info), made };
}

static void change_gone(struct clnet *n, long id)
{
	struct changes *ch = &n->pending;
	for (int i = 0; i < ch->ntables; i++)
		if (ch->tables[i].id == id) {
			json_decref(ch->tables[i].info);
			ch->tables[i] = ch->tables[--ch->ntables];
			break;
		}
	xgrow((void **)&ch->gone, &ch->capgone, ch->ngone + 1, sizeof *ch->gone);
	ch->gone[ch->ngone++] = id;
}

static void change_person(struct clnet *n, const char *name, int guest, int in)
{
	struct changes *ch = &n->pending;
	if (in) {
		xgrow((void **)&ch->in, &ch->capin, ch->nin + 1, sizeof *ch->in);
		ch->in[ch->nin++] = (struct lobbylist_person){ xstrdup(name), guest };
	} else {
		xgrow((void **)&ch->out, &ch->capout, ch->nout + 1, sizeof *ch->out);
		ch->out[ch->nout++] = xstrdup(name);
	}
}

/* ---------------------------------------------------------------- the others' lobby */

static struct far_table *far_table(struct clnet *n, long id)
{
	for (int i = 0; i < n->ntables; i++)
		if (n->tables[i].id == id)
			return &n->tables[i];
	return NULL;
}

static struct far_person *far_person(struct clnet *n, const char *name)
{
	for (int i = 0; i < n->npeople; i++)
		if (!strcmp(n->people[i].name, name))
			return &n->people[i];
	return NULL;
}

static void stale(struct clnet *n)
{
	n->entries_stale = n->persons_stale = 1;
	n->l->dirty = 1;
}

/* A table of node (its entry) known or changed. */
static void table_set(struct clnet *n, const char *node, json_t *info)
{
	json_t *jid = json_object_get(info, "id");
	long id = json_is_integer(jid) ? (long)json_integer_value(jid) : 0;
	if (id <= 0 || lobbyrec_table_of(n->l, id))
		return;
	struct far_table *t = far_table(n, id);
	if (t && json_equal(t->info, info) && !strcmp(t->node, node)) {
		t->seen = 1;
		return;
	}
	if (!t) {
		if (n->ntables >= CLNET_FAR_TABLES)
			return;
		xgrow((void **)&n->tables, &n->captables, n->ntables + 1, sizeof *n->tables);
		t = &n->tables[n->ntables++];
		memset(t, 0, sizeof *t);
		t->id = id;
		change_table(n, id, info, 1);
	} else {
		json_decref(t->info);
		change_table(n, id, info, 0);
	}
	int moved = strcmp(t->node, node) != 0;
	snprintf(t->node, sizeof t->node, "%s", node);
	t->info = json_incref(info);
	t->seen = 1;
	stale(n);
	if (moved)
		seats_here(n, t);
}

static void table_drop(struct clnet *n, int i)
{
	change_gone(n, n->tables[i].id);
	json_decref(n->tables[i].info);
	n->tables[i] = n->tables[--n->ntables];
	stale(n);
}

static void person_set(struct clnet *n, const char *node, const char *name, int guest)
{
	if (!name || !*name || strlen(name) >= HOST_PLAYER_MAX)
		return;
	struct far_person *p = far_person(n, name);
	if (p) {
		snprintf(p->node, sizeof p->node, "%s", node);
		p->seen = 1;
		if (p->guest != guest) {
			p->guest = guest;
			stale(n);
		}
		return;
	}
	if (n->npeople >= CLNET_FAR_PEOPLE)
		return;
	xgrow((void **)&n->people, &n->cappeople, n->npeople + 1, sizeof *n->people);
	p = &n->people[n->npeople++];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->guest = guest;
	p->seen = 1;
	snprintf(p->node, sizeof p->node, "%s", node);
	change_person(n, name, guest, 1);
	stale(n);
}

static void person_drop(struct clnet *n, int i)
{
	change_person(n, n->people[i].name, 0, 0);
	free(n->people[i].name);
	n->people[i] = n->people[--n->npeople];
	stale(n);
}

/* What a node publishes on tapis:lobby:
 * {"from":NODE,"full":B,"tables":[ENTRY…],"gone":[ID…],"in":[{"name","guest"}…],"out":[NAME…]}
 * full: everything the node has (what of it is not named is gone). */
static void on_lobby(void *ctx, const char *channel, const void *msg, size_t len)
{
	struct clnet *n = ctx;
	(void)channel;
	json_t *j = json_loadb(msg, len, 0, NULL);
	const char *from = json_string_value(json_object_get(j, "from"));
	if (!from || clwords_check_id(from) < 0 || !strcmp(from, n->self)) {
		json_decref(j);
		return;
	}
	/* A full message comes in parts: the first marks, the last sweeps. */
	int full = json_is_true(json_object_get(j, "full"));
	int first = !json_integer_value(json_object_get(j, "part"));
	int last = !json_is_false(json_object_get(j, "last"));
	if (full && first) {
		for (int i = 0; i < n->ntables; i++)
			n->tables[i].seen = strcmp(n->tables[i].node, from) != 0;
		for (int i = 0; i < n->npeople; i++)
			n->people[i].seen = strcmp(n->people[i].node, from) != 0;
	}
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(j, "tables"), i, x)
		if (json_is_object(x))
			table_set(n, from, x);
	json_array_foreach(json_object_get(j, "gone"), i, x) {
		struct far_table *t = far_table(n, (long)json_integer_value(x));
		if (t && !strcmp(t->node, from))
			table_drop(n, (int)(t - n->tables));
	}
	json_array_foreach(json_object_get(j, "in"), i, x)
		person_set(n, from, json_string_value(json_object_get(x, "name")),
		           json_is_true(json_object_get(x, "guest")));
	json_array_foreach(json_object_get(j, "out"), i, x) {
		struct far_person *p = json_is_string(x) ? far_person(n, json_string_value(x)) : NULL;
		if (p && !strcmp(p->node, from))
			person_drop(n, (int)(p - n->people));
	}
	if (full && last) {
		for (int k = n->ntables - 1; k >= 0; k--)
			if (!n->tables[k].seen)
				table_drop(n, k);
		for (int k = n->npeople - 1; k >= 0; k--)
			if (!n->people[k].seen)
				person_drop(n, k);
	}
	json_decref(j);
}

/* The directory read again (the link came back): what it holds is what
 * the others have; what it no longer holds is gone. */
static void dir_mark(struct clnet *n, enum cluster_dir d)
{
	if (d == CLUSTER_DIR_TABLES)
		for (int i = 0; i < n->ntables; i++)
			n->tables[i].seen = 0;
	else
		for (int i = 0; i < n->npeople; i++)
			n->people[i].seen = 0;
}

/* 1 when node's lease was alive at the last read: the rows of a node
 * stopped or lost, not yet removed, are not listed. */
static int alive(struct clnet *n, const char *node)
{
	const char *ids[CLUSTER_MAX_NODES];
	int k = cluster_nodes(n->c, ids, CLUSTER_MAX_NODES);
	for (int i = 0; i < k; i++)
		if (!strcmp(ids[i], node))
			return 1;
	return 0;
}

static void dir_row(struct clnet *n, enum cluster_dir d, const char *key, const void *val, size_t len)
{
	if (!key) {
		if (len == (size_t)-1)
			return; /* the link dropped: read again when it is back */
		if (d == CLUSTER_DIR_TABLES) {
			for (int k = n->ntables - 1; k >= 0; k--)
				if (!n->tables[k].seen)
					table_drop(n, k);
		} else {
			for (int k = n->npeople - 1; k >= 0; k--)
				if (!n->people[k].seen)
					person_drop(n, k);
		}
		return;
	}
	json_t *j = json_loadb(val, len, 0, NULL);
	const char *node = json_string_value(json_object_get(j, "node"));
	if (node && !strcmp(node, n->self)) {
		/* This node's, left from before it restarted: removed. */
		const struct lobby_user *u = d == CLUSTER_DIR_PEOPLE ? lobbyrec_user_named(n->l, key) : NULL;
		if (d == CLUSTER_DIR_TABLES ? !lobbyrec_table_of(n->l, atol(key))
		                            : !u || u->conn < 0 || u->conn >= LOBBY_RELAYED_CONN)
			cluster_dir_del_mine(n->c, d, key);
	} else if (node && clwords_check_id(node) == 0 && alive(n, node)) {
		if (d == CLUSTER_DIR_TABLES && json_is_object(json_object_get(j, "info")))
			table_set(n, node, json_object_get(j, "info"));
		else if (d == CLUSTER_DIR_PEOPLE)
			person_set(n, node, key, json_is_true(json_object_get(j, "guest")));
	}
	json_decref(j);
}

static void dir_tables(void *ctx, const char *key, const void *val, size_t len)
{
	dir_row(ctx, CLUSTER_DIR_TABLES, key, val, len);
}

static void dir_people(void *ctx, const char *key, const void *val, size_t len)
{
	dir_row(ctx, CLUSTER_DIR_PEOPLE, key, val, len);
}

/* ---------------------------------------------------------------- this node's lobby */

static void write_table(struct clnet *n, json_t *info)
{
	json_t *row = json_pack("{s:s, s:O}", "node", n->self, "info", info);
	char *text = json_dumps(row, JSON_COMPACT);
	char key[32];
	snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(info, "id")));
	if (text)
		cluster_dir_set(n->c, CLUSTER_DIR_TABLES, key, text, strlen(text));
	free(text);
	json_decref(row);
}

static void write_person(struct clnet *n, const char *name, int guest)
{
	char text[CLUSTER_ID_MAX + 64];
	snprintf(text, sizeof text, "{\"node\":\"%s\",\"guest\":%s}", n->self, guest ? "true" : "false");
	cluster_dir_set(n->c, CLUSTER_DIR_PEOPLE, name, text, strlen(text));
}

static void publish(struct clnet *n, const char *channel, json_t *o)
{
	char *text = json_dumps(o, JSON_COMPACT);
	if (text)
		cluster_publish(n->c, channel, text, strlen(text));
	free(text);
	json_decref(o);
}

/* The node's lobby (its changes, or all it has: full) on tapis:lobby, in
 * parts that each stay well under a message's bound (a table's entry is
 * under 2 KiB): "part" numbers them, "last" is false on all but the last
 * (takes the arrays). */
#define CLNET_PART_TABLES 64
#define CLNET_PART_NAMES 1024
static json_t *slice(json_t *a, size_t from, size_t n)
{
	json_t *x = json_array();
	for (size_t i = from; i < from + n && i < json_array_size(a); i++)
		json_array_append(x, json_array_get(a, i));
	return x;
}

static void publish_lobby(struct clnet *n, json_t *tables, json_t *gone, json_t *in, json_t *out, int full)
{
	size_t per_name = CLNET_PART_NAMES / 2;
	size_t counts[4][2] = { { json_array_size(tables), CLNET_PART_TABLES },
		                { json_array_size(gone), CLNET_PART_NAMES },
		                { json_array_size(in), per_name },
		                { json_array_size(out), per_name } };
	size_t parts = 1;
	for (int k = 0; k < 4; k++)
		if ((counts[k][0] + counts[k][1] - 1) / counts[k][1] > parts)
			parts = (counts[k][0] + counts[k][1] - 1) / counts[k][1];
	for (size_t p = 0; p < parts; p++) {
		json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o}", "from", n->self, "tables",
		                      slice(tables, p * CLNET_PART_TABLES, CLNET_PART_TABLES), "gone",
		                      slice(gone, p * CLNET_PART_NAMES, CLNET_PART_NAMES), "in",
		                      slice(in, p * per_name, per_name), "out", slice(out, p * per_name, per_name));
		if (full)
			json_object_set_new(o, "full", json_true());
		if (parts > 1) {
			json_object_set_new(o, "part", json_integer((json_int_t)p));
			json_object_set_new(o, "last", json_boolean(p + 1 == parts));
		}
		publish(n, CLUSTER_CH_LOBBY, o);
	}
	json_decref(tables);
	json_decref(gone);
	json_decref(in);
	json_decref(out);
}

/* Everything of this node: written to the directory, and told to the
 * others (full). */
static void tell_all(struct clnet *n)
{
	struct lobby *l = n->l;
	json_t *tables = json_array(), *in = json_array();
	for (int i = 0; i < l->ntables; i++) {
		json_t *info = lobbyround_table_info(l->tables[i]);
		write_table(n, info);
		json_array_append_new(tables, info);
	}
	for (int i = 0; i < l->nusers; i++) {
		const struct lobby_user *u = &l->users[i];
		if (u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN) {
			write_person(n, u->name, u->guest);
			json_array_append_new(in, json_pack("{s:s, s:b}", "name", u->name, "guest", u->guest));
		}
	}
	publish_lobby(n, tables, json_array(), in, json_array(), 1);
}

/* lobby_far */

static int far_tables(void *ctx, const struct lobbylist_entry **out)
{
	struct clnet *n = ctx;
	if (n->entries_stale) {
		xgrow((void **)&n->entries, &n->capentries, n->ntables + 1, sizeof *n->entries);
		for (int i = 0; i < n->ntables; i++)
			n->entries[i] = (struct lobbylist_entry){ n->tables[i].id, NULL, n->tables[i].info, 0 };
		n->entries_stale = 0;
	}
	*out = n->entries;
	return n->ntables;
}

static int far_people(void *ctx, const struct lobbylist_person **out)
{
	struct clnet *n = ctx;
	if (n->persons_stale) {
		xgrow((void **)&n->persons, &n->cappersons, n->npeople + 1, sizeof *n->persons);
		for (int i = 0; i < n->npeople; i++)
			n->persons[i] = (struct lobbylist_person){ n->people[i].name, n->people[i].guest };
		n->persons_stale = 0;
	}
	*out = n->persons;
	return n->npeople;
}

static void far_round(void *ctx, const struct lobbylist_round *mine, struct lobbylist_round *far)
{
	struct clnet *n = ctx;
	/* This node's changes: the directory, the others. */
	if (mine->ntables || mine->ngone || mine->nin || mine->nout) {
		json_t *tables = json_array(), *gone = json_array(), *in = json_array(), *out = json_array();
		for (int i = 0; i < mine->ntables; i++) {
			/* Another node's no more: this one's now (adopted). */
			struct far_table *was = far_table(n, mine->tables[i].id);
			if (was) {
				json_decref(was->info);
				*was = n->tables[--n->ntables];
				n->entries_stale = 1;
			}
			write_table(n, mine->tables[i].info);
			json_array_append(tables, mine->tables[i].info);
		}
		for (int i = 0; i < mine->ngone; i++) {
			char key[32];
			snprintf(key, sizeof key, "%ld", mine->gone[i]);
			/* Not another node's row (it took the table over). */
			cluster_dir_del_mine(n->c, CLUSTER_DIR_TABLES, key);
			json_array_append_new(gone, json_integer(mine->gone[i]));
		}
		for (int i = 0; i < mine->nin; i++) {
			write_person(n, mine->in[i].name, mine->in[i].guest);
			seats_elsewhere(n, mine->in[i].name);
			json_array_append_new(in, json_pack("{s:s, s:b}", "name", mine->in[i].name, "guest",
			                                    mine->in[i].guest));
		}
		for (int i = 0; i < mine->nout; i++) {
			/* Not when they are here again (on another connection). */
			const struct lobby_user *u = lobbyrec_user_named(n->l, mine->out[i]);
			if (!u || u->conn < 0)
				cluster_dir_del_mine(n->c, CLUSTER_DIR_PEOPLE, mine->out[i]);
			json_array_append_new(out, json_string(mine->out[i]));
		}
		publish_lobby(n, tables, gone, in, out, 0);
	}
	/* The others' since the last round, kept until the next. */
	changes_clear(&n->given);
	struct changes t = n->given;
	n->given = n->pending;
	n->pending = t;
	*far = (struct lobbylist_round){ n->given.tables, n->given.ntables, n->given.gone, n->given.ngone,
		                         n->given.in, n->given.nin, n->given.out, n->given.nout, n->npeople,
		                         n->ntables };
}

/* {"from":NODE,"name":NAME,"text":TEXT} on tapis:chat. */
static void far_chat(void *ctx, const char *from, const char *text)
{
	struct clnet *n = ctx;
	publish(n, CLUSTER_CH_CHAT, json_pack("{s:s, s:s, s:s}", "from", n->self, "name", from, "text", text));
}

static void on_chat(void *ctx, const char *channel, const void *msg, size_t len)
{
	struct clnet *n = ctx;
	(void)channel;
	json_t *j = json_loadb(msg, len, 0, NULL);
	const char *from = json_string_value(json_object_get(j, "from"));
	const char *name = json_string_value(json_object_get(j, "name"));
	const char *text = json_string_value(json_object_get(j, "text"));
	if (from && name && text && strcmp(from, n->self) && strlen(name) < HOST_PLAYER_MAX &&
	    strlen(text) <= PROTO_CHAT_MAX)
		lobbyacct_chat_heard(n->l, name, text);
	json_decref(j);
}

/* {"from":NODE,"to":NAME,"by":NAME,"info":ENTRY} on tapis:invite: the
 * node where NAME is tells them, in their language. */
static int far_person_here(void *ctx, const char *name)
{
	return far_person(ctx, name) != NULL;
}

static void far_invite(void *ctx, const char *name, long table, const char *by, const json_t *info)
{
	struct clnet *n = ctx;
	(void)table;
	publish(n, CLUSTER_CH_INVITE, json_pack("{s:s, s:s, s:s, s:O}", "from", n->self, "to", name, "by", by, "info", info));
}

static void on_invite(void *ctx, const char *channel, const void *msg, size_t len)
{
	struct clnet *n = ctx;
	(void)channel;
	json_t *j = json_loadb(msg, len, 0, NULL);
	const char *from = json_string_value(json_object_get(j, "from"));
	const char *to = json_string_value(json_object_get(j, "to"));
	const char *by = json_string_value(json_object_get(j, "by"));
	json_t *info = json_object_get(j, "info");
	const struct lobby_user *u = to && from && strcmp(from, n->self) ? lobbyrec_user_named(n->l, to) : NULL;
	if (u && u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN && by && strlen(by) < HOST_PLAYER_MAX &&
	    json_is_object(info)) {
		char *text = mod_invited_text(u->lang, by, info);
		if (text)
			n->io.send(n->io.ctx, u->conn, text);
	}
	json_decref(j);
}

/* ---------------------------------------------------------------- table ids */

static void got_ids(void *ctx, long first, long count)
{
	struct clnet *n = ctx;
	dir_add_ids(&n->l->dir, first, count);
}

static void want_ids(void *ctx)
{
	struct clnet *n = ctx;
	if (cluster_new_ids(n->c, CLNET_ID_BLOCK, n->floor, got_ids, n) < 0)
		dir_add_ids(&n->l->dir, -1, 0); /* asked again when the link is back */
}

/* ---------------------------------------------------------------- the relay */

/* Between nodes, on tapis:inbox:NODE:
 * {"op":"open","from":NODE,"conn":N,"name":NAME,"lang":LANG,"guest":B}
 * {"op":"msg","from":NODE,"conn":N,"seq":S,"text":TEXT}    a client's message to the owner
 * {"op":"msg",…,"back":true}              the owner's message to the client
 *      (both ways between two nodes, a number may be a client of each:
 *      "back" says which) 
 * {"op":"close","from":NODE,"conn":N}     the client left its node
 * {"op":"closed","from":NODE,"conn":N}    the owner's lobby closed it
 * {"op":"resync","from":NODE,"conn":N}    a number was skipped: the state again
 * conn is always the number on the client's node. */

static void send_inbox(struct clnet *n, const char *node, json_t *o)
{
	char ch[CLUSTER_CHANNEL_MAX + 1];
	if (clwords_inbox(node, ch, sizeof ch) < 0) {
		json_decref(o);
		return;
	}
	json_object_set_new(o, "from", json_string(n->self));
	publish(n, ch, o);
}

/* The relays kept in the order of their connections: the first of conn's
 * (or where it would go). */
static int out_first(const struct clnet *n, long conn)
{
	int lo = 0, hi = n->nouts;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (n->outs[mid].conn < conn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct relay_out *out_of(struct clnet *n, long conn, const char *node)
{
	for (int i = out_first(n, conn); i < n->nouts && n->outs[i].conn == conn; i++)
		if (!node || !strcmp(n->outs[i].node, node))
			return &n->outs[i];
	return NULL;
}

static void out_drop(struct clnet *n, int i)
{
	free(n->outs[i].tables);
	memmove(&n->outs[i], &n->outs[i + 1], (size_t)(n->nouts - i - 1) * sizeof *n->outs);
	n->nouts--;
	n->l->dirty = 1;
}

/* A client here whose relay was dropped (its table's node lost, or that
 * node no longer knowing it) is told, and closed so that it connects
 * again at once: its login relays it to where its table is now. */
static void tell_again(struct clnet *n, long conn)
{
	const char *why = i18n_tr(i18n_of(lobby_lang(n->l, conn)),
	                          "The link to your table was lost between servers. Connecting again.");
	char *e = proto_error("reconnect", why, NULL);
	if (e)
		n->io.send(n->io.ctx, conn, e);
	if (n->io.again)
		n->io.again(n->io.ctx, conn);
}

static void out_lost(struct clnet *n, int i)
{
	long conn = n->outs[i].conn;
	out_drop(n, i);
	tell_again(n, conn);
}

static struct relay_in *in_of(struct clnet *n, long vconn)
{
	for (int i = 0; i < n->nins; i++)
		if (n->ins[i].vconn == vconn)
			return &n->ins[i];
	return NULL;
}

static struct relay_in *in_from(struct clnet *n, const char *node, long conn)
{
	for (int i = 0; i < n->nins; i++)
		if (n->ins[i].conn == conn && !strcmp(n->ins[i].node, node))
			return &n->ins[i];
	return NULL;
}

/* The relay of a client here to node (made, and the person introduced
 * there, when new); NULL when too many. */
static struct relay_out *relay_open(struct clnet *n, const struct lobby_conn *lc, const char *node)
{
	struct relay_out *r = out_of(n, lc->id, node);
	if (r || n->nouts >= CLNET_RELAYS)
		return r;
	const struct lobby_user *u = &n->l->users[lc->user];
	xgrow((void **)&n->outs, &n->capouts, n->nouts + 1, sizeof *n->outs);
	int at = out_first(n, lc->id);
	memmove(&n->outs[at + 1], &n->outs[at], (size_t)(n->nouts - at) * sizeof *n->outs);
	n->nouts++;
	r = &n->outs[at];
	memset(r, 0, sizeof *r);
	r->conn = lc->id;
	snprintf(r->node, sizeof r->node, "%s", node);
	send_inbox(n, r->node,
	           json_pack("{s:s, s:I, s:s, s:s, s:b}", "op", "open", "conn", (json_int_t)lc->id, "name", u->name,
	                     "lang", lc->lang, "guest", u->guest));
	return r;
}

/* Someone logged in here who holds a seat at tables of other nodes: back
 * at them (their owner sends where they are, as to a connection come
 * back). */
static void seats_elsewhere(struct clnet *n, const char *name)
{
	const struct lobby_user *u = lobbyrec_user_named(n->l, name);
	const struct lobby_conn *lc = u && u->conn >= 0 ? lobbyrec_conn_of(n->l, u->conn) : NULL;
	if (!lc || lc->user < 0 || lc->going) /* bound for a table of their own: asked at its sit */
		return;
	for (int i = 0; i < n->ntables; i++) {
		size_t k;
		json_t *seat;
		json_array_foreach(json_object_get(n->tables[i].info, "seats"), k, seat) {
			const char *who = json_string_value(json_object_get(seat, "name"));
			if (who && !strcmp(who, name)) {
				relay_open(n, lc, n->tables[i].node);
				break;
			}
		}
	}
}

/* A table new to this node, or run now by another node (adopted from a
 * node lost): the people here who hold its seats are relayed to it. */
static void seats_here(struct clnet *n, const struct far_table *t)
{
	size_t k;
	json_t *seat;
	json_array_foreach(json_object_get(t->info, "seats"), k, seat) {
		const char *who = json_string_value(json_object_get(seat, "name"));
		const struct lobby_user *u = who ? lobbyrec_user_named(n->l, who) : NULL;
		const struct lobby_conn *lc = u && u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN ? lobbyrec_conn_of(n->l, u->conn) : NULL;
		if (lc && lc->user >= 0)
			relay_open(n, lc, t->node);
	}
}

int clnet_message(struct clnet *n, long conn, const char *text, size_t len)
{
	/* Only what names a table: {"type":…,"table":N,…}. */
	if (!memmem(text, len, "\"table\"", 7))
		return 0;
	json_t *j = json_loadb(text, len, 0, NULL);
	json_t *jt = json_object_get(j, "table");
	long table = json_is_integer(jt) ? (long)json_integer_value(jt) : 0;
	const char *type = json_string_value(json_object_get(j, "type"));
	int sit = type && !strcmp(type, "sit"), give_up = json_is_true(json_object_get(j, "give_up"));
	json_decref(j);
	struct far_table *t = table > 0 && !lobbyrec_table_of(n->l, table) ? far_table(n, table) : NULL;
	struct lobby_conn *lc = t ? lobbyrec_conn_of(n->l, conn) : NULL;
	if (!lc || lc->user < 0)
		return 0;
	/* A sit there from one who holds a seat where a game goes on: asked
	 * here, in their language, before anything is relayed. */
	if (sit && lobbyseat_ask_held(n->l, lc, table, 0, give_up))
		return 1;
	struct relay_out *r = relay_open(n, lc, t->node);
	if (!r)
		return 0;
	send_inbox(n, r->node,
	           json_pack("{s:s, s:I, s:I, s:s%}", "op", "msg", "conn", (json_int_t)conn, "seq",
	                     (json_int_t)++r->seq_out, "text", text, len));
	return 1;
}

void clnet_closed(struct clnet *n, long conn)
{
	for (struct relay_out *r; (r = out_of(n, conn, NULL));) {
		send_inbox(n, r->node, json_pack("{s:s, s:I}", "op", "close", "conn", (json_int_t)conn));
		out_drop(n, (int)(r - n->outs));
	}
}

/* What the owner's lobby says that concerns the client here: not the
 * lobby's list, events, chat or saved tables (its own node's lobby says
 * those), nor a welcome. */
static int for_client(const char *text)
{
	static const char *const not[] = { "{\"type\":\"lobby", "{\"type\":\"saved\"", "{\"type\":\"welcome\"",
		                           "{\"type\":\"settings\"" };
	for (size_t i = 0; i < sizeof not / sizeof *not; i++)
		if (!strncmp(text, not[i], strlen(not[i])))
			return 0;
	return strncmp(text, "{\"type\":\"chat\"", 14) != 0 || strstr(text, "\"table\":") != NULL;
}

/* Room left in a message between nodes for its wrapping. */
#define CLNET_WRAP_MAX 512

void clnet_send(struct clnet *n, long conn, char *text)
{
	struct relay_in *r = in_of(n, conn);
	if (r && !r->closing && text && for_client(text)) {
		if (strlen(text) > CLUSTER_MESSAGE_MAX - CLNET_WRAP_MAX) {
			/* Longer than a message between nodes may be (a long
			 * game's history): the person is told, not left waiting. */
			free(text);
			const char *why = i18n_tr(i18n_of(lobby_lang(n->l, conn)),
			                          "That answer is too long to pass from one server to another.");
			text = proto_dump(json_pack("{s:s, s:s, s:s}", "type", "error", "code", "too_large", "message", why));
		}
		send_inbox(n, r->node,
		           json_pack("{s:s, s:I, s:I, s:s, s:b}", "op", "msg", "conn", (json_int_t)r->conn, "seq",
		                     (json_int_t)++r->seq_out, "text", text ? text : "", "back", 1));
	}
	free(text);
}

void clnet_close(struct clnet *n, long conn)
{
	struct relay_in *r = in_of(n, conn);
	if (r)
		r->closing = 1;
}

/* tell: 0 nothing to the client's node; 1 "closed"; 2 "closed" as lost
 * (the client is told to connect again). */
static void in_drop(struct clnet *n, int i, int tell)
{
	struct relay_in *r = &n->ins[i];
	if (tell)
		send_inbox(n, r->node, json_pack("{s:s, s:I, s:b}", "op", "closed", "conn", (json_int_t)r->conn, "lost",
		                                 tell > 1));
	long vconn = r->vconn;
	n->ins[i] = n->ins[--n->nins];
	lobby_close(n->l, vconn, n->now_ms);
}

/* Where the client is at tables of that node, from what it is told (its
 * lobby's list stops and starts again with it). */
static void follow(struct clnet *n, struct relay_out *r, const char *text)
{
	long table;
	int joined = sscanf(text, "{\"type\":\"joined\",\"table\":%ld", &table) == 1;
	if (!joined && sscanf(text, "{\"type\":\"left\",\"table\":%ld", &table) != 1)
		return;
	n->l->dirty = 1;
	for (int i = 0; i < r->ntables; i++)
		if (r->tables[i] == table) {
			if (!joined)
				r->tables[i] = r->tables[--r->ntables];
			return;
		}
	if (joined && r->ntables < 64) {
		xgrow((void **)&r->tables, &r->captables, r->ntables + 1, sizeof *r->tables);
		r->tables[r->ntables++] = table;
	}
}

static void on_inbox(void *ctx, const char *channel, const void *msg, size_t len)
{
	struct clnet *n = ctx;
	(void)channel;
	json_t *j = json_loadb(msg, len, 0, NULL);
	const char *op = json_string_value(json_object_get(j, "op"));
	const char *from = json_string_value(json_object_get(j, "from"));
	json_t *jc = json_object_get(j, "conn");
	long conn = json_is_integer(jc) ? (long)json_integer_value(jc) : -1;
	long seq = (long)json_integer_value(json_object_get(j, "seq"));
	const char *text = json_string_value(json_object_get(j, "text"));
	if (!op || !from || clwords_check_id(from) < 0 || conn < 0 || conn >= LOBBY_RELAYED_CONN) {
		json_decref(j);
		return;
	}
	n->now_ms = now_ms();
	if (!strcmp(op, "open")) {
		/* A person of another node comes to a table here. */
		const char *name = json_string_value(json_object_get(j, "name"));
		const char *lang = json_string_value(json_object_get(j, "lang"));
		struct relay_in *again = in_from(n, from, conn);
		struct lobby_conn *lc = again ? lobbyrec_conn_of(n->l, again->vconn) : NULL;
		if (again) {
			/* Opened anew (the node dropped its side): numbered anew,
			 * where they are sent again. */
			again->seq_in = again->seq_out = 0;
			if (lc && lc->user >= 0)
				lobbyacct_relayed_login(n->l, again->vconn, n->l->users[lc->user].name, lc->lang, 0);
		} else if (name && strlen(name) < HOST_PLAYER_MAX && n->nins < CLNET_RELAYS) {
			xgrow((void **)&n->ins, &n->capins, n->nins + 1, sizeof *n->ins);
			struct relay_in *r = &n->ins[n->nins++];
			memset(r, 0, sizeof *r);
			r->vconn = LOBBY_RELAYED_CONN + ++n->next_vconn;
			r->conn = conn;
			snprintf(r->node, sizeof r->node, "%s", from);
			lobby_open(n->l, r->vconn, from, lang);
			lobbyacct_relayed_login(n->l, r->vconn, name, lang, json_is_true(json_object_get(j, "guest")));
		}
	} else if (!strcmp(op, "msg") && text) {
		/* Its way: the node's client conn at a table here, or this
		 * node's client conn at a table there (both may be). */
		int back = json_is_true(json_object_get(j, "back"));
		struct relay_in *ri = back ? NULL : in_from(n, from, conn);
		struct relay_out *ro = back ? out_of(n, conn, from) : NULL;
		if (ri && !ri->closing) {
			/* A client's message, for the lobby here. A number skipped:
			 * a message lost; the state again, after this one. (A
			 * number lower than the last: the sender numbers anew.) */
			int gap = seq > ri->seq_in + 1;
			ri->seq_in = seq;
			long vconn = ri->vconn;
			lobby_message(n->l, vconn, text, strlen(text), n->now_ms);
			struct lobby_conn *lc = gap ? lobbyrec_conn_of(n->l, vconn) : NULL;
			if (lc && lc->user >= 0)
				lobbyacct_relayed_login(n->l, vconn, n->l->users[lc->user].name, lc->lang, 0);
		} else if (ro) {
			/* The owner's message to a client here. */
			if (seq > ro->seq_in + 1)
				send_inbox(n, from, json_pack("{s:s, s:I}", "op", "resync", "conn", (json_int_t)conn));
			ro->seq_in = seq;
			follow(n, ro, text);
			n->io.send(n->io.ctx, conn, xstrdup(text));
		} else if (!back && !ri) {
			/* A relay this node does not know (dropped when it took
			 * that node for lost): the far side learns, and its client
			 * connects again. */
			send_inbox(n, from, json_pack("{s:s, s:I, s:b}", "op", "closed", "conn", (json_int_t)conn, "lost", 1));
		} else if (back) {
			/* For a client here no longer relayed there: that node forgets it. */
			send_inbox(n, from, json_pack("{s:s, s:I}", "op", "close", "conn", (json_int_t)conn));
		}
	} else if (!strcmp(op, "close")) {
		struct relay_in *r = in_from(n, from, conn);
		if (r)
			in_drop(n, (int)(r - n->ins), 0);
	} else if (!strcmp(op, "closed")) {
		struct relay_out *r = out_of(n, conn, from);
		if (r && json_is_true(json_object_get(j, "lost")))
			out_lost(n, (int)(r - n->outs));
		else if (r)
			out_drop(n, (int)(r - n->outs));
	} else if (!strcmp(op, "resync")) {
		struct relay_in *r = in_from(n, from, conn);
		struct lobby_conn *lc = r ? lobbyrec_conn_of(n->l, r->vconn) : NULL;
		if (!r)
			send_inbox(n, from, json_pack("{s:s, s:I, s:b}", "op", "closed", "conn", (json_int_t)conn, "lost", 1));
		else if (lc && lc->user >= 0)
			lobbyacct_relayed_login(n->l, r->vconn, n->l->users[lc->user].name, lc->lang, 0);
	}
	json_decref(j);
}

int clnet_far_seat(struct clnet *n, long table, const char *name, int *seat, int *playing, char *node, size_t len)
{
	const struct far_table *t = far_table(n, table);
	if (!t)
		return 0;
	*seat = -1;
	size_t k;
	json_t *x;
	json_array_foreach(json_object_get(t->info, "seats"), k, x) {
		const char *who = json_string_value(json_object_get(x, "name"));
		if (who && !strcmp(who, name))
			*seat = (int)k;
	}
	const char *state = json_string_value(json_object_get(t->info, "state"));
	*playing = state && !strcmp(state, "playing");
	snprintf(node, len, "%s", t->node);
	return 1;
}

int clnet_far_held(struct clnet *n, const char *name, long table, long *at, int *seat)
{
	char node[CLUSTER_ID_MAX + 1];
	int playing;
	for (int i = 0; i < n->ntables; i++)
		if (n->tables[i].id != table &&
		    clnet_far_seat(n, n->tables[i].id, name, seat, &playing, node, sizeof node) && playing && *seat >= 0) {
			*at = n->tables[i].id;
			return 1;
		}
	return 0;
}

/* 1 when a client of this node is at a table of another (the lobby's
 * list and events are not for it meanwhile). */
static int far_away(void *ctx, long conn)
{
	struct clnet *n = ctx;
	for (int i = out_first(n, conn); i < n->nouts && n->outs[i].conn == conn; i++)
		if (n->outs[i].ntables)
			return 1;
	return 0;
}

/* ---------------------------------------------------------------- the node */

/* The directory read again: what it holds of the live nodes is what they
 * have. */
static void read_all(struct clnet *n)
{
	dir_mark(n, CLUSTER_DIR_TABLES);
	cluster_dir_all(n->c, CLUSTER_DIR_TABLES, dir_tables, n);
	dir_mark(n, CLUSTER_DIR_PEOPLE);
	cluster_dir_all(n->c, CLUSTER_DIR_PEOPLE, dir_people, n);
}

void clnet_link(struct clnet *n, int up)
{
	if (!up)
		return;
	/* This node's rows again, the others' read again, ids if none. */
	tell_all(n);
	read_all(n);
	if (dir_ids_left(&n->l->dir) < CLNET_ID_LOW)
		want_ids(n);
}

void clnet_node_seen(struct clnet *n, const char *node)
{
	(void)node;
	read_all(n);
}

void clnet_node_lost(struct clnet *n, const char *node)
{
	n->now_ms = now_ms();
	/* Its people gone, its tables out of the list until a node that
	 * adopts one lists it again; their rows removed. */
	for (int i = n->npeople - 1; i >= 0; i--)
		if (!strcmp(n->people[i].node, node)) {
			cluster_dir_del(n->c, CLUSTER_DIR_PEOPLE, n->people[i].name);
			person_drop(n, i);
		}
	for (int i = n->ntables - 1; i >= 0; i--)
		if (!strcmp(n->tables[i].node, node))
			table_drop(n, i);
	/* Its clients at tables here are gone (their seats wait, as for a
	 * dropped connection); the clients here at its tables are told and
	 * connect again (to be relayed to wherever the tables go). Each
	 * side's drop is said to that node too: if it was only stalled, it
	 * reads it when it wakes and forgets its side as well. */
	for (int i = n->nins - 1; i >= 0; i--)
		if (!strcmp(n->ins[i].node, node))
			in_drop(n, i, 2);
	for (int i = n->nouts - 1; i >= 0; i--)
		if (!strcmp(n->outs[i].node, node)) {
			send_inbox(n, node, json_pack("{s:s, s:I}", "op", "close", "conn", (json_int_t)n->outs[i].conn));
			out_lost(n, i);
		}
}

/* How long, and how often, a table lost here is looked for in the
 * directory (its new node writes its row once it has restored it). */
#define CLNET_MOVED_MS 15000
#define CLNET_MOVED_EVERY_MS 500

void clnet_table_lost(struct clnet *n, long table)
{
	struct ids_moved *m = &n->moved;
	n->now_ms = now_ms();
	for (int i = 0; i < m->n; i++)
		if (m->v[i] == table)
			return;
	if (m->n >= CLUSTER_MAX_TABLES)
		return;
	xgrow((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v);
	m->v[m->n++] = table;
	m->until_ms = n->now_ms + CLNET_MOVED_MS;
	m->next_ms = n->now_ms + CLNET_MOVED_EVERY_MS;
}

/* The tables lost here, once listed as another node's (table_set, which
 * relays their players here to it), no longer looked for. */
static void moved_tick(struct clnet *n)
{
	struct ids_moved *m = &n->moved;
	if (!m->n || n->now_ms < m->next_ms)
		return;
	for (int i = m->n - 1; i >= 0; i--) {
		const struct far_table *t = far_table(n, m->v[i]);
		if ((t && strcmp(t->node, n->self)) || n->now_ms >= m->until_ms)
			m->v[i] = m->v[--m->n];
	}
	if (!m->n)
		return;
	m->next_ms = n->now_ms + CLNET_MOVED_EVERY_MS;
	dir_mark(n, CLUSTER_DIR_TABLES);
	cluster_dir_all(n->c, CLUSTER_DIR_TABLES, dir_tables, n);
}

void clnet_tick(struct clnet *n, long long now)
{
	n->now_ms = now;
	for (int i = n->nins - 1; i >= 0; i--)
		if (n->ins[i].closing)
			in_drop(n, i, 1);
	moved_tick(n);
}

struct clnet *clnet_new(struct cluster *c, struct lobby *l, struct clnet_io io)
{
	struct clnet *n = xcalloc(1, sizeof *n);
	n->c = c;
	n->l = l;
	n->io = io;
	snprintf(n->self, sizeof n->self, "%s", cluster_node(c));
	n->far = (struct lobby_far){ n, far_tables, far_people, far_round, far_chat, far_away, far_person_here,
		                     far_invite };
	l->far = &n->far;
	if (store_last_id(l->store, &n->floor) < 0)
		n->floor = 0;
	dir_use_blocks(&l->dir, CLNET_ID_LOW, want_ids, n);
	cluster_subscribe(c, CLUSTER_CH_LOBBY, on_lobby, n);
	cluster_subscribe(c, CLUSTER_CH_CHAT, on_chat, n);
	cluster_subscribe(c, CLUSTER_CH_INVITE, on_invite, n);
	if (clwords_inbox(n->self, n->inbox, sizeof n->inbox) == 0)
		cluster_subscribe(c, n->inbox, on_inbox, n);
	return n;
}

void clnet_free(struct clnet *n)
{
	if (!n)
		return;
	if (n->l->far == &n->far)
		n->l->far = NULL;
	for (int i = 0; i < n->ntables; i++)
		json_decref(n->tables[i].info);
	free(n->tables);
	for (int i = 0; i < n->npeople; i++)
		free(n->people[i].name);
	free(n->people);
	free(n->entries);
	free(n->persons);
	changes_free(&n->pending);
	changes_free(&n->given);
	for (int i = 0; i < n->nouts; i++)
		free(n->outs[i].tables);
	free(n->outs);
	free(n->ins);
	free(n->moved.v);
	free(n);
}
