/* SPDX-License-Identifier: GPL-3.0-or-later */
/* term: the keyboard. Raw mode on a terminal (restored at exit and on
 * signals), keys decoded from the escape sequences of xterm and the Linux
 * console; without a terminal, keys are read from standard input as they
 * come (pipes, files, tests). */
#ifndef TAPIS_TERM_H
#define TAPIS_TERM_H

enum key {
	KEY_NONE = 0,
	/* Printable keys are their ASCII code (letters folded to upper case). */
	KEY_ENTER = 1000, KEY_ESCAPE, KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT,
	KEY_HOME, KEY_END, KEY_PAGE_UP, KEY_PAGE_DOWN, KEY_BACKSPACE, KEY_TAB,
	KEY_F1, KEY_F2, KEY_F3, KEY_F4,
	KEY_EOF,       /* end of input (no terminal and nothing left) */
	KEY_INTERRUPT, /* a signal asked us to stop */
	KEY_TEXT,      /* a character beyond ASCII (UTF-8): term_last_text */
};

/* Take the keyboard (raw mode when standard input is a terminal). */
void term_open(void);
/* Give it back as it was. Safe to call twice and from a signal path. */
void term_close(void);
/* 1 when standard input is a terminal. */
int term_is_tty(void);
/* Next key, waiting at most timeout_ms (-1: forever); KEY_NONE on timeout. */
int term_read_key(int timeout_ms);
/* The character of the last key read as typed, case kept (text entry: a
 * chat line, a password), or 0 when it was not a printable ASCII one. */
int term_last_char(void);
/* The bytes of the last character read (ASCII or UTF-8), "" for a key
 * that is not a character. */
const char *term_last_text(void);
/* Decode one key from bytes (for the tests): returns the key and sets *used. */
int term_decode(const unsigned char *buf, int len, int *used);
/* The signal number once SIGINT, SIGTERM or SIGHUP arrived, else 0. */
int term_interrupted(void);
/* The exit status of an interrupted run: 128 + the signal (130 SIGINT, 143
 * SIGTERM, 129 SIGHUP); a Ctrl-C read as a key (no terminal) counts as
 * SIGINT. */
int term_interrupt_status(void);
/* The name of a key for messages ("Enter", "F1", "C"). */
const char *term_key_name(int key);

#endif
