/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lessons (app/lesson, ui/learn): every lesson file of data/lessons
 * read and checked (its packs for its options, every move legal in turn,
 * each of the learner's allowed moves leading to the lesson's end), its
 * sentences in both catalogues; the reader's refusals; and every lesson
 * played to its end on a pseudo-terminal in English and in French, its
 * narration read back, a wrong move refused with its explanation. */
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/lesson.h"
#include "app/menuorder.h"
#include "app/registry.h"
#include "app/table.h"
#include "app/tutor.h"
#include "core/err.h"
#include "core/paths.h"
#include "core/sbuf.h"
#include "i18n/i18n.h"
#include "words/french.h"
#include "testutil.h"

#define OUT_MAX (1 << 20)
#define WAIT_S 30.0
#define RIGHT "\033[C"
#define DOWN "\033[B"
#define HOME "\033[H"
#define ENTER "\r"

static const char *const langs[] = { "en", "fr" };

/* ---- the files ---- */

struct in_catalogues {
	const struct lesson *l;
	int missing;
};

static int check_sentence(void *ctx, const char *msgid, int line)
{
	struct in_catalogues *c = ctx;
	for (int i = 0; i < 2; i++)
		if (i18n_tr(i18n_of(langs[i]), msgid) == msgid) {
			fprintf(stderr, "%s:%d: not in %s.po: \"%s\"\n", c->l->path, line, langs[i], msgid);
			c->missing++;
		}
	return 0;
}

START_TEST(every_lesson)
{
	for (int gi = 0; registry_games[gi].ops; gi++) {
		const struct game_ops *g = registry_games[gi].ops;
		char paths[LESSON_MAX_PER_GAME][512];
		int n = lesson_list(g, paths, LESSON_MAX_PER_GAME);
		ck_assert_msg(n >= 1, "%s has no lesson", g->name);
		for (int i = 0; i < n; i++) {
			struct lesson l;
			char err[ERR_MAX];
			int rc = lesson_load(&l, paths[i], err, sizeof err);
			ck_assert_msg(rc == 0, "%s", err);
			ck_assert_ptr_eq(l.g, g);
			struct in_catalogues c = { &l, 0 };
			lesson_sentences(&l, check_sentence, &c);
			ck_assert_msg(c.missing == 0, "%s: %d sentences missing from the catalogues", paths[i], c.missing);
			lesson_release(&l);
		}
	}
}
END_TEST

/* app/tutor walks every lesson at a table: the narration in order, the
 * other seats' moves played, the learner's judged. At each of the
 * learner's turns a legal move the lesson does not allow is refused with
 * an explanation and not played, an illegal one is refused by the game
 * first, and a move out of turn is not the learner's to make. */
