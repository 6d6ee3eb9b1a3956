/* SPDX-License-Identifier: GPL-3.0-or-later */
/* keydoc: the tables of docs/keys.md, made from app/keymap (the keys and
 * the cursor's rules) in the language given: `keydoc en`, `keydoc fr`.
 * tools/keydoc.sh puts them in docs/keys.md, or checks they are there. */
#include <stdio.h>

#include "i18n/i18n.h"
#include "ui/keylist.h"

int main(int argc, char **argv)
{
	char err[256];
	if (argc != 2 || i18n_set_lang(argv[1], err, sizeof err) < 0) {
		fprintf(stderr, "usage: keydoc en|fr%s%s\n", argc == 2 ? ": " : "", argc == 2 ? err : "");
		return 2;
	}
	keylist_markdown(stdout);
	return 0;
}
