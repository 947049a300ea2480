# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""YAML loading that keeps the line and column of every node.

Scalars are kept as their source text: the schema decides what a value means,
so YAML 1.1 surprises (`14:8` read as a base-60 number, `no` read as false)
cannot happen.
"""

import yaml

from .diag import Diag, SpecError

# libyaml's parser when PyYAML has it (Debian's does): the same nodes and marks, several times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
        self.null = node.tag == "tag:yaml.org,2002:null" and not self.quoted

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


def load(path, text=None, display=None):
    """Parse one YAML document into Node objects; raise SpecError on bad YAML."""
    display = display or path
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    diag = Diag()
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        fake = _Where(display, mark)
        diag.error(fake, "PMR001", _one_line(e.problem or str(e)))
        diag.check()
    except yaml.YAMLError as e:
        diag.error(_Where(display, None), "PMR001", _one_line(str(e)))
        diag.check()
    if root is None:
        diag.error(_Where(display, None), "PMR004", "the spec is empty")
        diag.check()
    tree = _convert(display, root, diag)
    diag.check()
    return tree


class _Where:
    def __init__(self, path, mark):
        self.path = path
        self.line = mark.line + 1 if mark else 1
        self.col = mark.column + 1 if mark else 1

    def where(self):
        return (self.path, self.line, self.col)


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
