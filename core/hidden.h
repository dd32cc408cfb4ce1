/* hidden.h - face-down pieces (mod_hidden.c; docs/variants.md [hidden]):
 * public pools, the true deal a game holds, chance outcomes for the search and the game status.
 *
 * Encoding. A face-down piece is a piece of the variant's hidden kind (letter X) on the board.
 * Its side bit is the seat that may move it: jieqi its owner, jieqi-folk the seat of the half it
 * stands on, banqi seat 0 (nobody moves it; any seat may flip it). Seats are the engine's sides:
 * side 0 (RED in types.h) is the first mover, South. In jieqi colours are the seats; in banqi
 * and jieqi-folk a colour is assigned to seat 0 by its first reveal (module byte
 * MS_HIDDEN_COLOUR), and a face-up piece's side bit is its owner's seat. Before the assignment
 * the face-up pieces of banqi-hp carry their colour as side bit (red = 0).
 *
 * Pools. The position holds, per colour and kind, the identities not yet seen (module bytes
 * MS_HIDDEN_POOL, hashed, in the FEN field [hidden:...]). A face-down piece captured unseen keeps
 * its identity in the pool (docs/variants.md): pool size minus face-down pieces = pieces
 * lost unseen. Every identity drawn at a reveal is equally likely among the pool's members.
 *
 * Chance. A reveal is a move with flag XQ_FLAG_REVEAL; the generator emits it with extra = 0
 * (undrawn). The game fills the identity from its deal (hidden_resolve), the search from the
 * pools (hidden_outcomes); only drawn moves may be played. Identity codes are
 * (colour << 4) | (kind + 1). In a drawn move `extra` is: jieqi, (mover kind + 1) | (captured
 * kind + 1) << 4 (colours follow from the sides); jieqi-folk and banqi, the identity code of the
 * one piece turned up (the mover, the flipped piece, or, with XQ_REVEAL_TARGET, the face-down
 * piece a banqi-hp cannon takes). */
#ifndef XQ_HIDDEN_H
#define XQ_HIDDEN_H

#include "rng.h"
#include "status.h"

enum { HIDDEN_POOL_KINDS = 7, HIDDEN_MAX_OUTCOMES = 64 };
/* Bit of `extra` (folk, banqi): the identity is the captured piece's, not the mover's. */
enum { XQ_REVEAL_TARGET = 0x80 };

/* The true identities of a game's face-down pieces: code per point, 0 where none. */
typedef struct HiddenDeal {
    uint8_t id[XQ_MAX_POINTS];
} HiddenDeal;

static inline uint8_t hidden_code(Side colour, int kind) { return (uint8_t)((colour << 4) | (kind + 1)); }
static inline Side hidden_code_colour(uint8_t code) { return (Side)((code >> 4) & 1); }
static inline int hidden_code_kind(uint8_t code) { return (code & 15) - 1; }

/* capture_knowledge = capturer (docs/variants/jieqi.md): what each seat saw of the face-down pieces
 * it captured. seen[seat][kind] counts identities of the other seat's colour (jieqi: colours are
 * seats). The public pools keep those identities (nobody else saw them), so the seat knows the
 * opponent's face-down pieces exactly: the opponent's pool minus what it saw. */
typedef struct HiddenKnowledge {
    uint8_t seen[2][HIDDEN_POOL_KINDS];
} HiddenKnowledge;

/* A search view (hidden_view_enter): the module bytes and key change it made, for the undo. */
typedef struct HiddenView {
    bool on;
    uint64_t delta;             /* key change, also applied to the history keys */
    uint8_t module[XQ_MOD_STATE];
} HiddenView;

/* True if the variant has face-down pieces. */
static inline bool hidden_on(const Variant *v) { return (v->modules & MOD_HIDDEN) != 0; }
/* True if the seats know different things (jieqi, capture_knowledge = capturer): each seat
 * then needs a search tree of its own, built from its own view. */
static inline bool hidden_private(const Variant *v)
{
    return hidden_on(v) && v->hidden.mode == HIDDEN_JIEQI && v->hidden.knowledge == KNOW_CAPTURER;
}
/* True if the piece is face down. */
static inline bool hidden_is_down(const Variant *v, Piece pc)
{
    return pc && XQ_PIECE_KIND(pc) == v->hidden.hidden_kind;
}