START_TEST(tutor_every_lesson)
{
	int wrong_seen = 0, refused_seen = 0;
	for (int gi = 0; registry_games[gi].ops; gi++) {
		const struct game_ops *g = registry_games[gi].ops;
		char paths[LESSON_MAX_PER_GAME][512];
		int n = lesson_list(g, paths, LESSON_MAX_PER_GAME);
		for (int i = 0; i < n; i++) {
			struct lesson l;
			char err[ERR_MAX];
			ck_assert_msg(lesson_load(&l, paths[i], err, sizeof err) == 0, "%s", err);
			struct table_options o;
			tutor_options(&l, &o);
			struct table t;
			ck_assert_msg(table_open(&t, &o, err, sizeof err) == 0, "%s", err);
			struct tutor tu;
			ck_assert_msg(tutor_begin(&tu, &l, &t, err, sizeof err) == 0, "%s", err);
			int says = 0, next;
			const char *msgid;
			struct refusal why;
			while ((next = tutor_next(&tu, &msgid)) != TUTOR_END) {
				if (next == TUTOR_SAY) {
					ck_assert(msgid && *msgid);
					says++;
					continue;
				}
				if (next == TUTOR_MOVE) {
					/* Not the learner's to play now. */
					if (table_to_act(&t) != TUTOR_LEARNER) {
						struct action any = act_simple(ACT_PASS);
						ck_assert_int_eq(tutor_act(&tu, &any, &why, &msgid), TUTOR_NOT_NOW);
					}
					ck_assert_msg(tutor_play(&tu, err, sizeof err) == 0, "%s", err);
					continue;
				}
				ck_assert(tutor_awaits(&tu));
				const struct lesson_step *st = &l.steps[tu.step];
				struct action legal[GAME_MAX_LEGAL];
				int nl = g->legal(t.st, legal, GAME_MAX_LEGAL);
				for (int k = 0; k < nl; k++) {
					struct action a = legal[k];
					a.amount_max = a.amount;
					if (a.kind == ACT_DISCARD || lesson_allows(st, &a))
						continue;
					int moves = t.moves;
					ck_assert_int_eq(tutor_act(&tu, &a, &why, &msgid), TUTOR_WRONG);
					ck_assert(msgid && *msgid);
					ck_assert_int_eq(t.moves, moves);
					wrong_seen++;
					break;
				}
				/* A card the learner does not hold: the game's refusal. */
				card_t hand[GAME_MAX_HAND];
				int nh = g->hand(t.st, TUTOR_LEARNER, hand);
				if (st->alt[0].kind == ACT_PLAY && nh) {
					card_t other = CARD_NONE;
					for (int c = 0; c < 52 && other == CARD_NONE; c++)
						if (card_find(hand, nh, card_make(RANK_TWO + c / 4, c % 4)) < 0)
							other = card_make(RANK_TWO + c / 4, c % 4);
					struct action a = act_card(ACT_PLAY, other);
					int moves = t.moves;
					ck_assert_int_eq(tutor_act(&tu, &a, &why, &msgid), TUTOR_REFUSED);
					ck_assert(msgid && *msgid);
					ck_assert_int_eq(t.moves, moves);
					refused_seen++;
				}
				ck_assert_int_eq(tutor_act(&tu, &st->alt[0], &why, &msgid), TUTOR_PLAYED);
			}
			ck_assert_msg(says > 0, "%s: no narration", paths[i]);
			ck_assert(tutor_over(&tu));
			table_close(&t);
			lesson_release(&l);
		}
	}
	ck_assert_int_gt(wrong_seen, 5);
	ck_assert_int_gt(refused_seen, 5);
}
END_TEST

/* A small Bourré lesson to break in the ways a file can be wrong. */
static const char *const good =
	"game bourre\nplayers 4\ndealer 3\nrule hands=1\ntitle Staying and the draw\n"
	"intro Four players, five cards each. Everyone puts one chip in the pot. The dealer's last card is turned face up: its suit is trumps.\n"
	"deck\nJC KS 5H 2C 8H 4S QH 3H 2H 5C 4C AD JD\n4D KC 9H 5D AC 6C 8C TD 3D JH 7H 7D 2D\n"
	"7S TC QD 6S TH 9S 8D 8S JS AS 9D 7C QC\n6D AH QS 5S KD 9C 4H KH 3C 6H 2S TS 3S\nend\n"
	"say The dealer turned the eight of clubs: clubs are trumps.\n"
	"you stay\n%s"
	"summary Each player, from the dealer's left, stays or passes.\n";

static int parse_with(const char *tail, char *err, size_t errlen)
{
	char text[4096];
	snprintf(text, sizeof text, good, tail);
	struct lesson l;
	int rc = lesson_parse(&l, text, "t.lesson", err, errlen);
	lesson_release(&l);
	return rc;
}

