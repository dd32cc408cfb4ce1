/* cmd_play.c - `xqlab play`: replay moves from a position, print the final FEN and game status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "hidden.h"
#include "notation.h"
#include "seat.h"
#include "status.h"

static const char *const CMD = "play";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: xqlab play [-v VARIANT] [--fen FEN] [--moves \"h2e2 h9g7 ...\"] [--json]\n\n"
            "Replays the moves from the variant's start position (or FEN) and prints the final\n"
            "position and the game status:\n"
            "  fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n"
            "  status: ongoing | win for red (checkmate) | draw (move limit) | ...\n"
            "In jieqi-folk, banqi and banqi-hp the first reveal assigns the colours, so the\n"
            "status names the winner's colour and seat: win for black, the first mover (...).\n\n"
            "options:\n"
            "  -v, --variant VARIANT  rule set name (configs/variants/NAME.ini) or .ini path\n"
            "                         (default xiangqi)\n"
            "  --fen FEN              start from this position instead of the variant's start\n"
            "  --moves MOVES          moves in ICCS notation (h2e2, also H2-E2), or for standard\n"
            "                         xiangqi also WXF (C2.5, H8+7, +R.3), separated by\n"
            "                         spaces or commas\n"
            "  --json                 print one JSON object instead of the text lines\n"
            "  -h, --help             this help\n\n"
            "The status applies the variant's rules: checkmate and stalemate, repetition verdicts\n"
            "(perpetual check / chase), natural move limit. Exit status: 0 when every move was\n"
            "played; 1 for an illegal move (reported with its 1-based index and why) or a move\n"
            "given after the game ended; 2 for bad options.\n");
}

/* Writes s as a JSON string literal. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* The winner's colour, "draw" or "ongoing"; the winning seat while colours are unassigned. */
static const char *result_word(const Position *pos, Result by_seat)
{
    int seat0 = pos_seat_colour(pos, RED);
    switch (result_by_colour(by_seat, seat0)) {
    case RESULT_RED_WINS: return "red";
    case RESULT_BLACK_WINS: return "black";
    case RESULT_DRAW: return "draw";
    default: break;
    }
    int winner = result_winner_seat(by_seat);
    return winner < 0 ? "ongoing" : seat_name((Side)winner);
}

static void json_seat_colour(FILE *out, const char *key, int colour)
{
    fprintf(out, ", \"%s\": ", key);
    if (colour == RED || colour == BLACK)
        fprintf(out, "\"%s\"", colour_name(colour));
    else
        fprintf(out, "null");
}

typedef struct PlayOptions {
    const char *variant;
    const char *fen;
    const char *moves;
    bool json;
} PlayOptions;

/* Parses the options; returns EXIT_OK, or EXIT_USAGE after printing why (-1 for --help). */
static int parse_options(int argc, char **argv, PlayOptions *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            usage(stdout);
            return -1;
        }
        if (!strcmp(a, "--json")) {
            o->json = true;
            continue;
        }
        const char **slot = NULL;
        if (!strcmp(a, "-v") || !strcmp(a, "--variant"))
            slot = &o->variant;
        else if (!strcmp(a, "--fen"))
            slot = &o->fen;
        else if (!strcmp(a, "--moves"))
            slot = &o->moves;
        if (!slot)
            return cli_bad_option(CMD, a, usage);
        if (i + 1 >= argc)
            return cli_error(EXIT_USAGE, CMD, "%s needs a value", a);
        *slot = argv[++i];
    }
    return EXIT_OK;
}

