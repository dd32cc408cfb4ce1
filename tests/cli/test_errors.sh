#!/bin/sh
# Runs the catalogue of docs/errors.md: every row's command in a scratch folder with the fixtures
# the document describes, checking the exit status and that stderr holds the message. Rows that
# need a read-only folder are skipped (and the test reported skipped, exit 77) only when none can
# be made: as root, which ignores permissions, without the right to mount a read-only tmpfs.
# Usage: test_errors.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
# The commands run in a scratch folder: make the paths absolute.
xqlab=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HDF5_PLUGIN_PATH=$(cd "$2" && pwd)
export HDF5_PLUGIN_PATH
doc="$(cd "$3" && pwd)/docs/errors.md"
dir=$(mktemp -d)
ro_mounted=0
holder=
cleanup() { [ -z "$holder" ] || kill "$holder" 2>/dev/null; [ $ro_mounted -eq 0 ] || umount "$dir/ro"; rm -rf "$dir"; }
trap cleanup EXIT
fixture() { "$xqlab" "$@" >/dev/null 2>"$dir/fixture.err" || { echo "FAIL fixture: xqlab $*"; cat "$dir/fixture.err"; exit 1; }; }

cd "$dir" || exit 1
fast="--playouts 8 --progress quiet"
fixture selfplay -v xiangqi -n 4 $fast -o xq.h5
fixture selfplay -v sniper -n 2 $fast -o sn.h5
fixture selfplay -v xiangqi -n 4 $fast --shard 0/2 -o s0.h5
fixture selfplay -v xiangqi -n 4 $fast --shard 1/2 -o s1.h5
fixture selfplay -v xiangqi -n 4 $fast --seed 2 --shard 1/2 -o s1x.h5
fixture selfplay -v xiangqi -n 4 $fast --shard 1/2 -o s1f.h5 --fen "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
fixture selfplay -v xiangqi -n 6 $fast --shard 0/3 -o t0.h5
fixture selfplay -v xiangqi -n 6 $fast --shard 2/3 -o t2.h5
cp s1.h5 u.h5.tmp
cp s1.h5 s1c.h5
mkdir idx
fixture merge --index s0.h5 s1c.h5 -o idx/i.h5
rm s1c.h5
head -c 3000 xq.h5 > trunc.h5
# A fuzzer-found file on which libhdf5 1.10.8 segfaults (tests/fuzz/libhdf5-1.10.8.md).
cp "$(dirname "$doc")/../tests/fuzz/corpus/dataset/regress-libhdf5-local-heap-segv" crash.h5
echo "not a dataset" > notdata.h5
cp xq.h5 part.h5.tmp
# An output another process holds: its lock file names that process (pid, host, command).
echo "4242 node7 xqlab selfplay" > held.h5.lock
(flock 9 && exec sleep 600) 9>>held.h5.lock &
holder=$!
i=0
while flock -n held.h5.lock true 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
printf '[board]\nfiles = 9\nranks = x\n' > badv.ini
printf '[pieces]\nfoo = bar\n' > nobrd.ini
printf '[weights]\nmaterial.pawn = lots\n' > badw.ini
printf '[weights]\nmaterial.dragon = 1\n' > unkw.ini
printf '[search]\nplayouts = -5\n' > badp.ini
mkdir ro
have_ro=1
if [ "$(id -u)" -eq 0 ]; then
  if mount -t tmpfs -o ro,size=64k xqlab-errors-ro ro 2>/dev/null; then ro_mounted=1; else have_ro=0; fi
else
  chmod 555 ro
fi

grep '^| E[0-9]' "$doc" > "$dir/rows"
[ -s "$dir/rows" ] || { echo "FAIL: no catalogue rows in $doc"; exit 1; }
failures=0; skipped=0; passed=0
while IFS= read -r row; do
  id=$(printf '%s\n' "$row" | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')
  want=$(printf '%s\n' "$row" | cut -d'|' -f4 | tr -d ' ')
  cmd=$(printf '%s\n' "$row" | cut -d'|' -f5 | sed 's/^ *`//; s/` *$//')
  msg=$(printf '%s\n' "$row" | cut -d'|' -f6 | sed 's/^ //; s/ $//')
  case "$cmd" in
    *" ro/"*) if [ $have_ro -eq 0 ]; then echo "skip $id: no read-only folder (root without mount)"; skipped=$((skipped + 1)); continue; fi ;;
  esac
  eval "\"\$xqlab\" $cmd" >"$dir/out" 2>"$dir/err" </dev/null
  rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL $id: xqlab $cmd: exit $rc, expected $want: $(head -3 "$dir/err")"
    failures=$((failures + 1))
  elif ! grep -qF -- "$msg" "$dir/err"; then
    echo "FAIL $id: xqlab $cmd: no '$msg' in: $(cat "$dir/err")"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
done < "$dir/rows"
echo "errors catalogue: $passed passed, $failures failed, $skipped skipped"
[ $failures -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
exit 0
