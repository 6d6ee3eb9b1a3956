/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio: the backends table ("openal", "null"), seat positions, volumes and
 * the cues of game events. The OpenAL backend lives in audio_openal.c. */
#include "audio/audio_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/cue.h"
#include "core/err.h"
#include "core/num.h"
#include "core/paths.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"

double audio_now(void)
{
	return clock_s();
}

double audio_cpu_now(void)
{
	return clock_cpu_s();
}

static void due_cues(struct audio *a);

/* ---- the null backend: takes everything, plays nothing ---- */

static int null_open(struct audio *a, const struct audio_options *o, char *err, size_t errlen)
{
	(void)a; (void)o; (void)err; (void)errlen;
	return 0;
}
static void null_close(struct audio *a) { (void)a; }
static int null_render(struct audio *a, short *frames, int n)
{
	(void)a;
	memset(frames, 0, (size_t)n * 2 * sizeof *frames);
	return 0;
}
static void null_cue(struct audio *a, enum cue cue, const float pos[3])
{
	(void)a; (void)cue; (void)pos;
}
static void null_volumes(struct audio *a) { (void)a; }
static int null_hrtf(struct audio *a, int hrtf) { (void)a; (void)hrtf; return 0; }
static int null_queue(struct audio *a, const short *pcm, int n, int rate)
{
	(void)a; (void)pcm; (void)n; (void)rate;
	return 0;
}
static void null_stop(struct audio *a) { (void)a; }
static int null_busy(struct audio *a) { (void)a; return 0; }
static int null_playing(struct audio *a) { (void)a; return 0; }
static void null_pump(struct audio *a) { (void)a; }
static int null_loaded(const struct audio *a, enum cue cue) { (void)a; (void)cue; return 0; }
static double null_length(const struct audio *a, enum cue cue)
{
	(void)a; (void)cue;
	return 0;
}
static double null_clock(const struct audio *a)
{
	(void)a;
	return audio_now();
}
static int null_reopen(struct audio *a, char *err, size_t errlen)
{
	(void)a; (void)err; (void)errlen;
	return 0;
}
static int null_lost(const struct audio *a) { (void)a; return 0; }
static void null_unplug(struct audio *a) { (void)a; }
static void null_info(struct audio *a, struct audio_info *out)
{
	(void)a;
	snprintf(out->device, sizeof out->device, "%s", "none");
}

static const struct audio_ops null_ops = {
	"null", null_open, null_close, null_render, null_cue, null_volumes, null_hrtf,
	null_queue, null_stop, null_busy, null_playing, null_pump, null_loaded, null_length, null_clock, null_info,
	null_reopen, null_lost, null_unplug,
};

static const struct audio_ops *const backends[] = {
	&audio_openal_ops, &null_ops,
};

/* ---- opening ---- */

void audio_options_default(struct audio_options *o)
{
	memset(o, 0, sizeof *o);
	o->hrtf = AUDIO_HRTF_ON;
	o->cue_volume = 70;
	o->speech_volume = 100;
	o->low_latency = 1;
}

struct audio *audio_open(const char *backend, const struct audio_options *o,
                         char *err, size_t errlen)
{
	struct audio_options def;
	const struct audio_ops *ops = NULL;
	struct audio *a;

	if (err && errlen)
		err[0] = 0;
	if (!o) {
		audio_options_default(&def);
		o = &def;
	}
	if (!backend || !*backend)
		backend = "openal";
	for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
		if (strcmp(backends[i]->name, backend) == 0)
			ops = backends[i];
	if (!ops) {
		errf(err, errlen, _("Unknown sound output %s: no sound."), backend);
		return NULL;
	}
	a = xcalloc(1, sizeof *a);
	a->ops = ops;
	a->cue_volume = num_clamp(o->cue_volume, 0, AUDIO_VOLUME_MAX);
	a->speech_volume = num_clamp(o->speech_volume, 0, AUDIO_VOLUME_MAX);
	a->hrtf = o->hrtf;
	audio_set_table(a, 1, 0, 0);
	if (ops->open(a, o, err, errlen) < 0) {
		free(a);
		return NULL;
	}
	return a;
}

void audio_close(struct audio *a)
{
	if (!a)
		return;
	a->ops->close(a);
	free(a);
}

void audio_get_info(struct audio *a, struct audio_info *out)
{
	memset(out, 0, sizeof *out);
	out->backend = a->ops->name;
	a->ops->info(a, out);
}

int audio_reopen(struct audio *a, char *err, size_t errlen)
{
	if (!a)
		return -1;
	a->ops->stream_stop(a);
	return a->ops->reopen(a, err, errlen);
}

int audio_lost(const struct audio *a)
{
	return a && a->ops->lost(a);
}

void audio_unplug(struct audio *a)
{
	if (a)
		a->ops->unplug(a);
}

const char *audio_notice(struct audio *a)
{
	if (!a || !a->notice[0] || a->notice_given)
		return NULL;
	a->notice_given = 1;
	return a->notice;
}

int audio_render(struct audio *a, short *frames, int n)
{
	if (!a || n < 0)
		return -1;
	due_cues(a);
	return a->ops->render(a, frames, n);
}

/* ---- the table ---- */

/* A direction: azimuth in degrees (positive to the right), elevation in
 * degrees (positive up), distance 1. */
static void direction(float pos[3], double az, double el)
{
	double r = M_PI / 180.0;
	pos[0] = (float)(sin(az * r) * cos(el * r));
	pos[1] = (float)sin(el * r);
	pos[2] = (float)(-cos(az * r) * cos(el * r));
}

