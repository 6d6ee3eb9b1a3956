/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jtext: JSON text written straight into a growing buffer, for the
 * messages a server sends after every action (a member's `say`s and
 * `state`). Its bytes are those jansson's json_dumps(JSON_COMPACT) makes of
 * the same object built with json_pack and json_object_set_new (keys in the
 * order written, strings escaped alike, a string that is not UTF-8 written
 * as ""): a client cannot tell the two apart, without the allocation of
 * every value and key of a tree. */
#ifndef TAPIS_JTEXT_H
#define TAPIS_JTEXT_H

#include <stddef.h>

struct jtext {
	char *s;
	size_t len, cap;
	int first;    /* no member written yet in the innermost object or array */
};

/* Begin with an empty buffer of about cap bytes. */
void jt_init(struct jtext *j, size_t cap);
/* '{' '}' '[' ']'. */
void jt_open(struct jtext *j, char c);
void jt_close(struct jtext *j, char c);
/* The key of the next member of an object ("key":), the comma before it
 * when it is not the first. */
void jt_key(struct jtext *j, const char *key);
/* Values, each after its key or as an array's item. */
void jt_str(struct jtext *j, const char *s);
void jt_int(struct jtext *j, long long v);
void jt_bool(struct jtext *j, int v);
/* "key":value in one call. */
void jt_kstr(struct jtext *j, const char *key, const char *s);
void jt_kint(struct jtext *j, const char *key, long long v);
void jt_kbool(struct jtext *j, const char *key, int v);
/* The text (malloc'd, the caller frees it). */
char *jt_done(struct jtext *j);
/* Members already written (`"k":v,"k2":v2`, as jt_done of an object gave
 * them without its braces), as the next of the object. */
void jt_members(struct jtext *j, const char *members, size_t len);

/* Bytes as they are (JSON text the caller made whole): no comma, no
 * escape. */
void jt_raw(struct jtext *j, const char *s, size_t n);

#endif
