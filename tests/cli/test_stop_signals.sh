#!/bin/sh
# test_stop_signals.sh - a stop signal at any moment of selfplay and match is a clean stop with
# exit 130 (issue 15 item 8), never the default death (138 for SIGUSR1, 143 for SIGTERM):
#   * before the run starts, while the command is still reading its inputs (held there by an
#     opening book that is a FIFO nobody writes to yet): the run stops before its first game and
#     selfplay --resume completes it;
#   * while the summary is being written (held there by a stdout pipe that is already full):
#     the dataset is complete, the exit status is 130 with a note saying so.
# Usage: test_stop_signals.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
book=$3/configs/openings/xiangqi.txt
dir=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }
cd "$dir" || exit 1
sp="selfplay -v xiangqi -n 4 --playouts 8 --progress quiet -t 1"
games() { "$xqlab" inspect --json "$1" 2>/dev/null | sed -n 's/.*"games": \([0-9]*\).*/\1/p' | head -1; }

# ---- a signal while the inputs are read ----
# before SIG CMD...: CMD reads its book from a FIFO; SIG arrives while it waits there.
before() {
  sig=$1; shift
  rm -f book.fifo; mkfifo book.fifo
  "$xqlab" "$@" --openings book.fifo >out.txt 2>err.txt &
  pid=$!
  sleep 1
  if ! kill -0 "$pid" 2>/dev/null; then
    fail "$1 $sig before the run: ended before the signal: $(cat err.txt)"; pid=; return 1
  fi
  kill -"$sig" "$pid"
  sleep 0.3
  # In the background: a process the signal killed never opens the FIFO.
  cat "$book" >book.fifo &
  feeder=$!
  wait "$pid"
  rc=$?
  kill "$feeder" 2>/dev/null
  wait "$feeder" 2>/dev/null
  pid=
  if [ "$rc" -ne 130 ]; then
    fail "$1: SIG$sig while reading the inputs: exit $rc, expected 130: $(head -c 300 err.txt)"
    return 1
  fi
  return 0
}
before TERM $sp -o pre.h5 &&
  grep -q "interrupted after 0 of 4 games" err.txt && [ -f pre.h5.tmp ] && [ ! -e pre.h5 ] &&
  ok "selfplay: SIGTERM before the run: exit 130, no game played" ||
  fail "selfplay: SIGTERM before the run: $(cat err.txt)"
"$xqlab" $sp --openings "$book" -o pre.h5 --resume >/dev/null 2>err.txt && [ "$(games pre.h5)" = 4 ] &&
  ok "selfplay: the run stopped before it started resumes to 4 games" || fail "resume of pre.h5: $(cat err.txt)"
before USR1 $sp -o pre1.h5 && ok "selfplay: SIGUSR1 before the run: exit 130"
before TERM match -v xiangqi --a greedy --b greedy --games 2 && ok "match: SIGTERM before the games: exit 130"

# ---- a signal while the summary is written ----
# The summary goes to a pipe holding 64 KiB nobody reads yet (the pipe's capacity): writing it
# blocks until the gate opens, after the signal.
rm -f gate; mkfifo gate
{
  head -c 65536 /dev/zero
  sh -c 'echo $$ >pid.txt; exec "$0" "$@"' "$xqlab" $sp -o sum.h5 2>sum.err
  echo $? >rc.txt
} | { cat gate >/dev/null; cat >/dev/null; } &
pipeline=$!
i=0
while [ ! -f sum.h5 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
pid=$(cat pid.txt 2>/dev/null)
sleep 0.5
if [ -f sum.h5 ] && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
  kill -USR1 "$pid"
  sleep 0.3
  (: >gate) &
  wait "$pipeline"
  pid=
  rc=$(cat rc.txt 2>/dev/null)
  [ "$rc" = 130 ] && grep -q "stopped by a signal after the work was done" sum.err &&
    [ "$(games sum.h5)" = 4 ] && ok "selfplay: SIGUSR1 during the summary: exit 130, dataset complete" ||
    fail "selfplay: SIGUSR1 during the summary: exit $rc: $(cat sum.err)"
else
  (: >gate) &
  wait "$pipeline"
  pid=
  fail "selfplay: never reached its summary (blocked elsewhere?): $(cat sum.err)"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "stop signals: ok"
