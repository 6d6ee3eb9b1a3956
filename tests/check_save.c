/* SPDX-License-Identifier: GPL-3.0-or-later */
/* check_save: the saved game file. The checksum, the envelope read back,
 * a torn last line left out and cut before appending, damaged saves and
 * other formats refused, a save never replaced unless asked, a full disk
 * reported; a table saved and resumed from elsewhere to the same state, and
 * a replay that fails leaving the file untouched. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/registry.h"
#include "app/save.h"
#include "app/table.h"
#include "core/deckfile.h"
#include "games/bourre.h"

static char dir[256], path[512];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/tapis-save-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/game.save", dir);
}

static void remove_dir(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static char *slurp(const char *p, long *len)
{
	FILE *f = fopen(p, "rb");
	ck_assert_ptr_nonnull(f);
	char *buf = malloc(1 << 20);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	*len = (long)n;
	return buf;
}

static void spill(const char *p, const char *text, size_t n)
{
	FILE *f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	fclose(f);
}

static int entries(const char *d)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", d);
	return system(cmd) == 0 ? 1 : 0;
}

/* A save with two header lines and three records. */
static void make_save(void)
{
	struct save_writer w;
	char err[256];
	ck_assert_int_eq(save_create(&w, path, "game x\nseed 1\n", 1, err, sizeof err), 0);
	ck_assert_int_eq(save_append(&w, "action 0 pass", err, sizeof err), 0);
	ck_assert_int_eq(save_append(&w, "action 1 stay", err, sizeof err), 0);
	ck_assert_int_eq(save_sync(&w, err, sizeof err), 0);
	ck_assert_int_eq(save_append(&w, "action 2 play QH", err, sizeof err), 0);
	save_close(&w);
}

