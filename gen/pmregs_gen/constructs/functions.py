# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Functions: typed formulas from the manuals, compiled to static inline C (expr.py).

    functions:
      - {name, params: {p: type}, returns, expr, formula, doc, source}

Types: u8..u64, bool, unsigned (C's unsigned int), a layout or an enum of the spec; parameters also u64[N].
"""

import re

from ..core import Function
from ..ctext import wrap
from ..expr import compile_function, type_info
from ..mdtext import md, md_par

NAME = "functions"
KEYS = ("functions",)
HEADER, SELFTEST, PAGE = "functions.h.j2", None, "functions.md.j2"
CONTENTS = (("Functions", "functions"),)


def load(b, m):
    b.section(m, "functions", lambda node: function(b, node), seq=True)
    b.diag.check()


def view(hv):
    hv.functions = [function_view(hv, F) for F in hv.fam.functions]


def page(pv):
    pv.functions = [function_page(pv, F) for F in pv.fam.functions]


# -- load ---------------------------------------------------------------------------------------
def function(b, node):
    m = b.r.mapping(node, "a function")
    if m is None or not b.r.keys(m, "a function", required=("name", "returns", "expr"),
                                 optional=("doc", "source", "formula", "params")):
        return
    name = b.r.name(m.get("name"), "function name")
    if name is None:
        return
    name = b.top_name(m.get("name"), name, "function")
    if name is None:
        return
    F = Function(name, m.get("name"))
    F.doc = b.r.opt_text(m, "doc", "doc")
    F.source = b.r.opt_text(m, "source", "source")
    F.formula = b.r.opt_text(m, "formula", "formula")
    pm = b.r.mapping(m.get("params"), "params") if m.get("params") is not None else None
    for k, v in (pm.pairs if pm else []):
        pn = b.r.check_name(k, k.text, "parameter")
        pt = b.ctype(v, allow_named=True, allow_list=True, allow_unsigned=True)   # u64[8]: an array of register values
        if pn is None or pt is None:
            return
        if any(p[0] == pn for p in F.params):
            b.r.err(k, "PMR021", f"parameter '{pn}' is given twice")
            return
        F.params.append((pn, pt))
    F.returns = b.ctype(m.get("returns"), allow_named=True, allow_unsigned=True)
    if F.returns is None:
        return
    F.expr_node = m.get("expr")
    if b.r.scalar(F.expr_node, "expr") is None:
        return
    compile_function(b.fam, F, b.diag)
    b.fam.functions.append(F)


# -- header view ---------------------------------------------------------------------------------
def function_view(hv, F):
    S = hv.sym.add
    name = S(hv.n.function(F), F.node, f"function '{F.name}'")
    params = []
    for pn, pt in F.params:
        pkind, ctype, pref = type_info(hv.fam, pt)
        used = re.search(r"(?<![A-Za-z0-9_])" + re.escape(pn) + r"(?![A-Za-z0-9_])", F.c_expr or "")
        decl = f"const {ctype} {pn}[{pref}]" if pkind == "array" else f"{ctype} {pn}"
        params.append({"name": pn, "ctype": ctype, "decl": decl, "used": bool(used)})
    _, rtype, _ = type_info(hv.fam, F.returns)
    return {"name": name, "params": params, "rtype": rtype, "body": F.c_expr,
            "doc": wrap(F.doc) if F.doc else [], "source": F.source,
            "formula": wrap(F.formula) if F.formula else [],
            "expr": wrap(F.expr_node.text)}


# -- reference page ------------------------------------------------------------------------------
def function_page(pv, F):
    params = []
    for pn, pt in F.params:
        pkind, ctype, pref = type_info(pv.fam, pt)
        params.append(f"const {ctype} {pn}[{pref}]" if pkind == "array" else f"{ctype} {pn}")
    return {"name": F.name, "cname": f"pmregs_{pv.name}_{F.name}", "doc": md_par(F.doc),
            "source": md(F.source), "formula": (F.formula or "").strip(),
            "expr": F.expr_node.text.strip(), "returns": type_info(pv.fam, F.returns)[1],
            "params": params}
