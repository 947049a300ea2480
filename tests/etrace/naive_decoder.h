/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A naive E-Trace decoder: the pseudo-code of the specification's "Decoder"
 * chapter (process_te_inst, follow_execution_path, next_pc, the return stack,
 * the branch map) transliterated as plainly as possible, with its own
 * if/else instruction decoding from the image bytes (nothing from riscv.h or
 * etrace_decoder.h), plus the rules <pmregs/etrace_decoder.h> adds and
 * documents (options from support packets, the jump target cache, the
 * branch predictor, errors and where decoding resumes). It is the oracle the
 * fast decoder is compared with and the baseline `make bench` measures.
 *
 * Everything is as literal as it can be: the return stack shifts its entries
 * when full, the pending branches are a queue of entries (a map bit, a run of
 * correctly predicted branches, or one branch that failed its prediction),
 * every instruction is decoded again each time it is needed.
 */
#ifndef NAIVE_DECODER_H
#define NAIVE_DECODER_H

#include <stdint.h>
#include <stddef.h>
#include <pmregs/etrace.h>

/* ---- instructions ---- */

enum naive_op {
	N_OTHER, N_BEQ, N_BNE, N_BLT, N_BGE, N_BLTU, N_BGEU, N_C_BEQZ, N_C_BNEZ, N_JAL, N_C_JAL, N_C_J, N_JALR, N_C_JR, N_C_JALR,
	N_AUIPC, N_LUI, N_C_LUI, N_ECALL, N_EBREAK, N_C_EBREAK, N_URET, N_SRET, N_MRET, N_DRET, N_MNRET, N_INVALID
};

struct naive_instr {
	enum naive_op opcode;
	int64_t imm;
	unsigned rd, rs1, size;
};

struct naive_image {
	uint64_t base[8];
	const unsigned char *bytes[8];
	uint64_t len[8];
	int n;
	unsigned xlen;
};

static int64_t naive_sext(uint64_t v, unsigned bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);
	if (bits < 64)
		v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

static unsigned naive_bit(uint32_t x, unsigned b) { return (x >> b) & 1u; }

