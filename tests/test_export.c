/* test_export.c - the HDF5 dataset writer and reader: round trips of every field, resume after
 * an abandoned run, after a half-written game, after SIGKILL, after a damaged chunk, an unreadable
 * .tmp and an interrupted rebuild, rejection of damaged files, reading format-1 files (before the
 * hidden-piece columns), fixed-length strings (format 3) and reading format-2 files with
 * variable-length ones, and the zstd filter on good and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <hdf5.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dataset.h"
#include "ini.h"
#include "zstd_filter.h"
#include <zstd.h>

enum { NPOINTS = 90 };

static char test_dir[512];

/* Builds a path inside this run's scratch folder. */
static const char *scratch(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", test_dir, name);
    return buf;
}

static DatasetMeta test_meta(void)
{
    DatasetMeta m = {
        .variant_name = "testvariant",
        .variant_text = "[variant]\nname = testvariant\nfiles = 9\nranks = 10\n",
        .weights_text = "material = 1\n",
        .params_text = "playouts = 200\ncpuct = 1.5\n",
        .command_line = "xqlab selfplay --games 10",
        .base_seed = 12345,
        .shard_index = 2,
        .shard_count = 4,
        .first_game = 0,
        .game_count = 100,
        .npoints = NPOINTS,
        .start_text = "startpos",
        .run_games = 400,
    };
    return m;
}

/* A deterministic game whose every field depends on its index; moves carry extra and flag bytes
 * so their round trip through the uint32 columns is checked. */
static void make_game(uint64_t index, GameRecord *g)
{
    memset(g, 0, sizeof *g);
    int n = 3 + (int)(index % 7);
    g->index = index;
    g->seed = index * 1000003u + 7u;
    g->result = (int8_t)((int)(index % 3) - 1);
    g->termination = (uint8_t)(index % TERM_COUNT);
    g->plies = (uint16_t)n;
    snprintf(g->start_fen, sizeof g->start_fen, "test start position %" PRIu64 " w - - 0 1", index);
    g->wall_seconds = 0.25f * (float)index;
    g->resign_disabled = index % 2 == 1;
    /* Hidden-piece fields on every third game (the others have no deal and read back zero). */
    if (index % 3 == 0) {
        g->has_deal = true;
        g->deal_swapped = index % 2 == 1;
        g->seat_colour = (int8_t)((int)(index % 9) / 3 - 1);
        for (int q = 0; q < NPOINTS; q++)
            g->deal[q] = (uint8_t)(q % 4 == 0 ? 0 : 1 + (q + (int)index) % 23);
        g->deal[1] = 0x17; /* never all zero */
    }
    g->nmoves = n;
    g->npositions = n;
    g->moves = malloc((size_t)n * sizeof *g->moves);
    g->positions = calloc((size_t)n, sizeof *g->positions);
    g->policy_moves = malloc((size_t)n * 6 * sizeof *g->policy_moves);
    g->policy_visits = malloc((size_t)n * 6 * sizeof *g->policy_visits);
    assert_non_null(g->moves);
    assert_non_null(g->positions);
    assert_non_null(g->policy_moves);
    assert_non_null(g->policy_visits);
    for (int k = 0; k < n; k++) {
        PositionRecord *p = &g->positions[k];
        for (int q = 0; q < NPOINTS; q++)
            p->board[q] = (uint8_t)((q * 7 + k + (int)index) % 24);
        for (int q = 0; q < XQ_MOD_STATE; q++)
            p->module[q] = (uint8_t)(q * 11 + k * 3 + (int)index);
        p->side = (uint8_t)(k % 2);
        p->ply = (uint16_t)k;
        p->no_capture = (uint16_t)(k * 3 % 61);
        g->moves[k] = XQ_MOVE(k, k + 9) | ((Move)(index % 3) << 16) | ((Move)(k % 2) << 24);
        p->played = g->moves[k];
        p->best = k == n - 1 ? XQ_MOVE_NONE : XQ_MOVE(k + 1, k + 10);
        p->root_value = (float)sin((double)(k + 1) * (double)(index + 1));
        p->static_eval = k == 0 ? NAN : (float)cos((double)k * 0.3);
        p->visits = 200u + (uint32_t)k;
        p->policy_first = (uint32_t)g->npolicy;
        p->policy_count = 1 + (k + (int)index) % 5;
        for (int c = 0; c < p->policy_count; c++) {
            g->policy_moves[g->npolicy] = XQ_MOVE(c, c + 1) | ((Move)c << 24);
            g->policy_visits[g->npolicy] = (uint32_t)(c == 0 ? 70000 : 3 * c + k);
            g->npolicy++;
        }
    }
}

static void assert_value_close(float want, float got)
{
    if (isnan(want)) {
        assert_true(isnan(got));
        return;
    }
    assert_true(fabsf(want - got) <= 0.5f / 32767.0f + 1e-6f);
}

