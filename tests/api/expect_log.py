#!/usr/bin/env python3
"""Runs one test case and checks that cuvk's debug log shows a path taken.

  expect_log.py LINE PROGRAM CASE [ARG...]

The case runs with CUVK_LOG=debug.  It passes when the program exits 0
(77 is passed on as a skip) and some line of its standard error contains
LINE, so a case whose environment asks for a path cuvk silently did not
take fails instead of passing on the other path.  ARGs follow CASE on the
program's command line.
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    line, program, case = sys.argv[1:4]
    env = dict(os.environ, CUVK_LOG="debug")
    run = subprocess.run([program, case] + sys.argv[4:], env=env, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write("".join(l + "\n" for l in run.stderr.splitlines() if ": debug: " not in l))
    if run.returncode != 0:
        return run.returncode
    if not any(line in l for l in run.stderr.splitlines()):
        print(f"FAIL: {case} passed but cuvk's log never says \"{line}\"")
        return 1
    print(f"cuvk's log says \"{line}\"")
    return 0


if __name__ == "__main__":
    sys.exit(main())
