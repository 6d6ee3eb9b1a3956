#include "app/table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/local.h"
#include "app/view.h"
#include "bots/bot.h"
#include "core/deckfile.h"
#include "speech/announce.h"
#include "speech/i18n.h"
#include "speech/speech.h"

static void on_event(void *ctx, const struct event *e)
{
	struct table *t = ctx;
	hist_event(&t->hist, e);
	ev_emit(&t->tap, e);
	if (t->npending == t->cap_pending) {
		int cap = t->cap_pending ? t->cap_pending * 2 : 32;
		struct event *p = realloc(t->pending, (size_t)cap * sizeof *p);
		if (!p)
			return; /* announcements of this action are lost; the game goes on */
		t->pending = p;
		t->cap_pending = cap;
	}
	t->pending[t->npending++] = *e;
}

const void *table_view(struct table *t)
{
	memcpy(t->view, t->st, t->g->state_size);
	if (t->talk.me >= 0)
		t->g->redact(t->view, t->talk.me);
	return t->view;
}

void table_say(struct table *t, const char *text, int flags)
{
	struct view *v = table_local_view(t);
	if (!v || !text || !*text || !v->sink.say)
		return;
	struct view_say m;
	memset(&m, 0, sizeof m);
	m.kind = VIEW_SAY_SYSTEM;
	m.interrupt = (flags & SPEECH_INTERRUPT) != 0;
	m.cue = -1;
	m.seat = -1;
	snprintf(m.text, sizeof m.text, "%s", text);
	v->sink.say(v->sink.ctx, &m);
}

struct view *table_local_view(const struct table *t)
{
	return t->local ? &t->local->view : NULL;
}

int table_attach(struct table *t, struct view *v)
{
	for (int i = 0; i < t->nviews; i++)
		if (t->views[i] == v)
			return 0;
	if (t->nviews == TABLE_MAX_VIEWS)
		return -1;
	t->views[t->nviews++] = v;
	if (t->started && !t->silent)
		view_refresh(v);
	return 0;
}

void table_detach(struct table *t, struct view *v)
{
	for (int i = 0; i < t->nviews; i++)
		if (t->views[i] == v) {
			memmove(&t->views[i], &t->views[i + 1], (size_t)(t->nviews - i - 1) * sizeof t->views[0]);
			t->nviews--;
			return;
		}
}

void table_refresh_views(struct table *t)
{
	for (int i = 0; i < t->nviews; i++)
		view_refresh(t->views[i]);
}

/* Tell every view the events gathered while an action was applied, each in
 * its own language, then what each may now answer. */
static void flush_events(struct table *t)
{
	int n = t->npending;
	t->npending = 0;
	/* What the table showed, kept for a listener attached later (L). */
	for (int k = 0; k < n; k++) {
		ann_remember(&t->talk, &t->pending[k]);
		if (t->pending[k].type == EV_HAND_START || t->pending[k].type == EV_DEAL)
			t->dealt = t->pending[k].type == EV_DEAL;
	}
	if (t->silent) {
		/* Nothing said, but the listeners know what was shown. */
		for (int i = 0; i < t->nviews; i++)
			view_remember(t->views[i], t->pending, n);
		return;
	}
	for (int i = 0; i < t->nviews; i++)
		view_events(t->views[i], t->pending, n);
	table_refresh_views(t);
}

static int remember_action(struct table *t, int seat, const struct action *a)
{
	if (t->nplayed == t->cap_played) {
		int cap = t->cap_played ? t->cap_played * 2 : 256;
		struct action *p = realloc(t->played, (size_t)cap * sizeof *p);
		int *s = realloc(t->played_seat, (size_t)cap * sizeof *s);
		if (p)
			t->played = p;
		if (s)
			t->played_seat = s;
		if (!p || !s)
			return -1;
		t->cap_played = cap;
	}
	t->played[t->nplayed] = *a;
	t->played_seat[t->nplayed++] = seat;
	return 0;
}

int table_open(struct table *t, const struct table_options *opt, struct speech *sp,
               struct audio *audio, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->opt = *opt;
	t->g = opt->game;
	t->gt = talk_find(t->g->name);
	t->st = calloc(1, t->g->state_size);
	t->view = calloc(1, t->g->state_size);
	if (!t->st || !t->view) {
		snprintf(err, errlen, "out of memory");
		table_close(t);
		return -1;
	}
	card_t pack[CARD_MAX_PACK];
	int npack = t->g->pack(&t->opt.rules, opt->players, pack, err, errlen);
	if (npack < 0) {
		table_close(t);
		return -1;
	}
	if (opt->deck_path) {
		t->stack = malloc(sizeof *t->stack);
		if (!t->stack || deckfile_load(opt->deck_path, pack, npack, t->stack, err, errlen) < 0) {
			table_close(t);
			return -1;
		}
	}
	if (opt->actions_path) {
		if (script_load(&t->script, opt->actions_path, opt->players, err, errlen) < 0) {
			table_close(t);
			return -1;
		}
		t->has_script = 1;
	}
	struct game_setup setup = { opt->players, opt->dealer, opt->seed, &t->opt.rules, t->stack };
	if (t->g->init(t->st, &setup, err, errlen) < 0) {
		table_close(t);
		return -1;
	}
	if (opt->log_path && hist_open(&t->hist, opt->log_path, err, errlen) < 0) {
		table_close(t);
		return -1;
	}
	rng_seed(&t->bot_rng, rng_derive(opt->seed, 0x626f7473)); /* the bots' stream */
	t->talk.game = t->g;
	t->talk.players = opt->players;
	t->talk.me = -1;
	for (int s = 0; s < opt->players; s++)
		if (opt->seat_kind[s] == SEAT_HUMAN) {
			t->talk.me = s;
			break;
		}
	if (sp || audio) {
		t->local = malloc(sizeof *t->local);
		if (!t->local || local_open(t->local, t, t->talk.me, sp, audio, err, errlen) < 0) {
			free(t->local);
			t->local = NULL;
			table_close(t);
			return -1;
		}
	}
	return 0;
}

