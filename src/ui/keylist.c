/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/keylist.h"

#include "app/keymap.h"
#include "core/utf8.h"
#include "i18n/i18n.h"

#include <string.h>

static const struct { int when; const char *title; } groups[] = {
	{ KEYS_ALWAYS, N_("At any moment") },
	{ KEYS_TURN, N_("On your turn") },
	{ KEYS_MENU, N_("In an action menu") },
	{ KEYS_SPEECH, N_("Speech") },
};

void keylist_print(FILE *f)
{
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

/* A key in a table: signs and letters in backquotes ("C", "< >",
 * "F1"), a key's name as it is ("Left, Right"). */
static void md_key(FILE *f, const char *k)
{
	int name = 0;
	for (const char *c = k; *c; c++)
		name |= (*c >= 'a' && *c <= 'z') || (unsigned char)*c >= 0x80;
	fprintf(f, name ? "| %s " : "| `%s` ", k);
}

static void md_head(FILE *f, const char *title, const char *what)
{
	/* TRANSLATORS: the title of a group of keys in `tapis keys`. */
	fprintf(f, "\n**");
	fprintf(f, _("%s:"), title);
	/* TRANSLATORS: the heads of a table of keys in docs/keys.md. */
	fprintf(f, "**\n\n| %s | %s |\n|---|---|\n", _("key"), what);
}

void keylist_markdown(FILE *f)
{
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		md_head(f, _(groups[g].title), _("what it does"));
		for (int i = 0; keymap[i].keys; i++)
			if ((keymap[i].when & KEYS_MOMENTS) == groups[g].when) {
				md_key(f, _(keymap[i].keys));
				fprintf(f, "| %s |\n", _(keymap[i].what));
			}
	}
	md_head(f, _("The cursor over your hand"), _("where it goes"));
	for (int m = 0; m < KEYMAP_NMOVES; m++) {
		md_key(f, _(keymap_moves[m].name));
		fprintf(f, "| %s |\n", _(keymap_moves[m].what));
	}
	md_head(f, _("An amount in the action menu"), _("what it does"));
	for (int s = 0; s < KEYMAP_NSTEPS; s++) {
		const struct keymap_step *st = &keymap_steps[s];
		int n = st->step < 0 ? -st->step : st->step;
		md_key(f, _(keymap_moves[keymap_move_of(st->key)].name));
		if (st->bound == KEYMAP_LEAST)
			fprintf(f, "| %s |\n", _("the smallest amount"));
		else if (st->bound == KEYMAP_MOST)
			fprintf(f, "| %s |\n", _("the largest amount"));
		else {
			fputs("| ", f);
			fprintf(f, st->step > 0 ? P_("%d chip more", "%d chips more", n) : P_("%d chip fewer", "%d chips fewer", n), n);
			fputs(" |\n", f);
		}
	}
	fprintf(f, "\n%s\n", _(KEYMAP_AZERTY));
}
