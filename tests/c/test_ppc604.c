/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * PowerPC 604/604e: golden vectors with the documents their numbers come from,
 * msb0 <-> lsb0 conversion properties for every field, the conflicts the spec
 * resolved, and the PM API encoder/decoder (round trips, fewest passes against
 * a brute force, approximations) and 64-bit accumulation across counter wraps.
 *
 * SEED    = IBM's paper on the 604/604e performance monitor and the PM API
 * UM604   = PowerPC 604 RISC Microprocessor User's Manual
 * UM750GX = IBM PowerPC 750GX User's Manual; UM7400 = MPC7400 User's Manual
 * LINUX   = Linux arch/powerpc/include/asm/reg.h (32-bit branch)
 * BSD     = FreeBSD sys/powerpc/include/spr.h, NetBSD oea/spr.h
 * PERFCTR = perfctr 2.6 ppc.c / ppc_compat.h / event_set_ppc.c
 * DOLSDK  = Dolphin SDK PPCArch.h (Gekko, a 750 derivative)
 * QEMU    = QEMU target/ppc cpu.h / cpu_init.c; BINUTILS = opcodes/ppc-opc.c
 *
 * pmregs-test: libm
 * pmregs-test: no-inline (its 32-bit and emulated builds at -Og: the 64-bit accumulation's random steps,
 * a call for each small accessor at -O0, took most of their -O0 run, and -Og costs less build than it
 * saves there; the sanitizer build stays at -O0, where -fno-inline changes nothing)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <pmregs/ppc604_tools.h>
#include "../common/check.h"

#define TEST_SEED 0x604E604E12345678u
#include "../common/xorshift.h"

#define EV(name) PMREGS_PPC604_EVENTS_##name
#define PPC604 PMREGS_PPC604_CPU_PPC604
#define PPC604E PMREGS_PPC604_CPU_PPC604E

/*
 * The golden vectors, the properties, the encoder's tests and the round trips run a fixed, short
 * while: compiled with little optimisation (TEST_COLD_BEGIN, tests/common/check.h); the simulated
 * counting in accumulation(), most of the run, is not.
 */
TEST_COLD_BEGIN

static const struct pmregs_ppc604_register *reg(const char *name)
{
	size_t i, n;
	const struct pmregs_ppc604_register *r = pmregs_ppc604_registers(&n);
	for (i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	return 0;
}

static void spr_numbers(void)
{
	/* reference section 1: LINUX reg.h, BSD spr.h, BINUTILS mnemonics (mmcr0 952 ... pmc4 958), QEMU */
	CHECK_EQ(PMREGS_PPC604_SPR_MMCR0, 952);
	CHECK_EQ(PMREGS_PPC604_SPR_MMCR0, 0x3B8);
	CHECK_EQ(PMREGS_PPC604_SPR_PMC1, 953);
	CHECK_EQ(PMREGS_PPC604_SPR_PMC2, 954);
	CHECK_EQ(PMREGS_PPC604_SPR_SIAR, 955);
	CHECK_EQ(PMREGS_PPC604_SPR_MMCR1, 956);
	CHECK_EQ(PMREGS_PPC604_SPR_PMC3, 957);
	CHECK_EQ(PMREGS_PPC604_SPR_PMC4, 958);
	CHECK_EQ(PMREGS_PPC604_SPR_SDAR, 959);
	CHECK_EQ(PMREGS_PPC604_SPR_SDAR, 0x3BF);
	CHECK_EQ(PMREGS_PPC604_SPR_MMCR2, 944);
	CHECK_EQ(PMREGS_PPC604_SPR_PMC5, 945);
	CHECK_EQ(PMREGS_PPC604_SPR_PMC6, 946);
	CHECK_EQ(PMREGS_PPC604_SPR_BAMR, 951);
	/* user-mode aliases: BINUTILS ummcr0 936 ... upmc4 942; BSD UMMCR2 0x3A0; 750GX UM "UMMCR0 ... SPR 936" */
	CHECK_EQ(PMREGS_PPC604_USER_SPR_MMCR0_7XX, 936);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_PMC1, 937);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_PMC2, 938);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_SIAR, 939);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_MMCR1_7XX, 940);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_PMC3, 941);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_PMC4, 942);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_MMCR2, 0x3A0);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_PMC5, 929);
	CHECK_EQ(PMREGS_PPC604_USER_SPR_PMC6, 930);
	CHECK_EQ(PMREGS_PPC604_PMI_VECTOR, 0xF00); /* SEED */
	CHECK_EQ(PMREGS_PPC604_MSR_PM, 1u << (31 - 29)); /* MSR[PM] is IBM bit 29 (UM604 p.72) */
	{
		/* every alias is the supervisor number minus 16, and exists only where the register does */
		size_t i, n;
		const struct pmregs_ppc604_register *r = pmregs_ppc604_registers(&n);
		for (i = 0; i < n; i++) {
			if (!(r[i].has & PMREGS_PPC604_HAS_USER_SPR))
				continue;
			CHECK_EQ(r[i].user_spr, r[i].spr - PMREGS_PPC604_USER_SPR_OFFSET);
			CHECK((r[i].user_models & ~r[i].models) == 0);
			/* no user aliases on the 604/604e (QEMU registers them from the 7xx on) */
			CHECK((r[i].user_models & ((1u << PPC604) | (1u << PPC604E))) == 0);
		}
	}
}

static void presence(void)
{
	/* QEMU register_604_sprs: MMCR0, PMC1, PMC2, SIA, SDA; register_604e_sprs adds MMCR1, PMC3, PMC4 */
	static const char *const on604[] = { "mmcr0", "pmc1", "pmc2", "siar", "sdar" };
	static const char *const only604e[] = { "mmcr1", "pmc3", "pmc4" };
	static const char *const later[] = { "mmcr2", "mmcr2_745x", "pmc5", "pmc6", "bamr", "mmcr0_7xx", "mmcr1_7xx", "mmcr1_745x" };
	unsigned i;
	for (i = 0; i < sizeof on604 / sizeof on604[0]; i++) {
		CHECK(reg(on604[i]) != 0);
		CHECK(reg(on604[i]) && (reg(on604[i])->models >> PPC604) & 1u);
		CHECK(reg(on604[i]) && (reg(on604[i])->models >> PPC604E) & 1u);
	}
	for (i = 0; i < sizeof only604e / sizeof only604e[0]; i++) {
		CHECK(reg(only604e[i]) && !((reg(only604e[i])->models >> PPC604) & 1u));
		CHECK(reg(only604e[i]) && (reg(only604e[i])->models >> PPC604E) & 1u);
	}
	for (i = 0; i < sizeof later / sizeof later[0]; i++)
		CHECK(reg(later[i]) && (reg(later[i])->models & ((1u << PPC604) | (1u << PPC604E))) == 0);
	/* PERFCTR: "750 ... removes SDA"; C9: no source gives SDA to the 7400/745x */
	CHECK(reg("sdar") && !((reg("sdar")->models >> PMREGS_PPC604_CPU_MPC750) & 1u));
	/* PMC5/PMC6 only on the 745x */
	CHECK(reg("pmc5") && reg("pmc5")->models == 1u << PMREGS_PPC604_CPU_MPC745X);
	/* the cpus table: PVR versions (PERFCTR known_init, LINUX, BSD) */
	CHECK(pmregs_ppc604_cpus_find("ppc604")->pvr_versions[0] == 0x0004);
	CHECK(pmregs_ppc604_cpus_find("ppc604e")->pvr_versions[0] == 0x0009);
	CHECK(pmregs_ppc604_cpus_find("ppc604e")->pvr_versions[1] == 0x000A);
	CHECK(pmregs_ppc604_cpus_find("mpc745x")->pvr_versions_count == 5);
	CHECK(pmregs_ppc604_cpus_find("ppc604")->counters == 0x3u);
	CHECK(pmregs_ppc604_cpus_find("ppc604e")->counters == 0xFu);
}

