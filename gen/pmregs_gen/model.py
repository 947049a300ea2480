# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The spec model: load one family YAML file, validate it strictly, build objects.

Everything a header needs is decided here; templates only lay the C text out.
"""

import re

from .diag import Diag
from .schema import Reader
from .yamlnode import Map, Scalar, Seq

ACCESS = ("rw", "ro", "wo", "w1c", "w1s", "rsvd", "ignored", "res1", "other")
WRITABLE = ("rw", "wo", "w1c", "w1s")
# Access kinds that are not fields a user sets: no accessor struct member for them.
RESERVED_KINDS = ("rsvd", "ignored", "res1")
WIDTHS = (8, 16, 32, 64)
SCALAR_TYPES = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "bool": 1}
MAX_PARTS = 4
SET_RE = re.compile(r"^set\(([a-z][a-z0-9_]*)\)$")   # a set of an enum's values, as a bit mask


def set_ctype(fam, t):
    """C type of a set(E) value: uint32_t when every enumerator is below 32, else uint64_t."""
    E = fam.enum(SET_RE.match(t).group(1))
    return "uint32_t" if all(vv < 32 for _, vv, _ in E.values) else "uint64_t"

FAMILY_KEYS = ("family", "title", "vendor", "doc", "sources", "bit_order", "width", "facts", "constants",
               "enums", "layouts", "registers", "records", "tables", "matchers", "range_covers",
               "functions", "encoders", "params", "param_checks", "widths", "packets", "streams", "passes")


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
        self.passes = []                    # several events into shared control registers, by pass (passes.py)
        self.encoders = []                  # event encoders (encoder.py)

    def layout(self, name):
        for l in self.layouts:
            if l.name == name:
                return l
        return None

    def enum(self, name):
        for e in self.enums:
            if e.name == name:
                return e
        return None


# ---------------------------------------------------------------------------

BIT_RE = re.compile(r"^\s*(\d+)\s*(?::\s*(\d+)\s*)?$")


class Builder:
    """Turns the YAML tree into a Family, collecting every error it finds."""

    def __init__(self, tree, path):
        self.diag = Diag()
        self.r = Reader(self.diag)
        self.tree = tree
        self.fam = Family(path)
        self.names = {}                     # top-level namespace: name -> node (layouts, enums, ...)

    def build(self):
        m = self.r.mapping(self.tree, "the spec")
        if m is None:
            self.diag.check()
        self.r.keys(m, "the family", required=("family", "title", "layouts"), optional=FAMILY_KEYS)
        fam = self.fam
        fam.name = self.r.name(m.get("family"), "family name") if m.get("family") else ""
        fam.node = m.get("family") or m
        fam.title = self.r.opt_text(m, "title", "title")
        fam.vendor = self.r.opt_text(m, "vendor", "vendor")
        fam.doc = self.r.opt_text(m, "doc", "doc")
        if m.get("sources") is not None:
            sm = self.r.mapping(m.get("sources"), "sources")
            for k, v in (sm.pairs if sm else []):
                fam.sources.append((k.text, self.r.text(v, "source text") or ""))
        if m.get("bit_order") is not None:
            fam.msb0 = self.r.choice(m.get("bit_order"), "bit_order", ("lsb0", "msb0")) == "msb0"
        if m.get("width") is not None:
            fam.width = self.width(m.get("width")) or 64
        self.section(m, "enums", self.enum)        # facts and columns may be sets of an enum
        self.section(m, "facts", self.fact)
        self.section(m, "constants", self.constant)
        self.layouts(m.get("layouts"))
        self.diag.check()                   # later sections refer to layouts
        self.section(m, "registers", self.register, seq=True)
        self.section(m, "records", self.record)
        self.section(m, "tables", self.table)
        self.diag.check()
        from . import refs
        refs.resolve(self)                  # ref:<target> names become row indices
        self.diag.check()
        from .constructs import matcher
        matcher.load(self, m)               # functions may call matchers
        self.diag.check()
        self.section(m, "functions", self.function, seq=True)
        self.diag.check()
        from .constructs import encoder
        self.section(m, "encoders", lambda k, v: encoder.load(self, k, v))
        self.diag.check()
        from .constructs import packets
        packets.build(self, m)              # params, widths, packets, streams
        if m.get("passes") is not None:
            from .constructs.passes import build_passes
            build_passes(self, m.get("passes"))
            self.diag.check()
        return fam

    # -- helpers ---------------------------------------------------------------
    def section(self, m, key, fn, seq=False):
        node = m.get(key)
        if node is None:
            return
        if seq:
            for item in self.r.seq(node, key) or []:
                fn(item)
        else:
            mm = self.r.mapping(node, key)
            for k, v in (mm.pairs if mm else []):
                fn(k, v)

    def top_name(self, node, name, what):
        """Names of layouts, enums, records, tables and functions share one namespace."""
        name = self.r.check_name(node, name, what)
        if name is None:
            return None
        if name in self.names:
            prev = self.names[name]
            return self.r.err(node, "PMR021", f"{what} '{name}' is already defined at line {prev.line}")
        self.names[name] = node
        return name

    def width(self, node):
        w = self.r.integer(node, "width")
        if w is not None and w not in WIDTHS:
            return self.r.err(node, "PMR016", f"width {w} is not one of {', '.join(map(str, WIDTHS))}")
        return w

    def common(self, obj, m, what):
        obj.title = self.r.opt_text(m, "title", f"{what} title")
        obj.doc = self.r.opt_text(m, "doc", f"{what} doc")
        if hasattr(obj, "source"):
            obj.source = self.r.opt_text(m, "source", f"{what} source")

    # -- facts, constants, enums ---------------------------------------------------
    def fact(self, k, v):
        name = self.r.check_name(k, k.text, "fact")
        m = self.r.mapping(v, f"fact '{k.text}'")
        if name is None or m is None:
            return
        if not self.r.keys(m, f"fact '{name}'", required=("type",),
                           optional=("doc", "address", "default", "values")):
            return
        t = self.ctype(m.get("type"), allow_str=True, allow_list=True, allow_set=True)
        f = Fact(name, t, k)
        f.doc = self.r.opt_text(m, "doc", "doc")
        if m.get("address") is not None:
            f.address = bool(self.r.boolean(m.get("address"), "address"))
        if m.get("values") is not None:
            f.choices = [self.r.text(x, "value") for x in self.r.seq(m.get("values"), "values") or []]
        if t and m.get("default") is not None:
            f.default = self.value_of(m.get("default"), t, f"default of fact '{name}'", f.choices)
        if any(x.name == name for x in self.fam.facts):
            self.r.err(k, "PMR021", f"fact '{name}' is already defined")
            return
        self.fam.facts.append(f)

    def constant(self, k, v):
        name = self.r.check_name(k, k.text, "constant")
        doc = ""
        if isinstance(v, Map):
            if not self.r.keys(v, f"constant '{k.text}'", required=("value",), optional=("doc",)):
                return
            doc = self.r.opt_text(v, "doc", "doc")
            v = v.get("value")
        val = self.r.integer(v, f"constant '{k.text}'", 0, mask_of(64))
        if name and val is not None:
            if any(c[0] == name for c in self.fam.constants):
                self.r.err(k, "PMR021", f"constant '{name}' is already defined")
                return
            self.fam.constants.append((name, val, doc, k))

    def enum(self, k, v):
        name = self.top_name(k, k.text, "enum")
        m = self.r.mapping(v, f"enum '{k.text}'")
        if name is None or m is None:
            return
        if not self.r.keys(m, f"enum '{name}'", required=("values",), optional=("doc",)):
            return
        e = Enum(name, k)
        e.doc = self.r.opt_text(m, "doc", "doc")
        e.values = self.named_values(m.get("values"), f"enum '{name}'", 31)
        self.fam.enums.append(e)

    def named_values(self, node, what, width):
        """A mapping name -> int or name -> {value, doc}; values must fit `width` bits."""
        m = self.r.mapping(node, f"values of {what}")
        out, seen = [], set()
        for k, v in (m.pairs if m else []):
            name = self.r.check_name(k, k.text, "value name")
            doc = ""
            if isinstance(v, Map):
                if not self.r.keys(v, f"value '{k.text}'", required=("value",), optional=("doc",)):
                    continue
                doc = self.r.opt_text(v, "doc", "doc")
                v = v.get("value")
            val = self.r.integer(v, f"value '{k.text}'")
            if name is None or val is None:
                continue
            if val < 0 or val > mask_of(width):
                self.r.err(v, "PMR014", f"value '{name}' = {val} does not fit the {width}-bit {what}")
                continue
            if name in seen:
                self.r.err(k, "PMR021", f"value name '{name}' is used twice in {what}")
                continue
            seen.add(name)
            out.append((name, val, doc))
        return out

    def ctype(self, node, allow_str=False, allow_list=False, allow_named=False, allow_set=False):
        t = self.r.text(node, "type")
        if t is None:
            return None
        sm = SET_RE.match(t)
        if allow_set and sm:
            # set(E): a bit mask with bit v for each enumerator value v of enum E.
            E = self.fam.enum(sm.group(1))
            if E is None:
                return self.r.err(node, "PMR030", f"type '{t}': '{sm.group(1)}' is not an enum defined in this spec")
            big = [vn for vn, vv, _ in E.values if vv >= 64]
            if big:
                return self.r.err(node, "PMR032", f"type '{t}': enumerator '{big[0]}' is 64 or more, too big"
                                  " for a bit of a set")
            return t
        if t in SCALAR_TYPES or (allow_str and t == "str"):
            return t
        lm = re.match(r"^(u8|u16|u32|u64)\[(\d+)\]$", t)
        if allow_list and lm and int(lm.group(2)) > 0:
            return t
        if allow_list and t.startswith("ref:"):
            from .refs import parse_ref_type
            if parse_ref_type(t) is not None and parse_ref_type(t)[1] != 0:
                return t
        if allow_named and (self.fam.layout(t) or self.fam.enum(t)):
            return t
        if allow_named and re.match(r"^[a-z][a-z0-9_]*$", t):
            return self.r.err(node, "PMR030", f"type '{t}' is neither a scalar type, a layout nor an enum")
        return self.r.err(node, "PMR031", f"type '{t}' is not a supported type")

    def value_of(self, node, t, what, choices=None, enum=None):
        """Read a value of scalar/list type `t`."""
        if t.startswith("ref:"):
            from .refs import read_ref
            return read_ref(self.r, node, t, what)
        if t == "str":
            s = self.r.text(node, what)
            if s is not None and choices and s not in choices:
                return self.r.err(node, "PMR031", f"{what} '{s}' is not one of: {', '.join(choices)}")
            return s
        if t == "bool":
            return self.r.boolean(node, what)
        sm = SET_RE.match(t)
        if sm:
            E = self.fam.enum(sm.group(1))
            items = self.r.seq(node, what)
            if items is None:
                return None
            mask = 0
            for it in items:
                n = self.r.text(it, what)
                if n is None:
                    return None
                hit = [vv for vn, vv, _ in E.values if vn == n]
                if not hit:
                    return self.r.err(it, "PMR031", f"{what}: '{n}' is not a value of enum '{E.name}'")
                if mask >> hit[0] & 1:
                    return self.r.err(it, "PMR021", f"{what}: '{n}' is listed twice")
                mask |= 1 << hit[0]
            return mask
        lm = re.match(r"^(u\d+)\[(\d+)\]$", t)
        if lm:
            items = self.r.seq(node, what)
            if items is None:
                return None
            if len(items) > int(lm.group(2)):
                return self.r.err(node, "PMR060", f"{what} has {len(items)} items; at most {lm.group(2)}")
            vals = [self.value_of(i, lm.group(1), what) for i in items]
            return None if None in vals else vals
        if enum is not None:
            n = self.r.text(node, what)
            for vn, vv, _ in enum.values:
                if vn == n:
                    return vv
            return self.r.err(node, "PMR031", f"{what} '{n}' is not a value of enum '{enum.name}'")
        return self.r.integer(node, what, 0, mask_of(SCALAR_TYPES[t]))

    # -- layouts -------------------------------------------------------------
    def layouts(self, node):
        m = self.r.mapping(node, "layouts") if node is not None else None
        if m is None:
            return
        pending = {}
        for k, v in m.pairs:
            name = self.top_name(k, k.text, "layout")
            lm = self.r.mapping(v, f"layout '{k.text}'")
            if name and lm is not None:
                pending[name] = (k, lm)
        done = {}

        def build(name, chain=()):
            if name in done:
                return done[name]
            k, lm = pending[name]
            base_name = self.r.text(lm.get("base"), "base") if lm.get("base") is not None else None
            base = None
            if base_name is not None:
                if base_name in chain or base_name == name:
                    self.r.err(lm.get("base"), "PMR030", f"layout '{name}' derives from itself")
                elif base_name not in pending:
                    self.r.err(lm.get("base"), "PMR030", f"base layout '{base_name}' is not defined")
                else:
                    base = build(base_name, chain + (name,))
                if base is None:
                    done[name] = None
                    return None
            done[name] = self.layout(name, k, lm, base)
            return done[name]

        for name in pending:
            build(name)

    def layout(self, name, k, m, base):
        what = f"layout '{name}'"
        if not self.r.keys(m, what, optional=("title", "doc", "source", "width", "fields", "base",
                                              "drop", "reset", "variants")):
            return None
        before = len(self.diag.errors)
        L = Layout(name, k)
        self.common(L, m, "layout")
        L.msb0 = self.fam.msb0
        L.width = base.width if base else self.fam.width
        if m.get("width") is not None:
            L.width = self.width(m.get("width")) or L.width
        if base is not None:
            L.base = base
            L.title = L.title or base.title
            L.source = L.source or base.source
            L.fields = [f.copy() for f in base.fields]
            L.reset_override = base.reset_override
            for d in self.r.seq(m.get("drop"), "drop") if m.get("drop") is not None else []:
                dn = self.r.text(d, "dropped field")
                if L.field(dn) is None:
                    self.r.err(d, "PMR030", f"cannot drop '{dn}': base layout '{base.name}' has no such field")
                L.fields = [f for f in L.fields if f.name != dn]
        elif m.get("drop") is not None:
            self.r.err(m.key_node("drop"), "PMR030", "'drop' needs a 'base' layout")
        if m.get("fields") is None and base is None:
            self.r.err(m, "PMR003", f"{what} lacks required key 'fields'")
            return None
        new = self.fields(m.get("fields"), L) if m.get("fields") is not None else []
        parsed = len(self.diag.errors) == before     # a field that failed would show up as a gap
        for f in new:
            old = L.field(f.name)
            if old is not None and base is not None:
                L.fields[L.fields.index(old)] = f
            else:
                L.fields.append(f)
        L.groups = collect_groups(L.fields)
        if m.get("reset") is not None:
            L.reset_override = self.r.integer(m.get("reset"), "reset", 0, mask_of(L.width))
        self.check_layout(L, k, complete=parsed and m.get("variants") is None)
        self.fam.layouts.append(L)
        if m.get("variants") is not None:
            self.variants(L, m.get("variants"))
        return L

    def fields(self, node, L, offset=0, group=None):
        out = []
        for item in self.r.seq(node, "fields") or []:
            fm = self.r.mapping(item, "a field")
            if fm is None:
                continue
            if fm.get("repeat") is not None:
                out += self.repeat(fm, L, offset)
                continue
            f = self.field(fm, L, offset, group)
            if f is not None:
                out.append(f)
        return out

    def repeat(self, fm, L, offset):
        if not self.r.keys(fm, "a repeat group", required=("repeat", "stride", "fields")):
            return []
        count = self.r.integer(fm.get("repeat"), "repeat count", 1, 64)
        stride = self.r.integer(fm.get("stride"), "stride", 1, 64)
        if count is None or stride is None:
            return []
        out = []
        for i in range(count):
            before = len(self.diag.errors)
            out += self.fields(fm.get("fields"), L, offset + i * stride, group=i)
            if len(self.diag.errors) > before:
                break                        # the same mistake would repeat for every index
        return out

    def field(self, fm, L, offset, index):
        if not self.r.keys(fm, "a field", required=("name", "bits"),
                           optional=("access", "reset", "signed", "values", "doc", "source")):
            return None
        raw = self.r.text(fm.get("name"), "field name")
        if raw is None:
            return None
        gname = None
        if index is not None:
            if "{i}" not in raw:
                return self.r.err(fm.get("name"), "PMR020",
                                  f"field '{raw}' in a repeat group must contain '{{i}}'")
            gname = re.sub(r"_+", "_", raw.replace("{i}", "")).strip("_")
            raw = raw.replace("{i}", str(index))
        name = self.r.check_name(fm.get("name"), raw, "field name")
        parts, spec_bits = self.bits(fm.get("bits"), L, offset)
        if name is None or parts is None:
            return None
        access = "rw"
        if fm.get("access") is not None:
            access = self.r.choice(fm.get("access"), "access", ACCESS) or "rw"
        f = Field(name, parts, access, fm.get("name"))
        f.spec_bits = spec_bits
        f.group, f.index = (gname, index) if index is not None else (None, None)
        f.doc = self.r.opt_text(fm, "doc", "doc").replace("{i}", str(index) if index is not None else "{i}")
        f.source = self.r.opt_text(fm, "source", "source")
        if fm.get("signed") is not None:
            f.signed = bool(self.r.boolean(fm.get("signed"), "signed"))
        if fm.get("values") is not None:
            f.values = self.named_values(fm.get("values"), f"field '{name}'", f.width)
        if fm.get("reset") is not None:
            rn = fm.get("reset")
            named = {n: v for n, v, _ in f.values}
            rv = named.get(rn.text) if isinstance(rn, Scalar) and rn.text in named else self.r.integer(rn, "reset")
            if rv is not None and (rv < 0 or rv > mask_of(f.width)):
                self.r.err(rn, "PMR014", f"reset {rv} does not fit the {f.width}-bit field '{name}'")
            elif rv is not None:
                f.reset = rv
        return f

    def bits(self, node, L, offset):
        """Parse `bits` (one range or a list of ranges) into lsb0 parts."""
        items = node.items if isinstance(node, Seq) else [node]
        if isinstance(node, Seq) and not items:
            return self.r.err(node, "PMR010", "bits list is empty"), ""
        if len(items) > MAX_PARTS:
            return self.r.err(node, "PMR010", f"a split field has at most {MAX_PARTS} parts"), ""
        parts, texts = [], []
        for it in items:
            t = self.r.text(it, "bits")
            if t is None:
                return None, ""
            mm = BIT_RE.match(t)
            if not mm:
                return self.r.err(it, "PMR010", f"bits '{t}' must look like \"7\" or \"14:8\""), ""
            a = int(mm.group(1))
            b = int(mm.group(2)) if mm.group(2) is not None else a
            if L.msb0:
                if a > b:
                    return self.r.err(it, "PMR010", f"msb0 bits '{t}' must be written first:last with first <= last"), ""
                a, b = a + offset, b + offset
                texts.append(f"{a}" if a == b else f"{a}:{b}")
                if b >= L.width:
                    return self.r.err(it, "PMR011", f"bit {b} is outside the {L.width}-bit layout '{L.name}'"), ""
                hi, lo = L.width - 1 - a, L.width - 1 - b
            else:
                if a < b:
                    return self.r.err(it, "PMR010", f"bits '{t}' must be written hi:lo with hi >= lo"), ""
                hi, lo = a + offset, b + offset
                texts.append(f"{hi}" if hi == lo else f"{hi}:{lo}")
                if hi >= L.width:
                    return self.r.err(it, "PMR011", f"bit {hi} is outside the {L.width}-bit layout '{L.name}'"), ""
            for ph, pl in parts:
                if not (hi < pl or lo > ph):
                    return self.r.err(it, "PMR015", f"part {t} overlaps another part of the same field"), ""
            parts.append((hi, lo))
        return parts, ", ".join(texts)

    def check_layout(self, L, node, complete=True):
        seen = {}
        for f in L.fields:
            if f.name in seen:
                self.r.err(f.node, "PMR021", f"field '{f.name}' is defined twice in layout '{L.name}'"
                           f" (first at line {seen[f.name].node.line})")
            seen[f.name] = f
        owner = [None] * L.width
        for f in L.fields:
            clash = None
            for hi, lo in f.parts:
                for b in range(lo, hi + 1):
                    if owner[b] is not None and clash is None:
                        clash = (owner[b], b)
                    owner[b] = owner[b] or f
            if clash is not None:
                self.r.err(f.node, "PMR012", f"field '{f.name}' overlaps field '{clash[0].name}'"
                           f" at bit {self.show_bit(L, clash[1])} of layout '{L.name}'")
        if complete:
            self.check_gaps(L, owner, node)

    def check_gaps(self, L, owner, node):
        gaps = [b for b in range(L.width) if owner[b] is None]
        if gaps:
            runs = runs_of(gaps)
            txt = ", ".join(self.show_range(L, hi, lo) for hi, lo in runs)
            self.r.err(node, "PMR013", f"layout '{L.name}' leaves bits {txt} unaccounted for;"
                       " declare them (access: rsvd or ignored)")

    def show_bit(self, L, b):
        return str(L.width - 1 - b) + " (msb0)" if L.msb0 else str(b)

    def show_range(self, L, hi, lo):
        if L.msb0:
            a, z = L.width - 1 - hi, L.width - 1 - lo
            return f"{a}" if a == z else f"{a}:{z} (msb0)"
        return f"{hi}" if hi == lo else f"{hi}:{lo}"

    def variants(self, L, node):
        m = self.r.mapping(node, "variants")
        if m is None or not self.r.keys(m, "variants", required=("discriminator", "cases")):
            return
        dn = self.r.text(m.get("discriminator"), "discriminator")
        disc = L.field(dn) if dn else None
        if disc is None:
            self.r.err(m.get("discriminator"), "PMR070", f"discriminator '{dn}' is not a field of layout '{L.name}'")
            return
        cases = []
        whens = {}
        for c in self.r.seq(m.get("cases"), "cases") or []:
            cm = self.r.mapping(c, "a variant case")
            if cm is None or not self.r.keys(cm, "a variant case", required=("name", "when", "fields"),
                                             optional=("title", "doc", "source")):
                continue
            cname = self.r.name(cm.get("name"), "variant name")
            when = self.when_value(cm.get("when"), disc)
            if cname is None or when is None:
                continue
            if when in whens:
                self.r.err(cm.get("when"), "PMR070", f"variant '{cname}' repeats the value {when} of '{dn}'"
                           f" already chosen by '{whens[when]}'")
                continue
            whens[when] = cname
            sub_name = f"{L.name}_{cname}"
            if sub_name in self.names:
                self.r.err(cm.get("name"), "PMR021", f"variant layout '{sub_name}' clashes with a name already defined")
                continue
            self.names[sub_name] = cm.get("name")
            S = Layout(sub_name, cm.get("name"))
            S.msb0, S.width = L.msb0, L.width
            S.title = self.r.opt_text(cm, "title", "title") or f"{L.title or L.name} ({cname} variant)"
            S.doc = self.r.opt_text(cm, "doc", "doc")
            S.source = self.r.opt_text(cm, "source", "source") or L.source
            before = len(self.diag.errors)
            S.fields = [f.copy() for f in L.fields] + self.fields(cm.get("fields"), S)
            S.groups = collect_groups(S.fields)
            S.reset_override = L.reset_override
            S.variant_of = (L, cname)
            self.check_layout(S, cm.get("name"), complete=len(self.diag.errors) == before)
            self.fam.layouts.append(S)
            cases.append((cname, when, S))
        L.variants = Variants(disc, cases, m)

    def when_value(self, node, disc):
        s = self.r.scalar(node, "when")
        if s is None:
            return None
        for n, v, _ in disc.values:
            if n == s.text:
                return v
        v = self.r.integer(node, "when")
        if v is not None and v > mask_of(disc.width):
            return self.r.err(node, "PMR014", f"when {v} does not fit the {disc.width}-bit discriminator")
        return v

    # -- registers -------------------------------------------------------------
    def register(self, node):
        m = self.r.mapping(node, "a register")
        if m is None:
            return
        facts = {f.name: f for f in self.fam.facts}
        if not self.r.keys(m, "a register", required=("name",),
                           optional=("title", "doc", "source", "layout", "reset", "count", "stride")
                           + tuple(facts)):
            return
        raw = self.r.text(m.get("name"), "register name")
        count = self.r.integer(m.get("count"), "count", 1, 256) if m.get("count") is not None else None
        stride = self.r.integer(m.get("stride"), "stride", 1) if m.get("stride") is not None else 1
        if raw is None:
            return
        if (count is None) != ("{i}" not in raw):
            self.r.err(m.get("name"), "PMR020", "a register with 'count' must have '{i}' in its name, and only then")
            return
        L = None
        if m.get("layout") is not None:
            ln = self.r.text(m.get("layout"), "layout")
            L = self.fam.layout(ln)
            if L is None:
                self.r.err(m.get("layout"), "PMR030", f"layout '{ln}' is not defined")
                return
        values = {}
        for fname, fact in facts.items():
            if m.get(fname) is not None:
                v = self.value_of(m.get(fname), fact.type, f"fact '{fname}'", fact.choices)
                if v is None:
                    return
                values[fname] = v
        reset = None
        if m.get("reset") is not None:
            if L is None:
                self.r.err(m.get("reset"), "PMR030", "a register without a layout cannot have a reset value")
                return
            reset = self.r.integer(m.get("reset"), "reset", 0, mask_of(L.width))
        for i in range(count or 1):
            name = raw.replace("{i}", str(i)) if count else raw
            if self.r.check_name(m.get("name"), name, "register name") is None:
                return
            if any(x.name == name for x in self.fam.registers):
                self.r.err(m.get("name"), "PMR021", f"register '{name}' is already defined")
                return
            R = Register(name, m.get("name"))
            self.common(R, m, "register")
            R.title = R.title.replace("{i}", str(i))
            R.doc = R.doc.replace("{i}", str(i))
            R.layout, R.reset = L, reset
            R.facts = {k: (v + i * stride if facts[k].address and count else
                           v.replace("{i}", str(i)) if isinstance(v, str) and count else v)
                       for k, v in values.items()}
            R.array = (raw, i) if count else None
            self.fam.registers.append(R)

    # -- records -------------------------------------------------------------------
    def record(self, k, v):
        name = self.top_name(k, k.text, "record")
        m = self.r.mapping(v, f"record '{k.text}'")
        if name is None or m is None:
            return
        if not self.r.keys(m, f"record '{name}'", required=("size", "fields"),
                           optional=("title", "doc", "source", "byte_order")):
            return
        R = Record(name, k)
        self.common(R, m, "record")
        R.size = self.r.integer(m.get("size"), "size", 1, 1 << 16) or 0
        if m.get("byte_order") is not None:
            R.byte_order = self.r.choice(m.get("byte_order"), "byte_order", ("little", "big")) or "little"
        owner = [None] * R.size
        for item in self.r.seq(m.get("fields"), "fields") or []:
            fm = self.r.mapping(item, "a record field")
            if fm is None or not self.r.keys(fm, "a record field", required=("name", "offset", "size"),
                                             optional=("layout", "access", "doc")):
                continue
            fname = self.r.name(fm.get("name"), "record field name")
            off = self.r.integer(fm.get("offset"), "offset", 0)
            size = self.r.integer(fm.get("size"), "size")
            if fname is None or off is None or size is None:
                continue
            if size not in (1, 2, 4, 8):
                self.r.err(fm.get("size"), "PMR050", f"record field size {size} is not 1, 2, 4 or 8 bytes")
                continue
            if off + size > R.size:
                self.r.err(fm.get("offset"), "PMR050", f"field '{fname}' ends at byte {off + size},"
                           f" beyond the {R.size}-byte record '{name}'")
                continue
            clash = next((o for o in owner[off:off + size] if o is not None), None)
            if clash is not None:
                self.r.err(fm.get("offset"), "PMR050", f"field '{fname}' overlaps field '{clash.name}'")
                continue
            if any(f.name == fname for f in R.fields):
                self.r.err(fm.get("name"), "PMR021", f"record field '{fname}' is defined twice")
                continue
            F = RecordField(fname, off, size, fm.get("name"))
            F.doc = self.r.opt_text(fm, "doc", "doc")
            if fm.get("access") is not None:
                F.access = self.r.choice(fm.get("access"), "access", ACCESS) or "rw"
            if fm.get("layout") is not None:
                ln = self.r.text(fm.get("layout"), "layout")
                F.layout = self.fam.layout(ln)
                if F.layout is None:
                    self.r.err(fm.get("layout"), "PMR030", f"layout '{ln}' is not defined")
                elif F.layout.width != size * 8:
                    self.r.err(fm.get("layout"), "PMR050", f"layout '{ln}' is {F.layout.width} bits"
                               f" but field '{fname}' is {size * 8}")
            for b in range(off, off + size):
                owner[b] = F
            R.fields.append(F)
        gaps = [b for b in range(R.size) if owner[b] is None]
        if gaps and not self.diag.errors:
            txt = ", ".join(f"0x{lo:x}..0x{hi:x}" for hi, lo in runs_of(gaps))
            self.r.err(k, "PMR050", f"record '{name}' leaves bytes {txt} unaccounted for")
        self.fam.records.append(R)

    # -- tables ------------------------------------------------------------------------
    def table(self, k, v):
        name = self.top_name(k, k.text, "table")
        m = self.r.mapping(v, f"table '{k.text}'")
        if name is None or m is None:
            return
        if not self.r.keys(m, f"table '{name}'", required=("columns", "rows"),
                           optional=("title", "doc", "source")):
            return
        T = Table(name, k)
        self.common(T, m, "table")
        cm = self.r.mapping(m.get("columns"), "columns")
        for ck, cv in (cm.pairs if cm else []):
            cn = self.r.check_name(ck, ck.text, "column name")
            cmap = self.r.mapping(cv, f"column '{ck.text}'")
            if cn is None or cmap is None:
                continue
            if cn in ("name", "title", "doc") or any(c.name == cn for c in T.columns):
                self.r.err(ck, "PMR021", f"column '{cn}' is reserved or defined twice")
                continue
            if not self.r.keys(cmap, f"column '{cn}'", required=("type",), optional=("doc", "field", "default")):
                continue
            tnode = cmap.get("type")
            tt = self.r.text(tnode, "type")
            enum = self.fam.enum(tt) if tt else None
            if tt == "bits":                # named bits of a field (refs.py)
                ct = "bits"
            else:
                ct = "enum" if enum else self.ctype(tnode, allow_str=True, allow_list=True, allow_set=True)
            if ct is None:
                continue
            C = Column(cn, ct, ck)
            C.enum = enum
            C.doc = self.r.opt_text(cmap, "doc", "doc")
            if cmap.get("field") is not None:
                C.field = self.field_ref(cmap.get("field"))
            if cmap.get("default") is not None and ct == "bits":
                from .refs import read_bits
                C.default = read_bits(self.r, cmap.get("default"), C, f"default of column '{cn}'")
            elif cmap.get("default") is not None:
                C.default = self.value_of(cmap.get("default"), ct if ct != "enum" else "u32",
                                          f"default of column '{cn}'", enum=enum)
            T.columns.append(C)
        seen = {}
        for row in self.r.seq(m.get("rows"), "rows") or []:
            rm = self.r.mapping(row, "a row")
            if rm is None or not self.r.keys(rm, "a row", required=("name",),
                                             optional=("title", "doc") + tuple(c.name for c in T.columns)):
                continue
            rn = self.r.name(rm.get("name"), "row name")
            if rn is None:
                continue
            if rn in seen:
                self.r.err(rm.get("name"), "PMR021", f"row '{rn}' is already in table '{name}' (line {seen[rn]})")
                continue
            seen[rn] = rm.line
            vals = {}
            for C in T.columns:
                vn = rm.get(C.name)
                if vn is None:
                    if C.default is None:
                        self.r.err(rm, "PMR003", f"row '{rn}' lacks column '{C.name}' (it has no default)")
                        continue
                    vals[C.name] = C.default
                    continue
                if C.type == "bits":
                    from .refs import read_bits
                    val = read_bits(self.r, vn, C, f"column '{C.name}'")
                else:
                    val = self.value_of(vn, C.type if C.type != "enum" else "u32", f"column '{C.name}'", enum=C.enum)
                if val is None:
                    continue
                if C.field is not None and isinstance(val, (int, list)):
                    FL, FF = C.field
                    for x in (val if isinstance(val, list) else [val]):
                        if x > mask_of(FF.width):
                            self.r.err(vn, "PMR060", f"{C.name} = {x:#x} does not fit field '{FL.name}.{FF.name}'"
                                       f" ({FF.width} bits)")
                vals[C.name] = val
            T.rows.append((rn, self.r.opt_text(rm, "title", "title"), self.r.opt_text(rm, "doc", "doc"),
                           vals, rm))
        self.fam.tables.append(T)

    def field_ref(self, node):
        t = self.r.text(node, "field reference")
        if t is None:
            return None
        ln, _, fn = t.partition(".")
        L = self.fam.layout(ln)
        F = L.field(fn) if L else None
        if F is None:
            return self.r.err(node, "PMR030", f"'{t}' is not a layout.field defined in this spec")
        return (L, F)

    # -- functions -----------------------------------------------------------------------
    def function(self, node):
        from .expr import compile_function
        m = self.r.mapping(node, "a function")
        if m is None or not self.r.keys(m, "a function", required=("name", "returns", "expr"),
                                        optional=("doc", "source", "formula", "params")):
            return
        name = self.r.name(m.get("name"), "function name")
        if name is None:
            return
        name = self.top_name(m.get("name"), name, "function")
        if name is None:
            return
        F = Function(name, m.get("name"))
        F.doc = self.r.opt_text(m, "doc", "doc")
        F.source = self.r.opt_text(m, "source", "source")
        F.formula = self.r.opt_text(m, "formula", "formula")
        pm = self.r.mapping(m.get("params"), "params") if m.get("params") is not None else None
        for k, v in (pm.pairs if pm else []):
            pn = self.r.check_name(k, k.text, "parameter")
            pt = self.ctype(v, allow_named=True, allow_list=True)   # u64[8]: an array of register values
            if pn is None or pt is None:
                return
            if any(p[0] == pn for p in F.params):
                self.r.err(k, "PMR021", f"parameter '{pn}' is given twice")
                return
            F.params.append((pn, pt))
        F.returns = self.ctype(m.get("returns"), allow_named=True)
        if F.returns is None:
            return
        F.expr_node = m.get("expr")
        if self.r.scalar(F.expr_node, "expr") is None:
            return
        compile_function(self.fam, F, self.diag)
        self.fam.functions.append(F)


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


def load_family(path, display=None):
    from .yamlnode import load
    tree = load(path, display=display)
    return Builder(tree, display or path).build()
