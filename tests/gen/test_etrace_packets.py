# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Unit tests of the packets construct (gen/pmregs_gen/constructs/packets.py) and of spec/etrace.yaml's model."""

import ast
import os
import sys
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.constructs.packets import ExprTool, Leaf, Read, Scope, Switch  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402
import families  # noqa: E402

HEAD = "family: t\ntitle: test\nlayouts: {}\n"


def family(body):
    return Builder(load("t.yaml", text=HEAD + textwrap.dedent(body)), "t.yaml").build()


def codes(body):
    try:
        family(body)
    except SpecError as e:
        return [d.code for d in e.errors]
    return []


PACKET = """
params:
  w_p: {doc: a width, default: 8, min: 1, max: 16}
packets:
  p:
    doc: a packet
    compression: sign
    max_bytes: 8
    fields:
      kind: {width: 2, doc: kind, values: {small: 0, big: 1, other: 2}}
      n: {width: 3, doc: count}
      data: {width: "n * 2", doc: data}
      wide: {width: w_p, doc: wide}
      flag: {width: 1, differential: true, doc: flag}
      depth: {width: 3, reported_if: flag, doc: depth}
    shapes:
      - {name: small, doc: small, fields: [{name: kind, is: small}, n, data, flag, depth]}
      - {name: big, doc: big, fields: [{name: kind, is: "big..other"}, wide]}
"""


class TestPacketModel(unittest.TestCase):
    def test_loads(self):
        fam = family(PACKET)
        P = fam.packets[0]
        self.assertEqual([s.name for s in P.shapes], ["small", "big"])
        self.assertEqual(dict(P.members), {"kind": 2, "n": 3, "data": 14, "wide": 16, "flag": 1, "depth": 3})
        # natural length bound: small = 2 + 3 + 14 + 1 + 3, big = 2 + 16
        self.assertEqual(P.max_bits, 23)

    def test_decision_tree(self):
        P = family(PACKET).packets[0]
        self.assertIsInstance(P.tree, Switch)
        self.assertEqual(P.tree.index, 0)
        sets = [s for s, _ in P.tree.cases]
        self.assertEqual(sets, [[(0, 0)], [(1, 2)]])
        self.assertTrue(all(isinstance(sub, Leaf) for _, sub in P.tree.cases))

    def test_common_prefix_is_read_once(self):
        P = family(PACKET.replace("[{name: kind, is: small}, n,", "[n, {name: kind, is: small},")
                   .replace("[{name: kind, is: \"big..other\"}, wide]", "[n, {name: kind, is: \"big..other\"}, wide]")).packets[0]
        self.assertIsInstance(P.tree, Read)
        self.assertIsInstance(P.tree.child, Switch)
        self.assertEqual(P.tree.child.index, 1)

    def test_overlapping_shapes(self):
        self.assertIn("PMR090", codes(PACKET.replace('is: "big..other"', 'is: "small..big"')))

    def test_missing_discriminator(self):
        self.assertIn("PMR090", codes(PACKET.replace('{name: kind, is: "big..other"}', "kind")))

    def test_width_range(self):
        self.assertIn("PMR091", codes(PACKET.replace('"n * 2"', '"n * 20"')))

    def test_unknown_name(self):
        self.assertIn("PMR041", codes(PACKET.replace('"n * 2"', '"m * 2"')))

    def test_field_sent_later(self):
        self.assertIn("PMR041", codes(PACKET.replace('"n * 2"', '"depth"')))

    def test_param_range(self):
        self.assertIn("PMR092", codes(PACKET.replace("default: 8", "default: 17")))

    def test_differential_first(self):
        body = PACKET.replace("[{name: kind, is: small}, n, data, flag, depth]", "[flag, {name: kind, is: small}]")
        self.assertIn("PMR093", codes(body))

    def test_value_only_in_frames(self):
        self.assertIn("PMR093", codes(PACKET.replace("n: {width: 3, doc: count}", 'n: {width: 3, doc: count, value: "1"}')))

    def test_merge(self):
        body = PACKET.replace("    compression: sign\n", "    compression: sign\n    merge: [[big, small]]\n", 1)
        M = family(body).packets[0].merges
        self.assertEqual(len(M), 1)
        self.assertEqual([S.name for _, S in M[0]["members"]], ["big", "small"])
        self.assertEqual(M[0]["fields"], ["wide", "n", "data", "flag", "depth"])
        self.assertIn("PMR030", codes(body.replace("[[big, small]]", "[[big, tiny]]")))
        self.assertIn("PMR093", codes(body.replace("[[big, small]]", "[[big]]")))
        self.assertIn("PMR021", codes(body.replace("[[big, small]]", "[[big, small], [small, big]]")))
        # the same field in another width, or two shapes that the same values choose, cannot be merged
        self.assertIn("PMR090", codes(body.replace("[{name: kind, is: \"big..other\"}, wide]",
                                                   "[{name: kind, is: \"big..other\"}, {name: n, width: 2}]")))
        three = body.replace('is: "big..other"', "is: big").replace(
            'is: big}, wide]', 'is: big}, wide]}'
            '\n      - {name: c1, doc: c1, fields: [{name: kind, is: other}, {name: n, is: 1}]}'
            '\n      - {name: c2, doc: c2, fields: [{name: kind, is: other}, {name: n, is: 2}]')
        self.assertEqual(codes(three.replace("[[big, small]]", "[[c1, c2], [big, small]]")), [])
        self.assertIn("PMR090", codes(three.replace("[[big, small]]", "[[small, c1, c2]]")))

    def test_merge_only_sign(self):
        frame = """
packets:
  f:
    doc: a frame
    size: "1"
    merge: [[a, b]]
    fields:
      k: {width: 1, doc: k}
      x: {width: 7, doc: x}
    shapes:
      - {name: a, doc: a, fields: [{name: k, is: 0}, x]}
      - {name: b, doc: b, fields: [{name: k, is: 1}, x]}
"""
        self.assertIn("PMR093", codes(frame))

    def test_checks(self):
        body = PACKET.replace("    compression: sign\n", "    compression: sign\n    checks:\n      - {expr: \"n < 7 or w_p > 2\", doc: a rule}\n", 1)
        self.assertEqual(len(family(body).packets[0].checks), 1)
        self.assertIn("PMR041", codes(body.replace("n < 7", "q < 7")))

    def test_is_must_fit(self):
        self.assertIn("PMR014", codes(PACKET.replace('is: "big..other"', 'is: "1..4"')))


