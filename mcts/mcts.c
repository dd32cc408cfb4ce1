/* mcts.c - PUCT search over one game: node arena, heuristic priors, capture-search leaf values,
 * a small mate solver, Dirichlet root noise, tree reuse by in-place compaction, and chance nodes
 * for reveals of face-down pieces (core/hidden.h; RULES.md Conventions "Hidden pieces"). */
#include "mcts.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "absearch.h"
#include "eval_private.h"
#include "hidden.h"
#include "pst_delta.h"
#include "status.h"
#include "threats.h"
#include "walk.h"

enum {
    MCTS_MAX_DEPTH = 400,   /* tree depth below the root; deeper leaves are evaluated, not grown */
    MAX_PENDING = 16,       /* moves played since the last search that the tree follows */
};

#define NO_INDEX UINT32_MAX

/* A chance node is the child of an undrawn reveal: its children are the drawn identities with
 * their pool probabilities as priors; it is never proven, and its value is the probability-
 * weighted mean of its outcomes (chance_q). The search samples identities only from the public
 * pools (hidden_outcomes), never from a game's deal. */
typedef enum { NODE_LEAF = 0, NODE_EXPANDED = 1, NODE_TERMINAL = 2, NODE_CHANCE = 3 } NodeState;

/* A tree node: 24 bytes. Its children are one contiguous block of the arena. */
typedef struct Node {
    Move move;             /* move that leads here from the parent */
    float value_sum;       /* sum of values from the view of the side that played `move` */
    uint32_t visits;
    uint32_t first_child;  /* index of the children block (0 = none: the root is never a child) */
    uint16_t prior;        /* prior probability in units of 1 / PRIOR_ONE (chance outcomes: the
                            * pool probability of the identity) */
    int16_t tau;           /* heuristic value from the view of the side that played `move`, in
                            * units of 1 / TAU_ONE, TAU_NONE if unknown: the leaf search's value
                            * when the node was valued, then (minimax_weight > 0) the minimax of
                            * its children's (Lanctot et al. 2014, implicit minimax backups) */
    uint16_t nchildren;
    uint8_t state;         /* NodeState */
    int8_t proven;         /* 0: unknown (or a drawn terminal); +(1 + d): the side to move here
                            * wins by force in d plies; -(1 + d): it loses in d plies (terminal
                            * nodes have d = 0). The distance lets the search prefer the
                            * shortest win and the longest defence. */
} Node;

/* Expanded decision nodes and chance nodes own a children block. */
#define HAS_CHILDREN(state) ((state) == NODE_EXPANDED || (state) == NODE_CHANCE)

#define PRIOR_ONE 65535.0f
#define TAU_ONE 32000.0f
#define TAU_NONE INT16_MIN

static inline float prior_of(const Node *c)
{
    return (float)c->prior / PRIOR_ONE;
}

/* A positive probability never rounds to 0, so every move keeps an exploration term. */
static inline void set_prior(Node *c, double p)
{
    long q = lrint(p * PRIOR_ONE);
    c->prior = (uint16_t)(q < 1 ? (p > 0 ? 1 : 0) : q > 65535 ? 65535 : q);
}

static inline float tau_of(const Node *c)
{
    return (float)c->tau / TAU_ONE;
}

static inline int16_t to_tau(float v)
{
    return (int16_t)lrintf((v > 1.0f ? 1.0f : v < -1.0f ? -1.0f : v) * TAU_ONE);
}

_Static_assert(sizeof(Node) == 24, "a node is meant to stay at 24 bytes");

struct Mcts {
    const Variant *v;
    const Evaluator *e;
    const SearchParams *p;
    Node *nodes;
    uint32_t capacity, used;
    uint32_t *remap;         /* scratch for tree compaction, one entry per node */
    /* check_points[s * XQ_MAX_POINTS + k]: a move can only give check to the royal piece of side
     * s standing on k if it leaves or lands on one of these points. */
    PointSet *check_points;
    /* Rule-module moves (flags set) are scored by playing them (module_move_score); the capture
     * search walks the tables a module switched to. Both false for standard xiangqi. */
    bool module_moves;
    bool tables_vary;
    bool root_noised;
    bool sampling;           /* search = ab: score the candidates for sampling (mcts_set_sampling) */
    uint64_t truncated_searches; /* searches cut short by a full arena, since creation */
    const HiddenKnowledge *knowledge; /* capture_knowledge = capturer: the game's, or NULL */
    SearchControl control;   /* stop flag, playout cap, progress callback (mcts_set_control) */
    AbSearch *ab;            /* leaf searches, and the root search of search = ab */
    AbRootResult ab_result;  /* of the last root search */
    bool ab_used;            /* its table holds entries of this game */
    /* Identity of the tree's root: the position of the last search, then the moves played. */
    uint64_t root_key;
    int root_hist_len;
    int npending;
    Move pending[MAX_PENDING];
    uint32_t path[MCTS_MAX_DEPTH + 1];
    bool moved[MCTS_MAX_DEPTH + 1]; /* path[d] was entered by a move on the board (not a chance
                                     * node, which only stands for the undrawn reveal) */
    Undo undo[MCTS_MAX_DEPTH];
    MoveList list;
    double logits[XQ_MAX_MOVES];
    AttackMap attacks;            /* of the position being expanded (prior_see) */
    double gains[XQ_MAX_MOVES];   /* material gain of each move (heuristic_logits), pawns */
    int order[XQ_MAX_MOVES];
};

/* ---- arena ---------------------------------------------------------------------------------- */

static void reset_tree(Mcts *m)
{
    memset(&m->nodes[0], 0, sizeof m->nodes[0]);
    m->nodes[0].move = XQ_MOVE_NONE;
    m->nodes[0].tau = TAU_NONE;
    m->used = 1;
    m->root_noised = false;
    m->npending = 0;
}

static void build_check_points(Mcts *m)
{
    const Variant *v = m->v;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < v->npoints; k++) {
            PointSet *cp = &m->check_points[s * XQ_MAX_POINTS + k];
            *cp = v->danger[s][k];
            /* Leap origins too: a horse landing there checks (the danger set only lists points
             * whose occupancy could expose the royal to an attacker already in place). */
            const ReverseTable *rt = &v->reverse[XQ_OTHER((Side)s)][k];
            for (int i = 0; i < rt->count; i++)
                pointset_add(cp, v->reverse_leaps[rt->first + i].from);
        }
}

Mcts *mcts_create(const Variant *v, const Evaluator *e, const SearchParams *p)
{
    Mcts *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->v = v;
    m->e = e;
    m->p = p;
    m->capacity = (uint32_t)(p->arena_nodes > XQ_MAX_MOVES + 1 ? p->arena_nodes : XQ_MAX_MOVES + 1);
    m->nodes = malloc((size_t)m->capacity * sizeof *m->nodes);
    m->remap = malloc((size_t)m->capacity * sizeof *m->remap);
    m->check_points = calloc(2 * XQ_MAX_POINTS, sizeof *m->check_points);
    m->ab = ab_create(v, e, (uint64_t)p->hash_mb << 20);
    if (m->ab) {
        ab_set_see(m->ab, p->see_order);
        ab_set_see_prune(m->ab, p->see_prune);
        ab_set_cont_history(m->ab, p->cont_history);
    }
    if (!m->nodes || !m->remap || !m->check_points || !m->ab) {
        mcts_free(m);
        return NULL;
    }
    build_check_points(m);
    /* Undrawn reveals are chance events the prior cannot play out: the hidden-piece rule sets
     * keep the board-swap heuristic for all their moves. */
    m->module_moves = v->modules != 0 && !hidden_on(v);
    m->tables_vary = variant_tables_vary(v);
    mcts_set_control(m, NULL);
    reset_tree(m);
    return m;
}