/* Prints the outcome: the FEN and status lines, or one JSON object. */
static void print_outcome(const PlayOptions *o, const Variant *v, const Position *pos, int plies,
                          GameStatus st)
{
    char fen[512], status[128];
    pos_get_fen(pos, fen, sizeof fen);
    pos_status_describe(pos, st, status, sizeof status);
    if (!o->json) {
        printf("fen: %s\nstatus: %s\n", fen, status);
        return;
    }
    printf("{\"variant\": ");
    json_string(stdout, v->name);
    printf(", \"plies\": %d, \"fen\": ", plies);
    json_string(stdout, fen);
    printf(", \"status\": ");
    json_string(stdout, status);
    printf(", \"result\": \"%s\", \"reason\": \"%s\"", result_word(pos, st.result),
           termination_name(st.reason));
    int winner = result_winner_seat(st.result);
    printf(", \"winner_seat\": ");
    if (winner < 0)
        printf("null");
    else
        printf("\"%s\"", seat_name((Side)winner));
    json_seat_colour(stdout, "first_mover_colour", pos_seat_colour(pos, RED));
    printf("}\n");
}

/* Reports a move that cannot be played: stderr always, a JSON object too with --json. */
static int move_error(const PlayOptions *o, int index, const char *text, const char *why)
{
    if (o->json) {
        printf("{\"error\": ");
        json_string(stdout, why);
        printf(", \"move_index\": %d, \"move\": ", index);
        json_string(stdout, text);
        printf("}\n");
    }
    return cli_error(EXIT_FAILURE_RUN, CMD, "move %d: %s", index, why);
}

int cmd_play(int argc, char **argv)
{
    PlayOptions o = {"xiangqi", NULL, "", false};
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;

    Variant *v = cli_load_variant(o.variant);
    if (!v)
        return EXIT_FAILURE_RUN;
    Position *pos = malloc(sizeof *pos);
    char *moves = malloc(strlen(o.moves) + 1);
    if (!pos || !moves) {
        rc = cli_error(EXIT_FAILURE_RUN, CMD, "out of memory");
        goto cleanup;
    }
    strcpy(moves, o.moves);

    if (o.fen) {
        XqError err;
        if (pos_set_fen(pos, v, o.fen, &err) != 0) {
            rc = cli_error(EXIT_USAGE, CMD, "--fen: %s", err.message);
            goto cleanup;
        }
    } else {
        pos_init_start(pos, v);
    }

    int plies = 0;
    GameStatus st = pos_game_status(pos);
    char *save = NULL;
    for (char *tok = strtok_r(moves, " ,\t\n", &save); tok; tok = strtok_r(NULL, " ,\t\n", &save)) {
        char why[XQ_MSG_MAX];
        if (st.result != RESULT_NONE) {
            char status[128];
            pos_status_describe(pos, st, status, sizeof status);
            snprintf(why, sizeof why, "'%s': the game already ended after ply %d: %s", tok, plies,
                     status);
            rc = move_error(&o, plies + 1, tok, why);
            goto cleanup;
        }
        if (pos->hist_len >= XQ_MAX_HISTORY) {
            snprintf(why, sizeof why, "'%s': more than %d plies cannot be replayed", tok,
                     XQ_MAX_HISTORY);
            rc = move_error(&o, plies + 1, tok, why);
            goto cleanup;
        }
        Move m = move_parse(pos, tok, why, sizeof why);
        if (m == XQ_MOVE_NONE && notation_wxf_default(v)) {
            /* Standard xiangqi also takes WXF, the notation xqlab's own PGN writes. */
            m = move_parse_wxf(pos, tok);
            if (m == XQ_MOVE_NONE && strpbrk(tok, "+.="))
                snprintf(why, sizeof why, "'%s' is not a legal WXF move in this position", tok);
        }
        if (m != XQ_MOVE_NONE && hidden_on(v) && hidden_is_chance(pos, m)) {
            /* Only drawn reveals can be played (hidden.h); a replay must name the identity. */
            snprintf(why, sizeof why, "'%s': a reveal must name the identity turned up (e.g. "
                     "a0a1R, c3c3n)", tok);
            m = XQ_MOVE_NONE;
        }
        if (m == XQ_MOVE_NONE) {
            rc = move_error(&o, plies + 1, tok, why);
            goto cleanup;
        }
        Undo u;
        pos_do_move(pos, m, &u);
        plies++;
        st = pos_game_status(pos);
    }
    print_outcome(&o, v, pos, plies, st);
    rc = EXIT_OK;

cleanup:
    free(moves);
    free(pos);
    variant_free(v);
    return rc;
}
