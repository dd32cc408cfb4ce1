#!/bin/sh
# gated_table.sh - a gated match (`xqlab match` with --sprt: colour-swapped pairs from a shared
# random opening) of player A against player B in every shipped rule set (configs/variants/*.ini),
# printed as one Markdown table: games, W/D/L of A, the pentanomial pair counts, A's score, Elo
# A - B with its 95% interval, LLR and SPRT verdict, the time or playouts per move, the playouts
# each side reached, and the load. Keeps each match's JSON in OUTDIR.
# usage: scripts/bench/gated_table.sh [OUTDIR]
# Environment (defaults in brackets):
#   XQLAB [build/cli/xqlab]     the build that plays both players
#   A ["mcts:search=ab"]        player A (`xqlab match --a`; mcts:key=value,... sets search keys)
#   B ["mcts"]                  player B, the reference (here: the default MCTS)
#   MOVETIME [50]               ms per move for both mcts players (0: use PLAYOUTS)
#   PLAYOUTS [""]               with MOVETIME=0: playouts=N added to both mcts players
#   GAMES [100]                 games per rule set at most (the SPRT may stop earlier)
#   SPRT ["0,50,0.05,0.05"]     E0,E1,ALPHA,BETA of `--sprt`
#   SPRT_MIN_PAIRS [20]         no verdict before this many pairs (`--sprt-min-pairs`; xqlab's own
#                               default is 200, which a 100-game cap never reaches)
#   OPENING_PLIES [4]           random non-capturing opening plies per pair
#   SEED [1]                    base seed
#   JOBS [1]                    games at a time (`-t`): 1 = one game at a time, one core
#   VARIANTS [every configs/variants/*.ini]   the rule sets, by name, separated by spaces
#   PRESET [""]                 `--preset` for both mcts players
# Timed games depend on the machine's load: each row gives the 1-minute load average before and
# after its match. A run at the defaults takes about an hour at -j 1 (less when the SPRT stops).
set -eu
cd "$(dirname "$0")/../.."
XQLAB=${XQLAB:-build/cli/xqlab}
A=${A:-mcts:search=ab}
B=${B:-mcts}
MOVETIME=${MOVETIME:-50}
PLAYOUTS=${PLAYOUTS:-}
GAMES=${GAMES:-100}
SPRT=${SPRT:-0,50,0.05,0.05}
SPRT_MIN_PAIRS=${SPRT_MIN_PAIRS:-20}
OPENING_PLIES=${OPENING_PLIES:-4}
SEED=${SEED:-1}
JOBS=${JOBS:-1}
PRESET=${PRESET:-}
ME=gated_table.sh
if [ -z "${VARIANTS:-}" ]; then
    VARIANTS=$(for f in configs/variants/*.ini; do basename "$f" .ini; done | tr '\n' ' ')
fi
OUT=${1:-gated-$(date +%Y%m%d-%H%M%S)}
if [ -e "$OUT" ]; then
    echo "$ME: $OUT exists: refusing to overwrite it" >&2
    exit 2
fi
if [ ! -x "$XQLAB" ]; then
    echo "$ME: $XQLAB is not an executable (build xqlab first or set XQLAB)" >&2
    exit 2
fi
# A playout budget goes into each mcts player's own settings (a player's playouts= wins).
with_playouts() {
    case $1 in
        mcts) echo "mcts:playouts=$PLAYOUTS" ;;
        mcts:*) echo "$1,playouts=$PLAYOUTS" ;;
        *) echo "$1" ;;
    esac
}
PA=$A
PB=$B
set --
if [ "$MOVETIME" != 0 ]; then
    set -- --movetime "$MOVETIME"
elif [ -n "$PLAYOUTS" ]; then
    PA=$(with_playouts "$A")
    PB=$(with_playouts "$B")
else
    echo "$ME: MOVETIME=0 needs PLAYOUTS" >&2
    exit 2
fi
if [ -n "$PRESET" ]; then
    set -- "$@" --preset "$PRESET"
fi
mkdir -p "$OUT"
load() { cut -d' ' -f1 /proc/loadavg; }
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "xqlab: $XQLAB ($("$XQLAB" --version 2>/dev/null | head -1)), commit $COMMIT"
    echo "A: $PA"
    echo "B: $PB"
    echo "command per rule set: $XQLAB match -v VARIANT --a '$PA' --b '$PB' -n $GAMES -t $JOBS" \
        "--sprt $SPRT --sprt-min-pairs $SPRT_MIN_PAIRS --opening-plies $OPENING_PLIES --seed $SEED $*"
    echo "started: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uptime)"
} >"$OUT/run.txt"
cat "$OUT/run.txt" >&2
status=0
for v in $VARIANTS; do
    before=$(load)
    t0=$(date +%s)
    echo "$ME: $v ..." >&2
    if "$XQLAB" match -v "$v" --a "$PA" --b "$PB" -n "$GAMES" -t "$JOBS" --sprt "$SPRT" \
        --sprt-min-pairs "$SPRT_MIN_PAIRS" --opening-plies "$OPENING_PLIES" --seed "$SEED" \
        "$@" --json --quiet >"$OUT/$v.json" 2>"$OUT/$v.err"; then
        :
    else
        echo "$ME: $v: xqlab match failed (exit $?): $(head -3 "$OUT/$v.err")" >&2
        status=1
    fi
    t1=$(date +%s)
    printf '{"load_before": %s, "load_after": %s, "seconds": %d}\n' "$before" "$(load)" \
        $((t1 - t0)) >"$OUT/$v.run.json"
done
echo "finished: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uptime)" >>"$OUT/run.txt"
tail -1 "$OUT/run.txt" >&2
# shellcheck disable=SC2086 # VARIANTS is a list of names
/usr/bin/python3 - "$OUT" $VARIANTS <<'EOF'
import json, math, sys
out, variants = sys.argv[1], sys.argv[2:]

def elo_text(x, score, side):
    if x is not None:
        return "%+.0f" % x
    # xqlab prints null where the estimate is unbounded (a score of 0 or 1 at that end)
    return "+inf" if (side > 0 if score is None else score >= 0.5) else "-inf"

print("| rule set | games | W/D/L (A) | pentanomial 0-2 | score A | Elo A-B [95%] | LLR (bounds) verdict "
      "| ms/move | playouts/move A, B | load | s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for v in variants:
    try:
        r = json.load(open("%s/%s.json" % (out, v)))
    except (OSError, ValueError):
        err = open("%s/%s.err" % (out, v)).read().strip().splitlines()
        print("| %s | failed: %s |||||||||" % (v, err[0] if err else "no output"))
        continue
    run = json.load(open("%s/%s.run.json" % (out, v)))
    red, black = r["a_as_red"], r["a_as_black"]
    w, d, l = (red[i] + black[i] for i in range(3))
    s = r["a_score"]
    lo, hi = r["elo_95"]
    if r["elo"] is None and lo is None and hi is None:
        elo = "n/a"
    else:
        elo = "%s [%s, %s]" % (elo_text(r["elo"], s, 0), elo_text(lo, None, -1),
                               elo_text(hi, None, +1))
    sp = r.get("sprt") or {}
    verdict = {"H1": "H1 (A stronger)", "H0": "H0"}.get(sp.get("verdict"), sp.get("verdict", "-"))
    llr = "%.2f (%.2f, %.2f) %s" % (sp["llr"], sp["lower"], sp["upper"], verdict) if sp else "-"
    ms = "%s" % r.get("a_movetime", 0) if r.get("a_movetime") else "playouts"
    pp = "%.0f, %.0f" % (r.get("a_playouts_per_move", 0), r.get("b_playouts_per_move", 0))
    print("| %s | %d%s | %d/%d/%d | %s | %.1f%% | %s | %s | %s | %s | %.1f-%.1f | %d |" % (
        v, r["games"], " (stopped)" if r.get("interrupted") else "", w, d, l,
        " ".join(str(c) for c in r["pentanomial"]), 100 * s, elo, llr, ms, pp,
        run["load_before"], run["load_after"], run["seconds"]))
EOF
exit $status
