/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_counter.h - counter arithmetic and time conversion.
 *
 * Accumulating wrapping counters, choosing the nearest power-of-two period,
 * rounding division and nanosecond/tick conversion.
 */
#ifndef PMREGS_BASE_COUNTER_H
#define PMREGS_BASE_COUNTER_H

#include "base_core.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* ---- counter arithmetic ---- */

/*
 * Add to *total the events a `width`-bit counter (1..64) counted since it held
 * *last and now holds `now`, then remember `now`. Correct across one wrap of
 * the counter between two calls, which is what reading it at least once per
 * 2^width events (or on every overflow interrupt) guarantees. Returns the delta.
 */
static inline uint64_t pmregs_accumulate(uint64_t *total, uint64_t *last, uint64_t now, unsigned width)
{
	uint64_t m = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
	uint64_t d = (now - *last) & m;
	*total += d;
	*last = now & m;
	return d;
}

/* x*x < 2^s, exactly, for any 64-bit x and s < 128 (used to compare on a log scale). */
static inline int pmregs_square_below_pow2(uint64_t x, unsigned s)
{
	uint64_t lo = x & 0xFFFFFFFFu, hi = x >> 32;
	uint64_t p0 = lo * lo, p1 = lo * hi, p2 = hi * hi;
	uint64_t low = p0 + (p1 << 33);
	uint64_t high = p2 + (p1 >> 31) + (low < p0 ? 1u : 0u);
	if (s >= 128)
		return 1;
	if (s >= 64)
		return high < ((uint64_t)1 << (s - 64));
	return high == 0 && low < ((uint64_t)1 << s);
}

/*
 * Of the n periods 2^log2s[i] whose ok[i] is nonzero (ok may be null), the index
 * of the one closest to `want` on a log scale (the nearest rate, whichever side),
 * ties to the shorter period; -1 when none is allowed.
 */
static inline int pmregs_nearest_pow2(uint64_t want, const uint8_t *log2s, const uint8_t *ok, unsigned n)
{
	int best = -1;
	unsigned i;
	for (i = 0; i < n; i++) {
		unsigned a, b, s;
		int above;
		if (ok && !ok[i])
			continue;
		if (best < 0) {
			best = (int)i;
			continue;
		}
		a = log2s[best];
		b = log2s[i];
		if (a == b)
			continue;
		/* the geometric mean of the two periods is 2^(s/2): want above it is nearer the longer one */
		s = a + b;
		above = !pmregs_square_below_pow2(want, s) && !(s % 2 == 0 && s / 2 < 64 && want == (uint64_t)1 << (s / 2));
		if (b > a ? above : !above)
			best = (int)i;
	}
	return best;
}

/* x / d rounded to the nearest integer, halves up; d > 0. */
static inline uint64_t pmregs_div_round(uint64_t x, uint64_t d)
{
	uint64_t q = x / d, r = x % d;
	return q + (r >= d - r ? 1u : 0u);
}

/* Nanoseconds to ticks of a `hz` clock (hz <= 18e9), rounded down; and back, rounded to nearest. */
static inline uint64_t pmregs_ns_to_ticks(uint64_t ns, uint64_t hz)
{
	return (ns / 1000000000u) * hz + (ns % 1000000000u) * hz / 1000000000u;
}
/* Ticks of a `hz` clock (hz <= 18e9) to nanoseconds, rounded to nearest: the way back of pmregs_ns_to_ticks(). */
static inline uint64_t pmregs_ticks_to_ns(uint64_t ticks, uint64_t hz)
{
	return (ticks / hz) * 1000000000u + pmregs_div_round((ticks % hz) * 1000000000u, hz);
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_COUNTER_H */
