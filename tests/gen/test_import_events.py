# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""gen/import_events.py and the catalogs construct: the import is deterministic and reads the vendors'
formats as documented (CPUID maps, hybrid roles, fixed counters, unit mask/MSR pairs), its files load
through the generator's fast path, a bad data file gets located errors, and -- when the sources are on
the machine -- the committed data equals a fresh import."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import unittest.mock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import genrun  # noqa: E402
import import_events  # noqa: E402
from pmregs_gen.constructs import catalogs  # noqa: E402

IMPORT = os.path.join(ROOT, "gen", "import_events.py")

# A small Intel perfmon tree in the published format: a stepping split, a hybrid part, a lone E-core
# model, the 1-based fixed counters of the oldest files, and an MSRIndex-UMask event listing one MSR.
MAPFILE = """Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name
GenuineIntel-6-55-[01234],V1,/SKX/events/skylakex_core.json,core,,,
GenuineIntel-6-55-[56789ABCDEF],V1,/CLX/events/cascadelakex_core.json,core,,,
GenuineIntel-6-97,V1,/ADL/events/alderlake_gracemont_core.json,hybridcore,0x20,0x000001,Atom
GenuineIntel-6-97,V1,/ADL/events/alderlake_goldencove_core.json,hybridcore,0x40,0x000001,Core
GenuineIntel-6-BE,V1,/ADL/events/alderlake_gracemont_core.json,core,,,
GenuineIntel-6-1E,V1,/NHM-EP/events/NehalemEP_core.json,core,,,
GenuineIntel-6-55-[01234],V1,/SKX/events/skylakex_uncore.json,uncore,,,
"""


def intel_json(events):
    return json.dumps({"Header": {"Info": "Performance Monitoring Events for Test - V1", "Version": "1",
                                  "DatePublished": "01/01/2026"}, "Events": events})


def ev(name, code, umask="0x00", **kw):
    e = {"EventName": name, "EventCode": code, "UMask": umask, "Counter": "0,1,2,3", "BriefDescription": name}
    e.update(kw)
    return e


INTEL = {
    "SKX/events/skylakex_core.json": [ev("INST_RETIRED.ANY_P", "0xC0"), ev("INST_RETIRED.ANY", "0x00", "0x01",
                                      Counter="Fixed counter 0"), ev("A_B.C", "0x10", "0x01",
                                      BriefDescription="Loads & stores * 2")],
    "CLX/events/cascadelakex_core.json": [ev("INST_RETIRED.ANY_P", "0xC0")],
    "ADL/events/alderlake_gracemont_core.json": [ev("INST_RETIRED.ANY_P", "0xC0")],
    "ADL/events/alderlake_goldencove_core.json": [ev("INST_RETIRED.ANY_P", "0xC0"), ev(
        "OCR.X", "0xB7, 0xBB", "0x01,0x02", MSRIndex="0x1a6,0x1a7", MSRValue="0x10001"), ev(
        "OCR.Y", "0xB7, 0xBB", "0x01,0x02", MSRIndex="0x1a7", MSRValue="0x20002")],
    "NHM-EP/events/NehalemEP_core.json": [ev("INST_RETIRED.ANY", "0x00", Counter="Fixed counter 1"),
                                          ev("CPU_CLK_UNHALTED.REF", "0x00", Counter="Fixed counter 3")],
    "SKX/events/skylakex_uncore.json": [],
}

LINUX_MAP = """Family-model,Version,Filename,EventType
AuthenticAMD-23-([12][0-9A-F]|[0-9A-F]),v2,amdzen1,core
AuthenticAMD-23-[[:xdigit:]]+,v1,amdzen2,core
"""
AMD = {
    "amdzen1/core.json": [{"EventName": "ex_ret_instr", "EventCode": "0xc0", "BriefDescription": "not imported"},
                          {"EventName": "ls_x.a", "EventCode": "0x1a0", "UMask": "0x1e"},
                          {"MetricName": "m", "MetricExpr": "ex_ret_instr"},
                          {"EventName": "l3_x", "EventCode": "0x4", "UMask": "0xff", "Unit": "L3PMC"}],
    "amdzen2/core.json": [{"EventName": "ex_ret_instr", "EventCode": "0xc0"}],
}


