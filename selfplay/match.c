/* match.c - colour-swapped game pairs between two players. */
#include "match.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "status.h"

/* Outcome of one game for the record. */
typedef struct GameOutcome {
    int8_t result;          /* Result from Red */
    uint8_t reason;
    bool done;
} GameOutcome;

/* Plays the shared opening: random legal non-capturing moves (falls back to any move); a
 * reveal's identity comes from the deal (NULL without hidden pieces), and what a capturer sees
 * goes into k. */
/* Appends a move to the game's record (when one is kept). */
static void note_move(GameRecord *rec, Move m)
{
    if (rec && rec->moves && rec->nmoves < XQ_MAX_HISTORY)
        rec->moves[rec->nmoves++] = m;
}

static void play_opening(Position *pos, int plies, Rng *rng, const HiddenDeal *deal,
                         HiddenKnowledge *k, GameRecord *rec)
{
    for (int i = 0; i < plies; i++) {
        MoveList list, quiet;
        pos_generate_legal(pos, &list);
        if (list.count == 0)
            return;
        quiet.count = 0;
        for (int j = 0; j < list.count; j++)
            if (!pos->board[XQ_MOVE_TO(list.moves[j])])
                quiet.moves[quiet.count++] = list.moves[j];
        const MoveList *from = quiet.count ? &quiet : &list;
        Move m = from->moves[rng_below(rng, (uint32_t)from->count)];
        if (deal)
            m = hidden_resolve(pos, m, deal);
        HiddenKnowledge before = *k;
        if (deal)
            hidden_knowledge_note(pos, m, deal, k);
        Undo u;
        pos_do_move(pos, m, &u);
        if (pos_game_status(pos).result != RESULT_NONE) {
            pos_undo_move(pos, m, &u);
            *k = before;
            return;
        }
        note_move(rec, m);
    }
}

/* A book opening: its moves from its base position (reveals drawn from the deal). */
static void play_book_opening(Position *pos, const BookEntry *e, const HiddenDeal *deal, HiddenKnowledge *k,
                              GameRecord *rec)
{
    for (int i = 0; i < e->nmoves; i++) {
        Move m = e->moves[i];
        if (deal) {
            m = hidden_resolve(pos, m, deal);
            hidden_knowledge_note(pos, m, deal, k);
        }
        Undo u;
        pos_do_move(pos, m, &u);
        note_move(rec, m);
    }
}

static GameOutcome play_game(const MatchOptions *o, Player *red, Player *black, uint64_t pair,
                             uint64_t game, Position *pos, GameRecord *rec)
{
    Rng opening, rng;
    rng_init(&opening, rng_game_seed(o->seed, pair));
    rng_init(&rng, rng_game_seed(o->seed ^ 0x9e3779b97f4a7c15ull, game));
    const BookEntry *entry = o->book ? &o->book->entries[pair % (uint64_t)o->book->count] : NULL;
    const char *fen = entry ? (entry->base_fen[0] ? entry->base_fen : NULL) : o->start_fen;
    if (!fen || pos_set_fen(pos, o->variant, fen, NULL) < 0)
        pos_init_start(pos, o->variant);
    /* Hidden pieces: both games of a pair are dealt alike (the players swap seats instead). */
    HiddenDeal deal;
    bool hidden = hidden_on(o->variant), swapped;
    if (hidden)
        game_deal(pos, o->seed, pair, false, &deal, &swapped);
    HiddenKnowledge knowledge; /* capture_knowledge = capturer: what each seat saw */
    memset(&knowledge, 0, sizeof knowledge);
    if (rec) {
        memset(rec, 0, sizeof *rec);
        rec->index = game;
        pos_get_fen(pos, rec->start_fen, sizeof rec->start_fen);
        rec->moves = malloc(XQ_MAX_HISTORY * sizeof *rec->moves);
        rec->has_deal = hidden;
        if (hidden)
            memcpy(rec->deal, deal.id, sizeof rec->deal);
    }
    if (entry)
        play_book_opening(pos, entry, hidden ? &deal : NULL, &knowledge, rec);
    else
        play_opening(pos, o->opening_plies, &opening, hidden ? &deal : NULL, &knowledge, rec);
    player_new_game(red, &knowledge);
    player_new_game(black, &knowledge);
    GameOutcome out = {RESULT_DRAW, TERM_LENGTH_CAP, true};
    int cap = o->max_plies < XQ_MAX_HISTORY - 1 ? o->max_plies : XQ_MAX_HISTORY - 1;
    for (int ply = 0;; ply++) {
        GameStatus st = pos_game_status(pos);
        if (st.result != RESULT_NONE) {
            out.result = (int8_t)st.result;
            out.reason = (uint8_t)st.reason;
            break;
        }
        if (ply >= cap || pos->hist_len >= XQ_MAX_HISTORY - 1)
            break;
        Player *mover = pos->side == RED ? red : black;
        Move m = player_choose(mover, pos, &rng);
        if (m == XQ_MOVE_NONE)
            break;
        if (hidden) {
            m = hidden_resolve(pos, m, &deal);
            hidden_knowledge_note(pos, m, &deal, &knowledge);
        }
        player_advance(red, m);
        player_advance(black, m);
        Undo u;
        pos_do_move(pos, m, &u);
        note_move(rec, m);
    }
    player_new_game(red, NULL); /* the knowledge lives in this frame */
    player_new_game(black, NULL);
    if (rec) {
        rec->result = out.result;
        rec->termination = out.reason;
        rec->plies = (uint16_t)rec->nmoves;
        rec->seat_colour = (int8_t)(hidden ? hidden_seat_colour(pos, RED) : RED);
    }
    return out;
}

