#!/bin/bash
# scripts/slurm/selfplay-mpi.sbatch under a real single-node Slurm (tests/slurm/cluster.sh), with
# the MPI build of xqlab started by `srun --mpi=pmix`: two 2-rank jobs of the same tiny run side
# by side, in two folders:
#   * job A gets the time limit's warning mid-run (scancel --batch --signal=USR1, what
#     --signal=B:USR1@T sends): every rank stops gracefully, the job requeues itself, the requeued
#     run resumes both shards and writes the index;
#   * job B is cancelled mid-run (scancel: SIGTERM to the script, srun and every rank): exit 130
#     with both .tmp kept, CANCELLED, not requeued; submitted again it resumes and completes.
# Both indexes equal one single-process run of the same seed (tests/python/compare_datasets.py),
# and rank 0's progress counts both ranks. Then no process of the cluster may be left. As root;
# the Slurm packages are required (without them the test fails).
# Usage: test_slurm_mpi.sh XQLAB_MPI PLUGIN_DIR SOURCE_DIR
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
dir=$(mktemp -d /tmp/xqlab-slurm-mpi.XXXXXX)
chmod 755 "$dir" # munged wants every folder above its socket searchable by all
failed=0
finish() {
  local rc=$?
  [ $failed -eq 1 ] && rc=1
  if ! cluster_stop; then
    echo "FAIL: the cluster's processes did not all end"
    rc=1
  fi
  if [ $rc -ne 0 ]; then
    echo "--- the last lines of the logs ($dir is removed)"
    for f in "$dir"/logs/* "$dir"/cluster/ctld.log "$dir"/cluster/d.log; do
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
games=600
seed=23
args="--playouts 32 --flush-games 1"
mkdir -p "$dir/logs"
export XQLAB="$xqlab" VARIANT=$variant GAMES=$games SEED=$seed XQLAB_ARGS="$args"
fit=(--ntasks=2 --cpus-per-task=1 --mem-per-cpu=100M --time=10 --chdir="$dir")
shard() { printf '%s/%s/%s.shard-%04d-of-0002.h5' "$dir" "$1" $variant "$2"; }

job_field() { scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
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
# wait_playing JOB FILE...: until every FILE exists (each rank is playing; 60 s at most).
wait_playing() {
  local job=$1 i=0 st f
  shift
  for f in "$@"; do
    until [ -s "$f" ]; do
      i=$((i + 1))
      [ $i -lt 600 ] || fail "$f: not created in 60 s ($(elapsed))"
      st=$(job_field "$job" JobState)
      case "$st" in PENDING | CONFIGURING | RUNNING | "") ;; *) fail "job $job ended ($st) before it wrote $f" ;; esac
      sleep 0.1
    done
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
submit() { # submit NAME LOG: the template with RUN_DIR=$dir/NAME
  sbatch --parsable "${fit[@]}" --output="$dir/logs/$2" --export=ALL,RUN_DIR="$dir/$1" \
    "$src/scripts/slurm/selfplay-mpi.sbatch"
}

"$xqlab" selfplay -v $variant -n $games --seed $seed $args -t 1 --progress quiet \
  -o "$dir/single.h5" >/dev/null 2>"$dir/logs/single" &
single=$!

ja=$(submit a a.log) || fail "sbatch of job A"
jb=$(submit b b1.log) || fail "sbatch of job B"
echo "jobs $ja (warned) and $jb (cancelled) submitted"
wait_state "$ja" 60 RUNNING
wait_state "$jb" 60 RUNNING
wait_playing "$jb" "$(shard b 0).tmp" "$(shard b 1).tmp"
retry_scancel "$jb"
wait_playing "$ja" "$(shard a 0).tmp" "$(shard a 1).tmp"
retry_scancel --batch --signal=USR1 "$ja"
echo "B cancelled, A warned ($(elapsed))"

# B: every rank stopped gracefully, nothing requeued, both .tmp kept.
wait_state "$jb" 60 CANCELLED
[ "$(grep -c 'interrupted after' "$dir/logs/b1.log")" -ge 1 ] \
  || fail "job B: no graceful stop after scancel: $(tail -n 4 "$dir/logs/b1.log")"
grep -q 'not requeued' "$dir/logs/b1.log" || fail "job B: no 'not requeued' in its log: $(tail -n 3 "$dir/logs/b1.log")"
[ "$(job_field "$jb" Restarts)" = 0 ] || fail "the cancelled job B was requeued"
for r in 0 1; do
  [ -f "$(shard b $r).tmp" ] && [ ! -e "$(shard b $r)" ] || fail "job B left no $(shard b $r).tmp"
done
[ ! -e "$dir/b/$variant.h5" ] || fail "job B wrote an index with its shards unfinished"
jb2=$(submit b b2.log) || fail "sbatch of job B again"

# A: requeued by its script; a requeued job may start again only after 121 s: start it in 3 s.
# Not at once: slurmd refuses a launch whose credential is no newer (1 s resolution) than the
# revocation of the job's first run ("Job credential revoked", the job ends FAILED).
i=0
until [ "$(job_field "$ja" Restarts)" = 1 ]; do
  i=$((i + 1)); [ $i -lt 300 ] || fail "job A was not requeued after USR1: $(tail -n 4 "$dir/logs/a.log")"
  sleep 0.2
done
grep -q 'requeueing' "$dir/logs/a.log" || fail "job A: no 'requeueing' in its log"
wait_state "$ja" 30 PENDING RUNNING COMPLETED
[ "$(job_field "$ja" JobState)" = PENDING ] && scontrol update jobid="$ja" StartTime=now+3
wait_state "$ja" 90 COMPLETED
grep -q 'resumed run' "$dir/logs/a.log" || fail "the requeued job A did not resume: $(tail -n 4 "$dir/logs/a.log")"
grep -q "games $games/$games .*(2 ranks)" "$dir/logs/a.log" || fail "job A: no progress line of both ranks"
wait_state "$jb2" 90 COMPLETED
grep -q 'resumed run' "$dir/logs/b2.log" || fail "job B submitted again did not resume: $(tail -n 4 "$dir/logs/b2.log")"
echo "A requeued and complete, B resubmitted and complete ($(elapsed))"

wait $single || fail "single-process run: $(tail -n 3 "$dir/logs/single")"
$compare "$dir/single.h5" "$dir/a/$variant.h5" || fail "job A's index differs from the single run"
$compare "$dir/single.h5" "$dir/b/$variant.h5" || fail "job B's index differs from the single run"

cluster_stop || fail "the cluster's processes did not all end"
echo "real slurm mpi: ok ($(elapsed))"
