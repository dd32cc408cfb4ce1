/* movegen.c - move generation by walking the compiled tables, attack detection, legality. */
#include "position.h"

#include <assert.h>

#include "module.h"

/* Calls ADD(move) for every pseudo-legal move of the piece on `from`. Shared by generation and
 * counting so both walk the tables the same way. XQ_FOR_PIECE_MOVES_T walks the table slice
 * `table` (rule modules pick it, e.g. the cube's powered tables; the expression may use the
 * macro's own v_, pc_ and us_); XQ_FOR_PIECE_MOVES the plain one. */
#define XQ_FOR_PIECE_MOVES(pos, from, ADD)                                                       \
    XQ_FOR_PIECE_MOVES_T(pos, from, &v_->table[XQ_PIECE_KIND(pc_)][us_][from], ADD)
#define XQ_FOR_PIECE_MOVES_T(pos, from, table, ADD)                                              \
    do {                                                                                         \
        const Variant *v_ = (pos)->v;                                                            \
        const Piece *b_ = (pos)->board;                                                          \
        Piece pc_ = b_[from];                                                                    \
        Side us_ = XQ_PIECE_SIDE(pc_);                                                           \
        const MoveTable *t_ = (table);                                                           \
        const LeapEntry *e_ = v_->leaps + t_->leap_first;                                        \
        for (int i_ = 0; i_ < t_->leap_count; i_++, e_++) {                                      \
            if (b_[e_->block[0]] | b_[e_->block[1]])                                             \
                continue;                                                                        \
            Piece q_ = b_[e_->to];                                                               \
            if (!q_) {                                                                           \
                if (e_->mode & ATOM_MOVE)                                                        \
                    ADD(XQ_MOVE(from, e_->to));                                                  \
            } else if (XQ_PIECE_SIDE(q_) != us_ && (e_->mode & ATOM_CAPTURE) &&                  \
                       (e_->targets >> XQ_PIECE_KIND(q_) & 1)) {                                 \
                ADD(XQ_MOVE(from, e_->to));                                                      \
            }                                                                                    \
        }                                                                                        \
        const Ray *r_ = v_->rays + t_->ray_first;                                                \
        for (int j_ = 0; j_ < t_->ray_count; j_++, r_++) {                                       \
            const Point *pts_ = v_->ray_points + r_->first;                                      \
            int len_ = r_->len, k_ = 0;                                                          \
            for (; k_ < len_; k_++) {                                                            \
                if (b_[pts_[k_]])                                                                \
                    break;                                                                       \
                if ((r_->flags & RAY_SLIDE_MOVE) && k_ < r_->slide_max)                          \
                    ADD(XQ_MOVE(from, pts_[k_]));                                                \
            }                                                                                    \
            if (k_ == len_)                                                                      \
                continue;                                                                        \
            Piece q_ = b_[pts_[k_]];                                                             \
            if ((r_->flags & RAY_SLIDE_CAPTURE) && k_ < r_->slide_max &&                         \
                XQ_PIECE_SIDE(q_) != us_ && (r_->targets >> XQ_PIECE_KIND(q_) & 1))              \
                ADD(XQ_MOVE(from, pts_[k_]));                                                    \
            if (!(r_->flags & (RAY_HOP_MOVE | RAY_HOP_CAPTURE)))                                 \
                continue;                                                                        \
            k_++;                                                                                \
            for (int s_ = 1; s_ < r_->screens && k_ < len_; k_++)                                \
                s_ += b_[pts_[k_]] != 0;                                                         \
            for (; k_ < len_; k_++) {                                                            \
                q_ = b_[pts_[k_]];                                                               \
                if (!q_) {                                                                       \
                    if (r_->flags & RAY_HOP_MOVE)                                                \
                        ADD(XQ_MOVE(from, pts_[k_]));                                            \
                    if (r_->flags & RAY_HOP_NEXT)                                                \
                        break; /* a grasshopper lands right behind the screen or not at all */   \
                    continue;                                                                    \
                }                                                                                \
                if ((r_->flags & RAY_HOP_CAPTURE) && XQ_PIECE_SIDE(q_) != us_ &&                 \
                    (r_->targets >> XQ_PIECE_KIND(q_) & 1))                                      \
                    ADD(XQ_MOVE(from, pts_[k_]));                                                \
                break;                                                                           \
            }                                                                                    \
        }                                                                                        \
    } while (0)

