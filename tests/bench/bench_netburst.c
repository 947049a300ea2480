/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * NetBurst encoder costs (`make bench`), measured side by side in one run:
 * the generated encoder (every check, automatic placement) against a
 * hand-written shift-and-mask encoding of the same ESCR/CCCR values with no
 * checks at all; the decoder (which re-encodes candidates) against the
 * encoder; name lookups; and the exact scheduler against a brute-force search
 * of the same small lists. Numbers depend on the machine; the ratios are the
 * point. Never a pass/fail test.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <pmregs/netburst_tools.h> /* pmregs_netburst_event_decode() */

#define N 20000

#define TEST_SEED 0x9E3779B97F4A7C15u
#include "../common/xorshift.h"

#include "../common/clock.h"

typedef struct pmregs_netburst_event_request req_t;
typedef struct pmregs_netburst_event_encoding enc_t;

static req_t reqs[N];
static enc_t encs[N];
static volatile uint64_t sink;

/* The fixed-function baseline: what a driver hard-codes for one known event on one known
 * counter (SDM Table 18-63, Fig 18-47/18-48), without validating anything. */
static void hand_encode(const req_t *r, uint64_t *escr, uint64_t *cccr)
{
	const struct pmregs_netburst_events_row *ev = &pmregs_netburst_events(0)[r->event];
	*escr = ((uint64_t)ev->event_select << 25) | ((uint64_t)r->mask << 9) | ((uint64_t)r->tag_value << 5) |
		((uint64_t)r->tag_enable << 4) | ((uint64_t)r->t0_os << 3) | ((uint64_t)r->t0_usr << 2) |
		((uint64_t)r->t1_os << 1) | r->t1_usr;
	*cccr = ((uint64_t)r->enable << 12) | ((uint64_t)ev->cccr_select << 13) | ((uint64_t)r->active_thread << 16) |
		((uint64_t)r->compare << 18) | ((uint64_t)r->complement << 19) | ((uint64_t)r->threshold << 20) |
		((uint64_t)r->edge << 24) | ((uint64_t)r->ovf_pmi_t0 << 26);
}

#include "../common/brute_passes.h"

int main(void)
{
	size_t nev, i;
	const struct pmregs_netburst_events_row *t = pmregs_netburst_events(&nev);
	double t0, t_enc, t_hand, t_dec, t_find, t_sched, t_brute;
	unsigned rep, lists = 2000;
	static struct pmregs_netburst_event_work work;
	req_t tmpl, d;

	for (i = 0; i < N; i++) {
		unsigned e;
		do
			e = (unsigned)(rnd() % nev);
		while (t[e].select_conflict);
		pmregs_netburst_event_request_init(&reqs[i], e);
		reqs[i].mask = (uint16_t)(t[e].mask & rnd());
		if (!reqs[i].mask) /* an empty mask is refused; measure full encodings */
			reqs[i].mask = (uint16_t)(t[e].mask & (~t[e].mask + 1u));
		reqs[i].t0_os = 1;
		reqs[i].t0_usr = (uint8_t)(rnd() & 1);
		reqs[i].compare = 1;
		reqs[i].threshold = (uint8_t)(rnd() & 15);
	}

	/* each measurement is the best of 7 rounds, the two encoders interleaved */
	t_enc = t_hand = 1e9;
	for (rep = 0; rep < 7; rep++) {
		double a;
		t0 = now();
		for (i = 0; i < N; i++) {
			pmregs_netburst_event_encode(&reqs[i], &encs[i]);
			sink += encs[i].escr_value ^ encs[i].cccr_value;
		}
		a = (now() - t0) / N;
		t_enc = a < t_enc ? a : t_enc;
		t0 = now();
		for (i = 0; i < N; i++) {
			uint64_t x, y;
			hand_encode(&reqs[i], &x, &y);
			sink += x ^ y;
		}
		a = (now() - t0) / N;
		t_hand = a < t_hand ? a : t_hand;
	}

	pmregs_netburst_event_request_init(&tmpl, 0);
	d = tmpl;
	t0 = now();
	for (i = 0; i < N / 10; i++) {
		pmregs_netburst_event_decode(&encs[i], &tmpl, &d);
		sink += d.event;
	}
	t_dec = (now() - t0) / (N / 10.0);

	t0 = now();
	for (i = 0; i < N; i++) {
		const struct pmregs_netburst_events_row *row = &t[reqs[i].event];
		int e = pmregs_netburst_event_index(row->title);
		sink += (uint64_t)e + pmregs_netburst_events_mask_find(row, row->mask_names[0].name);
	}
	t_find = (now() - t0) / N;

	/* scheduling lists of 5 requests: the exact search against brute force */
	t_sched = t_brute = 0;
	for (rep = 0; rep < lists; rep++) {
		req_t r[5];
		enc_t out[5];
		uint64_t opts[5][8];
		unsigned nopts[5], k;
		int minimal;
		static const char *const crowded[] = { "instr_retired", "uops_retired", "IOQ_allocation",
			"FSB_data_activity", "execution_event", "branch_retired", "global_power_events" };
		for (k = 0; k < 5; k++) {
			size_t no, j;
			const struct pmregs_netburst_event_option *o;
			unsigned e = (unsigned)pmregs_netburst_event_index(crowded[rnd() % 7]);
			pmregs_netburst_event_request_init(&r[k], e);
			r[k].mask = 1;
			r[k].t0_os = 1;
			o = pmregs_netburst_event_options(e, &no);
			for (j = 0; j < no; j++)
				opts[k][j] = o[j].resources;
			nopts[k] = (unsigned)no;
		}
		t0 = now();
		sink += (uint64_t)pmregs_netburst_event_schedule(r, 5, out, &work, 0, &minimal);
		t_sched += now() - t0;
		t0 = now();
		sink += (uint64_t)brute_passes((const uint64_t(*)[8])opts, nopts, 5);
		t_brute += now() - t0;
	}
	t_sched /= lists;
	t_brute /= lists;

	printf("%-52s %12s %10s\n", "operation", "ns/op", "ratio");
	printf("%-52s %12.1f %10s\n", "hand-written shift-and-mask ESCR+CCCR (no checks)", 1e9 * t_hand, "1.00");
	printf("%-52s %12.1f %9.2fx\n", "pmregs_netburst_event_encode (checks, placement)", 1e9 * t_enc, t_enc / t_hand);
	printf("%-52s %12.1f %9.2fx\n", "pmregs_netburst_event_decode (vs encode)", 1e9 * t_dec, t_dec / t_enc);
	printf("%-52s %12.1f %10s\n", "event_find(title) + events_mask_find(name)", 1e9 * t_find, "");
	printf("%-52s %12.1f %10s\n", "brute-force fewest passes, 5 requests", 1e9 * t_brute, "1.00");
	printf("%-52s %12.1f %9.2fx\n", "pmregs_netburst_event_schedule, same 5 requests", 1e9 * t_sched, t_sched / t_brute);
	return sink == 42 ? 1 : 0;
}
