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
