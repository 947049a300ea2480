/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Links tests/port/asm_fields.S and checks that the values the assembler built
 * from the pmregs field macros are the ones the C accessors produce, and the
 * ones the Intel SDM gives:
 *   - IA32_PERFEVTSEL: USR bit 16, OS bit 17, EN bit 22, UMASK 15:8, CMASK 31:24
 *     (Intel SDM Vol. 3B Figure 18-1); instructions retired is event C0H (Table 18-1);
 *   - IA32_DEBUGCTL: LBR bit 0, FREEZE_LBRS_ON_PMI bit 11 (Vol. 3B Figure 17-3);
 *   - MSR addresses IA32_PERFEVTSEL0 = 186H, IA32_DEBUGCTL = 1D9H (Vol. 3B Table 35-2).
 */
#include <stdio.h>

#include <pmregs/pmregs.h>

extern const uint64_t pmregs_asm_evtsel;
extern const uint64_t pmregs_asm_debugctl;
extern const uint64_t pmregs_asm_cmask[4];
extern const uint64_t pmregs_asm_misc[7];
#if defined(__x86_64__)
uint64_t pmregs_asm_umask_set(uint64_t v, uint64_t umask);
uint32_t pmregs_asm_msr_evtsel(unsigned n);
#endif

#include "../common/check.h"

int main(void)
{
	uint64_t v = 0;
	unsigned i;

	/* 0xc0 | 1 << 16 | 1 << 17 | 1 << 22, from the SDM bit positions above */
	CHECK(pmregs_asm_evtsel == 0x4300c0u);
	v = pmregs_x86_perfevtsel_event_select_set(v, 0xc0);
	v = pmregs_x86_perfevtsel_usr_set(v, 1);
	v = pmregs_x86_perfevtsel_os_set(v, 1);
	v = pmregs_x86_perfevtsel_en_set(v, 1);
	CHECK(pmregs_asm_evtsel == v);

	/* 1 << 0 | 1 << 11 */
	CHECK(pmregs_asm_debugctl == 0x801u);
	CHECK(pmregs_x86_debugctl_lbr_get(pmregs_asm_debugctl) == 1);
	CHECK(pmregs_x86_debugctl_freeze_lbrs_on_pmi_get(pmregs_asm_debugctl) == 1);

	CHECK(pmregs_asm_cmask[0] == 24 && pmregs_asm_cmask[1] == 8);
	CHECK(pmregs_asm_cmask[2] == 0xff000000u && pmregs_asm_cmask[3] == 0xff000000u);
	CHECK(pmregs_x86_perfevtsel_cmask_set(0, ~(uint64_t)0) == pmregs_asm_cmask[3]);

	CHECK(pmregs_asm_misc[0] == PMREGS_X86_PERFEVTSEL_RSVD_MASK);
	CHECK(pmregs_x86_perfevtsel_valid(pmregs_asm_evtsel));
	CHECK(!pmregs_x86_perfevtsel_valid(pmregs_asm_misc[0]));
	CHECK(pmregs_asm_misc[1] == PMREGS_X86_DEBUGCTL_RSVD_MASK);
	CHECK(pmregs_asm_misc[2] == PMREGS_X86_PERFEVTSEL_RESET);
	CHECK(pmregs_asm_misc[3] == 0x1d9 && pmregs_asm_misc[4] == 0x186 && pmregs_asm_misc[5] == 0x189);
	CHECK(pmregs_asm_misc[6] == (uint64_t)(int64_t)PMREGS_ERANGE);

#if defined(__x86_64__)
	for (i = 0; i < 0x300; i += 7) {
		uint64_t base = 0x0123456789abcdefu * (i + 1);
		CHECK(pmregs_asm_umask_set(base, i) == pmregs_x86_perfevtsel_umask_set(base, i));
	}
	for (i = 0; i < 8; i++)
		CHECK(pmregs_asm_msr_evtsel(i) == 0x186 + i);
	printf("assembler: data and code checks done\n");
#else
	(void)i;
	printf("assembler: data checks done (no code part for this target)\n");
#endif
	return check_done("asm_check");
}
