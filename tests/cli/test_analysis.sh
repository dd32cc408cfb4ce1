#!/bin/sh
# test_analysis.sh - runs the built analysis commands (report, openings, compare, export, ladder)
# on small self-play datasets: outputs, exit codes, refused inputs.
# usage: test_analysis.sh PATH/TO/xqlab WORK_DIR
set -u
XQLAB="$1"
WORK="$2/cli_analysis"
failures=0
rm -rf "$WORK"
mkdir -p "$WORK"

fail() { echo "FAIL $1"; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }

# expect NAME EXIT PATTERN -- ARGS...: runs xqlab ARGS, checks the exit status and that PATTERN
# (grep -E) matches stdout + stderr.
expect() {
    name="$1"; want="$2"; pattern="$3"; shift 4
    "$XQLAB" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, expected $want: $(head -c 400 "$WORK/err")"
    elif [ -n "$pattern" ] && ! cat "$WORK/out" "$WORK/err" | grep -Eq -- "$pattern"; then
        fail "$name: no match for '$pattern' in: $(head -c 400 "$WORK/out") / $(head -c 400 "$WORK/err")"
    else
        ok "$name"
    fi
}

# Two small runs of the same settings (shards: other seeds) and one at other settings.
"$XQLAB" selfplay -v xiangqi -n 12 --playouts 8 --seed 1 -t 2 --progress quiet -o "$WORK/a1.h5" >/dev/null || fail "selfplay a1"
"$XQLAB" selfplay -v xiangqi -n 12 --playouts 8 --seed 2 -t 2 --progress quiet -o "$WORK/a2.h5" >/dev/null || fail "selfplay a2"
"$XQLAB" selfplay -v xiangqi -n 12 --playouts 16 --seed 1 -t 2 --progress quiet -o "$WORK/b.h5" >/dev/null || fail "selfplay b"

expect report-text 0 '^results +[0-9]+ / [0-9]+ / [0-9]+' -- report "$WORK/a1.h5" "$WORK/a2.h5"
expect report-24-games 0 'from 2 files' -- report "$WORK/a1.h5" "$WORK/a2.h5"
expect report-branching 0 'plies +0-9 +[0-9.]+' -- report "$WORK/a1.h5"
# Standard xiangqi has no rule-module moves: no utilisation table.
"$XQLAB" report "$WORK/a1.h5" | grep -q 'Special moves' && fail "report: special-move table for standard xiangqi" || ok "report-no-special-table"
expect report-json 0 '"kind": "report", "variant": "xiangqi".*"games": 24' -- report --json "$WORK/a1.h5" "$WORK/a2.h5"
expect report-markdown 0 '^\| red score \|' -- report --markdown "$WORK/a1.h5"
expect report-mismatch 1 'b.h5: does not belong with .*a1.h5: different search settings \(params_text line [0-9]+: .playouts = 8. vs .playouts = 16.\)' -- \
    report "$WORK/a1.h5" "$WORK/b.h5"
expect report-twice 1 'is given twice' -- report "$WORK/a1.h5" "$WORK/a1.h5"

# Hidden pieces: a paired-deal banqi run replays from its stored deals; seat, colour and pair lines
# in every format; none for xiangqi.
"$XQLAB" selfplay -v banqi --paired-deals -n 6 --playouts 8 --seed 5 --progress quiet -o "$WORK/bq.h5" >/dev/null || fail "selfplay banqi"
expect report-hidden-seat 0 '^by seat +[0-9]+ / [0-9]+ / [0-9]+ \(seat 0 wins' -- report "$WORK/bq.h5"
expect report-hidden-colour 0 '^by colour +[0-9]+ / [0-9]+ / [0-9]+ \(red player wins' -- report "$WORK/bq.h5"
expect report-hidden-pairs 0 '^paired deals +3 pairs; seat 0 score' -- report "$WORK/bq.h5"
expect report-hidden-markdown 0 '^\| by colour \|' -- report --markdown "$WORK/bq.h5"
expect report-hidden-json 0 '"hidden": \{"games": 6, "by_seat".*"paired_deals": \{"pairs": 3' -- report --json "$WORK/bq.h5"
"$XQLAB" report "$WORK/a1.h5" | grep -q 'Seats and colours' && fail "report: seat / colour section for xiangqi" || ok "report-no-hidden-section"
# Stored reveals carry their identity (a3a4A, h0h0N): the opening tree and PGN export replay them
# through the deal (they once compared them with the undrawn generated moves and refused).
expect openings-hidden 0 '^Opening tree: banqi, 6 games' -- openings "$WORK/bq.h5"
expect export-hidden 0 '--verify: 6 games read back' -- export "$WORK/bq.h5" --pgn "$WORK/bq.pgn" --verify
grep -Eq '^1\. [a-h][0-3][a-h][0-3][KABRNCPkabrncp]' "$WORK/bq.pgn" && ok "export-hidden-identities" || fail "export-hidden-identities: no drawn first move in bq.pgn"
expect report-missing 1 'nonexistent.h5' -- report "$WORK/nonexistent.h5"
printf 'not an hdf5 file\n' >"$WORK/junk.h5"
expect report-damaged 1 'junk.h5' -- report "$WORK/junk.h5"
expect report-bad-option 2 "unknown option '--frobnicate'" -- report --frobnicate "$WORK/a1.h5"
expect report-no-file 2 'usage: xqlab report' -- report
expect report-help 0 'balance card' -- report --help
XQLAB_PYTHON=/nonexistent/python3 "$XQLAB" report "$WORK/a1.h5" --plots "$WORK/plots" >/dev/null 2>"$WORK/err"
if [ $? -eq 1 ] && grep -q 'python3-matplotlib' "$WORK/err"; then ok "report-plots-no-python"; else fail "report-plots-no-python: $(cat "$WORK/err")"; fi

