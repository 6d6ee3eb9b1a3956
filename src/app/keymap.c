/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The words in the language given (l; NULL: the one in force). */
#define I18N_LANG l
#include "app/keymap.h"

#include <stdio.h>
#include <string.h>

#include "core/action.h"
#include "i18n/i18n.h"

const struct keymap_entry keymap[] = {
	{ "C", N_("the cards on the table"), KEYS_ALWAYS, NULL, NULL },
	{ N_("1-9"), N_("the table card by card"), KEYS_ALWAYS, N_("1 to 9"), NULL },
	{ "F", N_("the suit: led suit, trumps or turned card"), KEYS_ALWAYS, NULL, NULL },
	{ "R", N_("the rules of this round or phase"), KEYS_ALWAYS, NULL, NULL },
	{ "S", N_("the scores, chips and pots"), KEYS_ALWAYS, NULL, NULL },
	{ "T", N_("whose turn it is and what they must do"), KEYS_ALWAYS, NULL, NULL },
	{ "L", N_("the last trick and who took it"), KEYS_ALWAYS | KEYS_IF_TRICKS, NULL, NULL },
	{ "L", N_("the last showdown: the hands shown, folded ones too"), KEYS_ALWAYS | KEYS_IF_SHOWDOWN, NULL, NULL },
	{ "N", N_("how many cards each player holds"), KEYS_ALWAYS, NULL, NULL },
	{ "H", N_("your whole hand"), KEYS_ALWAYS, NULL, NULL },
	{ N_("Left, Right"), N_("walk your hand card by card"), KEYS_ALWAYS, NULL, NULL },
	{ N_("Up, Down"), N_("jump to the next or previous suit"), KEYS_ALWAYS, NULL, NULL },
	{ N_("Home, End"), N_("first or last card of the suit; again: of your hand"), KEYS_ALWAYS, NULL, NULL },
	{ N_("Page Up, Page Down"), N_("the previous or next suit"), KEYS_ALWAYS, NULL, NULL },
	{ N_("Enter"), N_("play the selected card, or open the action menu"), KEYS_TURN, NULL, NULL },
	{ N_("Space"), N_("mark or unmark the selected card for a discard"), KEYS_TURN | KEYS_IF_DISCARD, NULL, NULL },
	{ "?", N_("a hint: what the strongest bot would do now, and why"), KEYS_TURN, N_("question mark"), NULL },
	{ N_("Up, Down"), N_("choose an action in the menu"), KEYS_MENU, NULL, NULL },
	{ N_("Left, Right"), N_("change the amount by one chip"), KEYS_MENU | KEYS_IF_AMOUNT, NULL, NULL },
	{ N_("Page Up, Page Down"), N_("change the amount by ten chips"), KEYS_MENU | KEYS_IF_AMOUNT, NULL, NULL },
	{ N_("Home, End"), N_("the smallest or largest amount"), KEYS_MENU | KEYS_IF_AMOUNT, NULL, NULL },
	{ N_("0-9"), N_("type an amount"), KEYS_MENU | KEYS_IF_AMOUNT, N_("0 to 9"), NULL },
	{ N_("Enter"), N_("confirm the action"), KEYS_MENU, NULL, NULL },
	{ N_("Escape"), N_("close the menu"), KEYS_MENU, NULL, NULL },
	{ N_("Y"), N_("confirm a risky action or quitting when asked"), KEYS_MENU, NULL, NULL },
	{ N_("Space"), N_("mark or unmark the selected card for a discard"), KEYS_MENU | KEYS_IF_DISCARD, NULL, NULL },
	{ "C, F, R, S, T, L, N, H", N_("the same answers as outside the menu"), KEYS_MENU, NULL, NULL },
	{ ", .", N_("previous or next message"), KEYS_SPEECH, N_("comma, period"), NULL },
	{ ";", N_("repeat the last message"), KEYS_SPEECH, N_("semicolon"), NULL },
	{ "< >", N_("speak slower or faster"), KEYS_SPEECH, N_("less than, greater than"), NULL },
	{ "[ ]", N_("speech quieter or louder"), KEYS_SPEECH, N_("left bracket, right bracket"), NULL },
	{ "{ }", N_("sound cues quieter or louder"), KEYS_SPEECH, N_("left brace, right brace"), NULL },
	{ "V", N_("full or short announcements"), KEYS_SPEECH, NULL, NULL },
	{ "/ *", N_("braille lines held shorter or longer"), KEYS_SPEECH | KEYS_IF_BRAILLE, N_("slash, asterisk"), NULL },
	{ N_("any key"), N_("stops speech"), KEYS_SPEECH, NULL, NULL },
	{ N_("Tab"), N_("at a network table: a chat line to the table"), KEYS_ALWAYS | KEYS_IF_NET, NULL, NULL },
	{ "F2", N_("at a network table: the table's menu"), KEYS_ALWAYS | KEYS_IF_NET, NULL, NULL },
	{ "F1", N_("the keys of this moment"), KEYS_ALWAYS, NULL, NULL },
	{ "Q", N_("quit, after confirmation; the game is saved"), KEYS_ALWAYS, NULL,
	  N_("leave the table, after confirmation") },
	{ N_("Escape"), N_("the same as Q, outside a menu"), KEYS_ALWAYS, NULL, NULL },
	{ NULL, NULL, 0, NULL, NULL },
};

