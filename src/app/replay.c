/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/opts.h"
#include "app/registry.h"
#include "app/table.h"
#include "app/view.h"
#include "core/action.h"
#include "core/card.h"
#include "core/err.h"
#include "core/event.h"
#include "core/file.h"
#include "core/game.h"
#include "core/history.h"
#include "core/rules.h"
#include "core/sbuf.h"
#include "core/xalloc.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"

/* ------------------------------------------------------------------ */
/* JSON: each line is read by jansson (no NUL, no duplicate member). */


/* One line as a JSON value (free with json_decref), or NULL with why and
 * the column of the problem. */
static json_t *jparse(const char *s, size_t len, json_error_t *why)
{
	return json_loadb(s, len, JSON_REJECT_DUPLICATES, why);
}

/* An integer member; -1 when missing or not an integer. */
static int jint(const json_t *obj, const char *key, long long *out)
{
	const json_t *v = json_object_get(obj, key);
	if (!json_is_integer(v))
		return -1;
	*out = (long long)json_integer_value(v);
	return 0;
}

static const char *jstr(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ------------------------------------------------------------------ */
/* The log, read once. */

enum { L_OTHER, L_GAME_START, L_HAND_START, L_ACTION };

#define REPLAY_MAX_PACKS 64  /* what a struct deckstack holds */

struct rline {
	int lineno;
	int type;
	int seat;          /* L_ACTION */
	struct action act; /* L_ACTION */
	char text[ACT_STR_MAX]; /* L_ACTION: the action as text */
};

struct rlog {
	struct file_lines *in;  /* the log, read again by each replay */
	const char *name;
	int n;              /* lines that are not blank */
	int last_lineno;    /* the number of the last of them */
	char *first;        /* the game_start line (owned) */
	size_t first_len;
	int first_lineno;
	const struct game_ops *g;
	int players;
	uint64_t seed;
	char seed_from[16];  /* game_start's seed_from, "" none */
	struct rules rules;
	int dealer0;        /* dealer of the first hand_start, -1 none */
	int hands;          /* hand_start lines */
	struct deckstack *packs;  /* the packs of the log, in order (at most 64) */
	int npacks;         /* packs read */
	int good_packs;     /* leading packs that are the game's pack */
	int named;          /* game_start names the people at the seats */
	char names[GAME_MAX_SEATS][TABLE_PERSON_MAX];
};

static void set_result(struct replay_result *res, int status, int line, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

static void set_result(struct replay_result *res, int status, int line, const char *name, const char *fmt, ...)
{
	res->status = status;
	res->line = line;
	char msg[sizeof res->msg];
	int n = line > 0 ? snprintf(msg, sizeof msg, "%s:%d: ", name, line) : snprintf(msg, sizeof msg, "%s: ", name);
	if (n >= 0 && (size_t)n < sizeof msg) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
		va_end(ap);
	}
	/* The message quotes the log: never its control characters. */
	file_escape(msg, sizeof msg, res->msg, sizeof res->msg);
}

/* Cards of a JSON array of card strings; -1 when it is not one. */
static int read_cards(const json_t *arr, card_t *out, int max)
{
	if (!json_is_array(arr) || json_array_size(arr) > (size_t)max)
		return -1;
	size_t i;
	const json_t *v;
	json_array_foreach(arr, i, v) {
		const char *s = jstr(v);
		if (!s || card_parse(s, &out[i]) < 0)
			return -1;
	}
	return (int)json_array_size(arr);
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20)
			return 1;
	return 0;
}

