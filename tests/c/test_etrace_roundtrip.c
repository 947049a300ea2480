/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The E-Trace encoder's round-trip property test: random programs
 * (etrace_hart.h: calls deeper than the return stack, recursion, function
 * pointers, switch tables, sequentially inferable jumps, co-routine swaps,
 * longjmp-like returns, traps, nested interrupts, mret, privilege and
 * context changes, notify requests, qualification windows) run on a tiny
 * hart model; their ingress, in single-retirement and in block form, goes
 * through <pmregs/etrace_encoder.h>, the packets through the SMI writer and
 * the stream walker, and a decoder (etrace_trace_decoder.h) rebuilds the
 * addresses, which must be exactly the traced instructions, for every
 * combination of parameters and options below. A trace_lost support packet
 * (the encoder's answer where irdepth is ambiguous) may leave a gap: what
 * follows must resume exactly at the instruction its format 3.0 reports.
 *
 * PMREGS_ROUNDTRIP_PROGRAMS=N sets the programs per configuration (default
 * a quick run: 20, or test_scale(20) in the 32-bit and emulated big-endian
 * runs, whose point is the word size and the byte order);
 * PMREGS_ROUNDTRIP_SEED=S starts from another seed. A failure
 * prints the seed and the configuration that reproduce it.
 *
 * pmregs-test: no-force-inline (its native gcc -O2 build also defines PMREGS_NO_FORCE_INLINE, three fifths
 * of the build time: no path it checks depends on the inlining; the one that does, the stream readers'
 * constant-parameter path, is test_etrace_word's)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace_encoder.h>
#include <pmregs/etrace_tools.h>
#include "../common/check.h"

/*
 * The hart model, the decoder that rebuilds the addresses and the test itself take a few tenths of a
 * second: compiled with little optimisation (TEST_COLD_BEGIN, tests/common/check.h); the encoder, the
 * SMI writer and the stream walker under test keep the build's (the headers above).
 */
TEST_COLD_BEGIN
#include "etrace_hart.h"
#include "etrace_trace_decoder.h"

#define MAXEV 40000
#define MAXBLK (MAXEV * 2 + 16)

static struct hart_prog prog;
static struct hart_event events[MAXEV];
static struct pmregs_etrace_ingress blocks[MAXBLK];
static uint64_t truth[MAXEV], decoded[MAXEV * 2];
static struct pmregs_etrace_encoder enc;
static uint64_t work[1 << 14];
static unsigned char stream[MAXEV * 48];
static struct pmregs_etrace_te_inst pkts[MAXEV * 2];
static struct nd dec;
static size_t bstart[MAXBLK + 1], rlo[MAXEV], rhi[MAXEV], nrestart;

/* a trace_lost restart queued by the last step (k: the block it took): its 3.0 reports an
 * instruction of block k - 1 or k; remember that range of the executed instructions */
static void find_restarts(size_t k, size_t nb)
{
	unsigned r;
	for (r = enc.qhead; r != enc.qtail; r++) {
		const struct pmregs_etrace_te_inst *t = &enc.q[r & (PMREGS_ETRACE_ENCODER_QUEUE - 1)];
		if (t->format == 3 && t->subformat == 3 && t->qual_status == PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST &&
		    nrestart < MAXEV) {
			rlo[nrestart] = k ? bstart[k - 1] : 0;
			rhi[nrestart] = bstart[k + 1 <= nb ? k + 1 : nb];
			nrestart++;
		}
	}
}

struct cfg {
	const char *name;
	unsigned xlen, lsb, width;
	uint32_t options;
	unsigned rss, ccs, cache, bpred, f0s, itw, blocks, resync_unit, resync_max, context, notify, windows, irq, layout, sijump;
};

static const struct cfg cfgs[] = {
	/* name            xlen lsb w  options rss ccs cache bpred f0s itw blk unit max ctx ntf win irq layout sij */
	{ "plain rv64", 64, 1, 64, 0, 0, 0, 0, 0, 0, 4, 1, 0, 16, 0, 0, 0, 0, 0, 0 },
	{ "plain rv32", 32, 1, 32, 0, 0, 0, 0, 0, 0, 4, 1, 0, 16, 0, 0, 0, 0, 0, 0 },
	{ "blocks", 64, 1, 64, 0, 0, 0, 0, 0, 0, 4, 8, 0, 32, 0, 0, 0, 0, 0, 0 },
	{ "itype3 lsb0", 64, 0, 64, 0, 0, 0, 0, 0, 0, 3, 1, 0, 16, 0, 0, 0, 0, 0, 0 },
	{ "full address", 32, 1, 32, PMREGS_ETRACE_ENCODER_FULL_ADDRESS, 0, 0, 0, 0, 0, 4, 4, 0, 16, 0, 0, 0, 0, 0, 0 },
	{ "traps irq", 64, 1, 64, 0, 0, 0, 0, 0, 0, 4, 1, 0, 16, 0, 0, 0, 40, 0, 0 },
	{ "traps irq blocks", 32, 1, 32, 0, 0, 0, 0, 0, 0, 4, 6, 0, 16, 0, 0, 0, 30, 0, 0 },
	{ "context notify", 64, 1, 64, 0, 0, 0, 0, 0, 0, 4, 1, 0, 16, 1, 1, 0, 60, 0, 0 },
	{ "windows", 64, 1, 64, 0, 0, 0, 0, 0, 0, 4, 4, 0, 16, 1, 1, 1, 60, 0, 0 },
	{ "resync halfwords", 64, 1, 64, 0, 0, 0, 0, 0, 0, 4, 1, 1, 200, 0, 0, 0, 50, 0, 0 },
	{ "resync cycles", 32, 1, 32, 0, 0, 0, 0, 0, 0, 4, 5, 2, 150, 0, 0, 0, 50, 0, 0 },
	{ "sijump", 64, 1, 64, PMREGS_ETRACE_ENCODER_SIJUMP, 0, 0, 0, 0, 0, 4, 1, 0, 16, 0, 0, 0, 50, 0, 1 },
	{ "stack", 64, 1, 64, PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN, 3, 0, 0, 0, 0, 4, 1, 0, 16, 0, 0, 0, 0, 0, 0 },
	{ "stack irq", 64, 1, 64, PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN, 2, 0, 0, 0, 0, 4, 4, 0, 32, 0, 1, 0, 40, 0, 0 },
	{ "counter", 32, 1, 32, PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN, 0, 3, 0, 0, 0, 4, 1, 0, 16, 0, 0, 0, 40, 0, 0 },
	{ "jtc", 64, 1, 64, PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE, 0, 0, 3, 0, 0, 4, 1, 0, 16, 0, 0, 0, 40, 0, 0 },
	{ "bpred", 64, 1, 64, PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION, 0, 0, 0, 4, 0, 4, 1, 0, 16, 0, 0, 0, 40, 0, 0 },
	{ "everything", 64, 1, 64, 0x1f, 3, 0, 4, 5, 1, 4, 6, 0, 32, 1, 1, 1, 40, 1, 1 },
	{ "everything rv32", 32, 1, 32, 0x1f & ~PMREGS_ETRACE_ENCODER_FULL_ADDRESS, 2, 0, 2, 3, 2, 4, 1, 1, 300, 1, 1, 1, 30, 1, 1 },
};

/* the events, blocks and packets around a failure */
static void debug_dump(size_t np, size_t j, size_t i)
{
	size_t k;
	for (k = j > 30 ? j - 30 : 0; k < j + 5 && k < MAXEV; k++)
		fprintf(stderr, "truth[%lu] %#llx   decoded %#llx\n", (unsigned long)k, (unsigned long long)truth[k],
			(unsigned long long)(i + k - j < MAXEV * 2 ? decoded[i + k - j] : 0));
	/* the members that steer the address reconstruction, as stored (pmregs_etrace_te_inst_snprint() here
	 * would compile the packet printer, a twelfth of this file's build, for a message only a failure prints) */
	for (k = 0; k < np && k < 60; k++) {
		const struct pmregs_etrace_te_inst *t = &pkts[k];
		fprintf(stderr,
			"pkt %lu: %s format=%u subformat=%u branches=%u branch_map=%#lx address=%#llx notify=%u updiscon=%u "
			"irreport=%u irdepth=%llu privilege=%u ecause=%llu interrupt=%u thaddr=%u tval=%#llx\n",
			(unsigned long)k, pmregs_etrace_te_inst_shape_name(t->shape), t->format, t->subformat, t->branches,
			(unsigned long)t->branch_map, (unsigned long long)t->address, t->notify, t->updiscon, t->irreport,
			(unsigned long long)t->irdepth, t->privilege, (unsigned long long)t->ecause, t->interrupt, t->thaddr,
			(unsigned long long)t->tval);
	}
}

static const char *fail_cfg;
static uint64_t fail_seed;

static int run_one(const struct cfg *c, uint64_t seed, size_t n_insn)
{
	struct pmregs_etrace_params p;
	struct pmregs_etrace_encoder_config ec;
	struct hart_log log;
	struct hart_opts o;
	struct pmregs_etrace_smi f;
	struct pmregs_etrace_smi_stream w;
	struct pmregs_etrace_smi_stream_item it;
	size_t nb, nt, k, used, np = 0, pos = 0, i, j, r;
	uint64_t base;
	int rc, trace = getenv("PMREGS_ROUNDTRIP_TRACE") != 0;
	static const uint64_t bases64[3] = { 0x80000000u, 0x10000u, 0x7ffffffff0000000u };
	static const uint64_t bases32[3] = { 0x80000000u, 0x1000u, 0xfff00000u };

	pmregs_etrace_params_default(&p);
	p.iaddress_width_p = (uint8_t)c->width;
	p.iaddress_lsb_p = (uint8_t)c->lsb;
	p.return_stack_size_p = (uint8_t)c->rss;
	p.call_counter_size_p = (uint8_t)c->ccs;
	p.cache_size_p = (uint8_t)c->cache;
	p.bpred_size_p = (uint8_t)c->bpred;
	p.f0s_width_p = (uint8_t)c->f0s;
	p.f0s_inferred = (uint8_t)((c->options & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE) ? 1 : 0);
	p.sijump_p = (uint8_t)c->sijump;
	p.ecause_width_p = 5;
	p.ioptions_width = c->layout ? 7 : 5;
	if (c->context) {
		p.nocontext_p = 0;
		p.context_width_p = 16;
		p.notime_p = 0;
		p.time_width_p = 8;
	}
	pmregs_etrace_encoder_config_default(&ec);
	ec.options = c->options;
	ec.itype_width = (uint8_t)c->itw;
	ec.resync_unit = (uint8_t)c->resync_unit;
	ec.resync_max = c->resync_max;
	ec.ioptions_layout = (uint8_t)c->layout;
	if (!c->sijump)
		ec.options &= ~PMREGS_ETRACE_ENCODER_SIJUMP;

	base = c->xlen == 32 ? bases32[seed % 3] : bases64[seed % 3];
	hart_generate(&prog, seed, c->xlen, base, 8 + (unsigned)(seed % 30));
	log.ev = events;
	log.n = 0;
	log.cap = n_insn;
	hart_run(&prog, seed * 7 + 1, c->irq, (c->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) && !c->rss, n_insn, hart_log_sink, &log);
	memset(&o, 0, sizeof o);
	o.block_max = c->blocks;
	o.itype_width = c->itw;
	o.ctx_rate = c->context ? 300 : 0;
	o.notify_rate = c->notify ? 50 : 0;
	o.off_rate = c->windows ? 60 : 0;
	o.on_rate = 8;
	o.seed = seed * 13 + 5;
	nb = hart_ingress(events, log.n, &o, blocks, MAXBLK, truth, MAXEV, &nt, bstart);
	nrestart = 0;

	rc = pmregs_etrace_encoder_init(&enc, &p, &ec, work, sizeof work);
	if (rc != PMREGS_OK) {
		const char *why;
		pmregs_etrace_encoder_check(&p, &ec, &why);
		fprintf(stderr, "%s: init failed: %s\n", c->name, why);
		return 1;
	}
	pmregs_etrace_smi_init(&f, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	f.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	for (k = 0; k < nb; k++) {
		rc = pmregs_etrace_encoder_step(&enc, &blocks[k]);
		if (rc < 0) {
			fprintf(stderr, "%s seed %llu: block %lu refused (%d): itype %u iretire %u priv %u cause %llu\n", c->name, (unsigned long long)seed, (unsigned long)k, rc, blocks[k].itype, blocks[k].iretire, blocks[k].priv, (unsigned long long)blocks[k].cause);
			return 1;
		}
		if (trace) {
			unsigned q;
			fprintf(stderr, "blk %lu: iaddr %#llx iretire %u itype %u sij %u priv %u flags %u ctype %u ->", (unsigned long)k,
				(unsigned long long)blocks[k].iaddr, blocks[k].iretire, blocks[k].itype, blocks[k].sijump, blocks[k].priv, blocks[k].flags,
				blocks[k].ctype);
			for (q = enc.qhead; q != enc.qtail; q++)
				fprintf(stderr, " [%u.%u]", enc.q[q & 31].format, enc.q[q & 31].subformat);
			fprintf(stderr, "\n");
		}
		find_restarts(k, nb);
		pmregs_etrace_encoder_put_smi(&enc, &f, stream + pos, sizeof stream - pos, &used);
		pos += used;
	}
	pmregs_etrace_encoder_finish(&enc, 0);
	find_restarts(nb, nb);
	pmregs_etrace_encoder_put_smi(&enc, &f, stream + pos, sizeof stream - pos, &used);
	pos += used;
	if (enc.stats.dropped) {
		fprintf(stderr, "%s seed %llu: %llu packets dropped\n", c->name, (unsigned long long)seed,
			(unsigned long long)enc.stats.dropped);
		return 1;
	}
	/* back through the stream walker */
	pmregs_etrace_smi_stream_init(&w, stream, pos, 1);
	while (pmregs_etrace_smi_stream_next(&w, &p, &it)) {
		if (it.status != PMREGS_OK || !it.has_payload || np >= sizeof pkts / sizeof pkts[0]) {
			fprintf(stderr, "%s seed %llu: unreadable stream item at %lu\n", c->name, (unsigned long long)seed,
				(unsigned long)it.offset);
			return 1;
		}
		pkts[np++] = it.payload;
	}
	nd_init(&dec, &p, c->layout, prog.img, prog.base, prog.size, c->xlen, decoded, sizeof decoded / sizeof decoded[0]);
	for (k = 0; k < np && !dec.errors; k++)
		nd_packet(&dec, &pkts[k]);
	if (dec.errors) {
		fprintf(stderr, "%s seed %llu: decoder error at packet %lu: %s\n", c->name, (unsigned long long)seed,
			(unsigned long)k - 1, dec.why);
		return 1;
	}
	/* compare, allowing a gap before each restart that follows a trace_lost */
	for (i = j = r = 0; i < dec.nout; i++) {
		if (decoded[i] == ~(uint64_t)0) {
			/* a gap: the next segment (up to the next gap) must be a run of the executed instructions at or after j */
			size_t len = 0, m;
			while (i + 1 + len < dec.nout && decoded[i + 1 + len] != ~(uint64_t)0)
				len++;
			if (r >= nrestart) {
				fprintf(stderr, "%s seed %llu: more trace_lost packets than restarts\n", c->name, (unsigned long long)seed);
				return 1;
			}
			/* the restart is an instruction of the blocks the encoder was working on */
			for (j = j > rlo[r] ? j : rlo[r]; j < rhi[r] && j + len <= nt; j++) {
				for (m = 0; m < len && truth[j + m] == decoded[i + 1 + m]; m++)
					;
				if (m == len)
					break;
			}
			if (j >= rhi[r] || j + len > nt) {
				size_t best = 0, bj = 0, q;
				for (q = rlo[r]; q < rhi[r]; q++) {
					for (m = 0; m < len && q + m < nt && truth[q + m] == decoded[i + 1 + m]; m++)
						;
					if (m > best) {
						best = m;
						bj = q;
					}
				}
				fprintf(stderr, "%s seed %llu: best restart at executed %lu matches %lu: decoded %#llx, executed %#llx there\n",
					c->name, (unsigned long long)seed, (unsigned long)bj, (unsigned long)best,
					(unsigned long long)decoded[i + 1 + best], (unsigned long long)truth[bj + best]);
				if (getenv("PMREGS_ROUNDTRIP_DEBUG"))
					for (q = best > 8 ? best - 8 : 0; q < best + 8 && i + 1 + q < dec.nout; q++)
						fprintf(stderr, "  [%lu] decoded %#llx executed %#llx\n", (unsigned long)(bj + q),
							(unsigned long long)decoded[i + 1 + q], (unsigned long long)truth[bj + q]);
				fprintf(stderr, "%s seed %llu: after gap %lu, the %lu decoded instructions match no executed run\n", c->name,
					(unsigned long long)seed, (unsigned long)r, (unsigned long)len);
				return 1;
			}
			r++;
			continue;
		}
		if (j >= nt || truth[j] != decoded[i]) {
			if (getenv("PMREGS_ROUNDTRIP_DEBUG"))
				debug_dump(np, j, i);
			fprintf(stderr, "%s seed %llu: instruction %lu: decoded %#llx, executed %#llx\n", c->name,
				(unsigned long long)seed, (unsigned long)j, (unsigned long long)decoded[i],
				j < nt ? (unsigned long long)truth[j] : 0ull);
			return 1;
		}
		j++;
	}
	if (j != nt) {
		fprintf(stderr, "%s seed %llu: %lu of %lu instructions decoded\n", c->name, (unsigned long long)seed, (unsigned long)j,
			(unsigned long)nt);
		return 1;
	}
	return 0;
}

int main(void)
{
	const char *e = getenv("PMREGS_ROUNDTRIP_PROGRAMS");
	const char *s = getenv("PMREGS_ROUNDTRIP_SEED");
	unsigned programs = e ? (unsigned)strtoul(e, 0, 0) : (unsigned)test_scale(20), k, i;
	uint64_t seed0 = s ? strtoull(s, 0, 0) : 1;
	unsigned long lost = 0, total = 0, rep = 0;
	for (k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
		unsigned bad = 0;
		if (getenv("PMREGS_ROUNDTRIP_CONFIG") && strcmp(getenv("PMREGS_ROUNDTRIP_CONFIG"), cfgs[k].name) != 0)
			continue;
		for (i = 0; i < programs; i++) {
			uint64_t seed = seed0 + i;
			int r = run_one(&cfgs[k], seed, 3000 + (size_t)(seed % 5) * 1000);
			CHECK(r == 0);
			if (r && !fail_cfg) {
				fail_cfg = cfgs[k].name;
				fail_seed = seed;
			}
			lost += (unsigned long)enc.stats.ambiguous;
			rep += (unsigned long)enc.stats.repeated;
			total++;
			if (r && ++bad > 3)
				break;
		}
	}
	printf("%lu programs, %lu ambiguous irdepth reports, %lu repeated fall-through reports\n", total, lost, rep);
	if (fail_cfg)
		printf("first failure: config \"%s\", PMREGS_ROUNDTRIP_SEED=%llu PMREGS_ROUNDTRIP_PROGRAMS=1\n", fail_cfg,
		       (unsigned long long)fail_seed);
	return check_done("etrace encoder round trip");
}
TEST_COLD_END