START_TEST(refused_files)
{
	char err[ERR_MAX];
	ck_assert_int_eq(parse_with("", err, sizeof err), 0);
	ck_assert_int_eq(parse_with("1 stay\n", err, sizeof err), -1);   /* seat 0 is to act, not 1 */
	ck_assert_msg(strstr(err, "t.lesson:15:") != NULL, "%s", err);
	ck_assert_int_eq(parse_with("say Play.\nyou play 2H\n", err, sizeof err), -1);   /* not legal before the discard */
	ck_assert_ptr_nonnull(strstr(err, "not legal"));
	/* An allowed move that is illegal is refused even when the first is good. */
	ck_assert_int_eq(parse_with("say Discard.\nyou discard 2H | discard 3S\n", err, sizeof err), -1);
	ck_assert_int_eq(parse_with("wrong\n", err, sizeof err), -1);
	/* Every move of the learner is asked for by the narrator. */
	ck_assert_int_eq(parse_with("wrong Stay.\nsay Discard.\nyou discard\n", err, sizeof err), 0);
	ck_assert_int_eq(parse_with("wrong Stay.\nyou discard\n", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "say"));
	ck_assert_int_eq(parse_with("bogus line\n", err, sizeof err), -1);
	/* Moves before the lesson come before every other step. */
	ck_assert_int_eq(parse_with("before 1 stay\n", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "before"));
	/* Any seat's, the learner's too, played in order from the deal. */
	char text[4096];
	const char *before[][2] = {
		{ "before 0 stay\n", "you discard 2H 5D 8H JD\n" },   /* then the learner's discard */
		{ "before 1 stay\n", "you stay\n" },                  /* seat 0 is to act */
		{ "before stay\n", "you stay\n" },                    /* no seat */
	};
	for (int k = 0; k < 3; k++) {
		snprintf(text, sizeof text, good, "");
		char edited[4096];
		char *say = strstr(text, "say The dealer"), *you = strstr(text, "you stay\n");
		snprintf(edited, sizeof edited, "%.*s%s%.*s%s%s", (int)(say - text), text, before[k][0], (int)(you - say), say,
		         before[k][1], you + strlen("you stay\n"));
		struct lesson bl;
		int rc = lesson_parse(&bl, edited, "t.lesson", err, sizeof err);
		ck_assert_msg(rc == (k == 0 ? 0 : -1), "%d: %s", k, err);
		if (k == 0)
			ck_assert_int_eq(bl.nbefore, 1);
		lesson_release(&bl);
	}
	/* A pack that is not the game's. */
	snprintf(text, sizeof text, good, "");
	char *at = strstr(text, "JC KS");
	at[0] = 'Q';   /* QC twice, JC missing */
	struct lesson l;
	ck_assert_int_eq(lesson_parse(&l, text, "t.lesson", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "t.lesson:8:") != NULL, "%s", err);
	lesson_release(&l);
}
END_TEST

START_TEST(progress_words)
{
	char p[32] = "";
	ck_assert_int_eq(lesson_done(p, "bourre-1"), 0);
	ck_assert_int_eq(lesson_mark_done(p, sizeof p, "bourre-1"), 0);
	ck_assert_int_eq(lesson_mark_done(p, sizeof p, "bourre-12"), 0);
	ck_assert_int_eq(lesson_mark_done(p, sizeof p, "bourre-1"), 0);
	ck_assert_str_eq(p, "bourre-1 bourre-12");
	ck_assert_int_eq(lesson_done(p, "bourre-2"), 0);
	ck_assert_int_eq(lesson_done(p, "bourre-12"), 1);
	ck_assert_int_eq(lesson_mark_done(p, sizeof p, "bouillabaisse-10"), -1);   /* does not fit */
}
END_TEST

/* ---- on a terminal ---- */

struct tty {
	pid_t pid;
	int fd;
	char *out;
	size_t n, mark;
};

static char home[256];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void tty_exec(struct tty *t, const char *const *argv);

static void tty_start(struct tty *t, const char *game, const char *num, const char *lang)
{
	const char *argv[] = { "learn", game, "--lesson", num, "--lang", lang, "--text", "--no-sound", NULL };
	tty_exec(t, argv);
}

