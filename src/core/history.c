/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/history.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/card.h"
#include "core/err.h"
#include "core/xalloc.h"

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

/* A string as JSON writes it: quotes, backslashes and control characters
 * escaped (a name is a stranger's). */
static void jstring(struct jbuf *b, const char *s)
{
	jp(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p == '"' || *p == '\\')
			jp(b, "\\%c", *p);
		else if (*p < 0x20)
			jp(b, "\\u%04x", *p);
		else
			jp(b, "%c", *p);
	jp(b, "\"");
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

/* The buffer of held lines kept between actions (a bigger one is freed). */
#define HIST_HELD_KEEP ((size_t)64 << 10)

/* Move the file at path aside to the first free PATH.N: link(2) never
 * replaces a file. 0, or -1 with errno. */
static int move_aside(const char *path)
{
	size_t len = strlen(path) + 16;
	char *to = malloc(len);
	if (!to)
		return -1;
	int rc = -1;
	for (int k = 1; k <= 1000; k++) {
		snprintf(to, len, "%s.%d", path, k);
		if (link(path, to) == 0) {
			rc = unlink(path);
			break;
		}
		if (errno != EEXIST)
			break;
	}
	free(to);
	return rc;
}

/* The file's descriptor for one operation: the one kept open, or (shut)
 * one opened now, for fd_done to close. -1 with errno. */
static int fd_take(struct history *h)
{
	if (!h->shut)
		return h->fd;
	return open(h->path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
}

static void fd_done(struct history *h, int fd)
{
	if (h->shut && fd >= 0)
		close(fd);
}

void hist_shut(struct history *h)
{
	if (!h->owned || h->f || h->shut)
		return;
	close(h->fd);
	h->fd = -1;
	h->shut = 1;
}

int hist_rename(struct history *h, const char *path, char *err, size_t errlen)
{
	if (!h->owned || !h->path)
		return errf(err, errlen, "%s: not a file of its own", h->name);
	if (rename(h->path, path) < 0)
		return errf(err, errlen, "%s: cannot be renamed %s: %s", h->name, path, strerror(errno));
	free(h->path);
	h->path = xstrdup(path);
	snprintf(h->name, sizeof h->name, "%s", path);
	return 0;
}

int hist_open(struct history *h, const char *path, char *err, size_t errlen)
{
	return hist_open_mode(h, path, HIST_REPLACE, err, errlen);
}

int hist_open_mode(struct history *h, const char *path, enum hist_mode mode, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	h->fd = -1;
	if (strcmp(path, "-") == 0) {
		h->f = stdout;
		snprintf(h->name, sizeof h->name, "standard output");
		return 0;
	}
	snprintf(h->name, sizeof h->name, "%s", path);
	/* Read back too (HIST_APPEND: hist_reconcile). */
	int flags = (mode == HIST_APPEND ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND | O_CLOEXEC;
	if (mode == HIST_REPLACE)
		flags |= O_TRUNC;
	else if (mode == HIST_NEW)
		flags |= O_EXCL;
	else
		flags |= O_NOFOLLOW;
	int fd = open(path, flags, 0600);
	if (fd < 0 && mode == HIST_NEW && errno == EEXIST && move_aside(path) == 0)
		fd = open(path, flags, 0600);
	/* A player's --log may be a device or a pipe; a server's histories are
	 * files. */
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || (mode != HIST_REPLACE && !S_ISREG(st.st_mode)))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd < 0)
		return errf(err, errlen, "%s: %s", path, errno == EINVAL ? "not a regular file" : strerror(errno));
	h->fd = fd;
	h->size = S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
	h->path = strdup(path);
	h->owned = 1;
	return 0;
}

void hist_attach(struct history *h, FILE *f)
{
	memset(h, 0, sizeof *h);
	h->fd = -1;
	h->f = f;
	snprintf(h->name, sizeof h->name, "the hand history");
}

void hist_hold(struct history *h)
{
	h->hold = 1;
}

static void note_failure(struct history *h, int e)
{
	if (!h->failed) {
		h->failed = 1;
		h->error = e;
	}
}

/* Write n bytes of whole lines: on a stream, then flushed; on a file of
 * ours with write(2), and a write cut short is cut back off the file, so
 * that it ends with a whole line whatever happens. 0 or -1. */
static int put(struct history *h, const char *buf, size_t n)
{
	if (h->f) {
		if (fwrite(buf, 1, n, h->f) == n && fflush(h->f) == 0 && !ferror(h->f))
			return 0;
		note_failure(h, errno);
		return -1;
	}
	if (!h->owned)
		return 0;
	int fd = fd_take(h);
	if (fd < 0) {
		note_failure(h, errno);
		h->error = errno;
		return -1;
	}
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;
			if (done && ftruncate(fd, (off_t)h->size) < 0)
				h->size += (long long)done; /* cannot be cut back: counted */
			fd_done(h, fd);
			note_failure(h, e);
			h->error = e;
			return -1;
		}
		done += (size_t)w;
	}
	fd_done(h, fd);
	h->size += (long long)n;
	return 0;
}

/* One line (n bytes, its newline included): held, or written now. */
static int emit(struct history *h, const char *line, size_t n)
{
	if (h->hold) {
		xgrowz((void **)&h->held, &h->capheld, h->nheld + n, 1);
		memcpy(h->held + h->nheld, line, n);
		h->nheld += n;
		return 0;
	}
	if (h->failed)
		return -1;
	return put(h, line, n);
}

