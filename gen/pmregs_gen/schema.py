# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Typed reads of YAML nodes against the spec schema, reporting located errors."""

import re

from .yamlnode import Map, Scalar, Seq, parse_int

NAME_RE = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)      # used with fullmatch: no trailing newline

# Names become C identifiers (struct members, parameters, enumerators), so none
# may be a keyword of C99..C23 or C++98..C++20, nor a macro the standard
# headers define in lower case.
KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while bool true false nullptr alignas alignof constexpr
static_assert thread_local typeof typeof_unqual and and_eq asm bitand bitor catch char8_t
char16_t char32_t class compl concept consteval constinit const_cast co_await co_return
co_yield decltype delete dynamic_cast explicit export friend mutable namespace new noexcept
not not_eq operator or or_eq private protected public reinterpret_cast requires
static_cast template this throw try typeid typename using virtual wchar_t xor xor_eq
assert errno offsetof
""".split())

# Nor a name <stdint.h>, <stddef.h> or <stdbool.h> define (a field called uint8_t would be a struct
# member hiding the type), nor a lower-case macro that compilers predefine in their GNU modes
# (-std=gnu11 defines linux and unix to 1, i386 on x86, and so on).
RESERVED = frozenset("""
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t uint_least32_t
uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t uint_fast16_t
uint_fast32_t uint_fast64_t intptr_t uintptr_t intmax_t uintmax_t size_t ptrdiff_t max_align_t
nullptr_t wint_t char16_t char32_t
linux unix i386 sun sparc mips vax
""".split())

MAX_NAME = 64          # characters in one spec name; the C names built from it are longer


def name_problem(name):
    """Why a name cannot be a spec name (a family's, say), or None when it can."""
    if not NAME_RE.fullmatch(name) or len(name) > MAX_NAME:
        return f"'{name[:40]}' is not a lower_snake_case identifier of at most {MAX_NAME} characters"
    if name in KEYWORDS or name in RESERVED:
        return f"'{name}' is a C/C++ keyword, a standard C type or a predefined macro"
    return None


class Reader:
    """Reads values of a known type from nodes; on mismatch reports and returns None."""

    def __init__(self, diag):
        self.diag = diag

    def err(self, node, code, msg):
        self.diag.error(node, code, msg)
        return None

    # -- containers -------------------------------------------------------
    def mapping(self, node, what):
        if isinstance(node, Map):
            return node
        return self.err(node, "PMR004", f"{what} must be a mapping, not a {node.kind}")

    def seq(self, node, what):
        if isinstance(node, Seq):
            return node.items
        return self.err(node, "PMR004", f"{what} must be a list, not a {node.kind}")

    def keys(self, m, what, required=(), optional=()):
        """Check a mapping's keys; report unknown and missing ones. Returns True if all well."""
        ok = True
        allowed = set(required) | set(optional)
        for k, _ in m.pairs:
            if k.text not in allowed:
                hint = ", ".join(sorted(allowed))
                self.err(k, "PMR002", f"unknown key '{k.text}' in {what} (allowed: {hint})")
                ok = False
        for r in required:
            if r not in m.index:
                self.err(m, "PMR003", f"{what} lacks required key '{r}'")
                ok = False
        return ok

    # -- scalars -----------------------------------------------------------
    def scalar(self, node, what):
        if isinstance(node, Scalar):
            return node
        return self.err(node, "PMR004", f"{what} must be a scalar, not a {node.kind}")

    def text(self, node, what):
        s = self.scalar(node, what)
        return None if s is None else s.text

    def integer(self, node, what, lo=None, hi=None):
        s = self.scalar(node, what)
        if s is None:
            return None
        if s.quoted:
            return self.err(node, "PMR004", f"{what} must be an integer, not the string '{s.text}'")
        v, why = parse_int(s.text)
        if why is not None:
            return self.err(node, "PMR004", f"{what}: {why}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            return self.err(node, "PMR014", f"{what} {v} is outside {rng}")
        return v

    def boolean(self, node, what):
        s = self.scalar(node, what)
        if s is None:
            return None
        if s.text in ("true", "false") and not s.quoted:
            return s.text == "true"
        return self.err(node, "PMR004", f"{what} must be true or false, not '{s.text}'")

    def name(self, node, what):
        s = self.scalar(node, what)
        if s is None:
            return None
        return self.check_name(node, s.text, what)

    def check_name(self, node, name, what):
        if not NAME_RE.fullmatch(name):
            return self.err(node, "PMR020", f"{what} '{name}' is not a lower_snake_case identifier")
        if name in KEYWORDS:
            return self.err(node, "PMR022", f"{what} '{name}' is a C/C++ keyword; choose another name")
        if name in RESERVED:
            return self.err(node, "PMR022", f"{what} '{name}' is a standard C type or a predefined macro;"
                            " choose another name")
        if len(name) > MAX_NAME:
            return self.err(node, "PMR020", f"{what} '{name[:20]}...' is longer than {MAX_NAME} characters")
        return name

    def choice(self, node, what, choices):
        t = self.text(node, what)
        if t is None:
            return None
        if t not in choices:
            return self.err(node, "PMR031", f"{what} '{t}' is not one of: {', '.join(choices)}")
        return t

    def opt_text(self, m, key, what, default=""):
        n = m.get(key)
        if n is None:
            return default
        t = self.text(n, what)
        return default if t is None else t
