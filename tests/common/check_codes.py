#!/usr/bin/env python3
"""Runs an error-code probe (tests/common/codes_harness.h) on cuvk and
compares every case's code with the table of the codes cuvk documents
(texture.codes: tests/texture/codes_expected.txt; api.mempool.codes:
tests/api/mempool_codes_expected.txt; graph.codes:
tests/graph/graph_codes_expected.txt).

The table has one line per case, as the probe prints it:

    case-name code CODE_NAME    # an optional note

so a line of the probe's output on real CUDA replaces a line of the table
as it is.  Lines starting with '#' and blank lines are comments.  The
test fails on a case whose code or name differs, a case the probe printed
that the table lacks or the reverse, or a probe whose controls failed
(exit status 1) or that could not run.
"""
import subprocess
import sys


def read_table(path):
    table = {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) != 3:
                sys.exit(f'{path}:{number}: expected "case code NAME", got {line!r}')
            name, code, code_name = fields
            if name in table:
                sys.exit(f'{path}:{number}: {name} is listed twice')
            table[name] = (int(code), code_name)
    return table


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: check_codes.py PROBE EXPECTED')
    probe, expected_path = sys.argv[1], sys.argv[2]
    expected = read_table(expected_path)

    run = subprocess.run([probe], stdout=subprocess.PIPE, universal_newlines=True)
    sys.stdout.write(run.stdout)
    if run.returncode not in (0, 1):
        print(f'FAIL: the probe exited with {run.returncode}')
        return 1

    got = {}
    for line in run.stdout.splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        fields = line.split()
        if len(fields) != 3:
            print(f'FAIL: the probe printed {line!r}')
            return 1
        got[fields[0]] = (int(fields[1]), fields[2])

    failures = []
    for name, (code, code_name) in expected.items():
        if name not in got:
            failures.append(f'{name}: in the table, not printed by the probe')
        elif got[name] != (code, code_name):
            failures.append(f'{name}: gave {got[name][0]} {got[name][1]}, the table says {code} {code_name}')
    for name in got:
        if name not in expected:
            failures.append(f'{name}: printed by the probe ({got[name][0]} {got[name][1]}), not in the table')
    if run.returncode != 0:
        failures.append('the probe says a control failed (a valid call did not give 0)')

    for f in failures:
        print('FAIL: ' + f)
    print(f'{len(got)} cases printed, {len(expected)} in the table, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
