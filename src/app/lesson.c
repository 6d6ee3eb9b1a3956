/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/lesson.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "core/deckfile.h"
#include "core/err.h"
#include "core/file.h"
#include "core/num.h"
#include "core/paths.h"
#include "core/script.h"
#include "core/xalloc.h"

/* The directives of a lesson file that carry a sentence. */
static const char *const sentence_words[] = { "title", "intro", "summary", "say", "wrong", NULL };

static int is_sentence_word(const char *w, size_t n)
{
	for (int i = 0; sentence_words[i]; i++)
		if (strlen(sentence_words[i]) == n && !strncmp(w, sentence_words[i], n))
			return 1;
	return 0;
}

/* Blank every line of text (in place, keeping its newlines) for which
 * keep() is 0: what is left is read by the project's own readers with the
 * file's line numbers. */
static void keep_lines(char *text, int (*keep)(char *line, size_t n, int *state), int *state)
{
	char *p = text;
	while (*p) {
		char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (!keep(p, n, state))
			memset(p, ' ', n);
		p += n + (end ? 1 : 0);
	}
}

/* The first word of a line and where its rest starts. */
static size_t first_word(const char *line, size_t n, const char **rest)
{
	size_t i = 0;
	while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
		i++;
	size_t w = i;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	*rest = line + i;
	return w;
}

/* The deck block: state 0 before, 1 inside, 2 after. */
static int keep_deck(const char *line, size_t n, int *state)
{
	const char *rest;
	size_t w = first_word(line, n, &rest);
	int is_deck = w == 4 && !strncmp(line, "deck", 4);
	int is_end = w == 3 && !strncmp(line, "end", 3);
	if (*state == 0 && is_deck) {
		*state = 1;
		return 0;
	}
	if (*state == 1 && is_end) {
		*state = 2;
		return 0;
	}
	return *state == 1;
}

static int keep_pack(char *line, size_t n, int *state) { return keep_deck(line, n, state); }

/* The seats' moves: lines outside the deck that start with a digit, or
 * with `before` and a digit (the word is blanked for core/script). */
static int keep_moves(char *line, size_t n, int *state)
{
	int inside = keep_deck(line, n, state) || (*state == 1);
	while (n && (*line == ' ' || *line == '\t')) {
		line++;
		n--;
	}
	if (!inside && n > 7 && !strncmp(line, "before", 6) && (line[6] == ' ' || line[6] == '\t')) {
		memset(line, ' ', 6);
		return 1;
	}
	return !inside && n && *line >= '0' && *line <= '9';
}

