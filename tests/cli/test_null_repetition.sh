#!/bin/sh
# test_null_repetition.sh - a game against Fairy-Stockfish (bench strength, 2026-12-08) replayed
# into `xqlab engine` over UCI, each of xqlab's 106 moves searched at 40,000 positions: the
# search once let a repetition reach back past a null move, and the repetition judge then
# replayed moves for the wrong side (an assertion in builds with assertions, the sanitizer
# build; a wrong verdict without). Passes if every search answers and the engine exits 0.
# usage: test_null_repetition.sh XQLAB
set -eu
XQLAB=$1
DATA=$(cd "$(dirname "$0")/../data" && pwd)/null_repetition.uci
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/in"
"$XQLAB" engine <"$dir/in" >"$dir/out" 2>"$dir/err" &
pid=$!
exec 3>"$dir/in"
fail() {
    echo "FAIL $*"
    tail -n 5 "$dir/out"
    cat "$dir/err"
    kill "$pid" 2>/dev/null || true
    exit 1
}
n=0
while IFS= read -r line; do
    printf '%s\n' "$line" >&3
    case "$line" in
    go*)
        n=$((n + 1))
        waited=0
        while [ "$(grep -c '^bestmove' "$dir/out" || true)" -lt "$n" ]; do
            kill -0 "$pid" 2>/dev/null || fail "the engine died during search $n"
            waited=$((waited + 1))
            [ "$waited" -lt 6000 ] || fail "no answer to search $n in 300 s"
            sleep 0.05
        done
        ;;
    esac
done <"$DATA"
echo quit >&3
exec 3>&-
wait "$pid" || fail "the engine exited with status $?"
[ "$n" -eq 106 ] || fail "$n searches, expected 106"
echo "ok: $n searches answered"
