# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Load one family YAML file: the family's own keys, then every construct in registry order.

The Builder holds what every construct's loader shares: the error list (Diag),
the schema Reader, the family being built, the one namespace of top-level names
and the readers of typed values. Each construct reads its own sections
(constructs/*.py, `load(b, m)`).
"""

import re

from .constructs import CONSTRUCTS, keys
from .core import SCALAR_TYPES, SET_RE, WIDTHS, Family, mask_of
from .diag import Diag
from .refs import parse_ref_type, read_ref
from .schema import Reader
from .yamlnode import Map, load

FAMILY_KEYS = ("family", "title", "vendor", "doc", "sources", "bit_order", "width")


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
        self.r.keys(m, "the family", required=("family", "title"), optional=FAMILY_KEYS + keys())
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
        for c in CONSTRUCTS:
            c.load(self, m)
        self.diag.check()
        return fam

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

    def named_values(self, node, what, width):
        """A mapping name -> int or name -> {value, doc, alias}; values must fit `width` bits.

        Two names for one value need `alias: true` on the later one: decoders print the first."""
        m = self.r.mapping(node, f"values of {what}")
        out, seen, primary = [], set(), {}
        for k, v in (m.pairs if m else []):
            name = self.r.check_name(k, k.text, "value name")
            doc, alias = "", False
            if isinstance(v, Map):
                if not self.r.keys(v, f"value '{k.text}'", required=("value",), optional=("doc", "alias")):
                    continue
                doc = self.r.opt_text(v, "doc", "doc")
                alias = bool(v.get("alias") is not None and self.r.boolean(v.get("alias"), "alias"))
                v = v.get("value")
            val = self.r.integer(v, f"value '{k.text}'")
            if val is not None and name is not None:
                if val in primary and not alias:
                    self.r.err(k, "PMR021", f"value '{name}' = {val} repeats '{primary[val]}' of {what}; decoders"
                               f" print '{primary[val]}': mark the second name 'alias: true'")
                    continue
                if alias and val not in primary:
                    self.r.err(k, "PMR021", f"value '{name}' is marked alias, but no earlier name of {what}"
                               f" has the value {val}")
                    continue
                primary.setdefault(val, name)
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

    def ctype(self, node, allow_str=False, allow_list=False, allow_named=False, allow_set=False, allow_unsigned=False):
        t = self.r.text(node, "type")
        if t is None:
            return None
        if allow_unsigned and t == "unsigned":     # C's unsigned int (function parameters and results)
            return t
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
        lm = re.match(r"^(u8|u16|u32|u64)\[(\d+)\]\Z", t, re.ASCII)
        if allow_list and lm and int(lm.group(2)) > 0:
            return t
        if allow_list and t.startswith("ref:"):
            if parse_ref_type(t) is not None and parse_ref_type(t)[1] != 0:
                return t
        if allow_named and (self.fam.layout(t) or self.fam.enum(t)):
            return t
        if allow_named and re.match(r"^[a-z][a-z0-9_]*\Z", t, re.ASCII):
            return self.r.err(node, "PMR030", f"type '{t}' is neither a scalar type, a layout nor an enum")
        return self.r.err(node, "PMR031", f"type '{t}' is not a supported type")

    def value_of(self, node, t, what, choices=None, enum=None):
        """Read a value of scalar/list type `t`."""
        if t.startswith("ref:"):
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
        lm = re.match(r"^(u\d+)\[(\d+)\]\Z", t, re.ASCII)
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


def load_family(path, display=None):
    tree = load(path, display=display)
    return Builder(tree, display or path).build()
