#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Compile budgets for `make bench`: what including a header costs a translation unit.

For every header in include/pmregs/, a translation unit that includes only that header is
compiled with `-O2 -c` by gcc (as C) and g++ (as C++), alternating run by run with a
translation unit that includes only <stdint.h> and <stdio.h>. The ratio of the medians
(CPU time of the compiler, user + system) is the header's cost. Next to it: the bytes of
pmregs headers the translation unit reads and its preprocessed lines. Budgets: a family
header at most 1.5x, the umbrella pmregs.h at most 2.5x; the tools companions
(FAMILY_tools.h, tools.h) and base.h are shown without one.
Last, the CPU time `gen/generate.py` takes to regenerate every header (budget 1 s).

A measurement, not a test: it prints tables and marks what is over budget, and exits
non-zero only when a compiler fails.

    budget.py [OUTDIR]      PMREGS_BENCH_RUNS=N sets the runs per median (default 9)
"""

import glob
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = os.path.join(ROOT, "include")
FAMILY_BUDGET, UMBRELLA_BUDGET, REGEN_BUDGET = 1.5, 2.5, 1.0
NODESC = " -DNO_DESC"          # a catalogue header compiled with PMREGS_NO_DESCRIPTIONS
COMPILERS = (("gcc", "c"), ("g++", "c++"))


def cpu_seconds(cmd):
    """CPU time (user + system) that cmd and its children spend; raises when cmd fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_cmd(cc, lang, src):
    return [cc, "-x", lang, "-O2", "-I", INCLUDE, "-c", src, "-o", os.devnull]


def ratio(cc, lang, base, src, runs):
    """Median CPU seconds of src and of base, compiled alternately, and their ratio."""
    tb, th = [], []
    for _ in range(runs):
        tb.append(cpu_seconds(compile_cmd(cc, lang, base)))
        th.append(cpu_seconds(compile_cmd(cc, lang, src)))
    mb, mh = statistics.median(tb), statistics.median(th)
    return mh, mb, mh / mb


def included_bytes(src):
    """Bytes of the pmregs headers src reads (the header itself and whatever it includes)."""
    deps = subprocess.run(["gcc", "-I", INCLUDE, "-M", src], check=True, capture_output=True, text=True).stdout
    files = {os.path.realpath(d) for d in deps.replace("\\\n", " ").split()[1:]}
    mine = os.path.realpath(os.path.join(INCLUDE, "pmregs"))
    return sum(os.path.getsize(f) for f in files if os.path.dirname(f) == mine)


def preprocessed_lines(src):
    out = subprocess.run(["gcc", "-E", "-P", "-I", INCLUDE, src], check=True, capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if line.strip())


def budget_of(name, families):
    if name == "pmregs.h":
        return UMBRELLA_BUDGET
    return FAMILY_BUDGET if name[:-2] in families else None


