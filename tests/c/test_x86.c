/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * x86 golden vectors and semantics, each with the document its numbers come from.
 *
 * SDM3  = Intel 64 and IA-32 SDM Vol. 3A/3B/3C (2016 edition, order 325384)
 * SEED4 = SDM Vol. 3B 17.4.6-17.4.7 (CPL-qualified BTS; freezing LBR/counters on PMI)
 * PFM   = values printed by libpfm4 4.13 (ix86arch PMU), quoted in the x86 reference notes
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/x86_tools.h>
#include "../common/check.h"

static void msr_addresses(void)
{
	/* SDM3 Table 35-2 (architectural MSRs) and 17.4.1 */
	CHECK_EQ(PMREGS_X86_MSR_IA32_DEBUGCTL, 0x1D9);
	CHECK_EQ(PMREGS_X86_MSR_DEBUGCTLMSR, 0x1D9);  /* P6, SDM3 17.14 */
	CHECK_EQ(PMREGS_X86_MSR_DEBUGCTLB, 0x1D9);    /* Pentium M, SDM3 17.13 */
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC0, 0xC1);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC7, 0xC8);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC(3), 0xC4);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERFEVTSEL0, 0x186);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERFEVTSEL(7), 0x18D);
	CHECK_EQ(PMREGS_X86_MSR_IA32_A_PMC0, 0x4C1);
	CHECK_EQ(PMREGS_X86_MSR_IA32_FIXED_CTR0, 0x309);
	CHECK_EQ(PMREGS_X86_MSR_IA32_FIXED_CTR2, 0x30B);
	CHECK_EQ(PMREGS_X86_MSR_IA32_FIXED_CTR(3), 0x30C);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_CAPABILITIES, 0x345);
	CHECK_EQ(PMREGS_X86_MSR_IA32_FIXED_CTR_CTRL, 0x38D);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_GLOBAL_STATUS, 0x38E);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_GLOBAL_CTRL, 0x38F);
	/* one MSR, two names: OVF_CTRL up to version 3, STATUS_RESET from version 4 */
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0x390);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_GLOBAL_STATUS_RESET, 0x390);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_GLOBAL_STATUS_SET, 0x391);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PERF_GLOBAL_INUSE, 0x392);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PEBS_ENABLE, 0x3F1);
	CHECK_EQ(PMREGS_X86_MSR_IA32_DS_AREA, 0x600);
	CHECK_EQ(PMREGS_X86_MSR_IA32_MISC_ENABLE, 0x1A0);
	CHECK_EQ(PMREGS_X86_MSR_P6_PERFEVTSEL1, 0x187); /* SDM3 18.22 */
	CHECK_EQ(PMREGS_X86_MSR_P6_PERFCTR1, 0xC2);
	CHECK_EQ(PMREGS_X86_MSR_RELOAD_PMC0, 0x14C1);      /* Linux msr-index.h */
	CHECK_EQ(PMREGS_X86_MSR_RELOAD_FIXED_CTR0, 0x1309);
}

static void debugctl_bits(void)
{
	/* SDM3 Fig 17-3 / Table 35-2; SEED4: BTS_OFF_OS 9, BTS_OFF_USR 10, freeze bits 11 and 12 */
	CHECK_EQ(PMREGS_X86_DEBUGCTL_LBR_MASK, 1u << 0);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_BTF_MASK, 1u << 1);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_TR_MASK, 1u << 6);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_BTS_MASK, 1u << 7);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_BTINT_MASK, 1u << 8);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_BTS_OFF_OS_MASK, 1u << 9);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_BTS_OFF_USR_MASK, 1u << 10);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_FREEZE_LBRS_ON_PMI_MASK, 1u << 11);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI_MASK, 1u << 12);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_ENABLE_UNCORE_PMI_MASK, 1u << 13);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_FREEZE_WHILE_SMM_MASK, 1u << 14);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_RTM_DEBUG_MASK, 1u << 15);
	/* Disagreement pinned: SDM3 (2016) reserves 5:2, Linux defines bit 2 (bus-lock #DB).
	 * We define bit 2, so only 5:3 and 63:16 are must-be-zero. */
	CHECK_EQ(PMREGS_X86_DEBUGCTL_BUS_LOCK_DETECT_MASK, 1u << 2);
	CHECK_EQ(PMREGS_X86_DEBUGCTL_RSVD_MASK, 0xFFFFFFFFFFFF0038u);
	CHECK(!pmregs_x86_debugctl_valid(1u << 3));
	CHECK(pmregs_x86_debugctl_valid(1u << 2));

	/* Pre-architectural layouts at 1D9H (SDM3 Figs 17-18, 17-16, 17-14) */
	CHECK_EQ(PMREGS_X86_P6_DEBUGCTL_PB0_MASK, 1u << 2);
	CHECK_EQ(PMREGS_X86_P6_DEBUGCTL_PB3_MASK, 1u << 5);
	CHECK_EQ(PMREGS_X86_P6_DEBUGCTL_TR_MASK, 1u << 6);
	CHECK_EQ(PMREGS_X86_P6_DEBUGCTL_RSVD_MASK, ~(uint64_t)0x7F);
	CHECK_EQ(PMREGS_X86_DEBUGCTLB_BTS_MASK, 1u << 7);
	CHECK_EQ(PMREGS_X86_DEBUGCTLB_BTINT_MASK, 1u << 8);
	CHECK_EQ(PMREGS_X86_DEBUGCTLB_RSVD_MASK, ~(uint64_t)0x1FF);
	CHECK_EQ(PMREGS_X86_CORE_DEBUGCTL_RSVD_MASK, ~(uint64_t)0x1C3);
	CHECK_EQ(pmregs_x86_p6_debugctl_pb_get(1u << 4, 2), 1);
	CHECK_EQ(pmregs_x86_p6_debugctl_pb_set(0, 3, 1), 1u << 5);
}

