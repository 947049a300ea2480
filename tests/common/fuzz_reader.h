/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A fuzz input read as little-endian integers of a few bytes each; past the
 * end it reads zeros, so a short input still drives every branch it reaches.
 */
#ifndef PMREGS_TEST_FUZZ_READER_H
#define PMREGS_TEST_FUZZ_READER_H
#include <stddef.h>
#include <stdint.h>

struct reader {
	const unsigned char *d;
	size_t n, pos;
};

static uint64_t take(struct reader *rd, unsigned bytes)
{
	uint64_t x = 0;
	unsigned i;
	for (i = 0; i < bytes; i++)
		x |= (uint64_t)(rd->pos < rd->n ? rd->d[rd->pos++] : 0) << (8 * i);
	return x;
}

#endif
