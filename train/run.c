/* run.c - settings and generation records of a training run (see run.h): one table of fields
 * drives writing, reading and comparing each. */
#include "run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"

typedef enum { FIELD_TEXT, FIELD_U64, FIELD_LONG, FIELD_DOUBLE, FIELD_BOOL, FIELD_PENTANOMIAL } FieldType;

typedef struct Field {
    const char *key;
    FieldType type;
    size_t offset;
    size_t size;          /* FIELD_TEXT: buffer size */
    bool setting;         /* settings: must agree between starts of a run */
    const char *comment;  /* train.ini: the line above the key */
} Field;

#define TEXT(st, k, set, c) {#k, FIELD_TEXT, offsetof(st, k), sizeof(((st *)0)->k), set, c}
#define NUM(st, k, t, set, c) {#k, t, offsetof(st, k), 0, set, c}

static const Field SETTINGS[] = {
    TEXT(TrainSettings, variant, true, "rule set; its text is pinned in variant.ini"),
    TEXT(TrainSettings, variant_sha, true, NULL),
    TEXT(TrainSettings, start, true, "starting weights as asked (a file, none or nearest); copied to gen0/weights.ini"),
    TEXT(TrainSettings, start_sha, true, NULL),
    TEXT(TrainSettings, search_sha, true, "search settings of self-play and gate: search.ini"),
    NUM(TrainSettings, games, FIELD_U64, true, "self-play games per generation"),
    NUM(TrainSettings, window, FIELD_LONG, true, "generations of data each tune reads"),
    NUM(TrainSettings, seed, FIELD_U64, true, "generation G plays self-play and gate with seed S + G - 1"),
    TEXT(TrainSettings, tune, true, "extra xqlab tune arguments"),
    TEXT(TrainSettings, gate_set, true, "search settings both gate players add (KEY=VALUE,...)"),
    NUM(TrainSettings, gate_games, FIELD_U64, true, "at most this many gate games"),
    TEXT(TrainSettings, sprt, true, "gate: SPRT E0,E1,ALPHA,BETA of the candidate against the weights in force"),
    NUM(TrainSettings, sprt_min_pairs, FIELD_LONG, true, NULL),
    TEXT(TrainSettings, gate_openings, true, "opening book of the gate (empty: random openings)"),
    TEXT(TrainSettings, gate_openings_sha, true, NULL),
    NUM(TrainSettings, strength_games, FIELD_U64, true, "bench strength games per new weights (0 = none)"),
    NUM(TrainSettings, strength_movetime, FIELD_LONG, true, NULL),
    TEXT(TrainSettings, strength, true, "extra xqlab bench strength arguments"),
    NUM(TrainSettings, generations, FIELD_LONG, false, "generations to reach (a later start may change it)"),
    TEXT(TrainSettings, command, false, "how the run was created"),
    TEXT(TrainSettings, created, false, NULL),
    TEXT(TrainSettings, version, false, NULL),
};
enum { NSETTINGS = sizeof SETTINGS / sizeof SETTINGS[0] };

static const Field RECORD[] = {
    NUM(TrainRecord, generation, FIELD_LONG, false, NULL),
    NUM(TrainRecord, selfplay_games, FIELD_U64, false, NULL),
    NUM(TrainRecord, selfplay_seconds, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, first_mover_score, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, draw_rate, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, mean_plies, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, tune_files, FIELD_LONG, false, NULL),
    NUM(TrainRecord, tune_games, FIELD_U64, false, NULL),
    NUM(TrainRecord, tune_positions, FIELD_U64, false, NULL),
    NUM(TrainRecord, tune_train_positions, FIELD_U64, false, NULL),
    NUM(TrainRecord, loss_train_start, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, loss_train, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, loss_validation_start, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, loss_validation, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, tune_iterations, FIELD_LONG, false, NULL),
    NUM(TrainRecord, tune_seconds, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, gate_games, FIELD_U64, false, NULL),
    NUM(TrainRecord, gate_pentanomial, FIELD_PENTANOMIAL, false, NULL),
    NUM(TrainRecord, gate_score, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, gate_elo, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, gate_elo_low, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, gate_elo_high, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, gate_los, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, gate_llr, FIELD_DOUBLE, false, NULL),
    TEXT(TrainRecord, gate_verdict, false, NULL),
    NUM(TrainRecord, gate_seconds, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, promoted, FIELD_BOOL, false, NULL),
    NUM(TrainRecord, in_force, FIELD_LONG, false, NULL),
    NUM(TrainRecord, strength, FIELD_BOOL, false, NULL),
    NUM(TrainRecord, strength_of, FIELD_LONG, false, NULL),
    NUM(TrainRecord, strength_games, FIELD_U64, false, NULL),
    NUM(TrainRecord, strength_score, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, strength_elo, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, strength_elo_low, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, strength_elo_high, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, strength_seconds, FIELD_DOUBLE, false, NULL),
    NUM(TrainRecord, load, FIELD_DOUBLE, false, NULL),
    TEXT(TrainRecord, finished, false, NULL),
};
enum { NRECORD = sizeof RECORD / sizeof RECORD[0] };
_Static_assert(NSETTINGS <= 64 && NRECORD <= 64, "fields_read marks at most 64 fields");

