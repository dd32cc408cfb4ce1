#!/bin/sh
# depth.sh - the alpha-beta player's positions and time to a fixed depth, summed over the first
# N openings of a rule set's book (configs/openings/VARIANT.txt): the search-efficiency figure
# that docs/engine.md quotes for each search change ("positions to depth 10 over 20 openings").
# A fixed depth makes the count exact on any machine; the seconds depend on its load.
# usage: scripts/bench/depth.sh [-v VARIANT] [-d DEPTH] [-n OPENINGS] [--set KEY=VALUE]...
# Environment: XQLAB [build/cli/xqlab], the build to measure.
# Prints one line: openings, positions, seconds, positions/s, and the median positions of one
# opening. Exit status: 0, 1 for a missing book or a failed search, 2 for bad options.
set -u
cd "$(dirname "$0")/../.."
XQLAB=${XQLAB:-build/cli/xqlab}
ME=depth.sh
VARIANT=xiangqi
DEPTH=10
N=20
SETS=""
usage() {
    echo "usage: scripts/bench/$ME [-v VARIANT] [-d DEPTH] [-n OPENINGS] [--set KEY=VALUE]..." >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
    -v) [ $# -ge 2 ] || usage; VARIANT=$2; shift 2 ;;
    -d) [ $# -ge 2 ] || usage; DEPTH=$2; shift 2 ;;
    -n) [ $# -ge 2 ] || usage; N=$2; shift 2 ;;
    --set) [ $# -ge 2 ] || usage; SETS="$SETS --set $2"; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$ME: unknown option '$1'" >&2; usage ;;
    esac
done
case "$DEPTH" in '' | *[!0-9]*) echo "$ME: -d: expected a depth from 1 to 24, got '$DEPTH'" >&2; exit 2 ;; esac
case "$N" in '' | *[!0-9]*) echo "$ME: -n: expected a number of openings, got '$N'" >&2; exit 2 ;; esac
if [ "$DEPTH" -lt 1 ] || [ "$DEPTH" -gt 24 ] || [ "$N" -lt 1 ]; then
    echo "$ME: -d must be 1 to 24 and -n at least 1" >&2
    exit 2
fi
BOOK=configs/openings/$VARIANT.txt
[ -f "$BOOK" ] || { echo "$ME: no opening book $BOOK for rule set '$VARIANT'" >&2; exit 1; }
[ -x "$XQLAB" ] || { echo "$ME: $XQLAB is not an executable (build first, or set XQLAB)" >&2; exit 1; }
OUT=$(mktemp /tmp/xq_depth.XXXXXX)
trap 'rm -f "$OUT"' EXIT
# Book lines are moves from the start position, a FEN, or a FEN and moves; comments after '#'.
grep -v '^[[:space:]]*#' "$BOOK" | sed 's/[[:space:]]*#.*//' | grep -v '^[[:space:]]*$' | head -n "$N" |
    while IFS= read -r line; do
        case "$line" in
        */*) fen=$(echo "$line" | awk '{print $1" "$2" "$3" "$4" "$5" "$6}')
             moves=$(echo "$line" | cut -d' ' -f7-)
             # shellcheck disable=SC2086
             "$XQLAB" analyse -v "$VARIANT" --fen "$fen" --moves "$moves" --set search=ab \
                 --set ab_depth="$DEPTH" $SETS --json || exit 1 ;;
        *)   # shellcheck disable=SC2086
             "$XQLAB" analyse -v "$VARIANT" --moves "$line" --set search=ab \
                 --set ab_depth="$DEPTH" $SETS --json || exit 1 ;;
        esac
        echo
    done >"$OUT" || { echo "$ME: a search failed (see above)" >&2; exit 1; }
python3 - "$OUT" "$DEPTH" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if not rows:
    sys.exit("depth.sh: no opening was searched")
pos = sorted(r["playouts"] for r in rows)
total, secs = sum(pos), sum(r["seconds"] for r in rows)
mid = len(pos) // 2
median = pos[mid] if len(pos) % 2 else (pos[mid - 1] + pos[mid]) / 2
print("depth %s: openings %d positions %d seconds %.2f positions/s %.0f median/opening %.0f"
      % (sys.argv[2], len(rows), total, secs, total / secs if secs > 0 else 0, median))
PY
