/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_core.h - constants, error codes, bit helpers, loads and stores.
 *
 * The part of the hand-written base that every generated pmregs header uses:
 * integer constant helpers (usable from C, C++ and assembler), the error codes
 * and pmregs_strerror(), compile-time "does this constant fit its field"
 * checks, bit helpers, byte-order-independent loads and stores and sign
 * extension. The other base_*.h headers build on it; base.h includes them all.
 *
 * Nothing here allocates, keeps state or calls the C library, so the headers
 * work in a kernel, in a freestanding build and in user space alike.
 */
#ifndef PMREGS_BASE_CORE_H
#define PMREGS_BASE_CORE_H

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
#define PMREGS_ENOCOVER (-8)  /* the pairs cannot cover the range within the allowed slack */

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

/*
 * C++: PMREGS_CAST(T, x) is a static_cast and PMREGS_NULL is nullptr, so what a macro expands to in a
 * C++ user's code passes -Wold-style-cast and -Wzero-as-null-pointer-constant. The function bodies are
 * C99, whose casts C++ calls old-style (and, where two typedefs name one type, useless): between
 * PMREGS_C_BEGIN and PMREGS_C_END every header turns those two C++-only warnings off for its own text,
 * and restores the user's settings at its end.
 */
#ifdef __cplusplus
#define PMREGS_CAST(T, x) (static_cast<T>(x))
#if __cplusplus >= 201103L
#define PMREGS_NULL nullptr
#else
#define PMREGS_NULL 0
#endif
#else
#define PMREGS_CAST(T, x) ((T)(x))
#define PMREGS_NULL ((void *)0)
#endif
#if defined(__cplusplus) && defined(__clang__)
#define PMREGS_C_BEGIN _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wold-style-cast\"")
#define PMREGS_C_END   _Pragma("clang diagnostic pop")
#elif defined(__cplusplus) && defined(__GNUC__)
#define PMREGS_C_BEGIN                                                                                     \
	_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wold-style-cast\"")            \
		_Pragma("GCC diagnostic ignored \"-Wuseless-cast\"")
#define PMREGS_C_END _Pragma("GCC diagnostic pop")
#else
#define PMREGS_C_BEGIN
#define PMREGS_C_END
#endif

#define PMREGS_U16(c) PMREGS_CAST(uint16_t, c##U)
#define PMREGS_U8(c)  PMREGS_CAST(uint8_t, c##U)

/*
 * PMREGS_FITS(x, w, set): the constant x as an unsigned 64-bit value, or a compile error when x is not a
 * constant or does not fit in w bits. It is what makes the generated field builders
 * (PMREGS_<FAMILY>_<LAYOUT>_<FIELD>(x)) refuse run-time values and too-wide constants; set names the
 * field's _set() accessor, which is what a run-time value needs, and every compiler's error names it:
 *   C11 and later:  static assertions "pmregs: a field builder takes a constant; for a run-time value
 *                   call SET()" and "pmregs: constant does not fit its field";
 *   C++:            the same two static assertions (the first in pmregs_const_check<false, SET>, the
 *                   template argument naming SET: C++ cannot put it into the message itself);
 *   C99:            a negative bit-field width, pmregs_builder_takes_a_constant_call_SET or pmregs_fits.
 * "Constant" is the language's integer constant expression, the same for every compiler (a const
 * variable is one in C++, not in C). Compilers other than gcc and clang in C get the width check only.
 */
#ifdef __cplusplus
template <bool Constant, class SetInstead> struct pmregs_const_check {
	static_assert(Constant, "pmregs: a field builder takes a constant; for a run-time value call the _set() "
				"accessor this template is instantiated with");
	static const int ok = 0;
};
template <unsigned long long X, int W> struct pmregs_fits_check {
	static_assert(W >= 64 || (X >> (W % 64)) == 0, "pmregs: constant does not fit its field");
	static const uint64_t value = X;
};
#define PMREGS_FITS(x, w, set)                                                                           \
	(pmregs_fits_check<(__builtin_constant_p(x) ? (x) : 0), (w)>::value +                              \
	 pmregs_const_check<__builtin_constant_p(x), struct set>::ok)
