/* weights_choice.c - which weights file fits a rule set: feature names matched, the nearest
 * shipped file chosen, the choice described. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "weights_choice.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ini.h"
#include "net.h"

static void set_error(XqError *err, const char *file, int line, const char *msg)
{
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

/* Appends name to a ", "-separated list, ending it with "..." when it is full. */
static void list_append(char *list, size_t size, const char *name)
{
    size_t used = strlen(list);
    if (used >= 3 && !strcmp(list + used - 3, "..."))
        return;
    size_t need = strlen(name) + (used ? 2 : 0);
    if (used + need + 5 > size) {
        snprintf(list + used, size - used, "%s...", used ? ", " : "");
        return;
    }
    snprintf(list + used, size - used, "%s%s", used ? ", " : "", name);
}

int weights_fit(const Evaluator *bare, const char *path, WeightsFit *fit, XqError *err)
{
    memset(fit, 0, sizeof *fit);
    int nf = eval_feature_count(bare);
    fit->features = nf;
    bool *named_feature = fit->names_feature;
    char *text = ini_read_file(path, err);
    if (!text)
        return -1;
    IniFile ini;
    int rc = ini_parse(&ini, text, path, err);
    free(text);
    if (rc != 0)
        return -1;
    for (int k = 0; k < ini.count; k++) {
        const IniEntry *en = &ini.entries[k];
        if (strcmp(en->section, "net") == 0)
            continue; /* the network's file: eval_create checks it */
        if (strcmp(en->section, "weights") != 0) {
            char msg[XQ_MSG_MAX];
            snprintf(msg, sizeof msg,
                     "unknown section [%.64s] (a weights file has [weights] and an optional [net])",
                     en->section);
            set_error(err, path, en->line, msg);
            ini_free(&ini);
            return -1;
        }
        fit->named++;
        int found = -1;
        for (int i = 0; i < nf && found < 0; i++)
            if (!strcmp(eval_feature_name(bare, i), en->key))
                found = i;
        if (found >= 0) {
            /* A duplicate is eval_create's error to report; count the feature once. */
            if (!named_feature[found])
                fit->matched++;
            else
                fit->named--;
            named_feature[found] = true;
        } else {
            list_append(fit->unknown, sizeof fit->unknown, en->key);
        }
    }
    ini_free(&ini);
    return 0;
}

int weights_effective(const Evaluator *bare, const char *text, const char *name, double *out, XqError *err)
{
    int nf = eval_feature_count(bare);
    for (int i = 0; i < nf; i++)
        out[i] = eval_weight(bare, i);
    if (!text || !*text)
        return 0;
    IniFile ini;
    if (ini_parse(&ini, text, name, err) != 0)
        return -1;
    int rc = 0;
    for (int k = 0; k < ini.count && rc == 0; k++) {
        const IniEntry *en = &ini.entries[k];
        if (strcmp(en->section, "weights") != 0)
            continue;
        for (int i = 0; i < nf; i++)
            if (!strcmp(eval_feature_name(bare, i), en->key)) {
                char *end = NULL;
                double w = strtod(en->value, &end);
                if (end == en->value || *end) {
                    char msg[XQ_MSG_MAX];
                    snprintf(msg, sizeof msg, "%.64s: expected a number, got '%.64s'", en->key, en->value);
                    set_error(err, name, en->line, msg);
                    rc = -1;
                } else {
                    out[i] = w;
                }
                break;
            }
    }
    ini_free(&ini);
    return rc;
}

/* Lines (trimmed, not blank, not comments) of `a` that also occur in `b`. */
static int common_lines(const char *a, const char *b)
{
    int common = 0;
    const char *p = a;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *s = p;
        size_t n = len;
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
            n--;
        if (n && *s != ';' && *s != '#') {
            /* Look for the same trimmed line in b. */
            const char *q = b;
            bool found = false;
            while (*q && !found) {
                const char *qe = strchr(q, '\n');
                size_t ql = qe ? (size_t)(qe - q) : strlen(q);
                const char *t = q;
                size_t m = ql;
                while (m && (*t == ' ' || *t == '\t')) {
                    t++;
                    m--;
                }
                while (m && (t[m - 1] == ' ' || t[m - 1] == '\t' || t[m - 1] == '\r'))
                    m--;
                found = m == n && !memcmp(s, t, n);
                q = qe ? qe + 1 : q + ql;
            }
            common += found;
        }
        p = end ? end + 1 : p + len;
    }
    return common;
}

