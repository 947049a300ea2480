# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Reference pages: doc/<family>.md with a bit diagram (doc/<family>/<layout>.svg) per layout.

Everything a page says comes from the validated model, the same one the
headers come from: registers with their addresses, resets and facts, every
layout with its diagram, field table, named values and variants, records,
tables, functions with the manual's formula beside the spec expression,
matchers, range covers, encoders, parameters, packets and streams.

Pages are Markdown readable on a forge: relative links, headings whose
anchors every forge derives the same way ("### Layout cccr" -> #layout-cccr),
and diagrams as plain SVG files (no scripts, no external fonts or styles).
Output is deterministic; `generate.py --doc --check` is the drift check.

Each construct adds its own data to the PageView (`page(pv)`, in registry
order) and renders its own section (templates/NAME.md.j2); the bit diagrams
are diagram.py's.
"""

import hashlib
import os
import re

from . import VERSION
from .constructs import CONSTRUCTS, ordered
from .emit import make_env
from .mdtext import anchor, md, md_par


class PageView:
    def __init__(self, fam, spec_path, spec_bytes):
        self.fam = fam
        self.name = fam.name
        self.spec_path = spec_path
        self.sha256 = hashlib.sha256(spec_bytes).hexdigest()
        self.version = VERSION
        self.title = fam.title or fam.name
        self.doc = md_par(fam.doc)
        self.sources = [(k, md(t)) for k, t in fam.sources]
        self.msb0 = fam.msb0
        for c in CONSTRUCTS:
            c.page(self)
        parts = [c for c in ordered("page") if c.PAGE]
        self.page_parts = [c.PAGE for c in parts]
        self.contents = [(title, f"#{anchor(title, '').rstrip('-')}") for c in parts
                         for title, attr in c.CONTENTS if getattr(self, attr)]


def render_page(fam, spec_path, spec_bytes, env=None):
    """{relative path: text} for the family's page and diagrams."""
    env = env or make_env()
    view = PageView(fam, spec_path, spec_bytes)
    out = {f"{fam.name}.md": re.sub(r"\n{3,}", "\n\n", env.get_template("page.md.j2").render(v=view))}
    for c in CONSTRUCTS:
        if hasattr(c, "page_files"):
            out.update(c.page_files(view, env))
    return out


def render_index(families):
    """doc/README.md: [(name, title)] of every family."""
    return make_env().get_template("doc_index.md.j2").render(families=families, version=VERSION)


def doc_files(out_dir, names):
    """Existing generated files of these families under out_dir (to find stale diagrams)."""
    found = []
    for n in names:
        d = os.path.join(out_dir, n)
        if os.path.isdir(d):
            found += [f"{n}/{f}" for f in sorted(os.listdir(d)) if f.endswith(".svg")]
    return found
