/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for pmregs_itanium_ibr_cover() and pmregs_itanium_dbr_cover()
 * in <pmregs/itanium.h>, checked against brute force, under ASan and UBSan.
 *
 * Input: a flag (IBR or DBR), an address (made canonical: bits 60:51 copy bit 50,
 * SEED 6.2.4) whose low 8 bits are cleared to give a window of W = 256
 * addresses, a start and an end inside the window, and a slack. Aligned blocks
 * nest, so the best cover of a range inside an aligned window lies inside the
 * window: the brute force tries every cover [a, b) of the window (fewest extra
 * addresses, then fewest blocks of at least 2^granule addresses, at most 4 of
 * them) and the generated function must find the same numbers. Then every
 * address of the window and the two just outside it must be selected by the
 * programmed registers (IBRRangeTag / DBRRangeMatch) exactly when it lies in the
 * reported cover.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-runs: 20000
 * pmregs-fuzz-cmp: off (edges reached in 20000 runs, seeds 1 and 3: 120 with it and without)
 * pmregs-fuzz-share: pmu
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/itanium.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

#define W 256u
#define BITS_60_51 (((uint64_t)1 << 61) - ((uint64_t)1 << 51))

static unsigned char tiles[2][W + 1][W + 1]; /* fewest aligned blocks tiling [a, b) (99: none), IBR and DBR */

static void build_tiles(unsigned char t[W + 1][W + 1], unsigned g)
{
	unsigned a, b, k;
	for (b = 0; b <= W; b++) {
		t[b][b] = 0;
		for (a = b; a-- > 0;) {
			unsigned best = 99;
			for (k = g; (1u << k) <= W; k++) {
				unsigned size = 1u << k;
				if (a % size == 0 && a + size <= b && t[a + size][b] + 1u < best)
					best = t[a + size][b] + 1u;
			}
			t[a][b] = (unsigned char)best;
		}
	}
}

static uint64_t take_bytes(const unsigned char **d, size_t *n, unsigned bytes)
{
	uint64_t x = 0;
	unsigned i;
	for (i = 0; i < bytes; i++, (*d)++, (*n)--)
		if (*n == 0)
			break;
		else
			x |= (uint64_t)**d << (8 * i);
	return x;
}

static int selects(int dbr, const uint64_t regs[8], uint64_t x)
{
	return dbr ? pmregs_itanium_dbr_range_match(regs, x, 0) : pmregs_itanium_ibr_range_tag(0, 0, 0, 0, regs, x);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size)
{
	static int ready;
	size_t n = size;
	const unsigned char *d = data;
	struct pmregs_range_pair p[4];
	uint64_t base, start, end, slack, cs = 1, ce = 2, regs[8], x;
	unsigned s, e, a, b, best_x = 0, best_t = 0, g;
	int dbr, rc, found = 0, j;

	if (!ready) {
		build_tiles(tiles[0], PMREGS_ITANIUM_IBR_COVER_GRANULE);
		build_tiles(tiles[1], PMREGS_ITANIUM_DBR_COVER_GRANULE);
		ready = 1;
	}
	dbr = (int)(take_bytes(&d, &n, 1) & 1);
	g = dbr ? PMREGS_ITANIUM_DBR_COVER_GRANULE : PMREGS_ITANIUM_IBR_COVER_GRANULE;
	base = take_bytes(&d, &n, 8);
	base = ((base & ~BITS_60_51) | (((base >> 50) & 1) ? BITS_60_51 : 0)) & ~(uint64_t)(W - 1);
	s = (unsigned)(take_bytes(&d, &n, 1) % W);
	e = s + 1 + (unsigned)(take_bytes(&d, &n, 1) % (W - s));
	slack = take_bytes(&d, &n, 2);
	if (slack & 0x8000u)
		slack = ~(uint64_t)0 >> (slack & 63);
	start = base + s;
	end = base + e; /* 0 when the window is the top of the address space: 2^64 */

	for (a = 0; a <= s; a++)
		for (b = e; b <= W; b++) {
			unsigned xtra = (s - a) + (b - e), t = tiles[dbr][a][b];
			if (xtra > slack || t > 4)
				continue;
			if (!found || xtra < best_x || (xtra == best_x && t < best_t)) {
				best_x = xtra;
				best_t = t;
				found = 1;
			}
		}

	memset(p, 0xA5, sizeof p);
	rc = dbr ? pmregs_itanium_dbr_cover(start, end, slack, p, &cs, &ce)
		 : pmregs_itanium_ibr_cover(start, end, slack, p, &cs, &ce);
	if (!found) {
		REQUIRE(rc == PMREGS_ENOCOVER && cs == 1 && ce == 2);
		return 0;
	}
	REQUIRE(rc == (int)best_t);
	REQUIRE(start - cs + (ce - end) == best_x);
	REQUIRE(cs >= base && cs - base <= s && (ce == base + W || ce - base <= W));
	for (j = 0; j < 4; j++) {
		regs[2 * j] = p[j].addr;
		regs[2 * j + 1] = p[j].mask | (dbr ? 0 : (uint64_t)0xF << 56); /* IBR: the plm bits enable every level */
	}
	for (x = base; x != base + W; x++)
		REQUIRE(selects(dbr, regs, x) == (x - cs < ce - cs));
	(void)g;
	return 0;
}