START_TEST(test_crc32)
{
	ck_assert_uint_eq(save_crc32(0, "123456789", 9), 0xCBF43926u);
	ck_assert_uint_eq(save_crc32(save_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
}
END_TEST

START_TEST(test_round_trip)
{
	make_dir();
	make_save();
	struct save_file f;
	char err[256];
	ck_assert_int_eq(save_read(path, &f, err, sizeof err), 0);
	ck_assert_int_eq(f.nheader, 2);
	ck_assert_str_eq(f.header[0], "game x");
	ck_assert_str_eq(f.header[1], "seed 1");
	ck_assert_int_eq(f.nrecords, 3);
	ck_assert_str_eq(f.records[2], "action 2 play QH");
	ck_assert_int_eq(f.record_line[0], 5);
	ck_assert_int_eq(f.torn, 0);
	long len;
	char *text = slurp(path, &len);
	ck_assert_int_eq(f.valid_len, len);
	ck_assert(strncmp(text, "tapis-save 2\n", 13) == 0);
	free(text);
	save_file_release(&f);
	ck_assert(entries(dir));   /* no temporary file left */
	remove_dir();
}
END_TEST

START_TEST(test_torn_line)
{
	make_dir();
	make_save();
	long len;
	char *text = slurp(path, &len);
	/* A crash in the middle of the fourth record. */
	FILE *fa = fopen(path, "ab");
	fputs("action 3 play ", fa);
	fclose(fa);
	struct save_file f;
	char err[256];
	ck_assert_int_eq(save_read(path, &f, err, sizeof err), 0);
	ck_assert_int_eq(f.torn, 1);
	ck_assert_int_eq(f.nrecords, 3);
	ck_assert_int_eq(f.valid_len, len);
	/* Going on: the torn bytes are cut, the checksums chain on. */
	struct save_writer w;
	ck_assert_int_eq(save_reopen(&w, path, f.valid_len, f.crc, err, sizeof err), 0);
	ck_assert_int_eq(save_append(&w, "action 3 play AS", err, sizeof err), 0);
	save_close(&w);
	save_file_release(&f);
	ck_assert_int_eq(save_read(path, &f, err, sizeof err), 0);
	ck_assert_int_eq(f.torn, 0);
	ck_assert_int_eq(f.nrecords, 4);
	ck_assert_str_eq(f.records[3], "action 3 play AS");
	save_file_release(&f);
	free(text);
	remove_dir();
}
END_TEST

/* Each damaged copy is refused with a message holding `words`. */
static void refused(const char *text, size_t n, const char *words)
{
	struct save_file f;
	char err[512] = "";
	ck_assert_msg(save_parse(text, n, "s", &f, err, sizeof err) < 0, "accepted: %.*s", (int)n, text);
	ck_assert_msg(strstr(err, words) != NULL, "'%s' does not say '%s'", err, words);
}

START_TEST(test_refused)
{
	make_dir();
	make_save();
	long len;
	char *text = slurp(path, &len);
	refused(text, 20, "cut short");                        /* in the header */
	refused(text, (size_t)(strstr(text, "header ") - text), "cut short");
	refused("", 0, "cut short");
	refused("hello\n", 6, "not a saved game");
	refused("tapis-save 3\ngame x\nheader 00000000\n", 35, "format 3");
	refused("tapis-save 1\ngame bourre\nplayers 4\n", 35, "format 1");
	char *copy = malloc((size_t)len + 1);
	memcpy(copy, text, (size_t)len + 1);
	*strstr(copy, "seed 1") = 'S';                           /* a header changed */
	refused(copy, (size_t)len, "checksum");
	memcpy(copy, text, (size_t)len + 1);
	memcpy(strstr(copy, "1 stay"), "1 pass", 6);             /* a record changed */
	refused(copy, (size_t)len, ":6: damaged");
	memcpy(copy, text, (size_t)len + 1);
	char *third = strstr(copy, "action 2");                /* a record lost */
	char *second = strstr(copy, "action 1");
	memmove(second, third, strlen(third) + 1);
	refused(copy, strlen(copy), "checksum");
	free(copy);
	free(text);
	remove_dir();
}
END_TEST

START_TEST(test_never_replaced)
{
	make_dir();
	make_save();
	long len;
	char *before = slurp(path, &len);
	struct save_writer w;
	char err[256];
	errno = 0;
	ck_assert_int_eq(save_create(&w, path, "game y\n", 0, err, sizeof err), -1);
	ck_assert_int_eq(errno, EEXIST);
	long len2;
	char *after = slurp(path, &len2);
	ck_assert_int_eq(len, len2);
	ck_assert(memcmp(before, after, (size_t)len) == 0);
	ck_assert(entries(dir));
	free(after);
	/* Replacing a symbolic link replaces the link, never what it points to. */
	char victim[600];
	snprintf(victim, sizeof victim, "%s/victim", dir);
	spill(victim, "keep me\n", 8);
	unlink(path);
	ck_assert_int_eq(symlink(victim, path), 0);
	ck_assert_int_eq(save_create(&w, path, "game y\n", 1, err, sizeof err), 0);
	save_close(&w);
	after = slurp(victim, &len2);
	ck_assert_str_eq(after, "keep me\n");
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	free(after);
	free(before);
	remove_dir();
}
END_TEST

START_TEST(test_full_disk)
{
	struct save_writer w;
	save_writer_init(&w);
	w.fd = open("/dev/full", O_WRONLY);
	ck_assert_int_ge(w.fd, 0);
	char err[256];
	errno = 0;
	ck_assert_int_eq(save_append(&w, "action 0 pass", err, sizeof err), -1);
	ck_assert_int_eq(errno, ENOSPC);
	save_close(&w);
}
END_TEST

static void bot_options(struct table_options *o)
{
	memset(o, 0, sizeof *o);
	o->game = registry_ops("bourre");
	ck_assert_ptr_nonnull(o->game);
	o->players = 4;
	o->dealer = -1;
	o->seed = 77;
	rules_init(&o->rules, o->game->rules, o->game->nrules);
	for (int s = 0; s < 4; s++) {
		o->seat_kind[s] = SEAT_BOT;
		o->bot_level[s] = 1;
	}
}

static void play_saved(struct table *t, int nactions)
{
	char err[256];
	while (t->nplayed < nactions && table_to_act(t) >= 0)
		ck_assert_int_eq(table_auto_step(t, err, sizeof err), 0);
}

/* A table (malloc'd) started and saving to path. */
static struct table *open_saved(const struct table_options *o)
{
	struct table *t = malloc(sizeof *t);
	char err[512];
	ck_assert_ptr_nonnull(t);
	ck_assert_msg(table_open(t, o, err, sizeof err) == 0, "%s", err);
	table_start(t);
	ck_assert_int_eq(table_save_begin(t, path, 0), 0);
	return t;
}

/* A table (t, closed) opened from a save and its actions played again. */
static void resume_saved(struct table *t, struct table_saved *s)
{
	char err[512];
	ck_assert_msg(table_open(t, &s->opt, err, sizeof err) == 0, "%s", err);
	table_start(t);
	ck_assert_msg(table_replay(t, &s->actions, err, sizeof err) == 0, "%s", err);
}

START_TEST(test_table_resume_elsewhere)
{
	make_dir();
	/* Stacked packs from a file named relative to the directory of play. */
	char deckp[600], cwd[4096];
	snprintf(deckp, sizeof deckp, "%s/my.deck", dir);
	const struct game_ops *g = registry_ops("bourre");
	struct table_options o;
	bot_options(&o);
	card_t pack[CARD_MAX_PACK];
	char err[512];
	int n = g->pack(&o.rules, 4, pack, err, sizeof err);
	ck_assert_int_gt(n, 0);
	char text[1024] = "";
	for (int i = n - 1; i >= 0; i--) {
		char c[8];
		strcat(text, card_str(pack[i], c));
		strcat(text, " ");
	}
	strcat(text, "\n");
	spill(deckp, text, strlen(text));
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(chdir(dir), 0);
	o.deck_path = "my.deck";
	struct table *t = open_saved(&o);
	play_saved(t, 150);
	ck_assert_int_eq(t->nplayed, 150);
	void *want = malloc(g->state_size);
	memcpy(want, t->st, g->state_size);
	table_close(t);
	/* The deck file gone, from another directory. */
	unlink(deckp);
	ck_assert_int_eq(chdir("/"), 0);
	struct table_saved *s = malloc(sizeof *s);
	ck_assert_msg(table_read_save(path, s, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(s->opt.deck_stack);
	ck_assert_int_eq(s->actions.n, 150);
	resume_saved(t, s);
	/* The same state, but for where each table keeps its stacked packs. */
	((struct bourre_state *)want)->stack = NULL;
	struct bourre_state got = *(struct bourre_state *)t->st;
	got.stack = NULL;
	ck_assert(memcmp(want, &got, g->state_size) == 0);
	/* Going on appends to the same save. */
	ck_assert_int_eq(table_save_resume(t, path, s), 0);
	play_saved(t, 160);
	table_close(t);
	table_saved_release(s);
	ck_assert_int_eq(table_read_save(path, s, err, sizeof err), 0);
	ck_assert_int_eq(s->actions.n, 160);
	table_saved_release(s);
	ck_assert_int_eq(chdir(cwd), 0);
	free(s);
	free(t);
	free(want);
	remove_dir();
}
END_TEST

START_TEST(test_failed_replay_keeps_the_file)
{
	make_dir();
	struct table_options o;
	bot_options(&o);
	char err[512];
	struct table *t = open_saved(&o);
	play_saved(t, 20);
	table_close(t);
	long len;
	char *before = slurp(path, &len);
	struct table_saved *s = malloc(sizeof *s);
	ck_assert_int_eq(table_read_save(path, s, err, sizeof err), 0);
	/* The eighth action no longer applies (a rule of the game changed, say). */
	s->actions.lines[8].act.kind = ACT_BUYBACK;
	ck_assert_int_eq(table_open(t, &s->opt, err, sizeof err), 0);
	table_start(t);
	ck_assert_int_eq(table_replay(t, &s->actions, err, sizeof err), -1);
	table_close(t);
	table_saved_release(s);
	long len2;
	char *after = slurp(path, &len2);
	ck_assert_int_eq(len, len2);
	ck_assert(memcmp(before, after, (size_t)len) == 0);
	free(before);
	free(after);
	free(s);
	free(t);
	remove_dir();
}
END_TEST

/* Zeros at the end of a save (a crash before the data reached the disk)
 * are left out and cut before appending; a NUL byte followed by anything
 * else is damage. */
START_TEST(test_nul_bytes)
{
	make_dir();
	struct table_options o;
	bot_options(&o);
	char err[512];
	struct table *t = open_saved(&o);
	play_saved(t, 12);
	table_close(t);
	long len;
	char *text = slurp(path, &len);
	FILE *f = fopen(path, "ab");
	fwrite("\0\0\0\0\0\0", 1, 6, f);
	fclose(f);
	struct table_saved *s = malloc(sizeof *s);
	ck_assert_msg(table_read_save(path, s, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(s->actions.n, 12);
	ck_assert_int_eq(s->valid_len, len);
	resume_saved(t, s);
	ck_assert_int_eq(table_save_resume(t, path, s), 0);
	play_saved(t, 13);
	table_close(t);
	table_saved_release(s);
	ck_assert_int_eq(table_read_save(path, s, err, sizeof err), 0);
	ck_assert_int_eq(s->actions.n, 13);
	table_saved_release(s);
	/* A NUL inside. */
	text[len / 2] = '\0';
	spill(path, text, (size_t)len);
	ck_assert_int_eq(table_read_save(path, s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "NUL") != NULL, "%s", err);
	free(text);
	free(s);
	free(t);
	remove_dir();
}
END_TEST

START_TEST(test_save_failure_said_once)
{
	make_dir();
	struct table_options o;
	bot_options(&o);
	char err[512];
	struct table *t = open_saved(&o);
	/* The disk fills up: the game goes on, unsaved. */
	close(t->save.fd);
	t->save.fd = open("/dev/full", O_WRONLY);
	play_saved(t, 40);
	ck_assert_int_eq(t->nplayed, 40);
	ck_assert_int_eq(t->save_failed, 1);
	ck_assert_int_eq(table_saving(t), 0);
	table_close(t);
	/* No place for saves at all. */
	ck_assert_int_eq(table_open(t, &o, err, sizeof err), 0);
	table_start(t);
	ck_assert_int_eq(table_save_begin(t, NULL, 0), -1);
	ck_assert_int_eq(t->save_failed, 1);
	play_saved(t, 10);
	ck_assert_int_eq(t->nplayed, 10);
	table_close(t);
	free(t);
	remove_dir();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("save");
	TCase *t = tcase_create("save");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_crc32);
	tcase_add_test(t, test_round_trip);
	tcase_add_test(t, test_torn_line);
	tcase_add_test(t, test_refused);
	tcase_add_test(t, test_never_replaced);
	tcase_add_test(t, test_full_disk);
	tcase_add_test(t, test_table_resume_elsewhere);
	tcase_add_test(t, test_failed_replay_keeps_the_file);
	tcase_add_test(t, test_nul_bytes);
	tcase_add_test(t, test_save_failure_said_once);
	suite_add_tcase(s, t);
	return tu_run(s);
}
