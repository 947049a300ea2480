/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Itanium match functions against naive transcriptions of the manual's formulas.
 *
 * SEED = Intel Itanium Processor Reference Manual for Software Development, ch. 6:
 *        6.2.4 (IBRmatch, IBRRangeTag, Table 6-10), 6.2.5 (imatch, ematch, Match, Tag,
 *        Fig 6-16 / Table 6-11), 6.2.6 (DBRRangeMatch, DBRRangeTag).
 * The naive versions are in test_itanium_naive.h, with their own bit positions.
 *
 * Each generated function meets at least 10 million random inputs (drawn so that
 * both answers are common; the test checks they were) and edge cases: bit 50
 * flips, every region pair, all-ones and all-zero masks, every plm/cpl pair, and
 * exhaustive runs over the bits where the rules change.
 *
 * pmregs-test: long-run (make check builds its sanitizer run at -O1: the run, not the build, takes the time)
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/itanium.h>
#include "../common/check.h"
#include "test_itanium_naive.h"

#define SAME(fast, naive, what, a, b) do { checks++; if ((fast) != (naive) && check_failed()) \
	fprintf(stderr, "%s:%d: %s differs (fast %d, naive %d) at %#llx %#llx\n", __FILE__, __LINE__, what, \
		(int)(fast), (int)(naive), (unsigned long long)(a), (unsigned long long)(b)); } while (0)

#define RANDOM_RUNS test_scale(10000000ul)

/* ---- random numbers: the shared xorshift64 ---- */
#define TEST_SEED 0x243F6A8885A308D3u
#include "../common/xorshift.h"

/* ---- inputs that make both answers common ---- */

/*
 * The generators draw few words and do not branch on what they draw: each case of a choice is
 * computed and the drawn one picked from an array (a branch on a random choice is mispredicted
 * about as often as not, and the 64-bit draws follow one another; they cost more than the
 * functions under test). Small choices take disjoint bit fields of one word.
 */

#define BITS_60_51 (((uint64_t)1 << 61) - ((uint64_t)1 << 51))

/* An implemented address: bits 60:51 copy bit 50. */
static uint64_t canonical(uint64_t x)
{
	return (x & ~BITS_60_51) | (BITS_60_51 & (0 - ((x >> 50) & 1)));
}

/* pick(w, n): one of 0..n-1, each about as likely (the low 32 bits of w, scaled) */
static unsigned pick(uint64_t w, unsigned n)
{
	return (unsigned)(((w & 0xFFFFFFFFu) * n) >> 32);
}

/*
 * one_at[k]: bit k alone. The generators take a drawn bit position from this table, not from a
 * shift by a drawn count: a 64-bit shift by a variable count is a branch on the count's bit 5 in a
 * 32-bit build (mispredicted half the time there: a sixth of the 32-bit run).
 */
#define ONE_AT(k) ((uint64_t)1 << (k))
#define ONE_AT8(k) ONE_AT(k), ONE_AT(k + 1), ONE_AT(k + 2), ONE_AT(k + 3), ONE_AT(k + 4), ONE_AT(k + 5), ONE_AT(k + 6), ONE_AT(k + 7)
static const uint64_t one_at[64] = {ONE_AT8(0), ONE_AT8(8), ONE_AT8(16), ONE_AT8(24),
				    ONE_AT8(32), ONE_AT8(40), ONE_AT8(48), ONE_AT8(56)};

/* 0 to 3 flipped bits at uniform positions (they may coincide), from the low 20 bits of w */
static uint64_t flips_of(uint64_t w)
{
	unsigned n = (unsigned)(w & 3);
	return (one_at[(w >> 2) & 63] & (0 - (uint64_t)(n > 0))) | (one_at[(w >> 8) & 63] & (0 - (uint64_t)(n > 1))) |
	       (one_at[(w >> 14) & 63] & (0 - (uint64_t)(n > 2)));
}

/* an implemented address three times in four, any 64 bits otherwise */
static uint64_t rnd_ip_of(uint64_t w)
{
	uint64_t x = rnd(), v[2];
	v[0] = x;
	v[1] = canonical(x);
	return v[(w & 3) != 0];
}

