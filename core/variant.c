/* variant.c - loads a variant file and compiles its piece definitions into move tables. */
#include "variant.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "ini.h"
#include "module.h"
#include "position.h"

/* Growable arrays used while compiling. */
typedef struct Builder {
    LeapEntry *leaps; int nleaps, capleaps;
    Ray *rays; int nrays, caprays;
    Point *pts; int npts, cappts;
} Builder;

/* An atom as declared, before expansion per side and point. */
typedef enum { ATOM_STEP, ATOM_SLIDE, ATOM_HOP, ATOM_LEAP } AtomKind;
typedef struct Atom {
    AtomKind kind;
    uint8_t dirs;              /* relative direction mask (step / slide / hop) */
    int nleaps;                /* leap offsets after symmetry */
    int8_t dx[8], dy[8];
    int nblocks;
    int8_t bx[8][2], by[8][2]; /* block offsets per expanded leap */
    uint8_t mode;
    int from_zone, to_zone, via_zone;
    int max, screens;
    bool land_next;            /* hop: lands only on the point right behind the screens */
    uint16_t targets;
    char target_letters[XQ_MAX_KINDS + 1];
    int line;
} Atom;

enum { MAX_ATOMS = 8, PIECE_VALUE_MAX = 1000 };

typedef struct KindDef {
    int natoms;
    Atom atoms[MAX_ATOMS];
    char stand_name[XQ_NAME_MAX];
    int line;
} KindDef;

void xq_error_format(const XqError *err, char *buf, size_t size)
{
    if (err->line > 0)
        snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->message);
    else
        snprintf(buf, size, "%s: %s", err->file, err->message);
}

static int fail(XqError *err, const char *name, int line, const char *fmt, const char *arg)
{
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", name);
        err->line = line;
        snprintf(err->message, sizeof err->message, fmt, arg ? arg : "");
    }
    return -1;
}

Point variant_point(const Variant *v, int file, int rank)
{
    if (file < 0 || rank < 0 || file >= v->files || rank >= v->ranks)
        return XQ_NO_POINT;
    return v->point_at[rank][file];
}

void variant_point_name(const Variant *v, Point p, char *buf)
{
    if (p == XQ_NO_POINT || p >= v->npoints) {
        strcpy(buf, "--");
        return;
    }
    snprintf(buf, 8, "%c%d", 'a' + v->point_file[p], v->point_rank[p]);
}

/* Parses "e0" / "j10" into (file, rank) within limits; advances *s. */
static bool parse_coord(const char **s, int *file, int *rank)
{
    const char *c = *s;
    if (!isalpha((unsigned char)*c))
        return false;
    int f = tolower((unsigned char)*c) - 'a';
    c++;
    if (!isdigit((unsigned char)*c))
        return false;
    int r = *c++ - '0';
    if (isdigit((unsigned char)*c) && r > 0) {
        int r2 = r * 10 + (*c - '0');
        if (r2 < XQ_MAX_RANKS) {
            r = r2;
            c++;
        }
    }
    if (f >= XQ_MAX_FILES || r >= XQ_MAX_RANKS)
        return false;
    *file = f;
    *rank = r;
    *s = c;
    return true;
}

Point variant_parse_point(const Variant *v, const char **s)
{
    const char *c = *s;
    int f, r;
    if (!parse_coord(&c, &f, &r))
        return XQ_NO_POINT;
    Point p = variant_point(v, f, r);
    if (p != XQ_NO_POINT)
        *s = c;
    return p;
}

int variant_find_kind_by_letter(const Variant *v, char letter)
{
    char up = (char)toupper((unsigned char)letter);
    for (int k = 0; k < v->nkinds; k++)
        if (v->kinds[k].letter == up || (v->kinds[k].alias && v->kinds[k].alias == up))
            return k;
    return -1;
}

int variant_find_zone(const Variant *v, const char *name)
{
    for (int z = 0; z < v->nzones; z++)
        if (strcmp(v->zones[z].name, name) == 0)
            return z;
    return -1;
}

/* ---- geometry ---------------------------------------------------------------------------- */

static const int DIR_DX[DIR_COUNT] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DIR_DY[DIR_COUNT] = {1, 1, 0, -1, -1, -1, 0, 1};

static int direction_of(int dx, int dy)
{
    for (int d = 0; d < DIR_COUNT; d++)
        if (DIR_DX[d] == dx && DIR_DY[d] == dy)
            return d;
    return -1;
}

static Point add_point(Variant *v, int f, int r)
{
    if (v->point_at[r][f] != XQ_NO_POINT)
        return v->point_at[r][f];
    if (v->npoints >= XQ_MAX_POINTS - 1)
        return XQ_NO_POINT;
    Point p = (Point)v->npoints++;
    v->point_at[r][f] = p;
    v->point_file[p] = (int8_t)f;
    v->point_rank[p] = (int8_t)r;
    return p;
}

/* Splits a list value at blanks and commas into tokens (modifies buf). */
static int split_tokens(char *buf, char **tok, int max, const char *seps)
{
    int n = 0;
    for (char *s = strtok(buf, seps); s && n < max; s = strtok(NULL, seps))
        tok[n++] = s;
    return n;
}

/* Parses "a0" or "a0-i9" into two corners. */
static bool parse_range(const char *s, int *f1, int *r1, int *f2, int *r2)
{
    if (!parse_coord(&s, f1, r1))
        return false;
    if (*s == '\0') {
        *f2 = *f1;
        *r2 = *r1;
        return true;
    }
    if (*s != '-')
        return false;
    s++;
    if (!parse_coord(&s, f2, r2))
        return false;
    return *s == '\0';
}

