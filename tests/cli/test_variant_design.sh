#!/bin/sh
# test_variant_design.sh - the hop option land=next (a grasshopper) by perft on a hand-made board
# (tests/data/grasshopper.ini, counts worked out by hand below), its errors, and the warnings of
# `xqlab variants --check` about lines that do nothing.
# usage: test_variant_design.sh PATH/TO/xqlab SOURCE_DIR
set -u
XQLAB="$1"
SRC="$2"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
G="$SRC/tests/data/grasshopper.ini"
leaves() { "$XQLAB" perft -v "$1" -d "$2" ${3:+--fen "$3"} 2>&1 | sed -n 's/^depth [0-9]* leaves \([0-9][0-9]*\) .*/\1/p'; }

# Start (Red to move): K a0, S b1, G c1; black stones a1 c2 e1 c5, king e5.
#   K: a0xa1, a0-b0                                                       2
#   G: north over c2 lands on c3 only (c4 and the capture of c5 are a
#      land=any hop's); west over b1 captures a1 right behind it; east over
#      e1 has no point behind; south has no screen                         2
#   S: leap 6,6 leaves the board                                           0
# depth 1 = 4. Black then has the king's d5 and e4 after each of them (no red piece attacks
# them: the grasshopper reaches only the point right behind a screen): depth 2 = 4 x 2 = 8.
[ "$(leaves "$G" 1)" = 4 ] && ok "grasshopper perft 1 = 4" || fail "grasshopper perft 1: $(leaves "$G" 1), expected 4"
[ "$(leaves "$G" 2)" = 8 ] && ok "grasshopper perft 2 = 8" || fail "grasshopper perft 2: $(leaves "$G" 2), expected 8"
"$XQLAB" perft -v "$G" -d 1 --divide 2>&1 | grep -q '^c1c4:' && fail "the grasshopper lands two points behind its screen" ||
    ok "no landing beyond the point behind the screen"
# The same board with land=any: G has c3, c4, xc5 and xa1: depth 1 = 6 (the control: the option
# changes the count).
sed 's/hop = orth land=next/hop = orth land=any/' "$G" >"$WORK/any.ini"
[ "$(leaves "$WORK/any.ini" 1)" = 6 ] && ok "land=any perft 1 = 6" || fail "land=any perft 1: $(leaves "$WORK/any.ini" 1), expected 6"
# Attacks: black king c4 two points behind the screen c2 (G on c0) is not in check; c3, right
# behind the screen, is attacked. Black to move: b4, d4, c5 = 3 (a cannon-like hop would check
# the king and leave 2).
FEN='5/2k2/5/2S2/5/K1G2 b - - 0 1'
[ "$(leaves "$G" 1 "$FEN")" = 3 ] && ok "grasshopper attacks only right behind the screen (3 king moves)" ||
    fail "grasshopper attack: $(leaves "$G" 1 "$FEN") moves, expected 3"
[ "$(leaves "$WORK/any.ini" 1 "$FEN")" = 2 ] && ok "land=any attacks beyond (2 king moves)" ||
    fail "land=any attack: $(leaves "$WORK/any.ini" 1 "$FEN") moves, expected 2"

# Errors of the option, with file and line.
sed 's/hop = orth land=next/hop = orth land=far/' "$G" >"$WORK/bad.ini"
"$XQLAB" variants --check "$WORK/bad.ini" 2>"$WORK/err" && fail "land=far accepted" ||
    { grep -q "bad.ini:18: land expects next" "$WORK/err" && ok "land=far refused with file:line" || fail "land=far: $(cat "$WORK/err")"; }
sed 's/leap = 6,6/leap = 6,6 land=next/' "$G" >"$WORK/bad2.ini"
"$XQLAB" variants --check "$WORK/bad2.ini" 2>"$WORK/err" && fail "land= on a leap accepted" ||
    { grep -q "land= applies to hops only" "$WORK/err" && ok "land= on a leap refused" || fail "land= on a leap: $(cat "$WORK/err")"; }

# variants --check warnings: the stones can never move from their start points; a diagonal
# slide on this board, which draws no diagonal, is named with its line.
"$XQLAB" variants --check "$G" >"$WORK/out" 2>"$WORK/err" || fail "check of the grasshopper board failed: $(cat "$WORK/err")"
grep -q "warning: .*grasshopper.ini: the red stone on b1 can never move from its start point" "$WORK/err" &&
    ok "warns: a start piece that can never move" || fail "no never-moves warning: $(cat "$WORK/err")"
[ "$(grep -c 'can never move' "$WORK/err")" -eq 5 ] && ok "one warning per immobile start piece (5 stones)" ||
    fail "immobile warnings: $(grep -c 'can never move' "$WORK/err")"
sed 's/^leap = 6,6$/slide = diag/' "$G" >"$WORK/diag.ini"
"$XQLAB" variants --check "$WORK/diag.ini" >"$WORK/out" 2>"$WORK/err" || fail "diag board failed: $(cat "$WORK/err")"
grep -q "warning: .*diag.ini:22: stone: a slide along diagonals, but the board draws no diagonal line" "$WORK/err" &&
    ok "warns: slide = diag on a board without diagonals" || fail "no diagonal warning: $(cat "$WORK/err")"
printf 'lines = a0-e4\n' >"$WORK/line"
sed '/^grid = a0-e5$/r '"$WORK/line" "$WORK/diag.ini" >"$WORK/diag2.ini"
"$XQLAB" variants --check "$WORK/diag2.ini" 2>"$WORK/err" >/dev/null
grep -q "draws no diagonal" "$WORK/err" && fail "diagonal warning with a diagonal drawn" || ok "no diagonal warning once a diagonal is drawn"
# The shipped rule sets give no diagonal warning.
for f in "$SRC"/configs/variants/*.ini; do
    "$XQLAB" variants --check "$f" 2>&1 >/dev/null | grep -q "warning" && fail "$(basename "$f"): a warning"
done
ok "shipped rule sets: no warning"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
