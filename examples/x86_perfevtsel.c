/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Encode IA32_PERFEVTSEL0 for "instructions retired, user and kernel, PMI on overflow"
 * from the architectural event table, preload the counter for one PMI every N events,
 * and print what a driver would write, decoded field by field.
 */
#include <stdio.h>
#include <pmregs/x86_tools.h>

int main(void)
{
	const struct pmregs_x86_arch_events_row *ev = pmregs_x86_arch_events_find("instruction_retired");
	const uint64_t period = 1000000;
	const unsigned width = 48; /* CPUID.0AH:EAX[23:16] on the sample part */
	struct pmregs_x86_perfevtsel_fields f = {0};
	uint64_t sel, preload;
	char buf[512];

	if (!ev)
		return 1;
	f.event_select = ev->event_select;
	f.umask = ev->umask;
	f.usr = 1;
	f.os = 1;
	f.int_en = 1;
	f.en = 1;
	if (pmregs_x86_perfevtsel_pack_checked(&f, &sel) != PMREGS_OK)
		return 1;
	/* The counter overflows (and raises the PMI) after `period` events when preloaded with -period. */
	preload = ((uint64_t)0 - period) & ((((uint64_t)1) << width) - 1);

	pmregs_x86_perfevtsel_snprint(buf, sizeof buf, sel);
	printf("%s (event 0x%02x, umask 0x%02x; CPUID.0AH:EBX bit %u says whether it exists)\n", ev->title,
	       (unsigned)ev->event_select, (unsigned)ev->umask, (unsigned)ev->ebx_bit);
	printf("wrmsr %#x <- %#018llx  IA32_PMC0 = -%llu (%u-bit counter)\n", PMREGS_X86_MSR_IA32_PMC0,
	       (unsigned long long)preload, (unsigned long long)period, width);
	printf("wrmsr %#x <- %#018llx  IA32_PERFEVTSEL0\n    %s\n", PMREGS_X86_MSR_IA32_PERFEVTSEL0,
	       (unsigned long long)sel, buf);
	printf("wrmsr %#x <- %#018llx  IA32_PERF_GLOBAL_CTRL (PMC0 on)\n", PMREGS_X86_MSR_IA32_PERF_GLOBAL_CTRL,
	       (unsigned long long)PMREGS_X86_PERF_GLOBAL_CTRL_PMC0_EN(1));

	/* The same event on fixed counter 0, which counts only instructions retired. */
	printf("\nor on IA32_FIXED_CTR0: wrmsr %#x <- %#018llx  IA32_FIXED_CTR_CTRL\n", PMREGS_X86_MSR_IA32_FIXED_CTR_CTRL,
	       (unsigned long long)(PMREGS_X86_FIXED_CTR_CTRL_EN0(PMREGS_X86_FIXED_CTR_CTRL_EN0_ALL) |
				    PMREGS_X86_FIXED_CTR_CTRL_PMI0(1)));
	pmregs_x86_fixed_ctr_ctrl_snprint(buf, sizeof buf,
					  PMREGS_X86_FIXED_CTR_CTRL_EN0(PMREGS_X86_FIXED_CTR_CTRL_EN0_ALL) |
					      PMREGS_X86_FIXED_CTR_CTRL_PMI0(1));
	printf("    %s\n", buf);
	return pmregs_x86_perfevtsel_valid(sel) ? 0 : 1;
}
