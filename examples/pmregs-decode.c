/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs-decode: decode a register value or a packet stream of any pmregs
 * family, using nothing but the generated introspection tables of
 * <pmregs/tools.h> (pmregs_families(), the layouts, register and stream
 * descriptors). No family is named in this file.
 *
 * Run it without arguments for a list of families; --help explains the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmregs/tools.h>

/* Exit statuses (also in the usage text). */
#define ST_OK       0 /* decoded; every reserved bit as required, every packet readable */
#define ST_WARN     1 /* decoded, but reserved bits are not as required or some bytes were unreadable */
#define ST_USAGE    2 /* bad command line */
#define ST_NAME     3 /* unknown family, register, layout, table, sample, stream or parameter */
#define ST_VALUE    4 /* a value that cannot be read, does not fit, or parameters that are not legal */
#define ST_IO       5 /* a file that cannot be read or written */

static const char *prog = "pmregs-decode";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--json | --long] [--svg FILE] FAMILY REGISTER|LAYOUT VALUE\n"
		"       %s [--json] [--stream NAME] [--params NAME=VALUE,...] [--unsynced] FAMILY FILE\n"
		"       %s [--json | --long] --sample NAME FAMILY FILE|VALUE...\n"
		"       %s [--json | --long] --list [FAMILY [REGISTER|LAYOUT|TABLE]]\n"
		"       %s --help | --version\n"
		"\n"
		"Decode VALUE as the register or layout REGISTER of FAMILY: every field with its\n"
		"value, named value and bits (in both numberings where the manual numbers bit 0 as\n"
		"the most significant), an ASCII ruler of the bits, and a warning for each reserved\n"
		"field that is not as the manual requires. Names are matched ignoring case; a\n"
		"register's manual name (its title) works too, and a register name wins over a\n"
		"layout name: write layout:NAME for the layout; a name not found gets the nearest\n"
		"ones. VALUE is decimal, 0x hexadecimal or 0b binary; '_' may separate digits.\n"
		"\n"
		"With FILE (\"-\" for standard input), decode the packet stream in it; FAMILY must\n"
		"have packet streams (--list shows them and the parameters with their defaults).\n"
		"When the start of FILE does not read as the stream, the streams it does read as\n"
		"are named.\n"
		"\n"
		"With --sample, decode a record of register values in the order the family's\n"
		"sample NAME gives (e.g. amd ibs_op, a perf raw IBS sample): from FILE, its bytes\n"
		"(little-endian: a 32-bit capabilities value first where the sample has one, then\n"
		"64-bit registers), or from the VALUEs, capabilities first; the capabilities say\n"
		"which optional registers follow.\n"
		"\n"
		"  --list        list families; with FAMILY its registers, layouts, tables, streams\n"
		"                and parameters; with a register or layout too, its fields; with a\n"
		"                table (e.g. an event table; table:NAME if a register has the name),\n"
		"                its rows: name, every column, title (--long: and description)\n"
		"  --json        print JSON instead of text\n"
		"  --long        print each field's description under its line\n"
		"  --svg FILE    also write a bit diagram of the decoded value to FILE (SVG)\n"
		"  --stream NAME the stream to decode (default: the family's first)\n"
		"  --sample NAME the record of register values to decode (see --list FAMILY)\n"
		"  --params L    parameters as NAME=VALUE pairs separated by commas (repeatable)\n"
		"  --unsynced    do not assume that FILE starts at a packet boundary\n"
		"  --help        print this text\n"
		"  --version     print the pmregs version\n"
		"\n"
		"Exit status: 0 decoded; 1 decoded, but a reserved field is not as required or\n"
		"some stream bytes could not be read; 2 bad command line; 3 unknown family,\n"
		"register, layout, table, sample, stream or parameter name; 4 a value that cannot be read or does\n"
		"not fit, or parameters that are out of range or not a legal combination; 5 a\n"
		"file that cannot be read or written.\n",
		prog, prog, prog, prog, prog);
}

/* ---- small helpers ---- */

static int eq_nocase(const char *a, const char *b)
{
	return pmregs_strcaseeq(a, b);
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether name starts with the n characters of prefix, ignoring ASCII case. */
static int prefix_nocase(const char *name, const char *prefix, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!name[i] || lower(name[i]) != lower(prefix[i]))
			return 0;
	return 1;
}

/* ---- a name not found: the nearest ones ---- */

/* Edit distance between a and b (insertions, deletions, substitutions, swaps of neighbours), ignoring
 * ASCII case; names longer than 63 characters count as far. */
static unsigned name_distance(const char *a, const char *b)
{
	unsigned d[3][64], i, j, la = (unsigned)strlen(a), lb = (unsigned)strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		unsigned *row = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = lower(a[i - 1]) != lower(b[j - 1]), best = up[j - 1] + cost;
			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]) &&
			    up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			row[j] = best;
		}
	}
	return d[la % 3][lb];
}

/* The (up to three) names nearest to `want` among those offered to near_add(): within a third of its
 * length (at least 2 edits), or starting with it. */
struct near_names {
	const char *want;
	const char *name[3];
	unsigned dist[3];
};

static void near_init(struct near_names *nn, const char *want)
{
	memset(nn, 0, sizeof *nn);
	nn->want = want;
}

static void near_add(struct near_names *nn, const char *cand)
{
	size_t lw, k;
	unsigned d, limit;
	if (!cand || !*cand)
		return;
	lw = strlen(nn->want);
	limit = lw / 3 > 2 ? (unsigned)(lw / 3) : 2;
	d = name_distance(nn->want, cand);
	if (lw >= 2 && strlen(cand) > lw && prefix_nocase(cand, nn->want, lw))
		d = 1; /* it starts with what was given */
	if (d > limit)
		return;
	for (k = 0; k < 3; k++)
		if (nn->name[k] && eq_nocase(nn->name[k], cand))
			return;
	for (k = 0; k < 3 && cand; k++) {
		if (!nn->name[k] || d < nn->dist[k]) {
			const char *kn = nn->name[k];
			unsigned kd = nn->dist[k];
			nn->name[k] = cand;
			nn->dist[k] = d;
			cand = kn;
			d = kd;
		}
	}
}

