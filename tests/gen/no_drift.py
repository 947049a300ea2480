#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Whether the committed generated files are what the specs generate, in one Python.

    no_drift.py DIR SPEC...

Runs the generator's --check for the headers (include/pmregs), the reference pages (doc) and the
catalogue headers (include/pmregs) one after the other in this process, so that the generator is
imported and its templates compiled once for the three. Each comparison is the generator's own main()
with the arguments `make` would check with, so it says what `generate.py --check` says; its messages and
exit status are written to DIR/headers.log and DIR/headers.rc (docs, catalogs likewise), for the suite's
check of each. The exit status is 0 once the three results are written.

A spec the headers' check has read is not read again for the pages': the generator's load_family() is
remembered here by its arguments and the spec's bytes (the catalogues' check reads the specs with their
data, a different load). The generator renders from a family without changing it, so the pages are the
same text (tests/gen/test_docs.py: a page rendered after the headers from one family is the page alone).
"""

import contextlib
import io
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))

import generate  # noqa: E402


def remember_families(load):
    """load_family() that gives the family it gave before for the same arguments and spec bytes."""
    seen = {}

    def load_once(path, display=None, catalogs=False):
        with open(path, "rb") as f:
            raw = f.read()
        key = (os.path.abspath(path), display, catalogs)
        if key not in seen or seen[key][0] != raw:
            seen[key] = (raw, load(path, display=display, catalogs=catalogs))
        return seen[key][1]
    return load_once


PARTS = (("headers", ["--check", "--out", "include/pmregs"]),
         ("docs", ["--doc", "--check", "--out", "doc"]),
         ("catalogs", ["--catalogs", "--check", "--out", "include/pmregs"]))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    d, specs = argv[0], argv[1:]
    os.makedirs(d, exist_ok=True)
    generate.load_family = remember_families(generate.load_family)
    for name, args in PARTS:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
            try:
                rc = generate.main(args + specs)
            except SystemExit as e:           # a usage error: argparse exits
                rc = e.code if isinstance(e.code, int) else 2
        with open(os.path.join(d, f"{name}.log"), "w", encoding="utf-8") as f:
            f.write(err.getvalue())
        with open(os.path.join(d, f"{name}.rc"), "w", encoding="ascii") as f:
            f.write(f"{rc}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
