# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The bit diagram of a layout on its reference page (doc/<family>/<layout>.svg, diagram.svg.j2).

The geometry is shared in spirit with examples/pmregs-decode.c, whose --svg
draws the same picture with a decoded value in it.
"""

from .core import RESERVED_KINDS

# Diagram geometry, in pixels (integers, so the SVG text is the same everywhere).
CELL = 22       # one bit
LEFT = 44       # room for the "msb0"/"lsb0" captions
RIGHT = 12
TITLE = 28
NUM = 13        # one line of bit numbers
BOX = 30        # field boxes
GAP = 14
CHARW = 66      # tenths of a pixel per character of 11px monospace


def text_w(s):
    return (len(s) * CHARW + 9) // 10


def diagram(fam, L):
    """The elements of layout L's bit diagram, for diagram.svg.j2."""
    W = L.width
    per_row = min(W, 32)
    rows = W // per_row
    nums = 2 if L.msb0 else 1
    parts = []          # (field name or None, hi, lo, kind)
    covered = 0
    for F in L.fields:
        kind = "reserved" if F.access in RESERVED_KINDS else "field"
        for hi, lo in F.parts:
            parts.append((F.name, hi, lo, kind))
            covered |= ((1 << (hi - lo + 1)) - 1) << lo
    # bits no field holds: a layout whose variants fill them in
    b = 0
    while b < W:
        if not covered >> b & 1:
            lo = b
            while b + 1 < W and not covered >> (b + 1) & 1:
                b += 1
            parts.append(("(variant)", b, lo, "gap"))
        b += 1
    pieces = []         # (row, name, a, c, kind) clipped to rows
    band = [0] * rows
    for name, hi, lo, kind in parts:
        for row in range(rows):
            rhi = W - 1 - row * per_row
            rlo = rhi + 1 - per_row
            if hi < rlo or lo > rhi:
                continue
            a, c = min(hi, rhi), max(lo, rlo)
            pieces.append((row, name, a, c, kind))
            if text_w(name) + 6 > (a - c + 1) * CELL:
                band[row] = max(band[row], text_w(name) + 8)
    title = f"{L.title or L.name} ({L.name}, {W} bits)"
    # the title is 13px bold: 7.8px a character
    width = max(LEFT + per_row * CELL + RIGHT, LEFT + (len(title) * 78 + 9) // 10 + RIGHT)
    height = TITLE + sum(nums * NUM + BOX + band[r] + GAP for r in range(rows))
    els = []            # ("rect", x, y, w, h, fill, stroke, dash) / ("text", x, y, attrs, text) / ("line", ...)
    y = TITLE
    pieces.sort(key=lambda p: (p[0], -p[2]))
    for row in range(rows):
        rhi = W - 1 - row * per_row
        by = y + nums * NUM
        if L.msb0:
            els.append(("text", 4, y + 10, 'font-size="9" fill="#555555"', "msb0"))
            els.append(("text", 4, y + NUM + 10, 'font-size="9" fill="#555555"', "lsb0"))
        for prow, name, a, c, kind in pieces:
            if prow != row:
                continue
            x0 = LEFT + (rhi - a) * CELL
            w = (a - c + 1) * CELL
            fill = {"field": "#ffffff", "reserved": "#e4e4e4", "gap": "#f7f7f7"}[kind]
            els.append(("rect", x0, by, w, BOX, fill, "#000000" if kind != "gap" else "#888888", kind == "gap"))
            for k in range(nums):
                m = L.msb0 and k == 0
                na, nc = (W - 1 - a, W - 1 - c) if m else (a, c)
                ty = y + k * NUM + 10
                els.append(("text", x0 + CELL // 2, ty, 'font-size="9" text-anchor="middle"', str(na)))
                if a != c:
                    els.append(("text", x0 + w - CELL // 2, ty, 'font-size="9" text-anchor="middle"', str(nc)))
            for bit in range(c + 1, a + 1):
                cx = LEFT + (rhi - bit) * CELL + CELL
                els.append(("line", cx, by + BOX - 5, cx, by + BOX))
            if text_w(name) + 6 <= w:
                els.append(("text", x0 + w // 2, by + 19, 'text-anchor="middle"', name))
            else:
                els.append(("vtext", x0 + w // 2 - 4, by + BOX + 4, "", name))
        y = by + BOX + band[row] + GAP
    return {"width": width, "height": height, "title": title, "left": LEFT, "elements": els,
            "desc": f"Bit layout of {fam.name} {L.name}"}
