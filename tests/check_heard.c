/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table as a blind player hears it: numbers, the rules read aloud, the
 * menus' first letters, the query keys, the announcements, in both
 * languages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "core/rules.h"
#include "core/sbuf.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/french.h"
#include "words/say.h"
#include "speech/speech.h"
#include "words/talk.h"
#include "testutil.h"
#include "app/keymap.h"
#include "ui/menu.h"
#include "app/settings.h"

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

START_TEST(negative_numbers_said_with_a_word)
{
	char buf[64];
	struct sbuf b;
	lang("en");
	ck_assert_str_eq(say_number_str(NULL, -16, 0, buf, sizeof buf), "minus 16");
	ck_assert_str_eq(say_number_str(NULL, 16, 0, buf, sizeof buf), "16");
	ck_assert_str_eq(say_number_str(NULL, 16, SAY_PLUS, buf, sizeof buf), "plus 16");
	ck_assert_str_eq(say_number_str(NULL, 0, SAY_PLUS, buf, sizeof buf), "0");
	sb_clear(&b);
	say_points(NULL, &b, -55);
	ck_assert_str_eq(b.s, "minus 55 points");
	sb_clear(&b);
	say_chips(NULL, &b, -1);
	ck_assert_str_eq(b.s, "minus 1 chip");
	lang("fr");
	ck_assert_str_eq(say_number_str(NULL, -16, 0, buf, sizeof buf), "moins 16");
	ck_assert_str_eq(say_number_str(NULL, 3, SAY_PLUS, buf, sizeof buf), "plus 3");
	sb_clear(&b);
	say_points(NULL, &b, -1);
	ck_assert_str_eq(b.s, "moins 1 point");
	sb_clear(&b);
	say_chips(NULL, &b, -7);
	ck_assert_str_eq(b.s, "moins 7 jetons");
	lang("en");
}
END_TEST

START_TEST(rules_read_without_markdown)
{
	const char *md = "# Le Brelan\n"
	                 "\n"
	                 "Some **bold** and `code` and _emphasis_, `passe_chips`.\n"
	                 "- a bullet, see [the rules](https://example.org/x).\n"
	                 "> a quote\n"
	                 "| option | values |\n"
	                 "|---|:--|\n"
	                 "| `pack` | 28, 32 |\n"
	                 "---\n"
	                 "Run `tapis play brelan --rule carre=yes` -- then play.\n";
	char *p = speech_plain_text(md);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, "Le Brelan.\n"
	                    "\n"
	                    "Some bold and code and emphasis, passe chips.\n"
	                    "a bullet, see the rules.\n"
	                    "a quote\n"
	                    "option, values.\n"
	                    "\n"
	                    "pack, 28, 32.\n"
	                    "\n"
	                    "Run tapis play brelan rule carre=yes , then play.\n");
	free(p);
	/* Printed (tapis rules --text): no mark either, but the commands as
	 * written and the table's cells told apart. */
	p = speech_print_text(md);
	ck_assert_str_eq(p, "Le Brelan\n"
	                    "\n"
	                    "Some bold and code and emphasis, passe_chips.\n"
	                    "- a bullet, see the rules (https://example.org/x).\n"
	                    "a quote\n"
	                    "option: values\n"
	                    "\n"
	                    "pack: 28, 32\n"
	                    "\n"
	                    "Run tapis play brelan --rule carre=yes -- then play.\n");
	free(p);
	/* Every rules text reads with no mark left. */
	for (const struct registry_game *e = registry_games; e->ops; e++)
		for (int l = 0; l < 2; l++) {
			char path[256];
			snprintf(path, sizeof path, "docs/rules/%s.%s.md", e->ops->name, l ? "fr" : "en");
			FILE *f = fopen(path, "rb");
			ck_assert_msg(f != NULL, "%s", path);
			static char text[65536];
			size_t n = fread(text, 1, sizeof text - 1, f);
			fclose(f);
			text[n] = '\0';
			char *q = speech_plain_text(text);
			ck_assert_ptr_nonnull(q);
			ck_assert_msg(strpbrk(q, "*#`|") == NULL, "%s: %s", path, strpbrk(q, "*#`|"));
			/* Roman numerals and card abbreviations are written out. */
			ck_assert_msg(strstr(q, "XVI") == NULL && strstr(q, "A-R-D") == NULL && strstr(q, "A-K-Q") == NULL,
			              "%s", path);
			free(q);
			q = speech_print_text(text);
			ck_assert_msg(strpbrk(q, "*#`|") == NULL, "%s printed: %s", path, strpbrk(q, "*#`|"));
			free(q);
		}
}
END_TEST

