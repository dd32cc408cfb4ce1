#!/bin/sh
# test_label.sh - xqlab label end to end: a scripted teacher's scores become the root values of
# the copy (cp -> tanh(cp / 100 / scale), mates -> +1, a second principal variation ignored),
# positions in check or before a capture get none unless --all-positions, everything else is
# copied unchanged, the teacher is recorded; a teacher that dies mid-run leaves a resumable
# file whose --resume equals an uninterrupted run; refusals (existing output, a second limit,
# bad numbers, no score, face-down pieces, --resume without a run); a real Fairy-Stockfish
# labelling, `xqlab tune` reading the labelled file, and scripts/analysis/teacher_agreement.py.
# usage: test_label.sh PATH/TO/xqlab SOURCE_DIR PLUGIN_DIR   (needs /usr/bin/python3 with h5py)
set -u
XQLAB="$1"
SRC="$2"
export HDF5_PLUGIN_PATH="$3"
PY=/usr/bin/python3
T="$SRC/tests/data/fake_teacher.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }

"$XQLAB" selfplay -v xiangqi --preset ab --set ab_depth=2 -n 10 --seed 3 -t 1 --progress quiet \
    -o "$dir/d.h5" > /dev/null 2>&1 || { echo "FAIL selfplay"; exit 1; }

if out=$(FAKE_TEACHER_COUNT="$dir/count" "$XQLAB" label "$dir/d.h5" -o "$dir/l.h5" --engine "sh $T good" \
    --nodes 77 -t 2 --quiet 2>&1); then
    ok "label runs"
else
    fail "label runs: $out"
fi
echo "$out" | grep -q "10 games, [1-9][0-9]* positions labelled by fake teacher (nodes 77; [1-9][0-9]* as mates)" &&
    ok "summary line" || fail "summary line: $out"

# Values: the fake teacher scores the position after P moves 10P cp (a mate at P = 0 mod 5).
# Missing only where the position is in check or its move captures (a capture lowers the piece
# count of the next position); every capture position is missing; the rest is the input's.
check() { # check LABELLED ALL(0|1)
    "$PY" - "$dir/d.h5" "$1" "$2" <<'PYEOF'
import math, sys
import h5py, numpy as np
src, dst, all_pos = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
a, b = h5py.File(src, "r"), h5py.File(dst, "r")
bad = []
for col in ("/games/result", "/games/termination", "/moves/move", "/positions/board", "/positions/played",
            "/positions/static_eval", "/positions/ply"):
    if col in a and not np.array_equal(a[col][...], b[col][...]):
        bad.append("column %s differs" % col)
rv = b["/positions/root_value"]
raw, miss = rv[...].astype(np.int64), rv.attrs["missing"]
ply = b["/positions/ply"][...].astype(np.int64)
game = b["/positions/game"][...]
board = b["/positions/board"][...]
labelled = 0
for i in range(len(raw)):
    pieces = int(np.count_nonzero(board[i]))
    nxt = int(np.count_nonzero(board[i + 1])) if i + 1 < len(raw) and game[i + 1] == game[i] else pieces
    capture = nxt < pieces
    if raw[i] == miss:
        if all_pos:
            bad.append("position %d has no value with --all-positions" % i)
        continue
    if capture and not all_pos:
        bad.append("position %d precedes a capture but has a value" % i)
    want = 1.0 if ply[i] % 5 == 0 else math.tanh(ply[i] * 10 / 100 / 10)
    if abs(raw[i] / 32767 - want) > 1.5 / 32767:
        bad.append("position %d (ply %d): %.5f, want %.5f" % (i, ply[i], raw[i] / 32767, want))
    labelled += 1
params = b.attrs["params_text"]
params = params.decode() if isinstance(params, bytes) else str(params)
for key in ("teacher = fake teacher\n", "teacher_limit = nodes 77", "teacher_eval_scale = 10"):
    if key not in params:
        bad.append("params_text lacks '%s'" % key)
if labelled == 0 or (not all_pos and labelled == len(raw)):
    bad.append("%d of %d positions labelled" % (labelled, len(raw)))
print("\n".join(bad[:5]) if bad else "ok %d" % labelled)
PYEOF
}
res=$(check "$dir/l.h5" 0)
case "$res" in ok*) ok "values, gaps and copied columns ($res)" ;; *) fail "labelled file: $res" ;; esac
"$XQLAB" label "$dir/d.h5" -o "$dir/all.h5" --engine "sh $T good" --nodes 77 --all-positions --quiet > /dev/null 2>&1
res=$(check "$dir/all.h5" 1)
case "$res" in ok*) ok "--all-positions ($res)" ;; *) fail "--all-positions: $res" ;; esac

