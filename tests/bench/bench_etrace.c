/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * E-Trace codec throughput (`make bench`): the generated te_inst decoder and
 * encoder against a naive bit-at-a-time codec written from the manual's tables
 * (tests/c/test_etrace_naive.h), measured side by side on the same realistic
 * stream, plus the encapsulation stream walker. Numbers depend on the machine;
 * the ratios are the point. Never a pass/fail test.
 *
 * The stream: 64-bit addresses traced from bit 1, a 4-entry return stack;
 * 45% format 1 with 1..31 branches and a small differential address, 30%
 * format 2, 10% format 1 with a full map and no address, 10% format 3
 * (start, trap, context, support), 5% format 0, in random order. Times are
 * CPU time of this process, so a busy machine slows the numbers less.
 *
 * What limits decoding (measured with valgrind --tool=callgrind
 * --branch-sim=yes on this stream; the target was 100M packets/s on one core):
 *   - about 140 instructions per packet in the decoder proper, some 8 per
 *     field (position, width from the parameters, one unaligned load, shift,
 *     mask, store) plus zeroing the 27-member packet struct, plus about 40 to
 *     build the sign-extended copy (plain decode: 60 and a branch on the
 *     length class, which mispredicts on a random mix of lengths);
 *   - one branch mispredict per packet on average, on the format/branches
 *     decisions: on a random mix of shapes they are unpredictable by nature.
 * The "format 1 packets only" row shows the cost without shape mispredicts.
 * Baking a parameter set in at compile time, or decoding only the fields a
 * caller needs, would be the next steps towards 100M packets/s on a mix.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pmregs/etrace.h>
#include "../c/test_etrace_naive.h"

#define NPKT 200000

#define TEST_SEED 0x9E3779B97F4A7C15u
#include "../common/xorshift.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: one core's throughput, fair on a busy machine */
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct pmregs_etrace_params P;
static struct pmregs_etrace_te_inst pk[NPKT], out[NPKT];
static unsigned char bytes[NPKT * 32];
static size_t off[NPKT + 1];
static unsigned char stream[NPKT * 40];
static size_t stream_len;

/* A small signed differential address in A bits. */
static uint64_t diff(unsigned A, unsigned bits)
{
	uint64_t d = rnd() & ((1ull << bits) - 1);
	if (rnd() & 1)
		d = (uint64_t)0 - d;
	return A >= 64 ? d : d & ((1ull << A) - 1);
}

static void make_packet(struct pmregs_etrace_te_inst *t)
{
	unsigned A = 63, r = (unsigned)(rnd() % 100);
	struct pmregs_etrace_te_inst_semantic s;
	memset(&s, 0, sizeof s);
	if (r < 45) {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
		t->branches = (uint8_t)(1 + rnd() % 31);
		t->branch_map = (uint32_t)(rnd() & ((1u << nv_maplen(t->branches)) - 1) & ((1u << t->branches) - 1));
		t->address = diff(A, 4 + (unsigned)(rnd() % 12));
	} else if (r < 75) {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		t->address = diff(A, 4 + (unsigned)(rnd() % 16));
		s.irreport = (rnd() % 16) == 0;
		s.irdepth_reported = s.irreport;
		s.irdepth = rnd() % 8;
	} else if (r < 85) {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
		t->branch_map = (uint32_t)(rnd() & 0x7FFFFFFF);
	} else if (r < 95) {
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
	} else {
		pmregs_etrace_te_inst_init(t, PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR);
		t->branch_count = (uint32_t)(rnd() % 1000);
		t->branch_fmt = 2;
		t->address = diff(A, 8);
	}
	pmregs_etrace_te_inst_semantic_set(&P, t, &s);
}

struct row {
	const char *what;
	double pps, mbs;
};

static void print_row(const char *what, double secs, long packets, size_t nbytes, double base)
{
	double pps = (double)packets / secs, mbs = (double)nbytes / secs / 1e6;
	printf("%-44s %10.1f M packets/s %9.1f MB/s", what, pps / 1e6, mbs);
	if (base > 0)
		printf("   %6.1fx naive", pps / base);
	printf("\n");
}

