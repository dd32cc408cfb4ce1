#!/bin/sh
# build_fairy.sh - builds Fairy-Stockfish from its sources at a given tag or commit, with large
# boards (10-file boards such as sniper need them), for `xqlab bench strength --engine PATH`.
# The sources are not part of xqlab: give a local clone (a work tree or a bare git directory)
# or a clone URL.
# usage: scripts/bench/build_fairy.sh SOURCE PREFIX [REF]
#   SOURCE  a git directory or work tree of Fairy-Stockfish, or a URL git can clone
#           (https://github.com/fairy-stockfish/Fairy-Stockfish.git)
#   PREFIX  where to put the build: PREFIX/bin/fairy-stockfish, PREFIX/BUILDINFO (the tag, its
#           commit, the make command, the engine's `id name`) and the checked-out sources in
#           PREFIX/src; refused if PREFIX/bin/fairy-stockfish exists (FORCE=1 rebuilds)
#   REF     the release tag or commit to build [fairy_sf_14_0_1_xq]
# Environment (defaults in brackets):
#   ARCH [x86-64]        the Makefile's ARCH (x86-64-modern, x86-64-avx2, ... are faster where
#                        the CPU has them; x86-64 runs everywhere)
#   JOBS [2]             make -j
#   MAKE_ARGS [""]       extra make variables, e.g. "nnue=yes" (which downloads a network)
#   FORCE [0]            1: replace an existing PREFIX/bin/fairy-stockfish and PREFIX/src
# Needs git, make and g++. Prints the path of the engine on the last line.
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: scripts/bench/build_fairy.sh SOURCE PREFIX [REF]" >&2
    exit 2
fi
SOURCE=$1
PREFIX=$2
REF=${3:-fairy_sf_14_0_1_xq}
ARCH=${ARCH:-x86-64}
JOBS=${JOBS:-2}
MAKE_ARGS=${MAKE_ARGS:-}
FORCE=${FORCE:-0}
ME=build_fairy.sh

for tool in git make g++; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$ME: $tool is not installed" >&2
        exit 2
    fi
done
case $PREFIX in
    /*) ;;
    *) PREFIX=$(pwd)/$PREFIX ;;
esac
EXE=$PREFIX/bin/fairy-stockfish
SRC=$PREFIX/src
if [ "$FORCE" != 1 ]; then
    for p in "$EXE" "$SRC"; do
        if [ -e "$p" ]; then
            echo "$ME: $p exists: refusing to replace it (FORCE=1 rebuilds)" >&2
            exit 2
        fi
    done
fi
# A local directory is cloned by path (a bare mirror works too); anything else is given to git
# as a URL.
if [ -d "$SOURCE" ]; then
    if ! git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
        echo "$ME: $SOURCE is not a git directory or work tree" >&2
        exit 2
    fi
    SOURCE=$(cd "$SOURCE" && pwd)
fi
mkdir -p "$PREFIX/bin"
rm -rf "$SRC"
echo "$ME: cloning $SOURCE into $SRC" >&2
git clone --quiet --no-checkout "$SOURCE" "$SRC"
if ! COMMIT=$(git -C "$SRC" rev-parse --verify --quiet "$REF^{commit}"); then
    echo "$ME: $SOURCE has no tag or commit '$REF'" >&2
    echo "$ME: its newest tags: $(git -C "$SRC" tag --sort=-creatordate | head -5 | tr '\n' ' ')" >&2
    rm -rf "$SRC"
    exit 2
fi
git -C "$SRC" -c advice.detachedHead=false checkout --quiet "$COMMIT"
if [ ! -f "$SRC/src/Makefile" ]; then
    echo "$ME: $REF has no src/Makefile: not a Fairy-Stockfish source tree" >&2
    exit 2
fi
DATE=$(git -C "$SRC" log -1 --format=%cs "$COMMIT")
# shellcheck disable=SC2086 # MAKE_ARGS is a list of make variables
set -- build ARCH="$ARCH" largeboards=yes -j"$JOBS" $MAKE_ARGS
echo "$ME: $REF = $COMMIT ($DATE): make $*" >&2
make -C "$SRC/src" "$@" >"$PREFIX/build.log" 2>&1 || {
    echo "$ME: make failed; the end of $PREFIX/build.log:" >&2
    tail -20 "$PREFIX/build.log" >&2
    exit 1
}
cp "$SRC/src/stockfish" "$EXE.new"
mv "$EXE.new" "$EXE"
# The engine must answer `uci` with its name (kept in BUILDINFO).
ID=$(printf 'uci\nquit\n' | "$EXE" | sed -n 's/^id name //p' | head -1)
if [ -z "$ID" ]; then
    echo "$ME: $EXE does not answer 'uci'" >&2
    exit 1
fi
{
    echo "source: $SOURCE"
    echo "ref: $REF"
    echo "commit: $COMMIT ($DATE)"
    echo "make: make -C src $*"
    echo "compiler: $(g++ --version | head -1)"
    echo "id name: $ID"
    echo "built: $(date -u '+%Y-%m-%d %H:%M UTC')"
} >"$PREFIX/BUILDINFO"
echo "$ME: built $ID ($REF, $COMMIT); details in $PREFIX/BUILDINFO" >&2
echo "$EXE"
