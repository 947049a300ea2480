#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""pmregs-gen: turn spec/*.yaml into include/pmregs/*.h.

    generate.py [--out DIR] [--check] [--selftest | --doc] SPEC.yaml...

Every spec is loaded and validated, and every header rendered, before any file
is written; a single error anywhere means no file is touched. Every output is
first written to a temporary file beside its target, then all are renamed into
place; if any step fails, the files already replaced are put back, so the
output directory is left as it was. With --check nothing is written: the exit
status says whether the headers are up to date.

Exit status: 0 done (or, with --check, up to date); 1 a spec error or a file
that cannot be read or written (with --check: some output differs from what
the specs generate); 2 a usage error (with --check: also a spec error or an
unreadable spec); 3 an internal error of the generator (please report it).
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pmregs_gen.diag import Diag, SpecError  # noqa: E402
from pmregs_gen.emit import render_headers, render_selftest, render_umbrella, render_version  # noqa: E402
from pmregs_gen.docs import base_files, doc_files, render_function_index, render_index, render_page  # noqa: E402
from pmregs_gen.model import load_family  # noqa: E402
from pmregs_gen.yamlnode import load as load_yaml, read_spec  # noqa: E402


class FileError(Exception):
    """A file or directory that cannot be read or written: one line naming the path."""

    def __init__(self, path, what, err=None):
        reason = f" ({err.strerror or err})" if isinstance(err, OSError) else (f" ({err})" if err else "")
        super().__init__(f"{path}: error: {what}{reason}")


def build(specs, selftests=False, docs=False):
    """Return {file name: text} for every header (or self-test, or reference page), or raise SpecError."""
    out, errors, titles, index = {}, [], {}, []
    for path in specs:
        try:
            try:
                fam = load_family(path, display=os.path.relpath(path))
                raw = read_spec(path)
            except OSError as e:
                raise FileError(path, "cannot read the spec", e) from None
            if os.path.basename(path) != f"{fam.name}.yaml":
                d = Diag()
                d.error(fam.node, "PMR031", f"family '{fam.name}' must live in spec/{fam.name}.yaml")
                d.check()
            titles[fam.name] = fam.title or fam.name
            if docs:
                out.update(render_page(fam, f"spec/{os.path.basename(path)}", raw, index=index))
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
        base, entries = base_files()
        out.update(base)
        out["index.md"] = render_function_index(index + entries)     # the families given (make: every one)
        return out
    # The umbrella names every family in the spec folder, so regenerating one
    # family never drops the others from it.
    spec_dir = os.path.dirname(os.path.abspath(specs[0]))
    names = sorted(f[:-5] for f in os.listdir(spec_dir) if f.endswith(".yaml"))
    out.update(render_umbrella(names))
    out["version.h"] = render_version()
    return out


def family_titles(specs, loaded):
    """[(name, title)] of every family in the spec folder; titles of specs not loaded are read from
    their YAML (a spec that cannot be read or parsed is listed by its name)."""
    spec_dir = os.path.dirname(os.path.abspath(specs[0]))
    out = []
    for f in sorted(os.listdir(spec_dir)):
        if not f.endswith(".yaml"):
            continue
        name = f[:-5]
        title = loaded.get(name)
        if title is None:
            try:
                t = load_yaml(os.path.join(spec_dir, f)).get("title")
                title = getattr(t, "text", None) or name
            except (OSError, SpecError, AttributeError):
                title = name
        out.append((name, " ".join(str(title).split())))
    return out


class Staged:
    """Replace a set of files all together or not at all.

    write() puts each new text in a temporary file beside its target; commit()
    renames them all into place, keeping a hard link to every file it replaces
    so that a failure part-way puts every earlier target back; remove() marks
    files to delete at commit. On failure every temporary file and every
    directory made here is removed again."""

    def __init__(self):
        self.temps = []          # (temporary path, target path)
        self.removals = []
        self.made_dirs = []

    def makedirs(self, d):
        d = d or "."
        todo = []
        while not os.path.isdir(d):
            if os.path.lexists(d):
                raise FileError(d, "is not a directory")
            todo.append(d)
            parent = os.path.dirname(d)
            if parent == d or not parent:
                break
            d = parent
        for x in reversed(todo):
            try:
                os.mkdir(x)
            except OSError as e:
                raise FileError(x, "cannot create the directory", e) from None
            self.made_dirs.append(x)

    def write(self, path, text):
        d = os.path.dirname(path) or "."
        self.makedirs(d)
        if os.path.isdir(path):
            raise FileError(path, "is a directory, not a file that can be replaced")
        try:
            fd, tmp = tempfile.mkstemp(prefix=".pmregs-", dir=d)
        except OSError as e:
            raise FileError(d, "cannot write in the output directory", e) from None
        self.temps.append((tmp, path))
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.chmod(tmp, 0o644)
        except OSError as e:
            raise FileError(path, "cannot write", e) from None

    def remove(self, path):
        self.removals.append(path)

    def commit(self):
        done = []                # (target, backup link or None)
        try:
            for tmp, path in self.temps:
                backup = None
                if os.path.lexists(path):
                    backup = self._link(path)
                done.append((path, backup))
                os.replace(tmp, path)
            for path in self.removals:
                done.append((path, self._link(path)))
                os.unlink(path)
        except OSError as e:
            failed = e.filename or (self.temps[len(done) - 1][1] if done else "")
            for path, backup in reversed(done):
                try:
                    if backup is not None:
                        os.replace(backup, path)
                        if os.path.lexists(backup):    # rename() of two links to one file does nothing
                            os.unlink(backup)
                    elif os.path.lexists(path) and not os.path.isdir(path):
                        os.unlink(path)
                except OSError:
                    pass
            self.abort()
            raise FileError(failed, "cannot replace the file; nothing was changed", e) from None
        for _, backup in done:
            if backup is not None:
                os.unlink(backup)
        self.temps, self.made_dirs = [], []

    @staticmethod
    def _link(path):
        d = os.path.dirname(path) or "."
        for k in range(100):
            b = os.path.join(d, f".pmregs-old-{os.getpid()}-{k}-{os.path.basename(path)}")
            try:
                os.link(path, b)
                return b
            except FileExistsError:
                continue
        raise FileExistsError(path)

    def abort(self):
        for tmp, _ in self.temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        for d in reversed(self.made_dirs):
            try:
                os.rmdir(d)
            except OSError:
                pass
        self.temps, self.made_dirs = [], []


