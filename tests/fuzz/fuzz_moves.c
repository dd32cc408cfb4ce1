/* fuzz_moves.c - fuzz target: move strings (ICCS and module notations, as `xqlab play --moves`
 * reads them). The first byte picks a shipped rule set, the rest is a blank-separated move list
 * played from its start position; an accepted move must be legal, its written form must parse back
 * to the same move, and playing a drawn move must leave a valid position. */
#include <ctype.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_shipped.h"
#include "hidden.h"
#include "notation.h"
#include "position.h"

enum { MAX_MOVE_TEXT = 2048, MAX_TOKENS = 64 };

static Position fuzz_pos;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Variant *const *variants;
    int nvariants = fuzz_shipped_variants(&variants);
    if (size < 1 || size > MAX_MOVE_TEXT)
        return 0;
    const Variant *v = variants[data[0] % nvariants];
    char text[MAX_MOVE_TEXT + 1];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    pos_init_start(&fuzz_pos, v);
    char *save = NULL;
    int tokens = 0;
    for (char *tok = strtok_r(text, " \t\r\n", &save); tok && tokens < MAX_TOKENS;
         tok = strtok_r(NULL, " \t\r\n", &save), tokens++) {
        char why[256] = "";
        Move m = move_parse(&fuzz_pos, tok, why, sizeof why);
        if (m == XQ_MOVE_NONE) {
            FUZZ_CHECK(why[0] != '\0', "'%s' rejected without a reason", tok);
            continue;
        }
        MoveList list;
        pos_generate_legal(&fuzz_pos, &list);
        bool listed = false;
        for (int i = 0; i < list.count; i++)
            listed |= list.moves[i] == m;
        /* Face-down rule sets list undrawn reveals; the parsed move carries the drawn identity. */
        FUZZ_CHECK(listed || (hidden_on(v) && list.count > 0), "'%s' accepted but not legal", tok);
        char written[64];
        move_to_iccs(v, m, written);
        char why2[256] = "";
        Move again = move_parse(&fuzz_pos, written, why2, sizeof why2);
        FUZZ_CHECK(again == m, "'%s' parsed, written as '%s', which reads back differently (%s)",
                   tok, written, why2);
        /* An undrawn reveal is a chance move: callers refuse it (only drawn moves are played). */
        if (hidden_on(v) && hidden_is_chance(&fuzz_pos, m))
            continue;
        Undo u;
        pos_do_move(&fuzz_pos, m, &u);
        char msg[256];
        FUZZ_CHECK(pos_validate(&fuzz_pos, msg, sizeof msg) == 0, "after '%s': %s", tok, msg);
    }
    return 0;
}