int main(void)
{
	long i, reps, k;
	double t0, t, base_dec, base_enc;
	uint64_t sink = 0;
	size_t total;
	static struct pmregs_etrace_te_inst one;
	pmregs_etrace_params_default(&P);
	P.iaddress_width_p = 64;
	P.return_stack_size_p = 2;
	P.encap_srcid_bits = 8;
	if (pmregs_etrace_params_check(&P) != PMREGS_OK)
		return 1;
	off[0] = 0;
	for (i = 0; i < NPKT; i++) {
		int n;
		make_packet(&pk[i]);
		n = pmregs_etrace_te_inst_encode(&P, &pk[i], bytes + off[i], 32);
		if (n <= 0)
			return 1;
		off[i + 1] = off[i] + (size_t)n;
	}
	total = off[NPKT];
	for (i = 0; i < NPKT; i++) {
		struct pmregs_etrace_encap f;
		int n;
		pmregs_etrace_encap_init(&f, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
		f.srcid = 1;
		n = pmregs_etrace_encap_encode(&P, &f, bytes + off[i], off[i + 1] - off[i], stream + stream_len, 64);
		if (n <= 0)
			return 1;
		stream_len += (size_t)n;
	}
	printf("stream: %d packets, %zu payload bytes (%.2f bytes/packet), %zu bytes encapsulated\n\n", NPKT, total,
	       (double)total / NPKT, stream_len);

	/* naive decode */
	reps = 0;
	t0 = now();
	do {
		for (i = 0; i < NPKT; i++) {
			nv_decode(&P, bytes + off[i], off[i + 1] - off[i], &one);
			sink += one.address ^ one.branch_map;
		}
		reps++;
	} while ((t = now() - t0) < 0.5);
	base_dec = (double)(reps * NPKT) / t;
	print_row("decode, naive bit-at-a-time", t, reps * NPKT, reps * total, 0);
	/* generated decode */
	reps = 0;
	t0 = now();
	do {
		for (k = 0; k < 10; k++)
			for (i = 0; i < NPKT; i++) {
				pmregs_etrace_te_inst_decode(&P, bytes + off[i], off[i + 1] - off[i], &one);
				sink += one.address ^ one.branch_map;
			}
		reps += 10;
	} while ((t = now() - t0) < 1.0);
	print_row("decode, pmregs_etrace_te_inst_decode", t, reps * NPKT, reps * total, base_dec);
	/* the same from a capture buffer with room after each packet: no branch on the length */
	reps = 0;
	t0 = now();
	do {
		for (k = 0; k < 10; k++)
			for (i = 0; i < NPKT; i++) {
				pmregs_etrace_te_inst_decode_padded(&P, bytes + off[i], off[i + 1] - off[i], &one);
				sink += one.address ^ one.branch_map;
			}
		reps += 10;
	} while ((t = now() - t0) < 1.0);
	print_row("decode, ..._decode_padded (capture buffer)", t, reps * NPKT, reps * total, base_dec);
	for (i = 0; i < NPKT; i++)
		pmregs_etrace_te_inst_decode(&P, bytes + off[i], off[i + 1] - off[i], &out[i]);
	for (i = 0; i < NPKT; i++) {
		unsigned char c[32];
		int n = pmregs_etrace_te_inst_encode(&P, &out[i], c, sizeof c);
		if (n != (int)(off[i + 1] - off[i]) || memcmp(c, bytes + off[i], (size_t)n) != 0) {
			printf("decode mismatch at packet %ld\n", i);
			return 1;
		}
	}
	/* the same decoder on a stream of format 1 packets only: no shape mispredicts */
	{
		static unsigned char one_bytes[NPKT * 16];
		static size_t one_off[NPKT + 1];
		size_t ototal;
		one_off[0] = 0;
		for (i = 0; i < NPKT; i++) {
			struct pmregs_etrace_te_inst q;
			int n;
			pmregs_etrace_te_inst_init(&q, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
			q.branches = (uint8_t)(1 + rnd() % 31);
			q.branch_map = (uint32_t)(rnd() & ((1u << nv_maplen(q.branches)) - 1));
			q.address = diff(63, 4 + (unsigned)(rnd() % 12));
			n = pmregs_etrace_te_inst_encode(&P, &q, one_bytes + one_off[i], 16);
			if (n <= 0)
				return 1;
			one_off[i + 1] = one_off[i] + (size_t)n;
		}
		ototal = one_off[NPKT];
		reps = 0;
		t0 = now();
		do {
			for (k = 0; k < 10; k++)
				for (i = 0; i < NPKT; i++) {
					pmregs_etrace_te_inst_decode_padded(&P, one_bytes + one_off[i], one_off[i + 1] - one_off[i],
									    &one);
					sink += one.address ^ one.branch_map;
				}
			reps += 10;
		} while ((t = now() - t0) < 1.0);
		print_row("decode_padded, format 1 packets only", t, reps * NPKT, reps * ototal, base_dec);
	}
	/* naive encode */
	reps = 0;
	t0 = now();
	do {
		size_t o = 0;
		for (i = 0; i < NPKT; i++)
			o += (size_t)nv_encode(&P, &pk[i], bytes + o, 0);
		sink += o;
		reps++;
	} while ((t = now() - t0) < 0.5);
	base_enc = (double)(reps * NPKT) / t;
	print_row("encode, naive bit-at-a-time", t, reps * NPKT, reps * total, 0);
	/* generated encode */
	reps = 0;
	t0 = now();
	do {
		size_t o = 0;
		for (k = 0; k < 5; k++) {
			o = 0;
			for (i = 0; i < NPKT; i++)
				o += (size_t)pmregs_etrace_te_inst_encode(&P, &pk[i], bytes + o, 32);
		}
		sink += o;
		reps += 5;
	} while ((t = now() - t0) < 1.0);
	print_row("encode, pmregs_etrace_te_inst_encode", t, reps * NPKT, reps * total, base_enc);
	/* the stream walker: frame header + payload realignment + decode */
	reps = 0;
	t0 = now();
	do {
		struct pmregs_etrace_encap_stream s;
		static struct pmregs_etrace_encap_stream_item it;
		pmregs_etrace_encap_stream_init(&s, stream, stream_len, 1);
		while (pmregs_etrace_encap_stream_next(&s, &P, &it))
			sink += it.payload.address;
		reps++;
	} while ((t = now() - t0) < 1.0);
	print_row("encapsulated stream walk + decode", t, reps * NPKT, reps * stream_len, base_dec);
	printf("\n(checksum %llx)\n", (unsigned long long)sink);
	printf("what limits it: instructions per field and one shape mispredict per packet (see bench_etrace.c)\n");
	return 0;
}