/* Decode the instruction at address (op N_INVALID when it cannot be read). */
static struct naive_instr naive_get_instr(const struct naive_image *im, uint64_t address, uint64_t amask)
{
	struct naive_instr in = {N_INVALID, 0, 0, 0, 0};
	const unsigned char *b = 0;
	uint64_t avail = 0;
	uint32_t x;
	int i;
	if (address & 1)
		return in;
	for (i = 0; i < im->n; i++) {
		uint64_t base = im->base[i] & amask;
		if (address >= base && address - base < im->len[i]) {
			b = im->bytes[i] + (address - base);
			avail = im->len[i] - (address - base);
		}
	}
	if (!b || avail < 2)
		return in;
	x = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	if ((x & 3) != 3) {
		/* 16-bit */
		unsigned op = x & 3, f3 = x >> 13, r = (x >> 7) & 31, r2 = (x >> 2) & 31;
		in.size = 2;
		in.opcode = N_OTHER;
		if (x == 0)
			return in; /* the all-zero illegal encoding: length 2, treated as a plain instruction */
		if (op == 1 && (f3 == 5 || (f3 == 1 && im->xlen == 32))) {
			uint32_t off = naive_bit(x, 12) << 11 | naive_bit(x, 11) << 4 | ((x >> 9) & 3) << 8 | naive_bit(x, 8) << 10 |
				       naive_bit(x, 7) << 6 | naive_bit(x, 6) << 7 | ((x >> 3) & 7) << 1 | naive_bit(x, 2) << 5;
			in.imm = naive_sext(off, 12);
			if (f3 == 5) {
				in.opcode = N_C_J;
			} else {
				in.opcode = N_C_JAL;
				in.rd = 1;
			}
		} else if (op == 1 && (f3 == 6 || f3 == 7)) {
			uint32_t off = naive_bit(x, 12) << 8 | ((x >> 10) & 3) << 3 | ((x >> 5) & 3) << 6 | ((x >> 3) & 3) << 1 | naive_bit(x, 2) << 5;
			in.imm = naive_sext(off, 9);
			in.opcode = f3 == 6 ? N_C_BEQZ : N_C_BNEZ;
			in.rs1 = 8 + ((x >> 7) & 7);
		} else if (op == 1 && f3 == 3 && r != 0 && r != 2) {
			uint32_t v = naive_bit(x, 12) << 17 | r2 << 12;
			if (v != 0) {
				in.opcode = N_C_LUI;
				in.rd = r;
				in.imm = naive_sext(v, 18);
			}
		} else if (op == 2 && f3 == 4 && r2 == 0) {
			if (!naive_bit(x, 12) && r != 0) {
				in.opcode = N_C_JR;
				in.rs1 = r;
			} else if (naive_bit(x, 12) && r == 0) {
				in.opcode = N_C_EBREAK;
			} else if (naive_bit(x, 12)) {
				in.opcode = N_C_JALR;
				in.rs1 = r;
				in.rd = 1;
			}
		}
		return in;
	}
	if ((x & 0x1f) != 0x1f) {
		unsigned op, f3;
		if (avail < 4)
			return in;
		x |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		in.size = 4;
		in.opcode = N_OTHER;
		op = x & 0x7f;
		f3 = (x >> 12) & 7;
		in.rd = (x >> 7) & 31;
		in.rs1 = (x >> 15) & 31;
		if (op == 0x63) {
			static const enum naive_op br[8] = {N_BEQ, N_BNE, N_OTHER, N_OTHER, N_BLT, N_BGE, N_BLTU, N_BGEU};
			in.opcode = br[f3];
			in.imm = naive_sext(naive_bit(x, 31) << 12 | naive_bit(x, 7) << 11 | ((x >> 25) & 63) << 5 | ((x >> 8) & 15) << 1, 13);
		} else if (op == 0x6f) {
			in.opcode = N_JAL;
			in.imm = naive_sext(naive_bit(x, 31) << 20 | ((x >> 12) & 255) << 12 | naive_bit(x, 20) << 11 | ((x >> 21) & 1023) << 1, 21);
		} else if (op == 0x67 && f3 == 0) {
			in.opcode = N_JALR;
			in.imm = naive_sext(x >> 20, 12);
		} else if (op == 0x17) {
			in.opcode = N_AUIPC;
			in.imm = naive_sext(x & 0xfffff000u, 32);
		} else if (op == 0x37) {
			in.opcode = N_LUI;
			in.imm = naive_sext(x & 0xfffff000u, 32);
		} else if (x == 0x00000073) {
			in.opcode = N_ECALL;
		} else if (x == 0x00100073) {
			in.opcode = N_EBREAK;
		} else if (x == 0x00200073) {
			in.opcode = N_URET;
		} else if (x == 0x10200073) {
			in.opcode = N_SRET;
		} else if (x == 0x30200073) {
			in.opcode = N_MRET;
		} else if (x == 0x7b200073) {
			in.opcode = N_DRET;
		} else if (x == 0x70200073) {
			in.opcode = N_MNRET;
		}
		return in;
	}
	/* 48- and 64-bit encodings run on sequentially; longer ones are not code */
	if ((x & 0x3f) == 0x1f)
		in.size = 6;
	else if ((x & 0x7f) == 0x3f)
		in.size = 8;
	else
		return in;
	if (avail < in.size)
		return in;
	in.opcode = N_OTHER;
	return in;
}

static int naive_is_branch(struct naive_instr i)
{
	return i.opcode == N_BEQ || i.opcode == N_BNE || i.opcode == N_BLT || i.opcode == N_BGE || i.opcode == N_BLTU ||
	       i.opcode == N_BGEU || i.opcode == N_C_BEQZ || i.opcode == N_C_BNEZ;
}

/* jal, c.jal, c.j, and (the ISA's rule) jalr with rs1 = x0 */
static int naive_is_inferable_jump(struct naive_instr i)
{
	return i.opcode == N_JAL || i.opcode == N_C_JAL || i.opcode == N_C_J || (i.opcode == N_JALR && i.rs1 == 0);
}

static int naive_is_uninferable_jump(struct naive_instr i)
{
	return (i.opcode == N_JALR && i.rs1 != 0) || i.opcode == N_C_JALR || i.opcode == N_C_JR;
}

static int naive_is_return_from_trap(struct naive_instr i)
{
	return i.opcode == N_URET || i.opcode == N_SRET || i.opcode == N_MRET || i.opcode == N_DRET || i.opcode == N_MNRET;
}

static int naive_is_uninferable_discon(struct naive_instr i)
{
	return naive_is_uninferable_jump(i) || naive_is_return_from_trap(i);
}

static int naive_link(unsigned r) { return r == 1 || r == 5; }

/* The ingress chapter's calls and co-routine swaps (x1 and x5) */
static int naive_is_call(struct naive_instr i)
{
	if (i.opcode == N_JAL || i.opcode == N_C_JAL)
		return naive_link(i.rd);
	if (i.opcode == N_C_JALR)
		return 1;
	if (i.opcode == N_JALR)
		return (i.rd == 1 && i.rs1 != 5) || (i.rd == 5 && i.rs1 != 1) || (i.rd == 1 && i.rs1 == 5) || (i.rd == 5 && i.rs1 == 1);
	return 0;
}

