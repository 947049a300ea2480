/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * AMD golden vectors and cross-checks, each with the document its numbers come from.
 *
 * APM2  = AMD64 Architecture Programmer's Manual Vol. 2 (pub. 24593), chapter 13 and Appendix A
 * LINUX = Linux arch/x86/include/asm/perf_event.h, msr-index.h, amd-ibs.h (asm/amd/ibs.h);
 *         the values below are written out as the headers define them (6.1 and mainline)
 * IBSTK = AMD Research IBS Toolkit include/ibs-uapi.h
 * PFM4  = libpfm4 lib/pfmlib_amd64_priv.h (the PerfEvtSel bit-field struct)
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/amd_tools.h>
#include "../common/check.h"

#define BIT(n) (1ULL << (n))
#define GENMASK(h, l) ((~0ULL >> (63 - (h))) & ~((1ULL << (l)) - 1))

static void msr_addresses(void)
{
	/* APM2 Table A-6 / LINUX msr-index.h */
	CHECK_EQ(PMREGS_AMD_MSR_K7_EVNTSEL0, 0xC0010000);       /* MSR_K7_EVNTSEL0 */
	CHECK_EQ(PMREGS_AMD_MSR_K7_EVNTSEL(3), 0xC0010003);
	CHECK_EQ(PMREGS_AMD_MSR_K7_PERFCTR0, 0xC0010004);       /* MSR_K7_PERFCTR0 */
	CHECK_EQ(PMREGS_AMD_MSR_K7_PERFCTR(3), 0xC0010007);
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CTL0, 0xC0010200);         /* MSR_F15H_PERF_CTL */
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CTL(5), 0xC001020A);
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CTR0, 0xC0010201);         /* MSR_F15H_PERF_CTR */
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CTR(5), 0xC001020B);
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CNTR_GLOBAL_STATUS, 0xC0000300);
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CNTR_GLOBAL_CTL, 0xC0000301);
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CNTR_GLOBAL_STATUS_CLR, 0xC0000302);
	CHECK_EQ(PMREGS_AMD_MSR_PERF_CNTR_GLOBAL_STATUS_SET, 0xC0000303);
	CHECK_EQ(PMREGS_AMD_MSR_IR_PERF_COUNT, 0xC00000E9);     /* MSR_F17H_IRPERF */
	CHECK_EQ(PMREGS_AMD_MSR_PTSC, 0xC0010280);              /* MSR_F15H_PTSC */
	CHECK_EQ(PMREGS_AMD_MSR_L3_PMC_CFG0, 0xC0010230);       /* MSR_F16H_L2I_PERF_CTL */
	CHECK_EQ(PMREGS_AMD_MSR_L3_PMC(5), 0xC001023B);
	CHECK_EQ(PMREGS_AMD_MSR_DF_PERF_CTL0, 0xC0010240);      /* MSR_F15H_NB_PERF_CTL */
	CHECK_EQ(PMREGS_AMD_MSR_DF_PERF_CTR(3), 0xC0010247);
	CHECK_EQ(PMREGS_AMD_MSR_UMC_PERF_CTL0, 0xC0010800);     /* MSR_F19H_UMC_PERF_CTL */
	CHECK_EQ(PMREGS_AMD_MSR_UMC_PERF_CTR0, 0xC0010801);
	CHECK_EQ(PMREGS_AMD_MSR_DEBUGCTL, 0x1D9);
	CHECK_EQ(PMREGS_AMD_MSR_LAST_BRANCH_FROM_IP, 0x1DB);
	CHECK_EQ(PMREGS_AMD_MSR_LAST_BRANCH_TO_IP, 0x1DC);
	CHECK_EQ(PMREGS_AMD_MSR_LAST_INT_FROM_IP, 0x1DD);        /* MSR_IA32_LASTINTFROMIP */
	CHECK_EQ(PMREGS_AMD_MSR_LAST_INT_TO_IP, 0x1DE);
	CHECK_EQ(PMREGS_AMD_MSR_LBR_SELECT, 0xC000010E);        /* MSR_AMD64_LBR_SELECT */
	CHECK_EQ(PMREGS_AMD_MSR_DBG_EXTN_CFG, 0xC000010F);      /* MSR_AMD_DBG_EXTN_CFG */
	CHECK_EQ(PMREGS_AMD_MSR_LBR_FROM0, 0xC0010300);         /* MSR_AMD_SAMP_BR_FROM */
	CHECK_EQ(PMREGS_AMD_MSR_LBR_TO(15), 0xC001031F);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_FETCH_CTL, 0xC0011030);     /* MSR_AMD64_IBSFETCHCTL ... */
	CHECK_EQ(PMREGS_AMD_MSR_IBS_FETCH_LIN_AD, 0xC0011031);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_FETCH_PHYS_AD, 0xC0011032);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_CTL, 0xC0011033);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_RIP, 0xC0011034);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_DATA, 0xC0011035);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_DATA2, 0xC0011036);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_DATA3, 0xC0011037);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_DC_LIN_AD, 0xC0011038);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_DC_PHYS_AD, 0xC0011039);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_CTL, 0xC001103A);           /* MSR_AMD64_IBSCTL */
	CHECK_EQ(PMREGS_AMD_MSR_IBS_BR_TARGET, 0xC001103B);
	CHECK_EQ(PMREGS_AMD_MSR_IC_IBS_EXTD_CTL, 0xC001103C);   /* MSR_AMD64_ICIBSEXTDCTL */
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_DATA4, 0xC001103D);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_CTL2, 0xC001103E);
	CHECK_EQ(PMREGS_AMD_MSR_IBS_FETCH_CTL2, 0xC001103F);
	/* the address functions agree with the register table */
	CHECK_EQ(pmregs_amd_perf_ctl_msr(2, 0), PMREGS_AMD_MSR_K7_EVNTSEL2);
	CHECK_EQ(pmregs_amd_perf_ctl_msr(4, 1), PMREGS_AMD_MSR_PERF_CTL4);
	CHECK_EQ(pmregs_amd_perf_ctr_msr(1, 0), PMREGS_AMD_MSR_K7_PERFCTR1);
	CHECK_EQ(pmregs_amd_perf_ctr_msr(3, 1), PMREGS_AMD_MSR_PERF_CTR3);
	CHECK_EQ(pmregs_amd_df_perf_ctl_msr(3), PMREGS_AMD_MSR_DF_PERF_CTL3);
	CHECK_EQ(pmregs_amd_df_perf_ctl_msr(15), 0xC001025E);
	CHECK_EQ(pmregs_amd_umc_perf_ctl_msr(1), PMREGS_AMD_MSR_UMC_PERF_CTL1);
}

/* A field position as a Linux header or union defines it. */
struct ref_field {
	const char *what;
	uint64_t linux_mask, pmregs_mask;
};

static void check_fields(const struct ref_field *f, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		checks++;
		if (f[i].linux_mask != f[i].pmregs_mask && check_failed()) {
			fprintf(stderr, "%s: Linux %#llx, pmregs %#llx\n", f[i].what, (unsigned long long)f[i].linux_mask,
				(unsigned long long)f[i].pmregs_mask);
		}
	}
}

