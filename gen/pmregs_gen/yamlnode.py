# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""YAML loading that keeps the line and column of every node.

Scalars are kept as their source text: the schema decides what a value means,
so YAML 1.1 surprises (`14:8` read as a base-60 number, `no` read as false)
cannot happen.
"""

import re

import yaml

from .diag import Diag, SpecError

# libyaml's parser when PyYAML has it (Debian's does): the same nodes and marks, several times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_NULL = "tag:yaml.org,2002:null"


class _SpecLoader(_LOADER):
    """The loader of specs. Of the tags the safe loader's resolver gives an untagged node, only null is ever
    looked at (Scalar.null): it is decided as that resolver does (a plain, or '!'-tagged, ~, null, Null, NULL
    or empty scalar), and no other tag is, which is most of the time spent composing a spec."""

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode and implicit[0] and value in ("", "~", "null", "Null", "NULL"):
            return _NULL
        return ""


class _PlainLoader(_LOADER):
    """Every scalar a string, no implicit tags: resolving tags is most of the time spent composing a large
    data file (constructs/catalogs.py reads its files so; a null there is the text 'null')."""
    yaml_implicit_resolvers = {}


class Node:
    def __init__(self, path, mark):
        self.path = path
        self.line = mark.line + 1
        self.col = mark.column + 1

    def where(self):
        return (self.path, self.line, self.col)


class Scalar(Node):
    def __init__(self, path, node):
        super().__init__(path, node.start_mark)
        self.text = node.value
        self.quoted = node.style in ("'", '"')
        self.block = node.style in ("|", ">")
        self.null = node.tag == _NULL and not self.quoted

    kind = "scalar"

    def __repr__(self):
        return f"Scalar({self.text!r})"


class Seq(Node):
    kind = "list"

    def __init__(self, path, node, items):
        super().__init__(path, node.start_mark)
        self.items = items


class Map(Node):
    kind = "mapping"

    def __init__(self, path, node, pairs):
        super().__init__(path, node.start_mark)
        self.pairs = pairs            # list of (key Scalar, value Node), in order
        self.index = {k.text: (k, v) for k, v in pairs}

    def get(self, key):
        kv = self.index.get(key)
        return kv[1] if kv else None

    def key_node(self, key):
        kv = self.index.get(key)
        return kv[0] if kv else None

    def keys(self):
        return [k.text for k, _ in self.pairs]


# Bounds on what one spec may be, far above what the real specs use (the
# largest is about 70 kB, 6000 nodes, 10 levels deep), so that no input can
# make the generator run for minutes or use gigabytes.
MAX_BYTES = 2 << 20          # input size
MAX_NODES = 100000           # nodes after expanding every YAML alias
MAX_DEPTH = 64               # nested mappings and lists


# An integer literal: decimal without a leading zero (is `010` eight or ten?),
# or 0x / 0o / 0b with at least one digit; `_` only between digits; ASCII only.
_INT_RE = re.compile(r"[+-]?(?:0[xX]_?[0-9a-fA-F](?:_?[0-9a-fA-F])*|0[oO]_?[0-7](?:_?[0-7])*"
                     r"|0[bB]_?[01](?:_?[01])*|[1-9](?:_?[0-9])*|0(?:_?0)*)", re.ASCII)
MAX_INT_CHARS = 100


def parse_int(text):
    """(value, None) for an integer literal of at most 64 bits (signed or unsigned), else (None, why)."""
    t = text.strip()
    if len(t) > MAX_INT_CHARS:
        return None, f"'{t[:20]}...' is too long for a 64-bit integer"
    if not _INT_RE.fullmatch(t):
        if re.fullmatch(r"[+-]?0[0-9_]+", t, re.ASCII):
            return None, f"'{t}' has a leading zero; write it in decimal without one, or as 0o.. for octal"
        return None, f"'{t}' is not an integer (decimal, 0x.., 0o.. or 0b..)"
    v = int(t, 0) if not re.fullmatch(r"[+-]?0[0_]*", t) else 0
    if not -(1 << 63) <= v < (1 << 64):
        return None, f"{t} does not fit in 64 bits"
    return v, None


def read_spec(path):
    """The bytes of one spec file, at most MAX_BYTES + 1 of them (OSError if unreadable)."""
    with open(path, "rb") as f:
        return f.read(MAX_BYTES + 1)


def decode(raw, display):
    """Spec bytes as text; raise SpecError if they are too many or not UTF-8."""
    diag = Diag()
    if len(raw) > MAX_BYTES:
        diag.error(_Where(display, None), "PMR006",
                   f"the spec is larger than {MAX_BYTES} bytes; no family needs that much")
        diag.check()
    bom = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
           b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}
    for mark, name in bom.items():
        if raw.startswith(mark):
            diag.error(_Where(display, None), "PMR007", f"the spec is {name}; write it in UTF-8")
            diag.check()
    nul = raw.find(b"\0")
    try:
        text = raw.decode("utf-8")
        bad, what = nul, "a NUL byte (UTF-16 or UTF-32 without a byte-order mark?)"
    except UnicodeDecodeError as e:
        text, bad, what = None, e.start, f"byte 0x{raw[e.start]:02x} is not UTF-8 (Latin-1?)"
        if 0 <= nul < bad:
            bad, what = nul, "a NUL byte (UTF-16 or UTF-32 without a byte-order mark?)"
    if bad >= 0:
        line = raw.count(b"\n", 0, bad) + 1
        start = raw.rfind(b"\n", 0, bad) + 1
        col = len(raw[start:bad].decode("utf-8", "replace")) + 1
        diag.error(_At(display, line, col), "PMR007", f"the spec must be UTF-8 text: {what}")
        diag.check()
    return text


def load(path, text=None, display=None, plain=False):
    """Parse one YAML document into Node objects; raise SpecError on bad or oversized YAML.
    plain: read data, where no scalar is null (faster on large files).

    Reading the file may raise OSError (missing, a directory, unreadable)."""
    display = display or path
    if text is None:
        text = decode(read_spec(path), display)
    elif len(text) > MAX_BYTES:
        text = decode(text.encode("utf-8", "surrogatepass"), display)
    diag = Diag()
    try:
        _bounds(text, display, diag)
        diag.check()
        root = yaml.compose(text, Loader=_PlainLoader if plain else _SpecLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        fake = _Where(display, mark)
        diag.error(fake, "PMR001", _one_line(e.problem or str(e)))
        diag.check()
    except yaml.YAMLError as e:
        diag.error(_Where(display, getattr(e, "mark", None)), "PMR001", _one_line(str(e)))
        diag.check()
    if root is None:
        diag.error(_Where(display, None), "PMR004", "the spec is empty")
        diag.check()
    tree = _convert(display, root, diag)
    diag.check()
    return tree


def _bounds(text, display, diag):
    """Walk the YAML events (no recursion) and refuse a document that is nested
    deeper than MAX_DEPTH, expands to more than MAX_NODES nodes through aliases,
    or uses an alias inside the node it names (a cycle)."""
    open_ = []               # (anchor, expanded count at start) of every open collection
    size = {}                # anchor -> expanded size of its node
    n = 0
    for ev in yaml.parse(text, Loader=_LOADER):
        if isinstance(ev, yaml.AliasEvent):
            if any(a == ev.anchor for a, _ in open_):
                diag.error(_Where(display, ev.start_mark), "PMR008",
                           f"alias '*{ev.anchor}' is inside the node it names (a cycle)")
                return
            n += size.get(ev.anchor, 1)
        elif isinstance(ev, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            n += 1
            if isinstance(ev, yaml.CollectionStartEvent):
                open_.append((ev.anchor, n - 1))
                if len(open_) > MAX_DEPTH:
                    diag.error(_Where(display, ev.start_mark), "PMR009",
                               f"mappings and lists are nested more than {MAX_DEPTH} deep")
                    return
            elif ev.anchor is not None:
                size[ev.anchor] = 1
        elif isinstance(ev, yaml.CollectionEndEvent):
            anchor, start = open_.pop()
            if anchor is not None:
                size[anchor] = n - start
        if n > MAX_NODES:
            diag.error(_Where(display, ev.start_mark), "PMR008",
                       f"the spec has more than {MAX_NODES} nodes once its aliases are expanded")
            return


class _Where:
    def __init__(self, path, mark):
        self.path = path
        self.line = mark.line + 1 if mark else 1
        self.col = mark.column + 1 if mark else 1

    def where(self):
        return (self.path, self.line, self.col)


class _At(_Where):
    def __init__(self, path, line, col):
        self.path, self.line, self.col = path, line, col


def _one_line(s):
    return " ".join(s.split())


def _convert(path, node, diag):
    if isinstance(node, yaml.ScalarNode):
        return Scalar(path, node)
    if isinstance(node, yaml.SequenceNode):
        return Seq(path, node, [_convert(path, n, diag) for n in node.value])
    pairs = []
    seen = {}
    for k, v in node.value:
        key = _convert(path, k, diag)
        if not isinstance(key, Scalar):
            diag.error(key, "PMR004", "mapping keys must be plain names")
            continue
        if key.text in seen:
            diag.error(key, "PMR005", f"duplicate key '{key.text}' (first at line {seen[key.text]})")
            continue
        seen[key.text] = key.line
        pairs.append((key, _convert(path, v, diag)))
    return Map(path, node, pairs)


__all__ = ["load", "Node", "Scalar", "Seq", "Map", "SpecError"]
