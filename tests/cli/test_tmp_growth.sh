#!/bin/sh
# Scratch space of self-play is bounded (issue 15 item 7, docs/data-format.md): over a run of 100
# games flushed after every game, the peak size of OUT.tmp (sampled every 2 ms by
# scripts/bench/tmp_growth.sh, so never above the true peak) is at most 1.5x the finished file.
# The writer before the redo log grew OUT.tmp by 0.2-0.5 MB per flush (75x at 300 games).
# Usage: test_tmp_growth.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
export HDF5_PLUGIN_PATH=$2
line=$(sh "$3/scripts/bench/tmp_growth.sh" "$1" 100 1 8) || { echo "FAIL: tmp_growth.sh: $line"; exit 1; }
echo "$line"
final=$(echo "$line" | sed -n 's/.* final \([0-9]*\) B .*/\1/p')
peak=$(echo "$line" | sed -n 's/.* peak \.tmp \([0-9]*\) B .*/\1/p')
[ -n "$final" ] && [ -n "$peak" ] && [ "$final" -gt 0 ] || { echo "FAIL: cannot read the figures of: $line"; exit 1; }
[ "$peak" -gt 0 ] || { echo "FAIL: OUT.tmp was never seen (the sampler missed the run)"; exit 1; }
# peak <= 1.5 final, in integers
[ $((2 * peak)) -le $((3 * final)) ] || { echo "FAIL: peak OUT.tmp $peak B is more than 1.5x the finished $final B"; exit 1; }
echo "tmp growth: ok"