static void perf_ctl_vs_linux(void)
{
	/* LINUX perf_event.h: ARCH_PERFMON_EVENTSEL_*, AMD64_EVENTSEL_*; APM2 Fig 13-11 */
	static const struct ref_field f[] = {
		{"AMD64_EVENTSEL_EVENT (0xFF | 0xF << 32)", 0xFFULL | (0x0FULL << 32), PMREGS_AMD_PERF_CTL_EVENT_SELECT_MASK},
		{"ARCH_PERFMON_EVENTSEL_UMASK", 0x0000FF00ULL, PMREGS_AMD_PERF_CTL_UMASK_MASK},
		{"ARCH_PERFMON_EVENTSEL_USR", BIT(16), PMREGS_AMD_PERF_CTL_USR_MASK},
		{"ARCH_PERFMON_EVENTSEL_OS", BIT(17), PMREGS_AMD_PERF_CTL_OS_MASK},
		{"ARCH_PERFMON_EVENTSEL_EDGE", BIT(18), PMREGS_AMD_PERF_CTL_EDGE_MASK},
		{"ARCH_PERFMON_EVENTSEL_INT", BIT(20), PMREGS_AMD_PERF_CTL_INT_EN_MASK},
		{"ARCH_PERFMON_EVENTSEL_ENABLE", BIT(22), PMREGS_AMD_PERF_CTL_EN_MASK},
		{"ARCH_PERFMON_EVENTSEL_INV", BIT(23), PMREGS_AMD_PERF_CTL_INV_MASK},
		{"ARCH_PERFMON_EVENTSEL_CMASK", 0xFF000000ULL, PMREGS_AMD_PERF_CTL_CNT_MASK_MASK},
		{"AMD64_EVENTSEL_GUESTONLY", BIT(40), PMREGS_AMD_PERF_CTL_GUEST_ONLY_MASK},
		{"AMD64_EVENTSEL_HOSTONLY", BIT(41), PMREGS_AMD_PERF_CTL_HOST_ONLY_MASK},
		{"AMD64_RAW_EVENT_MASK", 0x0000000FFF84FFFFULL, PMREGS_AMD_PERF_RAW_MASK},
		{"AMD64_RAW_EVENT_MASK_NB", 0x0000000F0000FFFFULL, PMREGS_AMD_PERF_RAW_MASK_NB},
		{"AMD_MERGE_EVENT_ENABLE", 0x0000000F004000FFULL,
		 PMREGS_AMD_PERF_CTL_EVENT_SELECT(0xFFF) | PMREGS_AMD_PERF_CTL_EN(1)},
		{"AMD64_L3_SLICE_MASK", 0xFULL << 48, PMREGS_AMD_L3_PMC_CFG_F17H_SLICE_MASK_MASK},
		{"AMD64_L3_THREAD_MASK", 0xFFULL << 56, PMREGS_AMD_L3_PMC_CFG_F17H_THREAD_MASK_MASK},
		{"AMD64_L3_SLICEID_MASK", 0x7ULL << 48, PMREGS_AMD_L3_PMC_CFG_SLICE_ID_MASK},
		{"AMD64_L3_F19H_THREAD_MASK", 0x3ULL << 56, PMREGS_AMD_L3_PMC_CFG_THREAD_MASK_MASK},
		{"AMD64_L3_EN_ALL_CORES", BIT(47), PMREGS_AMD_L3_PMC_CFG_EN_ALL_CORES_MASK},
		{"AMD64_L3_EN_ALL_SLICES", BIT(46), PMREGS_AMD_L3_PMC_CFG_EN_ALL_SLICES_MASK},
		{"AMD64_L3_COREID_MASK", 0x7ULL << 42, PMREGS_AMD_L3_PMC_CFG_CORE_ID_MASK},
		{"AMD64_PERFMON_V2_EVENTSEL_EVENT_NB (| GENMASK(37,36))", 0xFFULL | (0x0FULL << 32) | GENMASK(37, 36),
		 PMREGS_AMD_DF_PERF_CTL_V2_EVENT_SELECT_MASK},
		{"AMD64_PERFMON_V2_EVENTSEL_UMASK_NB (| GENMASK(27,24))", 0xFF00ULL | GENMASK(27, 24),
		 PMREGS_AMD_DF_PERF_CTL_V2_UMASK_MASK},
		{"amd_df event14 format config:0-7,32-35,59-60", 0xFFULL | GENMASK(35, 32) | GENMASK(60, 59),
		 PMREGS_AMD_DF_PERF_CTL_EVENT_SELECT_MASK},
		{"amd_umc event config:0-7", 0xFF, PMREGS_AMD_UMC_PERF_CTL_EVENT_SELECT_MASK},
		{"amd_umc rdwrmask config:8-9", 0x300, PMREGS_AMD_UMC_PERF_CTL_RD_WR_MASK_MASK},
		{"amd_umc enable (BIT(31))", BIT(31), PMREGS_AMD_UMC_PERF_CTL_EN_MASK},
		{"GLOBAL_STATUS_LBRS_FROZEN_BIT 58", BIT(58), PMREGS_AMD_PERF_CNTR_GLOBAL_STATUS_LBRSF_MASK},
		{"DEBUGCTLMSR_LBR", BIT(0), PMREGS_AMD_DEBUGCTL_LBR_MASK},
		{"DEBUGCTLMSR_BTF", BIT(1), PMREGS_AMD_DEBUGCTL_BTF_MASK},
		{"DEBUGCTLMSR_FREEZE_LBRS_ON_PMI", BIT(11), PMREGS_AMD_DEBUGCTL_FLBRI_MASK},
		{"DBG_EXTN_CFG_LBRV2EN", BIT(6), PMREGS_AMD_DBG_EXTN_CFG_LBRSE_MASK},
	};
	check_fields(f, sizeof f / sizeof f[0]);
}

static void perf_ctl_vectors(void)
{
	struct pmregs_amd_perf_ctl_fields f;
	uint64_t v;
	/* APM2 Fig 13-11: a libpfm4-style Zen event 0x1D0 is 0x1_0000_00D0 (EventSelect[11:8] in 35:32) */
	v = UINT64_C(0x1000000D0);
	CHECK_EQ(pmregs_amd_perf_ctl_event_select_get(v), 0x1D0);
	CHECK(pmregs_amd_perf_ctl_valid(v));
	CHECK_EQ(PMREGS_AMD_PERF_CTL_EVENT_SELECT(0x1D0), v);
	CHECK_EQ(pmregs_amd_perf_ctl_event_select_set(0, 0xFFF), UINT64_C(0xF000000FF));
	CHECK_EQ(pmregs_amd_perf_ctl_event_select_set(v, 0x1000), 0);   /* masked to 12 bits */
	CHECK(pmregs_amd_perf_ctl_event_select_set_checked(&v, 0x1000) == PMREGS_ERANGE && v == UINT64_C(0x1000000D0));
	/* Linux's cycles on Zen (amd_zen1_perfmon_event_map: 0x0076) with USR, OS, INT, EN = 0x530076 */
	memset(&f, 0, sizeof f);
	f.event_select = PMREGS_AMD_GENERIC_EVENTS_ZEN1_CYCLES_EVENT_SELECT;
	f.usr = f.os = f.int_en = f.en = 1;
	CHECK_EQ(pmregs_amd_perf_ctl_pack(&f), 0x530076);
	/* PFM4 calls bit 19 sel_pc; APM2 reserves it, as do we (and 21, Intel's AnyThread) */
	CHECK(!pmregs_amd_perf_ctl_valid(BIT(19)));
	CHECK(!pmregs_amd_perf_ctl_valid(BIT(21)));
	/* Linux's IntCoreEn (36) / IntCoreSel (40:37) are BKDG-only; APM2 reserves 39:36 and has GuestOnly at 40 */
	CHECK(!pmregs_amd_perf_ctl_valid(BIT(36)));
	CHECK(pmregs_amd_perf_ctl_valid(BIT(40) | BIT(41) | BIT(43)));
	CHECK_EQ(PMREGS_AMD_PERF_CTL_RSVD_MASK, GENMASK(63, 44) | BIT(42) | GENMASK(39, 36) | BIT(21) | BIT(19));
	CHECK_EQ(PMREGS_AMD_PERF_CTL_RESET, 0);
}

/*
 * The generic events Linux programs, per generation (Linux 6.12 arch/x86/events/amd/core.c,
 * amd_zen1/zen2/zen4_perfmon_event_map, chosen by amd_pmu_event_map), as the config values there:
 * each row's PERF_CTL event and unit mask must give the same perf_event_attr.config.
 */
