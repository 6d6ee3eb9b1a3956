/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/finish.h"

#include "app/session.h"
#include "ui/term.h"

void finish_session(struct session *s)
{
	double until = speech_now() + 1.5;
	while (session_busy(s) && speech_now() < until) {
		session_pump(s);
		if (term_read_key(10) != KEY_NONE)
			break;
	}
	session_close(s);
}