/* " (did you mean A, B or C?)", or nothing when no name is near */
static void near_print(FILE *f, const struct near_names *nn)
{
	size_t k, n = 0;
	while (n < 3 && nn->name[n])
		n++;
	if (n == 0)
		return;
	fprintf(f, " (did you mean ");
	for (k = 0; k < n; k++)
		fprintf(f, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", nn->name[k]);
	fprintf(f, "?)");
}

/*
 * Read a number: decimal, 0x hexadecimal or 0b binary, '_' between digits.
 * Returns 0, or -1 when it is not a number, -2 when it needs more than 64 bits.
 */
static int parse_u64(const char *s, uint64_t *out)
{
	unsigned base = 10, digits = 0;
	uint64_t x = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	for (; *s; s++) {
		unsigned d;
		char c = *s;
		if (c == '_' && digits && s[1] && s[1] != '_')
			continue;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a') + 10;
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A') + 10;
		else
			return -1;
		if (d >= base)
			return -1;
		if (x > (UINT64_MAX - d) / base)
			return -2;
		x = x * base + d;
		digits++;
	}
	if (!digits)
		return -1;
	*out = x;
	return 0;
}

static const char *access_name(unsigned a)
{
	static const char *const names[] = { "rw", "ro", "wo", "w1c", "w1s", "rsvd", "ignored", "res1", "other" };
	return a < sizeof names / sizeof names[0] ? names[a] : "?";
}

static int is_reserved(const struct pmregs_field_desc *f)
{
	return f->access == PMREGS_ACCESS_RSVD || f->access == PMREGS_ACCESS_IGNORED || f->access == PMREGS_ACCESS_RES1;
}

static uint64_t low_mask(unsigned w)
{
	return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
}

/* Register bits (lsb0) that field f holds. */
static uint64_t field_mask(const struct pmregs_field_desc *f)
{
	uint64_t m = 0;
	unsigned i;
	for (i = 0; i < f->nparts; i++)
		m |= low_mask(f->width[i]) << f->lo[i];
	return m;
}

/* Bits of f in register value v that are not as the manual requires (0 when all are). */
static uint64_t bad_bits(const struct pmregs_field_desc *f, uint64_t v)
{
	uint64_t m = field_mask(f);
	if (f->access == PMREGS_ACCESS_RSVD)
		return v & m;
	if (f->access == PMREGS_ACCESS_RES1)
		return ~v & m;
	return 0;
}

/* "17:16" (lsb0), or the manual's msb0 numbers "14:15"; parts of a split field separated by ','. */
static void bits_text(char *buf, size_t n, const struct pmregs_field_desc *f, unsigned width, int msb0)
{
	size_t len = 0;
	unsigned i;
	buf[0] = '\0';
	for (i = 0; i < f->nparts && len < n; i++) {
		unsigned lo = f->lo[i], hi = lo + f->width[i] - 1u;
		unsigned a = msb0 ? width - 1u - hi : hi, b = msb0 ? width - 1u - lo : lo;
		int k = a == b ? snprintf(buf + len, n - len, "%s%u", i ? "," : "", a)
			       : snprintf(buf + len, n - len, "%s%u:%u", i ? "," : "", a, b);
		if (k < 0)
			break;
		len += (size_t)k;
	}
}

static int is_negative(const struct pmregs_field_desc *f, uint64_t x)
{
	unsigned w = pmregs_field_width(f);
	return f->is_signed && w < 64 && ((x >> (w - 1)) & 1u);
}

/* The value as pmregs_snprint_layout() shows it: negative decimal, small decimal, else hex. */
static void value_text(char *buf, size_t n, const struct pmregs_field_desc *f, uint64_t x)
{
	unsigned w = pmregs_field_width(f);
	if (is_negative(f, x))
		snprintf(buf, n, "-%llu", (unsigned long long)(((~x) & low_mask(w)) + 1));
	else if (w <= 3)
		snprintf(buf, n, "%llu", (unsigned long long)x);
	else
		snprintf(buf, n, "0x%llx", (unsigned long long)x);
}

static const struct pmregs_value_desc *named_value(const struct pmregs_field_desc *f, uint64_t x)
{
	unsigned j;
	for (j = 0; j < f->nvalues; j++)
		if (f->values[j].value == x)
			return &f->values[j];
	return 0;
}

/* ---- JSON output ---- */

static void json_str(FILE *o, const char *s)
{
	if (!s) {
		fputs("null", o);
		return;
	}
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", o);
		else if (c == '\t')
			fputs("\\t", o);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

static void json_bits(FILE *o, const struct pmregs_field_desc *f, unsigned width, int msb0)
{
	unsigned i;
	fputc('[', o);
	for (i = 0; i < f->nparts; i++) {
		unsigned lo = f->lo[i], hi = lo + f->width[i] - 1u;
		if (msb0)
			fprintf(o, "%s[%u, %u]", i ? ", " : "", width - 1u - hi, width - 1u - lo);
		else
			fprintf(o, "%s[%u, %u]", i ? ", " : "", hi, lo);
	}
	fputc(']', o);
}

/* ---- the family registry ---- */

static const struct pmregs_family_desc *find_family(const char *name)
{
	size_t i, n;
	const struct pmregs_family_desc *d = pmregs_families(&n);
	for (i = 0; i < n; i++)
		if (eq_nocase(d[i].name, name))
			return &d[i];
	return 0;
}

static int unknown_family(const char *name)
{
	size_t i, n;
	const struct pmregs_family_desc *d = pmregs_families(&n);
	struct near_names nn;
	near_init(&nn, name);
	fprintf(stderr, "%s: unknown family '%s' (families:", prog, name);
	for (i = 0; i < n; i++) {
		fprintf(stderr, " %s", d[i].name);
		near_add(&nn, d[i].name);
	}
	fprintf(stderr, ")");
	near_print(stderr, &nn);
	fprintf(stderr, "\n");
	return ST_NAME;
}

/* What a name on the command line stands for: a register, or a bare layout. */
struct target {
	const struct pmregs_family_desc *fam;
	const struct pmregs_layout_desc *layouts; /* the family's */
	const struct pmregs_register_desc *reg;   /* null for a bare layout */
	const struct pmregs_layout_desc *layout;  /* null for a register whose value has no fields */
};

/* Register names first, then layout names, then the registers' manual names; "layout:NAME" is a layout only. */
static int find_target(const struct pmregs_family_desc *fam, const char *name, struct target *t)
{
	size_t nr, nl, i;
	const struct pmregs_register_desc *regs = fam->registers(&nr);
	int layout_only = strncmp(name, "layout:", 7) == 0;
	t->fam = fam;
	t->layouts = fam->layouts(&nl);
	t->reg = 0;
	t->layout = 0;
	if (layout_only) {
		name += 7;
		nr = 0;
	}
	for (i = 0; i < nr; i++)
		if (eq_nocase(regs[i].name, name))
			goto reg;
	for (i = 0; i < nl; i++) {
		if (eq_nocase(t->layouts[i].name, name)) {
			t->layout = &t->layouts[i];
			return 0;
		}
	}
	for (i = 0; i < nr; i++)
		if (eq_nocase(regs[i].title, name))
			goto reg;
	{
		struct near_names nn;
		size_t nt = 0;
		const struct pmregs_table_desc *tb = fam->tables ? fam->tables(&nt) : 0;
		near_init(&nn, name);
		for (i = 0; i < nr; i++)
			near_add(&nn, regs[i].name);
		for (i = 0; i < nl; i++)
			near_add(&nn, t->layouts[i].name);
		for (i = 0; i < nt && !layout_only; i++)
			near_add(&nn, tb[i].name);
		fprintf(stderr, "%s: %s has no register, layout or table '%s'", prog, fam->name, name);
		near_print(stderr, &nn);
		fprintf(stderr, " (try: %s --list %s)\n", prog, fam->name);
	}
	return ST_NAME;
reg:
	t->reg = &regs[i];
	if (regs[i].layout >= 0 && (size_t)regs[i].layout < nl)
		t->layout = &t->layouts[regs[i].layout];
	return 0;
}

static void address_text(char *buf, size_t n, const struct pmregs_register_desc *r)
{
	if (r->addr_kind)
		snprintf(buf, n, "%s 0x%llx", r->addr_kind, (unsigned long long)r->addr);
	else
		snprintf(buf, n, "no address");
}

/* ---- decoding one value ---- */

#define MAXF 128

/* Fields in the order a table shows them: from bit 0 up, or from the manual's bit 0 (the MSB) down. */
static size_t field_order(const struct pmregs_layout_desc *d, unsigned *order)
{
	size_t n = d->nfields < MAXF ? d->nfields : MAXF, i, j;
	for (i = 0; i < n; i++)
		order[i] = (unsigned)i;
	for (i = 1; i < n; i++) {
		unsigned k = order[i];
		unsigned lo_k = d->fields[k].lo[d->fields[k].nparts - 1u];
		for (j = i; j > 0; j--) {
			unsigned p = order[j - 1];
			unsigned lo_p = d->fields[p].lo[d->fields[p].nparts - 1u];
			if (d->msb0 ? lo_p >= lo_k : lo_p <= lo_k)
				break;
			order[j] = p;
		}
		order[j] = k;
	}
	return n;
}

static const char keys[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* The ruler's key of each field (in table order): a letter or digit, '.' for a reserved field. */
static void field_keys(const struct pmregs_layout_desc *d, const unsigned *order, size_t n, char *key)
{
	size_t i, k = 0;
	for (i = 0; i < n; i++) {
		const struct pmregs_field_desc *f = &d->fields[order[i]];
		if (is_reserved(f))
			key[order[i]] = '.';
		else
			key[order[i]] = k < sizeof keys - 1 ? keys[k++] : '*';
	}
}

/* One line of group labels: every group of 8 bits shows its first and last bit number. */
static void ruler_numbers(FILE *o, const char *label, unsigned width, int msb0)
{
	unsigned top;
	fprintf(o, "%-6s", label);
	for (top = width; top >= 8; top -= 8) {
		unsigned hi = top - 1u, lo = top - 8u;
		unsigned a = msb0 ? width - 1u - hi : hi, b = msb0 ? width - 1u - lo : lo;
		char right[8];
		int rl = snprintf(right, sizeof right, "%u", b);
		fprintf(o, "%s%-*u%s", top == width ? "" : " ", 8 - rl, a, right);
	}
	fputc('\n', o);
}

static void ruler(FILE *o, const struct pmregs_layout_desc *d, uint64_t v, const char *key)
{
	char map[64];
	unsigned width = d->width, b, i, j;
	for (b = 0; b < 64; b++)
		map[b] = '?';
	for (i = 0; i < d->nfields && i < MAXF; i++) {
		const struct pmregs_field_desc *f = &d->fields[i];
		uint64_t bad = bad_bits(f, v);
		for (j = 0; j < f->nparts; j++)
			for (b = f->lo[j]; b < (unsigned)f->lo[j] + f->width[j] && b < 64; b++)
				map[b] = ((bad >> b) & 1u) ? '!' : key[i];
	}
	if (d->msb0) {
		ruler_numbers(o, "msb0", width, 1);
		ruler_numbers(o, "lsb0", width, 0);
	} else {
		ruler_numbers(o, "bit", width, 0);
	}
	fprintf(o, "%-6s", "value");
	for (b = width; b-- > 0;)
		fprintf(o, "%c%s", (v >> b) & 1u ? '1' : '0', b && b % 8 == 0 ? " " : "");
	fprintf(o, "\n%-6s", "field");
	for (b = width; b-- > 0;)
		fprintf(o, "%c%s", map[b], b && b % 8 == 0 ? " " : "");
	fputc('\n', o);
}

/* The doc text as one paragraph, wrapped at 96 columns, each line indented by `indent` spaces. */
static void print_doc_indented(FILE *o, const char *doc, size_t indent)
{
	size_t col = 0;
	while (*doc) {
		size_t n = 0;
		while (*doc == ' ' || *doc == '\n' || *doc == '\t')
			doc++;
		while (doc[n] && doc[n] != ' ' && doc[n] != '\n' && doc[n] != '\t')
			n++;
		if (!n)
			break;
		if (col && col + 1 + n > 96) {
			fputc('\n', o);
			col = 0;
		} else if (col) {
			fputc(' ', o);
			col++;
		}
		if (!col) {
			fprintf(o, "%*s", (int)indent, "");
			col = indent;
		}
		fprintf(o, "%.*s", (int)n, doc);
		col += n;
		doc += n;
	}
	if (col)
		fputc('\n', o);
}

static void print_doc(FILE *o, const char *doc)
{
	print_doc_indented(o, doc, 0);
}

static int write_svg(const char *path, const struct target *t, const struct pmregs_layout_desc *d, uint64_t v);

/* "used by NAME (msr 0x...), ...": the registers whose layout is t's, wrapped at 96 columns between items. */
static void print_users(const struct target *t)
{
	size_t nr, i, col = 0, k = 0;
	const struct pmregs_register_desc *regs = t->fam->registers(&nr);
	long idx = (long)(t->layout - t->layouts);
	char item[160], addr[64];
	for (i = 0; i < nr; i++) {
		int n;
		if (regs[i].layout != idx)
			continue;
		address_text(addr, sizeof addr, &regs[i]);
		n = snprintf(item, sizeof item, "%s (%s)", regs[i].name, addr);
		if (n < 0)
			continue;
		if (k == 0) {
			printf("used by %s", item);
			col = 8 + (size_t)n;
		} else if (col + 2 + (size_t)n + 1 > 96) {
			printf(",\n%s", item);
			col = (size_t)n;
		} else {
			printf(", %s", item);
			col += 2 + (size_t)n;
		}
		k++;
	}
	if (k)
		printf("\n");
}

static void json_users(const struct target *t)
{
	size_t nr, i, k = 0;
	const struct pmregs_register_desc *regs = t->fam->registers(&nr);
	long idx = (long)(t->layout - t->layouts);
	printf(",\n  \"registers\": [");
	for (i = 0; i < nr; i++) {
		if (regs[i].layout != idx)
			continue;
		printf("%s{\"name\": ", k++ ? ", " : "");
		json_str(stdout, regs[i].name);
		printf(", \"address\": ");
		if (regs[i].addr_kind) {
			printf("{\"kind\": ");
			json_str(stdout, regs[i].addr_kind);
			printf(", \"value\": %llu}}", (unsigned long long)regs[i].addr);
		} else {
			printf("null}");
		}
	}
	printf("]");
}

static int decode_value(const struct target *t, const char *text, int json, const char *svg, int long_doc)
{
	const struct pmregs_layout_desc *base = t->layout, *d;
	const struct pmregs_register_desc *r = t->reg;
	unsigned order[MAXF];
	char key[MAXF];
	size_t n, i;
	uint64_t v, bad = 0;
	unsigned width = base ? base->width : 64;
	int rc = parse_u64(text, &v), nbad = 0;
	char addr[64];
	if (rc < 0) {
		fprintf(stderr, "%s: '%s' is not a value: %s\n", prog, text,
			rc == -2 ? "it needs more than 64 bits" : "give decimal, 0x hexadecimal or 0b binary digits");
		return ST_VALUE;
	}
	if (width < 64 && (v >> width) != 0) {
		fprintf(stderr, "%s: %s does not fit the %u-bit %s\n", prog, text, width, r ? r->name : base->name);
		return ST_VALUE;
	}
	if (r)
		address_text(addr, sizeof addr, r);
	if (!base) {
		/* a register whose value is one quantity */
		if (svg) {
			fprintf(stderr, "%s: %s has no fields to draw\n", prog, r->name);
			return ST_USAGE;
		}
		if (json) {
			printf("{\"family\": ");
			json_str(stdout, t->fam->name);
			printf(", \"register\": ");
			json_str(stdout, r->name);
			printf(", \"title\": ");
			json_str(stdout, r->title);
			printf(", \"address\": ");
			if (r->addr_kind) {
				printf("{\"kind\": ");
				json_str(stdout, r->addr_kind);
				printf(", \"value\": %llu}", (unsigned long long)r->addr);
			} else {
				printf("null");
			}
			printf(", \"layout\": null, \"value\": %llu, \"fields\": [], \"valid\": true}\n", (unsigned long long)v);
		} else {
			printf("%s %s (%s, %s) = 0x%llx\n", t->fam->name, r->name, r->title, addr, (unsigned long long)v);
			print_doc(stdout, r->doc);
			printf("no fields: the value is one quantity (%llu)\n", (unsigned long long)v);
		}
		return ST_OK;
	}
	d = pmregs_layout_for_value(t->layouts, base, v);
	n = field_order(d, order);
	field_keys(d, order, n, key);
	for (i = 0; i < n; i++) {
		uint64_t b = bad_bits(&d->fields[i], v);
		bad |= b;
		nbad += b != 0;
	}
	if (json) {
		printf("{\n  \"family\": ");
		json_str(stdout, t->fam->name);
		printf(",\n  \"register\": ");
		json_str(stdout, r ? r->name : 0);
		printf(",\n  \"title\": ");
		json_str(stdout, r ? r->title : d->title);
		printf(",\n  \"address\": ");
		if (r && r->addr_kind) {
			printf("{\"kind\": ");
			json_str(stdout, r->addr_kind);
			printf(", \"value\": %llu}", (unsigned long long)r->addr);
		} else {
			printf("null");
		}
		if (!r)
			json_users(t);
		printf(",\n  \"layout\": ");
		json_str(stdout, base->name);
		printf(",\n  \"variant\": ");
		json_str(stdout, d != base ? d->name : 0);
		printf(",\n  \"width\": %u,\n  \"msb0\": %s,\n  \"value\": %llu,\n  \"valid\": %s,\n  \"fields\": [", width,
		       d->msb0 ? "true" : "false", (unsigned long long)v, bad ? "false" : "true");
		for (i = 0; i < n; i++) {
			const struct pmregs_field_desc *f = &d->fields[order[i]];
			uint64_t x = pmregs_field_get(f, v);
			const struct pmregs_value_desc *nv = named_value(f, x);
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, f->name);
			printf(", \"bits\": ");
			json_bits(stdout, f, width, 0);
			if (d->msb0) {
				printf(", \"msb0_bits\": ");
				json_bits(stdout, f, width, 1);
			}
			printf(", \"access\": \"%s\", \"value\": %llu", access_name(f->access), (unsigned long long)x);
			if (is_negative(f, x))
				printf(", \"signed_value\": -%llu", (unsigned long long)(((~x) & low_mask(pmregs_field_width(f))) + 1));
			else if (f->is_signed)
				printf(", \"signed_value\": %llu", (unsigned long long)x);
			printf(", \"meaning\": ");
			json_str(stdout, nv ? nv->name : 0);
			printf(", \"ok\": %s}", bad_bits(f, v) ? "false" : "true");
		}
		printf("\n  ]\n}\n");
	} else {
		size_t wn = 5, wb = 4, wm = 4, wv = 5;
		char bits[64], mbits[64], val[32];
		if (r)
			printf("%s %s (%s, %s) = 0x%0*llx\n", t->fam->name, r->name, r->title, addr, (int)(width / 4),
			       (unsigned long long)v);
		else
			printf("%s layout %s (%s) = 0x%0*llx\n", t->fam->name, base->name, base->title, (int)(width / 4),
			       (unsigned long long)v);
		printf("layout %s, %u bits%s", base->name, width, d->msb0 ? ", the manual numbers bit 0 as the MSB" : "");
		if (d != base)
			printf("; variant %s (%s = %llu)", d->name, base->fields[base->variant_field].name,
			       (unsigned long long)pmregs_field_get(&base->fields[base->variant_field], v));
		printf("\n");
		if (r) {
			print_doc(stdout, r->doc);
			if (r->facts[0])
				printf("facts: %s\n", r->facts);
		} else {
			print_doc(stdout, d->doc);
			print_users(t);
		}
		printf("\n");
		ruler(stdout, d, v, key);
		printf("\n");
		for (i = 0; i < n; i++) {
			const struct pmregs_field_desc *f = &d->fields[order[i]];
			size_t l = strlen(f->name);
			wn = l > wn ? l : wn;
			bits_text(bits, sizeof bits, f, width, 0);
			wb = strlen(bits) > wb ? strlen(bits) : wb;
			bits_text(mbits, sizeof mbits, f, width, 1);
			wm = strlen(mbits) > wm ? strlen(mbits) : wm;
			value_text(val, sizeof val, f, pmregs_field_get(f, v));
			wv = strlen(val) > wv ? strlen(val) : wv;
		}
		if (d->msb0)
			printf("key  %-*s  %-*s  %-*s  %-7s  %-*s  meaning\n", (int)wn, "field", (int)wm, "msb0", (int)wb, "lsb0",
			       "access", (int)wv, "value");
		else
			printf("key  %-*s  %-*s  %-7s  %-*s  meaning\n", (int)wn, "field", (int)wb, "bits", "access", (int)wv,
			       "value");
		for (i = 0; i < n; i++) {
			const struct pmregs_field_desc *f = &d->fields[order[i]];
			uint64_t x = pmregs_field_get(f, v);
			const struct pmregs_value_desc *nv = named_value(f, x);
			uint64_t b = bad_bits(f, v);
			bits_text(bits, sizeof bits, f, width, 0);
			bits_text(mbits, sizeof mbits, f, width, 1);
			value_text(val, sizeof val, f, x);
			printf("  %c  %-*s  ", key[order[i]], (int)wn, f->name);
			if (d->msb0)
				printf("%-*s  ", (int)wm, mbits);
			printf("%-*s  %-7s  ", (int)wb, bits, access_name(f->access));
			if (b)
				printf("%-*s  ! must be %s\n", (int)wv, val, f->access == PMREGS_ACCESS_RES1 ? "all ones" : "0");
			else if (nv)
				printf("%-*s  %s\n", (int)wv, val, nv->name);
			else
				printf("%s\n", val);
			if (long_doc && f->doc && *f->doc)
				print_doc_indented(stdout, f->doc, 7);
		}
	}
	for (i = 0; i < n; i++) {
		const struct pmregs_field_desc *f = &d->fields[order[i]];
		uint64_t b = bad_bits(f, v);
		char bits[64];
		if (!b)
			continue;
		bits_text(bits, sizeof bits, f, width, d->msb0);
		fprintf(stderr, "%s: warning: reserved field %s (bits %s%s) is 0x%llx; it must be %s\n", prog, f->name, bits,
			d->msb0 ? ", msb0" : "", (unsigned long long)pmregs_field_get(f, v),
			f->access == PMREGS_ACCESS_RES1 ? "all ones" : "0");
	}
	if (svg && write_svg(svg, t, d, v) != 0)
		return ST_IO;
	return nbad ? ST_WARN : ST_OK;
}

/* ---- the SVG diagram (the same drawing as the reference pages' diagrams, plus the value) ---- */

#define SVG_CELL   22 /* pixels per bit */
#define SVG_LEFT   44 /* room for the numbering captions */
#define SVG_RIGHT  12
#define SVG_TITLE  28
#define SVG_NUM    13 /* one line of bit numbers */
#define SVG_BOX    42 /* box height with bit digits and label */
#define SVG_GAP    14
#define SVG_CHARW  66 /* tenths of a pixel per character at font size 11 */

static unsigned text_w(const char *s)
{
	return (unsigned)(strlen(s) * SVG_CHARW + 9) / 10;
}

static void svg_text(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", o);
		else if (*s == '<')
			fputs("&lt;", o);
		else if (*s == '>')
			fputs("&gt;", o);
		else if (*s == '"')
			fputs("&quot;", o);
		else
			fputc(*s, o);
	}
}

static void label_of(char *buf, size_t n, const struct pmregs_field_desc *f, uint64_t v)
{
	char val[32];
	uint64_t x = pmregs_field_get(f, v);
	const struct pmregs_value_desc *nv = named_value(f, x);
	value_text(val, sizeof val, f, x);
	if (nv)
		snprintf(buf, n, "%s=%s (%s)", f->name, val, nv->name);
	else
		snprintf(buf, n, "%s=%s", f->name, val);
}

static int write_svg(const char *path, const struct target *t, const struct pmregs_layout_desc *d, uint64_t v)
{
	unsigned width = d->width, per_row = width < 32 ? width : 32, rows = width / per_row;
	unsigned nums = d->msb0 ? 2u : 1u, row, i, j, total_w = SVG_LEFT + per_row * SVG_CELL + SVG_RIGHT;
	unsigned band[2] = { 0, 0 }, y, height;
	char label[256], title[256];
	FILE *o = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (!o) {
		fprintf(stderr, "%s: cannot write ", prog);
		perror(path);
		return -1;
	}
	/* the band under each row holds the labels that do not fit their box, turned 90 degrees */
	for (i = 0; i < d->nfields; i++) {
		const struct pmregs_field_desc *f = &d->fields[i];
		label_of(label, sizeof label, f, v);
		for (j = 0; j < f->nparts; j++) {
			unsigned lo = f->lo[j], hi = lo + f->width[j] - 1u;
			for (row = 0; row < rows; row++) {
				unsigned rhi = width - 1u - row * per_row, rlo = rhi + 1u - per_row;
				unsigned a = hi < rhi ? hi : rhi, b = lo > rlo ? lo : rlo;
				if (a < b || hi < rlo || lo > rhi)
					continue;
				if (text_w(label) + 6 > (a - b + 1u) * SVG_CELL && text_w(label) + 8 > band[row])
					band[row] = text_w(label) + 8;
			}
		}
	}
	height = SVG_TITLE;
	for (row = 0; row < rows; row++)
		height += nums * SVG_NUM + SVG_BOX + band[row] + SVG_GAP;
	if (t->reg)
		snprintf(title, sizeof title, "%s %s (%s) = 0x%0*llx", t->fam->name, t->reg->name, t->reg->title,
			 (int)(width / 4), (unsigned long long)v);
	else
		snprintf(title, sizeof title, "%s %s (%s) = 0x%0*llx", t->fam->name, d->name, d->title, (int)(width / 4),
			 (unsigned long long)v);
	/* the title is 13px bold: 7.8px a character */
	if (SVG_LEFT + (unsigned)(strlen(title) * 78 + 9) / 10 + SVG_RIGHT > total_w)
		total_w = SVG_LEFT + (unsigned)(strlen(title) * 78 + 9) / 10 + SVG_RIGHT;
	fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		   "font-family=\"monospace\" font-size=\"11\">\n", total_w, height, total_w, height);
	fprintf(o, "<title>");
	svg_text(o, title);
	fprintf(o, "</title>\n<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", total_w, height);
	fprintf(o, "<text x=\"%u\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", SVG_LEFT);
	svg_text(o, title);
	fprintf(o, "</text>\n");
	y = SVG_TITLE;
	for (row = 0; row < rows; row++) {
		unsigned rhi = width - 1u - row * per_row, rlo = rhi + 1u - per_row, by = y + nums * SVG_NUM, b;
		if (d->msb0) {
			fprintf(o, "<text x=\"4\" y=\"%u\" font-size=\"9\" fill=\"#555555\">msb0</text>\n", y + 10);
			fprintf(o, "<text x=\"4\" y=\"%u\" font-size=\"9\" fill=\"#555555\">lsb0</text>\n", y + SVG_NUM + 10);
		}
		for (i = 0; i < d->nfields; i++) {
			const struct pmregs_field_desc *f = &d->fields[i];
			uint64_t bad = bad_bits(f, v);
			label_of(label, sizeof label, f, v);
			for (j = 0; j < f->nparts; j++) {
				unsigned lo = f->lo[j], hi = lo + f->width[j] - 1u, a, c, x0, w, k;
				const char *fill = is_reserved(f) ? "#e4e4e4" : "#ffffff";
				if (hi < rlo || lo > rhi)
					continue;
				a = hi < rhi ? hi : rhi;
				c = lo > rlo ? lo : rlo;
				x0 = SVG_LEFT + (rhi - a) * SVG_CELL;
				w = (a - c + 1u) * SVG_CELL;
				if (bad)
					fill = "#ffd0d0";
				fprintf(o, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" stroke=\"%s\"/>\n", x0, by, w,
					SVG_BOX, fill, bad ? "#cc0000" : "#000000");
				/* bit numbers at the edges of the part */
				for (k = 0; k < nums; k++) {
					int m = d->msb0 && k == 0;
					unsigned na = m ? width - 1u - a : a, nc = m ? width - 1u - c : c;
					unsigned ty = y + k * SVG_NUM + 10;
					fprintf(o, "<text x=\"%u\" y=\"%u\" font-size=\"9\" text-anchor=\"middle\">%u</text>\n",
						x0 + SVG_CELL / 2, ty, na);
					if (a != c)
						fprintf(o, "<text x=\"%u\" y=\"%u\" font-size=\"9\" text-anchor=\"middle\">%u</text>\n",
							x0 + w - SVG_CELL / 2, ty, nc);
				}
				/* one digit per bit, with ticks between the bits */
				for (b = c; b <= a; b++) {
					unsigned cx = SVG_LEFT + (rhi - b) * SVG_CELL;
					fprintf(o, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\"%s>%c</text>\n", cx + SVG_CELL / 2,
						by + 14, ((bad >> b) & 1u) ? " fill=\"#cc0000\" font-weight=\"bold\"" : "",
						(v >> b) & 1u ? '1' : '0');
					if (b != c)
						fprintf(o, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#999999\"/>\n",
							cx + SVG_CELL, by + SVG_BOX - 5, cx + SVG_CELL, by + SVG_BOX);
				}
				if (text_w(label) + 6 <= w) {
					fprintf(o, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">", x0 + w / 2, by + 32);
					svg_text(o, label);
					fprintf(o, "</text>\n");
				} else {
					fprintf(o, "<text transform=\"translate(%u,%u) rotate(90)\">", x0 + w / 2 - 4,
						by + SVG_BOX + 4);
					svg_text(o, label);
					fprintf(o, "</text>\n");
				}
			}
		}
		y = by + SVG_BOX + band[row] + SVG_GAP;
	}
	fprintf(o, "</svg>\n");
	if (o != stdout && fclose(o) != 0) {
		fprintf(stderr, "%s: cannot write ", prog);
		perror(path);
		return -1;
	}
	return 0;
}

