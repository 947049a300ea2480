/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Tests of <pmregs/netburst.h>: golden vectors from the seed note and the
 * manual, the ESCR-to-counter map against an independent transcription of
 * SDM Table 18-63, the event table, the encoder's checks, decode round trips,
 * the scheduler against brute force, and the CCCR counting rule against a
 * direct transcription of the manual's words.
 *
 * Every expected number below says where it comes from. "SEED3" is
 * H. Yoshioka's 2002 note on Xeon/Pentium 4 counters; "SDM" is the Intel SDM
 * Vol. 3B (2016 edition); "Xen" is the Pentium 4 NMI watchdog in Xen's nmi.c.
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/netburst_tools.h>
#include "../common/check.h"

#define TEST_SEED 0x2545F4914F6CDD1Du
#include "../common/xorshift.h"

/* The whole test runs in a few hundredths of a second: its own code is compiled with little
 * optimisation (TEST_COLD_BEGIN, tests/common/check.h), the header's functions with the build's,
 * and so is the brute-force scheduler it compares with (tests/common/brute_passes.h). */
TEST_COLD_BEGIN

typedef struct pmregs_netburst_event_request req_t;
typedef struct pmregs_netburst_event_encoding enc_t;

static const struct pmregs_netburst_register *regs(size_t *n) { return pmregs_netburst_registers(n); }