/* Unrevealed identities of (colour, kind); of a colour; face-down pieces on the board. */
int hidden_pool(const Position *pos, Side colour, int kind);
int hidden_pool_total(const Position *pos, Side colour);
int hidden_down_count(const Position *pos);
/* Checks that every face-down piece has an identity left in its pool (per colour in jieqi,
 * shared otherwise); the FEN reader calls it with or without a [hidden:] field. Returns 0, or -1
 * with *err naming the pool. */
int hidden_check_pools(const Position *pos, XqError *err);
/* Colour of a seat: RED / BLACK, or -1 while unassigned (jieqi: the seat itself). */
int hidden_seat_colour(const Position *pos, Side seat);
/* Hit points of a seat (banqi-hp), 0 if the rule set has none. */
int hidden_hp(const Position *pos, Side seat);

/* Deals identities to the face-down pieces at random from the pools (per side in jieqi, shared
 * otherwise). Deterministic for a given rng state. */
void hidden_deal(const Position *pos, Rng *rng, HiddenDeal *d);
/* Start-of-game step (banqi-hp, docs/variants/banqi-hp.md): turns v->hidden.face_up_start face-down
 * pieces, chosen with rng, face up with their dealt identities. Not a move: the position is
 * re-keyed. */
void hidden_show_start(Position *pos, const HiddenDeal *d, Rng *rng);

/* Turns a start position (colours unassigned) and its deal into the seat-swapped start of the
 * duplicate format (--paired-deals): the board turned half a turn with every colour exchanged
 * (the face-down pieces keep banqi's seat 0), the pools and hit points exchanged by colour. Each
 * seat then faces what the other seat faced in the original deal. */
void hidden_swap_seats(Position *pos, HiddenDeal *d);

/* True if m is a reveal whose identity is not drawn yet. */
bool hidden_is_chance(const Position *pos, Move m);
/* The drawn versions of the undrawn reveal m with their probabilities from the public pools;
 * returns their number (at most HIDDEN_MAX_OUTCOMES). */
int hidden_outcomes(const Position *pos, Move m, Move *out, double *prob);
/* m with the identities of the deal filled in (m itself if not a chance move). */
Move hidden_resolve(const Position *pos, Move m, const HiddenDeal *d);

/* Records, before the game plays m, what the mover sees if m captures a face-down piece under
 * capture_knowledge = capturer (the identity comes from the deal). No-op otherwise. */
void hidden_knowledge_note(const Position *pos, Move m, const HiddenDeal *d, HiddenKnowledge *k);

/* Turns the game position into the side to move's view for a search (capture_knowledge =
 * capturer; a no-op with view->on false otherwise): the opponent's pools lose what the side saw
 * (k may be NULL: nothing seen yet), and the side's own captures of face-down pieces become
 * chance events that show the identity (as with `both`) while the opponent's stay unseen. The
 * key and every history key change by the same amount, so repetitions are still found.
 * hidden_view_leave restores the position exactly. Returns -1 (position unchanged) if k claims
 * more than the pools hold. */
int hidden_view_enter(Position *pos, const HiddenKnowledge *k, HiddenView *view);
void hidden_view_leave(Position *pos, const HiddenView *view);
/* The game's version of a move generated in a view of the same position: the side's capture of
 * a face-down piece is a plain capture in the game (its identity is private, not part of the
 * move). */
Move hidden_view_game_move(const Position *pos, Move m);

/* True if the legal move `gen` (as the generator gives it: a reveal undrawn) is the recorded
 * move m: the same move, or that reveal with the identity the deal gives it — without a deal
 * (format-1 datasets), with any identity its pools still hold. For replaying stored games. */
bool hidden_same_move(const Position *pos, Move gen, Move m, const HiddenDeal *deal);

/* Leaves at `depth` plies where each drawn identity of a reveal counts as its own move. */
uint64_t hidden_perft(Position *pos, int depth);

/* Parses a move with its reveal suffix ("a0a1R", "c3c3n", "c3c3?", "b1b4*k"); '?' (or no
 * suffix) gives the undrawn move. XQ_MOVE_NONE with a reason if it is not legal here. */
Move hidden_parse_move(Position *pos, const char *text, char *why, size_t why_size);

/* Game end by the hidden-piece rules (status.c calls it first): hit points, a captured folk
 * general, a banqi side without pieces, the banqi-hp perpetual chase. RESULT_NONE otherwise. */
GameStatus hidden_game_status(Position *pos, int legal_moves);

#endif