class TestExpressions(unittest.TestCase):
    def setUp(self):
        self.fam = family(PACKET)
        self.tool = ExprTool(self.fam)

    def rng(self, text, **args):
        tree = ast.parse(text, mode="eval").body
        return self.tool.rng(None, tree, Scope(self.fam, args=args))

    def test_intervals(self):
        self.assertEqual(self.rng("w_p - 1"), (0, 15))
        self.assertEqual(self.rng("0 if w_p > 4 else w_p"), (0, 16))
        self.assertEqual(self.rng("w_p // 8"), (0, 2))
        self.assertEqual(self.rng("w_p % 8"), (0, 7))
        self.assertEqual(self.rng("8 * w_p"), (8, 128))
        self.assertEqual(self.rng("x + 1", x=(0, 4)), (1, 5))

    def test_c_text(self):
        tree = ast.parse("0 if w_p > 4 else w_p - 1", mode="eval").body
        c = self.tool.c(tree, lambda n: f"P_{n}")
        self.assertEqual(c, "((P_w_p > PMREGS_U64(4)) ? PMREGS_U64(0) : (P_w_p - PMREGS_U64(1)))")


class TestEtraceSpec(unittest.TestCase):
    """The spec file itself: what the manual's tables say, as the model sees it."""

    @classmethod
    def setUpClass(cls):
        cls.fam = families.family(os.path.join(ROOT, "spec", "etrace.yaml"))
        cls.te = next(p for p in cls.fam.packets if p.name == "te_inst")

    def shape(self, name):
        return next(s for s in self.te.shapes if s.name == name)

    def test_every_payload(self):
        self.assertEqual(sorted(s.name for s in self.te.shapes),
                         sorted(["start", "trap", "context", "support", "addr_only", "diff_delta", "diff_delta_full",
                                 "branch_count", "branch_count_addr", "jump_target_cache"]))

    def test_field_order(self):
        # E-Trace spec format 2 and format 3.1 tables, transmission order
        self.assertEqual([f.name for f in self.shape("addr_only").fields],
                         ["format", "address", "notify", "updiscon", "irreport", "irdepth"])
        self.assertEqual([f.name for f in self.shape("trap").fields],
                         ["format", "subformat", "branch", "privilege", "time", "context", "ecause", "interrupt",
                          "thaddr", "address", "tval"])
        self.assertEqual([f.name for f in self.shape("support").fields],
                         ["format", "subformat", "ienable", "encoder_mode", "qual_status", "ioptions", "denable",
                          "dloss", "doptions"])

    def test_root_switch_is_format(self):
        self.assertIsInstance(self.te.tree, Switch)
        self.assertEqual(self.shape("start").fields[self.te.tree.index].name, "format")
        self.assertEqual(len(self.te.tree.cases), 4)

    def test_qual_status_values(self):
        f = next(f for f in self.shape("support").fields if f.name == "qual_status")
        self.assertEqual([(n, v) for n, v, _ in f.values],
                         [("no_change", 0), ("ended_rep", 1), ("trace_lost", 2), ("ended_ntr", 3)])

    def test_flags_are_differential(self):
        for s in ("addr_only", "diff_delta", "branch_count_addr"):
            fl = {f.name: f for f in self.shape(s).fields}
            self.assertTrue(fl["notify"].differential and fl["updiscon"].differential and fl["irreport"].differential)
            self.assertEqual(fl["irdepth"].reported_if.text, "irreport")

    def test_max_payload(self):
        self.assertEqual(self.te.max_bytes, 31)


