/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs-decode: decode a register value or a packet stream of any pmregs
 * family, using nothing but the generated introspection tables of
 * <pmregs/tools.h> (pmregs_families(), the layouts, register and stream
 * descriptors). No family is named in this file, except by the E-Trace
 * commands that go beyond packets (etrace --encode).
 *
 * Run it without arguments for a list of families; --help explains the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The codecs' hot paths are left to the compiler's inlining (see <pmregs/base_inplace.h>): none of
 * this tool's paths gains from forcing it (callgrind, x86-64 gcc -O2: etrace --image --summary of a
 * million-instruction trace 78.6 M instructions forced, 78.1 M not; --encode of 200,000 blocks
 * 493.1 M and 492.3 M; printing 11,757 packets 181.0 M either way), and its build takes a sixth
 * less time.
 */
#ifndef PMREGS_NO_FORCE_INLINE
#define PMREGS_NO_FORCE_INLINE 1
#endif
#include <pmregs/tools.h>
#include <pmregs/catalogs.h>
#include <pmregs/etrace_decoder.h> /* --image */
#include <pmregs/etrace_encoder.h> /* --encode */
#include <pmregs/riscv.h>          /* --encode: instruction classes of a hart trace */

#include "stream_reader.h"

/* Exit statuses (also in the usage text). */
#define ST_OK       0 /* decoded; every reserved bit as required, every packet readable */
#define ST_WARN     1 /* decoded, but reserved bits are not as required or some bytes were unreadable */
#define ST_USAGE    2 /* bad command line */
#define ST_NAME     3 /* unknown family, register, layout, table, sample, stream or parameter */
#define ST_VALUE    4 /* a value that cannot be read, does not fit, or parameters that are not legal */
#define ST_IO       5 /* a file that cannot be read or written */
#define ST_IDLE     6 /* a stream with no packet that carries a payload in --max-idle bytes: stopped */

static const char *prog = "pmregs-decode";

/* At most 60 characters of a name from the command line, for a message (any length of it is legal). */
#define CLIP(s) 60, (s), strlen(s) > 60 ? "..." : ""

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--json | --long] [--svg FILE] FAMILY REGISTER|LAYOUT VALUE\n"
		"       %s [--json] [--stream NAME] [--params NAME=VALUE,...] [--unsynced] [--max-idle N] FAMILY FILE\n"
		"       %s [--stream smi_stream] [--params L] [--summary] --image ELF... etrace FILE\n"
		"       %s [--json | --long] --sample NAME FAMILY FILE|VALUE...\n"
		"       %s [--json | --long] --list [FAMILY [REGISTER|LAYOUT|TABLE]]\n"
		"       %s [--json | --long] --event NAME [--cpu MODEL|auto]\n"
		"       %s [--json | --long] --list FAMILY CATALOG --cpu MODEL [PATTERN]\n"
		"       %s etrace --encode [--params L|@FILE]... [--image ELF] [--stream NAME] TRACE -o OUT\n"
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
		"FILE is read as it comes, in bounded memory, whatever its length; a run of\n"
		"identical packets without payload (fill bytes) is printed once, with its count.\n"
		"When the start of FILE does not read as the stream, the streams it does read as\n"
		"are named.\n"
		"\n"
		"With --sample, decode a record of register values in the order the family's\n"
		"sample NAME gives (e.g. amd ibs_op, a perf raw IBS sample): from FILE, its bytes\n"
		"(little-endian: a 32-bit capabilities value first where the sample has one, then\n"
		"64-bit registers), or from the VALUEs, capabilities first; the capabilities say\n"
		"which optional registers follow.\n"
		"\n"
		"With --image, reconstruct the E-Trace instruction trace in FILE (SMI messages)\n"
		"from the program in the ELF files (the executable segments of little-endian\n"
		"RISC-V ELF32 or ELF64 files; BIN@ADDRESS loads a file's raw bytes at ADDRESS):\n"
		"one line per retired instruction (0x ADDRESS, then its kind), one per trap\n"
		"(trap ...), per context packet (context ...) and per inconsistency (error packet\n"
		"N: reason). The decoder's run-time options before the first support packet are\n"
		"opt_implicit_return, opt_implicit_exception, opt_full_address,\n"
		"opt_jump_target_cache, opt_branch_prediction and opt_sijump (=0 or 1, in\n"
		"--params; opt_sijump defaults to sijump_p), and ioptions_layout (0 reference,\n"
		"1 PULP, 2 none: the configured options stay) how support packets carry them.\n"
		"\n"
		"With --encode, run the E-Trace instruction trace encoder on TRACE, a hart trace\n"
		"(the E-Trace reference flow's CSV VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,\n"
		"TVAL,INTERRUPT in hexadecimal, or its encoder input itype_0,...), and write the\n"
		"packets to OUT as the stream NAME (smi_stream, encap_stream or atb_stream). Besides\n"
		"the parameters, --params takes the encoder's options opt_full_address,\n"
		"opt_implicit_return, opt_sijump, opt_implicit_exception, opt_jump_target_cache,\n"
		"opt_branch_prediction (0 or 1), itype_width_p, resync_max, resync_unit (0 packets,\n"
		"1 half-words, 2 cycles), ioptions_layout (0 reference, 1 PULP) and blocks\n"
		"(instructions per ingress block), and @FILE reads NAME=VALUE lines; --image ELF\n"
		"gives the XLEN.\n"
		"\n",
		prog, prog, prog, prog, prog, prog, prog, prog, prog);
	fprintf(f,
		"  --list        list families; with FAMILY its registers, layouts, tables, streams\n"
		"                and parameters; with a register or layout too, its fields; with a\n"
		"                table (e.g. an event table; table:NAME if a register has the name),\n"
		"                its rows: name, every column, title (--long: and description)\n"
		"  --event NAME  an event of a processor model's catalogue: its register value, extra\n"
		"                MSR, counters, perf event string and perf_event_attr fields. NAME is\n"
		"                the vendor's or Linux's name (INST_RETIRED.ANY_P, ex_ret_instr) or\n"
		"                libpfm4's (RETIRED_INSTRUCTIONS), any case, with modifiers as libpfm4\n"
		"                writes them (INST_RETIRED:ANY_P:u:c=2), or perf's cpu/event=0xc0,.../u\n"
		"                or raw r01c0\n"
		"  --cpu MODEL   the model: auto (this processor, the default), a CPUID signature as\n"
		"                in the vendors' maps (GenuineIntel-6-8F, AuthenticAMD-25-61) or a\n"
		"                table name (spr, icl, adl, adl_atom, zen1 ... zen5; any case); with\n"
		"                --list FAMILY CATALOG (x86 events) it lists the model's events, and\n"
		"                with a FAMILY REGISTER VALUE decode it names the event of the value\n"
		"  --json        print JSON instead of text\n"
		"  --long        print each field's description under its line\n"
		"  --svg FILE    also write a bit diagram of the decoded value to FILE (SVG)\n"
		"  --stream NAME the stream to decode (default: the family's first)\n"
		"  --sample NAME the record of register values to decode (see --list FAMILY)\n"
		"  --params L    parameters as NAME=VALUE pairs separated by commas, or @FILE:\n"
		"                NAME=VALUE lines, '#' comments (repeatable)\n"
		"  --unsynced    do not assume that FILE starts at a packet boundary\n"
		"  --image ELF   the program the trace ran (repeatable)\n"
		"  --summary     with --image: one line of counts and the reconstruction rate\n"
		"                (M instr/s, processor time of decoding and reconstruction)\n"
		"  -o OUT        where --encode writes the stream\n"
		"  --max-idle N  stop after N bytes without a packet that carries a payload\n"
		"                (default 16777216, 16 MiB; 0: never)\n"
		"  --help        print this text\n"
		"  --version     print the pmregs version\n"
		"\n"
		"Exit status: 0 decoded; 1 decoded, but a reserved field is not as required or\n"
		"some stream bytes could not be read; 2 bad command line; 3 unknown family,\n"
		"register, layout, table, sample, stream or parameter name; 4 a value that cannot be read or does\n"
		"not fit, or parameters that are out of range or not a legal combination; 5 a\n"
		"file that cannot be read or written; 6 no packet with a payload in --max-idle\n"
		"bytes of a stream (e.g. /dev/zero): stopped there.\n");
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
	fprintf(stderr, "%s: unknown family '%.*s%s' (families:", prog, CLIP(name));
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
		fprintf(stderr, "%s: %s has no register, layout or table '%.*s%s'", prog, fam->name, CLIP(name));
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

#define MAXHOLD 32 /* fields of a packet that a run of identical packets can hold */

struct walk_ctx {
	int json;
	unsigned long items, bad;
	uint64_t idle, max_idle; /* bytes since the last packet with a payload; the limit (0: none) */
	uint64_t end;            /* stream offset just past the last item */
	/* a run of identical packets without payload (fill bytes, idle packets): its first one, held */
	int held;
	unsigned long repeat;
	struct pmregs_stream_event h;
	struct pmregs_packet_field hf[MAXHOLD];
	unsigned char hhead[SR_HEAD];
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

static void print_item(struct walk_ctx *c, const struct pmregs_stream_event *ev, const unsigned char *head,
		       unsigned long repeat)
{
	size_t i;
	if (c->json) {
		printf("%s\n    {\"offset\": %zu, \"size\": %zu, \"status\": \"%s\"", c->items ? "," : "", ev->offset, ev->size,
		       status_name(ev->status));
		if (repeat > 1)
			printf(", \"repeat\": %lu", repeat);
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
				printf(" %02x", head[i]);
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
			if (repeat > 1)
				printf("  (%lu times, %llu bytes)", repeat, (unsigned long long)ev->size * repeat);
			printf("\n");
		}
	}
	c->items += repeat;
}

/* Print the held run of identical packets, if any. */
static void flush_held(struct walk_ctx *c)
{
	if (c->held) {
		print_item(c, &c->h, c->hhead, c->repeat);
		c->held = 0;
	}
}

