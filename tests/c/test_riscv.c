/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * RISC-V instruction classes (<pmregs/riscv.h>) against golden encodings and a
 * naive decoder.
 *
 * Golden encodings: assembled by GNU as 2.40 (binutils-riscv64-linux-gnu, -march=rv64gc
 * or rv32gc) and each checked by hand against the ISA manual's tables:
 *   ISA   = The RISC-V Instruction Set Manual Vol. I, 20240411: table "RISC-V instruction
 *           length encoding"; "Immediate Encoding Variants" (B, J, I, U immediates);
 *           "RV32/64G Instruction Set Listings"; "Compressed Instruction Formats" and
 *           "Instruction listing for RVC, Quadrant 0/1/2" (CJ, CB, CI immediates, RES notes)
 *   PRIV  = Vol. II, 20240411, "RISC-V Privileged Instruction Set Listings" (SRET, MRET,
 *           MNRET); URET from Vol. II 1.11; DRET from the Debug Specification 1.0
 *   ETRACE = E-Trace 2.0, "Jump classification and target inference" and the itype table
 * The expected classes are the ETRACE list applied by hand (x1 and x5 are link registers).
 *
 * Then every 16-bit parcel and millions of 32-bit words, for both XLENs, against the
 * switch-based decoder of test_riscv_naive.h, written from the same tables (of the two million
 * random words, a test_sparse() under emulation, whose point is the byte order).
 *
 * pmregs-test: long-run (make check builds its sanitizer run at -O1: the run, not the build, takes the time)
 */
#include <stddef.h>
#include <stdio.h>
#include <pmregs/riscv.h>
#include "../common/check.h"
#include "test_riscv_naive.h"

#define TEST_SEED 0x7269736376000001u
#include "../common/xorshift.h"

#define OTHER PMREGS_RISCV_KIND_OTHER
#define BRANCH PMREGS_RISCV_KIND_BRANCH
#define JAL PMREGS_RISCV_KIND_JAL
#define JALR PMREGS_RISCV_KIND_JALR
#define AUIPC PMREGS_RISCV_KIND_AUIPC
#define LUI PMREGS_RISCV_KIND_LUI
#define ECALL PMREGS_RISCV_KIND_ECALL
#define EBREAK PMREGS_RISCV_KIND_EBREAK
#define XRET PMREGS_RISCV_KIND_XRET
#define INF PMREGS_RISCV_FLAG_INFERABLE
#define UNINF PMREGS_RISCV_FLAG_UNINFERABLE
#define CALL PMREGS_RISCV_FLAG_CALL
#define RET PMREGS_RISCV_FLAG_RETURN
#define C16 PMREGS_RISCV_FLAG_COMPRESSED
#define ILL PMREGS_RISCV_FLAG_ILLEGAL

struct golden {
	uint32_t insn;
	unsigned xlen; /* 0: both */
	int64_t imm;
	unsigned length, kind, rd, rs1, itype, flags;
	const char *what;
};

