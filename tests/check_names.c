/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The names at a table: a server's table names its seats by the people
 * holding them and its bots by names that say they are bots, unlike every
 * person's; the French contractions never touch a person's name nor a chat
 * line; the hand history lists the names and replays with them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/local.h"
#include "app/registry.h"
#include "app/replay.h"
#include "app/table.h"
#include "app/view.h"
#include "i18n/i18n.h"
#include "words/french.h"
#include "words/say.h"
#include "speech/speech.h"
#include "testutil.h"

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

static const char *const BUILTIN[12] = {
	"Anne", "Bruno", "Claire", "Denis", "Emma", "Félix", "Gaston", "Hélène", "Inès", "Jules", "Karim", "Léa",
};

START_TEST(contractions_leave_names_and_chat)
{
	char out[256];
	/* A name marked as a person's: kept, the marks dropped. */
	ck_assert_str_eq(french_contract("La carte de \x0eLe Goff\x0f.", out, sizeof out), "La carte de Le Goff.");
	ck_assert_str_eq(french_contract("Carte retournée : le roi de cœur, à \x0eLe Goff\x0f.", out, sizeof out),
	                 "Carte retournée : le roi de cœur, à Le Goff.");
	/* Inside a name, no rule either; the program's own words still contract. */
	ck_assert_str_eq(french_contract("\x0eJean de La Tour\x0f joue de Le Brelan.", out, sizeof out),
	                 "Jean de La Tour joue du Brelan.");
	ck_assert_str_eq(say_unmark("Vous et \x0eLe Goff\x0f gagnez.", out, sizeof out), "Vous et Le Goff gagnez.");
	/* Cut inside a character: none of it. */
	ck_assert_str_eq(say_unmark("\x0e" "Zoé\x0f", out, 4), "Zo");
	/* A chat line and a server's sentence, said in French by a client:
	 * as they came. */
	struct speech sp;
	memset(&sp, 0, sizeof sp);
	FILE *f = tmpfile();
	sp.out = f;
	char err[128];
	ck_assert_int_eq(speech_open(&sp, "text", "fr", NULL, NULL, err, sizeof err), 0);
	struct local l;
	memset(&l, 0, sizeof l);
	l.sp = &sp;
	struct view_sink sink = local_sink(&l);
	struct view_say m;
	memset(&m, 0, sizeof m);
	m.kind = VIEW_SAY_CHAT;
	m.cue = -1;
	snprintf(m.text, sizeof m.text, "Zoé : la carte de Le Goff, à Le Goff de jouer");
	sink.say(sink.ctx, &m);
	ck_assert_str_eq(speech_history_last(&sp), "Zoé : la carte de Le Goff, à Le Goff de jouer");
	m.kind = VIEW_SAY_EVENT;
	snprintf(m.text, sizeof m.text, "Le Goff paie 2 jetons à Le Goff.");
	sink.say(sink.ctx, &m);
	ck_assert_str_eq(speech_history_last(&sp), "Le Goff paie 2 jetons à Le Goff.");
	/* The program's own words, said directly, still contract. */
	speech_say(&sp, "Options de Le Brouc.", SPEECH_QUEUE);
	ck_assert_str_eq(speech_history_last(&sp), "Options du Brouc.");
	/* And so do those a local table says through its view. */
	lang("fr");
	const struct game_ops *g = registry_ops("brelan");
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = 3;
	o.dealer = -1;
	o.seed = 4;
	rules_init(&o.rules, g->rules, g->nrules);
	o.seat_kind[1] = o.seat_kind[2] = SEAT_BOT;
	struct table t;
	char terr[512];
	ck_assert_msg(table_open(&t, &o, terr, sizeof terr) == 0, "%s", terr);
	struct local player;
	ck_assert_msg(local_open(&player, &t, 0, &sp, NULL, terr, sizeof terr) == 0, "%s", terr);
	table_say(&t, "La partie sauvegardée de Le Brelan était déjà finie.", SPEECH_QUEUE);
	ck_assert_str_eq(speech_history_last(&sp), "La partie sauvegardée du Brelan était déjà finie.");
	local_close(&player);
	table_close(&t);
	lang("en");
	speech_close(&sp);
	fclose(f);
}
END_TEST