/* The ingress chapter's returns and co-routine swaps */
static int naive_is_return(struct naive_instr i)
{
	if (i.opcode == N_C_JR)
		return naive_link(i.rs1);
	if (i.opcode == N_C_JALR)
		return i.rs1 == 5;
	if (i.opcode == N_JALR)
		return (naive_link(i.rs1) && !naive_link(i.rd)) || (i.rd == 1 && i.rs1 == 5) || (i.rd == 5 && i.rs1 == 1);
	return 0;
}

/* The riscv.h kind of an instruction (for comparing items) */
static unsigned naive_kind(struct naive_instr i)
{
	if (naive_is_branch(i))
		return 1;
	if (i.opcode == N_JAL || i.opcode == N_C_JAL || i.opcode == N_C_J)
		return 2;
	if (i.opcode == N_JALR || i.opcode == N_C_JR || i.opcode == N_C_JALR)
		return 3;
	if (i.opcode == N_AUIPC)
		return 4;
	if (i.opcode == N_LUI || i.opcode == N_C_LUI)
		return 5;
	if (i.opcode == N_ECALL)
		return 6;
	if (i.opcode == N_EBREAK || i.opcode == N_C_EBREAK)
		return 7;
	if (naive_is_return_from_trap(i))
		return 8;
	return 0;
}

/* ---- output ---- */

struct naive_item {
	unsigned type; /* 0 instruction, 1 trap, 2 context, 3 error (as PMREGS_ETRACE_ITEM_*) */
	uint64_t address, value;
	uint32_t info;
	unsigned length, kind, privilege;
};

/* ---- state ---- */

enum { Q_BIT, Q_RUN, Q_FAIL };
struct naive_q {
	int type;
	unsigned bit;
	uint64_t count;
};

struct naive {
	/* configuration (as struct pmregs_etrace_decoder_config) */
	const struct pmregs_etrace_params *p;
	struct naive_image img;
	unsigned layout;
	uint32_t options;
	int has_stack, has_cache, has_bpred;
	uint64_t max_run, max_steps, steps, tvec[8];
	/* the pseudo-code's globals */
	uint64_t pc, last_pc, address, base;
	struct naive_q q[200];
	int nq;
	int stop_at_last_branch, inferred_address, start_of_trace, lost, jtc_deferred;
	uint64_t jtc_index;
	unsigned privilege;
	uint64_t return_stack[1 << 12];
	uint64_t irstack_depth;
	uint64_t cache[1 << 12];
	unsigned bpred[1 << 12];
	uint64_t run;
	/* the packet */
	const struct pmregs_etrace_te_inst *te_inst;
	int notify, updiscon, irreport;
	uint64_t irdepth;
	uint64_t packets;
	/* output */
	struct naive_item *out;
	size_t nout, cap;
	int error;
};

static uint64_t naive_amask(const struct naive *n)
{
	unsigned w = n->p->iaddress_width_p < n->img.xlen ? n->p->iaddress_width_p : n->img.xlen;
	return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
}

static unsigned naive_shift(const struct naive *n) { return n->p->iaddress_lsb_p >= 2 ? 2 : 1; }

static struct naive_instr naive_instr_at(const struct naive *n, uint64_t a) { return naive_get_instr(&n->img, a, naive_amask(n)); }

static void naive_emit(struct naive *n, struct naive_item it)
{
	if (n->nout < n->cap)
		n->out[n->nout] = it;
	n->nout++;
}

static void naive_report_pc(struct naive *n, uint64_t address)
{
	struct naive_instr i = naive_instr_at(n, address);
	struct naive_item it;
	it.type = 0;
	it.address = address;
	it.value = n->packets - 1;
	it.info = (naive_is_call(i) ? 0x08u : 0u) | (naive_is_return(i) ? 0x10u : 0u);
	it.length = i.size;
	it.kind = naive_kind(i);
	it.privilege = n->privilege;
	naive_emit(n, it);
}

static void naive_error(struct naive *n, unsigned reason)
{
	struct naive_item it;
	it.type = 3;
	it.address = n->pc;
	it.value = n->packets - 1;
	it.info = reason;
	it.length = it.kind = 0;
	it.privilege = n->privilege;
	naive_emit(n, it);
	n->start_of_trace = 1;
	n->lost = 1;
	n->inferred_address = 0;
	n->stop_at_last_branch = 0;
	n->jtc_deferred = 0;
	n->error = (int)reason;
}

