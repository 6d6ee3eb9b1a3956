/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The server's message reader (proto_read): any bytes as one client
 * message. A message read has a known type and fields within their limits;
 * a refused one says why. */
#include "fuzz/fuzz.h"

#include <string.h>

#include "net/server/req.h"
#include "net/wire/proto.h"

int fuzz_proto(const uint8_t *data, size_t size)
{
	struct req m;
	char err[256];
	err[0] = '\0';
	if (req_read((const char *)data, size, &m, NULL, err, sizeof err) == 0) {
		if (!req_type_word(m.type))
			fuzz_fail("proto_read: accepted type %d", m.type);
		if (!memchr(m.name, '\0', sizeof m.name) || !memchr(m.text, '\0', sizeof m.text) ||
		    !memchr(m.password, '\0', sizeof m.password) || !memchr(m.token, '\0', sizeof m.token))
			fuzz_fail("proto_read: a field without its end");
		if (m.type == PM_HELLO && (strlen(m.lang) != 2 || !m.name[0]))
			fuzz_fail("proto_read: hello without a language or a name");
		if (m.type == PM_CREATE &&
		    (!m.game || m.players < m.game->min_players || m.players > m.game->max_players))
			fuzz_fail("proto_read: create with %d players", m.players);
		if ((m.type == PM_SEAT || m.type == PM_KICK) && (m.seat < 0 || m.seat >= GAME_MAX_SEATS))
			fuzz_fail("proto_read: seat %d", m.seat);
		if (m.type == PM_ACTION && (m.act.kind <= ACT_NONE || m.act.kind >= ACT_COUNT))
			fuzz_fail("proto_read: action of kind %d", m.act.kind);
	} else if (!memchr(err, '\0', sizeof err) || !err[0]) {
		fuzz_fail("proto_read refused without a message");
	}
	return 0;
}

FUZZ_TARGET(fuzz_proto)