static int load_board(Variant *v, const IniFile *ini, const char *name, XqError *err)
{
    int files = 0, ranks = 0, line = 0;
    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strcmp(e->section, "board") != 0)
            continue;
        if (!line)
            line = e->line;
        if (strcmp(e->key, "files") == 0)
            files = atoi(e->value);
        else if (strcmp(e->key, "ranks") == 0)
            ranks = atoi(e->value);
    }
    if (!line)
        return fail(err, name, 0, "missing [board] section%s", NULL);
    if (files < 1 || files > XQ_MAX_FILES || ranks < 1 || ranks > XQ_MAX_RANKS)
        return fail(err, name, line, "[board] needs files and ranks between 1 and 16%s", NULL);
    v->files = files;
    v->ranks = ranks;
    memset(v->point_at, XQ_NO_POINT, sizeof v->point_at);
    memset(v->neighbor, XQ_NO_POINT, sizeof v->neighbor);

    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strcmp(e->section, "board") != 0)
            continue;
        bool grid = strcmp(e->key, "grid") == 0, lines = strcmp(e->key, "lines") == 0,
             points = strcmp(e->key, "points") == 0;
        if (!grid && !lines && !points) {
            if (strcmp(e->key, "files") != 0 && strcmp(e->key, "ranks") != 0)
                return fail(err, name, e->line, "unknown key '%s' in [board] (expected files, "
                            "ranks, grid, lines or points)", e->key);
            continue;
        }
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", e->value);
        char *tok[128];
        int n = split_tokens(buf, tok, 128, " \t,");
        if (n == 0)
            return fail(err, name, e->line, "'%s' needs at least one point or range", e->key);
        for (int t = 0; t < n; t++) {
            int f1, r1, f2, r2;
            if (!parse_range(tok[t], &f1, &r1, &f2, &r2) || f1 >= files || f2 >= files ||
                r1 >= ranks || r2 >= ranks)
                return fail(err, name, e->line, "'%s' is not a point or range on the board "
                            "(expected e.g. a0 or a0-i9)", tok[t]);
            if (grid || points) {
                int fl = f1 < f2 ? f1 : f2, fh = f1 < f2 ? f2 : f1;
                int rl = r1 < r2 ? r1 : r2, rh = r1 < r2 ? r2 : r1;
                for (int r = rl; r <= rh; r++)
                    for (int f = fl; f <= fh; f++)
                        if (add_point(v, f, r) == XQ_NO_POINT)
                            return fail(err, name, e->line, "too many points (at most 254)%s", NULL);
                if (grid) {
                    for (int r = rl; r <= rh; r++)
                        for (int f = fl; f <= fh; f++) {
                            Point p = v->point_at[r][f];
                            if (f < fh) {
                                v->neighbor[p][DIR_E] = v->point_at[r][f + 1];
                                v->neighbor[v->point_at[r][f + 1]][DIR_W] = p;
                            }
                            if (r < rh) {
                                v->neighbor[p][DIR_N] = v->point_at[r + 1][f];
                                v->neighbor[v->point_at[r + 1][f]][DIR_S] = p;
                            }
                        }
                }
            } else { /* a straight drawn line */
                int dx = (f2 > f1) - (f2 < f1), dy = (r2 > r1) - (r2 < r1);
                int adx = abs(f2 - f1), ady = abs(r2 - r1);
                if ((adx && ady && adx != ady) || (!adx && !ady))
                    return fail(err, name, e->line, "line '%s' is neither orthogonal nor "
                                "diagonal (expected e.g. d0-f2)", tok[t]);
                int d = direction_of(dx, dy);
                int f = f1, r = r1;
                Point prev = add_point(v, f, r);
                while (f != f2 || r != r2) {
                    f += dx;
                    r += dy;
                    Point p = add_point(v, f, r);
                    if (p == XQ_NO_POINT || prev == XQ_NO_POINT)
                        return fail(err, name, e->line, "too many points (at most 254)%s", NULL);
                    v->neighbor[prev][d] = p;
                    v->neighbor[p][XQ_DIR_OPPOSITE(d)] = prev;
                    prev = p;
                }
            }
        }
    }
    if (v->npoints == 0)
        return fail(err, name, line, "[board] declares no points (use grid = a0-i9)%s", NULL);
    for (int p = 0; p < v->npoints; p++)
        v->mirror[p] = variant_point(v, v->point_file[p], v->ranks - 1 - v->point_rank[p]);
    return 0;
}

static int load_zones(Variant *v, const IniFile *ini, const char *name, XqError *err)
{
    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strcmp(e->section, "zones") != 0)
            continue;
        if (v->nzones >= XQ_MAX_ZONES)
            return fail(err, name, e->line, "too many zones (at most 16)%s", NULL);
        if (variant_find_zone(v, e->key) >= 0)
            return fail(err, name, e->line, "zone '%s' declared twice", e->key);
        Zone *z = &v->zones[v->nzones];
        memset(z, 0, sizeof *z);
        snprintf(z->name, sizeof z->name, "%s", e->key);
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", e->value);
        char *tok[128];
        int n = split_tokens(buf, tok, 128, " \t,");
        if (n == 0)
            return fail(err, name, e->line, "zone '%s' is empty (expected points or ranges)", e->key);
        for (int t = 0; t < n; t++) {
            int other = variant_find_zone(v, tok[t]);
            if (other >= 0) { /* union with an earlier zone */
                for (int w = 0; w < 4; w++)
                    z->points[RED].w[w] |= v->zones[other].points[RED].w[w];
                continue;
            }
            int f1, r1, f2, r2;
            if (!parse_range(tok[t], &f1, &r1, &f2, &r2))
                return fail(err, name, e->line, "'%s' is not a point, range or earlier zone", tok[t]);
            int fl = f1 < f2 ? f1 : f2, fh = f1 < f2 ? f2 : f1;
            int rl = r1 < r2 ? r1 : r2, rh = r1 < r2 ? r2 : r1;
            for (int r = rl; r <= rh; r++)
                for (int f = fl; f <= fh; f++) {
                    Point p = variant_point(v, f, r);
                    if (p != XQ_NO_POINT)
                        pointset_add(&z->points[RED], p);
                }
        }
        for (int p = 0; p < v->npoints; p++)
            if (pointset_has(&z->points[RED], (Point)p) && v->mirror[p] != XQ_NO_POINT)
                pointset_add(&z->points[BLACK], v->mirror[p]);
        v->nzones++;
    }
    return 0;
}

/* ---- pieces ------------------------------------------------------------------------------- */

static bool parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "on")) {
        *out = true;
        return true;
    }
    if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "off")) {
        *out = false;
        return true;
    }
    return false;
}

/* Direction names are relative to the side: "forward" (= n) points towards the enemy. */
static int parse_dirs(const char *spec, uint8_t *mask)
{
    static const struct { const char *name; uint8_t mask; } names[] = {
        {"orth", 0x55}, {"diag", 0xaa}, {"all", 0xff}, {"forward", 1 << DIR_N},
        {"backward", 1 << DIR_S}, {"sideways", (1 << DIR_E) | (1 << DIR_W)},
        {"vertical", (1 << DIR_N) | (1 << DIR_S)},
        {"forward-diag", (1 << DIR_NE) | (1 << DIR_NW)},
        {"backward-diag", (1 << DIR_SE) | (1 << DIR_SW)},
        {"n", 1 << DIR_N}, {"ne", 1 << DIR_NE}, {"e", 1 << DIR_E}, {"se", 1 << DIR_SE},
        {"s", 1 << DIR_S}, {"sw", 1 << DIR_SW}, {"w", 1 << DIR_W}, {"nw", 1 << DIR_NW},
    };
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec);
    *mask = 0;
    for (char *s = strtok(buf, "+"); s; s = strtok(NULL, "+")) {
        size_t i;
        for (i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcmp(s, names[i].name) == 0)
                break;
        if (i == sizeof names / sizeof names[0])
            return -1;
        *mask |= names[i].mask;
    }
    return 0;
}

static int parse_offset(const char *s, int *dx, int *dy)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*end != ',')
        return -1;
    long y = strtol(end + 1, &end, 10);
    if (*end != '\0' || x < -15 || x > 15 || y < -15 || y > 15)
        return -1;
    *dx = (int)x;
    *dy = (int)y;
    return 0;
}

