#!/bin/sh
# test_loss_probe.sh - scripts/bench/loss_probe.py on hand-made games against Fairy-Stockfish:
# a pawn given away (e6e5, then the central cannon takes it) is found as the first costly move
# pair with xqlab's own score beside it; only games xqlab lost are probed; a missing file and
# a file without such games are refused with exit 1.
# usage: test_loss_probe.sh PATH/TO/xqlab SOURCE_DIR
set -u
XQLAB="$1"
SRC="$2"
FAIRY=/usr/games/fairy-stockfish
PY=/usr/bin/python3
PROBE="$SRC/scripts/bench/loss_probe.py"
T=$(mktemp -d /tmp/xq_loss_probe.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}
[ -x "$FAIRY" ] || { echo "FAIL $FAIRY missing (scripts/packages.txt installs fairy-stockfish)"; exit 1; }

# Game 1: xqlab (Black) plays e6e5 and loses the pawn to the central cannon. Game 2: xqlab
# (Red) wins, so it is not probed. Game 3: xqlab lost a two-move game with no drop.
cat >"$T/games.pgn" <<'PGN'
[Game "Chinese Chess"]
[Red "Fairy-Stockfish 11.1"]
[Black "xqlab 0.1.0"]
[Result "1-0"]
[Format "ICCS"]

1. h2e2 e6e5 2. e2e5 h9g7 3. h0g2 1-0

[Game "Chinese Chess"]
[Red "xqlab 0.1.0"]
[Black "Fairy-Stockfish 11.1"]
[Result "1-0"]
[Format "ICCS"]

1. h2e2 e6e5 2. e2e5 h9g7 3. h0g2 1-0

[Game "Chinese Chess"]
[Red "xqlab 0.1.0"]
[Black "Fairy-Stockfish 11.1"]
[Result "0-1"]
[Format "ICCS"]

1. h2e2 h9g7 2. h0g2 0-1
PGN
"$PY" "$PROBE" "$T/games.pgn" --xqlab "$XQLAB" --engine "$FAIRY" --engine-ms 50 --xqlab-ms 20 \
    --drop 50 --before 2 >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ]; then
    fail "probe: exit $rc: $(cat "$T/out" "$T/err")"
else
    grep -q '^2 lost games' "$T/out" && echo "ok   lost-games-only" || fail "lost-games-only: $(cat "$T/out")"
    grep -q '^game 1 (xqlab black, 5 plies): referee -\{0,1\}[0-9]* at ply 3; first drop at ply 1: xqlab played e6e5, referee -\{0,1\}[0-9]* -> -[0-9]* (its move [a-i][0-9][a-i][0-9]), xqlab.s own score -\{0,1\}[0-9]*$' "$T/out" &&
        echo "ok   drop-found" || fail "drop-found: $(cat "$T/out")"
    grep -q '^game 3 (xqlab red, 3 plies): referee -\{0,1\}[0-9]* at ply 0; no drop found$' "$T/out" &&
        echo "ok   no-drop" || fail "no-drop: $(cat "$T/out")"
fi

"$PY" "$PROBE" "$T/missing.pgn" --xqlab "$XQLAB" >"$T/out" 2>&1
[ $? -eq 1 ] && grep -q 'missing.pgn' "$T/out" && echo "ok   missing-file" || fail "missing-file: $(cat "$T/out")"
"$PY" "$PROBE" "$T/games.pgn" --xqlab "$XQLAB" --name nobody >"$T/out" 2>&1
[ $? -eq 1 ] && grep -q "no game lost by a player named 'nobody'" "$T/out" &&
    echo "ok   no-lost-games" || fail "no-lost-games: $(cat "$T/out")"
"$PY" "$PROBE" "$T/games.pgn" --xqlab "$XQLAB" --drop 0 >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q 'must be positive' "$T/out" && echo "ok   bad-option" || fail "bad-option: $(cat "$T/out")"

[ "$failures" -eq 0 ] || exit 1