static void masks(void)
{
	/* LINUX reg.h, 32-bit branch */
	CHECK_EQ(PMREGS_PPC604_MMCR0_FC_MASK, 0x80000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_FCS_MASK, 0x40000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_FCP_MASK, 0x20000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_FCM1_MASK, 0x10000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_FCM0_MASK, 0x08000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMXE_MASK, 0x04000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_FCECE_MASK, 0x02000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_TBEE_MASK, 0x00400000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMC1CE_MASK, 0x8000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMCNCE_MASK, 0x4000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0x2000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMC1SEL_MASK, 0x1fc0u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMC2SEL_MASK, 0x3fu);
	CHECK_EQ(PMREGS_PPC604_MMCR1_PMC3SEL_MASK, 0xf8000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR1_PMC4SEL_MASK, 0x07c00000u);
	CHECK_EQ(PMREGS_PPC604_MMCR1_745X_PMC5SEL_MASK, 0x003e0000u);
	CHECK_EQ(PMREGS_PPC604_MMCR1_745X_PMC6SEL_MASK, 0x0001f800u);
	/* C1: PERFCTR's MMCR0_PMC1SEL 0x00001FB0 and MMCR1_PMC4SEL 0x07B00000 are typos */
	CHECK(PMREGS_PPC604_MMCR0_PMC1SEL_MASK != 0x1FB0u);
	CHECK(PMREGS_PPC604_MMCR1_PMC4SEL_MASK != 0x07B00000u);
	/* PERFCTR ppc_compat.h MMCR1__RESERVED = 0x7FF on the 745x; 0x003FFFFF on the 604e (reference 3.1) */
	CHECK_EQ(PMREGS_PPC604_MMCR1_745X_RSVD_MASK, 0x7FFu);
	CHECK_EQ(PMREGS_PPC604_MMCR1_RSVD_MASK, 0x003FFFFFu);
	/* BSD: THRESHOLD(x) = x << 16; MMCR2 THRESHMULT_32 = 0x80000000, _2 = 0 */
	CHECK_EQ(PMREGS_PPC604_MMCR0_THRESHOLD(5), 5u << 16);
	CHECK_EQ(PMREGS_PPC604_MMCR2_THRESHMULT(PMREGS_PPC604_MMCR2_THRESHMULT_X32), 0x80000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR2_THRESHMULT(PMREGS_PPC604_MMCR2_THRESHMULT_X2), 0);
	/* reference section 2: the fields of MMCR0 cover all 32 bits (no reserved bit) */
	CHECK_EQ(PMREGS_PPC604_MMCR0_RSVD_MASK, 0);
	CHECK_EQ(PMREGS_PPC604_MMCR0_WRITABLE_MASK, 0xFFFFFFFFu);
	/* UM604 p.373: on the 604 only the low 5 bits of each selector are used */
	CHECK_EQ(PMREGS_PPC604_MMCR0_604_RSVD_MASK, 0x1800u | 0x20u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_604_PMC1SEL_MASK, 0x7C0u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_604_PMC2SEL_MASK, 0x1Fu);
	/* C3: the PMC1 "cycles" encoding is 1 << 6 = 0x40 (DOLSDK, BSD shift 6), not LINUX's (1 << 7) */
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMC1SEL(1), 0x40u);
	CHECK(PMREGS_PPC604_MMCR0_PMC1SEL(1) != (1u << 7));
	CHECK_EQ(pmregs_ppc604_mmcr0_pmc1sel_get(1u << 7), 2); /* LINUX's macro selects event 2 */
	/* PMCn: "negative" = bit 0 = 0x80000000 (UM604 p.373; BSD PMC_OVERFLOW; DOLSDK PMCn_OV) */
	CHECK_EQ(PMREGS_PPC604_PMC_NEGATIVE_MASK, 0x80000000u);
	CHECK_EQ(PMREGS_PPC604_PMC_COUNT_MASK, 0x7FFFFFFFu);
	CHECK(pmregs_ppc604_pmc_is_negative(0x80000000u));
	CHECK(!pmregs_ppc604_pmc_is_negative(PMREGS_PPC604_PMC_MAX_POSITIVE));
}

/*
 * msb0 <-> lsb0, for every field of every layout: the IBM ranges below are
 * copied from the reference tables (sections 2, 3.1, 3.2), independently of
 * the spec; the conversion formulas are the reference's section 0:
 * shift = 31 - last, width = last - first + 1, mask = ((1 << width) - 1) << shift.
 */
struct ibm_field { const char *layout, *field; unsigned first, last; };
static const struct ibm_field ibm[] = {
	{ "mmcr0", "fc", 0, 0 }, { "mmcr0", "fcs", 1, 1 }, { "mmcr0", "fcp", 2, 2 }, { "mmcr0", "fcm1", 3, 3 },
	{ "mmcr0", "fcm0", 4, 4 }, { "mmcr0", "pmxe", 5, 5 }, { "mmcr0", "fcece", 6, 6 }, { "mmcr0", "tbsel", 7, 8 },
	{ "mmcr0", "tbee", 9, 9 }, { "mmcr0", "threshold", 10, 15 }, { "mmcr0", "pmc1ce", 16, 16 },
	{ "mmcr0", "pmcnce", 17, 17 }, { "mmcr0", "trigger", 18, 18 }, { "mmcr0", "pmc1sel", 19, 25 },
	{ "mmcr0", "pmc2sel", 26, 31 },
	{ "mmcr0_604", "fc", 0, 0 }, { "mmcr0_604", "fcs", 1, 1 }, { "mmcr0_604", "fcp", 2, 2 },
	{ "mmcr0_604", "fcm1", 3, 3 }, { "mmcr0_604", "fcm0", 4, 4 }, { "mmcr0_604", "pmxe", 5, 5 },
	{ "mmcr0_604", "fcece", 6, 6 }, { "mmcr0_604", "tbsel", 7, 8 }, { "mmcr0_604", "tbee", 9, 9 },
	{ "mmcr0_604", "threshold", 10, 15 }, { "mmcr0_604", "pmc1ce", 16, 16 }, { "mmcr0_604", "pmcnce", 17, 17 },
	{ "mmcr0_604", "trigger", 18, 18 }, { "mmcr0_604", "pmc1sel_rsvd", 19, 20 }, { "mmcr0_604", "pmc1sel", 21, 25 },
	{ "mmcr0_604", "pmc2sel_rsvd", 26, 26 }, { "mmcr0_604", "pmc2sel", 27, 31 },
	{ "mmcr1", "pmc3sel", 0, 4 }, { "mmcr1", "pmc4sel", 5, 9 }, { "mmcr1", "rsvd_10_31", 10, 31 },
	{ "mmcr1_745x", "pmc3sel", 0, 4 }, { "mmcr1_745x", "pmc4sel", 5, 9 }, { "mmcr1_745x", "pmc5sel", 10, 14 },
	{ "mmcr1_745x", "pmc6sel", 15, 20 }, { "mmcr1_745x", "rsvd_21_31", 21, 31 },
	{ "mmcr2", "threshmult", 0, 0 }, { "mmcr2", "smcnten", 1, 1 }, { "mmcr2", "sminten", 2, 2 },
	{ "mmcr2", "rsvd_3_31", 3, 31 },
	{ "mmcr2_745x", "threshmult", 0, 0 }, { "mmcr2_745x", "rsvd_1_2", 1, 2 }, { "mmcr2_745x", "rsvd_3_31", 3, 31 },
	{ "pmc", "negative", 0, 0 }, { "pmc", "count", 1, 31 },
	{ "address", "address", 0, 31 }, { "bamr", "mask", 0, 31 },
};

