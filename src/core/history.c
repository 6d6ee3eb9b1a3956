/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/history.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "core/card.h"
#include "core/err.h"

struct jbuf {
	char *s;
	size_t len, cap;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void jp(struct jbuf *b, const char *fmt, ...)
{
	if (b->len >= b->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
	if (b->len >= b->cap)
		b->len = b->cap - 1;
}

static void jcard(struct jbuf *b, card_t c)
{
	char s[CARD_STR_MAX];
	jp(b, "\"%s\"", card_str(c, s));
}

static void jcards(struct jbuf *b, const card_t *cards, int n)
{
	jp(b, "[");
	for (int i = 0; i < n; i++) {
		if (i)
			jp(b, ",");
		jcard(b, cards[i]);
	}
	jp(b, "]");
}

static void jseat(struct jbuf *b, int seat)
{
	if (seat < 0)
		jp(b, "null");
	else
		jp(b, "%d", seat);
}

static void jints(struct jbuf *b, const int *v, int n)
{
	jp(b, "[");
	for (int i = 0; i < n; i++)
		jp(b, i ? ",%d" : "%d", v[i]);
	jp(b, "]");
}

/* A static word is safe in JSON as it is (letters, digits, '_'). */
static void jword(struct jbuf *b, const char *w)
{
	jp(b, "\"%s\"", w ? w : "");
}

/* The words of the log format for the types of events: written here, read
 * back by the replay (hist_type_of). */
static const char *const TYPE_WORDS[EV_COUNT] = {
	[EV_GAME_START] = "game_start", [EV_HAND_START] = "hand_start", [EV_DEAL] = "deal",
	[EV_TURNUP] = "turnup",         [EV_DRAW] = "draw",             [EV_CHOICE] = "choice",
	[EV_ACTION] = "action",         [EV_TRICK] = "trick",           [EV_DECLARE] = "declare",
	[EV_SHOWDOWN] = "showdown",     [EV_PAYMENT] = "payment",       [EV_HAND_END] = "hand_end",
	[EV_GAME_END] = "game_end",     [EV_PHASE] = "phase",
};

const char *hist_type_word(int type)
{
	return (type >= 0 && type < EV_COUNT) ? TYPE_WORDS[type] : "unknown";
}

int hist_type_of(const char *word)
{
	for (int t = 0; word && t < EV_COUNT; t++)
		if (strcmp(TYPE_WORDS[t], word) == 0)
			return t;
	return -1;
}

/* The words of the log format for the details of events: the
 * only place they are written. NONE is the empty word. */
static const char *const WHAT_WORDS[EV_WHAT_COUNT] = {
	[EV_WHAT_NONE] = "", [EV_WHAT_SUIT] = "suit", [EV_WHAT_FIGURE] = "figure", [EV_WHAT_CARD] = "card",
};

static const char *const VALUES_WORDS[EV_VALUES_COUNT] = {
	[EV_VALUES_SCORES] = "scores", [EV_VALUES_CHIPS] = "chips", [EV_VALUES_STANDINGS] = "standings",
};

static const char *const REASON_WORDS[EV_PAY_COUNT] = {
	[EV_PAY_NONE] = "",
	[EV_PAY_ANTE] = "ante",
	[EV_PAY_PASSE] = "passe",
	[EV_PAY_STRADDLE] = "straddle",
	[EV_PAY_BUYBACK] = "buyback",
	[EV_PAY_OPEN] = "open",
	[EV_PAY_RAISE] = "raise",
	[EV_PAY_CALL] = "call",
	[EV_PAY_ALLIN] = "allin",
	[EV_PAY_STAY] = "stay",
	[EV_PAY_BOURRE] = "bourre",
	[EV_PAY_RENEGE] = "renege",
	[EV_PAY_POT] = "pot",
	[EV_PAY_SIDE_POT] = "side_pot",
	[EV_PAY_RETURN] = "return",
	[EV_PAY_UNCONTESTED] = "uncontested",
	[EV_PAY_BRELAN] = "brelan",
	[EV_PAY_CARRE] = "carre",
};

static const char *const NOTE_WORDS[EV_NOTE_COUNT] = {
	[EV_NOTE_NONE] = "",
	[EV_NOTE_EXTRA_ROUND] = "extra_round",
	[EV_NOTE_ALL_PASSED] = "all_passed",
	[EV_NOTE_FORCED_STRADDLE] = "forced_straddle",
	[EV_NOTE_ADD_CAVE] = "add_cave",
	[EV_NOTE_REBUY] = "rebuy",
	[EV_NOTE_RECAVE] = "recave",
	[EV_NOTE_OUT] = "out",
	[EV_NOTE_LONE] = "lone",
	[EV_NOTE_NOBODY] = "nobody",
	[EV_NOTE_DEALER_STAYS] = "dealer_stays",
	[EV_NOTE_REVEAL] = "reveal",
	[EV_NOTE_SECOND] = "second",
	[EV_NOTE_PLAY] = "play",
	[EV_NOTE_SPLIT] = "split",
	[EV_NOTE_BOURRE] = "bourre",
	[EV_NOTE_STAKES] = "stakes",
	[EV_NOTE_RESHUFFLE] = "reshuffle",
	[EV_NOTE_RENEGE] = "renege",
	[EV_NOTE_GAME_WON] = "game_won",
	[EV_NOTE_CAPE] = "cape",
	[EV_NOTE_TALLY] = "tally",
	[EV_NOTE_ALL_OR_NOTHING] = "all_or_nothing",
	[EV_NOTE_ROUND_POINTS] = "round_points",
};

/* The word of value v in a table of n words; "" outside it. */
static const char *word_of(const char *const *words, int n, int v)
{
	return v >= 0 && v < n && words[v] ? words[v] : "";
}

static const char *hist_what_word(enum ev_what what)
{
	return word_of(WHAT_WORDS, EV_WHAT_COUNT, (int)what);
}

static const char *hist_reason_word(enum ev_reason reason)
{
	return word_of(REASON_WORDS, EV_PAY_COUNT, (int)reason);
}

static const char *hist_note_word(enum ev_note note)
{
	return word_of(NOTE_WORDS, EV_NOTE_COUNT, (int)note);
}

static void jwinner(struct jbuf *b, const struct event *e)
{
	int count = 0;
	for (unsigned m = e->winners; m; m &= m - 1)
		count++;
	if (count > 1) {
		jp(b, "[");
		int k = 0;
		for (int i = 0; i < 32; i++)
			if (e->winners & (1u << i))
				jp(b, k++ ? ",%d" : "%d", i);
		jp(b, "]");
	} else if (count == 1 && e->winner < 0) {
		for (int i = 0; i < 32; i++)
			if (e->winners & (1u << i))
				jp(b, "%d", i);
	} else {
		jseat(b, e->winner);
	}
}

size_t hist_format(const struct event *e, int seq, char *buf, size_t len)
{
	struct jbuf b = { buf, 0, len };
	buf[0] = '\0';
	jp(&b, "{\"type\":\"%s\",\"seq\":%d", hist_type_word(e->type), seq);
	switch (e->type) {
	case EV_HAND_START:
		jp(&b, ",\"hand\":%d,\"dealer\":%d", e->hand, e->dealer);
		if (e->ncards) {
			jp(&b, ",\"pack\":");
			jcards(&b, e->cards, e->ncards);
		}
		break;
	case EV_DEAL:
		jp(&b, ",\"seat\":%d,\"cards\":", e->seat);
		jcards(&b, e->cards, e->ncards);
		break;
	case EV_TURNUP:
		jp(&b, ",\"card\":");
		jcard(&b, e->cards[0]);
		if (e->seat >= 0)
			jp(&b, ",\"seat\":%d", e->seat);
		break;
	case EV_DRAW:
		jp(&b, ",\"seat\":%d,\"discarded\":", e->seat);
		jcards(&b, e->cards, e->ncards);
		jp(&b, ",\"received\":");
		jcards(&b, e->cards2, e->ncards2);
		break;
	case EV_CHOICE:
		jp(&b, ",\"what\":");
		jword(&b, hist_what_word(e->what));
		jp(&b, ",\"value\":");
		switch (e->what) {
		case EV_WHAT_SUIT:
			jp(&b, "\"%c\"", card_suit_char(e->value));
			break;
		case EV_WHAT_FIGURE:
			jp(&b, "\"%c\"", card_rank_char(e->value));
			break;
		case EV_WHAT_CARD:
			jcard(&b, (card_t)e->value);
			break;
		default:
			jp(&b, "%d", e->value);
			break;
		}
		break;
	case EV_ACTION:
		jp(&b, ",\"seat\":%d,\"action\":", e->seat);
		jword(&b, act_word(e->act.kind));
		if (e->act.kind == ACT_PLAY && e->act.ncards == 1) {
			jp(&b, ",\"card\":");
			jcard(&b, e->act.cards[0]);
		} else if (e->act.kind == ACT_DISCARD) {
			jp(&b, ",\"cards\":");
			jcards(&b, e->act.cards, e->act.ncards);
		}
		if (e->amount >= 0)
			jp(&b, ",\"amount\":%d", e->amount);
		break;
	case EV_TRICK:
		jp(&b, ",\"winner\":%d,\"cards\":[", e->winner);
		for (int i = 0; i < e->ncards; i++) {
			jp(&b, "%s{\"seat\":%d,\"card\":", i ? "," : "", e->card_seat[i]);
			jcard(&b, e->cards[i]);
			jp(&b, "}");
		}
		jp(&b, "],\"points\":%d", e->points);
		break;
	case EV_DECLARE:
		jp(&b, ",\"seat\":%d,\"cards\":", e->seat);
		jcards(&b, e->cards, e->ncards);
		jp(&b, ",\"points\":%d", e->points);
		break;
	case EV_SHOWDOWN: {
		int players = e->nvalues;
		for (int i = 0; i < e->ncards; i++)
			if (e->card_seat[i] + 1 > players)
				players = e->card_seat[i] + 1;
		jp(&b, ",\"hands\":[");
		for (int s = 0; s < players; s++) {
			card_t cards[EV_MAX_CARDS];
			int n = 0;
			for (int i = 0; i < e->ncards; i++)
				if (e->card_seat[i] == s)
					cards[n++] = e->cards[i];
			if (s)
				jp(&b, ",");
			jcards(&b, cards, n);
		}
		jp(&b, "],\"winner\":");
		jwinner(&b, e);
		break;
	}
	case EV_PAYMENT:
		jp(&b, ",\"from\":");
		jseat(&b, e->from);
		jp(&b, ",\"to\":");
		jseat(&b, e->to);
		jp(&b, ",\"amount\":%d,\"reason\":", e->amount);
		jword(&b, hist_reason_word(e->reason));
		break;
	case EV_HAND_END:
		jp(&b, ",\"hand\":%d,\"%s\":", e->hand, word_of(VALUES_WORDS, EV_VALUES_COUNT, (int)e->values_kind));
		jints(&b, e->values, e->nvalues);
		jp(&b, ",\"pot\":%d", e->pot);
		break;
	case EV_GAME_END:
		jp(&b, ",\"standings\":");
		jints(&b, e->values, e->nvalues);
		jp(&b, ",\"winner\":");
		jwinner(&b, e);
		break;
	case EV_PHASE:
		jp(&b, ",\"note\":");
		jword(&b, hist_note_word(e->note));
		jp(&b, ",\"seat\":");
		jseat(&b, e->seat);
		jp(&b, ",\"code\":%d,\"value\":%d", e->code, e->value);
		if (e->nvalues) {
			jp(&b, ",\"values\":");
			jints(&b, e->values, e->nvalues);
		}
		if (e->ncards) {
			jp(&b, ",\"cards\":");
			jcards(&b, e->cards, e->ncards);
		}
		break;
	default:
		break;
	}
	jp(&b, "}");
	return b.len;
}

int hist_open(struct history *h, const char *path, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	if (strcmp(path, "-") == 0) {
		h->f = stdout;
		snprintf(h->name, sizeof h->name, "standard output");
		return 0;
	}
	snprintf(h->name, sizeof h->name, "%s", path);
	h->f = fopen(path, "w");
	if (!h->f)
		return errf(err, errlen, "%s: %s", path, strerror(errno));
	h->owned = 1;
	return 0;
}

void hist_attach(struct history *h, FILE *f)
{
	memset(h, 0, sizeof *h);
	h->f = f;
	snprintf(h->name, sizeof h->name, "the hand history");
}

/* After a line: flushed, and the first failure remembered. */
static int written(struct history *h, int ok)
{
	if (ok && fflush(h->f) == 0 && !ferror(h->f))
		return 0;
	if (!h->failed) {
		h->failed = 1;
		h->error = errno;
	}
	return -1;
}

int hist_failed(const struct history *h, char *err, size_t errlen)
{
	if (!h->failed)
		return 0;
	return errf(err, errlen, "%s: the hand history could not be written (%s); it stops at its last full line",
	            h->name, h->error ? strerror(h->error) : "write error");
}

int hist_close(struct history *h, char *err, size_t errlen)
{
	if (h->f && !h->failed)
		written(h, 1);
	if (h->f && h->owned && fclose(h->f) != 0 && !h->failed) {
		h->failed = 1;
		h->error = errno;
	}
	int rc = hist_failed(h, err, errlen);
	memset(h, 0, sizeof *h);
	return rc;
}

void hist_release(struct history *h)
{
	hist_close(h, NULL, 0);
}

int hist_game_start(struct history *h, const char *game, int players, uint64_t seed, const char *seed_from,
                    const struct rules *r)
{
	if (!h->f || h->failed)
		return h->failed ? -1 : 0;
	int ok = fprintf(h->f, "{\"type\":\"game_start\",\"seq\":%d,\"game\":\"%s\",\"players\":%d,\"seed\":%" PRIu64
	                 "%s%s%s,\"rules\":{", h->seq++, game, players, seed, seed_from ? ",\"seed_from\":\"" : "",
	                 seed_from ? seed_from : "", seed_from ? "\"" : "") > 0;
	for (int i = 0; ok && i < r->n; i++) {
		char buf[RULES_VALUE_MAX];
		const char *v = rules_value_str(r, i, buf, sizeof buf);
		int numeric = r->defs[i].type == RULE_INT && strspn(v, "-0123456789") == strlen(v);
		ok = fprintf(h->f, numeric ? "%s\"%s\":%s" : "%s\"%s\":\"%s\"", i ? "," : "", r->defs[i].key, v) > 0;
	}
	ok = ok && fputs("}}\n", h->f) != EOF;
	return written(h, ok);
}

int hist_event(struct history *h, const struct event *e)
{
	if (!h->f || e->type == EV_GAME_START || h->failed)
		return h->failed ? -1 : 0;
	char buf[HIST_LINE_MAX];
	size_t n = hist_format(e, h->seq++, buf, sizeof buf);
	buf[n] = '\n';
	return written(h, fwrite(buf, 1, n + 1, h->f) == n + 1);
}
