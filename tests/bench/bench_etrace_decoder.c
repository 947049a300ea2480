/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * E-Trace decoder throughput (`make bench`): retired instructions per second
 * reconstructed by <pmregs/etrace_decoder.h> from an SMI stream and the
 * program image (into windows of items with pmregs_etrace_decode_smi(), and
 * to a consumer with pmregs_etrace_decode_smi_each(): the same hash of the
 * instruction addresses either way), against the naive transliteration of
 * the specification's pseudo-code (tests/etrace/naive_decoder.h), and the
 * speed-up of decoding the chunks between restart packets on every core.
 *
 * The trace: random programs of the tests' hart model (tests/c/etrace_hart.h:
 * calls, returns, loops, switch tables, traps and interrupts; branch outcomes
 * and indirect targets drawn at random, so nothing repeats), NSEG runs of
 * SEGLEN retired instructions each, encoded by <pmregs/etrace_encoder.h> one
 * after the other into one stream, with the baseline options and again with a
 * return stack, the jump target cache and branch prediction. The fast
 * decoder's instruction addresses are checked against the hart's once, then
 * every decoder's against those (a hash), so a fast wrong answer shows. Where
 * the encoder gave up (a support packet with qual_status trace_lost, then a
 * format 3.0: pmregs' encoder does so when irdepth cannot name a return's
 * target) the hart's instructions in between are not in the trace; the check
 * counts those gaps. Single-core figures are medians of CPU time; the
 * parallel row (the consumer form, a decoder per thread) compares wall times
 * with the consumer form on one thread. Numbers depend on the machine; the
 * ratios are the point. Never a pass/fail test.
 *
 * With arguments, ELF SMI PCS [NAME=VALUE...], it measures the same on a
 * given trace instead: tests/bench/etrace_real.sh passes a real program's
 * (tests/etrace/elf/sort.rv64) execution under qemu-user, encoded by
 * pmregs' encoder, with qemu's executed addresses (PCS, one per line).
 *
 * pmregs-bench: pthread
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pmregs/etrace_decoder.h>
#include <pmregs/etrace_encoder.h>
#include <pmregs/etrace_tools.h>
#include "../c/etrace_hart.h"
#include "../etrace/naive_decoder.h"

#define SEGLEN (1u << 20) /* retired instructions per run of the hart */
#define NSEG 4
#define RUNS 5
#define WIN 4096 /* items per call */

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* An order-dependent hash of instruction addresses: h' = h * M + address + 1. */
#define HMUL 0x100000001B3u
static uint64_t hmul_pow(uint64_t n)
{
	uint64_t r = 1, b = HMUL;
	while (n) {
		if (n & 1)
			r *= b;
		b *= b;
		n >>= 1;
	}
	return r;
}

/*
 * The hash over the instruction items of it[0..n), four at a time where four in a row are instructions:
 * h * M^4 + (a0 + 1) * M^3 + ... + (a3 + 1) is the same value, and only its first product is a chain.
 * One at a time, the chain (a multiply and an add per item) is a tenth of the short-packet streams' time,
 * all of it after each window, where a consumer inside the decoder's loop (a peer's callback) hides it.
 */
static uint64_t hash_items(uint64_t h, const struct pmregs_etrace_item *it, size_t n)
{
	const uint64_t m2 = (uint64_t)HMUL * HMUL, m3 = m2 * HMUL, m4 = m2 * m2;
	size_t i = 0, j;
	(void)sizeof(char[PMREGS_ETRACE_ITEM_INSN == 0 ? 1 : -1]); /* the test below ors the types */
	for (; i + 4 <= n; i += 4) {
		const struct pmregs_etrace_item *q = it + i;
		if ((q[0].type | q[1].type | q[2].type | q[3].type) == PMREGS_ETRACE_ITEM_INSN) {
			h = h * m4 + (q[0].address + 1) * m3 + (q[1].address + 1) * m2 + (q[2].address + 1) * HMUL + q[3].address + 1;
			continue;
		}
		for (j = 0; j < 4; j++)
			if (q[j].type == PMREGS_ETRACE_ITEM_INSN)
				h = h * HMUL + q[j].address + 1;
	}
	for (; i < n; i++)
		if (it[i].type == PMREGS_ETRACE_ITEM_INSN)
			h = h * HMUL + it[i].address + 1;
	return h;
}