/* Parses one atom line such as "leap 1,2 block 0,1" (key = atom kind, value = the rest). */
static int parse_atom(Variant *v, Atom *a, const char *kind, const char *value, const char *name,
                      int line, XqError *err)
{
    memset(a, 0, sizeof *a);
    a->from_zone = a->to_zone = a->via_zone = -1;
    a->mode = ATOM_MOVE | ATOM_CAPTURE;
    a->screens = 1;
    a->max = 255;
    a->targets = 0xffff;
    a->line = line;
    if (!strcmp(kind, "step"))
        a->kind = ATOM_STEP;
    else if (!strcmp(kind, "slide"))
        a->kind = ATOM_SLIDE;
    else if (!strcmp(kind, "hop"))
        a->kind = ATOM_HOP;
    else
        a->kind = ATOM_LEAP;

    char buf[512];
    snprintf(buf, sizeof buf, "%s", value);
    char *tok[32];
    int n = split_tokens(buf, tok, 32, " \t");
    if (n == 0)
        return fail(err, name, line, "'%s' needs directions or an offset", kind);
    int dx = 0, dy = 0, nb = 0, bxs[2], bys[2];
    const char *sym = "all";
    bool moved = false, captured = false;
    if (a->kind == ATOM_LEAP) {
        if (parse_offset(tok[0], &dx, &dy) < 0 || (dx == 0 && dy == 0))
            return fail(err, name, line, "leap offset '%s' is not of the form dx,dy", tok[0]);
    } else if (parse_dirs(tok[0], &a->dirs) < 0) {
        return fail(err, name, line, "unknown direction set '%s' (expected orth, diag, all, "
                    "forward, backward, sideways, vertical, n, ne, ... joined by +)", tok[0]);
    }
    for (int t = 1; t < n; t++) {
        char *s = tok[t];
        if (!strcmp(s, "move")) {
            moved = true;
        } else if (!strcmp(s, "capture")) {
            captured = true;
        } else if (!strcmp(s, "block")) {
            if (a->kind != ATOM_LEAP || t + 1 >= n || nb >= 2 ||
                parse_offset(tok[t + 1], &bxs[nb], &bys[nb]) < 0)
                return fail(err, name, line, "'block' takes an offset dx,dy (at most two, leaps "
                            "only)%s", NULL);
            nb++;
            t++;
        } else if (!strncmp(s, "from=", 5) || !strncmp(s, "to=", 3) || !strncmp(s, "via=", 4)) {
            char *zn = strchr(s, '=') + 1;
            int z = variant_find_zone(v, zn);
            if (z < 0)
                return fail(err, name, line, "unknown zone '%s' (declare it in [zones])", zn);
            if (s[0] == 'f')
                a->from_zone = z;
            else if (s[0] == 't')
                a->to_zone = z;
            else
                a->via_zone = z;
        } else if (!strncmp(s, "max=", 4)) {
            a->max = atoi(s + 4);
            if (a->max < 1 || a->max > 255)
                return fail(err, name, line, "max must be between 1 and 255%s", NULL);
        } else if (!strncmp(s, "screens=", 8)) {
            a->screens = atoi(s + 8);
            if (a->screens < 1 || a->screens > 8)
                return fail(err, name, line, "screens must be between 1 and 8%s", NULL);
        } else if (!strncmp(s, "land=", 5)) {
            if (a->kind != ATOM_HOP)
                return fail(err, name, line, "land= applies to hops only%s", NULL);
            if (!strcmp(s + 5, "next"))
                a->land_next = true;
            else if (strcmp(s + 5, "any"))
                return fail(err, name, line, "land expects next (only the point right behind the screen, "
                            "a grasshopper) or any, not '%s'", s + 5);
        } else if (!strncmp(s, "targets=", 8)) {
            snprintf(a->target_letters, sizeof a->target_letters, "%s", s + 8);
        } else if (!strncmp(s, "sym=", 4)) {
            sym = s + 4;
            if (strcmp(sym, "all") && strcmp(sym, "lr") && strcmp(sym, "none"))
                return fail(err, name, line, "sym must be all, lr or none%s", NULL);
        } else {
            return fail(err, name, line, "unknown atom option '%s' (expected move, capture, "
                        "block, from=, to=, via=, max=, screens=, land=, targets=, sym=)", s);
        }
    }
    if (moved || captured)
        a->mode = (uint8_t)((moved ? ATOM_MOVE : 0) | (captured ? ATOM_CAPTURE : 0));
    if (a->kind == ATOM_HOP && a->screens != 1 && (a->mode & ATOM_CAPTURE))
        return fail(err, name, line, "capturing hops over more than one screen are not "
                    "supported%s", NULL);
    if (a->kind != ATOM_LEAP) {
        if (nb)
            return fail(err, name, line, "only leaps have blocking points%s", NULL);
        return 0;
    }
    /* Expand the leap by its symmetry; blocks transform with it. */
    for (int s = 0; s < 8; s++) {
        bool swap = s & 4, fx = s & 1, fy = s & 2;
        if (!strcmp(sym, "none") && s != 0)
            continue;
        if (!strcmp(sym, "lr") && (swap || fy))
            continue;
        int x = swap ? dy : dx, y = swap ? dx : dy;
        if (fx) x = -x;
        if (fy) y = -y;
        bool dup = false;
        for (int i = 0; i < a->nleaps; i++)
            dup |= a->dx[i] == x && a->dy[i] == y;
        if (dup)
            continue;
        int i = a->nleaps++;
        a->dx[i] = (int8_t)x;
        a->dy[i] = (int8_t)y;
        for (int b = 0; b < nb; b++) {
            int bx = swap ? bys[b] : bxs[b], by = swap ? bxs[b] : bys[b];
            a->bx[i][b] = (int8_t)(fx ? -bx : bx);
            a->by[i][b] = (int8_t)(fy ? -by : by);
        }
    }
    a->nblocks = nb;
    return 0;
}

