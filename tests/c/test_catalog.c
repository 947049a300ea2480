/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Event catalogues (<pmregs/catalogs.h>, base_catalog.h, base_catalog_parse.h): lookups in every
 * syntax against rows of the vendors' data, CPUID maps, and properties over every event of every table.
 *
 * Golden rows (the imported data; the tables under spec/x86/events and spec/amd/events cite the files):
 *   intel/perfmon SPR/events/sapphirerapids_core.json V1.39: INST_RETIRED.ANY_P 0xC0/0x00 Counter 0-7;
 *     INST_RETIRED.ANY 0x00/0x01 Fixed counter 0; MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32 0xCD/0x01
 *     MSRIndex 0x3F6 MSRValue 0x20 Counter 1-7; OCR.DEMAND_DATA_RD.ANY_RESPONSE 0x2A/0x01 MSRIndex
 *     0x1A6 MSRValue 0x10001 Counter 0-3
 *   intel/perfmon SKL/events/skylake_core.json V59: INST_RETIRED.PREC_DIST 0xC0/0x01; ARITH.DIVIDER_ACTIVE
 *     0x14/0x01 CounterMask 1 Counter 0-3; CPU_CLK_UNHALTED.THREAD_ANY 0x00/0x02 AnyThread 1
 *   intel/perfmon mapfile.csv: GenuineIntel-6-55-[01234] SKX, -6-55-[56789ABCDEF] CLX, GenuineIntel-6-97
 *     hybrid Core 0x40 goldencove / Atom 0x20 gracemont, GenuineIntel-6-BE gracemont alone
 *   Linux 6.12 tools/perf/pmu-events/arch/x86: mapfile.csv AuthenticAMD-23-([12][0-9A-F]|[0-9A-F]) zen1,
 *     -23-* zen2, -25-([245][[:xdigit:]]|[[:xdigit:]]) zen3, -25-* zen4, -26-* zen5; amdzen4
 *     de_no_dispatch_per_slot.backend_stalls 0x1A0/0x1E, ls_any_fills_from_sys.local_l2 0x44/0x01,
 *     .local_ccx 0x44/0x02; amdzen5 ex_ret_instr 0xC0
 *   libpfm4 4.13 amd64_fam19h_zen4: RETIRED_INSTRUCTIONS 0xC0; ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2
 *     and :LOCAL_CCX are 0x44 with unit masks 0x01 and 0x02
 *   SDM Vol. 3B Figure 18-1 (IA32_PERFEVTSELx): USR 16, OS 17, E 18, ANY 21, EN 22, INV 23, CMASK 31:24;
 *   APM2 Fig 13-11 (PERF_CTL): EventSelect[11:8] in 35:32, GuestOnly 40, HostOnly 41
 */
#include <string.h>
#include <pmregs/catalogs.h>
#include <pmregs/amd.h>
#include <pmregs/x86.h>
#include "../common/check.h"

/* The whole test runs in a few hundredths of a second: its own code is compiled with little
 * optimisation (TEST_COLD_BEGIN, tests/common/check.h), the catalogues' functions with the build's. */
TEST_COLD_BEGIN

static const struct pmregs_catalog *intel, *amd;

static const struct pmregs_cat_table *table(const struct pmregs_catalog *c, const char *name)
{
	const struct pmregs_cat_table *t = pmregs_cat_table_find(c, name);
	CHECK(t != 0);
	return t;
}

/* Parse s for table t; the request's register value (with USR/OS/EN as encoded) and the event's name. */
static int parse(const struct pmregs_catalog *c, const char *tn, const char *s, struct pmregs_cat_request *r,
		 struct pmregs_cat_encoding *e)
{
	size_t where = 99;
	int rc = pmregs_cat_parse(c, table(c, tn), s, r, &where);
	if (rc == PMREGS_OK)
		pmregs_cat_encode(r, e);
	return rc;
}

static int named(const struct pmregs_catalog *c, const struct pmregs_cat_request *r, const char *name)
{
	return r->event && strcmp(pmregs_cat_event_name(c, r->event), name) == 0;
}

