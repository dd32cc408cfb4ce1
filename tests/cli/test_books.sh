#!/bin/sh
# test_books.sh - --openings FILE of selfplay, match and ladder (games 2k and 2k+1 from opening
# k, cycling; the opening's moves are part of the games), match --pgn (the games kept, never
# overwritten without --force), --fen for match and ladder, and selfplay --json's run description.
# usage: test_books.sh PATH/TO/xqlab HDF5_PLUGIN_DIR
set -u
XQLAB="$1"
export HDF5_PLUGIN_PATH="$2"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
expect() {
    name="$1"; want="$2"; pattern="$3"; shift 4
    "$XQLAB" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, expected $want: $(head -c 600 "$WORK/err")"
    elif [ -n "$pattern" ] && ! cat "$WORK/out" "$WORK/err" | grep -Eq -- "$pattern"; then
        fail "$name: no match for '$pattern' in: $(head -c 600 "$WORK/out") / $(head -c 600 "$WORK/err")"
    else
        ok "$name"
    fi
}
# The first moves (ICCS) of game K (1-based) of a PGN file, and its [FEN] if any.
first_moves() {
    awk -v k="$2" '/^\[Event /{n++} n==k' "$1" | sed '/^\[/d' | tr '\n' ' ' |
        awk -v m="$3" '{s=""; c=0; for (i = 1; i <= NF && c < m; i++) if ($i !~ /^[0-9]+\.+$/) {s = c ? s" "$i : $i; c++}; print s}'
}
fen_of() { awk -v k="$2" '/^\[Event /{n++} n==k' "$1" | sed -n 's/^\[FEN "\(.*\)"\]$/\1/p'; }

FEN='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
cat >"$WORK/book.txt" <<BOOK
# three openings: moves, a move, a FEN with a move
h2e2 h9g7
b2e2
$FEN moves b9c7
BOOK

# selfplay: 8 games over 3 openings: games 0,1 -> opening 0, 2,3 -> 1, 4,5 -> 2, 6,7 -> 0 again.
expect selfplay-book 0 '"openings": ' -- selfplay -v xiangqi -n 8 --playouts 16 --openings "$WORK/book.txt" \
    -o "$WORK/sp.h5" --progress quiet --json
grep -q '"variant": "xiangqi", "dataset": "'"$WORK/sp.h5"'"' "$WORK/out" && grep -q '"settings": {"playouts": 16' "$WORK/out" &&
    ok "selfplay --json names variant, dataset and settings" || fail "selfplay --json: $(head -c 300 "$WORK/out")"
"$XQLAB" export "$WORK/sp.h5" --pgn "$WORK/sp.pgn" --notation iccs 2>/dev/null
for k in 1 2 7 8; do
    [ "$(first_moves "$WORK/sp.pgn" $k 2)" = "h2e2 h9g7" ] && ok "selfplay game $k opens h2e2 h9g7" ||
        fail "selfplay game $k: $(first_moves "$WORK/sp.pgn" $k 2)"
done
for k in 3 4; do
    [ "$(first_moves "$WORK/sp.pgn" $k 1)" = "b2e2" ] && ok "selfplay game $k opens b2e2" || fail "selfplay game $k: $(first_moves "$WORK/sp.pgn" $k 1)"
done
for k in 5 6; do
    [ "$(fen_of "$WORK/sp.pgn" $k)" = "$FEN" ] && [ "$(first_moves "$WORK/sp.pgn" $k 1)" = "b9c7" ] &&
        ok "selfplay game $k: the book's FEN, then b9c7" || fail "selfplay game $k: $(fen_of "$WORK/sp.pgn" $k) / $(first_moves "$WORK/sp.pgn" $k 1)"
done
# Book moves are recorded unsearched: the first positions of game 0 have no visits (Debian's h5py,
# /usr/bin/python3, from scripts/packages.txt).
/usr/bin/python3 - "$WORK/sp.h5" <<'PY' && ok "book positions unsearched (visits 0, root_value missing), searched ones not" || fail "book positions"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
p = f["positions"]
first = int(f["games/first_position"][0])
assert p["visits"][first] == 0 and p["visits"][first + 1] == 0, "book moves have visits"
assert p["root_value"][first] == -32768 and p["root_value"][first + 1] == -32768, "book moves have values"
assert p["visits"][first + 2] > 0, "the first searched move has no visits"
PY