static int read_game_start(struct rlog *L, const json_t *root, const struct rline *l, struct replay_result *res)
{
	const char *game = jstr(json_object_get(root, "game"));
	if (!game) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "game_start without a game");
		return -1;
	}
	L->g = registry_ops(game);
	if (!L->g) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "unknown game '%s'", game);
		return -1;
	}
	long long v;
	if (jint(root, "players", &v) < 0 || v < L->g->min_players || v > L->g->max_players) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "%s is played by %d to %d players", L->g->name,
		           L->g->min_players, L->g->max_players);
		return -1;
	}
	L->players = (int)v;
	if (jint(root, "seed", &v) < 0 || v < 0) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "game_start without a seed");
		return -1;
	}
	L->seed = (uint64_t)v;
	const char *from = jstr(json_object_get(root, "seed_from"));
	if (from && strcmp(from, "server") && strcmp(from, "client") && strcmp(from, "operator")) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "seed_from is not server, client nor operator");
		return -1;
	}
	snprintf(L->seed_from, sizeof L->seed_from, "%s", from ? from : "");
	rules_init(&L->rules, L->g->rules, L->g->nrules);
	const json_t *ro = json_object_get(root, "rules");
	if (ro && !json_is_object(ro)) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "the rules are not an object");
		return -1;
	}
	/* The people at a server's table ("" a bot's seat). */
	const json_t *nm = json_object_get(root, "names");
	if (nm) {
		if (!json_is_array(nm) || json_array_size(nm) != (size_t)L->players) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "the names are not an array of %d names",
			           L->players);
			return -1;
		}
		for (int s = 0; s < L->players; s++) {
			const char *n = jstr(json_array_get(nm, (size_t)s));
			if (!n || strlen(n) >= sizeof L->names[s] || has_control(n)) {
				set_result(res, REPLAY_INVALID, l->lineno, L->name, "name %d is not a name", s + 1);
				return -1;
			}
			snprintf(L->names[s], sizeof L->names[s], "%s", n);
		}
		L->named = 1;
	}
	const char *key;
	const json_t *m;
	json_object_foreach((json_t *)ro, key, m) {
		char err[ERR_MAX], num[32];
		const char *val = jstr(m);
		if (json_is_integer(m)) {
			snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(m));
			val = num;
		}
		if (!val) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "rule %s: not a number or a word", key);
			return -1;
		}
		if (rules_set(&L->rules, key, val, err, sizeof err) < 0) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "%s", err);
			return -1;
		}
	}
	return 0;
}

static int read_action(struct rlog *L, const json_t *root, struct rline *l, struct replay_result *res)
{
	long long seat;
	if (jint(root, "seat", &seat) < 0 || seat < 0 || seat >= L->players) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "an action without a seat of the %d players",
		           L->players);
		return -1;
	}
	l->seat = (int)seat;
	const char *word = jstr(json_object_get(root, "action"));
	int kind = word ? act_kind_of(word) : ACT_NONE;
	if (kind == ACT_NONE) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "unknown action '%s'", word ? word : "");
		return -1;
	}
	struct sbuf t;
	sb_clear(&t);
	sb_puts(&t, word);
	long long amount;
	if (act_has_amount(kind)) {
		if (jint(root, "amount", &amount) < 0) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "'%s' without an amount", word);
			return -1;
		}
		sb_printf(&t, " %lld", amount);
	}
	const json_t *ci = json_object_get(root, "card"), *cs = json_object_get(root, "cards");
	if (ci) {
		const char *c = jstr(ci);
		sb_printf(&t, " %s", c ? c : "?");
	}
	if (cs) {
		if (!json_is_array(cs)) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "the cards are not a list");
			return -1;
		}
		size_t i;
		const json_t *v;
		json_array_foreach(cs, i, v) {
			const char *c = jstr(v);
			sb_printf(&t, " %s", c ? c : "?");
		}
	}
	char err[ERR_MAX];
	if (t.len + 1 >= sizeof t.s || act_parse(t.s, &l->act, err, sizeof err) < 0) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "'%.80s': %s", t.s,
		           t.len + 1 >= sizeof t.s ? "too long" : err);
		return -1;
	}
	snprintf(l->text, sizeof l->text, "%.60s", t.s);
	return 0;
}

