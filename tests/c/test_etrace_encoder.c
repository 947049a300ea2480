/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Tests of <pmregs/etrace_encoder.h>: the reference encoder's packets for the
 * same ingress, byte for byte (tests/etrace/encoder, with their provenance);
 * the specification's worked retirement example; single-retirement and
 * block ingress giving the same packets; each flowchart decision on hand-made
 * ingress (traps with thaddr 0 and 1, notify, updiscon, the full branch map,
 * resynchronisation, support packets for qualification, trace loss and
 * option changes); implicit return, the jump target cache and branch
 * prediction in their formats; the option checks and refused blocks; the
 * naive transliteration of the flowchart (test_etrace_naive_encoder.h)
 * against the encoder on random programs.
 *
 * pmregs-test: no-force-inline (its native gcc -O2 build also defines PMREGS_NO_FORCE_INLINE: no path it
 * checks depends on the inlining; the one that does, the stream readers' constant-parameter path, is
 * test_etrace_word's)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace_encoder.h>
#include "../common/check.h"

/*
 * pmregs_etrace_encoder_step() through one function that is not inlined: the header forces it inline
 * (PMREGS_HOT), and inlined at each call site below it made the gcc -O2 build of this file take
 * several times as long, for the same code under test.
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int encoder_step(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in)
{
	return pmregs_etrace_encoder_step(e, in);
}

/*
 * The rest of this file (the hart model, the naive encoder, the tests) runs for a few hundredths of a
 * second: compiled with little optimisation (TEST_COLD_BEGIN, tests/common/check.h); the encoder under
 * test keeps the build's (pmregs_etrace_encoder_step() above, and every other function of the header
 * it calls).
 */
TEST_COLD_BEGIN
#include "etrace_hart.h"
#include "test_etrace_naive_encoder.h"

typedef struct pmregs_etrace_te_inst pkt_t;
typedef struct pmregs_etrace_ingress blk_t;

static struct pmregs_etrace_encoder enc;
static uint64_t work[4096];

/* ---- helpers ---- */

static void params(struct pmregs_etrace_params *p, unsigned width, unsigned lsb)
{
	pmregs_etrace_params_default(p);
	p->iaddress_width_p = (uint8_t)width;
	p->iaddress_lsb_p = (uint8_t)lsb;
	p->ecause_width_p = 5;
}

static int init(const struct pmregs_etrace_params *p, uint32_t options, unsigned resync_max)
{
	struct pmregs_etrace_encoder_config c;
	pmregs_etrace_encoder_config_default(&c);
	c.options = options;
	c.resync_max = resync_max;
	return pmregs_etrace_encoder_init(&enc, p, &c, work, sizeof work);
}

static blk_t insn(uint64_t addr, unsigned bytes, unsigned itype)
{
	blk_t b;
	memset(&b, 0, sizeof b);
	b.iaddr = addr;
	b.iretire = bytes / 2;
	b.ilastsize = (uint8_t)(bytes == 2 ? 0 : 1);
	b.itype = (uint8_t)itype;
	b.priv = 3;
	return b;
}

static blk_t trap(uint64_t epc, unsigned itype, uint64_t cause)
{
	blk_t b;
	memset(&b, 0, sizeof b);
	b.iaddr = epc;
	b.itype = (uint8_t)itype;
	b.cause = cause;
	b.priv = 3;
	return b;
}

/* step each block, collect the packets */
static size_t encode(const blk_t *b, size_t n, int finish, pkt_t *out, size_t cap)
{
	size_t k, o = pmregs_etrace_encoder_take(&enc, out, cap);
	for (k = 0; k < n; k++) {
		CHECK(encoder_step(&enc, &b[k]) >= 0);
		o += pmregs_etrace_encoder_take(&enc, out + o, cap - o);
	}
	if (finish) {
		pmregs_etrace_encoder_finish(&enc, 0);
		o += pmregs_etrace_encoder_take(&enc, out + o, cap - o);
	}
	return o;
}

static int same_pkt(const pkt_t *a, const pkt_t *b)
{
	return a->shape == b->shape && a->format == b->format && a->subformat == b->subformat && a->branch == b->branch &&
	       a->privilege == b->privilege && a->time == b->time && a->context == b->context && a->address == b->address &&
	       a->ecause == b->ecause && a->interrupt == b->interrupt && a->thaddr == b->thaddr && a->tval == b->tval &&
	       a->ienable == b->ienable && a->qual_status == b->qual_status && a->ioptions == b->ioptions &&
	       a->notify == b->notify && a->updiscon == b->updiscon && a->irreport == b->irreport && a->irdepth == b->irdepth &&
	       a->branches == b->branches && a->branch_map == b->branch_map && a->branch_count == b->branch_count &&
	       a->branch_fmt == b->branch_fmt && a->index == b->index;
}

static struct pmregs_etrace_te_inst_semantic sem(const struct pmregs_etrace_params *p, const pkt_t *t)
{
	struct pmregs_etrace_te_inst_semantic s;
	pmregs_etrace_te_inst_semantic_get(p, t, &s);
	return s;
}

/* ---- the reference encoder's vectors ---- */

static unsigned char want[65536], got[65536];

static void test_refflow(void)
{
	static const char *names[] = {
		"itype4_basic-rv64-seed3", "itype4_basic-rv32-seed5", "itype3_basic-rv64-seed5",
		"itype3_basic-rv32-seed3", "itype3_debug-rv64-seed1", "itype3_debug-rv32-seed5",
	};
	unsigned v;
	for (v = 0; v < sizeof names / sizeof names[0]; v++) {
		static const struct pmregs_etrace_params ref = PMREGS_ETRACE_PRESET_REFERENCE_FLOW;
		struct pmregs_etrace_params p = ref;
		struct pmregs_etrace_encoder_config c;
		struct pmregs_etrace_smi f;
		char path[256], line[512];
		FILE *in, *sm;
		size_t nwant, ngot = 0, used, rows = 0;
		const char *n = names[v];
		pmregs_etrace_encoder_config_default(&c);
		c.iretire_unit = PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS;
		p.iaddress_width_p = (uint8_t)(strstr(n, "rv32") ? 32 : 64);
		p.iaddress_lsb_p = (uint8_t)(strstr(n, "debug") ? 0 : 1);
		c.itype_width = (uint8_t)(strstr(n, "itype3") ? 3 : 4);
		c.resync_max = strstr(n, "debug") ? 32 : 16;
		c.options = strstr(n, "debug") ? PMREGS_ETRACE_ENCODER_FULL_ADDRESS : 0;
		CHECK_EQ(pmregs_etrace_encoder_init(&enc, &p, &c, work, sizeof work), PMREGS_OK);
		pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
		f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
		snprintf(path, sizeof path, "tests/etrace/encoder/%s.smi", n);
		sm = fopen(path, "rb");
		CHECK(sm != 0);
		if (!sm)
			continue;
		nwant = fread(want, 1, sizeof want, sm);
		fclose(sm);
		snprintf(path, sizeof path, "tests/etrace/encoder/%s.csv", n);
		in = fopen(path, "r");
		CHECK(in != 0);
		if (!in)
			continue;
		CHECK(fgets(line, sizeof line, in) != 0);
		while (fgets(line, sizeof line, in)) {
			unsigned long long it, cause, tval, priv, addr, ctx, ctype, ir, ils;
			blk_t b;
			memset(&b, 0, sizeof b);
			if (sscanf(line, "%llu,%llu,%llx,%llu,%llx,%llu,%llu,%llu,%llu", &it, &cause, &tval, &priv, &addr, &ctx, &ctype, &ir,
				   &ils) != 9) {
				CHECK(0); /* a row of nine fields */
				break;
			}
			b.itype = (uint8_t)it;
			b.cause = cause;
			b.tval = tval;
			b.priv = (uint8_t)priv;
			b.iaddr = addr;
			b.context = ctx;
			b.ctype = (uint8_t)ctype;
			b.iretire = (uint32_t)ir;
			b.ilastsize = (uint8_t)ils;
			CHECK(encoder_step(&enc, &b) >= 0);
			pmregs_etrace_encoder_put_smi(&enc, &f, got + ngot, sizeof got - ngot, &used);
			ngot += used;
			rows++;
		}
		fclose(in);
		pmregs_etrace_encoder_finish(&enc, 0);
		pmregs_etrace_encoder_put_smi(&enc, &f, got + ngot, sizeof got - ngot, &used);
		ngot += used;
		CHECK(rows > 500);
		CHECK_EQ(ngot, nwant);
		if (ngot == nwant && memcmp(got, want, nwant) != 0) {
			size_t i = 0;
			while (got[i] == want[i])
				i++;
			fprintf(stderr, "%s: first different byte at %lu\n", n, (unsigned long)i);
			CHECK(0); /* the reference encoder's bytes */
		}
	}
}

/* ---- the specification's example retirement sequence (ingress chapter, "Example 1") ---- */

static void test_spec_example(void)
{
	/* 9 instructions over four cycles, 2 branches:
	 *   1000 divuw, 1004 add, 1008 or, 100C c.jalr   iretire=7 iaddr=0x1000 itype=8
	 *   0940 addi, 0944 c.beq                         iretire=3 iaddr=0x0940 itype=4
	 *   0946 c.bnez                                   iretire=1 iaddr=0x0946 itype=5
	 *   0988 lbu, 098C csrrw                          iretire=4 iaddr=0x0988 itype=0 */
	struct pmregs_etrace_params p;
	blk_t b[4];
	pkt_t out[16];
	size_t n;
	params(&p, 32, 1);
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0x1000, 2, 8);
	b[0].iretire = 7;
	b[0].ilastsize = 0;
	b[1] = insn(0x940, 2, 4);
	b[1].iretire = 3;
	b[2] = insn(0x946, 2, 5);
	b[3] = insn(0x988, 4, 0);
	b[3].iretire = 4;
	n = encode(b, 4, 1, out, 16);
	/* support; 3.0 at 0x1000; format 2 at 0x940 (the c.jalr's target, nothing pending);
	 * at the end: format 1 with the two branches (taken 1, not taken 0) reporting 0x98c; support */
	CHECK_EQ(n, 5);
	CHECK_EQ(out[0].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	CHECK_EQ(out[0].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE);
	CHECK_EQ(out[1].shape, PMREGS_ETRACE_TE_INST_SHAPE_START);
	CHECK_EQ(out[1].address, 0x1000 >> 1);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[2].address, ((0x940u - 0x1000u) & 0xffffffffu) >> 1);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
	CHECK_EQ(out[3].branches, 2);
	CHECK_EQ(out[3].branch_map, 1); /* 0x944 not taken (1), 0x946 taken (0) */
	CHECK_EQ(out[3].address, (0x98cu - 0x940u) >> 1);
	CHECK_EQ(out[4].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	CHECK_EQ(out[4].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP);
	CHECK_EQ(out[4].ienable, 0);
}

/* ---- single retirement and blocks give the same packets ---- */

static struct hart_prog prog;
static struct hart_event evs[20000];
static blk_t b1[40000], b8[40000];
static pkt_t p1[40000], p8[40000];
static uint64_t truth[20000];

static void test_blocks_equal(void)
{
	unsigned s;
	for (s = 1; s <= 12; s++) {
		struct pmregs_etrace_params p;
		struct hart_log l = { evs, 0, 20000 };
		struct hart_opts o;
		size_t n1, n8, nt, k1, k8, i;
		uint32_t opt = s % 3 == 0 ? PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN : 0;
		params(&p, 64, 1);
		p.return_stack_size_p = 3;
		hart_generate(&prog, s, 64, 0x80000000u, 12 + s);
		hart_run(&prog, s, s % 2 ? 50 : 0, 0, 6000, hart_log_sink, &l);
		memset(&o, 0, sizeof o);
		o.itype_width = 4;
		o.seed = s;
		o.notify_rate = s % 4 == 1 ? 40 : 0;
		o.block_max = 1;
		n1 = hart_ingress(evs, l.n, &o, b1, 40000, truth, 20000, &nt, 0);
		o.block_max = 8;
		n8 = hart_ingress(evs, l.n, &o, b8, 40000, truth, 20000, &nt, 0);
		CHECK(n8 < n1);
		/* no resynchronisation: with blocks it lands on a block's last instruction */
		CHECK_EQ(init(&p, opt, 0), PMREGS_OK);
		k1 = encode(b1, n1, 1, p1, 40000);
		CHECK_EQ(init(&p, opt, 0), PMREGS_OK);
		k8 = encode(b8, n8, 1, p8, 40000);
		CHECK_EQ(k1, k8);
		for (i = 0; i < k1 && i < k8; i++)
			if (!same_pkt(&p1[i], &p8[i])) {
				fprintf(stderr, "seed %u: packet %lu differs\n", s, (unsigned long)i);
				CHECK(0); /* the same packets from single retirement and blocks */
				break;
			}
	}
}

/* ---- flowchart decisions on hand-made ingress ---- */

static void test_traps(void)
{
	struct pmregs_etrace_params p;
	blk_t b[8];
	pkt_t out[16];
	size_t n;
	params(&p, 32, 1);
	/* jalr at 0x100 jumps to 0x200, which faults at once (the EPC is not inferable):
	 * 3.1 with thaddr 0 and the EPC, then a 3.0 at the handler (the trap is reported) */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0xfc, 4, 0);
	b[1] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	b[2] = trap(0x200, PMREGS_ETRACE_ITYPE_EXCEPTION, 2);
	b[2].tval = 0x1234;
	b[3] = insn(0x8000, 4, 0);
	b[4] = insn(0x8004, 4, 0);
	n = encode(b, 5, 0, out, 16);
	CHECK_EQ(n, 5);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY); /* the jalr, last before the trap */
	CHECK_EQ(out[2].address, (0x100 - 0xfc) >> 1);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
	CHECK_EQ(out[3].thaddr, 0);
	CHECK_EQ(out[3].address, 0x200 >> 1);
	CHECK_EQ(out[3].ecause, 2);
	CHECK_EQ(out[3].tval, 0x1234);
	CHECK_EQ(out[4].shape, PMREGS_ETRACE_TE_INST_SHAPE_START);
	CHECK_EQ(out[4].address, 0x8000 >> 1);
	/* an ecall that retires: format 2 for it, then 3.1 with thaddr 1 at the handler */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0x100, 4, 0);
	b[1] = insn(0x104, 4, PMREGS_ETRACE_ITYPE_EXCEPTION);
	b[1].cause = 8;
	b[2] = insn(0x8000, 4, 0);
	b[3] = insn(0x8004, 4, 0);
	n = encode(b, 4, 0, out, 16);
	CHECK_EQ(n, 4);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[2].address, 2);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
	CHECK_EQ(out[3].thaddr, 1);
	CHECK_EQ(out[3].ecause, 8);
	CHECK_EQ(out[3].address, 0x8000 >> 1);
	/* two interrupts before the handler retires anything: 3.1 thaddr 0 for the first, 3.1 thaddr 1 for the second */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0xfc, 4, 0);
	b[1] = insn(0x100, 4, 0);
	b[2] = trap(0x104, PMREGS_ETRACE_ITYPE_INTERRUPT, 7);
	b[3] = trap(0x8000, PMREGS_ETRACE_ITYPE_INTERRUPT, 11);
	b[4] = insn(0x8000, 4, 0);
	b[5] = insn(0x8004, 4, 0);
	n = encode(b, 6, 0, out, 16);
	CHECK_EQ(n, 5);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY); /* 0x100, the last before the traps */
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
	CHECK_EQ(out[3].thaddr, 0);
	CHECK_EQ(out[3].ecause, 7);
	CHECK_EQ(out[3].interrupt, 1);
	CHECK_EQ(out[4].thaddr, 1);
	CHECK_EQ(out[4].ecause, 11);
	/* implicit exception: the 3.1 with thaddr 1 has no address */
	p.implicit_exception = 1;
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	CHECK_EQ(pmregs_etrace_encoder_ioptions(&enc), PMREGS_ETRACE_IOPTIONS_REF_IMPLICIT_EXCEPTION_MASK);
	b[0] = insn(0xfc, 4, 0);
	b[1] = insn(0x100, 4, 0);
	b[2] = trap(0x104, PMREGS_ETRACE_ITYPE_INTERRUPT, 7);
	b[3] = insn(0x8000, 4, 0);
	b[4] = insn(0x8004, 4, 0);
	n = encode(b, 5, 0, out, 16);
	CHECK_EQ(n, 4);
	CHECK_EQ(out[3].thaddr, 1);
	CHECK_EQ(out[3].address, 0);
}

