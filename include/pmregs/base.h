/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base.h - the hand-written foundation every generated pmregs header uses.
 *
 * Integer constant helpers (usable from C, C++ and assembler), error codes,
 * compile-time "does this constant fit its field" checks, byte-order-independent
 * loads and stores, the LSB-first bit stream used by trace packets, and the
 * descriptor types behind _snprint() and introspection.
 *
 * Nothing here allocates, keeps state or calls the C library, so the headers
 * work in a kernel, in a freestanding build and in user space alike.
 */
#ifndef PMREGS_BASE_H
#define PMREGS_BASE_H

#include "version.h" /* PMREGS_VERSION_MAJOR, _MINOR, _PATCH, _STRING, _NUMBER (generated from VERSION) */

/* Error codes returned (negated) by checked setters, packers and decoders. */
#define PMREGS_OK       0
#define PMREGS_ERANGE   (-1)  /* a value does not fit its field */
#define PMREGS_EINVAL   (-2)  /* a value or combination the hardware does not define */
#define PMREGS_ETRUNC   (-3)  /* input ended before a complete item */
#define PMREGS_ETOOLONG (-4)  /* input longer than the format allows */
#define PMREGS_ENOSPC   (-5)  /* output buffer too small */
#define PMREGS_ENOENT   (-6)  /* nothing matches the given name or value */
#define PMREGS_EBUSY    (-7)  /* a resource is taken by another request */

#ifdef __ASSEMBLER__
#define PMREGS_U64(c) c
#define PMREGS_U32(c) c
#define PMREGS_U16(c) c
#define PMREGS_U8(c)  c
#else /* !__ASSEMBLER__ */

#if defined(__KERNEL__)
#include <linux/types.h>
#define PMREGS_U64(c) c##ULL
#define PMREGS_U32(c) c##U
#else
#include <stddef.h>
#include <stdint.h>
#define PMREGS_U64(c) UINT64_C(c)
#define PMREGS_U32(c) UINT32_C(c)
#endif
#define PMREGS_U16(c) ((uint16_t)c##U)
#define PMREGS_U8(c)  ((uint8_t)c##U)

/*
 * PMREGS_FITS(x, w): the constant x as an unsigned 64-bit value, or a compile
 * error when x does not fit in w bits.  It is what makes the generated field
 * builders (PMREGS_<FAMILY>_<LAYOUT>_<FIELD>(x)) refuse too-wide constants.
 * In C a negative bit-field width breaks the build; in C++ a static_assert.
 */
#ifdef __cplusplus
template <unsigned long long X, int W> struct pmregs_fits_check {
	static_assert(W >= 64 || (X >> (W % 64)) == 0, "pmregs: constant does not fit its field");
	static const unsigned long long value = X;
};
#define PMREGS_FITS(x, w) (pmregs_fits_check<(unsigned long long)(x), (w)>::value)
#else
#define PMREGS_FITS(x, w)                                                                    \
	((uint64_t)(x) +                                                                     \
	 0 * sizeof(struct { int pmregs_fits : ((((uint64_t)(x) >> ((w) - 1)) >> 1) == 0) ? 1 : -1; }))
#endif

/* Field builders: the fitting constant x shifted into place, as a constant expression. */
#define PMREGS_FIELD64(x, shift, w) ((uint64_t)(PMREGS_FITS((x), (w)) << (shift)))
#define PMREGS_FIELD32(x, shift, w) ((uint32_t)(PMREGS_FITS((x), (w)) << (shift)))
#define PMREGS_FIELD16(x, shift, w) ((uint16_t)(PMREGS_FITS((x), (w)) << (shift)))
#define PMREGS_FIELD8(x, shift, w)  ((uint8_t)(PMREGS_FITS((x), (w)) << (shift)))

/* ---- byte-order-independent loads and stores (records in memory, packets) ---- */

static inline uint16_t pmregs_load_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (uint16_t)(p[1] << 8));
}
static inline uint32_t pmregs_load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t pmregs_load_le64(const unsigned char *p)
{
	return (uint64_t)pmregs_load_le32(p) | ((uint64_t)pmregs_load_le32(p + 4) << 32);
}
static inline uint16_t pmregs_load_be16(const unsigned char *p)
{
	return (uint16_t)(p[1] | (uint16_t)(p[0] << 8));
}
static inline uint32_t pmregs_load_be32(const unsigned char *p)
{
	return (uint32_t)p[3] | ((uint32_t)p[2] << 8) | ((uint32_t)p[1] << 16) | ((uint32_t)p[0] << 24);
}
static inline uint64_t pmregs_load_be64(const unsigned char *p)
{
	return ((uint64_t)pmregs_load_be32(p) << 32) | (uint64_t)pmregs_load_be32(p + 4);
}
static inline uint8_t pmregs_load_le8(const unsigned char *p) { return p[0]; }
static inline uint8_t pmregs_load_be8(const unsigned char *p) { return p[0]; }

