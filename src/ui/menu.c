/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/menu.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/card.h"
#include "core/rules.h"
#include "core/sbuf.h"
#include "core/utf8.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "speech/speech.h"
#include "ui/rulewords.h"
#include "ui/term.h"

#define MENU_ITEM_MAX 512   /* an item as said, at most */

void menu_say_item(struct speech *sp, const char *const *items, int n, int i, const char *title)
{
	struct sbuf b;
	sb_clear(&b);
	if (title && *title) {
		/* A stop after a bare title ("Lobby."), for the voice to pause. */
		size_t k = strlen(title);
		sb_printf(&b, strchr(".?!:", title[k - 1]) ? "%s " : "%s. ", title);
	}
	/* An item that is a sentence ("..., 1 open seat.") loses its stop
	 * before its position. */
	char item[MENU_ITEM_MAX];
	snprintf(item, sizeof item, "%s", items[i]);
	size_t k = strlen(item);
	if (k && item[k - 1] == '.')
		item[k - 1] = '\0';
	/* TRANSLATORS: a menu item, its position and the number of items. */
	sb_printf(&b, _("%1$s, %2$d of %3$d."), item, i + 1, n);
	speech_say(sp, b.s, SPEECH_INTERRUPT | SPEECH_ECHO);
}

int menu_item_letter(const char *item)
{
	static const char *const articles[] = { "Le ", "La ", "Les ", "L'", "L\u2019", "The ", NULL };
	for (int i = 0; articles[i]; i++) {
		size_t n = strlen(articles[i]);
		if (strncasecmp(item, articles[i], n) == 0 && item[n]) {
			item += n;
			break;
		}
	}
	/* Skip what is not a letter or a digit (quotes, spaces). */
	while (*item && !(isalnum((unsigned char)*item) || ((unsigned char)*item & 0x80)))
		item++;
	unsigned char c = (unsigned char)*item;
	if (c < 0x80)
		return c ? toupper(c) : 0;
	/* An accented capital (É, À...): its plain letter. */
	static const struct { uint32_t cp; char plain; } accents[] = {
		{ 0xc9, 'E' }, { 0xe9, 'E' }, { 0xc8, 'E' }, { 0xe8, 'E' },
		{ 0xc0, 'A' }, { 0xe0, 'A' }, { 0xc7, 'C' }, { 0xe7, 'C' },
		{ 0xce, 'I' }, { 0xd4, 'O' }, { 0, 0 },
	};
	uint32_t cp;
	if (!utf8_decode(item, strnlen(item, 4), &cp))
		return 0;
	for (int i = 0; accents[i].cp; i++)
		if (accents[i].cp == cp)
			return accents[i].plain;
	return 0;
}

static void (*menu_idle)(void *ctx);
static void *menu_idle_ctx;

void menu_set_idle(void (*idle)(void *ctx), void *ctx)
{
	menu_idle = idle;
	menu_idle_ctx = ctx;
}

/* The next key, keeping speech flowing while waiting. */
static int next_key(struct speech *sp)
{
	for (;;) {
		if (menu_idle)
			menu_idle(menu_idle_ctx);
		speech_pump(sp);
		int key = term_read_key(50);
		if (key != KEY_NONE)
			return key;
	}
}

int menu_run(struct speech *sp, const char *title, const char *const *items, int n, int selected)
{
	return menu_run_flags(sp, title, items, n, selected, 0);
}

int menu_run_flags(struct speech *sp, const char *title, const char *const *items, int n, int selected, int flags)
{
	int i = selected >= 0 && selected < n ? selected : 0;
	menu_say_item(sp, items, n, i, title);
	for (;;) {
		int key = next_key(sp);
		switch (key) {
		case KEY_EOF:
		case KEY_INTERRUPT:
			return MENU_QUIT;
		case KEY_TAB:
			if (flags & MENU_WITH_TAB)
				return MENU_TAB;
			continue;
		case KEY_ESCAPE:
			return MENU_BACK;
		case KEY_ENTER:
			speech_stop(sp);
			return i;
		case KEY_DOWN:
		case KEY_RIGHT:
			i = (i + 1) % n;
			break;
		case KEY_UP:
		case KEY_LEFT:
			i = (i + n - 1) % n;
			break;
		case KEY_HOME:
			i = 0;
			break;
		case KEY_END:
			i = n - 1;
			break;
		case KEY_F1:
			speech_say(sp, _("Up and Down choose, Enter confirms, Escape goes back."), SPEECH_INTERRUPT | SPEECH_ECHO);
			continue;
		default:
			if (key < 128 && isalnum(key)) {
				/* Jump to the next item starting with that letter or digit. */
				for (int k = 1; k <= n; k++) {
					int j = (i + k) % n;
					if (menu_item_letter(items[j]) == toupper(key)) {
						i = j;
						break;
					}
				}
			} else {
				continue;
			}
		}
		menu_say_item(sp, items, n, i, NULL);
	}
}