static void test_intel_names(void)
{
	struct pmregs_cat_request r;
	struct pmregs_cat_encoding e;
	char buf[128];
	/* Intel's EVENT.UMASK, any case */
	CHECK_EQ(parse(intel, "spr", "INST_RETIRED.ANY_P", &r, &e), PMREGS_OK);
	CHECK(named(intel, &r, "INST_RETIRED.ANY_P"));
	CHECK_EQ(e.evtsel, 0xC0 | (1u << 16) | (1u << 17) | (1u << 22)); /* USR, OS, EN */
	CHECK_EQ(e.config, 0xC0);
	CHECK_EQ(e.counters, 0xFF);
	CHECK(strcmp(e.pmu, "cpu") == 0);
	CHECK(strncmp(pmregs_cat_event_desc(intel, r.event), "Number of instructions retired", 30) == 0);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "cpu/event=0xc0,umask=0x0/") == 0);
	CHECK_EQ(parse(intel, "SPR", "inst_retired.any_p", &r, &e), PMREGS_OK);
	CHECK(named(intel, &r, "INST_RETIRED.ANY_P"));
	/* a fixed-counter event: perf's pseudo-encoding, fixed counter 0 only */
	CHECK_EQ(parse(intel, "spr", "INST_RETIRED.ANY", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x100);
	CHECK_EQ(e.counters, 1ULL << 32);
	/* load latency: MSR 0x3F6 and perf's ldlat=config1 */
	CHECK_EQ(parse(intel, "spr", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x1CD);
	CHECK_EQ(e.extra_msr, 0x3F6);
	CHECK_EQ(e.extra_value, 0x20);
	CHECK_EQ(e.config1, 0x20);
	CHECK_EQ(e.counters, 0xFE);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "cpu/event=0xcd,umask=0x1,ldlat=0x20/") == 0);
	/* libpfm4's ldlat modifier replaces the threshold */
	CHECK_EQ(parse(intel, "spr", "MEM_TRANS_RETIRED:LOAD_LATENCY_GT_32:ldlat=64", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config1, 64);
	CHECK_EQ(e.extra_msr, 0x3F6);
	/* offcore response: MSR 0x1A6, perf's offcore_rsp=config1 */
	CHECK_EQ(parse(intel, "spr", "OCR.DEMAND_DATA_RD.ANY_RESPONSE", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x12A);
	CHECK_EQ(e.extra_msr, 0x1A6);
	CHECK_EQ(e.config1, 0x10001);
	CHECK_EQ(e.counters, 0xF);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "cpu/event=0x2a,umask=0x1,offcore_rsp=0x10001/") == 0);
	/* a cmask from the data, and AnyThread */
	CHECK_EQ(parse(intel, "skl", "ARITH.DIVIDER_ACTIVE", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x1000114);
	CHECK_EQ(parse(intel, "skl", "CPU_CLK_UNHALTED.THREAD_ANY", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x200200);
	CHECK_EQ(e.counters, 1ULL << 33);
}

static void test_pfm_syntax(void)
{
	struct pmregs_cat_request r;
	struct pmregs_cat_encoding e;
	size_t where = 0;
	char buf[128];
	/* EVENT:UMASK with every modifier: u (USR only), c=2, e, i, t=1 */
	CHECK_EQ(parse(intel, "skl", "INST_RETIRED:ANY_P:u:c=2:e:i:t=1", &r, &e), PMREGS_OK);
	CHECK(named(intel, &r, "INST_RETIRED.ANY_P"));
	CHECK_EQ(e.evtsel, 0xC0 | (1u << 16) | (1u << 18) | (1u << 21) | (1u << 22) | (1u << 23) | (2u << 24));
	CHECK_EQ(e.exclude_kernel, 1);
	CHECK_EQ(e.exclude_user, 0);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "cpu/event=0xc0,umask=0x0,edge=0x1,any=0x1,inv=0x1,cmask=0x2/u") == 0);
	/* k, and u=0:k=1 */
	CHECK_EQ(parse(intel, "skl", "inst_retired:any_p:k", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel & 0x30000, 0x20000);
	CHECK_EQ(parse(intel, "skl", "inst_retired.any_p:u=0:k=1", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel & 0x30000, 0x20000);
	/* modifiers that leave no privilege level are refused at the last of them (libpfm4 would program a
	 * counter that counts nothing, and no perf string can say it): k=0 alone, u=0:k=0 */
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "inst_retired.any_p:k=0", &r, &where), PMREGS_EINVAL);
	CHECK_EQ(where, 19);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "r00c0:u=0:c=1:k=0", &r, &where), PMREGS_EINVAL);
	CHECK_EQ(where, 14);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "inst_retired.any_p:k=0:u", &r, &where), PMREGS_OK);
	pmregs_cat_encode(&r, &e);
	CHECK_EQ(e.evtsel & 0x30000, 0x10000);
	/* libpfm4's PMU:: prefix */
	CHECK_EQ(parse(intel, "skl", "skl::INST_RETIRED:PREC_DIST", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x1C0);
	/* two unit masks of one event are ORed (Zen 4 aliases from libpfm4) */
	CHECK_EQ(parse(amd, "zen4", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x344);
	CHECK(named(amd, &r, "ls_any_fills_from_sys.local_l2"));
	/* ... and Intel's: EVENT.U1:U2 */
	CHECK_EQ(parse(intel, "skl", "MEM_LOAD_RETIRED.L1_HIT:L2_HIT", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x3D1);
	/* errors: where they are */
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "INST_RETIRED.ANY_P:zz", &r, &where), PMREGS_EINVAL);
	CHECK_EQ(where, 19);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "INST_RETIRED.ANY_P:c=256", &r, &where), PMREGS_ERANGE);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "INST_RETIRED.ANY_P:c=x", &r, &where), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "NO_SUCH_EVENT", &r, &where), PMREGS_ENOENT);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "INST_RETIRED:NO_SUCH", &r, &where), PMREGS_ENOENT);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "", &r, &where), PMREGS_ENOENT);
	/* a unit mask of another event code is not a unit mask of this one */
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "INST_RETIRED.ANY_P:L1_HIT", &r, &where), PMREGS_EINVAL);
	/* h and g exist only where the register has HostOnly/GuestOnly (AMD) */
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "INST_RETIRED.ANY_P:h", &r, &where), PMREGS_EINVAL);
}