static void perfevtsel_vectors(void)
{
	/* PFM: ix86arch::INSTRUCTION_RETIRED:u=1:k=0 = 0x005100C0 (libpfm sets EN and INT) */
	uint64_t v = PMREGS_X86_PERFEVTSEL_EVENT_SELECT(PMREGS_X86_ARCH_EVENTS_INSTRUCTION_RETIRED_EVENT_SELECT) |
		     PMREGS_X86_PERFEVTSEL_UMASK(PMREGS_X86_ARCH_EVENTS_INSTRUCTION_RETIRED_UMASK) |
		     PMREGS_X86_PERFEVTSEL_USR(1) | PMREGS_X86_PERFEVTSEL_INT_EN(1) | PMREGS_X86_PERFEVTSEL_EN(1);
	struct pmregs_x86_perfevtsel_fields f;
	CHECK_EQ(v, 0x005100C0);
	/* PFM: ix86arch::UNHALTED_CORE_CYCLES:c=2:i=1:e=1 = 0x02D7003C */
	memset(&f, 0, sizeof f);
	f.event_select = 0x3C;
	f.usr = f.os = 1;
	f.edge = 1;
	f.int_en = 1;
	f.en = 1;
	f.inv = 1;
	f.cmask = 2;
	CHECK_EQ(pmregs_x86_perfevtsel_pack(&f), 0x02D7003C);
	/* PFM: ix86arch::LLC_MISSES = 0x0053412E (u+k, EN, INT) */
	v = 0;
	v = pmregs_x86_perfevtsel_event_select_set(v, 0x2E);
	v = pmregs_x86_perfevtsel_umask_set(v, 0x41);
	v = pmregs_x86_perfevtsel_usr_set(v, 1);
	v = pmregs_x86_perfevtsel_os_set(v, 1);
	v = pmregs_x86_perfevtsel_int_en_set(v, 1);
	v = pmregs_x86_perfevtsel_en_set(v, 1);
	CHECK_EQ(v, 0x0053412E);
	/* SEED4: "enabling PMI is done by setting bit 20 of the IA32_PERFEVTSELx register" */
	CHECK_EQ(PMREGS_X86_PERFEVTSEL_INT_EN_SHIFT, 20);
	/* set_checked refuses a too-wide value and leaves the register alone */
	v = 0x1234;
	CHECK(pmregs_x86_perfevtsel_cmask_set_checked(&v, 0x100) == PMREGS_ERANGE && v == 0x1234);
	CHECK(pmregs_x86_perfevtsel_cmask_set_checked(&v, 0xFF) == PMREGS_OK && v == 0xFF001234u);
	/* P6 PerfEvtSel (SDM3 18.22): bit 21 reserved; EN only in PerfEvtSel0 */
	CHECK_EQ(PMREGS_X86_P6_PERFEVTSEL0_EN_MASK, 1u << 22);
	CHECK_EQ(PMREGS_X86_P6_PERFEVTSEL0_RSVD_MASK, 0xFFFFFFFF00200000u);
	CHECK_EQ(PMREGS_X86_P6_PERFEVTSEL1_RSVD_MASK, 0xFFFFFFFF00600000u);
	CHECK_EQ(PMREGS_X86_P6_PERFCTR_COUNT_WIDTH, 40);
}

static void fixed_and_global(void)
{
	/* SDM3 Fig 18-2: one nibble per fixed counter; SEED4: "setting the 3rd bit in the corresponding 4-bit
	 * control field" enables the PMI */
	uint64_t c = PMREGS_X86_FIXED_CTR_CTRL_EN1(PMREGS_X86_FIXED_CTR_CTRL_EN1_ALL) | PMREGS_X86_FIXED_CTR_CTRL_PMI1(1);
	CHECK_EQ(c, 0xB0);
	CHECK_EQ(PMREGS_X86_FIXED_CTR_CTRL_PMI2_MASK, 1u << 11);
	CHECK_EQ(pmregs_x86_fixed_ctr_ctrl_en_get(c, 1), 3);
	CHECK_EQ(pmregs_x86_fixed_ctr_ctrl_pmi_get(c, 1), 1);
	CHECK_EQ(PMREGS_X86_FIXED_CTR_CTRL_EN_SHIFT(2), 8);
	CHECK_EQ(PMREGS_X86_FIXED_CTR_CTRL_ADAPTIVE_MASK(1), 1ull << 36); /* Linux: bit 32 + 4i */
	/* Global control: PMCn at bit n, fixed counter i at 32 + i (SDM3 Fig 18-3) */
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_CTRL_PMC_EN_MASK(5), 1u << 5);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_CTRL_FIXED2_EN_MASK, 1ull << 34);
	/* Global status (SDM3 Table 35-2): LBR_Frz 58, CTR_Frz 59, ASCI 60, Ovf_Uncore 61, OvfBuf 62, CondChgd 63 */
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_TRACE_TOPA_PMI_MASK, 1ull << 55);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_LBR_FRZ_MASK, 1ull << 58);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_CTR_FRZ_MASK, 1ull << 59);
	/* Disagreement pinned: SDM3's RESET/SET tables repeat "ASCI" at bit 58; the figures and the STATUS table
	 * put it at 60, which we follow. */
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_ASCI_MASK, 1ull << 60);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_RESET_ASCI_MASK, 1ull << 60);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_SET_ASCI_MASK, 1ull << 60);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_OVF_UNCORE_MASK, 1ull << 61);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_OVF_BUF_MASK, 1ull << 62);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_COND_CHGD_MASK, 1ull << 63);
	/* OVF_CTRL (version <= 3): 58-60 reserved; STATUS_SET: bit 63 reserved (SDM3 Table 35-2) */
	CHECK((PMREGS_X86_PERF_GLOBAL_OVF_CTRL_RSVD_MASK & (7ull << 58)) == (7ull << 58));
	CHECK((PMREGS_X86_PERF_GLOBAL_STATUS_SET_RSVD_MASK >> 63) == 1);
	CHECK((PMREGS_X86_PERF_GLOBAL_STATUS_RESET_RSVD_MASK >> 63) == 0);
	/* Disagreement pinned: the SDM text says PMI_InUse is bit 32; its table and figure say 63. */
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_INUSE_PMI_INUSE_MASK, 1ull << 63);
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_INUSE_FIXED0_INUSE_MASK, 1ull << 32);
	/* Disagreement pinned: Linux moved anythread_deprecated in PERF_CAPABILITIES from 17 to 18 and then
	 * dropped it; 17 is pebs_timing_info and 18 is reserved. */
	CHECK_EQ(PMREGS_X86_PERF_CAPABILITIES_PEBS_TIMING_INFO_MASK, 1u << 17);
	CHECK((PMREGS_X86_PERF_CAPABILITIES_RSVD_MASK >> 18) & 1);
	CHECK_EQ(PMREGS_X86_PERF_CAPABILITIES_LBR_FMT_EIP_FLAGS, 3);
	CHECK_EQ(PMREGS_X86_PERF_CAPABILITIES_FW_WRITE_MASK, 1u << 13);
}

static void cpuid_bits(void)
{
	/* SEED4: DS-CPL is CPUID.01H:ECX[bit 4]; SDM3 18.18: PDCM is CPUID.01H:ECX[15]; SDM2: DS is EDX[21] */
	CHECK_EQ(PMREGS_X86_CPUID_01_ECX_DS_CPL_MASK, 1u << 4);
	CHECK_EQ(PMREGS_X86_CPUID_01_ECX_PDCM_MASK, 1u << 15);
	CHECK_EQ(PMREGS_X86_CPUID_01_ECX_DTES64_MASK, 1u << 2);
	CHECK_EQ(PMREGS_X86_CPUID_01_EDX_DS_MASK, 1u << 21);
	/* CPUID.0AH:EAX of a part with version 4, 8 counters of 48 bits, 7-bit EBX vector (SDM2 leaf 0AH layout) */
	CHECK_EQ(pmregs_x86_cpuid_0a_eax_version_id_get(0x07300804u), 4);
	CHECK_EQ(pmregs_x86_cpuid_0a_eax_num_gp_counters_get(0x07300804u), 8);
	CHECK_EQ(pmregs_x86_cpuid_0a_eax_gp_counter_width_get(0x07300804u), 48);
	CHECK_EQ(pmregs_x86_cpuid_0a_eax_ebx_length_get(0x07300804u), 7);
	CHECK_EQ(pmregs_x86_cpuid_0a_edx_num_fixed_counters_get(0x603u), 3);
	CHECK_EQ(pmregs_x86_cpuid_0a_edx_fixed_counter_width_get(0x603u), 48);
}

