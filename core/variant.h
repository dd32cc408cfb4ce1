/* variant.h - a rule set loaded from a variant file: geometry, zones, piece kinds compiled into
 * per (kind, side, point) move tables, start position and rule options. */
#ifndef XQ_VARIANT_H
#define XQ_VARIANT_H

#include "types.h"

/* A bit set over point ids. */
typedef struct PointSet {
    uint64_t w[4];
} PointSet;

static inline bool pointset_has(const PointSet *s, Point p) { return (s->w[p >> 6] >> (p & 63)) & 1u; }
static inline void pointset_add(PointSet *s, Point p) { s->w[p >> 6] |= (uint64_t)1 << (p & 63); }

/* Atom modes. */
enum { ATOM_MOVE = 1, ATOM_CAPTURE = 2 };

/* One step or leap from a point: destination plus up to two blocking points (XQ_NO_POINT if
 * unused). `targets` is the mask of kinds it may capture. */
typedef struct LeapEntry {
    Point to;
    Point block[2];
    uint8_t mode;      /* ATOM_MOVE | ATOM_CAPTURE */
    uint16_t targets;  /* kinds this entry may capture (bit per kind) */
} LeapEntry;

/* Ray flags. */
enum {
    RAY_SLIDE_MOVE = 1,    /* land on empty points before the first piece */
    RAY_SLIDE_CAPTURE = 2, /* capture the first piece */
    RAY_HOP_MOVE = 4,      /* land on empty points after exactly `screens` pieces */
    RAY_HOP_CAPTURE = 8,   /* capture the piece after exactly `screens` pieces */
    RAY_HOP_NEXT = 16,     /* the hop part lands only on the point right after the screens
                            * (`land=next`: a grasshopper) */
};

/* A straight run of points along drawn lines, starting next to the origin. */
typedef struct Ray {
    uint16_t first;     /* index into Variant.ray_points */
    uint8_t len;        /* points on the ray (hop part may use them all) */
    uint8_t slide_max;  /* slide part uses at most this many points */
    uint8_t flags;      /* RAY_* */
    uint8_t screens;    /* pieces to jump for hop parts (>= 1) */
    uint8_t dir;        /* Direction */
    uint16_t targets;   /* kinds it may capture */
} Ray;

/* Move table slice for one (kind, side, point). */
typedef struct MoveTable {
    uint16_t leap_first, leap_count;
    uint16_t ray_first, ray_count;
} MoveTable;

/* Reverse attack entry: a piece of a kind in `kinds` standing on `from` captures the royal
 * piece on the table's point unless a blocking point is occupied. */
typedef struct ReverseLeap {
    Point from;
    Point block[2];
    uint16_t kinds;
} ReverseLeap;

typedef struct ReverseTable {
    uint16_t first, count;
} ReverseTable;

typedef struct PieceKind {
    char name[XQ_NAME_MAX];
    char letter;          /* upper case; Black uses lower case */
    char alias;           /* another letter accepted on input (0 if none) */
    bool royal;           /* its loss (or its being attacked) decides the game */
    double value;         /* default material value in pawn units (evaluation seed) */
    int stand_zone;       /* zone it may stand in, -1 = anywhere */
} PieceKind;

typedef enum { FLYING_NONE, FLYING_FILE, FLYING_LINES } FlyingGeneral;
typedef enum { REP_NONE, REP_CHECK_ONLY, REP_ASIAN, REP_CHINESE } RepetitionRule;

typedef struct RuleOptions {
    FlyingGeneral flying_general;
    bool stalemate_loses;      /* stalemate is a loss for the side to move */
    int move_limit;            /* plies without capture before a draw (0 = none) */
    int check_cap;             /* checks per side counted within the window (0 = no cap) */
    RepetitionRule repetition;
    int repetition_count;      /* occurrence that triggers the verdict (3) */
} RuleOptions;

