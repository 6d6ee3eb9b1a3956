/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/braille.h"

#include <brlapi.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "ui/term.h"

/* ---- the null display ---- */

static int null_open(struct brl *b, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	b->width = 40;
	return 0;
}
static void null_close(struct brl *b) { (void)b; }
static void null_write(struct brl *b, const char *text, int from, int to)
{
	(void)b; (void)text; (void)from; (void)to;
}
static int null_read(struct brl *b, unsigned long long *code)
{
	(void)b;
	(void)code;
	return 0;
}

const struct brl_backend brl_null_backend = {
	.name = "null", .open = null_open, .close = null_close, .write = null_write, .read = null_read,
};

/* ---- BrlAPI ---- */

static int api_open(struct brl *b, char *err, size_t errlen)
{
	/* The host and key from BRLAPI_HOST and BRLAPI_AUTH, else the
	 * local server's defaults: a local socket answers or fails at once. */
	if (brlapi_openConnection(NULL, NULL) < 0) {
		snprintf(err, errlen, "BrlAPI: %s", brlapi_strerror(&brlapi_error));
		return -1;
	}
	unsigned x = 0, y = 0;
	if (brlapi_getDisplaySize(&x, &y) < 0 || x == 0) {
		snprintf(err, errlen, "BrlAPI: %s", x ? brlapi_strerror(&brlapi_error) : "no display");
		brlapi_closeConnection();
		return -1;
	}
	/* Not a console of its own: the display is taken whatever the screen. */
	if (brlapi_enterTtyModeWithPath(NULL, 0, NULL) < 0) {
		snprintf(err, errlen, "BrlAPI: %s", brlapi_strerror(&brlapi_error));
		brlapi_closeConnection();
		return -1;
	}
	b->width = x * (y ? y : 1) > BRL_WIDTH_MAX ? BRL_WIDTH_MAX : (int)(x * (y ? y : 1));
	return 0;
}

static void api_close(struct brl *b)
{
	(void)b;
	brlapi_leaveTtyMode();
	brlapi_closeConnection();
}

static void api_write(struct brl *b, const char *text, int from, int to)
{
	unsigned char or[BRL_WIDTH_MAX];
	memset(or, 0, sizeof or);
	for (int i = from; i >= 0 && i < to && i < b->width; i++)
		or[i] = BRLAPI_DOT7 | BRLAPI_DOT8;
	brlapi_writeArguments_t wa = BRLAPI_WRITEARGUMENTS_INITIALIZER;
	wa.displayNumber = BRLAPI_DISPLAY_DEFAULT;
	wa.regionBegin = 1;
	wa.regionSize = b->width;
	wa.text = (char *)text;
	wa.textSize = (int)strlen(text);
	wa.charset = (char *)"UTF-8";
	wa.orMask = or;
	wa.cursor = BRLAPI_CURSOR_OFF;
	brlapi_write(&wa);
}

static int api_read(struct brl *b, unsigned long long *code)
{
	(void)b;
	brlapi_keyCode_t k;
	if (brlapi_readKey(0, &k) <= 0)
		return 0;
	*code = k;
	return 1;
}

const struct brl_backend brl_brlapi_backend = {
	.name = "brlapi", .open = api_open, .close = api_close, .write = api_write, .read = api_read,
};

/* A BrlAPI error must not end the game: it is ignored (the display is
 * then silent). */
static void api_exception(int error, brlapi_packetType_t type, const void *packet, size_t size)
{
	(void)error; (void)type; (void)packet; (void)size;
}

/* ---- the line ---- */

int brl_mode_parse(const char *word)
{
	if (!word)
		return -1;
	if (!strcmp(word, "auto"))
		return BRL_AUTO;
	if (!strcmp(word, "on"))
		return BRL_ON;
	if (!strcmp(word, "off"))
		return BRL_OFF;
	return -1;
}

int brl_open_backend(struct brl *b, const struct brl_backend *be, double hold, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	b->hold = hold < 0 ? 0 : hold;
	b->mark = -1;
	if (be->open(b, err, errlen) < 0)
		return -1;
	if (b->width < 2)
		b->width = 2;
	b->be = be;
	b->dirty = 1;
	return 0;
}

