/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Range restriction: address ranges to IBR/DBR (address, mask) pairs.
 *
 * pmregs_range_cover() (base.h) is checked against a brute-force search that tries
 * every cover bound in a small address space and counts blocks with its own
 * dynamic program. The generated pmregs_itanium_ibr_cover()/dbr_cover() are checked
 * for the properties a profiler relies on: the pairs cover the requested range,
 * add no more than the slack, and match exactly the reported range, judged by
 * IBRRangeTag/DBRRangeMatch (themselves tested against the manual's formulas in
 * test_itanium_match.c) at the boundaries and at random points. The bit rules are
 * those of SEED 6.2.4/6.2.6 (Intel Itanium Processor Reference Manual for Software
 * Development): masked bits 50:0, bits 55:51 and 60:56 tied to bit 50.
 *
 * pmregs-test: long-run (make check builds its sanitizer run at -O1: the run, not the build, takes the time)
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/itanium.h>
#include "../common/check.h"

#define TEST_SEED 0x3C6EF372FE94F82Bu
#include "../common/xorshift.h"

#define BITS_60_51 (((uint64_t)1 << 61) - ((uint64_t)1 << 51))
static uint64_t canonical(uint64_t x)
{
	return (x & ~BITS_60_51) | (((x >> 50) & 1) ? BITS_60_51 : 0);
}
static int is_canonical(uint64_t x)
{
	return canonical(x) == x;
}

/* ---- brute force in a space of U addresses ---- */

#define U 128u
static unsigned tiles[U + 1][U + 1]; /* tiles[a][b]: fewest aligned blocks tiling [a, b); 99 = impossible */

static void build_tiles(unsigned g, unsigned K)
{
	unsigned a, b, k;
	for (b = 0; b <= U; b++) {
		tiles[b][b] = 0;
		for (a = b; a-- > 0;) {
			unsigned best = 99;
			for (k = g; k <= K; k++) {
				unsigned size = 1u << k;
				if (a % size == 0 && a + size <= b && tiles[a + size][b] + 1 < best)
					best = tiles[a + size][b] + 1;
			}
			tiles[a][b] = best;
		}
	}
}

/* least extra addresses, then fewest blocks, over every cover [a, b) of [s, e) in the space */
static int brute(unsigned s, unsigned e, unsigned slack, unsigned pairs, unsigned *extra, unsigned *n)
{
	unsigned a, b;
	int found = 0;
	for (a = 0; a <= s; a++)
		for (b = e; b <= U; b++) {
			unsigned x = (s - a) + (b - e), t = tiles[a][b];
			if (x > slack || t > pairs)
				continue;
			if (!found || x < *extra || (x == *extra && t < *n)) {
				*extra = x;
				*n = t;
				found = 1;
			}
		}
	return found;
}

static void against_brute_force(void)
{
	static const unsigned gs[] = {0, 2}, Ks[] = {3, 7}, slacks[] = {0, 3, 17, 1000};
	unsigned gi, ki, s, e, p, si;
	unsigned long cases = 0, k = 0;
	for (gi = 0; gi < 2; gi++) {
		for (ki = 0; ki < 2; ki++) {
			unsigned g = gs[gi], K = Ks[ki];
			build_tiles(g, K);
			for (s = 0; s < 64; s++)
				for (e = s + 1; e <= 64; e++)
					/* every range; one in test_sparse() under emulation, evenly spread (p = 5: skipped) */
					for (p = k++ % test_sparse() ? 5 : 1; p <= 4; p++)
						for (si = 0; si < 4; si++) {
							struct pmregs_range_pair pr[4];
							uint64_t cs = 12345, ce = 67890;
							unsigned extra = 0, n = 0, j;
							int rc = pmregs_range_cover(s, e, slacks[si], g, K, 0xFFu, p, pr, &cs, &ce);
							int ok = brute(s, e, slacks[si], p, &extra, &n);
							cases++;
							if (!ok) {
								CHECK(rc == PMREGS_ENOCOVER && cs == 12345 && ce == 67890);
								continue;
							}
							CHECK(rc == (int)n);
							CHECK((s - cs) + (ce - e) == extra);
							for (j = 0; rc > 0 && j < (unsigned)rc; j++) {
								uint64_t size = (~pr[j].mask & 0xFFu) + 1;
								CHECK(pr[j].addr % size == 0);
								CHECK(pr[j].addr == (j ? pr[j - 1].addr + ((~pr[j - 1].mask & 0xFFu) + 1) : cs));
							}
						}
		}
	}
	printf("pmregs_range_cover: %lu cases equal to the brute force\n", cases);
}

