/* SPDX-License-Identifier: GPL-3.0-or-later */
/* french: the contractions of French sentences built from parts. Pure
 * text: no speaker; the views, the table and the speech queue use it. */
#include "words/french.h"

#include <string.h>

#include "words/say.h"

const char *french_contract(const char *in, char *out, size_t len)
{
#define RULE(from, to) { from, to, sizeof from - 1, sizeof to - 1 }
	static const struct { const char *from, *to; size_t nfrom, nto; } rules[] = {
		RULE("partie de Le ", "partie de "),
		RULE("partie de La ", "partie de "),
		RULE("partie de L'", "partie d'"),
		RULE("Partie de Le ", "Partie de "),
		RULE("Partie de La ", "Partie de "),
		RULE("de Le ", "du "),
		RULE("de La ", "de la "),
		RULE("de L'", "de l'"),
		RULE("à Le ", "au "),
		RULE("à La ", "à la "),
		RULE("à L'", "à l'"),
		/* "que" before the number 1 (« un ») elided: « vous n'avez
		 * qu'1 % de chances ». */
		RULE("que 1 ", "qu'1 "),
	};
#undef RULE
	enum { NRULES = sizeof rules / sizeof rules[0], RULE_L_MAX = 12 };
	size_t o = 0;
	if (!len)
		return out;
	/* Every rule but the elision turns a capital L (at most RULE_L_MAX
	 * bytes into it): the text before the first one that could start a
	 * rule stays as it is, copied whole (all of it when there is no L
	 * nor "que 1 ", as in most). */
	const char *L = strchr(in, 'L'), *que = strstr(in, "que 1 ");
	size_t keep = L ? (size_t)(L - in) : strlen(in);
	keep = L ? (keep > RULE_L_MAX + 2 ? keep - RULE_L_MAX - 2 : 0) : keep;
	if (que && (size_t)(que - in) < keep)
		keep = (size_t)(que - in);
	size_t unmarked = strcspn(in, "\x0e\x0f"); /* SAY_KEEP_OPEN, SAY_KEEP_CLOSE */
	if (keep > unmarked)
		keep = unmarked;
	if (keep > len - 1)
		keep = len - 1;
	memcpy(out, in, keep);
	o = keep;
	in += keep;
	/* One pass; the rules are tried only where one may start (a word's
	 * start, on the first byte of one of theirs): this runs on every
	 * text a server's views make. */
	while (*in && o + 1 < len) {
		if (*in == SAY_KEEP_OPEN || *in == SAY_KEEP_CLOSE) {
			/* A person's name: copied as it is, without its marks. */
			if (*in++ == SAY_KEEP_OPEN)
				while (*in && *in != SAY_KEEP_CLOSE && o + 1 < len)
					out[o++] = *in++;
			continue;
		}
		size_t k = NRULES;
		/* Only at the start of a word. */
		int word_start = o == 0 || out[o - 1] == ' ' || out[o - 1] == '(';
		unsigned char c0 = (unsigned char)*in;
		if (word_start && (c0 == 'p' || c0 == 'P' || c0 == 'd' || c0 == 'q' || c0 == 0xc3))
			for (k = 0; k < NRULES; k++)
				if ((unsigned char)rules[k].from[0] == c0 && !strncmp(in, rules[k].from, rules[k].nfrom))
					break;
		/* A title's article after a word in lower case: "Reprendre le
		 * Brelan". */
		int after_word = o >= 2 && out[o - 1] == ' ' && out[o - 2] >= 'a' && out[o - 2] <= 'z';
		if (k < NRULES) {
			size_t n = rules[k].nto;
			if (o + n >= len)
				break;
			memcpy(out + o, rules[k].to, n);
			o += n;
			in += rules[k].nfrom;
		} else if (after_word && in[0] == 'L' &&
		           (!strncmp(in, "Le ", 3) || !strncmp(in, "La ", 3) || !strncmp(in, "Les ", 4) || in[1] == '\'')) {
			out[o++] = 'l';
			in++;
		} else {
			out[o++] = *in++;
		}
	}
	out[o] = '\0';
	return out;
}
