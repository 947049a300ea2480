/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * E-Trace stream throughput (`make bench`): te_inst packets in Siemens-style
 * (SMI) messages, 64-bit addresses traced from bit 1, walked and decoded, and
 * encoded and framed, by the generated header and by a naive bit-at-a-time
 * codec written from the manual's tables (tests/c/test_etrace_naive.h).
 *
 * The walk rows read a trace that does not repeat: random programs of the
 * tests' hart model (tests/c/etrace_hart.h; branch outcomes, indirect targets
 * and interrupts drawn at random) run for about 4 M packets' worth of retired
 * instructions, in segments with different seeds, each encoded by
 * <pmregs/etrace_encoder.h> with its baseline options: the mix of formats a
 * program gives (printed). The encode rows cycle through a pool of 64 K
 * seeded packets (about 59% format 1, 37% format 2 and 4% format 3) and
 * check that they reproduce the bytes of that pool's stream. With the
 * arguments "dump FILE" the walk stream is written to FILE, for a peer's
 * decoder to read the same bytes with the same parameters (printed). Every
 * figure is the median of several runs of CPU time (a busy machine slows it
 * less than wall time); each row prints packets/s, MB/s of stream bytes, the
 * ratio to the naive codec and the ratio of its time to a memcpy of the same
 * bytes (the physical bound: 1.0x would be as fast as copying). Numbers depend
 * on the machine; the ratios are the point. Never a pass/fail test.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pmregs/etrace.h>
#include <pmregs/etrace_encoder.h>
#include "../c/test_etrace_naive.h"
#include "../c/etrace_hart.h"

#define NPKT (4u << 20)  /* packets in the encode rows' stream, and at least that many in the walk rows' */
#define SEGLEN (1u << 20) /* retired instructions per run of the hart model */
#define NPOOL (1u << 16) /* distinct packets the encoder cycles through */
#define RUNS 5

#define TEST_SEED 0x9E3779B97F4A7C15u
#include "../common/xorshift.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct pmregs_etrace_params P;
/*
 * The same block as a compile-time constant (main() checks that it equals P):
 * the default parameters with 64-bit addresses, 5-bit causes and a 4-entry
 * return stack, in struct order like the spec's PMREGS_ETRACE_PRESET_*
 * initialisers.
 */
static const struct pmregs_etrace_params PC = {64, 1, 2, 5, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 1, 5, 4, 0, 0, 0, 0, 0, 0, 0,
							32, 32, 1, 3, 2, 0, 0, 0, 2};
static struct pmregs_etrace_te_inst pool[NPOOL];
static unsigned char *stream, *copy, *walk; /* the pool's stream, scratch, the walk rows' stream */
static size_t stream_len, walk_len, walk_n;
static uint64_t sink;

/* A small signed differential address in A bits. */
static uint64_t diff(unsigned A, unsigned bits)
{
	uint64_t d = rnd() & ((1ull << bits) - 1);
	if (rnd() & 1)
		d = (uint64_t)0 - d;
	return A >= 64 ? d : d & ((1ull << A) - 1);
}

