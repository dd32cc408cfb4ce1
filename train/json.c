/* json.c - JSON reader (see json.h): recursive descent over RFC 8259 text. */
#include "json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JSON_MAX_DEPTH = 64 };

typedef struct Parser {
    const char *s;
    const char *name;
    int line;
    XqError *err;
    bool failed;
} Parser;

static void fail(Parser *p, const char *what)
{
    if (p->failed)
        return;
    p->failed = true;
    if (p->err) {
        snprintf(p->err->file, sizeof p->err->file, "%s", p->name ? p->name : "<json>");
        p->err->line = p->line;
        snprintf(p->err->message, sizeof p->err->message, "bad JSON: %s", what);
    }
}

static void skip_blanks(Parser *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\r' || *p->s == '\n') {
        if (*p->s == '\n')
            p->line++;
        p->s++;
    }
}

static void value_free(JsonValue *v)
{
    free(v->string);
    free(v->key);
    for (size_t i = 0; i < v->count; i++)
        value_free(&v->items[i]);
    free(v->items);
}

static bool parse_value(Parser *p, JsonValue *out, int depth);

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool read_hex4(Parser *p, unsigned *out)
{
    unsigned u = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(p->s[i]);
        if (d < 0) {
            fail(p, "\\u needs four hexadecimal digits");
            return false;
        }
        u = u * 16 + (unsigned)d;
    }
    p->s += 4;
    *out = u;
    return true;
}