/* x itself (1 in 5), x with flipped bits (2 in 5), an implemented address, any 64 bits */
static uint64_t rnd_near(uint64_t x)
{
	uint64_t w = rnd(), y = rnd(), v[5];
	v[0] = x;
	v[1] = v[2] = x ^ flips_of(w >> 32);
	v[3] = canonical(y);
	v[4] = y;
	return v[pick(w, 5)];
}

/* all ones, all zeros, a low-bits-clear mask (often with flipped bits), an or, an and, any */
static uint64_t rnd_mask(void)
{
	uint64_t w = rnd(), a = rnd(), b = rnd(), v[7];
	unsigned k = pick(a, 60);
	v[0] = ~(uint64_t)0;
	v[1] = 0;
	v[2] = v[3] = ~(one_at[k] - 1) ^ (flips_of(w >> 33) & (0 - ((w >> 32) & 1)));
	v[4] = a | b;
	v[5] = a & b;
	v[6] = a;
	return v[pick(w, 7)];
}

/* An odd IBR/DBR: mask, plm (often all levels), ignored bits, and a rare x/r/w bit. */
static uint64_t rnd_odd(void)
{
	uint64_t w = rnd(), plm[2];
	uint64_t hi = w & ((uint64_t)0xF << 60);
	plm[0] = (w >> 1) & 0xF;
	plm[1] = 0xF;
	hi &= ~((uint64_t)(((w >> 8) & 7) != 0) << 63);
	return (rnd_mask() & (((uint64_t)1 << 56) - 1)) | (plm[w & 1] << 56) | hi;
}

static void rnd_pairs(uint64_t r[8], uint64_t near)
{
	unsigned i;
	for (i = 0; i < 4; i++) {
		r[2 * i] = rnd_near(near);
		r[2 * i + 1] = rnd_odd();
	}
}

/* ---- the differential runs ---- */

static void ibr_match_random(void)
{
	unsigned long n, yes = 0;
	uint64_t ibr[8] = {0};
	for (n = 0; n < RANDOM_RUNS; n++) {
		uint64_t w = rnd(), ip = rnd_ip_of(w);
		unsigned i = (unsigned)((w >> 2) & 3), cpl = (unsigned)((w >> 4) & 3);
		int f, s;
		/* IBRmatch_i reads pair i alone: only that pair is drawn */
		ibr[2 * i] = rnd_near(ip);
		ibr[2 * i + 1] = rnd_odd();
		f = pmregs_itanium_ibr_match(ibr, (uint8_t)i, ip, (uint8_t)cpl);
		s = naive_ibr_match(ibr, i, ip, cpl);
		SAME(f, s, "IBRmatch", ip, ibr[2 * i + 1]);
		yes += (unsigned long)s;
	}
	printf("IBRmatch: %lu random inputs, %lu matches\n", n, yes);
	CHECK(yes > RANDOM_RUNS / 20 && yes < RANDOM_RUNS - RANDOM_RUNS / 20);
}

static void ibr_range_tag_random(void)
{
	unsigned long n, yes = 0, ta0_yes = 0;
	uint64_t ibr[8];
	for (n = 0; n < RANDOM_RUNS; n++) {
		uint64_t w = rnd(), ip = rnd_ip_of(w);
		uint64_t pmc13 = (rnd() & ~(uint64_t)1) | (((w >> 9) & 3) == 0); /* ta one time in four */
		unsigned cpl = (unsigned)((w >> 2) & 3);
		int is = ((w >> 4) & 3) == 0, db = ((w >> 6) & 7) == 0, f, s;
		rnd_pairs(ibr, ip);
		f = pmregs_itanium_ibr_range_tag(pmc13, is, db, (uint8_t)cpl, ibr, ip);
		s = naive_ibr_range_tag(pmc13, is, db, cpl, ibr, ip);
		SAME(f, s, "IBRRangeTag", ip, pmc13);
		yes += (unsigned long)s;
		ta0_yes += (unsigned long)(s && !(pmc13 & 1));
	}
	printf("IBRRangeTag: %lu random inputs, %lu tagged (%lu of them with ta = 0)\n", n, yes, ta0_yes);
	CHECK(yes > RANDOM_RUNS / 20 && yes < RANDOM_RUNS - RANDOM_RUNS / 20);
	CHECK(ta0_yes > RANDOM_RUNS / 20);
}

