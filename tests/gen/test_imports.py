# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The generator's imports flow one way: no import circle, no import inside a function, and the layers hold.

    yamlnode, diag, schema, cnames, expr, refs, core, ctext, mdtext, diagram, reserved, outputs   (shared, low)
      -> constructs/*  (one module per kind of spec section; none imports another)
      -> constructs/__init__ (the registry) -> model (loading) -> emit -> docs -> generate.py

Every import statement under gen/ is read with ast (nothing is imported).
"""

import ast
import collections
import os
import unittest

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gen")
PKG = "pmregs_gen"
LOW = {"pmregs_gen", "yamlnode", "diag", "schema", "cnames", "expr", "refs", "core", "ctext", "mdtext", "diagram",
       "reserved", "outputs"}
HIGH = {"constructs", "model", "emit", "docs"}


def modules():
    """{module name: path} of every Python file under gen/ (gen/generate.py is 'generate')."""
    out = {}
    for d, _, files in os.walk(GEN):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), GEN)[:-3].replace(os.sep, ".")
                out[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = os.path.join(d, f)
    return out


def statements(tree):
    """Every statement of a module, in the order ast.walk() gives them (breadth first). An import is a
    statement, and statements sit only in the bodies of other statements (and of their except and case
    clauses), never inside an expression: the expressions, nearly all of a module's nodes, are not visited."""
    todo = collections.deque([tree])
    while todo:
        node = todo.popleft()
        yield node
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, (ast.stmt, ast.excepthandler, ast.match_case)))


def imports(name, path, known):
    """[(imported module, line, at module level)] of the generator's own modules that `name` imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    is_pkg = path.endswith("__init__.py")
    top = {id(n) for n in tree.body}
    out = []
    for node in statements(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        for t in targets:
            if t in known:
                out.append((t, node.lineno, id(node) in top))
    return out


def short(m):
    """The layer name of a module: pmregs_gen.core -> core, pmregs_gen.constructs.tables -> constructs.tables."""
    return m[len(PKG) + 1:] if m.startswith(PKG + ".") else m


class ImportGraph(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # read once for the four tests, which only read the graph
        mods = modules()
        cls.graph = {m: imports(m, p, mods) for m, p in mods.items()}

    def test_no_import_inside_a_function(self):
        bad = [f"{m}:{line} imports {t}" for m, edges in self.graph.items() for t, line, top in edges if not top]
        self.assertEqual(bad, [])

    def test_no_cycle(self):
        state, stack = {}, []

        def visit(m):
            state[m] = "open"
            stack.append(m)
            for t, line, _ in self.graph.get(m, []):
                if state.get(t) == "open":
                    self.fail("import circle: " + " -> ".join(stack[stack.index(t):] + [t]))
                if t not in state:
                    visit(t)
            stack.pop()
            state[m] = "done"

        for m in sorted(self.graph):
            if m not in state:
                visit(m)

    def test_layers(self):
        bad = []
        for m, edges in self.graph.items():
            s = short(m)
            for t, line, _ in edges:
                u = short(t)
                if s in LOW and u.split(".")[0] in HIGH:
                    bad.append(f"{s}:{line}: a shared module imports {u}")
                if s.startswith("constructs.") and (u.split(".")[0] in HIGH - {"constructs"} or u == "constructs"
                                                    or u.startswith("constructs.")):
                    bad.append(f"{s}:{line}: a construct imports {u}")
        self.assertEqual(bad, [])

    def test_every_construct_is_registered(self):
        here = os.path.join(GEN, PKG, "constructs")
        files = sorted(f[:-3] for f in os.listdir(here) if f.endswith(".py") and f != "__init__.py")
        registry = sorted(t.rsplit(".", 1)[1] for t, _, _ in self.graph[f"{PKG}.constructs"])
        self.assertEqual(files, registry)


if __name__ == "__main__":
    unittest.main()