static struct hart_prog prog;
static struct pmregs_etrace_params P;
static unsigned char *stream;
static size_t stream_len;
static uint64_t *truth, truth_n; /* the hart's (or qemu's) retired instructions */
static uint64_t want_hash, want_n;  /* the instructions in the trace (truth less what the encoder gave up) */
static size_t truth_cap;

static int truth_add(uint64_t a)
{
	if (truth_n == truth_cap) {
		size_t cap = truth_cap ? 2 * truth_cap : (size_t)1 << 20;
		uint64_t *t = realloc(truth, sizeof *t * cap);
		if (!t)
			return -1;
		truth = t;
		truth_cap = cap;
	}
	truth[truth_n++] = a;
	return 0;
}
static struct pmregs_etrace_image_range range;
static struct pmregs_etrace_image img;
static struct pmregs_etrace_dinsn *records;

/* NSEG hart runs encoded one after the other (each starts with a support packet and a sync and ends
 * with a support packet): the stream, and the hash of the retired instructions. */
static int make_stream(const struct pmregs_etrace_encoder_config *c, size_t cap)
{
	static struct pmregs_etrace_encoder enc;
	static uint64_t work[1 << 12];
	struct hart_event *ev = malloc(sizeof *ev * SEGLEN);
	struct pmregs_etrace_ingress *in = malloc(sizeof *in * (SEGLEN + SEGLEN / 4));
	uint64_t *seg = malloc(sizeof *seg * SEGLEN);
	struct pmregs_etrace_smi f;
	unsigned s;
	int rc = ev && in && seg ? 0 : -1;
	pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	stream_len = 0;
	truth_n = 0;
	for (s = 0; s < NSEG && rc == 0; s++) {
		size_t nin, nt, i;
		nin = hart_bench_segment(&prog, s, SEGLEN, ev, in, seg, &nt);
		for (i = 0; i < nt && rc == 0; i++)
			rc = truth_add(seg[i]);
		if (rc == 0)
			rc = hart_encode_smi(&enc, &P, c, work, sizeof work, in, nin, &f, stream, cap, &stream_len);
	}
	free(ev);
	free(in);
	free(seg);
	return rc;
}

static uint64_t stack_mem[1 << 12], jc_mem[1 << 12];
static uint8_t bp_mem[1 << 12];

static void config(struct pmregs_etrace_decoder_config *c, struct pmregs_etrace_smi_feed *f, uint64_t *stack, uint64_t *jc, uint8_t *bp)
{
	memset(c, 0, sizeof *c);
	c->params = &f->p;
	c->image = &img;
	c->return_stack = stack;
	c->jump_cache = jc;
	c->bpred = bp;
	c->ioptions_layout = PMREGS_ETRACE_IOPTIONS_REF;
}

struct result {
	uint64_t insns, errors, hash;
};

/* The whole stream through the fast decoder. */
static struct result run_pmregs(void)
{
	static struct pmregs_etrace_item items[WIN];
	struct pmregs_etrace_smi_feed f;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_decoder_config c;
	struct result r = {0, 0, 0};
	int rc;
	pmregs_etrace_smi_feed_init(&f, &P, stream, stream_len, 1);
	config(&c, &f, stack_mem, jc_mem, bp_mem);
	pmregs_etrace_decoder_init(&d, &c);
	do {
		size_t n = 0;
		rc = pmregs_etrace_decode_smi(&d, &f, items, WIN, &n);
		r.hash = hash_items(r.hash, items, n);
	} while (rc == PMREGS_ENOSPC);
	r.insns = d.insns;
	r.errors = d.errors;
	return r;
}

