#!/bin/sh
# xqlab selfplay --shard and xqlab merge end to end: shards merged (copy and VDS index) equal a
# single-process run; refusals name the file (mismatch, duplicate, gap, missing, unfinished,
# incomplete set; --allow-partial merges a contiguous part with a warning);
# an index whose source is missing or replaced is refused by every reader.
# Usage: test_merge.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common="-v xiangqi --playouts 16 --progress quiet --seed 11 -n 14 -t 2"

# expect EXIT PATTERN ARGS...: xqlab ARGS exits with EXIT and stderr matches PATTERN.
expect() {
  want=$1; pattern=$2; shift 2
  "$xqlab" "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
  [ "$rc" -eq "$want" ] || fail "xqlab $*: exit $rc, expected $want ($(cat "$dir/err"))"
  [ -z "$pattern" ] || grep -Eq -- "$pattern" "$dir/err" || fail "xqlab $*: no '$pattern' in: $(cat "$dir/err")"
}

$xqlab selfplay $common -o "$dir/single.h5" >/dev/null || fail "single run"
mkdir "$dir/sh"
for i in 0 1 2 3; do
  $xqlab selfplay $common --shard $i/4 -o "$dir/sh/s$i.h5" >/dev/null || fail "shard $i"
done
# Shard 1 of 4 of 14 games: floor(14/4) = 3 .. floor(28/4) - 1 = 6.
$xqlab inspect --json "$dir/sh/s1.h5" | grep -q '"games": 4' || fail "shard 1 does not hold 4 games"

# Copy, shards in any order.
$xqlab merge "$dir/sh/s3.h5" "$dir/sh/s1.h5" "$dir/sh/s0.h5" "$dir/sh/s2.h5" -o "$dir/all.h5" >/dev/null || fail "merge"
$compare "$dir/single.h5" "$dir/all.h5" || fail "merged copy differs from the single run"
[ ! -e "$dir/all.h5.tmp" ] || fail "merge left all.h5.tmp"
# Index in another folder: sources are stored relative to it.
mkdir "$dir/idx"
$xqlab merge --index "$dir"/sh/s*.h5 -o "$dir/idx/all.h5" >/dev/null || fail "merge --index"
$compare "$dir/single.h5" "$dir/idx/all.h5" || fail "index reads differently from the single run"
(cd / && $compare "$dir/single.h5" "$dir/idx/all.h5") >/dev/null || fail "index depends on the working directory"
$xqlab report --json "$dir/single.h5" | sed 's/"files": [^,]*,//' >"$dir/r1"
$xqlab report --json "$dir/idx/all.h5" | sed 's/"files": [^,]*,//' >"$dir/r2"
cmp -s "$dir/r1" "$dir/r2" || fail "report of the index differs from the single run's"
# Analysis commands take the shards directly as well.
$xqlab report "$dir"/sh/s*.h5 | grep -q '14 games from 4 files' || fail "report over the shards"
$xqlab merge --index "$dir/sh/s0.h5" "$dir/sh/s1.h5" "$dir/sh/s2.h5" "$dir/sh/s3.h5" --json -o "$dir/i2.h5" \
  | grep -q '"games": 14' || fail "merge --json"

# Refusals.
expect 1 'gap: games 3\.\.6 .*missing shard 1 of 4' merge "$dir/sh/s0.h5" "$dir/sh/s2.h5" "$dir/sh/s3.h5" -o "$dir/x.h5"
# An incomplete set (14 games in 4 shards: 0..2, 3..6, 7..9, 10..13): the shards before the first
# and after the last one given are named; a gap is refused even with --allow-partial.
expect 1 'incomplete shard set: shards 2\.\.3 of 4 \(games from 7 on\) missing; .*--allow-partial to merge games 0\.\.6 only' \
  merge "$dir/sh/s0.h5" "$dir/sh/s1.h5" -o "$dir/x.h5"
expect 1 's1\.h5: incomplete shard set: shard 0 of 4 \(games 0\.\.2\) missing' \
  merge "$dir/sh/s3.h5" "$dir/sh/s1.h5" "$dir/sh/s2.h5" -o "$dir/x.h5"
expect 1 'shard 0 of 4 \(games 0\.\.2\) and shards 2\.\.3 of 4 \(games from 7 on\) missing' merge "$dir/sh/s1.h5" -o "$dir/x.h5"
expect 1 'gap: games 3\.\.6' merge --allow-partial "$dir/sh/s0.h5" "$dir/sh/s2.h5" -o "$dir/x.h5"
# --allow-partial merges a contiguous part and warns, naming the shards left out. The part keeps
# the place of its last shard: alone it is still incomplete, with the rest it is the whole run.
expect 0 'warning: .*part\.h5: incomplete shard set: shards 2\.\.3 of 4 \(games from 7 on\) missing; merged games 0\.\.6 only' \
  merge --allow-partial "$dir/sh/s1.h5" "$dir/sh/s0.h5" -o "$dir/part.h5"
