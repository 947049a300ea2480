# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Generator tests for what the NetBurst spec brought: ref:<target> facts and columns,
named-bit columns, and the `encoders` construct (placements, resources, checks, decoding)."""

import glob
import os
import shutil
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
from pmregs_gen.emit import render_headers  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402
import families  # noqa: E402


def copy_base(dst):
    """The hand-written base headers next to a header generated into dst."""
    for path in glob.glob(os.path.join(ROOT, "include", "pmregs", "base*.h")):
        shutil.copy(path, dst)


SPEC = """\
family: t
title: test
facts:
  msr: {type: u32, address: true}
  counters: {type: "ref:registers[2]"}
  select: {type: u8}
layouts:
  sel:
    fields:
      - {name: code, bits: "7:0"}
      - {name: mask, bits: "15:8"}
      - {name: os, bits: "16"}
      - {name: rsvd_hi, bits: "63:17", access: rsvd}
  ctl:
    fields:
      - {name: select, bits: "2:0"}
      - {name: thr, bits: "6:3"}
      - {name: rsvd_hi, bits: "63:7", access: rsvd}
registers:
  - {name: c0, layout: ctl, msr: 0x10}
  - {name: c1, layout: ctl, msr: 0x11}
  - {name: c2, layout: ctl, msr: 0x12}
  - {name: e0, layout: sel, msr: 0x20, counters: [c0, c1], select: 1}
  - {name: e1, layout: sel, msr: 0x21, counters: [c1, c2], select: 2}
tables:
  events:
    columns:
      code: {type: u8, field: sel.code}
      escrs: {type: "ref:registers[2]"}
      mask: {type: bits, field: sel.mask}
    rows:
      - {name: alpha, code: 1, escrs: [e0], mask: {A: 0, B: 3}}
      - {name: beta, code: 2, escrs: [e0, e1], mask: {X: 7}}
encoders:
  enc:
    table: events
    place:
      escr: {from: event.escrs}
      counter: {from: escr.counters}
    params:
      mask: {type: u8, default: 0}
      os: {type: bool, default: true}
      thr: {type: u8, default: 0}
    checks:
      - {name: bad_mask, error: einval, fail: "mask & ~event.mask"}
      - {name: not_c2, error: ebusy, fail: "counter.msr == 0x12"}
    outputs:
      escr_msr: {type: u32, expr: "escr.msr"}
      escr_value: {type: sel, expr: "make(sel, code=event.code, mask=mask, os=os)"}
      ctl_value: {type: ctl, expr: "make(ctl, select=escr.select, thr=thr)"}
    decode: [escr_msr, escr_value, ctl_value]
