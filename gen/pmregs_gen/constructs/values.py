# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Enums, facts and constants: named values the other sections use.

    enums:      NAME: {values: {name: value}}          -> enum pmregs_<f>_NAME
    facts:      NAME: {type: u64|str|set(E)|...}       -> the typed attributes every register may set
    constants:  NAME: value | {value, doc}              -> PMREGS_<F>_NAME

Enums come first: facts and table columns may be sets of an enum's values.
"""

from ..core import Enum, Fact, mask_of
from ..ctext import comment_text, wrap
from ..mdtext import md, md_par
from ..yamlnode import Map

NAME = "values"
KEYS = ("enums", "facts", "constants")
HEADER, SELFTEST, PAGE = "values.h.j2", None, "values.md.j2"
CONTENTS = (("Constants", "constants"), ("Enums", "enums"))


def load(b, m):
    b.fact_names, b.constant_names = set(), set()
    b.section(m, "enums", lambda k, v: enum(b, k, v))
    b.section(m, "facts", lambda k, v: fact(b, k, v))
    b.section(m, "constants", lambda k, v: constant(b, k, v))


def view(hv):
    hv.constants = [constant_view(hv, c) for c in hv.fam.constants]
    hv.enums = [enum_view(hv, e) for e in hv.fam.enums]


def page(pv):
    fam = pv.fam
    pv.constants = [(n, f"{v:#x}", md(d)) for n, v, d, _ in fam.constants]
    pv.enums = [{"name": E.name, "doc": md_par(E.doc),
                 "values": [(vn, vv, md(vd)) for vn, vv, vd in E.values]} for E in fam.enums]


# -- load ---------------------------------------------------------------------------------------
def enum(b, k, v):
    name = b.top_name(k, k.text, "enum")
    m = b.r.mapping(v, f"enum '{k.text}'")
    if name is None or m is None:
        return
    if not b.r.keys(m, f"enum '{name}'", required=("values",), optional=("doc",)):
        return
    e = Enum(name, k)
    e.doc = b.r.opt_text(m, "doc", "doc")
    e.values = b.named_values(m.get("values"), f"enum '{name}'", 31)
    if not e.values and isinstance(m.get("values"), Map) and not m.get("values").pairs:
        b.r.err(m.get("values"), "PMR003", f"enum '{name}' has no values (C has no empty enum)")
        return
    b.fam.enums.append(e)


def fact(b, k, v):
    name = b.r.check_name(k, k.text, "fact")
    m = b.r.mapping(v, f"fact '{k.text}'")
    if name is None or m is None:
        return
    if not b.r.keys(m, f"fact '{name}'", required=("type",),
                    optional=("doc", "address", "default", "values")):
        return
    t = b.ctype(m.get("type"), allow_str=True, allow_list=True, allow_set=True)
    f = Fact(name, t, k)
    f.doc = b.r.opt_text(m, "doc", "doc")
    if m.get("address") is not None:
        f.address = bool(b.r.boolean(m.get("address"), "address"))
    if m.get("values") is not None:
        f.choices = [b.r.text(x, "value") for x in b.r.seq(m.get("values"), "values") or []]
    if t and m.get("default") is not None:
        f.default = b.value_of(m.get("default"), t, f"default of fact '{name}'", f.choices)
    if name in b.fact_names:
        b.r.err(k, "PMR021", f"fact '{name}' is already defined")
        return
    b.fact_names.add(name)
    b.fam.facts.append(f)


def constant(b, k, v):
    name = b.r.check_name(k, k.text, "constant")
    doc = ""
    if isinstance(v, Map):
        if not b.r.keys(v, f"constant '{k.text}'", required=("value",), optional=("doc",)):
            return
        doc = b.r.opt_text(v, "doc", "doc")
        v = v.get("value")
    val = b.r.integer(v, f"constant '{k.text}'", 0, mask_of(64))
    if name and val is not None:
        if name in b.constant_names:
            b.r.err(k, "PMR021", f"constant '{name}' is already defined")
            return
        b.constant_names.add(name)
        b.fam.constants.append((name, val, doc, k))


# -- header view ---------------------------------------------------------------------------------
def constant_view(hv, c):
    name, value, doc, node = c
    mac = hv.sym.add(hv.n.mac(name), node, f"constant '{name}'")
    lit = f"{value:#x}" if value <= 0x7FFFFFFF else f"PMREGS_U64({value:#x})"
    return {"macro": mac, "value": lit, "doc": comment_text(doc), "define": (mac, lit, doc)}


def enum_view(hv, E):
    tag = hv.sym.add(hv.n.fn(E.name), E.node, f"enum '{E.name}'")
    return {"tag": tag, "doc": wrap(E.doc) if E.doc else [],
            "values": [(hv.sym.add(hv.n.enum_value(E, vn), E.node, f"enum '{E.name}'"), vv,
                        comment_text(vd)) for vn, vv, vd in E.values]}
