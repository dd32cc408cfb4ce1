/* random_play.c - random legal play with invariants checked after every move (see random_play.h). */
#include "test_util.h"

#include "random_play.h"
#include "rng.h"
#include "status.h"

typedef struct Snapshot {
    unsigned char head[offsetof(Position, hist)];
} Snapshot;

typedef struct Game {
    Position *pos, *scratch;
    Snapshot *snaps;
    Move *played;
    Undo *undos;
    int cap;
} Game;

static void check_fen_round_trip(const Position *p, Position *scratch)
{
    char a[512], b[512];
    XqError err;
    pos_get_fen(p, a, sizeof a);
    if (pos_set_fen(scratch, p->v, a, &err) != 0)
        fail_msg("written FEN '%s' is rejected: %s", a, err.message);
    pos_get_fen(scratch, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("FEN '%s' reads back as '%s'", a, b);
    if (scratch->key != p->key || scratch->in_check != p->in_check)
        fail_msg("FEN '%s' reads back with a different key or check flag", a);
}

/* One game: returns its termination (TERM_LENGTH_CAP if the cap was hit) and its length. */
static Termination random_game(Game *g, Rng *rng, bool fen_every_ply, int *plies)
{
    Position *p = g->pos;
    char msg[256];
    int n = 0;
    Termination end = TERM_LENGTH_CAP;
    for (; n < g->cap; n++) {
        MoveList list;
        int legal = pos_generate_legal(p, &list);
        if (legal != pos_count_legal(p))
            fail_msg("generate and count disagree");
        GameStatus st = pos_game_status_n(p, legal);
        if (st.result != RESULT_NONE) {
            end = st.reason;
            break;
        }
        Move m = list.moves[rng_below(rng, (uint32_t)legal)];
        char text[16], why[128];
        move_to_iccs(p->v, m, text);
        if (move_parse(p, text, why, sizeof why) != m)
            fail_msg("ply %d: '%s' does not parse back: %s", n, text, why);
        memcpy(g->snaps[n].head, p, sizeof g->snaps[n].head);
        g->played[n] = m;
        pos_do_move(p, m, &g->undos[n]);
        if (p->key != pos_compute_key(p))
            fail_msg("ply %d (%s): incremental key differs from the recomputed key", n, text);
        if (pos_validate(p, msg, sizeof msg) != 0)
            fail_msg("ply %d: %s", n, msg);
        if (pos_royal_attacked(p, XQ_OTHER(p->side)))
            fail_msg("ply %d (%s): a legal move left the mover's general attacked", n, text);
        if (p->in_check != pos_royal_attacked(p, p->side))
            fail_msg("ply %d: in_check flag is wrong", n);
        if (fen_every_ply)
            check_fen_round_trip(p, g->scratch);
    }
    check_fen_round_trip(p, g->scratch);
    for (int i = n - 1; i >= 0; i--) {
        pos_undo_move(p, g->played[i], &g->undos[i]);
        if (memcmp(p, g->snaps[i].head, sizeof g->snaps[i].head) != 0)
            fail_msg("undo of ply %d does not restore the position byte for byte", i);
    }
    *plies = n;
    return end;
}

void random_play_games(const char *variant, int games, int ply_cap, unsigned long long seed)
{
    Variant *v = test_load_variant(variant);
    Game g = {malloc(sizeof(Position)), malloc(sizeof(Position)),
              calloc((size_t)ply_cap, sizeof(Snapshot)), calloc((size_t)ply_cap, sizeof(Move)),
              calloc((size_t)ply_cap, sizeof(Undo)), ply_cap};
    assert_non_null(g.pos);
    assert_non_null(g.scratch);
    assert_non_null(g.snaps);
    assert_non_null(g.played);
    assert_non_null(g.undos);
    Rng rng;
    rng_init(&rng, seed);
    int by_rules = 0;
    long plies = 0;
    for (int i = 0; i < games; i++) {
        pos_init_start(g.pos, v);
        int n;
        Termination t = random_game(&g, &rng, i % 16 == 0, &n);
        by_rules += t != TERM_LENGTH_CAP;
        plies += n;
    }
    /* Games end by the rules (mate, stalemate, repetition, move limit), not by the cap. */
    assert_int_equal(by_rules, games);
    assert_true(plies > (long)games * 20);
    free(g.pos);
    free(g.scratch);
    free(g.snaps);
    free(g.played);
    free(g.undos);
    variant_free(v);
}
