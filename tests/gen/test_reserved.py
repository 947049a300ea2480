# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The names and files pmregs owns: the reserved table (gen/pmregs_gen/reserved.py) covers what the
hand-written headers define, every name a generated header defines is in its family's symbol table,
and a spec that takes a reserved name, or two specs that take one name, get located errors and
change nothing."""

import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generate  # noqa: E402
import genrun  # noqa: E402
from pmregs_gen import reserved  # noqa: E402
from pmregs_gen.emit import default_reserved, render_headers  # noqa: E402
from pmregs_gen.outputs import TEST_SIGNAL_ENV  # noqa: E402
from pmregs_gen.yamlnode import read_spec  # noqa: E402
import families  # noqa: E402

INC = os.path.join(ROOT, "include", "pmregs")


def spec_text(family, extra=""):
    return f'family: {family}\ntitle: t\nlayouts:\n  a: {{fields: [{{name: x, bits: "63:0"}}]}}\n{extra}'


# the generator in a process of its own, forked from this one (tests/gen/genrun.py): exit status, signals
# and standard error as the script's, without starting Python and compiling the templates for every run
run = genrun.run


def tree(d):
    """{relative path: bytes} of every file under d (a symbolic link as its target text)."""
    out = {}
    for base, dirs, files in os.walk(d):
        for f in files + [x for x in dirs if os.path.islink(os.path.join(base, x))]:
            p = os.path.join(base, f)
            rel = os.path.relpath(p, d)
            if os.path.islink(p):
                out[rel] = b"-> " + os.readlink(p).encode()
            else:
                with open(p, "rb") as fh:
                    out[rel] = fh.read()
    return out


def hand_written():
    return [p for p in sorted(glob.glob(os.path.join(INC, "*.h"))) if not reserved.is_generated(p)]


def generated_macros():
    """The macros the generated headers define in their text."""
    names = set()
    for p in sorted(glob.glob(os.path.join(INC, "*.h"))):
        if reserved.is_generated(p):
            with open(p, encoding="utf-8") as f:
                names.update(re.findall(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)", f.read(), re.M))
    return names


def top_level_decls(data):
    """[(loc, kind, name, node)] of the declarations at the top of clang's -ast-dump=json output (bytes), in
    order: each one's "loc" object, "kind" and "name" (None without one), and a function that decodes the whole
    declaration. The dump is indented two spaces a level, so a top-level declaration is an object whose braces
    stand alone on a line at four spaces, and its own keys are at six (the nested objects' are deeper): those
    three keys are read where they stand, and only the declarations asked for are decoded (the tree is a
    hundred megabytes, nearly all of it the bodies of the headers' functions, which no check reads). A dump
    laid out otherwise is decoded whole."""
    starts = []
    k = data.find(b"\n    {\n")
    while k >= 0:
        starts.append(k + 5)
        k = data.find(b"\n    {\n", k + 6)
    if not starts:
        return [(n.get("loc", {}), n.get("kind"), n.get("name"), lambda n=n: n) for n in json.loads(data)["inner"]]

    def own(key, a, z):
        """The value of the declaration's own key at a..z, or None."""
        j = data.find(b'\n      "' + key + b'": ', a, z)
        if j < 0:
            return None
        j += len(key) + 11
        e = data.find(b'\n      "', j, z)            # the next key of its own,
        if e < 0:
            e = data.find(b"\n    }", j, z)             # or the end of the object
        return json.loads(data[j:e].rstrip().rstrip(b",").decode("utf-8"))

    out = []
    for i, a in enumerate(starts):
        z = starts[i + 1] if i + 1 < len(starts) else len(data)
        out.append((own(b"loc", a, z) or {}, own(b"kind", a, z), own(b"name", a, z),
                    lambda a=a, z=z: json.JSONDecoder().raw_decode(data[a:z].decode("utf-8"))[0]))
    return out


class Table(unittest.TestCase):
    """What the hand-written headers define, as compilers see it, is in the table."""

    def tu(self, d, lang):
        src = os.path.join(d, "tu." + ("c" if lang == "c" else "cc"))
        with open(src, "w") as f:
            f.write("".join(f'#include <pmregs/{os.path.basename(h)}>\n' for h in hand_written()))
        return src

    def test_macros(self):
        # gcc -dM lists every macro a translation unit ends with; those of the headers are the ones an
        # empty unit (with the same standard headers) does not have
        cc = shutil.which("gcc")
        if cc is None:
            self.skipTest("gcc not installed")
        table = default_reserved()
        with tempfile.TemporaryDirectory() as d:
            for lang, std in (("c", "-std=c99"), ("c++", "-std=c++11")):
                empty = os.path.join(d, "empty.c")
                with open(empty, "w") as f:
                    f.write("#include <stdint.h>\n#include <stddef.h>\n")

                def macros(src):
                    p = subprocess.run([cc, "-x", lang, std, "-dM", "-E", "-I", os.path.join(ROOT, "include"), src],
                                       capture_output=True, text=True, check=True)
                    return {ln.split()[1].split("(")[0] for ln in p.stdout.splitlines() if ln.startswith("#define ")}

                # a hand-written header that includes a generated one (etrace_decoder.h: etrace.h) brings the
                # family's macros along; those are the family's, not the table's
                mine = macros(self.tu(d, lang)) - macros(empty) - generated_macros()
                self.assertGreater(len(mine), 30)
                self.assertEqual(sorted(m for m in mine if m not in table.names), [], lang)

    def test_declarations(self):
        # clang's syntax tree: every function, typedef, tag and enumerator declared in the headers
        cc = shutil.which("clang")
        if cc is None:
            self.skipTest("clang not installed")
        table = default_reserved()
        with tempfile.TemporaryDirectory() as d:
            # the dump is written to a file and read back at once (a hundred megabytes through a pipe is
            # thousands of reads and a copy of the whole text into one string)
            dump = os.path.join(d, "ast.json")
            with open(dump, "wb") as f:
                p = subprocess.run([cc, "-std=c99", "-fsyntax-only", "-Xclang", "-ast-dump=json", "-I",
                                    os.path.join(ROOT, "include"), self.tu(d, "c")], stdout=f,
                                   stderr=subprocess.PIPE, text=True)
            self.assertEqual(p.returncode, 0, p.stderr[:2000])
            with open(dump, "rb") as f:
                data = f.read()
            names, tags, where = set(), set(), None
            hand = {os.path.abspath(h) for h in hand_written()}
            for loc, kind, name, node in top_level_decls(data):
                where = loc.get("file") or loc.get("expansionLoc", {}).get("file") or where
                if not where or os.path.abspath(where) not in hand:     # the generated headers' are their family's
                    continue
                if kind in ("FunctionDecl", "TypedefDecl", "VarDecl") and not name.startswith("__builtin"):
                    names.add(name)
                elif kind in ("RecordDecl", "EnumDecl"):
                    n = node()
                    if n.get("name"):
                        tags.add(n["name"])
                    names |= {e["name"] for e in n.get("inner", []) if e["kind"] == "EnumConstantDecl"}
        self.assertGreater(len(names), 50)
        self.assertEqual(sorted(x for x in names if x not in table.names), [])
        self.assertEqual(sorted(x for x in tags if x not in table.tags), [])

    def test_files(self):
        table = default_reserved()
        for h in hand_written():
            self.assertIsNotNone(table.file_owner(os.path.basename(h)), h)
        for f in ("pmregs.h", "tools.h", "version.h", "README.md", "readme.md"):
            self.assertIsNotNone(table.file_owner(f), f)
        self.assertIsNone(table.file_owner("x86.h"))      # generated: the family x86's own

    def test_generated_names_are_all_registered(self):
        # every identifier the rendered headers define is in the family's symbol table, so the
        # checks that run on the table (reserved names, other families) see every one
        specs = sorted(glob.glob(os.path.join(ROOT, "spec", "*.yaml")) +
                       glob.glob(os.path.join(ROOT, "tests", "specs", "good", "*.yaml")))
        for path in specs:
            fam = families.family(path)
            raw = read_spec(path)
            views = []                    # the view the headers were rendered from, its symbol table
            texts = render_headers(fam, f"spec/{os.path.basename(path)}", raw, views=views)
            hv, = views
            defined = set()
            for text in texts.values():
                ordinary, tags = reserved.c_definitions(text)
                defined |= set(ordinary) | set(tags)
            self.assertGreater(len(defined), 10, path)
            self.assertEqual(sorted(n for n in defined if n not in hv.sym.seen), [], path)

    def test_definitions(self):
        text = ("#define A 1\n#  define B(x) \\\n  (x)\nstatic inline int f(void)\n{\n\treturn g(1);\n}\n"
                "typedef int (*h_fn)(void);\ntypedef unsigned k_t;\nstruct s { int a; };\n"
                "enum e {\n\tE1 = 1, /* one, two */\n\tE2\n};\nPMREGS_HOT int m(int);\n"
                "/* #define NOT_ME 1\nstatic int nor_me(void); */\n")
        ordinary, tags = reserved.c_definitions(text)
        self.assertEqual(sorted(ordinary), ["A", "B", "E1", "E2", "f", "h_fn", "k_t", "m"])
        self.assertEqual(sorted(tags), ["e", "s"])


class Refused(unittest.TestCase):
    """Reserved names and clashes: one located error each, exit status 1, the output folder unchanged."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.spec = os.path.join(self.d, "spec")
        self.out = os.path.join(self.d, "out")
        os.makedirs(self.spec)
        os.makedirs(self.out)
        with open(os.path.join(self.out, "keep.h"), "w") as f:
            f.write("/* a hand-written header next to the generated ones */\n#define PMREGS_T_FOO 1\n"
                    "static inline int pmregs_t_bar(void) { return 0; }\n")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        p = os.path.join(self.spec, f"{name}.yaml")
        with open(p, "w") as f:
            f.write(text)
        return p

    def refused(self, specs, code, needle, line=None):
        before = tree(self.out)
        p = run("--out", self.out, *specs)
        self.assertEqual(p.returncode, 1, p.stderr)
        first = p.stderr.splitlines()[0]
        at = str(line) if line else r"\d+"
        self.assertRegex(first, rf"^\S+\.yaml:{at}:\d+: error\[{code}\]: ")
        self.assertIn(needle, first)
        self.assertNotIn("Traceback", p.stderr)
        self.assertEqual(tree(self.out), before)
        return p.stderr

    def test_family_names(self):
        for name in ("base", "base_core", "version", "pmregs", "tools", "base_plan", "keep"):
            self.refused([self.write(name, spec_text(name))], "PMR025", f"family '{name}' would write", 1)

    def test_a_hand_written_header_in_the_output_folder(self):
        self.refused([self.write("t", spec_text("t", "constants: {foo: 1}\n"))], "PMR025", "keep.h", 5)
        self.refused([self.write("t", spec_text("t", "functions:\n  - {name: bar, returns: u8, expr: '1'}\n"))],
                     "PMR025", "keep.h", 6)

    def test_names_of_base_headers_and_shared_outputs(self):
        self.refused([self.write("c", spec_text("c", "constants: {begin: 1}\n"))], "PMR025", "PMREGS_C_BEGIN")
        self.refused([self.write("inplace", spec_text("inplace", "constants: {slack: 1}\n"))], "PMR025",
                     "PMREGS_INPLACE_SLACK")
        self.refused([self.write("family", spec_text("family", "constants: {x: 1}\nfunctions:\n"
                                                     "  - {name: find, returns: u8, expr: '1'}\n"))],
                     "PMR025", "pmregs_family_find", 7)
        # a layout 'core' of family 'base'... is refused for the file; of family 'x', 'base_core' is fine
        self.assertEqual(run("--out", self.out, self.write("x", spec_text("x").replace("  a:", "  base_core:")))
                         .returncode, 0)

    def test_generated_tables(self):
        for t in ("layouts", "registers", "family", "samples", "streams", "tables", "register_descs"):
            spec = spec_text("t", f"tables:\n  {t}: {{columns: {{v: {{type: u8}}}}, rows: [{{name: r, v: 1}}]}}\n")
            self.refused([self.write("t", spec)], "PMR023", f"pmregs_t_{t}", 6)
        self.refused([self.write("t", spec_text("t", "constants: {family_init: 1}\n"))], "PMR023",
                     "PMREGS_T_FAMILY_INIT", 5)
        self.refused([self.write("t", spec_text("t", "constants: {tools_h: 1}\n"))], "PMR023", "PMREGS_T_TOOLS_H", 5)

    def test_two_families(self):
        a = self.write("a", spec_text("a").replace("  a:", "  b_c:"))
        ab = self.write("a_b", spec_text("a_b").replace("  a:", "  c:"))
        err = self.refused([a, ab], "PMR023", "PMREGS_A_B_C_", 4)
        self.assertIn("a_b.yaml:4:", err.splitlines()[0])
        self.assertIn("a.yaml:4:3", err.splitlines()[0])        # both locations
        # one family's tools header is another family's header
        self.refused([a, self.write("a_tools", spec_text("a_tools"))], "PMR023", "a_tools.h")
        # alone, each is fine (with no other spec in the folder that would write a_tools.h)
        os.unlink(os.path.join(self.spec, "a_tools.yaml"))
        self.assertEqual(run("--out", self.out, a).returncode, 0)
        # and a header generated earlier from another spec is not replaced either, spec folder or not
        self.refused([self.write("a_tools", spec_text("a_tools"))], "PMR025", "of family 'a' (spec/a.yaml)")
        os.rename(a, os.path.join(self.d, "a.yaml"))
        self.refused([self.write("a_tools", spec_text("a_tools"))], "PMR025", "generated from spec/a.yaml")

    def test_no_file_is_replaced_unless_generated(self):
        good = self.write("t", spec_text("t"))
        for name, content in (("pmregs.h", "/* mine */\n"), ("tools.h", "#define X 1\n"),
                              ("version.h", "/* hand-written */\n" * 20 + "/* Generated by pmregs-gen, but not at its top */\n")):
            p = os.path.join(self.out, name)
            with open(p, "w") as f:
                f.write(content)
            before = tree(self.out)
            r = run("--out", self.out, good)
            self.assertEqual(r.returncode, 1)
            self.assertRegex(r.stderr, rf"^\S*{name}: error: was not written by pmregs-gen")
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertEqual(tree(self.out), before)
            os.unlink(p)
        # a family's own header written by hand is a hand-written header: the family name is taken
        with open(os.path.join(self.out, "t_tools.h"), "w") as f:
            f.write("#define X 1\n")
        self.refused([good], "PMR025", "hand-written header t_tools.h", 1)
        os.unlink(os.path.join(self.out, "t_tools.h"))
        os.symlink("keep.h", os.path.join(self.out, "t.h"))
        r = run("--out", self.out, good)
        self.assertEqual((r.returncode, len(r.stderr.splitlines())), (1, 1), r.stderr)
        self.assertIn("symbolic link", r.stderr)
        os.unlink(os.path.join(self.out, "t.h"))
        self.assertEqual(run("--out", self.out, good).returncode, 0)     # now every target is free or generated
        self.assertEqual(run("--out", self.out, good).returncode, 0)     # and its own outputs are replaced

    def test_stale_diagrams_are_removed_only_when_generated(self):
        good = self.write("t", spec_text("t"))
        doc = os.path.join(self.d, "doc")
        self.assertEqual(run("--doc", "--out", doc, good).returncode, 0)
        mine = os.path.join(doc, "t", "mine.svg")
        with open(mine, "w") as f:
            f.write("<svg/>\n")
        shutil.copy(os.path.join(doc, "t", "a.svg"), os.path.join(doc, "t", "old.svg"))
        r = run("--doc", "--check", "--out", doc, good)
        self.assertIn("old.svg: no longer generated", r.stderr)
        self.assertNotIn("mine.svg", r.stderr)
        self.assertEqual(run("--doc", "--out", doc, good).returncode, 0)
        self.assertEqual(sorted(os.listdir(os.path.join(doc, "t"))), ["a.svg", "mine.svg"])


class SpecFolder(unittest.TestCase):
    """Only regular *.yaml files named like a family are specs; the umbrella includes nothing else."""

    def test_strays(self):
        with tempfile.TemporaryDirectory() as d:
            spec, out = os.path.join(d, "spec"), os.path.join(d, "out")
            os.makedirs(os.path.join(spec, "sub.yaml"))
            os.symlink("nowhere.yaml", os.path.join(spec, "dangling.yaml"))
            for n in ('it"s', "it's", "Upper", "int", "two words", "base"):
                with open(os.path.join(spec, f"{n}.yaml"), "w") as f:
                    f.write(spec_text("x"))
            with open(os.path.join(spec, "t.yaml"), "w") as f:
                f.write(spec_text("t"))
            p = run("--out", out, os.path.join(spec, "t.yaml"))
            self.assertEqual(p.returncode, 0, p.stderr)
            warnings = p.stderr.splitlines()
            self.assertEqual(len(warnings), 8, p.stderr)
            self.assertTrue(all(": warning: " in w for w in warnings))
            for f in ("pmregs.h", "tools.h"):
                with open(os.path.join(out, f)) as fh:
                    includes = [ln for ln in fh if ln.startswith("#include")]
                self.assertEqual(len(includes), 2, includes)
            with open(os.path.join(out, "pmregs.h")) as fh:
                self.assertIn('#include "t.h"\n', fh.read())
            p = run("--doc", "--out", os.path.join(d, "doc"), os.path.join(spec, "t.yaml"))
            with open(os.path.join(d, "doc", "README.md")) as fh:
                self.assertEqual(fh.read().count("](t.md)"), 1)

    def test_an_unlistable_folder(self):
        with tempfile.TemporaryDirectory() as d:
            spec = os.path.join(d, "t.yaml")
            with open(spec, "w") as f:
                f.write(spec_text("t"))
            real = os.listdir

            def listdir(p="."):
                if os.path.abspath(p) == d:
                    raise PermissionError(13, "Permission denied", p)
                return real(p)

            err = io.StringIO()
            with mock.patch("os.listdir", listdir), redirect_stderr(err):
                status = generate.main(["--out", os.path.join(d, "out"), spec])
            self.assertEqual(status, 1)
            self.assertEqual(len(err.getvalue().splitlines()), 1, err.getvalue())
            self.assertIn("cannot list the spec folder (Permission denied)", err.getvalue())
            self.assertFalse(os.path.exists(os.path.join(d, "out")))


class Interrupted(unittest.TestCase):
    """A signal at any step of the switch-over leaves the old tree (or the new one), and no staging folder;
    a run killed outright leaves a journal that the next run uses to put the old tree back."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.out = os.path.join(d, "out")
        os.makedirs(os.path.join(d, "spec"))
        self.spec = os.path.join(d, "spec", "t.yaml")
        self.bad = os.path.join(d, "spec", "u.yaml")
        with open(self.bad, "w") as f:
            f.write("family: u\n")
        with open(self.spec, "w") as f:
            f.write(spec_text("t"))
        self.assertEqual(run("--out", self.out, self.spec).returncode, 0)
        with open(os.path.join(self.out, "keep.h"), "w") as f:
            f.write("/* hand-written */\n")
        self.old = tree(self.out)
        with open(self.spec, "w") as f:                 # the new tree: another layout, another spec hash
            f.write(spec_text("t", "constants: {k: 7}\n"))
        new_out = os.path.join(d, "new")
        self.assertEqual(run("--out", new_out, self.spec).returncode, 0)
        self.new = dict(tree(new_out), **{"keep.h": self.old["keep.h"]})
        self.assertNotEqual(self.old, self.new)
        # one rename per file whose text changes (the generator leaves unchanged files alone)
        self.steps = sum(1 for f, text in self.new.items() if self.old.get(f) != text)

    def tearDown(self):
        self.tmp.cleanup()

    def test_sigint_and_sigterm_at_every_step(self):
        for sig, status in (("INT", 130), ("TERM", 143), ("HUP", 129)):
            for k in range(self.steps + 1):
                with self.subTest(signal=sig, step=k):
                    p = run("--out", self.out, self.spec, env={TEST_SIGNAL_ENV: f"{k}:{sig}"})
                    self.assertEqual(p.returncode, status, p.stderr)
                    self.assertEqual(tree(self.out), self.old)
                    self.assertIn("no file was changed", p.stderr)
                    self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertEqual(run("--out", self.out, self.spec).returncode, 0)
        self.assertEqual(tree(self.out), self.new)

    def test_killed_at_every_step(self):
        for k in range(self.steps + 1):
            with self.subTest(step=k):
                p = run("--out", self.out, self.spec, env={TEST_SIGNAL_ENV: f"{k}:KILL"})
                self.assertEqual(p.returncode, -9)
                # the next run, even one that fails, puts the old tree back first
                p = run("--out", self.out, self.bad)
                self.assertEqual(p.returncode, 1)
                self.assertEqual(tree(self.out), self.old)
                if k:
                    self.assertIn("was interrupted while it replaced files", p.stderr)

    def test_interrupted_while_staging(self):
        calls = []
        real = os.chmod

        def chmod(path, mode):
            calls.append(path)
            if len(calls) == 2:                         # the second of the changed files staged
                raise KeyboardInterrupt
            return real(path, mode)

        err = io.StringIO()
        with mock.patch("os.chmod", chmod), redirect_stderr(err):
            status = generate.main(["--out", self.out, self.spec])
        self.assertEqual(status, 130)
        self.assertIn("no file was changed", err.getvalue())
        self.assertEqual(tree(self.out), self.old)


if __name__ == "__main__":
    unittest.main()