/* 59% format 1 (one in ten with a full map and no address), 37% format 2, 4% format 3. */
static void make_packet(struct pmregs_etrace_te_inst *t)
{
	unsigned A = 63, r = (unsigned)(rnd() % 100);
	struct pmregs_etrace_te_inst_semantic s;
	memset(&s, 0, sizeof s);
	if (r < 53) {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
		t->branches = (uint8_t)(1 + rnd() % 31);
		t->branch_map = (uint32_t)(rnd() & ((1u << nv_maplen(t->branches)) - 1) & ((1u << t->branches) - 1));
		t->address = diff(A, 4 + (unsigned)(rnd() % 12));
	} else if (r < 59) {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
		t->branch_map = (uint32_t)(rnd() & 0x7FFFFFFF);
	} else if (r < 96) {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		t->address = diff(A, 4 + (unsigned)(rnd() % 16));
		s.irreport = (rnd() % 16) == 0;
		s.irdepth_reported = s.irreport;
		s.irdepth = rnd() % 8;
	} else {
		static const unsigned sh[4] = {PMREGS_ETRACE_TE_INST_SHAPE_START, PMREGS_ETRACE_TE_INST_SHAPE_TRAP,
					       PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT};
		pmregs_etrace_te_inst_init(t, sh[rnd() % 4]);
		t->branch = 1;
		t->privilege = 3;
		t->address = 0x40000000u + (rnd() & 0xFFFFF);
		t->ecause = rnd() % 16;
		t->interrupt = (uint8_t)(rnd() & 1);
		t->thaddr = 1;
		t->tval = t->interrupt ? 0 : (rnd() & 0xFFFF);
		t->ienable = 1;
		t->ioptions = 4;
	}
	pmregs_etrace_te_inst_semantic_set(&P, t, &s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

typedef void (*run_fn)(void);

/* The median CPU time of RUNS calls. */
static double median_time(run_fn f)
{
	double t[RUNS];
	int i;
	for (i = 0; i < RUNS; i++) {
		double t0 = cpu_now();
		f();
		t[i] = cpu_now() - t0;
	}
	qsort(t, RUNS, sizeof t[0], cmp_double);
	return t[RUNS / 2];
}

static double t_memcpy;

static void row_of(const char *what, double secs, double naive_secs, double npkt, double bytes)
{
	printf("%-40s %8.1f M packets/s %8.1f MB/s", what, npkt / secs / 1e6, bytes / secs / 1e6);
	if (naive_secs > 0)
		printf(" %7.1fx naive", naive_secs / secs);
	else
		printf(" %13s", "");
	printf(" %7.1fx memcpy\n", secs / t_memcpy);
}

/* A row of the encode rows' stream, and of the walk rows' one. */
static void row(const char *what, double secs, double naive_secs)
{
	row_of(what, secs, naive_secs, NPKT, (double)stream_len);
}

static void wrow(const char *what, double secs, double naive_secs)
{
	row_of(what, secs, naive_secs, (double)walk_n, (double)walk_len);
}

/*
 * The walk rows' stream: runs of SEGLEN retired instructions of one random
 * program, each with its own seed, encoded one after the other (each run
 * starts with a support packet and a sync and ends with a support packet)
 * until NPKT packets are written.
 */
static int make_walk_stream(size_t cap)
{
	static struct pmregs_etrace_encoder enc;
	static struct hart_prog prog;
	static uint64_t work[1 << 12];
	struct pmregs_etrace_encoder_config ec;
	struct hart_event *ev = malloc(sizeof *ev * SEGLEN);
	struct pmregs_etrace_ingress *in = malloc(sizeof *in * (SEGLEN + SEGLEN / 4));
	uint64_t *seg = malloc(sizeof *seg * SEGLEN);
	struct pmregs_etrace_smi f;
	unsigned s;
	int rc = -1;
	if (!ev || !in || !seg)
		goto out;
	hart_generate(&prog, 12345, 64, 0x80000000u, HART_FUNCS);
	pmregs_etrace_encoder_config_default(&ec);
	pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	for (s = 0; walk_n < NPKT; s++) {
		size_t nin, nt, before = walk_len;
		struct pmregs_etrace_smi_stream w;
		struct pmregs_etrace_smi_stream_item it;
		nin = hart_bench_segment(&prog, s, SEGLEN, ev, in, seg, &nt);
		if (hart_encode_smi(&enc, &P, &ec, work, sizeof work, in, nin, &f, walk, cap, &walk_len) != 0)
			goto out;
		pmregs_etrace_smi_stream_init(&w, walk + before, walk_len - before, 1);
		while (pmregs_etrace_smi_stream_next(&w, &P, &it)) {
			if (it.status != PMREGS_OK || !it.has_payload)
				goto out;
			walk_n++;
		}
	}
	rc = 0;
out:
	free(ev);
	free(in);
	free(seg);
	return rc;
}

/* The walk stream's formats, in per cent (format 3 by subformat). */
static void walk_mix(void)
{
	struct pmregs_etrace_smi_stream w;
	struct pmregs_etrace_smi_stream_item it;
	size_t n[8] = {0};
	pmregs_etrace_smi_stream_init(&w, walk, walk_len, 1);
	while (pmregs_etrace_smi_stream_next(&w, &P, &it))
		n[it.payload.format < 3 ? it.payload.format : 4u + it.payload.subformat]++;
	printf("walk stream: %zu SMI messages, %zu bytes (%.2f bytes/message) from the hart model, format 0 %.1f%%, 1 %.1f%%, "
	       "2 %.1f%%, 3.0 %.1f%%, 3.1 %.1f%%, 3.2 %.1f%%, 3.3 %.1f%%\n",
	       walk_n, walk_len, (double)walk_len / (double)walk_n, 100.0 * (double)n[0] / (double)walk_n,
	       100.0 * (double)n[1] / (double)walk_n, 100.0 * (double)n[2] / (double)walk_n,
	       100.0 * (double)n[4] / (double)walk_n, 100.0 * (double)n[5] / (double)walk_n,
	       100.0 * (double)n[6] / (double)walk_n, 100.0 * (double)n[7] / (double)walk_n);
	printf("parameters: iaddress_width_p=%u,iaddress_lsb_p=%u,ecause_width_p=%u,privilege_width_p=%u,"
	       "return_stack_size_p=%u,call_counter_size_p=%u,nocontext_p=%u,notime_p=%u\n",
	       P.iaddress_width_p, P.iaddress_lsb_p, P.ecause_width_p, P.privilege_width_p, P.return_stack_size_p,
	       P.call_counter_size_p, P.nocontext_p, P.notime_p);
}

static void run_memcpy(void)
{
	memcpy(copy, walk, walk_len);
	sink += copy[walk_len / 2];
}

/* Naive walker: the SMI header by hand (no index, no timestamp), then the bit-at-a-time decoder. */
static void run_naive_decode(void)
{
	size_t pos = 0;
	struct pmregs_etrace_te_inst t;
	while (pos < walk_len) {
		unsigned h = walk[pos], n = h & 31u;
		if (n == 0) {
			pos++;
			continue;
		}
		if (nv_decode(&P, walk + pos + 1, n, &t) == 0)
			sink += t.address ^ t.branch_map;
		pos += 1 + n;
	}
}

/* The documented walker: pmregs_etrace_smi_stream_next() with the full te_inst decode. */
static void run_walker(void)
{
	struct pmregs_etrace_smi_stream s;
	static struct pmregs_etrace_smi_stream_item it;
	pmregs_etrace_smi_stream_init(&s, walk, walk_len, 1);
	while (pmregs_etrace_smi_stream_next(&s, &P, &it))
		sink += it.payload.address ^ it.payload.branch_map;
}

/* The walker with the frame's and the payload's layouts filled once (pmregs_etrace_smi_stream_next_l()). */
static void run_walker_l(void)
{
	struct pmregs_etrace_smi_stream s;
	static struct pmregs_etrace_smi_stream_item it;
	struct pmregs_etrace_smi_layout FL;
	struct pmregs_etrace_te_inst_layout L;
	pmregs_etrace_smi_layout_init(&P, &FL);
	pmregs_etrace_te_inst_layout_init(&P, &L);
	pmregs_etrace_smi_stream_init(&s, walk, walk_len, 1);
	while (pmregs_etrace_smi_stream_next_l(&s, &P, &FL, &L, &it))
		sink += it.payload.address ^ it.payload.branch_map;
}

/* The batch decoder, 64 payloads per call (this stream has no fill or other message types to stop it). */
static void run_batch(void)
{
	struct pmregs_etrace_smi_stream s;
	static struct pmregs_etrace_te_inst out[64];
	size_t k, j;
	pmregs_etrace_smi_stream_init(&s, walk, walk_len, 1);
	while ((k = pmregs_etrace_smi_stream_batch(&s, &P, out, 64)) > 0)
		for (j = 0; j < k; j++)
			sink += out[j].address ^ out[j].branch_map;
}

/* The batch decoder with the constant block: every width folds into the code. */
static void run_batch_const(void)
{
	struct pmregs_etrace_smi_stream s;
	static struct pmregs_etrace_te_inst out[64];
	size_t k, j;
	pmregs_etrace_smi_stream_init(&s, walk, walk_len, 1);
	while ((k = pmregs_etrace_smi_stream_batch(&s, &PC, out, 64)) > 0)
		for (j = 0; j < k; j++)
			sink += out[j].address ^ out[j].branch_map;
}

/* A te_inst message header (SMI, message type 2): what every framed encode below writes. */
static struct pmregs_etrace_smi te_inst_message(void)
{
	struct pmregs_etrace_smi f;
	pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	return f;
}

/*
 * Framed encode in two steps, pmregs_etrace_te_inst_encode() then
 * pmregs_etrace_smi_encode(); inlined so that a constant block folds.
 */
PMREGS_HOT void encode_two_steps(const struct pmregs_etrace_params *p)
{
	size_t o = 0;
	unsigned i;
	struct pmregs_etrace_smi f = te_inst_message();
	for (i = 0; i < NPKT; i++) {
		unsigned char pl[32];
		int n = pmregs_etrace_te_inst_encode(p, &pool[i & (NPOOL - 1)], pl, sizeof pl);
		n = pmregs_etrace_smi_encode(p, &f, pl, (size_t)n, copy + o, 64);
		o += (size_t)n;
	}
	sink += o;
}

/* Framed encode in one pass, pmregs_etrace_smi_stream_put() (no copy of the payload); inlined likewise. */
PMREGS_HOT void encode_put(const struct pmregs_etrace_params *p)
{
	size_t o = 0;
	unsigned i;
	struct pmregs_etrace_smi f = te_inst_message();
	for (i = 0; i < NPKT; i++)
		o += (size_t)pmregs_etrace_smi_stream_put(p, &f, &pool[i & (NPOOL - 1)], copy + o, 64);
	sink += o;
}

static void run_encode(void)
{
	encode_two_steps(&P);
}

static void run_encode_const(void)
{
	encode_two_steps(&PC);
}

static void run_put(void)
{
	encode_put(&P);
}

static void run_put_const(void)
{
	encode_put(&PC);
}

/* Naive framed encode: the bit-at-a-time encoder, then a header byte. */
static void run_naive_encode(void)
{
	size_t o = 0;
	unsigned i;
	for (i = 0; i < NPKT; i++) {
		int n = nv_encode(&P, &pool[i & (NPOOL - 1)], copy + o + 1, 0);
		copy[o] = (unsigned char)(n | (2 << 5));
		o += 1 + (size_t)n;
	}
	sink += o;
}

/* The batch writer, 64 payloads per call. */
static void run_put_batch(void)
{
	size_t o = 0, used;
	unsigned i;
	struct pmregs_etrace_smi f = te_inst_message();
	for (i = 0; i < NPKT; i += 64) {
		pmregs_etrace_smi_stream_put_batch(&P, &f, &pool[i & (NPOOL - 1)], 64, copy + o, 64 * 40, &used);
		o += used;
	}
	sink += o;
}

/* One row's work once, for an instruction count: valgrind --tool=callgrind build/bench/bench_etrace walker */
static const struct {
	const char *name;
	run_fn fn;
} one_run[] = {{"naive", run_naive_decode}, {"walker", run_walker}, {"walker_l", run_walker_l}, {"batch", run_batch},
	       {"naive_encode", run_naive_encode}, {"encode", run_encode},
	       {"batch_const", run_batch_const}, {"encode_const", run_encode_const}, {"put", run_put},
	       {"put_const", run_put_const}, {"put_batch", run_put_batch}};

int main(int argc, char **argv)
{
	unsigned i;
	double naive;
	pmregs_etrace_params_default(&P);
	P.iaddress_width_p = 64;
	P.ecause_width_p = 5;
	P.return_stack_size_p = 2;
	if (pmregs_etrace_params_check(&P) != PMREGS_OK || memcmp(&P, &PC, sizeof P) != 0) {
		printf("the constant parameters PC are not the defaults with 64-bit addresses, 5-bit causes and a return stack\n");
		return 1;
	}
	stream = malloc((size_t)NPKT * 40 + 64);
	copy = malloc((size_t)NPKT * 40 + 64);
	walk = malloc((size_t)NPKT * 40 + 64);
	if (!stream || !copy || !walk)
		return 1;
	if (make_walk_stream((size_t)NPKT * 40) != 0) {
		printf("the hart model's trace did not encode\n");
		return 1;
	}
	if (argc == 3 && strcmp(argv[1], "dump") == 0) {
		FILE *o = fopen(argv[2], "wb");
		if (!o || fwrite(walk, 1, walk_len, o) != walk_len || fclose(o) != 0)
			return 1;
		walk_mix();
		return 0;
	}
	for (i = 0; i < NPOOL; i++)
		make_packet(&pool[i]);
	/* the stream: the pool in order, so the encoder rows produce the same bytes */
	for (i = 0; i < NPKT; i++) {
		struct pmregs_etrace_smi f = te_inst_message();
		unsigned char pl[32];
		int n = pmregs_etrace_te_inst_encode(&P, &pool[i & (NPOOL - 1)], pl, sizeof pl);
		if (n <= 0)
			return 1;
		n = pmregs_etrace_smi_encode(&P, &f, pl, (size_t)n, stream + stream_len, 64);
		if (n <= 0)
			return 1;
		stream_len += (size_t)n;
	}
	if (argc > 1) {
		for (i = 0; i < sizeof one_run / sizeof one_run[0]; i++)
			if (strcmp(argv[1], one_run[i].name) == 0) {
				one_run[i].fn();
				return 0;
			}
		return 2;
	}
	walk_mix();
	printf("encode stream: %u SMI messages, %zu bytes (%.2f bytes/message); median of %d runs of CPU time\n\n", NPKT,
	       stream_len, (double)stream_len / NPKT, RUNS);
	t_memcpy = median_time(run_memcpy);
	wrow("memcpy of the walk stream", t_memcpy, 0);
	naive = median_time(run_naive_decode);
	wrow("walk + decode, naive bit-at-a-time", naive, naive);
	wrow("walk + decode, smi_stream_next", median_time(run_walker), naive);
	wrow("walk + decode, smi_stream_next_l", median_time(run_walker_l), naive);
	wrow("walk + decode, smi_stream_batch", median_time(run_batch), naive);
	wrow("walk + decode, batch, constant params", median_time(run_batch_const), naive);
	run_encode();
	if (memcmp(copy, stream, stream_len) != 0) {
		printf("framed encode does not reproduce the stream\n");
		return 1;
	}
	naive = median_time(run_naive_encode);
	row("framed encode, naive bit-at-a-time", naive, naive);
	row("framed encode, te_inst_encode+smi_encode", median_time(run_encode), naive);
	row("framed encode, 2 steps, constant params", median_time(run_encode_const), naive);
	memset(copy, 0, stream_len);
	run_put();
	if (memcmp(copy, stream, stream_len) != 0) {
		printf("smi_stream_put does not reproduce the stream\n");
		return 1;
	}
	row("framed encode, smi_stream_put", median_time(run_put), naive);
	row("framed encode, put, constant params", median_time(run_put_const), naive);
	row("framed encode, stream_put_batch", median_time(run_put_batch), naive);
	printf("\n(checksum %llx)\n", (unsigned long long)sink);
	return 0;
}