/* 41 bits, but one time in eight with bits above 40 too (w's bits 2:0 choose) */
static uint64_t rnd_enco_of(uint64_t w)
{
	static const uint64_t keep[2] = {~(uint64_t)0, ((uint64_t)1 << 41) - 1};
	return rnd() & keep[(w & 7) != 0];
}

/* match/mask fields that often agree with enco */
static uint64_t gather(uint64_t enco)
{
	return ((enco >> 27) & 0x3FFF) << 13 | (enco & 0x1FFF);
}

/* match near enco's two times in three, mifb all ones two times in three, any mask, and ignored bits */
static uint64_t rnd_pmc8(uint64_t enco)
{
	uint64_t w = rnd(), x = rnd(), y = rnd(), match[2], mifb[2];
	match[0] = x;
	match[1] = gather(enco) ^ flips_of(w >> 32);
	mifb[0] = y & 0xF;
	mifb[1] = 0xF;
	return (mifb[pick(x >> 32, 3) != 0] << 60) | ((match[pick(w, 3) != 0] & 0x7FFFFFF) << 33) |
	       ((rnd_mask() & 0x7FFFFFF) << 3) | ((y >> 4) & 0x00000001C0000007u);
}

static void opcode_random(void)
{
	unsigned long n, yes_e = 0, yes_m = 0, yes_t = 0;
	for (n = 0; n < RANDOM_RUNS; n++) {
		uint64_t w = rnd(), enco = rnd_enco_of(w), pmc = rnd_pmc8(enco);
		uint64_t match = (pmc >> 33) & 0x7FFFFFF, mask = (pmc >> 3) & 0x7FFFFFF;
		int itype = (int)((w >> 3) & 3), rt = (int)((w >> 5) & 1), is = ((w >> 6) & 3) == 0, f, s;
		enum pmregs_itanium_syllable t = (enum pmregs_itanium_syllable)itype;
		f = pmregs_itanium_ematch(enco, match, mask);
		s = naive_ematch(enco, match, mask);
		SAME(f, s, "ematch", enco, pmc);
		yes_e += (unsigned long)s;
		SAME(pmregs_itanium_imatch(t, pmc), naive_imatch(itype, pmc), "imatch", pmc, itype);
		f = pmregs_itanium_opcode_match(pmc, t, enco);
		s = naive_match(pmc, itype, enco);
		SAME(f, s, "Match", enco, pmc);
		yes_m += (unsigned long)s;
		f = pmregs_itanium_tag_pmc8(pmc, t, enco, rt, is);
		s = naive_tag(pmc, itype, enco, rt, is);
		SAME(f, s, "Tag(PMC8)", enco, pmc);
		yes_t += (unsigned long)s;
		SAME(pmregs_itanium_tag_pmc9(pmc, t, enco, rt, is), s, "Tag(PMC9)", enco, pmc);
	}
	printf("ematch/imatch/Match/Tag: %lu random inputs; ematch %lu, Match %lu, Tag %lu true\n", n, yes_e, yes_m, yes_t);
	CHECK(yes_e > RANDOM_RUNS / 20 && yes_e < RANDOM_RUNS - RANDOM_RUNS / 20);
	CHECK(yes_m > RANDOM_RUNS / 20 && yes_m < RANDOM_RUNS - RANDOM_RUNS / 20);
	CHECK(yes_t > RANDOM_RUNS / 40);
}

