/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A naive E-Trace te_inst codec written by hand from the payload tables of the
 * E-Trace specification, one bit at a time, independent of the generated
 * header's machinery (it shares only the packet struct, to compare results).
 * tests/c/test_etrace.c checks the generated codec against it; the benchmark
 * uses it as the baseline.
 *
 * Field order and widths: E-Trace spec, "Instruction Trace Encoder Output
 * Packets", tables for format 3 subformats 0-3, format 2, format 1 (both
 * tables), format 0 subformats 0 and 1. Compression: the rule of the spec's
 * "sign based compression" paragraph, as the reference flow implements it
 * (keep b[0..m-1], m the smallest m >= 1 with b[m-1..n-1] all equal).
 */
#ifndef TEST_ETRACE_NAIVE_H
#define TEST_ETRACE_NAIVE_H

#include <pmregs/etrace.h>

#define NV_MAXF 16

struct nv_list {
	unsigned n;
	unsigned w[NV_MAXF];
	uint64_t v[NV_MAXF];
};

static void nv_add(struct nv_list *l, unsigned w, uint64_t v)
{
	l->w[l->n] = w;
	l->v[l->n] = v;
	l->n++;
}

static unsigned nv_maplen(unsigned branches)
{
	if (branches <= 1)
		return 1;
	if (branches <= 3)
		return 3;
	if (branches <= 7)
		return 7;
	if (branches <= 15)
		return 15;
	return 31;
}

/* The fields of *t in transmission order, widths from the parameter formulas. */
static void nv_fields(const struct pmregs_etrace_params *p, const struct pmregs_etrace_te_inst *t, struct nv_list *l)
{
	unsigned A = (unsigned)p->iaddress_width_p - p->iaddress_lsb_p;
	unsigned P = p->privilege_width_p;
	unsigned T = p->notime_p ? 0 : p->time_width_p;
	unsigned C = p->nocontext_p ? 0 : p->context_width_p;
	unsigned D = (unsigned)p->return_stack_size_p + (p->return_stack_size_p > 0 ? 1u : 0u) + p->call_counter_size_p;
	l->n = 0;
	nv_add(l, 2, t->format);
	switch (t->format) {
	case 3:
		nv_add(l, 2, t->subformat);
		if (t->subformat == 0 || t->subformat == 1) {
			nv_add(l, 1, t->branch);
			nv_add(l, P, t->privilege);
			nv_add(l, T, t->time);
			nv_add(l, C, t->context);
			if (t->subformat == 1) {
				nv_add(l, p->ecause_width_p, t->ecause);
				nv_add(l, 1, t->interrupt);
				nv_add(l, 1, t->thaddr);
				nv_add(l, (p->implicit_exception && t->thaddr) ? 0 : A, t->address);
				nv_add(l, t->interrupt ? 0 : p->iaddress_width_p, t->tval);
			} else {
				nv_add(l, A, t->address);
			}
		} else if (t->subformat == 2) {
			nv_add(l, P, t->privilege);
			nv_add(l, T, t->time);
			nv_add(l, C, t->context);
		} else {
			nv_add(l, 1, t->ienable);
			nv_add(l, p->encoder_mode_width, t->encoder_mode);
			nv_add(l, 2, t->qual_status);
			nv_add(l, p->ioptions_width, t->ioptions);
			nv_add(l, 1, t->denable);
			nv_add(l, 1, t->dloss);
			nv_add(l, p->doptions_width, t->doptions);
		}
		break;
	case 2:
		nv_add(l, A, t->address);
		nv_add(l, 1, t->notify);
		nv_add(l, 1, t->updiscon);
		nv_add(l, 1, t->irreport);
		nv_add(l, D, t->irdepth);
		break;
	case 1:
		nv_add(l, 5, t->branches);
		if (t->branches == 0) {
			nv_add(l, 31, t->branch_map);
		} else {
			nv_add(l, nv_maplen(t->branches), t->branch_map);
			nv_add(l, A, t->address);
			nv_add(l, 1, t->notify);
			nv_add(l, 1, t->updiscon);
			nv_add(l, 1, t->irreport);
			nv_add(l, D, t->irdepth);
		}
		break;
	default:
		nv_add(l, p->f0s_width_p, t->subformat);
		if (t->subformat == 0) {
			nv_add(l, 32, t->branch_count);
			nv_add(l, 2, t->branch_fmt);
			if (t->branch_fmt != 0) {
				nv_add(l, A, t->address);
				nv_add(l, 1, t->notify);
				nv_add(l, 1, t->updiscon);
				nv_add(l, 1, t->irreport);
				nv_add(l, D, t->irdepth);
			}
		} else {
			nv_add(l, p->cache_size_p, t->index);
			nv_add(l, 5, t->branches);
			nv_add(l, t->branches ? nv_maplen(t->branches) : 0, t->branch_map);
			nv_add(l, 1, t->irreport);
			nv_add(l, D, t->irdepth);
		}
		break;
	}
}

