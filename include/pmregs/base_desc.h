/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_desc.h - descriptors, printing and introspection.
 *
 * What every generated layout, register, parameter block, packet stream and
 * family says about itself, the bounded string builder behind _snprint(),
 * and the named-bit helpers.
 */
#ifndef PMREGS_BASE_DESC_H
#define PMREGS_BASE_DESC_H

#include "base_core.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

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

/* (Members of the descriptors go widest first, then explicit padding: no implicit padding anywhere.) */
struct pmregs_field_desc {
	const char *name;
	const char *doc;
	const struct pmregs_value_desc *values;
	uint16_t nvalues;
	uint8_t nparts;   /* 1, or more for a split field */
	uint8_t lo[4];    /* lsb0 position of each part, most significant value bits first */
	uint8_t width[4]; /* width of each part */
	uint8_t access;   /* enum pmregs_access */
	uint8_t is_signed;
	uint8_t pmregs_pad[3]; /* unused: the struct's size without implicit padding */
};

/* A variant of a layout: the field set that applies when the discriminator field holds `value`. */
struct pmregs_variant_desc {
	const char *name;
	uint64_t value;  /* discriminator value that selects it */
	uint16_t layout; /* index of the variant's own layout among the family's layouts */
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};

struct pmregs_layout_desc {
	const char *name;
	const char *title;
	const char *source;
	const char *doc;
	const struct pmregs_field_desc *fields;
	const struct pmregs_variant_desc *variants;
	uint64_t reset;
	uint64_t rsvd_mask;
	uint64_t res1_mask;
	uint64_t writable_mask;
	uint16_t nfields;
	uint16_t nvariants;
	int16_t variant_field; /* index of the field that selects a variant, or -1 (no variants) */
	int16_t variant_of;    /* index of the layout this one is a variant of, or -1 */
	uint8_t width;    /* 8, 16, 32 or 64 */
	uint8_t msb0;     /* 1: the manual numbers bit 0 as the most significant bit */
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
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

/* The total width of field f in bits: the sum of its parts' widths. */
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

/* Append the character c to sb (counted, and stored while room remains). */
static inline void pmregs_sb_putc(struct pmregs_sbuf *sb, char c)
{
	if (sb->len + 1 < sb->cap)
		sb->buf[sb->len] = c;
	sb->len++;
}

/* Append the string s to sb. */
static inline void pmregs_sb_puts(struct pmregs_sbuf *sb, const char *s)
{
	while (*s)
		pmregs_sb_putc(sb, *s++);
}

/* Append x in decimal to sb. */
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

/* Append x as 0x and hexadecimal digits to sb. */
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

/* NUL-terminate sb's buffer (truncating if full) and return the length the full text has, like snprintf. */
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
	uint8_t pmregs_pad[7]; /* unused: the struct's size without implicit padding */
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

/* What a generated parameter block says about each parameter. */
struct pmregs_param_desc {
	const char *name;
	const char *doc;
	uint64_t def;
	uint64_t min;
	uint64_t max;
};

/* A named parameter set: values[i] is the value of parameter i (in the order of the family's param descs). */
struct pmregs_param_preset {
	const char *name;
	const char *doc;
	const uint64_t *values;
};

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
	const char *facts;     /* the register's other facts as "name=value" words separated by spaces, or "" */
	uint64_t addr;         /* its value (0 without one) */
	uint64_t reset;        /* reset value: the register's own, else its layout's (0 without a layout) */
	int16_t layout;        /* index into pmregs_<family>_layouts(), or -1 when the value has no fields */
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};

/* One field of a decoded packet, as a generic stream walk reports it. */
struct pmregs_packet_field {
	const char *name;
	const char *meaning; /* the name of the value, or a null pointer */
	uint64_t value;
	uint8_t width;       /* bits the field has under the parameters (before compression; 255: that many or more) */
	uint8_t pmregs_pad[7]; /* unused: the struct's size without implicit padding */
};

/*
 * Store a field in out[k] when k < cap (the generated _fields() functions list a packet's
 * fields this way); returns k + 1. A width of 255 stands for 255 bits or more.
 */
static inline size_t pmregs_packet_field_put(struct pmregs_packet_field *out, size_t cap, size_t k, const char *name, uint64_t value,
		unsigned width, const char *meaning)
{
	if (k < cap) {
		out[k].name = name;
		out[k].meaning = meaning;
		out[k].value = value;
		out[k].width = (uint8_t)(width < 255u ? width : 255u);
	}
	return k + 1;
}

/*
 * Append " name=value" for each of the n fields f[0..n), the value in decimal for a
 * field of up to 8 bits, else as hexadecimal, followed by "(meaning)" for a named
 * value: the text of the generated packet printers (pmregs_<family>_<packet>_snprint).
 */
static inline void pmregs_sb_packet_fields(struct pmregs_sbuf *sb, const struct pmregs_packet_field *f, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		pmregs_sb_putc(sb, ' ');
		pmregs_sb_puts(sb, f[i].name);
		pmregs_sb_putc(sb, '=');
		if (f[i].width <= 8)
			pmregs_sb_dec(sb, f[i].value);
		else
			pmregs_sb_hex(sb, f[i].value);
		if (f[i].meaning) {
			pmregs_sb_putc(sb, '(');
			pmregs_sb_puts(sb, f[i].meaning);
			pmregs_sb_putc(sb, ')');
		}
	}
}

/* A decoded packet: which packet and shape, and the fields present under the parameters. */
struct pmregs_packet_view {
	const char *packet; /* the packet's name in the spec */
	const char *shape;  /* its shape, or a null pointer when nothing was decoded */
	const struct pmregs_packet_field *fields;
	unsigned nfields;
	uint8_t pmregs_pad[4]; /* unused: the struct's size without implicit padding */
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
struct pmregs_table_desc;  /* <pmregs/base_tools.h> */
struct pmregs_sample_desc; /* <pmregs/base_tools.h> */
struct pmregs_family_desc {
	const char *name;  /* as in the header's name and prefix */
	const char *title;
	const struct pmregs_layout_desc *(*layouts)(size_t *count);
	const struct pmregs_register_desc *(*registers)(size_t *count);
	const struct pmregs_param_desc *(*params)(size_t *count);   /* a null pointer: no run-time parameters */
	const struct pmregs_stream_desc *(*streams)(size_t *count); /* a null pointer: no packet streams */
	const char *vendor; /* who defines the registers (the spec's `vendor:`), "" when it names none */
	const struct pmregs_param_preset *(*presets)(size_t *count); /* a null pointer: no named parameter sets */
	/* parameters given by index (the others at their defaults): PMREGS_OK, or an error and the rule broken */
	int (*params_check)(const uint64_t *values, size_t n, const char **why);
	const struct pmregs_table_desc *(*tables)(size_t *count); /* a null pointer: no tables */
	const struct pmregs_sample_desc *(*samples)(size_t *count); /* a null pointer: no samples */
};

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_DESC_H */