def make_sources(tmp):
    intel, linux = os.path.join(tmp, "perfmon"), os.path.join(tmp, "linux")
    for rel, text in [("mapfile.csv", MAPFILE)] + [(k, intel_json(v)) for k, v in INTEL.items()]:
        os.makedirs(os.path.dirname(os.path.join(intel, rel)), exist_ok=True)
        with open(os.path.join(intel, rel), "w") as f:
            f.write(text)
    arch = os.path.join(linux, "tools/perf/pmu-events/arch/x86")
    for rel, text in [("mapfile.csv", LINUX_MAP)] + [(k, json.dumps(v)) for k, v in AMD.items()]:
        os.makedirs(os.path.dirname(os.path.join(arch, rel)), exist_ok=True)
        with open(os.path.join(arch, rel), "w") as f:
            f.write(text)
    with open(os.path.join(linux, "Makefile"), "w") as f:
        f.write("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\n")
    return intel, linux


def run_import(intel, linux, out, *extra):
    """gen/import_events.py in a process of its own, forked from this one (tests/gen/genrun.py)."""
    return genrun.run_main(import_events.main, IMPORT, "--intel", intel, "--linux", linux, "--libpfm", "none",
                           "--out", out, *extra)


def tree(d):
    out = {}
    for dp, _, fs in os.walk(d):
        for f in fs:
            with open(os.path.join(dp, f), "rb") as fh:
                out[os.path.relpath(os.path.join(dp, f), d)] = fh.read()
    return out