#elif defined(__GNUC__)
/* 1 when e is an integer constant expression (then (void *)(e * 0) is a null pointer constant) */
#define PMREGS_IS_CONSTANT(e)                                                                            \
	__builtin_types_compatible_p(__typeof__(1 ? (void *)((__INTPTR_TYPE__)(e) * 0) : (int *)0), int *)
#define PMREGS_CONSTANT_OR_0(e) __builtin_choose_expr(PMREGS_IS_CONSTANT(e), (uint64_t)(e), 0)
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PMREGS_FITS(x, w, set)                                                                           \
	((uint64_t)(x) + 0 * sizeof(struct {                                                                 \
		 _Static_assert(PMREGS_IS_CONSTANT(x), "pmregs: a field builder takes a constant; for a "      \
							"run-time value call " #set "()");                 \
		 _Static_assert(((PMREGS_CONSTANT_OR_0(x) >> ((w) - 1)) >> 1) == 0,                            \
				"pmregs: constant does not fit its field");                                    \
		 int pmregs_fits;                                                                              \
	 }))
#else
#define PMREGS_FITS(x, w, set)                                                                           \
	((uint64_t)(x) + 0 * sizeof(struct {                                                                 \
		 int pmregs_builder_takes_a_constant_call_##set : PMREGS_IS_CONSTANT(x) ? 1 : -1;              \
		 int pmregs_fits : ((PMREGS_CONSTANT_OR_0(x) >> ((w) - 1)) >> 1) == 0 ? 1 : -1;                \
	 }))
#endif
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PMREGS_FITS(x, w, set)                                                                           \
	((uint64_t)(x) + 0 * sizeof(struct {                                                                 \
		 _Static_assert((((uint64_t)(x) >> ((w) - 1)) >> 1) == 0,                                      \
				"pmregs: constant does not fit its field");                                    \
		 int pmregs_fits;                                                                              \
	 }))
#else
#define PMREGS_FITS(x, w, set)                                                                           \
	((uint64_t)(x) +                                                                                 \
	 0 * sizeof(struct { int pmregs_fits : ((((uint64_t)(x) >> ((w) - 1)) >> 1) == 0) ? 1 : -1; }))
#endif

/* A name kept for one release after a rename: using it warns (gcc, clang), naming the new one. */
#if defined(__GNUC__) || defined(__clang__)
#define PMREGS_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define PMREGS_DEPRECATED(msg)
#endif

/*
 * A decoder's hot path, and the tiny helpers it calls, are inlined into the
 * caller whatever the compiler's size heuristics say, so that a constant
 * parameter block (a preset) folds every width and position into the code
 * and no helper becomes a call when a decoder grows. Define
 * PMREGS_NO_FORCE_INLINE before including a pmregs header to leave that to
 * the compiler: smaller code and much faster builds of programs that call
 * the codecs in many places, the same results. Without optimisation (no
 * __OPTIMIZE__) nothing is forced: no constant folds there, and the inlined
 * copies only make large functions, slow to compile and hard to step
 * through in a debugger.
 */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__) && !defined(PMREGS_NO_FORCE_INLINE)
#define PMREGS_HOT static inline __attribute__((always_inline))
#else
#define PMREGS_HOT static inline
#endif

/*
 * The way a hot test nearly always goes (the common packet, a fast path
 * taken): the compiler lays that path out straight, with no taken jump, which
 * a wide core fetches faster. Only a hint; the results are the same.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PMREGS_LIKELY(c) __builtin_expect(!!(c), 1)
#define PMREGS_UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define PMREGS_LIKELY(c) (c)
#define PMREGS_UNLIKELY(c) (c)
#endif

/* Field builders: the fitting constant x shifted into place, as a constant expression (set: as above). */
#define PMREGS_FIELD64(x, shift, w, set) (PMREGS_FITS((x), (w), set) << (shift))
#define PMREGS_FIELD32(x, shift, w, set) PMREGS_CAST(uint32_t, PMREGS_FITS((x), (w), set) << (shift))
#define PMREGS_FIELD16(x, shift, w, set) PMREGS_CAST(uint16_t, PMREGS_FITS((x), (w), set) << (shift))
#define PMREGS_FIELD8(x, shift, w, set)  PMREGS_CAST(uint8_t, PMREGS_FITS((x), (w), set) << (shift))

PMREGS_C_BEGIN

/* ---- byte-order-independent loads and stores (records in memory, packets) ---- */

