/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A naive transliteration of the E-Trace specification's encoder flowchart
 * (chapter "Reference Compressed Branch Trace Algorithm", figure "Instruction
 * delta trace algorithm"), for the tests (the encoder must give the same
 * packets) and the benchmark (the ratio against it): single retirement, one
 * instruction per call, the options of the baseline algorithm (delta or full
 * addresses, resynchronisation counted in packets), with the readings that
 * <pmregs/etrace_encoder.h> documents (a trap without retirement is an
 * element of its own and never reported as an instruction; a report by
 * falling through of an instruction that already retired since the last
 * branch restarts the trace). Written as the flowchart reads, diamond by
 * diamond, one packet struct per decision, no attention to speed.
 */
#ifndef PMREGS_TEST_ETRACE_NAIVE_ENCODER_H
#define PMREGS_TEST_ETRACE_NAIVE_ENCODER_H
#include <string.h>
#include <pmregs/etrace_encoder.h>

#define NAIVE_OUT 40000

struct naive_el {
	int valid, exc_only, qualified, notify, blktrap, interrupt;
	uint64_t addr, cause, tval, context;
	unsigned itype, priv, ctype, size;
};

struct naive_enc {
	struct pmregs_etrace_params p;
	int full;
	unsigned resync_max;
	struct naive_el prev, curr, next;
	uint64_t last_addr;
	unsigned branches;
	uint32_t map;
	unsigned resync_count, resync_state;
	int traced, reported, inferred;
	uint64_t hist[32];
	unsigned nhist, hist_over;
	struct pmregs_etrace_te_inst out[NAIVE_OUT];
	size_t n;
};

static inline void naive_push(struct naive_enc *e, const struct pmregs_etrace_te_inst *t, int sync)
{
	if (e->n < NAIVE_OUT)
		e->out[e->n++] = *t;
	if (sync) {
		e->resync_count = 0;
		e->resync_state = 1;
		return;
	}
	if (e->resync_state == 2)
		e->resync_state = 3;
	if (e->resync_max) {
		e->resync_count++;
		if (e->resync_state == 1 && e->resync_count >= e->resync_max)
			e->resync_state = 2;
	}
}

static inline void naive_support(struct naive_enc *e, unsigned qual, unsigned ienable)
{
	struct pmregs_etrace_te_inst t;
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	t.ienable = (uint8_t)ienable;
	t.qual_status = (uint8_t)qual;
	t.ioptions = e->full ? PMREGS_ETRACE_IOPTIONS_REF_FULL_ADDRESS_MASK : 0;
	naive_push(e, &t, 0);
}

static inline void naive_init(struct naive_enc *e, const struct pmregs_etrace_params *p, int full, unsigned resync_max)
{
	memset(e, 0, sizeof *e);
	e->p = *p;
	e->full = full;
	e->resync_max = resync_max;
	e->resync_state = 1;
	naive_support(e, 0, 1);
}

static inline int naive_is_updiscon(unsigned itype)
{
	return itype == 3 || itype == 6 || itype == 8 || itype == 10 || itype == 12 || itype == 13 || itype == 14;
}

static inline int naive_is_branch(unsigned itype)
{
	return itype == 4 || itype == 5;
}

/* privilege change, or precise/asynchronous context change, or context change after an updiscon */
static inline int naive_ppccd(const struct naive_el *a, const struct naive_el *b)
{
	if (b->priv != a->priv)
		return 1;
	return b->context != a->context && (b->ctype == 2 || b->ctype == 3 || naive_is_updiscon(a->itype));
}

static inline uint64_t naive_mask(const struct naive_enc *e)
{
	return e->p.iaddress_width_p >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << e->p.iaddress_width_p) - 1);
}

