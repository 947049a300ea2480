# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Layouts: the bit fields of a register value.

    layouts:
      NAME: {width, fields: [{name, bits, access, reset, signed, values, doc}], base, drop,
             reset, variants: {discriminator, cases: [{name, when, fields}]}}

Every bit is accounted for; split fields, repeat groups (name{i}), derived
layouts (base/drop) and variants (a discriminator field picks a sub-layout).
Later sections refer to layouts, so loading stops here on any error.
"""

import re

from ..core import ACCESS, BIT_RE, MAX_FIELDS, MAX_PARTS, Field, Layout, Variants, collect_groups, mask_of, \
    register_address, runs_of
from ..capi import name_tables
from ..cnames import small_stype, small_utype, utype
from ..ctext import comment_text, hexw, packed_order, parenthesized, ulit, wrap
from ..diagram import diagram
from ..mdtext import anchor, bits_lsb, bits_msb0, md, md_par
from ..yamlnode import Scalar, Seq

NAME = "layouts"
KEYS = ("layouts",)
HEADER, SELFTEST, PAGE = "layouts.h.j2", "layouts_selftest.c.j2", "layouts.md.j2"
CONTENTS = (("Layouts", "layouts"),)

ACCESS_TEXT = {
    "rw": "read/write", "ro": "read-only", "wo": "write-only", "w1c": "write 1 to clear",
    "w1s": "write 1 to set", "rsvd": "reserved, write 0", "ignored": "ignored (reads 0)",
    "res1": "reserved, write 1", "other": "defined elsewhere: preserve",
}


def load(b, m):
    layouts(b, m.get("layouts"))
    b.diag.check()                      # later sections refer to layouts


def view(hv):
    # descriptors and printers are in FAMILY_tools.h, which includes base_desc.h itself; of the family
    # header, only the bit-name tables and the encoder's printer need it (tables.py, encoder.py)
    hv.layouts = [layout_view(hv, L, i) for i, L in enumerate(hv.fam.layouts)]
    hv.layout_index = {L.name: i for i, L in enumerate(hv.fam.layouts)}


def page(pv):
    pv.layout_links = {L.name: f"#{anchor('layout', L.name)}" for L in pv.fam.layouts}
    pv.layouts = [layout_page(pv, i, L) for i, L in enumerate(pv.fam.layouts)]
    names = layout_names(pv)
    for lp in pv.layouts:
        lp["names"] = names[lp["name"]]


def layout_names(pv):
    """{layout: name table} (capi.name_tables): the C names each layout generates; claims its functions."""
    return name_tables(pv.api.get(NAME), f"pmregs_{pv.fam.name}",
                       [(L.name, [(F.name, [v for v, _, _ in F.values]) for F in L.fields]) for L in pv.fam.layouts],
                       pv.api_claimed)


def page_files(pv, env):
    """The bit diagram of every layout: {path: SVG text}."""
    svg = env.get_template("diagram.svg.j2")
    return {L["svg"]: svg.render(d=L["diagram"]) for L in pv.layouts}


# -- load ---------------------------------------------------------------------------------------
def room(b, n, node, what):
    """Whether n more fields keep the family within MAX_FIELDS; reports the first time they would not."""
    if b.nfields + n <= MAX_FIELDS:
        b.nfields += n
        return True
    if not b.fields_full:
        b.fields_full = True
        b.r.err(node, "PMR045", f"{what} would make the family's layout fields more than {MAX_FIELDS} (derived"
                " layouts and variants included); split the family")
    return False


def layouts(b, node):
    b.nfields, b.fields_full = 0, False
    m = b.r.mapping(node, "layouts") if node is not None else None
    if m is None:
        return
    pending = {}
    for k, v in m.pairs:
        name = b.top_name(k, k.text, "layout")
        lm = b.r.mapping(v, f"layout '{k.text}'")
        if name and lm is not None:
            pending[name] = (k, lm)
    done = {}

    def build(name, chain=()):
        if name in done:
            return done[name]
        k, lm = pending[name]
        base_name = b.r.text(lm.get("base"), "base") if lm.get("base") is not None else None
        base = None
        if base_name is not None:
            if base_name in chain or base_name == name:
                b.r.err(lm.get("base"), "PMR030", f"layout '{name}' derives from itself")
            elif base_name not in pending:
                b.r.err(lm.get("base"), "PMR030", f"base layout '{base_name}' is not defined")
            else:
                base = build(base_name, chain + (name,))
            if base is None:
                done[name] = None
                return None
        done[name] = layout(b, name, k, lm, base)
        return done[name]

    for name in pending:
        if b.fields_full:
            break                        # the bound is reported once; the rest would only repeat it
        build(name)


def layout(b, name, k, m, base):
    what = f"layout '{name}'"
    if not b.r.keys(m, what, optional=("title", "doc", "source", "width", "fields", "base",
                                       "drop", "reset", "variants")):
        return None
    before = len(b.diag.errors)
    L = Layout(name, k)
    b.common(L, m, "layout")
    L.msb0 = b.fam.msb0
    L.width = base.width if base else b.fam.width
    if m.get("width") is not None:
        L.width = b.width(m.get("width")) or L.width
    if base is not None:
        if not room(b, len(base.fields), k, what):
            return None
        L.base = base
        L.title = L.title or base.title
        L.source = L.source or base.source
        L.fields = [f.copy() for f in base.fields]
        L.reset_override = base.reset_override
        for d in b.r.seq(m.get("drop"), "drop") if m.get("drop") is not None else []:
            dn = b.r.text(d, "dropped field")
            if L.field(dn) is None:
                b.r.err(d, "PMR030", f"cannot drop '{dn}': base layout '{base.name}' has no such field")
            L.fields = [f for f in L.fields if f.name != dn]
    elif m.get("drop") is not None:
        b.r.err(m.key_node("drop"), "PMR030", "'drop' needs a 'base' layout")
    if m.get("fields") is None and base is None:
        b.r.err(m, "PMR003", f"{what} lacks required key 'fields'")
        return None
    new = fields(b, m.get("fields"), L) if m.get("fields") is not None else []
    if not room(b, len(new), k, what):
        return None
    parsed = len(b.diag.errors) == before     # a field that failed would show up as a gap
    for f in new:
        old = L.field(f.name)
        if old is not None and base is not None:
            L.fields[L.fields.index(old)] = f
        else:
            L.fields.append(f)
    L.groups = collect_groups(L.fields)
    if m.get("reset") is not None:
        L.reset_override = b.r.integer(m.get("reset"), "reset", 0, mask_of(L.width))
    check_layout(b, L, k, complete=parsed and m.get("variants") is None)
    b.fam.layouts.append(L)
    if m.get("variants") is not None:
        variants(b, L, m.get("variants"))
    return L


def fields(b, node, L, offset=0, group=None):
    out = []
    items = b.r.seq(node, "fields") or []
    if len(items) > L.width:
        b.r.err(node, "PMR045", f"{len(items)} fields in the {L.width}-bit layout '{L.name}'; it has room for at"
                f" most {L.width}")
        return out
    for item in items:
        fm = b.r.mapping(item, "a field")
        if fm is None:
            continue
        if fm.get("repeat") is not None:
            out += repeat(b, fm, L, offset)
            continue
        f = field(b, fm, L, offset, group)
        if f is not None:
            out.append(f)
    return out


def repeat(b, fm, L, offset):
    if not b.r.keys(fm, "a repeat group", required=("repeat", "stride", "fields")):
        return []
    count = b.r.integer(fm.get("repeat"), "repeat count", 1, 64)
    stride = b.r.integer(fm.get("stride"), "stride", 1, 64)
    if count is None or stride is None:
        return []
    each = len(fm.get("fields").items) if isinstance(fm.get("fields"), Seq) else 1
    if count * each > L.width:
        b.r.err(fm.get("repeat"), "PMR045", f"{count} times {each} fields in the {L.width}-bit layout '{L.name}';"
                f" it has room for at most {L.width}")
        return []
    out = []
    for i in range(count):
        before = len(b.diag.errors)
        out += fields(b, fm.get("fields"), L, offset + i * stride, group=i)
        if len(b.diag.errors) > before:
            break                        # the same mistake would repeat for every index
    return out


def field(b, fm, L, offset, index):
    if not b.r.keys(fm, "a field", required=("name", "bits"),
                    optional=("access", "reset", "signed", "values", "doc", "source")):
        return None
    raw = b.r.text(fm.get("name"), "field name")
    if raw is None:
        return None
    gname = None
    if index is not None:
        if "{i}" not in raw:
            return b.r.err(fm.get("name"), "PMR020",
                           f"field '{raw}' in a repeat group must contain '{{i}}'")
        gname = re.sub(r"_+", "_", raw.replace("{i}", "")).strip("_")
        raw = raw.replace("{i}", str(index))
    name = b.r.check_name(fm.get("name"), raw, "field name")
    parts, spec_bits = bits(b, fm.get("bits"), L, offset)
    if name is None or parts is None:
        return None
    access = "rw"
    if fm.get("access") is not None:
        access = b.r.choice(fm.get("access"), "access", ACCESS) or "rw"
    f = Field(name, parts, access, fm.get("name"))
    f.spec_bits = spec_bits
    f.group, f.index = (gname, index) if index is not None else (None, None)
    f.doc = b.r.opt_text(fm, "doc", "doc").replace("{i}", str(index) if index is not None else "{i}")
    f.source = b.r.opt_text(fm, "source", "source")
    if fm.get("signed") is not None:
        f.signed = bool(b.r.boolean(fm.get("signed"), "signed"))
    if fm.get("values") is not None:
        f.values = b.named_values(fm.get("values"), f"field '{name}'", f.width)
    if fm.get("reset") is not None:
        rn = fm.get("reset")
        named = {n: v for n, v, _ in f.values}
        rv = named.get(rn.text) if isinstance(rn, Scalar) and rn.text in named else b.r.integer(rn, "reset")
        if rv is not None and (rv < 0 or rv > mask_of(f.width)):
            b.r.err(rn, "PMR014", f"reset {rv} does not fit the {f.width}-bit field '{name}'")
        elif rv is not None:
            f.reset = rv
    return f


def bits(b, node, L, offset):
    """Parse `bits` (one range or a list of ranges) into lsb0 parts."""
    items = node.items if isinstance(node, Seq) else [node]
    if isinstance(node, Seq) and not items:
        return b.r.err(node, "PMR010", "bits list is empty"), ""
    if len(items) > MAX_PARTS:
        return b.r.err(node, "PMR010", f"a split field has at most {MAX_PARTS} parts"), ""
    parts, texts = [], []
    for it in items:
        t = b.r.text(it, "bits")
        if t is None:
            return None, ""
        mm = BIT_RE.match(t)
        if not mm:
            return b.r.err(it, "PMR010", f"bits '{t}' must look like \"7\" or \"14:8\""), ""
        a = int(mm.group(1))
        z = int(mm.group(2)) if mm.group(2) is not None else a
        if L.msb0:
            if a > z:
                return b.r.err(it, "PMR010", f"msb0 bits '{t}' must be written first:last with first <= last"), ""
            a, z = a + offset, z + offset
            texts.append(f"{a}" if a == z else f"{a}:{z}")
            if z >= L.width:
                return b.r.err(it, "PMR011", f"bit {z} is outside the {L.width}-bit layout '{L.name}'"), ""
            hi, lo = L.width - 1 - a, L.width - 1 - z
        else:
            if a < z:
                return b.r.err(it, "PMR010", f"bits '{t}' must be written hi:lo with hi >= lo"), ""
            hi, lo = a + offset, z + offset
            texts.append(f"{hi}" if hi == lo else f"{hi}:{lo}")
            if hi >= L.width:
                return b.r.err(it, "PMR011", f"bit {hi} is outside the {L.width}-bit layout '{L.name}'"), ""
        for ph, pl in parts:
            if not (hi < pl or lo > ph):
                return b.r.err(it, "PMR015", f"part {t} overlaps another part of the same field"), ""
        parts.append((hi, lo))
    return parts, ", ".join(texts)


def check_layout(b, L, node, complete=True):
    seen = {}
    for f in L.fields:
        if f.name in seen:
            b.r.err(f.node, "PMR021", f"field '{f.name}' is defined twice in layout '{L.name}'"
                    f" (first at line {seen[f.name].node.line})")
        seen[f.name] = f
    owner = [None] * L.width
    for f in L.fields:
        clash = None
        for hi, lo in f.parts:
            for bit in range(lo, hi + 1):
                if owner[bit] is not None and clash is None:
                    clash = (owner[bit], bit)
                owner[bit] = owner[bit] or f
        if clash is not None:
            b.r.err(f.node, "PMR012", f"field '{f.name}' overlaps field '{clash[0].name}'"
                    f" at bit {show_bit(L, clash[1])} of layout '{L.name}'")
    if complete:
        check_gaps(b, L, owner, node)


def check_gaps(b, L, owner, node):
    gaps = [bit for bit in range(L.width) if owner[bit] is None]
    if gaps:
        runs = runs_of(gaps)
        txt = ", ".join(show_range(L, hi, lo) for hi, lo in runs)
        b.r.err(node, "PMR013", f"layout '{L.name}' leaves bits {txt} unaccounted for;"
                " declare them (access: rsvd or ignored)")


def show_bit(L, bit):
    return str(L.width - 1 - bit) + " (msb0)" if L.msb0 else str(bit)


def show_range(L, hi, lo):
    if L.msb0:
        a, z = L.width - 1 - hi, L.width - 1 - lo
        return f"{a}" if a == z else f"{a}:{z} (msb0)"
    return f"{hi}" if hi == lo else f"{hi}:{lo}"


def variants(b, L, node):
    m = b.r.mapping(node, "variants")
    if m is None or not b.r.keys(m, "variants", required=("discriminator", "cases")):
        return
    dn = b.r.text(m.get("discriminator"), "discriminator")
    disc = L.field(dn) if dn else None
    if disc is None:
        b.r.err(m.get("discriminator"), "PMR070", f"discriminator '{dn}' is not a field of layout '{L.name}'")
        return
    cases = []
    whens = {}
    for c in b.r.seq(m.get("cases"), "cases") or []:
        cm = b.r.mapping(c, "a variant case")
        if cm is None or not b.r.keys(cm, "a variant case", required=("name", "when", "fields"),
                                      optional=("title", "doc", "source")):
            continue
        cname = b.r.name(cm.get("name"), "variant name")
        when = when_value(b, cm.get("when"), disc)
        if cname is None or when is None:
            continue
        if when in whens:
            b.r.err(cm.get("when"), "PMR070", f"variant '{cname}' repeats the value {when} of '{dn}'"
                    f" already chosen by '{whens[when]}'")
            continue
        whens[when] = cname
        sub_name = f"{L.name}_{cname}"
        if sub_name in b.names:
            b.r.err(cm.get("name"), "PMR021", f"variant layout '{sub_name}' clashes with a name already defined")
            continue
        b.names[sub_name] = cm.get("name")
        S = Layout(sub_name, cm.get("name"))
        S.msb0, S.width = L.msb0, L.width
        S.title = b.r.opt_text(cm, "title", "title") or f"{L.title or L.name} ({cname} variant)"
        S.doc = b.r.opt_text(cm, "doc", "doc")
        S.source = b.r.opt_text(cm, "source", "source") or L.source
        before = len(b.diag.errors)
        if not room(b, len(L.fields), cm.get("name"), f"variant '{cname}' of layout '{L.name}'"):
            return
        S.fields = [f.copy() for f in L.fields] + fields(b, cm.get("fields"), S)
        S.groups = collect_groups(S.fields)
        S.reset_override = L.reset_override
        S.variant_of = (L, cname)
        check_layout(b, S, cm.get("name"), complete=len(b.diag.errors) == before)
        b.fam.layouts.append(S)
        cases.append((cname, when, S))
    L.variants = Variants(disc, cases, m)


def when_value(b, node, disc):
    s = b.r.scalar(node, "when")
    if s is None:
        return None
    for n, v, _ in disc.values:
        if n == s.text:
            return v
    v = b.r.integer(node, "when")
    if v is not None and v > mask_of(disc.width):
        return b.r.err(node, "PMR014", f"when {v} does not fit the {disc.width}-bit discriminator")
    return v


# -- header view ---------------------------------------------------------------------------------
def layout_view(hv, L, index):
    n, W = hv.n, L.width
    T = utype(W)
    node = L.node
    S = lambda name, what: hv.sym.add(name, node, what)   # noqa: E731
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
        "variant_of": hv.fam.layout_number(L.variant_of[0]) if L.variant_of else -1,
    }
    S(n.fn(L.name, "fields"), f"layout '{L.name}'")
    v["rows"] = layout_rows(hv, L)
    for F in L.fields:
        v["fields"].append(field_view(hv, L, F))
    v["user_fields"] = [f for f in v["fields"] if not f["F"].is_reserved]
    for gname, fs in L.groups:
        g = group_view(hv, L, gname, fs)
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
    # the validity check is a macro: one masked compare of the argument converted as a parameter would be
    # (pmregs_uN()), an int as the function it replaces returned; no body to parse
    care = v["rsvd"] if not L.res1_mask else v["res1"] if not L.rsvd_mask else f"({v['rsvd']} | {v['res1']})"
    arg = f"pmregs_{T[:-2].replace('int', '')}(v)"
    v["valid_macro"] = (v["valid"] + "(v)",
                        f"PMREGS_CAST(int, ({arg} & {care}) == {v['res1'] if L.res1_mask else 0})"
                        if L.rsvd_mask | L.res1_mask else f"(PMREGS_CAST(void, {arg}), 1)")
    v["reserved_mask"] = sum(f.mask for f in L.fields if f.is_reserved)
    v["builders"] = [(f["builder"] + "(x)", f["builder_expr"]) for f in v["user_fields"]]
    # the plain struct: members by decreasing size (no padding between them), then explicit tail padding
    sizes = {"int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4}
    v["struct_members"], v["struct_pad"] = packed_order(
        [(sizes.get(f["member_t"], 8), sizes.get(f["member_t"], 8), f) for f in v["user_fields"]])
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


def layout_rows(hv, L):
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


def field_view(hv, L, F):
    n, W = hv.n, L.width
    T = utype(W)
    node = F.node
    what = f"field '{L.name}.{F.name}'"
    S = lambda name: hv.sym.add(name, node, what)   # noqa: E731
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
        "bits": bits_text(hv, L, F),
        "values": [(hv.sym.add(n.field_value(L, F, vn), node, f"named value '{vn}' of {what}"), vv, vd)
                   for vn, vv, vd in F.values],
        "value_names": [(vn, vv, vd) for vn, vv, vd in F.values],
        "signed": F.signed,
        "member_t": small_stype(fw) if F.signed else small_utype(fw),
        "XT": "int64_t" if F.signed else T,
        "max": fmax,
        "full": fw == W and not F.signed,
        "lo": [lo for lo, _, _ in F.part_shifts()],
        "pw": [w for _, w, _ in F.part_shifts()],
    }
    f["get_expr"], f["set_expr"] = access_exprs(hv, L, F)
    if F.signed:
        # as int64_t constants: a plain -9223372036854775808 is an unsigned literal to some compilers
        f["min_s"] = "INT64_MIN" if fw == 64 else f"INT64_C({-(1 << (fw - 1))})"
        f["max_s"] = "INT64_MAX" if fw == 64 else f"INT64_C({(1 << (fw - 1)) - 1})"
    f["builder_expr"] = builder_expr(hv, L, F)
    # A plain field (one contiguous part, unsigned) gets macro accessors and a pack/unpack term
    # without calls; a split or signed field keeps its functions.
    f["plain"] = not F.is_reserved and F.contiguous and not F.signed
    if f["plain"]:
        m = f"{fmax:#x}u" if fmax <= 0xFFFFFFFF else f"PMREGS_U64({fmax:#x})"
        if W >= 32 and fw < W:
            # the shared shift-and-mask macros of base_core.h: a third of the text to read, the same code
            g, s = (f"PMREGS_GET{W}(v, {F.shift}, {fmax:#x})", f"PMREGS_SET{W}(v, x, {F.shift}, {fmax:#x})")
        else:
            g, s = (parenthesized(e) for e in access_exprs(hv, L, F, f"pmregs_u{W}(v)", f"pmregs_u{W}(x)", short=True))
        f["acc_macros"] = [(f["fget"] + "(v)", g), (f["fset"] + "(v, x)", s),
                           (f["set_checked"] + "(v, x)", f"pmregs_set_checked{W}(v, {F.shift}, {m}, x)")]
        shl = f" << {F.shift}" if F.shift else ""
        f["pack_term"] = f"({T})(({T})f->{F.name} & {m}){shl}" if fw < W else f"({T})f->{F.name}"
        f["unpack_term"] = (f"((v >> {F.shift}) & {m})" if F.shift else f"(v & {m})") if fw < W else "v"
    return f


def bits_text(hv, L, F):
    lsb = ", ".join(f"{hi}" if hi == lo else f"{hi}:{lo}" for hi, lo in F.parts)
    return f"bits {F.spec_bits} (msb0) = {lsb} (lsb0)" if L.msb0 else f"bits {lsb}"


def access_exprs(hv, L, F, v="v", x="x", short=False):
    """C expressions for get(v) and set(v, x), each argument written once; short: masks as the shortest
    literals (the macro accessors, whose text every translation unit reads) instead of the padded ones."""
    W = L.width
    u = (lambda c: f"{c:#x}u" if c <= 0xFFFFFFFF else f"PMREGS_U64({c:#x})") if short else (lambda c: ulit(c, W))
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
    # the macro accessors cast with PMREGS_CAST, which C++ users' -Wold-style-cast accepts
    cast = (lambda t, e: f"PMREGS_CAST({t}, {e})") if short else (lambda t, e: f"({t})({e})")
    if W < 32:
        get = cast(utype(W), get)
    if F.signed:
        get = f"pmregs_sext((uint64_t)({get}), {F.width})"
    xs = f"(uint64_t){x}" if F.signed else x
    if F.signed and W < 64:
        xs = f"({utype(W)})(uint64_t){x}"
    if F.width == W and F.contiguous:
        # The field is the whole register: the new value is x itself.
        return get, f"((void){v}, {x})" if short else f"((void){v}, ({utype(W)}){x})"
    sets = []
    for lo, w, off in parts:
        e = f"({xs} >> {off})" if off else xs
        # mask, then shift, as a hand-written setter does
        e = f"({e} & {u(mask_of(w))})" if w < W else e
        sets.append(f"({e} << {lo})" if lo else e)
    # the mask to keep must be as wide as the register: ~ of a 32-bit literal would clear a 64-bit value's top half
    mask = (f"PMREGS_U64({F.mask:#x})" if W == 64 else u(F.mask)) if short else hv.n.field_macro(L, F, "mask")
    keep = f"({v} & ({utype(W)})~{mask})" if W < 32 and not short else f"({v} & ~{mask})"
    setx = f"{keep} | " + " | ".join(sets)
    if W < 32:
        setx = cast(utype(W), setx)
    return get, setx


def builder_expr(hv, L, F):
    """The constant builder's body; a run-time argument fails to compile with an error naming the
    field's _set() accessor (PMREGS_FITS)."""
    W = L.width
    mac = f"PMREGS_FIELD{W}"
    setter = hv.n.accessor(L, F, "set")
    if F.contiguous:
        return f"{mac}((x), {F.shift}, {F.width}, {setter})"
    # A split field: place each part; the whole value is checked once, against the total width.
    parts = []
    for k, (lo, w, off) in enumerate(F.part_shifts()):
        xv = f"PMREGS_FITS((x), {F.width}, {setter})" if k == 0 else "PMREGS_CAST(uint64_t, (x))"
        parts.append(f"(({xv} >> {off} & {hexw(mask_of(w), 4)}u) << {lo})")
    whole = " | ".join(parts)
    return f"({whole})" if W == 64 else f"PMREGS_CAST(uint{W}_t, {whole})"


