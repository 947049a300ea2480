# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The C API of a piece of generated (or base) header text, for the reference pages.

The pages document exactly what the headers define: each construct's rendered
header part is read back here into its functions (name, return type,
parameters, the comment above it, the PMREGS_E* codes it can return) and its
macros. An error code counts when it reaches a return statement, directly or
through a variable; codes only compared with or stored as data do not. Codes
are followed through calls: a function that returns what another one returned
can return that one's codes too.
"""

import re

_FN = re.compile(r"^(?:PMREGS_DEPRECATED\(\"([^\"]*)\"\)\n)?(?:static inline|PMREGS_HOT|PMREGS_NOINLINE) ([^(;{}]*?)\s*\b(pmregs_\w+)\("
                 r"((?:[^()]|\([^()]*\))*)\)\s*\{", re.M)       # parameters: one level of parentheses, (*p)[N]
_MACRO = re.compile(r"^#define (PMREGS_\w+|pmregs_\w+)(\([^)]*\))?", re.M)
_ERR = re.compile(r"\bPMREGS_E[A-Z]+\b")
_CALL = re.compile(r"\b(pmregs_\w+)\s*\(")


class Function:
    def __init__(self, name, ret, params, doc, body, deprecated=None):
        self.name = name
        self.deprecated = deprecated        # the PMREGS_DEPRECATED message of a former name, or None
        self.ret = " ".join(ret.split())
        self.params = [split_param(p) for p in params.split(",") if p.strip() not in ("", "void")]
        self.doc = doc
        self.body = body
        self.errors, self.calls = returned(body)
        self.calls.discard(name)
        self.header = None                  # where it is defined: "FAMILY.h" or "FAMILY_tools.h"

    @property
    def signature(self):
        ps = ", ".join(decl(t, n) for t, n in self.params) or "void"
        sep = "" if self.ret.endswith("*") else " "
        return f"{self.ret}{sep}{self.name}({ps})"


_RETURN = re.compile(r"\breturn\b([^;]*);")
_COMPARED = re.compile(r"[=!<>]=\s*PMREGS_E[A-Z]+\b|\bPMREGS_E[A-Z]+\s*[=!<>]=")
_ASSIGN = re.compile(r"\b(?=(\w+))\1\s*(?:\[[^\]]*\])?\s*(?<![=!<>])=(?!=)([^;]*);")
_WORD = re.compile(r"\b[a-z_]\w*\b")
_BRACE = re.compile(r"[{}]")


def returned(body):
    """(codes, callees) of what a function body can return: PMREGS_E* codes written in a return
    statement, or assigned to a variable a return statement gives back; the functions whose result
    is returned that way. A code only compared with, or stored in an output, is data, not an error."""
    exprs = _RETURN.findall(body) if "return" in body else []
    if not exprs:                           # returns nothing: no code, no callee
        return set(), set()
    names = {w for e in exprs for w in _WORD.findall(e)}
    flows = list(exprs)
    assigns = _ASSIGN.findall(body)         # the body's assignments, read once for every round below
    grew = True
    while grew:                             # rc = f(...); n = rc; return n;  follows rc too
        grew = False
        for var, rhs in assigns:
            if var in names and rhs not in flows:
                flows.append(rhs)
                new = set(_WORD.findall(rhs)) - names
                if new:
                    names |= new
                    grew = True
    text = " ".join(flows)
    # each pattern needs its literal (a test that skips a regex scan of a long static initializer)
    if "PMREGS_E" in text:
        text = _COMPARED.sub(" ", text)
    return (set(_ERR.findall(text)) if "PMREGS_E" in text else set(),
            set(_CALL.findall(text)) if "pmregs_" in text else set())


def split_param(p):
    """'const struct x *r' -> ('const struct x *', 'r'); 'uint64_t d[8]' -> ('uint64_t[8]', 'd')."""
    p = " ".join(p.split())
    m = re.match(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*(\[\w*\])$", p)     # a pointer to an array: 'const char (*pool)[N]'
    if m:
        return f"{m.group(1).strip()} (*){m.group(3)}", m.group(2)
    m = re.match(r"(.*?)(\w+)\s*(\[\w*\])?$", p)
    return m.group(1).strip() + (m.group(3) or ""), m.group(2)


def decl(t, n):
    """The declaration of parameter n of type t (as split_param gives it)."""
    if "(*)" in t:
        return t.replace("(*)", f"(*{n})")
    if "[" in t:
        i = t.index("[")
        return f"{t[:i]} {n}{t[i:]}"
    return f"{t}{'' if t.endswith('*') else ' '}{n}"


def body_end(text, start):
    """Index just past the brace that closes the one at start."""
    depth = 0
    for m in _BRACE.finditer(text, start):
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return len(text)


def doc_above(text, start):
    """The prose of the comment that documents what starts at start: a /* ... */ block that opens at the
    start of a line and ends on the line just above, or ''. A comment that ends a line of code (the
    last #define's) or a section banner ("---- ... ----") belongs to something else."""
    head = text[:start]
    if not head.endswith("\n"):
        return ""
    head = head[:-1]
    if not head.rstrip(" \t").endswith("*/"):
        return ""
    open_at = head.rfind("/*")
    line_start = head.rfind("\n", 0, open_at) + 1
    if open_at < 0 or head[line_start:open_at].strip():
        return ""
    body = head[open_at + 2:head.rstrip(" \t").rfind("*/")]
    lines = [ln.strip().lstrip("*").strip() for ln in body.split("\n")]
    prose = " ".join(ln for ln in lines if ln)
    if re.match(r"^-{3,}.*-{3,}$", prose):
        return ""
    return prose


def functions(text):
    """[Function] defined in this C text, in order (a deprecated alias with its message)."""
    out = []
    for m in _FN.finditer(text):
        brace = m.end() - 1
        out.append(Function(m.group(3), m.group(2), m.group(4), doc_above(text, m.start()),
                            text[brace:body_end(text, brace)], deprecated=m.group(1)))
    return out


def macros(text):
    """[(name, '(args)' or '')] of the #defines in this C text, in order, once each."""
    seen = {}
    for m in _MACRO.finditer(text):
        seen.setdefault(m.group(1), m.group(2) or "")
    return list(seen.items())


def close_errors(fns):
    """Add to every function's errors those of the functions it calls (any of fns), to a fixed point."""
    by = {f.name: f for f in fns}
    changed = True
    while changed:
        changed = False
        for f in fns:
            more = set().union(*(by[c].errors for c in f.calls if c in by)) - f.errors
            if more:
                f.errors |= more
                changed = True


def name_tables(api, prefix, owners, claimed):
    """{owner: {"fields": text, "rows": [row]}}: the C names (macros and functions of api, as header_api
    gives it) of each owner, e.g. a layout: owners is [(owner, [(member, [value names])])], prefix the
    family's C prefix. One row per name, or per pattern (FIELD for any member, VALUE for a member's named
    values) with the members that have it: "" for the most common set (listed once in "fields"), "every
    field", a list, or "—" for the owner's own names. The functions placed go into the set claimed."""
    api = api or {"functions": [], "macros": []}
    longest_first = sorted(owners, key=lambda o: -len(o[0]))
    # per letter case (upper: a macro's name), each owner's prefix and its members longest first, each with
    # its name in that case and the names of its values (the members' order and names, worked out once)
    cases = {}
    for upper in (False, True):
        cased = (lambda x: x.upper()) if upper else (lambda x: x)
        pre = (prefix.upper() if upper else prefix) + "_"
        cases[upper] = (pre, [(owner, pre + cased(owner) + "_",
                               [(m, cased(m), {v.upper() for v in values} if upper else None)
                                for m, values in sorted(members, key=lambda mv: -len(mv[0]))])
                              for owner, members in longest_first])

    def place(name):
        upper = name.startswith(prefix.upper() + "_")
        pre, owners_cased = cases[upper]
        if not name.startswith(pre):        # every owner's prefix starts with it
            return None
        for owner, op, members in owners_cased:
            if not name.startswith(op):
                continue
            rest = name[len(op):]
            for m, cm, uvalues in members:
                if rest == cm or rest.startswith(cm + "_"):
                    tail = rest[len(m):]
                    if upper and tail[1:] in uvalues:
                        tail = "_VALUE"
                    return owner, op + "FIELD" + tail, m
            return owner, name, None
        return None

    rows = {}

    def add(name, kind, sig, fn):
        placed = place(name)
        if placed is None:
            return
        owner, pattern, member = placed
        table = rows.setdefault(owner, {})
        psig = sig.replace(name, pattern) if sig else ""
        row = table.setdefault((pattern, psig), {"name": pattern, "kind": kind, "sig": psig, "fields": []})
        if member and member not in row["fields"]:
            row["fields"].append(member)
        if fn:
            claimed.add(name)

    for name, args in api["macros"]:
        add(name, "macro", name + args if args else "", False)
    for f in api["functions"]:
        add(f.name, "function", f.signature, True)
    out = {}
    for owner, members in owners:
        table = list(rows.get(owner, {}).values())
        lists = [tuple(r["fields"]) for r in table if r["fields"]]
        common = max(lists, key=lists.count) if lists else ()
        every = [m for m, _ in members]
        out[owner] = {"fields": ", ".join(f"`{x}`" for x in common),
                      "rows": [dict(r, fields="—" if not r["fields"] else "" if tuple(r["fields"]) == common
                                    else "every field" if r["fields"] == every
                                    else ", ".join(f"`{x}`" for x in r["fields"])) for r in table]}
    return out


SCALARS = re.compile(r"^(u?int(8|16|32|64)_t|int|unsigned|unsigned long|size_t|enum \w+)$")


def example(f):
    """A small C program that calls f with zeroed arguments and reports its result (an error through
    pmregs_strerror()), or None when a parameter has a type it cannot make up (a callback)."""
    decls, args, prev = [], [], None
    for t, n in f.params:
        base = t[:-1].strip() if t.endswith("*") else t
        if "[" in t:
            base = t[:t.index("[")].replace("const ", "", 1)
            decls.append(f"{base} {n}{t[t.index('['):]};")
            decls.append(f"memset({n}, 0, sizeof {n});")
            args.append(n)
        elif t in ("void *", "const void *"):
            decls.append(f"unsigned char {n}[64];")
            decls.append(f"memset({n}, 0, sizeof {n});")
            args.append(n)
        elif t in ("char *",):
            decls.append(f"char {n}[256];")
            args.append(n)
        elif t == "const char *":
            args.append('"name"')
        elif t.endswith("**"):
            decls.append(f"{t[:-1].strip()} {n} = NULL;")
            args.append(f"&{n}")
        elif t.endswith("*"):
            base = base.replace("const ", "", 1)
            if not (SCALARS.match(base) or base.startswith("struct ")):
                return None
            if SCALARS.match(base):
                decls.append(f"{base} {n} = 0;")
            else:
                decls.append(f"{base} {n};")
                decls.append(f"memset(&{n}, 0, sizeof {n});")
            args.append(f"&{n}")
        elif t == "size_t" and prev == "char *":
            args.append(f"sizeof {args[-1]}")
        elif SCALARS.match(t):
            decls.append(f"{t} {n} = 0;" if not t.startswith("enum") else f"{t} {n} = ({t})0;")
            args.append(n)
        else:
            return None
        prev = t
    call = f"{f.name}({', '.join(args)})"
    if f.ret == "int":
        use = [f"int rc = {call};", "if (rc < 0) {",
               f'    fprintf(stderr, "{f.name}: %s\\n", pmregs_strerror(rc));', "    return 1;", "}",
               f'printf("{f.name}: %d\\n", rc);']
    elif f.ret == "void":
        use = [f"{call};", f'printf("{f.name}: done\\n");']
    elif f.ret == "const char *":
        use = [f"const char *s = {call};", f'printf("{f.name}: %s\\n", s ? s : "(none)");']
    elif f.ret.endswith("*"):
        use = [f"{f.ret}p = {call};", f'printf("{f.name}: %s\\n", p ? "found" : "none");']
    else:
        use = [f"{f.ret} r = {call};", f'printf("{f.name}: %llu\\n", (unsigned long long)r);']
    body = "\n".join("    " + ln for ln in decls + use + ["return 0;"])
    return (f"#include <stdio.h>\n#include <string.h>\n#include <pmregs/{f.header}>\n\n"
            f"int main(void)\n{{\n{body}\n}}\n")