static inline void pmregs_store_le8(unsigned char *p, uint8_t x) { p[0] = x; }
static inline void pmregs_store_be8(unsigned char *p, uint8_t x) { p[0] = x; }
static inline void pmregs_store_le16(unsigned char *p, uint16_t x)
{
	p[0] = (unsigned char)(x & 0xFFu);
	p[1] = (unsigned char)(x >> 8);
}
static inline void pmregs_store_le32(unsigned char *p, uint32_t x)
{
	pmregs_store_le16(p, (uint16_t)(x & 0xFFFFu));
	pmregs_store_le16(p + 2, (uint16_t)(x >> 16));
}
static inline void pmregs_store_le64(unsigned char *p, uint64_t x)
{
	pmregs_store_le32(p, (uint32_t)(x & 0xFFFFFFFFu));
	pmregs_store_le32(p + 4, (uint32_t)(x >> 32));
}
static inline void pmregs_store_be16(unsigned char *p, uint16_t x)
{
	p[1] = (unsigned char)(x & 0xFFu);
	p[0] = (unsigned char)(x >> 8);
}
static inline void pmregs_store_be32(unsigned char *p, uint32_t x)
{
	pmregs_store_be16(p + 2, (uint16_t)(x & 0xFFFFu));
	pmregs_store_be16(p, (uint16_t)(x >> 16));
}
static inline void pmregs_store_be64(unsigned char *p, uint64_t x)
{
	pmregs_store_be32(p + 4, (uint32_t)(x & 0xFFFFFFFFu));
	pmregs_store_be32(p, (uint32_t)(x >> 32));
}

/* ---- small helpers ---- */

/* Two's-complement sign extension of the low `width` bits of x (1 <= width <= 64). */
static inline int64_t pmregs_sext(uint64_t x, unsigned width)
{
	uint64_t sign = (uint64_t)1 << ((width - 1) & 63);
	uint64_t low = width >= 64 ? x : (x & ((sign << 1) - 1));
	if (low & sign)
		return -(int64_t)((~low & (sign - 1))) - 1;
	return (int64_t)low;
}

/* String equality without the C library. */
static inline int pmregs_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

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

/* The low w bits set (w = 0..64; anything above 64 counts as 64). */
static inline uint64_t pmregs_lowmask(unsigned w)
{
	return (((uint64_t)1 << (w & 63)) - 1) | ((uint64_t)0 - (uint64_t)(w >= 64));
}

/* Does x fit in w bits? */
static inline int pmregs_fits(uint64_t x, unsigned w)
{
	return w >= 64 || (x >> w) == 0;
}

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

/* Index of the highest set bit of x (x != 0). */
static inline unsigned pmregs_msb64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return 63u - (unsigned)__builtin_clzll((unsigned long long)x);
#else
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
#endif
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

/* What a generated parameter block says about each parameter. */
struct pmregs_param_desc {
	const char *name;
	const char *doc;
	uint64_t def;
	uint64_t min;
	uint64_t max;
};

/* ---- scheduling requests onto exclusive resources, in the fewest passes ---- */

/*
 * A request (an event to count, say) can be served by any one of its options;
 * an option takes a set of resources (bit r = resource r: a counter, an ESCR,
 * a selector field), and no resource may serve two requests in the same pass.
 * pmregs_schedule() gives every request a pass and an option so that the
 * number of passes is as small as possible. Family headers build the option
 * lists from their generated tables; this search is the same for all.
 */
#define PMREGS_SCHED_MAX 64 /* requests per call */

struct pmregs_sched_request {
	const uint64_t *options; /* resource set of each option */
	unsigned noptions;
};

struct pmregs_sched_assign {
	int pass;   /* 0-based pass that serves the request */
	int option; /* index into the request's options */
};

/*
 * Assign out[i] for each of the n requests. Returns the number of passes
 * (0 when n is 0), or PMREGS_EINVAL when n > PMREGS_SCHED_MAX or a request
 * has no option. The search is exact: passes are tried in increasing number
 * and each count is searched exhaustively unless `budget` steps (0 = a
 * default of one million) run out first; *minimal (may be null) tells
 * whether the result was proved to need the fewest passes.
 */
