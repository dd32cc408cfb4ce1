#!/bin/sh
# test_depth.sh - scripts/bench/depth.sh: positions to a fixed depth over book openings are
# positive, the same on a second run (a fixed depth is exact), grow with the openings and the
# depth, follow a --set parameter, and bad options and a rule set without a book are refused.
# usage: test_depth.sh PATH/TO/xqlab SOURCE_DIR
set -u
XQLAB="$1"
SRC="$2"
export XQLAB
D="$SRC/scripts/bench/depth.sh"
failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}
positions() { echo "$1" | sed -n 's/.* positions \([0-9]*\) seconds.*/\1/p'; }

a=$(sh "$D" -d 4 -n 3) || fail "depth.sh -d 4 -n 3 failed: $a"
b=$(sh "$D" -d 4 -n 3) || fail "second run failed: $b"
pa=$(positions "$a")
pb=$(positions "$b")
echo "$a" | grep -q '^depth 4: openings 3 positions [1-9][0-9]* seconds' || fail "format: $a"
[ -n "$pa" ] && [ "$pa" = "$pb" ] || fail "two runs differ: '$pa' and '$pb'"
one=$(positions "$(sh "$D" -d 4 -n 1)")
[ -n "$one" ] && [ "$one" -lt "$pa" ] || fail "one opening ($one) not fewer than three ($pa)"
deep=$(positions "$(sh "$D" -d 5 -n 3)")
[ -n "$deep" ] && [ "$deep" -gt "$pa" ] || fail "depth 5 ($deep) not more than depth 4 ($pa)"
plain=$(positions "$(sh "$D" -d 4 -n 3 --set see_prune=0 --set see_order=0)")
[ -n "$plain" ] && [ "$plain" != "$pa" ] || fail "--set did not reach the search: $plain"
sn=$(sh "$D" -v sniper -d 3 -n 2) || fail "sniper book: $sn"

err=$(sh "$D" -d x 2>&1)
[ $? -eq 2 ] && echo "$err" | grep -q "expected a depth" || fail "bad depth: $err"
err=$(sh "$D" -d 40 2>&1)
[ $? -eq 2 ] || fail "depth 40 accepted: $err"
err=$(sh "$D" --bogus 2>&1)
[ $? -eq 2 ] && echo "$err" | grep -q "unknown option '--bogus'" || fail "bad option: $err"
err=$(sh "$D" -v banqi 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "no opening book configs/openings/banqi.txt" || fail "no book: $err"
err=$(XQLAB=/nonexistent sh "$D" -d 2 -n 1 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "not an executable" || fail "missing build: $err"

[ "$failures" -eq 0 ] || exit 1
echo "test_depth: ok"
