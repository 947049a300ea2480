/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The stream walkers' word path against the general decoders: for a
 * whole-byte payload of up to 8 bytes, pmregs_etrace_<stream>_stream_read()
 * loads it as one word xor its fill (pmregs_ip_word_bytes()) and decodes every
 * field from that word (pmregs_etrace_te_inst_decode_word(), _te_data_); the
 * general path is pmregs_etrace_te_inst_decode_at() reading the buffer.
 *
 * 1. Payloads: on random parameter blocks (every parameter drawn from its
 *    range, kept when pmregs_etrace_params_check() accepts the block), the
 *    word decoder and decode_at() give the same status, and the same packet
 *    when it decodes, for random byte strings (hostile), sign-extended random
 *    bit strings (mostly packets that decode, compressed to any length) and
 *    the canonical re-encoding of every packet that decoded.
 * 2. Streams: for every start offset of random buffers (valid frames put by
 *    the stream writers, random bytes, mutated frames, cut at a random end so
 *    that the last packets take the zero-padded tail path), each stream's
 *    _read() returns exactly what the read without the word path returns
 *    (written out below from the public decoders, as the walkers read before
 *    the word path): the status or size, the frame, the payload (also what
 *    a failed decode leaves in it), its length and the has-payload flag; and
 *    so does _read_l(), the batch decoders' read, given the frame and payload
 *    decoders' layouts of parameter-only widths (pmregs_etrace_smi_layout_init(),
 *    pmregs_etrace_te_inst_layout_init()), as the word decoder with a layout
 *    (_decode_word_l()) does in 1.
 *    On the same buffers, the walker with both layouts
 *    (pmregs_etrace_smi_stream_next_l()) gives the items of the walker without
 *    them (_next()), from a synchronised start and from an unsynchronised one;
 *    so does the walker that the generic walk (pmregs_etrace_smi_stream_walk())
 *    takes, whose decoders are out of line and decode every payload with
 *    _decode_at() (pmregs_etrace_smi_stream_next_cold()).
 * 3. Constant parameters: the same comparison with _read() given parameter
 *    blocks that are compile-time constants, where the frame decodes with a
 *    constant length while the longest packet and its slack are left (the
 *    other path of _read()); and _batch() of one payload from every start
 *    offset, which reads a constant block where it is, against the same
 *    reference read (the payload, where the walker stops, and no payload
 *    where the reference has none or fails).
 * 4. pmregs_ip_xcheck_tail()'s shortcut for fields that end at bit 64 or later.
 *
 * pmregs-test: no-force-inline (its native gcc -O2 build defines PMREGS_NO_FORCE_INLINE, a fifth of the build
 * time: part 3, whose path needs _read() and _batch() inlined where the block is constant, forces just that, below)
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/etrace_tools.h>
#include "../common/check.h"

#define TEST_SEED 0x6A09E667F3BCC909u
#include "../common/xorshift.h"

typedef struct pmregs_etrace_params params_t;

#if defined(__GNUC__) || defined(__clang__)
#define TEST_NOINLINE __attribute__((noinline))
#else
#define TEST_NOINLINE
#endif

/* A random parameter block that pmregs_etrace_params_check() accepts: each parameter kept at its default or drawn. */
static void random_params(params_t *p)
{
	size_t n, i;
	const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&n);
	for (;;) {
		pmregs_etrace_params_default(p);
		for (i = 0; i < n; i++) {
			uint64_t span = d[i].max - d[i].min, v;
			if (rnd() % 3 == 0)
				continue;
			v = d[i].min + (span == ~(uint64_t)0 ? rnd() : rnd() % (span + 1));
			if (rnd() % 2 && span > 8) /* small values often: narrow fields, short packets */
				v = d[i].min + rnd() % 9;
			(void)pmregs_etrace_param_set(p, i, v);
		}
		if (pmregs_etrace_params_check(p) == PMREGS_OK)
			return;
	}
}

/* ---- 1. payloads ---- */

/* Random bytes b[0..n): hostile, or random bits sign-extended from a random bit to the end of byte n - 1. */
static void random_payload(unsigned char *b, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		b[i] = (unsigned char)rnd();
	if (rnd() % 4) {
		/* every bit above a drawn one copies it: the rest of its byte, then whole bytes (a byte
		 * rewritten bit by bit waited for its own store at every bit: a fifth of the run) */
		size_t bit = (size_t)(rnd() % (8 * n)), k;
		unsigned s = ((unsigned)b[bit >> 3] >> (bit & 7)) & 1u, above = (0xFFu << ((bit & 7) + 1)) & 0xFFu;
		b[bit >> 3] = (unsigned char)((b[bit >> 3] & ~above) | (above & (0u - s)));
		for (k = (bit >> 3) + 1; k < n; k++)
			b[k] = (unsigned char)(0u - s);
	}
}

