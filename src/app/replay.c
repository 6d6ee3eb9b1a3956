#include "app/replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/view.h"
#include "core/action.h"
#include "core/card.h"
#include "core/deckfile.h"
#include "core/event.h"
#include "core/game.h"
#include "core/history.h"
#include "core/rules.h"
#include "core/sbuf.h"
#include "speech/announce.h"
#include "speech/i18n.h"
#include "speech/talk.h"

/* ------------------------------------------------------------------ */
/* A small JSON reader: one line into a tree of nodes (no allocation per
 * value; strings decoded into an arena). Enough for our own lines, and
 * it refuses anything else with the column of the problem. */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
	int type;
	const char *key;   /* a member of an object: its key */
	const char *s;     /* J_STR: the decoded text; J_NUM: the number as written */
	int b;             /* J_BOOL */
	int child, next;   /* J_ARR, J_OBJ: first element; the next sibling; -1 none */
	int count;         /* J_ARR, J_OBJ: number of elements */
};

#define J_MAX_NODES 4096
#define J_MAX_DEPTH 32

struct jdoc {
	struct jnode node[J_MAX_NODES];
	int n;
	char *arena;
	size_t used, cap;
	const char *text, *p, *end;
	const char *err;
	size_t errcol;
};

static int jfail(struct jdoc *d, const char *why)
{
	if (!d->err) {
		d->err = why;
		d->errcol = (size_t)(d->p - d->text) + 1;
	}
	return -1;
}

