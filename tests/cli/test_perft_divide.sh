#!/bin/sh
# test_perft_divide.sh - `xqlab perft --divide` lists the branches perft counts: in the hidden-piece
# rule sets every drawn identity of a reveal is a branch of its own, so the divide lines add up to
# the plain count and name the identity (e.g. a0a1R), and the position is unchanged afterwards.
# usage: test_perft_divide.sh PATH/TO/xqlab
set -u
XQLAB="$1"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
    echo "FAIL $1"
    failures=$((failures + 1))
}

for v in jieqi jieqi-folk banqi banqi-hp five-tigers; do
    for d in 1 2; do
        "$XQLAB" perft -v "$v" -d "$d" >"$tmp/plain" 2>&1 || { fail "$v perft -d $d"; continue; }
        "$XQLAB" perft -v "$v" -d "$d" --divide >"$tmp/divide" 2>&1 || { fail "$v perft -d $d --divide"; continue; }
        want=$(sed -n 's/^depth [0-9]* leaves \([0-9]*\) .*/\1/p' "$tmp/plain")
        total=$(sed -n 's/^depth [0-9]* leaves \([0-9]*\) .*/\1/p' "$tmp/divide")
        sum=$(grep -v '^depth' "$tmp/divide" | awk -F': ' '{ s += $2 } END { print s + 0 }')
        if [ "$want" != "$total" ] || [ "$want" != "$sum" ]; then
            fail "$v depth $d: perft $want, divide total $total, sum of the lines $sum"
        else
            echo "ok   $v depth $d: $want"
        fi
    done
done

# jieqi: 44 moves at the start, each reveal as many branches as identities its pool holds.
"$XQLAB" perft -v jieqi -d 1 --divide >"$tmp/j1"
grep -qx 'a0a1R: 1' "$tmp/j1" || fail "jieqi divide has no line 'a0a1R: 1'"
grep -q 'a0a1?' "$tmp/j1" && fail "jieqi divide lists an undrawn reveal"
# banqi: 32 flips x 14 identities.
n=$("$XQLAB" perft -v banqi -d 1 --divide | grep -vc '^depth')
[ "$n" -eq 448 ] || fail "banqi divide depth 1 has $n lines, expected 448"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
exit 0
