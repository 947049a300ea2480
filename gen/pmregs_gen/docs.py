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

from . import GENERATOR_SHA256, VERSION, capi, manpages
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
    # each function's text: the comment right above it in the header, or, for what a construct emits
    # without one (the layouts' per-field accessor macros, pack/unpack...), the construct's own sentence
    # for that kind of name with the spec's doc string (its fn_docs())
    extra = {}
    for c in CONSTRUCTS:
        if c.HEADER and hasattr(c, "fn_docs"):
            extra.update(c.fn_docs(hv))
    docs = {}
    for f in every:
        if f.name in extra:
            f.doc = extra[f.name]
        docs[f.name] = f.doc
    for c in CONSTRUCTS:
        for name, args in api.get(c.NAME, {"macros": []})["macros"]:
            if args and name.startswith("pmregs_"):
                docs[name] = extra.get(name, "")
    api["_fn_docs"] = docs
    return api


def render_page(fam, spec_path, spec_bytes, env=None, index=None):
    """{relative path: text} for the family's page, diagrams and man pages; its functions are appended to
    the list index (for the index across families) when one is given."""
    env = env or make_env()
    view = PageView(fam, spec_path, spec_bytes)
    out = {f"{fam.name}.md": re.sub(r"\n{3,}", "\n\n", env.get_template("page.md.j2").render(v=view))}
    for c in CONSTRUCTS:
        if hasattr(c, "page_files"):
            out.update(c.page_files(view, env))
    out.update(manpages.family_pages(view))
    if index is not None:
        index += index_entries(view)
    return out


def index_entries(pv):
    """[(name, family, link, description)] of every function of a family for the index across families:
    a C API function links to its entry, a layout's or record's name to the layout or record."""
    out = []
    api, docs = pv.api, pv.api["_fn_docs"]
    layout_of = manpages.owners_of(list(docs), f"pmregs_{pv.fam.name}", [L.name for L in pv.fam.layouts])
    owner = {n: o for o, ns in layout_of.items() for n in ns}
    for cname, part in api.items():
        if cname.startswith("_"):
            continue
        for f in part["functions"]:
            if f.name in pv.api_claimed and f.name in owner:
                link = f"{pv.fam.name}.md#{anchor('layout', owner[f.name])}"
            else:
                link = f"{pv.fam.name}.md#{f.name}"
            out.append((f.name, pv.fam.name, link, docs.get(f.name) or f.doc))
    return out


def render_function_index(entries):
    """doc/index.md: every function of every family and of the base headers, in name order."""
    rows = sorted(entries, key=lambda e: e[0])
    return make_env().get_template("fn_index.md.j2").render(rows=[(n, fam, link, md(manpages.first_sentence(d)))
                                                                 for n, fam, link, d in rows], version=VERSION,
                                                             hand_written_sha256=hand_written_sha256())


SPEC_DIR = os.path.join(os.path.dirname(os.path.dirname(INCLUDE)), "spec")


def other_headers():
    """Every header of include/pmregs that is not a family's own (FAMILY.h, FAMILY_tools.h for each
    spec/FAMILY.yaml): the base headers, <pmregs/tools.h> and whatever other header the folder holds
    (hand-written or generated), found by listing the folder, never by a list of names."""
    own = set()
    for f in os.listdir(SPEC_DIR):
        if f.endswith(".yaml"):
            own.update((f"{f[:-5]}.h", f"{f[:-5]}_tools.h"))
    return sorted(h for h in os.listdir(INCLUDE) if h.endswith(".h") and h not in own)


def public(name):
    """Whether a C name is public API: a name with a double underscore (pmregs_x__helper) is a header's
    internal helper, which gets no manual page and no index row."""
    return "__" not in name


def hand_written_sha256():
    """SHA-256 over the hand-written headers (those that do not say "Generated by pmregs-gen"), whose
    comments the man pages and the index print: the sum gen/uptodate.sh computes with sha256sum."""
    lines = ""
    for name in sorted(os.listdir(INCLUDE)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(INCLUDE, name), "rb") as f:
            data = f.read()
        if b"Generated by pmregs-gen" not in data:
            lines += f"{hashlib.sha256(data).hexdigest()}  include/pmregs/{name}\n"
    return hashlib.sha256(lines.encode()).hexdigest()


def base_files():
    """{file: text}: the functions of every header that is not a family's own (man pages, index entries),
    and the descriptors page."""
    out, entries = {}, []
    for h in other_headers():
        with open(os.path.join(INCLUDE, h), encoding="utf-8") as f:
            fns = [fn for fn in capi.functions(f.read()) if public(fn.name)]
        for fn in fns:
            fn.header = h
            fn.errors = sorted(e for e in capi.returned(fn.body)[0] if e in ERRORS)
            entries.append((fn.name, "base" if h.startswith("base") else h[:-2], "README.md#the-other-headers", fn.doc))
        out.update(manpages.base_pages(fns))
    out["descriptors.md"] = render_descriptors()
    return out, entries