/* TRANSLATORS: the last line of `tapis keys`: the keys that need Shift or
 * AltGr on a French keyboard. */
const char KEYMAP_AZERTY[] = N_("On an AZERTY keyboard, the top row gives 1-9 and 0 without Shift "
                                "(& é \" ' ( - è _ ç à); ? . > need Shift; "
                                "[ ] { } need AltGr.");

static void say_entry(const struct i18n_lang *l, struct sbuf *b, const struct keymap_entry *e, int when)
{
	/* TRANSLATORS: a key, then what it does. */
	const char *k = e->spoken ? e->spoken : e->keys;
	sb_printf(b, _("%1$s: %2$s. "), _(k), _(keymap_what(e, when)));
}

const char *keymap_what(const struct keymap_entry *e, int when)
{
	return (when & KEYS_IF_PAGE) && e->page_what ? e->page_what : e->what;
}

int keymap_query(const struct keymap_entry *e)
{
	return (strlen(e->keys) == 1 && strchr("CFRSTLNH?", e->keys[0]) && !(e->when & KEYS_MENU)) ||
	       !strcmp(e->keys, "F1");
}

void keymap_say(const struct i18n_lang *l, struct sbuf *b, int when)
{
	for (int i = 0; keymap[i].keys; i++)
		if ((keymap[i].when & when & KEYS_MOMENTS) &&
		    (keymap[i].when & ~when & ~KEYS_MOMENTS) == 0)
			say_entry(l, b, &keymap[i], when);
	if (when & KEYS_SPEECH)
		sb_puts(b, _("On an AZERTY keyboard, the top row gives the digits without Shift; question mark, "
		             "period and greater than need Shift; brackets and braces need AltGr."));
}

/* The keys said first, by moment: the few that matter now, most useful
 * first (their words those of the whole list where they are the same). */
const struct keymap_entry keymap_brief[] = {
	{ N_("Enter"), N_("play the selected card"), KEYS_BRIEF_PLAY, NULL, NULL },
	{ N_("Left, Right"), N_("walk your hand card by card"), KEYS_BRIEF_PLAY, NULL, NULL },
	{ "C", N_("the cards on the table"), KEYS_BRIEF_PLAY | KEYS_BRIEF_WAIT, NULL, NULL },
	{ N_("Enter"), N_("open the action menu"), KEYS_BRIEF_CHOOSE, NULL, NULL },
	{ N_("Space"), N_("mark or unmark the selected card for a discard"), KEYS_BRIEF_CHOOSE | KEYS_IF_DISCARD, NULL, NULL },
	{ "T", N_("whose turn it is and what they must do"), KEYS_BRIEF_WAIT | KEYS_BRIEF_CHOOSE, NULL, NULL },
	{ "S", N_("the scores, chips and pots"), KEYS_BRIEF_WAIT | KEYS_BRIEF_CHOOSE, NULL, NULL },
	{ "H", N_("your whole hand"), KEYS_BRIEF_PLAY | KEYS_BRIEF_CHOOSE | KEYS_BRIEF_WAIT, NULL, NULL },
	{ "?", N_("a hint: what the strongest bot would do now, and why"), KEYS_BRIEF_PLAY | KEYS_BRIEF_CHOOSE,
	  N_("question mark"), NULL },
	{ ", .", N_("previous or next message"), KEYS_BRIEF_WAIT, N_("comma, period"), NULL },
	{ NULL, NULL, 0, NULL, NULL },
};