#define PAYLOAD_CHECK(NAME, T, ENCODE)                                                                             \
	static TEST_NOINLINE int NAME##_word(const params_t *p, const unsigned char *c, size_t n, T *out)           \
	{                                                                                                          \
		uint64_t fill, xw = pmregs_ip_word_bytes(c, 8 * n, &fill);                                         \
		return pmregs_etrace_##NAME##_decode_word(p, xw, fill, 8 * n, out);                                \
	}                                                                                                          \
	static TEST_NOINLINE int NAME##_word_l(const params_t *p, const struct pmregs_etrace_##NAME##_layout *L,    \
					       const unsigned char *c, size_t n, T *out)                          \
	{                                                                                                          \
		uint64_t fill, xw = pmregs_ip_word_bytes(c, 8 * n, &fill);                                         \
		return pmregs_etrace_##NAME##_decode_word_l(p, L, xw, fill, 8 * n, out);                           \
	}                                                                                                          \
	static TEST_NOINLINE int NAME##_at(const params_t *p, const unsigned char *c, size_t n, T *out)            \
	{                                                                                                          \
		return pmregs_etrace_##NAME##_decode_at(p, c, 0, 8 * n, 8 * n, out);                               \
	}                                                                                                          \
	/* one payload of n (1..8) bytes at c (16 readable bytes past it), L p's layout: 1 when it decoded         \
	   (then the packet decode_at() gave is in *got, when got is not null) */                                  \
	static int NAME##_one(const params_t *p, const struct pmregs_etrace_##NAME##_layout *L,                    \
			      const unsigned char *c, size_t n, unsigned long *ok, T *got)                         \
	{                                                                                                          \
		T a, b, l;                                                                                         \
		int ra, rb, rl;                                                                                    \
		int fill = (int)(rnd() & 0xFF); /* the same bytes under all: padding members none writes */        \
		memset(&a, fill, sizeof a);                                                                        \
		memset(&b, fill, sizeof b);                                                                        \
		memset(&l, fill, sizeof l);                                                                        \
		ra = NAME##_word(p, c, n, &a);                                                                     \
		rb = NAME##_at(p, c, n, &b);                                                                       \
		rl = NAME##_word_l(p, L, c, n, &l);                                                                \
		CHECK_EQ(ra, rb);                                                                                  \
		CHECK_EQ(rl, rb);                                                                                  \
		if (rb == PMREGS_OK) {                                                                             \
			(*ok)++;                                                                                   \
			if (memcmp(&a, &b, sizeof a) != 0 || memcmp(&l, &b, sizeof l) != 0) {                      \
				CHECK(memcmp(&a, &b, sizeof a) == 0); /* the word decoder's packet */               \
				CHECK(memcmp(&l, &b, sizeof l) == 0); /* the same with a layout */                  \
				return 0;                                                                          \
			}                                                                                          \
			if (got)                                                                                   \
				*got = b;                                                                          \
			return 1;                                                                                  \
		}                                                                                                  \
		return 0;                                                                                          \
	}                                                                                                          \
	static void NAME##_payloads(unsigned long blocks, unsigned long per)                                       \
	{                                                                                                          \
		unsigned long k, j, ok = 0, total = 0;                                                             \
		for (k = 0; k < blocks; k++) {                                                                     \
			params_t p;                                                                                \
			struct pmregs_etrace_##NAME##_layout L; /* p's, for its thousand payloads */               \
			random_params(&p);                                                                         \
			pmregs_etrace_##NAME##_layout_init(&p, &L);                                                \
			for (j = 0; j < per; j++) {                                                                \
				unsigned char b[8 + PMREGS_INPLACE_SLACK], e[64];                                  \
				size_t n = 1 + (size_t)(rnd() % 8), i;                                             \
				T t;                                                                               \
				random_payload(b, n);                                                              \
				for (i = n; i < sizeof b; i++) /* past the payload: anything */                   \
					b[i] = (unsigned char)rnd();                                               \
				total++;                                                                           \
				if (NAME##_one(&p, &L, b, n, &ok, &t)) {                                           \
					int m = ENCODE(&p, &t, e, sizeof e);                                       \
					if (m > 0 && m <= 8) {                                                     \
						for (i = (size_t)m; i < (size_t)m + PMREGS_INPLACE_SLACK; i++)    \
							e[i] = (unsigned char)rnd();                               \
						total++;                                                           \
						CHECK(NAME##_one(&p, &L, e, (size_t)m, &ok, PMREGS_NULL));         \
					}                                                                          \
				}                                                                                  \
			}                                                                                          \
		}                                                                                                  \
		printf("%s: %lu payloads on %lu parameter blocks, %lu decoded\n", #NAME, total, blocks, ok);     \
		CHECK(ok > total / 20); /* the comparison covered packets that decode, not only errors */          \
	}

PAYLOAD_CHECK(te_inst, struct pmregs_etrace_te_inst, pmregs_etrace_te_inst_encode)
PAYLOAD_CHECK(te_data, struct pmregs_etrace_te_data, pmregs_etrace_te_data_encode)

/* ---- 2. streams ---- */

/*
 * The read without the word path: the frame's decoder, then the payload's
 * received length and decode_at() in place, or on a zero-padded copy of the
 * packet when fewer than PMREGS_INPLACE_SLACK bytes follow it.
 */
#define REF_READ(S, F, PT, PL, FMAX, PMAX, COND)                                                                   \
	static TEST_NOINLINE int S##_ref(const unsigned char *buf, size_t len, size_t start, const params_t *p,     \
					 struct pmregs_etrace_##F *f, PT *pl, size_t *plen, int *has)              \
	{                                                                                                          \
		const unsigned char *c = buf + start;                                                              \
		int rc = pmregs_etrace_##F##_decode(p, c, len - start, f);                                        \
		*has = 0;                                                                                          \
		*plen = 0;                                                                                         \
		if (rc > 0 && f->payload_bits && (COND)) {                                                         \
			unsigned char t[FMAX + PMREGS_INPLACE_SLACK];                                              \
			size_t at = f->payload_offset, nb = f->payload_bits, n, i;                                 \
			int prc;                                                                                   \
			if (len - start < (size_t)rc + PMREGS_INPLACE_SLACK) {                                     \
				for (i = 0; i < (size_t)rc; i++)                                                   \
					t[i] = c[i];                                                               \
				for (; i < sizeof t; i++)                                                          \
					t[i] = 0;                                                                  \
				c = t;                                                                             \
			}                                                                                          \
			n = pmregs_ip_payload_bytes(c, at, nb);                                                    \
			*plen = n;                                                                                 \
			prc = n > PMAX ? PMREGS_ETOOLONG : pmregs_etrace_##PL##_decode_at(p, c, at, at + nb, 8 * n, pl); \
			if (prc < 0)                                                                               \
				return prc;                                                                        \
			*has = 1;                                                                                  \
		}                                                                                                  \
		return rc;                                                                                         \
	}                                                                                                          \
	static TEST_NOINLINE int S##_new(const unsigned char *buf, size_t len, size_t start, const params_t *p,     \
					 struct pmregs_etrace_##F *f, PT *pl, size_t *plen, int *has)              \
	{                                                                                                          \
		return pmregs_etrace_##S##_read(buf, len, start, p, f, pl, plen, has);                            \
	}                                                                                                          \
	/* _read_l(), the batch decoders' read, with the frame's and the payload's layouts for *p (S##_offsets()  \
	   sets them once for the buffer's start offsets) */                                                      \
	static struct pmregs_etrace_##F##_layout S##_fl;                                                           \
	static struct pmregs_etrace_##PL##_layout S##_pl;                                                          \
	static TEST_NOINLINE int S##_lay(const unsigned char *buf, size_t len, size_t start, const params_t *p,     \
					 struct pmregs_etrace_##F *f, PT *pl, size_t *plen, int *has)              \
	{                                                                                                          \
		return pmregs_etrace_##S##_read_l(buf, len, start, p, &S##_fl, &S##_pl, f, pl, plen, has);         \
	}                                                                                                          \
	/* every start offset of buf[0..len) read by rd: 1 per packet with a decoded payload */                   \
	static unsigned long S##_offsets_by(int (*rd)(const unsigned char *, size_t, size_t, const params_t *,    \
						      struct pmregs_etrace_##F *, PT *, size_t *, int *),          \
					   const params_t *p, const unsigned char *buf, size_t len)                \
	{                                                                                                          \
		size_t s;                                                                                          \
		unsigned long good = 0;                                                                            \
		for (s = 0; s < len; s++) {                                                                        \
			struct pmregs_etrace_##F fa, fb;                                                           \
			PT a, b;                                                                                   \
			size_t la = 77, lb = 77;                                                                   \
			int ha = 7, hb = 7, ra, rb;                                                                \
			memset(&fa, 0x33, sizeof fa);                                                              \
			memset(&fb, 0x33, sizeof fb);                                                              \
			memset(&a, 0x44, sizeof a);                                                                \
			memset(&b, 0x44, sizeof b);                                                                \
			ra = rd(buf, len, s, p, &fa, &a, &la, &ha);                                                \
			rb = S##_ref(buf, len, s, p, &fb, &b, &lb, &hb);                                           \
			CHECK_EQ(ra, rb);                                                                          \
			CHECK_EQ(ha, hb);                                                                          \
			CHECK_EQ(la, lb);                                                                          \
			CHECK(memcmp(&fa, &fb, sizeof fa) == 0);                                                   \
			CHECK(memcmp(&a, &b, sizeof a) == 0);                                                      \
			good += (unsigned long)(ra > 0 && ha);                                                     \
		}                                                                                                  \
		return good;                                                                                       \
	}                                                                                                          \
	static unsigned long S##_offsets(const params_t *p, const unsigned char *buf, size_t len)                  \
	{                                                                                                          \
		unsigned long good = S##_offsets_by(S##_new, p, buf, len);                                         \
		pmregs_etrace_##F##_layout_init(p, &S##_fl);                                                       \
		pmregs_etrace_##PL##_layout_init(p, &S##_pl);                                                      \
		CHECK_EQ(S##_offsets_by(S##_lay, p, buf, len), good);                                              \
		return good;                                                                                       \
	}

/*
 * The walker with the frame's and the payload's layouts (_next_l()), and the
 * one that the generic walk (etrace_tools.h's _walk()) takes, with its
 * decoders out of line and every payload decoded by _decode_at() (_next_cold()),
 * against the walker without them (_next()), from buf's start, synced or not: the
 * same items (every member, what a failed decode leaves in the payload too)
 * and the same walker state after each step. Returns the items.
 */
#define WALK_CHECK(S, F, PL)                                                                                       \
	static unsigned long S##_walks(const params_t *p, const unsigned char *buf, size_t len, int synced)        \
	{                                                                                                          \
		struct pmregs_etrace_##S a, b, c;                                                                  \
		struct pmregs_etrace_##S##_item ia, ib, ic;                                                        \
		struct pmregs_etrace_##F##_layout FL;                                                              \
		struct pmregs_etrace_##PL##_layout L;                                                              \
		unsigned long items = 0;                                                                           \
		int ra, rb, rc;                                                                                    \
		pmregs_etrace_##F##_layout_init(p, &FL);                                                           \
		pmregs_etrace_##PL##_layout_init(p, &L);                                                           \
		pmregs_etrace_##S##_init(&a, buf, len, synced);                                                    \
		pmregs_etrace_##S##_init(&b, buf, len, synced);                                                    \
		pmregs_etrace_##S##_init(&c, buf, len, synced);                                                    \
		memset(&ia, 0x55, sizeof ia);                                                                      \
		memset(&ib, 0x55, sizeof ib);                                                                      \
		memset(&ic, 0x55, sizeof ic);                                                                      \
		do {                                                                                               \
			ra = pmregs_etrace_##S##_next_l(&a, p, &FL, &L, &ia);                                      \
			rb = pmregs_etrace_##S##_next(&b, p, &ib);                                                 \
			CHECK_EQ(ra, rb);                                                                          \
			CHECK_EQ(a.pos, b.pos);                                                                    \
			CHECK_EQ(a.synced, b.synced);                                                              \
			CHECK(memcmp(&ia, &ib, sizeof ia) == 0);                                                   \
			rc = pmregs_etrace_##S##_next_cold(&c, p, &ic);                                           \
			CHECK_EQ(rc, rb);                                                                          \
			CHECK_EQ(c.pos, b.pos);                                                                    \
			CHECK_EQ(c.synced, b.synced);                                                              \
			CHECK(memcmp(&ic, &ib, sizeof ic) == 0);                                                   \
			items += (unsigned long)ra;                                                                \
		} while (ra == 1 && items <= len);                                                                 \
		CHECK_EQ(a.pos, len);                                                                              \
		return items;                                                                                      \
	}

WALK_CHECK(smi_stream, smi, te_inst)
WALK_CHECK(smi_data_stream, smi, te_data)
WALK_CHECK(encap_stream, encap, te_inst)
WALK_CHECK(atb_stream, atb, te_inst)

REF_READ(smi_stream, smi, struct pmregs_etrace_te_inst, te_inst, PMREGS_ETRACE_SMI_MAX_BYTES, PMREGS_ETRACE_TE_INST_MAX_BYTES,
	 f->msg_type == 2)
REF_READ(smi_data_stream, smi, struct pmregs_etrace_te_data, te_data, PMREGS_ETRACE_SMI_MAX_BYTES,
	 PMREGS_ETRACE_TE_DATA_MAX_BYTES, f->msg_type == 3)
REF_READ(encap_stream, encap, struct pmregs_etrace_te_inst, te_inst, PMREGS_ETRACE_ENCAP_MAX_BYTES,
	 PMREGS_ETRACE_TE_INST_MAX_BYTES, f->type == p->encap_type_inst)
REF_READ(atb_stream, atb, struct pmregs_etrace_te_inst, te_inst, PMREGS_ETRACE_ATB_MAX_BYTES, PMREGS_ETRACE_TE_INST_MAX_BYTES,
	 f->length > 0)

/* ---- 3. constant parameters ---- */

/*
 * Parameter blocks as compile-time constants (struct order, as the
 * PMREGS_ETRACE_PRESET_* initialisers): the spec examples' block (6-bit
 * encapsulation srcID, 2-bit type), then blocks with 5 and 16 index bits in
 * SMI headers and 3 and 8 timestamp bytes in encapsulation headers.
 */
static const params_t CB0 = PMREGS_ETRACE_PRESET_SPEC_EXAMPLES;
static const params_t CB1 = {32, 1, 2, 6, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 5, 4, 0, 0, 0, 3, 1, 1, 5, 32, 32, 1, 3, 2, 0, 0, 0, 2};
static const params_t CB2 = {64, 1, 2, 5, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 1, 5, 4, 0, 0, 12, 8, 0, 0, 16, 32, 32, 1, 3, 2, 0, 0, 0, 2};

/*
 * The constant path is taken only where _read() is inlined into a caller whose
 * block is constant: the header forces that (PMREGS_HOT) unless
 * PMREGS_NO_FORCE_INLINE is defined, as it is in this file's native build (the
 * rest of the file then builds in a fifth of the time). There the four _read()
 * functions alone are declared again, always inlined (gcc merges the attribute
 * into the header's definition; clang would ignore it, and at -O0 nothing is
 * constant anyway), so that the wrappers below still take the constant path.
 */
#if defined(PMREGS_NO_FORCE_INLINE) && defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#define FORCE_READ(S, F, PT)                                                                                       \
	static inline __attribute__((always_inline)) int pmregs_etrace_##S##_read(                                \
		const unsigned char *buf, size_t len, size_t start, const params_t *p, struct pmregs_etrace_##F *f, \
		PT *pl, size_t *plen, int *has);
FORCE_READ(smi_stream, smi, struct pmregs_etrace_te_inst)
FORCE_READ(smi_data_stream, smi, struct pmregs_etrace_te_data)
FORCE_READ(encap_stream, encap, struct pmregs_etrace_te_inst)
FORCE_READ(atb_stream, atb, struct pmregs_etrace_te_inst)
#define FORCE_BATCH(S, PT)                                                                                         \
	static inline __attribute__((always_inline)) size_t pmregs_etrace_##S##_batch(                            \
		struct pmregs_etrace_##S *s, const params_t *params, PT *out, size_t n);
FORCE_BATCH(smi_stream, struct pmregs_etrace_te_inst)
FORCE_BATCH(smi_data_stream, struct pmregs_etrace_te_data)
FORCE_BATCH(encap_stream, struct pmregs_etrace_te_inst)
FORCE_BATCH(atb_stream, struct pmregs_etrace_te_inst)
#endif

/* _read() with constant block B (the p it is given is that block, for the reference read) */
#define CONST_READ(S, F, PT, B)                                                                                    \
	static TEST_NOINLINE int S##_c##B(const unsigned char *buf, size_t len, size_t start, const params_t *p,    \
					  struct pmregs_etrace_##F *f, PT *pl, size_t *plen, int *has)             \
	{                                                                                                          \
		(void)p;                                                                                           \
		return pmregs_etrace_##S##_read(buf, len, start, &CB##B, f, pl, plen, has);                       \
	}
#define CONST_READS(S, F, PT) CONST_READ(S, F, PT, 0) CONST_READ(S, F, PT, 1) CONST_READ(S, F, PT, 2)

CONST_READS(smi_stream, smi, struct pmregs_etrace_te_inst)
CONST_READS(smi_data_stream, smi, struct pmregs_etrace_te_data)
CONST_READS(encap_stream, encap, struct pmregs_etrace_te_inst)
CONST_READS(atb_stream, atb, struct pmregs_etrace_te_inst)

/*
 * _batch() with constant block B, which it reads where it is rather than from
 * its copy: one payload from start (the walker synchronised there); *pos is
 * where the walker stopped.
 */
#define CONST_BATCH(S, PT, B)                                                                                      \
	static TEST_NOINLINE size_t S##_b##B(const unsigned char *buf, size_t len, size_t start, PT *out, size_t *pos) \
	{                                                                                                          \
		struct pmregs_etrace_##S st;                                                                       \
		size_t k;                                                                                          \
		pmregs_etrace_##S##_init(&st, buf, len, 1);                                                        \
		st.pos = start;                                                                                    \
		k = pmregs_etrace_##S##_batch(&st, &CB##B, out, 1);                                                \
		*pos = st.pos;                                                                                     \
		return k;                                                                                          \
	}
/* every start offset of buf[0..len) through bt against the reference read: 1 per packet with a decoded payload */
#define CONST_BATCHES(S, F, PT)                                                                                    \
	CONST_BATCH(S, PT, 0) CONST_BATCH(S, PT, 1) CONST_BATCH(S, PT, 2)                                          \
	static unsigned long S##_batch_offsets(size_t (*bt)(const unsigned char *, size_t, size_t, PT *, size_t *), \
					       const params_t *p, const unsigned char *buf, size_t len)            \
	{                                                                                                          \
		size_t s;                                                                                          \
		unsigned long good = 0;                                                                            \
		for (s = 0; s < len; s++) {                                                                        \
			struct pmregs_etrace_##F fb;                                                               \
			PT a, b;                                                                                   \
			size_t pos = 77, lb = 77, k;                                                               \
			int hb = 7, rb;                                                                            \
			memset(&a, 0x44, sizeof a);                                                                \
			memset(&b, 0x44, sizeof b);                                                                \
			k = bt(buf, len, s, &a, &pos);                                                             \
			rb = S##_ref(buf, len, s, p, &fb, &b, &lb, &hb);                                           \
			if (rb > 0 && hb) {                                                                        \
				CHECK_EQ(k, 1);                                                                    \
				CHECK_EQ(pos, s + (size_t)rb);                                                     \
				CHECK(memcmp(&a, &b, sizeof a) == 0);                                              \
				good++;                                                                            \
			} else {                                                                                   \
				CHECK_EQ(k, 0);                                                                    \
				CHECK_EQ(pos, s);                                                                  \
			}                                                                                          \
		}                                                                                                  \
		return good;                                                                                       \
	}

