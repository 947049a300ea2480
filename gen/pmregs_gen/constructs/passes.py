# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The `passes` construct: program several events at once, in as few passes as possible.

A family whose counters take their event from selector fields of shared control
registers (PowerPC MMCR0/MMCR1: PMC1SEL and PMC2SEL live in the same word)
describes here, as data, how a list of events becomes the control-register
values of one or more passes, and how those values read back as events:

    passes:
      pm:
        model: cpu                          # enum of CPU models
        models: [ppc604, ppc604e]           # the models it serves
        registers:                          # control registers of a pass, in slot order
          - {name: mmcr0}
          - {name: mmcr1, models: [ppc604e]}
        events:                             # the event table and its columns
          table: events
          code: code                        # selector value
          counters: counters                # set(<counter enum>): the counters that can count it
          models: models                    # set(<model enum>): the models that have it
          idle: nothing                     # optional: the row that counts nothing
          threshold: threshold              # optional bool column: the event uses the threshold
        counters:                           # exclusive resources, named by the counter enum
          - {name: pmc1, select: mmcr0.pmc1sel, interrupt: mmcr0.pmc1ce, models: [...]}
        overflow_at: 0x80000000             # optional: a counter interrupts from this value on
        interrupt: mmcr0.pmxe               # optional: master interrupt enable
        trigger: {counter: pmc1, enable: mmcr0.trigger}              # optional
        threshold: {field: ..., table: ..., model: <column>, scale: <column>}   # optional
        interval: {field: ..., table: ..., value: <col>, period_log2: <col>,
                   interrupt_ok: <col>, enable: <field>}             # optional