START_TEST(menu_letters_skip_articles)
{
	ck_assert_int_eq(menu_item_letter("Le Brouc"), 'B');
	ck_assert_int_eq(menu_item_letter("La Bouillabaisse"), 'B');
	ck_assert_int_eq(menu_item_letter("L'Homme de Brou"), 'H');
	ck_assert_int_eq(menu_item_letter("Les Options"), 'O');
	ck_assert_int_eq(menu_item_letter("The rules"), 'R');
	ck_assert_int_eq(menu_item_letter("Bourré"), 'B');
	ck_assert_int_eq(menu_item_letter("Lettre"), 'L');
	ck_assert_int_eq(menu_item_letter("Écart"), 'E');
	ck_assert_int_eq(menu_item_letter("4 players"), '4');
	ck_assert_int_eq(menu_item_letter(""), 0);
}
END_TEST

/* ---- a game heard by seat 0, bots at every seat, as the table says it:
 * the events of one action phrased afterwards, with the view after it ---- */

struct ear {
	const struct game_ops *g;
	const struct game_talk *gt;
	struct talk t;
	void *st, *view;
	int tricks;
	int hands;   /* deals begun */
	struct event ev[512];
	int nev;
	char said[65536];
};

static void ear_gather(void *ctx, const struct event *e)
{
	struct ear *l = ctx;
	ck_assert_int_lt(l->nev, 512);
	l->ev[l->nev++] = *e;
}

static void ear_flush(struct ear *l)
{
	memcpy(l->view, l->st, l->g->state_size);
	l->g->redact(l->view, l->t.me);
	for (int i = 0; i < l->nev; i++) {
		struct sbuf b;
		ann_event(&l->t, l->gt, l->view, &l->ev[i], &b);
		l->tricks += l->ev[i].type == EV_TRICK;
		l->hands += l->ev[i].type == EV_HAND_START;
		if (b.len && strlen(l->said) + b.len + 2 < sizeof l->said) {
			strcat(l->said, b.s);
			strcat(l->said, "\n");
		}
	}
	l->nev = 0;
}

static void ear_open(struct ear *l, const char *game, int players, const char *const *rules, uint64_t seed)
{
	memset(l, 0, sizeof *l);
	l->g = registry_ops(game);
	l->gt = registry_find(game)->talk;
	l->t.game = l->g;
	l->t.me = 0;
	l->t.players = players;
	l->st = calloc(1, l->g->state_size);
	l->view = calloc(1, l->g->state_size);
	struct rules r;
	char err[256];
	rules_init(&r, l->g->rules, l->g->nrules);
	for (int i = 0; rules && rules[i]; i++)
		ck_assert_msg(rules_set_arg(&r, rules[i], err, sizeof err) == 0, "%s", err);
	struct game_setup setup = { players, 3 % players, seed, &r, NULL };
	ck_assert_msg(l->g->init(l->st, &setup, err, sizeof err) == 0, "%s", err);
	ev_init(&l->ev[0], EV_GAME_START);
	l->ev[0].nvalues = players;
	l->nev = 1;
	struct sink s = { ear_gather, l };
	l->g->start(l->st, &s);
	ear_flush(l);
}

/* Bots play until `until` returns 1 or the game ends. */
static void ear_play(struct ear *l, int (*until)(struct ear *), uint64_t seed)
{
	struct rng rng;
	rng_seed(&rng, seed);
	struct sink s = { ear_gather, l };
	while (l->g->to_act(l->st) >= 0 && !(until && until(l))) {
		struct action a;
		bot_choose(l->g, tu_bot(l->g), l->st, 1, &rng, &a);
		struct refusal why;
		ck_assert(l->g->apply(l->st, &a, &s, &why) == 0);
		ear_flush(l);
	}
}

