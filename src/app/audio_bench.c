/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio_bench: key-to-speech time and device buffer (see audio_bench.h). */
#include "app/audio_bench.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "speech/speech.h"

/* Answers of the length a key gets. */
static const char *const answers_en[] = {
	"Ten of hearts.", "Your turn.", "You hold the ace of spades, the king of hearts and the two of clubs.",
	"North: 12 chips.", "Trick to West.", "Raise 4.", "Queen of diamonds, played by East.",
	"Score: you 34, them 28.",
};
static const char *const answers_fr[] = {
	"Le dix de cœur.", "À vous.", "Vous avez l'as de pique, le roi de cœur et le deux de trèfle.",
	"Nord : 12 jetons.", "Pli pour Ouest.", "Relance de 4.", "La dame de carreau, jouée par Est.",
	"Score : vous 34, eux 28.",
};

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

int audio_bench_run(struct audio_bench *b, int samples, const char *lang, char *err, size_t errlen)
{
	struct audio_options o;
	struct audio *dev, *a;
	struct speech *sp;
	double *t, *cpu, *synth;
	int fr = lang && strcmp(lang, "fr") == 0;
	const char *const *answers = fr ? answers_fr : answers_en;
	int nanswers = (int)(sizeof answers_en / sizeof answers_en[0]);

	memset(b, 0, sizeof *b);
	if (samples < 1)
		samples = 1;
	/* The output device first: OpenAL reads its period settings at the
	 * first call of the process. */
	audio_options_default(&o);
	dev = audio_open("openal", &o, b->device_err, sizeof b->device_err);
	if (dev) {
		b->have_device = 1;
		audio_get_info(dev, &b->device);
		audio_close(dev);
	}

	audio_options_default(&o);
	o.loopback = 1;
	a = audio_open("openal", &o, err, errlen);
	if (!a)
		return -1;
	audio_get_info(a, &b->loop);
	sp = xcalloc(1, sizeof *sp);
	t = xcalloc((size_t)samples, sizeof *t);
	synth = xcalloc((size_t)samples, sizeof *synth);
	cpu = xcalloc((size_t)samples, sizeof *cpu);
	if (speech_open(sp, "espeak", fr ? "fr" : "en", NULL, a, err, errlen) != 0) {
		speech_close(sp);
		goto fail;
	}
	speech_say(sp, answers[0], SPEECH_INTERRUPT | SPEECH_NO_HISTORY);   /* warm up */
	int n = 0;
	for (int i = 0; i < samples; i++) {
		double c0 = audio_cpu_now();
		double t0 = audio_now();
		/* a key: stop what is said, say the answer */
		speech_say(sp, answers[i % nanswers], SPEECH_INTERRUPT | SPEECH_NO_HISTORY);
		double t1 = audio_now();
		double started = audio_stream_started(a);
		if (started < t0)
			continue;   /* nothing was heard */
		t[n] = (started - t0) * 1000.0;
		synth[n] = (t1 - t0) * 1000.0;
		cpu[n] = (audio_stream_started_cpu(a) - c0) * 1000.0;
		b->mean_ms += t[n];
		n++;
	}
	speech_stop(sp);
	speech_close(sp);
	if (n == 0) {
		errf(err, errlen, "espeak-ng produced no sound");
		goto fail;
	}
	qsort(t, (size_t)n, sizeof *t, cmp);
	qsort(synth, (size_t)n, sizeof *synth, cmp);
	qsort(cpu, (size_t)n, sizeof *cpu, cmp);
	b->samples = n;
	b->median_ms = t[n / 2];
	int k99 = (n * 99) / 100 < n ? (n * 99) / 100 : n - 1;
	b->p99_ms = t[k99];
	b->cpu_median_ms = cpu[n / 2];
	b->cpu_p99_ms = cpu[k99];
	b->max_ms = t[n - 1];
	b->mean_ms /= n;
	b->synth_median_ms = synth[n / 2];
	free(cpu);
	free(synth);
	free(t);
	free(sp);
	audio_close(a);
	return 0;
fail:
	free(cpu);
	free(synth);
	free(t);
	free(sp);
	audio_close(a);
	return -1;
}

void audio_bench_print(const struct audio_bench *b, int json, FILE *out)
{
	const struct audio_info *d = &b->device;

	if (json) {
		fprintf(out, "\"speech_samples\": %d, \"speech_median_ms\": %.3f, \"speech_p99_ms\": %.3f, "
		        "\"speech_max_ms\": %.3f, \"speech_cpu_median_ms\": %.3f, \"speech_cpu_p99_ms\": %.3f, "
		        "\"speech_synth_median_ms\": %.3f, \"speech_target_ms\": %.1f, ",
		        b->samples, b->median_ms, b->p99_ms, b->max_ms, b->cpu_median_ms, b->cpu_p99_ms,
		        b->synth_median_ms, AUDIO_BENCH_TARGET_MS);
		if (b->have_device)
			fprintf(out, "\"audio_device\": \"%s\", \"audio_frequency\": %d, \"audio_refresh\": %d, "
			        "\"audio_period_frames\": %d, \"audio_periods\": %d, \"audio_buffer_ms\": %.1f, "
			        "\"audio_latency_ms\": %.1f, \"audio_hrtf\": %d, \"audio_buffer_target_ms\": %.1f",
			        d->device, d->frequency, d->refresh, d->period_frames, d->periods,
			        d->buffer_ms, d->latency_ms, d->hrtf, AUDIO_BENCH_DEVICE_TARGET_MS);
		else
			fprintf(out, "\"audio_device\": null");
		return;
	}
	fprintf(out, "key to speech (in process, espeak-ng, %d answers): median %.2f ms, p99 %.2f ms, "
	        "max %.2f ms (target < %.0f ms)\n",
	        b->samples, b->median_ms, b->p99_ms, b->max_ms, AUDIO_BENCH_TARGET_MS);
	fprintf(out, "  the same in CPU time: median %.2f ms, p99 %.2f ms; whole answer synthesised: median %.2f ms\n",
	        b->cpu_median_ms, b->cpu_p99_ms, b->synth_median_ms);
	if (!b->have_device) {
		fprintf(out, "sound device: none (%s)\n", b->device_err);
		return;
	}
	fprintf(out, "sound device %s: %d Hz, refresh %d Hz, period %d frames (%.1f ms)",
	        d->device, d->frequency, d->refresh, d->period_frames, d->period_ms);
	if (d->periods)
		fprintf(out, " x %d = %.1f ms buffer", d->periods, d->buffer_ms);
	if (d->latency_ms >= 0)
		fprintf(out, ", reported latency %.1f ms", d->latency_ms);
	fprintf(out, " (target <= %.0f ms), HRTF %s\n", AUDIO_BENCH_DEVICE_TARGET_MS, d->hrtf ? "on" : "off");
}