/* ev repeats the held packet: the same frame and field values, no payload, right after the run. */
static int repeats_held(const struct walk_ctx *c, const struct pmregs_stream_event *ev)
{
	unsigned i;
	if (!c->held || ev->status != PMREGS_OK || ev->has_payload || ev->size != c->h.size ||
	    ev->frame.shape != c->h.frame.shape || ev->frame.nfields != c->h.frame.nfields ||
	    ev->offset != c->h.offset + c->h.size * c->repeat)
		return 0;
	for (i = 0; i < ev->frame.nfields; i++)
		if (ev->frame.fields[i].value != c->hf[i].value || ev->frame.fields[i].name != c->hf[i].name)
			return 0;
	return 1;
}

/* Each item of a stream walk (stream_reader.h): printed, runs of identical packets without payload once. */
static int on_item(void *vctx, const struct pmregs_stream_event *ev, const unsigned char *head)
{
	struct walk_ctx *c = (struct walk_ctx *)vctx;
	unsigned i;
	if (ev->status < 0)
		c->bad++;
	c->idle = ev->has_payload ? 0 : c->idle + ev->size;
	c->end = (uint64_t)ev->offset + ev->size;
	if (repeats_held(c, ev)) {
		c->repeat++;
	} else {
		flush_held(c);
		if (ev->status == PMREGS_OK && !ev->has_payload && ev->frame.nfields <= MAXHOLD) {
			c->held = 1;
			c->repeat = 1;
			c->h = *ev;
			for (i = 0; i < ev->frame.nfields; i++)
				c->hf[i] = ev->frame.fields[i];
			c->h.frame.fields = c->hf;
			memcpy(c->hhead, head, ev->size < SR_HEAD ? ev->size : SR_HEAD);
		} else {
			print_item(c, ev, head, 1);
		}
	}
	if (c->max_idle && c->idle >= c->max_idle) {
		flush_held(c);
		return ST_IDLE;
	}
	return 0;
}

/* FILE ("-": standard input) opened for reading, or a null pointer after saying why. */
static FILE *open_input(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot read ", prog);
		perror(path);
	}
	return f;
}

static void close_input(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

/*
 * At most cap bytes of path into buf: *len of them, *more = 1 when the input goes on past them (one more
 * byte is read to tell). Returns 0, or -1 after saying why it cannot be read.
 */
static int read_at_most(const char *path, unsigned char *buf, size_t cap, size_t *len, int *more)
{
	FILE *f = open_input(path);
	unsigned char extra;
	int bad;
	*len = 0;
	*more = 0;
	if (!f)
		return -1;
	*len = fread(buf, 1, cap, f);
	if (*len == cap && !ferror(f))
		*more = fread(&extra, 1, 1, f) == 1;
	bad = ferror(f);
	if (bad) {
		fprintf(stderr, "%s: cannot read ", prog);
		perror(path);
	}
	close_input(f);
	return bad ? -1 : 0;
}

#define MAXP 64

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

/* A whole file (or standard input) in memory: parameter files, program images and hart traces. */
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

static int params_file(const char *path, char **out);

/* Apply one NAME=VALUE (or preset=NAME) to vals[] (the family's parameters, by index). */
static int apply_param(const struct pmregs_family_desc *fam, char *item, uint64_t *vals, size_t np)
{
	size_t i;
	const struct pmregs_param_desc *d = fam->params ? fam->params(&np) : 0;
	char *num = strchr(item, '=');
	uint64_t x;
	if (!num) {
		fprintf(stderr, "%s: --params: '%.*s%s' is not NAME=VALUE\n", prog, CLIP(item));
		return ST_USAGE;
	}
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
			fprintf(stderr, "%s: %s has no parameter preset '%.*s%s' (presets:", prog, fam->name, CLIP(num));
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
		return ST_OK;
	}
	for (i = 0; i < np; i++)
		if (eq_nocase(d[i].name, item))
			break;
	if (i == np || i >= MAXP) {
		struct near_names nn;
		near_init(&nn, item);
		for (i = 0; i < np; i++)
			near_add(&nn, d[i].name);
		fprintf(stderr, "%s: %s has no parameter '%.*s%s'", prog, fam->name, CLIP(item));
		near_print(stderr, &nn);
		fprintf(stderr, " (try: %s --list %s)\n", prog, fam->name);
		return ST_NAME;
	}
	if (parse_u64(num, &x) != 0) {
		fprintf(stderr, "%s: --params: '%.*s%s' is not a value for %s\n", prog, CLIP(num), d[i].name);
		return ST_VALUE;
	}
	if (x < d[i].min || x > d[i].max) {
		fprintf(stderr, "%s: %s=%llu is outside %llu..%llu\n", prog, d[i].name, (unsigned long long)x,
			(unsigned long long)d[i].min, (unsigned long long)d[i].max);
		return ST_VALUE;
	}
	vals[i] = x;
	return ST_OK;
}

/* Apply "name=value,name=value" (or @FILE: NAME=VALUE lines) to vals[] (the family's parameters, by index);
 * names of any length. */
static int apply_params(const struct pmregs_family_desc *fam, const char *list, uint64_t *vals, size_t np)
{
	if (*list == '@') {
		char *text;
		int rc = params_file(list + 1, &text);
		if (rc != ST_OK)
			return rc;
		rc = *text ? apply_params(fam, text, vals, np) : ST_OK;
		free(text);
		return rc;
	}
	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char *item;
		int rc;
		if (len == 0) {
			fprintf(stderr, "%s: --params wants NAME=VALUE pairs separated by commas\n", prog);
			return ST_USAGE;
		}
		item = (char *)malloc(len + 1);
		if (!item) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return ST_USAGE;
		}
		memcpy(item, list, len);
		item[len] = '\0';
		list += len + (end ? 1 : 0);
		rc = apply_param(fam, item, vals, np);
		free(item);
		if (rc != ST_OK)
			return rc;
	}
	return ST_OK;
}

/* The window a stream is read through (stream_reader.h), and the bytes kept across a refill when a
 * skipped stretch fills it: more than any frame (4096 bytes) and any zero run a stream resynchronises on
 * (1024), which the generator bounds. */
#define WINDOW (256u << 10)
#define MAX_IDLE ((uint64_t)16 << 20) /* --max-idle by default: 16 MiB without a payload stops a stream */
#define KEEP   (8u << 10)

static int decode_stream(const struct pmregs_family_desc *fam, const char *stream, const char *const *params,
			 int nparams_opt, int synced, const char *path, int json, uint64_t max_idle)
{
	static unsigned char window[WINDOW];
	size_t ns = 0, np = 0, i;
	const struct pmregs_stream_desc *s = fam->streams ? fam->streams(&ns) : 0, *st = 0;
	const struct pmregs_param_desc *d = fam->params ? fam->params(&np) : 0;
	uint64_t vals[MAXP];
	struct sr_file in;
	struct sr_reader r;
	struct sr_walk w;
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
			fprintf(stderr, "%s: %s has %s stream '%.*s%s' (streams:", prog, fam->name, hits ? "more than one" : "no",
				CLIP(stream));
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
	in.f = open_input(path);
	in.error = 0;
	if (!in.f)
		return ST_IO;
	memset(&c, 0, sizeof c);
	c.json = json;
	c.max_idle = max_idle;
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
	/* read in windows, whatever the input's length: /dev/zero and an endless pipe are walked like a file */
	sr_init(&r, sr_file_read, &in, window, sizeof window);
	memset(&w, 0, sizeof w);
	w.st = st;
	w.params = vals;
	w.nparams = np;
	w.r = &r;
	w.synced = synced;
	w.fn = on_item;
	w.ctx = &c;
	w.keep = KEEP;
	w.max_skip = max_idle;
	rc = sr_walk_stream(&w);
	flush_held(&c);
	close_input(in.f);
	if (rc == 0 && c.bad && strcmp(path, "-") != 0) {
		/* the file's start again, for the framings that read it (standard input cannot be read twice) */
		static unsigned char start[PROBE_BYTES];
		size_t n;
		int more;
		if (read_at_most(path, start, sizeof start, &n, &more) == 0)
			suggest_streams(fam, st, vals, np, start, n, synced, path);
	}
	if (rc != 0 && rc != ST_IDLE) {
		if (json)
			printf("\n  ]\n}\n");
		fprintf(stderr, "%s: the parameters are not a legal combination for %s (see %s --list %s)\n", prog, st->name,
			prog, fam->name);
		return ST_VALUE;
	}
	if (json) {
		printf("%s],\n  \"unreadable\": %lu", c.items ? "\n  " : "", c.bad);
		if (rc == ST_IDLE)
			printf(",\n  \"stopped\": \"no packet with a payload in %llu bytes\"", (unsigned long long)max_idle);
		printf("\n}\n");
	} else {
		printf("%lu item%s, %lu unreadable\n", c.items, c.items == 1 ? "" : "s", c.bad);
	}
	if (in.error) {
		fprintf(stderr, "%s: cannot read %s: a read failed after %llu bytes\n", prog, path,
			(unsigned long long)(r.base + r.len));
		return ST_IO;
	}
	if (rc == ST_IDLE) {
		fprintf(stderr, "%s: no packet with a payload in %llu bytes (up to offset 0x%llx): stopped (--max-idle)\n",
			prog, (unsigned long long)max_idle, (unsigned long long)c.end);
		return ST_IDLE;
	}
	return c.bad ? ST_WARN : ST_OK;
}

/* ---- --params @FILE ---- */

/*
 * The name=value lines of a parameter file as one "name=value,..." list in *out (malloc'd):
 * blank lines and '#' comments are skipped, spaces around names and values ignored.
 */
static int params_file(const char *path, char **out)
{
	unsigned char *buf;
	size_t len, i, o = 0, line = 1;
	char *t;
	if (read_file(path, &buf, &len) != 0)
		return ST_IO;
	t = (char *)malloc(len + 1);
	if (!t) {
		free(buf);
		fprintf(stderr, "%s: out of memory reading %s\n", prog, path);
		return ST_IO;
	}
	for (i = 0; i < len; line++) {
		size_t b = i, e, k;
		int eq = 0;
		while (i < len && buf[i] != '\n')
			i++;
		e = i++;
		for (k = b; k < e; k++)
			if (buf[k] == '#')
				e = k;
		while (b < e && (buf[b] == ' ' || buf[b] == '\t' || buf[b] == '\r'))
			b++;
		while (e > b && (buf[e - 1] == ' ' || buf[e - 1] == '\t' || buf[e - 1] == '\r'))
			e--;
		if (b == e)
			continue;
		if (o)
			t[o++] = ',';
		for (k = b; k < e; k++) {
			if (buf[k] == ',' || buf[k] == '@') {
				fprintf(stderr, "%s: %s:%zu: one name=value per line\n", prog, path, line);
				free(buf);
				free(t);
				return ST_USAGE;
			}
			if (buf[k] == '=')
				eq = 1;
			if ((buf[k] == ' ' || buf[k] == '\t') && !eq)
				continue; /* "name = value" */
			if ((buf[k] == ' ' || buf[k] == '\t') && eq && t[o - 1] == '=')
				continue;
			t[o++] = (char)buf[k];
		}
		if (!eq) {
			fprintf(stderr, "%s: %s:%zu: not a NAME=VALUE line\n", prog, path, line);
			free(buf);
			free(t);
			return ST_USAGE;
		}
	}
	t[o] = '\0';
	free(buf);
	*out = t;
	return ST_OK;
}

