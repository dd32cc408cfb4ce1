/* special_moves.c - names and normalised kinds of rule-module moves (flag values of core/types.h). */
#include "special_moves.h"

#include <stdio.h>

uint8_t special_kind_of(Move m)
{
    uint8_t flags = XQ_MOVE_FLAGS(m);
    if (flags & XQ_FLAG_DOUBLE)
        return XQ_FLAG_DOUBLE;
    return flags;
}

const char *special_kind_name(uint8_t kind, char *buf, size_t size)
{
    switch (kind) {
    case 0: return "plain move";
    case XQ_FLAG_EXCHANGE: return "reserve exchange";
    case XQ_FLAG_ROLL: return "cube roll";
    case XQ_FLAG_PASS: return "pass (second move skipped)";
    case XQ_FLAG_DOUBLE: return "double move";
    case XQ_FLAG_CAMP_ENTER: return "camp entry";
    case XQ_FLAG_CAMP_LEAVE: return "camp exit";
    case XQ_FLAG_DISPLACE: return "displacement";
    case XQ_FLAG_PROMOTE: return "promotion";
    case XQ_FLAG_REVEAL: return "reveal (face-down piece turned up)";
    default:
        snprintf(buf, size, "special move 0x%02x", kind);
        return buf;
    }
}
