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

from . import GENERATOR_SHA256, VERSION, capi
from .constructs import CONSTRUCTS, ordered
from .core import ACCESS
from .emit import BASE_HEADERS, HeaderView, make_env
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
        self.api = header_api(fam, spec_path, spec_bytes)
        self.errors = ERRORS
        self.api_claimed = set()       # functions a construct's own section lists (layouts: its name tables)
        for c in CONSTRUCTS:
            c.page(self)
        parts = [c for c in ordered("page") if c.PAGE]
        self.page_parts = [c.PAGE for c in parts]
        self.contents = [(title, f"#{anchor(title, '').rstrip('-')}") for c in parts
                         for title, attr in c.CONTENTS if getattr(self, attr)]
        self.api_sections = api_sections(self, parts)
        if self.api_sections:
            self.contents.append(("C API", "#c-api"))


def api_sections(pv, parts):
    """The C API section of the page: per construct (page order), the functions its own section does not
    list, each with signature, parameters, return type, comment and error codes, and one example program."""
    out = []
    for c in parts + [c for c in CONSTRUCTS if c.HEADER and c not in parts]:
        fns = [f for f in pv.api.get(c.NAME, {"functions": []})["functions"] if f.name not in pv.api_claimed]
        if not fns:
            continue
        title = " and ".join(t for t, _ in c.CONTENTS) or c.NAME.capitalize()
        ex = None
        for f in sorted(fns, key=lambda f: (not f.errors, f.ret != "int")):
            ex = capi.example(f)
            if ex:
                break
        out.append({"title": title, "example": ex,
                    "functions": [{"name": f.name, "signature": f.signature, "doc": md(f.doc), "header": f.header,
                                   "params": f.params, "ret": f.ret, "errors": f.errors} for f in fns]})
    return out


INCLUDE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "include", "pmregs")


def base_api():
    """The functions of the hand-written base headers and the error codes with their meanings (base_core.h)."""
    text = ""
    for h in BASE_HEADERS:
        with open(os.path.join(INCLUDE, h), encoding="utf-8") as f:
            text += f.read()
    errors = {m.group(1): (int(m.group(2)), m.group(3).strip())
              for m in re.finditer(r"^#define (PMREGS_E[A-Z]+)\s+\((-\d+)\)\s+/\*(.*?)\*/", text, re.M)}
    return capi.functions(text), errors


BASE_FUNCTIONS, ERRORS = base_api()


# The header slots of a construct's template, and where each one's C goes: "tools" into FAMILY_tools.h.
SLOTS = ("defines", "types", "body", "tools")


def header_api(fam, spec_path, spec_bytes):
    """{construct name: {"functions": [capi.Function], "macros": [(name, args)]}} of the family's header,
    read back from each construct's rendered part; error codes followed through calls (also into the
    base headers; pmregs_strerror() only names the codes, it returns none)."""
    hv = HeaderView(fam, spec_path, spec_bytes, reserved=False)
    env = make_env()
    api, every = {}, []
    for c in CONSTRUCTS:
        if not c.HEADER:
            continue
        fns, text = [], ""
        for slot in SLOTS:
            part = env.get_template(c.HEADER).render(v=hv, access=ACCESS, slot=slot)
            text += part
            header = f"{fam.name}_tools.h" if slot == "tools" else f"{fam.name}.h"
            for f in capi.functions(part):
                f.header = header
                fns.append(f)
        every += fns
        api[c.NAME] = {"functions": fns, "macros": capi.macros(text)}
    base = [f for f in BASE_FUNCTIONS if f.name != "pmregs_strerror"]
    capi.close_errors(every + base)
    for f in every:
        f.errors = sorted((e for e in f.errors if e in ERRORS), key=lambda e: -ERRORS[e][0])
    return api


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
    return make_env().get_template("doc_index.md.j2").render(
        families=families, version=VERSION, generator_sha256=GENERATOR_SHA256)


def doc_files(out_dir, names):
    """Existing generated files of these families under out_dir (to find stale diagrams)."""
    found = []
    for n in names:
        d = os.path.join(out_dir, n)
        if os.path.isdir(d):
            found += [f"{n}/{f}" for f in sorted(os.listdir(d)) if f.endswith(".svg")]
    return found
