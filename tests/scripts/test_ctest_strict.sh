#!/bin/bash
# scripts/ctest-strict.sh and scripts/ctest_skips.py (the guard of scripts/test.sh that fails
# when ctest reports a test skipped or not run):
#   * ctest_skips.py on hand-written JUnit reports: a skipped test (exit 1, its name, ctest's
#     reason and its output's SKIP line printed), a test not run, every test run (exit 0),
#     a report without tests and an unreadable file (exit 2);
#   * ctest-strict.sh on a small CMake project of its own under this machine's ctest: a test
#     exiting 77 with SKIP_RETURN_CODE 77 makes it fail (exit 1) naming the test and why, where
#     plain ctest exits 0; passing tests give 0; a failing test keeps ctest's status; a filter
#     matching no test fails.
# Usage: test_ctest_strict.sh SOURCE_DIR
set -u
src=$(realpath "$1")
strict="$src/scripts/ctest-strict.sh"
skips="/usr/bin/python3 $src/scripts/ctest_skips.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# --- the parser, on hand-written reports (the format of ctest 3.21+ --output-junit)
cat >"$dir/skip.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="t" tests="3" failures="0" disabled="0" skipped="1" hostname="" time="1" timestamp="2026-12-02T10:00:00">
	<testcase name="cli_ok" classname="cli_ok" time="0.5" status="run">
		<system-out>ok</system-out>
	</testcase>
	<testcase name="cli_disk_full" classname="cli_disk_full" time="0.01" status="notrun">
		<skipped message="SKIP_RETURN_CODE=77"/>
		<system-out>preparing
SKIPPED: mounting the small tmpfs needs root (run as root, as CI does)
</system-out>
	</testcase>
	<testcase name="cli_bad" classname="cli_bad" time="0.2" status="fail">
		<failure message="Failed"/>
		<system-out>FAIL: something</system-out>
	</testcase>
</testsuite>
XML
$skips "$dir/skip.xml" >"$dir/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "ctest_skips.py on a report with a skipped test: exit $rc, expected 1: $(cat "$dir/out")"
grep -q '^  cli_disk_full: skipped (SKIP_RETURN_CODE=77)$' "$dir/out" || fail "the skipped test is not named with its reason: $(cat "$dir/out")"
grep -qF '| SKIPPED: mounting the small tmpfs needs root' "$dir/out" || fail "the skipped test's own reason is not shown: $(cat "$dir/out")"
grep -q '1 of 3 tests' "$dir/out" || fail "no count of the tests that did not run: $(cat "$dir/out")"
! grep -q 'cli_ok\|cli_bad' "$dir/out" || fail "a test that ran is listed as skipped: $(cat "$dir/out")"

sed 's/status="notrun"/status="run"/; /<skipped/d' "$dir/skip.xml" >"$dir/pass.xml"
$skips "$dir/pass.xml" >"$dir/out" 2>&1 || fail "ctest_skips.py on a report where every test ran: exit $?: $(cat "$dir/out")"
[ ! -s "$dir/out" ] || fail "ctest_skips.py printed something for a report without skips: $(cat "$dir/out")"

sed 's/SKIP_RETURN_CODE=77/Unable to find executable/' "$dir/skip.xml" >"$dir/notrun.xml"
$skips "$dir/notrun.xml" >"$dir/out" 2>&1
[ $? -eq 1 ] && grep -q '^  cli_disk_full: not run (Unable to find executable)$' "$dir/out" \
  || fail "a test that was not run is not reported: $(cat "$dir/out")"

printf '<?xml version="1.0"?>\n<testsuite name="t" tests="0"></testsuite>\n' >"$dir/empty.xml"
$skips "$dir/empty.xml" >/dev/null 2>&1
[ $? -eq 2 ] || fail "ctest_skips.py on a report without tests: not exit 2"
printf '<testsuite name="t"><testcase' >"$dir/broken.xml"
$skips "$dir/broken.xml" >/dev/null 2>&1
[ $? -eq 2 ] || fail "ctest_skips.py on a truncated report: not exit 2"
$skips "$dir/none.xml" >/dev/null 2>&1
[ $? -eq 2 ] || fail "ctest_skips.py on a missing report: not exit 2"

# --- the wrapper, under this machine's ctest
mkdir "$dir/p"
cat >"$dir/p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
project(strict_probe NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "echo fine")
add_test(NAME lacks_widget COMMAND sh -c "echo 'SKIP: widget not installed (apt-get install widget)'; exit 77")
set_tests_properties(lacks_widget PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME fails COMMAND sh -c "echo broken; exit 3")
CM
cmake -S "$dir/p" -B "$dir/b" >"$dir/cmake.log" 2>&1 || fail "cmake of the probe project: $(tail -n 5 "$dir/cmake.log")"

ctest --test-dir "$dir/b" -R 'passes|lacks_widget' >"$dir/out" 2>&1 \
  || fail "plain ctest fails with a skipped test (the guard would not be needed): $(cat "$dir/out")"
grep -q 'Skipped' "$dir/out" || fail "plain ctest did not report the skip: $(cat "$dir/out")"
"$strict" --test-dir "$dir/b" -R 'passes|lacks_widget' >"$dir/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "ctest-strict.sh with a skipped test: exit $rc, expected 1: $(cat "$dir/out")"
grep -q '^  lacks_widget: skipped (SKIP_RETURN_CODE=77)$' "$dir/out" || fail "ctest-strict.sh did not name the skipped test: $(cat "$dir/out")"
grep -qF '| SKIP: widget not installed (apt-get install widget)' "$dir/out" || fail "ctest-strict.sh did not say why it skipped: $(cat "$dir/out")"

"$strict" --test-dir "$dir/b" -R '^passes$' >"$dir/out" 2>&1 || fail "ctest-strict.sh with every test passing: exit $?: $(cat "$dir/out")"
"$strict" --test-dir "$dir/b" -R '^fails$' >"$dir/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 1 ] || fail "ctest-strict.sh with a failing test: exit $rc, expected ctest's own status: $(cat "$dir/out")"
"$strict" --test-dir "$dir/b" -R 'no_such_test' >"$dir/out" 2>&1
[ $? -ne 0 ] || fail "ctest-strict.sh with no test matching passed: $(cat "$dir/out")"
echo "ctest strict: ok"