uint64_t mcts_truncated_searches(const Mcts *m)
{
    return m->truncated_searches;
}

void mcts_free(Mcts *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m->remap);
    free(m->check_points);
    ab_free(m->ab);
    free(m);
}

void mcts_reset(Mcts *m)
{
    reset_tree(m);
    /* A new game starts from an empty table, so its searches depend on that game alone. */
    if (m->ab_used) {
        ab_clear(m->ab);
        m->ab_used = false;
    }
}

/* ---- leaf evaluation ------------------------------------------------------------------------ */

/* A score in pawns (side to move's view) squashed to a value in [-1, 1], shrunk towards a draw
 * as the natural move limit nears (progress_pull). */
static float squash(const Mcts *m, const Position *pos, double pawns)
{
    const SearchParams *p = m->p;
    double value = tanh(pawns / p->eval_scale);
    int limit = pos->v->rules.move_limit;
    if (limit > 0 && p->progress_pull > 0) {
        double used = (double)pos->limit_count / limit;
        value *= 1.0 - p->progress_pull * (used < 1.0 ? used : 1.0);
    }
    return (float)value;
}

/* Value of a position for the side to move, in [-1, 1]: a short alpha-beta search of
 * leaf_depth plies and a capture search (absearch.h) over the evaluation. */
static float leaf_value(Mcts *m, Position *pos, Move *best)
{
    const SearchParams *p = m->p;
    m->ab_used |= p->leaf_depth > 0;
    int cp = ab_search(m->ab, pos, p->leaf_depth, p->qsearch_depth, best);
    if (cp > AB_MATE_BOUND)
        return 1.0f;
    if (cp < -AB_MATE_BOUND)
        return -1.0f;
    return squash(m, pos, cp / 100.0);
}

/* ---- expansion ------------------------------------------------------------------------------ */

/* Prior score of taking the enemy royal piece (multi-move turns can): the game ends there. */
#define ROYAL_CAPTURE_SCORE 100.0

/* Heuristic score of a rule-module move (flags set), mover's view, found by playing it: the
 * change of the evaluation's material terms (piece-square sum and off-board holdings), so a camp
 * entry or a displacement loses nothing, a double move counts both sub-moves and a roll is
 * neutral; the recapture charge if it took something. *check: it leaves the opponent in check;
 * *royal: it takes the opponent's royal piece. */
static double module_move_score(Mcts *m, Position *pos, Move mv, double before, bool *check,
                                bool *royal)
{
    const Evaluator *e = m->e;
    Side us = pos->side;
    int kind = XQ_PIECE_KIND(pos->board[XQ_MOVE_FROM(mv)]); /* -1: a piece leaving a camp */
    Undo u;
    pos_do_move(pos, mv, &u);
    double score = (us == RED ? 1.0 : -1.0) * (eval_material_red(e, pos) - before);
    if ((u.captured || u.captured2) && kind >= 0)
        score -= 0.1 * e->value[kind];
    *check = pos->in_check;
    *royal = pos->v->royal_mask && pos->royal[XQ_OTHER(us)] == XQ_NO_POINT;
    pos_undo_move(pos, mv, &u);
    return score;
}

/* Lowest value among the pieces of side s in the attack mask. */
static double cheapest(const Mcts *m, const Position *pos, Side s, uint64_t mask)
{
    double low = 1e9;
    for (; mask; mask &= mask - 1) {
        Point q = pos->list[s][__builtin_ctzll(mask)];
        double v = m->e->value[XQ_PIECE_KIND(pos->board[q])];
        if (v < low)
            low = v;
    }
    return low;
}

/* What a plain move risks or saves by the attack map, in pawns, from the mover's view: the
 * moving piece of value V is lost on an attacked destination (V if nothing else of ours guards
 * it, else what it is worth beyond the cheapest attacker), and saved from an attacked origin in
 * the same measure. A one-exchange estimate: pieces the move unmasks or blocks are not seen. */
static double exchange_risk(const Mcts *m, const Position *pos, Move mv)
{
    Point from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
    Side us = pos->side, them = XQ_OTHER(us);
    int kind = XQ_PIECE_KIND(pos->board[from]);
    if (m->v->royal_mask >> kind & 1)
        return 0.0; /* the royal piece never moves into attack (legal moves) */
    double value = m->e->value[kind];
    const AttackMap *a = &m->attacks;
    uint64_t self = (uint64_t)1 << pos->index[from];
    double risk = 0, saved = 0;
    if (a->by[them][to]) {
        double low = cheapest(m, pos, them, a->by[them][to]);
        risk = a->by[us][to] & ~self ? (value > low ? value - low : 0.0) : value;
    }
    if (a->by[them][from]) {
        double low = cheapest(m, pos, them, a->by[them][from]);
        saved = a->by[us][from] ? (value > low ? value - low : 0.0) : value;
    }
    return saved - risk;
}

/* Heuristic logits of the moves (m->logits, in pawns / prior_temperature): the piece-square gain
 * of the move (captures by victim value, zone entries such as crossing the river), a small
 * charge for capturing with a valuable piece (it may be recaptured), and a bonus for checks.
 * Rule-module moves are scored by playing them (module_move_score). Returns true if a move takes
 * the enemy royal piece. */
static bool heuristic_logits(Mcts *m, Position *pos, const Node *child, int n)
{
    const Evaluator *e = m->e;
    const SearchParams *p = m->p;
    Side us = pos->side, them = XQ_OTHER(us);
    double sign = us == RED ? 1.0 : -1.0;
    Point their_royal = pos->royal[them];
    const PointSet *cp =
        their_royal != XQ_NO_POINT ? &m->check_points[them * XQ_MAX_POINTS + their_royal] : NULL;
    double inv_t = 1.0 / p->prior_temperature;
    double before = m->module_moves ? eval_material_red(e, pos) : 0;
    double see = p->prior_see;
    if (see > 0)
        attack_map_build(pos, &m->attacks);
    bool takes_royal = false;
    for (int i = 0; i < n; i++) {
        Move mv = child[i].move;
        Point from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
        if (m->module_moves && XQ_MOVE_FLAGS(mv)) {
            bool check, royal;
            double score = module_move_score(m, pos, mv, before, &check, &royal);
            m->gains[i] = score;
            if (check)
                score += p->prior_check_bonus;
            if (royal) {
                score += ROYAL_CAPTURE_SCORE;
                takes_royal = true;
            }
            m->logits[i] = score * inv_t;
            continue;
        }
        double score = move_delta(e, pos, mv, sign);
        m->gains[i] = score;
        if (see > 0)
            score += see * exchange_risk(m, pos, mv);
        else if (pos->board[to])
            score -= 0.1 * e->value[XQ_PIECE_KIND(pos->board[from])];
        if (cp && p->prior_check_bonus > 0 && (pointset_has(cp, from) || pointset_has(cp, to)) &&
            pos_gives_check(pos, mv))
            score += p->prior_check_bonus;
        m->logits[i] = score * inv_t;
    }
    return takes_royal;
}

