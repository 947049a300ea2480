/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_inplace.h - hand-written: reading bit-packed, sign-compressed
 * packets in place, straight from a capture buffer, without copying them out.
 *
 * A payload starts at bit `at` of a byte buffer and its received bits end at
 * bit `end` (bits count LSB first from byte 0). Under sign-based compression
 * every bit at `end` or beyond reads as bit end - 1, so a reader loads the
 * word the field starts in and replaces what lies past `end` with that bit:
 * one load, a few ALU operations, no branch and no copy.
 *
 * The slack contract: a reader may load up to PMREGS_INPLACE_SLACK bytes
 * after the byte that holds bit end - 1 (whatever they hold, they never
 * change a result). Stream walkers keep to it by reading in place while that
 * much of the buffer is left and copying only the last packets into a small
 * zero-padded buffer (the tail path).
 *
 * Nothing here allocates, keeps state or calls the C library.
 */
#ifndef PMREGS_BASE_INPLACE_H
#define PMREGS_BASE_INPLACE_H

#include "base_bitstream.h"

#define PMREGS_INPLACE_SLACK 16 /* readable bytes a reader needs after the last received byte */

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/*
 * The opposite of PMREGS_HOT (base_core.h), for the few functions that
 * call a hot path where its speed buys nothing (a generic walker that
 * formats every field and calls back through a pointer): compiled once, out
 * of line, however many functions of a program call it, instead of once in
 * each. For gcc not inline, which its noinline refuses, and unused, as a
 * static inline function may be; but without optimisation, where gcc
 * inlines nothing and would compile such a static function into every unit,
 * unused or not, plain static inline. (The __spellings__: a kernel's
 * <linux/compiler_attributes.h> defines noinline.)
 */
#if defined(__clang__)
#define PMREGS_NOINLINE static inline __attribute__((__noinline__))
#elif defined(__GNUC__) && defined(__OPTIMIZE__)
#define PMREGS_NOINLINE static __attribute__((__noinline__, __unused__))
#else
#define PMREGS_NOINLINE static inline
#endif

/*
 * 1 where the compiler can tell that x is a compile-time constant, else 0
 * (always 0 where it cannot tell). Code that only pays off once constant
 * parameters fold chooses it with this; both choices give the same results.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PMREGS_IP_CONSTANT(x) __builtin_constant_p(x)
#else
#define PMREGS_IP_CONSTANT(x) 0
#endif

/*
 * Hides from the compiler how the variable var was computed: a mask derived
 * from a field stays a mask (and, or), instead of being traced back to the
 * field and turned into a branch on it, one the predictor cannot learn when
 * the field's values come in no order. No instruction. A statement on a
 * variable (an lvalue), not an expression.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PMREGS_IP_OPAQUE(var) __asm__("" : "+r"(var))
#else
#define PMREGS_IP_OPAQUE(var) ((void)0)
#endif

/*
 * A compile-time check of a struct's layout (c: an integer constant
 * expression, e.g. of offsetof()) that code relying on it states in its body:
 * a build error where it does not hold. No code.
 */
#define PMREGS_IP_LAYOUT_CHECK(c) ((void)sizeof(char[(c) ? 1 : -1]))

/* 8 bytes at p, little-endian: a single unaligned load where the host allows. */
PMREGS_HOT uint64_t pmregs_ip_load64(const unsigned char *p)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x;
	__builtin_memcpy(&x, p, 8);
	return x;
#else
	return pmregs_load_le64(p);
#endif
}

/* All ones when bit end - 1 of c is set, else 0 (end >= 1): what every bit past the end reads as. */
PMREGS_HOT uint64_t pmregs_ip_fill(const unsigned char *c, size_t end)
{
	return (uint64_t)0 - (uint64_t)(((unsigned)c[(end - 1) >> 3] >> ((end - 1) & 7)) & 1u);
}