static void naive_reset_tables(struct naive *n)
{
	uint64_t i;
	for (i = 0; i < ((uint64_t)1 << n->p->cache_size_p) && i < (1u << 12); i++)
		n->cache[i] = 1;
	for (i = 0; i < ((uint64_t)1 << n->p->bpred_size_p) && i < (1u << 12); i++)
		n->bpred[i] = 1;
}

static void naive_init(struct naive *n, const struct pmregs_etrace_params *p, const struct naive_image *img, unsigned layout,
		       uint32_t options, int has_stack, int has_cache, int has_bpred, uint64_t max_run, struct naive_item *out, size_t cap)
{
	int i;
	uint64_t total = 0;
	n->p = p;
	n->img = *img;
	n->layout = layout;
	n->options = options | (p->implicit_exception ? 2u : 0u);
	n->has_stack = has_stack;
	n->has_cache = has_cache;
	n->has_bpred = has_bpred;
	for (i = 0; i < img->n; i++)
		total += img->len[i];
	n->max_run = max_run ? max_run : (img->n ? total + 1024 : (uint64_t)1 << 22);
	n->max_steps = ~(uint64_t)0;
	n->steps = 0;
	for (i = 0; i < 8; i++)
		n->tvec[i] = 0;
	n->pc = n->last_pc = n->address = n->base = 0;
	n->nq = 0;
	n->stop_at_last_branch = n->inferred_address = 0;
	n->jtc_deferred = 0;
	n->jtc_index = 0;
	n->start_of_trace = 1;
	n->lost = 0;
	n->privilege = 0;
	n->irstack_depth = 0;
	n->run = 0;
	n->packets = 0;
	n->out = out;
	n->nout = 0;
	n->cap = cap;
	n->error = 0;
	naive_reset_tables(n);
}

/* Packets were lost (unreadable stream bytes): wait for the next synchronisation packet. */
static inline void naive_lose(struct naive *n)
{
	n->start_of_trace = 1;
	n->lost = 1;
	n->inferred_address = 0;
	n->stop_at_last_branch = 0;
}

/* ---- the pending branches ---- */

static uint64_t naive_branches(const struct naive *n)
{
	uint64_t c = 0;
	int i;
	for (i = 0; i < n->nq; i++)
		c += n->q[i].type == Q_RUN ? n->q[i].count : 1;
	return c;
}

static uint64_t naive_map_entries(const struct naive *n)
{
	int i;
	uint64_t c = 0;
	for (i = 0; i < n->nq; i++)
		if (n->q[i].type != Q_RUN)
			c++;
	return c;
}

static void naive_push_q(struct naive *n, int type, unsigned bit, uint64_t count)
{
	if (type == Q_RUN && n->nq && n->q[n->nq - 1].type == Q_RUN) {
		n->q[n->nq - 1].count += count;
		return;
	}
	if (n->nq < 200) {
		n->q[n->nq].type = type;
		n->q[n->nq].bit = bit;
		n->q[n->nq].count = count;
		n->nq++;
	}
}

static unsigned *naive_bpred_entry(struct naive *n, uint64_t pc)
{
	return &n->bpred[(pc >> naive_shift(n)) & (((uint64_t)1 << n->p->bpred_size_p) - 1)];
}

/* is_taken_branch(): 1, 0, or -1 when nothing resolves it */
static int naive_is_taken_branch(struct naive *n, uint64_t pc)
{
	int taken, i;
	unsigned *st = naive_bpred_entry(n, pc);
	unsigned predicted = (*st >> 1) & 1;
	if (n->nq == 0)
		return -1;
	n->steps += n->run; /* the instructions since the last branch, this one included */
	n->run = 0;
	if (n->steps > n->max_steps)
		return -3;
	if (n->q[0].type == Q_RUN) {
		taken = (int)predicted;
		if (--n->q[0].count > 0)
			goto trained;
	} else if (n->q[0].type == Q_FAIL) {
		taken = n->has_bpred ? !(int)predicted : 0;
	} else {
		taken = !n->q[0].bit; /* a map bit: 0 = taken */
	}
	for (i = 1; i < n->nq; i++)
		n->q[i - 1] = n->q[i];
	n->nq--;
trained:
	if (n->has_bpred && (n->options & 0x10u)) {
		/* 00 -> 01 on failure; 01 -> 00 on success, 11 on failure; 11 -> 10 on failure; 10 -> 11 on success, 00 on failure */
		unsigned s = *st, a = (unsigned)taken;
		if (s == 0)
			*st = a ? 1u : 0u;
		else if (s == 1)
			*st = a ? 3u : 0u;
		else if (s == 3)
			*st = a ? 3u : 2u;
		else
			*st = a ? 3u : 0u;
	}
	return taken;
}