static void test_amd(void)
{
	struct pmregs_cat_request r;
	struct pmregs_cat_encoding e, e2;
	char buf[128];
	const struct pmregs_cat_event *a, *b;
	CHECK_EQ(parse(amd, "zen5", "ex_ret_instr", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0xC0);
	CHECK_EQ(e.counters, 0x3F);
	CHECK_EQ(e.evtsel, 0xC0 | (1u << 16) | (1u << 17) | (1u << 22));
	/* libpfm4's name is an alias of Linux's */
	a = pmregs_cat_event_find(amd, table(amd, "zen4"), "RETIRED_INSTRUCTIONS");
	b = pmregs_cat_event_find(amd, table(amd, "zen4"), "EX_RET_INSTR");
	CHECK(a != 0 && a == b);
	CHECK(pmregs_cat_event_find(amd, table(amd, "zen5"), "RETIRED_INSTRUCTIONS") == 0); /* libpfm4 4.13: no Zen 5 */
	/* a 12-bit event: EventSelect[11:8] in bits 35:32 */
	CHECK_EQ(parse(amd, "zen4", "de_no_dispatch_per_slot.backend_stalls", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x100001EA0ULL);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "cpu/event=0x1a0,umask=0x1e/") == 0);
	CHECK_EQ(parse(amd, "zen4", "cpu/event=0x1a0,umask=0x1e/", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x100001EA0ULL);
	CHECK(named(amd, &r, "de_no_dispatch_per_slot.backend_stalls"));
	/* libpfm4's h, perf's G */
	CHECK_EQ(parse(amd, "zen3", "RETIRED_INSTRUCTIONS:h", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel >> 40, 2);
	CHECK_EQ(e.exclude_guest, 1);
	CHECK_EQ(parse(amd, "zen3", "cpu/event=0xc0/G", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel >> 40, 1);
	CHECK_EQ(e.exclude_host, 1);
	/* both (APM2 Table 13-4: HostOnly and GuestOnly set, guest and host): the perf string says both, excludes
	 * neither, and parses back to the same register value (it printed neither, which parsed back to 00) */
	CHECK_EQ(parse(amd, "zen2", "RETIRED_INSTRUCTIONS:g:h", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel >> 40, 3);
	CHECK(e.exclude_host == 0 && e.exclude_guest == 0);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "cpu/event=0xc0,umask=0x0/HG") == 0);
	CHECK_EQ(parse(amd, "zen2", buf, &r, &e2), PMREGS_OK);
	CHECK_EQ(e2.evtsel, e.evtsel);
	CHECK(e2.exclude_host == 0 && e2.exclude_guest == 0);
}

static void test_perf_syntax(void)
{
	struct pmregs_cat_request r;
	struct pmregs_cat_encoding e;
	size_t where = 0;
	CHECK_EQ(parse(intel, "skl", "cpu/event=0xc0,umask=0x1,cmask=2/u", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x20001C0);
	CHECK_EQ(e.exclude_kernel, 1);
	CHECK(named(intel, &r, "INST_RETIRED.PREC_DIST")); /* cmask 2 modifies the event its event and umask name */
	/* an event name as a term, then a term that modifies it */
	CHECK_EQ(parse(intel, "skl", "cpu/INST_RETIRED.ANY_P,cmask=3/", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x30000C0);
	CHECK(named(intel, &r, "INST_RETIRED.ANY_P"));
	/* config terms */
	CHECK_EQ(parse(intel, "spr", "cpu/config=0x1cd,config1=0x40/", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x1CD);
	CHECK_EQ(e.config1, 0x40);
	/* hybrid parts: the PMU of the table's core type */
	CHECK_EQ(parse(intel, "adl", "cpu_core/event=0xc0/", &r, &e), PMREGS_OK);
	CHECK(strcmp(e.pmu, "cpu_core") == 0);
	CHECK_EQ(parse(intel, "adl_atom", "INST_RETIRED.ANY_P", &r, &e), PMREGS_OK);
	CHECK(strcmp(e.pmu, "cpu_atom") == 0);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "uncore/event=1/", &r, &where), PMREGS_ENOENT);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "cpu/event=0x100/", &r, &where), PMREGS_ERANGE);
	CHECK_EQ(where, 4);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "cpu/bogus=1/", &r, &where), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "cpu/event=1", &r, &where), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "cpu/event=1/x", &r, &where), PMREGS_EINVAL);
	/* raw */
	CHECK_EQ(parse(intel, "skl", "r01c0", &r, &e), PMREGS_OK);
	CHECK(named(intel, &r, "INST_RETIRED.PREC_DIST"));
	CHECK_EQ(parse(intel, "skl", "r01c0:k", &r, &e), PMREGS_OK);
	CHECK_EQ(e.exclude_user, 1);
	CHECK_EQ(pmregs_cat_parse(intel, table(intel, "skl"), "r10000", &r, &where), PMREGS_ERANGE); /* USR: not raw */
}

