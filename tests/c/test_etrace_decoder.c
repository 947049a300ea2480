/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The E-Trace decoder (<pmregs/etrace_decoder.h>):
 *   - golden cases, one per rule of the specification's payload chapter
 *     ("Instruction Trace Encoder Output Packets": the looplabel cases of
 *     notify and updiscon, irreport/irdepth, the full branch map, qual_status
 *     ended_rep/ended_ntr) and of its decoder and branch trace chapters
 *     (traps, sequentially inferable jumps, the jump target cache, branch
 *     prediction, full and differential addresses), each with the execution
 *     it stands for written out;
 *   - every inconsistency reason, and where decoding resumes;
 *   - the fast decoder against the naive one (tests/etrace/naive_decoder.h, a
 *     plain transliteration of the pseudo-code) on the golden cases, on the
 *     real-program vectors of tests/etrace/vectors, on mutated copies of them
 *     and on random programs with random packet streams under random
 *     parameters and options;
 *   - output arrays of every small size (the decoder resumes exactly where it
 *     stopped) and parallel chunks (concatenated, they equal the whole trace);
 *   - the ELF reader on good, truncated and corrupted files.
 * The random rounds (random programs, mutated streams, corrupted ELF headers) are test_scale()'s:
 * fewer in the 32-bit and emulated big-endian runs, whose point is the word size and the byte order;
 * the emulated run decodes a quarter of the vectors (test_sparse()), every parameter set and XLEN.
 *
 * pmregs-test: no-force-inline (its native gcc -O2 build also defines PMREGS_NO_FORCE_INLINE, two thirds
 * of the build time: no path it checks depends on the inlining; the one that does, the stream readers'
 * constant-parameter path, is test_etrace_word's)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace_decoder.h>
#include <pmregs/etrace_tools.h>
#include "../common/check.h"
#define TEST_SEED 0x5DEECE66DA3B1F27u
#include "../common/xorshift.h"
#include "../etrace/naive_decoder.h"

/* ---- programs ---- */

struct prog {
	uint64_t base;
	unsigned char b[16384];
	uint64_t len;
};

static void put32(struct prog *g, uint64_t a, uint32_t x)
{
	uint64_t o = a - g->base;
	g->b[o] = (unsigned char)x;
	g->b[o + 1] = (unsigned char)(x >> 8);
	g->b[o + 2] = (unsigned char)(x >> 16);
	g->b[o + 3] = (unsigned char)(x >> 24);
	if (o + 4 > g->len)
		g->len = o + 4;
}

static void put16(struct prog *g, uint64_t a, uint32_t x)
{
	uint64_t o = a - g->base;
	g->b[o] = (unsigned char)x;
	g->b[o + 1] = (unsigned char)(x >> 8);
	if (o + 2 > g->len)
		g->len = o + 2;
}

/* RV32I/RV64I encodings (The RISC-V Instruction Set Manual, Volume I, "RV32I Base Integer Instruction Set"). */
static uint32_t i_nop(void) { return 0x00000013u; }
static uint32_t i_addi(unsigned rd, unsigned rs1, int imm) { return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | rd << 7 | 0x13u; }
static uint32_t i_jal(unsigned rd, int off)
{
	uint32_t o = (uint32_t)off;
	return ((o >> 20) & 1u) << 31 | ((o >> 1) & 0x3ffu) << 21 | ((o >> 11) & 1u) << 20 | ((o >> 12) & 0xffu) << 12 | rd << 7 | 0x6fu;
}
static uint32_t i_jalr(unsigned rd, unsigned rs1, int imm) { return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | rd << 7 | 0x67u; }
static uint32_t i_branch(unsigned f3, unsigned rs1, unsigned rs2, int off)
{
	uint32_t o = (uint32_t)off;
	return ((o >> 12) & 1u) << 31 | ((o >> 5) & 0x3fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | ((o >> 1) & 0xfu) << 8 |
	       ((o >> 11) & 1u) << 7 | 0x63u;
}
static uint32_t i_bne(unsigned rs1, unsigned rs2, int off) { return i_branch(1, rs1, rs2, off); }
static uint32_t i_auipc(unsigned rd, uint32_t imm20) { return imm20 << 12 | rd << 7 | 0x17u; }
static uint32_t i_lui(unsigned rd, uint32_t imm20) { return imm20 << 12 | rd << 7 | 0x37u; }
#define I_ECALL 0x00000073u
#define I_MRET  0x30200073u
/* RVC (Volume I, "Compressed Instruction Formats") */
static uint32_t c_jr(unsigned rs1) { return 0x8002u | rs1 << 7; }
static uint32_t c_lui(unsigned rd, unsigned imm6) { return 0x6001u | ((imm6 >> 5) & 1u) << 12 | rd << 7 | (imm6 & 31u) << 2; }

/* ---- scenarios: a program, parameters, options and packets ---- */

#define MAXPK 8000

struct scen {
	struct pmregs_etrace_params p;
	struct prog g[2];
	int ng;
	unsigned xlen, layout;
	uint32_t options;
	uint64_t tvec[8];
	int no_stack, no_cache, no_bpred;
	uint64_t max_steps;
	int n;
	uint64_t base; /* the differential base, as the decoder will hold it */
	int full;      /* full-address mode, for the packet builders */
	struct pmregs_etrace_te_inst pk[MAXPK]; /* the first n; each is set whole as it is added */
};

/* Everything but the packets is cleared: those past n are never read (clearing all 8000 of them for
   every scenario was most of this test's time, and most of its emulated big-endian run's). */
static void scen_init(struct scen *sc, unsigned xlen, uint64_t base)
{
	memset(sc, 0, offsetof(struct scen, pk));
	pmregs_etrace_params_default(&sc->p);
	sc->p.iaddress_width_p = (uint8_t)xlen;
	sc->p.iaddress_lsb_p = 1;
	sc->p.privilege_width_p = 2;
	sc->xlen = xlen;
	sc->layout = PMREGS_ETRACE_IOPTIONS_REF;
	sc->ng = 1;
	sc->g[0].base = base;
}

static uint64_t amask(const struct scen *sc)
{
	unsigned w = sc->p.iaddress_width_p < sc->xlen ? sc->p.iaddress_width_p : sc->xlen;
	return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
}

static struct pmregs_etrace_te_inst *pk_new(struct scen *sc, unsigned shape)
{
	struct pmregs_etrace_te_inst *t = &sc->pk[sc->n++];
	pmregs_etrace_te_inst_init(t, shape);
	return t;
}

/* An address field: full, or the difference from the base (and the base moves). */
static uint64_t addr_field(struct scen *sc, uint64_t a)
{
	unsigned w = (unsigned)(sc->p.iaddress_width_p - sc->p.iaddress_lsb_p);
	uint64_t v = sc->full ? a : a - sc->base;
	sc->base = a;
	return (v & amask(sc)) >> sc->p.iaddress_lsb_p & pmregs_lowmask(w);
}

static void semantic(struct scen *sc, struct pmregs_etrace_te_inst *t, int notify, int updiscon, int irreport, uint64_t irdepth)
{
	struct pmregs_etrace_te_inst_semantic s;
	irdepth &= pmregs_lowmask((unsigned)pmregs_etrace_irdepth_width(&sc->p));
	s.notify = (uint8_t)notify;
	s.updiscon = (uint8_t)updiscon;
	s.irreport = (uint8_t)irreport;
	s.irdepth_reported = (uint8_t)irreport;
	s.irdepth = irdepth;
	CHECK_EQ(pmregs_etrace_te_inst_semantic_set(&sc->p, t, &s), PMREGS_OK);
}

static void pk_support(struct scen *sc, uint32_t ioptions, unsigned qual)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	t->ienable = 1;
	t->ioptions = ioptions;
	t->qual_status = (uint8_t)qual;
}

static void pk_start(struct scen *sc, uint64_t a, unsigned priv, unsigned branch)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_START);
	t->address = (a & amask(sc)) >> sc->p.iaddress_lsb_p;
	t->privilege = (uint8_t)priv;
	t->branch = (uint8_t)branch;
	sc->base = a;
}

static void pk_trap(struct scen *sc, uint64_t a, unsigned priv, unsigned ecause, int interrupt, int thaddr, uint64_t tval)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_TRAP);
	t->address = (a & amask(sc)) >> sc->p.iaddress_lsb_p;
	t->privilege = (uint8_t)priv;
	t->ecause = ecause;
	t->interrupt = (uint8_t)interrupt;
	t->thaddr = (uint8_t)thaddr;
	t->tval = tval;
	t->branch = 1;
	if (thaddr)
		sc->base = a;
}

static void pk_addr(struct scen *sc, uint64_t a, int notify, int updiscon, int irreport, uint64_t irdepth)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	t->format = 2;
	t->address = addr_field(sc, a);
	semantic(sc, t, notify, updiscon, irreport, irdepth);
}

/* Format 1 with n (1..31) branches and an address. map: bit i = branch i, 0 = taken. */
static void pk_branch(struct scen *sc, unsigned n, uint32_t map, uint64_t a, int notify, int updiscon, int irreport, uint64_t irdepth)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
	t->format = 1;
	t->branches = (uint8_t)n;
	t->branch_map = map;
	t->address = addr_field(sc, a);
	semantic(sc, t, notify, updiscon, irreport, irdepth);
}

static void pk_full_map(struct scen *sc, uint32_t map)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
	t->format = 1;
	t->branches = 0;
	t->branch_map = map & 0x7fffffffu;
}

static void pk_jtc(struct scen *sc, unsigned index, uint64_t target, unsigned n, uint32_t map)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
	t->format = 0;
	t->subformat = 1;
	t->index = index;
	t->branches = (uint8_t)n;
	t->branch_map = map;
	semantic(sc, t, 0, 0, 0, 0);
	sc->base = target;
}

static void pk_count(struct scen *sc, uint32_t count, unsigned fmt, uint64_t a)
{
	struct pmregs_etrace_te_inst *t = pk_new(sc, fmt ? PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR : PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT);
	t->format = 0;
	t->subformat = 0;
	t->branch_count = count;
	t->branch_fmt = (uint8_t)fmt;
	if (fmt) {
		t->address = addr_field(sc, a);
		semantic(sc, t, 0, 0, 0, 0);
	}
}

/* ---- running both decoders ---- */

#define MAXIT 150000

struct out {
	struct pmregs_etrace_item it[MAXIT];
	size_t n;
	int overflow;
	uint64_t errors;
	uint64_t counts[4]; /* the decoder's counters after it (run_stream()): instructions, traps, contexts, packets */
};

static uint64_t stack_mem[1 << 12], jc_mem[1 << 12];
static uint8_t bp_mem[1 << 12];

static void make_image(const struct scen *sc, struct pmregs_etrace_image_range *r, struct pmregs_etrace_dinsn *caches[2],
		       struct pmregs_etrace_image *img, int use_cache)
{
	int i;
	for (i = 0; i < sc->ng; i++) {
		r[i].base = sc->g[i].base;
		r[i].bytes = sc->g[i].b;
		r[i].len = sc->g[i].len;
		r[i].cache = use_cache ? caches[i] : 0;
		if (use_cache) /* the (len + 1) / 2 records the range's cache holds: an empty cache */
			memset(caches[i], 0, sizeof(struct pmregs_etrace_dinsn) * (size_t)((r[i].len + 1) / 2));
		if (use_cache == 2) /* every record decoded before, runs and all */
			pmregs_etrace_image_predecode(&r[i], sc->xlen);
	}
	img->ranges = r;
	img->nranges = (size_t)sc->ng;
	img->xlen = sc->xlen;
	img->read = 0;
	img->ctx = 0;
}

static void config(const struct scen *sc, struct pmregs_etrace_decoder_config *c, const struct pmregs_etrace_image *img)
{
	memset(c, 0, sizeof *c);
	c->params = &sc->p;
	c->image = img;
	c->return_stack = sc->no_stack ? 0 : stack_mem;
	c->jump_cache = sc->no_cache ? 0 : jc_mem;
	c->bpred = sc->no_bpred ? 0 : bp_mem;
	c->ioptions_layout = sc->layout;
	c->options = sc->options;
	c->max_steps = sc->max_steps;
	memcpy(c->tvec, sc->tvec, sizeof c->tvec);
}

static struct pmregs_etrace_dinsn cache0[8193], cache1[8193];

/* The fast decoder on sc's packets through an output window of cap items (use_cache: 0 no records, 1 records
 * decoded as met, 2 pre-decoded). */
