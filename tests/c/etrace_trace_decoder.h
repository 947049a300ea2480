/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A naive E-Trace instruction trace decoder for the encoder's tests: the
 * specification's decoder pseudo-code (chapter "Decoder": process_te_inst,
 * follow_execution_path, next_pc, the return stack) transliterated, with
 * the rules that <pmregs/etrace_encoder.h> states in its header comment
 * where the specification leaves things open: the return stack or call
 * counter (calls and returns by x1 and x5, co-routine swaps pop then push,
 * a mispredicted return is the first return at depth irdepth and is not
 * popped, the counter saturates at 2^call_counter_size_p - 1), sequentially
 * inferable jumps (not for returns), the jump target cache (every address a
 * format 0/1/2 packet reports is stored; 0.1 reads it), branch prediction
 * (2-bit counters, counted branches, the failing branch implied) and the
 * trap rules. Its own instruction decoding (from the bytes, independent of
 * the encoder and of riscv.h). Written for clarity, not speed.
 */
#ifndef PMREGS_TEST_ETRACE_TRACE_DECODER_H
#define PMREGS_TEST_ETRACE_TRACE_DECODER_H
#include <stdint.h>
#include <string.h>
#include <pmregs/etrace.h>

struct nd_insn {
	int64_t imm;
	unsigned len, rd, rs1;
	int branch, jal, jalr, cjr, cjalr, xret, ecall, auipc, lui, illegal;
};

/* decode the instruction at address a of the image (len 0 when outside it) */
static inline struct nd_insn nd_decode(const uint8_t *img, uint64_t base, uint64_t size, uint64_t a, unsigned xlen)
{
	struct nd_insn d;
	uint32_t x = 0, op;
	memset(&d, 0, sizeof d);
	if (a < base || a - base + 2 > size)
		return d;
	x = (uint32_t)img[a - base] | (uint32_t)img[a - base + 1] << 8;
	if ((x & 3u) != 3u) {
		unsigned f3 = x >> 13, q = x & 3u;
		d.len = 2;
		if (x == 0) {
			d.illegal = 1;
		} else if (q == 1 && (f3 == 5 || (f3 == 1 && xlen == 32))) { /* c.j, c.jal */
			uint32_t o = ((x >> 12) & 1u) << 11 | ((x >> 11) & 1u) << 4 | ((x >> 9) & 3u) << 8 | ((x >> 8) & 1u) << 10 |
				     ((x >> 7) & 1u) << 6 | ((x >> 6) & 1u) << 7 | ((x >> 3) & 7u) << 1 | ((x >> 2) & 1u) << 5;
			d.jal = 1;
			d.imm = (int64_t)((int32_t)(o << 20) >> 20);
			d.rd = f3 == 1 ? 1 : 0;
		} else if (q == 1 && (f3 == 6 || f3 == 7)) { /* c.beqz, c.bnez */
			uint32_t o = ((x >> 12) & 1u) << 8 | ((x >> 10) & 3u) << 3 | ((x >> 5) & 3u) << 6 | ((x >> 3) & 3u) << 1 |
				     ((x >> 2) & 1u) << 5;
			d.branch = 1;
			d.imm = (int64_t)((int32_t)(o << 23) >> 23);
		} else if (q == 1 && f3 == 3 && ((x >> 7) & 31u) != 0 && ((x >> 7) & 31u) != 2) { /* c.lui */
			uint32_t v = ((x >> 12) & 1u) << 17 | ((x >> 2) & 31u) << 12;
			d.lui = 1;
			d.rd = (x >> 7) & 31u;
			d.imm = (int64_t)((int32_t)(v << 14) >> 14);
		} else if (q == 2 && f3 == 4 && ((x >> 2) & 31u) == 0) {
			unsigned r = (x >> 7) & 31u;
			if ((x >> 12) & 1u) {
				if (r == 0)
					d.ecall = 1; /* c.ebreak */
				else {
					d.cjalr = 1;
					d.rs1 = r;
					d.rd = 1;
				}
			} else if (r) {
				d.cjr = 1;
				d.rs1 = r;
			}
		}
		return d;
	}
	if (a - base + 4 > size)
		return d;
	x |= (uint32_t)img[a - base + 2] << 16 | (uint32_t)img[a - base + 3] << 24;
	d.len = 4;
	op = x & 0x7fu;
	d.rd = (x >> 7) & 31u;
	d.rs1 = (x >> 15) & 31u;
	if (op == 0x63) {
		uint32_t o = ((x >> 31) & 1u) << 12 | ((x >> 7) & 1u) << 11 | ((x >> 25) & 0x3fu) << 5 | ((x >> 8) & 0xfu) << 1;
		d.branch = 1;
		d.imm = (int64_t)((int32_t)(o << 19) >> 19);
	} else if (op == 0x6f) {
		uint32_t o = ((x >> 31) & 1u) << 20 | ((x >> 12) & 0xffu) << 12 | ((x >> 20) & 1u) << 11 | ((x >> 21) & 0x3ffu) << 1;
		d.jal = 1;
		d.imm = (int64_t)((int32_t)(o << 11) >> 11);
	} else if (op == 0x67) {
		d.jalr = 1;
		d.imm = (int64_t)((int32_t)x >> 20);
	} else if (op == 0x17 || op == 0x37) {
		d.auipc = op == 0x17;
		d.lui = op == 0x37;
		d.imm = (int64_t)(int32_t)(x & 0xfffff000u);
	} else if (x == 0x00000073u || x == 0x00100073u) {
		d.ecall = 1;
	} else if (x == 0x30200073u || x == 0x10200073u || x == 0x00200073u || x == 0x7b200073u) {
		d.xret = 1;
	}
	return d;
}

