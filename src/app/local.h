/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local: the sink of the view heard at this machine: the speech queue
 * (speech_say) and the sound cues (audio_cue, from the seat each comes
 * from). Local play is one table, one view, one local sink. */
#ifndef TAPIS_LOCAL_H
#define TAPIS_LOCAL_H

#include "app/view.h"

struct speech;
struct audio;

struct local {
	struct speech *sp;    /* may be NULL */
	struct audio *audio;  /* may be NULL */
	struct view view;
};

/* The view sink that speaks on l->sp and plays cues on l->audio; it needs
 * no table (a network client sets sp and audio, and places the seats with
 * audio_set_table from the view_state it receives). */
struct view_sink local_sink(struct local *l);
/* Attach the local view of seat (or VIEW_SPECTATOR) to table t, in the
 * language in force, and place the seats around the listener. 0, or -1
 * with a message. */
int local_open(struct local *l, struct table *t, int seat, struct speech *sp, struct audio *audio,
               char *err, size_t errlen);
void local_close(struct local *l);

#endif
