/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "core/clock.h"
#include "core/deckfile.h"
#include "core/err.h"
#include "core/file.h"
#include "app/log.h"
#include "core/paths.h"
#include "core/xalloc.h"
#include "words/announce.h"
#include "words/french.h"
#include "i18n/i18n.h"

static void on_event(void *ctx, const struct event *e)
{
	struct table *t = ctx;
	hist_event(&t->hist, e);
	ev_emit(&t->tap, e);
	xgrow((void **)&t->pending, &t->cap_pending, t->npending + 1, sizeof *t->pending);
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
	if (!t->player.tell || !text || !*text)
		return;
	/* Made final here as a view's texts are (the player hears them as they
	 * are): the French contractions of a title ("la partie du Brelan"). */
	char fr[SBUF_SIZE];
	if (!strcmp(i18n_lang(), "fr") && strlen(text) < sizeof fr)
		text = french_contract(text, fr, sizeof fr);
	t->player.tell(t->player.ctx, text, flags);
}

void table_set_player(struct table *t, const struct table_player *p)
{
	if (p)
		t->player = *p;
	else
		memset(&t->player, 0, sizeof t->player);
}

struct view *table_local_view(const struct table *t)
{
	return t->player.view;
}

int table_attach(struct table *t, struct view *v, const struct table_ear *ear)
{
	for (int i = 0; i < t->nviews; i++)
		if (t->views[i] == v)
			return 0;
	if (t->nviews == TABLE_MAX_VIEWS)
		return -1;
	t->ears[t->nviews] = ear;
	t->views[t->nviews++] = v;
	if (t->started && !t->silent)
		ear->refresh(v);
	return 0;
}

void table_detach(struct table *t, struct view *v)
{
	for (int i = 0; i < t->nviews; i++)
		if (t->views[i] == v) {
			memmove(&t->views[i], &t->views[i + 1], (size_t)(t->nviews - i - 1) * sizeof t->views[0]);
			memmove(&t->ears[i], &t->ears[i + 1], (size_t)(t->nviews - i - 1) * sizeof t->ears[0]);
			t->nviews--;
			return;
		}
}

void table_refresh_views(struct table *t)
{
	for (int i = 0; i < t->nviews; i++)
		t->ears[i]->refresh(t->views[i]);
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
			t->ears[i]->remember(t->views[i], t->pending, n);
		return;
	}
	for (int i = 0; i < t->nviews; i++)
		t->ears[i]->events(t->views[i], t->pending, n);
	table_refresh_views(t);
}

/* Keep the action just applied: only the actions of the deal being played
 * stay in memory (those before live in the saved game, the journal and the
 * hand history), so that a game of any length holds the same. The action
 * that began a deal is kept with it. */
static void remember_action(struct table *t, int seat, const struct action *a)
{
	int deal_begins = 0;
	for (int i = 0; i < t->npending; i++)
		deal_begins |= t->pending[i].type == EV_HAND_START;
	int kept = t->nplayed - t->played_from;
	if (deal_begins) {
		t->played_from = t->nplayed;
		kept = 0;
	}
	if (kept == t->cap_played) {
		xgrow((void **)&t->played, &t->cap_played, kept + 1, sizeof *t->played);
		t->played_seat = xrealloc(t->played_seat, (size_t)t->cap_played * sizeof *t->played_seat);
	}
	t->played[kept] = *a;
	t->played_seat[kept] = seat;
	t->nplayed++;
}