/* Priors: the softmax of m->logits. */
static void softmax_priors(Mcts *m, Node *child, int n)
{
    double best = -1e300;
    for (int i = 0; i < n; i++)
        if (m->logits[i] > best)
            best = m->logits[i];
    double sum = 0;
    for (int i = 0; i < n; i++) {
        m->logits[i] = exp(m->logits[i] - best);
        sum += m->logits[i];
    }
    for (int i = 0; i < n; i++)
        set_prior(&child[i], m->logits[i] / sum);
}

/* Game value (+1 / -1 / 0) of a proof. */
static inline float proof_value(int8_t proven)
{
    return (float)((proven > 0) - (proven < 0));
}

/* Marks a node whose position ends the game (st): terminal, proven from the view of the side to
 * move there (`to_move`). Returns its value from that side's view. */
static float set_terminal(Node *node, GameStatus st, Side to_move)
{
    int red = st.result == RESULT_RED_WINS ? 1 : st.result == RESULT_BLACK_WINS ? -1 : 0;
    node->state = NODE_TERMINAL;
    node->proven = (int8_t)(to_move == RED ? red : -red);
    return proof_value(node->proven);
}

static void update_proof(Mcts *m, Node *parent, const Node *child);

/* A logit for a won or lost move, in pawns: far beyond any evaluation. */
#define DECIDED_GAIN 50.0

/* child_values: every child but the undrawn reveals is played and valued by the leaf search
 * (its game end, if it ends the game, makes it a proven terminal node at once). Its value from
 * the mover's view becomes its tau, its gain over the static evaluation (plus the check bonus)
 * its logit; undrawn reveals keep their heuristic logits and no tau. Children go best heuristic
 * first; the forcing ones (captures, checks, rule-module moves) are always searched, the quiet
 * ones only among the first child_top (> 0) and while the static evaluation plus their heuristic
 * gain comes within child_margin (> 0) pawns of the best searched sibling (futility pruning);
 * the others get that estimate as their value.
 * Returns the best child's value (side to move's view), or NAN if no child could be valued. */
static float value_children(Mcts *m, Position *pos, Node *node, Node *child, int n)
{
    const SearchParams *p = m->p;
    double stand = eval_score(m->e, pos);
    double temp = p->prior_temperature;
    bool hidden = hidden_on(m->v);
    int top = p->child_top > 0 ? p->child_top : n;
    double margin = p->child_margin > 0 ? p->child_margin : 1e9, best_pawns = -1e9;
    Side us = pos->side;
    float best = NAN;
    bool decided = false;
    int *order = m->order;
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && m->logits[order[j - 1]] < m->logits[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int k = 0; k < n; k++) {
        int i = order[k];
        Move mv = child[i].move;
        if (hidden && hidden_is_chance(pos, mv))
            continue;
        bool capture = pos->board[XQ_MOVE_TO(mv)] != XQ_EMPTY;
        double estimate = m->logits[i] * temp; /* the heuristic gain */
        Undo u;
        pos_do_move(pos, mv, &u);
        bool check = pos->in_check;
        bool forcing = capture || check || XQ_MOVE_FLAGS(mv);
        bool searched = forcing || (k < top && stand + estimate >= best_pawns - margin);
        float v;
        double gain;
        GameStatus st = {RESULT_NONE, TERM_NONE};
        if (searched)
            st = pos_game_status_n(pos, check ? pos_count_legal(pos) : 1);
        if (st.result != RESULT_NONE) {
            v = -set_terminal(&child[i], st, XQ_OTHER(us));
            gain = v > 0 ? DECIDED_GAIN : v < 0 ? -DECIDED_GAIN : -stand;
            decided = true;
        } else if (!searched) {
            gain = estimate;
            v = squash(m, pos, stand + gain);
        } else {
            m->ab_used |= p->leaf_depth > 0;
            int cp = -ab_search(m->ab, pos, p->leaf_depth, p->qsearch_depth, NULL);
            if (cp > AB_MATE_BOUND || cp < -AB_MATE_BOUND) {
                v = cp > 0 ? 1.0f : -1.0f;
                gain = cp > 0 ? DECIDED_GAIN : -DECIDED_GAIN;
            } else {
                v = squash(m, pos, cp / 100.0);
                gain = cp / 100.0 - stand;
            }
            if (cp / 100.0 > best_pawns)
                best_pawns = cp / 100.0;
            if (check)
                gain += p->prior_check_bonus;
        }
        pos_undo_move(pos, mv, &u);
        child[i].tau = to_tau(v);
        m->logits[i] = gain / temp;
        if (isnan(best) || v > best)
            best = v;
    }
    if (decided)
        for (int i = 0; i < n; i++)
            if (child[i].state == NODE_TERMINAL)
                update_proof(m, node, &child[i]);
    return best;
}

typedef enum { EXPAND_OK, EXPAND_FULL } ExpandResult;

/* Expands the leaf `idx` at the current position: terminal check (not at the root: the caller
 * decided the game goes on there), children with priors, and the leaf's value in *value (side to
 * move's view). */
static ExpandResult expand(Mcts *m, Position *pos, uint32_t idx, bool is_root, float *value)
{
    int n = pos_generate_legal(pos, &m->list);
    if (!is_root) {
        GameStatus st = pos_game_status_n(pos, n);
        if (st.result != RESULT_NONE) {
            *value = set_terminal(&m->nodes[idx], st, pos->side);
            return EXPAND_OK;
        }
    }
    assert(n > 0);
    if ((uint32_t)n > m->capacity - m->used)
        return EXPAND_FULL;
    uint32_t first = m->used;
    m->used += (uint32_t)n;
    Node *child = &m->nodes[first];
    for (int i = 0; i < n; i++) {
        memset(&child[i], 0, sizeof child[i]);
        child[i].move = m->list.moves[i];
        child[i].tau = TAU_NONE;
    }
    Node *node = &m->nodes[idx];
    node->first_child = first;
    node->nchildren = (uint16_t)n;
    node->state = NODE_EXPANDED;
    bool takes_royal = heuristic_logits(m, pos, child, n);
    float best = NAN;
    if (m->p->child_values)
        best = value_children(m, pos, node, child, n);
    softmax_priors(m, child, n);
    /* A move that takes the royal piece ends the game: the side to move wins in one ply (a
     * threat no capture search over single moves sees, e.g. two sub-moves of one turn). */
    if (takes_royal && !is_root && !node->proven)
        node->proven = 2;
    if (node->proven && !is_root) {
        *value = proof_value(node->proven);
        return EXPAND_OK;
    }
    if (!isnan(best)) {
        *value = best;
        return EXPAND_OK;
    }
    Move pv = XQ_MOVE_NONE;
    *value = leaf_value(m, pos, &pv);
    /* pv_prior: the leaf search's best move gets that share of the prior mass. */
    double w = m->p->pv_prior;
    if (pv != XQ_MOVE_NONE && w > 0)
        for (int i = 0; i < n; i++)
            if (child[i].move == pv) {
                for (int j = 0; j < n; j++)
                    set_prior(&child[j], (1.0 - w) * prior_of(&child[j]) + (j == i ? w : 0.0));
                break;
            }
    return EXPAND_OK;
}

/* ---- selection and backup ------------------------------------------------------------------- */

/* Value of a child from the view of the side choosing it: its proof, else its mean value blended
 * with its heuristic minimax value (weight `alpha`), else (unvisited) that heuristic value or,
 * without one, the first-play urgency `fpu`. */
