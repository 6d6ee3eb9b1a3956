/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/braille on a display made in memory: what the cells show (the
 * compact hand, the status cell, dots 7-8), the hold that loses no
 * announcement, and the keys (routing, panning, line up/down, typed). */
#include <brlapi.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "ui/braille.h"
#include "ui/term.h"
#include "testutil.h"

static char shown[BRL_WIDTH_MAX * 4 + 8];
static int mark_from, mark_to, writes;
static unsigned long long keys[16];
static int nkeys, keyat;

static int mem_open(struct brl *b, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	b->width = 40;
	shown[0] = 0;
	writes = nkeys = keyat = 0;
	return 0;
}
static void mem_close(struct brl *b) { (void)b; }
static void mem_write(struct brl *b, const char *text, int from, int to)
{
	(void)b;
	snprintf(shown, sizeof shown, "%s", text);
	mark_from = from;
	mark_to = to;
	writes++;
}
static int mem_read(struct brl *b, unsigned long long *code)
{
	(void)b;
	if (keyat >= nkeys)
		return 0;
	*code = keys[keyat++];
	return 1;
}
static const struct brl_backend mem = { "memory", mem_open, mem_close, mem_write, mem_read };

/* The text of the cells without the trailing blanks and the status cell. */
static const char *text_of(void)
{
	static char t[sizeof shown];
	snprintf(t, sizeof t, "%s", shown);
	size_t n = strlen(t);
	if (n)
		t[--n] = 0;   /* the status cell */
	while (n && t[n - 1] == ' ')
		t[--n] = 0;
	return t;
}
static char status_of(void) { return shown[0] ? shown[strlen(shown) - 1] : 0; }

START_TEST(hand_line_both_languages)
{
	struct brl b;
	char err[128];
	ck_assert_int_eq(brl_open_backend(&b, &mem, 2.0, err, sizeof err), 0);
	card_t hand[5] = { card_make(RANK_ACE, SUIT_SPADES), card_make(RANK_KING, SUIT_SPADES),
	                   card_make(RANK_QUEEN, SUIT_HEARTS), card_make(RANK_TEN, SUIT_CLUBS),
	                   card_make(RANK_TWO, SUIT_CLUBS) };
	brl_show_hand(&b, hand, 5, 2, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "S: A K | H: Q | C: T 2");
	/* The queen, under dots 7-8. */
	ck_assert_int_eq(mark_from, 12);
	ck_assert_int_eq(mark_to, 13);
	brl_show_hand(&b, hand, 5, 0, "fr", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "P: A R | C: D | T: X 2");
	hand[2] = card_make(RANK_JACK, SUIT_DIAMONDS);
	brl_show_hand(&b, hand + 2, 1, -1, "fr", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "K: V");
	ck_assert_int_eq(mark_from, -1);
	brl_close(&b);
}
END_TEST

/* Announcements faster than the hold wait; the status cell counts them;
 * a key's answer shows at once and the announcement it covered comes back. */
START_TEST(table_line_both_languages)
{
	struct brl b;
	char err[128];
	ck_assert_int_eq(brl_open_backend(&b, &mem, 2.0, err, sizeof err), 0);
	const char *tags[4] = { "Y", "B", "Cl", "Co" };
	int seat[2] = { 1, 2 };
	card_t cards[2] = { card_make(RANK_QUEEN, SUIT_HEARTS), card_make(RANK_TEN, SUIT_HEARTS) };
	brl_show_table(&b, tags, 4, seat, cards, 2, 3, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "B:QH Cl:TH Co:?");
	ck_assert_int_eq(b.kind, BRL_LINE_TABLE);
	brl_show_table(&b, tags, 4, seat, cards, 2, 3, "fr", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "B:DC Cl:XC Co:?");
	/* Nothing played yet: whose lead; the trick's last card, nobody to act. */
	brl_show_table(&b, tags, 4, seat, cards, 0, 0, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "Y:?");
	brl_show_table(&b, tags, 4, seat, cards, 2, -1, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "B:QH Cl:TH");
	/* A seat out of the tags is not read past them. */
	seat[0] = 7;
	brl_show_table(&b, tags, 4, seat, cards, 1, -1, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "?:QH");
	/* A routing key over the table line does nothing; the status cell is Enter. */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 1;
	struct brl_key k;
	ck_assert_int_eq(brl_key(&b, &k, 0), 0);
	/* An announcement covered before its time comes back after the table. */
	brl_heard(&b, "Anne plays the ace of spades.", 0, 10);
	brl_show_table(&b, tags, 4, seat, cards, 0, 0, "en", 10.1);
	ck_assert_int_eq(b.qcount, 1);
	/* The table asked for while lines wait, past their hold: it reaches
	 * the cells before the next line comes. */
	brl_heard(&b, "Bruno plays the king of spades.", 0, 10.2);
	brl_show_table(&b, tags, 4, seat, cards, 1, 2, "en", 30);
	brl_tick(&b, 33);
	ck_assert_str_eq(text_of(), "?:QH Cl:?");
	brl_tick(&b, 33);
	ck_assert_str_eq(text_of(), "Anne plays the ace of spades.");
	brl_close(&b);
}
END_TEST