/* Encode one bit at a time; returns the byte count (compressed unless `full`). */
static int nv_encode(const struct pmregs_etrace_params *p, const struct pmregs_etrace_te_inst *t, unsigned char *out,
		     int full)
{
	unsigned char bits[512];
	struct nv_list l;
	unsigned n = 0, i, j, m, nbytes;
	nv_fields(p, t, &l);
	for (i = 0; i < l.n; i++)
		for (j = 0; j < l.w[i]; j++)
			bits[n++] = (unsigned char)((l.v[i] >> j) & 1u);
	m = n;
	if (!full) {
		/* the smallest m >= 1 such that bits m-1 .. n-1 all equal bit n-1 */
		m = n;
		while (m > 1 && bits[m - 2] == bits[n - 1])
			m--;
	}
	nbytes = (m + 7) / 8;
	for (i = 0; i < nbytes; i++) {
		unsigned byte = 0;
		for (j = 0; j < 8; j++) {
			unsigned k = 8 * i + j;
			unsigned bit = k < m ? bits[k] : bits[m - 1];
			byte |= bit << j;
		}
		out[i] = (unsigned char)byte;
	}
	return (int)nbytes;
}

/* Bit-at-a-time reader with sign extension past the end. */
struct nv_reader {
	const unsigned char *b;
	size_t len;
	unsigned pos;
};

static unsigned nv_bit(const struct nv_reader *r, unsigned k)
{
	if (k >= 8 * r->len)
		k = (unsigned)(8 * r->len - 1);
	return ((unsigned)r->b[k / 8] >> (k % 8)) & 1u;
}

static uint64_t nv_get(struct nv_reader *r, unsigned w)
{
	uint64_t v = 0;
	unsigned j;
	for (j = 0; j < w; j++)
		v |= (uint64_t)nv_bit(r, r->pos + j) << j;
	r->pos += w;
	return v;
}