/* ---- etrace --image: reconstruct the retired instructions ---- */

/* The E-Trace run-time options pmregs-decode takes in --params (opt_NAME=0|1), and the ioptions layout. */
static const struct {
	const char *name;
	uint32_t bit;
} etrace_opts[] = {
	{"opt_implicit_return", PMREGS_ETRACE_OPT_IMPLICIT_RETURN},
	{"opt_implicit_exception", PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION},
	{"opt_full_address", PMREGS_ETRACE_OPT_FULL_ADDRESS},
	{"opt_jump_target_cache", PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE},
	{"opt_branch_prediction", PMREGS_ETRACE_OPT_BRANCH_PREDICTION},
	{"opt_sijump", PMREGS_ETRACE_OPT_SIJUMP},
};

/*
 * Take the opt_NAME=0|1 and ioptions_layout=0|1|2 items out of the --params lists (each
 * expanded from @FILE first) into *options and *layout; the other items go to rest[] (malloc'd
 * strings, *nrest of them) for apply_params(). On an error rest[] is freed and *nrest is 0.
 */
static int etrace_take_opts(const char *const *params, int nparams, char **rest, int *nrest, uint32_t *options, uint32_t *given,
			    unsigned *layout)
{
	int k, rc;
	*nrest = 0;
	for (k = 0; k < nparams; k++) {
		char *list, *item, *o, *next;
		if (params[k][0] == '@') {
			if ((rc = params_file(params[k] + 1, &list)) != ST_OK)
				goto fail;
		} else {
			list = (char *)malloc(strlen(params[k]) + 1);
			rc = ST_IO;
			if (!list)
				goto fail;
			strcpy(list, params[k]);
		}
		o = list;
		for (item = list; item && *item; item = next) {
			char *eq, *end = strchr(item, ',');
			size_t i, len;
			next = end ? end + 1 : 0;
			if (end)
				*end = '\0';
			eq = strchr(item, '=');
			len = eq ? (size_t)(eq - item) : strlen(item);
			for (i = 0; i < sizeof etrace_opts / sizeof etrace_opts[0]; i++)
				if (strlen(etrace_opts[i].name) == len && strncmp(item, etrace_opts[i].name, len) == 0)
					break;
			if (i < sizeof etrace_opts / sizeof etrace_opts[0]) {
				uint64_t x;
				if (!eq || parse_u64(eq + 1, &x) != 0 || x > 1) {
					fprintf(stderr, "%s: --params: %s wants 0 or 1\n", prog, etrace_opts[i].name);
					free(list);
					rc = ST_VALUE;
					goto fail;
				}
				*options = x ? (*options | etrace_opts[i].bit) : (*options & ~etrace_opts[i].bit);
				*given |= etrace_opts[i].bit;
				continue;
			}
			if (len == 15 && strncmp(item, "ioptions_layout", 15) == 0) {
				const char *v = eq ? eq + 1 : "";
				/* the numbers of --encode's ioptions_layout, or the names */
				if (eq_nocase(v, "0") || eq_nocase(v, "ref"))
					*layout = PMREGS_ETRACE_IOPTIONS_REF;
				else if (eq_nocase(v, "1") || eq_nocase(v, "pulp"))
					*layout = PMREGS_ETRACE_IOPTIONS_PULP;
				else if (eq_nocase(v, "2") || eq_nocase(v, "none"))
					*layout = PMREGS_ETRACE_IOPTIONS_NONE;
				else {
					fprintf(stderr, "%s: --params: ioptions_layout is 0 (reference), 1 (PULP) or 2 (none)\n", prog);
					free(list);
					rc = ST_VALUE;
					goto fail;
				}
				continue;
			}
			if (o != list)
				*o++ = ',';
			memmove(o, item, strlen(item) + 1);
			o += strlen(o);
		}
		*o = '\0';
		if (*list)
			rest[(*nrest)++] = list;
		else
			free(list);
	}
	return ST_OK;
fail:
	/* the lists taken before this one */
	while (*nrest > 0)
		free(rest[--*nrest]);
	return rc;
}

