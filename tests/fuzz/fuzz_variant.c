/* fuzz_variant.c - fuzz target: the variant-file reader; an accepted file must give a start
 * position that validates, round-trips as FEN and runs perft(2) with exact do/undo. */
#include <string.h>

#include "fuzz.h"
#include "hidden.h"
#include "perft.h"
#include "position.h"

enum { MAX_VARIANT_TEXT = 16384 };

static Position fuzz_pos, fuzz_copy;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_VARIANT_TEXT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    XqError err;
    memset(&err, 0, sizeof err);
    Variant *v = variant_load_text(text, "fuzz.ini", &err);
    free(text);
    if (!v) {
        FUZZ_CHECK(err.message[0] != '\0', "rejection without a message");
        return 0;
    }
    pos_init_start(&fuzz_pos, v);
    char msg[256], fen[1024], again[1024];
    FUZZ_CHECK(pos_validate(&fuzz_pos, msg, sizeof msg) == 0, "start position: %s", msg);
    pos_get_fen(&fuzz_pos, fen, sizeof fen);
    FUZZ_CHECK(pos_set_fen(&fuzz_copy, v, fen, &err) == 0, "written start FEN '%s' rejected: %s",
               fen, err.message);
    pos_get_fen(&fuzz_copy, again, sizeof again);
    FUZZ_CHECK(strcmp(fen, again) == 0, "'%s' read back as '%s'", fen, again);

    /* perft(2) by hand, so each first move's do/undo is checked too. A face-down rule set lists
     * undrawn reveals, which are chance events and never played as they are (core/hidden.h):
     * each of their drawn identities is played instead, as perft counts them. */
    memcpy(&fuzz_copy, &fuzz_pos, offsetof(Position, hist));
    MoveList list;
    pos_generate_legal(&fuzz_pos, &list);
    uint64_t leaves = 0;
    for (int i = 0; i < list.count; i++) {
        Move drawn[HIDDEN_MAX_OUTCOMES];
        double prob[HIDDEN_MAX_OUTCOMES];
        int n = 1;
        drawn[0] = list.moves[i];
        if (hidden_on(v) && hidden_is_chance(&fuzz_pos, list.moves[i]))
            n = hidden_outcomes(&fuzz_pos, list.moves[i], drawn, prob);
        for (int j = 0; j < n; j++) {
            Undo u;
            pos_do_move(&fuzz_pos, drawn[j], &u);
            FUZZ_CHECK(pos_validate(&fuzz_pos, msg, sizeof msg) == 0, "after move %d (identity %d): %s", i,
                       j, msg);
            leaves += perft(&fuzz_pos, 1);
            pos_undo_move(&fuzz_pos, drawn[j], &u);
            FUZZ_CHECK(memcmp(&fuzz_copy, &fuzz_pos, offsetof(Position, hist)) == 0,
                       "undo of move %d (identity %d) does not restore the start position", i, j);
        }
    }
    FUZZ_CHECK(perft(&fuzz_pos, 2) == leaves, "perft(2) differs from the sum over first moves");
    variant_free(v);
    return 0;
}
