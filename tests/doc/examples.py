# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Compile the C in the reference pages: every ```c block of each page given.

A block with a main() is an example program: compiled and linked on its own.
The other blocks (function signatures) of a page are compiled together in one
translation unit after the page's #include line, so each must match the
header's definition exactly; the page names its headers as `#include <pmregs/X.h>`.

    examples.py OUTDIR "CC FLAGS..." PAGE.md...

Exit status 1 when any block fails to compile (its file and the compiler's
messages are printed), 0 when all compile; 2 when a page has no C block at all.
"""

import os
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"^```c\n(.*?)^```", re.S | re.M)
INCLUDE = re.compile(r"`#include <(pmregs/\w+\.h)>`")


def blocks(text):
    return [m.group(1) for m in BLOCK.finditer(text)]


def compile_c(cc, src, out, link):
    cmd = cc + [src, "-o", out] + ([] if link else ["-c"])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        print(f"FAILED: {' '.join(cmd)}\n{r.stdout}")
    return r.returncode == 0


def main(argv):
    out, cc, pages = argv[0], shlex.split(argv[1]), argv[2:]
    os.makedirs(out, exist_ok=True)
    ok, n_prog, n_sig = True, 0, 0
    for page in pages:
        text = open(page, encoding="utf-8").read()
        cs = blocks(text)
        if not cs:
            continue
        stem = os.path.splitext(os.path.basename(page))[0]
        sigs = [b for b in cs if "main(" not in b]
        for i, b in enumerate(b for b in cs if "main(" in b):
            src = os.path.join(out, f"{stem}_ex{i}.c")
            with open(src, "w", encoding="utf-8") as f:
                f.write(b)
            ok &= compile_c(cc, src, src[:-2], True)
            n_prog += 1
        if sigs:
            incs = sorted(set(INCLUDE.findall(text)))
            src = os.path.join(out, f"{stem}_signatures.c")
            with open(src, "w", encoding="utf-8") as f:
                f.write("".join(f"#include <{h}>\n" for h in incs) + "".join(sigs))
            ok &= compile_c(cc, src, src[:-2] + ".o", False)
            n_sig += len(sigs)
    if not n_prog + n_sig:
        print("no C block found")
        return 2
    print(f"{n_prog} example programs and {n_sig} signatures compiled" if ok else "some blocks failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
