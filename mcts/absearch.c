/* absearch.c - principal variation search with a transposition table for the MCTS leaves. */
#include "absearch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval_private.h"
#include "hidden.h"
#include "pst_delta.h"
#include "see.h"
#include "status.h"
#include "walk.h"

enum { QS_MAX_CAPTURES = 128, AB_LMR_MOVES = 64, EVAL_CACHE = 1 << 16 };

/* A static evaluation by the position's key: the evaluation is a function of what the key
 * covers, so a hit returns exactly what eval_score would. */
typedef struct EvalSlot {
    uint64_t key;
    double score;
} EvalSlot;

struct AbSearch {
    const Variant *v;
    const Evaluator *e;
    Tt tt;              /* one bucket until a full-width search needs more (tt_bytes) */
    uint64_t tt_bytes;
    AbStats stats;
    bool tables_vary;   /* a rule module switches move tables (the cube) */
    bool hidden;        /* face-down pieces */
    bool null_ok;       /* null-move pruning: rule sets without rule modules */
    bool prune;         /* the selective pruning of ab_set_pruning (on by default) */
    bool see;           /* captures that lose material by see() are ordered after the quiet moves */
    bool see_prune;     /* ... and such captures are not searched where they cannot matter */
    int qdepth;         /* capture plies after the full-width ones */
    /* pos->hist_len at the most recent null move on the current path (-1: none). A pass is
     * not in the position's history, so a repetition may not reach back past it: the history
     * before it, replayed by the repetition judge (core/repetition.c), would put moves on the
     * wrong side. */
    int null_hist;
    int root_depth;     /* full-width depth of the current search (bounds check extensions) */
    bool abort;         /* a limit of the root search was reached: every node returns at once */
    const AbLimits *limits; /* of the running ab_root_search (NULL: none) */
    uint64_t root_nodes0; /* stats.nodes when it started */
    uint64_t next_poll;   /* stats.nodes at which the limits are checked next */
    int root_scores[XQ_MAX_MOVES]; /* its root moves' scores, in the order of lists[0] */
    int evals[AB_MAX_PLY]; /* static evaluation by ply (TT_NO_EVAL: not taken) */
    int8_t lmr[AB_MAX_PLY][AB_LMR_MOVES]; /* late-move reductions by depth and move number */
    Move killers[AB_MAX_PLY][2];
    int16_t history[32][256]; /* by piece code and destination */
    /* Continuation history: how often a quiet move (piece and destination) refuted after the
     * move one or two plies before it, by that move's piece and destination; indices of
     * cont_index, the table cont_n x cont_n. The countermove: the quiet move that last refuted a
     * move, by the same index. */
    bool cont_on;       /* ab_set_cont_history */
    int cont_n;
    int16_t *cont;
    Move *counter;
    int moved[AB_MAX_PLY]; /* cont_index of the move made at each ply (-1: none, a pass) */
    MoveList lists[AB_MAX_PLY];
    int keys[AB_MAX_PLY][XQ_MAX_MOVES];
    /* Captures by a more valuable piece whose exchange is tested when they come up to be
     * searched (pick_next), not before: a cut-off before them saves the test. */
    bool see_pending[AB_MAX_PLY][XQ_MAX_MOVES];
    EvalSlot eval_cache[EVAL_CACHE]; /* by the low bits of the key */
};

AbSearch *ab_create(const Variant *v, const Evaluator *e, uint64_t tt_bytes)
{
    AbSearch *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->v = v;
    s->e = e;
    s->tables_vary = variant_tables_vary(v);
    s->hidden = hidden_on(v);
    s->null_ok = v->modules == 0;
    s->prune = true;
    s->see = see_supported(v);
    s->see_prune = s->see;
    s->cont_on = true;
    s->cont_n = 2 * v->nkinds * v->npoints;
    s->cont = calloc((size_t)s->cont_n * (size_t)s->cont_n, sizeof *s->cont);
    s->counter = calloc((size_t)s->cont_n, sizeof *s->counter);
    if (!s->cont || !s->counter) {
        free(s->cont);
        free(s->counter);
        free(s);
        return NULL;
    }
    /* Late-move reduction in plies by remaining depth and move number (both from 1): about
     * ln(depth) ln(moves) / 1.6, so a late quiet move of a deep node is searched several plies
     * shallower first. */
    for (int d = 1; d < AB_MAX_PLY; d++)
        for (int m = 1; m < AB_LMR_MOVES; m++)
            s->lmr[d][m] = (int8_t)(0.5 + log((double)d) * log((double)m) / 1.6);
    s->tt_bytes = tt_bytes;
    if (tt_init(&s->tt, 0) < 0) {
        free(s->cont);
        free(s->counter);
        free(s);
        return NULL;
    }
    ab_clear(s);
    return s;
}

void ab_free(AbSearch *s)
{
    if (!s)
        return;
    tt_free(&s->tt);
    free(s->cont);
    free(s->counter);
    free(s);
}

void ab_clear(AbSearch *s)
{
    tt_clear(&s->tt);
    for (int i = 0; i < AB_MAX_PLY; i++)
        s->killers[i][0] = s->killers[i][1] = XQ_MOVE_NONE;
    memset(s->history, 0, sizeof s->history);
    memset(s->eval_cache, 0, sizeof s->eval_cache);
    s->eval_cache[0].key = 1; /* slot 0 holds no key 0 until one is stored */
    memset(s->cont, 0, (size_t)s->cont_n * (size_t)s->cont_n * sizeof *s->cont);
    for (int i = 0; i < s->cont_n; i++)
        s->counter[i] = XQ_MOVE_NONE;
}

/* Index of a move by its piece (side and kind) and destination, -1 for a move without a face-up
 * piece on its origin (a face-down piece, a drop). */