static void assert_same_game(const GameRecord *a, const GameRecord *b)
{
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->seed, b->seed);
    assert_int_equal(a->result, b->result);
    assert_int_equal(a->termination, b->termination);
    assert_int_equal(a->plies, b->plies);
    assert_string_equal(a->start_fen, b->start_fen);
    assert_true(a->wall_seconds == b->wall_seconds);
    assert_int_equal(a->resign_disabled, b->resign_disabled);
    assert_int_equal(a->has_deal, b->has_deal);
    assert_int_equal(a->deal_swapped, b->deal_swapped);
    assert_int_equal(a->seat_colour, b->seat_colour);
    assert_memory_equal(a->deal, b->deal, NPOINTS);
    assert_int_equal(a->nmoves, b->nmoves);
    assert_memory_equal(a->moves, b->moves, (size_t)a->nmoves * sizeof *a->moves);
    assert_int_equal(a->npositions, b->npositions);
    assert_int_equal(a->npolicy, b->npolicy);
    assert_memory_equal(a->policy_moves, b->policy_moves, (size_t)a->npolicy * sizeof *a->policy_moves);
    assert_memory_equal(a->policy_visits, b->policy_visits, (size_t)a->npolicy * sizeof *a->policy_visits);
    for (int k = 0; k < a->npositions; k++) {
        const PositionRecord *p = &a->positions[k], *q = &b->positions[k];
        assert_memory_equal(p->board, q->board, NPOINTS);
        assert_memory_equal(p->module, q->module, XQ_MOD_STATE);
        assert_int_equal(p->side, q->side);
        assert_int_equal(p->ply, q->ply);
        assert_int_equal(p->no_capture, q->no_capture);
        assert_int_equal(p->played, q->played);
        assert_int_equal(p->best, q->best);
        assert_value_close(p->root_value, q->root_value);
        assert_value_close(p->static_eval, q->static_eval);
        assert_int_equal(p->visits, q->visits);
        assert_int_equal(p->policy_first, q->policy_first);
        assert_int_equal(p->policy_count, q->policy_count);
    }
}

static void fail_with(const char *what, const XqError *err)
{
    char buf[1024];
    xq_error_format(err, buf, sizeof buf);
    fail_msg("%s: %s", what, buf);
}

static void append_games(DatasetWriter *w, uint64_t from, uint64_t to)
{
    XqError err;
    for (uint64_t i = from; i < to; i++) {
        GameRecord g;
        make_game(i, &g);
        if (dsw_append(w, &g, &err) != 0)
            fail_with("dsw_append", &err);
        game_record_free(&g);
    }
}

/* Writes games [0, n) to path in batches of `batch` and closes the file. */
static void write_file(const char *path, uint64_t n, uint64_t batch)
{
    XqError err;
    DatasetMeta meta = test_meta();
    uint64_t done = 99;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    assert_int_equal(done, 0);
    for (uint64_t i = 0; i < n; i += batch) {
        append_games(w, i, i + batch < n ? i + batch : n);
        if (dsw_flush(w, &err) != 0)
            fail_with("dsw_flush", &err);
    }
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
}

/* Reads the file and checks it holds exactly games [0, n) of make_game. */
static void check_file(const char *path, uint64_t n)
{
    XqError err;
    DatasetReader *r = dsr_open(path, &err);
    if (!r)
        fail_with("dsr_open", &err);
    const DatasetSummary *s = dsr_summary(r);
    assert_int_equal(s->ngames, n);
    assert_int_equal(s->format_version, DATASET_FORMAT_VERSION);
    uint64_t npos = 0;
    for (uint64_t i = 0; i < n; i++) {
        GameRecord want, got;
        make_game(i, &want);
        if (dsr_read_game(r, i, &got, &err) != 0)
            fail_with("dsr_read_game", &err);
        assert_same_game(&want, &got);
        npos += (uint64_t)want.npositions;
        game_record_free(&want);
        game_record_free(&got);
    }
    assert_int_equal(s->npositions, npos);
    dsr_close(r);
}

static void test_round_trip(void **state)
{
    (void)state;
    char path[600], tmp[620];
    scratch("round_trip.h5", path, sizeof path);
    write_file(path, 25, 4);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_not_equal(access(tmp, F_OK), 0); /* renamed at close */
    check_file(path, 25);

    XqError err;
    DatasetReader *r = dsr_open(path, &err);
    if (!r)
        fail_with("dsr_open", &err);
    const DatasetSummary *s = dsr_summary(r);
    DatasetMeta m = test_meta();
    assert_string_equal(s->variant_name, m.variant_name);
    assert_string_equal(s->variant_text, m.variant_text);
    assert_string_equal(s->params_text, m.params_text);
    assert_string_equal(s->weights_text, m.weights_text);
    assert_string_equal(s->command_line, m.command_line);
    assert_string_equal(s->program_version, XQLAB_VERSION);
    assert_int_equal(s->base_seed, m.base_seed);
    assert_int_equal(s->shard_index, 2);
    assert_int_equal(s->shard_count, 4);
    assert_int_equal(s->game_count, 100);
    assert_int_equal(s->npoints, NPOINTS);
    assert_true(strlen(s->created_utc) == 20 && strlen(s->closed_utc) == 20);
    assert_int_equal(dsr_dataset_count(r), 34);
    for (int i = 0; i < dsr_dataset_count(r); i++)
        assert_true(dsr_dataset_info(r, i)->stored_bytes > 0);
    DatasetOutcomes o;
    if (dsr_outcomes(r, &o, &err) != 0)
        fail_with("dsr_outcomes", &err);
    assert_int_equal(o.result[0] + o.result[1] + o.result[2], 25);
    assert_int_equal(o.result[0], 9); /* indices 0, 3, ..., 24 */
    assert_int_equal(o.resign_disabled, 12);
    GameRecord g;
    assert_int_equal(dsr_read_game(r, 25, &g, &err), -1);
    assert_string_equal(err.file, path);
    dsr_close(r);
}

static void test_append_rejects_bad_games(void **state)
{
    (void)state;
    char path[600];
    scratch("bad_games.h5", path, sizeof path);
    XqError err;
    DatasetMeta meta = test_meta();
    DatasetWriter *w = dsw_open(path, &meta, false, NULL, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 5, 6);
    GameRecord g;
    make_game(5, &g); /* same index again */
    assert_int_equal(dsw_append(w, &g, &err), -1);
    assert_non_null(strstr(err.message, "indices must increase"));
    game_record_free(&g);
    make_game(6, &g);
    g.positions[1].policy_count = g.npolicy + 1;
    assert_int_equal(dsw_append(w, &g, &err), -1);
    assert_string_equal(err.file, strcat(strcpy((char[700]){0}, path), ".tmp"));
    game_record_free(&g);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    XqError rerr;
    DatasetReader *r = dsr_open(path, &rerr);
    assert_non_null(r);
    assert_int_equal(dsr_summary(r)->ngames, 1);
    dsr_close(r);
}

