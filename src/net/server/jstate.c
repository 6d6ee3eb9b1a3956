/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/jstate.h"

#include <stdio.h>
#include <string.h>

#include "app/keymap.h"
#include "app/menuorder.h"
#include "i18n/i18n.h"

/* The keys of the moments in when (app/keymap), as F1 says them: the key
 * list is longer than one sbuf, so a moment at a time. */
static void f1_text(const struct i18n_lang *l, struct jtext *j, const char *key, int when)
{
	static const int moments[] = { KEYS_ALWAYS, KEYS_TURN, KEYS_MENU, KEYS_SPEECH };
	char all[4 * SBUF_SIZE];
	size_t len = 0;
	all[0] = 0;
	for (size_t m = 0; m < sizeof moments / sizeof moments[0]; m++) {
		if (!(when & moments[m]))
			continue;
		struct sbuf b;
		sb_clear(&b);
		keymap_say(l, &b, (when & ~KEYS_MOMENTS) | moments[m]);
		int n = snprintf(all + len, sizeof all - len, "%s", b.s);
		len += n > 0 && (size_t)n < sizeof all - len ? (size_t)n : 0;
	}
	while (len && all[len - 1] == ' ')
		all[--len] = 0;
	jt_kstr(j, key, all);
}

/* The members "queries" and "f1" of one language and moment, as they
 * are written into a state (without braces). */
struct said {
	char *json;
	size_t len;
	size_t qlen;   /* the bytes of "queries" (f1 after its comma) */
};
/* By language (en, fr) and the bits of the moment (jstate_meaning): made
 * when first needed, kept for the process (the states are made on the
 * loop's thread alone). */
static struct said said[2][32];

static void keys_now(struct said *m, const struct view_state *vs)
{
	struct jtext jo;
	jt_init(&jo, 4096);
	jt_open(&jo, '{');
	struct jtext *j = &jo;
	const struct i18n_lang *l = i18n_of(vs->lang);
	int cond = KEYS_IF_PAGE | (vs->my_turn && vs->discard_ahead ? KEYS_IF_DISCARD : 0) |
	           (vs->showdowns ? KEYS_IF_SHOWDOWN : KEYS_IF_TRICKS);
	int turn = vs->my_turn ? KEYS_TURN : 0;
	jt_key(j, "queries");
	jt_open(j, '[');
	for (int i = 0; keymap[i].keys; i++) {
		const struct keymap_entry *e = &keymap[i];
		if (!keymap_query(e) || !(e->when & (KEYS_ALWAYS | turn)) ||
		    (e->when & ~(cond | KEYS_MOMENTS)) != 0)
			continue;
		jt_open(j, '{');
		jt_kstr(j, "key", e->keys);
		jt_kstr(j, "spoken", i18n_tr(l, e->spoken ? e->spoken : e->keys));
		jt_kstr(j, "what", i18n_tr(l, keymap_what(e, cond)));
		jt_close(j, '}');
	}
	jt_close(j, ']');
	m->qlen = jo.len - 1;   /* without the brace */
	jt_key(j, "f1");
	jt_open(j, '{');
	struct sbuf b;
	sb_clear(&b);
	keymap_say_brief(l, &b, cond | (!vs->my_turn ? KEYS_BRIEF_WAIT : vs->can_play ? KEYS_BRIEF_PLAY : KEYS_BRIEF_CHOOSE));
	jt_kstr(j, "brief", b.s);
	f1_text(l, j, "all", cond | KEYS_ALWAYS | KEYS_SPEECH | turn);
	if (vs->my_turn && vs->nchoices) {
		f1_text(l, j, "menu", cond | KEYS_MENU);
		f1_text(l, j, "amount", cond | KEYS_MENU | KEYS_IF_AMOUNT);
	}
	jt_close(j, '}');
	jt_close(&jo, '}');
	m->json = jt_done(&jo);
	/* Without the braces. */
	m->len = strlen(m->json) - 2;
	memmove(m->json, m->json + 1, m->len);
	m->json[m->len] = '\0';
}

int jstate_moment_of(const struct view_state *vs)
{
	int bits = (vs->my_turn ? 1 : 0) | (vs->my_turn && vs->discard_ahead ? 2 : 0) | (vs->showdowns ? 4 : 0) |
	           (vs->can_play ? 8 : 0) | (vs->my_turn && vs->nchoices ? 16 : 0);
	return (strcmp(vs->lang, "fr") == 0) * 32 + bits;
}

