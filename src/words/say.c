/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG l
#include "words/say.h"

#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "i18n/i18n.h"
#include "words/talk.h"

/* Rank words by rank 2..14, each as bare, with its article, and plural. */
static const char *const RANK_BARE[15] = {
	NULL, NULL, N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
	N_("eight"), N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"), N_("ace"),
};
static const char *const RANK_THE[15] = {
	NULL, NULL, N_("the two"), N_("the three"), N_("the four"), N_("the five"), N_("the six"),
	N_("the seven"), N_("the eight"), N_("the nine"), N_("the ten"), N_("the jack"),
	N_("the queen"), N_("the king"), N_("the ace"),
};
static const char *const RANK_PLURAL[15] = {
	NULL, NULL, N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"), N_("sevens"),
	N_("eights"), N_("nines"), N_("tens"), N_("jacks"), N_("queens"), N_("kings"), N_("aces"),
};
static const char *const SUIT_NAME[4] = { N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs") };
/* TRANSLATORS: %s is a rank with or without its article ("the queen"). */
static const char *const OF_SUIT[4] = { N_("%s of spades"), N_("%s of hearts"), N_("%s of diamonds"),
                                         N_("%s of clubs") };

/* Seat names: the same in both languages. */
static const char *const NAMES[12] = {
	"Anne", "Bruno", "Claire", "Denis", "Emma", "Félix",
	"Gaston", "Hélène", "Inès", "Jules", "Karim", "Léa",
};

const char *say_rank(const struct i18n_lang *l, int rank, int form)
{
	if (rank < 2 || rank > 14)
		return "?";
	switch (form) {
	case SAY_RANK_THE: return _(RANK_THE[rank]);
	case SAY_RANK_PLURAL: return _(RANK_PLURAL[rank]);
	default: return _(RANK_BARE[rank]);
	}
}

const char *say_suit(const struct i18n_lang *l, int suit)
{
	return (suit >= 0 && suit < 4) ? _(SUIT_NAME[suit]) : "?";
}

void say_card(const struct i18n_lang *l, struct sbuf *b, card_t c, int form)
{
	if (!card_valid(c)) {
		sb_puts(b, "?");
		return;
	}
	const char *rank = say_rank(l, card_rank(c), form == SAY_THE ? SAY_RANK_THE : SAY_RANK_BARE);
	sb_printf(b, _(OF_SUIT[card_suit(c)]), rank);
}

const char *say_card_str(const struct i18n_lang *l, card_t c, int form, char *buf, unsigned long len)
{
	struct sbuf b;
	sb_clear(&b);
	say_card(l, &b, c, form);
	return sb_copy(&b, buf, len);
}

void say_join(const struct i18n_lang *l, struct sbuf *b, int k, int n)
{
	if (k == 0)
		return;
	sb_puts(b, k == n - 1 ? _(" and ") : ", ");
}

void say_cards(const struct i18n_lang *l, struct sbuf *b, const card_t *cards, int n, int form)
{
	for (int i = 0; i < n; i++) {
		say_join(l, b, i, n);
		say_card(l, b, cards[i], form);
	}
}

void say_hand(const struct i18n_lang *l, struct sbuf *b, const card_t *cards, int n)
{
	if (n == 0) {
		sb_puts(b, _("no cards"));
		return;
	}
	int i = 0;
	while (i < n) {
		int suit = card_suit(cards[i]);
		int j = i;
		while (j < n && card_suit(cards[j]) == suit)
			j++;
		struct sbuf ranks;
		sb_clear(&ranks);
		for (int k = i; k < j; k++) {
			if (k > i)
				sb_puts(&ranks, ", ");
			sb_puts(&ranks, say_rank(l, card_rank(cards[k]), SAY_RANK_BARE));
		}
		if (i > 0)
			/* TRANSLATORS: between the suits of a hand or the cards of a
			 * trick; French wants a space before the semicolon. */
			sb_puts(b, _("; "));
		/* TRANSLATORS: a suit then its cards in a hand: "hearts: ace, ten". */
		sb_printf(b, _("%1$s: %2$s"), say_suit(l, suit), ranks.s);
		i = j;
	}
}

const char *say_name(const struct talk *t, int seat)
{
	const struct i18n_lang *l = t->lang;
	if (seat < 0 || seat >= 12)
		return "?";
	if (t && seat == t->me)
		return _("you");
	if (t && t->name[seat][0])
		return t->name[seat];
	return NAMES[seat];
}

static const unsigned char FEMININE[12] = { 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1 };

int say_feminine(const struct talk *t, int seat)
{
	if (seat < 0 || seat >= 12 || (t && seat == t->me))
		return 0;
	if (t && t->name[seat][0])
		return t->feminine[seat];
	return FEMININE[seat];
}

const char *say_unmark(const char *in, char *out, unsigned long len)
{
	unsigned long o = 0;
	if (!len)
		return out;
	for (; *in && o + 1 < len; in++)
		if (*in != SAY_KEEP_OPEN && *in != SAY_KEEP_CLOSE)
			out[o++] = *in;
	/* Cut inside a character: drop its first bytes too. */
	if (utf8_cont((unsigned char)*in) && o > 0)
		o = utf8_start(out, o - 1);
	out[o] = '\0';
	return out;
}

/* A name folded for comparing by ear: ASCII letters in lower case, the
 * accented letters of French as their base letter ("Hélène" is "helene"). */
static void fold(const char *in, char *out, size_t len)
{
	static const char *const accented[] = { "àâä", "a", "ç", "c", "éèêë", "e", "îï", "i", "ôö", "o", "ùûü", "u",
	                                        "ÀÂÄ", "a", "Ç", "c", "ÉÈÊË", "e", "ÎÏ", "i", "ÔÖ", "o", "ÙÛÜ", "u" };
	size_t o = 0;
	while (*in && o + 1 < len) {
		unsigned char c = (unsigned char)*in;
		if (c == 0xc3 && in[1]) {
			char base = 0;
			for (size_t k = 0; k < sizeof accented / sizeof accented[0] && !base; k += 2)
				for (const char *a = accented[k]; *a && !base; a += 2)
					if (a[1] == in[1])
						base = accented[k + 1][0];
			if (base) {
				out[o++] = base;
				in += 2;
				continue;
			}
		}
		out[o++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		in++;
	}
	out[o] = '\0';
}

/* The built-in name each bot's seat gets (an index into NAMES, -1 for a
 * person's seat): its own seat's when no person there has it (names
 * compared without case or accents), else the first nobody has. */
static void bot_names(const char *const *person, int n, int builtin[12])
{
	char folded[12][TALK_NAME_MAX];
	int taken[12] = { 0 }; /* built-in names a person or a bot has */
	int people[12] = { 0 };
	for (int s = 0; s < n; s++) {
		folded[s][0] = '\0';
		people[s] = person && person[s] && person[s][0];
		if (people[s])
			fold(person[s], folded[s], sizeof folded[s]);
	}
	for (int k = 0; k < 12; k++) {
		char f[TALK_NAME_MAX];
		fold(NAMES[k], f, sizeof f);
		for (int s = 0; s < n; s++)
			taken[k] |= folded[s][0] && !strcmp(folded[s], f);
	}
	/* Bots keep their own seat's name when they can: a seat whose name a
	 * person has gives way first. */
	for (int s = 0; s < n; s++) {
		builtin[s] = -1;
		if (!people[s] && !taken[s]) {
			builtin[s] = s;
			taken[s] = 1;
		}
	}
	for (int s = 0; s < n; s++) {
		if (people[s] || builtin[s] >= 0)
			continue;
		for (int k = 0; builtin[s] < 0 && k < 12; k++)
			if (!taken[k]) {
				builtin[s] = k;
				taken[k] = 1;
			}
		if (builtin[s] < 0) /* not with 12 seats at most: a name for each */
			builtin[s] = s;
	}
}

const char *say_bot_name(const char *const *person, int n, int seat)
{
	if (n > 12)
		n = 12;
	if (seat < 0 || seat >= n || (person && person[seat] && person[seat][0]))
		return NULL;
	int builtin[12];
	bot_names(person, n, builtin);
	return NAMES[builtin[seat]];
}

void say_set_names(struct talk *t, const char *const *person, int n)
{
	const struct i18n_lang *l = t->lang;
	memset(t->name, 0, sizeof t->name);
	memset(t->feminine, 0, sizeof t->feminine);
	if (!person)
		return;
	if (n > 12)
		n = 12;
	int builtin[12];
	bot_names(person, n, builtin);
	for (int s = 0; s < n; s++) {
		if (builtin[s] < 0) {
			snprintf(t->name[s], sizeof t->name[s], "%c%.*s%c", SAY_KEEP_OPEN, TALK_NAME_MAX - 3, person[s],
			         SAY_KEEP_CLOSE);
			t->feminine[s] = -1;
			continue;
		}
		/* TRANSLATORS: a seat a bot plays at a table of people: its
		 * built-in name and what it is ("Claire (bot)"). */
		snprintf(t->name[s], sizeof t->name[s], _("%s (bot)"), NAMES[builtin[s]]);
		t->feminine[s] = (signed char)FEMININE[builtin[s]];
	}
}

const char *say_Name(const struct talk *t, int seat)
{
	const struct i18n_lang *l = t->lang;
	if (t && seat == t->me)
		return _("You");
	return say_name(t, seat);
}

void say_who(struct sbuf *b, const struct talk *t, int seat,
             const char *you_fmt, const char *other_fmt, const char *arg)
{
	if (t && seat == t->me)
		sb_printf(b, you_fmt, arg);
	else
		sb_printf(b, other_fmt, say_name(t, seat), arg);
}

void say_number(const struct i18n_lang *l, struct sbuf *b, int n, int flags)
{
	if (n < 0)
		/* TRANSLATORS: a number below zero, said with a word (espeak-ng
		 * drops a bare minus sign). */
		sb_printf(b, _("minus %d"), -n);
	else if (n > 0 && (flags & SAY_PLUS))
		/* TRANSLATORS: a gain, beside losses said "minus 16". */
		sb_printf(b, _("plus %d"), n);
	else
		sb_printf(b, "%d", n);
}

const char *say_number_str(const struct i18n_lang *l, int n, int flags, char *buf, unsigned long len)
{
	struct sbuf b;
	sb_clear(&b);
	say_number(l, &b, n, flags);
	return sb_copy(&b, buf, len);
}

void say_chips(const struct i18n_lang *l, struct sbuf *b, int n)
{
	if (n < 0)
		sb_printf(b, P_("minus %d chip", "minus %d chips", -n), -n);
	else
		sb_printf(b, P_("%d chip", "%d chips", n), n);
}

void say_points(const struct i18n_lang *l, struct sbuf *b, int n)
{
	if (n < 0)
		sb_printf(b, P_("minus %d point", "minus %d points", -n), -n);
	else
		sb_printf(b, P_("%d point", "%d points", n), n);
}