static void generic_events(void)
{
	static const struct lx_row { const char *name; uint64_t config; } zen1[] = {
		{"cycles", 0x0076}, {"instructions", 0x00C0}, {"cache_references", 0xFF60},
		{"cache_misses", 0x0964}, {"branches", 0x00C2}, {"branch_misses", 0x00C3},
		{"stalled_cycles_frontend", 0x0287}, {"stalled_cycles_backend", 0x0187},
	}, zen2[] = {
		{"cycles", 0x0076}, {"instructions", 0x00C0}, {"cache_references", 0xFF60},
		{"cache_misses", 0x0964}, {"branches", 0x00C2}, {"branch_misses", 0x00C3},
		{"stalled_cycles_frontend", 0x00A9},
	}, zen4[] = {
		{"cycles", 0x0076}, {"instructions", 0x00C0}, {"cache_references", 0xFF60},
		{"cache_misses", 0x0964}, {"branches", 0x00C2}, {"branch_misses", 0x00C3},
		{"stalled_cycles_frontend", 0x00A9}, {"ref_cycles", UINT64_C(0x100000120)},
	};
	static const struct { enum pmregs_amd_zen zen; const struct lx_row *lx; size_t n; } gens[] = {
		{PMREGS_AMD_ZEN_ZEN1, zen1, sizeof zen1 / sizeof zen1[0]},
		{PMREGS_AMD_ZEN_ZEN2, zen2, sizeof zen2 / sizeof zen2[0]},
		{PMREGS_AMD_ZEN_ZEN3, zen2, sizeof zen2 / sizeof zen2[0]},
		{PMREGS_AMD_ZEN_ZEN4, zen4, sizeof zen4 / sizeof zen4[0]},
		{PMREGS_AMD_ZEN_ZEN5, zen4, sizeof zen4 / sizeof zen4[0]},
	};
	size_t g, i, n;
	const struct pmregs_amd_generic_events_row *rows;
	for (g = 0; g < sizeof gens / sizeof gens[0]; g++) {
		rows = pmregs_amd_generic_events(gens[g].zen, &n);
		CHECK(rows != NULL);
		CHECK_EQ(n, gens[g].n);
		for (i = 0; rows && i < n && i < gens[g].n; i++) {
			uint64_t ctl = pmregs_amd_perf_ctl_event_select_set(0, rows[i].event_select);
			ctl = pmregs_amd_perf_ctl_umask_set(ctl, rows[i].umask);
			CHECK(strcmp(rows[i].name, gens[g].lx[i].name) == 0);
			CHECK_EQ(pmregs_amd_perf_raw_config(ctl), gens[g].lx[i].config);
		}
	}
	n = 99;
	CHECK(pmregs_amd_generic_events(PMREGS_AMD_ZEN_NONE, &n) == NULL && n == 0);
	/* only Zen 1 has a stalled-cycles-backend event; the stalled-cycles rows are not Zen 1's elsewhere */
	CHECK(pmregs_amd_generic_events_find(PMREGS_AMD_ZEN_ZEN1, "stalled_cycles_backend") != NULL);
	CHECK(pmregs_amd_generic_events_find(PMREGS_AMD_ZEN_ZEN3, "stalled_cycles_backend") == NULL);
	CHECK(pmregs_amd_generic_events_find(PMREGS_AMD_ZEN_ZEN5, "stalled_cycles_backend") == NULL);
	CHECK_EQ(pmregs_amd_generic_events_find(PMREGS_AMD_ZEN_ZEN4, "stalled_cycles_frontend")->event_select, 0x0A9);
	CHECK(pmregs_amd_generic_events_find(PMREGS_AMD_ZEN_ZEN3, "ref_cycles") == NULL);
	CHECK_EQ(PMREGS_AMD_GENERIC_EVENTS_ZEN4_REF_CYCLES_EVENT_SELECT, 0x120);
	CHECK_EQ(PMREGS_AMD_GENERIC_EVENTS_ZEN4_REF_CYCLES_UMASK, 0x01);
	CHECK_EQ(PMREGS_AMD_GENERIC_EVENTS_ZEN1_STALLED_CYCLES_FRONTEND_EVENT_SELECT, 0x087);
	CHECK_EQ(PMREGS_AMD_GENERIC_EVENTS_ZEN2_STALLED_CYCLES_FRONTEND_EVENT_SELECT, 0x0A9);

	/* the generation by family and model (Linux 6.12 arch/x86/kernel/cpu/amd.c, bsp_init_amd) */
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x01), PMREGS_AMD_ZEN_ZEN1);   /* Naples */
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x08), PMREGS_AMD_ZEN_ZEN1);   /* Pinnacle Ridge (Zen+) */
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x50), PMREGS_AMD_ZEN_ZEN1);
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x31), PMREGS_AMD_ZEN_ZEN2);   /* Rome */
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x71), PMREGS_AMD_ZEN_ZEN2);   /* Matisse */
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x91), PMREGS_AMD_ZEN_ZEN2);
	CHECK_EQ(pmregs_amd_zen_of(0x17, 0x92), PMREGS_AMD_ZEN_NONE);
	CHECK_EQ(pmregs_amd_zen_of(0x19, 0x01), PMREGS_AMD_ZEN_ZEN3);   /* Milan */
	CHECK_EQ(pmregs_amd_zen_of(0x19, 0x21), PMREGS_AMD_ZEN_ZEN3);   /* Vermeer */
	CHECK_EQ(pmregs_amd_zen_of(0x19, 0x11), PMREGS_AMD_ZEN_ZEN4);   /* Genoa */
	CHECK_EQ(pmregs_amd_zen_of(0x19, 0x61), PMREGS_AMD_ZEN_ZEN4);   /* Raphael */
	CHECK_EQ(pmregs_amd_zen_of(0x19, 0xAF), PMREGS_AMD_ZEN_ZEN4);
	CHECK_EQ(pmregs_amd_zen_of(0x19, 0xB0), PMREGS_AMD_ZEN_NONE);
	CHECK_EQ(pmregs_amd_zen_of(0x1A, 0x02), PMREGS_AMD_ZEN_ZEN5);   /* Turin */
	CHECK_EQ(pmregs_amd_zen_of(0x1A, 0x44), PMREGS_AMD_ZEN_ZEN5);   /* Granite Ridge */
	CHECK_EQ(pmregs_amd_zen_of(0x1A, 0x30), PMREGS_AMD_ZEN_NONE);
	CHECK_EQ(pmregs_amd_zen_of(0x15, 0x01), PMREGS_AMD_ZEN_NONE);
	/* the map Linux uses (amd_pmu_event_map): by feature, else by family from 19h on */
	CHECK_EQ(pmregs_amd_generic_events_zen(0x17, 0x08), PMREGS_AMD_ZEN_ZEN1);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x17, 0x71), PMREGS_AMD_ZEN_ZEN2);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x17, 0x92), PMREGS_AMD_ZEN_NONE);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x19, 0x21), PMREGS_AMD_ZEN_ZEN2);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x19, 0xB0), PMREGS_AMD_ZEN_ZEN2);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x19, 0x61), PMREGS_AMD_ZEN_ZEN4);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x1A, 0x30), PMREGS_AMD_ZEN_ZEN4);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x1A, 0x44), PMREGS_AMD_ZEN_ZEN4);
	CHECK_EQ(pmregs_amd_generic_events_zen(0x16, 0x30), PMREGS_AMD_ZEN_NONE);
}

