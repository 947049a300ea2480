/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * etrace_hotspots: an instruction trace end to end, as a profiler uses one.
 * A core's retired instructions go into the E-Trace encoder
 * (<pmregs/etrace_encoder.h>) and come out as an SMI stream; the decoder
 * (<pmregs/etrace_decoder.h>) reads the stream and the program's bytes and
 * gives each retired instruction to a consumer
 * (pmregs_etrace_decode_smi_each()), which counts how often each one ran.
 *
 * The program is what GNU as 2.40 assembles (-march=rv64i) for a loop that
 * calls a function 200 times; the function's branch skips an increment unless
 * the loop counter is a multiple of 4, and it returns through ra (an
 * uninferable jump, so each return is an address-only packet). The core
 * runs the five instructions the program uses (addi, andi, bne, jal, jalr;
 * pmregs_riscv_insn_decode() gives their class, length and offset) and stops
 * at the jump-to-self at 0x14. Its counts are the truth: the decoded ones
 * must be the same, instruction by instruction.
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/etrace_decoder.h>
#include <pmregs/etrace_encoder.h>

#define BASE UINT64_C(0x80000000)

static const unsigned char code[] = {
	0x13, 0x05, 0x00, 0x00, /* 0x00 addi a0,zero,0 */
	0x93, 0x05, 0x80, 0x0c, /* 0x04 addi a1,zero,200 */
	0xef, 0x00, 0x00, 0x01, /* 0x08 loop: jal ra,0x18 */
	0x93, 0x85, 0xf5, 0xff, /* 0x0c addi a1,a1,-1 */
	0xe3, 0x9c, 0x05, 0xfe, /* 0x10 bnez a1,0x08 */
	0x6f, 0x00, 0x00, 0x00, /* 0x14 halt: j 0x14 */
	0x93, 0xf2, 0x35, 0x00, /* 0x18 count: andi t0,a1,3 */
	0x63, 0x94, 0x02, 0x00, /* 0x1c bnez t0,0x24 */
	0x13, 0x05, 0x15, 0x00, /* 0x20 addi a0,a0,1 */
	0x67, 0x80, 0x00, 0x00, /* 0x24 skip: ret */
};
static const char *const text[] = {"addi a0,zero,0", "addi a1,zero,200", "jal ra,0x18",   "addi a1,a1,-1", "bnez a1,0x08",
				   "j 0x14",         "andi t0,a1,3",     "bnez t0,0x24", "addi a0,a0,1",  "ret"};
#define NINSN (sizeof code / 4)
#define HALT (BASE + 0x14)

static const struct pmregs_etrace_params P = PMREGS_ETRACE_PRESET_REFERENCE_FLOW;

static uint64_t truth[NINSN];  /* retired, by the core */
static uint64_t decoded[NINSN]; /* reconstructed, by the consumer */
static unsigned char stream[1 << 14];
static size_t stream_len;

