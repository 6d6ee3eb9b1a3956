/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "speech/speech.h"
#include "speech/speech_backends.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/termtext.h"
#include "core/xalloc.h"
#include "words/french.h"

/* ---- the text backend: one line per message on a stream ---- */

static int text_open(struct speech *sp, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (!sp->out)
		sp->out = stdout;
	return 0;
}

static void text_close(struct speech *sp) { fflush(sp->out); }

/* Printable text only: a line may hold a stranger's words (a server's, a
 * player's name or chat), never a terminal's escape sequence. */
static void text_say(struct speech *sp, const char *text)
{
	char *clean = termtext_dup(text, strlen(text));
	fputs(clean, sp->out);
	free(clean);
	fputc('\n', sp->out);
	fflush(sp->out);
}

static void nothing(struct speech *sp) { (void)sp; }
static int never_busy(struct speech *sp) { (void)sp; return 0; }

const struct speech_backend speech_text_backend = {
	.name = "text",
	.open = text_open,
	.close = text_close,
	.say = text_say,
	.stop = nothing,
	.busy = never_busy,
	.configure = nothing,
	.pump = NULL,
};

/* ---- the none backend: silence (the history still keeps everything) ---- */

static int none_open(struct speech *sp, char *err, size_t errlen)
{
	(void)sp;
	(void)err;
	(void)errlen;
	return 0;
}

static void none_say(struct speech *sp, const char *text)
{
	(void)sp;
	(void)text;
}

const struct speech_backend speech_none_backend = {
	.name = "none",
	.open = none_open,
	.close = nothing,
	.say = none_say,
	.stop = nothing,
	.busy = never_busy,
	.configure = nothing,
	.pump = NULL,
};

/* ---- the registry ---- */

static const struct speech_backend *const backends[] = {
	&speech_espeak_backend,
#ifdef HAVE_SPEECHD
	&speech_speechd_backend,
#endif
	&speech_text_backend,
	&speech_none_backend,
	NULL,
};

