# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Classifiers: the classes of a fixed-width encoding word (an instruction set's opcodes) as bit patterns.

    classifiers:
      NAME:                                  # -> struct pmregs_<f>_NAME, pmregs_<f>_NAME_decode(word, params)
        title, doc, source
        word: {name: insn, width: 32}        # the encoding; bit 0 is its least significant bit
        params:                              # further inputs, in C parameter order
          xlen: {type: unsigned, values: [32, 64], doc: ...}
        fields:                              # operand fields, as bit gathers of the word
          rd: "11:7"                         # word bits 11:7
          b_imm:                             # word bits -> value bits, as the manual writes the
            bits: {"31:25": "12|10:5", "11:7": "4:1|11"}   # B-type's imm[12|10:5] and imm[4:1|11]
            signed: true                     # sign-extended from its highest value bit; absent bits are 0
        outputs:                             # members of the result struct (widest first)
          kind: {type: u8, enum: kind}       # u8..u64 or i64; enum: values named by an enum of the spec
          flags: {type: u8, value: "flags | (flag_call if rd == 1 else 0)"}
        classes:
          - name: beq
            pattern: "------- ----- ----- 000 ----- 1100011"   # most significant bit first; '-' any;
                                             # spaces ignored; a shorter pattern covers the low bits
            when: "rs1 != 0"                 # optional condition (fields, params, the word, constants)
            set: {kind: branch, imm: b_imm}  # outputs of this class (expressions over the same names)
            doc, source

Every encoding, for every value of the parameters, belongs to at most one class:
two classes whose patterns meet are refused unless their conditions never hold
together, which the generator decides by evaluating them over the bits and
parameter values they read (at most 2^16 combinations per pair; a parameter a
condition reads needs `values`). An output is the `set` value of the class that
matched, or its `default` (0 when not given); an output with `value` is then
that expression, which reads the word, the parameters and the other outputs (its
own name is its class value), in dependency order.