static struct lesson_step *new_step(struct lesson *l, int *cap, int kind, int line)
{
	if (l->nsteps >= LESSON_MAX_STEPS)
		return NULL;
	xgrow((void **)&l->steps, cap, l->nsteps + 1, sizeof *l->steps);
	struct lesson_step *s = &l->steps[l->nsteps++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->line = line;
	return s;
}

/* The learner's alternatives, "play QH | play 9H", into s. */
static int parse_alts(struct lesson_step *s, char *rest, const char *path, int lineno, char *err, size_t errlen)
{
	char *next = rest;
	for (char *tok; (tok = strsep(&next, "|")) != NULL;) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		size_t n = strlen(tok);
		while (n && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
			tok[--n] = '\0';
		if (s->nalt >= LESSON_MAX_ALTS)
			return errf(err, errlen, "%s:%d: more than %d moves allowed", path, lineno, LESSON_MAX_ALTS);
		char aerr[ERR_MAX];
		if (act_parse(tok, &s->alt[s->nalt], aerr, sizeof aerr) < 0)
			return errf(err, errlen, "%s:%d: %s", path, lineno, aerr);
		s->nalt++;
	}
	return 0;
}

int lesson_parse(struct lesson *l, const char *text, const char *path, char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	snprintf(l->path, sizeof l->path, "%s", path);
	if (strlen(text) > LESSON_FILE_MAX)
		return errf(err, errlen, "%s: longer than %d bytes", path, LESSON_FILE_MAX);
	l->text = xstrdup(text);
	l->dealer = 0;
	int cap = 0, deck_state = 0, lineno = 0, saw_deck = 0;
	struct lesson_step *last_you = NULL;
	char *p = l->text;
	while (*p) {
		char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *line = p;
		lineno++;
		p += n + (end ? 1 : 0);
		if (end)
			*end = '\0';
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (n > LESSON_TEXT_MAX)
			return errf(err, errlen, "%s:%d: a line longer than %d characters", path, lineno, LESSON_TEXT_MAX);
		while (*line == ' ' || *line == '\t')
			line++;
		int was_in_deck = deck_state == 1;
		if (keep_deck(line, strlen(line), &deck_state) || was_in_deck) {
			saw_deck = 1;
			continue;
		}
		if (deck_state == 1) {   /* the `deck` line itself */
			if (!l->g)
				return errf(err, errlen, "%s:%d: the game is named before the deck", path, lineno);
			continue;
		}
		const char *rest;
		size_t w = first_word(line, strlen(line), &rest);
		if (!*line || *line == '#')
			continue;
		if (w == 6 && !strncmp(line, "before", 6)) {   /* a move played before the lesson, unheard */
			if (l->nsteps != l->nbefore)
				return errf(err, errlen, "%s:%d: the moves `before` come before any other step", path, lineno);
			if (!(*rest >= '0' && *rest <= '9'))
				return errf(err, errlen, "%s:%d: before without a seat's move", path, lineno);
			if (!new_step(l, &cap, LESSON_MOVE, lineno))
				return errf(err, errlen, "%s:%d: more than %d steps", path, lineno, LESSON_MAX_STEPS);
			l->nbefore++;
			last_you = NULL;
			continue;
		}
		if (*line >= '0' && *line <= '9') {   /* a seat's move: read below by core/script */
			struct lesson_step *s = new_step(l, &cap, LESSON_MOVE, lineno);
			if (!s)
				return errf(err, errlen, "%s:%d: more than %d steps", path, lineno, LESSON_MAX_STEPS);
			last_you = NULL;
			continue;
		}
		char word[16];
		snprintf(word, sizeof word, "%.*s", (int)(w < sizeof word ? w : sizeof word - 1), line);
		if (is_sentence_word(line, w)) {
			if (!*rest)
				return errf(err, errlen, "%s:%d: %s without its sentence", path, lineno, word);
			if (!strcmp(word, "title"))
				l->title = rest;
			else if (!strcmp(word, "intro"))
				l->intro = rest;
			else if (!strcmp(word, "summary"))
				l->summary = rest;
			else if (!strcmp(word, "wrong")) {
				if (!last_you)
					return errf(err, errlen, "%s:%d: wrong comes after a line `you`", path, lineno);
				last_you->text = rest;
			} else {
				struct lesson_step *s = new_step(l, &cap, LESSON_SAY, lineno);
				if (!s)
					return errf(err, errlen, "%s:%d: more than %d steps", path, lineno, LESSON_MAX_STEPS);
				s->text = rest;
			}
			continue;
		}
		if (!strcmp(word, "game")) {
			if (l->g)
				return errf(err, errlen, "%s:%d: the game is named once", path, lineno);
			if (!(l->g = registry_ops(rest)))
				return errf(err, errlen, "%s:%d: unknown game '%s'", path, lineno, rest);
			rules_init(&l->rules, l->g->rules, l->g->nrules);
			l->players = l->g->default_players;
			continue;
		}
		if (!l->g)
			return errf(err, errlen, "%s:%d: the first line names the game", path, lineno);
		if (!strcmp(word, "players") || !strcmp(word, "dealer")) {
			long long v;
			if (num_parse(rest, 0, GAME_MAX_SEATS - 1, &v) < 0)
				return errf(err, errlen, "%s:%d: %s: not a number from 0 to %d", path, lineno, word,
				            GAME_MAX_SEATS - 1);
			*(!strcmp(word, "players") ? &l->players : &l->dealer) = (int)v;
			continue;
		}
		if (!strcmp(word, "rule")) {
			char rerr[ERR_MAX];
			if (rules_set_arg(&l->rules, rest, rerr, sizeof rerr) < 0)
				return errf(err, errlen, "%s:%d: %s", path, lineno, rerr);
			continue;
		}
		if (!strcmp(word, "you")) {
			struct lesson_step *s = new_step(l, &cap, LESSON_YOU, lineno);
			if (!s)
				return errf(err, errlen, "%s:%d: more than %d steps", path, lineno, LESSON_MAX_STEPS);
			s->seat = 0;
			if (parse_alts(s, (char *)rest, path, lineno, err, errlen) < 0)
				return -1;
			last_you = s;
			continue;
		}
		return errf(err, errlen, "%s:%d: unknown line '%s'", path, lineno, word);
	}
	if (!l->g)
		return errf(err, errlen, "%s: no game named", path);
	if (!l->title || !l->intro || !l->summary)
		return errf(err, errlen, "%s: a lesson has a title, an intro and a summary", path);
	if (!saw_deck)
		return errf(err, errlen, "%s: no deck", path);
	if (deck_state == 1)
		return errf(err, errlen, "%s: the deck has no `end`", path);
	if (l->players < l->g->min_players || l->players > l->g->max_players)
		return errf(err, errlen, "%s: %s is played by %d to %d players", path, l->g->name, l->g->min_players,
		            l->g->max_players);
	if (l->dealer >= l->players)
		return errf(err, errlen, "%s: dealer %d: seats are 0 to %d", path, l->dealer, l->players - 1);
	/* The packs, read as a --deck file. */
	card_t pack[CARD_MAX_PACK];
	char perr[ERR_MAX];
	int npack = l->g->pack(&l->rules, l->players, pack, perr, sizeof perr);
	if (npack < 0)
		return errf(err, errlen, "%s: %s", path, perr);
	char *copy = xstrdup(text);
	int st = 0;
	keep_lines(copy, keep_pack, &st);
	int rc = deckfile_parse(copy, path, pack, npack, &l->stack, err, errlen);
	if (rc == 0 && l->stack.npacks == 0)
		rc = errf(err, errlen, "%s: the deck holds no pack", path);
	/* The seats' moves, read as an --actions file. */
	struct script sc;
	if (rc == 0) {
		memcpy(copy, text, strlen(text) + 1);
		st = 0;
		keep_lines(copy, keep_moves, &st);
		rc = script_parse(&sc, copy, path, l->players, err, errlen);
	}
	free(copy);
	if (rc < 0)
		return -1;
	int k = 0;
	for (int i = 0; i < l->nsteps; i++) {
		struct lesson_step *s = &l->steps[i];
		if (s->kind != LESSON_MOVE)
			continue;
		if (k >= sc.n || sc.lines[k].line != s->line) {
			script_release(&sc);
			return errf(err, errlen, "%s:%d: a move not read", path, s->line);
		}
		s->seat = sc.lines[k].seat;
		s->alt[0] = sc.lines[k].act;
		s->nalt = 1;
		k++;
	}
	script_release(&sc);
	return lesson_check(l, err, errlen);
}

int lesson_load(struct lesson *l, const char *path, char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	size_t len;
	char *text = file_read(path, &len, err, errlen);
	if (!text)
		return -1;
	int rc = strlen(text) != len ? errf(err, errlen, "%s: a NUL byte", path)
	                             : lesson_parse(l, text, path, err, errlen);
	free(text);
	/* The lesson's id: the game and the file's number ("bourre-1"). */
	if (rc == 0) {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		snprintf(l->id, sizeof l->id, "%s-%.*s", l->g->name, (int)strcspn(base, "."), base);
	}
	return rc;
}

void lesson_release(struct lesson *l)
{
	free(l->steps);
	free(l->text);
	l->steps = NULL;
	l->text = NULL;
	l->nsteps = 0;
}

int lesson_allows(const struct lesson_step *s, const struct action *a)
{
	for (int i = 0; i < s->nalt; i++)
		if (act_equal(&s->alt[i], a))
			return 1;
	return 0;
}

/* Play steps from to to (excluded) on state st (changed); at from, the
 * learner's move is alternative alt. */
static int check_steps(const struct lesson *l, void *st, int from, int to, int alt, char *err, size_t errlen)
{
	const struct game_ops *g = l->g;
	struct action legal[GAME_MAX_LEGAL];
	char buf[ACT_STR_MAX];
	for (int i = from; i < to; i++) {
		const struct lesson_step *s = &l->steps[i];
		if (s->kind == LESSON_SAY)
			continue;
		int who = g->to_act(st);
		if (who != s->seat)
			return errf(err, errlen, "%s:%d: seat %d is to act here, not seat %d", l->path, s->line, who, s->seat);
		int nl = g->legal(st, legal, GAME_MAX_LEGAL);
		const struct action *a = &s->alt[i == from ? alt : 0];
		for (int k = 0; k < s->nalt; k++)
			if (!act_in_list(&s->alt[k], legal, nl))
				return errf(err, errlen, "%s:%d: '%s' is not legal here", l->path, s->line,
				            act_format(&s->alt[k], buf, sizeof buf));
		struct refusal why;
		if (g->apply(st, a, NULL, &why) < 0)
			return errf(err, errlen, "%s:%d: '%s' is refused (code %d)", l->path, s->line,
			            act_format(a, buf, sizeof buf), why.code);
		char aerr[ERR_MAX];
		if (g->audit && g->audit(st, aerr, sizeof aerr) < 0)
			return errf(err, errlen, "%s:%d: %s", l->path, s->line, aerr);
	}
	return 0;
}

int lesson_check(const struct lesson *l, char *err, size_t errlen)
{
	const struct game_ops *g = l->g;
	void *st = xmalloc(g->state_size), *at = xmalloc(g->state_size);
	struct rules r = l->rules;
	struct game_setup setup = { l->players, l->dealer, 1, &r, &l->stack };
	int rc = g->init(st, &setup, err, errlen);
	if (rc == 0)
		g->start(st, NULL);
	/* The main line step by step; from each of the learner's other moves,
	 * the rest of the lesson to its end. */
	int you = 0;
	for (int i = 0; rc == 0 && i < l->nsteps; i++) {
		const struct lesson_step *s = &l->steps[i];
		you += s->kind == LESSON_YOU;
		/* The narrator asks for every move of the learner, right before it. */
		if (s->kind == LESSON_YOU && (i == 0 || l->steps[i - 1].kind != LESSON_SAY)) {
			rc = errf(err, errlen, "%s:%d: a `say` comes right before each `you`", l->path, s->line);
			break;
		}
		for (int k = 1; rc == 0 && s->kind == LESSON_YOU && k < s->nalt; k++) {
			memcpy(at, st, g->state_size);
			rc = check_steps(l, at, i, l->nsteps, k, err, errlen);
		}
		if (rc == 0)
			rc = check_steps(l, st, i, i + 1, 0, err, errlen);
	}
	if (rc == 0 && !you)
		rc = errf(err, errlen, "%s: no move for the learner (`you`)", l->path);
	free(st);
	free(at);
	return rc;
}

int lesson_sentences(const struct lesson *l, int (*fn)(void *ctx, const char *msgid, int line), void *ctx)
{
	int rc;
	if ((rc = fn(ctx, l->title, 0)) || (rc = fn(ctx, l->intro, 0)) || (rc = fn(ctx, l->summary, 0)))
		return rc;
	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].text && (rc = fn(ctx, l->steps[i].text, l->steps[i].line)))
			return rc;
	return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