static void arch_events(void)
{
	/* SDM3 Table 18-1 */
	static const struct { const char *name; unsigned ev, umask, bit; } want[] = {
		{"unhalted_core_cycles", 0x3C, 0x00, 0}, {"instruction_retired", 0xC0, 0x00, 1},
		{"unhalted_reference_cycles", 0x3C, 0x01, 2}, {"llc_reference", 0x2E, 0x4F, 3},
		{"llc_misses", 0x2E, 0x41, 4}, {"branch_instruction_retired", 0xC4, 0x00, 5},
		{"branch_misses_retired", 0xC5, 0x00, 6},
	};
	size_t n, i;
	const struct pmregs_x86_arch_events_row *rows = pmregs_x86_arch_events(&n);
	CHECK_EQ(n, 7);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct pmregs_x86_arch_events_row *r = pmregs_x86_arch_events_find(want[i].name);
		CHECK(r == &rows[i]);
		if (!r)
			continue;
		CHECK_EQ(r->event_select, want[i].ev);
		CHECK_EQ(r->umask, want[i].umask);
		CHECK_EQ(r->ebx_bit, want[i].bit);
	}
	CHECK(pmregs_x86_arch_events_find("no_such_event") == 0);
	CHECK_EQ(PMREGS_X86_ARCH_EVENTS_LLC_MISSES_UMASK, 0x41);
}

/*
 * Freeze-on-PMI, transcribed independently from SEED4 (SDM3 17.4.7):
 * legacy when 1 < version <= 3, streamlined when version >= 4.
 */
static void naive_pmi(unsigned version, uint64_t *dbg, uint64_t *ctrl, uint64_t *status)
{
	int legacy = version > 1 && version <= 3, streamlined = version >= 4;
	int frz_lbr = (int)((*dbg >> 11) & 1), frz_ctr = (int)((*dbg >> 12) & 1);
	if (legacy && frz_lbr)
		*dbg &= ~(uint64_t)1;          /* "the processor clears the LBR bit (bit 0)" */
	if (legacy && frz_ctr)
		*ctrl = 0;                     /* "the processor clears the IA32_PERF_GLOBAL_CTRL MSR" */
	if (streamlined && frz_lbr)
		*status |= (uint64_t)1 << 58;  /* "sets IA32_PERF_GLOBAL_STATUS.LBR_Frz" */
	if (streamlined && frz_ctr)
		*status |= (uint64_t)1 << 59;  /* "sets IA32_PERF_GLOBAL_STATUS.CTR_Frz" */
}

#define TEST_SEED 0x243F6A8885A308D3u
#include "../common/xorshift.h"

static void freeze_semantics(void)
{
	unsigned version;
	int k;
	CHECK(pmregs_x86_freeze_flavour_of(0) == PMREGS_X86_FREEZE_FLAVOUR_NONE);
	CHECK(pmregs_x86_freeze_flavour_of(1) == PMREGS_X86_FREEZE_FLAVOUR_NONE);
	CHECK(pmregs_x86_freeze_flavour_of(2) == PMREGS_X86_FREEZE_FLAVOUR_LEGACY);
	CHECK(pmregs_x86_freeze_flavour_of(3) == PMREGS_X86_FREEZE_FLAVOUR_LEGACY);
	CHECK(pmregs_x86_freeze_flavour_of(4) == PMREGS_X86_FREEZE_FLAVOUR_STREAMLINED);
	CHECK(pmregs_x86_freeze_flavour_of(255) == PMREGS_X86_FREEZE_FLAVOUR_STREAMLINED);
	for (version = 0; version < 256; version++) {
		for (k = 0; k < 64; k++) {
			uint64_t dbg = rnd(), ctrl = rnd(), status = rnd();
			uint64_t d2 = dbg, c2 = ctrl, s2 = status;
			if (k < 4) /* every freeze-bit combination, with LBR on */
				dbg = d2 = ((uint64_t)k << 11) | 1;
			naive_pmi(version, &d2, &c2, &s2);
			CHECK_EQ(pmregs_x86_pmi_debugctl((uint8_t)version, dbg), d2);
			CHECK_EQ(pmregs_x86_pmi_global_ctrl((uint8_t)version, dbg, ctrl), c2);
			CHECK_EQ(pmregs_x86_pmi_global_status((uint8_t)version, dbg, status), s2);
		}
	}
	/* Legacy: LBR stops because the bit is cleared; streamlined: because LBR_Frz is set */
	{
		uint64_t dbg = PMREGS_X86_DEBUGCTL_LBR(1) | PMREGS_X86_DEBUGCTL_FREEZE_LBRS_ON_PMI(1);
		CHECK(pmregs_x86_lbr_recording(dbg, 0));
		CHECK(!pmregs_x86_lbr_recording(pmregs_x86_pmi_debugctl(3, dbg), pmregs_x86_pmi_global_status(3, dbg, 0)));
		CHECK(pmregs_x86_pmi_debugctl(4, dbg) == dbg);
		CHECK(!pmregs_x86_lbr_recording(pmregs_x86_pmi_debugctl(4, dbg), pmregs_x86_pmi_global_status(4, dbg, 0)));
		CHECK(pmregs_x86_lbr_recording(pmregs_x86_pmi_debugctl(1, dbg), pmregs_x86_pmi_global_status(1, dbg, 0)));
	}
	/* counter_counting = EN and GLOBAL_CTRL[n] and not CTR_Frz (SDM3 18.2.2, SEED4) */
	for (k = 0; k < 100000; k++) {
		uint8_t n = (uint8_t)(rnd() % 40);
		uint64_t sel = rnd(), ctrl = rnd(), status = rnd();
		int want = n < 32 && ((sel >> 22) & 1) && ((ctrl >> n) & 1) && !((status >> 59) & 1);
		uint8_t i = (uint8_t)(rnd() % 6);
		uint64_t fixed = rnd();
		int want_fixed = i < 4 && ((fixed >> (4 * i)) & 3) != 0 && ((ctrl >> (32 + i)) & 1) && !((status >> 59) & 1);
		CHECK(pmregs_x86_counter_counting(n, sel, ctrl, status) == want);
		CHECK(pmregs_x86_fixed_counter_counting(i, fixed, ctrl, status) == want_fixed);
	}
	/* SDM3 Table 17-5 */
	CHECK(pmregs_x86_bts_mode_of(0) == PMREGS_X86_BTS_MODE_OFF);
	CHECK(pmregs_x86_bts_mode_of(PMREGS_X86_DEBUGCTL_BTS(1) | PMREGS_X86_DEBUGCTL_BTINT(1)) == PMREGS_X86_BTS_MODE_OFF);
	CHECK(pmregs_x86_bts_mode_of(PMREGS_X86_DEBUGCTL_TR(1)) == PMREGS_X86_BTS_MODE_BUS);
	CHECK(pmregs_x86_bts_mode_of(PMREGS_X86_DEBUGCTL_TR(1) | PMREGS_X86_DEBUGCTL_BTS(1)) == PMREGS_X86_BTS_MODE_CIRCULAR);
	CHECK(pmregs_x86_bts_mode_of(PMREGS_X86_DEBUGCTL_TR(1) | PMREGS_X86_DEBUGCTL_BTS(1) | PMREGS_X86_DEBUGCTL_BTINT(1)) ==
	      PMREGS_X86_BTS_MODE_INTERRUPT);
}

