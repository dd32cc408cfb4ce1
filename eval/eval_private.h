/* eval_private.h - private to mcts/: the evaluator's layout, so the search can read piece-square
 * sums and piece values for its move heuristic and capture search without extra calls. */
#ifndef XQ_EVAL_PRIVATE_H
#define XQ_EVAL_PRIVATE_H

#include "eval.h"

typedef enum {
    FEAT_MATERIAL,  /* pieces of a kind */
    FEAT_ZONE,      /* pieces of a kind standing in a zone (own or the opponent's copy) */
    FEAT_MOBILITY,  /* pseudo-legal moves of the pieces of a kind */
    FEAT_PRESSURE,  /* pseudo-legal moves landing next to the enemy royal piece */
    FEAT_IN_CHECK,  /* the side to move is in check */
    FEAT_SIDE,      /* the side to move (tempo) */
    FEAT_HOLDING,   /* pieces of a kind a rule module keeps off the board (camp, reserve) */
    FEAT_HIDDEN,    /* expected material of the face-down pieces from the public pools */
} FeatureType;

typedef struct Feature {
    char name[80]; /* "zone." + kind + "their_" + zone, each name under 32 bytes */
    FeatureType type;
    int kind;       /* FEAT_MATERIAL, FEAT_ZONE, FEAT_MOBILITY, FEAT_HOLDING */
    int holding;    /* FEAT_HOLDING: index into Evaluator.holdings */
    int zone;       /* FEAT_ZONE */
    bool their;     /* FEAT_ZONE: the opponent's copy of the zone */
} Feature;

struct Evaluator {
    const Variant *v;
    int nfeatures;
    Feature features[EVAL_MAX_FEATURES];
    double weights[EVAL_MAX_FEATURES];

    /* Derived from the weights (rebuilt by eval_set_weight): material and zone features fold into
     * one piece-square table, Red's view, so their sum is a walk over the piece lists. */
    double pst[32][XQ_MAX_POINTS];
    double mobility_weight[XQ_MAX_KINDS];
    bool walk_kind[XQ_MAX_KINDS];      /* kinds whose moves the score needs to walk */
    double pressure_weight, in_check_weight, side_weight;
    double value[XQ_MAX_KINDS];        /* material weight per kind, for capture ordering */
    /* Off-board holdings (variant_holdings; none in most rule sets) and their weights. */
    int nholdings;
    Holding holdings[XQ_MAX_HOLDINGS];
    double holding_weight[XQ_MAX_HOLDINGS];
    /* Hidden-piece rule sets: weight of the expected material of the face-down pieces (0 for
     * the others, which have no such feature). */
    double hidden_weight;
    /* Points next to a royal piece of side s standing on p (the royal point included). */
    PointSet near[2][XQ_MAX_POINTS];
};

/* Sum of the piece-square table over the board, Red's view, in pawns. */
double eval_pst_sum(const Evaluator *e, const Position *pos);

/* Off-board holdings times their weights, Red's view, in pawns (0 without holdings). */
static inline double eval_holdings_red(const Evaluator *e, const Position *pos)
{
    double sum = 0;
    for (int i = 0; i < e->nholdings; i++)
        sum += e->holding_weight[i] *
               (pos_held(pos, RED, &e->holdings[i]) - pos_held(pos, BLACK, &e->holdings[i]));
    return sum;
}

/* Expected material of the face-down pieces, seat 0 minus seat 1, in the variant's piece values,
 * from the public pools (RULES.md Conventions "Hidden pieces"; 0 without face-down pieces). */
double eval_hidden_expected(const Position *pos);

/* Material part of the score, Red's view: the piece-square sum, the off-board holdings and the
 * expected value of the face-down pieces. */
static inline double eval_material_red(const Evaluator *e, const Position *pos)
{
    double sum = eval_pst_sum(e, pos);
    if (e->hidden_weight != 0)
        sum += e->hidden_weight * eval_hidden_expected(pos);
    return e->nholdings ? sum + eval_holdings_red(e, pos) : sum;
}

/* Score in pawns from Red's view, given the piece-square sum already computed. */
double eval_score_red_with_pst(const Evaluator *e, const Position *pos, double pst_sum);

#endif
