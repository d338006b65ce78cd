#!/usr/bin/env python3
"""Checks that tests/abi/abi_list.h covers our include/cuda.h.

The ABI comparison only sees what abi_list.h names, so a constant, type,
struct member or function added to cuda.h but not to the list would escape
it.  This fails on any such gap:

  * every enum constant and valued #define (CU_*, CUDA_*, CIG_*) -> ABI_CONST/ABI_PTR
  * every typedef name -> ABI_TYPE
  * every top-level struct member -> ABI_FIELD
  * every function declared, and every symbol a renaming macro targets
    (including _ptds/_ptsz forms) -> ABI_FUNC/ABI_SYMBOL

With --nvidia it also checks the other direction for what we share: every
enum we declare has all of NVIDIA's constants, and each flag family we
define (CU_MEMHOSTALLOC_*, CUDA_ARRAY3D_*, ...) has all of NVIDIA's members.

With --runtime it does the same for cuda_runtime_api.h and driver_types.h
against abi_list_runtime.h (see main_runtime).
"""

import argparse
import re
import sys

# Macro families where we promise NVIDIA's complete set.
FLAG_FAMILIES = (
    "CU_MEMHOSTALLOC_",
    "CU_MEMHOSTREGISTER_",
    "CUDA_ARRAY3D_",
    "CU_MEM_CREATE_USAGE_",
    "CUDA_EXTERNAL_MEMORY_",
)

