/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/netaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

void netaddr_prefix(const char *addr, char *out, size_t len)
{
	unsigned char b[16];
	if (inet_pton(AF_INET, addr, b) == 1) {
		snprintf(out, len, "%u.%u.%u/24", b[0], b[1], b[2]);
		return;
	}
	if (inet_pton(AF_INET6, addr, b) == 1) {
		static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
		if (!memcmp(b, mapped, sizeof mapped))
			snprintf(out, len, "%u.%u.%u/24", b[12], b[13], b[14]);
		else
			snprintf(out, len, "%02x%02x:%02x%02x:%02x%02x:%02x%02x::/64", b[0], b[1], b[2], b[3], b[4], b[5],
			         b[6], b[7]);
		return;
	}
	snprintf(out, len, "%s", addr);
}
