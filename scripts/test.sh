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
# two cores; 10 under a sanitizer).
#
# Sanitizer modes (docs/testing.md), named first:
#
#   scripts/test.sh --sanitize [ARGS]           address, then thread
#   scripts/test.sh --sanitize=address [ARGS]
#       in build-asan/, -Db_sanitize=address,undefined: ARGS (default:
#       every test) under ASan and UBSan, LeakSanitizer on, with
#       tests/sanitizers/lsan.supp
#   scripts/test.sh --sanitize=thread [ARGS]
#       in build-tsan/, -Db_sanitize=thread: ARGS (default: --suite
#       stress) under TSan, with tests/sanitizers/tsan.supp
#   scripts/test.sh --modes=plain,address,thread [ARGS]
#       any of the three in turn (.ci/run runs all three)
#
# With more than one mode a line per mode comes first and the last line
# sums them all.  CUVK_ASAN_BUILD_DIR and CUVK_TSAN_BUILD_DIR move the
# sanitizer build folders.
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

modes=(plain)
case ${1:-} in
--sanitize) modes=(address thread); shift ;;
--sanitize=*|--modes=*)
   IFS=, read -r -a modes <<<"${1#*=}"
   for m in "${modes[@]}"; do
      case $m in
      plain|address|thread) ;;
      *) cuvk_die "unknown mode '$m' in $1 (plain, address, thread)" ;;
      esac
   done
   shift
   ;;
esac

# Listing runs nothing, so there is nothing to count.
for arg in "$@"; do
   if [[ $arg == --list ]]; then
      cuvk_build
      exec meson test -C "$CUVK_BUILD" "$@"
   fi
done

cuvk_test_env
supp_dir=$CUVK_SOURCE_DIR/tests/sanitizers
plain_build=$CUVK_BUILD
plain_options=${CUVK_MESON_OPTIONS:-}
summary_args=()

