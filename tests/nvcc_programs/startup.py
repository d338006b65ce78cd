#!/usr/bin/env python3
"""Runs nvcc_programs.startup (startup.cu) and reports or checks its start-up.

    startup.py --check PROGRAM
        The test: with an empty cache folder and cuvk's debug log, the first
        run must translate nothing before its first launch, the launched
        kernel itself during it (the others may be built ahead by the
        compile pool meanwhile), each of the 200 once in all, and some
        ahead (unless CUVK_COMPILE_THREADS=0); a second run must translate
        none and read all 200 from cuvk's disk cache.

    startup.py [--runs N] PROGRAM
        The measurement, on whichever runtime LD_LIBRARY_PATH selects (cuvk's
        drop-in folder, or none for NVIDIA's): one run with empty caches
        (cuvk's CUVK_CACHE_DIR and NVIDIA's CUDA_CACHE_PATH point at a new
        temporary folder), then N (default 10) runs sharing it; prints the
        cold run and the median and minimum of the warm ones, in ms from
        exec to main, to the first kernel's result and to all 200 results.

The clock starts just before the process does: STARTUP_T0_NS carries
CLOCK_MONOTONIC's nanoseconds into the program, which reads the same clock.
The program's own exit status is passed on, and a run that fails fails here.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

RESULT = re.compile(r"main_ms=([\d.]+) first_ms=([\d.]+) all_ms=([\d.]+)")
KERNELS = 200
LOADED = re.compile(r"(cuModuleGetFunction|built ahead): (\S+) (translated|read from the disk cache)$")


def run(program, env):
    env = dict(env)
    # As tests/runtime/run_quiet.py: the sanitizer runtime for the program
    # alone under scripts/test.sh --sanitize=address.
    pre = env.get("CUVK_TEST_CHILD_PRELOAD")
    if pre:
        env["LD_PRELOAD"] = ":".join(p for p in (pre, env.get("LD_PRELOAD", "")) if p)
    env["STARTUP_T0_NS"] = str(time.clock_gettime_ns(time.CLOCK_MONOTONIC))
    p = subprocess.run([program], env=env, capture_output=True, text=True)
    return p


def times(p):
    m = RESULT.search(p.stdout)
    return tuple(float(x) for x in m.groups()) if m else None


def fail(p, why):
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    print(f"FAIL: {why}")
    return 1


def check(program):
    with tempfile.TemporaryDirectory(prefix="cuvk-startup-") as cache:
        env = dict(os.environ, CUVK_CACHE_DIR=cache, CUVK_LOG="debug")
        # With one CPU the pool is off by default: one worker, so that the
        # check always sees kernels built ahead unless told otherwise.
        threads = env.setdefault("CUVK_COMPILE_THREADS", str(max(os.cpu_count() - 1, 1)))
        for n in (1, 2):
            p = run(program, env)
            if p.returncode != 0 or not times(p):
                return fail(p, f"run {n} exited {p.returncode}")
            lines = p.stderr.splitlines()
            try:
                launch = lines.index("startup: first launch")
                result = lines.index("startup: first result")
            except ValueError:
                return fail(p, f"run {n}: the program's markers are missing")
            # Each kernel is reached once: translated or read from the disk
            # cache by cuModuleGetFunction at its first launch, or by a
            # worker of the compile pool ahead of it (module_ahead.c).
            loads = []
            for i, l in enumerate(lines):
                m = LOADED.search(l)
                if m:
                    loads.append((i, m.group(1) == "built ahead", m.group(2), m.group(3)))
                elif "cuModuleGetFunction:" in l and "translated" in l or "built ahead:" in l \
                        and "not built" not in l:
                    return fail(p, f"run {n}: a kernel's log line of an unknown form: {l}")
            if any(i < launch for i, *_ in loads):
                return fail(p, f"run {n}: a kernel was loaded before the first launch")
            first = [i for i, ahead, *_ in loads if launch < i < result and not ahead]
            if len(first) != 1:
                return fail(p, f"run {n}: the first launch loaded {len(first)} kernels itself, want 1")
            names = [name for *_, name, _ in loads]
            if len(set(names)) != len(names):
                return fail(p, f"run {n}: a kernel was loaded twice")
            translated = [x for x in loads if x[3] == "translated"]
            cached = [x for x in loads if x[3] != "translated"]
            ahead = [x for x in loads if x[1]]
            want = (KERNELS, 0) if n == 1 else (0, KERNELS)
            if (len(translated), len(cached)) != want:
                return fail(p, f"run {n}: {len(translated)} kernels translated and {len(cached)} "
                            f"read from the disk cache, want {want[0]} and {want[1]}")
            if threads != "0" and not ahead:
                return fail(p, f"run {n}: no kernel was built ahead (CUVK_COMPILE_THREADS={threads})")
            print(f"run {n}: {len(translated)} translated, {len(cached)} from the disk cache, "
                  f"{len(ahead)} of them ahead; "
                  f"main {times(p)[0]:.1f} ms, first result {times(p)[1]:.1f} ms, "
                  f"all {times(p)[2]:.1f} ms")
    print("startup: pass")
    return 0


def measure(program, runs):
    with tempfile.TemporaryDirectory(prefix="cuvk-startup-") as cache:
        env = dict(os.environ, CUVK_CACHE_DIR=cache, CUDA_CACHE_PATH=cache)
        results = []
        for n in range(runs + 1):
            p = run(program, env)
            t = times(p)
            if p.returncode != 0 or not t:
                return fail(p, f"run {n} exited {p.returncode}")
            results.append(t)
    lib = os.environ.get("LD_LIBRARY_PATH", "")
    print(f"{program}, LD_LIBRARY_PATH={lib or '(unset)'}; ms from exec")
    print(f"{'':24} {'main':>9} {'first':>9} {'all 200':>9}")
    print(f"{'cold (empty caches)':24} " + " ".join(f"{x:9.1f}" for x in results[0]))
    warm = results[1:]
    print(f"{'warm median of ' + str(runs):24} " +
          " ".join(f"{statistics.median(c):9.1f}" for c in zip(*warm)))
    print(f"{'warm minimum':24} " + " ".join(f"{min(c):9.1f}" for c in zip(*warm)))
    return 0


def main():
    args = sys.argv[1:]
    if args[:1] == ["--check"]:
        return check(args[1])
    runs = 10
    if args[:1] == ["--runs"]:
        runs = int(args[1])
        args = args[2:]
    if len(args) != 1:
        print(__doc__)
        return 2
    return measure(args[0], runs)


if __name__ == "__main__":
    sys.exit(main())