static void run_fast(const struct scen *sc, size_t cap, int use_cache, struct out *o)
{
	struct pmregs_etrace_image_range r[2];
	struct pmregs_etrace_dinsn *caches[2] = {cache0, cache1};
	struct pmregs_etrace_image img;
	struct pmregs_etrace_decoder_config c;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_item win[256];
	int i;
	if (cap > 256)
		cap = 256;
	make_image(sc, r, caches, &img, use_cache);
	config(sc, &c, &img);
	memset(&d, use_cache ? 0xa5 : 0x5a, sizeof d); /* init must set every field the decoder reads */
	CHECK_EQ(pmregs_etrace_decoder_init(&d, &c), PMREGS_OK);
	o->n = 0;
	o->overflow = 0;
	for (i = 0; i < sc->n; i++) {
		int rc, spins = 0;
		do {
			size_t n = 0, k;
			rc = pmregs_etrace_decoder_packet(&d, &sc->pk[i], win, cap, &n);
			for (k = 0; k < n; k++) {
				if (o->n < MAXIT)
					o->it[o->n++] = win[k];
				else
					o->overflow = 1;
			}
			if (++spins > 1000000) {
				CHECK(spins <= 1000000); /* the decoder makes no progress */
				return;
			}
		} while (rc == PMREGS_ENOSPC);
		CHECK(rc == PMREGS_OK || rc == PMREGS_EINVAL);
	}
	o->errors = d.errors;
}

static struct naive nv;
static struct naive_item nitems[MAXIT];

static size_t run_naive(const struct scen *sc)
{
	struct naive_image im;
	int i;
	im.n = sc->ng;
	im.xlen = sc->xlen;
	for (i = 0; i < sc->ng; i++) {
		im.base[i] = sc->g[i].base;
		im.bytes[i] = sc->g[i].b;
		im.len[i] = sc->g[i].len;
	}
	naive_init(&nv, &sc->p, &im, sc->layout, sc->options, !sc->no_stack, !sc->no_cache, !sc->no_bpred, 0, nitems, MAXIT);
	for (i = 0; i < 8; i++)
		nv.tvec[i] = sc->tvec[i];
	if (sc->max_steps)
		nv.max_steps = sc->max_steps;
	for (i = 0; i < sc->n; i++)
		naive_process_te_inst(&nv, &sc->pk[i]);
	return nv.nout;
}

static int same_items(const struct out *a, const struct out *b)
{
	return a->n == b->n && memcmp(a->it, b->it, a->n * sizeof a->it[0]) == 0;
}

static int same_as_naive(const struct out *f, size_t nn, const char *what)
{
	size_t i;
	if (nn > MAXIT || f->overflow)
		return 1; /* too long to compare */
	for (i = 0; i < f->n && i < nn; i++) {
		const struct pmregs_etrace_item *x = &f->it[i];
		const struct naive_item *y = &nitems[i];
		if (x->type != y->type || x->address != y->address || x->value != y->value || x->info != y->info || x->length != y->length ||
		    x->kind != y->kind || x->privilege != y->privilege) {
			fprintf(stderr, "%s: item %zu: fast type %u address %#llx value %#llx info %u length %u kind %u priv %u; naive %u %#llx %#llx %u %u %u %u\n",
				what, i, x->type, (unsigned long long)x->address, (unsigned long long)x->value, x->info, x->length, x->kind,
				x->privilege, y->type, (unsigned long long)y->address, (unsigned long long)y->value, y->info, y->length, y->kind,
				y->privilege);
			return 0;
		}
	}
	if (f->n != nn) {
		fprintf(stderr, "%s: fast %zu items, naive %zu\n", what, f->n, nn);
		return 0;
	}
	return 1;
}

static struct out o_big, o_small;

static int check_smi(const char *what, size_t small);

/* Run sc: the fast decoder (big window, then every small window, with and without pre-decoding) and the
 * naive one must agree, and pmregs_etrace_decode_smi() on its packets as a stream with one packet at a time.
 * Leaves the big-window result in o_big. */
static void run_all(const struct scen *sc, const char *what)
{
	size_t nn, cap;
	run_fast(sc, 64, 1, &o_big);
	if (getenv("DUMP")) {
		size_t i;
		fprintf(stderr, "== %s\n", what);
		for (i = 0; i < o_big.n; i++)
			fprintf(stderr, "  type %u address %#llx value %#llx info %u length %u kind %u priv %u\n", o_big.it[i].type,
				(unsigned long long)o_big.it[i].address, (unsigned long long)o_big.it[i].value, o_big.it[i].info,
				o_big.it[i].length, o_big.it[i].kind, o_big.it[i].privilege);
	}
	nn = run_naive(sc);
	CHECK(same_as_naive(&o_big, nn, what));
	for (cap = PMREGS_ETRACE_ROOM; cap <= 8; cap++) {
		run_fast(sc, cap, (int)(cap % 3), &o_small);
		if (!same_items(&o_big, &o_small)) {
			fprintf(stderr, "%s: output window %zu differs\n", what, cap);
			CHECK(0);
		}
	}
	(void)check_smi(what, PMREGS_ETRACE_ROOM + 2);
}

/*
 * The hand-made scenarios and the ELF reader's tests run a fixed, short while: compiled with little
 * optimisation (TEST_COLD_BEGIN, tests/common/check.h); the decoders, the runs and comparisons of
 * both, the vectors and the random and mutated streams are not.
 */
TEST_COLD_BEGIN

/* The instruction addresses in o_big must be want[0..n). */
static void want_insns(const char *what, const uint64_t *want, size_t n)
{
	size_t i, k = 0;
	int ok = 1;
	for (i = 0; i < o_big.n; i++) {
		if (o_big.it[i].type != PMREGS_ETRACE_ITEM_INSN)
			continue;
		if (k >= n || o_big.it[i].address != want[k])
			ok = 0;
		k++;
	}
	if (k != n)
		ok = 0;
	if (!ok) {
		fprintf(stderr, "%s: instructions:", what);
		for (i = 0; i < o_big.n; i++)
			if (o_big.it[i].type == PMREGS_ETRACE_ITEM_INSN)
				fprintf(stderr, " %llx", (unsigned long long)o_big.it[i].address);
			else
				fprintf(stderr, " [type %u info %u]", o_big.it[i].type, o_big.it[i].info);
		fprintf(stderr, "\n%s: wanted      :", what);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %llx", (unsigned long long)want[i]);
		fprintf(stderr, "\n");
	}
	CHECK(ok);
}

/* The first item of the given type, or 0. */
static const struct pmregs_etrace_item *find_item(unsigned type)
{
	size_t i;
	for (i = 0; i < o_big.n; i++)
		if (o_big.it[i].type == type)
			return &o_big.it[i];
	return 0;
}

static size_t count_items(unsigned type)
{
	size_t i, c = 0;
	for (i = 0; i < o_big.n; i++)
		c += o_big.it[i].type == type;
	return c;
}

#define WANT(what, ...)                                                         \
	do {                                                                    \
		static const uint64_t w_[] = {__VA_ARGS__};                     \
		want_insns(what, w_, sizeof w_ / sizeof w_[0]);                 \
	} while (0)

static struct scen sc;

/*
 * The looplabel program of the payload chapter, section "Format 2 notify and
 * updiscon fields" (looplabel - 4: opcode A; looplabel: opcode B; looplabel +
 * 4: opcode C; looplabel + N: JALR back to looplabel), at 0x1000, with a trap
 * handler at 0x1100.
 */
static void looplabel_program(void)
{
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());           /* looplabel - 4: A */
	put32(&sc.g[0], 0x1004, i_nop());           /* looplabel: B */
	put32(&sc.g[0], 0x1008, i_nop());           /* looplabel + 4: C */
	put32(&sc.g[0], 0x100c, i_jalr(0, 5, 0));   /* jalr x0, 0(x5): to looplabel */
	put32(&sc.g[0], 0x1100, i_nop());           /* trap handler */
	pk_support(&sc, 0, 0);
	pk_start(&sc, 0x1000, 0, 1);
}

static void test_looplabel(void)
{
	const struct pmregs_etrace_item *t;
	/* Scenario 1: looplabel reported after the JALR, the second pass goes on: updiscon == notify,
	 * the next packet is a format 1/2, so the decoder goes on to looplabel's second occurrence. */
	looplabel_program();
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	run_all(&sc, "looplabel 1 (one packet)");
	WANT("looplabel 1 (one packet)", 0x1000, 0x1004); /* it cannot know yet: it stops at the first occurrence */
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	run_all(&sc, "looplabel 1");
	WANT("looplabel 1", 0x1000, 0x1004, 0x1008, 0x100c, 0x1004, 0x1008, 0x100c, 0x1004);

	/* Scenario 2: an exception at looplabel + 4 in the second iteration: updiscon == !notify,
	 * the next packet a format 3: the decoder goes on to the second occurrence at once. */
	looplabel_program();
	pk_addr(&sc, 0x1004, 0, 1, 0, 0);
	pk_trap(&sc, 0x1100, 3, 2, 0, 1, 0);
	run_all(&sc, "looplabel 2");
	WANT("looplabel 2", 0x1000, 0x1004, 0x1008, 0x100c, 0x1004, 0x1100);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1008 && (t->length & PMREGS_ETRACE_TRAP_EPC) && t->info == 2);

	/* Scenario 3: an exception right after the first execution of looplabel: updiscon == notify
	 * and the next packet is a format 3: the decoder had stopped at the right instruction. */
	looplabel_program();
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_trap(&sc, 0x1100, 3, 2, 0, 1, 0);
	run_all(&sc, "looplabel 3");
	WANT("looplabel 3", 0x1000, 0x1004, 0x1100);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1008);

	/* Scenario 4: a notification at looplabel's first execution (notify == !address[MSB]), the
	 * later ones reported because of the JALR (notify == address[MSB]). */
	looplabel_program();
	pk_addr(&sc, 0x1004, 1, 0, 0, 0);
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	run_all(&sc, "looplabel 4");
	WANT("looplabel 4", 0x1000, 0x1004, 0x1008, 0x100c, 0x1004);

	/* qual_status (section "Format 3 subformat 3 qual_status field"): ended_rep, tracing stopped after
	 * looplabel in the first iteration; ended_ntr, in the second. */
	looplabel_program();
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_support(&sc, 0, 1);
	run_all(&sc, "ended_rep");
	WANT("ended_rep", 0x1000, 0x1004);
	looplabel_program();
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_support(&sc, 0, 3);
	run_all(&sc, "ended_ntr");
	WANT("ended_ntr", 0x1000, 0x1004, 0x1008, 0x100c, 0x1004);
	/* after the end of tracing, a format 2 cannot follow; a new start can */
	pk_addr(&sc, 0x1008, 0, 0, 0, 0);
	pk_start(&sc, 0x1008, 0, 1);
	run_all(&sc, "after ended_ntr");
	WANT("after ended_ntr", 0x1000, 0x1004, 0x1008, 0x100c, 0x1004, 0x1008);
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_ERROR), 1);
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR)->info == PMREGS_ETRACE_REASON_NO_SYNC);
}

/*
 * A loop of branches for the branch map rules (payload chapter, "Format 1 branch_map field"):
 * 0x1000 addi x1, x1, -1; 0x1004 bne x1, x0, 0x1000; 0x1008 jalr x0, 0(x6) to 0x2000.
 */
static void branch_program(void)
{
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_addi(1, 1, -1));
	put32(&sc.g[0], 0x1004, i_bne(1, 0, -4));
	put32(&sc.g[0], 0x1008, i_jalr(0, 6, 0));
	sc.ng = 2;
	sc.g[1].base = 0x2000;
	put32(&sc.g[1], 0x2000, i_nop());
	put32(&sc.g[1], 0x2004, i_nop());
	pk_support(&sc, 0, 0);
	pk_start(&sc, 0x1000, 3, 1);
}

static void test_branch_maps(void)
{
	uint64_t want[80];
	size_t n = 0, i;
	/* branches = 0: a full map of 31 branches and no address; the decoder stops at the 31st branch
	 * (its outcome known, whether the next instruction retires not) */
	branch_program();
	pk_full_map(&sc, 0); /* 31 taken */
	run_all(&sc, "full map");
	want[n++] = 0x1000;
	for (i = 0; i < 30; i++) {
		want[n++] = 0x1004;
		want[n++] = 0x1000;
	}
	want[n++] = 0x1004;
	want_insns("full map", want, n);
	/* the 31st was taken; then one more, not taken, and the jump */
	pk_branch(&sc, 1, 1, 0x2000, 0, 0, 0, 0);
	run_all(&sc, "full map, then format 1");
	want[n++] = 0x1000;
	want[n++] = 0x1004;
	want[n++] = 0x1008;
	want[n++] = 0x2000;
	want_insns("full map, then format 1", want, n);
	CHECK_EQ(o_big.errors, 0);

	/* branches = 31 with an address: a full map and the target of the jump after its last branch */
	branch_program();
	pk_branch(&sc, 31, 0x40000000u, 0x2000, 0, 0, 0, 0); /* 30 taken, the 31st not */
	run_all(&sc, "31 branches and an address");
	n = 0;
	want[n++] = 0x1000;
	for (i = 0; i < 30; i++) {
		want[n++] = 0x1004;
		want[n++] = 0x1000;
	}
	want[n++] = 0x1004;
	want[n++] = 0x1008;
	want[n++] = 0x2000;
	want_insns("31 branches and an address", want, n);
	/* map bits above the count are not branches: 3 branches in a 3-bit field, then 2 in a 3-bit field */
	branch_program();
	pk_branch(&sc, 3, 0x4u | 0x0u, 0x2000, 0, 0, 0, 0); /* T, T, NT: the jump */
	run_all(&sc, "map bits above the count");
	WANT("map bits above the count", 0x1000, 0x1004, 0x1000, 0x1004, 0x1000, 0x1004, 0x1008, 0x2000);
	branch_program();
	pk_branch(&sc, 2, 0x6u, 0x1004, 0, 0, 0, 0); /* T, NT?? the third bit set must not count */
	run_all(&sc, "garbage above the count");
	WANT("garbage above the count", 0x1000, 0x1004, 0x1000, 0x1004);
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) == 0);
}

