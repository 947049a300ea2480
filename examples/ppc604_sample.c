/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * PowerPC 604/604e performance monitor: what a driver would program.
 *
 * 1. Sampling: count I-cache misses, and take a performance-monitor interrupt
 *    every N processor cycles (the cycle counter preloaded with 0x80000000 - N,
 *    its interrupt enable and PMXE set); the handler reads SIA, adds the counter
 *    into a 64-bit total and reloads it.
 *    Then a time-base interrupt every millisecond, and a threshold in cycles,
 *    with what the encoder could only approximate.
 * 2. A list of six events that a 604e cannot count at once: the encoder places
 *    them in two passes, and each pass's MMCR0/MMCR1 is decoded back.
 *
 * This runs anywhere: instead of executing mtspr it prints the writes, and the
 * interrupt handler is fed a simulated counter.
 */
#include <stdio.h>
#include <pmregs/ppc604_tools.h>

static struct pmregs_pm_work work;          /* scratch space for the encoder */
static struct pmregs_ppc604_pm_encoding enc; /* the passes */

static const char *event_name(int e)
{
	return e >= 0 ? pmregs_ppc604_events(0)[e].title : "-";
}

static void mtspr(const char *name, unsigned spr, uint32_t value)
{
	printf("    mtspr %-5s (SPR %u), 0x%08lx\n", name, spr, (unsigned long)value);
}

static void show_pass(enum pmregs_ppc604_cpu model, int p)
{
	char buf[700];
	struct pmregs_ppc604_pm_decoded d;
	const struct pmregs_ppc604_pm_pass *ps = &enc.pass[p];
	unsigned c, i;
	printf("  pass %d:\n", p + 1);
	mtspr("MMCR0", PMREGS_PPC604_SPR_MMCR0, PMREGS_PPC604_MMCR0_FC_MASK); /* freeze while programming */
	for (c = 0; c < PMREGS_PPC604_PM_NCOUNTERS; c++) {
		static const unsigned spr[] = { PMREGS_PPC604_SPR_PMC1, PMREGS_PPC604_SPR_PMC2,
						PMREGS_PPC604_SPR_PMC3, PMREGS_PPC604_SPR_PMC4 };
		static const char *const name[] = { "PMC1", "PMC2", "PMC3", "PMC4" };
		if (c < 2 || model == PMREGS_PPC604_CPU_PPC604E)
			mtspr(name[c], spr[c], (uint32_t)ps->preload[c]);
	}
	if (pmregs_ppc604_pm_slot_present(model, PMREGS_PPC604_PM_SLOT_MMCR1))
		mtspr("MMCR1", PMREGS_PPC604_SPR_MMCR1, ps->regs[PMREGS_PPC604_PM_SLOT_MMCR1]);
	mtspr("MMCR0", PMREGS_PPC604_SPR_MMCR0, ps->regs[PMREGS_PPC604_PM_SLOT_MMCR0]);
	pmregs_ppc604_mmcr0_604_snprint(buf, sizeof buf, ps->regs[PMREGS_PPC604_PM_SLOT_MMCR0]);
	printf("    MMCR0 = %s\n", buf);
	if (pmregs_ppc604_pm_slot_present(model, PMREGS_PPC604_PM_SLOT_MMCR1)) {
		pmregs_ppc604_mmcr1_snprint(buf, sizeof buf, ps->regs[PMREGS_PPC604_PM_SLOT_MMCR1]);
		printf("    MMCR1 = %s\n", buf);
	}
	if (pmregs_ppc604_pm_decode(model, ps->regs, &d) != PMREGS_OK) {
		printf("    (the registers do not decode)\n");
		return;
	}
	printf("    decoded:");
	for (c = 0; c < PMREGS_PPC604_PM_NCOUNTERS; c++)
		printf(" PMC%u=%s", c + 1, event_name(d.event[c]));
	printf("\n    events:");
	for (i = 0; i < d.nevents; i++)
		printf(" %s", event_name(d.events[i]));
	printf("%s%s\n", d.interrupts ? "  (interrupt on overflow)" : "",
	       d.trigger >= 0 ? "  (trigger on PMC1)" : "");
	if (d.threshold_value || d.interval_interrupt)
		printf("    threshold %lu cycles; time-base bit every %llu ticks%s\n", (unsigned long)d.threshold_cycles,
		       (unsigned long long)d.interval_ticks, d.interval_interrupt ? ", interrupting" : "");
}