int brl_open(struct brl *b, int mode, double hold, char *err, size_t errlen)
{
	if (mode == BRL_OFF) {
		memset(b, 0, sizeof *b);
		return 0;
	}
	/* Without a server there is nothing to ask: auto looks for one only
	 * where BrlAPI would (its environment or the local socket). */
	brlapi_setExceptionHandler(api_exception);
	char why[256];
	if (brl_open_backend(b, &brl_brlapi_backend, hold, why, sizeof why) == 0)
		return 0;
	memset(b, 0, sizeof *b);
	if (mode == BRL_ON) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	return 0;
}

void brl_close(struct brl *b)
{
	if (b->be)
		b->be->close(b);
	b->be = NULL;
}

int brl_active(const struct brl *b) { return b->be != NULL; }

/* Characters of s from character i on (a UTF-8 offset). */
static const char *char_at(const char *s, int i)
{
	while (*s && i > 0) {
		s++;
		while (*s && utf8_cont((unsigned char)*s))
			s++;
		i--;
	}
	return s;
}

static void show(struct brl *b, const char *text, int kind, double now)
{
	snprintf(b->line, sizeof b->line, "%s", text);
	b->kind = kind;
	b->offset = 0;
	b->shown_at = now;
	b->read = 0;
	b->announce = 0;
	b->written = 0;
	if (kind == BRL_LINE_TEXT) {
		b->nitems = 0;
		b->mark = -1;
	}
	b->dirty = 1;
}

/* An announcement not yet held long enough comes back after what covers
 * it (a key's answer, the hand, a menu): none is lost for a key. */
static void cover(struct brl *b, double now)
{
	if (b->kind == BRL_LINE_TEXT && b->announce && now - b->shown_at < b->hold &&
	    b->qcount < BRL_QUEUE) {
		b->qhead = (b->qhead + BRL_QUEUE - 1) % BRL_QUEUE;
		snprintf(b->queue[b->qhead], BRL_TEXT_MAX, "%s", b->line);
		b->qcount++;
	}
}

void brl_heard(struct brl *b, const char *text, int at_once, double now)
{
	if (!b->be || !text || !*text)
		return;
	if (at_once) {
		cover(b, now);
		show(b, text, BRL_LINE_TEXT, now);
		return;
	}
	if (b->qcount == 0 && (b->read || now - b->shown_at >= b->hold || !b->line[0])) {
		show(b, text, BRL_LINE_TEXT, now);
		b->announce = 1;
		return;
	}
	if (b->qcount == BRL_QUEUE) {
		/* Full: the oldest waiting line is shown now, as if read. */
		show(b, b->queue[b->qhead], BRL_LINE_TEXT, now);
		b->announce = 1;
		b->qhead = (b->qhead + 1) % BRL_QUEUE;
		b->qcount--;
	}
	snprintf(b->queue[(b->qhead + b->qcount) % BRL_QUEUE], BRL_TEXT_MAX, "%s", text);
	b->qcount++;
	b->dirty = 1;   /* the status cell */
}

/* The window on the marked item of a long line: the routing keys reach
 * the card just selected or the item just chosen without panning again. */
static void follow_mark(struct brl *b)
{
	int w = b->width - 1;
	if (b->mark < 0 || b->mark >= b->nitems || w < 1)
		return;
	while (b->item_to[b->mark] > b->offset + w)
		b->offset += w;
}

static const char *const suit_en = "SHDC";
static const char *const suit_fr = "PCKT";   /* pique, cœur, carreau (K), trèfle */

static char rank_char(int rank, int fr)
{
	if (!fr)
		return card_rank_char(rank);   /* A K Q J T 9 ... */
	switch (rank) {
	case RANK_KING: return 'R';
	case RANK_QUEEN: return 'D';
	case RANK_JACK: return 'V';
	case RANK_TEN: return 'X';
	default: return card_rank_char(rank);
	}
}