"""


def family(text):
    return Builder(load("t.yaml", text=textwrap.dedent(text)), "t.yaml").build()


class Refs(unittest.TestCase):
    def test_names_become_indices(self):
        fam = family(SPEC)
        e1 = next(r for r in fam.registers if r.name == "e1")
        self.assertEqual(e1.facts["counters"], [1, 2])
        ev = fam.tables[0]
        self.assertEqual(ev.rows[1][3]["escrs"], [3, 4])
        fact = next(f for f in fam.facts if f.name == "counters")
        self.assertEqual((fact.type, fact.ref), ("u16[2]", "registers"))

    def test_dangling_name_is_located(self):
        text = SPEC.replace("counters: [c1, c2]", "counters: [c1, c9]")
        with self.assertRaises(SpecError) as cm:
            family(text)
        (d,) = cm.exception.errors
        self.assertEqual((d.code, d.line), ("PMR030", 24))
        self.assertIn("'c9' is not a register", d.message)

    def test_ref_type_needs_a_length_above_zero(self):
        with self.assertRaises(SpecError) as cm:
            family(SPEC.replace('"ref:registers[2]"}\n  select', '"ref:registers[0]"}\n  select'))
        self.assertEqual(cm.exception.errors[0].code, "PMR031")


class Bits(unittest.TestCase):
    def test_bits_cell(self):
        fam = family(SPEC)
        v = fam.tables[0].rows[0][3]["mask"]
        self.assertEqual(v.bits, [("A", 0, ""), ("B", 3, "")])
        self.assertEqual(v.mask, 0x9)

    def test_bit_outside_field(self):
        with self.assertRaises(SpecError) as cm:
            family(SPEC.replace("{X: 7}", "{X: 8}"))
        self.assertEqual([(d.code, d.line) for d in cm.exception.errors], [("PMR060", 33)])

    def test_header_has_name_macros_and_helpers(self):
        fam = family(SPEC)
        texts = render_headers(fam, "spec/t.yaml", SPEC.encode())
        self.assertIn("#define PMREGS_T_EVENTS_ALPHA_MASK_B", texts["t.h"])
        # the name lookups are for tools: the encoder reads a compact table of its own
        self.assertNotIn("pmregs_t_events_mask_find(", texts["t.h"])
        self.assertIn("pmregs_t_events_mask_find(", texts["t_tools.h"])
        self.assertIn("pmregs_t_events_mask_snprint(", texts["t_tools.h"])


class Encoders(unittest.TestCase):
    def test_placements_and_resources(self):
        fam = family(SPEC)
        (E,) = fam.encoders
        # alpha: e0 x (c0, c1); beta: e0 x (c0, c1) + e1 x (c1, c2)
        self.assertEqual([v for v, _ in E.options[0]], [(3, 0), (3, 1)])
        self.assertEqual([v for v, _ in E.options[1]], [(3, 0), (3, 1), (4, 1), (4, 2)])
        # one bit per distinct register, whatever variable reaches it
        self.assertEqual(len(E.resources), 5)
        res = dict(E.options[1])
        self.assertEqual(bin(res[(4, 1)]).count("1"), 2)
        self.assertEqual(res[(3, 1)] & res[(4, 1)], res[(3, 1)] & res[(4, 1)] & ~res[(3, 0)])

    def test_check_levels_and_implicit_range(self):
        fam = family(SPEC)
        (E,) = fam.encoders
        names = [(c.name, c.level) for c in E.checks]
        # mask (u8) and os (bool) fit their 8- and 1-bit fields; thr (u8) does not fit 4 bits
        self.assertEqual(names, [("thr_range", "event"), ("bad_mask", "event"), ("not_c2", "option")])
        self.assertEqual([p.name for p, *_ in E.recover], ["mask", "os", "thr"])

    def test_without_exclusive_counter_only_escrs_are_resources(self):
        fam = family(SPEC.replace("    params:\n", "    exclusive: [escr]\n    params:\n"))
        self.assertEqual(len(fam.encoders[0].resources), 2)

    def test_expression_errors_are_located(self):
        bad = SPEC.replace('fail: "counter.msr == 0x12"', 'fail: "counter.msr == nosuch"')
        with self.assertRaises(SpecError) as cm:
            family(bad)
        (d,) = cm.exception.errors
        self.assertEqual((d.code, d.line), ("PMR041", 46))

    def test_generated_c_compiles_and_runs(self):
        # The toy encoder end to end: encode, the option-level check, decode, schedule.
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "spec"))
            os.makedirs(os.path.join(tmp, "inc"))
            with open(os.path.join(tmp, "spec", "t.yaml"), "w") as f:
                f.write(SPEC)
            p = genrun.run("--out", os.path.join(tmp, "inc"), os.path.join(tmp, "spec", "t.yaml"))
            self.assertEqual(p.returncode, 0, p.stderr)
            copy_base(os.path.join(tmp, "inc"))
            prog = textwrap.dedent("""\
                #include <stdio.h>
                #include "t_tools.h" /* the decoder */
                int main(void)
                {
                	struct pmregs_t_enc_request r[3], d;
                	struct pmregs_t_enc_encoding e[3];
                	static struct pmregs_t_enc_work w;
                	int bad = 0, i;
                	pmregs_t_enc_request_init(&r[0], 1);
                	r[0].mask = 0x80;
                	r[0].counter = PMREGS_T_ENC_COUNTER_C2;
                	/* c2 is refused by the option-level check */
                	bad |= pmregs_t_enc_encode(&r[0], &e[0]) != PMREGS_EBUSY || e[0].check != PMREGS_T_ENC_CHECK_NOT_C2;
                	r[0].counter = -1;
                	r[0].thr = 9;
                	bad |= pmregs_t_enc_encode(&r[0], &e[0]) != PMREGS_OK;
                	bad |= e[0].escr_msr != 0x20 || e[0].escr_value != 0x18002 || e[0].ctl_value != (1 | 9 << 3);
                	r[0].thr = 16;
                	bad |= pmregs_t_enc_encode(&r[0], &e[0]) != PMREGS_ERANGE || e[0].check != PMREGS_T_ENC_CHECK_THR_RANGE;
                	r[0].thr = 9;
                	pmregs_t_enc_encode(&r[0], &e[0]);
                	pmregs_t_enc_request_init(&d, 0);
                	d.os = 0;
                	bad |= pmregs_t_enc_decode(&e[0], &d, &d) != PMREGS_OK || d.event != 1 || d.mask != 0x80 || d.thr != 9 || !d.os;
                	/* three requests of beta: c2 is unusable, so e0/e1 x c0/c1: two per pass */
                	for (i = 0; i < 3; i++) {
                		pmregs_t_enc_request_init(&r[i], 1);
                		r[i].mask = 0x80;
                	}
                	bad |= pmregs_t_enc_schedule(r, 3, e, &w, 0, &i) != 2 || !i;
                	printf("%s\\n", bad ? "FAIL" : "ok");
                	return bad;
                }
                """)
            with open(os.path.join(tmp, "main.c"), "w") as f:
                f.write(prog)
            warn = "-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror".split()
            exe = os.path.join(tmp, "main")
            subprocess.run(["cc", "-std=c99", *warn, "-I", os.path.join(tmp, "inc"), os.path.join(tmp, "main.c"),
                            "-o", exe], check=True)
            p = subprocess.run([exe], capture_output=True, text=True)
            self.assertEqual((p.returncode, p.stdout.strip()), (0, "ok"))

    def test_set_of_enum_as_placement(self):
        # A PowerPC-like shape: each event lists the counters (an enum set) that can count it,
        # and the selector field written depends on the counter chosen.
        spec = textwrap.dedent("""\
            family: s
            title: test
            width: 32
            enums:
              counter: {values: {pmc1: 0, pmc2: 1}}
            layouts:
              mmcr0:
                fields:
                  - {name: pmc2sel, bits: "5:0"}
                  - {name: pmc1sel, bits: "12:6"}
                  - {name: rsvd_hi, bits: "31:13", access: rsvd}
            tables:
              events:
                columns:
                  code: {type: u8}
                  counters: {type: "set(counter)"}
                rows:
                  - {name: cycles, code: 1, counters: [pmc1, pmc2]}
                  - {name: misses, code: 5, counters: [pmc1]}
            encoders:
              pm:
                table: events
                place:
                  counter: {from: event.counters}
                outputs:
                  mmcr0:
                    type: mmcr0
                    expr: >-
                      make(mmcr0, pmc1sel=(event.code if counter == counter.pmc1 else 0),
                           pmc2sel=(event.code if counter == counter.pmc2 else 0))
                decode: [mmcr0]
            """)
        fam = family(spec)
        (E,) = fam.encoders
        self.assertEqual([v for v, _ in E.options[0]], [(0,), (1,)])
        self.assertEqual(len(E.resources), 2)
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "spec"))
            with open(os.path.join(tmp, "spec", "s.yaml"), "w") as f:
                f.write(spec)
            p = genrun.run("--out", tmp, os.path.join(tmp, "spec", "s.yaml"))
            self.assertEqual(p.returncode, 0, p.stderr)
            copy_base(tmp)
            prog = textwrap.dedent("""\
                #include "s_tools.h" /* the decoder */
                int main(void)
                {
                	static struct pmregs_s_pm_work w;
                	struct pmregs_s_pm_request r[3], d;
                	struct pmregs_s_pm_encoding e[3];
                	int bad = 0, m;
                	pmregs_s_pm_request_init(&r[0], 0);
                	r[0].counter = PMREGS_S_PM_COUNTER_PMC2;
                	bad |= pmregs_s_pm_encode(&r[0], &e[0]) != PMREGS_OK || e[0].mmcr0 != 1;
                	bad |= pmregs_s_pm_decode(&e[0], &r[0], &d) != PMREGS_OK || d.event != 0 || d.counter != 1;
                	pmregs_s_pm_request_init(&r[0], 1);
                	pmregs_s_pm_request_init(&r[1], 0);
                	pmregs_s_pm_request_init(&r[2], 1);
                	/* misses twice need two passes (pmc1 only); cycles goes on pmc2 */
                	bad |= pmregs_s_pm_schedule(r, 3, e, &w, 0, &m) != 2 || !m || e[1].counter != 1;
                	return bad;
                }
                """)
            with open(os.path.join(tmp, "main.c"), "w") as f:
                f.write(prog)
            warn = "-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror".split()
            exe = os.path.join(tmp, "main")
            subprocess.run(["cc", "-std=c99", *warn, "-I", tmp, os.path.join(tmp, "main.c"), "-o", exe], check=True)
            self.assertEqual(subprocess.run([exe]).returncode, 0)

    def test_netburst_spec_numbers(self):
        fam = families.family(os.path.join(ROOT, "spec", "netburst.yaml"))
        (E,) = fam.encoders
        self.assertEqual(len(fam.tables[0].rows), 47)
        # 18 counters and the 32 ESCRs that some event uses
        self.assertEqual(len(E.resources), 50)
        self.assertEqual(max(len(o) for o in E.options), 6)


if __name__ == "__main__":
    unittest.main()
