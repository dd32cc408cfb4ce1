/* cmd_export.c - `xqlab export DATA.h5... --pgn OUT.pgn [--games RANGE] [--verify]`: games of
 * datasets as Xiangqi PGN, optionally read back and checked move by move. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "notation.h"
#include "output.h"
#include "pgn.h"
#include "position.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab export DATA.h5... --pgn OUT.pgn [--notation iccs|wxf] [--xboard]\n"
        "                  [--games RANGE] [--verify]\n\n"
        "Writes games of one or many dataset files (shards of one run) as Xiangqi PGN:\n"
        "[Game \"Chinese Chess\"] first, then Event, Site, Date, Round (the game index + 1),\n"
        "Red, Black, Result, Variant (the rule set), [SetUp \"1\"] and [FEN] when the start is\n"
        "not the variant's, [Format] (WXF or ICCS), Termination and PlyCount. OUT.pgn is written\n"
        "as OUT.pgn.tmp and renamed; '-' writes to standard output. Format: docs/pgn.md.\n\n"
        "  --pgn OUT.pgn   output file (required)\n"
        "  --notation N    moves in iccs (h2e2) or wxf (C2.5, standard xiangqi only);\n"
        "                  default: wxf for standard xiangqi, iccs for the other rule sets\n"
        "  --xboard        for XBoard (standard xiangqi): ICCS moves, and [FEN] with XBoard's\n"
        "                  letters H (horse) and E (elephant); load with xboard -lgf OUT.pgn\n"
        "  --force         replace an existing OUT.pgn (never an input)\n"
        "  --games RANGE   games to export, 0-based over the files in the order given:\n"
        "                  N, A-B, A- (to the end), or a comma list of those (default: all)\n"
        "  --verify        read OUT.pgn back, replay every game and check it has the same start\n"
        "                  position and moves as the dataset (not with '-')\n"
        "  -h, --help\n\n"
        "Exit status: 0, 1 if a file is missing, damaged, does not belong with the others or\n"
        "the check fails, 2 on a usage error (also a range past the last game).\n");
}

/* A parsed RANGE: inclusive intervals. */
typedef struct Range {
    uint64_t lo[64], hi[64];
    int n;
} Range;

static int parse_range(const char *text, Range *r)
{
    r->n = 0;
    const char *p = text;
    while (*p) {
        if (r->n == 64)
            return cli_error(EXIT_USAGE, "export", "--games: at most 64 ranges");
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9')
            return cli_error(EXIT_USAGE, "export", "--games expects N, A-B, A- or a comma list, not '%s'", text);
        uint64_t lo = strtoull(p, &end, 10), hi = lo;
        if (errno)
            return cli_error(EXIT_USAGE, "export", "--games: number out of range in '%s'", text);
        p = end;
        if (*p == '-') {
            p++;
            if (*p >= '0' && *p <= '9') {
                hi = strtoull(p, &end, 10);
                p = end;
            } else {
                hi = UINT64_MAX;
            }
        }
        if (hi < lo)
            return cli_error(EXIT_USAGE, "export", "--games: %" PRIu64 "-%" PRIu64 " is an empty range", lo, hi);
        r->lo[r->n] = lo;
        r->hi[r->n++] = hi;
        if (*p == ',')
            p++;
        else if (*p)
            return cli_error(EXIT_USAGE, "export", "--games expects N, A-B, A- or a comma list, not '%s'", text);
    }
    if (!r->n)
        return cli_error(EXIT_USAGE, "export", "--games: empty range");
    return EXIT_OK;
}

static bool range_has(const Range *r, uint64_t k)
{
    if (!r->n)
        return true;
    for (int i = 0; i < r->n; i++)
        if (k >= r->lo[i] && k <= r->hi[i])
            return true;
    return false;
}

/* "2025-11-30T01:24:00Z" -> "2025.11.30". */
static void pgn_date(const char *utc, char *buf, size_t size)
{
    if (strlen(utc) >= 10)
        snprintf(buf, size, "%.4s.%.2s.%.2s", utc, utc + 5, utc + 8);
    else
        snprintf(buf, size, "????.??.??");
}

/* "xqlab 0.1.0 MCTS (playouts = 64)" from the run's search settings. */
static void player_name(const DatasetSummary *s, char *buf, size_t size)
{
    const char *p = s->params_text ? strstr(s->params_text, "playouts") : NULL;
    int playouts = 0;
    if (p)
        sscanf(p, "playouts = %d", &playouts);
    if (playouts > 0)
        snprintf(buf, size, "xqlab %s MCTS, %d playouts", s->program_version, playouts);
    else
        snprintf(buf, size, "xqlab %s MCTS", s->program_version);
}

