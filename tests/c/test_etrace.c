/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Tests of <pmregs/etrace.h>: the E-Trace specification's worked examples,
 * the choices spec/etrace.yaml makes where sources disagree, the generated
 * codec against a naive bit-at-a-time codec written from the manual's tables
 * (test_etrace_naive.h), random round trips (1M packets for each of 9
 * parameter sets), every truncation of valid packets and frames, the
 * semantic view, the framings, the stream walker's re-synchronisation and
 * the one-pass writers. The random rounds, random byte strings and random
 * streams are test_scale()'s: fewer in the 32-bit and emulated big-endian
 * runs, whose point is the word size and the byte order; the writers', the
 * semantic view's and the fast paths' packets are fewer there too.
 *
 * pmregs-test: long-run (make check starts its native run among the first: the run, not the build, takes the
 * time)
 * pmregs-test: no-inline (its 32-bit and emulated builds at -Og, which costs less build than -O1 and less run
 * than -O0)
 * pmregs-test: no-force-inline (its native gcc -O2 build also defines PMREGS_NO_FORCE_INLINE, a third of
 * the build time: no path it checks depends on the inlining; the one that does, the stream readers'
 * constant-parameter path, is test_etrace_word's)
 * pmregs-test: sanitizer-scale 64 (its sanitizer and 32-bit runs take a 64th of the test_scale() rounds, not
 * an eighth, and a sixteenth of the writers', semantic view's and fast paths' packets: gcov counts every
 * line and branch outcome of every header there that those runs took with an eighth of the rounds and
 * all the packets; 15,625 round trips per parameter set; the sanitizer build is then at -O0, whose
 * shorter build outweighs its slower run)
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/etrace_tools.h>
#include "../common/check.h"
#include "test_etrace_naive.h"

typedef struct pmregs_etrace_params params_t;
typedef struct pmregs_etrace_te_inst pkt_t;

#define TEST_SEED 0x2545F4914F6CDD1Du
#include "../common/xorshift.h"

/*
 * The codecs' entry points that this file calls, each compiled once, in a function of its own that
 * is not inlined: the header forces them inline (PMREGS_HOT), and inlined at each of the many call
 * sites below they made the gcc -O2 build of this file take several times as long, for the same
 * code under test.
 */
#if defined(__GNUC__) || defined(__clang__)
#define TEST_NOINLINE __attribute__((noinline))
#else
#define TEST_NOINLINE
#endif
static TEST_NOINLINE int c_te_inst_encode_words(const params_t *p, const pkt_t *in, uint64_t *b, unsigned flags)
{
	return pmregs_etrace_te_inst_encode_words(p, in, b, flags);
}
static TEST_NOINLINE int c_te_data_encode_words(const params_t *p, const struct pmregs_etrace_te_data *in, uint64_t *b, unsigned flags)
{
	return pmregs_etrace_te_data_encode_words(p, in, b, flags);
}
static TEST_NOINLINE int c_encap_stream_put(const params_t *p, const struct pmregs_etrace_encap *f, const pkt_t *in, void *buf, size_t cap)
{
	return pmregs_etrace_encap_stream_put(p, f, in, buf, cap);
}
static TEST_NOINLINE int c_te_inst_encode(const params_t *p, const pkt_t *in, void *buf, size_t cap)
{
	return pmregs_etrace_te_inst_encode(p, in, buf, cap);
}
static TEST_NOINLINE int c_te_inst_encode_ex(const params_t *p, const pkt_t *in, void *buf, size_t cap, unsigned flags)
{
	return pmregs_etrace_te_inst_encode_ex(p, in, buf, cap, flags);
}
static TEST_NOINLINE int c_te_data_encode(const params_t *p, const struct pmregs_etrace_te_data *in, void *buf, size_t cap)
{
	return pmregs_etrace_te_data_encode(p, in, buf, cap);
}
static TEST_NOINLINE int c_te_data_encode_ex(const params_t *p, const struct pmregs_etrace_te_data *in, void *buf, size_t cap, unsigned flags)
{
	return pmregs_etrace_te_data_encode_ex(p, in, buf, cap, flags);
}
static TEST_NOINLINE int c_encap_encode(const params_t *p, const struct pmregs_etrace_encap *in, const void *payload, size_t payload_len, void *buf, size_t cap)
{
	return pmregs_etrace_encap_encode(p, in, payload, payload_len, buf, cap);
}
static TEST_NOINLINE int c_encap_decode(const params_t *p, const void *buf, size_t len, struct pmregs_etrace_encap *out)
{
	return pmregs_etrace_encap_decode(p, buf, len, out);
}
static TEST_NOINLINE int c_smi_encode(const params_t *p, const struct pmregs_etrace_smi *in, const void *payload, size_t payload_len, void *buf, size_t cap)
{
	return pmregs_etrace_smi_encode(p, in, payload, payload_len, buf, cap);
}
static TEST_NOINLINE int c_smi_decode(const params_t *p, const void *buf, size_t len, struct pmregs_etrace_smi *out)
{
	return pmregs_etrace_smi_decode(p, buf, len, out);
}
static TEST_NOINLINE int c_atb_encode(const params_t *p, const struct pmregs_etrace_atb *in, const void *payload, size_t payload_len, void *buf, size_t cap)
{
	return pmregs_etrace_atb_encode(p, in, payload, payload_len, buf, cap);
}
static TEST_NOINLINE int c_smi_stream_put(const params_t *p, const struct pmregs_etrace_smi *f, const pkt_t *in, void *buf, size_t cap)
{
	return pmregs_etrace_smi_stream_put(p, f, in, buf, cap);
}
static TEST_NOINLINE size_t c_smi_stream_put_batch(const params_t *p, const struct pmregs_etrace_smi *f, const pkt_t *in, size_t n, void *buf, size_t cap, size_t *used)
{
	return pmregs_etrace_smi_stream_put_batch(p, f, in, n, buf, cap, used);
}
static TEST_NOINLINE size_t c_smi_stream_batch(struct pmregs_etrace_smi_stream *s, const params_t *p, pkt_t *out, size_t n)
{
	return pmregs_etrace_smi_stream_batch(s, p, out, n);
}
static TEST_NOINLINE size_t c_encap_stream_batch(struct pmregs_etrace_encap_stream *s, const params_t *p, pkt_t *out, size_t n)
{
	return pmregs_etrace_encap_stream_batch(s, p, out, n);
}
static TEST_NOINLINE int c_smi_stream_next(struct pmregs_etrace_smi_stream *s, const params_t *p, struct pmregs_etrace_smi_stream_item *it)
{
	return pmregs_etrace_smi_stream_next(s, p, it);
}
static TEST_NOINLINE int c_encap_stream_next(struct pmregs_etrace_encap_stream *s, const params_t *p, struct pmregs_etrace_encap_stream_item *it)
{
	return pmregs_etrace_encap_stream_next(s, p, it);
}
static TEST_NOINLINE int c_atb_stream_next(struct pmregs_etrace_atb_stream *s, const params_t *p, struct pmregs_etrace_atb_stream_item *it)
{
	return pmregs_etrace_atb_stream_next(s, p, it);
}
static TEST_NOINLINE int c_smi_data_stream_next(struct pmregs_etrace_smi_data_stream *s, const params_t *p, struct pmregs_etrace_smi_data_stream_item *it)
{
	return pmregs_etrace_smi_data_stream_next(s, p, it);
}
static TEST_NOINLINE int c_smi_data_stream_put(const params_t *p, const struct pmregs_etrace_smi *f, const struct pmregs_etrace_te_data *in, void *buf, size_t cap)
{
	return pmregs_etrace_smi_data_stream_put(p, f, in, buf, cap);
}
static TEST_NOINLINE int c_atb_stream_put(const params_t *p, const struct pmregs_etrace_atb *f, const pkt_t *in, void *buf, size_t cap)
{
	return pmregs_etrace_atb_stream_put(p, f, in, buf, cap);
}
static TEST_NOINLINE size_t c_atb_stream_batch(struct pmregs_etrace_atb_stream *s, const params_t *p, pkt_t *out, size_t n)
{
	return pmregs_etrace_atb_stream_batch(s, p, out, n);
}

static uint64_t mask(unsigned w)
{
	return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
}

/*
 * A random w-bit value; half the time its top bits repeat one bit (so compression varies): bits k..w-1
 * repeat bit k - 1 for a k drawn from 0..w (k = 0: all ones or all zeros, k = w: unchanged). Without
 * branches on what is drawn (mispredicted as often as not, they took a seventh of the run): c's bit 30
 * says whether, its bit 29 is the bit for k = 0, and its high half scaled to 0..w is k; a value of up
 * to 29 bits is c's low bits, a wider one another draw.
 */
static uint64_t rv(unsigned w)
{
	uint64_t c = rnd(), x = (w <= 29 ? c : rnd()) & mask(w), hi, s, ext[2];
	unsigned k = (unsigned)(((c >> 32) * (w + 1)) >> 32);
	s = k ? (x >> (k ? k - 1 : 0)) & 1 : (c >> 29) & 1;
	hi = mask(w) & ~mask(k);
	ext[0] = x;
	ext[1] = (x & ~hi) | (hi & (0 - s));
	return ext[(c >> 30) & 1];
}

static int same(const pkt_t *a, const pkt_t *b)
{
	return a->shape == b->shape && a->format == b->format && a->subformat == b->subformat &&
	       a->branch == b->branch && a->privilege == b->privilege && a->time == b->time &&
	       a->context == b->context && a->address == b->address && a->ecause == b->ecause &&
	       a->interrupt == b->interrupt && a->thaddr == b->thaddr && a->tval == b->tval &&
	       a->ienable == b->ienable && a->encoder_mode == b->encoder_mode && a->qual_status == b->qual_status &&
	       a->ioptions == b->ioptions && a->denable == b->denable && a->dloss == b->dloss &&
	       a->doptions == b->doptions && a->notify == b->notify && a->updiscon == b->updiscon &&
	       a->irreport == b->irreport && a->irdepth == b->irdepth && a->branches == b->branches &&
	       a->branch_map == b->branch_map && a->branch_count == b->branch_count &&
	       a->branch_fmt == b->branch_fmt && a->index == b->index;
}

static void hex(const char *what, const unsigned char *b, int n)
{
	int i;
	fprintf(stderr, "  %s:", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", b[i]);
	fprintf(stderr, "\n");
}

/* A random packet of a shape that exists under p. */
static void random_packet(const params_t *p, pkt_t *t)
{
	unsigned A = (unsigned)p->iaddress_width_p - p->iaddress_lsb_p;
	unsigned P = p->privilege_width_p;
	unsigned T = p->notime_p ? 0 : p->time_width_p;
	unsigned C = p->nocontext_p ? 0 : p->context_width_p;
	unsigned D = (unsigned)p->return_stack_size_p + (p->return_stack_size_p > 0 ? 1u : 0u) + p->call_counter_size_p;
	unsigned shape;
	for (;;) {
		/* mostly formats 1 and 2, as in a real trace */
		static const unsigned pick[16] = {5, 5, 5, 5, 4, 4, 4, 6, 7, 8, 9, 0, 1, 2, 3, 5};
		shape = pick[rnd() % 16];
		if (shape == PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE && p->f0s_width_p == 0 && p->f0s_inferred == 0)
			continue;
		if ((shape == PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT || shape == PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR) &&
		    p->f0s_width_p == 0 && p->f0s_inferred == 1)
			continue;
		break;
	}
	pmregs_etrace_te_inst_init(t, shape);
	switch (shape) {
	case PMREGS_ETRACE_TE_INST_SHAPE_START:
	case PMREGS_ETRACE_TE_INST_SHAPE_TRAP:
		t->branch = (uint8_t)rv(1);
		t->privilege = (uint8_t)rv(P);
		t->time = rv(T);
		t->context = rv(C);
		if (shape == PMREGS_ETRACE_TE_INST_SHAPE_TRAP) {
			t->ecause = rv(p->ecause_width_p);
			t->interrupt = (uint8_t)rv(1);
			t->thaddr = (uint8_t)rv(1);
			t->address = (p->implicit_exception && t->thaddr) ? 0 : rv(A);
			t->tval = t->interrupt ? 0 : rv(p->iaddress_width_p);
		} else {
			t->address = rv(A);
		}
		break;
	case PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT:
		t->privilege = (uint8_t)rv(P);
		t->time = rv(T);
		t->context = rv(C);
		break;
	case PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT:
		t->ienable = (uint8_t)rv(1);
		t->encoder_mode = (uint32_t)rv(p->encoder_mode_width);
		t->qual_status = (uint8_t)rv(2);
		t->ioptions = (uint32_t)rv(p->ioptions_width);
		t->denable = (uint8_t)rv(1);
		t->dloss = (uint8_t)rv(1);
		t->doptions = (uint32_t)rv(p->doptions_width);
		break;
	case PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA:
		t->branches = (uint8_t)(1 + rnd() % 31);
		t->branch_map = (uint32_t)rv(nv_maplen(t->branches));
		/* fall through */
	case PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY:
		t->address = rv(A);
		t->notify = (uint8_t)rv(1);
		t->updiscon = (uint8_t)rv(1);
		t->irreport = (uint8_t)rv(1);
		t->irdepth = rv(D);
		break;
	case PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL:
		t->branch_map = (uint32_t)rv(31);
		break;
	case PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT:
	case PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR:
		t->subformat = 0;
		t->branch_count = (uint32_t)rv(32);
		if (shape == PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR) {
			t->branch_fmt = (uint8_t)(2 + (rnd() & 1));
			t->address = rv(A);
			t->notify = (uint8_t)rv(1);
			t->updiscon = (uint8_t)rv(1);
			t->irreport = (uint8_t)rv(1);
			t->irdepth = rv(D);
		}
		break;
	default:
		t->subformat = 1;
		t->index = (uint32_t)rv(p->cache_size_p);
		t->branches = (uint8_t)(rnd() % 32);
		t->branch_map = (uint32_t)(t->branches ? rv(nv_maplen(t->branches)) : 0);
		t->irreport = (uint8_t)rv(1);
		t->irdepth = rv(D);
		break;
	}
}

/*
 * The tests that run a fixed, short while are compiled with little optimisation (TEST_COLD_BEGIN,
 * tests/common/check.h); the random rounds, the random inputs and the comparisons they make are not.
 */
TEST_COLD_BEGIN

/* ---- the worked examples ------------------------------------------------------------------ */

/*
 * Parameters of the E-Trace specification's "Fragment code and transport"
 * examples: 64-bit addresses, iaddress_lsb_p 0, 2-bit privilege, no time,
 * 32-bit context, 5-bit ecause, no return stack or call counter.
 */
static void specfrag(params_t *p)
{
	pmregs_etrace_params_default(p);
	p->iaddress_width_p = 64;
	p->iaddress_lsb_p = 0;
	p->nocontext_p = 0;
	p->context_width_p = 32;
	p->ecause_width_p = 5;
}

static void vector(const params_t *p, const unsigned char *b, size_t n, const pkt_t *want, int natural_bits)
{
	pkt_t t, u;
	unsigned char out[64];
	int rc = pmregs_etrace_te_inst_decode(p, b, n, &t);
	CHECK_EQ(rc, PMREGS_OK);
	CHECK(same(&t, want));
	CHECK_EQ(pmregs_etrace_te_inst_bits(p, &t), natural_bits);
	/* the example's bytes are the shortest form: our encoder gives exactly them */
	rc = c_te_inst_encode(p, want, out, sizeof out);
	CHECK_EQ(rc, n);
	CHECK(rc == (int)n && memcmp(out, b, n) == 0);
	CHECK_EQ(nv_decode(p, b, n, &u), 0);
	CHECK(same(&u, &t));
}

static void test_spec_examples(void)
{
	params_t p;
	pkt_t w;
	specfrag(&p);
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
	{ /* 05 04 01 00 80 00: format 1, branches 1, map 0, address 0x80000104 (75 natural bits) */
		static const unsigned char b[] = {0x05, 0x04, 0x01, 0x00, 0x80, 0x00};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
		w.branches = 1;
		w.address = 0x80000104u;
		vector(&p, b, sizeof b, &w, 75);
	}
	{ /* 32 04 00 00 02: format 2, address 0x8000010c, flags 0 (69 bits) */
		static const unsigned char b[] = {0x32, 0x04, 0x00, 0x00, 0x02};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		w.address = 0x8000010cu;
		vector(&p, b, sizeof b, &w, 69);
	}
	{ /* format 3.1: branch 1, priv 3, context 0, ecause 2, exception, thaddr 0, address 0x80000222, tval 0 (174 bits) */
		static const unsigned char b[] = {0x77, 0x00, 0x00, 0x00, 0x00, 0x81, 0x88, 0x00, 0x00, 0x20};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
		w.branch = 1;
		w.privilege = PMREGS_ETRACE_TE_INST_PRIVILEGE_M;
		w.ecause = 2;
		w.address = 0x80000222u;
		vector(&p, b, sizeof b, &w, 174);
	}
	{ /* format 1: branches 15, map 0x5555, address 0x800001a2 */
		static const unsigned char b[] = {0xbd, 0xaa, 0xaa, 0x68, 0x00, 0x00, 0x20};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
		w.branches = 15;
		w.branch_map = 0x5555;
		w.address = 0x800001a2u;
		vector(&p, b, sizeof b, &w, 7 + 15 + 64 + 3);
	}
	{ /* format 3.1: ecause 7, interrupt, thaddr 1, address 0x800001b0, no tval */
		static const unsigned char b[] = {0x77, 0x00, 0x00, 0x00, 0x80, 0x33, 0x6c, 0x00, 0x00, 0x20};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
		w.branch = 1;
		w.privilege = 3;
		w.ecause = 7;
		w.interrupt = 1;
		w.thaddr = 1;
		w.address = 0x800001b0u;
		vector(&p, b, sizeof b, &w, 7 + 2 + 32 + 5 + 64);
	}
	{ /* format 3.0: branch 1, priv 3, context 0, address 0x20010522 */
		static const unsigned char b[] = {0x73, 0x00, 0x00, 0x00, 0x00, 0x91, 0x82, 0x00, 0x10};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_START);
		w.branch = 1;
		w.privilege = 3;
		w.address = 0x20010522u;
		vector(&p, b, sizeof b, &w, 5 + 2 + 32 + 64);
	}
	{ /* 1f 04: support, ienable 1, mode 0, qual_status no_change, ioptions 0b00100 = full_address (19 bits) */
		static const unsigned char b[] = {0x1f, 0x04};
		pmregs_etrace_te_inst_init(&w, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
		w.ienable = 1;
		w.qual_status = PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE;
		w.ioptions = 4;
		vector(&p, b, sizeof b, &w, 19);
		CHECK(pmregs_etrace_ioptions_ref_full_address_get((uint8_t)w.ioptions) == 1);
		CHECK(pmregs_etrace_ioptions_ref_implicit_return_get((uint8_t)w.ioptions) == 0);
	}
	{ /*
	   * "f2" (reference, sign-based compression consequences): with the
	   * default parameters, format 2 with address field -4 and raw
	   * notify = updiscon = irreport = 1, all copies of the address's sign,
	   * so none is asserted.
	   */
		static const unsigned char b[] = {0xf2};
		params_t d;
		pkt_t t;
		struct pmregs_etrace_te_inst_semantic s;
		pmregs_etrace_params_default(&d);
		CHECK_EQ(pmregs_etrace_te_inst_decode(&d, b, 1, &t), PMREGS_OK);
		CHECK_EQ(t.shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		CHECK_EQ(t.address, 0x7ffffffcu); /* -4 in A = 31 bits */
		CHECK(t.notify == 1 && t.updiscon == 1 && t.irreport == 1);
		CHECK_EQ(pmregs_etrace_te_inst_semantic_get(&d, &t, &s), PMREGS_OK);
		CHECK(s.notify == 0 && s.updiscon == 0 && s.irreport == 0 && s.irdepth_reported == 0);
	}
	{ /*
	   * Where the specification contradicts itself: its illegal-opcode example
	   * labels the start packet 73 00 00 00 00 6c 00 00 10 as address 0x800001b0,
	   * but under the example's own parameters (and every other set tried) the
	   * bytes say 0x200000d8. We decode the bytes as the payload table defines
	   * them; this pins that choice.
	   */
		static const unsigned char b[] = {0x73, 0x00, 0x00, 0x00, 0x00, 0x6c, 0x00, 0x00, 0x10};
		pkt_t t;
		CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, sizeof b, &t), PMREGS_OK);
		CHECK_EQ(t.shape, PMREGS_ETRACE_TE_INST_SHAPE_START);
		CHECK_EQ(t.address, 0x200000d8u);
	}
	{ /* qual_status named values (E-Trace spec, format 3 subformat 3 table) */
		CHECK_EQ(PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE, 0);
		CHECK_EQ(PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP, 1);
		CHECK_EQ(PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST, 2);
		CHECK_EQ(PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_NTR, 3);
		CHECK_EQ(PMREGS_ETRACE_TE_INST_BRANCH_FMT_ADDR_FAIL, 3);
		CHECK_EQ(PMREGS_ETRACE_TE_INST_FORMAT_SYNC, 3);
	}
}

/* ---- parameters and the choices the spec file makes ------------------------------------------- */

static void test_params(void)
{
	params_t p;
	size_t n, i;
	const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&n);
	pmregs_etrace_params_default(&p);
	/* defaults: E-Trace spec "Parameters to the encoder" (attribute + 1) */
	CHECK_EQ(p.iaddress_width_p, 32);
	CHECK_EQ(p.iaddress_lsb_p, 1);
	CHECK_EQ(p.privilege_width_p, 2);
	CHECK_EQ(p.ecause_width_p, 4);
	CHECK_EQ(p.time_width_p, 1);
	CHECK_EQ(p.notime_p, 1);
	CHECK_EQ(p.context_width_p, 1);
	CHECK_EQ(p.nocontext_p, 1);
	CHECK_EQ(p.return_stack_size_p, 0);
	CHECK_EQ(p.call_counter_size_p, 0);
	CHECK_EQ(p.cache_size_p, 0);
	CHECK_EQ(p.f0s_width_p, 0);
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
	CHECK_EQ(n, PMREGS_ETRACE_NPARAMS);
	for (i = 0; i < n; i++) {
		CHECK_EQ(pmregs_etrace_param_get(&p, i), d[i].def);
		CHECK_EQ(pmregs_etrace_param_set(&p, i, d[i].max + 1), PMREGS_ERANGE);
		CHECK_EQ(pmregs_etrace_param_get(&p, i), d[i].def);
	}
	CHECK_EQ(pmregs_etrace_param_set(&p, n, 0), PMREGS_ENOENT);
	/* the traced LSB must leave at least one address bit */
	p.iaddress_width_p = 8;
	p.iaddress_lsb_p = 8;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_EINVAL);
	p.iaddress_lsb_p = 7;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
	CHECK_EQ(pmregs_etrace_address_width(&p), 1);
	p.iaddress_width_p = 65;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_ERANGE);
	pmregs_etrace_params_default(&p);
	p.encap_type_bits = 1;
	p.encap_type_inst = 2;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_EINVAL);
	/*
	 * irdepth width = return_stack_size_p + (return_stack_size_p > 0) + call_counter_size_p,
	 * the formula of the format 0/1/2 tables, not 2^call_counter_size_p (spec/etrace.yaml
	 * call_counter_size_p): 2 + 1 + 3 = 6 bits.
	 */
	pmregs_etrace_params_default(&p);
	p.return_stack_size_p = 2;
	p.call_counter_size_p = 3;
	CHECK_EQ(pmregs_etrace_irdepth_width(&p), 6);
	p.return_stack_size_p = 0;
	CHECK_EQ(pmregs_etrace_irdepth_width(&p), 3);
	p.return_stack_size_p = 31;
	p.call_counter_size_p = 31;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK); /* 31 + 1 + 31 = 63 bits */
	CHECK_EQ(pmregs_etrace_irdepth_width(&p), 63);
	/* branch_map length rule (format 1 table: 1 -> 1, 2-3 -> 3, 4-7 -> 7, 8-15 -> 15, 16-31 -> 31), every n */
	for (i = 1; i <= 31; i++)
		CHECK_EQ(pmregs_etrace_branch_map_length(&p, i), i == 1 ? 1 : i <= 3 ? 3 : i <= 7 ? 7 : i <= 15 ? 15 : 31);
	CHECK_EQ(pmregs_etrace_branch_map_length(&p, 1), 1);
	CHECK_EQ(pmregs_etrace_branch_map_length(&p, 2), 3);
	CHECK_EQ(pmregs_etrace_branch_map_length(&p, 4), 7);
	CHECK_EQ(pmregs_etrace_branch_map_length(&p, 12), 15);
	CHECK_EQ(pmregs_etrace_branch_map_length(&p, 16), 31);
	CHECK_EQ(pmregs_etrace_branch_map_length(&p, 31), 31);
}

