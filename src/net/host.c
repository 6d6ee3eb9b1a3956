#include "net/host.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"
#include "bots/bot.h"
#include "net/proto.h"
#include "speech/announce.h"
#include "speech/i18n.h"
#include "speech/say.h"

static const char *const langs[] = { "en", "fr" };

/* The catalogue of lang in force (the server phrases for each member in
 * turn; catalogues are small). */
static void lang_use(const char *lang)
{
	if (strcmp(i18n_lang(), lang) != 0) {
		char err[256];
		i18n_set_lang(lang, err, sizeof err);
	}
}

static void on_event(void *ctx, const struct event *e)
{
	struct host *h = ctx;
	struct event copy = *e;
	copy.seq = e->type == EV_GAME_START ? 0 : h->seq++;
	hist_event(&h->hist, &copy);
	if (h->replaying)
		return;
	if (h->npending == h->cap_pending) {
		int cap = h->cap_pending ? h->cap_pending * 2 : 32;
		struct event *p = realloc(h->pending, (size_t)cap * sizeof *p);
		if (!p)
			return;
		h->pending = p;
		h->cap_pending = cap;
	}
	h->pending[h->npending++] = copy;
}

struct host_member *host_member(struct host *h, const char *name)
{
	for (int i = 0; i < h->nmembers; i++)
		if (!strcmp(h->member[i].name, name))
			return &h->member[i];
	return NULL;
}

static int seat_of(const struct host *h, const char *name)
{
	for (int s = 0; s < h->players; s++)
		if (!strcmp(h->seat[s].name, name))
			return s;
	return -1;
}

/* 1 when a bot plays the seat now. */
static int bot_plays(const struct host *h, int s, long long now_ms)
{
	const struct host_seat *x = &h->seat[s];
	if (!x->name[0])
		return 1;
	return x->away_ms && now_ms - x->away_ms >= h->cfg->grace_ms;
}

const char *host_seat_word(const struct host *h, int s)
{
	const struct host_seat *x = &h->seat[s];
	if (x->name[0])
		return x->away_ms ? "away" : "player";
	return x->open ? "open" : "bot";
}

static void send_to(struct host *h, struct host_member *m, char *text)
{
	if (!text)
		return;
	if (m->conn >= 0) {
		h->out.send(h->out.ctx, m->conn, text);
		return;
	}
	if (m->nmissed == HOST_MISSED_MAX) {
		free(m->missed[0]);
		memmove(m->missed, m->missed + 1, (HOST_MISSED_MAX - 1) * sizeof m->missed[0]);
		m->nmissed--;
		m->dropped++;
	}
	m->missed[m->nmissed++] = text;
}

/* A sentence for a member, with its cue and the seat it comes from. */
static char *say_msg(const struct host *h, int seq, const char *text, const char *cue, int from)
{
	json_t *o = json_pack("{s:s, s:I, s:i, s:s}", "type", "say", "table", (json_int_t)h->id, "seq", seq,
	                      "text", text);
	if (!o)
		return NULL;
	if (cue) {
		json_object_set_new(o, "cue", json_string(cue));
		json_object_set_new(o, "from", json_integer(from));
	}
	return proto_dump(o);
}

/* The state redacted for a seat; for a spectator (-1), for nobody. */
static const void *view_for(struct host *h, int seat)
{
	memcpy(h->view, h->st, h->g->state_size);
	if (seat >= 0) {
		h->g->redact(h->view, seat);
	} else {
		h->g->redact(h->view, 0);
		h->g->redact(h->view, h->players > 1 ? 1 : 0);
	}
	return h->view;
}

static json_t *json_text(const char *s)
{
	json_t *v = json_string(s);
	return v ? v : json_string("");
}

