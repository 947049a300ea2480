/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * E-Trace encoder throughput (`make bench`): the retired-instruction ingress
 * of a random program run on the tests' hart model (tests/c/etrace_hart.h:
 * calls, returns, loops, switch tables, traps and interrupts; branch
 * outcomes and indirect targets drawn at random, so the stream does not
 * repeat), 2 M retired instructions, encoded by <pmregs/etrace_encoder.h>
 * into an SMI stream, and by the naive transliteration of the flowchart
 * (tests/c/test_etrace_naive_encoder.h) into packet structs. Each row prints
 * retired instructions/s, packets/s and MB/s of stream bytes, and the ratio
 * to the naive encoder on the same ingress; every figure is the median of
 * several runs of CPU time. Numbers depend on the machine; the ratios are
 * the point. Never a pass/fail test.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pmregs/etrace_encoder.h>
#include "../c/etrace_hart.h"
#include "../c/test_etrace_naive_encoder.h"

#define NINSN (2u << 20)
#define RUNS 5

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct hart_prog prog;
static struct hart_event *ev;
static struct pmregs_etrace_ingress *single, *blocks;
static size_t nsingle, nblocks;
static unsigned char *out;
static size_t out_cap = (size_t)NINSN * 8;
static struct pmregs_etrace_encoder enc;
static uint64_t work[1 << 12];
static struct naive_enc naive;

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* encode in[0..n) into out; returns the CPU seconds, *bytes and *pkts the output */
static double run_pmregs(const struct pmregs_etrace_params *p, const struct pmregs_etrace_encoder_config *c,
			 const struct pmregs_etrace_ingress *in, size_t n, size_t *bytes, uint64_t *pkts)
{
	struct pmregs_etrace_smi f;
	size_t k = 0, used, o = 0;
	double t0, t1;
	pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	t0 = cpu_now();
	if (pmregs_etrace_encoder_init(&enc, p, c, work, sizeof work) != PMREGS_OK)
		return -1;
	while (k < n) {
		k += pmregs_etrace_encoder_run_smi(&enc, in + k, n - k, &f, out + o, out_cap - o, &used);
		o += used;
		if (out_cap - o < 4096)
			o = 0; /* keep writing, as a consumer that takes the bytes away would */
	}
	pmregs_etrace_encoder_finish(&enc, 0);
	pmregs_etrace_encoder_put_smi(&enc, &f, out + o, out_cap - o, &used);
	o += used;
	t1 = cpu_now();
	*bytes = o;
	*pkts = enc.stats.packets;
	return t1 - t0;
}

/* the same, the packets into an array of structs (as the naive encoder) */
static struct pmregs_etrace_te_inst pk[4096];
static double run_pmregs_structs(const struct pmregs_etrace_params *p, const struct pmregs_etrace_encoder_config *c,
				 const struct pmregs_etrace_ingress *in, size_t n, uint64_t *pkts)
{
	size_t k = 0, got;
	double t0 = cpu_now();
	if (pmregs_etrace_encoder_init(&enc, p, c, work, sizeof work) != PMREGS_OK)
		return -1;
	while (k < n)
		k += pmregs_etrace_encoder_run(&enc, in + k, n - k, pk, 4096, &got);
	pmregs_etrace_encoder_finish(&enc, 0);
	got = pmregs_etrace_encoder_take(&enc, pk, 4096);
	*pkts = enc.stats.packets;
	return cpu_now() - t0;
}

static double run_naive(const struct pmregs_etrace_params *p, const struct pmregs_etrace_ingress *in, size_t n, uint64_t *pkts)
{
	size_t k, total = 0;
	double t0 = cpu_now();
	naive_init(&naive, p, 0, 16);
	for (k = 0; k < n; k++) {
		naive_step(&naive, &in[k]);
		if (naive.n > NAIVE_OUT - 64) {
			total += naive.n;
			naive.n = 0;
		}
	}
	naive_finish(&naive);
	*pkts = total + naive.n;
	return cpu_now() - t0;
}

static void row(const char *name, double sec, size_t insns, uint64_t pkts, size_t bytes, double naive_sec)
{
	printf("%-46s %8.1f M instr/s %7.2f M pkt/s %7.1f MB/s", name, (double)insns / sec / 1e6, (double)pkts / sec / 1e6,
	       (double)bytes / sec / 1e6);
	if (naive_sec > 0)
		printf("  %5.1fx naive", naive_sec / sec);
	printf("\n");
}

