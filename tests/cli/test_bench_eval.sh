#!/bin/sh
# test_bench_eval.sh - `xqlab bench eval`: one line per rule set with positions, ns per call and a
# signature that is the same on a second run (the scores are deterministic), --weights none changes
# it where the nearest weights had mobility terms, and bad options exit 2 naming the option.
# usage: test_bench_eval.sh PATH/TO/xqlab
set -u
XQLAB="$1"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
    echo "FAIL $1"
    failures=$((failures + 1))
}

"$XQLAB" bench eval --games 2 --plies 20 --repeat 1 >"$tmp/all" 2>&1 || fail "bench eval exit $?"
lines=$(grep -c ' positions .* ns/eval  signature [0-9a-f]\{16\} (sum ' "$tmp/all")
[ "$lines" -eq 11 ] || fail "bench eval: $lines rule-set lines, want 11: $(cat "$tmp/all")"
grep -q '^xiangqi  *40 positions' "$tmp/all" || fail "xiangqi: 2 games of 20 plies are 40 positions"
"$XQLAB" bench eval -v xiangqi --games 3 --repeat 1 >"$tmp/a" 2>&1 || fail "xiangqi run 1"
"$XQLAB" bench eval -v xiangqi --games 3 --repeat 2 >"$tmp/b" 2>&1 || fail "xiangqi run 2"
sig() { sed -n 's/.*signature \([0-9a-f]*\) .*/\1/p' "$1"; }
[ -n "$(sig "$tmp/a")" ] && [ "$(sig "$tmp/a")" = "$(sig "$tmp/b")" ] ||
    fail "signature differs between runs: $(sig "$tmp/a") / $(sig "$tmp/b")"
"$XQLAB" bench eval -v xiangqi --games 3 --repeat 1 --weights none >"$tmp/c" 2>&1 || fail "--weights none"
[ "$(sig "$tmp/a")" != "$(sig "$tmp/c")" ] || fail "--weights none gave the shipped weights' signature"
grep -q 'weights none' "$tmp/c" || fail "--weights none not reported: $(cat "$tmp/c")"
"$XQLAB" bench eval --games 0 >"$tmp/bad" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--games' "$tmp/bad" || fail "--games 0: exit $rc, $(cat "$tmp/bad")"
"$XQLAB" bench eval --frobnicate >"$tmp/bad" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--frobnicate' "$tmp/bad" || fail "unknown option: exit $rc, $(cat "$tmp/bad")"
"$XQLAB" bench eval -v no-such-rules >"$tmp/bad" 2>&1
rc=$?
[ "$rc" -ne 0 ] && grep -q 'no-such-rules' "$tmp/bad" || fail "unknown rule set: exit $rc, $(cat "$tmp/bad")"
"$XQLAB" bench eval --help | grep -q 'usage: xqlab bench eval' || fail "--help"
"$XQLAB" bench --help | grep -q '^  eval ' || fail "bench --help lists eval"
[ "$failures" -eq 0 ] && echo "ok   bench eval" 
exit "$failures"