/* True if two FENs describe the same position (the reader writes the rules core's FEN, the
 * dataset holds the text the run was given). */
static bool same_position(const Variant *v, const char *a, const char *b)
{
    Position *pa = malloc(sizeof *pa), *pb = malloc(sizeof *pb);
    XqError err;
    bool same = pa && pb && pos_set_fen(pa, v, a, &err) == 0 && pos_set_fen(pb, v, b, &err) == 0;
    if (same) {
        char fa[256], fb[256];
        pos_get_fen(pa, fa, sizeof fa);
        pos_get_fen(pb, fb, sizeof fb);
        same = !strcmp(fa, fb);
    }
    free(pa);
    free(pb);
    return same;
}

/* Reads OUT back and checks game by game against the datasets. */
static int verify(ShardSet *set, const Range *r, const char *path, uint64_t written)
{
    XqError err;
    PgnReader *rd = pgn_reader_open(path, &err);
    if (!rd)
        return cli_report("export", &err);
    int status = EXIT_OK;
    uint64_t checked = 0;
    for (uint64_t k = 0; k < set->ngames && status == EXIT_OK; k++) {
        if (!range_has(r, k))
            continue;
        GameRecord g;
        PgnGame pg;
        if (shards_read_game(set, k, &g, &err) < 0) {
            status = cli_report("export", &err);
            break;
        }
        int got = pgn_reader_next(rd, set->variant, &pg, &err);
        if (got < 0) {
            status = cli_report("export", &err);
        } else if (got == 0) {
            status = cli_error(EXIT_FAILURE_RUN, "export", "%s: --verify: ends after %" PRIu64 " games, expected %" PRIu64,
                               path, checked, written);
        } else {
            const char *fen = g.start_fen[0] ? g.start_fen : set->variant->start_fen;
            bool same = pg.nmoves == g.nmoves && same_position(set->variant, pg.start_fen, fen) && pg.result == (Result)g.result &&
                        (g.nmoves == 0 || !memcmp(pg.moves, g.moves, (size_t)g.nmoves * sizeof *g.moves));
            if (!same)
                status = cli_error(EXIT_FAILURE_RUN, "export", "%s:%d: --verify: game %" PRIu64 " differs from the "
                                   "dataset (%d moves read, %d recorded)", path, pg.first_line, k, pg.nmoves, g.nmoves);
            checked++;
            pgn_game_free(&pg);
        }
        game_record_free(&g);
    }
    pgn_reader_close(rd);
    if (status == EXIT_OK)
        fprintf(stderr, "xqlab export: --verify: %" PRIu64 " games read back from %s: same start positions, moves "
                "and results\n", checked, path);
    return status;
}

