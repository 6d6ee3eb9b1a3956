/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The words in the language given (l; NULL: the one in force). */
#define I18N_LANG l
#include "app/keymap.h"

#include <string.h>

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
