# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Samples: records of consecutive register values that hardware or an OS hands a tool.

    samples:
      NAME:
        title, doc, source
        caps: REGISTER              # optional: its 32-bit value leads the record and says what follows
        registers:
          - REGISTER                              # always there
          - {register: R, if: FIELD}              # there only when FIELD (one bit) of the caps value is 1
          - {register: R, with: {FIELD: R2}}      # decoded as R2 when FIELD of the caps value is 1

A perf raw IBS sample is one: a capabilities word, then the IBS registers in a
fixed order, some only on processors that have them. The tools header gets
each sample as a struct pmregs_sample_desc (pmregs_<family>_samples()), so a
tool walks any family's records with pmregs_sample_registers() (base_tools.h).
"""

from ..mdtext import md, md_par
from ..yamlnode import Map

NAME = "samples"
KEYS = ("samples",)
HEADER, SELFTEST, PAGE = "samples.h.j2", None, "samples.md.j2"
CONTENTS = (("Samples", "samples"),)


class Sample:
    def __init__(self, name, node):
        self.name = name
        self.node = node
        self.title = self.doc = self.source = ""
        self.caps = None                    # the Register whose value leads the record, or None
        self.items = []                     # [(Register, if_bit or None, (bit, Register) or None)]


def load(b, m):
    b.section(m, "samples", lambda k, v: sample(b, k, v))
    b.diag.check()


def view(hv):
    regs = hv.fam.registers
    hv.samples_fn = hv.sym.add(f"{hv.n.p}_samples", None, "the sample table") if hv.fam.samples else None
    hv.samples = [{
        "index": i, "name": S.name, "title": S.title or S.name, "doc": S.doc, "source": S.source,
        "caps": regs.index(S.caps) if S.caps else -1,
        "items": [(regs.index(R), -1 if bit is None else bit, -1 if alt is None else alt[0],
                   -1 if alt is None else regs.index(alt[1])) for R, bit, alt in S.items],
    } for i, S in enumerate(hv.fam.samples)]


def page(pv):
    pv.samples = [{
        "name": S.name, "title": md(S.title or S.name), "doc": md_par(S.doc), "source": md(S.source),
        "caps": S.caps.name if S.caps else "",
        "items": [{"register": R.name, "title": md(R.title or R.name),
                   "when": item_text(S, bit, alt)} for R, bit, alt in S.items],
    } for S in pv.fam.samples]


def item_text(S, bit, alt):
    """When an item is there and how it is read, for the page."""
    words = []
    if bit is not None:
        words.append(f"only when {S.caps.name}.{bit_name(S, bit)} = 1")
    if alt is not None:
        words.append(f"read as `{alt[1].name}` when {S.caps.name}.{bit_name(S, alt[0])} = 1")
    return "; ".join(words) or "always"


def bit_name(S, bit):
    for F in S.caps.layout.fields:
        if F.contiguous and F.width == 1 and F.shift == bit:
            return F.name
    return f"bit {bit}"


# -- load ---------------------------------------------------------------------------------------
def sample(b, k, v):
    name = b.top_name(k, k.text, "sample")
    m = b.r.mapping(v, f"sample '{k.text}'")
    if name is None or m is None:
        return
    if not b.r.keys(m, f"sample '{name}'", required=("registers",), optional=("title", "doc", "source", "caps")):
        return
    S = Sample(name, k)
    b.common(S, m, "sample")
    if m.get("caps") is not None:
        S.caps = register(b, m.get("caps"), "caps register")
        if S.caps is None:
            return
        if S.caps.layout is None or S.caps.layout.width != 32:
            b.r.err(m.get("caps"), "PMR031", f"caps register '{S.caps.name}' needs a 32-bit layout")
            return
    for item in b.r.seq(m.get("registers"), "registers") or []:
        if not isinstance(item, Map):
            R = register(b, item, "sample register")
            if R is not None:
                S.items.append((R, None, None))
            continue
        im = b.r.mapping(item, "a sample register")
        if im is None or not b.r.keys(im, "a sample register", required=("register",), optional=("if", "with")):
            continue
        R = register(b, im.get("register"), "sample register")
        bit = caps_bit(b, S, im.get("if")) if im.get("if") is not None else None
        alt = None
        if im.get("with") is not None:
            wm = b.r.mapping(im.get("with"), "with")
            if wm is not None and len(wm.pairs) != 1:
                b.r.err(im.get("with"), "PMR004", "'with' maps exactly one caps field to a register")
            elif wm is not None:
                fk, rv = wm.pairs[0]
                ab, AR = caps_bit(b, S, fk), register(b, rv, "register")
                if ab is not None and AR is not None:
                    alt = (ab, AR)
        if R is not None:
            S.items.append((R, bit, alt))
    b.fam.samples.append(S)


def register(b, node, what):
    t = b.r.text(node, what)
    if t is None:
        return None
    for R in b.fam.registers:
        if R.name == t:
            return R
    return b.r.err(node, "PMR030", f"{what} '{t}' is not a register of this spec")


def caps_bit(b, S, node):
    """The bit of the caps value a one-bit field names."""
    t = b.r.text(node, "caps field")
    if t is None:
        return None
    if S.caps is None:
        return b.r.err(node, "PMR030", f"'{t}' needs a caps register (the sample has no 'caps')")
    F = S.caps.layout.field(t)
    if F is None or not F.contiguous or F.width != 1:
        return b.r.err(node, "PMR030", f"'{t}' is not a one-bit field of {S.caps.layout.name}")
    return F.shift
