/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The tests' and benchmarks' random numbers: xorshift64 from a fixed seed, so
 * every run checks the same inputs and a failure can be replayed. A file may
 * choose its own stream with #define TEST_SEED before including this.
 */
#ifndef PMREGS_TEST_XORSHIFT_H
#define PMREGS_TEST_XORSHIFT_H
#include <stdint.h>

#ifndef TEST_SEED
#define TEST_SEED 0x9E3779B97F4A7C15u
#endif

static uint64_t rng = TEST_SEED;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#endif