static void msb0_conversion(void)
{
	size_t nl, l, i, covered = 0;
	const struct pmregs_layout_desc *d = pmregs_ppc604_layouts(&nl);
	for (l = 0; l < nl; l++) {
		unsigned f;
		CHECK(d[l].msb0 == 1);
		CHECK(d[l].width == 32);
		for (f = 0; f < d[l].nfields; f++) {
			const struct pmregs_field_desc *fd = &d[l].fields[f];
			const struct ibm_field *x = 0;
			uint64_t mask = 0;
			unsigned k, shift, width;
			char want[64], got[512], *at;
			for (i = 0; i < sizeof ibm / sizeof ibm[0]; i++)
				if (strcmp(ibm[i].layout, d[l].name) == 0 && strcmp(ibm[i].field, fd->name) == 0)
					x = &ibm[i];
			CHECK(x != 0);
			if (!x) {
				fprintf(stderr, "  no reference range for %s.%s\n", d[l].name, fd->name);
				continue;
			}
			covered++;
			CHECK_EQ(fd->nparts, 1);
			shift = 31 - x->last;
			width = x->last - x->first + 1;
			CHECK_EQ(fd->lo[0], shift);
			CHECK_EQ(fd->width[0], width);
			mask = ((((uint64_t)1 << width) - 1) << shift);
			/* bit k (IBM) belongs to the field exactly when first <= k <= last */
			for (k = 0; k < 32; k++)
				CHECK_EQ((mask >> (31 - k)) & 1u, (unsigned)(k >= x->first && k <= x->last));
			/* the descriptor's accessor agrees with the IBM formula on random values */
			for (k = 0; k < 64; k++) {
				uint32_t v = (uint32_t)rnd();
				CHECK_EQ(pmregs_field_get(fd, v), (v & mask) >> shift);
			}
			/* _snprint names the bits in both numberings: "name[first:last|hi:lo]=" */
			if (x->first == x->last)
				snprintf(want, sizeof want, " %s[%u|%u]=", fd->name, x->first, 31 - x->first);
			else
				snprintf(want, sizeof want, " %s[%u:%u|%u:%u]=", fd->name, x->first, x->last, 31 - x->first, 31 - x->last);
			/* reserved fields are printed only when wrong: set every bit so all of them show */
			got[0] = ' ';
			pmregs_snprint_layout(got + 1, sizeof got - 1, 0xFFFFFFFFu, &d[l]);
			at = strstr(got, want);
			if (!at && (fd->access == PMREGS_ACCESS_RSVD)) {
				/* "!name[...]" for a reserved field set */
				snprintf(want, sizeof want, "!%s[", fd->name);
				at = strstr(got, want);
			}
			CHECK(at != 0);
			if (!at)
				fprintf(stderr, "  '%s' not in '%s'\n", want, got);
		}
	}
	CHECK_EQ(covered, sizeof ibm / sizeof ibm[0]);
	/* the macros of a few fields, against the same formula (reference section 2 table: shift column) */
	CHECK_EQ(PMREGS_PPC604_MMCR0_TBSEL_SHIFT, 31 - 8);
	CHECK_EQ(PMREGS_PPC604_MMCR0_THRESHOLD_SHIFT, 31 - 15);
	CHECK_EQ(PMREGS_PPC604_MMCR0_PMC1SEL_SHIFT, 31 - 25);
	CHECK_EQ(PMREGS_PPC604_MMCR1_PMC3SEL_SHIFT, 31 - 4);
	CHECK_EQ(PMREGS_PPC604_MMCR1_PMC4SEL_SHIFT, 31 - 9);
	CHECK_EQ(PMREGS_PPC604_MMCR1_745X_PMC5SEL_SHIFT, 31 - 14);
	CHECK_EQ(PMREGS_PPC604_MMCR1_745X_PMC6SEL_SHIFT, 31 - 20);
}

static void tbsel_order(void)
{
	/*
	 * Conflict C4: UM604's event tables say "(0 = 47, 1 = 51, 2 = 55, 3 = 63)"; UM750GX p.73,
	 * UM7400 p.11-13, BSD (TBSEL_31 = 0, _23 = 0x00800000, _19 = 0x01000000, _15 = 0x01800000),
	 * DOLSDK (RTCSELECT_63 = 0, _55 = 0x00800000, _51 = 0x01000000, _47 = 0x01800000) and PERFCTR
	 * say 00 = TB[63] ... 11 = TB[47]. The spec follows the latter for every model.
	 */
	const struct pmregs_ppc604_tb_bits_row *t = pmregs_ppc604_tb_bits(0);
	CHECK_EQ(PMREGS_PPC604_MMCR0_TBSEL(PMREGS_PPC604_MMCR0_TBSEL_TB63), 0);
	CHECK_EQ(PMREGS_PPC604_MMCR0_TBSEL(PMREGS_PPC604_MMCR0_TBSEL_TB55), 0x00800000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_TBSEL(PMREGS_PPC604_MMCR0_TBSEL_TB51), 0x01000000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_TBSEL(PMREGS_PPC604_MMCR0_TBSEL_TB47), 0x01800000u);
	CHECK_EQ(PMREGS_PPC604_MMCR0_604_TBSEL_TB47, 3); /* the 604 too: not the 604 UM's "3 = 63" */
	CHECK_EQ(t[PMREGS_PPC604_TB_BITS_TB47].tbsel, 3);
	CHECK_EQ(t[PMREGS_PPC604_TB_BITS_TB47].tb_bit, 47);
	CHECK_EQ(t[PMREGS_PPC604_TB_BITS_TB63].tbsel, 0);
	CHECK_EQ(t[PMREGS_PPC604_TB_BITS_TB63].tb_bit, 63);
	{
		/* period: a 0->1 transition of lsb0 bit k of TB happens every 2^(k+1) ticks; k = 63 - tb_bit */
		unsigned i;
		for (i = 0; i < PMREGS_PPC604_TB_BITS_COUNT; i++) {
			uint64_t tb, prev = 0, transitions = 0, period = (uint64_t)1 << t[i].period_log2;
			CHECK_EQ(t[i].tbl_bit, 63 - t[i].tb_bit);
			CHECK_EQ(t[i].period_log2, 63 - t[i].tb_bit + 1);
			for (tb = 0; tb < 4 * period; tb++) {
				uint64_t b = (tb >> (63 - t[i].tb_bit)) & 1;
				transitions += b && !prev;
				prev = b;
			}
			CHECK_EQ(transitions, 4); /* in 4 periods from 0: at P/2, 3P/2, 5P/2 and 7P/2 */
		}
		/* SEED: "The PM API does not allow bit 63 to be used along with direct interrupts" */
		CHECK(!t[PMREGS_PPC604_TB_BITS_TB63].interrupt_ok);
	}
}