static void counters_and_rdpmc(void)
{
	/* LINUX core.c: 48-bit counters; writing -period makes the counter overflow after period events */
	CHECK_EQ(pmregs_amd_counter_preload(1), UINT64_C(0xFFFFFFFFFFFF));
	CHECK_EQ(pmregs_amd_counter_preload(100000), UINT64_C(0xFFFFFFFE7960));
	CHECK_EQ(pmregs_amd_counter_preload(PMREGS_AMD_MAX_PERIOD), UINT64_C(0x800000000001));
	CHECK(!pmregs_amd_counter_overflowed(pmregs_amd_counter_preload(PMREGS_AMD_MAX_PERIOD)));
	CHECK(pmregs_amd_counter_overflowed(0x5));           /* wrapped past 2^48 */
	CHECK(pmregs_amd_perf_ctr_valid(PMREGS_AMD_COUNTER_MASK));
	CHECK(!pmregs_amd_perf_ctr_valid(BIT(48)));
	/* RDPMC: APM3 (0-3), LINUX core.c (4-5), uncore.c RDPMC_BASE_NB 6, RDPMC_BASE_LLC 10, DF k >= 4 -> 12 + k */
	CHECK_EQ(pmregs_amd_rdpmc_core(5), 5);
	CHECK_EQ(pmregs_amd_rdpmc_df(0), 6);
	CHECK_EQ(pmregs_amd_rdpmc_df(3), 9);
	CHECK_EQ(pmregs_amd_rdpmc_df(4), 16);
	CHECK_EQ(pmregs_amd_rdpmc_llc(0), 10);
	CHECK_EQ(pmregs_amd_rdpmc_llc(5), 15);
	/* APM2 13.2.2: PerfMonV2 needs EN and the global enable; PMCF freezes */
	CHECK(pmregs_amd_counter_counting(2, PMREGS_AMD_PERF_CTL_EN(1), 0, 0, 0));
	CHECK(!pmregs_amd_counter_counting(2, PMREGS_AMD_PERF_CTL_EN(1), 1, 0x3B, 0));
	CHECK(pmregs_amd_counter_counting(2, PMREGS_AMD_PERF_CTL_EN(1), 1, 0x04, 0));
	CHECK(!pmregs_amd_counter_counting(2, PMREGS_AMD_PERF_CTL_EN(1), 1, 0x3F, BIT(59)));
	CHECK(!pmregs_amd_counter_counting(6, PMREGS_AMD_PERF_CTL_EN(1), 0, 0x3F, 0));
	CHECK(!pmregs_amd_counter_counting(0, 0x76, 0, 0x3F, 0));
	/* APM2 Fig 13-13: CNT_OF 5:0, LBRSF 58, PMCF 59 */
	CHECK_EQ(PMREGS_AMD_PERF_CNTR_GLOBAL_STATUS_RSVD_MASK, ~(GENMASK(5, 0) | BIT(58) | BIT(59)));
	CHECK_EQ(PMREGS_AMD_PERF_CNTR_GLOBAL_STATUS_CLR_WRITABLE_MASK, GENMASK(5, 0) | BIT(58) | BIT(59));
	CHECK_EQ(PMREGS_AMD_PERF_CNTR_GLOBAL_CTL_WRITABLE_MASK, 0x3F);
	CHECK_EQ(pmregs_amd_perf_cntr_global_ctl_cnt_en_get(0x20, 5), 1);
}

static void cpuid_bits(void)
{
	/* LINUX cpufeatures.h X86_FEATURE_IBS (8000_0001 ECX 10), PERFCTR_CORE 23, PERFCTR_NB 24, BPEXT 26,
	 * PTSC 27, PERFCTR_LLC 28; IRPERF 8000_0008 EBX 1, BRS 31; PERFMON_V2 8000_0022 EAX 0, AMD_LBR_V2 1,
	 * AMD_LBR_PMC_FREEZE 2; perf_event.h union cpuid_0x80000022_ebx num_core_pmc:4, lbr_v2_stack_sz:6,
	 * num_df_pmc:6, num_umc_pmc:6 */
	static const struct ref_field f[] = {
		{"X86_FEATURE_IBS", BIT(10), PMREGS_AMD_CPUID_80000001_ECX_IBS_MASK},
		{"X86_FEATURE_PERFCTR_CORE", BIT(23), PMREGS_AMD_CPUID_80000001_ECX_PERF_CTR_EXT_CORE_MASK},
		{"X86_FEATURE_PERFCTR_NB", BIT(24), PMREGS_AMD_CPUID_80000001_ECX_PERF_CTR_EXT_NB_MASK},
		{"X86_FEATURE_BPEXT", BIT(26), PMREGS_AMD_CPUID_80000001_ECX_DATA_BKPT_EXT_MASK},
		{"X86_FEATURE_PTSC", BIT(27), PMREGS_AMD_CPUID_80000001_ECX_PERF_TSC_MASK},
		{"X86_FEATURE_PERFCTR_LLC", BIT(28), PMREGS_AMD_CPUID_80000001_ECX_PERF_CTR_EXT_LLC_MASK},
		{"X86_FEATURE_IRPERF", BIT(1), PMREGS_AMD_CPUID_80000008_EBX_IR_PERF_MASK},
		{"X86_FEATURE_BRS", BIT(31), PMREGS_AMD_CPUID_80000008_EBX_BRS_MASK},
		{"X86_FEATURE_PERFMON_V2", BIT(0), PMREGS_AMD_CPUID_80000022_EAX_PERF_MON_V2_MASK},
		{"X86_FEATURE_AMD_LBR_V2", BIT(1), PMREGS_AMD_CPUID_80000022_EAX_LBR_STACK_MASK},
		{"X86_FEATURE_AMD_LBR_PMC_FREEZE", BIT(2), PMREGS_AMD_CPUID_80000022_EAX_LBR_AND_PMC_FREEZE_MASK},
		{"num_core_pmc:4", GENMASK(3, 0), PMREGS_AMD_CPUID_80000022_EBX_NUM_PERF_CTR_CORE_MASK},
		{"lbr_v2_stack_sz:6", GENMASK(9, 4), PMREGS_AMD_CPUID_80000022_EBX_LBR_STACK_SIZE_MASK},
		{"num_df_pmc:6", GENMASK(15, 10), PMREGS_AMD_CPUID_80000022_EBX_NUM_PERF_CTR_NB_MASK},
		{"num_umc_pmc:6", GENMASK(21, 16), PMREGS_AMD_CPUID_80000022_EBX_NUM_PERF_CTR_UMC_MASK},
		/* LINUX IBS_CAPS_* */
		{"IBS_CAPS_AVAIL", BIT(0), PMREGS_AMD_CPUID_8000001B_EAX_IBSFFV_MASK},
		{"IBS_CAPS_FETCHSAM", BIT(1), PMREGS_AMD_CPUID_8000001B_EAX_FETCH_SAM_MASK},
		{"IBS_CAPS_OPSAM", BIT(2), PMREGS_AMD_CPUID_8000001B_EAX_OP_SAM_MASK},
		{"IBS_CAPS_RDWROPCNT", BIT(3), PMREGS_AMD_CPUID_8000001B_EAX_RD_WR_OP_CNT_MASK},
		{"IBS_CAPS_OPCNT", BIT(4), PMREGS_AMD_CPUID_8000001B_EAX_OP_CNT_MASK},
		{"IBS_CAPS_BRNTRGT", BIT(5), PMREGS_AMD_CPUID_8000001B_EAX_BRN_TRGT_MASK},
		{"IBS_CAPS_OPCNTEXT", BIT(6), PMREGS_AMD_CPUID_8000001B_EAX_OP_CNT_EXT_MASK},
		{"IBS_CAPS_RIPINVALIDCHK", BIT(7), PMREGS_AMD_CPUID_8000001B_EAX_RIP_INVALID_CHK_MASK},
		{"IBS_CAPS_OPBRNFUSE", BIT(8), PMREGS_AMD_CPUID_8000001B_EAX_OP_BRN_FUSE_MASK},
		{"IBS_CAPS_FETCHCTLEXTD", BIT(9), PMREGS_AMD_CPUID_8000001B_EAX_IBS_FETCH_CTL_EXTD_MASK},
		{"IBS_CAPS_OPDATA4", BIT(10), PMREGS_AMD_CPUID_8000001B_EAX_IBS_OP_DATA4_MASK},
		{"IBS_CAPS_ZEN4", BIT(11), PMREGS_AMD_CPUID_8000001B_EAX_IBS_L3_MISS_FILTERING_MASK},
		{"IBS_CAPS_OPLDLAT", BIT(12), PMREGS_AMD_CPUID_8000001B_EAX_OP_LD_LAT_MASK},
		{"IBS_CAPS_DIS", BIT(13), PMREGS_AMD_CPUID_8000001B_EAX_DIS_MASK},
		{"IBS_CAPS_FETCHLAT", BIT(14), PMREGS_AMD_CPUID_8000001B_EAX_FETCH_LAT_MASK},
		{"IBS_CAPS_BIT63_FILTER", BIT(15), PMREGS_AMD_CPUID_8000001B_EAX_BIT63_FILTER_MASK},
		{"IBS_CAPS_STRMST_RMTSOCKET", BIT(16), PMREGS_AMD_CPUID_8000001B_EAX_STRM_ST_RMT_SOCKET_MASK},
		{"IBS_CAPS_OPDTLBPGSIZE", BIT(19), PMREGS_AMD_CPUID_8000001B_EAX_OP_DTLB_PG_SIZE_MASK},
	};
	check_fields(f, sizeof f / sizeof f[0]);
	CHECK_EQ(pmregs_amd_cpuid_80000022_ebx_num_perf_ctr_core_get(0x00010846), 6);   /* 6 core, 16 LBR, 2 DF, 1 UMC */
	CHECK_EQ(pmregs_amd_cpuid_80000022_ebx_lbr_stack_size_get(0x00010846), 4);
}

