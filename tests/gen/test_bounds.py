# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Every expansion a spec asks for has a bound, checked before expanding (PMR045 and friends): a spec
that asks for more gets a located error instead of a hang, and a family as large as the bounds allow
still gets a self-test whose size grows with its data, not with code per register or per field."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generate  # noqa: E402
from pmregs_gen.core import MAX_CELLS, MAX_FIELDS, MAX_REGISTERS, MAX_SHAPE_FIELDS  # noqa: E402
from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.emit import render_selftest  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402



def codes(text):
    """[(code, line)] of the errors a spec text gives, [] when it is accepted."""
    try:
        Builder(load("t.yaml", text=text), "t.yaml").build()
    except SpecError as e:
        return [(d.code, d.line) for d in e.errors]
    return []


def line_of(text, needle):
    return text.split("\n").index(next(ln for ln in text.split("\n") if needle in ln)) + 1


class Bounds(unittest.TestCase):
    def test_registers(self):
        head = 'family: t\ntitle: t\nlayouts:\n  l: {fields: [{name: x, bits: "63:0"}]}\nregisters:\n'
        n = MAX_REGISTERS // 256
        ok = head + "".join(f'  - {{name: "r{k}_{{i}}", layout: l, count: 256}}\n' for k in range(n))
        self.assertEqual(codes(ok), [])
        over = ok + '  - {name: one_more, layout: l}\n  - {name: "and_more_{i}", layout: l, count: 2}\n'
        self.assertEqual(codes(over), [("PMR045", line_of(over, "one_more"))])     # once, where it crosses

    def test_layout_fields(self):
        base = "family: t\ntitle: t\nlayouts:\n  base:\n    fields:\n" + \
            "".join(f'      - {{name: f{k}, bits: "{k}"}}\n' for k in range(64))
        n = MAX_FIELDS // 64 - 1
        ok = base + "".join(f"  d{k}: {{base: base}}\n" for k in range(n))
        self.assertEqual(codes(ok), [])
        over = ok + "  too_many: {base: base}\n  and_more: {base: base}\n"
        self.assertEqual(codes(over), [("PMR045", line_of(over, "too_many"))])
        # variants copy their layout's fields too
        var = base.replace("family: t", "family: t") + "    variants:\n      discriminator: f0\n      cases:\n" + \
            "".join(f"        - {{name: c{k}, when: {k % 2}, fields: []}}\n" for k in range(2))
        self.assertEqual(codes(var), [])

    def test_table_cells(self):
        cols = MAX_CELLS // 1000 + 1
        text = ("family: t\ntitle: t\nlayouts:\n  l: {fields: [{name: x, bits: \"63:0\"}]}\ntables:\n  t:\n"
                "    columns:\n      c0: &c {type: u8, default: 1}\n" +
                "".join(f"      c{k}: *c\n" for k in range(1, cols)) + "    rows:\n" +
                "".join(f"      - {{name: r{k}}}\n" for k in range(1000)))
        self.assertEqual(codes(text), [("PMR045", line_of(text, "- {name: r0}"))])

    def test_packet_shape_fields(self):
        n = MAX_SHAPE_FIELDS + 1
        text = ("family: t\ntitle: t\nlayouts: {}\nparams:\n  w_p: {doc: w, default: 1, min: 1, max: 8}\npackets:\n"
                "  p:\n    doc: p\n    compression: sign\n    max_bytes: 64\n    fields:\n" +
                "".join(f"      f{k}: {{width: 1, doc: f}}\n" for k in range(n)) +
                "    shapes:\n      - {name: a, doc: a, fields: [" + ", ".join(f"f{k}" for k in range(n)) + "]}\n")
        self.assertEqual(codes(text), [("PMR045", line_of(text, "- {name: a"))])
        self.assertEqual(codes(text.replace(", f256]", "]").replace("      f256: {width: 1, doc: f}\n", "")), [])

    def test_named_widths_nest(self):
        text = ("family: t\ntitle: t\nlayouts: {}\nparams:\n  w_p: {doc: w, default: 1, min: 1, max: 8}\nwidths:\n"
                '  w0: {expr: "w_p", doc: w, args: [a]}\n' +
                "".join(f'  w{k}: {{expr: "w{k - 1}(a)", doc: w, args: [a]}}\n' for k in range(1, 40)))
        self.assertEqual(codes(text), [("PMR043", line_of(text, "  w16:"))])
        # a chain of 3000 (a recursion in the generator before) is one error too
        long = text + "".join(f'  w{k}: {{expr: "w{k - 1}(a)", doc: w, args: [a]}}\n' for k in range(40, 3000))
        self.assertEqual(codes(long), [("PMR043", line_of(text, "  w16:"))])

    def test_encoder_placements_are_counted_while_listed(self):
        names = ", ".join(f"t{k}" for k in range(64))
        text = ("family: t\ntitle: t\nlayouts:\n  l: {width: 32, fields: [{name: x, bits: \"31:0\"}]}\ntables:\n"
                f"  tgt:\n    columns: {{next: {{type: \"ref:tgt[64]\"}}}}\n    rows:\n" +
                "".join(f"      - {{name: t{k}, next: [{names}]}}\n" for k in range(64)) +
                f"  events:\n    columns: {{on: {{type: \"ref:tgt[64]\"}}, code: {{type: u8}}}}\n    rows:\n"
                f"      - {{name: e, code: 1, on: [{names}]}}\n"
                "encoders:\n  enc:\n    table: events\n    place:\n      p0: {from: event.on}\n" +
                "".join(f"      p{k}: {{from: p{k - 1}.next}}\n" for k in range(1, 8)) +
                '    exclusive: [p0]\n    outputs:\n      o: {type: u32, expr: "event.code"}\n')
        self.assertEqual(codes(text), [("PMR101", line_of(text, "- {name: e,"))])


