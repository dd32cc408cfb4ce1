#!/bin/sh
# test_play.sh - runs the built `xqlab play` and checks its status line and exit codes.
# usage: test_play.sh PATH/TO/xqlab
set -u
XQLAB="$1"
failures=0

# expect_run NAME EXPECTED_EXIT EXPECTED_LINE_OR_EMPTY -- ARGS...
expect_run() {
    name="$1"; want_rc="$2"; want_line="$3"; shift 4
    out=$("$XQLAB" play "$@" 2>/tmp/xqlab_play_err.$$)
    rc=$?
    err=$(cat /tmp/xqlab_play_err.$$); rm -f /tmp/xqlab_play_err.$$
    if [ "$rc" -ne "$want_rc" ]; then
        echo "FAIL $name: exit $rc, expected $want_rc (stdout: $out; stderr: $err)"
        failures=$((failures + 1))
        return
    fi
    if [ -n "$want_line" ] && ! printf '%s\n%s\n' "$out" "$err" | grep -qxF -- "$want_line"; then
        echo "FAIL $name: no line '$want_line' in: $out / $err"
        failures=$((failures + 1))
        return
    fi
    echo "ok   $name"
}

# WXF (the notation xqlab's PGN writes for standard xiangqi) replays like ICCS; lower case, N/B and
# '=' are read as in other sources; tandem pieces ("+R.3") and errors name the WXF.
expect_run wxf 0 'fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2' -- --moves 'C2.5 H8+7'
expect_run wxf-spellings 0 'fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2' -- --moves 'c2=5, n8+7'
expect_run wxf-mixed 0 'fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2' -- --moves 'h2e2 H8+7'
expect_run wxf-tandem 0 'fen: 3k5/9/9/9/9/9/9/R8/9/R3K4 b - - 1 1' -- --fen '3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1' --moves '+R+1'
expect_run wxf-tandem-official 0 'fen: 3k5/9/9/9/9/9/9/R8/9/R3K4 b - - 1 1' -- --fen '3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1' --moves 'R++1'
expect_run wxf-tandem-by-file 0 'fen: 3k5/9/9/9/9/9/9/9/4A4/4KA3 b - - 1 1' -- --fen '3k5/9/9/9/9/9/9/5A3/9/4KA3 w - - 0 1' --moves 'A4-5'
expect_run wxf-illegal 1 "xqlab play: move 2: 'H8+6' is not a legal WXF move in this position" -- --moves 'C2.5 H8+6'
expect_run wxf-other-rule-set 1 '' -- -v sniper --moves 'C2.5'
CHASE_FEN='2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1'
CHASE_MOVES='c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2'

expect_run start 0 'status: ongoing' -- --moves 'h2e2 h9g7'
expect_run fen-line 0 'fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2' -- \
    -v xiangqi --moves 'H2-E2, h9g7'
# Black general e9 checked on rank 9 by a9, rank 8 held by b8 (RULES.md: mate loses).
expect_run checkmate 0 'status: win for red (checkmate)' -- \
    --fen '4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1' --moves 'a1a2 e9f9 a2a1 f9e9 a1a9'
expect_run perpetual-chase 0 'status: win for black (perpetual chase)' -- \
    --fen "$CHASE_FEN" --moves "$CHASE_MOVES"
expect_run move-limit 0 'status: draw (move limit)' -- \
    --fen '3k5/9/9/9/9/9/9/9/9/R3K4 w - - 116 80' --moves 'a0a1 d9d8 a1a2 d8d9'
expect_run json 0 '{"variant": "xiangqi", "plies": 0, "fen": "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1", "status": "win for red (checkmate)", "result": "red", "reason": "checkmate", "winner_seat": "first mover", "first_mover_colour": "red"}' -- \
    --json --fen 'R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1'
# The horse on h9 cannot reach h5: move 2 is rejected with its index.
expect_run illegal-move 1 "xqlab play: move 2: 'h9h5': the horse cannot move there" -- --moves 'h2e2 h9h5 a0a1'
# Flying general: e0d0 would face the black general on the open d-file.
expect_run leaves-general-attacked 1 "xqlab play: move 1: 'e0d0': leaves the own general attacked" -- \
    --fen '3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1' --moves 'e0d0'
expect_run after-end 1 "xqlab play: move 10: 'a7b7': the game already ended after ply 9: win for black (perpetual chase)" -- \
    --fen "$CHASE_FEN" --moves "$CHASE_MOVES a7b7"
# A reveal without the drawn identity is a chance move: it used to be played and lost the piece.
expect_run undrawn-reveal 1 "xqlab play: move 1: 'a0a1': a reveal must name the identity turned up (e.g. a0a1R, c3c3n)" -- \
    -v jieqi --moves 'a0a1'
expect_run undrawn-reveal-mark 1 "xqlab play: move 1: 'e3e4?': a reveal must name the identity turned up (e.g. a0a1R, c3c3n)" -- \
    -v jieqi --moves 'e3e4?'