/* The w (0..57) bits at bit a of c; bits at end and beyond read as fill. */
static inline uint64_t pmregs_ip_get57(const unsigned char *c, size_t a, size_t end, uint64_t fill, unsigned w)
{
	size_t la = a < end ? a : end, k = end - la;
	uint64_t x = pmregs_ip_load64(c + (la >> 3)) >> (la & 7);
	uint64_t keep = k >= 57 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
	return ((x & keep) | (fill & ~keep)) & (((uint64_t)1 << (w & 63)) - 1);
}

/* The w (0..64) bits at bit a of c; bits at end and beyond read as fill. */
static inline uint64_t pmregs_ip_get(const unsigned char *c, size_t a, size_t end, uint64_t fill, unsigned w)
{
	size_t la = a < end ? a : end, k = end - la, i = la >> 3;
	unsigned o = (unsigned)(la & 7);
	uint64_t x = (pmregs_ip_load64(c + i) >> o) | (((uint64_t)c[i + 8] << 1) << (63 - o));
	uint64_t keep = k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
	return ((x & keep) | (fill & ~keep)) & pmregs_lowmask(w);
}

/*
 * The window: a payload's first 128 bits in two words, w[0] and w[1], with
 * every bit at end and beyond replaced by fill. Built once per packet from
 * three loads (the slack contract covers them: the last byte read is 16 past
 * the payload's first byte); every field that ends within it is then a shift
 * and a mask, with no load and no test of the end.
 */
PMREGS_HOT void pmregs_ip_window(const unsigned char *c, size_t at, size_t end, uint64_t fill, uint64_t *w)
{
	const unsigned char *q = c + (at >> 3);
	unsigned o = (unsigned)(at & 7);
	size_t n = end - at;
	uint64_t l1 = pmregs_ip_load64(q + 8), a, b, m0, m1;
	if (o == 0) { /* a whole-byte framing: the same test for every packet of a stream */
		a = pmregs_ip_load64(q);
		b = l1;
	} else {
		a = (pmregs_ip_load64(q) >> o) | ((l1 << 1) << (63 - o));
		b = (l1 >> o) | (((uint64_t)q[16] << 1) << (63 - o));
	}
	m0 = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
	m1 = n >= 128 ? ~(uint64_t)0 : n <= 64 ? 0 : ((uint64_t)1 << (n - 64)) - 1;
	w[0] = (a & m0) | (fill & ~m0);
	w[1] = (b & m1) | (fill & ~m1);
}

/*
 * The 64 bits from bit pos (0..127) of a window; those past bit 127 are not
 * meaningful, so a field read this way must end by bit 128. No branch; one
 * double-word shift where the compiler has a 128-bit integer type.
 */
PMREGS_HOT uint64_t pmregs_ip_wget(const uint64_t *w, unsigned pos)
{
#if defined(__SIZEOF_INT128__)
	__extension__ typedef unsigned __int128 pmregs_ip_u128;
	return (uint64_t)((((pmregs_ip_u128)w[1] << 64) | w[0]) >> (pos & 127));
#else
	unsigned s = pos & 63;
	uint64_t lo = (pos & 64) ? w[1] : w[0];
	return (lo >> s) | ((w[1] << 1) << (63 - s));
#endif
}

/*
 * A whole-byte payload of nbits (8..64, a multiple of 8) bits at q in one
 * word, xor its fill: returns the payload's bits xor *fill (all ones when its
 * last bit is set, else 0), every bit from nbits - 1 on 0. One load; q must
 * be readable 8 bytes on.
 */
PMREGS_HOT uint64_t pmregs_ip_word_bytes(const unsigned char *q, size_t nbits, uint64_t *fill)
{
	unsigned k = (unsigned)(64 - nbits) & 63; /* 0..56: the payload's last bit to bit 63, and back */
#if defined(__GNUC__) || defined(__clang__)
	/*
	 * One arithmetic shift back: gcc and clang document the conversion to
	 * int64_t as modulo 2^64 and >> of a negative value as arithmetic (ISO C
	 * leaves both to the implementation). The word decoders' xw ^ fill then
	 * folds to sx, which saves the xor and shift pairs below.
	 */
	int64_t sx = (int64_t)(pmregs_ip_load64(q) << k) >> k;
	uint64_t f = (uint64_t)(sx >> 63);
	*fill = f;
	return (uint64_t)sx ^ f;
#else
	uint64_t t = pmregs_ip_load64(q) << k, f = (uint64_t)0 - (t >> 63);
	*fill = f;
	return (t ^ f) >> k;
#endif
}

