# shellcheck shell=bash
# Shared by scripts/setup.sh and scripts/test.sh; sourced, not run.
#
# Settings, all optional:
#   CUVK_BUILD_DIR       build folder, relative to the source tree or
#                        absolute (default: build)
#   CUVK_JOBS            parallel compile and test jobs (default: nproc)
#   CUVK_MESON_OPTIONS   extra arguments for `meson setup`, word-split
#
# The scripts work from any working directory and on a build folder that
# already exists.

CUVK_SOURCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# A build folder given relative to the source tree, made absolute.
cuvk_build_path() {
   case $1 in
   /*) printf '%s\n' "$1" ;;
   *)  printf '%s\n' "$CUVK_SOURCE_DIR/$1" ;;
   esac
}

CUVK_BUILD=$(cuvk_build_path "${CUVK_BUILD_DIR:-build}")

CUVK_JOBS=${CUVK_JOBS:-$(nproc 2>/dev/null || echo 2)}

# What the build and the tests need on Debian 12.  g++ is optional for the
# build (the ABI tests add a C++ comparison when it is there) but listed so
# that every test runs the same way everywhere.  spirv-headers gives the
# PTX compiler Khronos's spirv.h; spirv-tools gives the tests spirv-val.
# libzstd-dev decompresses the PTX nvcc 13 puts in fatbins.
# clang is for the fuzz targets only (scripts/fuzz.sh: libFuzzer is
# clang's).
CUVK_DEBIAN_PACKAGES=(
   meson ninja-build gcc g++ libc6-dev pkg-config
   libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers
   python3 binutils spirv-headers spirv-tools clang libclang-rt-dev libzstd-dev
)

cuvk_note() {
   printf 'cuvk: %s\n' "$*" >&2
}

cuvk_die() {
   printf 'cuvk: error: %s\n' "$*" >&2
   exit 1
}

# The Debian packages of the list that are not installed; empty when all
# are, or when this is not a dpkg system (then the build says what is
# missing).
cuvk_missing_packages() {
   command -v dpkg-query >/dev/null 2>&1 || return 0
   local p status
   for p in "${CUVK_DEBIAN_PACKAGES[@]}"; do
      status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
      [[ $status == *"install ok installed"* ]] || printf '%s\n' "$p"
   done
}

# Installs the missing packages with apt-get, as root or through
# passwordless sudo; otherwise says what to install and fails.
cuvk_install_packages() {
   local missing
   missing=$(cuvk_missing_packages)
   if [[ -z $missing ]]; then
      return 0
   fi
   # shellcheck disable=SC2086
   set -- $missing
   local sudo=()
   if [[ $(id -u) -ne 0 ]]; then
      if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
         sudo=(sudo -n)
      else
         cuvk_die "missing packages: $*; run this script as root, or: apt-get install -y $*"
      fi
   fi
   command -v apt-get >/dev/null 2>&1 ||
      cuvk_die "missing packages: $* (and no apt-get to install them)"

   cuvk_note "installing $*"
   # No stdin and no questions: CI runs this without a terminal.
   "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
   "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" </dev/null
}

# Configures the build folder unless it already is (then ninja regenerates
# it when a meson.build changed), and builds.
cuvk_build() {
   local tool
   for tool in meson ninja; do
      command -v "$tool" >/dev/null 2>&1 ||
         cuvk_die "$tool not found; run scripts/setup.sh (as root) first"
   done

   if [[ ! -f $CUVK_BUILD/meson-private/coredata.dat ]]; then
      # A folder left half-configured by an interrupted setup: meson
      # refuses it (even with --wipe) until its private state is gone.
      rm -rf "$CUVK_BUILD/meson-private"
      # shellcheck disable=SC2086
      meson setup "$CUVK_BUILD" "$CUVK_SOURCE_DIR" ${CUVK_MESON_OPTIONS:-}
   fi
   ninja -C "$CUVK_BUILD" -j "$CUVK_JOBS"
}

# Like cuvk_build, but builds only what the tests of the given suites
# need (their executables and the targets they depend on), for a build
# folder where building everything would cost much and help nothing (the
# TSan build, which runs the stress suite alone).  Run the tests with
# `meson test --no-rebuild`.
cuvk_build_suites() {
   if [[ ! -f $CUVK_BUILD/meson-private/coredata.dat ]]; then
      rm -rf "$CUVK_BUILD/meson-private"
      # shellcheck disable=SC2086
      meson setup "$CUVK_BUILD" "$CUVK_SOURCE_DIR" ${CUVK_MESON_OPTIONS:-} || return 1
   fi
   # Regenerates build.ninja first when a meson.build changed.
   ninja -C "$CUVK_BUILD" build.ninja >/dev/null || return 1
   local targets
   targets=$(python3 - "$CUVK_BUILD" "$@" <<'PY'
import json, os, subprocess, sys

build, suites = sys.argv[1], set(sys.argv[2:])
def introspect(what):
    return json.loads(subprocess.check_output(["meson", "introspect", what, build]))
ids = set()
for t in introspect("--tests"):
    if any(s.split(":", 1)[-1] in suites for s in t["suite"]):
        ids.update(t.get("depends", []))
for t in introspect("--targets"):
    if t["id"] in ids:
        for f in t["filename"]:
            print(os.path.relpath(f, build))
PY
   ) || return 1
   [[ -n $targets ]] || { cuvk_note "no tests in suites: $*"; return 1; }
   # shellcheck disable=SC2086
   ninja -C "$CUVK_BUILD" -j "$CUVK_JOBS" $targets
}

# The path of lavapipe's library, from its ICD manifest; empty when
# lavapipe is not installed.
cuvk_lavapipe_library() {
   local m
   for m in /usr/share/vulkan/icd.d/lvp_icd*.json; do
      [[ -f $m ]] || continue
      python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$m" \
         2>/dev/null && return 0
   done
   return 0
}

# Vulkan programs want a runtime folder; tests must not depend on a
# display, so nothing here reads DISPLAY.
cuvk_test_env() {
   if [[ -z ${XDG_RUNTIME_DIR:-} || ! -d ${XDG_RUNTIME_DIR:-} ]]; then
      CUVK_TMP_RUNTIME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/cuvk-runtime.XXXXXX")
      chmod 700 "$CUVK_TMP_RUNTIME_DIR"
      export XDG_RUNTIME_DIR=$CUVK_TMP_RUNTIME_DIR
      trap 'rm -rf "$CUVK_TMP_RUNTIME_DIR"' EXIT
   fi
   # Translated kernels go to a cache of the build's own, not the user's
   # ~/.cache/cuvk; a second run of the suite reads what the first wrote.
   if [[ -z ${CUVK_CACHE_DIR:-} ]]; then
      export CUVK_CACHE_DIR=$CUVK_BUILD/test-cache
   fi
}

# The suites the build defines, one per line, without the project prefix.
cuvk_suites() {
   meson introspect --tests "$CUVK_BUILD" 2>/dev/null | python3 -c '
import json, sys
suites = set()
for t in json.load(sys.stdin):
    for s in t["suite"]:
        suites.add(s.split(":", 1)[-1])
print("\n".join(sorted(suites)))
'
}
