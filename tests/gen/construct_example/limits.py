# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""A construct that exists only for the tests: named limits, each a #define and a row of the page.

    limits:
      NAME: VALUE                       # an integer below 2^32

It is the whole of what adding a construct takes: this module, its templates
(limits.h.j2, limits.md.j2 beside it) and one line in the registry, which
test_construct_registry.py adds for the length of a test.
"""

import os

NAME = "limits"
KEYS = ("limits",)
HEADER, SELFTEST, PAGE = "limits.h.j2", None, "limits.md.j2"
CONTENTS = (("Limits", "limits"),)
TEMPLATE_DIR = os.path.dirname(os.path.abspath(__file__))


def load(b, m):
    b.fam.limits = []
    b.section(m, "limits", lambda k, v: limit(b, k, v))


def limit(b, k, v):
    name = b.r.check_name(k, k.text, "limit")
    value = b.r.integer(v, f"limit '{k.text}'", 0, (1 << 32) - 1)
    if name is not None and value is not None:
        b.fam.limits.append((name, value, k))


def view(hv):
    hv.limits = [(hv.sym.add(hv.n.mac("limit", name), node, f"limit '{name}'"), f"{value:#x}u")
                 for name, value, node in hv.fam.limits]


def page(pv):
    pv.limits = [(name, f"{value:#x}") for name, value, _ in pv.fam.limits]
