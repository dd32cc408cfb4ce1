/* ini.c - INI reader with line numbers (see ini.h). */
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(XqError *err, const char *name, int line, const char *msg)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%s", name ? name : "<text>");
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static void lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

int ini_parse(IniFile *ini, const char *text, const char *name, XqError *err)
{
    memset(ini, 0, sizeof *ini);
    size_t len = strlen(text);
    ini->storage = malloc(len + 2);
    int lines = 1;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    ini->entries = calloc((size_t)lines, sizeof *ini->entries);
    if (!ini->storage || !ini->entries) {
        set_error(err, name, 0, "out of memory");
        ini_free(ini);
        return -1;
    }
    memcpy(ini->storage, text, len + 1);
    if (memchr(text, '\0', len) != NULL) {
        set_error(err, name, 0, "file contains a NUL byte");
        ini_free(ini);
        return -1;
    }

    const char *section = NULL;
    int section_line = 0;
    char *line = ini->storage;
    for (int lineno = 1; line; lineno++) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *s = trim(line);
        if (*s == '\0' || *s == ';' || *s == '#') {
            line = next;
            continue;
        }
        if (*s == '[') {
            char *end = strchr(s, ']');
            if (!end) {
                set_error(err, name, lineno, "expected ']' to close the section name");
                ini_free(ini);
                return -1;
            }
            char *rest = trim(end + 1);
            if (*rest && *rest != ';' && *rest != '#') {
                set_error(err, name, lineno, "unexpected text after the section name");
                ini_free(ini);
                return -1;
            }
            *end = '\0';
            char *sec = trim(s + 1);
            if (*sec == '\0') {
                set_error(err, name, lineno, "empty section name");
                ini_free(ini);
                return -1;
            }
            lower(sec);
            section = sec;
            section_line = lineno;
            line = next;
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) {
            set_error(err, name, lineno, "expected 'key = value', '[section]' or a comment");
            ini_free(ini);
            return -1;
        }
        if (!section) {
            set_error(err, name, lineno, "key outside of any [section]");
            ini_free(ini);
            return -1;
        }
        *eq = '\0';
        char *key = trim(s);
        char *value = eq + 1;
        /* A comment inside a value starts with blank + ';' or '#'. */
        for (char *c = value; *c; c++) {
            if ((*c == ';' || *c == '#') && (c == value || c[-1] == ' ' || c[-1] == '\t')) {
                *c = '\0';
                break;
            }
        }
        value = trim(value);
        if (*key == '\0') {
            set_error(err, name, lineno, "empty key before '='");
            ini_free(ini);
            return -1;
        }
        lower(key);
        IniEntry *e = &ini->entries[ini->count++];
        e->section = section;
        e->key = key;
        e->value = value;
        e->line = lineno;
        e->section_line = section_line;
        line = next;
    }
    return 0;
}

void ini_free(IniFile *ini)
{
    free(ini->entries);
    free(ini->storage);
    memset(ini, 0, sizeof *ini);
}

char *ini_read_file(const char *path, XqError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        char msg[XQ_MSG_MAX];
        snprintf(msg, sizeof msg, "cannot open: %s", strerror(errno));
        set_error(err, path, 0, msg);
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            if (cap > ((size_t)64 << 20)) {
                set_error(err, path, 0, "file larger than 64 MiB");
                free(buf);
                fclose(f);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    if (!buf) {
        set_error(err, path, 0, "out of memory");
        fclose(f);
        return NULL;
    }
    if (ferror(f)) {
        set_error(err, path, 0, "read error");
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}
