/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for the PowerPC 604/604e PM API in <pmregs/ppc604.h>, under
 * ASan and UBSan: arbitrary requests to pmregs_ppc604_pm_encode() and arbitrary
 * register values to pmregs_ppc604_pm_decode(), then decode -> encode round trips.
 *
 * Input: a model (the two served and the three not served, plus one past the
 * enum), the request (events wrap a little past the table, periods and ticks
 * anywhere), base register bits, then two register values to decode.
 *   - encode either refuses (PMREGS_EINVAL, and only then) or places every event
 *     it counts on a counter of a pass, and decoding that pass's registers gives
 *     back the event on that counter;
 *   - decode refuses exactly the models not served; what it decodes from one set
 *     of registers, asked for again, is counted in one pass when the scheduler
 *     says its answer is minimal, and decodes to the same events.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-runs: 3000
 * pmregs-fuzz-cmp: off (edges reached in 3000 runs, seeds 1-3: 324 with it and without)
 * pmregs-fuzz-share: pmu
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/ppc604_tools.h> /* pmregs_ppc604_pm_decode() */

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

#include "../common/fuzz_reader.h"

static int served(unsigned m)
{
	return m == PMREGS_PPC604_CPU_PPC604 || m == PMREGS_PPC604_CPU_PPC604E;
}

static int pick_event(struct reader *rd)
{
	unsigned x = (unsigned)take(rd, 1);
	if (x >= 0xF0u)
		return PMREGS_PPC604_PM_NONE;
	return (int)(x % (PMREGS_PPC604_PM_NEVENTS + 3));
}

static struct pmregs_pm_work work;
static struct pmregs_ppc604_pm_encoding enc;

/* Every counted event of enc decodes back from its pass's registers on its counter. */
static void check_encoding(const struct pmregs_ppc604_pm_request *rq, int k)
{
	struct pmregs_ppc604_pm_decoded d;
	unsigned j, counted = 0;
	int p;
	REQUIRE(k == enc.npasses && k >= 0 && k <= PMREGS_PPC604_PM_MAX_PASSES);
	for (j = 0; j < rq->nevents; j++) {
		if (enc.where[j].pass == PMREGS_PM_NOT_COUNTED) {
			REQUIRE(enc.counter[j] == PMREGS_PPC604_PM_NONE);
			continue;
		}
		counted++;
		REQUIRE(enc.where[j].pass < k);
		REQUIRE(enc.counter[j] >= 0 && enc.counter[j] < PMREGS_PPC604_PM_NCOUNTERS);
		REQUIRE(enc.pass[enc.where[j].pass].event[enc.counter[j]] == (int16_t)rq->events[j]);
	}
	REQUIRE(counted == enc.counted);
	for (p = 0; p < k; p++) {
		unsigned c;
		REQUIRE(pmregs_ppc604_pm_decode(rq->model, enc.pass[p].regs, &d) >= 0);
		for (c = 0; c < PMREGS_PPC604_PM_NCOUNTERS; c++) {
			int16_t ev = enc.pass[p].event[c];
			if (ev > 0) /* event 0 is "nothing": its selector reads back as idle */
				REQUIRE(d.event[c] == ev);
		}
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size)
{
	struct reader rd;
	struct pmregs_ppc604_pm_request rq;
	struct pmregs_ppc604_pm_decoded d, d2;
	uint32_t regs[PMREGS_PPC604_PM_NSLOTS];
	unsigned m, j, s, c;
	int k;

	rd.d = data;
	rd.n = size;
	rd.pos = 0;
	m = (unsigned)(take(&rd, 1) % 6);

	/* ---- an arbitrary request ---- */
	pmregs_ppc604_pm_request_init(&rq, (enum pmregs_ppc604_cpu)m);
	rq.nevents = (unsigned)(take(&rd, 1) % (PMREGS_PPC604_PM_MAX_EVENTS + 2));
	for (j = 0; j < rq.nevents && j < PMREGS_PPC604_PM_MAX_EVENTS; j++) {
		int ev = pick_event(&rd);
		rq.events[j] = (uint16_t)(ev < 0 ? 1 : ev);
	}
	rq.correlate = pick_event(&rd);
	rq.sample = pick_event(&rd);
	rq.sample_period = take(&rd, 4);
	rq.trigger = pick_event(&rd);
	rq.trigger_count = take(&rd, 4);
	rq.threshold_on = (int)(take(&rd, 1) & 1);
	rq.threshold_cycles = (uint32_t)take(&rd, 2);
	rq.interval_ticks = take(&rd, 3);
	rq.interval_interrupt = (int)(take(&rd, 1) & 1);
	for (s = 0; s < PMREGS_PPC604_PM_NSLOTS; s++)
		rq.base[s] = (uint32_t)take(&rd, 4);
	k = pmregs_ppc604_pm_encode(&rq, &work, &enc);
	if (k < 0) {
		REQUIRE(k == PMREGS_EINVAL);
	} else {
		REQUIRE(served(m) && rq.nevents <= PMREGS_PPC604_PM_MAX_EVENTS);
		check_encoding(&rq, k);
	}

	/* ---- arbitrary registers: decode, ask for the same events, decode again ---- */
	for (s = 0; s < PMREGS_PPC604_PM_NSLOTS; s++)
		regs[s] = (uint32_t)take(&rd, 4);
	k = pmregs_ppc604_pm_decode((enum pmregs_ppc604_cpu)m, regs, &d);
	if (!served(m)) {
		REQUIRE(k == PMREGS_EINVAL);
		return 0;
	}
	REQUIRE(k >= 0 && (unsigned)k == d.nevents && d.nevents <= PMREGS_PPC604_PM_NCOUNTERS);
	for (c = 0; c < PMREGS_PPC604_PM_NCOUNTERS; c++)
		REQUIRE(d.event[c] == PMREGS_PPC604_PM_NONE || d.event[c] == PMREGS_ENOENT ||
			(d.event[c] > 0 && d.event[c] < PMREGS_PPC604_PM_NEVENTS));
	pmregs_ppc604_pm_request_init(&rq, (enum pmregs_ppc604_cpu)m);
	for (j = 0; j < d.nevents; j++) {
		unsigned i;
		for (i = 0; i < rq.nevents && rq.events[i] != d.events[j]; i++)
			;
		if (i == rq.nevents) /* the same event on two counters is asked for once */
			rq.events[rq.nevents++] = d.events[j];
	}
	k = pmregs_ppc604_pm_encode(&rq, &work, &enc);
	REQUIRE(k >= 0);
	check_encoding(&rq, k);
	REQUIRE(enc.counted == rq.nevents);
	if (enc.minimal)
		REQUIRE(k <= 1);
	if (k == 1) {
		REQUIRE(pmregs_ppc604_pm_decode((enum pmregs_ppc604_cpu)m, enc.pass[0].regs, &d2) >= 0);
		for (j = 0; j < rq.nevents; j++) {
			unsigned i;
			for (i = 0; i < d2.nevents && d2.events[i] != rq.events[j]; i++)
				;
			REQUIRE(i < d2.nevents);
		}
	}
	return 0;
}