static int load_pieces(Variant *v, KindDef *defs, const IniFile *ini, const char *name, XqError *err)
{
    int cur = -1;
    const char *cur_section = NULL;
    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strncmp(e->section, "piece ", 6) != 0) {
            if (strncmp(e->section, "piece", 5) == 0)
                return fail(err, name, e->line, "piece sections are written [piece NAME]%s", NULL);
            continue;
        }
        if (e->section != cur_section) {
            cur_section = e->section;
            const char *kname = e->section + 6;
            while (*kname == ' ')
                kname++;
            for (int k = 0; k < v->nkinds; k++)
                if (!strcmp(v->kinds[k].name, kname))
                    return fail(err, name, e->line, "piece '%s' declared twice", kname);
            if (v->nkinds >= XQ_MAX_KINDS)
                return fail(err, name, e->line, "too many piece kinds (at most 15)%s", NULL);
            cur = v->nkinds++;
            PieceKind *pk = &v->kinds[cur];
            memset(pk, 0, sizeof *pk);
            memset(&defs[cur], 0, sizeof defs[cur]);
            snprintf(pk->name, sizeof pk->name, "%s", kname);
            pk->stand_zone = -1;
            pk->value = 1.0;
            defs[cur].line = e->line;
        }
        PieceKind *pk = &v->kinds[cur];
        KindDef *d = &defs[cur];
        if (!strcmp(e->key, "letter") || !strcmp(e->key, "alias")) {
            if (strlen(e->value) != 1 || !isalpha((unsigned char)e->value[0]))
                return fail(err, name, e->line, "'%s' must be a single letter", e->key);
            char c = (char)toupper((unsigned char)e->value[0]);
            if (variant_find_kind_by_letter(v, c) >= 0 && variant_find_kind_by_letter(v, c) != cur)
                return fail(err, name, e->line, "letter '%s' is already used by another piece", e->value);
            if (e->key[0] == 'l')
                pk->letter = c;
            else
                pk->alias = c;
        } else if (!strcmp(e->key, "royal")) {
            if (!parse_bool(e->value, &pk->royal))
                return fail(err, name, e->line, "royal must be yes or no, not '%s'", e->value);
        } else if (!strcmp(e->key, "value")) {
            char *end;
            pk->value = strtod(e->value, &end);
            if (*end || end == e->value)
                return fail(err, name, e->line, "value must be a number, not '%s'", e->value);
            /* Values seed the evaluation and the tuner: a NaN or infinity would poison both. */
            if (!isfinite(pk->value) || pk->value < 0 || pk->value > PIECE_VALUE_MAX)
                return fail(err, name, e->line, "value must be a number from 0 to 1000 (pawn "
                            "units), not '%s'", e->value);
        } else if (!strcmp(e->key, "stand")) {
            int z = variant_find_zone(v, e->value);
            if (z < 0)
                return fail(err, name, e->line, "unknown zone '%s' (declare it in [zones])", e->value);
            pk->stand_zone = z;
        } else if (!strcmp(e->key, "step") || !strcmp(e->key, "slide") || !strcmp(e->key, "hop") ||
                   !strcmp(e->key, "leap")) {
            if (d->natoms >= MAX_ATOMS)
                return fail(err, name, e->line, "too many atoms for one piece (at most 8)%s", NULL);
            if (parse_atom(v, &d->atoms[d->natoms], e->key, e->value, name, e->line, err) < 0)
                return -1;
            d->natoms++;
        } else {
            return fail(err, name, e->line, "unknown piece key '%s' (expected letter, alias, "
                        "royal, value, stand, step, slide, hop, leap)", e->key);
        }
    }
    if (v->nkinds == 0)
        return fail(err, name, 0, "no [piece NAME] sections%s", NULL);
    for (int k = 0; k < v->nkinds; k++) {
        if (!v->kinds[k].letter)
            return fail(err, name, defs[k].line, "piece '%s' has no letter", v->kinds[k].name);
        if (defs[k].natoms == 0)
            return fail(err, name, defs[k].line, "piece '%s' has no moves (step, slide, hop "
                        "or leap)", v->kinds[k].name);
        if (v->kinds[k].royal)
            v->royal_mask |= (uint16_t)(1u << k);
    }
    /* Resolve target letters now that every kind is known. */
    for (int k = 0; k < v->nkinds; k++)
        for (int a = 0; a < defs[k].natoms; a++) {
            Atom *at = &defs[k].atoms[a];
            if (!at->target_letters[0])
                continue;
            at->targets = 0;
            for (const char *c = at->target_letters; *c; c++) {
                int t = variant_find_kind_by_letter(v, *c);
                if (t < 0) {
                    char l[2] = {*c, 0};
                    return fail(err, name, at->line, "targets: no piece has letter '%s'", l);
                }
                at->targets |= (uint16_t)(1u << t);
            }
        }
    return 0;
}

/* [powered NAME]: a second set of atoms for piece NAME, used instead of its own when a rule
 * module powers that kind (mod_cube: the kind on the top face). */
static int load_powered(Variant *v, KindDef *pdefs, const IniFile *ini, const char *name, XqError *err)
{
    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strncmp(e->section, "powered ", 8) != 0)
            continue;
        const char *kname = e->section + 8;
        while (*kname == ' ')
            kname++;
        int k;
        for (k = 0; k < v->nkinds; k++)
            if (!strcmp(v->kinds[k].name, kname))
                break;
        if (k == v->nkinds)
            return fail(err, name, e->line, "[powered %s] names no [piece] section", kname);
        KindDef *d = &pdefs[k];
        if (strcmp(e->key, "step") && strcmp(e->key, "slide") && strcmp(e->key, "hop") &&
            strcmp(e->key, "leap"))
            return fail(err, name, e->line, "unknown key '%s' in a [powered] section (expected "
                        "step, slide, hop, leap)", e->key);
        if (d->natoms >= MAX_ATOMS)
            return fail(err, name, e->line, "too many atoms for one piece (at most 8)%s", NULL);
        if (parse_atom(v, &d->atoms[d->natoms], e->key, e->value, name, e->line, err) < 0)
            return -1;
        if (!d->line)
            d->line = e->line;
        d->natoms++;
        v->powered_kinds |= (uint16_t)(1u << k);
    }
    for (int k = 0; k < v->nkinds; k++)
        for (int a = 0; a < pdefs[k].natoms; a++) {
            Atom *at = &pdefs[k].atoms[a];
            if (!at->target_letters[0])
                continue;
            at->targets = 0;
            for (const char *c = at->target_letters; *c; c++) {
                int t = variant_find_kind_by_letter(v, *c);
                if (t < 0) {
                    char l[2] = {*c, 0};
                    return fail(err, name, at->line, "targets: no piece has letter '%s'", l);
                }
                at->targets |= (uint16_t)(1u << t);
            }
        }
    return 0;
}

/* ---- one value per key ------------------------------------------------------------------- */

/* Keys that may be given more than once in a section: a piece's moves, the board's points and
 * lines, the camp's entry gates. */
static bool key_repeats(const char *section, const char *key)
{
    if (!strncmp(section, "piece ", 6) || !strncmp(section, "powered ", 8))
        return !strcmp(key, "step") || !strcmp(key, "slide") || !strcmp(key, "hop") ||
               !strcmp(key, "leap");
    if (!strcmp(section, "board"))
        return !strcmp(key, "grid") || !strcmp(key, "lines") || !strcmp(key, "points");
    return !strcmp(section, "camp") && !strcmp(key, "enter");
}

