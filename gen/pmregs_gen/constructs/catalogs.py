# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Catalogues: per-model tables of named events for one event-select layout, in their own header.

    catalogs:
      NAME:
        title, doc, source
        licence: SPDX id of the imported data (e.g. BSD-3-Clause), or omitted
        vendor_id: the CPUID vendor string its CPU map matches ("GenuineIntel")
        layout: the event-select layout every event is placed in
        fields: [layout fields an event row may set]
        privilege: {user: FIELD, kernel: FIELD, enable: FIELD, int: FIELD, host: FIELD, guest: FIELD}
        terms: [{name: perf term, fields: [FIELD...] (low value bits first) | word: 1|2 + msr: [MSR...],
                 pfm: libpfm4 modifier}]   -- the first two terms are the event and the unit mask
        flags: [{name, width, doc}]        -- small per-event facts, packed into 16 bits

The rows live in data files, spec/FAMILY/NAME/*.yaml, one table (processor model) each:

    table: spr            title, pmu (Linux's sysfs PMU), source, notice, alias_source
    cpus:   [{family, model: N | [lo, hi], stepping: N | [lo, hi], core_type}]   -- disjoint
    events: [{name, FIELD: value..., counters, msr, msr_value, FLAG: value..., brief}]
    aliases: [{alias, event}]

They are read only when the catalogue header is generated (generate.py --catalogs), so the family
headers do not wait for them. The header, <pmregs/FAMILY_NAME.h>, has one function,
pmregs_FAMILY_NAME(), returning a struct pmregs_catalog (base_catalog.h): string pools of 4096-byte
chunks shared by every table (descriptions in a separate pool, left out with PMREGS_NO_DESCRIPTIONS),
events sorted by name ignoring case, each with its register value already placed.
"""

import hashlib
import os
import re

from ..ctext import comment_text
from ..mdtext import md, md_par
import yaml

from ..yamlnode import MAX_BYTES, Map, Seq, load as load_yaml, parse_int, read_spec

NAME = "catalogs"
KEYS = ("catalogs",)
HEADER, SELFTEST, PAGE = None, None, "catalogs.md.j2"
CONTENTS = (("Catalogues", "catalogs"),)

CHUNK = 4096
ROW_KEYS = ("name", "brief", "counters", "msr", "msr_value")
TABLE_KEYS = ("table", "title", "pmu", "source", "notice", "alias_source", "cpus", "events", "aliases")
PRIV_KEYS = ("user", "kernel", "enable", "int", "host", "guest")


class Catalog:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = self.licence = self.vendor_id = ""
        self.layout = None
        self.fields = []           # [Field]
        self.priv = {}             # key -> Field
        self.terms = []            # [dict]
        self.flags = []            # [(name, lo, width, doc)]
        self.dir = ""              # spec/FAMILY/NAME
        self.tables = None         # [dict] once the data files are read


def load(b, m):
    b.fam.catalogs = []
    b.section(m, "catalogs", lambda k, v: catalog(b, k, v))
    b.diag.check()
    if getattr(b, "catalog_data", False):
        for C in b.fam.catalogs:
            read_data(b, C)
        b.diag.check()


def view(hv):
    for C in getattr(hv.fam, "catalogs", []):
        hv.sym.add(f"{hv.n.p}_{C.name}", C.node, f"catalog '{C.name}'")


def page(pv):
    pv.catalogs = [{"name": C.name, "title": md(C.title or C.name), "doc": md_par(C.doc), "source": md(C.source),
                    "header": f"{pv.fam.name}_{C.name}.h", "fn": f"pmregs_{pv.fam.name}_{C.name}",
                    "licence": C.licence, "layout": C.layout.name,
                    "terms": [(t["name"], t["pfm"], t["where"]) for t in C.terms],
                    "flags": [(f[0], md(f[3])) for f in C.flags], "dir": C.dir}
                   for C in getattr(pv.fam, "catalogs", [])]


# -- load: the definition ----------------------------------------------------------------------------
def catalog(b, k, v):
    name = b.top_name(k, k.text, "catalog")
    m = b.r.mapping(v, f"catalog '{k.text}'")
    if name is None or m is None:
        return
    if not b.r.keys(m, f"catalog '{name}'", required=("layout", "fields", "terms", "vendor_id"),
                    optional=("title", "doc", "source", "licence", "privilege", "flags")):
        return
    C = Catalog(name, k)
    C.title = b.r.opt_text(m, "title", "title")
    C.doc = b.r.opt_text(m, "doc", "doc")
    C.source = b.r.opt_text(m, "source", "source")
    C.licence = b.r.opt_text(m, "licence", "licence")
    C.vendor_id = b.r.opt_text(m, "vendor_id", "vendor_id")
    C.dir = os.path.join(os.path.dirname(b.fam.path), b.fam.name, name)
    ln = b.r.text(m.get("layout"), "layout")
    C.layout = b.fam.layout(ln) if ln else None
    if C.layout is None:
        b.r.err(m.get("layout"), "PMR030", f"catalog '{name}': '{ln}' is not a layout of this spec")
        return

    def field(node, what):
        fn = b.r.text(node, what)
        F = C.layout.field(fn) if fn else None
        if fn is not None and F is None:
            b.r.err(node, "PMR030", f"catalog '{name}': '{fn}' is not a field of layout '{C.layout.name}'")
        return F

    for it in b.r.seq(m.get("fields"), "fields") or []:
        F = field(it, "field")
        if F is not None:
            C.fields.append(F)
    pm = b.r.mapping(m.get("privilege"), "privilege") if m.get("privilege") is not None else None
    if pm is not None and b.r.keys(pm, "privilege", optional=PRIV_KEYS):
        for pk, pv in pm.pairs:
            F = field(pv, pk.text)
            if F is not None:
                C.priv[pk.text] = F
    for it in b.r.seq(m.get("terms"), "terms") or []:
        tm = b.r.mapping(it, "a term")
        if tm is None or not b.r.keys(tm, "a term", required=("name",),
                                      optional=("fields", "word", "msr", "pfm", "doc")):
            continue
        t = {"name": b.r.text(tm.get("name"), "term name") or "", "pfm": b.r.opt_text(tm, "pfm", "pfm"),
             "word": 0, "parts": [], "msr": [], "node": tm}
        if tm.get("fields") is not None:
            for fnode in b.r.seq(tm.get("fields"), "fields") or []:
                F = field(fnode, "term field")
                if F is not None:
                    t["parts"] += [(lo, hi - lo + 1) for hi, lo in reversed(F.parts)]
            if len(t["parts"]) > 4:
                b.r.err(tm, "PMR060", f"term '{t['name']}' spans more than 4 bit ranges")
            t["where"] = "config:" + ",".join(f"{lo}-{lo + w - 1}" if w > 1 else f"{lo}" for lo, w in t["parts"])
        else:
            t["word"] = b.r.integer(tm.get("word"), "word", 1, 2) if tm.get("word") is not None else None
            t["msr"] = [b.r.integer(x, "msr", 0, 0xFFFFFFFF) for x in b.r.seq(tm.get("msr"), "msr") or []] \
                if tm.get("msr") is not None else []
            if t["word"] is None or not t["msr"] or len(t["msr"]) > 2 or None in t["msr"]:
                b.r.err(tm, "PMR003", f"term '{t['name']}' needs `fields`, or `word` (1 or 2) and one or two `msr`")
                continue
            t["where"] = f"config{t['word']} (MSR " + ", ".join(f"{x:#x}" for x in t["msr"]) + ")"
        C.terms.append(t)
    if len(C.terms) < 2:
        b.r.err(m.get("terms"), "PMR003", f"catalog '{name}': the first two terms must be the event and the unit mask")
    lo = 0
    for it in b.r.seq(m.get("flags"), "flags") or [] if m.get("flags") is not None else []:
        fm = b.r.mapping(it, "a flag")
        if fm is None or not b.r.keys(fm, "a flag", required=("name",), optional=("width", "doc")):
            continue
        fname = b.r.check_name(fm.get("name"), b.r.text(fm.get("name"), "flag name") or "", "flag name")
        w = b.r.integer(fm.get("width"), "width", 1, 16) if fm.get("width") is not None else 1
        if fname is None or w is None:
            continue
        if lo + w > 16:
            b.r.err(fm, "PMR060", f"catalog '{name}': the flags take more than 16 bits")
            continue
        C.flags.append((fname, lo, w, b.r.opt_text(fm, "doc", "doc")))
        lo += w
    b.fam.catalogs.append(C)


# -- load: the data files ---------------------------------------------------------------------------------
def read_data(b, C):
    """Every spec/FAMILY/NAME/*.yaml of catalogue C, in file-name order."""
    C.tables, C.files = [], []
    try:
        names = sorted(f for f in os.listdir(C.dir) if f.endswith(".yaml"))
    except OSError:
        names = []
    if not names:
        b.r.err(C.node, "PMR030", f"catalog '{C.name}': no data files in {C.dir}/")
        return
    fields = {F.name: F for F in C.fields}
    flags = {f[0]: f for f in C.flags}
    for fn in names:
        path = os.path.join(C.dir, fn)
        raw = read_spec(path)
        C.files.append((path, hashlib.sha256(raw).hexdigest()))
        t = fast_table(raw, fn, fields, flags)
        if t is None:                       # something is wrong: read it again, keeping lines for the errors
            t = slow_table(b, C, path, fn, fields, flags)
        if t is not None:
            C.tables.append(t)
    cover = {}
    for ti, t in enumerate(C.tables):
        for fam, mlo, mhi, slo, shi, ct, node in t["cpus"]:
            for x in range(mlo, mhi + 1):
                for s in range(slo, shi + 1):
                    k = (fam, x, s, ct)
                    if k in cover and cover[k] != ti:
                        b.r.err(node or C.node, "PMR012", f"table '{t['table']}': CPU {fam}-{x:X}-{s:X} is also"
                                f" served by table '{C.tables[cover[k]]['table']}'")
                        break
                    cover[k] = ti



def slow_table(b, C, path, fn, fields, flags):
    """One data file read with every node's line, reporting each problem where it is."""
    if True:
        tree = load_yaml(path, display=os.path.relpath(path), plain=True)
        m = b.r.mapping(tree, "a catalogue table")
        if m is None or not b.r.keys(m, "a catalogue table", required=("table", "title", "pmu", "cpus", "events"),
                                     optional=TABLE_KEYS):
            return None
        t = {k: b.r.opt_text(m, k, k) for k in ("table", "title", "pmu", "source", "notice", "alias_source")}
        if t["table"] + ".yaml" != fn:
            b.r.err(m.get("table"), "PMR031", f"table '{t['table']}' must live in {t['table']}.yaml")
        t["cpus"] = []
        for it in b.r.seq(m.get("cpus"), "cpus") or []:
            cm = b.r.mapping(it, "a cpu")
            if cm is None or not b.r.keys(cm, "a cpu", required=("family", "model"),
                                          optional=("stepping", "core_type")):
                continue
            fam = b.r.integer(cm.get("family"), "family", 0, 0xFFFF)
            mlo, mhi = rng(b, cm.get("model"), "model", 255)
            slo, shi = rng(b, cm.get("stepping"), "stepping", 15) if cm.get("stepping") is not None else (0, 15)
            ct = b.r.integer(cm.get("core_type"), "core_type", 0, 255) if cm.get("core_type") is not None else 0
            if None not in (fam, mlo, slo, ct):
                t["cpus"].append((fam, mlo, mhi, slo, shi, ct, cm))
        t["events"], seen, prev = [], {}, None
        for it in b.r.seq(m.get("events"), "events") or []:
            if not isinstance(it, Map):
                b.r.err(it, "PMR004", "an event must be a mapping")
                continue
            ev = {"value": 0, "counters": 0, "msr": 0, "msr_value": 0, "flags": 0, "brief": "", "node": it}
            ok = True
            for kn, vn in it.pairs:
                k = kn.text
                if k in ("name", "brief"):
                    s = b.r.text(vn, k)
                    ok = ok and s is not None
                    ev[k] = s or ""
                elif k in ("counters", "msr_value", "msr"):
                    x = b.r.integer(vn, k, 0, (1 << 64) - 1 if k != "msr" else 0xFFFFFFFF)
                    ok = ok and x is not None
                    ev[k] = x or 0
                elif k in fields:
                    F = fields[k]
                    x = b.r.integer(vn, k, 0, (1 << F.width) - 1)
                    if x is None:
                        ok = False
                        continue
                    ev["value"] |= place(F, x)
                elif k in flags:
                    _, flo, fw, _ = flags[k]
                    x = b.r.integer(vn, k, 0, (1 << fw) - 1)
                    if x is None:
                        ok = False
                        continue
                    ev["flags"] |= x << flo
                else:
                    b.r.err(kn, "PMR002", f"unknown event key '{k}' (known: {', '.join(ROW_KEYS + tuple(fields) + tuple(flags))})")
                    ok = False
            name = ev.get("name", "")
            if not name or any(ch.isspace() for ch in name) or len(name) > 150:
                b.r.err(it, "PMR003", "an event needs a name without spaces, at most 150 characters")
                continue
            key = name.lower()
            if key in seen:
                b.r.err(it, "PMR021", f"event '{name}' is already in table '{t['table']}' (line {seen[key]})")
                continue
            if prev is not None and key < prev:
                b.r.err(it, "PMR031", f"event '{name}' is out of order: the events are sorted by name ignoring case")
            seen[key] = it.line
            prev = key
            if ok:
                t["events"].append(ev)
        t["aliases"] = []
        for it in b.r.seq(m.get("aliases"), "aliases") or [] if m.get("aliases") is not None else []:
            am = b.r.mapping(it, "an alias")
            if am is None or not b.r.keys(am, "an alias", required=("alias", "event")):
                continue
            a, e = b.r.text(am.get("alias"), "alias"), b.r.text(am.get("event"), "event")
            if a is None or e is None:
                continue
            if e.lower() not in seen:
                b.r.err(am.get("event"), "PMR030", f"alias '{a}': no event '{e}' in table '{t['table']}'")
            elif a.lower() in seen:
                b.r.err(am.get("alias"), "PMR021", f"alias '{a}' is also an event or alias of table '{t['table']}'")
            else:
                seen[a.lower()] = am.line
                t["aliases"].append((a, e))
        t["aliases"].sort(key=lambda x: (x[0].lower(), x[0]))
        return t


class _TaglessLoader(getattr(yaml, "CBaseLoader", yaml.BaseLoader)):
    """BaseLoader's parser and composer, without deciding tags: every scalar is its text, as BaseLoader
    makes it (it has no implicit resolvers, and its constructor builds str, list and dict whatever the tag)."""

    def resolve(self, kind, value, implicit):
        return ""


def _plain_node(text):
    """The node yaml.compose(text, Loader=BaseLoader) gives (None for an empty stream)."""
    loader = _TaglessLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _node_data(n):
    if isinstance(n, yaml.ScalarNode):
        return n.value
    if isinstance(n, yaml.SequenceNode):
        return [_node_data(x) for x in n.value]
    return {_node_data(k): _node_data(v) for k, v in n.value}


def _plain_data(text):
    """What yaml.load(text, Loader=BaseLoader) gives (str, list and dict; the last of duplicate keys wins), in
    a fraction of the time: the nodes composed by the parser, then turned into data by one small function
    instead of the general constructor. Raises yaml.YAMLError, TypeError for a key that is no scalar, or
    RecursionError for nodes nested hundreds deep (the caller then reads the file the slow way, which says
    where it is wrong)."""
    node = _plain_node(text)
    return None if node is None else _node_data(node)


# One line of the events list as the importer writes it: a flow mapping of plain keys, each with a
# double-quoted value (printable ASCII, no escape but \xHH) or a plain one of letters, digits and '_'
_EV_ITEM = r'[a-z_][a-z0-9_]*: (?:"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\x[0-9A-Fa-f]{2})*"|[0-9A-Za-z_]+)'
_EV_LINE = re.compile(r"  - \{(" + _EV_ITEM + r"(?:, " + _EV_ITEM + r")*)\}\n")
_EV_PAIR = re.compile(r'([a-z_][a-z0-9_]*): (?:"([^"]*)"|([0-9A-Za-z_]+))(?:, |$)')
_EV_HEX = re.compile(r"\\x([0-9A-Fa-f]{2})")


def _events_line(inner):
    """The mapping of one line that _EV_LINE matched (what YAML makes of it: the last of duplicate keys wins)."""
    ev = {}
    for m in _EV_PAIR.finditer(inner):
        q = m.group(2)
        ev[m.group(1)] = m.group(3) if q is None else \
            _EV_HEX.sub(lambda h: chr(int(h.group(1), 16)), q) if "\\" in q else q
    return ev


def _table_data(text):
    """_plain_data(text) of a catalogue data file, its events list read line by line where every line of it
    is as the importer writes it (_EV_LINE): the rest of the file (the events list replaced by []) is read
    as YAML, and its top-level key 'events' must be that line's, the only one, with that empty list;
    anything else and the whole file is read as YAML."""
    at = text.find("\nevents:\n") + 1
    if at <= 0:
        return _plain_data(text)
    end, events = at + len("events:\n"), []
    m = _EV_LINE.match(text, end)
    while m:
        events.append(_events_line(m.group(1)))
        end = m.end()
        m = _EV_LINE.match(text, end)
    if not events or not (end == len(text) or "a" <= text[end] <= "z"):
        return _plain_data(text)
    node = _plain_node(text[:at] + "events: []\n" + text[end:])
    if not isinstance(node, yaml.MappingNode):
        return _plain_data(text)
    line = text.count("\n", 0, at)
    keys = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == "events"]
    if len(keys) != 1 or (keys[0][0].start_mark.line, keys[0][0].start_mark.column) != (line, 0) or \
            not isinstance(keys[0][1], yaml.SequenceNode) or keys[0][1].value:
        return _plain_data(text)
    d = _node_data(node)
    d["events"] = events
    return d


def fast_table(raw, fn, fields, flags):
    """One data file read without line numbers (several times faster), or None when anything in it is not
    as it should be (the caller then reads it again to report where). A file with '&' or '*' could hold
    YAML anchors and aliases; the importer escapes those characters in strings, so its files never do."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(raw) > MAX_BYTES or "&" in text or "*" in text or "\0" in text:
        return None
    try:
        d = _table_data(text)
    except (yaml.YAMLError, TypeError, RecursionError):   # a key that is no scalar; nested too deep
        return None
    if not isinstance(d, dict) or not set(d) <= set(TABLE_KEYS) or \
            not {"table", "title", "pmu", "cpus", "events"} <= set(d):
        return None
    t = {k: d.get(k, "") for k in ("table", "title", "pmu", "source", "notice", "alias_source")}
    if not all(isinstance(x, str) for x in t.values()) or t["table"] + ".yaml" != fn:
        return None

    def num(x, hi):
        if not isinstance(x, str):
            return None
        if x.isascii() and x.isdigit() and (x[0] != "0" or len(x) == 1):   # decimal: what parse_int() makes of it
            v = int(x)
            return v if v <= hi else None
        v, _ = parse_int(x)
        return v if v is not None and 0 <= v <= hi else None

    def rng_(x, hi):
        if isinstance(x, list):
            if len(x) != 2:
                return None, None
            lo, h = num(x[0], hi), num(x[1], hi)
            return (lo, h) if lo is not None and h is not None and lo <= h else (None, None)
        v = num(x, hi)
        return v, v

    t["cpus"] = []
    cpus = d["cpus"]
    if cpus == "[]" or not isinstance(cpus, list):
        return None
    for c in cpus:
        if not isinstance(c, dict) or not {"family", "model"} <= set(c) or \
                not set(c) <= {"family", "model", "stepping", "core_type"}:
            return None
        fam = num(c["family"], 0xFFFF)
        mlo, mhi = rng_(c["model"], 255)
        slo, shi = rng_(c["stepping"], 15) if "stepping" in c else (0, 15)
        ct = num(c["core_type"], 255) if "core_type" in c else 0
        if None in (fam, mlo, slo, ct):
            return None
        t["cpus"].append((fam, mlo, mhi, slo, shi, ct, None))
    t["events"], seen, prev = [], {}, None
    if not isinstance(d["events"], list):
        return None
    for e in d["events"]:
        if not isinstance(e, dict):
            return None
        ev = {"value": 0, "counters": 0, "msr": 0, "msr_value": 0, "flags": 0, "brief": "", "node": None}
        for k, x in e.items():
            if k in ("name", "brief"):
                if not isinstance(x, str):
                    return None
                ev[k] = x
            elif k in ("counters", "msr_value", "msr"):
                v = num(x, (1 << 64) - 1 if k != "msr" else 0xFFFFFFFF)
                if v is None:
                    return None
                ev[k] = v
            elif k in fields:
                F = fields[k]
                v = num(x, (1 << F.width) - 1)
                if v is None:
                    return None
                ev["value"] |= place(F, v)
            elif k in flags:
                _, flo, fw, _ = flags[k]
                v = num(x, (1 << fw) - 1)
                if v is None:
                    return None
                ev["flags"] |= v << flo
            else:
                return None
        name = ev.get("name", "")
        key = name.lower()
        if not name or any(ch.isspace() for ch in name) or len(name) > 150 or key in seen or \
                (prev is not None and key < prev):
            return None
        seen[key] = 1
        prev = key
        t["events"].append(ev)
    t["aliases"] = []
    al = d.get("aliases", [])
    if not isinstance(al, list):
        return None
    for a in al:
        if not isinstance(a, dict) or set(a) != {"alias", "event"} or not isinstance(a["alias"], str) or \
                not isinstance(a["event"], str) or a["event"].lower() not in seen or a["alias"].lower() in seen:
            return None
        seen[a["alias"].lower()] = 1
        t["aliases"].append((a["alias"], a["event"]))
    t["aliases"].sort(key=lambda x: (x[0].lower(), x[0]))
    return t

def rng(b, node, what, hi):
    if isinstance(node, Seq):
        items = node.items
        if len(items) != 2:
            b.r.err(node, "PMR004", f"{what} must be a number or [lo, hi]")
            return None, None
        lo, h = b.r.integer(items[0], what, 0, hi), b.r.integer(items[1], what, 0, hi)
        if lo is not None and h is not None and lo > h:
            b.r.err(node, "PMR031", f"{what} range [{lo}, {h}] is empty")
            return None, None
        return lo, h
    x = b.r.integer(node, what, 0, hi)
    return x, x


def place(F, x):
    """Value x of field F (split fields: first part = most significant bits) placed in the register."""
    v = 0
    for hi, lo in reversed(F.parts):
        w = hi - lo + 1
        v |= (x & ((1 << w) - 1)) << lo
        x >>= w
    return v


# -- the catalogue header ----------------------------------------------------------------------------
class Pool:
    """Strings in chunks of CHUNK bytes (each at most CHUNK - 1 characters, the C99 limit of a string
    literal, plus its NUL); a string never crosses a chunk, equal strings are stored once."""

    def __init__(self, first_empty=True):
        self.chunks, self.cur, self.at = [], [], {}
        self.used = 0
        if first_empty:
            self.add("")

    def add(self, s):
        if s in self.at:
            return self.at[s]
        b = s.encode("utf-8")
        if len(b) + 1 > CHUNK - 1:
            raise ValueError(f"string too long for the pool: {s[:40]}...")
        if self.used + len(b) + 1 > CHUNK - 1:
            self.chunks.append(self.cur)
            self.cur, self.used = [], 0
        off = len(self.chunks) * CHUNK + self.used
        self.cur.append(b)
        self.used += len(b) + 1
        self.at[s] = off
        return off

    def c_chunks(self):
        out = []
        for ch in self.chunks + ([self.cur] if self.cur else []):
            lines, line, n = [], [], 0
            for b in ch:
                piece = '"' + cbytes(b) + '\\0"'
                line.append(piece)
                n += len(piece)                 # the line's pieces' length
                if n > 96:
                    lines.append(" ".join(line))
                    line, n = [], 0
            if line:
                lines.append(" ".join(line))
            out.append("\n\t\t".join(lines))
        return out

    def size(self):
        return (len(self.chunks) + (1 if self.cur else 0)) * CHUNK


def _cbyte(x):
    """The C string literal text of byte x."""
    ch = chr(x)
    if ch in '"\\':
        return "\\" + ch
    if ch == "?":
        return "\\?"               # no trigraphs
    if 32 <= x < 127:
        return ch
    return f"\\{x:03o}"


_CBYTES = tuple(_cbyte(x) for x in range(256))


def cbytes(b):
    return "".join(map(_CBYTES.__getitem__, b))


def name_hash(table, name):
    """pmregs_cat_hash() (base_catalog.h): FNV-1a over the lower-cased bytes, basis XOR the table index."""
    h = 2166136261 ^ table
    for b in name.encode("utf-8").lower():      # bytes.lower(): A-Z only, as pmregs_cat_hash() does
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


HASH_ROW = 1024     # PMREGS_CAT_HASH_ROW: two-byte slots per row of the name index


def hash_index(entries, nevents, naliases):
    """The open-addressed name index: a power of two of slots, at most two thirds full, each 0 (empty) or
    1 + the entry (events first, then aliases), placed by linear probing in entry order; none (a binary
    search) when an entry would not fit a two-byte slot."""
    if nevents + naliases + 1 > 0xFFFF:
        return []
    size = 1
    while 2 * size < 3 * (nevents + naliases):
        size *= 2
    slots = [0] * size
    for x, (ti, name) in enumerate(entries[0] + entries[1]):
        k = name_hash(ti, name) & (size - 1)
        while slots[k]:
            k = (k + 1) & (size - 1)
        slots[k] = x + 1
    return slots


def lit(x):
    """An unsigned constant for a uint64_t member: hex, with ULL when it needs more than 32 bits."""
    return f"{x:#x}" if x < (1 << 31) else f"{x:#x}ULL"


def u64(x):
    return f"PMREGS_U64({x:#x})"


def hash_rows(slots):
    """The name index as C string literals, a row of HASH_ROW two-byte slots (low byte first) each: one
    string per row instead of one initializer per slot, which the compiler reads many times faster."""
    rows = []
    for r in range(0, len(slots), HASH_ROW):
        esc = [f"\\{b:o}" for x in slots[r:r + HASH_ROW] for b in (x & 0xFF, x >> 8)]
        rows.append("\n\t\t".join('"' + "".join(esc[i:i + 32]) + '"' for i in range(0, len(esc), 32)))
    return rows or ['""']


def render_catalog(fam, C, spec_path, spec_sha, version):
    """{file name: text} of <pmregs/FAMILY_NAME.h>."""
    fn = f"pmregs_{fam.name}_{C.name}"
    pool, descs = Pool(), Pool()
    extras, extra_idx = [], {}
    tables, events, aliases, cpus = [], [], [], []
    term_of_msr = {}
    for i, t in enumerate(C.terms):
        for msr in t["msr"]:
            term_of_msr.setdefault(msr, i)
    names_of_entries = ([], [])     # (table index, name) of every event, of every alias
    for ti, t in enumerate(C.tables):
        first, first_alias = len(events), len(aliases)
        index = {}
        for ev in t["events"]:
            ex = 0xFFFF
            if ev["msr"]:
                key = (ev["msr"], ev["msr_value"])
                if key not in extra_idx:
                    extra_idx[key] = len(extras)
                    extras.append((ev["msr_value"], ev["msr"], term_of_msr.get(ev["msr"], 0xFFFF)))
                ex = extra_idx[key]
            index[ev["name"].lower()] = len(events)
            names_of_entries[0].append((ti, ev["name"]))
            events.append((ev["value"], ev["counters"], pool.add(ev["name"]), descs.add(ev["brief"]) if ev["brief"]
                           else 0, ex, ev["flags"]))
        for a, e in t["aliases"]:
            aliases.append((pool.add(a), index[e.lower()]))
            names_of_entries[1].append((ti, a))
        tables.append((pool.add(t["table"]), pool.add(t["title"]), pool.add(t["source"]), pool.add(t["pmu"]),
                       first, len(t["events"]), first_alias, len(t["aliases"])))
        for fam_, mlo, mhi, slo, shi, ct, _ in t["cpus"]:
            cpus.append((fam_, mlo, mhi, slo, shi, ct, ti))
    cpus.sort(key=lambda c: (c[0], c[1], c[3], -c[5]))
    hashed = hash_index(names_of_entries, len(events), len(aliases))
    perf_mask = 0
    for t in C.terms:
        for lo, w in t["parts"]:
            if t["word"] == 0:
                perf_mask |= ((1 << w) - 1) << lo
    priv = {k: (C.priv[k].mask if k in C.priv else 0) for k in PRIV_KEYS}
    notices = sorted({t["notice"] for t in C.tables if t["notice"]})
    lic = "MIT OR GPL-2.0-only" if not C.licence else f"(MIT OR GPL-2.0-only) AND {C.licence}"
    L = []
    w = L.append
    w(f"/* SPDX-License-Identifier: {lic} */")
    w(f"/* Generated by pmregs-gen {version} from {spec_path} (sha256 {spec_sha}) and the catalogue data")
    for path, sha in C.files:
        w(f" *   {os.path.relpath(path, os.path.dirname(os.path.dirname(C.dir)))} (sha256 {sha})")
    w(" * Do not edit: change the data (or re-import it) and run make. */")
    w("/*")
    w(f" * pmregs/{fam.name}_{C.name}.h - {comment_text(C.title or C.name)}")
    w(" *")
    for line in (C.doc or "").strip().splitlines():
        w((" * " + comment_text(line)).rstrip())
    if C.source:
        w(" *")
        w(f" * Source: {comment_text(C.source)}")
    for n in notices:
        w(" *")
        w(f" * The event data is {C.licence}; its notice:")
        w(" *")
        for line in n.splitlines():
            w((" *   " + comment_text(line)).rstrip())
    w(" */")
    guard = f"PMREGS_{fam.name.upper()}_{C.name.upper()}_H"
    w(f"#ifndef {guard}")
    w(f"#define {guard}")
    w("")
    w('#include "base_catalog_parse.h"')
    w("")
    w("#ifndef __ASSEMBLER__")
    w("PMREGS_C_BEGIN")
    w("")
    w("PMREGS_CAT_DATA_BEGIN")
    w(f"/* {comment_text(C.title or C.name)}: {len(tables)} tables, {len(events)} events, {len(aliases)} aliases. */")
    w(f"static inline const struct pmregs_catalog *{fn}(void)")
    w("{")
    w("\tstatic const char pool[][PMREGS_CAT_CHUNK] = {")
    w(",\n".join("\t\t" + c for c in pool.c_chunks()))
    w("\t};")
    w("#ifndef PMREGS_NO_DESCRIPTIONS")
    w("\tstatic const char descs[][PMREGS_CAT_CHUNK] = {")
    w(",\n".join("\t\t" + c for c in descs.c_chunks()))
    w("\t};")
    w("#else")
    w('\tstatic const char descs[][PMREGS_CAT_CHUNK] = {""};')
    w("#endif")
    w("\tstatic const struct pmregs_cat_table tables[] = {")
    for tb in tables:
        w("\t\t{" + ", ".join(str(x) for x in tb) + "},")
    w("\t};")
    w("\tstatic const struct pmregs_cat_event events[] = {")
    # plain constants (C99 long long): no macro to expand per row; the offsets unsigned like their
    # members (no conversion to fold); no zero tail (PMREGS_CAT_DATA_BEGIN)
    for v, cnt, nm, ds, ex, fl in events:
        w(f"\t\t{{{lit(v)}, {lit(cnt)}, {nm}u, {ds}u, {ex:#x}, {fl:#x}}},")
    w("\t};")
    w("\tstatic const struct pmregs_cat_alias aliases[] = {")
    for nm, ei in aliases or [(0, 0)]:
        w(f"\t\t{{{nm}, {ei}}},")
    w("\t};")
    w("\tstatic const struct pmregs_cat_extra extras[] = {")
    for v, msr, term in extras or [(0, 0, 0xFFFF)]:
        w(f"\t\t{{{lit(v)}, {msr:#x}, {term:#x}}},")
    w("\t};")
    w("\tstatic const struct pmregs_cat_cpu cpus[] = {")
    for fam_, mlo, mhi, slo, shi, ct, ti in cpus:  # struct pmregs_cat_cpu's member order
        w(f"\t\t{{{fam_}, {ti}, {mlo:#x}, {mhi:#x}, {slo}, {shi}, {ct:#x}}},")
    w("\t};")
    w("\tstatic const struct pmregs_cat_term terms[] = {")
    for t in C.terms:
        parts = t["parts"] + [(0, 0)] * (4 - len(t["parts"]))
        msr = t["msr"] + [0] * (2 - len(t["msr"]))
        w(f'\t\t{{"{t["name"]}", "{t["pfm"]}", {{{", ".join(f"{x:#x}" for x in msr)}}}, {t["word"]}, '
          f'{len(t["parts"])}, {{{", ".join(str(p[0]) for p in parts)}}}, '
          f'{{{", ".join(str(p[1]) for p in parts)}}}}},')
    w("\t};")
    w("\tstatic const unsigned char hash[][2 * PMREGS_CAT_HASH_ROW + 1] = {")
    w(",\n".join("\t\t" + r for r in hash_rows(hashed)))
    w("\t};")
    w("\tstatic const struct pmregs_cat_flag flags[] = {")
    for name, lo, width, doc in C.flags or [("", 0, 0, "")]:
        w(f'\t\t{{"{name}", "{cbytes(doc.encode())}", {lo}, {width}}},')
    w("\t};")
    notice = notices[0] if notices else ""
    w("\tstatic const struct pmregs_catalog cat = {")
    w(f'\t\t"{fam.name} {C.name}", "{cbytes((C.title or C.name).encode())}", "{cbytes(fam.vendor.encode())}",')
    w(f'\t\t"{cbytes(C.source.encode())}", "{C.licence}",')
    w("\t\t" + ('"' + cbytes(notice.encode()).replace("\n", "\\n\"\n\t\t\"") + '"' if notice else '""') + ",")
    w(f'\t\t"{fam.name}", "{C.layout.name}",')
    w("\t\tpool, sizeof pool / sizeof pool[0],")
    w("#ifndef PMREGS_NO_DESCRIPTIONS")
    w("\t\tdescs, sizeof descs / sizeof descs[0],")
    w("#else")
    w("\t\tdescs, 0,")
    w("#endif")
    w(f"\t\ttables, {len(tables)}, events, {len(events)}, aliases, {len(aliases)}, extras, {len(extras)},")
    w(f"\t\tcpus, {len(cpus)}, terms, {len(C.terms)}, flags, {len(C.flags)},")
    w(f"\t\thash, {len(hashed)},")
    w(f'\t\t"{C.vendor_id}", {u64(priv["user"])}, {u64(priv["kernel"])}, {u64(priv["host"])}, {u64(priv["guest"])},')
    w(f"\t\t{u64(priv['enable'])}, {u64(priv['int'])}, {u64(perf_mask)}")
    w("\t};")
    w("\treturn &cat;")
    w("}")
    w("PMREGS_CAT_DATA_END")
    w("")
    w("PMREGS_C_END")
    w("#endif /* !__ASSEMBLER__ */")
    w(f"#endif /* {guard} */")
    return {f"{fam.name}_{C.name}.h": "\n".join(L) + "\n"}
