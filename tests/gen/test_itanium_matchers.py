# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Generator tests for the constructs the Itanium spec brought: matchers, range covers,
array parameters, layout views, any()/all() and branch-free boolean operators.
They hold for any family; the Itanium spec is only the main user."""

import os
import random
import re
import sys
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.emit import render_family  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402
import families  # noqa: E402

BASE = "family: t\ntitle: test\nlayouts:\n  r: {fields: [{name: x, bits: \"63:0\"}]}\n"


def family(*parts):
    text = BASE + "".join(textwrap.dedent(p) for p in parts)
    return Builder(load("t.yaml", text=text), "t.yaml").build()


def errors(*parts):
    try:
        family(*parts)
    except SpecError as e:
        return [(d.code, d.line) for d in e.errors]
    return []


VA = """
matchers:
  va:
    params: {value: ip, ref: addr, mask: mask}
    rules:
      - {bits: "50:0", mask: care}
      - {bits: "55:51", from: "50", mask: care}
      - {bits: "60:56", from: "50", mask: none}
      - {bits: "63:61", mask: none}
  em:
    params: {value: enco, ref: match, mask: mask}
    width: 27
    rules:
      - {bits: "26:13", from: "40:27", mask: dont_care}
      - {bits: "12:0", mask: dont_care}