/* The member's view: the answers to the keys, the hand, the choices. */
static char *state_msg(struct host *h, const struct host_member *m)
{
	int seat = m->seat;
	struct talk tk = { h->g, seat, h->players };
	json_t *o = json_pack("{s:s, s:I, s:i, s:i, s:s}", "type", "state", "table", (json_int_t)h->id, "seq",
	                      h->seq - 1, "seat", seat, "state",
	                      h->state == HOST_WAITING ? "waiting" : h->state == HOST_PLAYING ? "playing" : "over");
	if (!o)
		return NULL;
	if (h->state == HOST_WAITING)
		return proto_dump(o);
	int to_act = h->g->to_act(h->st);
	json_object_set_new(o, "to_act", json_integer(to_act));
	const void *view = view_for(h, seat);
	json_t *keys = json_object();
	struct sbuf b;
	static const char qkeys[] = "CFRST123456789";
	for (const char *k = qkeys; *k; k++) {
		char name[2] = { *k, 0 };
		ann_query(&tk, h->gt, view, *k, &b);
		json_object_set_new(keys, name, json_text(b.s));
	}
	struct action legal[GAME_MAX_LEGAL];
	int nlegal = to_act == seat && seat >= 0 ? h->g->legal(h->st, legal, GAME_MAX_LEGAL) : 0;
	if (seat >= 0) {
		card_t hand[GAME_MAX_HAND];
		int n = h->g->hand(h->st, seat, hand);
		ann_hand(&tk, hand, n, &b);
		json_object_set_new(keys, "H", json_text(b.s));
		json_t *ha = json_array();
		for (int i = 0; i < n; i++) {
			char cs[4], nm[64];
			struct action a = act_card(ACT_PLAY, hand[i]);
			json_array_append_new(ha, json_pack("{s:s, s:s, s:b}", "card", card_str(hand[i], cs), "name",
			                                    say_card_str(hand[i], SAY_BARE, nm, sizeof nm), "playable",
			                                    nlegal && act_in_list(&a, legal, nlegal)));
		}
		json_object_set_new(o, "hand", ha);
	}
	json_object_set_new(o, "keys", keys);
	json_t *ch = json_array();
	for (int i = 0; i < nlegal; i++) {
		char txt[ACT_STR_MAX];
		sb_clear(&b);
		ann_action(&tk, h->gt, view, &legal[i], &b);
		sb_capitalize(&b);
		json_t *c = json_pack("{s:s, s:s}", "action", act_format(&legal[i], txt, sizeof txt), "label", b.s);
		if (c && legal[i].amount_max > legal[i].amount) {
			json_object_set_new(c, "min", json_integer(legal[i].amount));
			json_object_set_new(c, "max", json_integer(legal[i].amount_max));
		}
		if (c)
			json_array_append_new(ch, c);
	}
	json_object_set_new(o, "choices", ch);
	return proto_dump(o);
}

/* Phrase the pending events for one member (its language is in force). */
static void tell_member(struct host *h, struct host_member *m, int prompt)
{
	struct talk tk = { h->g, m->seat, h->players };
	const void *view = view_for(h, m->seat);
	struct sbuf b;
	for (int i = 0; i < h->npending; i++) {
		struct event e = h->pending[i];
		if (m->seat < 0 && e.visible != EV_ALL)
			continue; /* a spectator hears what is public only */
		if (e.type == EV_HAND_START)
			e.ncards = 0; /* the pack in order is for the history alone */
		ann_event(&tk, h->gt, view, &e, &b);
		int from = -1;
		enum audio_cue cue = audio_event_cue(&e, m->seat, &from);
		if (!b.len && cue == CUE_COUNT)
			continue;
		send_to(h, m, say_msg(h, e.seq, b.s, cue == CUE_COUNT ? NULL : audio_cue_name(cue), from));
	}
	if (prompt) {
		sb_clear(&b);
		if (h->gt && h->gt->prompt)
			h->gt->prompt(&tk, view, &b);
		if (!b.len)
			sb_puts(&b, _("Your turn."));
		send_to(h, m, say_msg(h, h->seq - 1, b.s, audio_cue_name(CUE_YOUR_TURN), m->seat));
	}
	if (m->conn >= 0)
		send_to(h, m, state_msg(h, m));
}

