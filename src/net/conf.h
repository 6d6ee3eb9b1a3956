/* SPDX-License-Identifier: GPL-3.0-or-later */
/* conf: the server's configuration file (/etc/tapis/server.conf in the
 * package), an INI file read with libinih: one `KEY = VALUE` a line, each
 * key the name of an option of the command (`port = 7410` is
 * `--port 7410`), comments after `#` or `;` at a line's start (`;` after a
 * value too). The values are checked as the command line checks them; a
 * key that is no option, an option the file may not give, a section, a
 * line too long or a key given twice stops the reading with the file and
 * line named ("server.conf:12: port: 'x' is not a number from 0 to
 * 65535"). The command line is read after the file, so that it overrides
 * it. */
#ifndef TAPIS_CONF_H
#define TAPIS_CONF_H
#include <stddef.h>

#include "app/opts.h"

enum {
	CONF_LINE_MAX = 199,          /* bytes of one line, its newline apart (libinih's own bound) */
	CONF_FILE_MAX = 64 * 1024,    /* bytes of the whole file */
	CONF_KEYS_MAX = 64,           /* keys of one file */
};

/* The keys and values read (malloc'd), which the options point into: they
 * live until conf_free. */
struct conf {
	char *keys[CONF_KEYS_MAX];
	char *vals[CONF_KEYS_MAX];
	int n;
};

/* Read the file at path into cfg through the command's options, but for
 * those named in refused (NULL-terminated, e.g. "backup": what the file
 * may not give). 0, or -1 with the message ("PATH:LINE: why", or
 * "PATH: why" when it cannot be read). c is zeroed first; conf_free it
 * either way. */
int conf_load(struct conf *c, const char *path, const struct opt_cmd *cmd, const char *const *refused, void *cfg,
              char *err, size_t errlen);
void conf_free(struct conf *c);

/* The value of `--NAME FILE` or `--NAME=FILE` in argv[1..argc-1] before a
 * "--", or NULL: the file to read before the command line itself. */
const char *conf_arg(int argc, char **argv, const char *name);

#endif
