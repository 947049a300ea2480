/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Cross-check of the AMD PERF_CTL packing (spec/amd.yaml) against libpfm4, an independent encoder:
 * every event and every unit mask of the Zen core PMUs libpfm4 knows (amd64_fam17h_zen1/zen2,
 * amd64_fam19h_zen3/zen4, and the deprecated amd64_fam17h), each PMU forced so that no matching CPU
 * is needed. libpfm4 sets EN (22) and INT (20) in every encoding and USR/OS from u/k; its event code
 * is the 12-bit event number, which pmregs splits over bits 7:0 and 35:32 (APM2 Fig 13-11).
 *
 * Known disagreements, pinned here (spec/amd.yaml says which reading pmregs follows):
 *   D15  libpfm4 encodes the Zen3 L3 PMU (amd64_fam19h_zen3_l3) with the core encoder, so its values
 *        carry USR/OS/INT (16, 17, 20), reserved in ChL3PmcCfg; the perf path clears them.
 *   D16  libpfm4 names PerfEvtSel bit 19 "pin control"; APM2 reserves it (no libpfm4 encoding sets it).
 */
#define _POSIX_C_SOURCE 200112L
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/amd_tools.h>

static int failures, checks, wide_events;

static int encode(const char *spec, int plm, uint64_t *out)
{
	pfm_pmu_encode_arg_t arg;
	int ret;
	memset(&arg, 0, sizeof arg);
	arg.size = sizeof arg;
	ret = pfm_get_os_event_encoding(spec, plm, PFM_OS_NONE, &arg);
	if (ret != PFM_SUCCESS || arg.count < 1) {
		fprintf(stderr, "libpfm cannot encode %s: %s\n", spec, pfm_strerror(ret));
		return -1;
	}
	*out = arg.codes[0];
	free(arg.codes);
	return 0;
}

static void compare(const char *spec, int plm, uint64_t want)
{
	uint64_t got = 0;
	checks++;
	if (encode(spec, plm, &got) != 0 || got != want) {
		failures++;
		fprintf(stderr, "%s: libpfm %#llx, pmregs %#llx\n", spec, (unsigned long long)got,
			(unsigned long long)want);
	}
}

/* The PERF_CTL pmregs packs for an event, a unit mask and the privilege levels, with INT and EN as libpfm4 sets them. */
static uint64_t pack(uint64_t code, uint64_t umask, int usr, int os)
{
	struct pmregs_amd_perf_ctl_fields f;
	memset(&f, 0, sizeof f);
	f.event_select = (uint16_t)code;
	f.umask = (uint8_t)umask;
	f.usr = (uint8_t)usr;
	f.os = (uint8_t)os;
	f.int_en = 1;
	f.en = 1;
	return pmregs_amd_perf_ctl_pack(&f);
}

/* Every event and unit mask of one core PMU; returns the number of events seen. */
static int core_pmu(const char *force)
{
	pfm_pmu_info_t pinfo;
	int idx, events = 0;
	pfm_pmu_t p;
	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", force, 1);
	if (pfm_initialize() != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize failed for %s\n", force);
		failures++;
		return 0;
	}
	for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pinfo, 0, sizeof pinfo);
		pinfo.size = sizeof pinfo;
		if (pfm_get_pmu_info(p, &pinfo) == PFM_SUCCESS && pinfo.is_present && strcmp(pinfo.name, force) == 0)
			break;
	}
	if (p == PFM_PMU_MAX) {
		fprintf(stderr, "libpfm4 has no PMU %s\n", force);
		failures++;
		return 0;
	}
	for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t e;
		char spec[512];
		int a, umasks = 0;
		memset(&e, 0, sizeof e);
		e.size = sizeof e;
		if (pfm_get_event_info(idx, PFM_OS_NONE, &e) != PFM_SUCCESS)
			continue;
		events++;
		if (e.code > 0xFF)
			wide_events++;  /* exercises EventSelect[11:8] in bits 35:32 */
		if (e.code > 0xFFF) {
			failures++;
			fprintf(stderr, "%s::%s: event code %#llx does not fit 12 bits\n", force, e.name,
				(unsigned long long)e.code);
			continue;
		}
		for (a = 0; a < e.nattrs; a++) {
			pfm_event_attr_info_t at;
			memset(&at, 0, sizeof at);
			at.size = sizeof at;
			if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &at) != PFM_SUCCESS || at.type != PFM_ATTR_UMASK)
				continue;
			umasks++;
			snprintf(spec, sizeof spec, "%s::%s:%s", force, e.name, at.name);
			compare(spec, PFM_PLM0 | PFM_PLM3, pack(e.code, at.code, 1, 1));
			snprintf(spec, sizeof spec, "%s::%s:%s:u=1:k=0", force, e.name, at.name);
			compare(spec, PFM_PLM0 | PFM_PLM3, pack(e.code, at.code, 1, 0));
		}
		if (umasks == 0) {
			uint64_t want = pack(e.code, 0, 1, 1);
			snprintf(spec, sizeof spec, "%s::%s", force, e.name);
			compare(spec, PFM_PLM0 | PFM_PLM3, want);
			/* the counter-mask modifiers: c (24-31), i (23), e (18) */
			snprintf(spec, sizeof spec, "%s::%s:c=2:i=1:e=1:u=1:k=0", force, e.name);
			compare(spec, PFM_PLM0 | PFM_PLM3, pmregs_amd_perf_ctl_os_set(want, 0) |
				PMREGS_AMD_PERF_CTL_CNT_MASK(2) | PMREGS_AMD_PERF_CTL_INV(1) | PMREGS_AMD_PERF_CTL_EDGE(1));
			/* libpfm4 h (host) and g (guest) set HostOnly (41) and GuestOnly (40); like u and k, h is a
			 * privilege-level modifier, so naming it alone drops the default USR/OS */
			snprintf(spec, sizeof spec, "%s::%s:h=1:u=1:k=1", force, e.name);
			compare(spec, PFM_PLM0 | PFM_PLM3, pmregs_amd_perf_ctl_host_only_set(want, 1));
			snprintf(spec, sizeof spec, "%s::%s:g=1", force, e.name);
			compare(spec, PFM_PLM0 | PFM_PLM3, pmregs_amd_perf_ctl_guest_only_set(want, 1));
		}
	}
	return events;
}