/* ---- rules of sign-based compression ---------------------------------------------------------- */

static void test_compression_rules(void)
{
	params_t p;
	pkt_t t, u;
	unsigned char b[40], c[40];
	int n, i;
	specfrag(&p);
	/* the support example 1f 04 (19 natural bits) also decodes with its third byte sent */
	b[0] = 0x1f;
	b[1] = 0x04;
	b[2] = 0x00;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 3, &t), PMREGS_OK);
	CHECK_EQ(t.ioptions, 4);
	n = c_te_inst_encode_ex(&p, &t, c, sizeof c, PMREGS_PACKET_UNCOMPRESSED);
	CHECK_EQ(n, 3);
	CHECK(memcmp(b, c, 3) == 0);
	/* a fourth byte is beyond the natural length: over-long */
	b[3] = 0x00;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 4, &t), PMREGS_ETOOLONG);
	/* spare bits of the last byte that are not copies of bit 18: impossible */
	b[2] = 0x10;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 3, &t), PMREGS_EINVAL);
	/* bits inside the natural length may be anything */
	b[2] = 0x01; /* bit 16 = doptions bit 1 */
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 3, &t), PMREGS_OK);
	CHECK_EQ(t.doptions, 2);
	/* an empty payload is truncated */
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 0, &t), PMREGS_ETRUNC);
	/* branch_fmt 01 cannot occur (format 0 subformat 0 table) */
	pmregs_etrace_params_default(&p);
	memset(b, 0, sizeof b);
	b[4] = 0x04; /* format 0, (no subformat), branch_count 0, branch_fmt bits 34..35 = 01 */
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 5, &t), PMREGS_EINVAL);
	CHECK_EQ(nv_decode(&p, b, 5, &u), -1);
	/* with f0s_width_p 2, subformats 2 and 3 do not exist */
	p.f0s_width_p = 2;
	b[0] = 0x08;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 1, &t), PMREGS_EINVAL);
	b[0] = 0x04;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 1, &t), PMREGS_OK);
	CHECK_EQ(t.shape, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
	/* with f0s_width_p 0 the subformat is inferred: branch count (0) unless told otherwise */
	p.f0s_width_p = 0;
	b[0] = 0x00;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 1, &t), PMREGS_OK);
	CHECK_EQ(t.shape, PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT);
	p.f0s_inferred = 1;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, b, 1, &t), PMREGS_OK);
	CHECK_EQ(t.shape, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
	CHECK_EQ(t.subformat, 1);
	/* ... and a subformat the zero-width field cannot stand for is refused by the encoder */
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT);
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ERANGE);
	/* encoder refusals: unknown shape, value too wide, discriminator that does not select the shape */
	pmregs_etrace_params_default(&p);
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	t.address = (uint64_t)1 << 31; /* A = 31 */
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ERANGE);
	t.address = 0;
	t.format = 1;
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_EINVAL);
	t.shape = PMREGS_ETRACE_TE_INST_NSHAPES;
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_EINVAL);
	CHECK_EQ(pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_NSHAPES), PMREGS_EINVAL);
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
	t.branches = 0; /* branches 0 is the other format 1 table */
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_EINVAL);
	/* a buffer too small: nothing written */
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	t.address = 0x12345678;
	memset(c, 0xAB, sizeof c);
	CHECK_EQ(c_te_inst_encode(&p, &t, c, 3), PMREGS_ENOSPC);
	CHECK_EQ(c[0], 0xAB);
	/*
	 * The 31-byte limit (spec/etrace.yaml max_bytes: the normal encapsulation's
	 * 5-bit length; the reference model's 30 is not followed): a trap packet of
	 * 2+2+1+2 + 64 time + 64 context + 8 ecause + 1+1 + 63 address + 64 tval = 272 bits.
	 */
	pmregs_etrace_params_default(&p);
	p.iaddress_width_p = 64;
	p.notime_p = 0;
	p.time_width_p = 64;
	p.nocontext_p = 0;
	p.context_width_p = 64;
	p.ecause_width_p = 8;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
	t.time = 0x5555555555555555ull;
	t.context = 0x5555555555555555ull;
	t.tval = 0x0055555555555555ull; /* top 10 bits 0: 262 bits -> 33 bytes */
	CHECK_EQ(pmregs_etrace_te_inst_bits(&p, &t), 272);
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ETOOLONG);
	t.tval = 0x5555ull; /* 7+64+64+8+2+63+16 = 224 bits -> 28 bytes */
	n = c_te_inst_encode(&p, &t, c, sizeof c);
	CHECK_EQ(n, 28);
	t.tval = 0x0000555555555555ull; /* 7+128+8+2+63+47 + 1 sign = 256 bits: 32 bytes */
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ETOOLONG);
	t.tval = 0x0000155555555555ull; /* 7+128+8+2+63+45 + 1 = 254 bits: 32 bytes */
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ETOOLONG);
	t.tval = 0x0000055555555555ull; /* 7+128+8+2+63+43 + 1 = 252 bits -> 32 bytes */
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ETOOLONG);
	t.tval = 0x0000015555555555ull; /* ... + 41 + 1 = 250 bits -> 32 bytes */
	CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), PMREGS_ETOOLONG);
	t.tval = 0x0000005555555555ull; /* ... + 39 + 1 = 248 bits -> 31 bytes: the longest payload */
	n = c_te_inst_encode(&p, &t, c, sizeof c);
	CHECK_EQ(n, 31);
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, c, 31, &u), PMREGS_OK);
	CHECK(same(&t, &u));
	for (i = 31; i < 40; i++)
		c[i] = 0;
	CHECK_EQ(pmregs_etrace_te_inst_decode(&p, c, 32, &u), PMREGS_ETOOLONG);
}