START_TEST(bots_are_named_apart_from_people)
{
	lang("en");
	struct talk t;
	memset(&t, 0, sizeof t);
	t.me = 1;
	/* Local play: the built-in names. */
	say_set_names(&t, NULL, 4);
	ck_assert_str_eq(say_name(&t, 2), "Claire");
	ck_assert_int_eq(say_feminine(&t, 2), 1);
	/* A person called claire (and one called helene): the bots whose
	 * names they have take others, no two bots alike. */
	const char *person[8] = { "claire", "Ben", "", "", "", "", "", "helene" };
	say_set_names(&t, person, 8);
	ck_assert_str_eq(say_name(&t, 0), "\x0e" "claire\x0f");
	ck_assert_str_eq(say_name(&t, 1), "you");
	ck_assert_int_eq(say_feminine(&t, 0), -1);
	ck_assert_str_eq(say_name(&t, 3), "Denis (bot)");
	ck_assert_int_eq(say_feminine(&t, 3), 0);
	ck_assert_str_eq(say_name(&t, 2), "Anne (bot)");
	ck_assert_int_eq(say_feminine(&t, 2), 1);
	ck_assert_str_eq(say_name(&t, 4), "Emma (bot)");
	for (int s = 2; s < 7; s++)
		for (int u = s + 1; u < 7; u++)
			ck_assert_str_ne(say_name(&t, s), say_name(&t, u));
	/* The seat list's name of a bot (say_bot_name) is the sentences'. */
	for (int s = 0; s < 8; s++) {
		const char *bot = say_bot_name(person, 8, s);
		if (person[s][0]) {
			ck_assert_ptr_null(bot);
			continue;
		}
		ck_assert_ptr_nonnull(bot);
		char told[64];
		snprintf(told, sizeof told, "%s (bot)", bot);
		ck_assert_str_eq(say_name(&t, s), told);
	}
	ck_assert_str_eq(say_bot_name(person, 8, 2), "Anne");
	ck_assert_ptr_null(say_bot_name(person, 8, 8));
	lang("fr");
	say_set_names(&t, person, 8);
	ck_assert_str_eq(say_name(&t, 3), "Denis (robot)");
	ck_assert_str_eq(say_name(&t, 1), "vous");
	lang("en");
}
END_TEST

/* A recording view. */
struct rec {
	struct view v;
	char *all;       /* every text said and every answer, one a line */
	size_t len, cap;
};

static void rec_add(struct rec *r, const char *text)
{
	size_t n = strlen(text);
	if (r->len + n + 2 > r->cap) {
		r->cap = (r->len + n + 2) * 2;
		r->all = realloc(r->all, r->cap);
		ck_assert(r->all != NULL);
	}
	memcpy(r->all + r->len, text, n);
	r->len += n;
	r->all[r->len++] = '\n';
	r->all[r->len] = '\0';
}

static void rec_say(void *ctx, const struct view_say *m)
{
	rec_add(ctx, m->text);
}

static void rec_update(void *ctx, const struct view_state *vs)
{
	for (int k = 0; k < VIEW_NQUERY; k++)
		rec_add(ctx, vs->answer[k]);
	rec_add(ctx, vs->prompt);
	for (int i = 0; i < vs->nchoices; i++)
		rec_add(ctx, vs->choice[i].label);
}