static const char *ear_ask(struct ear *l, int key, struct sbuf *b)
{
	memcpy(l->view, l->st, l->g->state_size);
	l->g->redact(l->view, l->t.me);
	ann_query(&l->t, l->gt, l->view, key, b);
	return b->s;
}

static void ear_close(struct ear *l)
{
	free(l->st);
	free(l->view);
}

static int two_tricks(struct ear *l) { return l->tricks >= 2; }
static int deal_two_begun(struct ear *l) { return l->hands >= 2; }

START_TEST(last_trick_and_cards_held)
{
	static const struct { const char *game; int players; } games[] = {
		{ "brouc", 4 }, { "bourre", 4 }, { "bouillabaisse", 4 },
	};
	for (int l10n = 0; l10n < 2; l10n++) {
		lang(l10n ? "fr" : "en");
		for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
			struct ear l;
			struct sbuf b;
			ear_open(&l, games[i].game, games[i].players, NULL, 11);
			ck_assert_str_eq(ear_ask(&l, 'L', &b), l10n ? "Pas encore de pli dans cette donne."
			                                              : "No trick taken yet in this deal.");
			ear_play(&l, two_tricks, 11);
			const char *s = ear_ask(&l, 'L', &b);
			const char *took = l10n ? "le dernier pli" : "the last trick";
			ck_assert_msg(strstr(s, took) != NULL, "%s: %s", games[i].game, s);
			/* Every card of the trick with who played it. */
			const struct event *e = &l.t.heard.trick;
			char card[96];
			for (int k = 0; k < e->ncards; k++)
				ck_assert_msg(strstr(s, say_card_str(NULL, e->cards[k], SAY_THE, card, sizeof card)) != NULL, "%s", s);
			s = ear_ask(&l, 'N', &b);
			ck_assert_msg(strstr(s, l10n ? "Cartes en main : " : "Cards held: ") == s ||
			              strstr(s, l10n ? "Chacun a " : "Everyone holds ") == s,
			              "%s: %s", games[i].game, s);
			/* A new deal: L still tells the deal before's last trick, and says so. */
			ear_play(&l, deal_two_begun, 11);
			ck_assert_int_eq(l.hands, 2);
			s = ear_ask(&l, 'L', &b);
			ck_assert_msg(strstr(s, l10n ? "À la donne précédente, " : "In the deal before, ") == s, "%s: %s",
			              games[i].game, s);
			ear_close(&l);
		}
	}
	lang("en");
}
END_TEST

START_TEST(auto_speech_falls_back)
{
	/* No speech-dispatcher listening and no sound device: auto ends in
	 * text, at once, and says nothing went wrong. */
	setenv("SPEECHD_ADDRESS", "unix_socket:/nonexistent/tapis-test/speechd.sock", 1);
	struct speech sp;
	memset(&sp, 0, sizeof sp);
	FILE *out = tmpfile();
	sp.out = out;
	char err[256] = "x";
	ck_assert_int_eq(speech_open(&sp, "auto", "fr", NULL, NULL, err, sizeof err), 1);
	ck_assert_str_eq(sp.backend->name, "text");
	speech_say(&sp, "Bonjour.", SPEECH_QUEUE);
	speech_close(&sp);
	rewind(out);
	char line[64] = "";
	ck_assert_ptr_nonnull(fgets(line, sizeof line, out));
	ck_assert_str_eq(line, "Bonjour.\n");
	fclose(out);
	/* espeak by name still opens, or falls back the same way. */
	memset(&sp, 0, sizeof sp);
	sp.out = stdout;
	ck_assert_int_eq(speech_open(&sp, "espeak", "en", NULL, NULL, err, sizeof err), 1);
	ck_assert_str_eq(sp.backend->name, "text");
	speech_close(&sp);
}
END_TEST