/*
 * Which events raise the freezing PMI, transcribed independently from SEED4 (SDM3 17.4.7): "A performance
 * counter had an overflow and was programmed to signal a PMI in case of an overflow. For the general-purpose
 * counters; enabling PMI is done by setting bit 20 of the IA32_PERFEVTSELx register. For the fixed-function
 * counters; enabling PMI is done by setting the 3rd bit in the corresponding 4-bit control field ... The PEBS
 * buffer is almost full and reaches the interrupt threshold."
 */
static int naive_pmi_raised(const uint64_t sel[8], uint64_t fixed, uint64_t status)
{
	int n, hit = 0;
	for (n = 0; n < 8; n++)
		if (((status >> n) & 1) && ((sel[n] >> 20) & 1))
			hit = 1;
	for (n = 0; n < 4; n++)
		if (((status >> (32 + n)) & 1) && ((fixed >> (4 * n + 3)) & 1))
			hit = 1;
	if ((status >> 62) & 1) /* OvfBuf: the DS (PEBS) buffer reached its threshold */
		hit = 1;
	if ((status >> 54) & 1) /* architectural PEBS threshold */
		hit = 1;
	return hit;
}

static void pmi_sources(void)
{
	uint64_t sel[8] = {0};
	int k;
	/* an overflow alone raises nothing; INT on the overflowed counter does */
	CHECK(!pmregs_x86_pmi_raised(sel, 0, 1u << 2));
	sel[2] = PMREGS_X86_PERFEVTSEL_INT_EN(1);
	CHECK(pmregs_x86_pmi_raised(sel, 0, 1u << 2));
	CHECK(!pmregs_x86_pmi_raised(sel, 0, 1u << 3));           /* INT on another counter */
	/* fixed counter 1: the 3rd bit of its nibble (PMI1 = bit 7) */
	CHECK(!pmregs_x86_pmi_raised(sel, PMREGS_X86_FIXED_CTR_CTRL_EN1(3), UINT64_C(1) << 33));
	CHECK(pmregs_x86_pmi_raised(sel, UINT64_C(1) << 7, UINT64_C(1) << 33));
	CHECK(!pmregs_x86_pmi_raised(sel, UINT64_C(1) << 7, UINT64_C(1) << 32));
	/* a PEBS buffer at its threshold, whatever the counters say */
	CHECK(pmregs_x86_pmi_raised(sel, 0, PMREGS_X86_PERF_GLOBAL_STATUS_OVF_BUF_MASK));
	CHECK(pmregs_x86_pmi_raised(sel, 0, PMREGS_X86_PERF_GLOBAL_STATUS_ARCH_PEBS_THRESHOLD_MASK));
	CHECK(!pmregs_x86_pmi_raised(sel, 0, PMREGS_X86_PERF_GLOBAL_STATUS_CTR_FRZ_MASK)); /* a freeze is no source */
	CHECK(pmregs_x86_ds_pebs_threshold_reached(0x1100, 0x1100));
	CHECK(!pmregs_x86_ds_pebs_threshold_reached(0x10C0, 0x1100));
	/* against the transcription, on random registers (a sparse status so that both answers occur) */
	for (k = 0; k < 200000; k++) {
		uint64_t fixed = rnd(), status = rnd() & rnd() & rnd();
		int i;
		for (i = 0; i < 8; i++)
			sel[i] = rnd();
		CHECK_EQ(pmregs_x86_pmi_raised(sel, fixed, status), naive_pmi_raised(sel, fixed, status));
	}
}

static void ds_records(void)
{
	/* SDM3 Fig 17-5 / 17-6 offsets; records are little-endian whatever the host */
	unsigned char area[PMREGS_X86_DS_AREA64_SIZE], rec[PMREGS_X86_BTS_RECORD64_SIZE];
	struct pmregs_x86_ds_area64 a;
	struct pmregs_x86_bts_record64 b;
	unsigned i;
	CHECK_EQ(PMREGS_X86_DS_AREA32_SIZE, 0x30);
	CHECK_EQ(PMREGS_X86_DS_AREA64_SIZE, 0x50);
	CHECK_EQ(PMREGS_X86_DS_AREA32_PEBS_COUNTER_RESET_OFFSET, 0x20);
	CHECK_EQ(PMREGS_X86_DS_AREA64_PEBS_COUNTER_RESET_OFFSET, 0x40);
	CHECK_EQ(PMREGS_X86_DS_AREA64_BTS_INTERRUPT_THRESHOLD_OFFSET, 0x18);
	CHECK_EQ(PMREGS_X86_DS_AREA32_PEBS_INDEX_OFFSET, 0x14);
	CHECK_EQ(PMREGS_X86_BTS_RECORD32_SIZE, 12);
	CHECK_EQ(PMREGS_X86_BTS_RECORD64_FLAGS_OFFSET, 0x10);
	CHECK_EQ(PMREGS_X86_PEBS_RECORD32_SIZE, 40);
	CHECK_EQ(PMREGS_X86_PEBS_RECORD64_SIZE, 144);
	CHECK_EQ(PMREGS_X86_PEBS_RECORD64_R15_OFFSET, 0x88);
	CHECK_EQ(PMREGS_X86_BTS_FLAGS64_PREDICTED_MASK, 1u << 4);
	for (i = 0; i < sizeof area; i++)
		area[i] = (unsigned char)i;
	pmregs_x86_ds_area64_unpack(area, &a);
	CHECK_EQ(a.bts_index, 0x0F0E0D0C0B0A0908u);
	CHECK_EQ(a.pebs_counter_reset, 0x4746454443424140u);
	CHECK_EQ(pmregs_x86_pebs_counter_reset_value_get(a.pebs_counter_reset), 0x4443424140u);
	memset(area, 0xAA, sizeof area);
	pmregs_x86_ds_area64_pack(area, &a);
	for (i = 0; i < 0x48; i++)
		CHECK_EQ(area[i], i);
	for (; i < sizeof area; i++)
		CHECK_EQ(area[i], 0); /* reserved bytes written as zero */
	memset(rec, 0, sizeof rec);
	b.from = 0xFFFFFFFF81000000u;
	b.to = 0x401000;
	b.flags = PMREGS_X86_BTS_FLAGS64_PREDICTED(1);
	pmregs_x86_bts_record64_pack(rec, &b);
	CHECK_EQ(rec[0], 0x00);
	CHECK_EQ(rec[3], 0x81);
	CHECK_EQ(rec[7], 0xFF);
	CHECK_EQ(rec[8 + 1], 0x10);
	CHECK_EQ(rec[16], 0x10);
	CHECK_EQ(pmregs_x86_bts_record64_to_load(rec), 0x401000);
}

