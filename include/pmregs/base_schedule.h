/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_schedule.h - scheduling requests onto exclusive resources, in the fewest passes.
 *
 * The exact search behind the generated encoders' schedulers and the
 * pass planner (base_plan.h).
 */
#ifndef PMREGS_BASE_SCHEDULE_H
#define PMREGS_BASE_SCHEDULE_H

#include "base_core.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* ---- scheduling requests onto exclusive resources, in the fewest passes ---- */

/*
 * A request (an event to count, say) can be served by any one of its options;
 * an option takes a set of resources (bit r = resource r: a counter, an ESCR,
 * a selector field), and no resource may serve two requests in the same pass.
 * pmregs_schedule() gives every request a pass and an option so that the
 * number of passes is as small as possible. Family headers build the option
 * lists from their generated tables; this search is the same for all.
 */
#define PMREGS_SCHED_MAX 64 /* requests per call */

struct pmregs_sched_request {
	const uint64_t *options; /* resource set of each option */
	size_t noptions;         /* (a size_t: the struct has no padding) */
};

struct pmregs_sched_assign {
	int pass;   /* 0-based pass that serves the request */
	int option; /* index into the request's options */
};

/*
 * A lower bound on the passes of any schedule of the n requests: requests
 * whose every option takes one same resource need a pass each (at least 1
 * when n > 0). Requests without an option are left out.
 */
static inline unsigned pmregs_sched_lower_bound(const struct pmregs_sched_request *req, unsigned n)
{
	unsigned cnt[64] = { 0 }, i, o, lb = n ? 1u : 0u;
	for (i = 0; i < n; i++) {
		uint64_t common = ~(uint64_t)0;
		if (req[i].noptions == 0)
			continue;
		for (o = 0; o < req[i].noptions; o++)
			common &= req[i].options[o];
		for (; common; common &= common - 1) {
			unsigned r = pmregs_ctz64(common);
			if (++cnt[r] > lb)
				lb = cnt[r];
		}
	}
	return lb;
}

/*
 * Assign out[i] for each of the n requests. Returns the number of passes
 * (0 when n is 0), or PMREGS_EINVAL when n > PMREGS_SCHED_MAX or a request
 * has no option. The search is exact: pass counts are tried in increasing
 * number from pmregs_sched_lower_bound(), and each count is searched
 * exhaustively unless `budget` steps (0 = a default of one million) run out
 * first (a result is returned whatever the budget: n passes always fit);
 * *minimal (may be null) tells whether the result was proved to need the
 * fewest passes. This is the one search behind every scheduler: the
 * encoders' generated _schedule() functions and pmregs_pm_plan().
 */
static inline int pmregs_schedule(const struct pmregs_sched_request *req, unsigned n,
				  struct pmregs_sched_assign *out, unsigned long budget, int *minimal)
{
	uint64_t used[PMREGS_SCHED_MAX];
	uint8_t fresh[PMREGS_SCHED_MAX]; /* fresh[i]: 1 + the highest pass of requests 0..i-1, 0 for none */
	unsigned k, i;
	int proved = 1;
	if (n > PMREGS_SCHED_MAX)
		return PMREGS_EINVAL;
	if (n == 0) {
		if (minimal)
			*minimal = 1;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (req[i].noptions == 0)
			return PMREGS_EINVAL;
	if (budget == 0)
		budget = 1000000ul;
	for (k = pmregs_sched_lower_bound(req, n); k <= n; k++) {
		unsigned long steps = 0;
		unsigned p;
		int found = 0;
		for (p = 0; p < k; p++)
			used[p] = 0;
		/* Depth-first over requests; out[] is the stack: (pass, option) tried last. */
		i = 0;
		fresh[0] = 0;
		out[0].pass = 0;
		out[0].option = -1;
		while (steps++ < budget) {
			/* symmetry breaking: request i goes to a pass in use before it, or the first unused one */
			int placed = 0;
			while (out[i].pass < (int)k && out[i].pass <= (int)fresh[i]) {
				const struct pmregs_sched_request *r = &req[i];
				unsigned o = (unsigned)(out[i].option + 1);
				for (; o < r->noptions; o++) {
					if ((used[out[i].pass] & r->options[o]) == 0)
						break;
				}
				if (o < r->noptions) {
					out[i].option = (int)o;
					used[out[i].pass] |= r->options[o];
					placed = 1;
					break;
				}
				out[i].pass++;
				out[i].option = -1;
			}
			if (placed) {
				if (++i == n) {
					found = 1;
					break;
				}
				fresh[i] = fresh[i - 1] > out[i - 1].pass ? fresh[i - 1] : (uint8_t)(out[i - 1].pass + 1);
				out[i].pass = 0;
				out[i].option = -1;
				continue;
			}
			/* nothing fits request i: undo request i-1's choice and try its next one */
			if (i == 0)
				break;
			i--;
			used[out[i].pass] &= ~req[i].options[out[i].option];
		}
		if (found) {
			if (minimal)
				*minimal = proved;
			return (int)k;
		}
		if (steps >= budget)
			proved = 0;
	}
	/* the budget ran out even for n passes, which always fit: one request per pass */
	for (i = 0; i < n; i++) {
		out[i].pass = (int)i;
		out[i].option = 0;
	}
	if (minimal)
		*minimal = proved;
	return (int)n;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_SCHEDULE_H */
