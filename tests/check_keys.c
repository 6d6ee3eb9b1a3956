/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The keyboard as a player meets it: build/tapis run on a pseudo-terminal
 * (forkpty), keys sent as a terminal sends them, what is said read back
 * as lines of text (--speech text). Every test runs in English and in
 * French: the sentences expected are taken from the catalogue of the
 * language under test, so a test checks the behaviour, not a wording.
 *
 * Each run has its own settings and saved-game directories. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "i18n/i18n.h"
#include "words/french.h"
#include "speech/speech.h"
#include "app/keymap.h"
#include "testutil.h"

#define OUT_MAX (1 << 18)
#define WAIT_S 20.0

/* Keys as a terminal sends them. */
#define UP "\033[A"
#define DOWN "\033[B"
#define RIGHT "\033[C"
#define LEFT "\033[D"
#define HOME "\033[H"
#define END "\033[F"
#define PGUP "\033[5~"
#define PGDN "\033[6~"
#define F1 "\033OP"
#define ESC "\033"
#define ENTER "\r"
#define BACKSPACE "\177"

static const char *const langs[] = { "en", "fr" };

struct tty {
	pid_t pid;
	int fd;
	char out[OUT_MAX];
	size_t n;     /* bytes read */
	size_t mark;  /* where the next expectation looks from */
	int status;   /* exit status once ended, -1 before */
};

static char home[512];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_settings(const char *text);

