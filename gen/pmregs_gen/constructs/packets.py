# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Run-time parameters, bit-packed packets and packet streams.

Spec sections handled here (all optional):

    params:        name -> {default, min, max, doc, source}; a struct of run-time
                   parameters with defaults, legal ranges and a checker
    param_checks:  [{expr, doc}] conditions every legal parameter set meets
    param_presets: name -> {doc, source, values: {param: value}}; named parameter
                   sets (the others at their defaults)
    widths:        name -> {expr, args?, doc, source}; named width expressions
    packets:       name -> a packet: shared field definitions and `shapes`, each
                   an ordered field list (first field sent first, LSB first)
    streams:       name -> a frame packet carrying a payload packet, walked
                   through a byte buffer with zero-run re-synchronisation;
                   optional fast_if: "field == value and ...", the frame
                   fields' values of the common packet, which the readers try
                   first with one test of the header (payload_if's fields of
                   that form join them)

Expressions use Python syntax (parsed with `ast`, like the function language in
expr.py) over parameters, named widths and fields sent earlier in the shape.
Each field of a shape is

    name, width (expression), is (the values that select this shape: a value,
    a named value or "lo..hi"), values, doc, source,
    differential: true  -- asserted when the raw bit differs from the bit sent
                           just before it (semantic view)
    reported_if: expr   -- meaningful only when expr holds (over semantic
                           values); otherwise every bit repeats the bit before
    implied: expr       -- the value a zero-width field stands for
    value: expr         -- computed by the encoder (frames: may use rest_bits)
    rest: true          -- the remaining bits of a frame (its payload)

A packet either has `compression: sign` (sign-based compression: the encoder
drops the top run of identical bits, the decoder sign-extends) or a `size`
expression in bytes (a frame). The decoder reads the fields in order and
switches on discriminating fields exactly as far as the shapes require; the
generator checks that the shapes can always be told apart.