/* The bytes of a record: a generated PREFIX_RECORD_FIELD_load(rec) / _store(rec, x) is a macro over
 * pmregs_load_*(pmregs_crec(rec) + offset) / pmregs_store_*(pmregs_rec(rec) + offset, x), so rec is
 * checked as an object pointer and x converted as a function's parameters would be. */
static inline const unsigned char *pmregs_crec(const void *rec) { return (const unsigned char *)rec; }
/* The bytes of a record, writable (pmregs_crec() without the const). */
static inline unsigned char *pmregs_rec(void *rec) { return (unsigned char *)rec; }

/* The 16-bit little-endian value at p (any alignment). */
static inline uint16_t pmregs_load_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (uint16_t)(p[1] << 8));
}
/* The 32-bit little-endian value at p (any alignment). */
static inline uint32_t pmregs_load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
/* The 64-bit little-endian value at p (any alignment). */
static inline uint64_t pmregs_load_le64(const unsigned char *p)
{
	return (uint64_t)pmregs_load_le32(p) | ((uint64_t)pmregs_load_le32(p + 4) << 32);
}
/* The 16-bit big-endian value at p (any alignment). */
static inline uint16_t pmregs_load_be16(const unsigned char *p)
{
	return (uint16_t)(p[1] | (uint16_t)(p[0] << 8));
}
/* The 32-bit big-endian value at p (any alignment). */
static inline uint32_t pmregs_load_be32(const unsigned char *p)
{
	return (uint32_t)p[3] | ((uint32_t)p[2] << 8) | ((uint32_t)p[1] << 16) | ((uint32_t)p[0] << 24);
}
/* The 64-bit big-endian value at p (any alignment). */
static inline uint64_t pmregs_load_be64(const unsigned char *p)
{
	return ((uint64_t)pmregs_load_be32(p) << 32) | (uint64_t)pmregs_load_be32(p + 4);
}
/* The byte at p (a record field of one byte, either byte order). */
static inline uint8_t pmregs_load_le8(const unsigned char *p) { return p[0]; }
/* The byte at p (a record field of one byte, either byte order). */
static inline uint8_t pmregs_load_be8(const unsigned char *p) { return p[0]; }

/* Write the byte x at p. */
static inline void pmregs_store_le8(unsigned char *p, uint8_t x) { p[0] = x; }
/* Write the byte x at p. */
static inline void pmregs_store_be8(unsigned char *p, uint8_t x) { p[0] = x; }
/* Write x at p as 16-bit little-endian (any alignment). */
static inline void pmregs_store_le16(unsigned char *p, uint16_t x)
{
	p[0] = (unsigned char)(x & 0xFFu);
	p[1] = (unsigned char)(x >> 8);
}
/* Write x at p as 32-bit little-endian (any alignment). */
static inline void pmregs_store_le32(unsigned char *p, uint32_t x)
{
	pmregs_store_le16(p, (uint16_t)(x & 0xFFFFu));
	pmregs_store_le16(p + 2, (uint16_t)(x >> 16));
}
/* Write x at p as 64-bit little-endian (any alignment). */
static inline void pmregs_store_le64(unsigned char *p, uint64_t x)
{
	pmregs_store_le32(p, (uint32_t)(x & 0xFFFFFFFFu));
	pmregs_store_le32(p + 4, (uint32_t)(x >> 32));
}
/* Write x at p as 16-bit big-endian (any alignment). */
static inline void pmregs_store_be16(unsigned char *p, uint16_t x)
{
	p[1] = (unsigned char)(x & 0xFFu);
	p[0] = (unsigned char)(x >> 8);
}
/* Write x at p as 32-bit big-endian (any alignment). */
static inline void pmregs_store_be32(unsigned char *p, uint32_t x)
{
	pmregs_store_be16(p + 2, (uint16_t)(x & 0xFFFFu));
	pmregs_store_be16(p, (uint16_t)(x >> 16));
}
/* Write x at p as 64-bit big-endian (any alignment). */
static inline void pmregs_store_be64(unsigned char *p, uint64_t x)
{
	pmregs_store_be32(p + 4, (uint32_t)(x & 0xFFFFFFFFu));
	pmregs_store_be32(p, (uint32_t)(x >> 32));
}

