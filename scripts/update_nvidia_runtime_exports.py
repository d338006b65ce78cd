#!/usr/bin/env python3
"""Regenerates src/runtime/nvidia_exports.txt from an installed CUDA.

    update_nvidia_runtime_exports.py [--cuda /usr/local/cuda] [--out FILE]

The file lists every function NVIDIA's lib64/libcudart.so.<major> exports
(a fact of NVIDIA's ABI), one a line, and the symbol version they are
defined in.  cuvk's drop-in libcudart.so.13 exports every one of them
(src/runtime/gen_exports.py makes entry points for those cuvk lacks) in
that version, so that a binary linked against NVIDIA's runtime binds to
cuvk's.  Fails when the library exports something other than functions
in one version, so a release that changes that is noticed.
"""

import argparse
import glob
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "src", "runtime", "nvidia_exports.txt")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()

    libs = sorted(glob.glob(os.path.join(args.cuda, "lib64", "libcudart.so.[0-9]*")),
                  key=len)
    if not libs:
        print(f"no libcudart.so.<major> in {args.cuda}/lib64")
        return 1
    lib = os.path.realpath(libs[0])
    soname = os.path.basename(libs[0])
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         stdout=subprocess.PIPE, text=True).stdout

    names, versions, odd = [], set(), []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, sym = parts[-2], parts[-1]
        name, _, version = sym.partition("@@")
        if kind == "A" and not version:
            versions.add(name)          # the version definition itself
        elif kind in ("T", "W") and version:
            names.append(name)
            versions.add(version)
        else:
            odd.append(sym)
    if odd or len(versions) != 1:
        print(f"{lib}: expected functions in one version; odd symbols {odd}, versions {sorted(versions)}")
        return 1
    version = versions.pop()

    with open(args.out, "w") as f:
        f.write(f"# Every function NVIDIA's {soname} exports (CUDA 13.0: {len(names)}, plus\n"
                f"# the version definition itself), all in symbol version {version};\n"
                "# written by scripts/update_nvidia_runtime_exports.py; facts of\n"
                "# NVIDIA's ABI.  One name a line.\n"
                f"@version {version}\n")
        for name in sorted(names):
            f.write(name + "\n")
    print(f"wrote {len(names)} names to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
