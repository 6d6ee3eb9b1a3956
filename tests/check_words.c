/* SPDX-License-Identifier: GPL-3.0-or-later */
/* words: the web page's words from the catalogues (GET /words): both
 * languages, every game with rule options whose defaults are among the
 * values offered, the keys, and the catalogue in force given back. */
#include <check.h>
#include <jansson.h>
#include <string.h>

#include "app/registry.h"
#include "core/game.h"
#include "ui/words.h"
#include "i18n/i18n.h"
#include "testutil.h"

static json_t *load(const char *lang)
{
	char *text = words_json(lang);
	ck_assert_ptr_nonnull(text);
	json_error_t e;
	json_t *o = json_loads(text, 0, &e);
	ck_assert_msg(o != NULL, "not JSON: %s", e.text);
	free(text);
	return o;
}

static const char *word(json_t *o, const char *name)
{
	json_t *w = json_object_get(json_object_get(o, "words"), name);
	ck_assert_msg(json_is_string(w), "no word '%s'", name);
	return json_string_value(w);
}

START_TEST(test_languages)
{
	char err[256];
	ck_assert_int_eq(i18n_set_lang("en", err, sizeof err), 0);
	json_t *fr = load("fr");
	ck_assert_str_eq(i18n_lang(), "en");   /* given back */
	json_t *en = load("en");
	json_t *other = load("xx");            /* anything else: English */
	ck_assert_str_eq(json_string_value(json_object_get(fr, "lang")), "fr");
	ck_assert_str_eq(json_string_value(json_object_get(other, "lang")), "en");
	ck_assert_str_eq(word(en, "login"), "Log in");
	ck_assert_str_eq(word(fr, "login"), "Connexion");
	ck_assert_str_eq(word(fr, "sit"), "S'asseoir");
	ck_assert_str_eq(word(fr, "n_discard_1"), "%d carte à écarter.");
	/* Every word translated: the French differs from the English, names
	 * and formats of the same spelling aside. */
	const char *key;
	json_t *v;
	int differ = 0, n = 0;
	json_object_foreach(json_object_get(fr, "words"), key, v) {
		n++;
		differ += strcmp(json_string_value(v), word(en, key)) != 0;
	}
	ck_assert_int_gt(n, 60);
	ck_assert_int_gt(differ, n * 3 / 4);
	json_decref(fr);
	json_decref(en);
	json_decref(other);
}
END_TEST

START_TEST(test_games_and_rules)
{
	json_t *o = load("fr");
	json_t *games = json_object_get(o, "games");
	int count = 0;
	while (registry_games[count].ops)
		count++;
	ck_assert_int_eq((int)json_array_size(games), count);
	size_t i;
	json_t *g;
	json_array_foreach(games, i, g) {
		const struct game_ops *ops = registry_ops(json_string_value(json_object_get(g, "name")));
		ck_assert_ptr_nonnull(ops);
		ck_assert_int_eq(json_integer_value(json_object_get(g, "min")), ops->min_players);
		ck_assert_int_eq(json_integer_value(json_object_get(g, "max")), ops->max_players);
		ck_assert_int_eq((int)json_array_size(json_object_get(g, "rules")), ops->nrules);
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(g, "rules"), k, r) {
			const char *def = json_string_value(json_object_get(r, "default"));
			const char *label = json_string_value(json_object_get(r, "label"));
			ck_assert_ptr_nonnull(def);
			ck_assert_msg(label && *label, "%s: a rule without a label", ops->name);
			/* The default is a value offered, unless any number goes. */
			int found = json_is_true(json_object_get(r, "any"));
			size_t j;
			json_t *val;
			json_array_foreach(json_object_get(r, "values"), j, val) {
				ck_assert(*json_string_value(json_object_get(val, "label")));
				found |= !strcmp(json_string_value(json_object_get(val, "value")), def);
			}
			ck_assert_msg(found, "%s %s: default %s not offered", ops->name, label, def);
		}
	}
	/* A suit is named in French, a yes/no option too. */
	json_t *bou = NULL;
	json_array_foreach(games, i, g)
		if (!strcmp(json_string_value(json_object_get(g, "name")), "bouillabaisse"))
			bou = g;
	ck_assert_ptr_nonnull(bou);
	char *text = json_dumps(bou, 0);
	ck_assert_msg(strstr(text, "\"label\": \"cœur\"") || strstr(text, "\"label\": \"cœurs\""), "%s", text);
	ck_assert_msg(strstr(text, "\"value\": \"H\""), "%s", text);
	free(text);
	/* The keys of the table, translated. */
	ck_assert_int_gt((int)json_array_size(json_object_get(o, "keys")), 20);
	json_decref(o);
}
END_TEST

/* The page's keys: none only a terminal has (Tab's chat line, F2's menu),
 * Q in the page's words (leaving the table, nothing saved), both L, and
 * the query keys of the toolbar marked. */
START_TEST(test_page_keys)
{
	json_t *o = load("en");
	json_t *keys = json_object_get(o, "keys"), *k;
	size_t i;
	int ls = 0, queries = 0, q = 0;
	json_array_foreach(keys, i, k) {
		const char *name = json_string_value(json_object_get(k, "keys"));
		const char *what = json_string_value(json_object_get(k, "what"));
		ck_assert_msg(strcmp(name, "F2") && strcmp(name, "Tab"), "a key of the terminal: %s", name);
		ck_assert_msg(!strstr(what, "saved") && !strstr(what, "network"), "%s: %s", name, what);
		ls += !strcmp(name, "L");
		if (!strcmp(name, "Q")) {
			q = 1;
			ck_assert_str_eq(what, "leave the table, after confirmation");
		}
		if (json_object_get(k, "query"))
			queries++;
	}
	ck_assert_int_eq(ls, 2);
	ck_assert_int_eq(q, 1);
	/* C F R S T L (twice) N H ? F1 */
	ck_assert_int_eq(queries, 11);
	json_decref(o);
	json_t *fr = load("fr");
	ck_assert_str_eq(word(fr, "playable"), "jouable");
	ck_assert_str_eq(word(fr, "yes"), "Oui");
	json_decref(fr);
}
END_TEST

static Suite *words_suite(void)
{
	Suite *s = suite_create("words");
	TCase *tc = tcase_create("words");
	tcase_add_test(tc, test_languages);
	tcase_add_test(tc, test_games_and_rules);
	tcase_add_test(tc, test_page_keys);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(words_suite());
}
