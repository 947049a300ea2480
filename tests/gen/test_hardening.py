# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Adversarial input: every bad spec or command line gives one located error line, never a
traceback, a hang or a half-written output directory."""

import io
import os
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from unittest import mock

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generate  # noqa: E402
import genrun  # noqa: E402
from pmregs_gen import yamlnode  # noqa: E402
from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.emit import render_family  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load, parse_int  # noqa: E402

GOOD = 'family: t\ntitle: t\nlayouts:\n  a: {fields: [{name: x, bits: "63:0"}]}\n'


def codes(text):
    """[(code, line)] of the errors the text gives, or [] if it is accepted."""
    try:
        Builder(load("t.yaml", text=text), "t.yaml").build()
    except SpecError as e:
        for d in e.errors:
            assert "\n" not in str(d), str(d)
        return [(d.code, d.line) for d in e.errors]
    return []


def codes_rendered(text):
    """codes() including the errors found while emitting C (the symbol table)."""
    try:
        render_family(Builder(load("t.yaml", text=text), "t.yaml").build(), "spec/t.yaml", b"")
    except SpecError as e:
        return [(d.code, d.line) for d in e.errors]
    return []


def codes_of_bytes(raw):
    try:
        load("t.yaml", text=yamlnode.decode(raw, "t.yaml"))
    except SpecError as e:
        return [(d.code, d.line, d.col) for d in e.errors]
    return []


# the generator in a process of its own, forked from this one (tests/gen/genrun.py)
run = genrun.run


class Integers(unittest.TestCase):
    def test_literals(self):
        good = {"0": 0, "10": 10, "0x1_f": 31, "0o17": 15, "0b1_0": 2, "-5": -5, "+7": 7,
                "0xffffffffffffffff": (1 << 64) - 1, "-0x8000000000000000": -(1 << 63), "0_0": 0}
        for t, v in good.items():
            self.assertEqual(parse_int(t), (v, None), t)
        for t in ["010", "00_7", "0x", "0x_", "0b", "1__0", "_1", "1_", "0x1g", "١٢", "1e3", "",
                  "0x1" + "0" * 16, "9" * 5000, "-0x8000000000000001"]:
            v, why = parse_int(t)
            self.assertIsNone(v, t)
            self.assertNotIn("\n", why)

    def test_in_a_spec(self):
        for reset in ["010", "0x", "9" * 5000, "0x" + "f" * 17]:
            text = GOOD.replace('bits: "63:0"', f'bits: "63:0", reset: {reset}')
            self.assertEqual(codes(text), [("PMR004", 4)], reset)

    def test_bit_ranges_take_ascii_digits_only(self):
        for bits in ["٦٣:0", "63:０", "9" * 5000 + ":0"]:
            self.assertEqual(codes(GOOD.replace('"63:0"', f'"{bits}"')), [("PMR010", 4)], bits)


class Names(unittest.TestCase):
    def test_a_trailing_newline_is_not_part_of_a_name(self):
        self.assertEqual(codes(GOOD.replace("name: x", 'name: "x\\n"')), [("PMR020", 4)])
        self.assertEqual(codes(GOOD.replace("\n  a:", '\n  "a\\n":')), [("PMR020", 4)])


class CNames(unittest.TestCase):
    """Every spec name becomes part of C identifiers: it must be one in every compiler mode."""

    def test_reserved_names(self):
        for name in ["int", "class", "uint8_t", "size_t", "intptr_t", "linux", "unix", "i386"]:
            self.assertEqual(codes(GOOD.replace("name: x", f"name: {name}")), [("PMR022", 4)], name)
            self.assertEqual(codes(GOOD.replace("\n  a:", f"\n  {name}:")), [("PMR022", 4)], name)
        self.assertEqual(codes(GOOD.replace("name: x", "name: " + "x" * 65)), [("PMR020", 4)])
        self.assertEqual(codes(GOOD.replace("name: x", "name: " + "x" * 64)), [])

    def test_every_emitted_symbol_is_unique(self):
        # a named value 'mask' would redefine the field's _MASK macro (and _set would write other bits)
        for v in ("mask", "shift", "width"):
            spec = GOOD.replace('bits: "63:0"', f'bits: "63:0", values: {{{v}: 1}}')
            self.assertEqual(codes_rendered(spec), [("PMR023", 4)], v)
        self.assertEqual(codes_rendered(GOOD.replace('bits: "63:0"', 'bits: "63:0", values: {one: 1}')), [])

    def test_two_names_for_one_value_need_an_alias_marker(self):
        two = GOOD.replace('bits: "63:0"', 'bits: "63:0", values: {off: 0, none: 0}')
        self.assertEqual(codes(two), [("PMR021", 4)])
        alias = GOOD.replace('bits: "63:0"', 'bits: "63:0", values: {off: 0, none: {value: 0, alias: true}}')
        self.assertEqual(codes_rendered(alias), [])
        fam = Builder(load("t.yaml", text=alias), "t.yaml").build()
        self.assertEqual([n for n, _, _ in fam.layouts[0].fields[0].values], ["off", "none"])   # off prints
        lonely = GOOD.replace('bits: "63:0"', 'bits: "63:0", values: {one: {value: 1, alias: true}}')
        self.assertEqual(codes(lonely), [("PMR021", 4)])
        enum = GOOD + "enums:\n  e: {values: {a: 1, b: 1}}\n"
        self.assertEqual(codes(enum), [("PMR021", 6)])

    def test_register_array_addresses_fit_their_fact(self):
        spec = (GOOD.replace("layouts:", "facts:\n  port: {type: u16, address: true}\nlayouts:") +
                'registers:\n  - {name: "r{i}", layout: a, count: 4, stride: 0x100, port: BASE}\n')
        self.assertEqual(codes(spec.replace("BASE", "0xFC00")), [])
        self.assertEqual(codes(spec.replace("BASE", "0xFE00")), [("PMR014", 8)])

    def test_trigraphs_in_text_are_broken(self):
        spec = GOOD.replace("title: t", 'title: "what??/"').replace('bits: "63:0"', 'bits: "63:0", doc: "a ??= b ??/"')
        fam = Builder(load("t.yaml", text=spec), "t.yaml").build()
        text = render_family(fam, "spec/t.yaml", b"")
        self.assertNotRegex(text, r"\?\?[=(/)'<!>-]")
        self.assertIn("?\\?/", text)


class Encoding(unittest.TestCase):
    def test_not_utf8(self):
        self.assertEqual(codes_of_bytes(GOOD.replace("title: t", "title: caf\xe9").encode("latin-1")),
                         [("PMR007", 2, 11)])
        self.assertEqual(codes_of_bytes(GOOD.encode("utf-16")), [("PMR007", 1, 1)])
        self.assertEqual(codes_of_bytes(GOOD.encode("utf-32")), [("PMR007", 1, 1)])
        self.assertEqual(codes_of_bytes(GOOD.encode("utf-16-le")), [("PMR007", 1, 2)])
        self.assertEqual(codes_of_bytes(GOOD.encode("utf-16-be")), [("PMR007", 1, 1)])
        self.assertEqual(codes_of_bytes(GOOD.encode("utf-8")), [])

    def test_control_characters_give_one_line(self):
        p = run("--out", "x", "-")   # not a file
        self.assertEqual(len(p.stderr.splitlines()), 1)
        got = codes('family: t\ntitle: "a\x07b"\nlayouts:\n  "a\\rb": {fields: []}\n')
        self.assertTrue(got)


class Bounds(unittest.TestCase):
    def test_alias_bomb(self):
        text = GOOD + "x: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        prev = "a"
        for k in "bcdefghij":
            text += f"{k}: &{k} [" + ", ".join([f"*{prev}"] * 10) + "]\n"
            prev = k
        self.assertEqual(codes(text)[0][0], "PMR008")

    def test_recursive_alias(self):
        self.assertEqual(codes(GOOD + "x: &a [1, *a]\n"), [("PMR008", 5)])
        self.assertEqual(codes(GOOD + "x: &a {y: {z: *a}}\n"), [("PMR008", 5)])

    def test_an_alias_to_an_earlier_node_is_fine(self):
        self.assertNotIn("PMR008", [c for c, _ in codes(GOOD + "x: &a [1]\ny: *a\n")])

    def test_deep_nesting(self):
        for o, c in (("[", "]"), ("{a: ", "}")):
            self.assertEqual(codes(GOOD + "x: " + o * 5000 + "1" + c * 5000 + "\n")[0][0], "PMR009")

    def test_a_100_mb_spec_is_refused_before_it_is_read(self):
        with tempfile.TemporaryDirectory() as d:
            big = os.path.join(d, "t.yaml")
            with open(big, "wb") as f:
                f.write(GOOD.encode())
                f.truncate(100 << 20)
            p = run("--out", os.path.join(d, "out"), big)
            self.assertEqual(p.returncode, 1)
            self.assertRegex(p.stderr, r"^\S*t\.yaml:1:1: error\[PMR006\]: [^\n]*\n\Z")
            self.assertFalse(os.path.exists(os.path.join(d, "out")))

    def expr_codes(self, expr, returns="u64"):
        return codes(GOOD + f'functions:\n  - {{name: f, params: {{v: u64}}, returns: {returns}, expr: "{expr}"}}\n')

    def test_long_expression_chains(self):
        self.assertEqual(self.expr_codes("+".join(["v"] * 100000)), [("PMR043", 6)])
        self.assertEqual(self.expr_codes("~" * 100000 + "v"), [("PMR043", 6)])
        self.assertEqual(self.expr_codes("-(" * 60 + "v" + ")" * 60), [("PMR043", 6)])
        self.assertEqual(self.expr_codes("+".join(["v"] * 40)), [])
        self.assertEqual(self.expr_codes(" or ".join(["v[3]"] * 3000), "bool"), [])    # flat: fine

    def test_long_packet_width_expressions(self):
        spec = ("family: t\ntitle: t\nlayouts: {}\npackets:\n  p:\n    doc: p\n    compression: sign\n"
                "    max_bytes: 4\n    fields:\n      a: {width: 4, doc: a}\n      b: {width: \"W\", doc: b}\n"
                "    shapes:\n      - {name: only, doc: d, fields: [a, b]}\n")
        self.assertEqual(codes(spec.replace("W", "+".join(["a"] * 100000))), [("PMR043", 11)])
        self.assertEqual(codes(spec.replace("W", "1+(" * 60 + "a" + ")" * 60)), [("PMR043", 11)])

    def test_exponential_unrolling(self):
        e = "v[a] != v[b] + c + d"
        for k in "dcba":
            e = f"any({e} for {k} in range(64))"
        self.assertEqual(self.expr_codes(e, "bool"), [("PMR044", 6)])
        self.assertEqual(self.expr_codes("any(v[i] != 0 for i in range(64))", "bool"), [])


def problem(text):
    """A YAML error's words where libyaml's and PyYAML's agree (the composer's, without the anchor's name);
    the parsers word a syntax error each their own way (its place is compared)."""
    text = re.sub(r" '[^']*'", "", text)
    return text if re.search(r"alias|occurrence|document", text) else "syntax"


def composed(text, plain=False):
    """What PyYAML's own composer makes of a text, as load() should give it: each node's kind, line and
    column, a scalar's text, whether it is quoted or a block and whether it is null (the safe loader's
    resolver; plain: no implicit null), the pairs of a mapping; or the composer's error, its problem and
    where. A mapping's key that is no scalar or is there twice is a (code, line) in place of its pair."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader if not plain else yaml.BaseLoader)
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        return ("error", problem(e.problem), m.line + 1, m.column + 1)

    def walk(n):
        at = (n.start_mark.line + 1, n.start_mark.column + 1)
        if isinstance(n, yaml.ScalarNode):
            return ("scalar",) + at + (n.value, n.style in ("'", '"'), n.style in ("|", ">"),
                                       n.tag == "tag:yaml.org,2002:null" and n.style not in ("'", '"'))
        if isinstance(n, yaml.SequenceNode):
            return ("list",) + at + (tuple(walk(x) for x in n.value),)
        pairs, seen = [], set()
        for k, v in n.value:
            if not isinstance(k, yaml.ScalarNode):
                pairs.append(("PMR004", k.start_mark.line + 1))
            elif k.value in seen:
                pairs.append(("PMR005", k.start_mark.line + 1))
            else:
                seen.add(k.value)
                pairs.append((walk(k), walk(v)))
        return ("mapping",) + at + (tuple(pairs),)
    return walk(root) if root is not None else None


