/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local: the player at this machine: a view of the table with the sink
 * that speaks (speech_say) and plays the sound cues (audio_cue, from the
 * seat each comes from). Local play is one table, one view, one local
 * sink: local_open attaches them to the table and makes them the table's
 * player (table_set_player); the table itself knows no speaker. */
#ifndef TAPIS_LOCAL_H
#define TAPIS_LOCAL_H

#include "app/view.h"

struct speech;
struct audio;

struct local {
	struct speech *sp;    /* may be NULL */
	struct audio *audio;  /* may be NULL */
	struct view view;
	int attached;         /* local_open attached the view */
};

/* The view sink that speaks on l->sp and plays cues on l->audio; it needs
 * no table (a network client sets sp and audio, and places the seats with
 * audio_set_table from the view_state it receives). */
struct view_sink local_sink(struct local *l);
/* Attach the local view of seat (or VIEW_SPECTATOR) to table t, in the
 * language in force, make it the table's player and place the seats
 * around the listener; nothing when sp and audio are both NULL. 0, or -1
 * with a message. */
int local_open(struct local *l, struct table *t, int seat, struct speech *sp, struct audio *audio,
               char *err, size_t errlen);
/* Detach and free the view (before or after table_close). */
void local_close(struct local *l);

#endif
