#!/usr/bin/env bash
# Builds the error-code probes (tests/common/codes_harness.h) with cc and
# runs them on the CUDA libraries of the machine it runs on: one command
# for a GPU machine with NVIDIA's driver and toolkit, which needs neither
# meson nor Vulkan.
#
#    bash scripts/run_codes_probes.sh OUTDIR [PROBE...]
#
# PROBE is mempool (tests/api/mempool_codes_probe.c), texture
# (tests/texture/codes_probe.c) or graph (tests/graph/graph_codes_probe.c);
# all three when none is named.  Each probe's output goes to
# OUTDIR/<probe>_codes_cuda.txt, headed by a line saying when and where it
# ran (what the libraries wrote to stderr to
# OUTDIR/<probe>_codes_cuda.stderr), and its exit status to the terminal
# (0: every control gave 0; 1: a control did not; 2: it could not run).  The files
# are what tests/api/mempool_codes_cuda_h100.txt,
# tests/texture/codes_cuda_h100.txt and tests/graph/graph_codes_cuda_h100.txt
# keep.
#
# Settings: CUDA_INCLUDE (NVIDIA's headers, default /usr/local/cuda/include),
# CUDA_LIBS (the folders holding libcuda.so.1 and libcudart.so.13, put
# first on LD_LIBRARY_PATH; default /usr/local/cuda/lib64 and
# /usr/local/nvidia/lib64), CC (default cc).
set -u

if [ $# -lt 1 ]; then
   echo "usage: $0 OUTDIR [mempool|texture|graph...]" >&2
   exit 2
fi
out=$1
shift
probes=("$@")
[ ${#probes[@]} -eq 0 ] && probes=(mempool texture graph)

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
include=${CUDA_INCLUDE:-/usr/local/cuda/include}
libs=${CUDA_LIBS:-/usr/local/cuda/lib64:/usr/local/nvidia/lib64}
cc=${CC:-cc}
mkdir -p "$out" || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

status=0
for probe in "${probes[@]}"; do
   case $probe in
   mempool) src=tests/api/mempool_codes_probe.c ;;
   texture) src=tests/texture/codes_probe.c ;;
   graph) src=tests/graph/graph_codes_probe.c ;;
   *) echo "$0: no probe named $probe (mempool, texture, graph)" >&2; exit 2 ;;
   esac
   bin=$work/${probe}_codes_probe
   if ! "$cc" -std=gnu11 -O2 -isystem "$include" -I"$source_dir/tests/common" \
         "$source_dir/$src" "$source_dir/tests/common/codes_harness.c" -ldl -lm -pthread -o "$bin"; then
      echo "$probe: the probe did not build" >&2
      status=2
      continue
   fi
   file=$out/${probe}_codes_cuda.txt
   {
      echo "# ${probe} codes probe ($src), $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n)," \
           "commit $(git -C "$source_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)"
      LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 600 "$bin"
      echo "# exit status $?"
   } > "$file" 2> "$out/${probe}_codes_cuda.stderr"
   code=$(tail -n 1 "$file" | sed 's/# exit status //')
   echo "$probe: exit status $code, $(grep -vc '^#' "$file") cases, output in $file" \
        "(stderr in $out/${probe}_codes_cuda.stderr)"
   [ "$code" -gt "$status" ] && status=$code
done
exit "$status"
