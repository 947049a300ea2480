# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Tables: rows of typed columns (events, encodings), with row-index and value macros.

    tables:
      NAME: {columns: {col: {type, doc, field, default}}, rows: [{name, title, doc, col: value...}]}

A column's type is a scalar, a list, str, an enum, set(E), bits (named bits of a
field) or ref:<target> (a row of another table or a register, refs.py); once all
tables are read, references are resolved to row indices.

Alternative tables, one per value of an enum (e.g. a processor generation), form
a group:

    NAME_A: {group: {name: G, enum: E, values: [e1]}, columns: ..., rows: ...}
    NAME_B: {group: {name: G, enum: E, values: [e2, e3]}, columns: ..., rows: ...}

The members of a group have the same columns and share one row struct
(struct PREFIX_G_row); each keeps its own functions and macros, and
PREFIX_G(which, &count) / PREFIX_G_find(which, name) pick the member for an
enum value (a null pointer when none is for it).
"""

import re

from .. import refs
from ..cnames import Names
from ..core import MAX_CELLS, MAX_ROWS, SET_RE, Column, Table, fact_text, mask_of, set_ctype
from ..ctext import c_string, comment_text, fact_literal, fact_members, member, packed_struct, wrap
from ..mdtext import md, md_par
from ..refs import read_bits

NAME = "tables"
KEYS = ("tables",)
HEADER, SELFTEST, PAGE = "tables.h.j2", None, "tables.md.j2"
CONTENTS = (("Tables", "tables"),)


def load(b, m):
    b.ncells = 0
    b.section(m, "tables", lambda k, v: table(b, k, v))
    b.diag.check()
    check_groups(b)
    b.diag.check()
    refs.resolve(b)                     # ref:<target> names become row indices
    b.diag.check()


def view(hv):
    hv.tables = [table_view(hv, T) for T in hv.fam.tables]
    hv.tables_read = tables_read(hv.fam)
    for t in hv.tables:
        t["in_header"] = t["name"] in hv.tables_read
    if any(c["kind"] == "bits" for t in hv.tables if t["in_header"] for c in t["cols"]):
        hv.uses.add("base_desc.h")      # pmregs_bit_desc, pmregs_bits_find, pmregs_bits_snprint


def tables_read(fam):
    """The tables the family header's own code reads by name: none. An encoder reads the columns it needs
    from compact tables of its own (encoder.py facts_view), a pass planner its option data; every table's
    function (its rows with their names and descriptions) is data for tools, in FAMILY_tools.h."""
    return set()


def page(pv):
    pv.tables = [table_page(pv, T) for T in pv.fam.tables]


# -- load ---------------------------------------------------------------------------------------
def table(b, k, v):
    name = b.top_name(k, k.text, "table")
    m = b.r.mapping(v, f"table '{k.text}'")
    if name is None or m is None:
        return
    if not b.r.keys(m, f"table '{name}'", required=("columns", "rows"),
                    optional=("title", "doc", "source", "group")):
        return
    T = Table(name, k)
    b.common(T, m, "table")
    if m.get("group") is not None and not table_group(b, T, m.get("group")):
        return
    cm = b.r.mapping(m.get("columns"), "columns")
    names = set()
    for ck, cv in (cm.pairs if cm else []):
        cn = b.r.check_name(ck, ck.text, "column name")
        cmap = b.r.mapping(cv, f"column '{ck.text}'")
        if cn is None or cmap is None:
            continue
        if cn in ("name", "title", "doc") or cn in names:
            b.r.err(ck, "PMR021", f"column '{cn}' is reserved or defined twice")
            continue
        names.add(cn)
        if not b.r.keys(cmap, f"column '{cn}'", required=("type",), optional=("doc", "field", "default")):
            continue
        tnode = cmap.get("type")
        tt = b.r.text(tnode, "type")
        enum = b.fam.enum(tt) if tt else None
        if tt == "bits":                # named bits of a field (refs.py)
            ct = "bits"
        else:
            ct = "enum" if enum else b.ctype(tnode, allow_str=True, allow_list=True, allow_set=True)
        if ct is None:
            continue
        C = Column(cn, ct, ck)
        C.enum = enum
        C.doc = b.r.opt_text(cmap, "doc", "doc")
        if cmap.get("field") is not None:
            C.field = b.field_ref(cmap.get("field"))
        if cmap.get("default") is not None and ct == "bits":
                C.default = read_bits(b.r, cmap.get("default"), C, f"default of column '{cn}'")
        elif cmap.get("default") is not None:
            C.default = b.value_of(cmap.get("default"), ct if ct != "enum" else "u32",
                                   f"default of column '{cn}'", enum=enum)
        T.columns.append(C)
    seen = {}
    rows = b.r.seq(m.get("rows"), "rows") or []
    b.ncells += len(rows) * max(len(T.columns), 1)
    if len(rows) > MAX_ROWS or b.ncells > MAX_CELLS:
        b.r.err(m.get("rows"), "PMR045", f"table '{name}' has {len(rows)} rows of {len(T.columns)} columns: more than"
                f" {MAX_ROWS} rows, or more than {MAX_CELLS} cells in the family's tables; split it")
        return
    for row in rows:
        rm = b.r.mapping(row, "a row")
        if rm is None or not b.r.keys(rm, "a row", required=("name",),
                                      optional=("title", "doc") + tuple(c.name for c in T.columns)):
            continue
        rn = b.r.name(rm.get("name"), "row name")
        if rn is None:
            continue
        if rn in seen:
            b.r.err(rm.get("name"), "PMR021", f"row '{rn}' is already in table '{name}' (line {seen[rn]})")
            continue
        seen[rn] = rm.line
        vals = {}
        for C in T.columns:
            vn = rm.get(C.name)
            if vn is None:
                if C.default is None:
                    b.r.err(rm, "PMR003", f"row '{rn}' lacks column '{C.name}' (it has no default)")
                    continue
                vals[C.name] = C.default
                continue
            if C.type == "bits":
                        val = read_bits(b.r, vn, C, f"column '{C.name}'")
            else:
                val = b.value_of(vn, C.type if C.type != "enum" else "u32", f"column '{C.name}'", enum=C.enum)
            if val is None:
                continue
            if C.field is not None and isinstance(val, (int, list)):
                FL, FF = C.field
                for x in (val if isinstance(val, list) else [val]):
                    if x > mask_of(FF.width):
                        b.r.err(vn, "PMR060", f"{C.name} = {x:#x} does not fit field '{FL.name}.{FF.name}'"
                                f" ({FF.width} bits)")
            vals[C.name] = val
        T.rows.append((rn, b.r.opt_text(rm, "title", "title"), b.r.opt_text(rm, "doc", "doc"),
                       vals, rm))
    b.fam.tables.append(T)


def table_group(b, T, node):
    """Read `group: {name, enum, values}`; False after an error."""
    gm = b.r.mapping(node, f"group of table '{T.name}'")
    if gm is None or not b.r.keys(gm, f"group of table '{T.name}'", required=("name", "enum", "values")):
        return False
    gn = b.r.check_name(gm.get("name"), b.r.text(gm.get("name"), "group name"), "group name")
    en = b.r.text(gm.get("enum"), "group enum")
    if gn is None or en is None:
        return False
    E = b.fam.enum(en)
    if E is None:
        b.r.err(gm.get("enum"), "PMR030", f"group of table '{T.name}': '{en}' is not an enum defined in this spec")
        return False
    vals = []
    for it in b.r.seq(gm.get("values"), "group values") or []:
        vn = b.r.text(it, "group value")
        if vn is None:
            return False
        hit = [vv for n_, vv, _ in E.values if n_ == vn]
        if not hit:
            b.r.err(it, "PMR031", f"group of table '{T.name}': '{vn}' is not a value of enum '{E.name}'")
            return False
        if hit[0] in vals:
            b.r.err(it, "PMR021", f"group of table '{T.name}': '{vn}' is listed twice")
            return False
        vals.append(hit[0])
    if not vals:
        b.r.err(gm.get("values"), "PMR003", f"group of table '{T.name}' lists no value of enum '{E.name}'")
        return False
    T.group, T.group_enum, T.group_values, T.group_node = gn, E, vals, gm.get("name")
    return True


def check_groups(b):
    """The members of a group: one enum, the same columns, no enum value claimed twice."""
    first = {}
    for T in b.fam.tables:
        if T.group is None:
            continue
        F = first.setdefault(T.group, T)
        if F is T:
            continue
        if T.group_enum is not F.group_enum:
            b.r.err(T.group_node, "PMR021", f"table '{T.name}' chooses group '{T.group}' by enum"
                    f" '{T.group_enum.name}', table '{F.name}' by '{F.group_enum.name}'")
            continue
        if [(C.name, C.type) for C in T.columns] != [(C.name, C.type) for C in F.columns]:
            b.r.err(T.group_node, "PMR021", f"table '{T.name}' has other columns than table '{F.name}' of"
                    f" group '{T.group}'")
            continue
        for U in b.fam.tables:
            if U is T:
                break
            if U.group == T.group:
                both = set(U.group_values) & set(T.group_values)
                if both:
                    vn = next(n_ for n_, vv, _ in T.group_enum.values if vv in both)
                    b.r.err(T.group_node, "PMR021", f"tables '{U.name}' and '{T.name}' of group '{T.group}'"
                            f" are both for {T.group_enum.name} '{vn}'")


def group_members(fam, group):
    return [T for T in fam.tables if T.group == group]


# -- header view ---------------------------------------------------------------------------------
def table_view(hv, T):
    n = hv.n
    S = lambda name, node, what: hv.sym.add(name, node, what)   # noqa: E731
    cols = []
    for C in T.columns:
        lm = re.match(r"^(u\d+)\[(\d+)\]\Z", C.type, re.ASCII)
        if C.type == "str":
            decl, kind = "const char *", "str"
        elif C.type == "enum":
            decl, kind = n.enum_type(C.enum) + " ", "enum"
        elif C.type == "bool":
            decl, kind = "uint8_t ", "bool"
        elif lm:
            decl, kind = f"uint{lm.group(1)[1:]}_t ", "list"
        elif SET_RE.match(C.type):
            decl, kind = set_ctype(hv.fam, C.type) + " ", "set"
        elif C.type == "bits":              # named bits (refs.py): mask + descriptors
            decl, kind = "uint64_t ", "bits"
        else:
            decl, kind = f"uint{C.type[1:]}_t ", "int"
        cols.append({"C": C, "name": C.name, "decl": decl, "kind": kind,
                     "len": int(lm.group(2)) if lm else 0, "doc": comment_text(C.doc)})
        if kind == "bits":
            cols[-1]["find"] = S(n.table_fn(T, C.name, "find"), C.node, f"column '{C.name}'")
            cols[-1]["snprint"] = S(n.table_fn(T, C.name, "snprint"), C.node, f"column '{C.name}'")
    members = group_members(hv.fam, T.group) if T.group else [T]
    tv = {"T": T, "name": T.name, "title": T.title or T.name, "doc": wrap(T.doc) if T.doc else [],
          "source": T.source, "cols": cols, "rows": [],
          "struct": f"struct {n.fn(T.group, 'row') if T.group else n.table_fn(T, 'row')}",
          "fn": S(n.table_fn(T), T.node, f"table '{T.name}'"),
          "find": S(n.table_fn(T, "find"), T.node, f"table '{T.name}'"),
          "count_macro": S(n.table_macro(T, "count"), T.node, f"table '{T.name}'"),
          "emit_struct": members[0] is T, "group": None, "for": ""}
    if members[0] is T:
        S(tv["struct"][len("struct "):], T.group_node or T.node, f"table '{T.name}'")
    if T.group:
        E = T.group_enum
        what = f"group '{T.group}'"
        tv["group_fn"] = n.fn(T.group)
        tv["for"] = ", ".join(n.enum_value(E, vn) for vn, vv, _ in E.values if vv in T.group_values)
        if members[-1] is T:
            tv["group"] = {
                "name": T.group, "enum": E.name, "enum_type": n.enum_type(E),
                "fn": S(n.fn(T.group), T.group_node, what), "tables": ", ".join(M.name for M in members), "find": S(n.fn(T.group, "find"), T.group_node, what),
                "cases": [([n.enum_value(E, vn) for vn, vv, _ in E.values if vv in M.group_values],
                           n.table_fn(M)) for M in members],
                # the enum's other values, named so that the switch handles every value (-Wswitch-enum)
                "none": [n.enum_value(E, vn) for vn, vv, _ in E.values
                         if not any(vv in M.group_values for M in members)]}
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
                row["cells"].append(fact_literal(c, val))
            if c["kind"] == "int":
                row["consts"].append((S(n.table_macro(T, rn, c["name"]), node, what), f"{val:#x}"))
        tv["rows"].append(row)
        tv["macros"] += [(row["macro"], i)] + row["consts"]
    # the row struct: name, title, doc, then each column, reordered with every row for no padding
    members = [member("const char *", "name"), member("const char *", "title"), member("const char *", "doc")]
    for c in cols:
        if c["kind"] == "bits":
            members += [member("uint64_t ", c["name"], f"{c['doc']}: every named bit" if c["doc"] else ""),
                        member("const struct pmregs_bit_desc *", c["name"] + "_names",
                               "the named bits, for lookups by name"),
                        member("uint8_t ", c["name"] + "_count")]
        else:
            members += fact_members(c, c["doc"])
    cells = []
    for row in tv["rows"]:
        cs = [c_string(row["name"]), row["title"], row["doc"]]
        for c, cell in zip(cols, row["cells"]):
            cs += cell.split(", ", 2) if c["kind"] == "bits" else cell.rsplit(", ", 1) if c["kind"] == "list" else [cell]
        cells.append(cs)
    tv["members"], cells = packed_struct(members, cells)
    for row, cs in zip(tv["rows"], cells):
        row["init"] = cs
    return tv


# -- reference page ------------------------------------------------------------------------------
def table_page(pv, T):
    cols = [{"name": C.name, "doc": md(C.doc)} for C in T.columns]
    rows = []
    for rn, title, doc, vals, _ in T.rows:
        cells = [md(column_text(pv.fam, C, vals.get(C.name, C.default))) for C in T.columns]
        rows.append({"name": rn, "title": md(title), "doc": md(doc), "cells": cells})
    group = None
    if T.group:
        E = T.group_enum
        group = {"name": T.group, "enum": E.name, "fn": Names(pv.fam).fn(T.group),
                 "vals": ", ".join(f"`{vn}`" for vn, vv, _ in E.values if vv in T.group_values),
                 "others": ", ".join(f"`{M.name}`" for M in group_members(pv.fam, T.group) if M is not T)}
    return {"name": T.name, "title": md(T.title or T.name), "doc": md_par(T.doc), "source": md(T.source),
            "cols": cols, "rows": rows, "has_title": any(r["title"] for r in rows),
            "has_doc": any(r["doc"] for r in rows), "group": group}


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
