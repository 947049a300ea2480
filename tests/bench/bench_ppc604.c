/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * PowerPC 604/604e PM API encoder and decoder speed (`make bench`), side by side
 * with naive versions written here from the reference's tables: a brute-force
 * placement (every event on every counter in every pass, fewest passes first)
 * and a decoder that shifts each selector out and scans the event table.
 * Numbers depend on the machine; the ratios are the point. Never a pass/fail test.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
#include <pmregs/ppc604_tools.h> /* pmregs_ppc604_pm_decode(), pmregs_ppc604_events() */

#define NREQ 20000

#define TEST_SEED 0x604E604E604E604Eu
#include "../common/xorshift.h"

#include "../common/clock.h"

static struct pmregs_ppc604_pm_request req[NREQ];
static struct pmregs_pm_work work;
static struct pmregs_ppc604_pm_encoding enc;
static uint32_t regs[NREQ][2];

/* naive: the fewest passes by trying every (pass, counter) for every event */
static int naive_fits(const unsigned *m, unsigned n, unsigned k, unsigned *used, unsigned i, unsigned *pc)
{
	unsigned p, c;
	if (i == n)
		return 1;
	for (p = 0; p < k; p++)
		for (c = 0; c < 4; c++)
			if (((m[i] >> c) & 1u) && !((used[p] >> c) & 1u)) {
				used[p] |= 1u << c;
				pc[i] = p * 4 + c;
				if (naive_fits(m, n, k, used, i + 1, pc))
					return 1;
				used[p] &= ~(1u << c);
			}
	return 0;
}

static unsigned naive_encode(const struct pmregs_ppc604_pm_request *r, uint32_t out[][2])
{
	const struct pmregs_ppc604_events_row *e = pmregs_ppc604_events(0);
	unsigned m[64], pc[64], used[64], k, i;
	for (i = 0; i < r->nevents; i++)
		m[i] = e[r->events[i]].counters & ((e[r->events[i]].models >> r->model) & 1u ? 0xFu : 0u);
	for (k = 1; k <= r->nevents; k++) {
		for (i = 0; i < k; i++)
			used[i] = 0;
		if (naive_fits(m, r->nevents, k, used, 0, pc))
			break;
	}
	for (i = 0; i < k; i++)
		out[i][0] = out[i][1] = 0;
	for (i = 0; i < r->nevents; i++) {
		unsigned p = pc[i] / 4, c = pc[i] % 4, code = e[r->events[i]].code;
		if (c == 0)
			out[p][0] |= code << 6;
		else if (c == 1)
			out[p][0] |= code;
		else if (c == 2)
			out[p][1] |= code << 27;
		else
			out[p][1] |= code << 22;
	}
	return k;
}

static unsigned naive_decode(const uint32_t *r, int *ev)
{
	const struct pmregs_ppc604_events_row *e = pmregs_ppc604_events(0);
	unsigned c, i, n = 0;
	uint32_t sel[4];
	sel[0] = (r[0] >> 6) & 0x1F;
	sel[1] = r[0] & 0x1F;
	sel[2] = r[1] >> 27;
	sel[3] = (r[1] >> 22) & 0x1F;
	for (c = 0; c < 4; c++) {
		ev[c] = -1;
		for (i = 1; i < PMREGS_PPC604_EVENTS_COUNT; i++)
			if (e[i].code == sel[c] && ((e[i].counters >> c) & 1u)) {
				ev[c] = (int)i;
				n++;
				break;
			}
	}
	return n;
}

int main(void)
{
	unsigned i, passes_gen = 0, passes_naive = 0, sink = 0;
	double t0, t_gen, t_naive, t_dec, t_ndec;
	static uint32_t tmp[64][2];
	for (i = 0; i < NREQ; i++) {
		struct pmregs_ppc604_pm_request *r = &req[i];
		pmregs_ppc604_pm_request_init(r, PMREGS_PPC604_CPU_PPC604E);
		while (r->nevents < 6) {
			uint16_t ev = (uint16_t)(1 + rnd() % (PMREGS_PPC604_PM_NEVENTS - 1));
			unsigned j;
			for (j = 0; j < r->nevents && r->events[j] != ev; j++)
				;
			if (j == r->nevents)
				r->events[r->nevents++] = ev;
		}
	}
	t0 = now();
	for (i = 0; i < NREQ; i++) {
		int k = pmregs_ppc604_pm_encode(&req[i], &work, &enc);
		passes_gen += (unsigned)k;
		regs[i][0] = enc.pass[0].regs[0];
		regs[i][1] = enc.pass[0].regs[1];
	}
	t_gen = now() - t0;
	t0 = now();
	for (i = 0; i < NREQ; i++)
		passes_naive += naive_encode(&req[i], tmp);
	t_naive = now() - t0;
	t0 = now();
	for (i = 0; i < NREQ * 10; i++) {
		struct pmregs_ppc604_pm_decoded d;
		sink += (unsigned)pmregs_ppc604_pm_decode(PMREGS_PPC604_CPU_PPC604E, regs[i % NREQ], &d);
	}
	t_dec = now() - t0;
	t0 = now();
	for (i = 0; i < NREQ * 10; i++) {
		int ev[4];
		sink += naive_decode(regs[i % NREQ], ev);
	}
	t_ndec = now() - t0;
	printf("ppc604 PM API, %u random 6-event requests on a 604e (passes: generated %u, brute force %u)\n",
	       NREQ, passes_gen, passes_naive);
	printf("  %-44s %12.0f requests/s\n", "encode, generated (exact, proves minimality)", NREQ / t_gen);
	printf("  %-44s %12.0f requests/s   generated/naive = %.2f\n", "encode, naive brute force", NREQ / t_naive,
	       t_naive / t_gen);
	printf("  %-44s %12.0f decodes/s\n", "decode, generated (option tables)", NREQ * 10 / t_dec);
	printf("  %-44s %12.0f decodes/s    generated/naive = %.2f\n", "decode, naive shift-and-scan", NREQ * 10 / t_ndec,
	       t_ndec / t_dec);
	return sink == 0xFFFFFFFFu;
}