void keymap_say_brief(const struct i18n_lang *l, struct sbuf *b, int when)
{
	for (int i = 0; keymap_brief[i].keys; i++)
		if ((keymap_brief[i].when & when & KEYS_BRIEF) && (keymap_brief[i].when & ~when & ~KEYS_BRIEF) == 0)
			say_entry(l, b, &keymap_brief[i], when);
	sb_puts(b, _("F1 again for all keys."));
}

int keymap_digit(const char *typed)
{
	/* The top row of a French keyboard, 0 to 9, as typed without Shift
	 * (and with Caps Lock, where it gives capitals). */
	static const char *const top[10][2] = {
		{ "\u00e0", "\u00c0" }, { "&", NULL },  { "\u00e9", "\u00c9" }, { "\"", NULL }, { "'", NULL },
		{ "(", NULL },           { "-", NULL },  { "\u00e8", "\u00c8" }, { "_", NULL },  { "\u00e7", "\u00c7" },
	};
	if (!typed || !*typed)
		return 0;
	if (typed[0] >= '0' && typed[0] <= '9' && !typed[1])
		return typed[0];
	for (int d = 0; d < 10; d++)
		for (int k = 0; k < 2; k++)
			if (top[d][k] && strcmp(typed, top[d][k]) == 0)
				return '0' + d;
	return 0;
}

/* ---- the cursor ---- */

const struct keymap_move keymap_moves[KEYMAP_NMOVES] = {
	{ "ArrowLeft", N_("Left"), KEYMAP_CARD, -1, N_("First card."), N_("the card before; at the first, \"First card.\"") },
	{ "ArrowRight", N_("Right"), KEYMAP_CARD, 1, N_("Last card."), N_("the card after; at the last, \"Last card.\"") },
	{ "ArrowUp", N_("Up"), KEYMAP_SUIT, -1, N_("First suit."),
	  N_("the first card of the suit before; in the first suit, its first card and \"First suit.\"") },
	{ "ArrowDown", N_("Down"), KEYMAP_SUIT, 1, N_("Last suit."),
	  N_("the first card of the suit after; in the last suit, its first card and \"Last suit.\"") },
	{ "PageUp", N_("Page Up"), KEYMAP_SUIT, -1, N_("First suit."), N_("the same as Up") },
	{ "PageDown", N_("Page Down"), KEYMAP_SUIT, 1, N_("Last suit."), N_("the same as Down") },
	{ "Home", N_("Home"), KEYMAP_ENDS, -1, NULL, N_("the first card of the suit; from there, of the hand") },
	{ "End", N_("End"), KEYMAP_ENDS, 1, NULL, N_("the last card of the suit; from there, of the hand") },
};

const struct keymap_step keymap_steps[KEYMAP_NSTEPS] = {
	{ "ArrowLeft", KEYMAP_STEP, -1 }, { "ArrowRight", KEYMAP_STEP, 1 }, { "PageUp", KEYMAP_STEP, 10 },
	{ "PageDown", KEYMAP_STEP, -10 }, { "Home", KEYMAP_LEAST, 0 }, { "End", KEYMAP_MOST, 0 },
};

/* The first and last positions of the suit of card i. */
static void suit_bounds(const card_t *hand, int n, int i, int *first, int *last)
{
	int suit = card_suit(hand[i]);
	*first = *last = i;
	while (*first > 0 && card_suit(hand[*first - 1]) == suit)
		(*first)--;
	while (*last + 1 < n && card_suit(hand[*last + 1]) == suit)
		(*last)++;
}

