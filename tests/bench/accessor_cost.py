#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Zero-overhead check for `make bench`: instruction counts of every generated _get/_set
next to a hand-written shift-and-mask of the same field, with gcc and clang at -O2.
(What including a header costs is budget.py's table.)

Prints tables; exits non-zero only if a tool is missing. Excess instructions are
listed as regressions, never asserted: this is a measurement, not a test.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))

from pmregs_gen.model import load_family  # noqa: E402


def mask(w):
    return (1 << w) - 1


def hand_get(F, T, W):
    terms = []
    for lo, w, off in F.part_shifts():
        t = f"((v >> {lo}) & {mask(w):#x}u)" if w < W else f"(v >> {lo})"
        terms.append(f"({T})({t} << {off})" if off else t)
    body = " | ".join(terms)
    if F.signed:
        sign = 1 << (F.width - 1)
        return f"(int64_t)((uint64_t)({body}) ^ {sign:#x}u) - (int64_t){sign:#x}"
    return body


def hand_set(F, T, W):
    keep = f"v & ({T})~({T}){F.mask:#x}u"
    parts = []
    for lo, w, off in F.part_shifts():
        xs = f"((uint64_t)x >> {off})" if off else "(uint64_t)x"
        parts.append(f"(({xs} & {mask(w):#x}u) << {lo})")
    return f"({T})(({keep}) | ({T})({' | '.join(parts)}))"


def source(fam):
    lines = [f"#include <pmregs/{fam.name}.h>"]
    pairs = []
    for L in fam.layouts:
        T, W = f"uint{L.width}_t", L.width
        for F in L.user_fields:
            XT = "int64_t" if F.signed else T
            base = f"pmregs_{fam.name}_{L.name}_{F.name}"
            g, h = f"gen_{L.name}__{F.name}", f"hand_{L.name}__{F.name}"
            lines.append(f"{XT} {g}_get({T} v) {{ return {base}_get(v); }}")
            lines.append(f"{XT} {h}_get({T} v) {{ return {hand_get(F, T, W)}; }}")
            lines.append(f"{T} {g}_set({T} v, {XT} x) {{ return {base}_set(v, x); }}")
            lines.append(f"{T} {h}_set({T} v, {XT} x) {{ return {hand_set(F, T, W)}; }}")
            pairs += [(f"{L.name}.{F.name} get", f"{g}_get", f"{h}_get"),
                      (f"{L.name}.{F.name} set", f"{g}_set", f"{h}_set")]
    return "\n".join(lines) + "\n", pairs


def count_instructions(obj):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True,
                         check=True).stdout
    counts, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            cur = m.group(1)
            counts[cur] = 0
        elif cur and re.match(r"^\s+[0-9a-f]+:\s+\S", line):
            ins = line.split(":", 1)[1].strip()
            # alignment padding after the return is not part of the function's work
            if ins and "nop" not in ins and ins not in ("xchg   %ax,%ax", "int3", "endbr64"):
                counts[cur] += 1
    return counts


def accessor_table(outdir):
    specs = sorted(glob.glob(os.path.join(ROOT, "spec", "*.yaml")))
    print("Accessor instruction counts at -O2: generated vs hand-written shift-and-mask")
    print(f"{'family':<10} {'compiler':<8} {'accessors':>9} {'equal':>6} {'fewer':>6} {'more':>5}  ratio(gen/hand)")
    regressions = []
    for spec in specs:
        fam = load_family(spec)
        src, pairs = source(fam)
        path = os.path.join(outdir, f"acc_{fam.name}.c")
        with open(path, "w") as f:
            f.write(src)
        for cc in ("gcc", "clang"):
            if not shutil.which(cc):
                print(f"{fam.name:<10} {cc:<8} (not installed)")
                continue
            obj = path[:-2] + f".{cc}.o"
            subprocess.run([cc, "-std=c99", "-O2", "-fno-asynchronous-unwind-tables", "-I", os.path.join(ROOT, "include"),
                            "-c", path, "-o", obj], check=True)
            n = count_instructions(obj)
            eq = fewer = more = 0
            tg = th = 0
            for what, g, h in pairs:
                ng, nh = n.get(g, 0), n.get(h, 0)
                tg, th = tg + ng, th + nh
                if ng == nh:
                    eq += 1
                elif ng < nh:
                    fewer += 1
                else:
                    more += 1
                    regressions.append(f"{fam.name} {cc} {what}: {ng} instructions, hand-written {nh}")
            ratio = tg / th if th else 0
            print(f"{fam.name:<10} {cc:<8} {len(pairs):>9} {eq:>6} {fewer:>6} {more:>5}  {ratio:.3f}")
    if regressions:
        print("\nREGRESSION: generated accessors longer than the hand-written ones:")
        for r in regressions:
            print("  " + r)
    else:
        print("no generated accessor is longer than its hand-written equivalent")


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bench")
    os.makedirs(outdir, exist_ok=True)
    if not shutil.which("objdump"):
        print("objdump (binutils) is needed for instruction counts")
        return 1
    accessor_table(outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