int main(void)
{
	struct pmregs_ppc604_pm_request rq;
	const uint32_t N = 100000; /* cycles between samples */
	int k, p;
	unsigned i;

	/* ---- 1. sampling on a 604 ---- */
	printf("Sampling I-cache misses every %lu cycles on a 604:\n", (unsigned long)N);
	pmregs_ppc604_pm_request_init(&rq, PMREGS_PPC604_CPU_PPC604);
	rq.sample = PMREGS_PPC604_EVENTS_PROCESSOR_CYCLES;
	rq.sample_period = N;
	rq.events[rq.nevents++] = (uint16_t)pmregs_ppc604_pm_event("icache_misses");
	/* count in problem state only: FCS (the 604's DP) from the caller's base bits */
	rq.base[PMREGS_PPC604_PM_SLOT_MMCR0] = PMREGS_PPC604_MMCR0_FCS_MASK;
	k = pmregs_ppc604_pm_encode(&rq, &work, &enc);
	if (k != 1) {
		printf("unexpected: %d passes\n", k);
		return 1;
	}
	/* I-cache misses only PMC1 can count, so the cycles go on PMC2 (its interrupt bit is PMCnCE) */
	printf("  PMC%d counts cycles from 0x%08lx = 0x80000000 - %lu; PMC%d counts %s\n", enc.sample_counter + 1,
	       (unsigned long)enc.pass[0].preload[enc.sample_counter], (unsigned long)N, enc.counter[0] + 1,
	       event_name(rq.events[0]));
	show_pass(PMREGS_PPC604_CPU_PPC604, 0);
	{
		/*
		 * The handler at 0xF00: SIA holds a sampled address; add what the cycle counter
		 * counted since it was loaded into a 64-bit total, reload it and set ENINT again (the
		 * 604 clears it when it signals the interrupt, pmregs_ppc604_pmxe_after_pmi).
		 * Here a simulated counter stands in for mfspr.
		 */
		const uint64_t preload = enc.pass[0].preload[enc.sample_counter];
		uint64_t cycles = 0, last = preload;
		uint32_t pmc = (uint32_t)preload;
		unsigned pmis = 0, step;
		for (step = 0; step < 5000; step++) {
			pmc += 997; /* cycles pass */
			if (pmregs_ppc604_pmc_is_negative(pmc)) {
				pmregs_accumulate(&cycles, &last, pmc, 32);
				pmc = (uint32_t)preload;
				last = pmc;
				pmis++;
			}
		}
		pmregs_accumulate(&cycles, &last, pmc, 32);
		printf("  simulated: %u interrupts (vector 0x%x), %llu cycles counted in total; after each, PMXE reads %d\n",
		       pmis, PMREGS_PPC604_PMI_VECTOR, (unsigned long long)cycles,
		       pmregs_ppc604_pmxe_after_pmi(PMREGS_PPC604_CPU_PPC604, enc.pass[0].regs[0]));
	}

	/* ---- 1b. a snapshot every millisecond from the time base ---- */
	{
		/* UM604 p.55: the time base ticks at a quarter of the bus clock; say a 66 MHz bus */
		const uint64_t tb_hz = 66000000u / 4u, want_ns = 1000000u;
		printf("\nA time-base interrupt every %llu ns (time base %llu Hz):\n", (unsigned long long)want_ns,
		       (unsigned long long)tb_hz);
		pmregs_ppc604_pm_request_init(&rq, PMREGS_PPC604_CPU_PPC604E);
		rq.interval_ticks = pmregs_ns_to_ticks(want_ns, tb_hz);
		rq.interval_interrupt = 1;
		rq.events[rq.nevents++] = (uint16_t)pmregs_ppc604_pm_event("instructions_completed");
		rq.events[rq.nevents++] = (uint16_t)pmregs_ppc604_pm_event("dcache_load_misses");
		rq.threshold_on = 1;
		rq.threshold_cycles = 10;
		pmregs_ppc604_pm_encode(&rq, &work, &enc);
		printf("  asked %llu ticks, programmed TB[%u]: every %llu ticks = %llu ns%s\n",
		       (unsigned long long)rq.interval_ticks, pmregs_ppc604_tb_bits(0)[enc.interval].tb_bit,
		       (unsigned long long)enc.interval_ticks,
		       (unsigned long long)pmregs_ticks_to_ns(enc.interval_ticks, tb_hz),
		       enc.notes & PMREGS_PPC604_PM_APPROX_INTERVAL ? " (approximated)" : "");
		printf("  asked a threshold of 10 cycles, programmed %lu units = %lu cycles on the 604e%s\n",
		       (unsigned long)enc.threshold_value, (unsigned long)enc.threshold_cycles,
		       enc.notes & PMREGS_PPC604_PM_APPROX_THRESHOLD ? " (approximated)" : "");
		show_pass(PMREGS_PPC604_CPU_PPC604E, 0);
	}

	/* ---- 2. six events, two passes on a 604e ---- */
	{
		static const char *const want[] = { "icache_misses", "dtlb_misses", "data_cache_misses",
						    "itlb_misses", "system_calls", "processor_cycles" };
		printf("\nSix events on a 604e:\n");
		pmregs_ppc604_pm_request_init(&rq, PMREGS_PPC604_CPU_PPC604E);
		for (i = 0; i < sizeof want / sizeof want[0]; i++)
			rq.events[rq.nevents++] = (uint16_t)pmregs_ppc604_pm_event(want[i]);
		k = pmregs_ppc604_pm_encode(&rq, &work, &enc);
		printf("  %d passes (%s the fewest):\n", k, enc.minimal ? "proved" : "not proved");
		for (i = 0; i < rq.nevents; i++)
			printf("    %-20s pass %d on PMC%d\n", event_name(rq.events[i]), enc.where[i].pass + 1, enc.counter[i] + 1);
		for (p = 0; p < k; p++)
			show_pass(PMREGS_PPC604_CPU_PPC604E, p);
	}
	return 0;
}
