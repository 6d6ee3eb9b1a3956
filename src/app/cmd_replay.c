/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/cmd_replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opts.h"
#include "app/replay.h"
#include "core/err.h"
#include "core/file.h"
#include "i18n/i18n.h"

struct replay_args {
	int text;
	const char *lang;
};

static const struct opt replay_opts[] = {
	OPT_F("text", N_("tell the game, one announcement a line"), struct replay_args, text),
	OPT_G(N_("language of the text"), struct replay_args, lang),
	OPT_END,
};
static const struct opt_cmd replay_cmd = { "tapis replay", "tapis replay LOG [OPTIONS]", replay_opts };

FILE *replay_copy_stream(FILE *in, const char *name, long long max, char *err, size_t errlen)
{
	FILE *f = tmpfile();
	if (!f) {
		errf(err, errlen, "%s: no temporary file: %s", name, strerror(errno));
		return NULL;
	}
	char buf[65536];
	size_t n;
	long long kept = 0;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		char *nul = memchr(buf, '\0', n);
		if (nul)
			n = (size_t)(nul - buf) + 1;
		if (kept + (long long)n > max) {
			errf(err, errlen, "%s: longer than %lld bytes, more than any hand history: not read", name, max);
			fclose(f);
			return NULL;
		}
		if (fwrite(buf, 1, n, f) != n) {
			errf(err, errlen, "%s: cannot keep it: %s", name, strerror(errno));
			fclose(f);
			return NULL;
		}
		kept += (long long)n;
		if (nul)
			break;
	}
	if (ferror(in) || fflush(f) != 0 || fseeko(f, 0, SEEK_SET) < 0) {
		errf(err, errlen, "%s: %s", name, strerror(errno ? errno : EIO));
		fclose(f);
		return NULL;
	}
	return f;
}

int replay_main(int argc, char **argv)
{
	struct replay_args a = { 0 };
	const char *path;
	int npos, rc = opt_parse(&replay_cmd, argc, argv, &a, &path, 1, &npos);
	if (rc == OPT_HELP)
		return opt_help(&replay_cmd, a.lang);
	if (rc)
		return rc;
	if (!npos)
		return opt_fail(&replay_cmd, "which hand history? ('-': standard input)");
	const char *lang = a.lang;
	int text = a.text;
	char err[ERR_MAX];
	if (!lang)
		lang = i18n_env_lang();
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		fprintf(stderr, "tapis: %s; messages in English\n", err);
	int from_stdin = strcmp(path, "-") == 0;
	const char *name = from_stdin ? "(standard input)" : path;
	struct file_lines in;
	FILE *copy = NULL;
	if (from_stdin) {
		/* Read more than once: standard input is kept in a temporary
		 * file first (a pipe cannot go back). */
		copy = replay_copy_stream(stdin, name, REPLAY_INPUT_MAX, err, sizeof err);
		if (copy)
			file_lines_stream(&in, copy, name, REPLAY_LINE_MAX);
	}
	if (from_stdin ? !copy : file_lines_open(&in, path, REPLAY_LINE_MAX, err, sizeof err) < 0) {
		fprintf(stderr, "tapis: %s\n", err);
		return 2;
	}
	struct replay_result res;
	rc = replay_lines(&in, name, REPLAY_AUTO, text ? stdout : NULL, &res);
	file_lines_close(&in);
	if (copy)
		fclose(copy);
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