/* tapis with the arguments argv (NULL-terminated) on a new terminal. */
static void tty_exec(struct tty *t, const char *const *argv)
{
	memset(t, 0, sizeof *t);
	t->out = calloc(1, OUT_MAX);
	struct winsize ws = { 24, 200, 0, 0 };
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	ck_assert_int_ge(t->pid, 0);
	if (t->pid == 0) {
		char buf[400];
		snprintf(buf, sizeof buf, "%s/config", home);
		setenv("XDG_CONFIG_HOME", buf, 1);
		snprintf(buf, sizeof buf, "%s/state", home);
		setenv("XDG_STATE_HOME", buf, 1);
		setenv("LANG", "C", 1);
		setenv("ALSOFT_DRIVERS", "null", 1);
		const char *args[16];
		int n = 0;
		args[n++] = getenv("TAPIS_BIN") ? getenv("TAPIS_BIN") : "build/tapis";
		while (*argv && n < 15)
			args[n++] = *argv++;
		args[n] = NULL;
		execv(args[0], (char *const *)args);
		_exit(127);
	}
}

static int tty_read(struct tty *t, int ms)
{
	struct pollfd p = { t->fd, POLLIN, 0 };
	if (poll(&p, 1, ms) <= 0)
		return 1;
	if (t->n + 1 >= OUT_MAX)
		return 1;
	ssize_t k = read(t->fd, t->out + t->n, OUT_MAX - t->n - 1);
	if (k <= 0)
		return 0;
	t->n += (size_t)k;
	t->out[t->n] = '\0';
	return 1;
}

/* Wait until text is said after the mark; the mark moves past it. */
static void tty_expect(struct tty *t, const char *text)
{
	double end = now_s() + WAIT_S;
	for (;;) {
		char *at = strstr(t->out + t->mark, text);
		if (at) {
			t->mark = (size_t)(at - t->out) + strlen(text);
			return;
		}
		if (now_s() > end || !tty_read(t, 100))
			break;
	}
	ck_abort_msg("never said: \"%s\"; the end of what was said:\n%s", text,
	             t->out + (t->mark > 200 ? t->mark - 200 : 0));
}

static void tty_keys(struct tty *t, const char *keys)
{
	size_t n = strlen(keys);
	ck_assert_int_eq(write(t->fd, keys, n), (ssize_t)n);
}

static int tty_end(struct tty *t)
{
	double end = now_s() + WAIT_S;
	while (now_s() < end && tty_read(t, 100))
		;
	int st;
	pid_t r;
	while ((r = waitpid(t->pid, &st, WNOHANG)) == 0 && now_s() < end) {
		struct timespec ts = { 0, 20000000 };
		nanosleep(&ts, NULL);
	}
	if (r == 0) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, &st, 0);
	}
	close(t->fd);
	free(t->out);
	ck_assert_msg(r != 0, "tapis learn did not end");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A sentence as the lesson says it in the language in force. */
static const char *said(const char *msgid, char *buf, size_t len)
{
	const char *s = _(msgid);
	return strcmp(i18n_lang(), "fr") ? s : french_contract(s, buf, len);
}

/* Keys that select card c of the hand (Home twice: the first card). */
static void keys_to_card(const struct game_ops *g, const void *st, card_t c, char *k, size_t len)
{
	card_t hand[GAME_MAX_HAND];
	int n = g->hand(st, 0, hand);
	int i = card_find(hand, n, c);
	ck_assert_int_ge(i, 0);
	strncat(k, HOME HOME, len - strlen(k) - 1);
	while (i-- > 0)
		strncat(k, RIGHT, len - strlen(k) - 1);
}