/* ---- --list ---- */

static void list_families(int json)
{
	size_t i, j, n, nl, nr, ns;
	const struct pmregs_family_desc *d = pmregs_families(&n);
	if (json)
		printf("[");
	for (i = 0; i < n; i++) {
		const struct pmregs_stream_desc *st = d[i].streams ? d[i].streams(&ns) : 0;
		d[i].layouts(&nl);
		d[i].registers(&nr);
		if (!st)
			ns = 0;
		if (json) {
			printf("%s\n  {\"name\": ", i ? "," : "");
			json_str(stdout, d[i].name);
			printf(", \"title\": ");
			json_str(stdout, d[i].title);
			printf(", \"vendor\": ");
			json_str(stdout, d[i].vendor ? d[i].vendor : "");
			printf(", \"registers\": %zu, \"layouts\": %zu, \"streams\": [", nr, nl);
			for (j = 0; j < ns; j++) {
				printf("%s", j ? ", " : "");
				json_str(stdout, st[j].name);
			}
			printf("]}");
		} else {
			printf("%-10s %3zu registers %3zu layouts", d[i].name, nr, nl);
			if (ns)
				printf(" %zu stream%s", ns, ns == 1 ? " " : "s");
			else
				printf("          ");
			printf("  %-20s %s\n", d[i].vendor ? d[i].vendor : "", d[i].title);
		}
	}
	if (json)
		printf("\n]\n");
}

