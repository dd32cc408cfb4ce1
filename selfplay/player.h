/* player.h - the players of a match: MCTS with its own weights and settings, uniform random,
 * and greedy (one ply: captures the most valuable piece). */
#ifndef XQ_PLAYER_H
#define XQ_PLAYER_H

#include "mcts.h"

typedef enum { PLAYER_MCTS, PLAYER_RANDOM, PLAYER_GREEDY } PlayerKind;

typedef struct PlayerSpec {
    PlayerKind kind;
    char weights[512];        /* MCTS: weights file ("" = the variant's default) */
    SearchParams params;      /* MCTS: search settings */
    char label[160];          /* as given on the command line */
} PlayerSpec;

/* Parses "random", "greedy", or "mcts[:key=value,...]" where keys are "weights" or any search
 * parameter (playouts, c_puct, ...). `base` gives the defaults; a player's playouts= replaces a
 * timed base (movetime), and naming both playouts and movetime is an error. Returns 0 or -1 with
 * *err. */
int player_parse(PlayerSpec *spec, const char *text, const SearchParams *base, XqError *err);

/* Shared, read-only part of a player (its evaluator), created once per match. */
typedef struct PlayerShared {
    PlayerSpec spec;
    Evaluator *eval;
} PlayerShared;

/* Loads the player's evaluator (`default_weights` is used when the spec names none; may be
 * NULL). Returns 0 or -1 with *err. */
int player_shared_init(PlayerShared *ps, const PlayerSpec *spec, const Variant *v,
                       const char *default_weights, XqError *err);
void player_shared_free(PlayerShared *ps);

/* Per-thread state of a player. */
typedef struct Player {
    const PlayerShared *shared;
    Mcts *mcts;               /* MCTS players only */
    uint64_t playouts;        /* new playouts of this player's searches, since player_init */
    uint64_t searches;        /* its searches: a timed player's playouts per move */
} Player;

int player_init(Player *p, const PlayerShared *ps, const Variant *v);
void player_free(Player *p);
/* Starts a game: the search forgets its tree and reads k (capture_knowledge = capturer, the
 * game's record of what each seat saw; NULL when there is none, or to drop the pointer after
 * the game). */
void player_new_game(Player *p, const HiddenKnowledge *k);
/* Chooses a move in a position with at least one legal move. */
Move player_choose(Player *p, Position *pos, Rng *rng);
/* Searches of this player that filled its node arena (0 for random and greedy players). */
uint64_t player_truncated_searches(const Player *p);
/* Tells the player the move played (by either side). */
void player_advance(Player *p, Move m);

#endif
