/* loop.c - the training loop (see loop.h): self-play -> tune -> gate per generation, each step
 * an xqlab command in a child process, resumed step by step from the files of the run folder. */
#include "loop.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ini.h"
#include "json.h"
#include "step.h"

enum { ARGS_MAX = 256, ARG_STORE = 16384, LINE_MAX_LEN = 8192 };

/* Arguments of one step: words copied into one buffer. */
typedef struct Args {
    char *v[ARGS_MAX + 1];
    int n;
    char store[ARG_STORE];
    size_t used;
    bool overflow;
} Args;

static void args_add(Args *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof a->store - a->used;
    int n = vsnprintf(a->store + a->used, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room || a->n == ARGS_MAX) {
        a->overflow = true;
        return;
    }
    a->v[a->n++] = a->store + a->used;
    a->v[a->n] = NULL;
    a->used += (size_t)n + 1;
}

/* Appends the shell-like words of text (settings were checked when the run was created). */
static int args_add_words(Args *a, const char *text, XqError *err)
{
    char storage[TRAIN_ARGS_MAX];
    char *words[ARGS_MAX];
    const char *why = NULL;
    int n = train_split_words(text, storage, words, ARGS_MAX, &why);
    if (n < 0) {
        snprintf(err->file, sizeof err->file, "train.ini");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "cannot split '%s' into words: %s", text, why);
        return -1;
    }
    for (int i = 0; i < n; i++)
        args_add(a, "%s", words[i]);
    return 0;
}

