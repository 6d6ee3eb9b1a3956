/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ident: the names a stranger may take and the chat lines passed on. Good
 * names of several languages pass, in NFC and trimmed; a Cyrillic or Greek
 * letter among Latin ones, invisible characters, bidi overrides, controls,
 * line separators, reserved words and bot names are refused, each with its
 * reason in English and in French; names of one look share a key; chat
 * keeps text and emoji and loses the rest. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "i18n/i18n.h"
#include "net/wire/ident.h"
#include "testutil.h"

static int ok(const char *in, char *out, size_t outlen)
{
	char err[256];
	err[0] = '\0';
	int rc = ident_check(in, out, outlen, NULL, err, sizeof err);
	ck_assert_msg(rc == 0 ? !err[0] : err[0] != '\0', "%s: rc %d, err '%s'", in, rc, err);
	return rc;
}

static void good(const char *in, const char *want)
{
	char out[128];
	ck_assert_msg(ok(in, out, sizeof out) == 0, "'%s' refused", in);
	ck_assert_str_eq(out, want);
}

/* Refused, with the reason in L holding `why`. */
static void bad_in(const struct i18n_lang *L, const char *in, const char *why)
{
	char out[128], err[256];
	ck_assert_msg(ident_check(in, out, sizeof out, L, err, sizeof err) < 0, "'%s' taken", in);
	ck_assert_msg(strstr(err, why) != NULL, "'%s': '%s' does not say '%s'", in, err, why);
}

/* The same in English, the language in force. */
static void bad(const char *in, const char *why)
{
	bad_in(NULL, in, why);
}

START_TEST(test_good_names)
{
	i18n_set_lang("en", NULL, 0);
	good("Anne", "Anne");
	good("Hélène Le Goff", "Hélène Le Goff");
	good("Zoë", "Zo\u00eb");
	good("Zoe\u0308", "Zo\u00eb");         /* decomposed: kept composed */
	good("  Jean-Luc  ", "Jean-Luc");       /* trimmed */
	good("O'Neil", "O'Neil");
	good("J. R. Smith", "J. R. Smith");
	good("Guest12", "Guest12");
	good("bench-3", "bench-3");
	good("Иван", "Иван");                  /* one script, not Latin */
	good("Ομηρος", "Ομηρος");
	good("山田太郎", "山田太郎");
	good("Léa", "Léa");
}
END_TEST

START_TEST(test_bad_names)
{
	i18n_set_lang("en", NULL, 0);
	bad("\u0410nne", "one script");            /* Cyrillic А */
	bad("J\u039fHN", "one script");            /* Greek Ο */
	bad("An\u200dne", "letters, digits");      /* zero-width joiner */
	bad("An\u200bne", "letters, digits");      /* zero-width space */
	bad("\u202eenna", "letters, digits");      /* right-to-left override */
	bad("Ann\u2066e", "letters, digits");      /* isolate */
	bad("Ann\u00ade", "letters, digits");      /* soft hyphen */
	bad("Ann\u2028e", "letters, digits");      /* line separator */
	bad("Ann\xc2\x85" "e", "letters, digits");      /* C1 control */
	bad("Ann\x7f" "e", "letters, digits");     /* DEL */
	bad("Ann\x1b[2Je", "letters, digits");
	bad("\u3164\u3164", "letters, digits");    /* Hangul fillers: nothing to see */
	bad("Claire, bot", "letters, digits");     /* a bot's seat */
	bad("Claire (bot)", "letters, digits");    /* a bot's seat, as said */
	bad("<script>", "letters, digits");
	bad("A", "2 to 24");
	bad("   ", "2 to 24");
	bad("Abcdefghijklmnopqrstuvwxy", "2 to 24");
	bad("-Anne", "begins with");
	bad("Anne  Marie", "one space");
	bad("SYSTEM", "kept for the server");
	bad("Serveur", "kept for the server");
	bad("serv\u0435r", "");                    /* Cyrillic е: refused either way */
	bad("Admin", "kept for the server");
	bad("modérateur", "kept for the server");
	bad("Système", "kept for the server");
	bad("Robot", "kept for the server");
	bad("Claire bot", "kept for the server");
	bad("Claire Robot", "kept for the server");
	bad("t a p i s", "kept for the server");
	/* The reasons in French too, given as a value: the language in force
	 * stays English, and the next English refusal is English. */
	const struct i18n_lang *fr = i18n_of("fr");
	ck_assert(i18n_is_fr(fr));
	bad_in(fr, "\u0410nne", "une seule écriture");
	bad("\u0410nne", "one script");
	bad_in(fr, "SYSTEM", "réservé");
	bad_in(fr, "An\u200dne", "lettres");
	bad_in(fr, "A", "2 à 24");
	bad("A", "2 to 24");
	ck_assert_str_eq(i18n_lang(), "en");
}
END_TEST

