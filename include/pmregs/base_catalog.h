/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_catalog.h - hand-written: event catalogues, read generically.
 *
 * A catalogue (a spec's `catalogs` section, generated into <pmregs/FAMILY_CATALOG.h>) holds
 * tables of events, one per processor model, for one event-select register. Strings live in
 * pools of 4096-byte chunks, events are sorted by name ignoring ASCII case (a lookup is a binary
 * search), and every event carries its register value already placed. This header finds tables
 * (by name or CPUID signature) and events (by name, alias, or the syntaxes of Intel, libpfm4 and
 * perf), and turns a request into the register value, the extra MSR and perf_event_attr's fields.
 * Only tools include it; nothing behind it but base_desc.h.
 */
#ifndef PMREGS_BASE_CATALOG_H
#define PMREGS_BASE_CATALOG_H

#include "base_desc.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

#define PMREGS_CAT_CHUNK 4096u /* bytes per string-pool chunk; no string crosses a chunk */
#define PMREGS_CAT_NONE 0xFFFFu
#define PMREGS_CAT_HASH_ROW 1024u /* name-index slots per row of struct pmregs_catalog's hash */

/*
 * A generated catalogue initializes its records without their zero tails (pmregs_pad), which C fills
 * with zeros anyway: the compiler reads a third fewer initializers. Between PMREGS_CAT_DATA_BEGIN and
 * PMREGS_CAT_DATA_END gcc's and clang's -Wmissing-field-initializers (in -Wextra), which would name
 * every record, is off; the user's setting is restored after the catalogue.
 */
#if defined(__GNUC__)
#define PMREGS_CAT_DATA_BEGIN                                                                              \
	_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"")
#define PMREGS_CAT_DATA_END _Pragma("GCC diagnostic pop")
#else
#define PMREGS_CAT_DATA_BEGIN
#define PMREGS_CAT_DATA_END
#endif