static const struct golden golden[] = {
	/* ---- B-type: imm[12|10:5] in 31:25, imm[4:1|11] in 11:7 (ISA "Immediate Encoding Variants") ---- */
	{0x80000063, 0, -4096, 4, BRANCH, 0, 0, 4, INF, "beq x0,x0,.-4096 (most negative)"},
	{0x7e209fe3, 0, 4094, 4, BRANCH, 0, 0, 4, INF, "bne x1,x2,.+4094 (most positive)"},
	{0x0041c463, 0, 8, 4, BRANCH, 0, 0, 4, INF, "blt x3,x4,.+8"},
	{0xfe62dfe3, 0, -2, 4, BRANCH, 0, 0, 4, INF, "bge x5,x6,.-2"},
	{0x0083e0e3, 0, 2048, 4, BRANCH, 0, 0, 4, INF, "bltu x7,x8,.+2048 (imm[11] from bit 7)"},
	{0x80a4f163, 0, -4094, 4, BRANCH, 0, 0, 4, INF, "bgeu x9,x10,.-4094"},
	{0x0000a063, 0, 0, 4, OTHER, 0, 0, 0, ILL, "BRANCH funct3 010: no instruction"},
	{0xfe00bfe3, 0, 0, 4, OTHER, 0, 0, 0, ILL, "BRANCH funct3 011: no instruction"},
	/* ---- J-type: imm[20|10:1|11|19:12] in 31:12; ETRACE classes by rd ---- */
	{0x800000ef, 0, -1048576, 4, JAL, 1, 0, 9, INF | CALL, "jal x1,.-1MiB: inferable call"},
	{0x7ffff06f, 0, 1048574, 4, JAL, 0, 0, 11, INF, "jal x0,.+1MiB-2: inferable jump"},
	{0x010002ef, 0, 16, 4, JAL, 5, 0, 9, INF | CALL, "jal x5,.+16: x5 is a link register"},
	{0xfffff56f, 0, -2, 4, JAL, 10, 0, 15, INF, "jal x10,.-2: other inferable jump with linkage"},
	/* ---- JALR (I-type imm[11:0]); the ETRACE classes and the RAS hint table ---- */
	{0x000280e7, 0, 0, 4, JALR, 1, 5, 12, UNINF | CALL | RET, "jalr x1,0(x5): co-routine swap"},
	{0x000082e7, 0, 0, 4, JALR, 5, 1, 12, UNINF | CALL | RET, "jalr x5,0(x1): co-routine swap"},
	{0x00008067, 0, 0, 4, JALR, 0, 1, 13, UNINF | RET, "jalr x0,0(x1): return"},
	{0x00028067, 0, 0, 4, JALR, 0, 5, 13, UNINF | RET, "jalr x0,0(x5): return through x5"},
	{0x00008167, 0, 0, 4, JALR, 2, 1, 13, UNINF | RET, "jalr x2,0(x1): return (rd not a link register)"},
	{0x000080e7, 0, 0, 4, JALR, 1, 1, 8, UNINF | CALL, "jalr x1,0(x1): rd = rs1, a call (push only)"},
	{0x000282e7, 0, 0, 4, JALR, 5, 5, 8, UNINF | CALL, "jalr x5,0(x5): rd = rs1, a call"},
	{0x800500e7, 0, -2048, 4, JALR, 1, 10, 8, UNINF | CALL, "jalr x1,-2048(x10): uninferable call, most negative imm"},
	{0x7ff00067, 0, 2047, 4, JALR, 0, 0, 11, INF, "jalr x0,2047(x0): rs1 = x0, absolute target, inferable jump"},
	{0x010000e7, 0, 16, 4, JALR, 1, 0, 9, INF | CALL, "jalr x1,16(x0): inferable call"},
	{0x00c58567, 0, 12, 4, JALR, 10, 11, 14, UNINF, "jalr x10,12(x11): other uninferable jump with linkage"},
	{0x00050067, 0, 0, 4, JALR, 0, 10, 10, UNINF, "jalr x0,0(x10): uninferable jump"},
	{0x0000a0e7, 0, 0, 4, OTHER, 0, 0, 0, ILL, "JALR with funct3 010: no instruction"},
	{0x000090e7, 0, 0, 4, OTHER, 0, 0, 0, ILL, "JALR with funct3 001: no instruction"},
	/* ---- U-type: imm[31:12], in place, sign-extended to 64 bits on both XLENs ---- */
	{0xfffff097, 0, -4096, 4, AUIPC, 1, 0, 0, 0, "auipc x1,0xfffff"},
	{0x80000517, 0, -2147483647 - 1, 4, AUIPC, 10, 0, 0, 0, "auipc x10,0x80000 (most negative)"},
	{0x800002b7, 0, -2147483647 - 1, 4, LUI, 5, 0, 0, 0, "lui x5,0x80000"},
	{0x7ffff2b7, 0, 0x7ffff000, 4, LUI, 5, 0, 0, 0, "lui x5,0x7ffff (most positive)"},
	{0x00001037, 0, 4096, 4, LUI, 0, 0, 0, 0, "lui x0,1: a HINT, still lui"},
	/* ---- SYSTEM (ISA listing; PRIV) ---- */
	{0x00000073, 0, 0, 4, ECALL, 0, 0, 0, 0, "ecall: itype 0 (the trap is the next block's)"},
	{0x00100073, 0, 0, 4, EBREAK, 0, 0, 0, 0, "ebreak"},
	{0x00200073, 0, 0, 4, XRET, 0, 0, 3, UNINF, "uret (PRIV 1.11)"},
	{0x10200073, 0, 0, 4, XRET, 0, 0, 3, UNINF, "sret"},
	{0x30200073, 0, 0, 4, XRET, 0, 0, 3, UNINF, "mret"},
	{0x70200073, 0, 0, 4, XRET, 0, 0, 3, UNINF, "mnret (Smrnmi)"},
	{0x7b200073, 0, 0, 4, XRET, 0, 0, 3, UNINF, "dret (Debug 1.0)"},
	{0x10500073, 0, 0, 4, OTHER, 0, 0, 0, 0, "wfi"},
	{0x00000173, 0, 0, 4, OTHER, 0, 0, 0, 0, "ecall's pattern with rd = 2 is not ecall"},
	{0x00200573, 0, 0, 4, OTHER, 0, 0, 0, 0, "uret's pattern with rd = 10 is not a return"},
	{0x00000013, 0, 0, 4, OTHER, 0, 0, 0, 0, "addi x0,x0,0 (nop)"},
	/* ---- CJ: offset[11|4|9:8|10|6|7|3:1|5] in 12:2 ---- */
	{0xb001, 0, -2048, 2, JAL, 0, 0, 11, INF | C16, "c.j .-2048 (most negative)"},
	{0xaffd, 0, 2046, 2, JAL, 0, 0, 11, INF | C16, "c.j .+2046 (most positive)"},
	{0x3001, 32, -2048, 2, JAL, 1, 0, 9, INF | CALL | C16, "c.jal .-2048 on RV32: inferable call, rd x1"},
	{0x2801, 32, 16, 2, JAL, 1, 0, 9, INF | CALL | C16, "c.jal .+16 on RV32"},
	{0x3001, 64, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "the same encoding on RV64: c.addiw x0,-32, RES (rd = 0)"},
	{0x2801, 64, 0, 2, OTHER, 0, 0, 0, C16, "c.addiw x16,0 on RV64"},
	{0x2001, 64, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.addiw x0,0 on RV64: RES, rd = 0"},
	/* ---- CB: offset[8|4:3] in 12:10, offset[7:6|2:1|5] in 6:2 ---- */
	{0xd001, 0, -256, 2, BRANCH, 0, 0, 4, INF | C16, "c.beqz x8,.-256 (most negative)"},
	{0xeffd, 0, 254, 2, BRANCH, 0, 0, 4, INF | C16, "c.bnez x15,.+254 (most positive)"},
	/* ---- CR: c.jr/c.jalr need rs1 != 0 and rs2 = 0; ETRACE classes ---- */
	{0x8082, 0, 0, 2, JALR, 0, 1, 13, UNINF | RET | C16, "c.jr x1: return"},
	{0x8282, 0, 0, 2, JALR, 0, 5, 13, UNINF | RET | C16, "c.jr x5: return"},
	{0x8502, 0, 0, 2, JALR, 0, 10, 10, UNINF | C16, "c.jr x10: uninferable jump"},
	{0x9082, 0, 0, 2, JALR, 1, 1, 8, UNINF | CALL | C16, "c.jalr x1: call (rd = rs1 = x1)"},
	{0x9282, 0, 0, 2, JALR, 1, 5, 12, UNINF | CALL | RET | C16, "c.jalr x5: co-routine swap"},
	{0x9502, 0, 0, 2, JALR, 1, 10, 8, UNINF | CALL | C16, "c.jalr x10: uninferable call"},
	{0x9002, 0, 0, 2, EBREAK, 0, 0, 0, C16, "c.ebreak: c.jalr's rs1 = 0 encoding"},
	{0x8002, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.jr x0: RES"},
	{0x850a, 0, 0, 2, OTHER, 0, 0, 0, C16, "c.mv x10,x2: rs2 != 0"},
	{0x950a, 0, 0, 2, OTHER, 0, 0, 0, C16, "c.add x10,x2"},
	/* ---- CI c.lui: nzimm[17] in 12, nzimm[16:12] in 6:2; rd not in {0, 2}; imm != 0 ---- */
	{0x60fd, 0, 0x1f000, 2, LUI, 1, 0, 0, C16, "c.lui x1,0x1f (most positive)"},
	{0x6505, 0, 0x1000, 2, LUI, 10, 0, 0, C16, "c.lui x10,1"},
	{0x7181, 0, -0x20000, 2, LUI, 3, 0, 0, C16, "c.lui x3,0xfffe0 (most negative)"},
	{0x6141, 0, 0, 2, OTHER, 0, 0, 0, C16, "c.addi16sp x2,16: rd = 2"},
	{0x6101, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.addi16sp x2,0: RES, nzimm = 0"},
	{0x6081, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.lui x1,0: RES, imm = 0"},
	{0x6001, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.lui x0,0: RES, imm = 0"},
	{0x6005, 0, 0, 2, OTHER, 0, 0, 0, C16, "c.lui x0,1: a HINT, other"},
	/* ---- other RVC reserved encodings (RES, RV32 Custom) ---- */
	{0x0000, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "the all-zero parcel: defined illegal"},
	{0x0010, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.addi4spn x12,0: RES, nzuimm = 0"},
	{0x0040, 0, 0, 2, OTHER, 0, 0, 0, C16, "c.addi4spn x8,4"},
	{0x8000, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "quadrant 0, funct3 100: Reserved"},
	{0x9c41, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "quadrant 1, 100 1 11 --- 10: Reserved"},
	{0x9c61, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "quadrant 1, 100 1 11 --- 11: Reserved"},
	{0x9c01, 64, 0, 2, OTHER, 0, 0, 0, C16, "c.subw x8,x8 on RV64"},
	{0x9c01, 32, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.subw on RV32: RES"},
	{0x9c21, 32, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.addw on RV32: RES"},
	{0x9001, 32, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.srli x8,32 on RV32: Custom (uimm[5] = 1)"},
	{0x9001, 64, 0, 2, OTHER, 0, 0, 0, C16, "c.srli x8,32 on RV64"},
	{0x9401, 32, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.srai x8,32 on RV32: Custom"},
	{0x807d, 32, 0, 2, OTHER, 0, 0, 0, C16, "c.srli x8,31 on RV32"},
	{0x1006, 32, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.slli x0,33 on RV32: Custom"},
	{0x1006, 64, 0, 2, OTHER, 0, 0, 0, C16, "c.slli x0,33 on RV64: a HINT"},
	{0x4002, 0, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.lwsp x0: RES, rd = 0"},
	{0x6002, 64, 0, 2, OTHER, 0, 0, 0, C16 | ILL, "c.ldsp x0 on RV64: RES, rd = 0"},
	{0x6002, 32, 0, 2, OTHER, 0, 0, 0, C16, "c.flwsp f0 on RV32"},
	{0x0001, 0, 0, 2, OTHER, 0, 0, 0, C16, "c.nop"},
	/* ---- lengths (ISA "RISC-V instruction length encoding") ---- */
	{0x0000001f, 0, 0, 6, OTHER, 0, 0, 0, 0, "48-bit prefix xxxxxxxxxx011111"},
	{0x0000005f, 0, 0, 6, OTHER, 0, 0, 0, 0, "48-bit prefix, bit 6 free"},
	{0x0000003f, 0, 0, 8, OTHER, 0, 0, 0, 0, "64-bit prefix xxxxxxxxx0111111"},
	{0x0000007f, 0, 0, 0, OTHER, 0, 0, 0, ILL, "80-bit prefix: not supported, length 0"},
	{0x0000607f, 0, 0, 0, OTHER, 0, 0, 0, ILL, "176-bit prefix"},
	{0x0000ffff, 0, 0, 0, OTHER, 0, 0, 0, ILL, "bits [15:0] all ones: reserved (192 bits and more)"},
	{0xffffffff, 0, 0, 0, OTHER, 0, 0, 0, ILL, "all ones"},
};

static void check_golden(void)
{
	unsigned seen_kind = 0, seen_flags = 0, seen_itype = 0;
	size_t i;
	unsigned x;
	for (i = 0; i < sizeof golden / sizeof golden[0]; i++) {
		const struct golden *g = &golden[i];
		for (x = 32; x <= 64; x += 32) {
			struct pmregs_riscv_insn d;
			int ok;
			if (g->xlen && g->xlen != x)
				continue;
			d = pmregs_riscv_insn_decode(g->insn, x);
			ok = d.imm == g->imm && d.length == g->length && d.kind == g->kind && d.rd == g->rd &&
			     d.rs1 == g->rs1 && d.itype == g->itype && d.flags == g->flags;
			CHECK(ok);
			if (!ok)
				fprintf(stderr, "  %s (0x%08lx, RV%u): imm %lld length %u kind %u rd %u rs1 %u itype %u flags %#x\n",
					g->what, (unsigned long)g->insn, x, (long long)d.imm, d.length, d.kind, d.rd, d.rs1,
					d.itype, d.flags);
			CHECK_EQ(pmregs_riscv_insn_length(g->insn), g->length);
			seen_kind |= 1u << d.kind;
			seen_flags |= d.flags;
			seen_itype |= 1u << d.itype;
		}
	}
	/* every kind, every flag and every itype a block can end with appears above */
	CHECK_EQ(seen_kind, 0x1FF);
	CHECK_EQ(seen_flags, 0x3F);
	CHECK_EQ(seen_itype, 0xFF19); /* 0, 3, 4, 8-15 */
}

/* The contract's layout of struct pmregs_riscv_insn and its constants. */
static void check_contract(void)
{
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, imm), 0);
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, length), 8);
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, kind), 9);
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, rd), 10);
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, rs1), 11);
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, itype), 12);
	CHECK_EQ(offsetof(struct pmregs_riscv_insn, flags), 13);
	CHECK_EQ(sizeof(struct pmregs_riscv_insn), 16);
	CHECK_EQ(PMREGS_RISCV_KIND_OTHER, 0);
	CHECK_EQ(PMREGS_RISCV_KIND_XRET, 8);
	CHECK_EQ(PMREGS_RISCV_FLAG_INFERABLE | PMREGS_RISCV_FLAG_UNINFERABLE | PMREGS_RISCV_FLAG_CALL |
		 PMREGS_RISCV_FLAG_RETURN | PMREGS_RISCV_FLAG_COMPRESSED | PMREGS_RISCV_FLAG_ILLEGAL, 0x3F);
	CHECK(pmregs_riscv_is_link(1) && pmregs_riscv_is_link(5));
	CHECK(!pmregs_riscv_is_link(0) && !pmregs_riscv_is_link(2) && !pmregs_riscv_is_link(4) && !pmregs_riscv_is_link(6));
	/* the class masks cover what their names say */
	CHECK_EQ(PMREGS_RISCV_INSN_JALR_MASK, 0x707F);
	CHECK_EQ(PMREGS_RISCV_INSN_JALR_MATCH, 0x67);
	CHECK_EQ(PMREGS_RISCV_INSN_C_EBREAK_MATCH, 0x9002);
}

