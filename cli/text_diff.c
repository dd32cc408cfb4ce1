/* text_diff.c - line differences by the longest common subsequence. */
#include "text_diff.h"

#include <stdlib.h>
#include <string.h>

typedef struct Line {
    const char *text;
    size_t len;
    int number;
} Line;

/* Splits text into trimmed lines (skipping blanks and comments if asked). *n receives the
 * count; returns a malloc'd array (NULL on out of memory; an empty text gives a 1-element
 * allocation and *n = 0). */
static Line *split(const char *text, bool skip_comments, int *n)
{
    int cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    Line *lines = malloc((size_t)cap * sizeof *lines);
    if (!lines)
        return NULL;
    *n = 0;
    int number = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        number++;
        const char *s = p;
        size_t m = len;
        while (m && (*s == ' ' || *s == '\t')) {
            s++;
            m--;
        }
        while (m && (s[m - 1] == ' ' || s[m - 1] == '\t' || s[m - 1] == '\r'))
            m--;
        if (!skip_comments || (m && *s != ';' && *s != '#'))
            lines[(*n)++] = (Line){s, m, number};
        p = end ? end + 1 : p + len;
    }
    return lines;
}

static bool same(const Line *a, const Line *b)
{
    return a->len == b->len && !memcmp(a->text, b->text, a->len);
}

int text_diff(const char *a, const char *b, bool skip_comments, TextDiffEmit emit, void *ctx)
{
    int na = 0, nb = 0;
    Line *la = split(a ? a : "", skip_comments, &na), *lb = split(b ? b : "", skip_comments, &nb);
    /* lcs[i][j]: length of the longest common subsequence of la[i..] and lb[j..]. */
    int *lcs = la && lb ? calloc((size_t)(na + 1) * (size_t)(nb + 1), sizeof *lcs) : NULL;
    if (!lcs) {
        free(la);
        free(lb);
        return -1;
    }
#define L(i, j) lcs[(size_t)(i) * (size_t)(nb + 1) + (size_t)(j)]
    for (int i = na - 1; i >= 0; i--)
        for (int j = nb - 1; j >= 0; j--)
            L(i, j) = same(&la[i], &lb[j]) ? L(i + 1, j + 1) + 1 : L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
    int i = 0, j = 0, count = 0;
    while (i < na || j < nb) {
        if (i < na && j < nb && same(&la[i], &lb[j])) {
            i++;
            j++;
        } else if (j >= nb || (i < na && L(i + 1, j) >= L(i, j + 1))) {
            emit(ctx, '-', la[i].number, la[i].text, la[i].len);
            i++;
            count++;
        } else {
            emit(ctx, '+', lb[j].number, lb[j].text, lb[j].len);
            j++;
            count++;
        }
    }
#undef L
    free(lcs);
    free(la);
    free(lb);
    return count;
}