static bool is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Similarity of rule set v to the shipped rule set of the weights file `stem` (-1: none). */
static int rule_set_similarity(const Variant *v, const char *variants_dir, const char *stem)
{
    if (!variants_dir || !v->text)
        return -1;
    char path[WEIGHTS_PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s.ini", variants_dir, stem) >= sizeof path || !is_regular_file(path))
        return -1;
    XqError err;
    char *text = ini_read_file(path, &err);
    if (!text)
        return -1;
    int n = common_lines(v->text, text);
    free(text);
    return n;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int weights_choose(const Variant *v, const char *weights_dir, const char *variants_dir, WeightsUse use,
                   WeightsChoice *out, XqError *err)
{
    memset(out, 0, sizeof *out);
    out->how = WEIGHTS_NONE;
    DIR *dir = opendir(weights_dir);
    if (!dir)
        return 0; /* no shipped weights: defaults */
    char **names = NULL;
    int count = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(dir)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 4 || strcmp(de->d_name + len - 4, ".ini") != 0 || de->d_name[0] == '.')
            continue;
        if (count == cap) {
            int ncap = cap ? 2 * cap : 16;
            char **grown = realloc(names, (size_t)ncap * sizeof *grown);
            if (!grown) {
                rc = -1;
                break;
            }
            names = grown;
            cap = ncap;
        }
        names[count] = strdup(de->d_name);
        if (!names[count]) {
            rc = -1;
            break;
        }
        count++;
    }
    closedir(dir);
    Evaluator *bare = rc == 0 ? eval_create(v, NULL, err) : NULL;
    if (rc != 0 || !bare) {
        if (rc != 0)
            set_error(err, weights_dir, 0, "out of memory");
        for (int i = 0; i < count; i++)
            free(names[i]);
        free(names);
        return -1;
    }
    qsort(names, (size_t)count, sizeof *names, compare_names);
    /* Best so far: most features named, then the rule set's own file, then the most similar
     * shipped rule set, then the file for this player; equal on all four, the earlier name
     * stays. */
    bool best_own = false, best_for_use = false;
    int best_similarity = -1;
    for (int i = 0; i < count && rc == 0; i++) {
        char path[WEIGHTS_PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", weights_dir, names[i]) >= sizeof path ||
            !is_regular_file(path))
            continue;
        out->candidates++;
        WeightsFit fit;
        if (weights_fit(bare, path, &fit, err) != 0) {
            rc = -1;
            break;
        }
        if (!weights_fit_applies(&fit) || fit.named == 0)
            continue;
        /* The rule set a file is for: its stem, less the MCTS player's suffix. */
        char stem[WEIGHTS_PATH_MAX];
        size_t stem_len = strlen(names[i]) - 4, suffix_len = strlen(WEIGHTS_MCTS_SUFFIX);
        bool mcts_file = stem_len > suffix_len &&
                         !memcmp(names[i] + stem_len - suffix_len, WEIGHTS_MCTS_SUFFIX, suffix_len);
        if (mcts_file)
            stem_len -= suffix_len;
        snprintf(stem, sizeof stem, "%.*s", (int)stem_len, names[i]);
        bool own = !strcmp(stem, v->name);
        bool for_use = mcts_file == (use == WEIGHTS_FOR_MCTS);
        int similarity = rule_set_similarity(v, variants_dir, stem);
        bool better =
            out->how == WEIGHTS_NONE || fit.named > out->fit.named ||
            (fit.named == out->fit.named &&
             (own > best_own ||
              (own == best_own && (similarity > best_similarity ||
                                   (similarity == best_similarity && for_use > best_for_use)))));
        if (better) {
            out->how = WEIGHTS_NEAREST;
            out->fit = fit;
            snprintf(out->path, sizeof out->path, "%s", path);
            best_own = own;
            best_similarity = similarity;
            best_for_use = for_use;
        }
    }
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    eval_free(bare);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

static void describe_linear(const WeightsChoice *c, const Evaluator *e, char *buf, size_t size)
{
    int nf = eval_feature_count(e);
    if (c->how == WEIGHTS_NONE || c->how == WEIGHTS_OFF) {
        snprintf(buf, size, "none (%s): all %d features at their defaults (material = the piece values of the "
                 "variant file, the rest 0)", c->how == WEIGHTS_OFF ? "--weights none"
                 : c->candidates ? "no shipped weights file applies to this rule set" : "no shipped weights files", nf);
        return;
    }
    size_t len = strlen(c->path), tail = strlen(WEIGHTS_MCTS_SUFFIX ".ini");
    bool mcts_file = len > tail && !strcmp(c->path + len - tail, WEIGHTS_MCTS_SUFFIX ".ini");
    size_t used = (size_t)snprintf(buf, size, "%s (%s: names %d of the %d features", c->path,
                                   c->how == WEIGHTS_GIVEN ? "given"
                                   : mcts_file             ? "nearest shipped weights for the MCTS player"
                                                           : "nearest shipped weights",
                                   c->fit.matched, nf);
    if (used >= size)
        return;
    if (c->fit.matched == nf) {
        snprintf(buf + used, size - used, ")");
        return;
    }
    /* The defaults that are not 0 (a new piece's value) by name, the zeros by number. */
    char defaults[WEIGHTS_NAMES_MAX] = "";
    int zeros = 0;
    for (int i = 0; i < nf; i++)
        if (!c->fit.names_feature[i]) {
            if (eval_weight(e, i) == 0) {
                zeros++;
                continue;
            }
            char item[160];
            snprintf(item, sizeof item, "%s = %g", eval_feature_name(e, i), eval_weight(e, i));
            list_append(defaults, sizeof defaults, item);
        }
    char zero_text[64] = "";
    if (zeros)
        snprintf(zero_text, sizeof zero_text, "%s%d at 0", defaults[0] ? "; " : "", zeros);
    snprintf(buf + used, size - used, "; the other %d keep their defaults: %s%s)", nf - c->fit.matched, defaults,
             zero_text);
}

void weights_describe(const WeightsChoice *c, const Evaluator *e, char *buf, size_t size)
{
    describe_linear(c, e, buf, size);
    const Net *n = eval_net(e);
    size_t used = strlen(buf);
    if (n && used < size)
        snprintf(buf + used, size - used, " + a network of %d hidden units (checksum %016llx)", n->hidden,
                 (unsigned long long)n->checksum);
    else if (eval_net_left_out(e)[0] && used < size)
        snprintf(buf + used, size - used, "; its network, made for the pieces of %s, left out",
                 eval_net_left_out(e));
}

/* The folder of a file's path ("." for a bare name). */
static void folder_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else if (slash == path)
        snprintf(buf, size, "/");
    else
        snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

int weights_net_reference(const char *net_path, const char *out_path, char *buf, size_t size, XqError *err)
{
    char real_net[PATH_MAX], out_dir[PATH_MAX], real_out_dir[PATH_MAX], net_dir[PATH_MAX];
    if (!realpath(net_path, real_net)) {
        char msg[XQ_MSG_MAX];
        snprintf(msg, sizeof msg, "the network file cannot be found: %s", strerror(errno));
        set_error(err, net_path, 0, msg);
        return -1;
    }
    /* A weights file in a folder that does not exist yet cannot share the network's folder. */
    folder_of(out_path, out_dir, sizeof out_dir);
    bool same = false;
    if (realpath(out_dir, real_out_dir)) {
        folder_of(real_net, net_dir, sizeof net_dir);
        same = strcmp(net_dir, real_out_dir) == 0;
    }
    snprintf(buf, size, "%s", same ? strrchr(real_net, '/') + 1 : real_net);
    return 0;
}

char *weights_text_moved(const char *text, const char *from_path, const char *to_path, XqError *err)
{
    IniFile ini;
    if (ini_parse(&ini, text, from_path, err) != 0)
        return NULL;
    int line = 0;
    char full[PATH_MAX + 8], value[PATH_MAX];
    for (int k = 0; k < ini.count; k++) {
        const IniEntry *en = &ini.entries[k];
        if (!strcmp(en->section, "net") && !strcmp(en->key, "file") && en->value[0] != '/') {
            char dir[PATH_MAX];
            folder_of(from_path, dir, sizeof dir);
            snprintf(full, sizeof full, "%s/%s", dir, en->value);
            snprintf(value, sizeof value, "%s", en->value);
            line = en->line;
        }
    }
    ini_free(&ini);
    if (!line)
        return strdup(text);
    char ref[PATH_MAX];
    if (weights_net_reference(full, to_path, ref, sizeof ref, err) != 0)
        return NULL;
    if (!strcmp(ref, value))
        return strdup(text); /* beside the network still: the line as written */
    /* The text with line `line` replaced. */
    const char *start = text;
    for (int l = 1; l < line && start; l++) {
        start = strchr(start, '\n');
        if (start)
            start++;
    }
    if (!start) {
        set_error(err, from_path, line, "[net] file line not found");
        return NULL;
    }
    const char *end = strchr(start, '\n');
    size_t head = (size_t)(start - text), tail_len = end ? strlen(end) : 0;
    size_t n = head + strlen("file = ") + strlen(ref) + tail_len + 1;
    char *out = malloc(n);
    if (!out) {
        set_error(err, from_path, 0, "out of memory");
        return NULL;
    }
    snprintf(out, n, "%.*sfile = %s%s", (int)head, text, ref, end ? end : "");
    return out;
}