/* Decode, choosing the shape as the tables say. Returns 0 or -1 (no such packet). */
static int nv_decode(const struct pmregs_etrace_params *p, const unsigned char *b, size_t len,
		     struct pmregs_etrace_te_inst *t)
{
	struct nv_reader r;
	unsigned A = (unsigned)p->iaddress_width_p - p->iaddress_lsb_p;
	unsigned P = p->privilege_width_p;
	unsigned T = p->notime_p ? 0 : p->time_width_p;
	unsigned C = p->nocontext_p ? 0 : p->context_width_p;
	unsigned D = (unsigned)p->return_stack_size_p + (p->return_stack_size_p > 0 ? 1u : 0u) + p->call_counter_size_p;
	r.b = b;
	r.len = len;
	r.pos = 0;
	pmregs_etrace_te_inst_init(t, 0);
	t->format = (uint8_t)nv_get(&r, 2);
	switch (t->format) {
	case 3:
		t->subformat = (uint8_t)nv_get(&r, 2);
		if (t->subformat <= 1) {
			t->branch = (uint8_t)nv_get(&r, 1);
			t->privilege = (uint8_t)nv_get(&r, P);
			t->time = nv_get(&r, T);
			t->context = nv_get(&r, C);
			if (t->subformat == 1) {
				t->shape = PMREGS_ETRACE_TE_INST_SHAPE_TRAP;
				t->ecause = nv_get(&r, p->ecause_width_p);
				t->interrupt = (uint8_t)nv_get(&r, 1);
				t->thaddr = (uint8_t)nv_get(&r, 1);
				t->address = nv_get(&r, (p->implicit_exception && t->thaddr) ? 0 : A);
				t->tval = nv_get(&r, t->interrupt ? 0 : p->iaddress_width_p);
			} else {
				t->shape = PMREGS_ETRACE_TE_INST_SHAPE_START;
				t->address = nv_get(&r, A);
			}
		} else if (t->subformat == 2) {
			t->shape = PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT;
			t->privilege = (uint8_t)nv_get(&r, P);
			t->time = nv_get(&r, T);
			t->context = nv_get(&r, C);
		} else {
			t->shape = PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT;
			t->ienable = (uint8_t)nv_get(&r, 1);
			t->encoder_mode = (uint32_t)nv_get(&r, p->encoder_mode_width);
			t->qual_status = (uint8_t)nv_get(&r, 2);
			t->ioptions = (uint32_t)nv_get(&r, p->ioptions_width);
			t->denable = (uint8_t)nv_get(&r, 1);
			t->dloss = (uint8_t)nv_get(&r, 1);
			t->doptions = (uint32_t)nv_get(&r, p->doptions_width);
		}
		break;
	case 2:
		t->shape = PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY;
		t->address = nv_get(&r, A);
		t->notify = (uint8_t)nv_get(&r, 1);
		t->updiscon = (uint8_t)nv_get(&r, 1);
		t->irreport = (uint8_t)nv_get(&r, 1);
		t->irdepth = nv_get(&r, D);
		break;
	case 1:
		t->branches = (uint8_t)nv_get(&r, 5);
		if (t->branches == 0) {
			t->shape = PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL;
			t->branch_map = (uint32_t)nv_get(&r, 31);
		} else {
			t->shape = PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA;
			t->branch_map = (uint32_t)nv_get(&r, nv_maplen(t->branches));
			t->address = nv_get(&r, A);
			t->notify = (uint8_t)nv_get(&r, 1);
			t->updiscon = (uint8_t)nv_get(&r, 1);
			t->irreport = (uint8_t)nv_get(&r, 1);
			t->irdepth = nv_get(&r, D);
		}
		break;
	default:
		t->subformat = (uint8_t)(p->f0s_width_p ? nv_get(&r, p->f0s_width_p) : p->f0s_inferred);
		if (t->subformat == 0) {
			t->branch_count = (uint32_t)nv_get(&r, 32);
			t->branch_fmt = (uint8_t)nv_get(&r, 2);
			if (t->branch_fmt == 1)
				return -1;
			if (t->branch_fmt == 0) {
				t->shape = PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT;
			} else {
				t->shape = PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR;
				t->address = nv_get(&r, A);
				t->notify = (uint8_t)nv_get(&r, 1);
				t->updiscon = (uint8_t)nv_get(&r, 1);
				t->irreport = (uint8_t)nv_get(&r, 1);
				t->irdepth = nv_get(&r, D);
			}
		} else if (t->subformat == 1) {
			t->shape = PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE;
			t->index = (uint32_t)nv_get(&r, p->cache_size_p);
			t->branches = (uint8_t)nv_get(&r, 5);
			t->branch_map = (uint32_t)nv_get(&r, t->branches ? nv_maplen(t->branches) : 0);
			t->irreport = (uint8_t)nv_get(&r, 1);
			t->irdepth = nv_get(&r, D);
		} else {
			return -1;
		}
		break;
	}
	return 0;
}

#endif
