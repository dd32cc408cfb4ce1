#!/bin/bash
# The Slurm templates without a cluster (tests/cli/test_slurm_real.sh runs them under a real
# Slurm): runs the body of scripts/slurm/selfplay-array.sbatch for the task ids of a 3-shard run
# with Slurm's environment set: task 0 plain; task 1 gets SIGUSR1 (as --signal=B:USR1 would) and
# must requeue itself and resume; task 2 is stopped as scancel stops it (SIGTERM to the script and
# to xqlab: two stop signals for xqlab) and must exit 130 with its .tmp, not requeued, then is
# resubmitted alone (an array of one task, SHARDS=3) and completes. merge.sbatch refuses while a
# shard is unfinished, naming the task to resubmit, then its result equals a single-process run.
# Also a plain selfplay sent two SIGTERMs: exit 130, and --resume completes it.
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
touch "$dir/scontrol.log"
export PATH="$dir/bin:$PATH"
export XQLAB="$xqlab" VARIANT=xiangqi GAMES=12 SEED=21 RUN_DIR="$dir/run" XQLAB_ARGS="--playouts 400 --flush-games 1"
export SLURM_ARRAY_JOB_ID=4242 SLURM_JOB_ID=4243 SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=1 \
  SLURM_SUBMIT_DIR="$dir" SHARDS=3
array="$src/scripts/slurm/selfplay-array.sbatch"
shard() { printf '%s/run/xiangqi.shard-%04d-of-0003.h5' "$dir" "$1"; }
# has_game FILE: FILE exists and holds at least one game.
has_game() {
  [ -f "$1" ] && HDF5_USE_FILE_LOCKING=FALSE "$xqlab" inspect --json "$1" 2>/dev/null | grep -Eq '"games": [1-9]'
}
# wait_game FILE PID: until FILE holds a game (30 s at most) or PID has ended.
wait_game() {
  local i=0
  until has_game "$1"; do
    i=$((i + 1))
    [ $i -lt 300 ] || fail "$1: no game written in 30 s"
    kill -0 "$2" 2>/dev/null || return 0
    sleep 0.1
  done
}

