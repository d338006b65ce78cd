#!/usr/bin/env python3
"""Checks libcuvk's dynamic symbol table against our headers and NVIDIA's.

The API is every function declared in include/*.h, as the C preprocessor
sees each header in three views: plain, with
CUDA_API_PER_THREAD_DEFAULT_STREAM (adds the _ptds/_ptsz symbols), and with
__CUDA_API_VERSION_INTERNAL (adds the legacy plain names and every _vN
symbol).  Static inline helpers are the program's, not ours, and are left
out.  --extra adds names that are exported on purpose without a prototype
(the Vulkan layer's negotiate entry point).

Fails on
  * an exported symbol outside the API: a private function leaking out, or
    a C runtime symbol (_init, _fini, _edata, ...) that a version script
    should hide;
  * an API function the library does not export: a program linked against
    our header would fail to load;
  * an NVIDIA export the library lacks (a loader that insists on it
    refuses cuvk), or one still listed in --elsewhere that is exported
    (the list must be emptied once the other branch has landed);
  * a difference between --stub and the list, or --cudart and
    --runtime-exports;
  * a runtime name (--runtime-exports) not in NVIDIA's libcudart symbol
    version, or any other name in a version.

Reads the symbol table with binutils' nm, or readelf; exits 77 (skipped)
when neither exists.
"""

import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

VIEWS = {
    "plain": [],
    "per-thread": ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"],
    "internal": ["-D__CUDA_API_VERSION_INTERNAL"],
}

# Symbols the toolchain adds to a shared library.  Exporting them is never
# intended; they are named separately so the report says what they are.
RUNTIME = {"_init", "_fini", "_edata", "_end", "__bss_start", "_DYNAMIC",
           "_GLOBAL_OFFSET_TABLE_", "__dso_handle", "_IO_stdin_used"}

ATTRIBUTE = re.compile(r"__(?:attribute|declspec)__\s*\(")


def drop_attributes(text):
    """Removes __attribute__((...)) groups, which look like calls."""
    out, i = [], 0
    while True:
        m = ATTRIBUTE.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += text[j] == "("
            depth -= text[j] == ")"
            j += 1
        i = j


def declared_functions(cc, include_dir, header, defines):
    """(declared, inline): function names a header declares in one view."""
    cmd = cc + ["-E", "-x", "c", "-I", include_dir] + defines + [header]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"preprocessing {header} failed:\n{' '.join(cmd)}\n{res.stderr}")

    # Keep only lines that came from our include folder.
    ours_dir = os.path.realpath(include_dir)
    keep, chunks = False, []
    for line in res.stdout.splitlines():
        m = re.match(r'#\s*\d+\s+"([^"]*)"', line)
        if m:
            keep = os.path.realpath(m.group(1)).startswith(ours_dir + os.sep)
            continue
        if keep and not line.startswith("#"):
            chunks.append(line)
    text = drop_attributes("\n".join(chunks))

    # Split into top-level declarations; bodies ({...}) are skipped.
    declared, inline = set(), set()
    depth, current = 0, []
    for c in text:
        if c == "{":
            if depth == 0:
                current.append("{")
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            if c == ";":
                _classify("".join(current), declared, inline)
                current = []
            else:
                current.append(c)
    _classify("".join(current), declared, inline)
    return declared, inline


def _classify(decl, declared, inline):
    for part in decl.split("{"):
        part = part.strip()
        if not part or re.match(r"typedef\b", part):
            continue
        m = re.search(r"\b([A-Za-z_]\w*)\s*\((?!\s*\*)", part)
        if not m or m.group(1) in ("struct", "union", "enum"):
            continue
        if re.search(r"\bstatic\b", part[:m.start()]):
            inline.add(m.group(1))
        else:
            declared.add(m.group(1))


def exported_symbols(nm, readelf, lib):
    return set(exported_versions(nm, readelf, lib))


