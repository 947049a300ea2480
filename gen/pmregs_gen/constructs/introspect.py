# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Generic introspection: what a tool needs to walk any family without knowing it.

Every family header gets, from this module and templates/introspect.h.j2:

    pmregs_<family>_register_descs(&n)   every register as a struct pmregs_register_desc:
                                         name, title, doc, source, its first address fact
                                         (kind and value), reset value, layout index and
                                         its other facts as text
    pmregs_<family>_streams(&n)          (families with packet streams) each stream as a
                                         struct pmregs_stream_desc whose walk() takes the
                                         parameters as an array and reports every item as
                                         generic packet views (through the stream's
                                         pmregs_<family>_<stream>_next_cold(), _next()
                                         with the frame and payload decoders called out
                                         of line, one copy each per program:
                                         pmregs_<family>_<packet>_decode_cold(),
                                         _decode_at_cold())
    PMREGS_<FAMILY>_FAMILY_INIT          an initializer of struct pmregs_family_desc;
    pmregs_<family>_family()             the same as an object

and the umbrella header lists the families (pmregs_families()). The layouts
themselves are described by pmregs_<family>_layouts() (family.h.j2).
"""

from ..core import field_value, register_address, register_facts, register_reset


def quoted(text):
    """A fact value as one word: quoted when it has spaces or quotes."""
    if text and not any(c in text for c in " \t\"="):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def introspect_view(hv):
    """Everything introspect.h.j2 renders."""
    fam, n = hv.fam, hv.n
    S = hv.sym.add
    p, P = n.p, n.P
    regs = []
    for R in fam.registers:
        kind, addr = register_address(fam, R)
        regs.append({
            "name": R.name, "title": R.title or R.name.upper(), "doc": R.doc, "source": R.source,
            "addr_kind": kind, "addr": f"PMREGS_U64({addr:#x})",
            "reset": f"PMREGS_U64({register_reset(R):#x})",
            "layout": fam.layout_number(R.layout) if R.layout is not None else -1,
            "facts": " ".join(f"{k}={quoted(t)}" for k, t in register_facts(fam, R, skip=kind)),
        })
    v = {"registers": regs,
         "register_descs": S(f"{p}_register_descs", None, "the generic register table"),
         "family_fn": S(f"{p}_family", None, "the family descriptor"),
         "family_init": S(f"{P}_FAMILY_INIT", None, "the family descriptor"),
         "name": fam.name, "title": fam.title or fam.name, "vendor": fam.vendor, "layouts_fn": f"{p}_layouts",
         "params_fn": None, "presets_fn": None, "params_check_fn": None, "streams": [], "streams_fn": None,
         "cold_frames": [], "cold_payloads": []}
    v["variant_checks"] = []
    for i, L in enumerate(fam.layouts):
        if L.variants is not None:
            D = L.variants.discriminator
            for _, when, sub in L.variants.cases:
                v["variant_checks"].append((i, fam.layout_number(sub), f"{field_value(D, when):#x}"))
    k = hv.packets_view
    if k and k.get("params"):
        pr = k["params"]
        v["params_fn"] = pr["desc_fn"]
        v["presets_fn"] = pr.get("presets_fn")
        v["params_check_fn"] = pr["check_values_fn"]
        v["params"] = pr
    if k and k.get("streams"):
        v["params_t"] = k["params_t"]
        v["streams_fn"] = S(f"{p}_streams", None, "the stream table")
        # the walkers' decoders out of line: one copy each per program
        cold = {}
        for st in k["streams"]:
            for role, pk in (("frame", st["frame"]), ("payload", st["payload"])):
                if (role, pk["name"]) not in cold:
                    kind = "decode" if role == "frame" else "decode_at"
                    cold[role, pk["name"]] = S(f"{p}_{pk['name']}_{kind}_cold", None, f"packet '{pk['name']}'")
                    v[f"cold_{role}s"].append({"fn": cold[role, pk["name"]], "hot": pk["fn"][kind],
                                               "struct": pk["struct"]})
            v["streams"].append({
                "st": st, "name": st["name"], "doc": st["doc"],
                "walk": S(f"{p}_{st['name']}_walk", None, f"stream '{st['name']}'"),
                "next_cold": S(f"{p}_{st['name']}_next_cold", None, f"stream '{st['name']}'"),
                "frame_cold": cold["frame", st["frame"]["name"]],
                "payload_cold": cold["payload", st["payload"]["name"]],
                "frame": st["frame"], "payload": st["payload"],
            })
    v["tables"], v["tables_fn"] = [], None
    if getattr(hv, "tables", None):
        v["tables_fn"] = S(f"{p}_tables", None, "the table of tables")
        for i, t in enumerate(hv.tables):
            v["tables"].append({
                "index": i, "name": t["name"], "title": t["title"], "source": t["source"] or "", "struct": t["struct"],
                "fn": t["fn"], "data": S(f"{t['fn']}_data", t["T"].node, f"table '{t['name']}'"),
                "columns": [table_column(t["struct"], c) for c in t["cols"]]})
    return v


COLUMN_KINDS = {"int": "UINT", "bool": "BOOL", "enum": "ENUM", "set": "SET", "str": "STR", "list": "LIST",
                "bits": "BITS"}


def table_column(struct, c):
    """One struct pmregs_column_desc initializer's parts: where a column's value is in a row."""
    at = lambda member: f"offsetof({struct}, {member})"   # noqa: E731
    name = c["name"]
    kind = c["kind"]
    if kind == "enum":
        size = f"sizeof({c['decl'].strip()})"
    elif kind in ("str", "bits"):
        size = "8" if kind == "bits" else "0"
    else:
        size = c["decl"].strip()[len("uint"):-len("_t")]
        size = str(int(size) // 8) if size.isdigit() else "1"
    count = at(f"{name}_count") if kind in ("list", "bits") else "0"
    names = at(f"{name}_names") if kind == "bits" else "0"
    return {"name": name, "doc": c["C"].doc or "", "kind": f"PMREGS_COLUMN_{COLUMN_KINDS[kind]}",
            "size": size, "offset": at(name), "count": count, "names": names}


# -- construct interface (constructs/__init__.py) -----------------------------------------------
NAME = "introspect"
KEYS = ()
HEADER, SELFTEST, PAGE = "introspect.h.j2", "introspect_selftest.c.j2", None
CONTENTS = ()


def load(b, m):
    pass


def view(hv):
    hv.introspect = introspect_view(hv)


def page(pv):
    pass
