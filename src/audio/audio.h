/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio: OpenAL device, seat positions, the speech stream and the sound
 * cues (loaded with libsndfile). Backends: "openal" and "null"; the null one
 * accepts everything and plays nothing, so tests need no sound card.
 *
 * Everything is called from one thread (the main loop). The OpenAL device
 * may be the default output or a loopback device (ALC_SOFT_loopback) that
 * renders into memory through audio_render(): the tests hear the mix that
 * way without a sound card. */
#ifndef TAPIS_AUDIO_H
#define TAPIS_AUDIO_H

#include <stddef.h>

#include "core/cue.h"
#include "core/event.h"

struct audio;

#define AUDIO_MAX_SEATS EV_MAX_SEATS
#define AUDIO_VOLUME_MAX 100

enum audio_hrtf {
	AUDIO_HRTF_OFF = 0,
	AUDIO_HRTF_ON = 1,     /* asked for; in effect when the output is stereo and data exists */
	AUDIO_HRTF_AUTO = 2,   /* OpenAL decides (its configuration, headphones) */
};

struct audio_options {
	int loopback;          /* 1: no output device, mix into memory (audio_render) */
	int frequency;         /* 0: the device's (loopback: 44100) */
	int hrtf;              /* enum audio_hrtf */
	int cue_volume;        /* 0..100 */
	int speech_volume;     /* 0..100 */
	/* Ask for a small device buffer (3 periods of 10 ms) when neither the
	 * environment (ALSOFT_CONF) nor the user's OpenAL configuration chooses
	 * one. Takes effect only if OpenAL was not used before in the process. */
	int low_latency;
	const char *device;    /* OpenAL device name, NULL = the default */
	const char *sounds_dir;/* NULL = audio_sounds_dir() */
};

/* What is in effect. */
struct audio_info {
	const char *backend;   /* "openal" / "null" */
	char device[128];
	int loopback;
	int frequency;         /* Hz */
	int refresh;           /* mixing updates per second (ALC_REFRESH) */
	int period_frames;     /* frequency / refresh */
	int periods;           /* periods in the device buffer, 0 = unknown
	                        * (OpenAL does not say; known when tapis chose them) */
	double period_ms;
	double buffer_ms;      /* period_ms x periods, 0 when periods is unknown */
	double latency_ms;     /* what the device reports (ALC_DEVICE_LATENCY_SOFT),
	                        * -1 when it does not (loopback devices) */
	int low_latency;       /* 1 when tapis chose the period (options.low_latency) */
	int hrtf;              /* 1 when HRTF is in effect */
	int cues_loaded;       /* out of CUE_COUNT */
};

void audio_options_default(struct audio_options *o);

/* Open a backend ("openal", "null"; NULL = "openal"). NULL with a message
 * for the player in err when there is no device (the caller goes on
 * without sound). */
struct audio *audio_open(const char *backend, const struct audio_options *o,
                         char *err, size_t errlen);
void audio_close(struct audio *a);
void audio_get_info(struct audio *a, struct audio_info *out);
/* A message for the player, once, or NULL: sound files missing at the
 * opening; the device lost or back (audio_pump watches it). Ask after
 * audio_open and after audio_pump. */
const char *audio_notice(struct audio *a);
/* 1 while the output device is lost (unplugged) and not back: speech
 * through espeak is not heard then, show or print it. */
int audio_lost(const struct audio *a);
/* Open the output device again, as it was opened (the speech stream is
 * dropped, cues and settings stay). 0, or -1 with a message (the old device
 * stays). */
int audio_reopen(struct audio *a, char *err, size_t errlen);
/* The device behaves as if it had been unplugged: the next audio_pump (or
 * speech queued) finds it gone and opens it again, as for headphones
 * pulled out and put back. For the tests, with a loopback device. */
void audio_unplug(struct audio *a);

/* Loopback devices only: mix n stereo frames (2n shorts, interleaved
 * left/right) into frames. 0, or -1 when the device is not a loopback one. */
int audio_render(struct audio *a, short *frames, int n);

/* Seats around the listener: `me` in front and a little below, the others
 * spread from one side to the other in order of play; with play going
 * anticlockwise (clockwise = 0, the French way) the next seat is on the
 * right. me < 0 (a spectator, bots only): every seat on the arc, seat 0 at
 * the right end (anticlockwise play). */
void audio_set_table(struct audio *a, int players, int me, int clockwise);
/* The position of a seat (x right, y up, z towards the back; the listener at
 * the origin facing -z); seat -1: the centre. */
void audio_seat_position(const struct audio *a, int seat, float pos[3]);

/* Play a cue from a seat (-1 = centred). Cues asked for together follow
 * one another (the deals after the shuffle, then about 0.1 s apart; never
 * more than a second behind): audio_pump() starts them when their time
 * comes. CUE_YOUR_TURN and CUE_ILLEGAL sound at once. */
void audio_cue(struct audio *a, enum cue cue, int seat);
/* Forget the cues still waiting; how many wait. */
void audio_cues_flush(struct audio *a);
int audio_cues_pending(const struct audio *a);
/* 1 when the cue's sound is loaded. */
int audio_cue_loaded(const struct audio *a, enum cue cue);

/* Volumes 0..100 (clamped); cues and speech separately. */
void audio_set_volumes(struct audio *a, int cue_volume, int speech_volume);
void audio_get_volumes(const struct audio *a, int *cue_volume, int *speech_volume);
/* HRTF on / off / auto: resets the device when it can (ALC_SOFT_HRTF).
 * Returns 1 when HRTF is now in effect. */
int audio_set_hrtf(struct audio *a, int hrtf);

/* The speech stream: mono 16-bit PCM queued after what is queued. 0, or -1
 * (no memory, AL error). */
int audio_stream_queue(struct audio *a, const short *pcm, int n, int rate);
/* Stop at once: the source stops and every queued buffer is dropped. */
void audio_stream_stop(struct audio *a);
/* 1 while the stream has something to play. */
int audio_stream_busy(struct audio *a);
/* 1 while anything sounds or waits to: cues, speech (before closing, let
 * the last sounds end). */
int audio_busy(struct audio *a);
/* Monotonic time (speech_now's clock, seconds) when PCM was last queued on
 * an idle stream: the moment speech starts to be heard (benchmarks). */
double audio_stream_started(const struct audio *a);
/* The thread's CPU time (audio_cpu_now) at that moment. */
double audio_stream_started_cpu(const struct audio *a);
/* Monotonic seconds (CLOCK_MONOTONIC). */
double audio_now(void);
/* CPU seconds used by the calling thread. */
double audio_cpu_now(void);
/* Start the cues whose time has come, recycle played speech buffers: call
 * often from the main loop (every 10 ms or so). */
void audio_pump(struct audio *a);

/* Play the cue of an event (core/cue: cue_event; nothing for events
 * without one). */
void audio_event(struct audio *a, const struct event *e, int me);

/* Where the sounds are: paths_datadir()/sounds ($TAPIS_DATADIR/sounds, else
 * the source tree's sounds/ next to build/tapis, else the installed
 * share/tapis/sounds). 0, or -1 (buf too small). */
int audio_sounds_dir(char *buf, size_t len);

#endif
