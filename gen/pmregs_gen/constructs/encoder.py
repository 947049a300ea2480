# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Event encoders: an event table, the ways an event can be placed on the
hardware, and the register values a placement writes, turned into generated C
that encodes, decodes and schedules events.

    encoders:
      NAME:
        title, doc, source
        table: EVENTS                   # one row per event
        place:                          # the choices that place an event, outermost first
          VAR: {from: SRC.COLUMN, doc}  # SRC is `event` or an earlier VAR; COLUMN is a
                                        # ref:<target>, ref:<target>[N] or set(ENUM) column
                                        # (or register fact) of SRC's row
        exclusive: [VAR, ...]           # no two requests of one pass share one of these
                                        # (default: every VAR)
        params:                         # what the caller chooses besides the event
          NAME: {type: bool | u8..u64 | ENUM, default: ..., doc}
        checks:                         # in order; the first whose `fail` holds is the error
          - {name, fail: EXPR, error: einval | erange | enoent | ebusy, doc}
        outputs:                        # the encoding: register addresses and values
          NAME: {type: u8..u64 | LAYOUT, expr: EXPR, doc}
        decode: [OUTPUT, ...]           # the outputs a decoder is given

Expressions are those of `functions` (expr.py) plus:

    event.COLUMN, VAR.COLUMN      a column (register fact) of that row; a ref column gives the
                                  row it names, so `counter.cccr.msr` follows two references
    PARAM                         a request parameter
    CONSTANT                      a family constant
    make(LAYOUT, f=x, ...)        a register value: the layout's must-be-1 bits plus fields f...

