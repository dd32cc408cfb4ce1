/* ini.h - a small INI reader that keeps line numbers, for variant, weights and run files. */
#ifndef XQ_INI_H
#define XQ_INI_H

#include "variant.h"

typedef struct IniEntry {
    const char *section; /* lower-cased section name as written between [ ] */
    const char *key;     /* lower-cased key */
    const char *value;   /* value with surrounding blanks and trailing comment removed */
    int line;
    int section_line;    /* line of its [section] header */
} IniEntry;

typedef struct IniFile {
    IniEntry *entries;
    int count;
    char *storage;       /* owns every string above */
} IniFile;

/* Parses INI text: `[section]`, `key = value`, comments starting with ';' or '#' (at line start,
 * or after blanks inside a value). Returns 0, or -1 with *err set (file = name). */
int ini_parse(IniFile *ini, const char *text, const char *name, XqError *err);

/* Frees an IniFile's storage (safe on a zeroed struct). */
void ini_free(IniFile *ini);

/* Reads a whole file into a NUL-terminated malloc'd buffer. Returns NULL with *err set. */
char *ini_read_file(const char *path, XqError *err);

#endif
