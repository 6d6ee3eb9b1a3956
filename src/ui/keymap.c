/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/keymap.h"

#include "i18n/i18n.h"

const struct keymap_entry keymap[] = {
	{ "C", N_("the cards on the table"), KEYS_ALWAYS, NULL },
	{ "1-9", N_("the table card by card"), KEYS_ALWAYS, N_("1 to 9") },
	{ "F", N_("the suit: led suit, trumps or turned card"), KEYS_ALWAYS, NULL },
	{ "R", N_("the rules of this round or phase"), KEYS_ALWAYS, NULL },
	{ "S", N_("the scores, chips and pots"), KEYS_ALWAYS, NULL },
	{ "T", N_("whose turn it is and what they must do"), KEYS_ALWAYS, NULL },
	{ "L", N_("the last trick and who took it"), KEYS_ALWAYS | KEYS_IF_TRICKS, NULL },
	{ "L", N_("the last showdown: the hands shown, folded ones too"), KEYS_ALWAYS | KEYS_IF_SHOWDOWN, NULL },
	{ "N", N_("how many cards each player holds"), KEYS_ALWAYS, NULL },
	{ "H", N_("your whole hand"), KEYS_ALWAYS, NULL },
	{ N_("Left, Right"), N_("walk your hand card by card"), KEYS_ALWAYS, NULL },
	{ N_("Up, Down"), N_("jump to the next or previous suit"), KEYS_ALWAYS, NULL },
	{ N_("Home, End"), N_("first or last card of the suit; again: of your hand"), KEYS_ALWAYS, NULL },
	{ N_("Page Up, Page Down"), N_("the previous or next suit"), KEYS_ALWAYS, NULL },
	{ N_("Enter"), N_("play the selected card, or open the action menu"), KEYS_TURN, NULL },
	{ N_("Space"), N_("mark or unmark the selected card for a discard"), KEYS_TURN | KEYS_IF_DISCARD, NULL },
	{ "?", N_("a hint: what the strongest bot would do now, and why"), KEYS_TURN, N_("question mark") },
	{ N_("Up, Down"), N_("choose an action in the menu"), KEYS_MENU, NULL },
	{ N_("Left, Right"), N_("change the amount by one chip"), KEYS_MENU | KEYS_IF_AMOUNT, NULL },
	{ N_("Page Up, Page Down"), N_("change the amount by ten chips"), KEYS_MENU | KEYS_IF_AMOUNT, NULL },
	{ N_("Home, End"), N_("the smallest or largest amount"), KEYS_MENU | KEYS_IF_AMOUNT, NULL },
	{ "0-9", N_("type an amount"), KEYS_MENU | KEYS_IF_AMOUNT, N_("0 to 9") },
	{ N_("Enter"), N_("confirm the action"), KEYS_MENU, NULL },
	{ N_("Escape"), N_("close the menu"), KEYS_MENU, NULL },
	{ N_("Y"), N_("confirm a risky action or quitting when asked"), KEYS_MENU, NULL },
	{ N_("Space"), N_("mark or unmark the selected card for a discard"), KEYS_MENU | KEYS_IF_DISCARD, NULL },
	{ "C, F, R, S, T, L, N, H", N_("the same answers as outside the menu"), KEYS_MENU, NULL },
	{ ", .", N_("previous or next message"), KEYS_SPEECH, N_("comma, period") },
	{ ";", N_("repeat the last message"), KEYS_SPEECH, N_("semicolon") },
	{ "+ -", N_("speak faster or slower"), KEYS_SPEECH, N_("plus, minus") },
	{ "[ ]", N_("speech quieter or louder"), KEYS_SPEECH, N_("left bracket, right bracket") },
	{ "{ }", N_("sound cues quieter or louder"), KEYS_SPEECH, N_("left brace, right brace") },
	{ "V", N_("full or short announcements"), KEYS_SPEECH, NULL },
	{ N_("any key"), N_("stops speech"), KEYS_SPEECH, NULL },
	{ N_("Tab"), N_("at a network table: a chat line to the table"), KEYS_ALWAYS | KEYS_IF_NET, NULL },
	{ "F2", N_("at a network table: the table's menu"), KEYS_ALWAYS | KEYS_IF_NET, NULL },
	{ "F1", N_("the keys of this moment"), KEYS_ALWAYS, NULL },
	{ "Q", N_("quit, after confirmation; the game is saved"), KEYS_ALWAYS, NULL },
	{ N_("Escape"), N_("the same as Q, outside a menu"), KEYS_ALWAYS, NULL },
	{ NULL, NULL, 0, NULL },
};

void keymap_print(FILE *f)
{
	static const struct { int when; const char *title; } groups[] = {
		{ KEYS_ALWAYS, N_("At any moment") },
		{ KEYS_TURN, N_("On your turn") },
		{ KEYS_MENU, N_("In an action menu") },
		{ KEYS_SPEECH, N_("Speech") },
	};
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		if (g)
			fputc('\n', f);
		/* TRANSLATORS: the title of a group of keys in `tapis keys`. */
		fprintf(f, _("%s:"), _(groups[g].title));
		fputc('\n', f);
		for (int i = 0; keymap[i].keys; i++)
			if ((keymap[i].when & KEYS_MOMENTS) == groups[g].when) {
				const char *k = _(keymap[i].keys);
				/* Pad by characters, not bytes (accented names). */
				int width = 0;
				for (const unsigned char *c = (const unsigned char *)k; *c; c++)
					width += (*c & 0xC0) != 0x80;
				fprintf(f, "  %s%*s %s\n", k, width < 20 ? 20 - width : 0, "", _(keymap[i].what));
			}
	}
}

void keymap_say(struct sbuf *b, int when)
{
	for (int i = 0; keymap[i].keys; i++)
		if ((keymap[i].when & when & KEYS_MOMENTS) &&
		    (keymap[i].when & ~when & ~KEYS_MOMENTS) == 0) {
			/* TRANSLATORS: a key, then what it does. */
			const char *k = keymap[i].spoken ? keymap[i].spoken : keymap[i].keys;
			sb_printf(b, _("%1$s: %2$s. "), _(k), _(keymap[i].what));
		}
}