int cmd_export(int argc, char **argv)
{
    const char *out = NULL, *games = NULL;
    bool check = false, force = false;
    PgnNotation notation = PGN_NOTATION_DEFAULT;
    bool xboard = false;
    char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0, status = EXIT_OK;
    if (!paths)
        return cli_error(EXIT_FAILURE_RUN, "export", "out of memory");
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            free(paths);
            return EXIT_OK;
        }
        if (!strcmp(a, "--pgn") && has)
            out = argv[++i];
        else if (!strcmp(a, "--games") && has)
            games = argv[++i];
        else if (!strcmp(a, "--notation") && has) {
            const char *n = argv[++i];
            if (!strcmp(n, "wxf"))
                notation = PGN_NOTATION_WXF;
            else if (!strcmp(n, "iccs"))
                notation = PGN_NOTATION_ICCS;
            else
                status = cli_error(EXIT_USAGE, "export", "--notation expects iccs or wxf, not '%s'", n);
        }
        else if (!strcmp(a, "--xboard"))
            xboard = true;
        else if (!strcmp(a, "--verify"))
            check = true;
        else if (!strcmp(a, "--force"))
            force = true;
        else if (a[0] == '-' && a[1])
            status = cli_bad_option("export", a, usage);
        else
            paths[npaths++] = argv[i];
    }
    Range range = {.n = 0};
    if (status == EXIT_OK && !npaths)
        status = cli_error(EXIT_USAGE, "export", "no dataset file given (usage: xqlab export DATA.h5... --pgn OUT.pgn)");
    if (status == EXIT_OK && !out)
        status = cli_error(EXIT_USAGE, "export", "needs --pgn OUT.pgn (the only export format so far)");
    if (status == EXIT_OK && xboard && notation == PGN_NOTATION_WXF)
        status = cli_error(EXIT_USAGE, "export", "--xboard writes ICCS moves (XBoard reads no WXF): drop --notation wxf");
    if (xboard)
        notation = PGN_NOTATION_ICCS;
    if (status == EXIT_OK && check && !strcmp(out, "-"))
        status = cli_error(EXIT_USAGE, "export", "--verify needs a file, not '-'");
    if (status == EXIT_OK && games)
        status = parse_range(games, &range);
    if (status != EXIT_OK) {
        free(paths);
        return status;
    }
    bool to_stdout = !strcmp(out, "-");
    CliOutput pgn = CLI_OUTPUT_INIT;
    if (!to_stdout && (status = cli_output_claim(&pgn, "export", "--pgn", out, force ? CLI_OUTPUT_FORCE : 0,
                                                 (const char *const *)paths, npaths)) != EXIT_OK) {
        free(paths);
        return status;
    }
    ShardSet set;
    status = analysis_open("export", &set, paths, npaths);
    if (status != EXIT_OK) {
        cli_output_release(&pgn);
        free(paths);
        return status;
    }
    if (!notation_wxf_default(set.variant) && (xboard || notation == PGN_NOTATION_WXF)) {
        status = cli_error(EXIT_USAGE, "export", xboard ? "--xboard: XBoard plays standard xiangqi only, not %s "
                           "(docs/pgn.md)" : "--notation wxf: WXF is defined for standard xiangqi only, not %s: "
                           "use iccs", set.variant->name);
        shards_close(&set);
        free(paths);
        return status;
    }
    for (int i = 0; i < range.n; i++)
        if (range.lo[i] >= set.ngames) {
            status = cli_error(EXIT_USAGE, "export", "--games %s: game %" PRIu64 " is past the last game (%" PRIu64
                               " games, numbered 0..%" PRIu64 ")", games, range.lo[i], set.ngames,
                               set.ngames ? set.ngames - 1 : 0);
            shards_close(&set);
            cli_output_release(&pgn);
            free(paths);
            return status;
        }
    FILE *f = to_stdout ? stdout : cli_output_fopen(&pgn);
    if (!f) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    uint64_t written = 0;
    XqError err;
    for (uint64_t k = 0; k < set.ngames && status == EXIT_OK; k++) {
        if (!range_has(&range, k))
            continue;
        GameRecord g;
        if (shards_read_game(&set, k, &g, &err) < 0) {
            status = cli_report("export", &err);
            break;
        }
        const DatasetSummary *s = shards_summary(&set, 0);
        char date[16], round[32], player[128], event[160];
        pgn_date(s->created_utc, date, sizeof date);
        snprintf(round, sizeof round, "%" PRIu64, g.index + 1);
        player_name(s, player, sizeof player);
        snprintf(event, sizeof event, "xqlab self-play, %s, base seed %" PRIu64, s->variant_name, s->base_seed);
        PgnTags tags = {event, s->host, date, round, player, player, notation, xboard, NULL};
        if (s->command_line && !strncmp(s->command_line, "xqlab import ", 13)) {
            /* Games of xqlab import: the dataset keeps moves, start, result and termination,
             * not the players, place or date of the original files. */
            snprintf(event, sizeof event, "imported by xqlab, %s", s->variant_name);
            PgnTags unknown = {event, NULL, "????.??.??", round, NULL, NULL, notation, xboard, NULL};
            tags = unknown;
        }
        if (pgn_write_game(f, set.variant, &g, &tags, &err) < 0) {
            snprintf(err.file, sizeof err.file, "%s", shards_path_of(&set, k));
            status = cli_report("export", &err);
        }
        written++;
        game_record_free(&g);
    }
    if (!to_stdout) {
        if (status == EXIT_OK)
            status = cli_output_commit(&pgn);
        if (status == EXIT_OK)
            fprintf(stderr, "xqlab export: %" PRIu64 " games written to %s\n", written, out);
    } else {
        fflush(stdout);
    }
    if (status == EXIT_OK && check)
        status = verify(&set, &range, out, written);
cleanup:
    cli_output_release(&pgn);
    shards_close(&set);
    free(paths);
    return status;
}