# delivered PID: until PID's pending SIGTERM has been taken (two signals sent at once would merge
# into one, and the second must come after the first has reached the process's handler).
delivered() {
  local i=0 p
  while p=$(sed -n 's/^ShdPnd:[[:space:]]*//p;s/^SigPnd:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null | tr '\n' ' ') \
      && [ -n "$p" ]; do
    local pending=0 m
    for m in $p; do (( (16#$m & 0x4000) != 0 )) && pending=1; done
    [ $pending -eq 0 ] && return 0
    i=$((i + 1))
    [ $i -lt 3000 ] || fail "pid $1 did not take its SIGTERM in 30 s"
    sleep 0.01
  done
}

"$xqlab" selfplay -v xiangqi -n 12 --seed 21 --playouts 400 -t 2 --progress quiet -o "$dir/single.h5" >/dev/null \
  || fail "single-process run"

# The shard count is an explicit setting.
SHARDS= SLURM_ARRAY_TASK_ID=0 bash "$array" 2>"$dir/log" >/dev/null; rc=$?
[ $rc -eq 2 ] && grep -q "SHARDS must be the run's shard count" "$dir/log" || fail "no SHARDS: exit $rc, $(cat "$dir/log")"
SHARDS=3x SLURM_ARRAY_TASK_ID=0 bash "$array" 2>/dev/null >/dev/null; [ $? -eq 2 ] || fail "SHARDS=3x not refused"
SLURM_ARRAY_TASK_ID=3 bash "$array" 2>"$dir/log"; rc=$?
[ $rc -eq 2 ] && grep -q "task id 3 is not a shard of SHARDS=3" "$dir/log" || fail "task id 3 of 3: exit $rc"
[ ! -e "$dir/run" ] || [ -z "$(ls "$dir/run")" ] || fail "a refused task wrote files: $(ls "$dir/run")"

SLURM_ARRAY_TASK_ID=0 bash "$array" 2>"$dir/log0" || fail "task 0: $(tail -3 "$dir/log0")"
[ -f "$(shard 0)" ] || fail "task 0 wrote no $(shard 0)"

# Task 1 gets Slurm's warning signal (USR1 to the batch script only) once it has written a game.
SLURM_ARRAY_TASK_ID=1 bash "$array" 2>"$dir/log1" &
pid=$!
wait_game "$(shard 1).tmp" $pid
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

# Task 2 is cancelled: scancel sends SIGTERM to every process of the job, and the script forwards
# its own to xqlab. xqlab must stop gracefully (130, .tmp kept) and the task must not requeue.
SLURM_ARRAY_TASK_ID=2 bash "$array" 2>"$dir/log2" &
pid=$!
wait_game "$(shard 2).tmp" $pid
child=$(pgrep -P $pid | head -1)
[ -n "$child" ] || fail "task 2: no xqlab process under the batch script (finished before the signal?)"
kill -TERM $child
delivered $child
kill -0 $child 2>/dev/null || fail "task 2: xqlab ended before the second SIGTERM"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "task 2 after scancel's SIGTERMs: exit $rc, expected 130 ($(tail -3 "$dir/log2"))"
grep -q 'interrupted after' "$dir/log2" || fail "task 2: xqlab did not stop gracefully: $(tail -3 "$dir/log2")"
grep -q 'not requeued' "$dir/log2" || fail "task 2: no 'not requeued' in its log"
! grep -q '4242_2' "$dir/scontrol.log" || fail "a cancelled task requeued itself: $(cat "$dir/scontrol.log")"
[ -f "$(shard 2).tmp" ] && [ ! -f "$(shard 2)" ] || fail "task 2 left no $(shard 2).tmp"

# The merge refuses while shard 2 is unfinished, naming the task to resubmit; nothing written.
bash "$src/scripts/slurm/merge.sbatch" >/dev/null 2>"$dir/logm0"; rc=$?
[ $rc -eq 1 ] || fail "merge with shard 2 unfinished: exit $rc"
grep -q 'resubmit the tasks 2 (sbatch --array=2' "$dir/logm0" || fail "merge did not name task 2: $(cat "$dir/logm0")"
[ ! -e "$dir/run/xiangqi.h5" ] || fail "merge wrote a file with a shard unfinished"

# Resubmitted alone (sbatch --array=2): an array of one task, SHARDS still 3.
SLURM_ARRAY_JOB_ID=5000 SLURM_JOB_ID=5000 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_ID=2 \
  bash "$array" >"$dir/out2b" 2>"$dir/log2b" || fail "resubmitted task 2: $(tail -3 "$dir/log2b")"
grep -q 'resumed run' "$dir/out2b" || fail "resubmitted task 2 did not resume"
[ -f "$(shard 2)" ] && [ ! -f "$(shard 2).tmp" ] || fail "resubmitted task 2 did not complete its shard"
# A task run again after its shard is complete does nothing.
SLURM_ARRAY_TASK_ID=2 bash "$array" 2>"$dir/log2c" >/dev/null || fail "task 2 again"
grep -q 'already complete' "$dir/log2c" || fail "task 2 again: no 'already complete'"

bash "$src/scripts/slurm/merge.sbatch" >/dev/null 2>"$dir/logm" || fail "merge.sbatch: $(cat "$dir/logm")"
$compare "$dir/single.h5" "$dir/run/xiangqi.h5" || fail "merged Slurm run differs from the single run"
MERGE=index bash -c 'mv "$RUN_DIR/xiangqi.h5" "$RUN_DIR/copy.h5"; bash "$0"' \
  "$src/scripts/slurm/merge.sbatch" >/dev/null 2>"$dir/logi" || fail "merge.sbatch index: $(cat "$dir/logi")"
$compare "$dir/single.h5" "$dir/run/xiangqi.h5" || fail "Slurm index differs from the single run"
SHARDS= bash "$src/scripts/slurm/merge.sbatch" >/dev/null 2>&1; [ $? -eq 2 ] || fail "merge without SHARDS not refused"

# A plain selfplay sent two SIGTERMs while it plays: a graceful stop (130), then --resume
# completes the same dataset.
plain=("$xqlab" selfplay -v xiangqi -n 12 --seed 21 --playouts 400 -t 2 --flush-games 1 --progress quiet
  -o "$dir/plain.h5")
"${plain[@]}" >/dev/null 2>"$dir/logp" &
pid=$!
wait_game "$dir/plain.h5.tmp" $pid
kill -TERM $pid
delivered $pid
kill -0 $pid 2>/dev/null || fail "plain selfplay ended before the second SIGTERM"
kill -TERM $pid
wait $pid
rc=$?
if [ -f "$dir/plain.h5" ]; then
  fail "plain selfplay finished before the two SIGTERMs (make the run longer)"
fi
[ $rc -eq 130 ] || fail "plain selfplay after two SIGTERMs: exit $rc, expected 130 ($(tail -2 "$dir/logp"))"
grep -q 'interrupted after' "$dir/logp" || fail "plain selfplay: no 'interrupted after'"
"${plain[@]}" --resume >"$dir/outp" 2>"$dir/logp2" || fail "resume after two SIGTERMs: $(tail -2 "$dir/logp2")"
$compare "$dir/single.h5" "$dir/plain.h5" || fail "resumed run after two SIGTERMs differs from the single run"
echo "slurm array body: ok"