static void list_family(const struct pmregs_family_desc *fam, int json)
{
	size_t nr, nl, np = 0, ns = 0, i;
	const struct pmregs_register_desc *r = fam->registers(&nr);
	const struct pmregs_layout_desc *l = fam->layouts(&nl);
	const struct pmregs_param_desc *p = fam->params ? fam->params(&np) : 0;
	const struct pmregs_stream_desc *s = fam->streams ? fam->streams(&ns) : 0;
	size_t nt = 0;
	const struct pmregs_table_desc *tb = fam->tables ? fam->tables(&nt) : 0;
	size_t nsam = 0;
	const struct pmregs_sample_desc *sam = fam->samples ? fam->samples(&nsam) : 0;
	char addr[64];
	if (json) {
		printf("{\n  \"family\": ");
		json_str(stdout, fam->name);
		printf(",\n  \"title\": ");
		json_str(stdout, fam->title);
		printf(",\n  \"registers\": [");
		for (i = 0; i < nr; i++) {
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, r[i].name);
			printf(", \"title\": ");
			json_str(stdout, r[i].title);
			printf(", \"address\": ");
			if (r[i].addr_kind) {
				printf("{\"kind\": ");
				json_str(stdout, r[i].addr_kind);
				printf(", \"value\": %llu}", (unsigned long long)r[i].addr);
			} else {
				printf("null");
			}
			printf(", \"layout\": ");
			json_str(stdout, r[i].layout >= 0 ? l[r[i].layout].name : 0);
			printf(", \"reset\": %llu}", (unsigned long long)r[i].reset);
		}
		printf("\n  ],\n  \"layouts\": [");
		for (i = 0; i < nl; i++) {
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, l[i].name);
			printf(", \"title\": ");
			json_str(stdout, l[i].title);
			printf(", \"width\": %u, \"msb0\": %s, \"fields\": %u}", l[i].width, l[i].msb0 ? "true" : "false",
			       l[i].nfields);
		}
		printf("\n  ],\n  \"tables\": [");
		for (i = 0; i < nt; i++) {
			size_t nrows;
			tb[i].rows(&nrows);
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, tb[i].name);
			printf(", \"title\": ");
			json_str(stdout, tb[i].title);
			printf(", \"rows\": %zu, \"columns\": %zu}", nrows, tb[i].ncolumns);
		}
		printf("%s],\n  \"samples\": [", nt ? "\n  " : "");
		for (i = 0; i < nsam; i++) {
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, sam[i].name);
			printf(", \"title\": ");
			json_str(stdout, sam[i].title);
			printf("}");
		}
		printf("%s],\n  \"params\": [", nsam ? "\n  " : "");
		for (i = 0; i < np; i++) {
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, p[i].name);
			printf(", \"default\": %llu, \"min\": %llu, \"max\": %llu, \"doc\": ", (unsigned long long)p[i].def,
			       (unsigned long long)p[i].min, (unsigned long long)p[i].max);
			json_str(stdout, p[i].doc);
			printf("}");
		}
		printf("%s],\n  \"streams\": [", np ? "\n  " : "");
		for (i = 0; i < ns; i++) {
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, s[i].name);
			printf(", \"frame\": ");
			json_str(stdout, s[i].frame);
			printf(", \"payload\": ");
			json_str(stdout, s[i].payload);
			printf(", \"doc\": ");
			json_str(stdout, s[i].doc);
			printf("}");
		}
		printf("%s]\n}\n", ns ? "\n  " : "");
		return;
	}
	printf("%s: %s\n", fam->name, fam->title);
	if (nr) {
		size_t wn = 8, wt = 5;
		for (i = 0; i < nr; i++) {
			wn = strlen(r[i].name) > wn ? strlen(r[i].name) : wn;
			wt = strlen(r[i].title) > wt ? strlen(r[i].title) : wt;
		}
		printf("\n%-*s  %-*s  %-18s  %s\n", (int)wn, "register", (int)wt, "title", "address", "layout");
		for (i = 0; i < nr; i++) {
			address_text(addr, sizeof addr, &r[i]);
			printf("%-*s  %-*s  %-18s  %s\n", (int)wn, r[i].name, (int)wt, r[i].title, addr,
			       r[i].layout >= 0 ? l[r[i].layout].name : "-");
		}
	}
	if (nl) {
		size_t wn = 6;
		for (i = 0; i < nl; i++)
			wn = strlen(l[i].name) > wn ? strlen(l[i].name) : wn;
		printf("\n%-*s  bits  fields  title\n", (int)wn, "layout");
		for (i = 0; i < nl; i++)
			printf("%-*s  %4u  %6u  %s\n", (int)wn, l[i].name, l[i].width, l[i].nfields, l[i].title);
	}
	if (nt) {
		size_t wn = 5;
		for (i = 0; i < nt; i++)
			wn = strlen(tb[i].name) > wn ? strlen(tb[i].name) : wn;
		printf("\n%-*s  rows  title (list one with: %s --list %s TABLE)\n", (int)wn, "table", prog, fam->name);
		for (i = 0; i < nt; i++) {
			size_t nrows;
			tb[i].rows(&nrows);
			printf("%-*s  %4zu  %s\n", (int)wn, tb[i].name, nrows, tb[i].title);
		}
	}
	if (nsam) {
		printf("\nsamples (decode one with: %s --sample NAME %s FILE|VALUE...)\n", prog, fam->name);
		for (i = 0; i < nsam; i++) {
			size_t k;
			printf("  %s: %s: ", sam[i].name, sam[i].title);
			if (sam[i].caps >= 0)
				printf("%s, then ", r[sam[i].caps].name);
			for (k = 0; k < sam[i].nitems; k++)
				printf("%s%s%s", k ? ", " : "", r[sam[i].items[k].reg].name, sam[i].items[k].if_bit >= 0 ? "?" : "");
			printf("\n");
		}
	}
	if (ns) {
		printf("\nstreams (decode one with: %s %s [--stream NAME] [--params NAME=VALUE,...] FILE)\n", prog, fam->name);
		for (i = 0; i < ns; i++)
			printf("  %s: %s packets carrying %s: %s\n", s[i].name, s[i].frame, s[i].payload, s[i].doc);
	}
	if (np) {
		size_t wn = 9;
		for (i = 0; i < np; i++)
			wn = strlen(p[i].name) > wn ? strlen(p[i].name) : wn;
		printf("\n%-*s  %7s  %s\n", (int)wn, "parameter", "default", "range: meaning");
		for (i = 0; i < np; i++)
			printf("%-*s  %7llu  %llu..%llu: %s\n", (int)wn, p[i].name, (unsigned long long)p[i].def,
			       (unsigned long long)p[i].min, (unsigned long long)p[i].max, p[i].doc);
	}
	if (fam->presets) {
		size_t nps;
		const struct pmregs_param_preset *ps = fam->presets(&nps);
		printf("\nparameter presets (use one with: --params preset=NAME)\n");
		for (i = 0; i < nps; i++)
			printf("  %s: %s\n", ps[i].name, ps[i].doc);
	}
}