/*
 * The 64 bits from bit pos (any) of a word of pmregs_ip_word_bytes(): past the
 * payload every bit is the fill. Bit 63 of xw is 0, so from pos 63 on they are
 * the fill alone (a position the compiler knows is that far folds to it).
 */
PMREGS_HOT uint64_t pmregs_ip_xget(uint64_t xw, uint64_t fill, unsigned pos)
{
	return pos < 63u ? (xw >> pos) ^ fill : fill;
}

/*
 * pmregs_ip_check_tail() on a word of pmregs_ip_word_bytes(): the payload was
 * received as have (at most 64) bits and its fields end at bit nbits (>= 1).
 * The spare bits are copies of the last one when xw has nothing from bit
 * nbits - 1 on. Fields that end at bit 64 or later leave no spare bits: where
 * the compiler can tell that they do, the test folds away.
 */
PMREGS_HOT int pmregs_ip_xcheck_tail(uint64_t xw, size_t nbits, size_t have)
{
	if ((PMREGS_IP_CONSTANT(nbits >= 64u) && nbits >= 64u) || have <= nbits)
		return PMREGS_OK;
	if (have - nbits >= 8)
		return PMREGS_ETOOLONG;
	return (xw >> (nbits - 1)) == 0 ? PMREGS_OK : PMREGS_EINVAL;
}

/*
 * After a decoder has read the natural nbits of a payload that starts at bit
 * at, received as have bits (a whole number of bytes): PMREGS_ETOOLONG when a
 * whole byte or more was sent beyond the packet, PMREGS_EINVAL when the spare
 * bits of the last byte are not copies of the packet's last bit (sign
 * extension), else PMREGS_OK.
 */
static inline int pmregs_ip_check_tail(const unsigned char *c, size_t at, size_t end, uint64_t fill, size_t nbits,
				       size_t have)
{
	unsigned w;
	uint64_t t;
	if (have <= nbits)
		return PMREGS_OK;
	if (have - nbits >= 8)
		return PMREGS_ETOOLONG;
	w = (unsigned)(have - nbits + 1);
	t = pmregs_ip_get57(c, at + nbits - 1, end, fill, w);
	return (t == 0 || t == pmregs_lowmask(w)) ? PMREGS_OK : PMREGS_EINVAL;
}

/*
 * The received length, in bytes, of a payload of nbits (>= 1) bits at bit at
 * that a framing cut from a byte stream: whole bytes, plus the final fragment
 * of less than a byte unless it only repeats the bit before it (then it is
 * the framing's padding). The same count as pmregs_bits_extract_sext().
 */
static inline size_t pmregs_ip_payload_bytes(const unsigned char *c, size_t at, size_t nbits)
{
	size_t full = nbits >> 3, end = at + nbits;
	unsigned rem = (unsigned)(nbits & 7);
	uint64_t t;
	if (rem == 0)
		return full;
	if (full == 0)
		return 1;
	t = pmregs_ip_get57(c, end - rem - 1, end, pmregs_ip_fill(c, end), rem + 1);
	return full + (t == 0 || t == pmregs_lowmask(rem + 1) ? 0u : 1u);
}

/* ---- writing: the encoders build a packet in words and store it with word stores ---- */

/* OR x (which fits the field) in at bit pos of b (nw >= 2 words; a position past the end lands in the last two). */
static inline void pmregs_ip_put(uint64_t *b, unsigned nw, unsigned pos, uint64_t x)
{
	unsigned i = pos >> 6, o = pos & 63;
	i = i < nw - 1 ? i : nw - 2;
	b[i] |= x << o;
	b[i + 1] |= (x >> 1) >> (63 - o);
}