static int reg_index(const char *name)
{
	size_t i, n;
	const struct pmregs_netburst_register *r = regs(&n);
	for (i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return (int)i;
	return -1;
}

static unsigned ev(const char *name)
{
	int e = pmregs_netburst_event_index(name);
	if (e < 0) {
		fprintf(stderr, "no event %s\n", name);
		failures++;
		return 0;
	}
	return (unsigned)e;
}

static uint16_t mask_of(unsigned event, const char *name)
{
	uint64_t m = pmregs_netburst_events_mask_find(&pmregs_netburst_events(0)[event], name);
	if (m == 0) {
		fprintf(stderr, "event %u has no mask bit %s\n", event, name);
		failures++;
	}
	return (uint16_t)m;
}

/* ---- golden vectors ------------------------------------------------------------------ */

static void test_seed_examples(void)
{
	req_t r;
	enc_t e;
	unsigned ir = ev("instr_retired"), ioq = ev("IOQ_allocation");

	/* SEED3: perfex -e 0x00039000/0x04000204@0x8000000C: instr_retired (event 2), NBOGUSNTAG,
	 * user mode (T0_USR), counted on IQ_COUNTER0 through CRU_ESCR0 (select 4), fast RDPMC. */
	pmregs_netburst_event_request_init(&r, ir);
	r.mask = mask_of(ir, "NBOGUSNTAG");
	r.t0_usr = 1;
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER0;
	r.fast = 1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(e.cccr_value, 0x00039000);
	CHECK_EQ(e.escr_value, 0x04000204);
	CHECK_EQ(e.rdpmc_index, 0x8000000C);
	CHECK_EQ(e.escr_msr, 0x3B8);   /* MSR_CRU_ESCR0 (SDM Table 18-63) */
	CHECK_EQ(e.cccr_msr, 0x36C);   /* MSR_IQ_CCCR0 */
	CHECK_EQ(e.counter_msr, 0x30C); /* MSR_IQ_COUNTER0 */
	CHECK(e.escr == reg_index("cru_escr0") && e.counter == reg_index("iq_counter0"));
	/* SEED3's bit diagram for the same ESCR also sets bit 0 (T1_USR), giving 0x04000205,
	 * which is also what libpfm4 writes for u=1 (it sets both threads). The hex in the
	 * note is 0x...204; both are reachable: */
	r.t1_usr = 1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(e.escr_value, 0x04000205);

	/* SEED3: IOQ_allocation, ESCR 0x0600C205 (event 3, mask bits 0, 5 and 6 = default request
	 * type, ALL_READ, ALL_WRITE; T0_USR and T1_USR) and CCCR 0x0003D000 (select 6 = FSB_ESCR0
	 * on the BPU counters), "0x80000000 == MSR_BPU_COUNTER0". */
	pmregs_netburst_event_request_init(&r, ioq);
	r.mask = (uint16_t)(mask_of(ioq, "REQA0") | mask_of(ioq, "ALL_READ") | mask_of(ioq, "ALL_WRITE"));
	r.t0_usr = r.t1_usr = 1;
	r.fast = 1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(e.escr_value, 0x0600C205);
	CHECK_EQ(e.cccr_value, 0x0003D000);
	CHECK_EQ(e.escr_msr, 0x3A2); /* MSR_FSB_ESCR0 */
	CHECK_EQ(e.counter_msr, 0x300);
	CHECK_EQ(e.rdpmc_index, 0x80000000);
}

static void test_sdm_example_18_2(void)
{
	/* SDM Example 18-2 (extended cascade): CRU_ESCR0 = 0x04000603 (instr_retired,
	 * NBOGUSNTAG|NBOGUSTAG, T1_OS|T1_USR); IQ_CCCR0 = 0x04038800 (OVF_PMI_T0, active
	 * thread 11B, ESCR select 4, CASCNT4INTO0, not enabled); IQ_CCCR4 = 0x00039000. */
	req_t r;
	enc_t e;
	unsigned ir = ev("instr_retired");
	pmregs_netburst_event_request_init(&r, ir);
	r.mask = (uint16_t)(mask_of(ir, "NBOGUSNTAG") | mask_of(ir, "NBOGUSTAG"));
	r.t1_os = r.t1_usr = 1;
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER0;
	r.enable = 0;
	r.ovf_pmi_t0 = 1;
	r.ext_cascade = 1;
	r.model = 2;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(e.escr_value, 0x04000603);
	CHECK_EQ(e.cccr_value, 0x04038800);
	CHECK_EQ(e.escr_msr, 0x3B8);
	pmregs_netburst_event_request_init(&r, ir);
	r.mask = (uint16_t)(mask_of(ir, "NBOGUSNTAG") | mask_of(ir, "NBOGUSTAG"));
	r.t0_os = r.t0_usr = 1;
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER4;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(e.cccr_value, 0x00039000);
	CHECK_EQ(e.cccr_msr, 0x370);
	CHECK_EQ(e.escr_msr, 0x3B8); /* counter 16 is fed by CRU_ESCR0 too */
	/* CRU_ESCR2 = 0x0400060C in the same example: the same event and mask with the T0 bits,
	 * built from fields (CRU_ESCR2 does not carry instr_retired in the event table). */
	{
		struct pmregs_netburst_escr_fields f;
		memset(&f, 0, sizeof f);
		f.event_select = 2;
		f.event_mask = 3;
		f.t0_os = f.t0_usr = 1;
		CHECK_EQ(pmregs_netburst_escr_pack(&f), 0x0400060C);
	}
}

static void test_xen_watchdog(void)
{
	/* Xen nmi.c: CRU_ESCR0 = event select 0x3F only = 0x7E000000; IQ_CCCR0 = OVF_PMI0 |
	 * THRESHOLD(15) | COMPLEMENT | COMPARE | REQUIRED(3 << 16) | ESCR_SELECT(4) | ENABLE =
	 * 0x04FF9000, plus OVF_PMI1 with HT siblings = 0x0CFF9000. */
	uint64_t c = PMREGS_NETBURST_CCCR_OVF_PMI_T0(1) | PMREGS_NETBURST_CCCR_THRESHOLD(15) |
		     PMREGS_NETBURST_CCCR_COMPLEMENT(1) | PMREGS_NETBURST_CCCR_COMPARE(1) |
		     PMREGS_NETBURST_CCCR_ACTIVE_THREAD(PMREGS_NETBURST_CCCR_ACTIVE_THREAD_ANY) |
		     PMREGS_NETBURST_CCCR_ESCR_SELECT(4) | PMREGS_NETBURST_CCCR_ENABLE(1);
	CHECK_EQ(PMREGS_NETBURST_ESCR_EVENT_SELECT(0x3F), 0x7E000000);
	CHECK_EQ(c, 0x04FF9000);
	CHECK_EQ(c | PMREGS_NETBURST_CCCR_OVF_PMI_T1(1), 0x0CFF9000);
	/* the non-HT view of the same value: bits 17:16 are the must-be-1 pair, 26 is OVF_PMI */
	CHECK(pmregs_netburst_cccr_noht_valid(c));
	CHECK_EQ(pmregs_netburst_cccr_noht_ovf_pmi_get(c), 1);
	CHECK(!pmregs_netburst_cccr_noht_valid(c | PMREGS_NETBURST_CCCR_OVF_PMI_T1(1)));
	CHECK(!pmregs_netburst_cccr_noht_valid(c & ~PMREGS_NETBURST_CCCR_ACTIVE_THREAD_MASK));
	/* Xen clears MSRs 3A0-3BE on models < 3 (45 ESCRs with IQ_ESCR0/1) and skips 3BA-3BB
	 * from model 3 on: IQ_ESCR0/1 are the model 01H-02H-only ones. */
	{
		size_t i, n;
		const struct pmregs_netburst_register *r = regs(&n);
		unsigned m, escrs_per_model[16] = {0};
		for (i = 0; i < n; i++)
			if (r[i].layout >= 0 && strcmp(pmregs_netburst_layouts(0)[r[i].layout].name, "escr") == 0)
				for (m = 0; m < 16; m++)
					escrs_per_model[m] += (r[i].models >> m) & 1u;
		CHECK_EQ(escrs_per_model[1], 45);
		CHECK_EQ(escrs_per_model[2], 45);
		CHECK_EQ(escrs_per_model[3], 43);
		CHECK_EQ(escrs_per_model[6], 43);
		CHECK_EQ(regs(0)[reg_index("iq_escr0")].msr, 0x3BA);
		CHECK_EQ(regs(0)[reg_index("iq_escr1")].msr, 0x3BB);
		CHECK_EQ(regs(0)[reg_index("iq_escr0")].models, 0x6);
	}
}

/* ---- the register map ----------------------------------------------------------------- */

/*
 * SDM Table 18-63 read per CCCR (the ESCR that each ESCR_SELECT value picks), written
 * here independently of the spec, which lists the same table per ESCR.
 */
struct cccr_view {
	const char *group;
	unsigned first, last;     /* counters */
	const char *sel[8];       /* ESCR kind per select value; 0 = unused */
};
static const struct cccr_view table_18_63[] = {
	{ "bpu", 0, 3, { "bpu", "is", "mob", "itlb", "pmh", "ix", "fsb", "bsu" } },
	{ "ms", 4, 7, { "ms", "tc", "tbpu", 0, 0, 0, 0, 0 } },
	{ "flame", 8, 11, { "flame", "firm", "saat", "u2l", 0, "dac", 0, 0 } },
	/* IQ: CCCR0/1/4 select 0 IQ_ESCR0, 1 ALF_ESCR0, 2 RAT_ESCR0, 3 SSU_ESCR0, 4 CRU_ESCR0,
	 * 5 CRU_ESCR2, 6 CRU_ESCR4; CCCR2/3/5 the odd instances, no select 3 */
	{ "iq", 12, 17, { "iq", "alf", "rat", "ssu", "cru", "cru", "cru", 0 } },
};

/* The ESCR instance name counter `ctr` reaches with select `sel`, per the SDM's pattern. */
static void escr_name_for(unsigned ctr, unsigned sel, const char *kind, char *out, size_t n)
{
	unsigned second = (ctr < 12) ? ((ctr & 3) >= 2) : (ctr == 14 || ctr == 15 || ctr == 17);
	unsigned inst = second;
	if (strcmp(kind, "cru") == 0)
		inst = (sel == 4 ? 0 : sel == 5 ? 2 : 4) + second;
	snprintf(out, n, "%s_escr%u", kind, inst);
}

static void test_register_map(void)
{
	size_t i, n, t;
	const struct pmregs_netburst_register *r = regs(&n);
	unsigned pairs = 0, escrs = 0;
	/* counters first: register index n is counter n; addresses 0x300 + n and 0x360 + n */
	for (i = 0; i < 18; i++) {
		const struct pmregs_netburst_register *c = &r[r[i].cccr];
		CHECK_EQ(r[i].counter, i);
		CHECK_EQ(r[i].msr, 0x300 + i);
		CHECK_EQ(c->msr, 0x360 + i);
		CHECK_EQ(c->counter, i);
		CHECK(strcmp(r[i].group, c->group) == 0);
		CHECK_EQ(pmregs_netburst_layouts(0)[r[i].layout].width, 64);
	}
	CHECK(strcmp(r[12].name, "iq_counter0") == 0 && strcmp(r[17].name, "iq_counter5") == 0);
	/* every ESCR: the counters it feeds and its select value agree with the per-CCCR view */
	for (i = 0; i < n; i++) {
		unsigned k;
		if (!(r[i].has & PMREGS_NETBURST_HAS_ESCR_SELECT))
			continue;
		escrs++;
		CHECK(r[i].counters_count == 2 || r[i].counters_count == 3);
		for (k = 0; k < r[i].counters_count; k++) {
			unsigned ctr = r[r[i].counters[k]].counter;
			char want[32];
			int found = 0;
			for (t = 0; t < 4; t++) {
				const struct cccr_view *v = &table_18_63[t];
				if (ctr < v->first || ctr > v->last)
					continue;
				found = 1;
				CHECK(strcmp(v->group, r[i].group) == 0);
				CHECK(r[i].escr_select < 8 && v->sel[r[i].escr_select] != 0);
				if (r[i].escr_select < 8 && v->sel[r[i].escr_select]) {
					escr_name_for(ctr, r[i].escr_select, v->sel[r[i].escr_select], want, sizeof want);
					if (strcmp(want, r[i].name) != 0)
						fprintf(stderr, "counter %u select %u: table says %s, spec %s\n", ctr,
							(unsigned)r[i].escr_select, want, r[i].name);
					CHECK(strcmp(want, r[i].name) == 0);
				}
			}
			CHECK(found);
			pairs++;
		}
	}
	CHECK_EQ(escrs, 45);
	/* the other direction: every (counter, select) the per-CCCR view defines is reached by
	 * exactly one ESCR (IQ counters 14, 15, 17 have no select 3: SSU_ESCR1 does not exist) */
	for (t = 0; t < 4; t++) {
		const struct cccr_view *v = &table_18_63[t];
		unsigned ctr, sel;
		for (ctr = v->first; ctr <= v->last; ctr++)
			for (sel = 0; sel < 8; sel++) {
				unsigned hits = 0, k;
				int want = v->sel[sel] != 0 && !(strcmp(v->sel[sel], "ssu") == 0 && (ctr == 14 || ctr == 15 || ctr == 17));
				for (i = 0; i < n; i++) {
					if (!(r[i].has & PMREGS_NETBURST_HAS_ESCR_SELECT) || r[i].escr_select != sel)
						continue;
					for (k = 0; k < r[i].counters_count; k++)
						hits += r[r[i].counters[k]].counter == ctr;
				}
				CHECK_EQ(hits, (unsigned)want);
			}
	}
	CHECK_EQ(pairs, 2 * 32 + 3 * 13); /* 32 two-counter ESCRs (BPU, MS, FLAME), 13 IQ ESCRs with 3 */
	/* spot checks straight from SDM Table 18-63 */
	CHECK_EQ(PMREGS_NETBURST_MSR_BSU_ESCR0, 0x3A0);
	CHECK_EQ(PMREGS_NETBURST_MSR_CRU_ESCR5, 0x3E1);
	CHECK_EQ(PMREGS_NETBURST_MSR_IX_ESCR1, 0x3C9);
	CHECK_EQ(PMREGS_NETBURST_MSR_SSU_ESCR0, 0x3BE);
	CHECK_EQ(PMREGS_NETBURST_MSR_IQ_CCCR5, 0x371);
	CHECK_EQ(PMREGS_NETBURST_MSR_FLAME_COUNTER3, 0x30B);
	CHECK_EQ(PMREGS_NETBURST_MSR_PEBS_ENABLE, 0x3F1);
	CHECK_EQ(PMREGS_NETBURST_MSR_PEBS_MATRIX_VERT, 0x3F2);
	CHECK_EQ(PMREGS_NETBURST_MSR_DEBUGCTLA, 0x1D9);
	CHECK_EQ(PMREGS_NETBURST_MSR_LASTBRANCH_TOS, 0x1DA);
	CHECK_EQ(PMREGS_NETBURST_MSR_LASTBRANCH_3, 0x1DE);
	CHECK_EQ(PMREGS_NETBURST_MSR_LASTBRANCH_15_TO_IP, 0x6CF);
	CHECK(reg_index("ssu_escr1") < 0); /* Linux's guessed 0x3BF is not in the manual */
	/* PEBS: IQ_COUNTER4, and IQ_COUNTER5 for logical processor 1 with HT */
	for (i = 0; i < n; i++)
		CHECK(r[i].pebs == (i == 16 || i == 17) && r[i].pebs_ht_only == (i == 17));
	/* extended cascade: exactly IQ_CCCR0/3/4/5 (SDM Table 18-65) */
	for (i = 0; i < n; i++)
		CHECK(r[i].ext_cascade == (strcmp(r[i].name, "iq_cccr0") == 0 || strcmp(r[i].name, "iq_cccr3") == 0 ||
					   strcmp(r[i].name, "iq_cccr4") == 0 || strcmp(r[i].name, "iq_cccr5") == 0));
}

static void test_layouts(void)
{
	/* ESCR: event select is bits 30:25 as in the SDM text and every implementation
	 * (Linux P4_ESCR_EVENT_MASK 0x7E000000), not the tables' "ESCR[31:25]"; bit 31 reserved. */
	CHECK_EQ(PMREGS_NETBURST_ESCR_EVENT_SELECT_MASK, 0x7E000000);
	CHECK_EQ(PMREGS_NETBURST_ESCR_EVENT_MASK_MASK, 0x01FFFE00);  /* Linux P4_ESCR_EVENTMASK_MASK */
	CHECK_EQ(PMREGS_NETBURST_ESCR_TAG_VALUE_MASK, 0x1E0);        /* Linux P4_ESCR_TAG_MASK */
	CHECK_EQ(PMREGS_NETBURST_ESCR_TAG_ENABLE_MASK, 0x10);
	CHECK_EQ(PMREGS_NETBURST_ESCR_T0_OS_MASK, 0x8);
	CHECK_EQ(PMREGS_NETBURST_ESCR_T0_USR_MASK, 0x4);
	CHECK_EQ(PMREGS_NETBURST_ESCR_T1_OS_MASK, 0x2);
	CHECK_EQ(PMREGS_NETBURST_ESCR_T1_USR_MASK, 0x1);
	CHECK((PMREGS_NETBURST_ESCR_RSVD_MASK >> 31) & 1);
	CHECK(!pmregs_netburst_escr_valid(0x80000000u));
	/* non-HT names: USR at bit 2, OS at bit 3, bits 1:0 reserved (SDM Fig 18-43) */
	CHECK_EQ(PMREGS_NETBURST_ESCR_NOHT_USR_MASK, 0x4);
	CHECK_EQ(PMREGS_NETBURST_ESCR_NOHT_OS_MASK, 0x8);
	CHECK(!pmregs_netburst_escr_noht_valid(0x1));
	/* CCCR (Linux P4_CCCR_* values) */
	CHECK_EQ(PMREGS_NETBURST_CCCR_OVF_MASK, 0x80000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_CASCADE_MASK, 0x40000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_OVF_PMI_T1_MASK, 0x08000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_OVF_PMI_T0_MASK, 0x04000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_FORCE_OVF_MASK, 0x02000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_EDGE_MASK, 0x01000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_THRESHOLD_MASK, 0x00F00000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_COMPLEMENT_MASK, 0x80000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_COMPARE_MASK, 0x40000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_ACTIVE_THREAD(PMREGS_NETBURST_CCCR_ACTIVE_THREAD_SINGLE), 0x10000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_ACTIVE_THREAD(PMREGS_NETBURST_CCCR_ACTIVE_THREAD_BOTH), 0x20000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_ACTIVE_THREAD(PMREGS_NETBURST_CCCR_ACTIVE_THREAD_ANY), 0x30000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_ESCR_SELECT_MASK, 0xE000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_ENABLE_MASK, 0x1000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_RSVD_MASK & 0xFFFFFFFFu, 0x30000FFF);
	CHECK_EQ(PMREGS_NETBURST_CCCR_EXT_EXT_CASCADE_MASK, 0x800); /* perfctr P4_CCCR_EXTENDED_CASCADE */
	CHECK_EQ(PMREGS_NETBURST_CCCR_NOHT_RES1_MASK, 0x30000);      /* "must be set to 11B" */
	CHECK_EQ(PMREGS_NETBURST_CCCR_NOHT_OVF_PMI_MASK, 0x04000000);
	CHECK_EQ(PMREGS_NETBURST_CCCR_NOHT_RESET, 0x30000);
	/* counters: 40 bits */
	CHECK_EQ(PMREGS_NETBURST_COUNTER_COUNT_MASK, 0xFFFFFFFFFFull);
	CHECK_EQ(PMREGS_NETBURST_COUNTER_MASK, 0xFFFFFFFFFFull);
	CHECK_EQ(PMREGS_NETBURST_COUNTER_WIDTH, 40);
	/* RDPMC: fast bit 31 (perfctr P4_FAST_RDPMC 0x80000000) */
	CHECK_EQ(PMREGS_NETBURST_RDPMC_ECX_FAST(1) | PMREGS_NETBURST_RDPMC_ECX_INDEX(12), 0x8000000C);
	/* IA32_PEBS_ENABLE: the MSR table's bit 25 enables PEBS and bit 24 is UOP_Tag (Linux
	 * P4_PEBS_ENABLE 0x02000000, P4_PEBS_ENABLE_UOP_TAG 0x01000000), not the section text's
	 * "enable PEBS flag (bit 24)". Tagged_mispred_branch uses bits 15-16 (Linux 0x18000). */
	CHECK_EQ(PMREGS_NETBURST_PEBS_ENABLE_ENABLE_PEBS_MY_THR_MASK, 0x02000000);
	CHECK_EQ(PMREGS_NETBURST_PEBS_ENABLE_UOP_TAG_MASK, 0x01000000);
	CHECK_EQ(PMREGS_NETBURST_PEBS_ENABLE_ENABLE_PEBS_OTH_THR_MASK, 0x04000000);
	CHECK_EQ(PMREGS_NETBURST_PEBS_ENABLE_METRIC_MISPRED_BRANCH(3), 0x18000);
	/* perfctr's P4_PE_RESERVED 0xFEFFF9F8 allows bits 0-2, 9, 10 and 24 */
	CHECK_EQ(~(uint32_t)0xFEFFF9F8u & ~(uint32_t)PMREGS_NETBURST_PEBS_ENABLE_RSVD_MASK, ~(uint32_t)0xFEFFF9F8u);
	/* MSR_DEBUGCTLA: TR/BTS/BTINT at bits 2-4 and the BTS CPL filters at 5-6 (SDM Fig 17-12) */
	CHECK_EQ(PMREGS_NETBURST_DEBUGCTLA_TR_MASK, 0x4);
	CHECK_EQ(PMREGS_NETBURST_DEBUGCTLA_BTS_MASK, 0x8);
	CHECK_EQ(PMREGS_NETBURST_DEBUGCTLA_BTINT_MASK, 0x10);
	CHECK_EQ(PMREGS_NETBURST_DEBUGCTLA_BTS_OFF_OS_MASK, 0x20);
	CHECK_EQ(PMREGS_NETBURST_DEBUGCTLA_BTS_OFF_USR_MASK, 0x40);
	CHECK_EQ(PMREGS_NETBURST_DEBUGCTLA_RSVD_MASK, ~(uint64_t)0x7F);
}

/* ---- the event table ------------------------------------------------------------------ */

static void test_event_table(void)
{
	size_t n, i;
	const struct pmregs_netburst_events_row *t = pmregs_netburst_events(&n);
	unsigned flagged = 0;
	char buf[128];
	CHECK_EQ(n, 47);
	for (i = 0; i < n; i++) {
		unsigned k, conflict = 0;
		CHECK(t[i].escrs_count >= 1);
		for (k = 0; k < t[i].escrs_count; k++) {
			const struct pmregs_netburst_register *e = &regs(0)[t[i].escrs[k]];
			CHECK(e->has & PMREGS_NETBURST_HAS_ESCR_SELECT);
			conflict |= e->escr_select != t[i].cccr_select;
		}
		/* the table's flag is exactly "the event's CCCR select is not its ESCRs' select" */
		CHECK_EQ(t[i].select_conflict, conflict);
		flagged += t[i].select_conflict;
		CHECK(t[i].mask_count >= 1);
		CHECK(pmregs_netburst_event_index(t[i].title) == (int)i);
	}
	CHECK_EQ(flagged, 4);
	CHECK(t[ev("b2b_cycles")].select_conflict && t[ev("bnr")].select_conflict &&
	      t[ev("snoop")].select_conflict && t[ev("response")].select_conflict);
	/* SDM event codes (Chapter 19) for a few rows */
	CHECK_EQ(t[ev("global_power_events")].event_select, 0x13); /* oprofile: once 0x05 */
	CHECK_EQ(t[ev("IOQ_active_entries")].event_select, 0x1A);
	CHECK(t[ev("IOQ_active_entries")].escrs_count == 1 && t[ev("IOQ_active_entries")].escrs[0] == reg_index("fsb_escr1"));
	CHECK(t[ev("BSQ_allocation")].escrs_count == 1 && t[ev("BSQ_allocation")].escrs[0] == reg_index("bsu_escr0"));
	CHECK(t[ev("BSQ_active_entries")].escrs_count == 1 && t[ev("BSQ_active_entries")].escrs[0] == reg_index("bsu_escr1"));
	/* Linux binds TBPU_ESCR0 for both threads; the SDM gives both TBPU ESCRs */
	CHECK(t[ev("retired_mispred_branch_type")].escrs[1] == reg_index("tbpu_escr1"));
	/* libpfm4 lists CRU_ESCR2 for instr_completed; the SDM says CRU_ESCR0/1, select 4 */
	CHECK(t[ev("instr_completed")].escrs[0] == reg_index("cru_escr0") && t[ev("instr_completed")].cccr_select == 4);
	CHECK_EQ(t[ev("instr_completed")].models, 0x58);
	CHECK(pmregs_netburst_event_index("x87_SIMD_moves_uop") >= 0);
	CHECK(pmregs_netburst_event_index("64BIT_MMX_UOP") == (int)ev("mmx_64bit_uop"));
	CHECK(pmregs_netburst_event_index("no_such_event") == PMREGS_ENOENT);
	/* the table's lookup ignores case too (and gives the row; _event_index() gives its index) */
	CHECK(pmregs_netburst_events_find("BSQ_ALLOCATION") == &t[ev("BSQ_allocation")]);
	CHECK(pmregs_netburst_events_find("no_such_event") == 0);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
	/* the name of pmregs_netburst_event_index() before 0.2.0, a deprecated alias */
	CHECK(pmregs_netburst_event_find("64bit_mmx_uop") == (int)ev("mmx_64bit_uop"));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
	/* machine_clear: SDM bits CLEAR 0, MOCLEAR 2, SMCLEAR 6 (not Linux's 0/1/2 nor oprofile's 0/6/7) */
	CHECK_EQ(mask_of(ev("machine_clear"), "CLEAR"), 1u << 0);
	CHECK_EQ(mask_of(ev("machine_clear"), "MOCLEAR"), 1u << 2);
	CHECK_EQ(mask_of(ev("machine_clear"), "SMCLEAR"), 1u << 6);
	CHECK_EQ(PMREGS_NETBURST_EVENTS_MACHINE_CLEAR_MASK_SMCLEAR, 0x40);
	/* BSQ_cache_reference: Table 19-28's nine bits; not Table 19-34's 6/7/11 */
	CHECK_EQ(t[ev("BSQ_cache_reference")].mask, 0x73F);
	/* mispred_branch_retired: bit 0 is NBOGUS (libpfm4 calls it BOGUS) */
	CHECK_EQ(mask_of(ev("mispred_branch_retired"), "NBOGUS"), 1);
	/* names, both ways */
	pmregs_netburst_events_mask_snprint(buf, sizeof buf, &t[ev("instr_retired")], 0x5);
	CHECK(strcmp(buf, "NBOGUSNTAG|BOGUSNTAG") == 0);
	pmregs_netburst_events_mask_snprint(buf, sizeof buf, &t[ev("instr_retired")], 0x31);
	CHECK(strcmp(buf, "NBOGUSNTAG|0x30") == 0);
	CHECK(pmregs_netburst_events_mask_snprint(buf, 4, &t[ev("instr_retired")], 0x1) == 10 && strcmp(buf, "NBO") == 0);
	CHECK(pmregs_netburst_events_mask_find(&t[ev("memory_cancel")], "64k_conf") == 0x8);
	CHECK(pmregs_netburst_events_mask_find(&t[ev("memory_cancel")], "nope") == 0);
	/* replay metrics (SDM Table 19-33) */
	{
		const struct pmregs_netburst_replay_metrics_row *m = pmregs_netburst_replay_metrics_find("split_load_retired");
		CHECK(m != 0);
		if (m) {
			CHECK_EQ(m->pebs_enable, 0x400);
			CHECK_EQ(m->matrix_vert, 0x1);
			CHECK(m->upstream_count == 1 && m->upstream[0] == ev("load_port_replay"));
			CHECK(m->upstream_escr_count == 1 && m->upstream_escr[0] == reg_index("saat_escr1"));
		}
		m = pmregs_netburst_replay_metrics_find("tagged_mispred_branch");
		CHECK(m && m->pebs_enable == 0x18000 && m->matrix_vert == 0x10);
		CHECK(m && pmregs_netburst_pebs_enable_valid(m->pebs_enable) && pmregs_netburst_pebs_matrix_vert_valid(m->matrix_vert));
	}
}

/* ---- names: "EVENT:MASK:MASK" ---------------------------------------------------------- */

static void test_names(void)
{
	req_t r;
	enc_t e;
	char buf[128];
	const char *bad = 0;
	/* the seed's perfex event, from names alone */
	CHECK(pmregs_netburst_event_parse(&r, "instr_retired:nbogusntag", &bad) == PMREGS_OK);
	r.t0_usr = 1;
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER0;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.escr_value == 0x04000204 && e.cccr_value == 0x00039000);
	CHECK(pmregs_netburst_event_parse(&r, "IOQ_allocation:REQA0:ALL_READ:ALL_WRITE", &bad) == PMREGS_OK && r.mask == 0x61);
	CHECK(pmregs_netburst_event_snprint(buf, sizeof buf, &r) == 39 && strcmp(buf, "IOQ_allocation:REQA0:ALL_READ:ALL_WRITE") == 0);
	r.mask |= 0x1000; /* bit 12 has no name in IOQ_allocation */
	pmregs_netburst_event_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "IOQ_allocation:REQA0:ALL_READ:ALL_WRITE:0x1000") == 0);
	CHECK(pmregs_netburst_event_parse(&r, "64bit_MMX_uop:ALL", &bad) == PMREGS_OK && r.mask == 0x8000);
	CHECK(pmregs_netburst_event_parse(&r, "x87_assist", &bad) == PMREGS_OK && r.mask == 0 && r.event == ev("x87_assist"));
	/* errors point at the item */
	{
		static const char s1[] = "instr_retired:NBOGUSNTAG:TAGGED";
		static const char s2[] = "instr_retierd:NBOGUSNTAG";
		static const char s3[] = "instr_retired::NBOGUSNTAG";
		req_t keep = r;
		CHECK(pmregs_netburst_event_parse(&r, s1, &bad) == PMREGS_ENOENT && bad == s1 + 25);
		CHECK(memcmp(&keep, &r, sizeof r) == 0); /* nothing half-written */
		CHECK(pmregs_netburst_event_parse(&r, s2, &bad) == PMREGS_ENOENT && bad == s2);
		CHECK(pmregs_netburst_event_parse(&r, s3, &bad) == PMREGS_EINVAL && bad == s3 + 14);
		CHECK(pmregs_netburst_event_parse(&r, "", &bad) == PMREGS_EINVAL);
		CHECK(pmregs_netburst_event_parse(&r, "instr_retired:", 0) == PMREGS_EINVAL);
		CHECK(pmregs_netburst_event_parse(&r, "x0123456789012345678901234567890123456789012345678901234567890123", 0) == PMREGS_EINVAL);
	}
}

