#!/usr/bin/env bash
# The main job with defaults: installs what is missing, builds, then plays a self-play batch of
# standard xiangqi on all cores, prints the balance summary and writes a dataset under runs/.
# Extra arguments go to `xqlab selfplay` (e.g. scripts/run.sh -n 1000 --playouts 400).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
mkdir -p "$root/runs"
out="$root/runs/xiangqi-$(date -u +%Y%m%d-%H%M%S).h5"
"$root/build/cli/xqlab" selfplay -v xiangqi -n 200 -o "$out" "$@"
echo "inspect it with: build/cli/xqlab inspect $out"
