#!/bin/sh
# walkthrough.sh - makes every number and plot of docs/analysis.md's walk-through from scratch,
# with the default player of the build it is given: a self-play batch of standard xiangqi, its
# balance card and opening tree, a banqi run with paired deals (seats and colours), a rule A/B test (stalemate a draw instead of a loss) played with
# the same seeds, settings and weights, the refusal of an unfair comparison, a balance ladder and
# a PGN excerpt. Re-run it whenever the default player changes and paste the outputs into the doc.
#
# usage: scripts/analysis/walkthrough.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  default build; OUT_DIR default /tmp/xq-walkthrough (must not exist: nothing is
#              overwritten)
# environment (defaults in brackets):
#   GAMES [2000]         self-play games of the balance card and the opening tree
#   AB_GAMES [2000]      games per side of the A/B test
#   LADDER [16,64,256]   ladder budgets (playouts per move), LADDER_GAMES [400] games per budget
#   HIDDEN_GAMES [400]   banqi games with paired deals (seats and colours)
#   PRESET []            run preset for every step (empty: the built-in defaults)
#   THREADS []           worker threads (empty: all cores)
#   SEED [1]             base seed of every step
# Outputs: OUT_DIR/*.txt (each command's output, with the command as its first line), OUT_DIR/img/
# (the PNG plots, as docs/img/analysis/ holds them), the datasets, and OUT_DIR/summary.txt (machine,
# load, versions, timings). Plots need /usr/bin/python3 with matplotlib (python3-matplotlib).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
OUT=${2:-/tmp/xq-walkthrough}
XQLAB=$BUILD/cli/xqlab
GAMES=${GAMES:-2000}
AB_GAMES=${AB_GAMES:-2000}
LADDER=${LADDER:-16,64,256}
LADDER_GAMES=${LADDER_GAMES:-400}
HIDDEN_GAMES=${HIDDEN_GAMES:-400}
PRESET=${PRESET:-}
THREADS=${THREADS:-}
SEED=${SEED:-1}
[ -x "$XQLAB" ] || { echo "walkthrough.sh: no $XQLAB (build first)" >&2; exit 1; }
[ ! -e "$OUT" ] || { echo "walkthrough.sh: $OUT exists: give another OUT_DIR (nothing is overwritten)" >&2; exit 1; }
mkdir -p "$OUT/img"
export HDF5_PLUGIN_PATH="$BUILD/hdf5-plugins"

common="--seed $SEED"
[ -n "$PRESET" ] && common="$common --preset $PRESET"
[ -n "$THREADS" ] && common="$common -t $THREADS"

now() { date +%s.%N; }
# step NAME CMD...: runs xqlab CMD with stdout into OUT/NAME.txt (first line: the command),
# stderr into OUT/NAME.err, and notes the wall time.
step() {
    name=$1; shift
    echo "\$ xqlab $*" | sed "s|$OUT|OUT|g; s|$ROOT/||g" >"$OUT/$name.txt"
    t0=$(now)
    "$XQLAB" "$@" >>"$OUT/$name.txt" 2>"$OUT/$name.err" || { echo "walkthrough.sh: $name failed:" >&2; cat "$OUT/$name.err" >&2; exit 1; }
    printf '%-24s %8.1f s\n' "$name" "$(awk "BEGIN { print $(now) - $t0 }")" >>"$OUT/times.txt"
    echo "walkthrough: $name done" >&2
}

# 1. A self-play batch with the default player, its balance card, opening tree and plots.
step selfplay selfplay -v xiangqi -n "$GAMES" -o "$OUT/xq.h5" --progress log $common
step report report "$OUT/xq.h5"
step report-md report --markdown "$OUT/xq.h5"
step report-plots report "$OUT/xq.h5" --plots "$OUT/img"
step openings openings "$OUT/xq.h5" --depth 2 --min-games "$((GAMES / 25 > 1 ? GAMES / 25 : 1))" --top 5 --h5 "$OUT/xq-openings.h5" --plots "$OUT/img"

# 2. A rule A/B test: a renamed copy of xiangqi.ini in which stalemate is a draw. Both sides play
#    with the same seeds, settings and weights (the copy gets xiangqi's weights by its features).
sed -e 's/^name = xiangqi$/name = xiangqi-stalemate-draw/' -e 's/^stalemate = loss$/stalemate = draw/' \
    "$ROOT/configs/variants/xiangqi.ini" >"$OUT/xiangqi-stalemate-draw.ini"
grep -q '^stalemate = draw$' "$OUT/xiangqi-stalemate-draw.ini" || { echo "walkthrough.sh: no 'stalemate = loss' line in xiangqi.ini" >&2; exit 1; }
step weights variants --weights "$OUT/xiangqi-stalemate-draw.ini"
step compare-play compare --play "$ROOT/configs/variants/xiangqi.ini" "$OUT/xiangqi-stalemate-draw.ini" \
    -n "$AB_GAMES" -o "$OUT/ab" --plots "$OUT/img" $common
step compare-files compare "$OUT/ab/a.h5" -- "$OUT/ab/b.h5"
step compare-json compare --json "$OUT/ab/a.h5" -- "$OUT/ab/b.h5"

# 3. Balance against strength; and what compare says about two rungs (different budgets).
step ladder ladder -v xiangqi --playouts "$LADDER" -n "$LADDER_GAMES" -o "$OUT/ladder" --plots "$OUT/img" $common
first=$(echo "$LADDER" | cut -d, -f1)
last=$(echo "$LADDER" | tr , '\n' | tail -1)
echo "\$ xqlab compare OUT/ladder/xiangqi-p$first.h5 -- OUT/ladder/xiangqi-p$last.h5" >"$OUT/compare-refused.txt"
if "$XQLAB" compare "$OUT/ladder/xiangqi-p$first.h5" -- "$OUT/ladder/xiangqi-p$last.h5" >>"$OUT/compare-refused.txt" 2>&1; then
    echo "walkthrough.sh: compare of two budgets was not refused" >&2
    exit 1
fi
sed -i "s|$OUT|OUT|g" "$OUT/compare-refused.txt"
step compare-allowed compare --allow-different-settings "$OUT/ladder/xiangqi-p$first.h5" -- "$OUT/ladder/xiangqi-p$last.h5"

# 4. Seats and colours: banqi, where the first flip decides the colours, with paired deals.
step hidden-selfplay selfplay -v banqi --paired-deals -n "$HIDDEN_GAMES" -o "$OUT/bq.h5" --progress log $common
step hidden-report report "$OUT/bq.h5"

# 5. A game as PGN.
step pgn export "$OUT/xq.h5" --pgn - --games 7

for f in "$OUT"/*.txt "$OUT"/*.err; do sed -i "s|$OUT|OUT|g; s|$ROOT/||g" "$f"; done
{
    echo "walk-through of $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(hostname), $(nproc) cores"
    echo "uptime: $(uptime)"
    echo "GAMES=$GAMES AB_GAMES=$AB_GAMES LADDER=$LADDER LADDER_GAMES=$LADDER_GAMES HIDDEN_GAMES=$HIDDEN_GAMES PRESET=$PRESET THREADS=$THREADS SEED=$SEED"
    cat "$OUT/times.txt"
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
echo "outputs in $OUT (plots in $OUT/img)"