int table_open(struct table *t, const struct table_options *opt, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	save_writer_init(&t->save);
	t->opt = *opt;
	t->g = opt->game;
	const struct registry_game *r = registry_find(t->g->name);
	t->bot = r ? r->bot : NULL;
	t->gt = r ? r->talk : NULL;
	t->st = xcalloc(1, t->g->state_size);
	t->view = xcalloc(1, t->g->state_size);
	card_t pack[CARD_MAX_PACK];
	int npack = t->g->pack(&t->opt.rules, opt->players, pack, err, errlen);
	if (npack < 0) {
		table_close(t);
		return -1;
	}
	if (opt->deck_path) {
		t->stack = xmalloc(sizeof *t->stack);
		if (deckfile_load(opt->deck_path, pack, npack, t->stack, err, errlen) < 0) {
			table_close(t);
			return -1;
		}
	} else if (opt->deck_stack) {
		t->stack = xmalloc(sizeof *t->stack);
		*t->stack = *opt->deck_stack;
	}
	t->opt.deck_stack = NULL;   /* the table's own copy is t->stack */
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
	if (opt->log_path && hist_open_mode(&t->hist, opt->log_path, (enum hist_mode)opt->log_mode, err, errlen) < 0) {
		table_close(t);
		return -1;
	}
	if (opt->log_path && opt->log_shut)
		hist_shut(&t->hist);
	rng_seed(&t->bot_rng, rng_derive(opt->seed, 0x626f7473)); /* the bots' stream */
	t->talk.game = t->g;
	t->talk.players = opt->players;
	t->talk.me = -1;
	for (int s = 0; s < opt->players; s++)
		if (opt->seat_kind[s] == SEAT_HUMAN) {
			t->talk.me = s;
			break;
		}
	return 0;
}

int table_output_failed(const struct table *t, char *err, size_t errlen)
{
	if (hist_failed(&t->hist, err, errlen) < 0)
		return -1;
	FILE *out = t->player.text;
	if (out && ferror(out))
		return errf(err, errlen, "the announcements could not be written to %s",
		            out == stdout ? "standard output" : "their stream");
	return 0;
}

int table_finish_output(struct table *t, char *err, size_t errlen)
{
	if (t->player.text)
		fflush(t->player.text);
	if (table_output_failed(t, err, errlen) < 0) {
		hist_release(&t->hist);
		return -1;
	}
	return hist_close(&t->hist, err, errlen);
}

void table_close(struct table *t)
{
	/* Views still attached are the owners' to release; they hear no more. */
	for (int i = 0; i < t->nviews; i++)
		t->ears[i]->gone(t->views[i]);
	save_close(&t->save);
	hist_release(&t->hist);
	script_release(&t->script);
	free(t->st);
	free(t->view);
	free(t->stack);
	free(t->pending);
	free(t->played);
	free(t->played_seat);
	free(t->undo);
	memset(t, 0, sizeof *t);
}

void table_set_names(struct table *t, const char *const *person)
{
	int changed = !t->named;
	for (int s = 0; s < t->opt.players; s++) {
		const char *p = person && person[s] ? person[s] : "";
		if (strncmp(t->person[s], p, sizeof t->person[s] - 1)) {
			snprintf(t->person[s], sizeof t->person[s], "%s", p);
			changed = 1;
		}
	}
	t->named = 1;
	if (!changed)
		return;
	for (int i = 0; i < t->nviews; i++)
		t->ears[i]->names(t->views[i]);
	if (t->started)
		table_refresh_views(t);
}