static inline void naive_sync(struct naive_enc *e, const struct naive_el *c, const struct naive_el *trap, unsigned thaddr)
{
	struct pmregs_etrace_te_inst t;
	pmregs_etrace_te_inst_init(&t, trap ? PMREGS_ETRACE_TE_INST_SHAPE_TRAP : PMREGS_ETRACE_TE_INST_SHAPE_START);
	t.branch = (uint8_t)(c->itype == 5 ? 0 : 1);
	t.privilege = (uint8_t)c->priv;
	t.context = e->p.nocontext_p ? 0 : c->context;
	t.address = (c->addr & naive_mask(e)) >> e->p.iaddress_lsb_p;
	if (trap) {
		t.ecause = trap->cause;
		t.interrupt = (uint8_t)trap->interrupt;
		t.thaddr = (uint8_t)thaddr;
		t.tval = trap->interrupt ? 0 : trap->tval & naive_mask(e);
		if (thaddr && e->p.implicit_exception)
			t.address = 0;
	}
	naive_push(e, &t, 1);
	e->inferred = 0;
	e->nhist = 0;
	e->hist_over = 0;
	if (!trap || thaddr) {
		e->last_addr = c->addr;
		e->branches = 0;
		e->map = 0;
		e->traced = 1;
	}
}

/* format 1 or 2 reporting c; returns 1 (nothing sent) when c retired since the last branch */
static inline int naive_report(struct naive_enc *e, const struct naive_el *c, int target, int f3next, int blktrap)
{
	struct pmregs_etrace_te_inst t;
	struct pmregs_etrace_te_inst_semantic s;
	unsigned i;
	int again = e->hist_over != 0;
	for (i = 0; i < e->nhist; i++)
		again |= e->hist[i] == c->addr;
	if (again && !target)
		return 1;
	pmregs_etrace_te_inst_init(&t, e->branches ? PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA : PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	if (e->branches) {
		t.branches = (uint8_t)e->branches;
		t.branch_map = e->map;
	}
	t.address = ((e->full ? c->addr : c->addr - e->last_addr) & naive_mask(e)) >> e->p.iaddress_lsb_p;
	memset(&s, 0, sizeof s);
	s.notify = (uint8_t)(c->notify && !target);
	s.updiscon = (uint8_t)(target && (f3next || blktrap));
	pmregs_etrace_te_inst_semantic_set(&e->p, &t, &s);
	naive_push(e, &t, 0);
	e->inferred = target && !s.updiscon && !s.notify && again;
	e->nhist = 0;
	e->hist_over = 0;
	e->last_addr = c->addr;
	e->branches = 0;
	e->map = 0;
	return 0;
}

/* one pass of the flowchart for the current element */
static inline void naive_cycle(struct naive_enc *e)
{
	struct naive_el *p = &e->prev, *c = &e->curr, *n = &e->next;
	int sent = 0, sync = 0;
	if (!c->valid || !c->qualified)
		return; /* Qualified? N */
	if (c->exc_only) {
		/* a trap without retirement */
		int rep = 0;
		if (p->valid && p->qualified && p->exc_only) {
			naive_sync(e, c, p, 0); /* exc_only after an exception: report the previous trap */
		} else if (!e->traced || (p->valid && naive_is_updiscon(p->itype))) {
			naive_sync(e, c, c, 0); /* at an updiscon target or where the trace starts */
			rep = 1;
			e->traced = 1;
		}
		if ((!n->valid || !n->qualified) && !rep) {
			naive_sync(e, c, c, 0);
			rep = 1;
		}
		e->reported = rep;
		goto end;
	}
	/* Branch? update the branch map */
	if (naive_is_branch(c->itype)) {
		e->map |= (uint32_t)(c->itype == 4) << e->branches;
		e->branches++;
	}
	if (p->valid && p->qualified && p->exc_only) {
		/* Exception previous? (Reported? -> 3.0, else 3.1 with thaddr 1) */
		if (e->reported)
			naive_sync(e, c, 0, 0);
		else
			naive_sync(e, c, p, 1);
		e->reported = 0;
		sync = 1;
	} else if (!e->traced || naive_ppccd(p, c) || e->resync_state == 3) {
		/* 1st qualified, ppccd or > max_resync */
		naive_sync(e, c, 0, 0);
		sync = 1;
	} else {
		int f3next = !n->valid || !n->qualified || n->exc_only || naive_ppccd(c, n) || e->resync_state == 2;
		int fail = -1;
		if (p->valid && naive_is_updiscon(p->itype)) {
			fail = naive_report(e, c, 1, f3next, n->blktrap); /* Updiscon previous */
		} else if ((e->resync_state == 2 && e->branches) || c->notify) {
			fail = naive_report(e, c, 0, f3next, 0); /* resync_br or er_n */
		} else if (!n->valid || !n->qualified || n->exc_only || ((e->branches || e->inferred) && naive_ppccd(c, n)) ||
			   (n->context != c->context && n->ctype == 3)) {
			fail = naive_report(e, c, 0, f3next, 0); /* next is exc_only, ppccd_br or unqualified */
		} else if (e->branches == 31) {
			struct pmregs_etrace_te_inst t; /* rpt_br */
			pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
			t.branches = 0;
			t.branch_map = e->map;
			naive_push(e, &t, 0);
			e->branches = 0;
			e->map = 0;
			e->nhist = 0;
			e->hist_over = 0;
			e->inferred = 0;
		}
		sent = fail == 0;
		if (fail == 1) {
			naive_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST, 1);
			naive_sync(e, c, 0, 0);
			sync = 1;
		}
		if (!sync && c->ctype == 1 && c->context != p->context) {
			struct pmregs_etrace_te_inst t; /* cci */
			pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT);
			t.privilege = (uint8_t)c->priv;
			t.context = e->p.nocontext_p ? 0 : c->context;
			naive_push(e, &t, 0);
		}
	}
	if (naive_is_branch(c->itype)) {
		e->nhist = 0;
		e->hist_over = 0;
	} else if (!sent && !sync) {
		if (e->nhist < 32)
			e->hist[e->nhist++] = c->addr;
		else
			e->hist_over = 1;
	}
