/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Itanium match functions (`make bench`): nanoseconds per evaluation of the
 * generated branch-free functions next to the naive bit-by-bit transcriptions of
 * the manual's formulas (tests/c/test_itanium_naive.h), on the same inputs in one
 * run. The ratio is the point (the target is 20x or more); the numbers depend on
 * the machine. Never a pass/fail test. tests/bench/bench_itanium_branches.sh shows
 * that the generated functions compile without conditional jumps.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
#include <pmregs/itanium.h>
#include "../c/test_itanium_naive.h"

#define N 256       /* inputs (they stay in the L1 cache), reused round after round */
#define ROUNDS 2000

#define TEST_SEED 0x1A64DEADBEEF1A64u
#include "../common/xorshift.h"

#include "../common/clock.h"

#define BITS_60_51 (((uint64_t)1 << 61) - ((uint64_t)1 << 51))
static uint64_t canonical(uint64_t x)
{
	return (x & ~BITS_60_51) | (((x >> 50) & 1) ? BITS_60_51 : 0);
}

static struct input {
	uint64_t ibr[8], ip, pmc13, pmc8, enco;
	uint8_t cpl;
	int is, db, itype, range_tag;
} in[N];

/*
 * hits = 0: each IBR pair holds a block around the ip half of the time, else a random
 * address, so about half the pairs match. hits = 1: only the last pair matches,
 * the others hold random addresses, so the naive IBRRangeTag reads every bit of
 * the matching pair. match/mask always fit the encoding, so ematch and Tag(PMC8)
 * are true and the naive loops run over every bit.
 */
static void make_inputs(int hits)
{
	unsigned k, i;
	for (k = 0; k < N; k++) {
		struct input *x = &in[k];
		unsigned lg = 4 + (unsigned)(rnd() % 20);
		x->ip = canonical(rnd()) & ~(uint64_t)15;
		for (i = 0; i < 4; i++) {
			int near = hits ? i == 3 : (int)(rnd() & 1);
			x->ibr[2 * i] = near ? x->ip & ~(((uint64_t)1 << lg) - 1) : canonical(rnd());
			x->ibr[2 * i + 1] = ((uint64_t)0xF << 56) | (PMREGS_ITANIUM_VA_MATCH_CARE_BITS & ~(((uint64_t)1 << lg) - 1));
		}
		x->pmc13 = 0;
		x->cpl = (uint8_t)(rnd() & 3);
		x->is = x->db = 0;
		x->enco = rnd() & (((uint64_t)1 << 41) - 1);
		x->pmc8 = 0xF000000000000000u | ((x->enco >> 27) & 0x3FFF) << 46 | (x->enco & 0x1FFF) << 33 |
			  ((rnd() & rnd()) & 0x7FFFFFF) << 3;
		x->itype = (int)(rnd() & 3);
		x->range_tag = 1;
	}
}

static volatile unsigned long sink;

/* The best of REPEATS timed runs of ROUNDS x N evaluations: the least disturbed one. */
#define REPEATS 7
#define TIME(label, expr) do {                                                       \
		unsigned rep_;                                                       \
		label = 1e30;                                                        \
		for (rep_ = 0; rep_ < REPEATS; rep_++) {                             \
			double t0 = now(), t_;                                       \
			unsigned long acc = 0;                                       \
			unsigned r_, k_;                                             \
			for (r_ = 0; r_ < ROUNDS; r_++)                              \
				for (k_ = 0; k_ < N; k_++) {                         \
					const struct input *x = &in[k_];             \
					acc += (unsigned long)(expr);                \
				}                                                    \
			sink += acc;                                                 \
			t_ = (now() - t0) * 1e9 / ((double)ROUNDS * N);              \
			if (t_ < label)                                              \
				label = t_;                                          \
			hits = acc;                                                  \
		}                                                                    \
	} while (0)

static void row(const char *name, double fast, double naive, unsigned long hf, unsigned long hn)
{
	printf("  %-22s %9.2f %9.2f %8.1fx%s\n", name, fast, naive, naive / fast,
	       hf == hn ? "" : "   (results differ!)");
}

int main(void)
{
	double f, s;
	unsigned long hits, hf;
	int mix;
	for (mix = 0; mix < 2; mix++) {
		make_inputs(mix);
		printf("%s\n", mix ? "inputs that match (the last IBR pair; every opcode)"
				  : "mixed inputs (half of the IBR pairs match; every opcode)");
		printf("  %-22s %9s %9s %9s\n", "ns per evaluation", "generated", "naive", "speed-up");

		TIME(f, pmregs_itanium_ibr_range_tag(x->pmc13, x->is, x->db, x->cpl, x->ibr, x->ip));
		hf = hits;
		TIME(s, naive_ibr_range_tag(x->pmc13, x->is, x->db, x->cpl, x->ibr, x->ip));
		row("IBRRangeTag (4 pairs)", f, s, hf, hits);

		TIME(f, pmregs_itanium_ibr_match(x->ibr, 3, x->ip, x->cpl));
		hf = hits;
		TIME(s, naive_ibr_match(x->ibr, 3, x->ip, x->cpl));
		row("IBRmatch_3", f, s, hf, hits);

		TIME(f, pmregs_itanium_dbr_range_match(x->ibr, x->ip + 8, x->db));
		hf = hits;
		TIME(s, naive_dbr_range_match(x->ibr, x->ip + 8, x->db));
		row("DBRRangeMatch", f, s, hf, hits);

		if (mix)
			break;
		TIME(f, pmregs_itanium_ematch(x->enco, (x->pmc8 >> 33) & 0x7FFFFFF, (x->pmc8 >> 3) & 0x7FFFFFF));
		hf = hits;
		TIME(s, naive_ematch(x->enco, (x->pmc8 >> 33) & 0x7FFFFFF, (x->pmc8 >> 3) & 0x7FFFFFF));
		row("ematch", f, s, hf, hits);

		TIME(f, pmregs_itanium_tag_pmc8(x->pmc8, (enum pmregs_itanium_syllable)x->itype, x->enco, x->range_tag, x->is));
		hf = hits;
		TIME(s, naive_tag(x->pmc8, x->itype, x->enco, x->range_tag, x->is));
		row("Tag(PMC8)", f, s, hf, hits);
	}
	return 0;
}
