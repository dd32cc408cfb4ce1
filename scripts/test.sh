#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, runs the test
# suite, builds the MPI variant and runs its 2-rank test, runs threaded self-play under
# ThreadSanitizer (clang), then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and
# runs the suite again.
# Slow checks (label "slow") are left to scripts/bench/slow-tests.sh. The real-Slurm test (label
# "slurm", tests/slurm/) starts its own munged, slurmctld and slurmd as root: it runs in the release
# build (as root), not again under the sanitizers.
# Every suite runs through scripts/ctest-strict.sh: a test that ctest reports skipped (exit 77:
# xboard, a tmpfs mount, the Slurm daemons... missing) or not run fails the run, named with its
# reason. CI runs as root with every package of scripts/packages.txt, so a skip there is a broken
# prerequisite, never a pass.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
jobs="$(nproc)"
strict="$root/scripts/ctest-strict.sh"

echo "== release build (warnings are errors)"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DXQLAB_WERROR=ON >/dev/null
cmake --build "$root/build" -j"$jobs"
"$strict" --test-dir "$root/build" --output-on-failure -LE slow -j"$jobs"

echo "== MPI build: selfplay under mpirun, the 2-rank test, selfplay-mpi.sbatch under a real Slurm (docs/cluster.md)"
cmake -S "$root" -B "$root/build-mpi" -DCMAKE_BUILD_TYPE=Release -DXQLAB_WERROR=ON -DXQLAB_WITH_MPI=ON >/dev/null
cmake --build "$root/build-mpi" -j"$jobs" --target xqlab xq_h5zstd
"$strict" --test-dir "$root/build-mpi" --output-on-failure -L mpi

echo "== ThreadSanitizer build (clang + LLVM libomp): threaded self-play, tune and match"
# Warnings are errors in the gcc builds above; clang's own extra warnings do not fail the race check.
cmake -S "$root" -B "$root/build-tsan" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DXQLAB_WERROR=OFF -DXQLAB_TSAN=ON >/dev/null
cmake --build "$root/build-tsan" -j"$jobs" --target xqlab xq_h5zstd
"$strict" --test-dir "$root/build-tsan" --output-on-failure -L tsan

echo "== ASan + UBSan build"
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQLAB_WERROR=ON \
  -DXQLAB_SANITIZE=ON >/dev/null
cmake --build "$root/build-asan" -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  "$strict" --test-dir "$root/build-asan" --output-on-failure -LE 'slow|slurm' -j"$jobs"