static void dbr_random(void)
{
	unsigned long n, yes_i = 0, yes = 0, yes_t = 0;
	uint64_t dbr[8];
	for (n = 0; n < RANDOM_RUNS; n++) {
		uint64_t w = rnd(), addr = rnd_ip_of(w), pmc11 = rnd();
		unsigned i = (unsigned)((w >> 2) & 3);
		int db = ((w >> 4) & 7) == 0, tag8 = (int)((w >> 7) & 1), kind = (int)((w >> 8) & 1), f, s, rm;
		rnd_pairs(dbr, addr);
		f = pmregs_itanium_dbr_match(dbr, (uint8_t)i, addr);
		s = naive_dbr_match(dbr, i, addr);
		SAME(f, s, "DBRRangeMatch_i", addr, dbr[2 * i + 1]);
		yes_i += (unsigned long)s;
		f = pmregs_itanium_dbr_range_match(dbr, addr, db);
		/* naive_dbr_range_match() without evaluating pair i twice: DBRRangeMatch is "not PSR.db and
		 * some DBRRangeMatch_i" (SEED 6.2.6), and pair i's is s (the naive matches took most of the run) */
		rm = !db && (s || naive_dbr_match(dbr, (i + 1) & 3, addr) || naive_dbr_match(dbr, (i + 2) & 3, addr) ||
			     naive_dbr_match(dbr, (i + 3) & 3, addr));
		SAME(f, rm, "DBRRangeMatch", addr, dbr[1]);
		yes += (unsigned long)rm;
		f = pmregs_itanium_dbr_range_tag(tag8, pmc11, rm, kind ? PMREGS_ITANIUM_DATA_ACCESS_RSE_VHPT
								     : PMREGS_ITANIUM_DATA_ACCESS_MEMORY_OP);
		s = naive_dbr_range_tag(tag8, pmc11, rm, kind);
		SAME(f, s, "DBRRangeTag", pmc11, (uint64_t)rm);
		yes_t += (unsigned long)s;
	}
	printf("DBRRangeMatch_i/DBRRangeMatch/DBRRangeTag: %lu random inputs; %lu, %lu, %lu true\n", n, yes_i, yes, yes_t);
	CHECK(yes_i > RANDOM_RUNS / 20 && yes_i < RANDOM_RUNS - RANDOM_RUNS / 20);
	CHECK(yes > RANDOM_RUNS / 20 && yes < RANDOM_RUNS - RANDOM_RUNS / 20);
}

/* ---- edge cases ---- */

/*
 * Bits where the address rules change, varied exhaustively for address, ip and mask: all 2^20
 * cases in the native run; the sanitizer, 32-bit and emulated runs (test_scale()) take an evenly
 * spread share of them (case i * an odd constant, modulo 2^20), the native run having covered
 * them all: those runs are about undefined behaviour, the word size and the byte order, which
 * the random rounds and this share exercise as well.
 */
static void address_rules_exhaustive(void)
{
	static const unsigned pos[8] = {0, 49, 50, 51, 55, 56, 60, 61};
	static const unsigned mpos[4] = {0, 50, 51, 55};
	uint64_t base = 0x2000123456789AB0u & ~BITS_60_51, ibr[8] = {0}, dbr[8] = {0};
	unsigned long i, cases = test_scale(1ul << 20), yes = 0, n = 0;
	for (i = 0; i < cases; i++) {
		unsigned c = (unsigned)((i * 0x9E3779B1ul) & 0xFFFFF), a = c >> 12, p = (c >> 4) & 0xFF, m = c & 0xF, k;
		int s;
		uint64_t addr = base, ip = base, mask = ((uint64_t)0xF << 56) | 0x00F0F0F0F0F0F0F0u;
		for (k = 0; k < 8; k++) {
			addr ^= (uint64_t)((a >> k) & 1) << pos[k];
			ip ^= (uint64_t)((p >> k) & 1) << pos[k];
		}
		for (k = 0; k < 4; k++)
			mask |= (uint64_t)((m >> k) & 1) << mpos[k];
		ibr[0] = dbr[0] = addr;
		ibr[1] = dbr[1] = mask;
		SAME(pmregs_itanium_ibr_match(ibr, 0, ip, 0), naive_ibr_match(ibr, 0, ip, 0), "IBRmatch edge", addr, ip);
		s = naive_dbr_match(dbr, 0, ip);
		SAME(pmregs_itanium_dbr_match(dbr, 0, ip), s, "DBRmatch edge", addr, ip);
		yes += (unsigned long)s;
		n++;
	}
	printf("address rules: %lu %s cases over bits 0, 49-51, 55, 56, 60, 61, %lu matches\n", n,
	       n == 1ul << 20 ? "exhaustive" : "evenly spread", yes);
	CHECK(yes > n / 1000);
}