static void events(void)
{
	size_t n, i;
	const struct pmregs_ppc604_events_row *e = pmregs_ppc604_events(&n);
	unsigned on604 = 0, on604e = 0, per[4] = { 0, 0, 0, 0 }, common = 0, thr = 0;
	CHECK_EQ(n, 111); /* SEED: 111 unique events on the 604e */
	for (i = 0; i < n; i++) {
		unsigned c;
		on604 += (e[i].models >> PPC604) & 1u;
		on604e += (e[i].models >> PPC604E) & 1u;
		thr += e[i].threshold;
		if (e[i].counters == 0xF) {
			common++;
			CHECK(e[i].code <= 4);
		} else {
			CHECK(e[i].code >= 5 && e[i].code <= 0x1F);
			for (c = 0; c < 4; c++)
				per[c] += (e[i].counters >> c) & 1u;
			CHECK(e[i].counters == 1u || e[i].counters == 2u || e[i].counters == 4u || e[i].counters == 8u);
		}
		/* PMC3/PMC4 and therefore their events do not exist on the 604 */
		if (e[i].counters & 0xCu && e[i].counters != 0xF)
			CHECK(!((e[i].models >> PPC604) & 1u));
		/* the 604's PMC1 events end at 0x18, its PMC2 events at 0x13 (reference 6.1) */
		if (e[i].counters == 1u)
			CHECK_EQ((e[i].models >> PPC604) & 1u, e[i].code <= 0x18);
		if (e[i].counters == 2u)
			CHECK_EQ((e[i].models >> PPC604) & 1u, e[i].code <= 0x13);
	}
	CHECK_EQ(on604, 40); /* SEED: 40 unique events on the 604 */
	CHECK_EQ(on604e, 111);
	CHECK_EQ(on604, PMREGS_PPC604_EVENTS_604);
	CHECK_EQ(common, 5);
	CHECK_EQ(per[0], 27);
	CHECK_EQ(per[1], 27);
	CHECK_EQ(per[2], 26);
	CHECK_EQ(per[3], 26);
	CHECK_EQ(thr, 4); /* PMC1 0x09, 0x0A, 0x17, 0x18 count misses "above threshold" */
	/* PERFCTR event_set_ppc.c selectors (reference 6.2-6.6) */
	CHECK_EQ(e[EV(PROCESSOR_CYCLES)].code, 0x01);
	CHECK_EQ(e[EV(TBL_BIT_TRANSITIONS)].code, 0x03);
	CHECK_EQ(e[EV(ICACHE_MISSES)].code, 0x05);
	CHECK_EQ(e[EV(ICACHE_MISSES)].counters, 1u);
	CHECK_EQ(e[EV(INSTRUCTION_BREAKPOINT_HITS)].code, 0x1F);
	CHECK_EQ(e[EV(DATA_CACHE_MISSES)].code, 0x06);
	CHECK_EQ(e[EV(DATA_CACHE_MISSES)].counters, 2u);
	CHECK_EQ(e[EV(INTERRUPTS_MASKED)].code, 0x15);
	CHECK_EQ(e[EV(SYSTEM_CALLS)].code, 0x0B);
	CHECK_EQ(e[EV(SYSTEM_CALLS)].counters, 4u);
	CHECK_EQ(e[EV(BTAC_HITS)].code, 0x0B);
	CHECK_EQ(e[EV(BTAC_HITS)].counters, 8u);
	CHECK_EQ(e[EV(UNDISPATCHED_INSTRUCTIONS)].code, 0x1E);
	CHECK(strcmp(e[EV(ARTRYD_ADDRESS_TRANSACTIONS)].title, "ARTRYd_ADDRESS_TRANSACTIONS") == 0);
	CHECK(e[EV(DCACHE_LOAD_MISSES)].threshold);
	/* SEED: misaligned counts, IABR matches and interrupts-masked cycles are 604e additions */
	CHECK(!((e[EV(UNALIGNED_LOADS)].models >> PPC604) & 1u));
	CHECK(!((e[EV(INSTRUCTION_BREAKPOINT_HITS)].models >> PPC604) & 1u));
	CHECK(!((e[EV(INTERRUPTS_MASKED)].models >> PPC604) & 1u));
	CHECK_EQ(pmregs_ppc604_pm_event("icache_misses"), EV(ICACHE_MISSES));
	CHECK_EQ(pmregs_ppc604_pm_event("no_such_event"), PMREGS_PPC604_PM_NONE);
}

