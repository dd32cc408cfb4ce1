#!/bin/sh
# test_strength.sh - `xqlab bench strength` end to end: a 2-game run against Fairy-Stockfish whose
# figures add up (no strength assertion), its PGN and log, a run where the engine dies in every
# game, --find-odds plumbing, the rules check, and the refusals (rule sets, existing files, bad
# options) with their exit codes.
# usage: test_strength.sh PATH/TO/xqlab SOURCE_DIR
set -u
XQLAB="$1"
SRC="$2"
FAIRY=/usr/games/fairy-stockfish
PY=/usr/bin/python3
T=$(mktemp -d /tmp/xq_strength_cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0

fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# expect NAME EXIT TEXT -- ARGS: exit status and a fixed string somewhere in stdout or stderr.
expect() {
    name="$1"; want_rc="$2"; want="$3"; shift 4
    "$XQLAB" bench strength "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" -ne "$want_rc" ]; then
        fail "$name: exit $rc, expected $want_rc: $(cat "$T/out" "$T/err")"
    elif [ -n "$want" ] && ! grep -qF -- "$want" "$T/out" "$T/err"; then
        fail "$name: no '$want' in: $(cat "$T/out" "$T/err")"
    else
        echo "ok   $name"
    fi
}

# check NAME JSON_FILE PYTHON_EXPRESSION: the expression over the parsed JSON `j` must be true.
check() {
    if "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" "$2"; then
        echo "ok   $1"
    else
        fail "$1: not ($3) in $(cat "$2")"
    fi
}

[ -x "$FAIRY" ] || { echo "FAIL $FAIRY missing (scripts/packages.txt installs fairy-stockfish)"; exit 1; }
START_BOOK="$T/start.txt"
echo 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' >"$START_BOOK"

# 1. Two games (one pair) against Fairy-Stockfish from the shipped openings: the figures add up,
# no engine failure (a wrong rank translation would show as illegal moves), CPU times measured.
expect run-2-games 0 "" -- --xqlab "$FAIRY" --movetime 10 -n 2 --max-plies 80 -j 2 --json \
    --pgn "$T/games.pgn" --log "$T/log"
cp "$T/out" "$T/run.json"
check sums "$T/run.json" "j['result']['games'] == 2 and sum(j['result']['wdl']) == 2 and sum(j['result']['pentanomial']) == 1 and j['result']['pairs'] == 1"
check colours "$T/run.json" "[a + b for a, b in zip(j['result']['as_red'], j['result']['as_black'])] == j['result']['wdl'] and sum(j['result']['as_red']) == 1"
check terminations "$T/run.json" "sum(j['result']['terminations'].values()) == 2"
check no-failures "$T/run.json" "all(v == 0 for s in ('xqlab', 'engine') for v in j['result'][s]['lost_by'].values())"
check cpu-measured "$T/run.json" "all(j['result'][s]['cpu_ms_per_move'] > 0 and j['result'][s]['moves'] > 0 for s in ('xqlab', 'engine'))"
check rules-checked "$T/run.json" "'plays by xqlab' in j['rules_check']"
if [ "$(grep -c '^\[Game "Chinese Chess"\]' "$T/games.pgn")" -eq 2 ] && grep -q '^\[Round "1.2"\]' "$T/games.pgn" &&
    grep -q '^\[Format "WXF"\]' "$T/games.pgn"; then
    echo "ok   pgn-games"
else
    fail "pgn-games: $(cat "$T/games.pgn")"
fi
# The PGN's results are the run's: xqlab is Red in game 1 and Black in game 2.
"$PY" - "$T/games.pgn" "$T/run.json" <<'EOF' && echo "ok   pgn-results" || fail "pgn-results"
import json, re, sys
text = open(sys.argv[1]).read()
res = re.findall(r'^\[Result "([^"]+)"\]', text, re.M)
j = json.load(open(sys.argv[2]))['result']
pts = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}
a2 = pts[res[0]] + (2 - pts[res[1]])
sys.exit(0 if len(res) == 2 and j['pentanomial'][a2] == 1 else 1)
EOF
if grep -q 'xqlab > go movetime 10' "$T/log" && grep -q 'engine < bestmove' "$T/log" &&
    grep -q 'setoption name Threads value 1' "$T/log"; then
    echo "ok   log"