static void test_updiscon_notify(void)
{
	struct pmregs_etrace_params p;
	blk_t b[8];
	pkt_t out[16];
	size_t n;
	params(&p, 32, 1);
	/* looplabel case 2: the target of a jalr is reported and the next instruction traps:
	 * updiscon asserted (the raw bit differs from notify's) */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0x100, 4, 0);
	b[1] = insn(0x104, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	b[2] = insn(0x100, 4, 0);
	b[3] = trap(0x104, PMREGS_ETRACE_ITYPE_INTERRUPT, 7);
	b[4] = insn(0x8000, 4, 0);
	n = encode(b, 5, 0, out, 16);
	CHECK_EQ(n, 3); /* the handler's 3.1 waits for the next block */
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(sem(&p, &out[2]).updiscon, 1);
	CHECK_EQ(sem(&p, &out[2]).notify, 0);
	/* the same target without a trap after it: updiscon not asserted */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[3] = insn(0x104, 4, 0);
	n = encode(b, 5, 0, out, 16);
	CHECK_EQ(n, 3);
	CHECK_EQ(sem(&p, &out[2]).updiscon, 0);
	/* notify on an instruction reached by falling through: reported, notify asserted */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0x100, 4, 0);
	b[1] = insn(0x104, 4, 0);
	b[1].flags = PMREGS_ETRACE_INGRESS_NOTIFY;
	b[2] = insn(0x108, 4, 0);
	b[3] = insn(0x10c, 4, 0);
	n = encode(b, 4, 0, out, 16);
	CHECK_EQ(n, 3);
	CHECK_EQ(out[2].address, 2);
	CHECK_EQ(sem(&p, &out[2]).notify, 1);
	CHECK_EQ(sem(&p, &out[2]).updiscon, 0);
}

