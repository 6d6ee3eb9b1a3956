/* SPDX-License-Identifier: GPL-3.0-or-later */
/* speech_espeak: the espeak-ng backend. espeak-ng runs in synchronous mode
 * on the caller's thread: a sentence becomes PCM in a few milliseconds and
 * the PCM is queued on the audio speech stream, so speech and cues share one
 * mixer; interrupting is stopping that stream (audio_stream_stop).
 *
 * espeak-ng is one per process: the library is initialised at the first
 * open and kept until the process ends (espeak-ng 1.51 hangs in
 * espeak_Terminate after a second initialisation).
 *
 * The library is loaded (dlopen) at that first open, not when the program
 * starts: it brings some thirty shared libraries of its own (PulseAudio,
 * X11 through libpcaudio), which every command without a voice (`tapis
 * --version`, `rules --text`, `replay`, `bench`) would load for nothing. */
#include <dlfcn.h>
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"
#include "core/err.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "speech/speech.h"
#include "speech/speech_backends.h"

/* Size of espeak's output chunks: small, so the first one (the start of
 * speech) comes as early as possible. */
#define CHUNK_MS 20
/* Later chunks are gathered into buffers of about this length. */
#define GATHER_MS 250
/* Leading samples quieter than this are dropped (espeak starts utterances
 * with a little silence; the player waits for the first sound). */
#define SILENCE 64
/* A voice name with its variant ("fr+f3"); a fallback as "wanted>got";
 * the sentence that tells it. */
#define VOICE_MAX 48
#define FALLBACK_MAX 128
#define NOTICE_MAX 256

struct esp {
	struct speech *sp;
	short *pcm;              /* gathered samples not queued yet */
	int n, cap;
	int started;             /* the utterance's first sound is queued */
	char voice[VOICE_MAX];   /* voice in effect */
	char warned[FALLBACK_MAX]; /* the last voice fallback said (said once) */
};

static int esp_rate;         /* samples per second, from espeak_Initialize */

/* The functions of the library, once loaded (esp_load). */
static struct {
	__typeof__(espeak_Initialize) *Initialize;
	__typeof__(espeak_SetParameter) *SetParameter;
	__typeof__(espeak_SetSynthCallback) *SetSynthCallback;
	__typeof__(espeak_SetVoiceByName) *SetVoiceByName;
	__typeof__(espeak_Synth) *Synth;
} esp_fn;

