# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Matchers and range covers: bit-range compare rules as data, compiled to mask arithmetic.

A *matcher* compares a value (an instruction address, an instruction encoding)
with a reference (a breakpoint address, an opcode match field) under a mask,
one bit range at a time, the way manuals write such rules:

    matchers:
      va_match:
        params: {ref: addr, mask: mask, value: ip}   # C parameter names, in this order
        width: 64                                    # reference (and mask) bits
        rules:
          - {bits: "50:0", mask: care}               # (addr{b} and mask{b}) = (ip{b} and mask{b})
          - {bits: "55:51", from: "50", mask: care}  # (addr{b} and mask{b}) = (ip{50} and mask{b})
          - {bits: "60:56", from: "50", mask: none}  # addr{b} = ip{50}
          - {bits: "63:61", mask: none}              # addr{b} = ip{b}

`bits` are positions in the reference and the mask. `from` names the value bits
compared with them: the same positions when omitted, a range of the same width
(moved into place: `{bits: "26:13", from: "40:27"}` compares ref{26:13} with
value{40:27}), or one bit compared with every bit of the range. `mask` says what
a mask bit means there: `care` (1 = compare), `dont_care` (1 = ignore), `none`
(always compared; the mask is not read) or `ignored` (never compared). Every
bit below `width` belongs to exactly one rule.

The generated function is three mask operations, whatever the rules:

    want = the value's bits moved (or copied) to the reference positions
    cmp  = (mask & CARE_BITS) | (~mask & DONT_CARE_BITS) | ALWAYS_BITS
    return ((ref ^ want) & cmp) == 0

Expressions call a matcher like a function, with its parameters in `params` order.

A *range cover* turns an address range into (address, mask) pairs for a
matcher, e.g. the four IBR pairs of a processor:

    range_covers:
      ibr_cover: {matcher: va_match, pairs: 4, granule: 4}

Each pair matches one aligned block of 2^k addresses, granule <= k <= K, where K
(the largest block) follows from the matcher: its low bits must be `care` rules
comparing each bit with itself, and no rule above them may read a value bit
below K. The search itself is pmregs_range_cover() in base.h.
"""

from ..core import BIT_RE, runs_of
from ..ctext import wrap
from ..mdtext import anchor, md, md_par

ROLES = ("ref", "mask", "value")
MASK_KINDS = ("care", "dont_care", "none", "ignored")


def mask_of(width):
    return (1 << width) - 1


def range_mask(hi, lo):
    return mask_of(hi - lo + 1) << lo


class Rule:
    def __init__(self, hi, lo, src, kind, node):
        self.hi, self.lo = hi, lo           # reference/mask positions
        self.src = src                      # (hi, lo) of the value bits; hi == lo with a wider rule = one bit copied
        self.kind = kind                    # one of MASK_KINDS
        self.node = node

    @property
    def mask(self):
        return range_mask(self.hi, self.lo)

    @property
    def replicated(self):
        return self.src[0] == self.src[1] and self.hi != self.lo

    @property
    def identity(self):
        return self.src == (self.hi, self.lo)


class Matcher:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = self.formula = ""
        self.params = []                    # [(role, C name)] in C parameter order
        self.width = 64
        self.rules = []

    def role(self, r):
        for role, name in self.params:
            if role == r:
                return name
        return None

    def bits(self, kind):
        m = 0
        for r in self.rules:
            if r.kind == kind:
                m |= r.mask
        return m

    def max_block(self):
        """log2 of the largest aligned block one (address, mask) pair matches whole.

        The low bits must be `care` rules comparing each bit with itself, so that
        clearing their mask bits lets those bits vary; and no rule above them may
        read one of them, or a block would match only in part.
        """
        low = 0
        while low < self.width:
            r = self.rule_at(low)
            if r is None or r.kind != "care" or not r.identity:
                break
            low += 1
        k = low
        for b in range(low, self.width):
            r = self.rule_at(b)
            if r is None or r.kind == "ignored":
                continue
            src = r.src[0] if r.replicated else r.src[1] + (b - r.lo)
            k = min(k, src)
        return k

    def rule_at(self, b):
        for r in self.rules:
            if r.lo <= b <= r.hi:
                return r
        return None

    def want_terms(self):
        """[(kind, shift or source bit, target mask)]: how the value's bits reach the reference positions."""
        moved, copied = {}, {}
        for r in self.rules:
            if r.kind == "ignored":
                continue
            if r.replicated:
                copied[r.src[0]] = copied.get(r.src[0], 0) | r.mask
            else:
                d = r.src[1] - r.lo
                moved[d] = moved.get(d, 0) | r.mask
        return [("move", d, m) for d, m in sorted(moved.items())] + \
               [("copy", b, m) for b, m in sorted(copied.items())]


