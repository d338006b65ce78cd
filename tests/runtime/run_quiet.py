#!/usr/bin/env python3
"""Runs a program and fails if the dynamic linker complained about symbol
versions on its way to main().

    run_quiet.py PROGRAM [ARGS...]

glibc warns "no version information available" when a program requires a
version from a library that defines none, and refuses to start it
("version `...' not found") when the library defines others.  Either
means the program's runtime calls are not bound the way NVIDIA's library
binds them.  The program's own exit status is passed on.
"""
import os
import subprocess
import sys

COMPLAINTS = ("no version information available", "' not found (required by")


def child_env(env):
    """The program's environment.  Under scripts/test.sh --sanitize=address
    an nvcc-built program is not linked with the sanitizer runtime: cuvk
    brings it in as a dependency of its own, after libc, so malloc and free
    would stay glibc's (no heap checks, no leak check at exit).
    CUVK_TEST_CHILD_PRELOAD names the runtime to preload into the program
    alone (this interpreter would have its own allocations reported)."""
    env = dict(env)
    pre = env.get("CUVK_TEST_CHILD_PRELOAD")
    if pre:
        env["LD_PRELOAD"] = ":".join(p for p in (pre, env.get("LD_PRELOAD", "")) if p)
    return env


def main():
    run = subprocess.run(sys.argv[1:], capture_output=True, text=True, env=child_env(os.environ))
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    bad = [l for l in run.stderr.splitlines() if any(c in l for c in COMPLAINTS)]
    if bad:
        print(f"FAIL: the dynamic linker complained about versions ({len(bad)} lines)")
        return 1
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