# The descriptor structs that tools read families through, in the order the descriptors page explains them.
DESCRIPTORS = ("pmregs_family_desc", "pmregs_layout_desc", "pmregs_field_desc", "pmregs_value_desc",
               "pmregs_variant_desc", "pmregs_register_desc", "pmregs_param_desc", "pmregs_param_preset",
               "pmregs_stream_desc", "pmregs_stream_event", "pmregs_packet_view", "pmregs_packet_field",
               "pmregs_table_desc", "pmregs_column_desc", "pmregs_bit_desc", "pmregs_sample_desc", "pmregs_sample_item")

_STRUCT = re.compile(r"^struct (pmregs_\w+) \{\n(.*?)^\};", re.M | re.S)


def struct_members(body):
    """[(C declaration, name, comment)] of a struct body as the base headers write it: one member a line,
    its comment after it or on the lines above it."""
    out, pending, held = [], [], ""
    body = re.sub(r"/\*(.*?)\*/", lambda m: "/*" + " ".join(m.group(1).replace("*", " ").split()) + "*/", body,
                  flags=re.S)
    for line in body.split("\n"):
        t = line.strip()
        if not t:
            continue
        m = re.match(r"^/\*\s*(.*?)\s*\*/$", t)
        if m and not held:
            pending.append(m.group(1))
            continue
        t = held + " " + t if held else t
        m = re.match(r"^(.*?;)\s*(?:/\*\s*(.*?)\s*\*/)?$", t)
        if not m:
            held = t            # a declaration that goes on on the next line
            continue
        held = ""
        decl = " ".join(m.group(1).split())
        fp = re.search(r"\(\*(\w+)\)", decl)
        name = fp.group(1) if fp else re.search(r"(\w+)(\[\w*\])?;$", decl).group(1)
        doc = " ".join(pending + ([m.group(2)] if m.group(2) else []))
        pending = []
        if name != "pmregs_pad":
            out.append((decl, name, doc))
    return out


def descriptor_structs():
    """{struct name: {"doc", "members", "header"}} of the descriptor structs, read from the base headers."""
    out = {}
    for h in ("base_desc.h", "base_tools.h"):
        with open(os.path.join(INCLUDE, h), encoding="utf-8") as f:
            text = f.read()
        for m in _STRUCT.finditer(text):
            if m.group(1) in DESCRIPTORS:
                out[m.group(1)] = {"doc": capi.doc_above(text, m.start()), "header": h,
                                   "members": struct_members(m.group(2))}
    return out


def render_descriptors():
    """doc/descriptors.md: the structs through which a tool reads any family by name, each with an example."""
    structs = descriptor_structs()
    return make_env().get_template("descriptors.md.j2").render(
        s=structs, order=list(DESCRIPTORS), version=VERSION)


def header_summary(name):
    """The first sentence of a header's opening comment (" * pmregs/NAME - what it holds.")."""
    with open(os.path.join(INCLUDE, name), encoding="utf-8") as f:
        head = f.read(4000)
    m = re.search(r"^ \* pmregs/" + re.escape(name) + r" - (.*?)(?:\n \*\n| \*/)", head, re.M | re.S)
    if not m:
        return ""
    text = " ".join(re.sub(r"^ \* ?", "", m.group(1), flags=re.M).split())
    text = re.sub(r"^hand-written: ", "", text)
    return re.match(r"^(.*?\.)(\s|$)", text + " ").group(1) if "." in text else text


def render_index(families):
    """doc/README.md: [(name, title)] of every family, and every other header with its summary."""
    return make_env().get_template("doc_index.md.j2").render(
        families=families, version=VERSION, generator_sha256=GENERATOR_SHA256,
        headers=[(h, md(header_summary(h))) for h in other_headers()])


def doc_files(out_dir, names, families=None):
    """Existing generated files of these families under out_dir (to find stale diagrams and man pages);
    with families (every family of the spec folder), also the base headers' man pages."""
    found = []
    for n in names:
        d = os.path.join(out_dir, n)
        if os.path.isdir(d):
            found += [f"{n}/{f}" for f in sorted(os.listdir(d)) if f.endswith(".svg")]
    m = os.path.join(out_dir, "man3")
    if os.path.isdir(m):
        for f in sorted(os.listdir(m)):
            if not f.endswith(".3"):
                continue
            fam = next((n for n in (families or names) if f.startswith(f"pmregs_{n}_")), None)
            if fam in names or (fam is None and families is not None):
                found.append(f"man3/{f}")
    return found
