/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/menuorder.h"

#include "core/action.h"

int menuorder_rank(int kind)
{
	static const int order[] = {
		ACT_CALL, ACT_STAY, ACT_PASS, ACT_DECLINE, ACT_TAKE, ACT_LEAVE, ACT_DISCARD,
		ACT_OPEN, ACT_RAISE, ACT_STRADDLE, ACT_BUYBACK, ACT_ALLIN, ACT_FOLD,
	};
	for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
		if (order[i] == kind)
			return i;
	return (int)(sizeof order / sizeof order[0]);
}

int menuorder_sort(const struct view_state *vs, int *order)
{
	int n = 0;
	for (int i = 0; i < vs->nchoices && n < VIEW_MAX_CHOICES; i++) {
		/* Insertion by safety: stable, the game's order among equals. */
		int k = n++;
		while (k > 0 && menuorder_rank(vs->choice[order[k - 1]].act.kind) > menuorder_rank(vs->choice[i].act.kind)) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	return n;
}