CONST_BATCHES(smi_stream, smi, struct pmregs_etrace_te_inst)
CONST_BATCHES(smi_data_stream, smi, struct pmregs_etrace_te_data)
CONST_BATCHES(encap_stream, encap, struct pmregs_etrace_te_inst)
CONST_BATCHES(atb_stream, atb, struct pmregs_etrace_te_inst)

/* A te_inst / te_data payload that decodes under p (random bits until one does), decoded into *t. */
static void good_te_inst(const params_t *p, struct pmregs_etrace_te_inst *t)
{
	unsigned char b[PMREGS_ETRACE_TE_INST_PAD_BYTES] = {0};
	size_t n;
	do {
		n = 1 + (size_t)(rnd() % 16);
		random_payload(b, n);
	} while (pmregs_etrace_te_inst_decode_padded(p, b, n, t) != PMREGS_OK);
}

static void good_te_data(const params_t *p, struct pmregs_etrace_te_data *t)
{
	unsigned char b[PMREGS_ETRACE_TE_DATA_PAD_BYTES] = {0};
	size_t n;
	do {
		n = 1 + (size_t)(rnd() % 16);
		random_payload(b, n);
	} while (pmregs_etrace_te_data_decode_padded(p, b, n, t) != PMREGS_OK);
}

/*
 * A random buffer of up to cap bytes: frames put by the writer (random frame
 * fields where the framing has them), random bytes, a flipped byte now and
 * then; its length is where it was cut.
 */