int lesson_list(const struct game_ops *g, char paths[][512], int max)
{
	char dir[440];
	snprintf(dir, sizeof dir, "%s/data/lessons/%s", paths_datadir(), g->name);
	DIR *d = opendir(dir);
	if (!d) {
		/* An installed tapis: DATADIR/tapis/lessons. */
		snprintf(dir, sizeof dir, "%s/lessons/%s", paths_datadir(), g->name);
		d = opendir(dir);
	}
	if (!d)
		return 0;
	char names[LESSON_MAX_PER_GAME][64];   /* NN.lesson */
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL && n < LESSON_MAX_PER_GAME && n < max;) {
		size_t len = strlen(e->d_name);
		if (len < 8 || len >= sizeof names[0] || strcmp(e->d_name + len - 7, ".lesson"))
			continue;
		snprintf(names[n++], sizeof names[0], "%s", e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], by_name);
	for (int i = 0; i < n; i++)
		snprintf(paths[i], 512, "%s/%.64s", dir, names[i]);
	return n;
}

int lesson_done(const char *progress, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = progress; (p = strstr(p, id)) != NULL; p += n)
		if ((p == progress || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

int lesson_mark_done(char *progress, size_t size, const char *id)
{
	if (lesson_done(progress, id))
		return 0;
	size_t len = strlen(progress);
	if (len + (len ? 1 : 0) + strlen(id) + 1 > size)
		return -1;
	snprintf(progress + len, size - len, "%s%s", len ? " " : "", id);
	return 0;
}
