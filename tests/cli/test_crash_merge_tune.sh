#!/bin/sh
# Crash safety of xqlab merge and xqlab tune: SIGKILL at random moments, then check what is left
# (each output is absent, complete and equal to an uninterrupted run's, or a *.tmp), run the same
# command again (the "resume" of a one-shot command) and require the completed outputs to equal
# the reference and no *.tmp to remain.
# Usage: test_crash_merge_tune.sh XQLAB PLUGIN_DIR SOURCE_DIR [KILLS]
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
kills=${4:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Portable pseudo-random numbers (POSIX sh has no $RANDOM), replayable with XQ_CRASH_SEED.
seed=${XQ_CRASH_SEED:-$(( $(date +%s) % 65536 ))}
echo "crash safety of merge and tune: $kills kills each, XQ_CRASH_SEED=$seed"
rand() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); echo $(( seed / 65536 % $1 )); }
sleep_ms() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }
# Kill delay for attempt N within a run of SPAN ms: odd attempts anywhere in the run, even ones in
# its last fifth, where the outputs are written and renamed.
# A run that finished before its kill means the span measured under another load was too long.
shrink() { if [ "$1" -gt 40 ]; then echo $(( $1 * 3 / 4 )); else echo "$1"; fi; }
delay() { if [ $(($1 % 2)) -eq 0 ]; then echo $(( $2 * 8 / 10 + $(rand $(( $2 / 5 + 1 ))) )); else rand "$2"; fi; }

common="-v xiangqi --playouts 8 --progress quiet --seed 5 -n 36 -t 2"
for i in 0 1 2; do
  $xqlab selfplay $common --shard $i/3 -o "$dir/s$i.h5" >/dev/null || fail "shard $i"
done
shards="$dir/s0.h5 $dir/s1.h5 $dir/s2.h5"

# ---- merge ----------------------------------------------------------------------------------
t0=$(now_ms)
$xqlab merge $shards -o "$dir/ref.h5" >/dev/null || fail "reference merge"
span=$(( $(now_ms) - t0 + 20 ))
out="$dir/m.h5"
# check_merge_left: after a kill only m.h5 (complete), m.h5.tmp and m.h5.lock (its lock was
# the killed process's own and went with it: the next run takes it again) may exist.
check_merge_left() {
  for f in "$dir"/m.h5*; do
    case "$f" in
      "$out") $compare "$dir/ref.h5" "$out" >/dev/null || fail "killed merge left an incomplete $out" ;;
      "$out.tmp"|"$out.lock"|"$dir/m.h5*") ;;
      *) fail "killed merge left $f" ;;
    esac
  done
}
i=0; attempts=0; landed=0
while [ $i -lt "$kills" ]; do
  attempts=$((attempts + 1))
  [ $attempts -le $((kills * 10)) ] || fail "merge: too many attempts"
  rm -f "$out"   # a completed merge refuses to overwrite: start the job again
  $xqlab merge $shards -o "$out" >/dev/null 2>"$dir/err" &
  pid=$!
  sleep_ms "$(delay $attempts "$span")"
  if kill -9 $pid 2>/dev/null; then i=$((i + 1)); else span=$(shrink $span); fi
  wait $pid 2>/dev/null
  rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 137 ] || { cat "$dir/err"; fail "merge attempt $attempts exited $rc"; }
  [ $rc -eq 137 ] && [ -e "$out.tmp" ] && landed=$((landed + 1))
  check_merge_left
  # The next command after a kill must complete from whatever was left.
  if [ ! -e "$out" ]; then
    $xqlab merge $shards -o "$out" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "merge after a kill"; }
    [ ! -e "$out.tmp" ] && [ ! -e "$out.lock" ] || fail "merge after a kill left $out.tmp or $out.lock"
    $compare "$dir/ref.h5" "$out" >/dev/null || fail "merge after a kill differs from the reference"
  fi
done
echo "merge: $i kills in $attempts attempts ($landed while m.h5.tmp existed), every rerun exact"

