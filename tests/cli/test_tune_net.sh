#!/bin/sh
# test_tune_net.sh - end to end: `xqlab tune --net` on a small self-play dataset writes a network
# file and a weights file naming it; the players load it; the same seed gives the same bytes;
# existing outputs are refused; a damaged network file stops every command that loads it; bad
# options are usage errors; a linear fit from weights with a network holds it and names it; a
# training run starting from such weights finds it.
# usage: test_tune_net.sh PATH/TO/xqlab
set -u
XQLAB="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }
expect_rc() {
    name="$1"; want="$2"; frag="$3"; shift 4
    "$XQLAB" "$@" < /dev/null > "$dir/o.txt" 2> "$dir/e.txt"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, expected $want ($(cat "$dir/e.txt"))"
    elif ! grep -qF -- "$frag" "$dir/e.txt"; then
        fail "$name: no '$frag' in: $(cat "$dir/e.txt")"
    else
        ok "$name"
    fi
}

"$XQLAB" selfplay -v xiangqi --preset ab --set ab_depth=2 -n 100 -t 1 --seed 3 --progress quiet \
    -o "$dir/xq.h5" > /dev/null 2>&1 || { echo "FAIL selfplay"; exit 1; }

if "$XQLAB" tune "$dir/xq.h5" --net 16 --net-epochs 4 -o "$dir/n.ini" --quiet > "$dir/out.txt" 2>&1; then
    ok "tune --net runs"
else
    fail "tune --net: $(cat "$dir/out.txt")"
