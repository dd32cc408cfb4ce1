#!/bin/sh
# test_xboard_gui.sh - a real GUI: Debian's xboard, headless under xvfb-run, plays one engine-engine
# game of xiangqi in match mode between `xqlab engine` (XBoard protocol) and fairy-stockfish, to
# the end, at 10 s a side plus 0.1 s a move, with xboard calling flags. Checks that the game finished with a result, that both engines moved,
# that nobody lost on time or by an illegal move, and that xqlab answered no command with an error.
# usage: test_xboard_gui.sh PATH/TO/xqlab
# Exit 77 (skipped, not passed) if xboard, xvfb-run or fairy-stockfish is not installed.
set -u
XQLAB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
XBOARD=/usr/games/xboard
FAIRY=/usr/games/fairy-stockfish
for tool in "$XBOARD" "$FAIRY" "$(command -v xvfb-run)"; do
    if [ ! -x "$tool" ]; then
        echo "skip: $tool missing (packages xboard, xvfb, fairy-stockfish)"
        exit 77
    fi
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() {
    echo "FAIL $1"
    for f in "$WORK"/xboard.out "$WORK"/xqlab.log "$WORK"/xboard.debug "$WORK"/game.pgn; do
        [ -f "$f" ] && { echo "--- $f"; grep -v '^ALSA lib\|^aplay:' "$f" | tail -40; }
    done
    exit 1
}

# xboard runs an engine as a shell command line in its directory; the wrapper keeps a log.
cat > "$WORK/xqlab.sh" <<EOF
#!/bin/sh
exec "$XQLAB" engine --log "$WORK/xqlab.log"
EOF
chmod +x "$WORK/xqlab.sh"

# -mm -mg 1: match mode, one game, then exit; -xexit: the final score goes to standard error
# instead of a dialog that waits for a click. -tc 0:10 -inc 0.1: 10 seconds per side plus 0.1 s
# a move, and -autoflag makes xboard end the game when a clock runs out (without it a game
# whose clocks ran down goes on at negative times; on 2026-12-07 one game in CI, its clocks
# down to hundredths of a second, never ended). -adjudicateDrawMoves 200 bounds a shuffling endgame: xboard's own xiangqi repetition
# rules do not always end one. (xboard also waits on a dialog after an engine failure: the
# time limit ends that.)
timeout 150 xvfb-run -a "$XBOARD" -variant xiangqi -mm -mg 1 -xexit \
    -fcp "$WORK/xqlab.sh" -fd "$WORK" -scp "$FAIRY" -sd "$WORK" \
    -tc 0:10 -inc 0.1 -autoflag -adjudicateDrawMoves 200 -saveGameFile "$WORK/game.pgn" -debug -nameOfDebugFile "$WORK/xboard.debug" \
    >"$WORK/xboard.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "xboard exited with $rc"
[ -s "$WORK/game.pgn" ] || fail "no game saved"
grep -q '^\[White "xqlab' "$WORK/game.pgn" || fail "xqlab is not White (Red) in the saved game"
grep -q '^\[Black "fairy-stockfish' "$WORK/game.pgn" || fail "fairy-stockfish is not Black"
grep -q '^\[Variant "xiangqi"\]' "$WORK/game.pgn" || fail "not a xiangqi game"
result=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$WORK/game.pgn")
case "$result" in
    1-0|0-1|1/2-1/2) ;;
    *) fail "the game did not finish: Result '$result'" ;;
esac
# The closing comment says how it ended; neither time forfeits nor illegal moves may end it.
if grep -Eiq 'wins on time|flag fell|forfeit|loses on time|illegal move|false' "$WORK/game.pgn"; then
    fail "the game ended by a forfeit or an illegal move: $(tail -3 "$WORK/game.pgn")"
fi
moves=$(grep -c '^> move ' "$WORK/xqlab.log")
[ "$moves" -ge 5 ] || fail "xqlab made only $moves moves"
grep -q '^< usermove ' "$WORK/xqlab.log" || fail "xqlab received no opponent move"
if grep -Eq '^> (Error|Illegal move|tellusererror)' "$WORK/xqlab.log"; then
    fail "xqlab answered a command with an error: $(grep -E '^> (Error|Illegal|tell)' "$WORK/xqlab.log" | head -3)"
fi
echo "ok   xboard match game: $result, xqlab played $moves moves"
