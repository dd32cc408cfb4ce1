#!/bin/sh
# Crash safety of xqlab selfplay: SIGKILL at random moments (small --flush-games, so many kills
# land inside a flush or inside close), resume each time (the resume itself may be killed too),
# and the completed file must equal an uninterrupted run with the same seed.
# Usage: test_crash_safety.sh XQLAB PLUGIN_DIR SOURCE_DIR [KILLS] [GAMES]
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
kills=${4:-20}
games=${5:-150}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common="-v xiangqi --playouts 16 --progress quiet --seed 11 -n $games -t 2 --flush-games 2"

start=$(date +%s%N)
$xqlab selfplay $common -o "$dir/ref.h5" >/dev/null || fail "reference run"
# Kill delays are drawn from the length of a whole run, so they cover creation, flushes and close.
span_ms=$(( ($(date +%s%N) - start) / 1000000 + 50 ))

# Portable pseudo-random numbers (POSIX sh has no $RANDOM): an LCG seeded from the clock, printed
# so that a failure can be replayed with XQ_CRASH_SEED.
seed=${XQ_CRASH_SEED:-$(( $(date +%s) % 65536 ))}
echo "crash safety: $kills kills, $games games, span ${span_ms} ms, XQ_CRASH_SEED=$seed"
rand() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); echo $(( seed / 65536 % $1 )); }
sleep_ms() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }

out="$dir/run.h5"
i=0
attempts=0
while [ $i -lt "$kills" ]; do
  attempts=$((attempts + 1))
  [ $attempts -le $((kills * 10)) ] || fail "too many attempts (runs kept finishing before the kill)"
  if [ -f "$out" ]; then
    # The previous attempt completed the file: check it and start the job again from nothing.
    $compare "$dir/ref.h5" "$out" >/dev/null || fail "completed file differs from the reference"
    rm -f "$out"
    resume=""
  elif [ -f "$out.tmp" ]; then
    resume="--resume"
  else
    resume=""
  fi
  $xqlab selfplay $common -o "$out" $resume >/dev/null 2>"$dir/err" &
  pid=$!
  sleep_ms "$(rand "$span_ms")"
  if kill -9 $pid 2>/dev/null; then
    i=$((i + 1))
  else
    # The run finished first: the reference's time overstates this run (a resume plays only
    # the games left, or the machine got less busy), so aim earlier from now on.
    span_ms=$(( span_ms * 2 / 3 > 20 ? span_ms * 2 / 3 : 20 ))
  fi
  wait $pid 2>/dev/null
  rc=$?
  # Exit 0 (done before the kill) or 137 (killed); anything else is a failed start or resume.
  if [ $rc -ne 0 ] && [ $rc -ne 137 ]; then
    cat "$dir/err"
    fail "attempt $attempts ($resume) exited $rc"
  fi
  if grep -q "HDF5-DIAG" "$dir/err"; then
    cat "$dir/err"
    fail "HDF5 error stack printed"
  fi
  ls "$dir" | grep -q '\.part$' && [ ! -f "$out.tmp" ] && [ ! -f "$out" ] && fail ".part without .tmp or result"
done

# Finish the job and compare.
if [ ! -f "$out" ]; then
  if [ -f "$out.tmp" ]; then resume="--resume"; else resume=""; fi
  $xqlab selfplay $common -o "$out" $resume >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "final run"; }
fi
grep -q "HDF5-DIAG" "$dir/err" && { cat "$dir/err"; fail "HDF5 error stack printed"; }
for leftover in "$out.tmp" "$out.part" "$out.tmp.games" "$out.tmp.new"; do
  [ ! -e "$leftover" ] || fail "$leftover left behind after completion"
done
$compare "$dir/ref.h5" "$out" || fail "resumed file differs from the reference"

# A .tmp next to a complete file (a kill between the rename and the removal at close) is stale:
# --resume removes it and says the file is complete; a stale .part is removed by the next run.
cp "$out" "$out.tmp"
$xqlab selfplay $common -o "$out" --resume >/dev/null 2>&1
[ ! -e "$out.tmp" ] || fail "stale .tmp next to a complete file not removed"
rm -f "$out"
printf 'junk' > "$out.part"
$xqlab selfplay $common -n 4 -o "$out" >/dev/null || fail "run with a stale .part"
[ ! -e "$out.part" ] || fail "stale .part not removed"
echo "crash safety: ok ($attempts attempts)"