Every option (event e on counter c) is computed here: its model mask, its
resources and the field write that selects it. The header gets those as
constant tables plus typed encode/decode functions (templates/passes.h.j2);
the search itself is the family-independent pmregs_pm_plan() in base.h.
"""

from ..core import SET_RE, field_value, mask_of
from ..ctext import member, packed_struct, struct_shape
from ..mdtext import md, md_par
from ..yamlnode import Map


class Passes:
    def __init__(self, name, node):
        self.name, self.node = name, node
        self.title = self.doc = self.source = ""
        self.model_enum = None
        self.models = 0
        self.slots = []           # [(Register, models mask)]
        self.table = None
        self.cols = {}            # role -> Column
        self.idle = None          # row index
        self.counters = []        # [dict(name, value, select, interrupt, models)]
        self.overflow_at = None
        self.interrupt = None     # (slot, Layout, Field)
        self.trigger = None       # (counter index, (slot, Layout, Field))
        self.threshold = None     # dict(field, scales{model value: scale})
        self.interval = None      # dict(field, enable, rows[(name, value, log2, ok)])


def build_passes(b, node):
    """Read the `passes` section with Builder b; errors go to b.diag."""
    r = b.r
    m = r.mapping(node, "passes")
    for k, v in (m.pairs if m else []):
        name = b.top_name(k, k.text, "passes construct")
        pm = r.mapping(v, f"passes '{k.text}'")
        if name is None or pm is None:
            continue
        P = _Reader(b, name, k, pm).read()
        if P is not None:
            b.fam.passes.append(P)


class _Reader:
    def __init__(self, b, name, k, m):
        self.b, self.r, self.fam = b, b.r, b.fam
        self.name, self.k, self.m = name, k, m
        self.P = Passes(name, k)

    def err(self, node, code, msg):
        return self.r.err(node, code, f"passes '{self.name}': {msg}")

    def read(self):
        r, m, P = self.r, self.m, self.P
        if not r.keys(m, f"passes '{self.name}'",
                      required=("model", "models", "registers", "events", "counters"),
                      optional=("title", "doc", "source", "overflow_at", "interrupt", "trigger", "threshold",
                                "interval")):
            return None
        self.b.common(P, m, "passes")
        before = len(self.b.diag.errors)
        en = r.text(m.get("model"), "model")
        P.model_enum = self.fam.enum(en) if en else None
        if P.model_enum is None:
            return self.err(m.get("model"), "PMR030", f"model enum '{en}' is not defined")
        if any(vv >= 32 for _, vv, _ in P.model_enum.values):
            return self.err(m.get("model"), "PMR120", f"model enum '{en}' has a value of 32 or more")
        P.models = self.enum_set(m.get("models"), P.model_enum, "models")
        for item in r.seq(m.get("registers"), "registers") or []:
            self.slot(item)
        if len({R.layout.width for R, _ in P.slots}) > 1:
            self.err(m.get("registers"), "PMR121", "the registers of one pass must all have the same width")
        if len(self.b.diag.errors) > before:
            return None
        self.events(m.get("events"))
        if len(self.b.diag.errors) > before:
            return None
        for item in r.seq(m.get("counters"), "counters") or []:
            self.counter(item)
        if len(self.b.diag.errors) > before:
            return None
        if len(P.counters) > 32:
            return self.err(m.get("counters"), "PMR120", "at most 32 counters")
        if m.get("overflow_at") is not None:
            P.overflow_at = r.integer(m.get("overflow_at"), "overflow_at", 1, mask_of(64))
        if m.get("interrupt") is not None:
            P.interrupt = self.field(m.get("interrupt"))
        if m.get("trigger") is not None:
            if P.overflow_at is None:
                self.err(m.get("trigger"), "PMR120", "a trigger needs 'overflow_at' (the counter is preloaded)")
            self.trigger(m.get("trigger"))
        if m.get("threshold") is not None:
            self.threshold(m.get("threshold"))
        if m.get("interval") is not None:
            self.interval(m.get("interval"))
        if len(self.b.diag.errors) > before:
            return None
        self.check_events()
        return P if len(self.b.diag.errors) == before else None

    # -- pieces ---------------------------------------------------------------------------
    def enum_set(self, node, E, what):
        items = self.r.seq(node, what)
        mask = 0
        for it in items or []:
            n = self.r.text(it, what)
            hit = [vv for vn, vv, _ in E.values if vn == n]
            if n is not None and not hit:
                self.err(it, "PMR031", f"'{n}' is not a value of enum '{E.name}'")
            elif hit:
                mask |= 1 << hit[0]
        return mask

    def slot(self, item):
        r, P = self.r, self.P
        sm = r.mapping(item, "a pass register")
        if sm is None or not r.keys(sm, "a pass register", required=("name",), optional=("models",)):
            return
        rn = r.text(sm.get("name"), "register")
        R = next((x for x in self.fam.registers if x.name == rn), None)
        if R is None or R.layout is None:
            return self.err(sm.get("name"), "PMR030", f"'{rn}' is not a register with a layout")
        if any(x is R for x, _ in P.slots):
            return self.err(sm.get("name"), "PMR021", f"register '{rn}' is listed twice")
        models = self.enum_set(sm.get("models"), P.model_enum, "models") if sm.get("models") is not None else P.models
        P.slots.append((R, models))

    def field(self, node):
        """'register.field' of one of the slots -> (slot index, Layout, Field)."""
        t = self.r.text(node, "field reference")
        if t is None:
            return None
        rn, _, fn = t.partition(".")
        for i, (R, _) in enumerate(self.P.slots):
            if R.name == rn:
                F = R.layout.field(fn)
                if F is None or F.is_reserved:
                    return self.err(node, "PMR030", f"'{fn}' is not a settable field of register '{rn}'"
                                    f" (layout '{R.layout.name}')")
                return (i, R.layout, F)
        return self.err(node, "PMR030", f"'{t}' is not register.field of one of this construct's registers")

    def column(self, T, node, what, kinds):
        cn = self.r.text(node, what)
        C = next((c for c in T.columns if c.name == cn), None)
        if C is None:
            return self.err(node, "PMR030", f"table '{T.name}' has no column '{cn}'")
        if not kinds(C):
            return self.err(node, "PMR120", f"column '{T.name}.{cn}' has type '{C.type}', unsuitable as {what}")
        return C

    def table(self, node):
        tn = self.r.text(node, "table")
        T = next((t for t in self.fam.tables if t.name == tn), None)
        if T is None:
            return self.err(node, "PMR030", f"table '{tn}' is not defined")
        return T

    def events(self, node):
        r, P = self.r, self.P
        em = r.mapping(node, "events")
        if em is None or not r.keys(em, "events", required=("table", "code", "counters", "models"),
                                    optional=("idle", "threshold")):
            return
        P.table = self.table(em.get("table"))
        if P.table is None:
            return
        T = P.table
        P.cols["code"] = self.column(T, em.get("code"), "code", lambda c: c.type in ("u8", "u16", "u32", "u64"))
        P.cols["counters"] = self.column(T, em.get("counters"), "counters", lambda c: bool(SET_RE.match(c.type)))
        P.cols["models"] = self.column(T, em.get("models"), "models",
                                       lambda c: c.type == f"set({P.model_enum.name})")
        if em.get("threshold") is not None:
            P.cols["threshold"] = self.column(T, em.get("threshold"), "threshold", lambda c: c.type == "bool")
        if em.get("idle") is not None:
            idle = r.text(em.get("idle"), "idle")
            names = [row[0] for row in T.rows]
            if idle not in names:
                return self.err(em.get("idle"), "PMR030", f"idle event '{idle}' is not a row of table '{T.name}'")
            P.idle = names.index(idle)
        if P.cols.get("counters") is not None:
            P.counter_enum = self.fam.enum(SET_RE.match(P.cols["counters"].type).group(1))

    def counter(self, item):
        r, P = self.r, self.P
        cm = r.mapping(item, "a counter")
        if cm is None or not r.keys(cm, "a counter", required=("name", "select"), optional=("interrupt", "models")):
            return
        cn = r.text(cm.get("name"), "counter name")
        hit = [vv for vn, vv, _ in P.counter_enum.values if vn == cn]
        if not hit:
            return self.err(cm.get("name"), "PMR031", f"counter '{cn}' is not a value of enum '{P.counter_enum.name}'")
        if any(c["name"] == cn for c in P.counters):
            return self.err(cm.get("name"), "PMR021", f"counter '{cn}' is listed twice")
        sel = self.field(cm.get("select"))
        intr = self.field(cm.get("interrupt")) if cm.get("interrupt") is not None else None
        models = self.enum_set(cm.get("models"), P.model_enum, "models") if cm.get("models") is not None else P.models
        if sel is not None:
            P.counters.append({"name": cn, "value": hit[0], "select": sel, "interrupt": intr,
                               "models": models & P.models, "node": cm.get("name")})

    def trigger(self, node):
        r, P = self.r, self.P
        tm = r.mapping(node, "trigger")
        if tm is None or not r.keys(tm, "trigger", required=("counter", "enable")):
            return
        cn = r.text(tm.get("counter"), "counter")
        idx = next((i for i, c in enumerate(P.counters) if c["name"] == cn), None)
        if idx is None:
            return self.err(tm.get("counter"), "PMR030", f"trigger counter '{cn}' is not one of the counters")
        en = self.field(tm.get("enable"))
        if en is not None:
            P.trigger = (idx, en)

    def threshold(self, node):
        r, P = self.r, self.P
        tm = r.mapping(node, "threshold")
        if tm is None or not r.keys(tm, "threshold", required=("field", "table", "model", "scale")):
            return
        fld = self.field(tm.get("field"))
        T = self.table(tm.get("table"))
        if fld is None or T is None:
            return
        mc = self.column(T, tm.get("model"), "model", lambda c: c.type == "enum" and c.enum is P.model_enum)
        sc = self.column(T, tm.get("scale"), "scale", lambda c: c.type in ("u8", "u16", "u32"))
        if mc is None or sc is None:
            return
        scales = {}
        for rn, _, _, vals, rnode in T.rows:
            scales[vals[mc.name]] = vals[sc.name]
        missing = [vn for vn, vv, _ in P.model_enum.values if (P.models >> vv) & 1 and not scales.get(vv)]
        if missing:
            return self.err(tm.get("table"), "PMR120", f"table '{T.name}' gives no nonzero scale for model '{missing[0]}'")
        P.threshold = {"field": fld, "scales": scales}

    def interval(self, node):
        r, P = self.r, self.P
        im = r.mapping(node, "interval")
        if im is None or not r.keys(im, "interval", required=("field", "table", "value", "period_log2"),
                                    optional=("interrupt_ok", "enable")):
            return
        fld = self.field(im.get("field"))
        T = self.table(im.get("table"))
        if fld is None or T is None:
            return
        ints = lambda c: c.type in ("u8", "u16", "u32", "u64")   # noqa: E731
        vc = self.column(T, im.get("value"), "value", ints)
        lc = self.column(T, im.get("period_log2"), "period_log2", ints)
        oc = (self.column(T, im.get("interrupt_ok"), "interrupt_ok", lambda c: c.type == "bool")
              if im.get("interrupt_ok") is not None else None)
        en = self.field(im.get("enable")) if im.get("enable") is not None else None
        if vc is None or lc is None:
            return
        rows = []
        for rn, _, _, vals, rnode in T.rows:
            if vals[vc.name] > mask_of(fld[2].width):
                return self.err(rnode, "PMR120", f"value {vals[vc.name]} of row '{rn}' does not fit field '{fld[2].name}'")
            if vals[lc.name] > 63:
                return self.err(rnode, "PMR120", f"period_log2 {vals[lc.name]} of row '{rn}' is above 63")
            rows.append((rn, vals[vc.name], vals[lc.name], bool(vals[oc.name]) if oc else True))
        if not rows:
            return self.err(im.get("table"), "PMR120", f"table '{T.name}' has no rows")
        P.interval = {"field": fld, "enable": en, "rows": rows}

    def check_events(self):
        P = self.P
        by_value = {c["value"]: (i, c) for i, c in enumerate(P.counters)}
        for rn, _, _, vals, rnode in P.table.rows:
            cset = vals[P.cols["counters"].name]
            code = vals[P.cols["code"].name]
            for v in range(64):
                if not (cset >> v) & 1:
                    continue
                if v not in by_value:
                    cname = next(vn for vn, vv, _ in P.counter_enum.values if vv == v)
                    self.err(rnode, "PMR120", f"event '{rn}' can be counted on '{cname}', which is not one of"
                             " the counters")
                    continue
                F = by_value[v][1]["select"][2]
                if code > mask_of(F.width):
                    self.err(rnode, "PMR120", f"code {code:#x} of event '{rn}' does not fit the {F.width}-bit"
                             f" select field '{F.name}' of counter '{by_value[v][1]['name']}'")


# -- the view the template renders ---------------------------------------------------------

def passes_view(hv, P):
    """Everything passes.h.j2 needs for construct P; hv is the HeaderView (names, symbols)."""
    n, fam = hv.n, hv.fam
    W = P.slots[0][0].layout.width
    T = f"uint{W}_t"
    S = lambda name, what="": hv.sym.add(name, P.node, f"passes '{P.name}'" + what)   # noqa: E731
    base = n.fn(P.name)
    BASE = n.mac(P.name)
    ulit = lambda x: f"PMREGS_U{max(W, 32)}({x:#x})" if W >= 32 else f"{x:#x}u"   # noqa: E731

    def fref(f):
        slot, L, F = f
        return {"slot": slot, "fset": n.accessor(L, F, "set"), "fget": n.accessor(L, F, "get"),
                "mask": field_value(F, mask_of(F.width)), "full": mask_of(F.width), "name": F.name,
                "width": F.width}

    slots = [{"name": R.name, "index": i, "models": models,
              "macro": S(n.mac(P.name, "slot", R.name)), "title": R.title or R.name}
             for i, (R, models) in enumerate(P.slots)]
    counters, writes, options, first = [], [], [], []
    # The encoder owns the must-be-0 and must-be-1 bits too: a pass is always a valid register value.
    owned = [R.layout.rsvd_mask | R.layout.res1_mask for R, _ in P.slots]
    for c in P.counters:
        owned[c["select"][0]] |= c["select"][2].mask
    intr_writes = []
    for ci, c in enumerate(P.counters):
        iw = -1
        if c["interrupt"] is not None:
            slot, _, F = c["interrupt"]
            owned[slot] |= F.mask
            iw = len(intr_writes)
            intr_writes.append((slot, F.mask, F.mask))
        counters.append({"name": c["name"], "index": ci, "models": c["models"], "interrupt": iw,
                         "macro": S(n.mac(P.name, "counter", c["name"]))})
    rows = P.table.rows
    col = {k: (C.name if C is not None else None) for k, C in P.cols.items()}
    by_value = {c["value"]: i for i, c in enumerate(P.counters)}
    for ei, (rn, _, _, vals, _) in enumerate(rows):
        first.append(len(options))
        cset, code, emodels = vals[col["counters"]], vals[col["code"]], vals[col["models"]]
        for v in sorted(by_value):
            if not (cset >> v) & 1:
                continue
            ci = by_value[v]
            slot, _, F = P.counters[ci]["select"]
            options.append({"event": ei, "counter": ci, "nwrites": 1, "first_write": len(writes),
                            "models": emodels & P.counters[ci]["models"] & P.models, "resources": 1 << ci})
            writes.append((slot, F.mask, field_value(F, code)))
    first.append(len(options))
    # Decoding index: for a contiguous select field of at most 8 bits, selector value -> first option.
    lut, lut_first, lut_slot, lut_shift, lut_mask = [], [], [], [], []
    for ci, c in enumerate(P.counters):
        slot, _, F = c["select"]
        lut_first.append(len(lut))
        if not F.contiguous or F.width > 8:
            lut_slot.append(0), lut_shift.append(0), lut_mask.append(0)
            continue
        t = [-1] * (1 << F.width)
        for oi, o in enumerate(options):
            code = writes[o["first_write"]][2] >> F.shift
            if o["counter"] == ci and t[code] < 0:
                t[code] = oi
        lut += t
        lut_slot.append(slot), lut_shift.append(F.shift), lut_mask.append(mask_of(F.width))
    # the interrupt-enable writes follow the option writes
    intr_base = len(writes)
    writes += intr_writes
    for c in counters:
        if c["interrupt"] >= 0:
            c["interrupt"] += intr_base
    view = {
        "P": P, "name": P.name, "title": P.title or P.name, "doc": P.doc, "source": P.source,
        "T": T, "W": W, "u": ulit, "base": base, "BASE": BASE,
        "model_type": n.enum_type(P.model_enum), "models": P.models,
        "model_names": [(vn, vv) for vn, vv, _ in P.model_enum.values if (P.models >> vv) & 1],
        "nmodel_values": max(vv for _, vv, _ in P.model_enum.values) + 1,
        "slots": slots, "counters": counters, "writes": writes, "options": options, "first": first,
        "nevents": len(rows), "table_fn": n.table_fn(P.table), "table_struct": f"struct {n.table_fn(P.table, 'row')}",
        "event_names": [row[0] for row in rows],
        "idle": P.idle, "overflow_at": P.overflow_at,
        "threshold_col": col.get("threshold"),
        "uses_threshold": threshold_words(rows, col.get("threshold")),
        "interrupt": fref(P.interrupt) if P.interrupt else None,
        "trigger": None, "threshold": None, "interval": None,
    }
    if P.interrupt:
        owned[P.interrupt[0]] |= P.interrupt[2].mask
    if P.trigger:
        ci, en = P.trigger
        owned[en[0]] |= en[2].mask
        view["trigger"] = {"counter": ci, "enable": fref(en)}
    if P.threshold:
        f = P.threshold["field"]
        owned[f[0]] |= f[2].mask
        view["threshold"] = {"field": fref(f),
                             "scales": [P.threshold["scales"].get(v, 0) if (P.models >> v) & 1 else 0
                                        for v in range(view["nmodel_values"])]}
    if P.interval:
        f, en = P.interval["field"], P.interval["enable"]
        owned[f[0]] |= f[2].mask
        if en:
            owned[en[0]] |= en[2].mask
        view["interval"] = {"field": fref(f), "enable": fref(en) if en else None, "rows": P.interval["rows"],
                            "macros": [(S(n.mac(P.name, "interval", rn)), i) for i, (rn, _, _, _) in
                                       enumerate(P.interval["rows"])]}
    view.update(structs(view, P.overflow_at))
    view["owned"] = owned
    view["lut"] = {"table": lut or [-1], "first": lut_first, "slot": lut_slot, "shift": lut_shift, "mask": lut_mask,
                   "all": all(lut_mask)}
    view["res1"] = [R.layout.res1_mask for R, _ in P.slots]
    view["all_counters"] = (1 << len(counters)) - 1
    view["irq_counters"] = sum(1 << c["index"] for c in counters if c["interrupt"] >= 0)
    for suffix in ("request", "pass", "encoding", "decoded", "table", "request_init", "encode", "decode",
                   "event", "threshold", "slot_present", "put"):
        S(n.fn(P.name, suffix))
    for suffix in ("nslots", "ncounters", "nevents", "max_events", "max_passes", "none", "approx_threshold",
                   "approx_interval", "no_interval", "lost_trigger", "lost_correlate", "lost_sample",
                   "threshold_unused"):
        S(n.mac(P.name, suffix))
    return view


# PMREGS_SCHED_MAX (base_schedule.h): the length of the per-event and per-pass arrays
SCHED_MAX = 64
# struct pmregs_pm_place (base_plan.h): two int16_t
PLACE_ALIGN, PLACE_SIZE = 2, 4


def structs(view, overflow_at):
    """The members of the request, pass, encoding and decoded structs of view, each list ordered widest
    first and padded at its end by packed_struct() (a struct without implicit padding):
    {"request_members", "pass_members", "encoding_members", "decoded_members"}."""
    B, M, T = view["base"], view["BASE"], view["T"] + " "
    nslots, ncounters = len(view["slots"]), len(view["counters"])
    none = f"{M}_NONE"
    slots = ("slot", nslots, f"{M}_NSLOTS")
    ctrs = ("counter", ncounters, f"{M}_NCOUNTERS")
    evs = ("event", SCHED_MAX, f"{M}_MAX_EVENTS")

    def arr(decl, name, doc, n, **kw):
        return member(decl, name, doc, n[1], n[2], **kw)

    rq = [member(view["model_type"] + " ", "model", "the CPU model"),
          member("unsigned ", "nevents", "events[0 .. nevents) are counted, each in some pass"),
          arr("uint16_t ", "events", "", evs),
          member("int ", "correlate", f"event counted in every pass, or {none}")]
    if overflow_at:
        rq += [member("int ", "sample", f"event whose counter interrupts every sample_period events, or {none}"),
               member("uint64_t ", "sample_period", f"1 .. {overflow_at:#x}")]
    if view["trigger"]:
        rq += [member("int ", "trigger", f"event that must occur trigger_count times before the other counters "
                      f"count, or {none}"),
               member("uint64_t ", "trigger_count", f"1 .. {overflow_at:#x}" if overflow_at else "")]
    if view["threshold"]:
        rq += [member("int ", "threshold_on", "program the threshold"),
               member("uint32_t ", "threshold_cycles")]
    if view["interval"]:
        rq += [member("uint64_t ", "interval_ticks", "time between interval events, in ticks (0: none)"),
               member("int ", "interval_interrupt", "signal an interrupt at each one")]
    rq.append(arr(T, "base", "other control bits, copied into every pass; the encoder's fields and reserved "
                  "bits are replaced", slots))
    ps = [arr(T, "regs", "control-register values, by slot", slots),
          arr("uint64_t ", "preload", "value to load into each counter before the pass", ctrs),
          arr("int16_t ", "event", f"event counted on each counter, or {none}", ctrs)]
    ps, _ = packed_struct(ps, [])
    pass_align, pass_size = struct_shape(ps)
    enc = [member("int ", "npasses", f"passes used (also returned by {B}_encode)"),
           member("int ", "minimal", "1: proved to be the fewest passes"),
           member("unsigned ", "counted", "requested events that are counted"),
           member("unsigned ", "notes", f"{M}_APPROX_* / _NO_* / _LOST_* bits"),
           arr("struct pmregs_pm_place ", "where", "per requested event: .pass, or PMREGS_PM_NOT_COUNTED", evs,
               align=PLACE_ALIGN, size=PLACE_SIZE),
           arr("int16_t ", "counter", f"per requested event: its counter, or {none}", evs),
           member("int16_t ", "correlate_counter", f"counter of the pinned events, or {none}"),
           member("int16_t ", "sample_counter"),
           member("int16_t ", "trigger_counter"),
           member("uint32_t ", "threshold_value", "value of the threshold field"),
           member("uint32_t ", "threshold_cycles", "the cycles it stands for on this model"),
           member("int ", "interval", f"row of the interval table programmed, or {none}"),
           member("uint64_t ", "interval_ticks", "its period in ticks"),
           member(f"struct {B}_pass ", "pass", "", SCHED_MAX, f"{M}_MAX_PASSES", align=pass_align, size=pass_size)]
    dec = [arr("int ", "event", f"event on each counter; {none}: idle or absent; PMREGS_ENOENT: no event of "
               "this model", ctrs),
           member("unsigned ", "nevents", "the generic list: every counted event but the trigger"),
           arr("uint16_t ", "events", "", ctrs),
           member("int ", "trigger", f"the trigger counter's event when the trigger is on, else {none}"),
           member("uint32_t ", "interrupts", "bit c: counter c going past its overflow point signals an interrupt"),
           member("uint32_t ", "threshold_value"),
           member("uint32_t ", "threshold_cycles"),
           member("int ", "interval", f"row of the interval table the select field names, or {none}"),
           member("uint64_t ", "interval_ticks"),
           member("int ", "interval_interrupt")]
    return {"request_members": packed_struct(rq, [])[0], "pass_members": ps,
            "encoding_members": packed_struct(enc, [])[0], "decoded_members": packed_struct(dec, [])[0]}


# -- construct interface (constructs/__init__.py) -----------------------------------------------
NAME = "passes"
KEYS = ("passes",)
HEADER, SELFTEST, PAGE = "passes.h.j2", "passes_selftest.c.j2", "passes.md.j2"
CONTENTS = (("Passes", "passes"),)


def threshold_words(rows, column):
    """Bit e % 32 of word e / 32: event row e uses the threshold (a bit set, not a byte per event: less text
    for every translation unit to parse)."""
    words = [0] * ((len(rows) + 31) // 32)
    for e, row in enumerate(rows):
        if column and row[3].get(column):
            words[e // 32] |= 1 << (e % 32)
    return [f"{w:#x}u" for w in words]


def load(b, m):
    if m.get("passes") is not None:
        build_passes(b, m.get("passes"))
        b.diag.check()


def view(hv):
    hv.passes = [passes_view(hv, P) for P in hv.fam.passes]
    if hv.passes:
        hv.uses |= {"base_plan.h", "base_counter.h"}
        hv.tools_uses |= {"base_plan_tools.h"}      # the decoder's matching


def page(pv):
    pv.passes = [{"name": P.name, "title": P.title or P.name, "doc": md_par(P.doc), "source": md(P.source),
                  "registers": [R.name for R, _ in P.slots],
                  "counters": [c["name"] for c in P.counters],
                  "table": P.table.name if P.table else ""} for P in pv.fam.passes]