static inline int pmregs_schedule(const struct pmregs_sched_request *req, unsigned n,
				  struct pmregs_sched_assign *out, unsigned long budget, int *minimal)
{
	uint64_t used[PMREGS_SCHED_MAX];
	unsigned k, i;
	int proved = 1;
	if (n > PMREGS_SCHED_MAX)
		return PMREGS_EINVAL;
	if (n == 0) {
		if (minimal)
			*minimal = 1;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (req[i].noptions == 0)
			return PMREGS_EINVAL;
	if (budget == 0)
		budget = 1000000ul;
	for (k = 1; k <= n; k++) {
		unsigned long steps = 0;
		unsigned p;
		int found = 0;
		for (p = 0; p < k; p++)
			used[p] = 0;
		/* Depth-first over requests; out[] is the stack: (pass, option) tried last. */
		i = 0;
		out[0].pass = 0;
		out[0].option = -1;
		while (steps++ < budget) {
			/* the highest pass in use by requests before i, for symmetry breaking */
			int top = -1, placed = 0;
			unsigned j;
			for (j = 0; j < i; j++)
				if (out[j].pass > top)
					top = out[j].pass;
			while (out[i].pass < (int)k && out[i].pass <= top + 1) {
				const struct pmregs_sched_request *r = &req[i];
				unsigned o = (unsigned)(out[i].option + 1);
				for (; o < r->noptions; o++) {
					if ((used[out[i].pass] & r->options[o]) == 0)
						break;
				}
				if (o < r->noptions) {
					out[i].option = (int)o;
					used[out[i].pass] |= r->options[o];
					placed = 1;
					break;
				}
				out[i].pass++;
				out[i].option = -1;
			}
			if (placed) {
				if (++i == n) {
					found = 1;
					break;
				}
				out[i].pass = 0;
				out[i].option = -1;
				continue;
			}
			/* nothing fits request i: undo request i-1's choice and try its next one */
			if (i == 0)
				break;
			i--;
			used[out[i].pass] &= ~req[i].options[out[i].option];
		}
		if (found) {
			if (minimal)
				*minimal = proved;
			return (int)k;
		}
		if (steps >= budget)
			proved = 0;
	}
	return PMREGS_EINVAL; /* not reached: k = n always fits one request per pass */
}

/* ---- covering an address range with (address, mask) pairs ---- */

/*
 * Breakpoint-style registers match an address when it equals `addr` in every
 * bit whose `mask` bit is 1, so one pair matches an aligned block of 2^k
 * addresses (mask with its k low bits clear). pmregs_range_cover() finds the
 * few blocks that cover a range; a family's generated range cover says how
 * many pairs it has, the block sizes its matcher allows and which bits its
 * mask has, and checks that the hardware can match every block.
 */
struct pmregs_range_pair {
	uint64_t addr; /* first address of the block */
	uint64_t mask; /* 1 = this address bit must match */
};

/* floor(log2(x)) for x > 0, and the number of trailing zero bits of x > 0. */
static inline unsigned pmregs_log2_floor(uint64_t x)
{
	unsigned n = 0;
	if (x >> 32) { x >>= 32; n += 32; }
	if (x >> 16) { x >>= 16; n += 16; }
	if (x >> 8) { x >>= 8; n += 8; }
	if (x >> 4) { x >>= 4; n += 4; }
	if (x >> 2) { x >>= 2; n += 2; }
	return n + (unsigned)(x >> 1);
}
static inline unsigned pmregs_ctz64(uint64_t x)
{
	return pmregs_log2_floor(x & (~x + 1));
}

/*
 * The fewest aligned blocks of at most 2^max_block addresses that tile
 * [a, last] exactly, largest first from a (this greedy tiling is optimal).
 * Returns their number, or limit + 1 as soon as there are more than limit;
 * writes them to out (when not null) with mask = mask_bits less the block bits.
 */
static inline unsigned pmregs_range_tiles(uint64_t a, uint64_t last, unsigned max_block, uint64_t mask_bits,
					  unsigned limit, struct pmregs_range_pair *out)
{
	unsigned n = 0;
	for (;;) {
		uint64_t d = last - a, low;
		unsigned k = d == ~(uint64_t)0 ? 64 : pmregs_log2_floor(d + 1);
		unsigned align = a ? pmregs_ctz64(a) : 64;
		if (align < k)
			k = align;
		if (max_block < k)
			k = max_block;
		low = k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1);
		if (n == limit)
			return limit + 1;
		if (out) {
			out[n].addr = a;
			out[n].mask = mask_bits & ~low;
		}
		n++;
		if (d == low)
			return n;
		a += low + 1;
	}
}

/*
 * Cover [start, end) (end = 0 means 2^64) with at most max_pairs blocks of
 * 2^k addresses, granule <= k <= max_block <= 64, each aligned to its size.
 * The cover may reach below start and above end; of all covers that fit in
 * max_pairs, it takes the one adding the fewest such addresses, then the one
 * with the fewest blocks. It is exact: an optimal cover always starts at
 * start rounded down to some 2^q and ends at end rounded up to some 2^r, and
 * every such pair of bounds is tried.
 * Returns the number of pairs written to pairs[] and the covered range in
 * [*cov_start, *cov_end) (0 = 2^64); PMREGS_EINVAL for an empty range or bad
 * parameters; PMREGS_ENOSPC when no cover adds at most `slack` addresses.
 * Nothing is written unless it succeeds.
 */
static inline int pmregs_range_cover(uint64_t start, uint64_t end, uint64_t slack, unsigned granule,
				     unsigned max_block, uint64_t mask_bits, unsigned max_pairs,
				     struct pmregs_range_pair *pairs, uint64_t *cov_start, uint64_t *cov_end)
{
	uint64_t last = end - 1, best_a = 0, best_b = 0, best_extra = 0;
	unsigned q, r, best_n = 0;
	if ((end != 0 && start >= end) || granule > max_block || max_block > 64 || max_pairs == 0)
		return PMREGS_EINVAL;
	for (q = granule; q <= max_block; q++) {
		uint64_t lowq = q >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << q) - 1);
		uint64_t a = start & ~lowq, below = start - a, prev_b = 0;
		if (below > slack || (best_n && below > best_extra))
			break;
		if (q > granule && (start & (lowq >> 1)) == (start & lowq))
			continue; /* start is aligned to 2^q already: the same bounds as for q - 1 */
		for (r = granule; r <= max_block; r++) {
			uint64_t lowr = r >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r) - 1);
			uint64_t b = last | lowr, above = b - last;
			unsigned n;
			if (above > slack - below || (best_n && below + above > best_extra))
				break;
			if (r > granule && b == prev_b)
				continue;
			prev_b = b;
			n = pmregs_range_tiles(a, b, max_block, mask_bits, max_pairs, 0);
			if (n <= max_pairs &&
			    (best_n == 0 || below + above < best_extra || (below + above == best_extra && n < best_n))) {
				best_n = n;
				best_a = a;
				best_b = b;
				best_extra = below + above;
			}
		}
	}
	if (best_n == 0)
		return PMREGS_ENOSPC;
	pmregs_range_tiles(best_a, best_b, max_block, mask_bits, max_pairs, pairs);
	*cov_start = best_a;
	*cov_end = best_b + 1;
	return (int)best_n;
}

/* ---- programming several events at once: counters, shared selector registers, passes ---- */

/*
 * A family's generated "passes" construct describes, as constant data, how each
 * event can be counted: on which counter, taking which exclusive resources, and
 * which bits of which control register (a "slot") that writes. The functions
 * below use only that data: they place a list of events in as few passes as
 * possible (pmregs_schedule() does the search) and recognise events in control
 * register values again. Nothing here knows a family.
 */
struct pmregs_pm_write {
	uint8_t slot;   /* control register of the pass */
	uint64_t mask;  /* the bits written */
	uint64_t value; /* their new value (within mask) */
};

