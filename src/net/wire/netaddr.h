/* SPDX-License-Identifier: GPL-3.0-or-later */
/* netaddr: the network an address belongs to, for the bounds that a crowd
 * of addresses must not get round (handshakes under way, tables). */
#ifndef TAPIS_NETADDR_H
#define TAPIS_NETADDR_H

#include <stddef.h>

/* Room for a network's name. */
#define NETADDR_PREFIX_MAX 32

/* The network of addr (as inet_ntop writes it): "a.b.c/24" for an IPv4
 * address (one written in IPv6 too), the first four groups and "::/64" for
 * an IPv6 one (one person may hold a whole /64, and a /24 costs little
 * more than one address); anything else as it is. */
void netaddr_prefix(const char *addr, char *out, size_t len);

#endif