int main(void)
{
	struct pmregs_etrace_params p;
	struct pmregs_etrace_encoder_config c;
	struct hart_log l;
	struct hart_opts o;
	size_t nt, bytes = 0, i;
	uint64_t pkts = 0, npk = 0;
	double t[RUNS], naive_med, base_med;
	uint64_t *truth;
	int r;

	ev = malloc(sizeof *ev * NINSN);
	single = malloc(sizeof *single * (NINSN + NINSN / 4));
	blocks = malloc(sizeof *blocks * (NINSN + NINSN / 4));
	truth = malloc(sizeof *truth * NINSN);
	out = malloc(out_cap);
	if (!ev || !single || !blocks || !truth || !out)
		return 1;
	hart_generate(&prog, 12345, 64, 0x80000000u, HART_FUNCS);
	l.ev = ev;
	l.n = 0;
	l.cap = NINSN;
	hart_run(&prog, 777, 2000, 0, NINSN, hart_log_sink, &l);
	memset(&o, 0, sizeof o);
	o.itype_width = 4;
	o.seed = 99;
	o.block_max = 1;
	nsingle = hart_ingress(ev, l.n, &o, single, NINSN + NINSN / 4, truth, NINSN, &nt, 0);
	o.block_max = 8;
	nblocks = hart_ingress(ev, l.n, &o, blocks, NINSN + NINSN / 4, truth, NINSN, &nt, 0);
	printf("ingress: %lu retired instructions from the hart model, %lu single-retirement blocks, %lu blocks of up to 8\n",
	       (unsigned long)l.n, (unsigned long)nsingle, (unsigned long)nblocks);

	pmregs_etrace_params_default(&p);
	p.iaddress_width_p = 64;
	p.ecause_width_p = 5;
	p.return_stack_size_p = 3;
	p.cache_size_p = 4;
	p.bpred_size_p = 6;
	p.f0s_width_p = 1;

	for (r = 0; r < RUNS; r++)
		t[r] = run_naive(&p, single, nsingle, &npk);
	qsort(t, RUNS, sizeof t[0], cmpd);
	naive_med = t[RUNS / 2];

	pmregs_etrace_encoder_config_default(&c);
	for (r = 0; r < RUNS; r++)
		t[r] = run_pmregs(&p, &c, single, nsingle, &bytes, &pkts);
	qsort(t, RUNS, sizeof t[0], cmpd);
	base_med = t[RUNS / 2];
	if (pkts != npk)
		printf("(the naive encoder wrote %lu packets, pmregs %lu)\n", (unsigned long)npk, (unsigned long)pkts);
	row("pmregs, single retirement, baseline -> SMI", base_med, l.n, pkts, bytes, naive_med);
	for (r = 0; r < RUNS; r++)
		t[r] = run_pmregs_structs(&p, &c, single, nsingle, &pkts);
	qsort(t, RUNS, sizeof t[0], cmpd);
	row("pmregs, single retirement, baseline -> structs", t[RUNS / 2], l.n, pkts, 0, naive_med);
	row("naive flowchart, single retirement, baseline", naive_med, l.n, npk, 0, 0);

	for (r = 0; r < RUNS; r++)
		t[r] = run_pmregs(&p, &c, blocks, nblocks, &bytes, &pkts);
	qsort(t, RUNS, sizeof t[0], cmpd);
	row("pmregs, blocks of up to 8, baseline -> SMI", t[RUNS / 2], l.n, pkts, bytes, naive_med);

	/* the options of riscv-etrace's generator, for side-by-side figures: no resynchronisation */
	c.resync_max = 0;
	for (r = 0; r < RUNS; r++)
		t[r] = run_pmregs(&p, &c, single, nsingle, &bytes, &pkts);
	qsort(t, RUNS, sizeof t[0], cmpd);
	row("pmregs, single retirement, no resync -> SMI", t[RUNS / 2], l.n, pkts, bytes, naive_med);
	c.resync_max = 16;

	c.options = PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN | PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE |
		    PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION;
	for (r = 0; r < RUNS; r++)
		t[r] = run_pmregs(&p, &c, single, nsingle, &bytes, &pkts);
	qsort(t, RUNS, sizeof t[0], cmpd);
	row("pmregs, single, return stack+cache+predictor", t[RUNS / 2], l.n, pkts, bytes, naive_med);
	for (i = 0; i < 1; i++)
		(void)i;
	free(ev);
	free(single);
	free(blocks);
	free(truth);
	free(out);
	return 0;
}
