#include "ui/keymap.h"

#include "speech/i18n.h"

const struct keymap_entry keymap[] = {
	{ "C", N_("the cards on the table"), KEYS_ALWAYS },
	{ "1-9", N_("the table card by card"), KEYS_ALWAYS },
	{ "F", N_("the suit: led suit, trumps or turned card"), KEYS_ALWAYS },
	{ "R", N_("the rules of this round or phase"), KEYS_ALWAYS },
	{ "S", N_("the scores, chips and pots"), KEYS_ALWAYS },
	{ "T", N_("whose turn it is and what they must do"), KEYS_ALWAYS },
	{ "H", N_("your whole hand"), KEYS_ALWAYS },
	{ N_("Left, Right"), N_("walk your hand card by card"), KEYS_ALWAYS },
	{ N_("Up, Down"), N_("jump to the next or previous suit"), KEYS_ALWAYS },
	{ N_("Home, End"), N_("first or last card of your hand"), KEYS_ALWAYS },
	{ N_("Enter"), N_("play the selected card, or open the action menu"), KEYS_TURN },
	{ N_("Space"), N_("mark or unmark the selected card for a discard"), KEYS_TURN },
	{ "?", N_("a hint: what the strongest bot would do now, and why"), KEYS_TURN },
	{ N_("Up, Down"), N_("choose an action in the menu"), KEYS_MENU },
	{ N_("Left, Right"), N_("change the amount by one chip"), KEYS_MENU },
	{ N_("Page Up, Page Down"), N_("change the amount by ten chips"), KEYS_MENU },
	{ "0-9", N_("type an amount"), KEYS_MENU },
	{ N_("Enter"), N_("confirm the action"), KEYS_MENU },
	{ N_("Escape"), N_("close the menu"), KEYS_MENU },
	{ ", .", N_("previous or next message"), KEYS_SPEECH },
	{ ";", N_("repeat the last message"), KEYS_SPEECH },
	{ "+ -", N_("speak faster or slower"), KEYS_SPEECH },
	{ "[ ]", N_("speech quieter or louder"), KEYS_SPEECH },
	{ "{ }", N_("sound cues quieter or louder"), KEYS_SPEECH },
	{ N_("any key"), N_("stops speech"), KEYS_SPEECH },
	{ "F1", N_("the keys of this moment"), KEYS_ALWAYS },
	{ "Q", N_("quit, after confirmation; the game is saved"), KEYS_ALWAYS },
	{ NULL, NULL, 0 },
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
			if (keymap[i].when == groups[g].when) {
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
		if (keymap[i].when & when) {
			/* TRANSLATORS: a key, then what it does. */
			sb_printf(b, _("%1$s: %2$s. "), _(keymap[i].keys), _(keymap[i].what));
		}
}