static void set_err(XqError *err, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = 0;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static void utc_stamp(char *buf, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* 1-minute load average from /proc/loadavg (NAN where there is none). */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double x = NAN;
    if (f) {
        if (fscanf(f, "%lf", &x) != 1)
            x = NAN;
        fclose(f);
    }
    return x;
}

/* A progress line: on l->log (unless quiet) and appended to DIR/train.log with the time. */
static void note(const TrainLoop *l, const char *fmt, ...)
{
    char line[LINE_MAX_LEN], stamp[32], path[PATH_MAX + 32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (l->log && !l->quiet) {
        fprintf(l->log, "xqlab train: %s\n", line);
        fflush(l->log);
    }
    snprintf(path, sizeof path, "%s/train.log", l->dir);
    FILE *f = fopen(path, "a");
    if (f) {
        utc_stamp(stamp, sizeof stamp);
        fprintf(f, "%s %s\n", stamp, line);
        fclose(f);
    }
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Writes text to path through path.tmp, fsync and rename (a kill leaves the old file or the new). */
static int write_atomic(const char *path, const char *text, XqError *err)
{
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0) {
        set_err(err, tmp, "cannot create: %s", strerror(errno));
        return -1;
    }
    size_t n = strlen(text), done = 0;
    while (done < n) {
        ssize_t w = write(fd, text + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            set_err(err, tmp, "write failed: %s", strerror(errno));
            close(fd);
            unlink(tmp);
            return -1;
        }
        done += (size_t)w;
    }
    if (fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
        set_err(err, path, "cannot complete the file: %s", strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int copy_atomic(const char *from, const char *to, XqError *err)
{
    char *text = ini_read_file(from, err);
    if (!text)
        return -1;
    int rc = write_atomic(to, text, err);
    free(text);
    return rc;
}

static int write_record(const char *path, const TrainRecord *r, XqError *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        set_err(err, path, "out of memory");
        return -1;
    }
    train_record_write(r, mem);
    fclose(mem);
    int rc = write_atomic(path, buf, err);
    free(buf);
    return rc;
}

static JsonValue *read_json(const char *path, XqError *err)
{
    char *text = ini_read_file(path, err);
    if (!text)
        return NULL;
    JsonValue *v = json_parse(text, path, err);
    free(text);
    return v;
}

/* A JSON number that is null for an unbounded Elo: -inf / +inf by the score's side. */
static double elo_number(const JsonValue *j, const char *path, double score)
{
    double x;
    if (json_get_number(j, path, &x))
        return x + 0.0; /* no "-0" in the records */
    const JsonValue *v = json_get(j, path);
    if (v && v->type == JSON_NULL)
        return score < 0.5 ? -INFINITY : INFINITY;
    return NAN;
}

static double elo_bound(const JsonValue *j, const char *path, bool low)
{
    double x;
    if (json_get_number(j, path, &x))
        return x;
    return low ? -INFINITY : INFINITY;
}

/* Runs one step with its standard output going to final.part, renamed to `final` on success.
 * Returns the step's end; TRAIN_FAILED fills *err. */
static TrainEnd run_step(const TrainLoop *l, const char *what, Args *a, const char *final, double *seconds,
                         XqError *err)
{
    char part[PATH_MAX + 8], line[LINE_MAX_LEN];
    if (a->overflow) {
        set_err(err, final, "%s: the command line is too long", what);
        return TRAIN_FAILED;
    }
    snprintf(part, sizeof part, "%s.part", final);
    train_step_command_line(a->v, line, sizeof line);
    if (l->stop && atomic_load(l->stop)) {
        /* The stop came between two steps: this one is not started. */
        note(l, "%s: interrupted before it started; run the same command again to continue", what);
        return TRAIN_INTERRUPTED;
    }
    note(l, "%s: %s", what, line);
    StepResult r;
    if (train_step_run(l->exe, a->v, part, l->stop, &r) < 0) {
        set_err(err, final, "%s: %s", what, r.how);
        return TRAIN_FAILED;
    }
    *seconds = r.seconds;
    if (r.end == STEP_INTERRUPTED) {
        note(l, "%s: interrupted after %.1f s (%s); run the same command again to continue", what, r.seconds,
             r.how);
        return TRAIN_INTERRUPTED;
    }
    if (r.end == STEP_FAILED) {
        set_err(err, final, "%s failed (%s; its messages are above, its output in %s): %s", what, r.how, part, line);
        note(l, "%s: failed (%s)", what, r.how);
        return TRAIN_FAILED;
    }
    if (rename(part, final) < 0) {
        set_err(err, final, "cannot rename %s: %s", part, strerror(errno));
        return TRAIN_FAILED;
    }
    return TRAIN_DONE;
}

static void gen_path(char *buf, size_t size, const char *dir, long g, const char *file)
{
    snprintf(buf, size, "%s/gen%ld/%s", dir, g, file);
}

static void add_threads(const TrainLoop *l, Args *a, const char *flag)
{
    if (l->threads > 0) {
        args_add(a, "%s", flag);
        args_add(a, "%d", l->threads);
    }
}

/* bench strength of `weights` into gen(g)/strength.json; fills the record's strength fields. */
static TrainEnd measure_strength(const TrainLoop *l, long g, const char *weights, TrainRecord *r, XqError *err)
{
    char out[PATH_MAX], what[64];
    gen_path(out, sizeof out, l->dir, g, "strength.json");
    snprintf(what, sizeof what, "generation %ld: strength", g);
    double seconds = 0;
    if (!exists(out)) {
        Args a = {.n = 0};
        args_add(&a, "xqlab");
        args_add(&a, "bench");
        args_add(&a, "strength");
        args_add(&a, "-v");
        args_add(&a, "%s", l->s->variant);
        args_add(&a, "--movetime");
        args_add(&a, "%ld", l->s->strength_movetime);
        args_add(&a, "-n");
        args_add(&a, "%" PRIu64, l->s->strength_games);
        args_add(&a, "--xqlab-option");
        args_add(&a, "WeightsFile=%s", weights);
        args_add(&a, "--json");
        add_threads(l, &a, "-j");
        if (l->quiet)
            args_add(&a, "--quiet");
        if (args_add_words(&a, l->s->strength, err) < 0)
            return TRAIN_FAILED;
        TrainEnd e = run_step(l, what, &a, out, &seconds, err);
        if (e != TRAIN_DONE)
            return e;
    }
    JsonValue *j = read_json(out, err);
    if (!j)
        return TRAIN_FAILED;
    double games = 0;
    bool ok = json_get_number(j, "result.games", &games) && json_get_number(j, "result.score", &r->strength_score);
    if (!ok || games <= 0) {
        json_free(j);
        set_err(err, out, "no finished games in the strength result");
        return TRAIN_FAILED;
    }
    r->strength = true;
    r->strength_of = g;
    r->strength_games = (uint64_t)games;
    r->strength_elo = elo_number(j, "result.elo", r->strength_score);
    r->strength_elo_low = elo_bound(j, "result.elo_95[0]", true);
    r->strength_elo_high = elo_bound(j, "result.elo_95[1]", false);
    if (!json_get_number(j, "result.seconds", &r->strength_seconds))
        r->strength_seconds = seconds;
    json_free(j);
    note(l, "%s: %" PRIu64 " games against the engine, score %.1f%%, Elo %+.0f [%+.0f, %+.0f]", what, r->strength_games,
         100 * r->strength_score, r->strength_elo, r->strength_elo_low, r->strength_elo_high);
    return TRAIN_DONE;
}

/* The weights file a gate player or a step uses for generation g's starting point. */
static void weights_in_force(char *buf, size_t size, const char *dir, long g)
{
    gen_path(buf, size, dir, g, "weights.ini");
}

static TrainEnd generation_zero(const TrainLoop *l, XqError *err)
{
    char rec_path[PATH_MAX], weights[PATH_MAX];
    gen_path(rec_path, sizeof rec_path, l->dir, 0, "record.ini");
    if (exists(rec_path))
        return TRAIN_DONE;
    weights_in_force(weights, sizeof weights, l->dir, 0);
    TrainRecord r;
    train_record_init(&r, 0);
    if (l->s->strength_games > 0) {
        TrainEnd e = measure_strength(l, 0, weights, &r, err);
        if (e != TRAIN_DONE)
            return e;
    }
    r.load = load_average();
    utc_stamp(r.finished, sizeof r.finished);
    return write_record(rec_path, &r, err) < 0 ? TRAIN_FAILED : TRAIN_DONE;
}

static TrainEnd run_selfplay(const TrainLoop *l, long g, const char *parent, TrainRecord *r, XqError *err)
{
    char out[PATH_MAX], data[PATH_MAX], what[64], variant[PATH_MAX], search[PATH_MAX];
    gen_path(out, sizeof out, l->dir, g, "selfplay.json");
    gen_path(data, sizeof data, l->dir, g, "selfplay.h5");
    snprintf(variant, sizeof variant, "%s/variant.ini", l->dir);
    snprintf(search, sizeof search, "%s/search.ini", l->dir);
    snprintf(what, sizeof what, "generation %ld: self-play", g);
    double seconds = 0;
    if (!exists(out) || !exists(data)) {
        Args a = {.n = 0};
        args_add(&a, "xqlab");
        args_add(&a, "selfplay");
        args_add(&a, "-v");
        args_add(&a, "%s", variant);
        args_add(&a, "-n");
        args_add(&a, "%" PRIu64, l->s->games);
        args_add(&a, "--preset");
        args_add(&a, "%s", search);
        args_add(&a, "--weights");
        args_add(&a, "%s", parent);
        args_add(&a, "--seed");
        args_add(&a, "%" PRIu64, l->s->seed + (uint64_t)g - 1);
        args_add(&a, "-o");
        args_add(&a, "%s", data);
        args_add(&a, "--resume-if-present");
        args_add(&a, "--json");
        args_add(&a, "--progress");
        args_add(&a, l->quiet ? "quiet" : "log");
        add_threads(l, &a, "-t");
        TrainEnd e = run_step(l, what, &a, out, &seconds, err);
        if (e != TRAIN_DONE)
            return e;
    }
    JsonValue *j = read_json(out, err);
    if (!j)
        return TRAIN_FAILED;
    double games = 0;
    if (!json_get_number(j, "games", &games) || games < 1) {
        json_free(j);
        set_err(err, out, "no games in the self-play summary");
        return TRAIN_FAILED;
    }
    r->selfplay_games = (uint64_t)games;
    json_get_number(j, "first_mover_score", &r->first_mover_score);
    json_get_number(j, "draw_rate", &r->draw_rate);
    json_get_number(j, "mean_plies", &r->mean_plies);
    if (!json_get_number(j, "wall_seconds", &r->selfplay_seconds))
        r->selfplay_seconds = seconds;
    json_free(j);
    note(l, "%s: %" PRIu64 " games, first mover %.1f%%, draws %.1f%%, %.0f plies on average", what,
         r->selfplay_games, 100 * r->first_mover_score, 100 * r->draw_rate, r->mean_plies);
    return TRAIN_DONE;
}

static TrainEnd run_tune(const TrainLoop *l, long g, const char *parent, TrainRecord *r, XqError *err)
{
    char values[PATH_MAX], cand[PATH_MAX], txt[PATH_MAX], what[64], variant[PATH_MAX], data[PATH_MAX];
    gen_path(values, sizeof values, l->dir, g, "candidate.json");
    gen_path(cand, sizeof cand, l->dir, g, "candidate.ini");
    gen_path(txt, sizeof txt, l->dir, g, "tune.txt");
    snprintf(variant, sizeof variant, "%s/variant.ini", l->dir);
    snprintf(what, sizeof what, "generation %ld: tune", g);
    long first = g - l->s->window + 1 > 1 ? g - l->s->window + 1 : 1;
    r->tune_files = g - first + 1;
    double seconds = 0;
    if (!exists(values) || !exists(cand)) {
        Args a = {.n = 0};
        args_add(&a, "xqlab");
        args_add(&a, "tune");
        for (long k = first; k <= g; k++) {
            gen_path(data, sizeof data, l->dir, k, "selfplay.h5");
            args_add(&a, "%s", data);
        }
        args_add(&a, "-v");
        args_add(&a, "%s", variant);
        args_add(&a, "--start");
        args_add(&a, "%s", parent);
        args_add(&a, "-o");
        args_add(&a, "%s", cand);
        args_add(&a, "--values");
        args_add(&a, "%s", values);
        args_add(&a, "--seed");
        args_add(&a, "%" PRIu64, l->s->seed);
        args_add(&a, "--quiet");
        /* A candidate.ini without its JSON is this step's own output from a run killed between the
         * two files: replaced. */
        if (exists(cand))
            args_add(&a, "--force");
        add_threads(l, &a, "-t");
        if (args_add_words(&a, l->s->tune, err) < 0)
            return TRAIN_FAILED;
        TrainEnd e = run_step(l, what, &a, txt, &seconds, err);
        if (e != TRAIN_DONE)
            return e;
    }
    JsonValue *j = read_json(values, err);
    if (!j)
        return TRAIN_FAILED;
    double games = 0, positions = 0, train_positions = 0, iterations = 0, load = 0, fit = 0;
    bool ok = json_get_number(j, "games", &games) && json_get_number(j, "positions", &positions) &&
              json_get_number(j, "loss.train", &r->loss_train) &&
              json_get_number(j, "loss.validation", &r->loss_validation);
    json_get_number(j, "train_positions", &train_positions);
    json_get_number(j, "loss.start_train", &r->loss_train_start);
    json_get_number(j, "loss.start_validation", &r->loss_validation_start);
    json_get_number(j, "iterations", &iterations);
    r->tune_seconds = json_get_number(j, "seconds.load", &load) && json_get_number(j, "seconds.fit", &fit)
                          ? load + fit : seconds;
    json_free(j);
    if (!ok) {
        set_err(err, values, "no games, positions or losses in the tune result");
        return TRAIN_FAILED;
    }
    r->tune_games = (uint64_t)games;
    r->tune_positions = (uint64_t)positions;
    r->tune_train_positions = (uint64_t)train_positions;
    r->tune_iterations = (long)iterations;
    note(l, "%s: %" PRIu64 " games, %" PRIu64 " positions; loss train %.6f -> %.6f, validation %.6f -> %.6f", what,
         r->tune_games, r->tune_positions, r->loss_train_start, r->loss_train, r->loss_validation_start,
         r->loss_validation);
    return TRAIN_DONE;
}

static TrainEnd run_gate(const TrainLoop *l, long g, const char *parent, TrainRecord *r, XqError *err)
{
    char out[PATH_MAX], cand[PATH_MAX], what[64], variant[PATH_MAX], search[PATH_MAX];
    gen_path(out, sizeof out, l->dir, g, "gate.json");
    gen_path(cand, sizeof cand, l->dir, g, "candidate.ini");
    snprintf(variant, sizeof variant, "%s/variant.ini", l->dir);
    snprintf(search, sizeof search, "%s/search.ini", l->dir);
    snprintf(what, sizeof what, "generation %ld: gate", g);
    double seconds = 0;
    const char *extra = l->s->gate_set[0] ? "," : "";
    if (!exists(out)) {
        Args a = {.n = 0};
        args_add(&a, "xqlab");
        args_add(&a, "match");
        args_add(&a, "-v");
        args_add(&a, "%s", variant);
        args_add(&a, "--preset");
        args_add(&a, "%s", search);
        args_add(&a, "--a");
        args_add(&a, "mcts:weights=%s%s%s", cand, extra, l->s->gate_set);
        args_add(&a, "--b");
        args_add(&a, "mcts:weights=%s%s%s", parent, extra, l->s->gate_set);
        args_add(&a, "-n");
        args_add(&a, "%" PRIu64, l->s->gate_games);
        args_add(&a, "--sprt");
        args_add(&a, "%s", l->s->sprt);
        args_add(&a, "--sprt-min-pairs");
        args_add(&a, "%ld", l->s->sprt_min_pairs);
        args_add(&a, "--seed");
        args_add(&a, "%" PRIu64, l->s->seed + (uint64_t)g - 1);
        if (l->s->gate_openings[0]) {
            args_add(&a, "--openings");
            args_add(&a, "%s", l->s->gate_openings);
        }
        args_add(&a, "--json");
        if (l->quiet)
            args_add(&a, "--quiet");
        add_threads(l, &a, "-t");
        TrainEnd e = run_step(l, what, &a, out, &seconds, err);
        if (e != TRAIN_DONE)
            return e;
    }
    JsonValue *j = read_json(out, err);
    if (!j)
        return TRAIN_FAILED;
    double games = 0, p[5];
    bool ok = json_get_number(j, "games", &games) && json_get_number(j, "a_score", &r->gate_score);
    for (int i = 0; i < 5 && ok; i++) {
        char path[32];
        snprintf(path, sizeof path, "pentanomial[%d]", i);
        ok = json_get_number(j, path, &p[i]);
        if (ok)
            r->gate_pentanomial[i] = (uint64_t)p[i];
    }
    const char *verdict = json_get_string(j, "sprt.verdict");
    if (!ok || !verdict) {
        json_free(j);
        set_err(err, out, "no games, score, pentanomial counts or SPRT verdict in the gate result");
        return TRAIN_FAILED;
    }
    r->gate_games = (uint64_t)games;
    r->gate_elo = elo_number(j, "elo", r->gate_score);
    r->gate_elo_low = elo_bound(j, "elo_95[0]", true);
    r->gate_elo_high = elo_bound(j, "elo_95[1]", false);
    json_get_number(j, "los", &r->gate_los);
    json_get_number(j, "sprt.llr", &r->gate_llr);
    snprintf(r->gate_verdict, sizeof r->gate_verdict, "%s", verdict);
    r->gate_seconds = seconds;
    json_free(j);
    r->promoted = !strcmp(r->gate_verdict, "H1");
    note(l, "%s: candidate against generation %ld's weights: %" PRIu64 " games, Elo %+.1f [%+.1f, %+.1f], LLR %.2f, "
         "%s: %s", what, g - 1, r->gate_games, r->gate_elo, r->gate_elo_low, r->gate_elo_high, r->gate_llr,
         r->gate_verdict, r->promoted ? "promoted" : "not promoted");
    return TRAIN_DONE;
}

static TrainEnd run_generation(const TrainLoop *l, long g, const TrainRecord *prev, XqError *err)
{
    char dir[PATH_MAX], parent[PATH_MAX], cand[PATH_MAX], weights[PATH_MAX], rec_path[PATH_MAX], best[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/gen%ld", l->dir, g);
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        set_err(err, dir, "cannot create the folder: %s", strerror(errno));
        return TRAIN_FAILED;
    }
    weights_in_force(parent, sizeof parent, l->dir, g - 1);
    gen_path(cand, sizeof cand, l->dir, g, "candidate.ini");
    weights_in_force(weights, sizeof weights, l->dir, g);
    gen_path(rec_path, sizeof rec_path, l->dir, g, "record.ini");
    note(l, "generation %ld of %ld: weights in force from generation %ld", g, l->s->generations, prev->in_force);
    TrainRecord r;
    train_record_init(&r, g);
    TrainEnd e;
    if ((e = run_selfplay(l, g, parent, &r, err)) != TRAIN_DONE || (e = run_tune(l, g, parent, &r, err)) != TRAIN_DONE ||
        (e = run_gate(l, g, parent, &r, err)) != TRAIN_DONE)
        return e;
    r.in_force = r.promoted ? g : prev->in_force;
    if (copy_atomic(r.promoted ? cand : parent, weights, err) < 0)
        return TRAIN_FAILED;
    if (l->s->strength_games > 0) {
        if (r.promoted) {
            if ((e = measure_strength(l, g, weights, &r, err)) != TRAIN_DONE)
                return e;
        } else {
            /* The same weights as before: their measurement carries over. */
            r.strength = prev->strength;
            r.strength_of = prev->strength_of;
            r.strength_games = prev->strength_games;
            r.strength_score = prev->strength_score;
            r.strength_elo = prev->strength_elo;
            r.strength_elo_low = prev->strength_elo_low;
            r.strength_elo_high = prev->strength_elo_high;
        }
    }
    r.load = load_average();
    utc_stamp(r.finished, sizeof r.finished);
    if (write_record(rec_path, &r, err) < 0)
        return TRAIN_FAILED;
    snprintf(best, sizeof best, "%s/best.ini", l->dir);
    if (copy_atomic(weights, best, err) < 0)
        return TRAIN_FAILED;
    note(l, "generation %ld done: weights in force from generation %ld (load average %.1f)", g, r.in_force, r.load);
    return TRAIN_DONE;
}

TrainEnd train_loop_run(const TrainLoop *l, XqError *err)
{
    TrainEnd e = generation_zero(l, err);
    if (e != TRAIN_DONE)
        return e;
    TrainRecord prev;
    char path[PATH_MAX];
    gen_path(path, sizeof path, l->dir, 0, "record.ini");
    if (train_record_read(&prev, path, err) < 0)
        return TRAIN_FAILED;
    for (long g = 1; g <= l->s->generations; g++) {
        gen_path(path, sizeof path, l->dir, g, "record.ini");
        if (l->stop && atomic_load(l->stop) && !exists(path)) {
            /* Logged like a stop during a step: train.log says why generation g is missing. */
            note(l, "generation %ld: interrupted before it started; run the same command again to continue", g);
            return TRAIN_INTERRUPTED;
        }
        if (exists(path)) {
            if (train_record_read(&prev, path, err) < 0)
                return TRAIN_FAILED;
            if (prev.generation != g) {
                set_err(err, path, "holds the record of generation %ld, not %ld", prev.generation, g);
                return TRAIN_FAILED;
            }
            continue;
        }
        if ((e = run_generation(l, g, &prev, err)) != TRAIN_DONE)
            return e;
        if (train_record_read(&prev, path, err) < 0)
            return TRAIN_FAILED;
    }
    return TRAIN_DONE;
}

TrainRecord *train_records_load(const char *dir, int *n, XqError *err)
{
    char path[PATH_MAX];
    int count = 0;
    for (;;) {
        gen_path(path, sizeof path, dir, count, "record.ini");
        if (count >= TRAIN_MAX_GENERATIONS || !exists(path))
            break;
        count++;
    }
    TrainRecord *recs = malloc((size_t)(count ? count : 1) * sizeof *recs);
    if (!recs) {
        set_err(err, dir, "out of memory");
        return NULL;
    }
    for (int g = 0; g < count; g++) {
        gen_path(path, sizeof path, dir, g, "record.ini");
        if (train_record_read(&recs[g], path, err) < 0) {
            free(recs);
            return NULL;
        }
        if (recs[g].generation != g) {
            set_err(err, path, "holds the record of generation %ld, not %d", recs[g].generation, g);
            free(recs);
            return NULL;
        }
    }
    *n = count;
    return recs;
}
