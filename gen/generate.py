#!/usr/bin/env python3
"""pmregs-gen: turn spec/*.yaml into include/pmregs/*.h.

    generate.py [--out DIR] [--check] SPEC.yaml...

Every spec is loaded and validated, and every header rendered, before any file
is written; a single error anywhere means no file is touched. Files are
replaced atomically (write to a temporary file, then rename). With --check
nothing is written: the exit status says whether the headers are up to date.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pmregs_gen.diag import Diag, SpecError  # noqa: E402
from pmregs_gen.emit import render_family, render_selftest, render_umbrella  # noqa: E402
from pmregs_gen.model import load_family  # noqa: E402


def build(specs, selftests=False):
    """Return {file name: text} for every header (or self-test), or raise SpecError."""
    out, errors = {}, []
    for path in specs:
        try:
            fam = load_family(path, display=os.path.relpath(path))
            with open(path, "rb") as f:
                raw = f.read()
            if os.path.basename(path) != f"{fam.name}.yaml":
                d = Diag()
                d.error(fam.node, "PMR031", f"family '{fam.name}' must live in spec/{fam.name}.yaml")
                d.check()
            if selftests:
                out[f"selftest_{fam.name}.c"] = render_selftest(fam, f"spec/{os.path.basename(path)}", raw)
            else:
                out[f"{fam.name}.h"] = render_family(fam, f"spec/{os.path.basename(path)}", raw)
        except SpecError as e:
            errors += e.errors
    if errors:
        raise SpecError(errors)
    if selftests:
        return out
    # The umbrella names every family in the spec folder, so regenerating one
    # family never drops the others from it.
    spec_dir = os.path.dirname(os.path.abspath(specs[0]))
    names = sorted(f[:-5] for f in os.listdir(spec_dir) if f.endswith(".yaml"))
    out["pmregs.h"] = render_umbrella(names)
    return out


def write_atomic(path, text):
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=".pmregs-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(prog="pmregs-gen", description=__doc__.split("\n")[1])
    ap.add_argument("--out", default="include/pmregs", help="output directory (default: include/pmregs)")
    ap.add_argument("--check", action="store_true", help="only report headers that differ from the specs")
    ap.add_argument("--selftest", action="store_true", help="write the generated self-test programs instead")
    ap.add_argument("specs", nargs="+", help="family spec files")
    args = ap.parse_args(argv)
    try:
        headers = build(args.specs, selftests=args.selftest)
    except SpecError as e:
        for d in e.errors:
            print(d, file=sys.stderr)
        return 1
    if args.check:
        stale = []
        for name, text in sorted(headers.items()):
            path = os.path.join(args.out, name)
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    same = f.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                stale.append(path)
        for p in stale:
            print(f"{p}: differs from what the specs generate", file=sys.stderr)
        return 1 if stale else 0
    os.makedirs(args.out, exist_ok=True)
    for name, text in sorted(headers.items()):
        write_atomic(os.path.join(args.out, name), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