/* ---- the return stack ---- */

static uint64_t naive_depth_max(const struct naive *n)
{
	if (n->p->return_stack_size_p)
		return (uint64_t)1 << n->p->return_stack_size_p;
	return ((uint64_t)1 << n->p->call_counter_size_p) - 1; /* a call counter saturates at what irdepth can carry */
}

static void naive_push_return_stack(struct naive *n, uint64_t address)
{
	struct naive_instr i = naive_instr_at(n, address);
	uint64_t k, link = address;
	if (!(n->options & 1u) || !n->has_stack || naive_depth_max(n) == 0)
		return;
	if (n->irstack_depth == naive_depth_max(n)) {
		/* delete the oldest entry to make room */
		n->irstack_depth--;
		for (k = 0; k < n->irstack_depth; k++)
			n->return_stack[k] = n->return_stack[k + 1];
	}
	link += i.size;
	n->return_stack[n->irstack_depth] = link & naive_amask(n);
	n->irstack_depth++;
}

static uint64_t naive_pop_return_stack(struct naive *n)
{
	n->irstack_depth--;
	return n->return_stack[n->irstack_depth];
}

static int naive_is_implicit_return(struct naive *n, struct naive_instr i)
{
	if (!(n->options & 1u) || !n->has_stack)
		return 0;
	if ((i.opcode == N_JALR || i.opcode == N_C_JR || i.opcode == N_C_JALR) && naive_is_return(i)) {
		if (n->irreport && n->irdepth == n->irstack_depth)
			return 0;
		return n->irstack_depth > 0;
	}
	return 0;
}

static int naive_is_sequential_jump(struct naive *n, struct naive_instr i, uint64_t prev_addr)
{
	struct naive_instr prev;
	if (!(naive_is_uninferable_jump(i) && (n->options & 0x20u)))
		return 0;
	prev = naive_instr_at(n, prev_addr);
	if (prev.opcode == N_AUIPC || prev.opcode == N_LUI || prev.opcode == N_C_LUI)
		return i.rs1 == prev.rd;
	return 0;
}

static uint64_t naive_sequential_jump_target(struct naive *n, uint64_t addr, uint64_t prev_addr)
{
	struct naive_instr i = naive_instr_at(n, addr), prev = naive_instr_at(n, prev_addr);
	uint64_t target = 0;
	if (prev.opcode == N_AUIPC)
		target = prev_addr;
	target += (uint64_t)prev.imm;
	if (i.opcode == N_JALR)
		target += (uint64_t)i.imm;
	return target & ~(uint64_t)1;
}

/* next_pc(): 1 = stop_here, 0, or -(reason) */
static int naive_next_pc(struct naive *n, uint64_t address)
{
	struct naive_instr instr = naive_instr_at(n, n->pc);
	uint64_t this_pc = n->pc, m = naive_amask(n);
	int stop_here = 0;
	if (instr.opcode == N_INVALID)
		return -5;
	if (naive_is_inferable_jump(instr)) {
		if (instr.opcode == N_JALR)
			n->pc = (uint64_t)instr.imm & ~(uint64_t)1;
		else
			n->pc += (uint64_t)instr.imm;
	} else if (naive_is_sequential_jump(n, instr, n->last_pc)) {
		n->pc = naive_sequential_jump_target(n, n->pc, n->last_pc);
	} else if (naive_is_implicit_return(n, instr)) {
		n->pc = naive_pop_return_stack(n);
	} else if (naive_is_uninferable_discon(instr)) {
		if (n->stop_at_last_branch)
			return -4;
		n->pc = address;
		stop_here = 1;
		if (n->has_cache && (n->options & 0x08u))
			n->cache[(address >> naive_shift(n)) & (((uint64_t)1 << n->p->cache_size_p) - 1)] = address;
	} else if (naive_is_branch(instr)) {
		int t = naive_is_taken_branch(n, this_pc);
		if (t < 0)
			return t == -1 ? -2 : -6;
		n->pc += t ? (uint64_t)instr.imm : instr.size;
	} else {
		n->pc += instr.size;
	}
	n->pc &= m;
	if (naive_is_call(instr))
		naive_push_return_stack(n, this_pc);
	n->last_pc = this_pc;
	return stop_here;
}

