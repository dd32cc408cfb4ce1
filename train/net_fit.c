/* net_fit.c - Adam on mini-batches for the evaluation's network, the linear weights held. */
#include "net_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void set_error(XqError *err, const char *msg)
{
    snprintf(err->file, sizeof err->file, "tune --net");
    err->line = 0;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

/* splitmix64: initial weights and the shuffles. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state) { return (double)(next_random(state) >> 11) * 0x1.0p-53; }

static double softplus(double z) { return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z)); }

/* Cross-entropy of target y against sigmoid(z). */
static double cross_entropy(double y, double z) { return softplus(z) - y * z; }

/* The network's output for row i, Red's view. */
static double row_net(const TuneData *d, const Net *n, uint64_t i, float *act)
{
    uint64_t a = d->net_first[i], b = d->net_first[i + 1];
    double out = net_forward(n, &d->net_in[a], (int)(b - a), act);
    return d->net_side[i] == RED ? out : -out;
}

/* Mean loss over rows [begin, end) with `lin` the linear scores. */
static double mean_loss(const TuneData *d, const Net *n, const float *lin, uint64_t begin, uint64_t end,
                        double k)
{
    double sum = 0;
    for (uint64_t i = begin; i < end; i++)
        sum += cross_entropy(d->y[i], k * (lin[i] + row_net(d, n, i, NULL)));
    return end > begin ? sum / (double)(end - begin) : 0;
}

typedef struct Params {
    size_t count;
    float *value[4]; /* w1, b1, w2, &b2 */
    size_t len[4];
} Params;

static void params_of(Net *n, Params *p)
{
    p->value[0] = n->w1;
    p->len[0] = (size_t)n->ninputs * (size_t)n->hidden;
    p->value[1] = n->b1;
    p->len[1] = (size_t)n->hidden;
    p->value[2] = n->w2;
    p->len[2] = (size_t)n->hidden;
    p->value[3] = &n->b2;
    p->len[3] = 1;
    p->count = p->len[0] + p->len[1] + p->len[2] + p->len[3];
}

int net_fit(const TuneData *d, const double *w, Net *n, const NetFitOptions *o, NetFitResult *r,
            XqError *err)
{
    memset(r, 0, sizeof *r);
    if (!d->net_first) {
        set_error(err, "the rows were loaded without network inputs");
        return -1;
    }
    if (d->ntrain == 0) {
        set_error(err, "no training positions");
        return -1;
    }
    const double k = 2.0 / o->eval_scale;
    const int hidden = n->hidden;
    Params p;
    params_of(n, &p);
    float *lin = malloc((d->nrows ? d->nrows : 1) * sizeof *lin);
    uint64_t *order = malloc(d->ntrain * sizeof *order);
    float *grad = calloc(p.count, sizeof *grad);
    float *m1 = calloc(p.count, sizeof *m1);
    float *m2 = calloc(p.count, sizeof *m2);
    float *best = malloc(p.count * sizeof *best);
    int rc = -1;
    if (!lin || !order || !grad || !m1 || !m2 || !best) {
        set_error(err, "out of memory");
        goto done;
    }
    for (uint64_t i = 0; i < d->nrows; i++)
        lin[i] = (float)tune_row_score(d, i, w);
    for (uint64_t i = 0; i < d->ntrain; i++)
        order[i] = i;

    /* Start: small random input weights around a half-open hidden unit, small output weights,
     * so the network begins near 0 and every unit starts inside its linear range. */
    uint64_t rng = o->seed ^ 0x6e65745f666974ull;
    double spread = 0.5 / sqrt((double)NET_MAX_ACTIVE / 2);
    for (size_t i = 0; i < p.len[0]; i++)
        n->w1[i] = (float)((2 * uniform(&rng) - 1) * spread);
    for (int j = 0; j < hidden; j++) {
        n->b1[j] = 0.5f;
        n->w2[j] = (float)((2 * uniform(&rng) - 1) * 0.05);
    }
    n->b2 = 0;

    /* The linear weights alone (a network of zeros) for the start losses. */
    bool have_valid = d->nrows > d->ntrain;
    double sum = 0;
    for (uint64_t i = 0; i < d->ntrain; i++)
        sum += cross_entropy(d->y[i], k * lin[i]);
    r->start_train_loss = sum / (double)d->ntrain;
    sum = 0;
    for (uint64_t i = d->ntrain; i < d->nrows; i++)
        sum += cross_entropy(d->y[i], k * lin[i]);
    r->start_valid_loss = have_valid ? sum / (double)(d->nrows - d->ntrain) : 0;
    double best_loss = have_valid ? r->start_valid_loss : r->start_train_loss;
    /* The kept network starts as "none": zero output. */
    memset(best, 0, p.count * sizeof *best);
    r->best_epoch = 0;

    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    double rate = o->rate;
    long step = 0;
    float act[NET_MAX_HIDDEN], back[NET_MAX_HIDDEN];
    r->stop_reason = "epoch limit";
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        for (uint64_t i = d->ntrain; i > 1; i--) {
            uint64_t j = next_random(&rng) % i;
            uint64_t t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        double train_sum = 0;
        for (uint64_t start = 0; start < d->ntrain; start += (uint64_t)o->batch) {
            uint64_t end = start + (uint64_t)o->batch < d->ntrain ? start + (uint64_t)o->batch : d->ntrain;
            memset(grad, 0, p.count * sizeof *grad);
            float *g_w1 = grad, *g_b1 = grad + p.len[0], *g_w2 = g_b1 + hidden, *g_b2 = g_w2 + hidden;
            double scale = 1.0 / (double)(end - start);
            for (uint64_t b = start; b < end; b++) {
                uint64_t i = order[b];
                double out = row_net(d, n, i, act);
                double z = k * (lin[i] + out);
                train_sum += cross_entropy(d->y[i], z);
                double prob = 1.0 / (1.0 + exp(-z));
                /* dLoss/d(network output, side to move's view). */
                double dout = (prob - d->y[i]) * k * (d->net_side[i] == RED ? 1.0 : -1.0) * scale;
                *g_b2 += (float)dout;
                for (int j = 0; j < hidden; j++) {
                    float a = act[j];
                    bool open = a > 0 && a < 1;
                    g_w2[j] += (float)(dout * (a < 0 ? 0 : a > 1 ? 1 : a));
                    back[j] = open ? (float)(dout * n->w2[j]) : 0.0f;
                    g_b1[j] += back[j];
                }
                for (uint64_t q = d->net_first[i]; q < d->net_first[i + 1]; q++) {
                    float *row = &g_w1[(size_t)d->net_in[q] * (size_t)hidden];
                    for (int j = 0; j < hidden; j++)
                        row[j] += back[j];
                }
            }
            step++;
            double c1 = 1 - pow(beta1, (double)step), c2 = 1 - pow(beta2, (double)step);
            size_t at = 0;
            for (int part = 0; part < 4; part++) {
                bool decay = part == 0 || part == 2;
                for (size_t q = 0; q < p.len[part]; q++, at++) {
                    float *x = &p.value[part][q];
                    double g = grad[at] + (decay ? o->l2 * *x : 0);
                    m1[at] = (float)(beta1 * m1[at] + (1 - beta1) * g);
                    m2[at] = (float)(beta2 * m2[at] + (1 - beta2) * g * g);
                    *x -= (float)(rate * (m1[at] / c1) / (sqrt(m2[at] / c2) + eps));
                }
            }
        }
        rate *= o->decay;
        r->epochs = epoch;
        double train_loss = train_sum / (double)d->ntrain;
        double valid = have_valid ? mean_loss(d, n, lin, d->ntrain, d->nrows, k) : train_loss;
        if (o->log)
            fprintf(o->log, "epoch %3d  train %.6f  validation %.6f%s\n", epoch, train_loss,
                    have_valid ? valid : NAN, valid < best_loss ? "  (best)" : "");
        if (valid < best_loss) {
            best_loss = valid;
            r->best_epoch = epoch;
            size_t q = 0;
            for (int part = 0; part < 4; part++)
                for (size_t i = 0; i < p.len[part]; i++)
                    best[q++] = p.value[part][i];
        } else if (epoch - r->best_epoch >= o->patience) {
            r->stop_reason = "no better validation loss";
            break;
        }
    }
    size_t q = 0;
    for (int part = 0; part < 4; part++)
        for (size_t i = 0; i < p.len[part]; i++)
            p.value[part][i] = best[q++];
    r->train_loss = mean_loss(d, n, lin, 0, d->ntrain, k);
    r->valid_loss = have_valid ? mean_loss(d, n, lin, d->ntrain, d->nrows, k) : 0;
    rc = 0;
done:
    free(lin);
    free(order);
    free(grad);
    free(m1);
    free(m2);
    free(best);
    return rc;
}