START_TEST(hold_loses_nothing)
{
	struct brl b;
	char err[128];
	struct brl_key k;
	ck_assert_int_eq(brl_open_backend(&b, &mem, 2.0, err, sizeof err), 0);
	brl_heard(&b, "Anne plays the ace of spades.", 0, 10.0);
	brl_heard(&b, "Bernard plays the king.", 0, 10.1);
	brl_heard(&b, "Claire plays the two.", 0, 10.2);
	brl_tick(&b, 10.3);
	ck_assert_str_eq(text_of(), "Anne plays the ace of spades.");
	ck_assert_int_eq(status_of(), '2');
	/* An answer to a key, before Anne's line was held long enough. */
	brl_heard(&b, "Queen of hearts.", 1, 10.5);
	brl_tick(&b, 10.5);
	ck_assert_str_eq(text_of(), "Queen of hearts.");
	ck_assert_int_eq(status_of(), '3');
	brl_tick(&b, 12.6);
	ck_assert_str_eq(text_of(), "Anne plays the ace of spades.");
	brl_tick(&b, 14.7);
	ck_assert_str_eq(text_of(), "Bernard plays the king.");
	ck_assert_int_eq(status_of(), '1');
	/* A key at once does not skip the line; a moment after, it lets
	 * the next line come without waiting. */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_FWINRT;
	ck_assert_int_eq(brl_key(&b, &k, 14.8), 0);
	brl_tick(&b, 14.8);
	ck_assert_str_eq(text_of(), "Bernard plays the king.");
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_FWINRT;
	ck_assert_int_eq(brl_key(&b, &k, 15.1), 0);
	brl_tick(&b, 15.1);
	ck_assert_str_eq(text_of(), "Claire plays the two.");
	ck_assert_int_eq(status_of(), ' ');
	/* The hand line asked for at once covers it: it comes back after. */
	card_t one = card_make(RANK_ACE, SUIT_HEARTS);
	brl_show_hand(&b, &one, 1, 0, "en", 15.2);
	brl_tick(&b, 15.2);
	ck_assert_str_eq(text_of(), "H: A");
	ck_assert_int_eq(status_of(), '1');
	brl_tick(&b, 17.5);
	ck_assert_str_eq(text_of(), "Claire plays the two.");
	brl_close(&b);
}
END_TEST

/* More lines than the queue holds: the oldest are shown in turn, none is
 * dropped, the status cell says more than nine. */
START_TEST(queue_full)
{
	struct brl b;
	char err[128], line[32];
	ck_assert_int_eq(brl_open_backend(&b, &mem, 5.0, err, sizeof err), 0);
	for (int i = 0; i < BRL_QUEUE + 3; i++) {
		snprintf(line, sizeof line, "line %d", i);
		brl_heard(&b, line, 0, 1.0);
	}
	brl_tick(&b, 1.0);
	ck_assert_int_eq(status_of(), '+');
	ck_assert_int_eq(b.qcount, BRL_QUEUE);
	ck_assert_str_eq(text_of(), "line 2");
	brl_close(&b);
}
END_TEST

