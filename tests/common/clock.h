/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* Wall-clock seconds for the benchmarks (monotonic, so the differences are meaningful). */
#ifndef PMREGS_TEST_CLOCK_H
#define PMREGS_TEST_CLOCK_H
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
