# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""A new kind of spec section takes its own module, its templates and one registry entry.

tests/gen/construct_example/limits.py is such a construct, kept out of the real registry;
these tests register it, generate a header and a page with it, and check that
the rest of the generator (loader, symbol table, emit, docs) needed no change.
"""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from construct_example import limits  # noqa: E402
from pmregs_gen import constructs  # noqa: E402
from pmregs_gen.diag import SpecError  # noqa: E402
from pmregs_gen.docs import render_page  # noqa: E402
from pmregs_gen.emit import render_family  # noqa: E402
from pmregs_gen.model import Builder  # noqa: E402
from pmregs_gen.yamlnode import load  # noqa: E402

SPEC = textwrap.dedent("""\
    family: t
    title: test
    limits:
      max_counters: 4
      max_events: 0x100
    layouts:
      r:
        fields:
          - {name: x, bits: "63:0"}
    """)


def family(text):
    return Builder(load("t.yaml", text=text), "t.yaml").build()


def codes(text):
    try:
        family(text)
    except SpecError as e:
        return [(d.code, d.line) for d in e.errors]
    return []


class Unregistered(unittest.TestCase):
    def test_the_section_is_unknown_without_the_construct(self):
        self.assertEqual(codes(SPEC), [("PMR002", 3)])


class Registered(unittest.TestCase):
    def setUp(self):
        constructs.CONSTRUCTS.append(limits)
        self.addCleanup(constructs.CONSTRUCTS.remove, limits)

    def test_header_defines_each_limit(self):
        h = render_family(family(SPEC), "spec/t.yaml", SPEC.encode())
        self.assertRegex(h, r"\n/\* Limits\. \*/\n#define PMREGS_T_LIMIT_MAX_COUNTERS 0x4u\n"
                            r"#define PMREGS_T_LIMIT_MAX_EVENTS +0x100u\n")
        # in the macro part of the header, before the C declarations
        self.assertLess(h.index("PMREGS_T_LIMIT_MAX_EVENTS"), h.index("#ifndef __ASSEMBLER__"))

    def test_header_compiles_and_the_values_hold(self):
        h = render_family(family(SPEC), "spec/t.yaml", SPEC.encode())
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "t.h"), "w", encoding="utf-8") as f:
                f.write(h)
            with open(os.path.join(d, "t.c"), "w", encoding="utf-8") as f:
                f.write('#include "t.h"\n'
                        "typedef char counters_ok[PMREGS_T_LIMIT_MAX_COUNTERS == 4 ? 1 : -1];\n"
                        "typedef char events_ok[PMREGS_T_LIMIT_MAX_EVENTS == 256 ? 1 : -1];\n"
                        "int main(void) { return 0; }\n")
            p = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                                "-I", d, "-I", os.path.join(ROOT, "include", "pmregs"), os.path.join(d, "t.c")],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)

    def test_page_has_its_section_and_contents_entry(self):
        page = render_page(family(SPEC), "spec/t.yaml", SPEC.encode())["t.md"]
        self.assertIn("\n## Limits\n\n| name | value |\n|---|---|\n| `max_counters` | 0x4 |\n"
                      "| `max_events` | 0x100 |\n", page)
        self.assertRegex(page, r"Contents: .*\[Limits\]\(#limits\)")

    def test_errors_are_located(self):
        self.assertEqual(codes(SPEC.replace("max_events: 0x100", "max_events: -1")), [("PMR014", 5)])
        self.assertEqual(codes(SPEC.replace("max_events: 0x100", "Max: 1")), [("PMR020", 5)])

    def test_its_names_join_the_symbol_table(self):
        clash = SPEC.replace("layouts:", "constants:\n  limit_max_counters: 1\nlayouts:")
        with self.assertRaises(SpecError) as cm:
            render_family(family(clash), "spec/t.yaml", clash.encode())
        self.assertEqual([d.code for d in cm.exception.errors], ["PMR023"])

    def test_registered_last_it_changes_nothing_else(self):
        """The real families generate the same headers with the extra construct registered."""
        spec = os.path.join(ROOT, "spec", "x86.yaml")
        with open(spec, "rb") as f:
            raw = f.read()
        from_registry = render_family(Builder(load(spec), spec).build(), "spec/x86.yaml", raw)
        with open(os.path.join(ROOT, "include", "pmregs", "x86.h"), encoding="utf-8") as f:
            self.assertEqual(from_registry, f.read())


if __name__ == "__main__":
    unittest.main()