else
    fail "log: $(head -5 "$T/log")"
fi

# The default xqlab side (this build's `xqlab engine`) against Fairy-Stockfish: the same sums.
expect run-xqlab-engine 0 "" -- --movetime 10 -n 2 --max-plies 60 -j 2 --json
cp "$T/out" "$T/xq.json"
check xqlab-sums "$T/xq.json" "j['result']['games'] == 2 and sum(j['result']['wdl']) == 2 and sum(j['result']['pentanomial']) == 1 and j['result']['xqlab']['name'].startswith('xqlab') and j['result']['xqlab']['moves'] > 0"
check xqlab-no-failures "$T/xq.json" "all(v == 0 for s in ('xqlab', 'engine') for v in j['result'][s]['lost_by'].values())"

# 2. The engine dies at its second move in every game: it loses both, the run says so, exit 0.
expect engine-dies 0 "" -- --xqlab "$FAIRY" --engine "sh $SRC/tests/data/fake_uci.sh crash2" \
    --openings "$START_BOOK" --movetime 10 -n 2 --json
cp "$T/out" "$T/dies.json"
check dies-counted "$T/dies.json" "j['result']['wdl'] == [2, 0, 0] and j['result']['engine']['lost_by']['died'] == 2 and j['result']['terminations'] == {'engine died': 2} and 'exit status 1' in j['result']['engine']['first_failure']"
expect engine-dies-text 0 "engine lost 2 games by engine failures (died 2" -- --xqlab "$FAIRY" \
    --engine "sh $SRC/tests/data/fake_uci.sh crash2" --openings "$START_BOOK" --movetime 10 -n 2
# More pairs than openings: a warning that the openings (and fixed-node games) repeat; none within
# one pass of the book.
expect repeated-openings 0 "warning: 2 pairs from 1 openings: openings repeat" -- --xqlab "$FAIRY" \
    --engine "sh $SRC/tests/data/fake_uci.sh crash2" --openings "$START_BOOK" --movetime 10 -n 4
if grep -q 'openings repeat' "$T/out"; then fail "repeated-openings: the warning went to stdout"; fi
expect one-pass 0 "" -- --xqlab "$FAIRY" --engine "sh $SRC/tests/data/fake_uci.sh crash2" \
    --openings "$START_BOOK" --movetime 10 -n 2
if grep -q 'openings repeat' "$T/err"; then fail "one-pass: a warning within one pass of the book"; else echo "ok   one-pass-no-warning"; fi
expect engine-hangs 0 "" -- --xqlab "$FAIRY" --engine "sh $SRC/tests/data/fake_uci.sh hang" \
    --openings "$START_BOOK" --movetime 10 --grace 1000 -n 2 --json
cp "$T/out" "$T/hang.json"
check hang-counted "$T/hang.json" "j['result']['engine']['lost_by']['time_forfeit'] == 2 and j['result']['wdl'] == [2, 0, 0]"

# 3. --find-odds against an engine that always dies: xqlab scores 100% at any odds, so the
# search walks down 1, 1/4, 1/16, 1/64 and reports the 50% point below 1/64.
expect find-odds 0 "" -- --xqlab "$FAIRY" --engine "sh $SRC/tests/data/fake_uci.sh crash2" \
    --openings "$START_BOOK" --movetime 10 -n 2 --find-odds --json
cp "$T/out" "$T/odds.json"
check odds-steps "$T/odds.json" "[s['odds'] for s in j['steps']] == [1, 0.25, 0.0625, 0.015625] and not j['bracketed'] and abs(j['hi'] - 0.015625) < 1e-9 and j['lo'] is None"
expect find-odds-text 0 "odds for a 50% score: below 0.015625" -- --xqlab "$FAIRY" \
    --engine "sh $SRC/tests/data/fake_uci.sh crash2" --openings "$START_BOOK" --movetime 10 -n 2 --find-odds