A sign-compressed packet may list `merge: [[shape, shape...]...]`: shapes that a
field tells apart (each chosen by different values of it) whose later fields
are each one width expression wherever they appear, in one order. The word
decoder reads such a group on one path, without a branch on that field: a
field that some of them lack is read 0 bits wide (and stored as 0) in those,
so every later position follows arithmetically. A later `is` of one of them
that does not hold sends the packet to the decision tree as before. Where the
telling field and the constant-width fields after it fit in 8 bits and a later
field's width depends on them alone (E-Trace: format, branches, then
branch_map), one table keyed on those bits says whether the group takes the
packet, which shape it is, those fields' values and the later fields'
positions and masks.
"""

import ast
import copy
import itertools
import math
import re

from ..cnames import small_utype
from ..core import MAX_SHAPE_FIELDS
from ..ctext import comment_text, member, packed_struct
from ..mdtext import md, md_par
from ..expr import ExprError, _At, parse
from ..yamlnode import Scalar, parse_int

MAXW = 64
M64 = (1 << 64) - 1
MAX_WIDTH_DEPTH = 16        # named widths used inside named widths, one inside the other
MAX_RESYNC = 1024           # zero bytes a stream resynchronises on, at most


class Param:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.doc = self.source = ""
        self.default = self.min = self.max = 0


class PExpr:
    """A parsed expression with the scalar it came from (for located errors)."""

    def __init__(self, scalar, tree):
        self.scalar, self.tree = scalar, tree
        self.text = scalar.text.strip()

    def at(self, node):
        lead = len(self.scalar.text) - len(self.scalar.text.lstrip())
        return _At(self.scalar, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + lead)

    @property
    def const(self):
        t = self.tree
        if isinstance(t, ast.Constant) and isinstance(t.value, int) and not isinstance(t.value, bool):
            return t.value
        return None


class Width:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.doc = self.source = ""
        self.args = []
        self.expr = None
        self.param_only = True


class PField:
    KEYS = ("width", "is", "values", "doc", "source", "differential", "reported_if", "implied", "value", "rest")

    def __init__(self, name, node):
        self.name, self.node = name, node
        self.width = None          # PExpr
        self.is_set = None         # [(lo, hi)] or None
        self.is_node = None
        self.values = []           # [(name, value, doc)]
        self.doc = self.source = ""
        self.differential = False
        self.reported_if = None    # PExpr
        self.implied = None        # PExpr
        self.value = None          # PExpr
        self.rest = False
        self.max_width = 0
        self.min_width = 0


class Shape:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.doc = self.source = ""
        self.fields = []


class Packet:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.compression = None    # "sign" or None
        self.max_bytes = None
        self.size = None           # PExpr (frames)
        self.pad = "sign"
        self.defs = {}             # name -> raw mapping node of the shared definition
        self.shapes = []
        self.members = []          # [(name, max width)] in first-seen order
        self.tree = None
        self.max_bits = 0
        self.rest = None           # name of the rest field
        self.merges = []           # [{"node": Switch, "members": [(set, Shape)], "fields": [name]}]

    @property
    def is_frame(self):
        return self.size is not None


class Stream:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.doc = self.source = ""
        self.frame = self.payload = None
        self.payload_if = None
        self.resync = None
        self.fast_if = None        # PExpr: "field == value and ..." of the common packet


# ---- the decision tree ------------------------------------------------------------

class Read:
    def __init__(self, index, child):
        self.index, self.child = index, child


class Switch:
    def __init__(self, index, cases):
        self.index, self.cases = index, cases      # [(set, subtree)]


class Leaf:
    def __init__(self, shape, index):
        self.shape, self.index = shape, index


# PMREGS_INPLACE_SLACK of base_inplace.h: bytes an in-place reader may load past the last received one.
INPLACE_SLACK = 16
# The decoders read a packet's first HEAD_BITS bits once (`head`); fields that always end within them come from there.
HEAD_BITS = 57
# A sign-compressed payload's decoder reads its first WINDOW_BITS bits once, sign-filled (pmregs_ip_window()).
WINDOW_BITS = 128


def _supersequence(a, b):
    """The shortest list that has both a and b as subsequences (a's items first where either could go)."""
    n, m = len(a), len(b)
    t = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            t[i][j] = t[i + 1][j + 1] + 1 if a[i] == b[j] else max(t[i + 1][j], t[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif t[i + 1][j] >= t[i][j + 1]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


def set_text(s):
    return ", ".join(str(lo) if lo == hi else f"{lo}..{hi}" for lo, hi in s)


def sets_overlap(a, b):
    return any(not (ah < bl or bh < al) for al, ah in a for bl, bh in b)


# ---- expressions: names, ranges and C ------------------------------------------------

class Scope:
    """What names mean inside one expression."""

    def __init__(self, fam, fields=None, args=None, extra=None, semantic=None):
        self.fam = fam
        self.fields = fields or {}      # field name -> PField sent earlier
        self.args = args or {}          # width-function argument -> (lo, hi)
        self.extra = extra or {}        # special names (rest_bits) -> (lo, hi)
        self.semantic = semantic or set()


class ExprTool:
    BIN = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "/", ast.Mod: "%",
           ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
    CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}

    def __init__(self, fam):
        self.fam = fam
        self.branchless = False     # c(): conditions as masks, not branches (merged shapes' widths)
        self.known = {}             # c(): field name -> (lo, hi) that a shape's `is` guarantees

    # -- checking + interval analysis ------------------------------------------------
    def rng(self, e, node, scope):
        """(lo, hi) the expression can take; raises ExprError for unknown names or bad syntax."""
        f = getattr(self, "r_" + type(node).__name__, None)
        if f is None:
            raise ExprError(node, "PMR040", f"'{type(node).__name__}' is not part of the width expression language")
        return f(e, node, scope)

    def r_Constant(self, e, node, scope):
        if isinstance(node.value, bool) or not isinstance(node.value, int) or node.value < 0:
            raise ExprError(node, "PMR042", f"constant {node.value!r} is not a non-negative integer")
        return (node.value, node.value)

    def r_Name(self, e, node, scope):
        n = node.id
        if n in scope.args:
            return scope.args[n]
        if n in scope.extra:
            return scope.extra[n]
        if n in scope.fields:
            F = scope.fields[n]
            if n in scope.semantic and F.differential:
                return (0, 1)
            return (0, (1 << F.max_width) - 1)
        P = self.fam.param_map.get(n)
        if P is not None:
            return (P.min, P.max)
        W = self.fam.width_map.get(n)
        if W is not None and not W.args:
            return W.range
        raise ExprError(node, "PMR041", f"'{n}' is not a parameter, a named width or a field sent earlier")

    def r_Call(self, e, node, scope):
        W = self.fam.width_map.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if W is None or not W.args:
            raise ExprError(node, "PMR041", "only named widths with arguments can be called")
        if node.keywords or len(node.args) != len(W.args):
            raise ExprError(node, "PMR042", f"'{W.name}' takes {len(W.args)} argument(s)")
        args = {a: self.rng(e, x, scope) for a, x in zip(W.args, node.args)}
        return self.rng(W.expr, W.expr.tree, Scope(self.fam, args=args))

    def r_BinOp(self, e, node, scope):
        op = type(node.op)
        if op not in self.BIN:
            raise ExprError(node, "PMR040", "unsupported operator")
        a, b = self.rng(e, node.left, scope), self.rng(e, node.right, scope)
        if op in (ast.FloorDiv, ast.Mod):
            c = node.right.value if isinstance(node.right, ast.Constant) else None
            if not isinstance(c, int) or isinstance(c, bool) or c <= 0:
                raise ExprError(node.right, "PMR042", "divide only by a positive constant")
            if op is ast.FloorDiv:
                return (a[0] // c, a[1] // c)
            return (0, c - 1) if a[0] < 0 or a[1] >= c else a
        if op is ast.Add:
            return (a[0] + b[0], a[1] + b[1])
        if op is ast.Sub:
            return (a[0] - b[1], a[1] - b[0])
        if op is ast.Mult:
            p = [x * y for x in a for y in b]
            return (min(p), max(p))
        if op in (ast.LShift, ast.RShift):
            if b[1] > 63:
                raise ExprError(node.right, "PMR042", "shift count can exceed 63")
            if op is ast.LShift:
                return (max(a[0], 0) << b[0], max(a[1], 0) << b[1])
            return (max(a[0], 0) >> b[1], max(a[1], 0) >> b[0])
        hi = max(a[1], b[1], 0)
        return (0, (1 << hi.bit_length()) - 1)

    def r_UnaryOp(self, e, node, scope):
        self.rng(e, node.operand, scope)
        if isinstance(node.op, ast.Not):
            return (0, 1)
        raise ExprError(node, "PMR040", "only 'not' is allowed as a unary operator in width expressions")

    def r_Compare(self, e, node, scope):
        if len(node.ops) != 1 or type(node.ops[0]) not in self.CMP:
            raise ExprError(node, "PMR040", "one comparison (== != < <= > >=) at a time")
        self.rng(e, node.left, scope)
        self.rng(e, node.comparators[0], scope)
        return (0, 1)

    def r_BoolOp(self, e, node, scope):
        for v in node.values:
            self.rng(e, v, scope)
        return (0, 1)

    def r_IfExp(self, e, node, scope):
        self.rng(e, node.test, scope)
        a, b = self.rng(e, node.body, scope), self.rng(e, node.orelse, scope)
        return (min(a[0], b[0]), max(a[1], b[1]))

    # -- values: what the generated C computes (64-bit unsigned; a named width is an unsigned) ----
    def value(self, node, env):
        """The value of a parameter-only expression with the parameters in env, as the generated C
        computes it (uint64_t arithmetic; a call of a named width is cast to unsigned)."""
        t = type(node)
        if t is ast.Constant:
            return int(node.value)
        if t is ast.Name:
            if node.id in env:
                return env[node.id] & M64
            W = self.fam.width_map.get(node.id)
            if W is not None and not W.args:
                return self.value(W.expr.tree, env) & 0xFFFFFFFF
            raise KeyError(node.id)
        if t is ast.Call:
            W = self.fam.width_map[node.func.id]
            args = {a: self.value(x, env) for a, x in zip(W.args, node.args)}
            return self.value(W.expr.tree, dict(env, **args)) & 0xFFFFFFFF
        if t is ast.BinOp:
            a, b = self.value(node.left, env), self.value(node.right, env)
            op = type(node.op)
            if op in (ast.LShift, ast.RShift):
                b = b if isinstance(node.right, ast.Constant) else b & 63
                return (a << b) & M64 if op is ast.LShift else a >> b
            return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                    ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b, ast.BitAnd: lambda: a & b,
                    ast.BitOr: lambda: a | b, ast.BitXor: lambda: a ^ b}[op]() & M64
        if t is ast.UnaryOp:
            return int(not self.value(node.operand, env))
        if t is ast.Compare:
            a, b = self.value(node.left, env), self.value(node.comparators[0], env)
            return int({ast.Eq: a == b, ast.NotEq: a != b, ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b,
                        ast.GtE: a >= b}[type(node.ops[0])])
        if t is ast.BoolOp:
            vals = [self.value(v, env) != 0 for v in node.values]
            return int(all(vals) if isinstance(node.op, ast.And) else any(vals))
        if t is ast.IfExp:
            return self.value(node.body if self.value(node.test, env) else node.orelse, env)
        raise AssertionError(t)

    # -- C -------------------------------------------------------------------------------
    def c(self, node, res):
        """C text of type uint64_t. res(name) gives C text for names."""
        t = type(node)
        if t is ast.Constant:
            return f"PMREGS_U64({node.value})"
        if t is ast.Name:
            return res(node.id)
        if t is ast.Call:
            W = self.fam.width_map[node.func.id]
            args = ", ".join(self.c(a, res) for a in node.args)
            return f"(uint64_t){self.fam.cprefix}_{W.name}(p, {args})"
        if t is ast.BinOp:
            op = self.BIN[type(node.op)]
            a, b = self.c(node.left, res), self.c(node.right, res)
            if op in ("<<", ">>") and not isinstance(node.right, ast.Constant):
                b = f"({b} & 63)"
            return f"({a} {op} {b})"
        if t in (ast.Compare, ast.BoolOp) or (t is ast.UnaryOp and isinstance(node.op, ast.Not)):
            return f"(uint64_t){self.truth(node, res)}"
        if t is ast.IfExp:
            d = self.decided(node.test)
            if d is not None:
                return self.c(node.body if d else node.orelse, res)
            if self.branchless:
                # both sides and a mask (both are defined: the ranges are checked for every field value)
                b = self.c(node.orelse, res)
                return (f"({b} ^ (({self.c(node.body, res)} ^ {b}) & ((uint64_t)0 - (uint64_t)"
                        f"{self.truth(node.test, res)})))")
            return f"({self.truth(node.test, res)} ? {self.c(node.body, res)} : {self.c(node.orelse, res)})"
        raise AssertionError(t)

    def decided(self, node):
        """True or False when the `known` ranges of fields decide the condition, else None."""
        t = type(node)
        if t is ast.UnaryOp and isinstance(node.op, ast.Not):
            d = self.decided(node.operand)
            return None if d is None else not d
        if t is ast.BoolOp:
            ds = [self.decided(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return False if False in ds else (True if all(d is True for d in ds) else None)
            return True if True in ds else (False if all(d is False for d in ds) else None)
        if t is not ast.Compare or not self.known:
            return None

        def rng(n):
            if isinstance(n, ast.Constant) and isinstance(n.value, int):
                return (n.value, n.value)
            return self.known.get(n.id) if isinstance(n, ast.Name) else None
        a, b = rng(node.left), rng(node.comparators[0])
        if a is None or b is None:
            return None
        op = type(node.ops[0])
        if op in (ast.Eq, ast.NotEq):
            d = True if a[0] == a[1] == b[0] == b[1] else (False if a[1] < b[0] or b[1] < a[0] else None)
            return d if op is ast.Eq or d is None else not d
        lt = {ast.Lt: (a[1] < b[0], a[0] >= b[1]), ast.LtE: (a[1] <= b[0], a[0] > b[1]),
              ast.Gt: (a[0] > b[1], a[1] <= b[0]), ast.GtE: (a[0] >= b[1], a[1] < b[0])}[op]
        return True if lt[0] else (False if lt[1] else None)

    def truth(self, node, res):
        t = type(node)
        if t is ast.Compare:
            op = self.CMP[type(node.ops[0])]
            return f"({self.c(node.left, res)} {op} {self.c(node.comparators[0], res)})"
        if t is ast.BoolOp:
            op = (" & " if isinstance(node.op, ast.And) else " | ") if self.branchless else \
                (" && " if isinstance(node.op, ast.And) else " || ")
            return "(" + op.join(self.truth(v, res) for v in node.values) + ")"
        if t is ast.UnaryOp and isinstance(node.op, ast.Not):
            return f"(!{self.truth(node.operand, res)})"
        return f"({self.c(node, res)} != 0)"

    def names(self, node):
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} - \
            {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


# ---- building from YAML -----------------------------------------------------------------

class PacketBuilder:
    def __init__(self, b):
        self.b = b                  # the model Builder
        self.r = b.r
        self.fam = b.fam
        self.diag = b.diag
        fam = self.fam
        fam.params, fam.param_checks, fam.widths, fam.packets, fam.streams = [], [], [], [], []
        fam.param_presets = []
        fam.param_map, fam.width_map = {}, {}
        fam.cprefix = "pmregs_" + (fam.name or "x")
        self.tool = ExprTool(fam)

    def expr(self, node, what):
        s = self.r.scalar(node, what)
        if s is None:
            return None
        src = s.text.strip()
        try:
            tree = parse(src if not s.block else "(" + s.text + ")")
        except SyntaxError as e:
            self.diag.error(_At(s, e.lineno or 1, (e.offset or 1) - 1), getattr(e, "pmr", "PMR040"),
                            f"{what}: {e.msg}")
            return None
        return PExpr(s, tree.body)

    def fail(self, e, err, what):
        self.diag.error(e.at(err.node), err.code, f"{what}: {err.msg}")

    def rng(self, e, scope, what):
        try:
            return self.tool.rng(e, e.tree, scope)
        except ExprError as err:
            self.fail(e, err, what)
            return None

    def build(self, m):
        fam = self.fam
        self.section(m.get("params"), "params", self.param)
        if m.get("param_checks") is not None:
            for item in self.r.seq(m.get("param_checks"), "param_checks") or []:
                self.param_check(item)
        self.section(m.get("param_presets"), "param_presets", self.preset)
        self.section(m.get("widths"), "widths", self.width)
        self.diag.check()
        self.section(m.get("packets"), "packets", self.packet)
        self.diag.check()
        if m.get("packets") is not None and not fam.params:
            # every codec takes the parameter block, which C cannot declare empty
            self.r.err(m.key_node("packets"), "PMR003", "packets need the family's 'params' (at least one"
                       " run-time parameter: every codec takes the parameter block)")
            self.diag.check()
        self.section(m.get("streams"), "streams", self.stream)
        self.diag.check()
        self.check_param_sets(m)
        self.diag.check()
        return fam

    def check_param_sets(self, m):
        """The defaults and every preset must pass the family's own parameter check (params_check(): the
        param_checks, and every parameter-only width within 0..64), or the C refuses them at run time."""
        fam = self.fam
        if not fam.params:
            return
        widths = [(W.expr, f"width '{W.name}'") for W in fam.widths if not W.args]
        seen = {e.text for e, _ in widths}
        for Pk in fam.packets:
            for Sh in Pk.shapes:
                for F in Sh.fields:
                    if F.width is not None and getattr(F, "param_only_width", False) and F.width.text not in seen:
                        seen.add(F.width.text)
                        widths.append((F.width, f"the width of '{Pk.name}.{F.name}'"))
        sets = [(None, [P.default for P in fam.params])] + [(ps[4], ps[3]) for ps in fam.param_presets]
        for node, values in sets:
            env = {P.name: v for P, v in zip(fam.params, values)}
            why = None
            for e, doc in fam.param_checks:
                if not self.tool.value(e.tree, env):
                    why = (e, f"the parameter check '{e.text}' ({doc}) fails")
                    break
            if why is None:
                for e, what in widths:
                    w = self.tool.value(e.tree, env)
                    if w > MAXW:
                        shown = w if w < (1 << 63) else w - (1 << 64)
                        why = (e, f"{what} is {shown}, outside 0..{MAXW}")
                        break
            if why is None:
                continue
            e, text = why
            if node is None:
                shown = ", ".join(f"{P.name} = {P.default}" for P in fam.params
                                  if P.name in self.tool.names(e.tree) or len(fam.params) <= 4)
                self.diag.error(e.at(e.tree), "PMR092", f"with every parameter at its default"
                                f"{' (' + shown + ')' if shown else ''}, {text}")
            else:
                self.diag.error(node, "PMR092", f"parameter preset '{node.text}': {text}")

    def section(self, node, what, fn):
        if node is None:
            return
        mm = self.r.mapping(node, what)
        for k, v in (mm.pairs if mm else []):
            fn(k, v)

    # -- params ------------------------------------------------------------------------------
    def param(self, k, v):
        name = self.b.top_name(k, k.text, "parameter")
        m = self.r.mapping(v, f"parameter '{k.text}'")
        if name is None or m is None or not self.r.keys(m, f"parameter '{name}'", required=("default", "min", "max", "doc"),
                                                         optional=("source",)):
            return
        P = Param(name, k)
        P.doc = self.r.opt_text(m, "doc", "doc")
        P.source = self.r.opt_text(m, "source", "source")
        lo = self.r.integer(m.get("min"), "min", 0, (1 << 32) - 1)
        hi = self.r.integer(m.get("max"), "max", 0, (1 << 32) - 1)
        d = self.r.integer(m.get("default"), "default", 0, (1 << 32) - 1)
        if None in (lo, hi, d):
            return
        if not lo <= hi:
            self.r.err(m.get("max"), "PMR092", f"parameter '{name}': max {hi} is below min {lo}")
            return
        if not lo <= d <= hi:
            self.r.err(m.get("default"), "PMR092", f"parameter '{name}': default {d} is outside {lo}..{hi}")
            return
        P.min, P.max, P.default = lo, hi, d
        self.fam.params.append(P)
        self.fam.param_map[name] = P

    def param_check(self, item):
        m = self.r.mapping(item, "a parameter check")
        if m is None or not self.r.keys(m, "a parameter check", required=("expr", "doc")):
            return
        e = self.expr(m.get("expr"), "parameter check")
        if e is None:
            return
        if self.rng(e, Scope(self.fam), "parameter check") is None:
            return
        self.fam.param_checks.append((e, self.r.opt_text(m, "doc", "doc")))

    def preset(self, k, v):
        """A named parameter set: the listed parameters, every other one at its default."""
        name = self.r.check_name(k, k.text, "parameter preset")
        m = self.r.mapping(v, f"parameter preset '{k.text}'")
        if name is None or m is None or not self.r.keys(m, f"parameter preset '{name}'", required=("doc", "values"),
                                                         optional=("source",)):
            return
        if any(p[0] == name for p in self.fam.param_presets):
            self.r.err(k, "PMR021", f"parameter preset '{name}' is defined twice")
            return
        vals = self.r.mapping(m.get("values"), f"parameter preset '{name}' values")
        if vals is None:
            return
        got = {}
        for pk, pv in vals.pairs:
            P = self.fam.param_map.get(pk.text)
            if P is None:
                self.r.err(pk, "PMR041", f"parameter preset '{name}': '{pk.text}' is not a parameter")
                return
            x = self.r.integer(pv, pk.text, 0, (1 << 32) - 1)
            if x is None:
                return
            if not P.min <= x <= P.max:
                self.r.err(pv, "PMR092", f"parameter preset '{name}': {P.name} {x} is outside {P.min}..{P.max}")
                return
            got[P.name] = x
        values = [got.get(P.name, P.default) for P in self.fam.params]
        self.fam.param_presets.append((name, self.r.opt_text(m, "doc", "doc"), self.r.opt_text(m, "source", "source"),
                                       values, k))

    # -- widths ------------------------------------------------------------------------------
    def width(self, k, v):
        name = self.b.top_name(k, k.text, "width")
        m = self.r.mapping(v, f"width '{k.text}'")
        if name is None or m is None or not self.r.keys(m, f"width '{name}'", required=("expr", "doc"),
                                                         optional=("source", "args")):
            return
        W = Width(name, k)
        W.doc = self.r.opt_text(m, "doc", "doc")
        W.source = self.r.opt_text(m, "source", "source")
        if m.get("args") is not None:
            for a in self.r.seq(m.get("args"), "args") or []:
                an = self.r.name(a, "argument")
                if an is None:
                    return
                if an in self.fam.param_map or an in W.args:
                    self.r.err(a, "PMR021", f"argument '{an}' repeats or hides a parameter")
                    return
                W.args.append(an)
        W.expr = self.expr(m.get("expr"), f"width '{name}'")
        if W.expr is None:
            return
        # a named width in a width is evaluated through it: bound how deep such uses nest (each level is a
        # call in the C, and a recursion here)
        used = [self.fam.width_map[n] for n in self.tool.names(W.expr.tree) | self.calls(W.expr.tree)
                if n in self.fam.width_map]
        W.depth = 1 + max([U.depth for U in used] + [0])
        if W.depth > MAX_WIDTH_DEPTH:
            if not any(U.depth > MAX_WIDTH_DEPTH for U in used):     # once, not again for each width using it
                self.r.err(m.get("expr"), "PMR043", f"width '{name}' nests {W.depth} named widths, one inside the"
                           f" other; at most {MAX_WIDTH_DEPTH}")
            W.range = (0, MAXW)
            self.fam.widths.append(W)
            self.fam.width_map[name] = W
            return
        scope = Scope(self.fam, args={a: (0, (1 << 64) - 1) for a in W.args})
        r = self.rng(W.expr, scope, f"width '{name}'")
        if r is None:
            return
        if W.args:
            W.range = r
        else:
            # Parameter-only widths are checked at run time by params_check (0..64).
            W.range = (max(r[0], 0), min(r[1], MAXW))
            if r[1] < 0 or r[0] > MAXW:
                self.r.err(m.get("expr"), "PMR091", f"width '{name}' is never within 0..{MAXW} ({r[0]}..{r[1]})")
                return
        self.fam.widths.append(W)
        self.fam.width_map[name] = W

    @staticmethod
    def calls(tree):
        return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}

    # -- packets -----------------------------------------------------------------------------
    def packet(self, k, v):
        name = self.b.top_name(k, k.text, "packet")
        m = self.r.mapping(v, f"packet '{k.text}'")
        if name is None or m is None:
            return
        if not self.r.keys(m, f"packet '{name}'", required=("doc", "fields", "shapes"),
                           optional=("title", "source", "compression", "max_bytes", "size", "checks", "merge")):
            return
        P = Packet(name, k)
        P.title = self.r.opt_text(m, "title", "title")
        P.doc = self.r.opt_text(m, "doc", "doc")
        P.source = self.r.opt_text(m, "source", "source")
        if m.get("compression") is not None:
            P.compression = self.r.choice(m.get("compression"), "compression", ("sign",))
        if m.get("max_bytes") is not None:
            P.max_bytes = self.r.integer(m.get("max_bytes"), "max_bytes", 1, 1024)
        if m.get("size") is not None:
            if P.compression is not None:
                self.r.err(m.key_node("size"), "PMR093", f"packet '{name}' is sign-compressed, so it cannot have a size")
                return
            P.size = self.expr(m.get("size"), "size")
            if P.size is None:
                return
        elif P.compression is None:
            self.r.err(k, "PMR093", f"packet '{name}' needs 'compression: sign' or a 'size' expression")
            return
        if P.compression and P.max_bytes is None:
            self.r.err(k, "PMR003", f"sign-compressed packet '{name}' lacks required key 'max_bytes'")
            return
        dm = self.r.mapping(m.get("fields"), "fields")
        for fk, fv in (dm.pairs if dm else []):
            fn = self.r.check_name(fk, fk.text, "field name")
            fmm = self.r.mapping(fv, f"field '{fk.text}'")
            if fn is None or fmm is None or not self.r.keys(fmm, f"field '{fn}'", optional=PField.KEYS):
                continue
            if fmm.get("width") is None and fmm.get("rest") is None:
                self.r.err(fmm, "PMR003", f"field '{fn}' lacks required key 'width'")
                continue
            P.defs[fn] = (fk, fmm)
        self.diag.check()
        seen = set()
        for item in self.r.seq(m.get("shapes"), "shapes") or []:
            S = self.shape(P, item, seen)
            if S is not None:
                P.shapes.append(S)
        self.diag.check()
        if not P.shapes:
            self.r.err(m.get("shapes"), "PMR003", f"packet '{name}' has no shapes")
            self.diag.check()
        self.finish_packet(P, m)
        self.diag.check()
        if m.get("merge") is not None:
            self.merge_groups(P, m.get("merge"))
            self.diag.check()
        P.checks = []
        if m.get("checks") is not None:
            fields = {}
            for S in P.shapes:
                for F in S.fields:
                    if not F.rest:
                        fields.setdefault(F.name, F)
            for item in self.r.seq(m.get("checks"), "checks") or []:
                cm = self.r.mapping(item, "a packet check")
                if cm is None or not self.r.keys(cm, "a packet check", required=("expr", "doc")):
                    continue
                e = self.expr(cm.get("expr"), "packet check")
                if e is not None and self.rng(e, Scope(self.fam, fields=fields), "packet check") is not None:
                    P.checks.append((e, self.r.opt_text(cm, "doc", "doc")))
            self.diag.check()
        self.fam.packets.append(P)

    def shape(self, P, item, seen):
        sm = self.r.mapping(item, "a shape")
        if sm is None or not self.r.keys(sm, "a shape", required=("name", "fields"), optional=("doc", "source")):
            return None
        sn = self.r.name(sm.get("name"), "shape name")
        if sn is None:
            return None
        if sn in seen:
            self.r.err(sm.get("name"), "PMR021", f"shape '{sn}' is defined twice in packet '{P.name}'")
            return None
        seen.add(sn)
        S = Shape(sn, sm.get("name"))
        S.doc = self.r.opt_text(sm, "doc", "doc")
        S.source = self.r.opt_text(sm, "source", "source")
        if not S.doc:
            self.r.err(sm, "PMR003", f"shape '{sn}' lacks required key 'doc'")
        earlier = {}
        items = self.r.seq(sm.get("fields"), "fields") or []
        if len(items) > MAX_SHAPE_FIELDS:
            return self.r.err(sm.get("fields"), "PMR045", f"shape '{sn}' of packet '{P.name}' has {len(items)} fields;"
                              f" at most {MAX_SHAPE_FIELDS}")
        for it in items:
            F = self.shape_field(P, S, it, earlier)
            if F is None:
                return None
            earlier[F.name] = F
            S.fields.append(F)
        return S

    def shape_field(self, P, S, it, earlier):
        """A field of a shape: a name, or a mapping {name, overrides...}."""
        if isinstance(it, Scalar):
            name, over, node = it.text, None, it
        else:
            om = self.r.mapping(it, "a shape field")
            if om is None or not self.r.keys(om, "a shape field", required=("name",), optional=PField.KEYS):
                return None
            name, over, node = self.r.text(om.get("name"), "field name"), om, om.get("name")
        if name is None:
            return None
        if name in earlier:
            return self.r.err(node, "PMR021", f"field '{name}' appears twice in shape '{S.name}'")
        base = P.defs.get(name)
        if base is None and (over is None or (over.get("width") is None and over.get("rest") is None)):
            return self.r.err(node, "PMR030", f"field '{name}' is not defined in packet '{P.name}' fields")
        if base is None and self.r.check_name(node, name, "field name") is None:
            return None

        def get(key):
            if over is not None and over.get(key) is not None:
                return over.get(key)
            return base[1].get(key) if base is not None else None

        F = PField(name, node)
        F.doc = self.r.text(get("doc"), "doc") if get("doc") is not None else ""
        F.source = self.r.text(get("source"), "source") if get("source") is not None else ""
        if get("rest") is not None:
            F.rest = bool(self.r.boolean(get("rest"), "rest"))
        if get("differential") is not None:
            F.differential = bool(self.r.boolean(get("differential"), "differential"))
        if F.rest:
            if get("width") is not None:
                return self.r.err(get("width"), "PMR093", f"field '{name}' is the rest of the packet and has no width")
            if not P.is_frame:
                return self.r.err(node, "PMR093", f"only a packet with a 'size' can end with a rest field ('{name}')")
            F.max_width = F.min_width = 0
            return F
        scope = Scope(self.fam, fields=earlier)
        F.width = self.expr(get("width"), f"width of '{name}'")
        if F.width is None:
            return None
        wr = self.rng(F.width, scope, f"width of '{name}'")
        if wr is None:
            return None
        dep = self.tool.names(F.width.tree) & set(earlier)
        if dep and (wr[0] < 0 or wr[1] > MAXW):
            return self.r.err(get("width"), "PMR091", f"width of '{name}' can be {wr[0]}..{wr[1]}, outside 0..{MAXW}")
        F.param_only_width = not dep and F.width.const is None and (wr[0] < 0 or wr[1] > MAXW)
        F.min_width, F.max_width = max(wr[0], 0), min(wr[1], MAXW)
        if wr[1] < 0 or wr[0] > MAXW:
            return self.r.err(get("width"), "PMR091", f"width of '{name}' is never within 0..{MAXW}")
        if get("values") is not None:
            F.values = self.b.named_values(get("values"), f"field '{name}'", max(F.max_width, 1))
        if F.differential:
            if F.max_width != 1 or F.min_width != 1:
                return self.r.err(node, "PMR093", f"differential field '{name}' must be exactly 1 bit wide")
            if not earlier:
                return self.r.err(node, "PMR093", f"differential field '{name}' has no bit before it")
        for key, what in (("reported_if", "reported_if"), ("implied", "implied"), ("value", "value")):
            if get(key) is None:
                continue
            e = self.expr(get(key), f"{what} of '{name}'")
            if e is None:
                return None
            sc = Scope(self.fam, fields=earlier, semantic=set(earlier) if key == "reported_if" else None,
                       extra={"rest_bits": (0, 8 * 1024)} if key == "value" else None)
            r = self.rng(e, sc, f"{what} of '{name}'")
            if r is None:
                return None
            if key == "value" and not P.is_frame:
                return self.r.err(get(key), "PMR093", f"only frames (packets with a 'size') compute field values")
            if key == "reported_if" and not earlier:
                return self.r.err(get(key), "PMR093", f"field '{name}' has no bit before it to repeat")
            setattr(F, key, e)
        if get("is") is not None:
            F.is_node = get("is")
            F.is_set = self.is_set(F, get("is"))
            if F.is_set is None:
                return None
        return F

    def is_set(self, F, node):
        t = self.r.text(node, "is")
        if t is None:
            return None
        named = {n: v for n, v, _ in F.values}

        def one(x):
            x = x.strip()
            if x in named:
                return named[x]
            v, why = parse_int(x)
            if why is not None:
                return self.r.err(node, "PMR031", f"'{x}' is neither a number nor a named value of '{F.name}'")
            return v

        if ".." in t:
            a, _, b = t.partition("..")
            lo, hi = one(a), one(b)
            if lo is None or hi is None:
                return None
            if lo > hi:
                return self.r.err(node, "PMR014", f"range {t} is empty")
        else:
            lo = hi = one(t)
            if lo is None:
                return None
        if hi > (1 << F.max_width) - 1 and F.implied is None:
            return self.r.err(node, "PMR014", f"'{F.name}' is at most {F.max_width} bits; {hi} does not fit")
        return [(lo, hi)]

    def finish_packet(self, P, m):
        # Struct members: one per field name, wide enough for every shape.
        order, widest, rest = [], {}, None
        for S in P.shapes:
            for F in S.fields:
                if F.name not in widest:
                    order.append(F.name)
                    widest[F.name] = 0
                imp = 0
                if F.implied is not None:
                    imp = self.rng(F.implied, Scope(self.fam), "implied")[1].bit_length()
                widest[F.name] = max(widest[F.name], F.max_width, imp, 1)
                if F.rest:
                    if F is not S.fields[-1]:
                        self.r.err(F.node, "PMR093", f"rest field '{F.name}' must be the last field of shape '{S.name}'")
                    if rest not in (None, F.name):
                        self.r.err(F.node, "PMR093", f"packet '{P.name}' has two rest fields")
                    rest = F.name
        P.rest = rest
        P.members = [(n, widest[n]) for n in order if n != rest]
        # Values: one named-value table per field name.
        P.values = {}
        for S in P.shapes:
            for F in S.fields:
                tab = P.values.setdefault(F.name, {})
                for vn, vv, vd in F.values:
                    if vn in tab and tab[vn][0] != vv:
                        self.r.err(F.node, "PMR021", f"value '{vn}' of '{F.name}' means {tab[vn][0]} and {vv}")
                    tab[vn] = (vv, vd)
        P.tree = self.decision(P, P.shapes, 0)
        P.max_bits = max(sum(F.max_width for F in S.fields) for S in P.shapes)
        if P.is_frame:
            fields = {}
            for S in P.shapes:
                for F in S.fields:
                    fields.setdefault(F.name, F)
            r = self.rng(P.size, Scope(self.fam, fields=fields), "size")
            if r is None:
                return
            P.max_size = r[1]
            if r[1] > 4096:
                self.r.err(m.get("size"), "PMR091", f"size of '{P.name}' can reach {r[1]} bytes")

    def merge_groups(self, P, node):
        """P.merges from the spec's `merge` lists (see the module doc), each checked."""
        if P.compression != "sign":
            self.r.err(node, "PMR093", f"packet '{P.name}' is not sign-compressed: only its word decoder merges shapes")
            return
        by_name, used = {S.name: S for S in P.shapes}, set()

        def path(n, S):
            if isinstance(n, Leaf):
                return [] if n.shape is S else None
            for s, sub in ([(None, n.child)] if isinstance(n, Read) else n.cases):
                q = path(sub, S)
                if q is not None:
                    return [(n, s)] + q
            return None

        for item in self.r.seq(node, "merge") or []:
            names = [self.r.text(x, "shape name") for x in (self.r.seq(item, "a merge group") or [])]
            if len(names) < 2 or None in names:
                self.r.err(item, "PMR093", f"a merge group of packet '{P.name}' needs two or more shape names")
                continue
            bad = [n for n in names if n not in by_name]
            if bad:
                self.r.err(item, "PMR030", f"packet '{P.name}' has no shape '{bad[0]}'")
                continue
            twice = [n for n in names if n in used or names.count(n) > 1]
            if twice:
                self.r.err(item, "PMR021", f"shape '{twice[0]}' is in more than one merge group")
                continue
            used.update(names)
            shapes = [by_name[n] for n in names]
            paths = [path(P.tree, S) for S in shapes]
            d = 0
            while all(len(q) > d for q in paths) and all(q[d] == paths[0][d] for q in paths):
                d += 1
            sw = paths[0][d][0]
            sets = [q[d][1] for q in paths]
            same = [(a, b) for a in range(len(sets)) for b in range(a) if sets[a] == sets[b]]
            if same:
                a, b = same[0]
                self.r.err(item, "PMR090", f"shapes '{names[b]}' and '{names[a]}' of packet '{P.name}' are chosen by"
                           f" the same values of '{shapes[0].fields[sw.index].name}': they cannot be merged")
                continue
            order = []
            for S in shapes:
                order = _supersequence(order, [F.name for F in S.fields[sw.index + 1:]])
            why = None
            if len(set(order)) != len(order):
                why = "have fields in different orders"
            for name in order:
                fs = [F for S in shapes for F in S.fields[sw.index + 1:] if F.name == name]
                if len({F.width.text for F in fs}) > 1:
                    why = why or f"give field '{name}' different widths"
                if any(F.implied is not None for F in fs):
                    why = why or f"have field '{name}' with an implied value"
            if why:
                self.r.err(item, "PMR090", f"shapes {', '.join(repr(n) for n in names)} of packet '{P.name}' {why}:"
                           " they cannot be merged")
                continue
            P.merges.append({"node": sw, "members": list(zip(sets, shapes)), "fields": order})

    def decision(self, P, shapes, i):
        """The decoder's decision tree; reports shapes that cannot be told apart."""
        if len(shapes) == 1:
            return Leaf(shapes[0], i)
        heads = []
        for S in shapes:
            if i >= len(S.fields):
                other = next(x for x in shapes if x is not S)
                self.r.err(S.node, "PMR090", f"shapes '{S.name}' and '{other.name}' of packet '{P.name}'"
                           f" cannot be told apart: '{S.name}' ends before a field selects it")
                return None
            heads.append(S.fields[i])
        key = {(F.name, F.width.text if F.width else "") for F in heads}
        if len(key) != 1:
            a, b = shapes[0], next(S for S, F in zip(shapes, heads)
                                   if (F.name, F.width.text if F.width else "") !=
                                   (heads[0].name, heads[0].width.text if heads[0].width else ""))
            self.r.err(b.node, "PMR090", f"shapes '{a.name}' and '{b.name}' of packet '{P.name}' differ at field"
                       f" {i + 1} ('{heads[0].name}' vs '{b.fields[i].name}') before a field with 'is' tells them apart")
            return None
        with_is = [F.is_set is not None for F in heads]
        if not any(with_is):
            sub = self.decision(P, shapes, i + 1)
            return None if sub is None else Read(i, sub)
        if not all(with_is):
            S = shapes[with_is.index(False)]
            self.r.err(S.fields[i].node, "PMR090", f"field '{heads[0].name}' selects the shape elsewhere, so shape"
                       f" '{S.name}' must give it an 'is' too")
            return None
        groups = []
        for S, F in zip(shapes, heads):
            for g in groups:
                if g[0] == F.is_set:
                    g[1].append(S)
                    break
            else:
                groups.append((F.is_set, [S]))
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                if sets_overlap(groups[a][0], groups[b][0]):
                    A, B = groups[a][1][0], groups[b][1][0]
                    self.r.err(B.fields[i].is_node, "PMR090", f"shapes '{A.name}' and '{B.name}' of packet '{P.name}'"
                               f" both accept {heads[0].name} = {set_text(groups[b][0])}")
                    return None
        cases = []
        for s, g in groups:
            sub = self.decision(P, g, i + 1)
            if sub is None:
                return None
            cases.append((s, sub))
        return Switch(i, cases)

    # -- streams ---------------------------------------------------------------------------------
    def stream(self, k, v):
        name = self.b.top_name(k, k.text, "stream")
        m = self.r.mapping(v, f"stream '{k.text}'")
        if name is None or m is None or not self.r.keys(
                m, f"stream '{name}'", required=("doc", "frame", "payload", "payload_if", "resync_zeros"),
                optional=("source", "fast_if")):
            return
        St = Stream(name, k)
        St.doc = self.r.opt_text(m, "doc", "doc")
        St.source = self.r.opt_text(m, "source", "source")
        packets = {p.name: p for p in self.fam.packets}
        fn, pn = self.r.text(m.get("frame"), "frame"), self.r.text(m.get("payload"), "payload")
        St.frame, St.payload = packets.get(fn), packets.get(pn)
        if St.frame is None or not St.frame.is_frame or St.frame.rest is None:
            self.r.err(m.get("frame"), "PMR030", f"'{fn}' is not a packet with a 'size' and a rest field")
            return
        if St.payload is None or St.payload.compression != "sign":
            self.r.err(m.get("payload"), "PMR030", f"'{pn}' is not a sign-compressed packet")
            return
        fields = {}
        for S in St.frame.shapes:
            for F in S.fields:
                fields.setdefault(F.name, F)
        St.payload_if = self.expr(m.get("payload_if"), "payload_if")
        St.resync = self.expr(m.get("resync_zeros"), "resync_zeros")
        if St.payload_if is None or St.resync is None:
            return
        if m.get("fast_if") is not None:
            St.fast_if = self.expr(m.get("fast_if"), "fast_if")
            if St.fast_if is None:
                return
            eqs = field_values(St.fast_if.tree)
            if eqs is None or not all(n in fields for n in eqs):
                self.r.err(m.get("fast_if"), "PMR030", "fast_if is not \"field == value\" terms of the frame's "
                           "fields joined by and")
                return
        if self.rng(St.payload_if, Scope(self.fam, fields=fields), "payload_if") is None:
            return
        r = self.rng(St.resync, Scope(self.fam), "resync_zeros")
        if r is None:
            return
        if r[0] < 1:
            self.r.err(m.get("resync_zeros"), "PMR091", "resync_zeros can be 0")
            return
        if r[1] > MAX_RESYNC:
            # a reader that walks a stream in windows keeps this many bytes across a refill (stream_reader.h)
            self.r.err(m.get("resync_zeros"), "PMR091", f"resync_zeros can reach {r[1]}; at most {MAX_RESYNC}")
            return
        self.fam.streams.append(St)


def field_values(tree):
    """{name: value} of an expression of "name == value" terms joined by and, else None."""
    terms = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    out = {}
    for t in terms:
        if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq) and
                isinstance(t.left, ast.Name) and isinstance(t.comparators[0], ast.Constant) and
                type(t.comparators[0].value) is int and t.comparators[0].value >= 0):
            return None
        if out.get(t.left.id, t.comparators[0].value) != t.comparators[0].value:
            return None
        out[t.left.id] = t.comparators[0].value
    return out


def build(builder, m):
    """Called by the model Builder with the family mapping."""
    PacketBuilder(builder).build(m)


# ---- C generation ---------------------------------------------------------------------------

def _refs(tool, exprs):
    out = set()
    for e in exprs:
        if e is not None:
            out |= tool.names(e.tree)
    return out


class CodeGen:
    """C text for the parameter block, one packet or one stream."""

    def __init__(self, hv):
        self.hv = hv
        self.fam = hv.fam
        self.n = hv.n
        self.tool = ExprTool(self.fam)
        self.p = self.n.p                      # pmregs_family
        self.P = self.n.P
        self.params_t = f"struct {self.p}_params"

    def sym(self, name, node, what):
        return self.hv.sym.add(name, node, what)

    # -- names in expressions ------------------------------------------------------
    def res(self, fields=(), local=True, struct="in", semantic=(), extra=None):
        fields, semantic, extra = set(fields), set(semantic), extra or {}

        def r(name):
            if name in extra:
                return extra[name]
            if name in semantic:
                return f"(uint64_t)s->{name}"
            if name in fields:
                return f"f_{name}" if local else f"(uint64_t){struct}->{name}"
            if name in self.fam.param_map:
                return f"(uint64_t)p->{name}"
            return f"(uint64_t){self.p}_{name}(p)"
        return r

    def width_c(self, F, r):
        c = F.width.const
        if c is not None:
            return f"{c}u"
        return f"(unsigned)({self.tool.c(F.width.tree, r)})"

    # -- parameters ------------------------------------------------------------------
    def params_view(self):
        fam = self.fam
        if not fam.params:
            return None
        S = lambda name, node: self.sym(name, node, "the parameters")   # noqa: E731
        node = fam.params[0].node
        v = {"struct": self.params_t, "members": [], "macros": [],
             "default_fn": S(f"{self.p}_params_default", node),
             "check_fn": S(f"{self.p}_params_check", node),
             "desc_fn": S(f"{self.p}_params_desc", node),
             "get_fn": S(f"{self.p}_param_get", node),
             "set_fn": S(f"{self.p}_param_set", node),
             "count_macro": S(f"{self.P}_NPARAMS", node),
             "check_why_fn": S(f"{self.p}_params_check_why", node),
             "check_values_fn": S(f"{self.p}_params_check_values", node),
             "count": len(fam.params), "checks": [], "widths": [], "presets": []}
        if fam.param_presets:
            # renamed in 0.2.0: _params_preset(name) and _param_presets() read too much alike
            v["preset_fn"] = S(f"{self.p}_presets_find", node)
            v["presets_fn"] = S(f"{self.p}_presets", node)
            v["old_preset_fn"] = S(f"{self.p}_params_preset", node)
            v["old_presets_fn"] = S(f"{self.p}_param_presets", node)
        for name, doc, source, values, pnode in fam.param_presets:
            v["presets"].append({"name": name, "doc": doc, "source": source, "vals": values,
                                 "macro": S(f"{self.P}_PRESET_{name.upper()}", pnode)})
        S(f"{self.p}_params", node)
        for i, P in enumerate(fam.params):
            t = small_utype(max(P.max.bit_length(), 1))
            tmax = (1 << int(t[4:-2])) - 1
            base = f"{self.P}_PARAM_{P.name.upper()}"
            mac = {k: S(f"{base}_{k.upper()}", P.node) for k in ("default", "min", "max")}
            v["macros"] += [(mac["default"], P.default, P.doc), (mac["min"], P.min), (mac["max"], P.max)]
            v["members"].append({"name": P.name, "T": t, "doc": P.doc, "default": P.default, "index": i,
                                 "min": P.min, "max": P.max, "source": P.source,
                                 "lo_check": P.min > 0, "hi_check": P.max < tmax,
                                 "macros": mac})
        r = self.res()
        for e, doc in fam.param_checks:
            v["checks"].append({"cond": self.tool.truth(e.tree, r), "doc": doc, "text": e.text})
        # every parameter-only width must come out 0..64 (in uint64_t arithmetic, a negative one is
        # over 64 too): checked at run time unless the parameters' ranges already keep it there (a test
        # that cannot fail is one compilers warn is always false)
        seen = set()

        def can_exceed(e):
            lo, hi = self.tool.rng(e, e.tree, Scope(fam))
            return lo < 0 or hi > MAXW

        for W in fam.widths:
            if not W.args:
                seen.add(W.expr.text)
                if can_exceed(W.expr):
                    v["widths"].append((f"{self.tool.c(W.expr.tree, r)}", W.name))
        for Pk in fam.packets:
            for Sh in Pk.shapes:
                for F in Sh.fields:
                    if F.width is not None and getattr(F, "param_only_width", False) and F.width.text not in seen:
                        seen.add(F.width.text)
                        if can_exceed(F.width):
                            v["widths"].append((self.tool.c(F.width.tree, r), f"{Pk.name}.{F.name}"))
        return v

    def widths_view(self):
        out = []
        for W in self.fam.widths:
            fn = self.sym(f"{self.p}_{W.name}", W.node, f"width '{W.name}'")
            r = self.res(extra={a: a for a in W.args})
            used = self.tool.names(W.expr.tree)
            uses_p = any(x not in W.args for x in used) or any(
                isinstance(n, ast.Call) for n in ast.walk(W.expr.tree))
            out.append({"fn": fn, "args": W.args, "body": self.tool.c(W.expr.tree, r), "doc": W.doc,
                        "source": W.source, "expr": W.expr.text, "uses_p": uses_p})
        return out

    # -- packets ---------------------------------------------------------------------------
    def packet_view(self, Pk):
        p, P = self.p, self.P
        base, BASE = f"{p}_{Pk.name}", f"{P}_{Pk.name.upper()}"
        S = lambda name: self.sym(name, Pk.node, f"packet '{Pk.name}'")   # noqa: E731
        members = []
        for name, w in Pk.members:
            members.append({"name": name, "T": small_utype(w), "w": w})
        # widest first: no padding, and adjacent stores the compiler can merge
        members.sort(key=lambda m: -int(m["T"][4:-2]))
        mtype = {m["name"]: m["T"] for m in members}
        # the struct: the fields, the shape and where the rest starts, widest first, then explicit padding
        sm = [member(m["T"] + " ", m["name"]) for m in members]
        sm.append(member("uint8_t ", "shape", f"enum {base}_shape"))
        if Pk.rest:
            sm += [member("uint16_t ", f"{Pk.rest}_offset", f"bit where the {Pk.rest} starts (decode)"),
                   member("uint16_t ", f"{Pk.rest}_bits", "bits from there to the end of the packet (decode)")]
        sm, _ = packed_struct(sm, [])
        v = {"name": Pk.name, "title": Pk.title or Pk.name, "doc": Pk.doc, "source": Pk.source,
             "struct_members": sm, "struct_align": max(m["align"] for m in sm),
             "struct_size": sum(m["size"] for m in sm),
             "struct": f"struct {base}", "members": members, "frame": Pk.is_frame, "rest": Pk.rest,
             "sign": Pk.compression == "sign", "macros": [], "shapes": [],
             "shape_enum": f"enum {base}_shape"}
        S(base)
        S(f"{base}_shape")
        for i, Sh in enumerate(Pk.shapes):
            mac = S(f"{BASE}_SHAPE_{Sh.name.upper()}")
            v["shapes"].append({"name": Sh.name, "macro": mac, "index": i, "doc": Sh.doc, "source": Sh.source,
                                "fields": [F.name for F in Sh.fields],
                                "table": self.shape_table(Sh)})
        v["nshapes_macro"] = S(f"{BASE}_NSHAPES")
        v["nshapes"] = len(Pk.shapes)
        # constant widths and named values
        widths = {}
        for Sh in Pk.shapes:
            for F in Sh.fields:
                if F.rest:
                    continue
                widths.setdefault(F.name, set()).add(F.width.const if F.width.const is not None else -1)
        for name, ws in widths.items():
            if len(ws) == 1 and -1 not in ws:
                v["macros"].append((S(f"{BASE}_{name.upper()}_WIDTH"), next(iter(ws))))
        v["value_fns"] = []
        for name, tab in Pk.values.items():
            if not tab:
                continue
            for vn, (vv, vd) in tab.items():
                v["macros"].append((S(f"{BASE}_{name.upper()}_{vn.upper()}"), vv, vd))
            if len({vv for vv, _ in tab.values()}) != len(tab):
                continue                    # the same value has different names in different shapes
            v["value_fns"].append({"fn": S(f"{base}_{name}_name"), "field": name,
                                   "cases": sorted(((vv, vn) for vn, (vv, _) in tab.items()))})
        v["value_fn_of"] = {f["field"]: f["fn"] for f in v["value_fns"]}
        if Pk.compression == "sign":
            v["macros"].append((S(f"{BASE}_MAX_BYTES"), Pk.max_bytes, "longest payload, in bytes"))
            nw = max((Pk.max_bits + 63) // 64 + 1, (Pk.max_bytes + 7) // 8 + 1)
        else:
            v["macros"].append((S(f"{BASE}_MAX_BYTES"), Pk.max_size, "longest packet, in bytes"))
            nw = (Pk.max_size * 8 + 63) // 64 + 1
        v["macros"].append((S(f"{BASE}_MAX_BITS"), Pk.max_bits, "longest natural length of the fields, in bits"))
        v["nw"] = nw
        v["nb"] = 8 * nw + 8
        v["max_bytes"] = Pk.max_bytes if Pk.compression else Pk.max_size
        fns = {k: S(f"{base}_{k}") for k in ("init", "decode", "encode", "bits", "shape_name", "snprint", "fields")}
        v["max_fields"] = max(len([F for F in Sh.fields if not F.rest]) for Sh in Pk.shapes)
        v["macros"].append((S(f"{BASE}_MAX_FIELDS"), v["max_fields"], "most fields one shape has"))
        fns["encode_words"] = S(f"{base}_encode_words")
        if Pk.compression == "sign":
            fns["encode_ex"] = S(f"{base}_encode_ex")
            fns["decode_at"] = S(f"{base}_decode_at")
            fns["decode_padded"] = S(f"{base}_decode_padded")
            v["pad_macro"] = S(f"{BASE}_PAD_BYTES")
            v["macros"].append((v["pad_macro"], Pk.max_bytes + INPLACE_SLACK,
                                "readable bytes the padded decoder needs at the packet"))
        v["fn"] = fns
        # semantic view
        sem = []
        for Sh in Pk.shapes:
            for F in Sh.fields:
                if F.differential and F.name not in [s["name"] for s in sem]:
                    sem.append({"name": F.name, "kind": "flag", "doc": F.doc})
                if F.reported_if is not None and F.name not in [s["name"] for s in sem]:
                    sem.append({"name": F.name, "kind": "reported", "T": mtype[F.name], "doc": F.doc})
        v["sem"] = sem
        if sem:
            v["sem_struct"] = f"struct {base}_semantic"
            sm = []
            for s in sem:
                if s["kind"] == "flag":
                    sm.append(member("uint8_t ", s["name"], "1 = asserted (the raw bit differs from the bit before "
                                     "it): " + comment_text(s["doc"] or "")))
                else:
                    sm += [member("uint8_t ", s["name"] + "_reported", f"1 = {s['name']} carries a value"),
                           member(s["T"] + " ", s["name"], "the value when reported, else 0")]
            v["sem_members"], _ = packed_struct(sm, [])
            S(f"{base}_semantic")
            fns["semantic_get"] = S(f"{base}_semantic_get")
            fns["semantic_set"] = S(f"{base}_semantic_set")
        # the layout: every width of the word decoder (a sign-compressed payload) or of the decoder (a frame)
        # that only parameters decide, and its mask, computed once by a caller that decodes many packets
        self.lay, self.lay_members = {}, {m["name"] for m in v["members"]}
        if Pk.compression == "sign":
            v["decode_body"] = self.decode_body(Pk, v)
            v["zero_init"] = ", ".join("{0}" if m["dim"] else "0" for m in v["struct_members"])
            fns["decode_word"] = S(f"{base}_decode_word")
            fns["decode_word_l"] = S(f"{base}_decode_word_l")
            self.word_only = self.lay_on = True
            try:
                v["decode_word_body"] = self.decode_body(Pk, v)
            finally:
                self.word_only = self.lay_on = False
        else:
            fns["decode_l"] = S(f"{base}_decode_l")
            self.lay_on = True
            try:
                v["decode_body"] = self.decode_body(Pk, v)
                # the size's terms that only parameters decide (e.g. the header's index bytes) from the layout
                tree, extra = self.lay_terms(Pk.size.tree)
                v["size_c"] = self.tool.c(tree, self.res(fields=self.dec_refs, extra=extra))
            finally:
                self.lay_on = False
        lay = sorted(self.lay.values(), key=lambda e: e["k"])
        v["lay"] = self.lay
        v["layout"] = {"struct": f"struct {S(base + '_layout')}", "init": S(f"{base}_layout_init"),
                       "entries": lay, "n": max(len(lay), 1), "pad": (-max(len(lay), 1)) % 8}
        v["encode_cases"] = [self.walk(Pk, Sh, i, "encode") for i, Sh in enumerate(Pk.shapes)]
        v["bits_cases"] = [self.walk(Pk, Sh, i, "bits") for i, Sh in enumerate(Pk.shapes)]
        v["fields_cases"] = [self.walk(Pk, Sh, i, "fields", v) for i, Sh in enumerate(Pk.shapes)]
        v["init_cases"] = [self.init_case(Sh) for Sh in Pk.shapes]
        if sem:
            v["semget_cases"] = [self.walk(Pk, Sh, i, "semget") for i, Sh in enumerate(Pk.shapes)]
            v["semset_cases"] = [self.walk(Pk, Sh, i, "semset") for i, Sh in enumerate(Pk.shapes)]
        if Pk.is_frame:
            v.setdefault("size_c", self.tool.c(Pk.size.tree, self.res(fields=self.dec_refs)))
            v["safe_bytes"] = self.header_bytes(Pk) + INPLACE_SLACK
        members = {m["name"] for m in v["members"]}
        v["checks"] = [{"doc": doc, "text": e.text,
                        "out": self.tool.truth(e.tree, self.res(fields=members, local=False, struct="out"))}
                       for e, doc in getattr(Pk, "checks", [])]
        return v

    def shape_table(self, Sh):
        """Comment lines: name, width expression, the selecting values, how to read it."""
        rows = []
        for F in Sh.fields:
            note = []
            if F.is_set:
                note.append("= " + set_text(F.is_set))
            if F.differential:
                note.append("asserted when it differs from the bit before")
            if F.reported_if is not None:
                note.append(f"meaningful when {F.reported_if.text}")
            if F.implied is not None:
                note.append(f"{F.implied.text} when 0 bits wide")
            if F.rest:
                note.append("the rest of the packet")
            rows.append((F.name, F.width.text if F.width else "-", "; ".join(note)))
        w0 = max(len(r[0]) for r in rows)
        w1 = max(len(r[1]) for r in rows)
        return [f"{a:<{w0}}  {b:<{w1}}  {c}".rstrip() for a, b, c in rows]

    def init_case(self, Sh):
        out = []
        for F in Sh.fields:
            if F.is_set is not None and F.is_set[0][0] != 0:
                out.append(f"pkt->{F.name} = {F.is_set[0][0]};")
        return out

    def is_cond(self, F, x="x", width=None):
        """C for x in F.is_set; width: x's constant width, when known (a bound it implies is left out)."""
        parts = []
        top = (1 << width) - 1 if width is not None else None
        for lo, hi in F.is_set:
            if top is not None and hi >= top and lo > 0 and lo != hi:
                parts.append(f"{x} >= {lo}u")
            elif lo == hi:
                parts.append(f"{x} == {lo}u")
            elif lo == 0:
                parts.append(f"{x} <= {hi}u")
            else:
                parts.append(f"({x} >= {lo}u && {x} <= {hi}u)")
        return " || ".join(parts)

    # -- the decoder ---------------------------------------------------------------------------
    def decode_body(self, Pk, v):
        exprs = [Pk.size]
        for Sh in Pk.shapes:
            for F in Sh.fields:
                exprs += [F.width, F.implied]
        refs = set(_refs(self.tool, exprs) & {m["name"] for m in v["members"]})
        self.pack, self.pw, words = self.pack_plan(Pk, v), None, []
        self.width_refs = set(refs)
        held = []
        if self.pack:
            # a packed member is held in f_name until its path stores its word
            names = {F.name for Sh in Pk.shapes for F in Sh.fields} & set(self.pack)
            held = sorted(names - refs)
            refs |= names
            words = sorted(self.pack_words)
        refs = sorted(refs)
        self.dec_refs = set(refs)
        lines = [f"uint64_t f_{r} = 0;" for r in refs]
        if words:
            lines.append(f"uint64_t {', '.join(f'bw{k} = 0' for k in words)};")
            S = v["struct"]
            chk = " && ".join(f"offsetof({S}, {a}) + 1u == offsetof({S}, {b})"
                              for k in words for a, b in zip(self.pack_words[k][1], self.pack_words[k][1][1:]))
            lines.append(f"PMREGS_IP_LAYOUT_CHECK({chk}); /* the byte members that one word stores */")
            lines += [f"(void)f_{r};" for r in held] + [f"(void)bw{k};" for k in words]
        body = []
        self.tree_lines(Pk, Pk.tree, body, 0, v)
        self.pack = {}
        zero = [m["name"] for m in v["members"]]
        return {"locals": lines, "tree": body, "zero": zero}

    def pack_plan(self, Pk, v):
        """The word decoder's byte members (uint8_t, adjacent in the struct) that it stores 8 at a time, as
        one little-endian word each: name -> (word, shift); self.pack_words: word -> (first, [names])."""
        self.pack_words = {}
        if not getattr(self, "word_only", False):
            return {}
        runs, run = [], []
        for m in v["struct_members"]:
            if m["decl"].strip() == "uint8_t" and not m["dim"] and m["name"] != "pmregs_pad":
                run.append(m["name"])
            else:
                runs.append(run)
                run = []
        runs.append(run)
        plan = {}
        for run in runs:
            for i in range(0, len(run) - 7, 8):
                k = len(self.pack_words)
                self.pack_words[k] = (run[i], run[i:i + 8])
                for j, name in enumerate(run[i:i + 8]):
                    plan[name] = (k, 8 * j)
        return plan

    MARK = "\x00"                   # a line that put_words() replaces: a packed member's store

    def put(self, pad, name, T, x="x"):
        """The store of member name's value x: a packed byte member's is decided at its path's end
        (put_words(); the value is in x here, and in f_name, which read_lines() sets, until then);
        any other member's goes to *out."""
        if name in getattr(self, "pack", {}):
            return [f"{self.MARK}put {name} {pad}"] if self.pw is not None else []
        return [f"{pad}out->{name} = ({T}){x};"]

    def put_zero(self, pad, name):
        return [] if name in getattr(self, "pack", {}) and self.pw is not None else [f"{pad}out->{name} = 0;"]

    def path_begin(self, out, pad):
        self.pw, self.pw_out, self.pw_start = {}, out, len(out)
        out.append(f"{self.MARK}begin {pad}")

    def put_words(self, Pk, v, consts):
        """A path's end: its packed words stored, each once, with what the path knows without reading it
        (consts: name -> C constant, or (C value,) computed: the shape, a field the tree read) and, for a word that a
        flag run fills (bw<k>), those flags: at the path's start when no flag run fills it, else after the
        flags. A byte member the path reads is stored on its own after its word (from x as it is read,
        or from f_name after the flags)."""
        out, start = self.pw_out, self.pw_start
        T = dict({m["name"]: m["T"] for m in v["members"]}, shape="uint8_t")
        flagged = {int(l.split()[1]) for l in out[start:] if l.startswith(self.MARK + "flags")}
        seen, held, res = set(), {}, []

        def word(k, pad):
            first, names = self.pack_words[k]
            terms = [f"bw{k}"] if k in flagged else []
            after = []
            for name in names:
                if name not in consts:
                    continue
                c, sh = consts[name], self.pack[name][1]
                if isinstance(c, tuple) and sh:
                    # a value the path computes: its own byte store (a shift and an or into the word cost more)
                    after.append(f"{pad}out->{name} = ({T[name]}){c[0]};")
                    continue
                c = c[0] if isinstance(c, tuple) else c
                terms.append(f"((uint64_t){c} << {sh})" if sh else f"(uint64_t){c}")
            val = " | ".join(terms) if terms else "0"
            return [f"{pad}pmregs_ip_store64((unsigned char *)out + offsetof({v['struct']}, {first}), {val});"] + after
        for line in out[start:]:
            if not line.startswith(self.MARK):
                res.append(line)
                continue
            kind, rest = line[1:].split(" ", 1)
            if kind == "begin":
                for k in sorted(self.pack_words):
                    if k not in flagged:
                        res += word(k, rest)
            elif kind == "flags":
                k, pad = rest.split(" ", 1)
                k = int(k)
                seen.add(k)
                res += word(k, pad)
                res += [f"{pad}out->{n} = ({T[n]})f_{n};" for n in held.pop(k, [])]
            else:
                name, pad = rest.split(" ", 1)
                k = self.pack[name][0]
                if name in consts:
                    continue
                if k in flagged and k not in seen:
                    held.setdefault(k, []).append(name)
                else:
                    res.append(f"{pad}out->{name} = ({T[name]})x;")
        out[start:] = res
        self.pw = None
        return []

    def flag_run(self, run, k0):
        """The longest run of run[k0:] (a shared read's fields, in grp from its first bit on) that one
        multiply spreads into their packed bytes: 1-bit fields, no `is`, 2..7 adjacent ones that land in
        adjacent bytes of one word: its length, else 0."""
        if self.pw is None:
            return 0
        n = 0
        while k0 + n < len(run) and n < 7:
            F = run[k0 + n][1]
            if F.rest or F.width.const != 1 or F.is_set is not None or F.implied is not None or \
                    F.name not in self.pack:
                break
            if n and self.pack[F.name] != (self.pack[run[k0][1].name][0], self.pack[run[k0][1].name][1] + 8 * n):
                break
            n += 1
        return n if n >= 2 else 0

    def read_lines(self, Pk, F, v, ind, maxstart=HEAD_BITS, group=None):
        T = {m["name"]: m["T"] for m in v["members"]}
        r = self.res(fields=self.dec_refs)
        pad = "\t" * ind
        out = []
        if F.rest:
            out.append(f"{pad}rest = 1;")
            return out
        wc = self.width_c(F, r)
        get = self.inplace_get(Pk, F, maxstart)
        lay = self.lay_entry(F)
        if lay is not None:
            wc, maskc = lay["w"], lay["m"]
            get = self.inplace_get(Pk, F, maxstart, maskc=maskc)
        if group is not None:
            get = lambda w: f"(grp >> {group}) & PMREGS_U64({(1 << F.width.const) - 1:#x})"   # noqa: E731
        if F.width.const is not None:
            out.append(f"{pad}x = {get(wc)};")
            out.append(f"{pad}pos += {wc};" if F.width.const else f"{pad}/* zero-width field */")
        else:
            out.append(f"{pad}w = {wc};")
            out.append(f"{pad}x = {get('w')};")
            out.append(f"{pad}pos += w;")
        if F.implied is not None:
            cond = "w == 0" if F.width.const is None else ("1" if F.width.const == 0 else "0")
            out.append(f"{pad}if ({cond})")
            out.append(f"{pad}\tx = {self.tool.c(F.implied.tree, r)};")
        out += self.put(pad, F.name, T[F.name])
        if F.name in self.dec_refs:
            out.append(f"{pad}f_{F.name} = x;")
        return out

    def tail_lines(self, Pk, F, v, ind, maxstart, off):
        """The variable-width field (width in w) that ends a shared read at bit off of grp: from grp when
        off + w <= 64 (a test that parameters decide unless it always holds), else read on its own."""
        T = {m["name"]: m["T"] for m in v["members"]}
        pad = "\t" * ind
        lay = self.lay_entry(F)
        maskc = lay["m"] if lay is not None else None
        x = f"(grp >> {off}) & {maskc or self.low_mask('w', None, F.max_width)}"
        if off + F.max_width > 64:
            x = f"{off}u + w <= 64u ? {x} : {self.window_get(Pk, maxstart, F.max_width, None, maskc=maskc)('w')}"
        out = [f"{pad}x = {x};", f"{pad}pos += w;"] + self.put(pad, F.name, T[F.name])
        if F.name in self.dec_refs:
            out.append(f"{pad}f_{F.name} = x;")
        return out

    def inplace_get(self, Pk, F, maxstart, maskc=None):
        """The in-place read of field F (base_inplace.h): a payload at bit `at`, sign-filled past `end`;
        a frame from bit 0, zeros past the received bytes. A frame's field that ends within the first
        HEAD_BITS bits whatever the parameters comes from `head`, those bits read once per packet; a
        payload's fields come from its window (pmregs_ip_window(), its first WINDOW_BITS bits)."""
        const = F.width.const
        if Pk.compression == "sign":
            return self.window_get(Pk, maxstart, F.max_width, const, maskc=maskc)
        if maxstart + F.max_width <= HEAD_BITS:
            return lambda w: f"(head >> (pos & 63)) & {maskc or self.low_mask(w, const, F.max_width)}"
        return self.inplace_read(Pk, "pmregs_ip_get57" if F.max_width <= 57 else "pmregs_ip_get")

    @staticmethod
    def low_mask(w, const, wmax):
        """C for the low w bits set, for a width that is the constant const or at most wmax."""
        if const is not None:
            return f"PMREGS_U64({(1 << const) - 1:#x})"
        if wmax < 64:
            return f"(((uint64_t)1 << ({w} & 63)) - 1)"
        return f"pmregs_lowmask({w})"

    def lay_entry(self, F):
        """The layout entry (word decoder, frame decoder) for field F when only parameters decide its width (added on first
        use; the same width expression shares one entry), else None."""
        if not getattr(self, "lay_on", False) or F.rest or F.width is None or F.width.const is not None:
            return None
        if self.tool.names(F.width.tree) & self.lay_members:
            return None
        e = self.lay.get(F.width.text)
        if e is None:
            k, c = len(self.lay), self.width_c(F, self.res())
            # without a layout (L null), or where the compiler sees the parameters as constants, the
            # width is computed where it is needed
            e = self.lay[F.width.text] = {
                "k": k, "c": c, "text": F.width.text,
                "w": f"(!L || PMREGS_IP_CONSTANT({c}) ? {c} : (unsigned)L->width[{k}])",
                "m": f"(!L || PMREGS_IP_CONSTANT({c}) ? {self.low_mask(c, None, F.max_width)} : L->mask[{k}])"}
        return e

    def lay_terms(self, tree):
        """tree with each largest part that only parameters decide (not a lone name or constant; a value of
        0..255) replaced by a name for its layout entry, and the C text of those names (res()'s extra)."""
        extra = {}

        def param_only(node):
            names = self.tool.names(node)
            return bool(names) and all(n in self.fam.param_map or n in self.fam.width_map for n in names)

        def sub(node):
            if not isinstance(node, (ast.Name, ast.Constant)) and param_only(node):
                lo, hi = self.tool.rng(None, node, Scope(self.fam))
                if 0 <= lo and hi <= 255:
                    text = ast.unparse(node)
                    e = self.lay.get(text)
                    if e is None:
                        e = self.lay[text] = {"k": len(self.lay), "c": self.tool.c(node, self.res()), "text": text}
                    e.setdefault("v", f"(!L || PMREGS_IP_CONSTANT({e['c']}) ? {e['c']} : (uint64_t)L->width[{e['k']}])")
                    name = f"pmregs_lay_{e['k']}"
                    extra[name] = e["v"]
                    return ast.Name(id=name, ctx=ast.Load())
            for fname, val in ast.iter_fields(node):
                if isinstance(val, ast.AST):
                    setattr(node, fname, sub(val))
                elif isinstance(val, list):
                    setattr(node, fname, [sub(x) if isinstance(x, ast.AST) else x for x in val])
            return node
        return sub(copy.deepcopy(tree)), extra

    def window_get(self, Pk, maxstart, wmax, const, mask=True, maskc=None):
        """A payload's read of a field that starts at most at bit maxstart and is at most wmax bits wide:
        the first word of the window when it always ends there, the two words when it always ends within
        the window, else the window while it does and the buffer beyond (a test that parameters decide).
        mask=False: the bits above the field are left as they are (a shared read masks each field)."""
        m = (lambda w: f" & {maskc or self.low_mask(w, const, wmax)}") if mask else (lambda w: "")  # noqa: E731
        if getattr(self, "word_only", False):
            # the word decoder: a payload of at most 64 bits, xor the fill, zeros past it (pmregs_ip_xget());
            # a field that ends within the word reads the same from xf = xw ^ fill (one xor per packet)
            if maxstart + wmax <= 64:
                return lambda w: f"(xf >> (pos & 63)){m(w)}"
            if maxstart <= 63:
                # starts within the word: the shift needs no bound (the bits past the payload are 0 in xw)
                return lambda w: f"((xw >> (pos & 63)) ^ fill){m(w)}"
            return lambda w: f"pmregs_ip_xget(xw, fill, pos){m(w)}"
        if maxstart + wmax <= 64:
            return lambda w: f"(win[0] >> (pos & 63)){m(w)}"
        if maxstart + wmax <= WINDOW_BITS:
            return lambda w: f"pmregs_ip_wget(win, pos){m(w)}"
        fn = "pmregs_ip_get57" if wmax <= 57 else "pmregs_ip_get"
        return lambda w: (f"pos + {w} <= {WINDOW_BITS}u ? pmregs_ip_wget(win, pos){m(w)}"
                          f" : {fn}(c, at + pos, end, fill, {w})")

    def inplace_read(self, Pk, fn):
        if Pk.compression == "sign":
            return lambda w: f"{fn}(c, at + pos, end, fill, {w})"
        return lambda w: f"{fn}(c, pos, nbits, 0, {w})"

    def shared_read(self, fields, shape, head=HEAD_BITS, var_tail=False, ms=None, skip=()):
        """The leading run of fields (constant widths, together at most 57 bits, past the head) that one
        read or write can serve: e.g. the flag bits after an address. With var_tail (a sign-compressed
        payload's decoder), the run may end with one field of a parameter-dependent width (at most 64
        bits) that none of them decides: e.g. irdepth after the flags; the read then covers it whenever the
        run fits in 64 bits. ms(i): where field i starts at most (default: in shape); fields in skip end
        the run."""
        run, total = [], 0
        ms = ms or (lambda i: self.max_start(shape, i))  # noqa: E731
        for i, F in fields:
            w = None if F.rest else F.width.const
            if F.implied is not None or ms(i) + F.max_width <= head or i in skip:
                break
            if w is None and var_tail and run and not F.rest and F.is_set is None and F.max_width <= 64 and \
                    not _refs(self.tool, [F.width]) & {R.name for _, R in run}:
                run.append((i, F))
                break
            if not w or total + w > 57:
                break
            run.append((i, F))
            total += w
        return run, total

    def header_bytes(self, Pk):
        """Bytes a frame decoder reads at most: every field before the rest of the packet at its widest."""
        return (max(sum(F.max_width for F in S.fields if not F.rest) for S in Pk.shapes) + 7) // 8

    def bad(self, Pk):
        return "return pos > nbits ? PMREGS_ETRUNC : PMREGS_EINVAL;" if Pk.is_frame else "return PMREGS_EINVAL;"

    def tree_lines(self, Pk, node, out, ind, v):
        pad = "\t" * (ind + 1)
        if isinstance(node, Leaf):
            fields = list(enumerate(node.shape.fields[node.index:], node.index))
            if getattr(self, "word_only", False):
                # the word decoder zeroes, per shape, only what the shape lacks (the rest it writes)
                have = {F.name for F in node.shape.fields}
                if self.pack:
                    self.path_begin(out, pad)
                for m in v["members"]:
                    if m["name"] not in have:
                        out += self.put_zero(pad, m["name"])
            # a width that tests a field with an `is` reads as what that `is` makes of it (checked before)
            self.tool.known = {F.name: (F.is_set[0][0], F.is_set[-1][1]) for F in node.shape.fields if F.is_set}
            try:
                self.fields_lines(Pk, fields, lambda i: self.max_start(node.shape, i), out, ind, v)
            finally:
                self.tool.known = {}
            macro = v['shapes'][Pk.shapes.index(node.shape)]['macro']
            if self.pw is not None:
                consts = {"shape": macro}
                consts.update(self.tree_values(node.shape.fields[:node.index]))
                out += self.put_words(Pk, v, consts)
                self.pw = None
            if "shape" not in getattr(self, "pack", {}):
                out.append(f"{pad}out->shape = {macro};")
            return
        shape = self.any_shape(node)
        F = shape.fields[node.index]
        out += self.read_lines(Pk, F, v, ind + 1, self.max_start(shape, node.index))
        if isinstance(node, Read):
            self.tree_lines(Pk, node.child, out, ind, v)
            return
        cases = []
        for k, (s, sub) in enumerate(node.cases):
            cond = self.is_cond(type("F", (), {"is_set": s})())
            cases.append(f"{pad}{'if' if k == 0 else '} else if'} ({cond}) {{")
            self.tree_lines(Pk, sub, cases, ind + 1, v)
        cases.append(f"{pad}}} else {{")
        cases.append(f"{pad}\t{self.bad(Pk)}")
        cases.append(f"{pad}}}")
        # merged shapes first, but generated after the tree: the layout's entries keep the tree's order
        for M in Pk.merges if getattr(self, "word_only", False) else []:
            if M["node"] is node:
                self.merged_lines(Pk, M, out, ind, v)
        out += cases

    def tree_values(self, fields):
        """Packed members that the decision tree read: the value its `is` fixes, else f_name."""
        r = {}
        for F in fields:
            if F.name in self.pack:
                fixed = F.is_set is not None and len(F.is_set) == 1 and F.is_set[0][0] == F.is_set[0][1]
                r[F.name] = f"PMREGS_U64({F.is_set[0][0]})" if fixed else (f"f_{F.name}",)
        return r

    def fields_lines(self, Pk, fields, ms, out, ind, v, partial=None, checks=None, known=None):
        """The reads of fields [(i, F)] in order, field i starting at most at bit ms(i). partial: i -> the
        C mask (all ones or 0) that says whether field i is there (merged shapes: 0 bits wide when not);
        checks: i -> the lines that test field i instead of its `is` (a bad packet when it does not hold);
        known: i -> the tool's `known` ranges for field i's width (default: as they are)."""
        pad = "\t" * (ind + 1)
        outer = self.tool.known

        def at(i):
            self.tool.known = known(i) if known else outer
        try:
            self.fields_loop(Pk, fields, ms, out, ind, v, partial, checks, at)
        finally:
            self.tool.known = outer

    def fields_loop(self, Pk, fields, ms, out, ind, v, partial, checks, at):
        pad = "\t" * (ind + 1)
        partial, checks, sign = partial or {}, checks or {}, Pk.compression == "sign"
        k = 0
        while k < len(fields):
            if fields[k][0] in partial:
                i, F = fields[k]
                at(i)
                out += self.partial_lines(Pk, F, v, ind + 1, ms(i), *partial[i])
                out += self.is_lines(Pk, F, pad, checks.get(i))
                k += 1
                continue
            run, total = self.shared_read(fields[k:], None, 64 if sign else HEAD_BITS, var_tail=sign, ms=ms,
                                          skip=partial)
            tail = run[-1][1] if len(run) >= 2 and run[-1][1].width.const is None else None
            if len(run) < 2:
                run = fields[k:k + 1]
            elif tail is not None:
                # w first; one read of the run and the tail (its low 64 bits when they are more)
                at(run[-1][0])
                lay = self.lay_entry(tail)
                wc = lay["w"] if lay is not None else \
                    self.width_c(tail, self.res(fields=self.dec_refs))
                out.append(f"{pad}w = {wc};")
                get = self.window_get(Pk, ms(run[0][0]), total + tail.max_width, None, mask=False)
                out.append(f"{pad}grp = {get(f'({total}u + w)')};")
            elif sign:
                get = self.window_get(Pk, ms(run[0][0]), total, total)
                out.append(f"{pad}grp = {get(f'{total}u')};")
            else:
                out.append(f"{pad}grp = {self.inplace_read(Pk, 'pmregs_ip_get57')(f'{total}u')};")
            off, j = 0, 0
            while j < len(run):
                i, F = run[j]
                at(i)
                if F is tail:
                    out += self.tail_lines(Pk, F, v, ind + 1, ms(i), off)
                    break
                n = self.flag_run(run, j) if len(run) > 1 else 0
                if n:
                    # n flags to n bytes: bit b moves to bit 8b (no two partial products meet: no carry)
                    wk, sh = self.pack[F.name]
                    mul = sum(1 << (7 * b + sh) for b in range(n))
                    msk = sum(1 << (8 * b + sh) for b in range(n))
                    op = "|=" if wk in self.pw else "="
                    self.pw[wk] = True
                    out.append(f"{pad}bw{wk} {op} (((grp >> {off}) & PMREGS_U64({(1 << n) - 1:#x})) * "
                               f"PMREGS_U64({mul:#x})) & PMREGS_U64({msk:#x}); /* {', '.join(G.name for _, G in run[j:j + n])} */")
                    out.append(f"{pad}pos += {n}u;")
                    out.append(f"{self.MARK}flags {wk} {pad}")
                    for b, (_, G) in enumerate(run[j:j + n]):
                        if G.name in self.width_refs:
                            out.append(f"{pad}f_{G.name} = (grp >> {off + b}) & 1u;")
                    off += n
                    j += n
                    continue
                out += self.read_lines(Pk, F, v, ind + 1, ms(i), group=off if len(run) > 1 else None)
                off += 0 if F.rest else F.width.const or 0
                out += self.is_lines(Pk, F, pad, checks.get(i))
                j += 1
            k += len(run)

    def is_lines(self, Pk, F, pad, lines):
        if lines is not None:
            return [pad + x for x in lines]
        if F.is_set is None:
            return []
        return [f"{pad}if (!({self.is_cond(F)}))", f"{pad}\t{self.bad(Pk)}"]

    def zero_width(self, F, zero):
        """True when F's width (as the tool's `known` ranges fold it) is 0 whenever the fields in zero are 0
        and it reads nothing else."""
        names = self.tool.names(F.width.tree)
        if not names or not names <= zero:
            return False
        return self.tool.value(self.folded(F.width.tree), {n: 0 for n in names}) == 0

    def folded(self, tree):
        """A copy of tree with each conditional that the tool's `known` ranges decide replaced by its branch
        (what the generated C computes there)."""
        def fold(node):
            if isinstance(node, ast.IfExp):
                d = self.tool.decided(node.test)
                if d is not None:
                    return fold(node.body if d else node.orelse)
            for name, val in ast.iter_fields(node):
                if isinstance(val, ast.AST):
                    setattr(node, name, fold(val))
            return node
        return fold(copy.deepcopy(tree))

    def partial_lines(self, Pk, F, v, ind, maxstart, pm, zero=frozenset()):
        """Field F of merged shapes, there when the mask pm is all ones and 0 bits wide (stored as 0) when 0.
        zero: the fields that are 0 where F is absent (a width they make 0 there needs no mask)."""
        T = {m["name"]: m["T"] for m in v["members"]}
        pad = outer = "\t" * ind
        out = []
        lay = self.lay_entry(F)
        tab = self.width_table(Pk, F) if lay is None and F.width.const is None and self.zero_width(F, zero) else None
        if tab is not None:
            # its width and mask from two tables by the field that decides them (cheaper than the expression),
            # in a block of their own
            ws, ms, mt, ix = tab
            pad = outer + "\t"
            out += [f"{outer}{{", f"{pad}static const unsigned char wtab[{len(ws)}] = {{{', '.join(map(str, ws))}}};",
                    f"{pad}static const {mt} mtab[{len(ms)}] = {{{', '.join(ms)}}};",
                    f"{pad}w = wtab[{ix}]; /* 0 where it is absent */"]
            wc, maskc = "w", f"mtab[{ix}]"
        elif lay is None and F.width.const is None and self.zero_width(F, zero):
            out.append(f"{pad}w = {self.width_c(F, self.res(fields=self.dec_refs))}; /* 0 where it is absent */")
            wc, maskc = "w", None
        elif F.width.const is not None:
            wc, maskc = f"({F.width.const}u & (unsigned){pm})", f"({self.low_mask(None, F.width.const, 0)} & {pm})"
        elif lay is not None:
            out.append(f"{pad}w = {lay['w']} & (unsigned){pm};")
            wc, maskc = "w", f"({lay['m']} & {pm})"
        else:
            out.append(f"{pad}w = {self.width_c(F, self.res(fields=self.dec_refs))} & (unsigned){pm};")
            wc, maskc = "w", None
        get = self.window_get(Pk, maxstart, F.max_width, None, maskc=maskc)
        out.append(f"{pad}x = {get(wc)};")
        out.append(f"{pad}pos += {wc};")
        out += self.put(pad, F.name, T[F.name])
        if F.name in self.dec_refs:
            out.append(f"{pad}f_{F.name} = x;")
        if pad != outer:
            out.append(f"{outer}}}")
        return out

    def width_table(self, Pk, F, most=6):
        """([width], [mask C], mask type, index C) of field F when its width is a function of one earlier
        field alone (no parameter), of a constant width of at most `most` bits; else None."""
        names = self.tool.names(F.width.tree)
        if len(names) != 1 or self.params_of(F.width.tree, frozenset(names)) != set():
            return None
        G = next(iter(names))
        gw = {H.width.const for S in Pk.shapes for H in S.fields if H.name == G}
        if len(gw) != 1 or None in gw or not 1 <= next(iter(gw)) <= most or G not in self.dec_refs:
            return None
        n = 1 << next(iter(gw))
        tree = self.folded(F.width.tree)
        try:
            ws = [self.tool.value(tree, {G: x}) for x in range(n)]
        except (KeyError, ZeroDivisionError, ValueError):
            return None
        if any(not 0 <= w <= min(64, F.max_width) for w in ws):
            return None
        wide = any(w > 32 for w in ws)
        ms = [f"PMREGS_U64({(1 << w) - 1:#x})" if wide else f"{(1 << w) - 1:#x}u" for w in ws]
        return ws, ms, "uint64_t" if wide else "uint32_t", f"{self.res(fields=self.dec_refs)(G)} & {n - 1}u"

    def key_table(self, M, most=8):
        """A merge group's table, keyed on the bits from its switch's field on (that field at a constant
        position, then the group's leading fields of constant width, at most `most` bits in all): for each
        key, whether it picks a member whose `is` of those fields hold, that member, the fields' values (0
        where absent), the position and width of each following field whose width they alone decide (no
        parameter, no `is`, not a packed byte member, within the first 64 bits; 0 wide where absent), and
        the position after those (up to the last such field of varying width). None when there is none (the
        table would only replace arithmetic that is as cheap)."""
        sw, members = M["node"], M["members"]
        lead = members[0][1].fields[:sw.index + 1]
        if any(F.width.const is None for F in lead):
            return None
        s0, dw = sum(F.width.const for F in lead[:-1]), lead[-1].width.const
        names = M["fields"]

        def field(j, name):
            return next((F for F in members[j][1].fields[sw.index + 1:] if F.name == name), None)
        nkey, ends = 0, [dw] * len(members)
        while nkey < len(names):
            fs = [field(j, names[nkey]) for j in range(len(members))]
            if any(F is not None and (F.rest or F.width.const is None or F.implied is not None) for F in fs):
                break
            new = [e + (F.width.const if F is not None else 0) for F, e in zip(fs, ends)]
            if max(new) > most or s0 + max(new) > 64:
                break
            ends, nkey = new, nkey + 1
        keyn, ntab = frozenset(names[:nkey]), 0
        while nkey + ntab < len(names):
            name = names[nkey + ntab]
            fs = [F for F in (field(j, name) for j in range(len(members))) if F is not None]
            if name in self.pack or any(F.rest or F.is_set is not None or F.implied is not None or
                                        (F.width.const is None and (not self.tool.names(F.width.tree) <= keyn or
                                                                    self.params_of(F.width.tree, keyn) != set()))
                                        for F in fs):
                break
            ntab += 1
        # up to the last field of varying width (a constant one after it follows from pos as cheaply)
        vary = [t for t in range(ntab) if any(F is not None and F.width.const is None
                                              for F in (field(j, names[nkey + t]) for j in range(len(members))))]
        if not nkey or not vary:
            return None
        ntab = vary[-1] + 1
        bits, entries = max(ends), []
        for key in range(1 << bits):
            sel = key & ((1 << dw) - 1)
            j = next((j for j, (st, _) in enumerate(members) if any(lo <= sel <= hi for lo, hi in st)), None)
            vals, pos, tabs = {}, dw, []
            for name in names[:nkey]:
                F = field(j, name) if j is not None else None
                vals[name] = (key >> pos) & ((1 << F.width.const) - 1) if F is not None else 0
                if F is not None and F.is_set is not None and not any(lo <= vals[name] <= hi for lo, hi in F.is_set):
                    j = None
                pos += F.width.const if F is not None else 0
            if j is None:
                entries.append(None)
                continue
            for name in names[nkey:nkey + ntab]:
                F = field(j, name)
                try:
                    w = 0 if F is None else F.width.const if F.width.const is not None else \
                        self.tool.value(F.width.tree, vals)
                except (KeyError, ZeroDivisionError, ValueError):
                    return None
                if F is not None and not 0 <= w <= F.max_width or s0 + pos + w > 64:
                    return None
                tabs.append((s0 + pos, w))
                pos += w
            entries.append({"member": j, "vals": vals, "tabs": tabs, "pos": s0 + pos})
        return {"s0": s0, "bits": bits, "disc": lead[-1].name, "key": names[:nkey], "tab": names[nkey:nkey + ntab],
                "entries": entries}

    def key_table_lines(self, kt, pad, macro):
        """The C of a key table (key_table()): a block-scope array of structs without implicit padding, of
        4, 8 or 16 bytes when that holds them (indexing scales), and the key, read from xf. pos 0 marks a
        key that the group does not take; macro[j]: member j's shape constant."""
        wide = any(w > 32 for e in kt["entries"] if e for _, w in e["tabs"])
        mt, msz = ("uint64_t", 8) if wide else ("uint32_t", 4)
        byt = ["pos", "shape"] + [f"v_{n}" for n in kt["key"]] + [f"p_{n}" for n in kt["tab"]]
        size = msz * len(kt["tab"]) + len(byt)
        full = next((n for n in (4, 8, 16) if n >= size and n % msz == 0), -(-size // msz) * msz)
        decl = " ".join(f"{mt} m_{n};" for n in kt["tab"]) + f" uint8_t {', '.join(byt)}" + \
            (f", pmregs_pad[{full - size}]" if full > size else "") + ";"
        rows = []
        for e in kt["entries"]:
            if e is None:
                vals = ["0"] * (len(kt["tab"]) + len(byt))
            else:
                vals = [f"PMREGS_U64({(1 << w) - 1:#x})" if wide else f"{(1 << w) - 1:#x}u" for _, w in e["tabs"]]
                vals += [str(e["pos"]), macro[e["member"]]] + [str(e["vals"][n]) for n in kt["key"]]
                vals += [str(p) for p, _ in e["tabs"]]
            rows.append("{" + ", ".join(vals + (["{0}"] if full > size else [])) + "}")
        key = f"(xf >> {kt['s0']})" if kt["s0"] else "xf"
        lo, hi = kt["s0"], kt["s0"] + kt["bits"] - 1
        tabs = " and ".join(kt["tab"])
        doc = (f"/* by bits {lo}..{hi} ({', '.join([kt['disc']] + kt['key'])}): pos, where {kt['tab'][-1]} ends (0: not this "
               f"path), the shape, {' and '.join(kt['key'])} (0 where absent), where {tabs} start{'s' if len(kt['tab']) == 1 else ''}"
               f" and {'their masks' if len(kt['tab']) > 1 else 'its mask'} (0 where absent) */")
        return ([f"{pad}{doc}", f"{pad}static const struct {{ {decl} }} ktab[{len(rows)}] = {{"] +
                [f"{pad}\t{', '.join(rows[i:i + 4])}{',' if i + 4 < len(rows) else ''}" for i in range(0, len(rows), 4)] +
                [f"{pad}}};", f"{pad}const unsigned key = (unsigned)({key} & {len(rows) - 1}u);"])

    def merged_lines(self, Pk, M, out, ind, v):
        """A merge group (Pk.merges) at its switch, whose field is in x: when x chooses one of the group's
        shapes, that shape read on the group's one path, returning; when a later `is` of it does not hold,
        x and pos as they were, for the decision tree. With a key table (key_table()), the table tells
        whether the group takes the packet, which member it is, and the leading fields' values,
        positions and masks, instead of a test and arithmetic one after another."""
        pad = "\t" * (ind + 1)
        sw, members = M["node"], M["members"]
        cond = lambda s: self.is_cond(type("F", (), {"is_set": s})(), "sel")     # noqa: E731
        every = sorted(r for s, _ in members for r in s)
        macro = {S.name: v["shapes"][Pk.shapes.index(S)]["macro"] for _, S in members}
        kt = self.key_table(M)
        done = set(kt["key"] + kt["tab"]) if kt else set()
        outer = pad
        if kt:
            # a block of its own for the table's declarations
            out.append(f"{pad}{{")
            pad += "\t"
            out += self.key_table_lines(kt, pad, [macro[S.name] for _, S in members])
        head = len(out)
        # merged shapes are the common ones: their path laid out straight
        test = "ktab[key].pos" if kt else self.is_cond(type('F', (), {'is_set': every})())
        out.append(f"{pad}if (PMREGS_LIKELY({test})) {{")
        pad1 = pad + "\t"
        names = ", ".join(S.name for _, S in members)
        out.append(f"{pad1}/* {names}: one path, no branch on which */")
        where = {}                      # field name -> [(member index, field index)]
        for j, (_, S) in enumerate(members):
            for i, F in enumerate(S.fields[sw.index + 1:], sw.index + 1):
                where.setdefault(F.name, []).append((j, i))
        masks, decl = {}, []
        for name in M["fields"]:
            js = tuple(j for j, _ in where[name])
            if name not in done and len(js) < len(members) and js not in masks:
                masks[js] = f"m{len(masks)}"
                c = " || ".join(f"({cond(members[j][0])})" for j in js)
                decl.append(f"{masks[js]} = {self.sel_mask([members[j][0] for j in js], every, c)}")
        def mask_of(j):
            if (j,) not in masks:
                masks[(j,)] = f"m{len(masks)}"
                decl.append(f"{masks[(j,)]} = {self.sel_mask([members[j][0]], every, cond(members[j][0]))}")
            return masks[(j,)]
        for name in M["fields"]:
            for j, i in where[name]:
                if name not in done and members[j][1].fields[i].is_set:
                    mask_of(j)
        for j in range(1, len(members) if not kt else 1):     # the shape's value (the table holds it)
            mask_of(j)
        spos = len(out) + 1
        if masks or not kt:
            out.append(f"{pad1}const uint64_t sel = x;")
        if decl:
            out.append(f"{pad1}uint64_t {', '.join(decl)};")
            out += [f"{pad1}PMREGS_IP_OPAQUE({masks[js]});" for js in masks]
        fields, partial, checks = [], {}, {}
        for k, name in enumerate(M["fields"]):
            if name in done:
                continue
            at = where[name]
            F = members[at[0][0]][1].fields[at[0][1]]
            fields.append((k, F))
            js = tuple(j for j, _ in at)
            if len(js) < len(members):
                # fields that only shapes with this one have: 0 (read 0 bits wide) where it is absent
                zero = frozenset(G for G in M["fields"][:k] if set(j for j, _ in where[G]) <= set(js) and
                                 len(where[G]) < len(members))
                partial[k] = (masks[js], zero)
            sel_is = [(j, members[j][1].fields[i].is_set) for j, i in at if members[j][1].fields[i].is_set]
            if sel_is:
                # a later `is` of a shape: when it does not hold, the decision tree reads the packet
                # (masks and bitwise operators: no branch on which shape)
                bad = " | ".join(f"({mask_of(j)} & (uint64_t)!({self.is_cond(type('F', (), {'is_set': s})(), width=F.width.const)}))"
                                 for j, s in sel_is)
                checks[k] = [f"if (PMREGS_UNLIKELY({bad})) {{", "\tx = sel;", "\tpos = spos;", "\tbreak;", "}"]
        ms = lambda k: max(self.max_start(members[j][1], i) for j, i in where[M["fields"][k]])   # noqa: E731
        have = set(M["fields"]) | {F.name for F in members[0][1].fields[:sw.index + 1]}
        if self.pack:
            self.path_begin(out, pad1)
        for m in v["members"]:
            if m["name"] not in have:
                out += self.put_zero(pad1, m["name"])
        if kt:
            # the leading fields from the table: the key's fields' values, then each following field at its
            # position with its mask (0 where absent)
            T = {m["name"]: m["T"] for m in v["members"]}
            for name in kt["key"] + kt["tab"]:
                get = f"ktab[key].v_{name}" if name in kt["key"] else f"(xf >> ktab[key].p_{name}) & ktab[key].m_{name}"
                out.append(f"{pad1}x = {get};")
                out += self.put(pad1, name, T[name])
                if name in self.dec_refs:
                    out.append(f"{pad1}f_{name} = x;")
            out.append(f"{pad1}pos = ktab[key].pos;")
        def known(k):
            # what the `is` of the shapes that have field k make of the fields its width tests (0 where absent)
            r = {}
            for G in {G for _, S in members for G in S.fields}:
                hull = []
                for j, i in where[M["fields"][k]]:
                    Gs = [H for H in members[j][1].fields[:i] if H.name == G.name]
                    if not Gs:
                        hull.append((0, 0))
                    elif Gs[0].is_set:
                        hull.append((Gs[0].is_set[0][0], Gs[0].is_set[-1][1]))
                    else:
                        hull = None
                        break
                if hull:
                    r[G.name] = (min(h[0] for h in hull), max(h[1] for h in hull))
            return r
        self.tool.branchless = True
        try:
            self.fields_lines(Pk, fields, ms, out, ind + 1 + bool(kt), v, partial=partial, checks=checks, known=known)
        finally:
            self.tool.branchless = False
        # the first shape's value, xor its difference from the chosen one's (the masks exclude each other)
        first = macro[members[0][1].name]
        pick = "ktab[key].shape" if kt else " ^ ".join(
            [f"(uint64_t){first}"] + [f"(((uint64_t){macro[S.name]} ^ {first}) & {mask_of(j)})"
                                      for j, (_, S) in enumerate(members[1:], 1)])
        if self.pw is not None:
            consts = self.tree_values(members[0][1].fields[:sw.index])
            consts["shape"] = (f"({pick})",)
            if members[0][1].fields[sw.index].name in self.pack:
                consts[members[0][1].fields[sw.index].name] = ("sel",) if not kt else \
                    (f"(key & {(1 << members[0][1].fields[sw.index].width.const) - 1}u)",)   # the key holds it
            out += self.put_words(Pk, v, consts)
            self.pw = None
        if "shape" not in self.pack:
            out.append(f"{pad1}out->shape = (uint8_t)({pick});")
        # the template's end of the word decoder
        fields_all = {m["name"] for m in v["members"]}
        for e, doc in getattr(Pk, "checks", []):
            out.append(f"{pad1}if (!{self.tool.truth(e.tree, self.res(fields=fields_all, local=False, struct='out'))})"
                       f" /* {comment_text(doc or '')} */")
            out.append(f"{pad1}\treturn PMREGS_EINVAL;")
        out.append(f"{pad1}return pmregs_ip_xcheck_tail(xw, pos, have);")
        if checks:
            # a block that a failed `is` leaves with break
            out[head] = out[head][:-1] + "do {"
            out.insert(spos, f"{pad1}const unsigned spos = pos;")
            out.append(f"{pad}}} while (0);")
        else:
            out.append(f"{pad}}}")
        if kt:
            out.append(f"{outer}}}")

    @staticmethod
    def sel_mask(sets, every, c):
        """C for all ones when sel (one of the values in the ranges every) is in one of sets, else 0; c: that
        condition. Two values a, b = a + 1: a subtraction (sel - b, or a - sel), not a compare and a negation."""
        vals = {x for lo, hi in every for x in range(lo, hi + 1)}
        on = {x for s in sets for lo, hi in s for x in range(lo, hi + 1)} & vals
        if len(vals) == 2 and len(on) == 1:
            a, b = next(iter(on)), next(iter(vals - on))
            if a + 1 == b:
                return f"sel - {b}u"
            if a == b + 1:
                return f"(uint64_t){b}u - sel"
        return f"(uint64_t)0 - (uint64_t)({c})"

    def fast_frame(self, Pk, v, fixed, nbmax):
        """A stream reader's first try at a frame: the one shape that carries the rest of the packet, with
        the fields in `fixed` ({name: value}) at those values, every field before the rest read from `head`
        without a branch; the tests that hold exactly when the decoder would pick that shape and accept the
        packet (the fixed fields at constant positions in one mask test). The widths that only parameters
        decide come from the frame layout FL (the reader's name for it). None when that shape's fields do
        not all end within the head bits whatever the parameters, it cannot have those values, or a field
        in `fixed` sits where parameters decide."""
        shapes = [S for S in Pk.shapes if any(F.rest for F in S.fields)]
        if len(shapes) != 1:
            return None
        S = shapes[0]
        pre = []
        for i, F in enumerate(S.fields):
            if F.rest:
                break
            if F.implied is not None or F.differential or self.max_start(S, i) + F.max_width > HEAD_BITS:
                return None
            if F.name in fixed and (fixed[F.name] >= 1 << F.max_width or F.is_set is not None and
                                    not any(lo <= fixed[F.name] <= hi for lo, hi in F.is_set)):
                return None
            pre.append(F)
        if len(pre) + 1 != len(S.fields) or set(fixed) - {F.name for F in pre}:
            return None

        def fl(s):
            return re.sub(r"\bL->", "FL->", s.replace("(!L ||", "(!FL ||"))
        names = {F.name for F in pre}
        absent = {m["name"]: "PMREGS_U64(0)" for m in v["members"] if m["name"] not in names}
        consts = {n: f"PMREGS_U64({x})" for n, x in fixed.items()}
        r = self.res(fields=names, extra={**absent, **consts})
        decls = [f"uint64_t {', '.join('f_' + F.name for F in pre if F.name not in fixed)};"]
        lines = []
        conds, mask, value, cpos, dyn = [], 0, 0, 0, False
        ranged, tested = None, []     # the first range-tested field (its position, its test), fields in the mask
        for F in pre:
            lay = self.lay_entry(F)
            if F.width.const is not None:
                wc, m = f"{F.width.const}u", self.low_mask(None, F.width.const, F.max_width)
            elif lay is not None:
                wc, m = fl(lay["w"]), fl(lay["m"])
            else:
                wc, m = self.width_c(F, r), self.low_mask("w", None, F.max_width)
            if F.width.const is None:
                lines.append(f"w = {wc};")
                wc = "w"
            x = f"((head >> (pos & 63)) & {m})"
            one = F.is_set[0][0] if F.is_set is not None and len(F.is_set) == 1 and \
                F.is_set[0][0] == F.is_set[0][1] else None
            if F.name in fixed or one is not None:
                tested.append(F)
            if cpos is not None and (F.name in fixed or one is not None):
                mask |= ((1 << F.width.const) - 1) << cpos
                value |= fixed.get(F.name, one) << cpos
                if F.name not in fixed:
                    lines.append(f"f_{F.name} = {x};")
            elif F.name not in fixed and one is not None:
                # at a position that parameters decide: with the layout, its mask and value join the one
                # mask test (both computed once per block); without, a test of its own is cheaper
                dyn = True
                lines += ["if (FL) {", f"\txm |= {m} << (pos & 63);"] + \
                    ([f"\txv |= PMREGS_U64({one}) << (pos & 63);"] if one else []) + ["}"]
                # with the layout, that value where the test holds
                lines.append(f"f_{F.name} = FL ? PMREGS_U64({one}) : {x};")
                conds.append(f"(FL || f_{F.name} == PMREGS_U64({one}))")
            elif F.name in fixed:
                # at a position that parameters decide (the tests read pos after the last field): no first try
                return None
            else:
                lines.append(f"f_{F.name} = {x};")
                if F.is_set is not None:
                    conds.append(f"({self.is_cond(F, f'f_{F.name}')})")
                    if ranged is None and len(F.is_set) == 1 and cpos is not None and F.width.const is not None:
                        ranged = (F, cpos, conds[-1], not tested)
            lines.append(f"pos += {wc};")
            cpos = cpos + F.width.const if cpos is not None and F.width.const is not None else None
        xm, xv = (" | xm", " | xv") if dyn else ("", "")
        top = self.fold_range(Pk, pre, fixed, ranged, nbmax, v["max_bytes"]) if ranged is not None and ranged[3] else None
        if top is not None:
            # one subtraction and compare for the mask test, the range and the payload's bounds: the
            # mask's bits lie above the range-tested field, whose values up to top are exactly the
            # packets whose payload and size the first try takes
            R, rpos, rcond, _ = ranged
            lo = R.is_set[0][0]
            conds.remove(rcond)
            conds.insert(0, f"(head & (PMREGS_U64({mask | ((1 << R.width.const) - 1) << rpos:#x}){xm})) - "
                            f"(PMREGS_U64({value | lo << rpos:#x}){xv}) <= PMREGS_U64({(top - lo) << rpos:#x})")
        elif dyn or mask:
            conds.insert(0, f"(head & (PMREGS_U64({mask:#x}){xm})) == (PMREGS_U64({value:#x}){xv})")
        if dyn:
            decls.insert(0, "uint64_t xm = 0, xv = 0;")
        if not self.whole_bytes([F.width.tree for F in pre], fixed):
            conds.append("(pos & 7u) == 0")
        tree, extra = self.lay_terms(Pk.size.tree)
        lines.append(f"size = {fl(self.tool.c(tree, self.res(fields=names, extra={**absent, **consts, **extra})))};")
        conds += [self.tool.truth(e.tree, r) for e, _ in getattr(Pk, "checks", [])]
        T = {m["name"]: m["T"] for m in v["members"]}
        stores = [f"{m['name']} = ({T[m['name']]}){r(m['name']) if m['name'] in fixed else 'f_' + m['name']}"
                  if m["name"] in names else f"{m['name']} = 0" for m in v["members"]]
        stores.append(f"shape = {v['shapes'][Pk.shapes.index(S)]['macro']}")
        return {"decls": decls, "lines": lines, "conds": conds, "stores": stores, "r": r,
                "uses_w": any(ln.startswith("w = ") for ln in lines), "bounded": top is not None}

    def fold_range(self, Pk, pre, fixed, ranged, nbmax, sizemax, most=4096):
        """The largest value top of the range-tested field R (ranged[0], before every field of the mask
        test) such that R's values lo..top are exactly the ones whose packets the first try takes: a
        payload of 1 to 64 bits (and at most the payload's longest) and a size at most the frame's
        longest, for every parameter set (at most `most` of them tried); None when there is none, or R's
        values above top are not all refused the same way."""
        R = ranged[0]
        lo, hi = R.is_set[0]
        widths = [F.width.tree for F in pre]
        envs = self.param_sets(widths + [Pk.size.tree], frozenset(fixed) | {F.name for F in pre}, most)
        if envs is None:
            return None
        takes = {}
        for penv in envs:
            for x in range(lo, hi + 1):
                env = dict({F.name: 0 for F in pre}, **fixed, **penv, **{R.name: x})
                try:
                    pos = sum(self.tool.value(w, env) for w in widths)
                    size = self.tool.value(Pk.size.tree, env)
                except (KeyError, ZeroDivisionError, ValueError):
                    return None
                nb = 8 * size - pos
                takes.setdefault(x, set()).add(1 <= nb <= nbmax and size <= sizemax)
        if any(len(t) != 1 for t in takes.values()):
            return None
        top = lo - 1
        while top < hi and takes[top + 1] == {True}:
            top += 1
        if top < lo or any(takes[x] == {True} for x in range(top + 1, hi + 1)):
            return None
        return top

    def params_of(self, node, known=frozenset()):
        """The parameters an expression reads, through named widths (names in known aside); None when it
        reads anything else."""
        out = set()
        for n in self.tool.names(node) | {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call)}:
            W = self.fam.width_map.get(n)
            if n in known:
                continue
            if n in self.fam.param_map:
                out.add(n)
            elif W is not None:
                sub = self.params_of(W.expr.tree, frozenset(W.args))
                if sub is None:
                    return None
                out |= sub
            else:
                return None
        return out

    def whole_bytes(self, widths, fixed, most=4096):
        """True when the widths (with the fields in fixed at those values) add up to whole bytes for every
        parameter set in the parameters' ranges (at most `most` of them tried; else False)."""
        envs = self.param_sets(widths, frozenset(fixed), most)
        return envs is not None and all(sum(self.tool.value(w, dict(fixed, **env)) for w in widths) % 8 == 0
                                        for env in envs)

    def param_sets(self, trees, known, most):
        """Every assignment ({name: value}) of the parameters the trees read (names in known aside) over
        their legal ranges; None when they read something else or there are more than `most`."""
        names = set()
        for t in trees:
            sub = self.params_of(t, known)
            if sub is None:
                return None
            names |= sub
        names = sorted(names)
        ranges = [range(self.fam.param_map[n].min, self.fam.param_map[n].max + 1) for n in names]
        if math.prod(len(r) for r in ranges) > most:
            return None
        return [dict(zip(names, vals)) for vals in itertools.product(*ranges)]

    def max_start(self, shape, i):
        """The furthest bit where field i of shape can start, over all legal parameters."""
        return sum(F.max_width for F in shape.fields[:i])

    def any_shape(self, node):
        while not isinstance(node, Leaf):
            node = node.child if isinstance(node, Read) else node.cases[0][1]
        return node.shape

    # -- per-shape walks: encode, bits, print, semantic ---------------------------------------------
    def walk(self, Pk, Sh, index, mode, v=None):
        """Lines of one `case` for a walk over the fields of shape Sh."""
        exprs = [Pk.size] if Pk.is_frame and mode == "encode" else []
        if mode == "encode":
            exprs += [e for e, _ in getattr(Pk, "checks", [])]
        raw_names = set()
        for F in Sh.fields:
            exprs += [F.width, F.implied, F.value]
            if mode in ("semget", "semset") and F.reported_if is not None:
                raw_names |= self.tool.names(F.reported_if.tree)
        names = {F.name for F in Sh.fields}
        diff = {F.name for F in Sh.fields if F.differential}
        refs = sorted((_refs(self.tool, exprs) | (raw_names - diff)) & names)
        need_prev = mode in ("semget", "semset") and any(F.differential or F.reported_if for F in Sh.fields)
        semantic = set()
        r = self.res(fields=refs)
        out = [f"uint64_t f_{x} = 0;" for x in refs]
        if need_prev:
            out.append("uint64_t prev = 0;")
        nw = self.hv_nw(Pk)
        runs = {}                   # encode: field index -> (its offset in a shared write, the run's last index)
        if mode == "encode":
            fields = list(enumerate(Sh.fields))
            k = 0
            while k < len(fields):
                run, _ = self.shared_read(fields[k:], Sh, 64)
                off = 0
                for i, F in run if len(run) > 1 else []:
                    runs[i] = (off, run[-1][0])
                    off += F.width.const
                k += max(len(run), 1)
        sem_modes = mode in ("semget", "semset")
        # the semantic view reads and writes nothing past its last field (none: an empty case)
        last = max([i for i, F in enumerate(Sh.fields) if F.differential or F.reported_if is not None], default=-1)
        for idx, F in enumerate(Sh.fields):
            if sem_modes and idx > last:
                break
            if F.rest:
                if mode == "encode":
                    out += self.rest_encode(Pk, r)
                continue
            wc = self.width_c(F, r)
            out.append(f"w = {wc};")
            src = "pkt" if mode == "semset" else "in"
            fixed = F.is_set is not None and len(F.is_set) == 1 and F.is_set[0][0] == F.is_set[0][1]
            if mode == "encode" and F.value is not None and fixed:
                out.append(f"x = {F.is_set[0][0]}u; /* the shape fixes it */")
            elif mode == "encode" and F.value is not None:
                out.append(f"x = {self.tool.c(F.value.tree, self.res(fields=refs, extra={'rest_bits': 'rest_bits'}))};")
                out.append("if (!pmregs_fits(x, w))")
                out.append("\treturn PMREGS_ETOOLONG;")
            elif mode != "bits" or F.name in refs:
                out.append(f"x = (uint64_t){src}->{F.name};")
            if mode == "encode":
                if F.is_set is not None:
                    out.append(f"if (!({self.is_cond(F)}))")
                    out.append("\treturn PMREGS_EINVAL;")
                if F.value is None or fixed:
                    if F.implied is not None:
                        out.append(f"if (w == 0 ? x != {self.tool.c(F.implied.tree, r)} : !pmregs_fits(x, w))")
                        out.append("\treturn PMREGS_ERANGE;")
                    elif F.width.const is not None and F.width.const < 64:
                        out.append(f"over |= x >> {F.width.const}u; /* range errors are reported after the fields */")
                    else:
                        out.append("over |= pmregs_ip_over(x, w);")
                if idx in runs:
                    off, last = runs[idx]
                    if off == 0:
                        out.append("gpos = pos;")
                    out.append(f"grp {'|' if off else ''}= x << {off}u;")
                    if last == idx:
                        out.append(f"pmregs_ip_put(b, {nw}u, gpos, grp);")
                else:
                    out.append(self.put_line(Pk, Sh, idx, F, nw))
            elif mode == "fields":
                # one call per field; a named value through the packet's value-name function when
                # this shape names the same values, else through a switch of its own
                cases = sorted((vv, vn) for vn, vv, _ in F.values) if F.values else []
                fn = (v or {}).get("value_fn_of", {}).get(F.name)
                if not cases:
                    meaning = "PMREGS_NULL"
                elif fn and any(f["fn"] == fn and f["cases"] == cases for f in v["value_fns"]):
                    meaning = f"{fn}(x)"
                else:
                    meaning = "m"
                put = f"k = pmregs_packet_field_put(out, cap, k, \"{F.name}\", x, w, {meaning});"
                if meaning != "m":
                    out.append("if (w)")
                    out.append(f"\t{put}")
                else:
                    out.append("if (w) {")
                    out.append("\tconst char *m = PMREGS_NULL;")
                    out.append("\tswitch (x) {")
                    for vv, vn in cases:
                        out.append(f"\tcase {vv}:")
                        out.append(f"\t\tm = \"{vn}\";")
                        out.append("\t\tbreak;")
                    out.append("\tdefault:")
                    out.append("\t\tbreak;")
                    out.append("\t}")
                    out.append(f"\t{put}")
                    out.append("}")
            elif mode == "semget":
                if F.differential:
                    out.append(f"s->{F.name} = (uint8_t)((x ^ prev) & 1u);")
                elif F.reported_if is not None:
                    c = self.tool.truth(F.reported_if.tree, self.res(fields=refs, semantic=semantic))
                    out.append(f"s->{F.name}_reported = (uint8_t){c};")
                    out.append(f"s->{F.name} = s->{F.name}_reported ? x : 0;")
            elif mode == "semset":
                T = small_utype(max(dict(Pk.members)[F.name], 1))
                if F.differential:
                    out.append(f"x = (uint64_t)((s->{F.name} ^ prev) & 1u);")
                    out.append(f"pkt->{F.name} = ({T})x;")
                elif F.reported_if is not None:
                    c = self.tool.truth(F.reported_if.tree, self.res(fields=refs, semantic=semantic))
                    out.append(f"if ({c}) {{")
                    out.append(f"\tx = (uint64_t)s->{F.name};")
                    out.append("\tif (!pmregs_fits(x, w))")
                    out.append("\t\treturn PMREGS_ERANGE;")
                    out.append("} else {")
                    out.append("\tx = prev ? pmregs_lowmask(w) : 0;")
                    out.append("}")
                    out.append(f"pkt->{F.name} = ({T})x;")
            if need_prev:
                if F.width.const == 1:
                    out.append("prev = x & 1u;")
                elif F.width.const is None or F.width.const > 0:
                    out.append("if (w)")
                    out.append("\tprev = (x >> (w - 1)) & 1u;")
            if F.differential:
                semantic.add(F.name)
            if F.name in refs:
                out.append(f"f_{F.name} = x;")
            if not sem_modes:
                out.append("pos += w;")
        if sem_modes and last < 0:
            return []
        if mode == "encode":
            out.append("if (over)")
            out.append("\treturn PMREGS_ERANGE;")
            # the packet's checks, on the values just encoded (a field the shape lacks is 0)
            absent = {x: "PMREGS_U64(0)" for x in dict(Pk.members) if x not in names}
            rc = self.res(fields=refs, extra=absent)
            for e, doc in getattr(Pk, "checks", []):
                out.append(f"if (!{self.tool.truth(e.tree, rc)}) /* {comment_text(doc)} */")
                out.append("\treturn PMREGS_EINVAL;")
        if mode == "encode" and Pk.is_frame and Pk.rest not in [F.name for F in Sh.fields]:
            out += self.frame_end(Pk, r, rest=False)
        return out

    def put_line(self, Pk, Sh, idx, F, nw):
        """The encoder's write of field F, whose value is known to fit: into `hd`, a register, when the field
        always ends within the first 64 bits of a payload, else straight into the words of b."""
        if F.implied is not None:
            return f"pmregs_bv_put(b, {nw}u, pos, w, x);"     # a 0-bit implied field must write nothing
        if self.max_start(Sh, idx) + F.max_width <= 64:
            return "hd |= x << (pos & 63);"
        return f"pmregs_ip_put(b, {nw}u, pos, x);"

    def hv_nw(self, Pk):
        if Pk.compression == "sign":
            return max((Pk.max_bits + 63) // 64 + 1, (Pk.max_bytes + 7) // 8 + 1)
        return (Pk.max_size * 8 + 63) // 64 + 1

    def rest_encode(self, Pk, r):
        nw = self.hv_nw(Pk)
        return [f"size = {self.tool.c(Pk.size.tree, r)};",
                f"if (size > {Pk.max_size}u || pos + rest_bits > 8u * size)",
                "\treturn PMREGS_EINVAL;",
                "b[0] |= hd;",
                "hd = 0;",
                "if ((pos & 7u) == 0 && pos + rest_bits == 8u * size) {",
                "\tdirect = pos >> 3; /* the payload is stored as it is, after the header's bytes */",
                "} else {",
                f"\tpmregs_ip_put_words(b, {nw}u, pos, payload, payload_len);",
                "\tpos += (unsigned)rest_bits;",
                "\tif (rest_bits && pos < 8u * size)",
                f"\t\tpmregs_bv_fill(b, {nw}u, pos, (unsigned)(8u * size), pmregs_bv_get(b, {nw}u, pos - 1, 1));",
                "}",
                "pos = (unsigned)(8u * size);"]

    def frame_end(self, Pk, r, rest):
        return [f"size = {self.tool.c(Pk.size.tree, r)};",
                "if (payload_len)",
                "\treturn PMREGS_EINVAL;",
                f"if (size > {Pk.max_size}u || pos > 8u * size)",
                "\treturn PMREGS_EINVAL;",
                "pos = (unsigned)(8u * size);"]

    # -- streams ------------------------------------------------------------------------------------
    def stream_view(self, St, pviews):
        p, P = self.p, self.P
        base = f"{p}_{St.name}"
        S = lambda name: self.sym(name, St.node, f"stream '{St.name}'")   # noqa: E731
        fv, pv = pviews[St.frame.name], pviews[St.payload.name]
        r = self.res(fields=[m["name"] for m in fv["members"]], local=False, struct="f")
        # the walker's state and its items, members in decreasing alignment, then explicit padding
        state, _ = packed_struct([member("const unsigned char *", "buf"), member("size_t ", "len"),
                                  member("size_t ", "pos", "next byte to read"),
                                  member("int ", "synced", "0: the next packet boundary is not known yet")], [])

        def sub(view, name, doc):
            m = member(view["struct"] + " ", name, doc)
            m["align"], m["size"] = view["struct_align"], view["struct_size"]
            return m
        item, _ = packed_struct([
            member("size_t ", "offset", "first byte of the item in the buffer"),
            member("size_t ", "size", "bytes it covers"),
            member("int ", "status", "PMREGS_OK; PMREGS_ETRUNC: the buffer ends inside a packet; PMREGS_ENOENT: "
                   "bytes before the first known boundary; other: why the packet was bad (then size covers "
                   "the skip)"),
            member("int ", "has_payload", f"1: payload holds the decoded {pv['name']}"),
            sub(fv, "frame", ""), sub(pv, "payload", ""),
            member("size_t ", "payload_len", "the payload's received length in bytes (its bits from "
                   f"frame.{fv['rest']}_offset)")], [])
        return {"name": St.name, "doc": St.doc, "source": St.source,
                "state_members": state, "item_members": item,
                "struct": f"struct {S(base)}", "item": f"struct {S(base + '_item')}",
                "init": S(base + "_init"), "next": S(base + "_next"), "next_l": S(base + "_next_l"),
                "read": S(base + "_read"), "read_l": S(base + "_read_l"),
                "read_fast": S(base + "_read_fast"), "read_general": S(base + "_read_general"),
                "batch": S(base + "_batch"),
                "put": S(base + "_put"),
                "put_batch": S(base + "_put_batch"),
                "frame": fv, "payload": pv,
                "payload_if": self.tool.truth(St.payload_if.tree, r),
                "payload_if_text": St.payload_if.text,
                "fast_if_text": St.fast_if.text if St.fast_if is not None else "",
                "resync": self.tool.c(St.resync.tree, self.res()), "resync_text": St.resync.text,
                "frame_const": self.frame_const(St.frame), "fast": self.fast_stream(St, fv)}

    def fast_stream(self, St, fv):
        """The reader's first try (fast_frame()) at the packets of fast_if whose payload_if holds: None
        without fast_if."""
        if St.fast_if is None:
            return None
        fixed = dict(field_values(St.fast_if.tree))
        pif = field_values(St.payload_if.tree)
        if pif is not None and all(fixed.get(n, x) == x for n, x in pif.items()):
            fixed.update(pif)
        # the frame's layout entries: the reader reads the frame's widths from them, and adds none
        saved = self.lay, self.lay_members, getattr(self, "lay_on", False)
        self.lay, self.lay_members, self.lay_on = fv["lay"], {m["name"] for m in fv["members"]}, True
        n = len(self.lay)
        try:
            pl = St.payload
            fast = self.fast_frame(St.frame, fv, fixed, min(64, 8 * (pl.max_bytes if pl.compression else pl.max_size)))
        finally:
            assert len(self.lay) == n, "the fast path needs a width the frame decoder's layout lacks"
            self.lay, self.lay_members, self.lay_on = saved
        if fast is None:
            return None
        if pif is None or any(fixed[n] != x for n, x in pif.items()):
            fast["conds"].append(self.tool.truth(St.payload_if.tree, fast["r"]))
        return fast

    def frame_const(self, Pk):
        """The C tests, each followed by " && ", that the compiler sees every parameter that the frame's
        size and field widths read as a constant (PMREGS_IP_CONSTANT()); empty when they read none."""
        exprs = [Pk.size] + [F.width for S in Pk.shapes for F in S.fields]
        fields = {F.name for S in Pk.shapes for F in S.fields}
        names = sorted(_refs(self.tool, exprs) - fields)
        r = self.res()
        return "".join(f"PMREGS_IP_CONSTANT({r(n)}) && " for n in names)


def packets_view(hv):
    """Everything packets.h.j2 renders; None when the family has none of these sections."""
    fam = hv.fam
    if not getattr(fam, "params", None) and not getattr(fam, "packets", None):
        return None
    g = CodeGen(hv)
    v = {"params": g.params_view(), "widths": g.widths_view(), "packets": [], "streams": []}
    pviews = {}
    for Pk in fam.packets:
        pv = g.packet_view(Pk)
        pviews[Pk.name] = pv
        v["packets"].append(pv)
    for St in fam.streams:
        v["streams"].append(g.stream_view(St, pviews))
    v["params_t"] = g.params_t
    v["params_first"] = fam.params[0].name if fam.params else None
    return v


# -- reference page -----------------------------------------------------------------------------

def packet_page(pv, Pk):
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


# -- construct interface (constructs/__init__.py) -----------------------------------------------
NAME = "packets"
KEYS = ("params", "param_checks", "param_presets", "widths", "packets", "streams")
HEADER, SELFTEST, PAGE = "packets.h.j2", "packets_selftest.c.j2", "packets.md.j2"
CONTENTS = (("Parameters", "params"), ("Packets", "packets"), ("Streams", "streams"))


def load(b, m):
    build(b, m)


def view(hv):
    hv.packets_view = packets_view(hv)
    if hv.packets_view:
        hv.uses.add("base_bitstream.h")
        if hv.packets_view["packets"]:
            hv.uses.add("base_inplace.h")
        if hv.packets_view["streams"]:
            hv.uses.add("base_transport.h")   # ATB beats, block-aligned writing


def page(pv):
    fam = pv.fam
    pv.params = [{"name": P.name, "default": P.default, "min": P.min, "max": P.max, "doc": md(P.doc),
                  "source": md(P.source)} for P in getattr(fam, "params", [])]
    pv.param_checks = [(e.text, md(doc)) for e, doc in getattr(fam, "param_checks", [])]
    pv.widths = [{"name": W.name, "args": W.args, "expr": W.expr.text, "doc": md(W.doc),
                  "source": md(W.source)} for W in getattr(fam, "widths", [])]
    pv.packets = [packet_page(pv, Pk) for Pk in getattr(fam, "packets", [])]
    pv.streams = [{"name": St.name, "doc": md_par(St.doc), "source": md(St.source),
                   "frame": St.frame.name, "payload": St.payload.name,
                   "payload_if": St.payload_if.text, "resync": St.resync.text,
                   "c": stream_c_names(fam, St), "example": stream_example(fam, St)}
                  for St in getattr(fam, "streams", [])]


def stream_c_names(fam, St):
    """The C names of a stream's walker, batch decoder and writers (for its page)."""
    base = f"pmregs_{fam.name}_{St.name}"
    return {k: f"{base}_{k}" for k in ("init", "next", "next_l", "read", "batch", "put", "put_batch")}


def stream_example(fam, St):
    """An example program for a stream's page: payloads framed with _put_batch(), read back with
    _batch() and the walker's _next(), under the family's first parameter preset (or the defaults)."""
    p, P = f"pmregs_{fam.name}", f"PMREGS_{fam.name.upper()}"
    frame, payload = St.frame, St.payload
    fshape = next((Sh for Sh in frame.shapes if any(getattr(F, "rest", False) for F in Sh.fields)), frame.shapes[0])
    pshape = min(payload.shapes, key=lambda Sh: len(Sh.fields))
    widths = dict(frame.members)
    setf = ""
    t = St.payload_if.tree
    if isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and len(t.ops) == 1 and \
            isinstance(t.ops[0], ast.Eq) and t.left.id in widths:
        rhs = t.comparators[0]
        T = small_utype(widths[t.left.id])
        if isinstance(rhs, ast.Constant):
            setf = f"    frame.{t.left.id} = {rhs.value}; /* {St.payload_if.text}: the frame carries a {payload.name} */\n"
        elif isinstance(rhs, ast.Name) and rhs.id in fam.param_map:
            setf = (f"    frame.{t.left.id} = ({T})p->{rhs.id}; /* {St.payload_if.text}: the frame carries a "
                    f"{payload.name} */\n")
    if fam.param_presets:
        pre = fam.param_presets[0][0]
        params = (f"    /* parameters: the {pre} preset ({p}_presets_find() ignores case) */\n"
                  f"    const struct {p}_params *p = {p}_presets_find(\"{pre}\");\n")
        check = "    if (!p)\n        return 1;\n"
    else:
        params = f"    struct {p}_params params;\n    const struct {p}_params *p = &params;\n"
        check = f"    {p}_params_default(&params);\n"
    b = f"{p}_{St.name}"
    return (f"#include <stdio.h>\n#include <pmregs/{fam.name}_tools.h>\n\n"
            "int main(void)\n{\n"
            + params +
            f"    struct {p}_{frame.name} frame;\n"
            f"    struct {p}_{payload.name} sent[3], got[3];\n"
            f"    struct {b} s;\n    struct {b}_item it;\n"
            "    unsigned char buf[512];\n    size_t used = 0, n, k;\n"
            + check +
            f"    /* write: each payload encoded and framed in one pass ({b}_put() for one) */\n"
            f"    {p}_{frame.name}_init(&frame, {P}_{frame.name.upper()}_SHAPE_{fshape.name.upper()});\n"
            + setf +
            "    for (k = 0; k < 3; k++)\n"
            f"        {p}_{payload.name}_init(&sent[k], {P}_{payload.name.upper()}_SHAPE_{pshape.name.upper()});\n"
            f"    n = {b}_put_batch(p, &frame, sent, 3, buf, sizeof buf, &used);\n"
            '    printf("%zu packets written, %zu bytes\\n", n, used);\n'
            "    /* read: the batch decoder takes runs of payloads, the walker the items it stops at */\n"
            f"    {b}_init(&s, buf, used, 1);\n"
            f"    n = {b}_batch(&s, p, got, 3);\n"
            '    printf("%zu payloads decoded in one batch\\n", n);\n'
            f"    while ({b}_next(&s, p, &it))\n"
            '        printf("item at %zu, %zu bytes: %s\\n", it.offset, it.size, pmregs_strerror(it.status));\n'
            "    return 0;\n}\n")


