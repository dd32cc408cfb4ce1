#!/bin/sh
# test_shipped_weights.sh - every shipped rule set (configs/variants/NAME.ini) plays with its own
# shipped weights file: selfplay's alpha-beta player loads configs/weights/NAME.ini and its MCTS
# player configs/weights/NAME-mcts.ini where that file exists (else NAME.ini), each without error
# and reported as the nearest shipped weights; the files exported by xqlab train name every
# feature.
# usage: test_shipped_weights.sh PATH/TO/xqlab SOURCE_DIR
set -u
XQLAB=$1
src=$2
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }
n=0
for f in "$src"/configs/variants/*.ini; do
    name=$(basename "$f" .ini)
    n=$((n + 1))
    [ -f "$src/configs/weights/$name.ini" ] || { fail "$name: no configs/weights/$name.ini"; continue; }
    for search in ab mcts; do
        file=$name.ini
        for_mcts=""
        if [ $search = mcts ] && [ -f "$src/configs/weights/$name-mcts.ini" ]; then
            file=$name-mcts.ini
            for_mcts=" for the MCTS player"
        fi
        out=$("$XQLAB" selfplay -v "$name" -n 1 --playouts 2 --set search=$search --set ab_depth=1 --seed 1 -t 1 \
              --no-output --progress quiet 2>&1)
        rc=$?
        line=$(printf '%s\n' "$out" | grep '^weights ')
        [ $rc -eq 0 ] && printf '%s\n' "$line" | grep -q "/configs/weights/$file (nearest shipped weights$for_mcts: names" ||
            { fail "$name, search $search: exit $rc, $line"; continue; }
        if grep -q '^; Produced by xqlab train' "$src/configs/weights/$file"; then
            printf '%s\n' "$line" | grep -Eq 'names ([0-9]+) of the \1 features' ||
                { fail "$name: the exported file does not name every feature: $line"; continue; }
        fi
        ok "$name, search $search: $(printf '%s\n' "$line" | sed 's/^weights *//; s/ (nearest.*//; s/.*configs/configs/')"
    done
done
[ $n -eq 11 ] || fail "$n rule sets, expected 11"
# match chooses for each player: an MCTS player sniper-mcts.ini, an alpha-beta player and a greedy
# one (no search) sniper.ini.
out=$("$XQLAB" match -v sniper --a greedy --b mcts:playouts=2 -n 2 --quiet 2>&1)
printf '%s\n' "$out" | grep -q '^weights A: .*/configs/weights/sniper.ini (nearest' &&
    printf '%s\n' "$out" | grep -q '^weights B: .*/configs/weights/sniper-mcts.ini (nearest shipped weights for the MCTS player' &&
    ok "match: greedy sniper.ini, mcts sniper-mcts.ini" || fail "match greedy/mcts: $out"
out=$("$XQLAB" match -v sniper --a mcts:search=ab,ab_depth=1 --b mcts:playouts=2 -n 2 --quiet 2>&1)
printf '%s\n' "$out" | grep -q '^weights A: .*/configs/weights/sniper.ini (nearest' &&
    printf '%s\n' "$out" | grep -q '^weights B: .*/configs/weights/sniper-mcts.ini' &&
    ok "match: alpha-beta sniper.ini, mcts sniper-mcts.ini" || fail "match ab/mcts: $out"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
