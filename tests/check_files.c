/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The files tapis reads and writes: the one reader refuses devices, FIFOs,
 * huge files and NUL bytes; long lines are refused, never cut; numbers are
 * strict; a file's control characters are escaped in messages; the hand
 * history is on disk after every event; a catalogue whose translation does
 * not match its msgid's printf directives falls back to the English. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/registry.h"
#include "core/action.h"
#include "core/card.h"
#include "core/deckfile.h"
#include "core/event.h"
#include "core/game.h"
#include "core/history.h"
#include "core/rules.h"
#include "core/script.h"
#include "i18n/i18n.h"
#include "testutil.h"

static char tmpdir[256];

static void make_tmpdir(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(tmpdir, sizeof tmpdir, "%s/tapis-files-XXXXXX", dir);
	ck_assert(mkdtemp(tmpdir) != NULL);
}

static void remove_tmpdir(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert(system(cmd) == 0);
}

/* tmpdir/name holding len bytes of text; the path into buf. */
static void write_file(char *buf, size_t buflen, const char *name, const char *text, size_t len)
{
	snprintf(buf, buflen, "%s/%s", tmpdir, name);
	FILE *f = fopen(buf, "wb");
	ck_assert(f != NULL);
	ck_assert(fwrite(text, 1, len, f) == len);
	ck_assert(fclose(f) == 0);
}

static int no_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static const card_t *bourre_pack(int *n)
{
	static card_t pack[CARD_MAX_PACK];
	static int np;
	if (!np) {
		char err[256];
		struct rules r;
		const struct game_ops *g = registry_ops("bourre");
		rules_init(&r, g->rules, g->nrules);
		np = g->pack(&r, 4, pack, err, sizeof err);
		ck_assert(np > 0);
	}
	*n = np;
	return pack;
}

/* A device, a FIFO, a huge file: refused at once (a FIFO without a writer
 * must not block), by every reader that takes a path. */
