/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * etrace_dump: print a RISC-V E-Trace stream one packet per line, like objdump
 * for trace.
 *
 *   etrace_dump [-s] [-u] [-p name=value]... [FILE]
 *
 * FILE holds packets in the RISC-V trace encapsulation (or, with -s, behind
 * Siemens-style message headers). Without FILE a small embedded stream is
 * dumped: the E-Trace specification's transport examples with a burst of
 * garbage in the middle, which the walker skips up to the next run of zero
 * bytes. -u starts without assuming that the data begins on a packet. -p sets
 * any encoder or transport parameter (see -p help); the defaults are those of
 * the specification's examples: 64-bit addresses traced from bit 0, 32-bit
 * context, 5-bit ecause, 6-bit srcID and a 2-bit type with 2 = instruction trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace_tools.h>

/* The embedded sample: encapsulated te_inst packets from the E-Trace specification's examples. */
static const unsigned char sample[] = {
	/* support: trace enabled, full-address mode */
	0x03, 0x81, 0x1f, 0x04,
	/* start: address 0x20010522, machine mode */
	0x0A, 0x85, 0x73, 0x00, 0x00, 0x00, 0x00, 0x91, 0x82, 0x00, 0x10,
	/* one branch, then address 0x80000104 */
	0x07, 0x81, 0x05, 0x04, 0x01, 0x00, 0x80, 0x00,
	/* address-only 0x8000010c */
	0x06, 0x81, 0x32, 0x04, 0x00, 0x00, 0x02,
	/* null packets: idle, align */
	0x00, 0x80,
	/* exception 2 at 0x80000222 */
	0x0B, 0x81, 0x77, 0x00, 0x00, 0x00, 0x00, 0x81, 0x88, 0x00, 0x00, 0x20,
	/* garbage: a support payload sent with a byte beyond its natural 19 bits, then line noise */
	0x05, 0x81, 0x1f, 0x04, 0x00, 0x00, 0x99, 0x3c, 0x5a, 0xa5, 0x17,
	/* 40 zero bytes: the zero-run rule finds the next packet after them */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 15 branches (0x5555), then address 0x800001a2 */
	0x08, 0x8A, 0xbd, 0xaa, 0xaa, 0x68, 0x00, 0x00, 0x20,
	/* interrupt 7, handler at 0x800001b0 */
	0x0B, 0x81, 0x77, 0x00, 0x00, 0x00, 0x80, 0x33, 0x6c, 0x00, 0x00, 0x20,
	/* a packet cut off by the end of the capture */
	0x06, 0x81, 0x32, 0x04,
};

static void spec_example_params(struct pmregs_etrace_params *p)
{
	pmregs_etrace_params_default(p);
	p->iaddress_width_p = 64;
	p->iaddress_lsb_p = 0;
	p->nocontext_p = 0;
	p->context_width_p = 32;
	p->ecause_width_p = 5;
	p->encap_srcid_bits = 6;
	p->encap_type_bits = 2;
	p->encap_type_inst = 2;
}

/* pmregs_strerror(), except for the stream walker's PMREGS_ENOENT: no packet boundary found yet. */
static const char *why(int status)
{
	return status == PMREGS_ENOENT ? "before the first packet boundary" : pmregs_strerror(status);
}

static int set_param(struct pmregs_etrace_params *p, const char *arg)
{
	size_t n, i;
	const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&n);
	const char *eq = strchr(arg, '=');
	if (!eq || strcmp(arg, "help") == 0) {
		for (i = 0; i < n; i++)
			printf("  %-22s %llu..%llu (now %llu): %s\n", d[i].name, (unsigned long long)d[i].min,
			       (unsigned long long)d[i].max, (unsigned long long)pmregs_etrace_param_get(p, i), d[i].doc);
		return eq ? 0 : -1;
	}
	for (i = 0; i < n; i++) {
		if (strlen(d[i].name) == (size_t)(eq - arg) && strncmp(d[i].name, arg, (size_t)(eq - arg)) == 0) {
			if (pmregs_etrace_param_set(p, i, strtoull(eq + 1, 0, 0)) != PMREGS_OK) {
				fprintf(stderr, "etrace_dump: %s is outside %llu..%llu\n", arg, (unsigned long long)d[i].min,
					(unsigned long long)d[i].max);
				return -1;
			}
			return 0;
		}
	}
	fprintf(stderr, "etrace_dump: no parameter '%.*s' (try -p help)\n", (int)(eq - arg), arg);
	return -1;
}