# ---- tune -----------------------------------------------------------------------------------
tune="tune $dir/ref.h5 -t 2 --quiet --max-iterations 20"
t0=$(now_ms)
$xqlab $tune -o "$dir/ref.ini" >/dev/null || fail "reference tune"
span=$(( $(now_ms) - t0 + 20 ))
# Weights without the provenance comments (time, command); JSON without the timings.
weights() { grep -v '^;' "$1"; }
values() { sed 's/"seconds": {[^}]*}//; s/"weights_file": "[^"]*"//' "$1"; }
weights "$dir/ref.ini" > "$dir/ref.w"
values "$dir/ref.json" > "$dir/ref.v"
check_tune_left() {
  for f in "$dir"/w.*; do
    case "$f" in
      "$dir/w.ini") weights "$f" | cmp -s - "$dir/ref.w" || fail "killed tune left an incomplete $f" ;;
      "$dir/w.json") values "$f" | cmp -s - "$dir/ref.v" || fail "killed tune left an incomplete $f" ;;
      "$dir/w.ini.tmp"|"$dir/w.json.tmp"|"$dir/w.ini.lock"|"$dir/w.json.lock"|"$dir/w.*") ;;
      *) fail "killed tune left $f" ;;
    esac
  done
}
i=0; attempts=0; landed=0
while [ $i -lt "$kills" ]; do
  attempts=$((attempts + 1))
  [ $attempts -le $((kills * 10)) ] || fail "tune: too many attempts"
  rm -f "$dir/w.ini" "$dir/w.json"
  $xqlab $tune -o "$dir/w.ini" >/dev/null 2>"$dir/err" &
  pid=$!
  sleep_ms "$(delay $attempts "$span")"
  if kill -9 $pid 2>/dev/null; then i=$((i + 1)); else span=$(shrink $span); fi
  wait $pid 2>/dev/null
  rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 137 ] || { cat "$dir/err"; fail "tune attempt $attempts exited $rc"; }
  [ $rc -eq 137 ] && [ -e "$dir/w.ini.tmp" -o -e "$dir/w.json.tmp" ] && landed=$((landed + 1))
  check_tune_left
  # A kill after the first rename leaves w.ini complete: the rerun replaces it (--force).
  $xqlab $tune -o "$dir/w.ini" --force >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "tune after a kill"; }
  [ ! -e "$dir/w.ini.tmp" ] && [ ! -e "$dir/w.json.tmp" ] && [ ! -e "$dir/w.ini.lock" ] && [ ! -e "$dir/w.json.lock" ] ||
    fail "tune after a kill left a .tmp or .lock"
  weights "$dir/w.ini" | cmp -s - "$dir/ref.w" || fail "tune after a kill: weights differ"
  values "$dir/w.json" | cmp -s - "$dir/ref.v" || fail "tune after a kill: piece values differ"
done
echo "tune: $i kills in $attempts attempts ($landed while a .tmp existed), every rerun exact"

# Stale *.tmp files of a run killed while writing are replaced and gone after the next run.
echo "half a weights file" > "$dir/w.ini.tmp"
echo "{\"half" > "$dir/w.json.tmp"
rm -f "$dir/w.ini" "$dir/w.json"
$xqlab $tune -o "$dir/w.ini" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "tune over stale .tmp"; }
[ ! -e "$dir/w.ini.tmp" ] && [ ! -e "$dir/w.json.tmp" ] || fail "stale .tmp files not cleaned up"
weights "$dir/w.ini" | cmp -s - "$dir/ref.w" || fail "tune over stale .tmp: weights differ"
echo "x" > "$dir/m.h5.tmp"
rm -f "$out"
$xqlab merge $shards -o "$out" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "merge over stale .tmp"; }
[ ! -e "$out.tmp" ] || fail "stale $out.tmp not cleaned up"
$compare "$dir/ref.h5" "$out" >/dev/null || fail "merge over a stale .tmp differs"
echo "stale .tmp files: replaced and removed by the next run"