/* Rule modules (core/module.h): one bit each, switched on by the module's section. */
enum { MOD_RESERVE = 1, MOD_CUBE = 2, MOD_MULTIMOVE = 4 };
enum { MOD_CAMP = 0x100, MOD_DISPLACE = 0x200, MOD_PROMOTE = 0x400 };
enum { MOD_HIDDEN = 0x800 };

/* [reserve] (mod_reserve.c): captured pieces of `kinds` go to their owner's reserve; a piece of
 * `exchange_kinds` standing in `zone` may, as a whole move, be exchanged for one of them. */
typedef struct ReserveOptions {
    uint16_t kinds;
    uint16_t exchange_kinds;
    int zone;
} ReserveOptions;

/* [cube] (mod_cube.c): each royal piece is a cube whose faces are piece kinds. */
typedef struct CubeOptions {
    int8_t opposite[XQ_MAX_KINDS]; /* kind on the opposite face, -1 if not a face */
    uint16_t faces;                /* kinds that are faces */
    int start_face;                /* kind face up at the start of the game */
    bool roll_twice;               /* may a side roll on two consecutive own turns */
    bool face_flying;              /* the general-face flying attack of docs/variants/cube.md */
} CubeOptions;

/* [multimove] (mod_multimove.c): `side` moves either one piece not in `double_kinds`, or two
 * sub-moves of pieces in `double_kinds`. */
typedef struct MultiMoveOptions {
    Side side;
    uint16_t double_kinds;
    bool second_optional;
    bool no_return;       /* a piece's second sub-move may not bring it back where it started */
} MultiMoveOptions;

/* [camp] (mod_camp.c): an off-grid camp per side holding up to `capacity` own pieces of the
 * enterable kinds (at most 4: the camp byte keeps 2 bits of count per kind). A piece standing in
 * `home` that could cross out of it by one of the `enter` gates may move into the camp; a camp
 * piece lands on an empty point of `exit`. */
enum { CAMP_MAX_KINDS = 4, CAMP_MAX_GATES = 32 };
typedef enum { CAMP_GATE_LEAP, CAMP_GATE_SLIDE, CAMP_GATE_STEP } CampGateKind;
typedef struct CampGate {
    int8_t kind;                 /* piece kind */
    uint8_t how;                 /* CampGateKind; slides and steps go forward */
    int8_t dx, dy;               /* leap offset (dy forward) */
    uint8_t nblocks;
    int8_t bx[2], by[2];         /* leap blocking points */
} CampGate;
typedef struct CampOptions {
    int nkinds;
    int8_t kinds[CAMP_MAX_KINDS]; /* enterable kinds, in the order of their camp-byte bits */
    int capacity;
    int home_zone, exit_zone;
    bool facing_check;            /* facing generals are check by the side that made it */
    int ngates;
    CampGate gates[CAMP_MAX_GATES];
} CampOptions;

/* [displacement] (mod_displace.c): per kind, the pattern by which it lands on an enemy piece X,
 * which the mover then moves by one or two of X's own non-capturing moves. */
typedef enum { DISPLACE_NONE, DISPLACE_RUN, DISPLACE_SCREENS, DISPLACE_LEAP, DISPLACE_DOUBLE } DisplaceHow;
typedef struct DisplacePattern {
    uint8_t how;                  /* DisplaceHow */
    uint8_t count;                /* run: adjacent pieces jumped; screens: pieces jumped */
    uint8_t nleaps;
    int8_t dx[8], dy[8];          /* leap images (dy forward) */
    uint8_t nblocks, nover;
    int8_t bx[8][2], by[8][2];    /* per image: points that must be empty */
    int8_t ox[8], oy[8];          /* per image: a point that must be occupied */
    int within_zone;              /* leap: both ends in this zone (-1: any) */
    bool undrawn;                 /* leap: no drawn line joins the two ends */
} DisplacePattern;
typedef struct DisplaceOptions {
    DisplacePattern kind[XQ_MAX_KINDS];
    int max_moves;                /* moves of the displaced piece: 1 or 2 */
} DisplaceOptions;

/* [promotion] (mod_promote.c): a piece of `kinds` that lands in `zone` becomes kind `to`. */
typedef struct PromoteOptions {
    uint16_t kinds;
    int zone;
    int to;
} PromoteOptions;

