#!/usr/bin/env python3
"""Smoke test of a cuvk tool: runs it, requires exit status 0, and parses
the JSON it wrote (to stdout, or to a file).

    check_json_run.py stdout [--plain-too] -- TOOL ARGS...
        TOOL ARGS must print JSON on stdout; with --plain-too the tool is
        first run without its last argument (the readable output).
    check_json_run.py file PATH [--expect KEY=JSON ...] [--expect-results ID=IMPL ...]
                      -- TOOL ARGS...
        TOOL ARGS must write JSON to PATH (the file is removed first); each
        --expect requires the top-level KEY to hold the JSON value given;
        each --expect-results requires cuvk-bench's table ID to be in
        "benchmarks" with a result of implementation IMPL ("cuvk",
        "vulkan", ...) in every row that measures it (all but rows whose
        "measures" list leaves IMPL out), and in a row that counts "bytes"
        (a latency row with a bandwidth, such as the kernel table's saxpy)
        a positive "gbps" too.
"""
import json
import os
import subprocess
import sys


def run(cmd, capture):
    print('running:', ' '.join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE if capture else None)
    if proc.returncode != 0:
        print(f'FAIL: exit status {proc.returncode}', file=sys.stderr)
        if capture:
            sys.stdout.write(proc.stdout.decode(errors='replace'))
        sys.exit(1)
    return proc.stdout


def parse(text, where):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        print(f'FAIL: {where} is not JSON: {e}', file=sys.stderr)
        sys.exit(1)
    if not isinstance(data, dict):
        print(f'FAIL: {where} is not a JSON object', file=sys.stderr)
        sys.exit(1)
    return data


def check_results(data, table_id, impl):
    """Table table_id of a cuvk-bench report has a result of impl in
    every row that measures it."""
    tables = [t for t in data.get('benchmarks', []) if t.get('id') == table_id]
    if not tables:
        print(f'FAIL: no table {table_id!r} in "benchmarks"', file=sys.stderr)
        return False
    rows = tables[0].get('rows', [])
    if not rows:
        print(f'FAIL: table {table_id!r} has no rows', file=sys.stderr)
        return False
    for row in rows:
        if 'measures' in row and impl not in row['measures']:
            continue
        result = row.get('results', {}).get(impl)
        if not isinstance(result, dict) or not result.get('median_us', 0) > 0:
            name = row.get('operation', row.get('size'))
            print(f'FAIL: table {table_id!r}, row {name!r}: no {impl} result '
                  f'(notes: {tables[0].get("notes")})', file=sys.stderr)
            return False
        if row.get('bytes') and not result.get('gbps', 0) > 0:
            name = row.get('operation', row.get('size'))
            print(f'FAIL: table {table_id!r}, row {name!r}: counts {row["bytes"]} bytes '
                  f'but {impl} has no GB/s', file=sys.stderr)
            return False
    return True


def main(argv):
    if '--' not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index('--')
    opts, cmd = argv[1:split], argv[split + 1:]
    if not cmd or not opts or opts[0] not in ('stdout', 'file'):
        print(__doc__, file=sys.stderr)
        return 2

    if opts[0] == 'stdout':
        if '--plain-too' in opts[1:]:
            run(cmd[:-1], capture=False)
        out = run(cmd, capture=True)
        data = parse(out.decode(errors='replace'), 'stdout')
    else:
        if len(opts) < 2:
            print(__doc__, file=sys.stderr)
            return 2
        path = opts[1]
        if os.path.exists(path):
            os.remove(path)
        run(cmd, capture=False)
        if not os.path.exists(path):
            print(f'FAIL: {path} was not written', file=sys.stderr)
            return 1
        with open(path, encoding='utf-8') as f:
            data = parse(f.read(), path)
    expects = opts[2:]
    for i in range(0, len(expects), 2):
        if (expects[i] not in ('--expect', '--expect-results') or i + 1 >= len(expects)
                or '=' not in expects[i + 1]):
            print(__doc__, file=sys.stderr)
            return 2
        key, want = expects[i + 1].split('=', 1)
        if expects[i] == '--expect-results':
            if not check_results(data, key, want):
                return 1
        elif data.get(key) != json.loads(want):
            print(f'FAIL: {key} is {data.get(key)!r}, expected {want}', file=sys.stderr)
            return 1
    print(f'ok: JSON object with keys {", ".join(sorted(data))}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
