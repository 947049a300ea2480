/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * itanium_range_restrict: count one kind of instruction inside one function only.
 *
 * A profiler wants the retired br.cloop instructions of the function that lives at
 * [0x4000000000012340, 0x40000000000125A0). On Itanium that takes three pieces:
 *   - IBR pairs that cover the function (instruction address range check, PMC13.ta = 0),
 *   - PMC8 matching br.cloop: major opcode 4 in enco{40:37}, btype 5 in enco{8:6},
 *     B slots only (the libpfm example ita_opcode.c uses the same value),
 *   - a counter on IA64_TAGGED_INST_RETIRED_PMC8, which counts Tag(PMC[8]).
 * The program prints the register values and then, for a few sample instructions,
 * whether the hardware would tag them, using the header's IBRRangeTag and Tag(PMC[8]).
 */
#include <stdio.h>
#include <pmregs/itanium_tools.h>

#define FUNC_START 0x4000000000012340u
#define FUNC_END   0x40000000000125A0u

struct sample {
	uint64_t ip;
	enum pmregs_itanium_syllable itype;
	uint64_t enco; /* the 41-bit instruction encoding */
	const char *what;
};

static const char *type_name(enum pmregs_itanium_syllable t)
{
	static const char *const names[] = {"M", "I", "F", "B"};
	return names[t & 3];
}

int main(void)
{
	struct pmregs_range_pair pairs[PMREGS_ITANIUM_IBR_COVER_PAIRS];
	struct pmregs_itanium_pmc_counting_fields cf = {0};
	uint64_t ibr[8], covered_start, covered_end, pmc8, pmc4, pmc13 = 0;
	uint64_t cloop = ((uint64_t)4 << 37) | ((uint64_t)5 << 6); /* br.cloop with zero operands */
	char text[256];
	int n, i, psr_cpl = 3;
	const struct sample samples[] = {
		{FUNC_START + 0x40, PMREGS_ITANIUM_SYLLABLE_B, cloop | 0x3C0000, "br.cloop inside"},
		{FUNC_END - 0x10, PMREGS_ITANIUM_SYLLABLE_B, cloop | 0x1000, "br.cloop in the last bundle"},
		{FUNC_START + 0x80, PMREGS_ITANIUM_SYLLABLE_B, ((uint64_t)4 << 37) | (0u << 6), "br.cond inside (btype 0)"},
		{FUNC_START + 0x80, PMREGS_ITANIUM_SYLLABLE_M, cloop, "same bits in an M slot"},
		{FUNC_START - 0x10, PMREGS_ITANIUM_SYLLABLE_B, cloop, "br.cloop just before"},
		{FUNC_END, PMREGS_ITANIUM_SYLLABLE_B, cloop, "br.cloop just after"},
		{0x2000000000012380u, PMREGS_ITANIUM_SYLLABLE_B, cloop, "br.cloop, same offset, region 1"},
	};
	const struct pmregs_itanium_events_row *ev = pmregs_itanium_events_find("ia64_tagged_inst_retired_pmc8");

	/* 1. the code range: at most four IBR pairs; an exact cover would need more */
	n = pmregs_itanium_ibr_cover(FUNC_START, FUNC_END, 0, pairs, &covered_start, &covered_end);
	printf("exact cover with four IBR pairs: %s\n", n == PMREGS_ENOCOVER ? "impossible" : "possible");
	n = pmregs_itanium_ibr_cover(FUNC_START, FUNC_END, 256, pairs, &covered_start, &covered_end);
	if (n < 0 || !ev) {
		fprintf(stderr, "cannot restrict to the range: %s\n", pmregs_strerror(n));
		return 1;
	}
	printf("count %s for br.cloop in [%#llx, %#llx)\n", ev->title, (unsigned long long)FUNC_START,
	       (unsigned long long)FUNC_END);
	printf("allowing 256 extra bytes, %d IBR pair(s) match exactly [%#llx, %#llx): %llu extra bytes\n\n", n,
	       (unsigned long long)covered_start, (unsigned long long)covered_end,
	       (unsigned long long)((FUNC_START - covered_start) + (covered_end - FUNC_END)));
	for (i = 0; i < 4; i++) {
		/* every pair is programmed; entries past n repeat the last one */
		ibr[2 * i] = pairs[i].addr;
		ibr[2 * i + 1] = pmregs_itanium_ibr_ctl_for_pmu(pairs[i].mask, 0xF); /* any level, x = 0 */
	}

	/* 2. the opcode class: PMC8 */
	pmc8 = PMREGS_ITANIUM_PMC8_9_B(1) | PMREGS_ITANIUM_PMC8_9_MATCH((4u << 23) | (5u << 6)) |
	       PMREGS_ITANIUM_PMC8_9_MASK(0x7FFFFFFu & ~((0xFu << 23) | (7u << 6)));

	/* 3. the counter: user level, IA-64 only */
	cf.plm = 8;
	cf.es = ev->es;
	cf.umask = ev->umask;
	cf.ism = PMREGS_ITANIUM_PMC_COUNTING_ISM_IA64_ONLY;
	pmc4 = pmregs_itanium_pmc_counting_pack(&cf);

	printf("registers to program:\n");
	for (i = 0; i < 8; i += 2)
		printf("  IBR[%d]  = 0x%016llx   IBR[%d] = 0x%016llx\n", i, (unsigned long long)ibr[i], i + 1,
		       (unsigned long long)ibr[i + 1]);
	pmregs_itanium_pmc13_snprint(text, sizeof text, pmc13);
	printf("  PMC[13] = 0x%016llx   %s\n", (unsigned long long)pmc13, text);
	pmregs_itanium_pmc8_9_snprint(text, sizeof text, pmc8);
	printf("  PMC[8]  = 0x%016llx   %s\n", (unsigned long long)pmc8, text);
	pmregs_itanium_pmc_counting_snprint(text, sizeof text, pmc4);
	printf("  PMC[4]  = 0x%016llx   %s\n", (unsigned long long)pmc4, text);
	printf("  PSR.db = 0, PSR.is = 0 (IA-64 code), counter PMD[4] (event allowed on PMC4/5: %#x)\n\n",
	       ev->counters);

	printf("%-18s  %-4s  %-13s  %-5s  %-5s  %s\n", "ip", "type", "encoding", "range", "tag8", "sample");
	for (i = 0; i < (int)(sizeof samples / sizeof samples[0]); i++) {
		const struct sample *s = &samples[i];
		int in_range = pmregs_itanium_ibr_range_tag(pmc13, 0, 0, (uint8_t)psr_cpl, ibr, s->ip);
		int tag = pmregs_itanium_tag_pmc8(pmc8, s->itype, s->enco, in_range, 0);
		printf("0x%016llx  %-4s  0x%011llx  %-5s  %-5s  %s\n", (unsigned long long)s->ip, type_name(s->itype),
		       (unsigned long long)s->enco, in_range ? "yes" : "no", tag ? "yes" : "no", s->what);
	}
	return 0;
}