/*
 * Calls and returns for implicit return (branch trace chapter, "Implicit return mode"; payload
 * chapter "Format 2 irreport and irdepth"): main calls f, f(a0) recurses while a0 != 0.
 *   main 0x1000 jal ra, f; 0x1004 nop; 0x1008 jalr x0, 0(x6) (to 0x3000)
 *   f    0x1100 bne a0, x0, 0x1108; 0x1104 ret; 0x1108 addi a0, a0, -1; 0x110c jal ra, f;
 *        0x1110 nop; 0x1114 ret
 * With a0 = 2 it runs 1000 1100 1108 110c 1100 1108 110c 1100 1104 1110 1114 1110 1114 1004 1008.
 */
static void call_program(unsigned rss, unsigned ccs)
{
	scen_init(&sc, 64, 0x1000);
	sc.p.return_stack_size_p = (uint8_t)rss;
	sc.p.call_counter_size_p = (uint8_t)ccs;
	put32(&sc.g[0], 0x1000, i_jal(1, 0x100));
	put32(&sc.g[0], 0x1004, i_nop());
	put32(&sc.g[0], 0x1008, i_jalr(0, 6, 0));
	put32(&sc.g[0], 0x1100, i_bne(10, 0, 8));
	put32(&sc.g[0], 0x1104, i_jalr(0, 1, 0));
	put32(&sc.g[0], 0x1108, i_addi(10, 10, -1));
	put32(&sc.g[0], 0x110c, i_jal(1, -0xc));
	put32(&sc.g[0], 0x1110, i_nop());
	put32(&sc.g[0], 0x1114, i_jalr(0, 1, 0));
	put32(&sc.g[0], 0x1200, i_nop()); /* trap handler */
	sc.ng = 2;
	sc.g[1].base = 0x3000;
	put32(&sc.g[1], 0x3000, i_nop());
	pk_support(&sc, PMREGS_ETRACE_OPT_IMPLICIT_RETURN, 0);
	pk_start(&sc, 0x1000, 3, 1);
}

static void test_implicit_return(void)
{
	unsigned v, sij;
	for (v = 0; v < 2; v++) {
		/* a return stack of 4, or a 3-bit call counter */
		unsigned rss = v ? 0 : 2, ccs = v ? 3 : 0;
		const char *what = v ? "call counter" : "return stack";
		/* every return implicit: one packet for the jump out of main */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x3000, 0, 0, 0, 0);
		run_all(&sc, what);
		WANT(what, 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1114, 0x1110, 0x1114, 0x1004,
		     0x1008, 0x3000);
		/* without implicit return the first return is uninferable: the packet's address is its target */
		call_program(rss, ccs);
		sc.pk[0].ioptions = 0;
		pk_branch(&sc, 3, 0x4, 0x3000, 0, 0, 0, 0);
		run_all(&sc, "implicit return off");
		WANT("implicit return off", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x3000);

		/* A mispredicted return (the return at 0x1104 goes to 0x1200 instead): reported with irreport
		 * and irdepth = the entries on the stack when it returns (3) */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1200, 0, 0, 1, 3);
		run_all(&sc, "mispredicted return");
		WANT("mispredicted return", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1200);
		/* the same in two packets, so that pmregs_etrace_decode_smi()'s follower takes the one with irreport
		 * itself (run_all compares that with one packet at a time): the first reports 0x1108 with a
		 * notification; again with sequentially inferable jumps on (the return goes through next_pc());
		 * and with 0x1108 reported as an address that may come again (the second packet first follows to
		 * an uninferable jump, the return with irreport, which goes back to 0x1108: the branches then run
		 * out, an error, whichever way the packets come) */
		for (sij = 0; sij < 2; sij++) {
			const char *w2 = sij ? "mispredicted return, sijump" : "mispredicted return after a notification";
			call_program(rss, ccs);
			sc.options = sij ? PMREGS_ETRACE_OPT_SIJUMP : 0u;
			pk_branch(&sc, 1, 0x0, 0x1108, 1, 0, 0, 0);
			pk_branch(&sc, 2, 0x2, 0x1200, 0, 0, 1, 3);
			run_all(&sc, w2);
			WANT(w2, 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1200);
		}
		call_program(rss, ccs);
		pk_branch(&sc, 1, 0x0, 0x1108, 0, 0, 0, 0);
		pk_branch(&sc, 2, 0x2, 0x1200, 0, 0, 1, 3);
		run_all(&sc, "mispredicted return after an inferred address");

		/* The instruction before an exception, not right after a return: the depth tells which
		 * occurrence. 0x1114 is met at depth 2 and at depth 1; an interrupt after the second. */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1114, 0, 0, 1, 1);
		pk_trap(&sc, 0x1200, 3, 7, 1, 1, 0);
		run_all(&sc, "irdepth 1");
		WANT("irdepth 1", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1114, 0x1110, 0x1114, 0x1200);
		CHECK(find_item(PMREGS_ETRACE_ITEM_TRAP) && !(find_item(PMREGS_ETRACE_ITEM_TRAP)->length & PMREGS_ETRACE_TRAP_EPC));
		/* ... and after the first: depth 2 (or no depth: the first occurrence with branches done) */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1114, 0, 0, 1, 2);
		pk_trap(&sc, 0x1200, 3, 7, 1, 1, 0);
		run_all(&sc, "irdepth 2");
		WANT("irdepth 2", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1114, 0x1200);

		/* The instruction right after an implicit return, before an exception: irdepth is the depth
		 * after that return. 0x1110 is reached from the return at 0x1104 (depth 2 after it) and from
		 * the one at 0x1114 (depth 1). */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1110, 0, 0, 1, 1);
		pk_trap(&sc, 0x1200, 3, 2, 0, 1, 0);
		run_all(&sc, "after a return, depth 1");
		WANT("after a return, depth 1", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1114, 0x1110,
		     0x1200);
		CHECK_EQ(o_big.errors, 0);
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1110, 0, 0, 1, 2);
		pk_trap(&sc, 0x1200, 3, 2, 0, 1, 0);
		run_all(&sc, "after a return, depth 2");
		WANT("after a return, depth 2", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1200);
		CHECK_EQ(o_big.errors, 0);
		/* the depth before a return instead (the pseudo-code's reading: the return met at depth irdepth
		 * is the reported one) names the return at 0x1104 (3 entries): its target is the address */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1110, 0, 0, 1, 3);
		pk_trap(&sc, 0x1200, 3, 2, 0, 1, 0);
		run_all(&sc, "before a return, depth 3");
		WANT("before a return, depth 3", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1200);
		CHECK_EQ(o_big.errors, 0);
		/* without irreport the depth is not looked at: the first arrival after the last branch (an
		 * encoder whose irdepth would name an earlier return, one at the same depth since the last
		 * packet, leaves it to the branches; pmregs' encoder does) */
		call_program(rss, ccs);
		pk_branch(&sc, 3, 0x4, 0x1110, 0, 0, 0, 0);
		pk_trap(&sc, 0x1200, 3, 2, 0, 1, 0);
		run_all(&sc, "after a return, no irreport");
		WANT("after a return, no irreport", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1200);
		CHECK_EQ(o_big.errors, 0);
	}
	/* a return stack of 2 entries: the third call drops the oldest, so the last return is uninferable */
	call_program(1, 0);
	pk_branch(&sc, 3, 0x4, 0x1004, 0, 0, 0, 0);
	run_all(&sc, "overflowing return stack");
	WANT("overflowing return stack", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110, 0x1114, 0x1110,
	     0x1114, 0x1004);
	CHECK_EQ(o_big.errors, 0);
	/* A 1-bit call counter holds one call: the second return is already uninferable, and its target
	 * 0x1110 is reported. The decoder reaches 0x1110 first through the implicit return at 0x1104 at
	 * depth 0: that may be the reported instruction (one after an implicit return, before a format 3,
	 * needs no depth when it is 0), so it stops there for now; the next packet, a format 1/2, says it
	 * was not (as for the payload chapter's looplabel), and it goes on to the next arrival through
	 * an uninferable discontinuity. */
	call_program(0, 1);
	pk_branch(&sc, 3, 0x4, 0x1110, 0, 0, 0, 0);
	run_all(&sc, "1-bit call counter");
	WANT("1-bit call counter", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110);
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	run_all(&sc, "1-bit call counter, then the return to main");
	WANT("1-bit call counter, then the return to main", 0x1000, 0x1100, 0x1108, 0x110c, 0x1100, 0x1108, 0x110c, 0x1100, 0x1104, 0x1110,
	     0x1114, 0x1110, 0x1114, 0x1004);
	CHECK_EQ(o_big.errors, 0);
	/* an instruction right after an implicit return at depth 0, before an exception: no irdepth */
	call_program(2, 0);
	put32(&sc.g[0], 0x1100, i_jalr(0, 1, 0)); /* f returns at once */
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_trap(&sc, 0x1200, 3, 2, 0, 1, 0);
	run_all(&sc, "after a return, depth 0");
	WANT("after a return, depth 0", 0x1000, 0x1100, 0x1004, 0x1200);
	CHECK_EQ(o_big.errors, 0);
}

/*
 * Sequentially inferable jumps (ingress port chapter, "Jump classification and target inference"):
 * auipc + jalr, lui + jalr (a call), c.lui + c.jr.
 */
static void test_sijump(void)
{
	int on;
	for (on = 0; on < 2; on++) {
		scen_init(&sc, 64, 0x1000);
		sc.ng = 2;
		sc.g[1].base = 0x2000;
		put32(&sc.g[0], 0x1000, i_auipc(5, 1));    /* x5 = 0x2000 */
		put32(&sc.g[0], 0x1004, i_jalr(0, 5, 0x10)); /* to 0x2010 */
		put32(&sc.g[1], 0x2010, i_lui(6, 3));      /* x6 = 0x3000 */
		put32(&sc.g[1], 0x2014, i_jalr(1, 6, 4));  /* call 0x3004 */
		put16(&sc.g[1], 0x3004, c_lui(7, 4));      /* x7 = 0x4000 */
		put16(&sc.g[1], 0x3006, c_jr(7));          /* to 0x4000 */
		put32(&sc.g[1], 0x4000, i_nop());
		put32(&sc.g[1], 0x4004, i_nop());
		put32(&sc.g[1], 0x4008, i_nop());
		sc.options = on ? PMREGS_ETRACE_OPT_SIJUMP : 0;
		sc.layout = PMREGS_ETRACE_IOPTIONS_NONE;
		pk_start(&sc, 0x1000, 3, 1);
		pk_addr(&sc, 0x4004, 0, 0, 0, 0);
		pk_trap(&sc, 0x4008, 3, 7, 1, 1, 0);
		run_all(&sc, on ? "sijump" : "sijump off");
		if (on)
			WANT("sijump", 0x1000, 0x1004, 0x2010, 0x2014, 0x3004, 0x3006, 0x4000, 0x4004, 0x4008);
		else /* the auipc's jump is uninferable: the packet is its target */
			WANT("sijump off", 0x1000, 0x1004, 0x4004, 0x4008);
	}
	/* the pulp layout carries the option; the reference layout does not, so the configured one stays */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_auipc(5, 0));
	put32(&sc.g[0], 0x1004, i_jalr(0, 5, 0x100)); /* 0x1100 */
	put32(&sc.g[0], 0x1100, i_nop());
	put32(&sc.g[0], 0x1104, i_nop());
	sc.layout = PMREGS_ETRACE_IOPTIONS_PULP;
	pk_support(&sc, 0x08, 0); /* pulp: sijump */
	pk_start(&sc, 0x1000, 3, 1);
	pk_addr(&sc, 0x1104, 0, 0, 0, 0);
	pk_support(&sc, 0, 1);
	run_all(&sc, "sijump in the pulp layout");
	WANT("sijump in the pulp layout", 0x1000, 0x1004, 0x1100, 0x1104);
	sc.layout = PMREGS_ETRACE_IOPTIONS_REF;
	sc.options = PMREGS_ETRACE_OPT_SIJUMP;
	sc.pk[0].ioptions = 0;
	run_all(&sc, "sijump kept under the reference layout");
	WANT("sijump kept under the reference layout", 0x1000, 0x1004, 0x1100, 0x1104);
}