START_TEST(screen_reader_voice_kept)
{
	/* By default auto, and the voice settings are not the player's: they
	 * are written as comments, so speech-dispatcher keeps its own. */
	struct settings s;
	char text[4096];
	settings_default(&s);
	ck_assert_str_eq(s.speech, "auto");
	ck_assert_uint_eq(s.voice.chosen, 0);
	settings_format(&s, text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "\n# rate = 220\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n# volume = 100\n"));
	/* The player speaks faster in tapis: the rate becomes theirs. */
	settings_step_rate(&s, 1);
	ck_assert_uint_eq(s.voice.chosen, SPEECH_CHOSE_RATE);
	settings_format(&s, text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "\nrate = 240\n"));
	struct settings t;
	settings_default(&t);
	char err[128];
	ck_assert_int_eq(settings_parse(&t, text, err, sizeof err), 0);
	ck_assert_int_eq(t.voice.rate, 240);
	ck_assert_uint_eq(t.voice.chosen, SPEECH_CHOSE_RATE);
	/* A file of an older tapis, every value written: only those away
	 * from the default are the player's. */
	settings_default(&t);
	ck_assert_int_eq(settings_parse(&t, "speech = speechd\nrate = 220\npitch = 60\nvolume = 100\nvoice =\n", err,
	                                sizeof err), 0);
	ck_assert_uint_eq(t.voice.chosen, SPEECH_CHOSE_PITCH);
}
END_TEST

/* Le Brouc's C key names every player of a trick; "you" is a capital only
 * at the start of the sentence, on the table and in the last trick. */
static int tricks_seen;
static int one_more_trick(struct ear *l) { return l->tricks > tricks_seen; }

START_TEST(brouc_trick_names_in_a_sentence)
{
	for (int l10n = 0; l10n < 2; l10n++) {
		lang(l10n ? "fr" : "en");
		struct ear l;
		struct sbuf b;
		ear_open(&l, "brouc", 4, NULL, 11);
		int checked = 0;
		for (tricks_seen = 0; l.g->to_act(l.st) >= 0; tricks_seen = l.tricks) {
			const char *s = ear_ask(&l, 'C', &b);
			ck_assert_msg(strstr(s, l10n ? "; Vous" : "; You") == NULL, "%s", s);
			ck_assert_msg(strstr(s, l10n ? "Dernier pli : Vous" : "Last trick: You") == NULL, "%s", s);
			checked += strstr(s, l10n ? "; vous" : "; you") != NULL;
			ear_play(&l, one_more_trick, 11 + (uint64_t)tricks_seen);
		}
		ck_assert_int_gt(checked, 0);
		ear_close(&l);
	}
	lang("en");
}
END_TEST

/* Bourré's C key in French: the cards of the trick separated by " ; ",
 * "vous" in lower case after the first, then who holds the trick. */
static int steps;
static int one_action(struct ear *l) { (void)l; return steps++ > 0; }

START_TEST(bourre_trick_in_french)
{
	lang("fr");
	struct ear l;
	struct sbuf b;
	ear_open(&l, "bourre", 4, (const char *const[]){ "hands=2", NULL }, 11);
	int checked = 0;
	while (l.g->to_act(l.st) >= 0) {
		const char *s = ear_ask(&l, 'C', &b);
		const char *sep = strstr(s, ";");
		if (sep) {
			ck_assert_msg(sep > s && sep[-1] == ' ', "%s", s);
			ck_assert_msg(strstr(s, " ; Vous") == NULL, "%s", s);
			/* and who holds the trick */
			ck_assert_msg(strstr(s, " tient le pli.") || strstr(s, "Vous tenez le pli."), "%s", s);
			checked++;
		}
		steps = 0;
		ear_play(&l, one_action, 11 + (uint64_t)checked);
	}
	ck_assert_int_gt(checked, 0);
	ear_close(&l);
	lang("en");
}
END_TEST

/* La Bouillabaisse's C on an empty table says the last trick: "you" after
 * "Last trick: " is in lower case. */
START_TEST(bouillabaisse_last_trick_lower_case)
{
	for (int l10n = 0; l10n < 2; l10n++) {
		lang(l10n ? "fr" : "en");
		struct ear l;
		struct sbuf b;
		ear_open(&l, "bouillabaisse", 3, NULL, 5);
		int checked = 0;
		for (tricks_seen = 0; l.g->to_act(l.st) >= 0 && tricks_seen < 40; tricks_seen = l.tricks) {
			const char *s = ear_ask(&l, 'C', &b);
			ck_assert_msg(strstr(s, l10n ? "Dernier pli : Vous" : "Last trick: You") == NULL, "%s", s);
			checked += strstr(s, l10n ? "Dernier pli : vous" : "Last trick: you") != NULL;
			ear_play(&l, one_more_trick, 5 + (uint64_t)tricks_seen);
		}
		ck_assert_int_gt(checked, 0);
		ear_close(&l);
	}
	lang("en");
}
END_TEST

