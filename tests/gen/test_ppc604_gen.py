# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Generator tests for what the PowerPC 604 spec brought: msb0 conversion of every
field of spec/ppc604.yaml, set(enum) facts and columns, and the `passes` construct
(options, owned bits, per-model data, validation)."""

import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.emit import HeaderView  # noqa: E402
from pmregs_gen.model import load_family  # noqa: E402
from pmregs_gen.constructs import passes  # noqa: E402
from pmregs_gen.ctext import struct_shape  # noqa: E402
import families  # noqa: E402

PPC604 = os.path.join(ROOT, "spec", "ppc604.yaml")

# IBM ranges of MMCR0, from the reference table (section 2), written independently of the spec.
MMCR0_IBM = {"fc": (0, 0), "fcs": (1, 1), "fcp": (2, 2), "fcm1": (3, 3), "fcm0": (4, 4), "pmxe": (5, 5),
             "fcece": (6, 6), "tbsel": (7, 8), "tbee": (9, 9), "threshold": (10, 15), "pmc1ce": (16, 16),
             "pmcnce": (17, 17), "trigger": (18, 18), "pmc1sel": (19, 25), "pmc2sel": (26, 31)}
# LINUX reg.h masks (32-bit branch) for the same fields where it has them
LINUX = {"fc": 0x80000000, "fcs": 0x40000000, "fcp": 0x20000000, "fcm1": 0x10000000, "fcm0": 0x08000000,
         "pmxe": 0x04000000, "fcece": 0x02000000, "tbee": 0x00400000, "pmc1ce": 0x8000, "pmcnce": 0x4000,
         "trigger": 0x2000, "pmc1sel": 0x1FC0, "pmc2sel": 0x3F}

MINI = """\
family: {name}
title: t
bit_order: msb0
width: 32
enums:
  cpu: {{values: {{a: 0, b: 1}}}}
  counter: {{values: {{c1: 0, c2: 1, c3: 2}}}}
facts:
  models: {{type: "set(cpu)"}}
layouts:
  ctl:
    fields:
      - {{name: en, bits: "0"}}
      - {{name: sel1, bits: "1:4"}}
      - {{name: sel2, bits: "5:8"}}
      - {{name: ie1, bits: "9"}}
      - {{name: ie2, bits: "10"}}
      - {{name: rsvd_11_31, bits: "11:31", access: rsvd}}
  ctl2:
    fields:
      - {{name: sel3, bits: "0:3"}}
      - {{name: rsvd_4_31, bits: "4:31", access: rsvd}}
registers:
  - {{name: ctl, layout: ctl, models: [a, b]}}
  - {{name: ctl2, layout: ctl2, models: [b]}}
tables:
  events:
    columns:
      code: {{type: u8}}
      counters: {{type: "set(counter)"}}
      models: {{type: "set(cpu)"}}
    rows:
      - {{name: idle, code: 0, counters: [c1, c2, c3], models: [a, b]}}
      - {{name: cycles, code: 1, counters: [c1, c2, c3], models: [a, b]}}
      - {{name: misses, code: 5, counters: [c2], models: [a, b]}}
      - {{name: stalls, code: 9, counters: [c3], models: [b]}}
passes:
  pm:
    model: cpu
    models: [a, b]
    registers: [{{name: ctl}}, {{name: ctl2, models: [b]}}]
    events: {{table: events, code: code, counters: counters, models: models, idle: idle}}
    counters:
      - {{name: c1, select: ctl.sel1, interrupt: ctl.ie1}}
      - {{name: c2, select: ctl.sel2, interrupt: ctl.ie2}}
      - {{name: c3, select: ctl2.sel3, models: [b]}}
    interrupt: ctl.en