static inline int cont_index(const AbSearch *s, const Position *pos, Move mv)
{
    Piece pc = pos->board[XQ_MOVE_FROM(mv)];
    int kind = XQ_PIECE_KIND(pc);
    if (!pc || kind < 0 || kind >= s->v->nkinds || XQ_MOVE_TO(mv) >= s->v->npoints)
        return -1;
    return (XQ_PIECE_SIDE(pc) * s->v->nkinds + kind) * s->v->npoints + XQ_MOVE_TO(mv);
}

/* The continuation-history rows of a node `ply` plies below the root: after the moves one and
 * two plies before it (NULL where there is none). */
static inline void cont_rows(AbSearch *s, int ply, int16_t **c1, int16_t **c2)
{
    int p1 = s->cont_on && ply >= 1 ? s->moved[ply - 1] : -1;
    int p2 = s->cont_on && ply >= 2 ? s->moved[ply - 2] : -1;
    *c1 = p1 >= 0 ? s->cont + (size_t)p1 * (size_t)s->cont_n : NULL;
    *c2 = p2 >= 0 ? s->cont + (size_t)p2 * (size_t)s->cont_n : NULL;
}

void ab_set_pruning(AbSearch *s, bool on)
{
    s->prune = on;
}

void ab_set_see(AbSearch *s, bool on)
{
    s->see = on && see_supported(s->v);
}

void ab_set_see_prune(AbSearch *s, bool on)
{
    s->see_prune = on && see_supported(s->v);
}

void ab_set_cont_history(AbSearch *s, bool on)
{
    s->cont_on = on;
}

const AbStats *ab_stats(const AbSearch *s)
{
    return &s->stats;
}

int ab_history(const AbSearch *s, const Position *pos, Move mv)
{
    return s->history[pos->board[XQ_MOVE_FROM(mv)]][XQ_MOVE_TO(mv)];
}

static double ab_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* True once a limit of the root search (stop flag, positions, deadline) is
 * reached. */
static bool out_of_budget(AbSearch *s)
{
    const AbLimits *lim = s->limits;
    if (lim->stop && atomic_load_explicit(lim->stop, memory_order_relaxed))
        return true;
    if (lim->max_nodes && s->stats.nodes - s->root_nodes0 >= lim->max_nodes)
        return true;
    return lim->deadline > 0 && ab_clock() >= lim->deadline;
}

/* Counts against the limits of a running root search: the clock and the stop flag every 1024
 * positions, a cap on positions exactly where it falls (full-width and capture positions
 * alike). The first iteration always completes. */
static inline void poll_limits(AbSearch *s)
{
    if (!s->limits || s->stats.nodes < s->next_poll)
        return;
    s->next_poll = s->stats.nodes + 1024;
    uint64_t cap = s->limits->max_nodes ? s->root_nodes0 + s->limits->max_nodes : 0;
    if (cap > s->stats.nodes && cap < s->next_poll)
        s->next_poll = cap;
    if (s->root_depth > 1 && out_of_budget(s))
        s->abort = true;
}

/* ---- capture search ------------------------------------------------------------------------- */

#define QS_ROYAL_TAKEN 1e6

/* Capture-only alpha-beta in pawns over `stand` (the side to move's static score, updated by
 * the piece-square change of each capture): settles hanging pieces and exchanges in progress.
 * The non-material terms are frozen at the entry: they barely move during an exchange and
 * would cost a full move walk per node. Returns QS_ROYAL_TAKEN if the royal piece of the side
 * not to move stands en prise. */
