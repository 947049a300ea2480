# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Compile the C in the reference pages: every ```c block of each page given.

A block with a main() is an example program: it must compile on its own, with
its own #include lines, and link. The other blocks (function signatures) of a
page are compiled together after the page's #include line, so each must match
the header's definition exactly; the page names its headers as
`#include <pmregs/X.h>`.

Each example is checked on its own (-fsyntax-only: the front end's diagnostics;
examples that have the same #include lines together, see syntax_alone()), and
one run per page compiles and links the page's examples
(each main renamed) and signatures in one translation unit (the diagnostics of
code generation too), so the headers' code is generated once per page. When
that fails (a clash between two examples, or a broken block), each example is
compiled and linked on its own and the signatures by themselves, to name the
block at fault.

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


def compile_c(cc, src, out, mode, quiet=False):
    """mode: "link" (a program), "obj" (-c) or "syntax" (-fsyntax-only); quiet: no messages on failure."""
    if mode == "syntax":
        cmd = cc + ["-fsyntax-only", src]
    else:
        cmd = cc + [src, "-o", out] + ([] if mode == "link" else ["-c"])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode and not quiet:
        print(f"FAILED: {' '.join(cmd)}\n{r.stdout}")
    return r.returncode == 0


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def page_unit(stem, progs, sig_text):
    """The page's examples, each main() renamed, then its signatures, and a main() calling every example."""
    parts, names = [], []
    for i, b in enumerate(progs):
        name = f"pmregs_doc_{stem}_example{i}"
        names.append(name)
        parts.append(renamed(name, b))
    parts.append(sig_text)
    calls = "".join(f"    rc |= {n}();\n" for n in names)
    parts.append("int main(void);\nint main(void)\n{\n    int rc = 0;\n" + calls + "    return rc;\n}\n")
    return "".join(parts)


def directives(block):
    """The preprocessor lines of an example, in order: examples with the same ones see the same headers."""
    return tuple(ln.strip() for ln in block.split("\n") if ln.lstrip().startswith("#"))


def renamed(name, block):
    return f"#define main {name}\n{block}#undef main\n"


def syntax_alone(cc, out, stem, progs, srcs):
    """Each example compiles on its own, with only its own #include lines (-fsyntax-only). Examples with
    the same preprocessor lines see the same headers, so three or more of them are checked in one
    translation unit (each main renamed), twice: in page order and in reverse order, so that an example
    that uses what only another one defines comes before it in one of the two and fails. When either
    fails (two examples may also clash), each is compiled alone, which decides and names it."""
    groups = {}
    for i, b in enumerate(progs):
        groups.setdefault(directives(b), []).append(i)
    ok = True
    for members in groups.values():
        if len(members) >= 3:
            together = True
            for order, tag in ((members, "fwd"), (members[::-1], "rev")):
                unit = os.path.join(out, f"{stem}_alone{members[0]}_{tag}.c")
                write(unit, "".join(renamed(f"pmregs_doc_{stem}_example{i}", progs[i]) for i in order))
                together = together and compile_c(cc, unit, None, "syntax", quiet=True)
            if together:
                continue
        ok &= all([compile_c(cc, srcs[i], None, "syntax") for i in members])
    return ok


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
        progs = [b for b in cs if "main(" in b]
        sigs = [b for b in cs if "main(" not in b]
        incs = sorted(set(INCLUDE.findall(text)))
        sig_text = "".join(f"#include <{h}>\n" for h in incs) + "".join(sigs) if sigs else ""
        srcs = []
        for i, b in enumerate(progs):
            src = os.path.join(out, f"{stem}_ex{i}.c")
            write(src, b)
            srcs.append(src)
        n_prog += len(progs)
        n_sig += len(sigs)
        # each example on its own: the front end's diagnostics, with only its own #include lines
        alone = syntax_alone(cc, out, stem, progs, srcs)
        sig_src = os.path.join(out, f"{stem}_signatures.c")
        if not alone:
            ok = False
            if sigs:
                write(sig_src, sig_text)
                compile_c(cc, sig_src, sig_src[:-2] + ".o", "obj")
            continue
        # the page in one translation unit, linked when it has examples
        unit = os.path.join(out, f"{stem}_page.c")
        write(unit, page_unit(stem, progs, sig_text) if progs else sig_text)
        if compile_c(cc, unit, unit[:-2] + ("" if progs else ".o"), "link" if progs else "obj", quiet=True):
            continue
        print(f"{page}: not in one translation unit ({unit}); each block on its own:")
        # the block at fault (or two examples that clash): each example compiled and linked on its own,
        # the signatures by themselves
        for src in srcs:
            ok &= compile_c(cc, src, src[:-2], "link")
        if sigs:
            write(sig_src, sig_text)
            ok &= compile_c(cc, sig_src, sig_src[:-2] + ".o", "obj")
    if not n_prog + n_sig:
        print("no C block found")
        return 2
    print(f"{n_prog} example programs and {n_sig} signatures compiled" if ok else "some blocks failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
