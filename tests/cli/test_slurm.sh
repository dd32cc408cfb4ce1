#!/bin/bash
# The Slurm templates without a cluster: runs the body of scripts/slurm/selfplay-array.sbatch for
# every task id of a 3-task array with Slurm's environment set, stops one task with SIGUSR1 (as
# --signal=B:USR1 would) and checks it requeues itself and resumes, then runs merge.sbatch and
# checks the merged run equals a single-process run with the same seed.
# Usage: test_slurm.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
src=$3
compare="/usr/bin/python3 $src/tests/python/compare_datasets.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A stand-in for scontrol that records what it was asked.
mkdir "$dir/bin"
cat >"$dir/bin/scontrol" <<EOS
#!/bin/sh
echo "\$*" >>"$dir/scontrol.log"
EOS
chmod +x "$dir/bin/scontrol"
export PATH="$dir/bin:$PATH"
export XQLAB="$xqlab" VARIANT=xiangqi GAMES=60 SEED=21 RUN_DIR="$dir/run" XQLAB_ARGS="--playouts 16 --flush-games 1"
export SLURM_ARRAY_JOB_ID=4242 SLURM_JOB_ID=4243 SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=1 \
  SLURM_SUBMIT_DIR="$dir"
array="$src/scripts/slurm/selfplay-array.sbatch"
shard() { printf '%s/run/xiangqi.shard-%04d-of-0003.h5' "$dir" "$1"; }

"$xqlab" selfplay -v xiangqi -n 60 --seed 21 --playouts 16 -t 2 --progress quiet -o "$dir/single.h5" >/dev/null \
  || fail "single-process run"

SLURM_ARRAY_TASK_ID=0 bash "$array" 2>"$dir/log0" || fail "task 0: $(tail -3 "$dir/log0")"
[ -f "$(shard 0)" ] || fail "task 0 wrote no $(shard 0)"

# Task 1 gets Slurm's warning signal once it has written a game.
SLURM_ARRAY_TASK_ID=1 bash "$array" 2>"$dir/log1" &
pid=$!
i=0
until [ -f "$(shard 1).tmp" ] && HDF5_USE_FILE_LOCKING=FALSE "$xqlab" inspect --json "$(shard 1).tmp" 2>/dev/null \
    | grep -Eq '"games": [1-9]'; do
  i=$((i + 1))
  [ $i -lt 300 ] || fail "task 1 wrote no game in 30 s"
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -USR1 $pid 2>/dev/null
wait $pid
rc=$?
if [ -f "$(shard 1)" ]; then
  echo "note: task 1 finished before the signal"
else
  [ $rc -eq 0 ] || fail "task 1 after SIGUSR1: exit $rc, expected 0 after requeueing ($(tail -3 "$dir/log1"))"
  grep -q '^requeue 4242_1$' "$dir/scontrol.log" || fail "task 1 did not requeue itself"
  [ -f "$(shard 1).tmp" ] || fail "task 1 left no $(shard 1).tmp"
  # The requeued task resumes its shard.
  SLURM_ARRAY_TASK_ID=1 bash "$array" >"$dir/out1b" 2>"$dir/log1b" || fail "requeued task 1: $(tail -3 "$dir/log1b")"
  grep -q 'resumed run' "$dir/out1b" || fail "requeued task 1 did not resume"
fi
[ -f "$(shard 1)" ] && [ ! -f "$(shard 1).tmp" ] || fail "task 1 did not complete its shard"

SLURM_ARRAY_TASK_ID=2 bash "$array" 2>"$dir/log2" || fail "task 2: $(tail -3 "$dir/log2")"
# A task run again after its shard is complete does nothing.
SLURM_ARRAY_TASK_ID=2 bash "$array" 2>"$dir/log2b" || fail "task 2 again"
grep -q 'already complete' "$dir/log2b" || fail "task 2 again: no 'already complete'"
# A task id outside the array is refused.
SLURM_ARRAY_TASK_ID=3 bash "$array" 2>/dev/null; [ $? -eq 2 ] || fail "task id 3 of 3 not refused"

SHARDS=3 bash "$src/scripts/slurm/merge.sbatch" >/dev/null 2>"$dir/logm" || fail "merge.sbatch: $(cat "$dir/logm")"
$compare "$dir/single.h5" "$dir/run/xiangqi.h5" || fail "merged Slurm run differs from the single run"
SHARDS=3 MERGE=index RUN_DIR="$dir/run" bash -c 'mv "$RUN_DIR/xiangqi.h5" "$RUN_DIR/copy.h5"; bash "$0"' \
  "$src/scripts/slurm/merge.sbatch" >/dev/null 2>"$dir/logi" || fail "merge.sbatch index: $(cat "$dir/logi")"
$compare "$dir/single.h5" "$dir/run/xiangqi.h5" || fail "Slurm index differs from the single run"
echo "slurm array body: ok"