/* What one line (a JSON value) says. */
static int read_value(struct rlog *L, const json_t *root, struct rline *l, int first, int collect,
                      struct replay_result *res)
{
	long long seq;
	const char *type = jstr(json_object_get(root, "type"));
	if (!json_is_object(root) || !type || jint(root, "seq", &seq) < 0) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "not a line of a hand history (type and seq)");
		return -1;
	}
	int kind = hist_type_of(type);
	if (first != (kind == EV_GAME_START)) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name,
		           first ? "a hand history begins with game_start" : "a second game_start");
		return -1;
	}
	if (first) {
		l->type = L_GAME_START;
		return read_game_start(L, root, l, res);
	}
	if (kind == EV_HAND_START) {
		l->type = L_HAND_START;
		long long dealer;
		if (!collect)
			return 0;
		if (L->hands++ == 0 && jint(root, "dealer", &dealer) == 0 && dealer >= 0 && dealer < L->players)
			L->dealer0 = (int)dealer;
		const json_t *pk = json_object_get(root, "pack");
		if (pk) {
			card_t cards[CARD_MAX_PACK];
			int n = read_cards(pk, cards, CARD_MAX_PACK);
			if (n < 0) {
				set_result(res, REPLAY_INVALID, l->lineno, L->name, "the pack is not a list of cards");
				return -1;
			}
			if (L->npacks == L->hands - 1 && L->npacks < REPLAY_MAX_PACKS) {
				L->packs->size[L->npacks] = n;
				memcpy(L->packs->cards[L->npacks], cards, (size_t)n);
				L->npacks++;
			}
		}
		return 0;
	}
	if (kind == EV_ACTION) {
		l->type = L_ACTION;
		return read_action(L, root, l, res);
	}
	l->type = L_OTHER;
	return 0;
}

/* The line just read from L->in, without a '\r' before its newline. */
static const char *line_text(const struct rlog *L, size_t *len)
{
	size_t n = L->in->len;
	if (n && L->in->buf[n - 1] == '\r')
		n--;
	*len = n;
	return L->in->buf;
}

static int blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/* Read the next line that is not blank into l: 1, 0 at the end of the log,
 * -1 with res set (a line that is not one of a hand history). */
static int next_line(struct rlog *L, struct rline *l, int first, int collect, struct replay_result *res)
{
	for (;;) {
		char err[ERR_MAX];
		int got = file_lines_next(L->in, err, sizeof err);
		if (got < 0) {
			set_result(res, REPLAY_INVALID, 0, L->name, "%s", err);
			return -1;
		}
		if (got == 0)
			return 0;
		size_t len;
		const char *text = line_text(L, &len);
		if (!L->in->toolong && blank(text, len))
			continue;
		memset(l, 0, sizeof *l);
		l->lineno = L->in->lineno;
		int rc = 0;
		if (L->in->toolong) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "a line longer than %d characters",
			           REPLAY_LINE_MAX);
			rc = -1;
		} else if (memchr(text, '\0', len)) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "a NUL byte: not a text file");
			rc = -1;
		} else {
			json_error_t why;
			json_t *root = jparse(text, len, &why);
			if (!root) {
				set_result(res, REPLAY_INVALID, l->lineno, L->name, "not JSON: %s (column %d)", why.text,
				           why.column);
				rc = -1;
			} else {
				rc = read_value(L, root, l, first, collect, res);
				json_decref(root);
			}
		}
		if (rc < 0) {
			size_t used = strlen(res->msg);
			if (!L->in->newline && used < sizeof res->msg)
				snprintf(res->msg + used, sizeof res->msg - used, "; the file ends in this line (cut?)");
			return -1;
		}
		return 1;
	}
}

static void rlog_release(struct rlog *L)
{
	free(L->first);
	free(L->packs);
	memset(L, 0, sizeof *L);
}

/* Read the whole log once, one line at a time: every line checked, the
 * game, its rules and the packs gathered (nothing else is kept). */