static uint32_t word_at(uint64_t pc)
{
	const unsigned char *b = code + (pc - BASE);
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The encoder's packets so far, framed into the stream. */
static int drain(struct pmregs_etrace_encoder *e)
{
	struct pmregs_etrace_smi msg;
	pmregs_etrace_smi_init(&msg, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	msg.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	while (pmregs_etrace_encoder_pending(e)) {
		size_t used = 0;
		pmregs_etrace_encoder_put_smi(e, &msg, stream + stream_len, sizeof stream - stream_len, &used);
		if (!used)
			return -1; /* the stream buffer is full */
		stream_len += used;
	}
	return 0;
}

/* The core: runs the program from BASE to HALT, one ingress block per retired instruction. */
static int run_core(struct pmregs_etrace_encoder *e)
{
	uint64_t x[32], pc = BASE;
	memset(x, 0, sizeof x);
	while (pc != HALT) {
		uint32_t w = word_at(pc);
		struct pmregs_riscv_insn d = pmregs_riscv_insn_decode(w, 64);
		unsigned rd = (w >> 7) & 31u, rs1 = (w >> 15) & 31u, rs2 = (w >> 20) & 31u, f3 = (w >> 12) & 7u;
		uint64_t imm = (uint64_t)(int64_t)((int32_t)w >> 20), next = pc + d.length;
		struct pmregs_etrace_ingress b;
		int taken = 0;
		memset(&b, 0, sizeof b);
		switch (w & 0x7fu) {
		case 0x13: /* addi, andi */
			if (f3 != 0 && f3 != 7)
				return -1;
			if (rd)
				x[rd] = f3 == 0 ? x[rs1] + imm : x[rs1] & imm;
			break;
		case 0x63: /* bne */
			if (f3 != 1)
				return -1;
			taken = x[rs1] != x[rs2];
			if (taken)
				next = pc + (uint64_t)d.imm;
			break;
		case 0x6f: /* jal */
			if (rd)
				x[rd] = pc + 4;
			next = pc + (uint64_t)d.imm;
			break;
		case 0x67: /* jalr */
			next = (x[rs1] + imm) & ~(uint64_t)1;
			if (rd)
				x[rd] = pc + 4;
			break;
		default:
			return -1;
		}
		truth[(pc - BASE) / 4]++;
		b.iaddr = pc;
		b.iretire = d.length / 2u; /* half-words */
		b.ilastsize = 1;           /* 2^1 half-words */
		b.itype = (uint8_t)(d.itype + (unsigned)taken);
		b.priv = 3;                /* M */
		if (pmregs_etrace_encoder_step(e, &b) < 0 || drain(e) != 0) /* (it returns the packets waiting) */
			return -1;
		pc = next;
	}
	return pmregs_etrace_encoder_finish(e, 0) < 0 ? -1 : drain(e);
}

/* The consumer: one more run of the instruction an item reports. */
static void count(void *ctx, const struct pmregs_etrace_item *it)
{
	uint64_t *n = (uint64_t *)ctx;
	if (it->type == PMREGS_ETRACE_ITEM_INSN && it->address - BASE < sizeof code)
		n[(it->address - BASE) / 4]++;
}

int main(void)
{
	struct pmregs_etrace_encoder enc;
	struct pmregs_etrace_encoder_config ec;
	struct pmregs_etrace_image_range range;
	struct pmregs_etrace_image img;
	struct pmregs_etrace_dinsn records[sizeof code / 2];
	struct pmregs_etrace_decoder dec;
	struct pmregs_etrace_decoder_config dc;
	struct pmregs_etrace_smi_feed feed;
	uint64_t work[64], retired = 0;
	size_t need, i;
	int bad = 0;

	/* encode: the core's blocks in, SMI messages out */
	pmregs_etrace_encoder_config_default(&ec);
	if (pmregs_etrace_encoder_work_size(&P, &need) != PMREGS_OK || need > sizeof work ||
	    pmregs_etrace_encoder_init(&enc, &P, &ec, work, sizeof work) != PMREGS_OK || run_core(&enc) != 0) {
		fprintf(stderr, "etrace_hotspots: the core or the encoder failed\n");
		return 1;
	}

	/* decode: the stream and the program's bytes in, every retired instruction to count() */
	memset(records, 0, sizeof records); /* an empty cache: records are decoded as they are met */
	range.base = BASE;
	range.bytes = code;
	range.len = sizeof code;
	range.cache = records;
	memset(&img, 0, sizeof img);
	img.ranges = &range;
	img.nranges = 1;
	img.xlen = 64;
	pmregs_etrace_smi_feed_init(&feed, &P, stream, stream_len, 1);
	memset(&dc, 0, sizeof dc);
	dc.params = &feed.p;
	dc.image = &img;
	dc.ioptions_layout = PMREGS_ETRACE_IOPTIONS_REF;
	if (pmregs_etrace_decoder_init(&dec, &dc) != PMREGS_OK) {
		fprintf(stderr, "etrace_hotspots: the decoder refused its configuration\n");
		return 1;
	}
	(void)pmregs_etrace_decode_smi_each(&dec, &feed, count, decoded);

	printf("address        runs  instruction\n");
	for (i = 0; i < NINSN; i++) {
		printf("0x%08llx %8llu  %s%s\n", (unsigned long long)(BASE + 4 * i), (unsigned long long)decoded[i], text[i],
		       decoded[i] == truth[i] ? "" : "   <- the core retired it a different number of times");
		bad |= decoded[i] != truth[i];
		retired += truth[i];
	}
	printf("%llu instructions retired, %llu reconstructed from %llu packets (%zu bytes, %.2f bits per instruction), "
	       "%llu inconsistencies\n",
	       (unsigned long long)retired, (unsigned long long)dec.insns, (unsigned long long)dec.packets, stream_len,
	       8.0 * (double)stream_len / (double)retired, (unsigned long long)dec.errors);
	return bad || dec.insns != retired || dec.errors != 0 || feed.unreadable != 0;
}