FRAMED = """
params:
  w_p: {doc: a width, default: 8, min: 1, max: 16}
packets:
  p:
    doc: a payload
    compression: sign
    max_bytes: 8
    fields:
      a: {width: 12, doc: a}
    shapes:
      - {name: one, doc: one, fields: [a]}
  fr:
    doc: a frame
    size: "1 if length == 0 else 1 + length"
    fields:
      length: {width: 5, doc: "payload bytes", value: "(rest_bits + 7) // 8"}
      kind: {width: 3, doc: "what the payload is"}
      payload: {rest: true, doc: "the payload"}
    shapes:
      - {name: fill, doc: a zero byte, fields: [FILL]}
      - {name: message, doc: a message, fields: [ORDER, payload]}
streams:
  st:
    doc: frames in a byte buffer
    frame: fr
    payload: p
    payload_if: "kind == 1"
    resync_zeros: "33"
    fast_if: "kind == 1"
"""


class TestFirstTry(unittest.TestCase):
    """A stream reader's first try: the length's range, the payload's bound and the fixed fields in one compare
    exactly when the range-tested field lies below the fixed ones."""

    def fast(self, order, fill):
        from pmregs_gen.emit import HeaderView
        text = FRAMED.replace("ORDER", order).replace("FILL", fill)
        fam = family(text)
        return HeaderView(fam, "t.yaml", text.encode(), reserved=False).packets_view["streams"][0]["fast"]

    def test_length_below(self):
        f = self.fast('{name: length, is: "1..31"}, kind',
                      "{name: length, is: 0}, {name: kind, is: 0}")
        self.assertTrue(f["bounded"])
        # kind 1 at bits 7:5, length 1..8 at bits 4:0 (8 payload bytes at most)
        self.assertEqual(f["conds"][0], "(head & (PMREGS_U64(0xff))) - (PMREGS_U64(0x21)) <= PMREGS_U64(0x7)")

    def test_length_above(self):
        # the same fields sent the other way round: kind below the length, no single compare
        f = self.fast('{name: kind, is: "1..7"}, {name: length, is: "1..31"}',
                      "{name: kind, is: 0}, {name: length, is: 0}")
        self.assertFalse(f["bounded"])
        self.assertEqual(f["conds"], ["(head & (PMREGS_U64(0x7))) == (PMREGS_U64(0x1))",
                                      "((f_length >= 1u && f_length <= 31u))"])


