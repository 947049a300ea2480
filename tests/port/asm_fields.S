/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs from assembler: the constants part of every header (field shifts,
 * widths, masks, named values, reset values, register addresses) is plain
 * integer macros, so a .S file can include <pmregs/pmregs.h> and use them in
 * data and in instructions.  tests/port/asm_check.c links this file and
 * compares what the assembler computed with what the C accessors compute.
 */
#include <pmregs/pmregs.h>

	.data
	.balign 8

/* IA32_PERFEVTSEL for instructions retired (event C0H), USR + OS + EN, built from shifts and masks. */
	.globl pmregs_asm_evtsel
pmregs_asm_evtsel:
	.quad (0xc0 << PMREGS_X86_PERFEVTSEL_EVENT_SELECT_SHIFT) | (0x00 << PMREGS_X86_PERFEVTSEL_UMASK_SHIFT) | PMREGS_X86_PERFEVTSEL_USR_MASK | PMREGS_X86_PERFEVTSEL_OS_MASK | PMREGS_X86_PERFEVTSEL_EN_MASK

/* IA32_DEBUGCTL with LBR and FREEZE_LBRS_ON_PMI set. */
	.globl pmregs_asm_debugctl
pmregs_asm_debugctl:
	.quad PMREGS_X86_DEBUGCTL_LBR_MASK | PMREGS_X86_DEBUGCTL_FREEZE_LBRS_ON_PMI_MASK

/* Field geometry as the assembler sees it: shift, width and the mask rebuilt from them. */
	.globl pmregs_asm_cmask
pmregs_asm_cmask:
	.quad PMREGS_X86_PERFEVTSEL_CMASK_SHIFT
	.quad PMREGS_X86_PERFEVTSEL_CMASK_WIDTH
	.quad ((1 << PMREGS_X86_PERFEVTSEL_CMASK_WIDTH) - 1) << PMREGS_X86_PERFEVTSEL_CMASK_SHIFT
	.quad PMREGS_X86_PERFEVTSEL_CMASK_MASK

/* Must-be-zero and reset values, and MSR addresses (one of them from a parameterised macro). */
	.globl pmregs_asm_misc
pmregs_asm_misc:
	.quad PMREGS_X86_PERFEVTSEL_RSVD_MASK
	.quad PMREGS_X86_DEBUGCTL_RSVD_MASK
	.quad PMREGS_X86_PERFEVTSEL_RESET
	.quad PMREGS_X86_MSR_IA32_DEBUGCTL
	.quad PMREGS_X86_MSR_IA32_PERFEVTSEL0
	.quad PMREGS_X86_MSR_IA32_PERFEVTSEL(3)
	.quad PMREGS_ERANGE

#if defined(__x86_64__)
/*
 * uint64_t pmregs_asm_umask_set(uint64_t v, uint64_t umask):
 * what pmregs_x86_perfevtsel_umask_set() does, written the way a hand-coded
 * MSR path would, with the field macros as immediates (SysV AMD64 ABI).
 */
	.text
	.globl pmregs_asm_umask_set
	.type pmregs_asm_umask_set, @function
pmregs_asm_umask_set:
	movabsq $~PMREGS_X86_PERFEVTSEL_UMASK_MASK, %rax
	andq %rdi, %rax
	shlq $PMREGS_X86_PERFEVTSEL_UMASK_SHIFT, %rsi
	movabsq $PMREGS_X86_PERFEVTSEL_UMASK_MASK, %rcx
	andq %rcx, %rsi
	orq %rsi, %rax
	ret
	.size pmregs_asm_umask_set, . - pmregs_asm_umask_set

/* uint32_t pmregs_asm_msr_evtsel(unsigned n): the MSR address of IA32_PERFEVTSELn. */
	.globl pmregs_asm_msr_evtsel
	.type pmregs_asm_msr_evtsel, @function
pmregs_asm_msr_evtsel:
	leal PMREGS_X86_MSR_IA32_PERFEVTSEL0(%rdi), %eax
	ret
	.size pmregs_asm_msr_evtsel, . - pmregs_asm_msr_evtsel
#endif

	.section .note.GNU-stack,"",%progbits