def group_view(hv, L, gname, fs):
    """An indexed accessor for a regular repeat group (en0..en3 -> en_get(v, i))."""
    first = fs[0]
    if not all(f.contiguous and f.width == first.width and f.signed == first.signed for f in fs):
        return None
    if [f.index for f in fs] != list(range(len(fs))):
        return None
    step = (fs[1].shift - fs[0].shift) if len(fs) > 1 else 0
    if any(f.shift != first.shift + step * i for i, f in enumerate(fs)):
        return None
    n, W = hv.n, L.width
    node = first.node
    what = f"repeat group '{L.name}.{gname}'"
    S = lambda name: hv.sym.add(name, node, what)   # noqa: E731
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
        "signed": first.signed,
        "acc_macros": group_macros(hv, L, fs, gname, step),
    }


def group_macros(hv, L, fs, gname, step):
    """The indexed accessors of a repeat group of unsigned fields of a 32- or 64-bit register, as macros over
    pmregs_group_getN()/_setN() of base_core.h (no function body per group); None: the group keeps its
    functions (signed fields, narrower registers)."""
    W, first = L.width, fs[0]
    if first.signed or W not in (32, 64):
        return None
    m = mask_of(first.width)
    ml = f"{m:#x}u" if m <= 0xFFFFFFFF else f"PMREGS_U64({m:#x})"
    args = f"{len(fs)}u, {first.shift}u, {step}, {ml}"
    n = hv.n
    return [(n.fn(L.name, gname, "get") + "(v, i)", f"pmregs_group_get{W}(v, i, {args})"),
            (n.fn(L.name, gname, "set") + "(v, i, x)", f"pmregs_group_set{W}(v, i, x, {args})")]


