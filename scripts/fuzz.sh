#!/bin/bash
# Builds cuvk's libFuzzer targets (tests/fuzz) with clang, ASan and UBSan
# in their own build folder, and fuzzes; see docs/testing.md, "Fuzzing".
#
#   scripts/fuzz.sh                      both targets briefly, as CI does:
#                                        fuzz_api 60 s, fuzz_preinit 10 s
#   scripts/fuzz.sh api 1800             one target for 30 minutes
#   scripts/fuzz.sh api 3600 -jobs=1     ... with libFuzzer arguments
#   scripts/fuzz.sh --replay api FILE... run inputs only (reproduce)
#   scripts/fuzz.sh --build              build only
#
# Exits nonzero on any crash, sanitizer report, leak or hang, with the
# failing input written to CUVK_FUZZ_ARTIFACTS (default fuzz-artifacts/
# in the source tree).  New inputs found go to a scratch folder (kept in
# CUVK_FUZZ_KEEP when set); the committed corpus is never written.
# Settings: CUVK_FUZZ_BUILD_DIR (default build-fuzz), CUVK_JOBS, CC (a
# clang; default clang).
set -euo pipefail

# shellcheck source=scripts/common.sh
CUVK_BUILD_DIR=${CUVK_FUZZ_BUILD_DIR:-build-fuzz} source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

export CC=${CC:-clang}
if [[ ! -f $CUVK_BUILD/meson-private/coredata.dat ]]; then
   command -v "$CC" >/dev/null 2>&1 || cuvk_die "$CC not found: fuzzing needs clang (apt-get install clang)"
   rm -rf "$CUVK_BUILD/meson-private"
   # b_lundef=false: clang links the sanitizer runtimes into executables
   # only, so libcuvk.so has undefined sanitizer symbols until then.
   meson setup "$CUVK_BUILD" "$CUVK_SOURCE_DIR" -Dfuzz=enabled \
      -Db_sanitize=address,undefined -Db_lundef=false ${CUVK_MESON_OPTIONS:-}
fi
ninja -C "$CUVK_BUILD" -j "$CUVK_JOBS" tests/fuzz/fuzz_api tests/fuzz/fuzz_preinit
cuvk_test_env

run=$CUVK_SOURCE_DIR/tests/fuzz/run_fuzz.sh
corpus=$CUVK_SOURCE_DIR/tests/fuzz/corpus
export CUVK_FUZZ_LAYER_PATH=$CUVK_BUILD/src/layer
export CUVK_FUZZ_ARTIFACTS=${CUVK_FUZZ_ARTIFACTS:-$CUVK_SOURCE_DIR/fuzz-artifacts}

case "${1:-}" in
--build)
   exit 0
   ;;
--replay)
   [[ $# -ge 3 ]] || cuvk_die "usage: $0 --replay api|preinit [libFuzzer arguments] FILE..."
   target=$2
   shift 2
   exec "$run" --replay "$CUVK_BUILD/tests/fuzz/fuzz_$target" "$@"
   ;;
'')
   "$run" "$CUVK_BUILD/tests/fuzz/fuzz_api" "$corpus/api" 60
   "$run" "$CUVK_BUILD/tests/fuzz/fuzz_preinit" "$corpus/preinit" 10
   ;;
*)
   target=$1
   seconds=${2:-60}
   shift
   [[ $# -gt 0 ]] && shift
   [[ -x $CUVK_BUILD/tests/fuzz/fuzz_$target ]] || cuvk_die "no fuzz target '$target' (api, preinit)"
   "$run" "$CUVK_BUILD/tests/fuzz/fuzz_$target" "$corpus/$target" "$seconds" "$@"
   ;;
esac
