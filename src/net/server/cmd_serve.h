/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_serve: the `tapis serve` command line (docs/tapis.6, SERVE). */
#ifndef TAPIS_CMD_SERVE_H
#define TAPIS_CMD_SERVE_H

/* argv[0] is "serve". Returns the exit status. */
/* words: the web page's words (ui/words_json), passed down from main. */
int serve_main(int argc, char **argv, char *(*words)(const char *lang));

#endif