TEST_COLD_END

/* ---- random round trips against the naive codec ------------------------------------------------- */

static void param_set(int k, params_t *p)
{
	pmregs_etrace_params_default(p);
	switch (k) {
	case 0: /* defaults: 31-bit addresses, no time, no context, no irdepth, f0s_width_p 0 */
		break;
	case 1: /* the specification's fragment examples: wide addresses, lsb 0, context */
		specfrag(p);
		break;
	case 2: /* narrow addresses, irdepth 3 bits, one subformat bit, a jump target cache */
		p->iaddress_width_p = 16;
		p->privilege_width_p = 1;
		p->ecause_width_p = 3;
		p->return_stack_size_p = 2;
		p->f0s_width_p = 1;
		p->cache_size_p = 4;
		break;
	case 3: /* everything wide: 64-bit time and context (some packets exceed 31 bytes) */
		p->iaddress_width_p = 64;
		p->notime_p = 0;
		p->time_width_p = 64;
		p->nocontext_p = 0;
		p->context_width_p = 64;
		p->ecause_width_p = 64;
		p->call_counter_size_p = 9;
		p->f0s_width_p = 1;
		p->cache_size_p = 12;
		break;
	case 4: /* lsb 2, time present, irdepth 8 bits, implicit-exception mode */
		p->iaddress_width_p = 40;
		p->iaddress_lsb_p = 2;
		p->notime_p = 0;
		p->time_width_p = 16;
		p->return_stack_size_p = 3;
		p->call_counter_size_p = 4;
		p->f0s_width_p = 1;
		p->cache_size_p = 8;
		p->implicit_exception = 1;
		break;
	case 5: /* lsb 0, small time and context, only the jump target cache format 0 */
		p->iaddress_lsb_p = 0;
		p->notime_p = 0;
		p->time_width_p = 8;
		p->nocontext_p = 0;
		p->context_width_p = 8;
		p->call_counter_size_p = 9;
		p->f0s_inferred = 1;
		p->cache_size_p = 6;
		break;
	case 6: /* 48-bit addresses, wider support fields, two subformat bits */
		p->iaddress_width_p = 48;
		p->return_stack_size_p = 1;
		p->f0s_width_p = 2;
		p->encoder_mode_width = 3;
		p->ioptions_width = 7;
		p->doptions_width = 0;
		p->privilege_width_p = 3;
		break;
	case 7: /* a 1-bit address field: the flags follow immediately */
		p->iaddress_width_p = 2;
		p->iaddress_lsb_p = 1;
		p->privilege_width_p = 8;
		p->ecause_width_p = 1;
		p->return_stack_size_p = 5;
		break;
	default: /* 64-bit addresses traced from bit 1, 32-bit context, 63-bit irdepth */
		p->iaddress_width_p = 64;
		p->nocontext_p = 0;
		p->context_width_p = 32;
		p->return_stack_size_p = 31;
		p->call_counter_size_p = 31;
		break;
	}
}

#define NSETS 9
#define ROUNDS ((int)test_scale(1000000))

/*
 * The divisor of the writers', the semantic view's and the fast paths' packets: 16 under emulation
 * (test_sparse()) and in the runs of a sixteenth or less of the test_scale() rounds (this file's
 * sanitizer and 32-bit runs), 1 in the native run.
 */
static unsigned long fixed_div(void)
{
	return test_scale(16) == 1 ? 16 : test_sparse();
}

static void test_round_trips(void)
{
	int k;
	for (k = 0; k < NSETS; k++) {
		params_t p;
		long i, fails = 0, toolong = 0, naive_checked = 0;
		param_set(k, &p);
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		for (i = 0; i < ROUNDS && fails < 5; i++) {
			pkt_t t, u;
			unsigned char c[64], f[64], nv[64];
			int n, nf, j, bad = 0;
			random_packet(&p, &t);
			n = c_te_inst_encode(&p, &t, c, sizeof c);
			nf = c_te_inst_encode_ex(&p, &t, f, sizeof f, PMREGS_PACKET_UNCOMPRESSED);
			if (n == PMREGS_ETOOLONG) {
				toolong++;
				CHECK(nv_encode(&p, &t, nv, 0) > 31);
				continue;
			}
			if (n <= 0) {
				CHECK_EQ(n, 1);
				fails++;
				continue;
			}
			/* decode the shortest form and, when it fits, the uncompressed one */
			bad |= pmregs_etrace_te_inst_decode(&p, c, (size_t)n, &u) != PMREGS_OK || !same(&t, &u);
			if (nf > 0)
				bad |= pmregs_etrace_te_inst_decode(&p, f, (size_t)nf, &u) != PMREGS_OK || !same(&t, &u);
			else
				bad |= nf != PMREGS_ETOOLONG;
			/* every truncation decodes to something else (or nothing): n is the shortest */
			for (j = 1; j < n; j++) {
				int rc = pmregs_etrace_te_inst_decode(&p, c, (size_t)j, &u);
				bad |= rc == PMREGS_OK && same(&t, &u);
			}
			/* the naive codec agrees bit for bit, on a sample */
			if ((i & 7) == 0) {
				int m = nv_encode(&p, &t, nv, 0);
				naive_checked++;
				bad |= m != n || memcmp(nv, c, (size_t)n) != 0;
				if (nf > 0) {
					m = nv_encode(&p, &t, nv, 1);
					bad |= m != nf || memcmp(nv, f, (size_t)nf) != 0;
				}
				bad |= nv_decode(&p, c, (size_t)n, &u) != 0 || !same(&t, &u);
			}
			if (bad) {
				char s[512];
				fails++;
				pmregs_etrace_te_inst_snprint(s, sizeof s, &p, &t);
				fprintf(stderr, "set %d packet %ld: %s\n", k, i, s);
				hex("compressed", c, n);
				hex("naive", nv, nv_encode(&p, &t, nv, 0));
			}
		}
		CHECK_EQ(fails, 0);
		CHECK(naive_checked >= (ROUNDS - toolong) / 10);
		printf("parameter set %d: %d packets round-tripped (%ld over 31 bytes), %ld also against the naive codec\n",
		       k, ROUNDS, toolong, naive_checked);
	}
}

/* Random byte strings: the generated decoder and the naive one agree on what they accept. */
static void test_random_bytes(void)
{
	int k;
	for (k = 0; k < NSETS; k++) {
		params_t p;
		long i;
		param_set(k, &p);
		for (i = 0; i < (long)test_scale(200000); i++) {
			unsigned char b[32];
			size_t n = 1 + (size_t)(rnd() % 32), j;
			pkt_t t, u;
			int rc, nrc;
			for (j = 0; j < n; j++)
				b[j] = (unsigned char)rnd();
			rc = pmregs_etrace_te_inst_decode(&p, b, n, &t);
			nrc = nv_decode(&p, b, n, &u);
			{ /* the padded decoder agrees, whatever follows the packet */
				unsigned char pad[PMREGS_ETRACE_TE_INST_PAD_BYTES];
				pkt_t v;
				for (j = 0; j < sizeof pad; j++)
					pad[j] = j < n ? b[j] : (unsigned char)rnd();
				CHECK_EQ(pmregs_etrace_te_inst_decode_padded(&p, pad, n, &v), rc);
				if (rc == PMREGS_OK)
					CHECK(same(&t, &v));
			}
			if (n > 31)
				CHECK_EQ(rc, PMREGS_ETOOLONG);
			else if (nrc < 0)
				CHECK_EQ(rc, PMREGS_EINVAL);
			if (rc == PMREGS_OK) {
				unsigned char c[64];
				int m;
				CHECK(nrc == 0 && same(&t, &u));
				/* re-encoding gives the shortest form of the same bits: a prefix of b */
				m = c_te_inst_encode(&p, &t, c, sizeof c);
				CHECK(m > 0 && (size_t)m <= n);
				if (m > 0 && (size_t)m < n)
					CHECK(memcmp(c, b, (size_t)m - 1) == 0);
			}
		}
	}
}

/* ---- the semantic view --------------------------------------------------------------------------- */

TEST_COLD_BEGIN
static void test_semantic(void)
{
	params_t p;
	long i;
	param_set(4, &p); /* irdepth 8 bits */
	for (i = 0; i < 200000 / (long)fixed_div(); i++) {
		pkt_t t, u;
		struct pmregs_etrace_te_inst_semantic s, s2;
		unsigned char c[64];
		int n;
		random_packet(&p, &t);
		s.notify = (uint8_t)(rnd() & 1);
		s.updiscon = (uint8_t)(rnd() & 1);
		s.irreport = (uint8_t)(rnd() & 1);
		s.irdepth_reported = s.irreport;
		s.irdepth = rnd() & 0xFF;
		CHECK_EQ(pmregs_etrace_te_inst_semantic_set(&p, &t, &s), PMREGS_OK);
		n = c_te_inst_encode(&p, &t, c, sizeof c);
		CHECK(n > 0);
		CHECK_EQ(pmregs_etrace_te_inst_decode(&p, c, (size_t)n, &u), PMREGS_OK);
		CHECK_EQ(pmregs_etrace_te_inst_semantic_get(&p, &u, &s2), PMREGS_OK);
		if (t.shape == PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY || t.shape == PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA ||
		    t.shape == PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR) {
			CHECK(s2.notify == s.notify && s2.updiscon == s.updiscon && s2.irreport == s.irreport);
			CHECK_EQ(s2.irdepth_reported, s.irreport);
			CHECK_EQ(s2.irdepth, s.irreport ? s.irdepth : 0);
			/* the raw bits as the tables define them */
			{
				unsigned A = 38;
				unsigned msb = (unsigned)(t.address >> (A - 1)) & 1u;
				CHECK_EQ(t.notify, msb ^ s.notify);
				CHECK_EQ(t.updiscon, t.notify ^ s.updiscon);
				CHECK_EQ(t.irreport, t.updiscon ^ s.irreport);
				if (!s.irreport)
					CHECK_EQ(t.irdepth, t.updiscon ? 0xFFu : 0u);
			}
		} else if (t.shape == PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE) {
			/* irreport compares with the top bit of branch_map, or of branches when there is no map */
			unsigned ref = t.branches ? (unsigned)(t.branch_map >> (nv_maplen(t.branches) - 1)) & 1u
						  : (unsigned)(t.branches >> 4) & 1u;
			CHECK_EQ(t.irreport, ref ^ s.irreport);
			CHECK_EQ(s2.irreport, s.irreport);
			CHECK_EQ(s2.notify, 0);
		} else {
			CHECK(s2.notify == 0 && s2.irreport == 0 && s2.irdepth_reported == 0);
		}
	}
	/* nothing to report: the flags and irdepth compress away entirely */
	{
		pkt_t t;
		struct pmregs_etrace_te_inst_semantic s;
		unsigned char c[64];
		memset(&s, 0, sizeof s);
		pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		t.address = 0x12; /* 2 + 5 address bits + 1 sign: one byte */
		CHECK_EQ(pmregs_etrace_te_inst_semantic_set(&p, &t, &s), PMREGS_OK);
		CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), 1);
		s.notify = 1; /* now bit 40 differs from the address's sign: 41 bits + 1 -> 6 bytes */
		CHECK_EQ(pmregs_etrace_te_inst_semantic_set(&p, &t, &s), PMREGS_OK);
		CHECK_EQ(c_te_inst_encode(&p, &t, c, sizeof c), 6);
		s.notify = 0;
		s.irreport = 1;
		s.irdepth = 0x100; /* wider than the 8-bit irdepth */
		CHECK_EQ(pmregs_etrace_te_inst_semantic_set(&p, &t, &s), PMREGS_ERANGE);
	}
}

/* ---- framing ---------------------------------------------------------------------------------------- */

struct frame_vec {
	const char *what;
	unsigned srcid_bits, ts_bytes, type_bits, type_inst;
	unsigned char bytes[16];
	unsigned n;
	unsigned length, flow, extend, srcid, type;
	uint64_t timestamp;
	unsigned char payload[16];
	unsigned payload_len;
};

/*
 * Encapsulation examples: E-Trace spec "Fragment code and transport"
 * (6-bit srcID, 2-bit type, 10 = instruction trace) and FZI's encapsulation
 * tests (8-bit and 4-bit srcID with a 1-byte timestamp; null packets).
 */
