/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/proto.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void proto_moment_keep(json_t *moments, json_t *msg)
{
	const char *id = json_string_value(json_object_get(msg, "moment"));
	if (id && json_is_object(moments))
		json_object_set_new(moments, id, json_pack("{s:O, s:O}", "queries", json_object_get(msg, "queries"), "f1",
		                                         json_object_get(msg, "f1")));
}

json_t *proto_state_apply(json_t *held, json_t *msg, json_t *moments)
{
	if (!json_is_true(json_object_get(msg, "changes")))
		return json_incref(msg);
	if (!held || json_integer_value(json_object_get(held, "table")) != json_integer_value(json_object_get(msg, "table")))
		return NULL;
	const char *key;
	json_t *v, *keys = json_object_get(held, "keys");
	json_object_foreach(msg, key, v) {
		if (!strcmp(key, "changes"))
			continue;
		if (!strcmp(key, "keys") && json_is_object(v) && json_is_object(keys)) {
			const char *k;
			json_t *a;
			json_object_foreach(v, k, a) {
				if (json_is_null(a))
					json_object_del(keys, k);
				else
					json_object_set(keys, k, a);
			}
		} else if (json_is_null(v)) {
			json_object_del(held, key);
		} else {
			json_object_set(held, key, v);
		}
	}
	json_t *w = json_object_get(moments, json_string_value(json_object_get(held, "moment")));
	if (w) {
		json_object_set(held, "queries", json_object_get(w, "queries"));
		json_object_set(held, "f1", json_object_get(w, "f1"));
	}
	return json_incref(held);
}

char *proto_dump(json_t *msg)
{
	if (!msg)
		return NULL;
	char *s = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	return s;
}

char *proto_error(const char *code, const char *message, const char *re)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", message);
	if (o && re)
		json_object_set_new(o, "re", json_string(re));
	return proto_dump(o);
}
