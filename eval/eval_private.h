/* eval_private.h - private to eval/ and mcts/: the evaluator's layout, so the search can read
 * piece-square sums and piece values for its move heuristic and capture search without extra
 * calls. */
#ifndef XQ_EVAL_PRIVATE_H
#define XQ_EVAL_PRIVATE_H

#include "eval.h"
#include "net.h"

typedef enum {
    FEAT_MATERIAL,  /* pieces of a kind */
    FEAT_ZONE,      /* pieces of a kind standing in a zone (own or the opponent's copy) */
    FEAT_MOBILITY,  /* pseudo-legal moves of the pieces of a kind */
    FEAT_PRESSURE,  /* pseudo-legal moves landing next to the enemy royal piece */
    FEAT_IN_CHECK,  /* the side to move is in check */
    FEAT_SIDE,      /* the side to move (tempo) */
    FEAT_HOLDING,   /* pieces of a kind a rule module keeps off the board (camp, reserve) */
    FEAT_HIDDEN,    /* expected material of the face-down pieces from the public pools */
    /* The families below come after every one above (older weights files and datasets keep
     * their feature indices). */
    FEAT_POINT,     /* pieces of a kind on one point (and its mirror image across the middle
                     * file when the rules are left-right symmetric), own side's view */
    FEAT_LATE,      /* pieces of a kind times the share of the start material gone (late game) */
    FEAT_ATTACK,    /* moves of the pieces of a kind landing next to the enemy royal piece */
    FEAT_ATTACKERS, /* at least `count` pieces have a move landing next to the enemy royal */
    FEAT_ALIGN,     /* line pieces of a kind aiming at the enemy royal through `count` pieces */
    FEAT_THREAT,    /* pieces of a kind of the side to move that are attacked and either not
                     * defended or attacked by a piece of lower value */
    FEAT_FORK,      /* the side to move has at least two such pieces */
    FEAT_DEFENDED,  /* pieces of a kind defended by an own piece */
    FEAT_PAIR,      /* a side keeps at least two pieces of a kind */
    FEAT_DANGER,    /* attackers of the enemy royal piece times their moves next to it */
    FEAT_CHECK,     /* moves of the pieces of a kind to a point from which they would give
                     * check (a check threat) */
} FeatureType;

typedef struct Feature {
    char name[80]; /* "zone." + kind + "their_" + zone, each name under 32 bytes */
    FeatureType type;
    int kind;       /* per-kind families; -1 for the others */
    int holding;    /* FEAT_HOLDING: index into Evaluator.holdings */
    int zone;       /* FEAT_ZONE */
    bool their;     /* FEAT_ZONE: the opponent's copy of the zone */
    int count;      /* FEAT_ATTACKERS: the threshold; FEAT_ALIGN: pieces in between */
    Point point[2]; /* FEAT_POINT: Red's point and its left-right image (XQ_NO_POINT if none) */
} Feature;

enum { EVAL_MAX_ALIGN = 3 }; /* FEAT_ALIGN counts 0, 1 or 2 pieces in between */

struct Evaluator {
    const Variant *v;
    int nfeatures;
    Feature features[EVAL_MAX_FEATURES];
    double weights[EVAL_MAX_FEATURES];

    /* Derived from the weights (rebuilt by eval_set_weight): material, zone and point features
     * fold into one piece-square table, Red's view, so their sum is a walk over the piece
     * lists. */
    double pst[32][XQ_MAX_POINTS];
    double mobility_weight[XQ_MAX_KINDS];
    bool walk_kind[XQ_MAX_KINDS];      /* kinds whose moves the score needs to walk */
    double pressure_weight, in_check_weight, side_weight;
    double value[XQ_MAX_KINDS];        /* material weight per kind, for capture ordering */
    double late_weight[XQ_MAX_KINDS];
    double attack_weight[XQ_MAX_KINDS];
    double attackers_weight[XQ_MAX_PIECES + 1]; /* by threshold */
    double align_weight[XQ_MAX_KINDS][EVAL_MAX_ALIGN];
    double threat_weight[XQ_MAX_KINDS], fork_weight;
    double defended_weight[XQ_MAX_KINDS];
    double pair_weight[XQ_MAX_KINDS];
    double danger_weight;
    double check_weight[XQ_MAX_KINDS];
    /* Which parts of the score have a weight (the others are not computed). */
    bool need_reach;                   /* threats or defences: every piece's captures */
    bool need_count;                   /* late material or pairs: pieces per kind */
    bool need_align;
    bool need_attackers;
    bool need_danger;                  /* attackers times pressure: every piece that can press */
    bool need_check;                   /* check threats: the check points of both sides */

