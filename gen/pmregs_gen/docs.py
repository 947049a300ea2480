# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Reference pages: doc/<family>.md with a bit diagram (doc/<family>/<layout>.svg) per layout.

Everything a page says comes from the validated model, the same one the
headers come from: registers with their addresses, resets and facts, every
layout with its diagram, field table, named values and variants, records,
tables, functions with the manual's formula beside the spec expression,
matchers, range covers, encoders, parameters, packets and streams.

Pages are Markdown readable on a forge: relative links, headings whose
anchors every forge derives the same way ("### Layout cccr" -> #layout-cccr),
and diagrams as plain SVG files (no scripts, no external fonts or styles).
Output is deterministic; `generate.py --doc --check` is the drift check.

The diagram geometry is shared in spirit with examples/pmregs-decode.c,
whose --svg draws the same picture with a decoded value in it.
"""

import hashlib
import os
import re

from . import VERSION
from .constructs.introspect import fact_text, register_address, register_facts, register_reset
from .model import SET_RE

# Diagram geometry, in pixels (integers, so the SVG text is the same everywhere).
CELL = 22       # one bit
LEFT = 44       # room for the "msb0"/"lsb0" captions
RIGHT = 12
TITLE = 28
NUM = 13        # one line of bit numbers
BOX = 30        # field boxes
GAP = 14
CHARW = 66      # tenths of a pixel per character of 11px monospace

RESERVED = ("rsvd", "ignored", "res1")
ACCESS_TEXT = {
    "rw": "read/write", "ro": "read-only", "wo": "write-only", "w1c": "write 1 to clear",
    "w1s": "write 1 to set", "rsvd": "reserved, write 0", "ignored": "ignored (reads 0)",
    "res1": "reserved, write 1", "other": "defined elsewhere: preserve",
}


def text_w(s):
    return (len(s) * CHARW + 9) // 10


def md(s):
    """Text for a Markdown table cell: one line, pipes and angle brackets escaped."""
    s = " ".join((s or "").split())
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def md_par(s):
    """Doc text as a Markdown paragraph (its line breaks kept as separate lines of one paragraph)."""
    return "\n".join(line.strip() for line in (s or "").strip().split("\n")).replace("<", "&lt;")


def code(s):
    """Inline code that survives a table cell."""
    s = " ".join(str(s).split()).replace("|", "\\|")
    return f"`{s}`" if "`" not in s else f"``{s}``"


def hexw(v, width):
    return f"0x{v:0{max(1, width // 4)}x}"


def bits_lsb(F):
    return ", ".join(f"{hi}" if hi == lo else f"{hi}:{lo}" for hi, lo in F.parts)


def bits_msb0(F, width):
    out = []
    for hi, lo in F.parts:
        a, b = width - 1 - hi, width - 1 - lo
        out.append(f"{a}" if a == b else f"{a}:{b}")
    return ", ".join(out)


# ---- diagrams -----------------------------------------------------------------------------

def diagram(fam, L):
    """The elements of layout L's bit diagram, for diagram.svg.j2."""
    W = L.width
    per_row = min(W, 32)
    rows = W // per_row
    nums = 2 if L.msb0 else 1
    parts = []          # (field name or None, hi, lo, kind)
    covered = 0
    for F in L.fields:
        kind = "reserved" if F.access in RESERVED else "field"
        for hi, lo in F.parts:
            parts.append((F.name, hi, lo, kind))
            covered |= ((1 << (hi - lo + 1)) - 1) << lo
    # bits no field holds: a layout whose variants fill them in
    b = 0
    while b < W:
        if not covered >> b & 1:
            lo = b
            while b + 1 < W and not covered >> (b + 1) & 1:
                b += 1
            parts.append(("(variant)", b, lo, "gap"))
        b += 1
    pieces = []         # (row, name, a, c, kind) clipped to rows
    band = [0] * rows
    for name, hi, lo, kind in parts:
        for row in range(rows):
            rhi = W - 1 - row * per_row
            rlo = rhi + 1 - per_row
            if hi < rlo or lo > rhi:
                continue
            a, c = min(hi, rhi), max(lo, rlo)
            pieces.append((row, name, a, c, kind))
            if text_w(name) + 6 > (a - c + 1) * CELL:
                band[row] = max(band[row], text_w(name) + 8)
    title = f"{L.title or L.name} ({L.name}, {W} bits)"
    # the title is 13px bold: 7.8px a character
    width = max(LEFT + per_row * CELL + RIGHT, LEFT + (len(title) * 78 + 9) // 10 + RIGHT)
    height = TITLE + sum(nums * NUM + BOX + band[r] + GAP for r in range(rows))
    els = []            # ("rect", x, y, w, h, fill, stroke, dash) / ("text", x, y, attrs, text) / ("line", ...)
    y = TITLE
    pieces.sort(key=lambda p: (p[0], -p[2]))
    for row in range(rows):
        rhi = W - 1 - row * per_row
        by = y + nums * NUM
        if L.msb0:
            els.append(("text", 4, y + 10, 'font-size="9" fill="#555555"', "msb0"))
            els.append(("text", 4, y + NUM + 10, 'font-size="9" fill="#555555"', "lsb0"))
        for prow, name, a, c, kind in pieces:
            if prow != row:
                continue
            x0 = LEFT + (rhi - a) * CELL
            w = (a - c + 1) * CELL
            fill = {"field": "#ffffff", "reserved": "#e4e4e4", "gap": "#f7f7f7"}[kind]
            els.append(("rect", x0, by, w, BOX, fill, "#000000" if kind != "gap" else "#888888", kind == "gap"))
            for k in range(nums):
                m = L.msb0 and k == 0
                na, nc = (W - 1 - a, W - 1 - c) if m else (a, c)
                ty = y + k * NUM + 10
                els.append(("text", x0 + CELL // 2, ty, 'font-size="9" text-anchor="middle"', str(na)))
                if a != c:
                    els.append(("text", x0 + w - CELL // 2, ty, 'font-size="9" text-anchor="middle"', str(nc)))
            for bit in range(c + 1, a + 1):
                cx = LEFT + (rhi - bit) * CELL + CELL
                els.append(("line", cx, by + BOX - 5, cx, by + BOX))
            if text_w(name) + 6 <= w:
                els.append(("text", x0 + w // 2, by + 19, 'text-anchor="middle"', name))
            else:
                els.append(("vtext", x0 + w // 2 - 4, by + BOX + 4, "", name))
        y = by + BOX + band[row] + GAP
    return {"width": width, "height": height, "title": title, "left": LEFT, "elements": els,
            "desc": f"Bit layout of {fam.name} {L.name}"}


# ---- the page ---------------------------------------------------------------------------------

def column_text(fam, C, val):
    """A table cell value as the page shows it."""
    if val is None:
        return ""
    ref = getattr(C, "ref", None)
    if ref is not None:
        return fact_text(fam, C, val)
    t = C.type
    if t == "enum":
        return next((vn for vn, vv, _ in C.enum.values if vv == val), str(val))
    if t == "bits":
        return ", ".join(f"{bn}={bb}" for bn, bb, _ in val.bits)
    if t == "str":
        return val
    if t == "bool":
        return "yes" if val else "no"
    if SET_RE.match(t):
        E = fam.enum(SET_RE.match(t).group(1))
        return ", ".join(vn for vn, vv, _ in E.values if val >> vv & 1) or "none"
    if isinstance(val, list):
        return ", ".join(f"{x:#x}" for x in val)
    return f"{val:#x}"


def anchor(kind, name):
    """The anchor forges derive from the heading "### <Kind> <name>"."""
    return re.sub(r"[^a-z0-9_ -]", "", f"{kind} {name}".lower()).replace(" ", "-")


class PageView:
    def __init__(self, fam, spec_path, spec_bytes):
        self.fam = fam
        self.name = fam.name
        self.spec_path = spec_path
        self.sha256 = hashlib.sha256(spec_bytes).hexdigest()
        self.version = VERSION
        self.title = fam.title or fam.name
        self.doc = md_par(fam.doc)
        self.sources = [(k, md(t)) for k, t in fam.sources]
        self.msb0 = fam.msb0
        self.layout_links = {L.name: f"#{anchor('layout', L.name)}" for L in fam.layouts}
        self.registers = [self.register_view(R) for R in fam.registers]
        self.layouts = [self.layout_view(i, L) for i, L in enumerate(fam.layouts)]
        self.records = [self.record_view(R) for R in fam.records]
        self.constants = [(n, f"{v:#x}", md(d)) for n, v, d, _ in fam.constants]
        self.enums = [{"name": E.name, "doc": md_par(E.doc),
                       "values": [(vn, vv, md(vd)) for vn, vv, vd in E.values]} for E in fam.enums]
        self.tables = [self.table_view(T) for T in fam.tables]
        self.functions = [self.function_view(F) for F in fam.functions]
        self.matchers = [self.matcher_view(M) for M in fam.matchers]
        self.range_covers = [{"name": C.name, "title": C.title, "doc": md(C.doc), "source": md(C.source),
                              "matcher": C.matcher.name if C.matcher else "", "pairs": C.pairs,
                              "granule": C.granule, "anchor": anchor("matcher", C.matcher.name) if C.matcher else ""}
                             for C in fam.range_covers]
        self.encoders = [self.encoder_view(E) for E in fam.encoders]
        self.passes = [{"name": P.name, "title": P.title or P.name, "doc": md_par(P.doc), "source": md(P.source),
                        "registers": [R.name for R, _ in P.slots],
                        "counters": [c["name"] for c in P.counters],
                        "table": P.table.name if P.table else ""} for P in fam.passes]
        self.params = [{"name": P.name, "default": P.default, "min": P.min, "max": P.max, "doc": md(P.doc),
                        "source": md(P.source)} for P in getattr(fam, "params", [])]
        self.param_checks = [(e.text, md(doc)) for e, doc in getattr(fam, "param_checks", [])]
        self.widths = [{"name": W.name, "args": W.args, "expr": W.expr.text, "doc": md(W.doc),
                        "source": md(W.source)} for W in getattr(fam, "widths", [])]
        self.packets = [self.packet_view(Pk) for Pk in getattr(fam, "packets", [])]
        self.streams = [{"name": St.name, "doc": md_par(St.doc), "source": md(St.source),
                         "frame": St.frame.name, "payload": St.payload.name,
                         "payload_if": St.payload_if.text, "resync": St.resync.text}
                        for St in getattr(fam, "streams", [])]
        self.contents = [(title, f"#{anchor(title, '').rstrip('-')}") for title, items in (
            ("Registers", self.registers), ("Layouts", self.layouts), ("Records", self.records),
            ("Constants", self.constants), ("Enums", self.enums), ("Tables", self.tables),
            ("Functions", self.functions), ("Matchers", self.matchers), ("Range covers", self.range_covers),
            ("Encoders", self.encoders), ("Passes", self.passes), ("Parameters", self.params),
            ("Packets", self.packets), ("Streams", self.streams)) if items]

    # -- registers ---------------------------------------------------------------------------
    def register_view(self, R):
        kind, addr = register_address(self.fam, R)
        L = R.layout
        return {"name": R.name, "title": md(R.title or R.name.upper()), "doc": md(R.doc), "source": md(R.source),
                "address": f"{kind} {addr:#x}" if kind else "",
                "layout": L.name if L else "", "link": self.layout_links[L.name] if L else "",
                "reset": hexw(register_reset(R), L.width) if L else "",
                "facts": ", ".join(f"{k}={md(t)}" for k, t in register_facts(self.fam, R, skip=kind))}

    # -- layouts -------------------------------------------------------------------------------
    def layout_view(self, index, L):
        W = L.width
        order = sorted(L.fields, key=lambda F: -F.parts[0][0]) if L.msb0 else \
            sorted(L.fields, key=lambda F: F.parts[-1][1])
        fields, values = [], []
        for F in order:
            desc = md(F.doc)
            if F.signed:
                desc = (desc + " " if desc else "") + "(signed)"
            if F.source:
                desc = (desc + " " if desc else "") + f"[{md(F.source)}]"
            reset = (1 << F.width) - 1 if F.access == "res1" else F.reset
            fields.append({"name": F.name, "lsb": bits_lsb(F), "msb0": bits_msb0(F, W) if L.msb0 else "",
                           "access": F.access, "access_text": ACCESS_TEXT[F.access], "reset": reset,
                           "reset_text": str(reset) if F.width <= 3 else f"{reset:#x}", "doc": desc,
                           "width": F.width})
            if F.values:
                values.append({"field": F.name, "values": [(vn, vv, md(vd)) for vn, vv, vd in F.values],
                               "documented": any(vd for _, _, vd in F.values)})
        # bits no field holds: a layout whose variants fill them in
        covered = sum(F.mask for F in L.fields)
        b, gaps = 0, []
        while b < W:
            if not covered >> b & 1:
                lo = b
                while b + 1 < W and not covered >> (b + 1) & 1:
                    b += 1
                gaps.append((b, lo))
            b += 1
        for hi, lo in gaps:
            lsb = f"{hi}" if hi == lo else f"{hi}:{lo}"
            a, c = W - 1 - hi, W - 1 - lo
            row = {"name": "", "lsb": lsb, "msb0": (f"{a}" if a == c else f"{a}:{c}") if L.msb0 else "",
                   "access": "", "reset_text": "", "width": hi - lo + 1,
                   "doc": "defined by each variant (below)", "gap": True}
            key = (lambda r: -int(r["lsb"].split(":")[0].split(",")[0])) if L.msb0 else \
                (lambda r: int(r["lsb"].split(",")[-1].split(":")[-1]))
            fields.append(row)
            fields.sort(key=key)
        regs = [R for R in self.fam.registers if R.layout is L]
        reg_items = []
        for R in regs:
            kind, addr = register_address(self.fam, R)
            item = f"`{R.name}`" + (f" ({kind} {addr:#x})" if kind else "")
            if R.reset is not None and R.reset != L.reset:
                item += f", reset {hexw(R.reset, W)}"
            reg_items.append(item)
        variants = []
        if L.variants is not None:
            D = L.variants.discriminator
            for cname, when, sub in L.variants.cases:
                variants.append({"name": cname, "field": D.name, "when": when, "layout": sub.name,
                                 "link": self.layout_links[sub.name]})
        parent = None
        if L.variant_of:
            P, cname = L.variant_of
            parent = {"layout": P.name, "link": self.layout_links[P.name], "case": cname,
                      "field": P.variants.discriminator.name,
                      "when": next(w for c, w, _ in P.variants.cases if c == cname)}
        base = getattr(L, "base", None)
        return {"index": index, "name": L.name, "title": md(L.title or L.name), "doc": md_par(L.doc),
                "source": md(L.source), "width": W, "msb0": L.msb0, "svg": f"{self.name}/{L.name}.svg",
                "reset": hexw(L.reset, W), "rsvd": hexw(L.rsvd_mask, W), "res1": hexw(L.res1_mask, W),
                "writable": hexw(L.writable_mask, W), "fields": fields, "values": values,
                "registers": reg_items, "variants": variants, "parent": parent,
                "base": base.name if base is not None and hasattr(base, "name") else None,
                "diagram": diagram(self.fam, L)}

    # -- records ---------------------------------------------------------------------------------
    def record_view(self, R):
        return {"name": R.name, "title": md(R.title or R.name), "doc": md_par(R.doc), "source": md(R.source),
                "size": R.size, "byte_order": R.byte_order,
                "fields": [{"name": F.name, "offset": F.offset, "size": F.size, "access": F.access,
                            "layout": F.layout.name if F.layout else "",
                            "link": self.layout_links[F.layout.name] if F.layout else "", "doc": md(F.doc)}
                           for F in sorted(R.fields, key=lambda f: f.offset)]}

    # -- tables ------------------------------------------------------------------------------------
    def table_view(self, T):
        cols = [{"name": C.name, "doc": md(C.doc)} for C in T.columns]
        rows = []
        for rn, title, doc, vals, _ in T.rows:
            cells = [md(column_text(self.fam, C, vals.get(C.name, C.default))) for C in T.columns]
            rows.append({"name": rn, "title": md(title), "doc": md(doc), "cells": cells})
        return {"name": T.name, "title": md(T.title or T.name), "doc": md_par(T.doc), "source": md(T.source),
                "cols": cols, "rows": rows, "has_title": any(r["title"] for r in rows),
                "has_doc": any(r["doc"] for r in rows)}

    # -- functions, matchers, encoders ----------------------------------------------------------------
    def function_view(self, F):
        from .expr import type_info
        params = []
        for pn, pt in F.params:
            pkind, ctype, pref = type_info(self.fam, pt)
            params.append(f"const {ctype} {pn}[{pref}]" if pkind == "array" else f"{ctype} {pn}")
        return {"name": F.name, "cname": f"pmregs_{self.name}_{F.name}", "doc": md_par(F.doc),
                "source": md(F.source), "formula": (F.formula or "").strip(),
                "expr": F.expr_node.text.strip(), "returns": type_info(self.fam, F.returns)[1],
                "params": params}

    def matcher_view(self, M):
        rules = []
        for r in sorted(M.rules, key=lambda r: -r.hi):
            ref = f"{r.hi}" if r.hi == r.lo else f"{r.hi}:{r.lo}"
            src = f"{r.src[0]}" if r.src[0] == r.src[1] else f"{r.src[0]}:{r.src[1]}"
            rules.append({"bits": ref, "from": src, "kind": r.kind})
        return {"name": M.name, "title": md(M.title or M.name), "doc": md_par(M.doc), "source": md(M.source),
                "formula": (M.formula or "").strip(), "width": M.width,
                "params": ", ".join(f"{role} = `{cn}`" for role, cn in M.params), "rules": rules,
                "cname": f"pmregs_{self.name}_{M.name}"}

    def encoder_view(self, E):
        return {"name": E.name, "title": md(E.title or E.name), "doc": md_par(E.doc), "source": md(E.source),
                "table": E.table.name,
                "places": [{"name": P.name, "from": f"{P.src}.{P.column}", "doc": md(P.doc)} for P in E.places],
                "params": [{"name": P.name, "type": P.type if isinstance(P.type, str) else getattr(P.type, "name", ""),
                            "default": P.default, "doc": md(P.doc)} for P in E.params],
                "checks": [{"name": C.name, "fail": getattr(C, "fail_text", ""), "error": C.error,
                            "doc": md(C.doc)} for C in E.checks if getattr(C, "fail_text", "")],
                "outputs": [{"name": O.name, "type": O.type, "expr": getattr(O, "expr_text", ""), "doc": md(O.doc),
                             "link": self.layout_links.get(O.type, "")} for O in E.outputs]}

    # -- packets ------------------------------------------------------------------------------------------
    def packet_view(self, Pk):
        from .constructs.packets import set_text
        shapes = []
        for Sh in Pk.shapes:
            rows = []
            for F in Sh.fields:
                notes = []
                if F.differential:
                    notes.append("asserted when it differs from the bit before it")
                if F.reported_if is not None:
                    notes.append(f"meaningful when `{F.reported_if.text}`")
                if F.implied is not None:
                    notes.append(f"`{F.implied.text}` when 0 bits wide")
                if F.value is not None:
                    notes.append(f"computed: `{F.value.text}`")
                if F.rest:
                    notes.append("the rest of the packet")
                doc = md(F.doc)
                rows.append({"name": F.name, "width": F.width.text if F.width is not None else "rest",
                             "is": set_text(F.is_set) if F.is_set else "", "notes": "; ".join(notes),
                             "doc": doc})
            shapes.append({"name": Sh.name, "doc": md(Sh.doc), "source": md(Sh.source), "fields": rows})
        values = []
        for fname, tab in Pk.values.items():
            if tab:
                values.append({"field": fname, "values": sorted(((vv, vn, md(vd)) for vn, (vv, vd) in tab.items()))})
        size = "sign-based compression (the top run of identical bits is dropped)" if Pk.compression == "sign" \
            else f"`{Pk.size.text}` bytes" if Pk.size is not None else ""
        return {"name": Pk.name, "title": md(Pk.title or Pk.name), "doc": md_par(Pk.doc), "source": md(Pk.source),
                "size": size, "max_bytes": Pk.max_bytes if Pk.compression else getattr(Pk, "max_size", None),
                "shapes": shapes, "values": values,
                "checks": [(e.text, md(doc)) for e, doc in getattr(Pk, "checks", [])]}


def make_env():
    from .emit import make_env as header_env
    env = header_env()
    env.filters["md_code"] = code
    return env


def render_page(fam, spec_path, spec_bytes, env=None):
    """{relative path: text} for the family's page and diagrams."""
    env = env or make_env()
    view = PageView(fam, spec_path, spec_bytes)
    out = {f"{fam.name}.md": re.sub(r"\n{3,}", "\n\n", env.get_template("page.md.j2").render(v=view))}
    svg = env.get_template("diagram.svg.j2")
    for L in view.layouts:
        out[L["svg"]] = svg.render(d=L["diagram"])
    return out


def render_index(families):
    """doc/README.md: [(name, title)] of every family."""
    return make_env().get_template("doc_index.md.j2").render(families=families, version=VERSION)


def doc_files(out_dir, names):
    """Existing generated files of these families under out_dir (to find stale diagrams)."""
    found = []
    for n in names:
        d = os.path.join(out_dir, n)
        if os.path.isdir(d):
            found += [f"{n}/{f}" for f in sorted(os.listdir(d)) if f.endswith(".svg")]
    return found
