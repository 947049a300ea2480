# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""C text helpers shared by every construct: literals, comments, word-wrapped doc text."""


def c_string(s):
    """A C string literal; non-ASCII and control characters are escaped."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            for b in ch.encode("utf-8"):
                out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def comment_text(s):
    """Text made safe inside a /* */ comment."""
    return s.replace("*/", "* /").replace("/*", "/ *")


def hexw(value, width):
    return f"0x{value:0{max(1, width // 4)}x}"


def ulit(value, width):
    """An unsigned constant of a register's width, in the style used for masks."""
    return f"PMREGS_U{max(width, 32) if width > 16 else width}({hexw(value, width)})"


def wrap(text, width=96, indent=" * "):
    """Word-wrap doc text for a comment block."""
    lines = []
    for para in comment_text(text).strip().split("\n"):
        words, cur = para.split(), ""
        for w in words:
            if cur and len(cur) + 1 + len(w) > width - len(indent):
                lines.append(cur)
                cur = w
            else:
                cur = f"{cur} {w}" if cur else w
        lines.append(cur)
    return lines


def defines(pairs, indent=""):
    """Column-aligned #define lines from (name, value[, comment]) tuples."""
    pairs = [p for p in pairs if p]
    if not pairs:
        return ""
    w = max(len(p[0]) for p in pairs)
    lines = []
    for p in pairs:
        line = f"{indent}#define {p[0]:<{w}} {p[1]}"
        if len(p) > 2 and p[2]:
            line += f" /* {comment_text(p[2])} */"
        lines.append(line.rstrip())
    return "\n".join(lines)


def fact_literal(fv, val):
    """The C initializer of a typed value (fact or table cell); fv gives its kind and list length."""
    kind = fv["kind"]
    if kind == "str":
        return c_string(val or "")
    if kind == "bool":
        return "1" if val else "0"
    if kind == "list":
        vals = list(val or [])
        items = [f"{x:#x}" for x in vals] + ["0"] * (fv["len"] - len(vals))
        return "{" + ", ".join(items) + "}, " + str(len(vals))
    if kind == "set":
        return f"{(val or 0):#x}u"
    return f"{(val or 0):#x}"


def parenthesized(e):
    """e as one primary expression: wrapped in parentheses unless its outer pair already spans it."""
    depth = 0
    for i, ch in enumerate(e):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and i < len(e) - 1:
            return f"({e})"
    return e if e.startswith("(") else f"({e})"


# Alignment (= size) of the member types generated structs use; a pointer or size_t is taken as 8
# bytes (LP64), enums and int as 4.
_ALIGN = {"int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int": 4,
          "unsigned": 4, "int64_t": 8, "uint64_t": 8, "size_t": 8}


def c_align(decl):
    """The alignment of a member declared with type text decl ("const char *", "uint8_t ", "enum x ")."""
    t = decl.strip()
    if t.endswith("*"):
        return 8
    if t.startswith("enum "):
        return 4
    return _ALIGN.get(t.replace("const ", ""), 8)


def packed_order(members):
    """Struct members [(align, size, item)] in the order that needs no padding between them (largest
    alignment first, the given order among equals), and the tail padding the struct then still needs
    (bytes up to a multiple of the largest alignment): ([item], pad). A struct without internal padding
    is what -Wpadded (clang -Weverything) asks for; the tail is filled with an explicit member."""
    order = sorted(members, key=lambda m: -m[0])
    size = sum(m[1] for m in order)
    big = max((m[0] for m in order), default=1)
    return [m[2] for m in order], (-size) % big


def member(decl, name, doc="", count=0, dim="", align=0, size=0):
    """A struct member for packed_struct(): type text decl ("const char *", "uint8_t "), name, comment,
    array length (0: not an array), written dim (a macro) instead of the number when given; align and
    size (of one element) for a type c_align() does not know, a struct (struct_shape())."""
    a = align or c_align(decl)
    return {"decl": decl, "name": name, "dim": f"[{dim or count}]" if count else "", "doc": doc,
            "align": a, "size": (size or a) * max(count, 1)}


def struct_shape(members):
    """(alignment, size) of a struct whose members (member()) packed_struct() has ordered and padded."""
    return max((m["align"] for m in members), default=1), sum(m["size"] for m in members)


def packed_struct(members, rows):
    """members (member()) and rows (lists of initializer texts, one per member) reordered alike by
    packed_order(), with an explicit tail padding member (and its zero initializer) when one is needed:
    (members, rows)."""
    order, pad = packed_order([(m["align"], m["size"], k) for k, m in enumerate(members)])
    ms = [members[k] for k in order]
    rs = [[r[k] for k in order] for r in rows]
    if pad:
        ms.append(member("uint8_t ", "pmregs_pad", "unused: the struct's size without implicit padding", pad))
        rs = [r + ["{0}"] for r in rs]
    return ms, rs


def fact_cells(fv, val):
    """fact_literal() as initializers of the struct members the value fills: two for a list (the items,
    their count), else one."""
    text = fact_literal(fv, val)
    if fv["kind"] == "list":
        items, count = text.rsplit(", ", 1)
        return [items, count]
    return [text]


def fact_members(fv, doc):
    """The struct members of a typed value (fact or table column): a list is an array and its count."""
    if fv["kind"] == "list":
        return [member(fv["decl"], fv["name"], doc, fv["len"]), member("uint8_t ", fv["name"] + "_count")]
    return [member(fv["decl"], fv["name"], doc)]
