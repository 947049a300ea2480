/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_tools.h - hand-written: the descriptors of what only tools walk,
 * event tables and sample records, and their readers. Each generated
 * <pmregs/FAMILY_tools.h> includes it; a driver's <pmregs/FAMILY.h> does not.
 */
#ifndef PMREGS_BASE_TOOLS_H
#define PMREGS_BASE_TOOLS_H

#include "base_desc.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/*
 * An event table as a tool sees it (pmregs_<family>_tables()): its rows are the family's own row
 * structs, read through column descriptors, so one loop lists any family's table (pmregs-decode
 * --list FAMILY TABLE). Every row starts with its name, title and doc strings.
 */
enum pmregs_column_kind {
	PMREGS_COLUMN_UINT, /* an unsigned integer of `size` bytes */
	PMREGS_COLUMN_BOOL, /* 0 or 1, one byte */
	PMREGS_COLUMN_ENUM, /* a value of one of the family's enums (sizeof the enum) */
	PMREGS_COLUMN_SET,  /* a set of a family enum's values, bit v for value v */
	PMREGS_COLUMN_STR,  /* a string */
	PMREGS_COLUMN_LIST, /* `count` unsigned integers of `size` bytes each */
	PMREGS_COLUMN_BITS  /* named bits: a uint64_t mask, the bit names and their count */
};
struct pmregs_column_desc {
	const char *name;
	const char *doc;
	uint8_t kind;          /* enum pmregs_column_kind */
	uint8_t size;          /* bytes of one value (UINT, BOOL, ENUM, SET, LIST elements, BITS mask) */
	uint16_t offset;       /* where the value (LIST: its first element) is in the row */
	uint16_t count_offset; /* LIST, BITS: where the uint8_t count is */
	uint16_t names_offset; /* BITS: where the const struct pmregs_bit_desc * is */
};
struct pmregs_table_desc {
	const char *name;   /* as in the header */
	const char *title;
	const char *source; /* the manual table it comes from, or "" */
	const void *(*rows)(size_t *count);
	size_t row_size;
	const struct pmregs_column_desc *columns;
	size_t ncolumns;
};

/* Row i of table t (i below the count t->rows() gives). */
static inline const unsigned char *pmregs_table_row(const struct pmregs_table_desc *t, size_t i)
{
	const unsigned char *rows = (const unsigned char *)t->rows(PMREGS_NULL);
	return rows + i * t->row_size;
}

/* The bytes of an object in a row, copied into one of the caller's: no type punning. */
static inline void pmregs_table_copy(void *to, const unsigned char *from, size_t n)
{
	unsigned char *d = (unsigned char *)to;
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = from[i];
}

/* The string at byte offset `offset` of a row (the row's name is at 0, its title and doc follow). */
static inline const char *pmregs_table_str(const unsigned char *row, size_t offset)
{
	const char *s;
	pmregs_table_copy(&s, row + offset, sizeof s);
	return s;
}

/* The unsigned integer of `size` bytes (1, 2, 4 or 8) at byte offset `offset` of a row. */
static inline uint64_t pmregs_table_uint(const unsigned char *row, size_t offset, unsigned size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	switch (size) {
	case 1:
		pmregs_table_copy(&u8, row + offset, 1);
		return u8;
	case 2:
		pmregs_table_copy(&u16, row + offset, 2);
		return u16;
	case 4:
		pmregs_table_copy(&u32, row + offset, 4);
		return u32;
	default:
		pmregs_table_copy(&u64, row + offset, 8);
		return u64;
	}
}

/* Value k of column c in a row: the value itself, or a LIST's element k (k below pmregs_table_count()). */
static inline uint64_t pmregs_table_value(const unsigned char *row, const struct pmregs_column_desc *c, size_t k)
{
	return pmregs_table_uint(row, c->offset + (c->kind == PMREGS_COLUMN_LIST ? k * c->size : 0), c->size);
}

/* How many values column c holds in a row: a LIST's or BITS' count, else 1. */
static inline size_t pmregs_table_count(const unsigned char *row, const struct pmregs_column_desc *c)
{
	if (c->kind == PMREGS_COLUMN_LIST || c->kind == PMREGS_COLUMN_BITS)
		return (size_t)pmregs_table_uint(row, c->count_offset, 1);
	return 1;
}

/* A BITS column's bit names in a row (pmregs_table_count() of them). */
static inline const struct pmregs_bit_desc *pmregs_table_bits(const unsigned char *row, const struct pmregs_column_desc *c)
{
	const struct pmregs_bit_desc *d;
	pmregs_table_copy(&d, row + c->names_offset, sizeof d);
	return d;
}

/*
 * A record of register values in a fixed order, as hardware or an OS hands it to a tool (e.g. a perf
 * raw IBS sample): pmregs_<family>_samples() lists them. With a caps register, the record starts with
 * that register's 32-bit value, which says which items follow and how to read some of them.
 */
struct pmregs_sample_item {
	int16_t reg;     /* index into pmregs_<family>_register_descs() */
	int8_t if_bit;   /* -1: always there; else there only when this bit of the caps value is 1 */
	int8_t alt_bit;  /* -1: none; else read as register alt_reg when this bit of the caps value is 1 */
	int16_t alt_reg;
};
struct pmregs_sample_desc {
	const char *name;
	const char *title;
	const char *doc;
	const char *source;
	const struct pmregs_sample_item *items;
	size_t nitems;
	int16_t caps;    /* the register whose 32-bit value leads the record, or -1 */
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};

/* The registers (indices into the family's register descs) of a record with caps value `caps`, in
 * order: their number, of which the first min(that, n) are in out[]. */
static inline size_t pmregs_sample_registers(const struct pmregs_sample_desc *s, uint32_t caps, int16_t *out, size_t n)
{
	size_t i, k = 0;
	for (i = 0; i < s->nitems; i++) {
		const struct pmregs_sample_item *it = &s->items[i];
		int16_t reg = it->reg;
		if (it->if_bit >= 0 && !((caps >> it->if_bit) & 1u))
			continue;
		if (it->alt_bit >= 0 && ((caps >> it->alt_bit) & 1u))
			reg = it->alt_reg;
		if (k < n)
			out[k] = reg;
		k++;
	}
	return k;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_TOOLS_H */
