/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * RISC-V instruction classification speed (`make bench`): pmregs_riscv_insn_decode(),
 * branch-free, side by side with the switch-based decoder of tests/c/test_riscv_naive.h,
 * over an array of 4 M instructions that does not repeat (a branch predictor learns a
 * short repeated stream). The instructions look like compiled RV64GC code: about half
 * compressed, loads, stores and arithmetic with random registers and immediates, and
 * the control transfers at the rates such code has them (branches about 1 in 7,
 * jal/jalr/c.j/c.jr/c.jalr/returns, auipc and lui before some of them).
 * Numbers depend on the machine; the ratio is the point. Never a pass/fail test.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
#include <pmregs/riscv.h>
#include "../c/test_riscv_naive.h"

#define TEST_SEED 0x5256363447430001u
#include "../common/xorshift.h"

#include "../common/clock.h"

#define N (1u << 22)
#define REPEATS 5

static uint32_t insns[N];

static uint32_t reg(void) { return (uint32_t)(rnd() % 32); }
static uint32_t creg(void) { return (uint32_t)(rnd() % 8); }

/* One instruction of a made-up but plausible RV64GC instruction mix (percent weights). */
static uint32_t make_insn(void)
{
	uint32_t r = (uint32_t)(rnd() % 1000), x = (uint32_t)rnd();
	if (r < 120) /* c.addi / c.li / c.mv / c.add */
		return (r & 1 ? 0x0001u | reg() << 7 : 0x8002u | reg() << 7 | (reg() | 1) << 2) | (x & 0x107C);
	if (r < 230) /* c.ldsp / c.sdsp / c.lwsp / c.swsp */
		return (r & 1 ? 0x6002u | (reg() | 1) << 7 : 0xE002u | reg() << 2) | (x & 0x1F80);
	if (r < 320) /* c.ld / c.sd / c.lw / c.sw */
		return (r & 1 ? 0x6000u : 0xE000u) | creg() << 7 | creg() << 2 | (x & 0x1C60);
	if (r < 360) /* c.beqz / c.bnez */
		return (r & 1 ? 0xC001u : 0xE001u) | creg() << 7 | (x & 0x1C7C);
	if (r < 375) /* c.j */
		return 0xA001u | (x & 0x1FFC);
	if (r < 390) /* c.jr ra (return) and other c.jr */
		return r & 1 ? 0x8082u : 0x8002u | (reg() | 2) << 7;
	if (r < 400) /* c.jalr */
		return 0x9002u | (reg() | 4) << 7;
	if (r < 430) /* c.lui, c.srli, c.andi, c.sub ... */
		return (r & 1 ? 0x6001u | (reg() | 4) << 7 | 0x1000u : 0x8001u | creg() << 7 | (x & 0x0C7C));
	if (r < 440) /* c.slli / c.addi4spn */
		return r & 1 ? 0x0002u | (reg() | 1) << 7 | (x & 0x7C) : 0x0000u | creg() << 2 | (x & 0x1FE0) | 0x40;
	if (r < 620) /* addi/slli/... OP-IMM, OP, OP-32 */
		return (r % 3 == 0 ? 0x13u : r % 3 == 1 ? 0x33u : 0x3Bu) | reg() << 7 | reg() << 15 | (x & 0xFE007000u);
	if (r < 760) /* loads and stores */
		return (r & 1 ? 0x03u : 0x23u) | reg() << 7 | reg() << 15 | (x & 0xFE003000u);
	if (r < 850) /* branches */
		return 0x63u | (x & 0xFE000F80u) | reg() << 15 | reg() << 20 | ((uint32_t)(rnd() % 6) + ((rnd() % 6) >= 2 ? 2 : 0)) << 12;
	if (r < 880) /* jal: calls (x1) and jumps (x0) */
		return 0x6Fu | (r & 1 ? 1u : 0u) << 7 | (x & 0xFFFFF000u);
	if (r < 900) /* jalr: calls through a register, returns */
		return 0x67u | (r & 1 ? 1u : 0u) << 7 | (r & 2 ? 1u : reg()) << 15 | (x & 0xFFF00000u);
	if (r < 950) /* auipc / lui */
		return (r & 1 ? 0x17u : 0x37u) | reg() << 7 | (x & 0xFFFFF000u);
	if (r < 995) /* floating point and others */
		return 0x53u | reg() << 7 | (x & 0xFFFFF000u);
	return r & 1 ? 0x00000073u : 0x30200073u; /* ecall, mret */
}

static volatile uint64_t sink;

#define TIME(label, expr) do {                                              \
		unsigned rep_;                                              \
		label = 1e30;                                               \
		for (rep_ = 0; rep_ < REPEATS; rep_++) {                    \
			double t0 = now(), t_;                              \
			uint64_t acc = 0;                                   \
			size_t k_;                                          \
			for (k_ = 0; k_ < N; k_++) {                        \
				struct pmregs_riscv_insn d_ = expr(insns[k_], 64); \
				acc += (uint64_t)d_.imm + d_.length + d_.kind + d_.rd + d_.rs1 + d_.itype + d_.flags; \
			}                                                   \
			t_ = now() - t0;                                    \
			sink = acc;                                         \
			if (t_ < label)                                     \
				label = t_;                                 \
		}                                                           \
	} while (0)

int main(void)
{
	double t_pm, t_naive;
	size_t k, diff = 0, branches = 0;
	for (k = 0; k < N; k++) {
		insns[k] = make_insn();
		branches += pmregs_riscv_insn_decode(insns[k], 64).kind != PMREGS_RISCV_KIND_OTHER;
	}
	for (k = 0; k < N; k++) {
		struct pmregs_riscv_insn a = pmregs_riscv_insn_decode(insns[k], 64), b = naive_decode(insns[k], 64);
		diff += a.imm != b.imm || a.length != b.length || a.kind != b.kind || a.rd != b.rd || a.rs1 != b.rs1 ||
			a.itype != b.itype || a.flags != b.flags;
	}
	TIME(t_pm, pmregs_riscv_insn_decode);
	TIME(t_naive, naive_decode);
	printf("%u instructions (%.1f %% not 'other'), best of %u runs; the two decoders disagree on %lu\n", N,
	       100.0 * (double)branches / N, REPEATS, (unsigned long)diff);
	printf("%-44s %12s %12s %8s\n", "decoder", "M decodes/s", "ns/decode", "ratio");
	printf("%-44s %12.1f %12.2f %7.2fx\n", "pmregs_riscv_insn_decode (branch-free)", N / t_pm / 1e6, t_pm / N * 1e9,
	       t_naive / t_pm);
	printf("%-44s %12.1f %12.2f %7.2fx\n", "naive switch decoder (tests/c)", N / t_naive / 1e6, t_naive / N * 1e9, 1.0);
	return 0;
}