class RangeCover:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.matcher = None
        self.pairs = 0
        self.granule = 0


def load(b, m):
    """Read the `matchers` and `range_covers` sections of spec mapping m with Builder b."""
    fam = b.fam
    fam.matchers = []
    fam.range_covers = []
    node = m.get("matchers")
    if node is not None:
        mm = b.r.mapping(node, "matchers")
        for k, v in (mm.pairs if mm else []):
            M = matcher(b, k, v)
            if M is not None:
                fam.matchers.append(M)
    node = m.get("range_covers")
    if node is not None:
        mm = b.r.mapping(node, "range_covers")
        for k, v in (mm.pairs if mm else []):
            C = range_cover(b, k, v)
            if C is not None:
                fam.range_covers.append(C)
    b.diag.check()                  # functions may call matchers


def matcher(b, k, v):
    r = b.r
    name = b.top_name(k, k.text, "matcher")
    m = r.mapping(v, f"matcher '{k.text}'")
    if name is None or m is None:
        return None
    if not r.keys(m, f"matcher '{name}'", required=("params", "rules"),
                  optional=("title", "doc", "source", "formula", "width")):
        return None
    M = Matcher(name, k)
    M.title = r.opt_text(m, "title", "title")
    M.doc = r.opt_text(m, "doc", "doc")
    M.source = r.opt_text(m, "source", "source")
    M.formula = r.opt_text(m, "formula", "formula")
    if m.get("width") is not None:
        w = r.integer(m.get("width"), "width", 1, 64)
        if w is None:
            return None
        M.width = w
    before = len(b.diag.errors)
    pm = r.mapping(m.get("params"), "params")
    seen = set()
    for pk, pv in (pm.pairs if pm else []):
        role = r.choice(pk, "matcher parameter role", ROLES)
        cname = r.name(pv, "parameter name")
        if role is None or cname is None:
            continue
        if cname in seen:
            r.err(pv, "PMR021", f"parameter name '{cname}' is used twice")
            continue
        seen.add(cname)
        M.params.append((role, cname))
    for role in ("ref", "value"):
        if pm is not None and M.role(role) is None and role not in pm.index:
            r.err(pm, "PMR080", f"matcher '{name}' needs a '{role}' parameter")
    owner = [None] * M.width
    for item in r.seq(m.get("rules"), "rules") or []:
        R = rule(b, M, item)
        if R is None:
            continue
        clash = next((owner[x] for x in range(R.lo, R.hi + 1) if owner[x] is not None), None)
        if clash is not None:
            r.err(item.get("bits"), "PMR012", f"rule {R.hi}:{R.lo} overlaps rule {clash.hi}:{clash.lo}"
                  f" of matcher '{name}'")
            continue
        for x in range(R.lo, R.hi + 1):
            owner[x] = R
        M.rules.append(R)
    if len(b.diag.errors) > before:
        return None
    gaps = [x for x in range(M.width) if owner[x] is None]
    if gaps:
        txt = ", ".join(f"{hi}" if hi == lo else f"{hi}:{lo}" for hi, lo in runs_of(gaps))
        r.err(m.key_node("rules"), "PMR013", f"matcher '{name}' leaves bits {txt} without a rule;"
              " add them (mask: ignored if they are never compared)")
        return None
    if M.role("mask") is None and any(R.kind in ("care", "dont_care") for R in M.rules):
        r.err(m.key_node("params"), "PMR080", f"matcher '{name}' has care/dont_care rules but no 'mask' parameter")
        return None
    return M


def rule(b, M, item):
    r = b.r
    m = r.mapping(item, "a matcher rule")
    if m is None or not r.keys(m, "a matcher rule", required=("bits", "mask"), optional=("from", "doc")):
        return None
    hi_lo = bit_range(b, m.get("bits"), M.width, f"the {M.width}-bit matcher '{M.name}'")
    kind = r.choice(m.get("mask"), "mask", MASK_KINDS)
    if hi_lo is None or kind is None:
        return None
    hi, lo = hi_lo
    src = (hi, lo)
    if m.get("from") is not None:
        src = bit_range(b, m.get("from"), 64, "a 64-bit value")
        if src is None:
            return None
        if src[0] != src[1] and src[0] - src[1] != hi - lo:
            r.err(m.get("from"), "PMR080", f"'from' {src[0]}:{src[1]} is {src[0] - src[1] + 1} bits but the"
                  f" rule covers {hi - lo + 1}; give a range of the same width or a single bit")
            return None
    return Rule(hi, lo, src, kind, item)


