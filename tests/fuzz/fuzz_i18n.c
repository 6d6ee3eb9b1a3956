/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The .mo catalogue reader (i18n_load_buffer, the checks of
 * i18n_set_lang's file): any bytes. A catalogue accepted is then looked up
 * with a few fixed msgids and with the msgids its own table points to,
 * singular, plural and with a context; every answer is a whole string. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"

static uint32_t word(const uint8_t *d, size_t at, int swap)
{
	uint32_t v;
	memcpy(&v, d + at, 4);
	if (swap)
		v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
	return v;
}

/* Read every answer whole (kept, so the compiler reads it). */
static volatile size_t answers;

static void look_up(const char *key)
{
	size_t total = strlen(i18n_get(key));
	total += strlen(i18n_nget(key, "plural", 1)) + strlen(i18n_nget(key, "plural", 2));
	const char *eot = strchr(key, '\004');
	if (eot) {
		char ctx[256];
		size_t n = (size_t)(eot - key) < sizeof ctx - 1 ? (size_t)(eot - key) : sizeof ctx - 1;
		memcpy(ctx, key, n);
		ctx[n] = '\0';
		total += strlen(i18n_pget(ctx, eot + 1));
	}
	answers += total;
}

int fuzz_i18n(const uint8_t *data, size_t size)
{
	char err[256];
	err[0] = '\0';
	if (i18n_load_buffer(data, size, "fuzz.mo", err, sizeof err) < 0) {
		if (!err[0])
			fuzz_fail("catalogue refused without a message");
		return 0;
	}
	static const char *const fixed[] = { "", "Your turn.", "card", "a", "zzzz" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		look_up(fixed[i]);
	answers += strlen(i18n_pget("noun", "card"));
	/* The msgids the table points to: the found path. */
	int swap = word(data, 0, 0) == 0xde120495u;
	uint32_t n = word(data, 8, swap), orig = word(data, 12, swap);
	for (uint32_t i = 0; i < n && i < 16; i++) {
		uint32_t len = word(data, orig + 8 * i, swap), off = word(data, orig + 8 * i + 4, swap);
		char *key = malloc((size_t)len + 1);
		if (!key)
			abort();
		memcpy(key, data + off, len);
		key[len] = '\0';
		look_up(key);
		free(key);
	}
	i18n_release();
	return 0;
}

FUZZ_TARGET(fuzz_i18n)