/* Traps (payload chapter "Format 3 thaddr, address and privilege fields"; decoder exception_address). */
static void test_traps(void)
{
	const struct pmregs_etrace_item *t;
	int i;
	/* ecall: it retires and traps; its EPC is itself. The handler returns with mret to user mode:
	 * a privilege change, so a format 3.0 at the instruction after the ecall. */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1004, I_ECALL);
	put32(&sc.g[0], 0x1008, i_nop());
	put32(&sc.g[0], 0x1100, i_nop());
	put32(&sc.g[0], 0x1104, I_MRET);
	pk_support(&sc, 0, 0);
	pk_start(&sc, 0x1000, 0, 1);
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_trap(&sc, 0x1100, 3, 8, 0, 1, 0);
	pk_start(&sc, 0x1008, 0, 1);
	run_all(&sc, "ecall");
	WANT("ecall", 0x1000, 0x1004, 0x1100, 0x1104, 0x1008);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1004 && t->info == 8 && t->length == (PMREGS_ETRACE_TRAP_EPC | PMREGS_ETRACE_TRAP_THADDR));
	CHECK(o_big.n == 6 && o_big.it[0].privilege == 0 && o_big.it[3].privilege == 3 && o_big.it[4].privilege == 3 &&
	      o_big.it[5].privilege == 0);

	/* an exception at an instruction that does not retire (0x1008): EPC = the next instruction */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1004, i_bne(1, 0, 0x20));
	put32(&sc.g[0], 0x1008, 0xffffffffu);
	put32(&sc.g[0], 0x1100, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	pk_branch(&sc, 1, 1, 0x1004, 0, 0, 0, 0); /* the branch is the last to retire: not taken */
	pk_trap(&sc, 0x1100, 3, 2, 0, 1, 0xffffffffu);
	run_all(&sc, "exception");
	WANT("exception", 0x1000, 0x1004, 0x1100);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1008 && t->value == 0xffffffffu && (t->length & PMREGS_ETRACE_TRAP_EPC));
	/* taken, the EPC is the branch target */
	sc.pk[1].branch_map = 0;
	run_all(&sc, "exception after a taken branch");
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1024);

	/* an exception at the target of an uninferable jump: thaddr = 0, address = the EPC; the handler
	 * comes in a format 3.0, which the decoder reaches through the jump */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_jalr(0, 5, 0));
	put32(&sc.g[0], 0x1100, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	pk_trap(&sc, 0x1240, 3, 12, 0, 0, 0x1240);
	pk_start(&sc, 0x1100, 3, 1);
	run_all(&sc, "exception at a jump target");
	WANT("exception at a jump target", 0x1000, 0x1100);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1240 && t->length == PMREGS_ETRACE_TRAP_EPC);

	/* an exception on the first traced instruction: the same, at the start of the trace */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1100, i_nop());
	pk_trap(&sc, 0x1000, 3, 1, 0, 0, 0x1000);
	pk_start(&sc, 0x1100, 3, 1);
	run_all(&sc, "exception on the first instruction");
	WANT("exception on the first instruction", 0x1100);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1000 && (t->length & PMREGS_ETRACE_TRAP_EPC));

	/* an interrupt: no EPC, no tval */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1100, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	pk_trap(&sc, 0x1100, 3, 11, 1, 1, 0);
	run_all(&sc, "interrupt");
	WANT("interrupt", 0x1000, 0x1100);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->length == (PMREGS_ETRACE_TRAP_INTERRUPT | PMREGS_ETRACE_TRAP_THADDR) && t->info == 11 && t->address == 0);

	/* implicit exception: no address; the handler comes from the trap vector (vectored for interrupts) */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1100, i_nop());
	put32(&sc.g[0], 0x111c, i_nop());
	sc.tvec[3] = 0x1101; /* base 0x1100, vectored */
	pk_support(&sc, PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION, 0);
	pk_start(&sc, 0x1000, 3, 1);
	pk_trap(&sc, 0, 3, 7, 1, 1, 0);
	pk_start(&sc, 0x1000, 3, 1);
	pk_trap(&sc, 0, 3, 2, 0, 1, 0);
	run_all(&sc, "implicit exception");
	WANT("implicit exception", 0x1000, 0x111c, 0x1000, 0x1100);
	sc.tvec[3] = 0;
	run_all(&sc, "implicit exception without a vector");
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) && find_item(PMREGS_ETRACE_ITEM_ERROR)->info == PMREGS_ETRACE_REASON_NO_HANDLER);

	/* a context packet is reported */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	{
		struct pmregs_etrace_te_inst *c = pk_new(&sc, PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT);
		c->privilege = 1;
		c->context = 0x42;
	}
	run_all(&sc, "context");
	t = find_item(PMREGS_ETRACE_ITEM_CONTEXT);
	CHECK(t && t->address == 0x42 && t->privilege == 1);

	/* ecall in a loop, the handler's first instruction a branch (taken, then not, by the trap packets' branch
	 * bit), mret back: once the handler has been read, pmregs_etrace_decode_smi()'s follower takes these traps
	 * itself; the same items and counters as one packet at a time (run_all()) */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1004, I_ECALL);
	put32(&sc.g[0], 0x1008, i_jal(0, -8));
	put32(&sc.g[0], 0x1100, i_bne(1, 0, 8));
	put32(&sc.g[0], 0x1104, i_nop());
	put32(&sc.g[0], 0x1108, I_MRET);
	pk_support(&sc, 0, 0);
	pk_start(&sc, 0x1000, 3, 1);
	for (i = 0; i < 6; i++) {
		pk_addr(&sc, 0x1004, 0, 0, 0, 0); /* the ecall */
		pk_trap(&sc, 0x1100, 3, 11, 0, 1, 0);
		sc.pk[sc.n - 1].branch = (uint8_t)(i & 1); /* bne: taken (0), not taken (1) */
		pk_addr(&sc, 0x1008, 0, 0, 0, 0); /* mret's target */
	}
	run_all(&sc, "ecall loop");
	{
		uint64_t want[40];
		size_t nw = 0;
		want[nw++] = 0x1000;
		for (i = 0; i < 6; i++) {
			if (i)
				want[nw++] = 0x1000;
			want[nw++] = 0x1004;
			want[nw++] = 0x1100;
			if (i & 1)
				want[nw++] = 0x1104;
			want[nw++] = 0x1108;
			want[nw++] = 0x1008;
		}
		want_insns("ecall loop", want, nw);
	}
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_TRAP), 6);
	t = find_item(PMREGS_ETRACE_ITEM_TRAP);
	CHECK(t && t->address == 0x1004 && t->info == 11 && t->privilege == 3 &&
	      t->length == (PMREGS_ETRACE_TRAP_EPC | PMREGS_ETRACE_TRAP_THADDR));

	/* traps without the handler's address (thaddr 0) at the target of an uninferable jump, an exception and
	 * an interrupt in turn, each followed by a synchronisation at the handler, whose mret goes back: the
	 * follower takes these too (the exception's EPC is the packet's address) */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1004, i_jalr(0, 5, 0));
	put32(&sc.g[0], 0x1010, 0);
	put32(&sc.g[0], 0x1100, i_nop());
	put32(&sc.g[0], 0x1104, I_MRET);
	pk_support(&sc, 0, 0);
	pk_start(&sc, 0x1000, 3, 1);
	for (i = 0; i < 6; i++) {
		pk_addr(&sc, 0x1004, 0, 0, 0, 0); /* the jalr */
		pk_trap(&sc, 0x1010, 3, (i & 1) ? 7u : 2u, i & 1, 0, 0);
		pk_start(&sc, 0x1100, 3, 1);
		pk_addr(&sc, 0x1000, 0, 0, 0, 0); /* mret's target */
	}
	run_all(&sc, "thaddr 0 loop");
	{
		uint64_t want[40];
		size_t nw = 0, k, ntrap = 0;
		want[nw++] = 0x1000;
		for (i = 0; i < 6; i++) {
			want[nw++] = 0x1004;
			want[nw++] = 0x1100;
			want[nw++] = 0x1104;
			want[nw++] = 0x1000;
		}
		want_insns("thaddr 0 loop", want, nw);
		for (k = 0; k < o_big.n; k++) {
			const struct pmregs_etrace_item *x = &o_big.it[k];
			if (x->type != PMREGS_ETRACE_ITEM_TRAP)
				continue;
			/* exceptions: EPC 0x1010; interrupts: no EPC */
			CHECK(ntrap & 1 ? x->address == 0 && x->info == 7 && x->length == PMREGS_ETRACE_TRAP_INTERRUPT
					: x->address == 0x1010 && x->info == 2 && x->length == PMREGS_ETRACE_TRAP_EPC);
			ntrap++;
		}
		CHECK_EQ(ntrap, 6);
	}
}

/* The jump target cache (branch trace chapter, "Jump target cache mode"; payload format 0.1). */
static void test_jump_cache(void)
{
	/* 0x1000 jalr x1, 0(x5) (a call to 0x1100); 0x1004 bne x6, x0, 0x1000; 0x1100 ret (uninferable here) */
	scen_init(&sc, 64, 0x1000);
	sc.p.cache_size_p = 4;
	sc.p.f0s_width_p = 1;
	put32(&sc.g[0], 0x1000, i_jalr(1, 5, 0));
	put32(&sc.g[0], 0x1004, i_bne(6, 0, -4));
	put32(&sc.g[0], 0x1008, i_nop());
	put32(&sc.g[0], 0x1100, i_jalr(0, 1, 0));
	pk_support(&sc, PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE, 0);
	pk_start(&sc, 0x1000, 3, 1);
	pk_addr(&sc, 0x1100, 0, 0, 0, 0);          /* a miss: cached at index (0x1100 >> 1) & 15 = 0 */
	pk_branch(&sc, 1, 0, 0x1004, 0, 0, 0, 0);  /* a miss: cached at index 2; the branch there taken */
	pk_jtc(&sc, 0, 0x1100, 0, 0);              /* the call again: a hit */
	pk_jtc(&sc, 2, 0x1004, 1, 1);              /* the return: a hit; the branch not taken */
	pk_addr(&sc, 0x1008, 0, 0, 0, 0);          /* base 0x1004, the last reported instruction */
	run_all(&sc, "jump target cache");
	WANT("jump target cache", 0x1000, 0x1100, 0x1004, 0x1000, 0x1100, 0x1004, 0x1008);
	CHECK_EQ(o_big.errors, 0);
	/* an empty entry */
	sc.pk[4].index = 5;
	run_all(&sc, "jump target cache miss");
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) && find_item(PMREGS_ETRACE_ITEM_ERROR)->info == PMREGS_ETRACE_REASON_CACHE);
	/* the cache is emptied by a sync */
	sc.pk[4].index = 0;
	memmove(&sc.pk[5], &sc.pk[4], sizeof sc.pk[0] * 3);
	sc.n++;
	sc.pk[4] = sc.pk[1];
	sc.pk[4].address = 0x1004 >> 1;
	run_all(&sc, "jump target cache after a sync");
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) && find_item(PMREGS_ETRACE_ITEM_ERROR)->info == PMREGS_ETRACE_REASON_CACHE);
	/* The looplabel case of the payload chapter with the cache: the JALR's target is cached when the first
	 * packet reports it, and the second is a hit; the decoder, stopped at looplabel's first execution,
	 * reads the entry only after its second pass has reached the JALR (which writes it). */
	looplabel_program();
	sc.p.cache_size_p = 4;
	sc.p.f0s_width_p = 1;
	sc.pk[0].ioptions = PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE;
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_jtc(&sc, (0x1004 >> 1) & 15, 0x1004, 0, 0);
	run_all(&sc, "looplabel and the jump target cache");
	WANT("looplabel and the jump target cache", 0x1000, 0x1004, 0x1008, 0x100c, 0x1004, 0x1008, 0x100c, 0x1004);
	CHECK_EQ(o_big.errors, 0);
	/* without storage */
	branch_program();
	sc.p.cache_size_p = 4;
	sc.p.f0s_width_p = 1;
	pk_jtc(&sc, 0, 0x1100, 0, 0);
	sc.no_cache = 1;
	run_all(&sc, "no jump target cache");
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) && find_item(PMREGS_ETRACE_ITEM_ERROR)->info == PMREGS_ETRACE_REASON_CACHE);
}