static void bit50_and_regions(void)
{
	uint64_t ibr[8] = {0}, ip, addr;
	unsigned b, r1, r2, s, k;
	/* One implemented address in each half (bit 50 clear / set). An exact pair matches it.
	 * Flipping one bit of the ip breaks the match unless the bit is one of 60:51, which
	 * the rules never read from the ip: they compare with IP{50} instead. */
	for (s = 0; s < 2; s++) {
		const uint64_t full = ((uint64_t)0xF << 56) | (((uint64_t)1 << 56) - 1);
		const uint64_t no_55_51 = full & ~(((uint64_t)1 << 56) - ((uint64_t)1 << 51));
		addr = canonical(0x0000123456789AB0u | ((uint64_t)s << 50) | ((uint64_t)5 << 61));
		ibr[0] = addr;
		ibr[1] = full;
		CHECK(pmregs_itanium_ibr_match(ibr, 0, addr, 3));
		for (b = 0; b < 64; b++) {
			ip = addr ^ ((uint64_t)1 << b);
			SAME(pmregs_itanium_ibr_match(ibr, 0, ip, 3), naive_ibr_match(ibr, 0, ip, 3), "flip", addr, b);
			CHECK(pmregs_itanium_ibr_match(ibr, 0, ip, 3) == (b >= 51 && b <= 60));
		}
		/* Address bits 55:51 are compared with IP{50} where the mask says so; 60:56 always. */
		for (b = 51; b <= 60; b++) {
			ibr[0] = addr ^ ((uint64_t)1 << b);
			ibr[1] = full;
			CHECK(!pmregs_itanium_ibr_match(ibr, 0, addr, 3));
			ibr[1] = no_55_51;
			CHECK(pmregs_itanium_ibr_match(ibr, 0, addr, 3) == (b <= 55));
		}
		/* With no mask bit at all, bit 50 still decides bits 60:56, and 63:61 are exact. */
		ibr[0] = addr;
		ibr[1] = full & ~(((uint64_t)1 << 56) - 1);
		CHECK(pmregs_itanium_ibr_match(ibr, 0, addr ^ 0x3FFFFFFFFFFFFu, 3));
		CHECK(!pmregs_itanium_ibr_match(ibr, 0, canonical(addr ^ ((uint64_t)1 << 50)), 3));
		CHECK(!pmregs_itanium_ibr_match(ibr, 0, addr ^ ((uint64_t)1 << 62), 3));
	}
	/* Region bits 63:61: every pair of regions, with all-zero and all-one masks */
	for (r1 = 0; r1 < 8; r1++) {
		for (r2 = 0; r2 < 8; r2++) {
			for (k = 0; k < 2; k++) {
				ibr[0] = ((uint64_t)r1 << 61) | 0x1000;
				ibr[1] = ((uint64_t)0xF << 56) | (k ? (((uint64_t)1 << 56) - 1) : 0);
				ip = ((uint64_t)r2 << 61) | 0x1000;
				SAME(pmregs_itanium_ibr_match(ibr, 0, ip, 0), naive_ibr_match(ibr, 0, ip, 0), "regions", r1, r2);
				CHECK(pmregs_itanium_ibr_match(ibr, 0, ip, 0) == (r1 == r2));
			}
		}
	}
}

