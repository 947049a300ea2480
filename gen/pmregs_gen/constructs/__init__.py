# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The registry: every kind of spec section, in the order the core loads and emits them.

A construct is a module with the same parts (README, "How the generator works"):

    NAME        its name
    KEYS        the top-level spec keys it reads
    load(b, m)  YAML -> model: reads its keys of the family mapping m into b.fam,
                reporting through b.diag (b is the loader, model.Builder)
    view(hv)    model -> the header and self-test template data, set on hv (emit.HeaderView);
                the base headers its C code calls go into hv.uses
    page(pv)    model -> the reference-page data, set on pv (docs.PageView)
    HEADER      its part of the header (templates/NAME.h.j2; parts chosen by `slot`:
                defines, types, body)
    SELFTEST    its part of the self-test (slots tests, main), or None
    PAGE        its section of the reference page, or None
    CONTENTS    ((title, page attribute), ...) for the page's contents line
    page_files  optional: page_files(pv, env) -> {path: text} of extra doc files

Loading, the header and the self-test follow CONSTRUCTS; the reference page
and the self-test may put some constructs first (ORDER).
"""

from . import classifier, encoder, functions, introspect, layouts, matcher, packets, passes, records, registers, \
    samples, tables, values

CONSTRUCTS = [values, layouts, registers, records, tables, matcher, functions, classifier, encoder, packets, passes,
              samples, introspect]

# Outputs whose sections come in another order: these names first, then the rest in CONSTRUCTS order.
ORDER = {
    "page": ("registers", "layouts", "records", "samples", "values", "tables", "functions", "matcher", "classifier",
             "encoder", "passes"),
    "selftest": ("layouts", "encoder", "passes"),
}


def ordered(output):
    """The constructs in the order of their parts in one output: 'header', 'selftest' or 'page'."""
    first = ORDER.get(output, ())
    rank = {name: i for i, name in enumerate(first)}
    return sorted(CONSTRUCTS, key=lambda c: rank.get(c.NAME, len(first)))


def keys():
    """Every top-level spec key some construct reads."""
    return tuple(k for c in CONSTRUCTS for k in c.KEYS)
