/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio_impl: what the audio backends share (not for other modules). */
#ifndef TAPIS_AUDIO_IMPL_H
#define TAPIS_AUDIO_IMPL_H

#include "audio/audio.h"

#define AUDIO_MAX_PENDING 64
/* Cues never wait more than this behind others: past it they sound at once. */
#define AUDIO_MAX_BACKLOG 1.0
/* Gap between cues that follow one another (at most). */
#define AUDIO_CUE_GAP 0.11

struct audio_ops {
	const char *name;
	int (*open)(struct audio *a, const struct audio_options *o, char *err, size_t errlen);
	void (*close)(struct audio *a);
	int (*render)(struct audio *a, short *frames, int n);
	void (*cue)(struct audio *a, enum cue cue, const float pos[3]);
	void (*volumes)(struct audio *a);            /* a->cue_volume, a->speech_volume changed */
	int (*hrtf)(struct audio *a, int hrtf);
	int (*stream_queue)(struct audio *a, const short *pcm, int n, int rate);
	void (*stream_stop)(struct audio *a);
	int (*stream_busy)(struct audio *a);
	int (*cues_playing)(struct audio *a);        /* 1 while a cue sounds */
	void (*pump)(struct audio *a);
	int (*loaded)(const struct audio *a, enum cue cue);
	/* Length of a cue's sound in seconds (0 when not loaded). */
	double (*length)(const struct audio *a, enum cue cue);
	/* The mixer's clock in seconds: frames rendered for a loopback device,
	 * audio_now() otherwise. */
	double (*clock)(const struct audio *a);
	void (*info)(struct audio *a, struct audio_info *out);
	/* Open the device again; the old one stays on failure. */
	int (*reopen)(struct audio *a, char *err, size_t errlen);
	int (*lost)(const struct audio *a);
	/* The device looks unplugged at the next check (tests). */
	void (*unplug)(struct audio *a);
};

struct audio {
	const struct audio_ops *ops;
	void *impl;
	int players, me, clockwise;
	float seat_pos[AUDIO_MAX_SEATS][3];
	int cue_volume, speech_volume;   /* 0..100 */
	int hrtf;                        /* enum audio_hrtf asked for */
	double stream_started;           /* audio_now() when PCM went on an idle stream */
	double stream_started_cpu;       /* audio_cpu_now() then */
	/* Cues that happen together (a shuffle and the deals) follow one
	 * another: each waits for the one before. */
	struct pending_cue {
		enum cue cue;
		float pos[3];
		double at;                   /* ops->clock() time to start */
	} pending[AUDIO_MAX_PENDING];
	int npending;
	double seq_free_at;              /* when the next cue may start */
	char notice[256];
	int notice_given;
};

extern const struct audio_ops audio_openal_ops;

#endif