static void test_branch_map(void)
{
	struct pmregs_etrace_params p;
	blk_t b[40];
	pkt_t out[16];
	size_t n;
	unsigned i;
	params(&p, 32, 1);
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	/* 31 branches, alternately taken: a format 1 without address (branches 0), the map in order */
	b[0] = insn(0x100, 4, 0);
	for (i = 0; i < 31; i++)
		b[1 + i] = insn(0x104, 4, i & 1 ? PMREGS_ETRACE_ITYPE_TAKEN_BRANCH : PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH);
	b[32] = insn(0x108, 4, 0);
	b[33] = insn(0x10c, 4, 0);
	n = encode(b, 34, 0, out, 16);
	CHECK_EQ(n, 3);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
	CHECK_EQ(out[2].branches, 0);
	CHECK_EQ(out[2].branch_map, 0x55555555u & 0x7fffffffu);
}

static void test_resync(void)
{
	struct pmregs_etrace_params p;
	blk_t b[200];
	pkt_t out[300];
	size_t n, i, k = 0, last_sync = 0, syncs = 0;
	params(&p, 32, 1);
	/* a loop of jalr: every target reported; every 16 packets a branch-map flush is not needed
	 * and the 3.0 comes right after the 17th packet since the last sync */
	CHECK_EQ(init(&p, 0, 16), PMREGS_OK);
	for (i = 0; i < 100; i++) {
		b[k++] = insn(0x100, 4, 0);
		b[k++] = insn(0x104, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	}
	n = encode(b, k, 0, out, 300);
	for (i = 2; i < n; i++) {
		if (out[i].shape == PMREGS_ETRACE_TE_INST_SHAPE_START) {
			CHECK_EQ(i - last_sync, 18); /* 17 packets between syncs, then the sync */
			last_sync = i;
			syncs++;
		}
		if (i == 2)
			last_sync = 1;
	}
	CHECK(syncs >= 5);
}

static void test_support(void)
{
	struct pmregs_etrace_params p;
	blk_t b[8];
	pkt_t out[16];
	size_t n;
	params(&p, 32, 1);
	CHECK_EQ(init(&p, PMREGS_ETRACE_ENCODER_FULL_ADDRESS, 0), PMREGS_OK);
	CHECK_EQ(pmregs_etrace_encoder_ioptions(&enc), PMREGS_ETRACE_IOPTIONS_REF_FULL_ADDRESS_MASK);
	/* qualification ends after 0x104 and starts again at 0x200 */
	b[0] = insn(0x100, 4, 0);
	b[1] = insn(0x104, 4, 0);
	b[2] = insn(0x108, 4, 0);
	b[2].flags = PMREGS_ETRACE_INGRESS_UNQUALIFIED;
	b[3] = insn(0x10c, 4, 0);
	b[3].flags = PMREGS_ETRACE_INGRESS_HALTED;
	b[4] = insn(0x200, 4, 0);
	b[5] = insn(0x204, 4, 0);
	n = encode(b, 6, 1, out, 16);
	CHECK_EQ(n, 7);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[2].address, 0x104 >> 1); /* full address */
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	CHECK_EQ(out[3].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP);
	CHECK_EQ(out[3].ienable, 1);
	CHECK_EQ(out[4].shape, PMREGS_ETRACE_TE_INST_SHAPE_START);
	CHECK_EQ(out[4].address, 0x200 >> 1);
	CHECK_EQ(out[5].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[6].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	CHECK_EQ(out[6].ienable, 0);
	/* lost packets: trace_lost, then a new 3.0 */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0x100, 4, 0);
	b[1] = insn(0x104, 4, 0);
	n = encode(b, 2, 0, out, 16);
	pmregs_etrace_encoder_lost(&enc);
	b[0] = insn(0x300, 4, 0);
	b[1] = insn(0x304, 4, 0);
	n += encode(b, 2, 0, out + n, 16 - n);
	CHECK_EQ(n, 4);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	CHECK_EQ(out[2].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_START);
	CHECK_EQ(out[3].address, 0x300 >> 1);
	/* a full queue: packets dropped, then trace_lost when there is room */
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	{
		unsigned i;
		for (i = 0; i < 60; i++) {
			blk_t x = insn(0x100 + 8u * (i & 1), 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
			encoder_step(&enc, &x);
		}
		CHECK(enc.stats.dropped > 0);
		n = pmregs_etrace_encoder_take(&enc, out, 16);
		n = pmregs_etrace_encoder_take(&enc, out, 16);
		b[0] = insn(0x400, 4, 0);
		encoder_step(&enc, &b[0]);
		n = pmregs_etrace_encoder_take(&enc, out, 16);
		CHECK(n >= 1);
		CHECK_EQ(out[0].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST);
	}
	/* a change of options: the support packet says ended_rep with the new ioptions */
	{
		struct pmregs_etrace_encoder_config c;
		CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
		b[0] = insn(0x100, 4, 0);
		b[1] = insn(0x104, 4, 0);
		n = encode(b, 2, 0, out, 16);
		pmregs_etrace_encoder_config_default(&c);
		c.options = PMREGS_ETRACE_ENCODER_FULL_ADDRESS;
		CHECK_EQ(pmregs_etrace_encoder_set_options(&enc, &c), PMREGS_OK);
		n = pmregs_etrace_encoder_take(&enc, out, 16);
		CHECK_EQ(n, 2);
		CHECK_EQ(out[1].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
		CHECK_EQ(out[1].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP);
		CHECK_EQ(out[1].ioptions, PMREGS_ETRACE_IOPTIONS_REF_FULL_ADDRESS_MASK);
	}
}

static void test_options(void)
{
	struct pmregs_etrace_params p;
	blk_t b[48];
	pkt_t out[32];
	size_t n;
	unsigned i;
	const char *why;
	struct pmregs_etrace_encoder_config c;
	/* refused combinations, each with its reason */
	params(&p, 32, 1);
	pmregs_etrace_encoder_config_default(&c);
	c.options = PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_EINVAL);
	CHECK(strstr(why, "return_stack_size_p") != 0);
	c.options = PMREGS_ETRACE_ENCODER_SIJUMP;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_EINVAL);
	CHECK(strstr(why, "sijump_p") != 0);
	p.sijump_p = 1;
	c.options = 0;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_EINVAL); /* the reference layout has no sijump bit */
	c.ioptions_layout = PMREGS_ETRACE_ENCODER_IOPTIONS_PULP;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_EINVAL); /* PULP's needs 7 bits */
	p.ioptions_width = 7;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_OK);
	p.sijump_p = 0;
	p.ioptions_width = 5;
	c.ioptions_layout = PMREGS_ETRACE_ENCODER_IOPTIONS_REF;
	c.options = PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE | PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION;
	p.cache_size_p = 2;
	p.bpred_size_p = 2;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_EINVAL);
	CHECK(strstr(why, "f0s_width_p") != 0);
	c.itype_width = 3;
	c.options = 0;
	CHECK_EQ(pmregs_etrace_encoder_check(&p, &c, &why), PMREGS_OK);
	/* refused blocks change nothing */
	params(&p, 32, 1);
	CHECK_EQ(init(&p, 0, 0), PMREGS_OK);
	b[0] = insn(0x100, 4, 7); /* reserved itype */
	CHECK_EQ(encoder_step(&enc, &b[0]), PMREGS_EINVAL);
	b[0] = insn(0x100, 4, 0);
	b[0].iretire = 1; /* shorter than the last instruction */
	CHECK_EQ(encoder_step(&enc, &b[0]), PMREGS_EINVAL);
	b[0] = trap(0x100, PMREGS_ETRACE_ITYPE_EXCEPTION, 99); /* cause wider than ecause_width_p */
	CHECK_EQ(encoder_step(&enc, &b[0]), PMREGS_ERANGE);
	CHECK_EQ(enc.stats.bad_blocks, 3);
	CHECK_EQ(pmregs_etrace_encoder_pending(&enc), 1); /* the first support packet only */

	/* implicit return: call 0x100 -> 0x200, return to 0x104 unreported; a return elsewhere (a
	 * misprediction) reported with irreport and irdepth = the entries on the stack (not popped) */
	params(&p, 32, 1);
	p.return_stack_size_p = 2;
	CHECK_EQ(init(&p, PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN, 0), PMREGS_OK);
	b[0] = insn(0xfc, 4, 0);
	b[1] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_INF_CALL);
	b[2] = insn(0x200, 4, PMREGS_ETRACE_ITYPE_INF_CALL);
	b[3] = insn(0x400, 4, PMREGS_ETRACE_ITYPE_RETURN);
	b[4] = insn(0x204, 4, PMREGS_ETRACE_ITYPE_RETURN);
	b[5] = insn(0x300, 4, 0);
	b[6] = insn(0x304, 4, 0);
	n = encode(b, 7, 0, out, 32);
	CHECK_EQ(n, 3);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[2].address, (0x300 - 0xfc) >> 1);
	CHECK_EQ(sem(&p, &out[2]).irreport, 1);
	CHECK_EQ(sem(&p, &out[2]).irdepth, 1);
	CHECK_EQ(enc.depth, 1);
	/* the same misprediction after an implicit return at the same depth since the last packet:
	 * irdepth cannot tell the two returns apart, so trace_lost, then a 3.0 at the target */
	CHECK_EQ(init(&p, PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN, 0), PMREGS_OK);
	b[0] = insn(0xfc, 4, 0);
	b[1] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_INF_CALL);
	b[2] = insn(0x200, 4, PMREGS_ETRACE_ITYPE_RETURN);
	b[3] = insn(0x104, 4, PMREGS_ETRACE_ITYPE_INF_CALL);
	b[4] = insn(0x200, 4, PMREGS_ETRACE_ITYPE_RETURN);
	b[5] = insn(0x300, 4, 0);
	b[6] = insn(0x304, 4, 0);
	n = encode(b, 7, 0, out, 32);
	CHECK_EQ(n, 4);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	CHECK_EQ(out[2].qual_status, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_START);
	CHECK_EQ(out[3].address, 0x300 >> 1);
	CHECK_EQ(enc.stats.ambiguous, 1);

	/* jump target cache: the second report of a target is its index (format 0.1) */
	params(&p, 32, 1);
	p.cache_size_p = 3;
	p.f0s_inferred = 1;
	CHECK_EQ(init(&p, PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE, 0), PMREGS_OK);
	CHECK_EQ(pmregs_etrace_encoder_ioptions(&enc), PMREGS_ETRACE_IOPTIONS_REF_JUMP_TARGET_CACHE_MASK);
	b[0] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	b[1] = insn(0x208, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	b[2] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	b[3] = insn(0x208, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP);
	b[4] = insn(0x100, 4, 0);
	b[5] = insn(0x104, 4, 0);
	n = encode(b, 6, 0, out, 32);
	/* 0x208, 0x100 are misses (the 3.0 at 0x100 empties the cache), then both hit */
	CHECK_EQ(n, 6);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[4].shape, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
	CHECK_EQ(out[4].index, (0x208 >> 1) & 7);
	CHECK_EQ(out[5].shape, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
	CHECK_EQ(out[5].index, (0x100 >> 1) & 7);

	/* branch prediction: a loop branch taken 40 times, then not: after the predictor learns
	 * (two failures from 01), 31 correct outcomes are counted, and the failure is a format 0.0
	 * without address whose count is the correct predictions minus 31 */
	params(&p, 32, 1);
	p.bpred_size_p = 4;
	CHECK_EQ(init(&p, PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION, 0), PMREGS_OK);
	b[0] = insn(0xfc, 4, 0);
	for (i = 0; i < 40; i++)
		b[1 + i] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_TAKEN_BRANCH);
	b[41] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH);
	b[42] = insn(0x104, 4, 0);
	b[43] = insn(0x108, 4, 0);
	n = encode(b, 44, 0, out, 32);
	/* 01: predicts not taken; 1st taken fails -> 11; then correct from the 2nd on: the map holds
	 * the 1st (failed) so the first 31 go out as a format 1 map; the rest (9 correct) and the
	 * final failure are in a format 1 too: fewer than 31 correct */
	CHECK(n >= 3);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
	/* now 0 correct predictions pending from 11 ("taken"): 40 more taken, 1 not taken */
	CHECK_EQ(init(&p, PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION, 0), PMREGS_OK);
	b[0] = insn(0xfc, 4, 0);
	b[1] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_TAKEN_BRANCH);
	b[2] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_TAKEN_BRANCH);
	b[3] = insn(0x104, 4, PMREGS_ETRACE_ITYPE_UNINF_JUMP); /* flush the two learning branches */
	for (i = 0; i < 40; i++)
		b[4 + i] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_TAKEN_BRANCH);
	b[44] = insn(0x100, 4, PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH);
	b[45] = insn(0x104, 4, 0);
	b[46] = insn(0x108, 4, 0);
	n = encode(b, 47, 0, out, 32);
	/* the jump's target (the 1st of the 40) is reported with the map of 3 branches; the other
	 * 39 are predicted, counted from the 31st on; the failure: format 0.0, 39 - 31 */
	CHECK_EQ(n, 4);
	CHECK_EQ(out[2].shape, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
	CHECK_EQ(out[2].branches, 3);
	CHECK_EQ(out[3].shape, PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT);
	CHECK_EQ(out[3].branch_count, 39 - 31);
	CHECK_EQ(out[3].branch_fmt, PMREGS_ETRACE_TE_INST_BRANCH_FMT_NO_ADDR);
}

