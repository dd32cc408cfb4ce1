/* json.h - a small JSON reader for the documents xqlab's own commands print (--json summaries,
 * tune's piece-value file): the whole text parsed into a tree, values looked up by a path. */
#ifndef XQ_JSON_H
#define XQ_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "variant.h"

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonType;

typedef struct JsonValue JsonValue;
struct JsonValue {
    JsonType type;
    bool boolean;
    double number;
    char *string;           /* JSON_STRING: the decoded text (UTF-8, NUL-terminated) */
    char *key;              /* member name when the value sits in an object, else NULL */
    JsonValue *items;       /* JSON_ARRAY / JSON_OBJECT: count values (members in text order) */
    size_t count;
};

/* Parses a whole JSON text (one value, surrounded by blanks only). Returns the tree (free with
 * json_free), or NULL with *err naming `name`, the line and what is wrong. Nesting deeper than
 * 64 levels is refused. */
JsonValue *json_parse(const char *text, const char *name, XqError *err);
void json_free(JsonValue *v);

/* The value at `path` below v: member names separated by '.', array elements as [N], e.g.
 * "loss.validation", "elo_95[0]", "result.pentanomial[4]". NULL if any step is missing. */
const JsonValue *json_get(const JsonValue *v, const char *path);

/* Number at path into *out: true if it is a number; false (and *out untouched) if it is missing,
 * null or of another type. */
bool json_get_number(const JsonValue *v, const char *path, double *out);

/* String at path, or NULL. */
const char *json_get_string(const JsonValue *v, const char *path);

#endif