static double qsearch(AbSearch *s, Position *pos, double alpha, double beta, int depth, double stand)
{
    if (s->abort)
        return alpha; /* discarded by the full-width node above */
    s->stats.nodes++;
    s->stats.qnodes++;
    poll_limits(s);
    if (stand >= beta)
        return stand;
    if (stand > alpha)
        alpha = stand;
    if (depth == 0)
        return alpha;
    const Evaluator *e = s->e;
    const Variant *v = s->v;
    Side us = pos->side;
    Move caps[QS_MAX_CAPTURES];
    int order[QS_MAX_CAPTURES];
    int n = 0;
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        /* The table the piece moves by now: a cube's top face powers its kind. */
        const MoveTable *t = s->tables_vary ? pos_piece_table(pos, from)
                                            : &v->table[XQ_PIECE_KIND(pos->board[from])][us][from];
        /* A piece captures at most once per leap and twice per ray (slide and hop). */
        if (n + t->leap_count + 2 * t->ray_count > QS_MAX_CAPTURES)
            break;
        if (hidden_is_down(v, pos->board[from]))
            continue; /* a face-down piece only moves by a reveal, a chance event */
        n = walk_captures_t(v, pos->board, from, t, caps, n);
    }
    if (s->hidden && v->hidden.mode != HIDDEN_JIEQI) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (!hidden_is_down(v, pos->board[XQ_MOVE_TO(caps[i])]))
                caps[k++] = caps[i];
        n = k; /* face-down pieces cannot be captured there (RULES.md 3, 4) */
    }
    if (n == 0)
        return alpha;
    /* Most valuable victim first, least valuable attacker second (insertion sort: n is small). */
    double key[QS_MAX_CAPTURES];
    for (int i = 0; i < n; i++) {
        Piece victim = pos->board[XQ_MOVE_TO(caps[i])], attacker = pos->board[XQ_MOVE_FROM(caps[i])];
        key[i] = 16.0 * e->value[XQ_PIECE_KIND(victim)] - e->value[XQ_PIECE_KIND(attacker)];
        int j = i;
        while (j > 0 && key[order[j - 1]] < key[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    double sign = us == RED ? 1.0 : -1.0;
    for (int i = 0; i < n; i++) {
        Move mv = caps[order[i]];
        double gain = move_delta(e, pos, mv, sign);
        /* Delta pruning: a capture that cannot lift the score to alpha is not worth a make. */
        if (stand + gain + 1.0 <= alpha)
            continue;
        if (v->royal_mask >> XQ_PIECE_KIND(pos->board[XQ_MOVE_TO(mv)]) & 1)
            return QS_ROYAL_TAKEN; /* only reachable if the previous ply left its royal en prise */
        /* A capture by a more valuable piece that loses the exchange is not tried, unless it
         * checks (a sacrifice that opens the royal piece may mate). */
        if (s->see_prune &&
            e->value[XQ_PIECE_KIND(pos->board[XQ_MOVE_FROM(mv)])] >
                e->value[XQ_PIECE_KIND(pos->board[XQ_MOVE_TO(mv)])] &&
            see(pos, e->value, mv) < 0 && !pos_gives_check(pos, mv)) {
            s->stats.see_skips++;
            continue;
        }
        if (!pos_is_legal(pos, mv))
            continue;
        Undo u;
        pos_do_move(pos, mv, &u);
        double score = -qsearch(s, pos, -beta, -alpha, depth - 1, -(stand + gain));
        pos_undo_move(pos, mv, &u);
        if (score >= beta)
            return score;
        if (score > alpha)
            alpha = score;
    }
    return alpha;
}

static inline int clamp_eval(double pawns)
{
    double cp = 100.0 * pawns;
    if (cp > AB_MATE_BOUND - 1)
        return AB_MATE_BOUND - 1;
    if (cp < -(AB_MATE_BOUND - 1))
        return -(AB_MATE_BOUND - 1);
    return (int)lrint(cp);
}

/* The static evaluation of the side to move, in pawns, from the cache when it has the key
 * (not with face-down pieces: their pools, which the evaluation reads, are not in the key). */
static inline double cached_eval(AbSearch *s, Position *pos)
{
    if (s->hidden)
        return eval_score(s->e, pos);
    EvalSlot *slot = &s->eval_cache[pos->key & (EVAL_CACHE - 1)];
    if (slot->key == pos->key) {
        s->stats.eval_hits++;
        return slot->score;
    }
    double score = eval_score(s->e, pos);
    slot->key = pos->key;
    slot->score = score;
    return score;
}

/* The capture search from the static evaluation, in centipawns, within (alpha, beta). */
static int qs_entry(AbSearch *s, Position *pos, int alpha, int beta, int ply)
{
    double stand = cached_eval(s, pos);
    double q = qsearch(s, pos, alpha / 100.0, beta / 100.0, s->qdepth, stand);
    if (q >= QS_ROYAL_TAKEN)
        return AB_MATE - ply;
    return clamp_eval(q);
}

/* ---- full-width search ---------------------------------------------------------------------- */

/* Score of a decided game for the side to move, `ply` plies below the root. */
static int result_score(GameStatus st, Side to_move, int ply)
{
    if (st.result == RESULT_DRAW)
        return 0;
    bool red_wins = st.result == RESULT_RED_WINS;
    return red_wins == (to_move == RED) ? AB_MATE - ply : -(AB_MATE - ply);
}

static inline int score_to_tt(int score, int ply)
{
    return score > AB_MATE_BOUND ? score + ply : score < -AB_MATE_BOUND ? score - ply : score;
}

static inline int score_from_tt(int score, int ply)
{
    return score > AB_MATE_BOUND ? score - ply : score < -AB_MATE_BOUND ? score + ply : score;
}

enum {
    KEY_TT = 1 << 30,
    KEY_CAPTURE = 1 << 26,
    KEY_KILLER = 1 << 24,
    KEY_LOSING = -(1 << 20), /* below every history value (int16_t) */
};

/* The quiet move's ordering statistic: its history and continuation histories. */
static inline int quiet_stat(AbSearch *s, const Position *pos, Move mv, const int16_t *c1,
                             const int16_t *c2)
{
    int ci = cont_index(s, pos, mv);
    return s->history[pos->board[XQ_MOVE_FROM(mv)]][XQ_MOVE_TO(mv)] +
           (ci >= 0 && c1 ? c1[ci] : 0) + (ci >= 0 && c2 ? c2[ci] : 0);
}

static void order_moves(AbSearch *s, const Position *pos, int ply, Move tt_move)
{
    const MoveList *list = &s->lists[ply];
    int *key = s->keys[ply];
    bool *pending = s->see_pending[ply];
    memset(pending, 0, (size_t)list->count * sizeof *pending);
    const Evaluator *e = s->e;
    int16_t *c1, *c2;
    cont_rows(s, ply, &c1, &c2);
    Move counter = s->cont_on && ply >= 1 && s->moved[ply - 1] >= 0 ? s->counter[s->moved[ply - 1]]
                                                                     : XQ_MOVE_NONE;
    for (int i = 0; i < list->count; i++) {
        Move mv = list->moves[i];
        Piece pc = pos->board[XQ_MOVE_FROM(mv)], victim = pos->board[XQ_MOVE_TO(mv)];
        if (mv == tt_move)
            key[i] = KEY_TT;
        else if (victim && XQ_PIECE_SIDE(victim) != pos->side && !hidden_is_down(s->v, victim)) {
            int mvv_lva = (int)(1600.0 * e->value[XQ_PIECE_KIND(victim)]) -
                          (pc ? (int)(100.0 * e->value[XQ_PIECE_KIND(pc)]) : 0);
            /* A capture by a more valuable piece is kept with the captures only if the
             * exchange on its destination does not lose material (tested by pick_next). */
            pending[i] = s->see && pc && e->value[XQ_PIECE_KIND(pc)] > e->value[XQ_PIECE_KIND(victim)];
            key[i] = KEY_CAPTURE + mvv_lva;
        }
        else if (mv == s->killers[ply][0])
            key[i] = KEY_KILLER + 1;
        else if (mv == s->killers[ply][1])
            key[i] = KEY_KILLER;
        else if (mv == counter)
            key[i] = KEY_KILLER - 1;
        else
            key[i] = quiet_stat(s, pos, mv, c1, c2);
    }
}

/* Moves the best-keyed move from i on to place i and returns it. A capture whose exchange is
 * still to be tested is tested when it comes first; one that loses material goes down to the
 * losing captures, after the quiet moves, and the pick is made again. */
static inline Move pick_next(AbSearch *s, const Position *pos, int ply, int i)
{
    MoveList *list = &s->lists[ply];
    int *key = s->keys[ply];
    bool *pending = s->see_pending[ply];
    int best;
    for (;;) {
        best = i;
        for (int j = i + 1; j < list->count; j++)
            if (key[j] > key[best])
                best = j;
        if (!pending[best])
            break;
        pending[best] = false;
        if (see(pos, s->e->value, list->moves[best]) < 0)
            key[best] += KEY_LOSING - KEY_CAPTURE;
        else
            break;
    }
    Move mv = list->moves[best];
    int k = key[best];
    bool p = pending[best];
    list->moves[best] = list->moves[i];
    key[best] = key[i];
    pending[best] = pending[i];
    list->moves[i] = mv;
    key[i] = k;
    pending[i] = p;
    return mv;
}

/* A bonus (or malus) to a history value, pulled towards 0 the nearer it is to the bound. */
static inline void history_add(int16_t *h, int bonus)
{
    int v = *h + bonus - *h * abs(bonus) / AB_HISTORY_MAX;
    *h = (int16_t)(v > AB_HISTORY_MAX ? AB_HISTORY_MAX : v < -AB_HISTORY_MAX ? -AB_HISTORY_MAX : v);
}

/* The quiet move's history and its continuation histories after the moves one and two plies
 * before it (c1, c2: cont_rows). */
static void update_history(AbSearch *s, const Position *pos, Move mv, int bonus, int16_t *c1,
                           int16_t *c2)
{
    history_add(&s->history[pos->board[XQ_MOVE_FROM(mv)]][XQ_MOVE_TO(mv)], bonus);
    int ci = cont_index(s, pos, mv);
    if (ci < 0)
        return;
    if (c1)
        history_add(&c1[ci], bonus);
    if (c2)
        history_add(&c2[ci], bonus);
}

static int ab(AbSearch *s, Position *pos, int alpha, int beta, int depth, int ply, bool pv);

/* True if the side to move has a piece besides its royal pieces and pawns-like pieces of the
 * lowest value (zugzwang, where passing would help, is then unlikely). */
static bool has_pieces(const Position *pos)
{
    const Variant *v = pos->v;
    double low = 1e9;
    for (int k = 0; k < v->nkinds; k++)
        if (!v->kinds[k].royal && v->kinds[k].value < low)
            low = v->kinds[k].value;
    Side us = pos->side;
    for (int i = 0; i < pos->count[us]; i++) {
        const PieceKind *k = &v->kinds[XQ_PIECE_KIND(pos->board[pos->list[us][i]])];
        if (!k->royal && k->value > low)
            return true;
    }
    return false;
}

/* Plies a reveal below the root costs beyond the one of a plain move: its outcomes are searched
 * to depth - 2. An expectation node cannot be cut by one outcome, so each of its outcomes costs
 * about a plain move's subtree. */
enum { REVEAL_REDUCTION = 1 };

/* Value of an undrawn reveal: the mean over the identities it may show, weighted by their pool
 * probabilities (an expectation node), each outcome searched to `depth` plies (at 0: the capture
 * search, full window). Deeper, a full window under every outcome would multiply the search by
 * the outcomes at each reveal, so every outcome is first estimated by the capture search, then
 * searched in turn with the window the node's (alpha, beta) leaves it when the outcomes after it
 * take their estimates: outcome i decides only between (alpha - S - R) / p_i and
 * (beta - S - R) / p_i, S the weighted values searched so far and R the weighted estimates still
 * to come. The values are fail-soft, so a mean outside (alpha, beta) is a bound, as a move's is;
 * the estimates only place the windows. */
static int chance_value(AbSearch *s, Position *pos, Move mv, int alpha, int beta, int depth, int ply,
                        bool pv)
{
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES], est[HIDDEN_MAX_OUTCOMES];
    int n = hidden_outcomes(pos, mv, out, prob);
    s->moved[ply] = -1; /* outcomes differ in their piece: no continuation */
    double weight = 0;
    for (int i = 0; i < n; i++)
        weight += prob[i];
    if (weight <= 0)
        return 0;
    double rest = 0;
    for (int i = 0; i < n; i++) {
        prob[i] /= weight;
        Undo u;
        pos_do_move(pos, out[i], &u);
        est[i] = -ab(s, pos, -AB_INF, AB_INF, 0, ply + 1, false);
        pos_undo_move(pos, out[i], &u);
        rest += prob[i] * est[i];
    }
    if (depth <= 0)
        return (int)lrint(rest);
    double sum = 0;
    for (int i = 0; i < n && !s->abort; i++) {
        rest -= prob[i] * est[i];
        double lo = (alpha - sum - rest) / prob[i], hi = (beta - sum - rest) / prob[i];
        int a = lo <= -AB_INF ? -AB_INF : lo >= AB_INF - 1 ? AB_INF - 1 : (int)floor(lo);
        int b = hi >= AB_INF ? AB_INF : hi <= -AB_INF + 1 ? -AB_INF + 1 : (int)ceil(hi);
        if (b <= a)
            b = a + 1;
        Undo u;
        pos_do_move(pos, out[i], &u);
        sum += prob[i] * -ab(s, pos, -b, -a, depth, ply + 1, pv);
        pos_undo_move(pos, out[i], &u);
    }
    return (int)lrint(sum);
}

/* ---- selective pruning (ab_set_pruning) ---------------------------------------------------- */

/* Margins in centipawns (the evaluation's pawn is 100). A quiet move rarely gains more than a
 * pawn and a half of position per remaining ply, so a node whose static evaluation stands that
 * far above beta is cut (reverse futility), and a quiet move of a node that far below alpha is
 * not searched (futility). */
enum {
    RFP_DEPTH = 6,         /* reverse futility: remaining plies at most this */
    RFP_MARGIN = 110,      /* per remaining ply */
    FUT_DEPTH = 3,         /* futility: remaining plies at most this */
    FUT_BASE = 100,
    FUT_MARGIN = 150,      /* per remaining ply */
    LMP_DEPTH = 6,         /* late-move pruning: remaining plies at most this */
    IIR_DEPTH = 4,         /* internal iterative reduction: remaining plies at least this */
    SEE_DEPTH = 5,         /* losing captures (see_prune): remaining plies at most this */
    SEE_MARGIN = 150,      /* ... skipped when they lose more than this per remaining ply */
    HIST_PRUNE_DEPTH = 3,  /* continuation-history pruning: remaining plies at most this */
    HIST_REDUCTION = 12288, /* late-move reduction one ply less (more) per this much history */
};

/* Quiet moves tried at a node of `depth` remaining plies (at most LMP_DEPTH) after which the
 * other quiet moves are not searched. */
static inline int lmp_count(int depth, bool improving)
{
    return improving ? 3 + depth * depth : (3 + depth * depth) / 2;
}

static int ab(AbSearch *s, Position *pos, int alpha, int beta, int depth, int ply, bool pv)
{
    if (ply > 0) {
        /* Game ends other than mate: repetition verdicts, move limit, royal capture, hit points.
         * Below a null move the repetition window (the plies since the last capture) ends at
         * the pass. */
        int no_capture = pos->no_capture;
        if (s->null_hist >= 0 && no_capture > pos->hist_len - s->null_hist)
            pos->no_capture = pos->hist_len - s->null_hist;
        GameStatus st = pos_game_status_n(pos, 1);
        pos->no_capture = no_capture;
        if (st.result != RESULT_NONE)
            return result_score(st, pos->side, ply);
    }
    if (depth <= 0 || ply >= AB_MAX_PLY - s->qdepth - 2)
        return qs_entry(s, pos, alpha, beta, ply);
    if (s->abort)
        return 0;
    s->stats.nodes++;
    poll_limits(s);
    Move tt_move = XQ_MOVE_NONE;
    TtEntry *te = tt_probe(&s->tt, pos->key);
    int eval = TT_NO_EVAL;
    if (te) {
        s->stats.tt_hits++;
        tt_move = te->move;
        eval = te->eval;
        if (!pv && te->depth >= depth) {
            int sc = score_from_tt(te->score, ply);
            if (te->bound == TT_EXACT || (te->bound == TT_LOWER && sc >= beta) ||
                (te->bound == TT_UPPER && sc <= alpha))
                return sc;
        }
    }
    bool in_check = pos->in_check;
    /* The selective parts need the static evaluation: not in check, not on the principal
     * variation, not at the root, and never where a bound is a forced result. */
    bool selective = s->prune && !pv && !in_check && ply > 0 && beta < AB_MATE_BOUND &&
                     alpha > -AB_MATE_BOUND;
    bool need_eval = selective || (s->null_ok && !pv && !in_check && depth >= 2 && ply > 0);
    if (need_eval && eval == TT_NO_EVAL)
        eval = clamp_eval(cached_eval(s, pos));
    if (need_eval)
        s->evals[ply] = eval;
    else
        s->evals[ply] = TT_NO_EVAL;
    /* Improving: the evaluation rose since this side's previous move (prune less then). */
    bool improving = need_eval && ply >= 2 && s->evals[ply - 2] != TT_NO_EVAL &&
                     eval > s->evals[ply - 2];
    /* Reverse futility: far enough above beta that no quiet reply sequence is likely to bring
     * the score down to it within the remaining plies. */
    if (selective && depth <= RFP_DEPTH &&
        eval - RFP_MARGIN * (depth - (improving ? 1 : 0)) >= beta) {
        s->stats.rfp_cuts++;
        return eval;
    }
    /* Null move: if passing still holds beta at a reduced depth, so will a move (not in check,
     * not at PV nodes, and only in rule sets whose turns are single plain moves: a pass must
     * leave a position the rules could reach). */
    if (s->null_ok && !pv && !in_check && depth >= 2 && ply > 0 && beta < AB_MATE_BOUND &&
        eval >= beta && has_pieces(pos)) {
        int r = s->prune ? 3 + depth / 4 : depth >= 6 ? 3 : 2;
        s->moved[ply] = -1;
        pos->side = XQ_OTHER(pos->side);
        pos->key ^= s->v->zobrist_side;
        int null_hist = s->null_hist;
        s->null_hist = pos->hist_len;
        int score = -ab(s, pos, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
        s->null_hist = null_hist;
        pos->key ^= s->v->zobrist_side;
        pos->side = XQ_OTHER(pos->side);
        s->stats.null_tries++;
        if (s->abort)
            return 0;
        if (score >= beta) {
            s->stats.null_cuts++;
            return score > AB_MATE_BOUND ? beta : score;
        }
    }
    /* Internal iterative reduction: a deep node without a table move (never searched, or its
     * entry lost) is ordered by guesswork; it is searched a ply shallower, and the next
     * iteration finds its move in the table. */
    if (s->prune && tt_move == XQ_MOVE_NONE && depth >= IIR_DEPTH) {
        s->stats.iir_nodes++;
        depth--;
    }
    MoveList *list = &s->lists[ply];
    pos_generate_pseudo(pos, list);
    order_moves(s, pos, ply, tt_move);
    int best = -AB_INF, legal = 0, alpha0 = alpha, nquiet_tried = 0;
    Move best_move = XQ_MOVE_NONE;
    Move quiets[64];
    int nquiets = 0;
    bool skip_quiets = false;
    int16_t *c1, *c2;
    cont_rows(s, ply, &c1, &c2);
    for (int i = 0; i < list->count; i++) {
        Move mv = pick_next(s, pos, ply, i);
        Piece victim = pos->board[XQ_MOVE_TO(mv)];
        bool quiet = !victim && !XQ_MOVE_FLAGS(mv) && mv != tt_move;
        bool killer = mv == s->killers[ply][0] || mv == s->killers[ply][1];
        if (skip_quiets && quiet && !killer && legal > 0 && !pos_gives_check(pos, mv)) {
            s->stats.lmp_skips++;
            continue;
        }
        /* Continuation-history pruning: near the horizon, a quiet move that has so far failed
         * both after the opponent's last move and after this side's previous one is not
         * searched, unless it checks. */
        if (selective && quiet && !killer && legal > 0 && depth <= HIST_PRUNE_DEPTH && c1 && c2) {
            int ci = cont_index(s, pos, mv);
            if (ci >= 0 && c1[ci] < 0 && c2[ci] < 0 && !pos_gives_check(pos, mv)) {
                s->stats.hist_skips++;
                continue;
            }
        }
        /* A capture that loses the exchange by more than a margin per remaining ply, near the
         * horizon and giving no check, is not searched: it is ordered after the quiet moves
         * (order_moves), so its key says which captures to test. */
        if (selective && s->see_prune && victim && legal > 0 && depth <= SEE_DEPTH &&
            s->keys[ply][i] < KEY_LOSING / 2 &&
            100.0 * see(pos, s->e->value, mv) < -SEE_MARGIN * depth && !pos_gives_check(pos, mv)) {
            s->stats.see_skips++;
            continue;
        }
        if (!pos_is_legal(pos, mv))
            continue;
        legal++;
        int score;
        if (s->hidden && hidden_is_chance(pos, mv)) {
            score = chance_value(s, pos, mv, alpha, beta, depth - 1 - REVEAL_REDUCTION, ply, pv);
        } else {
            bool check_after = false;
            /* Futility: a quiet move that gives no check cannot lift this node to alpha. */
            if (selective && quiet && !killer && legal > 1 && depth <= FUT_DEPTH &&
                eval + FUT_BASE + FUT_MARGIN * depth <= alpha) {
                check_after = pos_gives_check(pos, mv);
                if (!check_after) {
                    s->stats.futility_skips++;
                    if (best < eval + FUT_BASE + FUT_MARGIN * depth)
                        best = eval + FUT_BASE + FUT_MARGIN * depth;
                    continue;
                }
            }
            int hist = quiet ? quiet_stat(s, pos, mv, c1, c2) : 0;
            s->moved[ply] = cont_index(s, pos, mv);
            Undo u;
            pos_do_move(pos, mv, &u);
            bool gives = pos->in_check;
            int ext = gives && ply < 2 * s->root_depth ? 1 : 0;
            int nd = depth - 1 + ext;
            if (legal == 1) {
                score = -ab(s, pos, -beta, -alpha, nd, ply + 1, pv);
            } else {
                int r = 0;
                if (s->prune) {
                    if (depth >= 3 && quiet && !in_check && !gives && !killer) {
                        int n = legal < AB_LMR_MOVES ? legal : AB_LMR_MOVES - 1;
                        r = s->lmr[depth < AB_MAX_PLY ? depth : AB_MAX_PLY - 1][n];
                        if (pv)
                            r--;
                        if (!improving && !pv)
                            r++;
                        r -= hist / HIST_REDUCTION;
                        if (r > nd - 1)
                            r = nd - 1;
                        if (r < 0)
                            r = 0;
                    }
                } else if (!pv && depth >= 3 && quiet && !in_check && !gives && legal > 3) {
                    r = legal > 12 ? 2 : 1;
                }
                score = -ab(s, pos, -alpha - 1, -alpha, nd - r, ply + 1, false);
                if (score > alpha && r > 0)
                    score = -ab(s, pos, -alpha - 1, -alpha, nd, ply + 1, false);
                if (score > alpha && score < beta && pv)
                    score = -ab(s, pos, -beta, -alpha, nd, ply + 1, true);
            }
            pos_undo_move(pos, mv, &u);
            if (quiet) {
                nquiet_tried++;
                if (nquiets < 64 && score <= alpha)
                    quiets[nquiets++] = mv;
            }
        }
        if (s->abort)
            return 0;
        if (score > best) {
            best = score;
            best_move = mv;
            if (score > alpha) {
                alpha = score;
                if (score >= beta) {
                    if (!victim && !XQ_MOVE_FLAGS(mv)) {
                        if (s->killers[ply][0] != mv) {
                            s->killers[ply][1] = s->killers[ply][0];
                            s->killers[ply][0] = mv;
                        }
                        int bonus = depth * depth * 32;
                        update_history(s, pos, mv, bonus, c1, c2);
                        for (int q = 0; q < nquiets; q++)
                            update_history(s, pos, quiets[q], -bonus, c1, c2);
                        if (ply >= 1 && s->moved[ply - 1] >= 0)
                            s->counter[s->moved[ply - 1]] = mv;
                    }
                    break;
                }
            }
        }
        /* Late-move pruning: enough quiet moves of a shallow node failed; the rest are not
         * searched (checks and killers still are). */
        if (selective && depth <= LMP_DEPTH && nquiet_tried >= lmp_count(depth, improving))
            skip_quiets = true;
    }
    if (legal == 0)
        return result_score(pos_game_status_n(pos, 0), pos->side, ply);
    TtBound bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    tt_store(&s->tt, pos->key, best_move, score_to_tt(best, ply), need_eval ? eval : TT_NO_EVAL,
             depth, bound);
    return best;
}

int ab_search(AbSearch *s, Position *pos, int depth, int qdepth, Move *best)
{
    s->stats.searches++;
    s->qdepth = qdepth;
    s->null_hist = -1;
    s->root_depth = depth;
    if (depth > 0 && s->tt.mask == 0 && s->tt_bytes > TT_BUCKET * sizeof(TtEntry)) {
        /* First full-width search: the table of the size asked for (kept small if that cannot
         * be had; the search stays correct, only slower). */
        Tt big;
        if (tt_init(&big, s->tt_bytes) == 0) {
            tt_free(&s->tt);
            s->tt = big;
        } else {
            s->tt_bytes = 0;
        }
    }
    tt_new_search(&s->tt);
    if (best)
        *best = XQ_MOVE_NONE;
    if (depth <= 0)
        return qs_entry(s, pos, -AB_INF, AB_INF, 0);
    int score = 0;
    /* Iterative deepening: each pass orders the next one through the table. */
    for (int d = 1; d <= depth; d++)
        score = ab(s, pos, -AB_INF, AB_INF, d, 0, true);
    if (best) {
        TtEntry *te = tt_probe(&s->tt, pos->key);
        *best = te ? te->move : XQ_MOVE_NONE;
    }
    return score;
}

int ab_qsearch(AbSearch *s, Position *pos, int qdepth)
{
    return ab_search(s, pos, 0, qdepth, NULL);
}

/* ---- root search ---------------------------------------------------------------------------- */

/* Value of a root move that reveals a face-down piece: its outcomes searched to depth - 1 plies
 * (chance_value); after the first root move with a null window first, then, if it beats alpha,
 * with the window (principal variation search). */
static int root_chance_value(AbSearch *s, Position *pos, Move mv, int alpha, int beta, int depth,
                             bool first)
{
    if (first)
        return chance_value(s, pos, mv, alpha, beta, depth - 1, 0, true);
    int score = chance_value(s, pos, mv, alpha, alpha + 1, depth - 1, 0, false);
    if (score > alpha && score < beta && !s->abort)
        score = chance_value(s, pos, mv, alpha, beta, depth - 1, 0, true);
    return score;
}

/* One principal variation search of the root moves (ordered in s->lists[0], best first)
 * within (alpha, beta). The root moves' scores go to s->root_scores; the best move is moved to
 * the front. On abort, *partial says whether the front move was fully searched in this pass and
 * improved on the first. */
static int root_pass(AbSearch *s, Position *pos, int alpha, int beta, int depth, bool *improved)
{
    MoveList *list = &s->lists[0];
    int *score_of = s->root_scores;
    int best = -AB_INF;
    *improved = false;
    for (int i = 0; i < list->count; i++) {
        Move mv = list->moves[i];
        int score;
        if (s->hidden && hidden_is_chance(pos, mv)) {
            score = root_chance_value(s, pos, mv, alpha, beta, depth, i == 0);
        } else {
            Piece victim = pos->board[XQ_MOVE_TO(mv)];
            bool quiet = !victim && !XQ_MOVE_FLAGS(mv);
            s->moved[0] = cont_index(s, pos, mv);
            Undo u;
            pos_do_move(pos, mv, &u);
            int nd = depth - 1 + (pos->in_check ? 1 : 0);
            if (i == 0) {
                score = -ab(s, pos, -beta, -alpha, nd, 1, true);
            } else {
                int r = quiet && !pos->in_check && depth >= 3 && i >= 4
                            ? s->lmr[depth][i < AB_LMR_MOVES ? i : AB_LMR_MOVES - 1] - 1
                            : 0;
                if (r < 0)
                    r = 0;
                score = -ab(s, pos, -alpha - 1, -alpha, nd - r, 1, false);
                if (score > alpha && r > 0)
                    score = -ab(s, pos, -alpha - 1, -alpha, nd, 1, false);
                if (score > alpha && score < beta)
                    score = -ab(s, pos, -beta, -alpha, nd, 1, true);
            }
            pos_undo_move(pos, mv, &u);
        }
        if (s->abort)
            break;
        score_of[i] = score;
        if (score > best) {
            best = score;
            if (i > 0) {
                /* The new best goes to the front, the others keep their order. */
                int sc = score_of[i];
                memmove(&list->moves[1], &list->moves[0], (size_t)i * sizeof list->moves[0]);
                memmove(&score_of[1], &score_of[0], (size_t)i * sizeof score_of[0]);
                list->moves[0] = mv;
                score_of[0] = sc;
                if (score > alpha)
                    *improved = true;
            }
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        } else {
            /* Below the best: keep the root ordered by the last scores (a stable sort step). */
            int j = i;
            while (j > 1 && score_of[j - 1] < score) {
                Move t = list->moves[j - 1];
                list->moves[j - 1] = list->moves[j];
                list->moves[j] = t;
                int ts = score_of[j - 1];
                score_of[j - 1] = score_of[j];
                score_of[j] = ts;
                j--;
            }
        }
    }
    return best;
}

/* The principal variation: the best move, then the table's moves while they are legal, the
 * game goes on and no position repeats, ending after an undrawn reveal. */
static int table_pv(AbSearch *s, Position *pos, Move first, Move *pv)
{
    Undo undo[AB_PV_MAX];
    uint64_t keys[AB_PV_MAX];
    int n = 0;
    Move mv = first;
    while (n < AB_PV_MAX && mv != XQ_MOVE_NONE && pos_move_is_legal(pos, mv)) {
        pv[n] = mv;
        keys[n] = pos->key;
        bool chance = s->hidden && hidden_is_chance(pos, mv);
        pos_do_move(pos, mv, &undo[n]);
        n++;
        if (chance || pos_game_status_n(pos, 1).result != RESULT_NONE)
            break;
        bool seen = false;
        for (int i = 0; i < n; i++)
            seen |= keys[i] == pos->key;
        if (seen)
            break;
        TtEntry *te = tt_probe(&s->tt, pos->key);
        mv = te ? te->move : XQ_MOVE_NONE;
    }
    for (int i = n - 1; i >= 0; i--)
        pos_undo_move(pos, pv[i], &undo[i]);
    return n;
}

int ab_root_search(AbSearch *s, Position *pos, int qdepth, const AbLimits *lim, AbRootResult *out)
{
    double start = ab_clock();
    memset(out, 0, sizeof *out);
    out->best = XQ_MOVE_NONE;
    MoveList *list = &s->lists[0];
    if (pos_generate_legal(pos, list) == 0)
        return -1;
    out->nmoves = list->count;
    memcpy(out->moves, list->moves, (size_t)list->count * sizeof list->moves[0]);
    if (s->tt.mask == 0 && s->tt_bytes > TT_BUCKET * sizeof(TtEntry)) {
        Tt big;
        if (tt_init(&big, s->tt_bytes) == 0) {
            tt_free(&s->tt);
            s->tt = big;
        } else {
            s->tt_bytes = 0;
        }
    }
    tt_new_search(&s->tt);
    s->stats.searches++;
    s->qdepth = qdepth;
    s->null_hist = -1;
    s->limits = lim;
    s->root_nodes0 = s->stats.nodes;
    s->next_poll = s->stats.nodes;
    s->abort = false;
    /* The root is a principal-variation node: no static evaluation, so "improving" two plies
     * below has nothing to compare with (a value left here by an earlier search made games
     * depend on what the searcher had played before). */
    s->evals[0] = TT_NO_EVAL;
    /* First order: the table's move, captures by victim, killers, history. */
    TtEntry *te = tt_probe(&s->tt, pos->key);
    order_moves(s, pos, 0, te ? te->move : XQ_MOVE_NONE);
    for (int i = 0; i < list->count; i++)
        pick_next(s, pos, 0, i);
    for (int i = 0; i < list->count; i++)
        s->root_scores[i] = -AB_INF;
    int max_depth = lim->max_depth < 1 ? 1 : lim->max_depth > AB_MAX_PLY / 2 ? AB_MAX_PLY / 2
                                                                            : lim->max_depth;
    int score = 0;
    for (int d = 1; d <= max_depth; d++) {
        s->root_depth = d;
        int delta = 35, alpha = -AB_INF, beta = AB_INF;
        if (d >= 4 && abs(score) < AB_MATE_BOUND) {
            alpha = score - delta;
            beta = score + delta;
        }
        int result;
        bool improved;
        for (;;) {
            result = root_pass(s, pos, alpha, beta, d, &improved);
            if (s->abort)
                break;
            if (result <= alpha && alpha > -AB_INF) {
                beta = (alpha + beta) / 2;
                alpha = result - delta > -AB_INF ? result - delta : -AB_INF;
            } else if (result >= beta && beta < AB_INF) {
                beta = result + delta < AB_INF ? result + delta : AB_INF;
            } else {
                break;
            }
            delta *= 2;
            if (delta > 1000)
                alpha = -AB_INF, beta = AB_INF;
        }
        if (s->abort) {
            /* A move that beat the last iteration's best in this unfinished one is played. */
            if (improved && d > 1)
                out->best = list->moves[0];
            break;
        }
        score = result;
        out->best = list->moves[0];
        out->score = score;
        out->depth = d;
        for (int i = 0; i < list->count; i++)
            for (int j = 0; j < out->nmoves; j++)
                if (out->moves[j] == list->moves[i])
                    out->move_score[j] = s->root_scores[i];
        tt_store(&s->tt, pos->key, out->best, score_to_tt(score, 0), TT_NO_EVAL, d, TT_EXACT);
        out->nodes = s->stats.nodes - s->root_nodes0;
        out->seconds = ab_clock() - start;
        out->pv_len = table_pv(s, pos, out->best, out->pv);
        if (lim->info)
            lim->info(out, lim->info_user);
        /* Done early: one legal move, a mate found within the depth, or no time for another
         * iteration. */
        if (list->count == 1 || (abs(score) > AB_MATE_BOUND && AB_MATE - abs(score) <= d))
            break;
        if (lim->soft_deadline > 0 && ab_clock() >= lim->soft_deadline)
            break;
        if (d < max_depth && out_of_budget(s)) {
            out->stopped = true;
            break;
        }
    }
    if (s->abort)
        out->stopped = true;
    s->abort = false;
    s->limits = NULL;
    out->nodes = s->stats.nodes - s->root_nodes0;
    out->seconds = ab_clock() - start;
    if (out->pv_len == 0 || out->pv[0] != out->best)
        out->pv_len = table_pv(s, pos, out->best, out->pv);
    return 0;
}