void brl_show_hand(struct brl *b, const card_t *hand, int n, int marked, const char *lang, double now)
{
	if (!b->be)
		return;
	int fr = lang && !strcmp(lang, "fr");
	char text[BRL_TEXT_MAX];
	int len = 0, chars = 0, last_suit = -1;
	b->nitems = 0;
	for (int i = 0; i < n && i < 64 && len < (int)sizeof text - 16; i++) {
		int s = card_suit(hand[i]);
		if (s != last_suit) {
			len += snprintf(text + len, sizeof text - len, "%s%c:", last_suit < 0 ? "" : " | ", (fr ? suit_fr : suit_en)[s]);
			chars += (last_suit < 0 ? 0 : 3) + 2;
			last_suit = s;
		}
		text[len++] = ' ';
		chars++;
		b->item_from[b->nitems] = chars;
		text[len++] = rank_char(card_rank(hand[i]), fr);
		chars++;
		b->item_to[b->nitems++] = chars;
		text[len] = 0;
	}
	text[len] = 0;
	cover(b, now);
	show(b, text, BRL_LINE_HAND, now);
	b->mark = marked;
	follow_mark(b);
}

void brl_show_table(struct brl *b, const char *const *tag, int ntag, const int *seat, const card_t *cards, int n,
                    int to_act, const char *lang, double now)
{
	if (!b->be)
		return;
	int fr = lang && !strcmp(lang, "fr");
	char text[BRL_TEXT_MAX];
	size_t len = 0;
	text[0] = 0;
	for (int i = 0; i <= n && len + 64 < sizeof text; i++) {
		int s = i < n ? seat[i] : to_act;
		if (s < 0)
			break;
		const char *t = s < ntag && tag[s] ? tag[s] : "?";
		if (i < n)
			len += (size_t)snprintf(text + len, sizeof text - len, "%s%.24s:%c%c", len ? " " : "", t,
			                        rank_char(card_rank(cards[i]), fr), (fr ? suit_fr : suit_en)[card_suit(cards[i])]);
		else
			len += (size_t)snprintf(text + len, sizeof text - len, "%s%.24s:?", len ? " " : "", t);
	}
	cover(b, now);
	show(b, text, BRL_LINE_TABLE, now);
	b->nitems = 0;
	b->mark = -1;
}

void brl_show_menu(struct brl *b, const char *const *items, int n, int current, double now)
{
	if (!b->be)
		return;
	char text[BRL_TEXT_MAX];
	int len = 0, chars = 0;
	text[0] = 0;
	b->nitems = 0;
	for (int i = 0; i < n && i < 64; i++) {
		size_t w = strlen(items[i]);
		if (len + w + 4 >= sizeof text)
			break;
		if (i) {
			len += snprintf(text + len, sizeof text - len, " | ");
			chars += 3;
		}
		b->item_from[b->nitems] = chars;
		len += snprintf(text + len, sizeof text - len, "%s", items[i]);
		chars += (int)utf8_count(items[i]);
		b->item_to[b->nitems++] = chars;
	}
	cover(b, now);
	show(b, text, BRL_LINE_MENU, now);
	b->mark = current;
	follow_mark(b);
}

void brl_window(const struct brl *b, char *out, size_t outlen)
{
	int text = b->width - 1;   /* the last cell counts the waiting lines */
	const char *s = char_at(b->line, b->offset);
	size_t o = 0;
	int k = 0;
	while (k < text && *s && o + 5 < outlen) {
		size_t l = 1;
		while (s[l] && utf8_cont((unsigned char)s[l]))
			l++;
		memcpy(out + o, s, l);
		o += l;
		s += l;
		k++;
	}
	while (k < text && o + 2 < outlen) {
		out[o++] = ' ';
		k++;
	}
	if (o + 2 < outlen)
		out[o++] = b->qcount == 0 ? ' ' : b->qcount > 9 ? '+' : (char)('0' + b->qcount);
	out[o] = 0;
}

void brl_tick(struct brl *b, double now)
{
	if (!b->be)
		return;
	/* A line goes only once it reached the cells: one shown between two
	 * ticks (the answer to a key) is written before the next comes. */
	if (b->qcount && b->written && (b->read || now - b->shown_at >= b->hold)) {
		show(b, b->queue[b->qhead], BRL_LINE_TEXT, now);
		b->announce = 1;
		b->qhead = (b->qhead + 1) % BRL_QUEUE;
		b->qcount--;
	}
	if (!b->dirty)
		return;
	b->dirty = 0;
	char cells[BRL_WIDTH_MAX * 4 + 8];
	brl_window(b, cells, sizeof cells);
	int from = -1, to = -1;
	if (b->mark >= 0 && b->mark < b->nitems) {
		from = b->item_from[b->mark] - b->offset;
		to = b->item_to[b->mark] - b->offset;
		if (from < 0)
			from = 0;
		if (to > b->width - 1)
			to = b->width - 1;
	}
	b->be->write(b, cells, from, to);
	b->written = 1;
}