/* Bytes and inode of a file, to see that a refusal left it alone. */
static uint64_t file_state(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint64_t h = 14695981039346656037ULL ^ (uint64_t)st.st_ino;
    int c;
    while ((c = fgetc(f)) != EOF)
        h = (h ^ (uint64_t)c) * 1099511628211ULL;
    fclose(f);
    return h;
}

/* --resume of another run's PATH.tmp, and the "already complete" of another run's PATH: each
 * field of the run refused with its option named, in the documented order, nothing touched;
 * start and run_games read back; the same run still resumes and its finished file checks. */
static void test_resume_other_run(void **state)
{
    (void)state;
    char path[600], tmp[620];
    scratch("other_run.h5", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    XqError err;
    DatasetMeta meta = test_meta();
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 0, 5);
    if (dsw_abandon(w, &err) != 0)
        fail_with("dsw_abandon", &err);
    uint64_t before = file_state(tmp);

    static const char *const expect[] = {
        "-v: the file's run played testvariant, this run othervariant",
        "-v: the variant file text differs (line 4: 'ranks = 10' vs 'ranks = 11')",
        "-v: the file has 90 points per board, the run 89",
        "--seed: the file's run has 12345, this run 12346",
        "--shard: the file's run has shard 2/4, this run shard 1/4",
        "-n: the file's run has 400 games, this run 800",
        "-n: the file's run holds games 0..99, this run 100..199",
        "search settings (--preset, --set, --playouts, --movetime): line 2: 'cpuct = 1.5' vs 'cpuct = 2'",
        "--weights: the weights text differs (line 1: 'material = 1' vs 'material = 2')",
        "start position (--fen, --openings): the file's run has 'startpos', this run 'fen 9/9/9 w'",
    };
    for (int field = 0; field < (int)(sizeof expect / sizeof expect[0]); field++) {
        DatasetMeta other = meta;
        switch (field) {
        case 0: other.variant_name = "othervariant"; break;
        case 1: other.variant_text = "[variant]\nname = testvariant\nfiles = 9\nranks = 11\n"; break;
        case 2: other.npoints = NPOINTS - 1; break;
        case 3: other.base_seed = 12346; break;
        case 4: other.shard_index = 1; break;
        case 5: other.run_games = 800; break;
        case 6: other.first_game = 100; break;
        case 7: other.params_text = "playouts = 200\ncpuct = 2\n"; break;
        case 8: other.weights_text = "material = 2\n"; break;
        default: other.start_text = "fen 9/9/9 w"; break;
        }
        char want[300];
        snprintf(want, sizeof want, "cannot resume another run's file: %s (nothing was touched)", expect[field]);
        assert_null(dsw_open(path, &other, true, &done, &err));
        if (!strstr(err.message, want))
            fail_msg("field %d: '%s', expected '%s'", field, err.message, want);
        assert_true(file_state(tmp) == before);
    }
    /* A file without the newer attributes (start, run_games) is compared on the rest. */
    DatasetMeta unknown = meta;
    unknown.start_text = NULL;
    unknown.run_games = 0;
    char buf[XQ_MSG_MAX];
    assert_false(dataset_run_difference(&meta, &unknown, buf, sizeof buf));

    w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume", &err);
    assert_int_equal(done, 5);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    DatasetReader *r = dsr_open(path, &err);
    if (!r)
        fail_with("dsr_open", &err);
    assert_string_equal(dsr_summary(r)->start_text, "startpos");
    assert_int_equal(dsr_summary(r)->run_games, 400);
    dsr_close(r);
    assert_int_equal(dsw_check_finished(path, &meta, &err), 0);
    DatasetMeta other = meta;
    other.base_seed = 1;
    assert_int_equal(dsw_check_finished(path, &other, &err), -1);
    assert_non_null(strstr(err.message, "is another run's finished file: --seed: the file's run has 12345, this run 1"));
    remove(path);
}

static void test_resume_after_abandon(void **state)
{
    (void)state;
    char path[600];
    scratch("resume.h5", path, sizeof path);
    XqError err;
    DatasetMeta meta = test_meta();
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 0, 6);
    if (dsw_flush(w, &err) != 0)
        fail_with("dsw_flush", &err);
    append_games(w, 6, 8); /* buffered: abandon writes them too */
    if (dsw_abandon(w, &err) != 0)
        fail_with("dsw_abandon", &err);
    assert_int_not_equal(access(path, F_OK), 0);

    /* Resuming for another variant is refused. */
    DatasetMeta other = meta;
    other.variant_text = "[variant]\nname = other\n";
    assert_null(dsw_open(path, &other, true, &done, &err));
    assert_non_null(strstr(err.message, "cannot resume another run's file: -v: the variant file text differs"));

    w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume", &err);
    assert_int_equal(done, 8);
    append_games(w, 8, 13);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    check_file(path, 13);

    /* Nothing left to resume. */
    assert_null(dsw_open(path, &meta, true, &done, &err));
    assert_non_null(strstr(err.message, "already complete"));

    /* A kill between the final rename and the clean-up leaves PATH.tmp and its journal next to
     * the finished PATH: the run is complete and the leftovers go. */
    char stale[2][1100];
    snprintf(stale[0], sizeof stale[0], "%s.tmp", path);
    snprintf(stale[1], sizeof stale[1], "%s.tmp.games", path);
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(stale[i], "w");
        assert_non_null(f);
        fclose(f);
    }
    assert_true(dsw_finished(path));
    for (int i = 0; i < 2; i++)
        assert_int_not_equal(access(stale[i], F_OK), 0);
    check_file(path, 13);
    assert_false(dsw_finished(stale[0]));
}

