#!/bin/sh
# test_tune.sh - end to end: self-play a few games, tune on them, load the learned weights in a
# match with --sprt, thread-count determinism of the weights file, and the exit codes of bad input.
# usage: test_tune.sh PATH/TO/xqlab
set -u
XQLAB="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }

"$XQLAB" selfplay -v xiangqi -n 40 --playouts 16 --progress quiet -o "$dir/xq.h5" > /dev/null 2>&1 ||
    { echo "FAIL selfplay"; exit 1; }
"$XQLAB" selfplay -v sniper -n 4 --playouts 16 --progress quiet -o "$dir/sniper.h5" > /dev/null 2>&1 ||
    { echo "FAIL selfplay sniper"; exit 1; }

if "$XQLAB" tune "$dir/xq.h5" -o "$dir/w1.ini" -t 1 --quiet --root-blend 0.5 > "$dir/out1.txt" 2>&1 &&
   "$XQLAB" tune "$dir/xq.h5" -o "$dir/w2.ini" -t 2 --quiet --root-blend 0.5 > /dev/null 2>&1; then
    ok "tune runs"
else
    fail "tune runs: $(cat "$dir/out1.txt")"
fi
grep -q '^material.chariot = ' "$dir/w1.ini" && grep -q '^; data:' "$dir/w1.ini" && ok "weights file" ||
    fail "weights file lacks weights or provenance"
grep -q '"piece_values"' "$dir/w1.json" && grep -q '"se_cluster"' "$dir/w1.json" && ok "piece-value json" ||
    fail "piece-value json"
# Same weights on 1 and 2 threads (the provenance lines differ only by the command and time).
if [ "$(grep -v '^;' "$dir/w1.ini" | cksum)" = "$(grep -v '^;' "$dir/w2.ini" | cksum)" ]; then
    ok "thread-count determinism"
else
    fail "weights differ between 1 and 2 threads"
fi
# The default is the recommended --root-blend 1 (docs/training.md), and 40 games are too few for
# the fitted piece values: one warning names them with their errors and the game count.
"$XQLAB" tune "$dir/xq.h5" -o "$dir/w3.ini" --quiet > /dev/null 2> "$dir/err3.txt" || fail "tune with defaults"
grep -q '"root_blend": 1,' "$dir/w3.json" && ok "default root blend 1" || fail "default root blend: $(grep -o '"root_blend": [^,]*' "$dir/w3.json")"
grep -q 'warning: too few data for [0-9]* fitted piece value.*from [0-9]* training games' "$dir/err3.txt" &&
    ok "warns about too few data" || fail "no too-few-data warning: $(cat "$dir/err3.txt")"
if "$XQLAB" match -v xiangqi --a "mcts:playouts=8,weights=$dir/w1.ini" --b mcts:playouts=8 -n 6 \
       --sprt 0,10,0.05,0.05 --quiet --json > "$dir/match.json" 2>&1 &&
   grep -q '"elo_95"' "$dir/match.json" && grep -q '"verdict"' "$dir/match.json"; then
    ok "match loads the weights, prints Elo and SPRT"
else
    fail "match: $(cat "$dir/match.json")"
fi

# expect_rc NAME RC FRAGMENT -- ARGS...
expect_rc() {
    name="$1"; want="$2"; frag="$3"; shift 4
    "$XQLAB" "$@" > "$dir/o.txt" 2> "$dir/e.txt"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, expected $want ($(cat "$dir/e.txt"))"
    elif ! grep -qF -- "$frag" "$dir/e.txt"; then
        fail "$name: no '$frag' in: $(cat "$dir/e.txt")"
    else
        ok "$name"
    fi
}
: > "$dir/empty.h5"
expect_rc "no files" 2 "needs at least one dataset" -- tune
expect_rc "missing file" 1 "no such file" -- tune "$dir/nope.h5"
expect_rc "not HDF5" 1 "not a readable HDF5 file" -- tune "$dir/empty.h5"
expect_rc "mixed variants" 1 "mixed variants" -- tune "$dir/xq.h5" "$dir/sniper.h5" -o "$dir/x.ini"
expect_rc "bad prefix" 2 "matches no feature" -- tune "$dir/xq.h5" --only nosuch
expect_rc "bad option" 2 "unknown option" -- tune "$dir/xq.h5" --bogus
expect_rc "bad sprt" 2 "--sprt" -- match -v xiangqi --a random --b random --sprt 0,10,0.6,0.05
# Resource bounds (docs/errors.md): a player whose searches fill the smallest arena plays on
# with fewer playouts and the match warns, naming the player; B (greedy) never searches.
expect_rc "match arena warning" 0 "warning: " -- match -v xiangqi --a mcts:arena_nodes=512,playouts=2000 \
    --b greedy -n 2 --quiet
grep -q "searches of player A filled the node arena (arena_nodes = 512)" "$dir/e.txt" &&
    ! grep -q "player B" "$dir/e.txt" && ok "match arena warning names player A only" ||
    fail "match arena warning: $(cat "$dir/e.txt")"
"$XQLAB" match -v xiangqi --a mcts:playouts=16 --b greedy -n 2 --quiet >/dev/null 2>"$dir/e.txt" &&
    ! grep -q "warning" "$dir/e.txt" && ok "no warning with room in the arena" ||
    fail "match with room in the arena: $(cat "$dir/e.txt")"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all passed"