    /* Off-board holdings (variant_holdings; none in most rule sets) and their weights. */
    int nholdings;
    Holding holdings[XQ_MAX_HOLDINGS];
    double holding_weight[XQ_MAX_HOLDINGS];
    /* Hidden-piece rule sets: weight of the expected material of the face-down pieces (0 for
     * the others, which have no such feature). */
    double hidden_weight;
    /* A network added to the linear score (NULL: none), its file as the weights file names it,
     * and the path it was read from (empty if it was set, not read). */
    Net *net;
    char net_file[4096];
    char net_path[4096];
    char net_left_out[40];             /* a [net] made for another rule set's pieces: its name */
    /* Points next to a royal piece of side s standing on p (the royal point included). */
    PointSet near[2][XQ_MAX_POINTS];

    /* Fixed at creation from the variant file (never from weights, so the features of a
     * position do not depend on the weights). */
    bool tables_vary;                  /* a rule module switches move tables (the cube) */
    uint8_t value_rank[XQ_MAX_KINDS];  /* order of the variant file's values; royal highest */
    bool unguarded[XQ_MAX_KINDS];      /* royal or face-down: not counted as threatened or
                                        * defended */
    double phase_value[XQ_MAX_KINDS];  /* the variant file's value of non-royal kinds */
    double start_material;             /* their sum over the start position's board */
    /* Feature indices by kind (-1: none), so eval_features is a walk over the pieces. */
    int16_t material_of[XQ_MAX_KINDS], mobility_of[XQ_MAX_KINDS], late_of[XQ_MAX_KINDS];
    int16_t attack_of[XQ_MAX_KINDS], threat_of[XQ_MAX_KINDS], defended_of[XQ_MAX_KINDS];
    int16_t pair_of[XQ_MAX_KINDS], align_of[XQ_MAX_KINDS][EVAL_MAX_ALIGN];
    int16_t point_of[XQ_MAX_KINDS][XQ_MAX_POINTS]; /* by Red's point */
    int16_t attackers_of[XQ_MAX_PIECES + 1];
    int nzone_of[XQ_MAX_KINDS];
    int16_t zone_of[XQ_MAX_KINDS][2 * XQ_MAX_ZONES];
    int16_t pressure_of, in_check_of, side_of, fork_of, hidden_of, danger_of;
    int16_t check_of[XQ_MAX_KINDS];
    /* Kinds with a check feature (bit per kind): the non-royal kinds some move of which can
     * capture the enemy royal piece standing in its zone; 0 when the move tables vary during
     * the game (the cube, face-down pieces), whose compiled reverse tables describe only the
     * plain tables. */
    uint16_t check_kinds;

    /* The score's move walk (eval_score.c), fixed at creation from the variant's compiled move
     * tables: per side of the mover, for each leap entry of v->leaps and each ray of v->rays, the
     * pieces a move may land on as a bit per Piece value (bit 0: the empty point), so one shift
     * of the board's byte decides a destination. Leaps: move to an empty point or capture;
     * rays: the capture of the slide part (the first piece met) and of the hop part. NULL if
     * allocation failed (the score then walks as eval_features does). */
    uint32_t *leap_accept[2];
    uint32_t *slide_accept[2], *hop_accept[2];
    /* The same without the side: the pieces of either side a capture may land on (bit per Piece
     * value), for the walk's reach part (threats and defences). */
    uint32_t *leap_reach, *slide_reach, *hop_reach;
    /* Which kinds the score walks, per side of the mover (rebuilt with the weights): a kind
     * whose mobility carries no weight is walked only if one of its moves can land near the
     * enemy royal piece while that piece stands in royal_zone (from any point: can_press,
     * fixed by the variant file); with the enemy royal outside royal_zone every kind that
     * walk_kind names is walked. */
    bool walk_press[2][XQ_MAX_KINDS];
    bool walk_fallback[XQ_MAX_KINDS];  /* walk_kind, or every kind when attackers count */
    bool can_press[2][XQ_MAX_KINDS];
    PointSet royal_zone[2];            /* points a royal piece of the side may stand on */
    /* Points near a royal piece on p (e->near as a list), for the walk's byte map. */
    uint8_t near_count[2][XQ_MAX_POINTS];
    Point near_list[2][XQ_MAX_POINTS][1 + DIR_COUNT];
};

/* Builds the score walk's tables (eval_score.c); false if out of memory (then the walk falls back
 * to the general one). Freed by eval_free_walk. */
bool eval_build_walk(Evaluator *e);
void eval_free_walk(Evaluator *e);

/* Builds the feature list of the variant into e->features (eval_features.c). Returns 0, or -1
 * with *err when the variant needs more than EVAL_MAX_FEATURES features. */
int eval_build_features(Evaluator *e, XqError *err);

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
