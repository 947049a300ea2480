/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for every _snprint function of every header, under ASan and
 * UBSan, with buffers of 0 to 32 bytes allocated to their exact size (so ASan
 * sees any write past n).
 *
 * Input: which function (1 byte), a value (8 bytes), then bytes for a packet to
 * decode and print. The function prints once into a large buffer, giving its full text and
 * length L; then into buffers of n = 0..32 bytes it must return the same L
 * (snprintf's convention), write nothing when n is 0, and otherwise write
 * exactly the first min(L, n - 1) characters of the text and a terminating NUL.
 * The packet printers get what the E-Trace decoders accept; the NetBurst
 * printers get a request and event mask from the input.
 *
 * Every `static inline size_t ..._snprint(` in include/pmregs/ must appear in
 * this file: tests/fuzz/checks.sh fails otherwise. pmregs_cat_perf_snprint() is
 * checked the same way by fuzz_catalog.c, which builds the requests it prints.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-runs: 10000
 * pmregs-fuzz-opt: -O0
 * pmregs-fuzz-cmp: off (edges reached in 10000 runs, seeds 1-8: 958, 990, 728, 999, 918, 1028, 992,
 *   898 with it, 979, 927, 1014, 844, 747, 938, 1014, 993 without; the run 4.3-5.6 s CPU with it,
 *   1.8-2.2 s without: the comparison hooks took half of it)
 * pmregs-fuzz-share: tools
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/tools.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
#define BIG 4096

typedef size_t (*print_fn)(char *buf, size_t n, const void *ctx);

/* print through f into buffers of every size from 0 to 32 and compare with the full text */
static void check_sizes(print_fn f, const void *ctx)
{
	static char full[BIG];
	size_t len = f(full, sizeof full, ctx), n;
	REQUIRE(len < sizeof full && strlen(full) == len);
	REQUIRE(f(NULL, 0, ctx) == len);
	for (n = 0; n <= 32; n++) {
		char *b = (char *)malloc(n ? n : 1);
		size_t k = len < n ? len : (n ? n - 1 : 0);
		REQUIRE(b);
		if (n == 0)
			b[0] = 'x';
		REQUIRE(f(n ? b : b + 1, n, ctx) == len); /* n == 0: a pointer one past the allocation */
		if (n == 0)
			REQUIRE(b[0] == 'x');
		else
			REQUIRE(memcmp(b, full, k) == 0 && b[k] == 0);
		free(b);
	}
}

struct value { uint64_t v; size_t (*f8)(char *, size_t, uint8_t); size_t (*f32)(char *, size_t, uint32_t);
	       size_t (*f64)(char *, size_t, uint64_t); };

static size_t print_value(char *buf, size_t n, const void *ctx)
{
	const struct value *x = (const struct value *)ctx;
	if (x->f8)
		return x->f8(buf, n, (uint8_t)x->v);
	if (x->f32)
		return x->f32(buf, n, (uint32_t)x->v);
	return x->f64(buf, n, x->v);
}

static size_t (*const f8[])(char *, size_t, uint8_t) = {
	pmregs_etrace_doptions_ref_snprint,
	pmregs_etrace_ioptions_pulp_snprint,
	pmregs_etrace_ioptions_ref_snprint,
};
static size_t (*const f32[])(char *, size_t, uint32_t) = {
	pmregs_amd_cpuid_80000001_ecx_snprint,
	pmregs_amd_cpuid_80000008_ebx_snprint,
	pmregs_amd_cpuid_8000001b_eax_snprint,
	pmregs_amd_cpuid_80000022_eax_snprint,
	pmregs_amd_cpuid_80000022_ebx_snprint,
	pmregs_amd_cpuid_80000022_ecx_snprint,
	pmregs_netburst_rdpmc_ecx_snprint,
	pmregs_ppc604_address_snprint,
	pmregs_ppc604_bamr_snprint,
	pmregs_ppc604_mmcr0_604_snprint,
	pmregs_ppc604_mmcr0_snprint,
	pmregs_ppc604_mmcr1_745x_snprint,
	pmregs_ppc604_mmcr1_snprint,
	pmregs_ppc604_mmcr2_745x_snprint,
	pmregs_ppc604_mmcr2_snprint,
	pmregs_ppc604_pmc_snprint,
	pmregs_x86_bts_flags32_snprint,
	pmregs_x86_cpuid_01_ecx_snprint,
	pmregs_x86_cpuid_01_edx_snprint,
	pmregs_x86_cpuid_0a_eax_snprint,
	pmregs_x86_cpuid_0a_ebx_snprint,
	pmregs_x86_cpuid_0a_edx_snprint,
	pmregs_x86_cpuid_1c_eax_snprint,
	pmregs_x86_cpuid_23_0_eax_snprint,
	pmregs_x86_cpuid_23_0_ebx_snprint,
	pmregs_x86_cpuid_23_4_ebx_snprint,
	pmregs_x86_counter_bitmap32_snprint,
	pmregs_x86_cpuid_1c_ebx_snprint,
	pmregs_x86_cpuid_1c_ecx_snprint,
};
static size_t (*const f64[])(char *, size_t, uint64_t) = {
	pmregs_amd_branch_ip_snprint,
	pmregs_amd_counter64_snprint,
	pmregs_amd_dbg_extn_cfg_brs_snprint,
	pmregs_amd_dbg_extn_cfg_snprint,
	pmregs_amd_debugctl_pb_snprint,
	pmregs_amd_debugctl_snprint,
	pmregs_amd_df_perf_ctl_snprint,
	pmregs_amd_df_perf_ctl_v2_snprint,
	pmregs_amd_hwcr_snprint,
	pmregs_amd_ibs_ctl_snprint,
	pmregs_amd_ibs_fetch_ctl2_snprint,
	pmregs_amd_ibs_fetch_ctl_snprint,
	pmregs_amd_ibs_op_ctl2_snprint,
	pmregs_amd_ibs_op_ctl_snprint,
	pmregs_amd_ibs_op_data2_snprint,
	pmregs_amd_ibs_op_data2_zen4_snprint,
	pmregs_amd_ibs_op_data3_f10h_snprint,
	pmregs_amd_ibs_op_data3_snprint,
	pmregs_amd_ibs_op_data3_zen5_snprint,
	pmregs_amd_ibs_op_data4_snprint,
	pmregs_amd_ibs_op_data_f10h_snprint,
	pmregs_amd_ibs_op_ctl_f10h_snprint,
	pmregs_amd_ibs_op_data_snprint,
	pmregs_amd_ic_ibs_extd_ctl_snprint,
	pmregs_amd_l2i_perf_ctl_snprint,
	pmregs_amd_l3_pmc_cfg_f17h_snprint,
	pmregs_amd_l3_pmc_cfg_snprint,
	pmregs_amd_lbr_from_snprint,
	pmregs_amd_lbr_select_snprint,
	pmregs_amd_lbr_to_snprint,
	pmregs_amd_linear_address_snprint,
	pmregs_amd_nb_perf_ctl_snprint,
	pmregs_amd_perf_cntr_global_ctl_snprint,
	pmregs_amd_perf_cntr_global_status_clr_snprint,
	pmregs_amd_perf_cntr_global_status_set_snprint,
	pmregs_amd_perf_cntr_global_status_snprint,
	pmregs_amd_perf_ctl_snprint,
	pmregs_amd_perf_ctr_snprint,
	pmregs_amd_physical_address_snprint,
	pmregs_amd_umc_perf_ctl_snprint,
	pmregs_amd_uncore_ctr_snprint,
	pmregs_itanium_br_addr_snprint,
	pmregs_itanium_dbr_ctl_snprint,
	pmregs_itanium_ibr_ctl_snprint,
	pmregs_itanium_pmc0_snprint,
	pmregs_itanium_pmc10_cache_snprint,
	pmregs_itanium_pmc10_snprint,
	pmregs_itanium_pmc10_tlb_snprint,
	pmregs_itanium_pmc11_cache_snprint,
	pmregs_itanium_pmc11_snprint,
	pmregs_itanium_pmc11_tlb_snprint,
	pmregs_itanium_pmc12_snprint,
	pmregs_itanium_pmc13_snprint,
	pmregs_itanium_pmc8_9_snprint,
	pmregs_itanium_pmc_counting_narrow_snprint,
	pmregs_itanium_pmc_counting_snprint,
	pmregs_itanium_pmc_ignored_snprint,
	pmregs_itanium_pmd0_cache_snprint,
	pmregs_itanium_pmd0_tlb_snprint,
	pmregs_itanium_pmd16_snprint,
	pmregs_itanium_pmd17_snprint,
	pmregs_itanium_pmd1_cache_snprint,
	pmregs_itanium_pmd1_tlb_snprint,
	pmregs_itanium_pmd2_snprint,
	pmregs_itanium_pmd3_snprint,
	pmregs_itanium_pmd_btb_snprint,
	pmregs_itanium_pmd_counter_snprint,
	pmregs_netburst_cccr_ext_snprint,
	pmregs_netburst_cccr_noht_snprint,
	pmregs_netburst_cccr_snprint,
	pmregs_netburst_counter_snprint,
	pmregs_netburst_debugctla_snprint,
	pmregs_netburst_escr_noht_snprint,
	pmregs_netburst_escr_snprint,
	pmregs_netburst_lastbranch_snprint,
	pmregs_netburst_lastbranch_tos_snprint,
	pmregs_netburst_pebs_enable_snprint,
	pmregs_netburst_pebs_matrix_vert_snprint,
	pmregs_x86_bts_flags64_snprint,
	pmregs_x86_core_debugctl_snprint,
	pmregs_x86_counter_snprint,
	pmregs_x86_debugctl_snprint,
	pmregs_x86_debugctlb_snprint,
	pmregs_x86_fixed_ctr_ctrl_snprint,
	pmregs_x86_hsw_tsx_tuning_snprint,
	pmregs_x86_pebs_dse_snprint,
	pmregs_x86_pebs_dse_st_snprint,
	pmregs_x86_pebs_dse_st_lat_snprint,
	pmregs_x86_pebs_dse_cmt_snprint,
	pmregs_x86_pebs_dse_lnc_snprint,
	pmregs_x86_pebs_mem_latency_snprint,
	pmregs_x86_arch_pebs_base_snprint,
	pmregs_x86_arch_pebs_index_snprint,
	pmregs_x86_pmc_cfg_c_snprint,
	pmregs_x86_arch_pebs_header_format_snprint,
	pmregs_x86_arch_pebs_retire_snprint,
	pmregs_x86_lbr_ctl_snprint,
	pmregs_x86_lbr_depth_snprint,
	pmregs_x86_lbr_select_snprint,
	pmregs_x86_lbr_info_snprint,
	pmregs_x86_linear_address_snprint,
	pmregs_x86_misc_enable_snprint,
	pmregs_x86_p6_debugctl_snprint,
	pmregs_x86_p6_perfctr_snprint,
	pmregs_x86_p6_perfevtsel0_snprint,
	pmregs_x86_p6_perfevtsel1_snprint,
	pmregs_x86_pebs_basic_format_snprint,
	pmregs_x86_pebs_counter_reset_snprint,
	pmregs_x86_pebs_data_cfg_snprint,
	pmregs_x86_pebs_enable_snprint,
	pmregs_x86_perf_capabilities_snprint,
	pmregs_x86_perf_global_ctrl_snprint,
	pmregs_x86_perf_global_inuse_snprint,
	pmregs_x86_perf_global_ovf_ctrl_snprint,
	pmregs_x86_perf_global_status_reset_snprint,
	pmregs_x86_perf_global_status_set_snprint,
	pmregs_x86_perf_global_status_snprint,
	pmregs_x86_perf_metrics_snprint,
	pmregs_x86_perfevtsel_snprint,
};

struct packet { const struct pmregs_etrace_params *p; const void *pkt; int kind; };

static size_t print_trace_packet(char *buf, size_t n, const void *ctx)
{
	const struct packet *x = (const struct packet *)ctx;
	if (x->kind == 0)
		return pmregs_etrace_te_inst_snprint(buf, n, x->p, (const struct pmregs_etrace_te_inst *)x->pkt);
	if (x->kind == 5)
		return pmregs_etrace_atb_snprint(buf, n, x->p, (const struct pmregs_etrace_atb *)x->pkt);
	if (x->kind == 4)
		return pmregs_etrace_te_data_snprint(buf, n, x->p, (const struct pmregs_etrace_te_data *)x->pkt);
	if (x->kind == 1)
		return pmregs_etrace_encap_snprint(buf, n, x->p, (const struct pmregs_etrace_encap *)x->pkt);
	return pmregs_etrace_smi_snprint(buf, n, x->p, (const struct pmregs_etrace_smi *)x->pkt);
}

static size_t print_request(char *buf, size_t n, const void *ctx)
{
	return pmregs_netburst_event_snprint(buf, n, (const struct pmregs_netburst_event_request *)ctx);
}

struct mask { const struct pmregs_netburst_events_row *row; uint64_t bits; };

static size_t print_mask(char *buf, size_t n, const void *ctx)
{
	const struct mask *x = (const struct mask *)ctx;
	return pmregs_netburst_events_mask_snprint(buf, n, x->row, x->bits);
}

static size_t print_bits(char *buf, size_t n, const void *ctx)
{
	const struct mask *x = (const struct mask *)ctx;
	return pmregs_bits_snprint(buf, n, x->row->mask_names, x->row->mask_count, x->bits);
}

#define N8 (sizeof f8 / sizeof f8[0])
#define N32 (sizeof f32 / sizeof f32[0])
#define N64 (sizeof f64 / sizeof f64[0])

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size)
{
	struct value x;
	struct packet pk;
	struct pmregs_etrace_params p;
	struct pmregs_etrace_te_inst t;
	struct pmregs_etrace_te_data d;
	struct pmregs_etrace_encap e;
	struct pmregs_etrace_smi s;
	struct pmregs_etrace_atb a;
	struct pmregs_netburst_event_request r;
	struct mask mk;
	size_t i, count, which;
	const unsigned char *rest;
	size_t nrest;

	if (size < 1)
		return 0;
	which = data[0] % (N8 + N32 + N64 + 4);
	x.v = 0;
	for (i = 1; i < 9 && i < size; i++)
		x.v |= (uint64_t)data[i] << (8 * (i - 1));
	rest = data + (size < 9 ? size : 9);
	nrest = size - (size_t)(rest - data);
	x.f8 = which < N8 ? f8[which] : 0;
	x.f32 = which >= N8 && which < N8 + N32 ? f32[which - N8] : 0;
	x.f64 = which >= N8 + N32 && which < N8 + N32 + N64 ? f64[which - N8 - N32] : 0;
	if (which < N8 + N32 + N64) {
		check_sizes(print_value, &x);
		return 0;
	}
	which -= N8 + N32 + N64;

	/* E-Trace packets the decoders accept, with the default parameters */
	pmregs_etrace_params_default(&p);
	pk.p = &p;
	pk.kind = (int)which;
	if (which == 0 && pmregs_etrace_te_inst_decode(&p, rest, nrest, &t) == PMREGS_OK) {
		pk.pkt = &t;
		check_sizes(print_trace_packet, &pk);
	}
	if (which == 0 && pmregs_etrace_te_data_decode(&p, rest, nrest, &d) == PMREGS_OK) {
		pk.kind = 4; /* the same bytes as a data trace payload */
		pk.pkt = &d;
		check_sizes(print_trace_packet, &pk);
	}
	if (which == 1 && pmregs_etrace_encap_decode(&p, rest, nrest, &e) == PMREGS_OK) {
		pk.pkt = &e;
		check_sizes(print_trace_packet, &pk);
	}
	if (which == 2 && pmregs_etrace_smi_decode(&p, rest, nrest, &s) == PMREGS_OK) {
		pk.pkt = &s;
		check_sizes(print_trace_packet, &pk);
	}
	if (which == 2 && pmregs_etrace_atb_decode(&p, rest, nrest, &a) > 0) {
		pk.kind = 5; /* the same bytes as an ATB message */
		pk.pkt = &a;
		check_sizes(print_trace_packet, &pk);
	}
	if (which != 3)
		return 0;

	/* NetBurst: an event request (only the fields the printer reads matter) and an event's mask bits */
	pmregs_netburst_event_request_init(&r, 0);
	mk.row = pmregs_netburst_events(&count);
	r.event = (uint16_t)(x.v % (count + 1));
	r.mask = (uint16_t)(x.v >> 16);
	r.t0_os = (uint8_t)(x.v >> 32 & 1);
	r.t0_usr = (uint8_t)(x.v >> 33 & 1);
	r.t1_os = (uint8_t)(x.v >> 34 & 1);
	r.t1_usr = (uint8_t)(x.v >> 35 & 1);
	if (r.event < count) {
		check_sizes(print_request, &r);
		mk.row += r.event;
		mk.bits = x.v >> 8;
		check_sizes(print_mask, &mk);
		check_sizes(print_bits, &mk);
	}
	return 0;
}
