/* bad_option.c - one-line answers to unknown options, with the nearest option of the help. */
#include "bad_option.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { NAME_MAX_LEN = 64 };

/* Optimal-string-alignment distance (Levenshtein plus adjacent transpositions). */
static int edit_distance(const char *a, const char *b)
{
    int n = (int)strlen(a), m = (int)strlen(b);
    if (n >= NAME_MAX_LEN || m >= NAME_MAX_LEN)
        return NAME_MAX_LEN;
    int d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* Next option name in the help text from *p: "-x" or "--name-with-dashes" standing at the start
 * of a word. Returns false at the end. */
static bool next_option(const char **p, char *name)
{
    for (const char *s = *p; *s; s++) {
        bool word_start = s == *p || !(isalnum((unsigned char)s[-1]) || s[-1] == '-' || s[-1] == '_');
        if (*s != '-' || !word_start)
            continue;
        const char *q = s + (s[1] == '-' ? 2 : 1);
        if (!isalpha((unsigned char)*q))
            continue;
        size_t n = 0;
        const char *e = q;
        while (isalnum((unsigned char)*e) || *e == '-' || *e == '_')
            e++;
        while (e > q && e[-1] == '-')
            e--;
        n = (size_t)(e - s);
        if (s[1] != '-' && n != 2)
            continue; /* a single dash takes one letter: "-n", not "-like" in prose */
        if (n >= NAME_MAX_LEN)
            continue;
        memcpy(name, s, n);
        name[n] = '\0';
        *p = e;
        return true;
    }
    return false;
}

const char *cli_nearest_option(const char *help, const char *arg, char *buf, size_t size)
{
    char want[NAME_MAX_LEN];
    snprintf(want, sizeof want, "%s", arg);
    char *eq = strchr(want, '=');
    if (eq)
        *eq = '\0';
    int best = NAME_MAX_LEN, prefix_count = 0;
    char best_name[NAME_MAX_LEN] = "", prefix_name[NAME_MAX_LEN] = "";
    const char *p = help;
    char name[NAME_MAX_LEN];
    size_t want_len = strlen(want);
    while (next_option(&p, name)) {
        int d = edit_distance(want, name);
        if (d < best) {
            best = d;
            snprintf(best_name, sizeof best_name, "%s", name);
        }
        if (want_len >= 4 && !strncmp(name, want, want_len) && strcmp(name, prefix_name)) {
            prefix_count++;
            snprintf(prefix_name, sizeof prefix_name, "%s", name);
        }
    }
    /* Dashes do not count toward the length that allows a third of it to be wrong. */
    int letters = (int)(want_len - strspn(want, "-"));
    int allowed = letters <= 1 ? 0 : letters <= 2 ? 1 : letters / 3 > 2 ? letters / 3 : 2;
    if (best_name[0] && best > 0 && best <= allowed) {
        snprintf(buf, size, "%s", best_name);
        return buf;
    }
    if (prefix_count == 1) {
        snprintf(buf, size, "%s", prefix_name);
        return buf;
    }
    return NULL;
}

/* True if the help names exactly this option. */
static bool help_names(const char *help, const char *arg)
{
    const char *p = help;
    char name[NAME_MAX_LEN];
    while (next_option(&p, name))
        if (!strcmp(name, arg))
            return true;
    return false;
}

int cli_bad_option_text(const char *cmd, const char *arg, const char *help)
{
    if (arg[0] != '-' || !arg[1])
        return cli_error(EXIT_USAGE, cmd, "unexpected argument '%s' (xqlab %s --help)", arg, cmd);
    if (help && help_names(help, arg))
        return cli_error(EXIT_USAGE, cmd, "%s needs a value", arg);
    char near[NAME_MAX_LEN];
    if (help && cli_nearest_option(help, arg, near, sizeof near))
        return cli_error(EXIT_USAGE, cmd, "unknown option '%s' (did you mean %s?)", arg, near);
    return cli_error(EXIT_USAGE, cmd, "unknown option '%s' (xqlab %s --help lists the options)", arg, cmd);
}

int cli_bad_option(const char *cmd, const char *arg, void (*usage)(FILE *out))
{
    char *help = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&help, &len);
    if (mem) {
        usage(mem);
        fclose(mem);
    }
    int rc = cli_bad_option_text(cmd, arg, mem ? help : NULL);
    free(help);
    return rc;
}