The generated function is mask arithmetic without a branch, a loop or a table
(classifier_view): one masked compare per pattern (patterns of classes with the
same outputs and condition that differ in one bit are merged first), the
compares of the classes that set the same values ORed into one selection mask,
and each output the OR of its values under their masks. Conditions and values
compile in the expression language's masked mode: `a if c else b` becomes mask
arithmetic and a function of the spec is expanded in place, since compilers turn
?: back into branches. Each class also gets PMREGS_<F>_NAME_<CLASS>_MASK and
_MATCH. The self-test compares the function with the generator's own evaluation
of the spec (expr.Evaluator) on encodings drawn from every class and at random.
"""

import ast
import itertools
import random
import re

from ..cnames import Names
from ..core import BIT_RE
from ..ctext import member, packed_struct, ulit, wrap
from ..expr import U64, Evaluator, NotEvaluable, Val, compile_scalar, parse_scalar, type_info
from ..mdtext import code, md, md_par

NAME = "classifier"
KEYS = ("classifiers",)
HEADER, SELFTEST, PAGE = "classifier.h.j2", "classifier_selftest.c.j2", "classifier.md.j2"
CONTENTS = (("Classifiers", "classifiers"),)

OUT_TYPES = {"u8": ("uint8_t", 8), "u16": ("uint16_t", 16), "u32": ("uint32_t", 32), "u64": ("uint64_t", 64),
             "i64": ("int64_t", 64)}
PARAM_TYPES = ("u8", "u16", "u32", "u64", "unsigned", "bool")
WORD_WIDTHS = (8, 16, 32, 64)
MAX_CHECK = 1 << 16          # encodings x parameter values evaluated to decide whether two classes overlap
PATTERN_RE = re.compile(r"[01\- ]+\Z", re.ASCII)


class Gather:
    """An operand field: word bits moved to value bits; runs are (word hi, word lo, value hi, value lo)."""

    def __init__(self, name, node):
        self.name, self.node = name, node
        self.runs = []
        self.signed = False
        self.doc = ""
        self.text = ""

    @property
    def word_mask(self):
        return sum(((1 << (wh - wl + 1)) - 1) << wl for wh, wl, _, _ in self.runs)

    @property
    def vwidth(self):
        return max(vh for _, _, vh, _ in self.runs) + 1

    def value(self, w):
        x = 0
        for wh, wl, vh, vl in self.runs:
            x |= ((w >> wl) & ((1 << (wh - wl + 1)) - 1)) << vl
        if self.signed:
            s = 1 << (self.vwidth - 1)
            x = ((x ^ s) - s) & ((1 << 64) - 1)
        return x

    def c_code(self, word):
        """The C expression (uint64_t) of this field of the C word `word`: one shift and mask per distance."""
        by_shift = {}
        for wh, wl, vh, vl in self.runs:
            m = ((1 << (wh - wl + 1)) - 1) << vl
            by_shift[wl - vl] = by_shift.get(wl - vl, 0) | m
        w = f"((uint64_t){word})"
        terms = []
        for d, m in sorted(by_shift.items(), reverse=True):
            lit = f"PMREGS_U64({m:#x})"
            terms.append(f"(({w} >> {d}) & {lit})" if d > 0 else
                         f"(({w} << {-d}) & {lit})" if d < 0 else f"({w} & {lit})")
        x = terms[0] if len(terms) == 1 else "(" + " | ".join(terms) + ")"
        if self.signed:
            s = f"PMREGS_U64({1 << (self.vwidth - 1):#x})"
            x = f"(({x} ^ {s}) - {s})"
        return x


class Output:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.type = "u64"
        self.enum = None
        self.default = self.value = None        # Scalar nodes
        self.default_tree = self.value_tree = None
        self.doc = ""


class Klass:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.text = ""
        self.bits = 0                          # pattern length
        self.mask = self.match = 0
        self.when = None
        self.when_tree = None
        self.sets = {}                         # output name -> Scalar
        self.trees = {}                        # output name -> parsed tree
        self.doc = self.source = ""


class Param:
    def __init__(self, name, ptype, node):
        self.name, self.type, self.node = name, ptype, node
        self.values = None
        self.doc = ""


class Classifier:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.word, self.width = "insn", 32
        self.params = []
        self.fields = []
        self.outputs = []
        self.classes = []
        self.order = []                        # outputs with a value, in dependency order
        self.c = {}                            # compiled C text: ("when", class) / ("set", class, out) / ...

    def field(self, name):
        return next((f for f in self.fields if f.name == name), None)

    def output(self, name):
        return next((o for o in self.outputs if o.name == name), None)

    @property
    def word_type(self):
        return f"u{self.width}"

    def scope_fn(self):
        """The pseudo function whose parameters the expressions see: the word, then the parameters."""
        return _Scope(self.name, [(self.word, self.word_type)] + [(p.name, p.type) for p in self.params])


class _Scope:
    def __init__(self, name, params):
        self.name, self.params = name, params


# -- load ---------------------------------------------------------------------------------------
def load(b, m):
    b.fam.classifiers = []
    b.section(m, "classifiers", lambda k, v: classifier(b, k, v))
    b.diag.check()


def classifier(b, k, v):
    r = b.r
    name = b.top_name(k, k.text, "classifier")
    m = r.mapping(v, f"classifier '{k.text}'")
    if name is None or m is None:
        return
    what = f"classifier '{name}'"
    if not r.keys(m, what, required=("word", "outputs", "classes"),
                  optional=("title", "doc", "source", "params", "fields")):
        return
    C = Classifier(name, k)
    b.common(C, m, "classifier")
    before = len(b.diag.errors)
    wm = r.mapping(m.get("word"), "word")
    if wm is not None and r.keys(wm, "word", required=("name", "width")):
        C.word = r.name(wm.get("name"), "word name") or C.word
        w = r.integer(wm.get("width"), "word width")
        if w is not None and w not in WORD_WIDTHS:
            r.err(wm.get("width"), "PMR016", f"width {w} is not one of {', '.join(map(str, WORD_WIDTHS))}")
        elif w is not None:
            C.width = w
    taken = {C.word: wm.get("name") if wm is not None else k}
    consts = {c[0] for c in b.fam.constants}

    def claim(node, nm, what_):
        if nm in taken:
            r.err(node, "PMR021", f"{what_} '{nm}' repeats a name of {what} (line {taken[nm].line})")
            return False
        if nm in consts:
            r.err(node, "PMR021", f"{what_} '{nm}' is also a constant of the family; expressions could not tell"
                  " them apart")
            return False
        taken[nm] = node
        return True

    if m.get("params") is not None:
        pm = r.mapping(m.get("params"), "params")
        for pk, pv in (pm.pairs if pm else []):
            P = param(b, pk, pv)
            if P is not None and claim(pk, P.name, "parameter"):
                C.params.append(P)
    if m.get("fields") is not None:
        fm = r.mapping(m.get("fields"), "fields")
        for fk, fv in (fm.pairs if fm else []):
            G = gather(b, C, fk, fv)
            if G is not None and claim(fk, G.name, "field"):
                C.fields.append(G)
    om = r.mapping(m.get("outputs"), "outputs")
    out_names = {C.word: taken[C.word], **{p.name: p.node for p in C.params}}
    for ok, ov in (om.pairs if om else []):
        O = output(b, ok, ov)
        if O is None:
            continue
        if O.name in out_names or O.name in consts:
            r.err(ok, "PMR021", f"output '{O.name}' repeats the name of the word, a parameter or a constant;"
                  " value expressions could not tell them apart")
            continue
        if O.enum is not None:
            clash = [vn for vn, _, _ in O.enum.values if vn in taken]
            if clash:
                r.err(ok, "PMR021", f"value '{clash[0]}' of enum '{O.enum.name}' is also a field or parameter of"
                      f" {what}; the class values of output '{O.name}' could not tell them apart")
                continue
        out_names[O.name] = ok
        C.outputs.append(O)
    if om is not None and not C.outputs and not om.pairs:
        r.err(om, "PMR133", f"{what} has no outputs")
    if len(b.diag.errors) > before:
        return
    seen = {}
    for item in r.seq(m.get("classes"), "classes") or []:
        K = klass(b, C, item)
        if K is None:
            continue
        if K.name in seen:
            r.err(item.get("name"), "PMR021", f"class '{K.name}' is already defined at line {seen[K.name].line}")
            continue
        seen[K.name] = K.node
        C.classes.append(K)
    if len(b.diag.errors) > before:
        return
    compile_outputs(b, C)
    if len(b.diag.errors) > before:
        return
    check_overlaps(b, C)
    if len(b.diag.errors) > before:
        return
    b.fam.classifiers.append(C)


def param(b, k, v):
    r = b.r
    name = r.check_name(k, k.text, "parameter")
    m = r.mapping(v, f"parameter '{k.text}'")
    if name is None or m is None or not r.keys(m, f"parameter '{name}'", required=("type",),
                                               optional=("values", "doc")):
        return None
    t = r.choice(m.get("type"), "parameter type", PARAM_TYPES)
    if t is None:
        return None
    P = Param(name, t, k)
    P.doc = r.opt_text(m, "doc", "doc")
    top = 1 if t == "bool" else (1 << 32) - 1 if t == "unsigned" else (1 << int(t[1:])) - 1
    if m.get("values") is not None:
        vals = [r.integer(x, f"a value of parameter '{name}'", 0, top) for x in r.seq(m.get("values"), "values") or []]
        if None in vals:
            return None
        if not vals or len(set(vals)) != len(vals):
            return r.err(m.get("values"), "PMR014", f"the values of parameter '{name}' must be a list of"
                         " different integers")
        P.values = vals
    elif t == "bool":
        P.values = [0, 1]
    return P


def bit_pair(b, node, text, limit, what):
    """(hi, lo) of "hi:lo" or "b", hi < limit; None after an error."""
    mm = BIT_RE.match(text)
    if not mm:
        return b.r.err(node, "PMR010", f"{what} '{text}' must look like \"7\" or \"14:8\"")
    hi = int(mm.group(1))
    lo = int(mm.group(2)) if mm.group(2) is not None else hi
    if hi < lo:
        return b.r.err(node, "PMR010", f"{what} '{text}' must be written hi:lo with hi >= lo")
    if hi >= limit:
        return b.r.err(node, "PMR132", f"{what} '{text}': bit {hi} is outside the {limit} bits there are")
    return hi, lo


def gather(b, C, k, v):
    """A field: "hi:lo", or {bits: "hi:lo" | {word range: value bits "a|b:c"}, signed, doc}."""
    r = b.r
    name = r.check_name(k, k.text, "field")
    if name is None:
        return None
    G = Gather(name, k)
    node = v
    if not hasattr(v, "text"):
        m = r.mapping(v, f"field '{name}'")
        if m is None or not r.keys(m, f"field '{name}'", required=("bits",), optional=("signed", "doc")):
            return None
        G.doc = r.opt_text(m, "doc", "doc")
        if m.get("signed") is not None:
            G.signed = bool(r.boolean(m.get("signed"), "signed"))
        node = m.get("bits")
    what = f"field '{name}'"
    if hasattr(node, "text"):
        hl = bit_pair(b, node, node.text, C.width, f"bits of {what}")
        if hl is None:
            return None
        G.runs = [(hl[0], hl[1], hl[0] - hl[1], 0)]
        G.text = node.text.strip()
    else:
        bm = r.mapping(node, f"bits of {what}")
        if bm is None:
            return None
        used_w, used_v, texts = 0, 0, []
        for wk, vv in bm.pairs:
            wr = bit_pair(b, wk, wk.text, C.width, f"word bits of {what}")
            vt = r.text(vv, f"value bits of {what}")
            if wr is None or vt is None:
                return None
            parts = []
            for p in vt.split("|"):
                pr = bit_pair(b, vv, p, 64, f"value bits of {what}")
                if pr is None:
                    return None
                parts.append(pr)
            n = sum(hi - lo + 1 for hi, lo in parts)
            if n != wr[0] - wr[1] + 1:
                return r.err(vv, "PMR132", f"{what}: word bits {wk.text} are {wr[0] - wr[1] + 1} bits but"
                             f" '{vt}' names {n} value bits")
            wm = ((1 << (wr[0] - wr[1] + 1)) - 1) << wr[1]
            if used_w & wm:
                return r.err(wk, "PMR132", f"{what} reads word bits {wk.text} twice")
            used_w |= wm
            top = wr[0]
            for hi, lo in parts:
                vm = ((1 << (hi - lo + 1)) - 1) << lo
                if used_v & vm:
                    return r.err(vv, "PMR132", f"{what} gives value bits {hi}:{lo} twice")
                used_v |= vm
                G.runs.append((top, top - (hi - lo), hi, lo))
                top -= hi - lo + 1
            texts.append(f"{wk.text.strip()} = [{vt.strip()}]")
        if not G.runs:
            return r.err(node, "PMR132", f"{what} gathers no bits")
        G.text = ", ".join(texts)
    return G


def output(b, k, v):
    r = b.r
    name = r.check_name(k, k.text, "output")
    m = r.mapping(v, f"output '{k.text}'")
    if name is None or m is None or not r.keys(m, f"output '{name}'", required=("type",),
                                               optional=("enum", "default", "value", "doc")):
        return None
    O = Output(name, k)
    O.type = r.choice(m.get("type"), "output type", tuple(OUT_TYPES))
    if O.type is None:
        return None
    O.doc = r.opt_text(m, "doc", "doc")
    if m.get("enum") is not None:
        en = r.text(m.get("enum"), "enum")
        O.enum = b.fam.enum(en) if en else None
        if O.enum is None:
            return r.err(m.get("enum"), "PMR030", f"enum '{en}' is not defined in this spec")
        big = [vn for vn, vv, _ in O.enum.values if vv >> OUT_TYPES[O.type][1]]
        if big or O.type == "i64":
            return r.err(m.get("enum"), "PMR014", f"enum '{en}' does not fit output '{name}' of type {O.type}")
    for key in ("default", "value"):
        if m.get(key) is not None:
            s = r.scalar(m.get(key), key)
            if s is None:
                return None
            setattr(O, key, s)
    return O


def klass(b, C, item):
    r = b.r
    m = r.mapping(item, "a class")
    if m is None or not r.keys(m, "a class", required=("name", "pattern"), optional=("when", "set", "doc", "source")):
        return None
    name = r.name(m.get("name"), "class name")
    pat = r.text(m.get("pattern"), "pattern")
    if name is None or pat is None:
        return None
    K = Klass(name, m.get("name"))
    K.doc = r.opt_text(m, "doc", "doc")
    K.source = r.opt_text(m, "source", "source")
    bits = pat.replace(" ", "")
    if not PATTERN_RE.match(pat) or not bits:
        return r.err(m.get("pattern"), "PMR130", f"pattern of class '{name}' may hold only 0, 1, - and spaces")
    if len(bits) > C.width:
        return r.err(m.get("pattern"), "PMR130", f"pattern of class '{name}' has {len(bits)} bits; the word has"
                     f" {C.width}")
    K.text, K.bits = " ".join(pat.split()), len(bits)
    for i, ch in enumerate(bits):
        pos = len(bits) - 1 - i
        if ch != "-":
            K.mask |= 1 << pos
            K.match |= int(ch) << pos
    if m.get("when") is not None:
        K.when = r.scalar(m.get("when"), "when")
        if K.when is None:
            return None
    if m.get("set") is not None:
        sm = r.mapping(m.get("set"), "set")
        for ok, ov in (sm.pairs if sm else []):
            if C.output(ok.text) is None:
                r.err(ok, "PMR030", f"class '{name}' sets '{ok.text}', which is not an output of classifier"
                      f" '{C.name}'")
                return None
            s = r.scalar(ov, f"value of '{ok.text}'")
            if s is None:
                return None
            K.sets[ok.text] = s
    return K


# -- expressions ----------------------------------------------------------------------------------
def field_names(C):
    return {G.name: Val(f"Fld_{G.name}", "int", U64) for G in C.fields}


def enum_names(hv_names, E):
    return {vn: Val(hv_names.enum_value(E, vn), "enum", hv_names.enum_type(E), E) for vn, _, _ in E.values}


def out_val(n, O, own):
    c = f"Set_{O.name}" if own else f"Out_{O.name}"
    if O.enum is not None:
        return Val(f"(({n.enum_type(O.enum)})({c}))", "enum", n.enum_type(O.enum), O.enum)
    return Val(c, "int", U64)


def to_u64(text, O):
    return f"((uint64_t)({text}))" if O.enum is not None else text


def compile_outputs(b, C):
    """Compile every expression (errors located in the spec) into C.c; order the value expressions."""
    from_cnames = Names(b.fam)
    fn = C.scope_fn()
    fields = field_names(C)
    d = b.diag
    for K in C.classes:
        if K.when is not None:
            K.when_tree = _tree(K.when)
            C.c[("when", K.name)] = compile_scalar(b.fam, fn, K.when, "bool", d, fields,
                                                   f"the condition of class '{K.name}'", masked=True)
        for on, s in K.sets.items():
            O = C.output(on)
            names = dict(fields, **enum_names(from_cnames, O.enum)) if O.enum is not None else fields
            t = compile_scalar(b.fam, fn, s, O.enum.name if O.enum is not None else "u64", d, names,
                               f"output '{on}' of class '{K.name}'", masked=True)
            K.trees[on] = _tree(s)
            C.c[("set", K.name, on)] = None if t is None else to_u64(t, O)
    deps = {}
    for O in C.outputs:
        if O.default is not None:
            names = dict(fields, **enum_names(from_cnames, O.enum)) if O.enum is not None else fields
            t = compile_scalar(b.fam, fn, O.default, O.enum.name if O.enum is not None else "u64", d, names,
                               f"the default of output '{O.name}'", masked=True)
            O.default_tree = _tree(O.default)
            C.c[("default", O.name)] = None if t is None else to_u64(t, O)
        if O.value is not None:
            names = {P.name: out_val(from_cnames, P, P is O) for P in C.outputs}
            t = compile_scalar(b.fam, fn, O.value, O.enum.name if O.enum is not None else "u64", d, names,
                               f"the value of output '{O.name}'", masked=True)
            O.value_tree = _tree(O.value)
            C.c[("value", O.name)] = None if t is None else to_u64(t, O)
            if O.value_tree is not None:
                deps[O.name] = sorted({n.id for n in ast.walk(O.value_tree) if isinstance(n, ast.Name)
                                       and n.id != O.name and C.output(n.id) is not None})
    # value expressions in dependency order
    done, order, stack = set(), [], []

    def visit(on):
        if on in done:
            return True
        if on in stack:
            cyc = stack[stack.index(on):] + [on]
            b.r.err(C.output(stack[-1]).value, "PMR133", f"the values of outputs {' -> '.join(cyc)} depend on"
                    " each other")
            return False
        stack.append(on)
        for dn in deps.get(on, []):
            if dn in deps and not visit(dn):
                return False
        stack.pop()
        done.add(on)
        order.append(on)
        return True

    for O in C.outputs:
        if O.name in deps and not visit(O.name):
            break
    C.order = order


def _tree(scalar):
    try:
        return parse_scalar(scalar)
    except SyntaxError:
        return None


# -- evaluation (overlaps, self-test vectors) --------------------------------------------------------
def env_for(C, word, params):
    env = {C.word: word}
    env.update(params)
    for G in C.fields:
        env[G.name] = G.value(word)
    return env


def holds(fam, K, env):
    return K.when_tree is None or Evaluator(fam, env).truth(K.when_tree.body)


def reads(C, tree):
    """(word bits, parameter names) an expression reads."""
    bits, params = 0, set()
    if tree is None:
        return bits, params
    full = (1 << C.width) - 1
    pnames = {p.name for p in C.params}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            G = C.field(n.id)
            if G is not None:
                bits |= G.word_mask
            elif n.id == C.word:
                bits |= full
            elif n.id in pnames:
                params.add(n.id)
    return bits, params


def check_overlaps(b, C):
    """No encoding, for no parameter values, belongs to two classes (PMR131); undecidable pairs: PMR134."""
    fam = b.fam
    full = (1 << C.width) - 1
    for i, A in enumerate(C.classes):
        for B in C.classes[i + 1:]:
            if (A.match ^ B.match) & A.mask & B.mask:
                continue
            fixed_mask, fixed = A.mask | B.mask, A.match | B.match
            ba, pa = reads(C, A.when_tree)
            bb, pb = reads(C, B.when_tree)
            loose = (ba | bb) & ~fixed_mask & full
            free = [x for x in range(C.width) if loose >> x & 1]
            pnames = sorted(pa | pb)
            nodomain = [p for p in C.params if p.name in pnames and p.values is None]
            if nodomain:
                b.r.err(B.when or A.when, "PMR134", f"classes '{A.name}' and '{B.name}' may overlap and a condition"
                        f" reads parameter '{nodomain[0].name}', which has no 'values' to try")
                return
            domains = [next(p for p in C.params if p.name == pn).values for pn in pnames]
            count = (1 << len(free)) * _product(len(dm) for dm in domains)
            if count > MAX_CHECK:
                b.r.err(B.node, "PMR134", f"classes '{A.name}' and '{B.name}' share patterns; deciding whether"
                        f" their conditions hold together takes {count} evaluations (at most {MAX_CHECK}):"
                        " fix more bits in the patterns")
                return
            for k in range(1 << len(free)):
                word = fixed
                for j, x in enumerate(free):
                    word |= ((k >> j) & 1) << x
                for pv in itertools.product(*domains):
                    env = env_for(C, word, dict(zip(pnames, pv)))
                    try:
                        both = holds(fam, A, env) and holds(fam, B, env)
                    except NotEvaluable as e:
                        b.r.err(B.when or A.when, "PMR134", f"classes '{A.name}' and '{B.name}' share patterns and"
                                f" a condition cannot be evaluated to tell them apart ({e.msg})")
                        return
                    if both:
                        given = "".join(f", {pn} = {x}" for pn, x in zip(pnames, pv))
                        b.r.err(B.node, "PMR131", f"classes '{A.name}' (line {A.node.line}) and '{B.name}' both"
                                f" match {C.word} = {word:#x}{given}: give them disjoint patterns or conditions")
                        return


def _product(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def evaluate(fam, C, word, params):
    """(class or None, {output: value as the struct holds it, as an unsigned integer}) for one encoding."""
    env = env_for(C, word, params)
    hit = [K for K in C.classes if word & K.mask == K.match and holds(fam, K, env)]
    K = hit[0] if hit else None
    stage = {}
    for O in C.outputs:
        if K is not None and O.name in K.sets:
            e = dict(env, **({vn: vv for vn, vv, _ in O.enum.values} if O.enum else {}))
            stage[O.name] = Evaluator(fam, e).eval(K.trees[O.name].body)
        elif O.default_tree is not None:
            e = dict(env, **({vn: vv for vn, vv, _ in O.enum.values} if O.enum else {}))
            stage[O.name] = Evaluator(fam, e).eval(O.default_tree.body)
        else:
            stage[O.name] = 0
    final = dict(stage)
    for on in C.order:
        O = C.output(on)
        e = {C.word: word, **params, **{n: final[n] for n in final if n != on}, on: stage[on]}
        final[on] = Evaluator(fam, e).eval(O.value_tree.body)
    return K, {on: final[on] & ((1 << OUT_TYPES[C.output(on).type][1]) - 1) for on in final}


def vectors(fam, C):
    """Self-test rows (class name, word, [param values], [outputs]): up to three encodings of every class for
    every parameter value (don't-care bits all 0, all 1, only the highest, all but the highest, alternating,
    random: the extremes of signed immediates come first), then random words."""
    rng = random.Random(f"pmregs/{fam.name}/{C.name}")
    full = (1 << C.width) - 1
    pnames = [p.name for p in C.params]
    combos = list(itertools.product(*[p.values if p.values is not None else [0] for p in C.params]))
    rows = []

    def add(word, pv):
        params = dict(zip(pnames, pv))
        K, out = evaluate(fam, C, word, params)
        rows.append((K.name if K else "", word, list(pv), [out[O.name] for O in C.outputs]))
        return K

    for K in C.classes:
        span = (1 << K.bits) - 1
        free = span & ~K.mask
        for pv in combos:
            top = 1 << (free.bit_length() - 1) if free else 0      # the sign bit of most immediates
            tries = [0, free, top, free & ~top, free & 0x5555555555555555, free & 0xAAAAAAAAAAAAAAAA] + \
                    [rng.getrandbits(C.width) & free for _ in range(24)]
            got = 0
            for t in tries:
                hi = rng.getrandbits(C.width) & full & ~span
                if add(K.match | t | hi, pv) is K:
                    got += 1
                else:
                    rows.pop()
                if got == 3:
                    break
    for pv in combos:
        for _ in range(96):
            add(rng.getrandbits(C.width), pv)
    return rows


# -- header view -----------------------------------------------------------------------------------
def pattern_text(mask, match, bits):
    """A (merged) pattern as 0, 1 and - over its bits, most significant first."""
    return "".join("-" if not mask >> b & 1 else str(match >> b & 1) for b in reversed(range(bits)))


def lit(x, width):
    return f"PMREGS_U64({x:#x})" if width > 32 else f"{x:#x}u"


def merged(C):
    """[(mask, match, [class names], when text or None, class)]: classes with the same outputs and condition
    whose patterns differ in one bit become one pattern, until none can merge."""
    groups = {}
    for K in C.classes:
        key = (C.c.get(("when", K.name)), tuple(C.c.get(("set", K.name, O.name)) for O in C.outputs))
        groups.setdefault(key, []).append([K.mask, K.match, [K.name], K])
    out = []
    for key, items in groups.items():
        changed = True
        while changed:
            changed = False
            for i in range(len(items)):
                for j in range(i + 1, len(items)):
                    a, bb = items[i], items[j]
                    diff = a[1] ^ bb[1]
                    if a[0] == bb[0] and diff and diff & (diff - 1) == 0:
                        items[i] = [a[0] & ~diff, a[1] & ~diff, a[2] + bb[2], a[3]]
                        del items[j]
                        changed = True
                        break
                if changed:
                    break
        out += [(mk, mt, names, key[0], K) for mk, mt, names, K in items]
    return out


def const_of(fam, tree, O=None):
    """The value of an expression that names nothing but constants (and the values of O's enum), else None."""
    env = {vn: vv for vn, vv, _ in O.enum.values} if O is not None and O.enum is not None else {}
    try:
        return None if tree is None else Evaluator(fam, env).eval(tree.body)
    except NotEvaluable:
        return None


def is_zero(fam, tree):
    try:
        return tree is not None and Evaluator(fam, {}).eval(tree.body) == 0
    except NotEvaluable:
        return False


def used(name, texts):
    pat = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
    return any(t and pat.search(t) for t in texts)


def inline_fields(C, text):
    """text with every Fld_NAME replaced by the field's gather: each use computes it where it is needed
    (compilers merge the copies), so no field stays live across the whole function."""
    for G in C.fields:
        text = re.sub(r"(?<![A-Za-z0-9_])Fld_" + G.name + r"(?![A-Za-z0-9_])", lambda _, g=G: g.c_code(C.word), text)
    return text


def classifier_view(hv, C):
    """The decode function is one block per (merged) class, in spec order: the class's selection mask Sel
    (all ones when the class matches, else 0), then each output's accumulator ORs in Sel & value. The
    constant values of the narrow outputs are packed into one word per class (Pack: one AND and one OR for
    all of them); outputs that have a value expression are computed at the end, in dependency order. A
    class's mask and its fields die at the end of its block, so the function needs few registers."""
    n, fam = hv.n, hv.fam
    S = lambda name, what: hv.sym.add(name, C.node, what)   # noqa: E731
    what = f"classifier '{C.name}'"
    items = merged(C)
    # the packed outputs: the narrow ones most classes set to constants, within 32 bits (no 64-bit immediates)
    nconst = {O.name: sum(1 for K in C.classes
                          if O.name in K.sets and const_of(fam, K.trees.get(O.name), O) is not None)
              for O in C.outputs}
    pack, off = {}, 0
    for O in sorted(C.outputs, key=lambda O: -nconst[O.name]):
        w = OUT_TYPES[O.type][1]
        if nconst[O.name] and O.type != "i64" and off + w <= 32:
            pack[O.name] = off
            off += w
    defaults = {O.name: C.c.get(("default", O.name)) for O in C.outputs
                if C.c.get(("default", O.name)) is not None and not is_zero(fam, O.default_tree)}
    # one block per group of (merged) classes that set the same outputs to the same values: their tests are
    # ORed (a compare each), and the group's mask does the rest once
    groups = {}
    for mk, mt, names, when, K in items:
        packed, nonconst, dflt = 0, [], []
        for O in C.outputs:
            if O.name not in K.sets:
                continue
            cv = const_of(fam, K.trees.get(O.name), O)
            if cv is not None and O.name in pack:
                packed |= (cv & ((1 << OUT_TYPES[O.type][1]) - 1)) << pack[O.name]
            elif cv != 0:
                nonconst.append((O.name, C.c[("set", K.name, O.name)]))
            if O.name in defaults:
                dflt.append(O.name)
        test = f"(int)(({C.word} & {lit(mk, C.width)}) == {lit(mt, C.width)})"
        if when is not None:
            test = f"({test} & (int){when})" if when.startswith("(") else f"({test} & (int)({when}))"
        g = groups.setdefault((packed, tuple(nonconst), tuple(dflt)), {"tests": [], "names": [], "patterns": []})
        g["tests"].append(test)
        g["names"] += names
        g["patterns"].append(pattern_text(mk, mt, max(Kx.bits for Kx in C.classes if Kx.name in names)))
    blocks, accs = [], {}
    for (packed, nonconst, dflt), g in groups.items():
        lines = [f"Sel = PMREGS_U64(0) - (uint64_t)({inline_fields(C, ' | '.join(g['tests']))});"]
        if packed:
            lines.append(f"Pack |= Sel & {lit(packed, 32)};")
        for on, text in nonconst:
            accs[on] = True
            lines.append(f"Set_{on} |= Sel & {inline_fields(C, text)};")
        for on in dflt:
            lines.append(f"Any_{on} |= Sel;")
        blocks.append({"names": ", ".join(g["names"]), "pattern": ", ".join(g["patterns"]), "lines": lines})
    # stage-1 values, then the value expressions in dependency order
    packs = any("Pack |=" in line for b in blocks for line in b["lines"])
    finals, decls = [], ["Sel", "Pack = 0"] if packs else ["Sel"]
    values = {on: C.c[("value", on)] for on in C.order}
    for O in C.outputs:
        terms = []
        if O.name in accs:
            decls.append(f"Set_{O.name} = 0")
            terms.append(f"Set_{O.name}")
        if O.name in pack and any(O.name in K.sets and const_of(fam, K.trees.get(O.name), O) is not None
                                  for K in C.classes):
            terms.append(f"((Pack >> {pack[O.name]}) & {lit((1 << OUT_TYPES[O.type][1]) - 1, 64)})")
        if O.name in defaults:
            decls.append(f"Any_{O.name} = 0")
            terms.append(f"(~Any_{O.name} & {inline_fields(C, defaults[O.name])})")
        stage = " | ".join(terms) if terms else "PMREGS_U64(0)"
        if O.name in values:
            if used(f"Set_{O.name}", [values[O.name]]):
                if O.name not in accs:
                    decls.append(f"Set_{O.name}")
                finals.append(f"Set_{O.name} = {stage};")
        else:
            decls.append(f"Out_{O.name}")
            finals.append(f"Out_{O.name} = {stage};")
    for on in C.order:
        decls.append(f"Out_{on}")
        finals.append(f"Out_{on} = {values[on]};")
    texts = [line for b in blocks for line in b["lines"]] + finals
    params = [{"name": P.name, "ctype": type_info(fam, P.type)[1], "doc": P.doc, "used": used(P.name, texts)}
              for P in C.params]
    assigns = []
    for O in C.outputs:
        ct, _ = OUT_TYPES[O.type]
        src = f"Out_{O.name}"
        assigns.append((O.name, f"pmregs_s64({src})" if O.type == "i64" else
                        src if O.type == "u64" else f"({ct}){src}"))
    # the struct: widest members first and an explicit tail (no implicit padding, clang -Wpadded)
    smembers, _ = packed_struct([member(OUT_TYPES[O.type][0] + " ", O.name, " ".join(wrap(O.doc, 80)) if O.doc else "")
                                 for O in C.outputs], [])
    for m in smembers:
        if m["dim"]:
            assigns.extend((f"{m['name']}[{i}]", "0") for i in range(int(m["dim"][1:-1])))
    struct = S(n.fn(C.name), what)
    P = n.mac(C.name)
    macros = []
    for K in C.classes:
        macros.append((S(f"{P}_{K.name.upper()}_MASK", what), ulit(K.mask, C.width), K.text))
        macros.append((S(f"{P}_{K.name.upper()}_MATCH", what), ulit(K.match, C.width), ""))
    rows = []
    wn = max(len(K.name) for K in C.classes) if C.classes else 0
    wp = max(len(K.text) for K in C.classes) if C.classes else 0
    for K in C.classes:
        sets = ", ".join(f"{on} = {' '.join(s.text.split())}" for on, s in K.sets.items())
        cond = f" if {' '.join(K.when.text.split())}" if K.when is not None else ""
        rows.append(f"{K.text:<{wp}}  {K.name:<{wn}}  {sets}{cond}".rstrip())
    return {
        "name": C.name, "title": C.title or C.name, "doc": wrap(C.doc) if C.doc else [], "source": C.source,
        "struct": struct, "fn": S(n.fn(C.name, "decode"), what),
        "word": C.word, "word_ctype": f"uint{C.width}_t", "width": C.width,
        "params": params, "struct_members": smembers, "members": [{"ctype": OUT_TYPES[O.type][0], "name": O.name,
                                       "doc": wrap(O.doc, 80) if O.doc else []} for O in C.outputs],
        "decls": decls, "blocks": blocks, "finals": finals, "assigns": assigns,
        "macros": macros, "rows": rows, "ncompares": len(items),
        "vectors": lambda: vector_view(fam, C),
    }


def vector_view(fam, C):
    out = []
    for cname, word, pv, outs in vectors(fam, C):
        out.append({"class": cname or "none", "word": f"{word:#x}",
                    "params": ", ".join(f"{x:#x}" for x in pv) or "0",
                    "outs": ", ".join(f"PMREGS_U64({x:#x})" for x in outs)})
    return out


# -- reference page ----------------------------------------------------------------------------------
def classifier_page(pv, C):
    params = ", ".join([f"uint{C.width}_t {C.word}"] + [f"{type_info(pv.fam, P.type)[1]} {P.name}" for P in C.params])
    return {
        "name": C.name, "title": md(C.title or C.name), "doc": md_par(C.doc), "source": md(C.source),
        "signature": f"struct pmregs_{pv.name}_{C.name} pmregs_{pv.name}_{C.name}_decode({params})",
        "word": C.word, "width": C.width,
        "params": [{"name": P.name, "type": P.type, "values": ", ".join(map(str, P.values)) if P.values else "",
                    "doc": md(P.doc)} for P in C.params],
        "fields": [{"name": G.name, "bits": code(G.text), "signed": "signed" if G.signed else "",
                    "doc": md(G.doc)} for G in C.fields],
        "outputs": [{"name": O.name, "type": OUT_TYPES[O.type][0] + (f" (enum {O.enum.name})" if O.enum else ""),
                     "default": code(" ".join(O.default.text.split())) if O.default is not None else "",
                     "value": code(" ".join(O.value.text.split())) if O.value is not None else "",
                     "doc": md(O.doc)} for O in C.outputs],
        "classes": [{"name": K.name, "pattern": code(K.text),
                     "when": code(" ".join(K.when.text.split())) if K.when is not None else "",
                     "sets": "; ".join(f"{on} = {code(' '.join(s.text.split()))}" for on, s in K.sets.items()),
                     "source": md(K.source), "doc": md(K.doc)} for K in C.classes],
        "ncompares": len(merged(C)),
    }


# -- construct interface (constructs/__init__.py) -----------------------------------------------
def view(hv):
    hv.classifiers = [classifier_view(hv, C) for C in getattr(hv.fam, "classifiers", [])]


def page(pv):
    pv.classifiers = [classifier_page(pv, C) for C in pv.fam.classifiers]
    for C in pv.fam.classifiers:
        pv.api_claimed.add(f"pmregs_{pv.name}_{C.name}_decode")

