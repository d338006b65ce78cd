#!/usr/bin/env python3
"""Runs test_vmm's cases on one of the two ways a reservation can work.

  run_path.py sparse CUVK_INFO TEST_VMM CASE...
  run_path.py split  CUVK_INFO TEST_VMM CASE...

sparse: every reservation is one sparse VkBuffer (devices with sparse
residency for buffers; skipped, exit 77, elsewhere).  split: the same
device with CUVK_VMM_SPARSE=0, one buffer per mapping (skipped where
the device has no sparse path, since the plain vmm suite covers it).

Each case runs in its own process with CUVK_LOG=debug, and the logs must
show that cuvk took the path asked for: some case made a sparse buffer,
or none did.  So a silent fallback fails the test.
"""
import json
import os
import subprocess
import sys

SPARSE_LINE = "backed by a sparse buffer"


def device_has_sparse(cuvk_info):
    out = subprocess.run([cuvk_info, "--json"], capture_output=True, text=True, check=True).stdout
    devices = json.loads(out).get("devices", [])
    cuda = [d for d in devices if d.get("cuda_ordinal", -1) == 0]
    if not cuda:
        return False, "cuvk found no CUDA device 0"
    sparse = cuda[0].get("sparse", {})
    return bool(sparse.get("reservations")), sparse.get("reservations_reason", "no reason given")


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ("sparse", "split"):
        print(__doc__, file=sys.stderr)
        return 2
    path, cuvk_info, test_vmm, cases = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

    has_sparse, why = device_has_sparse(cuvk_info)
    if not has_sparse:
        print(f"SKIP: device 0 has no sparse reservations ({why})")
        return 77

    env = dict(os.environ, CUVK_LOG="debug")
    if path == "split":
        env["CUVK_VMM_SPARSE"] = "0"
    failed = 0
    made = []
    for case in cases:
        run = subprocess.run([test_vmm, case], env=env, capture_output=True, text=True)
        if SPARSE_LINE in run.stderr:
            made.append(case)
        ok = run.returncode == 0
        print(f"{'PASS' if ok else 'FAIL'}: {case} ({path}: exit {run.returncode}, "
              f"sparse buffer {'made' if SPARSE_LINE in run.stderr else 'not made'})")
        if not ok:
            failed += 1
            sys.stdout.write(run.stdout[-4000:])
            lines = [l for l in run.stderr.splitlines() if ": debug: " not in l]
            sys.stdout.write("\n".join(lines[-60:]) + "\n")
    # Cases that never map private memory make no sparse buffer on either
    # path; the suite as a whole must have taken the path asked for.
    if path == "sparse" and not made:
        print("FAIL: no case made a sparse buffer: cuvk fell back to one buffer per mapping")
        failed += 1
    if path == "split" and made:
        print(f"FAIL: CUVK_VMM_SPARSE=0, yet sparse buffers were made in: {', '.join(made)}")
        failed += 1
    print(f"{len(cases) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
