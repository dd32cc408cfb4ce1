#!/bin/sh
# Scratch space of a self-play run: the peak size of OUT.tmp (and of OUT.tmp with its redo log
# OUT.tmp.wal, both in bytes of disk blocks) over a run of many flushes, against the size of the
# finished OUT. A poller samples every 2 ms, so the figures are the peak within one flush.
# Usage: scripts/bench/tmp_growth.sh [XQLAB] [GAMES] [FLUSH_GAMES] [PLAYOUTS]
#   defaults: build/cli/xqlab, 300 games, a flush after every game, 8 playouts a move.
# Prints one line: games, flushes, final bytes, peak .tmp bytes, peak .tmp+.wal bytes, ratios.
set -eu
xqlab=${1:-build/cli/xqlab}
games=${2:-300}
flush=${3:-1}
playouts=${4:-8}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out="$dir/run.h5"
"$xqlab" selfplay -v xiangqi --playouts "$playouts" --progress quiet --seed 5 -t 1 -n "$games" \
  --flush-games "$flush" -o "$out" >/dev/null &
pid=$!
/usr/bin/python3 - "$out" "$pid" >"$dir/peaks" <<'PY'
import os, sys, time
out, pid = sys.argv[1], int(sys.argv[2])
def used(p):
    try:
        return os.stat(p).st_blocks * 512
    except FileNotFoundError:
        return 0
peak_tmp = peak_all = 0
while True:
    t = used(out + ".tmp")
    peak_tmp = max(peak_tmp, t)
    peak_all = max(peak_all, t + used(out + ".tmp.wal"))
    try:
        os.kill(pid, 0)
        if os.path.exists(out):
            break
    except ProcessLookupError:
        break
    time.sleep(0.002)
print(peak_tmp, peak_all)
PY
wait $pid
final=$(( $(stat -c %b "$out") * 512 ))
read -r peak_tmp peak_all <"$dir/peaks"
flushes=$(( (games + flush - 1) / flush ))
awk -v g="$games" -v fl="$flushes" -v f="$final" -v t="$peak_tmp" -v a="$peak_all" 'BEGIN {
  printf "games %d  flushes >= %d  final %d B  peak .tmp %d B (%.2fx)  peak .tmp+.wal %d B (%.2fx)\n",
         g, fl, f, t, t / f, a, a / f }'