struct pmregs_cat_event {
	uint64_t value;    /* every field the event sets, placed in the event-select register */
	uint64_t counters; /* bit n: may count on general counter n; bit 32 + n: on fixed counter n */
	uint32_t name;     /* string-pool offset */
	uint32_t desc;     /* description-pool offset (0: none) */
	uint16_t extra;    /* index into the catalogue's extras, or PMREGS_CAT_NONE */
	uint16_t flags;    /* the catalogue's flags (struct pmregs_cat_flag) */
	uint8_t pmregs_pad[4]; /* unused: the struct's size without implicit padding */
};
struct pmregs_cat_alias {
	uint32_t name;  /* string-pool offset */
	uint32_t event; /* index into the catalogue's events */
};
struct pmregs_cat_extra {
	uint64_t value; /* what the extra MSR must hold */
	uint32_t msr;
	uint16_t term;  /* the perf term that carries the value (index into terms) */
	uint8_t pmregs_pad[2]; /* unused: the struct's size without implicit padding */
};
struct pmregs_cat_cpu {                 /* a range of CPUID signatures served by one table */
	uint16_t family;                    /* display family (base + extended) */
	uint16_t table;
	uint8_t model_lo, model_hi;         /* display model */
	uint8_t step_lo, step_hi;
	uint8_t core_type;                  /* CPUID.1AH:EAX[31:24] on hybrid parts, 0: any */
	uint8_t pmregs_pad[1]; /* unused: the struct's size without implicit padding */
};
struct pmregs_cat_table {               /* one processor model (one core type of a hybrid part) */
	uint32_t name, title, source, pmu;  /* string-pool offsets; pmu: Linux's sysfs PMU name */
	uint32_t first, count;              /* its events, sorted by name ignoring case */
	uint32_t first_alias, naliases;     /* its aliases, sorted the same way */
};
struct pmregs_cat_term {                /* a perf format term and its libpfm4 modifier */
	const char *name;                   /* perf's name (sysfs format/NAME) */
	const char *pfm;                    /* libpfm4's modifier name, or "" */
	uint32_t msr[2];                    /* the extra MSRs whose value this term is (nparts 0) */
	uint8_t word;                       /* 0: attr.config, 1: config1, 2: config2 */
	uint8_t nparts;                     /* register bit ranges, low value bits first; 0: an extra MSR's value */
	uint8_t lo[4], width[4];
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};
struct pmregs_cat_flag {
	const char *name;
	const char *doc;
	uint8_t lo, width;
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};
struct pmregs_catalog {
	const char *name, *title, *vendor, *source, *licence, *notice;
	const char *family, *layout; /* the family and layout (its event-select register) events are placed in */
	const char (*pool)[PMREGS_CAT_CHUNK];
	size_t npool;
	const char (*descs)[PMREGS_CAT_CHUNK]; /* description pool (empty without descriptions) */
	size_t ndescs;
	const struct pmregs_cat_table *tables;
	size_t ntables;
	const struct pmregs_cat_event *events;
	size_t nevents;
	const struct pmregs_cat_alias *aliases;
	size_t naliases;
	const struct pmregs_cat_extra *extras;
	size_t nextras;
	const struct pmregs_cat_cpu *cpus;
	size_t ncpus;
	const struct pmregs_cat_term *terms;
	size_t nterms;
	const struct pmregs_cat_flag *flags;
	size_t nflags;
	/* open-addressed name index, PMREGS_CAT_HASH_ROW slots a row (a string literal and its NUL), each two
	 * bytes, low byte first: 0 empty, else 1 + entry (events, then aliases) */
	const unsigned char (*hash)[2 * PMREGS_CAT_HASH_ROW + 1];
	size_t nhash;           /* slots, a power of two (0: no index, binary search) */
	const char *vendor_id;  /* CPUID vendor string of its tables ("GenuineIntel") */
	uint64_t user, kernel;  /* register bits: count in user mode, in kernel mode */
	uint64_t host, guest;   /* register bits: count only in the host, only in guests (0: none) */
	uint64_t enable;        /* bits a driver sets to count (EN), and INT for sampling: int_en */
	uint64_t int_en;
	uint64_t perf_mask;     /* register bits attr.config carries for the sysfs `cpu` PMU */
};

/* ---- strings ---- */

/* The string at offset off of a chunked string pool of n chunks; "" when off is past its end. */
static inline const char *pmregs_cat_chunk_str(const char (*pool)[PMREGS_CAT_CHUNK], size_t n, uint32_t off)
{
	if ((size_t)(off / PMREGS_CAT_CHUNK) >= n)
		return "";
	return pool[off / PMREGS_CAT_CHUNK] + off % PMREGS_CAT_CHUNK;
}
/* The string at offset off of catalogue c's name pool. */
static inline const char *pmregs_cat_str(const struct pmregs_catalog *c, uint32_t off)
{
	return pmregs_cat_chunk_str(c->pool, c->npool, off);
}
/* The name of event e of catalogue c. */
static inline const char *pmregs_cat_event_name(const struct pmregs_catalog *c, const struct pmregs_cat_event *e)
{
	return pmregs_cat_str(c, e->name);
}
/* The event's description, or "" (none, or the catalogue was compiled with PMREGS_NO_DESCRIPTIONS). */
static inline const char *pmregs_cat_event_desc(const struct pmregs_catalog *c, const struct pmregs_cat_event *e)
{
	return pmregs_cat_chunk_str(c->descs, c->ndescs, e->desc);
}
/* The value of flag number flag (c->flags[flag]: a named field of the event's flag word) of event e; 0 when c has no such flag. */
static inline uint64_t pmregs_cat_event_flag(const struct pmregs_catalog *c, const struct pmregs_cat_event *e,
					     size_t flag)
{
	if (flag >= c->nflags)
		return 0;
	return ((uint64_t)e->flags >> c->flags[flag].lo) & pmregs_lowmask(c->flags[flag].width);
}

/* ch in lower case (ASCII letters only, whatever the locale). */
static inline int pmregs_cat_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}
/* Compare the n bytes at a (n = (size_t)-1: up to its NUL) with the string b, ignoring ASCII case;
 * `dash` makes '-' and '_' equal. <0, 0, >0 like strcmp. */
