/* SPDX-License-Identifier: GPL-3.0-or-later */
/* conf: the server's configuration file (/etc/tapis/server.conf), an INI
 * file read with libinih: `[SECTION]` lines, then one `KEY = VALUE` a
 * line, each key the name of an option of the command (`port = 7410` is
 * `--port 7410`) in the section the caller gives it; comments on lines
 * of their own after `#` or `;` (`;` after a value too). The values are
 * checked as the command line checks them; a key that is no setting of
 * the file, a key in another section than its own or before any, an
 * unknown section, an indented line, a line too long or a key given twice
 * stops the reading with the file and line named ("server.conf:12: port:
 * 'x' is not a number from 0 to 65535"). The command line is read after
 * the file, so that it overrides it. */
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

/* A setting of the file: an option of the command, and its section. */
struct conf_key {
	const char *name;             /* the option's name, without "--" */
	const char *section;
};

/* Read the file at path into cfg through the command's options, the keys
 * those of keys (ending with a NULL name; an option not there, such as an
 * action, is no setting of the file). 0, or -1 with the message
 * ("PATH:LINE: why", or "PATH: why" when it cannot be read). c is zeroed
 * first; conf_free it either way. */
int conf_load(struct conf *c, const char *path, const struct opt_cmd *cmd, const struct conf_key *keys, void *cfg,
              char *err, size_t errlen);
void conf_free(struct conf *c);

/* The value of `--NAME FILE` or `--NAME=FILE` in argv[1..argc-1] before a
 * "--", or NULL: the file to read before the command line itself. */
const char *conf_arg(int argc, char **argv, const char *name);

#endif