void menu_rule_step(struct rules *r, int i, int delta)
{
	const struct rule_def *d = &r->defs[i];
	if (d->type == RULE_INT) {
		/* The specials first, then min..max: stepped by arithmetic, as the
		 * range may be large. */
		int special[3], ns = 0;
		if (d->allow_random)
			special[ns++] = RULE_RANDOM;
		if (d->allow_auto)
			special[ns++] = RULE_AUTO;
		if (d->none_word && d->min > 0)
			special[ns++] = RULE_NONE;
		long total = ns + (long)d->max - d->min + 1, at = 0;
		for (int k = 0; k < ns; k++)
			if (special[k] == r->value[i])
				at = k;
		if (r->value[i] >= d->min && r->value[i] <= d->max)
			at = ns + r->value[i] - d->min;
		at = ((at + delta) % total + total) % total;
		r->value[i] = at < ns ? special[at] : d->min + (int)(at - ns);
		r->given[i] = 1;
		return;
	}
	int values[64 + 3];
	int n = rulewords_values(d, values, (int)(sizeof values / sizeof values[0]));
	if (n == 0)
		return;
	int at = 0;
	for (int k = 0; k < n; k++)
		if (values[k] == r->value[i])
			at = k;
	at = ((at + delta) % n + n) % n;
	r->value[i] = values[at];
	r->given[i] = 1;
}

static void say_rule(struct speech *sp, const struct rules *r, int i, int with_help)
{
	struct sbuf b;
	sb_clear(&b);
	if (i == r->n) {
		sb_puts(&b, _("Start the game."));
	} else {
		const struct rule_def *d = &r->defs[i];
		char buf[96];
		const char *v = rulewords_label(r, i, buf, sizeof buf);
		/* TRANSLATORS: a rule option and its value, "rebuy: yes". */
		sb_printf(&b, _("%1$s: %2$s."), rulewords_name(d), v);
		if (with_help && d->help) {
			sb_puts(&b, " ");
			sb_puts(&b, _(d->help));
		}
	}
	speech_say(sp, b.s, SPEECH_INTERRUPT | SPEECH_ECHO);
}

int menu_rules(struct speech *sp, const char *title, struct rules *r)
{
	int i = r->n;  /* on "Start" */
	/* A menu's words, not the game's: out of the message history. */
	speech_say(sp, title, SPEECH_INTERRUPT | SPEECH_NO_HISTORY);
	speech_say(sp, _("Up and Down walk the options, Left and Right change them, Enter starts."),
	           SPEECH_QUEUE | SPEECH_NO_HISTORY);
	for (;;) {
		int key = next_key(sp);
		switch (key) {
		case KEY_EOF:
		case KEY_INTERRUPT:
			return MENU_QUIT;
		case KEY_ESCAPE:
			return MENU_BACK;
		case KEY_ENTER:
			return 0;
		case KEY_DOWN:
			i = (i + 1) % (r->n + 1);
			say_rule(sp, r, i, 1);
			continue;
		case KEY_UP:
			i = (i + r->n) % (r->n + 1);
			say_rule(sp, r, i, 1);
			continue;
		case KEY_LEFT:
		case KEY_RIGHT:
		case KEY_PAGE_UP:
		case KEY_PAGE_DOWN:
			if (i == r->n)
				continue;
			menu_rule_step(r, i, key == KEY_RIGHT ? 1 : key == KEY_LEFT ? -1 : key == KEY_PAGE_UP ? 10 : -10);
			say_rule(sp, r, i, 0);
			continue;
		case KEY_F1:
			speech_say(sp, _("Up and Down walk the options, Left and Right change them, Enter starts."),
			           SPEECH_INTERRUPT | SPEECH_ECHO);
			continue;
		default:
			continue;
		}
	}
}
