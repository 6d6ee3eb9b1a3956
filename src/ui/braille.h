/* SPDX-License-Identifier: GPL-3.0-or-later */
/* braille: the table on a refreshable braille display, through BrlAPI.
 *
 * One line of cells shows the latest announcement (or the answer to a
 * key), the compact hand line, or the open menu. New announcements wait
 * in a queue while the line shown has not been held for brl.hold seconds
 * (or a key was pressed); the last cell counts the lines waiting. The
 * display's keys come back as tapis keys (brl_key): line up/down are the
 * arrows, typed characters are keys, a routing key names an item of the
 * line, and the one over the status cell is Enter.
 *
 * Backends are one table each: brlapi, and null (nothing shown, no key)
 * for the tests and a machine without brltty. */
#ifndef TAPIS_BRAILLE_H
#define TAPIS_BRAILLE_H

#include <stddef.h>

#include "core/card.h"

#define BRL_TEXT_MAX 2048
#define BRL_QUEUE 64
#define BRL_WIDTH_MAX 256
#define BRL_HOLD_DEFAULT 2.0
#define BRL_READ_MIN 0.3    /* seconds a line is shown before a key may skip it */

enum brl_mode { BRL_AUTO, BRL_ON, BRL_OFF };

/* What the line shows (routing keys act on it). */
enum brl_line { BRL_LINE_TEXT, BRL_LINE_HAND, BRL_LINE_MENU, BRL_LINE_TABLE };

struct brl;

struct brl_backend {
	const char *name;
	/* 0 with b->width set, or -1 with a message. */
	int (*open)(struct brl *b, char *err, size_t errlen);
	void (*close)(struct brl *b);
	/* Show width cells of text (UTF-8, exactly b->width characters);
	 * cells [mark_from, mark_to) get dots 7-8. */
	void (*write)(struct brl *b, const char *text, int mark_from, int mark_to);
	/* The next key of the display: 1 with *code, 0 none. */
	int (*read)(struct brl *b, unsigned long long *code);
};

struct brl {
	const struct brl_backend *be;   /* NULL: no display */
	void *impl;
	int width;                      /* cells of the line */
	double hold;                    /* seconds a line is kept at least */
	/* The line shown and where the window stands in it. */
	char line[BRL_TEXT_MAX];
	int kind;                       /* enum brl_line */
	int offset;                     /* first character in the window */
	double shown_at;
	int read;                       /* a key came since the line was shown */
	int announce;                   /* the line is an announcement (not a key's answer) */
	int dirty;
	int written;                    /* the line shown reached the cells */
	/* The announcements waiting. */
	char queue[BRL_QUEUE][BRL_TEXT_MAX];
	int qhead, qcount;
	/* The hand line: the character where each item starts and ends
	 * (cards or menu items), and the item marked with dots 7-8. */
	int item_from[64], item_to[64];
	int nitems, mark;
};

/* A key from the display: a tapis key (ui/term's codes), or a routing key. */
struct brl_key {
	int key;        /* KEY_* or a character; 0 with route >= 0 */
	int route;      /* the item under the routing key pressed, or -1 */
};

/* The mode's word ("auto", "on", "off") to its value, -1 when unknown. */
int brl_mode_parse(const char *word);
/* Open: BRL_OFF gives the null display; BRL_AUTO the BrlAPI display when a
 * server answers (else null, silently); BRL_ON the same but a failure is
 * told in err (returns -1 then, still usable as null). */
int brl_open(struct brl *b, int mode, double hold, char *err, size_t errlen);
/* Open with a given backend (the tests). */
int brl_open_backend(struct brl *b, const struct brl_backend *be, double hold, char *err, size_t errlen);
void brl_close(struct brl *b);
/* 1 when a display is there. */
int brl_active(const struct brl *b);

/* A sentence said: an announcement (queued behind a line not yet held
 * long enough) or, with at_once, an answer to a key (shown at once; an
 * announcement it covers before its time waits again, first). */
void brl_heard(struct brl *b, const char *text, int at_once, double now);
/* The compact hand: "S: A K 9 | H: Q | C: 7 2" (in French "P: A R 9 |
 * C: D | K: 7 2", ten X); card marked gets dots 7-8 (-1 none); where
 * each card stands is kept for the routing keys. */
void brl_show_hand(struct brl *b, const card_t *hand, int n, int marked, const char *lang, double now);
/* The table: the trick in progress, each card after the tag of the seat
 * that played it, then the seat to act with "?": "B:QH C:KH Y:?" (cards
 * as in the hand line, rank then suit: "B:DC" in French); tag[s] is seat
 * s's (ntag seats), to_act -1 when nobody acts. */
void brl_show_table(struct brl *b, const char *const *tag, int ntag, const int *seat, const card_t *cards, int n,
                    int to_act, const char *lang, double now);
/* A menu: the items one after the other, the current one marked. */
void brl_show_menu(struct brl *b, const char *const *items, int n, int current, double now);
/* Time passes: the next waiting line when the one shown was held long
 * enough, and the cells written when they changed. */
void brl_tick(struct brl *b, double now);
/* The next key of the display, panning handled here: 1 with *k, 0 none. */
int brl_key(struct brl *b, struct brl_key *k, double now);
/* The window's text as written now (width characters, the status cell
 * last): what the tests read. */
void brl_window(const struct brl *b, char *out, size_t outlen);

extern const struct brl_backend brl_null_backend;
extern const struct brl_backend brl_brlapi_backend;

#endif