/* The table called name ("table:NAME" or NAME, ignoring case), or a null pointer. */
static const struct pmregs_table_desc *find_table(const struct pmregs_family_desc *fam, const char *name)
{
	size_t n = 0, i;
	const struct pmregs_table_desc *tb = fam->tables ? fam->tables(&n) : 0;
	if (strncmp(name, "table:", 6) == 0)
		name += 6;
	for (i = 0; i < n; i++)
		if (eq_nocase(tb[i].name, name))
			return &tb[i];
	return 0;
}

/* One cell of a table row as text: numbers in hex (a list's joined by ','), strings as they are, named bits by name. */
static void cell_text(char *buf, size_t size, const unsigned char *row, const struct pmregs_column_desc *c)
{
	size_t k, n = pmregs_table_count(row, c), at = 0;
	buf[0] = 0;
	if (c->kind == PMREGS_COLUMN_STR) {
		snprintf(buf, size, "%s", pmregs_table_str(row, c->offset));
		return;
	}
	if (c->kind == PMREGS_COLUMN_BITS) {
		const struct pmregs_bit_desc *b = pmregs_table_bits(row, c);
		for (k = 0; k < n && at < size; k++)
			at += (size_t)snprintf(buf + at, size - at, "%s%s", k ? "|" : "", b[k].name);
		if (n == 0)
			snprintf(buf, size, "-");
		return;
	}
	for (k = 0; k < n && at < size; k++) {
		uint64_t x = pmregs_table_value(row, c, k);
		if (c->kind == PMREGS_COLUMN_BOOL || c->kind == PMREGS_COLUMN_ENUM)
			at += (size_t)snprintf(buf + at, size - at, "%s%llu", k ? "," : "", (unsigned long long)x);
		else
			at += (size_t)snprintf(buf + at, size - at, "%s0x%llx", k ? "," : "", (unsigned long long)x);
	}
	if (n == 0)
		snprintf(buf, size, "-");
}

/* Every row of a table: its name, every column and its title (with long_doc, its description too). */
static void list_table(const struct pmregs_family_desc *fam, const struct pmregs_table_desc *tb, int json, int long_doc)
{
	size_t nrows, i, j, wn = 4, w[32];
	size_t nc = tb->ncolumns < 32 ? tb->ncolumns : 32;
	char cell[256];
	tb->rows(&nrows);
	if (json) {
		printf("{\n  \"family\": ");
		json_str(stdout, fam->name);
		printf(",\n  \"table\": ");
		json_str(stdout, tb->name);
		printf(",\n  \"title\": ");
		json_str(stdout, tb->title);
		printf(",\n  \"source\": ");
		json_str(stdout, tb->source);
		printf(",\n  \"rows\": [");
		for (i = 0; i < nrows; i++) {
			const unsigned char *row = pmregs_table_row(tb, i);
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, pmregs_table_str(row, 0));
			for (j = 0; j < nc; j++) {
				const struct pmregs_column_desc *c = &tb->columns[j];
				size_t k, n = pmregs_table_count(row, c);
				printf(", ");
				json_str(stdout, c->name);
				printf(": ");
				if (c->kind == PMREGS_COLUMN_STR) {
					json_str(stdout, pmregs_table_str(row, c->offset));
				} else if (c->kind == PMREGS_COLUMN_BITS) {
					const struct pmregs_bit_desc *b = pmregs_table_bits(row, c);
					printf("[");
					for (k = 0; k < n; k++) {
						printf("%s", k ? ", " : "");
						json_str(stdout, b[k].name);
					}
					printf("]");
				} else if (c->kind == PMREGS_COLUMN_LIST) {
					printf("[");
					for (k = 0; k < n; k++)
						printf("%s%llu", k ? ", " : "", (unsigned long long)pmregs_table_value(row, c, k));
					printf("]");
				} else {
					printf("%llu", (unsigned long long)pmregs_table_value(row, c, 0));
				}
			}
			printf(", \"title\": ");
			json_str(stdout, pmregs_table_str(row, sizeof(const char *)));
			printf(", \"doc\": ");
			json_str(stdout, pmregs_table_str(row, 2 * sizeof(const char *)));
			printf("}");
		}
		printf("%s]\n}\n", nrows ? "\n  " : "");
		return;
	}
	for (j = 0; j < nc; j++)
		w[j] = strlen(tb->columns[j].name);
	for (i = 0; i < nrows; i++) {
		const unsigned char *row = pmregs_table_row(tb, i);
		size_t l = strlen(pmregs_table_str(row, 0));
		wn = l > wn ? l : wn;
		for (j = 0; j < nc; j++) {
			cell_text(cell, sizeof cell, row, &tb->columns[j]);
			w[j] = strlen(cell) > w[j] ? strlen(cell) : w[j];
		}
	}
	printf("%s %s: %s (%zu rows)\n", fam->name, tb->name, tb->title, nrows);
	if (tb->source[0])
		printf("source: %s\n", tb->source);
	printf("\n%-*s", (int)wn, "name");
	for (j = 0; j < nc; j++)
		printf("  %-*s", (int)w[j], tb->columns[j].name);
	printf("  title\n");
	for (i = 0; i < nrows; i++) {
		const unsigned char *row = pmregs_table_row(tb, i);
		const char *doc = pmregs_table_str(row, 2 * sizeof(const char *));
		printf("%-*s", (int)wn, pmregs_table_str(row, 0));
		for (j = 0; j < nc; j++) {
			cell_text(cell, sizeof cell, row, &tb->columns[j]);
			printf("  %-*s", (int)w[j], cell);
		}
		printf("  %s\n", pmregs_table_str(row, sizeof(const char *)));
		if (long_doc && doc[0])
			printf("%*s%s\n", (int)wn + 2, "", doc);
	}
	if (long_doc) {
		printf("\ncolumns\n");
		for (j = 0; j < nc; j++)
			printf("  %s: %s\n", tb->columns[j].name, tb->columns[j].doc[0] ? tb->columns[j].doc : "-");
	}
}

