/* balance.c - the balance card: results, draws by kind, lengths, terminations, special-rule use
 * and branching by ply, from game records replayed with the rules core; seat, colour and
 * paired-deal results for the hidden-piece rule sets (RULES.md 2-5). */
#include "balance.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "notation.h"
#include "special_moves.h"

int balance_init(BalanceCard *c, const Variant *v)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->pos = malloc(sizeof *c->pos);
    return c->pos ? 0 : -1;
}

void balance_free(BalanceCard *c)
{
    free(c->lengths);
    free(c->length_outcomes);
    free(c->branch_moves);
    free(c->branch_positions);
    free(c->pos);
    memset(c, 0, sizeof *c);
}

static int replay_fail(XqError *err, const GameRecord *g, const char *what, int ply, const char *detail)
{
    err->file[0] = '\0';
    err->line = 0;
    snprintf(err->message, sizeof err->message, "game index %" PRIu64 ", ply %d: %.100s%.120s", g->index, ply, what, detail);
    return -1;
}

static int grow_branching(BalanceCard *c, int plies)
{
    if (plies <= c->cap_branch)
        return 0;
    int cap = c->cap_branch ? c->cap_branch : 256;
    while (cap < plies)
        cap *= 2;
    uint64_t *m = realloc(c->branch_moves, (size_t)cap * sizeof *m);
    if (!m)
        return -1;
    c->branch_moves = m;
    uint64_t *p = realloc(c->branch_positions, (size_t)cap * sizeof *p);
    if (!p)
        return -1;
    c->branch_positions = p;
    memset(c->branch_moves + c->cap_branch, 0, (size_t)(cap - c->cap_branch) * sizeof *m);
    memset(c->branch_positions + c->cap_branch, 0, (size_t)(cap - c->cap_branch) * sizeof *p);
    c->cap_branch = cap;
    return 0;
}

static SpecialUse *special_slot(BalanceCard *c, uint8_t kind)
{
    for (int i = 0; i < c->nspecial; i++)
        if (c->special[i].kind == kind)
            return &c->special[i];
    if (c->nspecial == BALANCE_MAX_SPECIAL)
        return NULL;
    SpecialUse *u = &c->special[c->nspecial++];
    memset(u, 0, sizeof *u);
    u->kind = kind;
    return u;
}

/* Adds one game's result to w, seen from `side`. */
static void wdl_add(Wdl *w, int red_result, Side side)
{
    int r = side == RED ? red_result : -red_result;
    if (r > 0)
        w->wins++;
    else if (r < 0)
        w->losses++;
    else
        w->draws++;
}

int balance_add_game(BalanceCard *c, const GameRecord *g, XqError *err)
{
    if (g->nmoves >= XQ_MAX_HISTORY)
        return replay_fail(err, g, "too many moves to replay", g->nmoves, "");
    Position *pos = c->pos;
    if (g->start_fen[0]) {
        XqError fen_err;
        if (pos_set_fen(pos, c->v, g->start_fen, &fen_err) < 0)
            return replay_fail(err, g, "bad start FEN: ", 0, fen_err.message);
    } else {
        pos_init_start(pos, c->v);
    }
    if (grow_branching(c, g->nmoves) < 0)
        return replay_fail(err, g, "out of memory", 0, "");
    /* Per kind and side: was it played in this game. */
    uint8_t used[BALANCE_MAX_SPECIAL][2];
    memset(used, 0, sizeof used);
    HiddenDeal deal;
    if (g->has_deal)
        memcpy(deal.id, g->deal, sizeof deal.id);
    MoveList list;
    Undo undo;
    for (int ply = 0; ply < g->nmoves; ply++) {
        Move m = g->moves[ply];
        int n = pos_generate_legal(pos, &list);
        bool legal = false;
        for (int i = 0; i < n && !legal; i++)
            legal = hidden_same_move(pos, list.moves[i], m, g->has_deal ? &deal : NULL);
        if (!legal) {
            char text[32];
            move_to_iccs(c->v, m, text);
            return replay_fail(err, g, "recorded move is not legal in the replayed position: ", ply, text);
        }
        c->branch_moves[ply] += (uint64_t)n;
        c->branch_positions[ply]++;
        uint8_t kind = special_kind_of(m);
        if (kind) {
            SpecialUse *u = special_slot(c, kind);
            if (u) {
                u->moves++;
                u->moves_by[pos->side]++;
                used[u - c->special][pos->side] = 1;
            }
        }
        pos_do_move(pos, m, &undo);
    }
    if (g->nmoves > c->branch_plies)
        c->branch_plies = g->nmoves;

    if (c->nlengths == c->cap_lengths) {
        size_t cap = c->cap_lengths ? 2 * c->cap_lengths : 1024;
        uint32_t *l = realloc(c->lengths, cap * sizeof *l);
        if (l)
            c->lengths = l;
        uint8_t *o = l ? realloc(c->length_outcomes, cap * sizeof *o) : NULL;
        if (!o)
            return replay_fail(err, g, "out of memory", 0, "");
        c->length_outcomes = o;
        c->cap_lengths = cap;
    }
    c->length_outcomes[c->nlengths] = g->result == 1    ? OUTCOME_FIRST_WINS
                                      : g->result == 0  ? OUTCOME_DRAW
                                      : g->result == -1 ? OUTCOME_SECOND_WINS
                                                        : OUTCOME_UNKNOWN;
    c->lengths[c->nlengths++] = g->plies;
    c->games++;
    if (g->termination < TERM_COUNT)
        c->by_termination[g->termination]++;
    else
        c->other_termination++;
    if (g->result < -1 || g->result > 1) {
        c->unknown_result++;
        return 0;
    }
    wdl_add(&c->red, g->result, RED);
    if (g->has_deal)
        hidden_tally_add(&c->hidden, g);
    if (g->result == 0) {
        if (g->termination == TERM_MOVE_LIMIT || g->termination == TERM_LENGTH_CAP)
            c->draws_adjudicated++;
        else
            c->draws_natural++;
    }
    for (int i = 0; i < c->nspecial; i++) {
        SpecialUse *u = &c->special[i];
        if (used[i][RED] || used[i][BLACK])
            u->games++;
        for (int s = 0; s < 2; s++)
            if (used[i][s])
                wdl_add(&u->user_results[s], g->result, (Side)s);
    }
    return 0;
}

int balance_summarise(const BalanceCard *c, BalanceSummary *s)
{
    memset(s, 0, sizeof *s);
    results_summarise(&c->red, &c->hidden, &s->r);
    s->games = s->r.games;
    double n = (double)s->games;
    /* The second mover's score is 1 - the first's, so |first - second| = |2 score - 1|. */
    double gap = 2 * s->r.first.mean - 1;
    s->balance_index = s->games ? 1 - fabs(gap) : 0;
    if (s->games) {
        s->draw_rate = (double)c->red.draws / n;
        s->natural_draw_rate = (double)c->draws_natural / n;
        s->adjudicated_draw_rate = (double)c->draws_adjudicated / n;
        s->decisive_rate = 1 - s->draw_rate;
    }
    return stats_mean_median_u32(c->lengths, c->nlengths, &s->mean_length, &s->median_length);
}

double balance_branching(const BalanceCard *c, int ply)
{
    if (ply < 0 || ply >= c->branch_plies || !c->branch_positions[ply])
        return 0;
    return (double)c->branch_moves[ply] / (double)c->branch_positions[ply];
}