def loaded(text, plain=False):
    """load()'s tree in the form of composed(); errors of keys left out as (code, line) in their place."""
    try:
        root = load("t.yaml", text=text, plain=plain)
    except SpecError as e:
        bad = [(d.code, d.line) for d in e.errors if d.code in ("PMR004", "PMR005")]
        if len(bad) != len(e.errors):
            d = e.errors[0]
            return ("error", problem(d.message), d.line, d.col) if d.code == "PMR001" else (d.code,)
        return ("keys", sorted(bad))

    def walk(n):
        at = (n.line, n.col)
        if isinstance(n, yamlnode.Scalar):
            return ("scalar",) + at + (n.text, n.quoted, n.block, n.null)
        if isinstance(n, yamlnode.Seq):
            return ("list",) + at + (tuple(walk(x) for x in n.items),)
        return ("mapping",) + at + (tuple((walk(k), walk(v)) for k, v in n.pairs),)
    return walk(root)


class Composer(unittest.TestCase):
    """load() builds its nodes in one pass over the parser's events: the tree PyYAML's composer gives."""

    TEXTS = ("a: 1\nb: [x, 'y', \"z\"]\nc:\n  d: |\n    e\n  f: >\n    g\n",
             "a: null\nb: ~\nc:\nd: 'null'\ne: !!null x\nf: ! null\ng: !!str ~\nh: Null\ni: NULL\nj: nul\n",
             "a: &x {p: 1, q: [1, 2]}\nb: *x\nc: [*x, *x]\n", "- &a b\n- *a\n",
             "--- !tag\na: 1\n", "---\n", "!!int 5\n", "%YAML 1.1\n---\na: 1\n...\n",
             "a: *u\n", "a: &x 1\nb: &x 2\n", "a: &x [&x 1]\n", "a: 1\n---\nb: 2\n", "a: [1\n", "\ta: 1\n",
             "a: 1\na: {x: 1, x: 2}\nb: [1]\n", "? [a]\n: {b: 1, b: 2}\nc: 1\n", "{a: 1}: 2\n")

    def test_the_tree_of_pyyaml_composer(self):
        for text in self.TEXTS + (GOOD,):
            for plain in (False, True):
                want, got = composed(text, plain), loaded(text, plain)
                if got and got[0] == "keys":        # the composer's tree, keys refused where load() refuses them
                    flat = []

                    def keys(t):
                        if isinstance(t, tuple):
                            if t and t[0] in ("PMR004", "PMR005"):
                                flat.append(t)
                            for x in t:
                                keys(x)
                    keys(want)
                    self.assertEqual(sorted(flat), got[1], text)
                    continue
                self.assertEqual(got, want, (text, plain))

    def test_an_alias_is_a_copy(self):
        root = load("t.yaml", text="a: &x {p: [1]}\nb: *x\n")
        a, b = root.get("a"), root.get("b")
        self.assertIsNot(a, b)
        self.assertIsNot(a.get("p"), b.get("p"))
        self.assertEqual((a.line, b.line, b.get("p").items[0].text), (1, 1, "1"))