/* A section or a key given twice is refused: the second would silently win. */
static int check_unique(const IniFile *ini, const char *name, XqError *err)
{
    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        for (int j = 0; j < i; j++) {
            const IniEntry *d = &ini->entries[j];
            if (strcmp(d->section, e->section))
                continue;
            if (d->section_line != e->section_line) {
                char msg[XQ_MSG_MAX];
                snprintf(msg, sizeof msg, "section [%.60s] is given twice (first on line %d): "
                         "merge the two", e->section, d->section_line);
                return fail(err, name, e->section_line, "%s", msg);
            }
            if (!strcmp(d->key, e->key) && !key_repeats(e->section, e->key)) {
                char msg[XQ_MSG_MAX];
                snprintf(msg, sizeof msg, "key '%.40s' is given twice in [%.60s] (first on line %d)",
                         e->key, e->section, d->line);
                return fail(err, name, e->line, "%s", msg);
            }
        }
    }
    return 0;
}

/* ---- rules and variant section ------------------------------------------------------------ */

/* The name becomes part of default output paths (runs/NAME/...): a plain file name only. */
static bool plain_name(const char *s)
{
    if (!isalnum((unsigned char)s[0]))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
            return false;
    return true;
}

static int load_rules(Variant *v, const IniFile *ini, const char *name, XqError *err)
{
    RuleOptions *r = &v->rules;
    r->flying_general = FLYING_NONE;
    r->stalemate_loses = true;
    r->move_limit = 0;
    r->check_cap = 0;
    r->repetition = REP_NONE;
    r->repetition_count = 3;
    bool have_start = false;
    for (int i = 0; i < ini->count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (!strcmp(e->section, "variant")) {
            if (!strcmp(e->key, "name")) {
                if (!plain_name(e->value) || strlen(e->value) >= sizeof v->name)
                    return fail(err, name, e->line, "name must be a plain file name of at most 31 "
                                "letters, digits, '-', '_' and '.' starting with a letter or digit, "
                                "not '%s' (it becomes part of output paths)", e->value);
                snprintf(v->name, sizeof v->name, "%s", e->value);
            } else if (!strcmp(e->key, "description"))
                snprintf(v->description, sizeof v->description, "%s", e->value);
            else if (!strcmp(e->key, "start")) {
                snprintf(v->start_fen, sizeof v->start_fen, "%s", e->value);
                have_start = true;
            } else
                return fail(err, name, e->line, "unknown key '%s' in [variant] (expected name, "
                            "description, start)", e->key);
        } else if (!strcmp(e->section, "rules")) {
            const char *k = e->key, *val = e->value;
            if (!strcmp(k, "flying_general")) {
                if (!strcmp(val, "file")) r->flying_general = FLYING_FILE;
                else if (!strcmp(val, "lines")) r->flying_general = FLYING_LINES;
                else if (!strcmp(val, "no")) r->flying_general = FLYING_NONE;
                else return fail(err, name, e->line, "flying_general must be file, lines or no, "
                                 "not '%s'", val);
            } else if (!strcmp(k, "stalemate")) {
                if (!strcmp(val, "loss")) r->stalemate_loses = true;
                else if (!strcmp(val, "draw")) r->stalemate_loses = false;
                else return fail(err, name, e->line, "stalemate must be loss or draw, not '%s'", val);
            } else if (!strcmp(k, "move_limit") || !strcmp(k, "check_cap") ||
                       !strcmp(k, "repetition_count")) {
                char *end;
                long x = strtol(val, &end, 10);
                if (*end || end == val || x < 0 || x > 100000)
                    return fail(err, name, e->line, "'%s' must be a non-negative whole number", k);
                if (k[0] == 'm') r->move_limit = (int)x;
                else if (k[0] == 'c') r->check_cap = (int)x;
                else if (x < 2) return fail(err, name, e->line, "repetition_count must be at least 2%s", NULL);
                else r->repetition_count = (int)x;
            } else if (!strcmp(k, "repetition")) {
                if (!strcmp(val, "none")) r->repetition = REP_NONE;
                else if (!strcmp(val, "check-only")) r->repetition = REP_CHECK_ONLY;
                else if (!strcmp(val, "asian")) r->repetition = REP_ASIAN;
                else if (!strcmp(val, "chinese")) r->repetition = REP_CHINESE;
                else return fail(err, name, e->line, "repetition must be none, check-only, asian "
                                 "or chinese, not '%s'", val);
            } else {
                return fail(err, name, e->line, "unknown rule '%s' (expected flying_general, "
                            "stalemate, move_limit, check_cap, repetition, repetition_count)", k);
            }
        } else if (module_for_section(e->section)) {
            /* A rule module's section switches it on (core/module.h). */
            v->modules |= module_for_section(e->section)->bit;
        } else if (strcmp(e->section, "board") && strcmp(e->section, "zones") &&
                   strncmp(e->section, "piece", 5) && strncmp(e->section, "powered ", 8)) {
            return fail(err, name, e->line, "unknown section [%s] (expected variant, board, "
                        "zones, piece NAME, powered NAME, rules, or a rule module: reserve, cube, "
                        "multimove, camp, displacement, promotion, hidden)", e->section);
        }
    }
    if (!v->name[0])
        return fail(err, name, 0, "[variant] needs a name%s", NULL);
    if (!have_start)
        return fail(err, name, 0, "[variant] needs a start position (start = FEN)%s", NULL);
    return 0;
}

/* ---- compiling tables --------------------------------------------------------------------- */

static void *grow(void *p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return p;
    int nc = *cap ? *cap * 2 : 256;
    while (nc < need)
        nc *= 2;
    void *np = realloc(p, (size_t)nc * elem);
    if (np)
        *cap = nc;
    return np;
}

static int side_dir(int d, Side s)
{
    if (s == RED)
        return d;
    /* Mirror across the river: N <-> S, NE <-> SE, NW <-> SW. */
    static const int flip[DIR_COUNT] = {DIR_S, DIR_SE, DIR_E, DIR_NE, DIR_N, DIR_NW, DIR_W, DIR_SW};
    return flip[d];
}

static int push_leap(Builder *b, LeapEntry e)
{
    LeapEntry *nl = grow(b->leaps, &b->capleaps, b->nleaps + 1, sizeof *nl);
    if (!nl)
        return -1;
    b->leaps = nl;
    b->leaps[b->nleaps++] = e;
    return 0;
}

/* Compiles the atoms of `defs` into `out`; a kind not in `kinds` gets a copy of its plain table
 * slice (powered tables), and the flying-general rays go to the plain tables only. */
/* Appends a design warning (the file loads, but the line does nothing). */
static void add_warning(Variant *v, const char *name, int line, const char *what)
{
    size_t used = strlen(v->warnings);
    if (used < sizeof v->warnings - 1)
        snprintf(v->warnings + used, sizeof v->warnings - used, "%s:%d: %s\n", name, line, what);
}