struct pmregs_pm_option {
	uint16_t event;       /* row of the family's event table */
	uint8_t counter;      /* counter that counts it */
	uint8_t nwrites;      /* writes[first_write .. first_write + nwrites) */
	uint16_t first_write;
	uint32_t models;      /* bit m: exists on CPU model m */
	uint64_t resources;   /* exclusive resources taken (bit r) */
};

struct pmregs_pm_table {
	uint16_t nevents;
	uint16_t noptions;
	const uint16_t *first; /* options of event e: first[e] .. first[e + 1] - 1 */
	const struct pmregs_pm_option *options;
	const struct pmregs_pm_write *writes;
};

/* An event counted in every pass (a trigger, a correlate or a sampling event). */
struct pmregs_pm_pin {
	uint16_t event;
	uint32_t counters; /* bit c: counter c may take it */
};

#define PMREGS_PM_NOT_COUNTED (-1) /* pass of an event no counter of the model can take */
#define PMREGS_PM_EVERY_PASS  (-2) /* pass of a pinned event */
#define PMREGS_PM_MAX_OPTIONS 16   /* options of one event considered */
#define PMREGS_PM_MAX_PINS    4

struct pmregs_pm_place {
	int16_t pass;   /* 0-based pass, PMREGS_PM_EVERY_PASS or PMREGS_PM_NOT_COUNTED */
	int16_t option; /* index into the table's options, or -1 */
};

/* Scratch space for pmregs_pm_plan(): the caller provides it, so the planner needs no heap and is reentrant. */
struct pmregs_pm_work {
	struct pmregs_sched_request req[PMREGS_SCHED_MAX];
	struct pmregs_sched_assign out[PMREGS_SCHED_MAX];
	uint64_t res[PMREGS_SCHED_MAX][PMREGS_PM_MAX_OPTIONS];
	uint16_t opt[PMREGS_SCHED_MAX][PMREGS_PM_MAX_OPTIONS];
	uint8_t who[PMREGS_SCHED_MAX]; /* request k serves events[who[k]] */
};

static inline int pmregs_pm_option_on(const struct pmregs_pm_option *o, unsigned model)
{
	return model < 32 && ((o->models >> model) & 1u);
}

/*
 * Place events[0..n) and the pinned events pins[0..npins) on counters of CPU
 * model `model`. A pinned event takes one counter it allows in every pass;
 * the others are spread over passes so that no resource serves two events in
 * a pass. The result is, in this order of priority: the pins placed (an
 * earlier pin before all later ones), as many events counted as possible, as
 * few passes as possible;
 * every combination of pin placements is tried and each is scheduled exactly.
 * place[i] (n entries) and pin_place[p] (npins entries) say where each went.
 * Returns the number of passes (0 when nothing but pins, or nothing, is
 * counted) or PMREGS_EINVAL: n > PMREGS_SCHED_MAX, npins > PMREGS_PM_MAX_PINS,
 * an event number outside the table, or an event given twice.
 * *minimal (may be null) is 1 when the pass count is proved to be the fewest.
 */
