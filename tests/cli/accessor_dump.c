/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * accessor_dump FAMILY LAYOUT VALUE: print "field=value" for every settable
 * field of the layout, read with the layout's own generated _get accessors
 * (shift-and-mask code per field), one line each. tests/cli/cli.py compares
 * these with what `pmregs-decode --json` finds by walking the generic
 * descriptors, so the two paths through the generated header check each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/pmregs.h>

#define F(lay, field) printf("%s=%llu\n", #field, (unsigned long long)pmregs_##lay##_##field##_get(v))

static void netburst_cccr(uint64_t v)
{
	F(netburst_cccr, enable);
	F(netburst_cccr, escr_select);
	F(netburst_cccr, active_thread);
	F(netburst_cccr, compare);
	F(netburst_cccr, complement);
	F(netburst_cccr, threshold);
	F(netburst_cccr, edge);
	F(netburst_cccr, force_ovf);
	F(netburst_cccr, ovf_pmi_t0);
	F(netburst_cccr, ovf_pmi_t1);
	F(netburst_cccr, cascade);
	F(netburst_cccr, ovf);
}

static void netburst_cccr_ext(uint64_t v)
{
	F(netburst_cccr_ext, enable);
	F(netburst_cccr_ext, escr_select);
	F(netburst_cccr_ext, active_thread);
	F(netburst_cccr_ext, compare);
	F(netburst_cccr_ext, complement);
	F(netburst_cccr_ext, threshold);
	F(netburst_cccr_ext, edge);
	F(netburst_cccr_ext, force_ovf);
	F(netburst_cccr_ext, ovf_pmi_t0);
	F(netburst_cccr_ext, ovf_pmi_t1);
	F(netburst_cccr_ext, cascade);
	F(netburst_cccr_ext, ovf);
	F(netburst_cccr_ext, ext_cascade);
}

static void netburst_escr(uint64_t v)
{
	F(netburst_escr, t1_usr);
	F(netburst_escr, t1_os);
	F(netburst_escr, t0_usr);
	F(netburst_escr, t0_os);
	F(netburst_escr, tag_enable);
	F(netburst_escr, tag_value);
	F(netburst_escr, event_mask);
	F(netburst_escr, event_select);
}

static void x86_perfevtsel(uint64_t v)
{
	F(x86_perfevtsel, event_select);
	F(x86_perfevtsel, umask);
	F(x86_perfevtsel, usr);
	F(x86_perfevtsel, os);
	F(x86_perfevtsel, edge);
	F(x86_perfevtsel, pc);
	F(x86_perfevtsel, int_en);
	F(x86_perfevtsel, any_thread);
	F(x86_perfevtsel, en);
	F(x86_perfevtsel, inv);
	F(x86_perfevtsel, cmask);
	F(x86_perfevtsel, in_tx);
	F(x86_perfevtsel, in_txcp);
	F(x86_perfevtsel, adaptive);
	F(x86_perfevtsel, br_cntr);
	F(x86_perfevtsel, eq);
	F(x86_perfevtsel, umask2);
}

static void x86_debugctl(uint64_t v)
{
	F(x86_debugctl, lbr);
	F(x86_debugctl, btf);
	F(x86_debugctl, bus_lock_detect);
	F(x86_debugctl, tr);
	F(x86_debugctl, bts);
	F(x86_debugctl, btint);
	F(x86_debugctl, bts_off_os);
	F(x86_debugctl, bts_off_usr);
	F(x86_debugctl, freeze_lbrs_on_pmi);
	F(x86_debugctl, freeze_perfmon_on_pmi);
	F(x86_debugctl, enable_uncore_pmi);
	F(x86_debugctl, freeze_while_smm);
	F(x86_debugctl, rtm_debug);
}

static void ppc604_mmcr0_604(uint64_t v64)
{
	uint32_t v = (uint32_t)v64;
	F(ppc604_mmcr0_604, fc);
	F(ppc604_mmcr0_604, fcs);
	F(ppc604_mmcr0_604, fcp);
	F(ppc604_mmcr0_604, fcm1);
	F(ppc604_mmcr0_604, fcm0);
	F(ppc604_mmcr0_604, pmxe);
	F(ppc604_mmcr0_604, fcece);
	F(ppc604_mmcr0_604, tbsel);
	F(ppc604_mmcr0_604, tbee);
	F(ppc604_mmcr0_604, threshold);
	F(ppc604_mmcr0_604, pmc1ce);
	F(ppc604_mmcr0_604, pmcnce);
	F(ppc604_mmcr0_604, trigger);
	F(ppc604_mmcr0_604, pmc1sel);
	F(ppc604_mmcr0_604, pmc2sel);
}

static void itanium_pmc_counting(uint64_t v)
{
	F(itanium_pmc_counting, plm);
	F(itanium_pmc_counting, ev);
	F(itanium_pmc_counting, oi);
	F(itanium_pmc_counting, pm);
	F(itanium_pmc_counting, es);
	F(itanium_pmc_counting, umask);
	F(itanium_pmc_counting, threshold);
	F(itanium_pmc_counting, ism);
}

static void itanium_pmc10_tlb(uint64_t v)
{
	F(itanium_pmc10_tlb, plm);
	F(itanium_pmc10_tlb, pm);
	F(itanium_pmc10_tlb, tlb);
	F(itanium_pmc10_tlb, ism);
	F(itanium_pmc10_tlb, umask);
}

static void itanium_pmc13(uint64_t v)
{
	F(itanium_pmc13, ta);
}

static void etrace_ioptions_ref(uint64_t v64)
{
	uint8_t v = (uint8_t)v64;
	F(etrace_ioptions_ref, implicit_return);
	F(etrace_ioptions_ref, implicit_exception);
	F(etrace_ioptions_ref, full_address);
	F(etrace_ioptions_ref, jump_target_cache);
	F(etrace_ioptions_ref, branch_prediction);
}

static const struct {
	const char *family, *layout;
	void (*dump)(uint64_t v);
} cases[] = {
	{ "netburst", "cccr", netburst_cccr },
	{ "netburst", "cccr_ext", netburst_cccr_ext },
	{ "netburst", "escr", netburst_escr },
	{ "x86", "perfevtsel", x86_perfevtsel },
	{ "x86", "debugctl", x86_debugctl },
	{ "ppc604", "mmcr0_604", ppc604_mmcr0_604 },
	{ "itanium", "pmc_counting", itanium_pmc_counting },
	{ "itanium", "pmc10_tlb", itanium_pmc10_tlb },
	{ "itanium", "pmc13", itanium_pmc13 },
	{ "etrace", "ioptions_ref", etrace_ioptions_ref },
};

int main(int argc, char **argv)
{
	size_t i;
	if (argc != 4) {
		fprintf(stderr, "usage: accessor_dump FAMILY LAYOUT VALUE\n");
		return 2;
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (strcmp(cases[i].family, argv[1]) == 0 && strcmp(cases[i].layout, argv[2]) == 0) {
			cases[i].dump((uint64_t)strtoull(argv[3], 0, 0));
			return 0;
		}
	}
	fprintf(stderr, "accessor_dump: no case for %s %s\n", argv[1], argv[2]);
	return 2;
}