/* Branch prediction (branch trace chapter, "Branch prediction mode"; payload format 0.0). */
static void test_branch_prediction(void)
{
	uint64_t want[300];
	size_t n = 0, i;
	/* 80 taken branches at 0x1004, then one not taken, then the jump to 0x2000. The predictor entry
	 * starts at 01 (predict not taken): the first branch fails, the next 30 are predicted; the map
	 * is full at 31 and goes out (format 1, branches = 0); 49 predicted ones are counted (branch_count
	 * = 49 - 31 = 18) until the 81st fails (format 0.0 without address: that branch); then the jump. */
	branch_program();
	sc.p.bpred_size_p = 2;
	sc.pk[0].ioptions = PMREGS_ETRACE_OPT_BRANCH_PREDICTION;
	pk_full_map(&sc, 0);
	pk_count(&sc, 18, 0, 0);
	pk_addr(&sc, 0x2000, 0, 0, 0, 0);
	run_all(&sc, "branch count");
	want[n++] = 0x1000;
	for (i = 0; i < 80; i++) {
		want[n++] = 0x1004;
		want[n++] = 0x1000;
	}
	want[n++] = 0x1004;
	want[n++] = 0x1008;
	want[n++] = 0x2000;
	want_insns("branch count", want, n);
	CHECK_EQ(o_big.errors, 0);
	/* the failed branch reported with its address (branch_fmt addr_fail), an interrupt after it */
	branch_program();
	sc.p.bpred_size_p = 2;
	sc.pk[0].ioptions = PMREGS_ETRACE_OPT_BRANCH_PREDICTION;
	put32(&sc.g[1], 0x2000, i_nop());
	pk_full_map(&sc, 0);
	pk_count(&sc, 18, 3, 0x1004);
	pk_trap(&sc, 0x2000, 3, 7, 1, 1, 0);
	run_all(&sc, "branch count, addr_fail");
	n -= 2;
	want[n++] = 0x2000;
	want_insns("branch count, addr_fail", want, n);
	CHECK_EQ(o_big.errors, 0);
	/* a correctly predicted branch reported with its address (branch_fmt addr): the 70th of 70 */
	branch_program();
	sc.p.bpred_size_p = 2;
	sc.pk[0].ioptions = PMREGS_ETRACE_OPT_BRANCH_PREDICTION;
	pk_full_map(&sc, 0);
	pk_count(&sc, 39 - 31, 2, 0x1004);
	pk_trap(&sc, 0x2000, 3, 7, 1, 1, 0);
	run_all(&sc, "branch count, addr");
	n = 0;
	want[n++] = 0x1000;
	for (i = 0; i < 69; i++) {
		want[n++] = 0x1004;
		want[n++] = 0x1000;
	}
	want[n++] = 0x1004;
	want[n++] = 0x2000;
	want_insns("branch count, addr", want, n);
	CHECK_EQ(o_big.errors, 0);
	/* with branch prediction off the predictor does not learn: the count mispredicts the run */
	sc.pk[0].ioptions = 0;
	run_all(&sc, "branch count without prediction");
	CHECK(count_items(PMREGS_ETRACE_ITEM_ERROR) >= 1);
	/* without predictor storage */
	sc.pk[0].ioptions = PMREGS_ETRACE_OPT_BRANCH_PREDICTION;
	sc.no_bpred = 1;
	run_all(&sc, "no predictor");
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) && find_item(PMREGS_ETRACE_ITEM_ERROR)->info == PMREGS_ETRACE_REASON_PREDICTOR);
}

/* Addresses: 32-bit full addresses with the top bit set, differential ones across it, jalr x0. */
static void test_addresses(void)
{
	int full;
	for (full = 0; full < 2; full++) {
		scen_init(&sc, 32, 0x7ffffff0u);
		sc.full = full;
		put32(&sc.g[0], 0x7ffffff0u, i_nop());
		put32(&sc.g[0], 0x7ffffff4u, i_jalr(0, 5, 0));
		put32(&sc.g[0], 0x80000100u, i_nop());
		put32(&sc.g[0], 0x80000104u, i_jalr(0, 5, 0));
		pk_support(&sc, full ? PMREGS_ETRACE_OPT_FULL_ADDRESS : 0, 0);
		pk_start(&sc, 0x7ffffff0u, 3, 1);
		pk_addr(&sc, 0x80000100u, 0, 0, 0, 0);
		pk_addr(&sc, 0x7ffffff0u, 0, 0, 0, 0);
		run_all(&sc, full ? "RV32 full addresses" : "RV32 differential addresses");
		WANT("RV32 addresses", 0x7ffffff0u, 0x7ffffff4u, 0x80000100u, 0x80000104u, 0x7ffffff0u);
		CHECK(sc.pk[2].address == (full ? 0x40000080u : 0x88u));
	}
	/* the same program in a 64-bit image is at 0x80000100, not 0xffffffff80000100 */
	sc.xlen = 64;
	sc.p.iaddress_width_p = 64;
	run_all(&sc, "64-bit image");
	WANT("64-bit image", 0x7ffffff0u, 0x7ffffff4u, 0x80000100u, 0x80000104u, 0x7ffffff0u);
	/* jalr with rs1 = x0 jumps to imm, not to pc + imm */
	scen_init(&sc, 64, 0x0);
	put32(&sc.g[0], 0x1000, i_jalr(0, 0, 0x200));
	put32(&sc.g[0], 0x200, i_nop());
	put32(&sc.g[0], 0x204, i_nop());
	put32(&sc.g[0], 0x1200, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	pk_addr(&sc, 0x204, 0, 0, 0, 0);
	run_all(&sc, "jalr x0");
	WANT("jalr x0", 0x1000, 0x200, 0x204);
	/* iaddress_lsb_p 0 and 2 */
	scen_init(&sc, 64, 0x1000);
	sc.p.iaddress_lsb_p = 2;
	put32(&sc.g[0], 0x1000, i_jalr(0, 5, 0));
	put32(&sc.g[0], 0x1ff0, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	pk_addr(&sc, 0x1ff0, 0, 0, 0, 0);
	run_all(&sc, "lsb 2");
	WANT("lsb 2", 0x1000, 0x1ff0);
	CHECK_EQ(sc.pk[1].address, 0xff0 >> 2);
}

/* Every reason, and where decoding resumes. */
static void test_errors(void)
{
	const struct pmregs_etrace_item *e;
	/* no-sync: a format 2 first (one error), another (skipped), then a start */
	looplabel_program();
	sc.n = 0;
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	pk_addr(&sc, 0x1008, 0, 0, 0, 0);
	pk_start(&sc, 0x1000, 3, 1);
	run_all(&sc, "no-sync");
	WANT("no-sync", 0x1000);
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_ERROR), 1);
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_NO_SYNC && e->value == 0);

	/* no branch bit: a branch on the way and a packet without branches */
	branch_program();
	pk_addr(&sc, 0x2000, 0, 0, 0, 0);
	pk_addr(&sc, 0x2004, 0, 0, 0, 0); /* skipped: waiting for a sync */
	pk_start(&sc, 0x2000, 3, 1);
	run_all(&sc, "no-branch-bit");
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_NO_BRANCH && e->value == 2 && e->address == 0x1004);
	WANT("no-branch-bit", 0x1000, 0x1004, 0x2000);
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_ERROR), 1);

	/* unprocessed branches: two branches, only one before the jump */
	branch_program();
	pk_branch(&sc, 2, 1, 0x2000, 0, 0, 0, 0); /* not taken: the jump; a second branch left */
	run_all(&sc, "unprocessed-branches");
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_UNPROCESSED && e->address == 0x2000);

	/* an uninferable discontinuity before the last branch of a full map */
	branch_program();
	pk_full_map(&sc, 1); /* the first branch not taken: the jump comes before the 31st */
	run_all(&sc, "unexpected-uninferable");
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_UNINFERABLE && e->address == 0x1008);

	/* not code: a start outside the image, at an odd address, running off the end of a range;
	 * a sync restarts at once */
	branch_program();
	sc.p.iaddress_lsb_p = 0;
	sc.n = 1;
	pk_start(&sc, 0x5000, 3, 1);
	pk_start(&sc, 0x1001, 3, 1);
	pk_start(&sc, 0x2000, 3, 1);
	pk_addr(&sc, 0x2010, 0, 0, 0, 0);
	pk_start(&sc, 0x1000, 3, 1);
	run_all(&sc, "not-code");
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_ERROR), 3);
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_NOT_CODE && e->address == 0x5000);
	CHECK(o_big.n == 6 && o_big.it[1].address == 0x1001 && o_big.it[4].address == 0x2008 && o_big.it[4].info == PMREGS_ETRACE_REASON_NOT_CODE);
	WANT("not-code", 0x2000, 0x2004, 0x1000);

	/* a path that never reaches the address: a jal loop */
	scen_init(&sc, 64, 0x1000);
	put32(&sc.g[0], 0x1000, i_nop());
	put32(&sc.g[0], 0x1004, i_jal(0, -4));
	put32(&sc.g[0], 0x1100, i_nop());
	pk_start(&sc, 0x1000, 3, 1);
	pk_addr(&sc, 0x1100, 0, 0, 0, 0);
	pk_start(&sc, 0x1100, 3, 1);
	run_all(&sc, "runaway");
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_RUNAWAY);
	/* the bound: image bytes + 1024 instructions without resolving a branch */
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_INSN), 1 + (0x1104 - 0x1000 + 1024) + 1);

	/* max_steps bounds one packet's work: the full map's 31 branches are 61 instructions */
	branch_program();
	pk_full_map(&sc, 0);
	pk_branch(&sc, 1, 1, 0x2000, 0, 0, 0, 0);
	sc.max_steps = 40;
	run_all(&sc, "max_steps");
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_RUNAWAY && e->value == 2 && e->address == 0x1004);
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_INSN), 1 + 1 + 2 * 20); /* the 21st branch would make 42 */
	sc.max_steps = 61;
	run_all(&sc, "max_steps just enough");
	CHECK(find_item(PMREGS_ETRACE_ITEM_ERROR) == 0);

	/* a packet of no known shape */
	branch_program();
	pk_addr(&sc, 0x1004, 0, 0, 0, 0);
	sc.pk[sc.n - 1].shape = 99;
	run_all(&sc, "bad-packet");
	e = find_item(PMREGS_ETRACE_ITEM_ERROR);
	CHECK(e && e->info == PMREGS_ETRACE_REASON_BAD_PACKET);

	/* an inconsistency on the way to a format 3.0: it restarts there at once */
	branch_program();
	pk_start(&sc, 0x2000, 3, 1); /* the branch has no bit */
	pk_addr(&sc, 0x2004, 0, 0, 0, 0);
	run_all(&sc, "restart at a sync");
	WANT("restart at a sync", 0x1000, 0x1004, 0x2000, 0x2004);
	CHECK_EQ(count_items(PMREGS_ETRACE_ITEM_ERROR), 1);

	/* names */
	{
		unsigned r;
		for (r = 0; r < PMREGS_ETRACE_REASON_COUNT; r++) {
			CHECK(strcmp(pmregs_etrace_decoder_reason_name(r), "unknown") != 0);
			CHECK(strcmp(pmregs_etrace_decoder_reason_text(r), "unknown reason") != 0);
		}
		CHECK(strcmp(pmregs_etrace_decoder_reason_name(PMREGS_ETRACE_REASON_COUNT), "unknown") == 0);
	}
}

TEST_COLD_END

/* ---- vectors from files ---- */

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	long n;
	if (!f)
		return 0;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = (unsigned char *)malloc((size_t)n + 64);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = 0;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* name=value lines (opt_NAME for options) into sc.p and sc.options */
static int read_params(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");
	size_t np, i;
	const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&np);
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		char *eq = strchr(line, '=');
		unsigned long long v;
		if (line[0] == '#' || !eq)
			continue;
		*eq = 0;
		v = strtoull(eq + 1, 0, 0);
		if (strcmp(line, "opt_sijump") == 0) {
			sc.options = v ? sc.options | PMREGS_ETRACE_OPT_SIJUMP : sc.options & ~PMREGS_ETRACE_OPT_SIJUMP;
			continue;
		}
		for (i = 0; i < np; i++)
			if (strcmp(d[i].name, line) == 0)
				(void)pmregs_etrace_param_set(&sc.p, i, v);
	}
	fclose(f);
	return 1;
}

static unsigned char *vec_elf, *vec_stream;
static size_t vec_elf_len, vec_stream_len;

/* Load a vector into sc (image, parameters, packets). Returns 0 when its files are missing. */
static int load_vector(const char *prog, const char *xlen, const char *set)
{
	char path[256];
	struct pmregs_etrace_image_range r[4];
	unsigned x = 0;
	int n;
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it;
	free(vec_elf);
	free(vec_stream);
	snprintf(path, sizeof path, "tests/etrace/elf/%s.%s", prog, xlen);
	vec_elf = slurp(path, &vec_elf_len);
	snprintf(path, sizeof path, "tests/etrace/vectors/%s.%s.%s.smi", prog, xlen, set);
	vec_stream = slurp(path, &vec_stream_len);
	if (!vec_elf || !vec_stream)
		return 0;
	memset(&sc, 0, sizeof sc);
	pmregs_etrace_params_default(&sc.p);
	snprintf(path, sizeof path, "tests/etrace/vectors/%s.%s.params", set, xlen);
	if (!read_params(path))
		return 0;
	n = pmregs_etrace_elf_ranges(vec_elf, vec_elf_len, r, 4, &x);
	CHECK(n == 1);
	if (n != 1 || r[0].len > sizeof sc.g[0].b)
		return 0;
	sc.ng = 1;
	sc.g[0].base = r[0].base;
	sc.g[0].len = r[0].len;
	memcpy(sc.g[0].b, r[0].bytes, (size_t)r[0].len);
	sc.xlen = x;
	sc.layout = PMREGS_ETRACE_IOPTIONS_REF;
	pmregs_etrace_smi_stream_init(&s, vec_stream, vec_stream_len, 1);
	while (pmregs_etrace_smi_stream_next(&s, &sc.p, &it)) {
		CHECK(it.status == PMREGS_OK);
		if (it.has_payload && sc.n < MAXPK)
			sc.pk[sc.n++] = it.payload;
	}
	return sc.n > 0;
}

static const char *const progs[] = {"sort", "recur", "vm", "crc"};
static const char *const xlens[] = {"rv64", "rv32"};
static const char *const sets[] = {"itype4_basic", "itype3_debug", "itype4_debug", "itype4_fake_scf"};