/* ---- the generated covers ---- */

/* All four pairs are programmed from the cover: the entries past n repeat the last pair. */
static void program(uint64_t regs[8], const struct pmregs_range_pair *p, uint64_t ctl_bits)
{
	int j;
	for (j = 0; j < 4; j++) {
		regs[2 * j] = p[j].addr;
		regs[2 * j + 1] = p[j].mask | ctl_bits;
	}
}

/* Whether the programmed registers select address x, the way the PMU decides it. */
static int ibr_selects(const uint64_t ibr[8], uint64_t x)
{
	return pmregs_itanium_ibr_range_tag(0, 0, 0, (uint8_t)(rnd() & 3), ibr, x);
}
static int dbr_selects(const uint64_t dbr[8], uint64_t x)
{
	return pmregs_itanium_dbr_range_match(dbr, x, 0);
}

static unsigned long props_checked;

/* Check a successful cover of [start, end) (end = 0 means 2^64). */
static void check_cover(int dbr, uint64_t start, uint64_t end, uint64_t slack, const struct pmregs_range_pair *p,
			int n, uint64_t cs, uint64_t ce)
{
	uint64_t regs[8], last = ce - 1, next = cs, extra_lo = start - cs, extra_hi = ce - end;
	unsigned min_log2 = dbr ? PMREGS_ITANIUM_DBR_COVER_GRANULE : PMREGS_ITANIUM_IBR_COVER_GRANULE;
	int j, k;
	int (*selects)(const uint64_t *, uint64_t) = dbr ? dbr_selects : ibr_selects;
	props_checked++;
	CHECK(n >= 1 && n <= 4);
	CHECK(cs <= start);
	CHECK(end == 0 ? ce == 0 : (ce == 0 || ce >= end));
	CHECK(extra_lo <= slack && extra_hi <= slack - extra_lo);
	/* the pairs tile [cs, ce) in order, each an aligned block with the matching mask */
	for (j = 0; j < n; j++) {
		uint64_t size = (~p[j].mask & (((uint64_t)1 << 56) - 1)) + 1;
		CHECK((size & (size - 1)) == 0 && size >= ((uint64_t)1 << min_log2) && size <= ((uint64_t)1 << 50));
		CHECK(p[j].addr == next && p[j].addr % size == 0);
		CHECK(p[j].mask == (PMREGS_ITANIUM_VA_MATCH_CARE_BITS & ~(size - 1)));
		next = p[j].addr + size;
	}
	CHECK(next == ce);
	for (j = n; j < 4; j++)
		CHECK(p[j].addr == p[n - 1].addr && p[j].mask == p[n - 1].mask);
	program(regs, p, dbr ? 0 : (uint64_t)0xF << 56);
	/* boundaries and random points inside are selected ... */
	CHECK(selects(regs, cs) && selects(regs, last) && selects(regs, start) && selects(regs, end - 1));
	for (k = 0; k < 20; k++) {
		uint64_t x = cs + rnd() % (last - cs + 1);
		CHECK(selects(regs, x));
	}
	/* ... and the addresses just outside, and random ones outside, are not */
	if (cs != 0 && is_canonical(cs - 1))
		CHECK(!selects(regs, cs - 1));
	if (ce != 0 && is_canonical(ce))
		CHECK(!selects(regs, ce));
	for (k = 0; k < 20; k++) {
		uint64_t x = canonical(rnd());
		if (x - cs > last - cs)
			CHECK(!selects(regs, x));
		x = ce + (rnd() & 0xFFFF);
		if (ce != 0 && x >= ce && is_canonical(x))
			CHECK(!selects(regs, x));
	}
}

static int cover(int dbr, uint64_t start, uint64_t end, uint64_t slack, struct pmregs_range_pair p[4], uint64_t *cs,
		 uint64_t *ce)
{
	return dbr ? pmregs_itanium_dbr_cover(start, end, slack, p, cs, ce)
		   : pmregs_itanium_ibr_cover(start, end, slack, p, cs, ce);
}

