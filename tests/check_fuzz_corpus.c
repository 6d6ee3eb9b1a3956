/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fuzz targets (tests/fuzz/) replayed without clang: every file of
 * the seed corpus tests/fuzz/corpus/NAME/ (the regressions the fuzzer found
 * among them), then a fixed number of pseudo-random mutations of those
 * files (fixed seed), through the same target functions `make fuzz` builds
 * for libFuzzer. A target aborts on a broken invariant: the test fails. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "fuzz/fuzz.h"
#include "testutil.h"

#define MUTATIONS 300      /* per target */
#define FUZZ_MAX_INPUT 65536

struct corpus {
	int n, cap;
	uint8_t **data;
	size_t *size;
};

static void corpus_add(struct corpus *c, uint8_t *d, size_t n)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->data = realloc(c->data, sizeof *c->data * (size_t)c->cap);
		c->size = realloc(c->size, sizeof *c->size * (size_t)c->cap);
		ck_assert(c->data && c->size);
	}
	c->data[c->n] = d;
	c->size[c->n++] = n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of the target's corpus directory, in name order. */
static void corpus_read(struct corpus *c, const char *name)
{
	const char *root = getenv("TAPIS_DATADIR");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", root && *root ? root : ".", name);
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "no corpus %s", dir);
	char *names[1024];
	int nn = 0;
	struct dirent *e;
	while ((e = readdir(d)) && nn < 1024)
		if (e->d_name[0] != '.')
			names[nn++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)nn, sizeof names[0], by_name);
	for (int i = 0; i < nn; i++) {
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "rb");
		ck_assert_msg(f != NULL, "cannot read %s", path);
		uint8_t *buf = malloc(FUZZ_MAX_INPUT);
		ck_assert(buf != NULL);
		size_t n = fread(buf, 1, FUZZ_MAX_INPUT, f);
		fclose(f);
		corpus_add(c, buf, n);
		free(names[i]);
	}
	ck_assert_msg(c->n > 0, "empty corpus %s", dir);
}

static void corpus_release(struct corpus *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->data[i]);
	free(c->data);
	free(c->size);
	memset(c, 0, sizeof *c);
}

/* One mutation of in (n bytes) into out (FUZZ_MAX_INPUT bytes): a few edits of
 * the kinds libFuzzer makes (bytes changed, inserted, erased, copied, a
 * piece of another input spliced in). */
static size_t mutate(struct rng *r, const struct corpus *c, const uint8_t *in, size_t n, uint8_t *out)
{
	memcpy(out, in, n);
	int edits = 1 + (int)(rng_next(r) % 4);
	for (int k = 0; k < edits; k++) {
		size_t at = n ? (size_t)(rng_next(r) % n) : 0;
		switch (rng_next(r) % 6) {
		case 0: /* flip a bit */
			if (n)
				out[at] ^= (uint8_t)(1u << (rng_next(r) % 8));
			break;
		case 1: /* a random byte */
			if (n)
				out[at] = (uint8_t)rng_next(r);
			break;
		case 2: /* insert a byte */
			if (n < FUZZ_MAX_INPUT) {
				memmove(out + at + 1, out + at, n - at);
				out[at] = (uint8_t)rng_next(r);
				n++;
			}
			break;
		case 3: { /* erase a few bytes */
			size_t len = n - at < 8 ? n - at : 1 + (size_t)(rng_next(r) % 8);
			memmove(out + at, out + at + len, n - at - len);
			n -= len;
			break;
		}
		case 4: { /* copy a piece over another place */
			if (!n)
				break;
			size_t from = (size_t)(rng_next(r) % n), len = 1 + (size_t)(rng_next(r) % 16);
			if (from + len > n)
				len = n - from;
			if (at + len > n)
				len = n - at;
			memmove(out + at, out + from, len);
			break;
		}
		default: { /* splice: our head, another input's tail */
			int j = (int)(rng_next(r) % (uint64_t)c->n);
			size_t from = c->size[j] ? (size_t)(rng_next(r) % c->size[j]) : 0;
			size_t len = c->size[j] - from;
			if (at + len > FUZZ_MAX_INPUT)
				len = FUZZ_MAX_INPUT - at;
			memcpy(out + at, c->data[j] + from, len);
			n = at + len;
			break;
		}
		}
	}
	return n;
}

static void run_target(const struct fuzz_target *t)
{
	struct corpus c = { 0 };
	corpus_read(&c, t->name);
	for (int i = 0; i < c.n; i++)
		t->fn(c.data[i], c.size[i]);
	struct rng r;
	rng_seed(&r, 20261122);
	uint8_t *buf = malloc(FUZZ_MAX_INPUT);
	ck_assert(buf != NULL);
	for (int k = 0; k < MUTATIONS; k++) {
		int i = (int)(rng_next(&r) % (uint64_t)c.n);
		size_t n = mutate(&r, &c, c.data[i], c.size[i], buf);
		t->fn(buf, n);
	}
	free(buf);
	corpus_release(&c);
}

START_TEST(test_target)
{
	run_target(&fuzz_targets[_i]);
}
END_TEST

int main(void)
{
	int n = 0;
	while (fuzz_targets[n].name)
		n++;
	Suite *s = suite_create("fuzz_corpus");
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_target, 0, n);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