void table_close(struct table *t)
{
	if (t->local) {
		local_close(t->local);
		free(t->local);
		t->local = NULL;
	}
	/* Views still attached are the owners' to release; they hear no more. */
	for (int i = 0; i < t->nviews; i++)
		t->views[i]->t = NULL;
	hist_release(&t->hist);
	script_release(&t->script);
	free(t->st);
	free(t->view);
	free(t->stack);
	free(t->pending);
	free(t->played);
	free(t->played_seat);
	memset(t, 0, sizeof *t);
}

void table_start(struct table *t)
{
	hist_game_start(&t->hist, t->g->name, t->opt.players, t->opt.seed, &t->opt.rules);
	struct event e;
	ev_init(&e, EV_GAME_START);
	e.nvalues = t->opt.players;
	on_event(t, &e);
	struct sink s = { on_event, t };
	t->g->start(t->st, &s);
	t->started = 1;
	flush_events(t);
}

int table_to_act(const struct table *t)
{
	return t->g->to_act(t->st);
}

int table_auto_turn(const struct table *t)
{
	int seat = table_to_act(t);
	if (seat < 0)
		return 0;
	if (t->has_script && script_peek(&t->script))
		return 1;
	return t->opt.seat_kind[seat] == SEAT_BOT;
}

static int apply(struct table *t, int seat, const struct action *a, struct refusal *why)
{
	struct sink s = { on_event, t };
	memset(why, 0, sizeof *why);
	if (t->g->apply(t->st, a, &s, why) < 0)
		return -1;
	remember_action(t, seat, a);
	t->moves++;
	flush_events(t);
	if (t->opt.save_path)
		table_save(t);
	return 0;
}

int table_auto_step(struct table *t, char *err, size_t errlen)
{
	int seat = table_to_act(t);
	if (seat < 0)
		return 0;
	struct refusal why;
	const struct script_line *line = t->has_script ? script_peek(&t->script) : NULL;
	if (line) {
		if (line->seat != seat) {
			snprintf(err, errlen, "%s:%d: '%s': seat %d must act now, not seat %d", t->script.name,
			         line->line, line->text, seat, line->seat);
			return 3;
		}
		/* The line is used before it is applied: the views then know
		 * whether the seat's player is awaited next. */
		struct script_line used = *line;
		line = &used;
		script_advance(&t->script);
		if (apply(t, seat, &line->act, &why) < 0) {
			/* The rule, in English whatever the language of play. */
			char lang[8];
			snprintf(lang, sizeof lang, "%s", i18n_lang());
			char ierr[64];
			i18n_set_lang("en", ierr, sizeof ierr);
			struct sbuf b;
			struct talk tk = t->talk;
			tk.me = seat;
			memcpy(t->view, t->st, t->g->state_size);
			t->g->redact(t->view, seat);
			ann_refusal(&tk, t->gt, t->view, &why, &b);
			i18n_set_lang(lang, ierr, sizeof ierr);
			snprintf(err, errlen, "%s:%d: '%s' refused: %s", t->script.name, line->line, line->text, b.s);
			return 3;
		}
		return 0;
	}
	struct action a;
	bot_choose(t->g, t->st, t->opt.bot_level[seat], &t->bot_rng, &a);
	if (apply(t, seat, &a, &why) < 0) {
		char txt[ACT_STR_MAX];
		snprintf(err, errlen, "internal error: the bot's action '%s' was refused (%d)",
		         act_format(&a, txt, sizeof txt), why.code);
		return 1;
	}
	return 0;
}

int table_play(struct table *t, const struct action *a, struct sbuf *why_text)
{
	int seat = table_to_act(t);
	struct refusal why;
	if (apply(t, seat, a, &why) < 0) {
		ann_refusal(&t->talk, t->gt, table_view(t), &why, why_text);
		return -1;
	}
	return 0;
}

int table_act(struct table *t, int seat, const struct action *a, struct refusal *why)
{
	if (seat < 0 || seat != table_to_act(t)) {
		memset(why, 0, sizeof *why);
		why->code = TABLE_NOT_YOUR_TURN;
		return -1;
	}
	return apply(t, seat, a, why);
}