static const char *riscv_kind_name(unsigned k)
{
	static const char *const names[] = {"", "branch", "jal", "jalr", "auipc", "lui", "ecall", "ebreak", "xret"};
	return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* --summary's consumer: the decoder counts the items, nothing else needs them */
static void skip_item(void *ctx, const struct pmregs_etrace_item *it)
{
	(void)ctx;
	(void)it;
}

/* Print items: one line per instruction ("0x..."), trap ("trap ..."), context or error. */
static void print_items(FILE *o, const struct pmregs_etrace_item *it, size_t n, unsigned xlen)
{
	size_t i;
	int w = xlen == 32 ? 8 : 16;
	for (i = 0; i < n; i++) {
		const struct pmregs_etrace_item *x = &it[i];
		switch (x->type) {
		case PMREGS_ETRACE_ITEM_INSN:
			if (x->kind)
				fprintf(o, "0x%0*llx %s\n", w, (unsigned long long)x->address, riscv_kind_name(x->kind));
			else
				fprintf(o, "0x%0*llx\n", w, (unsigned long long)x->address);
			break;
		case PMREGS_ETRACE_ITEM_TRAP:
			fprintf(o, "trap %s ecause=%lu", (x->length & PMREGS_ETRACE_TRAP_INTERRUPT) ? "interrupt" : "exception",
				(unsigned long)x->info);
			if (!(x->length & PMREGS_ETRACE_TRAP_INTERRUPT))
				fprintf(o, " tval=0x%llx", (unsigned long long)x->value);
			if (x->length & PMREGS_ETRACE_TRAP_EPC)
				fprintf(o, " epc=0x%llx", (unsigned long long)x->address);
			fprintf(o, " thaddr=%d privilege=%u\n", (x->length & PMREGS_ETRACE_TRAP_THADDR) ? 1 : 0, x->privilege);
			break;
		case PMREGS_ETRACE_ITEM_CONTEXT:
			fprintf(o, "context 0x%llx privilege=%u time=0x%llx\n", (unsigned long long)x->address, x->privilege,
				(unsigned long long)x->value);
			break;
		default:
			fprintf(o, "error packet %llu: %s (%s) at 0x%llx\n", (unsigned long long)x->value,
				pmregs_etrace_decoder_reason_name(x->info), pmregs_etrace_decoder_reason_text(x->info),
				(unsigned long long)x->address);
			break;
		}
	}
}

#include <time.h>

/* Processor time in seconds (what the --summary rate counts). */
static double now_seconds(void)
{
	return (double)clock() / (double)CLOCKS_PER_SEC;
}

/* Largest return stack, jump target cache or predictor pmregs-decode allocates (entries). */
#define ETRACE_MAX_TABLE ((uint64_t)1 << 24)

/*
 * pmregs-decode etrace --image ELF [--stream smi_stream] [--params ...] [--summary] FILE:
 * reconstruct the retired instructions of the trace in FILE from the program in ELF.
 */
static int decode_image(const struct pmregs_family_desc *fam, const char *stream, const char *const *params, int nparams,
			int synced, const char *const *images, int nimages, const char *path, int summary)
{
	size_t np = 0, i;
	const struct pmregs_param_desc *d = fam->params ? fam->params(&np) : 0;
	uint64_t vals[MAXP];
	char *rest[16];
	int nrest = 0, k, rc = ST_OK, n;
	uint32_t options = 0, given = 0;
	unsigned layout = PMREGS_ETRACE_IOPTIONS_REF, xlen = 0;
	unsigned char *files[8], *buf = 0;
	size_t len = 0;
	int nfiles = 0;
	struct pmregs_etrace_params p;
	struct pmregs_etrace_image_range ranges[64];
	struct pmregs_etrace_image img;
	struct pmregs_etrace_decoder_config cfg;
	struct pmregs_etrace_decoder dec;
	struct pmregs_etrace_smi_feed feed;
	struct pmregs_etrace_item *items = 0;
	uint64_t *stack = 0, *jcache = 0;
	uint8_t *bpred = 0;
	const size_t cap = 4096;
	double t0, spent = 0;
	static char obuf[1 << 16];

	if (!pmregs_streq(fam->name, "etrace")) {
		fprintf(stderr, "%s: --image reconstructs E-Trace instruction traces (family etrace)\n", prog);
		return ST_USAGE;
	}
	if (stream && !eq_nocase(stream, "smi_stream")) {
		fprintf(stderr, "%s: --image reads --stream smi_stream\n", prog);
		return ST_USAGE;
	}
	if ((rc = etrace_take_opts(params, nparams, rest, &nrest, &options, &given, &layout)) != ST_OK)
		return rc;
	np = np < MAXP ? np : MAXP;
	for (i = 0; i < np; i++)
		vals[i] = d[i].def;
	for (k = 0; k < nrest && rc == ST_OK; k++)
		rc = apply_params(fam, rest[k], vals, np);
	for (k = 0; k < nrest; k++)
		free(rest[k]);
	if (rc != ST_OK)
		return rc;
	if (fam->params_check) {
		const char *why = "";
		int r = fam->params_check(vals, np, &why);
		if (r != PMREGS_OK) {
			fprintf(stderr, "%s: the parameters are not a legal combination for %s: %s (%s)\n", prog, fam->name, why,
				pmregs_strerror(r));
			return ST_VALUE;
		}
	}
	pmregs_etrace_params_default(&p);
	for (i = 0; i < np; i++)
		(void)pmregs_etrace_param_set(&p, i, vals[i]);
	/* the reference ioptions layout has no sijump bit: the mode is on when the encoder has it (sijump_p) */
	if (!(given & PMREGS_ETRACE_OPT_SIJUMP) && p.sijump_p)
		options |= PMREGS_ETRACE_OPT_SIJUMP;
	n = 0;
	for (k = 0; k < nimages; k++) {
		/* FILE@ADDRESS: raw bytes at ADDRESS; else an ELF file */
		const char *at = strrchr(images[k], '@');
		char name[4096];
		uint64_t base = 0;
		size_t flen, j;
		int m;
		unsigned x = 0;
		if (at && parse_u64(at + 1, &base) == 0) {
			snprintf(name, sizeof name, "%.*s", (int)(at - images[k]), images[k]);
		} else {
			at = 0;
			snprintf(name, sizeof name, "%s", images[k]);
		}
		if (read_file(name, &files[nfiles], &flen) != 0) {
			rc = ST_IO;
			goto out;
		}
		nfiles++;
		if (at) {
			if (n == (int)(sizeof ranges / sizeof ranges[0]) || flen == 0) {
				fprintf(stderr, "%s: %s: %s\n", prog, name, flen ? "too many image ranges" : "empty file");
				rc = ST_VALUE;
				goto out;
			}
			ranges[n].base = base;
			ranges[n].bytes = files[nfiles - 1];
			ranges[n].len = flen;
			ranges[n].cache = 0;
			n++;
			continue;
		}
		m = pmregs_etrace_elf_ranges(files[nfiles - 1], flen, ranges + n, sizeof ranges / sizeof ranges[0] - (size_t)n, &x);
		if (m < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, name, pmregs_etrace_elf_strerror(-m));
			rc = ST_VALUE;
			goto out;
		}
		if (xlen && x != xlen) {
			fprintf(stderr, "%s: %s: a %u-bit ELF file after a %u-bit one\n", prog, name, x, xlen);
			rc = ST_VALUE;
			goto out;
		}
		xlen = x;
		for (j = 0; j < (size_t)m; j++)
			ranges[n + (int)j].cache = 0;
		n += m;
	}
	if (!xlen)
		xlen = 64;
	/* sorted by address, not overlapping */
	for (k = 1; k < n; k++) {
		struct pmregs_etrace_image_range t = ranges[k];
		int j = k;
		for (; j > 0 && ranges[j - 1].base > t.base; j--)
			ranges[j] = ranges[j - 1];
		ranges[j] = t;
	}
	for (k = 1; k < n; k++) {
		if (ranges[k - 1].base + ranges[k - 1].len > ranges[k].base) {
			fprintf(stderr, "%s: image ranges at 0x%llx and 0x%llx overlap\n", prog, (unsigned long long)ranges[k - 1].base,
				(unsigned long long)ranges[k].base);
			rc = ST_VALUE;
			goto out;
		}
	}
	for (k = 0; k < n; k++) {
		ranges[k].cache = (struct pmregs_etrace_dinsn *)calloc((size_t)((ranges[k].len + 1) / 2), sizeof(struct pmregs_etrace_dinsn));
		if (!ranges[k].cache) {
			fprintf(stderr, "%s: out of memory for the image\n", prog);
			rc = ST_IO;
			goto out;
		}
	}
	if (pmregs_etrace_decoder_stack_entries(&p) > ETRACE_MAX_TABLE || pmregs_etrace_decoder_cache_entries(&p) > ETRACE_MAX_TABLE ||
	    pmregs_etrace_decoder_bpred_entries(&p) > ETRACE_MAX_TABLE) {
		fprintf(stderr, "%s: return_stack_size_p, call_counter_size_p, cache_size_p and bpred_size_p above 24 are not supported\n",
			prog);
		rc = ST_VALUE;
		goto out;
	}
	stack = (uint64_t *)malloc((size_t)pmregs_etrace_decoder_stack_entries(&p) * sizeof *stack);
	jcache = (uint64_t *)malloc((size_t)pmregs_etrace_decoder_cache_entries(&p) * sizeof *jcache);
	bpred = (uint8_t *)malloc((size_t)pmregs_etrace_decoder_bpred_entries(&p));
	items = (struct pmregs_etrace_item *)malloc(cap * sizeof *items);
	if (!stack || !jcache || !bpred || !items) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = ST_IO;
		goto out;
	}
	if (read_file(path, &buf, &len) != 0) {
		rc = ST_IO;
		goto out;
	}
	img.ranges = ranges;
	img.nranges = (size_t)n;
	img.xlen = xlen;
	img.read = 0;
	img.ctx = 0;
	memset(&cfg, 0, sizeof cfg);
	cfg.params = &feed.p;
	cfg.image = &img;
	cfg.return_stack = stack;
	cfg.jump_cache = jcache;
	cfg.bpred = bpred;
	cfg.ioptions_layout = layout;
	cfg.options = options;
	pmregs_etrace_smi_feed_init(&feed, &p, buf, len, synced);
	(void)pmregs_etrace_decoder_init(&dec, &cfg);
	if (summary) {
		/* the counts only: the consumer form, whose items nothing needs */
		t0 = now_seconds();
		(void)pmregs_etrace_decode_smi_each(&dec, &feed, skip_item, 0);
		spent = now_seconds() - t0;
	} else {
		setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
		for (;;) {
			size_t got = 0;
			int r = pmregs_etrace_decode_smi(&dec, &feed, items, cap, &got);
			print_items(stdout, items, got, xlen);
			if (r != PMREGS_ENOSPC)
				break;
		}
	}
	if (summary)
		printf("%llu instructions, %llu traps, %llu packets, %llu errors, %llu unreadable, %.1f M instr/s\n",
		       (unsigned long long)dec.insns, (unsigned long long)dec.traps, (unsigned long long)dec.packets,
		       (unsigned long long)dec.errors, (unsigned long long)feed.unreadable,
		       spent > 0 ? (double)dec.insns / spent * 1e-6 : 0.0);
	fflush(stdout);
	rc = (dec.errors || feed.unreadable) ? ST_WARN : ST_OK;
out:
	for (k = 0; k < n; k++)
		free(ranges[k].cache);
	free(items);
	free(stack);
	free(jcache);
	free(bpred);
	free(buf);
	for (k = 0; k < nfiles; k++)
		free(files[k]);
	return rc;
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
		fprintf(stderr, "%s: %s has no sample '%.*s%s'", prog, fam->name, CLIP(name));
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
		/* a record is at most a caps word and MAX_SAMPLE registers: read no more than that (and a byte to tell
		 * whether the input goes on: /dev/zero does) */
		unsigned char buf[4 + 8 * MAX_SAMPLE];
		size_t len, at = 0, most = (has_caps ? 4u : 0u) + 8u * MAX_SAMPLE;
		int more;
		if (read_at_most(args[0], buf, most, &len, &more) != 0)
			return ST_IO;
		if (more) {
			fprintf(stderr, "%s: %s holds more than one %s sample can (%zu bytes): it is not one record\n", prog,
				args[0], s->name, most);
			return ST_VALUE;
		}
		if (has_caps) {
			if (len < 4) {
				fprintf(stderr, "%s: %s: %zu bytes, too short for the 4-byte %s\n", prog, args[0], len,
					regs[s->caps].name);
				return ST_VALUE;
			}
			caps = (uint32_t)pmregs_load_le32(buf);
			at = 4;
		}
		if ((len - at) % 8 != 0 || (len - at) / 8 > MAX_SAMPLE) {
			fprintf(stderr, "%s: %s: %zu bytes after the caps value are not whole 64-bit registers (at most %d)\n",
				prog, args[0], len - at, MAX_SAMPLE);
			return ST_VALUE;
		}
		for (; at < len; at += 8)
			words[nwords++] = pmregs_load_le64(buf + at);
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

/* ---- event catalogues: --event, --cpu, --list FAMILY CATALOG ---- */

/* The table --cpu names: "auto" (this processor), a CPUID signature as in the vendors' maps
 * ("GenuineIntel-6-8F"), or a table name ("spr", "zen4"; any case). */
static int cat_model(const char *name, const struct pmregs_catalog **c, const struct pmregs_cat_table **t);

/* The next catalogue after index *i (start at 0) with a table for the model cat_model() found in *c. */
static const struct pmregs_cat_table *cat_next(size_t *i, const struct pmregs_catalog *found,
					       const struct pmregs_cat_table *ft, const struct pmregs_catalog **c)
{
	size_t n, k;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	const char *name = pmregs_cat_table_name(found, ft);
	for (; *i < n; (*i)++) {
		*c = d[*i].catalog();
		if (!eq_nocase((*c)->vendor_id, found->vendor_id))
			continue;
		for (k = 0; k < (*c)->ntables; k++)
			if (eq_nocase(pmregs_cat_table_name(*c, &(*c)->tables[k]), name)) {
				(*i)++;
				return &(*c)->tables[k];
			}
	}
	return 0;
}

static int cat_model(const char *name, const struct pmregs_catalog **c, const struct pmregs_cat_table **t)
{
	size_t i, j, n;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	if (eq_nocase(name, "auto")) {
		struct pmregs_cpu_sig sig;
		*t = pmregs_catalogs_host(c, &sig);
		if (*t)
			return ST_OK;
		if (pmregs_cpu_sig_host(&sig) != PMREGS_OK)
			fprintf(stderr, "%s: --cpu auto: this machine has no CPUID; name a model (--cpu spr, zen4, ...)\n", prog);
		else
			fprintf(stderr, "%s: --cpu auto: no catalogue has a table for %s-%u-%X-%X (core type %#x)\n", prog,
				sig.vendor, sig.family, sig.model, sig.stepping, sig.core_type);
		return ST_NAME;
	}
	*t = pmregs_catalogs_table(name, c);
	if (*t)
		return ST_OK;
	fprintf(stderr, "%s: no processor model '%s'; --cpu takes auto, a CPUID signature (GenuineIntel-6-8F,\n"
		"AuthenticAMD-25-61) or one of:", prog, name);
	for (i = 0; i < n; i++) {
		const struct pmregs_catalog *cc = d[i].catalog();
		for (j = 0; j < cc->ntables; j++)
			fprintf(stderr, "%s%s", j % 12 ? " " : "\n  ", pmregs_cat_table_name(cc, &cc->tables[j]));
	}
	fprintf(stderr, "\n");
	return ST_NAME;
}

