/* SPDX-License-Identifier: GPL-3.0-or-later */
/* i18n: the language of everything a player hears or reads. Catalogues are
 * gettext .mo files compiled from locales/LANG.po; the msgids are English.
 * A language is a value (i18n_of) that the phrasing is given (struct
 * talk's lang); the language in force (i18n_set_lang) is what the
 * program's own messages use: its options, its errors, the menus of the
 * terminal (the rules core never sees either). */
#ifndef TAPIS_I18N_H
#define TAPIS_I18N_H

/* Make lang ("en", "fr") the language in force: the program's own user's
 * (the server has none; it gives each listener's as a value, i18n_of).
 * Its catalogue is read the first time and kept (so is a failure to read
 * it): switching back and forth costs a pointer. 0, or -1 when it cannot
 * be read (the English msgids are then used and the message says why). */
int i18n_set_lang(const char *lang, char *err, unsigned long errlen);
/* Make the catalogue held in memory (size bytes of a .mo file; copied)
 * the one in force, with the checks of a file's; 0, or -1 with a message
 * naming it `name` (the catalogue in force is then kept). For the tests
 * and the fuzz target. The file of that language is read again when
 * i18n_set_lang asks for it. */
int i18n_load_buffer(const void *data, unsigned long size, const char *name, char *err, unsigned long errlen);
/* Entries of the catalogue in force whose translation is not used: its
 * printf directives do not match its msgid's (a broken or hostile
 * catalogue), so the English is said instead. */
unsigned long i18n_refused(void);
/* "en" or "fr". */
const char *i18n_lang(void);
/* 1 when lang names a language tapis speaks, exactly ("en" or "fr"; not
 * "fr_FR" nor ""), else 0: the check of --lang, the settings and the protocol. */
int i18n_lang_known(const char *lang);
/* The language asked for by the environment (LANGUAGE, LC_ALL, LC_MESSAGES,
 * LANG): "fr" when it starts with fr, else "en". */
const char *i18n_env_lang(void);
const char *i18n_get(const char *msgid);
const char *i18n_nget(const char *msgid, const char *plural, long n);
/* With a context (msgctxt), for words that need it ("card" the noun...). */
const char *i18n_pget(const char *ctx, const char *msgid);
/* The languages as values: a phrasing given one looks its words up in it,
 * whatever language is in force, and switches nothing. i18n_of reads the
 * catalogue the first time (unreadable: the English msgids are said);
 * the handle lasts as long as the process. */
struct i18n_lang;
const struct i18n_lang *i18n_of(const char *lang);
/* "en" or "fr". A NULL language, here and below: the one in force. */
const char *i18n_code(const struct i18n_lang *l);
int i18n_is_fr(const struct i18n_lang *l);
const char *i18n_tr(const struct i18n_lang *l, const char *msgid);
const char *i18n_ntr(const struct i18n_lang *l, const char *msgid, const char *plural, long n);
const char *i18n_ptr(const struct i18n_lang *l, const char *ctx, const char *msgid);
/* Forget every catalogue (the next i18n_set_lang reads its file again). */
void i18n_release(void);

/* A file that phrases for a listener defines I18N_LANG, before it
 * includes anything, as the expression of the listener's language (a
 * struct i18n_lang *, e.g. t->lang): its _() P_() C_() then look the words
 * up in that language, never in the one in force. */
#ifdef I18N_LANG
#define _(s) i18n_tr((I18N_LANG), (s))
#define P_(s, p, n) i18n_ntr((I18N_LANG), (s), (p), (n))
#define C_(ctx, s) i18n_ptr((I18N_LANG), (ctx), (s))
#else
#define _(s) i18n_get(s)
#define P_(s, p, n) i18n_nget((s), (p), (n))
#define C_(ctx, s) i18n_pget((ctx), (s))
#endif
#define N_(s) (s)
/* The same in a language given as a value (the phrasing's: a talk's). */
#define L_(l, s) i18n_tr((l), (s))
#define LP_(l, s, p, n) i18n_ntr((l), (s), (p), (n))
#define LC_(l, ctx, s) i18n_ptr((l), (ctx), (s))

#endif