static void plm_cpl_and_masks(void)
{
	uint64_t ibr[8], ip = canonical(rnd());
	unsigned plm, cpl, i, k;
	for (plm = 0; plm < 16; plm++) {
		for (cpl = 0; cpl < 4; cpl++) {
			for (i = 0; i < 4; i++) {
				for (k = 0; k < 8; k++) {
					memset(ibr, 0, sizeof ibr);
					ibr[2 * i] = k & 1 ? ip : canonical(rnd());
					ibr[2 * i + 1] = ((uint64_t)plm << 56) | (k & 2 ? (((uint64_t)1 << 56) - 1) : 0) |
							 (k & 4 ? (uint64_t)1 << 63 : 0);
					SAME(pmregs_itanium_ibr_match(ibr, (uint8_t)i, ip, (uint8_t)cpl), naive_ibr_match(ibr, i, ip, cpl),
					     "plm/cpl", plm, cpl);
					/* an all-zero mask with the ip's own region and bit 50 matches whenever plm allows */
					if (!(k & 2) && (k & 1))
						CHECK(pmregs_itanium_ibr_match(ibr, (uint8_t)i, ip, (uint8_t)cpl) == (int)((plm >> cpl) & 1));
					/* IBRRangeTag: an x bit blocks the range check (k & 4) */
					SAME(pmregs_itanium_ibr_range_tag(0, 0, 0, (uint8_t)cpl, ibr, ip),
					     naive_ibr_range_tag(0, 0, 0, cpl, ibr, ip), "range tag plm/cpl", plm, k);
				}
			}
		}
	}
	/* The IBRRangeTag truth table of SEED Table 6-10 for a matching IBR pair, no debugger */
	memset(ibr, 0, sizeof ibr);
	ibr[0] = ip;
	ibr[1] = ((uint64_t)0xF << 56) | (((uint64_t)1 << 56) - 1);
	CHECK(pmregs_itanium_ibr_range_tag(0, 0, 0, 0, ibr, ip) == 1);  /* ta 0, IA-64: tag if in range */
	CHECK(pmregs_itanium_ibr_range_tag(0, 1, 0, 0, ibr, ip) == 0);  /* ta 0, IA-32: never */
	CHECK(pmregs_itanium_ibr_range_tag(1, 0, 0, 0, ibr, ip + 16) == 1); /* ta 1: everything */
	CHECK(pmregs_itanium_ibr_range_tag(1, 1, 0, 0, ibr, ip) == 1);
	CHECK(pmregs_itanium_ibr_range_tag(0, 0, 0, 0, ibr, ip + 16) == 0); /* out of range */
	CHECK(pmregs_itanium_ibr_range_tag(0, 0, 1, 0, ibr, ip) == 0);  /* PSR.db */
	for (i = 0; i < 4; i++) {
		ibr[2 * i + 1] |= (uint64_t)1 << 63; /* any odd IBR's x bit */
		CHECK(pmregs_itanium_ibr_range_tag(0, 0, 0, 0, ibr, ip) == 0);
		ibr[2 * i + 1] &= ~((uint64_t)1 << 63);
	}
	/* "bool" arguments are any non-zero value, as in C */
	CHECK(pmregs_itanium_ibr_range_tag(0, 0, 0, 0, ibr, ip) == 1);
	CHECK(pmregs_itanium_ibr_range_tag(0, 0x400, 0, 0, ibr, ip) == 0);
	CHECK(pmregs_itanium_ibr_range_tag(0, 0, 2, 0, ibr, ip) == 0);
	CHECK(pmregs_itanium_tag_pmc8(PMREGS_ITANIUM_PMC8_9_RESET, PMREGS_ITANIUM_SYLLABLE_I, 0, 4, 0) == 1);
	CHECK(pmregs_itanium_dbr_range_tag(8, 0, 16, PMREGS_ITANIUM_DATA_ACCESS_MEMORY_OP) == 1);
	/* the pair index is taken modulo 4 and never reads outside ibr[8] */
	CHECK(pmregs_itanium_ibr_match(ibr, 4, ip, 0) == pmregs_itanium_ibr_match(ibr, 0, ip, 0));
	CHECK(pmregs_itanium_ibr_match(ibr, 255, ip, 0) == pmregs_itanium_ibr_match(ibr, 3, ip, 0));
}

