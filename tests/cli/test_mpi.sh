#!/bin/sh
# The MPI launch mode (built with -DXQLAB_WITH_MPI=ON): 2 ranks each play a shard, rank 0 writes the
# virtual-dataset index; the index and a merged copy of the shards equal a single-process run.
# Usage: test_mpi.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common="-v xiangqi --playouts 16 --seed 31 -n 16 -t 1"
mpi="mpirun --allow-run-as-root --oversubscribe -np 2"

"$xqlab" selfplay $common --progress quiet -o "$dir/single.h5" >"$dir/single.txt" || fail "single-process run"
$mpi "$xqlab" selfplay $common --progress log -o "$dir/run.h5" >"$dir/mpi.txt" 2>"$dir/mpi.err" \
  || fail "mpirun -np 2: $(tail -5 "$dir/mpi.err")"
grep -q 'games 16/16 .*(2 ranks)' "$dir/mpi.err" || fail "rank 0 printed no progress of both ranks"
[ "$(grep -c '^games ' "$dir/mpi.txt")" -eq 1 ] || fail "expected one summary (rank 0's)"
# The summary of both ranks equals the single run's (all lines but the timing line).
grep -v '^xqlab selfplay:\|^dataset' "$dir/single.txt" >"$dir/a"
grep -v '^xqlab selfplay:\|^dataset' "$dir/mpi.txt" >"$dir/b"
cmp -s "$dir/a" "$dir/b" || fail "summary of 2 ranks differs from the single run's: $(diff "$dir/a" "$dir/b")"
$compare "$dir/single.h5" "$dir/run.h5" || fail "MPI index differs from the single run"
"$xqlab" merge "$dir/run.shard-0000-of-0002.h5" "$dir/run.shard-0001-of-0002.h5" -o "$dir/copy.h5" >/dev/null \
  || fail "merge of the MPI shards"
$compare "$dir/single.h5" "$dir/copy.h5" || fail "merged MPI shards differ from the single run"
# Run again with --resume-if-present: everything complete, the index is checked and kept.
$mpi "$xqlab" selfplay $common --progress quiet --resume-if-present -o "$dir/run.h5" >/dev/null 2>"$dir/again.err" \
  || fail "second run with --resume-if-present: $(tail -3 "$dir/again.err")"
# The index is refused as existing without --resume*, on every rank, with a clean exit.
$mpi "$xqlab" selfplay $common --progress quiet -o "$dir/run.h5" >/dev/null 2>"$dir/exists.err"
[ $? -ne 0 ] || fail "existing index not refused"
grep -q 'already exists' "$dir/exists.err" || fail "no 'already exists' message"