The generator lists every event's placements (one value per VAR) and gives
each exclusive (target, row) pair a resource bit for base.h's
pmregs_schedule(); both are emitted as constant data. A parameter passed
whole into a narrower field (`threshold=threshold` into 4 bits) gets an
implicit range check. The decoder recovers every parameter that a decoded
output takes whole into a field, takes the others from a template request,
and accepts the first (event, placement) whose encoding reproduces every
decoded output exactly.
"""

import ast

from ..cnames import Names, utype
from ..expr import U64, Compiler, ExprError, Val, _At, parse, type_info
from ..core import SCALAR_TYPES, SET_RE, field_value, mask_of, set_ctype
from ..ctext import comment_text, member, packed_struct, wrap
from ..mdtext import md, md_par
from ..yamlnode import Map

ERRORS = {"einval": "PMREGS_EINVAL", "erange": "PMREGS_ERANGE", "enoent": "PMREGS_ENOENT",
          "ebusy": "PMREGS_EBUSY"}
BUILTIN_CHECKS = (
    ("no_event", "PMREGS_ENOENT", "the event number is not a row of the event table"),
    ("no_place", "PMREGS_ENOENT", "no placement of the event agrees with the place values the request fixes"),
)
MAX_RESOURCES = 64
MAX_OPTIONS = 255


class Place:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.src = self.column = None
        self.kind = None                    # "table" (rows of fam table or `registers`) or "enum"
        self.target = None                  # table name / "registers", or the Enum
        self.is_list = False
        self.doc = ""


class Param:
    def __init__(self, name, ptype, node):
        self.name, self.type, self.node = name, ptype, node
        self.default = 0
        self.doc = ""
        self.names = None                   # the event table's bits column whose names set this param


class Check:
    def __init__(self, name, error, doc, node):
        self.name, self.error, self.doc, self.node = name, error, doc, node
        self.c_expr = None
        self.tree = None                    # the `fail` expression (ast), for evaluate.py-like checks below
        self.limit = None                   # (parameter, largest value) of an implicit range check
        self.level = "event"                # "event": independent of the placement; "option": not


class Output:
    def __init__(self, name, otype, node):
        self.name, self.type, self.node = name, otype, node
        self.doc = ""
        self.c_expr = None
        self.layout = None
        self.uses_params = True             # False: the output follows from the placement alone


class Encoder:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.table = None
        self.places = []
        self.exclusive = []
        self.params = []
        self.checks = []                    # implicit range checks first, then the spec's
        self.outputs = []
        self.decode = []
        self.options = []                   # per event row: [(values per place, resource mask)]
        self.resources = []                 # bit -> (target key, index)
        self.recover = []                   # (param, output, layout, field) for the decoder
        self.cols = {}                      # target -> the columns its C code reads (the compact tables)


# ---------------------------------------------------------------------------
# loading


def load_encoder(b, k, v):
    """Build one encoder from spec node v (b: the model Builder); errors go to b.diag."""
    r = b.r
    name = b.top_name(k, k.text, "encoder")
    m = r.mapping(v, f"encoder '{k.text}'")
    if name is None or m is None:
        return
    if not r.keys(m, f"encoder '{name}'", required=("table", "place", "outputs"),
                  optional=("title", "doc", "source", "exclusive", "params", "checks", "decode")):
        return
    E = Encoder(name, k)
    b.common(E, m, "encoder")
    tn = r.text(m.get("table"), "table")
    E.table = next((T for T in b.fam.tables if T.name == tn), None)
    if E.table is None:
        r.err(m.get("table"), "PMR030", f"table '{tn}' is not defined")
        return
    before = len(b.diag.errors)
    load_places(b, E, m.get("place"))
    load_params(b, E, m.get("params"))
    if len(b.diag.errors) > before:
        return
    enumerate_options(b, E, m)
    comp = EncCompiler(b.fam, E)
    for item in r.seq(m.get("checks"), "checks") or [] if m.get("checks") is not None else []:
        load_check(b, E, comp, item)
    om = r.mapping(m.get("outputs"), "outputs")
    for ok, ov in (om.pairs if om else []):
        load_output(b, E, comp, ok, ov)
    if len(b.diag.errors) > before:
        return
    implicit_checks(b, E, comp)
    if m.get("decode") is not None:
        for d in r.seq(m.get("decode"), "decode") or []:
            dn = r.text(d, "decoded output")
            O = next((o for o in E.outputs if o.name == dn), None)
            if O is None:
                r.err(d, "PMR030", f"'{dn}' is not an output of encoder '{name}'")
            elif O in E.decode:
                r.err(d, "PMR021", f"output '{dn}' is listed twice in decode")
            else:
                E.decode.append(O)
    E.recover = [(p, O, L, F) for p, O, L, F in comp.assigned if O in E.decode]
    seen, rec = set(), []
    for p, O, L, F in E.recover:
        if p.name not in seen and p.type != "enum" and b.fam.enum(p.type) is None:
            seen.add(p.name)
            rec.append((p, O, L, F))
    E.recover = rec
    if not refuse_unworkable(b, E, comp, m):
        return
    b.fam.encoders.append(E)


def reserved_names(E):
    return {"event", "r", "o", "out"} | {P.name for P in E.places} | {P.name for P in E.params}


def load_places(b, E, node):
    r = b.r
    m = r.mapping(node, "place")
    if m is None:
        return
    if not m.pairs:
        r.err(node, "PMR003", f"encoder '{E.name}' needs at least one place variable")
        return
    for k, v in m.pairs:
        pn = r.check_name(k, k.text, "place variable")
        pm = r.mapping(v, f"place variable '{k.text}'")
        if pn is None or pm is None or not r.keys(pm, f"place variable '{pn}'", required=("from",),
                                                   optional=("doc",)):
            continue
        if pn in ("event", "r", "o", "out") or any(P.name == pn for P in E.places):
            r.err(k, "PMR021", f"place variable '{pn}' is reserved or defined twice")
            continue
        P = Place(pn, k)
        P.doc = r.opt_text(pm, "doc", "doc")
        src = r.text(pm.get("from"), "from")
        if src is None:
            continue
        var, _, col = src.partition(".")
        if var == "event":
            kind, target = "table", E.table.name
        else:
            prev = next((x for x in E.places if x.name == var), None)
            if prev is None:
                r.err(pm.get("from"), "PMR030", f"'{var}' in '{src}' is neither 'event' nor an earlier place variable")
                continue
            if prev.kind != "table":
                r.err(pm.get("from"), "PMR030", f"'{var}' is an enum value; it has no columns")
                continue
            kind, target = prev.kind, prev.target
        meta = column_meta(b.fam, target, col)
        if meta is None:
            r.err(pm.get("from"), "PMR030", f"'{col}' is not a column of {target_what(target)}")
            continue
        ref = getattr(meta, "ref", None)
        sm = SET_RE.match(meta.type or "")
        if ref is not None:
            P.kind, P.target, P.is_list = "table", ref, "[" in meta.type
        elif sm:
            P.kind, P.target, P.is_list = "enum", b.fam.enum(sm.group(1)), True
        else:
            r.err(pm.get("from"), "PMR102", f"'{src}' is not a ref:<target> or set(enum) column,"
                  " so it names nothing to place the event on")
            continue
        P.src, P.column = var, col
        E.places.append(P)


def target_what(target):
    return "the registers" if target == "registers" else f"table '{target}'"


def column_meta(fam, target, col):
    """The Column (table) or Fact (registers) called col, or None."""
    if target == "registers":
        return next((F for F in fam.facts if F.name == col), None)
    T = next((T for T in fam.tables if T.name == target), None)
    return next((C for C in T.columns if C.name == col), None) if T else None


def target_rows(fam, target):
    if target == "registers":
        return [R.name for R in fam.registers]
    T = next(T for T in fam.tables if T.name == target)
    return [row[0] for row in T.rows]


def cell(fam, target, index, col):
    """The value of column col in row `index` of target (registers use facts and defaults)."""
    if target == "registers":
        R = fam.registers[index]
        F = next(F for F in fam.facts if F.name == col)
        return R.facts.get(col, F.default)
    T = next(T for T in fam.tables if T.name == target)
    return T.rows[index][3].get(col)


def load_params(b, E, node):
    r = b.r
    if node is None:
        return
    m = r.mapping(node, "params")
    for k, v in (m.pairs if m else []):
        pn = r.check_name(k, k.text, "parameter")
        pm = r.mapping(v, f"parameter '{k.text}'")
        if pn is None or pm is None or not r.keys(pm, f"parameter '{pn}'", required=("type",),
                                                   optional=("default", "doc", "names")):
            continue
        if pn in reserved_names(E):
            r.err(k, "PMR021", f"parameter '{pn}' is reserved, a place variable, or defined twice")
            continue
        if pn in b.constant_names:
            r.err(k, "PMR021", f"parameter '{pn}' has the name of a constant")
            continue
        t = r.text(pm.get("type"), "type")
        if t is None:
            continue
        enum = b.fam.enum(t)
        if t not in SCALAR_TYPES and enum is None:
            r.err(pm.get("type"), "PMR031", f"parameter type '{t}' is not bool, u8, u16, u32, u64 or an enum")
            continue
        P = Param(pn, t, k)
        P.doc = r.opt_text(pm, "doc", "doc")
        if pm.get("names") is not None:
            # names: event.COLUMN, a bits column of the event table whose bit names set this parameter
            src = r.text(pm.get("names"), "names")
            var, _, col = (src or "").partition(".")
            C = next((c for c in E.table.columns if c.name == col), None)
            if var != "event" or C is None or C.type != "bits" or t not in ("u8", "u16", "u32", "u64"):
                r.err(pm.get("names"), "PMR030", f"names '{src}' must be event.<bits column> of table"
                      f" '{E.table.name}', on an integer parameter")
                continue
            P.names = C
        dn = pm.get("default")
        if dn is not None:
            if enum is not None:
                dv = r.text(dn, "default")
                hit = [vv for vn, vv, _ in enum.values if vn == dv]
                if not hit:
                    r.err(dn, "PMR031", f"default '{dv}' is not a value of enum '{enum.name}'")
                    continue
                P.default = dv
            elif t == "bool":
                P.default = 1 if r.boolean(dn, "default") else 0
            else:
                dv = r.integer(dn, "default", 0, mask_of(SCALAR_TYPES[t]))
                if dv is None:
                    continue
                P.default = dv
        elif enum is not None:
            P.default = enum.values[0][0]
        E.params.append(P)


def refuse_unworkable(b, E, comp, m):
    """Located errors for an encoder that cannot work: an event table without rows, an event with no
    placement, a named bit that the parameter it sets cannot hold, and checks that refuse every event on
    every placement with the parameters at their defaults (and with each event's named bits). Returns
    True when none was found."""
    r = b.r
    before = len(b.diag.errors)
    rows = E.table.rows
    if not rows:
        r.err(m.get("table"), "PMR103", f"encoder '{E.name}': table '{E.table.name}' has no events")
        return False
    for (rn, _, _, _, node), opts in zip(rows, E.options):
        if not opts:
            srcs = ", ".join(f"{P.src}.{P.column}" for P in E.places)
            r.err(node, "PMR103", f"event '{rn}' of encoder '{E.name}' has no placement: {srcs} name nothing"
                  " to place it on")
    for P in E.params:
        if P.names is None:
            continue
        width = SCALAR_TYPES[P.type]
        dest = f"the {width}-bit parameter '{P.name}'"
        for p2, O, L, F in comp.assigned:
            if p2 is P and F.width < width:
                width, dest = F.width, f"the {F.width}-bit field {L.name}.{F.name} that parameter '{P.name}' is written to"
        for rn, _, _, vals, node in rows:
            bits = vals.get(P.names.name)
            for bn, bit, _ in (bits.bits if bits is not None else []):
                if bit >= width:
                    cell = node.get(P.names.name) if hasattr(node, "get") else None
                    r.err(cell if cell is not None else node, "PMR014", f"bit '{bn}' ({bit}) of event '{rn}' does not"
                          f" fit {dest}")
                    break
    if len(b.diag.errors) > before:
        return False
    blocked = EncEval(b.fam, E).blocking()
    if blocked is not None:
        C, rn = blocked
        named = " (or with its named bits)" if any(P.names is not None for P in E.params) else ""
        r.err(C.node, "PMR103", f"no event of encoder '{E.name}' can be encoded with the parameters at their"
              f" defaults{named}: check '{C.name}' refuses event '{rn}', and a check refuses every other event on"
              " every placement; change a default or the check")
        return False
    return True


class Unknown(Exception):
    """An expression the evaluator does not follow: the encoder gets the benefit of the doubt."""


M64 = (1 << 64) - 1


class EncEval:
    """The encoder's checks evaluated on the rows themselves, as the generated C evaluates them (64-bit
    unsigned arithmetic), to find out whether any event can be encoded at all."""

    def __init__(self, fam, E):
        self.fam, self.E = fam, E
        self.consts = {n: v for n, v, _, _ in fam.constants}

    def blocking(self):
        """(check, event name) that refuses the first event, when every event on every placement fails a
        check with the default parameters and, where a parameter takes named bits, with the event's named
        bits; None when one encodes (or an expression is beyond this evaluator)."""
        E = self.E
        first = None
        for ri, opts in enumerate(E.options):
            for vals, _ in opts:
                for params in self.attempts(ri):
                    try:
                        C = self.first_failing(ri, vals, params)
                    except Unknown:
                        return None
                    if C is None:
                        return None
                    if first is None:
                        first = (C, E.table.rows[ri][0])
        return first

    def attempts(self, ri):
        E = self.E
        base = {}
        for P in E.params:
            enum = self.fam.enum(P.type)
            if enum is not None:
                base[P.name] = ("enum", next(vv for vn, vv, _ in enum.values if vn == P.default))
            else:
                base[P.name] = int(P.default)
        out = [base]
        named = [P for P in E.params if P.names is not None]
        if named:
            alt = dict(base)
            for P in named:
                bits = E.table.rows[ri][3].get(P.names.name)
                alt[P.name] = (bits.mask if bits is not None else 0) & mask_of(SCALAR_TYPES[P.type])
            out.append(alt)
        return out

    def first_failing(self, ri, vals, params):
        E = self.E
        env = {"event": ("row", E.table.name, ri)}
        for P, v in zip(E.places, vals):
            env[P.name] = ("enum", v) if P.kind == "enum" else ("row", P.target, v)
        env.update(params)
        self.params = {P.name: P for P in E.params}
        for C in E.checks:
            if C.limit is not None:
                if params[C.limit[0]] > C.limit[1]:
                    return C
                continue
            if C.tree is None:
                raise Unknown()
            if self.truth(self.ev(C.tree, env)):
                return C
        return None

    # -- values: int, ("enum", v), ("row", target, index), ("layout", L, v) --------------------------
    def ev(self, node, env):
        f = getattr(self, "e_" + type(node).__name__, None)
        if f is None:
            raise Unknown()
        return f(node, env)

    def num(self, v):
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v & M64
        if isinstance(v, tuple) and v[0] == "layout":
            return v[2]
        raise Unknown()

    def truth(self, v):
        return self.num(v) != 0

    def e_Constant(self, node, env):
        if isinstance(node.value, (bool, int)):
            return int(node.value)
        raise Unknown()

    def e_Name(self, node, env):
        n = node.id
        if n in env:
            v = env[n]
            P = self.params.get(n)
            if P is not None and P.type == "bool" and isinstance(v, int):
                return int(v != 0)
            return v
        if n in self.consts:
            return self.consts[n]
        raise Unknown()

    def e_Attribute(self, node, env):
        base = node.value
        if isinstance(base, ast.Name) and base.id not in env:
            E = self.fam.enum(base.id)
            if E is not None:
                for vn, vv, _ in E.values:
                    if vn == node.attr:
                        return ("enum", vv)
            raise Unknown()
        v = self.ev(base, env)
        if isinstance(v, tuple) and v[0] == "row":
            _, target, index = v
            meta = column_meta(self.fam, target, node.attr)
            if meta is None:
                raise Unknown()
            val = cell(self.fam, target, index, node.attr)
            ref = getattr(meta, "ref", None)
            t = meta.type
            if ref is not None and "[" not in t:
                return ("row", ref, val)
            if t == "bits":
                return val.mask if val is not None else 0
            if t == "enum":
                return ("enum", val)
            if t == "bool":
                return int(bool(val))
            if t in ("u8", "u16", "u32", "u64") or SET_RE.match(t or ""):
                return int(val or 0)
            raise Unknown()
        if isinstance(v, tuple) and v[0] == "layout":
            F = v[1].field(node.attr)
            if F is None or F.signed:
                raise Unknown()
            x = 0
            for lo, w, off in F.part_shifts():
                x |= ((v[2] >> lo) & mask_of(w)) << off
            return x
        raise Unknown()

    def e_Subscript(self, node, env):
        x = self.num(self.ev(node.value, env))
        sl = node.slice
        if isinstance(sl, ast.Slice):
            hi, lo = self.num(self.ev(sl.lower, env)), self.num(self.ev(sl.upper, env))
            return (x >> lo) & mask_of(hi - lo + 1)
        return (x >> (self.num(self.ev(sl, env)) & 63)) & 1

    def e_BoolOp(self, node, env):
        vals = [self.truth(self.ev(v, env)) for v in node.values]
        return int(all(vals) if isinstance(node.op, ast.And) else any(vals))

    def e_UnaryOp(self, node, env):
        v = self.ev(node.operand, env)
        if isinstance(node.op, ast.Not):
            return int(not self.truth(v))
        if isinstance(node.op, ast.Invert):
            return ~self.num(v) & M64
        if isinstance(node.op, ast.USub):
            return -self.num(v) & M64
        raise Unknown()

    def e_BinOp(self, node, env):
        a, b = self.num(self.ev(node.left, env)), self.num(self.ev(node.right, env))
        op = type(node.op)
        if op in (ast.LShift, ast.RShift):
            b &= 63
            return (a << b) & M64 if op is ast.LShift else a >> b
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.BitAnd: lambda: a & b,
               ast.BitOr: lambda: a | b, ast.BitXor: lambda: a ^ b}
        if op not in ops:
            raise Unknown()
        return ops[op]() & M64

    def e_Compare(self, node, env):
        a, b = self.ev(node.left, env), self.ev(node.comparators[0], env)
        if isinstance(a, tuple) and a[0] == "enum" and isinstance(b, tuple) and b[0] == "enum":
            a, b = a[1], b[1]
        else:
            a, b = self.num(a), self.num(b)
        op = type(node.ops[0])
        ops = {ast.Eq: a == b, ast.NotEq: a != b, ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b}
        if op not in ops:
            raise Unknown()
        return int(ops[op])

    def e_IfExp(self, node, env):
        return self.ev(node.body if self.truth(self.ev(node.test, env)) else node.orelse, env)

    def e_Call(self, node, env):
        if not isinstance(node.func, ast.Name):
            raise Unknown()
        fname = node.func.id
        if fname == "make" and node.args and isinstance(node.args[0], ast.Name):
            L = self.fam.layout(node.args[0].id)
            if L is None:
                raise Unknown()
            v = L.res1_mask
            for kw in node.keywords:
                F = L.field(kw.arg)
                if F is None:
                    raise Unknown()
                x = self.num(self.ev(kw.value, env)) & mask_of(F.width)
                v = (v & ~F.mask) | field_value(F, x)
            return ("layout", L, v & mask_of(L.width))
        if fname in ("any", "all") and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            g = node.args[0]
            comp = g.generators[0]
            bounds = [self.num(self.ev(a, env)) for a in comp.iter.args]
            lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
            out = []
            for k in range(lo, hi):
                out.append(self.truth(self.ev(g.elt, dict(env, **{comp.target.id: k}))))
            return int(any(out) if fname == "any" else all(out))
        L = self.fam.layout(fname)
        if L is not None and len(node.args) == 1 and not any(f.name == fname for f in self.fam.functions):
            return ("layout", L, self.num(self.ev(node.args[0], env)) & mask_of(L.width))
        raise Unknown()


def enumerate_options(b, E, m):
    fam = b.fam
    excl = [P.name for P in E.places]
    if m.get("exclusive") is not None:
        excl = []
        for x in b.r.seq(m.get("exclusive"), "exclusive") or []:
            xn = b.r.text(x, "exclusive")
            if not any(P.name == xn for P in E.places):
                b.r.err(x, "PMR030", f"'{xn}' is not a place variable of encoder '{E.name}'")
            else:
                excl.append(xn)
    E.exclusive = excl
    bits = {}
    rows = E.table.rows
    for ri in range(len(rows)):
        opts = []

        def walk(depth, chosen):
            if len(opts) > MAX_OPTIONS:
                return                   # already too many: the bound is checked as the list grows
            if depth == len(E.places):
                res = 0
                for P, val in zip(E.places, chosen):
                    if P.name in excl:
                        key = (P.target.name if P.kind == "enum" else P.target, val)
                        if key not in bits:
                            bits[key] = len(bits)
                        res |= 1 << bits[key]
                opts.append((tuple(chosen), res))
                return
            P = E.places[depth]
            if P.src == "event":
                src_target, src_index = E.table.name, ri
            else:
                si = [x.name for x in E.places].index(P.src)
                src_target, src_index = E.places[si].target, chosen[si]
            val = cell(fam, src_target, src_index, P.column)
            if P.kind == "enum":
                vals = [vv for _, vv, _ in P.target.values if (val or 0) >> vv & 1]
            elif P.is_list:
                vals = list(val or [])
            else:
                vals = [val]
            for x in vals:
                walk(depth + 1, chosen + [x])

        walk(0, [])
        if len(opts) > MAX_OPTIONS:
            b.r.err(rows[ri][4], "PMR101", f"event '{rows[ri][0]}' has more than {MAX_OPTIONS} placements;"
                    f" an encoder allows at most {MAX_OPTIONS}")
        E.options.append(opts)
    if len(bits) > MAX_RESOURCES:
        b.r.err(m.get("exclusive") or m.get("place"), "PMR100",
                f"encoder '{E.name}' needs {len(bits)} exclusive resources; pmregs_schedule() has {MAX_RESOURCES}")
    E.resources = sorted(bits, key=lambda key: bits[key])


def load_check(b, E, comp, item):
    r = b.r
    cm = r.mapping(item, "a check")
    if cm is None or not r.keys(cm, "a check", required=("name", "fail", "error"), optional=("doc",)):
        return
    cn = r.name(cm.get("name"), "check name")
    err = r.choice(cm.get("error"), "error", tuple(ERRORS))
    if cn is None or err is None:
        return
    if cn in (c[0] for c in BUILTIN_CHECKS) or any(c.name == cn for c in E.checks):
        r.err(cm.get("name"), "PMR021", f"check '{cn}' is built in or defined twice")
        return
    C = Check(cn, ERRORS[err], r.opt_text(cm, "doc", "doc"), cm.get("name"))
    if r.scalar(cm.get("fail"), "fail") is None:
        return
    C.fail_text = cm.get("fail").text.strip()           # for the reference pages
    res = compile_expr(b, comp, cm.get("fail"), f"check '{cn}'", lambda v, n: comp.truth(v, n))
    if res is None:
        return
    C.c_expr, used = res
    C.tree = comp.last_tree
    C.level = "option" if used else "event"
    E.checks.append(C)


def load_output(b, E, comp, k, v):
    r = b.r
    on = r.check_name(k, k.text, "output")
    om = r.mapping(v, f"output '{k.text}'")
    if on is None or om is None or not r.keys(om, f"output '{on}'", required=("type", "expr"), optional=("doc",)):
        return
    if on in ("event", "check", "pass") or any(P.name == on for P in E.places) or \
            any(o.name == on for o in E.outputs):
        r.err(k, "PMR021", f"output '{on}' is reserved, a place variable, or defined twice")
        return
    t = r.text(om.get("type"), "type")
    L = b.fam.layout(t) if t else None
    if t is None or (t not in ("u8", "u16", "u32", "u64") and L is None):
        r.err(om.get("type"), "PMR031", f"output type '{t}' is not u8, u16, u32, u64 or a layout")
        return
    O = Output(on, t, k)
    O.layout = L
    O.doc = r.opt_text(om, "doc", "doc")
    if r.scalar(om.get("expr"), "expr") is None:
        return
    O.expr_text = om.get("expr").text.strip()           # for the reference pages
    comp.current_output = O
    res = compile_expr(b, comp, om.get("expr"), f"output '{on}'", lambda v, n: comp.to_type(v, t, n))
    comp.current_output = None
    if res is None:
        return
    O.c_expr = res[0]
    O.uses_params = bool(comp.used_params)
    E.outputs.append(O)


def implicit_checks(b, E, comp):
    """A parameter put whole into a narrower field must fit it: PMREGS_ERANGE otherwise."""
    narrow = {}
    for p, O, L, F in comp.assigned:
        pw = 1 if p.type == "bool" else SCALAR_TYPES.get(p.type, 0)
        if pw and F.width < pw:
            prev = narrow.get(p.name)
            if prev is None or F.width < prev[2].width:
                narrow[p.name] = (p, L, F)
    implicit = []
    for p, L, F in narrow.values():
        cn = f"{p.name}_range"
        if any(c.name == cn for c in E.checks):
            b.r.err(p.node, "PMR021", f"check '{cn}' would clash with the implicit range check of '{p.name}'")
            continue
        C = Check(cn, "PMREGS_ERANGE", f"{p.name} does not fit the {F.width}-bit field {L.name}.{F.name}", p.node)
        C.c_expr = f"(r->{p.name} > {mask_of(F.width):#x}u)"
        C.limit = (p.name, mask_of(F.width))
        implicit.append(C)
    E.checks = implicit + E.checks


def compile_expr(b, comp, scalar, what, finish):
    """Compile one expression; returns (C text, uses a place variable) or None after reporting."""
    text = scalar.text
    try:
        tree = parse(text.strip() if not scalar.block else "(" + text + ")")
    except SyntaxError as e:
        b.diag.error(_At(scalar, e.lineno or 1, (e.offset or 1) - 1), getattr(e, "pmr", "PMR040"),
                     f"expression: {e.msg}")
        return None
    comp.used_places = set()
    comp.used_params = set()
    try:
        v = comp.compile(tree.body)
        code = finish(v, tree.body)
    except ExprError as e:
        lead = len(text) - len(text.lstrip()) if not scalar.block else -1
        b.diag.error(_At(scalar, getattr(e.node, "lineno", 1), getattr(e.node, "col_offset", 0) + lead),
                     e.code, f"in {what} of encoder '{comp.enc.name}': {e.msg}")
        return None
    comp.last_tree = tree.body
    return code, bool(comp.used_places)


class _Stub:
    def __init__(self, name):
        self.name = name
        self.params = []


class EncCompiler(Compiler):
    """The expression compiler with rows, parameters, constants and make()."""

    def __init__(self, fam, enc):
        self.fam, self.fn, self.enc = fam, _Stub(enc.name), enc
        self.n = Names(fam)
        self.params = {}
        self.funcs = {f.name: f for f in fam.functions}
        self.used_places = set()
        self.used_params = set()
        self.assigned = []                  # (Param, Output, Layout, Field): param put whole into a field
        self.current_output = None

    def c_BoolOp(self, node):
        # An encoder tests its checks with branches anyway (it returns at the first that fails): plain && and
        # || read shorter than the branch-free (int) & / | of match functions, and compile to the same.
        op = " && " if isinstance(node.op, ast.And) else " || "
        return Val("(" + op.join(self.truth(self.compile(v), v) for v in node.values) + ")", "bool", "int")

    # a row value: code is a C pointer expression, ref is ("table", target)
    def row(self, code, target):
        return Val(code, "row", None, ("table", target))

    def c_Name(self, node):
        E, n = self.enc, node.id
        if n == "event":
            return self.row("row_event", E.table.name)
        for P in E.places:
            if P.name == n:
                self.used_places.add(n)
                if P.kind == "enum":
                    return Val(f"row_{n}", "enum", self.n.enum_type(P.target), P.target)
                return self.row(f"row_{n}", P.target)
        for P in E.params:
            if P.name == n:
                self.used_params.add(n)
                enum = self.fam.enum(P.type)
                if enum is not None:
                    return Val(f"r->{n}", "enum", self.n.enum_type(enum), enum)
                if P.type == "bool":
                    return Val(f"(r->{n} != 0)", "bool", "int")
                return Val(f"r->{n}", "int", utype(SCALAR_TYPES[P.type]))
        for cn, _, _, _ in self.fam.constants:
            if cn == n:
                return Val(self.n.mac(cn), "int", "const")
        self.fail(node, "PMR041", f"'{n}' is not 'event', a place variable, a parameter nor a constant")

    def c_Attribute(self, node):
        base = node.value
        if isinstance(base, ast.Name):
            E = self.fam.enum(base.id)
            if E is not None and any(vn == node.attr for vn, _, _ in E.values):
                return Val(self.n.enum_value(E, node.attr), "enum", self.n.enum_type(E), E)
        v = self.compile(base)
        if v.kind == "row":
            return self.column(node, v)
        if v.kind == "layout":
            F = v.ref.field(node.attr)
            if F is None:
                self.fail(node, "PMR041", f"layout '{v.ref.name}' has no field '{node.attr}'")
            return Val(f"{self.n.accessor(v.ref, F, 'get')}({v.code})", "int", f"uint{v.ref.width}_t")
        self.fail(node, "PMR042", f"'.{node.attr}' needs a row or a register value, not a {v.kind}")

    def column(self, node, v):
        target = v.ref[1]
        meta = column_meta(self.fam, target, node.attr)
        if meta is None:
            self.fail(node, "PMR041", f"'{node.attr}' is not a column of {target_what(target)}")
        code = f"{v.code}->{node.attr}"
        t = meta.type
        ref = getattr(meta, "ref", None)
        if t != "str" and (ref is None or "[" not in t):
            self.enc.cols.setdefault(target, set()).add(node.attr)
        if ref is not None and "[" not in t:
            self.enc.cols.setdefault(ref, set())
            return self.row(f"(&{facts_fn(self.n, self.enc, ref)}()[{code}])", ref)
        if t == "bool":
            return Val(f"({code} != 0)", "bool", "int")
        if t == "bits":
            return Val(code, "int", U64)
        if t in ("u8", "u16", "u32", "u64"):
            return Val(code, "int", utype(SCALAR_TYPES[t]))
        if SET_RE.match(t or ""):
            return Val(code, "int", "uint64_t" if "64" in t else "set")
        enum = getattr(meta, "enum", None)
        if t == "enum" and enum is not None:
            return Val(code, "enum", self.n.enum_type(enum), enum)
        self.fail(node, "PMR042", f"column '{node.attr}' ({t}) cannot be used in an expression")

    def table(self, name):
        return next(T for T in self.fam.tables if T.name == name)

    def c_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "make":
            return self.make(node)
        return super().c_Call(node)

    def make(self, node):
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Name):
            self.fail(node, "PMR042", "make(layout, field=value, ...) takes a layout name and field=value pairs")
        L = self.fam.layout(node.args[0].id)
        if L is None:
            self.fail(node.args[0], "PMR041", f"'{node.args[0].id}' is not a layout")
        T = f"uint{L.width}_t"
        code = self.n.layout_macro(L, "res1_mask")
        terms = []      # contiguous unsigned fields of a 32/64-bit layout: OR-ed in (no field overlaps another
                        # nor the must-be-1 bits), one shift and mask each instead of a nested _set() call
        for kw in node.keywords:
            F = L.field(kw.arg) if kw.arg else None
            if F is None or F.is_reserved:
                self.fail(kw.value, "PMR041", f"layout '{L.name}' has no settable field '{kw.arg}'")
            x = self.u64(self.compile(kw.value), kw.value)
            if L.width != 64:
                x = f"(({T})({x}))"
            if L.width in (32, 64) and F.contiguous and not F.signed:
                m = mask_of(F.width)
                t = x if F.width == L.width else \
                    f"({x} & {m:#x}u)" if m <= 0xFFFFFFFF else f"({x} & PMREGS_U64({m:#x}))"
                terms.append(f"({t} << {F.shift})" if F.shift else t)
            else:
                code = f"{self.n.accessor(L, F, 'set')}({code}, {x})"
            if isinstance(kw.value, ast.Name) and self.current_output is not None:
                P = next((p for p in self.enc.params if p.name == kw.value.id), None)
                if P is not None:
                    self.assigned.append((P, self.current_output, L, F))
        if terms:
            code = "(" + " | ".join([code] + terms) + ")"
        return Val(code, "layout", T, L)


# ---------------------------------------------------------------------------
# the view the template renders


def encoder_view(hv, E):
    """Names, declarations and data for gen/templates/encoder.h.j2 (hv: the HeaderView)."""
    fam, n = hv.fam, hv.n
    S = lambda name, what: hv.sym.add(name, E.node, what)   # noqa: E731
    what = f"encoder '{E.name}'"
    T = E.table
    base = n.fn(E.name)
    mac = n.mac(E.name)
    e = {
        "E": E, "name": E.name, "title": E.title or E.name, "doc": wrap_doc(E.doc), "source": E.source,
        "req": f"struct {S(base + '_request', what)}",
        "enc": f"struct {S(base + '_encoding', what)}",
        "opt": f"struct {S(base + '_option', what)}",
        "work": f"struct {S(base + '_work', what)}",
        "init": S(base + "_request_init", what),
        "index": S(base + "_index", what),
        "find": S(base + "_find", what),        # the name of _index before 0.2.0: a deprecated alias
        "options": S(base + "_options", what),
        "encode_option": S(base + "_encode_option", what),
        "encode": S(base + "_encode", what),
        "decode": S(base + "_decode", what),
        "schedule": S(base + "_schedule", what),
        "check_name": S(base + "_check_name", what),
        "check_doc": S(base + "_check_doc", what),
        "check_error": S(base + "_check_error", what),
        "allowed": S(base + "_option_allowed", what),
        "table_fn": n.table_fn(T), "table_find": n.table_fn(T, "find"), "row_struct": f"struct {n.table_fn(T, 'row')}",
        "table_count": n.table_macro(T, "count"),
        "max_options": S(mac + "_MAX_OPTIONS", what),
        "max_options_v": max([len(o) for o in E.options] + [1]),
        "resources_macro": S(mac + "_RESOURCES", what),
        "resources_v": len(E.resources),
        "checks_macro": S(mac + "_CHECKS", what),
    }
    facts = facts_view(hv, E, e, S, what)
    e["facts"] = [f for f in facts.values() if f is not None]
    ev = facts[T.name]
    # the event's row: a pointer into the compact table, or just the index when no column of it is read
    e["event_ptype"], e["event_init"] = (f"const {ev['struct']} *", f"&{ev['fn']}()[r->event]") if ev else \
        ("unsigned ", "r->event")
    places = []
    for P in E.places:
        if P.kind == "enum":
            ptype, init = f"{n.enum_type(P.target)} ", f"({n.enum_type(P.target)})o->{P.name}"
            domain = [(vn, vv) for vn, vv, _ in P.target.values]
        else:
            pf = facts[P.target]
            ptype, init = (f"const {pf['struct']} *", f"&{pf['fn']}()[o->{P.name}]") if pf else \
                ("unsigned ", f"o->{P.name}")
            names = target_rows(fam, P.target)
            domain = [(names[i], i) for i in range(len(names))]
        i = E.places.index(P)
        used = sorted({opt[0][i] for opts in E.options for opt in opts})
        what_p = f"place variable '{P.name}' of {what}"
        macros = [(S(n.mac(E.name, P.name, dn), what_p), dv, "") for dn, dv in domain if dv in used]
        places.append({"name": P.name, "doc": P.doc, "ptype": ptype, "init": init, "macros": macros,
                       "target": "registers" if P.target == "registers" else
                       (f"table {P.target}" if P.kind == "table" else f"enum {P.target.name}")})
    e["places"] = places
    params = []
    for P in E.params:
        enum = fam.enum(P.type)
        if enum is not None:
            decl, dflt = n.enum_type(enum), n.enum_value(enum, P.default)
        elif P.type == "bool":
            decl, dflt = "uint8_t", str(P.default)
        else:
            decl, dflt = utype(SCALAR_TYPES[P.type]), f"{P.default:#x}"
        params.append({"name": P.name, "decl": decl, "default": dflt, "doc": P.doc,
                       "names": P.names.name if P.names else None,
                       "names_find": n.table_fn(T, P.names.name, "find") if P.names else None})
    e["params"] = params
    e["named"] = [p for p in params if p["names"]]
    if e["named"]:
        e["parse"] = S(base + "_parse", what)
        e["snprint"] = S(base + "_snprint", what)
    checks = []
    for i, (cn, err, doc) in enumerate(BUILTIN_CHECKS):
        checks.append({"name": cn, "macro": S(n.mac(E.name, "check", cn), what), "index": i,
                       "error": err, "doc": doc, "c_expr": None, "level": "builtin"})
    for C in E.checks:
        checks.append({"name": C.name, "macro": S(n.mac(E.name, "check", C.name), f"check '{C.name}'"),
                       "index": len(checks), "error": C.error, "doc": C.doc, "c_expr": C.c_expr,
                       "level": C.level})
    e["checks"] = checks
    e["check_macros"] = [(c["macro"], c["index"], c["doc"]) for c in checks]
    outputs = []
    for O in E.outputs:
        W = O.layout.width if O.layout else SCALAR_TYPES[O.type]
        outputs.append({"name": O.name, "decl": utype(W), "doc": O.doc, "c_expr": O.c_expr,
                        "layout": O.layout.name if O.layout else None,
                        "decoded": O in E.decode, "placement_only": not O.uses_params})
    e["outputs"] = outputs
    e["decoded"] = [o for o in outputs if o["decoded"]]
    rec = []
    for P, O, L, F in E.recover:
        get = f"{n.accessor(L, F, 'get')}(in->{O.name})"
        if P.type == "bool":
            rec.append((P.name, f"(uint8_t)({get} != 0)"))
        else:
            rec.append((P.name, f"({utype(SCALAR_TYPES[P.type])}){get}"))
    e["recover"] = rec
    # option data: flattened, with the first option of each event
    # events with the same placements share one run of the option data
    flat, first, count, runs = [], [], [], {}
    for opts in E.options:
        key = tuple(opts)
        if key not in runs:
            runs[key] = len(flat)
            flat += opts
        first.append(runs[key])
        count.append(len(opts))
    e["flat"] = [{"vals": list(vals), "res": f"{res:#x}u" if res >> 32 == 0 else f"PMREGS_U64({res:#x})"}
                 for vals, res in flat]
    # the request, encoding and option structs, members in decreasing size (no padding between them)
    req = [member("uint16_t ", "event", f"row of {e['table_fn']}()")]
    req += [member("int16_t ", p["name"], f"-1, or the {p['name']} to use ({p['target']})"
                   + (f": {comment_text(p['doc'])}" if p["doc"] else "")) for p in places]
    req += [member(p["decl"] + " ", p["name"], f"{comment_text(p['doc'])} (default {p['default']})") for p in params]
    e["req_members"], _ = packed_struct(req, [])
    enc = [member("uint16_t ", "event", "the event encoded")]
    enc += [member("int16_t ", p["name"], f"the {p['name']} chosen ({p['target']})") for p in places]
    enc += [member("int16_t ", "check", f"on failure: the check that failed ({e['checks_macro']} values); -1 on success"),
            member("int16_t ", "pass", f"{e['schedule']}(): the 0-based pass; 0 otherwise")]
    enc += [member(o["decl"] + " ", o["name"], comment_text(o["doc"]) + (f" (layout {o['layout']})" if o["layout"] else ""))
            for o in outputs]
    e["enc_members"], _ = packed_struct(enc, [])
    opt = [member("uint16_t ", p["name"]) for p in places] + [member("uint64_t ", "resources", "bit r: exclusive resource r")]
    opt, cells = packed_struct(opt, [list(o["vals"]) + [o["res"]] for o in e["flat"]])
    e["opt_members"] = opt
    for o, c in zip(e["flat"], cells):
        o["init"] = ", ".join(str(x) for x in c)
    e["first"] = first
    e["count"] = count
    e["nflat"] = len(flat)
    e["resources"] = [(i, key[0], res_name(fam, key)) for i, key in enumerate(E.resources)]
    e["macros"] = [(e["max_options"], e["max_options_v"], "most placements one event has"),
                   (e["resources_macro"], e["resources_v"], "exclusive resources (scheduler bits) in use"),
                   (e["checks_macro"], len(checks), "checks, built-in ones included")]
    return e


def facts_fn(n, E, target):
    """The function that returns encoder E's compact table of target (its rows, only the columns the
    encoder's C code reads)."""
    return f"{n.fn(E.name)}_{target}_facts"


