# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""From a validated Family to header text: the template data of every construct, rendered.

The symbol table lives here: every name the header will define is registered
once, and two constructs that would emit the same name are a spec error.
Each construct adds its own data to the HeaderView (`view(hv)`, in registry
order) and renders its own parts of the header and self-test templates.
"""

import hashlib
import os
import re

import jinja2

from . import GENERATOR_SHA256, VERSION
from .cnames import Names
from .constructs import CONSTRUCTS, ordered
from .core import ACCESS
from .ctext import c_string, comment_text, defines, hexw
from .diag import Diag
from .mdtext import code
from .reserved import table as reserved_table

# The hand-written base headers, in the order a generated header includes them.
BASE_HEADERS = ("base_core.h", "base_bitstream.h", "base_inplace.h", "base_transport.h", "base_schedule.h",
                "base_cover.h", "base_plan.h",
                "base_plan_tools.h", "base_counter.h", "base_desc.h", "base_tools.h")
TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


# Longest C identifier a header may define. C99 promises only 63 significant characters, but some
# event names the manuals give are long (Itanium's reach 86 characters in a header); every compiler
# pmregs supports treats all characters as significant (gcc, clang; MSVC 2048; C++ suggests 1024).
MAX_IDENTIFIER = 127


# Functions and types the generator emits for every family (pmregs_<family>_<part>), reserved even where a
# family lacks the part, so that a name never becomes taken when a section is added.
GENERATED_PER_FAMILY = (
    ("layouts", "the layout table"), ("registers", "the register table"), ("register", "the register struct"),
    ("register_descs", "the generic register table"), ("family", "the family descriptor"),
    ("tables", "the table of tables"), ("samples", "the sample table"), ("streams", "the stream table"),
)


class Symbols:
    """Every C name one family's headers define, with the spec node (and the words) that makes it.

    A name the generator itself emits for every family (the layout table, the include guards, the family
    descriptor) is registered with node None; a spec name that takes one is reported at the spec's node."""

    def __init__(self, diag, fam=None):
        self.diag = diag
        self.fam = fam
        self.seen = {}
        self.too_long = set()
        self.reported = set()

    def add(self, name, node, what):
        if len(name) > MAX_IDENTIFIER:
            if id(node) in self.too_long:     # one error per spec node, not one per symbol it makes
                return name
            self.too_long.add(id(node))
            self.diag.error(self.at(node), "PMR024", f"{what} would define the C symbol '{name[:48]}...', {len(name)}"
                            f" characters long (at most {MAX_IDENTIFIER}): shorten a name in it")
            return name
        prev = self.seen.get(name)
        # the same construct may register a name again (views are built more than once), but two
        # roles of one construct may not share a name (a value named 'mask' and the field's _MASK)
        if prev is not None and (prev[0] is not node or prev[1] != what):
            pn, pwhat = prev
            if pn is None and node is None:  # the generator's own name, registered by two of its parts
                return name
            if pn is None:                   # the generator's own name, taken by the spec
                self.clash(node, "PMR023", f"{what} would define C symbol '{name}', which the generator defines"
                           f" for every family ({pwhat}): choose another name")
            elif node is None:
                self.clash(pn, "PMR023", f"{pwhat} would define C symbol '{name}', which the generator defines"
                           f" for every family ({what}): choose another name")
            else:
                self.clash(node, "PMR023", f"{what} would define C symbol '{name}', already defined by"
                           f" {pwhat} (line {pn.line})")
            return name
        self.seen[name] = (node, what)
        return name

    def at(self, node):
        """Where an error about a name is reported: its spec node, or the family's name for the generator's own."""
        return node if node is not None else getattr(self.fam, "node", None)

    def clash(self, node, code, msg):
        """One error per spec node (a layout named like a generated table clashes in every name it makes)."""
        node = self.at(node)
        if id(node) in self.reported:
            return
        self.reported.add(id(node))
        self.diag.error(node, code, msg)


