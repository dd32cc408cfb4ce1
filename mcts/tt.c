/* tt.c - transposition table: four-entry buckets, depth- and age-preferred replacement. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

int tt_init(Tt *t, uint64_t bytes)
{
    uint64_t buckets = 1;
    while (buckets * 2 * TT_BUCKET * sizeof(TtEntry) <= bytes)
        buckets *= 2;
    size_t size = (size_t)(buckets * TT_BUCKET * sizeof(TtEntry));
    t->entries = aligned_alloc(64, size);
    if (!t->entries)
        return -1;
    t->mask = buckets - 1;
    tt_clear(t);
    return 0;
}

void tt_free(Tt *t)
{
    free(t->entries);
    t->entries = NULL;
}

void tt_clear(Tt *t)
{
    memset(t->entries, 0, (size_t)((t->mask + 1) * TT_BUCKET * sizeof(TtEntry)));
    t->age = 0;
}

static inline TtEntry *bucket(const Tt *t, uint64_t key)
{
    return &t->entries[(key & t->mask) * TT_BUCKET];
}

TtEntry *tt_probe(Tt *t, uint64_t key)
{
    TtEntry *b = bucket(t, key);
    uint32_t check = (uint32_t)(key >> 32);
    for (int i = 0; i < TT_BUCKET; i++)
        if (b[i].check == check && b[i].bound != TT_NONE)
            return &b[i];
    return NULL;
}

void tt_store(Tt *t, uint64_t key, Move move, int score, int eval, int depth, TtBound bound)
{
    TtEntry *b = bucket(t, key);
    uint32_t check = (uint32_t)(key >> 32);
    TtEntry *slot = NULL;
    for (int i = 0; i < TT_BUCKET; i++)
        if (b[i].check == check && b[i].bound != TT_NONE) {
            slot = &b[i];
            break;
        }
    if (!slot) {
        /* Replace the entry worth least: from an older search, then the shallowest. */
        int worst = 1 << 30;
        for (int i = 0; i < TT_BUCKET; i++) {
            int worth = b[i].bound == TT_NONE ? -(1 << 20)
                                              : b[i].depth - (b[i].age != t->age ? 256 : 0);
            if (worth < worst) {
                worst = worth;
                slot = &b[i];
            }
        }
        slot->move = XQ_MOVE_NONE;
        slot->eval = TT_NO_EVAL;
    } else if (bound != TT_EXACT && depth < slot->depth - 2 && slot->age == t->age) {
        /* Keep a much deeper result of this search; still learn the move and evaluation. */
        if (move != XQ_MOVE_NONE)
            slot->move = move;
        if (eval != TT_NO_EVAL)
            slot->eval = (int16_t)eval;
        return;
    }
    slot->check = check;
    if (move != XQ_MOVE_NONE)
        slot->move = move;
    slot->score = (int16_t)score;
    if (eval != TT_NO_EVAL)
        slot->eval = (int16_t)eval;
    slot->depth = (int8_t)depth;
    slot->bound = (uint8_t)bound;
    slot->age = t->age;
}