static void opcode_edges(void)
{
	/* Bits at the seams of the gather, exhaustively: enco 0, 12, 13, 26, 27, 40, 41, 63
	 * against match and mask bits 0, 12, 13, 26. */
	static const unsigned epos[8] = {0, 12, 13, 26, 27, 40, 41, 63};
	static const unsigned mpos[4] = {0, 12, 13, 26};
	unsigned e, m, k, j, t;
	unsigned long yes = 0;
	for (e = 0; e < 256; e++) {
		uint64_t enco = 0;
		for (k = 0; k < 8; k++)
			enco |= (uint64_t)((e >> k) & 1) << epos[k];
		for (m = 0; m < 16; m++) {
			for (j = 0; j < 16; j++) {
				uint64_t match = 0, mask = 0;
				for (k = 0; k < 4; k++) {
					match |= (uint64_t)((m >> k) & 1) << mpos[k];
					mask |= (uint64_t)((j >> k) & 1) << mpos[k];
				}
				SAME(pmregs_itanium_ematch(enco, match, mask), naive_ematch(enco, match, mask), "ematch edge", enco, match);
				yes += (unsigned long)naive_ematch(enco, match, mask);
			}
		}
	}
	CHECK(yes > 1000);
	/* imatch: every type against every m/i/f/b combination */
	for (t = 0; t < 4; t++)
		for (k = 0; k < 16; k++) {
			uint64_t pmc = (uint64_t)k << 60;
			SAME(pmregs_itanium_imatch((enum pmregs_itanium_syllable)t, pmc), naive_imatch((int)t, pmc), "imatch", t, k);
		}
	/* all-ones and all-zero masks */
	for (k = 0; k < 100000; k++) {
		uint64_t enco = rnd(), match = rnd() & 0x7FFFFFF;
		CHECK(pmregs_itanium_ematch(enco, match, 0x7FFFFFF) == 1);
		CHECK(pmregs_itanium_ematch(enco, match, 0) == (gather(enco) == match));
		CHECK(pmregs_itanium_ematch(enco, match, 0) == naive_ematch(enco, match, 0));
	}
}