class HeaderView:
    """Everything the family template renders, computed once."""

    def __init__(self, fam, spec_path, spec_bytes, reserved=None):
        self.fam = fam
        self.n = Names(fam)
        self.diag = Diag()
        self.sym = Symbols(self.diag, fam)
        self.spec_path = spec_path
        self.sha256 = hashlib.sha256(spec_bytes).hexdigest()
        self.version = VERSION
        self.guard = self.sym.add(f"PMREGS_{fam.name.upper()}_H", None, f"the include guard of {fam.name}.h")
        self.tools_guard = self.sym.add(f"PMREGS_{fam.name.upper()}_TOOLS_H", None,
                                        f"the include guard of {fam.name}_tools.h")
        self.prefix = self.n.p
        # the names of every family's descriptor and tables, whether or not this family has each part
        for part, what in GENERATED_PER_FAMILY:
            self.sym.add(self.n.fn(part), None, what)
        self.sym.add(f"{self.n.P}_FAMILY_INIT", None, "the family descriptor")
        self.uses = {"base_core.h"}         # the hand-written base headers the constructs' code calls
        self.tools_uses = set()             # ... and those only their code in FAMILY_tools.h calls
        for c in CONSTRUCTS:
            c.view(self)
        self.base_headers = sorted(self.uses, key=lambda h: (BASE_HEADERS + (h,)).index(h))
        self.tools_base_headers = sorted(self.tools_uses - self.uses, key=lambda h: (BASE_HEADERS + (h,)).index(h))
        self.header_parts = [c.HEADER for c in ordered("header") if c.HEADER]
        self.selftest_parts = [c.SELFTEST for c in ordered("selftest") if c.SELFTEST]
        if reserved is not False:                # False: a view for the reference page (the headers checked it)
            check_reserved(self, reserved if reserved is not None else default_reserved())
        self.diag.check()


def family_files(name):
    """The files a family's spec makes: headers, self-test and reference page."""
    return (f"{name}.h", f"{name}_tools.h", f"selftest_{name}.c", f"{name}.md")


def check_reserved(hv, table):
    """A family whose files or C names the reserved table owns (reserved.py): one located error per spec node."""
    fam = hv.fam
    for f in family_files(fam.name):
        owner = table.file_owner(f, fam.name)
        if owner is not None:
            hv.sym.clash(None, "PMR025", f"family '{fam.name}' would write {f}, which is {owner}:"
                         " choose another family name")
            return
    seen = hv.sym.seen
    for names in (table.names, table.tags):
        for name, owner in names.items():       # a few hundred names, against the family's thousands
            if name in seen:
                node, what = seen[name]
                hv.sym.clash(node, "PMR025", f"{what} would define the C name '{name}', which {owner} defines:"
                             " choose another name")


def where(node):
    path, line, col = node.where()
    return f"{path}:{line}:{col}"


def check_across(views):
    """Families generated together may not write the same file nor define the same C name: a located error
    at one of the two, naming the other's location. Returns the errors."""
    files, owner = {}, {}
    for hv in views:
        fam = hv.fam
        for f in family_files(fam.name):
            prev = files.setdefault(f.casefold(), hv)
            if prev is not hv:
                hv.sym.clash(None, "PMR023", f"family '{fam.name}' would write {f}, which family '{prev.fam.name}'"
                             f" ({where(prev.fam.node)}) writes too: choose another family name")
        for name, (node, what) in hv.sym.seen.items():
            prev = owner.setdefault(name, (hv, node, what))
            if prev[0] is hv:
                continue
            phv, pnode, pwhat = prev
            if node is None and pnode is not None:     # report at the spec's name, not the generator's
                phv.sym.clash(pnode, "PMR023", f"{pwhat} would define C symbol '{name}', which family"
                              f" '{fam.name}' defines too ({what}, {where(hv.sym.at(node))}): rename one")
            else:
                hv.sym.clash(node, "PMR023", f"{what} would define C symbol '{name}', which {pwhat} of family"
                             f" '{phv.fam.name}' ({where(phv.sym.at(pnode))}) defines too: rename one")
    return [e for hv in views for e in hv.diag.errors]


def shared_outputs(names):
    """{file name: text} of the outputs every family shares: pmregs.h, tools.h (listing names) and version.h."""
    out = render_umbrella(names)
    out["version.h"] = render_version()
    return out


