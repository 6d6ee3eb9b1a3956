/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/jstate.h"

#include "app/menuorder.h"

void jstate_meaning(struct jtext *j, const struct view_state *vs)
{
	int order[VIEW_MAX_CHOICES];
	int n = menuorder_sort(vs, order);
	jt_key(j, "menu");
	jt_open(j, '[');
	for (int i = 0; i < n; i++)
		jt_int(j, order[i]);
	jt_close(j, ']');
	jt_kbool(j, "showdowns", vs->showdowns);
}