static void semantics(void)
{
	unsigned i;
	/* sampling: load 0x80000000 - N (SEED; LINUX op_model_7450 reset_value) */
	CHECK_EQ(pmregs_ppc604_pmc_preload(1000), 0x7FFFFC18u);
	CHECK_EQ(pmregs_ppc604_pmc_preload(1), 0x7FFFFFFFu);
	CHECK_EQ(pmregs_ppc604_pmc_preload(0x80000000u), 0);
	for (i = 0; i < 1000; i++) {
		/* after exactly N increments the counter turns negative, and not one increment earlier */
		uint32_t n = (uint32_t)(rnd() % 0x80000000u) + 1u, v = pmregs_ppc604_pmc_preload(n);
		CHECK(!pmregs_ppc604_pmc_is_negative((uint32_t)(v + n - 1u)));
		CHECK(pmregs_ppc604_pmc_is_negative((uint32_t)(v + n)));
	}
	/* the freeze bits, against the UM604 Table 9-4 wording, for every MMCR0 bit pattern of bits 0-4 */
	for (i = 0; i < 32 * 4; i++) {
		uint32_t m = (uint32_t)(i >> 2) << 27;
		int pr = (int)(i & 1), pm = (int)((i >> 1) & 1);
		int dis = (int)((m >> 31) & 1u), dp = (int)((m >> 30) & 1u), du = (int)((m >> 29) & 1u);
		int dms = (int)((m >> 28) & 1u), dmr = (int)((m >> 27) & 1u);
		int want = !dis && !(dp && !pr) && !(du && pr) && !(dms && pm) && !(dmr && !pm);
		CHECK_EQ(pmregs_ppc604_counting_enabled(m, pr, pm), want);
	}
	/* the trigger function: PMC2..n wait for PMC1 negative or a PMI (SEED; UM750GX) */
	CHECK(pmregs_ppc604_pmcn_released(0, 0, 0));
	CHECK(!pmregs_ppc604_pmcn_released(PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0x7FFFFFFFu, 0));
	CHECK(pmregs_ppc604_pmcn_released(PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0x80000000u, 0));
	CHECK(pmregs_ppc604_pmcn_released(PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0, 1));
	CHECK(pmregs_ppc604_pmc_counts(1, PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0, 0, 0, 0));
	CHECK(!pmregs_ppc604_pmc_counts(2, PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0, 0, 0, 0));
	CHECK(!pmregs_ppc604_pmc_counts(1, PMREGS_PPC604_MMCR0_FC_MASK, 0, 0, 0x80000000u, 1));
	/* DISCOUNT (MMCR0 bit 6, FCECE): UM604 "disable counting of PMC1 and PMC2 when a PMI is signalled";
	 * SEED "the counters can be programmed to stop counting when the exception is signaled" */
	CHECK(pmregs_ppc604_pmc_counts(1, PMREGS_PPC604_MMCR0_FCECE_MASK, 0, 0, 0, 0));
	CHECK(pmregs_ppc604_pmc_counts(2, PMREGS_PPC604_MMCR0_FCECE_MASK, 0, 0, 0, 0));
	CHECK(!pmregs_ppc604_pmc_counts(1, PMREGS_PPC604_MMCR0_FCECE_MASK, 0, 0, 0, 1));
	CHECK(!pmregs_ppc604_pmc_counts(2, PMREGS_PPC604_MMCR0_FCECE_MASK, 0, 0, 0, 1));
	CHECK(!pmregs_ppc604_pmc_counts(4, PMREGS_PPC604_MMCR0_FCECE_MASK | PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0, 0,
					0x80000000u, 1));
	CHECK(pmregs_ppc604_pmc_counts(2, PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0, 0, 0, 1)); /* without DISCOUNT the PMI releases PMCn */
	/* the exception: PMXE and an enabled negative counter or time-base transition (SEED; UM604 p.373) */
	CHECK(!pmregs_ppc604_pmi_signalled(PMREGS_PPC604_MMCR0_PMC1CE_MASK, 0x80000000u, 0, 0)); /* no PMXE */
	CHECK(pmregs_ppc604_pmi_signalled(PMREGS_PPC604_MMCR0_PMC1CE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK, 0x80000000u, 0, 0));
	CHECK(!pmregs_ppc604_pmi_signalled(PMREGS_PPC604_MMCR0_PMCNCE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK, 0x80000000u, 0, 0));
	CHECK(pmregs_ppc604_pmi_signalled(PMREGS_PPC604_MMCR0_PMCNCE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK, 0, 1, 0));
	CHECK(pmregs_ppc604_pmi_signalled(PMREGS_PPC604_MMCR0_TBEE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK, 0, 0, 1));
	/* the interrupt: masked by MSR[EE] (SEED) */
	CHECK(pmregs_ppc604_pmi_condition(PMREGS_PPC604_MMCR0_PMC1CE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK, 0x80000000u, 0, 0, 1));
	CHECK(!pmregs_ppc604_pmi_condition(PMREGS_PPC604_MMCR0_PMC1CE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK, 0x80000000u, 0, 0, 0));
	CHECK(!pmregs_ppc604_pmi_condition(PMREGS_PPC604_MMCR0_PMC1CE_MASK, 0x80000000u, 0, 0, 1));
	/* priority (SEED): above the decrementer, below external interrupts */
	CHECK(pmregs_ppc604_pmi_taken_before(0, 0));
	CHECK(pmregs_ppc604_pmi_taken_before(0, 1));
	CHECK(!pmregs_ppc604_pmi_taken_before(1, 0));
	CHECK(!pmregs_ppc604_pmi_taken_before(1, 1));
	/* SEED: the 604 double-counts misaligned loads (marked on its load count, PMC2 0x12); the 604e does not */
	{
		size_t k, n;
		const struct pmregs_ppc604_events_row *rows = pmregs_ppc604_events(&n);
		const struct pmregs_ppc604_events_row *r = pmregs_ppc604_events_find("loads_completed");
		CHECK(r != NULL && r->code == 0x12);
		CHECK(r != NULL && r->misaligned_twice == 1u << PPC604);
		for (k = 0; k < n; k++)
			CHECK(rows[k].misaligned_twice == 0 || &rows[k] == r);
	}
	/* C5: the 604 clears ENINT on a PMI (UM604 pp.78, 371), against PERFCTR's comment; the 604e does not need it */
	CHECK_EQ(pmregs_ppc604_pmxe_after_pmi(PPC604, PMREGS_PPC604_MMCR0_PMXE_MASK), 0);
	CHECK_EQ(pmregs_ppc604_pmxe_after_pmi(PPC604E, PMREGS_PPC604_MMCR0_PMXE_MASK), 1);
	CHECK_EQ(pmregs_ppc604_pmxe_after_pmi(PMREGS_PPC604_CPU_MPC7400, PMREGS_PPC604_MMCR0_PMXE_MASK), 0);
}

/* ---- the PM API encoder ---- */

static struct pmregs_pm_work work;
static struct pmregs_ppc604_pm_encoding enc;

