/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for <pmregs/etrace_encoder.h>, under ASan and UBSan: ingress
 * blocks with any values (hostile ingress: reserved itypes, blocks too short
 * for their last instruction, causes and privileges too wide, any flags), or
 * the blocks of a hart-model program (tests/c/etrace_hart.h) with edits, under
 * parameters, options and a resynchronisation counter from the input. The same
 * blocks go through three fresh encoders, then pmregs_etrace_encoder_finish():
 *   A: pmregs_etrace_encoder_step() one block at a time, the packets taken
 *      after each;
 *   B: pmregs_etrace_encoder_run() (its short loop, then the step), a refused
 *      block reported by calling the step on it again, as its comment says;
 *   C: pmregs_etrace_encoder_run_smi() (packets of formats 1 and 2 written
 *      straight by the short SMI writer, the others through the queue).
 * A and B must give the same packets, the same refusals with the same codes
 * and the same counts of blocks and packets. Each packet of A framed by
 * pmregs_etrace_smi_stream_put() must give C's bytes, unless a packet could
 * not be framed (C drops it and reports trace_lost: A cannot). C's stream
 * must walk to its end, every payload decoding to the packet A made.
 *
 * Input: byte 0 the parameters (bits 0-2: one of eight sets; bit 3: 32-bit
 * addresses), byte 1 the options (PMREGS_ETRACE_ENCODER_*, bits 0-4), bit 5
 * single retirement, bit 6 itype 3 bits wide, bit 7 the PULP ioptions layout;
 * byte 2 the resynchronisation unit (bits 0-1) and the SMI index (bits 2-7);
 * byte 3 resync_max; byte 4 bit 0: a hart-model program (then 4 bytes of seed,
 * and 4-byte edits: block, what, value; trace loss, idle cycles or new options
 * before a block are edits too) or blocks from the bytes (8 bytes each, then
 * 0, 1, 4 or 8 bytes of address).
 *
 * The seed corpus is deep_calls (100 calls, then 100 returns: implicit
 * returns more than 64 deep) and what this target found in half an hour on
 * two cores (2.8 million runs, inputs of up to 2048 bytes) and in earlier
 * shorter runs, merged at 256 bytes.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 *
 * pmregs-fuzz-runs: 5000
 * pmregs-fuzz-opt: -O1 -fno-inline
 * pmregs-fuzz-cmp: off (edges reached in 5000 runs, seeds 1 and 3: 1623 with it and without; the run
 *   takes a third of the time without)
 * pmregs-fuzz-share: etrace
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace_encoder.h>
#include "../common/fuzz_oracle.h"
/* the hart model makes the blocks (it calls no pmregs function) */
FUZZ_ORACLE_BEGIN
#include "../c/etrace_hart.h"
FUZZ_ORACLE_END

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

#define FE_MAXBLK 1024
#define FE_MAXPKT (FE_MAXBLK * PMREGS_ETRACE_ENCODER_STEP_MAX + 64)
#define FE_MAXEV 1500

static struct hart_prog fe_prog;
static struct hart_event fe_events[FE_MAXEV];
static struct pmregs_etrace_ingress fe_blk[FE_MAXBLK];
static int fe_refused[FE_MAXBLK];
/* what happens before a block: trace loss (bit 0), idle cycles (bit 1, fe_evn), new options (bit 2, fe_evo) */
static uint8_t fe_ev[FE_MAXBLK], fe_evn[FE_MAXBLK], fe_evo[FE_MAXBLK];
static struct pmregs_etrace_te_inst fe_pa[FE_MAXPKT], fe_pb[FE_MAXPKT];
static unsigned char fe_sa[FE_MAXPKT * PMREGS_ETRACE_SMI_MAX_BYTES], fe_sc[FE_MAXPKT * PMREGS_ETRACE_SMI_MAX_BYTES + 4096];
static uint64_t fe_work[1 << 13], fe_truth[FE_MAXEV];