static const struct frame_vec frames[] = {
	{"spec: format 2 packet, srcID 1", 6, 0, 2, 2, {0x06, 0x81, 0x32, 0x04, 0x00, 0x00, 0x02}, 7,
	 6, 0, 0, 1, 2, 0, {0x32, 0x04, 0x00, 0x00, 0x02}, 5},
	{"spec: format 1 packet, srcID 0xA", 6, 0, 2, 2, {0x08, 0x8A, 0xbd, 0xaa, 0xaa, 0x68, 0x00, 0x00, 0x20}, 9,
	 8, 0, 0, 0xA, 2, 0, {0xbd, 0xaa, 0xaa, 0x68, 0x00, 0x00, 0x20}, 7},
	{"spec: format 3.0 packet, srcID 5", 6, 0, 2, 2,
	 {0x0A, 0x85, 0x73, 0x00, 0x00, 0x00, 0x00, 0x91, 0x82, 0x00, 0x10}, 11,
	 10, 0, 0, 5, 2, 0, {0x73, 0x00, 0x00, 0x00, 0x00, 0x91, 0x82, 0x00, 0x10}, 9},
	/* the specification's ATB example: no srcID (ATID carries it), no type: header 05, then the payload */
	{"spec: ATB, no srcID, no type", 0, 0, 0, 0, {0x05, 0x32, 0x04, 0x00, 0x00, 0x02}, 6,
	 5, 0, 0, 0, 0, 0, {0x32, 0x04, 0x00, 0x00, 0x02}, 5},
	{"FZI: 8-bit srcID, timestamp", 8, 1, 0, 0,
	 {0xC9, 0x31, 0x8D, 0x73, 0x00, 0x00, 0x00, 0x00, 0x19, 0x41, 0x00, 0x08}, 12,
	 9, 2, 1, 0x31, 0, 0x8D, {0x73, 0x00, 0x00, 0x00, 0x00, 0x19, 0x41, 0x00, 0x08}, 9},
	{"FZI: 4-bit srcID, timestamp", 4, 1, 0, 0,
	 {0xCA, 0xD3, 0x38, 0x07, 0x00, 0x00, 0x00, 0x90, 0x11, 0x04, 0x80, 0x00}, 12,
	 10, 2, 1, 3, 0, 0x8D, {0x73, 0x00, 0x00, 0x00, 0x00, 0x19, 0x41, 0x00, 0x08}, 9},
	{"FZI: null idle, flow 1", 8, 1, 0, 0, {0x20}, 1, 0, 1, 0, 0, 0, 0, {0}, 0},
	{"FZI: null align, flow 3", 8, 1, 0, 0, {0xE0}, 1, 0, 3, 1, 0, 0, 0, {0}, 0},
};