static void ibs_vs_linux(void)
{
	/* LINUX amd-ibs.h unions and perf_event.h IBS_* masks, written out bit by bit */
	static const struct ref_field f[] = {
		{"IBS_FETCH_MAX_CNT", 0x0000FFFFULL, PMREGS_AMD_IBS_FETCH_CTL_MAX_CNT_MASK},
		{"IBS_FETCH_CNT", 0xFFFF0000ULL, PMREGS_AMD_IBS_FETCH_CTL_CNT_MASK},
		{"ibs_fetch_ctl.fetch_lat:16", GENMASK(47, 32), PMREGS_AMD_IBS_FETCH_CTL_LAT_MASK},
		{"IBS_FETCH_ENABLE", BIT(48), PMREGS_AMD_IBS_FETCH_CTL_EN_MASK},
		{"IBS_FETCH_VAL", BIT(49), PMREGS_AMD_IBS_FETCH_CTL_VAL_MASK},
		{"ibs_fetch_ctl.fetch_comp", BIT(50), PMREGS_AMD_IBS_FETCH_CTL_COMP_MASK},
		{"ibs_fetch_ctl.ic_miss", BIT(51), PMREGS_AMD_IBS_FETCH_CTL_IC_MISS_MASK},
		{"ibs_fetch_ctl.phy_addr_valid", BIT(52), PMREGS_AMD_IBS_FETCH_CTL_PHY_ADDR_VALID_MASK},
		{"ibs_fetch_ctl.l1tlb_pgsz:2", GENMASK(54, 53), PMREGS_AMD_IBS_FETCH_CTL_L1_TLB_PG_SZ_MASK},
		{"ibs_fetch_ctl.l1tlb_miss", BIT(55), PMREGS_AMD_IBS_FETCH_CTL_L1_TLB_MISS_MASK},
		{"ibs_fetch_ctl.l2tlb_miss", BIT(56), PMREGS_AMD_IBS_FETCH_CTL_L2_TLB_MISS_MASK},
		{"IBS_FETCH_RAND_EN", BIT(57), PMREGS_AMD_IBS_FETCH_CTL_RAND_EN_MASK},
		{"ibs_fetch_ctl.fetch_l2_miss", BIT(58), PMREGS_AMD_IBS_FETCH_CTL_L2_MISS_MASK},
		{"IBS_FETCH_L3MISSONLY", BIT(59), PMREGS_AMD_IBS_FETCH_CTL_L3_MISS_ONLY_MASK},
		{"ibs_fetch_ctl.fetch_oc_miss", BIT(60), PMREGS_AMD_IBS_FETCH_CTL_OC_MISS_MASK},
		{"ibs_fetch_ctl.fetch_l3_miss", BIT(61), PMREGS_AMD_IBS_FETCH_CTL_L3_MISS_MASK},
		{"IBS_OP_MAX_CNT | opmaxcnt_ext:7", 0x0000FFFFULL | GENMASK(26, 20), PMREGS_AMD_IBS_OP_CTL_MAX_CNT_MASK},
		{"IBS_OP_L3MISSONLY", BIT(16), PMREGS_AMD_IBS_OP_CTL_L3_MISS_ONLY_MASK},
		{"IBS_OP_ENABLE", BIT(17), PMREGS_AMD_IBS_OP_CTL_EN_MASK},
		{"IBS_OP_VAL", BIT(18), PMREGS_AMD_IBS_OP_CTL_VAL_MASK},
		{"IBS_OP_CNT_CTL", BIT(19), PMREGS_AMD_IBS_OP_CTL_CNT_CTL_MASK},
		{"ibs_op_ctl.opcurcnt:27", GENMASK(58, 32), PMREGS_AMD_IBS_OP_CTL_CUR_CNT_MASK},
		{"ibs_op_ctl.ldlat_thrsh:4", GENMASK(62, 59), PMREGS_AMD_IBS_OP_CTL_LDLAT_THRSH_MASK},
		{"ibs_op_ctl.ldlat_en", BIT(63), PMREGS_AMD_IBS_OP_CTL_LDLAT_EN_MASK},
		{"ibs_op_data.comp_to_ret_ctr:16", GENMASK(15, 0), PMREGS_AMD_IBS_OP_DATA_COMP_TO_RET_CTR_MASK},
		{"ibs_op_data.tag_to_ret_ctr:16", GENMASK(31, 16), PMREGS_AMD_IBS_OP_DATA_TAG_TO_RET_CTR_MASK},
		{"ibs_op_data.op_return", BIT(34), PMREGS_AMD_IBS_OP_DATA_OP_RETURN_MASK},
		{"ibs_op_data.op_brn_taken", BIT(35), PMREGS_AMD_IBS_OP_DATA_BRN_TAKEN_MASK},
		{"ibs_op_data.op_brn_misp", BIT(36), PMREGS_AMD_IBS_OP_DATA_BRN_MISP_MASK},
		{"ibs_op_data.op_brn_ret", BIT(37), PMREGS_AMD_IBS_OP_DATA_BRN_RET_MASK},
		{"ibs_op_data.op_rip_invalid", BIT(38), PMREGS_AMD_IBS_OP_DATA_RIP_INVALID_MASK},
		{"ibs_op_data.op_brn_fuse", BIT(39), PMREGS_AMD_IBS_OP_DATA_BRN_FUSE_MASK},
		{"ibs_op_data.op_microcode", BIT(40), PMREGS_AMD_IBS_OP_DATA_MICROCODE_MASK},
		{"ibs_op_data2.data_src_lo:3 | data_src_hi:2", GENMASK(2, 0) | GENMASK(7, 6),
		 PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_MASK},
		{"ibs_op_data2.rmt_node", BIT(4), PMREGS_AMD_IBS_OP_DATA2_ZEN4_RMT_NODE_MASK},
		{"ibs_op_data2.cache_hit_st", BIT(5), PMREGS_AMD_IBS_OP_DATA2_CACHE_HIT_ST_MASK},
		{"ibs_op_data2.strm_st", BIT(8), PMREGS_AMD_IBS_OP_DATA2_ZEN4_STRM_ST_MASK},
		{"ibs_op_data2.rmt_socket", BIT(9), PMREGS_AMD_IBS_OP_DATA2_ZEN4_RMT_SOCKET_MASK},
		{"ibs_op_data3.ld_op", BIT(0), PMREGS_AMD_IBS_OP_DATA3_LD_OP_MASK},
		{"ibs_op_data3.st_op", BIT(1), PMREGS_AMD_IBS_OP_DATA3_ST_OP_MASK},
		{"ibs_op_data3.dc_l1tlb_miss", BIT(2), PMREGS_AMD_IBS_OP_DATA3_DC_L1TLB_MISS_MASK},
		{"ibs_op_data3.dc_l2tlb_miss", BIT(3), PMREGS_AMD_IBS_OP_DATA3_DC_L2TLB_MISS_MASK},
		{"ibs_op_data3.dc_l1tlb_hit_2m", BIT(4), PMREGS_AMD_IBS_OP_DATA3_DC_L1TLB_HIT_2M_MASK},
		{"ibs_op_data3.dc_l1tlb_hit_1g", BIT(5), PMREGS_AMD_IBS_OP_DATA3_DC_L1TLB_HIT_1G_MASK},
		{"ibs_op_data3.dc_l2tlb_hit_2m", BIT(6), PMREGS_AMD_IBS_OP_DATA3_DC_L2TLB_HIT_2M_MASK},
		{"ibs_op_data3.dc_miss", BIT(7), PMREGS_AMD_IBS_OP_DATA3_DC_MISS_MASK},
		{"ibs_op_data3.dc_mis_acc", BIT(8), PMREGS_AMD_IBS_OP_DATA3_DC_MIS_ACC_MASK},
		{"ibs_op_data3.dc_wc_mem_acc", BIT(13), PMREGS_AMD_IBS_OP_DATA3_DC_WC_MEM_ACC_MASK},
		{"ibs_op_data3.dc_uc_mem_acc", BIT(14), PMREGS_AMD_IBS_OP_DATA3_DC_UC_MEM_ACC_MASK},
		{"ibs_op_data3.dc_locked_op", BIT(15), PMREGS_AMD_IBS_OP_DATA3_DC_LOCKED_OP_MASK},
		{"ibs_op_data3.dc_miss_no_mab_alloc", BIT(16), PMREGS_AMD_IBS_OP_DATA3_DC_MISS_NO_MAB_ALLOC_MASK},
		{"ibs_op_data3.dc_lin_addr_valid", BIT(17), PMREGS_AMD_IBS_OP_DATA3_DC_LIN_ADDR_VALID_MASK},
		{"ibs_op_data3.dc_phy_addr_valid", BIT(18), PMREGS_AMD_IBS_OP_DATA3_DC_PHY_ADDR_VALID_MASK},
		{"ibs_op_data3.dc_l2_tlb_hit_1g", BIT(19), PMREGS_AMD_IBS_OP_DATA3_DC_L2TLB_HIT_1G_MASK},
		{"ibs_op_data3.l2_miss", BIT(20), PMREGS_AMD_IBS_OP_DATA3_L2_MISS_MASK},
		{"ibs_op_data3.sw_pf", BIT(21), PMREGS_AMD_IBS_OP_DATA3_SW_PF_MASK},
		{"ibs_op_data3.op_mem_width:4", GENMASK(25, 22), PMREGS_AMD_IBS_OP_DATA3_OP_MEM_WIDTH_MASK},
		{"ibs_op_data3.op_dc_miss_open_mem_reqs:6", GENMASK(31, 26),
		 PMREGS_AMD_IBS_OP_DATA3_OP_DC_MISS_OPEN_MEM_REQS_MASK},
		{"ibs_op_data3.dc_miss_lat:16", GENMASK(47, 32), PMREGS_AMD_IBS_OP_DATA3_DC_MISS_LAT_MASK},
		{"ibs_op_data3.tlb_refill_lat:16", GENMASK(63, 48), PMREGS_AMD_IBS_OP_DATA3_TLB_REFILL_LAT_MASK},
		{"ibs_op_data3.dc_l1tlb_pg_size:2 (Zen5)", GENMASK(5, 4), PMREGS_AMD_IBS_OP_DATA3_ZEN5_DC_L1TLB_PG_SIZE_MASK},
		{"IBSCTL_LVT_OFFSET_MASK", 0x0F, PMREGS_AMD_IBS_CTL_LVT_OFFSET_MASK},
		{"IBSCTL_LVT_OFFSET_VALID", BIT(8), PMREGS_AMD_IBS_CTL_LVT_OFFSET_VAL_MASK},
	};
	check_fields(f, sizeof f / sizeof f[0]);
	/* LINUX IBS_DATA_SRC_* (3-bit) and IBS_DATA_SRC_EXT_* (5-bit) */
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_DATA_SRC_LOCAL_CACHE, 2);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_DATA_SRC_DRAM, 3);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_DATA_SRC_REMOTE_CACHE, 4);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_DATA_SRC_IO, 7);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_LOCAL_CACHE, 1);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_NEAR_CCX_CACHE, 2);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_FAR_CCX_CACHE, 5);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_LONG_LAT_DRAM, 6);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_EXT_MEM, 8);
	CHECK_EQ(PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_PEER_AGENT_MEM, 12);
	/* a 5-bit DataSrc of 8 (extension memory) is 0b01000: DataSrc[4:3] = 01 in bits 7:6, [2:0] = 000 */
	CHECK_EQ(pmregs_amd_ibs_op_data2_zen4_data_src_get(0x40), 8);
	CHECK_EQ(pmregs_amd_ibs_op_data2_zen4_data_src_get(0x43), 11);
	/* IBSTK: bits 32/33 exist on family 10h-15h BD only; Zen reserves them (and 12:9 of OpData3) */
	CHECK(!pmregs_amd_ibs_op_data_valid(BIT(32)));
	CHECK(pmregs_amd_ibs_op_data_f10h_valid(BIT(32) | BIT(33)));
	CHECK(!pmregs_amd_ibs_op_data3_valid(BIT(9)));
	CHECK(pmregs_amd_ibs_op_data3_f10h_valid(GENMASK(12, 9) | BIT(16)));
	/* D8: APM2's "4K coalesced" for L1TlbPgSz 3 is kept as a name; Linux perf prints it reserved */
	CHECK_EQ(PMREGS_AMD_IBS_FETCH_CTL_L1_TLB_PG_SZ_PG_4K_COALESCED, 3);
	/* D11: IbsOpCtl 63:59 are MBZ in APM2; the Zen5 load-latency filter (CPUID bit 12) uses them */
	CHECK(pmregs_amd_ibs_op_ctl_valid(GENMASK(63, 59)));
	/* D6: the LBR stack IP is 56:0 (APM2 Fig 13-7), not Linux's 57:0 */
	CHECK_EQ(PMREGS_AMD_LBR_FROM_IP_MASK, GENMASK(56, 0));
	CHECK(!pmregs_amd_lbr_from_valid(BIT(57)));
	CHECK_EQ(PMREGS_AMD_LBR_TO_SPEC_MASK, BIT(62));
	CHECK_EQ(PMREGS_AMD_LBR_TO_VALID_MASK, BIT(63));
}