# Interrupted runs: each rank reports its own shard, rank 0 the whole run (the counts used to be
# mixed: rank 0 said "interrupted after <all ranks' games> of <its shard's size>").
games_in() { HDF5_USE_FILE_LOCKING=FALSE "$xqlab" inspect --json "$1" | sed -n 's/.*"games": \([0-9]*\).*/\1/p' | head -1; }
live_lock_pid() { # the pid in $1.lock if it is a live process other than $2
  p=$(cut -d' ' -f1 "$1.lock" 2>/dev/null)
  [ -n "$p" ] && [ "$p" != "$2" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}
# Each shard is far longer than the ranks' start-up skew (30 games of a shard took 0.35 s here and
# one CI machine finished a shard before its SIGTERM landed): run 1 is never meant to complete.
brun="$dir/big.h5"
bshard() { printf '%s/big.shard-%04d-of-0002.h5' "$dir" "$1"; }
bcommon="-v xiangqi --playouts 32 --seed 37 -n 20000 -t 1 --flush-games 1 --progress quiet"
# 1. mpirun itself gets SIGTERM (it passes it to both ranks) once both ranks are playing.
$mpi "$xqlab" selfplay $bcommon -o "$brun" >/dev/null 2>"$dir/int1.err" &
mp=$!
i=0
until [ -s "$(bshard 0).tmp" ] && [ -s "$(bshard 1).tmp" ]; do
  i=$((i + 1)); [ $i -lt 600 ] || { kill -KILL $mp; fail "the ranks did not start in 60 s: $(cat "$dir/int1.err")"; }
  sleep 0.1
done
kill -TERM $mp
wait $mp && fail "mpirun -np 2 ended 0 after SIGTERM"
[ -e "$(bshard 0)" ] || [ -e "$(bshard 1)" ] && fail "a shard of 10000 games completed before the SIGTERM"
sum=0
for r in 0 1; do
  g=$(games_in "$(bshard $r).tmp")
  [ -n "$g" ] || fail "rank $r left no readable $(bshard $r).tmp"
  grep -qF "rank $r of 2: interrupted after $g of the 10000 games of its shard; they are in $(bshard $r).tmp" "$dir/int1.err" \
    || fail "rank $r's interruption message does not say its own $g of 10000 games: $(grep interrupted "$dir/int1.err")"
  sum=$((sum + g))
done
grep -qF "interrupted after $sum of 20000 games of the run (2 ranks)" "$dir/int1.err" \
  || fail "rank 0 does not say the run's $sum of 20000 games: $(grep interrupted "$dir/int1.err")"
[ "$(grep -c 'of the run' "$dir/int1.err")" -eq 1 ] || fail "the run's line is not printed once (by rank 0)"
irun="$dir/int.h5"
ishard() { printf '%s/int.shard-%04d-of-0002.h5' "$dir" "$1"; }
icommon="-v xiangqi --playouts 32 --seed 37 -n 600 -t 1 --flush-games 1 --progress quiet"
# 2. A run of 600 games in which only rank 1 is stopped, once it is playing: rank 0 completes its
# shard and says so.
$mpi "$xqlab" selfplay $icommon --resume-if-present -o "$irun" >/dev/null 2>"$dir/int2.err" &
mp=$!
i=0
until [ -s "$(ishard 1).tmp" ] && p1=$(live_lock_pid "$(ishard 1)" ""); do
  i=$((i + 1)); [ $i -lt 600 ] || { kill -KILL $mp; fail "rank 1 did not start in 60 s: $(cat "$dir/int2.err")"; }
  sleep 0.1
done
kill -TERM "$p1"
wait $mp && fail "mpirun -np 2 ended 0 with rank 1 stopped"
[ -f "$(ishard 0)" ] && [ ! -e "$(ishard 0).tmp" ] || fail "rank 0 did not complete its shard: $(cat "$dir/int2.err")"
g1=$(games_in "$(ishard 1).tmp")
grep -qF "rank 0 of 2: its shard $(ishard 0) is complete (300 games); another rank was interrupted" "$dir/int2.err" \
  || fail "rank 0 (complete) does not say so: $(grep 'rank 0' "$dir/int2.err")"
grep -qF "rank 1 of 2: interrupted after $g1 of the 300 games of its shard" "$dir/int2.err" \
  || fail "rank 1 does not say its own $g1 of 300 games: $(grep 'rank 1' "$dir/int2.err")"
grep -qF "interrupted after $((300 + g1)) of 600 games of the run (2 ranks)" "$dir/int2.err" \
  || fail "rank 0 does not say the run's $((300 + g1)) of 600 games: $(grep 'of the run' "$dir/int2.err")"
[ -e "$(ishard 1)" ] && fail "rank 1's shard of 300 games completed before its SIGTERM"
# 3. Resumed to the end: the index equals a single-process run.
"$xqlab" selfplay $icommon -o "$dir/isingle.h5" >/dev/null 2>&1 || fail "single-process run of 600 games"
$mpi "$xqlab" selfplay $icommon --resume -o "$irun" >/dev/null 2>"$dir/int3.err" || fail "final resume: $(tail -3 "$dir/int3.err")"
$compare "$dir/isingle.h5" "$irun" || fail "the interrupted and resumed MPI run differs from the single run"
echo "mpi 2 ranks: ok"