static inline float child_q(const Node *c, float fpu, float alpha)
{
    if (c->proven)
        return -proof_value(c->proven);
    if (!c->visits)
        return c->tau != TAU_NONE ? tau_of(c) : fpu;
    float q = c->value_sum / (float)c->visits;
    return alpha > 0 && c->tau != TAU_NONE ? (1.0f - alpha) * q + alpha * tau_of(c) : q;
}

/* Value of a chance node for the side that plays the reveal: the outcomes' values weighted by
 * their pool probabilities, renormalised over the outcomes visited so far. */
static float chance_q(const Mcts *m, const Node *c, float fpu, float alpha)
{
    const Node *o = &m->nodes[c->first_child];
    double sum = 0, weight = 0;
    for (int i = 0; i < c->nchildren; i++)
        if (o[i].visits || o[i].proven) {
            sum += (double)prior_of(&o[i]) * child_q(&o[i], 0.0f, alpha);
            weight += prior_of(&o[i]);
        }
    return weight > 0 ? (float)(sum / weight) : fpu;
}

/* The outcome to follow: the one whose visits lag most behind its probability (stratified, so
 * visit shares track the pool exactly and the search stays deterministic). */
static uint32_t select_outcome(const Mcts *m, const Node *c)
{
    const Node *o = &m->nodes[c->first_child];
    int pick = 0;
    double best = -1e300;
    for (int i = 0; i < c->nchildren; i++) {
        double lag = (double)prior_of(&o[i]) * (double)(c->visits + 1) - (double)o[i].visits;
        if (lag > best) {
            best = lag;
            pick = i;
        }
    }
    return c->first_child + (uint32_t)pick;
}

static uint32_t select_child(const Mcts *m, const Node *node)
{
    const Node *child = &m->nodes[node->first_child];
    float n_parent = (float)node->visits;
    float parent_q = -node->value_sum / n_parent;
    float fpu = parent_q - (float)m->p->fpu_reduction;
    float alpha = (float)m->p->minimax_weight;
    float c_sqrt = (float)m->p->c_puct * sqrtf(n_parent) / PRIOR_ONE;
    float best = -1e30f;
    int pick = 0, win = -1;
    /* A forced win makes everything else moot: follow the shortest one. */
    for (int i = 0; i < node->nchildren; i++)
        if (child[i].proven < 0 && (win < 0 || child[i].proven > child[win].proven))
            win = i;
    if (win >= 0)
        return node->first_child + (uint32_t)win;
    for (int i = 0; i < node->nchildren; i++) {
        const Node *c = &child[i];
        float q = c->state == NODE_CHANCE ? chance_q(m, c, fpu, alpha) : child_q(c, fpu, alpha);
        float score = q + c_sqrt * (float)c->prior / (1.0f + (float)c->visits);
        if (score > best) {
            best = score;
            pick = i;
        }
    }
    return node->first_child + (uint32_t)pick;
}

/* After a child's proof changed, the parent may be proven too: a losing reply for the opponent
 * wins (in one ply more than the quickest such loss); all replies winning for the opponent lose
 * (in one ply more than the slowest such win). */
static void update_proof(Mcts *m, Node *parent, const Node *child)
{
    if (!child->proven || parent->state == NODE_CHANCE)
        return;
    const Node *c = &m->nodes[parent->first_child];
    int win = 0, loss = 0;
    bool all_lose = true;
    for (int i = 0; i < parent->nchildren; i++) {
        int p = c[i].proven;
        if (p < 0 && (win == 0 || 1 - p < win))
            win = 1 - p;
        if (p <= 0)
            all_lose = false;
        else if (p + 1 > loss)
            loss = p + 1;
    }
    if (win)
        parent->proven = (int8_t)(win > 127 ? 127 : win);
    else if (all_lose)
        parent->proven = (int8_t)(loss > 127 ? -127 : -loss);
}

/* Implicit minimax backup of one node: a decision node's tau becomes minus the best of its
 * children's (proofs count as +-1; children without a value are left out), a chance node's the
 * probability-weighted mean of its outcomes'. A node none of whose children has a value keeps
 * its own. */
static void backup_tau(const Mcts *m, Node *node)
{
    const Node *c = &m->nodes[node->first_child];
    if (node->state == NODE_CHANCE) {
        double sum = 0, weight = 0;
        for (int i = 0; i < node->nchildren; i++) {
            float v = c[i].proven ? -proof_value(c[i].proven) : c[i].tau != TAU_NONE ? tau_of(&c[i]) : NAN;
            if (!isnan(v)) {
                sum += (double)prior_of(&c[i]) * v;
                weight += prior_of(&c[i]);
            }
        }
        if (weight > 0)
            node->tau = to_tau((float)(sum / weight));
        return;
    }
    float best = -2.0f;
    for (int i = 0; i < node->nchildren; i++) {
        float v = c[i].proven ? -proof_value(c[i].proven) : c[i].tau != TAU_NONE ? tau_of(&c[i]) : -2.0f;
        if (v > best)
            best = v;
    }
    if (best > -2.0f)
        node->tau = to_tau(-best);
}

typedef enum { PLAYOUT_OK, PLAYOUT_FULL } PlayoutResult;

static PlayoutResult playout(Mcts *m, Position *pos)
{
    int depth = 0;
    uint32_t idx = 0;
    float value = 0;
    m->path[0] = 0;
    for (;;) {
        Node *node = &m->nodes[idx];
        if (node->state == NODE_TERMINAL || (depth > 0 && node->proven)) {
            value = proof_value(node->proven);
            break;
        }
        if (node->state == NODE_LEAF || depth >= MCTS_MAX_DEPTH - 1 ||
            pos->hist_len + AB_MAX_PLY + 2 >= XQ_MAX_HISTORY) {
            if (node->state == NODE_LEAF && depth < MCTS_MAX_DEPTH - 1 &&
                pos->hist_len + AB_MAX_PLY + 2 < XQ_MAX_HISTORY) {
                if (expand(m, pos, idx, depth == 0, &value) == EXPAND_FULL) {
                    while (depth > 0) {
                        if (m->moved[depth])
                            pos_undo_move(pos, m->nodes[m->path[depth]].move, &m->undo[depth - 1]);
                        depth--;
                    }
                    return PLAYOUT_FULL;
                }
            } else {
                value = leaf_value(m, pos, NULL);
            }
            break;
        }
        idx = select_child(m, node);
        Node *c = &m->nodes[idx];
        if (c->state == NODE_CHANCE ||
            (c->state == NODE_LEAF && hidden_on(m->v) && hidden_is_chance(pos, c->move))) {
            if (c->state == NODE_LEAF) {
                Move out[HIDDEN_MAX_OUTCOMES];
                double prob[HIDDEN_MAX_OUTCOMES];
                int n = hidden_outcomes(pos, c->move, out, prob);
                if ((uint32_t)n > m->capacity - m->used) {
                    while (depth > 0) {
                        if (m->moved[depth])
                            pos_undo_move(pos, m->nodes[m->path[depth]].move, &m->undo[depth - 1]);
                        depth--;
                    }
                    return PLAYOUT_FULL;
                }
                Node *o = &m->nodes[m->used];
                for (int i = 0; i < n; i++) {
                    memset(&o[i], 0, sizeof o[i]);
                    o[i].move = out[i];
                    o[i].tau = TAU_NONE;
                    set_prior(&o[i], prob[i]);
                }
                c->first_child = m->used;
                c->nchildren = (uint16_t)n;
                c->state = NODE_CHANCE;
                m->used += (uint32_t)n;
            }
            m->moved[depth + 1] = false;
            m->path[++depth] = idx;
            idx = select_outcome(m, c);
        }
        pos_do_move(pos, m->nodes[idx].move, &m->undo[depth]);
        m->moved[depth + 1] = true;
        m->path[++depth] = idx;
    }
    /* Backup: `value` is from the view of the side to move at the leaf; each node stores values
     * from the view of the side that moved into it (an outcome and its chance node: the same
     * mover, so no change of view between them). */
    float v = -value;
    bool minimax = m->p->minimax_weight > 0;
    Node *leaf = &m->nodes[m->path[depth]];
    if (leaf->state != NODE_TERMINAL && !leaf->proven)
        leaf->tau = to_tau(v);
    for (int d = depth; d >= 0; d--) {
        Node *node = &m->nodes[m->path[d]];
        node->visits++;
        node->value_sum += v;
        if (!(d > 1 && !m->moved[d - 1]))
            v = -v; /* unless the node above is a chance node */
        if (d > 0)
            update_proof(m, &m->nodes[m->path[d - 1]], node);
        if (minimax && d < depth && HAS_CHILDREN(node->state))
            backup_tau(m, node);
    }
    while (depth > 0) {
        if (m->moved[depth])
            pos_undo_move(pos, m->nodes[m->path[depth]].move, &m->undo[depth - 1]);
        depth--;
    }
    return PLAYOUT_OK;
}

