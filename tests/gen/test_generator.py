# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Unit tests of the generator: loader, validator, model, expression compiler, output discipline."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import genrun  # noqa: E402
from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.emit import render_family  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402


def family(text, name="t.yaml"):
    return Builder(load(name, text=source(text)), name).build()


def source(text):
    """The spec text: BASE (unindented) followed by a dedented body."""
    if text.startswith(BASE):
        return BASE + textwrap.dedent(text[len(BASE):])
    return textwrap.dedent(text)


def errors(text):
    try:
        family(text)
    except SpecError as e:
        return [(d.code, d.line) for d in e.errors]
    return []


BASE = "family: t\ntitle: test\n"


class Loader(unittest.TestCase):
    def test_scalars_keep_source_text(self):
        # YAML 1.1 would read 14:8 as a base-60 number and `no` as false; the loader must not.
        tree = load("x.yaml", text="a: 14:8\nb: no\nc: 0x1D9\n")
        self.assertEqual(tree.get("a").text, "14:8")
        self.assertEqual(tree.get("b").text, "no")
        self.assertEqual((tree.get("c").line, tree.get("c").col), (3, 4))

    def test_duplicate_key_is_located(self):
        with self.assertRaises(SpecError) as cm:
            load("x.yaml", text="a: 1\nb: 2\na: 3\n")
        self.assertEqual([(d.code, d.line) for d in cm.exception.errors], [("PMR005", 3)])

    def test_syntax_error_is_one_located_line(self):
        with self.assertRaises(SpecError) as cm:
            load("x.yaml", text="a: [1, 2\nb: 3\n")
        (d,) = cm.exception.errors
        self.assertEqual(d.code, "PMR001")
        self.assertRegex(str(d), r"^x\.yaml:\d+:\d+: error\[PMR001\]: ")
        self.assertNotIn("\n", str(d))