int table_awaits(const struct table *t, int seat)
{
	return seat >= 0 && seat == table_to_act(t) && !table_auto_turn(t);
}

int table_save(const struct table *t)
{
	if (!t->opt.save_path)
		return -1;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", t->opt.save_path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "tapis-save 1\ngame %s\nplayers %d\nseed %llu\ndealer %d\n", t->g->name,
	        t->opt.players, (unsigned long long)t->opt.seed, t->opt.dealer);
	fprintf(f, "seats ");
	for (int s = 0; s < t->opt.players; s++)
		fprintf(f, s ? ",%s" : "%s", t->opt.seat_kind[s] == SEAT_HUMAN ? "human" : "bot");
	fprintf(f, "\nlevels ");
	for (int s = 0; s < t->opt.players; s++)
		fprintf(f, s ? ",%d" : "%d", t->opt.bot_level[s]);
	fprintf(f, "\n");
	for (int i = 0; i < t->opt.rules.n; i++) {
		char buf[32];
		fprintf(f, "rule %s=%s\n", t->opt.rules.defs[i].key, rules_value_str(&t->opt.rules, i, buf, sizeof buf));
	}
	if (t->opt.deck_path)
		fprintf(f, "deck %s\n", t->opt.deck_path);
	for (int i = 0; i < t->nplayed; i++) {
		char txt[ACT_STR_MAX];
		fprintf(f, "action %d %s\n", t->played_seat[i], act_format(&t->played[i], txt, sizeof txt));
	}
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		unlink(tmp);
		return -1;
	}
	return rename(tmp, t->opt.save_path);
}

int table_read_save(const char *path, struct table_options *o, struct script *actions,
                    char *err, size_t errlen)
{
	char *text = deckfile_slurp(path, err, errlen);
	if (!text)
		return -1;
	memset(o, 0, sizeof *o);
	memset(actions, 0, sizeof *actions);
	snprintf(actions->name, sizeof actions->name, "%s", path);
	int rc = 0, lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *sp = strchr(line, ' ');
		const char *val = sp ? sp + 1 : "";
		if (sp)
			*sp = '\0';
		if (lineno == 1) {
			if (strcmp(line, "tapis-save") != 0)
				rc = -1;
		} else if (!strcmp(line, "game")) {
			o->game = game_find(val);
			if (!o->game)
				rc = -1;
			else
				rules_init(&o->rules, o->game->rules, o->game->nrules);
		} else if (!strcmp(line, "players")) {
			o->players = atoi(val);
		} else if (!strcmp(line, "seed")) {
			o->seed = strtoull(val, NULL, 10);
		} else if (!strcmp(line, "dealer")) {
			o->dealer = atoi(val);
		} else if (!strcmp(line, "seats") || !strcmp(line, "levels")) {
			int seats = !strcmp(line, "seats");
			int k = 0;
			for (const char *p = val; *p && k < GAME_MAX_SEATS; k++) {
				if (seats)
					o->seat_kind[k] = strncmp(p, "human", 5) == 0 ? SEAT_HUMAN : SEAT_BOT;
				else
					o->bot_level[k] = atoi(p);
				p = strchr(p, ',');
				if (!p)
					break;
				p++;
			}
		} else if (!strcmp(line, "rule")) {
			if (!o->game || rules_set_arg(&o->rules, val, err, errlen) < 0)
				rc = -1;
		} else if (!strcmp(line, "deck")) {
			snprintf(o->deck_store, sizeof o->deck_store, "%s", val);
			o->deck_path = o->deck_store;
		} else if (!strcmp(line, "action")) {
			struct script one;
			memset(&one, 0, sizeof one);
			if (o->players <= 0 || script_parse(&one, val, path, o->players, err, errlen) < 0) {
				rc = -1;
				break;
			}
			if (one.n != 1) {
				script_release(&one);
				rc = -1;
				break;
			}
			if (actions->n == actions->cap) {
				actions->cap = actions->cap ? actions->cap * 2 : 256;
				struct script_line *nl = realloc(actions->lines, (size_t)actions->cap * sizeof *nl);
				if (!nl) {
					script_release(&one);
					rc = -1;
					break;
				}
				actions->lines = nl;
			}
			one.lines[0].line = lineno;
			actions->lines[actions->n++] = one.lines[0];
			script_release(&one);
		}
	}
	free(text);
	if (rc == 0 && (!o->game || o->players < o->game->min_players || o->players > o->game->max_players))
		rc = -1;
	if (rc < 0) {
		snprintf(err, errlen, "%s:%d: not a saved game of tapis", path, lineno);
		script_release(actions);
	}
	return rc;
}

int table_replay(struct table *t, const struct script *actions, char *err, size_t errlen)
{
	t->silent++;
	int rc = 0;
	for (int i = 0; i < actions->n; i++) {
		const struct script_line *l = &actions->lines[i];
		struct refusal why;
		if (table_to_act(t) != l->seat || apply(t, l->seat, &l->act, &why) < 0) {
			snprintf(err, errlen, "%s:%d: '%s' does not apply", actions->name, l->line, l->text);
			rc = -1;
			break;
		}
	}
	t->npending = 0;
	t->silent--;
	return rc;
}
