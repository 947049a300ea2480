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


# Of the tags the safe loader's resolver gives an untagged scalar, only null is ever looked at (Scalar.null):
# it is decided as that resolver decides it (a plain, or '!'-tagged, ~, null, Null, NULL or empty scalar),
# and no other tag is. A data file read with plain=True has no null but one tagged !!null.
_NULL = "tag:yaml.org,2002:null"


class Node:
    def __init__(self, path, mark):
        self.path = path
        self.line = mark.line + 1
        self.col = mark.column + 1

    def where(self):
        return (self.path, self.line, self.col)


class Scalar(Node):
    def __init__(self, path, mark, value, style, tag):
        super().__init__(path, mark)
        self.text = value
        self.quoted = style in ("'", '"')
        self.block = style in ("|", ">")
        self.null = tag == _NULL and not self.quoted

    kind = "scalar"

    def __repr__(self):
        return f"Scalar({self.text!r})"


class Seq(Node):
    kind = "list"

    def __init__(self, path, mark, items):
        super().__init__(path, mark)
        self.items = items


class Map(Node):
    kind = "mapping"

    def __init__(self, path, mark, pairs):
        super().__init__(path, mark)
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
        root, later = _compose(text, display, diag, plain)
        diag.check()
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
    for node, code, message in later:
        diag.error(node, code, message)
    diag.check()
    return root


def _compose(text, display, diag, plain):
    """(root, later): the document's tree of Nodes (root None for a stream without one) from one pass over
    the parser's events, the nodes yaml.compose() would give turned into Nodes, without building those.

    While it reads, it refuses a document nested deeper than MAX_DEPTH, one that expands to more than
    MAX_NODES nodes through aliases, or one that uses an alias inside the node it names (a cycle): the
    error goes to diag and (None, []) is returned at once, before an alias is expanded. A YAML syntax error
    is raised as the parser raises it; what PyYAML's composer refuses (an undefined or a second anchor of
    one name, a second document) is raised once the whole text has parsed within those bounds, as it was
    when the bounds were checked before composing. later: the errors of keys that are no scalar (PMR004)
    and duplicate keys (PMR005), whose values are left out, as (node, code, message) in document order.
    An alias is a copy of the node its anchor names, made of new Nodes, with that node's errors again."""
    stack = []               # open collections: [start event, bounds' start count, children [(node, errors)]]
    size = {}                # anchor -> expanded size of its node (bounds)
    anchors = {}             # anchor -> start mark, from its node's start (the composer's duplicate check)
    done = {}                # anchor -> (node, errors) of its finished node
    root, refused, docs, n = None, None, 0, 0
    for ev in yaml.parse(text, Loader=_LOADER):
        t = type(ev)
        if t is yaml.ScalarEvent:
            n += 1
            if n > MAX_NODES:
                return _too_many(diag, display, ev)
            anchor = ev.anchor
            if anchor is not None:
                size[anchor] = 1
            if docs != 1 or refused:
                continue
            if anchor is not None:
                if anchor in anchors:
                    refused = _duplicate(anchor, anchors[anchor], ev.start_mark)
                    continue
                anchors[anchor] = ev.start_mark
            tag = ev.tag
            if tag is None or tag == "!":
                tag = _NULL if not plain and ev.implicit[0] and ev.value in _NULLS else ""
            node = (Scalar(display, ev.start_mark, ev.value, ev.style, tag), ())
            if anchor is not None:
                done[anchor] = node
        elif t is yaml.MappingStartEvent or t is yaml.SequenceStartEvent:
            n += 1
            stack.append([ev, n - 1, []])
            if len(stack) > MAX_DEPTH:
                diag.error(_Where(display, ev.start_mark), "PMR009",
                           f"mappings and lists are nested more than {MAX_DEPTH} deep")
                return None, []
            anchor = ev.anchor
            if docs == 1 and not refused and anchor is not None:
                if anchor in anchors:
                    refused = _duplicate(anchor, anchors[anchor], ev.start_mark)
                else:
                    anchors[anchor] = ev.start_mark
            if n > MAX_NODES:
                return _too_many(diag, display, ev)
            continue
        elif t is yaml.MappingEndEvent or t is yaml.SequenceEndEvent:
            start, count, children = stack.pop()
            anchor = start.anchor
            if anchor is not None:
                size[anchor] = n - count
            if docs != 1 or refused:
                continue
            node = _collection(display, start, children)
            if anchor is not None:
                done[anchor] = node
        elif t is yaml.AliasEvent:
            anchor = ev.anchor
            if any(o[0].anchor == anchor for o in stack):
                diag.error(_Where(display, ev.start_mark), "PMR008",
                           f"alias '*{anchor}' is inside the node it names (a cycle)")
                return None, []
            n += size.get(anchor, 1)
            if n > MAX_NODES:
                return _too_many(diag, display, ev)
            if docs != 1 or refused:
                continue
            if anchor not in done:
                refused = yaml.composer.ComposerError(None, None, "found undefined alias" if _C else
                                                      f"found undefined alias {anchor!r}", ev.start_mark)
                continue
            node, errors = done[anchor]
            node = (_copy(node), errors)
        elif t is yaml.DocumentStartEvent:
            docs += 1
            if docs == 2 and not refused:
                refused = yaml.composer.ComposerError("expected a single document in the stream",
                                                      _mark(root[0]), "but found another document",
                                                      ev.start_mark)
            continue
        else:
            continue
        if stack:
            stack[-1][2].append(node)
        else:
            root = node
    if refused:
        raise refused
    return (root[0], list(root[1])) if root else (None, [])