class FileSystem(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.spec = os.path.join(self.d, "t.yaml")
        with open(self.spec, "w") as f:
            f.write(GOOD)
        self.out = os.path.join(self.d, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def one_line(self, p, status, needle):
        self.assertEqual(p.returncode, status, p.stderr)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertIn(needle, p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def test_spec_problems(self):
        self.one_line(run("--out", self.out, os.path.join(self.d, "missing.yaml")), 1, "missing.yaml: error:")
        self.one_line(run("--out", self.out, self.d), 1, f"{self.d}: error: is a directory")
        self.one_line(run("--check", "--out", self.out, self.d), 2, "is a directory")
        self.assertFalse(os.path.exists(self.out))

    def test_output_problems(self):
        f = os.path.join(self.d, "file")
        open(f, "w").close()
        self.one_line(run("--out", f, self.spec), 1, f"{f}: error:")
        self.one_line(run("--out", os.path.join(f, "sub"), self.spec), 1, f"{f}: error: is not a directory")
        os.mkdir(self.out)
        os.makedirs(os.path.join(self.out, "t.h", "x"))      # a directory where a header goes
        self.one_line(run("--out", self.out, self.spec), 1, "t.h: error:")
        self.assertEqual(sorted(os.listdir(self.out)), ["t.h"])

    def test_check_statuses(self):
        self.assertEqual(run("--out", self.out, self.spec).returncode, 0)
        self.assertEqual(run("--check", "--out", self.out, self.spec).returncode, 0)
        with open(os.path.join(self.out, "t.h"), "a") as f:
            f.write("/* edited */\n")
        self.assertEqual(run("--check", "--out", self.out, self.spec).returncode, 1)
        with open(self.spec, "a") as f:
            f.write("oops: 1\n")
        p = run("--check", "--out", self.out, self.spec)
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stderr, r"error\[PMR002\]")
        self.assertIn("Exit status", run("--help").stdout)

    def test_unchanged_outputs_keep_their_file_times(self):
        self.assertEqual(run("--out", self.out, self.spec).returncode, 0)
        for n in os.listdir(self.out):
            os.utime(os.path.join(self.out, n), (1000000000, 1000000000))
        self.assertEqual(run("--out", self.out, self.spec).returncode, 0)
        self.assertEqual({os.stat(os.path.join(self.out, n)).st_mtime for n in os.listdir(self.out)}, {1000000000})
        with open(self.spec, "a") as f:
            f.write("# a comment changes the spec's SHA-256, which the header records\n")
        self.assertEqual(run("--out", self.out, self.spec).returncode, 0)
        self.assertGreater(os.stat(os.path.join(self.out, "t.h")).st_mtime, 1000000000)
        self.assertEqual(os.stat(os.path.join(self.out, "version.h")).st_mtime, 1000000000)

    def test_a_failed_rename_puts_every_replaced_file_back(self):
        os.mkdir(self.out)
        for n in ("t.h", "pmregs.h"):
            with open(os.path.join(self.out, n), "w") as f:
                f.write("/* Generated by pmregs-gen: old " + n + " */\n")
        real, calls = os.replace, []

        def failing(a, b):
            calls.append(b)
            if len(calls) == 2 and not os.path.basename(a).startswith(".pmregs-old"):
                raise PermissionError(13, "Permission denied", b)
            return real(a, b)

        err = io.StringIO()
        with mock.patch("os.replace", failing), redirect_stderr(err):
            status = generate.main(["--out", self.out, self.spec])
        self.assertEqual(status, 1)
        self.assertIn("nothing was changed", err.getvalue())
        self.assertEqual(sorted(os.listdir(self.out)), ["pmregs.h", "t.h"])     # no temporary file left
        for n in ("t.h", "pmregs.h"):
            with open(os.path.join(self.out, n)) as f:
                self.assertEqual(f.read(), "/* Generated by pmregs-gen: old " + n + " */\n")

    def test_a_new_directory_is_removed_again_on_failure(self):
        err = io.StringIO()
        with mock.patch("os.replace", side_effect=PermissionError(13, "Permission denied")), redirect_stderr(err):
            status = generate.main(["--out", os.path.join(self.out, "a", "b"), self.spec])
        self.assertEqual(status, 1)
        self.assertFalse(os.path.exists(self.out))

    def test_an_internal_error_is_one_line(self):
        err = io.StringIO()
        with mock.patch.object(generate, "build", side_effect=ZeroDivisionError("boom")), redirect_stderr(err):
            status = generate.main(["--out", self.out, self.spec])
        self.assertEqual(status, 3)
        self.assertEqual(len(err.getvalue().splitlines()), 1)
        self.assertIn("internal error", err.getvalue())


if __name__ == "__main__":
    unittest.main()
