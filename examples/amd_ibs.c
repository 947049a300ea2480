/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * amd_ibs: program IBS op sampling and decode one op sample, choosing each register's layout by
 * the IBS capabilities (CPUID Fn8000_001B EAX), as a profiler reading Linux's ibs_op raw samples
 * (a u32 of capabilities, then IbsOpCtl, IbsOpRip, IbsOpData, IbsOpData2, IbsOpData3, IbsDcLinAd,
 * IbsDcPhysAd) would. The sample below is made up from the field definitions (APM2 13.3.2,
 * Linux amd-ibs.h): a load that missed the data cache and was served from DRAM on a Zen4.
 */
#include <stdio.h>
#include <pmregs/amd_tools.h>

int main(void)
{
	char buf[1024];
	uint64_t ctl, data2, data3;
	/* Zen4: IBSFFV, FetchSam, OpSam, RdWrOpCnt, OpCnt, BrnTrgt, OpCntExt, RipInvalidChk, OpBrnFuse,
	 * IbsFetchCtlExtd, L3MissFiltering (bits 0-9, 11) */
	uint32_t caps = 0xBFF;
	struct {
		uint64_t op_ctl, op_rip, op_data, op_data2, op_data3, dc_lin, dc_phys;
	} s;

	/* programming: one sample every 0x100000 dispatched ops (needs OpCntExt: more than 0xFFFF0) */
	if (!pmregs_amd_ibs_op_period_ok(0x100000, pmregs_amd_cpuid_8000001b_eax_op_cnt_ext_get(caps) != 0)) {
		fprintf(stderr, "amd_ibs: period not encodable\n");
		return 1;
	}
	ctl = pmregs_amd_ibs_op_set_period(PMREGS_AMD_IBS_OP_CTL_EN(1) | PMREGS_AMD_IBS_OP_CTL_CNT_CTL(1), 0x100000);
	printf("wrmsr 0x%x <- 0x%016llx  IbsOpCtl (period %llu ops)\n", PMREGS_AMD_MSR_IBS_OP_CTL,
	       (unsigned long long)ctl, (unsigned long long)pmregs_amd_ibs_op_period(ctl));
	printf("  perf: ibs_op config 0x%llx (MaxCnt and CntCtl where IbsOpCtl has them)\n\n",
	       (unsigned long long)pmregs_amd_ibs_op_perf_config(ctl));

	/* the sample */
	s.op_ctl = ctl | PMREGS_AMD_IBS_OP_CTL_VAL(1);
	s.op_rip = UINT64_C(0x00005555555551a0);
	s.op_data = PMREGS_AMD_IBS_OP_DATA_TAG_TO_RET_CTR(212) | PMREGS_AMD_IBS_OP_DATA_COMP_TO_RET_CTR(3);
	data2 = pmregs_amd_ibs_op_data2_zen4_data_src_set(0, PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_DRAM);
	s.op_data2 = data2;
	data3 = PMREGS_AMD_IBS_OP_DATA3_LD_OP(1) | PMREGS_AMD_IBS_OP_DATA3_DC_MISS(1) |
		PMREGS_AMD_IBS_OP_DATA3_L2_MISS(1) | PMREGS_AMD_IBS_OP_DATA3_DC_LIN_ADDR_VALID(1) |
		PMREGS_AMD_IBS_OP_DATA3_DC_PHY_ADDR_VALID(1) | PMREGS_AMD_IBS_OP_DATA3_OP_MEM_WIDTH(4) |
		PMREGS_AMD_IBS_OP_DATA3_DC_MISS_LAT(310);
	s.op_data3 = data3;
	s.dc_lin = UINT64_C(0x00007fffd2a01c48);
	s.dc_phys = UINT64_C(0x00000001c3a61c48);

	printf("caps 0x%08x: %s IbsOpData2, %s IbsOpData3\n", (unsigned)caps,
	       pmregs_amd_cpuid_8000001b_eax_ibs_l3_miss_filtering_get(caps) ? "Zen4" : "pre-Zen4",
	       pmregs_amd_cpuid_8000001b_eax_op_dtlb_pg_size_get(caps) ? "Zen5" : "Zen1-Zen4");
	pmregs_amd_ibs_op_ctl_snprint(buf, sizeof buf, s.op_ctl);
	printf("IbsOpCtl    %s\n", buf);
	if (!pmregs_amd_ibs_op_ctl_val_get(s.op_ctl))
		return 0;
	pmregs_amd_ibs_op_data_snprint(buf, sizeof buf, s.op_data);
	printf("IbsOpData   %s\n", buf);
	printf("IbsOpRip    0x%016llx%s\n", (unsigned long long)s.op_rip,
	       pmregs_amd_ibs_op_data_rip_invalid_get(s.op_data) ? " (invalid)" : "");
	if (pmregs_amd_cpuid_8000001b_eax_ibs_l3_miss_filtering_get(caps))
		pmregs_amd_ibs_op_data2_zen4_snprint(buf, sizeof buf, s.op_data2);
	else
		pmregs_amd_ibs_op_data2_snprint(buf, sizeof buf, s.op_data2);
	printf("IbsOpData2  %s\n", buf);
	if (pmregs_amd_cpuid_8000001b_eax_op_dtlb_pg_size_get(caps))
		pmregs_amd_ibs_op_data3_zen5_snprint(buf, sizeof buf, s.op_data3);
	else
		pmregs_amd_ibs_op_data3_snprint(buf, sizeof buf, s.op_data3);
	printf("IbsOpData3  %s\n", buf);
	if (pmregs_amd_ibs_op_data3_dc_lin_addr_valid_get(s.op_data3))
		printf("IbsDcLinAd  0x%016llx\n", (unsigned long long)s.dc_lin);
	if (pmregs_amd_ibs_op_data3_dc_phy_addr_valid_get(s.op_data3))
		printf("IbsDcPhysAd 0x%013llx\n",
		       (unsigned long long)pmregs_amd_physical_address_address_get(s.dc_phys));
	printf("=> a %u-byte load, data cache miss served from %s after %u cycles\n",
	       1u << (pmregs_amd_ibs_op_data3_op_mem_width_get(s.op_data3) - 1),
	       pmregs_amd_ibs_op_data2_zen4_data_src_get(s.op_data2) == PMREGS_AMD_IBS_OP_DATA2_ZEN4_DATA_SRC_DRAM ?
		       "DRAM" : "elsewhere",
	       (unsigned)pmregs_amd_ibs_op_data3_dc_miss_lat_get(s.op_data3));
	return 0;
}
