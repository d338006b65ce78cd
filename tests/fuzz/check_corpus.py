#!/usr/bin/env python3
"""Checks that tests/fuzz/corpus holds what fuzz_gen_corpus writes.

   check_corpus.py GENERATOR CORPUS

The seeds are committed so that a fuzz run needs nothing built first;
this fails when gen_corpus.c (or fuzz_ops.h) changed and the committed
files were not written again with `fuzz_gen_corpus tests/fuzz/corpus`.
Only seed-* files are compared: other files in CORPUS are inputs a run
found and someone chose to keep.
"""
import filecmp
import os
import subprocess
import sys
import tempfile


def main():
    gen, corpus = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([gen, tmp], check=True)
        bad = []
        for sub in sorted(os.listdir(tmp)):
            want = sorted(f for f in os.listdir(os.path.join(tmp, sub)))
            have_dir = os.path.join(corpus, sub)
            have = sorted(f for f in os.listdir(have_dir) if f.startswith("seed-")) \
                if os.path.isdir(have_dir) else []
            for name in sorted(set(want) | set(have)):
                a = os.path.join(tmp, sub, name)
                b = os.path.join(have_dir, name)
                if not os.path.exists(b):
                    bad.append("%s/%s is missing" % (sub, name))
                elif not os.path.exists(a):
                    bad.append("%s/%s is no longer generated" % (sub, name))
                elif not filecmp.cmp(a, b, shallow=False):
                    bad.append("%s/%s differs from what the generator writes" % (sub, name))
        for line in bad:
            print("corpus: " + line)
        if bad:
            print("write it again: fuzz_gen_corpus %s" % corpus)
            return 1
        print("corpus: %d folders match the generator" % len(os.listdir(tmp)))
        return 0


if __name__ == "__main__":
    sys.exit(main())