def bit_range(b, node, width, what):
    t = b.r.text(node, "bits")
    if t is None:
        return None
    mm = BIT_RE.match(t)
    if not mm:
        return b.r.err(node, "PMR010", f"bits '{t}' must look like \"7\" or \"14:8\"")
    hi = int(mm.group(1))
    lo = int(mm.group(2)) if mm.group(2) is not None else hi
    if hi < lo:
        return b.r.err(node, "PMR010", f"bits '{t}' must be written hi:lo with hi >= lo")
    if hi >= width:
        return b.r.err(node, "PMR011", f"bit {hi} is outside {what}")
    return (hi, lo)


def range_cover(b, k, v):
    r = b.r
    name = b.top_name(k, k.text, "range cover")
    m = r.mapping(v, f"range cover '{k.text}'")
    if name is None or m is None:
        return None
    if not r.keys(m, f"range cover '{name}'", required=("matcher", "pairs", "granule"),
                  optional=("title", "doc", "source")):
        return None
    C = RangeCover(name, k)
    C.title = r.opt_text(m, "title", "title")
    C.doc = r.opt_text(m, "doc", "doc")
    C.source = r.opt_text(m, "source", "source")
    mn = r.text(m.get("matcher"), "matcher")
    C.pairs = r.integer(m.get("pairs"), "pairs", 1, 64)
    C.granule = r.integer(m.get("granule"), "granule", 0, 64)
    if mn is None or C.pairs is None or C.granule is None:
        return None
    C.matcher = next((x for x in b.fam.matchers if x.name == mn), None)
    if C.matcher is None:
        return r.err(m.get("matcher"), "PMR030", f"matcher '{mn}' is not defined")
    M = C.matcher
    if M.width != 64:
        return r.err(m.get("matcher"), "PMR081", f"matcher '{mn}' compares {M.width} bits; a range cover"
                     " needs a 64-bit address matcher")
    K = M.max_block()
    if K == 0:
        return r.err(m.get("matcher"), "PMR081", f"matcher '{mn}' has no low 'care' bits compared with"
                     " themselves, so no pair can match a block of addresses")
    if C.granule > K:
        return r.err(m.get("granule"), "PMR081", f"granule {C.granule} is above the largest block 2^{K}"
                     f" that matcher '{mn}' can match whole")
    C.max_block = K
    return C


# -- the header ----------------------------------------------------------------------------


def u64(x):
    return f"PMREGS_U64(0x{x:016x})"


def matcher_view(hv, M):
    n = hv.n
    S = lambda name, what="": hv.sym.add(name, M.node, f"matcher '{M.name}'")   # noqa: E731
    val, ref, msk = M.role("value"), M.role("ref"), M.role("mask")
    care, dont, always = M.bits("care"), M.bits("dont_care"), M.bits("none")
    macros = [
        (S(n.mac(M.name, "width")), M.width, "reference bits compared"),
        (S(n.mac(M.name, "care_bits")), u64(care), "mask bits that mean 1 = compare"),
        (S(n.mac(M.name, "dont_care_bits")), u64(dont), "mask bits that mean 1 = ignore"),
        (S(n.mac(M.name, "always_bits")), u64(always), "reference bits always compared"),
    ]
    terms = []
    for kind, x, tm in M.want_terms():
        if kind == "copy":
            terms.append(f"((PMREGS_U64(0) - (({val} >> {x}) & 1)) & {u64(tm)})")
        elif x > 0:
            terms.append(f"(({val} >> {x}) & {u64(tm)})")
        elif x < 0:
            terms.append(f"(({val} << {-x}) & {u64(tm)})")
        else:
            terms.append(f"({val} & {u64(tm)})")
    want = " | ".join(terms) if terms else "PMREGS_U64(0)"
    cmps = []
    if care:
        cmps.append(f"({msk} & {macros[1][0]})")
    if dont:
        cmps.append(f"(~{msk} & {macros[2][0]})")
    if always:
        cmps.append(macros[3][0])
    cmp = " | ".join(cmps) if cmps else "PMREGS_U64(0)"
    meaning = {"care": "mask 1 = compare", "dont_care": "mask 1 = ignore", "none": "always", "ignored": "never"}
    rows = []
    for R in sorted(M.rules, key=lambda x: -x.hi):
        rb = f"{R.hi}" if R.hi == R.lo else f"{R.hi}:{R.lo}"
        sb = f"{R.src[0]}" if R.src[0] == R.src[1] else f"{R.src[0]}:{R.src[1]}"
        if R.replicated:
            sb += " (each)"
        rows.append((f"{ref}{{{rb}}}", "-" if R.kind == "ignored" else f"{val}{{{sb}}}", meaning[R.kind]))
    w0 = max(len(x[0]) for x in rows)
    w1 = max(len(x[1]) for x in rows)
    return {
        "name": S(n.fn(M.name)), "title": M.title or M.name,
        "doc": wrap(M.doc) if M.doc else [], "formula": wrap(M.formula) if M.formula else [],
        "source": M.source, "macros": macros,
        "rows": [f"{a:<{w0}}  {c:<{w1}}  {d}" for a, c, d in rows],
        "params": [p for _, p in M.params], "unused": [] if msk is None or (care or dont) else [msk],
        "want": want, "cmp": cmp, "ref": ref,
    }


