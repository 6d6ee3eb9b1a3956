/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobbyseat.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/server/lobbyrec.h"

int lobbyseat_in_play(struct lobby *l, const char *name, long table, int *seat)
{
	const struct host *o = lobbyrec_table_of(l, table);
	if (!o || o->state != HOST_PLAYING)
		return 0;
	for (int s = 0; s < o->players; s++)
		if (!strcmp(o->seat[s].name, name)) {
			*seat = s;
			return 1;
		}
	return 0;
}

int lobbyseat_held(struct lobby *l, const char *name, long table, long *at, int *seat)
{
	for (int i = 0; i < l->ntables; i++)
		if (l->tables[i]->id != table && lobbyseat_in_play(l, name, l->tables[i]->id, seat)) {
			*at = l->tables[i]->id;
			return 1;
		}
	return l->seats && l->seats->held(l->seats->ctx, name, table, at, seat);
}

void lobbyseat_ask(struct lobby *l, struct lobby_conn *c, int create, long at, int seat)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	char q[256], back[160];
	snprintf(q, sizeof q, i18n_tr(L, "You hold seat %d at table %lld, where the game goes on: keep it and go back, "
	                                 "or give it up?"),
	         seat + 1, (long long)at);
	snprintf(back, sizeof back, i18n_tr(L, "Keep the seat and go back to table %lld"), (long long)at);
	const char *go = create ? i18n_tr(L, "Give it up and make the new table")
	                        : i18n_tr(L, "Give it up and sit at this table");
	lobbyrec_send_text(l, c->id,
	                   proto_dump(json_pack("{s:s, s:s, s:I, s:i, s:s, s:[{s:s, s:{s:s, s:I, s:i}}, {s:s, s:b}]}",
	                                        "type", "ask", "about", "seat_held", "table", (json_int_t)at, "seat",
	                                        seat, "text", q, "choices", "text", back, "send", "type", "sit", "table",
	                                        (json_int_t)at, "seat", seat, "text", go, "again", 1)));
}

int lobbyseat_ask_held(struct lobby *l, struct lobby_conn *c, long table, int create, int give_up)
{
	long at;
	int seat;
	if (give_up || c->user < 0 || !lobbyseat_held(l, l->users[c->user].name, table, &at, &seat))
		return 0;
	lobbyseat_ask(l, c, create, at, seat);
	return 1;
}

int lobbyseat_hold(struct lobby *l, struct lobby_conn *c, const struct host *h, int type, const struct req *m)
{
	if (!l->seats)
		return 0;
	/* Given up (and a create's: asked before it was made), the seat is
	 * taken now and its key after, nothing to wait for (a table made
	 * with nobody at it yet would go). */
	if (!m || m->give_up) {
		l->seats->take(l->seats->ctx, -1, l->users[c->user].name, h->id, 1);
		return 0;
	}
	if (c->job || l->seats->take(l->seats->ctx, c->id, l->users[c->user].name, h->id, 0) < 0)
		return 0;
	struct req *r = xcalloc(1, sizeof *r);
	if (m) {
		*r = *m;
		memset(r->password, 0, sizeof r->password);
	}
	r->type = type;
	r->table = h->id;
	r->seat = m->seat; /* as asked: the first free seat is looked for again then */
	c->job = LOBBY_JOB_SEAT;
	c->job_msg = r;
	return 1;
}

void lobbyseat_give_up(struct lobby *l, long table, const char *name)
{
	struct host *h = lobbyrec_table_of(l, table);
	for (int s = 0; h && s < h->players; s++)
		if (!strcmp(h->seat[s].name, name)) {
			host_stand(h, name, 0);
			l->dirty = 1;
			return;
		}
}

void lobbyseat_freed(struct lobby *l, const struct host *h, const char *name)
{
	if (l->seats)
		l->seats->freed(l->seats->ctx, name, h->id);
}