/* The keys a player presses for action a at state st. */
static void keys_for(const struct game_ops *g, const void *st, const struct action *a, char *k, size_t len)
{
	k[0] = '\0';
	if (a->kind == ACT_PLAY) {
		keys_to_card(g, st, a->cards[0], k, len);
		strncat(k, ENTER, len - strlen(k) - 1);
		return;
	}
	for (int i = 0; i < a->ncards; i++) {
		keys_to_card(g, st, a->cards[i], k, len);
		strncat(k, " ", len - strlen(k) - 1);
	}
	/* The menu: one item a kind, the safest first (app/menuorder). */
	struct action legal[GAME_MAX_LEGAL];
	int nl = g->legal(st, legal, GAME_MAX_LEGAL), kinds[ACT_COUNT], nk = 0, play = 0;
	for (int i = 0; i < nl; i++) {
		int seen = legal[i].kind == ACT_PLAY;
		play |= seen;
		for (int j = 0; j < nk; j++)
			seen |= kinds[j] == legal[i].kind;
		if (!seen)
			kinds[nk++] = legal[i].kind;
	}
	if (!play && nk == 1 && a->kind == ACT_DISCARD) {
		strncat(k, ENTER, len - strlen(k) - 1);   /* only a discard: Enter throws the marks */
		return;
	}
	int pos = 0;
	for (int j = 0; j < nk; j++)
		pos += menuorder_rank(kinds[j]) < menuorder_rank(a->kind);
	strncat(k, ENTER, len - strlen(k) - 1);
	while (pos-- > 0)
		strncat(k, DOWN, len - strlen(k) - 1);
	if (act_has_amount(a->kind)) {
		char d[16];
		snprintf(d, sizeof d, "%d", a->amount);
		strncat(k, d, len - strlen(k) - 1);
	}
	strncat(k, ENTER, len - strlen(k) - 1);
}

/* A legal move the step does not allow, or none (0). */
static int wrong_move(const struct game_ops *g, const void *st, const struct lesson_step *s, struct action *out)
{
	struct action legal[GAME_MAX_LEGAL];
	int nl = g->legal(st, legal, GAME_MAX_LEGAL);
	for (int i = 0; i < nl; i++) {
		struct action a = legal[i];
		a.amount_max = a.amount;
		/* A card, or an item of the menu without cards or amount (marks
		 * would stay marked after a refusal). */
		int simple = a.kind == ACT_PLAY || (!act_has_amount(a.kind) && a.kind != ACT_DISCARD);
		if (simple && !lesson_allows(s, &a)) {
			*out = a;
			return 1;
		}
	}
	return 0;
}

/* Lesson i of every game's, played by its keys in language lang. */
static void play_lesson(const char *path, int num, const char *lang)
{
	char err[ERR_MAX], buf[2048], numtext[16];
	ck_assert_int_eq(i18n_set_lang(lang, err, sizeof err), 0);
	struct lesson l;
	ck_assert_msg(lesson_load(&l, path, err, sizeof err) == 0, "%s", err);
	const struct game_ops *g = l.g;
	void *st = malloc(g->state_size);
	struct rules r = l.rules;
	struct game_setup setup = { l.players, l.dealer, 1, &r, &l.stack };
	ck_assert_int_eq(g->init(st, &setup, err, sizeof err), 0);
	g->start(st, NULL);
	snprintf(numtext, sizeof numtext, "%d", num);
	struct tty t;
	tty_start(&t, g->name, numtext, lang);
	tty_expect(&t, said(l.title, buf, sizeof buf));
	int wrong_tried = 0;
	for (int i = 0; i < l.nsteps; i++) {
		const struct lesson_step *s = &l.steps[i];
		struct refusal why;
		if (s->kind == LESSON_SAY) {
			tty_expect(&t, said(s->text, buf, sizeof buf));
			continue;
		}
		if (s->kind == LESSON_YOU) {
			char keys[1024];
			struct action w;
			if (!wrong_tried && wrong_move(g, st, s, &w)) {
				/* Refused with the lesson's explanation, never played: the
				 * lesson then goes on from the right move. */
				wrong_tried = 1;
				keys_for(g, st, &w, keys, sizeof keys);
				tty_keys(&t, keys);
				tty_expect(&t, said(s->text ? s->text : "That is not the move of this lesson. Try again.", buf,
				                    sizeof buf));
				if (w.kind != ACT_PLAY) {   /* the menu stays open on the refused item */
					tty_keys(&t, "\033");
					tty_expect(&t, _("Menu closed."));
				}
			}
			keys_for(g, st, &s->alt[0], keys, sizeof keys);
			tty_keys(&t, keys);
		}
		ck_assert_int_eq(g->apply(st, &s->alt[0], NULL, &why), 0);
	}
	tty_expect(&t, said(l.summary, buf, sizeof buf));
	ck_assert_int_eq(tty_end(&t), 0);
	/* Marked done in the settings. */
	snprintf(buf, sizeof buf, "%s/config/tapis/settings", home);
	FILE *f = fopen(buf, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, l.id));
	free(st);
	lesson_release(&l);
}

