/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A naive RISC-V instruction classifier: switch statements over the opcode and
 * funct3, operand bits moved one at a time, written from the ISA manual's tables
 * and not from the spec. The same contract as pmregs_riscv_insn_decode() (only
 * the kind values and flag masks come from the header). Shared by
 * tests/c/test_riscv.c (the differential test) and tests/bench/bench_riscv.c (the
 * switch-based decoder pmregs is timed against).
 *
 * ISA  = The RISC-V Instruction Set Manual Vol. I (20240411): "RISC-V instruction length
 *        encoding" table; "Immediate Encoding Variants"; "RV32/64G Instruction Set Listings";
 *        "Instruction listing for RVC, Quadrant 0/1/2" (RES, Custom and HINT notes included)
 * PRIV = Vol. II (20240411) "RISC-V Privileged Instruction Set Listings"; URET from 1.11;
 *        DRET from the Debug Specification 1.0
 * ETRACE = E-Trace 2.0 "Jump classification and target inference", itype table
 */
#ifndef TEST_RISCV_NAIVE_H
#define TEST_RISCV_NAIVE_H

#include <pmregs/riscv.h>

/* bit `from` of x, moved to bit `to` */
static uint64_t naive_take(uint32_t x, unsigned from, unsigned to)
{
	return (uint64_t)((x >> from) & 1u) << to;
}

