#!/bin/sh
# test_resume_options.sh - --resume, --resume-if-present and merge never mix another run's games
# into a file (issue 15 item 2): a run's OUT.tmp is resumed only by the same variant, seed,
# shard, -n, search settings, weights and start position (--fen, --openings), each refused with
# that option named and the files untouched; a finished file of another run is never "already
# complete"; shards of runs with another start position or another -n are not merged. The same
# options still resume and report complete. tune refuses a game given twice (a file twice, a
# merged file with one of its shards).
# Usage: test_resume_options.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
src=$3
compare="/usr/bin/python3 $src/tests/python/compare_datasets.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }
cd "$dir" || exit 1
state() { cksum <"$1" 2>/dev/null; ls -i "$1" 2>/dev/null | cut -d' ' -f1; }

fen="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
book=$src/configs/openings/xiangqi.txt
grep -v '^#' "$book" | grep -v '^ *$' | tail -n +2 >short-book.txt
[ -s short-book.txt ] || { echo "FAIL no opening book to shorten"; exit 1; }
base="-v xiangqi --seed 3 --playouts 8 --progress quiet -t 2"
# run NAME EXTRA...: a finished NAME.h5 of `selfplay $base -n 6 EXTRA`.
run() { name=$1; shift; "$xqlab" selfplay $base -n 6 "$@" -o "$name.h5" >/dev/null 2>&1 || { echo "FAIL run $name $*"; exit 1; }; }
run ref
run refbook --openings "$book"

# check KIND FILE PATTERN -- EXTRA...: `selfplay $base -n 6 EXTRA` on FILE (its run's options
# differ from EXTRA in one field) is refused with PATTERN and leaves FILE.tmp / FILE as they were.
check() {
  kind=$1; file=$2; pattern=$3; shift 4
  for mode in --resume --resume-if-present; do
    [ "$kind" = finished ] && [ "$mode" = --resume ] && continue
    if [ "$kind" = tmp ]; then t=$file.tmp; else t=$file; fi
    before=$(state "$t")
    "$xqlab" selfplay $base -n 6 "$@" -o "$file" $mode >out.txt 2>err.txt
    rc=$?
    if [ $rc -ne 1 ]; then
      fail "$kind $mode $*: exit $rc, expected 1: $(head -c 400 err.txt)"
    elif ! grep -Eq -- "$pattern" err.txt; then
      fail "$kind $mode $*: no '$pattern' in: $(head -c 400 err.txt)"
    elif [ "$(state "$t")" != "$before" ]; then
      fail "$kind $mode $*: $t changed"
    elif [ "$kind" = finished ] && grep -q "already complete" err.txt; then
      fail "$kind $mode $*: reported another run's file complete"
    else
      ok "$kind $mode $*: refused naming $(echo "$pattern" | cut -c1-30)"
    fi
  done
}

for kind in tmp finished; do
  f=$kind.h5
  rm -f "$f" "$f.tmp" "$f.tmp.games"
  # The interrupted state: a .tmp holding every game of the run (what --resume finds after a
  # kill just before the final rename).
  if [ $kind = tmp ]; then cp ref.h5 "$f.tmp"; else cp ref.h5 "$f"; fi
  check $kind "$f" "-v: the file's run played xiangqi, this run sniper" -- -v sniper
  check $kind "$f" "--seed: the file's run has 3, this run 4" -- --seed 4
  check $kind "$f" "--shard: the file's run has no --shard, this run shard 0/2" -- --shard 0/2
  check $kind "$f" "-n: the file's run has 6 games, this run 7" -- -n 7
  check $kind "$f" "search settings .*'playouts = 8' vs 'playouts = 9'" -- --playouts 9
  check $kind "$f" "search settings .*c_puct" -- --set c_puct=2
  check $kind "$f" "--weights: the weights text differs" -- --weights none
  check $kind "$f" "start position .*'startpos', this run 'fen rnbakabnr" -- --fen "$fen"
  check $kind "$f" "start position .*'startpos', this run 'openings" -- --openings "$book"
  # The same options: resumed (the .tmp holds every game) or reported complete, equal to ref.h5.
  "$xqlab" selfplay $base -n 6 -o "$f" --resume-if-present >out.txt 2>err.txt &&
    $compare ref.h5 "$f" >/dev/null && ok "$kind: the same options still resume" ||
    fail "$kind: the same options: $(head -c 400 err.txt)"
