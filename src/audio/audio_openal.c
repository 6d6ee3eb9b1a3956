/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio_openal: the OpenAL Soft backend. One context; a pool of sources for
 * the cues (positioned, relative to the listener, no distance attenuation:
 * only the direction tells the seat); one streaming source for speech, fed
 * with mono buffers recycled by audio_pump(). */
#include "audio/audio_impl.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <fcntl.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"

#define CUE_SOURCES 16
#define LOOPBACK_RATE 44100
/* The period asked for when tapis chooses it: 440 frames at OpenAL's
 * reference 44.1 kHz (it scales them to the device rate), 10 ms, and 3
 * periods: a 30 ms buffer. */
#define LOW_PERIOD_FRAMES 440
#define LOW_PERIODS 3
#define WANT_REFRESH 100

struct al {
	ALCdevice *dev;
	ALCcontext *ctx;
	int loopback;
	int low_latency;                 /* we chose the period */
	int has_hrtf;
	int frequency;                   /* asked (0 = the device's) */
	LPALCRENDERSAMPLESSOFT render;
	LPALCRESETDEVICESOFT reset;
	LPALCGETINTEGER64VSOFT get64;
	ALuint cue_buf[CUE_COUNT];
	int cue_ok[CUE_COUNT];
	ALuint cue_src[CUE_SOURCES];
	int next_src;
	double cue_len[CUE_COUNT];      /* seconds */
	/* how it was opened, to open it again */
	struct audio_options opts;
	char opt_device[256], opt_sounds[1024];
	int has_disconnect;              /* ALC_EXT_disconnect */
	double next_check;               /* audio_now() of the next look */
	int lost;                        /* disconnected, not reopened yet */
	int unplugged;                   /* audio_unplug: looks disconnected at the next check */
	long long rendered;              /* loopback frames mixed */
	ALuint stream;
	ALuint *fifo;                    /* buffers queued on the stream, oldest first */
	int nfifo, capfifo;
	ALuint *spare;                   /* buffers ready for reuse */
	int nspare, capspare;
};

/* ---- a small device buffer ---- */

static int file_sets_period(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "period_size", 11) == 0 || strncmp(p, "periods", 7) == 0)
			found = 1;
	}
	fclose(f);
	return found;
}

static int user_sets_period(void)
{
	char path[1024];
	const char *home = getenv("HOME");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *dirs = getenv("XDG_CONFIG_DIRS");

	if (file_sets_period("/etc/openal/alsoft.conf"))
		return 1;
	snprintf(path, sizeof path, "%s/alsoft.conf", dirs && *dirs && !strchr(dirs, ':') ? dirs : "/etc/xdg");
	if (file_sets_period(path))
		return 1;
	if (home) {
		snprintf(path, sizeof path, "%s/.alsoftrc", home);
		if (file_sets_period(path))
			return 1;
	}
	if (xdg && *xdg)
		snprintf(path, sizeof path, "%s/alsoft.conf", xdg);
	else if (home)
		snprintf(path, sizeof path, "%s/.config/alsoft.conf", home);
	else
		return 0;
	return file_sets_period(path);
}

/* OpenAL Soft reads its configuration once, at the first ALC call, and
 * ignores ALC_REFRESH for output devices in the versions we know: the period
 * is set through a configuration file of our own named by ALSOFT_CONF
 * (never when the environment or the user chose one). Returns 1 when the
 * small period is in effect for this process, and the file to remove once
 * the device is open in tmp. */