/* The item under column col of the window, or -1. */
static int item_at(const struct brl *b, int col)
{
	int c = col + b->offset;
	for (int i = 0; i < b->nitems; i++)
		if (c >= b->item_from[i] - (b->kind == BRL_LINE_MENU ? 0 : 0) && c < b->item_to[i] + (b->kind == BRL_LINE_MENU ? 3 : 1))
			return i;
	return -1;
}

int brl_key(struct brl *b, struct brl_key *k, double now)
{
	unsigned long long code;
	if (!b->be)
		return 0;
	while (b->be->read(b, &code)) {
		k->key = 0;
		k->route = -1;
		/* A key lets the next line come, once the line has been there a
		 * moment: a key pressed as it appears does not skip it. */
		if (now - b->shown_at >= (b->hold < BRL_READ_MIN ? b->hold : BRL_READ_MIN))
			b->read = 1;
		if ((code & BRLAPI_KEY_TYPE_MASK) == BRLAPI_KEY_TYPE_CMD) {
			unsigned long long blk = code & BRLAPI_KEY_CMD_BLK_MASK;
			int arg = (int)(code & BRLAPI_KEY_CMD_ARG_MASK);
			unsigned long long cmd = code & BRLAPI_KEY_CODE_MASK;
			int len = (int)utf8_count(b->line);
			if (blk == BRLAPI_KEY_CMD_ROUTE) {
				if (arg == b->width - 1) {
					k->key = KEY_ENTER;   /* over the status cell: Enter */
					return 1;
				}
				if (b->kind == BRL_LINE_TEXT)
					continue;
				k->route = item_at(b, arg);
				if (k->route < 0)
					continue;
				return 1;
			}
			if (cmd == BRLAPI_KEY_CMD_FWINRT) {
				if (b->offset + b->width - 1 < len) {
					b->offset += b->width - 1;
					b->dirty = 1;
				} else if (b->qcount) {
					brl_tick(b, now);   /* at the end of the line: the next one */
				}
				continue;
			}
			if (cmd == BRLAPI_KEY_CMD_FWINLT) {
				b->offset = b->offset > b->width - 1 ? b->offset - (b->width - 1) : 0;
				b->dirty = 1;
				continue;
			}
			if (cmd == BRLAPI_KEY_CMD_LNUP) { k->key = KEY_UP; return 1; }
			if (cmd == BRLAPI_KEY_CMD_LNDN) { k->key = KEY_DOWN; return 1; }
			if (cmd == BRLAPI_KEY_CMD_HOME || cmd == BRLAPI_KEY_CMD_LNBEG) {
				b->offset = 0;
				b->dirty = 1;
				continue;
			}
			continue;
		}
		unsigned long long sym = code & BRLAPI_KEY_CODE_MASK;
		switch (sym) {
		case BRLAPI_KEY_SYM_LINEFEED: k->key = KEY_ENTER; return 1;
		case BRLAPI_KEY_SYM_ESCAPE: k->key = KEY_ESCAPE; return 1;
		case BRLAPI_KEY_SYM_UP: k->key = KEY_UP; return 1;
		case BRLAPI_KEY_SYM_DOWN: k->key = KEY_DOWN; return 1;
		case BRLAPI_KEY_SYM_LEFT: k->key = KEY_LEFT; return 1;
		case BRLAPI_KEY_SYM_RIGHT: k->key = KEY_RIGHT; return 1;
		case BRLAPI_KEY_SYM_BACKSPACE: k->key = KEY_BACKSPACE; return 1;
		case BRLAPI_KEY_SYM_FUNCTION: k->key = KEY_F1; return 1;
		default: break;
		}
		if ((sym & BRLAPI_KEY_SYM_UNICODE) == BRLAPI_KEY_SYM_UNICODE)
			sym &= 0xffffff;
		if (sym >= 0x20 && sym < 0x7f) {
			/* Letters are the keys' capitals, as ui/term gives them. */
			k->key = toupper((int)sym);
			return 1;
		}
		if (sym == '\r' || sym == '\n') {
			k->key = KEY_ENTER;
			return 1;
		}
	}
	return 0;
}