/* Tell every member what the last action did, each in their language. */
static void flush(struct host *h, long long now_ms)
{
	if (h->replaying) {
		h->npending = 0;
		return;
	}
	int to_act = h->state == HOST_PLAYING ? h->g->to_act(h->st) : -1;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++)
		for (int i = 0; i < h->nmembers; i++) {
			struct host_member *m = &h->member[i];
			if (strcmp(m->lang, langs[l]) != 0)
				continue;
			lang_use(m->lang);
			tell_member(h, m, to_act >= 0 && to_act == m->seat && !bot_plays(h, m->seat, now_ms));
		}
	h->npending = 0;
}

/* A sentence about a player ("%s sits down.") told to every member. */
static void announce(struct host *h, const char *msgid, const char *name)
{
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++)
		for (int i = 0; i < h->nmembers; i++) {
			struct host_member *m = &h->member[i];
			if (strcmp(m->lang, langs[l]) != 0)
				continue;
			lang_use(m->lang);
			char text[512];
			snprintf(text, sizeof text, i18n_get(msgid), name);
			send_to(h, m, say_msg(h, h->seq - 1, text, NULL, -1));
		}
}

void host_row(const struct host *h, struct store_table *t)
{
	memset(t, 0, sizeof *t);
	t->id = h->id;
	snprintf(t->game, sizeof t->game, "%s", h->g->name);
	t->players = h->players;
	t->seed = h->seed;
	t->state = h->state;
	snprintf(t->creator, sizeof t->creator, "%s", h->creator);
	t->private_ = h->private_;
	snprintf(t->pwhash, sizeof t->pwhash, "%s", h->pwhash);
	size_t off = 0;
	for (int i = 0; i < h->rules.n && off < sizeof t->rules; i++) {
		char buf[32];
		off += (size_t)snprintf(t->rules + off, sizeof t->rules - off, "%s=%s\n", h->rules.defs[i].key,
		                        rules_value_str(&h->rules, i, buf, sizeof buf));
	}
	json_t *seats = json_array();
	for (int s = 0; s < h->players; s++)
		json_array_append_new(seats, json_pack("{s:s, s:b, s:i}", "name", h->seat[s].name, "open",
		                                       h->seat[s].open, "level", h->seat[s].level));
	char *js = json_dumps(seats, JSON_COMPACT);
	json_decref(seats);
	snprintf(t->seats, sizeof t->seats, "%s", js ? js : "[]");
	free(js);
}

void host_save(struct host *h)
{
	if (h->replaying)
		return;
	struct store_table t;
	host_row(h, &t);
	store_table_put(h->store, &t);
}

static int setup(struct host *h, long id, const struct game_ops *g, int players, const struct rules *rules,
                 uint64_t seed, struct store *store, const struct host_config *cfg, struct net_out out,
                 char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	h->id = id;
	h->g = g;
	h->gt = talk_find(g->name);
	h->players = players;
	h->seed = seed;
	h->rules = *rules;
	h->store = store;
	h->cfg = cfg;
	h->out = out;
	h->st = calloc(1, g->state_size);
	h->view = calloc(1, g->state_size);
	if (!h->st || !h->view) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	card_t pack[CARD_MAX_PACK];
	if (g->pack(&h->rules, players, pack, err, errlen) < 0)
		return -1;
	struct game_setup gs = { players, -1, seed, &h->rules, NULL };
	if (g->init(h->st, &gs, err, errlen) < 0)
		return -1;
	rng_seed(&h->bot_rng, rng_derive(seed, 0x626f7473));
	for (int s = 0; s < players; s++)
		h->seat[s].level = 2;
	return 0;
}

int host_create(struct host *h, long id, const struct game_ops *g, int players, const struct rules *rules,
                uint64_t seed, const char *creator, struct store *store, const struct host_config *cfg,
                struct net_out out, char *err, size_t errlen)
{
	if (setup(h, id, g, players, rules, seed, store, cfg, out, err, errlen) < 0) {
		host_free(h);
		return -1;
	}
	snprintf(h->creator, sizeof h->creator, "%s", creator);
	h->state = HOST_WAITING;
	return 0;
}