expect openings-text 0 'first move entropy [0-9.]+ bits' -- openings "$WORK/a1.h5" "$WORK/a2.h5" --depth 2 --min-games 1
expect openings-json 0 '"kind": "openings".*"notation": "WXF"' -- openings --json "$WORK/a1.h5" --depth 3
expect openings-none-passes 0 "No first move has 100000 games or more \\(the most played has [0-9]+\\): lower --min-games" -- openings "$WORK/a1.h5" --min-games 100000
expect openings-h5 0 'wrote /openings' -- openings "$WORK/a1.h5" --h5 "$WORK/tree.h5"
expect openings-h5-into-input 1 'is an input of this command' -- openings "$WORK/a1.h5" --h5 "$WORK/a1.h5"
expect openings-bad-depth 2 'depth' -- openings "$WORK/a1.h5" --depth 0

expect compare-text 0 'search settings line [0-9]+: .playouts = 8. vs .playouts = 16.' -- \
    compare "$WORK/a1.h5" "$WORK/a2.h5" -- "$WORK/b.h5"
expect compare-verdict 0 '^verdict: ' -- compare "$WORK/a1.h5" -- "$WORK/b.h5"
expect compare-json 0 '"kind": "compare".*"distinguishable": (true|false)' -- compare --json "$WORK/a1.h5" -- "$WORK/b.h5"
expect compare-one-side 2 'needs files on both sides' -- compare "$WORK/a1.h5"
expect compare-mismatch-in-side 1 'compare \(A\): .*does not belong' -- compare "$WORK/a1.h5" "$WORK/b.h5" -- "$WORK/a2.h5"

expect export-verify 0 'games read back .* same start positions, moves and results' -- \
    export "$WORK/a1.h5" "$WORK/a2.h5" --pgn "$WORK/games.pgn" --verify
head -1 "$WORK/games.pgn" | grep -qx '\[Game "Chinese Chess"\]' && ok "export-first-tag" || fail "export-first-tag"
[ "$(grep -c '^\[Game ' "$WORK/games.pgn")" -eq 24 ] && ok "export-24-games" || fail "export-24-games"
expect export-range 0 '\[Round "4"\]' -- export "$WORK/a1.h5" --pgn - --games 3
# Round counts from 1 (game index 3 is round 4); WXF asked of another rule set is a usage error.
expect export-wxf-elsewhere 2 'WXF is defined for standard xiangqi only' -- export "$WORK/bq.h5" --pgn - --notation wxf
expect export-xboard-elsewhere 2 'XBoard plays standard xiangqi only' -- export "$WORK/bq.h5" --pgn - --xboard
expect export-bad-notation 2 'expects iccs or wxf' -- export "$WORK/a1.h5" --pgn - --notation san
expect export-iccs 0 '^1\. [a-i][0-9][a-i][0-9] ' -- export "$WORK/a1.h5" --pgn - --games 0 --notation iccs
expect export-range-past-end 2 'past the last game' -- export "$WORK/a1.h5" --pgn - --games 99
expect export-bad-range 2 'expects N, A-B' -- export "$WORK/a1.h5" --pgn - --games x
expect export-into-input 1 'is an input of this command' -- export "$WORK/a1.h5" --pgn "$WORK/a1.h5"
expect export-no-pgn 2 'needs --pgn' -- export "$WORK/a1.h5"

expect ladder 0 'from 4 to 8 playouts: red score' -- ladder -v xiangqi --playouts 4,8 -n 4 -t 2 --seed 3
expect ladder-json 0 '"kind": "ladder".*"playouts": 8' -- ladder -v xiangqi --playouts 4,8 -n 2 -t 2 --json
expect ladder-arena-warning 0 'warning: [0-9]+ searches of the 2000-playout rung filled the node arena \(arena_nodes = 512\)' -- \
    ladder -v xiangqi --playouts 2000 -n 2 -t 2 --set arena_nodes=512 --progress quiet
expect ladder-bad-playouts 2 'playouts expects' -- ladder -v xiangqi --playouts 4,x
expect ladder-no-variant 2 'needs -v' -- ladder --playouts 4

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all analysis CLI checks passed"