/* ---- the encoder ---------------------------------------------------------------------- */

static int encode_check(const req_t *r, int want_rc, int want_check)
{
	enc_t e;
	int rc = pmregs_netburst_event_encode(r, &e);
	if (rc != want_rc || e.check != want_check) {
		fprintf(stderr, "  event %s: rc %d check %d (%s), expected rc %d check %d (%s)\n",
			pmregs_netburst_events(0)[r->event < 47 ? r->event : 0].name, rc, e.check,
			pmregs_netburst_event_check_name(e.check), want_rc, want_check,
			pmregs_netburst_event_check_name(want_check));
		return 0;
	}
	if (rc != PMREGS_OK)
		return e.escr_value == 0 && e.cccr_value == 0 && e.escr_msr == 0; /* nothing half-written */
	return 1;
}

static void test_encoder_errors(void)
{
	req_t r;
	enc_t e;
	unsigned ir = ev("instr_retired"), b2b = ev("b2b_cycles");

	pmregs_netburst_event_request_init(&r, 47);
	CHECK(encode_check(&r, PMREGS_ENOENT, PMREGS_NETBURST_EVENT_CHECK_NO_EVENT));
	pmregs_netburst_event_request_init(&r, ir);
	r.mask = 0x10;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_UNKNOWN_MASK_BIT));
	r.mask = 0x1;
	r.threshold = 16;
	r.compare = 1;
	CHECK(encode_check(&r, PMREGS_ERANGE, PMREGS_NETBURST_EVENT_CHECK_THRESHOLD_RANGE));
	r.threshold = 15;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	r.compare = 0;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_COMPARE_NEEDED));
	r.threshold = 0;
	r.edge = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_COMPARE_NEEDED));
	r.edge = 0;
	r.complement = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_COMPARE_NEEDED));
	r.complement = 0;
	r.tag_value = 16;
	CHECK(encode_check(&r, PMREGS_ERANGE, PMREGS_NETBURST_EVENT_CHECK_TAG_VALUE_RANGE));
	r.tag_value = 0;
	r.active_thread = 4;
	CHECK(encode_check(&r, PMREGS_ERANGE, PMREGS_NETBURST_EVENT_CHECK_ACTIVE_THREAD_RANGE));
	r.active_thread = 3;
	/* no Hyper-Threading: T1 bits, OVF_PMI_T1 and an active thread other than 11B are errors */
	r.ht = 0;
	r.t0_os = 1;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	r.t1_os = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_NOHT_T1_BITS));
	r.t1_os = 0;
	r.ovf_pmi_t1 = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_NOHT_PMI_T1));
	r.ovf_pmi_t1 = 0;
	r.active_thread = PMREGS_NETBURST_CCCR_ACTIVE_THREAD_SINGLE;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_NOHT_ACTIVE_THREAD));
	r.ht = 1;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	r.active_thread = 3;
	/* a counter the event cannot reach */
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_BPU_COUNTER0;
	CHECK(encode_check(&r, PMREGS_ENOENT, PMREGS_NETBURST_EVENT_CHECK_NO_PLACE));
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER5;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.escr == reg_index("cru_escr1") && e.cccr_msr == 0x371);
	/* an ESCR together with a counter it does not feed */
	r.escr = PMREGS_NETBURST_EVENT_ESCR_CRU_ESCR0;
	CHECK(encode_check(&r, PMREGS_ENOENT, PMREGS_NETBURST_EVENT_CHECK_NO_PLACE));
	r.counter = -1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.counter == 12);
	r.escr = -1;
	/* extended cascade: IQ_CCCR0/3/4/5 only, models 02H/03H/04H/06H only */
	r.ext_cascade = 1;
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_EXT_CASCADE_COUNTER));
	r.counter = -1; /* the encoder takes the first counter that has it: IQ_COUNTER0 */
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.counter == 12 && (e.cccr_value & 0x800));
	r.escr = PMREGS_NETBURST_EVENT_ESCR_CRU_ESCR1; /* CRU_ESCR1 feeds 14, 15, 17: only IQ_CCCR3/5 have it */
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.counter == 15);
	r.escr = -1;
	r.model = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_EXT_CASCADE_MODEL));
	r.model = 6;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	r.ext_cascade = 0;
	/* models */
	r.model = 16;
	CHECK(encode_check(&r, PMREGS_ERANGE, PMREGS_NETBURST_EVENT_CHECK_MODEL_RANGE));
	pmregs_netburst_event_request_init(&r, ev("instr_completed"));
	r.mask = 1;
	r.model = 2;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_EVENT_MODEL));
	r.model = 3;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	r.model = PMREGS_NETBURST_MODEL_ANY;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	/* precise sampling: PEBS-capable events only, on IQ_COUNTER4, or IQ_COUNTER5 with HT
	 * (SDM 18.15.7: only IQ_COUNTER4 without HT; 18.16.3: IQ_CCCR4/5 serve logical processors 0/1) */
	pmregs_netburst_event_request_init(&r, ev("replay_event"));
	r.mask = 1;
	r.pebs = 1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.counter == 16 && e.escr == reg_index("cru_escr2"));
	r.escr = PMREGS_NETBURST_EVENT_ESCR_CRU_ESCR3;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.counter == 17);
	r.ht = 0;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_PEBS_COUNTER));
	r.escr = -1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK && e.counter == 16);
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER0;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_PEBS_COUNTER));
	pmregs_netburst_event_request_init(&r, ir);
	r.mask = 1;
	r.pebs = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_PEBS_EVENT));
	/* BSQ_cache_reference: Table 19-34's extra bits 6, 7 and 11 are refused (Table 19-28 wins) */
	pmregs_netburst_event_request_init(&r, ev("BSQ_cache_reference"));
	r.mask = 1u << 6;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_UNKNOWN_MASK_BIT));
	r.mask = 1u << 11;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_UNKNOWN_MASK_BIT));
	/* the four disputed FSB events: refused by default, then either select on request */
	pmregs_netburst_event_request_init(&r, b2b);
	r.mask = mask_of(b2b, "BIT1");
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_SELECT_CONFLICT));
	r.select_policy = PMREGS_NETBURST_SELECT_POLICY_EVENT_TABLE;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(pmregs_netburst_cccr_escr_select_get(e.cccr_value), 3);
	CHECK_EQ(e.escr_msr, 0x3A2);
	r.select_policy = PMREGS_NETBURST_SELECT_POLICY_ESCR_TABLE;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
	CHECK_EQ(pmregs_netburst_cccr_escr_select_get(e.cccr_value), 6);
	/* every check has a name and a description, and reports its own error code */
	{
		int k;
		for (k = 0; k < PMREGS_NETBURST_EVENT_CHECKS; k++) {
			CHECK(pmregs_netburst_event_check_name(k)[0] != 0);
			CHECK(pmregs_netburst_event_check_doc(k)[0] != 0);
			CHECK(pmregs_netburst_event_check_error(k) < 0);
		}
		CHECK(pmregs_netburst_event_check_name(-1)[0] == 0 && pmregs_netburst_event_check_error(99) == 0);
	}
}

