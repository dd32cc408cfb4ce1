/* net.c - the network's file, its inputs and its forward pass. */
#include "net.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char NET_MAGIC[8] = {'X', 'Q', 'L', 'A', 'B', 'N', 'E', 'T'};
enum { NET_VERSION = 1, NET_HEADER = 8 + 5 * 4 + 32 };

static void set_error(XqError *err, const char *file, const char *fmt, const char *detail)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%.500s", file);
    err->line = 0;
    snprintf(err->message, sizeof err->message, fmt, detail);
}

/* FNV-1a, 64 bits. */
static uint64_t fnv1a(const unsigned char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint32_t net_pieces_signature(const Variant *v)
{
    char text[XQ_MAX_KINDS * 40 + 64];
    size_t used = (size_t)snprintf(text, sizeof text, "%dx%d:", v->files, v->ranks);
    for (int k = 0; k < v->nkinds && used < sizeof text; k++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s,", v->kinds[k].name);
    uint64_t h = fnv1a((const unsigned char *)text, used < sizeof text ? used : sizeof text - 1);
    return (uint32_t)(h ^ (h >> 32));
}

static Net *alloc_net(const char *name, int nkinds, int npoints, uint32_t pieces, int hidden, XqError *err)
{
    if (hidden <= 0 || hidden % NET_BLOCK != 0 || hidden > NET_MAX_HIDDEN) {
        char what[64];
        snprintf(what, sizeof what, "%d", hidden);
        set_error(err, "net", "hidden width %s: expected a multiple of 16 from 16 to 256", what);
        return NULL;
    }
    Net *n = calloc(1, sizeof *n);
    if (!n) {
        set_error(err, "net", "%s", "out of memory");
        return NULL;
    }
    snprintf(n->variant, sizeof n->variant, "%s", name);
    n->nkinds = nkinds;
    n->npoints = npoints;
    n->pieces = pieces;
    n->hidden = hidden;
    n->ninputs = 2 * nkinds * npoints;
    n->w1 = calloc((size_t)n->ninputs * (size_t)hidden, sizeof *n->w1);
    n->b1 = calloc((size_t)hidden, sizeof *n->b1);
    n->w2 = calloc((size_t)hidden, sizeof *n->w2);
    n->q1 = calloc((size_t)n->ninputs * (size_t)hidden, sizeof *n->q1);
    n->qb1 = calloc((size_t)hidden, sizeof *n->qb1);
    if (!n->w1 || !n->b1 || !n->w2 || !n->q1 || !n->qb1) {
        net_free(n);
        set_error(err, "net", "%s", "out of memory");
        return NULL;
    }
    return n;
}

Net *net_create(const Variant *v, int hidden, XqError *err)
{
    return alloc_net(v->name, v->nkinds, v->npoints, net_pieces_signature(v), hidden, err);
}

bool net_fits(const Net *n, const Variant *v)
{
    return n->nkinds == v->nkinds && n->npoints == v->npoints && n->pieces == net_pieces_signature(v);
}

void net_free(Net *n)
{
    if (!n)
        return;
    free(n->w1);
    free(n->b1);
    free(n->w2);
    free(n->q1);
    free(n->qb1);
    free(n);
}

static atomic_uint_fast64_t net_serials;

static int32_t quantize(float w)
{
    if (w > NET_MAX_WEIGHT)
        w = NET_MAX_WEIGHT;
    if (w < -NET_MAX_WEIGHT)
        w = -NET_MAX_WEIGHT;
    return (int32_t)lrintf(w * (float)NET_SCALE);
}

void net_prepare(Net *n)
{
    size_t nw1 = (size_t)n->ninputs * (size_t)n->hidden;
    for (size_t i = 0; i < nw1; i++)
        n->q1[i] = quantize(n->w1[i]);
    for (int j = 0; j < n->hidden; j++)
        n->qb1[j] = quantize(n->b1[j]);
    n->serial = atomic_fetch_add(&net_serials, 1) + 1;
}

/* The index in file order of the first input weight or bias beyond NET_MAX_WEIGHT, or -1. */
static long weight_out_of_range(const Net *n)
{
    size_t nw1 = (size_t)n->ninputs * (size_t)n->hidden;
    for (size_t i = 0; i < nw1 + (size_t)n->hidden; i++) {
        float w = i < nw1 ? n->w1[i] : n->b1[i - nw1];
        if (w > NET_MAX_WEIGHT || w < -NET_MAX_WEIGHT)
            return (long)i;
    }
    return -1;
}

/* Little-endian fields, whatever the host. */
static void put_u32(unsigned char *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_f32(unsigned char *p, float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    put_u32(p, x);
}

static float get_f32(const unsigned char *p)
{
    uint32_t x = get_u32(p);
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static size_t net_params(const Net *n)
{
    return (size_t)n->ninputs * (size_t)n->hidden + 2 * (size_t)n->hidden + 1;
}

/* The parameters in file order. */
static float *param_at(const Net *n, size_t i)
{
    size_t nw1 = (size_t)n->ninputs * (size_t)n->hidden;
    if (i < nw1)
        return &n->w1[i];
    i -= nw1;
    if (i < (size_t)n->hidden)
        return &n->b1[i];
    i -= (size_t)n->hidden;
    if (i < (size_t)n->hidden)
        return &n->w2[i];
    return (float *)&n->b2;
}

Net *net_load(const char *path, XqError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_error(err, path, "cannot open the network file: %s", strerror(errno));
        return NULL;
    }
    /* The largest network there can be, plus one byte: anything longer (a device, a wrong file
     * of any size) is refused without reading it all. */
    const size_t max_len = NET_HEADER +
                           4 * ((size_t)2 * XQ_MAX_KINDS * XQ_MAX_POINTS * NET_MAX_HIDDEN + 2 * NET_MAX_HIDDEN + 1) + 8;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len > max_len) {
            free(buf);
            fclose(f);
            set_error(err, path, "%s", "not an xqlab network file (larger than any network)");
            return NULL;
        }
        if (len == cap) {
            size_t ncap = cap ? 2 * cap : 1 << 16;
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                set_error(err, path, "%s", "out of memory");
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    bool read_error = ferror(f);
    fclose(f);
    Net *n = NULL;
    char detail[160];
    if (read_error) {
        set_error(err, path, "%s", "read error");
        goto done;
    }
    if (len < NET_HEADER + 8 || memcmp(buf, NET_MAGIC, sizeof NET_MAGIC) != 0) {
        set_error(err, path, "%s", "not an xqlab network file (no XQLABNET header)");
        goto done;
    }
    uint32_t version = get_u32(buf + 8), hidden = get_u32(buf + 12);
    uint32_t nkinds = get_u32(buf + 16), npoints = get_u32(buf + 20), pieces = get_u32(buf + 24);
    char name[33];
    memcpy(name, buf + 28, 32);
    name[32] = '\0';
    if (version != NET_VERSION) {
        snprintf(detail, sizeof detail, "%u", version);
        set_error(err, path, "network file version %s: this build reads version 1", detail);
        goto done;
    }
    if (nkinds == 0 || nkinds > XQ_MAX_KINDS || npoints == 0 || npoints > XQ_MAX_POINTS) {
        snprintf(detail, sizeof detail, "%u kinds on %u points", nkinds, npoints);
        set_error(err, path, "not an xqlab network file (%s)", detail);
        goto done;
    }
    n = alloc_net(name, (int)nkinds, (int)npoints, pieces, (int)hidden, err);
    if (!n) {
        if (err)
            snprintf(err->file, sizeof err->file, "%s", path);
        goto done;
    }
    size_t np = net_params(n);
    if (len != NET_HEADER + 4 * np + 8) {
        snprintf(detail, sizeof detail, "%zu bytes, expected %zu for %d hidden units", len,
                 NET_HEADER + 4 * np + 8, n->hidden);
        set_error(err, path, "truncated or padded network file: %s", detail);
        goto fail;
    }
    uint64_t stored = (uint64_t)get_u32(buf + len - 8) | (uint64_t)get_u32(buf + len - 4) << 32;
    if (fnv1a(buf, len - 8) != stored) {
        set_error(err, path, "%s", "checksum mismatch: the network file is damaged");
        goto fail;
    }
    for (size_t i = 0; i < np; i++) {
        float x = get_f32(buf + NET_HEADER + 4 * i);
        if (!isfinite(x)) {
            snprintf(detail, sizeof detail, "%zu", i);
            set_error(err, path, "weight %s is not a finite number", detail);
            goto fail;
        }
        *param_at(n, i) = x;
    }
    long far = weight_out_of_range(n);
    if (far >= 0) {
        snprintf(detail, sizeof detail, "%ld", far);
        set_error(err, path, "weight %s is beyond +-1024: not a network this build plays", detail);
        goto fail;
    }
    n->checksum = stored;
    net_prepare(n);
    goto done;
fail:
    net_free(n);
    n = NULL;
done:
    free(buf);
    return n;
}

int net_write(Net *n, FILE *f, const char *name, XqError *err)
{
    long far = weight_out_of_range(n);
    if (far >= 0) {
        char detail[32];
        snprintf(detail, sizeof detail, "%ld", far);
        set_error(err, name, "weight %s is beyond +-1024: not written", detail);
        return -1;
    }
    net_prepare(n);
    size_t np = net_params(n);
    size_t len = NET_HEADER + 4 * np + 8;
    unsigned char *buf = calloc(1, len);
    if (!buf) {
        set_error(err, name, "%s", "out of memory");
        return -1;
    }
    memcpy(buf, NET_MAGIC, sizeof NET_MAGIC);
    put_u32(buf + 8, NET_VERSION);
    put_u32(buf + 12, (uint32_t)n->hidden);
    put_u32(buf + 16, (uint32_t)n->nkinds);
    put_u32(buf + 20, (uint32_t)n->npoints);
    put_u32(buf + 24, n->pieces);
    memcpy(buf + 28, n->variant, strnlen(n->variant, 32));
    for (size_t i = 0; i < np; i++)
        put_f32(buf + NET_HEADER + 4 * i, *param_at(n, i));
    uint64_t sum = fnv1a(buf, len - 8);
    put_u32(buf + len - 8, (uint32_t)sum);
    put_u32(buf + len - 4, (uint32_t)(sum >> 32));
    int rc = 0;
    if (fwrite(buf, 1, len, f) != len) {
        set_error(err, name, "write failed: %s", strerror(errno));
        rc = -1;
    } else {
        n->checksum = sum;
    }
    free(buf);
    return rc;
}

/* The input that the piece pc on p switches on in the view of `view` (the side to move): whose
 * piece (0: the viewer's), its kind, its point (mirrored in Black's view). */
static inline int input_index(const Variant *v, int view, Piece pc, Point p)
{
    int whose = XQ_PIECE_SIDE(pc) == (Side)view ? 0 : 1;
    int q = view == RED ? p : v->mirror[p];
    return (whose * v->nkinds + XQ_PIECE_KIND(pc)) * v->npoints + q;
}

int net_inputs(const Variant *v, const Position *pos, uint16_t *out)
{
    int count = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            out[count++] = (uint16_t)input_index(v, pos->side, pos->board[p], p);
        }
    return count;
}

/* The output from the hidden values before clamping (pawns, side to move). */
static float output_of(const Net *n, const float *h)
{
    float out = n->b2;
    for (int j = 0; j < n->hidden; j += NET_BLOCK) {
        float part = 0;
        for (int b = 0; b < NET_BLOCK; b++) {
            float x = h[j + b];
            x = x < 0 ? 0 : x > 1 ? 1 : x;
            part += n->w2[j + b] * x;
        }
        out += part;
    }
    return out;
}

/* Four floats in one SSE register (GCC and Clang vector extension), loaded from any float
 * address (aligned 4, and may alias the floats it is read from). */
typedef float Float4 __attribute__((vector_size(16), aligned(4), may_alias));

/* Hidden units [j, j + 4 * W) summed over the inputs, kept in W registers across the inputs. The
 * additions are per unit in input order, as a plain loop would do them: the same bits. */
#define NET_SUM_BLOCK(W)                                                                          \
    do {                                                                                          \
        Float4 acc[W];                                                                            \
        for (int v = 0; v < W; v++)                                                               \
            acc[v] = *(const Float4 *)&n->b1[j + 4 * v];                                          \
        for (int k = 0; k < count; k++) {                                                         \
            const float *row = &n->w1[(size_t)in[k] * (size_t)hidden + (size_t)j];                 \
            for (int v = 0; v < W; v++)                                                           \
                acc[v] += *(const Float4 *)&row[4 * v];                                           \
        }                                                                                         \
        for (int v = 0; v < W; v++)                                                               \
            *(Float4 *)&h[j + 4 * v] = acc[v];                                                    \
    } while (0)

double net_forward(const Net *n, const uint16_t *in, int count, float *act)
{
    float h[NET_MAX_HIDDEN];
    int hidden = n->hidden, j = 0;
    for (; j + 32 <= hidden; j += 32)
        NET_SUM_BLOCK(8);
    for (; j < hidden; j += NET_BLOCK)
        NET_SUM_BLOCK(4);
    float out = output_of(n, h);
    if (act)
        memcpy(act, h, (size_t)hidden * sizeof *h);
    return out;
}

/* Four 32-bit integers in one SSE register, loaded from any int32_t address. */
typedef int32_t Int4 __attribute__((vector_size(16), aligned(4), may_alias));

/* sum += row (sign +1) or sum -= row (sign -1), hidden entries (a multiple of NET_BLOCK). */
static inline void add_row(int32_t *sum, const int32_t *row, int hidden, int sign)
{
    if (sign > 0)
        for (int j = 0; j < hidden; j += 4)
            *(Int4 *)&sum[j] += *(const Int4 *)&row[j];
    else
        for (int j = 0; j < hidden; j += 4)
            *(Int4 *)&sum[j] -= *(const Int4 *)&row[j];
}

/* The row of q1 that the piece pc on p switches on in the view of `view`. */
static inline const int32_t *view_row(const Net *n, const Variant *v, int view, Piece pc, Point p)
{
    return &n->q1[(size_t)input_index(v, view, pc, p) * (size_t)n->hidden];
}

/* What a thread remembers of the last position it scored (net_score). */
typedef struct NetSums {
    uint64_t serial;                  /* of the network (0: nothing remembered) */
    Piece board[256];                 /* that position's board */
    int32_t sum[2][NET_MAX_HIDDEN];   /* its hidden sums in Red's and in Black's view */
} NetSums;

static _Thread_local NetSums last;

enum { NET_MAX_CHANGED = 16 }; /* more changed points than this: the sums start afresh */

void net_forget(void)
{
    last.serial = 0;
}

double net_score(const Net *n, const Position *pos)
{
    const Variant *v = pos->v;
    int np = n->npoints, hidden = n->hidden;
    Point changed[NET_MAX_CHANGED];
    int nchanged = 0;
    bool fresh = last.serial != n->serial;
    if (!fresh) {
        for (int p = 0; p < np; p += 8) {
            uint64_t a, b;
            memcpy(&a, &pos->board[p], 8);
            memcpy(&b, &last.board[p], 8);
            if (a == b)
                continue;
            for (int q = p; q < p + 8 && q < np; q++)
                if (pos->board[q] != last.board[q]) {
                    if (nchanged == NET_MAX_CHANGED) {
                        fresh = true;
                        break;
                    }
                    changed[nchanged++] = (Point)q;
                }
            if (fresh)
                break;
        }
    }
    if (fresh) {
        for (int view = 0; view < 2; view++) {
            memcpy(last.sum[view], n->qb1, (size_t)hidden * sizeof *n->qb1);
            for (int p = 0; p < np; p++)
                if (pos->board[p] != XQ_EMPTY)
                    add_row(last.sum[view], view_row(n, v, view, pos->board[p], (Point)p), hidden, 1);
        }
        memcpy(last.board, pos->board, sizeof last.board);
        last.serial = n->serial;
    } else {
        for (int i = 0; i < nchanged; i++) {
            Point p = changed[i];
            Piece was = last.board[p], now = pos->board[p];
            for (int view = 0; view < 2; view++) {
                if (was != XQ_EMPTY)
                    add_row(last.sum[view], view_row(n, v, view, was, p), hidden, -1);
                if (now != XQ_EMPTY)
                    add_row(last.sum[view], view_row(n, v, view, now, p), hidden, 1);
            }
            last.board[p] = now;
        }
    }
    /* The output layer as output_of computes it, fused with the conversion from the integer
     * sums (a separate pass costs 6% of an evaluation). */
    const int32_t *h = last.sum[pos->side];
    const float inv = 1.0f / (float)NET_SCALE;
    float out = n->b2;
    for (int j = 0; j < hidden; j += NET_BLOCK) {
        float part = 0;
        for (int b = 0; b < NET_BLOCK; b++) {
            float x = (float)h[j + b] * inv;
            x = x < 0 ? 0 : x > 1 ? 1 : x;
            part += n->w2[j + b] * x;
        }
        out += part;
    }
    return out;
}
