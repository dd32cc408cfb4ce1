/* openings.c - the opening tree: lines to a fixed depth with results, shares and entropy. */
#include "openings.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "notation.h"

static int new_node(OpeningTree *t, int parent, Move m, const char *text)
{
    if (t->count == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        OpeningNode *n = realloc(t->nodes, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        t->nodes = n;
        t->cap = cap;
    }
    int id = t->count++;
    OpeningNode *n = &t->nodes[id];
    memset(n, 0, sizeof *n);
    n->move = m;
    snprintf(n->text, sizeof n->text, "%s", text);
    n->parent = parent;
    n->first_child = n->next_sibling = -1;
    if (parent >= 0) {
        OpeningNode *p = &t->nodes[parent];
        n->depth = p->depth + 1;
        n->next_sibling = p->first_child;
        p->first_child = id;
    }
    return id;
}

int openings_init(OpeningTree *t, const Variant *v, int depth)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    t->depth = depth;
    t->wxf = notation_wxf_default(v);
    t->pos = malloc(sizeof *t->pos);
    if (!t->pos || new_node(t, -1, XQ_MOVE_NONE, "") < 0) {
        openings_free(t);
        return -1;
    }
    return 0;
}

void openings_free(OpeningTree *t)
{
    free(t->nodes);
    free(t->pos);
    memset(t, 0, sizeof *t);
}

static void wdl_add_red(Wdl *w, int result)
{
    if (result > 0)
        w->wins++;
    else if (result < 0)
        w->losses++;
    else
        w->draws++;
}

static int fail(XqError *err, const GameRecord *g, int ply, const char *what, const char *detail)
{
    err->file[0] = '\0';
    err->line = 0;
    snprintf(err->message, sizeof err->message, "game index %" PRIu64 ", ply %d: %.100s%.120s", g->index, ply, what, detail);
    return -1;
}

int openings_add_game(OpeningTree *t, const GameRecord *g, XqError *err)
{
    if (g->result < -1 || g->result > 1) {
        t->unknown_result++;
        return 0;
    }
    const char *fen = g->start_fen[0] ? g->start_fen : t->v->start_fen;
    if (!t->root_fen[0])
        snprintf(t->root_fen, sizeof t->root_fen, "%s", fen);
    else if (strcmp(fen, t->root_fen)) {
        t->other_start++;
        return 0;
    }
    Position *pos = t->pos;
    XqError fen_err;
    if (pos_set_fen(pos, t->v, fen, &fen_err) < 0)
        return fail(err, g, 0, "bad start FEN: ", fen_err.message);
    int node = 0;
    wdl_add_red(&t->nodes[0].red, g->result);
    MoveList list;
    Undo undo;
    HiddenDeal deal;
    if (g->has_deal)
        memcpy(deal.id, g->deal, sizeof deal.id);
    for (int ply = 0; ply < t->depth && ply < g->nmoves; ply++) {
        Move m = g->moves[ply];
        /* Hidden pieces: a line is what the players chose; the identity a reveal turned up is
         * the deal's luck, so the tree keys a reveal by its undrawn move ("a3a4?"). Games that
         * share a line may then stand in different positions: every move is checked. */
        Move key = hidden_on(t->v) && XQ_MOVE_FLAGS(m) == XQ_FLAG_REVEAL ? m & 0xff00ffffu : m;
        int n = pos_generate_legal(pos, &list);
        bool legal = false;
        for (int i = 0; i < n && !legal; i++)
            legal = hidden_same_move(pos, list.moves[i], m, g->has_deal ? &deal : NULL);
        char text[32];
        if (!legal) {
            move_to_iccs(t->v, m, text);
            return fail(err, g, ply, "recorded move is not legal in the replayed position: ", text);
        }
        int child = t->nodes[node].first_child;
        while (child >= 0 && t->nodes[child].move != key)
            child = t->nodes[child].next_sibling;
        if (child < 0) {
            /* New line: name it. */
            move_to_iccs(t->v, key, text);
            if (t->wxf) {
                char wxf[16];
                if (move_to_wxf(pos, m, wxf) == 0)
                    snprintf(text, sizeof text, "%s", wxf);
            }
            child = new_node(t, node, key, text);
            if (child < 0)
                return fail(err, g, ply, "out of memory", "");
        }
        node = child;
        wdl_add_red(&t->nodes[node].red, g->result);
        pos_do_move(pos, m, &undo);
    }
    return 0;
}

uint64_t openings_games(const OpeningTree *t, int node)
{
    return wdl_games(&t->nodes[node].red);
}

double openings_share(const OpeningTree *t, int node)
{
    int parent = t->nodes[node].parent;
    if (parent < 0)
        return 1.0;
    uint64_t total = openings_games(t, parent);
    return total ? (double)openings_games(t, node) / (double)total : 0.0;
}

double openings_child_entropy(const OpeningTree *t, int node)
{
    int n = 0;
    for (int c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
        n++;
    if (!n)
        return 0;
    uint64_t *counts = malloc((size_t)n * sizeof *counts);
    if (!counts)
        return 0;
    int i = 0;
    for (int c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
        counts[i++] = openings_games(t, c);
    double h = stats_entropy_bits(counts, (size_t)n);
    free(counts);
    return h;
}

/* A child as sorted: its games and move text travel with it, so the comparison needs no tree. */
typedef struct ChildKey {
    uint64_t games;
    const char *text;
    int id;
} ChildKey;

static int by_games(const void *a, const void *b)
{
    const ChildKey *x = a, *y = b;
    if (x->games != y->games)
        return x->games < y->games ? 1 : -1;
    return strcmp(x->text, y->text);
}

int openings_finish(OpeningTree *t)
{
    ChildKey *keys = malloc((size_t)(t->count ? t->count : 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (int node = 0; node < t->count; node++) {
        int n = 0;
        for (int c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
            keys[n++] = (ChildKey){openings_games(t, c), t->nodes[c].text, c};
        if (n < 2)
            continue;
        qsort(keys, (size_t)n, sizeof *keys, by_games);
        t->nodes[node].first_child = keys[0].id;
        for (int i = 0; i < n; i++)
            t->nodes[keys[i].id].next_sibling = i + 1 < n ? keys[i + 1].id : -1;
    }
    free(keys);
    return 0;
}

void openings_line_text(const OpeningTree *t, int node, char *buf, size_t size)
{
    int path[256], n = 0;
    for (int x = node; x > 0 && n < 256; x = t->nodes[x].parent)
        path[n++] = x;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = n - 1; i >= 0 && used < size; i--)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i == n - 1 ? "" : " ", t->nodes[path[i]].text);
}