/* Names close to a name the table does not have: those containing its first word (up to '.', ':' or '_'),
 * else those sharing its first four characters; at most eight. */
static void cat_suggest(const struct pmregs_catalog *c, const struct pmregs_cat_table *t, const char *name)
{
	char stem[64];
	size_t n = 0, k = 0, i, pass;
	while (name[n] && name[n] != '.' && name[n] != ':' && name[n] != '/' && n + 1 < sizeof stem) {
		stem[n] = name[n];
		n++;
	}
	stem[n] = 0;
	for (pass = 0; pass < 2 && k == 0; pass++) {
		if (pass == 1) {
			if (n < 4)
				break;
			stem[4] = 0;
		}
		for (i = 0; i < t->count && k < 8; i++) {
			const char *en = pmregs_cat_str(c, c->events[t->first + i].name);
			if (pass == 0 ? pmregs_cat_contains(en, stem, strlen(stem)) : pmregs_cat_cmp(en, 4, stem, 0) == 0)
				fprintf(stderr, "%s %s", k++ ? "," : "  did you mean:", en);
		}
	}
	if (k)
		fprintf(stderr, "%s\n", k == 8 ? ", ..." : "");
}

static const struct pmregs_layout_desc *cat_layout(const struct pmregs_catalog *c)
{
	const struct pmregs_family_desc *fam = find_family(c->family);
	size_t i, n;
	const struct pmregs_layout_desc *l = fam ? fam->layouts(&n) : 0;
	for (i = 0; l && i < n; i++)
		if (eq_nocase(l[i].name, c->layout))
			return &l[i];
	return 0;
}

static void cat_counters(char *buf, size_t n, uint64_t m)
{
	size_t len = 0;
	unsigned i;
	buf[0] = 0;
	for (i = 0; i < 64 && len + 16 < n; i++)
		if ((m >> i) & 1)
			len += (size_t)snprintf(buf + len, n - len, "%s%s%u", len ? " " : "", i < 32 ? "gp" : "fixed",
						i < 32 ? i : i - 32);
	if (!m)
		snprintf(buf, n, "(not given)");
}

static int cat_event(const char *model, const char *name, int json, int long_doc)
{
	const struct pmregs_catalog *c;
	const struct pmregs_cat_table *t;
	const struct pmregs_layout_desc *ld;
	struct pmregs_cat_request r;
	struct pmregs_cat_encoding e;
	char perf[256], fields[1024], counters[256];
	size_t where, i;
	const struct pmregs_catalog *c0;
	const struct pmregs_cat_table *t0;
	size_t next = 0, where0 = 0;
	int rc = cat_model(model, &c0, &t0);
	if (rc != ST_OK)
		return rc;
	/* the model's core catalogue first, then its other PMUs' (L3, DF, ...) */
	rc = PMREGS_ENOENT;
	while (rc == PMREGS_ENOENT && (t = cat_next(&next, c0, t0, &c)) != 0) {
		rc = pmregs_cat_parse(c, t, name, &r, &where);
		if (c == c0)
			where0 = where;
	}
	if (rc == PMREGS_ENOENT) {
		c = c0;
		t = t0;
		where = where0;
	}
	if (rc != PMREGS_OK) {
		if (rc == PMREGS_ENOENT) {
			fprintf(stderr, "%s: %s (%s) has no event '%s'\n", prog, pmregs_cat_table_name(c, t), c->name, name);
			cat_suggest(c, t, name + where);
			fprintf(stderr, "  (list them: %s --list %s %s --cpu %s [PATTERN])\n", prog, c->family,
				strchr(c->name, ' ') ? strchr(c->name, ' ') + 1 : c->name, pmregs_cat_table_name(c, t));
			return ST_NAME;
		}
		fprintf(stderr, "%s: %s: %s at '%s'\n", prog, name,
			rc == PMREGS_ERANGE ? "a value does not fit its field" : "unknown modifier, unit mask or term",
			name + where);
		return ST_VALUE;
	}
	pmregs_cat_encode(&r, &e);
	pmregs_cat_perf_snprint(perf, sizeof perf, &r);
	ld = cat_layout(c);
	fields[0] = 0;
	if (ld)
		pmregs_snprint_layout(fields, sizeof fields, e.evtsel, ld);
	cat_counters(counters, sizeof counters, e.counters);
	if (json) {
		printf("{\"table\": ");
		json_str(stdout, pmregs_cat_table_name(c, t));
		printf(", \"event\": ");
		json_str(stdout, r.event ? pmregs_cat_event_name(c, r.event) : "");
		printf(", \"description\": ");
		json_str(stdout, r.event ? pmregs_cat_event_desc(c, r.event) : "");
		printf(", \"family\": \"%s\", \"register\": \"%s\", \"value\": %llu, \"extra_msr\": %u, \"extra_value\": %llu,"
		       " \"counters\": %llu, \"perf\": ", c->family, c->layout, (unsigned long long)e.evtsel, e.extra_msr,
		       (unsigned long long)e.extra_value, (unsigned long long)e.counters);
		json_str(stdout, perf);
		printf(", \"pmu\": \"%s\", \"config\": %llu, \"config1\": %llu, \"config2\": %llu, \"exclude_user\": %d,"
		       " \"exclude_kernel\": %d, \"exclude_host\": %d, \"exclude_guest\": %d}\n", e.pmu,
		       (unsigned long long)e.config, (unsigned long long)e.config1, (unsigned long long)e.config2,
		       e.exclude_user, e.exclude_kernel, e.exclude_host, e.exclude_guest);
		return ST_OK;
	}
	printf("%s%s  (%s: %s)\n", r.event ? pmregs_cat_event_name(c, r.event) : "(raw event, not in the table)",
	       r.event && ((r.event->value ^ r.value) & c->perf_mask) ? " with other unit mask or modifiers" : "",
	       pmregs_cat_table_name(c, t), pmregs_cat_str(c, t->title));
	if (r.event && pmregs_cat_event_desc(c, r.event)[0])
		print_doc_indented(stdout, pmregs_cat_event_desc(c, r.event), 2);
	printf("  %s %-10s 0x%016llx  %s\n", c->family, c->layout, (unsigned long long)e.evtsel, fields);
	if (e.extra_msr)
		printf("  extra MSR     0x%x = 0x%llx%s\n", e.extra_msr, (unsigned long long)e.extra_value,
		       r.extra_term < c->nterms ? "" : "  (perf has no format term for this MSR: the perf string lacks it)");
	printf("  counters      %s\n", counters);
	if (e.counters && !(e.counters & 0xFFFFFFFFu))
		printf("                (a fixed counter only: the value above is perf's pseudo-encoding for it)\n");
	printf("  perf          %s\n", perf);
	printf("  perf_event_attr  type=%s config=0x%llx config1=0x%llx config2=0x%llx exclude_user=%d"
	       " exclude_kernel=%d%s\n", strcmp(e.pmu, "cpu") == 0 ? "PERF_TYPE_RAW" : "(see /sys/bus/event_source/devices/PMU/type)",
	       (unsigned long long)e.config, (unsigned long long)e.config1, (unsigned long long)e.config2,
	       e.exclude_user, e.exclude_kernel,
	       e.exclude_host || e.exclude_guest ? (e.exclude_host ? " exclude_host=1" : " exclude_guest=1") : "");
	if (r.event && c->nflags) {
		size_t k = 0;
		for (i = 0; i < c->nflags; i++) {
			uint64_t f = pmregs_cat_event_flag(c, r.event, i);
			if (f)
				printf("%s%s%s", k++ ? " " : "  flags         ", c->flags[i].name, f > 1 ? "=2" : "");
		}
		if (k)
			printf("\n");
	}
	if (long_doc)
		printf("  source        %s\n", pmregs_cat_str(c, t->source));
	return ST_OK;
}

/* --list FAMILY CATALOG --cpu MODEL [PATTERN]: the events of a model whose names contain PATTERN. */
static int cat_list(const char *model, const char *family, const char *catalog, const char *pattern, int json,
		    int long_doc)
{
	const struct pmregs_catalog *c, *c0;
	const struct pmregs_cat_table *t, *t0;
	const struct pmregs_cat_event *e = 0;
	size_t k = 0, next = 0;
	const char *cn;
	int rc = cat_model(model, &c0, &t0);
	if (rc != ST_OK)
		return rc;
	/* FAMILY CATALOG names the catalogue ("amd l3_events"); a model of another vendor takes its own
	 * vendor's catalogue of that name ("--list x86 events --cpu zen4" lists amd events) */
	while ((t = cat_next(&next, c0, t0, &c)) != 0) {
		cn = strchr(c->name, ' ') ? strchr(c->name, ' ') + 1 : c->name;
		if (eq_nocase(cn, catalog))
			break;
	}
	if (!t) {
		fprintf(stderr, "%s: %s has no catalogue '%s %s'\n", prog, pmregs_cat_table_name(c0, t0), family, catalog);
		return ST_NAME;
	}
	if (json)
		printf("[");
	else
		printf("%s: %s (%s, PMU %s)\n", pmregs_cat_table_name(c, t), pmregs_cat_str(c, t->title), c->name,
		       pmregs_cat_str(c, t->pmu));
	while ((e = pmregs_cat_search(c, t, pattern ? pattern : "", e)) != 0) {
		struct pmregs_cat_request r;
		char perf[256];
		pmregs_cat_request_init(&r, c, t, e);
		pmregs_cat_perf_snprint(perf, sizeof perf, &r);
		if (json) {
			printf("%s\n {\"name\": ", k ? "," : "");
			json_str(stdout, pmregs_cat_event_name(c, e));
			printf(", \"value\": %llu, \"perf\": ", (unsigned long long)e->value);
			json_str(stdout, perf);
			printf(", \"description\": ");
			json_str(stdout, pmregs_cat_event_desc(c, e));
			printf("}");
		} else {
			printf("  %-48s %s\n", pmregs_cat_event_name(c, e), perf);
			if (long_doc && pmregs_cat_event_desc(c, e)[0])
				print_doc_indented(stdout, pmregs_cat_event_desc(c, e), 6);
		}
		k++;
	}
	if (json)
		printf("\n]\n");
	else
		printf("%zu events%s%s%s\n", k, pattern ? " matching '" : "", pattern ? pattern : "", pattern ? "'" : "");
	return k || !pattern ? ST_OK : ST_NAME;
}

