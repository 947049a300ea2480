# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Records: fixed-size byte structures (little- or big-endian) whose fields may carry a layout.

    records:
      NAME: {size, byte_order, fields: [{name, offset, size, layout, access, doc}]}

Every byte is accounted for; fields do not overlap.
"""

from ..core import ACCESS, RecordField, Record, runs_of
from ..capi import name_tables
from ..cnames import utype
from ..ctext import comment_text, wrap
from ..mdtext import md, md_par

NAME = "records"
KEYS = ("records",)
HEADER, SELFTEST, PAGE = "records.h.j2", None, "records.md.j2"
CONTENTS = (("Records", "records"),)


def load(b, m):
    b.section(m, "records", lambda k, v: record(b, k, v))


def view(hv):
    hv.records = [record_view(hv, R) for R in hv.fam.records]


def page(pv):
    pv.records = [record_page(pv, R) for R in pv.fam.records]
    names = name_tables(pv.api.get(NAME), f"pmregs_{pv.fam.name}",
                        [(R.name, [(F.name, []) for F in R.fields]) for R in pv.fam.records], pv.api_claimed)
    for rp in pv.records:
        rp["names"] = names[rp["name"]]


# -- load ---------------------------------------------------------------------------------------
def record(b, k, v):
    name = b.top_name(k, k.text, "record")
    m = b.r.mapping(v, f"record '{k.text}'")
    if name is None or m is None:
        return
    if not b.r.keys(m, f"record '{name}'", required=("size", "fields"),
                    optional=("title", "doc", "source", "byte_order")):
        return
    R = Record(name, k)
    b.common(R, m, "record")
    R.size = b.r.integer(m.get("size"), "size", 1, 1 << 16) or 0
    if m.get("byte_order") is not None:
        R.byte_order = b.r.choice(m.get("byte_order"), "byte_order", ("little", "big")) or "little"
    owner = [None] * R.size
    for item in b.r.seq(m.get("fields"), "fields") or []:
        fm = b.r.mapping(item, "a record field")
        if fm is None or not b.r.keys(fm, "a record field", required=("name", "offset", "size"),
                                      optional=("layout", "access", "doc")):
            continue
        fname = b.r.name(fm.get("name"), "record field name")
        off = b.r.integer(fm.get("offset"), "offset", 0)
        size = b.r.integer(fm.get("size"), "size")
        if fname is None or off is None or size is None:
            continue
        if size not in (1, 2, 4, 8):
            b.r.err(fm.get("size"), "PMR050", f"record field size {size} is not 1, 2, 4 or 8 bytes")
            continue
        if off + size > R.size:
            b.r.err(fm.get("offset"), "PMR050", f"field '{fname}' ends at byte {off + size},"
                    f" beyond the {R.size}-byte record '{name}'")
            continue
        clash = next((o for o in owner[off:off + size] if o is not None), None)
        if clash is not None:
            b.r.err(fm.get("offset"), "PMR050", f"field '{fname}' overlaps field '{clash.name}'")
            continue
        if any(f.name == fname for f in R.fields):
            b.r.err(fm.get("name"), "PMR021", f"record field '{fname}' is defined twice")
            continue
        F = RecordField(fname, off, size, fm.get("name"))
        F.doc = b.r.opt_text(fm, "doc", "doc")
        if fm.get("access") is not None:
            F.access = b.r.choice(fm.get("access"), "access", ACCESS) or "rw"
        if fm.get("layout") is not None:
            ln = b.r.text(fm.get("layout"), "layout")
            F.layout = b.fam.layout(ln)
            if F.layout is None:
                b.r.err(fm.get("layout"), "PMR030", f"layout '{ln}' is not defined")
            elif F.layout.width != size * 8:
                b.r.err(fm.get("layout"), "PMR050", f"layout '{ln}' is {F.layout.width} bits"
                        f" but field '{fname}' is {size * 8}")
        for i in range(off, off + size):
            owner[i] = F
        R.fields.append(F)
    gaps = [i for i in range(R.size) if owner[i] is None]
    if gaps and not b.diag.errors:
        txt = ", ".join(f"0x{lo:x}..0x{hi:x}" for hi, lo in runs_of(gaps))
        b.r.err(k, "PMR050", f"record '{name}' leaves bytes {txt} unaccounted for")
    b.fam.records.append(R)


# -- header view ---------------------------------------------------------------------------------
def record_view(hv, R):
    n = hv.n
    S = lambda name, node, what: hv.sym.add(name, node, what)   # noqa: E731
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


# -- reference page ------------------------------------------------------------------------------
def record_page(pv, R):
    return {"name": R.name, "title": md(R.title or R.name), "doc": md_par(R.doc), "source": md(R.source),
            "size": R.size, "byte_order": R.byte_order,
            "fields": [{"name": F.name, "offset": F.offset, "size": F.size, "access": F.access,
                        "layout": F.layout.name if F.layout else "",
                        "link": pv.layout_links[F.layout.name] if F.layout else "", "doc": md(F.doc)}
                       for F in sorted(R.fields, key=lambda f: f.offset)]}


def fn_docs(hv):
    """{C name: description} of the per-field load and store macros of every record (they share one
    comment in the header): the template's sentence with the field's doc string from the spec."""
    out = {}
    for r in hv.records:
        for f in r["fields"]:
            if not f.get("load"):
                continue
            doc = f" {f['doc']}." if f["doc"] and not f["doc"].endswith(".") else f" {f['doc']}" if f["doc"] else ""
            where = f"the {f['size']}-byte {f['name']} field at offset {f['offset']:#x} of the {r['title']} record"
            out[f["load"]] = f"The value of {where} at rec (read byte by byte in the record's byte order).{doc}"
            out[f["store"]] = f"Write x into {where} at rec (in the record's byte order); no other byte changes.{doc}"
    return out
