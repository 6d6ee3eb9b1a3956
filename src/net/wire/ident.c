/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/ident.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "core/err.h"
#include "core/termtext.h"
#include "core/utf8.h"
#include "i18n/i18n.h"

#define UMAX 256   /* UTF-16 units of a name at any step */

/* Words nobody may take as a name (compared by key). */
static const char *const RESERVED[] = {
	"server", "serveur", "system", "système", "admin", "administrator", "administrateur",
	"moderator", "modérateur", "modo", "bot", "robot", "tapis", "root", "operator", "opérateur",
	"administratrice", "modératrice", "opératrice", "moderateur", "moderatrice", "administration",
};
/* Words a name may not end with: "Claire bot" is a bot's name. */
static const char *const BOT_WORDS[] = { "bot", "robot" };

/* The spoof checker, made once and then only read (ICU allows concurrent
 * use of a checker that is no longer changed). */
static USpoofChecker *checker;
static pthread_once_t checker_once = PTHREAD_ONCE_INIT;

static void make_checker(void)
{
	UErrorCode st = U_ZERO_ERROR;
	USpoofChecker *sc = uspoof_open(&st);
	if (U_FAILURE(st))
		return;
	uspoof_setChecks(sc, USPOOF_RESTRICTION_LEVEL | USPOOF_CHAR_LIMIT | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS,
	                 &st);
	uspoof_setRestrictionLevel(sc, USPOOF_HIGHLY_RESTRICTIVE);
	uspoof_setAllowedChars(sc, uspoof_getRecommendedSet(&st), &st);
	if (U_FAILURE(st)) {
		uspoof_close(sc);
		return;
	}
	checker = sc;
}

static USpoofChecker *spoof(void)
{
	pthread_once(&checker_once, make_checker);
	return checker;
}

#define NRESERVED (sizeof RESERVED / sizeof RESERVED[0])
#define NBOT_WORDS (sizeof BOT_WORDS / sizeof BOT_WORDS[0])
static int keys_of(const char *name, char key[2][IDENT_KEY_MAX]);

/* The keys of the reserved words, made once. */
static char reserved_keys[NRESERVED + NBOT_WORDS][2][IDENT_KEY_MAX];
static pthread_once_t reserved_once = PTHREAD_ONCE_INIT;

static void make_reserved(void)
{
	for (size_t i = 0; i < NRESERVED; i++)
		keys_of(RESERVED[i], reserved_keys[i]);
	for (size_t i = 0; i < NBOT_WORDS; i++)
		keys_of(BOT_WORDS[i], reserved_keys[NRESERVED + i]);
}

static int is_sep(UChar32 c)
{
	return c == ' ' || c == '-' || c == '\'' || c == 0x2019 || c == '.' || c == '_';
}

/* UTF-8 to NFC UTF-16; the length, or -1. */
static int32_t to_nfc(const char *s, UChar *out, int32_t cap)
{
	UChar raw[UMAX];
	int32_t n = 0;
	UErrorCode st = U_ZERO_ERROR;
	u_strFromUTF8(raw, UMAX, &n, s, -1, &st);
	if (U_FAILURE(st) || n >= UMAX)
		return -1;
	const UNormalizer2 *nfc = unorm2_getNFCInstance(&st);
	if (U_FAILURE(st))
		return -1;
	n = unorm2_normalize(nfc, raw, n, out, cap, &st);
	return U_FAILURE(st) || n >= cap ? -1 : n;
}

static int to_utf8(const UChar *s, int32_t n, char *out, size_t outlen)
{
	UErrorCode st = U_ZERO_ERROR;
	int32_t len = 0;
	u_strToUTF8(out, (int32_t)outlen, &len, s, n, &st);
	if (U_FAILURE(st) || (size_t)len >= outlen)
		return -1;
	out[len] = '\0';
	return 0;
}

/* A key of NFC text u[0..n): separators out, skeleton, case-folded; the
 * case folded first too when first_fold ("ANNE" is "Anne"), or not
 * ("BiII" is "Bill": a capital I looks like an l). */