static int naive_unprocessed_branches(struct naive *n, uint64_t address)
{
	return naive_branches(n) != (naive_is_branch(naive_instr_at(n, address)) ? 1u : 0u);
}

/* One step (next_pc and the new instruction read): 1/0 stop_here, or -(reason) */
static int naive_step(struct naive *n, uint64_t address)
{
	int s;
	if (++n->run > n->max_run)
		return -6;
	s = naive_next_pc(n, address);
	if (s < 0)
		return s;
	if (naive_instr_at(n, n->pc).opcode == N_INVALID)
		return -5;
	return s;
}

/* follow_execution_path(): 0 at the address, 2 at the last branch of a full map, or -1 after an error */
static int naive_follow_execution_path(struct naive *n, uint64_t address, const struct pmregs_etrace_te_inst *te_inst)
{
	uint64_t previous_address = n->pc;
	int stop_here;
	n->run = 0;
	for (;;) {
		if (n->inferred_address) {
			stop_here = naive_step(n, previous_address);
			if (stop_here < 0) {
				naive_error(n, (unsigned)-stop_here);
				return -1;
			}
			naive_report_pc(n, n->pc);
			if (stop_here) {
				n->inferred_address = 0;
				if (n->jtc_deferred) {
					/* the format 0.1 packet's entry, written by the jump that just ended the second pass */
					uint64_t t = n->cache[n->jtc_index];
					n->jtc_deferred = 0;
					if (t & 1) {
						naive_error(n, 7);
						return -1;
					}
					address = n->address = n->base = t;
				}
			}
		} else {
			stop_here = naive_step(n, address);
			if (stop_here < 0) {
				naive_error(n, (unsigned)-stop_here);
				return -1;
			}
			naive_report_pc(n, n->pc);
			if (naive_branches(n) == 1 && naive_is_branch(naive_instr_at(n, n->pc)) && n->stop_at_last_branch) {
				n->stop_at_last_branch = 0;
				return 2;
			}
			if (stop_here) {
				if (naive_unprocessed_branches(n, n->pc)) {
					naive_error(n, 3);
					return -1;
				}
				return 0;
			}
			if (te_inst->format != 3 && n->pc == address && !n->stop_at_last_branch && n->notify &&
			    !naive_unprocessed_branches(n, n->pc))
				return 0;
			/* reached not through an uninferable discontinuity (that stopped above), but possibly through an
			 * implicit return or a sijump; with irreport the depth must be irdepth */
			if (te_inst->format != 3 && n->pc == address && !n->stop_at_last_branch && !n->updiscon &&
			    !naive_unprocessed_branches(n, n->pc) && (!n->irreport || n->irdepth == n->irstack_depth)) {
				n->inferred_address = 1;
				return 0;
			}
			if (te_inst->format == 3 && n->pc == address && !naive_unprocessed_branches(n, n->pc) &&
			    (te_inst->privilege == n->privilege || naive_is_return_from_trap(naive_instr_at(n, n->last_pc))))
				return 0;
		}
	}
}

/* exception_address(): 0 with *epc, or -(reason) */
static int naive_exception_address(struct naive *n, const struct pmregs_etrace_te_inst *te_inst, uint64_t *epc)
{
	struct naive_instr instr = naive_instr_at(n, n->pc);
	int s;
	if (instr.opcode == N_INVALID)
		return -5;
	if (naive_is_uninferable_discon(instr) && !te_inst->thaddr) {
		*epc = (te_inst->address << n->p->iaddress_lsb_p) & naive_amask(n);
		return 0;
	}
	if (instr.opcode == N_ECALL || instr.opcode == N_EBREAK || instr.opcode == N_C_EBREAK) {
		*epc = n->pc;
		return 0;
	}
	s = naive_next_pc(n, n->pc);
	if (s < 0)
		return s;
	*epc = n->pc;
	return 0;
}

/* The bit sent just before the notify/updiscon/irreport group, from the raw fields. */
static unsigned naive_msb(uint64_t v, unsigned w) { return w ? (unsigned)((v >> (w - 1)) & 1) : 0; }

