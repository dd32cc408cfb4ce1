#!/bin/sh
# test_shipped_weights.sh - every shipped rule set (configs/variants/NAME.ini) plays with its own
# shipped weights file (configs/weights/NAME.ini): selfplay loads it without error and reports it
# as the nearest shipped weights; the files exported by xqlab train name every feature.
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
    w="$src/configs/weights/$name.ini"
    [ -f "$w" ] || { fail "$name: no configs/weights/$name.ini"; continue; }
    out=$("$XQLAB" selfplay -v "$name" -n 1 --playouts 2 --seed 1 -t 1 --no-output --progress quiet 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | grep '^weights ')
    [ $rc -eq 0 ] && printf '%s\n' "$line" | grep -q "/configs/weights/$name.ini (nearest shipped weights: names" ||
        { fail "$name: exit $rc, $line"; continue; }
    if grep -q '^; Produced by xqlab train' "$w"; then
        printf '%s\n' "$line" | grep -Eq 'names ([0-9]+) of the \1 features' ||
            { fail "$name: the exported file does not name every feature: $line"; continue; }
    fi
    ok "$name: $(printf '%s\n' "$line" | sed 's/^weights *//; s/ (nearest.*//; s/.*configs/configs/')"
done
[ $n -eq 11 ] || fail "$n rule sets, expected 11"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