/* ---- field accessors ----
 * A generated per-field accessor PREFIX_LAYOUT_FIELD_get(v) or _set(v, x) is a macro: its arguments pass
 * through pmregs_uN(), so they are converted (and warned about) as a function's parameters would be and
 * evaluated once, and the shift-and-mask around them is what a hand-written accessor would write.
 * PREFIX_LAYOUT_FIELD_set_checked(&v, x) is pmregs_set_checkedN() with the field's lowest bit lo and
 * unshifted mask m: PMREGS_ERANGE, *v untouched, when x does not fit.
 * For a field of a 32- or 64-bit register narrower than the register, _get and _set are
 * PMREGS_GETn(v, lo, m) and PMREGS_SETn(v, x, lo, m), m the field's unshifted mask as a hexadecimal
 * literal without suffix (the macros give it the register's width).
 */
#define PMREGS_GET32(v, lo, m)    ((pmregs_u32(v) >> (lo)) & m##u)
#define PMREGS_SET32(v, x, lo, m) ((pmregs_u32(v) & ~(m##u << (lo))) | ((pmregs_u32(x) & m##u) << (lo)))
#define PMREGS_GET64(v, lo, m)    ((pmregs_u64(v) >> (lo)) & PMREGS_U64(m))
#define PMREGS_SET64(v, x, lo, m) ((pmregs_u64(v) & ~(PMREGS_U64(m) << (lo))) | ((pmregs_u64(x) & PMREGS_U64(m)) << (lo)))
/* x converted to uint8_t as a function parameter converts it: what the 8-bit accessor macros apply to v and x. */
static inline uint8_t pmregs_u8(uint8_t x) { return x; }
/* x converted to uint16_t as a function parameter converts it (the 16-bit accessor macros' v and x). */
static inline uint16_t pmregs_u16(uint16_t x) { return x; }
/* x converted to uint32_t as a function parameter converts it (the 32-bit accessor macros' v and x). */
static inline uint32_t pmregs_u32(uint32_t x) { return x; }
/* x converted to uint64_t as a function parameter converts it (the 64-bit accessor macros' v and x). */
static inline uint64_t pmregs_u64(uint64_t x) { return x; }
/* The number of set bits of x, branch-free (the function language's popcount()). */
static inline uint64_t pmregs_popcount64(uint64_t x)
{
	x = x - ((x >> 1) & PMREGS_U64(0x5555555555555555));
	x = (x & PMREGS_U64(0x3333333333333333)) + ((x >> 2) & PMREGS_U64(0x3333333333333333));
	x = (x + (x >> 4)) & PMREGS_U64(0x0F0F0F0F0F0F0F0F);
	return (x * PMREGS_U64(0x0101010101010101)) >> 56;
}
/* The 8-bit _set_checked(): x into the field of mask m at bit lo of *v, or PMREGS_ERANGE (and *v unchanged) when x does not fit. */
static inline int pmregs_set_checked8(uint8_t *v, unsigned lo, uint8_t m, uint8_t x)
{
	if (x > m)
		return PMREGS_ERANGE;
	*v = (uint8_t)((*v & ~(m << lo)) | ((x & m) << lo));
	return PMREGS_OK;
}
/* The 16-bit _set_checked(): x into the field of mask m at bit lo of *v, or PMREGS_ERANGE (and *v unchanged) when x does not fit. */
static inline int pmregs_set_checked16(uint16_t *v, unsigned lo, uint16_t m, uint16_t x)
{
	if (x > m)
		return PMREGS_ERANGE;
	*v = (uint16_t)((*v & ~(m << lo)) | ((x & m) << lo));
	return PMREGS_OK;
}
/* The 32-bit _set_checked(): x into the field of mask m at bit lo of *v, or PMREGS_ERANGE (and *v unchanged) when x does not fit. */
static inline int pmregs_set_checked32(uint32_t *v, unsigned lo, uint32_t m, uint32_t x)
{
	if (x > m)
		return PMREGS_ERANGE;
	*v = (*v & ~(m << lo)) | ((x & m) << lo);
	return PMREGS_OK;
}
/* The 64-bit _set_checked(): x into the field of mask m at bit lo of *v, or PMREGS_ERANGE (and *v unchanged) when x does not fit. */
static inline int pmregs_set_checked64(uint64_t *v, unsigned lo, uint64_t m, uint64_t x)
{
	if (x > m)
		return PMREGS_ERANGE;
	*v = (*v & ~(m << lo)) | ((x & m) << lo);
	return PMREGS_OK;
}

