/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The hand-written base on its own: <pmregs/base_core.h> alone is enough for
 * the error codes and pmregs_strerror(), and every code has its own message;
 * pmregs_schedule() (<pmregs/base_schedule.h>), the search behind every
 * scheduler, against brute force on random small instances.
 *
 * pmregs-test: long-run (make check builds its sanitizer run at -O1: the run, not the build, takes the time)
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/base_core.h>
#include <pmregs/base_schedule.h>
#include "../common/check.h"
#include "../common/brute_passes.h"
#define TEST_SEED 0x5C4ED01E5C4ED01Eu
#include "../common/xorshift.h"

static void strerror_messages(void)
{
	static const int codes[] = { PMREGS_ERANGE, PMREGS_EINVAL, PMREGS_ETRUNC, PMREGS_ETOOLONG,
				     PMREGS_ENOSPC, PMREGS_ENOENT, PMREGS_EBUSY, PMREGS_ENOCOVER };
	const unsigned n = (unsigned)(sizeof codes / sizeof codes[0]);
	unsigned i, j;
	for (i = 0; i < n; i++) {
		const char *m = pmregs_strerror(codes[i]);
		CHECK(m != NULL && m[0] != '\0');
		CHECK(strcmp(m, pmregs_strerror(PMREGS_OK)) != 0);
		CHECK(strcmp(m, pmregs_strerror(-1000)) != 0);
		for (j = 0; j < i; j++)
			CHECK(strcmp(m, pmregs_strerror(codes[j])) != 0);
	}
	CHECK(strcmp(pmregs_strerror(PMREGS_ERANGE), "value does not fit its field") == 0);
	CHECK(strcmp(pmregs_strerror(PMREGS_OK), "success") == 0);
	CHECK(strcmp(pmregs_strerror(3), "success") == 0); /* a count */
	CHECK(strcmp(pmregs_strerror(-9), "unknown error") == 0);
	/* a cover that slack does not allow is not a buffer problem (it was reported as ENOSPC before) */
	CHECK(strcmp(pmregs_strerror(PMREGS_ENOCOVER), pmregs_strerror(PMREGS_ENOSPC)) != 0);
	CHECK(strstr(pmregs_strerror(PMREGS_ENOCOVER), "slack") != NULL);
	CHECK(strcmp(pmregs_strerror(-2147483647 - 1), "unknown error") == 0);
}

/* Every request on one of its options, in a pass below `passes`, no resource twice in a pass. */
static int assignment_ok(uint64_t opts[8][8], const unsigned *nopts, unsigned n,
			 const struct pmregs_sched_assign *as, int passes)
{
	uint64_t used[8] = { 0 };
	unsigned i;
	for (i = 0; i < n; i++) {
		if (as[i].pass < 0 || as[i].pass >= passes || as[i].option < 0 || (unsigned)as[i].option >= nopts[i] ||
		    (used[as[i].pass] & opts[i][as[i].option]) != 0)
			return 0;
		used[as[i].pass] |= opts[i][as[i].option];
	}
	return 1;
}

/* Random requests over few resources, so that passes are shared and conflicts common: 3000, or
   test_scale() of them in the 32-bit and emulated big-endian runs (their point is the word size and
   the byte order). */
static void schedule_vs_brute_force(void)
{
	unsigned t;
	for (t = 0; t < test_scale(3000); t++) {
		uint64_t opts[8][8];
		unsigned nopts[8], n = 1 + (unsigned)(rnd() % 6), nres = 2 + (unsigned)(rnd() % 6), i, o;
		struct pmregs_sched_request req[8];
		struct pmregs_sched_assign as[8];
		int passes, best, minimal = 0;
		unsigned long budget;
		for (i = 0; i < n; i++) {
			nopts[i] = 1 + (unsigned)(rnd() % 3);
			for (o = 0; o < nopts[i]; o++) {
				opts[i][o] = rnd() & (((uint64_t)1 << nres) - 1);
				if (rnd() % 3 == 0)
					opts[i][o] |= 1; /* a resource many requests need */
			}
			req[i].options = opts[i];
			req[i].noptions = nopts[i];
		}
		best = brute_passes((const uint64_t(*)[8])opts, nopts, n);
		passes = pmregs_schedule(req, n, as, 0, &minimal);
		CHECK_EQ(passes, best);
		CHECK(minimal);
		CHECK(pmregs_sched_lower_bound(req, n) <= (unsigned)passes);
		CHECK(assignment_ok(opts, nopts, n, as, passes));
		/* A tiny budget still gives a valid schedule; it claims minimality only when it is minimal. */
		for (budget = 1; budget <= 4; budget++) {
			minimal = -1;
			passes = pmregs_schedule(req, n, as, budget, &minimal);
			CHECK(passes >= best && passes <= (int)n);
			CHECK(assignment_ok(opts, nopts, n, as, passes));
			CHECK(minimal == 0 || (minimal == 1 && passes == best));
		}
	}
}

static void schedule_edges(void)
{
	static const uint64_t one[] = { 1 }, two[] = { 1, 2 };
	struct pmregs_sched_request req[4] = { { one, 1 }, { one, 1 }, { one, 1 }, { two, 2 } };
	struct pmregs_sched_assign as[4];
	int minimal = 0;
	/* three requests that all need resource 0: the bound alone proves 3 passes */
	CHECK_EQ(pmregs_sched_lower_bound(req, 3), 3);
	CHECK_EQ(pmregs_schedule(req, 4, as, 0, &minimal), 3);
	CHECK(minimal);
	CHECK_EQ(as[3].option, 1); /* the fourth takes resource 1 in the first pass */
	CHECK_EQ(as[3].pass, 0);
	CHECK_EQ(pmregs_sched_lower_bound(req, 0), 0);
	CHECK_EQ(pmregs_schedule(req, 0, as, 0, &minimal), 0);
	req[1].noptions = 0;
	CHECK_EQ(pmregs_schedule(req, 2, as, 0, &minimal), PMREGS_EINVAL);
	CHECK_EQ(pmregs_schedule(req, PMREGS_SCHED_MAX + 1, as, 0, &minimal), PMREGS_EINVAL);
}

int main(void)
{
	strerror_messages();
	schedule_vs_brute_force();
	schedule_edges();
	return check_done("test_base");
}