# A teacher that dies for good in the last game (after the first batch of 8 games is committed)
# stops the run with the game and ply named; --resume completes it from game 8, equal to the
# uninterrupted run; a plain rerun is refused while the interrupted run is there.
total=$(wc -l < "$dir/count")
err=$(FAKE_TEACHER_COUNT="$dir/count2" FAKE_TEACHER_DIE_AT=$((total - 3)) "$XQLAB" label "$dir/d.h5" \
    -o "$dir/r.h5" --engine "sh $T good" --nodes 77 -t 1 --quiet 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "game 9, ply .*died.*twice" && echo "$err" | grep -q "\-\-resume continues" &&
    [ ! -e "$dir/r.h5" ] && ok "dying teacher stops the run, resumable" || fail "dying teacher: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/r.h5" --engine "sh $T good" --nodes 77 --quiet 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "interrupted run" && ok "interrupted run protected" ||
    fail "interrupted run not protected: $err"
out=$("$XQLAB" label "$dir/d.h5" -o "$dir/r.h5" --engine "sh $T good" --nodes 77 --resume --quiet 2>&1)
echo "$out" | grep -q " 8 games resumed" && ok "resume starts at game 8" || fail "resume: $out"
same=$("$PY" -c "
import sys, h5py, numpy as np
a, b = h5py.File('$dir/l.h5', 'r'), h5py.File('$dir/r.h5', 'r')
print(np.array_equal(a['/positions/root_value'][...], b['/positions/root_value'][...]))")
[ "$same" = True ] && ok "resume equals an uninterrupted run" || fail "resumed values differ: $same"

# Refusals.
before=$(cksum < "$dir/l.h5")
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/l.h5" --engine "sh $T good" 2>&1)
[ $? -eq 1 ] && [ "$(cksum < "$dir/l.h5")" = "$before" ] && ok "existing output refused" ||
    fail "existing output: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/d.h5" --engine "sh $T good" --force 2>&1)
[ $? -eq 1 ] && "$XQLAB" inspect "$dir/d.h5" > /dev/null 2>&1 && ok "input as output refused" ||
    fail "input as output: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/x.h5" --nodes 5 --depth 3 2>&1)
[ $? -eq 2 ] && echo "$err" | grep -q "one of --nodes, --depth and --movetime" && ok "two limits refused" ||
    fail "two limits: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/x.h5" --nodes 0 2>&1)
[ $? -eq 2 ] || fail "--nodes 0 accepted: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/x.h5" --eval-scale abc 2>&1)
[ $? -eq 2 ] || fail "--eval-scale abc accepted: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/x.h5" --resume --engine "sh $T good" 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "no interrupted run" && ok "--resume without a run refused" ||
    fail "--resume without a run: $err"
err=$("$XQLAB" label "$dir/d.h5" -o "$dir/n.h5" --engine "sh $T noscore" --quiet 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "without a score" && ok "teacher without scores refused" ||
    fail "no score: $err"
err=$("$XQLAB" label "$dir/missing.h5" -o "$dir/x.h5" 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "missing.h5" || fail "missing input: $err"
"$XQLAB" selfplay -v jieqi -n 1 --playouts 8 --progress quiet -o "$dir/j.h5" > /dev/null 2>&1 || fail "jieqi selfplay"
err=$("$XQLAB" label "$dir/j.h5" -o "$dir/x.h5" --engine "sh $T good" 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "face-down pieces" && [ ! -e "$dir/x.h5" ] && [ ! -e "$dir/x.h5.tmp" ] &&
    ok "face-down pieces refused" || fail "jieqi: $err"

# The real teacher of docs/training.md, and the tuner reading its labels.
if "$XQLAB" label "$dir/d.h5" -o "$dir/f.h5" --nodes 300 -t 2 --quiet > "$dir/f.txt" 2>&1 &&
   grep -q "labelled by Fairy-Stockfish" "$dir/f.txt"; then
    ok "Fairy-Stockfish as teacher"
else
    fail "Fairy-Stockfish as teacher: $(cat "$dir/f.txt")"
fi
if "$XQLAB" tune "$dir/f.h5" -o "$dir/w.ini" --only material --quiet -t 1 > "$dir/t.txt" 2>&1; then
    ok "tune reads the labels"
else
    fail "tune on the labelled file: $(tail -3 "$dir/t.txt")"
fi
# scripts/analysis/teacher_agreement.py: the teacher's values explain themselves fully (at scale
# 1), the player's less; files of other games and unknown columns are refused.
A="$SRC/scripts/analysis/teacher_agreement.py"
res=$("$PY" "$A" "$dir/l.h5" "$dir/l.h5" "$dir/d.h5" "$dir/d.h5:static_eval" 2>&1)
echo "$res" | grep -q "^$dir/l.h5: [0-9]* positions .* (scale 1.000)  explained 100.0%" &&
    ok "agreement with itself: 100%" || fail "agreement with itself: $res"
pct=$(echo "$res" | sed -n "s|^$dir/d.h5: .*explained \(-\{0,1\}[0-9]*\)\..*|\1|p")
[ -n "$pct" ] && [ "$pct" -lt 100 ] && echo "$res" | grep -q "^$dir/d.h5:static_eval: " &&
    ok "agreement of the player's values: $pct%" || fail "player's agreement: $res"
err=$("$PY" "$A" "$dir/l.h5" "$dir/j.h5" 2>&1)
[ $? -eq 1 ] && echo "$err" | grep -q "not the same games" && ok "other games refused" || fail "other games: $err"
err=$("$PY" "$A" "$dir/l.h5" "$dir/d.h5:board" 2>&1)
[ $? -eq 2 ] && echo "$err" | grep -q "column must be" && ok "bad column refused" || fail "bad column: $err"

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "all label tests passed"
