#!/bin/sh
# test_outputs.sh - the one output rule (cli/output.h, docs/cli.md "Output files") for every
# output of every command: an existing file is refused without --force and replaced with it, an
# input is refused even with --force, a symbolic link at the output or at its .tmp is never
# followed, a file locked by another process is refused with its file named, and a refused run
# leaves everything as it was.
# Usage: test_outputs.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
dir=$(mktemp -d)
holder=
cleanup() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }
cd "$dir" || exit 1

q="--progress quiet --playouts 8 -t 2"
"$xqlab" selfplay -v xiangqi -n 6 --seed 3 $q -o data.h5 >/dev/null 2>&1 || { echo "FAIL selfplay data.h5"; exit 1; }
"$xqlab" selfplay -v xiangqi -n 6 --seed 4 --shard 0/2 $q -o s0.h5 >/dev/null 2>&1 || { echo "FAIL shard 0"; exit 1; }
"$xqlab" selfplay -v xiangqi -n 6 --seed 4 --shard 1/2 $q -o s1.h5 >/dev/null 2>&1 || { echo "FAIL shard 1"; exit 1; }
cp "$3/configs/weights/xiangqi.ini" start.ini || exit 1
cp "$3/configs/weights/xiangqi.net" . || exit 1   # start.ini names its network beside it
sum() { cksum <"$1" 2>/dev/null; }

# Each writer: `run_NAME OUT [EXTRA...]` writes OUT (its inputs are data.h5 / s0.h5 s1.h5 / start.ini).
run_tune() { o=$1; shift; rm -f "$o.json"; "$xqlab" tune data.h5 --start start.ini -t 1 --quiet --max-iterations 2 -o "$o" --values "$o.json" "$@"; }
run_values() { o=$1; shift; rm -f values-w.ini; "$xqlab" tune data.h5 --start start.ini -t 1 --quiet --max-iterations 2 -o values-w.ini --values "$o" "$@"; }
run_export() { o=$1; shift; "$xqlab" export data.h5 --pgn "$o" "$@"; }
run_openings() { o=$1; shift; "$xqlab" openings data.h5 --h5 "$o" "$@"; }
run_merge() { o=$1; shift; "$xqlab" merge s0.h5 s1.h5 -o "$o" "$@"; }
run_selfplay() { o=$1; shift; "$xqlab" selfplay -v xiangqi -n 2 --seed 5 $q --weights start.ini -o "$o" "$@"; }
# --plots DIR: the file checked is DIR/score.png (the other plots are removed before each step).
run_plots() { o=$1; shift; d=$(dirname "$o"); find "$d" -name '*.png' ! -path "$o" -delete; "$xqlab" report data.h5 --plots "$d" "$@"; }

# expect NAME RC PATTERN -- CMD...: exit status and a message matching PATTERN (grep -E).
expect() {
  name=$1; want=$2; pattern=$3; shift 4
  "$@" >out.txt 2>err.txt
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "$name: exit $rc, expected $want: $(head -c 600 err.txt)"
    return 1
  elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" err.txt; then
    fail "$name: no '$pattern' in: $(head -c 600 err.txt)"
    return 1
  fi
  return 0
}