expect_run drawn-reveal 0 'fen: xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/R8/1XXXKXXXX b - - 1 1 [hidden:A2B2N2R1C2P5a2b2n2r2c2p5]' -- \
    -v jieqi --moves 'a0a1R'
# Face-down pieces with no [hidden:] field have no identities to draw (found by fuzz_fen).
expect_run hidden-no-pool 2 "xqlab play: --fen: [hidden:-]: fewer unrevealed identities than face-down pieces of red" -- \
    -v jieqi --fen 'xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1'
# banqi: the first flip assigns colours. Seat 0 drew black (the FEN names colours: black to move)
# and takes seat 1's last piece; the status names the colour and the seat.
expect_run seat-colour 0 'status: win for black, the first mover (no pieces left)' -- \
    -v banqi --fen '8/8/8/rP6 b - - 0 1 [hidden:-/b]' --moves 'a0b0'
expect_run seat-colour-json 0 '{"variant": "banqi", "plies": 1, "fen": "8/8/8/1r6 w - - 0 1 [hidden:-/b]", "status": "win for black, the first mover (no pieces left)", "result": "black", "reason": "no pieces left", "winner_seat": "first mover", "first_mover_colour": "black"}' -- \
    -v banqi --json --fen '8/8/8/rP6 b - - 0 1 [hidden:-/b]' --moves 'a0b0'
# Illegal moves of the rule-module variants get their reason.
expect_run tigers-second-mandatory 1 "xqlab play: move 1: 'e3e4': the second pawn move is mandatory: give both, joined by '+' (e.g. e3e4+a3a4)" -- \
    -v five-tigers --moves 'e3e4'
expect_run tigers-second-not-pawn 1 "xqlab play: move 1: 'e3e4+e0e1': the second sub-move of a turn moves a pawn" -- \
    -v five-tigers --moves 'e3e4+e0e1'
expect_run tigers-alone 1 "xqlab play: move 1: 'd0e1+e3e4': the advisor moves alone; only a pawn makes two sub-moves" -- \
    -v five-tigers --moves 'd0e1+e3e4'
expect_run tigers-bad-second 1 "xqlab play: move 1: 'e3e4+e4e6': the pawn cannot move there" -- \
    -v five-tigers --moves 'e3e4+e4e6'
expect_run tigers-pass 1 "xqlab play: move 1: '0000': the pass only ends a turn after its first pawn sub-move" -- \
    -v five-tigers --moves '0000'
expect_run cube-opposite 1 "xqlab play: move 1: 'e0e0^P': the pawn face is opposite the top; a roll brings up one of the four faces next to it" -- \
    -v cube --moves 'e0e0^P'
expect_run cube-twice 1 "xqlab play: move 3: 'e0e0^A': the general rolled on the last own turn; no two rolls in a row" -- \
    -v cube --moves 'e0e0^N e9e9^N e0e0^A'
expect_run mixed-no-reserve 1 "xqlab play: move 1: 'h2h2=C': no captured cannon in the reserve to exchange for" -- \
    -v mixed --moves 'h2h2=C'
expect_run camp-blocked 1 "xqlab play: move 1: 'b0@': the horse could not cross the river from here (its way to the river is blocked)" -- \
    -v river-camp --moves 'b0@'
expect_run camp-empty 1 "xqlab play: move 1: 'R@e5': no chariot in the camp of the side to move" -- \
    -v river-camp --moves 'R@e5'
expect_run tuoqi-no-pattern 1 "xqlab play: move 1: 'b1b8@b9': the chariot cannot displace onto b8 (it must land on an enemy piece by its displacement pattern, and that piece must have a move)" -- \
    -v tuoqi --moves 'b1b8@b9'
expect_run trailing-module 1 "xqlab play: move 1: 'f4f5PP': unexpected 'PP' after the move f4f5" -- \
    -v tuoqi --moves 'f4f5PP'
expect_run trailing-reveal 1 "xqlab play: move 1: 'a3a4PP': unexpected 'P' after the move" -- \
    -v jieqi --moves 'a3a4PP'
expect_run reveal-not-in-pool 1 "xqlab play: move 1: 'a3a4K': no red general is left in the unrevealed pool" -- \
    -v jieqi --moves 'a3a4K'
expect_run banqi-face-down-moves 1 "xqlab play: move 1: 'a0a1': a face-down piece does not move; it is flipped where it stands (e.g. a0a0)" -- \
    -v banqi --moves 'a0a1'
expect_run trailing-plain 1 "xqlab play: move 1: 'h2e2x': unexpected 'x' after the move" -- --moves 'h2e2x'
expect_run unknown-option 2 "xqlab play: unknown option '--frobnicate' (xqlab play --help lists the options)" -- --frobnicate
expect_run missing-value 2 'xqlab play: --moves needs a value' -- --moves
expect_run help 0 '' -- --help

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
exit 0