/* The game begins: the hand history opens, the first events are told. */
static int begin(struct host *h, char *err, size_t errlen)
{
	if (h->cfg->log_dir) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%ld.jsonl", h->cfg->log_dir, h->id);
		if (hist_open(&h->hist, path, err, errlen) < 0)
			return -1;
	}
	h->state = HOST_PLAYING;
	hist_game_start(&h->hist, h->g->name, h->players, h->seed, &h->rules);
	h->seq = 1;
	struct event e;
	ev_init(&e, EV_GAME_START);
	e.nvalues = h->players;
	on_event(h, &e);
	struct sink s = { on_event, h };
	h->g->start(h->st, &s);
	return 0;
}

struct replay_ctx {
	struct host *h;
	int bad;
};

static int apply_one(struct host *h, int seat, const struct action *a, struct refusal *why, long long now_ms);

static void replay_action(void *ctx, int seat, const char *text)
{
	struct replay_ctx *r = ctx;
	struct action a;
	char err[128];
	struct refusal why;
	if (r->bad)
		return;
	if (act_parse(text, &a, err, sizeof err) < 0 || r->h->g->to_act(r->h->st) != seat ||
	    apply_one(r->h, seat, &a, &why, 0) < 0)
		r->bad = 1;
}

int host_restore(struct host *h, const struct store_table *t, struct store *store,
                 const struct host_config *cfg, struct net_out out, long long now_ms, char *err,
                 size_t errlen)
{
	const struct game_ops *g = game_find(t->game);
	if (!g) {
		snprintf(err, errlen, "table %ld: no game '%s'", t->id, t->game);
		return -1;
	}
	struct rules rules;
	rules_init(&rules, g->rules, g->nrules);
	char buf[STORE_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", t->rules);
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (rules_set_arg(&rules, line, err, errlen) < 0)
			return -1;
	if (t->players < g->min_players || t->players > g->max_players) {
		snprintf(err, errlen, "table %ld: %d players", t->id, t->players);
		return -1;
	}
	if (setup(h, t->id, g, t->players, &rules, t->seed, store, cfg, out, err, errlen) < 0) {
		host_free(h);
		return -1;
	}
	snprintf(h->creator, sizeof h->creator, "%s", t->creator);
	h->private_ = t->private_;
	snprintf(h->pwhash, sizeof h->pwhash, "%s", t->pwhash);
	json_t *seats = json_loads(t->seats, 0, NULL);
	for (int s = 0; s < h->players && json_is_array(seats); s++) {
		json_t *x = json_array_get(seats, (size_t)s);
		const char *name = json_string_value(json_object_get(x, "name"));
		snprintf(h->seat[s].name, sizeof h->seat[s].name, "%s", name ? name : "");
		h->seat[s].open = json_is_true(json_object_get(x, "open"));
		h->seat[s].level = (int)json_integer_value(json_object_get(x, "level"));
		if (h->seat[s].name[0] && h->nmembers < HOST_MAX_MEMBERS) {
			struct host_member *m = &h->member[h->nmembers++];
			snprintf(m->name, sizeof m->name, "%s", h->seat[s].name);
			snprintf(m->lang, sizeof m->lang, "en");
			m->conn = -1;
			m->seat = s;
			h->seat[s].away_ms = now_ms;
		}
	}
	json_decref(seats);
	h->state = HOST_WAITING;
	if (t->state != HOST_WAITING) {
		h->replaying = 1;
		if (begin(h, err, errlen) < 0) {
			host_free(h);
			return -1;
		}
		struct replay_ctx r = { h, 0 };
		store_journal_each(store, h->id, replay_action, &r);
		h->replaying = 0;
		if (r.bad) {
			snprintf(err, errlen, "table %ld: its journal does not replay", h->id);
			host_free(h);
			return -1;
		}
		if (h->g->to_act(h->st) < 0)
			h->state = HOST_OVER;
	}
	return 0;
}

void host_free(struct host *h)
{
	hist_release(&h->hist);
	for (int i = 0; i < h->nmembers; i++)
		for (int k = 0; k < h->member[i].nmissed; k++)
			free(h->member[i].missed[k]);
	free(h->st);
	free(h->view);
	free(h->pending);
	memset(h, 0, sizeof *h);
}

/* Apply an action of seat; journal it, tell it. 0, or -1 refused. */
static int apply_one(struct host *h, int seat, const struct action *a, struct refusal *why, long long now_ms)
{
	struct sink s = { on_event, h };
	memset(why, 0, sizeof *why);
	if (h->g->apply(h->st, a, &s, why) < 0)
		return -1;
	if (!h->replaying) {
		char txt[ACT_STR_MAX];
		store_journal_add(h->store, h->id, h->nactions, seat, act_format(a, txt, sizeof txt));
	}
	h->nactions++;
	if (h->g->to_act(h->st) < 0) {
		h->state = HOST_OVER;
		host_save(h);
		hist_release(&h->hist);
	}
	h->next_bot_ms = now_ms + h->cfg->bot_delay_ms;
	flush(h, now_ms);
	return 0;
}

int host_join(struct host *h, const char *name, const char *lang, long conn, int seat, long long now_ms,
              char *err, size_t errlen)
{
	struct host_member *m = host_member(h, name);
	int held = seat_of(h, name);
	if (seat >= 0 && held < 0) {
		if (seat >= h->players) {
			snprintf(err, errlen, "this table has %d seats", h->players);
			return -1;
		}
		if (h->seat[seat].name[0] || !h->seat[seat].open) {
			snprintf(err, errlen, "seat %d is not free", seat);
			return -1;
		}
	}
	if (!m) {
		if (h->nmembers == HOST_MAX_MEMBERS) {
			snprintf(err, errlen, "this table is full");
			return -1;
		}
		m = &h->member[h->nmembers++];
		memset(m, 0, sizeof *m);
		snprintf(m->name, sizeof m->name, "%s", name);
		m->seat = -1;
	}
	snprintf(m->lang, sizeof m->lang, "%s", lang);
	m->conn = conn;
	int back = 0;
	if (held >= 0) {
		m->seat = held;
		back = h->seat[held].away_ms != 0;
		h->seat[held].away_ms = 0;
		h->seat[held].bot_told = 0;
	} else if (seat >= 0) {
		snprintf(h->seat[seat].name, sizeof h->seat[seat].name, "%s", name);
		h->seat[seat].away_ms = 0;
		m->seat = seat;
		host_save(h);
	} else {
		m->seat = -1;
	}
	/* What was missed, bounded, then where the table is. */
	if (m->nmissed || m->dropped) {
		json_t *o = json_pack("{s:s, s:I, s:i, s:[]}", "type", "missed", "table", (json_int_t)h->id,
		                      "dropped", m->dropped, "says");
		json_t *arr = json_object_get(o, "says");
		for (int i = 0; i < m->nmissed; i++) {
			json_t *x = json_loads(m->missed[i], 0, NULL);
			if (x)
				json_array_append_new(arr, x);
			free(m->missed[i]);
		}
		m->nmissed = m->dropped = 0;
		send_to(h, m, proto_dump(o));
	}
	lang_use(m->lang);
	int prompt = h->state == HOST_PLAYING && m->seat >= 0 && h->g->to_act(h->st) == m->seat;
	int n = h->npending;
	h->npending = 0;
	tell_member(h, m, prompt);
	h->npending = n;
	if (back)
		announce(h, N_("%s is back."), name);
	else if (m->seat >= 0 && held < 0)
		announce(h, N_("%s sits down."), name);
	(void)now_ms;
	return 0;
}

void host_disconnect(struct host *h, const char *name, long long now_ms)
{
	struct host_member *m = host_member(h, name);
	if (!m)
		return;
	m->conn = -1;
	if (m->seat < 0) {
		/* A spectator who leaves is forgotten. */
		*m = h->member[--h->nmembers];
		return;
	}
	h->seat[m->seat].away_ms = now_ms ? now_ms : 1;
	h->seat[m->seat].bot_told = 0;
}

void host_stand(struct host *h, const char *name, int leave)
{
	struct host_member *m = host_member(h, name);
	int s = seat_of(h, name);
	if (s >= 0) {
		h->seat[s].name[0] = '\0';
		h->seat[s].away_ms = 0;
		h->seat[s].open = 1;
		host_save(h);
		announce(h, h->state == HOST_PLAYING ? N_("%s stands up. A bot plays the seat.") : N_("%s stands up."),
		         name);
	}
	if (!m)
		return;
	if (leave) {
		for (int k = 0; k < m->nmissed; k++)
			free(m->missed[k]);
		*m = h->member[--h->nmembers];
	} else {
		m->seat = -1;
		if (m->conn >= 0)
			send_to(h, m, state_msg(h, m));
	}
}

int host_set_seat(struct host *h, int seat, int open, int level, char *err, size_t errlen)
{
	if (seat >= h->players) {
		snprintf(err, errlen, "this table has %d seats", h->players);
		return -1;
	}
	if (h->seat[seat].name[0]) {
		snprintf(err, errlen, "seat %d is held by a player", seat);
		return -1;
	}
	h->seat[seat].open = open;
	h->seat[seat].level = level;
	host_save(h);
	return 0;
}

int host_start(struct host *h, long long now_ms, char *err, size_t errlen)
{
	if (h->state != HOST_WAITING) {
		snprintf(err, errlen, "the game has already begun");
		return -1;
	}
	if (begin(h, err, errlen) < 0)
		return -1;
	host_save(h);
	h->next_bot_ms = now_ms + h->cfg->bot_delay_ms;
	flush(h, now_ms);
	return 0;
}

int host_action(struct host *h, const char *name, const struct action *a, long long now_ms)
{
	struct host_member *m = host_member(h, name);
	int seat = seat_of(h, name);
	const char *code = NULL;
	if (h->state != HOST_PLAYING)
		code = "not_playing";
	else if (seat < 0)
		code = "not_seated";
	else if (h->g->to_act(h->st) != seat)
		code = "not_your_turn";
	if (code) {
		if (m && m->conn >= 0)
			h->out.send(h->out.ctx, m->conn,
			            proto_error(code, !strcmp(code, "not_your_turn") ? "it is not your turn"
			                              : !strcmp(code, "not_seated") ? "you hold no seat at this table"
			                                                            : "the game is not being played",
			                        "action"));
		return -1;
	}
	struct refusal why;
	if (apply_one(h, seat, a, &why, now_ms) < 0) {
		if (m && m->conn >= 0) {
			lang_use(m->lang);
			struct talk tk = { h->g, seat, h->players };
			struct sbuf b;
			ann_refusal(&tk, h->gt, view_for(h, seat), &why, &b);
			char txt[ACT_STR_MAX];
			json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s}", "type", "refused", "table", (json_int_t)h->id,
			                      "action", act_format(a, txt, sizeof txt), "text", b.s, "cue",
			                      audio_cue_name(CUE_ILLEGAL));
			h->out.send(h->out.ctx, m->conn, proto_dump(o));
		}
		return -1;
	}
	return 0;
}