/* Two decks (8 players): when the trick's winning card met its copy, the
 * trick says why the first one wins; with one deck never. */
START_TEST(identical_cards_first_played_wins)
{
	static const char *const one_round[] = { "hands=1", NULL };
	const char *why = "Of two identical cards, the first played wins.";
	lang("en");
	int found = 0;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct ear l;
		ear_open(&l, "bouillabaisse", 8, one_round, seed);
		ear_play(&l, NULL, seed);
		for (const char *p = strstr(l.said, why); p; p = strstr(p + 1, why)) {
			/* said after the trick's winner, on its line */
			const char *line = p;
			while (line > l.said && line[-1] != '\n')
				line--;
			ck_assert_msg(strstr(line, "the trick") && strstr(line, "the trick") < p, "%.80s", line);
			found++;
		}
		ear_close(&l);
		ear_open(&l, "bouillabaisse", 4, one_round, seed);
		ear_play(&l, NULL, seed);
		ck_assert_msg(strstr(l.said, why) == NULL, "one deck: %s", l.said);
		ear_close(&l);
	}
	ck_assert_int_gt(found, 0);
}
END_TEST

#define SAID(l, text) ck_assert_msg(strstr((l)->said, text) != NULL, "not said: %s\n%s", text, (l)->said)

START_TEST(partnerships_and_names_at_the_start)
{
	struct ear l;
	lang("en");
	ear_open(&l, "brouc", 4, NULL, 5);
	SAID(&l, "Le Brouc, 4 players. You play with Claire against Bruno and Denis.\n");
	ear_close(&l);
	ear_open(&l, "brouc", 4, (const char *const[]){ "variant=homme", NULL }, 5);
	SAID(&l, "L'Homme de Brou, 4 players. You play with Claire against Bruno and Denis.\n");
	ear_close(&l);
	lang("fr");
	ear_open(&l, "brouc", 4, (const char *const[]){ "variant=homme", NULL }, 5);
	SAID(&l, "L'Homme de Brou, 4 joueurs. Vous jouez avec Claire contre Bruno et Denis.\n");
	ear_close(&l);
	lang("en");
}
END_TEST

START_TEST(antes_said_when_paid)
{
	struct ear l;
	lang("en");
	/* Bouillotte: 1 chip each, the dealer (Denis) 2, before the straddle
	 * question. */
	ear_open(&l, "bouillotte", 4, NULL, 5);
	SAID(&l, "Antes paid: 1 chip each, Denis 2 as dealer.\n");
	/* Before the deal (the straddle question comes first), H says the
	 * cards are still to come. */
	struct sbuf b;
	sb_clear(&b);
	ann_hand(&l.t, NULL, 0, &b);
	ck_assert_str_eq(b.s, "You have no cards yet.");
	ear_close(&l);
	ear_open(&l, "brelan", 4, NULL, 5);
	SAID(&l, "Passe paid: 1 chip each.\n");
	ear_close(&l);
	ear_open(&l, "bourre", 4, NULL, 5);
	/* Two sentences, two messages: the antes, then the hand. */
	SAID(&l, "Antes paid: 1 chip each.\nYour 5 cards: ");
	ear_close(&l);
	lang("fr");
	ear_open(&l, "bouillotte", 4, NULL, 5);
	SAID(&l, "Chacun met 1 jeton au pot, Denis 2 comme donneur.\n");
	ear_close(&l);
	ear_open(&l, "brelan", 4, NULL, 5);
	SAID(&l, "Chacun met 1 jeton à la passe.\n");
	ear_close(&l);
	ear_open(&l, "bourre", 4, NULL, 5);
	SAID(&l, "Chacun met 1 jeton au pot.\nVos 5 cartes : ");
	ear_close(&l);
	lang("en");
}
END_TEST

/* The dealer's own ante said as the dealer's, the French agreeing with
 * the dealer's name: a bot's (« comme donneuse », « comme donneur »), a
 * person's whose gender is not known, the listener's. */