class LargeFamily(unittest.TestCase):
    def test_the_self_test_of_13000_registers_is_data(self):
        # one table row per register, one loop over them: the self-test's text is about a line per register
        n = 13000
        text = ('family: big\ntitle: t\nfacts:\n  msr: {type: u32, address: true}\nlayouts:\n'
                '  l: {fields: [{name: x, bits: "31:0"}, {name: y, bits: "63:32"}]}\nregisters:\n' +
                "".join(f"  - {{name: r{k}, layout: l, msr: {k}}}\n" for k in range(n)))
        fam = Builder(load("big.yaml", text=text), "big.yaml").build()
        src = render_selftest(fam, "spec/big.yaml", text.encode())
        # the part every self-test shares (the checks and their loops, once per translation unit) and this
        # family's own part (its tables), each bounded
        common = re.search(r"^#ifndef PMREGS_SELFTEST_COMMON\n.*?^#endif /\* PMREGS_SELFTEST_COMMON \*/$", src, re.M | re.S)
        self.assertIsNotNone(common)
        self.assertLess(common.group(0).count("\n"), 600)
        self.assertLess(src.count("\n") - common.group(0).count("\n"), n + 200)
        self.assertLess(src.count("CHECK("), 100)
        self.assertEqual(src.count("(uint64_t)PMREGS_BIG_MSR_R"), n)

    def test_the_self_test_of_a_thousand_fields_is_data(self):
        # a row and three accessor cases per field, one loop over them all: no block of checks per field
        nl, nf = 40, 32
        text = ('family: big\ntitle: t\nlayouts:\n' +
                "".join(f"  l{k}: {{width: 32, fields: [" + ", ".join(f"{{name: f{b}, bits: \"{b}\"}}" for b in range(nf)) + "]}\n"
                        for k in range(nl)))
        fam = Builder(load("big.yaml", text=text), "big.yaml").build()
        src = render_selftest(fam, "spec/big.yaml", text.encode())
        self.assertLess(src.count("\n"), 5 * nl * nf + 60 * nl + 400)
        self.assertLess(src.count("CHECK("), 100)
        self.assertEqual(src.count("_get((uint32_t)v)"), nl * nf)

    def test_a_large_family_generates_compiles_and_passes(self):
        # the self-test of 2000 registers over 2 layouts, built with the strict warnings and run
        if subprocess.run(["sh", "-c", "command -v gcc"], capture_output=True).returncode:
            self.skipTest("gcc not installed")
        n = 2000
        text = ('family: big\ntitle: t\nfacts:\n  msr: {type: u32, address: true}\nlayouts:\n'
                '  l: {fields: [{name: x, bits: "31:0"}, {name: y, bits: "63:32"}]}\n'
                '  m: {width: 32, fields: [{name: x, bits: "31:0"}]}\nregisters:\n' +
                "".join(f"  - {{name: r{k}, layout: {'lm'[k % 2]}, msr: {k}{', reset: 7' if k % 3 == 0 else ''}}}\n"
                        for k in range(n)) + '  - {name: "a{i}", layout: l, count: 200, msr: 0x10000}\n')
        with tempfile.TemporaryDirectory() as d:
            spec = os.path.join(d, "big.yaml")
            with open(spec, "w") as f:
                f.write(text)
            inc = os.path.join(d, "include", "pmregs")
            # the headers written as the generator writes them, and the self-test rendered from the headers'
            # view (generate.build(selftest_files=): the family read and checked once for both, as
            # tests/gen/random_specs.py and tests/gen/good_specs.py build theirs)
            selftests = {}
            generate.write(inc, False, generate.build([spec], out=inc, selftest_files=selftests))
            self.assertEqual(sorted(selftests), ["selftest_big.c"])
            with open(os.path.join(d, "selftest_big.c"), "w") as f:
                f.write(selftests["selftest_big.c"])
            for f in os.listdir(os.path.join(ROOT, "include", "pmregs")):
                if f.startswith("base"):
                    with open(os.path.join(ROOT, "include", "pmregs", f)) as a, open(os.path.join(inc, f), "w") as b:
                        b.write(a.read())
            exe = os.path.join(d, "st")
            p = subprocess.run(["gcc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion",
                                "-Wsign-conversion", "-Wshadow", "-Werror", "-I", os.path.join(d, "include"),
                                os.path.join(d, "selftest_big.c"), "-o", exe], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr[:3000])
            p = subprocess.run([exe], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout[-2000:] + p.stderr[-2000:])
            self.assertRegex(p.stdout, r"selftest big: \d+ checks, 0 failed")


if __name__ == "__main__":
    unittest.main()