static void test_encap(void)
{
	size_t i;
	for (i = 0; i < sizeof frames / sizeof frames[0]; i++) {
		const struct frame_vec *v = &frames[i];
		params_t p;
		struct pmregs_etrace_encap f;
		unsigned char pay[40], out[64];
		int rc, n;
		size_t k;
		pmregs_etrace_params_default(&p);
		p.encap_srcid_bits = (uint8_t)v->srcid_bits;
		p.encap_timestamp_bytes = (uint8_t)v->ts_bytes;
		p.encap_type_bits = (uint8_t)v->type_bits;
		p.encap_type_inst = (uint8_t)v->type_inst;
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		rc = c_encap_decode(&p, v->bytes, v->n, &f);
		if (rc != (int)v->n)
			fprintf(stderr, "%s\n", v->what);
		CHECK_EQ(rc, v->n);
		CHECK_EQ(f.length, v->length);
		CHECK_EQ(f.flow, v->flow);
		CHECK_EQ(f.extend, v->extend);
		CHECK_EQ(f.srcid, v->srcid);
		CHECK_EQ(f.type, v->type);
		CHECK_EQ(f.timestamp, v->timestamp);
		CHECK_EQ(f.shape, v->length ? PMREGS_ETRACE_ENCAP_SHAPE_NORMAL
				 : v->extend ? PMREGS_ETRACE_ENCAP_SHAPE_NULL_ALIGN : PMREGS_ETRACE_ENCAP_SHAPE_NULL_IDLE);
		n = pmregs_bits_extract_sext(pay, sizeof pay, v->bytes, f.payload_offset, f.payload_bits);
		CHECK_EQ(n, v->payload_len);
		CHECK(n >= 0 && memcmp(pay, v->payload, (size_t)n) == 0);
		/* encoding the fields and the payload gives the same bytes, length computed */
		f.length = 0;
		n = c_encap_encode(&p, &f, v->payload, v->payload_len, out, sizeof out);
		CHECK_EQ(n, v->n);
		CHECK(n == (int)v->n && memcmp(out, v->bytes, v->n) == 0);
		/* every truncation is reported as such */
		for (k = 0; k < v->n; k++)
			CHECK_EQ(c_encap_decode(&p, v->bytes, k, &f), PMREGS_ETRUNC);
	}
	{ /* extend = 1 must not appear in a normal packet when timestamps have no width (encapsulation spec) */
		params_t p;
		struct pmregs_etrace_encap f;
		static const unsigned char b[] = {0x82, 0x1f, 0x04}; /* length 2, extend 1 */
		unsigned char out[8];
		pmregs_etrace_params_default(&p);
		CHECK_EQ(c_encap_decode(&p, b, sizeof b, &f), PMREGS_EINVAL);
		pmregs_etrace_encap_init(&f, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
		f.extend = 1;
		CHECK_EQ(c_encap_encode(&p, &f, b + 1, 2, out, sizeof out), PMREGS_EINVAL);
		p.encap_timestamp_bytes = 1; /* with a timestamp byte the same header is fine */
		CHECK_EQ(c_encap_encode(&p, &f, b + 1, 2, out, sizeof out), 4);
		CHECK_EQ(c_encap_decode(&p, out, 4, &f), 4);
		/* null.align keeps extend = 1 whatever the timestamp width */
		p.encap_timestamp_bytes = 0;
		CHECK_EQ(c_encap_decode(&p, (const unsigned char *)"\x80", 1, &f), 1);
		CHECK_EQ(f.shape, PMREGS_ETRACE_ENCAP_SHAPE_NULL_ALIGN);
	}
	{ /* a payload too long is refused, and so is a buffer too small or an empty payload */
		params_t p;
		struct pmregs_etrace_encap f;
		unsigned char pay[32], out[64];
		pmregs_etrace_params_default(&p);
		memset(pay, 0x11, sizeof pay);
		pmregs_etrace_encap_init(&f, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
		CHECK_EQ(c_encap_encode(&p, &f, pay, 31, out, sizeof out), 32);
		CHECK_EQ(out[0], 31);
		CHECK_EQ(c_encap_encode(&p, &f, pay, 32, out, sizeof out), PMREGS_ETOOLONG);
		CHECK_EQ(c_encap_encode(&p, &f, pay, 31, out, 31), PMREGS_ENOSPC);
		CHECK_EQ(c_encap_encode(&p, &f, pay, 0, out, sizeof out), PMREGS_EINVAL);
	}
}

/*
 * Siemens-style header (E-Trace spec text, "Example encapsulated packet
 * format"; the reference flow's .te_inst_raw files): length in bits 4:0,
 * message type in 6:5 (2 = te_inst), timestamp-present in bit 7.
 */
static void test_smi(void)
{
	params_t p;
	struct pmregs_etrace_smi m;
	unsigned char out[64];
	int n;
	pmregs_etrace_params_default(&p);
	{ /* reference flow: no index, no timestamp: 0x45 then the 5 payload bytes */
		static const unsigned char b[] = {0x45, 0x32, 0x04, 0x00, 0x00, 0x02};
		CHECK_EQ(c_smi_decode(&p, b, sizeof b, &m), 6);
		CHECK_EQ(m.shape, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
		CHECK_EQ(m.length, 5);
		CHECK_EQ(m.msg_type, PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST);
		CHECK_EQ(m.payload_offset, 8);
		CHECK_EQ(m.payload_bits, 40);
		n = c_smi_encode(&p, &m, b + 1, 5, out, sizeof out);
		CHECK(n == 6 && memcmp(out, b, 6) == 0);
	}
	{ /*
	   * The order this spec file chooses: index, pad to a byte, then the
	   * 2-byte timestamp (the specification's listing; FZI reads the time tag
	   * first). A 5-bit index 0x13 and timestamp 0xBEEF.
	   */
		static const unsigned char b[] = {0xC2, 0x13, 0xEF, 0xBE, 0x1f, 0x04};
		p.smi_index_bits = 5;
		CHECK_EQ(c_smi_decode(&p, b, sizeof b, &m), 6);
		CHECK_EQ(m.index, 0x13);
		CHECK_EQ(m.timestamp, 0xBEEF);
		CHECK_EQ(m.timestamp_present, 1);
		CHECK_EQ(m.payload_offset, 32);
		n = c_smi_encode(&p, &m, b + 4, 2, out, sizeof out);
		CHECK(n == 6 && memcmp(out, b, 6) == 0);
		/* non-zero pad bits after the index are not a message */
		{
			unsigned char c[6];
			memcpy(c, b, 6);
			c[1] = 0x33;
			CHECK_EQ(c_smi_decode(&p, c, 6, &m), PMREGS_EINVAL);
		}
	}
	{ /* a zero byte between messages is fill; other length-0 headers are not defined */
		static const unsigned char z[] = {0x00}, bad[] = {0x40};
		CHECK_EQ(c_smi_decode(&p, z, 1, &m), 1);
		CHECK_EQ(m.shape, PMREGS_ETRACE_SMI_SHAPE_FILL);
		CHECK_EQ(c_smi_decode(&p, bad, 1, &m), PMREGS_EINVAL);
	}
}

/* ---- the stream walker ----------------------------------------------------------------------------- */

struct expect {
	size_t offset, size;
	int kind; /* 0 frame with te_inst, 1 null, 2 garbage (error item) */
	pkt_t pkt;
};

static void test_stream(void)
{
	static unsigned char buf[1 << 16];
	static struct expect ex[4096];
	/* 40 random streams, or test_scale(40) but at least one per parameter set */
	int round, rounds = test_scale(40) > NSETS ? (int)test_scale(40) : NSETS;
	for (round = 0; round < rounds; round++) {
		params_t p;
		size_t len = 0, nex = 0, e, covered = 0;
		struct pmregs_etrace_encap_stream s;
		struct pmregs_etrace_encap_stream_item it;
		unsigned resync;
		param_set(round % NSETS, &p);
		p.encap_srcid_bits = (uint8_t)(rnd() % 17);
		p.encap_timestamp_bytes = (uint8_t)(rnd() % 9);
		p.encap_type_bits = (uint8_t)(rnd() % 3);
		p.encap_type_inst = (uint8_t)(p.encap_type_bits ? rnd() % (1u << p.encap_type_bits) : 0);
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		resync = 32u + p.encap_srcid_bits / 8u + p.encap_timestamp_bytes;
		while (len < sizeof buf - 200 && nex < 4000) {
			unsigned r = (unsigned)(rnd() % 100);
			struct expect *x = &ex[nex];
			x->offset = len;
			if (r < 3) { /* garbage, then a zero run long enough to resynchronise */
				size_t g = 1 + (size_t)(rnd() % 40), z = resync + (size_t)(rnd() % 4), j;
				buf[len++] = 0x1F; /* a header claiming 31 bytes ... */
				for (j = 1; j < g; j++)
					buf[len++] = (unsigned char)(rnd() | 1);
				buf[len++] = 0xFF; /* ... ending inside an impossible payload is not guaranteed: */
				for (j = 0; j < z; j++)
					buf[len++] = 0;
				x->kind = 2;
				x->size = len - x->offset;
			} else if (r < 8) { /* null packets */
				struct pmregs_etrace_encap f;
				int n;
				pmregs_etrace_encap_init(&f, (rnd() & 1) ? PMREGS_ETRACE_ENCAP_SHAPE_NULL_ALIGN
								     : PMREGS_ETRACE_ENCAP_SHAPE_NULL_IDLE);
				f.flow = (uint8_t)(rnd() & 3);
				n = c_encap_encode(&p, &f, 0, 0, buf + len, sizeof buf - len);
				CHECK_EQ(n, 1);
				len += 1;
				x->kind = 1;
				x->size = 1;
			} else {
				struct pmregs_etrace_encap f;
				unsigned char pay[64];
				int n, m;
				do {
					random_packet(&p, &x->pkt);
					n = c_te_inst_encode(&p, &x->pkt, pay, sizeof pay);
				} while (n < 0 || n > 28);
				pmregs_etrace_encap_init(&f, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
				f.flow = (uint8_t)(rnd() & 3);
				f.extend = (uint8_t)(p.encap_timestamp_bytes ? rnd() & 1 : 0);
				f.srcid = (uint16_t)(rnd() & mask(p.encap_srcid_bits));
				f.timestamp = f.extend ? rnd() & mask(8u * p.encap_timestamp_bytes) : 0;
				f.type = p.encap_type_inst;
				m = c_encap_encode(&p, &f, pay, (size_t)n, buf + len, sizeof buf - len);
				CHECK(m > 0);
				if (m <= 0)
					break;
				len += (size_t)m;
				x->kind = 0;
				x->size = (size_t)m;
			}
			nex++;
		}
		/*
		 * Walk it. Every real packet comes back at its offset; a bad item
		 * starts inside a garbage block (garbage may also happen to read as
		 * packets) and ends exactly where that block's zero run ends.
		 */
		pmregs_etrace_encap_stream_init(&s, buf, len, 1);
		e = 0;
		while (c_encap_stream_next(&s, &p, &it)) {
			CHECK_EQ(it.offset, covered);
			covered += it.size;
			while (e < nex && ex[e].offset + ex[e].size <= it.offset)
				e++;
			if (e == nex)
				continue;
			if (it.status < 0) {
				/* zero bytes right after the run (null idle packets) extend it */
				size_t end = ex[e].offset + ex[e].size;
				while (end < len && buf[end] == 0)
					end++;
				CHECK(ex[e].kind == 2 && it.offset >= ex[e].offset && it.offset + it.size == end);
			} else if (ex[e].kind != 2) {
				CHECK_EQ(it.offset, ex[e].offset);
				CHECK_EQ(it.size, ex[e].size);
				if (ex[e].kind == 0)
					CHECK(it.has_payload && same(&it.payload, &ex[e].pkt));
				else
					CHECK(!it.has_payload);
			}
		}
		CHECK_EQ(covered, len);
		/*
		 * Every truncation of the stream ends in one ETRUNC item (or at a boundary) and covers
		 * it all. The walker's state between items is its position and "synchronised"; where an
		 * item ends depends on no byte more than PMREGS_INPLACE_SLACK past that end, so the walks
		 * of buf[0..cut) for every cut from lo on pass the same item boundaries up to lo - 64:
		 * the walk to the last of them (base) is done once (and base checked to be a boundary of
		 * the walks of buf[0..lo) and of the whole buffer), each truncation is walked from there.
		 */
		if (round < 4) {
			size_t cut, base = 0, lo = len > 600 ? len - 600 : 0, at = 0;
			pmregs_etrace_encap_stream_init(&s, buf, lo, 1);
			while (c_encap_stream_next(&s, &p, &it) && it.offset + it.size + 64 <= lo)
				base = it.offset + it.size;
			pmregs_etrace_encap_stream_init(&s, buf, len, 1);
			while (at < base && c_encap_stream_next(&s, &p, &it))
				at = it.offset + it.size;
			CHECK_EQ(at, base);
			for (cut = lo; cut < len; cut++) {
				size_t cov = base;
				pmregs_etrace_encap_stream_init(&s, buf + base, cut - base, 1);
				while (c_encap_stream_next(&s, &p, &it))
					cov += it.size;
				CHECK_EQ(cov, cut);
			}
		}
	}
	{ /* starting without sync: the bytes before the first zero run are one ENOENT item */
		params_t p;
		static const unsigned char b[] = {0x45, 0x99, 0x00, 0x00, 0x06, 0x81, 0x32, 0x04, 0x00, 0x00, 0x02};
		struct pmregs_etrace_encap_stream s;
		struct pmregs_etrace_encap_stream_item it;
		unsigned char big[80];
		pmregs_etrace_params_default(&p);
		p.encap_srcid_bits = 6;
		p.encap_type_bits = 2;
		p.encap_type_inst = 2;
		memset(big, 0, sizeof big);
		memcpy(big, b, 2);
		memcpy(big + 40, b + 4, 7);
		pmregs_etrace_encap_stream_init(&s, big, 47, 0);
		CHECK_EQ(c_encap_stream_next(&s, &p, &it), 1);
		CHECK_EQ(it.status, PMREGS_ENOENT);
		CHECK_EQ(it.size, 40);
		CHECK_EQ(c_encap_stream_next(&s, &p, &it), 1);
		CHECK_EQ(it.status, PMREGS_OK);
		CHECK_EQ(it.offset, 40);
		CHECK(it.has_payload);
		CHECK_EQ(it.payload.shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		CHECK_EQ(c_encap_stream_next(&s, &p, &it), 0);
	}
}

/*
 * Parameter presets (spec/etrace.yaml param_presets): each is legal, the
 * lookup by name agrees with the list and the initialiser macro, and the
 * specification's examples decode with spec_examples exactly as with the
 * parameters spelled out (specfrag() above).
 */
static void test_presets(void)
{
	size_t n, i, j, np;
	const struct pmregs_param_preset *ps = pmregs_etrace_presets(&n);
	const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&np);
	static const params_t spec = PMREGS_ETRACE_PRESET_SPEC_EXAMPLES;
	params_t p, q;
	const char *why = "x";
	CHECK(n >= 4);
	for (i = 0; i < n; i++) {
		const params_t *x = pmregs_etrace_presets_find(ps[i].name);
		CHECK(x != 0);
		if (!x)
			continue;
		CHECK_EQ(pmregs_etrace_params_check_why(x, &why), PMREGS_OK);
		CHECK(why && why[0] == 0);
		CHECK_EQ(pmregs_etrace_params_check_values(ps[i].values, np, 0), PMREGS_OK);
		for (j = 0; j < np; j++) {
			uint64_t v = pmregs_etrace_param_get(x, j);
			CHECK_EQ(v, ps[i].values[j]);
			CHECK(v >= d[j].min && v <= d[j].max);
		}
	}
	CHECK(pmregs_etrace_presets_find("no_such_preset") == 0);
	/* names are looked up ignoring case; the names before 0.2.0 are deprecated aliases */
	CHECK(pmregs_etrace_presets_find("Spec_Examples") == pmregs_etrace_presets_find("spec_examples"));
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
	CHECK(pmregs_etrace_params_preset("FZI") == pmregs_etrace_presets_find("fzi"));
	CHECK(pmregs_etrace_param_presets(&j) == ps && j == n);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
	/* spec_examples is the specification's fragment parameters plus its 6-bit srcID and 2-bit type */
	specfrag(&p);
	p.encap_srcid_bits = 6;
	p.encap_type_bits = 2;
	p.encap_type_inst = 2;
	CHECK(memcmp(&p, &spec, sizeof p) == 0);
	CHECK(memcmp(&p, pmregs_etrace_presets_find("spec_examples"), sizeof p) == 0);
	{
		/* E-Trace spec, "Fragment code and transport": srcID 1, type 10, format 2 address 0x8000010c */
		static const unsigned char m[] = {0x06, 0x81, 0x32, 0x04, 0x00, 0x00, 0x02};
		struct pmregs_etrace_encap_stream st;
		pkt_t out[2];
		pmregs_etrace_encap_stream_init(&st, m, sizeof m, 1);
		CHECK_EQ(c_encap_stream_batch(&st, &spec, out, 2), 1);
		CHECK_EQ(out[0].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
		CHECK_EQ(out[0].address, 0x8000010c);
		CHECK_EQ(st.pos, sizeof m);
	}
	/* the rule a block breaks, by its code and in words */
	q = spec;
	q.iaddress_lsb_p = 64 - 1;
	q.iaddress_width_p = 63;
	CHECK_EQ(pmregs_etrace_params_check_why(&q, &why), PMREGS_EINVAL);
	CHECK(why && strstr(why, "iaddress_lsb_p < iaddress_width_p") != 0);
	q = spec;
	q.iaddress_width_p = 0;
	CHECK_EQ(pmregs_etrace_params_check_why(&q, &why), PMREGS_ERANGE);
	CHECK(why && strcmp(why, "iaddress_width_p is outside 1..64") == 0);
	CHECK_EQ(pmregs_etrace_params_check(&q), PMREGS_ERANGE);
	q = spec;
	q.encap_type_inst = 4;
	CHECK_EQ(pmregs_etrace_params_check_why(&q, &why), PMREGS_EINVAL);
	CHECK(why && strstr(why, "encap_type_inst") != 0);
}

/*
 * The fast paths against the naive codec: random packets of every shape,
 * under every parameter set of the round trips, framed as SMI messages and as
 * encapsulation packets with a srcID that is not a whole number of bytes (so
 * every payload starts mid-byte), walked with the batch decoder (in place,
 * and the tail path for the last packets) and item by item; every payload
 * must equal the naive decoder's reading of its bytes.
 */
static void test_fast_paths(void)
{
	enum { NP = 3000 };
	static unsigned char smi[NP * 48], enc[NP * 56];
	static unsigned char pay[NP][32];
	static size_t plen[NP];
	static pkt_t in[NP], got[NP];
	const size_t np = NP / fixed_div(); /* packets per set */
	int k;
	for (k = 0; k < NSETS; k++) {
		params_t p;
		size_t ns = 0, ne = 0, i, n, bad = 0;
		struct pmregs_etrace_smi_stream ss;
		struct pmregs_etrace_encap_stream es;
		struct pmregs_etrace_encap_stream_item it;
		param_set(k, &p);
		p.encap_srcid_bits = 3;
		p.encap_type_bits = 1;
		p.encap_type_inst = 0;
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		for (i = 0; i < np; i++) {
			struct pmregs_etrace_smi f;
			struct pmregs_etrace_encap e;
			int m;
			do { /* a 31-byte payload does not fit beside a 4-bit srcID and type (length 32) */
				random_packet(&p, &in[i]);
				m = c_te_inst_encode(&p, &in[i], pay[i], sizeof pay[i]);
			} while (m <= 0 || m > 30);
			plen[i] = (size_t)m;
			pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
			f.msg_type = 2;
			m = c_smi_encode(&p, &f, pay[i], plen[i], smi + ns, 48);
			CHECK(m > 0);
			ns += m > 0 ? (size_t)m : 0;
			pmregs_etrace_encap_init(&e, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
			e.srcid = (uint16_t)(i & 7);
			m = c_encap_encode(&p, &e, pay[i], plen[i], enc + ne, 56);
			CHECK(m > 0);
			ne += m > 0 ? (size_t)m : 0;
		}
		/* SMI, in batches of 64 */
		pmregs_etrace_smi_stream_init(&ss, smi, ns, 1);
		for (n = 0; n < np;) {
			size_t got_n = c_smi_stream_batch(&ss, &p, got + n, 64);
			if (got_n == 0)
				break;
			n += got_n;
		}
		CHECK_EQ(n, np);
		CHECK_EQ(ss.pos, ns);
		for (i = 0; i < n && i < np; i++) {
			pkt_t want;
			CHECK_EQ(nv_decode(&p, pay[i], plen[i], &want), 0);
			bad += !same(&want, &got[i]) || !same(&in[i], &got[i]);
		}
		CHECK_EQ(bad, 0);
		/* encapsulation (payloads at bit 3 + 1 of a byte), item by item and in batches */
		pmregs_etrace_encap_stream_init(&es, enc, ne, 1);
		for (i = 0; c_encap_stream_next(&es, &p, &it); i++) {
			pkt_t want;
			CHECK(i < np && it.status == PMREGS_OK && it.has_payload);
			if (i >= np || !it.has_payload)
				break;
			CHECK_EQ(nv_decode(&p, pay[i], plen[i], &want), 0);
			bad += !same(&want, &it.payload);
			bad += it.payload_len != plen[i];
		}
		CHECK_EQ(i, np);
		pmregs_etrace_encap_stream_init(&es, enc, ne, 1);
		n = c_encap_stream_batch(&es, &p, got, np);
		CHECK_EQ(n, np);
		CHECK_EQ(es.pos, ne);
		for (i = 0; i < n && i < np; i++)
			bad += !same(&in[i], &got[i]);
		CHECK_EQ(bad, 0);
	}
}

/*
 * The word decoders (pmregs_etrace_te_inst_decode_word(), _word_l() with the layout) where irdepth is
 * wider than what the word has left after the three flags: 63 bits under parameter set 8 (a return
 * stack and call counter of 31 bits). Format 1 and 2 packets whose address and flags compress to a
 * few bytes, positive and negative, decode from the word as written. Random packets reach this path
 * only now and then (a 63-bit address that compresses to fewer than 8 bytes).
 */
static void test_word_wide_irdepth(void)
{
	static const unsigned shapes[2] = {PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA};
	params_t p;
	struct pmregs_etrace_te_inst_layout L;
	unsigned k, neg;
	param_set(8, &p);
	pmregs_etrace_te_inst_layout_init(&p, &L);
	CHECK_EQ(pmregs_etrace_irdepth_width(&p), 63);
	for (k = 0; k < 2; k++)
		for (neg = 0; neg < 2; neg++) {
			pkt_t t, u, v;
			unsigned char c[64];
			uint64_t fill, xw;
			int n;
			pmregs_etrace_te_inst_init(&t, shapes[k]);
			if (shapes[k] == PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA) {
				t.branches = 3;
				t.branch_map = 5;
			}
			/* the 63-bit address 0x12 or -0x12, the flags and irdepth copies of its sign */
			t.address = neg ? mask(63) & (0 - (uint64_t)0x12) : 0x12;
			t.notify = t.updiscon = t.irreport = (uint8_t)neg;
			t.irdepth = neg ? mask(63) : 0;
			memset(c, 0, sizeof c);
			n = c_te_inst_encode(&p, &t, c, sizeof c);
			CHECK(n > 0 && n <= 8);
			if (n <= 0 || n > 8)
				continue;
			xw = pmregs_ip_word_bytes(c, 8 * (size_t)n, &fill);
			CHECK_EQ(pmregs_etrace_te_inst_decode_word_l(&p, &L, xw, fill, 8 * (size_t)n, &u), PMREGS_OK);
			CHECK(same(&u, &t));
			CHECK_EQ(pmregs_etrace_te_inst_decode_word(&p, xw, fill, 8 * (size_t)n, &v), PMREGS_OK);
			CHECK(same(&v, &t));
		}
}

/*
 * The ATB transport, from the E-Trace specification's example: ATID 1 sends
 * ATDATA 0x00043205 with ATBYTES 3 (4 valid bytes), then 0x00000200 with
 * ATBYTES 1 (2 valid bytes). The valid bytes, least significant first, are
 * one message: header 05 (5 payload bytes, no timestamp) and the format 2
 * payload 32 04 00 00 02 (address 0x8000010c under the fragment parameters).
 * Then fill, a message with a timestamp, garbage and resynchronisation.
 */
static void test_atb(void)
{
	static const struct { uint32_t data; unsigned atbytes; } beats[] = {{0x00043205u, 3}, {0x00000200u, 1}};
	unsigned char b[128];
	size_t n = 0, i, k;
	params_t p;
	struct pmregs_etrace_atb_stream s;
	struct pmregs_etrace_atb_stream_item it;
	struct pmregs_etrace_atb f;
	pkt_t out[4];
	int m;
	specfrag(&p);
	for (i = 0; i < sizeof beats / sizeof beats[0]; i++)
		for (k = 0; k <= beats[i].atbytes; k++)
			b[n++] = (unsigned char)(beats[i].data >> (8 * k));
	CHECK_EQ(n, 6);
	pmregs_etrace_atb_stream_init(&s, b, n, 1);
	CHECK_EQ(c_atb_stream_batch(&s, &p, out, 4), 1);
	CHECK_EQ(out[0].shape, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	CHECK_EQ(out[0].address, 0x8000010c);
	CHECK_EQ(s.pos, 6);
	/* the same message re-encoded, a fill byte, one with a timestamp after the header byte */
	pmregs_etrace_atb_init(&f, PMREGS_ETRACE_ATB_SHAPE_MESSAGE);
	m = c_atb_encode(&p, &f, b + 1, 5, b + n, sizeof b - n);
	CHECK_EQ(m, 6);
	CHECK(memcmp(b, b + n, 6) == 0);
	n += 6;
	b[n++] = 0;
	f.timestamp_present = 1;
	f.timestamp = 0xBEEF;
	m = c_atb_encode(&p, &f, b + 1, 5, b + n, sizeof b - n);
	CHECK_EQ(m, 8);
	CHECK_EQ(b[n], 0x25);
	CHECK_EQ(b[n + 1], 0xEF);
	CHECK_EQ(b[n + 2], 0xBE);
	n += 8;
	/* a header byte with its unused bits set: garbage, then 34 zero bytes and a message */
	b[n++] = 0xC5;
	for (i = 0; i < 34; i++)
		b[n++] = 0;
	memcpy(b + n, b, 6);
	n += 6;
	pmregs_etrace_atb_stream_init(&s, b, n, 1);
	k = 0;
	for (i = 0; c_atb_stream_next(&s, &p, &it); i++) {
		if (it.has_payload) {
			CHECK_EQ(it.payload.address, 0x8000010c);
			k++;
		}
		if (i == 2)
			CHECK_EQ(it.frame.shape, PMREGS_ETRACE_ATB_SHAPE_FILL);
		if (i == 3)
			CHECK_EQ(it.frame.timestamp, 0xBEEF);
		if (i == 4)
			CHECK(it.status < 0 && it.size == 1 + 34);
	}
	CHECK_EQ(i, 6);
	CHECK_EQ(k, 4);
}

/* ---- data trace (te_data) ------------------------------------------------------------------------ */

TEST_COLD_END

typedef struct pmregs_etrace_te_data dpkt_t;

static int dsame(const dpkt_t *a, const dpkt_t *b)
{
	return a->shape == b->shape && a->format == b->format && a->size == b->size && a->lrid == b->lrid &&
	       a->diff == b->diff && a->data_len == b->data_len && a->data == b->data && a->resp == b->resp &&
	       a->subtype == b->subtype && a->op_len == b->op_len && a->operand == b->operand &&
	       a->address == b->address && a->addr_msbs == b->addr_msbs && a->addr_lsbs == b->addr_lsbs;
}

/*
 * A random te_data packet under p, its field widths written here from the tables of
 * RISC-V Efficient Trace for RISC-V, v2.0, chapter "Data Trace Encoder Output Packets"
 * (load and store, atomic and CSR tables), independently of spec/etrace.yaml.
 * Returns the natural length in bits.
 */
static unsigned random_data(const params_t *p, dpkt_t *t)
{
	unsigned sw = p->data_width_p <= 16 ? 1u : 2u, n = p->dformat_width, w;
	unsigned nd = p->dno_data, na = p->dno_address, f = (unsigned)(rnd() % (p->dformat_width == 3 ? 8 : 4));
	static const unsigned char shape_of[8] = {0, 0, 0, 0, 1, 2, 4, 5};
	pmregs_etrace_te_data_init(t, shape_of[f]);
	t->format = (uint8_t)f;
	if (f < 4) {
		unsigned req = p->dsplit && f < 2;
		t->size = (uint8_t)rv(sw);
		n += sw;
		w = req ? p->lrid_width_p : 0;
		t->lrid = (uint16_t)rv(w);
		n += w;
		w = nd || req ? 1 : p->ddiff_width;
		t->diff = (uint8_t)rv(w);
		n += w;
		w = nd || na || req ? 0 : t->size;
		t->data_len = (uint8_t)rv(w);
		n += w;
		w = nd || req ? 0 : na ? p->data_width_p : 8u * (t->data_len + 1u);
		t->data = rv(w);
		n += w;
		w = na ? 0 : p->daddress_width_p;
		t->address = rv(w);
		n += w;
	} else if (f == 4) {
		t->size = (uint8_t)rv(sw);
		t->lrid = (uint16_t)rv(p->lrid_width_p);
		t->resp = (uint8_t)rv(2);
		w = t->resp == 0 ? 0 : p->data_width_p;
		t->data = rv(w);
		n += sw + p->lrid_width_p + 2 + w;
	} else if (f == 5) {
		/*
		 * Both address fields whatever no-address says (the reference flow's data
		 * encoder); op_len and operand only with data and for a CSR that is not
		 * read-only, addr[11:10] != 11 ("Packet format for Unified CSR, with
		 * address and read-only data (as determined by addr[11:10] = 11)").
		 */
		unsigned ro, op;
		(void)na;
		t->subtype = (uint8_t)rv(2);
		n += 2;
		w = nd ? 1 : p->ddiff_width;
		t->diff = (uint8_t)rv(w);
		n += w;
		w = nd ? 0 : p->dcsr_len_width;
		t->data_len = (uint8_t)rv(w);
		n += w;
		w = nd ? 0 : 8u * (t->data_len + 1u);
		t->data = rv(w);
		n += w;
		t->addr_msbs = (uint8_t)rv(6);
		t->addr_lsbs = (uint8_t)rv(6);
		n += 12;
		ro = (t->addr_msbs >> 4) == 3;
		t->shape = (uint8_t)(ro ? PMREGS_ETRACE_TE_DATA_SHAPE_CSR_READ_ONLY : PMREGS_ETRACE_TE_DATA_SHAPE_CSR);
		op = !nd && !ro;
		w = op ? p->dcsr_len_width : 0;
		t->op_len = (uint8_t)rv(w);
		n += w;
		w = op ? 8u * (t->op_len + 1u) : 0;
		t->operand = rv(w);
		n += w;
	} else if (f == 6) {
		t->subtype = (uint8_t)rv(3);
		t->size = (uint8_t)rv(sw);
		n += 3 + sw;
		w = p->dsplit ? p->lrid_width_p : 0;
		t->lrid = (uint16_t)rv(w);
		n += w;
		w = nd ? 1 : p->ddiff_width;
		t->diff = (uint8_t)rv(w);
		n += w;
		w = nd ? 0 : t->size;
		t->op_len = (uint8_t)rv(w);
		n += w;
		w = nd ? 0 : 8u * (t->op_len + 1u);
		t->operand = rv(w);
		n += w;
		w = nd || na || p->dsplit ? 0 : t->size;
		t->data_len = (uint8_t)rv(w);
		n += w;
		w = nd || p->dsplit ? 0 : na ? p->data_width_p : 8u * (t->data_len + 1u);
		t->data = rv(w);
		n += w;
		w = na ? 0 : p->daddress_width_p;
		t->address = rv(w);
		n += w;
	} else {
		unsigned lw = p->data_width_p <= 8 ? 0u : p->data_width_p <= 16 ? 1u : p->data_width_p <= 32 ? 2u : 3u;
		t->lrid = (uint16_t)rv(p->lrid_width_p);
		t->resp = (uint8_t)rv(2);
		w = t->resp == 0 ? 0 : lw;
		t->data_len = (uint8_t)rv(w);
		n += p->lrid_width_p + 2 + w;
		w = t->resp == 0 ? 0 : 8u * (t->data_len + 1u);
		t->data = rv(w);
		n += w;
	}
	return n;
}

static void data_param_set(int k, params_t *p)
{
	pmregs_etrace_params_default(p);
	switch (k) {
	case 0: /* defaults: 32-bit data and addresses, 3-bit format, 2-bit diff, unified */
		break;
	case 1: /* 64-bit data and addresses, split transfers with 5-bit request IDs, 64-bit CSRs */
		p->data_width_p = 64;
		p->daddress_width_p = 64;
		p->dsplit = 1;
		p->lrid_width_p = 5;
		p->dcsr_len_width = 3;
		break;
	case 2: /* unified loads and stores only (2-bit format), one compression type, byte-wide data */
		p->dformat_width = 2;
		p->ddiff_width = 1;
		p->data_width_p = 8;
		p->daddress_width_p = 16;
		break;
	case 3: /* addresses only (doptions no_data), split */
		p->dno_data = 1;
		p->dsplit = 1;
		p->lrid_width_p = 0;
		p->daddress_width_p = 40;
		break;
	case 4: /* data only (doptions no_address), 16-bit bus */
		p->dno_address = 1;
		p->data_width_p = 16;
		p->lrid_width_p = 16;
		break;
	default: /* data only, 64-bit data, split, 1-bit diff */
		p->dno_address = 1;
		p->data_width_p = 64;
		p->dsplit = 1;
		p->ddiff_width = 1;
		break;
	}
}

#define NDSETS 6

TEST_COLD_BEGIN
/*
 * Hand-assembled payloads under the default parameters, from the tables of RISC-V
 * Efficient Trace for RISC-V, v2.0, chapter "Data Trace Encoder Output Packets" (the
 * chapter has no worked examples): fields in table order, each LSB first, then the top
 * run of identical bits dropped as for every E-Trace payload.
 */
static void test_data_vectors(void)
{
	params_t p;
	dpkt_t t, u;
	unsigned char c[64];
	/* store, aligned: 4 bytes of full data 0x12345678 at byte address 0x80001000 (0x20000400 << size) */
	static const unsigned char v_store[] = {0x92, 0xf1, 0xac, 0x68, 0x24, 0x00, 0x08, 0x00, 0x40};
	/* load, unaligned, one byte 0xff, differential address 0x1003 */
	static const unsigned char v_load[] = {0xa1, 0xff, 0x01, 0x08};
	/* csrrw mstatus (0x300): old value 0x1800, operand 0x08 */
	static const unsigned char v_csr[] = {0x85, 0x01, 0x30, 0x00, 0x00, 0x18, 0x10};
	/* amoadd.w: operand 1, old value 5, aligned address 0x20000400 */
	static const unsigned char v_amo[] = {0x8e, 0x10, 0x40, 0x01, 0x00, 0x01, 0x00, 0x08};
	/* split atomic data, request 1, error response: no data */
	static const unsigned char v_err[] = {0x0f};
	pmregs_etrace_params_default(&p);
	p.dsplit = 1;
	CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);

	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_LOAD_STORE);
	t.format = PMREGS_ETRACE_TE_DATA_FORMAT_STORE_ALIGNED;
	t.size = 2;
	t.data_len = 3;
	t.data = 0x12345678;
	t.address = 0x20000400;
	CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), (int)sizeof v_store);
	CHECK(memcmp(c, v_store, sizeof v_store) == 0);
	CHECK_EQ(pmregs_etrace_te_data_bits(&p, &t), 73);
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_store, sizeof v_store, &u), PMREGS_OK);
	CHECK(dsame(&t, &u));

	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_LOAD_STORE);
	t.format = PMREGS_ETRACE_TE_DATA_FORMAT_LOAD_UNALIGNED;
	t.diff = 1;
	t.data = 0xff;
	t.address = 0x1003;
	/* a load is a split load request when split transfers are on: no data, a request ID */
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_load, sizeof v_load, &u), PMREGS_OK);
	CHECK(!dsame(&t, &u));
	p.dsplit = 0;
	CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), (int)sizeof v_load);
	CHECK(memcmp(c, v_load, sizeof v_load) == 0);
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_load, sizeof v_load, &u), PMREGS_OK);
	CHECK(dsame(&t, &u));

	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_CSR);
	t.subtype = PMREGS_ETRACE_TE_DATA_SUBTYPE_RW;
	t.data_len = 3;
	t.data = 0x1800;
	t.addr_msbs = 0x300 >> 6;
	t.operand = 0x08;
	CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), (int)sizeof v_csr);
	CHECK(memcmp(c, v_csr, sizeof v_csr) == 0);
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_csr, sizeof v_csr, &u), PMREGS_OK);
	CHECK(dsame(&t, &u));

	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_ATOMIC);
	t.subtype = PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOADD;
	t.size = 2;
	t.operand = 1;
	t.data = 5;
	t.address = 0x20000400;
	CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), (int)sizeof v_amo);
	CHECK(memcmp(c, v_amo, sizeof v_amo) == 0);
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_amo, sizeof v_amo, &u), PMREGS_OK);
	CHECK(dsame(&t, &u));

	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_SPLIT_ATOMIC_DATA);
	t.lrid = 1;
	CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), 1);
	CHECK_EQ(c[0], v_err[0]);
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_err, 1, &u), PMREGS_OK);
	CHECK(dsame(&t, &u));
	CHECK_EQ(u.resp, PMREGS_ETRACE_TE_DATA_RESP_ERROR);

	/* the rules between the data trace parameters */
	p.dno_address = p.dno_data = 1;
	CHECK(pmregs_etrace_params_check(&p) != PMREGS_OK);
	pmregs_etrace_params_default(&p);
	p.dformat_width = 2;
	p.dsplit = 1;
	CHECK(pmregs_etrace_params_check(&p) != PMREGS_OK);
	/* with a 2-bit format the codes 4-7 do not exist */
	p.dsplit = 0;
	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_CSR);
	CHECK(c_te_data_encode(&p, &t, c, sizeof c) < 0);
}