/* ---- repeat groups ----
 * The indexed accessors PREFIX_LAYOUT_GROUP_get(v, i) and _set(v, i, x) of a repeat group of unsigned
 * fields of a 32- or 64-bit register are pmregs_group_getN(v, i, n, lo, step, m) and
 * pmregs_group_setN(v, i, x, n, lo, step, m): field i of n has its lowest bit at lo + step * i (step may be
 * negative) and the unshifted mask m; an index past the last one reads 0 and writes nothing.
 */
static inline uint32_t pmregs_group_get32(uint32_t v, unsigned i, unsigned n, unsigned lo, int step, uint32_t m)
{
	return i < n ? (v >> (lo + (unsigned)step * i)) & m : 0;
}
/* v (32 bits) with field i of a repeat group of n (mask m, the first at bit lo, step bits apart) replaced by x; v for i >= n. */
static inline uint32_t pmregs_group_set32(uint32_t v, unsigned i, uint32_t x, unsigned n, unsigned lo, int step, uint32_t m)
{
	unsigned s = lo + (unsigned)step * i;
	return i < n ? (v & ~(m << s)) | ((x & m) << s) : v;
}
/* Field i of a repeat group of n in v (64 bits; mask m, the first at bit lo, step bits apart), or 0 for i >= n. */
static inline uint64_t pmregs_group_get64(uint64_t v, unsigned i, unsigned n, unsigned lo, int step, uint64_t m)
{
	return i < n ? (v >> (lo + (unsigned)step * i)) & m : 0;
}
/* v (64 bits) with field i of a repeat group of n (mask m, the first at bit lo, step bits apart) replaced by x; v for i >= n. */
static inline uint64_t pmregs_group_set64(uint64_t v, unsigned i, uint64_t x, unsigned n, unsigned lo, int step, uint64_t m)
{
	unsigned s = lo + (unsigned)step * i;
	return i < n ? (v & ~(m << s)) | ((x & m) << s) : v;
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

/* The int64_t whose two's complement is u: no branch, no implementation-defined conversion (compilers
 * emit a plain move). */
static inline int64_t pmregs_s64(uint64_t u)
{
	return (int64_t)(u & PMREGS_U64(0x7FFFFFFFFFFFFFFF)) + (-(int64_t)PMREGS_U64(0x7FFFFFFFFFFFFFFF) - 1) * (int64_t)(u >> 63);
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

/* ---- bits ---- */

/* The low w bits set (w = 0..64; anything above 64 counts as 64). */
PMREGS_HOT uint64_t pmregs_lowmask(unsigned w)
{
	return (((uint64_t)1 << (w & 63)) - 1) | ((uint64_t)0 - (uint64_t)(w >= 64));
}

/* Does x fit in w bits? */
static inline int pmregs_fits(uint64_t x, unsigned w)
{
	return w >= 64 || (x >> w) == 0;
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
/* The number of trailing zero bits of x (x != 0), without a compiler builtin. */
static inline unsigned pmregs_ctz64(uint64_t x)
{
	return pmregs_log2_floor(x & (~x + 1));
}

/* ---- error messages ---- */

/*
 * A short message for a pmregs return value: one for each PMREGS_E* code,
 * "success" for PMREGS_OK and any other non-negative value (a count), and
 * "unknown error" for a negative value that is no pmregs code.
 */
static inline const char *pmregs_strerror(int err)
{
	switch (err) {
	case PMREGS_ERANGE:
		return "value does not fit its field";
	case PMREGS_EINVAL:
		return "value or combination the hardware does not define";
	case PMREGS_ETRUNC:
		return "input ended before a complete item";
	case PMREGS_ETOOLONG:
		return "input longer than the format allows";
	case PMREGS_ENOSPC:
		return "output buffer too small";
	case PMREGS_ENOENT:
		return "nothing matches the given name or value";
	case PMREGS_EBUSY:
		return "resource taken by another request";
	case PMREGS_ENOCOVER:
		return "range not coverable by the pairs within the allowed slack";
	default:
		return err >= 0 ? "success" : "unknown error";
	}
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_CORE_H */