# check WRITER OUT INPUT [refuse]: the rule for one output; INPUT is one of the writer's inputs
# ("-": none can be named as this output); "refuse": a stale OUT.tmp link is refused rather than
# removed (selfplay: OUT.tmp is resumable).
check() {
  w=$1; out=$2; input=$3; tmplink=${4:-remove}
  rm -rf "$out" "$out.tmp" "$out.lock" target
  mkdir -p "$(dirname "$out")"
  # 1. An existing file is refused and kept.
  echo keep >"$out"
  expect "$w: existing $out refused" 1 "already exists: choose another .*--force" -- run_$w "$out" &&
    { [ "$(cat "$out")" = keep ] && ok "$w: existing output refused and kept" || fail "$w: existing $out changed"; }
  # 2. --force replaces it.
  expect "$w: --force" 0 "" -- run_$w "$out" --force &&
    { [ "$(cat "$out" 2>/dev/null)" != keep ] && [ -s "$out" ] && ok "$w: --force replaces it" ||
      fail "$w: --force did not replace $out"; }
  [ ! -e "$out.tmp" ] && [ ! -e "$out.lock" ] || fail "$w: left $out.tmp or $out.lock behind"
  # 3. An input is never an output, even with --force.
  if [ "$input" != - ]; then
    before=$(sum "$input")
    expect "$w: input as output" 1 "is an input" -- run_$w "$input" --force &&
      { [ "$(sum "$input")" = "$before" ] && ok "$w: its input refused as output" || fail "$w: the input $input changed"; }
  fi
  # 4. A symbolic link is never written through (not even with --force).
  rm -f "$out"
  echo keep >target
  ln -s "$dir/target" "$out"
  expect "$w: link" 1 "symbolic link" -- run_$w "$out" --force &&
    { [ "$(cat target)" = keep ] && [ -L "$out" ] && ok "$w: symbolic link refused" || fail "$w: wrote through the link"; }
  rm -f "$out"
  # 5. A stale OUT.tmp that is a symbolic link is removed (or refused), never followed.
  ln -s "$dir/target" "$out.tmp"
  if [ "$tmplink" = refuse ]; then
    expect "$w: stale .tmp link" 1 "symbolic link" -- run_$w "$out" &&
      { [ "$(cat target)" = keep ] && [ ! -e "$out" ] && ok "$w: stale .tmp link refused" ||
        fail "$w: followed the .tmp link (target: $(head -c 40 target))"; }
  else
    expect "$w: stale .tmp link" 0 "" -- run_$w "$out" &&
      { [ "$(cat target)" = keep ] && [ -f "$out" ] && [ ! -L "$out" ] && ok "$w: stale .tmp link not followed" ||
        fail "$w: followed the .tmp link (target: $(head -c 40 target))"; }
  fi
  rm -f "$out" "$out.tmp"
  # 6. Another process holding the output's lock: refused, its files untouched.
  echo theirs >"$out.tmp"
  flock -n "$out.lock" sleep 30 &
  holder=$!
  sleep 0.3
  expect "$w: locked" 1 "another process .*$(basename "$out").tmp" -- run_$w "$out" --force &&
    { [ "$(cat "$out.tmp")" = theirs ] && [ ! -e "$out" ] && ok "$w: output locked by another process refused" ||
      fail "$w: touched the other process's files"; }
  kill "$holder" 2>/dev/null
  wait "$holder" 2>/dev/null
  holder=
  rm -f "$out" "$out.tmp" "$out.lock" target
}

check tune w.ini data.h5
check values v.json start.ini
check export g.pgn data.h5
check openings o.h5 data.h5
check merge m.h5 s0.h5
check selfplay sp.h5 start.ini refuse
check plots plots/score.png -

# Two outputs of one command on the same file.
expect "tune -o and --values the same file" 1 "named twice" -- \
  "$xqlab" tune data.h5 -t 1 --quiet --max-iterations 2 -o same.json &&
  { [ ! -e same.json ] && ok "tune: one file named as two outputs refused" || fail "tune wrote same.json"; }
# tune's JSON never overwrites its starting weights.
before=$(sum start.ini)
expect "tune --values = --start" 1 "is an input" -- \
  "$xqlab" tune data.h5 --start start.ini -t 1 --quiet --max-iterations 2 -o w2.ini --values start.ini --force &&
  { [ "$(sum start.ini)" = "$before" ] && ok "tune: the starting weights are never an output" || fail "start.ini changed"; }
# The plot folder itself: not through a link, not a file.
echo keep >notdir
expect "--plots FILE" 1 "is not a folder" -- "$xqlab" report data.h5 --plots notdir && ok "--plots: a file is not a folder"
ln -s "$dir/plots" plotlink
expect "--plots LINK" 1 "symbolic link" -- "$xqlab" report data.h5 --plots plotlink && ok "--plots: a linked folder refused"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "outputs: ok"