def cover_view(hv, C):
    n = hv.n
    S = lambda name: hv.sym.add(name, C.node, f"range cover '{C.name}'")   # noqa: E731
    M = C.matcher
    args = {"ref": "t[i].addr", "mask": "t[i].mask", "value": "t[i].addr"}
    care = n.mac(M.name, "care_bits")
    return {
        "name": S(n.fn(C.name)), "title": C.title or C.name,
        "doc": wrap_doc(C.doc), "source": C.source,
        "matcher": n.fn(M.name), "matcher_name": M.name,
        "check": f"{n.fn(M.name)}({', '.join(args[role] for role, _ in M.params)})",
        "pairs": C.pairs, "granule": C.granule, "max_block": C.max_block, "care": care,
        "macros": [(S(n.mac(C.name, "pairs")), C.pairs, "pairs available"),
                   (S(n.mac(C.name, "granule")), C.granule, "log2 of the smallest block"),
                   (S(n.mac(C.name, "max_block")), C.max_block, "log2 of the largest block")],
    }


def wrap_doc(text):
    return wrap(text) if text else []


def views(hv):
    """Template data for every matcher and range cover of the family."""
    fam = hv.fam
    return ([matcher_view(hv, M) for M in getattr(fam, "matchers", [])],
            [cover_view(hv, C) for C in getattr(fam, "range_covers", [])])


# -- reference page -----------------------------------------------------------------------------

def matcher_page(pv, M):
    rules = []
    for r in sorted(M.rules, key=lambda r: -r.hi):
        ref = f"{r.hi}" if r.hi == r.lo else f"{r.hi}:{r.lo}"
        src = f"{r.src[0]}" if r.src[0] == r.src[1] else f"{r.src[0]}:{r.src[1]}"
        rules.append({"bits": ref, "from": src, "kind": r.kind})
    return {"name": M.name, "title": md(M.title or M.name), "doc": md_par(M.doc), "source": md(M.source),
            "formula": (M.formula or "").strip(), "width": M.width,
            "params": ", ".join(f"{role} = `{cn}`" for role, cn in M.params), "rules": rules,
            "cname": f"pmregs_{pv.name}_{M.name}"}


# -- construct interface (constructs/__init__.py) -----------------------------------------------
NAME = "matcher"
KEYS = ("matchers", "range_covers")
HEADER, SELFTEST, PAGE = "matcher.h.j2", None, "matcher.md.j2"
CONTENTS = (("Matchers", "matchers"), ("Range covers", "range_covers"))


def view(hv):
    hv.matchers, hv.range_covers = views(hv)
    if hv.range_covers:
        hv.uses.add("base_cover.h")


def page(pv):
    pv.matchers = [matcher_page(pv, M) for M in pv.fam.matchers]
    pv.range_covers = [{"name": C.name, "title": C.title, "doc": md(C.doc), "source": md(C.source),
                        "matcher": C.matcher.name if C.matcher else "", "pairs": C.pairs,
                        "granule": C.granule, "anchor": anchor("matcher", C.matcher.name) if C.matcher else ""}
                       for C in pv.fam.range_covers]


