# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""From a validated Family to header text: names, values and C snippets for the templates.

The symbol table lives here: every name the header will define is registered
once, and two constructs that would emit the same name are a spec error.
"""

import functools
import hashlib
import os
import re

import jinja2

from . import VERSION
from .cnames import Names, small_stype, small_utype, utype
from .diag import Diag
from .model import ACCESS, SET_RE, mask_of, set_ctype

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


def c_string(s):
    """A C string literal; non-ASCII and control characters are escaped."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            for b in ch.encode("utf-8"):
                out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def comment_text(s):
    """Text made safe inside a /* */ comment."""
    return s.replace("*/", "* /").replace("/*", "/ *")


def hexw(value, width):
    return f"0x{value:0{max(1, width // 4)}x}"


def ulit(value, width):
    """An unsigned constant of a register's width, in the style used for masks."""
    return f"PMREGS_U{max(width, 32) if width > 16 else width}({hexw(value, width)})"


class Symbols:
    def __init__(self, diag):
        self.diag = diag
        self.seen = {}

    def add(self, name, node, what):
        prev = self.seen.get(name)
        if prev is not None and prev[0] is not node:
            pn, pwhat = prev
            self.diag.error(node, "PMR023", f"{what} would define C symbol '{name}', already defined by"
                            f" {pwhat} (line {pn.line})")
            return name
        self.seen[name] = (node, what)
        return name


def wrap(text, width=96, indent=" * "):
    """Word-wrap doc text for a comment block."""
    lines = []
    for para in comment_text(text).strip().split("\n"):
        words, cur = para.split(), ""
        for w in words:
            if cur and len(cur) + 1 + len(w) > width - len(indent):
                lines.append(cur)
                cur = w
            else:
                cur = f"{cur} {w}" if cur else w
        lines.append(cur)
    return lines