#define ND_STACK 1024
#define ND_RUNS 64

struct nd_run {
	uint64_t n;  /* outcomes in this run */
	uint64_t bits; /* explicit outcomes (kind 0), bit i: 1 = not taken */
	uint8_t kind; /* 0 explicit, 1 predicted (follow the predictor), 2 one failed prediction */
};

struct nd {
	struct pmregs_etrace_params p;
	const uint8_t *img;
	uint64_t base, size, amask;
	unsigned xlen, layout;
	/* options from support packets */
	int full_address, implicit_return, sijump, jtc_on, bp_on;
	/* state of the pseudo-code */
	uint64_t pc, last_pc, address;
	int stop_at_last_branch, inferred_address, start_of_trace;
	unsigned privilege;
	uint64_t stack[ND_STACK];
	uint32_t depth, depth_max;
	struct nd_run runs[ND_RUNS];
	unsigned nruns;
	uint64_t jtc[1024];
	uint8_t bp[4096];
	unsigned shift;
	/* the current packet's semantic flags */
	const struct pmregs_etrace_te_inst *t;
	int notify, updiscon, irreport;
	uint64_t irdepth;
	/* output */
	uint64_t *out;
	size_t nout, cap;
	unsigned long errors, lost;
	const char *why;
	size_t steps;
	int took_address; /* the last step went to the reported address (an uninferable jump it could not infer) */
	int after_trap0;  /* the last packet was a trap with thaddr = 0: the next format 3 reports the next instruction */
};

static inline void nd_init(struct nd *d, const struct pmregs_etrace_params *p, unsigned layout, const uint8_t *img, uint64_t base, uint64_t size,
		    unsigned xlen, uint64_t *out, size_t cap)
{
	memset(d, 0, sizeof *d);
	d->p = *p;
	d->img = img;
	d->base = base;
	d->size = size;
	d->xlen = xlen;
	d->layout = layout;
	d->amask = p->iaddress_width_p >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << p->iaddress_width_p) - 1);
	d->start_of_trace = 1;
	d->out = out;
	d->cap = cap;
	d->shift = p->iaddress_lsb_p >= 2 ? 2 : 1;
	d->depth_max = p->return_stack_size_p ? 1u << p->return_stack_size_p
					      : (uint32_t)(((uint64_t)1 << p->call_counter_size_p) - 1u);
	d->sijump = p->sijump_p; /* the reference layout has no bit: the parameter says */
}

static inline void nd_err(struct nd *d, const char *why)
{
	if (!d->errors)
		d->why = why;
	d->errors++;
}