# Macros that carry no value: include guards and feature switches.
VALUELESS = re.compile(r"^(__cuda_cuda_h__|CU_UUID_HAS_BEEN_DEFINED|__CUDA_API_\w+)$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def enums(text):
    """{typedef name: [constant, ...]} for every 'typedef enum ... {} name;'."""
    out = {}
    for m in re.finditer(r"typedef\s+enum\s*\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        body = re.sub(r"^\s*#.*$", "", m.group(1), flags=re.M)
        names = []
        for item in body.split(","):
            im = re.match(r"\s*([A-Za-z_]\w*)", item)
            if im:
                names.append(im.group(1))
        out[m.group(2)] = names
    return out


def macros(text):
    """{name: body} of object-like #defines."""
    out = {}
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)(?!\()[ \t]*(.*)$", text, re.M):
        out[m.group(1)] = m.group(2).strip()
    return out


def typedef_names(text):
    """Names declared by typedefs without a body (typedef struct X *Name;)."""
    return {m.group(1) for m in re.finditer(r"typedef\s+[^;{}()]*?(\w+)\s*;", text)}


def member_names(body):
    """The top-level member names of a struct body.  Nested aggregates are
    flattened to "} name;" so each member is one declaration ending in its
    name (arrays allowed)."""
    flat, depth = [], 0
    for c in body:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            flat.append(c)
    members = []
    for decl in "".join(flat).split(";"):
        dm = re.search(r"(\w+)\s*(\[[^\]]*\]\s*)*$", decl.strip())
        if dm:
            members.append(dm.group(1))
    return members


def struct_members(text):
    """{typedef name: [member, ...]} for top-level members of typedef'd structs."""
    out = {}
    for m in re.finditer(r"typedef\s+struct\s*\w*\s*\{", text):
        depth, i = 1, m.end()
        start = i
        while depth:
            c = text[i]
            depth += c == "{"
            depth -= c == "}"
            i += 1
        body = text[start:i - 1]
        tail = re.match(r"\s*(\w+)\s*;", text[i:])
        if not tail:
            continue
        out[tail.group(1)] = member_names(body)
    return out


def functions(text):
    return re.findall(r"\bCUresult\s+CUDAAPI\s+(\w+)\s*\(", text)


def rename_targets(defs):
    """Symbols that the function-renaming macros can produce."""
    out = set()
    for name, body in defs.items():
        if not name.startswith("cu"):
            continue
        m = re.fullmatch(r"__CUDA_API_PT(DS|SZ)\((\w+)\)", body)
        if m:
            out.add(m.group(2))
            out.add(m.group(2) + "_pt" + m.group(1).lower())
        elif re.fullmatch(r"\w+", body):
            out.add(body)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--header", required=True, help="our include/cuda.h")
    ap.add_argument("--list", required=True, help="tests/abi/abi_list.h")
    ap.add_argument("--nvidia", help="NVIDIA's cuda.h, for the reverse checks")
    args = ap.parse_args()

    ours = strip_comments(open(args.header, encoding="utf-8").read())
    listed = {}
    for m in re.finditer(r"^\s*(ABI_\w+)\(([^)]*)\)", open(args.list, encoding="utf-8").read(), re.M):
        parts = tuple(p.strip() for p in m.group(2).split(","))
        listed.setdefault(m.group(1), set()).add(parts if len(parts) > 1 else parts[0])

    def has(kind, key):
        return any(key in listed.get(k, ()) for k in kind)

    problems = []

    our_enums = enums(ours)
    our_macros = macros(ours)
    for enum, names in our_enums.items():
        for name in names:
            if not has(("ABI_CONST",), name):
                problems.append(f"enum constant {name} ({enum}) is not in abi_list.h")
    for name, body in our_macros.items():
        if name.startswith("cu") or VALUELESS.match(name) or not body:
            continue
        if name in ("CUDAAPI",):
            if not has(("ABI_TEXT",), name):
                problems.append(f"macro {name} is not in abi_list.h")
            continue
        if not has(("ABI_CONST", "ABI_PTR"), name):
            problems.append(f"macro {name} is not in abi_list.h")

    our_structs = struct_members(ours)
    for name in sorted(typedef_names(ours) | set(our_enums) | set(our_structs)):
        if not has(("ABI_TYPE",), name):
            problems.append(f"type {name} is not in abi_list.h")

    # A struct's members may be listed under any of its names (the _vN
    # typedef or the plain alias).
    aliases = {}
    for m in re.finditer(r"typedef\s+(\w+)\s+(\w+)\s*;", ours):
        aliases.setdefault(m.group(1), set()).add(m.group(2))
    for struct, members in our_structs.items():
        names = {struct} | aliases.get(struct, set())
        for member in members:
            if not any((n, member) in listed.get("ABI_FIELD", ()) for n in names):
                problems.append(f"member {struct}.{member} is not in abi_list.h")

    # Inline wrappers live in the program, not the library.
    inline = set(re.findall(r"\bstatic\s+inline\s+[^;{]*?\b(\w+)\s*\(", ours))
    for name in sorted((set(functions(ours)) | rename_targets(our_macros)) - inline):
        if not has(("ABI_FUNC", "ABI_SYMBOL"), name):
            problems.append(f"function/symbol {name} is not in abi_list.h")

    if args.nvidia:
        theirs = strip_comments(open(args.nvidia, encoding="utf-8", errors="replace").read())
        their_enums = enums(theirs)
        for enum, names in our_enums.items():
            if enum not in their_enums:
                problems.append(f"enum {enum} is not in NVIDIA's cuda.h")
                continue
            for name in their_enums[enum]:
                if name not in names:
                    problems.append(f"{enum} lacks NVIDIA's constant {name}")
        their_macros = macros(theirs)
        for family in FLAG_FAMILIES:
            if not any(n.startswith(family) for n in our_macros):
                continue
            for name in their_macros:
                if name.startswith(family) and name not in our_macros:
                    problems.append(f"macro family {family}* lacks NVIDIA's {name}")

    for p in problems:
        print(p)
    if problems:
        print(f"FAIL: {len(problems)} problem(s)")
        return 1
    print("OK: abi_list.h covers include/cuda.h" + (" and NVIDIA's shared enums" if args.nvidia else ""))
    return 0


# ---- The runtime API's headers (check_list.py --runtime) ----------------
#
# cuda_runtime_api.h and driver_types.h spell aggregates as tags (enum
# cudaError { ... };, struct cudaDeviceProp { ... };), which abi_list_runtime.h
# names with their keyword, and mark functions with CUDARTAPI.  NVIDIA's
# copies put __device_builtin__ between the keyword and the tag.

RT_FLAG_FAMILIES = (
    "cudaHostAlloc",
    "cudaHostRegister",
    "cudaEvent",
    "cudaExternalMemory",
)

RT_VALUELESS = re.compile(r"^(__DRIVER_TYPES_H__|__CUDA_RUNTIME_API_H__|CU_UUID_HAS_BEEN_DEFINED|"
                          r"__CUDART_API_\w+|CUDARTAPI)$")


def rt_tagged(text, keyword):
    """[(tag, body)] of every 'keyword [__device_builtin__] tag { body }'."""
    out = []
    for m in re.finditer(keyword + r"\s+(?:__device_builtin__\s+)?(\w+)\s*\{", text):
        depth, i = 1, m.end()
        while depth:
            depth += text[i] == "{"
            depth -= text[i] == "}"
            i += 1
        out.append((m.group(1), text[m.end():i - 1]))
    return out


def rt_enums(text):
    out = {}
    for tag, body in rt_tagged(text, "enum"):
        body = re.sub(r"^\s*#.*$", "", body, flags=re.M)
        out[tag] = [im.group(1) for im in (re.match(r"\s*([A-Za-z_]\w*)", item)
                                           for item in body.split(",")) if im]
    return out


def rt_structs(text):
    out = {}
    for tag, body in rt_tagged(text, "struct"):
        out[tag] = member_names(body)
    return out


def rt_macros(text):
    """{name: body} of object-like #defines (a name followed by "(" is a
    function-like macro, however the name's prefix could match)."""
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r"^\s*#\s*define\s+(\w+)(?![\w(])[ \t]*(.*)$", text, re.M)}