/*
 * CSR packets. The specification's CSR tables: "Packet format for Unified CSR, with
 * address, data and operand", "... with address and read-only data (as determined by
 * addr[11:10] = 11)" (no op_len, no operand) and "... with address only" (RISC-V
 * Efficient Trace for RISC-V, v2.0, "Data Trace Encoder Output Packets", "CSR"). No
 * table leaves the address out; CSR packets keep both address fields under the
 * no-address option, as the reference flow's data encoder and decoder do.
 */
static void test_data_csr(void)
{
	params_t p;
	dpkt_t t, u;
	unsigned char c[64];
	int mode;
	struct pmregs_etrace_smi_data_stream s;
	struct pmregs_etrace_smi_data_stream_item it;
	struct pmregs_etrace_smi f;
	/*
	 * A Siemens message of type 3 (32-bit data and addresses): csrrs of instreth (CSR
	 * 0xc82, read-only: addr[11:10] = 11), XOR-compressed 4-byte data 0xaaf6e54d,
	 * addr_msbs 0x32, addr_lsbs 2, no operand. The reference flow's data decoder
	 * (data_decoder_model.py) reads the same fields from it.
	 */
	static const unsigned char v_ro[] = {0x67, 0xad, 0x9b, 0xca, 0xed, 0x55, 0x65, 0x01};
	/* csrrw mstatus (0x300, read-write) of test_data_vectors: old value 0x1800, operand 0x08 */
	static const unsigned char v_rw[] = {0x85, 0x01, 0x30, 0x00, 0x00, 0x18, 0x10};
	/*
	 * address only: csrrc of cycle (0xc00, read-only) and of mie (0x304), full address:
	 * format 101, subtype 10, diff 0, addr_msbs, addr_lsbs (18 bits; the top zeros dropped)
	 */
	static const unsigned char v_nd_ro[] = {0x15, 0x0c};
	static const unsigned char v_nd_rw[] = {0x15, 0x43};

	pmregs_etrace_params_default(&p);
	CHECK_EQ(pmregs_etrace_dcsr_read_only(&p, 0xc82), 1);
	CHECK_EQ(pmregs_etrace_dcsr_read_only(&p, 0xfff), 1);
	CHECK_EQ(pmregs_etrace_dcsr_read_only(&p, 0xbff), 0);
	CHECK_EQ(pmregs_etrace_dcsr_read_only(&p, 0x300), 0);
	for (mode = 0; mode < 2; mode++) { /* 0: with address, 1: no-address (the CSR fields stay) */
		pmregs_etrace_params_default(&p);
		p.dno_address = (uint8_t)mode;
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		pmregs_etrace_smi_data_stream_init(&s, v_ro, sizeof v_ro, 1);
		CHECK(c_smi_data_stream_next(&s, &p, &it));
		CHECK_EQ(it.status, PMREGS_OK);
		CHECK_EQ(it.size, sizeof v_ro);
		CHECK(it.has_payload);
		CHECK_EQ(it.payload.shape, PMREGS_ETRACE_TE_DATA_SHAPE_CSR_READ_ONLY);
		CHECK_EQ(it.payload.subtype, PMREGS_ETRACE_TE_DATA_SUBTYPE_RS);
		CHECK_EQ(it.payload.diff, 1);
		CHECK_EQ(it.payload.data_len, 3);
		CHECK_EQ(it.payload.data, 0xaaf6e54d);
		CHECK_EQ((unsigned)it.payload.addr_msbs << 6 | it.payload.addr_lsbs, 0xc82);
		CHECK_EQ(it.payload.op_len, 0);
		CHECK_EQ(it.payload.operand, 0);
		CHECK(!c_smi_data_stream_next(&s, &p, &it));
		/* written back: the same message */
		f = it.frame;
		pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_CSR_READ_ONLY);
		t.subtype = PMREGS_ETRACE_TE_DATA_SUBTYPE_RS;
		t.diff = 1;
		t.data_len = 3;
		t.data = 0xaaf6e54d;
		t.addr_msbs = 0xc82 >> 6;
		t.addr_lsbs = 0xc82 & 63;
		CHECK_EQ(pmregs_etrace_te_data_bits(&p, &t), 53);
		CHECK_EQ(c_smi_data_stream_put(&p, &f, &t, c, sizeof c), (int)sizeof v_ro);
		CHECK(memcmp(c, v_ro, sizeof v_ro) == 0);
		/* the read-only shape refuses a CSR that is not read-only, and the other way round */
		t.addr_msbs = 0x300 >> 6;
		CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), PMREGS_EINVAL);
		t.shape = PMREGS_ETRACE_TE_DATA_SHAPE_CSR;
		t.addr_msbs = 0xc82 >> 6;
		CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), PMREGS_EINVAL);

		/* a read-write CSR: op_len and operand, and the address under no-address too */
		pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_CSR);
		t.subtype = PMREGS_ETRACE_TE_DATA_SUBTYPE_RW;
		t.data_len = 3;
		t.data = 0x1800;
		t.addr_msbs = 0x300 >> 6;
		t.operand = 0x08;
		CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_rw, sizeof v_rw, &u), PMREGS_OK);
		CHECK(dsame(&t, &u));
		CHECK_EQ(c_te_data_encode(&p, &t, c, sizeof c), (int)sizeof v_rw);
		CHECK(memcmp(c, v_rw, sizeof v_rw) == 0);
	}

	/* address only (no-data): the read-only rule changes nothing on the wire, the shape still says it */
	pmregs_etrace_params_default(&p);
	p.dno_data = 1;
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_nd_ro, sizeof v_nd_ro, &u), PMREGS_OK);
	CHECK_EQ(u.shape, PMREGS_ETRACE_TE_DATA_SHAPE_CSR_READ_ONLY);
	CHECK_EQ(u.subtype, PMREGS_ETRACE_TE_DATA_SUBTYPE_RC);
	CHECK_EQ(u.diff, 0);
	CHECK_EQ((unsigned)u.addr_msbs << 6 | u.addr_lsbs, 0xc00);
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, v_nd_rw, sizeof v_nd_rw, &u), PMREGS_OK);
	CHECK_EQ(u.shape, PMREGS_ETRACE_TE_DATA_SHAPE_CSR);
	CHECK_EQ((unsigned)u.addr_msbs << 6 | u.addr_lsbs, 0x304);
	CHECK_EQ(c_te_data_encode(&p, &u, c, sizeof c), (int)sizeof v_nd_rw);
	CHECK(memcmp(c, v_nd_rw, sizeof v_nd_rw) == 0);
}