class Import(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.intel, cls.linux = make_sources(cls.tmp)
        cls.out = os.path.join(cls.tmp, "out")
        p = run_import(cls.intel, cls.linux, cls.out)
        assert p.returncode == 0, p.stderr
        cls.files = {k: v.decode() for k, v in tree(cls.out).items()}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_deterministic(self):
        again = os.path.join(self.tmp, "again")
        self.assertEqual(run_import(self.intel, self.linux, again).returncode, 0)
        self.assertEqual(tree(again), {k: v.encode() for k, v in self.files.items()})
        p = run_import(self.intel, self.linux, self.out, "--check")
        self.assertEqual(p.returncode, 0, p.stdout)
        with open(os.path.join(again, "x86/events/skx.yaml"), "a") as f:
            f.write("# edited\n")
        p = run_import(self.intel, self.linux, again, "--check")
        self.assertEqual(p.returncode, 1)
        self.assertIn("x86/events/skx.yaml: differs", p.stdout)

    def test_tables(self):
        self.assertEqual(sorted(self.files), ["amd/events/zen1.yaml", "amd/events/zen2.yaml",
                                              "amd/l3_f17h_events/zen1.yaml", "x86/events/adl.yaml",
                                              "x86/events/adl_atom.yaml", "x86/events/clx.yaml",
                                              "x86/events/nhm-ep.yaml", "x86/events/skx.yaml"])
        self.assertTrue(self.files["x86/events/skx.yaml"].startswith("# SPDX-License-Identifier: BSD-3-Clause\n"))
        self.assertIn("Intel Corporation", self.files["x86/events/skx.yaml"])          # the notice is kept
        self.assertTrue(self.files["amd/events/zen1.yaml"].startswith("# SPDX-License-Identifier: MIT OR GPL"))

    def test_cpu_maps(self):
        # the stepping split of model 0x55, first match per core type on hybrid parts, ADL-N's E-core alone
        self.assertIn("{family: 6, model: 0x55, stepping: [0, 4]}", self.files["x86/events/skx.yaml"])
        self.assertIn("{family: 6, model: 0x55, stepping: [5, 15]}", self.files["x86/events/clx.yaml"])
        self.assertIn("{family: 6, model: 0x97, core_type: 0x40}", self.files["x86/events/adl.yaml"])
        self.assertIn("{family: 6, model: 0x97, core_type: 0x20}", self.files["x86/events/adl_atom.yaml"])
        self.assertIn("{family: 6, model: 0xbe}", self.files["x86/events/adl_atom.yaml"])
        self.assertIn("pmu: cpu_core", self.files["x86/events/adl.yaml"])
        self.assertIn("pmu: cpu_atom", self.files["x86/events/adl_atom.yaml"])
        # Linux's first-match rule: zen1 takes models 0x00-0x2F of family 23, zen2 the rest
        self.assertIn("{family: 23, model: [0, 0x2f]}", self.files["amd/events/zen1.yaml"])
        self.assertIn("{family: 23, model: [0x30, 0xff]}", self.files["amd/events/zen2.yaml"])

    def test_events(self):
        skx, nhm, adl = (self.files[f"x86/events/{t}.yaml"] for t in ("skx", "nhm-ep", "adl"))
        self.assertIn('{name: "INST_RETIRED.ANY", event_select: 0x0, umask: 0x1, counters: 0x100000000', skx)
        # Nehalem numbers fixed counters from 1: INST_RETIRED.ANY is fixed counter 0, REF cycles 2
        self.assertIn('{name: "INST_RETIRED.ANY", event_select: 0x0, umask: 0x0, counters: 0x100000000', nhm)
        self.assertIn('{name: "CPU_CLK_UNHALTED.REF", event_select: 0x0, umask: 0x0, counters: 0x400000000', nhm)
        # sorted ignoring case; anchors and aliases can never appear in a file
        self.assertLess(skx.index('"A_B.C"'), skx.index('"INST_RETIRED.ANY"'))
        self.assertIn(r'brief: "Loads \x26 stores \x2a 2"', skx)
        # two codes and MSRs: the first of each; one MSR of two unit masks: the unit mask it pairs with
        self.assertIn('{name: "OCR.X", event_select: 0xb7, umask: 0x1, msr: 0x1a6, msr_value: 0x10001', adl)
        self.assertIn('{name: "OCR.Y", event_select: 0xb7, umask: 0x2, msr: 0x1a7, msr_value: 0x20002', adl)
        zen1 = self.files["amd/events/zen1.yaml"]
        self.assertIn('{name: "ls_x.a", event_select: 0x1a0, umask: 0x1e, counters: 0x3f}', zen1)
        self.assertNotIn("not imported", zen1)       # no descriptions from the GPL-2.0 tree
        self.assertNotIn("l3_x", zen1)               # other PMUs' events are not core events ...
        l3 = self.files["amd/l3_f17h_events/zen1.yaml"]  # ... but their own catalogue's
        self.assertIn("pmu: amd_l3", l3)
        self.assertIn('{name: "l3_x", event_select: 0x4, umask: 0xff}', l3)
        self.assertIn("source: \"Linux 6.12.117 ", zen1)

    def test_generator_reads_them(self):
        """The imported files load through the fast path, and the fast and the located paths agree."""
        spec = os.path.join(self.tmp, "spec")
        os.makedirs(spec, exist_ok=True)
        shutil.copy(os.path.join(ROOT, "spec", "x86.yaml"), spec)
        shutil.rmtree(os.path.join(spec, "x86"), ignore_errors=True)
        shutil.copytree(os.path.join(self.out, "x86"), os.path.join(spec, "x86"))
        p = genrun.run("--catalogs", "--out", os.path.join(self.tmp, "inc"), os.path.join(spec, "x86.yaml"))
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.tmp, "inc", "x86_events.h")) as f:
            text = f.read()
        self.assertIn("5 tables, 10 events, 0 aliases", text)
        self.assertIn("SPDX-License-Identifier: (MIT OR GPL-2.0-only) AND BSD-3-Clause", text)
        d = os.path.join(spec, "x86", "events")
        fields = {"event_select": type("F", (), {"width": 8, "parts": [(7, 0)]})()}
        for fn in sorted(os.listdir(d)):
            with open(os.path.join(d, fn), "rb") as f:
                raw = f.read()
            t = catalogs.fast_table(raw, fn, {**fields, "umask": fields["event_select"]},
                                    {"pebs": ("pebs", 0, 2, ""), "deprecated": ("deprecated", 2, 1, ""),
                                     "taken_alone": ("taken_alone", 3, 1, ""), "data_la": ("data_la", 4, 1, "")})
            self.assertIsNotNone(t, fn)

    def test_bad_data_is_located(self):
        spec = os.path.join(self.tmp, "bad")
        os.makedirs(os.path.join(spec, "x86", "events"))
        shutil.copy(os.path.join(ROOT, "spec", "x86.yaml"), spec)
        with open(os.path.join(self.out, "x86/events/skx.yaml")) as f:
            lines = f.read().splitlines()
        at = next(i for i, ln in enumerate(lines) if "INST_RETIRED.ANY_P" in ln)
        lines[at] = lines[at].replace("umask: 0x0", "umask: 0x100").replace("counters:", "countrs:")
        with open(os.path.join(spec, "x86", "events", "skx.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
        p = genrun.run("--catalogs", "--out", os.path.join(self.tmp, "none"), os.path.join(spec, "x86.yaml"))
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"skx.yaml:{at + 1}:", p.stderr)
        self.assertIn("error[PMR002]: unknown event key 'countrs'", p.stderr)
        self.assertIn("error[PMR014]: umask 256 is outside 0..255", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "none")))