/* Every event, every placement, every single mask bit: the values follow the tables. */
static void test_encoder_all(void)
{
	size_t n, i;
	const struct pmregs_netburst_events_row *t = pmregs_netburst_events(&n);
	unsigned encoded = 0;
	for (i = 0; i < n; i++) {
		size_t nopt, k, want = 0;
		const struct pmregs_netburst_event_option *o = pmregs_netburst_event_options((unsigned)i, &nopt);
		unsigned j, b;
		/* the placements are exactly (ESCR of the event, counter that ESCR feeds) */
		for (j = 0; j < t[i].escrs_count; j++)
			want += regs(0)[t[i].escrs[j]].counters_count;
		CHECK_EQ(nopt, want);
		for (k = 0; k < nopt; k++) {
			const struct pmregs_netburst_register *escr = &regs(0)[o[k].escr];
			int feeds = 0, listed = 0;
			for (j = 0; j < escr->counters_count; j++)
				feeds |= escr->counters[j] == o[k].counter;
			for (j = 0; j < t[i].escrs_count; j++)
				listed |= t[i].escrs[j] == o[k].escr;
			CHECK(feeds && listed);
			for (b = 0; b < 16; b++) {
				req_t r;
				enc_t e = {0};
				int rc;
				if (!((t[i].mask >> b) & 1))
					continue;
				pmregs_netburst_event_request_init(&r, (unsigned)i);
				r.mask = (uint16_t)(1u << b);
				r.t0_os = 1;
				r.escr = (int16_t)o[k].escr;
				r.counter = (int16_t)o[k].counter;
				r.select_policy = PMREGS_NETBURST_SELECT_POLICY_EVENT_TABLE;
				rc = pmregs_netburst_event_encode(&r, &e);
				CHECK(rc == PMREGS_OK);
				if (rc != PMREGS_OK)
					continue;
				encoded++;
				CHECK_EQ(e.escr_msr, escr->msr);
				CHECK_EQ(e.counter_msr, 0x300u + regs(0)[o[k].counter].counter);
				CHECK_EQ(e.cccr_msr, 0x360u + regs(0)[o[k].counter].counter);
				CHECK_EQ(e.rdpmc_index, regs(0)[o[k].counter].counter);
				/* the raw bit layout, by hand: select<<25 | mask<<9 | T0_OS */
				CHECK_EQ(e.escr_value, ((uint64_t)t[i].event_select << 25) | ((uint64_t)1 << (9 + b)) | 0x8);
				CHECK_EQ(e.cccr_value, ((uint64_t)t[i].cccr_select << 13) | 0x1000 | 0x30000);
				CHECK(pmregs_netburst_escr_valid(e.escr_value) && pmregs_netburst_cccr_ext_valid(e.cccr_value));
			}
		}
	}
	CHECK(encoded > 600); /* the loops did run: 682 (placement, mask bit) pairs in all */
}

