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

# The hand-written base headers, in the order a generated header includes them.
BASE_HEADERS = ("base_core.h", "base_bitstream.h", "base_inplace.h", "base_schedule.h", "base_cover.h", "base_plan.h",
                "base_plan_tools.h", "base_counter.h", "base_desc.h", "base_tools.h")
TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


# Longest C identifier a header may define. C99 promises only 63 significant characters, but some
# event names the manuals give are long (Itanium's reach 86 characters in a header); every compiler
# pmregs supports treats all characters as significant (gcc, clang; MSVC 2048; C++ suggests 1024).
MAX_IDENTIFIER = 127


class Symbols:
    def __init__(self, diag):
        self.diag = diag
        self.seen = {}
        self.too_long = set()

    def add(self, name, node, what):
        if len(name) > MAX_IDENTIFIER:
            if id(node) in self.too_long:     # one error per spec node, not one per symbol it makes
                return name
            self.too_long.add(id(node))
            self.diag.error(node, "PMR024", f"{what} would define the C symbol '{name[:48]}...', {len(name)} characters"
                            f" long (at most {MAX_IDENTIFIER}): shorten a name in it")
            return name
        prev = self.seen.get(name)
        # the same construct may register a name again (views are built more than once), but two
        # roles of one construct may not share a name (a value named 'mask' and the field's _MASK)
        if prev is not None and (prev[0] is not node or prev[1] != what):
            pn, pwhat = prev
            self.diag.error(node, "PMR023", f"{what} would define C symbol '{name}', already defined by"
                            f" {pwhat} (line {pn.line})")
            return name
        self.seen[name] = (node, what)
        return name


class HeaderView:
    """Everything the family template renders, computed once."""

    def __init__(self, fam, spec_path, spec_bytes):
        self.fam = fam
        self.n = Names(fam)
        self.diag = Diag()
        self.sym = Symbols(self.diag)
        self.spec_path = spec_path
        self.sha256 = hashlib.sha256(spec_bytes).hexdigest()
        self.version = VERSION
        self.guard = f"PMREGS_{fam.name.upper()}_H"
        self.tools_guard = f"PMREGS_{fam.name.upper()}_TOOLS_H"
        self.prefix = self.n.p
        self.uses = {"base_core.h"}         # the hand-written base headers the constructs' code calls
        self.tools_uses = set()             # ... and those only their code in FAMILY_tools.h calls
        for c in CONSTRUCTS:
            c.view(self)
        self.base_headers = sorted(self.uses, key=lambda h: (BASE_HEADERS + (h,)).index(h))
        self.tools_base_headers = sorted(self.tools_uses - self.uses, key=lambda h: (BASE_HEADERS + (h,)).index(h))
        self.header_parts = [c.HEADER for c in ordered("header") if c.HEADER]
        self.selftest_parts = [c.SELFTEST for c in ordered("selftest") if c.SELFTEST]
        self.diag.check()


def make_env():
    """The Jinja environment of every template; one per set of template folders, so each template compiles once."""
    dirs = (TEMPLATES,) + tuple(c.TEMPLATE_DIR for c in CONSTRUCTS if hasattr(c, "TEMPLATE_DIR"))
    env = _ENVS.get(dirs)
    if env is None:
        env = _ENVS[dirs] = jinja2.Environment(loader=jinja2.FileSystemLoader(list(dirs)),
                                               undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
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


def render_headers(fam, spec_path, spec_bytes):
    """{file name: text}: FAMILY.h, and FAMILY_tools.h with what only decoders and tools need (structs,
    descriptors, printers: every construct's "tools" slot)."""
    view = HeaderView(fam, spec_path, spec_bytes)
    return {f"{fam.name}{suffix}.h": no_trigraphs(re.sub(r"\n{3,}", "\n\n", make_env().get_template(t).render(v=view, access=ACCESS)))
            for suffix, t in (("", "family.h.j2"), ("_tools", "family_tools.h.j2"))}


def render_selftest(fam, spec_path, spec_bytes):
    view = HeaderView(fam, spec_path, spec_bytes)
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
