# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Located diagnostics: every error names file:line:col and a stable code."""


class SpecError(Exception):
    """Raised when a spec has errors; carries every diagnostic collected so far."""

    def __init__(self, errors):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


class Diagnostic:
    def __init__(self, path, line, col, code, message):
        self.path, self.line, self.col = path, line, col
        # one line, whatever the spec's text held: control characters are shown escaped
        self.code = code
        self.message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)

    def __str__(self):
        return f"{self.path}:{self.line}:{self.col}: error[{self.code}]: {self.message}"


class Diag:
    """Collects errors; `check()` raises SpecError if any were reported."""

    def __init__(self):
        self.errors = []

    def error(self, node, code, message):
        path, line, col = node.where() if node is not None else ("<spec>", 0, 0)
        self.errors.append(Diagnostic(path, line, col, code, message))

    def check(self):
        if self.errors:
            self.errors.sort(key=lambda e: (e.path, e.line, e.col))
            raise SpecError(self.errors)


# The stable error codes, documented once (README lists them too).
CODES = {
    "PMR001": "YAML syntax error",
    "PMR002": "unknown key",
    "PMR003": "missing required key",
    "PMR004": "wrong type of value",
    "PMR005": "duplicate key in a mapping",
    "PMR006": "the spec file is larger than the generator accepts (2 MiB)",
    "PMR007": "the spec is not UTF-8 text",
    "PMR008": "YAML aliases expand to too many nodes, or an alias is inside the node it names",
    "PMR009": "mappings and lists nested too deeply",
    "PMR010": "malformed bit range",
    "PMR011": "bit outside the register width",
    "PMR012": "fields overlap",
    "PMR013": "bits not accounted for (gap)",
    "PMR014": "value does not fit its field",
    "PMR015": "split field parts out of order",
    "PMR016": "bad register width",
    "PMR020": "name is not a lower_snake_case identifier of at most 64 characters",
    "PMR021": "duplicate name",
    "PMR022": "name is a C or C++ keyword, a standard C type or a predefined macro",
    "PMR023": "two constructs, or two families generated together, emit the same C symbol or file",
    "PMR024": "an emitted C identifier is longer than 127 characters",
    "PMR025": "a family, constant, function, table or field takes a name the hand-written headers or the"
              " generator's shared outputs own (a header file, macro, function, type or include guard)",
    "PMR030": "reference to something undefined",
    "PMR031": "value not among the allowed choices",
    "PMR032": "a set() type names an enum with a value of 64 or more",
    "PMR040": "expression syntax error",
    "PMR041": "expression names something undefined",
    "PMR042": "expression type error",
    "PMR043": "expression nested too deeply",
    "PMR044": "expression expands to too many terms (any()/all() unrolled)",
    "PMR045": "the family expands past a generator bound (registers, layout fields, table rows or cells, fields of"
              " a packet shape)",
    "PMR050": "record fields overlap, leave a gap or exceed the record",
    "PMR060": "table value has the wrong type or does not fit",
    "PMR070": "variant discriminator is wrong",
    "PMR090": "packet shapes cannot be told apart by their discriminating fields",
    "PMR091": "a width or size expression can leave its legal range",
    "PMR092": "a parameter's default, minimum and maximum disagree",
    "PMR093": "a packet field attribute is misused (differential, rest, value, size)",
    "PMR100": "encoder: more exclusive resources than pmregs_schedule() has bits (64)",
    "PMR101": "encoder: an event has more than 255 placements",
    "PMR102": "encoder: a place variable's source column names nothing to place on",
    "PMR103": "encoder: no events, an event with no placement, or no event encodes with the default parameters",
    "PMR080": "matcher rule or parameters are inconsistent",
    "PMR081": "range cover cannot be built on its matcher",
    "PMR120": "passes: an event, counter, column or table does not fit the construct",
    "PMR121": "passes: the registers of one pass differ in width",
    "PMR130": "classifier: a class pattern is malformed or wider than the word",
    "PMR131": "classifier: two classes match one encoding",
    "PMR132": "classifier: a field gathers bits outside the word, twice, or into the wrong number of value bits",
    "PMR133": "classifier: outputs missing, or value expressions that depend on each other",
    "PMR134": "classifier: whether two classes overlap cannot be decided",
}