end:
	if (!n->valid || !n->qualified) {
		if (e->traced)
			naive_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP, 1);
		e->traced = 0;
	}
}

static inline void naive_shift(struct naive_enc *e, const struct naive_el *x)
{
	e->prev = e->curr;
	e->curr = e->next;
	e->next = *x;
	naive_cycle(e);
}

/* one single-retirement block (iretire half-words of one instruction, or a trap) */
static inline void naive_step(struct naive_enc *e, const struct pmregs_etrace_ingress *b)
{
	struct naive_el x;
	int trap = b->itype == 1 || b->itype == 2;
	memset(&x, 0, sizeof x);
	x.valid = 1;
	x.qualified = !(b->flags & PMREGS_ETRACE_INGRESS_UNQUALIFIED);
	x.priv = b->priv;
	x.context = b->context;
	x.ctype = b->ctype;
	x.blktrap = trap;
	if (b->iretire) {
		x.addr = b->iaddr;
		x.itype = trap ? 0 : b->itype;
		x.size = 2u << b->ilastsize;
		x.notify = (b->flags & PMREGS_ETRACE_INGRESS_NOTIFY) != 0;
		naive_shift(e, &x);
	}
	if (trap) {
		memset(&x, 0, sizeof x);
		x.valid = 1;
		x.qualified = !(b->flags & PMREGS_ETRACE_INGRESS_UNQUALIFIED);
		x.exc_only = 1;
		x.addr = b->iretire ? b->iaddr + 2u * b->iretire : b->iaddr;
		x.priv = b->priv;
		x.context = b->context;
		x.itype = b->itype;
		x.cause = b->cause;
		x.tval = b->tval;
		x.interrupt = b->itype == 2;
		x.blktrap = 1;
		naive_shift(e, &x);
	}
}

static inline void naive_finish(struct naive_enc *e)
{
	struct naive_el x;
	memset(&x, 0, sizeof x);
	naive_shift(e, &x); /* not valid: the end */
	e->out[e->n - 1].ienable = 0;
}

#endif
