#!/bin/sh
# strength.sh - reproduces the strength table of docs/engine.md (section Strength): xqlab against
# Debian's Fairy-Stockfish at equal time per move, and the time-odds factor at which xqlab scores
# 50%, with `xqlab bench strength`. Prints the table in Markdown; keeps each point's JSON and PGN.
# usage: scripts/bench/strength.sh [OUTDIR]
# Environment (defaults in brackets):
#   XQLAB [build/cli/xqlab]         the xqlab build measured (its `engine` mode plays)
#   ENGINE [/usr/games/fairy-stockfish]
#   VARIANT [xiangqi]               sniper needs ENGINE = Fairy-Stockfish 14 or later
#   MOVETIMES ["100"]               equal-time points, ms per move
#   GAMES [200]                     games per equal-time point
#   ODDS_MOVETIME [100]             the engine's ms per move in the odds search
#   ODDS_GAMES [20]                 games per odds step
#   ODDS_START [1], ODDS_MAX [16]   first odds tried, largest odds
#   ODDS_RATIO [1.5]                bracket precision of the odds search (hi / lo)
#   SKIP_EQUAL [0], SKIP_ODDS [0]   1: leave that part out (e.g. to run the two parts at once)
#   XQLAB_OPTIONS [""]              extra "--xqlab-option N=V" arguments
#   JOBS [number of cores]
# A full run at the defaults takes about two hours at JOBS=1 (the two parts can run at once,
# with SKIP_ODDS=1 and SKIP_EQUAL=1 in two output folders). Timed figures depend on the
# machine's load: the script prints `uptime` next to them.
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-strength-$(date +%Y%m%d-%H%M%S)}
XQLAB=${XQLAB:-build/cli/xqlab}
ENGINE=${ENGINE:-/usr/games/fairy-stockfish}
VARIANT=${VARIANT:-xiangqi}
MOVETIMES=${MOVETIMES:-100}
GAMES=${GAMES:-200}
ODDS_MOVETIME=${ODDS_MOVETIME:-100}
ODDS_GAMES=${ODDS_GAMES:-20}
ODDS_START=${ODDS_START:-1}
ODDS_MAX=${ODDS_MAX:-16}
ODDS_RATIO=${ODDS_RATIO:-1.5}
SKIP_EQUAL=${SKIP_EQUAL:-0}
SKIP_ODDS=${SKIP_ODDS:-0}
XQLAB_OPTIONS=${XQLAB_OPTIONS:-}
JOBS=${JOBS:-$(nproc)}
PY=/usr/bin/python3
if [ -e "$OUT" ]; then
    echo "strength.sh: $OUT exists: refusing to overwrite it" >&2
    exit 2
fi
mkdir -p "$OUT"
echo "strength.sh: $XQLAB ($($XQLAB --version)) against $ENGINE, $VARIANT, results in $OUT" >&2

[ "$SKIP_EQUAL" = 1 ] && MOVETIMES=
for mt in $MOVETIMES; do
    echo "== $mt ms/move, $GAMES games  (load before: $(uptime))" >&2
    # shellcheck disable=SC2086
    "$XQLAB" bench strength -v "$VARIANT" --engine "$ENGINE" --movetime "$mt" -n "$GAMES" -j "$JOBS" \
        $XQLAB_OPTIONS --json --pgn "$OUT/equal-$mt.pgn" >"$OUT/equal-$mt.json"
done
if [ "$SKIP_ODDS" != 1 ]; then
    echo "== odds search at $ODDS_MOVETIME ms/move, $ODDS_GAMES games per step  (load before: $(uptime))" >&2
    # shellcheck disable=SC2086
    "$XQLAB" bench strength -v "$VARIANT" --engine "$ENGINE" --movetime "$ODDS_MOVETIME" -n "$ODDS_GAMES" \
        -j "$JOBS" --find-odds --odds-start "$ODDS_START" --odds-max "$ODDS_MAX" --odds-ratio "$ODDS_RATIO" \
        $XQLAB_OPTIONS --json --pgn "$OUT/odds.pgn" >"$OUT/odds.json"
fi

"$PY" - "$OUT" $MOVETIMES <<'EOF'
import json, os, sys
out, movetimes = sys.argv[1], sys.argv[2:]
def elo(r):
    inf = "-inf" if r["score"] < 0.5 else "+inf"  # JSON has no infinities: null
    f = lambda x: inf if x is None else "%+.0f" % x
    return "%s [%s, %s]" % (f(r["elo"]), f(r["elo_95"][0]), f(r["elo_95"][1]))
if movetimes:
    print("| ms/move (engine) | games | xqlab W / D / L | score | Elo xqlab - engine (95%) | CPU ms/move xqlab / engine | terminations | load |")
    print("|---|---|---|---|---|---|---|---|")
for mt in movetimes:
    j = json.load(open("%s/equal-%s.json" % (out, mt)))
    r = j["result"]
    terms = ", ".join("%s %d" % kv for kv in sorted(r["terminations"].items(), key=lambda kv: -kv[1]))
    print("| %s | %d | %d / %d / %d | %.1f%% | %s | %.1f / %.1f | %s | %s |" % (
        mt, r["games"], r["wdl"][0], r["wdl"][1], r["wdl"][2], 100 * r["score"], elo(r),
        r["xqlab"]["cpu_ms_per_move"] or 0, r["engine"]["cpu_ms_per_move"] or 0, terms, j["load"]))
if not os.path.exists("%s/odds.json" % out):
    sys.exit(0)
j = json.load(open("%s/odds.json" % out))
print()
print("| odds K (xqlab gets K x %s ms) | games | score | Elo (95%%) | CPU ms/move xqlab / engine |" % j["movetime_ms"])
print("|---|---|---|---|---|")
for s in j["steps"]:
    print("| %.3g | %d | %.1f%% | %s | %.1f / %.1f |" % (s["odds"], s["games"], 100 * s["score"], elo(s),
          s["xqlab"]["cpu_ms_per_move"] or 0, s["engine"]["cpu_ms_per_move"] or 0))
print()
if j["bracketed"]:
    print("Time-odds factor for a 50%% score: between %.3g and %.3g, about %.3g (load %s)." % (
        j["lo"], j["hi"], j["estimate"], j["load"]))
elif j["lo"] is not None:
    print("Time-odds factor for a 50%% score: above %.3g (load %s)." % (j["lo"], j["load"]))
else:
    print("Time-odds factor for a 50%% score: below %.3g (load %s)." % (j["hi"], j["load"]))
EOF
