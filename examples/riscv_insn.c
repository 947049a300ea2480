/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * riscv_insn: walk a small piece of RV64GC code the way a trace decoder does,
 * classifying each instruction with pmregs_riscv_insn_decode().
 *
 * The bytes are what GNU as 2.40 assembles (-march=rv64gc) for a function that
 * calls through auipc + jalr, counts a loop down with c.bnez, branches, calls
 * with jal, jumps through lui + jalr and c.jr, returns, and traps. For each
 * instruction: its address, length and kind; the target when the encoding
 * gives it (branches and jal: pc + imm; jalr with rs1 = x0: imm); the register
 * a jalr goes through otherwise, and whether the instruction before it set
 * that register (auipc, lui: the jump is sequentially inferable); the E-Trace
 * itype it ends a block with, and its flags.
 */
#include <stdio.h>
#include <pmregs/riscv.h>

static const unsigned char code[] = {
	0x41, 0x11,             /* 0x00 c.addi sp,-16 */
	0x06, 0xe4,             /* 0x02 c.sdsp ra,8(sp) */
	0x97, 0x00, 0x00, 0x00, /* 0x04 auipc ra,0 */
	0xe7, 0x80, 0x00, 0x04, /* 0x08 jalr ra,64(ra) */
	0x29, 0x45,             /* 0x0c c.li a0,10 */
	0x7d, 0x15,             /* 0x0e c.addi a0,-1 */
	0x7d, 0xfd,             /* 0x10 c.bnez a0,0x0e */
	0x63, 0x84, 0xc5, 0x00, /* 0x12 beq a1,a2,0x1a */
	0xef, 0x00, 0xc0, 0x01, /* 0x16 jal ra,0x32 */
	0xa2, 0x60,             /* 0x1a c.ldsp ra,8(sp) */
	0x41, 0x01,             /* 0x1c c.addi sp,16 */
	0xb7, 0x17, 0x00, 0x80, /* 0x1e lui a5,0x80001 */
	0x67, 0x80, 0x07, 0x01, /* 0x22 jalr x0,16(a5) */
	0x82, 0x87,             /* 0x26 c.jr a5 */
	0x82, 0x80,             /* 0x28 c.jr ra (ret) */
	0x73, 0x00, 0x00, 0x00, /* 0x2a ecall */
	0x73, 0x00, 0x20, 0x30, /* 0x2e mret */
	0x82, 0x80,             /* 0x32 c.jr ra (ret) */
};

static const char *const kinds[] = {"other", "branch", "jal", "jalr", "auipc", "lui", "ecall", "ebreak", "xret"};

static void flag_names(unsigned f, char *out, size_t n)
{
	static const char *const names[] = {"inferable", "uninferable", "call", "return", "compressed", "illegal"};
	size_t i, at = 0;
	out[0] = '\0';
	for (i = 0; i < 6; i++)
		if (f >> i & 1u)
			at += (size_t)snprintf(out + at, n - at, "%s%s", at ? "," : "", names[i]);
}

int main(void)
{
	const uint64_t base = 0x80000000u;
	size_t at = 0;
	struct pmregs_riscv_insn prev = pmregs_riscv_insn_decode(0x13, 64); /* nop: sets no register */
	while (at + 2 <= sizeof code) {
		uint32_t insn = (uint32_t)code[at] | (uint32_t)code[at + 1] << 8;
		unsigned len = pmregs_riscv_insn_length(insn);
		struct pmregs_riscv_insn d;
		uint64_t pc = base + at;
		char where[64] = "", flags[80], enc[12];
		if (len == 0 || at + len > sizeof code)
			break;
		if (len == 4)
			insn |= (uint32_t)code[at + 2] << 16 | (uint32_t)code[at + 3] << 24;
		d = pmregs_riscv_insn_decode(insn, 64);
		if (d.kind == PMREGS_RISCV_KIND_BRANCH || d.kind == PMREGS_RISCV_KIND_JAL)
			snprintf(where, sizeof where, "-> 0x%llx", (unsigned long long)(pc + (uint64_t)d.imm));
		else if (d.kind == PMREGS_RISCV_KIND_JALR && d.rs1 == 0)
			snprintf(where, sizeof where, "-> 0x%llx", (unsigned long long)((uint64_t)d.imm & ~(uint64_t)1));
		else if (d.kind == PMREGS_RISCV_KIND_JALR)
			snprintf(where, sizeof where, "-> x%u%+lld%s", d.rs1, (long long)d.imm,
				 (prev.kind == PMREGS_RISCV_KIND_AUIPC || prev.kind == PMREGS_RISCV_KIND_LUI) &&
						 prev.rd == d.rs1 ? " (sequentially inferable)" : "");
		flag_names(d.flags, flags, sizeof flags);
		snprintf(enc, sizeof enc, len == 2 ? "%04lx" : "%08lx", (unsigned long)insn);
		printf("0x%llx  %8s  %u  %-6s %-36s itype %2u  %s\n", (unsigned long long)pc, enc, d.length,
		       kinds[d.kind], where, d.itype, flags[0] ? flags : "-");
		prev = d;
		at += len;
	}
	return 0;
}