static inline int pmregs_pm_plan(const struct pmregs_pm_table *t, unsigned model, const uint16_t *events, unsigned n,
				 const struct pmregs_pm_pin *pins, unsigned npins, struct pmregs_pm_work *w,
				 struct pmregs_pm_place *place, struct pmregs_pm_place *pin_place, int *minimal)
{
	/* cand[p][0..ncand[p]) are pin p's usable options; index ncand[p] stands for "not placed" */
	int cand[PMREGS_PM_MAX_PINS][PMREGS_PM_MAX_OPTIONS];
	unsigned ncand[PMREGS_PM_MAX_PINS], idx[PMREGS_PM_MAX_PINS];
	unsigned i, j, p, best_lost = ~0u, best_unc = ~0u;
	int best_passes = 0, floor = 0;
	if (n > PMREGS_SCHED_MAX || npins > PMREGS_PM_MAX_PINS)
		return PMREGS_EINVAL;
	for (i = 0; i < n + npins; i++) {
		unsigned e = i < n ? events[i] : pins[i - n].event;
		if (e >= t->nevents)
			return PMREGS_EINVAL;
		for (j = 0; j < i; j++)
			if ((j < n ? events[j] : pins[j - n].event) == e)
				return PMREGS_EINVAL;
	}
	for (i = 0; i < n; i++) {
		place[i].pass = PMREGS_PM_NOT_COUNTED;
		place[i].option = -1;
	}
	for (p = 0; p < npins; p++) {
		unsigned o, e = pins[p].event;
		pin_place[p].pass = PMREGS_PM_NOT_COUNTED;
		pin_place[p].option = -1;
		ncand[p] = 0;
		idx[p] = 0;
		for (o = t->first[e]; o < t->first[e + 1] && ncand[p] < PMREGS_PM_MAX_OPTIONS; o++) {
			const struct pmregs_pm_option *op = &t->options[o];
			if (pmregs_pm_option_on(op, model) && op->counter < 32 && ((pins[p].counters >> op->counter) & 1u))
				cand[p][ncand[p]++] = (int)o;
		}
	}
	/* Every combination of pin choices, placed ones first (an odometer over idx[]). */
	for (;;) {
		uint64_t reserved = 0;
		unsigned lost = 0, unc = 0, k = 0;
		int clash = 0, passes, min = 1, lb = 0;
		for (p = 0; p < npins; p++) {
			if (idx[p] == ncand[p]) {
				lost |= 1u << (npins - 1 - p); /* losing an earlier pin weighs more */
				continue;
			}
			if (reserved & t->options[cand[p][idx[p]]].resources)
				clash = 1;
			reserved |= t->options[cand[p][idx[p]]].resources;
		}
		if (!clash && lost <= best_lost) {
			for (i = 0; i < n; i++) {
				unsigned cnt = 0, o;
				for (o = t->first[events[i]]; o < t->first[events[i] + 1] && cnt < PMREGS_PM_MAX_OPTIONS; o++) {
					if (!pmregs_pm_option_on(&t->options[o], model) || (t->options[o].resources & reserved))
						continue;
					w->res[k][cnt] = t->options[o].resources;
					w->opt[k][cnt] = (uint16_t)o;
					cnt++;
				}
				if (cnt == 0) {
					unc++;
					continue;
				}
				w->req[k].options = w->res[k];
				w->req[k].noptions = cnt;
				w->who[k] = (uint8_t)i;
				k++;
			}
			passes = pmregs_schedule(w->req, k, w->out, 0, &min);
			if (passes < 0)
				return passes;
			if (!min) {
				/* a lower bound: events that all need one same resource need a pass each */
				unsigned cnt[64] = { 0 }, r;
				for (j = 0; j < k; j++) {
					uint64_t common = ~(uint64_t)0;
					for (r = 0; r < w->req[j].noptions; r++)
						common &= w->req[j].options[r];
					for (r = 0; r < 64; r++)
						if (((common >> r) & 1u) && (int)++cnt[r] > lb)
							lb = (int)cnt[r];
				}
			} else {
				lb = passes;
			}
			if (lost < best_lost || (lost == best_lost && unc < best_unc))
				floor = lb; /* a better class of result: its proof starts afresh */
			else if (lost == best_lost && unc == best_unc && lb < floor)
				floor = lb;
			if (lost < best_lost || (lost == best_lost && (unc < best_unc || (unc == best_unc && passes < best_passes)))) {
				best_lost = lost;
				best_unc = unc;
				best_passes = passes;
				for (i = 0; i < n; i++) {
					place[i].pass = PMREGS_PM_NOT_COUNTED;
					place[i].option = -1;
				}
				for (j = 0; j < k; j++) {
					place[w->who[j]].pass = (int16_t)w->out[j].pass;
					place[w->who[j]].option = (int16_t)w->opt[j][w->out[j].option];
				}
				for (p = 0; p < npins; p++) {
					int placed = idx[p] < ncand[p];
					pin_place[p].pass = (int16_t)(placed ? PMREGS_PM_EVERY_PASS : PMREGS_PM_NOT_COUNTED);
					pin_place[p].option = (int16_t)(placed ? cand[p][idx[p]] : -1);
				}
			}
		}
		for (p = 0; p < npins; p++) {
			if (++idx[p] <= ncand[p])
				break;
			idx[p] = 0;
		}
		if (p == npins)
			break;
	}
	/* proved when no combination of the winning class can do better than best_passes */
	if (minimal)
		*minimal = floor >= best_passes;
	return best_passes;
}

/* Whether every write of option o holds in the control register values regs[]. */
static inline int pmregs_pm_option_matches(const struct pmregs_pm_table *t, unsigned o, const uint64_t *regs)
{
	unsigned k;
	const struct pmregs_pm_option *op = &t->options[o];
	for (k = op->first_write; k < (unsigned)op->first_write + op->nwrites; k++)
		if ((regs[t->writes[k].slot] & t->writes[k].mask) != t->writes[k].value)
			return 0;
	return 1;
}

/* The event that regs[] program on `counter` of `model`, or PMREGS_ENOENT when none does. */
static inline int pmregs_pm_match(const struct pmregs_pm_table *t, unsigned model, const uint64_t *regs, unsigned counter)
{
	unsigned o;
	for (o = 0; o < t->noptions; o++)
		if (t->options[o].counter == counter && pmregs_pm_option_on(&t->options[o], model) &&
		    pmregs_pm_option_matches(t, o, regs))
			return t->options[o].event;
	return PMREGS_ENOENT;
}

/*
 * The event regs[] program on each of counters 0..n-1 (n <= 64) of `model`, in
 * one walk over the options: ev[c] is the event, or PMREGS_ENOENT when none is.
 */
static inline void pmregs_pm_match_all(const struct pmregs_pm_table *t, unsigned model, const uint64_t *regs,
				       int *ev, unsigned n)
{
	unsigned o, c;
	uint64_t open = 0;
	for (c = 0; c < n; c++) {
		ev[c] = PMREGS_ENOENT;
		open |= (uint64_t)1 << c;
	}
	for (o = 0; o < t->noptions && open; o++) {
		c = t->options[o].counter;
		if (c < n && ((open >> c) & 1u) && pmregs_pm_option_on(&t->options[o], model) &&
		    pmregs_pm_option_matches(t, o, regs)) {
			ev[c] = t->options[o].event;
			open &= ~((uint64_t)1 << c);
		}
	}
}

/* The option of `event` on `counter` for `model`, or -1. */
static inline int pmregs_pm_option_of(const struct pmregs_pm_table *t, unsigned model, unsigned event, unsigned counter)
{
	unsigned o;
	if (event >= t->nevents)
		return -1;
	for (o = t->first[event]; o < t->first[event + 1]; o++)
		if (t->options[o].counter == counter && pmregs_pm_option_on(&t->options[o], model))
			return (int)o;
	return -1;
}

/* ---- counter arithmetic ---- */

/*
 * Add to *total the events a `width`-bit counter (1..64) counted since it held
 * *last and now holds `now`, then remember `now`. Correct across one wrap of
 * the counter between two calls, which is what reading it at least once per
 * 2^width events (or on every overflow interrupt) guarantees. Returns the delta.
 */
