/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_bitstream.h - LSB-first bit streams and packet bit vectors.
 *
 * The bit reader and writer, and the bit-vector helpers generated packet
 * codecs and stream walkers use (trace packets are sent least significant
 * bit first).
 */
#ifndef PMREGS_BASE_BITSTREAM_H
#define PMREGS_BASE_BITSTREAM_H

#include "base_core.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* ---- LSB-first bit stream (trace packets are sent least significant bit first) ---- */

struct pmregs_bitreader {
	const unsigned char *buf;
	size_t nbits;	/* bits available */
	size_t pos;	/* next bit to read */
};

/* Read the nbytes bytes at buf, LSB first, from bit 0. */
static inline void pmregs_bitreader_init(struct pmregs_bitreader *r, const void *buf, size_t nbytes)
{
	r->buf = (const unsigned char *)buf;
	r->nbits = nbytes * 8;
	r->pos = 0;
}

/* Read `width` (0..64) bits; returns PMREGS_ETRUNC (and reads nothing) past the end. */
static inline int pmregs_bitreader_get(struct pmregs_bitreader *r, unsigned width, uint64_t *out)
{
	uint64_t v = 0;
	unsigned got = 0;
	if (width > 64 || r->nbits - r->pos < width)
		return PMREGS_ETRUNC;
	while (got < width) {
		size_t byte = r->pos >> 3;
		unsigned off = (unsigned)(r->pos & 7);
		unsigned take = 8 - off;
		if (take > width - got)
			take = width - got;
		v |= (uint64_t)((r->buf[byte] >> off) & ((1u << take) - 1)) << got;
		got += take;
		r->pos += take;
	}
	*out = v;
	return PMREGS_OK;
}

struct pmregs_bitwriter {
	unsigned char *buf;
	size_t nbits;	/* capacity in bits */
	size_t pos;	/* next bit to write */
};

/* Write into the nbytes bytes at buf, LSB first, from bit 0. */
static inline void pmregs_bitwriter_init(struct pmregs_bitwriter *w, void *buf, size_t nbytes)
{
	w->buf = (unsigned char *)buf;
	w->nbits = nbytes * 8;
	w->pos = 0;
}

/* Append the low `width` (0..64) bits of x; PMREGS_ENOSPC (writing nothing) when full. */
static inline int pmregs_bitwriter_put(struct pmregs_bitwriter *w, unsigned width, uint64_t x)
{
	unsigned done = 0;
	if (width > 64 || w->nbits - w->pos < width)
		return PMREGS_ENOSPC;
	while (done < width) {
		size_t byte = w->pos >> 3;
		unsigned off = (unsigned)(w->pos & 7);
		unsigned take = 8 - off;
		unsigned m;
		if (take > width - done)
			take = width - done;
		m = ((1u << take) - 1) << off;
		if (off == 0)
			w->buf[byte] = 0;
		w->buf[byte] = (unsigned char)((w->buf[byte] & ~m) | (((unsigned)(x >> done) << off) & m));
		done += take;
		w->pos += take;
	}
	return PMREGS_OK;
}

/* ---- bit vectors in 64-bit words: the working form of a packet being coded ---- */

/*
 * A packet is one LSB-first bit string: bit i of the packet is bit (i % 64) of
 * word i / 64, and byte k of the wire form holds bits 8k..8k+7. Generated
 * packet codecs keep it in a small local array of nw words (nw >= 2) and use
 * these helpers. Positions a valid packet never reaches are clamped so that no
 * access leaves the array, whatever the input or parameters.
 */
#define PMREGS_PACKET_UNCOMPRESSED 1u /* encode flag: emit every bit, no sign-based compression */

/* The w (0..64) bits at position pos. */
static inline uint64_t pmregs_bv_get(const uint64_t *b, unsigned nw, unsigned pos, unsigned w)
{
	unsigned i = pos >> 6, o = pos & 63;
	if (i > nw - 2)
		i = nw - 2;
	return ((b[i] >> o) | ((b[i + 1] << 1) << (63 - o))) & pmregs_lowmask(w);
}

/* OR the low w bits of x in at position pos (the bits there must be 0). */
static inline void pmregs_bv_put(uint64_t *b, unsigned nw, unsigned pos, unsigned w, uint64_t x)
{
	unsigned i = pos >> 6, o = pos & 63;
	if (i > nw - 2)
		return;
	x &= pmregs_lowmask(w);
	b[i] |= x << o;
	b[i + 1] |= (x >> 1) >> (63 - o);
}

/* Set bits [from, to) to copies of bit (0 or 1); they must be 0 before. */
static inline void pmregs_bv_fill(uint64_t *b, unsigned nw, unsigned from, unsigned to, uint64_t bit)
{
	while (bit && from < to) {
		unsigned n = to - from > 64 ? 64 : to - from;
		pmregs_bv_put(b, nw, from, n, ~(uint64_t)0);
		from += n;
	}
}

/*
 * Copy nbits starting at bit bitoff of src into dst from bit 0, and fill the
 * last byte with copies of the last bit copied. A final fragment of less than
 * a byte that only repeats the bit before it is padding from a framing and is
 * dropped. Returns the byte count, or PMREGS_ENOSPC when dst is too small.
 */
static inline int pmregs_bits_extract_sext(unsigned char *dst, size_t cap, const unsigned char *src, size_t bitoff,
					   size_t nbits)
{
	size_t full = nbits / 8, i;
	unsigned rem = (unsigned)(nbits & 7), frag = 0;
	if (full > cap)
		return PMREGS_ENOSPC;
	for (i = 0; i <= full; i++) {
		size_t at = bitoff + 8 * i, k = at >> 3;
		unsigned o = (unsigned)(at & 7), take = (i == full) ? rem : 8u;
		unsigned v;
		if (take == 0)
			break;
		v = (unsigned)src[k] >> o;
		if (o && take > 8 - o)
			v |= (unsigned)src[k + 1] << (8 - o);
		v &= (1u << take) - 1;
		if (i < full)
			dst[i] = (unsigned char)v;
		else
			frag = v;
	}
	if (rem == 0)
		return (int)full;
	if (full && (frag == 0 || frag == (1u << rem) - 1) && (frag & 1u) == (unsigned)(dst[full - 1] >> 7))
		return (int)full; /* the fragment only repeats the sign: framing padding */
	if (full >= cap)
		return PMREGS_ENOSPC;
	if ((frag >> (rem - 1)) & 1u)
		frag |= 0xFFu << rem;
	dst[full] = (unsigned char)(frag & 0xFFu);
	return (int)full + 1;
}

/*
 * Packet-boundary recovery with the zero-run rule: when no run of `run` zero
 * bytes fits inside a packet, the first non-zero byte after such a run starts
 * a packet. Returns its index, searching from pos, or len when there is none.
 */
static inline size_t pmregs_zero_run_resync(const unsigned char *buf, size_t len, size_t pos, size_t run)
{
	size_t zeros = 0;
	for (; pos < len; pos++) {
		if (buf[pos] == 0)
			zeros++;
		else if (zeros >= run)
			return pos;
		else
			zeros = 0;
	}
	return len;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_BITSTREAM_H */