static int compile_tables(Variant *v, const KindDef *defs, Builder *b, MoveTable (*out)[2][XQ_MAX_POINTS],
                          unsigned kinds, const char *name, XqError *err)
{
    bool plain = out == v->table;
    /* Steps, slides and hops go along drawn lines only: a diagonal one on a board that draws no
     * diagonal never moves (a common slip: leaps need no lines). */
    bool diagonals = false;
    for (int p = 0; p < v->npoints && !diagonals; p++)
        for (int d = DIR_NE; d < DIR_COUNT; d += 2)
            diagonals = diagonals || v->neighbor[p][d] != XQ_NO_POINT;
    for (int k = 0; k < v->nkinds && !diagonals; k++)
        for (int ai = 0; (kinds >> k & 1) && ai < defs[k].natoms; ai++) {
            const Atom *a = &defs[k].atoms[ai];
            uint8_t diag = (uint8_t)((1 << DIR_NE) | (1 << DIR_SE) | (1 << DIR_SW) | (1 << DIR_NW));
            if (a->kind != ATOM_LEAP && (a->dirs & diag)) {
                char what[200];
                snprintf(what, sizeof what, "%s: a %s along diagonals, but the board draws no diagonal line "
                         "(lines = ...): it never moves that way (a leap needs no lines)", v->kinds[k].name,
                         a->kind == ATOM_STEP ? "step" : a->kind == ATOM_SLIDE ? "slide" : "hop");
                add_warning(v, name, a->line, what);
            }
        }
    for (int k = 0; k < v->nkinds; k++) {
        const PieceKind *pk = &v->kinds[k];
        if (!(kinds >> k & 1)) {
            memcpy(out[k], v->table[k], sizeof out[k]);
            continue;
        }
        for (int s = 0; s < 2; s++) {
            Side side = (Side)s;
            for (int p = 0; p < v->npoints; p++) {
                MoveTable *t = &out[k][s][p];
                t->leap_first = (uint16_t)b->nleaps;
                t->ray_first = (uint16_t)b->nrays;
                int f = v->point_file[p], r = v->point_rank[p];
                for (int ai = 0; ai < defs[k].natoms; ai++) {
                    const Atom *a = &defs[k].atoms[ai];
                    if (!variant_in_zone(v, a->from_zone, side, (Point)p))
                        continue;
                    if (a->kind == ATOM_LEAP) {
                        for (int i = 0; i < a->nleaps; i++) {
                            int dy = s == RED ? a->dy[i] : -a->dy[i];
                            Point q = variant_point(v, f + a->dx[i], r + dy);
                            if (q == XQ_NO_POINT || !variant_in_zone(v, a->to_zone, side, q) ||
                                !variant_in_zone(v, pk->stand_zone, side, q))
                                continue;
                            LeapEntry e = {q, {XQ_NO_POINT, XQ_NO_POINT}, a->mode, a->targets};
                            for (int bi = 0; bi < a->nblocks; bi++) {
                                int by = s == RED ? a->by[i][bi] : -a->by[i][bi];
                                e.block[bi] = variant_point(v, f + a->bx[i][bi], r + by);
                            }
                            if (push_leap(b, e) < 0)
                                goto oom;
                        }
                        continue;
                    }
                    for (int rd = 0; rd < DIR_COUNT; rd++) {
                        if (!(a->dirs >> rd & 1))
                            continue;
                        int d = side_dir(rd, side);
                        if (a->kind == ATOM_STEP) {
                            Point q = v->neighbor[p][d];
                            if (q == XQ_NO_POINT || !variant_in_zone(v, a->to_zone, side, q) ||
                                !variant_in_zone(v, pk->stand_zone, side, q))
                                continue;
                            LeapEntry e = {q, {XQ_NO_POINT, XQ_NO_POINT}, a->mode, a->targets};
                            if (push_leap(b, e) < 0)
                                goto oom;
                            continue;
                        }
                        if (a->to_zone >= 0)
                            return fail(err, name, a->line, "to= is not supported on slides and "
                                        "hops (use via=)%s", NULL);
                        /* Walk the ray along drawn lines within via / stand zones. */
                        int first = b->npts, len = 0;
                        for (Point q = v->neighbor[p][d]; q != XQ_NO_POINT; q = v->neighbor[q][d]) {
                            if (!variant_in_zone(v, a->via_zone, side, q) ||
                                !variant_in_zone(v, pk->stand_zone, side, q))
                                break;
                            Point *np = grow(b->pts, &b->cappts, b->npts + 1, sizeof *np);
                            if (!np)
                                goto oom;
                            b->pts = np;
                            b->pts[b->npts++] = q;
                            len++;
                        }
                        if (len == 0)
                            continue;
                        uint8_t flags = 0;
                        if (a->kind == ATOM_SLIDE)
                            flags = (uint8_t)(((a->mode & ATOM_MOVE) ? RAY_SLIDE_MOVE : 0) |
                                              ((a->mode & ATOM_CAPTURE) ? RAY_SLIDE_CAPTURE : 0));
                        else
                            flags = (uint8_t)(((a->mode & ATOM_MOVE) ? RAY_HOP_MOVE : 0) |
                                              ((a->mode & ATOM_CAPTURE) ? RAY_HOP_CAPTURE : 0) |
                                              (a->land_next ? RAY_HOP_NEXT : 0));
                        int smax = a->kind == ATOM_SLIDE ? (a->max < len ? a->max : len) : 0;
                        /* Merge with an earlier ray of this slice on the same line. */
                        bool merged = false;
                        for (int ri = t->ray_first; ri < b->nrays; ri++) {
                            Ray *ray = &b->rays[ri];
                            /* Two hop parts share a ray only when they land alike. */
                            bool hop_clash = a->kind == ATOM_HOP && (ray->flags & (RAY_HOP_MOVE | RAY_HOP_CAPTURE)) &&
                                             ((ray->flags & RAY_HOP_NEXT) != 0) != a->land_next;
                            if (ray->dir == d && ray->len == len && ray->targets == a->targets && !hop_clash &&
                                (a->kind == ATOM_SLIDE ? (ray->slide_max == 0 || ray->slide_max == smax)
                                                       : ray->screens == a->screens)) {
                                ray->flags |= flags;
                                if (a->kind == ATOM_SLIDE)
                                    ray->slide_max = (uint8_t)smax;
                                else
                                    ray->screens = (uint8_t)a->screens;
                                merged = true;
                                break;
                            }
                        }
                        if (merged) {
                            b->npts = first;
                            continue;
                        }
                        Ray *nr = grow(b->rays, &b->caprays, b->nrays + 1, sizeof *nr);
                        if (!nr)
                            goto oom;
                        b->rays = nr;
                        b->rays[b->nrays++] = (Ray){(uint16_t)first, (uint8_t)len, (uint8_t)smax,
                                                    flags, (uint8_t)a->screens, (uint8_t)d, a->targets};
                    }
                }
                /* Flying general: the royal piece attacks an enemy royal piece along open lines. */
                if (plain && pk->royal && v->rules.flying_general != FLYING_NONE) {
                    uint8_t dirs = v->rules.flying_general == FLYING_FILE
                                       ? (uint8_t)((1 << DIR_N) | (1 << DIR_S)) : (uint8_t)0x55;
                    for (int d = 0; d < DIR_COUNT; d++) {
                        if (!(dirs >> d & 1))
                            continue;
                        int first = b->npts, len = 0;
                        for (Point q = v->neighbor[p][d]; q != XQ_NO_POINT; q = v->neighbor[q][d]) {
                            Point *np = grow(b->pts, &b->cappts, b->npts + 1, sizeof *np);
                            if (!np)
                                goto oom;
                            b->pts = np;
                            b->pts[b->npts++] = q;
                            len++;
                        }
                        if (len == 0)
                            continue;
                        Ray *nr = grow(b->rays, &b->caprays, b->nrays + 1, sizeof *nr);
                        if (!nr)
                            goto oom;
                        b->rays = nr;
                        b->rays[b->nrays++] = (Ray){(uint16_t)first, (uint8_t)len, (uint8_t)len,
                                                    RAY_SLIDE_CAPTURE, 1, (uint8_t)d, v->royal_mask};
                    }
                }
                t->leap_count = (uint16_t)(b->nleaps - t->leap_first);
                t->ray_count = (uint16_t)(b->nrays - t->ray_first);
                if (b->nleaps > 65000 || b->nrays > 65000 || b->npts > 65000)
                    return fail(err, name, 0, "move tables too large%s", NULL);
            }
        }
    }
    return 0;
oom:
    return fail(err, name, 0, "out of memory%s", NULL);
}