# -- reference page ------------------------------------------------------------------------------
def layout_page(pv, index, L):
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
    regs = [R for R in pv.fam.registers if R.layout is L]
    reg_items = []
    for R in regs:
        kind, addr = register_address(pv.fam, R)
        item = f"`{R.name}`" + (f" ({kind} {addr:#x})" if kind else "")
        if R.reset is not None and R.reset != L.reset:
            item += f", reset {hexw(R.reset, W)}"
        reg_items.append(item)
    variants = []
    if L.variants is not None:
        D = L.variants.discriminator
        for cname, when, sub in L.variants.cases:
            variants.append({"name": cname, "field": D.name, "when": when, "layout": sub.name,
                             "link": pv.layout_links[sub.name]})
    parent = None
    if L.variant_of:
        P, cname = L.variant_of
        parent = {"layout": P.name, "link": pv.layout_links[P.name], "case": cname,
                  "field": P.variants.discriminator.name,
                  "when": next(w for c, w, _ in P.variants.cases if c == cname)}
    base = getattr(L, "base", None)
    return {"index": index, "name": L.name, "title": md(L.title or L.name), "doc": md_par(L.doc),
            "source": md(L.source), "width": W, "msb0": L.msb0, "svg": f"{pv.name}/{L.name}.svg",
            "reset": hexw(L.reset, W), "rsvd": hexw(L.rsvd_mask, W), "res1": hexw(L.res1_mask, W),
            "writable": hexw(L.writable_mask, W), "fields": fields, "values": values,
            "registers": reg_items, "variants": variants, "parent": parent,
            "base": base.name if base is not None and hasattr(base, "name") else None,
            "diagram": diagram(pv.fam, L)}


