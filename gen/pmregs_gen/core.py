# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The core model: the objects a loaded family is made of, and queries on them.

Construct modules (constructs/) fill these objects from the YAML tree and turn
them into template data; nothing here knows a construct's section of the spec.
"""

import re

ACCESS = ("rw", "ro", "wo", "w1c", "w1s", "rsvd", "ignored", "res1", "other")
WRITABLE = ("rw", "wo", "w1c", "w1s")
# Access kinds that are not fields a user sets: no accessor struct member for them.
RESERVED_KINDS = ("rsvd", "ignored", "res1")
WIDTHS = (8, 16, 32, 64)
SCALAR_TYPES = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "bool": 1}
MAX_PARTS = 4

# Bounds on what one family expands to, each checked before the expansion it bounds (PMR045): far above
# what the real families use (x86: 517 layout fields, 203 registers; itanium: 1840 table cells), low enough
# that every accepted spec is generated, compiled and self-tested in about a minute (the self-test checks
# each layout field with code of its own, about 15 ms of gcc -O1 per field; registers are rows of data).
MAX_REGISTERS = 16384       # registers, register arrays expanded
MAX_FIELDS = 4096           # layout fields, those of derived layouts, variants and repeat groups included
MAX_ROWS = 65535            # rows of one table (a ref: column holds a row index as uint16_t)
MAX_CELLS = 1 << 20         # table cells (rows times columns) of the family
MAX_SHAPE_FIELDS = 256      # fields of one packet shape
SET_RE = re.compile(r"^set\(([a-z][a-z0-9_]*)\)\Z", re.ASCII)   # a set of an enum's values, as a bit mask


def set_ctype(fam, t):
    """C type of a set(E) value: uint32_t when every enumerator is below 32, else uint64_t."""
    E = fam.enum(SET_RE.match(t).group(1))
    return "uint32_t" if all(vv < 32 for _, vv, _ in E.values) else "uint64_t"


def mask_of(width):
    return (1 << width) - 1


class Field:
    def __init__(self, name, parts, access, node):
        self.name = name
        self.parts = parts                  # [(hi, lo)] lsb0; first part = most significant value bits
        self.access = access
        self.node = node
        self.reset = 0
        self.signed = False
        self.values = []                    # [(name, value, doc)]
        self.doc = ""
        self.source = ""
        self.spec_bits = ""                 # the bit text as the spec wrote it (msb0 or lsb0)
        self.group = None                   # name of the repeat group, e.g. "en" for en0..en3
        self.index = None                   # index within the repeat group

    @property
    def width(self):
        return sum(hi - lo + 1 for hi, lo in self.parts)

    @property
    def mask(self):
        m = 0
        for hi, lo in self.parts:
            m |= mask_of(hi - lo + 1) << lo
        return m

    @property
    def contiguous(self):
        return len(self.parts) == 1

    @property
    def shift(self):
        return self.parts[-1][1] if self.contiguous else None

    @property
    def lo(self):
        return min(lo for _, lo in self.parts)

    def part_shifts(self):
        """[(position lo, width, value offset)] for each part."""
        out, off = [], self.width
        for hi, lo in self.parts:
            w = hi - lo + 1
            off -= w
            out.append((lo, w, off))
        return out

    @property
    def is_reserved(self):
        return self.access in RESERVED_KINDS

    def copy(self):
        f = Field(self.name, list(self.parts), self.access, self.node)
        f.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("parts",)})
        f.parts = list(self.parts)
        f.values = list(self.values)
        return f


class Layout:
    def __init__(self, name, node):
        self.name = name
        self.node = node
        self.title = ""
        self.doc = ""
        self.source = ""
        self.width = 64
        self.fields = []
        self.reset_override = None
        self.variants = None                # Variants, when the layout has them
        self.variant_of = None              # (parent Layout, case name) for a variant sub-layout
        self.base = None
        self.msb0 = False
        self.groups = []                    # [(group name, [fields by index], stride)] of repeat groups

    @property
    def rsvd_mask(self):
        return self._mask(("rsvd",))

    @property
    def res1_mask(self):
        return self._mask(("res1",))

    @property
    def writable_mask(self):
        return self._mask(WRITABLE)

    def _mask(self, kinds):
        m = 0
        for f in self.fields:
            if f.access in kinds:
                m |= f.mask
        return m

    @property
    def reset(self):
        if self.reset_override is not None:
            return self.reset_override
        v = 0
        for f in self.fields:
            v |= field_value(f, mask_of(f.width) if f.access == "res1" else f.reset)
        return v

    @property
    def user_fields(self):
        return [f for f in self.fields if not f.is_reserved]

    def field(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        return None


def field_value(f, x):
    """Place value x (already fitting) into f's bit positions."""
    v = 0
    for lo, w, off in f.part_shifts():
        v |= ((x >> off) & mask_of(w)) << lo
    return v


class Variants:
    def __init__(self, discriminator, cases, node):
        self.discriminator = discriminator  # Field of the parent layout
        self.cases = cases                  # [(case name, when value, sub Layout)]
        self.node = node


class Fact:
    def __init__(self, name, ctype, node):
        self.name = name
        self.type = ctype                   # u8..u64, bool, str, or list "u8[N]"
        self.node = node
        self.doc = ""
        self.address = False
        self.default = None
        self.choices = None