/* Appends `rows` junk rows to a dataset of an open file, as a writer killed mid-game would. */
static void grow_dataset(hid_t file, const char *name, hsize_t rows)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t space = H5Dget_space(d);
    hsize_t dims[2];
    int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sclose(space);
    dims[0] += rows;
    assert_true(H5Dset_extent(d, dims) >= 0);
    (void)rank;
    H5Dclose(d);
}

static void test_resume_trims_half_written_game(void **state)
{
    (void)state;
    char path[600], tmp[620];
    scratch("half.h5", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    XqError err;
    DatasetMeta meta = test_meta();
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 0, 4);
    if (dsw_abandon(w, &err) != 0)
        fail_with("dsw_abandon", &err);

    /* Rows of a fifth game everywhere except in /games/index, the column written last. */
    assert_int_equal(xq_zstd_register(), 0);
    hid_t f = H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    static const char *const grown[] = {
        "/games/moves", "/policy/move", "/policy/visits", "/positions/board", "/positions/side",
        "/positions/ply", "/positions/game", "/positions/first_policy", "/games/seed", "/games/result",
        "/games/first_position", "/games/position_count",
    };
    for (size_t i = 0; i < sizeof grown / sizeof grown[0]; i++)
        grow_dataset(f, grown[i], 7);
    assert_true(H5Fclose(f) >= 0);

    /* The reader sees the disagreement... */
    DatasetReader *r = dsr_open(tmp, &err);
    assert_null(r);
    assert_string_equal(err.file, tmp);
    assert_non_null(strstr(err.message, "rows"));

    /* ...and resume trims it away. */
    w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume", &err);
    assert_int_equal(done, 4);
    append_games(w, 4, 9);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    check_file(path, 9);
}

static void copy_file(const char *from, const char *to, long keep)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[65536];
    long total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0 && (keep < 0 || total < keep)) {
        if (keep >= 0 && total + (long)n > keep)
            n = (size_t)(keep - total);
        assert_int_equal(fwrite(buf, 1, n, out), n);
        total += (long)n;
    }
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* File address of the first chunk of a dataset. */
static haddr_t first_chunk_address(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t space = H5Dget_space(d);
    hsize_t offset[2];
    unsigned mask;
    haddr_t addr;
    hsize_t size;
    assert_true(H5Dget_chunk_info(d, space, 0, offset, &mask, &addr, &size) >= 0);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    return addr + size / 2;
}

static void scribble(const char *path, long at, int len)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    for (int i = 0; i < len; i++)
        fputc((i * 37 + 11) & 0xff, f);
    assert_int_equal(fclose(f), 0);
}

static void expect_open_error(const char *path, const char *fragment)
{
    XqError err;
    DatasetReader *r = dsr_open(path, &err);
    if (r)
        fail_msg("%s opened, expected an error containing '%s'", path, fragment);
    assert_string_equal(err.file, path);
    if (!strstr(err.message, fragment))
        fail_msg("%s: error '%s' lacks '%s'", path, err.message, fragment);
}

static void test_damaged_files_rejected(void **state)
{
    (void)state;
    char good[600], bad[600];
    scratch("good.h5", good, sizeof good);
    scratch("bad.h5", bad, sizeof bad);
    write_file(good, 12, 5);
    XqError err;

    expect_open_error(scratch("missing.h5", bad, sizeof bad), "no such file");

    scratch("bad.h5", bad, sizeof bad);
    FILE *f = fopen(bad, "wb");
    assert_non_null(f);
    fputs("this is not an HDF5 file\n", f);
    fclose(f);
    expect_open_error(bad, "not a readable HDF5 file");

    FILE *g = fopen(good, "rb");
    assert_non_null(g);
    fseek(g, 0, SEEK_END);
    long size = ftell(g);
    fclose(g);
    copy_file(good, bad, size / 2);
    expect_open_error(bad, "");

    /* A damaged chunk of a column that dsr_open scans. */
    copy_file(good, bad, -1);
    scribble(bad, (long)first_chunk_address(bad, "/positions/first_policy"), 16);
    expect_open_error(bad, "cannot read");

    /* A damaged board chunk: the file opens, reading a game reports the error. */
    copy_file(good, bad, -1);
    scribble(bad, (long)first_chunk_address(bad, "/positions/board"), 16);
    DatasetReader *r = dsr_open(bad, &err);
    if (!r)
        fail_with("dsr_open", &err);
    GameRecord rec;
    assert_int_equal(dsr_read_game(r, 0, &rec, &err), -1);
    assert_string_equal(err.file, bad);
    assert_non_null(strstr(err.message, "/positions/board"));
    assert_null(rec.positions);
    dsr_close(r);

    /* Structure problems: a missing dataset, offsets that do not tile. */
    copy_file(good, bad, -1);
    hid_t h = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    assert_true(H5Ldelete(h, "/policy/visits", H5P_DEFAULT) >= 0);
    H5Fclose(h);
    expect_open_error(bad, "dataset /policy/visits is missing");

    copy_file(good, bad, -1);
    assert_int_equal(xq_zstd_register(), 0);
    h = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    hid_t d = H5Dopen2(h, "/games/first_position", H5P_DEFAULT);
    hid_t space = H5Dget_space(d);
    hsize_t at = 3, one = 1;
    uint64_t wrong = 1000000;
    hid_t mem = H5Screate_simple(1, &one, NULL);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &at, NULL, &one, NULL);
    assert_true(H5Dwrite(d, H5T_NATIVE_UINT64, mem, space, H5P_DEFAULT, &wrong) >= 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(h);
    expect_open_error(bad, "/games/first_position[3]");

    copy_file(good, bad, -1);
    h = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    int32_t version = 99;
    hid_t a = H5Aopen(h, "format_version", H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT32, &version) >= 0);
    H5Aclose(a);
    H5Fclose(h);
    expect_open_error(bad, "format version 99");
}