/* A fresh directory for the settings and the saved game. */
static void fresh_home(void)
{
	snprintf(home, sizeof home, "/tmp/tapis-keys.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(home));
	write_settings("");
}

static void remove_home(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
	ck_assert_int_eq(system(cmd), 0);
}

/* The saved games of the earlier runs, gone: a new game starts without
 * the question about the save. */
static void forget_saves(void)
{
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/state/tapis/saves'", home);
	ck_assert_int_eq(system(cmd), 0);
}

static void child_env(void)
{
	char buf[600];
	snprintf(buf, sizeof buf, "%s/config", home);
	setenv("XDG_CONFIG_HOME", buf, 1);
	snprintf(buf, sizeof buf, "%s/state", home);
	setenv("XDG_STATE_HOME", buf, 1);
	setenv("LANG", "C", 1);
	unsetenv("LANGUAGE");
	unsetenv("LC_ALL");
	unsetenv("LC_MESSAGES");
	setenv("ALSOFT_DRIVERS", "null", 1);
}

static const char *bin(void)
{
	const char *b = getenv("TAPIS_BIN");
	return b ? b : "build/tapis";
}

/* Start tapis with the arguments (NULL-terminated) on a new terminal. */
static void tty_start(struct tty *t, const char *first, ...)
{
	const char *argv[40];
	int argc = 0;
	argv[argc++] = bin();
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a && argc < 38; a = va_arg(ap, const char *))
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	memset(t, 0, sizeof *t);
	t->status = -1;
	struct winsize ws = { 24, 200, 0, 0 };
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	ck_assert_int_ge(t->pid, 0);
	if (t->pid == 0) {
		child_env();
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
}

/* Read what came, waiting at most ms; 0 at the end of output. */
static int tty_read(struct tty *t, int ms)
{
	struct pollfd p = { t->fd, POLLIN, 0 };
	if (poll(&p, 1, ms) <= 0)
		return 1;
	if (t->n + 1 >= sizeof t->out)
		return 1;
	ssize_t k = read(t->fd, t->out + t->n, sizeof t->out - t->n - 1);
	if (k <= 0)
		return 0;
	t->n += (size_t)k;
	t->out[t->n] = '\0';
	return 1;
}

/* Wait until text is said after the mark, and its line ends; the mark
 * moves to the end of that line. */
static void tty_expect(struct tty *t, const char *text)
{
	double end = now_s() + WAIT_S;
	for (;;) {
		char *at = strstr(t->out + t->mark, text);
		char *nl = at ? strpbrk(at + strlen(text), "\r\n") : NULL;
		if (nl || (at && !*text)) {
			t->mark = (size_t)((nl ? nl : at) - t->out);
			return;
		}
		if (now_s() > end || !tty_read(t, 100))
			break;
	}
	size_t from = t->n > 1500 ? t->n - 1500 : 0;
	ck_abort_msg("never said: \"%s\"; the end of what was said:\n%s", text, t->out + from);
}

/* Wait for the line holding text; the whole line into line. */
static void tty_expect_line(struct tty *t, const char *text, char *line, size_t len)
{
	tty_expect(t, text);
	size_t start = t->mark;
	char *at = t->out + t->mark;
	while (start > 0 && t->out[start - 1] != '\n' && t->out[start - 1] != '\r')
		start--;
	snprintf(line, len, "%.*s", (int)(at - (t->out + start)), t->out + start);
}

/* The line said next after the mark (without its end), mark moved past. */
static void tty_line(struct tty *t, char *line, size_t len)
{
	double end = now_s() + WAIT_S;
	for (;;) {
		char *s = t->out + t->mark;
		while (*s == '\r' || *s == '\n')
			s++;
		char *nl = strpbrk(s, "\r\n");
		if (nl) {
			size_t k = (size_t)(nl - s);
			snprintf(line, len, "%.*s", (int)(k < len ? k : len - 1), s);
			t->mark = (size_t)(nl - t->out);
			return;
		}
		if (now_s() > end || !tty_read(t, 100))
			break;
	}
	ck_abort_msg("no line said after:\n%s", t->out + (t->mark > 300 ? t->mark - 300 : 0));
}

static void tty_keys(struct tty *t, const char *keys)
{
	size_t n = strlen(keys);
	ck_assert_int_eq(write(t->fd, keys, n), (ssize_t)n);
}

/* Send a key and wait for what it says. */
static void key_expect(struct tty *t, const char *keys, const char *text)
{
	tty_keys(t, keys);
	tty_expect(t, text);
}

/* Wait for the end of the program; its exit status. */
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
		close(t->fd);
		ck_abort_msg("tapis did not end:\n%s", t->out + (t->n > 1500 ? t->n - 1500 : 0));
	}
	close(t->fd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The language under test: its catalogue for the expected sentences. */
static const char *use_lang(int i)
{
	char err[256];
	ck_assert_int_eq(i18n_set_lang(langs[i], err, sizeof err), 0);
	return langs[i];
}

/* A sentence of the catalogue, formatted. */
static const char *fmt(char *buf, size_t len, const char *msgid, ...)
{
	va_list ap;
	va_start(ap, msgid);
	vsnprintf(buf, len, _(msgid), ap);
	va_end(ap);
	return buf;
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[16384];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static const char *settings_text(void)
{
	char path[700];
	snprintf(path, sizeof path, "%s/config/tapis/settings", home);
	const char *s = slurp_file(path);
	return s ? s : "";
}

static void write_settings(const char *text)
{
	char path[700];
	snprintf(path, sizeof path, "%s/config", home);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/config/tapis", home);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/config/tapis/settings", home);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("pause = 0\n", f);   /* bots at once: the tests wait less */
	fputs(text, f);
	fclose(f);
}

/* The output of a command of tapis run without a terminal. */
static const char *run_output(const char *args)
{
	static char out[1 << 16];
	char cmd[1200];
	snprintf(cmd, sizeof cmd,
	         "XDG_CONFIG_HOME='%s/config' XDG_STATE_HOME='%s/state' LANG=C LC_ALL= LANGUAGE= '%s' %s </dev/null 2>&1",
	         home, home, bin(), args);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

/* ---- the main menu ---- */

/* The main menu in lang, up to its first question. */
static void start_menu(struct tty *t, const char *lang)
{
	tty_start(t, "--speech", "text", "--no-sound", "--lang", lang, NULL);
	tty_expect(t, _("Choose a game."));
}

/* Its last item, Quit: the program ends at once, status 0. */
static void quit_menu(struct tty *t)
{
	key_expect(t, END, _("Quit"));
	tty_keys(t, ENTER);
	ck_assert_int_eq(tty_end(t), 0);
}

/* Escape at the top asks before quitting; Escape in the question goes back. */
START_TEST(menu_escape_asks)
{
	fresh_home();
	const char *lang = use_lang(_i);
	struct tty t;
	start_menu(&t, lang);
	key_expect(&t, ESC, _("Quit tapis?"));
	key_expect(&t, ESC, _("Choose a game."));
	key_expect(&t, ESC, _("Quit tapis?"));
	key_expect(&t, DOWN, _("Yes, quit tapis"));
	tty_keys(&t, ENTER);
	ck_assert_int_eq(tty_end(&t), 0);
	remove_home();
}
END_TEST

/* The options menu: Escape goes back to the number of players, then to
 * the games. */
START_TEST(menu_back_one_level)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	start_menu(&t, lang);
	key_expect(&t, ENTER, _("How many players?"));
	char fr[256];
	fmt(buf, sizeof buf, "Options of %s.", _("La Bouillabaisse"));
	key_expect(&t, ENTER, _i ? french_contract(buf, fr, sizeof fr) : buf);
	key_expect(&t, ESC, _("How many players?"));
	key_expect(&t, ESC, _("Choose a game."));
	quit_menu(&t);
	remove_home();
}
END_TEST

/* The language is chosen in the main menu, kept in the settings, and
 * --help, `tapis keys` and the next start follow it. */
START_TEST(menu_language)
{
	fresh_home();
	use_lang(_i);
	const char *other = _i ? "en" : "fr";
	if (_i)
		write_settings("lang = fr\n");
	struct tty t;
	tty_start(&t, "--speech", "text", "--no-sound", NULL);
	tty_expect(&t, _("Welcome to tapis."));
	tty_expect(&t, _("Choose a game."));
	tty_keys(&t, END);
	key_expect(&t, UP, _("Language: English"));
	tty_keys(&t, ENTER);
	use_lang(!_i);
	tty_expect(&t, _("Choose a game."));
	quit_menu(&t);
	char want[64];
	snprintf(want, sizeof want, "lang = %s\n", other);
	ck_assert_msg(strstr(settings_text(), want), "settings:\n%s", settings_text());
	/* Printed text follows the language of the settings. */
	const char *help = run_output("--help");
	ck_assert_msg(strstr(help, _("Options of play:")), "%s", help);
	ck_assert_msg(strstr(help, "\nGames:"), "%s", help);  /* read by scripts */
	const char *keys = run_output("keys");
	ck_assert_msg(strstr(keys, _("At any moment")), "%s", keys);
	ck_assert_msg(strstr(keys, _("full or short announcements")), "%s", keys);
	/* --lang still decides for one run. */
	use_lang(_i);
	char arg[32];
	snprintf(arg, sizeof arg, "keys --lang %s", langs[_i]);
	keys = run_output(arg);
	ck_assert_msg(strstr(keys, _("At any moment")), "%s", keys);
	/* The next start speaks it. */
	use_lang(!_i);
	tty_start(&t, "--speech", "text", "--no-sound", NULL);
	tty_expect(&t, _("Welcome to tapis."));
	quit_menu(&t);
	remove_home();
}
END_TEST

/* Walking the menus: arrows, Home, End, a letter, F1; the options of a
 * game walked and changed. */
START_TEST(menu_walk)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	start_menu(&t, lang);
	key_expect(&t, END, fmt(buf, sizeof buf, ", %1$d of %2$d.", 9, 9));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 9));
	key_expect(&t, UP, fmt(buf, sizeof buf, ", %1$d of %2$d.", 9, 9));
	key_expect(&t, HOME, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 9));
	key_expect(&t, RIGHT, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 9));
	key_expect(&t, LEFT, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 9));
	key_expect(&t, F1, _("Up and Down choose, Enter confirms, Escape goes back."));
	/* A letter: the next game found by it (Le Brouc by B, after the article). */
	key_expect(&t, "b", _("Bouillotte"));
	key_expect(&t, ENTER, _("How many players?"));
	key_expect(&t, ENTER, _("Up and Down walk the options, Left and Right change them, Enter starts."));
	/* The options: walked both ways, changed, F1. */
	key_expect(&t, DOWN, ".");
	key_expect(&t, RIGHT, ".");
	key_expect(&t, LEFT, ".");
	key_expect(&t, PGUP, ".");
	key_expect(&t, PGDN, ".");
	key_expect(&t, UP, _("Start the game."));
	key_expect(&t, UP, ".");
	key_expect(&t, F1, _("Up and Down walk the options, Left and Right change them, Enter starts."));
	key_expect(&t, ESC, _("How many players?"));
	key_expect(&t, ESC, _("Choose a game."));
	quit_menu(&t);
	/* The rules, printed and said, in the language asked. */
	char args[64];
	snprintf(args, sizeof args, "rules bouillotte --text --lang %s", lang);
	const char *rules = run_output(args);
	/* printed without the marks of Markdown */
	ck_assert_msg(strstr(rules, "Bouillotte") && !strstr(rules, "# ") && !strstr(rules, "**") && !strchr(rules, '`'),
	              "%s", rules);
	tty_start(&t, "rules", "bouillotte", "--speech", "text", "--no-sound", "--lang", lang, NULL);
	tty_expect(&t, "Bouillotte");
	ck_assert_int_eq(tty_end(&t), 0);
	remove_home();
}
END_TEST