static void fe_pick_params(unsigned k, struct pmregs_etrace_params *p)
{
	pmregs_etrace_params_default(p);
	p->iaddress_width_p = (k & 8) ? 32 : 64;
	switch (k & 7) {
	case 1: /* the implicit-return and prediction tables */
		p->return_stack_size_p = 3;
		p->cache_size_p = 4;
		p->bpred_size_p = 6;
		p->f0s_width_p = 1;
		break;
	case 2: /* a call counter, context and time in the synchronisation packets */
		p->call_counter_size_p = 5;
		p->nocontext_p = 0;
		p->context_width_p = 16;
		p->notime_p = 0;
		p->time_width_p = 24;
		break;
	case 3:
		p->iaddress_lsb_p = 0;
		p->implicit_exception = 1;
		p->sijump_p = 1;
		break;
	case 4: /* narrow fields: causes and privileges that do not fit */
		p->ecause_width_p = 2;
		p->privilege_width_p = 1;
		p->return_stack_size_p = 1;
		break;
	case 5:
		p->return_stack_size_p = 5;
		p->sijump_p = 1;
		p->smi_index_bits = 5;
		break;
	case 6:
		p->cache_size_p = 2;
		p->bpred_size_p = 1;
		p->f0s_width_p = 2;
		p->iaddress_width_p = (k & 8) ? 16 : 40;
		break;
	case 7: /* deep stacks: returns more than 64 calls down */
		p->call_counter_size_p = 9;
		p->return_stack_size_p = 7;
		p->implicit_exception = 1;
		break;
	default:
		break;
	}
}

/* Where the block after b goes by default: after it, or back from a return to where the innermost open call
 * (ra[0..*sp)) returns. */
static uint64_t fe_next(const struct pmregs_etrace_ingress *b, uint64_t *ra, unsigned *sp)
{
	uint64_t end = b->iaddr + 2u * (uint64_t)b->iretire;
	if ((b->itype == PMREGS_ETRACE_ITYPE_RETURN || b->itype == PMREGS_ETRACE_ITYPE_COROUTINE_SWAP) && *sp)
		end = ra[--*sp];
	if ((b->itype == PMREGS_ETRACE_ITYPE_UNINF_CALL || b->itype == PMREGS_ETRACE_ITYPE_INF_CALL) && *sp < 256)
		ra[(*sp)++] = b->iaddr + 2u * (uint64_t)b->iretire;
	return end;
}

/* Blocks from the bytes: 8 bytes (ctl, itype and repeat, iretire, ilastsize/priv/sijump, ctype/cause, context,
 * tval), then the address (ctl bits 0-1: where the previous block goes (fe_next()), a signed half-word step, 4 or 8
 * bytes); ctl bit 2: trace loss before the block, bit 3: context + 1 idle cycles before it; ctl bits 4-7 are the
 * flags. The top 3 bits of the itype byte repeat the block, each copy where the one before goes: calls and returns
 * deeper than 64, long branch maps. */