_NULLS = ("", "~", "null", "Null", "NULL")
_C = _LOADER is not yaml.SafeLoader           # libyaml's composer words its errors without the anchor


def _too_many(diag, display, ev):
    diag.error(_Where(display, ev.start_mark), "PMR008",
               f"the spec has more than {MAX_NODES} nodes once its aliases are expanded")
    return None, []


def _duplicate(anchor, first, mark):
    return yaml.composer.ComposerError("found duplicate anchor; first occurrence" if _C else
                                       f"found duplicate anchor {anchor!r}; first occurrence", first,
                                       "second occurrence", mark)


def _mark(node):
    """A node's start as a yaml Mark (for an error about the document it starts)."""
    return yaml.error.Mark(node.path, 0, node.line - 1, node.col - 1, None, None)


def _collection(display, start, children):
    """(node, errors) of a finished list or mapping: its children's errors in order, a mapping's keys
    checked as they come (the value of a key that is no scalar, or is there twice, left out)."""
    if type(start) is yaml.SequenceStartEvent:
        errors = [e for _, ce in children for e in ce]
        return Seq(display, start.start_mark, [c for c, _ in children]), errors
    pairs, errors, seen = [], [], {}
    for i in range(0, len(children), 2):
        (key, ke), (value, ve) = children[i], children[i + 1]
        errors += ke
        if not isinstance(key, Scalar):
            errors.append((key, "PMR004", "mapping keys must be plain names"))
            continue
        if key.text in seen:
            errors.append((key, "PMR005", f"duplicate key '{key.text}' (first at line {seen[key.text]})"))
            continue
        seen[key.text] = key.line
        errors += ve
        pairs.append((key, value))
    return Map(display, start.start_mark, pairs), errors


def _copy(node):
    """A node made again of new Nodes (what an alias gives: the node its anchor names)."""
    c = object.__new__(type(node))
    c.__dict__.update(node.__dict__)
    if isinstance(node, Seq):
        c.items = [_copy(x) for x in node.items]
    elif isinstance(node, Map):
        c.pairs = [(_copy(k), _copy(v)) for k, v in node.pairs]
        c.index = {k.text: (k, v) for k, v in c.pairs}
    return c


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


__all__ = ["load", "Node", "Scalar", "Seq", "Map", "SpecError"]