const struct speech_backend *speech_backend_find(const char *name)
{
	for (int i = 0; backends[i]; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

double speech_now(void)
{
	return clock_s();
}

int speech_open(struct speech *sp, const char *backend, const char *lang,
                const struct speech_settings *set, struct audio *audio, char *err, size_t errlen)
{
	FILE *out = sp->out;
	memset(sp, 0, sizeof *sp);
	sp->out = out;
	sp->audio = audio;
	snprintf(sp->lang, sizeof sp->lang, "%s", lang);
	if (set)
		sp->set = *set;
	else
		speech_settings_default(&sp->set);
	if (!strcmp(backend, "auto")) {
		/* speech-dispatcher's open fails at once when nothing listens on
		 * its socket; espeak-ng needs the audio device. */
		static const char *const order[] = { "speechd", "espeak", NULL };
		for (int i = 0; order[i]; i++) {
			const struct speech_backend *b = speech_backend_find(order[i]);
			if (b && b->open(sp, err, errlen) == 0) {
				sp->backend = b;
				if (errlen)
					*err = '\0';
				return 0;
			}
		}
		/* Text, as expected where there is no voice: the caller says
		 * what is missing (the sound device). */
		if (errlen)
			*err = '\0';
		sp->backend = &speech_text_backend;
		speech_text_backend.open(sp, err, 0);
		return 1;
	}
	const struct speech_backend *b = speech_backend_find(backend);
	if (!b) {
		snprintf(err, errlen, "unknown speech backend '%s'", backend);
		b = &speech_text_backend;
	} else if (b->open(sp, err, errlen) == 0) {
		sp->backend = b;
		return 0;
	}
	sp->backend = &speech_text_backend;
	speech_text_backend.open(sp, err, 0);
	return 1;
}

void speech_close(struct speech *sp)
{
	if (sp->backend)
		sp->backend->close(sp);
	sp->backend = NULL;
}

void speech_set_lang(struct speech *sp, const char *lang)
{
	snprintf(sp->lang, sizeof sp->lang, "%s", lang);
	sp->backend->configure(sp);
}

void speech_configure(struct speech *sp, const struct speech_settings *set)
{
	sp->set = *set;
	sp->backend->configure(sp);
}

static void remember(struct speech *sp, const char *text)
{
	snprintf(sp->history[sp->hist_head], SPEECH_TEXT_MAX, "%s", text);
	sp->hist_head = (sp->hist_head + 1) % SPEECH_HISTORY;
	if (sp->hist_count < SPEECH_HISTORY)
		sp->hist_count++;
	sp->hist_pos = 0;
}

void speech_say(struct speech *sp, const char *text, int flags)
{
	if (!text || !*text)
		return;
	char fr[SPEECH_TEXT_MAX];
	if (!strcmp(sp->lang, "fr") && !(flags & SPEECH_PHRASED) && strlen(text) < sizeof fr)
		text = french_contract(text, fr, sizeof fr);
	if (flags & SPEECH_INTERRUPT)
		sp->backend->stop(sp);
	if (flags & SPEECH_ECHO)
		snprintf(sp->echo, sizeof sp->echo, "%s", text);
	else if (!(flags & SPEECH_NO_HISTORY))
		remember(sp, text);
	sp->backend->say(sp, text);
	if (sp->tap)
		sp->tap(sp->tap_ctx, text, flags);
	if (!(flags & SPEECH_INTERRUPT))
		sp->quiet_until = speech_now() + sp->set.pause;
}

void speech_stop(struct speech *sp) { sp->backend->stop(sp); }
int speech_busy(struct speech *sp) { return sp->backend->busy(sp); }

void speech_pump(struct speech *sp)
{
	if (sp->backend->pump)
		sp->backend->pump(sp);
}

int speech_idle(struct speech *sp, double now)
{
	if (speech_busy(sp)) {
		sp->quiet_until = now + sp->set.pause;
		return 0;
	}
	return now >= sp->quiet_until;
}

/* Message k steps back from the newest (k = 0: newest). */
static const char *hist_at(struct speech *sp, int k)
{
	if (k < 0 || k >= sp->hist_count)
		return NULL;
	int i = (sp->hist_head - 1 - k + 2 * SPEECH_HISTORY) % SPEECH_HISTORY;
	return sp->history[i];
}

const char *speech_history_prev(struct speech *sp)
{
	if (sp->hist_pos + 1 < sp->hist_count)
		sp->hist_pos++;
	return hist_at(sp, sp->hist_pos);
}

const char *speech_history_next(struct speech *sp)
{
	if (sp->hist_pos > 0)
		sp->hist_pos--;
	return hist_at(sp, sp->hist_pos);
}

int speech_history_at_start(const struct speech *sp) { return sp->hist_pos + 1 >= sp->hist_count; }
int speech_history_at_end(const struct speech *sp) { return sp->hist_pos == 0; }

const char *speech_history_last(struct speech *sp)
{
	sp->hist_pos = 0;
	return hist_at(sp, 0);
}

/* ---- plain text for the voice ---- */

/* 1 when the line [p, end) holds only table rule marks (|---|:--|). */
static int table_rule(const char *p, const char *end)
{
	int dash = 0;
	for (; p < end; p++) {
		if (*p == '-')
			dash = 1;
		else if (!strchr("|: \t", *p))
			return 0;
	}
	return dash;
}

/* Append the inline text [p, end) to out without its marks; line is the
 * start of p's line. print: for the eye (option names and "--rule" kept as
 * written, a link's address after its text). */
static char *inline_plain(char *out, const char *line, const char *p, const char *end, int print)
{
	while (p < end) {
		if (*p == '*' || *p == '`' || *p == '>' || *p == '#') {
			p++;
		} else if (*p == '_') {
			/* snake_case option names are read as words; emphasis
			 * marks around a word vanish. */
			int word_before = p > line && isalnum((unsigned char)p[-1]);
			int word_after = p + 1 < end && isalnum((unsigned char)p[1]);
			if (word_before && word_after)
				*out++ = print ? '_' : ' ';
			p++;
		} else if (*p == '[') {
			/* [text](link): the text only. */
			const char *close = memchr(p, ']', (size_t)(end - p));
			if (close && close + 1 < end && close[1] == '(') {
				const char *paren = memchr(close, ')', (size_t)(end - close));
				if (paren) {
					out = inline_plain(out, line, p + 1, close, print);
					if (print) {
						*out++ = ' ';
						memcpy(out, close + 1, (size_t)(paren + 1 - (close + 1)));
						out += paren + 1 - (close + 1);
					}
					p = paren + 1;
					continue;
				}
			}
			p++;
		} else if (!print && p[0] == '-' && p + 1 < end && p[1] == '-') {
			/* "--rule" is the word rule; a dash between words a pause. */
			while (p < end && *p == '-')
				p++;
			if (p == end || !isalnum((unsigned char)*p))
				*out++ = ',';
		} else {
			*out++ = *p++;
		}
	}
	return out;
}

/* End what was written since start with a full stop, unless it ends with
 * punctuation already. */
static char *full_stop(char *start, char *out)
{
	while (out > start && out[-1] == ' ')
		out--;
	if (out > start && !strchr(".:;!?,", out[-1]))
		*out++ = '.';
	return out;
}

static char *plain(const char *md, int print)
{
	/* A row "|a|b|c|" grows to "a, b, c.": at most twice as long. */
	size_t len = strlen(md);
	char *text = xmalloc(2 * len + 2);
	char *out = text;
	const char *p = md;
	while (*p) {
		const char *line = p;
		const char *end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		const char *next = *end ? end + 1 : end;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		char *start = out;
		if (p < end && *p == '#') {
			while (p < end && (*p == '#' || *p == ' '))
				p++;
			out = inline_plain(out, line, p, end, print);
			if (!print)
				out = full_stop(start, out);
		} else if (p < end && *p == '|') {
			if (!table_rule(p, end)) {
				/* A row: its cells, separated by commas. */
				const char *c = p + 1;
				int cells = 0;
				while (c < end) {
					const char *bar = memchr(c, '|', (size_t)(end - c));
					const char *ce = bar ? bar : end;
					while (c < ce && *c == ' ')
						c++;
					const char *te = ce;
					while (te > c && te[-1] == ' ')
						te--;
					if (te > c) {
						/* for the eye: "key: values; meaning" */
						if (cells++) {
							*out++ = print ? (cells == 2 ? ':' : ';') : ',';
							*out++ = ' ';
						}
						out = inline_plain(out, line, c, te, print);
					}
					c = bar ? bar + 1 : end;
				}
				if (!print)
					out = full_stop(start, out);
			}
		} else if (p[0] == '-' && p + 1 < end && p[1] == '-' && table_rule(p, end)) {
			/* A horizontal rule: nothing to say. */
		} else {
			if (p + 1 < end && (*p == '-' || *p == '*' || *p == '>') && p[1] == ' ') {
				if (print && *p != '>') {
					*out++ = '-';   /* a bullet stays one for the eye */
					*out++ = ' ';
				}
				p += 2;   /* a bullet or a quote mark */
			}
			out = inline_plain(out, line, p, end, print);
		}
		if (*end)
			*out++ = '\n';
		p = next;
	}
	*out = '\0';
	return text;
}

char *speech_plain_text(const char *md) { return plain(md, 0); }

char *speech_print_text(const char *md) { return plain(md, 1); }
