#!/usr/bin/env python3
"""Regenerates src/cuda_api/nvidia_exports.txt from an installed CUDA.

    update_nvidia_exports.py [--cuda /usr/local/cuda] [--driver-nm FILE]

The file lists every symbol NVIDIA's libcuda.so.1 exports, with the name
cuGetProcAddress knows it under and the CUDA version from which that
symbol is the one cuGetProcAddress returns.  Sources, all facts of
NVIDIA's ABI:

  * the names: the CUDA toolkit's link stub, lib64/stubs/libcuda.so;
  * name and version: the PFN_<name>_v<version>[_ptds|_ptsz] typedefs of
    include/cuda*Typedefs.h.  A call's versions, oldest first, belong to
    its plain symbol, then _v2, _v3, ...; a per-thread typedef belongs to
    the newest of those symbols that is not newer than it, plus its
    suffix;
  * --driver-nm: `nm -D --defined-only` of a real driver's libcuda.so.1.
    The stub leaves out the graphics interop calls of cudaGL.h, cudaEGL.h
    and cudaVDPAU.h that the driver exports (and that loaders such as
    FFmpeg's require); those the typedefs name are added with origin
    "driver".  The driver's debugger interface (cudbg*) and calls no
    header declares are left out.

Fails when a symbol cannot be matched to a typedef, so a new CUDA release
whose rules differ is noticed rather than mis-tabled.
"""

import argparse
import collections
import os
import re
import subprocess
import sys

TYPEDEF_HEADERS = ("cudaTypedefs.h", "cudaGLTypedefs.h", "cudaEGLTypedefs.h",
                   "cudaVDPAUTypedefs.h", "cudaProfilerTypedefs.h")
PFN = re.compile(r"\bPFN_(cu\w+?)_v(\d+)(_ptds|_ptsz)?\)")
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "src", "cuda_api", "nvidia_exports.txt")


def nm_functions(text):
    names = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            names[parts[-1].split("@")[0]] = parts[-2]
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--driver-nm", help="nm -D --defined-only output of a real libcuda.so.1")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()

    stub_path = os.path.join(args.cuda, "lib64", "stubs", "libcuda.so")
    stub = nm_functions(subprocess.run(["nm", "-D", "--defined-only", stub_path], check=True,
                                       stdout=subprocess.PIPE, text=True).stdout)
    odd = sorted(n for n, t in stub.items() if t not in ("T", "W"))
    if odd:
        print(f"{stub_path} exports non-function symbols, which this table cannot express: {odd}")
        return 1

    versions = collections.defaultdict(set)
    for h in TYPEDEF_HEADERS:
        with open(os.path.join(args.cuda, "include", h)) as f:
            for m in PFN.finditer(f.read()):
                versions[m.group(1)].add((int(m.group(2)), m.group(3) or ""))

    driver = {}
    if args.driver_nm:
        with open(args.driver_nm) as f:
            driver = nm_functions(f.read())

    # symbol -> (name, version, per-thread suffix)
    table = {}
    for name, vs in versions.items():
        plain = sorted(v for v, pt in vs if not pt)
        symbols = [(v, name if i == 0 else f"{name}_v{i + 1}") for i, v in enumerate(plain)]
        for v, sym in symbols:
            table[sym] = (name, v, "")
        for v, pt in vs:
            if pt:
                older = [s for sv, s in symbols if sv <= v]
                table[(older[-1] if older else name) + pt] = (name, v, pt[1:])

    rows, missing = [], []
    for sym in sorted(stub):
        if sym not in table:
            missing.append(sym)
            continue
        rows.append((sym,) + table[sym] + ("stub",))
    for sym in sorted(driver):
        if sym in stub or sym not in table or driver[sym] not in ("T", "W"):
            continue
        rows.append((sym,) + table[sym] + ("driver",))
    if missing:
        print(f"no PFN_ typedef matches these exports: {missing}")
        return 1

    with open(args.out, "w") as f:
        f.write("# Every symbol NVIDIA's libcuda.so.1 exports (CUDA 13.0), written by\n"
                "# scripts/update_nvidia_exports.py; facts of NVIDIA's ABI.  All are\n"
                "# functions returning CUresult.  Columns: the exported symbol; the name\n"
                "# cuGetProcAddress is asked for; the CUDA version (as CUDA_VERSION) from\n"
                "# which it returns this symbol; the per-thread default stream form\n"
                "# (ptds/ptsz, or -); origin: \"stub\" = in the toolkit's link stub\n"
                "# lib64/stubs/libcuda.so, \"driver\" = only in the driver's library\n"
                "# (580.159.04), the graphics interop calls of cudaGL.h, cudaEGL.h and\n"
                "# cudaVDPAU.h.\n")
        for sym, name, v, pt, origin in rows:
            f.write(f"{sym:<48} {name:<44} {v:>5} {pt or '-':<4} {origin}\n")
    print(f"wrote {len(rows)} symbols to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
