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

/* Put n bytes (LSB first) at bit position pos. */
static inline void pmregs_bv_put_bytes(uint64_t *b, unsigned nw, unsigned pos, const unsigned char *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		pmregs_bv_put(b, nw, pos + 8u * (unsigned)i, 8, p[i]);
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

/* Load len bytes into b, zero-filled above them (len <= 8 * (nw - 1)). */
static inline void pmregs_bv_load(uint64_t *b, unsigned nw, const unsigned char *p, size_t len)
{
	size_t full = len >> 3, i;
	for (i = 0; i < nw; i++)
		b[i] = 0;
	for (i = 0; i < full; i++)
		b[i] = pmregs_load_le64(p + 8 * i);
	for (i = 8 * full; i < len; i++)
		b[full] |= (uint64_t)p[i] << (8 * (i & 7));
}

/* The sign of a sign-compressed byte string (len >= 1): all ones when its last bit is set. */
static inline uint64_t pmregs_sext_fill(const unsigned char *p, size_t len)
{
	return (uint64_t)0 - (uint64_t)(p[len - 1] >> 7);
}

/*
 * Load a sign-compressed byte string (1 <= len <= 8 * (words of b)) into the
 * words of b that it touches; b must already hold `fill` (pmregs_sext_fill())
 * in every word, so that every bit above the received ones repeats the last one.
 */
static inline void pmregs_bv_load_sext(uint64_t *b, const unsigned char *p, size_t len, uint64_t fill)
{
	size_t full = len >> 3, i;
	unsigned rem = (unsigned)(len & 7);
	for (i = 0; i < full; i++)
		b[i] = pmregs_load_le64(p + 8 * i);
	if (rem) {
		/* the last 1..7 bytes with overlapping loads instead of a byte loop */
		const unsigned char *q = p + 8 * full;
		uint64_t last;
		if (full)
			last = pmregs_load_le64(p + len - 8) >> (64 - 8 * rem);
		else if (rem >= 4)
			last = (uint64_t)pmregs_load_le32(q) | ((uint64_t)pmregs_load_le32(q + rem - 4) << (8 * (rem - 4)));
		else
			last = (uint64_t)q[0] | ((uint64_t)q[rem >> 1] << (8 * (rem >> 1))) | ((uint64_t)q[rem - 1] << (8 * (rem - 1)));
		b[full] = last | (fill << (8 * rem));
	}
}

/*
 * Word k of a sign-compressed byte string of len bytes, for a buffer that can
 * be read 8 bytes past word k's start whatever len is (padded input): the
 * received bits, and `fill` above them. No branch on the length.
 */
static inline uint64_t pmregs_sext_word(const unsigned char *p, size_t len, unsigned k, uint64_t fill)
{
	size_t have = 8 * len, at = 64 * (size_t)k;
	unsigned n = have <= at ? 0u : (have - at >= 64 ? 64u : (unsigned)(have - at));
	uint64_t m = pmregs_lowmask(n);
	return (pmregs_load_le64(p + 8 * k) & m) | (fill & ~m);
}

/*
 * After a decoder has read a packet's natural nbits from len received bytes:
 * PMREGS_ETOOLONG when a whole byte or more was sent beyond the packet,
 * PMREGS_EINVAL when the spare bits of the last byte are not copies of the
 * packet's last bit (sign extension), PMREGS_OK otherwise.
 */
static inline int pmregs_bv_check_tail(const uint64_t *b, unsigned nw, unsigned nbits, size_t len)
{
	unsigned have = (unsigned)(8 * len), w;
	if (have <= nbits)
		return PMREGS_OK;
	if (have - nbits >= 8)
		return PMREGS_ETOOLONG;
	w = have - nbits + 1;
	{
		uint64_t t = pmregs_bv_get(b, nw, nbits - 1, w);
		return (t == 0 || t == pmregs_lowmask(w)) ? PMREGS_OK : PMREGS_EINVAL;
	}
}

/*
 * The same packet bits as bytes (byte k = bits 8k..8k+7, whatever the host's
 * byte order), read with one unaligned 64-bit load per field: the decoders'
 * fast path. bb holds nb bytes (nb >= 16); positions past the end are clamped.
 */
static inline uint64_t pmregs_bb_get57(const unsigned char *bb, unsigned nb, unsigned pos, unsigned w)
{
	unsigned i = pos >> 3;
	if (i > nb - 16)
		i = nb - 16;
	return (pmregs_load_le64(bb + i) >> (pos & 7)) & (((uint64_t)1 << (w & 63)) - 1); /* w <= 57 */
}

/* Store x as bytes 0..7 (little-endian) at p: a single store where the host allows. */
static inline void pmregs_bb_put64(unsigned char *p, uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__builtin_memcpy(p, &x, 8);
#else
	pmregs_store_le64(p, x);
#endif
}

static inline uint64_t pmregs_bb_get(const unsigned char *bb, unsigned nb, unsigned pos, unsigned w)
{
	unsigned i = pos >> 3, o = pos & 7;
	if (i > nb - 16)
		i = nb - 16;
	return ((pmregs_load_le64(bb + i) >> o) | (((uint64_t)bb[i + 8] << 1) << (63 - o))) & pmregs_lowmask(w);
}

/* pmregs_bv_check_tail() for the byte form. */
static inline int pmregs_bb_check_tail(const unsigned char *bb, unsigned nb, unsigned nbits, size_t len)
{
	unsigned have = (unsigned)(8 * len), w;
	uint64_t t;
	if (have <= nbits)
		return PMREGS_OK;
	if (have - nbits >= 8)
		return PMREGS_ETOOLONG;
	w = have - nbits + 1;
	t = pmregs_bb_get57(bb, nb, nbits - 1, w);
	return (t == 0 || t == pmregs_lowmask(w)) ? PMREGS_OK : PMREGS_EINVAL;
}

/*
 * Emit the packet's natural nbits (>= 1) as bytes, least significant first.
 * With compress, sign-based compression: the run of bits equal to the last
 * bit is cut to one copy, so the result is the shortest byte string that
 * sign-extends back to the packet; otherwise ceil(nbits / 8) bytes. The last
 * byte is filled with copies of the sign. Returns the byte count, or
 * PMREGS_ETOOLONG above maxbytes, or PMREGS_ENOSPC above cap (nothing written).
 */
static inline int pmregs_bv_emit(uint64_t *b, unsigned nw, unsigned nbits, unsigned char *out, size_t cap,
				 size_t maxbytes, int compress)
{
	unsigned top = (nbits - 1) >> 6, m = nbits, i, nbytes;
	uint64_t s = (b[top] >> ((nbits - 1) & 63)) & 1, fill = (uint64_t)0 - s;
	uint64_t keep = pmregs_lowmask(((nbits - 1) & 63) + 1);
	b[top] = (b[top] & keep) | (fill & ~keep);
	for (i = top + 1; i < nw; i++)
		b[i] = fill;
	if (compress) {
		m = 1;
		for (i = top + 1; i-- > 0;) {
			uint64_t d = b[i] ^ fill;
			if (d) {
				m = i * 64 + pmregs_msb64(d) + 2;
				break;
			}
		}
	}
	nbytes = (m + 7) / 8;
	if (nbytes > maxbytes)
		return PMREGS_ETOOLONG;
	if (nbytes > cap)
		return PMREGS_ENOSPC;
	for (i = 0; i < nbytes; i++)
		out[i] = (unsigned char)(b[i >> 3] >> (8 * (i & 7)));
	return (int)nbytes;
}

/* Store the first n bytes of b. */
static inline void pmregs_bv_store(const uint64_t *b, size_t n, unsigned char *out)
{
	size_t i;
	for (i = 0; i < n; i++)
		out[i] = (unsigned char)(b[i >> 3] >> (8 * (i & 7)));
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