static const char *dealer_ante(const char *lang_name, int dealer, char *out, size_t len)
{
	lang(lang_name);
	struct talk t;
	memset(&t, 0, sizeof t);
	t.game = registry_ops("bouillotte");
	t.me = 0;
	t.players = 4;
	say_set_names(&t, (const char *const[]){ "Anne", NULL, NULL, "Alice" }, 4);
	t.heard.deal_seen = 1;
	t.heard.dealer = dealer;
	t.heard.ndues = 4;
	for (int s = 0; s < 4; s++) {
		t.heard.due_seat[s] = (signed char)s;
		t.heard.due_amount[s] = s == dealer ? 2 : 1;
	}
	struct sbuf b;
	sb_clear(&b);
	ann_dues(&t, &b);
	say_unmark(b.s, out, len);
	lang("en");
	return out;
}

START_TEST(antes_name_the_dealer)
{
	char s[256];
	ck_assert_str_eq(dealer_ante("en", 2, s, sizeof s), "Antes paid: 1 chip each, Claire (bot) 2 as dealer.");
	ck_assert_str_eq(dealer_ante("en", 3, s, sizeof s), "Antes paid: 1 chip each, Alice 2 as dealer.");
	ck_assert_str_eq(dealer_ante("en", 0, s, sizeof s), "Antes paid: 1 chip each, you 2 as dealer.");
	ck_assert_str_eq(dealer_ante("fr", 2, s, sizeof s), "Chacun met 1 jeton au pot, Claire (robot) 2 comme donneuse.");
	ck_assert_str_eq(dealer_ante("fr", 1, s, sizeof s), "Chacun met 1 jeton au pot, Bruno (robot) 2 comme donneur.");
	ck_assert_str_eq(dealer_ante("fr", 3, s, sizeof s), "Chacun met 1 jeton au pot, 2 pour Alice, qui donne.");
	ck_assert_str_eq(dealer_ante("fr", 0, s, sizeof s), "Chacun met 1 jeton au pot, 2 pour vous, qui donnez.");
}
END_TEST

static int second_deal(struct ear *l) { return l->g->hand_number(l->st) >= 2; }

/* Bourré: those who owe no ante at the next deal are named, not the
 * payers ("1 chip each, except Bruno"). */
START_TEST(antes_name_who_is_exempt)
{
	int found = 0;
	for (int l10n = 0; l10n < 2; l10n++) {
		lang(l10n ? "fr" : "en");
		for (uint64_t seed = 1; seed <= 30 && found <= l10n; seed++) {
			struct ear l;
			ear_open(&l, "bourre", 5, NULL, seed);
			ear_play(&l, second_deal, seed);
			/* The antes of deal 2: everyone's, or all but those exempt. */
			const char *deal2 = strstr(l.said, l10n ? "Donne 2." : "Deal 2.");
			ck_assert_ptr_nonnull(deal2);
			const char *paid = strstr(deal2, l10n ? "Chacun met " : "Antes paid: ");
			if (!paid && l10n)
				paid = strstr(deal2, "Au pot : "); /* each their own amount */
			ck_assert_ptr_nonnull(paid);
			const char *except = l10n ? "Chacun met 1 jeton au pot, sauf " : "Antes paid: 1 chip each, except ";
			if (!strncmp(paid, except, strlen(except)))
				found++;
			ear_close(&l);
		}
	}
	ck_assert_int_eq(found, 2);
	lang("en");
}
END_TEST

START_TEST(vying_game_end_gives_the_chips)
{
	struct ear l;
	lang("en");
	ear_open(&l, "brelan", 3, (const char *const[]){ "hands=2", NULL }, 8);
	ear_play(&l, NULL, 8);
	ck_assert_msg(strstr(l.said, "Game over.") != NULL && strstr(l.said, " Chips: you ") != NULL &&
	              strstr(l.said, ", Bruno ") != NULL && strstr(l.said, ", Claire ") != NULL, "%s", l.said);
	ear_close(&l);
}
END_TEST

