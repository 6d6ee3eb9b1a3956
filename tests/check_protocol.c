/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The client messages of docs/protocol.md ("Client messages") are those
 * the lobby's dispatch has a row for, each by its word (net/server/req),
 * no more and no fewer, each with its row's size limit; and the limit is
 * the server's: a message one byte over it is refused as too long. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/server/lobby.h"
#include "net/server/req.h"
#include "net/wire/proto.h"
#include "testutil.h"

#define DOC_MAX 64

/* The words of the first column of the "## Client messages" table, and
 * the bytes of its last (-1 when it holds no number). */
static int doc_words(char words[][32], long bytes[], int max)
{
	const char *dir = getenv("TAPIS_DATADIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/docs/protocol.md", dir ? dir : ".");
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s cannot be read", path);
	char line[4096];
	int in = 0, n = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "## ", 3)) {
			if (in)
				break;
			in = !strncmp(line, "## Client messages", 18);
			continue;
		}
		const char *p = line, *e;
		if (!in || strncmp(p, "| `", 3) != 0 || !(e = strchr(p + 3, '`')))
			continue;
		ck_assert_int_lt(n, max);
		snprintf(words[n], sizeof words[n], "%.*s", (int)(e - p - 3), p + 3);
		/* The last cell: "| 1024 |" at the line's end. */
		char *end = line + strcspn(line, "\r\n");
		while (end > line && end[-1] == ' ')
			end--;
		bytes[n] = -1;
		if (end > line && end[-1] == '|') {
			const char *cell = end - 1;
			while (cell > line && cell[-1] != '|')
				cell--;
			char *stop;
			long v = strtol(cell, &stop, 10);
			if (stop != cell && stop < end - 1 && strspn(stop, " ") == (size_t)(end - 1 - stop))
				bytes[n] = v;
		}
		n++;
	}
	fclose(f);
	return n;
}

START_TEST(doc_and_table_agree)
{
	char words[DOC_MAX][32];
	long bytes[DOC_MAX];
	int n = doc_words(words, bytes, DOC_MAX);
	ck_assert_int_gt(n, 10);
	/* Every row of the dispatch is in the document. */
	int rows = 0;
	for (int t = PM_NONE + 1; t < PM_COUNT; t++) {
		if (!lobby_dispatches(t))
			continue;
		rows++;
		const char *w = req_type_word(t);
		ck_assert_ptr_nonnull(w);
		int found = 0;
		for (int i = 0; i < n; i++)
			found |= !strcmp(words[i], w);
		ck_assert_msg(found, "the dispatch takes '%s', which docs/protocol.md does not list", w);
	}
	/* And every message the document lists has its row, once. */
	for (int i = 0; i < n; i++) {
		int t = PM_NONE + 1;
		while (t < PM_COUNT && (!req_type_word(t) || strcmp(req_type_word(t), words[i]) != 0))
			t++;
		ck_assert_msg(t < PM_COUNT && lobby_dispatches(t), "docs/protocol.md lists '%s', which the dispatch does not take",
		              words[i]);
		ck_assert_msg(bytes[i] == lobby_message_max(t), "docs/protocol.md gives '%s' %ld bytes, its row %d", words[i],
		              bytes[i], lobby_message_max(t));
		ck_assert_int_le(lobby_message_max(t), PROTO_MAX_MESSAGE);
		for (int k = 0; k < i; k++)
			ck_assert_msg(strcmp(words[k], words[i]) != 0, "docs/protocol.md lists '%s' twice", words[i]);
	}
	ck_assert_int_eq(rows, n);
	/* Nothing outside the types has a row. */
	ck_assert(!lobby_dispatches(PM_NONE));
	ck_assert(!lobby_dispatches(PM_COUNT));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("protocol");
	TCase *tc = tcase_create("messages");
	tcase_add_test(tc, doc_and_table_agree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