static inline void nd_report(struct nd *d, uint64_t a)
{
	if (d->nout < d->cap)
		d->out[d->nout++] = a;
}

static inline struct nd_insn nd_at(struct nd *d, uint64_t a)
{
	return nd_decode(d->img, d->base, d->size, a, d->xlen);
}

static inline uint64_t nd_pending(const struct nd *d)
{
	uint64_t t = 0;
	unsigned i;
	for (i = 0; i < d->nruns; i++)
		t += d->runs[i].n;
	return t;
}
static inline void nd_push_run(struct nd *d, unsigned kind, uint64_t n, uint64_t bits)
{
	if (!n)
		return;
	if (kind == 0 && d->nruns && d->runs[d->nruns - 1].kind == 0 && d->runs[d->nruns - 1].n + n <= 64) {
		struct nd_run *r = &d->runs[d->nruns - 1];
		r->bits |= bits << r->n;
		r->n += n;
		return;
	}
	if (d->nruns == ND_RUNS) {
		nd_err(d, "too many branch runs");
		return;
	}
	d->runs[d->nruns].kind = (uint8_t)kind;
	d->runs[d->nruns].n = n;
	d->runs[d->nruns].bits = bits;
	d->nruns++;
}
static inline int nd_unprocessed(struct nd *d, uint64_t a)
{
	return nd_pending(d) != (uint64_t)(nd_at(d, a).branch ? 1 : 0);
}
static inline unsigned nd_bpi(const struct nd *d, uint64_t a)
{
	return (unsigned)(a >> d->shift) & ((1u << d->p.bpred_size_p) - 1u);
}
static inline void nd_reset(struct nd *d)
{
	unsigned i;
	d->depth = 0;
	for (i = 0; i < 1024; i++)
		d->jtc[i] = 1;
	memset(d->bp, 1, sizeof d->bp);
}

/* the outcome of the branch at pc (1 taken), consuming one pending outcome */
static inline int nd_taken(struct nd *d, uint64_t pc)
{
	struct nd_run *r;
	int taken, pred = 0;
	unsigned i = 0;
	if (!d->nruns) {
		nd_err(d, "cannot resolve branch");
		return 0;
	}
	r = &d->runs[0];
	if (d->bp_on && d->p.bpred_size_p)
		pred = d->bp[nd_bpi(d, pc)] >> 1;
	if (r->kind == 0) {
		taken = !(r->bits & 1u);
		r->bits >>= 1;
	} else if (r->kind == 1) {
		taken = pred;
	} else {
		taken = !pred;
	}
	if (--r->n == 0) {
		for (i = 1; i < d->nruns; i++)
			d->runs[i - 1] = d->runs[i];
		d->nruns--;
	}
	if (d->bp_on && d->p.bpred_size_p) {
		uint8_t *b = &d->bp[nd_bpi(d, pc)];
		if (pred == taken)
			*b = (uint8_t)(pred ? 3 : 0);
		else
			*b = (uint8_t)((*b & 1u) ? (pred ? 0 : 3) : (pred ? 2 : 1));
	}
	return taken;
}

static inline int nd_is_call(const struct nd_insn *i)
{
	if (i->cjalr)
		return 1;
	if (i->jal || i->jalr)
		return i->rd == 1 || i->rd == 5;
	return 0;
}
static inline int nd_is_swap(const struct nd_insn *i)
{
	if (i->cjalr)
		return i->rs1 == 5;
	return i->jalr && ((i->rd == 1 && i->rs1 == 5) || (i->rd == 5 && i->rs1 == 1));
}
static inline int nd_is_return(const struct nd_insn *i)
{
	if (i->cjr)
		return i->rs1 == 1 || i->rs1 == 5;
	return i->jalr && (i->rs1 == 1 || i->rs1 == 5) && i->rd != 1 && i->rd != 5;
}
static inline int nd_uninferable(const struct nd_insn *i)
{
	return (i->jalr && i->rs1 != 0) || i->cjr || i->cjalr;
}