/* The body of the royal attack test by the plain tables, counting attackers whose kind passes
 * KIND_OK(kind): written once, expanded into the plain test (every kind, the hot path) and the
 * kind-filtered test rule modules use. */
#define XQ_ROYAL_ATTACKED_BODY(pos, side, KIND_OK)                                               \
    const Variant *v = pos->v;                                                                   \
    const Piece *b = pos->board;                                                                 \
    Point k = pos->royal[side];                                                                  \
    if (k == XQ_NO_POINT)                                                                        \
        return false;                                                                            \
    Side them = XQ_OTHER(side);                                                                  \
    const ReverseTable *rt = &v->reverse[them][k];                                               \
    const ReverseLeap *r = v->reverse_leaps + rt->first;                                         \
    for (int i = 0; i < rt->count; i++, r++) {                                                   \
        Piece q = b[r->from];                                                                    \
        if (q && XQ_PIECE_SIDE(q) == them && (r->kinds >> XQ_PIECE_KIND(q) & 1) &&               \
            KIND_OK(XQ_PIECE_KIND(q)) &&                                                         \
            !(b[r->block[0]] | b[r->block[1]]))                                                  \
            return true;                                                                         \
    }                                                                                            \
    unsigned dirs = v->attack_dirs[them];                                                        \
    bool hoppers = v->hopper_kinds[them] != 0;                                                   \
    for (int d = 0; dirs; d++, dirs >>= 1) {                                                     \
        if (!(dirs & 1))                                                                         \
            continue;                                                                            \
        int od = XQ_DIR_OPPOSITE(d);                                                             \
        const Point(*nb)[DIR_COUNT] = v->neighbor;                                               \
        Point q = nb[k][d];                                                                      \
        int dist = 1;                                                                            \
        while (q != XQ_NO_POINT && !b[q]) {                                                      \
            q = nb[q][d];                                                                        \
            dist++;                                                                              \
        }                                                                                        \
        if (q == XQ_NO_POINT)                                                                    \
            continue;                                                                            \
        Piece pc = b[q];                                                                         \
        if (XQ_PIECE_SIDE(pc) == them && KIND_OK(XQ_PIECE_KIND(pc)) &&                           \
            v->slide_reach[XQ_PIECE_KIND(pc)][them][q][od] >= dist)                              \
            return true;                                                                         \
        if (!hoppers)                                                                            \
            continue;                                                                            \
        int screen_dist = dist; /* a land=next hopper needs the screen next to the target */     \
        q = nb[q][d];                                                                            \
        dist++;                                                                                  \
        while (q != XQ_NO_POINT && !b[q]) {                                                      \
            q = nb[q][d];                                                                        \
            dist++;                                                                              \
        }                                                                                        \
        if (q == XQ_NO_POINT)                                                                    \
            continue;                                                                            \
        pc = b[q];                                                                               \
        if (XQ_PIECE_SIDE(pc) == them && KIND_OK(XQ_PIECE_KIND(pc)) &&                           \
            (v->hop_reach[XQ_PIECE_KIND(pc)][them][q][od] >= dist ||                             \
             (screen_dist == 1 && v->hop_next_reach[XQ_PIECE_KIND(pc)][them][q][od] >= dist)))    \
            return true;                                                                         \
    }                                                                                            \
    return false;

