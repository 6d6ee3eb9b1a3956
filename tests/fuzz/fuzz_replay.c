/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A hand history (replay_buffer): any bytes, NUL included, in each of the
 * three modes, with or without the spoken account. The result is one of the three
 * statuses, with a message unless the game replays the same. */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/replay.h"

int fuzz_replay(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	enum replay_mode mode = data[0] % 3 == 0 ? REPLAY_AUTO : data[0] % 3 == 1 ? REPLAY_SEED : REPLAY_STACK;
	FILE *announce = data[0] & 4 ? sink : NULL;
	/* A copy of just the bytes, so that a read past them is seen. */
	char *text = malloc(size - 1 ? size - 1 : 1);
	if (!text)
		abort();
	memcpy(text, data + 1, size - 1);
	struct replay_result res;
	int rc = replay_buffer(text, size - 1, "fuzz.jsonl", mode, announce, &res);
	if (rc != res.status || (rc != REPLAY_SAME && rc != REPLAY_INVALID && rc != REPLAY_DIFFERS))
		fuzz_fail("replay: status %d/%d", rc, res.status);
	if (rc != REPLAY_SAME && (!memchr(res.msg, '\0', sizeof res.msg) || !res.msg[0]))
		fuzz_fail("replay: status %d without a message", rc);
	free(text);
	return 0;
}

FUZZ_TARGET(fuzz_replay)