def same_text(path, text):
    """Whether the file at path holds exactly text."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read() == text
    except (OSError, UnicodeDecodeError):
        return False


def page_families(files):
    """The families whose reference page is among the doc files."""
    return [n[:-3] for n in files if n.endswith(".md") and "/" not in n
            and n not in ("README.md", "index.md", "descriptors.md")]


def check(out, docs, files, spec_families=None):
    """--check: name every output that differs; exit status 1 if any does."""
    stale = []
    for name, text in sorted(files.items()):
        path = os.path.join(out, name)
        if not same_text(path, text):
            stale.append(path)
    for p in stale:
        print(f"{p}: differs from what the specs generate", file=sys.stderr)
    extra = []
    if docs:
        extra = [os.path.join(out, f) for f in doc_files(out, page_families(files), spec_families) if f not in files]
        for p in extra:
            print(f"{p}: no longer generated by the specs (remove it)", file=sys.stderr)
    return 1 if stale or extra else 0


def write(out, docs, files, spec_families=None):
    """Write every file, or none."""
    st = Staged()
    try:
        st.makedirs(out)
        for name, text in sorted(files.items()):
            if same_text(os.path.join(out, name), text):
                continue        # unchanged: its file time stays, so make rebuilds nothing that uses it
            st.write(os.path.join(out, name), text)
        if docs:
            # diagrams of layouts and man pages of functions that no longer exist
            for f in doc_files(out, page_families(files), spec_families):
                if f not in files:
                    st.remove(os.path.join(out, f))
        st.commit()
    except BaseException:
        st.abort()
        raise
    return 0


def run(args):
    bad = 2 if args.check else 1
    for p in args.specs:
        if not os.path.isfile(p):
            what = ("is a directory, not a spec file" if os.path.isdir(p) else
                    "is not a regular file" if os.path.exists(p) else "no such spec file")
            print(f"{p}: error: {what}", file=sys.stderr)
            return bad
    out = args.out or ("doc" if args.doc else "include/pmregs")
    if os.path.lexists(out) and not os.path.isdir(out):
        print(f"{out}: error: --out must name a directory, and this is a file", file=sys.stderr)
        return bad
    try:
        files = build(args.specs, selftests=args.selftest, docs=args.doc)
    except SpecError as e:
        for d in e.errors:
            print(d, file=sys.stderr)
        return bad
    except FileError as e:
        print(e, file=sys.stderr)
        return bad
    spec_dir = os.path.dirname(os.path.abspath(args.specs[0]))
    spec_families = sorted(f[:-5] for f in os.listdir(spec_dir) if f.endswith(".yaml"))
    if args.check:
        return check(out, args.doc, files, spec_families)
    try:
        return write(out, args.doc, files, spec_families)
    except FileError as e:
        print(e, file=sys.stderr)
        return 1


def main(argv=None):
    doc = __doc__.split("\n\n")
    ap = argparse.ArgumentParser(prog="pmregs-gen", description=doc[0].split(": ", 1)[1],
                                 epilog=doc[-1].strip(), formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=None, help="output directory (default: include/pmregs, or doc with --doc)")
    ap.add_argument("--check", action="store_true", help="only report headers that differ from the specs")
    ap.add_argument("--selftest", action="store_true", help="write the generated self-test programs instead")
    ap.add_argument("--doc", action="store_true",
                    help="write the reference pages instead (FAMILY.md, FAMILY/LAYOUT.svg, README.md)")
    ap.add_argument("specs", nargs="+", help="family spec files")
    args = ap.parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        print("pmregs-gen: interrupted; no file was changed", file=sys.stderr)
        return 130
    except Exception as e:     # a bug: say so in one line, never a traceback
        where = ""
        tb = e.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        msg = " ".join(str(e).split())[:200]
        print(f"pmregs-gen: internal error{where}: {type(e).__name__}: {msg}; no file was changed"
              " (please report this with the spec that caused it)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