/* ---- decoding -------------------------------------------------------------------------- */

static void test_decoder(void)
{
	size_t n, i;
	const struct pmregs_netburst_events_row *t = pmregs_netburst_events(&n);
	req_t tmpl, d;
	enc_t e;
	char buf[128];
	unsigned ok = 0;
	pmregs_netburst_event_request_init(&tmpl, 0);
	tmpl.select_policy = PMREGS_NETBURST_SELECT_POLICY_EVENT_TABLE;
	/* round trip: every event on every placement with random options decodes to itself */
	for (i = 0; i < n; i++) {
		size_t nopt, k;
		pmregs_netburst_event_options((unsigned)i, &nopt);
		for (k = 0; k < nopt; k++) {
			unsigned rep;
			for (rep = 0; rep < 8; rep++) {
				req_t r;
				uint64_t x = rnd();
				pmregs_netburst_event_request_init(&r, (unsigned)i);
				r.mask = (uint16_t)(x & t[i].mask);
				if (!r.mask && !t[i].mask_optional) /* an empty mask is refused (test_empty_mask) */
					r.mask = (uint16_t)(t[i].mask & (~t[i].mask + 1u));
				r.t0_os = (uint8_t)(x >> 16 & 1);
				r.t0_usr = (uint8_t)(x >> 17 & 1);
				r.t1_os = (uint8_t)(x >> 18 & 1);
				r.t1_usr = (uint8_t)(x >> 19 & 1);
				r.tag_enable = (uint8_t)(x >> 20 & 1);
				r.tag_value = (uint8_t)(x >> 21 & 15);
				r.compare = (uint8_t)(x >> 25 & 1);
				if (r.compare) {
					r.complement = (uint8_t)(x >> 26 & 1);
					r.edge = (uint8_t)(x >> 27 & 1);
					r.threshold = (uint8_t)(x >> 28 & 15);
				}
				r.active_thread = (uint8_t)(x >> 32 & 3);
				r.force_ovf = (uint8_t)(x >> 34 & 1);
				r.ovf_pmi_t0 = (uint8_t)(x >> 35 & 1);
				r.ovf_pmi_t1 = (uint8_t)(x >> 36 & 1);
				r.cascade = (uint8_t)(x >> 37 & 1);
				r.enable = (uint8_t)(x >> 38 & 1);
				r.select_policy = PMREGS_NETBURST_SELECT_POLICY_EVENT_TABLE;
				r.escr = (int16_t)pmregs_netburst_event_options((unsigned)i, 0)[k].escr;
				r.counter = (int16_t)pmregs_netburst_event_options((unsigned)i, 0)[k].counter;
				if (pmregs_netburst_event_encode(&r, &e) != PMREGS_OK) {
					CHECK(0);
					continue;
				}
				CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_OK);
				CHECK(memcmp(&d, &r, sizeof d) == 0 || (d.event == r.event && d.mask == r.mask &&
									 d.escr == r.escr && d.counter == r.counter));
				CHECK(d.event == r.event && d.mask == r.mask && d.escr == r.escr && d.counter == r.counter &&
				      d.threshold == r.threshold && d.t1_usr == r.t1_usr && d.enable == r.enable);
				ok++;
			}
		}
	}
	CHECK(ok > 1000);
	/* SDM Example 18-2 read back: CRU_ESCR0 0x04000603 with IQ_CCCR0 0x04038800 */
	memset(&e, 0, sizeof e);
	e.escr_msr = 0x3B8;
	e.escr_value = 0x04000603;
	e.cccr_msr = 0x36C;
	e.cccr_value = 0x04038800;
	CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_OK);
	CHECK(d.event == ev("instr_retired") && d.mask == 3 && d.t1_os && d.t1_usr && !d.t0_os && d.ext_cascade &&
	      !d.enable && d.ovf_pmi_t0 && d.counter == 12);
	pmregs_netburst_events_mask_snprint(buf, sizeof buf, &t[d.event], d.mask);
	CHECK(strcmp(buf, "NBOGUSNTAG|NBOGUSTAG") == 0);
	/* with OVF set, as read back after an overflow */
	e.cccr_value |= PMREGS_NETBURST_CCCR_OVF_MASK;
	CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_OK && d.ovf);
	/* values that are no event: an event select no row has, reserved bits, a mismatched select */
	e.escr_value = 0x7E000000;
	CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_ENOENT);
	e.escr_value = 0x84000603;
	CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_ENOENT);
	e.escr_value = 0x04000603;
	e.cccr_value = 0x04038800 ^ PMREGS_NETBURST_CCCR_ESCR_SELECT(1);
	CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_ENOENT);
	/* a disputed event decodes only under the policy that produced it */
	{
		req_t r;
		pmregs_netburst_event_request_init(&r, ev("snoop"));
		r.mask = mask_of(ev("snoop"), "BIT6");
		r.select_policy = PMREGS_NETBURST_SELECT_POLICY_ESCR_TABLE;
		CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_OK);
		CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_ENOENT);
		tmpl.select_policy = PMREGS_NETBURST_SELECT_POLICY_ESCR_TABLE;
		CHECK(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_OK && d.event == ev("snoop") && d.mask == 0x40);
	}
}