/*
 * Atomic subtypes: the specification's atomic tables number XOR, MAX and MIN 100, 101
 * and 110; the reference flow's encoder numbers them 5, 6 and 7. We follow the
 * specification. amoxor.w: subtype 4 in bits 5:3 of the first byte.
 */
static void test_data_atomic_subtypes(void)
{
	params_t p;
	dpkt_t t, u;
	unsigned char c[64];
	int n;
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOSWAP, 0);
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOADD, 1);
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOAND, 2);
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOOR, 3);
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOXOR, 4);
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOMAX, 5);
	CHECK_EQ(PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOMIN, 6);
	pmregs_etrace_params_default(&p);
	pmregs_etrace_te_data_init(&t, PMREGS_ETRACE_TE_DATA_SHAPE_ATOMIC);
	t.subtype = PMREGS_ETRACE_TE_DATA_SUBTYPE_AMOXOR;
	t.size = 2;
	t.operand = 1;
	t.data = 5;
	t.address = 0x20000400;
	n = c_te_data_encode(&p, &t, c, sizeof c);
	CHECK(n > 0);
	CHECK_EQ(c[0], 0xa6); /* format 110, subtype 100, size bits 1:0 = 10 */
	CHECK_EQ(pmregs_etrace_te_data_decode(&p, c, (size_t)n, &u), PMREGS_OK);
	CHECK_EQ(u.subtype, 4);
}

#define DROUNDS ((int)test_scale(200000))

TEST_COLD_END
/* Every shape under each parameter set: the natural length, shortest and uncompressed round trips, every truncation. */
static void test_data_round_trips(void)
{
	int k;
	for (k = 0; k < NDSETS; k++) {
		params_t p;
		long i, fails = 0, shapes[PMREGS_ETRACE_TE_DATA_NSHAPES] = {0, 0, 0, 0, 0, 0};
		data_param_set(k, &p);
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		for (i = 0; i < DROUNDS && fails < 5; i++) {
			dpkt_t t, u;
			unsigned char c[64], f[64];
			unsigned natural = random_data(&p, &t);
			int n, nf, j, bad = 0;
			shapes[t.shape]++;
			n = c_te_data_encode(&p, &t, c, sizeof c);
			nf = c_te_data_encode_ex(&p, &t, f, sizeof f, PMREGS_PACKET_UNCOMPRESSED);
			bad |= pmregs_etrace_te_data_bits(&p, &t) != (int)natural;
			bad |= n <= 0 || nf != (int)(natural + 7) / 8 || n > nf;
			if (!bad) {
				bad |= pmregs_etrace_te_data_decode(&p, c, (size_t)n, &u) != PMREGS_OK || !dsame(&t, &u);
				bad |= pmregs_etrace_te_data_decode(&p, f, (size_t)nf, &u) != PMREGS_OK || !dsame(&t, &u);
				for (j = 0; j < n; j++) { /* every truncation (j = 0: empty) */
					int rc = pmregs_etrace_te_data_decode(&p, c, (size_t)j, &u);
					bad |= rc == PMREGS_OK && dsame(&t, &u);
					bad |= j == 0 && rc != PMREGS_ETRUNC;
				}
				{ /* the padded decoder agrees */
					unsigned char pad[PMREGS_ETRACE_TE_DATA_PAD_BYTES];
					size_t m;
					for (m = 0; m < sizeof pad; m++)
						pad[m] = m < (size_t)n ? c[m] : (unsigned char)rnd();
					bad |= pmregs_etrace_te_data_decode_padded(&p, pad, (size_t)n, &u) != PMREGS_OK || !dsame(&t, &u);
				}
			}
			if (bad) {
				char s[512];
				fails++;
				pmregs_etrace_te_data_snprint(s, sizeof s, &p, &t);
				fprintf(stderr, "data set %d packet %ld (natural %u bits): %s\n", k, i, natural, s);
				if (n > 0)
					hex("compressed", c, n);
			}
		}
		CHECK_EQ(fails, 0);
		/* each shape the parameters allow was drawn */
		CHECK(shapes[0] > 0);
		CHECK(p.dformat_width == 2 ? shapes[1] + shapes[2] + shapes[3] + shapes[4] + shapes[5] == 0
					   : shapes[1] > 0 && shapes[2] > 0 && shapes[3] > 0 && shapes[4] > 0 && shapes[5] > 0);
		printf("data parameter set %d: %d te_data packets round-tripped\n", k, DROUNDS);
	}
}

/* Random bytes: whatever decodes re-encodes to a prefix of the input and decodes the same. */
static void test_data_random_bytes(void)
{
	int k;
	for (k = 0; k < NDSETS; k++) {
		params_t p;
		long i, ok = 0;
		data_param_set(k, &p);
		for (i = 0; i < (long)test_scale(100000); i++) {
			unsigned char b[40], c[64];
			size_t n = (size_t)(rnd() % 34), j;
			dpkt_t t, u;
			int rc, m;
			for (j = 0; j < n; j++)
				b[j] = (unsigned char)rnd();
			rc = pmregs_etrace_te_data_decode(&p, b, n, &t);
			if (n == 0)
				CHECK_EQ(rc, PMREGS_ETRUNC);
			if (n > 31)
				CHECK_EQ(rc, PMREGS_ETOOLONG);
			if (rc != PMREGS_OK)
				continue;
			ok++;
			m = c_te_data_encode(&p, &t, c, sizeof c);
			CHECK(m > 0 && (size_t)m <= n);
			if (m > 0 && (size_t)m < n)
				CHECK(memcmp(c, b, (size_t)m - 1) == 0);
			CHECK(m > 0 && pmregs_etrace_te_data_decode(&p, c, (size_t)m, &u) == PMREGS_OK && dsame(&t, &u));
		}
		CHECK(ok > 0);
	}
}

TEST_COLD_BEGIN
/* Data trace in Siemens messages of type 3 (te_data); type 2 (te_inst) messages are passed over. */
static void test_data_stream(void)
{
	params_t p;
	struct pmregs_etrace_smi_data_stream s;
	struct pmregs_etrace_smi_data_stream_item it;
	/* a te_data message (the amoadd.w vector), a te_inst message (the format 2 example), fill, the store vector */
	static const unsigned char buf[] = {0x68, 0x8e, 0x10, 0x40, 0x01, 0x00, 0x01, 0x00, 0x08,
					    0x45, 0x32, 0x04, 0x00, 0x00, 0x02,
					    0x00,
					    0x69, 0x92, 0xf1, 0xac, 0x68, 0x24, 0x00, 0x08, 0x00, 0x40};
	int i = 0, k = 0;
	pmregs_etrace_params_default(&p);
	pmregs_etrace_smi_data_stream_init(&s, buf, sizeof buf, 1);
	while (c_smi_data_stream_next(&s, &p, &it)) {
		CHECK(it.status >= 0);
		if (it.has_payload) {
			CHECK_EQ(it.payload.shape, k == 0 ? PMREGS_ETRACE_TE_DATA_SHAPE_ATOMIC : PMREGS_ETRACE_TE_DATA_SHAPE_LOAD_STORE);
			CHECK_EQ(it.payload.address, 0x20000400);
			k++;
		}
		i++;
	}
	CHECK_EQ(i, 4);
	CHECK_EQ(k, 2);
}

/* ---- the writers: FRAME_stream_put(), _put_batch(), PACKET_encode_words() and FRAME_encode_words() ---- */

static int untouched(const unsigned char *b, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (b[i] != 0xA5)
			return 0;
	return 1;
}

/* The first n bytes of the words w, LSB first, equal b[0..n). */
static int words_equal(const uint64_t *w, const unsigned char *b, int n)
{
	int i;
	for (i = 0; i < n; i++)
		if ((unsigned char)(w[i / 8] >> (8 * (i % 8))) != b[i])
			return 0;
	return 1;
}

/*
 * check_STREAM(): STREAM_put() against the two-step path (PAYLOAD_encode(),
 * then FRAME_encode()): the same status and bytes; PAYLOAD_encode_words() gives
 * the payload's length and bytes; one byte short of room is PMREGS_ENOSPC and
 * an error writes nothing; exactly enough room writes nothing past the packet;
 * the stream walker reads the frame and the payload back (SAME compares).
 * Returns the packet's size or the error.
 */
#define WRITER_CHECK(STREAM, FRAME, PAYLOAD, SAME)                                                                   \
	static int check_##STREAM(const params_t *p, const struct pmregs_etrace_##FRAME *f,                            \
				  const struct pmregs_etrace_##PAYLOAD *in, size_t *bad)                                \
	{                                                                                                             \
		unsigned char pl[64], want[128], got[128];                                                            \
		uint64_t w[16];                                                                                       \
		int n = c_##PAYLOAD##_encode(p, in, pl, sizeof pl), m = n, g;                                            \
		struct pmregs_etrace_##STREAM s;                                                                      \
		struct pmregs_etrace_##STREAM##_item it;                                                              \
		struct pmregs_etrace_##PAYLOAD back;                                                                  \
		if (n > 0)                                                                                            \
			m = c_##FRAME##_encode(p, f, pl, (size_t)n, want, sizeof want);                                \
		*bad += c_##PAYLOAD##_encode_words(p, in, w, 0) != n || (n > 0 && !words_equal(w, pl, n));             \
		memset(got, 0xA5, sizeof got);                                                                        \
		g = c_##STREAM##_put(p, f, in, got, sizeof got);                                                      \
		*bad += g != m || (m > 0 && memcmp(got, want, (size_t)m) != 0) || (m < 0 && !untouched(got, sizeof got)); \
		if (m <= 0)                                                                                           \
			return m;                                                                                     \
		memset(got, 0xA5, sizeof got);                                                                        \
		*bad += c_##STREAM##_put(p, f, in, got, (size_t)m - 1) != PMREGS_ENOSPC;                               \
		*bad += !untouched(got, sizeof got);                                                                  \
		*bad += c_##STREAM##_put(p, f, in, got, (size_t)m) != m || memcmp(got, want, (size_t)m) != 0;             \
		*bad += !untouched(got + m, sizeof got - (size_t)m);                                                  \
		*bad += pmregs_etrace_##PAYLOAD##_decode(p, pl, (size_t)n, &back) != PMREGS_OK;                        \
		pmregs_etrace_##STREAM##_init(&s, got, (size_t)m, 1);                                                 \
		*bad += !pmregs_etrace_##STREAM##_next(&s, p, &it) || it.status != PMREGS_OK || it.size != (size_t)m;  \
		*bad += it.has_payload && !SAME(&it.payload, &back);                                                  \
		return m;                                                                                             \
	}