# 4. The rules check alone, deeper, on every shipped opening.
expect check-rules 0 "plays by xqlab's rules (same legal moves, perft 2 equal)" -- --xqlab "$FAIRY" --check-rules 2

# 5. Rule sets: Fairy-Stockfish 11.1 cannot define the sniper; sniper with a newer build passes.
version=$(printf 'uci\nquit\n' | "$FAIRY" | sed -n 's/^id name Fairy-Stockfish \([0-9]*\).*/\1/p')
if [ "${version:-0}" -lt 14 ]; then
    expect sniper-11 1 "before version 14 has no custom pieces" -- --xqlab "$FAIRY" -v sniper --check-rules 1 \
        --openings "$SRC/tests/data/sniper_positions.txt"
else
    expect sniper-new 0 "plays by xqlab's rules" -- --xqlab "$FAIRY" -v sniper --check-rules 2 \
        --openings "$SRC/tests/data/sniper_positions.txt"
fi
expect river-camp 1 "cannot play river-camp: its river camp" -- --xqlab "$FAIRY" -v river-camp
expect five-tigers 1 "cannot play five-tigers: one side moves two pieces" -- --xqlab "$FAIRY" -v five-tigers
expect jieqi 2 "jieqi has face-down pieces" -- -v jieqi
# Two fake engines (neither lists UCI_Variant) are taken to play standard xiangqi only.
expect no-variant-option 1 "has no UCI_Variant option" -- --xqlab "sh $SRC/tests/data/fake_uci.sh shuffle" \
    --engine "sh $SRC/tests/data/fake_uci.sh shuffle" -v mixed

# 6. Files are never overwritten without --force (the rule of docs/cli.md); bad options.
echo "keep me" >"$T/old.pgn"
expect pgn-exists 1 "already exists" -- --xqlab "$FAIRY" -n 2 --pgn "$T/old.pgn"
[ "$(cat "$T/old.pgn")" = "keep me" ] && echo "ok   pgn-kept" || fail "pgn-kept: $(cat "$T/old.pgn")"
expect log-exists 1 "already exists" -- --xqlab "$FAIRY" -n 2 --log "$T/old.pgn"
expect pgn-input 1 "" -- --xqlab "$FAIRY" -n 2 --openings "$START_BOOK" --pgn "$START_BOOK" --force
grep -q 'RNBAKABNR' "$START_BOOK" && echo "ok   input-kept" || fail "input-kept: $(cat "$START_BOOK")"
expect pgn-force 0 "" -- --xqlab "$FAIRY" --engine "sh $SRC/tests/data/fake_uci.sh crash2" \
    --openings "$START_BOOK" --movetime 10 -n 2 --pgn "$T/old.pgn" --force
[ "$(grep -c '^\[Game ' "$T/old.pgn")" -eq 2 ] && echo "ok   pgn-replaced" || fail "pgn-replaced: $(cat "$T/old.pgn")"
expect refused-no-pgn 1 "" -- --xqlab "$FAIRY" -v river-camp --pgn "$T/never.pgn"
[ ! -e "$T/never.pgn" ] && [ ! -e "$T/never.pgn.tmp" ] && [ ! -e "$T/never.pgn.lock" ] &&
    echo "ok   no-pgn-on-refusal" || fail "no-pgn-on-refusal: $(ls "$T")"
expect bad-odds 2 "--odds expects" -- --odds 0
expect odds-and-find 2 "exclude each other" -- --odds 2 --find-odds
expect bad-option 2 "expects NAME=VALUE" -- --engine-option Hash
expect unknown-engine-option 1 "has no option 'Nonsense'" -- --xqlab "$FAIRY" --engine-option Nonsense=1 -n 2
expect bad-ranks 2 "--engine-ranks expects" -- --engine-ranks 2
expect no-engine 1 "exit status 127" -- --xqlab "$FAIRY" --engine /nonexistent/engine -n 2
expect bad-openings 1 "move 1" -- --xqlab "$FAIRY" --openings "$SRC/configs/variants/xiangqi.ini" -n 2
expect unknown-option 2 "unknown option" -- --frobnicate
expect help 0 "usage: xqlab bench strength" -- --help

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all bench strength checks passed"
