#!/bin/bash
# The Slurm templates under a real Slurm: a single-node cluster of its own (tests/slurm/cluster.sh:
# munged, slurmctld, slurmd from Debian's munge, slurmctld, slurmd and slurm-client, no systemd,
# state, logs and ports of its own) runs scripts/slurm/selfplay-array.sbatch as a 4-task array
# of a tiny run, with merge.sbatch submitted after it with --dependency=afterany:
#   * task 3 is cancelled mid-run (scancel: SIGTERM to the batch script and to xqlab): xqlab
#     stops gracefully (exit 130, its .tmp kept), the task ends CANCELLED and is not requeued;
#   * task 1 gets the time limit's warning mid-run (scancel --batch --signal=USR1, which is what
#     --signal=B:USR1@T sends): it requeues itself and the requeued run resumes and completes;
#   * the merge runs once every task has ended (after the requeued task, not before) and refuses,
#     naming task 3 and writing nothing;
#   * a second job on shard 0 while task 0 plays it (held with SIGSTOP meanwhile) is refused by
#     the output's lock (FAILED, exit 1, 'locked by pid N on HOST' naming task 0's xqlab), and
#     task 0's .tmp is left byte for byte as it was (task 0 then completes its shard);
#   * a job submitted with --dependency=afterok on the array is never started
#     (DependencyNeverSatisfied) once task 3 is cancelled;
#   * --array=1,3 with SHARDS=4 resubmits two tasks: 1 is already complete, 3 resumes and
#     completes; a second merge (afterany on that job) joins the 4 shards, equal to one
#     single-process run of the same seed (tests/python/compare_datasets.py);
#   * `srun -n 2` of a plain selfplay with one -o: one task refused by the lock (exit 1), the
#     other's file equal to a single run.
# Then the daemons are stopped and no process of the cluster may be left. Run as root (the
# cluster's SlurmUser); the Slurm packages are required: without them the test fails.
# Usage: test_slurm_real.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$(realpath "$1")
export HDF5_PLUGIN_PATH=$2
src=$(realpath "$3")
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
compare="/usr/bin/python3 $src/tests/python/compare_datasets.py"
t0=$(date +%s)

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the real-Slurm test runs its daemons as root (SlurmUser=root); run it as root (scripts/test.sh does)"
  exit 77
fi