static size_t random_stream(const params_t *p, unsigned which, unsigned char *buf, size_t cap)
{
	size_t o = 0;
	while (o + 64 < cap) {
		unsigned r = (unsigned)(rnd() % 16);
		int n = -1;
		if (r == 0) { /* random bytes */
			size_t k = 1 + (size_t)(rnd() % 8);
			while (k-- && o < cap)
				buf[o++] = (unsigned char)rnd();
			continue;
		}
		if (which == 0 || which == 1) {
			struct pmregs_etrace_smi f;
			pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
			f.msg_type = (uint8_t)(which == 0 ? 2 : 3);
			if (rnd() % 8 == 0)
				f.msg_type = (uint8_t)(rnd() % 4);
			f.timestamp_present = (uint8_t)(rnd() % 4 == 0);
			f.timestamp = (uint16_t)(f.timestamp_present ? rnd() : 0);
			f.index = (uint16_t)(rnd() & ((1u << p->smi_index_bits) - 1));
			if (which == 0) {
				struct pmregs_etrace_te_inst t;
				good_te_inst(p, &t);
				n = pmregs_etrace_smi_stream_put(p, &f, &t, buf + o, cap - o);
			} else {
				struct pmregs_etrace_te_data t;
				good_te_data(p, &t);
				n = pmregs_etrace_smi_data_stream_put(p, &f, &t, buf + o, cap - o);
			}
		} else {
			struct pmregs_etrace_te_inst t;
			good_te_inst(p, &t);
			if (which == 2) {
				struct pmregs_etrace_encap f;
				pmregs_etrace_encap_init(&f, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
				f.type = (uint8_t)p->encap_type_inst;
				n = pmregs_etrace_encap_stream_put(p, &f, &t, buf + o, cap - o);
			} else {
				struct pmregs_etrace_atb f;
				pmregs_etrace_atb_init(&f, PMREGS_ETRACE_ATB_SHAPE_MESSAGE);
				f.timestamp_present = (uint8_t)(rnd() % 4 == 0);
				f.timestamp = (uint16_t)(f.timestamp_present ? rnd() : 0);
				n = pmregs_etrace_atb_stream_put(p, &f, &t, buf + o, cap - o);
			}
		}
		if (n <= 0)
			continue;
		if (rnd() % 16 == 0) /* a hostile change inside the packet */
			buf[o + (size_t)(rnd() % (unsigned)n)] ^= (unsigned char)(1u << (rnd() % 8));
		o += (size_t)n;
	}
	return o ? (size_t)(rnd() % o) + 1 : 0;
}

static void streams(unsigned long blocks)
{
	static const char *const name[4] = {"smi_stream", "smi_data_stream", "encap_stream", "atb_stream"};
	unsigned char buf[512];
	unsigned long k, good[4] = {0}, bytes[4] = {0}, items[4] = {0};
	unsigned w;
	for (k = 0; k < blocks; k++) {
		params_t p;
		int synced = (int)(k & 1);
		random_params(&p);
		for (w = 0; w < 4; w++) {
			size_t len = random_stream(&p, w, buf, sizeof buf);
			bytes[w] += len;
			switch (w) {
			case 0:
				good[w] += smi_stream_offsets(&p, buf, len);
				items[w] += smi_stream_walks(&p, buf, len, synced);
				break;
			case 1:
				good[w] += smi_data_stream_offsets(&p, buf, len);
				items[w] += smi_data_stream_walks(&p, buf, len, synced);
				break;
			case 2:
				good[w] += encap_stream_offsets(&p, buf, len);
				items[w] += encap_stream_walks(&p, buf, len, synced);
				break;
			default:
				good[w] += atb_stream_offsets(&p, buf, len);
				items[w] += atb_stream_walks(&p, buf, len, synced);
				break;
			}
		}
	}
	for (w = 0; w < 4; w++) {
		printf("%s: %lu start offsets on %lu parameter blocks, %lu decoded payloads; %lu walker items\n", name[w],
		       bytes[w], blocks, good[w], items[w]);
		CHECK(good[w] > bytes[w] / 100);
		CHECK(items[w] > bytes[w] / 100);
	}
}

static void const_streams(unsigned long rounds)
{
	static const params_t *const cb[3] = {&CB0, &CB1, &CB2};
	unsigned char buf[512];
	unsigned long k, good = 0, bytes = 0, bgood = 0;
	unsigned b, w;
	for (b = 0; b < 3; b++)
		CHECK_EQ(pmregs_etrace_params_check(cb[b]), PMREGS_OK);
	for (k = 0; k < rounds; k++)
		for (b = 0; b < 3; b++)
			for (w = 0; w < 4; w++) {
				const params_t *p = cb[b];
				size_t len = random_stream(p, w, buf, sizeof buf);
				bytes += len;
				switch (w * 3 + b) {
				case 0: good += smi_stream_offsets_by(smi_stream_c0, p, buf, len); break;
				case 1: good += smi_stream_offsets_by(smi_stream_c1, p, buf, len); break;
				case 2: good += smi_stream_offsets_by(smi_stream_c2, p, buf, len); break;
				case 3: good += smi_data_stream_offsets_by(smi_data_stream_c0, p, buf, len); break;
				case 4: good += smi_data_stream_offsets_by(smi_data_stream_c1, p, buf, len); break;
				case 5: good += smi_data_stream_offsets_by(smi_data_stream_c2, p, buf, len); break;
				case 6: good += encap_stream_offsets_by(encap_stream_c0, p, buf, len); break;
				case 7: good += encap_stream_offsets_by(encap_stream_c1, p, buf, len); break;
				case 8: good += encap_stream_offsets_by(encap_stream_c2, p, buf, len); break;
				case 9: good += atb_stream_offsets_by(atb_stream_c0, p, buf, len); break;
				case 10: good += atb_stream_offsets_by(atb_stream_c1, p, buf, len); break;
				default: good += atb_stream_offsets_by(atb_stream_c2, p, buf, len); break;
				}
				switch (w * 3 + b) {
				case 0: bgood += smi_stream_batch_offsets(smi_stream_b0, p, buf, len); break;
				case 1: bgood += smi_stream_batch_offsets(smi_stream_b1, p, buf, len); break;
				case 2: bgood += smi_stream_batch_offsets(smi_stream_b2, p, buf, len); break;
				case 3: bgood += smi_data_stream_batch_offsets(smi_data_stream_b0, p, buf, len); break;
				case 4: bgood += smi_data_stream_batch_offsets(smi_data_stream_b1, p, buf, len); break;
				case 5: bgood += smi_data_stream_batch_offsets(smi_data_stream_b2, p, buf, len); break;
				case 6: bgood += encap_stream_batch_offsets(encap_stream_b0, p, buf, len); break;
				case 7: bgood += encap_stream_batch_offsets(encap_stream_b1, p, buf, len); break;
				case 8: bgood += encap_stream_batch_offsets(encap_stream_b2, p, buf, len); break;
				case 9: bgood += atb_stream_batch_offsets(atb_stream_b0, p, buf, len); break;
				case 10: bgood += atb_stream_batch_offsets(atb_stream_b1, p, buf, len); break;
				default: bgood += atb_stream_batch_offsets(atb_stream_b2, p, buf, len); break;
				}
			}
	printf("constant parameters: %lu start offsets on 3 blocks, 4 streams, %lu decoded payloads (%lu by _batch())\n",
	       bytes, good, bgood);
	CHECK(good > bytes / 100);
	CHECK_EQ(bgood, good);
}

/*
 * pmregs_etrace_decode_smi() fills the layouts once per call, while support
 * packets change implicit_exception between packets: neither layout may read it.
 */
static void layouts_without_implicit_exception(size_t rounds)
{
	size_t r;
	for (r = 0; r < rounds; r++) {
		params_t p;
		struct pmregs_etrace_smi_layout f0, f1;
		struct pmregs_etrace_te_inst_layout l0, l1;
		random_params(&p);
		memset(&f0, 0x5a, sizeof f0);
		memset(&f1, 0x5a, sizeof f1);
		memset(&l0, 0x5a, sizeof l0);
		memset(&l1, 0x5a, sizeof l1);
		p.implicit_exception = 0;
		pmregs_etrace_smi_layout_init(&p, &f0);
		pmregs_etrace_te_inst_layout_init(&p, &l0);
		p.implicit_exception = 1;
		pmregs_etrace_smi_layout_init(&p, &f1);
		pmregs_etrace_te_inst_layout_init(&p, &l1);
		CHECK(memcmp(&f0, &f1, sizeof f0) == 0);
		CHECK(memcmp(&l0, &l1, sizeof l0) == 0);
	}
}

/*
 * pmregs_ip_xcheck_tail() returns at once where the compiler can tell that the
 * fields end at bit 64 or later (constant positions here): the same statuses as
 * where it cannot (positions it only knows at run time), for payloads of 1..8
 * bytes in the word decoders' form (nothing from the received length's last bit on).
 */
static void xcheck_tail_ends(size_t rounds)
{
	volatile size_t at[3] = {63, 64, 71};
	size_t r, have;
	for (r = 0; r < rounds; r++)
		for (have = 8; have <= 64; have += 8) {
			uint64_t xw = rnd() & ((uint64_t)-1 >> (65 - have));
			CHECK(pmregs_ip_xcheck_tail(xw, 63, have) == pmregs_ip_xcheck_tail(xw, at[0], have));
			CHECK(pmregs_ip_xcheck_tail(xw, 64, have) == pmregs_ip_xcheck_tail(xw, at[1], have));
			CHECK(pmregs_ip_xcheck_tail(xw, 71, have) == pmregs_ip_xcheck_tail(xw, at[2], have));
			CHECK(pmregs_ip_xcheck_tail(xw, at[1], have) == PMREGS_OK);
		}
}

int main(void)
{
	xcheck_tail_ends(test_scale(1000));
	layouts_without_implicit_exception(test_scale(200));
	te_inst_payloads(test_scale(2000), 1000);
	te_data_payloads(test_scale(500), 1000);
	streams(test_scale(400) < 8 ? 8 : test_scale(400)); /* synced and unsynced starts at any scale: its walker-item count is checked */
	const_streams(test_scale(100));
	return check_done("test_etrace_word");
}