static void test_cpus(void)
{
	struct pmregs_cpu_sig s;
	const struct pmregs_cat_table *t;
#define MODEL(c, f, m, st, ct, name)                                                                   \
	do {                                                                                           \
		t = pmregs_cat_table_for_cpu(c, f, m, st, ct);                                           \
		CHECK(t != 0 && strcmp(pmregs_cat_table_name(c, t), name) == 0);                         \
	} while (0)
	MODEL(intel, 6, 0x55, 4, 0, "skx");
	MODEL(intel, 6, 0x55, 5, 0, "clx");
	MODEL(intel, 6, 0x8F, 0, 0, "spr");
	MODEL(intel, 6, 0x97, 0, 0x40, "adl");
	MODEL(intel, 6, 0x97, 0, 0x20, "adl_atom");
	MODEL(intel, 6, 0xBE, 0, 0, "adl_atom");
	MODEL(intel, 6, 0x97, 0, 0, "adl"); /* no core type given: the first of the model's */
	MODEL(amd, 23, 0x18, 0, 0, "zen1");
	MODEL(amd, 23, 0x31, 0, 0, "zen2");
	MODEL(amd, 25, 0x21, 0, 0, "zen3");
	MODEL(amd, 25, 0x61, 0, 0, "zen4");
	MODEL(amd, 26, 0x44, 0, 0, "zen5");
	CHECK(pmregs_cat_table_for_cpu(intel, 6, 0x01, 0, 0) == 0);
	CHECK(pmregs_cat_table_for_cpu(amd, 24, 0x00, 0, 0) == 0); /* Hygon family 18h: not in Linux's AMD map */
	CHECK_EQ(pmregs_cpu_sig_parse("GenuineIntel-6-8F", &s), PMREGS_OK);
	CHECK(strcmp(s.vendor, "GenuineIntel") == 0 && s.family == 6 && s.model == 0x8F && s.stepping == 0);
	t = pmregs_cat_table_for_sig(intel, &s);
	CHECK(t && strcmp(pmregs_cat_table_name(intel, t), "spr") == 0);
	CHECK(pmregs_cat_table_for_sig(amd, &s) == 0);
	CHECK_EQ(pmregs_cpu_sig_parse("GenuineIntel-6-55-7", &s), PMREGS_OK);
	t = pmregs_cat_table_for_sig(intel, &s);
	CHECK(t && strcmp(pmregs_cat_table_name(intel, t), "clx") == 0);
	CHECK_EQ(pmregs_cpu_sig_parse("AuthenticAMD-25-61", &s), PMREGS_OK);
	CHECK(s.family == 25 && s.model == 0x61);
	t = pmregs_catalogs_table("AuthenticAMD-25-61", 0);
	CHECK(t && strcmp(pmregs_cat_table_name(amd, t), "zen4") == 0);
	t = pmregs_catalogs_table("BDW_DE", 0); /* any case, '_' for '-' */
	CHECK(t && strcmp(pmregs_cat_table_name(intel, t), "bdw-de") == 0);
	CHECK_EQ(pmregs_cpu_sig_parse("GenuineIntel", &s), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cpu_sig_parse("GenuineIntel-6", &s), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cpu_sig_parse("GenuineIntel-x-8F", &s), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cpu_sig_parse("GenuineIntel-6-8F-1-2", &s), PMREGS_EINVAL);
	CHECK_EQ(pmregs_cpu_sig_parse("AVeryLongVendorName-6-8F", &s), PMREGS_EINVAL);
	/* the host's signature: on x86 from CPUID, elsewhere none (the same number of checks everywhere) */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
	CHECK_EQ(pmregs_cpu_sig_host(&s), PMREGS_OK);
	CHECK(s.vendor[0] != 0 && s.family >= 5);
#else
	CHECK_EQ(pmregs_cpu_sig_host(&s), PMREGS_ENOENT);
	CHECK(pmregs_catalogs_host(0, &s) == 0);
#endif
#undef MODEL
}