/* ---- the scheduler --------------------------------------------------------------------- */

TEST_COLD_END
#include "../common/brute_passes.h"
TEST_COLD_BEGIN

static struct pmregs_netburst_event_work work;

static void test_scheduler(void)
{
	size_t nev;
	const struct pmregs_netburst_events_row *t = pmregs_netburst_events(&nev);
	unsigned round, hist[7] = {0};
	for (round = 0; round < 400; round++) {
		req_t r[12];
		enc_t out[12];
		uint64_t opts[12][8];
		unsigned nopts[12];
		unsigned n = round < 300 ? 1 + (unsigned)(rnd() % 5) : 6 + (unsigned)(rnd() % 7), i, j;
		int passes, minimal = 0, brute;
		for (i = 0; i < n; i++) {
			/* half the lists draw from a few events that share ESCRs and counters, so that
			 * several passes are needed */
			static const char *const crowded[] = { "instr_retired", "uops_retired", "mispred_branch_retired",
				"IOQ_allocation", "IOQ_active_entries", "FSB_data_activity", "BSQ_allocation",
				"execution_event", "branch_retired", "global_power_events" };
			unsigned e = round & 1 ? ev(crowded[rnd() % 10]) : (unsigned)(rnd() % nev);
			size_t no, k;
			const struct pmregs_netburst_event_option *o;
			pmregs_netburst_event_request_init(&r[i], e);
			r[i].mask = (uint16_t)(t[e].mask & (0 - t[e].mask)); /* lowest named bit */
			r[i].t0_usr = 1;
			r[i].select_policy = PMREGS_NETBURST_SELECT_POLICY_EVENT_TABLE;
			if (rnd() % 8 == 0) /* sometimes fix the counter */
				r[i].counter = (int16_t)pmregs_netburst_event_options(e, 0)[rnd() % 2].counter;
			o = pmregs_netburst_event_options(e, &no);
			nopts[i] = 0;
			for (k = 0; k < no; k++)
				if (r[i].counter < 0 || o[k].counter == (unsigned)r[i].counter)
					opts[i][nopts[i]++] = o[k].resources;
		}
		/* the search's budget is test_scale()'s: the default (a million steps) in the native run, less
		 * in the sanitizer, 32-bit and emulated runs (the lists of more than five events take it all; the
		 * answers are the same but for one list in 400 at a 64th) */
		passes = pmregs_netburst_event_schedule(r, n, out, &work, test_scale(1000000ul), &minimal);
		CHECK(passes >= 1);
		if (passes < 1)
			continue;
		if (n <= 5)
			CHECK(minimal); /* proved within the default budget (larger lists may not be) */
		/* every request placed, encoded as it asked, no ESCR or counter twice in a pass */
		for (i = 0; i < n; i++) {
			enc_t e;
			req_t q = r[i];
			CHECK(out[i].pass >= 0 && out[i].pass < passes && out[i].check == -1);
			CHECK(r[i].counter < 0 || out[i].counter == r[i].counter);
			q.escr = out[i].escr;
			q.counter = out[i].counter;
			CHECK(pmregs_netburst_event_encode(&q, &e) == PMREGS_OK);
			CHECK(e.escr_value == out[i].escr_value && e.cccr_value == out[i].cccr_value &&
			      e.cccr_msr == out[i].cccr_msr);
			for (j = 0; j < i; j++)
				if (out[j].pass == out[i].pass)
					CHECK(out[j].escr_msr != out[i].escr_msr && out[j].counter_msr != out[i].counter_msr);
		}
		hist[passes < 6 ? passes : 6]++;
		if (n <= 5) {
			brute = brute_passes((const uint64_t(*)[8])opts, nopts, n);
			if (brute != passes)
				fprintf(stderr, "round %u: %d passes, brute force %d\n", round, passes, brute);
			CHECK_EQ(passes, brute);
		}
	}
	/* the random lists did need several passes, often */
	CHECK(hist[2] > 40 && hist[3] > 10);
	/* a hand-made case: instr_retired twice needs CRU_ESCR0 and CRU_ESCR1 (one pass); three
	 * times needs two passes (two CRU ESCRs); IOQ_active_entries twice needs two (FSB_ESCR1 only) */
	{
		req_t r[3];
		enc_t out[3];
		unsigned i;
		int minimal;
		for (i = 0; i < 3; i++) {
			pmregs_netburst_event_request_init(&r[i], ev("instr_retired"));
			r[i].mask = 1;
			r[i].t0_os = 1;
		}
		CHECK(pmregs_netburst_event_schedule(r, 2, out, &work, 0, &minimal) == 1 && out[0].escr != out[1].escr);
		CHECK(pmregs_netburst_event_schedule(r, 3, out, &work, 0, &minimal) == 2 && minimal);
		for (i = 0; i < 2; i++) {
			pmregs_netburst_event_request_init(&r[i], ev("IOQ_active_entries"));
			r[i].mask = 1;
		}
		CHECK(pmregs_netburst_event_schedule(r, 2, out, &work, 0, &minimal) == 2);
		/* a request with no placement at all: the error of its encoding */
		r[1].mask = 0x1000; /* bit 12 is not an IOQ mask bit */
		CHECK(pmregs_netburst_event_schedule(r, 2, out, &work, 0, &minimal) == PMREGS_EINVAL &&
		      out[1].check == PMREGS_NETBURST_EVENT_CHECK_UNKNOWN_MASK_BIT);
		CHECK(pmregs_netburst_event_schedule(r, PMREGS_SCHED_MAX + 1, out, &work, 0, &minimal) == PMREGS_EINVAL);
		CHECK(pmregs_netburst_event_schedule(r, 0, out, &work, 0, &minimal) == 0);
	}
}