static void naive_semantic(struct naive *n, const struct pmregs_etrace_te_inst *t)
{
	const struct pmregs_etrace_params *p = n->p;
	unsigned aw = (unsigned)(p->iaddress_width_p - p->iaddress_lsb_p), prev;
	unsigned dw = p->return_stack_size_p + (p->return_stack_size_p ? 1u : 0u) + p->call_counter_size_p;
	n->notify = n->updiscon = n->irreport = 0;
	n->irdepth = 0;
	if (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE) {
		if (t->branches == 0) {
			prev = naive_msb(t->branches, 5);
		} else {
			unsigned len = t->branches >= 16 ? 31 : t->branches >= 8 ? 15 : t->branches >= 4 ? 7 : t->branches >= 2 ? 3 : 1;
			prev = naive_msb(t->branch_map, len);
		}
		n->irreport = t->irreport != prev;
	} else if (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY || t->shape == PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA ||
		   t->shape == PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR) {
		prev = naive_msb(t->address, aw);
		n->notify = t->notify != prev;
		n->updiscon = t->updiscon != t->notify;
		n->irreport = t->irreport != t->updiscon;
	} else {
		return;
	}
	if (n->irreport)
		n->irdepth = t->irdepth;
	(void)dw;
}

/* The sync part of process_te_inst for format 3 subformats 0 and 1 (after the trap report). */
static void naive_sync(struct naive *n, const struct pmregs_etrace_te_inst *te_inst)
{
	uint64_t i;
	n->inferred_address = 0;
	if (te_inst->subformat == 1 && te_inst->thaddr && (n->options & 2u)) {
		uint64_t tv = n->tvec[te_inst->privilege & 7];
		if (!tv) {
			naive_error(n, 10);
			return;
		}
		n->address = tv & ~(uint64_t)3;
		if ((tv & 3) == 1 && te_inst->interrupt)
			n->address += 4 * te_inst->ecause;
		n->address &= naive_amask(n);
	} else {
		n->address = (te_inst->address << n->p->iaddress_lsb_p) & naive_amask(n);
	}
	n->base = n->address;
	if (te_inst->subformat == 1 || n->start_of_trace)
		n->nq = 0;
	if (naive_is_branch(naive_instr_at(n, n->address)))
		naive_push_q(n, Q_BIT, te_inst->branch & 1u, 1);
	if (te_inst->subformat == 0 && !n->start_of_trace) {
		int r = naive_follow_execution_path(n, n->address, te_inst);
		if (r == 0 && n->nout <= n->cap)
			n->out[n->nout - 1].privilege = te_inst->privilege; /* the reported instruction runs at the packet's privilege */
		if (r < 0) {
			/* restart at this synchronisation packet */
			if (naive_instr_at(n, n->address).opcode == N_INVALID) {
				n->pc = n->address;
				naive_error(n, 5);
				return;
			}
			n->pc = n->address;
			n->privilege = te_inst->privilege;
			naive_report_pc(n, n->pc);
			n->last_pc = n->pc;
		}
	} else {
		n->pc = n->address;
		if (naive_instr_at(n, n->pc).opcode == N_INVALID) {
			naive_error(n, 5);
			return;
		}
		n->privilege = te_inst->privilege;
		naive_report_pc(n, n->pc);
		n->last_pc = n->pc;
	}
	n->privilege = te_inst->privilege;
	n->start_of_trace = 0;
	n->lost = 0;
	n->irstack_depth = 0;
	for (i = 0; i < 1; i++)
		naive_reset_tables(n);
}

static void naive_process_support(struct naive *n, const struct pmregs_etrace_te_inst *te_inst)
{
	uint32_t o = te_inst->ioptions, opts = 0, known = 0;
	if (n->layout == 1) {
		known = 0x1f;
		opts = o & 0x1f;
	} else if (n->layout == 2) {
		known = 0x3f;
		opts = ((o & 1) ? 0x08u : 0) | ((o & 2) ? 0x10u : 0) | ((o & 4) ? 0x01u : 0) | ((o & 8) ? 0x20u : 0) | ((o & 16) ? 0x02u : 0) |
		       ((o & 32) ? 0x04u : 0);
	}
	n->options = (n->options & ~known) | opts;
	if (te_inst->qual_status != 0) {
		n->start_of_trace = 1; /* trace ended, so get ready to start again */
		if (te_inst->qual_status == 3 && n->inferred_address && !n->lost) {
			uint64_t previous_address = n->pc;
			n->inferred_address = 0;
			n->run = 0;
			for (;;) {
				int stop_here = naive_step(n, previous_address);
				if (stop_here < 0) {
					naive_error(n, (unsigned)-stop_here);
					return;
				}
				naive_report_pc(n, n->pc);
				if (stop_here)
					return;
			}
		}
	}
}