/* ---- the naive transliteration against the encoder ---- */

static void test_naive(void)
{
	unsigned s;
	static struct naive_enc ne;
	for (s = 1; s <= 16; s++) {
		struct pmregs_etrace_params p;
		struct hart_log l = { evs, 0, 20000 };
		struct hart_opts o;
		size_t n1, nt, k1, k2, i;
		params(&p, s % 2 ? 32 : 64, 1);
		hart_generate(&prog, 100 + s, s % 2 ? 32 : 64, 0x80000000u, 10 + s);
		hart_run(&prog, s, s % 3 ? 40 : 0, 0, 5000, hart_log_sink, &l);
		memset(&o, 0, sizeof o);
		o.itype_width = 4;
		o.seed = s;
		o.block_max = 1;
		o.notify_rate = s % 4 == 0 ? 30 : 0;
		n1 = hart_ingress(evs, l.n, &o, b1, 40000, truth, 20000, &nt, 0);
		{
			/* single retirement, iretire counting instructions, as the naive encoder */
			struct pmregs_etrace_encoder_config c;
			pmregs_etrace_encoder_config_default(&c);
			c.options = s % 5 == 0 ? PMREGS_ETRACE_ENCODER_FULL_ADDRESS : 0;
			c.iretire_unit = PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS;
			CHECK_EQ(pmregs_etrace_encoder_init(&enc, &p, &c, work, sizeof work), PMREGS_OK);
			for (i = 0; i < n1; i++)
				b1[i].iretire = b1[i].iretire ? 1 : 0;
		}
		k1 = encode(b1, n1, 1, p1, 40000);
		naive_init(&ne, &p, s % 5 == 0, 16);
		for (i = 0; i < n1; i++)
			naive_step(&ne, &b1[i]);
		naive_finish(&ne);
		k2 = ne.n;
		CHECK_EQ(k1, k2);
		for (i = 0; i < k1 && i < k2; i++)
			if (!same_pkt(&p1[i], &ne.out[i])) {
				fprintf(stderr, "naive, program %u: packet %lu differs\n", s, (unsigned long)i);
				CHECK(0); /* the naive encoder's packets */
				break;
			}
	}
}