START_TEST(carre_rules_speak_of_the_carre)
{
	struct ear l;
	struct sbuf b;
	lang("en");
	/* Le Brelan with the carre: seat 0 speaks first, before the deal. */
	ear_open(&l, "brelan", 4, (const char *const[]){ "carre=yes", NULL }, 5);
	const char *r = ear_ask(&l, 'R', &b);
	ck_assert_msg(strstr(r, "The carre costs ") != NULL, "%s", r);
	ck_assert_msg(strstr(r, "straddle") == NULL, "%s", r);
	ear_close(&l);
	ear_open(&l, "bouillotte", 4, NULL, 5);
	ck_assert_msg(strstr(ear_ask(&l, 'R', &b), "The next straddle costs ") != NULL, "%s", b.s);
	ear_close(&l);
}
END_TEST

START_TEST(french_contractions)
{
	char out[128];
	ck_assert_str_eq(french_contract("Options de Le Brelan.", out, sizeof out), "Options du Brelan.");
	ck_assert_str_eq(french_contract("Options de Le Bourré.", out, sizeof out), "Options du Bourré.");
	ck_assert_str_eq(french_contract("Options de La Bouillotte.", out, sizeof out), "Options de la Bouillotte.");
	ck_assert_str_eq(french_contract("Une partie de Le Brelan vous attend.", out, sizeof out),
	                 "Une partie de Brelan vous attend.");
	ck_assert_str_eq(french_contract("Une partie de La Bouillabaisse vous attend.", out, sizeof out),
	                 "Une partie de Bouillabaisse vous attend.");
	ck_assert_str_eq(french_contract("Bienvenue à Le Brouc.", out, sizeof out), "Bienvenue au Brouc.");
	ck_assert_str_eq(french_contract("Reprendre Le Brelan", out, sizeof out), "Reprendre le Brelan");
	ck_assert_str_eq(french_contract("Le Brelan, 4 joueurs. Vous et Claire.", out, sizeof out),
	                 "Le Brelan, 4 joueurs. Vous et Claire.");
	ck_assert_str_eq(french_contract("Donne 1. Claire donne.", out, sizeof out), "Donne 1. Claire donne.");
	/* "que" elided before 1 (« un »), not before 12 nor a word. */
	ck_assert_str_eq(french_contract("Couchez-vous : vous n'avez que 1 % de chances de gagner", out, sizeof out),
	                 "Couchez-vous : vous n'avez qu'1 % de chances de gagner");
	ck_assert_str_eq(french_contract("Il n'y a que 1 joueur.", out, sizeof out), "Il n'y a qu'1 joueur.");
	ck_assert_str_eq(french_contract("vous n'avez que 12 % et que 10 jetons", out, sizeof out),
	                 "vous n'avez que 12 % et que 10 jetons");
	ck_assert_str_eq(french_contract("presque 1 jeton", out, sizeof out), "presque 1 jeton");
	/* A pronoun is no article. */
	ck_assert_str_eq(french_contract("avant de le jouer", out, sizeof out), "avant de le jouer");
	ck_assert_str_eq(french_contract("Guide de Lea", out, sizeof out), "Guide de Lea");
	/* Far into a text, after any number of bytes without an L. */
	for (int n = 0; n < 30; n++) {
		char in[96], want[96];
		snprintf(in, sizeof in, "%.*s partie de L'Homme, à La Bouillotte", n, "abcdefghijklmnopqrstuvwxyz0123456789");
		snprintf(want, sizeof want, "%.*s partie d'Homme, à la Bouillotte", n, "abcdefghijklmnopqrstuvwxyz0123456789");
		ck_assert_str_eq(french_contract(in, out, sizeof out), want);
	}
	/* Cut to the room there is. */
	char small[8];
	ck_assert_str_eq(french_contract("abcdefghijk", small, sizeof small), "abcdefg");
	ck_assert_str_eq(french_contract("abcdefghij de Le Brelan", small, sizeof small), "abcdefg");
	/* Said in French through the queue. */
	struct speech sp;
	memset(&sp, 0, sizeof sp);
	FILE *f = tmpfile();
	sp.out = f;
	char err[128];
	ck_assert_int_eq(speech_open(&sp, "text", "fr", NULL, NULL, err, sizeof err), 0);
	speech_say(&sp, "Options de Le Brouc.", SPEECH_QUEUE);
	ck_assert_str_eq(speech_history_last(&sp), "Options du Brouc.");
	speech_close(&sp);
	fclose(f);
}
END_TEST