/* Appends code point u as UTF-8. */
static size_t put_utf8(char *dst, unsigned u)
{
    if (u < 0x80) {
        dst[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        dst[0] = (char)(0xC0 | (u >> 6));
        dst[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        dst[0] = (char)(0xE0 | (u >> 12));
        dst[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        dst[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    dst[0] = (char)(0xF0 | (u >> 18));
    dst[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    dst[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    dst[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* A string token starting at the opening quote; the decoded text is malloc'd into *out (never
 * longer than the escaped text). */
static bool parse_string(Parser *p, char **out)
{
    const char *start = ++p->s;
    size_t cap = 1;
    for (const char *c = start; *c && *c != '"'; c++)
        cap += (*c == '\\' && c[1]) ? (c++, 2) : 1;
    char *buf = malloc(cap + 4);
    if (!buf) {
        fail(p, "out of memory");
        return false;
    }
    size_t n = 0;
    for (;;) {
        char c = *p->s;
        if (c == '\0' || c == '\n') {
            fail(p, "unterminated string");
            free(buf);
            return false;
        }
        if ((unsigned char)c < 0x20) {
            fail(p, "control character inside a string");
            free(buf);
            return false;
        }
        p->s++;
        if (c == '"')
            break;
        if (c != '\\') {
            buf[n++] = c;
            continue;
        }
        char e = *p->s++;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned u;
            if (!read_hex4(p, &u)) {
                free(buf);
                return false;
            }
            if (u >= 0xD800 && u < 0xDC00 && p->s[0] == '\\' && p->s[1] == 'u') {
                unsigned lo;
                p->s += 2;
                if (!read_hex4(p, &lo)) {
                    free(buf);
                    return false;
                }
                if (lo >= 0xDC00 && lo < 0xE000)
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                else
                    u = 0xFFFD;
            } else if (u >= 0xD800 && u < 0xE000) {
                u = 0xFFFD; /* a lone surrogate */
            }
            /* \uXXXX is 6 bytes of text and at most 4 of UTF-8: the buffer suffices. */
            n += put_utf8(buf + n, u);
            break;
        }
        default:
            fail(p, "unknown escape in a string");
            free(buf);
            return false;
        }
    }
    buf[n] = '\0';
    *out = buf;
    return true;
}

static bool parse_number(Parser *p, JsonValue *out)
{
    const char *c = p->s;
    if (*c == '-')
        c++;
    if (*c == '0') {
        c++;
    } else if (*c >= '1' && *c <= '9') {
        while (*c >= '0' && *c <= '9')
            c++;
    } else {
        fail(p, "expected a value");
        return false;
    }
    if (*c == '.') {
        c++;
        if (!(*c >= '0' && *c <= '9')) {
            fail(p, "expected a digit after the decimal point");
            return false;
        }
        while (*c >= '0' && *c <= '9')
            c++;
    }
    if (*c == 'e' || *c == 'E') {
        c++;
        if (*c == '+' || *c == '-')
            c++;
        if (!(*c >= '0' && *c <= '9')) {
            fail(p, "expected a digit in the exponent");
            return false;
        }
        while (*c >= '0' && *c <= '9')
            c++;
    }
    out->type = JSON_NUMBER;
    out->number = strtod(p->s, NULL); /* the grammar above is a subset of strtod's */
    p->s = c;
    return true;
}

static bool literal(Parser *p, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(p->s, word, n) != 0) {
        fail(p, "expected a value");
        return false;
    }
    p->s += n;
    return true;
}

/* Appends a zeroed value to out->items. */
static JsonValue *push_item(Parser *p, JsonValue *out, size_t *cap)
{
    if (out->count == *cap) {
        size_t ncap = *cap ? 2 * *cap : 4;
        JsonValue *items = realloc(out->items, ncap * sizeof *items);
        if (!items) {
            fail(p, "out of memory");
            return NULL;
        }
        out->items = items;
        *cap = ncap;
    }
    JsonValue *v = &out->items[out->count++];
    memset(v, 0, sizeof *v);
    return v;
}

static bool parse_container(Parser *p, JsonValue *out, int depth, bool object)
{
    char close = object ? '}' : ']';
    out->type = object ? JSON_OBJECT : JSON_ARRAY;
    size_t cap = 0;
    p->s++;
    skip_blanks(p);
    if (*p->s == close) {
        p->s++;
        return true;
    }
    for (;;) {
        skip_blanks(p);
        char *key = NULL;
        if (object) {
            if (*p->s != '"') {
                fail(p, "expected a member name in quotes");
                return false;
            }
            if (!parse_string(p, &key))
                return false;
            skip_blanks(p);
            if (*p->s != ':') {
                free(key);
                fail(p, "expected ':' after a member name");
                return false;
            }
            p->s++;
        }
        JsonValue *item = push_item(p, out, &cap);
        if (!item) {
            free(key);
            return false;
        }
        item->key = key;
        if (!parse_value(p, item, depth + 1))
            return false;
        skip_blanks(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == close) {
            p->s++;
            return true;
        }
        fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        return false;
    }
}

static bool parse_value(Parser *p, JsonValue *out, int depth)
{
    if (depth > JSON_MAX_DEPTH) {
        fail(p, "nested more than 64 levels deep");
        return false;
    }
    skip_blanks(p);
    switch (*p->s) {
    case '{': return parse_container(p, out, depth, true);
    case '[': return parse_container(p, out, depth, false);
    case '"':
        out->type = JSON_STRING;
        return parse_string(p, &out->string);
    case 't':
        out->type = JSON_BOOL;
        out->boolean = true;
        return literal(p, "true");
    case 'f':
        out->type = JSON_BOOL;
        return literal(p, "false");
    case 'n':
        out->type = JSON_NULL;
        return literal(p, "null");
    case '\0':
        fail(p, "unexpected end of text");
        return false;
    default:
        return parse_number(p, out);
    }
}

JsonValue *json_parse(const char *text, const char *name, XqError *err)
{
    Parser p = {.s = text, .name = name, .line = 1, .err = err};
    JsonValue *v = calloc(1, sizeof *v);
    if (!v) {
        fail(&p, "out of memory");
        return NULL;
    }
    if (parse_value(&p, v, 0)) {
        skip_blanks(&p);
        if (*p.s)
            fail(&p, "text after the value");
    }
    if (p.failed) {
        json_free(v);
        return NULL;
    }
    return v;
}

void json_free(JsonValue *v)
{
    if (!v)
        return;
    value_free(v);
    free(v);
}

const JsonValue *json_get(const JsonValue *v, const char *path)
{
    const char *s = path;
    while (v && *s) {
        if (*s == '.') {
            s++;
            continue;
        }
        if (*s == '[') {
            char *end;
            errno = 0;
            unsigned long long i = strtoull(s + 1, &end, 10);
            if (end == s + 1 || *end != ']' || errno || v->type != JSON_ARRAY || i >= v->count)
                return NULL;
            v = &v->items[i];
            s = end + 1;
            continue;
        }
        size_t n = strcspn(s, ".[");
        if (v->type != JSON_OBJECT)
            return NULL;
        const JsonValue *found = NULL;
        for (size_t i = 0; i < v->count && !found; i++)
            if (strlen(v->items[i].key) == n && strncmp(v->items[i].key, s, n) == 0)
                found = &v->items[i];
        v = found;
        s += n;
    }
    return v;
}

bool json_get_number(const JsonValue *v, const char *path, double *out)
{
    const JsonValue *x = json_get(v, path);
    if (!x || x->type != JSON_NUMBER)
        return false;
    *out = x->number;
    return true;
}

const char *json_get_string(const JsonValue *v, const char *path)
{
    const JsonValue *x = json_get(v, path);
    return x && x->type == JSON_STRING ? x->string : NULL;
}
