/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/cmd_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/replay.h"
#include "core/file.h"
#include "i18n/i18n.h"

int replay_main(int argc, char **argv)
{
	const char *path = NULL, *lang = NULL;
	int text = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--text")) {
			text = 1;
		} else if (!strcmp(argv[i], "--lang")) {
			if (i + 1 >= argc || !i18n_lang_known(argv[i + 1])) {
				fprintf(stderr, "tapis: --lang: en or fr\n");
				return 2;
			}
			lang = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tapis: replay: unknown option '%s'\n", argv[i]);
			return 2;
		} else if (path) {
			fprintf(stderr, "tapis: replay takes one hand history\n");
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "tapis: replay needs a hand history (tapis replay LOG [--text] [--lang en|fr])\n");
		return 2;
	}
	char err[1024];
	if (!lang)
		lang = i18n_env_lang();
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		fprintf(stderr, "tapis: %s; messages in English\n", err);
	int from_stdin = strcmp(path, "-") == 0;
	size_t len;
	char *buf = from_stdin ? file_read_fd(0, "(standard input)", &len, err, sizeof err)
	                       : file_read(path, &len, err, sizeof err);
	if (!buf) {
		fprintf(stderr, "tapis: %s\n", err);
		return 2;
	}
	struct replay_result res;
	int rc = replay_buffer(buf, len, from_stdin ? "(standard input)" : path, REPLAY_AUTO, text ? stdout : NULL,
	                       &res);
	free(buf);
	fflush(stdout);
	if (rc == REPLAY_SAME) {
		if (!text && res.cut)
			printf("%s: %d lines, %d deals, %d actions: the log is cut short in the middle of an action "
			       "(a game stopped suddenly); up to there the game replays the same.\n",
			       path, res.lines, res.hands, res.actions);
		else if (!text)
			printf("%s: %d lines, %d deals, %d actions: the game replays the same.\n", path, res.lines,
			       res.hands, res.actions);
		return 0;
	}
	fprintf(stderr, "tapis: %s\n", res.msg);
	return rc == REPLAY_INVALID ? 2 : 3;
}