class Layouts(unittest.TestCase):
    def test_lsb0_field_geometry(self):
        fam = family(BASE + """
        layouts:
          r:
            fields:
              - {name: a, bits: "14:8"}
              - {name: lo, bits: "7:0"}
              - {name: hi, bits: "63:15", access: rsvd}
        """)
        f = fam.layout("r").field("a")
        self.assertEqual((f.shift, f.width, f.mask), (8, 7, 0x7F00))
        self.assertEqual(fam.layout("r").rsvd_mask, ~0x7FFF & (2**64 - 1))

    def test_msb0_is_converted_once(self):
        # IBM numbering: bit 0 is the MSB; "19:25" is seven bits ending at LSB position 6.
        fam = family(BASE + """
        bit_order: msb0
        width: 32
        layouts:
          r:
            fields:
              - {name: top, bits: "0"}
              - {name: mid, bits: "1:18", access: rsvd}
              - {name: sel, bits: "19:25"}
              - {name: low, bits: "26:31"}
        """)
        L = fam.layout("r")
        self.assertEqual(L.field("top").mask, 0x80000000)
        self.assertEqual((L.field("sel").shift, L.field("sel").width), (6, 7))
        self.assertEqual(L.field("low").mask, 0x3F)

    def test_split_field_most_significant_part_first(self):
        fam = family(BASE + """
        layouts:
          r:
            fields:
              - {name: code, bits: ["35:32", "7:0"]}
              - {name: a, bits: "31:8"}
              - {name: b, bits: "63:36", access: rsvd}
        """)
        f = fam.layout("r").field("code")
        self.assertEqual(f.width, 12)
        self.assertEqual(f.part_shifts(), [(32, 4, 8), (0, 8, 0)])
        self.assertIsNone(f.shift)

    def test_repeat_groups_expand_with_index(self):
        fam = family(BASE + """
        layouts:
          r:
            fields:
              - repeat: 3
                stride: 4
                fields:
                  - {name: "en{i}", bits: "1:0", doc: "counter {i}"}
                  - {name: "x{i}", bits: "3:2"}
              - {name: rest, bits: "63:12", access: rsvd}
        """)
        L = fam.layout("r")
        self.assertEqual([f.name for f in L.fields][:4], ["en0", "x0", "en1", "x1"])
        self.assertEqual(L.field("en2").shift, 8)
        self.assertEqual(L.field("en1").doc, "counter 1")
        self.assertEqual([g for g, _ in L.groups], ["en", "x"])

    def test_base_and_drop_derive_a_layout(self):
        fam = family(BASE + """
        layouts:
          a:
            fields:
              - {name: x, bits: "0"}
              - {name: y, bits: "63:1"}
          b:
            base: a
            drop: [y]
            fields:
              - {name: x, bits: "0", access: ro}
              - {name: z, bits: "63:1", access: rsvd}
        """)
        self.assertEqual([f.name for f in fam.layout("b").fields], ["x", "z"])
        self.assertEqual(fam.layout("b").field("x").access, "ro")
        self.assertEqual(fam.layout("a").field("x").access, "rw")

    def test_variants_make_complete_sub_layouts(self):
        fam = family(BASE + """
        layouts:
          r:
            fields:
              - {name: mode, bits: "0", values: {cache: 0, tlb: 1}}
            variants:
              discriminator: mode
              cases:
                - {name: cache, when: cache, fields: [{name: lat, bits: "63:1"}]}
                - {name: tlb, when: 1, fields: [{name: lvl, bits: "2:1"}, {name: r, bits: "63:3", access: rsvd}]}
        """)
        self.assertEqual([l.name for l in fam.layouts], ["r", "r_cache", "r_tlb"])
        self.assertEqual(fam.layout("r").variants.cases[1][1], 1)

    def test_reset_from_fields_and_res1(self):
        fam = family(BASE + """
        layouts:
          r:
            width: 32
            fields:
              - {name: t, bits: "17:16", reset: 3, values: {any: 3}}
              - {name: one, bits: "1:0", access: res1}
              - {name: rest, bits: "15:2", access: rsvd}
              - {name: hi, bits: "31:18", access: rsvd}
        """)
        L = fam.layout("r")
        self.assertEqual(L.reset, 0x30003)
        self.assertEqual(L.res1_mask, 0x3)

    def test_every_problem_is_reported_not_just_the_first(self):
        got = errors(BASE + """
        layouts:
          r:
            fields:
              - {name: Bad, bits: "0"}
              - {name: ok, bits: "63:1", acess: rw}
        """)
        self.assertEqual(sorted(c for c, _ in got), ["PMR002", "PMR020"])


class Expressions(unittest.TestCase):
    SPEC = BASE + """
    enums:
      mode: {values: {off: 0, on: 1}}
    layouts:
      r:
        fields:
          - {name: en, bits: "0"}
          - {name: sel, bits: "7:1", values: {all: 0x7F}}
          - {name: rest, bits: "63:8"}
    functions:
      - {name: f, params: {v: r, n: u8}, returns: bool, expr: "v.en and v[n]"}
      - {name: g, params: {v: r}, returns: mode, expr: "mode.on if f(v, 3) else mode.off"}
      - {name: h, params: {v: r}, returns: r, expr: "replace(v, en=0, sel=v.sel.all)"}
      - {name: k, params: {v: r}, returns: u8, expr: "v[15:8]"}
    """

    def test_compiles_to_casted_branch_free_c(self):
        fam = family(self.SPEC)
        f, g, h, k = fam.functions
        self.assertIn("pmregs_t_r_en_get(v)", f.c_expr)
        self.assertIn("& 63", f.c_expr)             # a variable bit index cannot shift past 63
        self.assertIn("pmregs_t_f(", g.c_expr)
        self.assertIn("PMREGS_T_MODE_ON", g.c_expr)
        self.assertIn("pmregs_t_r_sel_set(pmregs_t_r_en_set(v,", h.c_expr)
        self.assertIn("PMREGS_T_R_SEL_ALL", h.c_expr)
        self.assertTrue(k.c_expr.startswith("((uint8_t)("))
        self.assertNotIn("if", f.c_expr + g.c_expr + h.c_expr)

    def test_expression_errors_are_located_in_the_text(self):
        spec = BASE + """
        layouts:
          r: {fields: [{name: en, bits: "63:0"}]}
        functions:
          - {name: f, params: {v: r}, returns: bool, expr: "v.en and v.nope"}
        """
        with self.assertRaises(SpecError) as cm:
            family(spec)
        (d,) = cm.exception.errors
        self.assertEqual(d.code, "PMR041")
        line = source(spec).splitlines()[d.line - 1]
        self.assertEqual(line[d.col - 1:d.col + 5], "v.nope")

    def test_functions_must_be_defined_before_use(self):
        got = errors(BASE + """
        layouts:
          r: {fields: [{name: en, bits: "63:0"}]}
        functions:
          - {name: f, params: {v: r}, returns: bool, expr: "g(v)"}
          - {name: g, params: {v: r}, returns: bool, expr: "v.en != 0"}
        """)
        self.assertEqual(got, [("PMR041", 7)])  # the line of f, which calls g too early

    def test_type_errors(self):
        for expr in ('"v.en + mode.on"', '"mode.on"', '"v[70]"', '"v.en < mode.off"'):
            got = errors(BASE + """
            enums:
              mode: {values: {off: 0, on: 1}}
            layouts:
              r: {fields: [{name: en, bits: "63:0"}]}
            functions:
              - {name: f, params: {v: r}, returns: bool, expr: %s}
            """ % expr)
            self.assertEqual([c for c, _ in got], ["PMR042"], expr)