static size_t fe_raw_blocks(const unsigned char *d, size_t n)
{
	static const unsigned repeat[8] = {1, 1, 1, 1, 2, 8, 33, 100};
	size_t k = 0;
	uint64_t at = 0x80000000u, ra[256];
	unsigned sp = 0;
	while (n >= 8 && k < FE_MAXBLK) {
		struct pmregs_etrace_ingress *b = &fe_blk[k];
		unsigned ctl = d[0], mode = ctl & 3u, i, r;
		size_t need = 8u + (mode == 1 ? 1u : mode == 2 ? 4u : mode == 3 ? 8u : 0u);
		if (n < need)
			break;
		memset(b, 0, sizeof *b);
		b->itype = (uint8_t)(d[1] & 31u);
		b->iretire = d[2];
		b->ilastsize = (uint8_t)(d[3] & 7u);
		b->priv = (uint8_t)((d[3] >> 3) & 15u);
		b->sijump = (uint8_t)(d[3] >> 7);
		b->ctype = (uint8_t)(d[4] & 3u);
		b->cause = d[4] >> 2;
		b->context = d[5];
		b->tval = (uint64_t)d[6] | ((uint64_t)d[7] << 8);
		b->flags = (uint8_t)(ctl >> 4);
		b->time = k;
		fe_ev[k] = (uint8_t)((ctl >> 2) & 3u);
		fe_evn[k] = (uint8_t)(d[5] + 1u);
		if (mode == 1)
			at += 2u * (uint64_t)(int64_t)(signed char)d[8];
		else if (mode >= 2)
			for (at = 0, i = 0; i < need - 8u; i++)
				at |= (uint64_t)d[8 + i] << (8 * i);
		b->iaddr = at;
		at = fe_next(b, ra, &sp);
		for (r = 1, k++; r < repeat[d[1] >> 5] && k < FE_MAXBLK; r++, k++) {
			fe_blk[k] = *b;
			fe_blk[k].iaddr = at;
			fe_blk[k].time = k;
			fe_ev[k] = 0;
			at = fe_next(&fe_blk[k], ra, &sp);
		}
		d += need;
		n -= need;
	}
	return k;
}

/* The blocks of a hart-model program chosen by d[0..3], then 4-byte edits: block, what (a field, or trace loss,
 * idle cycles or new options before the block), value. */
static size_t fe_hart_blocks(const unsigned char *d, size_t n, unsigned xlen, const struct pmregs_etrace_encoder_config *c)
{
	struct hart_log log;
	struct hart_opts o;
	size_t nb, nt;
	uint64_t seed;
	if (n < 4)
		return 0;
	seed = (uint64_t)d[0] | ((uint64_t)d[1] << 8) | ((uint64_t)d[2] << 16) | ((uint64_t)d[3] << 24);
	hart_generate(&fe_prog, seed, xlen, xlen == 32 ? 0x80000000u : 0x7ffff0000000u, 4 + (unsigned)(seed % 20));
	log.ev = fe_events;
	log.n = 0;
	log.cap = FE_MAXEV;
	hart_run(&fe_prog, seed * 7 + 1, (seed & 1) ? 97 : 0, 0, FE_MAXEV, hart_log_sink, &log);
	memset(&o, 0, sizeof o);
	o.block_max = c->iretire_unit == PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS ? 1 : 1 + (unsigned)(seed >> 8) % 6;
	o.itype_width = c->itype_width;
	o.ctx_rate = (seed & 2) ? 200 : 0;
	o.notify_rate = (seed & 4) ? 40 : 0;
	o.off_rate = (seed & 8) ? 50 : 0;
	o.on_rate = 6;
	o.seed = seed * 13 + 5;
	nb = hart_ingress(fe_events, log.n, &o, fe_blk, FE_MAXBLK, fe_truth, FE_MAXEV, &nt, PMREGS_NULL);
	memset(fe_ev, 0, nb);
	for (d += 4, n -= 4; n >= 4 && nb; d += 4, n -= 4) {
		size_t k = ((size_t)d[0] | ((size_t)d[1] << 8)) % nb;
		unsigned v = d[3];
		struct pmregs_etrace_ingress *b = &fe_blk[k];
		switch (d[2] & 15u) {
		case 8: fe_ev[k] |= 1u; continue;
		case 9: fe_ev[k] |= 2u; fe_evn[k] = (uint8_t)v; continue;
		case 10: fe_ev[k] |= 4u; fe_evo[k] = (uint8_t)v; continue;
		default: break;
		}
		switch (d[2] & 7u) {
		case 0: b->iaddr ^= (uint64_t)v << (d[2] >> 3); break;
		case 1: b->itype = (uint8_t)v; break;
		case 2: b->iretire = v; break;
		case 3: b->ilastsize = (uint8_t)(v & 7u); break;
		case 4: b->priv = (uint8_t)(v & 15u); break;
		case 5: b->flags = (uint8_t)(v & 15u); break;
		case 6: b->cause = v; b->tval = (uint64_t)v << 3; break;
		default: b->sijump = (uint8_t)(v & 1u); b->context = v >> 1; break;
		}
	}
	return nb;
}