START_TEST(keys_spoken_as_words)
{
	struct sbuf b;
	lang("en");
	sb_clear(&b);
	keymap_say(NULL, &b, KEYS_ALWAYS | KEYS_SPEECH | KEYS_MENU | KEYS_IF_TRICKS);
	ck_assert_msg(strstr(b.s, "1 to 9: the table card by card.") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "showdown") == NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "comma, period: ") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "left bracket, right bracket: ") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "L: the last trick") != NULL && strstr(b.s, "N: how many cards") != NULL, "%s", b.s);
	ck_assert_msg(strpbrk(b.s, "[]{}") == NULL && strstr(b.s, "1-9") == NULL && strstr(b.s, "0-9") == NULL, "%s", b.s);
	/* Tab and F2 at a network table only. */
	ck_assert_msg(strstr(b.s, "Tab: ") == NULL && strstr(b.s, "F2: ") == NULL, "%s", b.s);
	/* L in a game of showdowns: the last one, not a trick. */
	sb_clear(&b);
	keymap_say(NULL, &b, KEYS_ALWAYS | KEYS_IF_SHOWDOWN);
	ck_assert_msg(strstr(b.s, "L: the last showdown") != NULL && strstr(b.s, "trick") == NULL, "%s", b.s);
	sb_clear(&b);
	keymap_say(NULL, &b, KEYS_ALWAYS | KEYS_SPEECH | KEYS_IF_NET);
	ck_assert_msg(strstr(b.s, "Tab: at a network table") != NULL && strstr(b.s, "F2: ") != NULL, "%s", b.s);
	lang("fr");
	sb_clear(&b);
	keymap_say(NULL, &b, KEYS_ALWAYS | KEYS_SPEECH);
	ck_assert_msg(strstr(b.s, "1 à 9 : ") != NULL && strstr(b.s, "virgule, point : ") != NULL &&
	              strstr(b.s, "crochet ouvrant, crochet fermant : voix moins forte ou plus forte.") != NULL,
	              "%s", b.s);
	lang("en");
}
END_TEST

START_TEST(bourre_agrees_in_french)
{
	struct talk t = { .game = NULL, .me = 0, .players = 4 };
	ck_assert_int_eq(say_feminine(&t, 2), 1);  /* Claire */
	ck_assert_int_eq(say_feminine(&t, 1), 0);  /* Bruno */
	ck_assert_int_eq(say_feminine(&t, 0), 0);  /* you */
	lang("fr");
	struct event e;
	ev_init(&e, EV_PHASE);
	e.note = EV_NOTE_BOURRE;
	e.seat = 2;
	e.value = 4;
	struct sbuf b;
	ann_event(&t, registry_find("bourre")->talk, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Claire est bourrée : aucun pli, elle verse 4 jetons au prochain pot.");
	e.seat = 1;
	ann_event(&t, registry_find("bourre")->talk, NULL, &e, &b);
	ck_assert_str_eq(b.s, "Bruno est bourré : aucun pli, il verse 4 jetons au prochain pot.");
	lang("en");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("heard");
	TCase *tc = tcase_create("heard");
	tcase_add_test(tc, negative_numbers_said_with_a_word);
	tcase_add_test(tc, rules_read_without_markdown);
	tcase_add_test(tc, menu_letters_skip_articles);
	tcase_add_test(tc, last_trick_and_cards_held);
	tcase_add_test(tc, brouc_trick_names_in_a_sentence);
	tcase_add_test(tc, bouillabaisse_last_trick_lower_case);
	tcase_add_test(tc, identical_cards_first_played_wins);
	tcase_add_test(tc, bourre_trick_in_french);
	tcase_add_test(tc, auto_speech_falls_back);
	tcase_add_test(tc, screen_reader_voice_kept);
	tcase_add_test(tc, partnerships_and_names_at_the_start);
	tcase_add_test(tc, antes_said_when_paid);
	tcase_add_test(tc, antes_name_the_dealer);
	tcase_add_test(tc, antes_name_who_is_exempt);
	tcase_add_test(tc, vying_game_end_gives_the_chips);
	tcase_add_test(tc, carre_rules_speak_of_the_carre);
	tcase_add_test(tc, french_contractions);
	tcase_add_test(tc, keys_spoken_as_words);
	tcase_add_test(tc, bourre_agrees_in_french);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
