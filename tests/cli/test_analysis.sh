#!/bin/sh
# test_analysis.sh - runs the built analysis commands (report, openings, compare, export, ladder)
# on small self-play datasets: outputs, exit codes, refused inputs.
# usage: test_analysis.sh PATH/TO/xqlab WORK_DIR SOURCE_DIR
set -u
XQLAB="$1"
WORK="$2/cli_analysis"
SRC="$3"
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
expect report-interval 0 '^red score +[0-9.]+%, 95% CI [0-9.]+% \.\. [0-9.]+% \(win/draw/loss interval' -- report "$WORK/a1.h5"
expect report-draw-interval 0 '^draws +[0-9.]+%, 95% CI [0-9.]+% \.\. [0-9.]+%: natural' -- report "$WORK/a1.h5"
expect report-resolution 0 '^resolution +24 games detect a first-move advantage of [0-9.]+ points or more at 95%; a \+-1 point interval needs about [0-9,]+ games' -- \
    report "$WORK/a1.h5" "$WORK/a2.h5"
expect report-weights 0 '^weights +.*configs/weights/xiangqi\.ini$' -- report "$WORK/a1.h5"
expect report-length-cap 0 '\(length cap [0-9]+ plies\)' -- report "$WORK/a1.h5"
# Markdown: every '|' inside a cell is escaped, so each row of the measure table has 3 bare bars.
"$XQLAB" report --markdown "$WORK/a1.h5" | awk '/^\| measure \| value/ {t = 1; next} t && /^$/ {exit} t && /^\|[^-]/ {
    line = $0; gsub(/\\\|/, "", line); n = gsub(/\|/, "", line); if (n != 3) { print "bad row: " $0; bad = 1 } }
    END { exit bad }' && ok "report-markdown-escaped" || fail "report-markdown-escaped"
"$XQLAB" report --markdown "$WORK/a1.h5" | grep -q '1 - \\|first mover' && ok "report-markdown-pipe" || fail "report-markdown-pipe"
mkdir -p "$WORK/plots-old"
echo old >"$WORK/plots-old/lengths.png"
expect report-plots-no-overwrite 1 'plots-old/lengths.png: already exists: .*--force' -- report "$WORK/a1.h5" --plots "$WORK/plots-old"
grep -qx old "$WORK/plots-old/lengths.png" && ok "report-plots-kept" || fail "report-plots-kept: lengths.png was replaced"
expect report-plot-size-bad 2 'plot-size expects WIDTHxHEIGHT' -- report "$WORK/a1.h5" --plots "$WORK/p" --plot-size 10x10
expect report-plot-dpi-bad 2 'plot-dpi' -- report "$WORK/a1.h5" --plots "$WORK/p" --plot-dpi 0
expect report-mismatch 1 'b.h5: does not belong with .*a1.h5: different search settings \(params_text line [0-9]+: .playouts = 8. vs .playouts = 16.\)' -- \
    report "$WORK/a1.h5" "$WORK/b.h5"
expect report-twice 1 'is given twice' -- report "$WORK/a1.h5" "$WORK/a1.h5"

# Hidden pieces: a paired-deal banqi run replays from its stored deals; seat, colour and pair lines
# in every format; none for xiangqi.
"$XQLAB" selfplay -v banqi --paired-deals -n 6 --playouts 8 --seed 5 --progress quiet -o "$WORK/bq.h5" >/dev/null || fail "selfplay banqi"
expect report-hidden-seat 0 '^results +[0-9]+ / [0-9]+ / [0-9]+ \(first mover wins / draws / second mover wins' -- report "$WORK/bq.h5"
expect report-hidden-first 0 '^first mover +[0-9.]+%, 95% CI' -- report "$WORK/bq.h5"
expect report-hidden-colour 0 '^by colour +[0-9]+ / [0-9]+ / [0-9]+ \(red player wins / draws / black player wins\); red-colour score [0-9.]+%, 95% CI' -- report "$WORK/bq.h5"
expect report-hidden-pairs 0 '^paired deals +3 pairs; first mover.s score [0-9.]+%, 95% CI [0-9.]+% \.\. [0-9.]+% \(by pair, pentanomial' -- report "$WORK/bq.h5"
expect report-hidden-markdown 0 '^\| by colour \|' -- report --markdown "$WORK/bq.h5"
expect report-hidden-json 0 '"hidden": \{"games": 6, "by_colour".*"paired_deals": \{"pairs": 3, "pentanomial": \[' -- report --json "$WORK/bq.h5"
"$XQLAB" report "$WORK/bq.h5" | grep -Eq 'red wins|black wins|red score' && fail "report: banqi seats called red / black" || ok "report-hidden-no-red-seat"
"$XQLAB" report "$WORK/a1.h5" | grep -q 'Colours and paired deals' && fail "report: colour section for xiangqi" || ok "report-no-hidden-section"
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
expect openings-h5-exists 1 'tree.h5.*--force' -- openings "$WORK/a1.h5" --h5 "$WORK/tree.h5"
expect openings-h5-force 0 'wrote /openings' -- openings "$WORK/a1.h5" --h5 "$WORK/tree.h5" --force
expect openings-bad-depth 2 'depth' -- openings "$WORK/a1.h5" --depth 0