static inline uint64_t pmregs_accumulate(uint64_t *total, uint64_t *last, uint64_t now, unsigned width)
{
	uint64_t m = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
	uint64_t d = (now - *last) & m;
	*total += d;
	*last = now & m;
	return d;
}

/* x*x < 2^s, exactly, for any 64-bit x and s < 128 (used to compare on a log scale). */
static inline int pmregs_square_below_pow2(uint64_t x, unsigned s)
{
	uint64_t lo = x & 0xFFFFFFFFu, hi = x >> 32;
	uint64_t p0 = lo * lo, p1 = lo * hi, p2 = hi * hi;
	uint64_t low = p0 + (p1 << 33);
	uint64_t high = p2 + (p1 >> 31) + (low < p0 ? 1u : 0u);
	if (s >= 128)
		return 1;
	if (s >= 64)
		return high < ((uint64_t)1 << (s - 64));
	return high == 0 && low < ((uint64_t)1 << s);
}

/*
 * Of the n periods 2^log2s[i] whose ok[i] is nonzero (ok may be null), the index
 * of the one closest to `want` on a log scale (the nearest rate, whichever side),
 * ties to the shorter period; -1 when none is allowed.
 */
static inline int pmregs_nearest_pow2(uint64_t want, const uint8_t *log2s, const uint8_t *ok, unsigned n)
{
	int best = -1;
	unsigned i;
	for (i = 0; i < n; i++) {
		unsigned a, b, s;
		int above;
		if (ok && !ok[i])
			continue;
		if (best < 0) {
			best = (int)i;
			continue;
		}
		a = log2s[best];
		b = log2s[i];
		if (a == b)
			continue;
		/* the geometric mean of the two periods is 2^(s/2): want above it is nearer the longer one */
		s = a + b;
		above = !pmregs_square_below_pow2(want, s) && !(s % 2 == 0 && s / 2 < 64 && want == (uint64_t)1 << (s / 2));
		if (b > a ? above : !above)
			best = (int)i;
	}
	return best;
}

/* x / d rounded to the nearest integer, halves up; d > 0. */
static inline uint64_t pmregs_div_round(uint64_t x, uint64_t d)
{
	uint64_t q = x / d, r = x % d;
	return q + (r >= d - r ? 1u : 0u);
}

/* Nanoseconds to ticks of a `hz` clock (hz <= 18e9), rounded down; and back, rounded to nearest. */
static inline uint64_t pmregs_ns_to_ticks(uint64_t ns, uint64_t hz)
{
	return (ns / 1000000000u) * hz + (ns % 1000000000u) * hz / 1000000000u;
}
static inline uint64_t pmregs_ticks_to_ns(uint64_t ticks, uint64_t hz)
{
	return (ticks / hz) * 1000000000u + pmregs_div_round((ticks % hz) * 1000000000u, hz);
}

/* ---- descriptors: what every generated layout says about itself ---- */

enum pmregs_access {
	PMREGS_ACCESS_RW,      /* read/write */
	PMREGS_ACCESS_RO,      /* read-only; writes have no effect */
	PMREGS_ACCESS_WO,      /* write-only; reads return nothing meaningful */
	PMREGS_ACCESS_W1C,     /* write 1 to clear */
	PMREGS_ACCESS_W1S,     /* write 1 to set */
	PMREGS_ACCESS_RSVD,    /* reserved: must be written 0 */
	PMREGS_ACCESS_IGNORED, /* writes ignored, reads 0 */
	PMREGS_ACCESS_RES1,    /* reserved: must be written 1 */
	PMREGS_ACCESS_OTHER    /* defined for purposes outside this library: preserve */
};

struct pmregs_value_desc {
	const char *name;
	uint64_t value;
	const char *doc;
};

struct pmregs_field_desc {
	const char *name;
	const char *doc;
	uint8_t nparts;   /* 1, or more for a split field */
	uint8_t lo[4];    /* lsb0 position of each part, most significant value bits first */
	uint8_t width[4]; /* width of each part */
	uint8_t access;   /* enum pmregs_access */
	uint8_t is_signed;
	uint16_t nvalues;
	const struct pmregs_value_desc *values;
};

/* A variant of a layout: the field set that applies when the discriminator field holds `value`. */
struct pmregs_variant_desc {
	const char *name;
	uint64_t value;  /* discriminator value that selects it */
	uint16_t layout; /* index of the variant's own layout among the family's layouts */
};

struct pmregs_layout_desc {
	const char *name;
	const char *title;
	const char *source;
	uint8_t width;    /* 8, 16, 32 or 64 */
	uint8_t msb0;     /* 1: the manual numbers bit 0 as the most significant bit */
	uint16_t nfields;
	const struct pmregs_field_desc *fields;
	uint64_t reset;
	uint64_t rsvd_mask;
	uint64_t res1_mask;
	uint64_t writable_mask;
	const char *doc;
	int16_t variant_field; /* index of the field that selects a variant, or -1 (no variants) */
	int16_t variant_of;    /* index of the layout this one is a variant of, or -1 */
	uint16_t nvariants;
	const struct pmregs_variant_desc *variants;
};

/* Value of field f in register value v (sign bits not applied). */
static inline uint64_t pmregs_field_get(const struct pmregs_field_desc *f, uint64_t v)
{
	uint64_t x = 0;
	unsigned i;
	for (i = 0; i < f->nparts; i++) {
		unsigned w = f->width[i];
		uint64_t m = w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
		x = (w >= 64 ? 0 : (x << w)) | ((v >> f->lo[i]) & m);
	}
	return x;
}

