/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Naive, bit-by-bit transcriptions of the Itanium match formulas, one loop per
 * "AND b=..", as the manual writes them (Intel Itanium Processor Reference Manual
 * for Software Development, 6.2.4-6.2.6); a conjunction stops at its first false
 * term, as C's && does, and tests its one-bit terms (ta, is, db, the x bits) before
 * the bit-by-bit matches (the random tests spend less time in it). Shared by test_itanium_match.c and
 * tests/bench/bench_itanium.c; they use their own bit positions, not the header's:
 * IBR/DBR odd mask 55:0, plm 59:56, IBR x 63 (SDM Table 7-1); PMC8/9 mask 29:3,
 * match 59:33, b 60, f 61, i 62, m 63 (Fig 6-16); PMC13.ta 0 (Fig 6-15); PMC11.pt 28
 * (Linux perfmon_itanium.h). Only the syllable enum values come from the header.
 * Every function is static inline: each of the two programs uses its own subset of them.
 */
#ifndef TEST_ITANIUM_NAIVE_H
#define TEST_ITANIUM_NAIVE_H

#include <pmregs/itanium.h>

static inline int bit(uint64_t x, unsigned b) { return (int)((x >> b) & 1); }

/* SEED 6.2.4: IBRmatch_i */
static inline int naive_ibr_match(const uint64_t ibr[8], unsigned i, uint64_t ip, unsigned cpl)
{
	uint64_t addr = ibr[2 * i], odd = ibr[2 * i + 1]; /* mask{b} is bit b of the odd register */
	int r = bit(odd, 56 + cpl);                        /* plm[PSR.cpl]: plm is bits 59:56 */
	unsigned b;
	for (b = 0; r && b <= 50; b++)
		r = (bit(addr, b) & bit(odd, b)) == (bit(ip, b) & bit(odd, b));
	for (b = 51; r && b <= 55; b++)
		r = (bit(addr, b) & bit(odd, b)) == (bit(ip, 50) & bit(odd, b));
	for (b = 56; r && b <= 60; b++)
		r = bit(addr, b) == bit(ip, 50);
	for (b = 61; r && b <= 63; b++)
		r = bit(addr, b) == bit(ip, b);
	return r;
}

/* SEED 6.2.4: IBRRangeTag */
static inline int naive_ibr_range_tag(uint64_t pmc13, int is, int db, unsigned cpl, const uint64_t ibr[8], uint64_t ip)
{
	int busy = db || bit(ibr[1], 63) || bit(ibr[3], 63) || bit(ibr[5], 63) || bit(ibr[7], 63);
	return bit(pmc13, 0) || (!is && !busy && (naive_ibr_match(ibr, 0, ip, cpl) || naive_ibr_match(ibr, 1, ip, cpl) ||
						   naive_ibr_match(ibr, 2, ip, cpl) || naive_ibr_match(ibr, 3, ip, cpl)));
}

/* SEED 6.2.5: imatch; itype M, I, F, B enable bits 63, 62, 61, 60 */
static inline int naive_imatch(int itype, uint64_t pmc)
{
	return (itype == PMREGS_ITANIUM_SYLLABLE_M && bit(pmc, 63)) || (itype == PMREGS_ITANIUM_SYLLABLE_I && bit(pmc, 62)) ||
	       (itype == PMREGS_ITANIUM_SYLLABLE_F && bit(pmc, 61)) || (itype == PMREGS_ITANIUM_SYLLABLE_B && bit(pmc, 60));
}

/* SEED 6.2.5: ematch; a mask bit of 1 means "don't care" */
static inline int naive_ematch(uint64_t enco, uint64_t match, uint64_t mask)
{
	int r = 1;
	unsigned b;
	for (b = 27; r && b <= 40; b++)
		r = (bit(enco, b) == bit(match, b - 14)) || bit(mask, b - 14);
	for (b = 0; r && b <= 12; b++)
		r = (bit(enco, b) == bit(match, b)) || bit(mask, b);
	return r;
}

/* SEED 6.2.5: Match(PMC[i]) with match = PMC bits 59:33 and mask = bits 29:3 */
static inline int naive_match(uint64_t pmc, int itype, uint64_t enco)
{
	return naive_imatch(itype, pmc) && naive_ematch(enco, (pmc >> 33) & 0x7FFFFFF, (pmc >> 3) & 0x7FFFFFF);
}

/* SEED 6.2.5: Tag(PMC[8]) and Tag(PMC[9]) */
static inline int naive_tag(uint64_t pmc, int itype, uint64_t enco, int range_tag, int is)
{
	return naive_match(pmc, itype, enco) && range_tag && !is;
}

/* SEED 6.2.6: DBRRangeMatch_i (plm, r and w ignored) */
static inline int naive_dbr_match(const uint64_t dbr[8], unsigned i, uint64_t addr)
{
	uint64_t a = dbr[2 * i], odd = dbr[2 * i + 1];
	int r = 1;
	unsigned b;
	for (b = 0; r && b <= 50; b++)
		r = (bit(a, b) & bit(odd, b)) == (bit(addr, b) & bit(odd, b));
	for (b = 51; r && b <= 55; b++)
		r = (bit(a, b) & bit(odd, b)) == (bit(addr, 50) & bit(odd, b));
	for (b = 56; r && b <= 60; b++)
		r = bit(a, b) == bit(addr, 50);
	for (b = 61; r && b <= 63; b++)
		r = bit(a, b) == bit(addr, b);
	return r;
}

/* SEED 6.2.6: DBRRangeMatch and DBRRangeTag (test_itanium_match.c, which has pair i's DBRRangeMatch_i
 * already, evaluates the same formula without naive_dbr_range_match()) */
static inline int naive_dbr_range_match(const uint64_t dbr[8], uint64_t addr, int db)
{
	return !db && (naive_dbr_match(dbr, 0, addr) || naive_dbr_match(dbr, 1, addr) || naive_dbr_match(dbr, 2, addr) ||
		       naive_dbr_match(dbr, 3, addr));
}

/*
 * SEED 6.2.6: "DBRRangeTag = Tag(PMC[8]) and ((PMC[11].pt) or DBRRangeMatch)" for loads, stores,
 * semaphores and lfetch; for RSE operations and VHPT walks, "When PMC[11].pt is one ... tagged only if
 * the opcode match Tag(PMC[8]) was set for the operation that caused the RSE or VHPT activity. When
 * PMC[11].pt is zero, all RSE operations and VHPT walks that hit the programmed data address range are
 * tagged (regardless of the opcode match Tag(PMC[8]))."
 */
static inline int naive_dbr_range_tag(int tag8, uint64_t pmc11, int range_match, int rse_vhpt)
{
	int pt = bit(pmc11, 28);
	if (rse_vhpt)
		return pt ? tag8 : range_match;
	return tag8 && (pt || range_match);
}

#endif
