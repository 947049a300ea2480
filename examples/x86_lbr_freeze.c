/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Program IA32_DEBUGCTL for LBR recording with freeze-on-PMI, choosing the freeze
 * behaviour from CPUID leaf 0AH, and show what a PMI then does to the registers.
 *
 *   x86_lbr_freeze            use this machine's CPUID (on x86) or a sample part
 *   x86_lbr_freeze 0x07300803 pretend CPUID.0AH:EAX is this value
 *
 * A driver would WRMSR the printed values; this program only computes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <pmregs/x86_tools.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static const char *flavour_name(enum pmregs_x86_freeze_flavour f)
{
	switch (f) {
	case PMREGS_X86_FREEZE_FLAVOUR_LEGACY: return "legacy (PMI clears DEBUGCTL.LBR / PERF_GLOBAL_CTRL)";
	case PMREGS_X86_FREEZE_FLAVOUR_STREAMLINED: return "streamlined (PMI sets LBR_Frz / CTR_Frz)";
	default: return "none (no freeze-on-PMI before version 2)";
	}
}

int main(int argc, char **argv)
{
	uint32_t eax = 0x07300804; /* a version-4 part with 8 counters of 48 bits */
	const char *from = "sample";
	uint64_t dbg, ctrl, status = 0, after_dbg, after_ctrl, after_status;
	uint8_t version;
	enum pmregs_x86_freeze_flavour fl;
	char buf[512];

	if (argc > 1) {
		eax = (uint32_t)strtoul(argv[1], 0, 0);
		from = "command line";
	} else {
#if defined(__x86_64__) || defined(__i386__)
		unsigned a, b, c, d;
		if (__get_cpuid_max(0, 0) >= PMREGS_X86_CPUID_LEAF_ARCH_PERFMON &&
		    __get_cpuid(PMREGS_X86_CPUID_LEAF_ARCH_PERFMON, &a, &b, &c, &d) && (a & 0xFF) != 0) {
			eax = a;
			from = "this CPU";
		}
#endif
	}
	version = (uint8_t)pmregs_x86_cpuid_0a_eax_version_id_get(eax);
	fl = pmregs_x86_freeze_flavour_of(version);
	printf("CPUID.0AH:EAX = %#010x (%s): version %u, %u counters of %u bits\n", (unsigned)eax, from,
	       (unsigned)version, (unsigned)pmregs_x86_cpuid_0a_eax_num_gp_counters_get(eax),
	       (unsigned)pmregs_x86_cpuid_0a_eax_gp_counter_width_get(eax));
	printf("freeze-on-PMI: %s\n", flavour_name(fl));

	/* LBR on; freeze LBRs and counters on PMI when the processor can. */
	dbg = PMREGS_X86_DEBUGCTL_LBR(1);
	if (fl != PMREGS_X86_FREEZE_FLAVOUR_NONE)
		dbg |= PMREGS_X86_DEBUGCTL_FREEZE_LBRS_ON_PMI(1) | PMREGS_X86_DEBUGCTL_FREEZE_PERFMON_ON_PMI(1);
	ctrl = PMREGS_X86_PERF_GLOBAL_CTRL_PMC0_EN(1) | PMREGS_X86_PERF_GLOBAL_CTRL_FIXED0_EN(1);
	pmregs_x86_debugctl_snprint(buf, sizeof buf, dbg);
	printf("\nwrmsr %#x <- %#018llx  IA32_DEBUGCTL\n    %s\n", PMREGS_X86_MSR_IA32_DEBUGCTL,
	       (unsigned long long)dbg, buf);
	printf("wrmsr %#x <- %#018llx  IA32_PERF_GLOBAL_CTRL\n", PMREGS_X86_MSR_IA32_PERF_GLOBAL_CTRL,
	       (unsigned long long)ctrl);

	after_dbg = pmregs_x86_pmi_debugctl(version, dbg);
	after_ctrl = pmregs_x86_pmi_global_ctrl(version, dbg, ctrl);
	after_status = pmregs_x86_pmi_global_status(version, dbg, status);
	printf("\nafter a PMI:\n");
	printf("  IA32_DEBUGCTL          %#018llx  LBR recording: %s\n", (unsigned long long)after_dbg,
	       pmregs_x86_lbr_recording(after_dbg, after_status) ? "yes" : "no (frozen)");
	printf("  IA32_PERF_GLOBAL_CTRL  %#018llx\n", (unsigned long long)after_ctrl);
	printf("  IA32_PERF_GLOBAL_STATUS LBR_Frz=%u CTR_Frz=%u\n",
	       (unsigned)pmregs_x86_perf_global_status_lbr_frz_get(after_status),
	       (unsigned)pmregs_x86_perf_global_status_ctr_frz_get(after_status));
	printf("  PMC0 counting: %s\n",
	       pmregs_x86_counter_counting(0, PMREGS_X86_PERFEVTSEL_EN(1), after_ctrl, after_status) ? "yes" : "no (frozen)");

	printf("\nto resume in the PMI handler:\n");
	if (fl == PMREGS_X86_FREEZE_FLAVOUR_LEGACY)
		printf("  wrmsr %#x <- %#018llx (set LBR again), wrmsr %#x <- %#018llx (re-enable counters)\n",
		       PMREGS_X86_MSR_IA32_DEBUGCTL, (unsigned long long)dbg, PMREGS_X86_MSR_IA32_PERF_GLOBAL_CTRL,
		       (unsigned long long)ctrl);
	else if (fl == PMREGS_X86_FREEZE_FLAVOUR_STREAMLINED)
		printf("  wrmsr %#x <- %#018llx (IA32_PERF_GLOBAL_STATUS_RESET: clear LBR_Frz and CTR_Frz)\n",
		       PMREGS_X86_MSR_IA32_PERF_GLOBAL_STATUS_RESET,
		       (unsigned long long)(PMREGS_X86_PERF_GLOBAL_STATUS_RESET_LBR_FRZ(1) |
					    PMREGS_X86_PERF_GLOBAL_STATUS_RESET_CTR_FRZ(1)));
	else
		printf("  nothing was frozen\n");
	return 0;
}
