/* repetition.h - repetition verdicts: perpetual check and perpetual chase (RULES.md section 1). */
#ifndef XQ_REPETITION_H
#define XQ_REPETITION_H

#include "status.h"

/* Number of earlier occurrences of the current position (same side to move) since the last
 * capture, counting back through the history. */
int rep_count_occurrences(const Position *pos);

/* Verdict for a position that has just reached the variant's repetition count: walks the cycle
 * in the history, classifies each side's moves (check / chase / idle) under the variant's
 * repetition rule, and returns the result (RESULT_DRAW with TERM_REPETITION_DRAW, or a win with
 * TERM_PERPETUAL_CHECK / TERM_PERPETUAL_CHASE). The position is restored on return. */
GameStatus rep_verdict(Position *pos);

#endif