/* A game started from the main menu ends back in it. */
START_TEST(menu_after_game)
{
	fresh_home();
	const char *lang = use_lang(_i);
	struct tty t;
	tty_start(&t, "--speech", "text", "--no-sound", "--lang", lang, "--seats", "bot,bot,bot,bot", "--hands",
	          "1", "--seed", "5", NULL);
	tty_expect(&t, _("Choose a game."));
	key_expect(&t, ENTER, _("How many players?"));
	tty_keys(&t, ENTER);
	tty_expect(&t, _("Up and Down walk the options, Left and Right change them, Enter starts."));
	tty_keys(&t, ENTER);
	tty_expect(&t, _("Game over."));
	tty_expect(&t, _("Choose a game."));
	quit_menu(&t);
	remove_home();
}
END_TEST

/* ---- at the table ---- */

/* Bouillotte, seed 1: the player is first asked to straddle, then to
 * pass or open (5 to 99 chips), with all-in at 99. */
static void bouillotte(struct tty *t, const char *lang)
{
	tty_start(t, "play", "bouillotte", "--speech", "text", "--no-sound", "--seed", "1", "--lang", lang, NULL);
}

static void await_turn(struct tty *t)
{
	tty_expect(t, _("Your turn."));
}

/* No straddle: the turn to pass or open comes. */
static void straddle_declined(struct tty *t)
{
	char buf[256];
	await_turn(t);
	key_expect(t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2));
	tty_keys(t, ENTER);
	await_turn(t);
}

/* "Deal N." as the deal is announced (the dealer follows). */
static const char *deal(char *buf, size_t len, int n)
{
	fmt(buf, len, "Deal %1$d. %2$s deals.", n, "");
	buf[strcspn(buf, ".")] = '\0';
	return buf;
}

static void quit_game(struct tty *t)
{
	key_expect(t, "q", _("Quit? Press Y to confirm, any other key to go on."));
	key_expect(t, "y", _("Game saved."));
	ck_assert_int_eq(tty_end(t), 0);
}

/* F1 twice at the table: the keys of the moment, then all of them (the
 * second line into line). */
static void all_keys(struct tty *t, char *line, size_t len)
{
	tty_keys(t, F1);
	tty_expect(t, _("F1 again for all keys."));
	tty_keys(t, F1);
	tty_line(t, line, len);
}

/* The main menu offers to resume the saved Bouillotte (the first item):
 * Enter resumes it. */
static void resume_bouillotte(struct tty *t, const char *lang)
{
	char buf[256], fr[256];
	tty_start(t, "--speech", "text", "--no-sound", "--lang", lang, NULL);
	fmt(buf, sizeof buf, _("Resume %s"), _("Bouillotte"));
	tty_expect(t, strcmp(lang, "en") ? french_contract(buf, fr, sizeof fr) : buf);
	key_expect(t, ENTER, fmt(buf, sizeof buf, _("%s resumed."), _("Bouillotte")));
}

/* The action menu: the safe item first, no wrapping at either end. */
START_TEST(menu_safe_first_no_wrap)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[512];
	struct tty t;
	bouillotte(&t, lang);
	await_turn(&t);
	/* F1 in a game of showdowns: L gives the last one, not a trick. */
	all_keys(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("the last showdown: the hands shown, folded ones too")), "%s", line);
	ck_assert_msg(!strstr(line, _("the last trick and who took it")), "%s", line);
	tty_keys(&t, ENTER);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2)), "%s", line);
	char first[512];
	snprintf(first, sizeof first, "%s", line);
	/* Up from the first: said, and still on it. */
	tty_keys(&t, UP);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("First choice.")) == line, "%s", line);
	ck_assert_msg(strstr(line, first), "%s / %s", line, first);
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 2));
	key_expect(&t, DOWN, _("Last choice."));
	/* F1 in a menu: the menu's keys only; no amount keys for a fixed stake. */
	tty_keys(&t, F1);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("choose an action in the menu")), "%s", line);
	ck_assert_msg(!strstr(line, _("walk your hand card by card")), "%s", line);
	ck_assert_msg(!strstr(line, _("type an amount")), "%s", line);
	key_expect(&t, ESC, _("Menu closed."));
	/* The straddle declined: pass or open, with fold and all-in last. */
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2));
	tty_keys(&t, ENTER);
	await_turn(&t);
	tty_keys(&t, ENTER);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3)), "%s", line);
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 3));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 3, 3));
	key_expect(&t, DOWN, _("Last choice."));
	quit_game(&t);
	remove_home();
}
END_TEST

/* Typed amounts: refused out of range with the range said; Enter does
 * what was last said, never an amount that was not. */
START_TEST(typed_amounts)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[512];
	struct tty t;
	bouillotte(&t, lang);
	straddle_declined(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 3));
	/* F1 on an amount: the amount keys. */
	key_expect(&t, F1, _("type an amount"));
	/* "0": only the digit; Enter then refuses and says the range. */
	tty_keys(&t, "0");
	tty_line(&t, line, sizeof line);
	ck_assert_str_eq(line, "0");
	key_expect(&t, ENTER, fmt(buf, sizeof buf, "Type an amount from %1$d to %2$d.", 5, 99));
	/* Too many: refused with the range, the digits dropped. */
	tty_keys(&t, "70");
	tty_expect(&t, "70");
	key_expect(&t, "0", fmt(buf, sizeof buf, "%1$d is too many: from %2$d to %3$d.", 700, 5, 99));
	key_expect(&t, ENTER, fmt(buf, sizeof buf, "Type an amount from %1$d to %2$d.", 5, 99));
	/* 1, 2: twelve; Backspace: one, not legal; 6: sixteen. */
	tty_keys(&t, "1");
	tty_expect(&t, "1");
	tty_keys(&t, "2");
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "12"), "%s", line);
	tty_keys(&t, BACKSPACE);
	tty_line(&t, line, sizeof line);
	ck_assert_str_eq(line, "1");
	tty_keys(&t, "6");
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "16"), "%s", line);
	/* Arrows from there; Home the least. */
	tty_keys(&t, RIGHT);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "17"), "%s", line);
	tty_keys(&t, HOME);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, " 5 "), "%s", line);
	tty_keys(&t, PGUP);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "15"), "%s", line);
	tty_keys(&t, ENTER);
	/* Played as said: the open of 15 chips, in the game's words. */
	tty_expect(&t, "15");
	quit_game(&t);
	remove_home();
}
END_TEST

