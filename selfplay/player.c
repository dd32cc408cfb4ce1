/* player.c - match players: MCTS, random, greedy. */
#include "player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int player_parse(PlayerSpec *spec, const char *text, const SearchParams *base, XqError *err)
{
    memset(spec, 0, sizeof *spec);
    snprintf(spec->label, sizeof spec->label, "%s", text);
    spec->params = *base;
    snprintf(err->file, sizeof err->file, "player '%s'", text);
    err->line = 0;
    if (!strcmp(text, "random")) {
        spec->kind = PLAYER_RANDOM;
        return 0;
    }
    if (!strcmp(text, "greedy")) {
        spec->kind = PLAYER_GREEDY;
        return 0;
    }
    if (strncmp(text, "mcts", 4) != 0 || (text[4] != '\0' && text[4] != ':')) {
        snprintf(err->message, sizeof err->message,
                 "expected random, greedy or mcts[:key=value,...]");
        return -1;
    }
    spec->kind = PLAYER_MCTS;
    if (text[4] == '\0')
        return 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text + 5);
    char *save = NULL;
    bool playouts = false, movetime = false;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err->message, sizeof err->message, "'%s' is not key=value", kv);
            return -1;
        }
        *eq = '\0';
        if (!strcmp(kv, "weights")) {
            snprintf(spec->weights, sizeof spec->weights, "%s", eq + 1);
            continue;
        }
        XqError perr;
        if (params_set(&spec->params, kv, eq + 1, &perr) < 0) {
            snprintf(err->message, sizeof err->message, "%s", perr.message);
            return -1;
        }
        playouts |= !strcmp(kv, "playouts");
        movetime |= !strcmp(kv, "movetime");
    }
    if (playouts && movetime) {
        snprintf(err->message, sizeof err->message,
                 "playouts and movetime are alternatives: give one budget per move");
        return -1;
    }
    /* The player's own budget replaces a timed base (match --movetime). */
    if (playouts)
        spec->params.movetime = 0;
    return 0;
}

int player_shared_init(PlayerShared *ps, const PlayerSpec *spec, const Variant *v,
                       const char *default_weights, XqError *err)
{
    memset(ps, 0, sizeof *ps);
    ps->spec = *spec;
    const char *w = spec->weights[0] ? spec->weights : default_weights;
    /* Random and greedy players still use the evaluator's piece values (greedy captures). */
    ps->eval = eval_create(v, w, err);
    return ps->eval ? 0 : -1;
}

void player_shared_free(PlayerShared *ps)
{
    eval_free(ps->eval);
    ps->eval = NULL;
}

int player_init(Player *p, const PlayerShared *ps, const Variant *v)
{
    p->shared = ps;
    p->mcts = NULL;
    p->playouts = 0;
    p->searches = 0;
    if (ps->spec.kind == PLAYER_MCTS) {
        p->mcts = mcts_create(v, ps->eval, &ps->spec.params);
        if (!p->mcts)
            return -1;
    }
    return 0;
}

void player_free(Player *p)
{
    mcts_free(p->mcts);
    p->mcts = NULL;
}

void player_new_game(Player *p, const HiddenKnowledge *k)
{
    if (p->mcts) {
        mcts_reset(p->mcts);
        mcts_set_knowledge(p->mcts, k);
    }
}

uint64_t player_truncated_searches(const Player *p)
{
    return p->mcts ? mcts_truncated_searches(p->mcts) : 0;
}

void player_advance(Player *p, Move m)
{
    if (p->mcts)
        mcts_advance(p->mcts, m);
}

/* Greedy: the capture of the most valuable piece (ties: the first generated of the best, after
 * a random shuffle), else a random move. */
static Move greedy_move(const Position *pos, const MoveList *list, Rng *rng)
{
    const Variant *v = pos->v;
    double best = -1;
    Move choice = list->moves[rng_below(rng, (uint32_t)list->count)];
    int ties = 0;
    for (int i = 0; i < list->count; i++) {
        Piece victim = pos->board[XQ_MOVE_TO(list->moves[i])];
        if (!victim)
            continue;
        const PieceKind *k = &v->kinds[XQ_PIECE_KIND(victim)];
        double value = k->royal ? 1000.0 : k->value;
        if (value > best) {
            best = value;
            choice = list->moves[i];
            ties = 1;
        } else if (value == best && rng_below(rng, (uint32_t)++ties) == 0) {
            choice = list->moves[i];
        }
    }
    return choice;
}

Move player_choose(Player *p, Position *pos, Rng *rng)
{
    MoveList list;
    pos_generate_legal(pos, &list);
    if (list.count == 0)
        return XQ_MOVE_NONE;
    switch (p->shared->spec.kind) {
    case PLAYER_RANDOM:
        return list.moves[rng_below(rng, (uint32_t)list.count)];
    case PLAYER_GREEDY:
        return greedy_move(pos, &list, rng);
    case PLAYER_MCTS:
    default: {
        SearchResult r;
        if (mcts_search(p->mcts, pos, rng, false, &r) < 0)
            return XQ_MOVE_NONE;
        p->playouts += (uint64_t)r.playouts;
        p->searches++;
        return mcts_pick(&r, 0.0, rng);
    }
    }
}
