/* SPDX-License-Identifier: GPL-3.0-or-later */
/* speech_speechd: the speech-dispatcher backend (the voice the player's
 * screen reader uses). Built only when the Makefile finds speech-dispatcher
 * (HAVE_SPEECHD); otherwise this file is empty and "speechd" is simply not
 * in the backends table.
 *
 * speech-dispatcher speaks on its own; it tells when a message ends through
 * callbacks on its thread. Messages end in order, so "busy" is: the last
 * message sent is newer than the last one ended or cancelled. */
#ifdef HAVE_SPEECHD

#include <libspeechd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/err.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "speech/speech.h"
#include "speech/speech_backends.h"

struct spd {
	SPDConnection *conn;
};

/* The callbacks carry no user pointer: one connection per process. */
static atomic_long spd_sent;     /* id of the last message sent */
static atomic_long spd_done;     /* highest id ended or cancelled */
static atomic_long spd_stopped;  /* last id sent when we stopped */

static void note_done(size_t msg_id, size_t client_id, SPDNotificationType type)
{
	long id = (long)msg_id, cur;

	(void)client_id;
	(void)type;
	cur = atomic_load(&spd_done);
	while (id > cur && !atomic_compare_exchange_weak(&spd_done, &cur, id))
		;
}

/* espeak words per minute to speech-dispatcher's -100..100 (0 = the
 * module's normal rate, about 175 wpm; +100 about 450). */
static int spd_rate(int wpm)
{
	wpm = num_clamp(wpm, 80, 900);
	if (wpm <= 175)
		return -100 + (wpm - 80) * 100 / 95;
	return num_clamp((wpm - 175) * 100 / 275, 0, 100);
}

static void apply(struct speech *sp)
{
	struct spd *s = sp->impl;

	/* The player's screen reader voice as it is, unless the player
	 * changed something in tapis. */
	spd_set_language(s->conn, sp->lang[0] ? sp->lang : "en");
	if (sp->set.voice[0] && (sp->set.chosen & SPEECH_CHOSE_VOICE))
		spd_set_synthesis_voice(s->conn, sp->set.voice);
	if (sp->set.chosen & SPEECH_CHOSE_RATE)
		spd_set_voice_rate(s->conn, spd_rate(sp->set.rate));
	if (sp->set.chosen & SPEECH_CHOSE_PITCH)
		spd_set_voice_pitch(s->conn, num_clamp(sp->set.pitch, 0, 100) * 2 - 100);
	if (sp->set.chosen & SPEECH_CHOSE_VOLUME)
		spd_set_volume(s->conn, num_clamp(sp->set.volume, 0, 100) * 2 - 100);
}

/* 1 when something accepts connections on the unix socket at path. */
static int listening(const char *path)
{
	struct sockaddr_un sa;
	int fd, ok;

	if (!path || strlen(path) >= sizeof sa.sun_path)
		return 0;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
	close(fd);
	return ok;
}

static int sd_open(struct speech *sp, char *err, size_t errlen)
{
	struct spd *s = xcalloc(1, sizeof *s);
	char *why = NULL;

	/* libspeechd leaks when it cannot connect: see first whether the
	 * service listens (a running daemon, or systemd's socket). It is not
	 * started for us: the player's screen reader or session does that. */
	SPDConnectionAddress *addr = spd_get_default_address(&why);
	free(why);
	why = NULL;
	if (addr && (addr->method != SPD_METHOD_UNIX_SOCKET || listening(addr->unix_socket_name))) {
		s->conn = spd_open2("tapis", "main", NULL, SPD_MODE_THREADED, addr, 0, &why);
		free(why);
	}
	if (addr)
		SPDConnectionAddress__free(addr);
	if (!s->conn) {
		free(s);
		return errf(err, errlen, "%s", _("Speech Dispatcher unavailable: text only."));
	}
	s->conn->callback_end = note_done;
	s->conn->callback_cancel = note_done;
	spd_set_notification_on(s->conn, SPD_END);
	spd_set_notification_on(s->conn, SPD_CANCEL);
	atomic_store(&spd_sent, 0);
	atomic_store(&spd_done, 0);
	atomic_store(&spd_stopped, 0);
	sp->impl = s;
	apply(sp);
	return 0;
}

static void sd_close(struct speech *sp)
{
	struct spd *s = sp->impl;

	if (!s)
		return;
	spd_cancel(s->conn);
	spd_close(s->conn);
	free(s);
	sp->impl = NULL;
}

static void sd_say(struct speech *sp, const char *text)
{
	struct spd *s = sp->impl;
	int id;

	if (!s || !text || !*text)
		return;
	id = spd_say(s->conn, SPD_MESSAGE, text);
	if (id > 0)
		atomic_store(&spd_sent, id);
}

static void sd_stop(struct speech *sp)
{
	struct spd *s = sp->impl;

	if (!s)
		return;
	spd_cancel(s->conn);
	atomic_store(&spd_stopped, atomic_load(&spd_sent));
}

static int sd_busy(struct speech *sp)
{
	long sent = atomic_load(&spd_sent);

	(void)sp;
	return sent > atomic_load(&spd_done) && sent > atomic_load(&spd_stopped);
}

static void sd_configure(struct speech *sp)
{
	if (sp->impl)
		apply(sp);
}

const struct speech_backend speech_speechd_backend = {
	"speechd", sd_open, sd_close, sd_say, sd_stop, sd_busy, sd_configure, NULL,
};

#else
/* ISO C wants something in a translation unit. */
typedef int speech_speechd_unused;
#endif