/* The consumer of pmregs_etrace_decode_smi_each(): the same hash, one item at a time. */
static void hash_one(void *ctx, const struct pmregs_etrace_item *it)
{
	uint64_t *h = (uint64_t *)ctx;
	if (it->type == PMREGS_ETRACE_ITEM_INSN)
		*h = *h * HMUL + it->address + 1;
}

/* The whole stream through the fast decoder's consumer form. */
static struct result run_pmregs_each(void)
{
	struct pmregs_etrace_smi_feed f;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_decoder_config c;
	struct result r = {0, 0, 0};
	pmregs_etrace_smi_feed_init(&f, &P, stream, stream_len, 1);
	config(&c, &f, stack_mem, jc_mem, bp_mem);
	pmregs_etrace_decoder_init(&d, &c);
	(void)pmregs_etrace_decode_smi_each(&d, &f, hash_one, &r.hash);
	r.insns = d.insns;
	r.errors = d.errors;
	return r;
}

/* The naive decoder on the same packets (its instructions decoded again at every use). */
static struct naive nv;
static struct naive_item nitems[WIN];
static struct result run_naive(void)
{
	struct naive_image im;
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it;
	struct pmregs_etrace_params q = P;
	struct result r = {0, 0, 0};
	im.n = 1;
	im.base[0] = range.base;
	im.bytes[0] = range.bytes;
	im.len[0] = range.len;
	im.xlen = img.xlen;
	naive_init(&nv, &P, &im, PMREGS_ETRACE_IOPTIONS_REF, 0, 1, 1, 1, 0, nitems, WIN);
	pmregs_etrace_smi_stream_init(&s, stream, stream_len, 1);
	for (;;) {
		size_t i;
		q.implicit_exception = (uint8_t)((nv.options & PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION) != 0);
		if (!pmregs_etrace_smi_stream_next(&s, &q, &it))
			break;
		if (!it.has_payload)
			continue;
		nv.nout = 0;
		naive_process_te_inst(&nv, &it.payload);
		for (i = 0; i < nv.nout && i < WIN; i++) {
			if (nitems[i].type == 0) {
				r.hash = r.hash * HMUL + nitems[i].address + 1;
				r.insns++;
			} else if (nitems[i].type == 3) {
				r.errors++;
			}
		}
	}
	return r;
}

/* ---- parallel: chunks between restart packets, one decoder per thread ---- */

#define MAXCHUNK 4096
static struct pmregs_etrace_chunk chunks[MAXCHUNK];
static size_t nchunks, next_chunk;
static struct result chunk_res[MAXCHUNK];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	uint64_t *stack = malloc(sizeof *stack * (1 << 12)), *jc = malloc(sizeof *jc * (1 << 12));
	uint8_t *bp = malloc(1 << 12);
	(void)arg;
	if (!stack || !jc || !bp)
		return arg;
	for (;;) {
		struct pmregs_etrace_smi_feed f;
		struct pmregs_etrace_decoder d;
		struct pmregs_etrace_decoder_config c;
		struct result r = {0, 0, 0};
		size_t k, end;
		pthread_mutex_lock(&lock);
		k = next_chunk++;
		pthread_mutex_unlock(&lock);
		if (k >= nchunks)
			break;
		end = k + 1 < nchunks ? chunks[k + 1].offset : stream_len;
		config(&c, &f, stack, jc, bp);
		pmregs_etrace_smi_feed_chunk(&f, &P, stream, stream_len, 1, &chunks[k], end, &c);
		c.params = &f.p;
		pmregs_etrace_decoder_init(&d, &c);
		(void)pmregs_etrace_decode_smi_each(&d, &f, hash_one, &r.hash);
		r.insns = d.insns;
		r.errors = d.errors;
		chunk_res[k] = r;
	}
	free(stack);
	free(jc);
	free(bp);
	return 0;
}

static struct result run_parallel(unsigned threads)
{
	pthread_t t[64];
	struct result r = {0, 0, 0};
	unsigned i;
	size_t k;
	next_chunk = 0;
	for (i = 0; i < threads; i++)
		pthread_create(&t[i], 0, worker, 0);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], 0);
	for (k = 0; k < nchunks; k++) {
		r.hash = r.hash * hmul_pow(chunk_res[k].insns) + chunk_res[k].hash;
		r.insns += chunk_res[k].insns;
		r.errors += chunk_res[k].errors;
	}
	return r;
}