/* Whether `name` is a catalogue's name (events, l3_events, ...): its listing needs --cpu. */
static int cat_is_catalog(const char *name)
{
	size_t i, n;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	for (i = 0; i < n; i++) {
		const char *cn = d[i].catalog()->name;
		if (eq_nocase(strchr(cn, ' ') ? strchr(cn, ' ') + 1 : cn, name))
			return 1;
	}
	return 0;
}

/* With --cpu, a decoded event-select value of a catalogue's layout is named. */
static void cat_name_value(const char *model, const struct target *tg, const char *text)
{
	const struct pmregs_catalog *c;
	const struct pmregs_cat_table *t;
	const struct pmregs_cat_event *e;
	const struct pmregs_catalog *c0;
	const struct pmregs_cat_table *t0;
	size_t next = 0;
	uint64_t v;
	if (!tg->layout || parse_u64(text, &v) != 0 || cat_model(model, &c0, &t0) != ST_OK)
		return;
	while ((t = cat_next(&next, c0, t0, &c)) != 0)
		if (eq_nocase(c->family, tg->fam->name) && eq_nocase(c->layout, tg->layout->name))
			break;
	if (!t) {
		printf("\n(%s has no catalogue of %s %s values)\n", pmregs_cat_table_name(c0, t0), tg->fam->name,
		       tg->layout->name);
		return;
	}
	e = pmregs_cat_decode(c, t, v);
	if (!e) {
		printf("\nevent: none of %s's events has these event fields\n", pmregs_cat_table_name(c, t));
		return;
	}
	printf("\nevent: %s (%s)%s\n", pmregs_cat_event_name(c, e), pmregs_cat_table_name(c, t),
	       ((e->value ^ v) & c->perf_mask) ? ", with other modifiers" : "");
}

/* ---- main ---- */


/* ---- etrace --encode: a hart trace through the E-Trace instruction trace encoder ---- */

/* The encoder's settings a --params list may name besides the E-Trace parameters. */
struct enc_opts {
	struct pmregs_etrace_encoder_config cfg;
	unsigned blocks; /* instructions per ingress block at most (1: single retirement) */
	unsigned implicit_exception_set, implicit_exception;
};

static const struct {
	const char *name;
	const char *doc;
} enc_names[] = {
	{ "opt_full_address", "1: full addresses in formats 0, 1 and 2 (default 0: differential)" },
	{ "opt_implicit_return", "1: returns predicted by the return stack or call counter are not reported" },
	{ "opt_sijump", "1: sequentially inferable jumps are not reported (needs sijump_p=1)" },
	{ "opt_implicit_exception", "1: trap packets with thaddr 1 carry no address (the parameter implicit_exception)" },
	{ "opt_jump_target_cache", "1: format 0.1 (needs cache_size_p)" },
	{ "opt_branch_prediction", "1: format 0.0 (needs bpred_size_p)" },
	{ "itype_width_p", "3 or 4 (default 4): the width of the ingress itype" },
	{ "resync_max", "resynchronise after this many packets, half-words or cycles (default 16; 0: never)" },
	{ "resync_unit", "0 packets, 1 retired half-words, 2 cycles (default 0)" },
	{ "ioptions_layout", "0: the reference flow's ioptions bits (default), 1: PULP's" },
	{ "blocks", "retired instructions per ingress block at most (default 1: single retirement)" },
};

/* Apply one NAME=VALUE of a --params list: an encoder setting, or an E-Trace parameter. */
static int enc_param(const struct pmregs_family_desc *fam, const char *item, uint64_t *vals, size_t np, struct enc_opts *o)
{
	const char *eq = strchr(item, '=');
	size_t i, len = eq ? (size_t)(eq - item) : 0;
	uint64_t x;
	for (i = 0; eq && i < sizeof enc_names / sizeof enc_names[0]; i++) {
		if (strlen(enc_names[i].name) != len || strncmp(enc_names[i].name, item, len) != 0)
			continue;
		if (parse_u64(eq + 1, &x) != 0) {
			fprintf(stderr, "%s: --params: '%s' is not a value for %s\n", prog, eq + 1, enc_names[i].name);
			return ST_VALUE;
		}
		if (i < 6 && x > 1) {
			fprintf(stderr, "%s: %s=%llu is outside 0..1\n", prog, enc_names[i].name, (unsigned long long)x);
			return ST_VALUE;
		}
		switch (i) {
		case 0:
		case 1:
		case 2:
		case 4:
		case 5: {
			static const uint32_t bit[6] = { PMREGS_ETRACE_ENCODER_FULL_ADDRESS, PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN,
							 PMREGS_ETRACE_ENCODER_SIJUMP, 0, PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE,
							 PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION };
			o->cfg.options = x ? o->cfg.options | bit[i] : o->cfg.options & ~bit[i];
			break;
		}
		case 3:
			o->implicit_exception_set = 1;
			o->implicit_exception = (unsigned)x;
			break;
		case 6:
			if (x != 3 && x != 4) {
				fprintf(stderr, "%s: itype_width_p=%llu is not 3 or 4\n", prog, (unsigned long long)x);
				return ST_VALUE;
			}
			o->cfg.itype_width = (uint8_t)x;
			break;
		case 7:
			if (x > 0xffffffffu) {
				fprintf(stderr, "%s: resync_max=%llu is too big\n", prog, (unsigned long long)x);
				return ST_VALUE;
			}
			o->cfg.resync_max = (uint32_t)x;
			break;
		case 8:
		case 9:
			if (x > (i == 8 ? 2u : 1u)) {
				fprintf(stderr, "%s: %s=%llu is outside 0..%u\n", prog, enc_names[i].name, (unsigned long long)x, i == 8 ? 2u : 1u);
				return ST_VALUE;
			}
			if (i == 8)
				o->cfg.resync_unit = (uint8_t)x;
			else
				o->cfg.ioptions_layout = (uint8_t)x;
			break;
		default:
			if (x < 1 || x > 4096) {
				fprintf(stderr, "%s: blocks=%llu is outside 1..4096\n", prog, (unsigned long long)x);
				return ST_VALUE;
			}
			o->blocks = (unsigned)x;
			break;
		}
		return ST_OK;
	}
	return apply_params(fam, item, vals, np);
}

/* A --params argument: NAME=VALUE,... or @FILE (one NAME=VALUE per line, # comments). */
static int enc_params(const struct pmregs_family_desc *fam, const char *arg, uint64_t *vals, size_t np, struct enc_opts *o)
{
	char item[256];
	int rc;
	if (arg[0] == '@') {
		FILE *f = fopen(arg + 1, "r");
		unsigned line = 0;
		if (!f) {
			fprintf(stderr, "%s: cannot read ", prog);
			perror(arg + 1);
			return ST_IO;
		}
		while (fgets(item, sizeof item, f)) {
			char *p = item, *e;
			line++;
			while (*p == ' ' || *p == '\t')
				p++;
			e = p + strcspn(p, "#\r\n");
			while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			*e = '\0';
			if (!*p)
				continue;
			if ((rc = enc_param(fam, p, vals, np, o)) != ST_OK) {
				fprintf(stderr, "%s: (in %s, line %u)\n", prog, arg + 1, line);
				fclose(f);
				return rc;
			}
		}
		fclose(f);
		return ST_OK;
	}
	while (*arg) {
		size_t len = strcspn(arg, ",");
		if (len == 0 || len >= sizeof item) {
			fprintf(stderr, "%s: --params wants NAME=VALUE pairs separated by commas\n", prog);
			return ST_USAGE;
		}
		memcpy(item, arg, len);
		item[len] = '\0';
		arg += len + (arg[len] == ',');
		if (!strchr(item, '=')) {
			fprintf(stderr, "%s: --params: '%s' is not NAME=VALUE\n", prog, item);
			return ST_USAGE;
		}
		if ((rc = enc_param(fam, item, vals, np, o)) != ST_OK)
			return rc;
	}
	return ST_OK;
}

/* Where the encoded bytes go, and what framing. */
struct enc_out {
	FILE *f;
	const char *path;
	int stream; /* 0 SMI, 1 encapsulation, 2 ATB */
	unsigned char buf[1 << 16];
	size_t bytes;
	int failed;
};