done
# Openings: another book is another start.
cp refbook.h5 book.h5.tmp
check tmp book.h5 "start position .*openings [0-9]+ lines, hash [0-9a-f]+', this run 'openings [0-9]+ lines" -- \
  --openings short-book.txt
"$xqlab" selfplay $base -n 6 --openings "$book" -o book.h5 --resume >/dev/null 2>err.txt &&
  $compare refbook.h5 book.h5 >/dev/null && ok "book: the same book still resumes" ||
  fail "book: the same book: $(head -c 400 err.txt)"

# Shards that cover the games without a gap but come from runs with another start or -n.
"$xqlab" selfplay $base -n 4 --shard 0/2 -o a0.h5 >/dev/null 2>&1 &&
  "$xqlab" selfplay $base -n 4 --shard 1/2 --fen "$fen" -o a1f.h5 >/dev/null 2>&1 &&
  "$xqlab" selfplay $base -n 5 --shard 1/2 -o a1n.h5 >/dev/null 2>&1 || { echo "FAIL shards"; exit 1; }
"$xqlab" merge a0.h5 a1f.h5 -o m1.h5 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "a1f.h5: does not belong with a0.h5: different start positions" err.txt && [ ! -e m1.h5 ] &&
  ok "merge: shards from another start position refused" || fail "merge of another start: $(cat err.txt)"
"$xqlab" merge a0.h5 a1n.h5 -o m2.h5 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "a1n.h5: does not belong with a0.h5: a run of 5 games, not 4 (another -n)" err.txt &&
  [ ! -e m2.h5 ] && ok "merge: shards of another -n refused" || fail "merge of another -n: $(cat err.txt)"
# A merged file is its run's result: --resume-if-present of the whole run reports it complete.
"$xqlab" selfplay $base -n 4 --shard 1/2 -o a1.h5 >/dev/null 2>&1 && "$xqlab" merge a0.h5 a1.h5 -o all.h5 >/dev/null 2>&1 ||
  { echo "FAIL merge a0 a1"; exit 1; }
"$xqlab" selfplay $base -n 4 -o all.h5 --resume-if-present >/dev/null 2>err.txt &&
  grep -q "already complete" err.txt && ok "a merged file is complete for the same run" ||
  fail "merged file and the same run: $(cat err.txt)"
"$xqlab" selfplay $base -n 4 --seed 5 -o all.h5 --resume-if-present >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "is another run's finished file: --seed" err.txt && ok "a merged file is not another seed's run" ||
  fail "merged file and another seed: $(cat err.txt)"

# tune counts every game once (item 8): a file given twice (also as a hard link) and a merged file
# with one of its shards are refused; the shards of one run, or two runs, are fine.
tune() { "$xqlab" tune "$@" -t 1 --quiet --max-iterations 2 -o tuned.ini --values tuned.json --force; }
ln a0.h5 a0link.h5
tune a0.h5 a0.h5 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "xqlab tune: a0.h5: is given twice (also as a0.h5)" err.txt && ok "tune: a file given twice refused" ||
  fail "tune a0 a0: $(cat err.txt)"
tune a0.h5 a0link.h5 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "a0link.h5: is given twice (also as a0.h5)" err.txt && ok "tune: a hard link of a file given refused" ||
  fail "tune a0 a0link: $(cat err.txt)"
tune all.h5 a1.h5 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "a1.h5: holds games of all.h5 again (games 2..3 of one run, base seed 3" err.txt &&
  ok "tune: a merged file with one of its shards refused" || fail "tune all a1: $(cat err.txt)"
tune a0.h5 a1.h5 refbook.h5 >/dev/null 2>err.txt && ok "tune: the shards of a run and another run are fine" ||
  fail "tune a0 a1 refbook: $(cat err.txt)"
# Game i of a run is seeded from (seed, i) whatever -n is: the first games of a longer run with
# the same settings are the same games.
tune a0.h5 ref.h5 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "ref.h5: holds games of a0.h5 again (games 0..1" err.txt &&
  ok "tune: the same games from a run with another -n refused" || fail "tune a0 ref: $(cat err.txt)"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "resume options: ok"