static void encode_golden(void)
{
	struct pmregs_ppc604_pm_request rq;
	struct pmregs_ppc604_pm_decoded d;
	int k;
	/* cycles on the 604: PMC1 selector 1 -> MMCR0 = 0x40 (DOLSDK "PMC1 cycles" = 0x40) */
	pmregs_ppc604_pm_request_init(&rq, PPC604);
	rq.events[rq.nevents++] = EV(PROCESSOR_CYCLES);
	k = pmregs_ppc604_pm_encode(&rq, &work, &enc);
	CHECK_EQ(k, 1);
	CHECK(enc.minimal);
	CHECK_EQ(enc.pass[0].regs[0], 0x40u);
	CHECK_EQ(enc.pass[0].regs[1], 0); /* no MMCR1 on the 604 */
	CHECK_EQ(enc.counter[0], PMREGS_PPC604_PM_COUNTER_PMC1);

	/* cycles and D-cache misses (PMC2 only) with user-only counting (FCS set in base) */
	pmregs_ppc604_pm_request_init(&rq, PPC604);
	rq.base[0] = PMREGS_PPC604_MMCR0_FCS_MASK | PMREGS_PPC604_MMCR0_PMC1SEL_MASK; /* owned fields are cleared */
	rq.events[rq.nevents++] = EV(DATA_CACHE_MISSES);
	rq.events[rq.nevents++] = EV(PROCESSOR_CYCLES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.pass[0].regs[0], 0x40000000u | (1u << 6) | 6u);

	/*
	 * SEED: "By selecting this event to measure in PMC1 and using the trigger function ...
	 * one has the ability to start counting when a specified instruction has been executed
	 * a specific number of times": IABR hits (PMC1 0x1F) as the trigger, N = 10, then count
	 * instructions completed and D-cache misses.
	 */
	pmregs_ppc604_pm_request_init(&rq, PPC604E);
	rq.trigger = EV(INSTRUCTION_BREAKPOINT_HITS);
	rq.trigger_count = 10;
	rq.events[rq.nevents++] = EV(INSTRUCTIONS_COMPLETED);
	rq.events[rq.nevents++] = EV(DATA_CACHE_MISSES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.trigger_counter, PMREGS_PPC604_PM_COUNTER_PMC1);
	CHECK_EQ(enc.pass[0].preload[0], 0x80000000u - 10u);
	CHECK_EQ(enc.pass[0].regs[0] & PMREGS_PPC604_MMCR0_TRIGGER_MASK, PMREGS_PPC604_MMCR0_TRIGGER_MASK);
	CHECK_EQ(pmregs_ppc604_mmcr0_pmc1sel_get(enc.pass[0].regs[0]), 0x1F);
	CHECK_EQ(pmregs_ppc604_mmcr0_pmc2sel_get(enc.pass[0].regs[0]), 0x06);
	CHECK_EQ(enc.counter[0], PMREGS_PPC604_PM_COUNTER_PMC3); /* instructions completed: not PMC1 (trigger), not PMC2 (taken) */
	CHECK_EQ(pmregs_ppc604_mmcr1_pmc3sel_get(enc.pass[0].regs[1]), 0x02);
	CHECK_EQ(pmregs_ppc604_pm_decode(PPC604E, enc.pass[0].regs, &d), 2);
	CHECK_EQ(d.trigger, EV(INSTRUCTION_BREAKPOINT_HITS));

	/* the 604 has no IABR event: the trigger cannot be placed, which is reported */
	rq.model = PPC604;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK(enc.notes & PMREGS_PPC604_PM_LOST_TRIGGER);
	CHECK_EQ(enc.pass[0].regs[0] & PMREGS_PPC604_MMCR0_TRIGGER_MASK, 0);

	/* sampling every 100000 cycles: PMC preload 0x80000000 - 100000, PMC1CE and PMXE (SEED sampling) */
	pmregs_ppc604_pm_request_init(&rq, PPC604);
	rq.sample = EV(PROCESSOR_CYCLES);
	rq.sample_period = 100000;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.sample_counter, 0);
	CHECK_EQ(enc.pass[0].preload[0], 0x80000000u - 100000u);
	CHECK_EQ(enc.pass[0].regs[0], PMREGS_PPC604_MMCR0_PMXE_MASK | PMREGS_PPC604_MMCR0_PMC1CE_MASK | 0x40u);
	CHECK_EQ(pmregs_ppc604_pm_decode(PPC604, enc.pass[0].regs, &d), 1);
	CHECK_EQ(d.interrupts, 1u);

	/* an event the model lacks is reported, the others are still encoded */
	pmregs_ppc604_pm_request_init(&rq, PPC604);
	rq.events[rq.nevents++] = EV(SYSTEM_CALLS); /* PMC3: 604e only */
	rq.events[rq.nevents++] = EV(ITLB_MISSES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.where[0].pass, PMREGS_PM_NOT_COUNTED);
	CHECK_EQ(enc.counter[0], PMREGS_PPC604_PM_NONE);
	CHECK_EQ(enc.counted, 1);

	/* decoding selectors no event of the model has: PMREGS_ENOENT on that counter */
	{
		uint32_t r[2] = { PMREGS_PPC604_MMCR0_604_PMC1SEL(0x1F), 0 }; /* IABR hits: 604e only */
		CHECK_EQ(pmregs_ppc604_pm_decode(PPC604, r, &d), 0);
		CHECK_EQ(d.event[0], PMREGS_ENOENT);
		CHECK_EQ(pmregs_ppc604_pm_decode(PPC604E, r, &d), 1);
		CHECK_EQ(d.event[0], EV(INSTRUCTION_BREAKPOINT_HITS));
		r[1] = PMREGS_PPC604_MMCR1_PMC3SEL(0x1F); /* PMC3 has no event 0x1F */
		CHECK_EQ(pmregs_ppc604_pm_decode(PPC604E, r, &d), 1);
		CHECK_EQ(d.event[2], PMREGS_ENOENT);
		CHECK_EQ(d.event[3], PMREGS_PPC604_PM_NONE); /* selector 0: nothing */
		CHECK_EQ(pmregs_ppc604_pm_decode(PPC604, r, &d), 0); /* the 604 has no MMCR1: ignored */
		CHECK_EQ(d.event[2], PMREGS_PPC604_PM_NONE);
		CHECK_EQ(pmregs_ppc604_pm_decode(PMREGS_PPC604_CPU_MPC750, r, &d), PMREGS_EINVAL);
	}

	/* bad requests */
	pmregs_ppc604_pm_request_init(&rq, PMREGS_PPC604_CPU_MPC750); /* no event table for the 750 */
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), PMREGS_EINVAL);
	pmregs_ppc604_pm_request_init(&rq, PPC604E);
	rq.events[rq.nevents++] = EV(ITLB_MISSES);
	rq.events[rq.nevents++] = EV(ITLB_MISSES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), PMREGS_EINVAL);
	rq.nevents = 1;
	rq.events[0] = PMREGS_PPC604_PM_NEVENTS;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), PMREGS_EINVAL);
	rq.events[0] = EV(ITLB_MISSES);
	rq.sample = EV(PROCESSOR_CYCLES);
	rq.sample_period = 0;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), PMREGS_EINVAL);
	rq.sample_period = 0x80000001u;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), PMREGS_EINVAL);
}

static void encode_six_two_passes(void)
{
	/*
	 * Six events on a 604e: three of them only PMC1 can count, so at least three passes... no:
	 * ICACHE_MISSES and DTLB_MISSES are PMC1-only, DATA_CACHE_MISSES and ITLB_MISSES PMC2-only,
	 * SYSTEM_CALLS PMC3-only, PROCESSOR_CYCLES anywhere: two PMC1 events need two passes, and
	 * two passes suffice (reference 6.3-6.6 for which PMC counts what).
	 */
	struct pmregs_ppc604_pm_request rq;
	struct pmregs_ppc604_pm_decoded d;
	unsigned seen = 0, i;
	int p;
	pmregs_ppc604_pm_request_init(&rq, PPC604E);
	rq.events[rq.nevents++] = EV(ICACHE_MISSES);
	rq.events[rq.nevents++] = EV(DTLB_MISSES);
	rq.events[rq.nevents++] = EV(DATA_CACHE_MISSES);
	rq.events[rq.nevents++] = EV(ITLB_MISSES);
	rq.events[rq.nevents++] = EV(SYSTEM_CALLS);
	rq.events[rq.nevents++] = EV(PROCESSOR_CYCLES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 2);
	CHECK(enc.minimal);
	CHECK_EQ(enc.counted, 6);
	for (p = 0; p < enc.npasses; p++) {
		int n = pmregs_ppc604_pm_decode(PPC604E, enc.pass[p].regs, &d);
		CHECK(n > 0);
		for (i = 0; i < (unsigned)n; i++) {
			unsigned j;
			for (j = 0; j < rq.nevents; j++)
				if (rq.events[j] == d.events[i]) {
					CHECK_EQ(enc.where[j].pass, p);
					seen |= 1u << j;
				}
		}
	}
	CHECK_EQ(seen, 0x3Fu);
}