static int same(struct pmregs_riscv_insn a, struct pmregs_riscv_insn b)
{
	return a.imm == b.imm && a.length == b.length && a.kind == b.kind && a.rd == b.rd && a.rs1 == b.rs1 &&
	       a.itype == b.itype && a.flags == b.flags;
}

static unsigned long compared;

static void against_naive(uint32_t insn, unsigned xlen)
{
	struct pmregs_riscv_insn a = pmregs_riscv_insn_decode(insn, xlen), b = naive_decode(insn, xlen);
	int ok = same(a, b);
	compared++;
	CHECK(ok);
	if (!ok && failures <= CHECK_REPORT_MAX)
		fprintf(stderr, "  0x%08lx RV%u: imm %lld/%lld length %u/%u kind %u/%u rd %u/%u rs1 %u/%u itype %u/%u flags %#x/%#x\n",
			(unsigned long)insn, xlen, (long long)a.imm, (long long)b.imm, a.length, b.length, a.kind, b.kind,
			a.rd, b.rd, a.rs1, b.rs1, a.itype, b.itype, a.flags, b.flags);
}

/* Every 16-bit parcel (the upper half random: it must not matter), both XLENs; lengths of every parcel. */
static void all_parcels(void)
{
	uint32_t p;
	unsigned x;
	for (p = 0; p < 0x10000; p++) {
		uint32_t hi = (uint32_t)rnd() << 16;
		for (x = 32; x <= 64; x += 32) {
			against_naive(p | hi, x);
			if ((p & 3) != 3)
				CHECK(same(pmregs_riscv_insn_decode(p | hi, x), pmregs_riscv_insn_decode(p, x)));
		}
		CHECK_EQ(pmregs_riscv_insn_length(p), naive_decode(p, 64).length);
	}
}

