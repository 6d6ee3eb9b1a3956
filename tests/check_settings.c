/* SPDX-License-Identifier: GPL-3.0-or-later */
/* check_settings: the settings file: round trip, parsing, a bad file set
 * aside, atomic save creating the directory, steps. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audio/audio.h"
#include "app/session.h"
#include "app/settings.h"

static char dir[256];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/tapis-settings-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
}

static void remove_dir(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Settings that cannot be saved (their file's place taken by a folder,
 * as unwritable as a read-only one, even for root): the player hears so
 * once, in their language, after the answer to the key that changed
 * them, not cut off by it. */
START_TEST(test_unsaved_said_once)
{
	make_dir();
	char p[1024];
	snprintf(p, sizeof p, "%s/tapis", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/tapis/settings", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	struct session_request req = { "fr", NULL, 1, 0, 1, 0, NULL };
	struct session s;
	session_open(&s, &req);
	FILE *out = tmpfile();
	ck_assert_ptr_nonnull(out);
	s.sp.out = out;
	for (int k = 0; k < 3; k++) {
		session_tune(&s, SESSION_RATE, 1);
		for (int i = 0; i < 20; i++)
			session_pump(&s);
	}
	session_close(&s);
	char text[8192];
	rewind(out);
	size_t n = fread(text, 1, sizeof text - 1, out);
	text[n] = '\0';
	fclose(out);
	int said = 0;
	for (const char *q = text; (q = strstr(q, "Réglages non enregistrés")); q++)
		said++;
	ck_assert_msg(said == 1, "said %d times: %s", said, text);
	/* After the answer (which interrupts what is queued before it). */
	const char *answer = strstr(text, "Vitesse de la voix"), *why = strstr(text, "Réglages non enregistrés");
	ck_assert_msg(answer && why && answer < why, "the answer after the notice: %s", text);
	ck_assert_msg(strstr(text, "Les changements de réglages valent jusqu'à ce que vous quittiez."), "%s", text);
	remove_dir();
}
END_TEST

START_TEST(test_path)
{
	char p[1024];
	make_dir();
	ck_assert_int_eq(settings_path(p, sizeof p), 0);
	char want[1024];
	snprintf(want, sizeof want, "%s/tapis/settings", dir);
	ck_assert_str_eq(p, want);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/someone", 1);
	ck_assert_int_eq(settings_path(p, sizeof p), 0);
	ck_assert_str_eq(p, "/home/someone/.config/tapis/settings");
	remove_dir();
}
END_TEST

START_TEST(test_round_trip)
{
	struct settings s, t;
	char msg[512];
	make_dir();
	settings_default(&s);
	/* no file: defaults */
	ck_assert_int_eq(settings_load(&t, msg, sizeof msg), SETTINGS_ABSENT);
	ck_assert_mem_eq(&s, &t, sizeof s);
	snprintf(s.lang, sizeof s.lang, "fr");
	snprintf(s.speech, sizeof s.speech, "speechd");
	s.voice.rate = 475;
	s.voice.pitch = 30;
	s.voice.volume = 80;
	snprintf(s.voice.voice, sizeof s.voice.voice, "fr+f3");
	s.voice.pause = 0.25;
	s.cue_volume = 40;
	s.speech_volume = 90;
	s.hrtf = AUDIO_HRTF_AUTO;
	/* the directory is created */
	ck_assert_int_eq(settings_save(&s, msg, sizeof msg), SETTINGS_OK);
	ck_assert_int_eq(settings_load(&t, msg, sizeof msg), SETTINGS_OK);
	ck_assert_str_eq(t.lang, "fr");
	ck_assert_str_eq(t.speech, "speechd");
	ck_assert_int_eq(t.voice.rate, 475);
	ck_assert_int_eq(t.voice.pitch, 30);
	ck_assert_int_eq(t.voice.volume, 80);
	ck_assert_str_eq(t.voice.voice, "fr+f3");
	ck_assert(t.voice.pause > 0.249 && t.voice.pause < 0.251);
	ck_assert_int_eq(t.cue_volume, 40);
	ck_assert_int_eq(t.speech_volume, 90);
	ck_assert_int_eq(t.hrtf, AUDIO_HRTF_AUTO);
	/* saved again over the old file, nothing left behind */
	t.voice.rate = 900;
	ck_assert_int_eq(settings_save(&t, msg, sizeof msg), SETTINGS_OK);
	ck_assert_int_eq(settings_load(&s, msg, sizeof msg), SETTINGS_OK);
	ck_assert_int_eq(s.voice.rate, 900);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test $(ls -A '%s/tapis' | wc -l) -eq 1", dir);
	ck_assert_int_eq(system(cmd), 0);
	remove_dir();
}
END_TEST

START_TEST(test_parse)
{
	struct settings s;
	char err[128];
	settings_default(&s);
	ck_assert_int_eq(settings_parse(&s,
	                                "# a comment\n"
	                                "\n"
	                                "  rate=600  \r\n"
	                                "hrtf = off\n"
	                                "future_key = whatever it is\n"
	                                "voice =\n"
	                                "pitch = 250\n"         /* brought back in range */
	                                "speech_volume = -4\n"
	                                "lang =\n"
	                                "pause = 20",
	                                err, sizeof err), 0);
	ck_assert_int_eq(s.voice.rate, 600);
	ck_assert_int_eq(s.hrtf, AUDIO_HRTF_OFF);
	ck_assert_str_eq(s.voice.voice, "");
	ck_assert_int_eq(s.voice.pitch, 100);
	ck_assert_int_eq(s.speech_volume, 0);
	ck_assert_str_eq(s.lang, "");
	ck_assert(s.voice.pause == SETTINGS_PAUSE_MAX);
	ck_assert_int_eq(settings_parse(&s, "rate 300\n", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "line 1"));
	ck_assert_int_eq(settings_parse(&s, "\nrate = fast\n", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "line 2"));
	ck_assert_int_eq(settings_parse(&s, "lang = de\n", err, sizeof err), -1);
	ck_assert_int_eq(settings_parse(&s, "hrtf = maybe\n", err, sizeof err), -1);
	ck_assert_int_eq(settings_parse(&s, "= 3\n", err, sizeof err), -1);
	ck_assert_int_eq(settings_parse(&s, "voice = a b\n", err, sizeof err), -1);
	ck_assert_int_eq(settings_parse(&s, "pause = soon\n", err, sizeof err), -1);
}
END_TEST

START_TEST(test_bad_file_set_aside)
{
	struct settings s, def;
	char msg[512], path[1024], bad[1100];
	make_dir();
	settings_default(&def);
	ck_assert_int_eq(settings_path(path, sizeof path), 0);
	snprintf(bad, sizeof bad, "%s.bad", path);
	snprintf(msg, sizeof msg, "%s/tapis", dir);
	ck_assert_int_eq(mkdir(msg, 0700), 0);
	write_file(path, "rate = 500\nthis line means nothing\n");
	ck_assert_int_eq(settings_load(&s, msg, sizeof msg), SETTINGS_BAD);
	ck_assert(msg[0] != 0);
	ck_assert_ptr_nonnull(strstr(msg, "settings.bad"));
	ck_assert_mem_eq(&s, &def, sizeof s);   /* defaults, not half of the file */
	ck_assert(!exists(path));
	ck_assert(exists(bad));
	/* next time: no file, defaults, and a save works */
	ck_assert_int_eq(settings_load(&s, msg, sizeof msg), SETTINGS_ABSENT);
	ck_assert_int_eq(settings_save(&s, msg, sizeof msg), SETTINGS_OK);
	ck_assert_int_eq(settings_load(&s, msg, sizeof msg), SETTINGS_OK);
	/* binary junk */
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite("rate = 3\0\0\1", 1, 11, f);
	fclose(f);
	ck_assert_int_eq(settings_load(&s, msg, sizeof msg), SETTINGS_BAD);
	remove_dir();
}
END_TEST

START_TEST(test_save_error)
{
	struct settings s;
	char msg[512];
	settings_default(&s);
	ck_assert_int_eq(settings_save_file(&s, "/proc/no/such/dir/settings", msg, sizeof msg),
	                 SETTINGS_ERROR);
	ck_assert(msg[0] != 0);
}
END_TEST

START_TEST(test_steps)
{
	struct settings s;
	settings_default(&s);
	s.voice.rate = 80;
	ck_assert_int_eq(settings_step_rate(&s, -1), 80);
	ck_assert_int_eq(settings_step_rate(&s, 1), 100);
	s.voice.rate = 380;
	ck_assert_int_eq(settings_step_rate(&s, 1), 400);
	ck_assert_int_eq(settings_step_rate(&s, 1), 450);
	ck_assert_int_eq(settings_step_rate(&s, -1), 400);
	ck_assert_int_eq(settings_step_rate(&s, -1), 380);
	s.voice.rate = 880;
	ck_assert_int_eq(settings_step_rate(&s, 1), 900);
	ck_assert_int_eq(settings_step_rate(&s, 1), 900);
	/* the whole range is reachable both ways */
	int steps = 0;
	while (s.voice.rate > SETTINGS_RATE_MIN && steps < 100) {
		settings_step_rate(&s, -1);
		steps++;
	}
	ck_assert_int_eq(s.voice.rate, SETTINGS_RATE_MIN);
	ck_assert_int_lt(steps, 40);
	s.cue_volume = 95;
	ck_assert_int_eq(settings_step_cue_volume(&s, 1), 100);
	ck_assert_int_eq(settings_step_cue_volume(&s, 1), 100);
	ck_assert_int_eq(settings_step_cue_volume(&s, -1), 90);
	s.speech_volume = 5;
	ck_assert_int_eq(settings_step_speech_volume(&s, -1), 0);
	ck_assert_int_eq(settings_step_speech_volume(&s, -1), 0);
	s.speech_volume = 33;
	ck_assert_int_eq(settings_step_speech_volume(&s, -1), 30);
	ck_assert_int_eq(settings_step_speech_volume(&s, 1), 40);
	ck_assert_int_eq(settings_step_volume(&s, 1), 100);
	s.voice.pitch = 50;
	ck_assert_int_eq(settings_step_pitch(&s, -1), 40);
	/* The braille hold: 2 by default, by steps to 60 and down to 0 (at
	 * once); a value between steps from the file goes to the next. */
	ck_assert_int_eq(settings_step_braille_hold(&s, 1), 3);
	ck_assert_int_eq(settings_step_braille_hold(&s, -1), 2);
	s.braille_hold = 0.08;
	ck_assert_int_eq(settings_step_braille_hold(&s, 1), 1);
	s.braille_hold = 0.08;
	ck_assert_int_eq(settings_step_braille_hold(&s, -1), 0);
	ck_assert_int_eq(settings_step_braille_hold(&s, -1), 0);
	ck_assert(s.braille_hold == 0);
	s.braille_hold = 25;
	ck_assert_int_eq(settings_step_braille_hold(&s, 1), 30);
	ck_assert_int_eq(settings_step_braille_hold(&s, 1), 60);
	ck_assert_int_eq(settings_step_braille_hold(&s, 1), 60);
	ck_assert(s.braille_hold <= SETTINGS_BRAILLE_HOLD_MAX);
	/* Kept as the file writes it. */
	char text[4096];
	settings_format(&s, text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "braille_hold = 60.00"));
	struct audio_options o;
	audio_options_default(&o);
	s.hrtf = AUDIO_HRTF_OFF;
	settings_audio_options(&s, &o);
	ck_assert_int_eq(o.hrtf, AUDIO_HRTF_OFF);
	ck_assert_int_eq(o.cue_volume, s.cue_volume);
	ck_assert_int_eq(o.speech_volume, s.speech_volume);
	ck_assert_str_eq(settings_hrtf_word(AUDIO_HRTF_AUTO), "auto");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("settings");
	TCase *t = tcase_create("settings");
	tcase_add_test(t, test_path);
	tcase_add_test(t, test_unsaved_said_once);
	tcase_add_test(t, test_round_trip);
	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_bad_file_set_aside);
	tcase_add_test(t, test_save_error);
	tcase_add_test(t, test_steps);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