static void field_format(const Field *f, const void *base, char *buf, size_t size)
{
    const char *p = (const char *)base + f->offset;
    switch (f->type) {
    case FIELD_TEXT: snprintf(buf, size, "%s", p); break;
    case FIELD_U64: snprintf(buf, size, "%" PRIu64, *(const uint64_t *)(const void *)p); break;
    case FIELD_LONG: snprintf(buf, size, "%ld", *(const long *)(const void *)p); break;
    case FIELD_DOUBLE: snprintf(buf, size, "%.10g", *(const double *)(const void *)p); break;
    case FIELD_BOOL: snprintf(buf, size, "%s", *(const bool *)(const void *)p ? "yes" : "no"); break;
    case FIELD_PENTANOMIAL: {
        const uint64_t *x = (const uint64_t *)(const void *)p;
        snprintf(buf, size, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, x[0], x[1], x[2], x[3], x[4]);
        break;
    }
    }
}

/* Parses value into the field; returns false if it is not of the field's type. */
static bool field_parse(const Field *f, void *base, const char *value)
{
    char *p = (char *)base + f->offset, *end;
    errno = 0;
    switch (f->type) {
    case FIELD_TEXT:
        if (strlen(value) >= f->size)
            return false;
        memcpy(p, value, strlen(value) + 1);
        return true;
    case FIELD_U64: {
        if (*value == '-')
            return false;
        unsigned long long x = strtoull(value, &end, 10);
        if (end == value || *end || errno)
            return false;
        *(uint64_t *)(void *)p = (uint64_t)x;
        return true;
    }
    case FIELD_LONG: {
        long x = strtol(value, &end, 10);
        if (end == value || *end || errno)
            return false;
        *(long *)(void *)p = x;
        return true;
    }
    case FIELD_DOUBLE: {
        double x = strtod(value, &end);
        if (end == value || *end)
            return false;
        *(double *)(void *)p = x;
        return true;
    }
    case FIELD_BOOL:
        if (!strcmp(value, "yes") || !strcmp(value, "no")) {
            *(bool *)(void *)p = !strcmp(value, "yes");
            return true;
        }
        return false;
    case FIELD_PENTANOMIAL: {
        uint64_t *x = (uint64_t *)(void *)p;
        const char *s = value;
        for (int i = 0; i < 5; i++) {
            if (*s == '-')
                return false;
            unsigned long long n = strtoull(s, &end, 10);
            if (end == s || errno)
                return false;
            x[i] = (uint64_t)n;
            s = end;
        }
        return *s == '\0';
    }
    }
    return false;
}

static int fields_write(const Field *fields, int n, const void *base, const char *section, bool comments, FILE *f)
{
    char buf[4096];
    fprintf(f, "[%s]\n", section);
    for (int i = 0; i < n; i++) {
        if (comments && fields[i].comment)
            fprintf(f, "; %s\n", fields[i].comment);
        field_format(&fields[i], base, buf, sizeof buf);
        fprintf(f, "%s = %s\n", fields[i].key, buf);
    }
    return ferror(f) ? -1 : 0;
}

static void set_error(XqError *err, const char *path, int line, const char *fmt, const char *a, const char *b)
{
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = line;
    snprintf(err->message, sizeof err->message, fmt, a, b);
}