/* The encoder's own SMI writer for formats 1, 2, 3.0 and 3.1 (pmregs_etrace_enc_smi_short(), for the framings that
 * pmregs_etrace_enc_smi_plain() accepts) writes the bytes of
 * the general writer, pmregs_etrace_smi_stream_put(), for random packets under random parameters, or
 * leaves the packet to it; and pmregs_etrace_encoder_put_smi() gives the general writer's stream. */
static void test_smi_short(void)
{
	uint64_t r = 0x9e3779b97f4a7c15u;
	/* 300,000 rounds; a sixteenth under emulation (test_sparse()), an eighth in the sanitizer and 32-bit
	   runs (test_scale(): gcov counts the same executed lines and branch outcomes of the headers) */
	unsigned i, handled = 0, handled3 = 0, rounds = (unsigned)(test_sparse() > 1 ? 300000ul / test_sparse() : test_scale(300000));
	for (i = 0; i < rounds; i++) {
		struct pmregs_etrace_params p;
		struct pmregs_etrace_smi f;
		pkt_t t;
		unsigned char a[64], b[64];
		unsigned shape, aw, dw, n;
		int ra, rb;
		r = r * 6364136223846793005u + 1442695040888963407u;
		pmregs_etrace_params_default(&p);
		p.iaddress_width_p = (uint8_t)(1u + (r >> 58));
		p.iaddress_lsb_p = (uint8_t)((r >> 20) % 3u);
		if (p.iaddress_lsb_p >= p.iaddress_width_p)
			p.iaddress_lsb_p = 0;
		p.return_stack_size_p = (uint8_t)((r >> 24) % 5u == 0 ? 0 : (r >> 27) % 8u);
		p.call_counter_size_p = (uint8_t)((r >> 30) % 4u == 0 ? (r >> 32) % 9u : 0);
		if ((r >> 35) % 17u == 0)
			p.smi_index_bits = 3;
		pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
		f.msg_type = (uint8_t)((r >> 37) & 3u);
		f.timestamp_present = (uint8_t)((r >> 39) % 13u == 0);
		shape = (unsigned)((r >> 42) % 5u);
		aw = (unsigned)(p.iaddress_width_p - p.iaddress_lsb_p);
		dw = pmregs_etrace_irdepth_width(&p);
		if (shape >= 3) {
			/* a 3.0 or 3.1 under random widths of privilege, time, context and cause, fields in range but now and then */
			unsigned tw, cw;
			(void)pmregs_etrace_te_inst_init(&t, shape == 3 ? PMREGS_ETRACE_TE_INST_SHAPE_START : PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
			t.format = 3;
			t.subformat = (uint8_t)(shape - 3u);
			p.privilege_width_p = (uint8_t)(1u + (r >> 45) % 3u);
			p.notime_p = (uint8_t)((r >> 47) & 1u);
			p.time_width_p = (uint8_t)(1u + (r >> 48) % 64u);
			p.nocontext_p = (uint8_t)((r >> 54) & 1u);
			r = r * 6364136223846793005u + 1442695040888963407u;
			p.context_width_p = (uint8_t)(1u + (r >> 20) % 64u);
			p.ecause_width_p = (uint8_t)(1u + (r >> 26) % 12u);
			p.implicit_exception = (uint8_t)((r >> 30) % 3u == 0);
			tw = pmregs_etrace_time_width(&p);
			cw = pmregs_etrace_context_width(&p);
			t.branch = (uint8_t)((r >> 32) & 1u);
			t.interrupt = (uint8_t)((r >> 33) & 1u);
			t.thaddr = (uint8_t)((r >> 34) & 1u);
			t.privilege = (uint8_t)((r >> 35) & pmregs_lowmask(p.privilege_width_p));
			if ((r >> 40) % 97u == 0)
				t.privilege = (uint8_t)(1u << p.privilege_width_p); /* too wide: the general writer reports it */
			r = r * 6364136223846793005u + 1442695040888963407u;
			t.time = tw ? (r ^ (r >> 13)) & pmregs_lowmask(tw) : 0;
			if ((r >> 3) % 4u == 0)
				t.time = tw ? (r & 1u ? pmregs_lowmask(tw) : 0) : 0; /* compresses */
			r = r * 6364136223846793005u + 1442695040888963407u;
			t.context = cw ? (r ^ (r >> 17)) & pmregs_lowmask(cw) : 0;
			t.ecause = (r >> 50) & pmregs_lowmask(p.ecause_width_p);
			r = r * 6364136223846793005u + 1442695040888963407u;
			t.address = r & pmregs_lowmask(aw);
			if ((r >> 7) % 3u == 0)
				t.address = (r & 1u) ? pmregs_lowmask(aw) - (r >> 60) : (r >> 59);
			if ((r >> 9) % 101u == 0)
				t.address = pmregs_lowmask(aw) + 1u;
			r = r * 6364136223846793005u + 1442695040888963407u;
			t.tval = r & pmregs_lowmask(p.iaddress_width_p);
			if ((r >> 5) % 3u == 0)
				t.tval = (r & 2u) ? pmregs_lowmask(p.iaddress_width_p) : 0;
			goto compare;
		}
		(void)pmregs_etrace_te_inst_init(&t, shape == 0 ? PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY
						      : shape == 1 ? PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA : PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
		t.format = (uint8_t)(shape == 0 ? 2 : 1);
		r = r * 6364136223846793005u + 1442695040888963407u;
		t.address = r & pmregs_lowmask(aw);
		if ((r >> 7) % 3u == 0)
			t.address = (r & 1u) ? pmregs_lowmask(aw) - (r >> 60) : (r >> 59); /* short ones of either sign */
		if ((r >> 9) % 101u == 0)
			t.address = pmregs_lowmask(aw) + 1u; /* too wide: the general writer reports it */
		r = r * 6364136223846793005u + 1442695040888963407u;
		t.notify = (uint8_t)(r & 1u);
		t.updiscon = (uint8_t)((r >> 1) & 1u);
		t.irreport = (uint8_t)((r >> 2) & 1u);
		t.irdepth = (uint32_t)((r >> 3) & pmregs_lowmask(dw));
		n = shape == 1 ? 1u + (unsigned)((r >> 40) % 31u) : 0u;
		t.branches = (uint8_t)n;
		t.branch_map = (uint32_t)((r >> 8) & (shape == 2 ? 0x7fffffffu : pmregs_lowmask(n | (n >> 1) | (n >> 2) | (n >> 3) | (n >> 4))));
	compare:
		memset(a, 0xa5, sizeof a);
		memset(b, 0xa5, sizeof b);
		ra = pmregs_etrace_enc_smi_plain(&p, &f) ? pmregs_etrace_enc_smi_short(&f, &p, aw, dw, &t, a, sizeof a) : 0;
		rb = pmregs_etrace_smi_stream_put(&p, &f, &t, b, sizeof b);
		if (ra == 0)
			continue;
		handled++;
		handled3 += shape >= 3;
		if (ra != rb || ra < 0 || memcmp(a, b, (size_t)ra) != 0) {
			fprintf(stderr, "smi_short: packet %u (shape %u, width %u, lsb %u, irdepth width %u): %d bytes, the general writer %d\n", i,
				shape, p.iaddress_width_p, p.iaddress_lsb_p, dw, ra, rb);
			CHECK(0);
			break;
		}
		/* too little room: nothing written, PMREGS_ENOSPC */
		CHECK_EQ(pmregs_etrace_enc_smi_short(&f, &p, aw, dw, &t, a, (size_t)ra - 1u), PMREGS_ENOSPC);
	}
	CHECK(handled > rounds / 2); /* most packets took the short writer */
	CHECK(handled3 > rounds / 15); /* 3.0 and 3.1 too (not those longer than 31 bytes) */
}

int main(void)
{
	test_refflow();
	test_spec_example();
	test_blocks_equal();
	test_traps();
	test_updiscon_notify();
	test_branch_map();
	test_resync();
	test_support();
	test_options();
	test_naive();
	test_smi_short();
	return check_done("etrace encoder");
}
TEST_COLD_END