static void snprint_and_tables(void)
{
	char buf[256];
	size_t n, len;
	const struct pmregs_x86_register *r;
	len = pmregs_x86_debugctl_snprint(buf, sizeof buf,
					  PMREGS_X86_DEBUGCTL_LBR(1) | PMREGS_X86_DEBUGCTL_FREEZE_LBRS_ON_PMI(1) | (1u << 4));
	CHECK(strcmp(buf, "lbr=1 btf=0 bus_lock_detect=0 !rsvd_5_3=2 tr=0 bts=0 btint=0 bts_off_os=0 bts_off_usr=0 "
			  "freeze_lbrs_on_pmi=1 freeze_perfmon_on_pmi=0 enable_uncore_pmi=0 freeze_while_smm=0 rtm_debug=0") == 0);
	CHECK_EQ(len, strlen(buf));
	/* truncation: like snprintf, the full length is returned and the buffer stays terminated */
	len = pmregs_x86_debugctl_snprint(buf, sizeof buf, 1);
	CHECK_EQ(pmregs_x86_debugctl_snprint(buf, 8, 1), len);
	CHECK(strcmp(buf, "lbr=1 b") == 0);
	CHECK_EQ(pmregs_x86_debugctl_snprint(0, 0, 1), len);
	pmregs_x86_fixed_ctr_ctrl_snprint(buf, sizeof buf, 0x0B);
	CHECK(strncmp(buf, "en0=3(all) any_thread0=0 pmi0=1 en1=0(disabled)", 46) == 0);
	r = pmregs_x86_registers(&n);
	CHECK(n > 60);
	CHECK(strcmp(r[0].name, "ia32_debugctl") == 0 && r[0].msr == 0x1D9 && (r[0].has & PMREGS_X86_HAS_MSR));
	CHECK(strcmp(pmregs_x86_layouts(0)[r[0].layout].name, "debugctl") == 0);
}

static void perf_raw(void)
{
	/* Linux perf_event.h X86_RAW_EVENT_MASK = EVENT | UMASK | EDGE | INV | CMASK = 0xFF84FFFF; intel/core.c adds
	 * ANY (21), HSW_IN_TX (32), HSW_IN_TX_CHECKPOINTED (33), EQ (36) and UMASK2 (47:40) where supported */
	uint64_t all = ~UINT64_C(0);
	CHECK_EQ(pmregs_x86_perf_raw_config(0x5300C0), 0xC0);
	CHECK_EQ(pmregs_x86_perf_raw_refused(0x5300C0), 0x530000);
	CHECK_EQ(pmregs_x86_perf_raw_config(all), UINT64_C(0xFF84FFFF) | (1u << 21) | (UINT64_C(3) << 32) |
		 (UINT64_C(1) << 36) | (UINT64_C(0xFF) << 40));
	CHECK_EQ(pmregs_x86_perf_raw_config(all) | pmregs_x86_perf_raw_refused(all), all);
	/* pc (19) is in the sysfs format but not in X86_RAW_EVENT_MASK; adaptive (34) and br_cntr (35) are the kernel's */
	CHECK_EQ(pmregs_x86_perf_raw_refused(PMREGS_X86_PERFEVTSEL_PC(1)), 1u << 19);
	CHECK_EQ(pmregs_x86_perf_raw_refused(PMREGS_X86_PERFEVTSEL_ADAPTIVE(1) | PMREGS_X86_PERFEVTSEL_BR_CNTR(1)),
		 UINT64_C(3) << 34);
	CHECK(pmregs_x86_perf_exclude_kernel(0x5100C0) && !pmregs_x86_perf_exclude_user(0x5100C0));
	CHECK(pmregs_x86_perf_exclude_user(0x5200C0) && !pmregs_x86_perf_exclude_kernel(0x5200C0));
}