/* D15: libpfm4's Zen3 L3 encodings, checked against ChL3PmcCfg (family 19h) and Linux's perf path. */
static int l3_pmu(void)
{
	pfm_pmu_info_t pinfo;
	int idx, events = 0;
	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3_l3", 1);
	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	memset(&pinfo, 0, sizeof pinfo);
	pinfo.size = sizeof pinfo;
	if (pfm_get_pmu_info(PFM_PMU_AMD64_FAM19H_ZEN3_L3, &pinfo) != PFM_SUCCESS || !pinfo.is_present)
		return 0;
	for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t e;
		pfm_event_attr_info_t at;
		char spec[512];
		uint64_t got = 0, cfg;
		memset(&e, 0, sizeof e);
		e.size = sizeof e;
		if (pfm_get_event_info(idx, PFM_OS_NONE, &e) != PFM_SUCCESS)
			continue;
		memset(&at, 0, sizeof at);
		at.size = sizeof at;
		if (e.nattrs < 1 || pfm_get_event_attr_info(idx, 0, PFM_OS_NONE, &at) != PFM_SUCCESS ||
		    at.type != PFM_ATTR_UMASK)
			continue;
		snprintf(spec, sizeof spec, "amd64_fam19h_zen3_l3::%s:%s", e.name, at.name);
		checks++;
		if (encode(spec, PFM_PLM0 | PFM_PLM3, &got) != 0) {
			failures++;
			continue;
		}
		events++;
		cfg = pmregs_amd_l3_pmc_cfg_umask_set(pmregs_amd_l3_pmc_cfg_event_select_set(PMREGS_AMD_L3_PMC_CFG_EN(1),
										      e.code),
						      at.code);
		/* libpfm4's value = the L3 fields + USR, OS and INT, which ChL3PmcCfg reserves */
		if (got != (cfg | (1ULL << 16) | (1ULL << 17) | (1ULL << 20)) || pmregs_amd_l3_pmc_cfg_valid(got) ||
		    !pmregs_amd_l3_pmc_cfg_valid(got & ~PMREGS_AMD_L3_PMC_CFG_RSVD_MASK) ||
		    (got & PMREGS_AMD_PERF_RAW_MASK_NB) != (cfg & PMREGS_AMD_PERF_RAW_MASK_NB)) {
			failures++;
			fprintf(stderr, "%s: libpfm %#llx, pmregs L3 fields %#llx\n", spec, (unsigned long long)got,
				(unsigned long long)cfg);
		}
	}
	return events;
}

/* Whether the (forced) PMU called pmu has an event whose code is `code`. */
static int pmu_has_code(const char *pmu, uint64_t code)
{
	pfm_pmu_info_t pinfo;
	pfm_pmu_t p;
	int idx;
	for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pinfo, 0, sizeof pinfo);
		pinfo.size = sizeof pinfo;
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS || !pinfo.is_present || strcmp(pinfo.name, pmu) != 0)
			continue;
		for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			pfm_event_info_t e;
			memset(&e, 0, sizeof e);
			e.size = sizeof e;
			if (pfm_get_event_info(idx, PFM_OS_NONE, &e) == PFM_SUCCESS && e.code == code)
				return 1;
		}
	}
	return 0;
}

/*
 * Linux's generic event maps per generation (spec/amd.yaml generic_events_zen1/2/4) against libpfm4's
 * tables of the same generation: every row's event exists there, the stalled-cycles and ref-cycles rows
 * are the named libpfm4 events below, and event 0x87 (Zen 1's stalled cycles) is in no later table.
 * libpfm4 4.13 has no Zen 5 table; Zen 5 uses the Zen 4 map.
 */