"""


def load_text(text, name="t"):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, f"{name}.yaml")
        with open(p, "w") as f:
            f.write(text)
        return load_family(p), open(p, "rb").read()


class Msb0(unittest.TestCase):
    def test_every_ppc604_field_converts(self):
        fam = families.family(PPC604)
        n = 0
        for L in fam.layouts:
            self.assertTrue(L.msb0)
            for F in L.fields:
                self.assertEqual(len(F.parts), 1)
                first, last = (int(x) for x in (F.spec_bits.split(":") * 2)[:2])
                hi, lo = F.parts[0]
                # reference section 0: shift = 31 - last, width = last - first + 1
                self.assertEqual(lo, 31 - last, f"{L.name}.{F.name}")
                self.assertEqual(hi - lo + 1, last - first + 1, f"{L.name}.{F.name}")
                n += 1
        self.assertGreater(n, 40)

    def test_mmcr0_against_reference_and_linux(self):
        L = families.family(PPC604).layout("mmcr0")
        self.assertEqual({F.name for F in L.fields}, set(MMCR0_IBM))
        for F in L.fields:
            a, b = MMCR0_IBM[F.name]
            self.assertEqual(F.mask, ((1 << (b - a + 1)) - 1) << (31 - b), F.name)
            if F.name in LINUX:
                self.assertEqual(F.mask, LINUX[F.name], F.name)
        self.assertEqual(sum(F.mask for F in L.fields), 0xFFFFFFFF)   # no reserved bit, no overlap


class Sets(unittest.TestCase):
    def test_set_facts_are_masks(self):
        fam = families.family(PPC604)
        regs = {R.name: R for R in fam.registers}
        cpu = {vn: vv for vn, vv, _ in fam.enum("cpu").values}
        self.assertEqual(regs["mmcr1"].facts["models"], 1 << cpu["ppc604e"])
        self.assertEqual(regs["pmc1"].facts["models"], 0x1F)
        self.assertNotIn("user_spr", regs["mmcr0"].facts)

    def test_set_errors(self):
        fam, _ = load_text(MINI.format(name="t"))
        self.assertEqual(fam.registers[1].facts["models"], 2)
        for old, new, code in (("models: [b]}\n", "models: [b, b]}\n", "PMR021"),
                               ("models: [b]}\n", "models: [z]}\n", "PMR031"),
                               ('{type: "set(cpu)"}\nlayouts', '{type: "set(cpus)"}\nlayouts', "PMR030")):
            with self.assertRaises(SpecError) as e:
                load_text(MINI.format(name="t").replace(old, new, 1))
            self.assertIn(code, str(e.exception).splitlines()[0])


class Passes(unittest.TestCase):
    def view(self, text):
        fam, raw = load_text(text)
        return HeaderView(fam, "spec/t.yaml", raw).passes[0]

    def test_options_and_owned(self):
        p = self.view(MINI.format(name="t"))
        # events x counters: idle 3, cycles 3, misses 1, stalls 1
        self.assertEqual(len(p["options"]), 8)
        self.assertEqual(p["first"], [0, 3, 6, 7, 8])
        # cycles on c2: sel2 is IBM 5:8 -> lsb0 26:23; code 1 -> 1 << 23
        o = next(o for o in p["options"] if o["event"] == 1 and o["counter"] == 1)
        slot, mask, value = p["writes"][o["first_write"]]
        self.assertEqual((slot, mask, value), (0, 0xF << 23, 1 << 23))
        # stalls exists on model b only; c3 also only on b
        o = next(o for o in p["options"] if o["event"] == 3)
        self.assertEqual(o["models"], 0b10)
        self.assertEqual(o["resources"], 1 << 2)
        # the encoder owns the select and interrupt fields, the master enable and the reserved bits
        self.assertEqual(p["owned"][0], 0xFFFFFFFF)
        self.assertEqual(p["owned"][1], 0xFFFFFFFF)
        self.assertEqual([s["models"] for s in p["slots"]], [0b11, 0b10])
        self.assertEqual(p["irq_counters"], 0b011)

    def expect(self, text, code):
        with self.assertRaises(SpecError) as e:
            load_text(text)
        self.assertIn(code, str(e.exception).splitlines()[0])

    def test_errors(self):
        base = MINI.format(name="t")
        self.expect(base.replace("select: ctl.sel2", "select: ctl.nope"), "PMR030")
        self.expect(base.replace("select: ctl.sel2", "select: ctl.rsvd_11_31"), "PMR030")
        self.expect(base.replace("{name: c3, select", "{name: c9, select"), "PMR031")
        self.expect(base.replace("code: 9,", "code: 0x19,"), "PMR120")        # does not fit 4-bit sel3
        self.expect(base.replace("idle: idle}", "idle: nothing}"), "PMR030")
        self.expect(base.replace("code: {type: u8}", "code: {type: str}").replace("code: 0,", "code: x,")
                    .replace("code: 1,", "code: y,").replace("code: 5,", "code: z,").replace("code: 9,", "code: w,"),
                    "PMR120")
        # an event counted on a counter the construct does not list
        self.expect(base.replace("      - {name: c3, select: ctl2.sel3, models: [b]}\n", ""), "PMR120")
        self.expect(base.replace("    interrupt: ctl.en\n", "    interrupt: ctl.en\n    trigger: {counter: c1, enable: ctl.en}\n"),
                    "PMR120")   # a trigger needs overflow_at

    def test_structs_have_no_implicit_padding(self):
        # members widest first, the size a multiple of the alignment (the tail filled explicitly), for the
        # small spec (three counters, no sampling, trigger, threshold or interval) and for ppc604
        with open(PPC604, "rb") as f:
            ppc604 = HeaderView(families.family(PPC604), "spec/ppc604.yaml", f.read()).passes[0]
        for p in (self.view(MINI.format(name="t")), ppc604):
            for which in ("request", "pass", "encoding", "decoded"):
                ms = p[which + "_members"]
                aligns = [m["align"] for m in ms]
                self.assertEqual(aligns, sorted(aligns, reverse=True), which)
                align, size = struct_shape(ms)
                self.assertEqual(size % align, 0, which)
        names = [m["name"] for m in self.view(MINI.format(name="t"))["request_members"]]
        self.assertNotIn("sample_period", names)
        self.assertIn("pmregs_pad", [m["name"] for m in p["decoded_members"]])

    def test_struct_shapes_match_the_base_headers(self):
        # the generator's copy of PMREGS_SCHED_MAX and of struct pmregs_pm_place's shape
        with open(os.path.join(ROOT, "include", "pmregs", "base_schedule.h")) as f:
            self.assertIn(f"#define PMREGS_SCHED_MAX {passes.SCHED_MAX} ", f.read())
        with open(os.path.join(ROOT, "include", "pmregs", "base_plan.h")) as f:
            text = f.read()
        body = text[text.index("struct pmregs_pm_place {"):]
        body = body[:body.index("};")]
        self.assertEqual((body.count(";"), body.count("\tint16_t ")), (2, 2))
        self.assertEqual((passes.PLACE_ALIGN, passes.PLACE_SIZE), (2, 4))

    def test_ppc604_construct(self):
        fam = families.family(PPC604)
        P = fam.passes[0]
        self.assertEqual([c["name"] for c in P.counters], ["pmc1", "pmc2", "pmc3", "pmc4"])
        cpu = {vn: vv for vn, vv, _ in fam.enum("cpu").values}
        self.assertEqual(P.threshold["scales"][cpu["ppc604"]], 1)
        self.assertEqual(P.threshold["scales"][cpu["ppc604e"]], 4)
        self.assertEqual([r[2] for r in P.interval["rows"]], [1, 9, 13, 17])
        self.assertEqual([r[3] for r in P.interval["rows"]], [False, True, True, True])


if __name__ == "__main__":
    unittest.main()