static int letter(unsigned char c)
{
	return c >= 0x80 || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Every built-in name said in text is a bot's ("Claire (bot)"). */
static void only_bots_builtin(const char *text, const char *bot, const char *who)
{
	for (int k = 0; k < 12; k++) {
		size_t n = strlen(BUILTIN[k]);
		for (const char *p = text; (p = strstr(p, BUILTIN[k])); p++)
			if ((p == text || !letter((unsigned char)p[-1])) && !letter((unsigned char)p[n]))
				ck_assert_msg(!strncmp(p + n, bot, strlen(bot)), "%s: %s said of a person: %.200s", who,
				              BUILTIN[k], p > text + 80 ? p - 80 : text);
	}
}

START_TEST(a_table_of_people_in_french)
{
	lang("en");
	char logpath[] = "/tmp/tapis-names-XXXXXX";
	int fd = mkstemp(logpath);
	ck_assert_int_ge(fd, 0);
	close(fd);
	const struct game_ops *g = registry_ops("bourre");
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = 5;
	o.dealer = 1;
	o.seed = 21;
	o.log_path = logpath;
	rules_init(&o.rules, g->rules, g->nrules);
	char err[512];
	ck_assert_int_eq(rules_set(&o.rules, "hands", "3", err, sizeof err), 0);
	for (int s = 0; s < o.players; s++) {
		o.seat_kind[s] = SEAT_BOT;
		o.bot_level[s] = 1;
	}
	struct table t;
	ck_assert_msg(table_open(&t, &o, err, sizeof err) == 0, "%s", err);
	static struct rec fr, en, sp;
	memset(&fr, 0, sizeof fr);
	memset(&en, 0, sizeof en);
	memset(&sp, 0, sizeof sp);
	struct view_sink s1 = { rec_say, rec_update, &fr }, s2 = { rec_say, rec_update, &en },
	                 s3 = { rec_say, rec_update, &sp };
	/* Zoé (seat 0) in French, Ben (seat 3) in English, a French spectator;
	 * Le Goff deals first; seats 2 and 4 are bots. */
	const char *person[5] = { "Zoé", "Le Goff", "", "Ben \"le grand\"", "" };
	table_set_names(&t, person);
	ck_assert_int_eq(view_init(&fr.v, &t, 0, "fr", &s1, err, sizeof err), 0);
	ck_assert_int_eq(view_init(&en.v, &t, 3, "en", &s2, err, sizeof err), 0);
	ck_assert_int_eq(view_init(&sp.v, &t, VIEW_SPECTATOR, "fr", &s3, err, sizeof err), 0);
	table_start(&t);
	for (int i = 0; i < 2000 && table_to_act(&t) >= 0; i++)
		ck_assert_msg(table_auto_step(&t, err, sizeof err) == 0, "%s", err);
	ck_assert_int_lt(table_to_act(&t), 0);
	ck_assert_str_eq(i18n_lang(), "en");
	struct rec *all[] = { &fr, &en, &sp };
	for (int i = 0; i < 3; i++) {
		const char *text = all[i]->all;
		const char *who = i == 1 ? "en" : i == 0 ? "fr" : "spectator";
		ck_assert_msg(strpbrk(text, "\x0e\x0f") == NULL, "%s: a mark heard", who);
		ck_assert_msg(strstr(text, "du Goff") == NULL && strstr(text, "au Goff") == NULL &&
		              strstr(text, "le Goff") == NULL, "%s: a contracted name", who);
		only_bots_builtin(text, i == 1 ? " (bot)" : " (robot)", who);
		ck_assert_msg(strstr(text, i == 1 ? "Claire (bot)" : "Claire (robot)") != NULL, "%s", who);
		ck_assert_msg(strstr(text, i == 1 ? "Emma (bot)" : "Emma (robot)") != NULL, "%s", who);
		if (i != 0)
			ck_assert_msg(strstr(text, "Zoé") != NULL, "%s: Zoé never named", who);
		if (i != 1)
			ck_assert_msg(strstr(text, "Ben \"le grand\"") != NULL, "%s: Ben never named", who);
	}
	/* The turned card goes to the dealer, Le Goff, as the name is. */
	ck_assert_msg(strstr(fr.all, "à Le Goff") != NULL, "%s", fr.all);
	ck_assert_msg(strstr(en.all, "Le Goff") != NULL, "%s", en.all);
	/* A person's seat from now on held by a bot: the bot's name. */
	person[0] = "";
	table_set_names(&t, person);
	ck_assert_str_eq(say_name(&en.v.talk, 0), "Anne (bot)");
	for (int i = 0; i < 3; i++) {
		view_release(&all[i]->v);
		free(all[i]->all);
	}
	ck_assert_int_eq(table_finish_output(&t, err, sizeof err), 0);
	table_close(&t);
	/* The hand history names the people, and replays. */
	FILE *f = fopen(logpath, "r");
	char line[4096];
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	fclose(f);
	ck_assert_msg(strstr(line, ",\"names\":[\"Zoé\",\"Le Goff\",\"\",\"Ben \\\"le grand\\\"\",\"\"]}") != NULL, "%s",
	              line);
	FILE *said = tmpfile();
	ck_assert_msg(replay_file(logpath, said, err, sizeof err) == 0, "%s", err);
	rewind(said);
	static char heard[1 << 20];
	size_t n = fread(heard, 1, sizeof heard - 1, said);
	heard[n] = '\0';
	fclose(said);
	ck_assert_msg(strstr(heard, "Le Goff") != NULL && strstr(heard, "Claire (bot)") != NULL, "%.300s", heard);
	ck_assert_msg(strpbrk(heard, "\x0e\x0f") == NULL, "a mark in the replay");
	unlink(logpath);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, contractions_leave_names_and_chat);
	tcase_add_test(tc, bots_are_named_apart_from_people);
	tcase_add_test(tc, a_table_of_people_in_french);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
