#!/bin/sh
# xqlab selfplay end to end: identical datasets for 1 and 2 threads, SIGKILL then --resume and
# SIGINT then --resume give exactly the games of an uninterrupted run, exit codes of bad usage.
# Usage: test_selfplay.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common="-v xiangqi --playouts 24 --progress quiet --seed 7"

# Determinism across thread counts.
$xqlab selfplay $common -n 12 -t 1 -o "$dir/t1.h5" >/dev/null || fail "1-thread run"
$xqlab selfplay $common -n 12 -t 2 -o "$dir/t2.h5" >/dev/null || fail "2-thread run"
$compare "$dir/t1.h5" "$dir/t2.h5" || fail "1 and 2 threads differ"
# The alpha-beta player too (search = ab, the ab preset): a game must not depend on the games its
# thread played before (the root's stale static evaluation once made 1, 2 and 4 threads differ).
ab="-v xiangqi --preset ab --set ab_depth=3 --progress quiet --seed 5 -n 6"
for t in 1 2 4; do
  $xqlab selfplay $ab -t $t -o "$dir/ab$t.h5" >/dev/null || fail "search=ab run on $t threads"
done
$compare "$dir/ab1.h5" "$dir/ab2.h5" || fail "search=ab: 1 and 2 threads differ"
$compare "$dir/ab1.h5" "$dir/ab4.h5" || fail "search=ab: 1 and 4 threads differ"

# Reference for the interrupted runs.
n=300
$xqlab selfplay $common -n $n -t 2 -o "$dir/ref.h5" >/dev/null || fail "reference run"

