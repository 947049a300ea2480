# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Registers: named instances of a layout with their facts (addresses, numbers, text).

    registers:
      - {name, title, doc, source, layout, reset, count, stride, <fact>: value...}

`count` with '{i}' in the name makes an array; address facts advance by `stride`.
"""

import re

from ..core import MAX_REGISTERS, SET_RE, Register, mask_of, register_address, register_facts, register_reset, \
    set_ctype
from ..ctext import c_string, comment_text, fact_cells, fact_literal, fact_members, hexw, member, packed_struct, ulit
from ..mdtext import md

NAME = "registers"
KEYS = ("registers",)
HEADER, SELFTEST, PAGE = "registers.h.j2", None, "registers.md.j2"
CONTENTS = (("Registers", "registers"),)


def load(b, m):
    b.register_names, b.registers_full = set(), False
    b.section(m, "registers", lambda node: register(b, node), seq=True)


def view(hv):
    hv.facts = facts_view(hv)
    hv.registers = registers_view(hv)


def page(pv):
    pv.registers = [register_page(pv, R) for R in pv.fam.registers]


# -- load ---------------------------------------------------------------------------------------
def register(b, node):
    if b.registers_full:
        return                          # the bound is reported once
    m = b.r.mapping(node, "a register")
    if m is None:
        return
    facts = {f.name: f for f in b.fam.facts}
    if not b.r.keys(m, "a register", required=("name",),
                    optional=("title", "doc", "source", "layout", "reset", "count", "stride")
                    + tuple(facts)):
        return
    raw = b.r.text(m.get("name"), "register name")
    count = b.r.integer(m.get("count"), "count", 1, 256) if m.get("count") is not None else None
    stride = b.r.integer(m.get("stride"), "stride", 1) if m.get("stride") is not None else 1
    if raw is None:
        return
    if (count is None) != ("{i}" not in raw):
        b.r.err(m.get("name"), "PMR020", "a register with 'count' must have '{i}' in its name, and only then")
        return
    L = None
    if m.get("layout") is not None:
        ln = b.r.text(m.get("layout"), "layout")
        L = b.fam.layout(ln)
        if L is None:
            b.r.err(m.get("layout"), "PMR030", f"layout '{ln}' is not defined")
            return
    values = {}
    for fname, fact in facts.items():
        if m.get(fname) is not None:
            v = b.value_of(m.get(fname), fact.type, f"fact '{fname}'", fact.choices)
            if v is None:
                return
            values[fname] = v
    reset = None
    if m.get("reset") is not None:
        if L is None:
            b.r.err(m.get("reset"), "PMR030", "a register without a layout cannot have a reset value")
            return
        reset = b.r.integer(m.get("reset"), "reset", 0, mask_of(L.width))
    for k, v in values.items():
        top = v + (count - 1) * stride if facts[k].address and count else None
        bits = int(facts[k].type[1:]) if facts[k].type in ("u8", "u16", "u32", "u64") else 64
        if top is not None and top > mask_of(bits):
            b.r.err(m.get(k), "PMR014", f"the address of the last of the {count} registers,"
                    f" {v:#x} + {count - 1} * {stride:#x} = {top:#x}, does not fit fact '{k}' ({facts[k].type})")
            return
    if b.registers_full or len(b.fam.registers) + (count or 1) > MAX_REGISTERS:
        if not b.registers_full:                            # once, at the register that crosses the bound
            b.r.err(m.get("name"), "PMR045", f"register '{raw}' would make the family's registers more than"
                    f" {MAX_REGISTERS} (arrays expanded); split the family")
            b.registers_full = True
        return
    for i in range(count or 1):
        name = raw.replace("{i}", str(i)) if count else raw
        if b.r.check_name(m.get("name"), name, "register name") is None:
            return
        if name in b.register_names:
            b.r.err(m.get("name"), "PMR021", f"register '{name}' is already defined")
            return
        R = Register(name, m.get("name"))
        b.common(R, m, "register")
        R.title = R.title.replace("{i}", str(i))
        R.doc = R.doc.replace("{i}", str(i))
        R.layout, R.reset = L, reset
        R.facts = {k: (v + i * stride if facts[k].address and count else
                       v.replace("{i}", str(i)) if isinstance(v, str) and count else v)
                   for k, v in values.items()}
        R.array = (raw, i) if count else None
        b.fam.registers.append(R)
        b.register_names.add(name)


# -- header view ---------------------------------------------------------------------------------
def facts_view(hv):
    out = []
    for i, F in enumerate(hv.fam.facts):
        t = F.type
        lm = re.match(r"^(u\d+)\[(\d+)\]\Z", t, re.ASCII)
        if t == "str":
            decl, kind = "const char *", "str"
        elif t == "bool":
            decl, kind = "uint8_t ", "bool"
        elif lm:
            decl, kind = f"uint{lm.group(1)[1:]}_t ", "list"
        elif SET_RE.match(t):
            decl, kind = set_ctype(hv.fam, t) + " ", "set"
        else:
            decl, kind = f"uint{t[1:]}_t ", "int"
        out.append({"F": F, "name": F.name, "decl": decl, "kind": kind, "bit": i,
                    "len": int(lm.group(2)) if lm else 0, "doc": comment_text(F.doc),
                    "has_macro": hv.sym.add(hv.n.mac("has", F.name), F.node, f"fact '{F.name}'")})
    return out


def registers_view(hv):
    regs, arrays = [], {}
    for R in hv.fam.registers:
        rv = {"R": R, "name": R.name, "title": R.title or R.name.upper(),
              "layout_index": hv.fam.layout_number(R.layout) if R.layout else -1,
              "layout": R.layout.name if R.layout else None,
              "doc": comment_text(R.doc.split("\n")[0]) if R.doc else "",
              "addresses": [], "values": [], "cells": [], "has": 0,
              "reset_macro": None}
        for fv in hv.facts:
            F = fv["F"]
            has = F.name in R.facts
            val = R.facts.get(F.name, F.default)
            if has:
                rv["has"] |= 1 << fv["bit"]
            rv["values"].append(fact_literal(fv, val))
            rv["cells"] += fact_cells(fv, val)
            if has and F.address:
                mac = hv.sym.add(hv.n.address(F, R), R.node, f"register '{R.name}'")
                rv["addresses"].append((mac, f"{val:#x}"))
                if R.array:
                    tmpl, idx = R.array
                    key = (F.name, tmpl)
                    if key not in arrays:
                        fmac = hv.sym.add(hv.n.address_fn(F, tmpl), R.node, f"register array '{tmpl}'") + "(n)"
                        arrays[key] = {"macro": fmac, "base": val, "stride": None, "count": 0,
                                       "fact": F.name}
                    a = arrays[key]
                    if idx == 1:
                        a["stride"] = val - a["base"]
                    a["count"] = idx + 1
        if R.reset is not None:
            rv["reset_macro"] = hv.sym.add(hv.n.mac(R.name, "reset"), R.node, f"register '{R.name}'")
            rv["reset"] = ulit(R.reset, R.layout.width)
        regs.append(rv)
    # the struct: name, title, layout, has, then each fact, reordered with every row for no padding
    members = [member("const char *", "name", "identifier used in this header"),
               member("const char *", "title", "the manual's name"),
               member("int16_t ", "layout", f"index into {hv.prefix}_layouts(), or -1"),
               member("uint16_t ", "has", "which facts this register has (PMREGS_..._HAS_*)")]
    for fv in hv.facts:
        members += fact_members(fv, fv["doc"])
    hv.register_members, cells = packed_struct(members, [
        [c_string(r["name"]), c_string(r["title"]), str(r["layout_index"]), f"{r['has']:#x}"] + r["cells"]
        for r in regs])
    for r, c in zip(regs, cells):
        r["cells"] = c
    hv.register_arrays = list(arrays.values())
    for a in hv.register_arrays:
        a["stride"] = a["stride"] or 1
    hv.sym.add(hv.n.fn("registers"), None, "the register table")
    hv.sym.add(hv.n.fn("register"), None, "the register table's struct")
    return regs


# -- reference page ------------------------------------------------------------------------------
def register_page(pv, R):
    kind, addr = register_address(pv.fam, R)
    L = R.layout
    return {"name": R.name, "title": md(R.title or R.name.upper()), "doc": md(R.doc), "source": md(R.source),
            "address": f"{kind} {addr:#x}" if kind else "",
            "layout": L.name if L else "", "link": pv.layout_links[L.name] if L else "",
            "reset": hexw(register_reset(R), L.width) if L else "",
            "facts": ", ".join(f"{k}={md(t)}" for k, t in register_facts(pv.fam, R, skip=kind))}
