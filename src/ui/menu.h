/* SPDX-License-Identifier: GPL-3.0-or-later */
/* menu: a spoken list walked with the arrows (or the first letter) and
 * chosen with Enter; Escape goes back. */
#ifndef TAPIS_MENU_H
#define TAPIS_MENU_H

#include <stddef.h>

struct speech;

#define MENU_BACK (-1)
#define MENU_QUIT (-2)   /* end of input or interrupt */

/* Something to do while any menu waits for a key (NULL: nothing): a
 * network client keeps its connection served, and what it hears is said
 * after the item being said. */
void menu_set_idle(void (*idle)(void *ctx), void *ctx);
#define MENU_TAB (-3)    /* Tab, in a menu run with MENU_WITH_TAB */

/* Say the title and the selected item; return the chosen index. */
int menu_run(struct speech *sp, const char *title, const char *const *items, int n, int selected);
/* The same; with MENU_WITH_TAB in flags, Tab returns MENU_TAB (the lobby's
 * chat, as at a table). */
enum { MENU_WITH_TAB = 1 };
int menu_run_flags(struct speech *sp, const char *title, const char *const *items, int n, int selected, int flags);

/* The letter an item is found by with its first letter: the first letter
 * or digit of its name after an article ("Le Brouc" and "La Bouillabaisse"
 * by B, "L'Homme de Brou" by H), upper case; 0 when it has none. */
/* Say item i of n ("Rematch, 1 of 2."), after the title when there is one:
 * how every menu says where it is, for menus that read their own keys. */
void menu_say_item(struct speech *sp, const char *const *items, int n, int i, const char *title);
int menu_item_letter(const char *item);

struct rules;
struct rule_def;

/* The rule options of a game as a spoken list: Up and Down walk the
 * options, Left and Right change a value (Page Up and Page Down by ten),
 * Enter on "Start" returns 0, Escape returns MENU_BACK, the end of input
 * MENU_QUIT. Keys and values are said through the catalogue (context
 * "rule"), the help line of each option too. */
int menu_rules(struct speech *sp, const char *title, struct rules *r);
/* Step the value of option i by delta (wrapping through every value the
 * option accepts: numbers, choices, suits, ranks, cards, random, auto). */
void menu_rule_step(struct rules *r, int i, int delta);

#endif
