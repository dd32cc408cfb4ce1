/* repetition.h - repetition verdicts: perpetual check and perpetual chase
 * (docs/variants/xiangqi.md). */
#ifndef XQ_REPETITION_H
#define XQ_REPETITION_H

#include "status.h"

/* Number of earlier occurrences of the current position (same side to move) since the last
 * capture, counting back through the history. */
int rep_count_occurrences(const Position *pos);

/* Verdict for a position that has just reached the variant's repetition count: walks the cycle
 * (moves since the most recent earlier occurrence) in the history, classifies each side's moves
 * (check / mate threat / chase / idle) under the variant's repetition rule (none, check-only,
 * asian, chinese; see repetition.c for the exact reading), and returns the result (RESULT_DRAW
 * with TERM_REPETITION_DRAW, or a win with TERM_PERPETUAL_CHECK / TERM_PERPETUAL_CHASE; the
 * chinese 长杀 and mixed 长打 patterns are reported as perpetual chase). The position is left
 * exactly as it was: the replay runs on a heap copy (about 100 KB, once per verdict). */
GameStatus rep_verdict(Position *pos);

#endif
