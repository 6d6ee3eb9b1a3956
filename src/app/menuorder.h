/* SPDX-License-Identifier: GPL-3.0-or-later */
/* menuorder: the order of the action menu, the same for every client (the
 * terminal's menu, the page's buttons): the safest choice first, the one
 * that never loses the hand (call, stay or check before a bet), a fold
 * last; the game's order among equals. */
#ifndef TAPIS_MENUORDER_H
#define TAPIS_MENUORDER_H

#include "app/view.h"

/* How safe an action of this kind is: 0 the safest. */
int menuorder_rank(int kind);
/* The indexes of vs->choice in the menu's order, into order (room for
 * VIEW_MAX_CHOICES); returns how many (vs->nchoices). */
int menuorder_sort(const struct view_state *vs, int *order);

#endif