/* All-in asks first; any other key goes back; the setting turns it off. */
START_TEST(confirm_all_in)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	bouillotte(&t, lang);
	straddle_declined(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3));
	tty_keys(&t, DOWN);
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 3, 3));
	const char *ask = strstr(_("%s? Press Y to confirm, any other key to go back."), "%s") + 2;
	key_expect(&t, ENTER, ask);
	key_expect(&t, "x", _("Not done."));
	/* Still in the menu, on the same item. */
	key_expect(&t, ENTER, ask);
	tty_keys(&t, "y");
	/* An open of more than half one's chips asks too: after the all-in
	 * the deal goes on without the player; the next deal comes. */
	tty_expect(&t, deal(buf, sizeof buf, 2));
	quit_game(&t);
	forget_saves();
	/* confirm = off: Enter acts at once. */
	write_settings("confirm = off\n");
	bouillotte(&t, lang);
	straddle_declined(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3));
	tty_keys(&t, DOWN);
	key_expect(&t, END, "99");   /* Open: End is the most */
	tty_keys(&t, ENTER);
	tty_expect(&t, deal(buf, sizeof buf, 2));
	ck_assert_msg(!strstr(t.out, ask), "asked with confirm = off");
	quit_game(&t);
	remove_home();
}
END_TEST

/* A big open asks; folding after putting chips in asks. */
START_TEST(confirm_big_bet)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	bouillotte(&t, lang);
	straddle_declined(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 3));
	const char *ask = strstr(_("%s? Press Y to confirm, any other key to go back."), "%s") + 2;
	tty_keys(&t, "6");
	tty_expect(&t, "6");
	key_expect(&t, "0", "60");
	key_expect(&t, ENTER, ask);
	key_expect(&t, BACKSPACE, _("Not done."));
	/* 49 is no more than half of 99: at once. */
	tty_keys(&t, "4");
	tty_expect(&t, "4");
	key_expect(&t, "9", "49");
	tty_keys(&t, ENTER);
	tty_expect(&t, "49");
	ck_assert_msg(!strstr(t.out + t.mark, ask), "asked for 49 chips of 99");
	quit_game(&t);
	remove_home();
}
END_TEST

/* Enter on the item asks for Y; another key goes back. */
static void asked_then_back(struct tty *t)
{
	key_expect(t, ENTER, strstr(_("%s? Press Y to confirm, any other key to go back."), "%s") + 2);
	key_expect(t, "x", _("Not done."));
}

/* A single amount above half one's chips asks too (seed 6, caves of 7:
 * the straddle of 5 chips, with 6 left after the ante). */
START_TEST(confirm_fixed_bet)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	tty_start(&t, "play", "bouillotte", "--speech", "text", "--no-sound", "--seed", "6", "--rule", "cave=7",
	          "--lang", lang, NULL);
	await_turn(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 2));
	asked_then_back(&t);
	quit_game(&t);
	remove_home();
}
END_TEST

/* Chips put in before the game was saved still count after it is
 * resumed: folding then asks (seed 1: a straddle of 10 chips, then an
 * open of 25 to call). */
START_TEST(confirm_fold_resumed)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	bouillotte(&t, lang);
	await_turn(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 2));
	tty_keys(&t, ENTER);
	await_turn(&t);
	quit_game(&t);
	resume_bouillotte(&t, lang);
	await_turn(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 4));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 4));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 3, 4));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 4, 4));
	asked_then_back(&t);
	quit_game(&t);
	remove_home();
}
END_TEST

/* Walking the hand in a trick game (Le Brouc, seed 3: the player must
 * follow clubs with the jack of clubs, the only club). */
START_TEST(hand_walk)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[512];
	struct tty t;
	tty_start(&t, "play", "brouc", "--speech", "text", "--no-sound", "--seed", "3", "--lang", lang, NULL);
	/* On "Your turn", the card under the cursor, a playable one. */
	const char *sel = strstr(_("Selected: %s"), "%s");
	snprintf(buf, sizeof buf, "%.*s", (int)(sel - _("Selected: %s")), _("Selected: %s"));
	tty_expect_line(&t, buf, line, sizeof line);
	ck_assert_msg(!strstr(line, _("not playable now")), "%s", line);
	char selected[512];
	snprintf(selected, sizeof selected, "%s", line + strlen(buf));   /* lower case: inside a sentence */
	/* Right on the last card says so and stays. */
	tty_keys(&t, RIGHT);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("Last card.")) == line, "%s", line);
	ck_assert_msg(strstr(line, selected + 1), "%s / %s", line, selected);
	/* Home: the first of the suit (this one), again: of the hand; not playable. */
	tty_keys(&t, HOME);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("not playable now")), "%s", line);
	char first[512];
	snprintf(first, sizeof first, "%s", line);
	key_expect(&t, LEFT, _("First card."));
	key_expect(&t, UP, _("First suit."));
	/* Down and Page Down: the next suits; End: the last of the suit. */
	tty_keys(&t, DOWN);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strcmp(line, first) != 0, "%s", line);
	tty_keys(&t, PGUP);
	tty_line(&t, line, sizeof line);
	ck_assert_str_eq(line, first);
	tty_keys(&t, END);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strcmp(line, first) != 0 && strstr(line, _("not playable now")), "%s", line);
	/* F1 in a trick game: no discard key. */
	all_keys(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("walk your hand card by card")), "%s", line);
	ck_assert_msg(strstr(line, _("the last trick and who took it")), "%s", line);
	ck_assert_msg(!strstr(line, _("the last showdown: the hands shown, folded ones too")), "%s", line);
	ck_assert_msg(!strstr(line, _("mark or unmark the selected card for a discard")), "%s", line);
	ck_assert_msg(!strstr(line, _("type an amount")), "%s", line);
	/* Escape out of a menu: the way out, asked first. */
	key_expect(&t, ESC, _("Quit? Press Y to confirm, any other key to go on."));
	key_expect(&t, "x", _("Quit cancelled."));
	quit_game(&t);
	remove_home();
}
END_TEST