/* Reverse tables and danger sets for royal attack detection. */
static int compile_attacks(Variant *v, const char *name, XqError *err)
{
    int cap = 0;
    /* Count first: every capture leap that may hit a royal kind. */
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < v->nkinds; k++)
            for (int p = 0; p < v->npoints; p++) {
                const MoveTable *t = &v->table[k][s][p];
                for (int i = 0; i < t->leap_count; i++) {
                    const LeapEntry *e = &v->leaps[t->leap_first + i];
                    if ((e->mode & ATOM_CAPTURE) && (e->targets & v->royal_mask))
                        cap++;
                }
            }
    v->reverse_leaps = calloc((size_t)(cap ? cap : 1), sizeof *v->reverse_leaps);
    if (!v->reverse_leaps)
        return fail(err, name, 0, "out of memory%s", NULL);
    v->nreverse = 0;
    for (int s = 0; s < 2; s++)
        for (int target = 0; target < v->npoints; target++) {
            ReverseTable *rt = &v->reverse[s][target];
            rt->first = (uint16_t)v->nreverse;
            for (int k = 0; k < v->nkinds; k++)
                for (int p = 0; p < v->npoints; p++) {
                    const MoveTable *t = &v->table[k][s][p];
                    for (int i = 0; i < t->leap_count; i++) {
                        const LeapEntry *e = &v->leaps[t->leap_first + i];
                        if (e->to != target || !(e->mode & ATOM_CAPTURE) ||
                            !(e->targets & v->royal_mask))
                            continue;
                        int j;
                        for (j = rt->first; j < v->nreverse; j++) {
                            ReverseLeap *r = &v->reverse_leaps[j];
                            if (r->from == p && r->block[0] == e->block[0] && r->block[1] == e->block[1])
                                break;
                        }
                        if (j == v->nreverse)
                            v->reverse_leaps[v->nreverse++] =
                                (ReverseLeap){(Point)p, {e->block[0], e->block[1]}, 0};
                        v->reverse_leaps[j].kinds |= (uint16_t)(1u << k);
                    }
                }
            rt->count = (uint16_t)(v->nreverse - rt->first);
        }
    memset(v->slide_reach, 0, sizeof v->slide_reach);
    memset(v->hop_reach, 0, sizeof v->hop_reach);
    memset(v->hop_next_reach, 0, sizeof v->hop_next_reach);
    for (int k = 0; k < v->nkinds; k++)
        for (int s = 0; s < 2; s++)
            for (int p = 0; p < v->npoints; p++) {
                const MoveTable *t = &v->table[k][s][p];
                for (int i = 0; i < t->ray_count; i++) {
                    const Ray *ray = &v->rays[t->ray_first + i];
                    if (!(ray->targets & v->royal_mask))
                        continue;
                    if (ray->flags & (RAY_SLIDE_CAPTURE | RAY_HOP_CAPTURE))
                        v->attack_dirs[s] |= (uint8_t)(1u << XQ_DIR_OPPOSITE(ray->dir));
                    if ((ray->flags & RAY_SLIDE_CAPTURE) && ray->slide_max > v->slide_reach[k][s][p][ray->dir]) {
                        v->slide_reach[k][s][p][ray->dir] = ray->slide_max;
                        v->slider_kinds[s] |= (uint16_t)(1u << k);
                    }
                    /* A grasshopper's capture (land=next) reaches only the point right behind the
                     * screen: its own table, checked with the screen's distance. */
                    uint8_t(*reach)[2][XQ_MAX_POINTS][DIR_COUNT] =
                        (ray->flags & RAY_HOP_NEXT) ? v->hop_next_reach : v->hop_reach;
                    if ((ray->flags & RAY_HOP_CAPTURE) && ray->len > reach[k][s][p][ray->dir]) {
                        reach[k][s][p][ray->dir] = ray->len;
                        v->hopper_kinds[s] |= (uint16_t)(1u << k);
                    }
                }
            }
    /* Capture reach of every (kind, side, point), blockers and screens left to the walk. */
    memset(v->capture_reach, 0, sizeof v->capture_reach);
    for (int k = 0; k < v->nkinds; k++)
        for (int s = 0; s < 2; s++)
            for (int p = 0; p < v->npoints; p++) {
                const MoveTable *t = &v->table[k][s][p];
                PointSet *cr = &v->capture_reach[k][s][p];
                for (int i = 0; i < t->leap_count; i++) {
                    const LeapEntry *e = &v->leaps[t->leap_first + i];
                    if (e->mode & ATOM_CAPTURE)
                        pointset_add(cr, e->to);
                }
                for (int i = 0; i < t->ray_count; i++) {
                    const Ray *ray = &v->rays[t->ray_first + i];
                    if (!(ray->flags & (RAY_SLIDE_CAPTURE | RAY_HOP_CAPTURE)))
                        continue;
                    for (int j = 0; j < ray->len; j++)
                        pointset_add(cr, v->ray_points[ray->first + j]);
                }
            }
    /* Danger sets: the royal of side s on p can only become attacked through these points. */
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < v->npoints; p++) {
            PointSet *ds = &v->danger[s][p];
            memset(ds, 0, sizeof *ds);
            for (int d = 0; d < DIR_COUNT; d++)
                for (Point q = v->neighbor[p][d]; q != XQ_NO_POINT; q = v->neighbor[q][d])
                    pointset_add(ds, q);
            const ReverseTable *rt = &v->reverse[XQ_OTHER(s)][p];
            for (int i = 0; i < rt->count; i++) {
                const ReverseLeap *r = &v->reverse_leaps[rt->first + i];
                for (int bi = 0; bi < 2; bi++)
                    if (r->block[bi] != XQ_NO_POINT)
                        pointset_add(ds, r->block[bi]);
            }
        }
    return 0;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void init_zobrist(Variant *v)
{
    uint64_t seed = 0x5851f42d4c957f2dull; /* fixed: keys are stable across runs */
    for (int pc = 0; pc < 32; pc++)
        for (int p = 0; p < XQ_MAX_POINTS; p++)
            v->zobrist_piece[pc][p] = splitmix64(&seed);
    v->zobrist_side = splitmix64(&seed);
    /* Module state bytes: drawn after the piece keys so standard keys stay as they were. */
    for (int i = 0; i < XQ_MOD_STATE; i++) {
        v->zobrist_module[i][0] = 0;
        for (int x = 1; x < 256; x++)
            v->zobrist_module[i][x] = splitmix64(&seed);
    }
}

