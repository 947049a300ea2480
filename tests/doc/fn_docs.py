#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Every public function has its own description, the one the reference pages and man pages print.

    fn_docs.py SPEC...

For each family, every function the headers define (static inline, PMREGS_HOT or PMREGS_NOINLINE, and every
function-like macro named pmregs_...; not internal helpers, named pmregs_x__y) must have a description
in the generator's record of them (docs.header_api()), taken from its own comment (a block comment
right above it, not the comment ending the line before nor a section banner) or from its construct's
sentence for that kind of name.
Where the function comes from a spec item with a doc string (a function, a matcher, a range cover),
its description must be that item's, not a neighbour's. The same holds for the functions of every
other header in include/pmregs (the base headers and any other header the folder holds, found by
listing it): each needs a comment of its own. A failure names the header, the function and what is
wrong.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))

from pmregs_gen import capi, docs  # noqa: E402
from pmregs_gen.emit import HeaderView  # noqa: E402
from pmregs_gen.model import load_family  # noqa: E402
from pmregs_gen.yamlnode import read_spec  # noqa: E402

PUBLIC = re.compile(r"^(?:static inline|PMREGS_HOT|PMREGS_NOINLINE)[^(;{}]*?\b(pmregs_\w+)\(|^#define (pmregs_\w+)\(", re.M)


def words(text):
    return " ".join(re.sub(r"[`*]", "", text).split())


def header_names(path):
    with open(path, encoding="utf-8") as f:
        return [a or b for a, b in PUBLIC.findall(f.read()) if docs.public(a or b)]


def family_problems(spec):
    fam = load_family(spec, display=os.path.relpath(spec, ROOT))
    raw = read_spec(spec)
    rel = f"spec/{os.path.basename(spec)}"
    text = docs.header_api(fam, rel, raw)["_fn_docs"]
    problems, names = [], []
    for h in (f"{fam.name}.h", f"{fam.name}_tools.h"):
        names += [(h, n) for n in header_names(os.path.join(ROOT, "include", "pmregs", h))]
    for h, n in names:
        if n not in text:
            problems.append(f"include/pmregs/{h}: {n}: not in the generator's record of the {fam.name} headers")
        elif not text[n].strip():
            problems.append(f"include/pmregs/{h}: {n}: no description (a comment right above it, or its "
                            f"construct's sentence in the generator; {rel})")
    # functions made from spec items carry the item's own doc string
    hv = HeaderView(fam, rel, raw)
    owned = [(f["name"], " ".join(f["doc"]) if isinstance(f["doc"], list) else f["doc"])
             for f in getattr(hv, "functions", []) or []]
    owned += [(m["name"], " ".join(m["doc"])) for m in getattr(hv, "matchers", []) or []]
    owned += [(c["name"], " ".join(c["doc"])) for c in getattr(hv, "range_covers", []) or []]
    for name, doc in owned:
        want = words(doc)[:60]
        if want and want not in words(text.get(name, "")):
            problems.append(f"{name}: its description is not its spec item's ({want!r}...): "
                            f"{words(text.get(name, ''))[:80]!r}")
    return problems, len(names)


def base_problems():
    # every header that is not a family's own, found by listing the folder (docs.other_headers())
    problems, n = [], 0
    for h in docs.other_headers():
        with open(os.path.join(ROOT, "include", "pmregs", h), encoding="utf-8") as f:
            src = f.read()
        # each function's comment as capi.functions() reads it (capi.doc_above() where its definition
        # starts), without the rest of what it reads: the body and the codes it returns, which for the
        # catalogue headers' one function is the whole catalogue (x86_events.h: 2 MB, about a second)
        fns = {m.group(3): capi.doc_above(src, m.start()) for m in capi._FN.finditer(src)}
        for name in header_names(os.path.join(ROOT, "include", "pmregs", h)):
            n += 1
            doc = fns.get(name)
            if doc is None or not doc.strip():
                problems.append(f"include/pmregs/{h}: {name}: no comment of its own right above it "
                                "(write one: the index and its manual page print it)")
    return problems, n


def main(argv):
    problems, total = base_problems()
    for spec in argv:
        p, n = family_problems(spec)
        problems += p
        total += n
    for p in problems:
        print(p)
    print(f"{total} public functions and function-like macros: "
          + ("each has its own description" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
