/* threats.h - attack maps for the move priors: for every point, which pieces of each side could
 * capture a piece standing there (an enemy one; for a side's own piece, the pieces defending it),
 * from the variant's compiled move tables. Face-down pieces attack nothing (they move only by a
 * reveal, a chance event). */
#ifndef XQ_THREATS_H
#define XQ_THREATS_H

#include "position.h"

/* by[s][p]: bit i set if the piece in slot i of side s's piece list (pos->list[s][i]) attacks
 * point p. */
typedef struct AttackMap {
    uint64_t by[2][XQ_MAX_POINTS];
} AttackMap;

_Static_assert(XQ_MAX_PIECES <= 64, "a piece-list slot must fit an attack mask bit");

/* Builds the map of the position (the tables a rule module switched to included). */
void attack_map_build(const Position *pos, AttackMap *a);

#endif