/* Reads every field from `section` of the file; all must be present, nothing else. */
static int fields_read(const Field *fields, int n, void *base, const char *section, const char *path, XqError *err)
{
    char *text = ini_read_file(path, err);
    if (!text)
        return -1;
    IniFile ini;
    int rc = ini_parse(&ini, text, path, err);
    free(text);
    if (rc < 0)
        return -1;
    bool seen[64] = {false};
    rc = 0;
    for (int e = 0; e < ini.count && rc == 0; e++) {
        const IniEntry *en = &ini.entries[e];
        int k = -1;
        for (int i = 0; i < n && k < 0; i++)
            if (!strcmp(fields[i].key, en->key))
                k = i;
        if (strcmp(en->section, section) != 0) {
            set_error(err, path, en->line, "unexpected section [%s] (expected [%s])", en->section, section);
            rc = -1;
        } else if (k < 0) {
            set_error(err, path, en->line, "unknown key '%s'%s", en->key, "");
            rc = -1;
        } else if (seen[k]) {
            set_error(err, path, en->line, "'%s' given twice%s", en->key, "");
            rc = -1;
        } else if (!field_parse(&fields[k], base, en->value)) {
            set_error(err, path, en->line, "bad value '%s' for '%s'", en->value, en->key);
            rc = -1;
        } else {
            seen[k] = true;
        }
    }
    for (int i = 0; i < n && rc == 0; i++)
        if (!seen[i]) {
            set_error(err, path, 0, "'%s' is missing%s", fields[i].key, "");
            rc = -1;
        }
    ini_free(&ini);
    return rc;
}

void train_settings_default(TrainSettings *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->start, sizeof s->start, "nearest");
    s->games = 2000;
    s->window = 2;
    s->seed = 1;
    s->gate_games = 2000;
    snprintf(s->sprt, sizeof s->sprt, "0,10,0.05,0.05");
    s->sprt_min_pairs = 200;
    s->strength_movetime = 100;
    s->generations = 5;
}

int train_settings_count(void)
{
    return NSETTINGS;
}

const char *train_settings_key(int i)
{
    return i >= 0 && i < NSETTINGS ? SETTINGS[i].key : NULL;
}

bool train_settings_is_setting(int i)
{
    return i >= 0 && i < NSETTINGS && SETTINGS[i].setting;
}

int train_settings_find(const char *key)
{
    for (int i = 0; i < NSETTINGS; i++)
        if (!strcmp(SETTINGS[i].key, key))
            return i;
    return -1;
}

void train_settings_format(const TrainSettings *s, int i, char *buf, size_t size)
{
    if (i < 0 || i >= NSETTINGS) {
        snprintf(buf, size, "%s", "");
        return;
    }
    field_format(&SETTINGS[i], s, buf, size);
}

int train_settings_write(const TrainSettings *s, FILE *f)
{
    fprintf(f, "; The settings of an xqlab training run (xqlab train --help, docs/training.md).\n"
               "; Written when the run was created; every start on this folder must agree with them.\n");
    return fields_write(SETTINGS, NSETTINGS, s, "run", true, f);
}

int train_settings_read(TrainSettings *s, const char *path, XqError *err)
{
    train_settings_default(s);
    return fields_read(SETTINGS, NSETTINGS, s, "run", path, err);
}

/* What a hash field stands for, in a refusal. */
static const char *sha_meaning(const char *key)
{
    if (!strcmp(key, "variant_sha"))
        return "the rule set's text differs from the run's copy (variant.ini)";
    if (!strcmp(key, "start_sha"))
        return "the starting weights differ from the run's copy (gen0/weights.ini)";
    if (!strcmp(key, "search_sha"))
        return "the search settings differ from the run's (search.ini)";
    if (!strcmp(key, "gate_openings_sha"))
        return "the gate's opening book differs from the one the run started with";
    return NULL;
}

static size_t append(char *msg, size_t size, size_t used, const char *fmt, const char *a, const char *b,
                     const char *c)
{
    if (used >= size)
        return used;
    int n = snprintf(msg + used, size - used, fmt, a, b, c);
    return n < 0 ? used : used + (size_t)n;
}

int train_settings_diff(const TrainSettings *have, const TrainSettings *want, const bool *given, char *msg,
                        size_t size)
{
    char a[4096], b[4096];
    int n = 0;
    size_t used = 0;
    if (size)
        msg[0] = '\0';
    for (int i = 0; i < NSETTINGS; i++) {
        if (!SETTINGS[i].setting || !given[i])
            continue;
        field_format(&SETTINGS[i], have, a, sizeof a);
        field_format(&SETTINGS[i], want, b, sizeof b);
        if (!strcmp(a, b))
            continue;
        n++;
        const char *meaning = sha_meaning(SETTINGS[i].key);
        if (meaning)
            used = append(msg, size, used, "  %s%s%s\n", meaning, "", "");
        else
            used = append(msg, size, used, "  %s: '%s' in the run, '%s' given\n", SETTINGS[i].key, a, b);
    }
    return n;
}