/* Bourré (seed 2, 4 players): marks for the discard, said by H; Stay
 * first in the menu; Space in F1 only when a discard is to be made. */
START_TEST(bourre_marks)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[1024];
	struct tty t;
	tty_start(&t, "play", "bourre", "--players", "4", "--speech", "text", "--no-sound", "--seed", "2", "--lang",
	          lang, NULL);
	await_turn(&t);
	/* Stay or pass: Space marks already, and F1 says so. */
	key_expect(&t, F1, _("mark or unmark the selected card for a discard"));
	key_expect(&t, " ", fmt(buf, sizeof buf, P_("%d card to discard.", "%d cards to discard.", 1), 1));
	tty_keys(&t, RIGHT);
	tty_line(&t, line, sizeof line);
	key_expect(&t, " ", fmt(buf, sizeof buf, P_("%d card to discard.", "%d cards to discard.", 2), 2));
	key_expect(&t, " ", fmt(buf, sizeof buf, P_("%d card to discard.", "%d cards to discard.", 1), 1));
	key_expect(&t, " ", _("to discard"));
	const char *marked = _("Marked to discard: %s.");
	snprintf(buf, sizeof buf, "%.*s", (int)(strstr(marked, "%s") - marked), marked);
	key_expect(&t, "h", buf);
	key_expect(&t, "n", ".");
	key_expect(&t, "l", ".");
	/* The menu: Stay first; taken, the discard comes. */
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2));
	/* F1 in it: Space still marks, the query keys still answer. */
	tty_keys(&t, F1);
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("mark or unmark the selected card for a discard")), "%s", line);
	ck_assert_msg(strstr(line, _("the same answers as outside the menu")), "%s", line);
	/* A digit with no amount to type: the table card by card. */
	tty_keys(&t, "1");
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strcmp(line, "1") != 0 && *line, "%s", line);
	tty_keys(&t, ENTER);
	await_turn(&t);
	key_expect(&t, F1, _("mark or unmark the selected card for a discard"));
	/* Enter throws the two marked cards. */
	tty_keys(&t, ENTER);
	await_turn(&t);
	quit_game(&t);
	remove_home();
}
END_TEST

/* The message history: the game's announcements only, its edges said. */
START_TEST(history)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[512];
	struct tty t;
	bouillotte(&t, lang);
	await_turn(&t);
	/* The menu's echo is not a message: ';' repeats the prompt. */
	tty_keys(&t, ENTER);
	tty_expect(&t, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2));
	tty_keys(&t, ";");
	tty_line(&t, line, sizeof line);
	ck_assert_msg(!strstr(line, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 2)), "%s", line);
	char prompt[512];
	snprintf(prompt, sizeof prompt, "%s", line);
	/* '.' at the newest: the end said. */
	tty_keys(&t, ".");
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, _("End of history.")) == line, "%s", line);
	ck_assert_msg(strstr(line, prompt), "%s / %s", line, prompt);
	/* ',' back to the oldest, then the start said. */
	for (int i = 0; i < 6; i++)
		tty_keys(&t, ",");
	tty_expect(&t, _("Start of history."));
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "Bouillotte"), "%s", line);
	quit_game(&t);
	remove_home();
}
END_TEST

/* V: full or short, kept in the settings. */
START_TEST(verbosity_key)
{
	fresh_home();
	const char *lang = use_lang(_i);
	struct tty t;
	bouillotte(&t, lang);
	await_turn(&t);
	key_expect(&t, "v", _("Short announcements."));
	ck_assert_msg(strstr(settings_text(), "verbosity = short"), "%s", settings_text());
	tty_keys(&t, F1);
	key_expect(&t, F1, _("full or short announcements"));
	key_expect(&t, "v", _("Full announcements."));
	ck_assert_msg(strstr(settings_text(), "verbosity = full"), "%s", settings_text());
	quit_game(&t);
	remove_home();
}
END_TEST

/* Short announcements leave out what the keys tell on demand: the
 * running count of tricks and the others' declaring in Bourré. */
/* The keys that tune speech and sound say the new value and keep it in the
 * settings file. */
START_TEST(tune_keys)
{
	fresh_home();
	write_settings("rate = 300\ncue_volume = 50\nspeech_volume = 40\n");
	const char *lang = use_lang(_i);
	struct tty t;
	bouillotte(&t, lang);
	await_turn(&t);
	char want[128];
	snprintf(want, sizeof want, _("Rate %d."), 320);
	key_expect(&t, ">", want);
	snprintf(want, sizeof want, _("Rate %d."), 300);
	key_expect(&t, "<", want);
	snprintf(want, sizeof want, _("Speech volume %d."), 50);
	key_expect(&t, "]", want);
	snprintf(want, sizeof want, _("Sound volume %d."), 40);
	key_expect(&t, "{", want);
	/* The braille hold, from 2 seconds: * longer, / shorter down to at once. */
	static const struct { const char *key; int held; } hold[] = { { "*", 3 }, { "/", 2 }, { "/", 1 }, { "/", 0 } };
	for (int k = 0; k < 4; k++) {
		if (hold[k].held)
			snprintf(want, sizeof want,
			         P_("Braille lines held %d second.", "Braille lines held %d seconds.", hold[k].held), hold[k].held);
		else
			snprintf(want, sizeof want, "%s", _("Braille lines shown at once."));
		key_expect(&t, hold[k].key, want);
	}
	const char *set = settings_text();
	ck_assert_msg(strstr(set, "\nrate = 300\n"), "%s", set);
	ck_assert_msg(strstr(set, "speech_volume = 50\n"), "%s", set);
	ck_assert_msg(strstr(set, "cue_volume = 40\n"), "%s", set);
	ck_assert_msg(strstr(set, "braille_hold = 0.00\n"), "%s", set);
	quit_game(&t);
	remove_home();
}
END_TEST
START_TEST(verbosity_short)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char args[300];
	snprintf(args, sizeof args,
	         "play bourre --players 4 --seats bot,bot,bot,bot --seed 4 --hands 2 --text --lang %s", lang);
	char full[1 << 16];
	snprintf(full, sizeof full, "%s", run_output(args));
	write_settings("verbosity = short\n");
	const char *brief = run_output(args);
	char word[128];
	/* "Anne stays." said in full only. */
	snprintf(word, sizeof word, C_("bourre", "%s stays."), "Bruno");
	ck_assert_msg(strstr(full, word), "%s", full);
	ck_assert_msg(!strstr(brief, word), "%s", brief);
	/* "takes the trick, 2 tricks" in full only; the trick still said. */
	const char *trick2 = P_("%1$s takes the trick, %2$d trick.", "%1$s takes the trick, %2$d tricks.", 2);
	const char *tail = strstr(trick2, "%2$d");
	ck_assert_ptr_nonnull(tail);
	char count[64];
	snprintf(count, sizeof count, "2%s", tail + 4);
	ck_assert_msg(strstr(full, count), "%s", full);
	ck_assert_msg(!strstr(brief, count), "%s", brief);
	ck_assert_msg(strlen(brief) < strlen(full), "short is not shorter");
	remove_home();
}
END_TEST

