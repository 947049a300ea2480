#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""pmregs-gen: turn spec/*.yaml into include/pmregs/*.h.

    generate.py [--out DIR] [--check] [--selftest | --doc] SPEC.yaml...

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
from pmregs_gen.emit import render_headers, render_selftest, render_umbrella, render_version  # noqa: E402
from pmregs_gen.docs import doc_files, render_index, render_page  # noqa: E402
from pmregs_gen.model import load_family  # noqa: E402


def build(specs, selftests=False, docs=False):
    """Return {file name: text} for every header (or self-test, or reference page), or raise SpecError."""
    out, errors, titles = {}, [], {}
    for path in specs:
        try:
            fam = load_family(path, display=os.path.relpath(path))
            with open(path, "rb") as f:
                raw = f.read()
            if os.path.basename(path) != f"{fam.name}.yaml":
                d = Diag()
                d.error(fam.node, "PMR031", f"family '{fam.name}' must live in spec/{fam.name}.yaml")
                d.check()
            titles[fam.name] = fam.title or fam.name
            if docs:
                out.update(render_page(fam, f"spec/{os.path.basename(path)}", raw))
            elif selftests:
                out[f"selftest_{fam.name}.c"] = render_selftest(fam, f"spec/{os.path.basename(path)}", raw)
            else:
                out.update(render_headers(fam, f"spec/{os.path.basename(path)}", raw))
        except SpecError as e:
            errors += e.errors
    if errors:
        raise SpecError(errors)
    if selftests:
        return out
    if docs:
        out["README.md"] = render_index(family_titles(specs, titles))
        return out
    # The umbrella names every family in the spec folder, so regenerating one
    # family never drops the others from it.
    spec_dir = os.path.dirname(os.path.abspath(specs[0]))
    names = sorted(f[:-5] for f in os.listdir(spec_dir) if f.endswith(".yaml"))
    out.update(render_umbrella(names))
    out["version.h"] = render_version()
    return out


def family_titles(specs, loaded):
    """[(name, title)] of every family in the spec folder; titles of specs not loaded are read from the YAML."""
    import yaml
    spec_dir = os.path.dirname(os.path.abspath(specs[0]))
    out = []
    for f in sorted(os.listdir(spec_dir)):
        if not f.endswith(".yaml"):
            continue
        name = f[:-5]
        title = loaded.get(name)
        if title is None:
            with open(os.path.join(spec_dir, f), encoding="utf-8") as fh:
                title = (yaml.safe_load(fh) or {}).get("title") or name
        out.append((name, " ".join(str(title).split())))
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
    ap.add_argument("--out", default=None, help="output directory (default: include/pmregs, or doc with --doc)")
    ap.add_argument("--check", action="store_true", help="only report headers that differ from the specs")
    ap.add_argument("--selftest", action="store_true", help="write the generated self-test programs instead")
    ap.add_argument("--doc", action="store_true",
                    help="write the reference pages instead (FAMILY.md, FAMILY/LAYOUT.svg, README.md)")
    ap.add_argument("specs", nargs="+", help="family spec files")
    args = ap.parse_args(argv)
    try:
        headers = build(args.specs, selftests=args.selftest, docs=args.doc)
        args.out = args.out or ("doc" if args.doc else "include/pmregs")
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
        extra = []
        if args.doc:
            names = [n for n in headers if n.endswith(".md") and "/" not in n and n != "README.md"]
            extra = [os.path.join(args.out, f) for f in doc_files(args.out, [n[:-3] for n in names])
                     if f not in headers]
            for p in extra:
                print(f"{p}: no longer generated by the specs (remove it)", file=sys.stderr)
        return 1 if stale or extra else 0
    os.makedirs(args.out, exist_ok=True)
    for name, text in sorted(headers.items()):
        path = os.path.join(args.out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomic(path, text)
    if args.doc:
        # diagrams of layouts that no longer exist
        names = [n[:-3] for n in headers if n.endswith(".md") and "/" not in n and n != "README.md"]
        for f in doc_files(args.out, names):
            if f not in headers:
                os.unlink(os.path.join(args.out, f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