static void print_semantic(const struct pmregs_etrace_params *p, const struct pmregs_etrace_te_inst *t)
{
	struct pmregs_etrace_te_inst_semantic s;
	if (pmregs_etrace_te_inst_semantic_get(p, t, &s) != PMREGS_OK)
		return;
	if (s.notify)
		printf(" [notify]");
	if (s.updiscon)
		printf(" [updiscon]");
	if (s.irreport)
		printf(" [irreport]");
	if (s.irdepth_reported)
		printf(" [irdepth %llu]", (unsigned long long)s.irdepth);
}

static void print_bytes(const unsigned char *b, size_t n)
{
	size_t i;
	for (i = 0; i < n && i < 12; i++)
		printf(" %02x", b[i]);
	printf("%s", n > 12 ? " .." : "");
	for (; i < 12; i++)
		printf("   ");
}

/*
 * Each packet is formatted and printed, which takes far longer than decoding it, so the dumps walk
 * with pmregs_etrace_<stream>_next_cold(): the same items as _next(), but its decoders are compiled
 * once, out of line, instead of inlined in full into each loop that calls it (a program with one
 * such loop per framing builds in less than half the time). A loop that must go fast, such as one
 * that only counts or filters packets, calls _next() or _next_l() instead.
 */
static int dump_encap(const struct pmregs_etrace_params *p, const unsigned char *buf, size_t len, int synced)
{
	struct pmregs_etrace_encap_stream s;
	struct pmregs_etrace_encap_stream_item it;
	char text[512];
	int bad = 0;
	pmregs_etrace_encap_stream_init(&s, buf, len, synced);
	while (pmregs_etrace_encap_stream_next_cold(&s, p, &it)) {
		printf("%08zx ", it.offset);
		print_bytes(buf + it.offset, it.size);
		if (it.status < 0) {
			printf("  ** %s; %zu bytes skipped\n", why(it.status), it.size);
			bad++;
			continue;
		}
		pmregs_etrace_encap_snprint(text, sizeof text, p, &it.frame);
		printf("  %s", text);
		if (it.has_payload) {
			pmregs_etrace_te_inst_snprint(text, sizeof text, p, &it.payload);
			printf(" | %s", text);
			print_semantic(p, &it.payload);
		}
		printf("\n");
	}
	return bad;
}

static int dump_smi(const struct pmregs_etrace_params *p, const unsigned char *buf, size_t len, int synced)
{
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it;
	char text[512];
	int bad = 0;
	pmregs_etrace_smi_stream_init(&s, buf, len, synced);
	while (pmregs_etrace_smi_stream_next_cold(&s, p, &it)) {
		printf("%08zx ", it.offset);
		print_bytes(buf + it.offset, it.size);
		if (it.status < 0) {
			printf("  ** %s; %zu bytes skipped\n", why(it.status), it.size);
			bad++;
			continue;
		}
		pmregs_etrace_smi_snprint(text, sizeof text, p, &it.frame);
		printf("  %s", text);
		if (it.has_payload) {
			pmregs_etrace_te_inst_snprint(text, sizeof text, p, &it.payload);
			printf(" | %s", text);
			print_semantic(p, &it.payload);
		}
		printf("\n");
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct pmregs_etrace_params p;
	const char *file = 0;
	int smi = 0, synced = 1, i, rc;
	unsigned char *buf = 0;
	size_t len = 0;
	spec_example_params(&p);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-s") == 0) {
			smi = 1;
		} else if (strcmp(argv[i], "-u") == 0) {
			synced = 0;
		} else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
			if (set_param(&p, argv[++i]) < 0)
				return 2;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: etrace_dump [-s] [-u] [-p name=value]... [FILE]\n");
			return 2;
		} else {
			file = argv[i];
		}
	}
	if ((rc = pmregs_etrace_params_check(&p)) != PMREGS_OK) {
		fprintf(stderr, "etrace_dump: the parameters are not a legal combination: %s\n", pmregs_strerror(rc));
		return 2;
	}
	if (file) {
		FILE *f = fopen(file, "rb");
		size_t cap = 1 << 16, got;
		if (!f) {
			perror(file);
			return 1;
		}
		buf = (unsigned char *)malloc(cap);
		while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
			len += got;
			if (len == cap) {
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
		fclose(f);
		if (!buf) {
			fprintf(stderr, "etrace_dump: out of memory\n");
			return 1;
		}
	} else {
		printf("embedded sample: the E-Trace specification's transport examples, with garbage and a cut-off packet\n");
	}
	rc = smi ? dump_smi(&p, file ? buf : sample, file ? len : sizeof sample, synced)
		 : dump_encap(&p, file ? buf : sample, file ? len : sizeof sample, synced);
	printf("%d unreadable stretch%s\n", rc, rc == 1 ? "" : "es");
	free(buf);
	/* the embedded sample has exactly two on purpose: the garbage and the cut-off packet */
	return file ? 0 : (rc == 2 ? 0 : 1);
}
