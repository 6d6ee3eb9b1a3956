/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The speech layer: catalogues, card names in both languages, the queue
 * and its history, the generic announcements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/registry.h"
#include "core/paths.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "speech/speech.h"
#include "testutil.h"

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

static const char *card_name(const char *text, int form)
{
	static char buf[128];
	card_t c;
	ck_assert_int_eq(card_parse(text, &c), 0);
	return say_card_str(NULL, c, form, buf, sizeof buf);
}

/* Both catalogues stay loaded: once read, switching back and forth needs
 * no file (a server phrases each event in every listener's language); a
 * catalogue that cannot be read is not looked for at every switch; a
 * catalogue loaded from memory gives way to the file when asked for. */
START_TEST(languages_side_by_side)
{
	char err[4400], dir[256], cmd[1024];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(dir, sizeof dir, "%s/tapis-i18n-XXXXXX", tmp);
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof cmd, "cp -r '%s/en' '%s/fr' '%s/'", paths_localedir(), paths_localedir(), dir);
	ck_assert_int_eq(system(cmd), 0);
	char *saved = strdup(getenv("TAPIS_LOCALEDIR") ? getenv("TAPIS_LOCALEDIR") : "");
	setenv("TAPIS_LOCALEDIR", dir, 1);
	paths_init(NULL);
	i18n_release();
	ck_assert_msg(i18n_set_lang("fr", err, sizeof err) == 0, "%s", err);
	ck_assert_msg(i18n_set_lang("en", err, sizeof err) == 0, "%s", err);
	snprintf(cmd, sizeof cmd, "rm -r '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(i18n_set_lang("fr", err, sizeof err), 0);
		ck_assert_str_eq(i18n_lang(), "fr");
		ck_assert_str_eq(_("It is not your turn."), "Ce n'est pas votre tour.");
		ck_assert_str_eq(P_("%d card to discard.", "%d cards to discard.", 2), "%d cartes à écarter.");
		ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
		ck_assert_str_eq(_("It is not your turn."), "It is not your turn.");
	}
	/* Forgotten: the files are gone, English msgids, the same reason each time. */
	i18n_release();
	ck_assert_int_eq(i18n_set_lang("fr", err, sizeof err), -1);
	ck_assert_msg(strstr(err, dir) != NULL, "%s", err);
	err[0] = '\0';
	ck_assert_int_eq(i18n_set_lang("fr", err, sizeof err), -1);
	ck_assert_msg(strstr(err, dir) != NULL, "%s", err);
	ck_assert_str_eq(_("It is not your turn."), "It is not your turn.");
	/* Back to the real catalogues. */
	if (*saved)
		setenv("TAPIS_LOCALEDIR", saved, 1);
	else
		unsetenv("TAPIS_LOCALEDIR");
	paths_init(NULL);
	i18n_release();
	lang("fr");
	ck_assert_str_eq(_("It is not your turn."), "Ce n'est pas votre tour.");
	free(saved);
}
END_TEST

/* The one check of a language's name: exactly the languages tapis speaks. */
START_TEST(languages_known)
{
	ck_assert(i18n_lang_known("en"));
	ck_assert(i18n_lang_known("fr"));
	ck_assert(!i18n_lang_known("de"));
	ck_assert(!i18n_lang_known("fr_FR"));
	ck_assert(!i18n_lang_known("FR"));
	ck_assert(!i18n_lang_known("f"));
	ck_assert(!i18n_lang_known(""));
	ck_assert(!i18n_lang_known(NULL));
}
END_TEST

START_TEST(french_card_names)
{
	lang("fr");
	ck_assert_str_eq(card_name("QH", SAY_THE), "la dame de cœur");
	ck_assert_str_eq(card_name("AS", SAY_THE), "l'as de pique");
	ck_assert_str_eq(card_name("TD", SAY_THE), "le dix de carreau");
	ck_assert_str_eq(card_name("8C", SAY_THE), "le huit de trèfle");
	ck_assert_str_eq(card_name("JS", SAY_BARE), "valet de pique");
	ck_assert_str_eq(say_rank(NULL, RANK_QUEEN, SAY_RANK_PLURAL), "dames");
	lang("en");
	ck_assert_str_eq(card_name("QH", SAY_THE), "the queen of hearts");
	ck_assert_str_eq(card_name("AS", SAY_BARE), "ace of spades");
}
END_TEST