def compile_table(outdir, runs):
    families = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(ROOT, "spec", "*.yaml"))}
    # every family header and its tools companion, the umbrellas, and base.h (all of the hand-written part)
    headers = sorted(os.path.basename(h) for h in glob.glob(os.path.join(INCLUDE, "pmregs", "*.h")))
    catalogs = {f"{d.split(os.sep)[-2]}_{d.split(os.sep)[-1]}.h"
                for d in glob.glob(os.path.join(ROOT, "spec", "*", "*")) if os.path.isdir(d)}
    headers = [h for h in headers if h in ("pmregs.h", "tools.h", "base.h") or h[:-2] in families
               or (h.endswith("_tools.h") and h[:-8] in families) or h in catalogs]
    # the catalogues without their descriptions (PMREGS_NO_DESCRIPTIONS), for tools that need no text
    headers += [h + NODESC for h in sorted(catalogs) if h in headers]
    headers.sort(key=lambda h: (budget_of(h, families) is None, h == "pmregs.h", h))
    base = os.path.join(outdir, "budget_base.c")
    with open(base, "w") as f:
        f.write("#include <stdint.h>\n#include <stdio.h>\nint pmregs_budget_tu;\n")
    base_lines = preprocessed_lines(base)
    ccs = [(cc, lang) for cc, lang in COMPILERS if shutil.which(cc)]
    for cc, _ in COMPILERS:
        if not shutil.which(cc):
            print(f"({cc} not installed: its column is missing)")
    print(f"Compile cost of one include against a <stdint.h> + <stdio.h> translation unit ({base_lines} lines):")
    print(f"-O2 -c, CPU time, medians of {runs} alternating runs; budget {FAMILY_BUDGET}x per family header, "
          f"{UMBRELLA_BUDGET}x for pmregs.h")
    cols = "".join(f" {cc + ' ms':>9} {cc:>6}" for cc, _ in ccs)
    print(f"{'header':<24} {'bytes':>9} {'pp lines':>9}{cols}  budget")
    base_ms = {cc: [] for cc, _ in ccs}
    over = []
    for name in headers:
        src = os.path.join(outdir, f"budget_{name.replace(' ', '_')}.c")
        with open(src, "w") as f:
            if name.endswith(NODESC):
                f.write("#define PMREGS_NO_DESCRIPTIONS\n")
            f.write(f"#include <pmregs/{name.split()[0]}>\nint pmregs_budget_tu;\n")
        row = f"{name:<24} {included_bytes(src):>9} {preprocessed_lines(src):>9}"
        limit = budget_of(name, families)
        worst = 0.0
        for cc, lang in ccs:
            mh, mb, r = ratio(cc, lang, base, src, runs)
            base_ms[cc].append(mb)
            worst = max(worst, r)
            row += f" {mh * 1000:>9.0f} {r:>5.2f}x"
        if limit is None:
            row += "  -"
        elif worst <= limit:
            row += f"  {limit}x ok"
        else:
            row += f"  {limit}x OVER"
            over.append(name)
        print(row)
    print("baseline ms: " + ", ".join(f"{cc} {statistics.median(v) * 1000:.0f}" for cc, v in base_ms.items() if v))
    return over


def regen_time(runs=3, catalogs=False):
    """Median CPU time (user + system) of regenerating every header (or every catalogue header) into a
    scratch folder."""
    python = os.environ.get("PYTHON") or sys.executable
    specs = sorted(glob.glob(os.path.join(ROOT, "spec", "*.yaml")))
    if catalogs:
        specs = [s for s in specs if os.path.isdir(s[:-5])]
    with tempfile.TemporaryDirectory() as out:
        return statistics.median(
            cpu_seconds([python, os.path.join(ROOT, "gen", "generate.py"), "--out", out] +
                        (["--catalogs"] if catalogs else []) + specs) for _ in range(runs))


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else os.path.join(ROOT, "build", "bench")
    os.makedirs(outdir, exist_ok=True)
    runs = int(os.environ.get("PMREGS_BENCH_RUNS", "9"))
    try:
        over = compile_table(outdir, runs)
    except subprocess.CalledProcessError as e:
        print(f"compiler failed: {' '.join(e.cmd)}")
        return 1
    try:
        import yaml  # noqa: F401
        import jinja2  # noqa: F401
        t = regen_time()
        verdict = "ok" if t <= REGEN_BUDGET else "OVER"
        print(f"\nRegenerating every header: {t:.2f} s (CPU time, median of 3; budget {REGEN_BUDGET:.0f} s {verdict})")
        if t > REGEN_BUDGET:
            over.append("regeneration")
        t = regen_time(catalogs=True)
        print(f"Regenerating the catalogue headers (only when their data changes): {t:.2f} s (CPU time, median"
              " of 3; no budget)")
    except ImportError:
        print("\nRegeneration time: no PyYAML/Jinja2 in this Python (Debian: python3-yaml python3-jinja2)")
    print("over budget: " + (", ".join(over) if over else "nothing"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