static void check(const char *what, struct result r)
{
	if (r.hash != want_hash || r.insns != want_n || r.errors)
		printf("  ** %s: %llu instructions, %llu inconsistencies, %s the fast decoder's checked ones\n", what,
		       (unsigned long long)r.insns, (unsigned long long)r.errors, r.hash == want_hash ? "the same addresses as" : "NOT the addresses of");
}

/*
 * The fast decoder's instructions against the hart's, once: in order, with gaps only where the stream
 * says trace_lost (the next instruction, a format 3.0's, is found again within the next 1M of the hart's,
 * at the first place where the next 16 decoded instructions match). Sets want_hash/want_n; 0 when it
 * holds.
 */
static int verify(void)
{
	static struct pmregs_etrace_item items[WIN];
	struct pmregs_etrace_smi_feed f;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_decoder_config c;
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it;
	uint64_t *got = malloc(sizeof *got * (truth_n + 1)), ng = 0, lost = 0, gaps = 0, t = 0, g;
	int rc, bad = 0;
	if (!got)
		return -1;
	want_hash = 0;
	pmregs_etrace_smi_feed_init(&f, &P, stream, stream_len, 1);
	config(&c, &f, stack_mem, jc_mem, bp_mem);
	pmregs_etrace_decoder_init(&d, &c);
	do {
		size_t n = 0, i;
		rc = pmregs_etrace_decode_smi(&d, &f, items, WIN, &n);
		for (i = 0; i < n; i++)
			if (items[i].type == PMREGS_ETRACE_ITEM_INSN) {
				if (ng == truth_n) {
					bad = 1;
					break;
				}
				got[ng++] = items[i].address;
				want_hash = want_hash * HMUL + items[i].address + 1;
			}
	} while (rc == PMREGS_ENOSPC && !bad);
	want_n = ng;
	pmregs_etrace_smi_stream_init(&s, stream, stream_len, 1);
	while (pmregs_etrace_smi_stream_next(&s, &P, &it))
		lost += it.has_payload && it.payload.format == 3 && it.payload.subformat == 3 &&
			it.payload.qual_status == PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST;
	for (g = 0; g < ng && !bad; g++) {
		uint64_t u, k, lim;
		if (t < truth_n && truth[t] == got[g]) {
			t++;
			continue;
		}
		lim = truth_n - t < ((uint64_t)1 << 20) ? truth_n : t + ((uint64_t)1 << 20);
		for (u = t; u < lim; u++) {
			for (k = 0; k < 16 && g + k < ng && u + k < truth_n && truth[u + k] == got[g + k]; k++)
				;
			if (k == 16 || g + k == ng)
				break;
		}
		if (u == lim)
			bad = 1;
		gaps++;
		t = u + 1;
	}
	free(got);
	if (bad || d.errors || gaps > lost) {
		printf("  ** the fast decoder: %llu instructions, %llu inconsistencies, NOT the hart's (%llu gaps, %llu trace_lost)\n",
		       (unsigned long long)ng, (unsigned long long)d.errors, (unsigned long long)gaps, (unsigned long long)lost);
		return -1;
	}
	if (gaps)
		printf("  the hart's instructions, less %llu stretches not traced (the stream's %llu trace_lost): %llu instructions\n",
		       (unsigned long long)gaps, (unsigned long long)lost, (unsigned long long)ng);
	return 0;
}

static void measure(unsigned threads);

static void bench(const char *label, const struct pmregs_etrace_encoder_config *ec, unsigned threads)
{
	size_t cap = (size_t)NSEG * SEGLEN * 2;
	if (make_stream(ec, cap) != 0) {
		printf("%s: could not make the stream\n", label);
		return;
	}
	printf("%s: %llu retired instructions, %zu bytes of SMI stream (%.2f bits/instruction)\n", label,
	       (unsigned long long)truth_n, stream_len, 8.0 * (double)stream_len / (double)truth_n);
	verify();
	measure(threads);
}