static void ibs_rules(void)
{
	uint64_t ctl;
	/* APM2 13.3.2: period = MaxCnt[26:20] << 20 | MaxCnt[19:4] << 4 */
	ctl = pmregs_amd_ibs_op_set_period(0, 0x1000000);
	CHECK_EQ(ctl, BIT(24));                          /* MaxCnt bit 20 -> IbsOpCtl bit 24 */
	CHECK_EQ(pmregs_amd_ibs_op_period(ctl), 0x1000000);
	ctl = pmregs_amd_ibs_op_set_period(0, 0x7FFFFF0);
	CHECK_EQ(ctl, GENMASK(26, 20) | 0xFFFF);
	CHECK_EQ(pmregs_amd_ibs_op_period(ctl), 0x7FFFFF0);
	CHECK_EQ(pmregs_amd_ibs_op_period(0x1234 | BIT(17)), 0x12340);
	/* LINUX ibs.c: multiples of 16 from 0x10, up to 0xFFFF0 or 0x7FFFFF0 with OpCntExt */
	CHECK(pmregs_amd_ibs_op_period_ok(0x10, 0));
	CHECK(pmregs_amd_ibs_op_period_ok(0xFFFF0, 0));
	CHECK(!pmregs_amd_ibs_op_period_ok(0x100000, 0));
	CHECK(pmregs_amd_ibs_op_period_ok(0x100000, 1));
	CHECK(!pmregs_amd_ibs_op_period_ok(0x8000000, 1));
	CHECK(!pmregs_amd_ibs_op_period_ok(0x18, 1));
	CHECK(!pmregs_amd_ibs_op_period_ok(0, 1));
	CHECK_EQ(pmregs_amd_ibs_fetch_period(0x1000), 0x10000);
	/* LINUX ibs.c: ldlat 128..2048 -> IbsOpCtl[62:59] = ldlat/128 - 1, bit 63 */
	CHECK_EQ(pmregs_amd_ibs_op_ldlat_cycles(BIT(63)), 128);
	CHECK_EQ(pmregs_amd_ibs_op_ldlat_cycles(BIT(63) | GENMASK(62, 59)), 2048);
	CHECK_EQ(pmregs_amd_ibs_op_ldlat_cycles(GENMASK(62, 59)), 0);
}