/* [hidden] (mod_hidden.c, core/hidden.h): face-down pieces (docs/variants/jieqi.md to banqi-hp.md).
 * jieqi: each side's face-down pieces move as the kind native to their point and reveal on moving;
 * folk: the same with one shared pool and colours assigned by South's first reveal; banqi:
 * face-down pieces never move, a turn may flip one. */
typedef enum { HIDDEN_JIEQI, HIDDEN_FOLK, HIDDEN_BANQI } HiddenMode;
typedef enum { KNOW_NOBODY, KNOW_CAPTURER, KNOW_BOTH } CaptureKnowledge;
typedef struct HiddenOptions {
    uint8_t mode;                  /* HiddenMode */
    uint8_t knowledge;             /* CaptureKnowledge: who sees a captured face-down piece */
    int8_t hidden_kind;            /* kind index of the face-down piece (letter X) */
    int8_t general_kind;           /* folk: the kind whose capture wins (-1: none) */
    int8_t native[XQ_MAX_POINTS];  /* kind a face-down piece on the point moves as (-1: none) */
    bool resets_limit;             /* a reveal resets the natural-limit count */
    bool chase_loses;              /* banqi-hp: perpetual chase loses */
    uint16_t reveal_capturers;     /* kinds capturing face-down pieces by a hop (banqi-hp cannon) */
    uint16_t rank_kinds;           /* kinds moving by their [powered] table (banqi cannon = rank) */
    int face_up_start;             /* pieces dealt face up before the first move (banqi-hp) */
    int hp;                        /* hit points per side, 0 = none */
    uint8_t hp_cost[XQ_MAX_KINDS]; /* hit points a lost piece of the kind costs its owner */
} HiddenOptions;

typedef struct Zone {
    char name[XQ_NAME_MAX];
    PointSet points[2];        /* per side: Red as declared, Black mirrored across the river */
} Zone;

typedef struct Variant {
    char name[XQ_NAME_MAX];
    char description[160];
    char path[512];            /* file it was loaded from */
    char *text;                /* full text of the variant file (owned) */

    /* Geometry. */
    int files, ranks;
    int npoints;
    int8_t point_file[XQ_MAX_POINTS], point_rank[XQ_MAX_POINTS];
    Point point_at[XQ_MAX_RANKS][XQ_MAX_FILES]; /* XQ_NO_POINT where no point */
    Point neighbor[XQ_MAX_POINTS][DIR_COUNT];   /* along drawn lines */
    Point mirror[XQ_MAX_POINTS];                /* rank r -> ranks - 1 - r */

    int nzones;
    Zone zones[XQ_MAX_ZONES];

    int nkinds;
    PieceKind kinds[XQ_MAX_KINDS];
    uint16_t royal_mask;       /* kinds that are royal */

    /* Compiled tables. */
    MoveTable table[XQ_MAX_KINDS][2][XQ_MAX_POINTS];
    LeapEntry *leaps;   int nleaps;
    Ray *rays;          int nrays;
    Point *ray_points;  int nray_points;
    /* Royal attack detection: reverse leaps per (attacked side's royal point) and slide / hop
     * capture reach per (kind, side, point, direction), 0 = none. */
    ReverseTable reverse[2][XQ_MAX_POINTS];     /* indexed by attacking side */
    ReverseLeap *reverse_leaps; int nreverse;
    uint8_t slide_reach[XQ_MAX_KINDS][2][XQ_MAX_POINTS][DIR_COUNT];
    uint8_t hop_reach[XQ_MAX_KINDS][2][XQ_MAX_POINTS][DIR_COUNT];
    uint8_t hop_next_reach[XQ_MAX_KINDS][2][XQ_MAX_POINTS][DIR_COUNT]; /* land=next hops */
    uint16_t slider_kinds[2], hopper_kinds[2]; /* kinds with any royal-attacking slide / hop */
    uint8_t attack_dirs[2];    /* directions, seen from the target, that sliders / hoppers use */
    /* Points a piece of (kind, side) on a point captures on when nothing blocks it (leap
     * destinations, every point of its capturing rays): a superset that lets a search for the
     * attackers of one point (see()) walk only the pieces that may reach it. */
    PointSet capture_reach[XQ_MAX_KINDS][2][XQ_MAX_POINTS];
    /* Points whose change of occupancy can alter whether a royal piece on a point is
     * attacked (all points on its lines, all blocking points of leaps onto it). */
    PointSet danger[2][XQ_MAX_POINTS];          /* indexed by the royal's side */

    RuleOptions rules;
    char start_fen[256];
    /* The set of pieces: per colour and kind, the pieces of the start position (face up, in the
     * unrevealed pools, held off the board). A FEN of a rule set with pools or holdings may not
     * claim more (core/fen.c). */
    uint8_t piece_set[2][XQ_MAX_KINDS];
    bool piece_set_known;

    /* Rule modules (core/module.h). `powered` holds a second table per (kind, side, point) for
     * kinds with a [powered NAME] section (the copy of the plain table for the others); a rule
     * module decides when a side's kind uses it (mod_cube: the top face). NULL if unused. */
    uint32_t modules;
    ReserveOptions reserve;
    CubeOptions cube;
    MultiMoveOptions multi;
    CampOptions camp;
    DisplaceOptions displace;
    PromoteOptions promote;
    HiddenOptions hidden;
    MoveTable (*powered)[2][XQ_MAX_POINTS];
    uint16_t powered_kinds;

    uint64_t zobrist_piece[32][XQ_MAX_POINTS];
    uint64_t zobrist_side;
    uint64_t zobrist_module[XQ_MOD_STATE][256]; /* per state byte and value; value 0 hashes 0 */

    /* Design warnings found while compiling (the file loads, but a line does nothing): one
     * "FILE:LINE: what" a line, for `xqlab variants --check`. */
    char warnings[1024];
} Variant;