# compare: a change of settings is refused unless allowed (then loudly); a file against itself and
# the same games twice are refused; an A/A comparison of other seeds is fine.
expect compare-settings-refused 1 'A and B differ in search settings \(. line [0-9]+: playouts = (8|16)\)' -- \
    compare "$WORK/a1.h5" "$WORK/a2.h5" -- "$WORK/b.h5"
expect compare-allowed 0 'DIFFERENT search settings or budgets in 2 lines' -- \
    compare --allow-different-settings "$WORK/a1.h5" "$WORK/a2.h5" -- "$WORK/b.h5"
expect compare-allowed-warns 0 'WARNING: the search settings differ between A and B' -- \
    compare --allow-different-settings "$WORK/a1.h5" -- "$WORK/b.h5"
expect compare-verdict 0 '^verdict: ' -- compare "$WORK/a1.h5" -- "$WORK/a2.h5"
expect compare-same-rules 0 '^rules +the same$' -- compare "$WORK/a1.h5" -- "$WORK/a2.h5"
expect compare-resolution 0 '^resolution: with 12 and 12 games, differences of about [0-9.]+ points in the score' -- \
    compare "$WORK/a1.h5" -- "$WORK/a2.h5"
expect compare-json 0 '"kind": "compare".*"rule_lines_differ": 0.*"distinguishable": (true|false)' -- compare --json "$WORK/a1.h5" -- "$WORK/a2.h5"
expect compare-itself 1 'a1.h5 is on both sides: a file compared with itself' -- compare "$WORK/a1.h5" -- "$WORK/a1.h5"
cp "$WORK/a1.h5" "$WORK/a1-copy.h5"
expect compare-same-games 1 'A and B hold the same games' -- compare "$WORK/a1.h5" -- "$WORK/a1-copy.h5"
"$XQLAB" selfplay -v xiangqi -n 12 --playouts 8 --seed 3 -t 2 --weights none --progress quiet -o "$WORK/c.h5" >/dev/null || fail "selfplay c"
expect compare-evaluation-refused 1 'differ in the evaluation: material\.advisor [0-9.]+ vs 2, ' -- compare "$WORK/a1.h5" -- "$WORK/c.h5"
expect compare-one-side 2 'needs files on both sides' -- compare "$WORK/a1.h5"
expect compare-mismatch-in-side 1 'compare \(A\): .*does not belong' -- compare "$WORK/a1.h5" "$WORK/b.h5" -- "$WORK/a2.h5"
# compare --play: a renamed copy of xiangqi with one rule changed; both sides with the same seeds,
# settings and weights (the copy gets xiangqi's by its features); every differing line printed.
sed -e 's/^name = xiangqi$/name = xq-stalemate-draw/' -e 's/^stalemate = loss$/stalemate = draw/' \
    "$SRC/configs/variants/xiangqi.ini" >"$WORK/xqs.ini"
sed -e 's/^; Every piece below/; Each piece below/' "$SRC/configs/variants/xiangqi.ini" >"$WORK/xqc.ini"
XQV="$SRC/configs/variants/xiangqi.ini"
"$XQLAB" compare --play "$XQV" "$WORK/xqs.ini" -n 4 --playouts 4 -t 2 --seed 9 >"$WORK/play.out" 2>"$WORK/play.err"
[ $? -eq 0 ] && ok "compare-play" || fail "compare-play: $(cat "$WORK/play.err")"
grep -Eq '^rules +2 lines of A, 2 of B differ' "$WORK/play.out" && ok "compare-play-rules" || fail "compare-play-rules: $(head -20 "$WORK/play.out")"
grep -Eq '^ +A line [0-9]+ +name = xiangqi$' "$WORK/play.out" && grep -Eq '^ +B line [0-9]+ +stalemate = draw$' "$WORK/play.out" \
    && ok "compare-play-diff-lines" || fail "compare-play-diff-lines: $(head -20 "$WORK/play.out")"
grep -Eq '^evaluation +the same weights on the [0-9]+ features both rule sets have \(A: .*xiangqi\.ini; B: .*xiangqi\.ini\)' "$WORK/play.out" \
    && ok "compare-play-same-weights" || fail "compare-play-same-weights: $(grep evaluation "$WORK/play.out")"
grep -Eq '^settings +the same search settings and budgets' "$WORK/play.out" && ok "compare-play-same-settings" || fail "compare-play-same-settings"
grep -Eq '^verdict: ' "$WORK/play.out" && ok "compare-play-verdict" || fail "compare-play-verdict"
expect compare-play-same-file 2 'the same file on both sides' -- compare --play "$XQV" "$XQV" -n 2
expect compare-play-same-rules 2 'the two files hold the same rules' -- compare --play "$XQV" "$WORK/xqc.ini" -n 2
expect compare-play-one-file 2 '--play takes two variant files' -- compare --play "$XQV" -n 2

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
expect ladder-draw-interval 0 '^ +4 +[0-9]+/[0-9]+/[0-9]+ +[0-9.]+% +[0-9.]+% \.\. [0-9.]+% +[0-9.]+% +[0-9.]+% \.\. [0-9.]+% +\+-[0-9.]+' -- \
    ladder -v xiangqi --playouts 4,8 -n 4 -t 2 --seed 3
expect ladder-weights 0 '^weights: .*xiangqi\.ini' -- ladder -v xiangqi --playouts 4 -n 2 -t 2
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