static void pebs_lbr_topdown(void)
{
	/* Linux perf_event.h PEBS_DATACFG_*: MEMINFO 0, GP 1, XMMS 2, LBRS 3, CNTR 4, METRICS 5, LBR_SHIFT 24,
	 * CNTR_SHIFT 32 / CNTR_MASK GENMASK(15,0), FIX_SHIFT 48 / FIX_MASK GENMASK(7,0) */
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_MEMINFO_MASK, 1u << 0);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_GP_MASK, 1u << 1);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_XMMS_MASK, 1u << 2);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_LBRS_MASK, 1u << 3);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_CNTR_MASK, 1u << 4);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_METRICS_MASK, 1u << 5);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_LBR_ENTRIES_SHIFT, 24);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_CNTR_GP_MASK, UINT64_C(0xFFFF) << 32);
	CHECK_EQ(PMREGS_X86_PEBS_DATA_CFG_CNTR_FIXED_MASK, UINT64_C(0xFF) << 48);
	CHECK_EQ(PMREGS_X86_MSR_PEBS_DATA_CFG, 0x3F2);
	/* struct pebs_basic: format_group:32, retire_latency:16, format_size:16 (INTEL_ADAPTIVE_PEBS_SIZE_OFF 48) */
	CHECK_EQ(PMREGS_X86_PEBS_BASIC_FORMAT_RECORD_SIZE_SHIFT, 48);
	CHECK_EQ(PMREGS_X86_PEBS_BASIC_FORMAT_RETIRE_LATENCY_MASK, UINT64_C(0xFFFF) << 32);
	CHECK_EQ(PMREGS_X86_PEBS_BASIC_SIZE, 32);
	CHECK_EQ(PMREGS_X86_PEBS_MEMINFO_SIZE, 32);
	CHECK_EQ(PMREGS_X86_PEBS_GPRS_SIZE, 144);
	CHECK_EQ(PMREGS_X86_PEBS_XMM_SIZE, 256);
	CHECK_EQ(PMREGS_X86_LBR_ENTRY_SIZE, 24);
	CHECK_EQ(PMREGS_X86_PEBS_GPRS_RCX_OFFSET, 0x18);   /* flags, ip, ax, cx: not the format 0-3 order */
	CHECK_EQ(PMREGS_X86_PEBS_RECORD64_RBX_OFFSET, 0x18);
	/* ds.c struct pebs_record_core/nhm/hsw/skl: 144, 176, 192, 200 bytes */
	CHECK_EQ(pmregs_x86_pebs_record_size(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(0)), PMREGS_X86_PEBS_RECORD64_SIZE);
	CHECK_EQ(pmregs_x86_pebs_record_size(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(1)), PMREGS_X86_PEBS_RECORD_NHM_SIZE);
	CHECK_EQ(pmregs_x86_pebs_record_size(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(2)), PMREGS_X86_PEBS_RECORD_HSW_SIZE);
	CHECK_EQ(pmregs_x86_pebs_record_size(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(3)), 200);
	CHECK_EQ(PMREGS_X86_PEBS_RECORD_SKL_TSC_OFFSET, 0xC0);
	CHECK_EQ(PMREGS_X86_PEBS_RECORD_NHM_STATUS_OFFSET, 0x90);
	CHECK_EQ(pmregs_x86_pebs_record_size(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(4)), 0);
	CHECK(pmregs_x86_pebs_adaptive(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(4) | PMREGS_X86_PERF_CAPABILITIES_PEBS_BASELINE(1)));
	CHECK(!pmregs_x86_pebs_adaptive(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(4)));
	CHECK(!pmregs_x86_pebs_adaptive(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(3) | PMREGS_X86_PERF_CAPABILITIES_PEBS_BASELINE(1)));
	/* adaptive_pebs_record_size_update: basic 32 + meminfo 32 + gprs 144 + xmm 256 + 32 LBR entries * 24 */
	CHECK_EQ(pmregs_x86_adaptive_pebs_record_size(0), 32);
	CHECK_EQ(pmregs_x86_adaptive_pebs_record_size(0xF | (UINT64_C(31) << 24)), 32 + 32 + 144 + 256 + 32 * 24);
	CHECK_EQ(pmregs_x86_adaptive_pebs_record_size(PMREGS_X86_PEBS_DATA_CFG_GP(1)), 176);
	/* ds.c PEBS_HSW_TSX_FLAGS 0xff00000000 */
	CHECK_EQ(PMREGS_X86_HSW_TSX_TUNING_WRITABLE_MASK & ~UINT64_C(0xFFFFFFFF), UINT64_C(0xFF00000000));
	/* INTEL_TD_METRIC_*: metric i is byte i of MSR_PERF_METRICS (0x329) */
	CHECK_EQ(PMREGS_X86_MSR_PERF_METRICS, 0x329);
	CHECK_EQ(pmregs_x86_perf_metric(UINT64_C(0x0807060504030201), 3), 4);
	CHECK_EQ(pmregs_x86_perf_metric(UINT64_C(0x0807060504030201), 7), 8);
	CHECK_EQ(pmregs_x86_perf_metrics_mem_bound_get(UINT64_C(0x0807060504030201)), 8);
	CHECK_EQ(PMREGS_X86_PERF_METRICS_RETIRING_MASK, 0xFF);
	/* msr-index.h MSR_ARCH_LBR_CTL 14CE, _DEPTH 14CF, _FROM_0 1500, _TO_0 1600, _INFO_0 1200; MSR_LBR_INFO_0 DC0 */
	CHECK_EQ(PMREGS_X86_MSR_IA32_LBR_CTL, 0x14CE);
	CHECK_EQ(PMREGS_X86_MSR_IA32_LBR_DEPTH, 0x14CF);
	CHECK_EQ(PMREGS_X86_MSR_IA32_LBR_FROM_IP(0), 0x1500);
	CHECK_EQ(PMREGS_X86_MSR_IA32_LBR_TO_IP(31), 0x161F);
	CHECK_EQ(PMREGS_X86_MSR_IA32_LBR_INFO(0), 0x1200);
	CHECK_EQ(PMREGS_X86_MSR_LBR_INFO(0), 0xDC0);
	/* ARCH_LBR_CTL_MASK 0x7f000e plus LBREN; lbr.c ARCH_LBR_*_BIT 1-3, 16-22 */
	CHECK_EQ(PMREGS_X86_LBR_CTL_WRITABLE_MASK, UINT64_C(0x7F000E) | 1);
	CHECK_EQ(PMREGS_X86_LBR_CTL_NEAR_REL_JMP_MASK, 1u << 17);
	CHECK_EQ(PMREGS_X86_LBR_CTL_NEAR_IND_CALL_MASK, 1u << 20);
	/* LBR_INFO_MISPRED 63, IN_TX 62, ABORT 61, CYC_CNT_VALID 60, BR_TYPE 0xf << 56, EVENTS 0xff << 32, CYCLES 0xffff */
	CHECK_EQ(PMREGS_X86_LBR_INFO_MISPRED_MASK, UINT64_C(1) << 63);
	CHECK_EQ(PMREGS_X86_LBR_INFO_IN_TSX_MASK, UINT64_C(1) << 62);
	CHECK_EQ(PMREGS_X86_LBR_INFO_TSX_ABORT_MASK, UINT64_C(1) << 61);
	CHECK_EQ(PMREGS_X86_LBR_INFO_CYC_CNT_VALID_MASK, UINT64_C(1) << 60);
	CHECK_EQ(PMREGS_X86_LBR_INFO_BR_TYPE_MASK, UINT64_C(0xF) << 56);
	CHECK_EQ(PMREGS_X86_LBR_INFO_EVENTS_MASK, UINT64_C(0xFF) << 32);
	CHECK_EQ(PMREGS_X86_LBR_INFO_CYC_CNT_MASK, 0xFFFF);
	/* union cpuid28_ecx: lbr_events:4 after 13 reserved bits */
	CHECK_EQ(PMREGS_X86_CPUID_1C_ECX_LBR_EVENTS_MASK, UINT32_C(0xF) << 16);
	CHECK_EQ(PMREGS_X86_CPUID_1C_EAX_LBR_LIP_MASK, UINT32_C(1) << 31);
	/* GLOBAL_STATUS_ARCH_PEBS_THRESHOLD_BIT 54 */
	CHECK_EQ(PMREGS_X86_PERF_GLOBAL_STATUS_ARCH_PEBS_THRESHOLD_MASK, UINT64_C(1) << 54);
	/* SDM Vol. 3B Table 17-11 (MSR_LBR_SELECT, 1C8H): CPL_EQ_0 0 ... FAR_BRANCH 8; lbr.c LBR_CALL_STACK_BIT 9 */
	CHECK_EQ(PMREGS_X86_MSR_MSR_LBR_SELECT, 0x1C8);
	CHECK_EQ(PMREGS_X86_MSR_MSR_LASTBRANCH_TOS, 0x1C9);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_CPL_EQ_0_MASK, 1u << 0);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_CPL_NEQ_0_MASK, 1u << 1);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_JCC_MASK, 1u << 2);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_NEAR_REL_CALL_MASK, 1u << 3);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_NEAR_IND_CALL_MASK, 1u << 4);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_NEAR_RET_MASK, 1u << 5);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_NEAR_IND_JMP_MASK, 1u << 6);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_NEAR_REL_JMP_MASK, 1u << 7);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_FAR_BRANCH_MASK, 1u << 8);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_EN_CALLSTACK_MASK, 1u << 9);
	CHECK_EQ(PMREGS_X86_LBR_SELECT_WRITABLE_MASK, 0x3FF);
	/* every defined bit may be set; bits 63:10 are reserved */
	CHECK(pmregs_x86_lbr_select_valid(UINT64_C(0x3FF)));
	CHECK(!pmregs_x86_lbr_select_valid(UINT64_C(1) << 10));
	/* SDM Vol. 4 Table 2-2: IA32_LBR_DEPTH (14CFH) DEPTH 8:0, 63:9 reserved */
	CHECK_EQ(PMREGS_X86_LBR_DEPTH_DEPTH_MASK, 0x1FF);
	CHECK_EQ(pmregs_x86_lbr_depth_depth_get(UINT64_C(32)), 32);
	CHECK(!pmregs_x86_lbr_depth_valid(UINT64_C(0x200)));
}

