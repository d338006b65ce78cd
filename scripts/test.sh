#!/bin/bash
# Builds cuvk if needed, runs every test and prints, last,
#
#   N passed, N failed, N skipped
#
# counted from meson's own log of this run.  Exits nonzero when anything
# failed (or nothing could run).  Arguments go to `meson test`, so
#
#   scripts/test.sh --suite unit
#   scripts/test.sh layer.record.dedicated_image
#   scripts/test.sh --list
#
# run one suite or one test, or list the tests.  Settings: CUVK_BUILD_DIR,
# CUVK_JOBS (see scripts/common.sh) and CUVK_TIMEOUT_MULTIPLIER (default 5:
# the tests run on a CPU driver under the validation layer, on machines of
# two cores).
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if ! cuvk_build; then
   echo
   echo "the build failed, so no test ran"
   echo "0 passed, 0 failed"
   exit 1
fi
cuvk_test_env

# Listing runs nothing, so there is nothing to count.
for arg in "$@"; do
   [[ $arg == --list ]] && exec meson test -C "$CUVK_BUILD" "$@"
done

logs=$CUVK_BUILD/meson-logs
# A log left by an earlier run must never be counted as this one's.  The
# name is testlog.json, or testlog-<name>.json with --setup or --wrapper.
rm -f "$logs"/testlog*.json

rc=0
meson test -C "$CUVK_BUILD" --print-errorlogs --num-processes "$CUVK_JOBS" \
   --timeout-multiplier "${CUVK_TIMEOUT_MULTIPLIER:-5}" "$@" || rc=$?

# testlog.json holds one JSON object per test.  OK and EXPECTEDFAIL pass,
# SKIP is counted apart, everything else (FAIL, TIMEOUT, ERROR,
# UNEXPECTEDPASS, and any result meson adds later) fails.
summary=$(python3 - "$logs" "$rc" <<'EOF'
import glob, json, os, sys

logs, rc = sys.argv[1], int(sys.argv[2])
passed = failed = skipped = 0
failures = []
for path in sorted(glob.glob(os.path.join(logs, "testlog*.json"))):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            result = t.get("result")
            if result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skipped += 1
            else:
                failed += 1
                failures.append("%s (%s)" % (t.get("name"), result))

for f in failures:
    print("failed: " + f)
if passed + failed + skipped == 0:
    print("meson test ran no tests (exit status %d)" % rc)
elif rc and not failed:
    print("meson test exited with status %d" % rc)
line = "%d passed, %d failed" % (passed, failed)
if skipped:
    line += ", %d skipped" % skipped
print(line)
# Nonzero when a test failed, when meson itself failed (a build error
# under `meson test` leaves no failed test to count), or when nothing ran.
sys.exit(1 if failed or rc or passed + skipped == 0 else 0)
EOF
) && status=0 || status=$?

echo
echo "$summary"
exit "$status"
