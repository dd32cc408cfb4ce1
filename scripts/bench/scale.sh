#!/usr/bin/env bash
# scale.sh - the scale-out benchmarks of docs/cluster.md, medians of REPEAT runs:
#   1. self-play games per hour: 1 process x 2 threads against mpirun -np 2 ranks x 1 thread
#      (the same games; target: ranks >= 90% of threads);
#   2. xqlab merge of SHARDS synthetic shards of GAMES_PER_SHARD games (written once by
#      bench_merge into WORK; target: 100 x 1,000 games in under a minute), copy and --index.
# Needs builds in build/ (release) and build-mpi/ (-DXQLAB_WITH_MPI=ON). Run it when the machine is
# otherwise idle (it prints /proc/loadavg before each part).
# Environment: REPEAT (3), SP_GAMES (48), SP_PLAYOUTS (200), SHARDS (100), GAMES_PER_SHARD (1000),
# WORK (/tmp/xqlab-bench-scale), SKIP_SELFPLAY=1 / SKIP_MERGE=1 to run one part.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
xqlab=${XQLAB:-$root/build/cli/xqlab}
xqlab_mpi=${XQLAB_MPI:-$root/build-mpi/cli/xqlab}
bench_merge=${BENCH_MERGE:-$root/build/export/bench_merge}
repeat=${REPEAT:-3}
work=${WORK:-/tmp/xqlab-bench-scale}
mkdir -p "$work"

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", b - a}'; }
calc() { awk "BEGIN {printf \"%.1f\", $1}"; }

if [ "${SKIP_SELFPLAY:-0}" != 1 ]; then
  games=${SP_GAMES:-48}
  playouts=${SP_PLAYOUTS:-200}
  common=(-v xiangqi -n "$games" --playouts "$playouts" --seed 3 --progress quiet)
  echo "== self-play: $games games, $playouts playouts/move; load $(cut -d' ' -f1-3 /proc/loadavg)"
  : >"$work/threads.txt"
  : >"$work/ranks.txt"
  for ((r = 0; r < repeat; r++)); do
    rm -f "$work"/sp*.h5
    seconds "$xqlab" selfplay "${common[@]}" -t 2 -o "$work/sp-threads.h5" >>"$work/threads.txt"
    seconds mpirun --allow-run-as-root --oversubscribe -np 2 "$xqlab_mpi" selfplay "${common[@]}" -t 1 \
      -o "$work/sp-ranks.h5" >>"$work/ranks.txt"
    [ -f "$work/sp-ranks.h5" ] || { echo "scale.sh: the MPI run wrote no index" >&2; exit 1; }
  done
  t_threads=$(median <"$work/threads.txt")
  t_ranks=$(median <"$work/ranks.txt")
  echo "1 process x 2 threads: median $t_threads s  ($(calc "$games * 3600 / $t_threads") games/hour)  runs: $(tr '\n' ' ' <"$work/threads.txt")"
  echo "2 ranks x 1 thread:    median $t_ranks s  ($(calc "$games * 3600 / $t_ranks") games/hour)  runs: $(tr '\n' ' ' <"$work/ranks.txt")"
  echo "ranks / threads: $(calc "100 * $t_threads / $t_ranks")% of the games/hour (target >= 90%)"
  rm -f "$work"/sp*.h5
fi

if [ "${SKIP_MERGE:-0}" != 1 ]; then
  shards=${SHARDS:-100}
  per=${GAMES_PER_SHARD:-1000}
  dir="$work/shards-$shards-x-$per"
  echo "== merge: $shards shards x $per games (synthetic, in $dir); load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$bench_merge" --dir "$dir" --shards "$shards" --games "$per"
  echo "shards: $(du -sm "$dir" | cut -f1) MB"
  : >"$work/copy.txt"
  : >"$work/index.txt"
  for ((r = 0; r < repeat; r++)); do
    rm -f "$work/all.h5" "$work/index.h5"
    seconds "$xqlab" merge "$dir"/bench.shard-*.h5 -o "$work/all.h5" >>"$work/copy.txt"
    seconds "$xqlab" merge --index "$dir"/bench.shard-*.h5 -o "$work/index.h5" >>"$work/index.txt"
  done
  "$xqlab" inspect "$work/all.h5" | sed -n '1,6p'
  echo "merge copy:    median $(median <"$work/copy.txt") s (target < 60 s)  runs: $(tr '\n' ' ' <"$work/copy.txt")"
  echo "merge --index: median $(median <"$work/index.txt") s  runs: $(tr '\n' ' ' <"$work/index.txt")"
  echo "read through the index (report): $(seconds "$xqlab" report "$work/index.h5") s"
  rm -f "$work/all.h5" "$work/index.h5"
fi