class Output(unittest.TestCase):
    SPEC = BASE + """
    facts:
      msr: {type: u32, address: true}
    layouts:
      r:
        doc: a register
        fields:
          - {name: en, bits: "0"}
          - {name: rest, bits: "63:1", access: rsvd}
    registers:
      - {name: "ctl{i}", layout: r, count: 2, msr: 0x100, stride: 2}
    """

    def test_rendering_is_deterministic_and_carries_provenance(self):
        fam = family(self.SPEC)
        a = render_family(fam, "spec/t.yaml", b"x")
        b = render_family(family(self.SPEC), "spec/t.yaml", b"x")
        self.assertEqual(a, b)
        self.assertIn("from spec/t.yaml", a)
        self.assertIn("sha256 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881", a)
        self.assertIn("#define PMREGS_T_MSR_CTL1", a)
        self.assertIn("(0x100 + 2 * (n))", a)
        self.assertNotIn("\n\n\n", a)

    def test_symbol_collisions_are_errors(self):
        spec = BASE + """
        layouts:
          r:
            fields:
              - {name: valid, bits: "63:0"}
        """
        # field 'valid' would emit pmregs_t_r_valid_get (fine) but layout 'r' emits pmregs_t_r_valid.
        fam = family(spec)
        render_family(fam, "spec/t.yaml", b"")   # no clash: _valid vs _valid_get
        spec2 = BASE + """
        layouts:
          r:
            fields:
              - {name: reset, bits: "63:0"}
        """
        with self.assertRaises(SpecError) as cm:
            render_family(family(spec2), "spec/t.yaml", b"")
        self.assertEqual({d.code for d in cm.exception.errors}, {"PMR023"})

    def test_a_bad_spec_touches_no_file(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "t.yaml")
            bad = os.path.join(d, "u.yaml")
            with open(good, "w") as f:
                f.write(source(self.SPEC))
            with open(bad, "w") as f:
                f.write("family: u\ntitle: u\nlayouts:\n  r: {fields: [{name: x, bits: '3:0'}]}\n")
            out = os.path.join(d, "out")
            os.mkdir(out)
            p = genrun.run("--out", out, good, bad)
            self.assertEqual(p.returncode, 1)
            self.assertEqual(os.listdir(out), [])          # the good spec's header is not written either
            self.assertNotIn("Traceback", p.stderr)
            self.assertRegex(p.stderr, r"u\.yaml:4:3: error\[PMR013\]")
            p = genrun.run("--out", out, good)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sorted(os.listdir(out)), ["pmregs.h", "t.h", "t_tools.h", "tools.h", "version.h"])