static void encode_threshold_interval(void)
{
	struct pmregs_ppc604_pm_request rq;
	struct pmregs_ppc604_pm_decoded d;
	uint32_t v, a;
	/* threshold units: 604 = 1 cycle; 604e = 4 cycles (PERFCTR, C10) */
	CHECK_EQ(pmregs_ppc604_pm_threshold(PPC604, 10, &v, &a), PMREGS_OK);
	CHECK_EQ(v, 10);
	CHECK_EQ(a, 10);
	CHECK_EQ(pmregs_ppc604_pm_threshold(PPC604E, 10, &v, &a), PMREGS_OK);
	CHECK_EQ(v, 3); /* 2.5 units rounds up */
	CHECK_EQ(a, 12);
	CHECK_EQ(pmregs_ppc604_pm_threshold(PPC604E, 9, &v, &a), PMREGS_OK);
	CHECK_EQ(v, 2);
	CHECK_EQ(pmregs_ppc604_pm_threshold(PPC604, 1000, &v, &a), PMREGS_OK);
	CHECK_EQ(v, 63); /* clamped to the 6-bit field */
	CHECK_EQ(pmregs_ppc604_pm_threshold(PMREGS_PPC604_CPU_MPC750, 1, &v, &a), PMREGS_EINVAL);

	pmregs_ppc604_pm_request_init(&rq, PPC604E);
	rq.events[rq.nevents++] = EV(DCACHE_LOAD_MISSES);
	rq.threshold_on = 1;
	rq.threshold_cycles = 10;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.threshold_value, 3);
	CHECK_EQ(enc.threshold_cycles, 12);
	CHECK(enc.notes & PMREGS_PPC604_PM_APPROX_THRESHOLD);
	CHECK(!(enc.notes & PMREGS_PPC604_PM_THRESHOLD_UNUSED));
	CHECK_EQ(pmregs_ppc604_mmcr0_threshold_get(enc.pass[0].regs[0]), 3);
	pmregs_ppc604_pm_decode(PPC604E, enc.pass[0].regs, &d);
	CHECK_EQ(d.threshold_cycles, 12);
	rq.events[0] = EV(ICACHE_MISSES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK(enc.notes & PMREGS_PPC604_PM_THRESHOLD_UNUSED);

	/* interval: 10000 ticks is nearest (log scale) to 2^13 = TB[51]; with interrupts TBEE and PMXE are set */
	pmregs_ppc604_pm_request_init(&rq, PPC604);
	rq.interval_ticks = 10000;
	rq.interval_interrupt = 1;
	rq.events[rq.nevents++] = EV(PROCESSOR_CYCLES);
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.interval, PMREGS_PPC604_PM_INTERVAL_TB51);
	CHECK_EQ(enc.interval_ticks, 8192);
	CHECK(enc.notes & PMREGS_PPC604_PM_APPROX_INTERVAL);
	CHECK_EQ(enc.pass[0].regs[0], 0x01000000u | PMREGS_PPC604_MMCR0_TBEE_MASK | PMREGS_PPC604_MMCR0_PMXE_MASK | 0x40u);
	pmregs_ppc604_pm_decode(PPC604, enc.pass[0].regs, &d);
	CHECK_EQ(d.interval_ticks, 8192);
	CHECK(d.interval_interrupt);
	/* 2 ticks: TB[63] without interrupts; with them the PM API refuses TB[63] (SEED) and takes TB[55] */
	rq.interval_ticks = 2;
	rq.interval_interrupt = 0;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.interval, PMREGS_PPC604_PM_INTERVAL_TB63);
	CHECK(!(enc.notes & PMREGS_PPC604_PM_APPROX_INTERVAL));
	rq.interval_interrupt = 1;
	CHECK_EQ(pmregs_ppc604_pm_encode(&rq, &work, &enc), 1);
	CHECK_EQ(enc.interval, PMREGS_PPC604_PM_INTERVAL_TB55);
	/* the nearest power of two on a log scale, against floating point */
	{
		static const uint8_t l2[] = { 1, 9, 13, 17 };
		unsigned i;
		for (i = 0; i < 100000; i++) {
			uint64_t want = rnd() >> (rnd() % 64);
			int got = pmregs_nearest_pow2(want, l2, 0, 4), best = 0, j;
			double lw = want ? log2((double)want) : -1e9, bd = 1e300;
			for (j = 0; j < 4; j++) {
				double dd = fabs(lw - l2[j]);
				if (dd < bd - 1e-9) {
					bd = dd;
					best = j;
				}
			}
			CHECK_EQ(got, best);
		}
		/* ties go to the shorter period: 2^11 is the geometric middle of 2^9 and 2^13 */
		CHECK_EQ(pmregs_nearest_pow2(2048, l2, 0, 4), 1);
		CHECK_EQ(pmregs_nearest_pow2(2049, l2, 0, 4), 2);
	}
	/* x*x < 2^s, against a schoolbook 64x64 -> 128-bit product (portable to 32-bit hosts) */
	{
		unsigned i;
		for (i = 0; i < 100000; i++) {
			uint64_t x = rnd() >> (rnd() % 64);
			unsigned s = (unsigned)(rnd() % 128);
			uint64_t lo32 = x & 0xFFFFFFFFu, hi32 = x >> 32;
			uint64_t ll = lo32 * lo32, lh = lo32 * hi32, hh = hi32 * hi32;
			uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) * 2;
			uint64_t lo = (ll & 0xFFFFFFFFu) | (mid << 32);
			uint64_t hi = hh + (lh >> 32) * 2 + (mid >> 32);
			int below = s >= 64 ? (hi >> (s - 64)) == 0 : hi == 0 && (lo >> s) == 0;
			CHECK_EQ(pmregs_square_below_pow2(x, s), below);
		}
	}
	/* ns <-> ticks: a 16.5 MHz time base (a 66 MHz bus / 4, UM604 p.55) */
	CHECK_EQ(pmregs_ns_to_ticks(1000000000u, 16500000u), 16500000u);
	CHECK_EQ(pmregs_ns_to_ticks(2500000000u, 16500000u), 41250000u);
	CHECK_EQ(pmregs_ticks_to_ns(8192, 16500000u), 496485u);
}

/* ---- random round trips and minimality against a brute force ---- */

static int counters_of(unsigned model, unsigned ev, unsigned *mask)
{
	const struct pmregs_ppc604_events_row *e = pmregs_ppc604_events(0);
	unsigned have = model == PPC604 ? 0x3u : 0xFu; /* 604: PMC1-2; 604e: PMC1-4 (reference 3.3) */
	*mask = ((e[ev].models >> model) & 1u) ? (e[ev].counters & have) : 0;
	return *mask != 0;
}

/* Brute force: can the events with counter masks m[0..n) be spread over k passes? */
static int fits(const unsigned *m, unsigned n, unsigned k, unsigned *used, unsigned i)
{
	unsigned p, c;
	if (i == n)
		return 1;
	for (p = 0; p < k; p++)
		for (c = 0; c < 4; c++)
			if (((m[i] >> c) & 1u) && !((used[p] >> c) & 1u)) {
				used[p] |= 1u << c;
				if (fits(m, n, k, used, i + 1)) {
					used[p] &= ~(1u << c);
					return 1;
				}
				used[p] &= ~(1u << c);
			}
	return 0;
}

