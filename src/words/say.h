/* SPDX-License-Identifier: GPL-3.0-or-later */
/* say: the words every game shares, in the current language: cards, ranks,
 * suits, seats, lists, amounts. Games' talk modules build their sentences
 * with these, so card names agree everywhere ("la dame de cœur",
 * "l'as de pique", "le dix de carreau"). */
#ifndef TAPIS_SAY_H
#define TAPIS_SAY_H

#include "core/card.h"
#include "core/sbuf.h"
#include "words/talk.h"

/* l: the language of the words (i18n_of; NULL: the one in force). */

enum say_form {
	SAY_THE,     /* "the queen of hearts" / "la dame de cœur" */
	SAY_BARE,    /* "queen of hearts" / "dame de cœur" */
};

/* A card, with or without its article. */
void say_card(const struct i18n_lang *l, struct sbuf *b, card_t c, int form);
/* A card as a string in a static buffer of the caller. */
const char *say_card_str(const struct i18n_lang *l, card_t c, int form, char *buf, unsigned long len);
/* Sizes of the caller's buffers for a few words of a sentence: a card with
 * its article ("the queen of hearts"), a number or an amount ("minus 16",
 * "3 chips", "30.4"), a seat's name. */
#define SAY_CARD_MAX 96
#define SAY_NUMBER_MAX 32
#define SAY_NAME_MAX TALK_NAME_MAX
/* A rank: "queen" / "dame", with article "the queen" / "la dame", plural
 * "queens" / "dames". */
enum say_rank_form { SAY_RANK_BARE, SAY_RANK_THE, SAY_RANK_PLURAL };
const char *say_rank(const struct i18n_lang *l, int rank, int form);
/* A suit: "hearts" / "cœur"; SAY_THE gives "hearts" / "le cœur"... */
const char *say_suit(const struct i18n_lang *l, int suit);
/* Cards grouped by suit, best first: "spades: ace, king; hearts: ten". */
void say_hand(const struct i18n_lang *l, struct sbuf *b, const card_t *cards, int n);
/* A list of cards: "the ace of spades, the ten of hearts and the two of clubs". */
void say_cards(const struct i18n_lang *l, struct sbuf *b, const card_t *cards, int n, int form);

/* Names: "you"/"vous" for the listening seat, a name for the others: the
 * built-in first name of the seat (Anne, Bruno...) unless say_set_names
 * gave the seats other names. */
const char *say_name(const struct talk *t, int seat);
/* 1 when the seat's first name is a woman's (French agreement: "Anne est
 * bourrée"); 0 for a man's and for the listener ("vous"); -1 when it is not
 * known (a person's name): the caller then says it in words that need no
 * agreement. */
int say_feminine(const struct talk *t, int seat);
/* Marks around a person's name in a sentence being made: the French
 * contractions (french_contract) leave what is between them as it
 * is ("de Le Goff" stays) and drop the marks; say_unmark drops them
 * otherwise. Names hold no control character (net/proto checks them). */
#define SAY_KEEP_OPEN '\x0e'
#define SAY_KEEP_CLOSE '\x0f'
/* in without the marks, into out (len bytes, cut at a character's start);
 * returns out. */
const char *say_unmark(const char *in, char *out, unsigned long len);
/* Name the seats for t's listener, in the language in force. person[s]:
 * the name of the person holding seat s (NULL or "": none, a bot plays
 * it); n seats. A person is called by their name, also while a bot plays
 * for them (they are away); a seat without a person by a built-in name
 * that says it is a bot ("Claire (bot)" / "Claire (robot)"): its own, or,
 * when a person at the table is called so (letter case and accents
 * aside), the first built-in name no person and no other bot has. person
 * NULL: the built-in names alone (local play). */
void say_set_names(struct talk *t, const char *const *person, int n);
/* The built-in first name ("Claire") of the bot at seat s of n, when
 * person[] holds the seats (as say_set_names takes them): the name every
 * listener's sentences give it; NULL when a person holds the seat. */
const char *say_bot_name(const char *const *person, int n, int seat);
/* Capitalized: "You" / "Vous" / "Anne". */
const char *say_Name(const struct talk *t, int seat);
/* A sentence whose subject is a seat: you_fmt has one %s (arg), other_fmt
 * has %1$s (the name) and %2$s (arg); both are msgids already translated. */
void say_who(struct sbuf *b, const struct talk *t, int seat,
             const char *you_fmt, const char *other_fmt, const char *arg);
/* A whole number as espeak-ng reads it right: "16", "minus 16" /
 * "moins 16" (a bare "-16" is read "16", the sign lost). With SAY_PLUS a
 * positive number is said "plus 16" (a gain beside a loss). */
enum say_number_flags { SAY_PLUS = 1 };
void say_number(const struct i18n_lang *l, struct sbuf *b, int n, int flags);
const char *say_number_str(const struct i18n_lang *l, int n, int flags, char *buf, unsigned long len);
/* "3 chips" / "3 jetons"; "1 point"; below zero "minus 3 points". */
void say_chips(const struct i18n_lang *l, struct sbuf *b, int n);
void say_points(const struct i18n_lang *l, struct sbuf *b, int n);
/* "and" joining: appends item with ", " or " and " as the k-th of n. */
void say_join(const struct i18n_lang *l, struct sbuf *b, int k, int n);

#endif