def fn_docs(hv):
    """{C name: description} of the functions and function-like macros of every layout that have no
    comment of their own in the header (the per-field accessors are macros in aligned columns; a
    layout's pack/unpack/descriptor functions share its section comment): the template's sentence for
    each kind of name, with the field's or layout's own doc string from the spec."""
    out = {}
    for lv in hv.layouts:
        L, lname = lv["L"], lv["name"]
        what = f"{lv['title']} ({lname}, {lv['W']} bits)" if lv["title"] != lname else f"{lname} ({lv['W']} bits)"
        for f in lv["user_fields"]:
            doc = f" {f['doc']}." if f["doc"] and not f["doc"].endswith(".") else f" {f['doc']}" if f["doc"] else ""
            sign = ", sign-extended" if f["signed"] else ""
            out[f["fget"]] = f"The {f['name']} field ({f['bits']}) of a {what} value v{sign}.{doc}"
            out[f["fset"]] = (f"v with its {f['name']} field ({f['bits']}) replaced by x, masked to the field's "
                              f"{f['width']} bits; no other bit changes.{doc}")
            out[f["set_checked"]] = (f"Put x into the {f['name']} field ({f['bits']}) of *v: PMREGS_OK, or PMREGS_ERANGE "
                                     f"and *v unchanged when x does not fit {f['width']} bits.{doc}")
        for g in lv["groups"]:
            out[g["gget"]] = (f"Field {g['name']}<i> (one of {g['count']}, {g['width']} bits each) of a {what} value v, "
                              "by index; 0 for an index past the last.")
            out[g["gset"]] = (f"v with field {g['name']}<i> (one of {g['count']}) replaced by x; v itself for an index "
                              "past the last.")
        out[lv["valid"]] = (f"1 when the {what} value v has every reserved (must-be-zero) bit clear and every "
                            "must-be-one bit set, else 0.")
        out[lv["pack"]] = (f"The {what} value holding the members of *f in their fields: reserved bits 0, must-be-one "
                           "bits 1, members too wide for their field masked.")
        out[lv["pack_checked"]] = (f"Like {lv['pack']}(), but PMREGS_ERANGE (and *out untouched) when a member of *f "
                                   "does not fit its field.")
        out[lv["unpack"]] = f"Every field of the {what} value v into its member of *f."
        out[lv["desc"]] = (f"The {lname} layout as constant data (struct pmregs_layout_desc: its fields with their "
                           "bits, access and named values), for tools that print or parse it.")
        out[lv["snprint"]] = (f"\"field=value ...\" for the {what} value v into buf (n bytes, like snprintf: the full "
                              "length is returned); a reserved bit that is set is shown with '!'.")
        if lv.get("variant_fn"):
            out[lv["variant_fn"]] = (f"Which variant of {lname} the value v is (PMREGS_..._VARIANT_* of its "
                                     "discriminator field), or -1.")
    # emitted for every family, one without layouts too (a null pointer and a count of 0)
    out[f"{hv.prefix}_layouts"] = ("Every layout of the family as a struct pmregs_layout_desc, in spec order "
                                   "(*count of them), for tools that list, print or parse registers by name.")
    return out
