#!/bin/sh
# full_weights.sh - a weights file per rule set with every feature nonzero: the shipped weight
# where it is nonzero, else a fixed small value (-0.11 .. +0.11 by the feature's position), so
# that `xqlab bench eval --weights` (or eval_callgrind.sh WEIGHTS_DIR=) measures the cost of
# full-feature weights, every family of the evaluation computed.
# usage: scripts/bench/full_weights.sh OUTDIR [BUILD_DIR] [VARIANT...]
#   writes OUTDIR/VARIANT.ini for every shipped rule set (or the ones named).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: full_weights.sh OUTDIR [BUILD_DIR] [VARIANT...]" >&2; exit 2; }
OUT=$1
shift
BUILD=${1:-$ROOT/build}
[ $# -gt 0 ] && shift
XQLAB=$BUILD/cli/xqlab
[ -x "$XQLAB" ] || { echo "full_weights.sh: no $XQLAB (build first)" >&2; exit 1; }
VARIANTS=${*:-xiangqi sniper jieqi jieqi-folk banqi banqi-hp cube five-tigers mixed river-camp tuoqi}
mkdir -p "$OUT"
for v in $VARIANTS; do
    # `variants --weights` lists "  NAME  WEIGHT[ mark]" after three header lines; a name may
    # hold spaces ("material.veiled advisor"), the weight is the first number after it.
    "$XQLAB" variants --weights "$v" | awk 'NR > 3 && /^  [^ ]/ {
        line = substr($0, 3)
        if (!match(line, / +-?[0-9][0-9.e+-]*( |$)/)) next
        name = substr(line, 1, RSTART - 1)
        w = substr(line, RSTART, RLENGTH) + 0
        i++
        if (w == 0) w = ((i * 37) % 23 - 11) / 100
        if (w == 0) w = 0.05
        if (i == 1) print "[weights]"
        printf "%s = %.17g\n", name, w
    }' >"$OUT/$v.ini"
    printf '%-12s %4d features -> %s\n' "$v" "$(grep -c ' = ' "$OUT/$v.ini")" "$OUT/$v.ini"
done
