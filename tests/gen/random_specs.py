#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Property-based test of the generator: random valid specs must give C that compiles
warning-free everywhere and passes its generated self-tests; random mutations of them
must give located errors.

    random_specs.py [--seed N] [--count N] [--mutants N] [--keep DIR]

Every spec is built from a seeded random generator, exercising: lsb0 and msb0
layouts of 8 to 64 bits, split fields, signed fields, named values, reserved,
ignored and must-be-one ranges, repeat groups, variants, register arrays with
address facts, enums, constants, tables with field checks, functions (field
reads, replace(), any()), matchers, encoders (some whose every event needs a
mask bit, given by its named bits) and packets with a stream and parameter
presets (some with merged shapes that a key table reads); empty parts too (a
table without rows or columns, a field without named values, a family without
registers). The odds favour what is rare in combination (a repeat group,
signed or unsigned, in a layout with variants or of 8 or 16 bits; must-be-one
bits in an encoder's control layout; split and signed fields in the cases of a
variant), so that the default 200 specs reach
the rare shapes of the generated header code (in gcov's lines and branches,
names and numbers aside) that would otherwise take 300 or more. The spec
folder also holds what is no spec (a folder, a dangling link, a name with a
quote), which the umbrella headers must not include: tools.h is compiled with
the rest. The
valid specs' headers and self-tests are generated in one run (each spec read
once for both), all headers are compiled in one translation unit as gcc
-std=c99, gcc -std=gnu11, clang -std=c99, g++ -std=c++11 and clang++ -std=c++17
under the strict warning set, and the self-tests are linked into one program
per compiler and run: gcc builds every third spec's, clang the rest (each spec
self-tested once; gcc takes twice clang's time to build them at -O0, so it gets
a third). Each of the two programs is also its compiler's -std=c99 header
check: its translation unit starts with every header, then the self-tests;
both build without optimisation, where nothing is forced inline (gcc's also
defines PMREGS_NO_FORCE_INLINE, as make check builds self-tests); gcc -std=gnu11
and clang++ check the headers with -O2, in the configuration an optimising
build gets (the codecs' hot paths always inlined).
Each mutant must fail with one located error line per problem and no traceback;
mutations include names the generator owns (a table `layouts`, a constant that
is the header's include guard), two families that define one name, an encoder
event with no placement, checks no event passes with the defaults, parameter
checks the defaults break, and registers past the generator's bound.
A failure prints the seed and the spec that failed (and --keep keeps the files).
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generate  # noqa: E402
import genrun  # noqa: E402
from pmregs_gen.emit import make_env  # noqa: E402

GEN = os.path.join(ROOT, "gen", "generate.py")
WARN = "-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror".split()
# (compiler, standard, language, options). -O2 in the two modes that only check the headers: the configuration
# an optimising build gets (base_inplace.h decides by __OPTIMIZE__: the codecs' hot paths always inlined,
# gcc's out-of-line functions static and noinline) is checked too, with gcc in C and clang in C++; a unit of
# headers alone calls no function, so there is nothing to optimise and it takes no longer
MODES = [("gcc", "c99", "c", []), ("gcc", "gnu11", "c", ["-O2"]), ("clang", "c99", "c", []),
         ("g++", "c++11", "c++", []), ("clang++", "c++17", "c++", ["-O2"])]


class Spec:
    """One random family spec, built as YAML text."""

    def __init__(self, rnd, name):
        self.r = rnd
        self.name = name
        self.lines = []
        self.layouts = []          # (name, width, [(field, width, signed, values)])
        self.n = 0

    def uid(self, base):
        self.n += 1
        return f"{base}{self.n}"

    def out(self, s=""):
        self.lines.append(s)

    # -- layouts ------------------------------------------------------------------------
    def fields(self, width, msb0, allow_variant=True):
        """Random fields tiling [0, width): list of dicts (bits as written)."""
        r = self.r
        pos, items, user = 0, [], []
        while pos < width:
            w = min(width - pos, r.choice([1, 1, 2, 3, 4, 5, 8, 12, 16, 31, 32, 64]))
            kind = r.random()
            lo, hi = pos, pos + w - 1
            pos += w
            if msb0:                       # msb0 bit k is lsb0 bit width-1-k
                bits = f"{width - 1 - hi}:{width - 1 - lo}" if w > 1 else f"{width - 1 - hi}"
            else:
                bits = f"{hi}:{lo}" if w > 1 else f"{hi}"
            # a fifth reserved (rsvd, where repeat groups go, and res1, rare in an encoder's control layout, twice
            # as likely as ignored), a fifth signed, a fifth with named values
            if kind < 0.2:
                items.append({"name": self.uid("rsvd"), "bits": bits,
                              "access": r.choice(["rsvd", "rsvd", "ignored", "res1", "res1"])})
                continue
            f = {"name": self.uid("f"), "bits": bits, "w": w}
            if kind < 0.4 and w >= 2:
                f["signed"] = True
            elif kind < 0.6 and 1 <= w <= 16:
                nv = r.randint(0, min(4, 1 << w))          # 0: an empty mapping of named values
                f["values"] = {self.uid("v"): v for v in r.sample(range(1 << w), nv)}
                f["empty_values"] = nv == 0
            if r.random() < 0.3:
                f["reset"] = r.randint(0, (1 << w) - 1)      # the raw bits, signed or not
            if r.random() < 0.2:
                f["access"] = r.choice(["ro", "wo", "w1c"])
            items.append(f)
            user.append(f)
        # a split field: join two user fields of the same layout into one with two parts
        cand = [f for f in user if ":" in f["bits"] or f["w"] == 1]
        if len(cand) >= 2 and r.random() < 0.4:
            a, b = sorted(r.sample(cand, 2), key=lambda f: -self.lsb(f, width, msb0))
            if not a.get("values") and not b.get("values"):
                items.remove(b)
                a["bits"] = [a["bits"], b["bits"]]
                a["w"] += b["w"]
                a.pop("reset", None)
                a.pop("signed", None)
        return items

    @staticmethod
    def lsb(f, width, msb0):
        b = f["bits"] if isinstance(f["bits"], str) else f["bits"][-1]
        hi = int(b.split(":")[0])
        lo = int(b.split(":")[-1])
        return width - 1 - lo if msb0 else lo

    def field_yaml(self, f, indent):
        parts = [f"name: {f['name']}"]
        bits = f["bits"]
        parts.append("bits: [" + ", ".join(f'"{b}"' for b in bits) + "]" if isinstance(bits, list)
                     else f'bits: "{bits}"')
        for k in ("access", "reset"):
            if k in f:
                parts.append(f"{k}: {f[k]}")
        if f.get("signed"):
            parts.append("signed: true")
        if f.get("values") or f.get("empty_values"):
            parts.append("values: {" + ", ".join(f"{k}: {v}" for k, v in f["values"].items()) + "}")
        parts.append(f'doc: "field {f["name"]}"')
        return " " * indent + "- {" + ", ".join(parts) + "}"

    def layout(self, width, msb0):
        r = self.r
        name = self.uid("lay")
        self.out(f"  {name}:")
        self.out(f"    title: Layout {name}")
        self.out(f"    doc: A random layout.")
        self.out(f"    width: {width}")
        self.out("    fields:")
        items = self.fields(width, msb0)
        user = [f for f in items if "w" in f]
        # variants on a 1-bit discriminator: one other field exists only in the cases
        disc = [f for f in user if f["w"] == 1 and isinstance(f["bits"], str) and not f.get("values")
                and not f.get("signed")]
        others = [f for f in user if f not in disc[:1] and isinstance(f["bits"], str) and not f.get("values")
                  and f["w"] <= 16 and not f.get("access")]
        variant = None
        if disc and others and r.random() < 0.75:      # often: its cases repeat the rare fields (split, signed)
            variant = (disc[0], others[0])
            disc[0]["values"] = {"off": 0, "on": 1}
        # a repeat group of 1-bit or 2-bit fields in place of the first reserved range wide enough
        group = None
        for f in items:
            if f.get("access") == "rsvd" and isinstance(f["bits"], str) and not msb0:
                hi, lo = (int(x) for x in (f["bits"].split(":") + [f["bits"]])[:2])
                if hi - lo + 1 >= 4 and r.random() < 0.85:
                    w = r.choice([1, 2])
                    cnt = (hi - lo + 1) // w
                    group = (f, w, cnt, lo)
                    break
        for f in items:
            if variant and f is variant[1]:
                continue
            if group and f is group[0]:
                _, w, cnt, lo = group
                g = self.uid("g")
                self.out("      - repeat: %d" % cnt)
                self.out("        stride: %d" % w)
                self.out("        fields:")
                b = f"{lo + w - 1}:{lo}" if w > 1 else f"{lo}"
                sg = ", signed: true" if w == 2 and r.random() < 0.6 else ""
                self.out(f'          - {{name: "{g}_{{i}}", bits: "{b}"{sg}, doc: "member {{i}}"}}')
                top = lo + w * cnt - 1
                if top < int(f["bits"].split(":")[0]):
                    self.out(f'      - {{name: {self.uid("rsvd")}, bits: "{f["bits"].split(":")[0]}:{top + 1}"'
                             if int(f["bits"].split(":")[0]) > top + 1 else
                             f'      - {{name: {self.uid("rsvd")}, bits: "{top + 1}"', )
                    self.lines[-1] += ", access: rsvd}"
                continue
            self.out(self.field_yaml(f, 6))
        self.layouts.append((name, width, [f for f in user if not variant or f is not variant[1]], msb0))
        if variant:
            d, o = variant
            self.out("    variants:")
            self.out(f"      discriminator: {d['name']}")
            self.out("      cases:")
            for case in ("off", "on"):
                self.out(f"        - name: {self.uid('case')}")
                self.out(f"          when: {case}")
                self.out(f"          doc: case {case}")
                self.out("          fields:")
                self.out(f'            - {{name: {o["name"]}, bits: "{o["bits"]}", doc: "in case {case}",'
                         f' values: {{{self.uid("cv")}: 0}}}}')
        return name

    # -- the whole family ------------------------------------------------------------------
    def build(self):
        r = self.r
        self.out(f"family: {self.name}")
        self.out(f"title: Random family {self.name}")
        self.out("doc: A family built by tests/gen/random_specs.py.")
        self.out("sources: {RND: random_specs.py}")
        self.out(f"width: {r.choice([32, 64])}")
        msb0 = r.random() < 0.25
        self.out(f"bit_order: {'msb0' if msb0 else 'lsb0'}")
        self.out("facts:")
        self.out('  addr: {type: u32, address: true, doc: "address"}')
        self.out('  note: {type: str, doc: "a note"}')
        self.out("constants:")
        for _ in range(r.randint(1, 3)):
            self.out(f"  {self.uid('k')}: {{value: {r.randint(0, 1 << 40):#x}, doc: \"a constant\"}}")
        enum = self.uid("en")
        evals = [self.uid("e") for _ in range(r.randint(1, 4))]
        self.out("enums:")
        self.out(f"  {enum}:")
        self.out("    doc: an enum")
        self.out("    values:")
        for k, v in enumerate(evals):
            self.out(f"      {v}: {{value: {k}, doc: \"value {k}\"}}")
        self.out("layouts:")
        for _ in range(r.randint(1, 3)):
            self.layout(r.choice([8, 16, 32, 64]), msb0)
        self.out("registers:" if r.random() < 0.9 else "registers: []  # a family without registers")
        for (lname, width, user, _) in (self.layouts if not self.lines[-1].endswith("registers") else []):
            if r.random() < 0.5:
                cnt = r.randint(2, 4)
                self.out(f'  - {{name: "{self.uid("reg")}_{{i}}", layout: {lname}, count: {cnt}, stride: 2,'
                         f' addr: {r.randint(0, 0xFFFF):#x}, note: "instance {{i}}"}}')
            else:
                self.out(f"  - {{name: {self.uid('reg')}, layout: {lname}, addr: {r.randint(0, 0xFFFF):#x}}}")
        # a table with a field-checked column
        lname, width, user, _ = self.layouts[0]
        plain = [f for f in user if isinstance(f["bits"], str) and not f.get("signed") and f["w"] <= 32]
        if plain:
            f = plain[0]
            t = self.uid("tab")
            self.out("tables:")
            self.out(f"  {t}:")
            self.out("    doc: a table")
            self.out("    columns:")
            self.out(f"      code: {{type: u32, field: {lname}.{f['name']}}}")
            self.out(f"      kind: {{type: {enum}}}")
            self.out("    rows:")
            for _ in range(r.randint(1, 4)):
                self.out(f"      - {{name: {self.uid('row')}, code: {r.randint(0, (1 << f['w']) - 1)},"
                         f" kind: {r.choice(evals)}}}")
            if r.random() < 0.4:                          # empty tables: no rows, no columns
                self.out(f"  {self.uid('none')}: {{doc: no rows, columns: {{v: {{type: u8}}}}, rows: []}}")
                self.out(f"  {self.uid('names')}: {{doc: no columns, columns: {{}}, rows: [{{name: only}}]}}")
            enc = r.random() < 0.75
            if enc:
                events = self.encoder_table(lname, f, enum, evals, plain)
        # functions over the first layout
        self.out("functions:")
        self.out(f"  - name: {self.uid('fn')}")
        self.out("    doc: a boolean function")
        self.out(f"    params: {{x: {lname}, n: u8}}")
        self.out("    returns: bool")
        terms = []
        for f in user[:4]:
            if isinstance(f["bits"], str):
                terms.append(f"x.{f['name']} != 0" if not f.get("signed") else f"x.{f['name']} != 0")
        terms.append(f"any(x[i] for i in range({r.randint(1, min(width, 8))}))")
        self.out(f'    expr: "{" or ".join(terms)}"')
        if plain:
            f = plain[0]
            self.out(f"  - name: {self.uid('fn')}")
            self.out("    doc: a register function")
            self.out(f"    params: {{x: {lname}, y: u64}}")
            self.out(f"    returns: {lname}")
            self.out(f'    expr: "replace(x, {f["name"]}=y & {(1 << f["w"]) - 1:#x}) if y < 100 else x"')
        self.out(f"  - name: {self.uid('fn')}")
        self.out("    doc: an enum function")
        self.out("    params: {n: u8}")
        self.out(f"    returns: {enum}")
        self.out(f'    expr: "{enum}.{evals[-1]} if n > 3 else {enum}.{evals[0]}"')
        if plain and enc:
            self.encoder(events, lname, plain, enum, evals)
        if r.random() < 0.5:
            self.matcher()
        if r.random() < 0.5:
            self.packets()
        return "\n".join(self.lines) + "\n"

    # -- an event encoder: events placed on counters (a set of enum values), a layout value out --
    def encoder_table(self, lname, f, enum, evals, plain):
        r = self.r
        t = self.uid("evt")
        g = plain[1] if len(plain) > 1 else None
        self.masks = g is not None and g["w"] <= 16 and r.random() < 0.5     # named mask bits set the parameter
        self.out(f"  {t}:")
        self.out("    doc: events for the encoder")
        self.out("    columns:")
        self.out(f"      code: {{type: u32, field: {lname}.{f['name']}}}")
        self.out(f'      counters: {{type: "set({enum})"}}')
        if self.masks:
            self.out(f"      mask: {{type: bits, field: {lname}.{g['name']}}}")
        self.out("    rows:")
        for _ in range(r.randint(1, 4)):
            on = r.sample(evals, r.randint(1, len(evals)))
            mask = ""
            if self.masks:
                bits = r.sample(range(g["w"]), r.randint(1, min(3, g["w"])))
                mask = ", mask: {" + ", ".join(f"{self.uid('b')}: {b}" for b in bits) + "}"
            self.out(f"      - {{name: {self.uid('ev')}, code: {r.randint(0, (1 << f['w']) - 1)},"
                     f" counters: [{', '.join(on)}]{mask}}}")
        return t

    def encoder(self, events, lname, plain, enum, evals):
        r = self.r
        code, rest = plain[0], plain[1:]
        self.out("encoders:")
        self.out(f"  {self.uid('enc')}:")
        self.out("    doc: a random encoder")
        self.out(f"    table: {events}")
        self.out("    place:")
        self.out("      counter: {from: event.counters, doc: the counter}")
        fields = [f"{code['name']}=event.code"]
        if rest:
            g = rest[0]
            lim = r.randint(0, (1 << g["w"]) - 1)
            names = ", names: event.mask" if getattr(self, "masks", False) else ""
            if names:
                lim = (1 << g["w"]) - 1            # every event's named bits pass the check
            self.out("    params:")
            # u32 with named bits (p > the field's maximum can hold) or when a u8 could never exceed lim
            ptype = 32 if names or g["w"] > 8 or lim >= 0xff else 8
            self.out(f"      p: {{type: u{ptype}, default: 0{names}, doc: a parameter}}")
            self.out("    checks:")
            self.out(f'      - {{name: {self.uid("big")}, error: erange, fail: "p > {lim}", doc: too big}}')
            if names:                              # every event needs a mask bit: its named ones encode it
                self.out(f'      - {{name: {self.uid("need")}, error: einval, fail: "p == 0", doc: no mask bit}}')
            fields.append(f"{g['name']}=p")
        self.out("    outputs:")
        self.out(f'      ctl: {{type: {lname}, expr: "make({lname}, {", ".join(fields)})", doc: the control value}}')
        self.out(f'      sel: {{type: u32, expr: "7 if counter == {enum}.{evals[0]} else 3", doc: which counter}}')
        self.out("    decode: [ctl, sel]")

    def matcher(self):
        r = self.r
        cut = r.randint(1, 62)
        m = self.uid("m")
        self.out("matchers:")
        self.out(f"  {m}:")
        self.out("    doc: a matcher")
        self.out("    params: {value: v, ref: r, mask: k}")
        self.out("    rules:")
        self.out(f'      - {{bits: "{cut - 1}:0" , mask: care}}' if cut > 1 else '      - {bits: "0", mask: care}')
        self.out(f'      - {{bits: "63:{cut}", mask: none}}')

    def packets(self):
        r = self.r
        p = self.uid("pk")
        wa, wb = r.randint(1, 20), r.randint(1, 40)
        # half the packets: a run of 1-bit flags, so that 8 or more byte members sit in a row (the word
        # decoder then stores them a word at a time and spreads flag runs with a multiply)
        nf = r.randint(6, 9) if r.random() < 0.5 else 0
        flags = "".join(f", f{i}" for i in range(nf))
        self.out("params:")
        self.out("  w_p: {doc: a width, default: %d, min: 1, max: 40}" % r.randint(1, 40))
        self.out("param_presets:")
        self.out("  %s: {doc: a preset, values: {w_p: %d}}" % (self.uid("preset"), r.randint(1, 40)))
        self.out("packets:")
        self.out(f"  {p}:")
        self.out("    doc: a packet")
        self.out("    compression: sign")
        merged = (wa + wb) % 2 == 0
        # some merged packets: a field whose width a (6 bits at most) decides, in shape two only, so the
        # word decoder reads kind and a's values, d's position and mask from a key table (no draw of r: the
        # same seed gives the same specs otherwise)
        keyed = merged and wa <= 6
        self.out(f"    max_bytes: {(2 + wa + wb + 40 + nf + 7) // 8 + 1 + (3 if keyed else 0)}")
        if merged:                          # half the packets: both shapes on the word decoder's one path
            self.out("    merge: [[one, two]]")
        self.out("    fields:")
        self.out('      kind: {width: 2, doc: "shape selector"}')
        self.out(f'      a: {{width: {wa}, doc: "a"}}')
        if keyed:
            self.out('      d: {width: "a % 25", doc: "d, as wide as a says (up to 24 bits)"}')
        self.out(f'      b: {{width: {wb}, doc: "b"}}')
        self.out('      c: {width: "w_p", doc: "c, as wide as the parameter says"}')
        for i in range(nf):
            self.out(f'      f{i}: {{width: 1, doc: "a flag"}}')
        self.out("    shapes:")
        self.out("      - name: one")
        self.out("        doc: kind 0")
        self.out(f"        fields: [{{name: kind, is: 0}}, a{flags if nf % 2 else ''}]")
        self.out("      - name: two")
        self.out("        doc: kind 1 to 3")
        self.out(f'        fields: [{{name: kind, is: "1..3"}}, a, {"d, " if keyed else ""}b, c{flags}]')
        if r.random() < 0.6:
            self.stream(p)

    def stream(self, payload):
        """A framing packet (length byte, fill bytes) and a stream that carries the packet in it."""
        r = self.r
        fr, kw = self.uid("fr"), r.randint(1, 3)
        self.out(f"  {fr}:")
        self.out("    doc: a frame")
        self.out('    size: "1 if length == 0 else 1 + length"')
        self.out("    fields:")
        self.out('      length: {width: 5, doc: "payload bytes", value: "(rest_bits + 7) // 8"}')
        self.out(f'      kind: {{width: {kw}, doc: "what the payload is"}}')
        self.out(f'      pad: {{width: {3 - kw}, doc: "zero"}}' if kw < 3 else "")
        self.out('      payload: {rest: true, doc: "the payload"}')
        self.out("    shapes:")
        self.out("      - name: fill")
        self.out("        doc: a zero byte")
        zero = ", {name: pad, is: 0}" if kw < 3 else ""
        self.out(f"        fields: [{{name: length, is: 0}}, {{name: kind, is: 0}}{zero}]")
        self.out("      - name: message")
        self.out("        doc: a message")
        self.out(f'        fields: [{{name: length, is: "1..31"}}, kind{zero}, payload]')
        self.out("streams:")
        self.out(f"  {self.uid('st')}:")
        self.out("    doc: frames in a byte buffer")
        self.out(f"    frame: {fr}")
        self.out(f"    payload: {payload}")
        self.out('    payload_if: "kind == 1"')
        self.out('    resync_zeros: "33"')
        if r.random() < 0.5:
            # the readers' first try at the common packet (the pad's test joins the header's mask test)
            self.out('    fast_if: "pad == 0"' if kw < 3 else '    fast_if: "kind == 1"')


# -- mutations: each makes a valid spec invalid in one place -----------------------------------
def mutants(rnd, text):
    lines = text.split("\n")
    out = []
    idx = [i for i, ln in enumerate(lines) if "bits: \"" in ln and "name: f" in ln]
    muts = []
    if idx:
        i = rnd.choice(idx)
        muts += [
            ("drop a field (gap)", lambda L, i=i: L[:i] + L[i + 1:]),
            ("keyword name", lambda L, i=i: L[:i] + [re.sub(r"name: f\d+", "name: int", L[i], 1)] + L[i + 1:]),
            ("stdint name", lambda L, i=i: L[:i] + [re.sub(r"name: f\d+", "name: uint8_t", L[i], 1)] + L[i + 1:]),
            ("bad name", lambda L, i=i: L[:i] + [re.sub(r"name: f\d+", "name: Bad-Name", L[i], 1)] + L[i + 1:]),
            ("unknown key", lambda L, i=i: L[:i] + [L[i].replace("{name:", "{colour: red, name:", 1)] + L[i + 1:]),
            ("leading zero", lambda L, i=i: L[:i] + [re.sub(r"reset: \w+", "reset: 010", L[i]) if "reset:" in L[i]
                                                    else L[i].replace("{name:", "{reset: 010, name:", 1)] + L[i + 1:]),
            ("bits past the width", lambda L, i=i: L[:i] + [re.sub(r'bits: "(\d+)', r'bits: "9\1', L[i], 1)] + L[i + 1:]),
            ("duplicate field", lambda L, i=i: L[:i + 1] + [L[i]] + L[i + 1:]),
        ]
    e = [i for i, ln in enumerate(lines) if ln.strip().startswith("expr:")]
    if e:
        i = rnd.choice(e)
        muts += [("expression syntax", lambda L, i=i: L[:i] + [L[i].replace('"', '"(', 1)] + L[i + 1:]),
                 ("unknown name in expression",
                  lambda L, i=i: L[:i] + [L[i].replace('"', '"nosuch + ', 1)] + L[i + 1:])]
    pl = [i for i, ln in enumerate(lines) if "from: event.counters" in ln]
    if pl:
        i = pl[0]
        muts += [("placement from an unknown column",
                  lambda L, i=i: L[:i] + [L[i].replace("event.counters", "event.nosuch")] + L[i + 1:]),
                 ("encoder output of an unknown layout",
                  lambda L: [ln.replace("ctl: {type: ", "ctl: {type: nosuch_", 1) for ln in L])]
    ck = [i for i, ln in enumerate(lines) if "error: erange" in ln]
    if ck:
        i = ck[0]
        muts += [("unknown error kind", lambda L, i=i: L[:i] + [L[i].replace("erange", "eboom")] + L[i + 1:])]
    muts += [("tab in YAML", lambda L: L[:3] + ["\tx: 1"] + L[3:]),
             ("unknown top-level key", lambda L: L + ["colours: {}"])]
    # names the generator owns: a table named like a generated one, a constant that is the include guard
    ci = [i for i, ln in enumerate(lines) if ln == "constants:"]
    if ci:
        muts += [("constant named like the include guard (PMREGS_<F>_H)",
                  lambda L, i=ci[0]: L[:i + 1] + ["  h: {value: 1, doc: the guard}"] + L[i + 1:])]
    ti = [i for i, ln in enumerate(lines) if ln == "tables:"]
    owned = rnd.choice(["layouts", "registers", "family", "samples", "streams", "tables", "register_descs"])
    table = f"  {owned}: {{doc: taken, columns: {{v: {{type: u8}}}}, rows: [{{name: r, v: 1}}]}}"
    muts += [(f"table named '{owned}', a generated table",
              (lambda L, i=ti[0]: L[:i + 1] + [table] + L[i + 1:]) if ti else (lambda L: L + ["tables:", table]))]
    # encoders that cannot work
    ev = [i for i, ln in enumerate(lines) if "counters: [" in ln and "name: ev" in ln]
    if ev:
        i = rnd.choice(ev)
        muts += [("an encoder event with no placement",
                  lambda L, i=i: L[:i] + [re.sub(r"counters: \[[^]]*\]", "counters: []", L[i])] + L[i + 1:])]
    big = [i for i, ln in enumerate(lines) if "error: erange" in ln]
    if big and not any("names: event.mask" in ln for ln in lines):
        muts += [("every event needs a parameter the default does not give",
                  lambda L, i=big[0]: L[:i + 1] + ['      - {name: needp, error: einval, fail: "p == 0", doc: x}'] + L[i + 1:])]
    # parameter sets that break the family's own checks
    wp = [i for i, ln in enumerate(lines) if ln.startswith("  w_p: {")]
    if wp:
        muts += [("a parameter check the defaults break",
                  lambda L, i=wp[0]: L[:i + 1] + ["param_checks:", '  - {expr: "w_p > 40", doc: never}'] + L[i + 1:]),
                 ("a preset outside the parameter's range",
                  lambda L: [re.sub(r"values: \{w_p: \d+\}", "values: {w_p: 41}", ln) for ln in L])]
    # past a generator bound: 65 register arrays of 256
    ri = [i for i, ln in enumerate(lines) if ln == "registers:"]
    if ri and any(ln.startswith("  - {name: ") for ln in lines[ri[0] + 1:ri[0] + 2]):
        lay = re.search(r"layout: (\w+)", lines[ri[0] + 1]).group(1)
        regs = [f'  - {{name: "many{k}_{{i}}", layout: {lay}, count: 256}}' for k in range(65)]
        muts += [("registers past the bound (16384)", lambda L, i=ri[0]: L[:i + 1] + regs + L[i + 1:])]
    for what, f in rnd.sample(muts, min(2, len(muts))):
        out.append((what, "\n".join(f(list(lines)))))
    return out


def run(cmd, cwd=None):
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    if os.environ.get("PMREGS_RANDOM_TIMES"):
        print(f"  {time.time() - t:6.1f} s  {' '.join(os.path.basename(c) for c in cmd[:3])} ...", file=sys.stderr)
    return p.returncode, p.stdout + p.stderr


def generate_all(*runs):
    """The generator run once per argument list, all at once, each in a process forked from this one
    (tests/gen/genrun.py: the generator imported once): [(status, output)] in order. An argument list
    that starts with a function runs that function instead of the generator's main()."""
    t0 = time.time()
    # the templates of headers and self-tests compiled here, once, for every run forked below (each would
    # compile those it renders: the mutants' run renders the headers of the families that pass alone)
    env = make_env()
    for name in env.list_templates(filter_func=lambda n: n.endswith((".h.j2", ".c.j2"))):
        env.get_template(name)
    started = [genrun.start(args[0], GEN, *args[1:]) if callable(args[0]) else genrun.start(generate.main, GEN, *args)
               for args in runs]
    out = []
    for args, s in zip(runs, started):
        p = genrun.finish(s)
        out.append((p.returncode, p.stdout + p.stderr))
        if os.environ.get("PMREGS_RANDOM_TIMES"):
            print(f"  {time.time() - t0:6.1f} s  generate.py {' '.join(str(x) for x in args[:2])} ...", file=sys.stderr)
    return out


def headers_and_selftests(args):
    """main() of the forked run that writes the headers (into args[0]) and the self-tests (into args[1]) of the
    specs args[2:], reading and checking each spec once for both (generate.build(selftest_files=...)): the
    status and messages the generator's own main gives."""
    inc, st, specs = args[0], args[1], args[2:]
    warnings, tests = [], {}
    try:
        files = generate.build(specs, out=inc, warnings=warnings, selftest_files=tests)
    except generate.SpecError as e:
        for d in e.errors:
            print(d, file=sys.stderr)
        return 1
    for w in warnings:
        print(w, file=sys.stderr)
    generate.write(inc, False, files)
    generate.write(st, False, tests)
    return 0


def run_all(cmds, jobs=2):
    """run() every command, `jobs` at a time; [(status, output)] in order."""
    out, running, t0 = [None] * len(cmds), [], time.time()
    todo = list(enumerate(cmds))
    while todo or running:
        while todo and len(running) < jobs:
            k, (cmd, cwd) = todo.pop(0)
            running.append((k, cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                                     text=True, cwd=cwd)))
        k, cmd, p = running.pop(0)
        text = p.communicate()[0]
        out[k] = (p.returncode, text)
        if os.environ.get("PMREGS_RANDOM_TIMES"):
            print(f"  {time.time() - t0:6.1f} s  {' '.join(os.path.basename(c) for c in cmd[:3])} ...", file=sys.stderr)
    return out


def selftest_program(d, names):
    """One C file holding every self-test, each behind its own prefix, and a main calling them all. The part
    every self-test shares (between #ifndef PMREGS_SELFTEST_COMMON and its #endif) keeps its names: the first
    self-test defines it, the others skip it. Each self-test's own static names (and main) are renamed around
    its #include, those alone: the names of all of them for each would be some 650 macros defined and undefined
    around every one of 200 self-tests (10 MB of #define lines for clang's program)."""
    parts = []
    common = re.compile(r"^#ifndef PMREGS_SELFTEST_COMMON\n.*?^#endif /\* PMREGS_SELFTEST_COMMON \*/$", re.M | re.S)
    for n in names:
        with open(os.path.join(d, "st", f"selftest_{n}.c"), encoding="utf-8") as f:
            src = f.read()
        if len(common.findall(src)) != 1:
            raise SystemExit(f"selftest_{n}.c: no part shared by every self-test (#ifndef PMREGS_SELFTEST_COMMON)")
        src = common.sub("", src)
        statics = set(re.findall(r"^static\b[^(=;]*?\b([A-Za-z_]\w*)\s*(?:\(|\[|=|;|,)", src, re.M))
        statics |= set(re.findall(r"^static [^;(]*,\s*([A-Za-z_]\w*)\s*;", src, re.M))
        parts.append((n, sorted(statics | {"main"})))
    out = ["#include <stdio.h>"]
    for n, statics in parts:
        out += [f"#define {s} {n}__{s}" for s in statics] + [f'#include "st/selftest_{n}.c"']
        out += [f"#undef {s}" for s in statics]
    out.append("int main(void)\n{\n\tint bad = 0;")
    for n, _ in parts:
        out.append(f'\tif ({n}__main() != 0) {{ bad = 1; printf("self-test of {n} failed\\n"); }}')
    out.append("\treturn bad;\n}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--mutants", type=int, default=100)
    ap.add_argument("--keep", default=None, help="keep the specs and the generated files in this folder")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 32)
    print(f"random_specs.py --seed {seed} --count {a.count} --mutants {a.mutants}")
    rnd = random.Random(seed)
    d = a.keep or tempfile.mkdtemp(prefix="pmregs-random-")
    os.makedirs(os.path.join(d, "spec"), exist_ok=True)
    failed = []
    names, texts = [], {}
    for k in range(a.count):
        name = f"r{k}"
        texts[name] = Spec(random.Random(rnd.randrange(1 << 62)), name).build()
        with open(os.path.join(d, "spec", f"{name}.yaml"), "w", encoding="utf-8") as f:
            f.write(texts[name])
        names.append(name)
    specs = [os.path.join(d, "spec", f"{n}.yaml") for n in names]
    # what the spec folder holds besides specs: no umbrella header may include it
    os.makedirs(os.path.join(d, "spec", "stray.yaml"), exist_ok=True)
    if not os.path.lexists(os.path.join(d, "spec", "gone.yaml")):
        os.symlink("nowhere.yaml", os.path.join(d, "spec", "gone.yaml"))
    with open(os.path.join(d, "spec", "it's.yaml"), "w", encoding="utf-8") as f:
        f.write(texts[names[0]] if names else "")
    inc = os.path.join(d, "include", "pmregs")
    # mutants: every one must give located errors, no traceback, no output (checked below)
    md = os.path.join(d, "mutants")
    os.makedirs(md, exist_ok=True)
    made = []
    k = 0
    pairs = min(3, a.mutants // 30 + 1)       # cross-family clashes (below) count among the mutants
    while names and len(made) < a.mutants - pairs:  # exactly --mutants invalid specs, a few mutations of each
        name = names[k % len(names)]
        for j, (what, text) in enumerate(mutants(rnd, texts[name])[:a.mutants - pairs - len(made)]):
            mname = f"m{k}_{j}"
            with open(os.path.join(md, f"{mname}.yaml"), "w", encoding="utf-8") as f:
                f.write(text.replace(f"family: {name}\n", f"family: {mname}\n", 1))
            made.append((mname, what))
        k += 1
    # two families that define one name: mK (layout a_b_x) and mK_a (layout b_x) both define PMREGS_MK_A_B_X_*;
    # the second, given after its companion, is the one refused
    companions = []
    for k in range(pairs):
        base, layout = f"c{k}", f'  a_b_x: {{fields: [{{name: f, bits: "63:0"}}]}}'
        with open(os.path.join(md, f"{base}.yaml"), "w", encoding="utf-8") as f:
            f.write(f"family: {base}\ntitle: t\nlayouts:\n{layout}\n")
        with open(os.path.join(md, f"{base}_a.yaml"), "w", encoding="utf-8") as f:
            f.write(f"family: {base}_a\ntitle: t\nlayouts:\n{layout.replace('a_b_x', 'b_x')}\n")
        companions.append(os.path.join(md, f"{base}.yaml"))
        made.append((f"{base}_a", "two families generated together define one name"))
    mout = os.path.join(d, "mutant_out")
    # the valid specs' headers and self-tests in one run (each spec read and checked once for both), the
    # mutants in another at the same time
    (rc, log), (mrc, mlog) = generate_all(
        [headers_and_selftests, inc, os.path.join(d, "st")] + specs,
        ["--out", mout] + companions + [os.path.join(md, f"{m}.yaml") for m, _ in made])
    if rc != 0:
        failed.append(f"valid specs refused, or their self-tests not generated:\n{log[:3000]}")
    if not failed:
        for f in os.listdir(os.path.join(ROOT, "include", "pmregs")):     # the hand-written base headers
            if f.startswith("base") or f == "version.h":
                shutil.copy(os.path.join(ROOT, "include", "pmregs", f), inc)
        # every header in one translation unit, first, before any other header
        all_tu = "".join(f"#include <pmregs/{n}_tools.h>\n" for n in names) + "#include <pmregs/tools.h>\n" \
            "int pmregs_random_tu;\n"
        for tu in ("all.c", "all.cc"):
            with open(os.path.join(d, tu), "w") as f:
                f.write(all_tu)
        # the self-tests: one program per compiler, so that each spec is self-tested once: gcc every third
        # spec (it builds them at half clang's speed), clang the rest. Each program is also its compiler's
        # -std=c99 mode of the header check: the translation unit starts with every header (all_tu), so the
        # headers are parsed once for both, and nothing silences a warning (an unused static function too)
        ccs = [cc for cc in ("gcc", "clang") if shutil.which(cc) is not None]
        cmds, what, built = [], [], []
        for cc in ccs:
            mine = names if len(ccs) == 1 else [n for j, n in enumerate(names) if (j % 3 == 0) == (cc == "gcc")]
            with open(os.path.join(d, f"selftests_{cc}.c"), "w") as f:
                f.write(all_tu + selftest_program(d, mine))
            exe = os.path.join(d, f"selftests_{cc}")
            # gcc's program defines PMREGS_NO_FORCE_INLINE, as make check builds the self-tests (each says
            # pmregs-test: no-force-inline); at -O0 nothing is forced inline with or without it. The
            # configuration of an optimising build (the codecs' hot paths always inlined) is checked by gcc
            # -std=gnu11 -O2 and clang++ -O2 below
            nfi = ["-DPMREGS_NO_FORCE_INLINE"] if cc == "gcc" and len(ccs) > 1 else []
            # no unwind tables: nothing in a C self-test unwinds, and the compilers then write none for its
            # thousands of functions (clang: about a tenth of the build)
            cmds.append(([cc, "-std=c99"] + WARN + nfi + ["-O0", "-fno-asynchronous-unwind-tables", "-I",
                                                          os.path.join(d, "include"),
                                                          os.path.join(d, f"selftests_{cc}.c"), "-o", exe], d))
            what.append(f"{cc} -std=c99 rejects the generated headers, or the self-tests do not build")
            built.append((len(cmds) - 1, cc, exe))
        for cc, std, lang, opts in MODES:
            if shutil.which(cc) is None:
                print(f"skip {cc}: not installed")
                continue
            if std == "c99" and cc in ccs:
                continue                  # compiled with the self-tests (above)
            src = os.path.join(d, "all.c" if lang == "c" else "all.cc")
            # clang diagnoses in its front end, which -fsyntax-only runs whole (the object code is not
            # looked at: a third less time in C++); gcc warns of an unused static function only when
            # it compiles the unit
            out = (["-fsyntax-only"] if cc.startswith("clang") else
                   ["-c", "-o", os.path.join(d, f"all_{cc}_{std}.o")])
            cmds.append(([cc, f"-std={std}"] + WARN + opts + ["-I", os.path.join(d, "include"), src] + out, None))
            what.append(f"{cc} -std={std} rejects the generated headers")
        # the two long self-test builds first, so that the header builds fill the other core
        results = run_all(cmds)
        for k in range(len(cmds)):
            if results[k][0] != 0:
                failed.append(f"{what[k]}:\n{results[k][1][:3000]}")
        for k, cc, exe in built:
            if results[k][0] == 0:
                rc, log = run([exe])
                if rc != 0:
                    failed.append(f"{cc}: self-tests fail:\n{log[-3000:]}")
    located = re.compile(r"^(\S+?\.yaml):(\d+):(\d+): error\[PMR\d{3}\]: \S")
    hit = set()
    for ln in mlog.splitlines():
        m = located.match(ln)
        if not m:
            failed.append(f"mutants: an error line that is not located: {ln[:300]}")
            break
        hit.add(os.path.basename(m.group(1))[:-5])
    if mrc != 1:
        failed.append(f"mutants: exit status {mrc}, expected 1")
    if os.path.exists(mout) and os.listdir(mout):
        failed.append("mutants: files were written")
    for m, what in made:
        if m not in hit:
            failed.append(f"mutant {m} ({what}) was accepted or gave no located error")
    if failed:
        for f in failed[:20]:
            print("FAIL", f)
        print(f"random_specs.py: {len(failed)} failure(s); reproduce with --seed {seed} --keep DIR (files in {d})")
        return 1
    print(f"random_specs.py: {len(names)} random specs compiled in {len(MODES)} modes and self-tested (every third"
          f" one with gcc, the rest with clang); {len(made)} mutants refused with located errors (seed {seed})")
    if not a.keep:
        shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
