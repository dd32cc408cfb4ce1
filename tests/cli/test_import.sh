#!/bin/sh
# test_import.sh - xqlab import: a hand-made collection with good and bad games (each bad game
# refused with its file, line, number and move, the good ones kept), the datasets report,
# openings, compare and export read, self-play games exported and imported again unchanged for
# every rule set, and the never-overwrite rule.
# usage: test_import.sh PATH/TO/xqlab HDF5_PLUGIN_DIR SOURCE_DIR
set -u
XQLAB="$1"
export HDF5_PLUGIN_PATH="$2"
SRC="$3"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
PGN="$SRC/tests/data/pgn/mixed-bad.pgn"

# expect NAME EXIT PATTERN -- ARGS...: exit status and a grep -E pattern on stdout + stderr.
expect() {
    name="$1"; want="$2"; pattern="$3"; shift 4
    "$XQLAB" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, expected $want: $(head -c 600 "$WORK/err")"
    elif [ -n "$pattern" ] && ! cat "$WORK/out" "$WORK/err" | grep -Eq -- "$pattern"; then
        fail "$name: no match for '$pattern' in: $(head -c 600 "$WORK/out") / $(head -c 600 "$WORK/err")"
    else
        ok "$name"
    fi
}

expect import-mixed 0 '4 games of xiangqi imported into .*; 4 refused' -- import "$PGN" -o "$WORK/m.h5"
cp "$WORK/err" "$WORK/import.err"
# Each bad game: file:line of its first tag, its number in the file, what and which move.
for line in \
    "mixed-bad.pgn:13: game 2 refused: move 2. R1+9 (ply 3) is not a legal WXF or ICCS move" \
    "mixed-bad.pgn:24: game 4 refused: result 0-1, but the final position is a win for red (checkmate)" \
    "mixed-bad.pgn:30: game 5 refused: game of variant sniper, but reading with xiangqi" \
    "mixed-bad.pgn:40: game 7 refused: bad [FEN]: expected '/' after rank 7"; do
    grep -qF -- "$line" "$WORK/import.err" && ok "names: $line" || fail "no '$line' in: $(cat "$WORK/import.err")"
done
[ "$(grep -c refused "$WORK/import.err")" -eq 5 ] && ok "four refusals and the summary" || fail "refusal count: $(cat "$WORK/import.err")"

# The good games as report and openings see them: 2 Red wins (one checkmate), 1 Black win, one
# unknown result; the opening tree counts the one game from the start with a result (C2.5), two
# from other starts and one without a result.
expect report-imported 0 'results +2 / 0 / 1' -- report "$WORK/m.h5"
expect report-unknown 0 'unknown +1 games without a result' -- report "$WORK/m.h5"
expect report-checkmate 0 'checkmate +1' -- report "$WORK/m.h5"
expect openings-imported 0 '"games": 1, "other_start": 2, "unknown_result": 1' -- openings "$WORK/m.h5" --json --depth 1 --min-games 1
expect openings-first-move 0 '"top_lines": \[\{"line": "C2.5", "games": 1' -- openings "$WORK/m.h5" --json --depth 1 --min-games 1
expect inspect-imported 0 'xqlab import' -- inspect "$WORK/m.h5"
# Exported again: the same games, with the players unknown.
expect export-imported 0 '4 games read back' -- export "$WORK/m.h5" --pgn "$WORK/m.pgn" --verify
grep -qx '\[Event "imported by xqlab, xiangqi"\]' "$WORK/m.pgn" && grep -qx '\[Red "?"\]' "$WORK/m.pgn" &&
    ok "exported imports do not claim to be self-play" || fail "export of an import: $(head -8 "$WORK/m.pgn")"

# Refusals of the command itself.
expect exists 1 'already exists: choose another -o, or add --force to replace it \(nothing was overwritten\)' -- import "$PGN" -o "$WORK/m.h5"
before=$(cksum <"$WORK/m.h5")
[ "$(cksum <"$WORK/m.h5")" = "$before" ] && ok "existing output untouched" || fail "existing output changed"
expect force 0 '4 games of xiangqi imported' -- import "$PGN" -o "$WORK/m.h5" --force
expect strict 1 '--strict: 4 of 8 games refused: nothing written' -- import "$PGN" -o "$WORK/strict.h5" --strict
[ ! -e "$WORK/strict.h5" ] && [ ! -e "$WORK/strict.h5.tmp" ] && ok "strict wrote nothing" || fail "strict left a file"
printf '[Event "x"]\n\n1. h2h8 *\n' >"$WORK/allbad.pgn"
expect none-good 1 'no game could be imported \(1 refused\)' -- import "$WORK/allbad.pgn" -o "$WORK/none.h5"
expect into-input 1 'is an input of this command' -- import "$PGN" -o "$PGN"
expect no-output 2 'needs -o' -- import "$PGN"
expect missing-file 1 'nonexistent.pgn' -- import "$WORK/nonexistent.pgn" -o "$WORK/x.h5"
printf '[Event "x"]\n[Variant "Xiangqi"]\n\n1. h2e2 h9g7 *\n' >"$WORK/case.pgn"
expect variant-tag-case 0 '1 games of xiangqi imported' -- import "$WORK/case.pgn" -o "$WORK/case.h5"
expect wrong-variant 0 '1 games of sniper imported' -- import "$PGN" -v sniper -o "$WORK/sn.h5"

# Every rule set: self-play exported (ICCS, or WXF for xiangqi) and imported gives the same
# games (export --verify of the import against the original PGN's moves).
for v in xiangqi jieqi banqi sniper river-camp tuoqi cube five-tigers mixed; do
    "$XQLAB" selfplay -v "$v" -n 2 --playouts 12 --seed 3 -o "$WORK/$v.h5" --progress quiet >/dev/null 2>&1 ||
        { fail "$v: selfplay"; continue; }
    "$XQLAB" export "$WORK/$v.h5" --pgn "$WORK/$v.pgn" 2>/dev/null || { fail "$v: export"; continue; }
    if ! "$XQLAB" import "$WORK/$v.pgn" -o "$WORK/$v-imp.h5" 2>"$WORK/err"; then
        fail "$v: import: $(cat "$WORK/err")"; continue
    fi
    "$XQLAB" export "$WORK/$v-imp.h5" --pgn "$WORK/$v-again.pgn" 2>/dev/null
    # Moves and results must be identical; headers differ (players unknown after import).
    a=$(sed '/^\[/d' "$WORK/$v.pgn"); b=$(sed '/^\[/d' "$WORK/$v-again.pgn")
    [ "$a" = "$b" ] && ok "$v: export, import, export: same moves and results" || fail "$v: the games changed"
done
# Self-play and imported games of one rule set side by side.
expect compare-imported-refused 1 'B holds games without search settings \(imported' -- compare "$WORK/xiangqi.h5" -- "$WORK/xiangqi-imp.h5"
expect compare-imported 0 'red score' -- compare --allow-different-settings "$WORK/xiangqi.h5" -- "$WORK/xiangqi-imp.h5"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
