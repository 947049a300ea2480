# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Markdown text helpers of the reference pages: table cells, paragraphs, inline code, anchors."""

import re


def md(s):
    """Text for a Markdown table cell: one line, pipes and angle brackets escaped."""
    s = " ".join((s or "").split())
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def md_par(s):
    """Doc text as a Markdown paragraph (its line breaks kept as separate lines of one paragraph)."""
    return "\n".join(line.strip() for line in (s or "").strip().split("\n")).replace("<", "&lt;")


def code(s):
    """Inline code that survives a table cell."""
    s = " ".join(str(s).split()).replace("|", "\\|")
    return f"`{s}`" if "`" not in s else f"``{s}``"


def anchor(kind, name):
    """The anchor forges derive from the heading "### <Kind> <name>"."""
    return re.sub(r"[^a-z0-9_ -]", "", f"{kind} {name}".lower()).replace(" ", "-")


def bits_lsb(F):
    return ", ".join(f"{hi}" if hi == lo else f"{hi}:{lo}" for hi, lo in F.parts)


def bits_msb0(F, width):
    out = []
    for hi, lo in F.parts:
        a, b = width - 1 - hi, width - 1 - lo
        out.append(f"{a}" if a == b else f"{a}:{b}")
    return ", ".join(out)
