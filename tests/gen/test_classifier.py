# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The classifier construct (gen/pmregs_gen/constructs/classifier.py): patterns, gathers, the overlap check,
pattern merging, evaluation, located errors, and the generated C against the generator's own evaluation."""

import os
import random
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pmregs_gen.constructs import classifier  # noqa: E402
from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.emit import render_headers, render_selftest  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402
import families  # noqa: E402

# A small instruction set of 16-bit words: two branches that differ in one bit, a jump with a
# sign-extended split offset, a class that exists for one mode only, and a condition on a field.
SPEC = textwrap.dedent("""\
    family: t
    title: test
    enums:
      kind: {values: {other: 0, branch: 1, jump: 2, halt: 3}}
    constants:
      flag_taken: 0x1
      flag_wide: 0x2
    classifiers:
      insn:
        word: {name: w, width: 16}
        params:
          mode: {type: unsigned, values: [0, 1]}
        fields:
          r: "11:8"
          off:
            bits: {"7:4": "3:0", "15:14": "5|4"}
            signed: true
        outputs:
          kind: {type: u8, enum: kind}
          imm: {type: i64}
          reg: {type: u8, default: "r + 1"}
          flags: {type: u8, value: "flags | (flag_wide if kind == kind.jump and imm != 0 else 0)"}
        classes:
          - {name: beq, pattern: "---- 00-- ---- 0000", set: {kind: branch, imm: off, flags: flag_taken}}
          - {name: bne, pattern: "---- 00-- ---- 0001", set: {kind: branch, imm: off, flags: flag_taken}}
          - {name: jmp, pattern: "---- ---- ---- 0010", when: "r != 0", set: {kind: jump, imm: "off * 2"}}
          - {name: halt, pattern: "1111 1111 1111 1111", when: "mode == 1", set: {kind: halt, reg: 0}}
    """)


def family(text, path="t.yaml"):
    return Builder(load(path, text=text), path).build()


def codes(text):
    try:
        family(text)
    except SpecError as e:
        return [(d.code, d.line) for d in e.errors]
    return []


def errors(text):
    try:
        family(text)
    except SpecError as e:
        return e.errors
    return []


class Patterns(unittest.TestCase):
    def test_mask_and_match_from_the_manual_notation(self):
        C = families.family(os.path.join(ROOT, "spec", "riscv.yaml")).classifiers[0]
        K = {k.name: k for k in C.classes}
        self.assertEqual((K["jalr"].mask, K["jalr"].match), (0x707F, 0x67))
        self.assertEqual((K["c_jr"].mask, K["c_jr"].match), (0xF07F, 0x8002))
        self.assertEqual(K["c_jr"].bits, 16)           # a 16-bit pattern covers the low half only
        self.assertEqual(K["ecall"].mask, 0xFFFFFFFF)

    def test_bad_characters_and_widths(self):
        self.assertEqual(codes(SPEC.replace('"---- 00-- ---- 0000"', '"---- 00-- ---- 000x"')), [("PMR130", 24)])
        self.assertEqual(codes(SPEC.replace('"---- 00-- ---- 0000"', '"0 ---- 00-- ---- 0000"')), [("PMR130", 24)])


