/* test_net.c - the evaluation's network: its inputs from hand-made positions (the side to move's
 * view, mirrored for Black), the forward pass by hand, the file (round trip, and the refusals of
 * damaged, truncated and foreign files), the weights file's [net] section, and the fit on rows
 * whose answer is known. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <math.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "eval.h"
#include "net.h"
#include "net_fit.h"
#include "hidden.h"
#include "rng.h"
#include "status.h"
#include "tune.h"
#include "weights_choice.h"

static int kind_of(const Variant *v, const char *name)
{
    for (int k = 0; k < v->nkinds; k++)
        if (!strcmp(v->kinds[k].name, name))
            return k;
    fail_msg("no kind %s", name);
    return -1;
}

static int point_of(const Variant *v, const char *name)
{
    char buf[16];
    for (int p = 0; p < v->npoints; p++) {
        variant_point_name(v, (Point)p, buf);
        if (!strcmp(buf, name))
            return p;
    }
    fail_msg("no point %s", name);
    return -1;
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Two kings and a Red chariot: the inputs name whose piece, which kind and which point, from
 * the side to move's view. */
static void inputs_of_a_hand_made_position(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Position pos;
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    uint16_t in[NET_MAX_ACTIVE];
    int n = net_inputs(v, &pos, in);
    assert_int_equal(n, 3);
    int stride = v->nkinds * v->npoints;
    int king = kind_of(v, "general"), chariot = kind_of(v, "chariot");
    uint16_t want[3] = {
        (uint16_t)(chariot * v->npoints + point_of(v, "a0")),
        (uint16_t)(king * v->npoints + point_of(v, "d0")),
        (uint16_t)(stride + king * v->npoints + point_of(v, "e9")),
    };
    qsort(in, 3, sizeof in[0], cmp_u16);
    qsort(want, 3, sizeof want[0], cmp_u16);
    assert_memory_equal(in, want, sizeof want);

    /* Black to move with colours and ranks swapped: the same inputs. */
    test_set_fen(&pos, v, "r2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    uint16_t mirrored[NET_MAX_ACTIVE];
    assert_int_equal(net_inputs(v, &pos, mirrored), 3);
    qsort(mirrored, 3, sizeof mirrored[0], cmp_u16);
    assert_memory_equal(mirrored, want, sizeof want);
    variant_free(v);
}

/* The start position is symmetric: both sides to move see the same 32 inputs. */
static void start_position_looks_the_same_to_both_sides(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Position red, black;
    pos_init_start(&red, v);
    test_set_fen(&black, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    uint16_t a[NET_MAX_ACTIVE], b[NET_MAX_ACTIVE];
    int na = net_inputs(v, &red, a), nb = net_inputs(v, &black, b);
    assert_int_equal(na, 32);
    assert_int_equal(nb, 32);
    qsort(a, 32, sizeof a[0], cmp_u16);
    qsort(b, 32, sizeof b[0], cmp_u16);
    assert_memory_equal(a, b, sizeof a);
    /* 16 own pieces below the other side's index range, 16 above. */
    int own = 0;
    for (int i = 0; i < 32; i++)
        own += a[i] < v->nkinds * v->npoints;
    assert_int_equal(own, 16);
    variant_free(v);
}

/* Output = b2 + sum w2 * clamp(b1 + inputs' weights, 0, 1), worked by hand. */
static void forward_pass_by_hand(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    XqError err;
    Net *n = net_create(v, 16, &err);
    assert_non_null(n);
    n->b2 = 0.25f;
    n->w2[0] = 2.0f;
    n->w2[1] = -1.0f;
    n->w2[2] = 3.0f;
    n->b1[1] = 0.5f;
    n->b1[2] = -0.5f;
    /* Input 7 adds 0.75 to unit 0 and 0.25 to unit 1; input 9 adds 0.75 to unit 0 again and
     * 0.25 to unit 2. */
    n->w1[7 * 16 + 0] = 0.75f;
    n->w1[7 * 16 + 1] = 0.25f;
    n->w1[9 * 16 + 0] = 0.75f;
    n->w1[9 * 16 + 2] = 0.25f;
    uint16_t one[1] = {7}, two[2] = {7, 9};
    /* unit 0: 0.75; unit 1: 0.75; unit 2: -0.5 -> 0. */
    assert_true(fabs(net_forward(n, one, 1, NULL) - (0.25 + 2 * 0.75 - 0.75)) < 1e-6);
    /* unit 0: 1.5 -> 1; unit 1: 0.75; unit 2: -0.25 -> 0. */
    float act[16];
    assert_true(fabs(net_forward(n, two, 2, act) - (0.25 + 2 * 1.0 - 0.75)) < 1e-6);
    assert_true(fabs(act[0] - 1.5f) < 1e-6);
    assert_true(fabs(act[2] + 0.25f) < 1e-6);
    /* Widths that are not a multiple of 16 are refused. */
    assert_null(net_create(v, 24, &err));
    assert_non_null(strstr(err.message, "multiple of 16"));
    net_free(n);
    variant_free(v);
}

/* The evaluation's sums follow the board from one position to the next (net_score): under random
 * play, and jumping back to positions seen long before, every score is the one a fresh start
 * gives, to the bit, and within 0.005 pawn of the floating-point forward pass of the fit. In
 * rule sets with face-down pieces, a frame ring and displacement moves, and reserves. */
static void remembered_sums_match_a_fresh_start(void **state)
{
    (void)state;
    const char *names[] = {"xiangqi", "jieqi", "tuoqi", "mixed", "river-camp"};
    for (size_t t = 0; t < sizeof names / sizeof *names; t++) {
        Variant *v = test_load_variant(names[t]);
        XqError err;
        Net *n = net_create(v, 32, &err);
        assert_non_null(n);
        Rng rng;
        rng_init(&rng, 99 + t);
        for (int i = 0; i < n->ninputs * 32; i++)
            n->w1[i] = (float)(rng_double(&rng) - 0.5) * 0.3f;
        for (int j = 0; j < 32; j++) {
            n->b1[j] = 0.5f;
            n->w2[j] = (float)(rng_double(&rng) - 0.5) * 2.0f;
        }
        net_prepare(n);
        static Position seen[64];
        int nseen = 0, scored = 0, jumps = 0;
        for (int game = 0; game < 6; game++) {
            Position pos;
            pos_init_start(&pos, v);
            for (int ply = 0; ply < 120; ply++) {
                MoveList list;
                int legal = pos_generate_legal(&pos, &list);
                if (pos_game_status_n(&pos, legal).result != RESULT_NONE)
                    break;
                Move m = list.moves[rng_below(&rng, (uint32_t)legal)];
                if (hidden_is_chance(&pos, m)) { /* a reveal: draw what it shows */
                    Move drawn[HIDDEN_MAX_OUTCOMES];
                    double prob[HIDDEN_MAX_OUTCOMES];
                    m = drawn[rng_below(&rng, (uint32_t)hidden_outcomes(&pos, m, drawn, prob))];
                }
                Undo u;
                pos_do_move(&pos, m, &u);
                const Position *at = &pos;
                if (nseen > 0 && rng_below(&rng, 8) == 0) {
                    at = &seen[rng_below(&rng, (uint32_t)(nseen < 64 ? nseen : 64))];
                    jumps++;
                } else {
                    seen[nseen++ % 64] = pos;
                }
                double kept = net_score(n, at);
                net_forget();
                double fresh = net_score(n, at);
                if (memcmp(&kept, &fresh, sizeof kept) != 0)
                    fail_msg("%s game %d ply %d: remembered %.9f, fresh %.9f", names[t], game, ply, kept, fresh);
                uint16_t in[NET_MAX_ACTIVE];
                double exact = net_forward(n, in, net_inputs(v, at, in), NULL);
                if (fabs(kept - exact) > 0.005)
                    fail_msg("%s: integer %.6f, floating point %.6f", names[t], kept, exact);
                /* Scoring the next position from the remembered sums, not from this fresh start,
                 * is what the next round checks: forget nothing here. */
                scored++;
            }
        }
        assert_true(scored > 300 && jumps > 20);
        /* Changed weights, prepared again: nothing of the old network's sums is used. */
        Position start;
        pos_init_start(&start, v);
        double before = net_score(n, &start);
        n->b2 += 1.0f;
        n->b1[0] += 0.25f;
        net_prepare(n);
        double after = net_score(n, &start);
        net_forget();
        assert_true(after == net_score(n, &start));
        assert_true(fabs(after - before) > 0.5);
        net_free(n);
        variant_free(v);
    }
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static size_t read_file(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void save(Net *n, const char *path)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    XqError err;
    assert_int_equal(net_write(n, f, path, &err), 0);
    fclose(f);
}

static char dir[48];

static void file_round_trip_and_refusals(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    XqError err;
    Net *n = net_create(v, 32, &err);
    assert_non_null(n);
    for (int i = 0; i < n->ninputs * n->hidden; i++)
        n->w1[i] = (float)((i % 97) - 48) / 64.0f;
    for (int j = 0; j < 32; j++) {
        n->b1[j] = (float)j / 32.0f;
        n->w2[j] = (float)(j % 5) - 2.0f;
    }
    n->b2 = -0.125f;
    char path[128];
    snprintf(path, sizeof path, "%s/a.net", dir);
    save(n, path);
    assert_int_not_equal(n->checksum, 0);
    Net *m = net_load(path, &err);
    assert_non_null(m);
    assert_int_equal(m->hidden, 32);
    assert_int_equal(m->checksum, n->checksum);
    assert_memory_equal(m->w1, n->w1, (size_t)n->ninputs * 32 * sizeof(float));
    assert_memory_equal(m->b1, n->b1, 32 * sizeof(float));
    assert_memory_equal(m->w2, n->w2, 32 * sizeof(float));
    assert_true(m->b2 == n->b2);
    net_free(m);

    static unsigned char buf[1 << 20];
    size_t len = read_file(path, buf, sizeof buf);
    char bad[128];
    snprintf(bad, sizeof bad, "%s/bad.net", dir);
    /* One weight's byte changed: the checksum says so. */
    buf[1000] ^= 0x40;
    write_file(bad, buf, len);
    assert_null(net_load(bad, &err));
    assert_non_null(strstr(err.message, "checksum"));
    assert_string_equal(err.file, bad);
    buf[1000] ^= 0x40;
    /* A weight too large for the evaluation's integer sums, with a right checksum: refused by
     * the reader, and never written. */
    unsigned char big[1 << 20];
    memcpy(big, buf, len);
    const float huge = 2000.0f;
    memcpy(big + 60, &huge, sizeof huge); /* the first input weight (little-endian hosts) */
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < len; i++)
        h = (h ^ big[i]) * 0x100000001b3ull;
    for (int i = 0; i < 8; i++)
        big[len - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
    write_file(bad, big, len);
    assert_null(net_load(bad, &err));
    assert_non_null(strstr(err.message, "weight 0 is beyond +-1024"));
    float keep = n->w1[0];
    n->w1[0] = -huge;
    FILE *f = fopen(bad, "wb");
    assert_non_null(f);
    assert_int_equal(net_write(n, f, bad, &err), -1);
    assert_non_null(strstr(err.message, "not written"));
    fclose(f);
    n->w1[0] = keep;
    /* Cut short. */
    write_file(bad, buf, len - 100);
    assert_null(net_load(bad, &err));
    assert_non_null(strstr(err.message, "truncated"));
    /* Not a network at all. */
    write_file(bad, "[weights]\n", 10);
    assert_null(net_load(bad, &err));
    assert_non_null(strstr(err.message, "not an xqlab network file"));
    /* It fits xiangqi and rule sets with its pieces (sniper-like variants add a kind, banqi has
     * another board); the file says what it was made for. */
    Net *again = net_load(path, &err);
    assert_non_null(again);
    assert_string_equal(again->variant, "xiangqi");
    assert_true(net_fits(again, v));
    Variant *other = test_load_variant("banqi");
    assert_false(net_fits(again, other));
    variant_free(other);
    other = test_load_variant("sniper");
    assert_false(net_fits(again, other));
    variant_free(other);
    net_free(again);
    /* Endless: refused without reading it all. */
    assert_null(net_load("/dev/zero", &err));
    assert_non_null(strstr(err.message, "larger than any network"));
    /* Missing. */
    snprintf(bad, sizeof bad, "%s/none.net", dir);
    assert_null(net_load(bad, &err));
    assert_non_null(strstr(err.message, "cannot open"));
    net_free(n);
    variant_free(v);
}

/* A weights file's [net] adds the network's output, signed for the side to move; the section's
 * errors name the weights file and line. */
static void weights_file_names_the_network(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    XqError err;
    Net *n = net_create(v, 16, &err);
    assert_non_null(n);
    for (int i = 0; i < n->ninputs * 16; i++)
        n->w1[i] = (float)((i * 7919) % 101 - 50) / 400.0f;
    for (int j = 0; j < 16; j++) {
        n->b1[j] = 0.5f;
        n->w2[j] = (float)(j - 8) / 8.0f;
    }
    char path[128], ini[128], text[512];
    snprintf(path, sizeof path, "%s/b.net", dir);
    save(n, path);
    snprintf(ini, sizeof ini, "%s/w.ini", dir);
    snprintf(text, sizeof text, "[weights]\nmaterial.pawn = 1.5\n\n[net]\nfile = b.net\nchecksum = %016llx\n",
             (unsigned long long)n->checksum);
    write_file(ini, text, strlen(text));
    Evaluator *plain = eval_create(v, NULL, &err);
    assert_non_null(plain);
    eval_set_weight(plain, 0, eval_weight(plain, 0)); /* no-op: the same defaults */
    for (int i = 0; i < eval_feature_count(plain); i++)
        if (!strcmp(eval_feature_name(plain, i), "material.pawn"))
            eval_set_weight(plain, i, 1.5);
    Evaluator *with = eval_create(v, ini, &err);
    assert_non_null(with);
    assert_non_null(eval_net(with));
    Position pos;
    const char *fens[2] = {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1",
                           "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R b - - 0 1"};
    for (int i = 0; i < 2; i++) {
        test_set_fen(&pos, v, fens[i]);
        double net = net_score(n, &pos);
        assert_true(fabs(net) > 1e-3); /* the test would not see a missing network otherwise */
        assert_true(fabs(eval_score(with, &pos) - (eval_score(plain, &pos) + net)) < 1e-9);
    }
    /* Written back, the weights text names the same file and checksum. */
    static char out[1 << 18];
    eval_write_weights(with, out, sizeof out);
    char want[128];
    snprintf(want, sizeof want, "[net]\nfile = b.net\nchecksum = %016llx\n", (unsigned long long)n->checksum);
    assert_non_null(strstr(out, want));
    eval_free(with);

    /* Weights with a network made for other pieces (chosen for their features) keep their
     * linear weights and leave the network out, saying for which rule set it was made. */
    Variant *sniper = test_load_variant("sniper");
    Evaluator *foreign = eval_create(sniper, ini, &err);
    assert_non_null(foreign);
    assert_null(eval_net(foreign));
    assert_string_equal(eval_net_left_out(foreign), "xiangqi");
    eval_free(foreign);
    variant_free(sniper);

    /* Refusals, each naming the weights file and the line. */
    const char *cases[][2] = {
        {"[weights]\n[net]\nfile = b.net\nchecksum = 0123456789abcdef\n", "another network"},
        {"[weights]\n[net]\nfile = b.net\nchecksum = xyz\n", "16 hex digits"},
        {"[weights]\n[net]\nfile = none.net\n", "cannot open"},
        {"[weights]\n[net]\nchecksum = 0123456789abcdef\n", "no file"},
        {"[weights]\n[net]\nfile = b.net\nlayers = 2\n", "unknown key 'layers'"},
        {"[weights]\n[net]\nfile = b.net\nfile = b.net\n", "set twice"},
        {"[weights]\n[nets]\nfile = b.net\n", "unknown section [nets]"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        write_file(ini, cases[c][0], strlen(cases[c][0]));
        memset(&err, 0, sizeof err);
        assert_null(eval_create(v, ini, &err));
        if (!strstr(err.message, cases[c][1]))
            fail_msg("case %zu: '%s' lacks '%s'", c, err.message, cases[c][1]);
        assert_string_equal(err.file, ini);
        assert_true(err.line >= 3);
    }
    eval_free(plain);
    net_free(n);
    variant_free(v);
}

/* Rows whose answer is known: two inputs, one always in won positions, the other in lost ones,
 * the linear score 0. The fit lowers the loss and learns the sign of each; the kept network is
 * the one of the best validation loss, and the same seed gives the same network. */
static void fit_learns_a_known_answer(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    enum { ROWS = 2000 };
    static float x[ROWS], y[ROWS];
    for (int i = 0; i < ROWS; i++) {
        x[i] = 0;
        y[i] = (i % 2) ? 0.9f : 0.1f;
    }
    TuneData d;
    assert_int_equal(tune_data_from_rows(&d, 1, ROWS, ROWS * 9 / 10, x, y), 0);
    d.net_first = malloc((ROWS + 1) * sizeof *d.net_first);
    d.net_in = malloc(ROWS * sizeof *d.net_in);
    d.net_side = malloc(ROWS * sizeof *d.net_side);
    for (int i = 0; i < ROWS; i++) {
        d.net_first[i] = (uint64_t)i;
        d.net_in[i] = (i % 2) ? 11 : 500;
        /* Half the rows from Black's view: the output is the side to move's, the target Red's. */
        d.net_side[i] = (uint8_t)((i / 2) % 2);
        if (d.net_side[i] == BLACK)
            d.net_in[i] = (i % 2) ? 500 : 11;
    }
    d.net_first[ROWS] = ROWS;
    double w[1] = {0};
    XqError err;
    Net *a = net_create(v, 16, &err), *b = net_create(v, 16, &err);
    NetFitOptions o = NET_FIT_OPTIONS_INIT;
    o.epochs = 100;
    o.rate = 0.02;
    o.decay = 1.0;
    NetFitResult r, r2;
    assert_int_equal(net_fit(&d, w, a, &o, &r, &err), 0);
    assert_true(r.start_valid_loss > 0.69 && r.start_valid_loss < 0.70); /* log 2: no information */
    assert_true(r.valid_loss < 0.33);     /* the floor, the targets' own entropy, is 0.3251 */
    assert_true(r.best_epoch >= 1);
    uint16_t won = 11, lost = 500;
    /* 11 is Red's when Red moves: a won input for the side to move. */
    /* sigmoid(2 s / 10) = 0.9 at s = 5 ln 9 = 10.99 pawns */
    assert_true(fabs(net_forward(a, &won, 1, NULL) - 10.99) < 0.5);
    assert_true(fabs(net_forward(a, &lost, 1, NULL) + 10.99) < 0.5);
    assert_int_equal(net_fit(&d, w, b, &o, &r2, &err), 0);
    assert_memory_equal(a->w1, b->w1, (size_t)a->ninputs * 16 * sizeof(float));
    assert_true(r.valid_loss == r2.valid_loss);
    /* Rows without network inputs are refused. */
    uint64_t *keep = d.net_first;
    d.net_first = NULL;
    assert_int_equal(net_fit(&d, w, b, &o, &r2, &err), -1);
    assert_non_null(strstr(err.message, "without network inputs"));
    d.net_first = keep;
    net_free(a);
    net_free(b);
    tune_data_free(&d);
    variant_free(v);
}

/* A weights text copied to another folder names its network so that it still loads: unchanged
 * beside the network, the absolute path elsewhere (also in a folder not made yet); every other
 * byte kept; a network that cannot be found is an error. */
static void weights_text_follows_the_network(void **state)
{
    (void)state;
    char net_path[128], from[128], other[128], beside[128], later[160], real[4096];
    snprintf(net_path, sizeof net_path, "%s/c.net", dir);
    write_file(net_path, "x", 1);
    assert_non_null(realpath(net_path, real));
    snprintf(from, sizeof from, "%s/w.ini", dir);
    snprintf(beside, sizeof beside, "%s/copy.ini", dir);
    snprintf(other, sizeof other, "%s/sub", dir);
    assert_int_equal(mkdir(other, 0755), 0);
    snprintf(other, sizeof other, "%s/sub/w.ini", dir);
    snprintf(later, sizeof later, "%s/not-yet/w.ini", dir);
    const char *text = "; comment\n[weights]\nmaterial.pawn = 1\n\n[net]\nfile = c.net   ; here\nchecksum = 0123456789abcdef\n";
    XqError err;
    char *same = weights_text_moved(text, from, beside, &err);
    assert_non_null(same);
    assert_string_equal(same, text);
    free(same);
    char want[4300];
    snprintf(want, sizeof want, "; comment\n[weights]\nmaterial.pawn = 1\n\n[net]\nfile = %s\nchecksum = 0123456789abcdef\n", real);
    const char *targets[2] = {other, later};
    for (int i = 0; i < 2; i++) {
        char *moved = weights_text_moved(text, from, targets[i], &err);
        assert_non_null(moved);
        assert_string_equal(moved, want);
        free(moved);
    }
    /* No network, or an absolute one: the text as it is. */
    char *plain = weights_text_moved("[weights]\nmaterial.pawn = 1\n", from, other, &err);
    assert_string_equal(plain, "[weights]\nmaterial.pawn = 1\n");
    free(plain);
    const char *gone = "[weights]\n[net]\nfile = gone.net\n";
    assert_null(weights_text_moved(gone, from, other, &err));
    assert_non_null(strstr(err.message, "cannot be found"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/xq-net-test-%ld", (long)getpid());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inputs_of_a_hand_made_position),
        cmocka_unit_test(start_position_looks_the_same_to_both_sides),
        cmocka_unit_test(forward_pass_by_hand),
        cmocka_unit_test(remembered_sums_match_a_fresh_start),
        cmocka_unit_test(file_round_trip_and_refusals),
        cmocka_unit_test(weights_file_names_the_network),
        cmocka_unit_test(fit_learns_a_known_answer),
        cmocka_unit_test(weights_text_follows_the_network),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