/* The value of `key` in params_write text (NULL if absent), copied into buf. */
static const char *search_value(const char *text, const char *key, char *buf, size_t size)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '='))
            continue;
        const char *v = strchr(line, '=');
        if (!v)
            continue;
        v++;
        while (*v == ' ')
            v++;
        size_t n = strcspn(v, "\n");
        snprintf(buf, size, "%.*s", (int)n, v);
        return buf;
    }
    return NULL;
}

/* Lists the keys of `from` (params_write lines "key = value"; comments and sections skipped) that
 * are missing from `other` or, seen from the run's side, have another value there. */
static int search_diff_side(const char *from, const char *other, bool from_is_run, char *msg, size_t size,
                            size_t *used)
{
    int n = 0;
    char key[128], va[512], vb[512];
    for (const char *line = from; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        size_t klen = strcspn(line, " =\n");
        if (klen == 0 || klen >= sizeof key || line[0] == ';' || line[0] == '[' || line[0] == '#')
            continue;
        if (!strchr(line, '=') || strchr(line, '=') > line + strcspn(line, "\n"))
            continue;
        memcpy(key, line, klen);
        key[klen] = '\0';
        const char *a = search_value(from, key, va, sizeof va);
        const char *b = search_value(other, key, vb, sizeof vb);
        if (b && from_is_run && strcmp(a, b) != 0) {
            n++;
            *used = append(msg, size, *used, "  %s: %s in the run, %s given\n", key, a, b);
        } else if (!b) {
            n++;
            *used = append(msg, size, *used, from_is_run ? "  %s: %s in the run, not known to this build%s\n"
                                                         : "  %s: not in the run's settings, %s given%s\n",
                           key, a, "");
        }
    }
    return n;
}

int train_search_diff(const char *have, const char *want, char *msg, size_t size)
{
    size_t used = 0;
    if (size)
        msg[0] = '\0';
    int n = search_diff_side(have, want, true, msg, size, &used);
    n += search_diff_side(want, have, false, msg, size, &used);
    return n;
}

void train_sha(const char *text, char out[TRAIN_SHA_LEN])
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        h ^= *c;
        h *= 0x100000001b3ull;
    }
    snprintf(out, TRAIN_SHA_LEN, "%016" PRIx64, h);
}

int train_split_words(const char *text, char *storage, char **words, int max, const char **why)
{
    int n = 0;
    const char *s = text;
    char *o = storage;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            return n;
        if (n == max) {
            *why = "too many words";
            return -1;
        }
        words[n++] = o;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
            if (*s == '\'') {
                const char *close = strchr(s + 1, '\'');
                if (!close) {
                    *why = "a ' quote is not closed";
                    return -1;
                }
                memcpy(o, s + 1, (size_t)(close - s - 1));
                o += close - s - 1;
                s = close + 1;
            } else if (*s == '"') {
                s++;
                while (*s && *s != '"') {
                    if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
                        s++;
                    *o++ = *s++;
                }
                if (!*s) {
                    *why = "a \" quote is not closed";
                    return -1;
                }
                s++;
            } else if (*s == '\\' && s[1]) {
                *o++ = s[1];
                s += 2;
            } else {
                *o++ = *s++;
            }
        }
        *o++ = '\0';
    }
}

void train_record_init(TrainRecord *r, long generation)
{
    memset(r, 0, sizeof *r);
    r->generation = generation;
    snprintf(r->gate_verdict, sizeof r->gate_verdict, "none");
    r->gate_score = r->gate_elo = r->gate_elo_low = r->gate_elo_high = r->gate_los = r->gate_llr = NAN;
    r->loss_train_start = r->loss_train = r->loss_validation_start = r->loss_validation = NAN;
    r->first_mover_score = r->draw_rate = r->mean_plies = NAN;
    r->strength_score = r->strength_elo = r->strength_elo_low = r->strength_elo_high = NAN;
    r->load = NAN;
    r->in_force = generation;
    r->strength_of = -1;
}

int train_record_write(const TrainRecord *r, FILE *f)
{
    fprintf(f, "; What generation %ld of an xqlab training run did (xqlab train --status shows the table).\n",
            r->generation);
    return fields_write(RECORD, NRECORD, r, "generation", false, f);
}

int train_record_read(TrainRecord *r, const char *path, XqError *err)
{
    train_record_init(r, 0);
    return fields_read(RECORD, NRECORD, r, "generation", path, err);
}