class TestEtraceReaders(unittest.TestCase):
    """What the generator makes of spec/etrace.yaml's streams and merged shapes (generated C, as text)."""

    @classmethod
    def setUpClass(cls):
        from pmregs_gen.emit import HeaderView
        path = os.path.join(ROOT, "spec", "etrace.yaml")
        with open(path, "rb") as f:
            raw = f.read()
        cls.v = HeaderView(families.family(path), path, raw, reserved=False).packets_view

    def test_smi_first_try_is_one_compare(self):
        # SMI: msg_type 2 (bits 6:5), no timestamp (bit 7), length (bits 4:0) 1..8: one load of 8 payload bytes
        # at most, so every length up to 8 is taken and none above (a length of 9 needs a second load)
        st = next(s for s in self.v["streams"] if s["name"] == "smi_stream")
        self.assertTrue(st["fast"]["bounded"])
        self.assertIn("(head & (PMREGS_U64(0xff) | xm)) - (PMREGS_U64(0x41) | xv) <= PMREGS_U64(0x7)",
                      st["fast"]["conds"][0])
        self.assertFalse(any("f_length" in c for c in st["fast"]["conds"]))

    def test_branch_map_key_table(self):
        # formats 1 and 2 merged: one table keyed on format (bits 1:0) and branches (bits 6:2) says whether the
        # merged path takes the packet (format 2, or format 1 with 1..31 branches), its shape, branches, and
        # branch_map's position and mask; the map's width is the ETRACE format 1 table's (the smallest of 1, 3,
        # 7, 15, 31 >= branches), the address follows the map
        te = next(p for p in self.v["packets"] if p["name"] == "te_inst")
        rows = key_rows(te["decode_word_body"]["tree"],
                        "static const struct { uint32_t m_branch_map; uint8_t pos, shape, v_branches, p_branch_map; } ktab[128]")
        self.assertEqual(len(rows), 128)
        for key, row in enumerate(rows):
            fmt, n = key & 3, key >> 2
            if fmt == 2:
                want = ["0x0u", "2", "PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY", "0", "2"]
            elif fmt == 1 and n:
                w = next(w for w in (1, 3, 7, 15, 31) if w >= n)
                want = [f"{(1 << w) - 1:#x}u", str(7 + w), "PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA", str(n), "7"]
            else:
                want = ["0"] * 5
            self.assertEqual(row, want, f"key {key}")


def key_rows(lines, decl):
    """The entries of the key table declared as decl in the generated lines, each as its list of C values."""
    text = "\n".join(line.strip() for line in lines)
    at = text.index(decl + " = {")
    body = text[at + len(decl) + 4:text.index("};", at)]
    return [[x.strip() for x in row.split(",")] for row in body.replace("\n", " ").strip(" {}").split("}, {")]


class TestMergedTables(unittest.TestCase):
    """A merge group's leading fields from a key table, or a width from a width table when there is none."""

    def tree(self, body):
        from pmregs_gen.emit import HeaderView
        fam = family(body)
        return HeaderView(fam, "t.yaml", (HEAD + body).encode(), reserved=False).packets_view["packets"][0]["decode_word_body"]["tree"]

    def test_width_table_without_key(self):
        # the group's first field after kind has a parameter's width: no key table; data (n * 2 bits, only in
        # small) takes its width and mask from tables by n
        text = "\n".join(self.tree(PACKET.replace("    compression: sign\n", "    compression: sign\n    merge: [[big, small]]\n", 1)))
        self.assertNotIn("ktab", text)
        self.assertIn("static const unsigned char wtab[8] = {0, 2, 4, 6, 8, 10, 12, 14};", text)

    def test_key_table(self):
        # n after kind in both shapes: the key is kind (bits 1:0) and n (bits 4:2); small's data follows at bit 5,
        # n * 2 bits wide, and is absent (0 wide, mask 0) in big; kind 3 picks no shape; flag and depth, of
        # constant widths, are read after the table's fields
        body = PACKET.replace("    compression: sign\n", "    compression: sign\n    merge: [[big, small]]\n", 1).replace(
            '[{name: kind, is: "big..other"}, wide]', '[{name: kind, is: "big..other"}, n]')
        rows = key_rows(self.tree(body), "static const struct { uint32_t m_data; uint8_t pos, shape, v_n, p_data; } ktab[32]")
        for key, row in enumerate(rows):
            kind, n = key & 3, key >> 2
            if kind == 0:
                want = [f"{(1 << 2 * n) - 1:#x}u", str(5 + 2 * n), "PMREGS_T_P_SHAPE_SMALL", str(n), "5"]
            elif kind in (1, 2):
                want = ["0x0u", "5", "PMREGS_T_P_SHAPE_BIG", str(n), "5"]
            else:
                want = ["0"] * 5
            self.assertEqual(row, want, f"key {key}")


if __name__ == "__main__":
    unittest.main()
