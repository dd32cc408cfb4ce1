#!/bin/sh
# test_options.sh - every command answers a mistyped option in one line on stderr, exit 2, with
# the nearest option of its --help ("did you mean --playouts?"); a known option without its
# value says so; an unknown one far from all says where the options are listed.
# usage: test_options.sh PATH/TO/xqlab
set -u
XQLAB="$1"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

# one NAME WANT_LINE -- ARGS...: exit 2, stdout empty, stderr exactly WANT_LINE.
one() {
    name="$1"; want="$2"; shift 3
    "$XQLAB" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
    rc=$?
    got=$(cat "$WORK/err")
    if [ "$rc" -ne 2 ] || [ -s "$WORK/out" ] || [ "$got" != "$want" ]; then
        echo "FAIL $name: exit $rc, stderr '$got' ($(wc -l <"$WORK/err") lines), expected '$want'"
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

one selfplay "xqlab selfplay: unknown option '--playout' (did you mean --playouts?)" -- selfplay -v xiangqi --playout 5
one selfplay-missing-value "xqlab selfplay: --playouts needs a value" -- selfplay -v xiangqi --playouts
one selfplay-far "xqlab selfplay: unknown option '--frobnicate' (xqlab selfplay --help lists the options)" -- selfplay --frobnicate
one selfplay-positional "xqlab selfplay: unexpected argument 'xiangqi' (xqlab selfplay --help)" -- selfplay xiangqi
one selfplay-transposed "xqlab selfplay: unknown option '--sede' (did you mean --seed?)" -- selfplay --sede 3
one selfplay-with-value "xqlab selfplay: unknown option '--threds=2' (did you mean --threads?)" -- selfplay --threds=2
one match "xqlab match: unknown option '--gmaes' (did you mean --games?)" -- match --gmaes 4
one ladder "xqlab ladder: unknown option '--playout' (did you mean --playouts?)" -- ladder --playout 1
one tune "xqlab tune: unknown option '--root-blnd' (did you mean --root-blend?)" -- tune x.h5 --root-blnd 1
one report "xqlab report: unknown option '--jsno' (did you mean --json?)" -- report x.h5 --jsno
one openings "xqlab openings: unknown option '--min-game' (did you mean --min-games?)" -- openings x.h5 --min-game 3
one compare "xqlab compare: unknown option '--markdwn' (did you mean --markdown?)" -- compare x.h5 --markdwn
one export "xqlab export: unknown option '--notaton' (did you mean --notation?)" -- export x.h5 --notaton iccs
one inspect "xqlab inspect: unknown option '--jon' (did you mean --json?)" -- inspect x.h5 --jon
one merge "xqlab merge: unknown option '--indx' (did you mean --index?)" -- merge --indx
one perft "xqlab perft: unknown option '--dept' (did you mean --depth?)" -- perft --dept 3
one perft-short "xqlab perft: unknown option '-x' (xqlab perft --help lists the options)" -- perft -x
one play "xqlab play: unknown option '--move' (did you mean --moves?)" -- play --move h2e2
one variants "xqlab variants: unknown option '--chek' (did you mean --check?)" -- variants --chek
one bench-perft "xqlab bench perft: unknown option '--dpth' (did you mean --depth?)" -- bench perft --dpth 4
one bench-selfplay "xqlab bench selfplay: unknown option '--game' (did you mean --games?)" -- bench selfplay --game 3
one label "xqlab label: unknown option '--node' (did you mean --nodes?)" -- label x.h5 --node 5
one bench-tune "xqlab bench tune: unknown option '--positons' (did you mean --positions?)" -- bench tune --positons 3

# Each command's suggestion is an option its own help documents.
for cmd in selfplay match ladder tune label report openings compare export inspect merge perft play variants; do
    "$XQLAB" $cmd --help >"$WORK/help" 2>&1
    "$XQLAB" $cmd --hepl >/dev/null 2>"$WORK/err"
    sugg=$(sed -n "s/.*did you mean \(-[-a-z0-9]*\)?.*/\1/p" "$WORK/err")
    if [ -n "$sugg" ] && ! grep -q -- "$sugg" "$WORK/help"; then
        echo "FAIL $cmd: suggests $sugg, which its --help does not name"
        failures=$((failures + 1))
    fi
done
echo "ok   suggestions come from each command's --help"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