def facts_view(hv, E, e, S, what):
    """The compact tables of encoder E: per target (the event table, each place's table or the registers)
    a struct of the numeric columns its checks and outputs read, and the rows up to the last one an
    option or a column refers to. The named tables themselves (strings, descriptions) are for tools."""
    fam, n = hv.fam, hv.n
    targets = [E.table.name] + [P.target for P in E.places if P.kind == "table"] + list(E.cols)
    targets = list(dict.fromkeys(targets))
    need = {t: 0 for t in targets}
    need[E.table.name] = len(E.table.rows)
    for i, P in enumerate(E.places):
        if P.kind == "table":
            need[P.target] = max([need[P.target]] + [opt[0][i] + 1 for opts in E.options for opt in opts])
    out = {}
    for t in targets:
        used = E.cols.get(t, set())
        metas = fam.facts if t == "registers" else table_of(fam, t).columns
        cols = [M for M in metas if M.name in used]
        for M in cols:
            if getattr(M, "ref", None) is not None:     # a row this one refers to is needed too
                nrows = len(fam.registers) if t == "registers" else len(table_of(fam, t).rows)
                vals = [cell(fam, t, r, M.name) for r in range(nrows)]
                need[M.ref] = max([need.get(M.ref, 0)] + [x + 1 for x in vals if x is not None])
    for t in targets:
        used = E.cols.get(t, set())
        metas = fam.facts if t == "registers" else table_of(fam, t).columns
        cols = [M for M in metas if M.name in used]
        if not cols:
            out[t] = None
            continue
        members = [member(fact_decl(fam, n, M) + " ", M.name) for M in cols]
        members, cells = packed_struct(members, [[fact_value(fam, n, M, cell(fam, t, r, M.name)) for M in cols]
                                                 for r in range(need[t])])
        decls = members
        rows = [", ".join(c) for c in cells]
        fn = S(facts_fn(n, E, t), what)
        out[t] = {"target": t, "struct": f"struct {S(fn + '_row', what)}", "fn": fn, "decls": decls, "rows": rows,
                  "what": "the registers" if t == "registers" else f"table {t}"}
    return out