static void perf_configs(void)
{
	/* LINUX amd/core.c: only AMD64_RAW_EVENT_MASK reaches the MSR; USR/OS/INT/EN are the kernel's */
	uint64_t v = UINT64_C(0x1000000D0) | PMREGS_AMD_PERF_CTL_UMASK(0x3) | PMREGS_AMD_PERF_CTL_CNT_MASK(2) |
		     PMREGS_AMD_PERF_CTL_INV(1) | PMREGS_AMD_PERF_CTL_EDGE(1);
	CHECK_EQ(pmregs_amd_perf_raw_config(v), v);
	CHECK_EQ(pmregs_amd_perf_raw_refused(v), 0);
	CHECK_EQ(pmregs_amd_perf_raw_config(0x530076), 0x76);
	CHECK_EQ(pmregs_amd_perf_raw_refused(0x530076), 0x530000);
	CHECK(!pmregs_amd_perf_exclude_user(0x530076) && !pmregs_amd_perf_exclude_kernel(0x530076));
	CHECK(pmregs_amd_perf_exclude_user(0x520076) && !pmregs_amd_perf_exclude_kernel(0x520076));
	/* Table 13-4: GO alone = guest only (exclude_host), HO alone = host only (exclude_guest), both = both */
	CHECK(pmregs_amd_perf_exclude_host(BIT(40)) && !pmregs_amd_perf_exclude_guest(BIT(40)));
	CHECK(pmregs_amd_perf_exclude_guest(BIT(41)) && !pmregs_amd_perf_exclude_host(BIT(41)));
	CHECK(!pmregs_amd_perf_exclude_guest(BIT(40) | BIT(41)) && !pmregs_amd_perf_exclude_host(BIT(40) | BIT(41)));
	CHECK_EQ(pmregs_amd_perf_raw_refused(BIT(40) | BIT(43) | BIT(19)), BIT(40) | BIT(43) | BIT(19));
	/* LINUX ibs.c: ibs_op takes MaxCnt, L3MissOnly 16, CntCtl 19 in config; ldlat in config1 */
	v = pmregs_amd_ibs_op_set_period(0, 0x1000000) | PMREGS_AMD_IBS_OP_CTL_CNT_CTL(1) | PMREGS_AMD_IBS_OP_CTL_EN(1);
	CHECK_EQ(pmregs_amd_ibs_op_perf_config(v), BIT(24) | BIT(19));
	CHECK_EQ(pmregs_amd_ibs_op_perf_refused(v), BIT(17));
	v = BIT(63) | PMREGS_AMD_IBS_OP_CTL_LDLAT_THRSH(3);
	CHECK_EQ(pmregs_amd_ibs_op_perf_config1(v), 512);
	CHECK_EQ(pmregs_amd_ibs_op_perf_refused(v), 0);
	CHECK_EQ(pmregs_amd_ibs_op_perf_refused(BIT(18) | BIT(40)), BIT(18) | BIT(40));
	CHECK_EQ(PMREGS_AMD_IBS_OP_PERF_MASK, 0xFFFFULL | BIT(16) | BIT(19) | GENMASK(26, 20));
	/* ibs_fetch: MaxCnt, RandEn 57 (rand_en=config:57), L3MissOnly 59 (l3missonly=config:59) */
	v = 0x1000 | BIT(57) | BIT(48);
	CHECK_EQ(pmregs_amd_ibs_fetch_perf_config(v), 0x1000 | BIT(57));
	CHECK_EQ(pmregs_amd_ibs_fetch_perf_refused(v), BIT(48));
	CHECK_EQ(PMREGS_AMD_IBS_FETCH_PERF_MASK, 0xFFFFULL | BIT(57) | BIT(59));
	/*
	 * The config1 filters of Linux tip perf/core (Feb 2026): 35247fa60b74 fetchlat=config1:0-10, 128..1920,
	 * IbsFetchCtl2 |= (fetchlat >> 7) << 1 (IBS_FETCH_2_FETCHLAT_FILTER_SHIFT), samples with
	 * IbsFetchCtl.FetchLat < fetchlat dropped by the driver; 57218e4794f8 strmst=config1:12 -> IbsOpCtl2 bit 3.
	 */
	CHECK_EQ(pmregs_amd_ibs_fetch_ctl2_for_perf(128), 0x2);
	CHECK_EQ(pmregs_amd_ibs_fetch_ctl2_for_perf(1920), 0x1E);
	CHECK_EQ(pmregs_amd_ibs_fetch_ctl2_for_perf(300), 0x4);          /* the hardware threshold is 256 */
	CHECK(pmregs_amd_ibs_fetch_perf_fetchlat_ok(0) && pmregs_amd_ibs_fetch_perf_fetchlat_ok(128));
	CHECK(pmregs_amd_ibs_fetch_perf_fetchlat_ok(1920) && pmregs_amd_ibs_fetch_perf_fetchlat_ok(300));
	CHECK(!pmregs_amd_ibs_fetch_perf_fetchlat_ok(127) && !pmregs_amd_ibs_fetch_perf_fetchlat_ok(1921));
	CHECK(pmregs_amd_ibs_fetch_perf_fetchlat_ok(BIT(11)));           /* only config1 bits 10:0 are fetchlat */
	CHECK(!pmregs_amd_ibs_fetch_lat_sample_kept(PMREGS_AMD_IBS_FETCH_CTL_LAT(299), 300));
	CHECK(pmregs_amd_ibs_fetch_lat_sample_kept(PMREGS_AMD_IBS_FETCH_CTL_LAT(300), 300));
	CHECK(pmregs_amd_ibs_fetch_lat_sample_kept(PMREGS_AMD_IBS_FETCH_CTL_LAT(5), 0));
	CHECK_EQ(pmregs_amd_ibs_fetch_lat_cycles(0x1E), 1920);
	CHECK_EQ(pmregs_amd_ibs_fetch_perf_config1(pmregs_amd_ibs_fetch_ctl2_for_perf(384)), 384);
	CHECK_EQ(pmregs_amd_ibs_fetch_perf_config1(0), 0);
	CHECK_EQ(pmregs_amd_ibs_fetch_ctl2_perf_refused(0x1E), 0);
	CHECK_EQ(pmregs_amd_ibs_fetch_ctl2_perf_refused(BIT(0) | BIT(5) | BIT(6) | 0x4), BIT(0) | BIT(5) | BIT(6));
	CHECK_EQ(pmregs_amd_ibs_op_ctl2_for_perf(BIT(12)), BIT(3));
	CHECK_EQ(pmregs_amd_ibs_op_ctl2_for_perf(0xFFF), 0);             /* ldlat bits stay in IbsOpCtl */
	CHECK_EQ(pmregs_amd_ibs_op_ctl2_perf_config1(BIT(3)), BIT(12));
	CHECK_EQ(pmregs_amd_ibs_op_ctl2_perf_config1(BIT(0) | BIT(1) | BIT(2)), 0);
	CHECK_EQ(pmregs_amd_ibs_op_ctl2_perf_refused(BIT(3) | BIT(0)), BIT(0));
	/* ldlat 512 and strmst together: config1 = 512 | 1 << 12 */
	CHECK_EQ(pmregs_amd_ibs_op_perf_config1(BIT(63) | PMREGS_AMD_IBS_OP_CTL_LDLAT_THRSH(3)) |
			 pmregs_amd_ibs_op_ctl2_perf_config1(pmregs_amd_ibs_op_ctl2_for_perf(BIT(12))),
		 512 | BIT(12));
}