# match: pairs cycle through the book, A Red in game 2k+1 (1-based odd), Black in the next.
expect match-book 0 '6 games written' -- match -v xiangqi --a mcts:playouts=16 --b random -n 6 --quiet \
    --openings "$WORK/book.txt" --pgn "$WORK/m.pgn"
[ "$(grep -c '^\[Event ' "$WORK/m.pgn")" -eq 6 ] && ok "match --pgn keeps 6 games" || fail "match --pgn: $(grep -c '^\[Event ' "$WORK/m.pgn") games"
for k in 1 2; do
    [ "$(first_moves "$WORK/m.pgn" $k 2)" = "C2.5 H8+7" ] && ok "match game $k opens with the book's first line" ||
        fail "match game $k: $(first_moves "$WORK/m.pgn" $k 2)"
done
[ "$(fen_of "$WORK/m.pgn" 5)" = "$FEN" ] && [ "$(fen_of "$WORK/m.pgn" 6)" = "$FEN" ] && ok "match pair 3 from the book's FEN" ||
    fail "match pair 3: '$(fen_of "$WORK/m.pgn" 5)'"
awk '/^\[Red /{print}' "$WORK/m.pgn" | head -2 | tr '\n' ' ' | grep -q '\[Red "A: mcts:playouts=16"\] \[Red "B: random"\]' &&
    ok "match --pgn: A is Red in game 1, B in game 2" || fail "match --pgn colours: $(grep '^\[Red ' "$WORK/m.pgn" | head -2)"
expect match-pgn-exists 1 'already exists: choose another --pgn, or add --force' -- match -v xiangqi --a random --b random -n 2 --pgn "$WORK/m.pgn" --quiet
[ "$(grep -c '^\[Event ' "$WORK/m.pgn")" -eq 6 ] && ok "existing --pgn untouched" || fail "existing --pgn changed"
expect match-pgn-force 0 '2 games written' -- match -v xiangqi --a random --b random -n 2 --pgn "$WORK/m.pgn" --quiet --force
expect match-pgn-imports 0 '2 games of xiangqi imported' -- import "$WORK/m.pgn" -o "$WORK/m.h5"
expect match-fen 0 '2 games written' -- match -v xiangqi --a random --b random -n 2 --fen "$FEN" --opening-plies 0 --pgn "$WORK/f.pgn" --quiet
[ "$(fen_of "$WORK/f.pgn" 1)" = "$FEN" ] && ok "match --fen starts there" || fail "match --fen: '$(fen_of "$WORK/f.pgn" 1)'"

# ladder: every rung plays the book.
expect ladder-book 0 '' -- ladder -v xiangqi --playouts 8,16 -n 4 --openings "$WORK/book.txt" -o "$WORK/lad"
"$XQLAB" export "$WORK/lad/xiangqi-p16.h5" --pgn "$WORK/lad.pgn" --notation iccs 2>/dev/null
[ "$(first_moves "$WORK/lad.pgn" 3 1)" = "b2e2" ] && ok "ladder rung plays the book" || fail "ladder: $(first_moves "$WORK/lad.pgn" 3 1)"
expect ladder-fen 0 '' -- ladder -v xiangqi --playouts 8 -n 2 --fen "$FEN" -o "$WORK/ladf"
"$XQLAB" export "$WORK/ladf/xiangqi-p8.h5" --pgn "$WORK/ladf.pgn" 2>/dev/null
[ "$(fen_of "$WORK/ladf.pgn" 1)" = "$FEN" ] && ok "ladder --fen" || fail "ladder --fen: '$(fen_of "$WORK/ladf.pgn" 1)'"

# Refusals.
printf 'h2e2 h9g7\nh2e2 zz\n' >"$WORK/bad.txt"
expect bad-book 1 'bad.txt:2' -- selfplay -v xiangqi -n 2 --openings "$WORK/bad.txt" --no-output
expect bad-book-match 1 'bad.txt:2' -- match -v xiangqi --a random --b random -n 2 --openings "$WORK/bad.txt"
expect fen-and-book 2 '--fen and --openings exclude each other' -- selfplay -v xiangqi --fen "$FEN" --openings "$WORK/book.txt" --no-output
expect plies-and-book 2 '--openings and --opening-plies exclude each other' -- match -v xiangqi --a random --b random --openings "$WORK/book.txt" --opening-plies 2
expect missing-book 1 'nonexistent.txt' -- ladder -v xiangqi --playouts 8 -n 2 --openings "$WORK/nonexistent.txt"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