/* Every event of every table: found by its name in any case, its perf string and raw form parse back to the
 * same values, names strictly sorted, search and decode consistent. */
/* AMD's L3, DF and UMC catalogues (Linux 6.12 amdzen4 l3_lookup_state.l3_miss 0x04/0x01 Unit L3PMC,
 * local_processor_read_data_beats_cs0 0x1F/0x7FE Unit DFPMC, umc_mem_clk 0x00 Unit UMCPMC; APM2/PPR
 * layouts in spec/amd.yaml: ChL3PmcCfg EN 22, DF_PerfCtl (PerfMonV2) UnitMask[11:8] in 27:24, UMC EN 31). */
static void test_uncore(const struct pmregs_catalog_entry *d, size_t n)
{
	const struct pmregs_catalog *l3 = 0, *df = 0, *umc = 0;
	struct pmregs_cat_request r;
	struct pmregs_cat_encoding e;
	size_t i, where;
	char buf[128];
	for (i = 0; i < n; i++) {
		const struct pmregs_catalog *c = d[i].catalog();
		if (strcmp(c->name, "amd l3_events") == 0)
			l3 = c;
		if (strcmp(c->name, "amd df_v2_events") == 0)
			df = c;
		if (strcmp(c->name, "amd umc_events") == 0)
			umc = c;
	}
	CHECK(l3 && df && umc);
	if (!l3 || !df || !umc)
		return;
	CHECK_EQ(parse(l3, "zen4", "l3_lookup_state.l3_miss", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel, 0x400104);
	CHECK_EQ(e.config, 0x104);
	CHECK(strcmp(e.pmu, "amd_l3") == 0);
	CHECK_EQ(e.exclude_user | e.exclude_kernel, 0);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "amd_l3/event=0x4,umask=0x1/") == 0);
	CHECK_EQ(parse(l3, "zen4", "amd_l3/event=0x4,umask=0x1,sliceid=3,enallcores=1/", &r, &e), PMREGS_OK);
	CHECK_EQ(e.config, 0x3800000000104ULL);
	CHECK_EQ(parse(df, "zen4", "local_processor_read_data_beats_cs0", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel, 0x740FE1F);
	pmregs_cat_perf_snprint(buf, sizeof buf, &r);
	CHECK(strcmp(buf, "amd_df/event=0x1f,umask=0x7fe/") == 0);
	CHECK_EQ(parse(umc, "zen5", "umc_mem_clk", &r, &e), PMREGS_OK);
	CHECK_EQ(e.evtsel, 0x80000000u);
	/* an uncore PMU has no privilege levels: u and k are refused */
	CHECK_EQ(pmregs_cat_parse(umc, table(umc, "zen5"), "umc_mem_clk:u", &r, &where), PMREGS_EINVAL);
}