/* The fields of d in table order, with their named values; without those of `skip` (a parent layout). */
static void list_fields(const struct pmregs_layout_desc *d, const struct pmregs_layout_desc *skip)
{
	unsigned order[MAXF];
	size_t n = field_order(d, order), i, j, k;
	char bits[64], mbits[64];
	if (!skip)
		printf("  %-*s %-24s %-7s meaning\n", d->msb0 ? 19 : 9, d->msb0 ? "msb0      lsb0" : "bits", "field", "access");
	for (i = 0; i < n; i++) {
		const struct pmregs_field_desc *f = &d->fields[order[i]];
		for (k = 0; skip && k < skip->nfields; k++)
			if (strcmp(skip->fields[k].name, f->name) == 0)
				break;
		if (skip && k < skip->nfields)
			continue;
		bits_text(bits, sizeof bits, f, d->width, 0);
		if (d->msb0) {
			bits_text(mbits, sizeof mbits, f, d->width, 1);
			printf("  %-9s %-9s", mbits, bits);
		} else {
			printf("  %-9s", bits);
		}
		if (f->doc[0])
			printf(" %-24s %-7s %s\n", f->name, access_name(f->access), f->doc);
		else
			printf(" %-24s %s\n", f->name, access_name(f->access));
		for (j = 0; j < f->nvalues; j++)
			printf("  %*s %-24s   %llu = %s%s%s\n", d->msb0 ? 19 : 9, "", "", (unsigned long long)f->values[j].value,
			       f->values[j].name, f->values[j].doc[0] ? ": " : "", f->values[j].doc);
	}
}

static void list_target(const struct target *t, int json)
{
	const struct pmregs_layout_desc *d = t->layout;
	const struct pmregs_register_desc *r = t->reg;
	unsigned order[MAXF];
	size_t n, i, j;
	char addr[64];
	if (r)
		address_text(addr, sizeof addr, r);
	if (json) {
		printf("{\n  \"family\": ");
		json_str(stdout, t->fam->name);
		printf(",\n  \"register\": ");
		json_str(stdout, r ? r->name : 0);
		printf(",\n  \"title\": ");
		json_str(stdout, r ? r->title : d->title);
		printf(",\n  \"layout\": ");
		json_str(stdout, d ? d->name : 0);
		printf(",\n  \"fields\": [");
		n = d ? field_order(d, order) : 0;
		for (i = 0; i < n; i++) {
			const struct pmregs_field_desc *f = &d->fields[order[i]];
			printf("%s\n    {\"name\": ", i ? "," : "");
			json_str(stdout, f->name);
			printf(", \"bits\": ");
			json_bits(stdout, f, d->width, 0);
			if (d->msb0) {
				printf(", \"msb0_bits\": ");
				json_bits(stdout, f, d->width, 1);
			}
			printf(", \"access\": \"%s\", \"doc\": ", access_name(f->access));
			json_str(stdout, f->doc);
			printf(", \"values\": [");
			for (j = 0; j < f->nvalues; j++) {
				printf("%s{\"name\": ", j ? ", " : "");
				json_str(stdout, f->values[j].name);
				printf(", \"value\": %llu}", (unsigned long long)f->values[j].value);
			}
			printf("]}");
		}
		printf("%s]\n}\n", n ? "\n  " : "");
		return;
	}
	if (r)
		printf("%s %s (%s, %s)\n", t->fam->name, r->name, r->title, addr);
	else
		printf("%s layout %s (%s)\n", t->fam->name, d->name, d->title);
	if (r)
		print_doc(stdout, r->doc);
	if (!d) {
		printf("no fields: the value is one quantity\n");
		return;
	}
	printf("layout %s, %u bits, reset 0x%0*llx%s\n", d->name, d->width, (int)(d->width / 4),
	       (unsigned long long)(r ? r->reset : d->reset), d->msb0 ? ", the manual numbers bit 0 as the MSB" : "");
	if (d->nvariants) {
		printf("variants by %s:", d->fields[d->variant_field].name);
		for (i = 0; i < d->nvariants; i++)
			printf(" %s (= %llu: layout %s)", d->variants[i].name, (unsigned long long)d->variants[i].value,
			       t->layouts[d->variants[i].layout].name);
		printf("\n");
	}
	list_fields(d, 0);
	for (i = 0; i < d->nvariants; i++) {
		printf("variant %s (%s = %llu), layout %s, adds:\n", d->variants[i].name, d->fields[d->variant_field].name,
		       (unsigned long long)d->variants[i].value, t->layouts[d->variants[i].layout].name);
		list_fields(&t->layouts[d->variants[i].layout], d);
	}
}

/* ---- packet streams ---- */

struct walk_ctx {
	const unsigned char *buf;
	int json;
	unsigned long items, bad;
};

static const char *status_name(int status)
{
	switch (status) {
	case PMREGS_OK:
		return "ok";
	case PMREGS_ETRUNC:
		return "truncated";
	case PMREGS_ENOENT:
		return "unsynced";
	case PMREGS_ETOOLONG:
		return "too-long";
	case PMREGS_EINVAL:
		return "invalid";
	default:
		return "error";
	}
}

/* pmregs_strerror(), except for a stream walker's PMREGS_ENOENT: no packet boundary found yet. */
static const char *status_text(int status)
{
	return status == PMREGS_ENOENT ? "before the first packet boundary" : pmregs_strerror(status);
}

static void print_packet(const struct pmregs_packet_view *p)
{
	unsigned i;
	printf("%s", p->shape ? p->shape : "?");
	for (i = 0; i < p->nfields; i++) {
		const struct pmregs_packet_field *f = &p->fields[i];
		if (f->width <= 8)
			printf(" %s=%llu", f->name, (unsigned long long)f->value);
		else
			printf(" %s=0x%llx", f->name, (unsigned long long)f->value);
		if (f->meaning)
			printf("(%s)", f->meaning);
	}
}

static void json_packet(const struct pmregs_packet_view *p)
{
	unsigned i;
	printf("{\"packet\": ");
	json_str(stdout, p->packet);
	printf(", \"shape\": ");
	json_str(stdout, p->shape);
	printf(", \"fields\": [");
	for (i = 0; i < p->nfields; i++) {
		const struct pmregs_packet_field *f = &p->fields[i];
		printf("%s{\"name\": ", i ? ", " : "");
		json_str(stdout, f->name);
		printf(", \"value\": %llu, \"width\": %u, \"meaning\": ", (unsigned long long)f->value, f->width);
		json_str(stdout, f->meaning);
		printf("}");
	}
	printf("]}");
}

static int on_item(void *vctx, const struct pmregs_stream_event *ev)
{
	struct walk_ctx *c = (struct walk_ctx *)vctx;
	size_t i;
	if (ev->status < 0)
		c->bad++;
	if (c->json) {
		printf("%s\n    {\"offset\": %zu, \"size\": %zu, \"status\": \"%s\"", c->items ? "," : "", ev->offset, ev->size,
		       status_name(ev->status));
		if (ev->status >= 0) {
			printf(", \"frame\": ");
			json_packet(&ev->frame);
			printf(", \"payload\": ");
			if (ev->has_payload)
				json_packet(&ev->payload);
			else
				printf("null");
		}
		printf("}");
	} else {
		printf("%08zx ", ev->offset);
		for (i = 0; i < 12; i++) {
			if (i < ev->size && (i < 11 || ev->size == 12))
				printf(" %02x", c->buf[ev->offset + i]);
			else if (i == 11 && ev->size > 12)
				printf(" ..");
			else
				printf("   ");
		}
		if (ev->status < 0) {
			printf("  ** %s: %s; %zu byte%s skipped\n", status_name(ev->status), status_text(ev->status), ev->size,
			       ev->size == 1 ? "" : "s");
		} else {
			printf("  ");
			print_packet(&ev->frame);
			if (ev->has_payload) {
				printf(" | ");
				print_packet(&ev->payload);
			}
			printf("\n");
		}
	}
	c->items++;
	return 0;
}