class Register:
    def __init__(self, name, node):
        self.name = name
        self.node = node
        self.title = ""
        self.doc = ""
        self.source = ""
        self.layout = None
        self.facts = {}                     # fact name -> value
        self.reset = None
        self.array = None                   # (template name, index) for registers from `count`


class RecordField:
    def __init__(self, name, offset, size, node):
        self.name, self.offset, self.size, self.node = name, offset, size, node
        self.layout = None
        self.access = "rw"
        self.doc = ""


class Record:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.size = 0
        self.byte_order = "little"
        self.fields = []


class Column:
    def __init__(self, name, ctype, node):
        self.name, self.type, self.node = name, ctype, node
        self.doc = ""
        self.field = None                   # (Layout, Field) the value must fit
        self.enum = None
        self.default = None


class Table:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.columns = []
        self.rows = []                      # [(name, title, doc, {col: value}, node)]
        self.group = None                   # name of the group of alternative tables it belongs to
        self.group_enum = None              # the Enum whose values choose a table of the group
        self.group_values = []              # the values of group_enum this table is for
        self.group_node = None


class Enum:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.doc = ""
        self.values = []                    # [(name, value, doc)]


class Function:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.doc = self.source = self.formula = ""
        self.params = []                    # [(name, type)]
        self.returns = None
        self.expr_node = None
        self.c_expr = None                  # filled by the expression compiler


class Family:
    def __init__(self, path):
        self.path = path
        self.name = ""
        self.title = self.doc = ""
        self.vendor = ""                    # who defines the registers ("Intel", "AMD", ...)
        self.sources = []                   # [(key, text)]
        self.msb0 = False
        self.width = 64
        self.facts = []
        self.constants = []                 # [(name, value, doc, node)]
        self.enums = []
        self.layouts = []                   # in emission order; variant sub-layouts follow their parent
        self.registers = []
        self.records = []
        self.tables = []
        self.matchers = []                  # bit-range compare rules (matcher.py)
        self.range_covers = []              # address range -> (address, mask) pairs (matcher.py)
        self.functions = []
        self.classifiers = []               # encoding words sorted into classes by bit patterns (classifier.py)
        self.passes = []                    # several events into shared control registers, by pass (passes.py)
        self.encoders = []                  # event encoders (encoder.py)
        self.samples = []                   # register records a tool reads back (samples.py)
        self._index = {}                    # lookups by name (_by_name)

    def layout(self, name):
        return self._by_name("layouts").get(name)

    def enum(self, name):
        return self._by_name("enums").get(name)

    def layout_number(self, L):
        """The index of layout L in self.layouts."""
        return self._by_name("layouts", key=id)[id(L)]

    def _by_name(self, attr, key=None):
        """{name (or key(item)): the first item of that name} of a list attribute, rebuilt when the list grew
        (a linear search per lookup made families with thousands of layouts and registers quadratic)."""
        items = getattr(self, attr)
        k = (attr, key)
        cached = self._index.get(k)
        if cached is None or cached[0] != len(items):
            d = {}
            for i, x in enumerate(items):
                d.setdefault(key(x) if key else x.name, i if key else x)
            cached = self._index[k] = (len(items), d)
        return cached[1]


BIT_RE = re.compile(r"^\s*(\d{1,4})\s*(?::\s*(\d{1,4})\s*)?\Z", re.ASCII)


def collect_groups(fields):
    groups = {}
    for f in fields:
        if f.group is not None:
            groups.setdefault(f.group, []).append(f)
    out = []
    for g, fs in groups.items():
        fs.sort(key=lambda f: f.index)
        out.append((g, fs))
    return out


def runs_of(bits):
    """Group sorted ints into (hi, lo) runs, highest first."""
    runs = []
    for b in sorted(bits):
        if runs and runs[-1][0] == b - 1:
            runs[-1][0] = b
        else:
            runs.append([b, b])
    return [(hi, lo) for hi, lo in reversed(runs)]


def fact_text(fam, F, val):
    """The value of fact F as it reads in a tool or a page: hex addresses, names for references."""
    ref = getattr(F, "ref", None)
    if ref is not None:
        rows = [R.name for R in fam.registers] if ref == "registers" else \
            [row[0] for T in fam.tables if T.name == ref for row in T.rows]
        items = val if isinstance(val, list) else [val]
        return ",".join(rows[i] if 0 <= i < len(rows) else str(i) for i in items)
    t = F.type
    if t == "str":
        return val or ""
    if t == "bool":
        return "yes" if val else "no"
    if SET_RE.match(t):
        E = fam.enum(SET_RE.match(t).group(1))
        return "|".join(vn for vn, vv, _ in E.values if (val or 0) >> vv & 1) or "none"
    if isinstance(val, list):
        return ",".join(str(x) for x in val)
    if F.address:
        return f"{val:#x}"
    return str(val)


def register_address(fam, R):
    """(fact name, value) of the register's first address fact, or (None, 0)."""
    for F in fam.facts:
        if F.address and F.name in R.facts:
            return F.name, R.facts[F.name]
    return None, 0


def register_facts(fam, R, skip=None):
    """[(fact name, text)] for every fact the register has, in the spec's fact order, except `skip`."""
    return [(F.name, fact_text(fam, F, R.facts[F.name])) for F in fam.facts
            if F.name in R.facts and F.name != skip]


def register_reset(R):
    if R.reset is not None:
        return R.reset
    return R.layout.reset if R.layout is not None else 0
