/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The words of the options menu: every rule key, every value word an option
 * can show and every help line of every game has a French translation, and a
 * spoken English form (no raw key with underscores). A new option that
 * forgets its catalogue entries fails here. */
#include <stdio.h>
#include <string.h>

#include "app/registry.h"
#include "core/game.h"
#include "core/paths.h"
#include "core/rules.h"
#include "i18n/i18n.h"
#include "testutil.h"
#include "ui/rulewords.h"

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

/* The value words an option can show (not numbers, suits, ranks or cards,
 * which the menu speaks by other means); returns the count. */
static int value_words(const struct rule_def *d, const char **out, int max)
{
	int n = 0;
	if (d->allow_random && n < max)
		out[n++] = "random";
	if (d->allow_auto && n < max)
		out[n++] = "auto";
	if (d->type == RULE_INT && d->none_word && n < max)
		out[n++] = d->none_word;
	if (d->type == RULE_CHOICE)
		for (int i = 0; d->choices[i] && n < max; i++)
			out[n++] = d->choices[i];
	return n;
}

START_TEST(french_rule_keys)
{
	lang("fr");
	for (int g = 0; registry_games[g].ops; g++) {
		const struct game_ops *ops = registry_games[g].ops;
		for (int k = 0; k < ops->nrules; k++) {
			const char *key = ops->rules[k].key;
			const char *fr = C_("rule", key);
			ck_assert_msg(strcmp(fr, key) != 0, "%s: rule key '%s' has no French name (msgctxt \"rule\")",
			              ops->name, key);
		}
	}
}
END_TEST

/* La Bouillabaisse counts rounds, the other games deals: its option says so. */
START_TEST(rounds_named_as_rounds)
{
	lang("fr");
	for (int g = 0; registry_games[g].ops; g++) {
		const struct game_ops *ops = registry_games[g].ops;
		for (int k = 0; k < ops->nrules; k++)
			if (!strcmp(ops->rules[k].key, "hands"))
				ck_assert_str_eq(rulewords_name(&ops->rules[k]), !strcmp(ops->name, "bouillabaisse")
				                                                      ? "nombre de manches"
				                                                      : "nombre de donnes");
	}
	lang("en");
}
END_TEST

START_TEST(french_rule_values)
{
	lang("fr");
	int words = 0;
	for (int g = 0; registry_games[g].ops; g++) {
		const struct game_ops *ops = registry_games[g].ops;
		for (int k = 0; k < ops->nrules; k++) {
			const char *w[40];
			int n = value_words(&ops->rules[k], w, 40);
			for (int i = 0; i < n; i++, words++)
				ck_assert_msg(strcmp(C_("rule", w[i]), w[i]) != 0,
				              "%s: value '%s' of rule '%s' has no French word (msgctxt \"rule\")", ops->name,
				              w[i], ops->rules[k].key);
		}
	}
	ck_assert_int_gt(words, 0);
	/* The words every option type may show. */
	static const char *const common[] = { "yes", "no", "random", "auto", "none" };
	for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
		ck_assert_msg(strcmp(C_("rule", common[i]), common[i]) != 0, "'%s' has no French word", common[i]);
}
END_TEST

START_TEST(french_rule_help)
{
	lang("fr");
	for (int g = 0; registry_games[g].ops; g++) {
		const struct game_ops *ops = registry_games[g].ops;
		for (int k = 0; k < ops->nrules; k++) {
			const char *help = ops->rules[k].help;
			ck_assert_msg(help && *help, "%s: rule '%s' has no help line", ops->name, ops->rules[k].key);
			ck_assert_msg(strcmp(_(help), help) != 0, "%s: help of rule '%s' has no French translation: %s",
			              ops->name, ops->rules[k].key, help);
		}
	}
}
END_TEST

/* English speaks a name, not the raw key: no underscores, and the help line is
 * a sentence free of the symbols a voice reads badly. */
START_TEST(english_spoken_forms)
{
	lang("en");
	for (int g = 0; registry_games[g].ops; g++) {
		const struct game_ops *ops = registry_games[g].ops;
		for (int k = 0; k < ops->nrules; k++) {
			const struct rule_def *d = &ops->rules[k];
			ck_assert_msg(!strchr(C_("rule", d->key), '_'), "%s: rule '%s' is spoken with an underscore",
			              ops->name, d->key);
			const char *w[40];
			int n = value_words(d, w, 40);
			for (int i = 0; i < n; i++)
				ck_assert_msg(!strchr(C_("rule", w[i]), '_'), "%s: value '%s' spoken with an underscore",
				              ops->name, w[i]);
			ck_assert_msg(strcspn(d->help, "|()=<>[]{}") == strlen(d->help),
			              "%s: help of '%s' holds a symbol: %s", ops->name, d->key, d->help);
		}
	}
}
END_TEST

int main(void)
{
	paths_init(NULL);
	Suite *s = suite_create("rulewords");
	TCase *tc = tcase_create("rulewords");
	tcase_add_test(tc, french_rule_keys);
	tcase_add_test(tc, french_rule_values);
	tcase_add_test(tc, french_rule_help);
	tcase_add_test(tc, english_spoken_forms);
	tcase_add_test(tc, rounds_named_as_rounds);
	suite_add_tcase(s, tc);
	int rc = tu_run(s);
	i18n_release();
	return rc;
}
