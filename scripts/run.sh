#!/usr/bin/env bash
# The main job with defaults: installs what is missing, builds, and runs the move-generation
# benchmark (replaced by a self-play batch once the driver lands).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
"$root/build/cli/xqlab" bench perft --repeat 1