START_TEST(not_regular)
{
	make_tmpdir();
	char fifo[300], err[512];
	snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
	ck_assert(mkfifo(fifo, 0600) == 0);
	struct deckstack ds;
	struct script sc;
	int n;
	const card_t *pack = bourre_pack(&n);
	ck_assert_int_eq(deckfile_load("/dev/zero", pack, n, &ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "/dev/zero: not a regular file"), "%s", err);
	ck_assert_int_eq(deckfile_load(fifo, pack, n, &ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	ck_assert_int_eq(script_load(&sc, fifo, 4, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	ck_assert_int_eq(script_load(&sc, tmpdir, 4, err, sizeof err), -1);
	/* 17 MiB (sparse): over the limit, refused before reading. */
	char big[300];
	snprintf(big, sizeof big, "%s/big", tmpdir);
	FILE *f = fopen(big, "wb");
	ck_assert(f != NULL);
	ck_assert(ftruncate(fileno(f), (off_t)17 << 20) == 0);
	fclose(f);
	ck_assert_int_eq(deckfile_load(big, pack, n, &ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "larger than 16 MiB"), "%s", err);
	remove_tmpdir();
}
END_TEST

/* A NUL byte is not the end of a file: what follows it is not ignored. */
START_TEST(nul_byte)
{
	make_tmpdir();
	char path[300], err[512];
	int n;
	const card_t *pack = bourre_pack(&n);
	struct deckstack ds;
	/* The game's pack on three lines. */
	char deck[512];
	size_t len = (size_t)snprintf(deck, sizeof deck, "# a pack\n");
	for (int i = 0; i < n; i++) {
		char c[CARD_STR_MAX];
		len += (size_t)snprintf(deck + len, sizeof deck - len, "%s%s", card_str(pack[i], c),
		                        i == n / 2 || i == n - 1 ? "\n" : " ");
	}
	write_file(path, sizeof path, "good.deck", deck, len);
	ck_assert_msg(deckfile_load(path, pack, n, &ds, err, sizeof err) == 0, "%s", err);
	char bad[sizeof deck + 8];
	memcpy(bad, deck, len);
	memcpy(bad + len, "\0ZZ 1X\n", 7);
	write_file(path, sizeof path, "nul.deck", bad, len + 7);
	ck_assert_int_eq(deckfile_load(path, pack, n, &ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "nul.deck:4: a NUL byte"), "%s", err);
	struct script sc;
	write_file(path, sizeof path, "nul.actions", "0 pass\n\0" "1 dance\n", 16);
	ck_assert_int_eq(script_load(&sc, path, 4, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "nul.actions:2: a NUL byte"), "%s", err);
	remove_tmpdir();
}
END_TEST

/* A line longer than the limit is refused naming it: 600 spaces must not
 * push the rest of the line out of sight. */
START_TEST(long_lines)
{
	char text[2048], err[512];
	struct script sc;
	snprintf(text, sizeof text, "0 pass\n1 pass%600s dance\n", "");
	ck_assert_int_eq(script_parse(&sc, text, "long.actions", 4, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "long.actions:2: a line longer than"), "%s", err);
	/* Within the line limit but past what an action holds. */
	snprintf(text, sizeof text, "1 pass%300s dance\n", "");
	ck_assert_int_eq(script_parse(&sc, text, "long.actions", 4, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "long.actions:1:"), "%s", err);
	struct action a;
	snprintf(text, sizeof text, "pass%300s dance", "");
	ck_assert_int_eq(act_parse(text, &a, err, sizeof err), -1);
	/* A long comment is fine within the limit. */
	snprintf(text, sizeof text, "1 pass # %400s\n", "a comment");
	ck_assert_msg(script_parse(&sc, text, "ok.actions", 4, err, sizeof err) == 0, "%s", err);
	script_release(&sc);
}
END_TEST

/* Numbers: digits only, a sign only where negative numbers exist. */
START_TEST(strict_numbers)
{
	const struct game_ops *g = registry_ops("bourre");
	struct rules r;
	char err[512];
	rules_init(&r, g->rules, g->nrules);
	static const char *const bad[] = { " 5", "+5", "5 ", "", "0x5", "5\n", "05a", "99999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(rules_set(&r, "hands", bad[i], err, sizeof err) < 0, "hands='%s' accepted", bad[i]);
	ck_assert_msg(rules_set(&r, "hands", "5", err, sizeof err) == 0, "%s", err);
	struct action a;
	ck_assert_int_eq(act_parse("raise +3", &a, err, sizeof err), -1);
	ck_assert_int_eq(act_parse("raise 3", &a, err, sizeof err), 0);
	ck_assert_int_eq(a.amount, 3);
	struct script sc;
	ck_assert_int_eq(script_parse(&sc, "+1 pass\n", "a", 4, err, sizeof err), -1);
	ck_assert_int_eq(script_parse(&sc, "-0 pass\n", "a", 4, err, sizeof err), -1);
	ck_assert_int_eq(script_parse(&sc, "1 pass\n", "a", 4, err, sizeof err), 0);
	script_release(&sc);
}
END_TEST

/* Text of a file quoted in a message never reaches the terminal raw. */
START_TEST(control_characters)
{
	char err[512];
	int n;
	const card_t *pack = bourre_pack(&n);
	struct deckstack ds;
	ck_assert_int_eq(deckfile_parse("7S \033[2J\033]0;x\007 8S\n", "esc.deck", pack, n, &ds, err, sizeof err), -1);
	ck_assert_msg(no_control(err), "raw control character in: %s", err);
	ck_assert_msg(strstr(err, "\\x1b[2J\\x1b]0;x\\x07"), "%s", err);
	struct script sc;
	ck_assert_int_eq(script_parse(&sc, "0 pl\033[2Jay\n", "esc.actions", 4, err, sizeof err), -1);
	ck_assert_msg(no_control(err) && strstr(err, "\\x1b"), "%s", err);
	ck_assert_int_eq(script_parse(&sc, "\033[31m0 pass\n", "esc.actions", 4, err, sizeof err), -1);
	ck_assert_msg(no_control(err) && strstr(err, "\\x1b"), "%s", err);
	ck_assert_int_eq(script_parse(&sc, "0 play Q\033H\n", "esc.actions", 4, err, sizeof err), -1);
	ck_assert_msg(no_control(err) && strstr(err, "\\x1b"), "%s", err);
	ck_assert_int_eq(script_parse(&sc, "0 raise 1\177\n", "esc.actions", 4, err, sizeof err), -1);
	ck_assert_msg(no_control(err) && strstr(err, "\\x7f"), "%s", err);
}
END_TEST

/* Every line of the hand history is on disk as soon as its event is
 * emitted: a game killed now leaves a log up to its last action. */
START_TEST(history_flushed)
{
	make_tmpdir();
	char path[300], err[512];
	snprintf(path, sizeof path, "%s/game.jsonl", tmpdir);
	struct history h;
	ck_assert(hist_open(&h, path, err, sizeof err) == 0);
	const struct game_ops *g = registry_ops("bourre");
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	hist_game_start(&h, "bourre", 4, 7, NULL, &r, NULL);
	struct event e;
	ev_init(&e, EV_ACTION);
	e.seat = 1;
	e.act = act_simple(ACT_PASS);
	hist_event(&h, &e);
	/* Read through another descriptor while the history is still open. */
	char *text = deckfile_slurp(path, err, sizeof err);
	ck_assert_msg(text != NULL, "%s", err);
	ck_assert_msg(strstr(text, "\"type\":\"game_start\"") && strstr(text, "\"action\":\"pass\"}\n"),
	              "not on disk yet: %s", text);
	free(text);
	hist_release(&h);
	remove_tmpdir();
}
END_TEST

/* ---- catalogues ---- */

struct mo_entry {
	const char *id;     /* msgid, with "\0plural" when len_id says so */
	size_t len_id;
	const char *str;    /* msgstr, forms separated by NUL */
	size_t len_str;
};

/* A little-endian .mo image of entries sorted by msgid (malloc'd). */
static char *mo_build(const struct mo_entry *e, int n, size_t *size)
{
	size_t head = 28, tables = (size_t)16 * (size_t)n, strings = 0;
	for (int i = 0; i < n; i++)
		strings += e[i].len_id + 1 + e[i].len_str + 1;
	*size = head + tables + strings;
	char *m = calloc(1, *size);
	ck_assert(m != NULL);
	uint32_t w[7] = { 0x950412deu, 0, (uint32_t)n, 28, 28 + 8 * (uint32_t)n, 0, 0 };
	memcpy(m, w, sizeof w);
	size_t at = head + tables;
	for (int i = 0; i < n; i++) {
		uint32_t d[2] = { (uint32_t)e[i].len_id, (uint32_t)at };
		memcpy(m + 28 + 8 * i, d, 8);
		memcpy(m + at, e[i].id, e[i].len_id);
		at += e[i].len_id + 1;
	}
	for (int i = 0; i < n; i++) {
		uint32_t d[2] = { (uint32_t)e[i].len_str, (uint32_t)at };
		memcpy(m + 28 + 8 * (size_t)n + 8 * i, d, 8);
		memcpy(m + at, e[i].str, e[i].len_str);
		at += e[i].len_str + 1;
	}
	return m;
}

#define MO(id, str) { id, sizeof id - 1, str, sizeof str - 1 }

START_TEST(catalogue_formats)
{
	static const struct mo_entry entries[] = {
		MO("%1$s takes %2$d.", "%2$d pour %1$s."),             /* reordered: fine */
		MO("%d card\0%d cards", "une carte\0%d cartes"),        /* a plural form without the number */
		MO("%d chips", "%s jetons"),                            /* wrong type */
		MO("%s plays.", "%s joue %s."),                         /* one more argument */
		MO("%s wins.", "%n gagne."),                            /* %n */
		MO("Hello.", "Bonjour %s."),                            /* an argument for no argument */
		MO("Pot: %d.", "Pot : %d %%."),                         /* %% is text */
		MO("Seat %1$d, %2$s.", "Place %2$s."),                  /* a hole in the positions */
		MO("You.", "Vous."),
		MO("card\004%d", "%ld"),                                /* context; wrong length */
		MO("x %d %s", "x %d %"),                                /* cut directive */
	};
	size_t size;
	char *mo = mo_build(entries, (int)(sizeof entries / sizeof entries[0]), &size);
	char err[256];
	ck_assert_msg(i18n_load_buffer(mo, size, "test.mo", err, sizeof err) == 0, "%s", err);
	free(mo);
	ck_assert_str_eq(i18n_get("%1$s takes %2$d."), "%2$d pour %1$s.");
	ck_assert_str_eq(i18n_nget("%d card", "%d cards", 1), "une carte");
	ck_assert_str_eq(i18n_nget("%d card", "%d cards", 3), "%d cartes");
	ck_assert_str_eq(i18n_get("%d chips"), "%d chips");
	ck_assert_str_eq(i18n_get("%s plays."), "%s plays.");
	ck_assert_str_eq(i18n_get("%s wins."), "%s wins.");
	ck_assert_str_eq(i18n_get("Hello."), "Hello.");
	ck_assert_str_eq(i18n_get("Pot: %d."), "Pot : %d %%.");
	ck_assert_str_eq(i18n_get("Seat %1$d, %2$s."), "Seat %1$d, %2$s.");
	ck_assert_str_eq(i18n_get("You."), "Vous.");
	ck_assert_str_eq(i18n_pget("card", "%d"), "%d");
	ck_assert_str_eq(i18n_get("x %d %s"), "x %d %s");
	ck_assert_int_eq((int)i18n_refused(), 7);
	i18n_release();
	/* The catalogues of the project are whole. */
	ck_assert_msg(i18n_set_lang("fr", err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq((int)i18n_refused(), 0);
	i18n_release();
}
END_TEST

/* A msgid looked up again at the same address: in a buffer that now holds
 * another text, the other text's translation (or none). */
START_TEST(catalogue_same_address)
{
	static const struct mo_entry entries[] = {
		MO("One.", "Un."),
		MO("Two.", "Deux."),
		MO("%d card\0%d cards", "%d carte\0%d cartes"),
		MO("%d cards\0%d cardz", "%d paquet\0%d paquets"),
	};
	size_t size;
	char *mo = mo_build(entries, (int)(sizeof entries / sizeof entries[0]), &size);
	char err[256];
	ck_assert_msg(i18n_load_buffer(mo, size, "test.mo", err, sizeof err) == 0, "%s", err);
	free(mo);
	char buf[32];
	static const char *const texts[][2] = {
		{ "One.", "Un." }, { "Two.", "Deux." }, { "One.", "Un." }, { "One", NULL },
		{ "One..", NULL }, { "Two.", "Deux." }, { "", NULL }, { "Two.", "Deux." },
	};
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
			snprintf(buf, sizeof buf, "%s", texts[i][0]);
			ck_assert_str_eq(i18n_get(buf), texts[i][1] ? texts[i][1] : texts[i][0]);
		}
	snprintf(buf, sizeof buf, "%%d card");
	ck_assert_str_eq(i18n_nget(buf, "%d cards", 2), "%d cartes");
	snprintf(buf, sizeof buf, "%%d cards");
	ck_assert_str_eq(i18n_nget(buf, "%d cardz", 2), "%d paquets");
	snprintf(buf, sizeof buf, "%%d car");
	ck_assert_str_eq(i18n_nget(buf, "%d cars", 2), "%d cars");
	i18n_release();
	/* Another catalogue at the same place. */
	static const struct mo_entry others[] = { MO("One.", "Eins.") };
	mo = mo_build(others, 1, &size);
	ck_assert_msg(i18n_load_buffer(mo, size, "test.mo", err, sizeof err) == 0, "%s", err);
	free(mo);
	snprintf(buf, sizeof buf, "One.");
	ck_assert_str_eq(i18n_get(buf), "Eins.");
	i18n_release();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("files");
	TCase *tc = tcase_create("files");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, not_regular);
	tcase_add_test(tc, catalogue_same_address);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, long_lines);
	tcase_add_test(tc, strict_numbers);
	tcase_add_test(tc, control_characters);
	tcase_add_test(tc, history_flushed);
	tcase_add_test(tc, catalogue_formats);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