def fact_decl(fam, n, M):
    t = M.type
    if t == "bool":
        return "uint8_t"
    if t == "bits":
        return "uint64_t"
    if SET_RE.match(t):
        return set_ctype(fam, t)
    if t == "enum":
        return n.enum_type(M.enum)
    return f"uint{t[1:]}_t"


def fact_value(fam, n, M, val):
    t = M.type
    if t == "bool":
        return "1" if val else "0"
    if t == "bits":
        return f"{(val.mask if val is not None else 0):#x}"
    if t == "enum":
        return n.enum_value(M.enum, next(vn for vn, vv, _ in M.enum.values if vv == val))
    if SET_RE.match(t):
        return f"{(val or 0):#x}u"
    return f"{(val or 0):#x}"


def table_of(fam, name):
    return next(T for T in fam.tables if T.name == name)


def res_name(fam, key):
    target, val = key
    if target == "registers":
        return fam.registers[val].name
    T = next((T for T in fam.tables if T.name == target), None)
    if T is not None:
        return T.rows[val][0]
    E = fam.enum(target)
    return next(vn for vn, vv, _ in E.values if vv == val)


def wrap_doc(text):
    return wrap(text) if text else []


# -- reference page -----------------------------------------------------------------------------

def encoder_page(pv, E):
    return {"name": E.name, "title": md(E.title or E.name), "doc": md_par(E.doc), "source": md(E.source),
            "table": E.table.name,
            "places": [{"name": P.name, "from": f"{P.src}.{P.column}", "doc": md(P.doc)} for P in E.places],
            "params": [{"name": P.name, "type": P.type if isinstance(P.type, str) else getattr(P.type, "name", ""),
                        "default": P.default, "doc": md(P.doc)} for P in E.params],
            "checks": [{"name": C.name, "fail": getattr(C, "fail_text", ""), "error": C.error,
                        "doc": md(C.doc)} for C in E.checks if getattr(C, "fail_text", "")],
            "outputs": [{"name": O.name, "type": O.type, "expr": getattr(O, "expr_text", ""), "doc": md(O.doc),
                         "link": pv.layout_links.get(O.type, "")} for O in E.outputs]}


# -- construct interface (constructs/__init__.py) -----------------------------------------------
NAME = "encoder"
KEYS = ("encoders",)
HEADER, SELFTEST, PAGE = "encoder.h.j2", "encoder_selftest.c.j2", "encoder.md.j2"
CONTENTS = (("Encoders", "encoders"),)


def load(b, m):
    b.section(m, "encoders", lambda k, v: load_encoder(b, k, v))
    b.diag.check()


def view(hv):
    hv.encoders = [encoder_view(hv, E) for E in hv.fam.encoders]
    if hv.encoders:
        hv.uses |= {"base_schedule.h"}      # the printer and name lookups (base_desc.h) are in FAMILY_tools.h


def page(pv):
    pv.encoders = [encoder_page(pv, E) for E in pv.fam.encoders]