#define XQ_ANY_KIND(k) true
/* A piece with no kind (a face-down piece reports -1) is in no set: shifting by it would be
 * undefined (found by UBSan in alpha-beta self-play of a face-down rule set). */
#define XQ_IN_KINDS(k) ((unsigned)(k) < 32u && ((kinds >> (k)) & 1))

bool pos_royal_attacked(const Position *pos, Side side)
{
    if (pos->v->modules)
        return module_royal_attacked(pos, side);
    XQ_ROYAL_ATTACKED_BODY(pos, side, XQ_ANY_KIND)
}

bool pos_royal_attacked_by(const Position *pos, Side side, unsigned kinds)
{
    XQ_ROYAL_ATTACKED_BODY(pos, side, XQ_IN_KINDS)
}

int pos_walk_piece(const Position *pos, Point from, const MoveTable *t, MoveList *list, int n)
{
#define ADD_MOVE(m)                                                                              \
    do {                                                                                         \
        if (n < XQ_MAX_MOVES)                                                                    \
            list->moves[n++] = (m);                                                              \
    } while (0)
    XQ_FOR_PIECE_MOVES_T(pos, from, t, ADD_MOVE);
#undef ADD_MOVE
    return n;
}

int pos_generate_pseudo(const Position *pos, MoveList *list)
{
    if (pos->v->modules)
        return module_generate_pseudo(pos, list);
    int n = 0;
    Side us = pos->side;
    /* A variant file can define positions with more moves than a list holds: never write past
     * the end (the list is then truncated; pos_set_fen rejects such positions up front). */
#define ADD_MOVE(m)                                                                              \
    do {                                                                                         \
        if (n < XQ_MAX_MOVES)                                                                    \
            list->moves[n++] = (m);                                                              \
    } while (0)
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        XQ_FOR_PIECE_MOVES(pos, from, ADD_MOVE);
    }
#undef ADD_MOVE
    list->count = n;
    return n;
}

/* Plays the plain move m of the side to move on the board only, tests whether the royal piece
 * of `side` stands attacked, and restores the board. */
static inline bool royal_attacked_after(Position *pos, Move m, Side side)
{
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    Side us = pos->side;
    Piece pc = pos->board[from], cap = pos->board[to];
    Point royal = pos->royal[us];
    pos->board[to] = pc;
    pos->board[from] = XQ_EMPTY;
    if (royal == from)
        pos->royal[us] = to;
    bool attacked = pos_royal_attacked(pos, side);
    pos->royal[us] = royal;
    pos->board[from] = pc;
    pos->board[to] = cap;
    return attacked;
}

bool pos_gives_check(Position *pos, Move mv)
{
    const Variant *v = pos->v;
    Side them = XQ_OTHER(pos->side);
    Point k = pos->royal[them];
    /* The royal piece stands safe now (variant_move_may_check). */
    if (!v->modules && k != XQ_NO_POINT &&
        !variant_move_may_check(v, pos->side, XQ_PIECE_KIND(pos->board[XQ_MOVE_FROM(mv)]),
                                XQ_MOVE_FROM(mv), XQ_MOVE_TO(mv), k))
        return false;
    return royal_attacked_after(pos, mv, them);
}

static inline bool plain_is_legal(Position *pos, Move m);

bool pos_is_legal(Position *pos, Move m)
{
    if (XQ_MOVE_FLAGS(m) || pos->v->modules)
        return module_is_legal(pos, m);
    return plain_is_legal(pos, m);
}

bool pos_plain_move_is_legal(Position *pos, Move m)
{
    return plain_is_legal(pos, m);
}

/* Moves that touch no danger point of a royal piece not in check cannot expose it. */
static inline bool needs_check(const PointSet *danger, Point royal, Move m)
{
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    return from == royal || pointset_has(danger, from) || pointset_has(danger, to);
}

/* The mover's royal piece is safe after the plain move (always so without one; without a test
 * when it is not in check and the move touches none of its danger points). */
