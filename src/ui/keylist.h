/* SPDX-License-Identifier: GPL-3.0-or-later */
/* keylist: `tapis keys`, every key of app/keymap printed by group. */
#ifndef TAPIS_KEYLIST_H
#define TAPIS_KEYLIST_H

#include <stdio.h>

/* Print every key (translated) for `tapis keys`. */
void keylist_print(FILE *f);
/* The same as Markdown tables for docs/keys.md, in the language in force,
 * with the cursor's rules (tools/keydoc.sh). */
void keylist_markdown(FILE *f);

#endif