/* Quit says the game is saved; the main menu then offers to resume it. */
START_TEST(quit_and_resume)
{
	fresh_home();
	const char *lang = use_lang(_i);
	struct tty t;
	bouillotte(&t, lang);
	await_turn(&t);
	quit_game(&t);
	resume_bouillotte(&t, lang);
	quit_game(&t);
	remove_home();
}
END_TEST

/* ---- AZERTY, the named card, F1, the history, catching up ---- */

/* The line a key says (after the mark). */
static void key_line(struct tty *t, const char *keys, char *line, size_t len)
{
	tty_keys(t, keys);
	tty_line(t, line, len);
}

/* The player's turn in a trick game: the prompt, then the card named. */
static void await_named(struct tty *t)
{
	char buf[128];
	const char *sel = _("Selected: %s");
	await_turn(t);
	snprintf(buf, sizeof buf, "%.*s", (int)(strstr(sel, "%s") - sel), sel);
	tty_expect(t, buf);
}

/* On a French keyboard the top row gives & é " ' ( - è _ ç à without
 * Shift: at the table they tell the table card by card as 1 to 9 do (the
 * unshifted 6, '-', no longer slows the voice: < and > tune the rate). */
START_TEST(azerty_table)
{
	fresh_home();
	write_settings("rate = 300\n");
	const char *lang = use_lang(_i);
	char want[512], line[4096], rate[64];
	struct tty t;
	tty_start(&t, "play", "brouc", "--speech", "text", "--no-sound", "--seed", "1", "--lang", lang, NULL);
	await_named(&t);
	static const char *const top[] = { "&", "\xc3\xa9", "\"", "'", "(", "-", "\xc3\xa8", "_", "\xc3\xa7" };
	static const char *const caps[] = { "\xc3\x89", "\xc3\x88", "\xc3\x87" };   /* É È Ç: Caps Lock */
	static const char caps_digit[] = { '2', '7', '9' };
	for (int d = 1; d <= 9; d++) {
		char digit[2] = { (char)('0' + d), 0 };
		key_line(&t, digit, want, sizeof want);
		ck_assert_msg(*want, "%s says nothing", digit);
		key_line(&t, top[d - 1], line, sizeof line);
		ck_assert_msg(!strcmp(line, want), "%s: \"%s\", %s: \"%s\"", top[d - 1], line, digit, want);
	}
	for (int k = 0; k < 3; k++) {
		char digit[2] = { caps_digit[k], 0 };
		key_line(&t, digit, want, sizeof want);
		key_line(&t, caps[k], line, sizeof line);
		ck_assert_msg(!strcmp(line, want), "%s: \"%s\", %s: \"%s\"", caps[k], line, digit, want);
	}
	ck_assert_msg(strstr(settings_text(), "rate = 300\n"), "the rate changed: %s", settings_text());
	/* The rate on < and >. */
	snprintf(rate, sizeof rate, _("Rate %d."), 320);
	key_expect(&t, ">", rate);
	snprintf(rate, sizeof rate, _("Rate %d."), 300);
	key_expect(&t, "<", rate);
	/* F1 twice: the keys that need Shift or AltGr on an AZERTY keyboard. */
	all_keys(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "AZERTY"), "%s", line);
	ck_assert_msg(strstr(line, _("speak slower or faster")), "%s", line);
	quit_game(&t);
	/* `tapis keys` says it too. */
	char args[64];
	snprintf(args, sizeof args, "keys --lang %s", lang);
	const char *keys = run_output(args);
	ck_assert_msg(strstr(keys, _(KEYMAP_AZERTY)), "%s", keys);
	ck_assert_msg(strstr(keys, "< >"), "%s", keys);
	remove_home();
}
END_TEST

/* An amount typed on the top row of an AZERTY keyboard (Bouillotte, seed
 * 1: open from 5 to 99): & then ( is 15, é 2 is 12. */
START_TEST(azerty_amount)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[512];
	struct tty t;
	bouillotte(&t, lang);
	straddle_declined(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 3));
	key_line(&t, "&", line, sizeof line);
	ck_assert_str_eq(line, "1");
	key_line(&t, "\xc3\xa9", line, sizeof line);
	ck_assert_msg(strstr(line, "12"), "%s", line);
	key_line(&t, BACKSPACE, line, sizeof line);
	ck_assert_str_eq(line, "1");
	key_line(&t, "(", line, sizeof line);
	ck_assert_msg(strstr(line, "15"), "%s", line);
	/* - is 6: too many from 15. */
	key_expect(&t, "-", fmt(buf, sizeof buf, "%1$d is too many: from %2$d to %3$d.", 156, 5, 99));
	key_line(&t, "\xc3\xa7", line, sizeof line);
	ck_assert_msg(strstr(line, "9") && !strstr(line, "19"), "%s", line);
	key_line(&t, "\xc3\xa0", line, sizeof line);
	ck_assert_msg(strstr(line, "90"), "%s", line);
	key_line(&t, BACKSPACE, line, sizeof line);
	ck_assert_msg(strstr(line, "9") && !strstr(line, "90"), "%s", line);
	/* Played as said: the open of 9 chips. */
	tty_keys(&t, ENTER);
	await_turn(&t);
	quit_game(&t);
	remove_home();
}
END_TEST