static int key_of(const UChar *u, int32_t n, int first_fold, char *key, size_t keylen)
{
	UChar fold[UMAX], bare[UMAX], skel[4 * UMAX];
	UErrorCode st = U_ZERO_ERROR;
	int32_t nf = n;
	if (first_fold)
		nf = u_strFoldCase(fold, UMAX, u, n, U_FOLD_CASE_DEFAULT, &st);
	else
		memcpy(fold, u, (size_t)n * sizeof *u);
	if (U_FAILURE(st) || nf >= UMAX)
		return -1;
	int32_t nb = 0;
	for (int32_t i = 0; i < nf;) {
		UChar32 c;
		U16_NEXT(fold, i, nf, c);
		if (!is_sep(c))
			U16_APPEND_UNSAFE(bare, nb, c);
	}
	USpoofChecker *sc = spoof();
	if (!sc)
		return -1;
	int32_t ns = uspoof_getSkeleton(sc, 0, bare, nb, skel, 4 * UMAX, &st);
	if (U_FAILURE(st) || ns >= 4 * UMAX)
		return -1;
	/* The skeleton is decomposed (NFD): its accents are marks of their
	 * own, dropped, so that "Páulo" is "Paulo" (a name heard, or read
	 * quickly, is the same with or without them). */
	int32_t nm = 0;
	for (int32_t i = 0; i < ns;) {
		UChar32 c;
		U16_NEXT(skel, i, ns, c);
		if (u_charType(c) != U_NON_SPACING_MARK)
			U16_APPEND_UNSAFE(skel, nm, c);
	}
	ns = nm;
	/* The skeleton may map to capitals ("l" for "I"): folded again. */
	nf = u_strFoldCase(fold, UMAX, skel, ns, U_FOLD_CASE_DEFAULT, &st);
	if (U_FAILURE(st) || nf >= UMAX)
		return -1;
	return to_utf8(fold, nf, key, keylen);
}

static int keys_of(const char *name, char key[2][IDENT_KEY_MAX])
{
	UChar u[UMAX];
	int32_t n = to_nfc(name, u, UMAX);
	for (int f = 0; f < 2; f++)
		if (n < 0 || key_of(u, n, !f, key[f], IDENT_KEY_MAX) < 0)
			snprintf(key[f], IDENT_KEY_MAX, "%s", name);
	return n < 0 ? -1 : 0;
}

int ident_key(const char *name, char *key, size_t keylen)
{
	char k[2][IDENT_KEY_MAX];
	int rc = keys_of(name, k);
	snprintf(key, keylen, "%s", k[0]);
	return rc;
}

/* Alike when one of the two keys is the same. */
static int keys_alike(char a[2][IDENT_KEY_MAX], char b[2][IDENT_KEY_MAX])
{
	return !strcmp(a[0], b[0]) || !strcmp(a[1], b[1]);
}

int ident_alike(const char *a, const char *b)
{
	char ka[2][IDENT_KEY_MAX], kb[2][IDENT_KEY_MAX];
	keys_of(a, ka);
	keys_of(b, kb);
	return keys_alike(ka, kb);
}

void ident_keys_of(const char *name, struct ident_keys *k)
{
	keys_of(name, k->k);
}

int ident_keys_alike(const struct ident_keys *a, const struct ident_keys *b)
{
	return !strcmp(a->k[0], b->k[0]) || !strcmp(a->k[1], b->k[1]);
}

/* u[0..n) alike one of the reserved keys [from, to). */
static int alike_any(const UChar *u, int32_t n, size_t from, size_t to)
{
	char key[2][IDENT_KEY_MAX];
	for (int f = 0; f < 2; f++)
		if (key_of(u, n, !f, key[f], IDENT_KEY_MAX) < 0)
			return 1;
	pthread_once(&reserved_once, make_reserved);
	for (size_t i = from; i < to; i++)
		if (keys_alike(key, reserved_keys[i]))
			return 1;
	return 0;
}

static int reserved(const UChar *u, int32_t n)
{
	if (alike_any(u, n, 0, NRESERVED))
		return 1;
	/* The last word. */
	int32_t last = n;
	while (last > 0 && u[last - 1] != ' ')
		last--;
	return last > 0 && alike_any(u + last, n - last, NRESERVED, NRESERVED + NBOT_WORDS);
}