$xqlab inspect --json "$dir/part.h5" | grep -q '"games": 7' || fail "the partial merge does not hold games 0..6"
expect 1 'part\.h5: incomplete shard set: shards 2\.\.3 of 4' merge "$dir/part.h5" -o "$dir/x.h5"
$xqlab merge "$dir/part.h5" "$dir/sh/s2.h5" "$dir/sh/s3.h5" -o "$dir/whole.h5" >/dev/null || fail "part + rest"
$compare "$dir/single.h5" "$dir/whole.h5" >/dev/null || fail "partial merge + the other shards differ from the single run"
expect 1 'given twice' merge "$dir/sh/s0.h5" "$dir/sh/s0.h5" -o "$dir/x.h5"
expect 1 'missing shard file' merge "$dir/sh/s0.h5" "$dir/sh/nope.h5" -o "$dir/x.h5"
expect 1 'already exists' merge "$dir"/sh/s*.h5 -o "$dir/all.h5"
$xqlab selfplay -v xiangqi --playouts 12 --progress quiet --seed 11 -n 14 --shard 1/4 -o "$dir/p1.h5" >/dev/null
expect 1 'different search settings.*playouts' merge "$dir/sh/s0.h5" "$dir/p1.h5" -o "$dir/x.h5"
$xqlab selfplay -v xiangqi --playouts 16 --progress quiet --seed 12 -n 14 --shard 1/4 -o "$dir/q1.h5" >/dev/null
expect 1 'base seed 12 vs 11' merge "$dir/sh/s0.h5" "$dir/q1.h5" -o "$dir/x.h5"
$xqlab selfplay -v sniper --playouts 16 --progress quiet --seed 11 -n 14 --shard 1/4 -o "$dir/v1.h5" >/dev/null
expect 1 'different rule sets' merge "$dir/sh/s0.h5" "$dir/v1.h5" -o "$dir/x.h5"
# The same games twice under another shard split.
$xqlab selfplay $common --shard 0/2 -o "$dir/h0.h5" >/dev/null
expect 1 'overlaps' merge "$dir/h0.h5" "$dir/sh/s1.h5" -o "$dir/x.h5"
# Unfinished shards: an interrupted run leaves only .tmp.
$xqlab selfplay $common --shard 1/4 -o "$dir/u1.h5" >/dev/null
mv "$dir/u1.h5" "$dir/u1.h5.tmp"
expect 1 'not finished: only .*u1.h5.tmp exists' merge "$dir/sh/s0.h5" "$dir/u1.h5" -o "$dir/x.h5"
expect 1 'unfinished shard \(\.tmp\)' merge "$dir/sh/s0.h5" "$dir/u1.h5.tmp" -o "$dir/x.h5"
expect 1 'virtual-dataset index, not a shard' merge "$dir/idx/all.h5" -o "$dir/x.h5"
expect 1 'overlaps' report "$dir/idx/all.h5" "$dir/sh/s0.h5"
[ ! -e "$dir/x.h5" ] && [ ! -e "$dir/x.h5.tmp" ] || fail "a refused merge left a file"
expect 2 'needs -o' merge "$dir/sh/s0.h5"
expect 2 'unknown option' merge --bogus "$dir/sh/s0.h5" -o "$dir/x.h5"
expect 2 'below the count' selfplay $common --shard 4/4 --no-output
expect 2 'expects I/N' selfplay $common --shard 3 --no-output
expect 2 'is empty' selfplay $common --shard 20/30 --no-output
"$xqlab" merge --help | grep -q 'usage: xqlab merge' || fail "merge --help"

# An index whose source is gone or replaced: HDF5 would read fill values; every reader refuses.
mv "$dir/sh/s2.h5" "$dir/s2.away"
for cmd in report inspect openings; do
  expect 1 'index source .*s2.h5 is missing' $cmd "$dir/idx/all.h5"
done
expect 1 'index source .*s2.h5 is missing' export "$dir/idx/all.h5" --pgn "$dir/x.pgn"
$xqlab selfplay $common --shard 2/4 -o "$dir/sh/s2.h5" >/dev/null || fail "shard 2 again"
sleep 1
rm "$dir/sh/s2.h5"
$xqlab selfplay $common --shard 2/4 -o "$dir/sh/s2.h5" >/dev/null || fail "shard 2 again"
expect 1 'not the file the index was made from' report "$dir/idx/all.h5"
mv "$dir/s2.away" "$dir/sh/s2.h5"
$xqlab report "$dir/idx/all.h5" >/dev/null || fail "index with its source restored"
HDF5_VDS_PREFIX=/elsewhere expect 1 'HDF5_VDS_PREFIX' report "$dir/idx/all.h5"
echo "shard + merge end to end: ok"
