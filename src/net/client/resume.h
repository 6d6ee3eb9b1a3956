/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resume: the resume tokens of `tapis join`, kept between runs so that a
 * guest whose program closed takes their seat back (docs/protocol.md,
 * "Seats held"). One file, $XDG_STATE_HOME/tapis/tokens (else
 * ~/.local/state/tapis/tokens), mode 0600, a line per server and name:
 * `URL<TAB>NAME<TAB>TOKEN`, the last RESUME_MAX kept. A line that is not
 * one of these is dropped; a token is hexadecimal only. */
#ifndef TAPIS_RESUME_H
#define TAPIS_RESUME_H

#include <stddef.h>

#define RESUME_MAX 64          /* lines kept: the servers and names used last */
#define RESUME_TOKEN_MAX 128

/* The token kept for (url, name) into token: 1, or 0 when there is none
 * (no file, no such line). path NULL: the usual file. */
int resume_load(const char *path, const char *url, const char *name, char *token, size_t len);
/* Keep token for (url, name), replacing the one it had, written atomically
 * (0600). token "" forgets it. 0, or -1 with a message. */
int resume_save(const char *path, const char *url, const char *name, const char *token, char *err,
                size_t errlen);
/* The usual file's path; 0, or -1 without a home. */
int resume_path(char *buf, size_t len, int create_dir);

#endif
