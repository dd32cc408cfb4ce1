/* tune.c - logistic-regression weight tuner: dataset -> feature rows -> BFGS fit -> errors. */
#include "tune.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "hidden.h"
#include "net.h"
#include "status.h"

/* Rows per chunk of the parallel sums. Fixed, so the order of floating-point additions (within a
 * chunk in row order, then chunk partials in chunk order) never depends on the thread count. */
enum { TUNE_CHUNK = 8192 };

static void set_error(XqError *err, const char *file, int line, const char *fmt, ...)
{
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* ---- loading ---- */

/* One game as read from a file, kept until its rows are extracted. */
typedef struct GameIn {
    int file;
    uint64_t row;            /* game row in its file */
    char fen[256];           /* "" = the variant's start position */
    float result;            /* Red's score: 0, 0.5, 1 */
    uint64_t first_move;     /* into the shared move / root value arrays */
    int nmoves;
    bool valid;              /* held out for validation */
} GameIn;

typedef struct Loader {
    GameIn *games;
    uint64_t ngames, cap_games;
    Move *moves;
    float *root;             /* root value per move (side to move before it), NaN if unknown */
    uint8_t *mover;          /* side to move before each move, where root is known */
    uint64_t nmoves, cap_moves;
} Loader;

static int grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint64_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* True if the recorded move m is legal in pos. A reveal is recorded with the identity the deal
 * gave it while the generator gives it undrawn: hidden_same_move matches the two (any identity
 * the pools still hold; the features do not depend on the deal). */
static bool replay_legal(const Variant *v, Position *pos, Move m)
{
    if (!hidden_on(v))
        return pos_move_is_legal(pos, m);
    MoveList list;
    int n = pos_generate_legal(pos, &list);
    for (int i = 0; i < n; i++)
        if (hidden_same_move(pos, list.moves[i], m, NULL))
            return true;
    return false;
}

/* Appends the games of one file. */
static int load_file(Loader *l, int file, const char *path, const Variant *v,
                     char **variant_text, const TuneOptions *o, XqError *err)
{
    DatasetReader *r = dsr_open(path, err);
    if (!r)
        return -1;
    const DatasetSummary *s = dsr_summary(r);
    int rc = -1;
    if (strcmp(s->variant_name, v->name) != 0) {
        set_error(err, path, 0, "holds variant '%s', not '%s' (mixed variants: tune one rule set at a time)",
                  s->variant_name, v->name);
        goto done;
    }
    if (!*variant_text) {
        *variant_text = strdup(s->variant_text ? s->variant_text : "");
        if (!*variant_text) {
            set_error(err, path, 0, "out of memory");
            goto done;
        }
    } else if (strcmp(*variant_text, s->variant_text ? s->variant_text : "") != 0) {
        set_error(err, path, 0, "variant '%s' has different rule text than in the first file "
                  "(mixed variants: tune one rule set at a time)", v->name);
        goto done;
    }
    if (s->ngames == 0) {
        set_error(err, path, 0, "holds no games (an empty or unfinished dataset)");
        goto done;
    }
    for (uint64_t i = 0; i < s->ngames; i++) {
        if (o->max_positions && l->nmoves >= o->max_positions)
            break;
        GameRecord g;
        memset(&g, 0, sizeof g);
        if (dsr_read_game(r, i, &g, err) != 0)
            goto done;
        if (grow((void **)&l->games, &l->cap_games, l->ngames + 1, sizeof *l->games) != 0 ||
            grow((void **)&l->moves, &l->cap_moves, l->nmoves + (uint64_t)g.nmoves, sizeof *l->moves) != 0) {
            game_record_free(&g);
            set_error(err, path, 0, "out of memory");
            goto done;
        }
        /* moves and root share a capacity: grow the root array to the same size. */
        float *root = realloc(l->root, l->cap_moves * sizeof *l->root);
        if (!root) {
            game_record_free(&g);
            set_error(err, path, 0, "out of memory");
            goto done;
        }
        l->root = root;
        uint8_t *mover = realloc(l->mover, l->cap_moves * sizeof *l->mover);
        if (!mover) {
            game_record_free(&g);
            set_error(err, path, 0, "out of memory");
            goto done;
        }
        l->mover = mover;
        if (g.result < -1 || g.result > 1) {
            set_error(err, path, 0, "game row %llu has no result (stored %d, expected -1, 0 or 1)",
                      (unsigned long long)i, (int)g.result);
            game_record_free(&g);
            goto done;
        }
        GameIn *gi = &l->games[l->ngames++];
        memset(gi, 0, sizeof *gi);
        gi->file = file;
        gi->row = i;
        snprintf(gi->fen, sizeof gi->fen, "%s", g.start_fen);
        gi->result = (float)(g.result + 1) / 2.0f;
        gi->first_move = l->nmoves;
        gi->nmoves = g.nmoves;
        gi->valid = (double)(mix64(mix64(o->seed ^ (uint64_t)file * 0x632be59bd9b4e019ull) ^ i) >> 11) *
                        0x1.0p-53 < o->validation;
        for (int k = 0; k < g.nmoves; k++) {
            l->moves[l->nmoves + (uint64_t)k] = g.moves[k];
            l->root[l->nmoves + (uint64_t)k] = NAN;
        }
        /* Recorded positions carry the move played from them: match them to the move list in
         * order (every position is recorded today, but the format does not promise it). */
        int k = 0;
        for (int j = 0; j < g.npositions; j++) {
            while (k < g.nmoves && g.moves[k] != g.positions[j].played)
                k++;
            if (k == g.nmoves)
                break;
            l->root[l->nmoves + (uint64_t)k] = g.positions[j].root_value;
            l->mover[l->nmoves + (uint64_t)k] = g.positions[j].side;
            k++;
        }
        l->nmoves += (uint64_t)g.nmoves;
        game_record_free(&g);
    }
    rc = 0;
done:
    dsr_close(r);
    return rc;
}

/* One game's rows as extracted, kept until all games are done and the rows are laid out in
 * game order. */
typedef struct GameRows {
    uint32_t nrows;
    uint64_t nnz;
    uint16_t *row_nnz;
    uint16_t *col;
    float *val;
    float *y;
    /* With TuneOptions.net_inputs: each row's network inputs (NET_MAX_ACTIVE slots, net_count
     * used) and side to move. */
    uint8_t *net_count, *net_side;
    uint16_t *net_in;
    float *offset;      /* the evaluator's network output, Red's view (NULL: none) */
} GameRows;

static void game_rows_free(GameRows *g)
{
    free(g->row_nnz);
    free(g->col);
    free(g->val);
    free(g->y);
    free(g->net_count);
    free(g->net_side);
    free(g->net_in);
    free(g->offset);
    memset(g, 0, sizeof *g);
}

/* A thread's scratch for one game: dense features of the candidate rows, compressed. */
typedef struct RowBuffer {
    uint64_t cap_rows, cap_nnz;
    uint32_t nrows;
    uint64_t nnz;
    uint16_t *row_nnz;
    uint16_t *col;
    float *val;
    float *y;
    int *move;          /* move index of each row */
    uint8_t *net_count, *net_side; /* with net inputs: per row (row capacity) */
    uint16_t *net_in;   /* NET_MAX_ACTIVE per row */
    float *offset;      /* per row: the evaluator's network output, Red's view */
} RowBuffer;

/* Reallocates *p to n elements of `elem` bytes; *p is kept on failure. */
static int resize(void **p, uint64_t n, size_t elem)
{
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

static int row_buffer_push(RowBuffer *b, const float *x, int nf, float y, int move)
{
    uint64_t cap = b->cap_rows;
    if (grow((void **)&b->row_nnz, &b->cap_rows, b->nrows + 1ull, sizeof *b->row_nnz) != 0)
        return -1;
    if (b->cap_rows != cap) {
        /* The per-row arrays share the row capacity. */
        if (resize((void **)&b->y, b->cap_rows, sizeof *b->y) != 0 ||
            resize((void **)&b->move, b->cap_rows, sizeof *b->move) != 0 ||
            resize((void **)&b->net_count, b->cap_rows, sizeof *b->net_count) != 0 ||
            resize((void **)&b->net_side, b->cap_rows, sizeof *b->net_side) != 0 ||
            resize((void **)&b->net_in, b->cap_rows * NET_MAX_ACTIVE, sizeof *b->net_in) != 0 ||
            resize((void **)&b->offset, b->cap_rows, sizeof *b->offset) != 0)
            return -1;
    }
    b->offset[b->nrows] = 0;
    b->net_count[b->nrows] = 0;
    b->net_side[b->nrows] = 0;
    uint64_t cap_nnz = b->cap_nnz;
    if (grow((void **)&b->col, &b->cap_nnz, b->nnz + (uint64_t)nf, sizeof *b->col) != 0)
        return -1;
    if (b->cap_nnz != cap_nnz) {
        float *vv = realloc(b->val, b->cap_nnz * sizeof *vv);
        if (!vv)
            return -1;
        b->val = vv;
    }
    int n = 0;
    for (int f = 0; f < nf; f++)
        if (x[f] != 0) {
            b->col[b->nnz + (uint64_t)n] = (uint16_t)f;
            b->val[b->nnz + (uint64_t)n] = x[f];
            n++;
        }
    b->row_nnz[b->nrows] = (uint16_t)n;
    b->y[b->nrows] = y;
    b->move[b->nrows] = move;
    b->nrows++;
    b->nnz += (uint64_t)n;
    return 0;
}

/* Copies the rows of b whose flag is set into a game's own arrays (the network inputs too if
 * `net`). */
static int game_rows_keep(GameRows *g, const RowBuffer *b, const uint8_t *keep, bool net, bool offset)
{
    memset(g, 0, sizeof *g);
    uint64_t nnz = 0;
    uint32_t nrows = 0;
    for (uint32_t r = 0; r < b->nrows; r++)
        if (keep[r]) {
            nrows++;
            nnz += b->row_nnz[r];
        }
    if (nrows == 0)
        return 0;
    g->row_nnz = malloc(nrows * sizeof *g->row_nnz);
    g->y = malloc(nrows * sizeof *g->y);
    g->col = malloc((nnz ? nnz : 1) * sizeof *g->col);
    g->val = malloc((nnz ? nnz : 1) * sizeof *g->val);
    if (!g->row_nnz || !g->y || !g->col || !g->val) {
        game_rows_free(g);
        return -1;
    }
    if (offset && !(g->offset = malloc(nrows * sizeof *g->offset))) {
        game_rows_free(g);
        return -1;
    }
    if (net) {
        g->net_count = malloc(nrows * sizeof *g->net_count);
        g->net_side = malloc(nrows * sizeof *g->net_side);
        g->net_in = malloc((size_t)nrows * NET_MAX_ACTIVE * sizeof *g->net_in);
        if (!g->net_count || !g->net_side || !g->net_in) {
            game_rows_free(g);
            return -1;
        }
    }
    uint64_t from = 0;
    for (uint32_t r = 0; r < b->nrows; r++) {
        uint16_t n = b->row_nnz[r];
        if (keep[r]) {
            memcpy(&g->col[g->nnz], &b->col[from], n * sizeof *g->col);
            memcpy(&g->val[g->nnz], &b->val[from], n * sizeof *g->val);
            g->row_nnz[g->nrows] = n;
            g->y[g->nrows] = b->y[r];
            if (offset)
                g->offset[g->nrows] = b->offset[r];
            if (net) {
                g->net_count[g->nrows] = b->net_count[r];
                g->net_side[g->nrows] = b->net_side[r];
                memcpy(&g->net_in[(size_t)g->nrows * NET_MAX_ACTIVE], &b->net_in[(size_t)r * NET_MAX_ACTIVE],
                       b->net_count[r] * sizeof *g->net_in);
            }
            g->nrows++;
            g->nnz += n;
        }
        from += n;
    }
    return 0;
}

static void count_nonzero(TuneData *d)
{
    memset(d->nonzero, 0, (size_t)d->nfeatures * sizeof *d->nonzero);
    for (uint64_t j = 0; j < d->row_first[d->ntrain]; j++)
        d->nonzero[d->col[j]]++;
}

float tune_row_value(const TuneData *d, uint64_t row, int feature)
{
    for (uint64_t j = d->row_first[row]; j < d->row_first[row + 1]; j++)
        if (d->col[j] == feature)
            return d->val[j];
    return 0.0f;
}

int tune_load(TuneData *d, const Evaluator *e, const Variant *v, const char *const *paths,
              int npaths, const TuneOptions *o, XqError *err)
{
    memset(d, 0, sizeof *d);
    Loader l;
    memset(&l, 0, sizeof l);
    char *variant_text = NULL;
    uint64_t *order = NULL;
    GameRows *rows = NULL;
    int rc = -1;
    if (npaths <= 0) {
        set_error(err, "tune", 0, "no dataset files given");
        return -1;
    }
    for (int f = 0; f < npaths; f++)
        if (load_file(&l, f, paths[f], v, &variant_text, o, err) != 0)
            goto done;
    d->nfiles = (uint64_t)npaths;
    d->ngames = l.ngames;

    /* Training games first, then validation games; each in reading order. */
    order = malloc((l.ngames + 1) * sizeof *order);
    rows = calloc(l.ngames + 1, sizeof *rows);
    if (!order || !rows) {
        set_error(err, "tune", 0, "out of memory");
        goto done;
    }
    uint64_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < l.ngames; i++)
            if (l.games[i].valid == (pass == 1))
                order[n++] = i;
    for (uint64_t i = 0; i < l.ngames; i++)
        d->ntrain_games += !l.games[i].valid;
    int nf = eval_feature_count(e);
    d->nfeatures = nf;

    if (o->threads > 0)
        omp_set_num_threads(o->threads);
    /* Weights with a network: its output is part of every row's score, held fixed (the linear
     * fit then fits what the network leaves). Not when the rows are for fitting a new network. */
    const Net *offset_net = o->net_inputs ? NULL : eval_net(e);
    _Atomic int failed = 0;
    _Atomic uint64_t bad_game = 0;
#pragma omp parallel
    {
        Position *pos = malloc(sizeof *pos);
        /* Per game: whether move k captures, and which rows are kept. */
        uint8_t *captures = malloc(65536);
        uint8_t *keep = malloc(65536);
        float *x = malloc((size_t)nf * sizeof *x);
        RowBuffer buf;
        memset(&buf, 0, sizeof buf);
        if (!pos || !captures || !keep || !x)
            atomic_store(&failed, 1);
#pragma omp for schedule(dynamic, 16)
        for (uint64_t j = 0; j < l.ngames; j++) {
            if (!pos || !captures || !keep || !x || atomic_load(&failed))
                continue;
            const GameIn *g = &l.games[order[j]];
            XqError local;
            if (g->fen[0]) {
                if (pos_set_fen(pos, v, g->fen, &local) != 0) {
                    atomic_store(&bad_game, order[j]);
                    atomic_store(&failed, 2);
                    continue;
                }
            } else {
                pos_init_start(pos, v);
            }
            buf.nrows = 0;
            buf.nnz = 0;
            int nmoves = g->nmoves < 65536 ? g->nmoves : 65535;
            for (int k = 0; k < nmoves; k++) {
                Move m = l.moves[g->first_move + (uint64_t)k];
                if (!replay_legal(v, pos, m)) {
                    atomic_store(&bad_game, order[j]);
                    atomic_store(&failed, 3);
                    break;
                }
                bool take = pos->ply >= o->min_ply && (o->all_positions || !pos->in_check);
                if (take) {
                    eval_features(e, pos, x);
                    /* Search values of this and the next root_horizon - 1 positions, each turned
                     * to Red's view by its recorded side to move (turns of several moves exist). */
                    double sum = 0;
                    int count = 0;
                    for (int q = k; q < k + o->root_horizon && q < nmoves; q++) {
                        float rv = l.root[g->first_move + (uint64_t)q];
                        if (isnan(rv))
                            continue;
                        sum += l.mover[g->first_move + (uint64_t)q] == RED ? rv : -rv;
                        count++;
                    }
                    float target = g->result;
                    if (o->root_blend > 0 && count > 0)
                        target = (float)((1 - o->root_blend) * g->result +
                                         o->root_blend * (sum / count + 1) / 2);
                    if (row_buffer_push(&buf, x, nf, target, k) != 0) {
                        atomic_store(&failed, 1);
                        break;
                    }
                    if (offset_net) {
                        double out = net_score(offset_net, pos);
                        buf.offset[buf.nrows - 1] = (float)(pos->side == RED ? out : -out);
                    }
                    if (o->net_inputs) {
                        uint32_t r = buf.nrows - 1;
                        buf.net_count[r] = (uint8_t)net_inputs(v, pos, &buf.net_in[(size_t)r * NET_MAX_ACTIVE]);
                        buf.net_side[r] = (uint8_t)pos->side;
                    }
                }
                int before = pos->count[RED] + pos->count[BLACK];
                Undo u;
                pos_do_move(pos, m, &u);
                captures[k] = pos->count[RED] + pos->count[BLACK] < before;
            }
            if (atomic_load(&failed))
                continue;
            /* Keep a row when none of the next quiet_plies moves (its own move first) captures:
             * while an exchange is under way the material count misstates the balance. */
            for (uint32_t r = 0; r < buf.nrows; r++) {
                int k = buf.move[r];
                bool quiet = true;
                for (int q = k; q < k + o->quiet_plies && q < nmoves && !o->all_positions; q++)
                    quiet = quiet && !captures[q];
                keep[r] = quiet;
            }
            if (game_rows_keep(&rows[j], &buf, keep, o->net_inputs, offset_net != NULL) != 0)
                atomic_store(&failed, 1);
        }
        free(pos);
        free(captures);
        free(keep);
        free(x);
        free(buf.row_nnz);
        free(buf.col);
        free(buf.val);
        free(buf.y);
        free(buf.move);
        free(buf.net_count);
        free(buf.net_side);
        free(buf.net_in);
        free(buf.offset);
    }
    if (atomic_load(&failed)) {
        int why = atomic_load(&failed);
        const GameIn *g = &l.games[atomic_load(&bad_game)];
        if (why == 1)
            set_error(err, "tune", 0, "out of memory");
        else
            set_error(err, paths[g->file], 0, "game row %llu does not replay: %s",
                      (unsigned long long)g->row,
                      why == 2 ? "bad start FEN" : "an illegal move in its move list");
        goto done;
    }
    /* Lay the games' rows out in game order (training games first). */
    uint64_t total_rows = 0, total_nnz = 0;
    for (uint64_t j = 0; j < l.ngames; j++) {
        total_rows += rows[j].nrows;
        total_nnz += rows[j].nnz;
    }
    d->game_first = malloc((l.ngames + 1) * sizeof *d->game_first);
    d->row_first = malloc((total_rows + 1) * sizeof *d->row_first);
    d->col = malloc((total_nnz ? total_nnz : 1) * sizeof *d->col);
    d->val = malloc((total_nnz ? total_nnz : 1) * sizeof *d->val);
    d->y = malloc((total_rows ? total_rows : 1) * sizeof *d->y);
    d->nonzero = calloc((size_t)nf, sizeof *d->nonzero);
    uint64_t total_net = 0;
    if (o->net_inputs)
        for (uint64_t j = 0; j < l.ngames; j++)
            for (uint32_t r = 0; r < rows[j].nrows; r++)
                total_net += rows[j].net_count[r];
    if (offset_net)
        d->offset = malloc((total_rows ? total_rows : 1) * sizeof *d->offset);
    if (o->net_inputs) {
        d->net_first = malloc((total_rows + 1) * sizeof *d->net_first);
        d->net_in = malloc((total_net ? total_net : 1) * sizeof *d->net_in);
        d->net_side = malloc((total_rows ? total_rows : 1) * sizeof *d->net_side);
    }
    if (!d->game_first || !d->row_first || !d->col || !d->val || !d->y || !d->nonzero ||
        (o->net_inputs && (!d->net_first || !d->net_in || !d->net_side)) || (offset_net && !d->offset)) {
        set_error(err, "tune", 0, "out of memory for the feature rows (%llu positions; "
                  "--max-positions reads fewer)", (unsigned long long)total_rows);
        goto done;
    }
    uint64_t net_at = 0;
    uint64_t w = 0, at = 0;
    for (uint64_t j = 0; j < l.ngames; j++) {
        d->game_first[j] = w;
        if (j == d->ntrain_games)
            d->ntrain = w;
        GameRows *g = &rows[j];
        memcpy(&d->col[at], g->col, g->nnz * sizeof *d->col);
        memcpy(&d->val[at], g->val, g->nnz * sizeof *d->val);
        for (uint32_t r = 0; r < g->nrows; r++) {
            d->row_first[w] = at;
            d->y[w] = g->y[r];
            if (offset_net)
                d->offset[w] = g->offset[r];
            at += g->row_nnz[r];
            if (o->net_inputs) {
                d->net_first[w] = net_at;
                d->net_side[w] = g->net_side[r];
                memcpy(&d->net_in[net_at], &g->net_in[(size_t)r * NET_MAX_ACTIVE],
                       g->net_count[r] * sizeof *d->net_in);
                net_at += g->net_count[r];
            }
            w++;
        }
        game_rows_free(g);
    }
    d->row_first[w] = at;
    if (o->net_inputs)
        d->net_first[w] = net_at;
    d->game_first[l.ngames] = w;
    if (d->ntrain_games == l.ngames)
        d->ntrain = w;
    d->nrows = w;
    d->nnz = at;
    if (d->ntrain == 0) {
        set_error(err, paths[0], 0, "no training positions (all games held out, or every "
                  "position filtered)");
        goto done;
    }
    count_nonzero(d);
    rc = 0;
done:
    if (rows)
        for (uint64_t j = 0; j < l.ngames; j++)
            game_rows_free(&rows[j]);
    free(rows);
    free(order);
    free(l.games);
    free(l.moves);
    free(l.root);
    free(l.mover);
    free(variant_text);
    if (rc != 0)
        tune_data_free(d);
    return rc;
}

int tune_data_from_rows(TuneData *d, int nfeatures, uint64_t n, uint64_t ntrain, const float *x,
                        const float *y)
{
    memset(d, 0, sizeof *d);
    d->nfeatures = nfeatures;
    uint64_t nnz = 0;
    for (uint64_t i = 0; i < n * (uint64_t)nfeatures; i++)
        nnz += x[i] != 0;
    d->game_first = malloc((n + 1) * sizeof *d->game_first);
    d->row_first = malloc((n + 1) * sizeof *d->row_first);
    d->col = malloc((nnz ? nnz : 1) * sizeof *d->col);
    d->val = malloc((nnz ? nnz : 1) * sizeof *d->val);
    d->y = malloc((n ? n : 1) * sizeof *d->y);
    d->nonzero = calloc((size_t)nfeatures, sizeof *d->nonzero);
    if (!d->game_first || !d->row_first || !d->col || !d->val || !d->y || !d->nonzero) {
        tune_data_free(d);
        return -1;
    }
    uint64_t at = 0;
    for (uint64_t i = 0; i < n; i++) {
        d->game_first[i] = i;
        d->row_first[i] = at;
        for (int f = 0; f < nfeatures; f++) {
            float xv = x[i * (uint64_t)nfeatures + (uint64_t)f];
            if (xv != 0) {
                d->col[at] = (uint16_t)f;
                d->val[at] = xv;
                at++;
            }
        }
        d->y[i] = y[i];
    }
    d->game_first[n] = n;
    d->row_first[n] = at;
    d->nnz = at;
    d->nrows = n;
    d->ntrain = ntrain;
    d->ngames = n;
    d->ntrain_games = ntrain;
    count_nonzero(d);
    return 0;
}

void tune_data_free(TuneData *d)
{
    free(d->row_first);
    free(d->col);
    free(d->val);
    free(d->y);
    free(d->nonzero);
    free(d->game_first);
    free(d->net_first);
    free(d->net_in);
    free(d->net_side);
    free(d->offset);
    memset(d, 0, sizeof *d);
}

/* ---- objective ---- */

/* log(1 + e^z) without overflow. */
static double softplus(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* L2 penalty of feature f. */
static inline double penalty_of(const TuneOptions *o, int f)
{
    return o->l2_feature ? o->l2_feature[f] : o->l2;
}

/* w . x of one sparse row. */
static inline double row_dot(const TuneData *d, uint64_t i, const double *w)
{
    double z = d->offset ? d->offset[i] : 0;
    for (uint64_t j = d->row_first[i]; j < d->row_first[i + 1]; j++)
        z += w[d->col[j]] * d->val[j];
    return z;
}

double tune_row_score(const TuneData *d, uint64_t row, const double *w)
{
    return row_dot(d, row, w);
}

double tune_objective(const TuneData *d, const TuneOptions *o, const double *w, uint64_t begin,
                      uint64_t end, bool penalised, double *grad)
{
    int nf = d->nfeatures;
    double k = 2.0 / o->eval_scale;
    uint64_t n = end > begin ? end - begin : 0;
    uint64_t nchunks = (n + TUNE_CHUNK - 1) / TUNE_CHUNK;
    size_t stride = (size_t)nf + 1;   /* loss, then the gradient */
    double *part = calloc((nchunks ? nchunks : 1) * stride, sizeof *part);
    if (!part)
        return NAN;
    if (o->threads > 0)
        omp_set_num_threads(o->threads);
#pragma omp parallel for schedule(static)
    for (uint64_t c = 0; c < nchunks; c++) {
        double *p = &part[c * stride];
        uint64_t lo = begin + c * TUNE_CHUNK, hi = lo + TUNE_CHUNK < end ? lo + TUNE_CHUNK : end;
        for (uint64_t i = lo; i < hi; i++) {
            double z = k * row_dot(d, i, w);
            double y = d->y[i];
            /* Cross-entropy of a fractional target y: -y log p - (1 - y) log (1 - p). */
            p[0] += softplus(z) - y * z;
            if (grad) {
                double g = k * (1.0 / (1.0 + exp(-z)) - y);
                for (uint64_t j = d->row_first[i]; j < d->row_first[i + 1]; j++)
                    p[1 + d->col[j]] += g * d->val[j];
            }
        }
    }
    double loss = 0;
    if (grad)
        memset(grad, 0, (size_t)nf * sizeof *grad);
    for (uint64_t c = 0; c < nchunks; c++) {
        loss += part[c * stride];
        if (grad)
            for (int f = 0; f < nf; f++)
                grad[f] += part[c * stride + 1 + (size_t)f];
    }
    free(part);
    double inv = n ? 1.0 / (double)n : 0;
    loss *= inv;
    if (grad)
        for (int f = 0; f < nf; f++)
            grad[f] *= inv;
    for (int f = 0; f < nf; f++) {
        bool fixed = o->fixed && o->fixed[f];
        if (penalised && !fixed) {
            double l2 = penalty_of(o, f);
            loss += 0.5 * l2 * w[f] * w[f];
            if (grad)
                grad[f] += l2 * w[f];
        }
        if (grad && fixed)
            grad[f] = 0;
    }
    return loss;
}

/* Chunk partials of an nf x nf sum are added in chunk order; at most this many chunks are held
 * at once (the others wait), so memory stays bounded for large feature counts. */
static uint64_t block_chunks(int nf)
{
    size_t bytes = (size_t)nf * (size_t)nf * sizeof(double);
    uint64_t most = (uint64_t)((256u << 20) / (bytes ? bytes : 1));
    int threads = omp_get_max_threads();
    uint64_t want = (uint64_t)(threads > 0 ? threads : 1) * 2;
    if (most < 1)
        most = 1;
    return want < most ? want : most;
}

/* Hessian of the summed training loss plus the penalty (N * J''): sum k^2 p (1 - p) x x^T +
 * N l2 I, chunked like the objective. Fills the upper triangle and mirrors it. */
static int hessian(const TuneData *d, const TuneOptions *o, const double *w, gsl_matrix *h)
{
    int nf = d->nfeatures;
    double k = 2.0 / o->eval_scale;
    uint64_t n = d->ntrain, nchunks = (n + TUNE_CHUNK - 1) / TUNE_CHUNK;
    size_t stride = (size_t)nf * (size_t)nf;
    uint64_t block = block_chunks(nf);
    double *part = malloc(block * stride * sizeof *part);
    double *sum = calloc(stride, sizeof *sum);
    if (!part || !sum) {
        free(part);
        free(sum);
        return -1;
    }
    for (uint64_t c0 = 0; c0 < nchunks; c0 += block) {
        uint64_t c1 = c0 + block < nchunks ? c0 + block : nchunks;
#pragma omp parallel for schedule(static)
        for (uint64_t c = c0; c < c1; c++) {
            double *p = &part[(c - c0) * stride];
            memset(p, 0, stride * sizeof *p);
            uint64_t lo = c * TUNE_CHUNK, hi = lo + TUNE_CHUNK < n ? lo + TUNE_CHUNK : n;
            for (uint64_t i = lo; i < hi; i++) {
                double s = 1.0 / (1.0 + exp(-k * row_dot(d, i, w)));
                double c2 = k * k * s * (1 - s);
                /* Columns increase within a row: (a, b) with a <= b is the upper triangle. */
                for (uint64_t ja = d->row_first[i]; ja < d->row_first[i + 1]; ja++) {
                    double ca = c2 * d->val[ja];
                    double *rowp = &p[(size_t)d->col[ja] * (size_t)nf];
                    for (uint64_t jb = ja; jb < d->row_first[i + 1]; jb++)
                        rowp[d->col[jb]] += ca * d->val[jb];
                }
            }
        }
        for (uint64_t c = c0; c < c1; c++)
            for (size_t i = 0; i < stride; i++)
                sum[i] += part[(c - c0) * stride + i];
    }
    for (int a = 0; a < nf; a++)
        for (int b = a; b < nf; b++) {
            double x = sum[(size_t)a * (size_t)nf + (size_t)b];
            if (a == b)
                x += (double)n * penalty_of(o, a);
            gsl_matrix_set(h, (size_t)a, (size_t)b, x);
            gsl_matrix_set(h, (size_t)b, (size_t)a, x);
        }
    free(part);
    free(sum);
    return 0;
}

/* Sum over training games of s s^T, s the game's summed score vector k (p - y) x: the "meat"
 * of the cluster-robust covariance. Chunks of games, partials added in chunk order. */
enum { TUNE_GAME_CHUNK = 256 };

static int cluster_meat(const TuneData *d, const TuneOptions *o, const double *w, double *meat)
{
    int nf = d->nfeatures;
    double k = 2.0 / o->eval_scale;
    uint64_t ng = d->ntrain_games, nchunks = (ng + TUNE_GAME_CHUNK - 1) / TUNE_GAME_CHUNK;
    size_t stride = (size_t)nf * (size_t)nf;
    uint64_t block = block_chunks(nf);
    double *part = malloc(block * stride * sizeof *part);
    double *scores = calloc(block * (size_t)nf, sizeof *scores);
    int *touched = malloc(block * (size_t)nf * sizeof *touched);
    uint8_t *seen = calloc(block * (size_t)nf, 1);
    if (!part || !scores || !touched || !seen) {
        free(part);
        free(scores);
        free(touched);
        free(seen);
        return -1;
    }
    memset(meat, 0, stride * sizeof *meat);
    for (uint64_t c0 = 0; c0 < nchunks; c0 += block) {
        uint64_t c1 = c0 + block < nchunks ? c0 + block : nchunks;
#pragma omp parallel for schedule(static)
        for (uint64_t c = c0; c < c1; c++) {
            double *p = &part[(c - c0) * stride], *s = &scores[(c - c0) * (size_t)nf];
            int *t = &touched[(c - c0) * (size_t)nf];
            uint8_t *in = &seen[(c - c0) * (size_t)nf];
            memset(p, 0, stride * sizeof *p);
            uint64_t lo = c * TUNE_GAME_CHUNK, hi = lo + TUNE_GAME_CHUNK < ng ? lo + TUNE_GAME_CHUNK : ng;
            for (uint64_t g = lo; g < hi; g++) {
                /* The game's score vector over the features its rows touch. */
                int nt = 0;
                for (uint64_t i = d->game_first[g]; i < d->game_first[g + 1] && i < d->ntrain; i++) {
                    double r = k * (1.0 / (1.0 + exp(-k * row_dot(d, i, w))) - d->y[i]);
                    for (uint64_t j = d->row_first[i]; j < d->row_first[i + 1]; j++) {
                        int f = d->col[j];
                        if (!in[f]) {
                            in[f] = 1;
                            t[nt++] = f;
                        }
                        s[f] += r * d->val[j];
                    }
                }
                for (int a = 0; a < nt; a++)
                    for (int b = 0; b < nt; b++)
                        p[(size_t)t[a] * (size_t)nf + (size_t)t[b]] += s[t[a]] * s[t[b]];
                for (int a = 0; a < nt; a++) {
                    s[t[a]] = 0;
                    in[t[a]] = 0;
                }
            }
        }
        for (uint64_t c = c0; c < c1; c++)
            for (size_t i = 0; i < stride; i++)
                meat[i] += part[(c - c0) * stride + i];
    }
    free(part);
    free(scores);
    free(touched);
    free(seen);
    return 0;
}

/* ---- fitting ---- */

typedef struct FitContext {
    const TuneData *d;
    const TuneOptions *o;
} FitContext;

static double fit_f(const gsl_vector *x, void *params)
{
    const FitContext *c = params;
    return tune_objective(c->d, c->o, x->data, 0, c->d->ntrain, true, NULL);
}

static void fit_df(const gsl_vector *x, void *params, gsl_vector *g)
{
    const FitContext *c = params;
    tune_objective(c->d, c->o, x->data, 0, c->d->ntrain, true, g->data);
}

static void fit_fdf(const gsl_vector *x, void *params, double *f, gsl_vector *g)
{
    const FitContext *c = params;
    *f = tune_objective(c->d, c->o, x->data, 0, c->d->ntrain, true, g->data);
}

static double validation_loss(const TuneData *d, const TuneOptions *o, const double *w)
{
    if (d->nrows > d->ntrain)
        return tune_objective(d, o, w, d->ntrain, d->nrows, false, NULL);
    return tune_objective(d, o, w, 0, d->ntrain, false, NULL);
}

int tune_fit(const TuneData *d, const TuneOptions *o, const double *w0, TuneResult *r,
             XqError *err)
{
    memset(r, 0, sizeof *r);
    int nf = d->nfeatures;
    gsl_set_error_handler_off();
    r->nfeatures = nf;
    r->w = malloc((size_t)nf * sizeof *r->w);
    r->cov = malloc((size_t)nf * (size_t)nf * sizeof *r->cov);
    r->cov_cluster = calloc((size_t)nf * (size_t)nf, sizeof *r->cov_cluster);
    double *meat = malloc((size_t)nf * (size_t)nf * sizeof *meat);
    double *tmp = malloc((size_t)nf * (size_t)nf * sizeof *tmp);
    gsl_vector *x = gsl_vector_alloc((size_t)nf);
    gsl_multimin_fdfminimizer *s =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, (size_t)nf);
    gsl_matrix *h = gsl_matrix_alloc((size_t)nf, (size_t)nf);
    int *free_index = malloc((size_t)nf * sizeof *free_index);
    int nfree = 0;
    int rc = -1;
    if (!r->w || !r->cov || !r->cov_cluster || !meat || !tmp || !x || !s || !h || !free_index) {
        set_error(err, "tune", 0, "out of memory");
        goto done;
    }
    for (int f = 0; f < nf; f++)
        gsl_vector_set(x, (size_t)f, w0[f]);
    memcpy(r->w, w0, (size_t)nf * sizeof *r->w);
    r->start_train_loss = tune_objective(d, o, w0, 0, d->ntrain, false, NULL);
    r->start_valid_loss = validation_loss(d, o, w0);
    double best = r->start_valid_loss;
    if (o->log)
        fprintf(o->log, "tune: iteration 0  train %.6f  validation %.6f\n", r->start_train_loss,
                r->start_valid_loss);

    FitContext ctx = {d, o};
    gsl_multimin_function_fdf fn = {.f = fit_f, .df = fit_df, .fdf = fit_fdf, .n = (size_t)nf,
                                    .params = &ctx};
    /* First step 0.1 pawn along the gradient; line-search tolerance 0.1 as GSL advises. */
    int status = gsl_multimin_fdfminimizer_set(s, &fn, x, 0.1, 0.1);
    if (status != GSL_SUCCESS) {
        set_error(err, "tune", 0, "GSL could not start the minimiser: %s", gsl_strerror(status));
        goto done;
    }
    r->stop_reason = "iteration limit";
    int since = 0;
    for (int it = 1; it <= o->max_iterations; it++) {
        status = gsl_multimin_fdfminimizer_iterate(s);
        if (status != GSL_SUCCESS) {
            /* GSL_ENOPROG: the line search cannot improve (converged to working precision). */
            r->stop_reason = status == GSL_ENOPROG ? "no further progress (converged)" : gsl_strerror(status);
            break;
        }
        r->iterations = it;
        /* The minimiser's f is the penalised training loss: take the penalty off again. */
        double train = s->f;
        for (int f = 0; f < nf; f++)
            if (!(o->fixed && o->fixed[f]))
                train -= 0.5 * penalty_of(o, f) * s->x->data[f] * s->x->data[f];
        double valid = validation_loss(d, o, s->x->data);
        if (o->log)
            fprintf(o->log, "tune: iteration %d  train %.6f  validation %.6f\n", it, train, valid);
        if (valid < best) {
            best = valid;
            since = 0;
            r->best_iteration = it;
            memcpy(r->w, s->x->data, (size_t)nf * sizeof *r->w);
        } else if (++since >= o->patience) {
            r->stop_reason = "validation loss stopped improving";
            break;
        }
        if (gsl_multimin_test_gradient(s->gradient, 1e-8) == GSL_SUCCESS) {
            r->stop_reason = "gradient vanished (converged)";
            break;
        }
    }
    r->train_loss = tune_objective(d, o, r->w, 0, d->ntrain, false, NULL);
    r->valid_loss = validation_loss(d, o, r->w);

    /* Covariance of the weights: the inverse of the summed loss's Hessian (Fisher information).
     * Positions of one game are not independent, so these errors are optimistic; see
     * docs/training.md. */
    if (hessian(d, o, r->w, h) != 0) {
        set_error(err, "tune", 0, "out of memory computing the Hessian");
        goto done;
    }
    for (int f = 0; f < nf; f++)
        if (!(o->fixed && o->fixed[f]))
            free_index[nfree++] = f;
    if (nfree == 0) {
        memset(r->cov, 0, (size_t)nf * (size_t)nf * sizeof *r->cov);
        rc = 0;
        goto done;
    }
    /* Free features only: pack their rows and columns into the top-left block. */
    for (int a = 0; a < nfree; a++)
        for (int b = 0; b < nfree; b++)
            gsl_matrix_set(h, (size_t)a, (size_t)b,
                           gsl_matrix_get(h, (size_t)free_index[a], (size_t)free_index[b]));
    gsl_matrix_view sub = gsl_matrix_submatrix(h, 0, 0, (size_t)nfree, (size_t)nfree);
    status = gsl_linalg_cholesky_decomp1(&sub.matrix);
    if (status == GSL_SUCCESS)
        status = gsl_linalg_cholesky_invert(&sub.matrix);
    if (status != GSL_SUCCESS) {
        set_error(err, "tune", 0, "the Hessian is not positive definite (%s); raise --l2",
                  gsl_strerror(status));
        goto done;
    }
    memset(r->cov, 0, (size_t)nf * (size_t)nf * sizeof *r->cov);
    for (int a = 0; a < nfree; a++)
        for (int b = 0; b < nfree; b++)
            r->cov[(size_t)free_index[a] * (size_t)nf + (size_t)free_index[b]] =
                gsl_matrix_get(&sub.matrix, (size_t)a, (size_t)b);
    if (cluster_meat(d, o, r->w, meat) != 0) {
        set_error(err, "tune", 0, "out of memory computing the robust covariance");
        goto done;
    }
    /* cov_cluster = cov meat cov. */
    size_t n2 = (size_t)nf;
    for (size_t a = 0; a < n2; a++)
        for (size_t b = 0; b < n2; b++) {
            double sum = 0;
            for (size_t c = 0; c < n2; c++)
                sum += r->cov[a * n2 + c] * meat[c * n2 + b];
            tmp[a * n2 + b] = sum;
        }
    for (size_t a = 0; a < n2; a++)
        for (size_t b = 0; b < n2; b++) {
            double sum = 0;
            for (size_t c = 0; c < n2; c++)
                sum += tmp[a * n2 + c] * r->cov[c * n2 + b];
            r->cov_cluster[a * n2 + b] = sum;
        }
    rc = 0;
done:
    free(free_index);
    free(meat);
    free(tmp);
    gsl_multimin_fdfminimizer_free(s);
    gsl_vector_free(x);
    gsl_matrix_free(h);
    if (rc != 0)
        tune_result_free(r);
    return rc;
}

void tune_result_free(TuneResult *r)
{
    free(r->w);
    free(r->cov);
    free(r->cov_cluster);
    r->w = r->cov = r->cov_cluster = NULL;
}

/* ---- piece values ---- */

int tune_default_unit(const Evaluator *e, const Variant *v)
{
    int best = -1;
    double best_value = INFINITY;
    for (int i = 0; i < eval_feature_count(e); i++) {
        const char *name = eval_feature_name(e, i);
        if (strncmp(name, "material.", 9) != 0)
            continue;
        if (strcmp(name, "material.pawn") == 0)
            return i;
        for (int k = 0; k < v->nkinds; k++)
            if (strcmp(v->kinds[k].name, name + 9) == 0 && v->kinds[k].value > 0 &&
                v->kinds[k].value < best_value) {
                best_value = v->kinds[k].value;
                best = i;
            }
    }
    return best;
}

static int find(const Evaluator *e, const char *name)
{
    for (int i = 0; i < eval_feature_count(e); i++)
        if (strcmp(eval_feature_name(e, i), name) == 0)
            return i;
    return -1;
}

/* Value and delta-method error of (w[a] + w[b]) / w[u] (b = -1: w[a] / w[u]). The gradient is
 * 1/w_u for a and b and -(w_a + w_b)/w_u^2 for u (summed where indices coincide). */
static void ratio(const TuneResult *r, const double *cov, int a, int b, int u, double *value,
                  double *se)
{
    int nf = r->nfeatures;
    double num = r->w[a] + (b >= 0 ? r->w[b] : 0), den = r->w[u];
    double *g = calloc((size_t)nf, sizeof *g);
    *value = num / den;
    if (!g) {
        *se = NAN;
        return;
    }
    g[a] += 1 / den;
    if (b >= 0)
        g[b] += 1 / den;
    g[u] -= num / (den * den);
    double var = 0;
    for (int i = 0; i < nf; i++)
        for (int j = 0; j < nf; j++)
            var += g[i] * cov[(size_t)i * (size_t)nf + (size_t)j] * g[j];
    free(g);
    *se = var > 0 ? sqrt(var) : 0;
}

int tune_piece_values(const Evaluator *e, const TuneResult *r, int unit, PieceValue *out, int max)
{
    int n = 0;
    for (int i = 0; i < eval_feature_count(e) && n < max; i++) {
        const char *name = eval_feature_name(e, i);
        if (strncmp(name, "material.", 9) != 0)
            continue;
        snprintf(out[n].name, sizeof out[n].name, "%s", name + 9);
        ratio(r, r->cov, i, -1, unit, &out[n].value, &out[n].se);
        ratio(r, r->cov_cluster, i, -1, unit, &out[n].value, &out[n].se_cluster);
        n++;
    }
    for (int i = 0; i < eval_feature_count(e) && n < max; i++) {
        const char *name = eval_feature_name(e, i);
        if (strncmp(name, "zone.", 5) != 0)
            continue;
        /* zone.KIND.ZONE: value of a KIND standing in ZONE = material + zone weight. */
        char kind[64];
        const char *dot = strchr(name + 5, '.');
        if (!dot || (size_t)(dot - (name + 5)) >= sizeof kind)
            continue;
        memcpy(kind, name + 5, (size_t)(dot - (name + 5)));
        kind[dot - (name + 5)] = '\0';
        char mat[80];
        snprintf(mat, sizeof mat, "material.%s", kind);
        int m = find(e, mat);
        /* A held zone weight (no data, or --only / --drop) says nothing about the zone. */
        if (m < 0 || r->cov[(size_t)i * (size_t)r->nfeatures + (size_t)i] <= 0)
            continue;
        snprintf(out[n].name, sizeof out[n].name, "%s in %s", kind, dot + 1);
        ratio(r, r->cov, m, i, unit, &out[n].value, &out[n].se);
        ratio(r, r->cov_cluster, m, i, unit, &out[n].value, &out[n].se_cluster);
        n++;
    }
    return n;
}