/* Golden vectors with their sources. */
static void golden(void)
{
	unsigned k, t;
	uint64_t pmc8, enco;
	/* Linux perfmon_itanium.h: PMC8/9 default 0xF00000003FFFFFF8; SEED 6.2.5: "To match all
	 * instruction types, all mifb and all mask bits should be set to one". */
	CHECK(PMREGS_ITANIUM_PMC8_9_RESET == 0xF00000003FFFFFF8u);
	for (k = 0; k < 1000000; k++)
		for (t = 0; t < 4; t++)
			CHECK(pmregs_itanium_opcode_match(0xF00000003FFFFFF8u, (enum pmregs_itanium_syllable)t, rnd()));
	/* SEED 6.2.5: A-type instructions need m and i; with only m set, I-unit ones do not match */
	CHECK(pmregs_itanium_opcode_match(0x8000000000000000u | (0x7FFFFFFu << 3), PMREGS_ITANIUM_SYLLABLE_M, 5));
	CHECK(!pmregs_itanium_opcode_match(0x8000000000000000u | (0x7FFFFFFu << 3), PMREGS_ITANIUM_SYLLABLE_I, 5));
	CHECK(pmregs_itanium_opcode_match(0xC000000000000000u | (0x7FFFFFFu << 3), PMREGS_ITANIUM_SYLLABLE_I, 5));
	/* libpfm-3 example ita_opcode.c: PMC8 = 0x1400028003fff1f8 counts br.cloop, an IP-relative
	 * branch with major opcode 4 in enco{40:37} and btype 5 in enco{8:6}, in B slots only. */
	pmc8 = PMREGS_ITANIUM_PMC8_9_B(1) | PMREGS_ITANIUM_PMC8_9_MATCH((4u << 23) | (5u << 6)) |
	       PMREGS_ITANIUM_PMC8_9_MASK(0x7FFFFFFu & ~((0xFu << 23) | (7u << 6)));
	CHECK(pmc8 == 0x1400028003fff1f8u);
	for (k = 0; k < 100000; k++) {
		enco = rnd() & (((uint64_t)1 << 41) - 1);
		enco = (enco & ~((uint64_t)0xF << 37) & ~(uint64_t)0x1C0) | ((uint64_t)4 << 37) | (5u << 6);
		CHECK(pmregs_itanium_opcode_match(pmc8, PMREGS_ITANIUM_SYLLABLE_B, enco));
		CHECK(!pmregs_itanium_opcode_match(pmc8, PMREGS_ITANIUM_SYLLABLE_M, enco));
		CHECK(!pmregs_itanium_opcode_match(pmc8, PMREGS_ITANIUM_SYLLABLE_B, enco ^ ((uint64_t)1 << (37 + k % 4))));
		CHECK(!pmregs_itanium_opcode_match(pmc8, PMREGS_ITANIUM_SYLLABLE_B, enco ^ ((uint64_t)1 << (6 + k % 3))));
		CHECK(pmregs_itanium_opcode_match(pmc8, PMREGS_ITANIUM_SYLLABLE_B, enco ^ ((uint64_t)1 << (13 + k % 14))));
	}
	/* Linux perfmon_itanium.h: PMC11 default 0x10000000 is pt = 1, "pass tags": DBRRangeTag
	 * is then Tag(PMC[8]) whatever the DBRs say (SEED 6.2.6). */
	CHECK(PMREGS_ITANIUM_PMC11_RESET == 0x10000000u);
	CHECK(pmregs_itanium_dbr_range_tag(1, PMREGS_ITANIUM_PMC11_RESET, 0, PMREGS_ITANIUM_DATA_ACCESS_MEMORY_OP) == 1);
	CHECK(pmregs_itanium_dbr_range_tag(0, PMREGS_ITANIUM_PMC11_RESET, 1, PMREGS_ITANIUM_DATA_ACCESS_MEMORY_OP) == 0);
	CHECK(pmregs_itanium_dbr_range_tag(1, 0, 0, PMREGS_ITANIUM_DATA_ACCESS_MEMORY_OP) == 0);
	CHECK(pmregs_itanium_dbr_range_tag(0, 0, 1, PMREGS_ITANIUM_DATA_ACCESS_MEMORY_OP) == 0);
	/* SEED 6.2.6: with pt = 0, RSE operations and VHPT walks that hit the range are tagged "regardless of the
	 * opcode match Tag(PMC[8])"; with pt = 1 only if Tag(PMC[8]) was set for the operation that caused them */
	CHECK(pmregs_itanium_dbr_range_tag(0, 0, 1, PMREGS_ITANIUM_DATA_ACCESS_RSE_VHPT) == 1);
	CHECK(pmregs_itanium_dbr_range_tag(1, 0, 0, PMREGS_ITANIUM_DATA_ACCESS_RSE_VHPT) == 0);
	CHECK(pmregs_itanium_dbr_range_tag(0, PMREGS_ITANIUM_PMC11_RESET, 1, PMREGS_ITANIUM_DATA_ACCESS_RSE_VHPT) == 0);
	CHECK(pmregs_itanium_dbr_range_tag(1, PMREGS_ITANIUM_PMC11_RESET, 0, PMREGS_ITANIUM_DATA_ACCESS_RSE_VHPT) == 1);
	/* SEED 6.2.6: to capture every VHPT walk with pt = 0 the DBR mask granularity is at least one VHPT entry
	 * (here 32 bytes): a mask that compares address bits 4:0 is too fine */
	CHECK(pmregs_itanium_dbr_mask_vhpt_ok(UINT64_C(0xFFFFFFFFFFFFE0), 32));
	CHECK(!pmregs_itanium_dbr_mask_vhpt_ok(UINT64_C(0xFFFFFFFFFFFFF0), 32));
	CHECK(pmregs_itanium_dbr_mask_vhpt_ok(UINT64_C(0xFFFFFFFFFFFFF8) | (UINT64_C(0xF) << 56), 8)); /* plm bits play no part */
	/* SEED Table 6-9: PMC13.ta "should be set to one upon reset": every instruction tagged */
	CHECK(pmregs_itanium_ibr_range_tag(PMREGS_ITANIUM_PMC13_RESET, 1, 1, 0, (const uint64_t[8]){0}, 0x1234) == 1);
}

int main(void)
{
	golden();
	bit50_and_regions();
	plm_cpl_and_masks();
	address_rules_exhaustive();
	opcode_edges();
	ibr_match_random();
	ibr_range_tag_random();
	opcode_random();
	dbr_random();
	return check_done("test_itanium_match");
}