/* What happens before block k (once). */
static void fe_before(struct pmregs_etrace_encoder *e, size_t k, const struct pmregs_etrace_encoder_config *c)
{
	if (fe_ev[k] & 1u)
		pmregs_etrace_encoder_lost(e);
	if (fe_ev[k] & 2u)
		pmregs_etrace_encoder_idle(e, fe_evn[k]);
	if (fe_ev[k] & 4u) {
		struct pmregs_etrace_encoder_config n = *c;
		n.options = fe_evo[k] & PMREGS_ETRACE_ENCODER_OPTIONS_ALL;
		n.resync_max = fe_evo[k] >> 3;
		(void)pmregs_etrace_encoder_set_options(e, &n);
	}
}

/* The end of the segment that starts at block k: the next block with something before it. */
static size_t fe_segment(size_t k, size_t nb)
{
	for (k++; k < nb && !fe_ev[k]; k++)
		;
	return k;
}

/*
 * B (smi 0) or C (smi 1, framed by f): the batch form over the blocks, a segment at a time (what happens before a
 * block comes between segments), a refused block reported by calling the step on it again; then the end of the
 * trace. Returns the packets (into fe_pb) or the bytes (into fe_sc) written.
 */
static size_t fe_batch(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_config *c, size_t nb, int smi,
		       const struct pmregs_etrace_smi *f)
{
	size_t k, n = 0, got;
	for (k = 0; k < nb;) {
		size_t end = fe_segment(k, nb);
		fe_before(e, k, c);
		if (smi)
			k += pmregs_etrace_encoder_run_smi(e, fe_blk + k, end - k, f, fe_sc + n, sizeof fe_sc - n, &got);
		else
			k += pmregs_etrace_encoder_run(e, fe_blk + k, end - k, fe_pb + n, FE_MAXPKT - n, &got);
		n += got;
		if (k < end) {
			REQUIRE(fe_refused[k] < 0);
			REQUIRE(pmregs_etrace_encoder_step(e, &fe_blk[k]) == fe_refused[k]);
			k++;
		}
	}
	REQUIRE(pmregs_etrace_encoder_finish(e, 1) >= 0);
	if (smi) {
		(void)pmregs_etrace_encoder_put_smi(e, f, fe_sc + n, sizeof fe_sc - n, &got);
		n += got;
	} else {
		n += pmregs_etrace_encoder_take(e, fe_pb + n, FE_MAXPKT - n);
	}
	REQUIRE(pmregs_etrace_encoder_pending(e) == 0);
	return n;
}

