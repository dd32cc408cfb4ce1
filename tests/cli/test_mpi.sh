#!/bin/sh
# The MPI launch mode (built with -DXQLAB_WITH_MPI=ON): 2 ranks each play a shard, rank 0 writes the
# virtual-dataset index; the index and a merged copy of the shards equal a single-process run.
# Usage: test_mpi.sh XQLAB PLUGIN_DIR SOURCE_DIR
set -u
xqlab=$1
export HDF5_PLUGIN_PATH=$2
compare="/usr/bin/python3 $3/tests/python/compare_datasets.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common="-v xiangqi --playouts 16 --seed 31 -n 16 -t 1"
mpi="mpirun --allow-run-as-root --oversubscribe -np 2"

"$xqlab" selfplay $common --progress quiet -o "$dir/single.h5" >"$dir/single.txt" || fail "single-process run"
$mpi "$xqlab" selfplay $common --progress log -o "$dir/run.h5" >"$dir/mpi.txt" 2>"$dir/mpi.err" \
  || fail "mpirun -np 2: $(tail -5 "$dir/mpi.err")"
grep -q 'games 16/16 .*(2 ranks)' "$dir/mpi.err" || fail "rank 0 printed no progress of both ranks"
[ "$(grep -c '^games ' "$dir/mpi.txt")" -eq 1 ] || fail "expected one summary (rank 0's)"
# The summary of both ranks equals the single run's (all lines but the timing line).
grep -v '^xqlab selfplay:\|^dataset' "$dir/single.txt" >"$dir/a"
grep -v '^xqlab selfplay:\|^dataset' "$dir/mpi.txt" >"$dir/b"
cmp -s "$dir/a" "$dir/b" || fail "summary of 2 ranks differs from the single run's: $(diff "$dir/a" "$dir/b")"
$compare "$dir/single.h5" "$dir/run.h5" || fail "MPI index differs from the single run"
"$xqlab" merge "$dir/run.shard-0000-of-0002.h5" "$dir/run.shard-0001-of-0002.h5" -o "$dir/copy.h5" >/dev/null \
  || fail "merge of the MPI shards"
$compare "$dir/single.h5" "$dir/copy.h5" || fail "merged MPI shards differ from the single run"
# Run again with --resume-if-present: everything complete, the index is checked and kept.
$mpi "$xqlab" selfplay $common --progress quiet --resume-if-present -o "$dir/run.h5" >/dev/null 2>"$dir/again.err" \
  || fail "second run with --resume-if-present: $(tail -3 "$dir/again.err")"
# The index is refused as existing without --resume*, on every rank, with a clean exit.
$mpi "$xqlab" selfplay $common --progress quiet -o "$dir/run.h5" >/dev/null 2>"$dir/exists.err"
[ $? -ne 0 ] || fail "existing index not refused"
grep -q 'already exists' "$dir/exists.err" || fail "no 'already exists' message"
echo "mpi 2 ranks: ok"