/* next_pc of the pseudo-code (returns stop_here) */
static inline int nd_next_pc(struct nd *d, uint64_t address)
{
	struct nd_insn i = nd_at(d, d->pc), prev;
	uint64_t this_pc = d->pc;
	int stop = 0, call = nd_is_call(&i) && !nd_is_swap(&i), swap = nd_is_swap(&i);
	if (!i.len || i.illegal) {
		nd_err(d, "not an instruction");
		d->pc = this_pc + 2;
		return 1;
	}
	if (i.jal || (i.jalr && i.rs1 == 0)) {
		d->pc = i.jal ? this_pc + (uint64_t)i.imm : (uint64_t)i.imm & ~(uint64_t)1;
	} else if (d->sijump && nd_uninferable(&i) && !nd_is_return(&i) &&
		   (prev = nd_at(d, d->last_pc), (prev.auipc || prev.lui) && prev.rd == i.rs1) && d->last_pc != this_pc) {
		uint64_t tgt = (uint64_t)prev.imm + (prev.auipc ? d->last_pc : 0);
		if (i.jalr)
			tgt += (uint64_t)i.imm;
		d->pc = tgt & ~(uint64_t)1;
	} else if (d->implicit_return && (nd_is_return(&i) || swap) && d->depth > 0 &&
		   !(d->irreport && d->irdepth == d->depth)) {
		d->depth--;
		d->pc = d->stack[d->depth % ND_STACK];
	} else if (nd_uninferable(&i) || i.xret) {
		if (d->stop_at_last_branch)
			nd_err(d, "unexpected uninferable discontinuity");
		d->pc = address;
		stop = 1;
	} else if (i.branch && nd_taken(d, this_pc)) {
		d->pc = this_pc + (uint64_t)i.imm;
	} else {
		d->pc = this_pc + i.len;
	}
	d->pc &= d->amask;
	d->took_address = stop;
	if (d->implicit_return && (call || swap)) {
		if (d->depth == d->depth_max) {
			unsigned k;
			d->depth--;
			for (k = 0; k < d->depth; k++)
				d->stack[k] = d->stack[k + 1];
		}
		d->stack[d->depth++] = (this_pc + i.len) & d->amask;
	}
	d->last_pc = this_pc;
	return stop;
}

static inline void nd_follow(struct nd *d, uint64_t address)
{
	uint64_t previous = d->pc, n = 0;
	int stop;
	for (;;) {
		if (++n > 1000000) {
			nd_err(d, "runaway");
			return;
		}
		if (d->inferred_address) {
			stop = nd_next_pc(d, previous);
			nd_report(d, d->pc);
			if (stop)
				d->inferred_address = 0;
			continue;
		}
		stop = nd_next_pc(d, address);
		nd_report(d, d->pc);
		if (d->errors)
			return;
		if (nd_pending(d) == 1 && nd_at(d, d->pc).branch && d->stop_at_last_branch) {
			d->stop_at_last_branch = 0;
			return;
		}
		if (stop) {
			if (nd_unprocessed(d, d->pc))
				nd_err(d, "unprocessed branches");
			return;
		}
		if (d->t->format != 3 && d->pc == address && !d->stop_at_last_branch && d->notify && !nd_unprocessed(d, d->pc))
			return;
		/* "not is_uninferable_discon(last_pc)": the step here did not take the reported address
		 * (a sequentially inferred jump or an implicit return is inferable) */
		if (d->t->format != 3 && d->pc == address && !d->stop_at_last_branch) {
			if (!d->took_address && !d->updiscon && !nd_unprocessed(d, d->pc) &&
			    (!d->irreport || d->irdepth == d->depth)) {
				d->inferred_address = 1;
				return;
			}
		}
		if (d->t->format == 3 && d->pc == address && !nd_unprocessed(d, d->pc) &&
		    (d->t->privilege == d->privilege || nd_at(d, d->last_pc).xret))
			return;
	}
}