/* ---- the framings that read a file's start ---- */

#define PROBE_BYTES 4096 /* the start of a file that each framing is tried on */

/* How a framing reads the start of a file: items, unreadable ones (a packet cut by the end of the
 * start, or bytes before the first boundary of an unsynced walk, do not count) and whether the first
 * item read. */
struct probe_ctx {
	unsigned long items, bad, bad_bytes;
	int first_bad;
};

static int probe_item(void *vctx, const struct pmregs_stream_event *ev)
{
	struct probe_ctx *c = (struct probe_ctx *)vctx;
	int bad = ev->status < 0 && ev->status != PMREGS_ETRUNC && ev->status != PMREGS_ENOENT;
	if (c->items == 0)
		c->first_bad = bad;
	c->items++;
	if (bad) {
		c->bad++;
		c->bad_bytes += ev->size;
	}
	return 0;
}

/* The framing st read the file (bad of its items unreadable): when it could not read the file's start
 * (its first item, or most of the first PROBE_BYTES bytes), try every other stream of the family on
 * that start and name those that read it with no unreadable item, as the --stream to give. */
static void suggest_streams(const struct pmregs_family_desc *fam, const struct pmregs_stream_desc *st,
			    const uint64_t *vals, size_t np, const unsigned char *buf, size_t len, int synced,
			    const char *path)
{
	size_t ns = 0, i, n = len < PROBE_BYTES ? len : PROBE_BYTES, hits = 0;
	const struct pmregs_stream_desc *s = fam->streams(&ns);
	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	if (n == 0 || st->walk(vals, np, buf, n, synced, probe_item, &c) != 0)
		return;
	if (!c.first_bad && c.bad_bytes * 2 <= n)
		return;
	fprintf(stderr, "%s: %s does not read as %s", prog, path, st->name);
	for (i = 0; i < ns; i++) {
		if (&s[i] == st)
			continue;
		memset(&c, 0, sizeof c);
		if (s[i].walk(vals, np, buf, n, synced, probe_item, &c) != 0 || c.items == 0 || c.bad)
			continue;
		fprintf(stderr, "%s%s", hits ? " and as " : "; its start reads as ", s[i].name);
		hits++;
	}
	if (hits == 0) {
		fprintf(stderr, ", nor does its start read as any other %s framing with these parameters\n", fam->name);
		return;
	}
	fprintf(stderr, ": try --stream");
	for (i = 0, hits = 0; i < ns; i++) {
		if (&s[i] == st)
			continue;
		memset(&c, 0, sizeof c);
		if (s[i].walk(vals, np, buf, n, synced, probe_item, &c) != 0 || c.items == 0 || c.bad)
			continue;
		fprintf(stderr, "%s %s", hits++ ? " or --stream" : "", s[i].name);
	}
	fprintf(stderr, "\n");
}

