/* repetition.c - repetition detection and verdicts: perpetual check, perpetual chase (asian) and
 * the CXA 棋例 (chinese), judged by replaying the repeated cycle. */
#include "repetition.h"

#include "module.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/*
 * How a verdict is reached (docs/variants/xiangqi.md, "Repetition").
 *
 * The cycle is the run of moves since the most recent earlier occurrence of the current position
 * (same side to move). It never contains a capture: a capture changes the material, and
 * rep_count_occurrences only looks back to the last capture. The verdict works on a private copy
 * of the position: it undoes the cycle on the copy, then replays it move by move and classifies
 * every move of each side.
 *
 * Piece roles. The rules name pieces (general, pawn, horse, cannon, chariot) while the variant
 * file only defines kinds, so roles are found like this (naming convention of configs/variants):
 *   - "general" is any kind with `royal = yes`;
 *   - the kinds named `pawn`, `horse`, `cannon` and `chariot` in the variant file play those
 *     roles; a variant without such names simply has no piece in that role;
 *   - a pawn has crossed the river when it stands in its side's zone named `enemy_half`
 *     (a variant without that zone treats every pawn as crossed);
 *   - material values are the kinds' `value` fields.
 *
 * A threat of the mover's piece A against the opponent's piece X (both after the move) means:
 *   - A can capture X now (table attack, and the capture leaves A's general safe);
 *   - A is not a general and not a pawn (asian; chinese article 27.1 / 27.2), X is neither a
 *     general nor an uncrossed pawn (chinese 25.3: they have no material value);
 *   - it is not an exchange offer: X is not of equal value, or X cannot legally take A first
 *     (asian: same kind; chinese 25.3 / 28.5: values within half a pawn, so horse = cannon);
 *   - X is unprotected: after A takes X, no opponent piece can legally take back on the square,
 *     so a pinned protector, a protector that would walk into a discovered check and the cannon
 *     whose only screen was A do not protect; or A gains material anyway (asian: a horse or
 *     cannon against a chariot; chinese 29.1: X worth more than A by over half a pawn, pawns
 *     excluded because 25.3 says pawns for pieces are not counted as a gain);
 *   - chinese 29.4: after the capture the opponent has no mate in one.
 *
 * A chase is a threat that the move created (article 29.2: "it did not exist before the move"):
 *   - asian: the attack itself is new (A did not attack X's point from where A stood before,
 *     which covers discovered attacks and a slider moving along its own line), or the attack
 *     existed but the move took away X's protection through legality: a protector that could
 *     legally take back before is now pinned or would expose its general (the discovered-check
 *     and pin cases of repetition_cases.txt), or an equal piece that could take A back is now
 *     pinned. Protection lost because the move blocked a protector's line is not counted, which
 *     is how the reference engine of repetition_cases.txt judges the D39 cases;
 *   - chinese: any threat that was not a threat before the move (the literal 29.2), judging the
 *     "before" without requiring the capture to have been legal then (the mover may have been in
 *     check, which hides its threats without removing them).
 *
 * Asian verdict: a side whose every move in the cycle gave check checks perpetually; a side that
 * chases one and the same opposing piece (followed as it moves) with every move chases
 * perpetually. Perpetual check loses; if neither or both sides check perpetually the check level
 * ends there; otherwise perpetual chase loses; both or neither: draw.
 *
 * Chinese verdict (seed 002 (3), articles 25-29): each move is classified, most severe first
 * (27.4): 将 check (the move gave check), 杀 mate threat, 捉 chase (as above, any piece), else 闲.
 * 杀 (28.2): given a second move in a row, the mover mates by a series of checks of at most
 * MATE_THREAT_DEPTH of its own moves (mate next move, or by continuous checks), and it could not
 * already do so before the move (a standing mate the mover keeps declining is not a threat the
 * move makes, the same "new" reading as 29.2 for 捉). A side is
 * forbidden (长打: 长将, 长杀, 长捉 and their mixtures 一将一杀, 一将一捉, 一杀一捉, 25.2) when every
 * one of its moves is 将, 杀 or 捉; one 闲 move in the cycle makes it allowed (数将一闲 ...).
 * 27.2: a pawn's own threats are 闲, unless both sides would be 长打 with them counted, then they
 * count as 捉. Verdicts per 26: one-sided 长将 loses; both forbidden or both allowed: draw;
 * forbidden against allowed: the forbidden side loses. 长将 is reported as perpetual check, the
 * other forbidden patterns as perpetual chase (there is no separate termination code).
 * Approximations: capture by a series of checks (29.1, second form) is only seen when the
 * capture itself uncovers the check (the legality test above); a full exchange sequence is
 * approximated by the value test; 27.3 (occupying a key defensive point) is not judged.
 */

enum {
    MATE_THREAT_DEPTH = 3,   /* 杀: mate within 3 own checking moves (5 plies) */
    MAX_THREATS = 128,
};

/* Equal value for exchange offers and "gain through exchange" (25.3: horse = cannon). */
#define VALUE_TOLERANCE 0.5

typedef struct Judge {
    Position *pos;           /* working copy, replayed through the cycle */
    const Variant *v;
    bool chinese;
    int pawn, horse, cannon, chariot; /* kind indexes by name, -1 if the variant has none */
    int enemy_half;          /* zone index, -1 if none */
} Judge;

/* What one capture of X by A would lead to, on the current board of j->pos. */
typedef struct Threat {
    bool attack;        /* A reaches X's point by its tables */
    bool eligible;      /* attacker and target roles allow a chase */
    bool legal;         /* the capture leaves A's general safe */
    bool exchange;      /* equal piece that can legally take A first */
    bool exchange_seen; /* X reaches A's point by its tables (ignoring legality) */
    bool gain;          /* material gain even against protection */
    bool mated;         /* chinese 29.4: the capturer is mated at once */
    PointSet seen;      /* defenders reaching the square after the capture, ignoring pins */
    PointSet guards;    /* defenders that may legally take back */
    bool guarded;
    bool threat_any;    /* a threat if the capture were legal */
    bool threat;        /* a threat now */
} Threat;

static int kind_named(const Variant *v, const char *name)
{
    for (int k = 0; k < v->nkinds; k++)
        if (!strcmp(v->kinds[k].name, name))
            return k;
    return -1;
}

static bool pointset_intersects(const PointSet *a, const PointSet *b)
{
    for (int i = 0; i < 4; i++)
        if (a->w[i] & b->w[i])
            return true;
    return false;
}

static bool kind_is(int kind, int role)
{
    return role >= 0 && kind == role;
}

/* 25.3 / docs/variants/xiangqi.md: generals and uncrossed pawns are not chased. */
static bool target_has_value(const Judge *j, Point x)
{
    Piece pc = j->pos->board[x];
    int k = XQ_PIECE_KIND(pc);
    if (j->v->kinds[k].royal)
        return false;
    if (kind_is(k, j->pawn) && j->enemy_half >= 0)
        return variant_in_zone(j->v, j->enemy_half, XQ_PIECE_SIDE(pc), x);
    return true;
}

/* docs/variants/xiangqi.md / 27.1 / 27.2: a general's or a pawn's own attacks are not chases. */
static bool attacker_may_chase(const Judge *j, Point a, bool pawns_chase)
{
    int k = XQ_PIECE_KIND(j->pos->board[a]);
    if (j->v->kinds[k].royal)
        return false;
    return pawns_chase || !kind_is(k, j->pawn);
}

/* True if the side to move mates by a series of checks within `depth` of its own moves. */
static bool mates_by_checks(Position *p, int depth)
{
    MoveList moves;
    pos_generate_legal(p, &moves);
    for (int i = 0; i < moves.count; i++) {
        Undo u;
        pos_do_move(p, moves.moves[i], &u);
        bool win = false;
        if (p->in_check) {
            MoveList replies;
            int n = pos_generate_legal(p, &replies);
            win = n == 0;
            if (!win && depth > 1) {
                win = true;
                for (int r = 0; r < n && win; r++) {
                    Undo ur;
                    pos_do_move(p, replies.moves[r], &ur);
                    win = mates_by_checks(p, depth - 1);
                    pos_undo_move(p, replies.moves[r], &ur);
                }
            }
        }
        pos_undo_move(p, moves.moves[i], &u);
        if (win)
            return true;
    }
    return false;
}

/* Side `s` has just moved (the opponent is to move): would s mate by checks if it moved again? */
static bool threatens_mate(Position *p, Side s)
{
    Side saved = p->side;
    bool saved_check = p->in_check;
    p->side = s;
    p->key ^= p->v->zobrist_side;
    p->in_check = pos_royal_attacked(p, s);
    bool mate = !p->in_check && mates_by_checks(p, MATE_THREAT_DEPTH);
    p->key ^= p->v->zobrist_side;
    p->side = saved;
    p->in_check = saved_check;
    return mate;
}

/* Evaluates the capture of the piece on x by the piece on a (side s), whoever is to move. */
static Threat threat_eval(const Judge *j, Point a, Point x, Side s, bool pawns_chase)
{
    Position *p = j->pos;
    Threat t;
    memset(&t, 0, sizeof t);
    t.attack = pos_piece_attacks(p, a, x);
    if (!t.attack)
        return t;
    t.eligible = attacker_may_chase(j, a, pawns_chase) && target_has_value(j, x);
    if (!t.eligible)
        return t;

    const Variant *v = j->v;
    int ka = XQ_PIECE_KIND(p->board[a]), kx = XQ_PIECE_KIND(p->board[x]);
    Side them = XQ_OTHER(s), saved = p->side;
    bool saved_check = p->in_check;

    /* Exchange offer: X could take A first (docs/variants/xiangqi.md; chinese 28.5 兑 is 闲). */
    double diff = v->kinds[ka].value - v->kinds[kx].value;
    bool equal = j->chinese ? diff <= VALUE_TOLERANCE && -diff <= VALUE_TOLERANCE : ka == kx;
    if (equal) {
        p->side = them;
        t.exchange_seen = pos_piece_attacks(p, x, a);
        t.exchange = t.exchange_seen && pos_is_legal(p, XQ_MOVE(x, a));
    }
    if (j->chinese)
        t.gain = !kind_is(ka, j->pawn) && !kind_is(kx, j->pawn) &&
                 v->kinds[kx].value > v->kinds[ka].value + VALUE_TOLERANCE;
    else
        t.gain = (kind_is(ka, j->horse) || kind_is(ka, j->cannon)) && kind_is(kx, j->chariot);

    /* Play the capture (even if illegal: protection is judged on the board it leaves). */
    p->side = s;
    Move m = XQ_MOVE(a, x);
    t.legal = pos_is_legal(p, m);
    Undo u;
    pos_do_move(p, m, &u);
    MoveList replies;
    pos_generate_pseudo(p, &replies);
    for (int i = 0; i < replies.count; i++) {
        Move r = replies.moves[i];
        if (XQ_MOVE_TO(r) != x)
            continue;
        pointset_add(&t.seen, XQ_MOVE_FROM(r));
        if (pos_is_legal(p, r)) {
            pointset_add(&t.guards, XQ_MOVE_FROM(r));
            t.guarded = true;
        }
    }
    if (j->chinese && t.legal)
        t.mated = mates_by_checks(p, 1);
    pos_undo_move(p, m, &u);
    p->side = saved;
    p->in_check = saved_check;

    t.threat_any = !t.exchange && (t.gain || !t.guarded) && !t.mated;
    t.threat = t.legal && t.threat_any;
    return t;
}

/* A threat found after a move, with its attacker's point before the move. */
typedef struct Found {
    Point a_after, a_before, x;
    Threat t;
} Found;

/* Classification of one move of the cycle. */
typedef struct MoveClass {
    bool check;
    bool mate_threat;      /* chinese 杀 */
    bool chase;            /* chinese 捉 by a non-pawn */
    bool pawn_chase;       /* chinese: 捉 by a pawn's own attack (27.2) */
    uint64_t chased;       /* asian: ids of the opponent's pieces chased */
} MoveClass;

/* Is the threat `after` new compared with the board before the move? */
static bool threat_is_new(const Judge *j, const Found *f, Side s, bool pawns_chase)
{
    Threat before = threat_eval(j, f->a_before, f->x, s, pawns_chase);
    if (j->chinese)
        return !before.threat_any;
    if (!before.attack)
        return true;
    if (before.threat_any)
        return false;
    const Threat *now = &f->t;
    /* Protection lost through legality: a guard that could take back is now pinned. */
    if (before.guarded) {
        PointSet pinned;
        for (int i = 0; i < 4; i++)
            pinned.w[i] = now->seen.w[i] & ~now->guards.w[i];
        if (pointset_intersects(&before.guards, &pinned))
            return true;
    }
    /* An equal piece that could take back first is now pinned. */
    return before.exchange && !now->exchange && now->exchange_seen;
}

/* Where the piece standing on `after` once m is played stood before it: a turn's second sub-move
 * (five tigers) moves a second piece, or the same one again. */
static Point point_before(const Variant *v, Move m, Point after)
{
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    if (XQ_MOVE_FLAGS(m) & XQ_FLAG_DOUBLE) {
        Move m2 = module_double_second(v, m);
        if (after == XQ_MOVE_TO(m2))
            after = XQ_MOVE_FROM(m2); /* the first sub-move's square if one pawn moved twice */
    }
    return after == to ? from : after;
}

/* Follows piece identities through m: the mover, a second sub-move's piece (five tigers), a
 * displaced piece (tuoqi: from `to` to `extra`); a piece leaving the river camp is new on the
 * board (id 63, which no list slot has). */
static void follow_ids(const Variant *v, Move m, uint8_t *ids)
{
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    uint8_t flags = XQ_MOVE_FLAGS(m);
    if (flags == XQ_FLAG_DISPLACE)
        ids[XQ_MOVE_EXTRA(m)] = ids[to];
    if (flags == XQ_FLAG_CAMP_LEAVE)
        ids[to] = 63;
    else if (from != to)
        ids[to] = ids[from];
    if (flags & XQ_FLAG_DOUBLE) {
        Move m2 = module_double_second(v, m);
        ids[XQ_MOVE_TO(m2)] = ids[XQ_MOVE_FROM(m2)];
    }
}

/* Classifies the move m (legal in j->pos, side to move s); plays it on return. */
static void classify_move(const Judge *j, Move m, const uint8_t *ids, MoveClass *c)
{
    Position *p = j->pos;
    Side s = p->side, them = XQ_OTHER(s);
    memset(c, 0, sizeof *c);

    /* Collect the threats on the board after the move, for both pawn readings. */
    Found found[MAX_THREATS];
    int nfound = 0;
    Undo u;
    pos_do_move(p, m, &u);
    c->check = p->in_check;
    bool pawns = j->chinese; /* chinese also needs pawn threats (27.2 mutual clause) */
    for (int ia = 0; ia < p->count[s]; ia++) {
        Point a = p->list[s][ia];
        for (int ix = 0; ix < p->count[them] && nfound < MAX_THREATS; ix++) {
            Point x = p->list[them][ix];
            Threat t = threat_eval(j, a, x, s, pawns);
            if (t.threat)
                found[nfound++] = (Found){a, point_before(j->v, m, a), x, t};
        }
    }
    if (j->chinese && !c->check)
        c->mate_threat = threatens_mate(p, s);
    pos_undo_move(p, m, &u);
    /* A mate the mover could already give before the move is not a threat the move made. */
    if (c->mate_threat)
        c->mate_threat = !mates_by_checks(p, MATE_THREAT_DEPTH);

    /* Keep the new ones, judged on the board before the move. */
    for (int i = 0; i < nfound; i++) {
        const Found *f = &found[i];
        if (!threat_is_new(j, f, s, pawns))
            continue;
        bool by_pawn = kind_is(XQ_PIECE_KIND(p->board[f->a_before]), j->pawn);
        if (by_pawn)
            c->pawn_chase = true;
        else
            c->chase = true;
        c->chased |= (uint64_t)1 << ids[f->x];
    }
    pos_do_move(p, m, &u);
}

static Result loss_for(Side s)
{
    return s == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
}

int rep_count_occurrences(const Position *pos)
{
    int n = 0;
    int stop = pos->hist_len - pos->no_capture;
    if (stop < 0)
        stop = 0;
    for (int i = pos->hist_len - 2; i >= stop; i -= 2)
        n += pos->hist[i].key == pos->key;
    return n;
}

/* Index in pos->hist of the most recent earlier occurrence of the current position, or -1. */
static int cycle_start(const Position *pos)
{
    int stop = pos->hist_len - pos->no_capture;
    if (stop < 0)
        stop = 0;
    for (int i = pos->hist_len - 2; i >= stop; i -= 2)
        if (pos->hist[i].key == pos->key)
            return i;
    return -1;
}

/* Asian and check-only verdicts from per-side summaries. */
static GameStatus verdict_levels(const bool perpetual_check[2], const bool perpetual_chase[2],
                                 bool judge_chase)
{
    if (perpetual_check[RED] != perpetual_check[BLACK])
        return (GameStatus){loss_for(perpetual_check[RED] ? RED : BLACK), TERM_PERPETUAL_CHECK};
    if (!perpetual_check[RED] && judge_chase && perpetual_chase[RED] != perpetual_chase[BLACK])
        return (GameStatus){loss_for(perpetual_chase[RED] ? RED : BLACK), TERM_PERPETUAL_CHASE};
    return (GameStatus){RESULT_DRAW, TERM_REPETITION_DRAW};
}

GameStatus rep_verdict(Position *pos)
{
    const GameStatus draw = {RESULT_DRAW, TERM_REPETITION_DRAW};
    const Variant *v = pos->v;
    RepetitionRule rule = v->rules.repetition;
    if (rule == REP_NONE)
        return draw;
    int start = cycle_start(pos);
    if (start < 0)
        return draw;

    /* Per-side check summary straight from the history: enough for check-only. */
    bool all_check[2] = {true, true};
    for (int i = start; i < pos->hist_len; i++) {
        Side mover = (Side)(((pos->hist_len - i) & 1) ? XQ_OTHER(pos->side) : pos->side);
        all_check[mover] &= pos->hist[i].gave_check;
    }
    bool no_chase[2] = {false, false};
    if (rule == REP_CHECK_ONLY)
        return verdict_levels(all_check, no_chase, false);

    Position *work = malloc(sizeof *work);
    if (!work) /* cannot replay: judge on checks alone rather than fail the game */
        return verdict_levels(all_check, no_chase, false);
    /* The cycle starts and ends in the same position (same key: board, side to move, rule-module
     * state), so the current position is the cycle's start: replaying the cycle's moves from a
     * copy of it visits every position of the cycle again. No undo is needed, which matters for
     * rule-module moves (displacement, exchanges) whose undo records the history does not keep. */
    memcpy(work, pos, sizeof *work);
    work->hist_len = 0;

    Judge j = {work, v, rule == REP_CHINESE, kind_named(v, "pawn"), kind_named(v, "horse"),
               kind_named(v, "cannon"), kind_named(v, "chariot"), variant_find_zone(v, "enemy_half")};

    /* Piece identities, followed through the cycle (a chase is of one and the same piece). */
    uint8_t ids[XQ_MAX_POINTS];
    memset(ids, 0, sizeof ids);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < work->count[s]; i++)
            ids[work->list[s][i]] = (uint8_t)i;

    uint64_t chased[2] = {~(uint64_t)0, ~(uint64_t)0};
    bool forbidden[2] = {true, true}, forbidden_pawns[2] = {true, true};
    for (int i = start; i < pos->hist_len; i++) {
        Move m = pos->hist[i].move;
        Side s = work->side;
        MoveClass c;
        classify_move(&j, m, ids, &c);
        follow_ids(v, m, ids);
        chased[s] &= c.chased;
        bool attack = c.check || c.mate_threat || c.chase;
        forbidden[s] &= attack;
        forbidden_pawns[s] &= attack || c.pawn_chase;
    }
    free(work);

    if (rule == REP_ASIAN) {
        bool perpetual_chase[2] = {chased[RED] != 0, chased[BLACK] != 0};
        return verdict_levels(all_check, perpetual_chase, true);
    }

    /* Chinese, article 26. 26.1: one-sided 长将 always loses; 26.3: both 长将 is a draw. */
    if (all_check[RED] || all_check[BLACK])
        return verdict_levels(all_check, no_chase, false);
    /* 27.2: with mutual 长打 once pawn threats count, they count as 捉 for both sides. */
    if (forbidden_pawns[RED] && forbidden_pawns[BLACK])
        forbidden[RED] = forbidden[BLACK] = true;
    if (forbidden[RED] != forbidden[BLACK])
        return (GameStatus){loss_for(forbidden[RED] ? RED : BLACK), TERM_PERPETUAL_CHASE};
    return draw;
}