# shellcheck source=cluster.sh
. "$here/cluster.sh"
dir=$(mktemp -d /tmp/xqlab-slurm.XXXXXX)
chmod 755 "$dir" # munged wants every folder above its socket searchable by all
failed=0
held_pid=
finish() {
  local rc=$?
  [ -n "$held_pid" ] && kill -CONT "$held_pid" 2>/dev/null
  [ $failed -eq 1 ] && rc=1
  if ! cluster_stop; then
    echo "FAIL: the cluster's processes did not all end"
    rc=1
  fi
  if [ $rc -ne 0 ]; then
    echo "--- the last lines of the logs ($dir is removed)"
    for f in "$dir"/logs/* "$dir"/ctld.log "$dir"/d.log; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
    done
  fi
  rm -rf "$dir"
  exit $rc
}
trap finish EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; failed=1; exit 1; }
elapsed() { echo "$(($(date +%s) - t0)) s"; }

cluster_start "$dir/cluster" || fail "the Slurm daemons did not start"
echo "cluster up ($(elapsed))"

variant=xiangqi
games=1440
seed=21
shards=4
args="--playouts 32 --flush-games 1"
mkdir -p "$dir/logs" "$dir/run"
# What every task and merge gets (sbatch --export=ALL passes the submitting environment on).
export XQLAB="$xqlab" VARIANT=$variant GAMES=$games SEED=$seed RUN_DIR="$dir/run" XQLAB_ARGS="$args"
shard() { printf '%s/run/%s.shard-%04d-of-%04d.h5' "$dir" $variant "$1" $shards; }
# Options that fit the test's node (6 CPUs, a few GB); the templates' own #SBATCH lines stay.
fit=(--cpus-per-task=1 --time=10 --chdir="$dir")
task_fit=("${fit[@]}" --mem-per-cpu=100M)
merge_fit=("${fit[@]}" --mem=200M)

# job_field JOB FIELD: FIELD=VALUE of `scontrol show job JOB` (no accounting here: no sacct).
job_field() { scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
# wait_state JOB SECONDS STATE...: until JOB is in one of the STATEs.
wait_state() {
  local job=$1 limit=$(($2 * 5)) i=0 st
  shift 2
  while :; do
    st=$(job_field "$job" JobState)
    for s in "$@"; do [ "$st" = "$s" ] && return 0; done
    i=$((i + 1))
    [ $i -lt $limit ] || fail "job $job: state '$st' after $((limit / 5)) s, expected $* ($(elapsed))"
    sleep 0.2
  done
}
# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds (polled every 0.2 s).
wait_for() {
  local limit=$(($1 * 5)) what=$2 i=0
  shift 2
  until "$@"; do
    i=$((i + 1))
    [ $i -lt $limit ] || fail "waited $((limit / 5)) s for $what ($(elapsed))"
    sleep 0.2
  done
}
# retry_scancel ARGS...: scancel, again while slurmctld answers that the job cannot be altered
# now (it does while the job is being started or ended; 20 s at most).
retry_scancel() {
  local i
  for i in $(seq 40); do
    scancel "$@" 2>"$dir/scancel.err" && return 0
    grep -qi 'try again\|can not be altered now' "$dir/scancel.err" || break
    sleep 0.5
  done
  fail "scancel $*: $(cat "$dir/scancel.err")"
}
has_game() {
  [ -f "$1" ] && HDF5_USE_FILE_LOCKING=FALSE "$xqlab" inspect --json "$1" 2>/dev/null | grep -Eq '"games": [1-9]'
}
# wait_playing FILE JOB: until JOB's xqlab has created FILE (its .tmp: it is playing; 60 s at
# most); fails if JOB ends first. (A .tmp being written cannot be read reliably, so its games
# are counted only once it is closed.)
wait_playing() {
  local i=0 st
  until [ -s "$1" ]; do
    i=$((i + 1))
    [ $i -lt 600 ] || fail "$1: not created in 60 s ($(elapsed))"
    st=$(job_field "$2" JobState)
    case "$st" in PENDING | CONFIGURING | RUNNING | "") ;; *) fail "job $2 ended ($st) before it wrote $1" ;; esac
    sleep 0.1
  done
}

# The reference: one process playing the whole run.
"$xqlab" selfplay -v $variant -n $games --seed $seed $args -t 1 --progress quiet \
  -o "$dir/single.h5" >/dev/null 2>"$dir/logs/single" &
single=$!

jid=$(sbatch --parsable --array=0-3 "${task_fit[@]}" --output="$dir/logs/sp-%A_%a.log" \
  --export=ALL,SHARDS=$shards "$src/scripts/slurm/selfplay-array.sbatch") || fail "sbatch of the array"
mjid=$(sbatch --parsable --dependency=afterany:"$jid" "${merge_fit[@]}" --output="$dir/logs/merge1.log" \
  --export=ALL,SHARDS=$shards "$src/scripts/slurm/merge.sbatch") || fail "sbatch of the merge"
okjid=$(sbatch --parsable --dependency=afterok:"$jid" "${merge_fit[@]}" --output="$dir/logs/afterok.log" \
  --wrap=true) || fail "sbatch of the afterok job"
echo "array $jid, merge $mjid, afterok job $okjid submitted"
log() { echo "$dir/logs/sp-${jid}_$1.log"; }

# A second job on shard 0 while task 0 plays it (the same task submitted twice). Task 0's xqlab
# is held with SIGSTOP meanwhile, so that under load it cannot finish its shard before the
# second job starts (which would then rightly find the shard complete), and so that its .tmp
# must stay byte for byte what it was.
wait_state "${jid}_0" 60 RUNNING
wait_playing "$(shard 0).tmp" "${jid}_0"
wait_for 30 "task 0 to write its lock file" test -s "$(shard 0).lock"
held_pid=$(awk '{print $1; exit}' "$(shard 0).lock")
[ -n "$held_pid" ] && kill -STOP "$held_pid" || fail "task 0: no xqlab process in $(shard 0).lock: $(cat "$(shard 0).lock")"
# kill returns once the signal is queued: a thread of task 0 may still finish the write it is in
# (CI of 1045405 saw the .tmp grow after kill -STOP). The snapshot waits until every thread of
# the process is stopped (state T).
all_stopped() {
  local t st
  for t in /proc/"$held_pid"/task/*; do
    st=$(sed 's/^.*) //' "$t/stat" 2>/dev/null | cut -d' ' -f1)
    [ "$st" = T ] || [ -z "$st" ] || return 1
  done
}
wait_for 10 "task 0's xqlab (pid $held_pid) to stop" all_stopped
tmp0_before=$(stat -c '%i %s %Y' "$(shard 0).tmp")-$(sha256sum <"$(shard 0).tmp")
dup=$(sbatch --parsable --array=0 "${task_fit[@]}" --output="$dir/logs/dup-%A_%a.log" \
  --export=ALL,SHARDS=$shards "$src/scripts/slurm/selfplay-array.sbatch") || fail "sbatch of the second task 0"

# Task 3: cancelled by its user once it has saved a game.
wait_state "${jid}_3" 60 RUNNING
wait_playing "$(shard 3).tmp" "${jid}_3"
retry_scancel "${jid}_3"
# Task 1: the time limit's warning (--signal=B:USR1@120 sends USR1 to the batch script only).
wait_state "${jid}_1" 60 RUNNING
wait_playing "$(shard 1).tmp" "${jid}_1"
retry_scancel --batch --signal=USR1 "${jid}_1"
echo "task 3 cancelled, task 1 warned ($(elapsed))"

wait_state "${dup}_0" 90 FAILED COMPLETED CANCELLED
grep -q "locked by pid $held_pid on $(hostname)" "$dir/logs/dup-${dup}_0.log" \
  || fail "a second task on shard 0 was not refused by its lock (held by pid $held_pid): $(job_field "${dup}_0" JobState), $(tail -n 3 "$dir/logs/dup-${dup}_0.log")"
[ "$(job_field "${dup}_0" JobState)" = FAILED ] && [ "$(job_field "${dup}_0" ExitCode)" = 1:0 ] \
  || fail "the refused second task 0 ended $(job_field "${dup}_0" JobState) with exit $(job_field "${dup}_0" ExitCode), expected FAILED 1:0"
tmp0_after=$(stat -c '%i %s %Y' "$(shard 0).tmp")-$(sha256sum <"$(shard 0).tmp")
[ "$tmp0_after" = "$tmp0_before" ] || fail "the refused second task 0 touched $(shard 0).tmp: $tmp0_before -> $tmp0_after"
[ ! -e "$(shard 0)" ] || fail "the refused second task 0 wrote $(shard 0)"
kill -CONT "$held_pid"
held_pid=
echo "a second task 0 refused by the lock, task 0's .tmp untouched ($(elapsed))"

wait_state "${jid}_3" 60 CANCELLED
# Graceful either way: stopped between games ('interrupted after'), or (under load the task can
# play its last game before the signal lands) after the work was done, results kept, exit 130.
grep -q -e 'interrupted after' -e 'stopped by a signal after the work was done' "$(log 3)" \
  || fail "task 3: xqlab did not stop gracefully after scancel: $(tail -n 3 "$(log 3)")"
grep -q 'not requeued' "$(log 3)" || fail "task 3: no 'not requeued' in its log: $(tail -n 3 "$(log 3)")"
[ "$(job_field "${jid}_3" Restarts)" = 0 ] || fail "the cancelled task 3 was requeued"
if grep -q 'stopped by a signal after the work was done' "$(log 3)"; then
  [ -f "$(shard 3)" ] || [ -f "$(shard 3).tmp" ] || fail "task 3 finished its games but left neither $(shard 3) nor its .tmp"
else
  [ -f "$(shard 3).tmp" ] && [ ! -e "$(shard 3)" ] || fail "task 3 left no $(shard 3).tmp"
  has_game "$(shard 3).tmp" || fail "task 3's $(shard 3).tmp lost its games"
fi

# Task 1 requeues itself; a requeued task may start again only after 121 s: start it in 3 s.
# Not at once: slurmd refuses a launch whose credential is no newer (1 s resolution) than the
# revocation of the task's first run ("Job credential revoked", the task ends FAILED).
i=0
until [ "$(job_field "${jid}_1" Restarts)" = 1 ]; do
  i=$((i + 1)); [ $i -lt 300 ] || fail "task 1 was not requeued after USR1: $(tail -n 3 "$(log 1)")"
  sleep 0.2
done
grep -q 'requeueing' "$(log 1)" || fail "task 1: no 'requeueing' in its log"
wait_state "${jid}_1" 30 PENDING RUNNING COMPLETED
[ "$(job_field "${jid}_1" JobState)" = PENDING ] && scontrol update jobid="${jid}_1" StartTime=now+3
wait_state "${jid}_1" 90 COMPLETED
grep -q 'resumed run' "$(log 1)" || fail "the requeued task 1 did not resume: $(tail -n 3 "$(log 1)")"
[ -f "$(shard 1)" ] && [ ! -e "$(shard 1).tmp" ] || fail "task 1 did not complete its shard"
wait_state "${jid}_0" 90 COMPLETED
wait_state "${jid}_2" 90 COMPLETED
echo "tasks 0-2 complete, 1 after a requeue ($(elapsed))"

# The first merge ran after every task ended (task 1's second run included) and refused.
wait_state "$mjid" 60 FAILED COMPLETED
[ "$(job_field "$mjid" JobState)" = FAILED ] || fail "merge $mjid with shard 3 unfinished: $(job_field "$mjid" JobState)"
grep -q "resubmit the tasks 3 (sbatch --array=3" "$dir/logs/merge1.log" \
  || fail "merge $mjid did not name task 3 alone: $(cat "$dir/logs/merge1.log")"
[ ! -e "$dir/run/$variant.h5" ] || fail "merge $mjid wrote $dir/run/$variant.h5 with shard 3 unfinished"
# afterok would have waited for ever: once task 3 is cancelled (and though task 1 completed on
# its second run), Slurm says the dependency can never be satisfied and never starts the job.
never_satisfied() { [ "$(job_field "$okjid" Reason)" = DependencyNeverSatisfied ]; }
wait_for 30 "the afterok job $okjid to be DependencyNeverSatisfied" never_satisfied
[ "$(job_field "$okjid" JobState)" = PENDING ] || fail "afterok job $okjid ran: $(job_field "$okjid" JobState)"
[ ! -e "$dir/logs/afterok.log" ] || fail "afterok job $okjid started (it wrote its log)"
retry_scancel "$okjid"

# Resubmission of two tasks of the run: --array=1,3 with the run's SHARDS.
jid2=$(sbatch --parsable --array=1,3 "${task_fit[@]}" --output="$dir/logs/sp-%A_%a.log" \
  --export=ALL,SHARDS=$shards "$src/scripts/slurm/selfplay-array.sbatch") || fail "sbatch --array=1,3"
mjid2=$(sbatch --parsable --dependency=afterany:"$jid2" "${merge_fit[@]}" --output="$dir/logs/merge2.log" \
  --export=ALL,SHARDS=$shards "$src/scripts/slurm/merge.sbatch") || fail "sbatch of the second merge"
wait_state "${jid2}_1" 90 COMPLETED
wait_state "${jid2}_3" 90 COMPLETED
grep -q 'already complete' "$dir/logs/sp-${jid2}_1.log" \
  || fail "resubmitted task 1 did not find its shard complete: $(tail -n 3 "$dir/logs/sp-${jid2}_1.log")"
grep -q 'resumed run' "$dir/logs/sp-${jid2}_3.log" \
  || fail "resubmitted task 3 did not resume: $(tail -n 3 "$dir/logs/sp-${jid2}_3.log")"
wait_state "$mjid2" 60 COMPLETED FAILED
[ "$(job_field "$mjid2" JobState)" = COMPLETED ] || fail "merge $mjid2: $(cat "$dir/logs/merge2.log")"
echo "resubmitted 1,3 and merged ($(elapsed))"

wait $single || fail "single-process run: $(tail -n 3 "$dir/logs/single")"
$compare "$dir/single.h5" "$dir/run/$variant.h5" || fail "the merged Slurm run differs from the single run"

# `srun -n 2` of a plain (non-MPI) selfplay: two processes with one -o. One plays the run; the
# other is refused by the lock, naming the first one's pid, and writes nothing.
# (60 games: several seconds, so that the two tasks overlap even if one starts late.)
srun_games=60
"$xqlab" selfplay -v $variant -n $srun_games --seed $seed $args -t 1 --progress quiet \
  -o "$dir/single2.h5" >/dev/null 2>"$dir/logs/single2" &
single2=$!
srun -n 2 --cpus-per-task=1 --mem-per-cpu=100M --time=5 --chdir="$dir" --output="$dir/logs/srun2-%t.log" \
  "$xqlab" selfplay -v $variant -n $srun_games --seed $seed $args -t 1 --progress quiet -o "$dir/srun2.h5"
rc=$?
[ $rc -eq 1 ] || fail "srun -n 2 on one output: exit $rc, expected 1 (one task refused): $(cat "$dir"/logs/srun2-*.log)"
[ "$(cat "$dir"/logs/srun2-*.log | grep -c 'srun2.h5: locked by pid [0-9]* on ')" -eq 1 ] \
  || fail "srun -n 2: not exactly one task refused by the lock: $(cat "$dir"/logs/srun2-*.log)"
wait $single2 || fail "single-process run of $srun_games games: $(tail -n 3 "$dir/logs/single2")"
$compare "$dir/single2.h5" "$dir/srun2.h5" || fail "srun -n 2: the run that got the lock differs from a single run"
echo "srun -n 2 on one output: one task refused by the lock, the other's file complete ($(elapsed))"

cluster_stop || fail "the cluster's processes did not all end"
echo "real slurm: ok ($(elapsed))"