/* pmregs_etrace_decode_smi_each()'s consumer for check_chunks(): the items into part[] */
static struct pmregs_etrace_item part[200000];
static void collect_part(void *ctx, const struct pmregs_etrace_item *it)
{
	size_t *np = (size_t *)ctx;
	if (*np < sizeof part / sizeof part[0])
		part[(*np)++] = *it;
}

/* The chunks' items part[0..np) are the whole trace's. */
static void check_parts(const char *what, const char *how, size_t nch, const struct pmregs_etrace_item *whole, size_t nw, size_t np)
{
	size_t k;
	if (np != nw || memcmp(whole, part, nw * sizeof whole[0]) != 0) {
		fprintf(stderr, "%s: %zu chunks%s: %zu items, the whole trace %zu\n", what, nch, how, np, nw);
		for (k = 0; k < nw && k < np; k++)
			if (memcmp(&whole[k], &part[k], sizeof whole[0]) != 0) {
				fprintf(stderr, "  first difference at item %zu: %#llx/%u vs %#llx/%u\n", k, (unsigned long long)whole[k].address,
					whole[k].type, (unsigned long long)part[k].address, part[k].type);
				break;
			}
		CHECK(0);
	}
}

/* The whole stream through the SMI feed, then in chunks split at restart packets (each chunk by
 * pmregs_etrace_decode_smi() in windows, then again by pmregs_etrace_decode_smi_each()). */
static void check_chunks(const char *what, size_t min_packets)
{
	static struct pmregs_etrace_item whole[200000], win[256];
	struct pmregs_etrace_image_range r[1];
	struct pmregs_etrace_dinsn *caches[2] = {cache0, cache1};
	struct pmregs_etrace_image img;
	struct pmregs_etrace_decoder_config c;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_smi_feed f;
	struct pmregs_etrace_chunk ch[64];
	size_t nw = 0, np, nch, k;
	int rc, each;
	make_image(&sc, r, caches, &img, 1);
	config(&sc, &c, &img);
	pmregs_etrace_smi_feed_init(&f, &sc.p, vec_stream, vec_stream_len, 1);
	c.params = &f.p;
	pmregs_etrace_decoder_init(&d, &c);
	do {
		size_t n = 0;
		rc = pmregs_etrace_decode_smi(&d, &f, win, 256, &n);
		memcpy(whole + nw, win, n * sizeof win[0]);
		nw += n;
	} while (rc == PMREGS_ENOSPC && nw < 190000);
	CHECK_EQ(d.errors, 0);
	CHECK_EQ(f.unreadable, 0);
	nch = pmregs_etrace_smi_split(&sc.p, vec_stream, vec_stream_len, 1, sc.layout, sc.options, min_packets, ch, 64);
	CHECK(nch >= 2);
	for (each = 0; each <= 1; each++) {
		np = 0;
		for (k = 0; k < nch; k++) {
			size_t end = k + 1 < nch ? ch[k + 1].offset : vec_stream_len;
			config(&sc, &c, &img);
			pmregs_etrace_smi_feed_chunk(&f, &sc.p, vec_stream, vec_stream_len, 1, &ch[k], end, &c);
			c.params = &f.p;
			pmregs_etrace_decoder_init(&d, &c);
			if (each) {
				CHECK_EQ(pmregs_etrace_decode_smi_each(&d, &f, collect_part, &np), PMREGS_OK);
				continue;
			}
			do {
				size_t n = 0;
				rc = pmregs_etrace_decode_smi(&d, &f, win, 256, &n);
				memcpy(part + np, win, n * sizeof win[0]);
				np += n;
			} while (rc == PMREGS_ENOSPC && np < 190000);
		}
		check_parts(what, each ? " (pmregs_etrace_decode_smi_each())" : "", nch, whole, nw, np);
	}
}

/* A digest of the fast decoder's items (FNV-1a's step over their fields, a whole field at a time,
 * each step followed by an xor-shift: every step a bijection, so one field that differs changes the
 * digest), printed: the 32-bit and emulated runs' output is compared with the native run's, whose
 * items agree with the naive decoder's. */
static uint64_t digest(const struct out *o)
{
	uint64_t h = 0xcbf29ce484222325u;
	size_t i;
	for (i = 0; i < o->n; i++) {
		const struct pmregs_etrace_item *x = &o->it[i];
		const uint64_t v[7] = {x->type, x->address, x->value, x->info, x->length, x->kind, x->privilege};
		unsigned f;
		for (f = 0; f < 7; f++) {
			h = (h ^ v[f]) * 0x100000001b3u;
			h ^= h >> 29;
		}
	}
	return h;
}

static void test_vectors(void)
{
	size_t i, j, k, found = 0;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 4; k++) {
				char what[128];
				size_t nn, cap;
				snprintf(what, sizeof what, "%s.%s.%s", progs[i], xlens[j], sets[k]);
				if (!load_vector(progs[i], xlens[j], sets[k]))
					continue;
				found++;
				/* under emulation (test_sparse()), whose point is the byte order, a quarter of them:
				   every parameter set and XLEN, each with one of the four programs */
				if (test_sparse() > 1 && (i + j + k) % 4 != 0)
					continue;
				run_fast(&sc, 256, 1, &o_big);
				CHECK_EQ(o_big.errors, 0);
				CHECK(count_items(PMREGS_ETRACE_ITEM_INSN) > 10000);
				printf("%s: %zu items, digest %016llx\n", what, o_big.n, (unsigned long long)digest(&o_big));
				/* the naive decoder, small output windows and parallel chunks: on all 32 vectors, or
				   on test_scale(32) of them, evenly spread, in the sanitizer, 32-bit and emulated runs
				   (the naive decoder agrees with the fast one's items, which the digests above show to
				   be the native run's; the windows and chunks test where the decoder resumes, the same
				   on every host; the vectors' bytes are all read above) */
				if ((found - 1) % (32 / test_scale(32)) != 0)
					continue;
				nn = run_naive(&sc);
				CHECK(same_as_naive(&o_big, nn, what));
				for (cap = PMREGS_ETRACE_ROOM; cap < 12; cap += 4) {
					run_fast(&sc, cap, 0, &o_small);
					CHECK(same_items(&o_big, &o_small));
				}
				check_chunks(what, 16);
				check_chunks(what, 1);
			}
	CHECK_EQ(found, 32);
}

/* ---- pmregs_etrace_decode_smi() against one packet at a time ---- */

static struct out o_ref, o_smi;

/* pmregs_etrace_decode_smi_each()'s consumer for the tests: the items into an out */
static void collect(void *ctx, const struct pmregs_etrace_item *it)
{
	struct out *o = (struct out *)ctx;
	if (o->n < MAXIT)
		o->it[o->n++] = *it;
	else
		o->overflow = 1;
}

/*
 * The SMI stream buf[0..len) with sc's image and configuration: packetwise (smi 0) the walker's items one at a
 * time through pmregs_etrace_decoder_packet(), as pmregs_etrace_decode_smi() takes them but with no feed (its
 * follower takes no packet of its own); or (smi 1) pmregs_etrace_decode_smi() itself, in output windows of cap;
 * or (smi 2) pmregs_etrace_decode_smi_each(); or (smi 3) the same holding the rare paths' items in a window of cap,
 * smaller than its own, so that they fill it and resume more often.
 * Returns 0 when a call fails. (No CHECK here: the random scenarios differ from compiler to compiler, which
 * evaluate rnd() arguments in their own order, and the number of checks a test prints must not.)
 */
static int run_stream(const unsigned char *buf, size_t len, int smi, size_t cap, int use_cache, struct out *o)
{
	struct pmregs_etrace_image_range r[2];
	struct pmregs_etrace_dinsn *caches[2] = {cache0, cache1};
	struct pmregs_etrace_image img;
	struct pmregs_etrace_decoder_config c;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_smi_feed f;
	struct pmregs_etrace_item win[256];
	int rc = PMREGS_OK;
	make_image(&sc, r, caches, &img, use_cache);
	config(&sc, &c, &img);
	pmregs_etrace_smi_feed_init(&f, &sc.p, buf, len, 1);
	c.params = &f.p;
	if (pmregs_etrace_decoder_init(&d, &c) != PMREGS_OK)
		return 0;
	o->n = 0;
	o->overflow = 0;
	for (;;) {
		size_t n = 0, k;
		if (smi == 2) {
			rc = pmregs_etrace_decode_smi_each(&d, &f, collect, o);
			break;
		}
		if (smi == 3) {
			rc = pmregs_etrace_dec_smi(&d, &f, win, cap, &n, collect, o);
			break;
		}
		if (smi) {
			rc = pmregs_etrace_decode_smi(&d, &f, win, cap, &n);
		} else {
			f.p.implicit_exception = (uint8_t)((d.options & PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION) != 0);
			if (!pmregs_etrace_smi_stream_next(&f.s, &f.p, &f.it))
				break;
			if (f.it.status < 0) {
				pmregs_etrace_decoder_lose(&d);
				continue;
			}
			if (!f.it.has_payload)
				continue;
			do {
				size_t m;
				n = 0;
				rc = pmregs_etrace_decoder_packet(&d, &f.it.payload, win, cap, &n);
				for (m = 0; m < n; m++)
					if (o->n < MAXIT)
						o->it[o->n++] = win[m];
			} while (rc == PMREGS_ENOSPC);
			continue;
		}
		for (k = 0; k < n; k++)
			if (o->n < MAXIT)
				o->it[o->n++] = win[k];
		if (rc != PMREGS_ENOSPC)
			break;
	}
	o->errors = d.errors;
	o->counts[0] = d.insns;
	o->counts[1] = d.traps;
	o->counts[2] = d.contexts;
	o->counts[3] = d.packets;
	return rc == PMREGS_OK || !smi;
}

/* sc's packets as an SMI stream, those that encode (the scenarios' builders leave bits above a field's width,
 * which the decoders ignore and the writer refuses): its length; smi_put and smi_left count the packets */
