#!/bin/sh
# Runs one libFuzzer target with the settings every fuzz run here uses.
#
#   run_fuzz.sh TARGET CORPUS SECONDS [libFuzzer arguments...]
#       fuzz for SECONDS from CORPUS; fails (nonzero) on any crash,
#       sanitizer report, leak or hang.  CORPUS is read, never written:
#       new inputs go to a scratch folder, removed at the end unless
#       CUVK_FUZZ_KEEP names a folder to keep them in.  A failing input is
#       written to CUVK_FUZZ_ARTIFACTS (default: the current folder) as
#       crash-*, leak-*, timeout-* or oom-*.
#   run_fuzz.sh --replay TARGET [libFuzzer arguments...] FILE...
#       runs the target on the given inputs only, with the same
#       environment (to reproduce a failure, or, with -minimize_crash=1
#       -runs=N, to minimise one).
set -eu

replay=0
if [ "$1" = --replay ]; then
   replay=1
   shift
fi
target=$1
shift

here=$(cd "$(dirname "$0")" && pwd)

# The cuvk layer records exports of the harness's own Vulkan device, as
# in the interop suite's layer_on runs.
if [ -n "${CUVK_FUZZ_LAYER_PATH:-}" ]; then
   export VK_ADD_LAYER_PATH="$CUVK_FUZZ_LAYER_PATH"
   export VK_INSTANCE_LAYERS="${VK_INSTANCE_LAYERS:-VK_LAYER_CUVK_interop}"
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
# UBSan stops at its first report (a report is a failure); malloc may
# return NULL, so a huge allocation inside the driver is an error cuvk
# must handle rather than a crash of the fuzzer; leaks that are not
# cuvk's are suppressed by lsan.supp, each with its reason.
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1:handle_abort=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}"
export CUVK_LOG="${CUVK_LOG:-error}"

if [ "$replay" = 1 ]; then
   exec "$target" -rss_limit_mb=6144 -malloc_limit_mb=4096 "$@"
fi

corpus=$1
seconds=$2
shift 2

scratch=${CUVK_FUZZ_KEEP:-}
if [ -z "$scratch" ]; then
   scratch=$(mktemp -d "${TMPDIR:-/tmp}/cuvk-fuzz.XXXXXX")
   trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch"
artifacts=${CUVK_FUZZ_ARTIFACTS:-$PWD}
mkdir -p "$artifacts"

# cuvk logs a line for every call it refuses, and refusing calls is most
# of what happens here; CUVK_FUZZ_QUIET=1 closes the target's stderr
# (libFuzzer keeps its own output and the sanitizers' reports).
if [ "${CUVK_FUZZ_QUIET:-0}" = 1 ]; then
   set -- -close_fd_mask=2 "$@"
fi

# Not exec: the trap removes the scratch folder afterwards.
"$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=6144 -malloc_limit_mb=4096 \
   -max_len=1024 -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$scratch" "$corpus"