class HeaderView:
    """Everything the family template renders, computed once."""

    def __init__(self, fam, spec_path, spec_bytes):
        self.fam = fam
        self.n = Names(fam)
        self.diag = Diag()
        self.sym = Symbols(self.diag)
        self.spec_path = spec_path
        self.sha256 = hashlib.sha256(spec_bytes).hexdigest()
        self.version = VERSION
        self.guard = f"PMREGS_{fam.name.upper()}_H"
        self.tools_guard = f"PMREGS_{fam.name.upper()}_TOOLS_H"
        self.prefix = self.n.p
        self.layouts = [self.layout_view(L, i) for i, L in enumerate(fam.layouts)]
        self.layout_index = {L.name: i for i, L in enumerate(fam.layouts)}
        self.constants = [self.constant_view(c) for c in fam.constants]
        self.enums = [self.enum_view(e) for e in fam.enums]
        self.facts = self.facts_view()
        self.registers = self.registers_view()
        self.records = [self.record_view(r) for r in fam.records]
        self.tables = [self.table_view(t) for t in fam.tables]
        from .constructs.matcher import views as matcher_views
        self.matchers, self.range_covers = matcher_views(self)
        self.functions = [self.function_view(f) for f in fam.functions]
        from .constructs.encoder import view as encoder_view
        self.encoders = [encoder_view(self, E) for E in fam.encoders]
        from .constructs.packets import view as packets_view
        self.packets_view = packets_view(self)
        from .constructs.passes import passes_view
        self.passes = [passes_view(self, P) for P in fam.passes]
        from .constructs.introspect import view as introspect_view
        self.introspect = introspect_view(self)
        self.diag.check()

    # -- layouts -------------------------------------------------------------------------
    def layout_view(self, L, index):
        n, W = self.n, L.width
        T = utype(W)
        node = L.node
        S = lambda name, what: self.sym.add(name, node, what)   # noqa: E731
        v = {
            "L": L, "index": index, "name": L.name, "T": T, "W": W,
            "title": L.title or L.name, "doc": wrap(L.doc) if L.doc else [], "source": L.source,
            "u": lambda x: ulit(x, W),
            "fields": [], "groups": [], "user_fields": [],
            "reset": S(n.layout_macro(L, "reset"), f"layout '{L.name}'"),
            "rsvd": S(n.layout_macro(L, "rsvd_mask"), f"layout '{L.name}'"),
            "res1": S(n.layout_macro(L, "res1_mask"), f"layout '{L.name}'"),
            "writable": S(n.layout_macro(L, "writable_mask"), f"layout '{L.name}'"),
            "reset_v": L.reset, "rsvd_v": L.rsvd_mask, "res1_v": L.res1_mask, "writable_v": L.writable_mask,
            "struct": n.fields_struct(L),
            "pack": S(n.layout_fn(L, "pack"), f"layout '{L.name}'"),
            "pack_checked": S(n.layout_fn(L, "pack_checked"), f"layout '{L.name}'"),
            "unpack": S(n.layout_fn(L, "unpack"), f"layout '{L.name}'"),
            "valid": S(n.layout_fn(L, "valid"), f"layout '{L.name}'"),
            "snprint": S(n.layout_fn(L, "snprint"), f"layout '{L.name}'"),
            "desc": S(n.layout_fn(L, "desc"), f"layout '{L.name}'"),
            "variant_fn": None, "variants": [],
            "variant_field": L.fields.index(L.variants.discriminator) if L.variants is not None else -1,
            "variant_of": self.fam.layouts.index(L.variant_of[0]) if L.variant_of else -1,
        }
        S(n.fn(L.name, "fields"), f"layout '{L.name}'")
        v["rows"] = self.layout_rows(L)
        for F in L.fields:
            v["fields"].append(self.field_view(L, F))
        v["user_fields"] = [f for f in v["fields"] if not f["F"].is_reserved]
        for gname, fs in L.groups:
            g = self.group_view(L, gname, fs)
            if g:
                v["groups"].append(g)
        macros = []
        for f in v["fields"]:
            if f["shift_macro"]:
                macros.append((f["shift_macro"], f["shift"]))
            macros += [(f["width_macro"], f["width"]), (f["mask_macro"], f["mask"])]
            macros += [(vm, vv, vd) for vm, vv, vd in f["values"]]
        for g in v["groups"]:
            macros += [(g["count_macro"], g["count"]), (g["shift_macro"] + "(i)", g["shift_expr"]),
                       (g["mask_macro"] + "(i)", f"({g['fmask']} << {g['shift_macro']}(i))")]
        macros += [(v["reset"], ulit(L.reset, W)), (v["rsvd"], ulit(L.rsvd_mask, W)),
                   (v["res1"], ulit(L.res1_mask, W)), (v["writable"], ulit(L.writable_mask, W))]
        v["macros"] = macros
        v["reserved_mask"] = sum(f.mask for f in L.fields if f.is_reserved)
        v["builders"] = [(f["builder"] + "(x)", f["builder_expr"]) for f in v["user_fields"]]
        if L.variants is not None:
            D = L.variants.discriminator
            v["variant_fn"] = S(n.layout_fn(L, "variant"), f"layout '{L.name}'")
            v["variant_get"] = n.accessor(L, D, "get")
            for cname, when, sub in L.variants.cases:
                v["variants"].append({
                    "name": cname, "when": when, "layout": sub.name,
                    "macro": S(n.layout_macro(L, "variant_" + cname), f"variant '{cname}'"),
                })
        return v

    def layout_rows(self, L):
        """The bit table in the layout's doc comment: highest bits first."""
        rows = []
        for F in sorted(L.fields, key=lambda f: -max(hi for hi, _ in f.parts)):
            lsb = ", ".join(f"{hi}" if hi == lo else f"{hi}:{lo}" for hi, lo in F.parts)
            bits = f"{F.spec_bits} (lsb0 {lsb})" if L.msb0 else lsb
            doc = F.doc.split("\n")[0] if F.doc else ""
            rows.append((bits, F.name, F.access, comment_text(doc)))
        w0 = max(len(r[0]) for r in rows)
        w1 = max(len(r[1]) for r in rows)
        return [f"{b:>{w0}}  {nm:<{w1}}  {acc:<7}  {d}".rstrip() for b, nm, acc, d in rows]

    def field_view(self, L, F):
        n, W = self.n, L.width
        T = utype(W)
        node = F.node
        what = f"field '{L.name}.{F.name}'"
        S = lambda name: self.sym.add(name, node, what)   # noqa: E731
        fw = F.width
        fmax = mask_of(fw)
        f = {
            "F": F, "name": F.name, "width": fw, "access": F.access,
            "access_enum": "PMREGS_ACCESS_" + F.access.upper(),
            "mask_macro": S(n.field_macro(L, F, "mask")),
            "width_macro": S(n.field_macro(L, F, "width")),
            "mask": ulit(F.mask, W), "mask_v": F.mask,
            "shift_macro": S(n.field_macro(L, F, "shift")) if F.contiguous else None,
            "shift": F.shift,
            "builder": None if F.is_reserved else S(n.field_macro(L, F)),
            "fget": None if F.is_reserved else S(n.accessor(L, F, "get")),
            "fset": None if F.is_reserved else S(n.accessor(L, F, "set")),
            "set_checked": None if F.is_reserved else S(n.accessor(L, F, "set_checked")),
            "doc": comment_text(F.doc.split("\n")[0]) if F.doc else "",
            "bits": self.bits_text(L, F),
            "values": [(S(n.field_value(L, F, vn)), vv, vd) for vn, vv, vd in F.values],
            "value_names": [(vn, vv, vd) for vn, vv, vd in F.values],
            "signed": F.signed,
            "member_t": small_stype(fw) if F.signed else small_utype(fw),
            "XT": "int64_t" if F.signed else T,
            "max": fmax,
            "full": fw == W and not F.signed,
            "lo": [lo for lo, _, _ in F.part_shifts()],
            "pw": [w for _, w, _ in F.part_shifts()],
        }
        f["get_expr"], f["set_expr"] = self.access_exprs(L, F)
        if F.signed:
            f["min_s"] = -(1 << (fw - 1))
            f["max_s"] = (1 << (fw - 1)) - 1
        f["builder_expr"] = self.builder_expr(L, F)
        # A plain field (one contiguous part, unsigned) gets macro accessors and a pack/unpack term
        # without calls; a split or signed field keeps its functions.
        f["plain"] = not F.is_reserved and F.contiguous and not F.signed
        if f["plain"]:
            g, s = self.access_exprs(L, F, f"pmregs_u{W}(v)", f"pmregs_u{W}(x)")
            f["acc_macros"] = [(f["fget"] + "(v)", parenthesized(g)), (f["fset"] + "(v, x)", parenthesized(s)),
                               (f["set_checked"] + "(v, x)",
                                f"pmregs_set_checked{W}((v), {F.shift}, {ulit(fmax, W)}, (x))")]
            m = f"{fmax:#x}u" if fmax <= 0xFFFFFFFF else ulit(fmax, W)
            shl = f" << {F.shift}" if F.shift else ""
            f["pack_term"] = f"({T})(({T})f->{F.name} & {m}){shl}" if fw < W else f"({T})f->{F.name}"
            f["unpack_term"] = (f"((v >> {F.shift}) & {m})" if F.shift else f"(v & {m})") if fw < W else "v"
        return f

    def bits_text(self, L, F):
        lsb = ", ".join(f"{hi}" if hi == lo else f"{hi}:{lo}" for hi, lo in F.parts)
        return f"bits {F.spec_bits} (msb0) = {lsb} (lsb0)" if L.msb0 else f"bits {lsb}"

    def access_exprs(self, L, F, v="v", x="x"):
        """C expressions for get(v) and set(v, x), each argument written once."""
        W = L.width
        u = lambda c: ulit(c, W)   # noqa: E731
        parts = F.part_shifts()
        gets = []
        for lo, w, off in parts:
            e = f"({v} >> {lo})" if lo else v
            if w < W:
                e = f"({e} & {u(mask_of(w))})"
            if off:
                e = f"({e} << {off})"
            gets.append(e)
        get = " | ".join(gets)
        if W < 32:
            get = f"({utype(W)})({get})"
        if F.signed:
            get = f"pmregs_sext((uint64_t)({get}), {F.width})"
        xs = f"(uint64_t){x}" if F.signed else x
        if F.signed and W < 64:
            xs = f"({utype(W)})(uint64_t){x}"
        if F.width == W and F.contiguous:
            # The field is the whole register: the new value is x itself.
            return get, f"((void){v}, ({utype(W)}){x})"
        sets = []
        for lo, w, off in parts:
            e = f"({xs} >> {off})" if off else xs
            # mask, then shift, as a hand-written setter does
            e = f"({e} & {u(mask_of(w))})" if w < W else e
            sets.append(f"({e} << {lo})" if lo else e)
        mask = self.n.field_macro(L, F, "mask")
        keep = f"({v} & ({utype(W)})~{mask})" if W < 32 else f"({v} & ~{mask})"
        setx = f"{keep} | " + " | ".join(sets)
        if W < 32:
            setx = f"({utype(W)})({setx})"
        return get, setx

    def builder_expr(self, L, F):
        W = L.width
        mac = f"PMREGS_FIELD{W}"
        if F.contiguous:
            return f"{mac}((x), {F.shift}, {F.width})"
        # A split field: place each part; the whole value is checked against the total width.
        parts = []
        for lo, w, off in F.part_shifts():
            parts.append(f"((PMREGS_FITS((x), {F.width}) >> {off} & {hexw(mask_of(w), 4)}u) << {lo})")
        return f"((uint{W}_t)({' | '.join(parts)}))"

    def group_view(self, L, gname, fs):
        """An indexed accessor for a regular repeat group (en0..en3 -> en_get(v, i))."""
        first = fs[0]
        if not all(f.contiguous and f.width == first.width and f.signed == first.signed for f in fs):
            return None
        if [f.index for f in fs] != list(range(len(fs))):
            return None
        step = (fs[1].shift - fs[0].shift) if len(fs) > 1 else 0
        if any(f.shift != first.shift + step * i for i, f in enumerate(fs)):
            return None
        n, W = self.n, L.width
        node = first.node
        what = f"repeat group '{L.name}.{gname}'"
        S = lambda name: self.sym.add(name, node, what)   # noqa: E731
        sh = f"({first.shift} + {step} * (i))" if step >= 0 else f"({first.shift} - {-step} * (i))"
        return {
            "name": gname, "count": len(fs), "width": first.width, "step": step,
            "count_macro": S(n.mac(L.name, gname, "count")),
            "shift_macro": S(n.mac(L.name, gname, "shift")),
            "mask_macro": S(n.mac(L.name, gname, "mask")),
            "shift_expr": sh,
            "gget": S(n.fn(L.name, gname, "get")),
            "gset": S(n.fn(L.name, gname, "set")),
            "fmask": ulit(mask_of(first.width), W),
        }

    # -- constants, enums ------------------------------------------------------------------
    def constant_view(self, c):
        name, value, doc, node = c
        mac = self.sym.add(self.n.mac(name), node, f"constant '{name}'")
        lit = f"{value:#x}" if value <= 0x7FFFFFFF else f"PMREGS_U64({value:#x})"
        return {"macro": mac, "value": lit, "doc": comment_text(doc), "define": (mac, lit, doc)}

    def enum_view(self, E):
        tag = self.sym.add(self.n.fn(E.name), E.node, f"enum '{E.name}'")
        return {"tag": tag, "doc": wrap(E.doc) if E.doc else [],
                "values": [(self.sym.add(self.n.enum_value(E, vn), E.node, f"enum '{E.name}'"), vv,
                            comment_text(vd)) for vn, vv, vd in E.values]}

    # -- registers -----------------------------------------------------------------------------
    def facts_view(self):
        out = []
        for i, F in enumerate(self.fam.facts):
            t = F.type
            lm = re.match(r"^(u\d+)\[(\d+)\]$", t)
            if t == "str":
                decl, kind = "const char *", "str"
            elif t == "bool":
                decl, kind = "uint8_t ", "bool"
            elif lm:
                decl, kind = f"uint{lm.group(1)[1:]}_t ", "list"
            elif SET_RE.match(t):
                decl, kind = set_ctype(self.fam, t) + " ", "set"
            else:
                decl, kind = f"uint{t[1:]}_t ", "int"
            out.append({"F": F, "name": F.name, "decl": decl, "kind": kind, "bit": i,
                        "len": int(lm.group(2)) if lm else 0, "doc": comment_text(F.doc),
                        "has_macro": self.sym.add(self.n.mac("has", F.name), F.node, f"fact '{F.name}'")})
        return out

    def registers_view(self):
        regs, arrays = [], {}
        for R in self.fam.registers:
            rv = {"R": R, "name": R.name, "title": R.title or R.name.upper(),
                  "layout_index": self.fam.layouts.index(R.layout) if R.layout else -1,
                  "layout": R.layout.name if R.layout else None,
                  "doc": comment_text(R.doc.split("\n")[0]) if R.doc else "",
                  "addresses": [], "values": [], "has": 0,
                  "reset_macro": None}
            for fv in self.facts:
                F = fv["F"]
                has = F.name in R.facts
                val = R.facts.get(F.name, F.default)
                if has:
                    rv["has"] |= 1 << fv["bit"]
                rv["values"].append(self.fact_literal(fv, val))
                if has and F.address:
                    mac = self.sym.add(self.n.address(F, R), R.node, f"register '{R.name}'")
                    rv["addresses"].append((mac, f"{val:#x}"))
                    if R.array:
                        tmpl, idx = R.array
                        key = (F.name, tmpl)
                        if key not in arrays:
                            fmac = self.sym.add(self.n.address_fn(F, tmpl) + "(n)", R.node,
                                                f"register array '{tmpl}'")
                            arrays[key] = {"macro": fmac, "base": val, "stride": None, "count": 0,
                                           "fact": F.name}
                        a = arrays[key]
                        if idx == 1:
                            a["stride"] = val - a["base"]
                        a["count"] = idx + 1
            if R.reset is not None:
                rv["reset_macro"] = self.sym.add(self.n.mac(R.name, "reset"), R.node, f"register '{R.name}'")
                rv["reset"] = ulit(R.reset, R.layout.width)
            regs.append(rv)
        self.register_arrays = list(arrays.values())
        for a in self.register_arrays:
            a["stride"] = a["stride"] or 1
        self.sym.add(self.n.fn("registers"), None, "the register table")
        return regs

    def fact_literal(self, fv, val):
        kind = fv["kind"]
        if kind == "str":
            return c_string(val or "")
        if kind == "bool":
            return "1" if val else "0"
        if kind == "list":
            vals = list(val or [])
            items = [f"{x:#x}" for x in vals] + ["0"] * (fv["len"] - len(vals))
            return "{" + ", ".join(items) + "}, " + str(len(vals))
        if kind == "set":
            return f"{(val or 0):#x}u"
        return f"{(val or 0):#x}"

    # -- records ----------------------------------------------------------------------------------
    def record_view(self, R):
        n = self.n
        S = lambda name, node, what: self.sym.add(name, node, what)   # noqa: E731
        rv = {"R": R, "name": R.name, "title": R.title or R.name, "doc": wrap(R.doc) if R.doc else [],
              "source": R.source, "size": R.size,
              "size_macro": S(n.record_macro(R, "size"), R.node, f"record '{R.name}'"),
              "struct": f"struct {n.record_fn(R)}",
              "pack": S(n.record_fn(R, "pack"), R.node, f"record '{R.name}'"),
              "unpack": S(n.record_fn(R, "unpack"), R.node, f"record '{R.name}'"),
              "fields": []}
        S(n.record_fn(R), R.node, f"record '{R.name}'")
        end = "le" if R.byte_order == "little" else "be"
        rv["macros"] = [(rv["size_macro"], R.size)]
        for F in sorted(R.fields, key=lambda f: f.offset):
            what = f"record field '{R.name}.{F.name}'"
            bits = F.size * 8
            rv["fields"].append({
                "name": F.name, "offset": F.offset, "size": F.size, "T": utype(bits),
                "reserved": F.access in ("rsvd", "ignored", "res1"),
                "access": F.access, "doc": comment_text(F.doc),
                "layout": F.layout.name if F.layout else None,
                "off_macro": S(n.record_macro(R, F.name, "offset"), F.node, what),
                "size_macro": S(n.record_macro(R, F.name, "size"), F.node, what),
                "load": S(n.record_fn(R, F.name, "load"), F.node, what),
                "store": S(n.record_fn(R, F.name, "store"), F.node, what),
                "ld": f"pmregs_load_{end}{bits}", "st": f"pmregs_store_{end}{bits}",
            })
            fv = rv["fields"][-1]
            fv["acc_macros"] = [(fv["load"] + "(rec)", f"{fv['ld']}(pmregs_crec(rec) + {F.offset})"),
                                (fv["store"] + "(rec, x)", f"{fv['st']}(pmregs_rec(rec) + {F.offset}, (x))")]
            rv["macros"] += [(fv["off_macro"], F.offset), (fv["size_macro"], F.size)]
        return rv

    # -- tables -------------------------------------------------------------------------------------
    def table_view(self, T):
        n = self.n
        S = lambda name, node, what: self.sym.add(name, node, what)   # noqa: E731
        cols = []
        for C in T.columns:
            lm = re.match(r"^(u\d+)\[(\d+)\]$", C.type)
            if C.type == "str":
                decl, kind = "const char *", "str"
            elif C.type == "enum":
                decl, kind = n.enum_type(C.enum) + " ", "enum"
            elif C.type == "bool":
                decl, kind = "uint8_t ", "bool"
            elif lm:
                decl, kind = f"uint{lm.group(1)[1:]}_t ", "list"
            elif SET_RE.match(C.type):
                decl, kind = set_ctype(self.fam, C.type) + " ", "set"
            elif C.type == "bits":              # named bits (refs.py): mask + descriptors
                decl, kind = "uint64_t ", "bits"
            else:
                decl, kind = f"uint{C.type[1:]}_t ", "int"
            cols.append({"C": C, "name": C.name, "decl": decl, "kind": kind,
                         "len": int(lm.group(2)) if lm else 0, "doc": comment_text(C.doc)})
            if kind == "bits":
                cols[-1]["find"] = S(n.table_fn(T, C.name, "find"), C.node, f"column '{C.name}'")
                cols[-1]["snprint"] = S(n.table_fn(T, C.name, "snprint"), C.node, f"column '{C.name}'")
        tv = {"T": T, "name": T.name, "title": T.title or T.name, "doc": wrap(T.doc) if T.doc else [],
              "source": T.source, "cols": cols, "rows": [],
              "struct": f"struct {n.table_fn(T, 'row')}",
              "fn": S(n.table_fn(T), T.node, f"table '{T.name}'"),
              "find": S(n.table_fn(T, "find"), T.node, f"table '{T.name}'"),
              "count_macro": S(n.table_macro(T, "count"), T.node, f"table '{T.name}'")}
        S(n.table_fn(T, "row"), T.node, f"table '{T.name}'")
        tv["macros"] = [(tv["count_macro"], len(T.rows))]
        for i, (rn, title, doc, vals, node) in enumerate(T.rows):
            what = f"row '{rn}' of table '{T.name}'"
            row = {"name": rn, "index": i, "title": c_string(title), "doc": c_string(doc),
                   "macro": S(n.table_macro(T, rn), node, what), "cells": [], "consts": [], "bitarrays": []}
            for ci, c in enumerate(cols):
                val = vals.get(c["C"].name)
                if c["kind"] == "bits":
                    var = f"b_{ci}_{i}"
                    items = [(bn, bd, bb) for bn, bb, bd in val.bits]
                    row["cells"].append(f"{val.mask:#x}, {var if items else 0}, {len(items)}")
                    if items:
                        row["bitarrays"].append({"var": var, "items": items})
                    row["consts"] += [(S(n.table_macro(T, rn, c["name"], bn), node, what), f"{1 << bb:#x}")
                                      for bn, _, bb in items]
                    continue
                if c["kind"] == "enum":
                    ename = next(vn for vn, vv, _ in c["C"].enum.values if vv == val)
                    row["cells"].append(n.enum_value(c["C"].enum, ename))
                else:
                    row["cells"].append(self.fact_literal(c, val))
                if c["kind"] == "int":
                    row["consts"].append((S(n.table_macro(T, rn, c["name"]), node, what), f"{val:#x}"))
            tv["rows"].append(row)
            tv["macros"] += [(row["macro"], i)] + row["consts"]
        return tv

    # -- functions ------------------------------------------------------------------------------------
    def function_view(self, F):
        from .expr import type_info
        S = self.sym.add
        name = S(self.n.function(F), F.node, f"function '{F.name}'")
        params = []
        for pn, pt in F.params:
            pkind, ctype, pref = type_info(self.fam, pt)
            used = re.search(r"(?<![A-Za-z0-9_])" + re.escape(pn) + r"(?![A-Za-z0-9_])", F.c_expr or "")
            decl = f"const {ctype} {pn}[{pref}]" if pkind == "array" else f"{ctype} {pn}"
            params.append({"name": pn, "ctype": ctype, "decl": decl, "used": bool(used)})
        _, rtype, _ = type_info(self.fam, F.returns)
        return {"name": name, "params": params, "rtype": rtype, "body": F.c_expr,
                "doc": wrap(F.doc) if F.doc else [], "source": F.source,
                "formula": wrap(F.formula) if F.formula else [],
                "expr": wrap(F.expr_node.text)}