static inline int pmregs_cat_cmp(const char *a, size_t n, const char *b, int dash)
{
	size_t i;
	for (i = 0;; i++) {
		int x = i < n ? pmregs_cat_lower((unsigned char)a[i]) : 0;
		int y = pmregs_cat_lower((unsigned char)b[i]);
		if (dash && x == '-')
			x = '_';
		if (dash && y == '-')
			y = '_';
		if (x != y || x == 0)
			return x - y;
	}
}
/* Whether `needle` (n bytes) occurs in `hay`, ignoring ASCII case (n = 0: always). */
static inline int pmregs_cat_contains(const char *hay, const char *needle, size_t n)
{
	size_t i, j;
	for (i = 0; hay[i]; i++) {
		for (j = 0; j < n && hay[i + j] && pmregs_cat_lower((unsigned char)hay[i + j]) ==
							pmregs_cat_lower((unsigned char)needle[j]); j++)
			;
		if (j == n)
			return 1;
	}
	return n == 0;
}

/* ---- tables ---- */

/* The name of table t of catalogue c (a CPU model's event list). */
static inline const char *pmregs_cat_table_name(const struct pmregs_catalog *c, const struct pmregs_cat_table *t)
{
	return pmregs_cat_str(c, t->name);
}

/* The table called `name` (ignoring case; '-' and '_' alike), or a null pointer. */
static inline const struct pmregs_cat_table *pmregs_cat_table_find(const struct pmregs_catalog *c, const char *name)
{
	size_t i;
	for (i = 0; i < c->ntables; i++)
		if (pmregs_cat_cmp(name, (size_t)-1, pmregs_cat_str(c, c->tables[i].name), 1) == 0)
			return &c->tables[i];
	return PMREGS_NULL;
}

/* The table the vendor's map gives a processor (display family and model, stepping, and on hybrid
 * parts the core type of CPUID.1AH:EAX[31:24], else 0), or a null pointer. A core type the map does
 * not name falls back to the table of any core type of the model. */
static inline const struct pmregs_cat_table *pmregs_cat_table_for_cpu(const struct pmregs_catalog *c, unsigned family,
								      unsigned model, unsigned stepping,
								      unsigned core_type)
{
	size_t i, pass;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < c->ncpus; i++) {
			const struct pmregs_cat_cpu *p = &c->cpus[i];
			if (p->family == family && model >= p->model_lo && model <= p->model_hi && stepping >= p->step_lo &&
			    stepping <= p->step_hi && (pass ? 1 : p->core_type == 0 || p->core_type == core_type) &&
			    p->table < c->ntables)
				return &c->tables[p->table];
		}
	return PMREGS_NULL;
}

/* ---- events ---- */

/* The index's hash of a name (n bytes, or up to its NUL) in the table with index `table`: FNV-1a over the
 * lower-cased bytes, from the offset basis XOR the table index (the generator computes the same). */
static inline uint32_t pmregs_cat_hash(uint32_t table, const char *name, size_t n)
{
	uint32_t h = 2166136261u ^ table;
	size_t i;
	for (i = 0; i < n && name[i]; i++) {
		h ^= (uint32_t)pmregs_cat_lower((unsigned char)name[i]);
		h *= 16777619u;
	}
	return h;
}

/* The event of table t whose name or alias is the n bytes at `name` (ignoring case), or a null pointer:
 * one probe of the hash index on average, else a binary search of the sorted names. */