START_TEST(keys_and_panning)
{
	struct brl b;
	char err[128];
	struct brl_key k;
	ck_assert_int_eq(brl_open_backend(&b, &mem, 0, err, sizeof err), 0);
	brl_heard(&b, "A line far longer than the forty cells of this display, to be panned.", 0, 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "A line far longer than the forty cells");
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_FWINRT;
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_LNDN;
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.key, KEY_DOWN);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "of this display, to be panned.");
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_FWINLT;
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_LNUP;
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.key, KEY_UP);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "A line far longer than the forty cells");
	/* A routing key on a line of text does nothing; typed letters are keys. */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 3;
	keys[nkeys++] = 'h';
	keys[nkeys++] = BRLAPI_KEY_SYM_LINEFEED;
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.key, 'H');
	ck_assert_int_eq(k.route, -1);
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.key, KEY_ENTER);
	/* On the hand line, the routing key names the card under it. */
	card_t hand[3] = { card_make(RANK_ACE, SUIT_SPADES), card_make(RANK_NINE, SUIT_SPADES),
	                   card_make(RANK_SEVEN, SUIT_CLUBS) };
	brl_show_hand(&b, hand, 3, 0, "en", 0);
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 5;    /* the nine */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 12;   /* the seven */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 8;    /* the bar: nothing */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 3;    /* the ace */
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.route, 1);
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.route, 2);
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.route, 0);
	/* A menu line: the item under the key. */
	const char *items[3] = { "Stay", "Pass", "Fold" };
	brl_show_menu(&b, items, 3, 1, 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "Stay | Pass | Fold");
	ck_assert_int_eq(mark_from, 7);
	ck_assert_int_eq(mark_to, 11);
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 15;
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.route, 2);
	/* Over the status cell: Enter. */
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 39;
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.key, KEY_ENTER);
	ck_assert_int_eq(k.route, -1);
	brl_close(&b);
}
END_TEST

/* A hand longer than the line: the window stands on the card selected,
 * and its routing key names that card there. */
START_TEST(window_on_the_mark)
{
	struct brl b;
	char err[128];
	struct brl_key k;
	ck_assert_int_eq(brl_open_backend(&b, &mem, 0, err, sizeof err), 0);
	card_t hand[13];
	int n = 0;
	const int ranks[] = { RANK_ACE, RANK_TEN, RANK_EIGHT };
	for (int i = 0; i < 3; i++)
		hand[n++] = card_make(ranks[i], SUIT_SPADES);
	const int h[] = { RANK_ACE, RANK_JACK, RANK_FIVE, RANK_THREE };
	for (int i = 0; i < 4; i++)
		hand[n++] = card_make(h[i], SUIT_HEARTS);
	const int d[] = { RANK_KING, RANK_JACK, RANK_TEN, RANK_EIGHT, RANK_THREE };
	for (int i = 0; i < 5; i++)
		hand[n++] = card_make(d[i], SUIT_DIAMONDS);
	hand[n++] = card_make(RANK_QUEEN, SUIT_CLUBS);
	brl_show_hand(&b, hand, n, 0, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "S: A T 8 | H: A J 5 3 | D: K J T 8 3 |");
	brl_show_hand(&b, hand, n, 12, "en", 0);
	brl_tick(&b, 0);
	ck_assert_str_eq(text_of(), "C: Q");
	ck_assert_int_eq(mark_from, 3);
	ck_assert_int_eq(mark_to, 4);
	keys[nkeys++] = BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_ROUTE | 3;
	ck_assert_int_eq(brl_key(&b, &k, 0), 1);
	ck_assert_int_eq(k.route, 12);
	brl_close(&b);
}
END_TEST

/* No display: nothing shown, no key, and off asks nothing. */
START_TEST(null_and_off)
{
	struct brl b;
	char err[128];
	struct brl_key k;
	ck_assert_int_eq(brl_open(&b, BRL_OFF, 2.0, err, sizeof err), 0);
	ck_assert(!brl_active(&b));
	brl_heard(&b, "nothing", 0, 0);
	brl_tick(&b, 0);
	ck_assert_int_eq(brl_key(&b, &k, 0), 0);
	ck_assert_int_eq(brl_open_backend(&b, &brl_null_backend, 2.0, err, sizeof err), 0);
	ck_assert(brl_active(&b));
	ck_assert_int_eq(brl_key(&b, &k, 0), 0);
	brl_close(&b);
	ck_assert_int_eq(brl_mode_parse("auto"), BRL_AUTO);
	ck_assert_int_eq(brl_mode_parse("on"), BRL_ON);
	ck_assert_int_eq(brl_mode_parse("off"), BRL_OFF);
	ck_assert_int_eq(brl_mode_parse("yes"), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("braille");
	TCase *tc = tcase_create("braille");
	tcase_add_test(tc, hand_line_both_languages);
	tcase_add_test(tc, table_line_both_languages);
	tcase_add_test(tc, hold_loses_nothing);
	tcase_add_test(tc, queue_full);
	tcase_add_test(tc, keys_and_panning);
	tcase_add_test(tc, window_on_the_mark);
	tcase_add_test(tc, null_and_off);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
