#!/bin/sh
# analysis.sh - times the analysis commands on 2,000 standard xiangqi self-play games (the
# acceptance target: report, opening tree and plots in under 10 seconds together).
# usage: scripts/bench/analysis.sh [BUILD_DIR] [DATA.h5] [B.h5]
#   BUILD_DIR defaults to build-analysis; DATA.h5 to /tmp/xq2000.h5, generated if missing
#   (xqlab selfplay -v xiangqi -n 2000 --preset quick: a few minutes on two cores); with B.h5
#   (e.g. the other side of scripts/analysis/walkthrough.sh's A/B test) compare DATA.h5 -- B.h5
#   is timed too.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build-analysis}
DATA=${2:-/tmp/xq2000.h5}
OTHER=${3:-}
XQLAB=$BUILD/cli/xqlab
OUT=$(mktemp -d /tmp/xq-analysis-bench.XXXXXX)
[ -x "$XQLAB" ] || { echo "analysis.sh: no $XQLAB (build first)" >&2; exit 1; }
if [ ! -f "$DATA" ]; then
    echo "generating $DATA (2000 games, preset quick)..." >&2
    "$XQLAB" selfplay -v xiangqi -n 2000 -o "$DATA" --preset quick --progress log >/dev/null
fi

now() { date +%s.%N; }
# timed LABEL CMD...: runs CMD with its output to $OUT, prints the wall time.
total=0
timed() {
    label="$1"; shift
    t0=$(now)
    "$@" >"$OUT/$label.out" 2>"$OUT/$label.err" || { echo "$label failed:" >&2; cat "$OUT/$label.err" >&2; exit 1; }
    t1=$(now)
    dt=$(awk "BEGIN { print $t1 - $t0 }")
    total=$(awk "BEGIN { print $total + $dt }")
    printf '%-34s %6.2f s\n' "$label" "$dt"
}

games=$("$XQLAB" inspect --json "$DATA" | sed -n 's/.*"games": \([0-9]*\).*/\1/p')
echo "data: $DATA ($games games)"
timed "report" "$XQLAB" report "$DATA"
timed "report --json" "$XQLAB" report --json "$DATA"
timed "openings --depth 4 --h5" "$XQLAB" openings "$DATA" --depth 4 --h5 "$OUT/openings.h5"
timed "report --plots" "$XQLAB" report "$DATA" --plots "$OUT/plots"
timed "openings --plots" "$XQLAB" openings "$DATA" --plots "$OUT/plots"
if [ -n "$OTHER" ]; then
    timed "compare" "$XQLAB" compare "$DATA" -- "$OTHER"
    timed "compare --plots" "$XQLAB" compare "$DATA" -- "$OTHER" --plots "$OUT/plots"
fi
printf '%-34s %6.2f s  (target: under 10 s)\n' "total" "$total"
t0=$(now)
"$XQLAB" export "$DATA" --pgn "$OUT/games.pgn" --verify 2>/dev/null
printf '%-34s %6.2f s  (not part of the target)\n' "export --pgn --verify" "$(awk "BEGIN { print $(now) - $t0 }")"
rm -rf "$OUT"