/* Where move m takes a cursor at i over the hand; *edge: no further. */
static int move_to(const struct keymap_move *m, const card_t *hand, int n, int i, int *edge)
{
	int first, last, to;
	*edge = 0;
	switch (m->span) {
	case KEYMAP_CARD:
		to = i + m->dir;
		if (to < 0 || to >= n) {
			*edge = 1;
			return i;
		}
		return to;
	case KEYMAP_SUIT:
		suit_bounds(hand, n, i, &first, &last);
		if (m->dir > 0 ? last + 1 >= n : first == 0) {
			*edge = 1;
			return first;
		}
		suit_bounds(hand, n, m->dir > 0 ? last + 1 : first - 1, &first, &last);
		return first;
	default:
		suit_bounds(hand, n, i, &first, &last);
		to = m->dir > 0 ? last : first;
		return to == i ? (m->dir > 0 ? n - 1 : 0) : to;
	}
}

void keymap_cursor_make(struct keymap_cursor *c, const struct keymap_move moves[KEYMAP_NMOVES], const card_t *hand,
                        const int *playable, int n, const struct i18n_lang *l)
{
	memset(c, 0, sizeof *c);
	c->n = n < 0 ? 0 : n > GAME_MAX_HAND ? GAME_MAX_HAND : n;
	int first_playable = -1;
	for (int i = 0; playable && i < c->n && first_playable < 0; i++)
		if (playable[i])
			first_playable = i;
	for (int m = 0; m < KEYMAP_NMOVES; m++) {
		snprintf(c->said[m], sizeof c->said[m], "%s", moves[m].edge ? _(moves[m].edge) : "");
		for (int i = 0; i < c->n; i++) {
			int edge;
			c->to[m][i] = (signed char)move_to(&moves[m], hand, c->n, i, &edge);
			c->edge[m][i] = (unsigned char)edge;
		}
	}
	/* At the start of a turn, a card that cannot be played gives way to
	 * the first one that can. */
	for (int i = 0; i < c->n; i++)
		c->turn[i] = (signed char)(first_playable >= 0 && !playable[i] ? first_playable : i);
	for (int s = 0; s < KEYMAP_NSTEPS; s++) {
		c->bound[s] = keymap_steps[s].bound;
		c->step[s] = keymap_steps[s].step;
	}
	c->marks = ACT_MAX_CARDS;
}

int keymap_enter(int can_play, int nchoices, int only_discard)
{
	if (can_play)
		return KEYMAP_ENTER_PLAY;
	return nchoices == 1 && only_discard ? KEYMAP_ENTER_DISCARD : KEYMAP_ENTER_MENU;
}

int keymap_move_of(const char *key)
{
	for (int m = 0; key && m < KEYMAP_NMOVES; m++)
		if (!strcmp(keymap_moves[m].key, key))
			return m;
	return -1;
}

int keymap_step_of(const char *key)
{
	for (int s = 0; key && s < KEYMAP_NSTEPS; s++)
		if (!strcmp(keymap_steps[s].key, key))
			return s;
	return -1;
}

int keymap_cursor_to(const struct keymap_cursor *c, int m, int i, int *edge)
{
	*edge = 0;
	if (m < 0 || m >= KEYMAP_NMOVES || i < 0 || i >= c->n)
		return i;
	int to = c->to[m][i];
	*edge = c->edge[m][i];
	return to >= 0 && to < c->n ? to : i;
}

int keymap_cursor_turn(const struct keymap_cursor *c, int i)
{
	if (i < 0 || i >= c->n)
		return i;
	return c->turn[i] >= 0 && c->turn[i] < c->n ? c->turn[i] : i;
}

int keymap_cursor_amount(const struct keymap_cursor *c, int s, int cur, int lo, int hi)
{
	if (s >= 0 && s < KEYMAP_NSTEPS)
		cur = c->bound[s] == KEYMAP_LEAST ? lo : c->bound[s] == KEYMAP_MOST ? hi : cur + c->step[s];
	return cur < lo ? lo : cur > hi ? hi : cur;
}