/* ---- the counting rule ------------------------------------------------------------------ */

/*
 * SDM 18.15.3, transcribed directly: "Compare flag: enables or disables filtering of the
 * event count. When set, the counter increments by one each clock in which the filtered
 * count satisfies the threshold comparison; when clear, the event count is passed through.
 * Complement: when set, count when the event count is less than or equal to the threshold;
 * when clear, count when it is greater than the threshold. Edge: when set (with compare),
 * count only false-to-true transitions of the comparison output." Enable clear: no counting.
 */
static unsigned naive_increment(int enable, int compare, int complement, unsigned threshold, int edge,
				unsigned count, int prev_output)
{
	int output;
	if (!enable)
		return 0;
	if (!compare)
		return count;
	if (complement)
		output = count <= threshold;
	else
		output = count > threshold;
	if (edge) {
		if (output && !prev_output)
			return 1;
		return 0;
	}
	if (output)
		return 1;
	return 0;
}

static void test_counting_rule(void)
{
	unsigned bits, count, thr;
	for (bits = 0; bits < 16; bits++)
		for (thr = 0; thr < 16; thr++)
			for (count = 0; count < 40; count++) {
				int prev;
				struct pmregs_netburst_cccr_fields f;
				uint64_t c;
				memset(&f, 0, sizeof f);
				f.enable = bits & 1;
				f.compare = bits >> 1 & 1;
				f.complement = bits >> 2 & 1;
				f.edge = bits >> 3 & 1;
				f.threshold = (uint8_t)thr;
				f.active_thread = 3;
				c = pmregs_netburst_cccr_pack(&f);
				for (prev = 0; prev < 2; prev++)
					CHECK_EQ(pmregs_netburst_cccr_increment(c, (uint8_t)count, prev),
						 naive_increment(f.enable, f.compare, f.complement, thr, f.edge, count, prev));
				CHECK_EQ(pmregs_netburst_cccr_compare_output(c, (uint8_t)count),
					 f.complement ? count <= thr : count > thr);
			}
	/* SDM 18.17.2 "non-sleep clockticks": compare, complement, threshold 15 count every
	 * clock whatever the event count (it never exceeds 15 per clock) */
	for (count = 0; count < 16; count++)
		CHECK_EQ(pmregs_netburst_cccr_increment(0x04FF9000, (uint8_t)count, 0), 1);
	/* a run of clocks with edge detection: count 3 0 4 5 0 0 6 with threshold 2 -> 2 rising edges... */
	{
		static const uint8_t seq[] = { 3, 0, 4, 5, 0, 0, 6 };
		uint64_t c = PMREGS_NETBURST_CCCR_ENABLE(1) | PMREGS_NETBURST_CCCR_COMPARE(1) |
			     PMREGS_NETBURST_CCCR_EDGE(1) | PMREGS_NETBURST_CCCR_THRESHOLD(2);
		unsigned k, total = 0;
		int prev = 0;
		for (k = 0; k < sizeof seq; k++) {
			total += pmregs_netburst_cccr_increment(c, seq[k], prev);
			prev = pmregs_netburst_cccr_compare_output(c, seq[k]);
		}
		CHECK_EQ(total, 3); /* rising edges at clocks 0, 2 and 6 */
	}
}