/* Turns a format-2 copy into what format 1 wrote: the four hidden-piece columns removed and
 * format_version set to `version` (1, or 2 for a damaged format-2 file). */
static void downgrade_to_v1(const char *path, int32_t version)
{
    static const char *const added[] = {"/positions/module", "/games/deal", "/games/deal_swapped",
                                        "/games/seat_colour"};
    hid_t h = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++)
        assert_true(H5Ldelete(h, added[i], H5P_DEFAULT) >= 0);
    hid_t a = H5Aopen(h, "format_version", H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT32, &version) >= 0);
    H5Aclose(a);
    H5Fclose(h);
}

/* Files of format 1 (before the hidden-piece columns) still read: the new fields come back zero;
 * a format-2 file without them is damaged. */
static void test_reads_format_1(void **state)
{
    (void)state;
    char good[600], old[600];
    scratch("format2.h5", good, sizeof good);
    scratch("format1.h5", old, sizeof old);
    write_file(good, 7, 3);
    copy_file(good, old, -1);
    downgrade_to_v1(old, 1);
    XqError err;
    DatasetReader *r = dsr_open(old, &err);
    if (!r)
        fail_with("dsr_open (format 1)", &err);
    assert_int_equal(dsr_summary(r)->format_version, 1);
    assert_int_equal(dsr_dataset_count(r), 30);
    for (uint64_t i = 0; i < 7; i++) {
        GameRecord want, got;
        make_game(i, &want);
        want.has_deal = want.deal_swapped = false;
        want.seat_colour = 0;
        memset(want.deal, 0, sizeof want.deal);
        for (int k = 0; k < want.npositions; k++)
            memset(want.positions[k].module, 0, XQ_MOD_STATE);
        if (dsr_read_game(r, i, &got, &err) != 0)
            fail_with("dsr_read_game (format 1)", &err);
        assert_same_game(&want, &got);
        game_record_free(&want);
        game_record_free(&got);
    }
    dsr_close(r);

    copy_file(good, old, -1);
    downgrade_to_v1(old, 2);
    expect_open_error(old, "dataset /positions/module is missing");
}

/* H5Aiterate2 callback: a string attribute must be a fixed-length, NUL-padded UTF-8 string exactly
 * as long as its text (1 byte for ""); *(int *)data counts them. */
static herr_t check_fixed_string(hid_t obj, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    assert_true(a >= 0);
    hid_t t = H5Aget_type(a);
    if (H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) != 0)
            fail_msg("attribute %s is a variable-length string", name);
        assert_int_equal(H5Tget_cset(t), H5T_CSET_UTF8);
        assert_int_equal(H5Tget_strpad(t), H5T_STR_NULLPAD);
        size_t n = H5Tget_size(t);
        char *buf = calloc(n + 1, 1);
        assert_non_null(buf);
        assert_true(H5Aread(a, t, buf) >= 0);
        if (strlen(buf) != n && !(n == 1 && buf[0] == '\0'))
            fail_msg("attribute %s: %zu bytes for a text of %zu", name, n, strlen(buf));
        free(buf);
        (*(int *)data)++;
    }
    H5Tclose(t);
    H5Aclose(a);
    return 0;
}

/* H5Ovisit2 callback: checks the attributes of every object of the file. */
static herr_t check_object_strings(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
    (void)info;
    hsize_t idx = 0;
    assert_true(H5Aiterate_by_name(obj, name, H5_INDEX_NAME, H5_ITER_INC, &idx, check_fixed_string, data,
                                   H5P_DEFAULT) >= 0);
    return 0;
}

/* Rewrites every root string attribute as a variable-length string, as formats 1 and 2 wrote
 * them, and sets format_version. */
static void rewrite_strings_as_vlen(const char *path, int32_t version)
{
    static const char *const names[] = {"program_version", "variant_name", "variant_text", "weights_text",
                                        "params_text", "command_line", "host", "created_utc", "closed_utc"};
    hid_t h = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    hid_t vlen = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(vlen, H5T_VARIABLE) >= 0 && H5Tset_cset(vlen, H5T_CSET_UTF8) >= 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        hid_t a = H5Aopen(h, names[i], H5P_DEFAULT);
        hid_t t = H5Aget_type(a);
        size_t n = H5Tget_size(t);
        char *text = calloc(n + 1, 1);
        assert_non_null(text);
        assert_true(H5Aread(a, t, text) >= 0);
        H5Tclose(t);
        H5Aclose(a);
        assert_true(H5Adelete(h, names[i]) >= 0);
        hid_t space = H5Screate(H5S_SCALAR);
        a = H5Acreate2(h, names[i], vlen, space, H5P_DEFAULT, H5P_DEFAULT);
        const char *value = text;
        assert_true(a >= 0 && H5Awrite(a, vlen, &value) >= 0);
        H5Aclose(a);
        H5Sclose(space);
        free(text);
    }
    H5Tclose(vlen);
    hid_t a = H5Aopen(h, "format_version", H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT32, &version) >= 0);
    H5Aclose(a);
    H5Fclose(h);
}

/* Format 3 writes every string attribute fixed-length (no reader path goes through the global
 * heap) and refuses a variable-length one; files of format 2 with variable-length strings still
 * read. */
/* Format 4: the termination column is an HDF5 enum named by termination_name, and a file of a
 * real rule set maps its board bytes to piece letters. */
