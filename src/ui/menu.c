#include "ui/menu.h"

#include <ctype.h>
#include <stdio.h>

#include "core/sbuf.h"
#include "speech/i18n.h"
#include "speech/speech.h"
#include "ui/term.h"

static void say_item(struct speech *sp, const char *const *items, int n, int i, const char *title)
{
	struct sbuf b;
	sb_clear(&b);
	if (title)
		sb_printf(&b, "%s ", title);
	/* TRANSLATORS: a menu item, its position and the number of items. */
	sb_printf(&b, _("%1$s, %2$d of %3$d."), items[i], i + 1, n);
	speech_say(sp, b.s, SPEECH_INTERRUPT);
}

int menu_run(struct speech *sp, const char *title, const char *const *items, int n, int selected)
{
	int i = selected >= 0 && selected < n ? selected : 0;
	say_item(sp, items, n, i, title);
	for (;;) {
		speech_pump(sp);
		int key = term_read_key(50);
		switch (key) {
		case KEY_NONE:
			continue;
		case KEY_EOF:
		case KEY_INTERRUPT:
			return MENU_QUIT;
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
			speech_say(sp, _("Up and Down choose, Enter confirms, Escape goes back."), SPEECH_INTERRUPT);
			continue;
		default:
			if (key < 128 && isalnum(key)) {
				/* Jump to the next item starting with that letter or digit. */
				for (int k = 1; k <= n; k++) {
					int j = (i + k) % n;
					if (toupper((unsigned char)items[j][0]) == key) {
						i = j;
						break;
					}
				}
			} else {
				continue;
			}
		}
		say_item(sp, items, n, i, NULL);
	}
}