static int read_file(const char *path, unsigned char **out, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t cap = 1 << 16, got;
	unsigned char *buf;
	*len = 0;
	if (!f) {
		fprintf(stderr, "%s: cannot read ", prog);
		perror(path);
		return -1;
	}
	buf = (unsigned char *)malloc(cap);
	while (buf && (got = fread(buf + *len, 1, cap - *len, f)) > 0) {
		*len += got;
		if (*len == cap) {
			unsigned char *nb = (unsigned char *)realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = 0;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (buf && ferror(f)) {
		fprintf(stderr, "%s: cannot read ", prog);
		perror(path);
		free(buf);
		buf = 0;
	} else if (!buf) {
		fprintf(stderr, "%s: out of memory reading %s\n", prog, path);
	}
	if (f != stdin)
		fclose(f);
	*out = buf;
	return buf ? 0 : -1;
}

#define MAXP 64

/* Apply "name=value,name=value" to vals[] (the family's parameters, by index). */
static int apply_params(const struct pmregs_family_desc *fam, const char *list, uint64_t *vals, size_t np)
{
	size_t i;
	const struct pmregs_param_desc *d = fam->params ? fam->params(&np) : 0;
	while (*list) {
		const char *end = strchr(list, ','), *eq;
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char item[256], *num;
		uint64_t x;
		if (len == 0 || len >= sizeof item) {
			fprintf(stderr, "%s: --params wants NAME=VALUE pairs separated by commas\n", prog);
			return ST_USAGE;
		}
		memcpy(item, list, len);
		item[len] = '\0';
		list += len + (end ? 1 : 0);
		eq = strchr(item, '=');
		if (!eq) {
			fprintf(stderr, "%s: --params: '%s' is not NAME=VALUE\n", prog, item);
			return ST_USAGE;
		}
		num = item + (eq - item);
		*num++ = '\0';
		if (eq_nocase(item, "preset")) {
			/* a named parameter set: every parameter, before the NAME=VALUE pairs after it */
			size_t nps = 0, k;
			const struct pmregs_param_preset *ps = fam->presets ? fam->presets(&nps) : 0;
			for (k = 0; k < nps; k++)
				if (eq_nocase(ps[k].name, num))
					break;
			if (k == nps) {
				struct near_names nn;
				near_init(&nn, num);
				fprintf(stderr, "%s: %s has no parameter preset '%s' (presets:", prog, fam->name, num);
				for (k = 0; k < nps; k++) {
					fprintf(stderr, " %s", ps[k].name);
					near_add(&nn, ps[k].name);
				}
				fprintf(stderr, ")");
				near_print(stderr, &nn);
				fprintf(stderr, "\n");
				return ST_NAME;
			}
			for (i = 0; i < np && i < MAXP; i++)
				vals[i] = ps[k].values[i];
			continue;
		}
		for (i = 0; i < np; i++)
			if (eq_nocase(d[i].name, item))
				break;
		if (i == np || i >= MAXP) {
			struct near_names nn;
			near_init(&nn, item);
			for (i = 0; i < np; i++)
				near_add(&nn, d[i].name);
			fprintf(stderr, "%s: %s has no parameter '%s'", prog, fam->name, item);
			near_print(stderr, &nn);
			fprintf(stderr, " (try: %s --list %s)\n", prog, fam->name);
			return ST_NAME;
		}
		if (parse_u64(num, &x) != 0) {
			fprintf(stderr, "%s: --params: '%s' is not a value for %s\n", prog, num, d[i].name);
			return ST_VALUE;
		}
		if (x < d[i].min || x > d[i].max) {
			fprintf(stderr, "%s: %s=%llu is outside %llu..%llu\n", prog, d[i].name, (unsigned long long)x,
				(unsigned long long)d[i].min, (unsigned long long)d[i].max);
			return ST_VALUE;
		}
		vals[i] = x;
	}
	return ST_OK;
}

static int decode_stream(const struct pmregs_family_desc *fam, const char *stream, const char *const *params,
			 int nparams_opt, int synced, const char *path, int json)
{
	size_t ns = 0, np = 0, i;
	const struct pmregs_stream_desc *s = fam->streams ? fam->streams(&ns) : 0, *st = 0;
	const struct pmregs_param_desc *d = fam->params ? fam->params(&np) : 0;
	uint64_t vals[MAXP];
	unsigned char *buf = 0;
	size_t len = 0;
	struct walk_ctx c;
	int rc, k;
	if (ns == 0) {
		fprintf(stderr, "%s: %s has no packet streams; give a register or layout and a value\n", prog, fam->name);
		return ST_USAGE;
	}
	if (!stream) {
		st = &s[0];
	} else {
		size_t hits = 0, sl = strlen(stream);
		for (i = 0; i < ns; i++) {
			if (eq_nocase(s[i].name, stream)) {
				st = &s[i];
				hits = 1;
				break;
			}
			if (prefix_nocase(s[i].name, stream, sl)) {
				st = &s[i];
				hits++;
			}
		}
		if (hits != 1) {
			struct near_names nn;
			near_init(&nn, stream);
			fprintf(stderr, "%s: %s has %s stream '%s' (streams:", prog, fam->name, hits ? "more than one" : "no",
				stream);
			for (i = 0; i < ns; i++) {
				fprintf(stderr, " %s", s[i].name);
				near_add(&nn, s[i].name);
			}
			fprintf(stderr, ")");
			if (!hits)
				near_print(stderr, &nn);
			fprintf(stderr, "\n");
			return ST_NAME;
		}
	}
	np = np < MAXP ? np : MAXP;
	for (i = 0; i < np; i++)
		vals[i] = d[i].def;
	for (k = 0; k < nparams_opt; k++)
		if ((rc = apply_params(fam, params[k], vals, np)) != ST_OK)
			return rc;
	if (fam->params_check) {
		const char *why = "";
		rc = fam->params_check(vals, np, &why);
		if (rc != PMREGS_OK) {
			fprintf(stderr, "%s: the parameters are not a legal combination for %s: %s (%s)\n", prog, fam->name,
				why, pmregs_strerror(rc));
			return ST_VALUE;
		}
	}
	if (read_file(path, &buf, &len) != 0)
		return ST_IO;
	c.buf = buf;
	c.json = json;
	c.items = 0;
	c.bad = 0;
	if (json) {
		printf("{\n  \"family\": ");
		json_str(stdout, fam->name);
		printf(",\n  \"stream\": ");
		json_str(stdout, st->name);
		printf(",\n  \"params\": {");
		for (i = 0; i < np; i++) {
			printf("%s", i ? ", " : "");
			json_str(stdout, d[i].name);
			printf(": %llu", (unsigned long long)vals[i]);
		}
		printf("},\n  \"items\": [");
	}
	rc = st->walk(vals, np, buf, len, synced, on_item, &c);
	if (rc == 0 && c.bad)
		suggest_streams(fam, st, vals, np, buf, len, synced, path);
	free(buf);
	if (rc != 0) {
		if (json)
			printf("\n  ]\n}\n");
		fprintf(stderr, "%s: the parameters are not a legal combination for %s (see %s --list %s)\n", prog, st->name,
			prog, fam->name);
		return ST_VALUE;
	}
	if (json)
		printf("%s],\n  \"unreadable\": %lu\n}\n", c.items ? "\n  " : "", c.bad);
	else
		printf("%lu item%s, %lu unreadable\n", c.items, c.items == 1 ? "" : "s", c.bad);
	return c.bad ? ST_WARN : ST_OK;
}

/* ---- --sample: a record of register values ---- */

#define MAX_SAMPLE 64 /* registers in one record */

/* The record called name of fam, decoded from FILE (one argument that is not a number: the bytes of
 * the record, little-endian) or from its values given as arguments; the caps value first, if any. */
static int decode_sample(const struct pmregs_family_desc *fam, const char *name, const char *const *args, int nargs,
			 int json, int long_doc)
{
	size_t ns = 0, nregs, nl, i, n, nwords = 0;
	const struct pmregs_sample_desc *sd = fam->samples ? fam->samples(&ns) : 0, *s = 0;
	const struct pmregs_register_desc *regs = fam->registers(&nregs);
	uint64_t words[MAX_SAMPLE + 1], x;
	uint32_t caps = 0;
	int16_t order[MAX_SAMPLE];
	int has_caps, rc = ST_OK, k;
	char text[32];
	struct target t;
	for (i = 0; i < ns; i++)
		if (eq_nocase(sd[i].name, name))
			s = &sd[i];
	if (!s) {
		struct near_names nn;
		near_init(&nn, name);
		for (i = 0; i < ns; i++)
			near_add(&nn, sd[i].name);
		fprintf(stderr, "%s: %s has no sample '%s'", prog, fam->name, name);
		near_print(stderr, &nn);
		fprintf(stderr, " (try: %s --list %s)\n", prog, fam->name);
		return ST_NAME;
	}
	has_caps = s->caps >= 0;
	if (nargs == 0) {
		fprintf(stderr, "%s: give the sample as a file or as its values\n", prog);
		return ST_USAGE;
	}
	if (nargs == 1 && parse_u64(args[0], &x) < 0) {
		unsigned char *buf;
		size_t len, at = 0;
		if (read_file(args[0], &buf, &len) != 0)
			return ST_IO;
		if (has_caps) {
			if (len < 4) {
				free(buf);
				fprintf(stderr, "%s: %s: %zu bytes, too short for the 4-byte %s\n", prog, args[0], len,
					regs[s->caps].name);
				return ST_VALUE;
			}
			caps = (uint32_t)pmregs_load_le32(buf);
			at = 4;
		}
		if ((len - at) % 8 != 0 || (len - at) / 8 > MAX_SAMPLE) {
			free(buf);
			fprintf(stderr, "%s: %s: %zu bytes after the caps value are not whole 64-bit registers (at most %d)\n",
				prog, args[0], len - at, MAX_SAMPLE);
			return ST_VALUE;
		}
		for (; at < len; at += 8)
			words[nwords++] = pmregs_load_le64(buf + at);
		free(buf);
	} else {
		for (k = 0; k < nargs; k++) {
			int r = parse_u64(args[k], &x);
			if (r < 0) {
				fprintf(stderr, "%s: '%s' is not a value: %s\n", prog, args[k],
					r == -2 ? "it needs more than 64 bits" : "give decimal, 0x hexadecimal or 0b binary digits");
				return ST_VALUE;
			}
			if (k == 0 && has_caps) {
				if (x >> 32) {
					fprintf(stderr, "%s: %s does not fit the 32-bit %s\n", prog, args[k], regs[s->caps].name);
					return ST_VALUE;
				}
				caps = (uint32_t)x;
			} else if (nwords < MAX_SAMPLE) {
				words[nwords++] = x;
			} else {
				fprintf(stderr, "%s: more than %d registers\n", prog, MAX_SAMPLE);
				return ST_VALUE;
			}
		}
	}
	n = pmregs_sample_registers(s, caps, order, MAX_SAMPLE);
	if (nwords != n) {
		fprintf(stderr, "%s: sample %s with %s 0x%x holds %zu registers, not %zu\n", prog, s->name,
			has_caps ? regs[s->caps].name : "no caps", (unsigned)caps, n, nwords);
		return ST_VALUE;
	}
	t.fam = fam;
	t.layouts = fam->layouts(&nl);
	if (json)
		printf("[");
	else
		printf("%s sample %s: %s; %zu registers\n\n", fam->name, s->name, s->title, n);
	for (i = 0; i < n + (size_t)has_caps; i++) {
		int reg = has_caps ? (i == 0 ? s->caps : order[i - 1]) : order[i];
		int r;
		t.reg = &regs[reg];
		t.layout = regs[reg].layout >= 0 ? &t.layouts[regs[reg].layout] : 0;
		snprintf(text, sizeof text, "0x%llx",
			 (unsigned long long)(has_caps && i == 0 ? caps : words[i - (size_t)has_caps]));
		if (json && i)
			printf(",");
		else if (!json && i)
			printf("\n");
		r = decode_value(&t, text, json, 0, long_doc);
		rc = r > rc ? r : rc;
	}
	if (json)
		printf("]\n");
	return rc;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
	const char *pos[MAX_SAMPLE + 2], *svg = 0, *stream = 0, *sample = 0;
	const char *params[16];
	int npos = 0, nparams = 0, json = 0, list = 0, synced = 1, long_doc = 0, i;
	const struct pmregs_family_desc *fam;
	struct target t;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--list") == 0) {
			list = 1;
		} else if (strcmp(a, "--long") == 0) {
			long_doc = 1;
		} else if (strcmp(a, "--unsynced") == 0) {
			synced = 0;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return ST_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("%s %s\n", prog, PMREGS_VERSION_STRING);
			return ST_OK;
		} else if (strcmp(a, "--sample") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n", prog, a);
				return ST_USAGE;
			}
			sample = argv[++i];
		} else if (strcmp(a, "--svg") == 0 || strcmp(a, "--stream") == 0 || strcmp(a, "--params") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n", prog, a);
				return ST_USAGE;
			}
			if (a[2] == 's' && a[3] == 'v')
				svg = argv[++i];
			else if (a[2] == 's')
				stream = argv[++i];
			else if (nparams < (int)(sizeof params / sizeof params[0]))
				params[nparams++] = argv[++i];
			else {
				fprintf(stderr, "%s: too many --params\n", prog);
				return ST_USAGE;
			}
		} else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9')) {
			fprintf(stderr, "%s: unknown option %s\n", prog, a);
			usage(stderr);
			return ST_USAGE;
		} else if (npos < (int)(sizeof pos / sizeof pos[0])) {
			pos[npos++] = a;
		} else {
			fprintf(stderr, "%s: too many arguments\n", prog);
			usage(stderr);
			return ST_USAGE;
		}
	}
	if (npos > 3 && !sample) {
		fprintf(stderr, "%s: too many arguments\n", prog);
		usage(stderr);
		return ST_USAGE;
	}
	if (npos == 0 && !list) {
		if (json || svg || stream || nparams || !synced || sample) {
			usage(stderr);
			return ST_USAGE;
		}
		printf("pmregs-decode: registers and packet streams of every pmregs family\n\n");
		list_families(0);
		printf("\ntry: %s --help, %s --list FAMILY, %s FAMILY REGISTER VALUE\n", prog, prog, prog);
		return ST_OK;
	}
	if (list) {
		if (svg || stream || nparams || sample || npos > 2) {
			fprintf(stderr, "%s: --list takes at most a family and a register, layout or table\n", prog);
			return ST_USAGE;
		}
		if (npos == 0) {
			list_families(json);
			return ST_OK;
		}
		if (!(fam = find_family(pos[0])))
			return unknown_family(pos[0]);
		if (npos == 1) {
			list_family(fam, json);
			return ST_OK;
		}
		if (find_table(fam, pos[1])) {
			list_table(fam, find_table(fam, pos[1]), json, long_doc);
			return ST_OK;
		}
		if (strncmp(pos[1], "table:", 6) == 0) {
			size_t nt = 0, k;
			const struct pmregs_table_desc *tb = fam->tables ? fam->tables(&nt) : 0;
			struct near_names nn;
			near_init(&nn, pos[1] + 6);
			for (k = 0; k < nt; k++)
				near_add(&nn, tb[k].name);
			fprintf(stderr, "%s: %s has no table '%s'", prog, fam->name, pos[1] + 6);
			near_print(stderr, &nn);
			fprintf(stderr, " (try: %s --list %s)\n", prog, fam->name);
			return ST_NAME;
		}
		if ((i = find_target(fam, pos[1], &t)) != 0)
			return i;
		list_target(&t, json);
		return ST_OK;
	}
	if (!(fam = find_family(pos[0])))
		return unknown_family(pos[0]);
	if (sample) {
		if (svg || stream || nparams || !synced) {
			fprintf(stderr, "%s: --sample takes no --svg, --stream, --params or --unsynced\n", prog);
			return ST_USAGE;
		}
		return decode_sample(fam, sample, pos + 1, npos - 1, json, long_doc);
	}
	if (npos == 2) {
		if (svg) {
			fprintf(stderr, "%s: --svg draws a register value, not a stream\n", prog);
			return ST_USAGE;
		}
		return decode_stream(fam, stream, params, nparams, synced, pos[1], json);
	}
	if (npos != 3) {
		fprintf(stderr, "%s: give a register or layout and a value (or a stream file)\n", prog);
		usage(stderr);
		return ST_USAGE;
	}
	if (stream || nparams || !synced) {
		fprintf(stderr, "%s: --stream, --params and --unsynced are for streams\n", prog);
		return ST_USAGE;
	}
	if ((i = find_target(fam, pos[1], &t)) != 0)
		return i;
	return decode_value(&t, pos[2], json, svg, long_doc);
}