/* The output of tapis run without a terminal, keys from a file. */
static const char *run_keys(const char *args, const char *keys)
{
	char path[700];
	snprintf(path, sizeof path, "%s/keys", home);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(keys, f);
	fclose(f);
	static char out[1 << 20];
	char cmd[2600];
	snprintf(cmd, sizeof cmd,
	         "XDG_CONFIG_HOME='%s/config' XDG_STATE_HOME='%s/state' LANG=C LC_ALL= LANGUAGE= '%s' %s <'%s' 2>&1",
	         home, home, bin(), args, path);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

/* The text of msgid before its first conversion ("Selected: "). */
static const char *prefix(char *buf, size_t len, const char *msgid)
{
	const char *m = _(msgid);
	const char *at = strchr(m, '%');
	snprintf(buf, len, "%.*s", (int)(at ? at - m : (long)strlen(m)), m);
	return buf;
}

/* A whole game of each game, Enter on every turn (the selected card, or
 * the menu's safe choice): every card the player plays was named as
 * "Selected: ..." at that turn, before Enter played it. */
START_TEST(selected_every_turn)
{
	static const struct { const char *game; const char *args; int plays; } games[] = {
		{ "bouillabaisse", "--players 4 --rule hands=2", 1 },
		{ "brouc", "--rule hands=2", 1 },
		{ "bourre", "--players 4 --hands 3", 1 },
		{ "bouillotte", "--players 4 --hands 3", 0 },
		{ "brelan", "--players 4 --hands 3", 0 },
	};
	fresh_home();
	const char *lang = use_lang(_i);
	char selected[128], play[128], alone[256];
	prefix(selected, sizeof selected, "Selected: %s");
	prefix(play, sizeof play, "You play %s.");
	snprintf(alone, sizeof alone, "%s", _("You play alone and take the pot without play."));
	char keys[3 * 4000 + 1];
	for (int i = 0; i < 4000; i++)
		memcpy(keys + 3 * i, "\r\rY", 3);
	keys[sizeof keys - 1] = '\0';
	for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
		forget_saves();
		char args[300];
		snprintf(args, sizeof args, "play %s %s --seed 1 --speech text --no-sound --lang %s", games[g].game,
		         games[g].args, lang);
		const char *out = run_keys(args, keys);
		int named = 0, plays = 0, turns = 0;
		for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
			if (!strncmp(l, selected, strlen(selected)))
				named++;
			else if (!strncmp(l, play, strlen(play)) && strncmp(l, alone, strlen(alone))) {
				const char *from = l - out > 600 ? l - 600 : out;
				ck_assert_msg(named == 1, "%s, play %d: %d \"%s\" before \"%.60s\"; what was said:\n%.660s",
				              games[g].game, plays + 1, named, selected, l, from);
				named = 0;
				plays++;
			}
			turns += strstr(l, _("Your turn.")) == l;
		}
		ck_assert_msg(turns > 0, "%s: no turn\n%.1000s", games[g].game, out);
		ck_assert_msg(strstr(out, _("Game over.")), "%s: not to its end\n%.1000s", games[g].game,
		              out + (strlen(out) > 1000 ? strlen(out) - 1000 : 0));
		if (games[g].plays)
			ck_assert_msg(plays > 10, "%s: %d plays", games[g].game, plays);
		else
			ck_assert_msg(plays == 0 && named == 0, "%s: cards named", games[g].game);
	}
	remove_home();
}
END_TEST

/* F1 at the table: the few keys of the moment, then "F1 again for all
 * keys"; F1 again: all of them; another key between: the short list again. */
START_TEST(f1_short_first)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char brief[2048], line[4096];
	struct tty t;
	tty_start(&t, "play", "brouc", "--speech", "text", "--no-sound", "--seed", "1", "--lang", lang, NULL);
	await_named(&t);
	key_line(&t, F1, brief, sizeof brief);
	ck_assert_msg(strstr(brief, _("F1 again for all keys.")), "%s", brief);
	ck_assert_msg(strstr(brief, _("play the selected card")), "%s", brief);
	ck_assert_msg(strstr(brief, _("walk your hand card by card")), "%s", brief);
	/* 4 to 6 keys: as many "key: what it does." */
	int keys = 0, words = 1;
	for (const char *c = brief; *c; c++) {
		keys += *c == '.' && c[1] == ' ';   /* each key's sentence ends so */
		words += *c == ' ';
	}
	ck_assert_msg(keys >= 4 && keys <= 6, "%d keys: %s", keys, brief);
	ck_assert_msg(words < 60, "%d words: %s", words, brief);
	key_line(&t, F1, line, sizeof line);
	ck_assert_msg(strstr(line, _("the rules of this round or phase")), "%s", line);
	ck_assert_msg(strstr(line, _("quit, after confirmation; the game is saved")), "%s", line);
	ck_assert_msg(!strstr(line, _("F1 again for all keys.")), "%s", line);
	/* A key between: the short list again. */
	key_line(&t, "h", line, sizeof line);
	key_line(&t, F1, line, sizeof line);
	ck_assert_str_eq(line, brief);
	/* In Bouillotte, no card to play: Enter opens the menu. */
	quit_game(&t);
	forget_saves();
	bouillotte(&t, lang);
	await_turn(&t);
	key_line(&t, F1, line, sizeof line);
	ck_assert_msg(strstr(line, _("open the action menu")), "%s", line);
	ck_assert_msg(!strstr(line, _("play the selected card")), "%s", line);
	ck_assert_msg(!strstr(line, _("walk your hand card by card")), "%s", line);
	quit_game(&t);
	remove_home();
}
END_TEST

/* The history holds the game's announcements only: neither the menus'
 * words (welcome, options) nor typed digits. */
START_TEST(history_no_prompts)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], line[1024];
	struct tty t;
	tty_start(&t, "--speech", "text", "--no-sound", "--lang", lang, "--seed", "1", NULL);
	tty_expect(&t, _("Choose a game."));
	key_expect(&t, "b", _("Bouillotte"));
	key_expect(&t, ENTER, _("How many players?"));
	key_expect(&t, ENTER, _("Up and Down walk the options, Left and Right change them, Enter starts."));
	tty_keys(&t, ENTER);
	/* Digits typed in an amount. */
	straddle_declined(&t);
	key_expect(&t, ENTER, fmt(buf, sizeof buf, ", %1$d of %2$d.", 1, 3));
	key_expect(&t, DOWN, fmt(buf, sizeof buf, ", %1$d of %2$d.", 2, 3));
	key_line(&t, "1", line, sizeof line);
	key_line(&t, "2", line, sizeof line);
	key_expect(&t, ESC, _("Menu closed."));
	key_line(&t, ";", line, sizeof line);
	ck_assert_msg(strcmp(line, "1") && !strstr(line, "12"), "%s", line);
	/* Back to the oldest: the game's first announcement. */
	for (int i = 0; i < 40; i++)
		tty_keys(&t, ",");
	tty_expect(&t, _("Start of history."));
	tty_line(&t, line, sizeof line);
	ck_assert_msg(strstr(line, "Bouillotte"), "%s", line);
	ck_assert_msg(!strstr(line, _("Welcome to tapis.")), "%s", line);
	ck_assert_msg(!strstr(line, _("Up and Down walk the options, Left and Right change them, Enter starts.")), "%s",
	              line);
	fmt(buf, sizeof buf, _("Options of %s."), _("Bouillotte"));
	ck_assert_msg(!strstr(line, buf), "%s", line);
	quit_game(&t);
	remove_home();
}
END_TEST