static void enc_flush(struct pmregs_etrace_encoder *e, struct enc_out *w)
{
	struct pmregs_etrace_smi smi;
	struct pmregs_etrace_encap encap;
	struct pmregs_etrace_atb atb;
	size_t used = 0;
	pmregs_etrace_smi_init(&smi, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	smi.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	pmregs_etrace_encap_init(&encap, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
	encap.type = e->p.encap_type_inst;
	pmregs_etrace_atb_init(&atb, 0);
	while (pmregs_etrace_encoder_pending(e)) {
		if (w->stream == 1)
			pmregs_etrace_encoder_put_encap(e, &encap, w->buf, sizeof w->buf, &used);
		else if (w->stream == 2)
			pmregs_etrace_encoder_put_atb(e, &atb, w->buf, sizeof w->buf, &used);
		else
			pmregs_etrace_encoder_put_smi(e, &smi, w->buf, sizeof w->buf, &used);
		if (used && fwrite(w->buf, 1, used, w->f) != used)
			w->failed = 1;
		w->bytes += used;
		if (!used)
			break;
	}
}

/* One line of a CSV: up to max comma-separated fields, in place; returns how many. */
static unsigned enc_split(char *line, char **field, unsigned max)
{
	unsigned n = 0;
	char *p = line;
	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		field[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static int enc_hex(const char *s, uint64_t *x)
{
	char *end;
	if (!*s)
		return -1;
	*x = strtoull(s, &end, 16);
	return *end ? -1 : 0;
}

/* The hart trace being read: the row before the current one (for a branch's outcome and sijump). */
struct enc_row {
	uint64_t addr, insn, priv, exception, cause, tval, interrupt;
	struct pmregs_riscv_insn d;
	unsigned line;
};

struct enc_state {
	const char *path;
	struct pmregs_etrace_encoder *e;
	struct enc_out *w;
	struct enc_opts *o;
	unsigned xlen;
	struct pmregs_etrace_ingress blk; /* the block being gathered */
	unsigned in_blk, nin_blk;
	uint64_t next_addr;
	uint64_t instructions, blocks;
	int prev_const_rd; /* rd of the previous row when it was an auipc, lui or c.lui that retired; -1 otherwise */
};

static int enc_step(struct enc_state *s, const struct pmregs_etrace_ingress *b, unsigned line)
{
	int rc = pmregs_etrace_encoder_step(s->e, b);
	if (rc < 0) {
		fprintf(stderr, "%s:%u: the encoder refused the block (%s)\n", s->path, line, pmregs_strerror(rc));
		return ST_VALUE;
	}
	s->blocks++;
	if (pmregs_etrace_encoder_pending(s->e) > PMREGS_ETRACE_ENCODER_QUEUE / 2)
		enc_flush(s->e, s->w);
	return ST_OK;
}

static int enc_close_block(struct enc_state *s, unsigned line)
{
	int rc = ST_OK;
	if (s->in_blk)
		rc = enc_step(s, &s->blk, line);
	s->in_blk = 0;
	s->nin_blk = 0;
	return rc;
}

/* Row r of the hart trace, knowing where execution went next (next: the following row's address). */
static int enc_row_ingress(struct enc_state *s, const struct enc_row *r, uint64_t next, int has_next)
{
	const struct pmregs_riscv_insn *d = &r->d;
	uint64_t cause = r->cause & ~((uint64_t)1 << (s->xlen - 1)) & 0x7fffffffffffffffu;
	int retires, rc;
	unsigned itype = 0, it = s->o->cfg.itype_width;
	if (r->exception && r->interrupt) {
		/* an interrupt: a trap before the instruction of this row, which does not retire */
		struct pmregs_etrace_ingress b;
		if ((rc = enc_close_block(s, r->line)) != ST_OK)
			return rc;
		memset(&b, 0, sizeof b);
		b.iaddr = r->addr;
		b.itype = PMREGS_ETRACE_ITYPE_INTERRUPT;
		b.cause = cause;
		b.priv = (uint8_t)r->priv;
		s->prev_const_rd = -1;
		return enc_step(s, &b, r->line);
	}
	retires = !r->exception || d->kind == PMREGS_RISCV_KIND_ECALL || d->kind == PMREGS_RISCV_KIND_EBREAK;
	if (!retires) {
		struct pmregs_etrace_ingress b;
		if ((rc = enc_close_block(s, r->line)) != ST_OK)
			return rc;
		memset(&b, 0, sizeof b);
		b.iaddr = r->addr;
		b.itype = PMREGS_ETRACE_ITYPE_EXCEPTION;
		b.cause = cause;
		b.tval = r->tval;
		b.priv = (uint8_t)r->priv;
		s->prev_const_rd = -1;
		return enc_step(s, &b, r->line);
	}
	if (d->length != 2 && d->length != 4 && d->length != 8) {
		fprintf(stderr, "%s:%u: instruction %#llx at %#llx: %s\n", s->path, r->line, (unsigned long long)r->insn,
			(unsigned long long)r->addr,
			d->length == 6 ? "a 48-bit instruction cannot be described by ilastsize" : "not an instruction this reader knows");
		return ST_VALUE;
	}
	if (r->exception) {
		itype = PMREGS_ETRACE_ITYPE_EXCEPTION;
	} else if (d->kind == PMREGS_RISCV_KIND_BRANCH) {
		itype = PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH + (unsigned)(has_next && next != r->addr + d->length);
	} else {
		itype = d->itype;
		if (it == 3 && itype >= 8)
			itype = (d->flags & PMREGS_RISCV_FLAG_UNINFERABLE) ? PMREGS_ETRACE_ITYPE_UNINF_JUMP3 : 0;
	}
	/* a new block unless this row continues the open one (same privilege, nothing special before it) */
	if (s->in_blk && (s->blk.priv != r->priv || s->next_addr != r->addr || s->nin_blk >= s->o->blocks))
		if ((rc = enc_close_block(s, r->line)) != ST_OK)
			return rc;
	if (!s->in_blk) {
		memset(&s->blk, 0, sizeof s->blk);
		s->blk.iaddr = r->addr;
		s->blk.priv = (uint8_t)r->priv;
		s->in_blk = 1;
	}
	s->blk.iretire += d->length / 2u;
	s->blk.ilastsize = (uint8_t)(d->length == 2 ? 0 : d->length == 4 ? 1 : 2);
	s->nin_blk++;
	s->instructions++;
	s->next_addr = r->addr + d->length;
	if (itype) {
		s->blk.itype = (uint8_t)itype;
		if (itype == PMREGS_ETRACE_ITYPE_EXCEPTION) {
			s->blk.cause = cause;
			s->blk.tval = r->tval;
		}
		/* sequentially inferable: the jump's base register was loaded by the constant load just before it */
		s->blk.sijump = (uint8_t)((d->flags & PMREGS_RISCV_FLAG_UNINFERABLE) && d->kind == PMREGS_RISCV_KIND_JALR &&
					  s->prev_const_rd > 0 && (unsigned)s->prev_const_rd == d->rs1 &&
					  (d->flags & PMREGS_RISCV_FLAG_RETURN) == 0);
		rc = enc_close_block(s, r->line);
	} else {
		rc = ST_OK;
	}
	s->prev_const_rd = (d->kind == PMREGS_RISCV_KIND_AUIPC || d->kind == PMREGS_RISCV_KIND_LUI) && !r->exception ? d->rd : -1;
	return rc;
}

/* The reference flow's hart trace CSV (VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT). */
static int enc_hart_csv(struct enc_state *s, FILE *in)
{
	char line[512], *f[9];
	struct enc_row cur, row;
	int have = 0, rc;
	unsigned n = 1;
	while (fgets(line, sizeof line, in)) {
		uint64_t valid;
		n++;
		if (enc_split(line, f, 9) != 8 || enc_hex(f[0], &valid) || enc_hex(f[1], &row.addr) || enc_hex(f[2], &row.insn) ||
		    enc_hex(f[3], &row.priv) || enc_hex(f[4], &row.exception) || enc_hex(f[5], &row.cause) || enc_hex(f[6], &row.tval) ||
		    enc_hex(f[7], &row.interrupt)) {
			fprintf(stderr, "%s:%u: not a row of eight hexadecimal fields\n", s->path, n);
			return ST_VALUE;
		}
		if (valid != 1)
			continue;
		row.line = n;
		row.d = pmregs_riscv_insn_decode((uint32_t)row.insn, s->xlen);
		if (have && (rc = enc_row_ingress(s, &cur, row.addr, 1)) != ST_OK)
			return rc;
		cur = row;
		have = 1;
	}
	if (have && (rc = enc_row_ingress(s, &cur, 0, 0)) != ST_OK)
		return rc;
	return enc_close_block(s, n);
}

/* The reference flow's encoder input CSV (post-iss: itype_0,cause,tval,priv,iaddr_0,... one instruction a row). */
static int enc_ingress_csv(struct enc_state *s, FILE *in, char *header)
{
	static const char *cols[] = { "itype_0", "cause", "tval", "priv", "iaddr_0", "context", "ctype", "iretire_0", "ilastsize_0",
				      "time", "sijump_0" };
	char line[512], *f[16];
	int at[11];
	unsigned n = 1, k, nf = enc_split(header, f, 16), i;
	for (k = 0; k < 11; k++) {
		at[k] = -1;
		for (i = 0; i < nf; i++)
			if (strcmp(f[i], cols[k]) == 0)
				at[k] = (int)i;
		if (at[k] < 0 && k != 5 && k != 6 && k < 9) {
			fprintf(stderr, "%s:1: no column %s\n", s->path, cols[k]);
			return ST_VALUE;
		}
	}
	while (fgets(line, sizeof line, in)) {
		struct pmregs_etrace_ingress b;
		uint64_t v[11];
		n++;
		if (enc_split(line, f, 16) != nf) {
			fprintf(stderr, "%s:%u: not %u fields\n", s->path, n, nf);
			return ST_VALUE;
		}
		for (k = 0; k < 11; k++) {
			char *end;
			v[k] = 0;
			if (at[k] < 0)
				continue;
			v[k] = strtoull(f[at[k]], &end, k == 2 || k == 4 ? 16 : 10);
			if (end == f[at[k]] || *end) {
				fprintf(stderr, "%s:%u: %s is not a number\n", s->path, n, cols[k]);
				return ST_VALUE;
			}
		}
		memset(&b, 0, sizeof b);
		b.itype = (uint8_t)v[0];
		b.cause = v[1];
		b.tval = v[2];
		b.priv = (uint8_t)v[3];
		b.iaddr = v[4];
		b.context = v[5];
		b.ctype = (uint8_t)v[6];
		b.iretire = (uint32_t)v[7];
		b.ilastsize = (uint8_t)v[8];
		b.time = v[9];
		b.sijump = (uint8_t)v[10];
		if (v[0] > 15 || v[3] > 255 || v[6] > 3 || v[7] > 1 || v[8] > 3) {
			fprintf(stderr, "%s:%u: a value out of range\n", s->path, n);
			return ST_VALUE;
		}
		s->instructions += b.iretire;
		if (enc_step(s, &b, n) != ST_OK)
			return ST_VALUE;
	}
	return ST_OK;
}

static int encode_main(int argc, char **argv)
{
	const struct pmregs_family_desc *fam = 0;
	const char *params[32], *image = 0, *outp = 0, *trace = 0, *stream = "smi_stream", *why = "";
	int np_opt = 0, npos = 0, i, rc;
	size_t np = 0, k, work_bytes = 0;
	uint64_t vals[MAXP];
	struct pmregs_etrace_params p;
	struct enc_opts o;
	static struct pmregs_etrace_encoder e;
	static struct enc_out w;
	struct enc_state s;
	const struct pmregs_param_desc *d;
	char tmp[4096], header[512];
	void *work = 0;
	FILE *in;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--encode") == 0)
			continue;
		if (strcmp(a, "--params") == 0 || strcmp(a, "--image") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--stream") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n", prog, a);
				return ST_USAGE;
			}
			if (a[2] == 'p') {
				if (np_opt == (int)(sizeof params / sizeof params[0])) {
					fprintf(stderr, "%s: too many --params\n", prog);
					return ST_USAGE;
				}
				params[np_opt++] = argv[++i];
			} else if (a[2] == 'i') {
				image = argv[++i];
			} else if (a[1] == 'o') {
				outp = argv[++i];
			} else {
				stream = argv[++i];
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: %s is not an option of --encode (etrace --encode [--params L|@FILE]... [--image ELF] [--stream NAME] TRACE -o OUT)\n",
				prog, a);
			return ST_USAGE;
		} else if (npos < 2) {
			if (npos == 0 && !(fam = find_family(a)))
				return unknown_family(a);
			if (npos == 1)
				trace = a;
			npos++;
		} else {
			fprintf(stderr, "%s: too many arguments\n", prog);
			return ST_USAGE;
		}
	}
	if (!fam || strcmp(fam->name, "etrace") != 0 || !trace || !outp) {
		fprintf(stderr, "%s: usage: %s etrace --encode [--params L|@FILE]... [--image ELF] [--stream NAME] TRACE -o OUT\n", prog,
			prog);
		return ST_USAGE;
	}
	if (strcmp(stream, "smi_stream") == 0 || strcmp(stream, "smi") == 0)
		w.stream = 0;
	else if (strcmp(stream, "encap_stream") == 0 || strcmp(stream, "encap") == 0)
		w.stream = 1;
	else if (strcmp(stream, "atb_stream") == 0 || strcmp(stream, "atb") == 0)
		w.stream = 2;
	else {
		fprintf(stderr, "%s: --encode writes smi_stream, encap_stream or atb_stream, not '%s'\n", prog, stream);
		return ST_NAME;
	}
	d = fam->params ? fam->params(&np) : 0;
	np = np < MAXP ? np : MAXP;
	for (k = 0; k < np; k++)
		vals[k] = d[k].def;
	memset(&o, 0, sizeof o);
	pmregs_etrace_encoder_config_default(&o.cfg);
	o.blocks = 1;
	for (i = 0; i < np_opt; i++)
		if ((rc = enc_params(fam, params[i], vals, np, &o)) != ST_OK)
			return rc;
	pmregs_etrace_params_default(&p);
	for (k = 0; k < np; k++)
		if (pmregs_etrace_param_set(&p, k, vals[k]) != PMREGS_OK) {
			fprintf(stderr, "%s: parameter %s is out of range\n", prog, d[k].name);
			return ST_VALUE;
		}
	if (o.implicit_exception_set)
		p.implicit_exception = (uint8_t)o.implicit_exception;
	if (pmregs_etrace_encoder_check(&p, &o.cfg, &why) != PMREGS_OK) {
		fprintf(stderr, "%s: the encoder cannot run with these parameters and options: %s\n", prog, why);
		return ST_VALUE;
	}
	memset(&s, 0, sizeof s);
	s.xlen = p.iaddress_width_p > 32 ? 64 : 32;
	if (image) {
		/* XLEN from the ELF class (c.jal on RV32, c.addiw on RV64) */
		unsigned char id[5];
		FILE *f = fopen(image, "rb");
		if (!f) {
			fprintf(stderr, "%s: cannot read ", prog);
			perror(image);
			return ST_IO;
		}
		if (fread(id, 1, 5, f) != 5 || memcmp(id, "\177ELF", 4) != 0 || (id[4] != 1 && id[4] != 2)) {
			fprintf(stderr, "%s: %s: not an ELF32 or ELF64 file\n", prog, image);
			fclose(f);
			return ST_VALUE;
		}
		fclose(f);
		s.xlen = id[4] == 1 ? 32 : 64;
	}
	if (pmregs_etrace_encoder_work_size(&p, &work_bytes) != PMREGS_OK || (work_bytes && !(work = calloc(1, work_bytes)))) {
		fprintf(stderr, "%s: the return stack, jump target cache or branch predictor is too big\n", prog);
		return ST_VALUE;
	}
	in = strcmp(trace, "-") == 0 ? stdin : fopen(trace, "r");
	if (!in) {
		fprintf(stderr, "%s: cannot read ", prog);
		perror(trace);
		free(work);
		return ST_IO;
	}
	if (!fgets(header, sizeof header, in)) {
		fprintf(stderr, "%s:1: an empty trace\n", trace);
		rc = ST_VALUE;
		goto done_in;
	}
	/* the output goes to OUT.tmp, renamed at the end: nothing half-written */
	snprintf(tmp, sizeof tmp, "%s.tmp", outp);
	w.f = fopen(tmp, "wb");
	w.path = outp;
	if (!w.f) {
		fprintf(stderr, "%s: cannot write ", prog);
		perror(tmp);
		rc = ST_IO;
		goto done_in;
	}
	s.path = trace;
	s.e = &e;
	s.w = &w;
	s.o = &o;
	s.prev_const_rd = -1;
	header[strcspn(header, "\r\n")] = '\0';
	if (strcmp(header, "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT") == 0) {
		rc = pmregs_etrace_encoder_init(&e, &p, &o.cfg, work, work_bytes);
		if (rc == PMREGS_OK)
			rc = enc_hart_csv(&s, in);
	} else if (strncmp(header, "itype_0,", 8) == 0) {
		o.cfg.iretire_unit = PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS;
		rc = pmregs_etrace_encoder_init(&e, &p, &o.cfg, work, work_bytes);
		if (rc == PMREGS_OK)
			rc = enc_ingress_csv(&s, in, header);
	} else {
		fprintf(stderr, "%s:1: neither a hart trace (VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT) nor an encoder input (itype_0,...)\n",
			trace);
		rc = ST_VALUE;
	}
	if (rc == ST_OK) {
		pmregs_etrace_encoder_finish(&e, 0);
		enc_flush(&e, &w);
		if (e.stats.dropped)
			fprintf(stderr, "%s: %llu packets could not be encoded (a value too wide for its field)\n", prog,
				(unsigned long long)e.stats.dropped);
	}
	if (fclose(w.f) != 0 || w.failed) {
		fprintf(stderr, "%s: cannot write %s\n", prog, tmp);
		rc = rc == ST_OK ? ST_IO : rc;
	}
	if (rc == ST_OK && rename(tmp, outp) != 0) {
		fprintf(stderr, "%s: cannot write ", prog);
		perror(outp);
		rc = ST_IO;
	}
	if (rc != ST_OK)
		remove(tmp);
	else
		printf("%llu instructions in %llu blocks, %llu packets, %lu bytes (%s)%s\n", (unsigned long long)s.instructions,
		       (unsigned long long)s.blocks, (unsigned long long)e.stats.packets, (unsigned long)w.bytes, stream,
		       e.stats.ambiguous + e.stats.repeated ? ", with trace_lost restarts" : "");
done_in:
	if (in != stdin)
		fclose(in);
	free(work);
	return rc;
}

int main(int argc, char **argv)
{
	const char *pos[MAX_SAMPLE + 2], *svg = 0, *stream = 0, *sample = 0, *event = 0, *cpu = 0, *images[8];
	const char *params[16];
	int npos = 0, nparams = 0, json = 0, list = 0, synced = 1, long_doc = 0, summary = 0, nimages = 0, i;
	uint64_t max_idle = MAX_IDLE;
	const struct pmregs_family_desc *fam;
	struct target t;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--encode") == 0)
			return encode_main(argc, argv);
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
		} else if (strcmp(a, "--summary") == 0) {
			summary = 1;
		} else if (strcmp(a, "--image") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n", prog, a);
				return ST_USAGE;
			}
			if (nimages == (int)(sizeof images / sizeof images[0])) {
				fprintf(stderr, "%s: too many --image\n", prog);
				return ST_USAGE;
			}
			images[nimages++] = argv[++i];
		} else if (strcmp(a, "--max-idle") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n", prog, a);
				return ST_USAGE;
			}
			if (parse_u64(argv[++i], &max_idle) != 0) {
				fprintf(stderr, "%s: --max-idle: '%.*s%s' is not a number of bytes\n", prog, CLIP(argv[i]));
				return ST_VALUE;
			}
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
		} else if (strcmp(a, "--event") == 0 || strcmp(a, "--cpu") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs an argument\n", prog, a);
				return ST_USAGE;
			}
			*(a[2] == 'e' ? &event : &cpu) = argv[++i];
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
	if (event) {
		if (npos || list || svg || stream || nparams || sample) {
			fprintf(stderr, "%s: --event takes only --cpu, --json and --long\n", prog);
			return ST_USAGE;
		}
		return cat_event(cpu ? cpu : "auto", event, json, long_doc);
	}
	if (list && cpu && npos >= 2 && npos <= 3)
		return cat_list(cpu, pos[0], pos[1], npos == 3 ? pos[2] : 0, json, long_doc);
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
		if (cat_is_catalog(pos[1])) {
			fprintf(stderr, "%s: %s is an event catalogue: list a model's events with --cpu MODEL\n", prog, pos[1]);
			return ST_USAGE;
		}
		if (strncmp(pos[1], "table:", 6) == 0) {
			size_t nt = 0, k;
			const struct pmregs_table_desc *tb = fam->tables ? fam->tables(&nt) : 0;
			struct near_names nn;
			near_init(&nn, pos[1] + 6);
			for (k = 0; k < nt; k++)
				near_add(&nn, tb[k].name);
			fprintf(stderr, "%s: %s has no table '%.*s%s'", prog, fam->name, CLIP(pos[1] + 6));
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
	if ((nimages || summary) && (npos != 2 || svg || json || sample || list)) {
		fprintf(stderr, "%s: --image ELF [--summary] FAMILY FILE reconstructs a trace (no --json, --svg, --sample, --list)\n", prog);
		return ST_USAGE;
	}
	if (summary && !nimages) {
		fprintf(stderr, "%s: --summary needs --image\n", prog);
		return ST_USAGE;
	}
	if (nimages)
		return decode_image(fam, stream, params, nparams, synced, images, nimages, pos[1], summary);
	if (npos == 2) {
		if (svg) {
			fprintf(stderr, "%s: --svg draws a register value, not a stream\n", prog);
			return ST_USAGE;
		}
		return decode_stream(fam, stream, params, nparams, synced, pos[1], json, max_idle);
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
	i = decode_value(&t, pos[2], json, svg, long_doc);
	if (cpu && !json && i <= ST_WARN)
		cat_name_value(cpu, &t, pos[2]);
	return i;
}
