/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The reference for scheduler tests and benchmarks: the fewest passes by brute force,
 * trying every combination of options and then every colouring of the conflict graph
 * (two requests conflict when their chosen options share a resource bit). n <= 8 only.
 */
#ifndef PMREGS_TEST_BRUTE_PASSES_H
#define PMREGS_TEST_BRUTE_PASSES_H
#include <stdint.h>

static int brute_passes(const uint64_t opts[][8], const unsigned *nopts, unsigned n)
{
	unsigned choice[8] = {0}, i, j, best = n;
	if (n == 0)
		return 0;
	for (;;) {
		unsigned k;
		for (k = 1; k < best; k++) {
			unsigned col[8] = {0};
			int found = 0;
			for (;;) {
				int good = 1;
				for (i = 0; i < n && good; i++)
					for (j = i + 1; j < n && good; j++)
						if (col[i] == col[j] && (opts[i][choice[i]] & opts[j][choice[j]]))
							good = 0;
				if (good) {
					found = 1;
					break;
				}
				for (i = 0; i < n; i++) {
					if (++col[i] < k)
						break;
					col[i] = 0;
				}
				if (i == n)
					break;
			}
			if (found) {
				best = k;
				break;
			}
		}
		for (i = 0; i < n; i++) {
			if (++choice[i] < nopts[i])
				break;
			choice[i] = 0;
		}
		if (i == n)
			break;
	}
	return (int)best;
}

#endif