static void round_trips(void)
{
	unsigned iter;
	for (iter = 0; iter < 3000; iter++) {
		struct pmregs_ppc604_pm_request rq;
		struct pmregs_ppc604_pm_decoded d;
		unsigned model = (unsigned)(rnd() % 2), n = (unsigned)(rnd() % (iter < 2000 ? 7 : 20)), i, j;
		unsigned masks[64], nm = 0, reserved = 0, found[64];
		int k, p, pins = (int)(rnd() % 4);
		pmregs_ppc604_pm_request_init(&rq, (enum pmregs_ppc604_cpu)model);
		while (rq.nevents < n) {
			uint16_t ev = (uint16_t)(1 + rnd() % (PMREGS_PPC604_PM_NEVENTS - 1)); /* not NOTHING (idle) */
			for (j = 0; j < rq.nevents && rq.events[j] != ev; j++)
				;
			if (j == rq.nevents)
				rq.events[rq.nevents++] = ev;
		}
		if (pins == 1 || pins == 3) {
			/* a correlate event not in the list */
			uint16_t ev;
			do {
				ev = (uint16_t)(1 + rnd() % (PMREGS_PPC604_PM_NEVENTS - 1));
				for (j = 0; j < rq.nevents && rq.events[j] != ev; j++)
					;
			} while (j < rq.nevents);
			rq.correlate = ev;
		}
		if (pins >= 2) {
			/* a trigger on PMC1 not among the others */
			uint16_t ev;
			unsigned cm;
			do {
				ev = (uint16_t)(1 + rnd() % (PMREGS_PPC604_PM_NEVENTS - 1));
				for (j = 0; j < rq.nevents && rq.events[j] != ev; j++)
					;
			} while (j < rq.nevents || (int)ev == rq.correlate || !counters_of(model, ev, &cm) || !(cm & 1u));
			rq.trigger = ev;
			rq.trigger_count = 1 + rnd() % 1000;
		}
		k = pmregs_ppc604_pm_encode(&rq, &work, &enc);
		CHECK(k >= 0);
		if (k < 0)
			continue;
		CHECK(enc.minimal);
		/* pinned events are placed on counters they can use */
		if (rq.trigger >= 0) {
			CHECK_EQ(enc.trigger_counter, 0);
			reserved |= 1u;
		}
		if (rq.correlate >= 0 && enc.correlate_counter >= 0) {
			unsigned cm;
			counters_of(model, (unsigned)rq.correlate, &cm);
			CHECK((cm >> enc.correlate_counter) & 1u);
			CHECK(!((reserved >> enc.correlate_counter) & 1u));
			reserved |= 1u << enc.correlate_counter;
		}
		/* every event a counter of the model can take (other than the pins' counters) is counted */
		for (i = 0; i < rq.nevents; i++) {
			unsigned cm;
			counters_of(model, rq.events[i], &cm);
			CHECK_EQ(enc.where[i].pass >= 0, (cm & ~reserved) != 0);
			if (enc.where[i].pass >= 0) {
				CHECK((cm >> enc.counter[i]) & 1u);
				masks[nm++] = cm & ~reserved;
			}
			found[i] = 0;
		}
		/* fewest passes, against the brute force (small lists only) */
		if (nm <= 7) {
			unsigned used[8], kk, best = 0;
			for (kk = 1; kk <= nm; kk++) {
				memset(used, 0, sizeof used);
				if (fits(masks, nm, kk, used, 0)) {
					best = kk;
					break;
				}
			}
			if (nm == 0)
				best = (rq.trigger >= 0 || (rq.correlate >= 0 && enc.correlate_counter >= 0)) ? 1u : 0u;
			CHECK_EQ((unsigned)k, best);
		}
		/* decode each pass: exactly the events of that pass, plus the pinned ones */
		for (p = 0; p < k; p++) {
			int nd = pmregs_ppc604_pm_decode((enum pmregs_ppc604_cpu)model, enc.pass[p].regs, &d);
			unsigned want = 0;
			CHECK(nd >= 0);
			CHECK_EQ(d.trigger, rq.trigger);
			for (i = 0; i < rq.nevents; i++)
				want += enc.where[i].pass == p;
			if (rq.correlate >= 0 && enc.correlate_counter >= 0)
				want++;
			CHECK_EQ((unsigned)nd, want);
			for (j = 0; j < (unsigned)nd; j++) {
				int hit = 0;
				for (i = 0; i < rq.nevents; i++)
					if (rq.events[i] == d.events[j] && enc.where[i].pass == p) {
						found[i]++;
						hit = 1;
					}
				if ((int)d.events[j] == rq.correlate)
					hit = 1;
				CHECK(hit);
			}
			/* the registers are valid for the model: no reserved bit of the 604's MMCR0 set */
			CHECK(pmregs_ppc604_mmcr0_604_valid(enc.pass[p].regs[0]));
			CHECK(pmregs_ppc604_mmcr1_valid(enc.pass[p].regs[1]));
		}
		for (i = 0; i < rq.nevents; i++)
			CHECK_EQ(found[i], enc.where[i].pass >= 0 ? 1u : 0u);
	}
}

TEST_COLD_END

/* ---- 64-bit totals from 32-bit counters ---- */

static void accumulation(void)
{
	unsigned iter;
	/* read at random times, at most 2^32 - 1 events apart: the total follows a 64-bit truth */
	for (iter = 0; iter < 100; iter++) {
		uint64_t truth = rnd(), total = 0, last = (uint32_t)truth;
		uint32_t hw = (uint32_t)truth;
		unsigned step;
		uint64_t start = truth;
		for (step = 0; step < 1000; step++) {
			uint64_t inc = rnd() % ((step & 1) ? 0xFFFFFFFFu : 0x1000u);
			truth += inc;
			hw = (uint32_t)(hw + inc);
			pmregs_accumulate(&total, &last, hw, 32);
		}
		CHECK_EQ(total, truth - start);
		CHECK(total > 0xFFFFFFFFu); /* the counter wrapped many times */
	}
	/*
	 * The PM API's way (SEED): the counter starts at 0x80000000 - N, the PMI fires when it
	 * turns negative, the handler adds what it counted and reloads it. Simulate a 604e
	 * counting 2^40 events in steps, taking the interrupt late by up to 1000 events (2^40 /
	 * test_scale(): an eighth in the 32-bit and emulated big-endian runs, whose point is the word
	 * size and the byte order; 2^37 events are still 32 wraps of a 32-bit total and 137,000 PMIs).
	 */
	{
		const uint32_t N = 1000000u, pre = pmregs_ppc604_pmc_preload(N);
		uint64_t truth = 0, total = 0, last = pre, target = (uint64_t)test_scale(1u << 20) << 20;
		uint32_t hw = pre;
		unsigned pmis = 0;
		/* a step of 1 to 5000 events from each half of a draw, scaled (((h * 5000) >> 32) for a
		   32-bit h: the draws and the division took most of the run) */
		uint64_t w = 0;
		unsigned half = 0;
		while (truth < target) {
			uint64_t inc;
			if (half == 0)
				w = rnd();
			inc = 1 + ((((w >> (32 * half)) & 0xFFFFFFFFu) * 5000) >> 32);
			half ^= 1;
			truth += inc;
			hw = (uint32_t)(hw + inc);
			if (pmregs_ppc604_pmc_is_negative(hw) && rnd() % 4 == 0) {
				pmregs_accumulate(&total, &last, hw, 32);
				hw = pre;
				last = pre;
				pmis++;
			}
		}
		pmregs_accumulate(&total, &last, hw, 32);
		CHECK_EQ(total, truth);
		CHECK(pmis > test_scale(1000000u));
	}
}

TEST_COLD_BEGIN
static void snprint(void)
{
	char buf[600];
	size_t len = pmregs_ppc604_mmcr0_604_snprint(buf, sizeof buf, 0x84002041u);
	CHECK(strstr(buf, "fc[0|31]=1 ") != 0);
	CHECK(strstr(buf, "pmxe[5|26]=1 ") != 0);
	CHECK(strstr(buf, "tbsel[7:8|24:23]=0(tb63)") != 0);
	CHECK(strstr(buf, "trigger[18|13]=1 ") != 0);
	CHECK(strstr(buf, "pmc1sel[21:25|10:6]=0x1 ") != 0);
	CHECK(strstr(buf, "pmc2sel[27:31|4:0]=0x1") != 0);
	CHECK_EQ(len, strlen(buf));
	/* a reserved selector bit set on the 604 is flagged */
	pmregs_ppc604_mmcr0_604_snprint(buf, sizeof buf, 0x1000u);
	CHECK(strstr(buf, "!pmc1sel_rsvd[19:20|12:11]=2") != 0);
	/* like snprintf: truncated but terminated, and the full length is returned */
	CHECK_EQ(pmregs_ppc604_mmcr0_604_snprint(buf, 4, 0x84002041u), len);
	CHECK_EQ(buf[3], '\0');
	CHECK_EQ(pmregs_ppc604_mmcr0_604_snprint(0, 0, 0x84002041u), len);
}

int main(void)
{
	spr_numbers();
	presence();
	masks();
	msb0_conversion();
	tbsel_order();
	events();
	semantics();
	encode_golden();
	encode_six_two_passes();
	encode_threshold_interval();
	round_trips();
	accumulation();
	snprint();
	return check_done("test_ppc604");
}
TEST_COLD_END