/* 200,000 random ranges; test_scale() of them in the 32-bit and emulated big-endian runs, whose point
   is the word size and the byte order (the brute-force comparison above runs whole but under
   emulation, where it takes one range in test_sparse()) */
static void random_ranges(void)
{
	unsigned long k, ok = 0, nospc = 0;
	for (k = 0; k < test_scale(200000); k++) {
		int dbr = (int)(k & 1), rc, i;
		unsigned lg = (unsigned)(rnd() % 46);
		uint64_t len = (rnd() & (((uint64_t)1 << lg) - 1)) + 1;
		/* a start anywhere in the implemented space, or near the bottom of a region */
		uint64_t start = (rnd() & 3) ? canonical(rnd()) : (rnd() & 0xFFFFF) | (rnd() & ((uint64_t)7 << 61));
		uint64_t end, slack, cs = 1, ce = 2;
		struct pmregs_range_pair p[4];
		if (((start + len - 1) ^ start) >> 50)
			start -= len; /* keep the range inside one implemented half */
		if (!dbr && (rnd() & 1))
			start &= ~(uint64_t)15;
		end = start + len;
		if (!is_canonical(start) || !is_canonical(end - 1) || ((start ^ (end - 1)) >> 50))
			continue;
		switch (rnd() % 4) {
		case 0: slack = 0; break;
		case 1: slack = len / 8; break;
		case 2: slack = len; break;
		default: slack = ~(uint64_t)0; break;
		}
		for (i = 0; i < 4; i++)
			p[i].addr = p[i].mask = 0xDEAD;
		rc = cover(dbr, start, end, slack, p, &cs, &ce);
		if (rc > 0) {
			ok++;
			check_cover(dbr, start, end, slack, p, rc, cs, ce);
		} else {
			nospc++;
			CHECK(rc == PMREGS_ENOCOVER && slack != ~(uint64_t)0);
			CHECK(cs == 1 && ce == 2 && p[0].addr == 0xDEAD && p[3].mask == 0xDEAD); /* nothing written */
			/* the range itself can always be covered by allowing more extra addresses */
			rc = cover(dbr, start, end, ~(uint64_t)0, p, &cs, &ce);
			CHECK(rc > 0);
			if (rc > 0)
				CHECK((start - cs) + (ce - end) > slack);
		}
	}
	printf("ibr_cover/dbr_cover: %lu random ranges covered and checked, %lu refused for their slack\n", ok, nospc);
	CHECK(ok > test_scale(10000) && nospc > test_scale(1000));
}