/*
 * Newer PEBS: the data-source views of Linux 6.12 ds.c union intel_x86_pebs_dse, the memory-info latency split
 * of perf_event.h struct pebs_meminfo (6.12), CPUID.23H (6.12 union cpuid35_eax/ebx, later kernels' subleaves
 * 4 and 5), format 6 and its counter group (tip e02e9b0374c3), and architectural PEBS (tip d21954c8a0ff,
 * bb5f13df3c45, msr-index.h MSR_IA32_PEBS_BASE/INDEX, MSR_IA32_PMC_V6_GP0_CFG_C 0x1903, FX0_CFG_C 0x1983,
 * MSR_IA32_PMC_V6_STEP 4, ARCH_PEBS_*).
 */
static void pebs_newer(void)
{
	uint64_t v;
	/* ld_dse:4, ld_stlb_miss:1, ld_locked:1, ld_data_blk:1, ld_addr_blk:1 */
	CHECK_EQ(PMREGS_X86_PEBS_DSE_DSE_MASK, 0xF);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_STLB_MISS_MASK, 1u << 4);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_LOCKED_MASK, 1u << 5);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_DATA_BLK_MASK, 1u << 6);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_ADDR_BLK_MASK, 1u << 7);
	/* st_l1d_hit:1, st_reserved1:3, st_stlb_miss:1, st_locked:1 */
	CHECK_EQ(PMREGS_X86_PEBS_DSE_ST_L1D_HIT_MASK, 1u << 0);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_ST_STLB_MISS_MASK, 1u << 4);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_ST_LOCKED_MASK, 1u << 5);
	/* st_lat_dse:4, st_lat_stlb_miss:1, st_lat_locked:1 */
	CHECK_EQ(PMREGS_X86_PEBS_DSE_ST_LAT_DSE_MASK, 0xF);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_ST_LAT_LOCKED_MASK, 1u << 5);
	/* mtl_dse:5, mtl_locked:1, mtl_stlb_miss:1, mtl_fwd_blk:1 */
	CHECK_EQ(PMREGS_X86_PEBS_DSE_CMT_DSE_MASK, 0x1F);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_CMT_LOCKED_MASK, 1u << 5);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_CMT_STLB_MISS_MASK, 1u << 6);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_CMT_FWD_BLK_MASK, 1u << 7);
	/* lnc_dse:8, ld_reserved5:2, lnc_stlb_miss:1, lnc_locked:1, lnc_data_blk:1, lnc_addr_blk:1 */
	CHECK_EQ(PMREGS_X86_PEBS_DSE_LNC_DSE_MASK, 0xFF);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_LNC_STLB_MISS_MASK, 1u << 10);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_LNC_LOCKED_MASK, 1u << 11);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_LNC_DATA_BLK_MASK, 1u << 12);
	CHECK_EQ(PMREGS_X86_PEBS_DSE_LNC_ADDR_BLK_MASK, 1u << 13);
	/* one value read through two views: an L3 hit (dse 3) that missed the STLB, locked, on Skylake and on Lion Cove */
	CHECK_EQ(pmregs_x86_pebs_dse_dse_get(0x33), 3);
	CHECK(pmregs_x86_pebs_dse_stlb_miss_get(0x33) && pmregs_x86_pebs_dse_locked_get(0x33));
	CHECK_EQ(pmregs_x86_pebs_dse_lnc_dse_get(0xC03), 3);
	CHECK(pmregs_x86_pebs_dse_lnc_stlb_miss_get(0xC03) && pmregs_x86_pebs_dse_lnc_locked_get(0xC03));
	CHECK(!pmregs_x86_pebs_dse_valid(0xC03));      /* bits 10-11 are no field of the older view */
	/* struct pebs_meminfo, Alder Lake and later: instr_latency:16, pad2:16, cache_latency:16, pad3:16 */
	v = UINT64_C(0x0000012300000045);
	CHECK_EQ(pmregs_x86_pebs_mem_latency_instr_latency_get(v), 0x45);
	CHECK_EQ(pmregs_x86_pebs_mem_latency_cache_latency_get(v), 0x123);
	/* record format 6 (counter snapshots) is adaptive; fixed-size formats stop at 3 */
	CHECK_EQ(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT_ADAPTIVE_CNTR, 6);
	CHECK(pmregs_x86_pebs_adaptive(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(6) | PMREGS_X86_PERF_CAPABILITIES_PEBS_BASELINE(1)));
	CHECK_EQ(pmregs_x86_pebs_record_size(PMREGS_X86_PERF_CAPABILITIES_PEBS_REC_FMT(6)), 0);
	/* struct pebs_cntr_header: u32 cntr, fixed, metrics, reserved; nr = hweight(cntr) + hweight(fixed) + 2 if metrics == 3 */
	CHECK_EQ(PMREGS_X86_PEBS_CNTR_HEADER_SIZE, 16);
	CHECK_EQ(PMREGS_X86_PEBS_CNTR_HEADER_METRICS_OFFSET, 8);
	CHECK_EQ(pmregs_x86_pebs_cntr_group_size(0, 0, 0), 16);
	CHECK_EQ(pmregs_x86_pebs_cntr_group_size(0x5, 0x9, 3), 16 + 8 * 6);
	CHECK_EQ(pmregs_x86_pebs_cntr_group_size(0xFFFFFFFF, 0, 1), 16 + 8 * 32);
	CHECK_EQ(pmregs_x86_pebs_cntr_group_size(0x1, 0xFF, 0), 16 + 8 * 9);
	/* CPUID.23H: leaf0, cntr, acr, events subleaves (6.12) and PEBS caps 4 / counters 5 (arch-PEBS); EBX umask2, eq */
	CHECK_EQ(PMREGS_X86_CPUID_23_0_EAX_EVENTS_SUBLEAF_MASK, 1u << 3);
	CHECK_EQ(PMREGS_X86_CPUID_23_0_EAX_PEBS_CAPS_SUBLEAF_MASK, 1u << 4);
	CHECK_EQ(PMREGS_X86_CPUID_23_0_EAX_PEBS_CNTS_SUBLEAF_MASK, 1u << 5);
	CHECK_EQ(PMREGS_X86_CPUID_23_0_EBX_EQ_MASK, 1u << 1);
	CHECK_EQ(PMREGS_X86_CPUID_23_0_EBX_RDPMC_USER_DISABLE_MASK, 1u << 2);
	/* subleaf 4 EBX is the CFG_C capability bits shifted down by 32 (caps = EBX << 32) */
	CHECK_EQ((uint64_t)PMREGS_X86_CPUID_23_4_EBX_AUX_MASK << 32, PMREGS_X86_PMC_CFG_C_AUX_MASK);
	CHECK_EQ((uint64_t)PMREGS_X86_CPUID_23_4_EBX_GPR_MASK << 32, PMREGS_X86_PMC_CFG_C_GPR_MASK);
	CHECK_EQ((uint64_t)PMREGS_X86_CPUID_23_4_EBX_VECR_XMM_MASK << 32, PMREGS_X86_PMC_CFG_C_VECR_XMM_MASK);
	CHECK_EQ((uint64_t)PMREGS_X86_CPUID_23_4_EBX_LBR_MASK << 32, PMREGS_X86_PMC_CFG_C_LBR_MASK);
	CHECK_EQ((uint64_t)PMREGS_X86_CPUID_23_4_EBX_CNTR_METRICS_MASK << 32, PMREGS_X86_PMC_CFG_C_CNTR_METRICS_MASK);
	/* MSRs */
	CHECK_EQ(PMREGS_X86_MSR_IA32_PEBS_BASE, 0x3F4);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PEBS_INDEX, 0x3F5);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC_GP_CFG_C(0), 0x1903);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC_GP_CFG_C(1), 0x1907);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC_FX_CFG_C(0), 0x1983);
	CHECK_EQ(PMREGS_X86_MSR_IA32_PMC_FX_CFG_C(3), 0x198F);
	/* ARCH_PEBS_RELOAD 0xffffffff, CNTR_ALLOW 35, CNTR_GP 36, CNTR_FIXED 37, CNTR_METRICS 38, LBR 3 << 40,
	 * VECR_XMM 49, GPR 61, AUX 62, EN 63 */
	CHECK_EQ(PMREGS_X86_PMC_CFG_C_RELOAD_MASK, UINT64_C(0xFFFFFFFF));
	CHECK_EQ(PMREGS_X86_PMC_CFG_C_CNTR_ALLOW_MASK, UINT64_C(1) << 35);
	CHECK_EQ(PMREGS_X86_PMC_CFG_C_CNTR_GP_MASK | PMREGS_X86_PMC_CFG_C_CNTR_FIXED_MASK | PMREGS_X86_PMC_CFG_C_CNTR_METRICS_MASK,
		 UINT64_C(7) << 36);
	CHECK_EQ(PMREGS_X86_PMC_CFG_C_LBR_MASK, UINT64_C(3) << 40);
	CHECK_EQ(PMREGS_X86_PMC_CFG_C_VECR_XMM_MASK, UINT64_C(1) << 49);
	CHECK_EQ(PMREGS_X86_PMC_CFG_C_GPR_MASK | PMREGS_X86_PMC_CFG_C_AUX_MASK | PMREGS_X86_PMC_CFG_C_EN_MASK,
		 UINT64_C(7) << 61);
	/* union arch_pebs_index: rsvd:4, wr:23, rsvd2:4, full:1, en:1, rsvd3:3, thresh:23, rsvd4:5;
	 * ARCH_PEBS_OFFSET_MASK 0x7fffff, top = base + (wr << ARCH_PEBS_INDEX_WR_SHIFT 4) */
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_INDEX_WR_MASK, UINT64_C(0x7FFFFF) << 4);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_INDEX_FULL_MASK, UINT64_C(1) << 31);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_INDEX_EN_MASK, UINT64_C(1) << 32);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_INDEX_THRESH_MASK, UINT64_C(0x7FFFFF) << 36);
	CHECK_EQ(pmregs_x86_arch_pebs_index_bytes(PMREGS_X86_ARCH_PEBS_INDEX_WR(3) | PMREGS_X86_ARCH_PEBS_INDEX_EN(1)), 48);
	/* struct arch_pebs_header: size:16, rsvd:14, mode:1, cont:1, rsvd2:3, cntr:5, lbr:2, rsvd3:7, xmm, ymmh, rsvd4:2,
	 * opmask, zmmh, h16zmm, rsvd5:5, gpr, aux, basic; continued when cont or bits 63:16 are all 0 */
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_CNTR_MASK, UINT64_C(0x1F) << 35);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_XMM_MASK, UINT64_C(1) << 49);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_H16ZMM_MASK, UINT64_C(1) << 55);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_BASIC_MASK, UINT64_C(1) << 63);
	CHECK(pmregs_x86_arch_pebs_record_continued(UINT64_C(0x40)));                           /* a null header */
	CHECK(pmregs_x86_arch_pebs_record_continued((UINT64_C(1) << 63) | (UINT64_C(1) << 31) | 0x40));
	CHECK(!pmregs_x86_arch_pebs_record_continued((UINT64_C(1) << 63) | 0x40));
	CHECK_EQ(pmregs_x86_arch_pebs_lbr_entries(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_LBR(1), 32), 8);
	CHECK_EQ(pmregs_x86_arch_pebs_lbr_entries(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_LBR(2), 32), 16);
	CHECK_EQ(pmregs_x86_arch_pebs_lbr_entries(PMREGS_X86_ARCH_PEBS_HEADER_FORMAT_LBR(3), 24), 24);
	CHECK_EQ(pmregs_x86_arch_pebs_lbr_entries(0, 24), 0);
	/* record sizes: arch_pebs_header 16, arch_pebs_basic 48, arch_pebs_aux 64, arch_pebs_lbr_header 48 */
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_HEADER_SIZE, 16);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_BASIC_SIZE, 48);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_AUX_SIZE, 64);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_AUX_LATENCY_OFFSET, 0x30);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_LBR_HEADER_SIZE, 48);
	CHECK_EQ(PMREGS_X86_ARCH_PEBS_RETIRE_VALID_MASK, UINT64_C(1) << 16);
}

int main(void)
{
	msr_addresses();
	debugctl_bits();
	perfevtsel_vectors();
	fixed_and_global();
	cpuid_bits();
	arch_events();
	freeze_semantics();
	ds_records();
	snprint_and_tables();
	perf_raw();
	pebs_lbr_topdown();
	pebs_newer();
	pmi_sources();
	return check_done("test_x86");
}