static inline const struct pmregs_cat_event *pmregs_cat_event_findn(const struct pmregs_catalog *c,
								   const struct pmregs_cat_table *t, const char *name,
								   size_t n)
{
	size_t lo = 0, hi = t->count;
	if (c->nhash) {
		size_t mask = c->nhash - 1, k = pmregs_cat_hash((uint32_t)(t - c->tables), name, n) & mask, probes;
		for (probes = 0; probes < c->nhash; probes++, k = (k + 1) & mask) {
			const unsigned char *s = c->hash[k / PMREGS_CAT_HASH_ROW] + 2 * (k % PMREGS_CAT_HASH_ROW);
			size_t x = (size_t)s[0] | (size_t)s[1] << 8;
			const struct pmregs_cat_event *e;
			if (x == 0)
				break;
			x--;
			if (x < c->nevents) {
				if (x < t->first || x - t->first >= t->count)
					continue;
				e = &c->events[x];
				if (pmregs_cat_cmp(name, n, pmregs_cat_str(c, e->name), 0) == 0)
					return e;
			} else if (x - c->nevents < c->naliases) {
				const struct pmregs_cat_alias *a = &c->aliases[x - c->nevents];
				if (x - c->nevents < t->first_alias || x - c->nevents - t->first_alias >= t->naliases)
					continue;
				if (pmregs_cat_cmp(name, n, pmregs_cat_str(c, a->name), 0) == 0)
					return a->event < c->nevents ? &c->events[a->event] : PMREGS_NULL;
			}
		}
		return PMREGS_NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pmregs_cat_event *e = &c->events[t->first + mid];
		int d = pmregs_cat_cmp(name, n, pmregs_cat_str(c, e->name), 0);
		if (d == 0)
			return e;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	lo = 0;
	hi = t->naliases;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pmregs_cat_alias *a = &c->aliases[t->first_alias + mid];
		int d = pmregs_cat_cmp(name, n, pmregs_cat_str(c, a->name), 0);
		if (d == 0)
			return a->event < c->nevents ? &c->events[a->event] : PMREGS_NULL;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return PMREGS_NULL;
}
/* The event of table t named name (or one of its aliases), ignoring case; null when there is none. */
static inline const struct pmregs_cat_event *pmregs_cat_event_find(const struct pmregs_catalog *c,
								  const struct pmregs_cat_table *t, const char *name)
{
	return pmregs_cat_event_findn(c, t, name, (size_t)-1);
}

/* The next event of t after `prev` (null: from the first) whose name contains `pattern` ignoring
 * case (an empty pattern matches every event), in name order; null at the end. */
static inline const struct pmregs_cat_event *pmregs_cat_search(const struct pmregs_catalog *c,
							      const struct pmregs_cat_table *t, const char *pattern,
							      const struct pmregs_cat_event *prev)
{
	size_t i = prev ? (size_t)(prev - &c->events[t->first]) + 1 : 0, n = 0;
	while (pattern[n])
		n++;
	for (; i < t->count; i++)
		if (pmregs_cat_contains(pmregs_cat_str(c, c->events[t->first + i].name), pattern, n))
			return &c->events[t->first + i];
	return PMREGS_NULL;
}

/* Value of term k in register value v (nparts > 0), or place x in it. */
static inline uint64_t pmregs_cat_term_get(const struct pmregs_cat_term *k, uint64_t v)
{
	uint64_t x = 0;
	unsigned i, shift = 0;
	for (i = 0; i < k->nparts && i < 4; i++) {
		x |= ((v >> k->lo[i]) & pmregs_lowmask(k->width[i])) << shift;
		shift += k->width[i];
	}
	return x;
}
/* The bits of the register value that perf term k occupies (the union of its parts). */
static inline uint64_t pmregs_cat_term_mask(const struct pmregs_cat_term *k)
{
	uint64_t m = 0;
	unsigned i;
	for (i = 0; i < k->nparts && i < 4; i++)
		m |= pmregs_lowmask(k->width[i]) << k->lo[i];
	return m;
}
/* v with term k set to x; PMREGS_ERANGE (v unchanged) when x does not fit. */
static inline int pmregs_cat_term_set(const struct pmregs_cat_term *k, uint64_t *v, uint64_t x)
{
	uint64_t out = *v & ~pmregs_cat_term_mask(k);
	unsigned i, w = 0;
	for (i = 0; i < k->nparts && i < 4; i++) {
		out |= (x & pmregs_lowmask(k->width[i])) << k->lo[i];
		x = k->width[i] >= 64 ? 0 : x >> k->width[i];
		w += k->width[i];
	}
	if (x != 0 || w == 0)
		return PMREGS_ERANGE;
	*v = out;
	return PMREGS_OK;
}

/* The event of t that register value v (and the value x of an extra MSR carried by perf term `term`;
 * PMREGS_CAT_NONE: none) programs: the first in name order whose bits of perf_mask and extra setting are
 * those, else whose bits of perf_mask are, else whose event and unit mask (terms 0 and 1) are; null when
 * none. */
static inline const struct pmregs_cat_event *pmregs_cat_decode_extra(const struct pmregs_catalog *c,
								    const struct pmregs_cat_table *t, uint64_t v,
								    uint16_t term, uint64_t x)
{
	uint64_t key = c->nterms >= 2 ? pmregs_cat_term_mask(&c->terms[0]) | pmregs_cat_term_mask(&c->terms[1]) : 0;
	size_t i, pass;
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < t->count; i++) {
			const struct pmregs_cat_event *e = &c->events[t->first + i];
			if (((e->value ^ v) & (pass < 2 ? c->perf_mask : key)) != 0)
				continue;
			if (pass == 0 && (e->extra < c->nextras ? c->extras[e->extra].term != term ||
								 c->extras[e->extra].value != x
								: term != PMREGS_CAT_NONE))
				continue;
			return e;
		}
	return PMREGS_NULL;
}
/* The event of t that register value v programs (pmregs_cat_decode_extra() with no extra MSR). */
static inline const struct pmregs_cat_event *pmregs_cat_decode(const struct pmregs_catalog *c,
							      const struct pmregs_cat_table *t, uint64_t v)
{
	return pmregs_cat_decode_extra(c, t, v, PMREGS_CAT_NONE, 0);
}