static void test_termination_enum_and_piece_letters(void **state)
{
    (void)state;
    char path[600];
    scratch("enum4.h5", path, sizeof path);
    char *text = ini_read_file(XQ_SOURCE_DIR "/configs/variants/xiangqi.ini", &(XqError){0});
    assert_non_null(text);
    DatasetMeta meta = test_meta();
    meta.variant_name = "xiangqi";
    meta.variant_text = text;
    XqError err;
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 0, 4);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    hid_t h = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(h >= 0);
    hid_t d = H5Dopen2(h, "/games/termination", H5P_DEFAULT), t = H5Dget_type(d);
    assert_int_equal(H5Tget_class(t), H5T_ENUM);
    uint8_t code = TERM_CHECKMATE;
    char name[32];
    assert_true(H5Tenum_nameof(t, &code, name, sizeof name) >= 0);
    assert_string_equal(name, "checkmate");
    code = TERM_LENGTH_CAP;
    assert_true(H5Tenum_nameof(t, &code, name, sizeof name) >= 0);
    assert_string_equal(name, "length cap");
    H5Tclose(t);
    H5Dclose(d);
    hid_t a = H5Aopen(h, "piece_letters", H5P_DEFAULT), at = H5Aget_type(a);
    char letters[40] = "";
    assert_int_equal(H5Tget_size(at), 32); /* fixed-length, exactly the text (format 3 on) */
    assert_true(H5Aread(a, at, letters) >= 0);
    /* Kinds in file order K A B N R C P: codes 1..7 red, 17..23 black. */
    assert_string_equal(letters, ".KABNRCP?????????kabnrcp????????");
    H5Tclose(at);
    H5Aclose(a);
    H5Fclose(h);
    /* The reader gives the codes back (make_game cycles through every termination). */
    DatasetReader *r = dsr_open(path, &err);
    if (!r)
        fail_with("dsr_open", &err);
    for (uint64_t i = 0; i < 4; i++) {
        GameRecord g;
        if (dsr_read_game(r, i, &g, &err) != 0)
            fail_with("dsr_read_game", &err);
        assert_int_equal(g.termination, i % TERM_COUNT);
        game_record_free(&g);
    }
    dsr_close(r);
    free(text);
}

static void test_fixed_length_strings(void **state)
{
    (void)state;
    char path[600], old[600];
    scratch("strings3.h5", path, sizeof path);
    scratch("strings2.h5", old, sizeof old);
    write_file(path, 5, 5);
    int strings = 0;
    hid_t h = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(h >= 0);
    assert_true(H5Ovisit2(h, H5_INDEX_NAME, H5_ITER_INC, check_object_strings, &strings, H5O_INFO_BASIC) >= 0);
    H5Fclose(h);
    /* 10 root strings (closed_utc and start included) and the description of each of the 34
     * columns. */
    assert_int_equal(strings, 10 + 34);

    copy_file(path, old, -1);
    rewrite_strings_as_vlen(old, 2);
    XqError err;
    DatasetReader *r = dsr_open(old, &err);
    if (!r)
        fail_with("dsr_open (format 2, variable-length strings)", &err);
    const DatasetSummary *s = dsr_summary(r);
    DatasetMeta m = test_meta();
    assert_int_equal(s->format_version, 2);
    assert_string_equal(s->variant_name, m.variant_name);
    assert_string_equal(s->variant_text, m.variant_text);
    assert_string_equal(s->command_line, m.command_line);
    assert_int_equal(strlen(s->closed_utc), 20);
    dsr_close(r);

    copy_file(path, old, -1);
    rewrite_strings_as_vlen(old, 3);
    expect_open_error(old, "root attribute variant_text is missing or not a fixed-length string");
}

/* Format 4: the start FENs of rule sets whose first reveal assigns the colours name colours.
 * Formats 1-3 wrote them with letters and side to move naming seats; the reader rewrites those,
 * so old datasets keep their meaning. banqi, seat 0 (upper case, w in the old convention) plays a
 * black chariot and is to move: in colours "r" and "b". */
static void test_reads_seat_letter_fens(void **state)
{
    (void)state;
    char path[600], old[600], vpath[1024];
    scratch("banqi4.h5", path, sizeof path);
    scratch("banqi3.h5", old, sizeof old);
    snprintf(vpath, sizeof vpath, "%s/configs/variants/banqi.ini", XQ_SOURCE_DIR);
    XqError err;
    char *text = ini_read_file(vpath, &err);
    if (!text)
        fail_with("banqi.ini", &err);
    DatasetMeta meta = test_meta();
    meta.variant_name = "banqi";
    meta.variant_text = text;
    uint64_t done = 0;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    const char *fens[2] = {"8/8/8/Rp6 w - - 0 1 [hidden:-/b]", "8/8/8/Rp6 w - - 0 1 [hidden:-/r]"};
    for (uint64_t i = 0; i < 2; i++) {
        GameRecord g;
        make_game(i, &g);
        snprintf(g.start_fen, sizeof g.start_fen, "%s", fens[i]);
        if (dsw_append(w, &g, &err) != 0)
            fail_with("dsw_append", &err);
        game_record_free(&g);
    }
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    free(text);
    copy_file(path, old, -1);
    hid_t h = H5Fopen(old, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    int32_t version = 3;
    hid_t a = H5Aopen(h, "format_version", H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT32, &version) >= 0);
    H5Aclose(a);
    H5Fclose(h);
    /* The format-4 file is read as written; the format-3 copy in the seat convention. */
    const char *want[2][2] = {{fens[0], fens[1]},
                              {"8/8/8/rP6 b - - 0 1 [hidden:-/b]", "8/8/8/Rp6 w - - 0 1 [hidden:-/r]"}};
    const char *files[2] = {path, old};
    for (int f = 0; f < 2; f++) {
        DatasetReader *r = dsr_open(files[f], &err);
        if (!r)
            fail_with("dsr_open", &err);
        assert_int_equal(dsr_summary(r)->format_version, f ? 3 : DATASET_FORMAT_VERSION);
        for (uint64_t i = 0; i < 2; i++) {
            GameRecord g;
            if (dsr_read_game(r, i, &g, &err) != 0)
                fail_with("dsr_read_game", &err);
            assert_string_equal(g.start_fen, want[f][i]);
            game_record_free(&g);
        }
        dsr_close(r);
    }
}