void audio_set_table(struct audio *a, int players, int me, int clockwise)
{
	if (players < 1)
		players = 1;
	if (players > AUDIO_MAX_SEATS)
		players = AUDIO_MAX_SEATS;
	if (me < 0 || me >= players)
		me = -1;
	a->players = players;
	a->me = me;
	a->clockwise = clockwise;
	/* The listener sits at the table: their own seat is in front and below
	 * (their hands on the cloth), the others face them in an arc from
	 * the right (the next to play when play goes anticlockwise) through the
	 * front to the left; a single opponent is straight ahead. */
	int first = me < 0 ? 0 : me;
	int others = me < 0 ? players : players - 1;
	for (int k = 0; k < players; k++) {
		int seat = (first + k) % players;
		int i = me < 0 ? k : k - 1;   /* index among the others */
		if (me >= 0 && k == 0) {
			direction(a->seat_pos[seat], 0, -45);
			continue;
		}
		double az = others <= 1 ? 0 : 90.0 - 180.0 * i / (others - 1);
		if (clockwise)
			az = -az;
		direction(a->seat_pos[seat], az, 0);
	}
}

void audio_seat_position(const struct audio *a, int seat, float pos[3])
{
	if (seat < 0 || seat >= a->players) {
		pos[0] = pos[1] = pos[2] = 0;
		return;
	}
	memcpy(pos, a->seat_pos[seat], sizeof a->seat_pos[seat]);
}

/* ---- cues, volumes ---- */

/* Start the cues whose time has come. */
static void due_cues(struct audio *a)
{
	double now;
	int k = 0;

	if (!a->npending)
		return;
	now = a->ops->clock(a);
	for (int i = 0; i < a->npending; i++) {
		if (a->pending[i].at <= now)
			a->ops->cue(a, a->pending[i].cue, a->pending[i].pos);
		else
			a->pending[k++] = a->pending[i];
	}
	a->npending = k;
}

void audio_cue(struct audio *a, enum cue cue, int seat)
{
	float pos[3];
	double now, at, len;

	if (!a || (unsigned)cue >= CUE_COUNT || !a->ops->loaded(a, cue))
		return;
	audio_seat_position(a, seat, pos);
	/* Answers to the player's keys sound at once. */
	if (cue == CUE_YOUR_TURN || cue == CUE_ILLEGAL) {
		a->ops->cue(a, cue, pos);
		return;
	}
	now = a->ops->clock(a);
	at = a->seq_free_at > now ? a->seq_free_at : now;
	if (at - now > AUDIO_MAX_BACKLOG || a->npending == AUDIO_MAX_PENDING)
		at = now;   /* too far behind: no waiting */
	/* The next one waits for the shuffle to end, or a short gap. */
	len = a->ops->length(a, cue);
	a->seq_free_at = at + (cue == CUE_SHUFFLE ? len : len < AUDIO_CUE_GAP ? len : AUDIO_CUE_GAP);
	if (at <= now) {
		a->ops->cue(a, cue, pos);
		return;
	}
	struct pending_cue *p = &a->pending[a->npending++];
	p->cue = cue;
	memcpy(p->pos, pos, sizeof p->pos);
	p->at = at;
}

void audio_cues_flush(struct audio *a)
{
	if (!a)
		return;
	a->npending = 0;
	a->seq_free_at = 0;
}

int audio_cues_pending(const struct audio *a)
{
	return a ? a->npending : 0;
}

int audio_cue_loaded(const struct audio *a, enum cue cue)
{
	return a && (unsigned)cue < CUE_COUNT && a->ops->loaded(a, cue);
}

void audio_set_volumes(struct audio *a, int cue_volume, int speech_volume)
{
	if (!a)
		return;
	a->cue_volume = num_clamp(cue_volume, 0, AUDIO_VOLUME_MAX);
	a->speech_volume = num_clamp(speech_volume, 0, AUDIO_VOLUME_MAX);
	a->ops->volumes(a);
}

void audio_get_volumes(const struct audio *a, int *cue_volume, int *speech_volume)
{
	if (cue_volume)
		*cue_volume = a ? a->cue_volume : 0;
	if (speech_volume)
		*speech_volume = a ? a->speech_volume : 0;
}

int audio_set_hrtf(struct audio *a, int hrtf)
{
	if (!a)
		return 0;
	a->hrtf = hrtf;
	return a->ops->hrtf(a, hrtf);
}

/* ---- the speech stream ---- */

int audio_stream_queue(struct audio *a, const short *pcm, int n, int rate)
{
	if (!a || n <= 0)
		return 0;
	return a->ops->stream_queue(a, pcm, n, rate);
}

void audio_stream_stop(struct audio *a)
{
	if (a)
		a->ops->stream_stop(a);
}

int audio_stream_busy(struct audio *a)
{
	return a ? a->ops->stream_busy(a) : 0;
}

int audio_busy(struct audio *a)
{
	if (!a)
		return 0;
	return a->npending > 0 || a->ops->cues_playing(a) || a->ops->stream_busy(a);
}

double audio_stream_started(const struct audio *a)
{
	return a ? a->stream_started : 0;
}

double audio_stream_started_cpu(const struct audio *a)
{
	return a ? a->stream_started_cpu : 0;
}

void audio_pump(struct audio *a)
{
	if (!a)
		return;
	due_cues(a);
	a->ops->pump(a);
}

/* ---- game events ---- */

void audio_event(struct audio *a, const struct event *e, int me)
{
	int seat;
	enum cue cue;

	if (!a || !e)
		return;
	cue = cue_event(e, me, &seat);
	if (cue != CUE_COUNT)
		audio_cue(a, cue, seat);
}

/* ---- where the sounds are ---- */

int audio_sounds_dir(char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/sounds", paths_datadir());
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