/* ---- requests: an event with modifiers ---- */

struct pmregs_cat_request {
	const struct pmregs_catalog *cat;
	const struct pmregs_cat_table *table;
	const struct pmregs_cat_event *event; /* null for a raw value that names no event */
	uint64_t value;                       /* event fields and modifiers, without USR/OS/INT/EN */
	uint64_t extra_value;
	uint64_t config1, config2;            /* perf config1/2 set by terms other than the extra */
	uint32_t extra_msr;                   /* 0: none */
	uint16_t extra_term;                  /* perf term of the extra value, or PMREGS_CAT_NONE */
	uint8_t user, kernel;                 /* count in user mode, in kernel mode */
	uint8_t host_only, guest_only;
	uint8_t priv_given;                   /* a u or k modifier was given: the other level is off unless given too */
	uint8_t pmregs_pad[5]; /* unused: the struct's size without implicit padding */
};

/* What a request becomes for a driver and for perf_event_open. */
struct pmregs_cat_encoding {
	uint64_t evtsel;      /* the event-select register value, with USR/OS (HostOnly/GuestOnly) and EN */
	uint64_t extra_value;
	uint64_t counters;    /* bit n: general counter n may count it; bit 32 + n: fixed counter n */
	const char *pmu;      /* Linux's sysfs PMU: "cpu" (attr.type PERF_TYPE_RAW), "cpu_core", "cpu_atom", ... */
	uint64_t config, config1, config2;
	uint32_t extra_msr;   /* an extra MSR to program, 0: none */
	uint8_t exclude_user, exclude_kernel, exclude_host, exclude_guest;
};

/* A request for event e of table t of catalogue c: its register value and extra MSR, counting in user
 * and kernel mode, neither host- nor guest-only, no other perf terms. */
