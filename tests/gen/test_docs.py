# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The reference pages (generate.py --doc): links resolve, content is complete, output is reproducible."""

import glob
import os
import re
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import genrun  # noqa: E402
from pmregs_gen.docs import render_page  # noqa: E402
from pmregs_gen.emit import render_headers  # noqa: E402
from pmregs_gen.model import load_family  # noqa: E402
import families  # noqa: E402

SPECS = sorted(glob.glob(os.path.join(ROOT, "spec", "*.yaml")))


def slug(heading):
    """The anchor a forge (GitHub, GitLab, Gitea) derives from a heading's text."""
    text = re.sub(r"[`*]", "", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


class Pages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pages = {}
        cls.fams = {}
        for path in SPECS:
            fam = families.family(path)
            with open(path, "rb") as f:
                raw = f.read()
            cls.fams[fam.name] = fam
            cls.pages[fam.name] = render_page(fam, f"spec/{os.path.basename(path)}", raw)

    def test_anchor_links_resolve(self):
        for name, files in self.pages.items():
            md = files[f"{name}.md"]
            anchors = {slug(m) for m in re.findall(r"^#+ (.*)$", md, re.M)}
            links = re.findall(r"\]\(#([^)]+)\)", md)
            self.assertTrue(links, name)
            for a in links:
                self.assertIn(a, anchors, f"{name}.md links to #{a}, which no heading defines")

    def test_tables_start_a_block(self):
        # a Markdown table only renders when a blank line (or another table row) comes before it
        for name, files in self.pages.items():
            lines = files[f"{name}.md"].split("\n")
            for i in range(1, len(lines)):
                if lines[i].startswith("|") and not lines[i - 1].startswith("|"):
                    self.assertEqual(lines[i - 1], "", f"{name}.md line {i + 1}: a table right after text")

    def test_relative_links_exist(self):
        for name, files in self.pages.items():
            md = files[f"{name}.md"]
            for target in re.findall(r"\]\(([^)#][^)]*)\)", md):
                self.assertFalse(target.startswith("/"), target)
                if target.startswith("http"):
                    continue
                generated = target in files
                on_disk = os.path.exists(os.path.normpath(os.path.join(ROOT, "doc", target)))
                self.assertTrue(generated or on_disk, f"{name}.md links to {target}, which does not exist")

    def test_every_register_and_layout_has_its_section(self):
        for name, fam in self.fams.items():
            md = self.pages[name][f"{name}.md"]
            for L in fam.layouts:
                self.assertIn(f"\n### Layout {L.name}\n", md)
                self.assertIn(f"({name}/{L.name}.svg)", md)
                self.assertIn(f"{name}/{L.name}.svg", self.pages[name])
                for F in L.fields:
                    self.assertIn(f"`{F.name}`", md)
            for R in fam.registers:
                row = next(line for line in md.split("\n") if line.startswith(f"| `{R.name}` |"))
                # the address is in the register's row (and its layout's section)
                for fact in fam.facts:
                    if fact.address and fact.name in R.facts:
                        self.assertIn(f"{fact.name} {R.facts[fact.name]:#x}", row)
                        break

    def test_msb0_pages_show_both_numberings(self):
        md = self.pages["ppc604"]["ppc604.md"]
        # PowerPC MMCR0: FC is bit 0 in the manual and bit 31 counted from the LSB (UM604 Table 9-4)
        self.assertIn("| 0 | 31 | `fc` |", md)
        self.assertIn("| 26:31 | 5:0 | `pmc2sel` |", md)
        svg = self.pages["ppc604"]["ppc604/mmcr0.svg"]
        self.assertIn(">msb0<", svg)
        self.assertIn(">lsb0<", svg)

    def test_formulas_are_shown(self):
        for name, fam in self.fams.items():
            md = self.pages[name][f"{name}.md"]
            for F in fam.functions:
                self.assertIn(F.expr_node.text.strip(), md)
                if F.formula:
                    self.assertIn(F.formula.strip(), md)
            for M in fam.matchers:
                self.assertIn(f"### Matcher {M.name}", md)

    def test_reproducible(self):
        fam = self.fams["netburst"]
        path = os.path.join(ROOT, "spec", "netburst.yaml")
        with open(path, "rb") as f:
            again = render_page(load_family(path), "spec/netburst.yaml", f.read())
        self.assertEqual(again, self.pages[fam.name])

    def test_rendering_leaves_the_family_as_it_was(self):
        # the headers and then the page rendered from one family give the page a family of its own gives
        # (tests/gen/no_drift.py checks headers and pages from the families it read once)
        fam = self.fams["netburst"]
        path = os.path.join(ROOT, "spec", "netburst.yaml")
        with open(path, "rb") as f:
            raw = f.read()
        render_headers(fam, "spec/netburst.yaml", raw)
        self.assertEqual(render_page(fam, "spec/netburst.yaml", raw), self.pages[fam.name])

    def test_check_finds_stale_and_stray_files(self):
        # a spec alone in a spec folder of its own (the index page then reads no other spec's title); a small
        # one: what --check reports and what writing again removes does not depend on the family (every
        # committed spec's page is rendered above and compared with doc/ by make check's no-drift check)
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "spec"))
            spec = os.path.join(tmp, "spec", "t.yaml")
            with open(spec, "w") as f:
                f.write('family: t\ntitle: t\nlayouts:\n  ctl: {width: 32, fields: [{name: en, bits: "0"},'
                        ' {name: sel, bits: "31:1"}]}\nregisters:\n  - {name: ctl0, layout: ctl}\n')
            out = os.path.join(tmp, "doc")
            first = genrun.run("--doc", "--out", out, spec)
            self.assertEqual(first.returncode, 0, first.stderr)
            ok = genrun.run("--doc", "--check", "--out", out, spec)
            self.assertEqual(ok.returncode, 0, ok.stderr)
            shutil.copy(os.path.join(out, "t", "ctl.svg"), os.path.join(out, "t", "gone.svg"))
            with open(os.path.join(out, "t.md"), "a", encoding="utf-8") as f:
                f.write("edited\n")
            bad = genrun.run("--doc", "--check", "--out", out, spec)
            self.assertEqual(bad.returncode, 1)
            self.assertIn("t.md: differs", bad.stderr)
            self.assertIn("gone.svg: no longer generated", bad.stderr)
            # writing again removes the stray diagram and restores the page
            self.assertEqual(genrun.run("--doc", "--out", out, spec).returncode, 0)
            self.assertFalse(os.path.exists(os.path.join(out, "t", "gone.svg")))
            self.assertTrue(os.path.exists(os.path.join(out, "t", "ctl.svg")))
            self.assertEqual(genrun.run("--doc", "--check", "--out", out, spec).returncode, 0)

if __name__ == "__main__":
    unittest.main()