START_TEST(every_lesson_on_a_terminal)
{
	snprintf(home, sizeof home, "/tmp/tapis-lesson.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(home));
	char cmd[800];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/config/tapis' && printf 'confirm = off\\n' >'%s/config/tapis/settings'",
	         home, home);
	ck_assert_int_eq(system(cmd), 0);
	for (int gi = 0; registry_games[gi].ops; gi++) {
		char paths[LESSON_MAX_PER_GAME][512];
		int n = lesson_list(registry_games[gi].ops, paths, LESSON_MAX_PER_GAME);
		for (int i = 0; i < n; i++)
			play_lesson(paths[i], i + 1, langs[_i]);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static void make_home(const char *settings)
{
	snprintf(home, sizeof home, "/tmp/tapis-lesson.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(home));
	char cmd[1400];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/config/tapis' && printf '%s' >'%s/config/tapis/settings'", home,
	         settings, home);
	ck_assert_int_eq(system(cmd), 0);
}

static void remove_home(void)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
	ck_assert_int_eq(system(cmd), 0);
}

/* The main menu's "Learn to play", a game, its lessons: the one done is
 * said so, and the menu starts on the next. */
START_TEST(menu_says_done)
{
	const char *lang = langs[_i];
	char err[ERR_MAX], buf[512], paths[LESSON_MAX_PER_GAME][512];
	ck_assert_int_eq(i18n_set_lang(lang, err, sizeof err), 0);
	int gi = 0;
	while (registry_games[gi].ops && strcmp(registry_games[gi].ops->name, "bourre"))
		gi++;
	const struct game_ops *g = registry_games[gi].ops;
	ck_assert_ptr_nonnull(g);
	ck_assert_int_ge(lesson_list(g, paths, LESSON_MAX_PER_GAME), 2);
	struct lesson l1, l2;
	ck_assert_int_eq(lesson_load(&l1, paths[0], err, sizeof err), 0);
	ck_assert_int_eq(lesson_load(&l2, paths[1], err, sizeof err), 0);
	snprintf(buf, sizeof buf, "confirm = off\\nlessons = %s\\n", l1.id);
	make_home(buf);
	struct tty t;
	const char *argv[] = { "--lang", lang, "--text", "--no-sound", NULL };
	tty_exec(&t, argv);
	tty_expect(&t, _("Choose a game."));
	tty_keys(&t, "\033[F\033[A\033[A");   /* End, Up, Up: before the language and Quit */
	tty_expect(&t, _("Learn to play"));
	tty_keys(&t, ENTER);
	tty_expect(&t, _("Learn which game?"));
	for (int k = 0; k < gi; k++)
		tty_keys(&t, DOWN);
	tty_keys(&t, ENTER);
	char heading[512];
	snprintf(heading, sizeof heading, _("Lessons of %s."), _(g->title));
	tty_expect(&t, said(heading, buf, sizeof buf));
	/* The first item said is the next lesson to do. */
	snprintf(buf, sizeof buf, _("%1$d. %2$s"), 2, _(l2.title));
	tty_expect(&t, buf);
	tty_keys(&t, "\033[A");
	snprintf(buf, sizeof buf, _("%1$d. %2$s, done"), 1, _(l1.title));
	tty_expect(&t, buf);
	tty_keys(&t, "\033[F");   /* End: the first game */
	tty_expect(&t, _("Play a first game"));
	kill(t.pid, SIGTERM);
	tty_end(&t);
	lesson_release(&l1);
	lesson_release(&l2);
	remove_home();
}
END_TEST

/* "Play a first game", after the lessons of a game: a game against the
 * bots begins, and at the player's first turn the hint is said unasked. */
START_TEST(first_game_with_hints)
{
	const char *lang = langs[_i];
	char err[ERR_MAX], buf[512];
	ck_assert_int_eq(i18n_set_lang(lang, err, sizeof err), 0);
	make_home("confirm = off\\n");
	struct tty t;
	const char *argv[] = { "learn", "bourre", "--lang", lang, "--text", "--no-sound", NULL };
	tty_exec(&t, argv);
	const struct game_ops *g = registry_ops("bourre");
	ck_assert_ptr_nonnull(g);
	char heading[512];
	snprintf(heading, sizeof heading, _("Lessons of %s."), _(g->title));
	tty_expect(&t, said(heading, buf, sizeof buf));
	tty_keys(&t, "\033[F");   /* End: the first game */
	tty_expect(&t, _("Play a first game"));
	tty_keys(&t, ENTER);
	tty_expect(&t, _(g->title));
	tty_expect(&t, _("Your turn."));
	/* Bourré's first question is staying or passing: the hint says which,
	 * with its reason ("Stay: the ace of spades can take a trick."). */
	struct sbuf stay, pass;
	sb_clear(&stay);
	sb_clear(&pass);
	sb_puts(&stay, C_("hint", "stay"));
	sb_puts(&pass, C_("hint", "pass"));
	sb_capitalize(&stay);
	sb_capitalize(&pass);
	char want_stay[128], want_pass[128];
	snprintf(want_stay, sizeof want_stay, _("%1$s: %2$s."), stay.s, "");
	snprintf(want_pass, sizeof want_pass, _("%1$s: %2$s."), pass.s, "");
	want_stay[strlen(want_stay) - 1] = '\0';
	want_pass[strlen(want_pass) - 1] = '\0';
	double end = now_s() + WAIT_S;
	int said_hint = 0;
	while (!said_hint && now_s() < end && tty_read(&t, 100))
		said_hint = strstr(t.out + t.mark, want_stay) || strstr(t.out + t.mark, want_pass);
	snprintf(buf, sizeof buf, "%s", t.out + t.mark);
	kill(t.pid, SIGTERM);
	tty_end(&t);
	remove_home();
	ck_assert_msg(said_hint, "no hint (\"%s\" or \"%s\") at the first turn; said:\n%s", want_stay, want_pass, buf);
}
END_TEST

/* The end of the input leaves a lesson: nothing was saved, and that is
 * what is said. */
START_TEST(left_not_saved)
{
	make_home("");
	char cmd[1200];
	const char *bin = getenv("TAPIS_BIN") ? getenv("TAPIS_BIN") : "build/tapis";
	snprintf(cmd, sizeof cmd, "XDG_CONFIG_HOME='%s/config' XDG_STATE_HOME='%s/state' '%s' learn bourre --lesson 1 --text "
	         "--no-sound --lang en </dev/null", home, home, bin);
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	static char out[1 << 16];
	size_t n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_msg(strstr(out, "Lesson left.") && !strstr(out, "Game saved."), "%s", out);
	remove_home();
}
END_TEST

static Suite *lesson_suite(void)
{
	Suite *s = suite_create("lesson");
	TCase *tc = tcase_create("files");
	tcase_add_test(tc, every_lesson);
	tcase_add_test(tc, tutor_every_lesson);
	tcase_add_test(tc, refused_files);
	tcase_add_test(tc, progress_words);
	suite_add_tcase(s, tc);
	tc = tcase_create("terminal");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, every_lesson_on_a_terminal, 0, 2);
	tcase_add_loop_test(tc, menu_says_done, 0, 2);
	tcase_add_loop_test(tc, first_game_with_hints, 0, 2);
	tcase_add_test(tc, left_not_saved);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	paths_init("build/tapis");
	return tu_run(lesson_suite());
}