int ident_check(const char *in, char *out, size_t outlen, const struct i18n_lang *L, char *err, size_t errlen)
{
	UChar all[UMAX], u[UMAX];
	int32_t n = to_nfc(in, all, UMAX);
	if (n < 0)
		return errf(err, errlen, i18n_tr(L, "a name has %d to %d characters"), IDENT_MIN, IDENT_MAX);
	/* Trimmed of spaces (and of nothing else: other blanks are refused). */
	int32_t from = 0, to = n;
	while (from < to && all[from] == ' ')
		from++;
	while (to > from && all[to - 1] == ' ')
		to--;
	n = to - from;
	memcpy(u, all + from, (size_t)n * sizeof *u);
	int32_t chars = u_countChar32(u, n);
	if (chars < IDENT_MIN || chars > IDENT_MAX)
		return errf(err, errlen, i18n_tr(L, "a name has %d to %d characters"), IDENT_MIN, IDENT_MAX);
	/* The characters one by one; the letters and digits alone go to the
	 * spoof checker (it knows no spaces). */
	UChar word[UMAX];
	int32_t nw = 0;
	UChar32 prev = 0;
	for (int32_t i = 0; i < n;) {
		UChar32 c;
		U16_NEXT(u, i, n, c);
		int cat = u_charType(c);
		int letter = (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK)) || cat == U_DECIMAL_DIGIT_NUMBER;
		if (letter && (!u_hasBinaryProperty(c, UCHAR_XID_CONTINUE) ||
		               u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)))
			letter = 0; /* a Hangul filler is a "letter" nobody sees */
		if (!letter && !is_sep(c))
			return errf(err, errlen, "%s",
			            i18n_tr(L, "a name holds letters, digits, spaces, hyphens, apostrophes and periods only"));
		if (prev == 0 && (!letter || (U_GET_GC_MASK(c) & U_GC_M_MASK)))
			return errf(err, errlen, "%s", i18n_tr(L, "a name begins with a letter or a digit"));
		if (c == ' ' && prev == ' ')
			return errf(err, errlen, "%s", i18n_tr(L, "a name has one space between words, not two"));
		if (letter)
			U16_APPEND_UNSAFE(word, nw, c);
		prev = c;
	}
	USpoofChecker *sc = spoof();
	if (!sc)
		return errf(err, errlen, "%s", i18n_tr(L, "the server cannot check names now"));
	char w8[4 * UMAX];
	if (to_utf8(word, nw, w8, sizeof w8) < 0)
		return errf(err, errlen, i18n_tr(L, "a name has %d to %d characters"), IDENT_MIN, IDENT_MAX);
	UErrorCode st = U_ZERO_ERROR;
	int32_t bad = uspoof_check2UTF8(sc, w8, -1, NULL, &st);
	if (U_FAILURE(st))
		return errf(err, errlen, "%s", i18n_tr(L, "the server cannot check names now"));
	if (bad & (USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS))
		return errf(err, errlen, "%s",
		            i18n_tr(L, "a name is written in one script: no Cyrillic or Greek letter among Latin ones"));
	if (bad)
		return errf(err, errlen, "%s",
		            i18n_tr(L, "a name holds letters, digits, spaces, hyphens, apostrophes and periods only"));
	if (reserved(u, n))
		return errf(err, errlen, "%s", i18n_tr(L, "that name is kept for the server and its bots"));
	if (to_utf8(u, n, out, outlen) < 0)
		return errf(err, errlen, i18n_tr(L, "a name has %d to %d characters"), IDENT_MIN, IDENT_MAX);
	return 0;
}

/* A character that shows nothing: Unicode's white space (the no-break
 * spaces, the ideographic one...) and the Hangul fillers drawn blank. */
static int blank_char(uint32_t c)
{
	return u_hasBinaryProperty((UChar32)c, UCHAR_WHITE_SPACE) || c == 0x115f || c == 0x1160 || c == 0x3164 ||
	       c == 0xffa0;
}

/* The length of the blank characters that begin s (n bytes). */
static size_t blank_run(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint32_t c;
		size_t k = utf8_decode(s + i, n - i, &c);
		if (!k || !blank_char(c))
			break;
		i += k;
	}
	return i;
}

int ident_chat(const char *in, char *out, size_t outlen, const struct i18n_lang *L, char *err, size_t errlen)
{
	termtext_clean(in, strlen(in), out, outlen);
	/* Trimmed of blank characters at both ends (a line of them: empty). */
	size_t a = blank_run(out, strlen(out)), b = strlen(out);
	while (b > a) {
		size_t start = utf8_start(out, b - 1);
		if (start < a || blank_run(out + start, b - start) != b - start)
			break;
		b = start;
	}
	memmove(out, out + a, b - a);
	out[b - a] = '\0';
	if (!out[0])
		return errf(err, errlen, "%s",
		            i18n_tr(L, "the message is empty once its invisible characters are taken out"));
	return 0;
}