static void jspace(struct jdoc *d)
{
	while (d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\r' || *d->p == '\n'))
		d->p++;
}

static int jnew(struct jdoc *d, int type)
{
	if (d->n >= J_MAX_NODES)
		return jfail(d, "too many values");
	struct jnode *n = &d->node[d->n];
	memset(n, 0, sizeof *n);
	n->type = type;
	n->child = n->next = -1;
	return d->n++;
}

static void jput(struct jdoc *d, char c)
{
	if (d->used < d->cap)
		d->arena[d->used++] = c;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int jhex4(struct jdoc *d, unsigned *out)
{
	if (d->end - d->p < 4)
		return jfail(d, "bad \\u escape");
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(d->p[i]);
		if (h < 0)
			return jfail(d, "bad \\u escape");
		v = v << 4 | (unsigned)h;
	}
	d->p += 4;
	*out = v;
	return 0;
}

static void jutf8(struct jdoc *d, unsigned cp)
{
	if (cp < 0x80) {
		jput(d, (char)cp);
	} else if (cp < 0x800) {
		jput(d, (char)(0xC0 | cp >> 6));
		jput(d, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		jput(d, (char)(0xE0 | cp >> 12));
		jput(d, (char)(0x80 | ((cp >> 6) & 0x3F)));
		jput(d, (char)(0x80 | (cp & 0x3F)));
	} else {
		jput(d, (char)(0xF0 | cp >> 18));
		jput(d, (char)(0x80 | ((cp >> 12) & 0x3F)));
		jput(d, (char)(0x80 | ((cp >> 6) & 0x3F)));
		jput(d, (char)(0x80 | (cp & 0x3F)));
	}
}

/* A string at d->p (on the opening quote), decoded into the arena. */
static int jstring(struct jdoc *d, const char **out)
{
	d->p++;
	const char *start = d->arena + d->used;
	for (;;) {
		if (d->p >= d->end)
			return jfail(d, "unterminated string");
		unsigned char c = (unsigned char)*d->p;
		if (c == '"') {
			d->p++;
			break;
		}
		if (c < 0x20)
			return jfail(d, "control character in a string");
		if (c != '\\') {
			jput(d, (char)c);
			d->p++;
			continue;
		}
		d->p++;
		if (d->p >= d->end)
			return jfail(d, "unterminated string");
		char e = *d->p++;
		switch (e) {
		case '"': jput(d, '"'); break;
		case '\\': jput(d, '\\'); break;
		case '/': jput(d, '/'); break;
		case 'b': jput(d, '\b'); break;
		case 'f': jput(d, '\f'); break;
		case 'n': jput(d, '\n'); break;
		case 'r': jput(d, '\r'); break;
		case 't': jput(d, '\t'); break;
		case 'u': {
			unsigned cp;
			if (jhex4(d, &cp) < 0)
				return -1;
			if (cp >= 0xD800 && cp < 0xDC00 && d->end - d->p >= 6 && d->p[0] == '\\' && d->p[1] == 'u') {
				unsigned lo;
				d->p += 2;
				if (jhex4(d, &lo) < 0)
					return -1;
				if (lo < 0xDC00 || lo > 0xDFFF)
					return jfail(d, "bad surrogate pair");
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			if (cp == 0)
				return jfail(d, "NUL in a string");
			jutf8(d, cp);
			break;
		}
		default:
			d->p--;
			return jfail(d, "bad escape in a string");
		}
	}
	jput(d, '\0');
	*out = start;
	return 0;
}

static int jnumber(struct jdoc *d, const char **out)
{
	const char *s = d->p;
	if (d->p < d->end && *d->p == '-')
		d->p++;
	if (d->p >= d->end || *d->p < '0' || *d->p > '9')
		return jfail(d, "bad number");
	if (*d->p == '0')
		d->p++;
	else
		while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
			d->p++;
	if (d->p < d->end && *d->p == '.') {
		d->p++;
		if (d->p >= d->end || *d->p < '0' || *d->p > '9')
			return jfail(d, "bad number");
		while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
			d->p++;
	}
	if (d->p < d->end && (*d->p == 'e' || *d->p == 'E')) {
		d->p++;
		if (d->p < d->end && (*d->p == '+' || *d->p == '-'))
			d->p++;
		if (d->p >= d->end || *d->p < '0' || *d->p > '9')
			return jfail(d, "bad number");
		while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
			d->p++;
	}
	const char *start = d->arena + d->used;
	for (const char *q = s; q < d->p; q++)
		jput(d, *q);
	jput(d, '\0');
	*out = start;
	return 0;
}

static int jvalue(struct jdoc *d, int depth);

static int jword(struct jdoc *d, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(d->end - d->p) < n || memcmp(d->p, w, n) != 0)
		return jfail(d, "not a JSON value");
	d->p += n;
	return 0;
}

static int jvalue(struct jdoc *d, int depth)
{
	if (depth > J_MAX_DEPTH)
		return jfail(d, "nested too deep");
	jspace(d);
	if (d->p >= d->end)
		return jfail(d, "a value is missing");
	char c = *d->p;
	int id;
	if (c == '{' || c == '[') {
		int obj = c == '{';
		if ((id = jnew(d, obj ? J_OBJ : J_ARR)) < 0)
			return -1;
		d->p++;
		jspace(d);
		if (d->p < d->end && *d->p == (obj ? '}' : ']')) {
			d->p++;
			return id;
		}
		int last = -1;
		for (;;) {
			const char *key = NULL;
			jspace(d);
			if (obj) {
				if (d->p >= d->end || *d->p != '"')
					return jfail(d, "a key is missing");
				if (jstring(d, &key) < 0)
					return -1;
				jspace(d);
				if (d->p >= d->end || *d->p != ':')
					return jfail(d, "':' is missing");
				d->p++;
			}
			int v = jvalue(d, depth + 1);
			if (v < 0)
				return -1;
			d->node[v].key = key;
			if (last < 0)
				d->node[id].child = v;
			else
				d->node[last].next = v;
			last = v;
			d->node[id].count++;
			jspace(d);
			if (d->p < d->end && *d->p == ',') {
				d->p++;
				continue;
			}
			if (d->p < d->end && *d->p == (obj ? '}' : ']')) {
				d->p++;
				return id;
			}
			return jfail(d, obj ? "',' or '}' is missing" : "',' or ']' is missing");
		}
	}
	if (c == '"') {
		if ((id = jnew(d, J_STR)) < 0)
			return -1;
		return jstring(d, &d->node[id].s) < 0 ? -1 : id;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		if ((id = jnew(d, J_NUM)) < 0)
			return -1;
		return jnumber(d, &d->node[id].s) < 0 ? -1 : id;
	}
	if (c == 't' || c == 'f') {
		if ((id = jnew(d, J_BOOL)) < 0)
			return -1;
		d->node[id].b = c == 't';
		return jword(d, c == 't' ? "true" : "false") < 0 ? -1 : id;
	}
	if (c == 'n') {
		if ((id = jnew(d, J_NULL)) < 0)
			return -1;
		return jword(d, "null") < 0 ? -1 : id;
	}
	return jfail(d, "not a JSON value");
}

/* Parse one line (len bytes); the root, or -1 with d->err and d->errcol. */
static int jparse(struct jdoc *d, const char *s, size_t len)
{
	d->n = 0;
	d->err = NULL;
	d->errcol = 0;
	d->text = d->p = s;
	d->end = s + len;
	d->used = 0;
	size_t need = 2 * len + 16;
	if (need > d->cap) {
		char *a = realloc(d->arena, need);
		if (!a) {
			d->err = "out of memory";
			return -1;
		}
		d->arena = a;
		d->cap = need;
	}
	int root = jvalue(d, 0);
	if (root < 0)
		return -1;
	jspace(d);
	if (d->p != d->end)
		return jfail(d, "more text after the value");
	return root;
}

static int jget(const struct jdoc *d, int obj, const char *key)
{
	if (obj < 0 || d->node[obj].type != J_OBJ)
		return -1;
	for (int i = d->node[obj].child; i >= 0; i = d->node[i].next)
		if (strcmp(d->node[i].key, key) == 0)
			return i;
	return -1;
}

/* An integer value (no fraction, no exponent, within long long). */
static int jint(const struct jdoc *d, int id, long long *out)
{
	if (id < 0 || d->node[id].type != J_NUM || strpbrk(d->node[id].s, ".eE"))
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(d->node[id].s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static const char *jstr(const struct jdoc *d, int id)
{
	return id >= 0 && d->node[id].type == J_STR ? d->node[id].s : NULL;
}

/* The same value: objects compared member by member whatever their order,
 * numbers by value. */
static int jequal(const struct jdoc *a, int x, const struct jdoc *b, int y)
{
	const struct jnode *p = &a->node[x], *q = &b->node[y];
	if (p->type != q->type)
		return 0;
	switch (p->type) {
	case J_NULL:
		return 1;
	case J_BOOL:
		return p->b == q->b;
	case J_NUM:
		return strcmp(p->s, q->s) == 0 || strtod(p->s, NULL) == strtod(q->s, NULL);
	case J_STR:
		return strcmp(p->s, q->s) == 0;
	case J_ARR:
		if (p->count != q->count)
			return 0;
		for (int i = p->child, j = q->child; i >= 0 && j >= 0; i = a->node[i].next, j = b->node[j].next)
			if (!jequal(a, i, b, j))
				return 0;
		return 1;
	case J_OBJ:
		if (p->count != q->count)
			return 0;
		for (int i = p->child; i >= 0; i = a->node[i].next) {
			int j = jget(b, y, a->node[i].key);
			if (j < 0 || !jequal(a, i, b, j))
				return 0;
		}
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The log, read once. */

enum { L_OTHER, L_GAME_START, L_HAND_START, L_ACTION };

#define REPLAY_MAX_PACKS 64  /* what a struct deckstack holds */

struct rline {
	size_t off, len;   /* the text of the line in the buffer */
	int lineno;
	int type;
	int seat;          /* L_ACTION */
	struct action act; /* L_ACTION */
	char text[ACT_STR_MAX]; /* L_ACTION: the action as text */
};

struct rlog {
	const char *buf;
	const char *name;
	struct rline *lines;
	int n, cap;
	const struct game_ops *g;
	int players;
	uint64_t seed;
	struct rules rules;
	int dealer0;        /* dealer of the first hand_start, -1 none */
	int hands;          /* hand_start lines */
	struct deckstack *packs;  /* the packs of the log, in order (at most 64) */
	int npacks;         /* packs read */
	int good_packs;     /* leading packs that are the game's pack */
	struct jdoc *d, *d2;
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
	int n = line > 0 ? snprintf(res->msg, sizeof res->msg, "%s:%d: ", name, line)
	                 : snprintf(res->msg, sizeof res->msg, "%s: ", name);
	if (n < 0 || (size_t)n >= sizeof res->msg)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->msg + n, sizeof res->msg - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Cards of a JSON array of card strings; -1 when it is not one. */
static int read_cards(const struct jdoc *d, int arr, card_t *out, int max)
{
	if (arr < 0 || d->node[arr].type != J_ARR || d->node[arr].count > max)
		return -1;
	int n = 0;
	for (int i = d->node[arr].child; i >= 0; i = d->node[i].next) {
		const char *s = jstr(d, i);
		if (!s || card_parse(s, &out[n]) < 0)
			return -1;
		n++;
	}
	return n;
}

static int read_game_start(struct rlog *L, int root, const struct rline *l, struct replay_result *res)
{
	const struct jdoc *d = L->d;
	const char *game = jstr(d, jget(d, root, "game"));
	if (!game) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "game_start without a game");
		return -1;
	}
	L->g = game_find(game);
	if (!L->g) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "unknown game '%s'", game);
		return -1;
	}
	long long v;
	if (jint(d, jget(d, root, "players"), &v) < 0 || v < L->g->min_players || v > L->g->max_players) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "%s is played by %d to %d players", L->g->name,
		           L->g->min_players, L->g->max_players);
		return -1;
	}
	L->players = (int)v;
	int sid = jget(d, root, "seed");
	char *end;
	errno = 0;
	if (sid < 0 || d->node[sid].type != J_NUM || d->node[sid].s[0] == '-' ||
	    (L->seed = strtoull(d->node[sid].s, &end, 10), errno || *end)) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "game_start without a seed");
		return -1;
	}
	rules_init(&L->rules, L->g->rules, L->g->nrules);
	int ro = jget(d, root, "rules");
	if (ro >= 0 && d->node[ro].type != J_OBJ) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "the rules are not an object");
		return -1;
	}
	for (int i = ro >= 0 ? d->node[ro].child : -1; i >= 0; i = d->node[i].next) {
		const struct jnode *m = &d->node[i];
		char err[256];
		if (m->type != J_NUM && m->type != J_STR) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "rule %s: not a number or a word", m->key);
			return -1;
		}
		if (rules_set(&L->rules, m->key, m->s, err, sizeof err) < 0) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "%s", err);
			return -1;
		}
	}
	return 0;
}

