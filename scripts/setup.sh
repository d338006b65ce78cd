#!/bin/bash
# Sets cuvk up and runs its main job on the default Vulkan driver
# (lavapipe when the machine has no GPU):
#
#   1. installs the Debian packages the build and tests need, when some are
#      missing (as root, or through passwordless sudo);
#   2. configures and builds into build/ (CUVK_BUILD_DIR to change);
#   3. runs cuvk-info, which lists the devices cuvk sees;
#   4. runs the interop and layer test suites.
#
# Safe to run again: it installs nothing that is there and reuses the
# build folder.  Options:
#   --no-tests   stop after cuvk-info
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

run_tests=1
for arg in "$@"; do
   case $arg in
   --no-tests) run_tests=0 ;;
   -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
   *) cuvk_die "unknown option $arg (see --help)" ;;
   esac
done

cuvk_install_packages
cuvk_build
cuvk_test_env

# cuvk-info: wherever tools/meson.build puts it.
info=$(meson introspect --targets "$CUVK_BUILD" | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "cuvk-info" and t["type"] == "executable":
        print(t["filename"][0])
        break
')
if [[ -n $info && -x $info ]]; then
   echo "==> cuvk-info"
   # Let it find the build tree's layer, as an uninstalled user would.
   layer_dir=$CUVK_BUILD/src/layer
   if [[ -f $layer_dir/VkLayer_cuvk_interop.json ]]; then
      VK_ADD_LAYER_PATH=$layer_dir${VK_ADD_LAYER_PATH:+:$VK_ADD_LAYER_PATH} "$info"
   else
      "$info"
   fi
else
   cuvk_note "this tree builds no cuvk-info tool; skipping it"
fi

[[ $run_tests == 1 ]] || exit 0

suites=$(cuvk_suites)
args=()
for s in interop layer; do
   if grep -qx "$s" <<<"$suites"; then
      args+=(--suite "$s")
   else
      cuvk_note "the $s suite has no tests in this tree; skipping it"
   fi
done
[[ ${#args[@]} -gt 0 ]] || exit 0

echo "==> meson test ${args[*]}"
meson test -C "$CUVK_BUILD" --print-errorlogs --num-processes "$CUVK_JOBS" \
   --timeout-multiplier "${CUVK_TIMEOUT_MULTIPLIER:-5}" "${args[@]}"