/* Error detail for loaders and parsers: file, line (0 if none) and message. */
typedef struct XqError {
    char file[512];
    int line;
    char message[XQ_MSG_MAX];
} XqError;

/* Formats an error as "file:line: message" into buf. */
void xq_error_format(const XqError *err, char *buf, size_t size);

/* Loads a variant from an INI file. Returns a new variant (free with variant_free) or NULL with
 * *err filled. */
Variant *variant_load_file(const char *path, XqError *err);

/* Loads a variant from INI text; `name` labels errors. */
Variant *variant_load_text(const char *text, const char *name, XqError *err);

/* Frees a variant (NULL allowed). */
void variant_free(Variant *v);

/* Point helpers. */
Point variant_point(const Variant *v, int file, int rank);
/* Writes a point's name ("e0", "j10") into buf (at least 8 bytes). */
void variant_point_name(const Variant *v, Point p, char *buf);
/* Parses a point name at *s, advancing it. Returns XQ_NO_POINT if none. */
Point variant_parse_point(const Variant *v, const char **s);

int variant_find_kind_by_letter(const Variant *v, char letter);
int variant_find_zone(const Variant *v, const char *name);
static inline bool variant_in_zone(const Variant *v, int zone, Side side, Point p)
{
    return zone < 0 || pointset_has(&v->zones[zone].points[side], p);
}

/* Whether a plain move from -> to by a piece of `kind` (-1: none known) of side `mover` may
 * attack the royal piece of the other side on k, which stood safe before it: only a move through
 * one of k's danger points (opening or closing a line, unblocking a leap) or the moved piece
 * itself, from its destination, can. Exact as a filter: false means no attack. */
static inline bool variant_move_may_check(const Variant *v, Side mover, int kind, Point from,
                                          Point to, Point k)
{
    const PointSet *danger = &v->danger[XQ_OTHER(mover)][k];
    return kind < 0 || pointset_has(danger, from) || pointset_has(danger, to) ||
           pointset_has(&v->capture_reach[kind][mover][to], k);
}

#endif