/* The start FEN must parse as a position of this variant; its pieces are the set. */
static int check_start(Variant *v, XqError *err)
{
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return fail(err, v->path, 0, "out of memory%s", NULL);
    int rc = pos_set_fen(pos, v, v->start_fen, err);
    if (rc == 0) {
        memset(v->piece_set, 0, sizeof v->piece_set);
        for (int p = 0; p < v->npoints; p++) {
            Piece pc = pos->board[p];
            if (pc && !hidden_is_down(v, pc))
                v->piece_set[XQ_PIECE_SIDE(pc)][XQ_PIECE_KIND(pc)]++;
        }
        for (int c = 0; c < 2 && hidden_on(v); c++)
            for (int k = 0; k < HIDDEN_POOL_KINDS && k < v->nkinds; k++)
                v->piece_set[c][k] = (uint8_t)(v->piece_set[c][k] + hidden_pool(pos, (Side)c, k));
        Holding held[XQ_MAX_HOLDINGS];
        int nheld = variant_holdings(v, held);
        for (int h = 0; h < nheld; h++)
            for (int c = 0; c < 2; c++)
                v->piece_set[c][held[h].kind] =
                    (uint8_t)(v->piece_set[c][held[h].kind] + pos_held(pos, (Side)c, &held[h]));
        v->piece_set_known = true;
    }
    free(pos);
    return rc;
}

Variant *variant_load_text(const char *text, const char *name, XqError *err)
{
    Variant *v = calloc(1, sizeof *v);
    KindDef *defs = calloc(XQ_MAX_KINDS, sizeof *defs);
    KindDef *pdefs = calloc(XQ_MAX_KINDS, sizeof *pdefs);
    Builder b = {0};
    IniFile ini = {0};
    if (!v || !defs || !pdefs) {
        fail(err, name, 0, "out of memory%s", NULL);
        goto error;
    }
    snprintf(v->path, sizeof v->path, "%s", name);
    v->text = malloc(strlen(text) + 1);
    if (!v->text) {
        fail(err, name, 0, "out of memory%s", NULL);
        goto error;
    }
    strcpy(v->text, text);
    if (ini_parse(&ini, text, name, err) < 0 || check_unique(&ini, name, err) < 0)
        goto error;
    if (load_board(v, &ini, name, err) < 0 || load_zones(v, &ini, name, err) < 0 ||
        load_rules(v, &ini, name, err) < 0 || load_pieces(v, defs, &ini, name, err) < 0)
        goto error;
    if (v->royal_mask == 0 && v->rules.flying_general != FLYING_NONE) {
        fail(err, name, 0, "flying_general needs a royal piece (royal = yes)%s", NULL);
        goto error;
    }
    if (load_powered(v, pdefs, &ini, name, err) < 0)
        goto error;
    if (compile_tables(v, defs, &b, v->table, 0xffffu, name, err) < 0)
        goto error;
    if (v->powered_kinds) {
        v->powered = calloc(XQ_MAX_KINDS, sizeof *v->powered);
        if (!v->powered) {
            fail(err, name, 0, "out of memory%s", NULL);
            goto error;
        }
        if (compile_tables(v, pdefs, &b, v->powered, v->powered_kinds, name, err) < 0)
            goto error;
    }
    for (int i = 0; i < module_count(); i++)
        if ((v->modules & module_at(i)->bit) && module_at(i)->defaults)
            module_at(i)->defaults(v);
    for (int i = 0; i < ini.count; i++) {
        const RuleModule *mod = module_for_section(ini.entries[i].section);
        if (mod && mod->parse_option && mod->parse_option(v, &ini.entries[i], name, err) < 0)
            goto error;
    }
    /* Keep every table array allocated, even when empty: move generation offsets these
     * pointers unconditionally, and offsetting NULL is undefined behaviour. */
    LeapEntry *leaps = grow(b.leaps, &b.capleaps, 1, sizeof *b.leaps);
    if (leaps)
        b.leaps = leaps;
    Ray *rays = grow(b.rays, &b.caprays, 1, sizeof *b.rays);
    if (rays)
        b.rays = rays;
    Point *pts = grow(b.pts, &b.cappts, 1, sizeof *b.pts);
    if (pts)
        b.pts = pts;
    if (!leaps || !rays || !pts) {
        fail(err, name, 0, "out of memory%s", NULL);
        goto error;
    }
    v->leaps = b.leaps;
    v->nleaps = b.nleaps;
    v->rays = b.rays;
    v->nrays = b.nrays;
    v->ray_points = b.pts;
    v->nray_points = b.npts;
    b = (Builder){0};
    /* Modules finish with the tables complete (they may read or change them). */
    for (int i = 0; i < module_count(); i++) {
        const RuleModule *mod = module_at(i);
        if ((v->modules & mod->bit) && mod->finish_load && mod->finish_load(v, name, err) < 0)
            goto error;
    }
    if (compile_attacks(v, name, err) < 0)
        goto error;
    init_zobrist(v);
    if (check_start(v, err) < 0) {
        /* Report the start FEN error at the variant file. */
        char msg[XQ_MSG_MAX];
        snprintf(msg, sizeof msg, "start position: %.200s", err ? err->message : "");
        int line = 0;
        for (int i = 0; i < ini.count; i++)
            if (!strcmp(ini.entries[i].section, "variant") && !strcmp(ini.entries[i].key, "start"))
                line = ini.entries[i].line;
        fail(err, name, line, "%s", msg);
        goto error;
    }
    ini_free(&ini);
    free(defs);
    free(pdefs);
    return v;
error:
    ini_free(&ini);
    free(defs);
    free(pdefs);
    free(b.leaps);
    free(b.rays);
    free(b.pts);
    variant_free(v);
    return NULL;
}

Variant *variant_load_file(const char *path, XqError *err)
{
    char *text = ini_read_file(path, err);
    if (!text)
        return NULL;
    Variant *v = variant_load_text(text, path, err);
    free(text);
    return v;
}

void variant_free(Variant *v)
{
    if (!v)
        return;
    free(v->text);
    free(v->leaps);
    free(v->rays);
    free(v->ray_points);
    free(v->reverse_leaps);
    free(v->powered);
    free(v);
}