static struct said *said_of(int w, const struct view_state *vs)
{
	struct said *m = &said[w / 32][w % 32];
	if (!m->json)
		keys_now(m, vs);
	return m;
}

/* "en13", "fr4": the moment's name in a state and a "moment" message. */
static const char *moment_id(int w, char id[8])
{
	snprintf(id, 8, "%s%d", w / 32 ? "fr" : "en", w % 32);
	return id;
}

/* "cursor": vs->cursor as lists (docs/protocol.md). */
static void cursor_write(struct jtext *j, const struct keymap_cursor *c)
{
	static const char *const bound[] = { [KEYMAP_LEAST] = "least", [KEYMAP_MOST] = "most" };
	jt_key(j, "cursor");
	jt_open(j, '{');
	jt_key(j, "hand");
	jt_open(j, '{');
	for (int m = 0; m < KEYMAP_NMOVES; m++) {
		jt_key(j, keymap_moves[m].key);
		jt_open(j, '{');
		jt_key(j, "to");
		jt_open(j, '[');
		for (int i = 0; i < c->n; i++)
			jt_int(j, c->to[m][i]);
		jt_close(j, ']');
		jt_key(j, "edge");
		jt_open(j, '[');
		for (int i = 0; i < c->n; i++)
			if (c->edge[m][i])
				jt_int(j, i);
		jt_close(j, ']');
		if (c->said[m][0])
			jt_kstr(j, "said", c->said[m]);
		jt_close(j, '}');
	}
	jt_close(j, '}');
	jt_key(j, "turn");
	jt_open(j, '[');
	for (int i = 0; i < c->n; i++)
		jt_int(j, c->turn[i]);
	jt_close(j, ']');
	jt_key(j, "amount");
	jt_open(j, '{');
	for (int s = 0; s < KEYMAP_NSTEPS; s++) {
		if (c->bound[s] == KEYMAP_STEP)
			jt_kint(j, keymap_steps[s].key, c->step[s]);
		else
			jt_kstr(j, keymap_steps[s].key, bound[c->bound[s]]);
	}
	jt_close(j, '}');
	jt_kint(j, "marks", c->marks);
	static const char *const enter[] = { [KEYMAP_ENTER_MENU] = "menu", [KEYMAP_ENTER_PLAY] = "play",
		                             [KEYMAP_ENTER_DISCARD] = "discard" };
	jt_kstr(j, "enter", enter[c->enter]);
	jt_close(j, '}');
}

void jstate_meaning(struct jtext *j, const struct view_state *vs, size_t at[JSTATE_NMEMBERS])
{
	size_t none[JSTATE_NMEMBERS];
	if (!at)
		at = none;
	int order[VIEW_MAX_CHOICES];
	int n = menuorder_sort(vs, order);
	at[0] = j->len;
	jt_key(j, "menu");
	jt_open(j, '[');
	for (int i = 0; i < n; i++)
		jt_int(j, order[i]);
	jt_close(j, ']');
	at[1] = j->len;
	jt_kbool(j, "showdowns", vs->showdowns);

	/* What the keys say now depends on the language and five bits of the
	 * moment alone: phrased once for each, then copied into every state,
	 * named by "moment" (a client that takes the changes keeps them by it). */
	int w = jstate_moment_of(vs);
	struct said *m = said_of(w, vs);
	char id[8];
	at[2] = j->len;
	jt_kstr(j, "moment", moment_id(w, id));
	at[3] = j->len;
	jt_members(j, m->json, m->qlen);
	at[4] = j->len;
	jt_members(j, m->json + m->qlen + 1, m->len - m->qlen - 1);
	at[5] = j->len;
	cursor_write(j, &vs->cursor);
}

char *jstate_moment_msg(const struct view_state *vs)
{
	int w = jstate_moment_of(vs);
	struct said *m = said_of(w, vs);
	char id[8];
	struct jtext j;
	jt_init(&j, m->len + 64);
	jt_open(&j, '{');
	jt_kstr(&j, "type", "moment");
	jt_kstr(&j, "moment", moment_id(w, id));
	jt_members(&j, m->json, m->len);
	jt_close(&j, '}');
	return jt_done(&j);
}