class EventLines(unittest.TestCase):
    """The catalogue reader's line-by-line read of an events list (catalogs._table_data) gives what the YAML
    read of the whole file gives (catalogs._plain_data), or fails where it fails, for files whose 'events:'
    line is what it seems and for files where it is not."""

    HEAD = 'table: t\ntitle: x\npmu: p\ncpus:\n  - {family: 6, model: 1}\nevents:\n' \
        '  - {name: "A\\x2aB\\x5cx41", umask: 0x1, brief: "a, b: c {d}"}\n  - {name: "B", umask: 0x2, umask: 3}\n'
    TEXTS = (HEAD, HEAD + "aliases:\n  - {alias: a, event: A}\n", HEAD + "events: []\n", HEAD + '"events": 1\n',
             HEAD + "  # note\n", HEAD + "\n", HEAD + "- x\n", HEAD + "xyz\n", HEAD + "  - {name: 'C'}\n",
             'title: "a\n' + HEAD[9:], "x: 'a\nevents:\n  - {name: \"A\"}\n'\n", "x: |\n  a\nevents:\n  - {name: \"A\"}\n",
             'x: "\nevents:\n  - {name: "A"}\n"\n', 'x: [1,\nevents:\n  - {name: "A"}\n]\n', '- 1\nevents:\n  - {name: "A"}\n',
             '? x\nevents:\n  - {name: "A"}\n', 'x: 1\nevents:\n  - {name: "A"}\n---\ny: 2\n', 'events:\n  - {name: "A"}\n')

    def test_the_same_data(self):
        def read(f, text):
            try:
                return f(text)
            except Exception:               # the kind of failure does not matter: the file is then read slowly
                return "refused"
        for text in self.TEXTS:
            self.assertEqual(read(catalogs._table_data, text), read(catalogs._plain_data, text), text)
        self.assertEqual(read(catalogs._table_data, self.HEAD)["events"][0]["name"], "A*B\\x41")
        seen, real = [], catalogs._plain_data
        with unittest.mock.patch.object(catalogs, "_plain_data", lambda t: seen.append(t) or real(t)):
            catalogs._table_data(self.HEAD)
        self.assertEqual(seen, [])          # read line by line, not as YAML


def sources():
    """Intel's perfmon repository (PMREGS_INTEL_PERFMON, a git directory or checkout) and a Linux source
    tree or tarball (PMREGS_LINUX_SRC, default Debian's linux-source-6.12), if both are here."""
    intel = os.environ.get("PMREGS_INTEL_PERFMON", "")
    linux = os.environ.get("PMREGS_LINUX_SRC", "/usr/src/linux-source-6.12.tar.xz")
    return (intel, linux) if intel and os.path.exists(intel) and os.path.exists(linux) else None


@unittest.skipUnless(sources(), "PMREGS_INTEL_PERFMON (intel/perfmon) and Debian's linux-source-6.12 are needed")
class Reimport(unittest.TestCase):
    def test_committed_data_is_a_fresh_import(self):
        intel, linux = sources()
        rev = next((ln.split("commit ")[1].split('"')[0] for ln in open(os.path.join(ROOT, "spec/x86/events/spr.yaml"))
                    if ln.startswith("source:") and "commit " in ln), None)
        p = subprocess.run([sys.executable, IMPORT, "--intel", intel, "--linux", linux, "--check",
                            "--out", os.path.join(ROOT, "spec")] + (["--intel-rev", rev] if rev else []),
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
