#!/bin/sh
# fairy_rules.sh - checks that a Fairy-Stockfish build plays the rule sets `xqlab bench strength`
# matches it in exactly as xqlab does: the same legal moves and the same perft counts at several
# depths, from the start position, from every shipped opening and from hand-made positions.
# usage: scripts/bench/fairy_rules.sh [FAIRY_STOCKFISH] [XQLAB]
#   FAIRY_STOCKFISH  default /usr/games/fairy-stockfish (Debian's 11.1 plays xiangqi only; sniper
#                    needs a build of version 14 or later with large boards)
#   XQLAB            default build/cli/xqlab
# Exit 0 if every check agrees.
set -u
FAIRY=${1:-/usr/games/fairy-stockfish}
XQLAB=${2:-build/cli/xqlab}
cd "$(dirname "$0")/../.." || exit 1
status=0
run() {
    echo "== $*"
    "$XQLAB" bench strength --xqlab "$FAIRY" --engine "$FAIRY" "$@" || status=1
}
# Start position and hand-made positions to depth 4, the shipped openings to depth 3.
run -v xiangqi --check-rules 4 --openings tests/data/xiangqi_positions.txt
run -v xiangqi --check-rules 3
run -v sniper --check-rules 4 --openings tests/data/sniper_positions.txt
run -v sniper --check-rules 3
exit $status