static int low_latency_conf(char *tmp, size_t tmplen)
{
	static int state = -1;   /* -1 not tried, 0 not ours, 1 ours */
	const char *dir = getenv("TMPDIR");
	int fd;

	tmp[0] = 0;
	if (state >= 0)
		return state;
	state = 0;
	if (getenv("ALSOFT_CONF") || user_sets_period())
		return 0;
	snprintf(tmp, tmplen, "%s/tapis-alsoft-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmp);
	if (fd < 0) {
		tmp[0] = 0;
		return 0;
	}
	char conf[128];
	int n = snprintf(conf, sizeof conf, "[general]\nperiod_size = %d\nperiods = %d\n",
	                 LOW_PERIOD_FRAMES, LOW_PERIODS);
	if (write(fd, conf, (size_t)n) != n) {
		close(fd);
		unlink(tmp);
		tmp[0] = 0;
		return 0;
	}
	close(fd);
	setenv("ALSOFT_CONF", tmp, 1);
	state = 1;
	return 1;
}

static void low_latency_done(const char *tmp)
{
	if (tmp[0]) {
		unlink(tmp);
		unsetenv("ALSOFT_CONF");
	}
}

/* ---- helpers ---- */

static struct al *AL(const struct audio *a)
{
	return a->impl;
}

static void use(struct al *al)
{
	if (alcGetCurrentContext() != al->ctx)
		alcMakeContextCurrent(al->ctx);
}

static void push(ALuint **v, int *n, int *cap, ALuint id)
{
	xgrow((void **)v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = id;
}

static int hrtf_attr(int hrtf)
{
	return hrtf == AUDIO_HRTF_ON ? ALC_TRUE : hrtf == AUDIO_HRTF_OFF ? ALC_FALSE : ALC_DONT_CARE_SOFT;
}

/* Attributes for a context or a reset. */
static void attrs(const struct al *al, int hrtf, ALCint *at)
{
	int i = 0;
	if (al->loopback) {
		at[i++] = ALC_FORMAT_CHANNELS_SOFT; at[i++] = ALC_STEREO_SOFT;
		at[i++] = ALC_FORMAT_TYPE_SOFT; at[i++] = ALC_SHORT_SOFT;
		at[i++] = ALC_FREQUENCY; at[i++] = al->frequency;
	} else {
		at[i++] = ALC_REFRESH; at[i++] = WANT_REFRESH;
		if (al->frequency > 0) {
			at[i++] = ALC_FREQUENCY; at[i++] = al->frequency;
		}
	}
	if (al->has_hrtf) {
		at[i++] = ALC_HRTF_SOFT; at[i++] = hrtf_attr(hrtf);
	}
	at[i] = 0;
}

static int load_cue(struct al *al, enum cue cue, const char *dir)
{
	char path[1024];
	SF_INFO info;
	SNDFILE *f;
	short *pcm, *mono;
	sf_count_t frames;

	int len = snprintf(path, sizeof path, "%s/%s.wav", dir, cue_name(cue));
	if (len < 0 || (size_t)len >= sizeof path)
		return -1;
	memset(&info, 0, sizeof info);
	f = sf_open(path, SFM_READ, &info);
	if (!f)
		return -1;
	if (info.channels < 1 || info.frames <= 0 || info.frames > 10 * 48000) {
		sf_close(f);
		return -1;
	}
	/* The size comes from the file: a cue too large to hold stays silent
	 * like a missing one, instead of stopping the game. */
	pcm = malloc((size_t)info.frames * (size_t)info.channels * sizeof *pcm);
	if (!pcm) {
		sf_close(f);
		return -1;
	}
	frames = sf_readf_short(f, pcm, info.frames);
	sf_close(f);
	if (frames <= 0) {
		free(pcm);
		return -1;
	}
	/* Only mono is positioned: mix other layouts down. */
	mono = pcm;
	if (info.channels > 1) {
		for (sf_count_t i = 0; i < frames; i++) {
			long s = 0;
			for (int c = 0; c < info.channels; c++)
				s += pcm[i * info.channels + c];
			mono[i] = (short)(s / info.channels);
		}
	}
	alGenBuffers(1, &al->cue_buf[cue]);
	alBufferData(al->cue_buf[cue], AL_FORMAT_MONO16, mono, (ALsizei)(frames * 2), info.samplerate);
	free(pcm);
	al->cue_len[cue] = (double)frames / info.samplerate;
	if (alGetError() != AL_NO_ERROR) {
		alDeleteBuffers(1, &al->cue_buf[cue]);
		al->cue_buf[cue] = 0;
		return -1;
	}
	al->cue_ok[cue] = 1;
	return 0;
}

/* ---- the backend ---- */

static void oal_close(struct audio *a);

static int oal_open(struct audio *a, const struct audio_options *o, char *err, size_t errlen)
{
	struct al *al = xcalloc(1, sizeof *al);
	char tmp[512] = "";
	ALCint at[16];

	a->impl = al;
	al->opts = *o;
	if (o->device) {
		snprintf(al->opt_device, sizeof al->opt_device, "%s", o->device);
		al->opts.device = al->opt_device;
	}
	if (o->sounds_dir) {
		snprintf(al->opt_sounds, sizeof al->opt_sounds, "%s", o->sounds_dir);
		al->opts.sounds_dir = al->opt_sounds;
	}
	al->loopback = o->loopback;
	al->frequency = o->frequency;
	if (!al->loopback && o->low_latency)
		al->low_latency = low_latency_conf(tmp, sizeof tmp);

	if (al->loopback) {
		LPALCLOOPBACKOPENDEVICESOFT lopen;
		LPALCISRENDERFORMATSUPPORTEDSOFT supported;
		if (!alcIsExtensionPresent(NULL, "ALC_SOFT_loopback")) {
			goto fail;
		}
		lopen = (LPALCLOOPBACKOPENDEVICESOFT)alcGetProcAddress(NULL, "alcLoopbackOpenDeviceSOFT");
		supported = (LPALCISRENDERFORMATSUPPORTEDSOFT)alcGetProcAddress(NULL, "alcIsRenderFormatSupportedSOFT");
		al->render = (LPALCRENDERSAMPLESSOFT)alcGetProcAddress(NULL, "alcRenderSamplesSOFT");
		if (al->frequency <= 0)
			al->frequency = LOOPBACK_RATE;
		al->dev = lopen ? lopen(NULL) : NULL;
		if (!al->dev || !al->render || !supported ||
		    !supported(al->dev, al->frequency, ALC_STEREO_SOFT, ALC_SHORT_SOFT)) {
			goto fail;
		}
	} else {
		/* Quiet the sound system's own complaints while probing: the
		 * player gets one clear message from us instead. */
		int saved = -1, null = -1;
		if (!getenv("TAPIS_AUDIO_DEBUG")) {
			fflush(stderr);
			saved = dup(2);
			null = open("/dev/null", O_WRONLY);
			if (saved >= 0 && null >= 0)
				dup2(null, 2);
		}
		al->dev = alcOpenDevice(o->device);
		if (saved >= 0) {
			fflush(stderr);
			dup2(saved, 2);
			close(saved);
		}
		if (null >= 0)
			close(null);
		low_latency_done(tmp);
		if (!al->dev) {
			goto fail;
		}
	}
	al->has_disconnect = alcIsExtensionPresent(al->dev, "ALC_EXT_disconnect");
	al->has_hrtf = alcIsExtensionPresent(al->dev, "ALC_SOFT_HRTF");
	if (al->has_hrtf)
		al->reset = (LPALCRESETDEVICESOFT)alcGetProcAddress(al->dev, "alcResetDeviceSOFT");
	if (alcIsExtensionPresent(al->dev, "ALC_SOFT_device_clock"))
		al->get64 = (LPALCGETINTEGER64VSOFT)alcGetProcAddress(al->dev, "alcGetInteger64vSOFT");
	attrs(al, a->hrtf, at);
	al->ctx = alcCreateContext(al->dev, at);
	if (!al->ctx) {
		goto fail;
	}
	use(al);
	alGetError();
	alDistanceModel(AL_NONE);
	alListener3f(AL_POSITION, 0, 0, 0);
	alGenSources(CUE_SOURCES, al->cue_src);
	alGenSources(1, &al->stream);
	if (alGetError() != AL_NO_ERROR) {
		goto fail;
	}
	for (int i = 0; i < CUE_SOURCES; i++)
		alSourcei(al->cue_src[i], AL_SOURCE_RELATIVE, AL_TRUE);
	alSourcei(al->stream, AL_SOURCE_RELATIVE, AL_TRUE);
	alSource3f(al->stream, AL_POSITION, 0, 0, 0);
	a->ops->volumes(a);

	/* The cues. */
	char dir[1024];
	int missing = 0;
	if (o->sounds_dir)
		snprintf(dir, sizeof dir, "%s", o->sounds_dir);
	else if (audio_sounds_dir(dir, sizeof dir) < 0)
		dir[0] = 0;
	for (int c = 0; c < CUE_COUNT; c++)
		if (load_cue(al, (enum cue)c, dir) < 0)
			missing++;
	if (missing)
		snprintf(a->notice, sizeof a->notice,
		         P_("%1$d sound missing in %2$s: that cue stays silent.",
		            "%1$d sounds missing in %2$s: those cues stay silent.", missing),
		         missing, dir);
	alGetError();
	return 0;
fail:
	/* Every way of failing here comes to the same thing for the player. */
	low_latency_done(tmp);
	oal_close(a);
	return errf(err, errlen, "%s", _("No sound device: text only."));
}

static void al_free(struct al *al)
{
	if (!al)
		return;
	if (al->ctx) {
		use(al);
		alSourceStop(al->stream);
		alSourcei(al->stream, AL_BUFFER, 0);
		for (int i = 0; i < CUE_SOURCES; i++) {
			alSourceStop(al->cue_src[i]);
			alSourcei(al->cue_src[i], AL_BUFFER, 0);
		}
		alDeleteSources(CUE_SOURCES, al->cue_src);
		alDeleteSources(1, &al->stream);
		for (int c = 0; c < CUE_COUNT; c++)
			if (al->cue_ok[c])
				alDeleteBuffers(1, &al->cue_buf[c]);
		if (al->nfifo)
			alDeleteBuffers(al->nfifo, al->fifo);
		if (al->nspare)
			alDeleteBuffers(al->nspare, al->spare);
		alcMakeContextCurrent(NULL);
		alcDestroyContext(al->ctx);
	}
	if (al->dev)
		alcCloseDevice(al->dev);
	free(al->fifo);
	free(al->spare);
	free(al);
}

static void oal_close(struct audio *a)
{
	al_free(AL(a));
	a->impl = NULL;
}

static int oal_render(struct audio *a, short *frames, int n)
{
	struct al *al = AL(a);

	if (!al->loopback || !al->render)
		return -1;
	use(al);
	al->render(al->dev, frames, n);
	al->rendered += n;
	return 0;
}

static void oal_cue(struct audio *a, enum cue cue, const float pos[3])
{
	struct al *al = AL(a);
	ALuint src = 0;

	if (!al->cue_ok[cue])
		return;
	use(al);
	/* A free source, else the oldest one started. */
	for (int i = 0; i < CUE_SOURCES && !src; i++) {
		int k = (al->next_src + i) % CUE_SOURCES;
		ALint state;
		alGetSourcei(al->cue_src[k], AL_SOURCE_STATE, &state);
		if (state != AL_PLAYING) {
			src = al->cue_src[k];
			al->next_src = (k + 1) % CUE_SOURCES;
		}
	}
	if (!src) {
		src = al->cue_src[al->next_src];
		al->next_src = (al->next_src + 1) % CUE_SOURCES;
		alSourceStop(src);
	}
	alSourcei(src, AL_BUFFER, (ALint)al->cue_buf[cue]);
	alSource3f(src, AL_POSITION, pos[0], pos[1], pos[2]);
	alSourcef(src, AL_GAIN, (float)a->cue_volume / AUDIO_VOLUME_MAX);
	alSourcePlay(src);
}

static void oal_volumes(struct audio *a)
{
	struct al *al = AL(a);

	use(al);
	alSourcef(al->stream, AL_GAIN, (float)a->speech_volume / AUDIO_VOLUME_MAX);
	/* Cues already sounding keep the volume they started with. */
}

static int hrtf_status(struct al *al)
{
	ALCint st = ALC_HRTF_DISABLED_SOFT;
	if (!al->has_hrtf)
		return 0;
	alcGetIntegerv(al->dev, ALC_HRTF_STATUS_SOFT, 1, &st);
	return st == ALC_HRTF_ENABLED_SOFT || st == ALC_HRTF_REQUIRED_SOFT;
}

static int oal_hrtf(struct audio *a, int hrtf)
{
	struct al *al = AL(a);
	ALCint at[16];

	if (!al->has_hrtf || !al->reset)
		return 0;
	attrs(al, hrtf, at);
	al->reset(al->dev, at);
	return hrtf_status(al);
}

/* Open the device again as it was opened; the old one stays on failure. */
static int oal_reopen(struct audio *a, char *err, size_t errlen)
{
	struct al *old = AL(a);
	struct audio tmp = *a;
	struct audio_options o = old->opts;
	char device[256], sounds[1024];

	if (o.device) {
		snprintf(device, sizeof device, "%s", o.device);
		o.device = device;
	}
	if (o.sounds_dir) {
		snprintf(sounds, sizeof sounds, "%s", o.sounds_dir);
		o.sounds_dir = sounds;
	}
	tmp.impl = NULL;
	tmp.notice[0] = 0;
	if (oal_open(&tmp, &o, err, errlen) < 0)
		return -1;
	a->impl = tmp.impl;
	al_free(old);
	return 0;
}

/* A lost device (headphones unplugged): opened again when it can be. */
static int watch_device(struct audio *a)
{
	struct al *al = AL(a);
	ALCint connected = 1;
	double now;
	char err[256];

	if (!al->unplugged && (al->loopback || !al->has_disconnect))
		return 0;
	now = audio_now();
	if (now < al->next_check)
		return 0;
	al->next_check = now + (al->lost ? 2.0 : 0.5);
	if (al->unplugged)
		connected = 0;
	else
		alcGetIntegerv(al->dev, ALC_CONNECTED, 1, &connected);
	if (connected)
		return 0;
	if (oal_reopen(a, err, sizeof err) == 0) {
		snprintf(a->notice, sizeof a->notice, "%s", _("Sound is back."));
		a->notice_given = 0;
		return 1;
	}
	if (!al->lost) {
		al->lost = 1;
		al->next_check = now + 2.0;
		snprintf(a->notice, sizeof a->notice, "%s", _("Sound device lost: text only until it is back."));
		a->notice_given = 0;
	}
	return 0;
}

/* Recycle the stream's played buffers. A lost device that is back is opened
 * again here, which frees the old struct al: callers take AL(a) after. */
static void oal_pump(struct audio *a)
{
	struct al *al;
	ALint done = 0;

	if (watch_device(a))
		return;
	al = AL(a);
	use(al);
	alGetSourcei(al->stream, AL_BUFFERS_PROCESSED, &done);
	if (done <= 0)
		return;
	if (done > al->nfifo)
		done = al->nfifo;
	alSourceUnqueueBuffers(al->stream, done, al->fifo);
	for (int i = 0; i < done; i++)
		push(&al->spare, &al->nspare, &al->capspare, al->fifo[i]);
	memmove(al->fifo, al->fifo + done, (size_t)(al->nfifo - done) * sizeof *al->fifo);
	al->nfifo -= done;
}

static int oal_queue(struct audio *a, const short *pcm, int n, int rate)
{
	struct al *al;
	ALint state;
	ALuint buf;
	int idle;

	oal_pump(a);
	al = AL(a);  /* after the pump, which may have opened the device again */
	use(al);
	alGetSourcei(al->stream, AL_SOURCE_STATE, &state);
	idle = state != AL_PLAYING && state != AL_PAUSED;
	if (idle && al->nfifo) {
		/* stopped with buffers still attached: drop them */
		alSourceStop(al->stream);
		alSourcei(al->stream, AL_BUFFER, 0);
		for (int i = 0; i < al->nfifo; i++)
			push(&al->spare, &al->nspare, &al->capspare, al->fifo[i]);
		al->nfifo = 0;
	}
	if (al->nspare) {
		buf = al->spare[--al->nspare];
	} else {
		alGenBuffers(1, &buf);
		if (alGetError() != AL_NO_ERROR)
			return -1;
	}
	alBufferData(buf, AL_FORMAT_MONO16, pcm, n * (ALsizei)sizeof *pcm, rate);
	alSourceQueueBuffers(al->stream, 1, &buf);
	if (alGetError() != AL_NO_ERROR) {
		alDeleteBuffers(1, &buf);
		return -1;
	}
	push(&al->fifo, &al->nfifo, &al->capfifo, buf);
	if (idle) {
		a->stream_started = audio_now();
		a->stream_started_cpu = audio_cpu_now();
		alSourcePlay(al->stream);
	}
	return 0;
}

static void oal_stop(struct audio *a)
{
	struct al *al = AL(a);

	use(al);
	alSourceStop(al->stream);
	alSourcei(al->stream, AL_BUFFER, 0);
	for (int i = 0; i < al->nfifo; i++)
		push(&al->spare, &al->nspare, &al->capspare, al->fifo[i]);
	al->nfifo = 0;
	alGetError();
}

static int oal_busy(struct audio *a)
{
	struct al *al = AL(a);
	ALint state;

	use(al);
	alGetSourcei(al->stream, AL_SOURCE_STATE, &state);
	return state == AL_PLAYING;
}

static int oal_cues_playing(struct audio *a)
{
	struct al *al = AL(a);

	use(al);
	for (int i = 0; i < CUE_SOURCES; i++) {
		ALint state;
		alGetSourcei(al->cue_src[i], AL_SOURCE_STATE, &state);
		if (state == AL_PLAYING)
			return 1;
	}
	return 0;
}

static int oal_loaded(const struct audio *a, enum cue cue)
{
	return AL(a)->cue_ok[cue];
}

static void oal_info(struct audio *a, struct audio_info *out)
{
	struct al *al = AL(a);
	ALCint freq = 0, refresh = 0;
	const ALCchar *name;

	out->loopback = al->loopback;
	name = alcGetString(al->dev, ALC_DEVICE_SPECIFIER);
	snprintf(out->device, sizeof out->device, "%s", name ? name : "?");
	alcGetIntegerv(al->dev, ALC_FREQUENCY, 1, &freq);
	alcGetIntegerv(al->dev, ALC_REFRESH, 1, &refresh);
	out->frequency = freq;
	out->refresh = refresh;
	out->period_frames = refresh > 0 ? freq / refresh : 0;
	out->period_ms = freq > 0 ? 1000.0 * out->period_frames / freq : 0;
	/* our period is in effect only if OpenAL read our file (it reads its
	 * configuration once per process) */
	out->low_latency = al->low_latency && refresh >= WANT_REFRESH * 9 / 10;
	out->periods = out->low_latency ? LOW_PERIODS : 0;
	out->buffer_ms = out->period_ms * out->periods;
	out->latency_ms = -1;
	if (al->get64 && !al->loopback) {
		ALCint64SOFT v[2] = { 0, 0 };
		al->get64(al->dev, ALC_DEVICE_CLOCK_LATENCY_SOFT, 2, v);
		out->latency_ms = (double)v[1] / 1e6;
	}
	out->hrtf = hrtf_status(al);
	for (int c = 0; c < CUE_COUNT; c++)
		out->cues_loaded += al->cue_ok[c];
}

static double oal_length(const struct audio *a, enum cue cue)
{
	return AL(a)->cue_ok[cue] ? AL(a)->cue_len[cue] : 0;
}

static double oal_clock(const struct audio *a)
{
	const struct al *al = AL(a);
	return al->loopback ? (double)al->rendered / al->frequency : audio_now();
}

static int oal_lost(const struct audio *a)
{
	return AL(a)->lost;
}

static void oal_unplug(struct audio *a)
{
	struct al *al = AL(a);
	al->unplugged = 1;
	al->next_check = 0;
}

const struct audio_ops audio_openal_ops = {
	"openal", oal_open, oal_close, oal_render, oal_cue, oal_volumes, oal_hrtf,
	oal_queue, oal_stop, oal_busy, oal_cues_playing, oal_pump, oal_loaded, oal_length, oal_clock, oal_info,
	oal_reopen, oal_lost, oal_unplug,
};