/* A resumed game says where it stands: "While you were away:", then the
 * table, whose turn and the score, as C, T and S tell them. */
START_TEST(resume_catch_up)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char c[1024], tl[1024], sl[1024], line[4096];
	struct tty t;
	tty_start(&t, "play", "brouc", "--speech", "text", "--no-sound", "--seed", "1", "--lang", lang, NULL);
	await_named(&t);
	key_line(&t, "c", c, sizeof c);
	key_line(&t, "t", tl, sizeof tl);
	key_line(&t, "s", sl, sizeof sl);
	quit_game(&t);
	tty_start(&t, "--speech", "text", "--no-sound", "--lang", lang, NULL);
	fmt(line, sizeof line, _("Resume %s"), _("Le Brouc"));
	tty_expect(&t, "Brouc");
	tty_keys(&t, ENTER);
	tty_expect_line(&t, _("While you were away:"), line, sizeof line);
	ck_assert_msg(strstr(line, c), "%s / %s", line, c);
	/* Whose turn: the prompt right after (the player's turn). */
	tty_expect(&t, tl);
	ck_assert_msg(strstr(line, sl), "%s / %s", line, sl);
	quit_game(&t);
	remove_home();
}
END_TEST

/* L'Homme de Brou has its own entry in the main menu (by H): Le Brouc
 * with the variant of L'Homme de Brou. */
START_TEST(homme_in_menu)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256];
	struct tty t;
	tty_start(&t, "--speech", "text", "--no-sound", "--lang", lang, "--seed", "1", NULL);
	tty_expect(&t, _("Choose a game."));
	key_expect(&t, "h", _("L'Homme de Brou"));
	char fr[256];
	fmt(buf, sizeof buf, _("Options of %s."), _("L'Homme de Brou"));
	key_expect(&t, ENTER, strcmp(lang, "en") ? french_contract(buf, fr, sizeof fr) : buf);
	/* The first option, the variant: L'Homme de Brou already. */
	tty_expect(&t, _("Up and Down walk the options, Left and Right change them, Enter starts."));
	key_expect(&t, DOWN, C_("rule", "homme"));
	key_expect(&t, UP, _("Start the game."));
	tty_keys(&t, ENTER);
	tty_expect(&t, _("L'Homme de Brou, 4 players."));
	quit_game(&t);
	remove_home();
}
END_TEST

/* Bourré (seed 2, 4 players): the Stay item names the cards marked so
 * far, which the discard after it throws, the Pass item none, and the
 * discard's turn names them again. */
START_TEST(stay_names_marks)
{
	fresh_home();
	const char *lang = use_lang(_i);
	char buf[256], name[256], line[1024];
	struct tty t;
	tty_start(&t, "play", "bourre", "--players", "4", "--speech", "text", "--no-sound", "--seed", "2", "--lang",
	          lang, NULL);
	await_turn(&t);
	key_line(&t, " ", name, sizeof name);   /* "Nine of spades, to discard. 1 card to discard." */
	name[strcspn(name, ",")] = '\0';
	name[0] = (char)(name[0] >= 'A' && name[0] <= 'Z' ? name[0] - 'A' + 'a' : name[0]);
	fmt(buf, sizeof buf, P_("%1$d marked: %2$s.", "%1$d marked: %2$s.", 1), 1, name);
	key_line(&t, ENTER, line, sizeof line);
	ck_assert_msg(strstr(line, fmt(name, sizeof name, ", %1$d of %2$d.", 1, 2)), "%s", line);
	ck_assert_msg(strstr(line, buf), "%s / %s", line, buf);
	key_line(&t, DOWN, line, sizeof line);
	ck_assert_msg(strstr(line, fmt(name, sizeof name, ", %1$d of %2$d.", 2, 2)), "%s", line);
	ck_assert_msg(!strstr(line, buf), "%s / %s", line, buf);   /* a pass throws nothing */
	/* Stay: the discard's turn says what is marked. */
	key_line(&t, UP, line, sizeof line);
	tty_keys(&t, ENTER);
	tty_expect(&t, buf);
	quit_game(&t);
	remove_home();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("keys");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, menu_escape_asks, 0, 2);
	tcase_add_loop_test(tc, menu_back_one_level, 0, 2);
	tcase_add_loop_test(tc, menu_language, 0, 2);
	tcase_add_loop_test(tc, menu_after_game, 0, 2);
	tcase_add_loop_test(tc, menu_walk, 0, 2);
	tcase_add_loop_test(tc, menu_safe_first_no_wrap, 0, 2);
	tcase_add_loop_test(tc, typed_amounts, 0, 2);
	tcase_add_loop_test(tc, confirm_all_in, 0, 2);
	tcase_add_loop_test(tc, confirm_big_bet, 0, 2);
	tcase_add_loop_test(tc, confirm_fixed_bet, 0, 2);
	tcase_add_loop_test(tc, confirm_fold_resumed, 0, 2);
	tcase_add_loop_test(tc, hand_walk, 0, 2);
	tcase_add_loop_test(tc, history, 0, 2);
	tcase_add_loop_test(tc, bourre_marks, 0, 2);
	tcase_add_loop_test(tc, verbosity_key, 0, 2);
	tcase_add_loop_test(tc, tune_keys, 0, 2);
	tcase_add_loop_test(tc, verbosity_short, 0, 2);
	tcase_add_loop_test(tc, quit_and_resume, 0, 2);
	tcase_add_loop_test(tc, azerty_table, 0, 2);
	tcase_add_loop_test(tc, azerty_amount, 0, 2);
	tcase_add_loop_test(tc, selected_every_turn, 0, 2);
	tcase_add_loop_test(tc, f1_short_first, 0, 2);
	tcase_add_loop_test(tc, history_no_prompts, 0, 2);
	tcase_add_loop_test(tc, resume_catch_up, 0, 2);
	tcase_add_loop_test(tc, homme_in_menu, 0, 2);
	tcase_add_loop_test(tc, stay_names_marks, 0, 2);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