static size_t nterm;

static void test_every_event(const struct pmregs_catalog *c)
{
	size_t i, j, n = 0;
	CHECK(c->ntables > 0);
	for (i = 0; i < c->ntables; i++) {
		const struct pmregs_cat_table *t = &c->tables[i];
		const struct pmregs_cat_event *s = 0;
		size_t found = 0;
		for (j = 0; j < t->count; j++) {
			const struct pmregs_cat_event *e = &c->events[t->first + j];
			const char *name = pmregs_cat_event_name(c, e);
			struct pmregs_cat_request r, q;
			struct pmregs_cat_encoding a, b;
			char perf[256], lower[256], raw[40];
			size_t k, where;
			n++;
			if (j && pmregs_cat_cmp(pmregs_cat_event_name(c, e - 1), (size_t)-1, name, 0) >= 0 && check_failed())
				fprintf(stderr, "%s: %s is not after %s\n", pmregs_cat_table_name(c, t), name,
					pmregs_cat_event_name(c, e - 1));
			if (j % test_sparse()) /* every event; one in test_sparse() under emulation, evenly spread */
				continue;
			for (k = 0; name[k] && k + 1 < sizeof lower; k++)
				lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]);
			lower[k] = 0;
			checks++;
			if (pmregs_cat_event_find(c, t, lower) != e && check_failed())
				fprintf(stderr, "%s: %s not found by its name\n", pmregs_cat_table_name(c, t), name);
			pmregs_cat_request_init(&r, c, t, e);
			pmregs_cat_encode(&r, &a);
			pmregs_cat_perf_snprint(perf, sizeof perf, &r);
			checks++;
			/* an extra MSR perf has no format term for (Nova Lake's 0x3E0-0x3E3) cannot round-trip */
			if (e->extra < c->nextras && c->extras[e->extra].term >= c->nterms)
				nterm++;
			else if ((pmregs_cat_parse(c, t, perf, &q, &where) != PMREGS_OK || (pmregs_cat_encode(&q, &b), 0) ||
			     a.config != b.config || a.config1 != b.config1 || a.evtsel != b.evtsel ||
			     a.extra_msr != b.extra_msr || !q.event || q.event->extra != e->extra) && check_failed())
				fprintf(stderr, "%s: %s: %s does not parse back\n", pmregs_cat_table_name(c, t), name, perf);
			snprintf(raw, sizeof raw, "r%llx", (unsigned long long)(e->value & c->perf_mask));
			checks++;
			if ((pmregs_cat_parse(c, t, raw, &q, &where) != PMREGS_OK || !q.event ||
			     ((q.event->value ^ e->value) & c->perf_mask)) && check_failed())
				fprintf(stderr, "%s: %s: %s does not decode to an event like it\n", pmregs_cat_table_name(c, t),
					name, raw);
			CHECK((e->value & ~c->perf_mask) == 0);
			CHECK(e->extra == PMREGS_CAT_NONE || e->extra < c->nextras);
		}
		while ((s = pmregs_cat_search(c, t, "", s)) != 0)
			found++;
		CHECK_EQ(found, t->count);
	}
	CHECK(n == c->nevents);
	for (i = 0; i < c->naliases; i++)
		CHECK(c->aliases[i].event < c->nevents);
}