static int rlog_read(struct rlog *L, struct file_lines *in, const char *name, struct replay_result *res)
{
	memset(L, 0, sizeof *L);
	L->in = in;
	L->name = name;
	L->dealer0 = -1;
	L->packs = xcalloc(1, sizeof *L->packs);
	if (file_lines_rewind(in) < 0) {
		set_result(res, REPLAY_INVALID, 0, name, "cannot be read again: %s", strerror(errno));
		return -1;
	}
	struct rline l;
	int got;
	while ((got = next_line(L, &l, L->n == 0, 1, res)) > 0) {
		if (L->n == 0) {
			size_t len;
			const char *text = line_text(L, &len);
			L->first = xmalloc(len + 1);
			memcpy(L->first, text, len);
			L->first[len] = '\0';
			L->first_len = len;
			L->first_lineno = l.lineno;
		}
		L->n++;
		L->last_lineno = l.lineno;
	}
	if (got < 0)
		return -1;
	if (L->n == 0) {
		set_result(res, REPLAY_INVALID, 0, name, "empty: not a hand history");
		return -1;
	}
	res->lines = in->lineno;
	/* The packs that can be stacked: exactly the game's pack. */
	card_t pack[CARD_MAX_PACK];
	char err[ERR_MAX];
	int npack = L->g->pack(&L->rules, L->players, pack, err, sizeof err);
	if (npack < 0) {
		set_result(res, REPLAY_INVALID, L->first_lineno, name, "%s", err);
		return -1;
	}
	while (L->good_packs < L->npacks &&
	       card_same_multiset(L->packs->cards[L->good_packs], L->packs->size[L->good_packs], pack, npack))
		L->good_packs++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* One replay: a first dealer (-1: drawn) and the number of packs stacked. */

struct run {
	const struct rlog *L;
	struct replay_result *res;
	struct rline cur;  /* the next line to compare (its text: L->in's line) */
	int have;          /* 0: the log has no more lines */
	int seq;
	int failed;
	int hands;         /* hand_start lines met */
	int cut;           /* the log ended inside the events of its last action */
	FILE *announce;
	struct event *pending;
	int npending, cap_pending;
};

/* Show where two lines part: a few characters before, then the rest. */
static void excerpt(const char *s, size_t len, size_t at, char *out, size_t outlen)
{
	size_t from = at > 30 ? at - 30 : 0;
	size_t n = len - from;
	if (n > 100)
		n = 100;
	snprintf(out, outlen, "%s%.*s%s", from ? "..." : "", (int)n, s + from, from + n < len ? "..." : "");
}

static int same_line(const char *want, size_t wlen, const char *got, size_t n)
{
	if (n == wlen && memcmp(want, got, n) == 0)
		return 1;
	/* The same JSON written another way (spaces, order of the members). */
	json_error_t why;
	json_t *x = jparse(want, wlen, &why);
	json_t *y = x ? jparse(got, n, &why) : NULL;
	int same = x && y && json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

static void mismatch(struct run *r, int lineno, const char *want, size_t wlen, const char *got, size_t n)
{
	size_t at = 0;
	while (at < n && at < wlen && want[at] == got[at])
		at++;
	char e1[160], e2[160];
	excerpt(got, n, at, e1, sizeof e1);
	excerpt(want, wlen, at, e2, sizeof e2);
	set_result(r->res, REPLAY_DIFFERS, lineno, r->L->name,
	           "differs at column %zu: the game gives %s, the log has %s", at + 1, e1, e2);
	r->failed = 1;
}

/* Keep an event to announce once the action is complete. */
static void push_event(struct run *r, const struct event *e)
{
	if (!r->announce)
		return;
	xgrow((void **)&r->pending, &r->cap_pending, r->npending + 1, sizeof *r->pending);
	r->pending[r->npending++] = *e;
}

/* The next line of the log to compare (the log read again: the first
 * reading checked every line). */
static void advance(struct run *r)
{
	int got = next_line((struct rlog *)r->L, &r->cur, 0, 0, r->res);
	r->have = got > 0;
	if (got < 0)
		r->failed = 1;
}

static void on_event(void *ctx, const struct event *e)
{
	struct run *r = ctx;
	if (r->failed || r->cut)
		return;
	if (e->type == EV_GAME_START) {
		/* Not in the log (its first line is written apart): only heard. */
		push_event(r, e);
		return;
	}
	char buf[16384];
	size_t n = hist_format(e, r->seq, buf, sizeof buf);
	if (!r->have && r->L->n > 1) {
		/* A game stopped suddenly (kill -9, a power cut) between two
		 * lines of one action: what the log holds matched, the rest of
		 * that action's events were never written. */
		r->cut = 1;
		return;
	}
	if (!r->have) {
		char e1[160];
		excerpt(buf, n, 0, e1, sizeof e1);
		set_result(r->res, REPLAY_DIFFERS, r->L->last_lineno + 1, r->L->name,
		           "the log ends, the game goes on: %s", e1);
		r->failed = 1;
		return;
	}
	size_t wlen;
	const char *want = line_text(r->L, &wlen);
	if (!same_line(want, wlen, buf, n)) {
		mismatch(r, r->cur.lineno, want, wlen, buf, n);
		return;
	}
	if (r->cur.type == L_HAND_START)
		r->hands++;
	r->seq++;
	push_event(r, e);
	advance(r);
}

/* Say what happened as a spectator (seat -1) hears it at a table: only
 * what is public (view_phrase_event, the filter of the table's views). */
static void flush(struct run *r, const struct game_talk *gt, struct talk *tk, const void *st, void *view)
{
	memcpy(view, st, tk->game->state_size);
	tk->game->redact(view, tk->me);
	for (int i = 0; i < r->npending; i++) {
		struct sbuf b;
		sb_clear(&b);
		view_phrase_event(tk, gt, view, &r->pending[i], &b);
		char text[SBUF_SIZE];
		if (b.len)
			fprintf(r->announce, "%s\n", say_unmark(b.s, text, sizeof text));
	}
	r->npending = 0;
}

/* Why an action was refused, in English whatever the language of play. */
static void refusal_text(const struct game_ops *g, const struct game_talk *gt, void *view, int seat,
                         int players, const struct refusal *why, struct sbuf *b)
{
	char lang[8], ierr[64];
	snprintf(lang, sizeof lang, "%s", i18n_lang());
	i18n_set_lang("en", ierr, sizeof ierr);
	struct talk tk = { .game = g, .me = seat, .players = players };
	g->redact(view, seat);
	sb_clear(b);
	ann_refusal(&tk, gt, view, why, b);
	i18n_set_lang(lang, ierr, sizeof ierr);
}

/* The game_start line as the table writes it, after init settled the rules. */
static int game_start_line(const struct rlog *L, const struct rules *rules, char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	FILE *f = open_memstream(out, len);
	if (!f)
		return -1;
	struct history h;
	hist_attach(&h, f);
	const char *names[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		names[s] = L->names[s];
	hist_game_start(&h, L->g->name, L->players, L->seed, L->seed_from[0] ? L->seed_from : NULL, rules,
	                L->named ? names : NULL);
	hist_release(&h);
	fclose(f);
	if (*len && (*out)[*len - 1] == '\n')
		(*out)[--*len] = '\0';
	return 0;
}

static int run_once(const struct rlog *L, int dealer, int stacked, FILE *announce, struct replay_result *res)
{
	const struct game_ops *g = L->g;
	memset(res, 0, sizeof *res);
	res->stacked = stacked;
	res->dealer_given = dealer >= 0;
	struct run r;
	memset(&r, 0, sizeof r);
	r.L = L;
	r.res = res;
	r.announce = announce;
	r.seq = 1;
	void *st = xcalloc(1, g->state_size);
	void *view = xcalloc(1, g->state_size);
	struct deckstack *stack = stacked ? xmalloc(sizeof *stack) : NULL;
	if (stack) {
		*stack = *L->packs;
		stack->npacks = stacked;
	}
	struct rules rules = L->rules;
	struct game_setup setup = { L->players, dealer, L->seed, &rules, stack };
	char err[ERR_MAX];
	char *gs = NULL;
	size_t gslen = 0;
	const struct registry_game *e = registry_find(g->name);
	const struct game_talk *gt = e ? e->talk : NULL;
	struct talk tk = { .game = g, .me = -1, .players = L->players, .told = 1 };
	const char *people[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		people[s] = L->names[s];
	say_set_names(&tk, L->named ? people : NULL, L->players);
	if (g->init(st, &setup, err, sizeof err) < 0) {
		set_result(res, REPLAY_INVALID, L->first_lineno, L->name, "%s", err);
		goto done;
	}
	if (game_start_line(L, &rules, &gs, &gslen) < 0) {
		set_result(res, REPLAY_INVALID, 0, L->name, "out of memory");
		goto done;
	}
	if (!same_line(L->first, L->first_len, gs, gslen)) {
		mismatch(&r, L->first_lineno, L->first, L->first_len, gs, gslen);
		goto done;
	}
	/* The log again from its second line. */
	struct rline skip;
	if (file_lines_rewind(L->in) < 0 || next_line((struct rlog *)L, &skip, 1, 0, res) <= 0) {
		if (res->status == 0)
			set_result(res, REPLAY_INVALID, 0, L->name, "cannot be read again");
		goto done;
	}
	advance(&r);
	if (r.failed)
		goto done;
	struct sink sink = { on_event, &r };
	struct event e0;
	ev_init(&e0, EV_GAME_START);
	e0.nvalues = L->players;
	push_event(&r, &e0);   /* what the table says first */
	g->start(st, &sink);
	if (announce)
		flush(&r, gt, &tk, st, view);
	while (!r.failed && r.have) {
		const struct rline line = r.cur;   /* r.cur moves on as the events come */
		const struct rline *l = &line;
		int seat = g->to_act(st);
		if (seat < 0) {
			set_result(res, REPLAY_DIFFERS, l->lineno, L->name, "the game is over: this line is one too many");
			r.failed = 1;
			break;
		}
		if (l->type != L_ACTION) {
			char e1[160];
			size_t wlen;
			const char *want = line_text(L, &wlen);
			excerpt(want, wlen, 0, e1, sizeof e1);
			set_result(res, REPLAY_DIFFERS, l->lineno, L->name,
			           "seat %d must act now, the log has %s", seat, e1);
			r.failed = 1;
			break;
		}
		if (l->seat != seat) {
			set_result(res, REPLAY_DIFFERS, l->lineno, L->name, "'%s' for seat %d: seat %d must act now",
			           l->text, l->seat, seat);
			r.failed = 1;
			break;
		}
		struct refusal why;
		memset(&why, 0, sizeof why);
		if (g->apply(st, &l->act, &sink, &why) < 0) {
			struct sbuf b;
			memcpy(view, st, g->state_size);
			refusal_text(g, gt, view, seat, L->players, &why, &b);
			set_result(res, REPLAY_DIFFERS, l->lineno, L->name, "seat %d: '%s' refused: %s", seat, l->text, b.s);
			r.failed = 1;
			break;
		}
		res->actions++;
		if (announce)
			flush(&r, gt, &tk, st, view);
	}
	if (!r.failed)
		res->status = REPLAY_SAME;
	else if (announce)
		flush(&r, gt, &tk, st, view);
done:
	res->hands = r.hands;
	res->cut = r.cut;
	free(gs);
	free(r.pending);
	free(st);
	free(view);
	free(stack);
	return res->status;
}

int replay_text(const char *text, const char *name, enum replay_mode mode, FILE *announce,
                struct replay_result *res)
{
	return replay_buffer(text, strlen(text), name, mode, announce, res);
}

int replay_buffer(const char *text, size_t size, const char *name, enum replay_mode mode, FILE *announce,
                  struct replay_result *res)
{
	memset(res, 0, sizeof *res);
	if (size == 0) {
		set_result(res, REPLAY_INVALID, 0, name, "empty: not a hand history");
		return res->status;
	}
	FILE *f = fmemopen((void *)text, size, "r");
	if (!f) {
		set_result(res, REPLAY_INVALID, 0, name, "%s", strerror(errno));
		return res->status;
	}
	struct file_lines in;
	file_lines_stream(&in, f, name, REPLAY_LINE_MAX);
	int rc = replay_lines(&in, name, mode, announce, res);
	file_lines_close(&in);
	fclose(f);
	return rc;
}

int replay_lines(struct file_lines *in, const char *name, enum replay_mode mode, FILE *announce,
                 struct replay_result *res)
{
	memset(res, 0, sizeof *res);
	struct rlog L;
	if (rlog_read(&L, in, name, res) < 0) {
		rlog_release(&L);
		return res->status;
	}
	int lines = res->lines;
	/* The ways the game may have been set up, the likeliest first: from
	 * the seed, every pack of the log stacked, then the first K packs
	 * stacked and the rest from the seed (a --deck file shorter than the
	 * game, in a game that draws from its generator after a deal: it must
	 * be the very number of packs of the file). Each with the first dealer
	 * drawn, then given. */
	struct { int dealer, stacked; } tries[2 * (REPLAY_MAX_PACKS + 2)];
	int ntries = 0;
	int dealers[2] = { -1, L.dealer0 };
	int ndealers = L.dealer0 >= 0 ? 2 : 1;
	for (int k = 0; k < ndealers; k++) {
		if (mode != REPLAY_STACK || L.good_packs == 0) {
			tries[ntries].dealer = dealers[k];
			tries[ntries++].stacked = 0;
		}
		if (mode != REPLAY_SEED && L.good_packs > 0) {
			tries[ntries].dealer = dealers[k];
			tries[ntries++].stacked = L.good_packs;
		}
	}
	for (int n = 1; mode == REPLAY_AUTO && n < L.good_packs; n++)
		for (int k = 0; k < ndealers; k++) {
			tries[ntries].dealer = dealers[k];
			tries[ntries++].stacked = n;
		}
	struct replay_result best, cur;
	memset(&best, 0, sizeof best);
	best.status = 1; /* none yet */
	int best_try = -1;
	for (int i = 0; i < ntries; i++) {
		run_once(&L, tries[i].dealer, tries[i].stacked, NULL, &cur);
		if (cur.status == REPLAY_INVALID) {
			best = cur;
			best_try = i;
			break;
		}
		if (best.status > 0 || cur.status == REPLAY_SAME || cur.line > best.line) {
			best = cur;
			best_try = i;
		}
		if (cur.status == REPLAY_SAME)
			break;
	}
	if (best_try >= 0 && announce && best.status != REPLAY_INVALID)
		run_once(&L, tries[best_try].dealer, tries[best_try].stacked, announce, &cur);
	*res = best;
	if (res->status == REPLAY_DIFFERS && res->stacked > 0) {
		size_t used = strlen(res->msg);
		if (used < sizeof res->msg)
			snprintf(res->msg + used, sizeof res->msg - used, " (replayed with the first %d %s of the log stacked)",
			         res->stacked, res->stacked == 1 ? "pack" : "packs");
	}
	if (res->status > 0)
		set_result(res, REPLAY_INVALID, 0, name, "nothing to replay");
	res->lines = lines;
	rlog_release(&L);
	return res->status;
}

int replay_file(const char *path, FILE *announce, char *err, size_t errlen)
{
	struct file_lines in;
	if (file_lines_open(&in, path, REPLAY_LINE_MAX, err, errlen) < 0)
		return REPLAY_INVALID;
	struct replay_result res;
	int rc = replay_lines(&in, path, REPLAY_AUTO, announce, &res);
	file_lines_close(&in);
	if (rc != REPLAY_SAME)
		errf(err, errlen, "%s", res.msg);
	return rc;
}