static void layouts_by_generation(void)
{
	char buf[512];
	/* IBSTK ibs-msr-index.h, "Family 10h only": IBS_OP_MAX_CNT_OLD 0xFFFF, IBS_OP_CUR_CNT_OLD 0xFFFFF << 32 */
	CHECK_EQ(PMREGS_AMD_IBS_OP_CTL_F10H_MAX_CNT_MASK, 0xFFFF);
	CHECK_EQ(PMREGS_AMD_IBS_OP_CTL_F10H_CUR_CNT_MASK, UINT64_C(0xFFFFF) << 32);
	CHECK_EQ(PMREGS_AMD_IBS_OP_CTL_F10H_RSVD_MASK, GENMASK(63, 52) | GENMASK(31, 20) | BIT(16));
	CHECK_EQ(PMREGS_AMD_MSR_IBS_OP_CTL_F10H, PMREGS_AMD_MSR_IBS_OP_CTL);
	CHECK(pmregs_amd_ibs_op_ctl_f10h_valid(UINT64_C(0xFFFFF) << 32 | BIT(17) | 0xFFFF));
	CHECK(!pmregs_amd_ibs_op_ctl_f10h_valid(BIT(52)));                /* the later parts' CurCnt[20] */
	CHECK(!pmregs_amd_ibs_op_ctl_f10h_valid(BIT(20)));                /* the later parts' MaxCnt[20] */
	CHECK_EQ(pmregs_amd_ibs_op_ctl_f10h_cur_cnt_get(UINT64_C(0x7FFFFFF) << 32), 0xFFFFF);
	CHECK_EQ(pmregs_amd_ibs_op_ctl_cur_cnt_get(UINT64_C(0x7FFFFFF) << 32), 0x7FFFFFF);
	/* APM2 Fig 13-4: BLCKDB at 2 on current parts, PB0-PB3 at 2-5 on older ones; FLBRI 11, FPMCI 12 */
	CHECK_EQ(PMREGS_AMD_DEBUGCTL_BLCKDB_MASK, BIT(2));
	CHECK(!pmregs_amd_debugctl_valid(BIT(3)));
	CHECK(pmregs_amd_debugctl_pb_valid(GENMASK(5, 2)));
	CHECK_EQ(pmregs_amd_debugctl_pb_pb_get(BIT(4), 2), 1);
	CHECK(!pmregs_amd_debugctl_valid(BIT(7)));       /* Intel's BTS position */
	CHECK_EQ(PMREGS_AMD_DEBUGCTL_WRITABLE_MASK, BIT(0) | BIT(1) | BIT(2) | BIT(11) | BIT(12));
	/* APM2 Fig 13-9: LBR_SELECT 8:0; Linux writes its wanted mask XOR 0x1FF */
	CHECK_EQ(PMREGS_AMD_LBR_SELECT_WRITABLE_MASK, 0x1FF);
	/* Linux brs.c: bits 4:3 must be written as 11b */
	CHECK_EQ(PMREGS_AMD_DBG_EXTN_CFG_BRS_RES1_MASK, 0x18);
	/* L3: family 17h SliceMask 51:48, ThreadMask 63:56; 19h+ ThreadMask 57:56 (D14: PFM4 59:56) */
	CHECK(pmregs_amd_l3_pmc_cfg_f17h_valid(GENMASK(63, 56) | GENMASK(51, 48)));
	CHECK(!pmregs_amd_l3_pmc_cfg_valid(BIT(58)));
	CHECK(!pmregs_amd_l3_pmc_cfg_valid(BIT(20)));   /* D15: libpfm4's L3 encoding sets INT (20); reserved */
	/* DF: 14-bit event in three parts before PerfMonV2, in two with it (D18: 37:32, not 38:32) */
	CHECK_EQ(pmregs_amd_df_perf_ctl_event_select_get(BIT(59) | BIT(32) | 0x07), 0x1107);
	CHECK_EQ(pmregs_amd_df_perf_ctl_v2_event_select_get(BIT(37) | 0x07), 0x2007);
	CHECK(!pmregs_amd_df_perf_ctl_v2_valid(BIT(38)));
	CHECK_EQ(pmregs_amd_df_perf_ctl_v2_umask_get(GENMASK(27, 24)), 0xF00);
	/* printer: the split event shows as one value */
	pmregs_amd_perf_ctl_snprint(buf, sizeof buf, UINT64_C(0x1004300D0));
	CHECK(strncmp(buf, "event_select=0x1d0 umask=0x0 usr=1 os=1 edge=0 int_en=0 en=1", 60) == 0);
	pmregs_amd_perf_ctl_snprint(buf, sizeof buf, BIT(19));
	CHECK(strstr(buf, "!rsvd_19=1") != 0);
}

/* The names of the registers a sample holds for caps value `caps`, joined by spaces. */
static void sample_names(const char *sample, uint32_t caps, char *out, size_t n)
{
	size_t ns, nr, i, k, at = 0;
	const struct pmregs_sample_desc *s = pmregs_amd_samples(&ns);
	const struct pmregs_register_desc *r = pmregs_amd_register_descs(&nr);
	int16_t order[16];
	out[0] = 0;
	for (i = 0; i < ns; i++) {
		size_t j;
		if (strcmp(s[i].name, sample) != 0)
			continue;
		k = pmregs_sample_registers(&s[i], caps, order, 16);
		for (j = 0; j < k && j < 16; j++)
			at += (size_t)snprintf(out + at, n - at, "%s%s", j ? " " : "", r[order[j]].name);
	}
}

/* LINUX events/amd/ibs.c perf_ibs_handle_irq: the raw sample is the caps word, then IbsFetchCtl, LinAd, PhysAd and,
 * with IBS_CAPS_FETCHCTLEXTD (bit 9), IC_IBS_EXTD_CTL; or IbsOpCtl, Rip, Data, Data2, Data3, DcLinAd, DcPhysAd and,
 * with IBS_CAPS_BRNTRGT (bit 5), IbsBrTarget, with IBS_CAPS_OPDATA4 (bit 10), IbsOpData4. */
static void ibs_samples(void)
{
	char got[512];
	size_t ns;
	const struct pmregs_sample_desc *s = pmregs_amd_samples(&ns);
	CHECK_EQ(ns, 2);
	CHECK(pmregs_amd_family()->samples == pmregs_amd_samples);
	sample_names("ibs_fetch", 0, got, sizeof got);
	CHECK(strcmp(got, "ibs_fetch_ctl ibs_fetch_lin_ad ibs_fetch_phys_ad") == 0);
	sample_names("ibs_fetch", 1u << 9, got, sizeof got);
	CHECK(strcmp(got, "ibs_fetch_ctl ibs_fetch_lin_ad ibs_fetch_phys_ad ic_ibs_extd_ctl") == 0);
	sample_names("ibs_op", 0, got, sizeof got);
	CHECK(strcmp(got, "ibs_op_ctl ibs_op_rip ibs_op_data ibs_op_data2 ibs_op_data3 ibs_dc_lin_ad ibs_dc_phys_ad") == 0);
	sample_names("ibs_op", 1u << 5, got, sizeof got);
	CHECK(strcmp(got, "ibs_op_ctl ibs_op_rip ibs_op_data ibs_op_data2 ibs_op_data3 ibs_dc_lin_ad ibs_dc_phys_ad ibs_br_target") == 0);
	sample_names("ibs_op", 1u << 10, got, sizeof got);
	CHECK(strcmp(got, "ibs_op_ctl ibs_op_rip ibs_op_data ibs_op_data2 ibs_op_data3 ibs_dc_lin_ad ibs_dc_phys_ad ibs_op_data4") == 0);
	/* IBS_CAPS_ZEN4 (bit 11) selects the Zen4 IbsOpData2 (data source), bit 19 the Zen5 IbsOpData3 */
	sample_names("ibs_op", (1u << 5) | (1u << 10) | (1u << 11) | (1u << 19), got, sizeof got);
	CHECK(strcmp(got, "ibs_op_ctl ibs_op_rip ibs_op_data ibs_op_data2_zen4 ibs_op_data3_zen5 ibs_dc_lin_ad"
			  " ibs_dc_phys_ad ibs_br_target ibs_op_data4") == 0);
	/* the count is whole even when out[] is short */
	{
		int16_t one[1];
		CHECK_EQ(pmregs_sample_registers(&s[1], (1u << 5) | (1u << 10), one, 1), 9);
	}
}

int main(void)
{
	msr_addresses();
	perf_ctl_vs_linux();
	perf_ctl_vectors();
	generic_events();
	counters_and_rdpmc();
	cpuid_bits();
	ibs_vs_linux();
	ibs_rules();
	perf_configs();
	layouts_by_generation();
	ibs_samples();
	return check_done("test_amd");
}