static int read_action(struct rlog *L, int root, struct rline *l, struct replay_result *res)
{
	const struct jdoc *d = L->d;
	long long seat;
	if (jint(d, jget(d, root, "seat"), &seat) < 0 || seat < 0 || seat >= L->players) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "an action without a seat of the %d players",
		           L->players);
		return -1;
	}
	l->seat = (int)seat;
	const char *word = jstr(d, jget(d, root, "action"));
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
		if (jint(d, jget(d, root, "amount"), &amount) < 0) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "'%s' without an amount", word);
			return -1;
		}
		sb_printf(&t, " %lld", amount);
	}
	int ci = jget(d, root, "card"), cs = jget(d, root, "cards");
	if (ci >= 0) {
		const char *c = jstr(d, ci);
		sb_printf(&t, " %s", c ? c : "?");
	}
	if (cs >= 0) {
		if (d->node[cs].type != J_ARR) {
			set_result(res, REPLAY_INVALID, l->lineno, L->name, "the cards are not a list");
			return -1;
		}
		for (int i = d->node[cs].child; i >= 0; i = d->node[i].next) {
			const char *c = jstr(d, i);
			sb_printf(&t, " %s", c ? c : "?");
		}
	}
	char err[256];
	if (act_parse(t.s, &l->act, err, sizeof err) < 0) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "'%s': %s", t.s, err);
		return -1;
	}
	snprintf(l->text, sizeof l->text, "%.60s", t.s);
	return 0;
}