class Gathers(unittest.TestCase):
    def field(self, text):
        return {f.name: f for f in family(text).classifiers[0].fields}

    def test_split_signed_field(self):
        off = self.field(SPEC)["off"]
        # value bits 3:0 from word 7:4, bit 5 from word 15, bit 4 from word 14; sign bit 5
        self.assertEqual(off.value(0x0010), 1)
        self.assertEqual(off.value(0x4000), 16)
        self.assertEqual(off.value(0x8000), (1 << 64) - 32)       # -32: the most negative
        self.assertEqual(off.value(0x40F0), 31)                    # the most positive
        self.assertEqual(off.vwidth, 6)

    def test_riscv_immediates_against_the_manual(self):
        """The ISA's immediate layouts, bit by bit ("Immediate Encoding Variants", RVC formats)."""
        F = {f.name: f for f in families.family(os.path.join(ROOT, "spec", "riscv.yaml")).classifiers[0].fields}
        rng = random.Random(1)

        def bit(w, b):
            return (w >> b) & 1

        def sext(x, w):
            return (x - (1 << w) if x >> (w - 1) & 1 else x) & ((1 << 64) - 1)

        for _ in range(2000):
            w = rng.getrandbits(32)
            b = bit(w, 31) << 12 | bit(w, 7) << 11 | ((w >> 25) & 63) << 5 | ((w >> 8) & 15) << 1
            j = bit(w, 31) << 20 | ((w >> 12) & 255) << 12 | bit(w, 20) << 11 | ((w >> 21) & 1023) << 1
            cj = (bit(w, 12) << 11 | bit(w, 11) << 4 | bit(w, 10) << 9 | bit(w, 9) << 8 | bit(w, 8) << 10 |
                  bit(w, 7) << 6 | bit(w, 6) << 7 | bit(w, 5) << 3 | bit(w, 4) << 2 | bit(w, 3) << 1 | bit(w, 2) << 5)
            cb = (bit(w, 12) << 8 | bit(w, 11) << 4 | bit(w, 10) << 3 | bit(w, 6) << 7 | bit(w, 5) << 6 |
                  bit(w, 4) << 2 | bit(w, 3) << 1 | bit(w, 2) << 5)
            self.assertEqual(F["b_imm"].value(w), sext(b, 13))
            self.assertEqual(F["j_imm"].value(w), sext(j, 21))
            self.assertEqual(F["i_imm"].value(w), sext(w >> 20, 12))
            self.assertEqual(F["u_imm"].value(w), sext(w & 0xFFFFF000, 32))
            self.assertEqual(F["cj_imm"].value(w), sext(cj, 12))
            self.assertEqual(F["cb_imm"].value(w), sext(cb, 9))
            self.assertEqual(F["ci_lui_imm"].value(w), sext(bit(w, 12) << 17 | ((w >> 2) & 31) << 12, 18))

    def test_gather_errors(self):
        outside = SPEC.replace('r: "11:8"', 'r: "16:8"')
        self.assertEqual(codes(outside), [("PMR132", 14)])
        widths = SPEC.replace('"15:14": "5|4"', '"15:14": "5"')
        self.assertEqual(codes(widths), [("PMR132", 16)])
        twice = SPEC.replace('"15:14": "5|4"', '"15:14": "3|4"')
        self.assertEqual(codes(twice), [("PMR132", 16)])
        reread = SPEC.replace('"15:14": "5|4"', '"5:4": "5|4", "4:4": "6"')
        self.assertEqual(codes(reread)[0][0], "PMR132")


class Overlaps(unittest.TestCase):
    def test_the_spec_is_accepted(self):
        C = family(SPEC).classifiers[0]
        self.assertEqual([K.name for K in C.classes], ["beq", "bne", "jmp", "halt"])

    def test_overlapping_patterns_are_refused_with_a_witness(self):
        bad = SPEC.replace('"---- ---- ---- 0010", when: "r != 0"', '"---- 00-- ---- 00-0"')
        e = errors(bad)
        self.assertEqual([(d.code, d.line) for d in e], [("PMR131", 26)])
        self.assertRegex(e[0].message, r"classes 'beq' \(line 24\) and 'jmp' both match w = 0x0\b")

    def test_a_condition_makes_patterns_disjoint(self):
        # jmp2 shares jmp's pattern; the conditions on r keep them apart, or not
        extra = '\n      - {name: jmp2, pattern: "---- ---- ---- 0010", when: "r == 0", set: {kind: jump}}\n'
        self.assertEqual(codes(SPEC + extra), [])
        extra = '\n      - {name: jmp2, pattern: "---- ---- ---- 0010", when: "r == 3", set: {kind: jump}}\n'
        e = errors(SPEC + extra)
        self.assertEqual([d.code for d in e], ["PMR131"])
        self.assertIn("w = 0x302", e[0].message)

    def test_a_parameter_makes_patterns_disjoint(self):
        extra = '\n      - {name: nop, pattern: "1111 1111 1111 1111", when: "mode == 0", set: {kind: other}}\n'
        self.assertEqual(codes(SPEC + extra), [])
        extra = '\n      - {name: nop, pattern: "1111 1111 1111 1111", when: "mode != 0", set: {kind: other}}\n'
        self.assertEqual([c for c, _ in codes(SPEC + extra)], ["PMR131"])

    def test_undecidable_pairs(self):
        # a parameter without values
        nod = SPEC.replace("mode: {type: unsigned, values: [0, 1]}", "mode: {type: unsigned}")
        extra = '\n      - {name: nop, pattern: "1111 1111 1111 1111", when: "mode == 0", set: {kind: other}}\n'
        self.assertEqual([c for c, _ in codes(nod + extra)], ["PMR134"])
        # a condition that reads the whole word: 2^15 words decide a 16-bit pair, 2^31 are too many
        small = textwrap.dedent("""\
            family: u
            title: t
            classifiers:
              c:
                word: {name: w, width: WIDTH}
                outputs: {k: {type: u8}}
                classes:
                  - {name: a, pattern: "1", when: "w != 3", set: {k: 1}}
                  - {name: b, pattern: "1", when: "w == 3", set: {k: 2}}
            """)
        self.assertEqual(codes(small.replace("WIDTH", "16")), [])
        self.assertEqual(codes(small.replace("WIDTH", "32")), [("PMR134", 9)])