int match_run(const MatchOptions *o, MatchTotals *t, XqError *err)
{
    memset(t, 0, sizeof *t);
    uint64_t ngames = o->pairs * 2;
    for (uint64_t g = 0; o->records && g < ngames; g++) {
        memset(&o->records[g], 0, sizeof o->records[g]);
        o->records[g].index = g;
        o->records[g].nmoves = -1;
    }
    GameOutcome *outcomes = calloc(ngames ? ngames : 1, sizeof *outcomes);
    if (!outcomes) {
        snprintf(err->file, sizeof err->file, "match");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    if (o->threads > 0)
        omp_set_num_threads(o->threads);
    atomic_bool failed = false;
    _Atomic uint64_t finished = 0, truncated[2] = {0, 0}, playouts[2] = {0, 0}, searches[2] = {0, 0};
    /* SPRT: pairs [0, sprt_prefix) are complete and in sprt_counts; sprt_end is the pair count
     * the totals keep (all pairs until a verdict). Updated under one lock, in pair order. */
    uint64_t sprt_prefix = 0, sprt_counts[5] = {0};
    _Atomic uint64_t sprt_end = o->pairs;
    double llr = 0;
    SprtVerdict verdict = SPRT_CONTINUE;
#pragma omp parallel
    {
        Player a, b;
        Position *pos = malloc(sizeof *pos);
        bool ok = pos && player_init(&a, o->a, o->variant) == 0;
        ok = ok && player_init(&b, o->b, o->variant) == 0;
        if (!ok)
            atomic_store(&failed, true);
#pragma omp for schedule(dynamic, 1)
        for (uint64_t g = 0; g < ngames; g++) {
            if (!ok || atomic_load(&failed) || (o->stop && atomic_load(o->stop)) ||
                g / 2 >= atomic_load(&sprt_end))
                continue;
            /* Even games: A is Red; odd games: A is Black. */
            bool a_red = g % 2 == 0;
            GameOutcome res = play_game(o, a_red ? &a : &b, a_red ? &b : &a, g / 2, g, pos,
                                        o->records ? &o->records[g] : NULL);
            if (!o->sprt)
                outcomes[g] = res;
            else
#pragma omp critical(match_sprt)
            {
                /* Stored under the lock: other threads read finished games here. */
                outcomes[g] = res;
                while (verdict == SPRT_CONTINUE && sprt_prefix < o->pairs &&
                       outcomes[2 * sprt_prefix].done && outcomes[2 * sprt_prefix + 1].done) {
                    const GameOutcome *g1 = &outcomes[2 * sprt_prefix];
                    const GameOutcome *g2 = &outcomes[2 * sprt_prefix + 1];
                    int pts = (g1->result == RESULT_RED_WINS ? 2 : g1->result == RESULT_DRAW ? 1 : 0) +
                              (g2->result == RESULT_BLACK_WINS ? 2 : g2->result == RESULT_DRAW ? 1 : 0);
                    sprt_counts[pts]++;
                    sprt_prefix++;
                    llr = sprt_llr(o->sprt, sprt_counts);
                    verdict = sprt_verdict(o->sprt, llr, sprt_prefix);
                    if (verdict != SPRT_CONTINUE)
                        atomic_store(&sprt_end, sprt_prefix);
                }
            }
            uint64_t n = atomic_fetch_add(&finished, 1) + 1;
            if (o->progress && (n % 20 == 0 || n == ngames))
#pragma omp critical(match_progress)
            {
                fprintf(stderr, "match: %llu/%llu games\n", (unsigned long long)n,
                        (unsigned long long)ngames);
            }
        }
        if (ok) {
            atomic_fetch_add(&truncated[0], player_truncated_searches(&a));
            atomic_fetch_add(&truncated[1], player_truncated_searches(&b));
            atomic_fetch_add(&playouts[0], a.playouts);
            atomic_fetch_add(&playouts[1], b.playouts);
            atomic_fetch_add(&searches[0], a.searches);
            atomic_fetch_add(&searches[1], b.searches);
        }
        if (pos) {
            player_free(&a);
            player_free(&b);
        }
        free(pos);
    }
    if (atomic_load(&failed)) {
        free(outcomes);
        snprintf(err->file, sizeof err->file, "match");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory creating the players");
        return -1;
    }
    t->truncated_searches[0] = atomic_load(&truncated[0]);
    t->truncated_searches[1] = atomic_load(&truncated[1]);
    for (int i = 0; i < 2; i++) {
        t->playouts[i] = atomic_load(&playouts[i]);
        t->searches[i] = atomic_load(&searches[i]);
    }
    t->sprt_llr = llr;
    t->sprt_verdict = verdict;
    uint64_t end = atomic_load(&sprt_end);
    /* Records: only games the totals count (complete pairs up to the SPRT verdict) are kept. */
    bool records_ok = true;
    for (uint64_t g = 0; o->records && g < ngames; g++) {
        GameRecord *rec = &o->records[g];
        bool counted = g / 2 < end && outcomes[g & ~1ull].done && outcomes[g | 1ull].done;
        if (counted && !rec->moves)
            records_ok = false;
        if (!counted || !records_ok) {
            free(rec->moves);
            rec->moves = NULL;
            rec->nmoves = -1;
        }
    }
    if (!records_ok) {
        free(outcomes);
        snprintf(err->file, sizeof err->file, "match");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory keeping the games");
        return -1;
    }
    for (uint64_t p = 0; p < end; p++) {
        const GameOutcome *g1 = &outcomes[2 * p], *g2 = &outcomes[2 * p + 1];
        if (!g1->done || !g2->done) {
            t->interrupted = true;
            continue;
        }
        /* A's result index: 0 win, 1 draw, 2 loss. */
        int r1 = g1->result == RESULT_RED_WINS ? 0 : g1->result == RESULT_DRAW ? 1 : 2;
        int r2 = g2->result == RESULT_BLACK_WINS ? 0 : g2->result == RESULT_DRAW ? 1 : 2;
        t->a_red[r1]++;
        t->a_black[r2]++;
        t->pentanomial[(2 - r1) + (2 - r2)]++;
        t->by_reason[g1->reason]++;
        t->by_reason[g2->reason]++;
        t->games += 2;
    }
    free(outcomes);
    return 0;
}

double match_score(const MatchTotals *t)
{
    if (!t->games)
        return 0;
    double points = (double)(t->a_red[0] + t->a_black[0]) + 0.5 * (double)(t->a_red[1] + t->a_black[1]);
    return points / (double)t->games;
}