# Waits until FILE.tmp holds at least one flushed game (at most 30 s).
wait_for_games() {
  i=0
  while [ $i -lt 300 ]; do
    # A fast machine may finish the whole run first: then there is nothing to interrupt.
    [ -f "$2" ] && return 0
    # The writer holds the HDF5 file lock; a reader may look without it.
    g=$(HDF5_USE_FILE_LOCKING=FALSE $xqlab inspect --json "$1" 2>/dev/null | sed -n 's/.*"games": \([0-9]*\).*/\1/p')
    [ -n "$g" ] && [ "$g" -ge 1 ] && return 0
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

for sig in KILL INT; do
  out="$dir/run-$sig.h5"
  $xqlab selfplay $common -n $n -t 2 --flush-games 2 -o "$out" >/dev/null 2>"$dir/err" &
  pid=$!
  if [ $sig = KILL ]; then
    # SIGKILL must find flushed games in the .tmp to prove they survive.
    wait_for_games "$out.tmp" "$out" || fail "no flushed game appeared in $out.tmp"
  else
    # SIGINT needs no flushed game: the run itself writes what it finished before exiting.
    sleep 0.3
  fi
  kill -$sig $pid 2>/dev/null
  wait $pid
  rc=$?
  if [ -f "$out" ] && [ ! -f "$out.tmp" ]; then
    # The run finished before the signal: nothing to resume, the file must still be right.
    echo "note: run finished before SIG$sig"
  else
    if [ $sig = INT ]; then
      [ $rc -eq 130 ] || fail "SIGINT: exit $rc, expected 130"
      grep -q -- "--resume" "$dir/err" || fail "SIGINT: no hint to --resume"
    fi
    [ -f "$out.tmp" ] || fail "SIG$sig left no $out.tmp"
    $xqlab selfplay $common -n $n -t 2 -o "$out" --resume >/dev/null || fail "resume after SIG$sig"
    [ ! -f "$out.tmp" ] || fail "$out.tmp left after a completed resume"
  fi
  $compare "$dir/ref.h5" "$out" || fail "resumed run after SIG$sig differs from the reference"
done

# A kill between the final rename and the clean-up leaves a stale .tmp next to the finished file:
# --resume reports the run complete (exit 0) and removes it.
cp "$dir/ref.h5" "$dir/done.h5"
: >"$dir/done.h5.tmp"
$xqlab selfplay $common -n $n -t 2 -o "$dir/done.h5" --resume >/dev/null 2>"$dir/err" ||
    fail "--resume of a finished file with a stale .tmp: $(cat "$dir/err")"
grep -q "already complete" "$dir/err" || fail "--resume of a finished file: no 'already complete'"
[ ! -f "$dir/done.h5.tmp" ] || fail "stale done.h5.tmp not removed"

# Hidden pieces: the summary of a finished file (read back: seat colours, swap flags and deals
# stored per game) repeats the seat, colour and paired-deal lines of the run that wrote it.
$xqlab selfplay -v banqi --paired-deals -n 6 --playouts 8 --seed 4 --progress quiet -o "$dir/bq.h5" \
    | grep -E '^(by colour|paired deals)' >"$dir/bq.run" || fail "banqi paired run"
$xqlab selfplay -v banqi --paired-deals -n 6 --playouts 8 --seed 4 --progress quiet -o "$dir/bq.h5" \
    --resume-if-present 2>/dev/null | grep -E '^(by colour|paired deals)' >"$dir/bq.file"
[ "$(wc -l <"$dir/bq.run")" -eq 2 ] || fail "banqi run summary lacks the colour / pair lines"
cmp -s "$dir/bq.run" "$dir/bq.file" || fail "summary from the finished banqi file differs from the run's"

# capture_knowledge = capturer (jieqi with that one option changed): each seat searches with what
# it saw of the pieces it captured; the run is still the same on 1 and 2 threads, and differs from
# the run with the default `nobody` (same seed: the knowledge changes the searches).
sed 's/^capture_knowledge = nobody$/capture_knowledge = capturer/' "$3/configs/variants/jieqi.ini" \
    >"$dir/jieqi-capturer.ini"
grep -q '^capture_knowledge = capturer$' "$dir/jieqi-capturer.ini" || fail "capturer variant not made"
jq="--playouts 16 --progress quiet --seed 3 -n 8 --set max_plies=100"
$xqlab selfplay -v "$dir/jieqi-capturer.ini" $jq -t 1 -o "$dir/cap1.h5" >/dev/null || fail "capturer run"
$xqlab selfplay -v "$dir/jieqi-capturer.ini" $jq -t 2 -o "$dir/cap2.h5" >/dev/null || fail "capturer -t 2"
$compare "$dir/cap1.h5" "$dir/cap2.h5" || fail "capturer: 1 and 2 threads differ"
$xqlab selfplay -v jieqi $jq -t 1 -o "$dir/nobody.h5" >/dev/null || fail "nobody run"
$xqlab export "$dir/cap1.h5" --pgn "$dir/cap1.pgn" --verify >/dev/null 2>"$dir/err" || fail "capturer games do not replay"
$xqlab export "$dir/nobody.h5" --pgn "$dir/nobody.pgn" >/dev/null 2>"$dir/err" || fail "nobody export"
grep -v '^\[' "$dir/cap1.pgn" >"$dir/cap1.moves"
grep -v '^\[' "$dir/nobody.pgn" >"$dir/nobody.moves"
! cmp -s "$dir/cap1.moves" "$dir/nobody.moves" || fail "capturer games equal nobody's"
# seat_trees: a tree per seat (what capturer always uses) plays other games than one shared tree,
# the same on 1 and 2 threads.
$xqlab selfplay -v jieqi $jq --set seat_trees=1 -t 1 -o "$dir/seat1.h5" >/dev/null || fail "seat_trees run"
$xqlab selfplay -v jieqi $jq --set seat_trees=1 -t 2 -o "$dir/seat2.h5" >/dev/null || fail "seat_trees -t 2"
$compare "$dir/seat1.h5" "$dir/seat2.h5" || fail "seat_trees: 1 and 2 threads differ"
$xqlab export "$dir/seat1.h5" --pgn "$dir/seat1.pgn" >/dev/null 2>"$dir/err" || fail "seat_trees export"
grep -v '^\[' "$dir/seat1.pgn" >"$dir/seat1.moves"
! cmp -s "$dir/seat1.moves" "$dir/nobody.moves" || fail "seat_trees games equal the shared tree's"

# Resource bounds: searches that fill the arena end the run with a warning, not an error.
$xqlab selfplay $common -n 2 --playouts 2000 --set arena_nodes=512 --no-output 2>"$dir/err" >/dev/null ||
    fail "selfplay with a full arena"
grep -q "warning: [0-9]* searches filled the node arena (arena_nodes = 512)" "$dir/err" ||
    fail "selfplay: no arena warning: $(cat "$dir/err")"

# Usage errors and refusals.
$xqlab selfplay $common -n 2 -o "$dir/ref.h5" >/dev/null 2>&1; [ $? -eq 1 ] || fail "existing output not refused"
$xqlab selfplay $common -n 0 >/dev/null 2>&1; [ $? -eq 2 ] || fail "-n 0 not a usage error"
$xqlab selfplay -v nosuchvariant -n 2 --no-output >/dev/null 2>&1; [ $? -eq 1 ] || fail "unknown variant"
$xqlab selfplay $common -n 2 --set c_puct=abc --no-output >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --set"
$xqlab selfplay $common -n 2 -o "$dir/none.h5" --resume >/dev/null 2>&1; [ $? -eq 1 ] || fail "resume without a .tmp"
echo "selfplay end to end: ok"
