#!/bin/sh
# Write-level kill sweep of xqlab selfplay: an LD_PRELOAD shim (tests/shim/write_shim.c) kills the
# run with SIGKILL just before its K-th write to a file of the dataset (PATH.tmp, its redo log and
# journal, PATH.part), for K spread over a whole run of several flushes (every K with POINTS = 0).
# After each kill --resume(-if-present) must finish, play again exactly the games the last completed flush had
# not committed (the journal PATH.tmp.games says how many it had), and give a file equal to an
# uninterrupted run's.
# Usage: test_write_kills.sh XQLAB PLUGIN_DIR SOURCE_DIR SHIM [POINTS]
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
shim=$4
points=${5:-30}
games=12
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# The shim comes before a sanitizer's runtime in the preload order; the runtime accepts that.
export ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# One thread: the writes of a run come in the same order every time.
common="-v xiangqi --playouts 8 --progress quiet --seed 9 -t 1 --flush-games 2 -n $games"
$xqlab selfplay $common -o "$dir/ref.h5" >/dev/null || fail "reference run"
XQ_SHIM_COUNT="$dir/count" LD_PRELOAD=$shim $xqlab selfplay $common -o "$dir/counted.h5" >/dev/null ||
  fail "run under the shim"
$compare "$dir/ref.h5" "$dir/counted.h5" >/dev/null || fail "the shim changed the result"
writes=$(cut -d' ' -f1 "$dir/count")
[ "$writes" -gt 50 ] || fail "only $writes writes counted: the shim does not see the writer's writes"

# Kill points: every write, or POINTS of them spread evenly from a rotating start (printed, so a
# failure can be replayed with XQ_KILL_OFFSET).
if [ "$points" -eq 0 ]; then
  list=$(seq 1 "$writes")
else
  step=$(( writes / points > 1 ? writes / points : 1 ))
  offset=${XQ_KILL_OFFSET:-$(( $(date +%s) % step + 1 ))}
  list=$(seq "$offset" "$step" "$writes" | head -n "$points")
fi
echo "write kills: $writes writes in a run of $games games (flush every 2 games); kill points: $(echo $list | wc -w)${offset:+, XQ_KILL_OFFSET=$offset}"

out="$dir/run.h5"
# One kill point, in a subshell (its fail ends only the subshell).
kill_at() {
  k=$1
  rm -f "$out" "$out".*
  XQ_SHIM_KILL_AT=$k LD_PRELOAD=$shim $xqlab selfplay $common -o "$out" >/dev/null 2>"$dir/err"
  rc=$?
  [ $rc -eq 137 ] || { cat "$dir/err"; fail "kill before write $k: exit $rc, expected 137 (killed)"; }
  # Games the last completed flush committed: the journal's game count (bytes 48-55).
  committed=0
  [ -f "$out.tmp.games" ] && committed=$(od -A n -t u8 -j 48 -N 8 "$out.tmp.games" | tr -d ' ')
  # A kill before PATH.tmp exists (the first writes are the lock file's) leaves nothing to resume.
  $xqlab selfplay $common -o "$out" --resume-if-present >"$dir/out" 2>"$dir/err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$dir/err"; fail "kill before write $k: --resume-if-present exited $rc"; }
  grep -q "HDF5-DIAG" "$dir/err" && { cat "$dir/err"; fail "kill before write $k: HDF5 error stack printed"; }
  if grep -q "already complete" "$dir/err" "$dir/out"; then
    played=0
  else
    played=$(sed -n 's/.*, \([0-9]*\) games played.*/\1/p' "$dir/out")
  fi
  [ -f "$out" ] || fail "kill before write $k: no $out after --resume"
  if [ "$committed" -gt 0 ] && [ "$played" != $((games - committed)) ]; then
    cat "$dir/err"
    fail "kill before write $k: the last flush had committed $committed games, --resume played $played of $games"
  fi
  $compare "$dir/ref.h5" "$out" >/dev/null || fail "kill before write $k: resumed file differs from the reference"
  for leftover in "$out.tmp" "$out.tmp.games" "$out.tmp.wal" "$out.part" "$out.tmp.new"; do
    [ ! -e "$leftover" ] || fail "kill before write $k: $leftover left behind"
  done
}
# XQ_KILL_KEEP_GOING=1 counts the failed kill points instead of stopping at the first (to measure
# a build that fails).
kills=0
failures=0
for k in $list; do
  kills=$((kills + 1))
  if ! (kill_at "$k"); then
    [ "${XQ_KILL_KEEP_GOING:-0}" = 1 ] || exit 1
    failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ] || fail "$failures of $kills kill points failed"
echo "write kills: ok ($kills kills, each resumed and equal to the uninterrupted run)"
