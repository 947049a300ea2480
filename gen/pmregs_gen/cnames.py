# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The C names of everything the generator emits, in one place."""


class Names:
    def __init__(self, fam):
        self.fam = fam
        self.p = f"pmregs_{fam.name}"
        self.P = self.p.upper()

    def mac(self, *parts):
        return "_".join([self.P] + [p.upper() for p in parts])

    def fn(self, *parts):
        return "_".join([self.p] + list(parts))

    # layouts and fields
    def field_macro(self, L, F, kind=None):
        return self.mac(L.name, F.name, kind) if kind else self.mac(L.name, F.name)

    def field_value(self, L, F, value):
        return self.mac(L.name, F.name, value)

    def accessor(self, L, F, verb):
        return self.fn(L.name, F.name, verb)

    def layout_macro(self, L, kind):
        return self.mac(L.name, kind)

    def layout_fn(self, L, verb):
        return self.fn(L.name, verb)

    def fields_struct(self, L):
        return f"struct {self.fn(L.name, 'fields')}"

    # registers, facts
    def address(self, fact, R):
        return self.mac(fact.name, R.name)

    def address_fn(self, fact, template):
        """The address macro of a register array: the name without its index and the underscore
        beside it ("lastbranch_{i}_from_ip" -> ..._LASTBRANCH_FROM_IP(n)), never a "__" (reserved)."""
        name = template.replace("{i}", "")
        while "__" in name:
            name = name.replace("__", "_")
        name = name.strip("_")
        return self.mac(fact.name, name)

    # enums, functions, records, tables
    def enum_type(self, E):
        return f"enum {self.fn(E.name)}"

    def enum_value(self, E, value):
        return self.mac(E.name, value)

    def function(self, F):
        return self.fn(F.name)

    def record_macro(self, R, *kind):
        return self.mac(R.name, *kind)

    def record_fn(self, R, *parts):
        return self.fn(R.name, *parts)

    def table_macro(self, T, *parts):
        return self.mac(T.name, *parts)

    def table_fn(self, T, *parts):
        return self.fn(T.name, *parts)


def utype(width):
    return f"uint{width}_t"


def small_utype(width):
    for w in (8, 16, 32, 64):
        if width <= w:
            return f"uint{w}_t"
    raise ValueError(width)


def small_stype(width):
    for w in (8, 16, 32, 64):
        if width <= w:
            return f"int{w}_t"
    raise ValueError(width)
