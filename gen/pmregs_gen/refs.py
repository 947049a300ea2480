# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Column and fact types that name other rows, and columns of named bits.

Beyond scalars, strings and lists, a table column or a register fact may be

    ref:<target>         the name of one row of table <target>, or of one register
                         when <target> is `registers`;
    ref:<target>[N]      a list of at most N such names;

and a table column may be

    bits                 a mapping NAME: bit (or NAME: {bit: n, doc: "..."}) naming
                         single bits of a field (the column's `field`), such as the
                         event-mask bits an event defines.

References are read as names, checked once every register and table exists,
and then stored as row indices (C type uint16_t), so the header can index the
target's array directly. Named bits become the union mask (uint64_t) plus a
descriptor array that base.h's pmregs_bits_find()/pmregs_bits_snprint() use.
"""

import re

REF_RE = re.compile(r"^ref:([a-z][a-z0-9_]*)(?:\[(\d+)\])?\Z", re.ASCII)
BIT_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_]*\Z", re.ASCII)


def parse_ref_type(t):
    """(target, list length or None) for a ref type string, else None."""
    m = REF_RE.match(t or "")
    if not m:
        return None
    return m.group(1), (int(m.group(2)) if m.group(2) is not None else None)


class RefValue:
    """Names read from the spec, waiting to become indices."""

    def __init__(self, target, names, nodes, is_list):
        self.target, self.names, self.nodes, self.is_list = target, names, nodes, is_list


class BitsValue:
    """The named bits of one cell: [(name, bit, doc)]."""

    def __init__(self, bits):
        self.bits = bits

    @property
    def mask(self):
        m = 0
        for _, b, _ in self.bits:
            m |= 1 << b
        return m


def read_ref(r, node, t, what):
    """Read the value of a ref-typed fact or cell (r: a schema.Reader)."""
    target, n = parse_ref_type(t)
    if n is None:
        name = r.text(node, what)
        return None if name is None else RefValue(target, [name], [node], False)
    items = r.seq(node, what)
    if items is None:
        return None
    if len(items) > n:
        return r.err(node, "PMR060", f"{what} has {len(items)} items; at most {n}")
    names = [r.text(i, what) for i in items]
    if None in names:
        return None
    return RefValue(target, names, list(items), True)


def read_bits(r, node, column, what):
    """Read a `bits` cell: NAME: bit or NAME: {bit, doc}; bits must fit the column's field."""
    m = r.mapping(node, what)
    if m is None:
        return None
    width = column.field[1].width if column.field is not None else 64
    out, seen = [], {}
    for k, v in m.pairs:
        name = k.text
        if not BIT_NAME_RE.match(name):
            r.err(k, "PMR020", f"bit name '{name}' must be letters, digits and '_' (not starting with '_')")
            continue
        doc = ""
        if hasattr(v, "pairs"):
            if not r.keys(v, f"bit '{name}'", required=("bit",), optional=("doc",)):
                continue
            doc = r.opt_text(v, "doc", "doc")
            v = v.get("bit")
        bit = r.integer(v, f"bit '{name}'")
        if bit is None:
            continue
        if not 0 <= bit < width:
            where = f"field '{column.field[0].name}.{column.field[1].name}'" if column.field else "64 bits"
            r.err(v, "PMR060", f"bit '{name}' = {bit} is outside the {width} bits of {where}")
            continue
        key = name.upper()
        if key in seen:
            r.err(k, "PMR021", f"bit name '{name}' is used twice in this cell (names are compared ignoring case)")
            continue
        if any(b == bit for _, b, _ in out):
            r.err(v, "PMR060", f"bit {bit} is named twice in this cell")
            continue
        seen[key] = k
        out.append((name, bit, doc))
    return BitsValue(out)


def _targets(fam):
    t = {"registers": [R.name for R in fam.registers]}
    for T in fam.tables:
        t[T.name] = [row[0] for row in T.rows]
    return t


def _resolve(diag, value, index, target):
    if not isinstance(value, RefValue):
        return value
    out = []
    for name, node in zip(value.names, value.nodes):
        i = index.get(name)
        if i is None:
            what = "register" if target == "registers" else f"row of table '{target}'"
            diag.error(node, "PMR030", f"'{name}' is not a {what}")
            i = 0
        out.append(i)
    return out if value.is_list else out[0]


def resolve(builder):
    """Turn every reference into an index; called once registers and tables exist."""
    fam, diag = builder.fam, builder.diag
    targets = _targets(fam)

    def target_index(obj):
        parsed = parse_ref_type(obj.type)
        if parsed is None:
            return None
        target, n = parsed
        if target not in targets:
            diag.error(obj.node, "PMR030", f"reference target '{target}' is neither 'registers' nor a table")
            return None
        obj.ref = target
        obj.type = "u16" if n is None else f"u16[{n}]"
        fn = f"pmregs_{fam.name}_{target}"
        obj.doc = (obj.doc + "; " if obj.doc else "") + f"{'indices' if n else 'index'} into {fn}()"
        return target, {name: i for i, name in enumerate(targets[target])}

    for F in fam.facts:
        ti = target_index(F)
        if ti is None:
            continue
        target, index = ti
        for R in fam.registers:
            if F.name in R.facts:
                R.facts[F.name] = _resolve(diag, R.facts[F.name], index, target)
    for T in fam.tables:
        for C in T.columns:
            ti = target_index(C)
            if ti is None:
                continue
            target, index = ti
            for row in T.rows:
                vals = row[3]
                if C.name in vals:
                    vals[C.name] = _resolve(diag, vals[C.name], index, target)
            if isinstance(C.default, RefValue):
                C.default = _resolve(diag, C.default, index, target)

