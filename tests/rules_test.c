/* rules_test.c - helpers shared by the rule-set test programs (see rules_test.h). */
#include "test_util.h"

#include "ini.h"
#include "perft.h"
#include "rules_test.h"

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void sort_words(const char *in, char *out, size_t size)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", in);
    char *words[512];
    int n = 0;
    for (char *w = strtok(buf, " "); w && n < 512; w = strtok(NULL, " "))
        words[n++] = w;
    qsort(words, (size_t)n, sizeof *words, compare_strings);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s", i ? " " : "", words[i]);
}

/* All legal moves in ICCS (with module suffixes), sorted; with `prefix`, only moves starting
 * with it, written without it. */
void moves_text(Position *p, const char *prefix, char *out, size_t size)
{
    MoveList list;
    pos_generate_legal(p, &list);
    char raw[8192] = "";
    size_t len = 0, pl = prefix ? strlen(prefix) : 0;
    for (int i = 0; i < list.count; i++) {
        char m[16];
        move_to_iccs(p->v, list.moves[i], m);
        if (prefix && strncmp(m, prefix, pl) != 0)
            continue;
        len += (size_t)snprintf(raw + len, sizeof raw - len, "%s ", m + pl);
    }
    sort_words(raw, out, size);
}

void expect_moves(Position *p, const char *prefix, const char *expected)
{
    char got[8192], want[8192];
    moves_text(p, prefix, got, sizeof got);
    sort_words(expected, want, sizeof want);
    if (strcmp(got, want) != 0)
        fail_msg("moves%s%s: expected '%s', got '%s'", prefix ? " from " : "", prefix ? prefix : "",
                 want, got);
}

bool has_move(Position *p, const char *text)
{
    MoveList list;
    pos_generate_legal(p, &list);
    for (int i = 0; i < list.count; i++) {
        char m[16];
        move_to_iccs(p->v, list.moves[i], m);
        if (!strcmp(m, text))
            return true;
    }
    return false;
}

void expect_fen(const Position *p, const char *want)
{
    char got[512];
    pos_get_fen(p, got, sizeof got);
    assert_string_equal(got, want);
}

Variant *load_text_variant(const char *name, const char *from, const char *to)
{
    XqError err;
    Variant *v = try_text_variant(name, from, to, &err);
    if (!v)
        fail_msg("%s", err.message);
    return v;
}

Variant *try_text_variant(const char *name, const char *from, const char *to, XqError *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/%s.ini", XQ_SOURCE_DIR, name);
    char *text = ini_read_file(path, err);
    assert_non_null(text);
    char *at = strstr(text, from);
    assert_non_null(at);
    char buf[16384];
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return variant_load_text(buf, name, err);
}

void expect_perft(const char *name, const uint64_t *want, int depth)
{
    Variant *v = test_load_variant(name);
    Position *p = malloc(sizeof *p);
    assert_non_null(p);
    pos_init_start(p, v);
    for (int d = 1; d <= depth; d++)
        assert_int_equal(perft(p, d), want[d - 1]);
    free(p);
    variant_free(v);
}

