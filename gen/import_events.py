#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""import_events: the vendors' event lists -> spec/x86/events/*.yaml and spec/amd/events/*.yaml.

    import_events.py --intel DIR [--intel-rev REV] --linux SRC [--libpfm auto|none] [--out SPEC_DIR] [--check]

--intel   Intel's perfmon data (github intel/perfmon, BSD-3-Clause): a git repository (read at REV,
          default HEAD, with `git show`) or a checkout. mapfile.csv says which JSON file serves which
          CPUID signature; every `core` and `hybridcore` file becomes one table.
--linux   A Linux source tree or its tarball (Debian's linux-source-X.Y: /usr/src/linux-source-X.Y.tar.xz).
          tools/perf/pmu-events/arch/x86/mapfile.csv and amdzen1..amdzen5/*.json give AMD's core events.
--libpfm  `auto` (default): libpfm4's AMD event and unit-mask names, read from the installed library
          (libpfm.so.4, MIT), become aliases of the Linux events with the same encoding; `none`: no aliases.
--check   Write nothing; exit 1 if any file under SPEC_DIR differs from what the import produces.

Licences. Intel's files are BSD-3-Clause: names, encodings and the BriefDescription text are imported,
and every Intel table carries Intel's copyright notice and licence (the catalogue header repeats it).
The Linux JSON files are part of a GPL-2.0 tree; pmregs is MIT OR GPL-2.0-only, so only facts are taken
from them -- event names, event codes, unit masks and the CPUID map -- and no descriptions.

The output depends only on the inputs: files and rows are sorted, numbers are written one way, and nothing
depends on time, locale or dictionary order. Not run by `make`: the imported YAML is committed like any
spec, and `make` turns it into <pmregs/x86_events.h> and <pmregs/amd_events.h>.
"""

import argparse
import csv
import ctypes
import ctypes.util
import io
import json
import os
import re
import subprocess
import sys
import tarfile

INTEL_NOTICE = """\
Copyright (c) 2021, Intel Corporation. All rights reserved.

Redistribution and use in source and binary forms, with or without modification, are permitted
provided that the following conditions are met:
1. Redistributions of source code must retain the above copyright notice, this list of conditions
   and the following disclaimer.
2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions
   and the following disclaimer in the documentation and/or other materials provided with the
   distribution.
3. Neither the name of the copyright holder nor the names of its contributors may be used to endorse
   or promote products derived from this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED
WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR
ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR
TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF
ADVISED OF THE POSSIBILITY OF SUCH DAMAGE."""

# Hybrid core roles of mapfile.csv -> table name suffix and Linux's PMU name.
ROLES = {"": ("", "cpu"), "Core": ("", "cpu_core"), "Atom": ("_atom", "cpu_atom"),
         "LowPower_Atom": ("_lp_atom", "cpu_lowpower")}
ROLE_TITLES = {"Core": "P-cores", "Atom": "E-cores", "LowPower_Atom": "low-power E-cores"}
CORE_TYPES = {"Core": 0x40, "Atom": 0x20, "LowPower_Atom": 0x20}


class ImportError_(Exception):
    pass


# -- reading the sources -------------------------------------------------------------------------
class IntelSource:
    def __init__(self, path, rev):
        self.path, self.rev = path, rev
        self.git = rev is not None or not os.path.exists(os.path.join(path, "mapfile.csv"))
        if self.git:
            self.rev = rev or "HEAD"
            self.commit = self._git("rev-parse", self.rev + "^{commit}").decode().strip()
        else:
            self.commit = ""

    def _git(self, *args):
        r = subprocess.run(["git", "--git-dir", self.path if os.path.isdir(os.path.join(self.path, "objects"))
                            else os.path.join(self.path, ".git"), *args], capture_output=True)
        if r.returncode:
            raise ImportError_(f"{self.path}: git {' '.join(args)}: {r.stderr.decode().strip()}")
        return r.stdout

    def read(self, rel):
        rel = rel.lstrip("/")
        if self.git:
            return self._git("show", f"{self.commit}:{rel}")
        with open(os.path.join(self.path, rel), "rb") as f:
            return f.read()


class LinuxSource:
    ARCH = "tools/perf/pmu-events/arch/x86/"

    def __init__(self, path):
        self.files = {}
        if os.path.isdir(path):
            for top in ("Makefile",):
                with open(os.path.join(path, top), "rb") as f:
                    self.files[top] = f.read()
            base = os.path.join(path, self.ARCH)
            for dp, _, fs in os.walk(base):
                for fn in fs:
                    full = os.path.join(dp, fn)
                    rel = os.path.relpath(full, base)
                    if rel == "mapfile.csv" or rel.startswith("amdzen"):
                        with open(full, "rb") as f:
                            self.files[self.ARCH + rel] = f.read()
        else:
            with tarfile.open(path) as t:
                for m in t:
                    parts = m.name.split("/", 1)
                    if len(parts) < 2 or not m.isfile():
                        continue
                    rel = parts[1]
                    if rel == "Makefile" or rel == self.ARCH + "mapfile.csv" or \
                            rel.startswith(self.ARCH + "amdzen"):
                        self.files[rel] = t.extractfile(m).read()
        mk = self.files.get("Makefile", b"").decode()
        v = {k: re.search(rf"^{k}\s*=\s*(\S*)", mk, re.M) for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")}
        if not all(v.values()):
            raise ImportError_(f"{path}: no top-level Makefile with the kernel version")
        self.version = ".".join(v[k].group(1) for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL"))

    def read(self, rel):
        return self.files[self.ARCH + rel]

    def dirs(self):
        return sorted({k[len(self.ARCH):].split("/")[0] for k in self.files if k.startswith(self.ARCH + "amdzen")})


# -- CPUID maps: regular expressions -> disjoint ranges ---------------------------------------------
def expand_map(lines, vendor, families, steppings):
    """Perf's rule: the first line whose pattern matches "Vendor-Family-MODEL[-STEPPING]" wins. Returns
    {(table key): [(family, model_lo, model_hi, step_lo, step_hi)]} with ranges that never overlap."""
    out = {}
    for fam in families:
        for model in range(256):
            for step in (range(16) if steppings else [None]):
                sig = f"{vendor}-{fam}-{model:X}" + (f"-{step:X}" if step is not None else "")
                for pat, key in lines:
                    if re.fullmatch(pat, sig) or (step is not None and re.fullmatch(pat, sig.rsplit("-", 1)[0])):
                        out.setdefault(key, set()).add((fam, model, step if step is not None else 0))
                        if step is None:
                            for s in range(1, 16):
                                out[key].add((fam, model, s))
                        break
    ranges = {}
    for key, cells in out.items():
        rs = []
        by_fm = {}
        for fam, model, step in sorted(cells):
            by_fm.setdefault((fam, model), []).append(step)
        for (fam, model), steps in sorted(by_fm.items()):
            lo = steps[0]
            for i, s in enumerate(steps):
                if i + 1 == len(steps) or steps[i + 1] != s + 1:
                    rs.append([fam, model, model, lo, s])
                    if i + 1 < len(steps):
                        lo = steps[i + 1]
        merged = []
        for r in rs:       # merge runs of consecutive models with the same stepping range
            if merged and merged[-1][0] == r[0] and merged[-1][2] + 1 == r[1] and merged[-1][3:] == r[3:]:
                merged[-1][2] = r[2]
            else:
                merged.append(r)
        ranges[key] = merged
    return ranges


def intel_pattern(sig):
    """mapfile.csv's Family-model column (Perl-style regular expression over Vendor-Family-Model[-Stepping])."""
    return sig.replace("[[:xdigit:]]", "[0-9A-F]")


# -- Intel -----------------------------------------------------------------------------------------
def num(s, what):
    s = str(s).strip()
    try:
        return int(s, 0)
    except ValueError:
        raise ImportError_(f"{what}: '{s}' is not a number") from None


def first(s):
    return str(s).split(",")[0].strip()


def intel_counters(s, what, fixed_base=0):
    """Counter: "0,1,2,3" -> bits 0-3; "Fixed counter N" -> bit 32 + N - fixed_base. The oldest files (Nehalem,
    Westmere, Bonnell, Silvermont) number the fixed counters from 1 (INST_RETIRED.ANY is "Fixed counter 1"),
    every later one from 0 as the SDM does (IA32_FIXED_CTR0 counts INST_RETIRED.ANY)."""
    s = str(s).strip()
    m = re.fullmatch(r"Fixed counter (\d+)", s, re.I)
    if m:
        return 1 << (32 + int(m.group(1)) - fixed_base)
    mask = 0
    for part in s.split(","):
        part = part.strip()
        if part:
            mask |= 1 << num(part, what)
    return mask


def intel_event(e, where, fixed_base=0, pairs=None):
    name = e["EventName"].strip()
    w = f"{where}: {name}"
    row = {"name": name}
    pairs = pairs or {}
    row["event_select"] = num(first(e["EventCode"]), w)
    row["umask"] = num(first(e.get("UMask", "0")), w)
    if num(e.get("UMaskExt", "0") or "0", w):
        row["umask2"] = num(e["UMaskExt"], w)
    for key, col in (("CounterMask", "cmask"),):
        v = num(e.get(key, "0") or "0", w)
        if v:
            row[col] = v
    for key, col in (("Invert", "inv"), ("EdgeDetect", "edge"), ("AnyThread", "any_thread"), ("Equal", "eq")):
        if num(e.get(key, "0") or "0", w):
            row[col] = 1
    msr = first(e.get("MSRIndex", "0") or "0")
    if num(msr, w):
        row["msr"] = num(msr, w)
        row["msr_value"] = num(e.get("MSRValue", "0") or "0", w)
        # UMask[N] goes with MSRIndex[N] (README, ProgrammingRestriction MSRIndex-UMask); an event that lists
        # one MSR but several unit masks takes the unit mask that MSR has where both lists are complete
        umasks = [num(x, w) for x in str(e.get("UMask", "0")).split(",")]
        if len(umasks) > 1 and "," not in str(e.get("MSRIndex", "")) and pairs.get((row["event_select"], row["msr"])):
            row["umask"] = pairs[(row["event_select"], row["msr"])]
    row["counters"] = intel_counters(e.get("Counter", ""), w, fixed_base)
    pebs = num(e.get("PEBS", "0") or "0", w)
    if pebs:
        row["pebs"] = pebs
    for key, col in (("Deprecated", "deprecated"), ("TakenAlone", "taken_alone"), ("Data_LA", "data_la")):
        if num(e.get(key, "0") or "0", w):
            row[col] = 1
    brief = " ".join(str(e.get("BriefDescription", "")).split())
    if brief:
        row["brief"] = brief
    return row


def import_intel(src):
    rows = list(csv.DictReader(io.StringIO(src.read("mapfile.csv").decode())))
    tables, lines, roles = {}, [], {}
    for r in rows:          # the role each file plays on hybrid parts (ADL-N runs the E-core file alone)
        if r["EventType"] == "hybridcore":
            roles[r["Filename"].strip()] = r.get("Core Role Name", "").strip()
    for r in rows:
        if r["EventType"] not in ("core", "hybridcore"):
            continue
        fn = r["Filename"].strip()
        d = fn.strip("/").split("/")[0]
        role = roles.get(fn, "")
        if role not in ROLES:
            raise ImportError_(f"mapfile.csv: unknown core role '{role}'")
        key = d.lower() + ROLES[role][0]
        t = tables.setdefault(key, {"file": fn, "role": role, "dir": d})
        if t["file"] != fn:
            raise ImportError_(f"mapfile.csv: table {key} names two files, {t['file']} and {fn}")
        ct = CORE_TYPES.get(role, 0) if r["EventType"] == "hybridcore" else 0
        lines.append((intel_pattern(r["Family-model"].strip()), (key, ct)))
    fams = sorted({int(p.split("-")[1]) for p, _ in lines})
    maps = {}
    # perf's first-match rule per core type: a hybrid part's Core and Atom lines each serve their core type;
    # the low-power Atom table of Arrow Lake shares core type 0x20 (only its native model ID differs), so
    # it is reached by name only
    for ct in sorted({ct for _, (_, ct) in lines}):
        sub = [(p, k) for p, k in lines if k[1] == ct and not k[0].endswith("_lp_atom")]
        maps.update(expand_map(sub, "GenuineIntel", fams, True))
    out = {}
    for key in sorted(tables):
        t = tables[key]
        data = json.loads(src.read(t["file"]))
        hdr = data.get("Header", {})
        events, seen = [], set()
        fixed = {str(e.get("Counter", "")).strip().lower() for e in data["Events"]}
        base = 0 if "fixed counter 0" in fixed else 1
        pairs = {}          # (event code, MSR) -> unit mask, from events that list both in full
        for e in data["Events"]:
            ms, us = str(e.get("MSRIndex", "")).split(","), str(e.get("UMask", "")).split(",")
            if len(ms) > 1 and len(ms) == len(us):
                for m_, u_ in zip(ms, us):
                    pairs.setdefault((num(first(e["EventCode"]), t["file"]), num(m_, t["file"])), num(u_, t["file"]))
        for e in data["Events"]:
            row = intel_event(e, t["file"], base, pairs)
            if row["name"].lower() in seen:
                raise ImportError_(f"{t['file']}: {row['name']} twice")
            seen.add(row["name"].lower())
            events.append(row)
        events.sort(key=lambda r: (r["name"].lower(), r["name"]))
        cpus = []
        for (k, ct), rs in sorted(maps.items()):
            if k == key:
                cpus += [cpu_row(r, ct) for r in rs]
        info = str(hdr.get("Info", "")).strip()
        title = re.sub(r"^Performance Monitoring Events for\s+", "", info)
        title = re.sub(r"\s+-\s+V[\d.]+$", "", title)
        out[key] = {
            "table": key, "title": title + (f" ({ROLE_TITLES[t['role']]})" if t["role"] else ""),
            "pmu": ROLES[t["role"]][1],
            "source": f"intel/perfmon {t['file'].lstrip('/')} version {hdr.get('Version', '?')}"
                      f" ({hdr.get('DatePublished', '?')})" + (f", commit {src.commit}" if src.commit else ""),
            "cpus": cpus, "events": events}
    return out


def cpu_row(r, ct):
    fam, mlo, mhi, slo, shi = r
    row = {"family": fam, "model": [mlo, mhi] if mhi != mlo else mlo}
    if (slo, shi) != (0, 15):
        row["stepping"] = [slo, shi] if shi != slo else slo
    if ct:
        row["core_type"] = ct
    return row


# -- AMD -------------------------------------------------------------------------------------------
def import_amd(src, aliases):
    lines = []
    for r in csv.reader(io.StringIO(src.read("mapfile.csv").decode())):
        if len(r) >= 4 and r[0].startswith("AuthenticAMD") and r[3].strip() == "core":
            lines.append((intel_pattern(r[0].strip()), (r[2].strip(), 0)))
    fams = sorted({int(p.split("-")[1]) for p, _ in lines})
    maps = expand_map(lines, "AuthenticAMD", fams, False)
    out = import_amd_uncore(src, maps)
    for d in src.dirs():
        key = "zen" + d[len("amdzen"):]
        events, seen = [], set()
        for fn in sorted(k for k in src.files if k.startswith(src.ARCH + d + "/") and k.endswith(".json")):
            for e in json.loads(src.files[fn]):
                if "EventCode" not in e or e.get("Unit", "core") != "core":
                    continue      # metrics, and L3/DF/UMC events (other PMUs)
                name = e["EventName"].strip()
                w = f"{fn}: {name}"
                if name.lower() in seen:
                    raise ImportError_(f"{fn}: {name} twice")
                seen.add(name.lower())
                row = {"name": name, "event_select": num(e["EventCode"], w)}
                if num(e.get("UMask", "0"), w):
                    row["umask"] = num(e["UMask"], w)
                for key2, col in (("CounterMask", "cnt_mask"),):
                    if num(e.get(key2, "0"), w):
                        row[col] = num(e[key2], w)
                for key2, col in (("Invert", "inv"), ("EdgeDetect", "edge")):
                    if num(e.get(key2, "0"), w):
                        row[col] = 1
                row["counters"] = 0x3f
                if num(e.get("Deprecated", "0"), w):
                    row["deprecated"] = 1
                events.append(row)
        events.sort(key=lambda r: (r["name"].lower(), r["name"]))
        al = []
        for a, enc in aliases.get(key, []):
            hits = [r["name"] for r in events if (r["event_select"], r.get("umask", 0)) == enc
                    and not r.get("cnt_mask") and not r.get("inv") and not r.get("edge")]
            if len(hits) >= 1 and a.lower() not in seen:
                al.append({"alias": a, "event": sorted(hits, key=lambda n: (n.lower(), n))[0]})
        al.sort(key=lambda r: (r["alias"].lower(), r["alias"]))
        cpus = []
        for (k, ct), rs in sorted(maps.items()):
            if k == d:
                cpus += [cpu_row(r, ct) for r in rs]
        out[("events", key)] = {"table": key, "title": f"AMD {ZEN_TITLES.get(key, key)}", "pmu": "cpu",
                    "source": f"Linux {src.version} tools/perf/pmu-events/arch/x86/{d} (names, codes and unit"
                              " masks only), mapfile.csv",
                    "cpus": cpus, "events": events, "aliases": al,
                    "alias_source": aliases.get("_source", {}).get(key, "")}
    return out


# Linux's uncore units -> (catalogue directory, PMU) per generation: the register layouts differ between
# family 17h and 19h (L3) and before and with PerfMonV2 (DF); the JSON keys are those layouts' fields.
UNCORE = {
    "L3PMC": ({"zen1": "l3_f17h_events", "zen2": "l3_f17h_events", "zen3": "l3_events", "zen4": "l3_events",
               "zen5": "l3_events"}, "amd_l3"),
    "DFPMC": ({"zen1": "df_events", "zen2": "df_events", "zen3": "df_events", "zen4": "df_v2_events",
               "zen5": "df_v2_events"}, "amd_df"),
    "UMCPMC": ({"zen4": "umc_events", "zen5": "umc_events"}, "amd_umc"),
}
UNCORE_KEYS = (("EventCode", "event_select"), ("UMask", "umask"), ("EnAllCores", "en_all_cores"),
               ("EnAllSlices", "en_all_slices"), ("SliceId", "slice_id"), ("ThreadMask", "thread_mask"),
               ("RdWrMask", "rd_wr_mask"))


def import_amd_uncore(src, maps):
    """{(catalogue directory, table): table} of Linux's L3, DF and UMC events (names and encodings only)."""
    out = {}
    for d in src.dirs():
        key = "zen" + d[len("amdzen"):]
        rows = {}
        for fn in sorted(k for k in src.files if k.startswith(src.ARCH + d + "/") and k.endswith(".json")):
            for e in json.loads(src.files[fn]):
                unit = e.get("Unit", "core")
                if "EventCode" not in e or unit not in UNCORE:
                    continue
                cat = UNCORE[unit][0].get(key)
                if cat is None:
                    raise ImportError_(f"{fn}: {unit} events, but no catalogue for {key}")
                name = e["EventName"].strip()
                w = f"{fn}: {name}"
                row = {"name": name}
                for jk, col in UNCORE_KEYS:
                    if num(e.get(jk, "0"), w):
                        row[col] = num(e[jk], w)
                row.setdefault("event_select", 0)
                rows.setdefault((cat, UNCORE[unit][1]), []).append(row)
        for (cat, pmu), events in sorted(rows.items()):
            names = [r["name"].lower() for r in events]
            if len(set(names)) != len(names):
                raise ImportError_(f"{d}: an {pmu} event name twice")
            events.sort(key=lambda r: (r["name"].lower(), r["name"]))
            cpus = [cpu_row(r, ct) for (k, ct), rs in sorted(maps.items()) if k == d for r in rs]
            out[(cat, key)] = {"table": key, "title": f"AMD {ZEN_TITLES.get(key, key)}", "pmu": pmu,
                               "source": f"Linux {src.version} tools/perf/pmu-events/arch/x86/{d} (names and"
                                         " encodings only), mapfile.csv", "cpus": cpus, "events": events}
    return out


ZEN_TITLES = {"zen1": "Zen (family 17h)", "zen2": "Zen 2 (family 17h)", "zen3": "Zen 3 (family 19h)",
              "zen4": "Zen 4 (family 19h)", "zen5": "Zen 5 (family 1Ah)"}
PFM_PMUS = {"zen1": "amd64_fam17h_zen1", "zen2": "amd64_fam17h_zen2", "zen3": "amd64_fam19h_zen3",
            "zen4": "amd64_fam19h_zen4", "zen5": "amd64_fam1ah_zen5"}


class PfmEventInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("desc", ctypes.c_char_p), ("equiv", ctypes.c_char_p),
                ("size", ctypes.c_size_t), ("code", ctypes.c_uint64), ("pmu", ctypes.c_int),
                ("dtype", ctypes.c_int), ("idx", ctypes.c_int), ("nattrs", ctypes.c_int),
                ("reserved", ctypes.c_int), ("flags", ctypes.c_uint)]


class PfmAttrInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("desc", ctypes.c_char_p), ("equiv", ctypes.c_char_p),
                ("size", ctypes.c_size_t), ("code", ctypes.c_uint64), ("type", ctypes.c_int),
                ("idx", ctypes.c_int), ("ctrl", ctypes.c_int), ("flags", ctypes.c_uint),
                ("dfl", ctypes.c_uint64)]


class PfmEncodeArg(ctypes.Structure):
    _fields_ = [("codes", ctypes.POINTER(ctypes.c_uint64)), ("fstr", ctypes.POINTER(ctypes.c_char_p)),
                ("size", ctypes.c_size_t), ("count", ctypes.c_int), ("idx", ctypes.c_int)]


class PfmPmuInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("desc", ctypes.c_char_p), ("size", ctypes.c_size_t),
                ("pmu", ctypes.c_int), ("type", ctypes.c_int), ("nevents", ctypes.c_int),
                ("first_event", ctypes.c_int), ("max_encoding", ctypes.c_int),
                ("num_cntrs", ctypes.c_int), ("num_fixed_cntrs", ctypes.c_int), ("flags", ctypes.c_uint)]


def pfm_version(api):
    """The installed libpfm4's release (Debian's package version), or its API version when dpkg cannot say."""
    try:
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libpfm4"], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip().split("-")[0]
    except OSError:
        pass
    return f"(API {api >> 16}.{api & 0xffff})"


def libpfm_aliases():
    """{table: [(libpfm4 name, (event, umask))]}: every event and event:UMASK of libpfm4's Zen PMUs whose
    encoding is a plain event select and unit mask (each PMU forced, as tests/pfm does)."""
    path = ctypes.util.find_library("pfm")
    if not path:
        raise ImportError_("libpfm4 not found (Debian: libpfm4); use --libpfm none to import without aliases")
    lib = ctypes.CDLL(path)
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    lib.pfm_strerror.restype = ctypes.c_char_p
    lib.pfm_get_event_encoding.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p,
                                           ctypes.POINTER(ctypes.c_int),
                                           ctypes.POINTER(ctypes.POINTER(ctypes.c_uint64)),
                                           ctypes.POINTER(ctypes.c_int)]
    out = {"_source": {}}
    for key, pmu in sorted(PFM_PMUS.items()):
        lib.pfm_terminate()
        os.environ["LIBPFM_FORCE_PMU"] = pmu
        if lib.pfm_initialize() != 0:
            continue
        ver = lib.pfm_get_version()
        first = None
        for p in range(1024):
            pi = PfmPmuInfo()
            pi.size = ctypes.sizeof(PfmPmuInfo)
            if lib.pfm_get_pmu_info(p, ctypes.byref(pi)) == 0 and pi.name and pi.name.decode() == pmu \
                    and pi.flags & 1:
                first = pi.first_event
                break
        if first is None:
            continue
        out["_source"][key] = f"libpfm4 {pfm_version(ver)} PMU {pmu}"
        names = set()
        e = first
        while e >= 0:
            info = PfmEventInfo()
            info.size = ctypes.sizeof(PfmEventInfo)
            if lib.pfm_get_event_info(e, 0, ctypes.byref(info)) != 0:
                break
            ev = info.name.decode()
            cand = [ev]
            for a in range(info.nattrs):
                ai = PfmAttrInfo()
                ai.size = ctypes.sizeof(PfmAttrInfo)
                if lib.pfm_get_event_attr_info(e, a, 0, ctypes.byref(ai)) == 0 and ai.type == 1:
                    cand.append(f"{ev}:{ai.name.decode()}")
            for c in cand:
                codes = ctypes.POINTER(ctypes.c_uint64)()
                count, idx = ctypes.c_int(0), ctypes.c_int(0)
                if lib.pfm_get_event_encoding(f"{pmu}::{c}".encode(), 0x9, None, ctypes.byref(idx),
                                              ctypes.byref(codes), ctypes.byref(count)) == 0 and count.value:
                    v = codes[0]
                    libc.free(codes)
                    if not v & ((1 << 18) | (1 << 23) | (0xFF << 24)):   # edge, inv, cmask: not plain
                        names.add((c, ((v & 0xFF) | ((v >> 24) & 0xF00), (v >> 8) & 0xFF)))
            e = lib.pfm_get_event_next(e)
        out[key] = sorted(names)
    lib.pfm_terminate()
    os.environ.pop("LIBPFM_FORCE_PMU", None)
    return out


# -- writing ---------------------------------------------------------------------------------------
def q(s):
    """A YAML double-quoted string (ASCII; anything else escaped)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "&*":              # never an anchor or alias character in the file (catalogs.py reads fast)
            out.append(f"\\x{o:02x}")
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        elif o < 0x100:
            out.append(f"\\x{o:02x}")
        elif o < 0x10000:
            out.append(f"\\u{o:04x}")
        else:
            out.append(f"\\U{o:08x}")
    out.append('"')
    return "".join(out)


def val(k, v):
    if isinstance(v, str):
        return q(v)
    if isinstance(v, list):
        return "[" + ", ".join(val(k, x) for x in v) + "]"
    if k in ("family", "stepping", "cmask", "cnt_mask") or v in (0, 1) and k not in ("event_select", "umask"):
        return str(v)
    return f"{v:#x}"


def flow(row, order):
    return "{" + ", ".join(f"{k}: {val(k, row[k])}" for k in order if k in row) + "}"


EVENT_KEYS = ("name", "event_select", "umask", "umask2", "cmask", "cnt_mask", "inv", "edge", "any_thread", "eq",
              "en_all_cores", "en_all_slices", "slice_id", "thread_mask", "rd_wr_mask",
              "msr", "msr_value", "counters", "pebs", "deprecated", "taken_alone", "data_la", "brief")


def render(t, licence, notice=None):
    out = [f"# SPDX-License-Identifier: {licence}",
           "# Imported by gen/import_events.py: do not edit, run the import again.",
           f"table: {t['table']}",
           f"title: {q(t['title'])}",
           f"pmu: {t['pmu']}",
           f"source: {q(t['source'])}"]
    if notice:
        out.append("notice: |")
        out += [("  " + ln).rstrip() for ln in notice.splitlines()]
    if t.get("alias_source"):
        out.append(f"alias_source: {q(t['alias_source'])}")
    out.append("cpus:" + ("" if t["cpus"] else " []"))
    out += ["  - " + flow(c, ("family", "model", "stepping", "core_type")) for c in t["cpus"]]
    out.append("events:")
    out += ["  - " + flow(e, EVENT_KEYS) for e in t["events"]]
    if t.get("aliases"):
        out.append("aliases:")
        out += ["  - " + flow(a, ("alias", "event")) for a in t["aliases"]]
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--intel", required=True)
    ap.add_argument("--intel-rev")
    ap.add_argument("--linux", required=True)
    ap.add_argument("--libpfm", choices=("auto", "none"), default="auto")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    try:
        files = {}
        intel = import_intel(IntelSource(a.intel, a.intel_rev))
        for k, t in intel.items():
            files[f"x86/events/{k}.yaml"] = render(t, "BSD-3-Clause", INTEL_NOTICE)
        aliases = libpfm_aliases() if a.libpfm == "auto" else {}
        for (cat, k), t in import_amd(LinuxSource(a.linux), aliases).items():
            files[f"amd/{cat}/{k}.yaml"] = render(t, "MIT OR GPL-2.0-only")
    except (ImportError_, OSError, KeyError, ValueError) as e:
        print(f"import_events: error: {e}", file=sys.stderr)
        return 2
    differ = []
    for d in sorted({os.path.dirname(f) for f in files} | {"x86/events", "amd/events"}):
        full = os.path.join(a.out, d)
        have = sorted(f for f in os.listdir(full) if f.endswith(".yaml")) if os.path.isdir(full) else []
        for f in have:
            if f"{d}/{f}" not in files:
                differ.append(f"{d}/{f}")
                if not a.check:
                    os.unlink(os.path.join(full, f))
    for rel, text in sorted(files.items()):
        path = os.path.join(a.out, rel)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            differ.append(rel)
            if not a.check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
                os.replace(path + ".tmp", path)
    if a.check:
        for rel in differ:
            print(f"{rel}: differs from a fresh import")
        print(f"{len(files)} tables imported, {len(differ)} differ")
        return 1 if differ else 0
    print(f"{len(files)} tables, {sum(t.count(chr(10)) for t in files.values())} lines; {len(differ)} files changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