fi
[ -s "$dir/n.net" ] && ok "network file next to the weights" || fail "no $dir/n.net"
sum=$(sed -n 's/^checksum = //p' "$dir/n.ini")
grep -q '^\[net\]$' "$dir/n.ini" && grep -qx 'file = n.net' "$dir/n.ini" && [ ${#sum} -eq 16 ] &&
    ok "weights file names the network and its checksum" || fail "[net] section: $(tail -4 "$dir/n.ini")"
grep -q '^; network: 16 hidden units' "$dir/n.ini" && grep -q '^; linear weights: held at ' "$dir/n.ini" &&
    ok "provenance of the network" || fail "provenance: $(grep '^;' "$dir/n.ini")"
grep -q 'loss (cross-entropy): train .* validation ' "$dir/out.txt" && ok "summary printed" ||
    fail "summary: $(cat "$dir/out.txt")"

# Same seed, same network, byte for byte.
"$XQLAB" tune "$dir/xq.h5" --net 16 --net-epochs 4 -o "$dir/m.ini" --quiet > /dev/null 2>&1 &&
    cmp -s "$dir/n.net" "$dir/m.net" && ok "same seed, same network" || fail "the network differs between two runs"

# The players load it (a match between the network and the plain weights), and the network
# changes the evaluation (bench eval's signature).
if "$XQLAB" match -v xiangqi --a "mcts:playouts=8,weights=$dir/n.ini" --b mcts:playouts=8 -n 2 --quiet \
    > "$dir/match.txt" 2>&1; then
    ok "a player with the network plays"
else
    fail "match with the network: $(cat "$dir/match.txt")"
fi
plain=$("$XQLAB" bench eval -v xiangqi --games 4 --repeat 1 | sed -n 's/.*signature \([0-9a-f]*\).*/\1/p')
withnet=$("$XQLAB" bench eval -v xiangqi --games 4 --repeat 1 --weights "$dir/n.ini" | sed -n 's/.*signature \([0-9a-f]*\).*/\1/p')
[ -n "$plain" ] && [ -n "$withnet" ] && [ "$plain" != "$withnet" ] && ok "the network changes the scores" ||
    fail "bench eval signatures: '$plain' and '$withnet'"
"$XQLAB" bench eval -v xiangqi --games 1 --repeat 1 --weights "$dir/n.ini" | grep -q "+ a network of 16 hidden units (checksum $sum)" &&
    ok "the weights line names the network" || fail "weights line: $("$XQLAB" bench eval -v xiangqi --games 1 --repeat 1 --weights "$dir/n.ini" | tail -1)"

# Existing outputs are refused and left as they were.
before=$(cksum < "$dir/n.net")
expect_rc "existing weights file refused" 1 "n.ini" -- tune "$dir/xq.h5" --net 16 -o "$dir/n.ini" --quiet
rm "$dir/m.ini"
expect_rc "existing network file refused" 1 "m.net" -- tune "$dir/xq.h5" --net 16 -o "$dir/m.ini" --quiet
[ "$(cksum < "$dir/n.net")" = "$before" ] && [ ! -e "$dir/m.ini" ] && ok "refusals touched nothing" ||
    fail "a refused run changed its outputs"

# A damaged network: every command that loads the weights stops and names the file.
cp "$dir/n.ini" "$dir/d.ini"
cp "$dir/n.net" "$dir/d.net"
sed -i 's/^file = n.net$/file = d.net/' "$dir/d.ini"
printf 'X' | dd of="$dir/d.net" bs=1 seek=2000 conv=notrunc 2>/dev/null
expect_rc "damaged network: selfplay" 1 "d.net" -- selfplay -v xiangqi -n 1 --weights "$dir/d.ini" \
    -o "$dir/never.h5"
grep -q "checksum" "$dir/e.txt" && ok "says checksum" || fail "damaged network: $(cat "$dir/e.txt")"
[ ! -e "$dir/never.h5" ] && ok "no dataset from a refused run" || fail "selfplay wrote a dataset"
expect_rc "damaged network: engine" 1 "d.net" -- engine -v xiangqi --weights "$dir/d.ini"
sed -i 's/^file = d.net$/file = gone.net/' "$dir/d.ini"
expect_rc "missing network" 1 "gone.net" -- bench eval -v xiangqi --games 1 --weights "$dir/d.ini"

# Bad options.
expect_rc "width not a multiple of 16" 2 "multiple of 16" -- tune "$dir/xq.h5" --net 20
expect_rc "network options need --net" 2 "need --net" -- tune "$dir/xq.h5" --net-epochs 3
expect_rc "--only with --net" 2 "--only" -- tune "$dir/xq.h5" --net 16 --only material -o "$dir/z.ini"
expect_rc "too few positions for the width" 1 "too few" -- tune "$dir/xq.h5" --net 256 -o "$dir/z.ini" --quiet
[ ! -e "$dir/z.ini" ] && [ ! -e "$dir/z.net" ] && ok "no outputs from a refused fit" || fail "a refused fit left files"

# A linear fit starting from weights with a network holds the network (its output a fixed part
# of each position's score) and names it: by its name beside it, by its absolute path elsewhere.
expect_rc "linear fit holds the network" 0 "" -- tune "$dir/xq.h5" --start "$dir/n.ini" -o "$dir/lin.ini" --quiet
grep -qx 'file = n.net' "$dir/lin.ini" && grep -qx "checksum = $sum" "$dir/lin.ini" &&
    grep -q '^; network: held' "$dir/lin.ini" && ok "the linear fit's file names the same network" ||
    fail "linear fit's [net]: $(grep -A2 '^\[net\]' "$dir/lin.ini")"
mkdir "$dir/sub"
expect_rc "linear fit elsewhere" 0 "" -- tune "$dir/xq.h5" --start "$dir/n.ini" -o "$dir/sub/lin.ini" --quiet
grep -qx "file = $(cd "$dir" && pwd -P)/n.net" "$dir/sub/lin.ini" && ok "elsewhere: the absolute path" ||
    fail "elsewhere: $(grep '^file' "$dir/sub/lin.ini")"
"$XQLAB" bench eval -v xiangqi --games 1 --repeat 1 --weights "$dir/sub/lin.ini" 2>&1 | grep -q "a network of 16" &&
    ok "the moved weights load with their network" || fail "the moved weights do not load"
# The held network is part of every position's score: the same linear weights without it start
# the fit at another loss.
sed '/^\[net\]/,$d' "$dir/n.ini" > "$dir/nonet.ini"
"$XQLAB" tune "$dir/xq.h5" --start "$dir/nonet.ini" -o "$dir/plain.ini" --quiet > /dev/null 2>&1
a=$(sed -n 's/^; loss: train \([0-9.]*\) .*/\1/p' "$dir/plain.ini")
b=$(sed -n 's/^; loss: train \([0-9.]*\) .*/\1/p' "$dir/lin.ini")
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] && ok "the network is part of the linear fit ($a without, $b with)" ||
    fail "the same start loss with and without the network: '$a' '$b'"

# A training run starting from weights with a network: gen0's copy names it so that it loads
# from the run folder, and the loop runs a generation with it.
if "$XQLAB" train -o "$dir/run" -v xiangqi -n 8 --playouts 8 --gate-games 4 --gate-set playouts=1 \
    --sprt-min-pairs 0 --tune "--only material" --generations 1 --start "$dir/n.ini" -t 1 --quiet \
    > "$dir/train.txt" 2>&1; then
    ok "train from weights with a network"
else
    fail "train from weights with a network: $(tail -5 "$dir/train.txt")"
fi
grep -qx "file = $(cd "$dir" && pwd -P)/n.net" "$dir/run/gen0/weights.ini" && ok "gen0 names the network" ||
    fail "gen0: $(grep -A2 '^\[net\]' "$dir/run/gen0/weights.ini")"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all passed"
