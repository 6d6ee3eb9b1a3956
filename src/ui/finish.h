/* SPDX-License-Identifier: GPL-3.0-or-later */
/* finish: the end of a run of tapis, as the player hears it. */
#ifndef TAPIS_FINISH_H
#define TAPIS_FINISH_H

struct session;

/* Let the last words and sounds finish (at most a moment and a half; any
 * key cuts them short), then close the session. */
void finish_session(struct session *s);

#endif
