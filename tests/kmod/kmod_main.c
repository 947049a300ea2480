/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A Linux kernel module that uses pmregs the way a driver would: it builds an
 * IA32_PERFEVTSELx value, edits IA32_DEBUGCTL bits and decodes a field, all
 * with the kernel's own compiler flags (-Wvla, -Wundef, -Wframe-larger-than,
 * no floating point, -std=gnu11 ...) plus W=1, -Werror and the
 * -Wdeclaration-after-statement of older kernels.  The module is only built,
 * never loaded: it proves that <pmregs/tools.h> (every family and its tools part) compiles inside
 * the kernel and that no pmregs name collides with one of the kernel's.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/init.h>

#include <pmregs/tools.h>

/* Defined in kmod_all.c: the address of every static inline function pmregs has. */
extern const void *const pmregs_kmod_functions[];
extern const unsigned long pmregs_kmod_function_count;

/* A constant built at compile time, as a driver's static table would hold it. */
static const u64 pmregs_kmod_cycles_sel =
	PMREGS_X86_PERFEVTSEL_EVENT_SELECT(0x3c) | PMREGS_X86_PERFEVTSEL_USR(1) |
	PMREGS_X86_PERFEVTSEL_OS(1) | PMREGS_X86_PERFEVTSEL_EN(1);

static int __init pmregs_kmod_init(void)
{
	struct pmregs_x86_perfevtsel_fields f = { 0 };
	u64 sel, debugctl = 0;
	char buf[256];

	f.event_select = 0xc0; /* instructions retired */
	f.usr = 1;
	f.os = 1;
	f.int_en = 1;
	f.en = 1;
	sel = pmregs_x86_perfevtsel_pack(&f);
	/* a unit mask wider than 8 bits is refused and leaves sel alone */
	if (pmregs_x86_perfevtsel_umask_set_checked(&sel, 0x100) != PMREGS_ERANGE ||
	    pmregs_x86_perfevtsel_umask_set_checked(&sel, 0x01) != PMREGS_OK)
		return -EINVAL;
	debugctl = pmregs_x86_debugctl_lbr_set(debugctl, 1);
	debugctl = pmregs_x86_debugctl_freeze_lbrs_on_pmi_set(debugctl, 1);
	pmregs_x86_perfevtsel_snprint(buf, sizeof(buf), sel);
	pr_info("pmregs: PERFEVTSEL0 = %#llx (%s), cycles = %#llx, DEBUGCTL = %#llx, %lu functions\n",
		(unsigned long long)sel, buf, (unsigned long long)pmregs_kmod_cycles_sel,
		(unsigned long long)debugctl, pmregs_kmod_function_count);
	return pmregs_x86_perfevtsel_en_get(sel) && pmregs_kmod_functions[0] ? 0 : -EINVAL;
}

static void __exit pmregs_kmod_exit(void)
{
}

module_init(pmregs_kmod_init);
module_exit(pmregs_kmod_exit);
MODULE_DESCRIPTION("pmregs kernel build test");
MODULE_LICENSE("GPL");