static inline unsigned pmregs_field_width(const struct pmregs_field_desc *f)
{
	unsigned i, w = 0;
	for (i = 0; i < f->nparts; i++)
		w += f->width[i];
	return w;
}

/*
 * The layout that describes value v of a register with layout d: d itself, or
 * the variant that d's discriminator field selects in v. `layouts` is the
 * family's array (pmregs_<family>_layouts()). A discriminator value no variant
 * names leaves d, whose fields are then the ones every variant shares.
 */
static inline const struct pmregs_layout_desc *pmregs_layout_for_value(const struct pmregs_layout_desc *layouts,
								       const struct pmregs_layout_desc *d, uint64_t v)
{
	unsigned i;
	uint64_t x;
	if (d->variant_field < 0 || (unsigned)d->variant_field >= d->nfields)
		return d;
	x = pmregs_field_get(&d->fields[d->variant_field], v);
	for (i = 0; i < d->nvariants; i++)
		if (d->variants[i].value == x)
			return &layouts[d->variants[i].layout];
	return d;
}

/* ---- a bounded string builder with snprintf's return convention ---- */

struct pmregs_sbuf {
	char *buf;
	size_t cap;
	size_t len; /* length the full text would have */
};

static inline void pmregs_sb_putc(struct pmregs_sbuf *sb, char c)
{
	if (sb->len + 1 < sb->cap)
		sb->buf[sb->len] = c;
	sb->len++;
}

static inline void pmregs_sb_puts(struct pmregs_sbuf *sb, const char *s)
{
	while (*s)
		pmregs_sb_putc(sb, *s++);
}

static inline void pmregs_sb_dec(struct pmregs_sbuf *sb, uint64_t x)
{
	char tmp[20];
	unsigned n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(x % 10));
		x /= 10;
	} while (x);
	while (n)
		pmregs_sb_putc(sb, tmp[--n]);
}

static inline void pmregs_sb_hex(struct pmregs_sbuf *sb, uint64_t x)
{
	static const char digits[] = "0123456789abcdef";
	int shift = 60;
	pmregs_sb_puts(sb, "0x");
	while (shift > 0 && ((x >> shift) & 0xF) == 0)
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		pmregs_sb_putc(sb, digits[(x >> shift) & 0xF]);
}

static inline size_t pmregs_sb_finish(struct pmregs_sbuf *sb)
{
	if (sb->cap)
		sb->buf[sb->len < sb->cap ? sb->len : sb->cap - 1] = '\0';
	return sb->len;
}

/*
 * "[19:25|12:6]": the bits of field f in a register of `width` bits, first in
 * the manual's msb0 numbering (bit 0 = MSB, first:last), then in lsb0 (hi:lo);
 * the parts of a split field are separated by ','.
 */
static inline void pmregs_sb_bits_msb0(struct pmregs_sbuf *sb, const struct pmregs_field_desc *f, unsigned width)
{
	unsigned i, pass;
	pmregs_sb_putc(sb, '[');
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < f->nparts; i++) {
			unsigned lo = f->lo[i], hi = lo + f->width[i] - 1u;
			unsigned a = pass ? hi : width - 1 - hi, b = pass ? lo : width - 1 - lo;
			if (i)
				pmregs_sb_putc(sb, ',');
			pmregs_sb_dec(sb, a);
			if (a != b) {
				pmregs_sb_putc(sb, ':');
				pmregs_sb_dec(sb, b);
			}
		}
		pmregs_sb_putc(sb, pass ? ']' : '|');
	}
}

/*
 * Describe register value v as "name=value ..." using layout d: every field
 * that is not reserved, with its named value in parentheses, plus every
 * reserved field that is not as the manual requires, marked with '!'.
 * A layout whose manual numbers bit 0 as the MSB (d->msb0) shows each field's
 * bits in both numberings after its name: "pmc1sel[19:25|12:6]=0x1".
 * Writes at most n bytes (always NUL-terminated when n > 0) and returns the
 * length the whole text needs, like snprintf.
 */
static inline size_t pmregs_snprint_layout(char *buf, size_t n, uint64_t v, const struct pmregs_layout_desc *d)
{
	struct pmregs_sbuf sb;
	unsigned i, j, first = 1;
	sb.buf = buf;
	sb.cap = n;
	sb.len = 0;
	for (i = 0; i < d->nfields; i++) {
		const struct pmregs_field_desc *f = &d->fields[i];
		uint64_t x = pmregs_field_get(f, v);
		unsigned w = pmregs_field_width(f);
		int bad = (f->access == PMREGS_ACCESS_RSVD && x != 0) ||
			  (f->access == PMREGS_ACCESS_RES1 && x != (w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1)));
		if ((f->access == PMREGS_ACCESS_RSVD || f->access == PMREGS_ACCESS_IGNORED ||
		     f->access == PMREGS_ACCESS_RES1) && !bad)
			continue;
		if (!first)
			pmregs_sb_putc(&sb, ' ');
		first = 0;
		if (bad)
			pmregs_sb_putc(&sb, '!');
		pmregs_sb_puts(&sb, f->name);
		if (d->msb0)
			pmregs_sb_bits_msb0(&sb, f, d->width);
		pmregs_sb_putc(&sb, '=');
		if (f->is_signed && w < 64 && (x >> (w - 1)) & 1) {
			pmregs_sb_putc(&sb, '-');
			pmregs_sb_dec(&sb, ((~x) & (((uint64_t)1 << w) - 1)) + 1);
		} else if (w <= 3) {
			pmregs_sb_dec(&sb, x);
		} else {
			pmregs_sb_hex(&sb, x);
		}
		for (j = 0; j < f->nvalues; j++) {
			if (f->values[j].value == x) {
				pmregs_sb_putc(&sb, '(');
				pmregs_sb_puts(&sb, f->values[j].name);
				pmregs_sb_putc(&sb, ')');
				break;
			}
		}
	}
	return pmregs_sb_finish(&sb);
}