int host_tick(struct host *h, long long now_ms)
{
	if (h->state != HOST_PLAYING)
		return 0;
	for (int s = 0; s < h->players; s++)
		if (h->seat[s].name[0] && h->seat[s].away_ms && !h->seat[s].bot_told && bot_plays(h, s, now_ms)) {
			h->seat[s].bot_told = 1;
			announce(h, N_("%s is away. A bot plays for them."), h->seat[s].name);
		}
	int seat = h->g->to_act(h->st);
	if (seat < 0 || !bot_plays(h, seat, now_ms) || now_ms < h->next_bot_ms)
		return 0;
	struct action a;
	bot_choose(h->g, h->st, h->seat[seat].level, &h->bot_rng, &a);
	struct refusal why;
	if (apply_one(h, seat, &a, &why, now_ms) < 0) {
		char txt[ACT_STR_MAX];
		fprintf(stderr, "tapis serve: table %ld: the bot's action '%s' was refused (%d)\n", h->id,
		        act_format(&a, txt, sizeof txt), why.code);
		h->state = HOST_OVER;
		host_save(h);
	}
	return 1;
}

void host_chat(struct host *h, const char *from, const char *text)
{
	json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s}", "type", "chat", "table", (json_int_t)h->id, "from", from,
	                      "text", text, "cue", "chat");
	char *s = proto_dump(o);
	if (!s)
		return;
	for (int i = 0; i < h->nmembers; i++)
		send_to(h, &h->member[i], strdup(s));
	free(s);
}