static void examples(void)
{
	struct pmregs_range_pair p[4];
	uint64_t cs = 0, ce = 0;
	int rc;
	/* a function in region 2, bundle aligned: [0x4000000000001230, 0x4000000000005670) */
	rc = pmregs_itanium_ibr_cover(0x4000000000001230u, 0x4000000000005670u, 0x4000, p, &cs, &ce);
	CHECK(rc > 0);
	if (rc > 0)
		check_cover(0, 0x4000000000001230u, 0x4000000000005670u, 0x4000, p, rc, cs, ce);
	/* an exact cover needs more than four blocks: refused with no slack */
	CHECK(pmregs_itanium_ibr_cover(0x10, 0x1F0, 0, p, &cs, &ce) == PMREGS_ENOCOVER);
	/* ... and with 0x20 spare addresses it is the single block [0, 0x200) */
	rc = pmregs_itanium_ibr_cover(0x10, 0x1F0, 0x20, p, &cs, &ce);
	CHECK(rc == 1 && cs == 0 && ce == 0x200 && p[0].addr == 0 && p[0].mask == 0x00FFFFFFFFFFFE00u);
	/* a pair is (address, mask); the odd register adds plm (59:56) and x = 0 (SDM Table 7-1): IBR[1] for all
	 * privilege levels is 0x0FFFFFFFFFFFFE00, and IBRRangeTag then holds inside the block and not past it */
	{
		uint64_t ibr[8] = {0};
		int i;
		CHECK_EQ(pmregs_itanium_ibr_ctl_for_pmu(p[0].mask, 0xF), UINT64_C(0x0FFFFFFFFFFFFE00));
		CHECK_EQ(pmregs_itanium_ibr_ctl_for_pmu(p[0].mask | ((uint64_t)1 << 63), 0x8), UINT64_C(0x08FFFFFFFFFFFE00));
		for (i = 0; i < 4; i++) {
			ibr[2 * i] = p[i].addr;
			ibr[2 * i + 1] = pmregs_itanium_ibr_ctl_for_pmu(p[i].mask, 0xF);
		}
		CHECK(pmregs_itanium_ibr_range_tag(0, 0, 0, 3, ibr, 0x1F0));
		CHECK(!pmregs_itanium_ibr_range_tag(0, 0, 0, 3, ibr, 0x200));
		/* the DBR odd register: r = w = 0 and plm = 0, so no data breakpoint fires */
		CHECK_EQ(pmregs_itanium_dbr_ctl_for_pmu(p[0].mask | (UINT64_C(0xCF) << 56)), p[0].mask);
	}
	/* a DBR pair can be one byte wide; an IBR pair is at least a 16-byte bundle */
	rc = pmregs_itanium_dbr_cover(0x6000000000000007u, 0x6000000000000008u, 0, p, &cs, &ce);
	CHECK(rc == 1 && cs == 0x6000000000000007u && ce == 0x6000000000000008u && p[0].mask == 0x00FFFFFFFFFFFFFFu);
	rc = pmregs_itanium_ibr_cover(0x6000000000000007u, 0x6000000000000008u, 15, p, &cs, &ce);
	CHECK(rc == 1 && cs == 0x6000000000000000u && ce == 0x6000000000000010u);
	CHECK(pmregs_itanium_ibr_cover(0x6000000000000007u, 0x6000000000000008u, 14, p, &cs, &ce) == PMREGS_ENOCOVER);
	/* across a region boundary: the top of region 0 and the bottom of region 1 are both implemented */
	rc = pmregs_itanium_ibr_cover(((uint64_t)1 << 61) - 32, ((uint64_t)1 << 61) + 32, 0, p, &cs, &ce);
	CHECK(rc == 2 && cs == ((uint64_t)1 << 61) - 32 && ce == ((uint64_t)1 << 61) + 32);
	if (rc > 0)
		check_cover(0, ((uint64_t)1 << 61) - 32, ((uint64_t)1 << 61) + 32, 0, p, rc, cs, ce);
	/* the very top of the address space: end 0 stands for 2^64 */
	rc = pmregs_itanium_dbr_cover(0xFFFFFFFFFFFFF000u, 0, 0, p, &cs, &ce);
	CHECK(rc == 1 && cs == 0xFFFFFFFFFFFFF000u && ce == 0);
	if (rc > 0)
		check_cover(1, 0xFFFFFFFFFFFFF000u, 0, 0, p, rc, cs, ce);
	/* the largest block: a whole implemented half of a region is one pair */
	rc = pmregs_itanium_ibr_cover(0x2000000000000000u, 0x2004000000000000u, 0, p, &cs, &ce);
	CHECK(rc == 1 && p[0].mask == 0x00FC000000000000u);
	/* refused: empty, or reaching addresses no pair can match (bits 60:51 must copy bit 50) */
	memset(p, 0xA5, sizeof p);
	cs = ce = 7;
	CHECK(pmregs_itanium_ibr_cover(0x1000, 0x1000, ~(uint64_t)0, p, &cs, &ce) == PMREGS_EINVAL);
	CHECK(pmregs_itanium_ibr_cover(0x2000, 0x1000, ~(uint64_t)0, p, &cs, &ce) == PMREGS_EINVAL);
	CHECK(pmregs_itanium_ibr_cover(((uint64_t)1 << 50) - 16, ((uint64_t)1 << 50) + 16, ~(uint64_t)0, p, &cs, &ce) ==
	      PMREGS_EINVAL);
	CHECK(pmregs_itanium_dbr_cover((uint64_t)1 << 52, ((uint64_t)1 << 52) + 64, ~(uint64_t)0, p, &cs, &ce) ==
	      PMREGS_EINVAL);
	CHECK(cs == 7 && ce == 7 && p[0].addr == 0xA5A5A5A5A5A5A5A5u);
}

int main(void)
{
	against_brute_force();
	examples();
	random_ranges();
	printf("test_itanium_range: %lu covers checked\n", props_checked);
	return check_done("test_itanium_range");
}
