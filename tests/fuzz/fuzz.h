/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz: the targets that feed outside input to every reader of tapis.
 *
 * Each tests/fuzz/fuzz_NAME.c defines `int fuzz_NAME(const uint8_t *data,
 * size_t size)`: it must never crash, leak, hang or hit undefined
 * behaviour, whatever the bytes; a broken invariant calls fuzz_fail (abort).
 * Two builds use the same files:
 *  - `make fuzz`: clang with -fsanitize=fuzzer,address,undefined and
 *    -DTAPIS_LIBFUZZER, where FUZZ_TARGET also defines
 *    LLVMFuzzerTestOneInput (one binary a target);
 *  - `make check`: tests/check_fuzz_corpus.c links every target (gcc) and
 *    replays the seed corpus tests/fuzz/corpus/NAME/ plus fixed mutations. */
#ifndef TAPIS_FUZZ_H
#define TAPIS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

struct fuzz_target {
	const char *name;   /* the corpus directory: tests/fuzz/corpus/NAME */
	fuzz_fn fn;
};

int fuzz_card(const uint8_t *data, size_t size);
int fuzz_action(const uint8_t *data, size_t size);
int fuzz_rules(const uint8_t *data, size_t size);
int fuzz_deckfile(const uint8_t *data, size_t size);
int fuzz_script(const uint8_t *data, size_t size);
int fuzz_replay(const uint8_t *data, size_t size);
int fuzz_settings(const uint8_t *data, size_t size);
int fuzz_i18n(const uint8_t *data, size_t size);
int fuzz_term(const uint8_t *data, size_t size);
int fuzz_game(const uint8_t *data, size_t size);
int fuzz_save(const uint8_t *data, size_t size);
int fuzz_proto(const uint8_t *data, size_t size);

/* Every target, NULL-terminated (tests/fuzz/targets.c). */
extern const struct fuzz_target fuzz_targets[];

/* A broken invariant: print it and abort (a crash for libFuzzer, a failed
 * test for Check, which runs the targets in a forked child). */
void fuzz_fail(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2), noreturn))
#endif
	;

/* The input as a NUL-terminated string (malloc'd; it stops at the first
 * NUL byte of the input, as a file read by the program would for C string
 * readers). */
char *fuzz_cstr(const uint8_t *data, size_t size);

/* Reading bytes one by one; zeros once the input is used up. */
struct fuzz_in {
	const uint8_t *p;
	size_t n, at;
};
static inline int fuzz_left(const struct fuzz_in *in) { return in->at < in->n; }
static inline unsigned fuzz_byte(struct fuzz_in *in) { return in->at < in->n ? in->p[in->at++] : 0; }
static inline unsigned fuzz_u16(struct fuzz_in *in)
{
	unsigned v = fuzz_byte(in);
	return v | fuzz_byte(in) << 8;
}

#ifdef TAPIS_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define FUZZ_TARGET(fn) \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fn(data, size); }
#else
#define FUZZ_TARGET(fn)
#endif

#endif