static void naive_process_te_inst(struct naive *n, const struct pmregs_etrace_te_inst *te_inst)
{
	uint64_t m = naive_amask(n);
	unsigned aw = (unsigned)(n->p->iaddress_width_p - n->p->iaddress_lsb_p);
	n->packets++;
	n->steps = 0;
	n->te_inst = te_inst;
	n->error = 0;
	if (te_inst->shape > PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE) {
		naive_error(n, 9); /* a packet of no known shape */
		return;
	}
	naive_semantic(n, te_inst);
	if (te_inst->format == 3) {
		if (te_inst->subformat == 3) {
			naive_process_support(n, te_inst);
			return;
		}
		if (te_inst->subformat == 2) {
			struct naive_item it = {2, te_inst->context, te_inst->time, 0, 0, 0, te_inst->privilege};
			naive_emit(n, it);
			return;
		}
		if (te_inst->subformat == 1) {
			/* report_trap, and report_epc for an exception */
			struct naive_item it = {1, 0, te_inst->interrupt ? 0 : te_inst->tval, (uint32_t)te_inst->ecause, 0, 0, te_inst->privilege};
			int s = 1;
			uint64_t epc = 0;
			it.length = (te_inst->interrupt ? 1u : 0u) | (te_inst->thaddr ? 2u : 0u);
			if (!te_inst->interrupt) {
				if (n->lost)
					s = 1;
				else if (n->start_of_trace)
					s = te_inst->thaddr ? 1 : (epc = (te_inst->address << n->p->iaddress_lsb_p) & m, 0);
				else
					s = naive_exception_address(n, te_inst, &epc);
				if (s == 0) {
					it.length |= 4;
					it.address = epc;
				}
			}
			naive_emit(n, it);
			if (s < 0) {
				naive_error(n, (unsigned)-s);
				if (!te_inst->thaddr)
					return;
			}
			if (!te_inst->thaddr) /* trap only - nothing retired */
				return;
		}
		naive_sync(n, te_inst);
		return;
	}
	if (n->start_of_trace) {
		/* expecting the trace to start with format 3 */
		if (!n->lost)
			naive_error(n, 1);
		return;
	}
	if (te_inst->format == 0) {
		if (te_inst->shape == PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE) {
			n->notify = n->updiscon = 0;
			if (!n->has_cache || te_inst->index >= ((uint64_t)1 << n->p->cache_size_p) ||
			    (!n->inferred_address && (n->cache[te_inst->index] & 1))) {
				naive_error(n, 7);
				return;
			}
			n->stop_at_last_branch = 0;
			if (n->inferred_address) {
				n->jtc_deferred = 1; /* read once the inferred address's second pass has ended */
				n->jtc_index = te_inst->index;
			} else {
				n->address = n->cache[te_inst->index];
				n->base = n->address;
			}
			{
				unsigned k;
				for (k = 0; k < te_inst->branches; k++)
					naive_push_q(n, Q_BIT, (te_inst->branch_map >> k) & 1u, 1);
			}
		} else {
			unsigned fmt = te_inst->branch_fmt;
			int k, run_seen = 0;
			if (!n->has_bpred || fmt == 1) {
				naive_error(n, 8);
				return;
			}
			for (k = 0; k < n->nq; k++) {
				if (n->q[k].type == Q_RUN)
					run_seen = 1;
				else if (run_seen) {
					naive_error(n, 3);
					return;
				}
			}
			if (fmt >= 2) {
				n->stop_at_last_branch = 0;
				if (n->options & 4u)
					n->address = (te_inst->address << n->p->iaddress_lsb_p) & m;
				else
					n->address = (n->base + ((uint64_t)naive_sext(te_inst->address, aw) << n->p->iaddress_lsb_p)) & m;
				n->base = n->address;
			}
			naive_push_q(n, Q_RUN, 0, (uint64_t)te_inst->branch_count + 31);
			if (fmt != 2)
				naive_push_q(n, Q_FAIL, 0, 1);
			if (fmt == 0)
				n->stop_at_last_branch = 1;
		}
	} else {
		if (te_inst->format == 2 || te_inst->branches != 0) {
			n->stop_at_last_branch = 0;
			if (n->options & 4u)
				n->address = (te_inst->address << n->p->iaddress_lsb_p) & m;
			else
				n->address = (n->base + ((uint64_t)naive_sext(te_inst->address, aw) << n->p->iaddress_lsb_p)) & m;
			n->base = n->address;
		}
		if (te_inst->format == 1) {
			unsigned k, nb = te_inst->branches ? te_inst->branches : 31;
			n->stop_at_last_branch = te_inst->branches == 0;
			for (k = 0; k < nb; k++)
				naive_push_q(n, Q_BIT, (te_inst->branch_map >> k) & 1u, 1);
		}
	}
	if (naive_map_entries(n) > 63) {
		naive_error(n, 3);
		return;
	}
	naive_follow_execution_path(n, n->address, te_inst);
}

#endif
