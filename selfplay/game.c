/* game.c - the self-play game loop. */
#include "game.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "status.h"

void game_buffers_free(GameBuffers *b)
{
    free(b->moves);
    free(b->positions);
    free(b->policy_moves);
    free(b->policy_visits);
    memset(b, 0, sizeof *b);
}

static int reserve_moves(GameBuffers *b, int need)
{
    if (need <= b->cap_moves)
        return 0;
    int cap = b->cap_moves ? b->cap_moves * 2 : 512;
    while (cap < need)
        cap *= 2;
    Move *mv = realloc(b->moves, (size_t)cap * sizeof *mv);
    if (!mv)
        return -1;
    b->moves = mv;
    PositionRecord *pr = realloc(b->positions, (size_t)cap * sizeof *pr);
    if (!pr)
        return -1;
    b->positions = pr;
    b->cap_moves = cap;
    return 0;
}

static int reserve_policy(GameBuffers *b, int need)
{
    if (need <= b->cap_policy)
        return 0;
    int cap = b->cap_policy ? b->cap_policy * 2 : 8192;
    while (cap < need)
        cap *= 2;
    Move *pm = realloc(b->policy_moves, (size_t)cap * sizeof *pm);
    if (!pm)
        return -1;
    b->policy_moves = pm;
    uint32_t *pv = realloc(b->policy_visits, (size_t)cap * sizeof *pv);
    if (!pv)
        return -1;
    b->policy_visits = pv;
    b->cap_policy = cap;
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static Result loss_for(Side s)
{
    return s == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
}

void game_deal(Position *pos, uint64_t seed, uint64_t index, bool paired_deals, HiddenDeal *d,
               bool *swapped)
{
    Rng deal_rng;
    rng_init(&deal_rng, rng_game_seed(seed ^ 0xd1b54a32d192ed03ull, paired_deals ? index / 2 : index));
    hidden_deal(pos, &deal_rng, d);
    hidden_show_start(pos, d, &deal_rng);
    *swapped = paired_deals && index % 2 == 1;
    if (*swapped)
        hidden_swap_seats(pos, d);
}

/* Records the position before a move that was not searched (an opening book's): the search
 * columns say so (NaN values, no best move, no visits, no policy). */
static void record_unsearched(const Variant *v, const Position *pos, Move mv, int npolicy, PositionRecord *r)
{
    memset(r, 0, sizeof *r);
    memcpy(r->board, pos->board, (size_t)v->npoints);
    memcpy(r->module, pos->module, sizeof r->module);
    r->side = (uint8_t)pos->side;
    r->ply = (uint16_t)pos->ply;
    r->no_capture = (uint16_t)(pos->no_capture > 65535 ? 65535 : pos->no_capture);
    r->played = mv;
    r->best = XQ_MOVE_NONE;
    r->root_value = NAN;
    r->static_eval = NAN;
    r->policy_first = (uint32_t)npolicy;
}

int game_play(Mcts *const m[2], const SearchParams *p, const Variant *v, const char *start_fen,
              const BookEntry *opening, uint64_t seed, uint64_t index, bool paired_deals, Position *pos,
              GameBuffers *buf, GameRecord *g, GameStats *stats)
{
    double t0 = now_seconds();
    Rng rng;
    uint64_t game_seed = rng_game_seed(seed, index);
    rng_init(&rng, game_seed);
    bool two = m[0] != m[1];
    mcts_reset(m[0]);
    if (two)
        mcts_reset(m[1]);
    if (opening)
        start_fen = opening->base_fen[0] ? opening->base_fen : NULL;
    if (!start_fen || pos_set_fen(pos, v, start_fen, NULL) < 0)
        pos_init_start(pos, v);

    memset(g, 0, sizeof *g);
    HiddenDeal deal;
    HiddenKnowledge knowledge; /* capture_knowledge = capturer: what each seat saw */
    memset(&knowledge, 0, sizeof knowledge);
    mcts_set_knowledge(m[0], &knowledge);
    mcts_set_knowledge(m[1], &knowledge);
    if (hidden_on(v)) {
        game_deal(pos, seed, index, paired_deals, &deal, &g->deal_swapped);
        g->has_deal = true;
        memcpy(g->deal, deal.id, sizeof g->deal);
    }
    g->index = index;
    g->seed = game_seed;
    pos_get_fen(pos, g->start_fen, sizeof g->start_fen);
    stats->resign_disabled = p->resign_moves > 0 && rng_double(&rng) < p->resign_disabled_fraction;
    stats->would_resign_side = -1;
    stats->playouts = 0;
    stats->searches = 0;
    g->resign_disabled = stats->resign_disabled;

    int low_streak[2] = {0, 0};
    int nmoves = 0, npolicy = 0;
    Result result = RESULT_DRAW;
    Termination reason = TERM_LENGTH_CAP;
    int max_plies = p->max_plies < XQ_MAX_HISTORY - 1 ? p->max_plies : XQ_MAX_HISTORY - 1;
    /* The opening's moves are part of the game (the opening tree sees them), unsearched. */
    for (int i = 0; opening && i < opening->nmoves; i++) {
        Move mv = opening->moves[i];
        if (g->has_deal)
            mv = hidden_resolve(pos, mv, &deal);
        if (reserve_moves(buf, nmoves + 1) < 0) {
            mcts_set_knowledge(m[0], NULL);
            mcts_set_knowledge(m[1], NULL);
            return -1;
        }
        record_unsearched(v, pos, mv, npolicy, &buf->positions[nmoves]);
        buf->moves[nmoves++] = mv;
        if (g->has_deal)
            hidden_knowledge_note(pos, mv, &deal, &knowledge);
        Undo u;
        pos_do_move(pos, mv, &u);
    }
    for (;;) {
        GameStatus st = pos_game_status(pos);
        if (st.result != RESULT_NONE) {
            result = st.result;
            reason = st.reason;
            break;
        }
        if (nmoves >= max_plies)
            break; /* adjudicated draw at the length cap */
        SearchResult sr;
        double temperature = nmoves < p->temperature_plies ? p->temperature : 0.0;
        /* search = ab: its temperature plies draw among the root moves near the best. */
        mcts_set_sampling(m[pos->side], temperature > 0);
        if (mcts_search(m[pos->side], pos, &rng, p->dirichlet_epsilon > 0, &sr) < 0)
            break; /* unreachable: the status above saw legal moves */
        stats->playouts += (uint64_t)sr.playouts;
        stats->searches++;
        Side us = pos->side;
        if (p->resign_moves > 0) {
            low_streak[us] = sr.value < -p->resign_threshold ? low_streak[us] + 1 : 0;
            if (low_streak[us] >= p->resign_moves) {
                if (!stats->resign_disabled) {
                    result = loss_for(us);
                    reason = TERM_RESIGNATION;
                    break;
                }
                if (stats->would_resign_side < 0)
                    stats->would_resign_side = us;
            }
        }
        Move mv = mcts_pick(&sr, temperature, &rng);
        if (g->has_deal)
            mv = hidden_resolve(pos, mv, &deal); /* the identity comes from the deal */

        if (reserve_moves(buf, nmoves + 1) < 0 || reserve_policy(buf, npolicy + sr.nchildren) < 0) {
            mcts_set_knowledge(m[0], NULL);
            mcts_set_knowledge(m[1], NULL);
            return -1;
        }
        PositionRecord *r = &buf->positions[nmoves];
        memcpy(r->board, pos->board, (size_t)v->npoints);
        memcpy(r->module, pos->module, sizeof r->module); /* pools, seat colour, hit points */
        r->side = (uint8_t)us;
        r->ply = (uint16_t)pos->ply;
        r->no_capture = (uint16_t)(pos->no_capture > 65535 ? 65535 : pos->no_capture);
        r->played = mv;
        r->best = sr.best;
        r->root_value = sr.value;
        r->static_eval = sr.static_eval;
        r->visits = (uint32_t)sr.visits;
        r->policy_first = (uint32_t)npolicy;
        r->policy_count = 0;
        for (int i = 0; i < sr.nchildren; i++) {
            if (!sr.child_visits[i])
                continue;
            buf->policy_moves[npolicy] = sr.moves[i];
            buf->policy_visits[npolicy] = sr.child_visits[i];
            npolicy++;
            r->policy_count++;
        }
        buf->moves[nmoves++] = mv;
        mcts_advance(m[0], mv);
        if (two)
            mcts_advance(m[1], mv);
        if (g->has_deal)
            hidden_knowledge_note(pos, mv, &deal, &knowledge);
        Undo u;
        pos_do_move(pos, mv, &u);
    }
    mcts_set_knowledge(m[0], NULL);
    mcts_set_knowledge(m[1], NULL);
    g->seat_colour = (int8_t)(g->has_deal ? hidden_seat_colour(pos, RED) : RED);
    g->result = (int8_t)result;
    g->termination = (uint8_t)reason;
    g->plies = (uint16_t)nmoves;
    g->nmoves = nmoves;
    g->moves = buf->moves;
    g->npositions = nmoves;
    g->positions = buf->positions;
    g->npolicy = npolicy;
    g->policy_moves = buf->policy_moves;
    g->policy_visits = buf->policy_visits;
    g->wall_seconds = (float)(now_seconds() - t0);
    return 0;
}
