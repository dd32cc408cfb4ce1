#!/bin/sh
# Threaded self-play under ThreadSanitizer (build with -DXQLAB_TSAN=ON, clang + LLVM libomp): 4
# worker threads and the ordered writer with frequent flushes, an interrupt and --resume, a
# hidden-piece variant (chance nodes), tune and match on 4 threads; the 4-thread dataset must equal
# the 1-thread one. Any race report fails the run (halt_on_error, exit 66).
# Usage: test_tsan_selfplay.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
# ignore_noninstrumented_modules: libomp itself is not instrumented; without the option TSan
# reports a race between pthread_mutex_init and pthread_mutex_lock whose frames are all inside
# libomp.so (the runtime's own lock setup), which is OpenMP-runtime noise. No other suppression.
export TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 ${TSAN_OPTIONS:-}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; cat "$dir/err" 2>/dev/null | head -60; exit 1; }
common="-v xiangqi --playouts 24 --progress quiet --seed 3 -n 16 --flush-games 1"

$xqlab selfplay $common -t 4 -o "$dir/t4.h5" >/dev/null 2>"$dir/err" || fail "selfplay -t 4"
$xqlab selfplay $common -t 1 -o "$dir/t1.h5" >/dev/null 2>"$dir/err" || fail "selfplay -t 1"
$compare "$dir/t1.h5" "$dir/t4.h5" >/dev/null || fail "4-thread dataset differs from the 1-thread one"
echo "ok   selfplay on 4 threads: no race, same dataset as 1 thread"

# SIGINT while the workers and the writer run, then --resume.
$xqlab selfplay $common -t 4 -o "$dir/int.h5" >/dev/null 2>"$dir/err" &
pid=$!
sleep 1
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 130 ] || fail "interrupted selfplay exited $rc"
if [ ! -e "$dir/int.h5" ]; then
  $xqlab selfplay $common -t 4 -o "$dir/int.h5" --resume >/dev/null 2>"$dir/err" || fail "resume"
fi
$compare "$dir/t1.h5" "$dir/int.h5" >/dev/null || fail "interrupted and resumed dataset differs"
echo "ok   interrupt and resume on 4 threads (exit $rc before the resume)"

$xqlab selfplay -v jieqi --playouts 24 --progress quiet -n 6 -t 4 -o "$dir/jq.h5" >/dev/null \
  2>"$dir/err" || fail "jieqi selfplay -t 4"
echo "ok   jieqi (chance nodes) on 4 threads"
# 16 short games are few data for every feature: a stronger prior (--l2 1e-3) keeps the fit's
# pawn weight positive (the piece-value unit), while all features still go through the threaded
# objective and Hessian.
$xqlab tune "$dir/t4.h5" -t 4 --quiet --l2 1e-3 -o "$dir/w.ini" >/dev/null 2>"$dir/err" || fail "tune -t 4"
$xqlab match -v xiangqi --a mcts:playouts=16 --b greedy -n 8 -t 4 --quiet >/dev/null \
  2>"$dir/err" || fail "match -t 4"
echo "ok   tune and match on 4 threads"
