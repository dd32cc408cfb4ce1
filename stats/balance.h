/* balance.h - the balance card of a set of games: results and the first mover's score, draws by
 * kind, lengths, terminations, special-rule utilisation and the branching factor by ply; for
 * hidden-piece rule sets also results by colour and over --paired-deals pairs. Games are
 * replayed with the rules core (start FEN + deal + moves), which also checks every move. */
#ifndef XQ_BALANCE_H
#define XQ_BALANCE_H

#include "dataset.h"
#include "position.h"
#include "results.h"
#include "stats.h"

enum { BALANCE_MAX_SPECIAL = 32 };

/* How a game ended, from the first mover's side (for lengths by outcome). */
typedef enum { OUTCOME_FIRST_WINS, OUTCOME_DRAW, OUTCOME_SECOND_WINS, OUTCOME_UNKNOWN, OUTCOME_COUNT } BalanceOutcome;

/* Use of one kind of rule-module move (special_moves.h). */
typedef struct SpecialUse {
    uint8_t kind;
    uint64_t moves;              /* times played, both sides */
    uint64_t moves_by[2];        /* ... by Red, by Black */
    uint64_t games;              /* games where either side played it */
    Wdl user_results[2];         /* results of the side that played it, in games where Red / Black did */
} SpecialUse;

typedef struct BalanceCard {
    const Variant *v;
    Wdl red;                     /* results from Red, the first mover */
    uint64_t games;              /* games added (also those with an unknown result) */
    uint64_t unknown_result;     /* result not -1 / 0 / 1: left out of red */
    uint64_t draws_natural;      /* draws by the rules (repetition, stalemate rule, ...) */
    uint64_t draws_adjudicated;  /* draws by the move limit or the run's length cap */
    uint64_t by_termination[TERM_COUNT], other_termination;
    uint32_t *lengths;           /* plies of every game; owned */
    uint8_t *length_outcomes;    /* [i]: game i's BalanceOutcome; owned */
    size_t nlengths, cap_lengths;
    uint64_t *branch_moves;      /* [ply] sum of legal moves over positions at that ply; owned */
    uint64_t *branch_positions;  /* [ply] positions seen at that ply; owned */
    int branch_plies, cap_branch;
    SpecialUse special[BALANCE_MAX_SPECIAL];
    int nspecial;                /* kinds seen, in order of first use */
    Position *pos;               /* replay scratch; owned */
    /* Hidden-piece rule sets (games with a deal): `red` above is by seat (seat 0, the first
     * mover); by colour and by --paired-deals pair here. */
    HiddenTally hidden;
} BalanceCard;

/* Starts an empty card for games of variant v (borrowed). Returns 0 or -1 on out of memory. */
int balance_init(BalanceCard *c, const Variant *v);

/* Adds a game: results and lengths from the record, branching and special moves by replaying
 * its moves from its start FEN (a reveal must turn up the identity the game's deal holds; files
 * without deals, format 1, only check the reveal's squares). Returns 0, or -1 with *err ("game 12 (index 40), ply 7: move
 * h2h9 is not legal ...") if the record does not replay; the card is then unchanged except for
 * the replay statistics of the plies before. */
int balance_add_game(BalanceCard *c, const GameRecord *g, XqError *err);

void balance_free(BalanceCard *c);

/* Derived numbers of a card. */
typedef struct BalanceSummary {
    ResultSummary r;             /* the first mover's score and the draw rate with intervals, what the
                                  * games resolve; colours and pairs of hidden-piece rule sets */
    uint64_t games;              /* games with a known result (= r.games) */
    double balance_index;        /* 1 - |first mover's score - second mover's score| */
    double draw_rate, natural_draw_rate, adjudicated_draw_rate, decisive_rate;
    double mean_length, median_length;
} BalanceSummary;

int balance_summarise(const BalanceCard *c, BalanceSummary *s);

/* Mean legal moves at a ply (0 if no position reached it). */
double balance_branching(const BalanceCard *c, int ply);

#endif