static unsigned naive_bits(uint32_t x, unsigned hi, unsigned lo)
{
	return (x >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* the low w bits of x as a signed number */
static int64_t naive_sext(uint64_t x, unsigned w)
{
	return (x >> (w - 1)) & 1 ? (int64_t)x - ((int64_t)1 << w) : (int64_t)x;
}

static int naive_link(unsigned r)
{
	return r == 1 || r == 5;
}

/* ETRACE: the jump classes by rd and rs1 (rs1 = 0 for jal, c.j, c.jal) */
static void naive_jump(struct pmregs_riscv_insn *d, unsigned rd, unsigned rs1, int inferable)
{
	d->rd = (uint8_t)rd;
	d->rs1 = (uint8_t)rs1;
	d->flags |= inferable ? PMREGS_RISCV_FLAG_INFERABLE : PMREGS_RISCV_FLAG_UNINFERABLE;
	if (naive_link(rd) && naive_link(rs1) && rd != rs1) {
		d->itype = 12; /* co-routine swap */
		d->flags |= PMREGS_RISCV_FLAG_CALL | PMREGS_RISCV_FLAG_RETURN;
	} else if (naive_link(rd)) {
		d->itype = (uint8_t)(8 + inferable); /* call */
		d->flags |= PMREGS_RISCV_FLAG_CALL;
	} else if (naive_link(rs1)) {
		d->itype = 13; /* return */
		d->flags |= PMREGS_RISCV_FLAG_RETURN;
	} else if (rd == 0) {
		d->itype = (uint8_t)(10 + inferable); /* jump without linkage */
	} else {
		d->itype = (uint8_t)(14 + inferable); /* other jump with linkage */
	}
}

static void naive_illegal(struct pmregs_riscv_insn *d)
{
	d->flags |= PMREGS_RISCV_FLAG_ILLEGAL;
}

/* ISA "Instruction listing for RVC, Quadrant 0/1/2" */
static void naive_rvc(struct pmregs_riscv_insn *d, uint32_t c, unsigned xlen)
{
	unsigned rd = naive_bits(c, 11, 7), rs2 = naive_bits(c, 6, 2), b12 = naive_bits(c, 12, 12);
	uint64_t cj = naive_take(c, 12, 11) | naive_take(c, 11, 4) | naive_take(c, 10, 9) | naive_take(c, 9, 8) |
		      naive_take(c, 8, 10) | naive_take(c, 7, 6) | naive_take(c, 6, 7) | naive_take(c, 5, 3) |
		      naive_take(c, 4, 2) | naive_take(c, 3, 1) | naive_take(c, 2, 5);
	uint64_t cb = naive_take(c, 12, 8) | naive_take(c, 11, 4) | naive_take(c, 10, 3) | naive_take(c, 6, 7) |
		      naive_take(c, 5, 6) | naive_take(c, 4, 2) | naive_take(c, 3, 1) | naive_take(c, 2, 5);
	uint64_t lui = naive_take(c, 12, 17) | (uint64_t)rs2 << 12;
	d->flags = PMREGS_RISCV_FLAG_COMPRESSED;
	switch ((c & 3) << 3 | naive_bits(c, 15, 13)) {
	case 000: /* C.ADDI4SPN: RES, nzuimm = 0 (the all-zero parcel among them) */
		if (naive_bits(c, 12, 5) == 0)
			naive_illegal(d);
		break;
	case 004: /* Q0 100: Reserved */
		naive_illegal(d);
		break;
	case 011: /* C.JAL on RV32, C.ADDIW on RV64 (RES, rd = 0) */
		if (xlen == 32) {
			d->kind = PMREGS_RISCV_KIND_JAL;
			d->imm = naive_sext(cj, 12);
			naive_jump(d, 1, 0, 1);
		} else if (rd == 0) {
			naive_illegal(d);
		}
		break;
	case 013: /* C.LUI / C.ADDI16SP: RES, imm = 0; rd = 0 HINT; rd = 2 C.ADDI16SP */
		if (b12 == 0 && rs2 == 0)
			naive_illegal(d);
		else if (rd != 0 && rd != 2) {
			d->kind = PMREGS_RISCV_KIND_LUI;
			d->imm = naive_sext(lui, 18);
			d->rd = (uint8_t)rd;
		}
		break;
	case 014: /* MISC-ALU */
		switch (naive_bits(c, 11, 10)) {
		case 0: /* C.SRLI */
		case 1: /* C.SRAI: RV32 Custom, uimm[5] = 1 */
			if (xlen == 32 && b12)
				naive_illegal(d);
			break;
		case 3:
			if (b12 && naive_bits(c, 6, 5) >= 2) /* Reserved */
				naive_illegal(d);
			else if (b12 && xlen == 32) /* C.SUBW, C.ADDW: RV32 RES */
				naive_illegal(d);
			break;
		}
		break;
	case 015: /* C.J */
		d->kind = PMREGS_RISCV_KIND_JAL;
		d->imm = naive_sext(cj, 12);
		naive_jump(d, 0, 0, 1);
		break;
	case 016: /* C.BEQZ */
	case 017: /* C.BNEZ */
		d->kind = PMREGS_RISCV_KIND_BRANCH;
		d->imm = naive_sext(cb, 9);
		d->itype = 4;
		d->flags |= PMREGS_RISCV_FLAG_INFERABLE;
		break;
	case 020: /* C.SLLI: RV32 Custom, uimm[5] = 1 */
		if (xlen == 32 && b12)
			naive_illegal(d);
		break;
	case 022: /* C.LWSP: RES, rd = 0 */
		if (rd == 0)
			naive_illegal(d);
		break;
	case 023: /* C.LDSP on RV64: RES, rd = 0 (C.FLWSP on RV32) */
		if (xlen == 64 && rd == 0)
			naive_illegal(d);
		break;
	case 024: /* C.JR, C.MV, C.EBREAK, C.JALR, C.ADD */
		if (rs2 != 0)
			break;
		if (!b12 && rd == 0)
			naive_illegal(d); /* C.JR: RES, rs1 = 0 */
		else if (b12 && rd == 0)
			d->kind = PMREGS_RISCV_KIND_EBREAK;
		else {
			d->kind = PMREGS_RISCV_KIND_JALR;
			naive_jump(d, b12 ? 1 : 0, rd, 0);
		}
		break;
	}
}

static struct pmregs_riscv_insn naive_decode(uint32_t insn, unsigned xlen)
{
	struct pmregs_riscv_insn d;
	unsigned rd = naive_bits(insn, 11, 7), rs1 = naive_bits(insn, 19, 15), f3 = naive_bits(insn, 14, 12);
	d.imm = 0;
	d.kind = PMREGS_RISCV_KIND_OTHER;
	d.rd = d.rs1 = d.itype = d.flags = 0;
	/* ISA "RISC-V instruction length encoding" */
	if ((insn & 3) != 3)
		d.length = 2;
	else if ((insn & 0x1c) != 0x1c)
		d.length = 4;
	else if ((insn & 0x3f) == 0x1f)
		d.length = 6;
	else if ((insn & 0x7f) == 0x3f)
		d.length = 8;
	else
		d.length = 0;
	if (d.length == 0) {
		naive_illegal(&d);
		return d;
	}
	if (d.length == 2) {
		naive_rvc(&d, insn & 0xFFFF, xlen);
		return d;
	}
	switch (insn & 0x7F) {
	case 0x63: /* BRANCH: funct3 010 and 011 are not instructions */
		if (f3 == 2 || f3 == 3) {
			naive_illegal(&d);
			break;
		}
		d.kind = PMREGS_RISCV_KIND_BRANCH;
		d.imm = naive_sext(naive_take(insn, 31, 12) | naive_take(insn, 7, 11) | (uint64_t)naive_bits(insn, 30, 25) << 5 |
				   (uint64_t)naive_bits(insn, 11, 8) << 1, 13);
		d.itype = 4;
		d.flags = PMREGS_RISCV_FLAG_INFERABLE;
		break;
	case 0x6F: /* JAL */
		d.kind = PMREGS_RISCV_KIND_JAL;
		d.imm = naive_sext(naive_take(insn, 31, 20) | (uint64_t)naive_bits(insn, 30, 21) << 1 | naive_take(insn, 20, 11) |
				   (uint64_t)naive_bits(insn, 19, 12) << 12, 21);
		naive_jump(&d, rd, 0, 1);
		break;
	case 0x67: /* JALR: funct3 000 only */
		if (f3 != 0) {
			naive_illegal(&d);
			break;
		}
		d.kind = PMREGS_RISCV_KIND_JALR;
		d.imm = naive_sext(naive_bits(insn, 31, 20), 12);
		naive_jump(&d, rd, rs1, rs1 == 0);
		break;
	case 0x17: /* AUIPC */
	case 0x37: /* LUI */
		d.kind = (insn & 0x7F) == 0x17 ? PMREGS_RISCV_KIND_AUIPC : PMREGS_RISCV_KIND_LUI;
		d.imm = naive_sext(insn & 0xFFFFF000u, 32);
		d.rd = (uint8_t)rd;
		break;
	case 0x73: /* SYSTEM */
		switch (insn) {
		case 0x00000073: /* ECALL */
			d.kind = PMREGS_RISCV_KIND_ECALL;
			break;
		case 0x00100073: /* EBREAK */
			d.kind = PMREGS_RISCV_KIND_EBREAK;
			break;
		case 0x00200073: /* URET */
		case 0x10200073: /* SRET */
		case 0x30200073: /* MRET */
		case 0x70200073: /* MNRET */
		case 0x7B200073: /* DRET */
			d.kind = PMREGS_RISCV_KIND_XRET;
			d.itype = 3;
			d.flags = PMREGS_RISCV_FLAG_UNINFERABLE;
			break;
		}
		break;
	}
	return d;
}

#endif