/*
 * The event mask selects which events of the class chosen by the event select are
 * counted (SDM3 18.15.1; SEED3 section 2.2: "the event mask selects one or several
 * events of that class"), so an ESCR with no mask bit counts nothing: the encoder
 * refuses it, e.g. IOQ_allocation with no mask bit (libpfm4 refuses it too). The BSQ
 * events (mask bits are encoded request fields) and the four undocumented FSB events
 * (LINUX programs them with no mask bit) count with an empty mask.
 */
static void test_empty_mask(void)
{
	size_t n, i;
	const struct pmregs_netburst_events_row *t = pmregs_netburst_events(&n);
	req_t r;
	enc_t e;
	unsigned ioq = ev("ioq_allocation");
	unsigned optional = 0;

	pmregs_netburst_event_request_init(&r, ioq);
	r.t0_usr = 1;
	CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_EMPTY_MASK));
	CHECK(strcmp(pmregs_netburst_event_check_name(PMREGS_NETBURST_EVENT_CHECK_EMPTY_MASK), "empty_mask") == 0);
	/* SEED3's IOQ_allocation example, ESCR 0x0600C205: REQA0 (request type 00001), ALL_READ, ALL_WRITE */
	r.mask = (uint16_t)((1u << 0) | (1u << 5) | (1u << 6));
	r.t0_os = 1;
	CHECK(encode_check(&r, PMREGS_OK, -1));
	/* the parser leaves the mask empty when the name has none: refused at encoding */
	CHECK(pmregs_netburst_event_parse(&r, "IOQ_allocation", 0) == PMREGS_OK);
	r.t0_usr = 1;
	CHECK(pmregs_netburst_event_encode(&r, &e) == PMREGS_EINVAL && e.check == PMREGS_NETBURST_EVENT_CHECK_EMPTY_MASK);
	/* every event: an empty mask is refused exactly when the table does not mark it optional */
	for (i = 0; i < n; i++) {
		pmregs_netburst_event_request_init(&r, (unsigned)i);
		r.t0_usr = 1;
		r.select_policy = PMREGS_NETBURST_SELECT_POLICY_EVENT_TABLE;
		if (t[i].mask_optional) {
			optional++;
			CHECK(encode_check(&r, PMREGS_OK, -1));
		} else {
			CHECK(encode_check(&r, PMREGS_EINVAL, PMREGS_NETBURST_EVENT_CHECK_EMPTY_MASK));
		}
	}
	/* BSQ_allocation, BSQ_active_entries, b2b_cycles, bnr, snoop, response */
	CHECK(optional == 6);
	CHECK(t[ev("bsq_allocation")].mask_optional && t[ev("bnr")].mask_optional && !t[ioq].mask_optional);
}

/*
 * Cascading, from SDM3 18.15.5.6: "Counters 0 and 2 can be cascaded in any order, as can counters 1 and
 * 3 ... The pairing described also applies to subsequent blocks ... In the IQ block, counter 16 can only be
 * cascaded from counter 14 (not from 12); counter 14 cannot be cascaded from counter 16 ... Similar
 * restrictions apply to counter 17"; 18.15.5.7: "Neither counter 16 or 17 can initiate the cascading of
 * counter pairs using the cascade bit"; Table 18-65: CASCNT4INTO0, CASCNT5INTO3, CASCNT5INTO4, CASCNT4INTO5.
 */
static void test_cascading(void)
{
	static const unsigned char from[18] = {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 14, 15};
	unsigned n, m, ext = 0;
	size_t k, nr;
	const struct pmregs_netburst_register *r = regs(&nr);
	for (n = 0; n < 18; n++) {
		CHECK_EQ(pmregs_netburst_cascade_source((uint8_t)n), from[n]);
		for (m = 0; m < 18; m++) /* n starts m exactly when m is cascaded from n */
			CHECK_EQ((pmregs_netburst_cascade_targets((uint8_t)n) >> m) & 1u, from[m] == n);
	}
	CHECK_EQ(pmregs_netburst_cascade_source(18), 0xFF);
	CHECK_EQ(pmregs_netburst_cascade_targets(16), 0);
	CHECK_EQ(pmregs_netburst_cascade_targets(17), 0);
	CHECK_EQ(pmregs_netburst_cascade_targets(14), (1u << 12) | (1u << 16));
	/* the extended cascade: on the CCCRs the register table marks ext_cascade, and only there */
	CHECK_EQ(pmregs_netburst_ext_cascade_source(12), 16);
	CHECK_EQ(pmregs_netburst_ext_cascade_source(15), 17);
	CHECK_EQ(pmregs_netburst_ext_cascade_source(16), 17);
	CHECK_EQ(pmregs_netburst_ext_cascade_source(17), 16);
	for (k = 0; k < nr; k++) {
		if (!strstr(r[k].name, "cccr"))
			continue;
		CHECK_EQ(pmregs_netburst_ext_cascade_source(r[k].counter) != 0xFF, r[k].ext_cascade != 0);
		ext += r[k].ext_cascade != 0;
	}
	CHECK_EQ(ext, 4);
	/* Example 18-1: Y has CASCADE set and ENABLE clear; it counts once X overflows (X's CCCR OVF) */
	{
		uint64_t x = PMREGS_NETBURST_CCCR_ENABLE(1), y = PMREGS_NETBURST_CCCR_CASCADE(1);
		CHECK(pmregs_netburst_cccr_counting(x, 0));
		CHECK(!pmregs_netburst_cccr_counting(y, x));
		CHECK(pmregs_netburst_cccr_counting(y, x | PMREGS_NETBURST_CCCR_OVF(1)));
		/* 18.15.5.5: clear the cascade bit, or the alternate counter's OVF flag, to halt it */
		CHECK(!pmregs_netburst_cccr_counting(0, x | PMREGS_NETBURST_CCCR_OVF(1)));
	}
	/* Example 18-2: IQ_CCCR0 = 0x04038800 (CASCNT4INTO0, not enabled) counts once counter 16
	 * (IQ_CCCR4 = 0x00039000) has overflowed */
	CHECK(!pmregs_netburst_cccr_ext_counting(0x04038800, 0, 0x00039000));
	CHECK(pmregs_netburst_cccr_ext_counting(0x04038800, 0, 0x00039000 | PMREGS_NETBURST_CCCR_OVF(1)));
	CHECK(!pmregs_netburst_cccr_ext_counting(0x04038000, 0, 0x00039000 | PMREGS_NETBURST_CCCR_OVF(1)));
	/* SDM2 RDPMC: any CPL with CR4.PCE = 1, only CPL 0 with CR4.PCE = 0 */
	CHECK(pmregs_netburst_rdpmc_allowed(0, 0));
	CHECK(!pmregs_netburst_rdpmc_allowed(3, 0));
	CHECK(pmregs_netburst_rdpmc_allowed(3, 1));
	CHECK(!pmregs_netburst_rdpmc_allowed(1, 0));
}

/* The at-retirement events are the ten of SDM3 Table 19-29, and no others. */
static void test_at_retirement(void)
{
	static const char *const t19_29[] = {
		"front_end_event", "execution_event", "replay_event", "instr_retired", "uops_retired",
		"uop_type", "branch_retired", "mispred_branch_retired", "x87_assist", "machine_clear",
	};
	size_t k, n, i, hits = 0;
	const struct pmregs_netburst_events_row *e = pmregs_netburst_events(&n);
	for (k = 0; k < n; k++) {
		int want = 0;
		for (i = 0; i < sizeof t19_29 / sizeof t19_29[0]; i++)
			want |= strcmp(e[k].name, t19_29[i]) == 0;
		CHECK_EQ(e[k].at_retirement != 0, want);
		hits += e[k].at_retirement != 0;
	}
	CHECK_EQ(hits, 10);
	CHECK(!pmregs_netburst_events_find("instr_completed")->at_retirement);
}

int main(void)
{
	test_seed_examples();
	test_sdm_example_18_2();
	test_xen_watchdog();
	test_register_map();
	test_layouts();
	test_event_table();
	test_names();
	test_encoder_errors();
	test_empty_mask();
	test_encoder_all();
	test_decoder();
	test_scheduler();
	test_counting_rule();
	test_cascading();
	test_at_retirement();
	return check_done("test_netburst");
}
TEST_COLD_END
