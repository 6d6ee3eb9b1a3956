/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/term.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* Terminal state: process-wide by nature (one terminal). */
static struct termios saved;
static int raw_on;
static volatile sig_atomic_t interrupted;
static unsigned char inbuf[64];
static int inlen;
static int at_eof;

void term_close(void)
{
	if (raw_on) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
		raw_on = 0;
	}
}

static void on_signal(int sig)
{
	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
		interrupted = sig;
		return;
	}
	term_close();
	signal(sig, SIG_DFL);
	raise(sig);
}

int term_interrupted(void) { return interrupted; }

int term_interrupt_status(void) { return 128 + (interrupted ? interrupted : SIGINT); }

int term_is_tty(void) { return isatty(STDIN_FILENO); }

void term_open(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	if (!term_is_tty() || raw_on)
		return;
	if (tcgetattr(STDIN_FILENO, &saved) < 0)
		return;
	struct termios raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
	raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0) {
		raw_on = 1;
		atexit(term_close);
	}
}

struct seq {
	const char *bytes;
	int key;
};

static const struct seq SEQS[] = {
	{ "\033[A", KEY_UP },     { "\033[B", KEY_DOWN },    { "\033[C", KEY_RIGHT },
	{ "\033[D", KEY_LEFT },   { "\033OA", KEY_UP },      { "\033OB", KEY_DOWN },
	{ "\033OC", KEY_RIGHT },  { "\033OD", KEY_LEFT },    { "\033[H", KEY_HOME },
	{ "\033[F", KEY_END },    { "\033OH", KEY_HOME },    { "\033OF", KEY_END },
	{ "\033[1~", KEY_HOME },  { "\033[4~", KEY_END },    { "\033[7~", KEY_HOME },
	{ "\033[8~", KEY_END },   { "\033[5~", KEY_PAGE_UP }, { "\033[6~", KEY_PAGE_DOWN },
	{ "\033OP", KEY_F1 },     { "\033OQ", KEY_F2 },      { "\033OR", KEY_F3 },
	{ "\033OS", KEY_F4 },     { "\033[11~", KEY_F1 },    { "\033[12~", KEY_F2 },
	{ "\033[13~", KEY_F3 },   { "\033[14~", KEY_F4 },    { "\033[[A", KEY_F1 },
	{ "\033[[B", KEY_F2 },    { "\033[[C", KEY_F3 },     { "\033[[D", KEY_F4 },
	{ "\033[3~", KEY_BACKSPACE },
};

int term_decode(const unsigned char *buf, int len, int *used)
{
	*used = 0;
	if (len <= 0)
		return KEY_NONE;
	unsigned char c = buf[0];
	if (c == 27) {
		for (size_t i = 0; i < sizeof SEQS / sizeof SEQS[0]; i++) {
			int n = (int)strlen(SEQS[i].bytes);
			if (n <= len && memcmp(buf, SEQS[i].bytes, (size_t)n) == 0) {
				*used = n;
				return SEQS[i].key;
			}
		}
		/* An unknown sequence: swallow ESC [ ... final byte. */
		if (len >= 2 && (buf[1] == '[' || buf[1] == 'O')) {
			int i = 2;
			while (i < len && !(buf[i] >= 0x40 && buf[i] <= 0x7e))
				i++;
			if (i < len) {
				*used = i + 1;
				return KEY_NONE;
			}
		}
		*used = 1;
		return KEY_ESCAPE;
	}
	*used = 1;
	if (c == '\r' || c == '\n')
		return KEY_ENTER;
	if (c == 127 || c == 8)
		return KEY_BACKSPACE;
	if (c == '\t')
		return KEY_TAB;
	if (c == 3)
		return KEY_INTERRUPT;
	if (c >= 0x80) {
		/* A UTF-8 character: skip it whole. */
		int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		*used = n <= len ? n : len;
		return KEY_NONE;
	}
	return isalpha(c) ? toupper(c) : c;
}

/* 1 when buf may be the start of a longer escape sequence. */
static int partial_sequence(const unsigned char *buf, int len)
{
	if (len == 0 || buf[0] != 27)
		return 0;
	if (len == 1)
		return 1;
	if (buf[1] != '[' && buf[1] != 'O')
		return 0;
	for (int i = 2; i < len; i++)
		if (buf[i] >= 0x40 && buf[i] <= 0x7e)
			return 0;
	return 1;
}

static int fill(int timeout_ms)
{
	if (at_eof || inlen >= (int)sizeof inbuf)
		return 0;
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	int r = poll(&p, 1, timeout_ms);
	if (r <= 0)
		return 0;
	ssize_t n = read(STDIN_FILENO, inbuf + inlen, sizeof inbuf - (size_t)inlen);
	if (n <= 0) {
		if (n == 0 || errno != EINTR)
			at_eof = 1;
		return 0;
	}
	inlen += (int)n;
	return 1;
}

/* The printable character of the last key read, case kept (0: none). */
static int last_char;

int term_last_char(void)
{
	return last_char;
}

static char last_text[5];

const char *term_last_text(void)
{
	return last_text;
}

/* Whether the n bytes are one well-formed UTF-8 character of 2 to 4 bytes. */
static int utf8_char(const unsigned char *s, int n)
{
	if (n < 2 || n > 4 || s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return 1;
}

int term_read_key(int timeout_ms)
{
	for (;;) {
		if (interrupted)
			return KEY_INTERRUPT;
		if (inlen == 0) {
			if (at_eof)
				return KEY_EOF;
			if (!fill(timeout_ms))
				return interrupted ? KEY_INTERRUPT : at_eof ? KEY_EOF : KEY_NONE;
		}
		/* Wait briefly for the rest of an escape sequence. */
		while (partial_sequence(inbuf, inlen) && !at_eof && fill(term_is_tty() ? 30 : 0))
			;
		int used;
		int key = term_decode(inbuf, inlen, &used);
		last_char = used == 1 && inbuf[0] >= 0x20 && inbuf[0] < 0x7f ? inbuf[0] : 0;
		last_text[0] = '\0';
		if (last_char) {
			last_text[0] = (char)last_char;
			last_text[1] = '\0';
		} else if (inbuf[0] >= 0x80 && utf8_char(inbuf, used)) {
			memcpy(last_text, inbuf, (size_t)used);
			last_text[used] = '\0';
			key = KEY_TEXT;   /* a key too: \u00e9 is 2 on an AZERTY keyboard */
		}
		memmove(inbuf, inbuf + used, (size_t)(inlen - used));
		inlen -= used;
		if (key != KEY_NONE)
			return key;
	}
}

const char *term_key_name(int key)
{
	static char buf[8];
	switch (key) {
	case KEY_ENTER: return "Enter";
	case KEY_ESCAPE: return "Escape";
	case KEY_UP: return "Up";
	case KEY_DOWN: return "Down";
	case KEY_LEFT: return "Left";
	case KEY_RIGHT: return "Right";
	case KEY_F1: return "F1";
	case ' ': return "Space";
	default:
		snprintf(buf, sizeof buf, "%c", key > 32 && key < 127 ? key : '?');
		return buf;
	}
}