static int generic_maps(void)
{
	static const struct {
		const char *pmu;
		enum pmregs_amd_zen zen;
	} gens[] = {
		{"amd64_fam17h_zen1", PMREGS_AMD_ZEN_ZEN1},
		{"amd64_fam17h_zen2", PMREGS_AMD_ZEN_ZEN2},
		{"amd64_fam19h_zen3", PMREGS_AMD_ZEN_ZEN3},
		{"amd64_fam19h_zen4", PMREGS_AMD_ZEN_ZEN4},
	};
	static const struct {
		enum pmregs_amd_zen zen;
		const char *row, *pfm;
	} named[] = {
		{PMREGS_AMD_ZEN_ZEN1, "stalled_cycles_frontend", "INSTRUCTION_PIPE_STALL:IC_STALL_DQ_EMPTY"},
		{PMREGS_AMD_ZEN_ZEN1, "stalled_cycles_backend", "INSTRUCTION_PIPE_STALL:IC_STALL_BACK_PRESSURE"},
		{PMREGS_AMD_ZEN_ZEN2, "stalled_cycles_frontend", "UOPS_QUEUE_EMPTY"},
		{PMREGS_AMD_ZEN_ZEN3, "stalled_cycles_frontend", "UOPS_QUEUE_EMPTY"},
		{PMREGS_AMD_ZEN_ZEN4, "stalled_cycles_frontend", "OPS_QUEUE_EMPTY"},
		{PMREGS_AMD_ZEN_ZEN4, "ref_cycles", "P0_FREQ_CYCLES_NOT_IN_HALT:P0_FREQ_CYCLES"},
	};
	size_t g, i, k, n;
	int rows_checked = 0;
	for (g = 0; g < sizeof gens / sizeof gens[0]; g++) {
		const struct pmregs_amd_generic_events_row *rows = pmregs_amd_generic_events(gens[g].zen, &n);
		pfm_terminate();
		setenv("LIBPFM_FORCE_PMU", gens[g].pmu, 1);
		if (pfm_initialize() != PFM_SUCCESS || rows == NULL) {
			failures++;
			continue;
		}
		for (i = 0; i < n; i++, rows_checked++) {
			checks++;
			if (!pmu_has_code(gens[g].pmu, rows[i].event_select)) {
				failures++;
				fprintf(stderr, "%s: generic %s event %#x is not in libpfm4's table\n", gens[g].pmu,
					rows[i].name, rows[i].event_select);
			}
		}
		checks++;
		if (gens[g].zen != PMREGS_AMD_ZEN_ZEN1 && pmu_has_code(gens[g].pmu, 0x87)) {
			failures++;
			fprintf(stderr, "%s: libpfm4 has event 0x87\n", gens[g].pmu);
		}
		for (k = 0; k < sizeof named / sizeof named[0]; k++) {
			const struct pmregs_amd_generic_events_row *r;
			char spec[256];
			if (named[k].zen != gens[g].zen)
				continue;
			r = pmregs_amd_generic_events_find(gens[g].zen, named[k].row);
			if (r == NULL) {
				failures++;
				checks++;
				continue;
			}
			snprintf(spec, sizeof spec, "%s::%s", gens[g].pmu, named[k].pfm);
			compare(spec, PFM_PLM0 | PFM_PLM3, pack(r->event_select, r->umask, 1, 1));
		}
	}
	return rows_checked;
}

int main(void)
{
	static const char *const pmus[] = {
		"amd64_fam17h_zen1", "amd64_fam17h_zen2", "amd64_fam19h_zen3", "amd64_fam19h_zen4", "amd64_fam17h",
	};
	size_t i;
	int events = 0, n, l3;
	for (i = 0; i < sizeof pmus / sizeof pmus[0]; i++) {
		n = core_pmu(pmus[i]);
		printf("amd_pfm: %s: %d events\n", pmus[i], n);
		if (n < 50) {
			failures++;
			fprintf(stderr, "%s: only %d events\n", pmus[i], n);
		}
		events += n;
	}
	printf("amd_pfm: %d core events have an event number above 0xFF\n", wide_events);
	if (wide_events < 1)
		failures++;
	n = generic_maps();
	printf("amd_pfm: %d rows of Linux's Zen 1, 2, 3 and 4 generic event maps found in libpfm4\n", n);
	if (n < 30)
		failures++;
	l3 = l3_pmu();
	printf("amd_pfm: amd64_fam19h_zen3_l3: %d events (D15 pinned)\n", l3);
	if (l3 < 1)
		failures++;
	pfm_terminate();
	printf("amd_pfm: %d events, %d encodings compared with libpfm4, %d differ\n", events + l3, checks, failures);
	return failures != 0;
}
