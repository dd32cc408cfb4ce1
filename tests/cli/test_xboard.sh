#!/bin/sh
# test_xboard.sh - Debian's xboard (4.9) loads the PGN that `xqlab export --xboard` writes and
# reaches each game's last position: xboard runs under xvfb-run with -lgf FILE -lgi K in a
# one-game match of two stand-in engines that resign at once (xboard_resigner.sh), saves the final
# position with -spf, and that position must be the one xqlab reaches replaying the same game.
# usage: test_xboard.sh PATH/TO/xqlab HDF5_PLUGIN_DIR SOURCE_DIR
# Exits 77 (skipped) only when xboard or xvfb-run is not installed (scripts/packages.txt has both).
set -u
XQLAB="$1"
export HDF5_PLUGIN_PATH="$2"
SRC="$3"
XBOARD=$(command -v xboard || echo /usr/games/xboard)
if [ ! -x "$XBOARD" ] || ! command -v xvfb-run >/dev/null; then
    echo "SKIP: xboard or xvfb-run not installed (apt-get install xboard xvfb)"
    exit 77
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# Three games from the start, two from a FEN after 1. h2e2 (a [SetUp]/[FEN] game, Black to move).
FEN='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
"$XQLAB" selfplay -v xiangqi -n 3 --playouts 24 --seed 5 -o "$WORK/start.h5" --progress quiet >/dev/null ||
    fail "selfplay from the start"
"$XQLAB" selfplay -v xiangqi -n 2 --playouts 24 --seed 6 --fen "$FEN" -o "$WORK/fen.h5" --progress quiet >/dev/null ||
    fail "selfplay from a FEN"
for set in start fen; do
    "$XQLAB" export "$WORK/$set.h5" --pgn "$WORK/$set.pgn" --xboard --verify 2>"$WORK/export.err" ||
        { fail "export --xboard $set: $(cat "$WORK/export.err")"; continue; }
    grep -qx '\[Variant "xiangqi"\]' "$WORK/$set.pgn" && ok "$set: [Variant \"xiangqi\"]" || fail "$set: no [Variant \"xiangqi\"]"
    grep -qx '\[Format "ICCS"\]' "$WORK/$set.pgn" && ok "$set: [Format \"ICCS\"]" || fail "$set: not ICCS"
done
grep -q '^\[FEN "rheakaehr/' "$WORK/fen.pgn" && grep -qx '\[SetUp "1"\]' "$WORK/fen.pgn" &&
    ok "fen: [SetUp] and [FEN] with XBoard's letters" || fail "fen: [FEN] not in XBoard's letters"

# xqlab's final position of game K (1-based) of a PGN file: its [FEN] (or the start) and moves.
xqlab_final() {
    awk -v k="$2" '/^\[Event /{n++} n==k' "$1" >"$WORK/one.pgn"
    fen=$(sed -n 's/^\[FEN "\(.*\)"\]$/\1/p' "$WORK/one.pgn")
    moves=$(sed '/^\[/d' "$WORK/one.pgn" | tr '\n' ' ' |
            sed 's/[0-9][0-9]*\.\.*//g; s/1-0//; s/0-1//; s#1/2-1/2##; s/\*//')
    if [ -n "$fen" ]; then
        "$XQLAB" play --fen "$fen" --moves "$moves"
    else
        "$XQLAB" play --moves "$moves"
    fi | sed -n 's/^fen: //p'
}

check_game() { # FILE K
    rm -f "$WORK/final.fen"
    timeout 120 xvfb-run -a "$XBOARD" -variant xiangqi -lgf "$1" -lgi "$2" -td 0 -mm -mg 1 \
        -fcp "sh $SRC/tests/cli/xboard_resigner.sh" -scp "sh $SRC/tests/cli/xboard_resigner.sh" \
        -spf "$WORK/final.fen" -tc 5 -popupExitMessage false -popupMoveErrors false \
        >"$WORK/xboard.out" 2>&1
    rc=$?
    name="xboard -lgf $(basename "$1") -lgi $2"
    if grep -qi 'illegal\|bad \|error' "$WORK/xboard.out"; then
        fail "$name: $(tr '\n' ' ' <"$WORK/xboard.out")"
        return
    fi
    if [ "$rc" -ne 0 ] || [ ! -s "$WORK/final.fen" ]; then
        fail "$name: exit $rc, no final position ($(tr '\n' ' ' <"$WORK/xboard.out"))"
        return
    fi
    # XBoard's FEN: H/E for horse/elephant, side w/b; compare the board and the side to move.
    got=$(head -1 "$WORK/final.fen" | awk '{print $1, $2}' | tr 'HhEe' 'NnBb')
    want=$(xqlab_final "$1" "$2" | awk '{print $1, $2}')
    if [ -n "$want" ] && [ "$got" = "$want" ]; then
        ok "$name reaches the last position ($want)"
    else
        fail "$name: xboard ends at '$got', xqlab at '$want'"
    fi
}
for k in 1 2 3; do check_game "$WORK/start.pgn" $k; done
for k in 1 2; do check_game "$WORK/fen.pgn" $k; done

# Control: WXF (xqlab's default for standard xiangqi) is what xboard 4.9 cannot read, the reason
# for --xboard; the same check must see that game fail.
"$XQLAB" export "$WORK/start.h5" --pgn "$WORK/wxf.pgn" --games 0 2>/dev/null
grep -qx '\[Format "WXF"\]' "$WORK/wxf.pgn" && ok "default for xiangqi stays WXF" || fail "default is not WXF"
before=$failures
check_game "$WORK/wxf.pgn" 1 >"$WORK/control.out"
if [ "$failures" -gt "$before" ]; then
    failures=$before
    ok "control: the check sees xboard fail on WXF ($(sed 's/^FAIL //' "$WORK/control.out" | cut -c1-80))"
else
    fail "control: xboard reached the end of a WXF game, the check cannot fail"
fi

echo "$failures failed"
[ "$failures" -eq 0 ]