class Errors(unittest.TestCase):
    def test_located(self):
        self.assertEqual(codes(SPEC.replace("when: \"r != 0\"", "wen: \"r != 0\"")), [("PMR002", 26)])
        self.assertEqual(codes(SPEC.replace("imm: \"off * 2\"", "offset: \"off * 2\"")), [("PMR030", 26)])
        self.assertEqual(codes(SPEC.replace("when: \"r != 0\"", "when: \"q != 0\"")), [("PMR041", 26)])
        self.assertEqual(codes(SPEC.replace("kind: {type: u8, enum: kind}", "kind: {type: u8, enum: knd}")),
                         [("PMR030", 19)])
        self.assertEqual(codes(SPEC.replace("kind: {type: u8, enum: kind}", "kind: {type: u3}")), [("PMR031", 19)])
        self.assertEqual(codes(SPEC.replace('r: "11:8"', 'mode: "11:8"')), [("PMR021", 14)])
        self.assertEqual(codes(SPEC.replace('r: "11:8"', 'flag_wide: "11:8"')), [("PMR021", 14)])
        self.assertEqual(codes(SPEC.replace("- {name: bne,", "- {name: beq,")), [("PMR021", 25)])
        cyc = SPEC.replace('imm: {type: i64}', 'imm: {type: i64, value: "flags"}')
        self.assertEqual(codes(cyc), [("PMR133", 22)])

    def test_a_column_of_the_error_is_the_expression_token(self):
        e = errors(SPEC.replace("when: \"r != 0\"", "when: \"r != zz\""))
        self.assertEqual(e[0].code, "PMR041")
        line = SPEC.replace("when: \"r != 0\"", "when: \"r != zz\"").split("\n")[e[0].line - 1]
        self.assertEqual(line[e[0].col - 1:e[0].col + 1], "zz")


class Evaluation(unittest.TestCase):
    def setUp(self):
        self.fam = family(SPEC)
        self.C = self.fam.classifiers[0]

    def ev(self, w, mode=0):
        K, out = classifier.evaluate(self.fam, self.C, w, {"mode": mode})
        return (K.name if K else None), out

    def test_classes_defaults_and_values(self):
        self.assertEqual(self.ev(0x0010), ("beq", {"kind": 1, "imm": 1, "reg": 1, "flags": 1}))
        self.assertEqual(self.ev(0x8001), ("bne", {"kind": 1, "imm": (1 << 64) - 32, "reg": 1, "flags": 1}))
        # jmp: imm = off * 2, and the value expression adds flag_wide; reg is the default r + 1
        self.assertEqual(self.ev(0x0132), ("jmp", {"kind": 2, "imm": 6, "reg": 2, "flags": 2}))
        self.assertEqual(self.ev(0x0102), ("jmp", {"kind": 2, "imm": 0, "reg": 2, "flags": 0}))
        self.assertEqual(self.ev(0x0002), (None, {"kind": 0, "imm": 0, "reg": 1, "flags": 0}))
        self.assertEqual(self.ev(0xFFFF, 1), ("halt", {"kind": 3, "imm": 0, "reg": 0, "flags": 0}))
        self.assertEqual(self.ev(0xFFFF, 0), (None, {"kind": 0, "imm": 0, "reg": 16, "flags": 0}))

    def test_merging(self):
        items = classifier.merged(self.C)
        self.assertEqual([names for _, _, names, _, _ in items], [["beq", "bne"], ["jmp"], ["halt"]])
        self.assertEqual((items[0][0], items[0][1]), (0x0C0E, 0x0000))

    def test_vectors_cover_every_class_and_mode(self):
        rows = classifier.vectors(self.fam, self.C)
        self.assertEqual({(r[0], r[2][0]) for r in rows if r[0]},
                         {("beq", 0), ("beq", 1), ("bne", 0), ("bne", 1), ("jmp", 0), ("jmp", 1), ("halt", 1)})
        # the sign bit of the offset alone: the most negative offset is among them
        self.assertIn((1 << 64) - 32, {r[3][1] for r in rows if r[0] == "beq"})