def exported_versions(nm, readelf, lib):
    """{name: symbol version or ""} of a library's defined dynamic symbols;
    version definitions themselves (absolute symbols named after the
    version) are left out."""
    if nm:
        out = subprocess.run([nm, "-D", "--defined-only", lib], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        names = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[-2] != "A":
                name, _, version = parts[-1].partition("@")
                names[name] = version.lstrip("@")
        return names
    out = subprocess.run([readelf, "--dyn-syms", "-W", lib], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    names = {}
    for line in out.splitlines():
        # Num: Value Size Type Bind Vis Ndx Name
        parts = line.split()
        if len(parts) >= 8 and parts[0].rstrip(":").isdigit() and parts[6] not in ("UND", "ABS") \
                and parts[3] != "SECTION" and parts[3] != "FILE" and parts[4] != "LOCAL":
            name, _, version = parts[7].partition("@")
            names[name] = version.lstrip("@")
    return names


def read_names(path, column=0, where=None):
    names = set()
    with open(path) as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if parts and (where is None or where(parts)):
                names.add(parts[column])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", required=True, help="libcuvk.so")
    ap.add_argument("--include-dir", required=True, help="our public include folder")
    ap.add_argument("--cc", required=True, help="C compiler command line (for -E)")
    ap.add_argument("--extra", action="append", default=[],
                    help="a symbol exported on purpose without a prototype")
    ap.add_argument("--nvidia-exports", help="src/cuda_api/nvidia_exports.txt")
    ap.add_argument("--elsewhere", help="names another branch implements (exports_elsewhere.txt)")
    ap.add_argument("--stub", help="NVIDIA's lib64/stubs/libcuda.so, compared with the list")
    ap.add_argument("--runtime-exports",
                    help="src/runtime/nvidia_exports.txt: NVIDIA's libcudart exports and their version")
    ap.add_argument("--cudart", help="NVIDIA's libcudart.so.13, compared with the runtime list")
    ap.add_argument("--nm")
    ap.add_argument("--readelf")
    args = ap.parse_args()

    if not args.nm and not args.readelf:
        print("SKIP: neither nm nor readelf (binutils) was found")
        return 77

    cc = shlex.split(args.cc)
    headers = sorted(glob.glob(os.path.join(args.include_dir, "*.h")))
    if not headers:
        print(f"FAIL: no headers in {args.include_dir}")
        return 1

    api, inline = set(), set()
    for header in headers:
        for defines in VIEWS.values():
            d, i = declared_functions(cc, args.include_dir, header, defines)
            api |= d
            inline |= i
    api -= inline
    extras = set(args.extra)

    versions = exported_versions(args.nm, args.readelf, args.lib)
    exported = set(versions)

    nvidia, elsewhere = set(), set()
    if args.nvidia_exports:
        nvidia = read_names(args.nvidia_exports)
    if args.elsewhere:
        elsewhere = read_names(args.elsewhere)

    stale = []
    if args.stub:
        stub = exported_symbols(args.nm, args.readelf, args.stub)
        listed = read_names(args.nvidia_exports, where=lambda p: p[-1] == "stub")
        stale = [f"{n} (exported by the stub, not in the list)" for n in sorted(stub - listed)]
        stale += [f"{n} (in the list, not exported by the stub)" for n in sorted(listed - stub)]

    # The runtime's names carry NVIDIA's libcudart version, the rest none
    # (NVIDIA's libcuda.so.1 defines no versions), so that binaries linked
    # against either of NVIDIA's libraries bind to cuvk's.
    rt_names, rt_version, misversioned = set(), None, []
    driver_nvidia = nvidia
    if args.runtime_exports:
        with open(args.runtime_exports) as f:
            for line in f:
                parts = line.split("#", 1)[0].split()
                if parts and parts[0] == "@version":
                    rt_version = parts[1]
                elif parts:
                    rt_names.add(parts[0])
        driver_nvidia = set(nvidia)
        nvidia |= rt_names
        for name in sorted(exported):
            want = rt_version if name in rt_names or name.startswith(("cuda", "__cuda")) else ""
            if versions[name] != want:
                misversioned.append(f"{name}@{versions[name] or '(none)'}, want {want or 'no version'}")
        if args.cudart:
            theirs = exported_versions(args.nm, args.readelf, args.cudart)
            stale += [f"{n} (exported by {args.cudart}, not in {args.runtime_exports})"
                      for n in sorted(set(theirs) - rt_names)]
            stale += [f"{n} (in {args.runtime_exports}, not exported by {args.cudart})"
                      for n in sorted(rt_names - set(theirs))]
            stale += [f"{n}@{v} (version in {args.cudart})"
                      for n, v in sorted(theirs.items()) if v != rt_version]

    stray_runtime = sorted(exported & RUNTIME)
    stray = sorted(exported - api - extras - nvidia - RUNTIME)
    pending = sorted((nvidia & elsewhere) - exported)
    landed = sorted(elsewhere & exported)
    missing = sorted((api | extras | nvidia) - exported - elsewhere)

    print(f"{os.path.basename(args.lib)}: {len(exported)} exported symbols; "
          f"headers declare {len(api)} API symbols ({', '.join(os.path.basename(h) for h in headers)})")
    if stray:
        print(f"\nExported but not declared in include/*.h ({len(stray)}):")
        for name in stray:
            print(f"  {name}")
    if stray_runtime:
        print(f"\nC runtime symbols exported, which a version script should hide ({len(stray_runtime)}):")
        for name in stray_runtime:
            print(f"  {name}")
    if driver_nvidia:
        print(f"NVIDIA's libcuda.so.1 exports {len(driver_nvidia)} symbols; "
              f"{len(driver_nvidia & exported)} of them are exported, {len(driver_nvidia & exported - api)} "
              f"as unsupported entry points")
    if rt_names:
        print(f"NVIDIA's libcudart exports {len(rt_names)} functions ({rt_version}); "
              f"{len(rt_names & exported)} of them are exported, "
              f"{len(rt_names & exported - api)} not declared in cuda_runtime_api.h "
              f"(unsupported entry points and the registration calls)")
    if misversioned:
        print(f"\nExported with the wrong symbol version ({len(misversioned)}):")
        for line in misversioned:
            print(f"  {line}")
    if missing:
        print(f"\nDeclared or exported by NVIDIA, but not exported ({len(missing)}):")
        for name in missing:
            print(f"  {name}")
    if pending:
        print(f"\nPending, implemented on another branch ({len(pending)}, {args.elsewhere}):")
        for name in pending:
            print(f"  {name}")
    if landed:
        print(f"\nExported, so remove them from {args.elsewhere} ({len(landed)}):")
        for name in landed:
            print(f"  {name}")
    if stale:
        print("\nNVIDIA's lists differ from NVIDIA's libraries (scripts/update_nvidia_exports.py "
              "and scripts/update_nvidia_runtime_exports.py rewrite them):")
        for line in stale:
            print(f"  {line}")

    if stray or stray_runtime or missing or landed or stale or misversioned:
        print("\nFAIL")
        return 1
    print("OK: exports match the headers" + (" and NVIDIA's list" if nvidia else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
