/* score.h - the centipawn equivalent of a search value, as engine mode and analyse print it. */
#ifndef XQ_ENGINE_SCORE_H
#define XQ_ENGINE_SCORE_H

/* Largest |value| converted; beyond it the centipawns would grow without bound. */
#define SCORE_VALUE_CLAMP 0.9999

/* The inverse of the search's leaf mapping value = tanh(pawns / eval_scale), times 100:
 * round(100 * eval_scale * atanh(value)), the value clamped to +-SCORE_VALUE_CLAMP first (so at
 * most about 495 * eval_scale centipawns). */
int score_value_cp(double value, double eval_scale);

#endif