int hist_sync(struct history *h)
{
	if (!h->nheld)
		return h->failed && !h->hold ? -1 : 0;
	if (put(h, h->held, h->nheld) < 0)
		return -1;
	h->nheld = 0;
	if (h->capheld > HIST_HELD_KEEP) {
		/* A whole game replayed at a restart: not kept for the game's life. */
		free(h->held);
		h->held = NULL;
		h->capheld = 0;
	}
	h->failed = 0;
	h->error = 0;
	return 0;
}

struct hist_mark hist_mark(const struct history *h)
{
	struct hist_mark m = { h->size, h->nheld, h->seq };
	return m;
}

void hist_rewind(struct history *h, struct hist_mark m)
{
	h->seq = m.seq;
	if (h->size == m.size) {
		if (h->nheld > m.held)
			h->nheld = m.held;
		return;
	}
	/* Written since: what was held at the mark stays written. */
	long long keep = m.size + (long long)m.held;
	int fd = h->owned ? fd_take(h) : -1;
	if (fd >= 0 && ftruncate(fd, (off_t)keep) == 0)
		h->size = keep;
	else
		note_failure(h, errno);
	fd_done(h, fd);
	h->nheld = 0;
}

int hist_reconcile(struct history *h, char *err, size_t errlen)
{
	if (!h->owned)
		return hist_sync(h) < 0 ? hist_failed(h, err, errlen) : 0;
	size_t have = 0;
	char *text = NULL;
	int rfd = h->size > 0 && (size_t)h->size <= h->nheld ? fd_take(h) : -1;
	if (rfd >= 0) {
		text = xmalloc((size_t)h->size);
		ssize_t r;
		while (have < (size_t)h->size && (r = pread(rfd, text + have, (size_t)h->size - have, (off_t)have)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break; /* not read: not taken as the beginning */
			have += (size_t)r;
		}
		fd_done(h, rfd);
	}
	/* Lines written before a restart are the beginning of the game
	 * replayed: what is missing follows them. Any other file (longer, or
	 * another game) is never cut nor overwritten: it is moved aside. */
	int prefix = have == (size_t)h->size && !memcmp(text ? text : "", h->held ? h->held : "", have);
	free(text);
	if (prefix) {
		memmove(h->held, h->held + have, h->nheld - have);
		h->nheld -= have;
	} else {
		int fd = -1;
		if (move_aside(h->path) < 0 ||
		    (fd = open(h->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600)) < 0)
			return errf(err, errlen, "%s: %s", h->name, strerror(errno));
		if (h->shut) {
			close(fd);
			fd = -1;
		} else {
			close(h->fd);
		}
		h->fd = fd;
		h->size = 0;
	}
	return hist_sync(h) < 0 ? hist_failed(h, err, errlen) : 0;
}

/* After a line: flushed, and the first failure remembered. */
static int written(struct history *h, int ok)
{
	if (ok && (!h->f || (fflush(h->f) == 0 && !ferror(h->f))))
		return 0;
	note_failure(h, errno);
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
	if (h->nheld)
		hist_sync(h);
	if (h->f && !h->failed)
		written(h, 1);
	if (h->f && h->owned && fclose(h->f) != 0)
		note_failure(h, errno);
	if (!h->f && h->owned && !h->shut && close(h->fd) != 0)
		note_failure(h, errno);
	int rc = hist_failed(h, err, errlen);
	free(h->held);
	free(h->path);
	memset(h, 0, sizeof *h);
	h->fd = -1;
	return rc;
}

void hist_release(struct history *h)
{
	hist_close(h, NULL, 0);
}

int hist_game_start(struct history *h, const char *game, int players, uint64_t seed, const char *seed_from,
                    const struct rules *r, const char *const *names)
{
	if ((!h->f && !h->owned) || (h->failed && !h->hold))
		return h->failed ? -1 : 0;
	char buf[HIST_LINE_MAX];
	struct jbuf b = { buf, 0, sizeof buf - 1 };
	jp(&b, "{\"type\":\"game_start\",\"seq\":%d,\"game\":\"%s\",\"players\":%d,\"seed\":%" PRIu64, h->seq++, game,
	   players, seed);
	if (seed_from)
		jp(&b, ",\"seed_from\":\"%s\"", seed_from);
	jp(&b, ",\"rules\":{");
	for (int i = 0; i < r->n; i++) {
		char v[RULES_VALUE_MAX];
		const char *val = rules_value_str(r, i, v, sizeof v);
		int numeric = r->defs[i].type == RULE_INT && strspn(val, "-0123456789") == strlen(val);
		jp(&b, numeric ? "%s\"%s\":%s" : "%s\"%s\":\"%s\"", i ? "," : "", r->defs[i].key, val);
	}
	jp(&b, "}");
	if (names) {
		jp(&b, ",\"names\":[");
		for (int k = 0; k < players; k++) {
			if (k)
				jp(&b, ",");
			jstring(&b, names[k] ? names[k] : "");
		}
		jp(&b, "]");
	}
	jp(&b, "}");
	buf[b.len] = '\n';
	return emit(h, buf, b.len + 1);
}

int hist_event(struct history *h, const struct event *e)
{
	if ((!h->f && !h->owned) || e->type == EV_GAME_START || (h->failed && !h->hold))
		return h->failed ? -1 : 0;
	char buf[HIST_LINE_MAX];
	size_t n = hist_format(e, h->seq++, buf, sizeof buf);
	buf[n] = '\n';
	return emit(h, buf, n + 1);
}
