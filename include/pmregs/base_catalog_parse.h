/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_catalog_parse.h - hand-written: event requests in the syntaxes users type, and
 * CPUID signatures.
 *
 *   INST_RETIRED.ANY_P            a name of the table (Intel's EVENT.UMASK), or an alias
 *   INST_RETIRED:ANY_P:u:c=2      libpfm4: EVENT:UMASK[:UMASK...] then modifiers (u k e i c= t= h g
 *                                 ldlat= ..., as the catalogue's terms name them); an optional PMU::
 *   cpu/event=0xc0,umask=0x1,cmask=2/u   perf: the table's PMU, format terms (or an event name), and
 *                                 the modifiers u k H G after the last '/'
 *   r01c0[:u]                     perf's raw form: the register's event fields in hex
 *
 * Names and modifiers ignore ASCII case. Every form ends in a struct pmregs_cat_request, which
 * pmregs_cat_encode() turns into register and perf values.
 */
#ifndef PMREGS_BASE_CATALOG_PARSE_H
#define PMREGS_BASE_CATALOG_PARSE_H

#include "base_catalog.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* The n bytes at s as a number (0x.. hex, else decimal); PMREGS_EINVAL when they are not one. */
static inline int pmregs_cat_num(const char *s, size_t n, int hex, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;
	unsigned base = hex ? 16u : 10u;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= n)
		return PMREGS_EINVAL;
	for (; i < n; i++) {
		int ch = pmregs_cat_lower((unsigned char)s[i]);
		unsigned d;
		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else
			return PMREGS_EINVAL;
		if (x > (~(uint64_t)0 - d) / base)
			return PMREGS_ERANGE;
		x = x * base + d;
	}
	*out = x;
	return PMREGS_OK;
}

/* Index of the term whose perf name (or, with pfm, libpfm4 modifier name) is the n bytes at s, or -1. */
static inline int pmregs_cat_term_findn(const struct pmregs_catalog *c, const char *s, size_t n, int pfm)
{
	size_t i;
	for (i = 0; i < c->nterms; i++)
		if (pmregs_cat_cmp(s, n, pfm ? c->terms[i].pfm : c->terms[i].name, 0) == 0 &&
		    (!pfm || c->terms[i].pfm[0]))
			return (int)i;
	return -1;
}

/* Set term k of a request to x: a register field, or the value of an extra MSR. */
static inline int pmregs_cat_request_term(struct pmregs_cat_request *r, size_t k, uint64_t x)
{
	const struct pmregs_cat_term *t = &r->cat->terms[k];
	if (t->nparts)
		return pmregs_cat_term_set(t, &r->value, x);
	r->extra_value = x;
	r->extra_term = (uint16_t)k;
	if (r->extra_msr == 0 || (r->extra_msr != t->msr[0] && (t->msr[1] == 0 || r->extra_msr != t->msr[1])))
		r->extra_msr = t->msr[0];
	return PMREGS_OK;
}

/* One privilege or guest/host modifier letter: u k (both syntaxes), h g (libpfm4) or H G (perf). */
static inline int pmregs_cat_priv(struct pmregs_cat_request *r, int ch, uint64_t on)
{
	if ((ch == 'u' || ch == 'k') && (r->cat->user | r->cat->kernel)) {
		if (!r->priv_given)
			r->user = r->kernel = 0;
		r->priv_given = 1;
		if (ch == 'u')
			r->user = (uint8_t)(on != 0);
		else
			r->kernel = (uint8_t)(on != 0);
		return PMREGS_OK;
	}
	if ((ch == 'h' || ch == 'g') && r->cat->host) {
		if (ch == 'h')
			r->host_only = (uint8_t)(on != 0);
		else
			r->guest_only = (uint8_t)(on != 0);
		return PMREGS_OK;
	}
	return PMREGS_EINVAL;
}

/* One libpfm4 modifier, "name" or "name=value"; PMREGS_ENOENT when it names no modifier. */
static inline int pmregs_cat_pfm_modifier(struct pmregs_cat_request *r, const char *s, size_t n)
{
	size_t eq = 0;
	uint64_t x = 1;
	int k, rc;
	while (eq < n && s[eq] != '=')
		eq++;
	if (eq < n && (rc = pmregs_cat_num(s + eq + 1, n - eq - 1, 0, &x)) != PMREGS_OK)
		return rc;
	if (eq == 1 && pmregs_cat_priv(r, pmregs_cat_lower((unsigned char)s[0]), x) == PMREGS_OK)
		return PMREGS_OK;
	k = pmregs_cat_term_findn(r->cat, s, eq, 1);
	if (k < 0)
		return PMREGS_ENOENT;
	return pmregs_cat_request_term(r, (size_t)k, x);
}

/* The unit mask named by `um` (n bytes) for the event called base (b bytes): the event "base.um" or the
 * alias "base:um" of table t, when it differs from `like` in no field but the unit mask (term 1). */
static inline const struct pmregs_cat_event *pmregs_cat_umask(const struct pmregs_catalog *c,
							     const struct pmregs_cat_table *t, const char *base,
							     size_t b, const char *um, size_t n,
							     const struct pmregs_cat_event *like)
{
	char name[160];
	size_t i, sep;
	const struct pmregs_cat_event *e = PMREGS_NULL;
	if (b + n + 2 > sizeof name || c->nterms < 2)
		return PMREGS_NULL;
	for (sep = 0; sep < 2 && !e; sep++) {
		for (i = 0; i < b; i++)
			name[i] = base[i];
		name[b] = sep ? ':' : '.';
		for (i = 0; i < n; i++)
			name[b + 1 + i] = um[i];
		name[b + 1 + n] = 0;
		e = pmregs_cat_event_find(c, t, name);
	}
	if (e && like && ((e->value ^ like->value) & ~pmregs_cat_term_mask(&c->terms[1])) != 0)
		return PMREGS_NULL;
	return e;
}

/* The modifiers after a name or raw value, ':'-separated, from s[i] on (s[i] is ':' or the end). */
static inline int pmregs_cat_pfm_tail(struct pmregs_cat_request *r, const char *s, size_t i, const char *base, size_t b,
				      int umask_replaces, size_t *where)
{
	const struct pmregs_catalog *c = r->cat;
	size_t priv_at = 0; /* where the last u or k modifier is */
	while (s[i] == ':') {
		size_t j = ++i;
		int rc;
		while (s[i] && s[i] != ':')
			i++;
		rc = pmregs_cat_pfm_modifier(r, s + j, i - j);
		if (rc == PMREGS_OK && (i - j == 1 || s[j + 1] == '=') &&
		    (pmregs_cat_lower((unsigned char)s[j]) == 'u' || pmregs_cat_lower((unsigned char)s[j]) == 'k'))
			priv_at = j;
		if (rc == PMREGS_ENOENT && r->event && b) {
			const struct pmregs_cat_event *u = pmregs_cat_umask(c, r->table, base, b, s + j, i - j, r->event);
			if (u) {
				uint64_t m = pmregs_cat_term_mask(&c->terms[1]);
				if (umask_replaces)
					r->value &= ~m;
				umask_replaces = 0;
				r->value |= u->value & m;
				continue;
			}
		}
		if (rc != PMREGS_OK) {
			*where = j;
			return rc == PMREGS_ENOENT ? PMREGS_EINVAL : rc;
		}
	}
	if (s[i]) {
		*where = i;
		return PMREGS_EINVAL;
	}
	/* u=0 or k=0 that leaves no privilege level: the counter would count nothing, and no perf string says it */
	if (r->priv_given && !r->user && !r->kernel) {
		*where = priv_at;
		return PMREGS_EINVAL;
	}
	return PMREGS_OK;
}

/* perf: PMU/term,term=value,.../MODS */
static inline int pmregs_cat_parse_perf(struct pmregs_cat_request *r, const char *s, size_t slash, size_t *where)
{
	const struct pmregs_catalog *c = r->cat;
	size_t i = slash + 1;
	const char *pmu = r->table ? pmregs_cat_str(c, r->table->pmu) : "cpu";
	if (pmregs_cat_cmp(s, slash, pmu, 0) != 0 && pmregs_cat_cmp(s, slash, "cpu", 0) != 0) {
		*where = 0;
		return PMREGS_ENOENT;
	}
	while (s[i] && s[i] != '/') {
		size_t j = i, eq;
		uint64_t x = 1;
		int k, rc = PMREGS_OK;
		while (s[i] && s[i] != ',' && s[i] != '/')
			i++;
		for (eq = j; eq < i && s[eq] != '='; eq++)
			;
		if (eq < i && (rc = pmregs_cat_num(s + eq + 1, i - eq - 1, 0, &x)) != PMREGS_OK) {
			*where = eq + 1;
			return rc;
		}
		k = pmregs_cat_term_findn(c, s + j, eq - j, 0);
		if (k >= 0) {
			rc = pmregs_cat_request_term(r, (size_t)k, x);
		} else if (pmregs_cat_cmp(s + j, eq - j, "config", 0) == 0) {
			r->value = x & c->perf_mask;
			rc = x & ~c->perf_mask ? PMREGS_ERANGE : PMREGS_OK;
		} else if (pmregs_cat_cmp(s + j, eq - j, "config1", 0) == 0) {
			r->config1 = x;
		} else if (pmregs_cat_cmp(s + j, eq - j, "config2", 0) == 0) {
			r->config2 = x;
		} else if (eq == i && r->table) {
			const struct pmregs_cat_event *e = pmregs_cat_event_findn(c, r->table, s + j, i - j);
			if (!e) {
				*where = j;
				return PMREGS_ENOENT;
			}
			pmregs_cat_request_init(r, c, r->table, e);
		} else {
			rc = PMREGS_EINVAL;
		}
		if (rc != PMREGS_OK) {
			*where = j;
			return rc;
		}
		if (s[i] == ',')
			i++;
	}
	if (s[i] != '/') {
		*where = i;
		return PMREGS_EINVAL;
	}
	for (i++; s[i]; i++) {
		int ch = (unsigned char)s[i];
		if (pmregs_cat_priv(r, ch == 'H' ? 'h' : ch == 'G' ? 'g' : ch, 1) != PMREGS_OK || ch == 'h' || ch == 'g') {
			*where = i;
			return PMREGS_EINVAL;
		}
	}
	if (!r->event && r->table)
		r->event = pmregs_cat_decode_extra(c, r->table, r->value, r->extra_term, r->extra_value);
	/* the term names the kind of MSR; the event says which of its MSRs (OFFCORE_RSP_0 or _1) */
	if (r->event && r->event->extra < c->nextras && c->extras[r->event->extra].term == r->extra_term)
		r->extra_msr = c->extras[r->event->extra].msr;
	return PMREGS_OK;
}

/*
 * Parse an event request for table t of catalogue c into *r. PMREGS_OK; PMREGS_ENOENT when no event
 * has the name; PMREGS_EINVAL for a modifier, unit mask or term the catalogue does not know or a
 * malformed request, or for u and k modifiers that leave no privilege level to count at (k=0 alone, or
 * u=0:k=0: libpfm4 would program a counter that counts nothing); PMREGS_ERANGE when a value does not fit
 * its field. *where (may be null) is the
 * byte offset in s of the part that failed.
 */
static inline int pmregs_cat_parse(const struct pmregs_catalog *c, const struct pmregs_cat_table *t, const char *s,
				   struct pmregs_cat_request *r, size_t *where)
{
	size_t i, n = 0, start = 0, slash = 0, dummy = 0;
	const struct pmregs_cat_event *e = PMREGS_NULL;
	if (!where)
		where = &dummy;
	*where = 0;
	pmregs_cat_request_init(r, c, t, PMREGS_NULL);
	while (s[n])
		n++;
	for (i = 0; i < n && !slash; i++)
		if (s[i] == '/')
			slash = i;
	if (slash)
		return pmregs_cat_parse_perf(r, s, slash, where);
	for (i = 0; i + 1 < n; i++)         /* libpfm4's optional PMU:: prefix */
		if (s[i] == ':' && s[i + 1] == ':') {
			start = i + 2;
			break;
		}
	/* the longest ':'-delimited prefix that names an event; what follows are unit masks and modifiers */
	for (i = n; i > start; i--) {
		if (i < n && s[i] != ':')
			continue;
		e = pmregs_cat_event_findn(c, t, s + start, i - start);
		if (e)
			break;
	}
	if (e) {
		size_t b = start;
		pmregs_cat_request_init(r, c, t, e);
		while (b < i && s[b] != '.' && s[b] != ':')
			b++;
		/* further unit masks: of the same base name (the part before '.'), or of the alias itself */
		return pmregs_cat_pfm_tail(r, s, i, s + start, b - start, b == i, where);
	}
	/* EVENT:UMASK where EVENT alone names nothing (libpfm4's form of Intel's EVENT.UMASK) */
	for (i = start; i < n && s[i] != ':'; i++)
		;
	if (i < n) {
		size_t j = i + 1, b = i - start;
		while (s[j] && s[j] != ':')
			j++;
		e = pmregs_cat_umask(c, t, s + start, b, s + i + 1, j - i - 1, PMREGS_NULL);
		if (e) {
			pmregs_cat_request_init(r, c, t, e);
			return pmregs_cat_pfm_tail(r, s, j, s + start, b, 0, where);
		}
	}
	/* perf's raw rNNNN */
	if ((s[start] == 'r' || s[start] == 'R') && start == 0) {
		uint64_t x;
		for (i = 1; i < n && s[i] != ':'; i++)
			;
		if (pmregs_cat_num(s + 1, i - 1, 1, &x) == PMREGS_OK) {
			if (x & ~c->perf_mask) {
				*where = 1;
				return PMREGS_ERANGE;
			}
			r->value = x;
			r->event = pmregs_cat_decode(c, t, x);
			return pmregs_cat_pfm_tail(r, s, i, "", 0, 0, where);
		}
	}
	*where = start;
	return PMREGS_ENOENT;
}

/* ---- CPUID signatures ---- */

struct pmregs_cpu_sig {
	unsigned family;     /* display family: base, plus extended when base is 0xF */
	unsigned model;      /* display model: base, plus extended << 4 on families 6 and >= 0xF */
	unsigned stepping;
	unsigned core_type;  /* CPUID.1AH:EAX[31:24] on hybrid parts (0x20 Atom, 0x40 Core), else 0 */
	char vendor[13];     /* "GenuineIntel", "AuthenticAMD", ... */
	uint8_t pmregs_pad[3]; /* unused: the struct's size without implicit padding */
};

/* "Vendor-Family-Model[-Stepping]" as the vendors' maps write it: family decimal, model and stepping hex
 * ("GenuineIntel-6-8F", "AuthenticAMD-25-61"). PMREGS_EINVAL when s is not one. */
static inline int pmregs_cpu_sig_parse(const char *s, struct pmregs_cpu_sig *sig)
{
	size_t i = 0, j, part;
	uint64_t x[3] = {0, 0, 0};
	while (s[i] && s[i] != '-' && i < 12) {
		sig->vendor[i] = s[i];
		i++;
	}
	sig->vendor[i] = 0;
	if (s[i] != '-' || i == 0)
		return PMREGS_EINVAL;
	for (part = 0; part < 3 && s[i] == '-'; part++) {
		j = ++i;
		while (s[i] && s[i] != '-')
			i++;
		if (pmregs_cat_num(s + j, i - j, part > 0, &x[part]) != PMREGS_OK || x[part] > 0xFFFF)
			return PMREGS_EINVAL;
	}
	if (s[i] || part < 2)
		return PMREGS_EINVAL;
	sig->family = (unsigned)x[0];
	sig->model = (unsigned)x[1];
	sig->stepping = (unsigned)x[2];
	sig->core_type = 0;
	return PMREGS_OK;
}

/* The table the catalogue's map gives signature sig, or null (another vendor, or no table). */
static inline const struct pmregs_cat_table *pmregs_cat_table_for_sig(const struct pmregs_catalog *c,
								      const struct pmregs_cpu_sig *sig)
{
	if (pmregs_cat_cmp(sig->vendor, (size_t)-1, c->vendor_id, 0) != 0)
		return PMREGS_NULL;
	return pmregs_cat_table_for_cpu(c, sig->family, sig->model, sig->stepping, sig->core_type);
}

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
/* CPUID leaf leaf, subleaf sub: EAX, EBX, ECX and EDX into r[0..3] (x86 with GCC or Clang only). */
static inline void pmregs_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	uint32_t a, b, c, d;
	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "0"(leaf), "2"(sub));
	r[0] = a;
	r[1] = b;
	r[2] = c;
	r[3] = d;
}
#endif