class Expressions(unittest.TestCase):
    """What the classifier added to the expression language (gen/pmregs_gen/expr.py)."""

    FN = textwrap.dedent("""\
        family: e
        title: t
        constants: {limit: 7}
        functions:
          - {name: pick, params: {x: u8, n: unsigned}, returns: unsigned, expr: "x + limit if n > 3 else x"}
          - {name: twice, params: {x: u8}, returns: u8, expr: "pick(x, 9) * 2"}
        """)

    def test_constants_and_unsigned(self):
        fam = family(self.FN, "e.yaml")
        h = render_headers(fam, "spec/e.yaml", self.FN.encode())["e.h"]
        self.assertIn("static inline unsigned pmregs_e_pick(uint8_t x, unsigned n)", h)
        self.assertIn("PMREGS_E_LIMIT", h[h.index("pmregs_e_pick("):])
        self.assertEqual(codes(self.FN.replace("x + limit", "x + limitt")), [("PMR041", 5)])

    def test_masked_mode_has_no_conditional_operator(self):
        from pmregs_gen.expr import Evaluator, compile_scalar, parse, parse_scalar
        from pmregs_gen.diag import Diag
        fam = family(self.FN, "e.yaml")
        twice = fam.functions[1]
        self.assertIn("?", twice.c_expr + fam.functions[0].c_expr)       # functions keep ?: ...
        d = Diag()
        masked = compile_scalar(fam, twice, twice.expr_node, "u8", d, masked=True)
        self.assertEqual(d.errors, [])
        self.assertNotIn("?", masked)                                    # ... a classifier expands them
        self.assertNotIn("pmregs_e_pick", masked)
        # the evaluator agrees with the language's semantics: 7 + 7 = 14 doubled, and wrapping to u8
        self.assertEqual(Evaluator(fam, {"x": 7}).eval(parse_scalar(twice.expr_node).body), 28)
        self.assertEqual(Evaluator(fam, {"x": 250}).eval(parse_scalar(twice.expr_node).body), 514)
        self.assertEqual(Evaluator(fam, {"y": 250}).eval(parse("twice(y)").body), 514 & 0xFF)   # a call converts

    def test_evaluator_wraps_like_c(self):
        from pmregs_gen.expr import Evaluator, parse
        fam = family(self.FN, "e.yaml")

        def ev(text, **env):
            return Evaluator(fam, env).eval(parse(text).body)
        self.assertEqual(ev("0 - 1"), (1 << 64) - 1)
        self.assertEqual(ev("x << 70", x=1), 1 << 6)          # a shift count modulo 64, as the C masks it
        self.assertEqual(ev("~0 >> 60"), 15)
        self.assertEqual(ev("x[7:4]", x=0xAB), 0xA)
        self.assertEqual(ev("x[n]", x=0b100, n=66), 1)
        self.assertEqual(ev("not x and limit == 7", x=0), 1)
        self.assertEqual(ev("3 if x > 2 else 4", x=2), 4)
        self.assertEqual(ev("any(x[i] for i in range(4))", x=8), 1)


class GeneratedC(unittest.TestCase):
    def test_decode_is_mask_arithmetic(self):
        h = render_headers(family(SPEC), "spec/t.yaml", SPEC.encode())["t.h"]
        body = h[h.index("pmregs_t_insn_decode(uint16_t w, unsigned mode)"):]
        body = body[:body.index("\n}\n")]
        self.assertNotIn("?", body)
        self.assertNotRegex(body, r"\b(if|for|while|switch)\b")
        self.assertRegex(h, r"#define PMREGS_T_INSN_BEQ_MASK +PMREGS_U16\(0x0c0f\) /\* ---- 00-- ---- 0000 \*/")
        self.assertEqual(body.count("Sel = "), 3)     # beq and bne merged into one pattern
        self.assertIn("/* ----00------000-  beq, bne */", body)

    def test_classes_with_the_same_outputs_share_one_mask(self):
        # two patterns that cannot merge (they differ in two bits) but set the same outputs: one block, two tests
        extra = ('\n      - {name: bgt, pattern: "---- 00-- ---- 1000",'
                 ' set: {kind: branch, imm: off, flags: flag_taken}}\n')
        h = render_headers(family(SPEC + extra), "spec/t.yaml", (SPEC + extra).encode())["t.h"]
        body = h[h.index("pmregs_t_insn_decode(uint16_t w, unsigned mode)"):]
        self.assertEqual(body.count("Sel = "), 3)
        self.assertIn("beq, bne, bgt */", body)

    def test_selftest_compiles_and_passes(self):
        fam = family(SPEC)
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "pmregs"))
            for name, text in render_headers(fam, "spec/t.yaml", SPEC.encode()).items():
                with open(os.path.join(d, "pmregs", name), "w", encoding="utf-8") as f:
                    f.write(text)
            src = os.path.join(d, "selftest_t.c")
            with open(src, "w", encoding="utf-8") as f:
                f.write(render_selftest(fam, "spec/t.yaml", SPEC.encode()))
            exe = os.path.join(d, "st")
            p = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Wsign-conversion",
                                "-Wshadow", "-Werror", "-O1", "-I", d, "-I", os.path.join(ROOT, "include", "pmregs"),
                                "-I", os.path.join(ROOT, "include"), src, "-o", exe], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            p = subprocess.run([exe], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            checks = int(re.search(r"(\d+) checks, 0 failed", p.stdout).group(1))
            self.assertGreater(checks, 100)


if __name__ == "__main__":
    unittest.main()
