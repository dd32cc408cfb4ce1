#!/usr/bin/env bash
# ctest-strict.sh CTEST_ARGS...: `ctest CTEST_ARGS...` that also fails when a test is reported
# skipped or not run, and when no test matches. scripts/test.sh runs every suite through it: CI
# installs every package of scripts/packages.txt and runs as root, so a test that skips there
# (exit 77: xboard, a tmpfs, the Slurm daemons... missing) has a broken prerequisite. The
# skipped tests are named with their reason and the end of their output (scripts/ctest_skips.py).
# Exit: ctest's own status if it failed, else 1 if a test was skipped or not run, else 0.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
report=$(mktemp "${TMPDIR:-/tmp}/ctest-junit.XXXXXX.xml") || exit 1
trap 'rm -f "$report"' EXIT
ctest --no-tests=error --output-junit "$report" "$@"
rc=$?
/usr/bin/env python3 "$here/ctest_skips.py" "$report"
skips=$?
if [ "$rc" -ne 0 ]; then
  exit "$rc"
fi
if [ "$skips" -ne 0 ]; then
  echo "ctest-strict: failing: tests were skipped or not run (see above); install their prerequisites (scripts/setup.sh) and run as root" >&2
  exit 1
fi
exit 0
