#!/bin/sh
# Disk full at every stage of a write, without root: the write shim (tests/shim/write_shim.c)
# fails every write to a dataset file with ENOSPC once N bytes have gone through, for N spread
# over a whole self-play run (flushes, the redo log, the final copy PATH.part) and a whole merge.
# Each must exit 1 (never a crash) with "No space left on device" and no HDF5 error stack; a
# self-play run keeps its .tmp: a --resume on the still-full disk is refused and changes nothing,
# and once there is room --resume-if-present plays again only the games its last completed flush
# had not committed and gives a file equal to an uninterrupted run's. A merge leaves no output.
# Usage: test_disk_full_shim.sh XQLAB PLUGIN_DIR SOURCE_DIR SHIM [POINTS]
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
shim=$4
points=${5:-24}
games=12
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Under LeakSanitizer: libhdf5's allocations for a file it could not flush (see the file).
export LSAN_OPTIONS="suppressions=$3/tests/cli/lsan-hdf5-full-disk.supp ${LSAN_OPTIONS:-}"
common="-v xiangqi --playouts 8 --progress quiet --seed 9 -t 1 --flush-games 2 -n $games"
$xqlab selfplay $common -o "$dir/ref.h5" >/dev/null || fail "reference run"
XQ_SHIM_COUNT="$dir/count" LD_PRELOAD=$shim $xqlab selfplay $common -o "$dir/counted.h5" >/dev/null ||
  fail "run under the shim"
bytes=$(cut -d' ' -f2 "$dir/count")
[ "$bytes" -gt 100000 ] || fail "only $bytes bytes counted: the shim does not see the writer's writes"
step=$(( bytes / points ))
# The offset stays below half a step, so the last fill point is half a step short of the end:
# a run's byte count varies by a few hundred bytes, and a point past its end fills nothing (the
# CI-like run at offset 61240 of a 61385-byte step had the run end 162 bytes before its point).
offset=${XQ_FULL_OFFSET:-$(( $(date +%s) % (step / 2) ))}
echo "disk full: selfplay writes $bytes bytes; $points fill points, XQ_FULL_OFFSET=$offset"

# expect_full WHAT: the last command exited 1 with the system's reason and no HDF5 stack.
expect_full() {
  [ "$rc" -eq 1 ] || { cat "$dir/err"; fail "$1: exit $rc, expected 1"; }
  grep -q "No space left on device" "$dir/err" || fail "$1: no reason in: $(cat "$dir/err")"
  grep -q "HDF5-DIAG" "$dir/err" && fail "$1: HDF5 error stack printed"
  return 0
}
out="$dir/run.h5"
n=0
resumed_full=0
while [ $n -lt "$points" ]; do
  limit=$(( offset + n * step ))
  n=$((n + 1))
  rm -f "$out" "$out".*
  XQ_SHIM_ENOSPC_AFTER=$limit LD_PRELOAD=$shim $xqlab selfplay $common -o "$out" >/dev/null 2>"$dir/err"
  rc=$?
  expect_full "selfplay, full after $limit bytes"
  [ ! -e "$out" ] || fail "full after $limit bytes: $out exists after a failed run"
  [ ! -e "$out.part" ] || fail "full after $limit bytes: $out.part left behind"
  [ -e "$out.tmp" ] || continue # full before the .tmp had its first flush: nothing was kept
  committed=0
  [ -f "$out.tmp.games" ] && committed=$(od -A n -t u8 -j 48 -N 8 "$out.tmp.games" | tr -d ' ')
  # Still full: --resume is refused and leaves the run as it was (every other fill point).
  if [ $((n % 2)) -eq 0 ] && [ "$committed" -gt 0 ]; then
    cat "$out.tmp.games" >"$dir/journal.before"
    XQ_SHIM_ENOSPC_AFTER=0 LD_PRELOAD=$shim $xqlab selfplay $common -o "$out" --resume >/dev/null 2>"$dir/err"
    rc=$?
    expect_full "selfplay --resume, full after $limit bytes, on the full disk"
    [ -e "$out.tmp" ] || fail "full after $limit bytes: --resume on the full disk removed $out.tmp"
    cmp -s "$out.tmp.games" "$dir/journal.before" || fail "full after $limit bytes: --resume on the full disk changed the journal"
    resumed_full=$((resumed_full + 1))
  fi
  $xqlab selfplay $common -o "$out" --resume-if-present >"$dir/out" 2>"$dir/err" ||
    { cat "$dir/err"; fail "full after $limit bytes: --resume-if-present with room failed"; }
  played=$(sed -n 's/.*, \([0-9]*\) games played.*/\1/p' "$dir/out")
  [ "$played" = $((games - committed)) ] ||
    fail "full after $limit bytes: the last flush had committed $committed games, --resume played $played of $games"
  $compare "$dir/ref.h5" "$out" >/dev/null || fail "full after $limit bytes: resumed file differs from the reference"