/* ---- search --------------------------------------------------------------------------------- */

/* Does the stored tree's root describe this position? It does if it is the position of the
 * last search followed by exactly the moves passed to mcts_advance since. */
static bool tree_matches(const Mcts *m, const Position *pos)
{
    if (m->nodes[0].state == NODE_LEAF)
        return true;
    if (pos->hist_len != m->root_hist_len + m->npending)
        return false;
    if (m->npending == 0)
        return pos->key == m->root_key;
    if (pos->hist[m->root_hist_len].key != m->root_key)
        return false;
    for (int i = 0; i < m->npending; i++)
        if (pos->hist[m->root_hist_len + i].move != m->pending[i])
            return false;
    return true;
}

static void add_noise(Mcts *m, Rng *rng)
{
    Node *root = &m->nodes[0];
    Node *child = &m->nodes[root->first_child];
    double noise[XQ_MAX_MOVES], sum = 0;
    for (int i = 0; i < root->nchildren; i++) {
        noise[i] = rng_gamma(rng, m->p->dirichlet_alpha);
        sum += noise[i];
    }
    if (!(sum > 0))
        return;
    double eps = m->p->dirichlet_epsilon;
    for (int i = 0; i < root->nchildren; i++)
        set_prior(&child[i], (1.0 - eps) * prior_of(&child[i]) + eps * noise[i] / sum);
}

/* Mate search for decided positions: the shortest forced win of SHORT_MATE_MOVES own moves. */
enum { SHORT_MATE_MOVES = 2 };

static bool wins_after(Position *pos, Move m, int n);

/* A move of `list` (legal in pos) that wins within n own moves, or XQ_MOVE_NONE. */
static Move mate_in(Position *pos, const MoveList *list, int n)
{
    for (int i = 0; i < list->count; i++)
        if (wins_after(pos, list->moves[i], n))
            return list->moves[i];
    return XQ_MOVE_NONE;
}

/* True if playing m wins at once, or (n > 1) every reply allows a win within n - 1 moves. */
static bool wins_after(Position *pos, Move m, int n)
{
    Side us = pos->side;
    Result win = us == RED ? RESULT_RED_WINS : RESULT_BLACK_WINS;
    Undo u;
    pos_do_move(pos, m, &u);
    MoveList replies;
    int nreplies = pos_generate_legal(pos, &replies);
    GameStatus st = pos_game_status_n(pos, nreplies);
    bool won = st.result == win;
    if (st.result == RESULT_NONE && n > 1) {
        won = true;
        for (int i = 0; i < replies.count && won; i++) {
            Undo ur;
            pos_do_move(pos, replies.moves[i], &ur);
            MoveList ours;
            int nours = pos_generate_legal(pos, &ours);
            GameStatus st2 = pos_game_status_n(pos, nours);
            won = st2.result == win ||
                  (st2.result == RESULT_NONE && mate_in(pos, &ours, n - 1) != XQ_MOVE_NONE);
            pos_undo_move(pos, replies.moves[i], &ur);
        }
    }
    pos_undo_move(pos, m, &u);
    return won;
}

/* The move to report of an expanded node (the root's best move, a step of the principal
 * variation): a proven win if there is one (an immediate one first), else the most visited move
 * that is not a proven loss, ties broken by prior. */
static int best_child(const Mcts *m, const Node *node)
{
    const Node *c = &m->nodes[node->first_child];
    int best = 0;
    for (int i = 1; i < node->nchildren; i++) {
        const Node *a = &c[i], *b = &c[best];
        /* Rank: shortest proven win first, then unproven, then the longest proven loss. */
        int wa = a->proven < 0 ? 1000 + a->proven : a->proven > 0 ? -1000 + a->proven : 0;
        int wb = b->proven < 0 ? 1000 + b->proven : b->proven > 0 ? -1000 + b->proven : 0;
        if (wa != wb ? wa > wb
                     : a->visits != b->visits ? a->visits > b->visits : a->prior > b->prior)
            best = i;
    }
    return best;
}

void mcts_set_knowledge(Mcts *m, const HiddenKnowledge *k)
{
    m->knowledge = k;
}

void mcts_set_control(Mcts *m, const SearchControl *c)
{
    static const SearchControl none = SEARCH_CONTROL_INIT;
    m->control = c ? *c : none;
}

static double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Plies to the end of a proven node's game (its proof is +-(1 + plies)); 0 if unproven. */
static int proven_plies(int8_t proven)
{
    return proven > 0 ? proven - 1 : proven < 0 ? -proven - 1 : 0;
}

/* Root value from the side to move's view. */
static float root_value(const Mcts *m)
{
    const Node *root = &m->nodes[0];
    if (root->proven)
        return proof_value(root->proven);
    return root->visits ? -root->value_sum / (float)root->visits : 0.0f;
}

/* The principal variation into pv (at most MCTS_PV_MAX moves) and the visits of its nodes: the
 * root's best move, then the best child of each node below while it has been visited; it ends
 * after an undrawn reveal,
 * whose outcome is chance. Moves are played on pos to translate them out of the search's view
 * (hidden_view_game_move) and undone. */
static int principal_variation(Mcts *m, Position *pos, Move *pv, uint32_t *visits)
{
    int n = 0, played = 0;
    Move moves[MCTS_PV_MAX];
    const Node *node = &m->nodes[0];
    while (n < MCTS_PV_MAX && node->state == NODE_EXPANDED && node->nchildren > 0) {
        const Node *c = &m->nodes[node->first_child + (uint32_t)best_child(m, node)];
        if (n > 0 && c->visits == 0 && !c->proven)
            break;
        visits[n] = c->visits;
        pv[n++] = hidden_view_game_move(pos, c->move);
        if (c->state == NODE_CHANCE || (hidden_on(m->v) && hidden_is_chance(pos, c->move)))
            break;
        moves[played] = c->move;
        pos_do_move(pos, c->move, &m->undo[played++]);
        node = c;
    }
    while (played > 0) {
        played--;
        pos_undo_move(pos, moves[played], &m->undo[played]);
    }
    return n;
}