/* A text attribute holds at most ATTR_TEXT_MAX (65000) bytes in HDF5's object header: that long
 * a variant text round-trips, a longer one is refused by name before anything is written. */
static void test_text_attribute_limit(void **state)
{
    (void)state;
    enum { LIMIT = 65000 };
    char path[600];
    scratch("long_text.h5", path, sizeof path);
    char *text = malloc(LIMIT + 2);
    assert_non_null(text);
    memset(text, 'x', LIMIT + 1);
    text[LIMIT + 1] = '\0';
    DatasetMeta m = test_meta();
    m.variant_text = text;
    XqError err;
    uint64_t done;
    assert_null(dsw_open(path, &m, false, &done, &err));
    assert_non_null(strstr(err.message, "variant_text is 65001 bytes: a text attribute holds at most 65000 bytes"));

    text[LIMIT] = '\0';
    DatasetWriter *w = dsw_open(path, &m, false, &done, &err);
    if (!w)
        fail_with("dsw_open (65000-byte variant text)", &err);
    append_games(w, 0, 2);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    DatasetReader *r = dsr_open(path, &err);
    if (!r)
        fail_with("dsr_open (65000-byte variant text)", &err);
    assert_string_equal(dsr_summary(r)->variant_text, text);
    dsr_close(r);
    free(text);
}

/* Runs the filter function on a copy of data; returns the output size (0 = rejected). */
static size_t run_filter(unsigned int flags, size_t ncd, const unsigned int *cd, const void *data, size_t n,
                         void **out)
{
    size_t buf_size = n;
    void *buf = H5allocate_memory(n ? n : 1, 0);
    assert_non_null(buf);
    memcpy(buf, data, n);
    size_t r = xq_zstd_filter_class()->filter(flags, ncd, cd, n, &buf_size, &buf);
    *out = buf;
    return r;
}

static void test_zstd_filter(void **state)
{
    (void)state;
    enum { N = 100000 };
    uint8_t *data = malloc(N);
    assert_non_null(data);
    for (int i = 0; i < N; i++)
        data[i] = (uint8_t)((i % 90) < 30 ? (unsigned)i % 7u : ((unsigned)i * 2654435761u) >> 24);
    unsigned int cd[2] = {3, N};
    void *packed, *unpacked;
    size_t np = run_filter(0, 1, cd, data, N, &packed);
    assert_true(np > 0 && np < N);
    /* One frame that records its content size, as other zstd filter readers require. */
    assert_int_equal(ZSTD_getFrameContentSize(packed, np), N);
    assert_int_equal(ZSTD_findFrameCompressedSize(packed, np), np);
    size_t nu = run_filter(H5Z_FLAG_REVERSE, 2, cd, packed, np, &unpacked);
    assert_int_equal(nu, N);
    assert_memory_equal(unpacked, data, N);
    H5free_memory(unpacked);

    void *out;
    /* A frame claiming more than a chunk's bytes. */
    unsigned int small[2] = {3, N - 1};
    assert_int_equal(run_filter(H5Z_FLAG_REVERSE, 2, small, packed, np, &out), 0);
    H5free_memory(out);
    /* Cut short, or with trailing bytes. */
    assert_int_equal(run_filter(H5Z_FLAG_REVERSE, 2, cd, packed, np - 5, &out), 0);
    H5free_memory(out);
    uint8_t *longer = calloc(np + 8, 1);
    memcpy(longer, packed, np);
    assert_int_equal(run_filter(H5Z_FLAG_REVERSE, 2, cd, longer, np + 8, &out), 0);
    H5free_memory(out);
    free(longer);
    /* Damaged body. */
    uint8_t *flipped = malloc(np);
    memcpy(flipped, packed, np);
    for (size_t i = np / 2; i < np / 2 + 8; i++)
        flipped[i] ^= 0x5a;
    assert_int_equal(run_filter(H5Z_FLAG_REVERSE, 2, cd, flipped, np, &out), 0);
    H5free_memory(out);
    free(flipped);
    /* Garbage of many lengths. */
    uint8_t junk[256];
    for (size_t n = 0; n < sizeof junk; n++) {
        for (size_t i = 0; i < n; i++)
            junk[i] = (uint8_t)(i * 131 + n * 7);
        assert_int_equal(run_filter(H5Z_FLAG_REVERSE, 2, cd, junk, n, &out), 0);
        H5free_memory(out);
    }
    H5free_memory(packed);
    free(data);
}

/* Overwrites the middle of the first stored chunk of dataset `name` of a closed file, as a chunk
 * clobbered by a kill during a flush would be (the zstd checksum then fails). */
static void damage_first_chunk(const char *file, const char *name)
{
    assert_int_equal(xq_zstd_register(), 0);
    hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    assert_true(d >= 0);
    hsize_t offset[2] = {0, 0};
    unsigned mask;
    haddr_t addr;
    hsize_t size;
    assert_true(H5Dget_chunk_info_by_coord(d, offset, &mask, &addr, &size) >= 0);
    assert_true(size > 16);
    H5Dclose(d);
    H5Fclose(f);
    FILE *out = fopen(file, "r+b");
    assert_non_null(out);
    assert_int_equal(fseek(out, (long)(addr + size / 2), SEEK_SET), 0);
    static const char junk[8] = "XXXXXXX";
    assert_int_equal(fwrite(junk, 1, sizeof junk, out), sizeof junk);
    fclose(out);
}