WRITER_CHECK(smi_stream, smi, te_inst, same)
WRITER_CHECK(encap_stream, encap, te_inst, same)
WRITER_CHECK(atb_stream, atb, te_inst, same)
WRITER_CHECK(smi_data_stream, smi, te_data, dsame)

/* A packet made bad one time in eight: a value wider than its field, or a shape that does not exist. */
static void spoil(pkt_t *t)
{
	switch (rnd() % 16) {
	case 0:
		t->irdepth = ~(uint64_t)0;
		t->address = ~(uint64_t)0;
		t->ecause = ~(uint64_t)0;
		t->branch_count = 0xFFFFFFFFu;
		break;
	case 1:
		t->shape = (uint8_t)(40 + rnd() % 200);
		break;
	default:
		break;
	}
}

static void test_writers(void)
{
	enum { NP = 4000, NB = 64 };
	const size_t np = NP / fixed_div(); /* packets per set */
	static pkt_t in[NP];
	static unsigned char one[NP * 48], all[NP * 48];
	static size_t at[NP + 1];
	int k;
	size_t bad = 0, ok = 0, err = 0;
	for (k = 0; k < NSETS; k++) {
		params_t p;
		size_t i, used, n;
		struct pmregs_etrace_smi f;
		param_set(k, &p);
		p.encap_srcid_bits = (uint8_t)(k % 3 ? 3 : 8); /* a payload at bit 4, or at a whole byte */
		p.encap_type_bits = 1;
		p.encap_type_inst = 0;
		p.encap_timestamp_bytes = (uint8_t)(k % 4);
		p.smi_index_bits = (uint8_t)(k % 2 ? 5 : 0);
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		for (i = 0; i < np; i++) {
			struct pmregs_etrace_encap e;
			struct pmregs_etrace_atb a;
			int m;
			random_packet(&p, &in[i]);
			spoil(&in[i]);
			pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
			f.msg_type = 2;
			f.index = (uint16_t)(rnd() & mask(p.smi_index_bits + (unsigned)(rnd() % 16 == 0))); /* sometimes too wide */
			f.timestamp_present = (uint8_t)(rnd() & 1);
			f.timestamp = (uint16_t)(f.timestamp_present ? rnd() : 0);
			m = check_smi_stream(&p, &f, &in[i], &bad);
			ok += m > 0;
			err += m < 0;
			pmregs_etrace_encap_init(&e, PMREGS_ETRACE_ENCAP_SHAPE_NORMAL);
			e.srcid = (uint16_t)(rnd() & 7);
			e.extend = (uint8_t)(p.encap_timestamp_bytes ? rnd() & 1 : 0);
			e.timestamp = e.extend ? rnd() & mask(8u * p.encap_timestamp_bytes) : 0;
			check_encap_stream(&p, &e, &in[i], &bad);
			pmregs_etrace_atb_init(&a, PMREGS_ETRACE_ATB_SHAPE_MESSAGE);
			a.timestamp_present = (uint8_t)(rnd() & 1);
			a.timestamp = (uint16_t)(a.timestamp_present ? rnd() : 0);
			check_atb_stream(&p, &a, &in[i], &bad);
		}
		/* the batch writer: the same bytes as one put after another; it stops at a bad packet or no room */
		pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
		f.msg_type = 2;
		for (i = 0, at[0] = 0; i < np; i++) {
			int m = c_smi_stream_put(&p, &f, &in[i], one + at[i], 48);
			if (m < 0)
				break;
			at[i + 1] = at[i] + (size_t)m;
		}
		n = c_smi_stream_put_batch(&p, &f, in, np, all, sizeof all, &used);
		CHECK_EQ(n, i);
		CHECK_EQ(used, at[i]);
		CHECK(memcmp(one, all, at[i]) == 0);
		if (i > 2) { /* room for all but the last byte of packet i - 1 */
			n = c_smi_stream_put_batch(&p, &f, in, i, all, at[i] - 1, &used);
			CHECK_EQ(n, i - 1);
			CHECK_EQ(used, at[i - 1]);
		}
		n = c_smi_stream_put_batch(&p, &f, in, 0, all, sizeof all, &used);
		CHECK_EQ(n, 0);
		CHECK_EQ(used, 0);
	}
	for (k = 0; k < NDSETS; k++) {
		params_t p;
		size_t i;
		data_param_set(k, &p);
		p.smi_index_bits = (uint8_t)(k % 2 ? 9 : 0);
		CHECK_EQ(pmregs_etrace_params_check(&p), PMREGS_OK);
		for (i = 0; i < np; i++) {
			struct pmregs_etrace_smi f;
			dpkt_t t;
			random_data(&p, &t);
			if (rnd() % 16 == 0)
				t.address = ~(uint64_t)0;
			pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
			f.msg_type = 3;
			f.index = (uint16_t)(rnd() & mask(p.smi_index_bits));
			ok += check_smi_data_stream(&p, &f, &t, &bad) > 0;
		}
	}
	CHECK_EQ(bad, 0);
	printf("writers: %zu packets framed, %zu refused alike by both paths\n", ok, err);
	CHECK(ok > np * (NSETS + NDSETS) * 3 / 4); /* most packets were good, */
	CHECK(err > np * NSETS / 20);              /* and enough were bad */
}

/*
 * The transport notes of the E-Trace specification's "Fragment code and transport" section: packets on ATB
 * start at a beat and the last beat's ATBYTES gives its valid bytes; packets in memory may be written in
 * M-byte blocks that always start with a packet, zero bytes padding each block's end.
 */
static void test_transport(void)
{
	enum { NP = 3000 };
	static unsigned char buf[NP * 80], want[NP * 40];
	static size_t off[NP];
	static const uint8_t ab[] = {3, 1};
	static const size_t blocks[] = {32, 64, 1024};
	unsigned char b[16] = {0x05, 0x32, 0x04, 0x00, 0x00, 0x02, 0x00, 0x00};
	unsigned char keep[16];
	params_t p;
	size_t len = 99, i, used, nb, bi;
	pkt_t t;
	/* the specification's beats: ATDATA 0x00043205 (ATBYTES 3) and 0x00000200 (ATBYTES 1), as bytes */
	CHECK_EQ(pmregs_atb_gather(b, 2, 4, ab, &len), PMREGS_OK);
	CHECK_EQ(len, 6);
	CHECK(memcmp(b, "\x05\x32\x04\x00\x00\x02", 6) == 0);
	/* an ATBYTES past the beat is refused and nothing moves */
	memcpy(keep, b, sizeof b);
	{
		static const uint8_t bad[] = {3, 4};
		len = 99;
		CHECK_EQ(pmregs_atb_gather(b, 2, 4, bad, &len), PMREGS_EINVAL);
		CHECK_EQ(len, 99);
		CHECK(memcmp(keep, b, sizeof b) == 0);
		CHECK_EQ(pmregs_atb_gather(b, 2, 0, ab, &len), PMREGS_EINVAL);
	}

	/* random packets as ATB messages, each starting a beat and ending in a partial one; and in blocks */
	specfrag(&p);
	for (bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++) {
		size_t beat = bi == 0 ? 4 : bi == 1 ? 8 : 16, w = 0, nbeats = 0, total = 0, k, items = 0, crossed = 0;
		static uint8_t atb[NP * 40];
		struct pmregs_etrace_atb f;
		struct pmregs_etrace_atb_stream s;
		struct pmregs_etrace_atb_stream_item it;
		pmregs_etrace_atb_init(&f, PMREGS_ETRACE_ATB_SHAPE_MESSAGE);
		for (i = 0; i < NP; i++) {
			unsigned char one[64];
			int m;
			do {
				random_packet(&p, &t);
				m = c_atb_stream_put(&p, &f, &t, one, sizeof one);
			} while (m <= 0);
			memcpy(want + total, one, (size_t)m);
			off[i] = total;
			total += (size_t)m;
			for (k = 0; k < (size_t)m; k += beat) { /* the beats of this message, the last one partial */
				size_t valid = (size_t)m - k < beat ? (size_t)m - k : beat, j;
				for (j = 0; j < beat; j++)
					buf[w + j] = j < valid ? one[k + j] : (unsigned char)rnd(); /* junk past ATBYTES */
				atb[nbeats++] = (uint8_t)(valid - 1);
				w += beat;
			}
		}
		CHECK_EQ(pmregs_atb_gather(buf, nbeats, beat, atb, &len), PMREGS_OK);
		CHECK_EQ(len, total);
		CHECK(memcmp(buf, want, total) == 0);
		pmregs_etrace_atb_stream_init(&s, buf, len, 1);
		while (c_atb_stream_next(&s, &p, &it))
			items += it.has_payload && it.status == PMREGS_OK;
		CHECK_EQ(items, NP);

		/* the block writer: SMI messages in blocks; none spans a boundary, the walker reads them all back */
		{
			size_t block = blocks[bi];
			struct pmregs_etrace_smi sf;
			struct pmregs_etrace_smi_stream ss;
			struct pmregs_etrace_smi_stream_item si;
			pmregs_etrace_smi_init(&sf, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
			sf.msg_type = 2;
			used = 0;
			for (i = 0; i < NP; i++) {
				int m;
				do {
					random_packet(&p, &t);
					m = c_smi_stream_put(&p, &sf, &t, buf + used, sizeof buf - used);
				} while (m <= 0);
				off[i] = used;
				CHECK_EQ(pmregs_block_place(buf, sizeof buf, used, (size_t)m, block, &used), PMREGS_OK);
				off[i] = used - (size_t)m;
				crossed += off[i] / block != (used - 1) / block;
			}
			CHECK_EQ(crossed, 0);
			nb = 0;
			pmregs_etrace_smi_stream_init(&ss, buf, used, 1);
			while (c_smi_stream_next(&ss, &p, &si)) {
				CHECK(si.status == PMREGS_OK);
				if (si.has_payload) {
					CHECK(nb < NP && si.offset == off[nb]);
					nb++;
				}
			}
			CHECK_EQ(nb, NP);
		}
	}
	/* placing: a packet that fits stays; one that would cross moves to the boundary over zero fill */
	memset(buf, 0xA5, 64);
	CHECK_EQ(pmregs_block_place(buf, 64, 10, 5, 16, &used), PMREGS_OK);
	CHECK_EQ(used, 15);
	memset(buf + 12, 0x11, 6);
	CHECK_EQ(pmregs_block_place(buf, 64, 12, 6, 16, &used), PMREGS_OK);
	CHECK_EQ(used, 22);
	CHECK(buf[12] == 0 && buf[15] == 0 && buf[16] == 0x11 && buf[21] == 0x11);
	CHECK_EQ(pmregs_block_place(buf, 64, 12, 17, 16, &used), PMREGS_EINVAL); /* longer than a block */
	CHECK_EQ(pmregs_block_place(buf, 64, 12, 6, 0, &used), PMREGS_EINVAL);
	memset(buf, 0xA5, 64);
	used = 7;
	CHECK_EQ(pmregs_block_place(buf, 20, 12, 6, 16, &used), PMREGS_ENOSPC);   /* 16 + 6 > 20 */
	CHECK(used == 7 && buf[12] == 0xA5);

	/* format 0 subformat when f0s_width_p = 0: from the support packet's ioptions ("Format 0 subformat field") */
	CHECK_EQ(pmregs_etrace_f0s_of_ioptions_ref(PMREGS_ETRACE_IOPTIONS_REF_JUMP_TARGET_CACHE(1)), 1);
	CHECK_EQ(pmregs_etrace_f0s_of_ioptions_ref(PMREGS_ETRACE_IOPTIONS_REF_BRANCH_PREDICTION(1)), 0);
	CHECK_EQ(pmregs_etrace_f0s_of_ioptions_ref(0), 0);
	CHECK_EQ(pmregs_etrace_f0s_of_ioptions_pulp(PMREGS_ETRACE_IOPTIONS_PULP_JUMP_TARGET_CACHE(1)), 1);
	CHECK_EQ(pmregs_etrace_f0s_of_ioptions_pulp(PMREGS_ETRACE_IOPTIONS_PULP_JUMP_TARGET_CACHE(1) |
						    PMREGS_ETRACE_IOPTIONS_PULP_IMPLICIT_RETURN(1)), 1);
	{
		/* a support packet announcing the jump target cache, then a format 0 packet without subformat bits */
		pkt_t sup, jtc, got;
		unsigned char c[64];
		int n;
		pmregs_etrace_params_default(&p);
		p.cache_size_p = 4; /* a 16-entry jump target cache: 4-bit indices */
		pmregs_etrace_te_inst_init(&sup, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
		sup.ienable = 1;
		sup.ioptions = PMREGS_ETRACE_IOPTIONS_REF_JUMP_TARGET_CACHE(1);
		n = c_te_inst_encode(&p, &sup, c, sizeof c);
		CHECK(n > 0 && pmregs_etrace_te_inst_decode(&p, c, (size_t)n, &got) == PMREGS_OK);
		p.f0s_inferred = pmregs_etrace_f0s_of_ioptions_ref(got.ioptions);
		CHECK_EQ(p.f0s_inferred, 1);
		pmregs_etrace_te_inst_init(&jtc, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
		jtc.index = 5;
		n = c_te_inst_encode(&p, &jtc, c, sizeof c);
		CHECK(n > 0 && pmregs_etrace_te_inst_decode(&p, c, (size_t)n, &got) == PMREGS_OK);
		CHECK_EQ(got.shape, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
		CHECK_EQ(got.index, 5);
		p.f0s_inferred = 0; /* read with the other subformat, the same bits are not a jump target cache packet */
		CHECK(pmregs_etrace_te_inst_decode(&p, c, (size_t)n, &got) != PMREGS_OK ||
		      got.shape != PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
	}
	/* qual_status: ended_rep = tracing stopped after the 1st execution, ended_ntr after the 2nd */
	CHECK(pmregs_etrace_ended_in_first_iteration(PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP));
	CHECK(!pmregs_etrace_ended_in_first_iteration(PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_NTR));
	CHECK(!pmregs_etrace_ended_in_first_iteration(PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE));
}

int main(void)
{
	test_spec_examples();
	test_params();
	test_compression_rules();
	test_encap();
	test_smi();
	test_semantic();
	test_stream();
	test_presets();
	test_atb();
	test_fast_paths();
	test_word_wide_irdepth();
	test_writers();
	test_transport();
	test_data_vectors();
	test_data_csr();
	test_data_atomic_subtypes();
	test_data_stream();
	test_data_random_bytes();
	test_data_round_trips();
	test_random_bytes();
	test_round_trips();
	return check_done("test_etrace");
}
TEST_COLD_END
