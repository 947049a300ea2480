/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Cross-check of the architectural event table (SDM3 Table 18-1, spec/x86.yaml) and of the
 * PERFEVTSEL packer against libpfm4, an independent encoder, with its ix86arch PMU forced
 * (no matching CPU needed). libpfm4 sets EN (22) and INT (20) in every encoding; u/k set USR/OS.
 */
#define _POSIX_C_SOURCE 200112L
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/x86_tools.h>

/* libpfm4's names for the architectural events, keyed by CPUID.0AH:EBX bit (SDM3 Table 18-1 order). */
static const char *const pfm_names[7] = {
	"UNHALTED_CORE_CYCLES", "INSTRUCTION_RETIRED", "UNHALTED_REFERENCE_CYCLES", "LLC_REFERENCES",
	"LLC_MISSES", "BRANCH_INSTRUCTIONS_RETIRED", "MISPREDICTED_BRANCH_RETIRED",
};

static int encode(const char *spec, uint64_t *out)
{
	pfm_pmu_encode_arg_t arg;
	int ret;
	memset(&arg, 0, sizeof arg);
	arg.size = sizeof arg;
	ret = pfm_get_os_event_encoding(spec, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (ret != PFM_SUCCESS || arg.count < 1) {
		fprintf(stderr, "libpfm cannot encode %s: %s\n", spec, pfm_strerror(ret));
		return -1;
	}
	*out = arg.codes[0];
	free(arg.codes);
	return 0;
}

int main(void)
{
	size_t n, i;
	int failures = 0, checks = 0;
	const struct pmregs_x86_arch_events_row *rows = pmregs_x86_arch_events(&n);
	setenv("LIBPFM_FORCE_PMU", "ix86arch", 1);
	if (pfm_initialize() != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize failed\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		struct { const char *mods; unsigned usr, os, edge, inv, cmask; } cases[] = {
			{"", 1, 1, 0, 0, 0}, {":u=1:k=0", 1, 0, 0, 0, 0}, {":u=0:k=1", 0, 1, 0, 0, 0},
			{":c=2:i=1:e=1", 1, 1, 1, 1, 2}, {":c=255", 1, 1, 0, 0, 255},
		};
		size_t c;
		if (rows[i].ebx_bit >= 7) {
			failures++;
			continue;
		}
		for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			char spec[128];
			uint64_t got = 0, want;
			struct pmregs_x86_perfevtsel_fields f;
			snprintf(spec, sizeof spec, "ix86arch::%s%s", pfm_names[rows[i].ebx_bit], cases[c].mods);
			memset(&f, 0, sizeof f);
			f.event_select = rows[i].event_select;
			f.umask = rows[i].umask;
			f.usr = (uint8_t)cases[c].usr;
			f.os = (uint8_t)cases[c].os;
			f.edge = (uint8_t)cases[c].edge;
			f.inv = (uint8_t)cases[c].inv;
			f.cmask = (uint8_t)cases[c].cmask;
			f.int_en = 1;
			f.en = 1;
			want = pmregs_x86_perfevtsel_pack(&f);
			checks++;
			if (encode(spec, &got) != 0 || got != want) {
				failures++;
				fprintf(stderr, "%s: libpfm %#llx, pmregs %#llx\n", spec, (unsigned long long)got,
					(unsigned long long)want);
			}
		}
	}
	printf("pfm_x86: %d encodings compared with libpfm4, %d differ\n", checks, failures);
	return failures != 0 || checks != 35;
}
