#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The good specs (tests/specs/good/: constructs the real families do not use) built and self-tested together.

    good_specs.py DIR SPEC...

For every spec: its headers and self-test are generated (one generator run for all of them, each spec
read and checked once for headers and self-test), every self-test is built with the strict warnings at
-O1 and run, with gcc and with clang (one program per compiler holding every self-test, each under its
own prefix: tests/gen/random_specs.py's selftest_program()), and its tools header is compiled as C++11
with g++ and with clang++, alone in its translation unit. A compiler that is not installed is left out.

The result of each spec is written to DIR/NAME.log and DIR/NAME.rc (0: passed), for the suite's check of
that spec; the generated files are in DIR/pmregs and DIR/st. When a program holding every self-test does
not build, each spec's self-test is built alone, so that the failure is told of the spec it comes from.
The exit status is 0 once every result is written, whether or not the specs passed (the checks of the
specs say that).
"""

import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, HERE)

import generate  # noqa: E402
from random_specs import WARN, selftest_program  # noqa: E402


def have(tool):
    return shutil.which(tool) is not None


def run(cmd, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
    return p.returncode, p.stdout


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    d, specs = argv[0], argv[1:]
    names = [os.path.basename(s)[:-5] for s in specs]
    log = {n: [] for n in names}
    bad = set()

    def fail(n, text):
        bad.add(n)
        log[n].append(text)

    inc = os.path.join(d, "pmregs")
    os.makedirs(inc, exist_ok=True)
    for f in os.listdir(os.path.join(ROOT, "include", "pmregs")):     # the hand-written headers
        if f.startswith("base") or f == "version.h":
            shutil.copy(os.path.join(ROOT, "include", "pmregs", f), inc)
    tests, warnings = {}, []
    try:
        files = generate.build(specs, out=inc, warnings=warnings, selftest_files=tests)
        generate.write(inc, False, files)
        generate.write(os.path.join(d, "st"), False, tests)
    except generate.SpecError as e:
        for err in e.errors:
            text = str(err)
            owners = [n for n, s in zip(names, specs) if text.startswith(os.path.relpath(s) + ":")]
            for n in owners or names:
                fail(n, f"generator: {text}")
        for n in names:
            if n not in bad:
                fail(n, "not built: the generator refused another good spec (every one is generated in one run)")
    for w in warnings:
        for n in names:
            log[n].append(w)
    # the self-tests: one program per compiler
    generated = not bad
    for cc in ("gcc", "clang"):
        if not generated or not have(cc):
            continue
        src = os.path.join(d, f"selftests_{cc}.c")
        with open(src, "w") as f:
            f.write(selftest_program(d, names))
        exe = os.path.join(d, f"selftests_{cc}")
        flags = [cc, "-std=c99"] + WARN + ["-O1", "-I", d]
        rc, out = run(flags + [src, "-o", exe])
        if rc == 0:
            programs = [(exe, names)]
        else:
            # which spec's self-test: each built alone, and those that build run alone
            programs = []
            for n in names:
                rc1, out1 = run(flags + [os.path.join(d, "st", f"selftest_{n}.c"), "-o", f"{exe}_{n}"])
                if rc1 != 0:
                    fail(n, f"{cc}: the self-test does not build:\n{out1[:3000]}")
                else:
                    programs.append((f"{exe}_{n}", [n]))
            if len(programs) == len(names):         # the program did not build, yet each alone does
                for n in names:
                    fail(n, f"{cc}: the program of every self-test does not build:\n{out[:3000]}")
        for prog, mine in programs:
            rc, out = run([prog])
            for n in mine:
                lines = [ln for ln in out.splitlines() if re.match(rf"selftest {re.escape(n)}: ", ln)
                         or f"self-test of {n} failed" in ln or f"selftest_{n}.c:" in ln]
                log[n] += [f"{cc}: {ln}" for ln in lines]
                if rc != 0 and (len(mine) == 1 or any(f"self-test of {n} failed" in ln for ln in lines)) or \
                        not any(re.match(rf"selftest {re.escape(n)}: \d+ checks, 0 failed", ln) for ln in lines):
                    fail(n, f"{cc}: the self-test fails (status {rc})")
    # the tools header of each spec alone in a C++11 translation unit
    for n in names:
        if not generated:
            continue
        tu = os.path.join(d, f"tu_{n}.cc")
        with open(tu, "w") as f:
            f.write(f"#include <pmregs/{n}_tools.h>\nint pmregs_good_tu;\n")
        for cxx in ("g++", "clang++"):
            if have(cxx):
                rc, out = run([cxx, "-std=c++11"] + WARN + ["-I", d, "-c", tu, "-o", os.path.join(d, f"tu_{n}.{cxx}.o")])
                if rc != 0:
                    fail(n, f"{cxx} -std=c++11: {n}_tools.h does not compile:\n{out[:3000]}")
    for n in names:
        with open(os.path.join(d, f"{n}.log"), "w") as f:
            f.write("".join(x + "\n" for x in log[n]) + ("FAIL\n" if n in bad else "PASS\n"))
        with open(os.path.join(d, f"{n}.rc"), "w") as f:
            f.write("1\n" if n in bad else "0\n")
    print(f"good_specs.py: {len(names) - len(bad)} of {len(names)} good specs passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