/* The median CPU time of RUNS runs of run(), its result checked (what names it); lazy: the records cache
 * emptied before each. */
static double median_run(struct result (*run)(void), int lazy, const char *what)
{
	double t[RUNS];
	struct result r = {0, 0, 0};
	int i;
	for (i = 0; i < RUNS; i++) {
		if (lazy)
			memset(records, 0, sizeof *records * (size_t)((range.len + 1) / 2));
		t[i] = cpu_now();
		r = run();
		t[i] = cpu_now() - t[i];
	}
	check(what, r);
	qsort(t, RUNS, sizeof t[0], cmpd);
	return t[RUNS / 2];
}

/* The rows for the stream in stream[0..stream_len), whose instructions hash to want_hash (verify()). */
static void measure(unsigned threads)
{
	double naive_s, lazy_s, pre_s, each_lazy_s, each_pre_s, w_serial, w_par, w0;
	struct result r;
	int i;

	/* the naive decoder: once (it is slow) */
	naive_s = cpu_now();
	r = run_naive();
	naive_s = cpu_now() - naive_s;
	check("naive", r);

	/* lazily decoded records: each run starts with an empty cache */
	lazy_s = median_run(run_pmregs, 1, "pmregs, lazy");
	each_lazy_s = median_run(run_pmregs_each, 1, "pmregs_etrace_decode_smi_each(), lazy");
	/* records decoded before (the cache is then read-only) */
	pmregs_etrace_image_predecode(&range, img.xlen);
	pre_s = median_run(run_pmregs, 0, "pmregs, pre-decoded");
	each_pre_s = median_run(run_pmregs_each, 0, "pmregs_etrace_decode_smi_each(), pre-decoded");
	printf("%-52s %8.1f M instr/s %7.1fx naive\n", "  pmregs, image records pre-decoded", (double)want_n / pre_s * 1e-6, naive_s / pre_s);
	printf("%-52s %8.1f M instr/s %7.1fx naive\n", "  pmregs, image records decoded as met", (double)want_n / lazy_s * 1e-6, naive_s / lazy_s);
	printf("%-52s %8.1f M instr/s %7.1fx naive\n", "  pmregs, consumer form (_each), pre-decoded", (double)want_n / each_pre_s * 1e-6,
	       naive_s / each_pre_s);
	printf("%-52s %8.1f M instr/s %7.1fx naive\n", "  pmregs, consumer form (_each), decoded as met", (double)want_n / each_lazy_s * 1e-6,
	       naive_s / each_lazy_s);
	printf("%-52s %8.1f M instr/s\n", "  naive transliteration of the pseudo-code", (double)want_n / naive_s * 1e-6);

	/* parallel: chunks of at least 1/(16 threads) of the packets, on every core; wall times */
	nchunks = pmregs_etrace_smi_split(&P, stream, stream_len, 1, PMREGS_ETRACE_IOPTIONS_REF, 0, 0, chunks, MAXCHUNK);
	{
		uint64_t packets = 0;
		struct pmregs_etrace_smi_stream s;
		struct pmregs_etrace_smi_stream_item it;
		pmregs_etrace_smi_stream_init(&s, stream, stream_len, 1);
		while (pmregs_etrace_smi_stream_next(&s, &P, &it))
			packets += (uint64_t)it.has_payload;
		nchunks = pmregs_etrace_smi_split(&P, stream, stream_len, 1, PMREGS_ETRACE_IOPTIONS_REF, 0, packets / (16 * threads) + 1,
						  chunks, MAXCHUNK);
	}
	w_serial = w_par = 1e30;
	for (i = 0; i < RUNS; i++) {
		w0 = wall_now();
		r = run_pmregs_each();
		w0 = wall_now() - w0;
		w_serial = w0 < w_serial ? w0 : w_serial;
		w0 = wall_now();
		r = run_parallel(threads);
		w0 = wall_now() - w0;
		w_par = w0 < w_par ? w0 : w_par;
	}
	check("parallel", r);
	printf("  parallel (_each), %u threads, %zu chunks (split at restart packets): %.1f M instr/s wall, %.2fx one thread's wall time\n",
	       threads, nchunks, (double)want_n / w_par * 1e-6, w_serial / w_par);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = 0;
	long n;
	if (!f)
		return 0;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n)) != 0 &&
	    fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = 0;
	}
	fclose(f);
	*len = b ? (size_t)n : 0;
	return b;
}