static int search_root(Mcts *m, Position *pos, Rng *rng, bool noise, SearchResult *out);

/* early_stop: true if no root child can catch up with the most visited one in `left` more
 * playouts (each adds one visit to one child), so the move the search returns is settled; a
 * single legal move is settled at once. */
static bool decided(const Mcts *m, int left)
{
    const Node *root = &m->nodes[0];
    if (root->nchildren == 1)
        return true;
    const Node *c = &m->nodes[root->first_child];
    uint32_t first = 0, second = 0;
    for (int i = 0; i < root->nchildren; i++) {
        uint32_t v = c[i].proven > 0 ? 0 : c[i].visits; /* a proven loss is never chosen */
        if (v > first) {
            second = first;
            first = v;
        } else if (v > second) {
            second = v;
        }
    }
    return first > second + (uint32_t)left;
}

/* Calls the progress callback with the search so far. */
static void report_info(Mcts *m, Position *pos, int playouts, double seconds)
{
    SearchInfo info;
    info.playouts = playouts;
    info.visits = (int)m->nodes[0].visits;
    info.seconds = seconds;
    info.playouts_per_second = seconds > 0 ? playouts / seconds : 0;
    info.value = root_value(m);
    info.proven = (int)proof_value(m->nodes[0].proven);
    info.proven_plies = proven_plies(m->nodes[0].proven);
    info.arena_permille = (int)((uint64_t)m->used * 1000 / m->capacity);
    info.pv_len = principal_variation(m, pos, info.pv, info.pv_visits);
    m->control.info(&info, m->control.info_user);
}

/* ---- search = ab: alpha-beta at the root ---------------------------------------------------- */

/* A centipawn score of the side to move as a value in [-1, 1] (the leaf values' squash without
 * the progress pull), or a proof for a mate score. */
static float ab_value(const Mcts *m, int cp, int *proven, int *plies)
{
    *proven = 0;
    *plies = 0;
    if (abs(cp) > AB_MATE_BOUND) {
        *proven = cp > 0 ? 1 : -1;
        *plies = AB_MATE - abs(cp);
        return (float)*proven;
    }
    return (float)tanh(cp / 100.0 / m->p->eval_scale);
}

/* Translates a line of the search's view into the game's moves (hidden_view_game_move), playing
 * it on pos and restoring it. */
static int ab_game_pv(Mcts *m, Position *pos, const Move *line, int n, Move *pv)
{
    if (n > MCTS_PV_MAX)
        n = MCTS_PV_MAX;
    int played = 0;
    for (int i = 0; i < n; i++) {
        pv[i] = hidden_view_game_move(pos, line[i]);
        if (i + 1 < n)
            pos_do_move(pos, line[i], &m->undo[played++]);
    }
    while (played > 0) {
        played--;
        pos_undo_move(pos, line[played], &m->undo[played]);
    }
    return n;
}

typedef struct AbInfoCtx {
    Mcts *m;
    Position *pos;
} AbInfoCtx;

static void ab_report(const AbRootResult *r, void *user)
{
    AbInfoCtx *c = user;
    Mcts *m = c->m;
    if (!m->control.info)
        return;
    SearchInfo info;
    memset(&info, 0, sizeof info);
    info.playouts = r->nodes > INT_MAX ? INT_MAX : (int)r->nodes;
    info.visits = info.playouts;
    info.seconds = r->seconds;
    info.playouts_per_second = r->seconds > 0 ? (double)r->nodes / r->seconds : 0;
    info.value = ab_value(m, r->score, &info.proven, &info.proven_plies);
    info.depth = r->depth;
    info.pv_len = ab_game_pv(m, c->pos, r->pv, r->pv_len, info.pv);
    for (int i = 0; i < info.pv_len; i++)
        info.pv_visits[i] = 1;
    m->control.info(&info, m->control.info_user);
}

/* Exact score (centipawns, root side) of root move mv after a root search that completed
 * `depth` plies: the move's own search one ply less (plus a check extension, as the root search
 * does), a reveal the mean over its identities, a game end after it by the rule set. */
static int ab_move_score(Mcts *m, Position *pos, Move mv, int depth)
{
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    int n = 1;
    out[0] = mv;
    prob[0] = 1.0;
    if (hidden_on(m->v) && hidden_is_chance(pos, mv))
        n = hidden_outcomes(pos, mv, out, prob);
    double sum = 0, weight = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_do_move(pos, out[i], &u);
        int score;
        GameStatus st = pos_game_status(pos);
        if (st.result == RESULT_DRAW)
            score = 0;
        else if (st.result != RESULT_NONE)
            score = (st.result == RESULT_RED_WINS) == (pos->side == RED) ? -(AB_MATE - 1)
                                                                          : AB_MATE - 1;
        else
            score = -ab_search(m->ab, pos, depth - 1 + (pos->in_check ? 1 : 0), m->p->qsearch_depth,
                               NULL);
        pos_undo_move(pos, out[i], &u);
        sum += prob[i] * score;
        weight += prob[i];
    }
    return weight > 0 ? (int)lrint(sum / weight) : 0;
}

/* mcts_set_sampling: the sampling weights of the root moves near the best. The root search
 * leaves most moves with the bound of a null-window test, often within the margin, so the
 * moves it does not rule out are first scored by a shallow search (two plies less than the
 * root's, at most two), and only the AB_SAMPLE_MAX best of those within twice the margin of
 * the best move's shallow score are searched to the full depth (every one of them when the root
 * search is two plies deep or less: then the full depth is the cheap one). */
enum { AB_SAMPLE_MAX = 4 };