static inline void pmregs_cat_request_init(struct pmregs_cat_request *r, const struct pmregs_catalog *c,
					   const struct pmregs_cat_table *t, const struct pmregs_cat_event *e)
{
	r->cat = c;
	r->table = t;
	r->event = e;
	r->value = e ? e->value : 0;
	r->extra_value = 0;
	r->extra_msr = 0;
	r->extra_term = PMREGS_CAT_NONE;
	if (e && e->extra < c->nextras) {
		r->extra_value = c->extras[e->extra].value;
		r->extra_msr = c->extras[e->extra].msr;
		r->extra_term = c->extras[e->extra].term;
	}
	r->user = r->kernel = 1;
	r->host_only = r->guest_only = 0;
	r->priv_given = 0;
	r->config1 = r->config2 = 0;
}

/* What request r programs: the event-select value with the privilege and enable bits, the extra MSR,
 * the counters that may count it, and perf_event_open's PMU, config words and exclude bits. */
static inline void pmregs_cat_encode(const struct pmregs_cat_request *r, struct pmregs_cat_encoding *e)
{
	const struct pmregs_catalog *c = r->cat;
	uint64_t v = r->value;
	v |= (r->user ? c->user : 0) | (r->kernel ? c->kernel : 0) | c->enable;
	v |= (r->host_only ? c->host : 0) | (r->guest_only ? c->guest : 0);
	e->evtsel = v;
	e->extra_msr = r->extra_msr;
	e->extra_value = r->extra_value;
	e->counters = r->event ? r->event->counters : 0;
	e->pmu = r->table ? pmregs_cat_str(c, r->table->pmu) : "cpu";
	e->config = r->value & c->perf_mask;
	e->config1 = r->config1;
	e->config2 = r->config2;
	if (r->extra_term < c->nterms) {
		if (c->terms[r->extra_term].word == 1)
			e->config1 = r->extra_value;
		else if (c->terms[r->extra_term].word == 2)
			e->config2 = r->extra_value;
	}
	e->exclude_user = (uint8_t)(c->user && !r->user); /* a PMU without privilege bits (uncore) excludes nothing */
	e->exclude_kernel = (uint8_t)(c->kernel && !r->kernel);
	e->exclude_host = (uint8_t)(r->guest_only && !r->host_only);
	e->exclude_guest = (uint8_t)(r->host_only && !r->guest_only);
}

/* "PMU/event=0xc0,umask=0x0,.../MODS" in perf's syntax: every term whose value is not 0 (event and
 * umask always), the extra MSR's term, then u or k when only one privilege level counts, H for HostOnly
 * and G for GuestOnly. */
static inline size_t pmregs_cat_perf_snprint(char *buf, size_t n, const struct pmregs_cat_request *r)
{
	struct pmregs_sbuf sb;
	struct pmregs_cat_encoding e;
	const struct pmregs_catalog *c = r->cat;
	size_t i, k = 0;
	sb.buf = buf;
	sb.cap = n;
	sb.len = 0;
	pmregs_cat_encode(r, &e);
	pmregs_sb_puts(&sb, e.pmu);
	pmregs_sb_putc(&sb, '/');
	for (i = 0; i < c->nterms; i++) {
		const struct pmregs_cat_term *t = &c->terms[i];
		uint64_t x;
		if (t->nparts) {
			x = t->word == 0 ? pmregs_cat_term_get(t, e.config) : 0;
			if (x == 0 && i >= 2)
				continue;
		} else if (i == r->extra_term) {
			x = r->extra_value;
		} else {
			continue;
		}
		if (k++)
			pmregs_sb_putc(&sb, ',');
		pmregs_sb_puts(&sb, t->name);
		pmregs_sb_putc(&sb, '=');
		pmregs_sb_hex(&sb, x);
	}
	pmregs_sb_putc(&sb, '/');
	if (r->user && !r->kernel)
		pmregs_sb_putc(&sb, 'u');
	if (r->kernel && !r->user)
		pmregs_sb_putc(&sb, 'k');
	/* both when both were asked: perf then excludes neither, and the string parses back to HostOnly and
	 * GuestOnly both set, as asked (APM2's "guest and host") */
	if (r->host_only)
		pmregs_sb_putc(&sb, 'H');
	if (r->guest_only)
		pmregs_sb_putc(&sb, 'G');
	return pmregs_sb_finish(&sb);
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_CATALOG_H */