static int read_line(struct rlog *L, struct rline *l, struct replay_result *res)
{
	struct jdoc *d = L->d;
	int root = jparse(d, L->buf + l->off, l->len);
	if (root < 0) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "not JSON: %s (column %zu)", d->err, d->errcol);
		return -1;
	}
	long long seq;
	const char *type = jstr(d, jget(d, root, "type"));
	if (d->node[root].type != J_OBJ || !type || jint(d, jget(d, root, "seq"), &seq) < 0) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name, "not a line of a hand history (type and seq)");
		return -1;
	}
	int first = l == &L->lines[0];
	if (first != (strcmp(type, "game_start") == 0)) {
		set_result(res, REPLAY_INVALID, l->lineno, L->name,
		           first ? "a hand history begins with game_start" : "a second game_start");
		return -1;
	}
	if (first) {
		l->type = L_GAME_START;
		return read_game_start(L, root, l, res);
	}
	if (strcmp(type, "hand_start") == 0) {
		l->type = L_HAND_START;
		long long dealer;
		if (L->hands++ == 0 && jint(d, jget(d, root, "dealer"), &dealer) == 0 && dealer >= 0 &&
		    dealer < L->players)
			L->dealer0 = (int)dealer;
		int pk = jget(d, root, "pack");
		if (pk >= 0) {
			card_t cards[CARD_MAX_PACK];
			int n = read_cards(d, pk, cards, CARD_MAX_PACK);
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
	if (strcmp(type, "action") == 0) {
		l->type = L_ACTION;
		return read_action(L, root, l, res);
	}
	l->type = L_OTHER;
	return 0;
}

static void rlog_release(struct rlog *L)
{
	free(L->lines);
	free(L->packs);
	if (L->d)
		free(L->d->arena);
	if (L->d2)
		free(L->d2->arena);
	free(L->d);
	free(L->d2);
	memset(L, 0, sizeof *L);
}

static int rlog_read(struct rlog *L, const char *text, const char *name, struct replay_result *res)
{
	memset(L, 0, sizeof *L);
	L->buf = text;
	L->name = name;
	L->dealer0 = -1;
	L->d = calloc(1, sizeof *L->d);
	L->d2 = calloc(1, sizeof *L->d2);
	L->packs = calloc(1, sizeof *L->packs);
	if (!L->d || !L->d2 || !L->packs) {
		set_result(res, REPLAY_INVALID, 0, name, "out of memory");
		return -1;
	}
	int lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		size_t off = (size_t)(p - text);
		p += len + (nl ? 1 : 0);
		if (len && text[off + len - 1] == '\r')
			len--;
		if (strspn(text + off, " \t\r") >= len)
			continue;   /* a blank line */
		if (L->n == L->cap) {
			int cap = L->cap ? L->cap * 2 : 256;
			struct rline *nlines = realloc(L->lines, (size_t)cap * sizeof *nlines);
			if (!nlines) {
				set_result(res, REPLAY_INVALID, lineno, name, "out of memory");
				return -1;
			}
			L->lines = nlines;
			L->cap = cap;
		}
		struct rline *l = &L->lines[L->n++];
		memset(l, 0, sizeof *l);
		l->off = off;
		l->len = len;
		l->lineno = lineno;
		if (read_line(L, l, res) < 0) {
			size_t used = strlen(res->msg);
			if (!nl && used < sizeof res->msg)
				snprintf(res->msg + used, sizeof res->msg - used, "; the file ends in this line (cut?)");
			return -1;
		}
	}
	if (L->n == 0) {
		set_result(res, REPLAY_INVALID, 0, name, "empty: not a hand history");
		return -1;
	}
	res->lines = lineno;
	/* The packs that can be stacked: exactly the game's pack. */
	card_t pack[CARD_MAX_PACK];
	char err[256];
	int npack = L->g->pack(&L->rules, L->players, pack, err, sizeof err);
	if (npack < 0) {
		set_result(res, REPLAY_INVALID, L->lines[0].lineno, name, "%s", err);
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
	int pos;           /* index of the next line to compare */
	int seq;
	int failed;
	int hands;         /* hand_start lines met */
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

static int same_line(const struct run *r, const struct rline *l, const char *got, size_t n)
{
	const char *want = r->L->buf + l->off;
	if (n == l->len && memcmp(want, got, n) == 0)
		return 1;
	/* The same JSON written another way (spaces, order of the members). */
	struct jdoc *a = r->L->d, *b = r->L->d2;
	int x = jparse(a, want, l->len);
	int y = jparse(b, got, n);
	return x >= 0 && y >= 0 && jequal(a, x, b, y);
}

static void mismatch(struct run *r, const struct rline *l, const char *got, size_t n)
{
	const char *want = r->L->buf + l->off;
	size_t at = 0;
	while (at < n && at < l->len && want[at] == got[at])
		at++;
	char e1[160], e2[160];
	excerpt(got, n, at, e1, sizeof e1);
	excerpt(want, l->len, at, e2, sizeof e2);
	set_result(r->res, REPLAY_DIFFERS, l->lineno, r->L->name,
	           "differs at column %zu: the game gives %s, the log has %s", at + 1, e1, e2);
	r->failed = 1;
}

/* Keep an event to announce once the action is complete. */
static void push_event(struct run *r, const struct event *e)
{
	if (!r->announce)
		return;
	if (r->npending == r->cap_pending) {
		int cap = r->cap_pending ? r->cap_pending * 2 : 32;
		struct event *p = realloc(r->pending, (size_t)cap * sizeof *p);
		if (!p)
			return;
		r->pending = p;
		r->cap_pending = cap;
	}
	r->pending[r->npending++] = *e;
}

static void on_event(void *ctx, const struct event *e)
{
	struct run *r = ctx;
	if (r->failed)
		return;
	if (e->type == EV_GAME_START) {
		/* Not in the log (its first line is written apart): only heard. */
		push_event(r, e);
		return;
	}
	char buf[16384];
	size_t n = hist_format(e, r->seq, buf, sizeof buf);
	if (r->pos >= r->L->n) {
		char e1[160];
		excerpt(buf, n, 0, e1, sizeof e1);
		set_result(r->res, REPLAY_DIFFERS, r->L->lines[r->L->n - 1].lineno + 1, r->L->name,
		           "the log ends, the game goes on: %s", e1);
		r->failed = 1;
		return;
	}
	const struct rline *l = &r->L->lines[r->pos];
	if (!same_line(r, l, buf, n)) {
		mismatch(r, l, buf, n);
		return;
	}
	if (l->type == L_HAND_START)
		r->hands++;
	r->pos++;
	r->seq++;
	push_event(r, e);
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
		if (b.len)
			fprintf(r->announce, "%s\n", b.s);
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
	hist_game_start(&h, L->g->name, L->players, L->seed, rules);
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
	r.pos = 1;
	r.seq = 1;
	void *st = calloc(1, g->state_size);
	void *view = calloc(1, g->state_size);
	struct deckstack *stack = stacked ? malloc(sizeof *stack) : NULL;
	if (!st || !view || (stacked && !stack)) {
		free(st);
		free(view);
		free(stack);
		set_result(res, REPLAY_INVALID, 0, L->name, "out of memory");
		return res->status;
	}
	if (stack) {
		*stack = *L->packs;
		stack->npacks = stacked;
	}
	struct rules rules = L->rules;
	struct game_setup setup = { L->players, dealer, L->seed, &rules, stack };
	char err[512];
	char *gs = NULL;
	size_t gslen = 0;
	const struct game_talk *gt = talk_find(g->name);
	struct talk tk = { .game = g, .me = -1, .players = L->players };
	if (g->init(st, &setup, err, sizeof err) < 0) {
		set_result(res, REPLAY_INVALID, L->lines[0].lineno, L->name, "%s", err);
		goto done;
	}
	if (game_start_line(L, &rules, &gs, &gslen) < 0) {
		set_result(res, REPLAY_INVALID, 0, L->name, "out of memory");
		goto done;
	}
	if (!same_line(&r, &L->lines[0], gs, gslen)) {
		mismatch(&r, &L->lines[0], gs, gslen);
		goto done;
	}
	struct sink sink = { on_event, &r };
	struct event e0;
	ev_init(&e0, EV_GAME_START);
	e0.nvalues = L->players;
	push_event(&r, &e0);   /* what the table says first */
	g->start(st, &sink);
	if (announce)
		flush(&r, gt, &tk, st, view);
	while (!r.failed && r.pos < L->n) {
		const struct rline *l = &L->lines[r.pos];
		int seat = g->to_act(st);
		if (seat < 0) {
			set_result(res, REPLAY_DIFFERS, l->lineno, L->name, "the game is over: this line is one too many");
			r.failed = 1;
			break;
		}
		if (l->type != L_ACTION) {
			char e1[160];
			excerpt(L->buf + l->off, l->len, 0, e1, sizeof e1);
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
	memset(res, 0, sizeof *res);
	struct rlog L;
	if (rlog_read(&L, text, name, res) < 0) {
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
	char *text = deckfile_slurp(path, err, errlen);
	if (!text)
		return REPLAY_INVALID;
	struct replay_result res;
	int rc = replay_text(text, path, REPLAY_AUTO, announce, &res);
	free(text);
	if (rc != REPLAY_SAME)
		snprintf(err, errlen, "%s", res.msg);
	return rc;
}

int replay_main(int argc, char **argv)
{
	const char *path = NULL, *lang = NULL;
	int text = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--text")) {
			text = 1;
		} else if (!strcmp(argv[i], "--lang")) {
			if (i + 1 >= argc || (strcmp(argv[i + 1], "en") && strcmp(argv[i + 1], "fr"))) {
				fprintf(stderr, "tapis: --lang: en or fr\n");
				return 2;
			}
			lang = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tapis: replay: unknown option '%s'\n", argv[i]);
			return 2;
		} else if (path) {
			fprintf(stderr, "tapis: replay takes one hand history\n");
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "tapis: replay needs a hand history (tapis replay LOG [--text] [--lang en|fr])\n");
		return 2;
	}
	char err[1024];
	if (!lang)
		lang = i18n_env_lang();
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		fprintf(stderr, "tapis: %s; messages in English\n", err);
	char *buf = strcmp(path, "-") == 0 ? NULL : deckfile_slurp(path, err, sizeof err);
	if (strcmp(path, "-") == 0) {
		/* Standard input. */
		size_t cap = 0, len = 0;
		for (;;) {
			if (len + 4096 + 1 > cap) {
				cap = cap ? cap * 2 : 65536;
				char *nb = realloc(buf, cap);
				if (!nb) {
					free(buf);
					fprintf(stderr, "tapis: out of memory\n");
					return 2;
				}
				buf = nb;
			}
			size_t n = fread(buf + len, 1, 4096, stdin);
			len += n;
			if (n == 0)
				break;
		}
		buf[len] = '\0';
	}
	if (!buf) {
		fprintf(stderr, "tapis: %s\n", err);
		return 2;
	}
	struct replay_result res;
	int rc = replay_text(buf, strcmp(path, "-") ? path : "(standard input)", REPLAY_AUTO,
	                     text ? stdout : NULL, &res);
	free(buf);
	fflush(stdout);
	if (rc == REPLAY_SAME) {
		if (!text)
			printf("%s: %d lines, %d deals, %d actions: the game replays the same.\n", path, res.lines,
			       res.hands, res.actions);
		return 0;
	}
	fprintf(stderr, "tapis: %s\n", res.msg);
	return rc == REPLAY_INVALID ? 2 : 3;
}
