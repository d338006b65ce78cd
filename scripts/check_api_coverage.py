#!/usr/bin/env python3
"""Checks that docs/api-coverage.md has a row for every call cuvk declares.

    check_api_coverage.py [SOURCE_DIR]

Every function declared in include/cuda.h and include/cuda_runtime_api.h
(when present), under its plain name (cuMemAlloc, not cuMemAlloc_v2 or
cuMemAlloc_ptds), must start a table row of docs/api-coverage.md as
"| `name` |", and no row marked "not yet" may name a declared call.  Prints
what is wrong and exits 1, so the page cannot silently fall behind the
headers.
"""

import os
import re
import sys

HEADERS = ('include/cuda.h', 'include/cuda_runtime_api.h')

# A declaration: the calling-convention macro, the name, "(".
DECL = re.compile(r'\b(?:CUDAAPI|CUDARTAPI)\s*((?:cu|cuda)[A-Za-z0-9_]*)\s*\(')
# Suffixes that only select an ABI version or default-stream flavour.
SUFFIX = re.compile(r'(?:_v\d+)?(?:_ptds|_ptsz)?$')


def declared(source_dir):
    names = set()
    for rel in HEADERS:
        path = os.path.join(source_dir, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8', errors='replace') as f:
            text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
        for m in DECL.finditer(text):
            names.add(SUFFIX.sub('', m.group(1)))
    return names


def documented(source_dir):
    """Maps each call that starts a table row to its status column."""
    path = os.path.join(source_dir, 'docs', 'api-coverage.md')
    with open(path, encoding='utf-8') as f:
        rows = re.findall(r'^\|\s*`([A-Za-z0-9_]+)`\s*\|\s*([^|]*?)\s*\|', f.read(), re.M)
    return dict(rows)


def main():
    source_dir = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    names = declared(source_dir)
    rows = documented(source_dir)
    problems = [f'docs/api-coverage.md has no row for {n}' for n in sorted(names - rows.keys())]
    problems += [f'docs/api-coverage.md says {n} is "not yet", but a header declares it'
                 for n in sorted(names) if rows.get(n) == 'not yet']
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f'docs/api-coverage.md covers all {len(names)} declared calls')
    return 0


if __name__ == '__main__':
    sys.exit(main())