def default_reserved():
    """The reserved table without an output folder: the source tree's hand-written headers, the shared outputs."""
    global _DEFAULT_RESERVED
    if _DEFAULT_RESERVED is None:
        _DEFAULT_RESERVED = reserved_table([], shared_outputs([]).items())
    return _DEFAULT_RESERVED


_DEFAULT_RESERVED = None


_DICT_ATTRS = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment, with `x.name` on a plain dict looked up as Jinja itself would, without the
    AttributeError that Jinja's getattr() raises and catches first: a dict has no attribute but its class's,
    so for any other name the item is what Jinja returns (most of a template's lookups are in the views' dicts)."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRS:
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def make_env():
    """The Jinja environment of every template; one per set of template folders, so each template compiles once.
    With PMREGS_TEMPLATE_CACHE naming a folder, the compiled templates are kept there too (Jinja's bytecode
    cache, by each template's text), so that the generator runs that share the folder compile each once.
    A template is read once per process (no auto_reload): its file is not looked at again at every include,
    about 70 of them per family (no template changes while the generator runs)."""
    dirs = (TEMPLATES,) + tuple(c.TEMPLATE_DIR for c in CONSTRUCTS if hasattr(c, "TEMPLATE_DIR"))
    env = _ENVS.get(dirs)
    if env is None:
        cache = os.environ.get("PMREGS_TEMPLATE_CACHE")
        env = _ENVS[dirs] = _Environment(loader=jinja2.FileSystemLoader(list(dirs)),
                                         bytecode_cache=jinja2.FileSystemBytecodeCache(cache) if cache else None,
                                         undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                                         auto_reload=False,
                                         trim_blocks=True, lstrip_blocks=True, autoescape=False)
        env.filters["defines"] = defines
        env.filters["cstr"] = c_string
        env.filters["ctext"] = comment_text
        env.filters["hexw"] = hexw
        env.filters["md_code"] = code
    return env


_ENVS = {}


def no_trigraphs(text):
    """C text with every '??' broken by a backslash ('?\\?'), so that no trigraph (??/ ??= ...)
    forms in a string or a comment of a spec's text; '\\?' is '?' in a string, and nothing in the
    generated code itself writes '??'."""
    return re.sub(r"\?(?=\?)", "?\\\\", text)


def render_family(fam, spec_path, spec_bytes):
    """The text of FAMILY.h."""
    return render_headers(fam, spec_path, spec_bytes)[f"{fam.name}.h"]


def render_headers(fam, spec_path, spec_bytes, reserved=None, views=None):
    """{file name: text}: FAMILY.h, and FAMILY_tools.h with what only decoders and tools need (structs,
    descriptors, printers: every construct's "tools" slot). Names are checked against the reserved table
    (reserved.py; by default, the source tree's); the view is appended to views (for check_across())."""
    view = HeaderView(fam, spec_path, spec_bytes, reserved)
    if views is not None:
        views.append(view)
    return {f"{fam.name}{suffix}.h": no_trigraphs(re.sub(r"\n{3,}", "\n\n", make_env().get_template(t).render(v=view, access=ACCESS)))
            for suffix, t in (("", "family.h.j2"), ("_tools", "family_tools.h.j2"))}


def render_selftest(fam, spec_path, spec_bytes, view=None):
    """selftest_FAMILY.c; view: the family's HeaderView when the headers were just rendered from it (the
    self-test then reuses it instead of computing it again)."""
    view = view or HeaderView(fam, spec_path, spec_bytes)
    return no_trigraphs(make_env().get_template("selftest.c.j2").render(v=view))


def render_version():
    major, minor, patch = (int(x) for x in VERSION.split("."))
    return make_env().get_template("version.h.j2").render(
        version=VERSION, major=major, minor=minor, patch=patch, number=major * 10000 + minor * 100 + patch,
        generator_sha256=GENERATOR_SHA256)


def render_umbrella(names):
    """{file name: text}: pmregs.h (every family header) and tools.h (every family with its tools part)."""
    return {out: make_env().get_template(t).render(families=names, version=VERSION)
            for out, t in (("pmregs.h", "umbrella.h.j2"), ("tools.h", "tools.h.j2"))}
