/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jstate: the members of a `state` message that say what the keys and the
 * controls of a client mean at this moment, so that a client keeps no rule
 * of its own: `menu` (the order of `choices` in the action menu, the
 * safest first) and `showdowns` (L says the last showdown, not the last
 * trick), `queries` (the query keys of now, the page's toolbar), `f1`
 * (what F1 says now, in the listener's language, as the page says it: the
 * short list, all the keys, those of the action menu) and `cursor` (where
 * each key of the hand takes the cursor, the amount keys: app/keymap's
 * rules as lists). Written after the other members (docs/protocol.md). */
#ifndef TAPIS_JSTATE_H
#define TAPIS_JSTATE_H

#include "app/view.h"
#include "net/wire/jtext.h"

/* The members are written in this order; at (NULL: not wanted) is given
 * where each begins in j (its comma): menu, showdowns, moment (the name of
 * the queries and f1 that follow), queries, f1, cursor. */
#define JSTATE_NMEMBERS 6
void jstate_meaning(struct jtext *j, const struct view_state *vs, size_t at[JSTATE_NMEMBERS]);
/* The moment of vs, with its language: 0 to 63 (a bit of a set of them:
 * those whose queries and f1 a connection has been sent). */
int jstate_moment_of(const struct view_state *vs);
/* The message that gives them once to a connection that takes states as
 * changes: {"type":"moment","moment":ID,"queries":…,"f1":…} (malloc'd). */
char *jstate_moment_msg(const struct view_state *vs);

#endif