/* A chunk that no longer decodes: resume keeps the games whose rows all decode (here none, the
 * positions of every game are in the damaged chunk), rebuilds the file and the run completes. */
static void test_resume_after_damaged_chunk(void **state)
{
    (void)state;
    char path[600], tmp[620];
    scratch("damaged-chunk.h5", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    XqError err;
    DatasetMeta meta = test_meta();
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 0, 5);
    if (dsw_abandon(w, &err) != 0)
        fail_with("dsw_abandon", &err);
    damage_first_chunk(tmp, "/positions/board");

    w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume", &err);
    assert_int_equal(done, 0);
    append_games(w, 0, 8);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    check_file(path, 8);

    /* Damage to a column of game rows only: the same, from the game rows' side. */
    remove(path);
    w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_with("dsw_open", &err);
    append_games(w, 0, 5);
    if (dsw_abandon(w, &err) != 0)
        fail_with("dsw_abandon", &err);
    damage_first_chunk(tmp, "/games/start_fen");
    w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume", &err);
    assert_int_equal(done, 0);
    append_games(w, 0, 6);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    check_file(path, 6);
}

/* A .tmp that HDF5 cannot open at all (a kill during its creation) is started again, and a
 * rebuilt .tmp.new whose journal was written but not renamed (a kill inside a rebuild) is
 * renamed into place. */
static void test_resume_unreadable_and_interrupted_rebuild(void **state)
{
    (void)state;
    char path[600], tmp[620], next[640];
    scratch("unreadable.h5", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    snprintf(next, sizeof next, "%s.tmp.new", path);
    FILE *f = fopen(tmp, "wb");
    assert_non_null(f);
    fputs("not an HDF5 file", f);
    fclose(f);
    XqError err;
    DatasetMeta meta = test_meta();
    uint64_t done = 99;
    DatasetWriter *w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume of garbage", &err);
    assert_int_equal(done, 0);
    append_games(w, 0, 3);
    if (dsw_abandon(w, &err) != 0)
        fail_with("dsw_abandon", &err);

    /* The journal describes the file by inode: moving the .tmp to .tmp.new keeps its inode, as
     * a rebuild killed between its journal and its rename leaves it. */
    assert_int_equal(rename(tmp, next), 0);
    w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume of an interrupted rebuild", &err);
    assert_int_equal(done, 3);
    assert_int_not_equal(access(next, F_OK), 0);
    append_games(w, 3, 4);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    check_file(path, 4);
}

/* The child of the SIGKILL test: writes games, flushing after each, reports the count of
 * flushed games on the pipe, then buffers two more games and waits to be killed. */
static void kill_child(const char *path, int fd)
{
    XqError err;
    DatasetMeta meta = test_meta();
    DatasetWriter *w = dsw_open(path, &meta, false, NULL, &err);
    if (!w)
        _exit(3);
    for (uint64_t i = 0; i < 7; i++) {
        GameRecord g;
        make_game(i, &g);
        if (dsw_append(w, &g, &err) != 0 || dsw_flush(w, &err) != 0)
            _exit(4);
        game_record_free(&g);
        uint8_t n = (uint8_t)(i + 1);
        if (write(fd, &n, 1) != 1)
            _exit(5);
    }
    for (uint64_t i = 7; i < 9; i++) {
        GameRecord g;
        make_game(i, &g);
        if (dsw_append(w, &g, &err) != 0)
            _exit(4);
        game_record_free(&g);
    }
    uint8_t ready = 255;
    if (write(fd, &ready, 1) != 1)
        _exit(5);
    for (;;)
        pause();
}

static void test_sigkill_between_flushes(void **state)
{
    (void)state;
    char path[600], tmp[620];
    scratch("killed.h5", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        kill_child(path, fds[1]);
    }
    close(fds[1]);
    uint8_t last = 0, b;
    while (read(fds[0], &b, 1) == 1 && b != 255)
        last = b;
    close(fds[0]);
    assert_int_equal(last, 7);
    assert_int_equal(kill(pid, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    /* The .tmp opens as it is, with every flushed game... */
    XqError err;
    DatasetReader *r = dsr_open(tmp, &err);
    if (!r)
        fail_with("dsr_open after SIGKILL", &err);
    assert_int_equal(dsr_summary(r)->ngames, 7);
    dsr_close(r);
    check_file(tmp, 7);

    /* ...and the run resumes from there. */
    DatasetMeta meta = test_meta();
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, true, &done, &err);
    if (!w)
        fail_with("dsw_open resume", &err);
    assert_int_equal(done, 7);
    append_games(w, 7, 10);
    if (dsw_close(w, &err) != 0)
        fail_with("dsw_close", &err);
    check_file(path, 10);
}

static int setup(void **state)
{
    (void)state;
    snprintf(test_dir, sizeof test_dir, "%s/tests/export_scratch_%ld", XQ_BINARY_DIR, (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", test_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_append_rejects_bad_games),
        cmocka_unit_test(test_resume_after_abandon),
        cmocka_unit_test(test_resume_other_run),
        cmocka_unit_test(test_resume_trims_half_written_game),
        cmocka_unit_test(test_damaged_files_rejected),
        cmocka_unit_test(test_reads_format_1),
        cmocka_unit_test(test_fixed_length_strings),
        cmocka_unit_test(test_reads_seat_letter_fens),
        cmocka_unit_test(test_termination_enum_and_piece_letters),
        cmocka_unit_test(test_text_attribute_limit),
        cmocka_unit_test(test_zstd_filter),
        cmocka_unit_test(test_sigkill_between_flushes),
        cmocka_unit_test(test_resume_after_damaged_chunk),
        cmocka_unit_test(test_resume_unreadable_and_interrupted_rebuild),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