void table_start(struct table *t)
{
	const char *person[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		person[s] = t->person[s];
	hist_game_start(&t->hist, t->g->name, t->opt.players, t->opt.seed, t->opt.seed_from, &t->opt.rules,
	                t->named ? person : NULL);
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

/* Tell the player once that the game is not (or no longer) saved; play
 * goes on. */
static void save_failed(struct table *t, const char *sentence, const char *where, int e)
{
	save_close(&t->save);
	if (t->save_failed)
		return;
	t->save_failed = 1;
	struct sbuf b;
	sb_clear(&b);
	if (where)
		sb_printf(&b, sentence, where, strerror(e));
	else
		sb_puts(&b, sentence);
	table_say(t, b.s, 0);   /* SPEECH_QUEUE: after what is being said */
	/* Printed as well, unless the player reads the game as text. */
	if (!t->player.text)
		log_say("%s", b.s);
}

static void folder_of(const char *path, char *dir, size_t len)
{
	snprintf(dir, len, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
}

/* A save that was being written no longer can be. */
static void save_broken(struct table *t, const char *path, int e)
{
	char dir[PATHS_MAX];
	folder_of(path, dir, sizeof dir);
	save_failed(t, _("Game no longer saved in %1$s: %2$s."), dir, e);
}

/* Append the action just applied; the end of a deal makes it durable. */
static void save_action(struct table *t, int seat, const struct action *a)
{
	if (t->save.fd < 0)
		return;
	char txt[ACT_STR_MAX], rec[ACT_STR_MAX + 32], err[256];
	snprintf(rec, sizeof rec, "action %d %s", seat, act_format(a, txt, sizeof txt));
	int rc = save_append(&t->save, rec, err, sizeof err);
	int deal_end = 0;
	for (int i = 0; i < t->npending; i++)
		deal_end |= t->pending[i].type == EV_HAND_END || t->pending[i].type == EV_GAME_END;
	/* Durable at the end of a deal; at most once a second, so that bots
	 * dealing hundreds of deals a second are not held up by the disk. */
	double at = clock_s();
	if (rc == 0 && deal_end && at - t->save_synced_at >= 1.0) {
		rc = save_sync(&t->save, err, sizeof err);
		t->save_synced_at = at;
	}
	if (rc < 0)
		save_broken(t, t->save.path, errno);
}

static int apply(struct table *t, int seat, const struct action *a, struct refusal *why)
{
	struct sink s = { on_event, t };
	memset(why, 0, sizeof *why);
	int kept = t->commit && !t->silent;
	struct hist_mark mark = hist_mark(&t->hist);
	if (kept)
		memcpy(t->undo, t->st, t->g->state_size);
	if (t->g->apply(t->st, a, &s, why) < 0) {
		if (kept)
			hist_rewind(&t->hist, mark);
		return -1;
	}
	if (kept) {
		/* Written and stored, or undone before anyone hears of it. */
		int code = hist_sync(&t->hist) < 0                      ? TABLE_NOT_LOGGED
		           : t->commit(t->commit_ctx, seat, a) < 0 ? TABLE_NOT_STORED
		                                                     : 0;
		if (code) {
			hist_rewind(&t->hist, mark);
			memcpy(t->st, t->undo, t->g->state_size);
			t->npending = 0;
			why->code = code;
			return -1;
		}
	}
	remember_action(t, seat, a);
	t->moves++;
	save_action(t, seat, a);
	flush_events(t);
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
			errf(err, errlen, "%s:%d: '%s': seat %d must act now, not seat %d", t->script.name,
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
			struct sbuf b;
			struct talk tk = t->talk;
			tk.me = seat;
			tk.lang = i18n_of("en");
			memcpy(t->view, t->st, t->g->state_size);
			t->g->redact(t->view, seat);
			ann_refusal(&tk, t->gt, t->view, &why, &b);
			errf(err, errlen, "%s:%d: '%s' refused: %s", t->script.name, line->line, line->text, b.s);
			return 3;
		}
		return 0;
	}
	struct action a;
	bot_choose(t->g, t->bot, t->st, t->opt.bot_level[seat], &t->bot_rng, &a);
	if (apply(t, seat, &a, &why) < 0) {
		if (why.code == TABLE_NOT_STORED || why.code == TABLE_NOT_LOGGED) {
			errf(err, errlen, "the move could not be %s", why.code == TABLE_NOT_STORED ? "stored" : "logged");
			return why.code == TABLE_NOT_STORED ? 4 : 5;
		}
		char txt[ACT_STR_MAX];
		errf(err, errlen, "internal error: the bot's action '%s' was refused (%d)",
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

void table_set_seat(struct table *t, int seat, int kind, int level)
{
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		return;
	t->opt.seat_kind[seat] = kind;
	t->opt.bot_level[seat] = level;
}

int table_played(const struct table *t)
{
	return t->nplayed;
}

int table_moves(const struct table *t)
{
	return t->moves;
}

int table_journal(const struct table *t, int i, int *seat, struct action *a)
{
	if (i < t->played_from || i >= t->nplayed)
		return -1;
	if (seat)
		*seat = t->played_seat[i - t->played_from];
	if (a)
		*a = t->played[i - t->played_from];
	return 0;
}

int table_kept(const struct table *t, int *cap)
{
	if (cap)
		*cap = t->cap_played;
	return t->nplayed - t->played_from;
}

int table_log_flush(struct table *t)
{
	return hist_sync(&t->hist);
}

void table_set_commit(struct table *t, int (*commit)(void *ctx, int seat, const struct action *a), void *ctx)
{
	t->commit = commit;
	t->commit_ctx = ctx;
	if (!t->undo)
		t->undo = xcalloc(1, t->g->state_size);
	hist_hold(&t->hist);
}

int table_log_reconcile(struct table *t, char *err, size_t errlen)
{
	return hist_reconcile(&t->hist, err, errlen);
}

int table_log_link(struct table *t, const char *path, char *err, size_t errlen)
{
	return hist_link(&t->hist, path, err, errlen);
}

const struct rules *table_rules(const struct table *t)
{
	return &t->opt.rules;
}

int table_awaits(const struct table *t, int seat)
{
	return seat >= 0 && seat == table_to_act(t) && !table_auto_turn(t);
}

int table_saving(const struct table *t)
{
	return t->save.fd >= 0;
}

int table_save_begin(struct table *t, const char *path, int replace)
{
	if (!path) {
		save_failed(t, _("Game not saved: no home directory."), NULL, 0);
		return -1;
	}
	struct sbuf h;
	sb_clear(&h);
	sb_printf(&h, "game %s\nplayers %d\nseed %llu\ndealer %d\nseats ", t->g->name, t->opt.players,
	          (unsigned long long)t->opt.seed, t->opt.dealer);
	for (int s = 0; s < t->opt.players; s++)
		sb_printf(&h, s ? ",%s" : "%s", t->opt.seat_kind[s] == SEAT_HUMAN ? "human" : "bot");
	sb_puts(&h, "\nlevels ");
	for (int s = 0; s < t->opt.players; s++)
		sb_printf(&h, s ? ",%d" : "%d", t->opt.bot_level[s]);
	sb_puts(&h, "\n");
	for (int i = 0; i < t->opt.rules.n; i++) {
		char buf[32];
		sb_printf(&h, "rule %s=%s\n", t->opt.rules.defs[i].key,
		          rules_value_str(&t->opt.rules, i, buf, sizeof buf));
	}
	char *header = xmalloc(h.len + (t->stack ? (size_t)t->stack->npacks * (CARD_MAX_PACK * 4 + 8) : 0) + 1);
	size_t n = (size_t)h.len;
	memcpy(header, h.s, n);
	/* The stacked packs themselves, not the name of the file they came from. */
	for (int k = 0; t->stack && k < t->stack->npacks; k++) {
		memcpy(header + n, "pack", 4);
		n += 4;
		for (int i = 0; i < t->stack->size[k]; i++) {
			char c[8];
			header[n++] = ' ';
			card_str(t->stack->cards[k][i], c);
			memcpy(header + n, c, strlen(c));
			n += strlen(c);
		}
		header[n++] = '\n';
	}
	header[n] = '\0';
	char err[ERR_MAX];
	int rc = save_create(&t->save, path, header, replace, err, sizeof err);
	int e = errno;
	free(header);
	if (rc < 0) {
		char dir[PATHS_MAX];
		folder_of(path, dir, sizeof dir);
		save_failed(t, _("Game not saved in %1$s: %2$s."), dir, e);
	}
	return rc;
}

int table_save_resume(struct table *t, const char *path, const struct table_saved *s)
{
	char err[ERR_MAX];
	if (save_reopen(&t->save, path, s->valid_len, s->crc, err, sizeof err) < 0) {
		save_broken(t, path, errno);
		return -1;
	}
	return 0;
}

void table_save_sync(struct table *t)
{
	char err[ERR_MAX];
	if (save_sync(&t->save, err, sizeof err) < 0)
		save_broken(t, t->save.path, errno);
}

/* A whole number in [lo, hi] and nothing else. */
static int save_number(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* One header line "KEY VALUE" into s->opt; packs are gathered into deck
 * text. 0, or -1 with the problem in why. */
static int save_header_line(struct table_saved *s, char *line, char *deck, size_t *decklen,
                            char *why, size_t whylen)
{
	struct table_options *o = &s->opt;
	char *sp = strchr(line, ' ');
	if (!sp)
		return errf(why, whylen, "'%s': no value", line);
	*sp = '\0';
	const char *key = line, *val = sp + 1;
	long long v;
	if (!strcmp(key, "game")) {
		if (o->game || !(o->game = registry_ops(val)))
			return errf(why, whylen, "unknown game '%s'", val);
		rules_init(&o->rules, o->game->rules, o->game->nrules);
		return 0;
	}
	if (!o->game)
		return errf(why, whylen, "'%s' before the game", key);
	if (!strcmp(key, "players")) {
		if (save_number(val, o->game->min_players, o->game->max_players, &v) < 0)
			goto bad;
		o->players = (int)v;
	} else if (!strcmp(key, "seed")) {
		char *end;
		errno = 0;
		unsigned long long u = strtoull(val, &end, 10);
		if (!*val || *val == '-' || *end || errno)
			goto bad;
		o->seed = u;
	} else if (!strcmp(key, "dealer")) {
		if (o->players <= 0 || save_number(val, -1, o->players - 1, &v) < 0)
			goto bad;
		o->dealer = (int)v;
	} else if (!strcmp(key, "seats") || !strcmp(key, "levels")) {
		int seats = !strcmp(key, "seats"), k = 0;
		char buf[512];
		snprintf(buf, sizeof buf, "%s", val);
		char *save = NULL;
		for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), k++) {
			if (k >= o->players)
				goto bad;
			if (seats && (!strcmp(tok, "human") || !strcmp(tok, "bot")))
				o->seat_kind[k] = !strcmp(tok, "human") ? SEAT_HUMAN : SEAT_BOT;
			else if (!seats && save_number(tok, 0, 9, &v) == 0)
				o->bot_level[k] = (int)v;
			else
				goto bad;
		}
		if (k != o->players)
			goto bad;
	} else if (!strcmp(key, "rule")) {
		if (rules_set_arg(&o->rules, val, why, whylen) < 0)
			return -1;
	} else if (!strcmp(key, "pack")) {
		*decklen += (size_t)sprintf(deck + *decklen, "%s\n--\n", val);
	} else {
		return errf(why, whylen, "unknown line '%s'", key);
	}
	return 0;
bad:
	return errf(why, whylen, "%s: '%s' is not valid", key, val);
}

/* One record of a save: an action, added to s->actions. */
static int saved_record(void *ctx, const char *r, int lineno, char *err, size_t errlen)
{
	struct table_saved *s = ctx;
	struct script one;
	char why[ERR_MAX];
	memset(&one, 0, sizeof one);
	if (strncmp(r, "action ", 7) != 0 ||
	    script_parse(&one, r + 7, s->actions.name, s->opt.players, why, sizeof why) < 0 || one.n != 1) {
		errf(err, errlen, "%s:%d: '%s' is not an action", s->actions.name, lineno, r);
		script_release(&one);
		return -1;
	}
	xgrow((void **)&s->actions.lines, &s->actions.cap, s->actions.n + 1, sizeof *s->actions.lines);
	one.lines[0].line = lineno;
	s->actions.lines[s->actions.n++] = one.lines[0];
	script_release(&one);
	return 0;
}

/* The header of a save read: the options, the stacked packs. */
static int saved_header(struct table_saved *s, const struct save_file *f, const char *path, char *err,
                        size_t errlen)
{
	struct table_options *o = &s->opt;
	char why[ERR_MAX] = "";
	int rc = 0;
	/* The packs as --deck text, for its checks: no longer than the header. */
	size_t decklen = 0, room = 1;
	for (int i = 0; i < f->nheader; i++)
		room += strlen(f->header[i]) + 4;
	char *deck = xmalloc(room);
	deck[0] = '\0';
	for (int i = 0; i < f->nheader && rc == 0; i++)
		if (save_header_line(s, f->header[i], deck, &decklen, why, sizeof why) < 0) {
			errf(err, errlen, "%s:%d: %s", path, i + 2, why);
			rc = -1;
		}
	if (rc == 0 && (!o->game || o->players <= 0)) {
		errf(err, errlen, "%s: no game or no players in the header", path);
		rc = -1;
	}
	if (rc == 0 && decklen) {
		card_t pack[CARD_MAX_PACK];
		int npack = o->game->pack(&o->rules, o->players, pack, why, sizeof why);
		if (npack < 0 || deckfile_parse(deck, path, pack, npack, &s->stack, why, sizeof why) < 0) {
			errf(err, errlen, "%s: the stacked packs: %s", path, why);
			rc = -1;
		} else {
			o->deck_stack = &s->stack;
		}
	}
	free(deck);
	return rc;
}

/* A record before the header was read: read it first. */
struct saved_scan {
	struct table_saved *s;
	struct save_file *f;
	const char *path;
	int header_done;
};

static int saved_scan_record(void *ctx, const char *r, int lineno, char *err, size_t errlen)
{
	struct saved_scan *sc = ctx;
	if (!sc->header_done) {
		if (saved_header(sc->s, sc->f, sc->path, err, errlen) < 0)
			return -1;
		sc->header_done = 1;
	}
	return saved_record(sc->s, r, lineno, err, errlen);
}

/* Read a save line by line from in (named path): the header, then every
 * action (a save of any length: never read whole). */
static int read_saved(struct file_lines *in, int zero_tail, const char *path, struct table_saved *s,
                      char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->opt.dealer = -1;
	snprintf(s->actions.name, sizeof s->actions.name, "%s", path);
	struct save_file f;
	struct saved_scan sc = { s, &f, path, 0 };
	int rc = save_scan(in, zero_tail, &f, saved_scan_record, &sc, err, errlen);
	if (rc == 0 && !sc.header_done)
		rc = saved_header(s, &f, path, err, errlen);
	if (rc == 0) {
		s->valid_len = f.valid_len;
		s->crc = f.crc;
		s->torn = f.torn;
	}
	save_file_release(&f);
	if (rc < 0)
		table_saved_release(s);
	return rc;
}

int table_read_save(const char *path, struct table_saved *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	struct file_lines in;
	if (file_lines_open(&in, path, SAVE_READ_LINE_MAX, err, errlen) < 0)
		return -1;
	int rc = read_saved(&in, 1, path, s, err, errlen);
	file_lines_close(&in);
	return rc;
}

int table_parse_save(const char *text, size_t len, const char *path, struct table_saved *s,
                     char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	if (len == 0)
		return errf(err, errlen, "%s:0: the saved game is cut short", path);
	FILE *f = fmemopen((void *)text, len, "r");
	if (!f)
		return errf(err, errlen, "%s: %s", path, strerror(errno));
	struct file_lines in;
	file_lines_stream(&in, f, path, SAVE_READ_LINE_MAX);
	int rc = read_saved(&in, 0, path, s, err, errlen);
	file_lines_close(&in);
	fclose(f);
	return rc;
}

void table_saved_release(struct table_saved *s)
{
	script_release(&s->actions);
	s->opt.deck_stack = NULL;
}

int table_replay(struct table *t, const struct script *actions, char *err, size_t errlen)
{
	t->silent++;
	int rc = 0;
	for (int i = 0; i < actions->n; i++) {
		const struct script_line *l = &actions->lines[i];
		struct refusal why;
		if (table_to_act(t) != l->seat || apply(t, l->seat, &l->act, &why) < 0) {
			errf(err, errlen, "%s:%d: '%s' does not apply", actions->name, l->line, l->text);
			rc = -1;
			break;
		}
	}
	t->npending = 0;
	t->silent--;
	return rc;
}