static void ab_sample(Mcts *m, Position *pos, const AbRootResult *r, SearchResult *out)
{
    const SearchParams *p = m->p;
    int margin = (int)lrint(p->ab_margin * 100.0);
    if (r->nmoves < 2 || margin <= 0 || abs(r->score) > AB_MATE_BOUND || r->depth < 1)
        return;
    int pre[XQ_MAX_MOVES], exact[XQ_MAX_MOVES], order[XQ_MAX_MOVES];
    int n = 0, best_i = -1;
    int shallow = r->depth > 4 ? 2 : r->depth > 2 ? r->depth - 2 : 1;
    for (int i = 0; i < r->nmoves; i++) {
        exact[i] = INT_MIN;
        if (r->moves[i] == r->best)
            best_i = i;
        else if (r->move_score[i] < r->score - margin)
            continue;
        pre[i] = r->depth > 2 ? ab_move_score(m, pos, r->moves[i], shallow) : 0;
        order[n++] = i;
    }
    if (best_i < 0 || n < 2)
        return;
    /* Best shallow scores first (insertion sort: n is a root's move count). */
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && pre[order[b]] > pre[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    exact[best_i] = r->score;
    int top = r->score, searched = 0;
    for (int k = 0; k < n && (searched < AB_SAMPLE_MAX || r->depth <= 2); k++) {
        int i = order[k];
        if (i == best_i)
            continue;
        if (r->depth > 2 && pre[i] < pre[best_i] - 2 * margin)
            break;
        exact[i] = ab_move_score(m, pos, r->moves[i], r->depth);
        searched++;
        if (exact[i] > top)
            top = exact[i];
    }
    if (top > AB_MATE_BOUND)
        return;
    int nweighted = 0;
    for (int i = 0; i < r->nmoves; i++) {
        out->child_weight[i] = 0.0f;
        if (exact[i] != INT_MIN && exact[i] >= top - margin) {
            out->child_weight[i] = (float)exp(-(top - exact[i]) / (100.0 * p->ab_temperature));
            nweighted++;
        }
    }
    if (nweighted < 2)
        return;
    out->weighted = true;
    out->ncandidates = nweighted;
}

/* search = ab: the move of ab_root_search within the parameters' budget (movetime, ab_nodes; else
 * the control's cap on positions, or a search only the stop flag ends; else ab_depth plies), in the
 * result's form: the best move with one visit, every root move's score as its value, the
 * positions visited as playouts. */
static int ab_root(Mcts *m, Position *pos, SearchResult *out)
{
    const SearchParams *p = m->p;
    const SearchControl *ctl = &m->control;
    reset_tree(m);
    m->ab_used = true;
    double start = clock_seconds();
    AbLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.stop = ctl->stop;
    bool open = p->movetime > 0 || p->playouts == INT_MAX || ctl->max_playouts > 0 || p->ab_nodes > 0;
    lim.max_depth = open ? AB_MAX_PLY / 2 : p->ab_depth;
    if (ctl->max_playouts > 0)
        lim.max_nodes = (uint64_t)ctl->max_playouts;
    /* A cap of the parameters: the same moves on any machine and at any load. */
    if (p->ab_nodes > 0 && (lim.max_nodes == 0 || (uint64_t)p->ab_nodes < lim.max_nodes))
        lim.max_nodes = (uint64_t)p->ab_nodes;
    if (p->movetime > 0) {
        lim.deadline = start + 1e-3 * p->movetime;
        /* A clock's share: the next iteration takes two to three times the last, so one started
         * after half the share would rarely finish; its time is kept for later moves. A fixed
         * movetime is searched to its end: an unfinished iteration still plays a move that beat
         * the last one's best. */
        if (ctl->clock_share)
            lim.soft_deadline = start + 0.5e-3 * p->movetime;
    }
    AbInfoCtx ctx = {m, pos};
    lim.info = ab_report;
    lim.info_user = &ctx;
    AbRootResult *r = &m->ab_result;
    if (ab_root_search(m->ab, pos, p->qsearch_depth, &lim, r) != 0)
        return -1;
    out->best = r->best;
    out->nchildren = r->nmoves;
    for (int i = 0; i < r->nmoves; i++) {
        int proven, plies;
        out->moves[i] = r->moves[i];
        out->child_visits[i] = r->moves[i] == r->best;
        out->child_value[i] = ab_value(m, r->move_score[i], &proven, &plies);
        out->child_prior[i] = 1.0f / (float)r->nmoves;
    }
    out->playouts = r->nodes > INT_MAX ? INT_MAX : (int)r->nodes;
    out->visits = out->playouts;
    out->value = ab_value(m, r->score, &out->proven, &out->proven_plies);
    out->depth = r->depth;
    out->stopped = ctl->stop && atomic_load_explicit(ctl->stop, memory_order_relaxed);
    out->pv_len = ab_game_pv(m, pos, r->pv, r->pv_len, out->pv);
    for (int i = 0; i < out->pv_len; i++)
        out->pv_visits[i] = 1;
    out->seconds = clock_seconds() - start;
    out->static_eval = (float)tanh(eval_score(m->e, pos) / p->eval_scale);
    if (m->sampling)
        ab_sample(m, pos, r, out);
    return 0;
}

void mcts_set_sampling(Mcts *m, bool on)
{
    m->sampling = on;
}

int mcts_search(Mcts *m, Position *pos, Rng *rng, bool noise, SearchResult *out)
{
    memset(out, 0, sizeof *out);
    out->best = XQ_MOVE_NONE;
    /* capture_knowledge = capturer: the side to move searches its own view of the game. */
    HiddenView view;
    if (hidden_view_enter(pos, m->knowledge, &view) < 0)
        return -1;
    int rc = m->p->search == SEARCH_AB ? ab_root(m, pos, out) : search_root(m, pos, rng, noise, out);
    if (view.on) {
        for (int i = 0; i < out->nchildren; i++)
            out->moves[i] = hidden_view_game_move(pos, out->moves[i]);
        if (out->best != XQ_MOVE_NONE)
            out->best = hidden_view_game_move(pos, out->best);
    }
    hidden_view_leave(pos, &view);
    return rc;
}

static int search_root(Mcts *m, Position *pos, Rng *rng, bool noise, SearchResult *out)
{
    if (!m->p->reuse_tree || !tree_matches(m, pos) || m->nodes[0].state == NODE_TERMINAL)
        reset_tree(m);
    m->npending = 0;
    m->root_key = pos->key;
    m->root_hist_len = pos->hist_len;
    /* The game goes on at the root whatever the tree thought of it before. */
    m->nodes[0].proven = 0;

    double start = clock_seconds();
    int done = 0;
    if (m->nodes[0].state == NODE_LEAF) {
        if (pos_count_legal(pos) == 0)
            return -1;
        if (playout(m, pos) != PLAYOUT_OK)
            return -1; /* cannot happen: a fresh arena holds any root's children */
        done = 1;
    }
    if (noise && !m->root_noised && m->p->dirichlet_epsilon > 0) {
        add_noise(m, rng);
        m->root_noised = true;
    }
    /* The budget counts new playouts (as Lc0's "playouts", unlike its "visits"): a reused
     * subtree adds strength at no cost, and "P playouts per move" means the same work whatever
     * was reused. A timed search reads the clock every CLOCK_EVERY playouts (a playout takes
     * microseconds, so the deadline is met to well under a millisecond). */
    enum { CLOCK_EVERY = 8 };
    const SearchControl *ctl = &m->control;
    int budget = m->p->movetime > 0 ? INT_MAX : m->p->playouts;
    if (ctl->max_playouts > 0 && ctl->max_playouts < budget)
        budget = ctl->max_playouts;
    double deadline = m->p->movetime > 0 ? start + 1e-3 * m->p->movetime : 0;
    double interval = 1e-3 * (ctl->info_interval_ms > 0 ? ctl->info_interval_ms : 1000);
    double next_info = start + interval;
    bool clocked = deadline > 0 || ctl->info;
    bool early = m->p->early_stop && deadline == 0 && budget < INT_MAX;
    for (int n = 0; done < budget && !m->nodes[0].proven; n++) {
        if (ctl->stop && atomic_load_explicit(ctl->stop, memory_order_relaxed)) {
            out->stopped = true;
            break;
        }
        if (clocked && n % CLOCK_EVERY == 0) {
            double now = clock_seconds();
            if (deadline > 0 && now >= deadline)
                break;
            if (ctl->info && now >= next_info) {
                report_info(m, pos, done, now - start);
                next_info = now + interval;
            }
        }
        if (early && n % CLOCK_EVERY == 0 && decided(m, budget - done)) {
            out->early = true;
            break;
        }
        if (playout(m, pos) != PLAYOUT_OK) {
            out->truncated = true;
            m->truncated_searches++;
            break;
        }
        done++;
    }

    const Node *root = &m->nodes[0];
    const Node *child = &m->nodes[root->first_child];
    float alpha = (float)m->p->minimax_weight;
    out->nchildren = root->nchildren;
    for (int i = 0; i < root->nchildren; i++) {
        const Node *c = &child[i];
        out->moves[i] = c->move;
        out->child_visits[i] = c->visits;
        out->child_prior[i] = prior_of(c);
        out->child_value[i] = c->state == NODE_CHANCE ? chance_q(m, c, 0.0f, alpha)
                              : c->proven || c->visits || c->tau != TAU_NONE ? child_q(c, 0.0f, alpha)
                                                                             : 0.0f;
    }
    out->best = child[best_child(m, root)].move;
    /* The tree proves wins along the lines it happened to explore; once the game is won, an
     * exact search picks a mate in two or fewer if there is one (rare: decided positions only). */
    if (root->proven > 2 * SHORT_MATE_MOVES && !hidden_on(m->v)) {
        MoveList list;
        pos_generate_legal(pos, &list);
        for (int n = 1; n <= SHORT_MATE_MOVES; n++) {
            Move mate = mate_in(pos, &list, n);
            if (mate != XQ_MOVE_NONE) {
                out->best = mate;
                break;
            }
        }
    }
    out->visits = (int)root->visits;
    out->playouts = done;
    out->proven = (int)proof_value(root->proven);
    out->proven_plies = proven_plies(root->proven);
    out->value = root_value(m);
    out->pv_len = principal_variation(m, pos, out->pv, out->pv_visits);
    if (out->pv_len > 0 && out->pv[0] != hidden_view_game_move(pos, out->best)) {
        out->pv[0] = hidden_view_game_move(pos, out->best); /* the exact mate search's choice */
        out->pv_len = 1;
        for (int i = 0; i < root->nchildren; i++)
            if (child[i].move == out->best)
                out->pv_visits[0] = child[i].visits;
    }
    out->seconds = clock_seconds() - start;
    out->static_eval = (float)tanh(eval_score(m->e, pos) / m->p->eval_scale);
    return 0;
}

float mcts_root_prior(const Mcts *m, Move mv)
{
    const Node *root = &m->nodes[0];
    if (root->state != NODE_EXPANDED)
        return -1.0f;
    for (int i = 0; i < root->nchildren; i++)
        if (m->nodes[root->first_child + i].move == mv)
            return prior_of(&m->nodes[root->first_child + i]);
    return -1.0f;
}

Move mcts_pick(const SearchResult *r, double t, Rng *rng)
{
    if (t <= 0 || r->proven > 0 || r->nchildren == 0)
        return r->best;
    /* Weights visits^(1/t), computed in logs so large counts and small t do not overflow. */
    double lw[XQ_MAX_MOVES], top = -1e300;
    bool some[XQ_MAX_MOVES];
    for (int i = 0; i < r->nchildren; i++) {
        double w = r->weighted ? (double)r->child_weight[i] : (double)r->child_visits[i];
        some[i] = w > 0;
        lw[i] = some[i] ? log(w) / t : -1e300;
        if (lw[i] > top)
            top = lw[i];
    }
    double sum = 0;
    for (int i = 0; i < r->nchildren; i++) {
        lw[i] = some[i] ? exp(lw[i] - top) : 0.0;
        sum += lw[i];
    }
    if (!(sum > 0))
        return r->best;
    double x = rng_double(rng) * sum;
    for (int i = 0; i < r->nchildren; i++) {
        x -= lw[i];
        if (x < 0 && lw[i] > 0)
            return r->moves[i];
    }
    for (int i = r->nchildren - 1; i >= 0; i--)
        if (lw[i] > 0)
            return r->moves[i];
    return r->best;
}

double mcts_temperature(const SearchParams *p, int ply)
{
    return ply < p->temperature_plies ? p->temperature : 0.0;
}

/* Moves the subtree under nodes[c] to the front of the arena, in place. Every children block
 * sits at a higher index than its parent (blocks are allocated when the parent is expanded), so
 * walking the arena upwards visits parents before children and each kept block only ever moves
 * down, into space that is free or already copied. remap[] marks the kept block heads: first
 * with the parent's old index, then (once the parent has moved) with its new index. */

static void promote(Mcts *m, uint32_t c)
{
    Node *nodes = m->nodes;
    uint32_t *remap = m->remap;
    uint32_t old_used = m->used;
    for (uint32_t i = 0; i < old_used; i++)
        remap[i] = NO_INDEX;
    if (HAS_CHILDREN(nodes[c].state))
        remap[nodes[c].first_child] = c;
    uint32_t start = HAS_CHILDREN(nodes[c].state) ? nodes[c].first_child : old_used;
    for (uint32_t i = start; i < old_used;) {
        if (remap[i] == NO_INDEX) {
            i++;
            continue;
        }
        uint32_t len = nodes[remap[i]].nchildren;
        for (uint32_t j = i; j < i + len; j++)
            if (HAS_CHILDREN(nodes[j].state))
                remap[nodes[j].first_child] = j;
        i += len;
    }
    nodes[0] = nodes[c];
    uint32_t dest = 1;
    if (HAS_CHILDREN(nodes[0].state))
        remap[nodes[0].first_child] = 0;
    for (uint32_t i = start; i < old_used;) {
        if (remap[i] == NO_INDEX) {
            i++;
            continue;
        }
        uint32_t parent = remap[i];
        uint32_t len = nodes[parent].nchildren;
        memmove(&nodes[dest], &nodes[i], len * sizeof *nodes);
        nodes[parent].first_child = dest;
        for (uint32_t j = dest; j < dest + len; j++)
            if (HAS_CHILDREN(nodes[j].state))
                remap[nodes[j].first_child] = j;
        dest += len;
        i += len;
    }
    if (!HAS_CHILDREN(nodes[0].state)) {
        nodes[0].first_child = 0;
        nodes[0].nchildren = 0;
    }
    m->used = dest;
}

#ifndef NDEBUG
/* Debug builds check the compacted tree: every block inside the arena, after its parent, and no
 * node with more visits below it than through it. */
static void check_tree(const Mcts *m)
{
    for (uint32_t i = 0; i < m->used; i++) {
        const Node *node = &m->nodes[i];
        if (!HAS_CHILDREN(node->state))
            continue;
        assert(node->first_child > i && node->first_child + node->nchildren <= m->used);
        uint64_t sum = 0;
        for (uint32_t j = 0; j < node->nchildren; j++)
            sum += m->nodes[node->first_child + j].visits;
        /* A chance node is visited exactly through its outcomes. */
        assert(sum < node->visits ||
               ((i == 0 || node->state == NODE_CHANCE) && sum <= node->visits));
        (void)sum;
    }
}
#endif

void mcts_advance(Mcts *m, Move played)
{
    Node *root = &m->nodes[0];
    if (!m->p->reuse_tree || root->state != NODE_EXPANDED || m->npending >= MAX_PENDING) {
        reset_tree(m);
        return;
    }
    uint32_t c = NO_INDEX;
    for (uint32_t i = 0; i < root->nchildren; i++) {
        const Node *n = &m->nodes[root->first_child + i];
        if (n->move == played)
            c = root->first_child + i;
        /* A drawn reveal: follow the chance node of the undrawn move to that outcome. */
        if (n->state == NODE_CHANCE && n->move == (played & 0xff00ffffu))
            for (uint32_t j = 0; j < n->nchildren; j++)
                if (m->nodes[n->first_child + j].move == played)
                    c = n->first_child + j;
    }
    if (c == NO_INDEX) {
        reset_tree(m);
        return;
    }
    int npending = m->npending;
    promote(m, c);
#ifndef NDEBUG
    check_tree(m);
#endif
    m->pending[npending] = played;
    m->npending = npending + 1;
    m->root_noised = false;
    /* A proof found under the old root stays true, but the new root is searched afresh. */
    if (m->nodes[0].state == NODE_TERMINAL)
        reset_tree(m);
}