START_TEST(plurals_and_names)
{
	struct sbuf b;
	lang("fr");
	sb_clear(&b);
	say_chips(NULL, &b, 1);
	ck_assert_str_eq(b.s, "1 jeton");
	sb_clear(&b);
	say_chips(NULL, &b, 0);
	ck_assert_str_eq(b.s, "0 jeton");
	sb_clear(&b);
	say_chips(NULL, &b, 3);
	ck_assert_str_eq(b.s, "3 jetons");
	lang("en");
	sb_clear(&b);
	say_chips(NULL, &b, 0);
	ck_assert_str_eq(b.s, "0 chips");
	struct talk t = { .game = NULL, .me = 0, .players = 4 };
	ck_assert_str_eq(say_Name(&t, 0), "You");
	ck_assert_str_eq(say_name(&t, 2), "Claire");
	card_t hand[] = { card_make(14, 0), card_make(13, 0), card_make(10, 1) };
	sb_clear(&b);
	say_hand(NULL, &b, hand, 3);
	ck_assert_str_eq(b.s, "spades: ace, king; hearts: ten");
	lang("fr");
	sb_clear(&b);
	say_hand(NULL, &b, hand, 3);
	ck_assert_str_eq(b.s, "pique : as, roi ; cœur : dix");
	sb_clear(&b);
	sb_puts(&b, "été");
	sb_capitalize(&b);
	ck_assert_str_eq(b.s, "Été");
}
END_TEST

START_TEST(queue_and_history)
{
	struct speech sp;
	memset(&sp, 0, sizeof sp);
	char path[] = "/tmp/tapis-speech-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	sp.out = fdopen(fd, "w+");
	char err[128];
	ck_assert_int_eq(speech_open(&sp, "text", "en", NULL, NULL, err, sizeof err), 0);
	speech_say(&sp, "one", SPEECH_QUEUE);
	speech_say(&sp, "two", SPEECH_QUEUE);
	speech_say(&sp, "three", SPEECH_INTERRUPT);
	ck_assert_str_eq(speech_history_last(&sp), "three");
	ck_assert_str_eq(speech_history_prev(&sp), "two");
	ck_assert_str_eq(speech_history_prev(&sp), "one");
	ck_assert_str_eq(speech_history_prev(&sp), "one");
	ck_assert_str_eq(speech_history_next(&sp), "two");
	speech_say(&sp, "repeat", SPEECH_NO_HISTORY);
	ck_assert_str_eq(speech_history_last(&sp), "three");
	for (int i = 0; i < SPEECH_HISTORY + 10; i++) {
		char m[16];
		snprintf(m, sizeof m, "m%d", i);
		speech_say(&sp, m, SPEECH_QUEUE);
	}
	ck_assert_int_eq(sp.hist_count, SPEECH_HISTORY);
	ck_assert_str_eq(speech_history_last(&sp), "m265");
	fflush(sp.out);
	rewind(sp.out);
	char line[64];
	ck_assert_ptr_nonnull(fgets(line, sizeof line, sp.out));
	ck_assert_str_eq(line, "one\n");
	speech_close(&sp);
	fclose(sp.out);
	unlink(path);
	/* An unknown backend falls back to text and says why. */
	memset(&sp, 0, sizeof sp);
	sp.out = stderr;
	ck_assert_int_eq(speech_open(&sp, "nosuch", "en", NULL, NULL, err, sizeof err), 1);
	ck_assert_ptr_eq(sp.backend, &speech_text_backend);
	ck_assert(strstr(err, "nosuch") != NULL);
}
END_TEST

START_TEST(generic_announcements)
{
	const struct game_ops *g = registry_games[0].ops;
	ck_assert_ptr_nonnull(g);
	struct talk t = { .game = g, .me = 0, .players = 4 };
	struct event e;
	struct sbuf b;
	lang("en");
	ev_init(&e, EV_ACTION);
	e.seat = 1;
	e.act = act_card(ACT_PLAY, card_make(RANK_QUEEN, SUIT_HEARTS));
	ann_event(&t, NULL, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Bruno plays the queen of hearts.");
	e.seat = 0;
	ann_event(&t, NULL, NULL, &e, &b);
	ck_assert_str_eq(b.s, "You play the queen of hearts.");
	lang("fr");
	ann_event(&t, NULL, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Vous jouez la dame de cœur.");
	ev_init(&e, EV_TRICK);
	e.winner = 2;
	e.points = 10;
	ann_event(&t, NULL, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Claire prend le pli, 10 points.");
	ev_init(&e, EV_GAME_END);
	e.winners = 0x6;
	ann_event(&t, NULL, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Partie terminée. Gagnants : Bruno et Claire.");
	lang("en");
	e.winners = 0x1;
	ann_event(&t, NULL, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Game over. You win.");
}
END_TEST

int main(void)
{
	paths_init(NULL);
	Suite *s = suite_create("speech");
	TCase *tc = tcase_create("speech");
	tcase_add_test(tc, french_card_names);
	tcase_add_test(tc, plurals_and_names);
	tcase_add_test(tc, queue_and_history);
	tcase_add_test(tc, generic_announcements);
	tcase_add_test(tc, languages_side_by_side);
	tcase_add_test(tc, languages_known);
	suite_add_tcase(s, tc);
	int rc = tu_run(s);
	i18n_release();
	return rc;
}