done
echo "ok   selfplay: $points fill points, exit 1 each, resumed to the reference ($resumed_full refused resumes on a full disk)"

# merge: the output never appears, the shards never change.
$xqlab selfplay $common --shard 0/2 -o "$dir/s0.h5" >/dev/null || fail "shard 0"
$xqlab selfplay $common --shard 1/2 -o "$dir/s1.h5" >/dev/null || fail "shard 1"
cp "$dir/s0.h5" "$dir/s0.ref.h5"
cp "$dir/s1.h5" "$dir/s1.ref.h5"
XQ_SHIM_COUNT="$dir/count" LD_PRELOAD=$shim $xqlab merge "$dir/s0.h5" "$dir/s1.h5" -o "$dir/m.h5" >/dev/null ||
  fail "merge under the shim"
bytes=$(cut -d' ' -f2 "$dir/count")
rm -f "$dir/m.h5"
n=0
while [ $n -lt "$points" ]; do
  limit=$(( n * bytes / points + offset % 997 ))
  n=$((n + 1))
  XQ_SHIM_ENOSPC_AFTER=$limit LD_PRELOAD=$shim $xqlab merge "$dir/s0.h5" "$dir/s1.h5" -o "$dir/m.h5" \
    >/dev/null 2>"$dir/err"
  rc=$?
  expect_full "merge, full after $limit bytes"
  [ ! -e "$dir/m.h5" ] && [ ! -e "$dir/m.h5.tmp" ] || fail "merge, full after $limit bytes: output left behind"
done
cmp -s "$dir/s0.h5" "$dir/s0.ref.h5" && cmp -s "$dir/s1.h5" "$dir/s1.ref.h5" || fail "a shard changed"
echo "ok   merge: $points fill points of $bytes bytes, exit 1 each, no output left, shards unchanged"

# openings --h5: the same for the opening tree file.
XQ_SHIM_COUNT="$dir/count" LD_PRELOAD=$shim $xqlab openings "$dir/s0.h5" --h5 "$dir/o.h5" >/dev/null 2>&1 ||
  fail "openings --h5 under the shim"
bytes=$(cut -d' ' -f2 "$dir/count")
rm -f "$dir/o.h5"
n=0
while [ $n -lt 8 ]; do
  limit=$(( n * bytes / 8 + offset % 499 ))
  n=$((n + 1))
  XQ_SHIM_ENOSPC_AFTER=$limit LD_PRELOAD=$shim $xqlab openings "$dir/s0.h5" --h5 "$dir/o.h5" >/dev/null 2>"$dir/err"
  rc=$?
  expect_full "openings --h5, full after $limit bytes"
  [ ! -e "$dir/o.h5" ] && [ ! -e "$dir/o.h5.tmp" ] || fail "openings --h5, full after $limit bytes: output left behind"
done
echo "ok   openings --h5: 8 fill points of $bytes bytes, exit 1 each, no output left"