def parenthesized(e):
    """e as one primary expression: wrapped in parentheses unless its outer pair already spans it."""
    depth = 0
    for i, ch in enumerate(e):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and i < len(e) - 1:
            return f"({e})"
    return e if e.startswith("(") else f"({e})"


@functools.lru_cache(maxsize=None)
def make_env():
    """The one Jinja2 environment: each template is compiled once however many files are rendered."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                             autoescape=False)
    env.filters["defines"] = defines
    env.filters["cstr"] = c_string
    env.filters["ctext"] = comment_text
    env.filters["hexw"] = hexw
    return env


def defines(pairs, indent=""):
    """Column-aligned #define lines from (name, value[, comment]) tuples."""
    pairs = [p for p in pairs if p]
    if not pairs:
        return ""
    w = max(len(p[0]) for p in pairs)
    lines = []
    for p in pairs:
        line = f"{indent}#define {p[0]:<{w}} {p[1]}"
        if len(p) > 2 and p[2]:
            line += f" /* {comment_text(p[2])} */"
        lines.append(line.rstrip())
    return "\n".join(lines)


def render_family(fam, spec_path, spec_bytes):
    """The text of FAMILY.h."""
    return render_headers(fam, spec_path, spec_bytes)[f"{fam.name}.h"]


def render_headers(fam, spec_path, spec_bytes):
    """{file name: text}: FAMILY.h, and FAMILY_tools.h with what only tools need (descriptors, printers)."""
    view = HeaderView(fam, spec_path, spec_bytes)
    return {f"{fam.name}{suffix}.h": re.sub(r"\n{3,}", "\n\n", make_env().get_template(t).render(v=view, access=ACCESS))
            for suffix, t in (("", "family.h.j2"), ("_tools", "family_tools.h.j2"))}


def render_selftest(fam, spec_path, spec_bytes):
    view = HeaderView(fam, spec_path, spec_bytes)
    return make_env().get_template("selftest.c.j2").render(v=view)


def render_version():
    major, minor, patch = (int(x) for x in VERSION.split("."))
    return make_env().get_template("version.h.j2").render(
        version=VERSION, major=major, minor=minor, patch=patch, number=major * 10000 + minor * 100 + patch)


def render_umbrella(names):
    """{file name: text}: pmregs.h (every family header) and tools.h (every family with its tools part)."""
    return {out: make_env().get_template(t).render(families=names, version=VERSION)
            for out, t in (("pmregs.h", "umbrella.h.j2"), ("tools.h", "tools.h.j2"))}