/* One look, one key: case, separators and confusable letters aside. */
START_TEST(test_keys)
{
	ck_assert(ident_alike("Anne", "anne"));
	ck_assert(ident_alike("Anne", "ANNE"));
	ck_assert(ident_alike("Anne", "\u0410nne"));
	ck_assert(ident_alike("Anne", "A-nne"));
	ck_assert(ident_alike("Bill", "BiII"));   /* capital i for l */
	ck_assert(ident_alike("Olga", "0lga"));
	ck_assert(ident_alike("Ann\u00e9", "Anne\u0301"));
	ck_assert(!ident_alike("Anne", "Anna"));
	/* Accents do not tell two people apart (a banned Paulo is not back
	 * as Páulo). */
	ck_assert(ident_alike("Zoe", "Zoë"));
	ck_assert(ident_alike("Paulo", "P\u00e1ulo"));
	ck_assert(ident_alike("Paulo", "Pau1o"));
	ck_assert(ident_alike("Hélène", "HELENE"));
	ck_assert(!ident_alike("Paulo", "Paula"));
	ck_assert(!ident_alike("Guest1", "Guest11"));
	char k[IDENT_KEY_MAX];
	ck_assert_int_eq(ident_key("Anne", k, sizeof k), 0);
	ck_assert_str_eq(k, "anne");
}
END_TEST

START_TEST(test_chat)
{
	i18n_set_lang("en", NULL, 0);
	char out[512], err[256];
	ck_assert_int_eq(ident_chat("  hi \u202eevil\u2066 a\u200bb\u2028c\nd\x7f\x1b[31m red ", out, sizeof out, NULL, err,
	                            sizeof err), 0);
	ck_assert_str_eq(out, "hi evil ab c d[31m red");
	ck_assert_int_eq(ident_chat("Bravo \u2764\ufe0f \U0001F468\u200d\U0001F469 très bien, Жанна", out, sizeof out,
	                            NULL, err, sizeof err), 0);
	ck_assert_str_eq(out, "Bravo \u2764\ufe0f \U0001F468\u200d\U0001F469 très bien, Жанна");
	ck_assert_int_eq(ident_chat("\u200b\u202e \x1b\u2028", out, sizeof out, NULL, err, sizeof err), -1);
	ck_assert(strstr(err, "empty") != NULL);
	/* Blank by Unicode's white space: no-break spaces, the ideographic
	 * space, the narrow and the medium ones, a Hangul filler. */
	ck_assert_int_eq(ident_chat("\u00a0\u00a0\u00a0", out, sizeof out, NULL, err, sizeof err), -1);
	ck_assert_int_eq(ident_chat(" \u3000\u202f\u205f\u2007\u3164 \u00a0", out, sizeof out, NULL, err, sizeof err), -1);
	ck_assert(strstr(err, "empty") != NULL);
	/* Trimmed of them at both ends, kept inside. */
	ck_assert_int_eq(ident_chat("\u00a0\u3000 bon\u00a0jeu \u202f\u00a0", out, sizeof out, NULL, err, sizeof err), 0);
	ck_assert_str_eq(out, "bon\u00a0jeu");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ident");
	TCase *tc = tcase_create("ident");
	tcase_add_test(tc, test_good_names);
	tcase_add_test(tc, test_bad_names);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_chat);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