static inline bool plain_is_legal(Position *pos, Move m)
{
    Point royal = pos->royal[pos->side];
    if (royal == XQ_NO_POINT)
        return true;
    if (!pos->in_check && !needs_check(&pos->v->danger[pos->side][royal], royal, m))
        return true;
    return !royal_attacked_after(pos, m, pos->side);
}

int pos_generate_legal(Position *pos, MoveList *list)
{
    if (pos->v->modules)
        return module_generate_legal(pos, list);
    Side us = pos->side;
    Point royal = pos->royal[us];
    if (royal == XQ_NO_POINT)
        return pos_generate_pseudo(pos, list);
    /* Filter while walking the tables (not from a pseudo-legal list), so a position with many
     * illegal pseudo-moves, e.g. in check, cannot push legal ones past the list's end. */
    const PointSet *danger = &pos->v->danger[us][royal];
    bool in_check = pos->in_check;
    int n = 0;
#define ADD_LEGAL(m)                                                                             \
    do {                                                                                         \
        Move mm_ = (m);                                                                          \
        if (((!in_check && !needs_check(danger, royal, mm_)) || plain_is_legal(pos, mm_)) &&      \
            n < XQ_MAX_MOVES)                                                                    \
            list->moves[n++] = mm_;                                                              \
    } while (0)
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        XQ_FOR_PIECE_MOVES(pos, from, ADD_LEGAL);
    }
#undef ADD_LEGAL
    list->count = n;
    return n;
}

int pos_count_legal(Position *pos)
{
    if (pos->v->modules)
        return module_count_legal(pos);
    Side us = pos->side;
    Point royal = pos->royal[us];
    int n = 0;
    if (royal == XQ_NO_POINT) {
        MoveList pseudo;
        return pos_generate_pseudo(pos, &pseudo);
    }
    const PointSet *danger = &pos->v->danger[us][royal];
    bool in_check = pos->in_check;
#define COUNT_MOVE(m)                                                                            \
    do {                                                                                         \
        Move mm_ = (m);                                                                          \
        if ((!in_check && !needs_check(danger, royal, mm_)) || plain_is_legal(pos, mm_))      \
            n++;                                                                                 \
    } while (0)
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        XQ_FOR_PIECE_MOVES(pos, from, COUNT_MOVE);
    }
#undef COUNT_MOVE
    return n;
}

bool pos_move_is_legal(Position *pos, Move m)
{
    MoveList list;
    pos_generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

bool pos_piece_attacks(Position *pos, Point from, Point to)
{
    Piece pc = pos->board[from];
    if (!pc)
        return false;
    bool hit = false;
    /* Pretend an enemy of the same kind stands on `to` (a protector attacks its own piece). */
    Position *mut = pos;
    Piece saved = mut->board[to];
    Piece target = saved && XQ_PIECE_SIDE(saved) != XQ_PIECE_SIDE(pc)
                       ? saved
                       : XQ_PIECE(XQ_OTHER(XQ_PIECE_SIDE(pc)), XQ_PIECE_KIND(saved ? saved : pc));
    mut->board[to] = target;
#define HIT(m) (hit |= XQ_MOVE_TO(m) == to)
    if (pos->v->modules)
        XQ_FOR_PIECE_MOVES_T(pos, from, module_table(pos, XQ_PIECE_KIND(pc), XQ_PIECE_SIDE(pc), from),
                             HIT);
    else
        XQ_FOR_PIECE_MOVES(pos, from, HIT);
#undef HIT
    mut->board[to] = saved;
    return hit;
}

int pos_attackers(Position *pos, Point p, Side by, Point *from, int max)
{
    int n = 0;
    for (int i = 0; i < pos->count[by]; i++) {
        Point q = pos->list[by][i];
        if (q != p && pos_piece_attacks(pos, q, p)) {
            if (from && n < max)
                from[n] = q;
            n++;
        }
    }
    return n;
}