/* ELF SMI PCS [NAME=VALUE...]: measure a given trace. */
static int real(int argc, char **argv, unsigned threads)
{
	size_t elf_len, np, k;
	unsigned char *elf = slurp(argv[1], &elf_len);
	const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&np);
	FILE *pcs = fopen(argv[3], "r");
	unsigned long long a;
	unsigned xlen = 0;
	int i;
	stream = slurp(argv[2], &stream_len);
	if (!elf || !stream || !pcs || pmregs_etrace_elf_ranges(elf, elf_len, &range, 1, &xlen) != 1) {
		printf("%s: cannot read %s, %s or %s\n", argv[0], argv[1], argv[2], argv[3]);
		return 1;
	}
	truth_n = 0;
	while (fscanf(pcs, "%llx", &a) == 1)
		if (truth_add(a) != 0)
			return 1;
	fclose(pcs);
	records = calloc((size_t)((range.len + 1) / 2), sizeof *records);
	range.cache = records;
	img.ranges = &range;
	img.nranges = 1;
	img.xlen = xlen;
	img.read = 0;
	img.ctx = 0;
	pmregs_etrace_params_default(&P);
	for (i = 4; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		for (k = 0; eq && k < np; k++)
			if (strlen(d[k].name) == (size_t)(eq - argv[i]) && strncmp(d[k].name, argv[i], (size_t)(eq - argv[i])) == 0)
				(void)pmregs_etrace_param_set(&P, k, strtoull(eq + 1, 0, 0));
	}
	printf("%s: %llu retired instructions, %zu bytes of SMI stream (%.2f bits/instruction); median of %d runs of CPU time\n",
	       argv[1], (unsigned long long)truth_n, stream_len, 8.0 * (double)stream_len / (double)truth_n, RUNS);
	verify();
	measure(threads);
	free(records);
	free(stream);
	free(elf);
	return 0;
}

int main(int argc, char **argv)
{
	struct pmregs_etrace_encoder_config ec;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned threads = cores < 1 ? 1u : cores > 64 ? 64u : (unsigned)cores;
	if (argc >= 4)
		return real(argc, argv, threads);
	hart_generate(&prog, 12345, 64, 0x80000000u, HART_FUNCS);
	records = calloc(prog.size / 2 + 1, sizeof *records);
	stream = malloc((size_t)NSEG * SEGLEN * 2);
	if (!records || !stream)
		return 1;
	range.base = prog.base;
	range.bytes = prog.img;
	range.len = prog.size;
	range.cache = records;
	img.ranges = &range;
	img.nranges = 1;
	img.xlen = 64;
	img.read = 0;
	img.ctx = 0;
	pmregs_etrace_params_default(&P);
	P.iaddress_width_p = 64;
	P.ecause_width_p = 5;
	P.return_stack_size_p = 3;
	P.cache_size_p = 4;
	P.bpred_size_p = 6;
	P.f0s_width_p = 1;
	printf("the hart model's random program: %u bytes of code; median of %d runs of CPU time; %u cores\n\n", prog.size, RUNS,
	       threads);
	pmregs_etrace_encoder_config_default(&ec);
	bench("baseline options", &ec, threads);
	printf("\n");
	memset(records, 0, sizeof *records * (size_t)((range.len + 1) / 2));
	ec.options = PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN | PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE | PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION;
	bench("return stack, jump target cache, branch prediction", &ec, threads);
	free(records);
	free(stream);
	return 0;
}
