/* audio_impl: what the audio backends share (not for other modules). */
#ifndef TAPIS_AUDIO_IMPL_H
#define TAPIS_AUDIO_IMPL_H

#include "audio/audio.h"

struct audio_ops {
	const char *name;
	int (*open)(struct audio *a, const struct audio_options *o, char *err, size_t errlen);
	void (*close)(struct audio *a);
	int (*render)(struct audio *a, short *frames, int n);
	void (*cue)(struct audio *a, enum audio_cue cue, const float pos[3]);
	void (*volumes)(struct audio *a);            /* a->cue_volume, a->speech_volume changed */
	int (*hrtf)(struct audio *a, int hrtf);
	int (*stream_queue)(struct audio *a, const short *pcm, int n, int rate);
	void (*stream_stop)(struct audio *a);
	int (*stream_busy)(struct audio *a);
	void (*pump)(struct audio *a);
	int (*loaded)(const struct audio *a, enum audio_cue cue);
	void (*info)(struct audio *a, struct audio_info *out);
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
	char notice[256];
	int notice_given;
};

extern const struct audio_ops audio_openal_ops;

/* Monotonic seconds (CLOCK_MONOTONIC). */
double audio_now(void);
/* CPU seconds used by the calling thread. */
double audio_cpu_now(void);

#endif
