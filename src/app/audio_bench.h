/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio_bench: how fast speech starts. Measured in process: from the call
 * that stands for a key read (an interrupting speech_say) to the first PCM
 * of the answer queued on the OpenAL speech source, espeak-ng on a loopback
 * device; plus the device buffer implied by the OpenAL period settings in
 * effect on the default output device, when there is one. */
#ifndef TAPIS_AUDIO_BENCH_H
#define TAPIS_AUDIO_BENCH_H

#include <stddef.h>
#include <stdio.h>

#include "audio/audio.h"

#define AUDIO_BENCH_TARGET_MS 5.0          /* key to speech, in process */
#define AUDIO_BENCH_DEVICE_TARGET_MS 30.0  /* device buffer */

struct audio_bench {
	int samples;
	double median_ms, p99_ms, max_ms, mean_ms; /* key to first PCM queued */
	/* the same in CPU time of the thread: what the program costs, without
	 * the moments another process had the processor */
	double cpu_median_ms, cpu_p99_ms;
	double synth_median_ms;   /* a whole answer synthesised and queued */
	struct audio_info loop;   /* the loopback device measured */
	int have_device;          /* the default output device could be opened */
	struct audio_info device; /* its settings (when have_device) */
	char device_err[160];     /* why not */
};

/* Measure with `samples` answers (about 200 for the figures) in lang.
 * 0, or -1 with a message (no loopback device, no espeak-ng). */
int audio_bench_run(struct audio_bench *b, int samples, const char *lang, char *err, size_t errlen);
/* The figures as lines of text ("key-to-speech  median 1.2 ms ..."), or as
 * JSON members ("\"speech_median_ms\": 1.2, ...", no braces) when json. */
void audio_bench_print(const struct audio_bench *b, int json, FILE *out);

#endif