/* Random 32-bit words, half of them forced into the opcodes of interest; sweeps of JALR and SYSTEM. */
static void words(void)
{
	static const uint32_t opc[] = {0x63, 0x6F, 0x67, 0x17, 0x37, 0x73, 0x1F, 0x3F, 0x7F};
	unsigned long k;
	uint32_t v;
	for (k = 0; k < 2000000 / test_sparse(); k++) { /* a test_sparse() of them under emulation */
		uint32_t w = (uint32_t)rnd();
		if (k & 1)
			w = (w & ~0x7Fu) | opc[rnd() % (sizeof opc / sizeof opc[0])];
		against_naive(w, (k & 2) ? 64 : 32);
	}
	for (v = 0; v < (1u << 13); v++) { /* JALR: every rd, rs1 and funct3, random immediates */
		uint32_t w = 0x67u | (v & 0x1F) << 7 | (v >> 5 & 7) << 12 | (v >> 8) << 15 | ((uint32_t)rnd() & 0xFFF00000u);
		against_naive(w, 32);
		against_naive(w, 64);
	}
	for (v = 0; v < (1u << 17); v++) { /* SYSTEM, funct3 000, rd = 0: every rs1 and imm[11:0] */
		uint32_t w = 0x73u | (v & 0x1F) << 15 | (v >> 5) << 20;
		against_naive(w, 64);
		against_naive(w | ((uint32_t)rnd() % 32) << 7, 32);
	}
}

int main(void)
{
	check_contract();
	check_golden();
	all_parcels();
	words();
	printf("%lu encodings compared with the naive decoder\n", compared);
	return check_done("test_riscv");
}
