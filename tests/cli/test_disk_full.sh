#!/bin/sh
# Disk full: self-play, merge and tune writing to a 2 MiB tmpfs mounted by the test. Each must exit
# 1 with "No space left on device" in its message, leave finished files intact and no stray
# output; a self-play run keeps its .tmp through a --resume on the full disk and, once there is
# room, --resume completes it equal to an uninterrupted run. Needs root (to mount); otherwise it
# says why and exits 77, which ctest reports as skipped (SKIP_RETURN_CODE), not as passed.
# Usage: test_disk_full.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
# Under ASan: libhdf5's own allocations for a file it cannot flush stay behind (see the file).
export LSAN_OPTIONS="suppressions=$3/tests/cli/lsan-hdf5-full-disk.supp ${LSAN_OPTIONS:-}"
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: mounting the small tmpfs needs root (run as root, as CI does)"
  exit 77
fi
dir=$(mktemp -d)
mnt="$dir/mnt"
mkdir "$mnt"
if ! mount -t tmpfs -o size=2m xqlab-disk-full "$mnt" 2>"$dir/mount.err"; then
  echo "SKIPPED: cannot mount a tmpfs here: $(cat "$dir/mount.err")"
  rm -rf "$dir"
  exit 77
fi
trap 'umount "$mnt"; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect_full NAME ARGS...: exit 1, the system's reason in the message, no HDF5 error stack.
expect_full() {
  name=$1; shift
  "$xqlab" "$@" >/dev/null 2>"$dir/err"
  rc=$?
  [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1 ($(cat "$dir/err"))"
  grep -q "No space left on device" "$dir/err" || fail "$name: no reason in: $(cat "$dir/err")"
  grep -q "HDF5-DIAG" "$dir/err" && fail "$name: HDF5 error stack printed"
  echo "ok   $name: $(head -1 "$dir/err")"
}
common="-v xiangqi --playouts 8 --progress quiet --seed 9 -t 2 --flush-games 4"

# A finished shard on the small disk, and references outside it.
$xqlab selfplay $common -n 6 --shard 0/2 -o "$mnt/s0.h5" >/dev/null || fail "small shard"
$xqlab selfplay $common -n 6 --shard 1/2 -o "$dir/s1.h5" >/dev/null || fail "shard 1"
cp "$mnt/s0.h5" "$dir/s0.ref.h5"
$xqlab selfplay $common -n 300 -o "$dir/big.ref.h5" >/dev/null || fail "reference run"

expect_full "selfplay fills the disk" selfplay $common -n 300 -o "$mnt/big.h5"
[ -e "$mnt/big.h5.tmp" ] && [ ! -e "$mnt/big.h5" ] || fail "selfplay: expected big.h5.tmp only"
cp "$mnt/big.h5.tmp.games" "$dir/journal.before"
expect_full "selfplay --resume on the full disk" selfplay $common -n 300 -o "$mnt/big.h5" --resume
[ -e "$mnt/big.h5.tmp" ] || fail "resume on a full disk removed big.h5.tmp"
cmp -s "$mnt/big.h5.tmp.games" "$dir/journal.before" || fail "resume on a full disk changed the journal"
# A failed flush gives back the space of its redo log, so fill what is left (bar 64 KiB, so that
# the merge fails in the middle of its writes rather than at its first).
dd if=/dev/zero of="$mnt/filler" bs=4096 2>/dev/null
size=$(stat -c %s "$mnt/filler")
truncate -s $(( size > 65536 ? size - 65536 : 0 )) "$mnt/filler"
expect_full "merge onto the full disk" merge "$mnt/s0.h5" "$dir/s1.h5" -o "$mnt/all.h5"
[ ! -e "$mnt/all.h5" ] && [ ! -e "$mnt/all.h5.tmp" ] || fail "merge left output behind"
dd if=/dev/zero bs=4096 2>/dev/null >>"$mnt/filler" # now full to the last page
expect_full "tune onto the full disk" tune "$dir/big.ref.h5" -t 2 --quiet --max-iterations 5 -o "$mnt/w.ini"
[ ! -e "$mnt/w.ini" ] && [ ! -e "$mnt/w.ini.tmp" ] || fail "tune left output behind"
$compare "$dir/s0.ref.h5" "$mnt/s0.h5" >/dev/null || fail "the finished shard changed"
echo "ok   finished shard intact"

# Room again: --resume completes the run exactly.
rm -f "$mnt/filler"
mount -o remount,size=32m "$mnt" || fail "cannot grow the tmpfs"
$xqlab selfplay $common -n 300 -o "$mnt/big.h5" --resume >/dev/null 2>"$dir/err" ||
  fail "resume with room: $(cat "$dir/err")"
$compare "$dir/big.ref.h5" "$mnt/big.h5" >/dev/null || fail "resumed run differs from the reference"
echo "ok   --resume with room completes the run exactly"