/* The lookups without the name index (nhash 0: the binary search that a catalogue with too many entries
 * for two-byte slots gets): every event's and every alias's name finds what the index finds, a miss none. */
static void test_unindexed(const struct pmregs_catalog *c)
{
	struct pmregs_catalog u = *c;
	size_t i, j;
	u.nhash = 0;
	u.hash = 0;
	for (i = 0; i < c->ntables; i++) {
		const struct pmregs_cat_table *t = &c->tables[i];
		for (j = 0; j < t->count; j += test_sparse()) {
			const struct pmregs_cat_event *e = &c->events[t->first + j];
			const char *name = pmregs_cat_event_name(c, e);
			checks++;
			if ((pmregs_cat_event_find(&u, t, name) != e || pmregs_cat_event_find(c, t, name) != e) && check_failed())
				fprintf(stderr, "%s: %s: the index and the search disagree\n", pmregs_cat_table_name(c, t), name);
		}
		for (j = 0; j < t->naliases; j++) {
			const char *name = pmregs_cat_str(c, c->aliases[t->first_alias + j].name);
			checks++;
			if ((pmregs_cat_event_find(&u, t, name) != pmregs_cat_event_find(c, t, name) ||
			     !pmregs_cat_event_find(c, t, name)) && check_failed())
				fprintf(stderr, "%s: alias %s: the index and the search disagree\n", pmregs_cat_table_name(c, t), name);
		}
		CHECK(pmregs_cat_event_find(&u, t, "no_such_event.none") == 0);
		CHECK(pmregs_cat_event_find(c, t, "no_such_event.none") == 0);
	}
}

int main(void)
{
	size_t n, i;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	for (i = 0; i < n; i++) {
		if (strcmp(d[i].catalog()->name, "x86 events") == 0)
			intel = d[i].catalog();
		if (strcmp(d[i].catalog()->name, "amd events") == 0)
			amd = d[i].catalog();
	}
	CHECK(intel && amd);
	if (!intel || !amd)
		return check_done("test_catalog");
	/* the bits the catalogues send to perf are the spec's perf_raw_config masks */
	CHECK_EQ(intel->perf_mask, pmregs_x86_perf_raw_config(~(uint64_t)0));
	CHECK_EQ(amd->perf_mask, pmregs_amd_perf_raw_config(~(uint64_t)0));
	CHECK_EQ(intel->user, PMREGS_X86_PERFEVTSEL_USR_MASK);
	CHECK_EQ(amd->host, PMREGS_AMD_PERF_CTL_HOST_ONLY_MASK);
	test_intel_names();
	test_pfm_syntax();
	test_amd();
	test_perf_syntax();
	test_cpus();
	for (i = 0; i < n; i++) { /* the core catalogues and the others (AMD L3, DF, UMC) */
		test_every_event(d[i].catalog());
		test_unindexed(d[i].catalog());
	}
	test_uncore(d, n);
	printf("test_catalog: %zu Intel and %zu AMD events in %zu + %zu tables; %zu with an extra MSR perf has no term for\n",
	       intel->nevents, amd->nevents, intel->ntables, amd->ntables, nterm);
	CHECK(nterm < 10); /* Nova Lake's four MEM_LOAD_L2_MISS_RETIRED events with MSR 0x3E0 */
	return check_done("test_catalog");
}
TEST_COLD_END