"""


def evaluate(M, ref, mask, value):
    """The matcher by its model: the three mask operations the generated C performs."""
    want = 0
    for kind, x, tm in M.want_terms():
        if kind == "copy":
            want |= (-((value >> x) & 1) & ((1 << 64) - 1)) & tm
        elif x >= 0:
            want |= (value >> x) & tm
        else:
            want |= (value << -x) & tm
    cmp = (mask & M.bits("care")) | (~mask & M.bits("dont_care")) | M.bits("none")
    return ((ref ^ want) & cmp) == 0


def naive(M):
    """The same matcher bit by bit, straight from its rules: a function of (ref, mask, value). Each rule's
    bits are listed once, as (bit, the value's bit it compares with, whether a mask bit of 1 compares it,
    whether one of 0 does)."""
    bits = []
    for R in M.rules:
        for b in range(R.lo, R.hi + 1):
            src = R.src[0] if R.replicated else R.src[1] + (b - R.lo)
            bits.append((b, src, R.kind in ("care", "none"), R.kind in ("dont_care", "none")))

    def match(ref, mask, value):
        for b, src, on_one, on_zero in bits:
            if ((ref >> b) & 1) != ((value >> src) & 1) and (on_one if (mask >> b) & 1 else on_zero):
                return False
        return True
    return match


class Matchers(unittest.TestCase):
    def test_masks_and_largest_block(self):
        fam = family(VA)
        va, em = fam.matchers
        self.assertEqual(va.bits("care"), (1 << 56) - 1)
        self.assertEqual(va.bits("none"), ((1 << 64) - 1) ^ ((1 << 56) - 1))
        self.assertEqual(em.bits("dont_care"), (1 << 27) - 1)
        # bits 50:0 are a masked compare of themselves, but bit 50 also decides 60:51
        self.assertEqual(va.max_block(), 50)
        self.assertEqual(em.max_block(), 0)

    def test_mask_arithmetic_agrees_with_the_rules(self):
        fam = family(VA)
        rng = random.Random(4)
        for M in fam.matchers:
            by_rules = naive(M)
            for _ in range(20000):
                value = rng.getrandbits(64)
                ref = rng.choice([value, value ^ (1 << rng.randrange(64)), rng.getrandbits(64)])
                if M.name == "em":
                    ref = ((value >> 14) & 0x7FFE000 | value & 0x1FFF) ^ (rng.getrandbits(27) & rng.getrandbits(27))
                mask = rng.choice([0, (1 << 64) - 1, rng.getrandbits(64), rng.getrandbits(64) & rng.getrandbits(64)])
                self.assertEqual(evaluate(M, ref, mask, value), by_rules(ref, mask, value), (M.name, ref, mask, value))

    def test_generated_c_has_no_branch(self):
        fam = family(VA, """
        range_covers:
          cov: {matcher: va, pairs: 4, granule: 4}
        """)
        text = render_family(fam, "spec/t.yaml", b"")
        body = re.search(r"static inline int pmregs_t_va\(([^)]*)\)\n\{\n(.*?)\n\}", text, re.S)
        self.assertEqual(body.group(1), "uint64_t ip, uint64_t addr, uint64_t mask")
        self.assertNotRegex(body.group(2), r"\bif\b|\bfor\b|\?|&&|\|\|")
        self.assertIn("PMREGS_T_COV_MAX_BLOCK 50", re.sub(r"\s+", " ", text))
        self.assertIn("pmregs_range_cover(start, end, slack, 4, 50, PMREGS_T_VA_CARE_BITS, 4,", text)

    def test_range_cover_needs_an_address_matcher(self):
        self.assertEqual([c for c, _ in errors(VA, """
        range_covers:
          cov: {matcher: em, pairs: 4, granule: 0}
        """)], ["PMR081"])


class Expressions(unittest.TestCase):
    SPEC = """
    functions:
      - name: pair
        params: {br: "u64[8]", i: u8, ip: u64, on: bool}
        returns: bool
        expr: "on and r(br[2*i+1]).x != 0 and va(ip, br[2*i], br[2*i+1])"
      - name: anyp
        params: {br: "u64[8]", ip: u64}
        returns: bool
        expr: "any(pair(br, i, ip, True) for i in range(4)) or all(br[k] == 0 for k in range(2, 4))"
      - name: six
        params: {v: "u64[6]", i: u8}
        returns: u64
        expr: "v[i] + v[5]"
    """

    def test_arrays_views_and_unrolling(self):
        fam = family(VA, self.SPEC)
        pair, anyp, six = fam.functions
        self.assertIn("br[(((PMREGS_U64(2) * ((uint64_t)(i))) + PMREGS_U64(1)) & 7)]", pair.c_expr)
        self.assertIn("(on != 0)", pair.c_expr)                     # a bool argument may be any non-zero int
        self.assertIn("pmregs_t_va(ip, br[", pair.c_expr)
        self.assertEqual(anyp.c_expr.count("pmregs_t_pair(br, "), 4)  # unrolled, no loop
        self.assertIn("br[2]", anyp.c_expr)
        self.assertIn("br[3]", anyp.c_expr)
        self.assertIn("v[(((uint64_t)(i)) % 6)]", six.c_expr)        # not a power of two: modulo
        self.assertIn("v[5]", six.c_expr)
        for f in fam.functions:
            self.assertNotRegex(f.c_expr, r"&&|\|\|")

    def test_declarations(self):
        text = render_family(family(VA, self.SPEC), "spec/t.yaml", b"")
        self.assertIn("static inline int pmregs_t_pair(const uint64_t br[8], uint8_t i, uint64_t ip, int on)", text)
        self.assertIn("static inline uint64_t pmregs_t_six(const uint64_t v[6], uint8_t i)", text)

    def test_errors(self):
        cases = {
            '"br[8] != 0"': "PMR042",                    # constant index past the end
            '"br != 0"': "PMR042",                       # an array is not a value
            '"any(br[0] != 0)"': "PMR040",               # any() takes a generator
            '"any(br[i] != 0 for i in range(n))"': "PMR042",  # bounds must be constants
            '"any(br[k] != 0 for k in range(70))"': "PMR042",  # at most 64 values
            '"any(br[n] != 0 for n in range(2))"': "PMR042",   # the loop name hides a parameter
            '"va(br[0], br[1])"': "PMR042",              # three arguments
            '"r(br[0], br[1]).x != 0"': "PMR042",        # a view takes one value
        }
        for expr, code in cases.items():
            got = errors(VA, """
            functions:
              - {name: f, params: {br: "u64[8]", n: u8}, returns: bool, expr: %s}
            """ % expr)
            self.assertEqual([c for c, _ in got], [code], expr)


class ItaniumSpec(unittest.TestCase):
    def test_every_generated_function_is_branch_free(self):
        fam = families.family(os.path.join(ROOT, "spec", "itanium.yaml"))
        names = {f.name for f in fam.functions}
        self.assertTrue({"ibr_match", "ibr_range_tag", "imatch", "opcode_match", "tag_pmc8", "tag_pmc9",
                         "dbr_match", "dbr_range_match", "dbr_range_tag"} <= names)
        for f in fam.functions:
            if f.name != "counter_read":                 # a selection, compiled to ?:
                self.assertNotRegex(f.c_expr, r"&&|\|\||\?", f.name)
        self.assertEqual([m.name for m in fam.matchers], ["va_match", "ematch"])
        self.assertEqual([(c.name, c.pairs, c.granule, c.max_block) for c in fam.range_covers],
                         [("ibr_cover", 4, 4, 50), ("dbr_cover", 4, 0, 50)])


if __name__ == "__main__":
    unittest.main()