/* The signature of the processor this runs on (the core it runs on, for the core type), from CPUID.
 * PMREGS_ENOENT on a machine or compiler without CPUID. */
static inline int pmregs_cpu_sig_host(struct pmregs_cpu_sig *sig)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
	uint32_t r[4], max, i, fam, mod;
	pmregs_cpuid(0, 0, r);
	max = r[0];
	for (i = 0; i < 4; i++) {
		sig->vendor[i] = (char)(r[1] >> (8 * i));
		sig->vendor[4 + i] = (char)(r[3] >> (8 * i));
		sig->vendor[8 + i] = (char)(r[2] >> (8 * i));
	}
	sig->vendor[12] = 0;
	pmregs_cpuid(1, 0, r);
	fam = (r[0] >> 8) & 0xF;
	mod = (r[0] >> 4) & 0xF;
	if (fam == 6 || fam == 0xF)
		mod |= ((r[0] >> 16) & 0xF) << 4;
	if (fam == 0xF)
		fam += (r[0] >> 20) & 0xFF;
	sig->family = fam;
	sig->model = mod;
	sig->stepping = r[0] & 0xF;
	sig->core_type = 0;
	if (max >= 0x1A) {
		pmregs_cpuid(7, 0, r);
		if ((r[3] >> 15) & 1) { /* CPUID.07H:EDX[15] Hybrid */
			pmregs_cpuid(0x1A, 0, r);
			sig->core_type = r[0] >> 24;
		}
	}
	return PMREGS_OK;
#else
	(void)sig;
	return PMREGS_ENOENT;
#endif
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_CATALOG_PARSE_H */