/* ---- named bits: a table column that names single bits of a field ---- */

struct pmregs_bit_desc {
	const char *name;
	const char *doc;
	uint8_t bit; /* 0..63 */
};

/* ASCII case-insensitive string equality, without the C library. */
static inline int pmregs_strcaseeq(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
		if (!x)
			return 1;
	}
}

/* The mask of the bit called name among d[0..n) (ignoring ASCII case), or 0 when none is. */
static inline uint64_t pmregs_bits_find(const struct pmregs_bit_desc *d, unsigned n, const char *name)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (pmregs_strcaseeq(d[i].name, name))
			return (uint64_t)1 << (d[i].bit & 63);
	return 0;
}

/*
 * "A|B|0x40" for the set bits of `bits`: the names of the named ones in the
 * order of d[], then the rest as one hex number. Empty for 0. Like snprintf:
 * writes at most n bytes (NUL-terminated when n > 0), returns the full length.
 */
static inline size_t pmregs_bits_snprint(char *buf, size_t n, const struct pmregs_bit_desc *d, unsigned count, uint64_t bits)
{
	struct pmregs_sbuf sb;
	unsigned i;
	int first = 1;
	sb.buf = buf;
	sb.cap = n;
	sb.len = 0;
	for (i = 0; i < count; i++) {
		uint64_t m = (uint64_t)1 << (d[i].bit & 63);
		if (!(bits & m))
			continue;
		if (!first)
			pmregs_sb_putc(&sb, '|');
		first = 0;
		pmregs_sb_puts(&sb, d[i].name);
		bits &= ~m;
	}
	if (bits) {
		if (!first)
			pmregs_sb_putc(&sb, '|');
		pmregs_sb_hex(&sb, bits);
	}
	return pmregs_sb_finish(&sb);
}

/* ---- introspection: registers, packet streams and whole families, the same for every family ---- */

/*
 * A register as a tool sees it, whatever facts its family records: the
 * generated pmregs_<family>_register_descs() lists every register this way
 * (the family's own pmregs_<family>_registers() has the typed facts).
 */
struct pmregs_register_desc {
	const char *name;      /* identifier used in the header */
	const char *title;     /* the manual's name */
	const char *doc;
	const char *source;
	const char *addr_kind; /* the register's first address fact ("msr", "spr", "index"...), or a null pointer */
	uint64_t addr;         /* its value (0 without one) */
	uint64_t reset;        /* reset value: the register's own, else its layout's (0 without a layout) */
	int16_t layout;        /* index into pmregs_<family>_layouts(), or -1 when the value has no fields */
	const char *facts;     /* the register's other facts as "name=value" words separated by spaces, or "" */
};

/* One field of a decoded packet, as a generic stream walk reports it. */
struct pmregs_packet_field {
	const char *name;
	const char *meaning; /* the name of the value, or a null pointer */
	uint64_t value;
	uint8_t width;       /* bits the field has under the parameters (before compression) */
};

/* A decoded packet: which packet and shape, and the fields present under the parameters. */
struct pmregs_packet_view {
	const char *packet; /* the packet's name in the spec */
	const char *shape;  /* its shape, or a null pointer when nothing was decoded */
	unsigned nfields;
	const struct pmregs_packet_field *fields;
};

/* One item of a stream walk: a packet (maybe carrying a payload packet) or bytes that could not be read. */
struct pmregs_stream_event {
	size_t offset;   /* first byte of the item in the buffer */
	size_t size;     /* bytes it covers */
	int status;      /* PMREGS_OK; PMREGS_ETRUNC: the buffer ends inside a packet; PMREGS_ENOENT: bytes
			    before the first packet boundary; other negative: why the bytes were skipped */
	int has_payload; /* 1: payload is decoded */
	struct pmregs_packet_view frame;
	struct pmregs_packet_view payload;
};

/* Called for each item of a walk; a non-zero return stops the walk, which returns that value. */
typedef int (*pmregs_stream_fn)(void *ctx, const struct pmregs_stream_event *ev);

struct pmregs_stream_desc {
	const char *name;
	const char *doc;
	const char *frame;   /* name of the frame packet */
	const char *payload; /* name of the payload packet it may carry */
	/*
	 * Walk buf[0..len) (synced = 1 when buf starts at a packet boundary) with
	 * the family's run-time parameters set to params[0..nparams) in the order of
	 * its parameter descriptors (the rest keep their defaults), calling fn for
	 * every item. Returns 0 at the end of the buffer, fn's non-zero value when
	 * it stops the walk, PMREGS_ERANGE when a parameter is outside its range
	 * and PMREGS_EINVAL for an illegal combination or too many parameters (fn
	 * is not called then).
	 */
	int (*walk)(const uint64_t *params, size_t nparams, const void *buf, size_t len, int synced,
		    pmregs_stream_fn fn, void *ctx);
};

/* What a family header says about itself; pmregs.h's pmregs_families() lists them all. */
struct pmregs_family_desc {
	const char *name;  /* as in the header's name and prefix */
	const char *title;
	const struct pmregs_layout_desc *(*layouts)(size_t *count);
	const struct pmregs_register_desc *(*registers)(size_t *count);
	const struct pmregs_param_desc *(*params)(size_t *count);   /* a null pointer: no run-time parameters */
	const struct pmregs_stream_desc *(*streams)(size_t *count); /* a null pointer: no packet streams */
};

#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_H */