/* 0 once the library and its functions are found, else -1. */
static int esp_load(void)
{
	if (esp_fn.Synth)
		return 0;
	void *lib = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		lib = dlopen("libespeak-ng.so", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return -1;
	/* (a data pointer turned into a function pointer, as POSIX allows) */
	*(void **)&esp_fn.Initialize = dlsym(lib, "espeak_Initialize");
	*(void **)&esp_fn.SetParameter = dlsym(lib, "espeak_SetParameter");
	*(void **)&esp_fn.SetSynthCallback = dlsym(lib, "espeak_SetSynthCallback");
	*(void **)&esp_fn.SetVoiceByName = dlsym(lib, "espeak_SetVoiceByName");
	void *synth = dlsym(lib, "espeak_Synth");
	if (!esp_fn.Initialize || !esp_fn.SetParameter || !esp_fn.SetSynthCallback || !esp_fn.SetVoiceByName ||
	    !synth) {
		dlclose(lib);
		memset(&esp_fn, 0, sizeof esp_fn);
		return -1;
	}
	*(void **)&esp_fn.Synth = synth;   /* kept open until the process ends */
	return 0;
}
static struct esp *esp_current;

static void esp_close(struct speech *sp);

static void flush(struct esp *e)
{
	if (e->n > 0 && e->sp->audio)
		audio_stream_queue(e->sp->audio, e->pcm, e->n, esp_rate);
	e->n = 0;
}

static void gather(struct esp *e, const short *wav, int n)
{
	xgrow((void **)&e->pcm, &e->cap, e->n + n, sizeof *e->pcm);
	memcpy(e->pcm + e->n, wav, (size_t)n * sizeof *wav);
	e->n += n;
}

static int synth_cb(short *wav, int n, espeak_EVENT *events)
{
	struct esp *e = esp_current;

	(void)events;
	if (!e || !wav || n <= 0)
		return 0;
	if (!e->started) {
		int i = 0;
		while (i < n && wav[i] > -SILENCE && wav[i] < SILENCE)
			i++;
		if (i == n)
			return 0;
		/* The first sound goes out at once. */
		e->started = 1;
		if (e->sp->audio)
			audio_stream_queue(e->sp->audio, wav + i, n - i, esp_rate);
		return 0;
	}
	gather(e, wav, n);
	if (e->n >= esp_rate * GATHER_MS / 1000)
		flush(e);
	return 0;
}

/* Say something outside the queue (the voice fallback message). */
static void esp_say(struct speech *sp, const char *text);

static int set_voice(const char *name)
{
	return name && *name && esp_fn.SetVoiceByName(name) == EE_OK;
}

static void apply(struct speech *sp)
{
	struct esp *e = sp->impl;
	const char *lang = sp->lang[0] ? sp->lang : "en";
	const char *want = sp->set.voice[0] ? sp->set.voice : lang;
	const char *got = NULL;
	char variant[VOICE_MAX];

	/* "+f3": the language's voice with a variant */
	if (want[0] == '+') {
		snprintf(variant, sizeof variant, "%s%s", lang, want);
		want = variant;
	}

	if (set_voice(want))
		got = want;
	else if (strcmp(want, lang) != 0 && set_voice(lang))
		got = lang;
	else if (set_voice("en"))
		got = "en";
	snprintf(e->voice, sizeof e->voice, "%s", got ? got : "");
	esp_fn.SetParameter(espeakRATE, num_clamp(sp->set.rate, 80, 900), 0);
	esp_fn.SetParameter(espeakPITCH, num_clamp(sp->set.pitch, 0, 100), 0);
	esp_fn.SetParameter(espeakVOLUME, num_clamp(sp->set.volume, 0, 200), 0);
	if (got != want) {
		char msg[FALLBACK_MAX];
		snprintf(msg, sizeof msg, "%s>%s", want, got ? got : "");
		if (strcmp(msg, e->warned) != 0) {
			snprintf(e->warned, sizeof e->warned, "%s", msg);
			/* Said once, in the voice that stands in. */
			if (got) {
				char text[NOTICE_MAX];
				snprintf(text, sizeof text, _("Voice %1$s missing: using %2$s."), want, got);
				esp_say(sp, text);
			}
		}
	}
}

static int esp_open(struct speech *sp, char *err, size_t errlen)
{
	struct esp *e;

	if (!sp->audio)
		return errf(err, errlen, "%s", _("No sound device: text only."));
	if (esp_rate == 0) {
		int rate = esp_load() < 0 ? -1 : esp_fn.Initialize(AUDIO_OUTPUT_SYNCHRONOUS, CHUNK_MS, NULL,
		                                           espeakINITIALIZE_DONT_EXIT);
		if (rate <= 0)
			return errf(err, errlen, "%s", _("Speech synthesiser unavailable: text only."));
		esp_rate = rate;
		esp_fn.SetSynthCallback(synth_cb);
	}
	e = xcalloc(1, sizeof *e);
	e->sp = sp;
	sp->impl = e;
	apply(sp);
	if (!e->voice[0]) {
		esp_close(sp);
		return errf(err, errlen, _("No voice for %s: text only."), sp->lang[0] ? sp->lang : "en");
	}
	return 0;
}

static void esp_close(struct speech *sp)
{
	struct esp *e = sp->impl;

	if (!e)
		return;
	if (sp->audio)
		audio_stream_stop(sp->audio);
	if (esp_current == e)
		esp_current = NULL;
	free(e->pcm);
	free(e);
	sp->impl = NULL;
}

static void esp_say(struct speech *sp, const char *text)
{
	struct esp *e = sp->impl;

	if (!e || !text || !*text)
		return;
	if (sp->audio && audio_lost(sp->audio)) {
		/* nobody hears it: a line of text, as the text backend does */
		if (sp->out) {
			fprintf(sp->out, "%s\n", text);
			fflush(sp->out);
		}
		return;
	}
	esp_current = e;
	e->started = 0;
	e->n = 0;
	esp_fn.Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0,
	             espeakCHARS_UTF8 | espeakENDPAUSE, NULL, NULL);
	flush(e);
	esp_current = NULL;
}

static void esp_stop(struct speech *sp)
{
	struct esp *e = sp->impl;

	if (e)
		e->n = 0;
	if (sp->audio)
		audio_stream_stop(sp->audio);
}

static int esp_busy(struct speech *sp)
{
	return sp->audio ? audio_stream_busy(sp->audio) : 0;
}

static void esp_configure(struct speech *sp)
{
	if (sp->impl)
		apply(sp);
}

static void esp_pump(struct speech *sp)
{
	if (sp->audio)
		audio_pump(sp->audio);
}

const char *speech_espeak_voice(const struct speech *sp)
{
	const struct esp *e = sp->impl;
	return e ? e->voice : "";
}

int speech_espeak_rate(void)
{
	return esp_rate;
}

const struct speech_backend speech_espeak_backend = {
	"espeak", esp_open, esp_close, esp_say, esp_stop, esp_busy, esp_configure, esp_pump,
};