static unsigned char smi_buf[MAXPK * 40];
static unsigned long smi_put, smi_left;
static size_t smi_stream_of(void)
{
	struct pmregs_etrace_smi fr;
	size_t used = 0;
	int i;
	pmregs_etrace_smi_init(&fr, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	fr.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	for (i = 0; i < sc.n; i++) {
		int m = pmregs_etrace_smi_stream_put(&sc.p, &fr, &sc.pk[i], smi_buf + used, sizeof smi_buf - used);
		if (m < 0) {
			/* again with the map and the address cut to their widths */
			struct pmregs_etrace_te_inst t = sc.pk[i];
			t.branch_map &= (uint32_t)pmregs_lowmask(t.branches ? pmregs_etrace_branch_map_length(&sc.p, t.branches) : 31u);
			t.address &= pmregs_lowmask(pmregs_etrace_address_width(&sc.p));
			m = pmregs_etrace_smi_stream_put(&sc.p, &fr, &t, smi_buf + used, sizeof smi_buf - used);
		}
		if (m < 0) {
			smi_left++;
			continue;
		}
		smi_put++;
		used += (size_t)m;
	}
	return used;
}

/* pmregs_etrace_decode_smi() (whose follower takes the next plain packets itself) gives the items and errors
 * of one packet at a time, in a big window and a small one (resumed inside the packets it took), on sc's
 * packets as a stream; so does pmregs_etrace_decode_smi_each(). Returns 0 when none of them encodes. */
static int check_smi(const char *what, size_t small)
{
	size_t len = smi_stream_of();
	int ok = 1, each;
	if (len) {
		ok = run_stream(smi_buf, len, 0, 256, 1, &o_ref) && run_stream(smi_buf, len, 1, 256, 2, &o_smi);
		if (!ok || !same_items(&o_ref, &o_smi) || o_ref.errors != o_smi.errors ||
		    memcmp(o_ref.counts, o_smi.counts, sizeof o_ref.counts) != 0) {
			fprintf(stderr, "%s: pmregs_etrace_decode_smi(): %zu items, %llu errors; one packet at a time %zu, %llu\n", what,
				o_smi.n, (unsigned long long)o_smi.errors, o_ref.n, (unsigned long long)o_ref.errors);
			ok = 0;
		}
		if (ok && (!run_stream(smi_buf, len, 1, small, 1, &o_smi) || !same_items(&o_ref, &o_smi) ||
			   memcmp(o_ref.counts, o_smi.counts, sizeof o_ref.counts) != 0)) {
			fprintf(stderr, "%s: pmregs_etrace_decode_smi() with a window of %zu differs\n", what, small);
			ok = 0;
		}
		for (each = 2; each <= 3; each++)
			if (ok && (!run_stream(smi_buf, len, each, small, 2, &o_smi) || o_smi.overflow || !same_items(&o_ref, &o_smi) ||
				   o_ref.errors != o_smi.errors || memcmp(o_ref.counts, o_smi.counts, sizeof o_ref.counts) != 0)) {
				fprintf(stderr, "%s: pmregs_etrace_decode_smi_each()%s: %zu items, %llu errors; one packet at a time %zu, %llu\n",
					what, each == 3 ? " holding few" : "", o_smi.n, (unsigned long long)o_smi.errors, o_ref.n,
					(unsigned long long)o_ref.errors);
				ok = 0;
			}
	}
	CHECK(ok);
	return len != 0;
}

/* ---- random and mutated streams: fast and naive agree on everything, errors included ---- */

static void random_params(void)
{
	static const uint8_t lsbs[] = {0, 1, 1, 2};
	sc.p.iaddress_lsb_p = lsbs[rnd() % 4];
	sc.p.return_stack_size_p = (uint8_t)(rnd() % 3 ? 0 : rnd() % 4);
	sc.p.call_counter_size_p = (uint8_t)(sc.p.return_stack_size_p || rnd() % 2 ? 0 : rnd() % 5);
	sc.p.cache_size_p = (uint8_t)(rnd() % 4);
	sc.p.bpred_size_p = (uint8_t)(rnd() % 4);
	sc.p.f0s_width_p = (uint8_t)(rnd() % 2);
	sc.p.f0s_inferred = (uint8_t)(rnd() % 2);
	sc.options = (uint32_t)(rnd() & 0x3f);
	sc.layout = (unsigned)(rnd() % 3);
	sc.no_stack = rnd() % 8 == 0;
	sc.no_cache = rnd() % 8 == 0;
	sc.no_bpred = rnd() % 8 == 0;
	sc.tvec[rnd() % 8] = (sc.g[0].base + 4 * (rnd() % 64)) | (rnd() & 1);
}

/* A random program: mostly plain instructions, with branches, jumps, calls, returns, auipc/lui + jalr,
 * xRET, ecall, compressed ones, and some bytes that are no instruction. */
static void random_program(uint64_t base, unsigned xlen)
{
	uint64_t a = base, end = base + 512 + (rnd() % 2048);
	scen_init(&sc, xlen, base);
	while (a + 4 <= end) {
		unsigned k = (unsigned)(rnd() % 32);
		int off = (int)(rnd() % 256) * 2 - 256;
		if (k < 10) {
			put32(&sc.g[0], a, i_nop());
		} else if (k < 14) {
			put32(&sc.g[0], a, i_branch((unsigned)(rnd() % 8), 1, 2, off & ~3));
		} else if (k < 16) {
			put32(&sc.g[0], a, i_jal((unsigned)(rnd() % 3 == 0 ? 1 : rnd() % 3 == 0 ? 5 : 0), off & ~3));
		} else if (k < 18) {
			static const unsigned regs[] = {0, 1, 5, 6};
			put32(&sc.g[0], a, i_jalr(regs[rnd() % 4], regs[rnd() % 4], (int)(rnd() % 64) - 32));
		} else if (k < 19) {
			put32(&sc.g[0], a, i_auipc((unsigned)(rnd() % 8), (uint32_t)(rnd() % 3)));
		} else if (k < 20) {
			put32(&sc.g[0], a, i_lui((unsigned)(rnd() % 8), (uint32_t)(base >> 12) + (uint32_t)(rnd() % 2)));
		} else if (k < 21) {
			put32(&sc.g[0], a, rnd() % 2 ? I_MRET : I_ECALL);
		} else if (k < 25) {
			put16(&sc.g[0], a, (uint32_t)(rnd() & 0xffff) & ~3u);
			a += 2;
			continue;
		} else if (k < 27) {
			put16(&sc.g[0], a, c_jr((unsigned)(rnd() % 3 == 0 ? 1 : 5)));
			a += 2;
			continue;
		} else if (k < 28) {
			put32(&sc.g[0], a, (uint32_t)rnd());
		} else {
			put32(&sc.g[0], a, i_addi((unsigned)(rnd() % 32), (unsigned)(rnd() % 32), (int)(rnd() % 100)));
		}
		a += 4;
	}
	sc.g[0].len = end - base;
}

static uint64_t random_address(void)
{
	uint64_t a = sc.g[0].base + (rnd() % (sc.g[0].len + 64)) * 2;
	if (rnd() % 16 == 0)
		a = rnd();
	return a;
}

static void random_packets(int count)
{
	int i;
	sc.n = 0;
	if (rnd() % 4)
		pk_support(&sc, (uint32_t)(rnd() & 0x7f), 0);
	for (i = 0; i < count && sc.n < MAXPK; i++) {
		unsigned k = (unsigned)(rnd() % 20);
		uint64_t a = random_address();
		if (k < 2) {
			pk_start(&sc, a, (unsigned)(rnd() % 4), (unsigned)(rnd() % 2));
		} else if (k < 4) {
			pk_trap(&sc, a, (unsigned)(rnd() % 4), (unsigned)(rnd() % 16), (int)(rnd() % 2), (int)(rnd() % 2), rnd());
		} else if (k < 8) {
			pk_addr(&sc, a, rnd() % 6 == 0, rnd() % 6 == 0, rnd() % 4 == 0, rnd() % 8);
		} else if (k < 13) {
			pk_branch(&sc, 1 + (unsigned)(rnd() % 31), (uint32_t)rnd(), a, rnd() % 6 == 0, rnd() % 6 == 0, rnd() % 4 == 0, rnd() % 8);
		} else if (k < 15) {
			pk_full_map(&sc, (uint32_t)rnd());
		} else if (k < 16) {
			pk_jtc(&sc, (unsigned)(rnd() % ((uint64_t)1 << sc.p.cache_size_p)), a, (unsigned)(rnd() % 32), (uint32_t)rnd());
			sc.pk[sc.n - 1].irreport = (uint8_t)(rnd() % 2);
			sc.pk[sc.n - 1].irdepth = rnd() % 4;
		} else if (k < 17) {
			unsigned fmt = (unsigned)(rnd() % 4);
			pk_count(&sc, (uint32_t)(rnd() % 64), fmt, a);
		} else if (k < 18) {
			pk_support(&sc, (uint32_t)(rnd() & 0x7f), (unsigned)(rnd() % 4));
		} else if (k < 19) {
			struct pmregs_etrace_te_inst *c = pk_new(&sc, PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT);
			c->context = rnd();
		} else {
			pk_addr(&sc, sc.base, 0, 0, 0, 0);
		}
	}
}

static void test_random(void)
{
	int iter, agree = 0, total = 0, smi_streams = 0;
	for (iter = 0; iter < (int)test_scale(3000); iter++) {
		char what[64];
		size_t nn;
		random_program(rnd() % 2 ? 0x10000 : 0x80000000u, rnd() % 2 ? 64 : 32);
		random_params();
		random_packets(1 + (int)(rnd() % 60));
		snprintf(what, sizeof what, "random %d", iter);
		run_fast(&sc, 64, iter % 3, &o_big);
		nn = run_naive(&sc);
		if (getenv("RANDOM_DUMP") && atoi(getenv("RANDOM_DUMP")) == iter) {
			size_t q;
			for (q = 0; q < o_big.n && q < 40; q++)
				fprintf(stderr, "fast %zu: type %u %#llx v%llu info %u len %u kind %u | naive type %u %#llx v%llu info %u len %u\n", q,
					o_big.it[q].type, (unsigned long long)o_big.it[q].address, (unsigned long long)o_big.it[q].value, o_big.it[q].info,
					o_big.it[q].length, o_big.it[q].kind, nitems[q].type, (unsigned long long)nitems[q].address,
					(unsigned long long)nitems[q].value, nitems[q].info, nitems[q].length);
			fprintf(stderr, "options %#x layout %u lsb %u xlen %u\n", sc.options, sc.layout, sc.p.iaddress_lsb_p, sc.xlen);
			for (q = 0; q < (size_t)sc.n; q++)
				fprintf(stderr, "pkt %zu: shape %u fmt %u addr %#llx branches %u map %#x\n", q, sc.pk[q].shape, sc.pk[q].format,
					(unsigned long long)sc.pk[q].address, sc.pk[q].branches, sc.pk[q].branch_map);
		}
		total++;
		if (getenv("STATS")) {
			size_t q;
			static unsigned long reasons[16], insns, runs_with_insns;
			for (q = 0; q < o_big.n; q++)
				if (o_big.it[q].type == PMREGS_ETRACE_ITEM_ERROR)
					reasons[o_big.it[q].info & 15]++;
			insns += count_items(PMREGS_ETRACE_ITEM_INSN);
			runs_with_insns += count_items(PMREGS_ETRACE_ITEM_INSN) > 20;
			if (iter == (int)test_scale(3000) - 1) {
				fprintf(stderr, "random: %lu insns, %lu runs with > 20; reasons:", insns, runs_with_insns);
				for (q = 0; q < 16; q++)
					fprintf(stderr, " %lu", reasons[q]);
				fprintf(stderr, "\n");
			}
		}
		if (same_as_naive(&o_big, nn, what))
			agree++;
		else
			CHECK(0);
		if (iter % 10 == 0) {
			run_fast(&sc, PMREGS_ETRACE_ROOM + (size_t)(rnd() % 5), (int)(rnd() % 3), &o_small);
			CHECK(same_items(&o_big, &o_small));
		}
		smi_streams += check_smi(what, PMREGS_ETRACE_ROOM + (size_t)(iter % 6));
	}
	CHECK_EQ(agree, total);
	CHECK(10 * smi_streams >= 9 * total);
	CHECK(smi_put > 3 * smi_left); /* most of the packets were in the streams */
}

/* Mutated real streams: fields changed, packets dropped, duplicated or swapped. */
static void test_mutated(void)
{
	int iter;
	static struct pmregs_etrace_te_inst orig[MAXPK];
	int norig;
	if (!load_vector("vm", "rv64", "itype4_basic"))
		return;
	norig = sc.n;
	memcpy(orig, sc.pk, sizeof orig);
	CHECK(check_smi("vm.rv64.itype4_basic", 7));
	CHECK_EQ(o_ref.errors, 0);
	CHECK(o_ref.n > 10000);
	for (iter = 0; iter < (int)test_scale(600); iter++) {
		char what[64];
		size_t nn;
		int m, nm = 1 + (int)(rnd() % 4);
		int lim = 40 + (int)(rnd() % 200);
		sc.n = lim < norig ? lim : norig;
		memcpy(sc.pk, orig, sizeof orig);
		sc.options = (uint32_t)(rnd() & 0x3f);
		sc.p.return_stack_size_p = (uint8_t)(rnd() % 3);
		for (m = 0; m < nm; m++) {
			int i = (int)(rnd() % (uint64_t)sc.n);
			struct pmregs_etrace_te_inst *t = &sc.pk[i];
			switch (rnd() % 8) {
			case 0:
				t->address ^= (uint64_t)1 << (rnd() % 12);
				break;
			case 1:
				t->branch_map ^= 1u << (rnd() % 31);
				break;
			case 2:
				t->branches = (uint8_t)(rnd() % 32);
				break;
			case 3:
				memmove(&sc.pk[i], &sc.pk[i + 1], sizeof sc.pk[0] * (size_t)(sc.n - i - 1));
				sc.n--;
				break;
			case 4:
				if (sc.n < MAXPK) {
					memmove(&sc.pk[i + 1], &sc.pk[i], sizeof sc.pk[0] * (size_t)(sc.n - i));
					sc.n++;
				}
				break;
			case 5:
				t->notify ^= 1;
				break;
			case 6:
				t->updiscon ^= 1;
				break;
			default:
				t->irreport ^= 1;
				t->irdepth = rnd() % 4;
				break;
			}
			if (sc.n < 2)
				break;
		}
		snprintf(what, sizeof what, "mutated %d", iter);
		run_fast(&sc, 64, iter % 3, &o_big);
		nn = run_naive(&sc);
		CHECK(same_as_naive(&o_big, nn, what));
		CHECK(check_smi(what, PMREGS_ETRACE_ROOM + (size_t)(iter % 6)));
	}
}

/* ---- the ELF reader ---- */

TEST_COLD_BEGIN

static void test_elf(void)
{
	struct pmregs_etrace_image_range r[8];
	unsigned x = 0;
	size_t len, cut;
	unsigned char *elf = slurp("tests/etrace/elf/sort.rv64", &len), *e32, *m;
	int n, i;
	CHECK(elf != 0);
	if (!elf)
		return;
	n = pmregs_etrace_elf_ranges(elf, len, r, 8, &x);
	CHECK(n == 1 && x == 64 && r[0].base == 0x10000 + (r[0].base & 0xfff) && r[0].len > 256 && r[0].bytes >= elf &&
	      r[0].bytes + r[0].len <= elf + len);
	e32 = slurp("tests/etrace/elf/sort.rv32", &cut);
	CHECK(e32 && pmregs_etrace_elf_ranges(e32, cut, r, 8, &x) == 1 && x == 32);
	free(e32);
	/* every truncation is refused or stays inside the bytes given */
	m = (unsigned char *)malloc(len);
	for (cut = 0; cut < len; cut++) {
		memcpy(m, elf, cut);
		n = pmregs_etrace_elf_ranges(m, cut, r, 8, &x);
		if (n > 0)
			for (i = 0; i < n; i++)
				CHECK(r[i].bytes >= m && r[i].bytes + r[i].len <= m + cut);
		else
			CHECK(n < 0);
	}
	/* refusals with their reasons */
	memcpy(m, elf, len);
	m[0] = 0;
	CHECK_EQ(pmregs_etrace_elf_ranges(m, len, r, 8, &x), -PMREGS_ETRACE_ELF_NOT_ELF);
	memcpy(m, elf, len);
	m[4] = 3;
	CHECK_EQ(pmregs_etrace_elf_ranges(m, len, r, 8, &x), -PMREGS_ETRACE_ELF_CLASS);
	memcpy(m, elf, len);
	m[5] = 2;
	CHECK_EQ(pmregs_etrace_elf_ranges(m, len, r, 8, &x), -PMREGS_ETRACE_ELF_ENDIAN);
	memcpy(m, elf, len);
	m[18] = 62; /* x86-64 */
	CHECK_EQ(pmregs_etrace_elf_ranges(m, len, r, 8, &x), -PMREGS_ETRACE_ELF_MACHINE);
	memcpy(m, elf, len);
	m[32] = 0xf0;
	m[33] = 0xff; /* e_phoff far away */
	CHECK_EQ(pmregs_etrace_elf_ranges(m, len, r, 8, &x), -PMREGS_ETRACE_ELF_PHDRS);
	CHECK_EQ(pmregs_etrace_elf_ranges(elf, len, r, 0, &x), -PMREGS_ETRACE_ELF_TOO_MANY);
	CHECK(strcmp(pmregs_etrace_elf_strerror(PMREGS_ETRACE_ELF_SEGMENT), "loadable segment outside the file") == 0);
	/* random corruption of the headers never reads outside */
	for (cut = 0; cut < test_scale(20000); cut++) {
		memcpy(m, elf, len);
		for (i = 0; i < 4; i++)
			m[rnd() % 128] = (unsigned char)rnd();
		if (rnd() % 2)
			m[64 + rnd() % 112] = (unsigned char)rnd();
		n = pmregs_etrace_elf_ranges(m, len, r, 8, &x);
		for (i = 0; i < n; i++)
			CHECK(r[i].bytes >= m && r[i].bytes + r[i].len <= m + len);
	}
	free(m);
	free(elf);
}

/* A read callback instead of ranges: the same result. */
static unsigned read_cb(void *ctx, uint64_t address, unsigned char *buf, unsigned n)
{
	const struct prog *g = (const struct prog *)ctx;
	unsigned k;
	if (address < g->base || address >= g->base + g->len)
		return 0;
	for (k = 0; k < n && address + k < g->base + g->len; k++)
		buf[k] = g->b[address - g->base + k];
	return k;
}

static void test_callback(void)
{
	struct pmregs_etrace_image img;
	struct pmregs_etrace_decoder_config c;
	struct pmregs_etrace_decoder d;
	struct pmregs_etrace_item win[256];
	size_t got = 0;
	int i;
	looplabel_program();
	pk_addr(&sc, 0x1004, 0, 1, 0, 0);
	pk_trap(&sc, 0x1100, 3, 2, 0, 1, 0);
	run_all(&sc, "ranges");
	img.ranges = 0;
	img.nranges = 0;
	img.xlen = 64;
	img.read = read_cb;
	img.ctx = &sc.g[0];
	config(&sc, &c, &img);
	pmregs_etrace_decoder_init(&d, &c);
	for (i = 0; i < sc.n; i++)
		CHECK_EQ(pmregs_etrace_decoder_packet(&d, &sc.pk[i], win, 256, &got), PMREGS_OK);
	CHECK(got == o_big.n && memcmp(win, o_big.it, got * sizeof win[0]) == 0);
	/* and an XLEN the decoder does not know */
	img.xlen = 128;
	CHECK_EQ(pmregs_etrace_decoder_init(&d, &c), PMREGS_EINVAL);
}

/*
 * Runs: a sequential record's imm names the instruction n after it (span bytes on) that the decoder may step
 * to at once. Every record with one must tell the truth: n and span within their caps, the n - 1 instructions
 * in between sequential, decoded, and the last one inside the range.
 */
static void check_runs(const struct pmregs_etrace_dinsn *rec, uint64_t len, int all, int some, const char *what)
{
	uint64_t off, bad = 0, known = 0;
	for (off = 0; off < len; off += 2) {
		const struct pmregs_etrace_dinsn *r = &rec[off >> 1];
		uint32_t ri = (uint32_t)r->imm, k, n, span;
		uint64_t x = off;
		if (!r->length || !PMREGS_ETRACE_DINSN_HAS_RUN(r->act))
			continue;
		if (ri == 0) {
			bad += (uint64_t)all; /* pre-decoded: every run is known */
			continue;
		}
		known++;
		n = PMREGS_ETRACE_RUN_N(ri);
		span = PMREGS_ETRACE_RUN_SPAN(ri);
		if (n == 0 || n > PMREGS_ETRACE_RUN_MAX_N || span > PMREGS_ETRACE_RUN_MAX_SPAN) {
			bad++;
			continue;
		}
		for (k = 0; k < n; k++) {
			if (k > 0 && (!rec[x >> 1].length || (rec[x >> 1].act & 7u) != PMREGS_ETRACE_ACT_SEQ))
				break;
			x += rec[x >> 1].length;
			if (x >= len)
				break;
		}
		if (k != n || x != off + span)
			bad++;
	}
	if (bad)
		fprintf(stderr, "%s: %llu of the runs are wrong\n", what, (unsigned long long)bad);
	CHECK_EQ(bad, 0);
	CHECK(known > 0 || !some);
}

/* A straight stretch longer than a run's span reaches: 4-byte addi and 2-byte c.nop, an auipc half-way, then
 * an uninferable jalr. */
#define RUNS_LEN 0x11000u
static unsigned char runs_code[RUNS_LEN];
static struct pmregs_etrace_dinsn runs_rec[RUNS_LEN / 2];
static struct pmregs_etrace_item runs_win[4096];
static uint64_t runs_at[RUNS_LEN / 2]; /* the instructions' offsets */

static uint64_t runs_decode(uint64_t base, uint64_t len, int mode, size_t cap, struct out *o)
{
	struct pmregs_etrace_image_range r;
	struct pmregs_etrace_image img;
	struct pmregs_etrace_decoder_config c;
	struct pmregs_etrace_decoder d;
	int i;
	r.base = base;
	r.bytes = runs_code;
	r.len = len;
	r.cache = mode ? runs_rec : 0;
	memset(runs_rec, 0, sizeof runs_rec);
	if (mode == 2)
		pmregs_etrace_image_predecode(&r, sc.xlen);
	img.ranges = &r;
	img.nranges = 1;
	img.xlen = sc.xlen;
	img.read = 0;
	img.ctx = 0;
	config(&sc, &c, &img);
	CHECK_EQ(pmregs_etrace_decoder_init(&d, &c), PMREGS_OK);
	o->n = 0;
	o->overflow = 0;
	for (i = 0; i < sc.n; i++) {
		int rc;
		do {
			size_t n = 0, k;
			rc = pmregs_etrace_decoder_packet(&d, &sc.pk[i], runs_win, cap, &n);
			for (k = 0; k < n && o->n < MAXIT; k++)
				o->it[o->n++] = runs_win[k];
		} while (rc == PMREGS_ENOSPC);
		CHECK_EQ(rc, PMREGS_OK);
	}
	return d.errors;
}

static void test_runs(void)
{
	const uint64_t base = 0x100000;
	uint64_t a = base, end, nn, k, ni = 0, tgt, insns[3];
	struct naive_image im;
	struct pmregs_etrace_image_range r;
	static const size_t caps[] = {PMREGS_ETRACE_ROOM, 7, 64, 4096};
	size_t ci;
	int mode;
	scen_init(&sc, 64, base);
	while (a + 12 < base + RUNS_LEN) {
		uint64_t o = a - base;
		uint32_t w = (o / 2) % 7 == 3 ? 0x0001u : i_addi(0, 0, (int)(o % 100));
		if (o == 0x8000)
			w = i_auipc(7, 0x12);
		runs_at[ni++] = o;
		runs_code[o] = (unsigned char)w;
		runs_code[o + 1] = (unsigned char)(w >> 8);
		if ((w & 3u) == 3u) {
			runs_code[o + 2] = (unsigned char)(w >> 16);
			runs_code[o + 3] = (unsigned char)(w >> 24);
			a += 4;
		} else {
			a += 2;
		}
	}
	end = a;
	{
		uint32_t w = i_jalr(0, 6, 0); /* rs1 = x6: no return */
		uint64_t o = end - base;
		runs_code[o] = (unsigned char)w;
		runs_code[o + 1] = (unsigned char)(w >> 8);
		runs_code[o + 2] = (unsigned char)(w >> 16);
		runs_code[o + 3] = (unsigned char)(w >> 24);
	}
	/* the records, pre-decoded: true, and the first run stops at a cap */
	r.base = base;
	r.bytes = runs_code;
	r.len = end + 4 - base;
	r.cache = runs_rec;
	memset(runs_rec, 0, sizeof runs_rec);
	pmregs_etrace_image_predecode(&r, 64);
	check_runs(runs_rec, r.len, 1, 1, "runs, pre-decoded");
	CHECK(PMREGS_ETRACE_RUN_SPAN(runs_rec[0].imm) + 4u > PMREGS_ETRACE_RUN_MAX_SPAN);
	CHECK_EQ((runs_rec[0x8000 / 2].act & PMREGS_ETRACE_DF_AUIPC) != 0, 1);
	CHECK_EQ(runs_rec[0x8000 / 2].imm, 0x12000); /* auipc keeps its value */
	/* the trace: from the 200th instruction through the stretch and its jump back to the 64th; a
	 * resynchronisation at an address inside a run; a notification further on, inside another; then through
	 * the jump again */
	tgt = base + runs_at[64];
	pk_support(&sc, 0, 0);
	pk_start(&sc, base + runs_at[200], 3, 0);
	pk_addr(&sc, tgt, 0, 0, 0, 0);
	pk_start(&sc, base + runs_at[300], 3, 0);
	pk_addr(&sc, base + runs_at[ni / 2 + 11], 1, 0, 0, 0);
	pk_addr(&sc, tgt, 0, 0, 0, 0);
	im.n = 1;
	im.xlen = 64;
	im.base[0] = base;
	im.bytes[0] = runs_code;
	im.len[0] = end + 4 - base;
	naive_init(&nv, &sc.p, &im, sc.layout, sc.options, 1, 1, 1, 0, nitems, MAXIT);
	for (k = 0; k < (uint64_t)sc.n; k++)
		naive_process_te_inst(&nv, &sc.pk[k]);
	nn = nv.nout;
	CHECK(nn > 2 * (end - base) / 4);
	for (mode = 0; mode < 3; mode++)
		for (ci = 0; ci < sizeof caps / sizeof caps[0]; ci++) {
			char what[64];
			snprintf(what, sizeof what, "runs, records %d, window %zu", mode, caps[ci]);
			CHECK_EQ(runs_decode(base, end + 4 - base, mode, caps[ci], &o_big), 0);
			CHECK(same_as_naive(&o_big, (size_t)nn, what));
			if (mode == 1)
				check_runs(runs_rec, end + 4 - base, 0, caps[ci] >= 64, what); /* (a window that small restarts
													 * at every instruction, before its run is known) */
		}
	/* the run budget: max_run stops a run at the same instruction as one step at a time would */
	sc.n = 0;
	pk_support(&sc, 0, 0);
	pk_start(&sc, base + runs_at[200], 3, 0);
	pk_addr(&sc, tgt, 0, 0, 0, 0);
	for (mode = 0; mode < 3; mode++) {
		struct pmregs_etrace_decoder_config c;
		struct pmregs_etrace_decoder d;
		struct pmregs_etrace_image img;
		size_t n = 0;
		int i, rc = PMREGS_OK;
		r.cache = mode ? runs_rec : 0;
		memset(runs_rec, 0, sizeof runs_rec);
		if (mode == 2)
			pmregs_etrace_image_predecode(&r, 64);
		img.ranges = &r;
		img.nranges = 1;
		img.xlen = 64;
		img.read = 0;
		img.ctx = 0;
		config(&sc, &c, &img);
		c.max_run = 1000;
		CHECK_EQ(pmregs_etrace_decoder_init(&d, &c), PMREGS_OK);
		for (i = 0; i < sc.n; i++) {
			n = 0;
			do
				rc = pmregs_etrace_decoder_packet(&d, &sc.pk[i], runs_win, 4096, &n);
			while (rc == PMREGS_ENOSPC);
		}
		CHECK_EQ(rc, PMREGS_EINVAL);
		CHECK_EQ(d.err_reason, PMREGS_ETRACE_REASON_RUNAWAY);
		insns[mode] = d.insns;
	}
	CHECK_EQ(insns[0], 1001); /* the start's instruction and 1000 followed */
	CHECK_EQ(insns[1], insns[0]);
	CHECK_EQ(insns[2], insns[0]);
}

TEST_COLD_END

int main(void)
{
	test_looplabel();
	test_branch_maps();
	test_implicit_return();
	test_sijump();
	test_traps();
	test_jump_cache();
	test_branch_prediction();
	test_addresses();
	test_errors();
	test_callback();
	test_vectors();
	test_random();
	test_mutated();
	test_elf();
	test_runs();
	return check_done("test_etrace_decoder");
}