/* A fresh encoder: 0 when the parameters and the configuration do not go together. */
static int fe_start(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_params *p, const struct pmregs_etrace_encoder_config *c)
{
	return pmregs_etrace_encoder_init(e, p, c, fe_work, sizeof fe_work) == PMREGS_OK;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct pmregs_etrace_encoder e;
	struct pmregs_etrace_params p;
	struct pmregs_etrace_encoder_config c;
	struct pmregs_etrace_smi f;
	struct pmregs_etrace_smi_stream ws;
	struct pmregs_etrace_smi_stream_item it;
	size_t nb, na = 0, npb, k, i, lsa = 0, lsc;
	uint64_t blocks, packets;
	int framed = 1, rc;
	if (size < 5)
		return 0;
	fe_pick_params(data[0], &p);
	if (pmregs_etrace_params_check(&p) != PMREGS_OK)
		return 0;
	pmregs_etrace_encoder_config_default(&c);
	c.options = data[1] & PMREGS_ETRACE_ENCODER_OPTIONS_ALL;
	c.iretire_unit = (data[1] & 0x20) ? PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS : PMREGS_ETRACE_ENCODER_IRETIRE_HALFWORDS;
	c.itype_width = (data[1] & 0x40) ? 3 : 4;
	c.ioptions_layout = (data[1] & 0x80) ? PMREGS_ETRACE_ENCODER_IOPTIONS_PULP : PMREGS_ETRACE_ENCODER_IOPTIONS_REF;
	c.resync_unit = (uint8_t)(data[2] % 3u);
	c.resync_max = data[3];
	if (pmregs_etrace_encoder_check(&p, &c, PMREGS_NULL) != PMREGS_OK || !fe_start(&e, &p, &c))
		return 0;
	pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	f.index = (uint16_t)((data[2] >> 2) & ((1u << p.smi_index_bits) - 1u));
	nb = (data[4] & 1) ? fe_hart_blocks(data + 5, size - 5, p.iaddress_width_p == 32 ? 32 : 64, &c)
			   : fe_raw_blocks(data + 5, size - 5);

	/* A: one block at a time */
	for (k = 0; k < nb; k++) {
		fe_before(&e, k, &c);
		fe_refused[k] = pmregs_etrace_encoder_step(&e, &fe_blk[k]);
		REQUIRE(fe_refused[k] >= 0 || fe_refused[k] == PMREGS_EINVAL || fe_refused[k] == PMREGS_ERANGE);
		na += pmregs_etrace_encoder_take(&e, fe_pa + na, FE_MAXPKT - na);
	}
	REQUIRE(pmregs_etrace_encoder_finish(&e, 1) >= 0);
	na += pmregs_etrace_encoder_take(&e, fe_pa + na, FE_MAXPKT - na);
	REQUIRE(pmregs_etrace_encoder_pending(&e) == 0 && na < FE_MAXPKT);
	blocks = e.stats.blocks;
	packets = e.stats.packets;
	for (i = 0; i < na; i++) {
		/* every packet frames, unless a caller's value is too wide for its field */
		rc = pmregs_etrace_smi_stream_put(&p, &f, &fe_pa[i], fe_sa + lsa, sizeof fe_sa - lsa);
		REQUIRE(rc > 0 || rc == PMREGS_ERANGE);
		if (rc < 0)
			framed = 0;
		else
			lsa += (size_t)rc;
	}

	/* B: the batch form */
	REQUIRE(fe_start(&e, &p, &c));
	npb = fe_batch(&e, &c, nb, 0, &f);
	REQUIRE(npb == na && (na == 0 || memcmp(fe_pa, fe_pb, na * sizeof fe_pa[0]) == 0));
	REQUIRE(e.stats.blocks == blocks && e.stats.packets == packets);

	/* C: straight into an SMI stream */
	REQUIRE(fe_start(&e, &p, &c));
	lsc = fe_batch(&e, &c, nb, 1, &f);
	if (framed) {
		REQUIRE(e.stats.dropped == 0 && e.stats.packets == packets);
		REQUIRE(lsc == lsa && memcmp(fe_sa, fe_sc, lsa) == 0);
	}
	/* the stream walks to its end, and (nothing dropped) gives back A's packets */
	pmregs_etrace_smi_stream_init(&ws, fe_sc, lsc, 1);
	for (i = 0; pmregs_etrace_smi_stream_next(&ws, &p, &it);) {
		REQUIRE(it.status == PMREGS_OK && it.has_payload);
		if (framed) {
			unsigned char x[64], y[64];
			int m = pmregs_etrace_te_inst_encode(&p, &fe_pa[i], x, sizeof x);
			REQUIRE(i < na && m > 0 && pmregs_etrace_te_inst_encode(&p, &it.payload, y, sizeof y) == m);
			REQUIRE(memcmp(x, y, (size_t)m) == 0);
		}
		i++;
	}
	REQUIRE(ws.pos == lsc && (!framed || i == na));
	return 0;
}
