#!/bin/sh
# eval_callgrind.sh - instructions per eval_score call, per rule set, counted by callgrind (exact
# and independent of machine load, unlike the timings of `xqlab bench eval`).
# usage: scripts/bench/eval_callgrind.sh [BUILD_DIR] [VARIANT...]
#   BUILD_DIR defaults to build; the rule sets to every shipped one. Runs
#   `xqlab bench eval -v VARIANT --games 20 --repeat 1` under valgrind --tool=callgrind and prints
#   the inclusive instructions of eval_score over its calls, with the bench's score signature.
#   WEIGHTS_DIR=DIR: the weights DIR/VARIANT.ini (--weights) instead of the shipped ones.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ $# -gt 0 ] && shift
XQLAB=$BUILD/cli/xqlab
[ -x "$XQLAB" ] || { echo "eval_callgrind.sh: no $XQLAB (build first)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "eval_callgrind.sh: valgrind not found" >&2; exit 1; }
VARIANTS=${*:-xiangqi sniper jieqi jieqi-folk banqi banqi-hp cube five-tigers mixed river-camp tuoqi}
OUT=$(mktemp -d /tmp/xq-eval-callgrind.XXXXXX)
printf '%-12s %10s %8s  %s\n' "rule set" "calls" "Ir/call" "signature"
for v in $VARIANTS; do
    set -- bench eval -v "$v" --games 20 --repeat 1
    [ -n "${WEIGHTS_DIR:-}" ] && set -- "$@" --weights "$WEIGHTS_DIR/$v.ini"
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$v.cg" \
        "$XQLAB" "$@" >"$OUT/$v.out" 2>"$OUT/$v.err" ||
        { echo "eval_callgrind.sh: $v failed:" >&2; cat "$OUT/$v.err" >&2; exit 1; }
    # The caller tree lists eval_score's callers as "IR (..%)  < CALLER (Nx)" above its own
    # "IR (..%)  *  ...:eval_score" line.
    callgrind_annotate --inclusive=yes --tree=caller "$OUT/$v.cg" >"$OUT/$v.txt" 2>/dev/null
    awk -v name="$v" -v sig="$(awk '/signature/ {print $7}' "$OUT/$v.out")" '
        /<.*\(([0-9,]+)x\)/ { last = $0 }
        /\* +[^ ]*:eval_score / {
            ir = $1; gsub(",", "", ir)
            c = last; sub(/.*\(/, "", c); sub(/x\).*/, "", c); gsub(",", "", c)
            printf "%-12s %10d %8.0f  %s\n", name, c, ir / c, sig; exit
        }' "$OUT/$v.txt"
done
rm -rf "$OUT"