static inline void nd_options(struct nd *d, uint32_t o)
{
	if (d->layout == PMREGS_ETRACE_ENCODER_IOPTIONS_PULP) {
		d->jtc_on = (o >> 0) & 1;
		d->bp_on = (o >> 1) & 1;
		d->implicit_return = (o >> 2) & 1;
		d->sijump = (o >> 3) & 1;
		d->full_address = (o >> 5) & 1;
	} else {
		d->implicit_return = o & 1;
		d->full_address = (o >> 2) & 1;
		d->jtc_on = (o >> 3) & 1;
		d->bp_on = (o >> 4) & 1;
	}
}

/* process_te_inst */
static inline void nd_packet(struct nd *d, const struct pmregs_etrace_te_inst *t)
{
	struct pmregs_etrace_te_inst_semantic s;
	d->t = t;
	pmregs_etrace_te_inst_semantic_get(&d->p, t, &s);
	d->notify = s.notify;
	d->updiscon = s.updiscon;
	d->irreport = s.irreport;
	d->irdepth = s.irdepth;
	if (t->format == 3) {
		if (t->subformat == 3) {
			nd_options(d, t->ioptions);
			if (t->qual_status != PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE) {
				if (t->qual_status == PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST) {
					d->lost++;
					nd_report(d, ~(uint64_t)0); /* a marker where the trace has a gap */
				}
				if (t->qual_status == PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_NTR && d->inferred_address) {
					uint64_t previous = d->pc;
					d->inferred_address = 0;
					while (!nd_next_pc(d, previous) && !d->errors)
						nd_report(d, d->pc);
					nd_report(d, d->pc);
				}
				d->start_of_trace = 1;
				d->inferred_address = 0;
			}
			return;
		}
		if (t->subformat == 2)
			return;
		if (t->subformat == 1 && !t->thaddr) {
			d->after_trap0 = 1;
			return;
		}
		d->inferred_address = 0;
		d->address = (t->address << d->p.iaddress_lsb_p) & d->amask;
		if (t->subformat == 1 || d->start_of_trace) {
			d->nruns = 0;
		}
		if (t->subformat == 1 && d->p.implicit_exception)
			nd_err(d, "implicit exception: the handler address is not known here");
		if (t->subformat == 0 && !d->start_of_trace && !d->after_trap0) {
			if (nd_at(d, d->address).branch)
				nd_push_run(d, 0, 1, t->branch);
			nd_follow(d, d->address);
		} else {
			if (nd_at(d, d->address).branch)
				nd_push_run(d, 0, 1, t->branch);
			d->pc = d->address;
			nd_report(d, d->pc);
			d->last_pc = d->pc;
		}
		d->privilege = t->privilege;
		d->start_of_trace = 0;
		d->after_trap0 = 0;
		nd_reset(d);
		return;
	}
	if (d->start_of_trace) {
		nd_err(d, "expecting trace to start with format 3");
		return;
	}
	if (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE) {
		d->stop_at_last_branch = 0;
		d->address = d->jtc[t->index & 1023u];
		nd_push_run(d, 0, t->branches, t->branch_map);
	} else if (t->format == 0) {
		d->stop_at_last_branch = t->branch_fmt == 0;
		nd_push_run(d, 1, (uint64_t)t->branch_count + 31u, 0);
		if (t->branch_fmt != 2)
			nd_push_run(d, 2, 1, 0);
		if (t->branch_fmt != 0) {
			uint64_t a = (t->address << d->p.iaddress_lsb_p) & d->amask;
			d->address = d->full_address ? a : (d->address + a) & d->amask;
		}
	} else {
		if (t->format == 2 || t->branches != 0) {
			uint64_t a = (t->address << d->p.iaddress_lsb_p) & d->amask;
			d->stop_at_last_branch = 0;
			d->address = d->full_address ? a : (d->address + a) & d->amask;
		}
		if (t->format == 1) {
			d->stop_at_last_branch = t->branches == 0;
			nd_push_run(d, 0, t->branches ? t->branches : 31u, t->branch_map);
		}
	}
	if (d->jtc_on && d->p.cache_size_p && !(t->format == 1 && t->branches == 0) && !(t->format == 0 && t->branch_fmt == 0))
		d->jtc[(d->address >> d->shift) & ((1u << d->p.cache_size_p) - 1u)] = d->address;
	nd_follow(d, d->address);
}

#endif