# One mode: configures and builds its folder, runs meson test there with
# the mode's environment, and records its log folder and exit status for
# the count below (no status: the build failed).
run_mode() {
   local mode=$1
   shift
   local multiplier=${CUVK_TIMEOUT_MULTIPLIER:-10}
   local env=()
   local args=("$@")
   local build=(cuvk_build)

   case $mode in
   plain)
      CUVK_BUILD=$plain_build
      CUVK_MESON_OPTIONS=$plain_options
      multiplier=${CUVK_TIMEOUT_MULTIPLIER:-5}
      ;;
   address)
      CUVK_BUILD=$(cuvk_build_path "${CUVK_ASAN_BUILD_DIR:-build-asan}")
      # b_lundef=false: a sanitized shared library leaves the runtime's
      # symbols to the executable, which brings the runtime in.
      CUVK_MESON_OPTIONS="-Db_sanitize=address,undefined -Db_lundef=false $plain_options"
      # Leaks are checked at each test's exit.  UBSan stops at its first
      # report, with a stack, so that the test fails.  Not
      # fast_unwind_on_malloc=0: with lavapipe's threads, the slow
      # unwinder's lock deadlocks against the one the dynamic loader holds.
      # The Vulkan loader dlcloses the driver at vkDestroyInstance; what
      # the driver's globals pointed to then looks leaked, from a module
      # LeakSanitizer can no longer name.  Preloading lavapipe keeps it
      # mapped for the life of the process, as it is in any program that
      # holds an instance to the end (verify_asan_link_order=0 lets the
      # preload come before the sanitizer runtime).
      local preload
      preload=$(cuvk_lavapipe_library)
      # Programs nvcc built are not linked with the sanitizer runtime;
      # their wrappers (run_quiet.py, startup.py) preload it into them, or
      # cuvk's malloc and free would bind to glibc's (no heap checks, no
      # leak check).  Not into every test: Python would report its leaks.
      local asan_runtime
      asan_runtime=$(${CC:-cc} -print-file-name=libasan.so 2>/dev/null || true)
      [[ $asan_runtime == /* && -e $asan_runtime ]] || asan_runtime=
      env=(
         ${preload:+"LD_PRELOAD=$preload${LD_PRELOAD:+:$LD_PRELOAD}"}
         "ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
         "LSAN_OPTIONS=suppressions=$supp_dir/lsan.supp:print_suppressions=1${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
         "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
         ${asan_runtime:+"CUVK_TEST_CHILD_PRELOAD=$asan_runtime"}
      )
      ;;
   thread)
      CUVK_BUILD=$(cuvk_build_path "${CUVK_TSAN_BUILD_DIR:-build-tsan}")
      CUVK_MESON_OPTIONS="-Db_sanitize=thread -Db_lundef=false $plain_options"
      env=(
         "TSAN_OPTIONS=suppressions=$supp_dir/tsan.supp:print_suppressions=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
      )
      # Every test under TSan would take hours on lavapipe; the stress
      # suite is where threads meet, and only what it needs is built.
      if [[ ${#args[@]} -eq 0 ]]; then
         args=(--no-rebuild --suite stress)
         build=(cuvk_build_suites stress)
      fi
      ;;
   esac
   # In a sanitizer's folder, building everything costs much and helps
   # nothing when only whole suites are asked for (`--suite streams`):
   # build what their tests need.
   if [[ $mode != plain && ${build[0]} == cuvk_build && ${#args[@]} -gt 0 ]]; then
      local suites=() i
      for ((i = 0; i < ${#args[@]}; i += 2)); do
         [[ ${args[i]} == --suite && -n ${args[i + 1]:-} ]] || { suites=(); break; }
         suites+=("${args[i + 1]}")
      done
      if [[ ${#suites[@]} -gt 0 ]]; then
         build=(cuvk_build_suites "${suites[@]}")
         args=(--no-rebuild "${args[@]}")
      fi
   fi

   echo "==> $mode: $CUVK_BUILD"
   local logs=$CUVK_BUILD/meson-logs
   # A log left by an earlier run must never be counted as this one's.  The
   # name is testlog.json, or testlog-<name>.json with --setup or --wrapper.
   rm -f "$logs"/testlog*.json
   summary_args+=("$mode" "$logs")

   if ! "${build[@]}"; then
      echo "$mode: the build failed, so no test ran"
      summary_args+=(build-failed)
      return 0
   fi
   local rc=0
   env "${env[@]}" meson test -C "$CUVK_BUILD" --print-errorlogs --num-processes "$CUVK_JOBS" \
      --timeout-multiplier "$multiplier" "${args[@]}" || rc=$?
   summary_args+=("$rc")
}

for mode in "${modes[@]}"; do
   t0=$SECONDS
   run_mode "$mode" "$@"
   echo "==> $mode: $((SECONDS - t0)) s"
done

# testlog.json holds one JSON object per test.  OK and EXPECTEDFAIL pass,
# SKIP is counted apart, everything else (FAIL, TIMEOUT, ERROR,
# UNEXPECTEDPASS, and any result meson adds later) fails.  The arguments
# come in threes: mode, log folder, meson's exit status or build-failed.
summary=$(python3 - "${summary_args[@]}" <<'EOF'
import glob, json, os, sys

args = sys.argv[1:]
modes = [tuple(args[i:i + 3]) for i in range(0, len(args), 3)]
several = len(modes) > 1

def counts(p, f, s):
    text = "%d passed, %d failed" % (p, f)
    if s:
        text += ", %d skipped" % s
    return text

total = [0, 0, 0]
bad = False
lines = []
for mode, logs, status in modes:
    prefix = mode + ": " if several else ""
    passed = failed = skipped = 0
    if status == "build-failed":
        # Nothing of this mode ran: one failure, so the sum cannot pass.
        lines.append(prefix + "the build failed, so no test ran")
        failed = 1
    else:
        rc = int(status)
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
                        print("failed: %s%s (%s)" % (prefix, t.get("name"), result))
        if passed + failed + skipped == 0:
            lines.append("%smeson test ran no tests (exit status %d)" % (prefix, rc))
            bad = True
        elif rc and not failed:
            lines.append("%smeson test exited with status %d" % (prefix, rc))
            bad = True
    if several:
        lines.append(prefix + counts(passed, failed, skipped))
    total[0] += passed
    total[1] += failed
    total[2] += skipped

for line in lines:
    print(line)
print(counts(*total))
# Nonzero when a test failed, when meson itself failed (a build error
# under `meson test` leaves no failed test to count), or when a mode ran
# nothing.
sys.exit(1 if bad or total[1] or total[0] + total[2] == 0 else 0)
EOF
) && status=0 || status=$?

echo
echo "$summary"
exit "$status"
