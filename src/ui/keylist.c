/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/keylist.h"

#include "app/keymap.h"
#include "core/utf8.h"
#include "i18n/i18n.h"

void keylist_print(FILE *f)
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
				int width = (int)utf8_count(k);
				fprintf(f, "  %s%*s %s\n", k, width < 20 ? 20 - width : 0, "", _(keymap[i].what));
			}
	}
	fputc('\n', f);
	fputs(_(KEYMAP_AZERTY), f);
	fputc('\n', f);
}
