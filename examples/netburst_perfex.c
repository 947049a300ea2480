/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * netburst_perfex: program a Pentium 4 event from names, and read register
 * values back as names.
 *
 * perfctr's perfex tool takes a NetBurst event as CCCR/ESCR@PMC, for example
 *     perfex -e 0x00039000/0x04000204@0x8000000C some_program
 * which counts retired, non-bogus, untagged instructions at user level on
 * IQ_COUNTER0 with fast RDPMC. This program builds exactly that string from
 * the event and mask-bit names, then decodes it (and a second example, the
 * IOQ_allocation ESCR 0x0600C205 / CCCR 0x0003D000) back into names. Both
 * come from H. Yoshioka's note on Xeon/Pentium 4 counters (2002).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/netburst_tools.h>

typedef struct pmregs_netburst_event_request req_t;
typedef struct pmregs_netburst_event_encoding enc_t;

/* The ESCR a CCCR value selects for a counter: the one wired to it with that select value. */
static int escr_of(unsigned counter, uint64_t cccr)
{
	size_t i, n, k;
	const struct pmregs_netburst_register *regs = pmregs_netburst_registers(&n);
	unsigned sel = (unsigned)pmregs_netburst_cccr_escr_select_get(cccr);
	for (i = 0; i < n; i++) {
		if (!(regs[i].has & PMREGS_NETBURST_HAS_ESCR_SELECT) || regs[i].escr_select != sel)
			continue;
		for (k = 0; k < regs[i].counters_count; k++)
			if (regs[regs[i].counters[k]].counter == counter)
				return (int)i;
	}
	return PMREGS_ENOENT;
}

/* Read "CCCR/ESCR@PMC" back: which registers, which event, which mask bits. */
static int describe(const char *perfex)
{
	char *end;
	unsigned long long cccr, escr, pmc;
	enc_t in;
	req_t tmpl, d;
	int counter, e;
	char line[256];
	const struct pmregs_netburst_register *regs = pmregs_netburst_registers(0);
	cccr = strtoull(perfex, &end, 0);
	if (*end != '/')
		return PMREGS_EINVAL;
	escr = strtoull(end + 1, &end, 0);
	if (*end != '@')
		return PMREGS_EINVAL;
	pmc = strtoull(end + 1, &end, 0);
	counter = (int)pmregs_netburst_rdpmc_ecx_index_get((uint32_t)pmc);
	if (*end || counter >= PMREGS_NETBURST_COUNTERS)
		return PMREGS_EINVAL;
	e = escr_of((unsigned)counter, cccr);
	if (e < 0)
		return e;
	printf("%s\n", perfex);
	printf("  counter  %-18s MSR %#x, RDPMC %#llx%s\n", regs[counter].title, (unsigned)regs[counter].msr, pmc,
	       pmregs_netburst_rdpmc_ecx_fast_get((uint32_t)pmc) ? " (fast: low 32 bits)" : "");
	pmregs_netburst_cccr_snprint(line, sizeof line, cccr);
	printf("  CCCR     %-18s MSR %#x = %#010llx  %s\n", regs[regs[counter].cccr].title,
	       (unsigned)regs[regs[counter].cccr].msr, cccr, line);
	pmregs_netburst_escr_snprint(line, sizeof line, escr);
	printf("  ESCR     %-18s MSR %#x = %#010llx  %s\n", regs[e].title, (unsigned)regs[e].msr, escr, line);
	memset(&in, 0, sizeof in);
	in.escr_msr = regs[e].msr;
	in.escr_value = escr;
	in.cccr_msr = regs[regs[counter].cccr].msr;
	in.cccr_value = cccr;
	pmregs_netburst_event_request_init(&tmpl, 0);
	if (pmregs_netburst_event_decode(&in, &tmpl, &d) != PMREGS_OK) {
		printf("  event    (none of the %d events)\n", PMREGS_NETBURST_EVENTS_COUNT);
		return PMREGS_ENOENT;
	}
	pmregs_netburst_event_snprint(line, sizeof line, &d);
	printf("  event    %s%s%s%s%s\n", line, d.t0_os ? " T0_OS" : "", d.t0_usr ? " T0_USR" : "",
	       d.t1_os ? " T1_OS" : "", d.t1_usr ? " T1_USR" : "");
	printf("           %s\n", pmregs_netburst_events(0)[d.event].doc);
	return PMREGS_OK;
}

int main(void)
{
	static const char seed[] = "0x00039000/0x04000204@0x8000000C";
	char built[64];
	req_t r;
	enc_t e;
	int rc;

	/* 1. From names: instr_retired, NBOGUSNTAG, user level, IQ_COUNTER0, fast RDPMC. */
	rc = pmregs_netburst_event_parse(&r, "instr_retired:NBOGUSNTAG", 0);
	if (rc != PMREGS_OK)
		return 1;
	r.t0_usr = 1;
	r.counter = PMREGS_NETBURST_EVENT_COUNTER_IQ_COUNTER0;
	r.fast = 1;
	rc = pmregs_netburst_event_encode(&r, &e);
	if (rc != PMREGS_OK) {
		fprintf(stderr, "encode: %s\n", pmregs_netburst_event_check_doc(e.check));
		return 1;
	}
	snprintf(built, sizeof built, "0x%08llX/0x%08llX@0x%08lX", (unsigned long long)e.cccr_value,
		 (unsigned long long)e.escr_value, (unsigned long)e.rdpmc_index);
	printf("perfex -e %s\n", built);
	printf("  wrmsr %#x <- %#llx (ESCR), wrmsr %#x <- %#llx (CCCR), counter MSR %#x\n\n", e.escr_msr,
	       (unsigned long long)e.escr_value, e.cccr_msr, (unsigned long long)e.cccr_value, e.counter_msr);
	if (strcmp(built, seed) != 0) {
		fprintf(stderr, "built %s, the note says %s\n", built, seed);
		return 1;
	}

	/* 2. Back to names. */
	if (describe(seed) != PMREGS_OK)
		return 1;
	printf("\n");
	/* The note's IOQ_allocation example, on MSR_BPU_COUNTER0 ("0x80000000"). */
	if (describe("0x0003D000/0x0600C205@0x80000000") != PMREGS_OK)
		return 1;

	/* 3. What the encoder refuses, and why. */
	rc = pmregs_netburst_event_parse(&r, "b2b_cycles:BIT1", 0);
	if (rc == PMREGS_OK && pmregs_netburst_event_encode(&r, &e) != PMREGS_OK)
		printf("\nb2b_cycles: refused (%s): %s\n", pmregs_netburst_event_check_name(e.check),
		       pmregs_netburst_event_check_doc(e.check));
	return 0;
}
