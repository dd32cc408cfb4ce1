/* score.c - value to centipawns. */
#include "score.h"

#include <math.h>

int score_value_cp(double value, double eval_scale)
{
    double v = value > SCORE_VALUE_CLAMP ? SCORE_VALUE_CLAMP
             : value < -SCORE_VALUE_CLAMP ? -SCORE_VALUE_CLAMP : value;
    return (int)lround(100.0 * eval_scale * atanh(v));
}