def rt_is_rename(body):
    return re.fullmatch(r"__CUDART_API_PT(DS|SZ)\(\w+\)", body) is not None


def rt_rename_targets(defs):
    out = set()
    for body in defs.values():
        m = re.fullmatch(r"__CUDART_API_PT(DS|SZ)\((\w+)\)", body)
        if m:
            out.add(m.group(2))
            out.add(m.group(2) + "_pt" + m.group(1).lower())
    return out


def main_runtime():
    ap = argparse.ArgumentParser(description="Checks that tests/abi/abi_list_runtime.h covers "
                                 "our runtime headers")
    ap.add_argument("--runtime", action="store_true", required=True)
    ap.add_argument("--header", action="append", required=True,
                    help="our cuda_runtime_api.h, driver_types.h")
    ap.add_argument("--list", required=True, help="tests/abi/abi_list_runtime.h")
    ap.add_argument("--nvidia", action="append", default=[],
                    help="NVIDIA's cuda_runtime_api.h, driver_types.h, for the reverse checks")
    args = ap.parse_args()

    ours = "\n".join(strip_comments(open(h, encoding="utf-8").read()) for h in args.header)
    listed = {}
    for m in re.finditer(r"^\s*(ABI_\w+)\(([^)]*)\)", open(args.list, encoding="utf-8").read(), re.M):
        parts = tuple(p.strip() for p in m.group(2).split(","))
        listed.setdefault(m.group(1), set()).add(parts if len(parts) > 1 else parts[0])

    def has(kind, key):
        return any(key in listed.get(k, ()) for k in kind)

    problems = []
    our_enums = rt_enums(ours)
    our_structs = rt_structs(ours)
    our_macros = rt_macros(ours)

    for enum, names in our_enums.items():
        if not has(("ABI_TYPE",), "enum " + enum):
            problems.append(f"type enum {enum} is not in the list")
        for name in names:
            if not has(("ABI_CONST",), name):
                problems.append(f"enum constant {name} ({enum}) is not in the list")
    for struct, members in our_structs.items():
        if not has(("ABI_TYPE",), "struct " + struct):
            problems.append(f"type struct {struct} is not in the list")
        for member in members:
            if ("struct " + struct, member) not in listed.get("ABI_FIELD", ()):
                problems.append(f"member {struct}.{member} is not in the list")
    for name in sorted(typedef_names(ours)):
        if not has(("ABI_TYPE",), name):
            problems.append(f"type {name} is not in the list")

    renames = rt_rename_targets(our_macros)
    for name, body in our_macros.items():
        if RT_VALUELESS.match(name) or not body or rt_is_rename(body):
            continue
        if not has(("ABI_CONST", "ABI_PTR"), name):
            problems.append(f"macro {name} is not in the list")
    if "CUDARTAPI" in our_macros and not has(("ABI_TEXT",), "CUDARTAPI"):
        problems.append("macro CUDARTAPI is not in the list")

    funcs = set(re.findall(r"\bCUDARTAPI\s+(\w+)\s*\(", ours))
    for name in sorted(funcs | renames):
        if not has(("ABI_FUNC", "ABI_SYMBOL"), name):
            problems.append(f"function/symbol {name} is not in the list")

    if args.nvidia:
        theirs = "\n".join(strip_comments(open(h, encoding="utf-8", errors="replace").read())
                           for h in args.nvidia)
        their_enums = rt_enums(theirs)
        for enum, names in our_enums.items():
            if enum not in their_enums:
                problems.append(f"enum {enum} is not in NVIDIA's headers")
                continue
            for name in their_enums[enum]:
                if name not in names:
                    problems.append(f"enum {enum} lacks NVIDIA's constant {name}")
        their_macros = rt_macros(theirs)
        for family in RT_FLAG_FAMILIES:
            for name, body in their_macros.items():
                if name.startswith(family) and not rt_is_rename(body) and name not in our_macros:
                    problems.append(f"macro family {family}* lacks NVIDIA's {name}")

    for p in problems:
        print(p)
    if problems:
        print(f"FAIL: {len(problems)} problem(s)")
        return 1
    print("OK: abi_list_runtime.h covers our runtime headers" +
          (" and NVIDIA's shared enums" if args.nvidia else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main_runtime() if "--runtime" in sys.argv[1:] else main())