/* Non-zero when x does not fit in w (0..64) bits: encoders OR these together and test once. */
static inline uint64_t pmregs_ip_over(uint64_t x, unsigned w)
{
	return (x >> (w & 63)) & ((uint64_t)0 - (uint64_t)(w < 64));
}

/* Store x as 8 little-endian bytes at p: a single store where the host allows. */
static inline void pmregs_ip_store64(unsigned char *p, uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__builtin_memcpy(p, &x, 8);
#else
	pmregs_store_le64(p, x);
#endif
}

/* Store the first n bytes of b: whole words first, then the last 0..7 bytes. */
static inline void pmregs_ip_store(const uint64_t *b, size_t n, unsigned char *out)
{
	size_t i, k = n >> 3;
	uint64_t last;
	for (i = 0; i < k; i++)
		pmregs_ip_store64(out + 8 * i, b[i]);
	for (i = 8 * k, last = k < (n + 7) >> 3 ? b[k] : 0; i < n; i++, last >>= 8)
		out[i] = (unsigned char)last;
}

/*
 * Store the first n bytes of b where the buffer has room for cap bytes: whole
 * words while they fit in cap (so up to 7 bytes past n, and within cap, may
 * be written with scratch), then the rest byte by byte.
 */
static inline void pmregs_ip_store_room(const uint64_t *b, size_t n, unsigned char *out, size_t cap)
{
	size_t i, k = (n + 7) >> 3;
	if (8 * k <= cap) {
		for (i = 0; i < k; i++)
			pmregs_ip_store64(out + 8 * i, b[i]);
		return;
	}
	pmregs_ip_store(b, n, out);
}

/* The n bytes at p as words w[0..(n + 7) / 8), LSB first; the last word's bytes past n are 0. */
static inline void pmregs_ip_load_words(uint64_t *w, const unsigned char *p, size_t n)
{
	size_t i = 0;
	unsigned k;
	for (; i + 8 <= n; i += 8)
		w[i >> 3] = pmregs_ip_load64(p + i);
	k = (unsigned)(n - i);
	if (k >= 4) /* the last 1..7 bytes with two overlapping loads, not a byte loop */
		w[i >> 3] = (uint64_t)pmregs_load_le32(p + i) | ((uint64_t)pmregs_load_le32(p + n - 4) << (8 * (k - 4)));
	else if (k)
		w[i >> 3] = (uint64_t)p[i] | ((uint64_t)p[i + (k >> 1)] << (8 * (k >> 1))) |
			    ((uint64_t)p[n - 1] << (8 * (k - 1)));
}

/* Put the first n bytes of the words w (LSB first) at bit pos of b: a word at a time. */
static inline void pmregs_ip_put_words(uint64_t *b, unsigned nw, unsigned pos, const uint64_t *w, size_t n)
{
	size_t i, k = n >> 3;
	unsigned r = (unsigned)(n & 7);
	for (i = 0; i < k; i++)
		pmregs_ip_put(b, nw, pos + 64u * (unsigned)i, w[i]);
	if (r)
		pmregs_ip_put(b, nw, pos + 64u * (unsigned)k, w[k] & pmregs_lowmask(8u * r));
}

/*
 * An encoder's last step before the store: the nbits-bit packet in b gets
 * copies of its last bit above it, and its length in bytes is returned; under
 * compression (compress != 0) the shortest length that still ends in a copy
 * of the dropped bits. PMREGS_ETOOLONG above maxbytes.
 */
static inline int pmregs_ip_finish(uint64_t *b, unsigned nw, unsigned nbits, size_t maxbytes, int compress)
{
	unsigned top = (nbits - 1) >> 6, m = nbits, i, nbytes;
	uint64_t s = (b[top] >> ((nbits - 1) & 63)) & 1, fill = (uint64_t)0 - s;
	uint64_t keep = pmregs_lowmask(((nbits - 1) & 63) + 1);
	b[top] = (b[top] & keep) | (fill & ~keep);
	if (top + 1 < nw)
		b[top + 1] = fill;
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
	return (int)nbytes;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */

#endif
