/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_cover.h - covering an address range with (address, mask) pairs.
 *
 * The search behind the generated range covers of breakpoint-style matchers.
 */
#ifndef PMREGS_BASE_COVER_H
#define PMREGS_BASE_COVER_H

#include "base_core.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* ---- covering an address range with (address, mask) pairs ---- */

/*
 * Breakpoint-style registers match an address when it equals `addr` in every
 * bit whose `mask` bit is 1, so one pair matches an aligned block of 2^k
 * addresses (mask with its k low bits clear). pmregs_range_cover() finds the
 * few blocks that cover a range; a family's generated range cover says how
 * many pairs it has, the block sizes its matcher allows and which bits its
 * mask has, and checks that the hardware can match every block.
 */
struct pmregs_range_pair {
	uint64_t addr; /* first address of the block */
	uint64_t mask; /* 1 = this address bit must match */
};

/*
 * The fewest aligned blocks of at most 2^max_block addresses that tile
 * [a, last] exactly, largest first from a (this greedy tiling is optimal).
 * Returns their number, or limit + 1 as soon as there are more than limit;
 * writes them to out (when not null) with mask = mask_bits less the block bits.
 */
static inline unsigned pmregs_range_tiles(uint64_t a, uint64_t last, unsigned max_block, uint64_t mask_bits,
					  unsigned limit, struct pmregs_range_pair *out)
{
	unsigned n = 0;
	for (;;) {
		uint64_t d = last - a, low;
		unsigned k = d == ~(uint64_t)0 ? 64 : pmregs_log2_floor(d + 1);
		unsigned align = a ? pmregs_ctz64(a) : 64;
		if (align < k)
			k = align;
		if (max_block < k)
			k = max_block;
		low = k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1);
		if (n == limit)
			return limit + 1;
		if (out) {
			out[n].addr = a;
			out[n].mask = mask_bits & ~low;
		}
		n++;
		if (d == low)
			return n;
		a += low + 1;
	}
}

/*
 * Cover [start, end) (end = 0 means 2^64) with at most max_pairs blocks of
 * 2^k addresses, granule <= k <= max_block <= 64, each aligned to its size.
 * The cover may reach below start and above end; of all covers that fit in
 * max_pairs, it takes the one adding the fewest such addresses, then the one
 * with the fewest blocks. It is exact: an optimal cover always starts at
 * start rounded down to some 2^q and ends at end rounded up to some 2^r, and
 * every such pair of bounds is tried.
 * Returns the number of pairs written to pairs[] and the covered range in
 * [*cov_start, *cov_end) (0 = 2^64); PMREGS_EINVAL for an empty range or bad
 * parameters; PMREGS_ENOCOVER when no cover adds at most `slack` addresses
 * (with slack 0: when max_pairs blocks cannot match the range exactly).
 * Nothing is written unless it succeeds.
 */
static inline int pmregs_range_cover(uint64_t start, uint64_t end, uint64_t slack, unsigned granule,
				     unsigned max_block, uint64_t mask_bits, unsigned max_pairs,
				     struct pmregs_range_pair *pairs, uint64_t *cov_start, uint64_t *cov_end)
{
	uint64_t last = end - 1, best_a = 0, best_b = 0, best_extra = 0;
	unsigned q, r, best_n = 0;
	if ((end != 0 && start >= end) || granule > max_block || max_block > 64 || max_pairs == 0)
		return PMREGS_EINVAL;
	for (q = granule; q <= max_block; q++) {
		uint64_t lowq = q >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << q) - 1);
		uint64_t a = start & ~lowq, below = start - a, prev_b = 0;
		if (below > slack || (best_n && below > best_extra))
			break;
		if (q > granule && (start & (lowq >> 1)) == (start & lowq))
			continue; /* start is aligned to 2^q already: the same bounds as for q - 1 */
		for (r = granule; r <= max_block; r++) {
			uint64_t lowr = r >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r) - 1);
			uint64_t b = last | lowr, above = b - last;
			unsigned n;
			if (above > slack - below || (best_n && below + above > best_extra))
				break;
			if (r > granule && b == prev_b)
				continue;
			prev_b = b;
			n = pmregs_range_tiles(a, b, max_block, mask_bits, max_pairs, PMREGS_NULL);
			if (n <= max_pairs &&
			    (best_n == 0 || below + above < best_extra || (below + above == best_extra && n < best_n))) {
				best_n = n;
				best_a = a;
				best_b = b;
				best_extra = below + above;
			}
		}
	}
	if (best_n == 0)
		return PMREGS_ENOCOVER;
	pmregs_range_tiles(best_a, best_b, max_block, mask_bits, max_pairs, pairs);
	*cov_start = best_a;
	*cov_end = best_b + 1;
	return (int)best_n;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_COVER_H */