class GroupsAndPopcount(unittest.TestCase):
    """Table groups (alternative tables chosen by an enum value) and popcount(), compiled and run."""
    SPEC = BASE + """
    layouts:
      sel: {fields: [{name: event, bits: "11:0"}, {name: rest, bits: "63:12", access: rsvd}]}
    enums:
      gen: {doc: generations, values: {none: 0, a: 1, b: 2, c: 3}}
    tables:
      ev_a:
        group: {name: ev, enum: gen, values: [a]}
        columns: {code: {type: u16, field: sel.event}}
        rows: [{name: x, code: 0x87}, {name: y, code: 0x10}]
      ev_bc:
        group: {name: ev, enum: gen, values: [b, c]}
        columns: {code: {type: u16, field: sel.event}}
        rows: [{name: x, code: 0xA9}]
    functions:
      - {name: bits, params: {v: u64}, returns: u8, expr: "popcount(v)"}
    """
    MAIN = r"""
    #include <stdio.h>
    #include <pmregs/t_tools.h>
    int main(void)
    {
        size_t n = 9;
        int bad = 0;
        const struct pmregs_t_ev_row *r = pmregs_t_ev(PMREGS_T_GEN_A, &n);
        bad |= !r || n != 2 || r[0].code != 0x87;
        r = pmregs_t_ev(PMREGS_T_GEN_C, &n);
        bad |= !r || n != 1 || r[0].code != 0xA9 || r != pmregs_t_ev_bc(&n);
        bad |= pmregs_t_ev(PMREGS_T_GEN_NONE, &n) != NULL || n != 0;
        bad |= pmregs_t_ev_find(PMREGS_T_GEN_B, "y") != NULL || pmregs_t_ev_find(PMREGS_T_GEN_A, "y") == NULL;
        bad |= pmregs_t_bits(0) != 0 || pmregs_t_bits(~(uint64_t)0) != 64 || pmregs_t_bits(0x8000000000000101u) != 3;
        bad |= PMREGS_T_EV_A_X_CODE != 0x87;
        return bad;
    }
    """

    def test_group_selects_the_member_and_popcount_counts(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(tmp, "t.yaml")
            with open(spec, "w") as f:
                f.write(source(self.SPEC))
            out = os.path.join(tmp, "pmregs")
            os.mkdir(out)
            p = genrun.run("--out", out, spec)
            self.assertEqual(p.returncode, 0, p.stderr)
            src = os.path.join(tmp, "main.c")
            with open(src, "w") as f:
                f.write(textwrap.dedent(self.MAIN))
            exe = os.path.join(tmp, "main")
            warn = ["-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Wsign-conversion", "-Wshadow", "-Werror"]
            c = subprocess.run(["gcc", "-std=c99", *warn, "-I", tmp, "-I", os.path.join(ROOT, "include", "pmregs"),
                                src, "-o", exe], capture_output=True, text=True)
            self.assertEqual(c.returncode, 0, c.stderr)
            self.assertEqual(subprocess.run([exe]).returncode, 0)

    def test_popcount_takes_one_value(self):
        got = errors(BASE + """
        layouts:
          r: {fields: [{name: en, bits: "63:0"}]}
        functions:
          - {name: f, params: {v: u64}, returns: u8, expr: "popcount(v, v)"}
        """)
        self.assertEqual([c for c, _ in got], ["PMR042"])


class Documentation(unittest.TestCase):
    def test_every_error_code_is_documented_and_has_a_bad_spec(self):
        from pmregs_gen.diag import CODES
        import glob
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        covered = set()
        for path in glob.glob(os.path.join(ROOT, "tests", "specs", "bad", "*.yaml")):
            with open(path, "rb") as f:       # bytes: a bad spec may be deliberately not UTF-8
                covered.add(f.readline().decode("ascii").split()[2])
        for code in CODES:
            self.assertIn(code, readme, f"{code} is not in the README's error table")
            self.assertIn(code, covered, f"{code} has no case in tests/specs/bad/")


if __name__ == "__main__":
    unittest.main()
