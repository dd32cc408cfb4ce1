/* see.h - static exchange evaluation: the material a capture wins once both sides have
 * recaptured on its destination with their least valuable pieces for as long as it pays. */
#ifndef XQ_SEE_H
#define XQ_SEE_H

#include <stdbool.h>

#include "position.h"

/* Whether see() is exact enough to order by: rule sets without rule modules (no face-down
 * pieces, switched tables, multi-part moves or special captures). */
bool see_supported(const Variant *v);

/* The exchange value of the capture mv in pos (in the units of value[], a value per piece
 * kind): the victim's value, less what the best sequence of recaptures on mv's destination
 * takes back, each side free to stop. Pins are ignored, as in other engines; a royal piece
 * recaptures only where no enemy piece could take it there. mv must be a move of the side to
 * move whose destination holds an enemy piece (0 otherwise). */
double see(const Position *pos, const double *value, Move mv);

#endif
