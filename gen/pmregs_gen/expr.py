# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The spec's expression language, compiled to branch-free C.

Expressions use Python's syntax (parsed with the standard `ast` module) so they
read like the manuals' formulas:

    reg.field                 field of a register-typed parameter
    reg.field.name            a named value of that field
    enum_name.value           an enumerator
    NAME                      a parameter, a name the caller binds (a classifier's operand
                              fields, classifier.py) or a family constant (PMREGS_<F>_NAME)
    x[n]      x[hi:lo]        one bit (n may vary) / a constant bit range
    and  or  not  ==  !=  <  <=  >  >=  + - * & | ^ ~ << >>
    a if cond else b          selection (compiles to ?:, no branch needed)
    replace(reg, f=x, g=y)    reg with fields f and g replaced
    popcount(x)               the number of set bits of x (branch-free, pmregs_popcount64)
    other_function(args)      a function defined earlier in the same spec
    arr[i]  arr[2*i+1]        element of an array parameter (type `u64[8]`); a constant
                              index is checked against the length, a variable one is
                              reduced modulo the length, so no index reads out of bounds
    layout(x)                 x viewed as a register of that layout: `ibr_ctl(ibr[1]).x`
    matcher(a, b, c)          a matcher (matcher.py): per-bit-range compare rules
    any(e for i in range(n))  e with i = 0 .. n-1 (constants), joined by `or`;
    all(e for i in range(n))  the same joined by `and`; unrolled, never a loop

`and`, `or` and `not` work on truth values (0 or 1) and compile to the bitwise
`&`, `|` and `!`: nothing in the language has side effects, so both operands
can always be evaluated, and the result carries no branch. Every value is
computed in uint64_t (or int for truth values) with explicit casts, so the C is
warning-free under -Wconversion -Wsign-conversion.

