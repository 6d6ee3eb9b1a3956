/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/event.h"

#include <stddef.h>
#include <string.h>

void ev_init(struct event *e, int type)
{
	memset(e, 0, sizeof *e);
	e->type = type;
	e->seat = e->winner = e->from = e->to = -1;
	e->amount = -1;
	e->visible = EV_ALL;
}

void ev_emit_deal(const struct sink *out, int seat, const card_t *cards, int n)
{
	if (!out)
		return;
	struct event e;
	ev_init(&e, EV_DEAL);
	e.seat = seat;
	e.visible = EV_SEAT(seat);
	e.ncards = n;
	memcpy(e.cards, cards, (size_t)n);
	memset(e.card_seat, seat, (size_t)n);
	ev_emit(out, &e);
}

void ev_emit_payment(const struct sink *out, int from, int to, int amount, enum ev_reason reason)
{
	if (!out)
		return;
	struct event e;
	ev_init(&e, EV_PAYMENT);
	e.from = from;
	e.to = to;
	e.amount = amount;
	e.reason = reason;
	e.seat = from >= 0 ? from : to;
	ev_emit(out, &e);
}

void ev_emit_phase(const struct sink *out, enum ev_note note, int seat, int code, int value)
{
	if (!out)
		return;
	struct event e;
	ev_init(&e, EV_PHASE);
	e.note = note;
	e.seat = seat;
	e.code = code;
	e.value = value;
	ev_emit(out, &e);
}