Evaluator computes the same expressions in Python, with the same unsigned 64-bit
arithmetic, for generators that must know a value while generating (a
classifier's overlap check and its self-test vectors).
"""

import ast
import re

from .cnames import Names

U64 = "uint64_t"

# Bounds: the real specs nest expressions about 12 deep and unroll to a few
# hundred terms. Deeper nesting would also pass the C standard's guaranteed
# 63 levels of parentheses in the generated C.
MAX_DEPTH = 48           # nested operations in one expression, as written
MAX_TERMS = 20000        # expression nodes compiled, counting every unrolled any()/all() copy


class ExprError(Exception):
    def __init__(self, node, code, msg):
        super().__init__(msg)
        self.node, self.code, self.msg = node, code, msg


def bool_operand(code):
    """A truth value as an operand of & or |, cast to int."""
    return f"(int){code}" if _one_group(code) else f"(int)({code})"


def _one_group(code):
    """Whether code is one parenthesised expression: '(a | b)' but not '(a) | (b)'."""
    if not (code.startswith("(") and code.endswith(")")):
        return False
    depth = 0
    for k, ch in enumerate(code):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and k < len(code) - 1:
            return False
    return True


class Val:
    def __init__(self, code, kind, ctype, ref=None):
        self.code = code      # C expression text
        self.kind = kind      # "int", "bool", "layout", "enum"
        self.ctype = ctype    # C type of `code`
        self.ref = ref        # Layout for "layout", Enum for "enum"


class _At:
    """A location inside the expression text, for diagnostics."""

    def __init__(self, scalar, lineno, col):
        self.scalar, self.lineno, self.col = scalar, lineno, col

    def where(self):
        s = self.scalar
        if self.lineno > 1 or s.block:
            return (s.path, s.line + self.lineno - (0 if s.block else 1), self.col + 1)
        return (s.path, s.line, s.col + (1 if s.quoted else 0) + self.col)


def type_info(fam, t):
    """(kind, C type, ref) for a spec type name."""
    n = Names(fam)
    if t == "bool":
        return ("bool", "int", None)
    if t in ("u8", "u16", "u32", "u64"):
        return ("int", f"uint{t[1:]}_t", None)
    if t == "unsigned":                     # C's unsigned int, for parameters such as an XLEN
        return ("int", "unsigned", None)
    am = re.match(r"^u(8|16|32|64)\[(\d+)\]\Z", t, re.ASCII)
    if am:                                  # an array parameter: element type, ref = length
        return ("array", f"uint{am.group(1)}_t", int(am.group(2)))
    L = fam.layout(t)
    if L is not None:
        return ("layout", f"uint{L.width}_t", L)
    E = fam.enum(t)
    return ("enum", n.enum_type(E), E)


class Compiler:
    terms = 0                               # nodes compiled so far (MAX_TERMS)
    masked = False                          # defaults for subclasses that set up their own scope
    names = {}
    constants = {}

    def __init__(self, fam, fn, names=None, masked=False):
        self.fam, self.fn = fam, fn
        self.n = Names(fam)
        self.params = {p: type_info(fam, t) for p, t in fn.params}
        self.names = names or {}            # name -> Val bound by the caller (C locals of a generated body)
        self.constants = {c[0]: c for c in getattr(fam, "constants", [])}
        # masked: `a if c else b` becomes mask arithmetic instead of ?: (compilers may branch on ?:), and a
        # call of a spec function is its expression expanded in place, compiled the same way
        self.masked = masked
        self.funcs = {f.name: f for f in fam.functions}   # only those defined earlier
        self.matchers = {m.name: m for m in getattr(fam, "matchers", [])}
        self.consts = {}                    # loop variables of any()/all() being unrolled

    def fail(self, node, code, msg):
        raise ExprError(node, code, msg)

    # -- coercions -------------------------------------------------------------------
    def u64(self, v, node):
        if v.kind == "enum":
            self.fail(node, "PMR042", f"an enum value ({v.ref.name}) cannot be used as a number")
        if v.kind == "array":
            self.fail(node, "PMR042", "an array is not a number; index it: name[i]")
        return v.code if v.ctype == U64 else f"(({U64})({v.code}))"

    def truth(self, v, node):
        if v.kind == "bool":
            return v.code
        if v.kind in ("enum", "array"):
            self.fail(node, "PMR042", f"{'an enum value' if v.kind == 'enum' else 'an array'} is not a truth value")
        return f"({v.code} != 0)"

    def to_type(self, v, t, node):
        """Convert Val v to spec type t, returning C text."""
        kind, ctype, ref = type_info(self.fam, t)
        if kind == "array":
            if v.kind != "array" or v.ctype != ctype or v.ref != ref:
                self.fail(node, "PMR042", f"expected an array parameter of type {t}")
            return v.code
        if kind == "bool":
            return self.truth(v, node)
        if kind == "enum":
            if v.kind != "enum" or v.ref is not ref:
                self.fail(node, "PMR042", f"expected a value of enum '{ref.name}'")
            return v.code
        return f"(({ctype})({self.u64(v, node)}))" if ctype != U64 else self.u64(v, node)

    # -- the walk ------------------------------------------------------------------------
    def compile(self, node):
        self.terms += 1
        if self.terms > MAX_TERMS:
            self.fail(node, "PMR044", f"the expression expands to more than {MAX_TERMS} terms"
                      " once any()/all() are unrolled")
        meth = getattr(self, "c_" + type(node).__name__, None)
        if meth is None:
            self.fail(node, "PMR040", f"'{type(node).__name__}' is not part of the expression language")
        return meth(node)

    def c_Constant(self, node):
        if isinstance(node.value, bool):
            return Val("1" if node.value else "0", "bool", "int")
        if isinstance(node.value, int) and 0 <= node.value < (1 << 64):
            return Val(f"PMREGS_U64({node.value:#x})" if node.value > 9 else f"PMREGS_U64({node.value})",
                       "int", U64)
        self.fail(node, "PMR042", f"constant {node.value!r} is not a 64-bit unsigned integer")

    def c_Name(self, node):
        if node.id in self.consts:
            return self.c_Constant(ast.Constant(self.consts[node.id]))
        if node.id in self.params:
            kind, ctype, ref = self.params[node.id]
            if kind == "bool":              # a caller may pass any non-zero int for true
                return Val(f"({node.id} != 0)", kind, ctype, ref)
            return Val(node.id, kind, ctype, ref)
        if node.id in self.names:
            return self.names[node.id]
        if node.id in self.constants:
            return Val(self.n.mac(node.id), "int", "int")
        self.fail(node, "PMR041", f"'{node.id}' is not a parameter of '{self.fn.name}'")

    def c_Attribute(self, node):
        base = node.value
        if isinstance(base, ast.Name) and base.id not in self.params:
            E = self.fam.enum(base.id)
            if E is None:
                self.fail(base, "PMR041", f"'{base.id}' is neither a parameter nor an enum")
            for vn, _, _ in E.values:
                if vn == node.attr:
                    return Val(self.n.enum_value(E, vn), "enum", self.n.enum_type(E), E)
            self.fail(node, "PMR041", f"enum '{E.name}' has no value '{node.attr}'")
        if isinstance(base, ast.Attribute):
            inner = self.compile(base.value)
            if inner.kind == "layout" and inner.ref.field(base.attr) is not None:
                F = inner.ref.field(base.attr)
                for vn, vv, _ in F.values:
                    if vn == node.attr:
                        return Val(self.n.field_value(inner.ref, F, vn), "int", "const")
                self.fail(node, "PMR041", f"field '{inner.ref.name}.{F.name}' has no named value '{node.attr}'")
        v = self.compile(base)
        if v.kind != "layout":
            self.fail(node, "PMR042", f"'.{node.attr}' needs a register value, not a {v.kind}")
        F = v.ref.field(node.attr)
        if F is None:
            self.fail(node, "PMR041", f"layout '{v.ref.name}' has no field '{node.attr}'")
        code = f"{self.n.accessor(v.ref, F, 'get')}({v.code})"
        return Val(code, "int", "int64_t" if F.signed else f"uint{v.ref.width}_t")

    def const_int(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        self.fail(node, "PMR042", "a bit range needs constant bounds")

    def const_value(self, node):
        """The value of a constant integer expression (loop variables included), else None."""
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name) and node.id in self.consts:
            return self.consts[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult):
            a, b = self.const_value(node.left), self.const_value(node.right)
            if a is not None and b is not None:
                return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}[type(node.op)]
        return None

    def element(self, v, sl):
        """arr[index] for an array parameter v of v.ref elements."""
        n = v.ref
        k = self.const_value(sl)
        if k is not None:
            if not 0 <= k < n:
                self.fail(sl, "PMR042", f"index {k} is outside the {n} elements of '{v.code}'")
            return Val(f"{v.code}[{k}]", "int", v.ctype)
        i = self.u64(self.compile(sl), sl)
        idx = f"({i} & {n - 1})" if n & (n - 1) == 0 else f"({i} % {n})"
        return Val(f"{v.code}[{idx}]", "int", v.ctype)

    def c_Subscript(self, node):
        v = self.compile(node.value)
        if v.kind == "array":
            if isinstance(node.slice, ast.Slice):
                self.fail(node.slice, "PMR042", "an array takes one index, not a range")
            return self.element(v, node.slice)
        x = self.u64(v, node.value)
        sl = node.slice
        if isinstance(sl, ast.Slice):
            if sl.step is not None or sl.lower is None or sl.upper is None:
                self.fail(sl, "PMR040", "a bit range is written x[hi:lo]")
            hi, lo = self.const_int(sl.lower), self.const_int(sl.upper)
            if not (0 <= lo <= hi < 64):
                self.fail(sl, "PMR042", f"bit range [{hi}:{lo}] must satisfy 63 >= hi >= lo >= 0")
            w = hi - lo + 1
            m = "" if w == 64 else f" & PMREGS_U64({(1 << w) - 1:#x})"
            return Val(f"(({x} >> {lo}){m})", "int", U64)
        if isinstance(sl, ast.Constant):
            b = self.const_int(sl)
            if not 0 <= b < 64:
                self.fail(sl, "PMR042", f"bit {b} is outside 0..63")
            return Val(f"(({x} >> {b}) & 1)", "int", U64)
        i = self.u64(self.compile(sl), sl)
        return Val(f"(({x} >> ({i} & 63)) & 1)", "int", U64)

    def c_BoolOp(self, node):
        # Truth values are 0 or 1 and nothing has side effects: & and | need no branch.
        # The (int) casts tell compilers the bitwise operator is meant (clang's
        # -Wbitwise-instead-of-logical would flag comparisons and calls otherwise).
        op = " & " if isinstance(node.op, ast.And) else " | "
        return Val("(" + op.join(bool_operand(self.truth(self.compile(v), v)) for v in node.values) + ")",
                   "bool", "int")

    def c_UnaryOp(self, node):
        v = self.compile(node.operand)
        if isinstance(node.op, ast.Not):
            return Val(f"(!{self.truth(v, node.operand)})", "bool", "int")
        if isinstance(node.op, ast.Invert):
            return Val(f"(~{self.u64(v, node.operand)})", "int", U64)
        if isinstance(node.op, ast.USub):
            return Val(f"(PMREGS_U64(0) - {self.u64(v, node.operand)})", "int", U64)
        self.fail(node, "PMR040", "unsupported unary operator")

    BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|",
              ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}

    def c_BinOp(self, node):
        op = self.BINOPS.get(type(node.op))
        if op is None:
            self.fail(node, "PMR040", "unsupported operator (use + - * & | ^ << >>)")
        a = self.u64(self.compile(node.left), node.left)
        b = self.u64(self.compile(node.right), node.right)
        if op in ("<<", ">>"):
            if isinstance(node.right, ast.Constant):
                if not 0 <= self.const_int(node.right) < 64:
                    self.fail(node.right, "PMR042", "shift count must be 0..63")
            else:
                b = f"({b} & 63)"     # a variable shift never reaches 64: no undefined behaviour
        return Val(f"({a} {op} {b})", "int", U64)

    CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}

    def c_Compare(self, node):
        if len(node.ops) != 1:
            self.fail(node, "PMR040", "chained comparisons are not supported; use 'and'")
        op = self.CMPOPS.get(type(node.ops[0]))
        if op is None:
            self.fail(node, "PMR040", "unsupported comparison")
        a, b = self.compile(node.left), self.compile(node.comparators[0])
        if a.kind == "enum" or b.kind == "enum":
            if a.kind != b.kind or a.ref is not b.ref or op not in ("==", "!="):
                self.fail(node, "PMR042", "enum values compare only with == or != against the same enum")
            return Val(f"({a.code} {op} {b.code})", "bool", "int")
        self.decided_by_type(node, op, a, b)
        return Val(f"({self.u64(a, node.left)} {op} {self.u64(b, node.comparators[0])})", "bool", "int")

    UNSIGNED_MAX = {"uint8_t": 0xff, "uint16_t": 0xffff, "uint32_t": 0xffffffff, "uint64_t": (1 << 64) - 1}
    MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

    def decided_by_type(self, node, op, a, b):
        """Refuse `x op c` that x's unsigned type decides (a u8 compared `> 255`, anything `< 0`): it tests
        nothing, and compilers warn about it (-Wtype-limits, -Wtautological-constant-out-of-range-compare)."""
        def literal(n):
            return n.value if isinstance(n, ast.Constant) and type(n.value) is int else None
        x, c, xn = a, literal(node.comparators[0]), node.left
        if c is None:
            x, c, xn, op = b, literal(node.left), node.comparators[0], self.MIRROR[op]
        top = self.UNSIGNED_MAX.get(x.ctype)
        if c is None or top is None or x.kind != "int":
            return
        test = {"==": lambda v: v == c, "!=": lambda v: v != c, "<": lambda v: v < c, "<=": lambda v: v <= c,
                ">": lambda v: v > c, ">=": lambda v: v >= c}[op]
        if op in ("==", "!="):
            decided = not 0 <= c <= top
        else:                                   # monotonic in x: decided when both ends agree
            decided = test(0) == test(top)
        if decided:
            self.fail(node, "PMR042", f"the comparison is always {'true' if test(0) else 'false'}: "
                      f"'{ast.unparse(xn)}' is a {x.ctype} (0..{top:#x}); write a test that can fail, or drop it")

    def c_IfExp(self, node):
        c = self.truth(self.compile(node.test), node.test)
        a, b = self.compile(node.body), self.compile(node.orelse)
        if self.masked:
            return self.select(node, c, a, b)
        if a.kind == b.kind == "enum":
            if a.ref is not b.ref:
                self.fail(node, "PMR042", "both branches must be values of the same enum")
            return Val(f"({c} ? {a.code} : {b.code})", "enum", a.ctype, a.ref)
        if a.kind == b.kind == "bool":
            return Val(f"({c} ? {a.code} : {b.code})", "bool", "int")
        kind, ref = ("layout", a.ref) if a.kind == b.kind == "layout" and a.ref is b.ref else ("int", None)
        return Val(f"({c} ? {self.u64(a, node.body)} : {self.u64(b, node.orelse)})", kind, U64, ref)

    def select(self, node, c, a, b):
        """`a if c else b` without ?: : both computed, one masked away."""
        if a.kind == b.kind == "bool":
            return Val(f"(({bool_operand(c)} & {bool_operand(a.code)}) | ((int)!({c}) & {bool_operand(b.code)}))",
                       "bool", "int")
        if a.kind == "enum" or b.kind == "enum":
            if a.kind != b.kind or a.ref is not b.ref:
                self.fail(node, "PMR042", "both branches must be values of the same enum")
            ua, ub = f"(({U64})({a.code}))", f"(({U64})({b.code}))"
        else:
            ua, ub = self.u64(a, node.body), self.u64(b, node.orelse)
        code = f"({ub} ^ (({ua} ^ {ub}) & (PMREGS_U64(0) - ({U64})({c}))))"
        if a.kind == "enum":
            return Val(f"(({a.ctype})({code}))", "enum", a.ctype, a.ref)
        if a.kind == b.kind == "layout" and a.ref is b.ref:
            return Val(code, "layout", U64, a.ref)
        return Val(code, "int", U64)

    def expand(self, node, F):
        """A call of spec function F compiled in place (masked mode): its parameters bound to the arguments."""
        if node.keywords or len(node.args) != len(F.params):
            self.fail(node, "PMR042", f"'{F.name}' takes {len(F.params)} positional argument(s)")
        names = {}
        for a, (pn, t) in zip(node.args, F.params):
            kind, ctype, ref = type_info(self.fam, t)
            names[pn] = Val(f"({self.to_type(self.compile(a), t, a)})", kind, ctype, ref)
        sub = Compiler(self.fam, _Bound(F.name), names, masked=True)
        sub.funcs = {f.name: f for f in self.fam.functions[:self.fam.functions.index(F)]}
        try:
            tree = parse(F.expr_node.text.strip() if not F.expr_node.block else "(" + F.expr_node.text + ")")
            v = sub.compile(tree.body)
            code = sub.to_type(v, F.returns, tree.body)
        except (ExprError, SyntaxError):
            self.fail(node, "PMR042", f"'{F.name}' cannot be expanded in place")
        kind, ctype, ref = type_info(self.fam, F.returns)
        return Val(code, kind, ctype, ref)

    def c_Call(self, node):
        if not isinstance(node.func, ast.Name):
            self.fail(node.func, "PMR040", "only named functions can be called")
        fname = node.func.id
        if fname == "replace":
            return self.replace(node)
        if fname in ("any", "all"):
            return self.unroll(node, fname)
        if fname == "popcount" and fname not in self.funcs:
            if node.keywords or len(node.args) != 1:
                self.fail(node, "PMR042", "popcount(x) takes one value")
            return Val(f"pmregs_popcount64({self.u64(self.compile(node.args[0]), node.args[0])})", "int", U64)
        if fname in self.matchers:
            M = self.matchers[fname]
            if node.keywords or len(node.args) != len(M.params):
                self.fail(node, "PMR042", f"matcher '{fname}' takes {len(M.params)} arguments"
                          f" ({', '.join(p for _, p in M.params)})")
            args = [self.u64(self.compile(a), a) for a in node.args]
            return Val(f"{self.n.function(M)}({', '.join(args)})", "bool", "int")
        L = self.fam.layout(fname)
        if L is not None and fname not in self.funcs:
            if node.keywords or len(node.args) != 1:
                self.fail(node, "PMR042", f"'{fname}(x)' views one value as a register of layout '{fname}'")
            x = self.u64(self.compile(node.args[0]), node.args[0])
            return Val(x if L.width == 64 else f"((uint{L.width}_t)({x}))", "layout", f"uint{L.width}_t", L)
        F = self.funcs.get(fname)
        if F is None:
            self.fail(node.func, "PMR041", f"'{fname}' is not a function defined earlier in this spec")
        if self.masked and all(type_info(self.fam, t)[0] in ("int", "bool") for _, t in F.params):
            return self.expand(node, F)
        if node.keywords or len(node.args) != len(F.params):
            self.fail(node, "PMR042", f"'{fname}' takes {len(F.params)} positional argument(s)")
        args = [self.to_type(self.compile(a), t, a) for a, (_, t) in zip(node.args, F.params)]
        kind, ctype, ref = type_info(self.fam, F.returns)
        return Val(f"{self.n.function(F)}({', '.join(args)})", kind, ctype, ref)

    def unroll(self, node, fname):
        """any(e for i in range(n)) / all(...): e once per constant i, joined by | or &."""
        usage = f"write {fname}(expression for i in range(n))"
        if node.keywords or len(node.args) != 1 or not isinstance(node.args[0], ast.GeneratorExp):
            self.fail(node, "PMR040", usage)
        g = node.args[0]
        comp = g.generators[0]
        if len(g.generators) != 1 or comp.ifs or comp.is_async or not isinstance(comp.target, ast.Name):
            self.fail(g, "PMR040", f"{usage}: one 'for' over one name, no 'if'")
        var = comp.target.id
        if var in self.params or var in self.consts:
            self.fail(comp.target, "PMR042", f"loop variable '{var}' hides a parameter or an outer loop variable")
        it = comp.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and 1 <= len(it.args) <= 2 and not it.keywords):
            self.fail(it, "PMR040", f"{usage}: the loop runs over range(n) or range(lo, hi)")
        bounds = [self.const_value(a) for a in it.args]
        if None in bounds:
            self.fail(it, "PMR042", "range() needs constant bounds")
        lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
        if not 0 < hi - lo <= 64:
            self.fail(it, "PMR042", f"range({lo}, {hi}) must give 1 to 64 values")
        parts = []
        for k in range(lo, hi):
            self.consts[var] = k
            try:
                parts.append(self.truth(self.compile(g.elt), g.elt))
            finally:
                del self.consts[var]
        op = " | " if fname == "any" else " & "
        return Val("(" + op.join(bool_operand(p) for p in parts) + ")", "bool", "int")

    def replace(self, node):
        if len(node.args) != 1 or not node.keywords:
            self.fail(node, "PMR042", "replace(reg, field=value, ...) takes one register and field=value pairs")
        v = self.compile(node.args[0])
        if v.kind != "layout":
            self.fail(node.args[0], "PMR042", "replace() needs a register value")
        L = v.ref
        code = v.code if v.ctype == f"uint{L.width}_t" else f"((uint{L.width}_t)({v.code}))"
        for kw in node.keywords:
            F = L.field(kw.arg) if kw.arg else None
            if F is None:
                self.fail(kw.value, "PMR041", f"layout '{L.name}' has no field '{kw.arg}'")
            x = self.u64(self.compile(kw.value), kw.value)
            if L.width != 64:
                x = f"((uint{L.width}_t)({x}))"
            code = f"{self.n.accessor(L, F, 'set')}({code}, {x})"
        return Val(code, "layout", f"uint{L.width}_t", L)


def compile_function(fam, fn, diag):
    """Compile fn.expr_node into fn.c_expr; report errors to diag."""
    fn.c_expr = compile_scalar(fam, fn, fn.expr_node, fn.returns, diag)


class _Bound:
    """The scope of a function expanded in place: no parameters of its own (they are bound names)."""

    def __init__(self, name):
        self.name, self.params = name, []


def compile_scalar(fam, fn, scalar, returns, diag, names=None, what=None, masked=False):
    """The C text of the expression in `scalar` (a yamlnode.Scalar) as spec type `returns`, with fn's
    parameters and the caller's `names` in scope; None after reporting an error to diag. `what` names the
    expression in messages (default: the function); `masked` selects without ?: (Compiler)."""
    what = what or f"function '{fn.name}'"
    text = scalar.text
    src = text if not scalar.block else text
    try:
        tree = parse(src.strip() if not scalar.block else "(" + src + ")")
    except SyntaxError as e:
        diag.error(_At(scalar, e.lineno or 1, (e.offset or 1) - 1), getattr(e, "pmr", "PMR040"),
                   f"in {what}: {e.msg}" if hasattr(e, "pmr") else f"expression: {e.msg}")
        return None
    c = Compiler(fam, fn, names, masked)
    try:
        v = c.compile(tree.body)
        return c.to_type(v, returns, tree.body)
    except ExprError as e:
        diag.error(at(scalar, e.node), e.code, f"in {what}: {e.msg}")
        return None


def at(scalar, node):
    """The location of AST node `node` of the expression in yamlnode.Scalar `scalar`, for Diag.error()."""
    lead = len(scalar.text) - len(scalar.text.lstrip()) if not scalar.block else -1
    return _At(scalar, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + lead)


def parse_scalar(scalar):
    """The expression tree of a yamlnode.Scalar, parsed as compile_scalar() parses it."""
    return parse(scalar.text.strip() if not scalar.block else "(" + scalar.text + ")")


class TooDeep(SyntaxError):
    """An expression nested beyond MAX_DEPTH: reported as PMR043, not as a syntax error."""
    pmr = "PMR043"


def parse(src):
    """ast.parse(src, mode="eval"), refusing expressions nested more than MAX_DEPTH
    operations deep (TooDeep) before anything walks them recursively."""
    try:
        tree = ast.parse(src, mode="eval")
    except (RecursionError, MemoryError):
        raise TooDeep(f"the expression is nested too deeply to parse (at most {MAX_DEPTH} levels)",
                      ("<expr>", 1, 1, "")) from None
    stack = [(tree.body, 0)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)):
            continue
        if d > MAX_DEPTH:
            line = getattr(node, "lineno", 1)
            raise TooDeep(f"the expression nests more than {MAX_DEPTH} operations (split it into functions)",
                          ("<expr>", line, getattr(node, "col_offset", 0) + 1, ""))
        stack.extend((c, d + 1) for c in ast.iter_child_nodes(node))
    return tree


# -- the same language in Python ------------------------------------------------------------------
M64 = (1 << 64) - 1


class NotEvaluable(Exception):
    """An expression the Python evaluator does not compute (a layout, matcher or array); node says where."""

    def __init__(self, node, msg):
        super().__init__(msg)
        self.node, self.msg = node, msg


class Evaluator:
    """Computes an expression of the language as the generated C does: every value an unsigned 64-bit
    integer (truth values 0 or 1), + - * << wrapping modulo 2^64, a variable shift count taken modulo 64.

    `env` maps names to integers: parameters, a classifier's fields or outputs, any()/all() loop
    variables; family constants and enum values are found in `fam`, functions of the spec are
    evaluated from their expressions. Only trees that compiled are evaluated."""

    def __init__(self, fam, env):
        self.fam, self.env = fam, dict(env)
        self.constants = {c[0]: c[1] for c in getattr(fam, "constants", [])}
        self.funcs = {f.name: f for f in getattr(fam, "functions", [])}

    def eval(self, node):
        meth = getattr(self, "e_" + type(node).__name__, None)
        if meth is None:
            raise NotEvaluable(node, f"'{type(node).__name__}' is not evaluated")
        return meth(node)

    def truth(self, node):
        return 1 if self.eval(node) != 0 else 0

    def e_Constant(self, node):
        return int(node.value) & M64

    def e_Name(self, node):
        if node.id in self.env:
            return self.env[node.id] & M64
        if node.id in self.constants:
            return self.constants[node.id]
        raise NotEvaluable(node, f"'{node.id}' has no value here")

    def e_Attribute(self, node):
        if isinstance(node.value, ast.Name):      # NAME.value: an enum's value (the compiler has checked it)
            E = self.fam.enum(node.value.id)
            if E is not None:
                for vn, vv, _ in E.values:
                    if vn == node.attr:
                        return vv
        raise NotEvaluable(node, "register fields are not evaluated")

    def e_Subscript(self, node):
        x = self.eval(node.value)
        sl = node.slice
        if isinstance(sl, ast.Slice):
            hi, lo = self.eval(sl.lower), self.eval(sl.upper)
            return (x >> lo) & ((1 << (hi - lo + 1)) - 1)
        return (x >> (self.eval(sl) & 63)) & 1

    def e_BoolOp(self, node):
        vals = [self.truth(v) for v in node.values]      # all evaluated, as the C does
        return int(all(vals)) if isinstance(node.op, ast.And) else int(any(vals))

    def e_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return 1 - self.truth(node.operand)
        x = self.eval(node.operand)
        if isinstance(node.op, ast.Invert):
            return ~x & M64
        if isinstance(node.op, ast.USub):
            return -x & M64
        raise NotEvaluable(node, "unsupported unary operator")

    def e_BinOp(self, node):
        a, b = self.eval(node.left), self.eval(node.right)
        op = type(node.op)
        if op is ast.Add:
            return (a + b) & M64
        if op is ast.Sub:
            return (a - b) & M64
        if op is ast.Mult:
            return (a * b) & M64
        if op is ast.BitAnd:
            return a & b
        if op is ast.BitOr:
            return a | b
        if op is ast.BitXor:
            return a ^ b
        if op is ast.LShift:
            return (a << (b & 63)) & M64
        if op is ast.RShift:
            return a >> (b & 63)
        raise NotEvaluable(node, "unsupported operator")

    def e_Compare(self, node):
        a, b = self.eval(node.left), self.eval(node.comparators[0])
        op = type(node.ops[0])
        return int({ast.Eq: a == b, ast.NotEq: a != b, ast.Lt: a < b, ast.LtE: a <= b,
                    ast.Gt: a > b, ast.GtE: a >= b}[op])

    def e_IfExp(self, node):
        return self.eval(node.body) if self.truth(node.test) else self.eval(node.orelse)

    def e_Call(self, node):
        fname = node.func.id
        if fname in ("any", "all"):
            g = node.args[0]
            comp = g.generators[0]
            bounds = [self.eval(a) for a in comp.iter.args]
            lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
            var, saved = comp.target.id, self.env.get(comp.target.id)
            vals = []
            for k in range(lo, hi):
                self.env[var] = k
                vals.append(self.truth(g.elt))
            if saved is None:
                del self.env[var]
            else:
                self.env[var] = saved
            return int(all(vals)) if fname == "all" else int(any(vals))
        F = self.funcs.get(fname)
        if F is None or any(type_info(self.fam, t)[0] not in ("int", "bool") for _, t in F.params):
            raise NotEvaluable(node, f"'{fname}' is not evaluated")
        args = {pn: convert(self.eval(a), t) for a, (pn, t) in zip(node.args, F.params)}
        tree = getattr(F, "tree", None) or parse_scalar(F.expr_node)
        F.tree = tree
        return convert(Evaluator(self.fam, args).eval(tree.body), F.returns)


def convert(x, t):
    """Value x as spec type t holds it (what the C casts do)."""
    if t == "bool":
        return 1 if x else 0
    if t in ("u8", "u16", "u32", "u64"):
        return x & ((1 << int(t[1:])) - 1)
    if t == "unsigned":
        return x & 0xFFFFFFFF
    return x
