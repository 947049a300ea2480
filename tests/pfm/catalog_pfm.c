/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Cross-check of the event catalogues (<pmregs/catalogs.h>) against libpfm4, live: for every table
 * that libpfm4 has a core PMU for (forced with LIBPFM_FORCE_PMU, so no matching CPU is needed), every
 * catalogue event is encoded by libpfm4 under its libpfm4 name and compared with the catalogue's
 * register value on the bits perf's config carries (event, unit masks, edge, inv, cmask, any, in_tx,
 * in_tx_cp, eq) and, where libpfm4 returns one, the extra MSR value.
 *
 * Names: an Intel event EVENT.UMASK is libpfm4's EVENT:UMASK (then EVENT:U1:U2 for EVENT.U1.U2); an
 * AMD event is tried under each of its libpfm4 aliases (the import took them from libpfm4 by encoding,
 * so this part re-checks the import against the live library).
 *
 * Every disagreement must fall into one of the classes spec/x86.yaml lists next to its catalogue
 * (C1-C5, recognised by the rules in classify()); any other one fails the check, and so does a change
 * in how many fall into each class (the counts below are libpfm4 4.13's, Debian 12): a new libpfm4
 * or new vendor data needs its disagreements looked at again and the counts updated with the evidence.
 * The counts per table are printed: events, agreements, disagreements by class, events libpfm4 lacks.
 */
#define _POSIX_C_SOURCE 200112L
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/catalogs.h>

/* catalogue table -> libpfm4 4.13 core PMU (libpfm4's own PMU names; tables not listed have none) */
static const char *const pmu_map[][2] = {
	{"nhm-ep", "nhm"}, {"nhm-ex", "nhm_ex"}, {"wsm-ep-sp", "wsm"}, {"wsm-ep-dp", "wsm_dp"}, {"snb", "snb"},
	{"jkt", "snb_ep"}, {"ivb", "ivb"}, {"ivt", "ivb_ep"}, {"hsw", "hsw"}, {"hsx", "hsw_ep"}, {"bdw", "bdw"},
	{"bdx", "bdw_ep"}, {"skl", "skl"}, {"skx", "skx"}, {"clx", "clx"}, {"knl", "knl"}, {"slm", "slm"},
	{"glm", "glm"}, {"snr", "tmt"}, {"icl", "icl"}, {"icx", "icx"}, {"spr", "spr"}, {"bnl", "atom"},
	{"zen1", "amd64_fam17h_zen1"}, {"zen2", "amd64_fam17h_zen2"}, {"zen3", "amd64_fam19h_zen3"},
	{"zen4", "amd64_fam19h_zen4"},
};

enum { AGREE, C1, C2, C3, C4, C5, UNEXPLAINED, NCLASS };
static const char *const class_name[NCLASS] = {"agree", "C1", "C2", "C3", "C4", "C5", "unexplained"};
/* how many disagreements of each class libpfm4 4.13 has with the imported data (see the top comment) */
static const long pinned[NCLASS] = {0, 14, 11, 69, 16, 5, 0};

static int failures;
static long total[NCLASS], total_events, total_lacks;

/* libpfm4's encoding of "pmu::name" for user and kernel: codes[0] and, if any, codes[1]. */
static int encode(const char *pmu, const char *name, uint64_t *v, uint64_t *extra, int *n)
{
	pfm_pmu_encode_arg_t arg;
	char spec[512];
	int ret;
	snprintf(spec, sizeof spec, "%s::%s", pmu, name);
	memset(&arg, 0, sizeof arg);
	arg.size = sizeof arg;
	ret = pfm_get_os_event_encoding(spec, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (ret != PFM_SUCCESS || arg.count < 1)
		return -1;
	*v = arg.codes[0];
	*extra = arg.count > 1 ? arg.codes[1] : 0;
	*n = arg.count;
	free(arg.codes);
	return 0;
}

/*
 * Which class a disagreement is in (spec/x86.yaml, catalogue events, "libpfm4 disagreements"):
 *   C1  a pseudo-encoding on one side: event 0x00 stands for a fixed counter (Intel's data and perf:
 *       umask 0x01-0x04 = fixed counter 0-3) or, in libpfm4, for a PERF_METRICS slot; the other side
 *       gives the general-counter event or none
 *   C2  same event and unit mask, another counter mask, invert or edge: a cycle-counting idiom written
 *       two ways (Intel CounterMask 16 with Invert, libpfm4 c=10 with i; Intel counts cycles with
 *       CounterMask 1 where libpfm4 counts events; libpfm4 adds c=1 to an edge-detect event)
 *   C3  same event, another unit mask: libpfm4's table differs from Intel's current data (the
 *       architectural umask 0x00 against a model's 0x01/0x04; L2_RQSTS hit masks that Intel changed;
 *       MOVE_ELIMINATION's two masks swapped; Bonnell's agent and prefetch bits)
 *   C4  same register value, another extra-MSR value: libpfm4 builds the offcore response from its
 *       own request bits (0x33 for ANY_DATA) where Intel's data gives 0x11
 *   C5  another event code, neither a pseudo-encoding: MACRO_INSTS 0xA6 (Intel) vs 0xD0, icl/icx
 *       MEM_LOAD_MISC_RETIRED 0xD4 vs 0xC4, Bonnell BR_INST_RETIRED.MISPRED 0xC5 vs 0xC4
 * pmregs follows the vendor's data in every class: the catalogue is Intel's file, row for row.
 */
static int classify(const struct pmregs_catalog *c, const struct pmregs_cat_event *e, uint64_t lib, uint64_t lib_extra,
		    int nlib, uint64_t *want_out)
{
	uint64_t m = c->perf_mask, want = e->value & m, got = lib & m;
	uint64_t ev = c->terms[0].nparts ? pmregs_cat_term_mask(&c->terms[0]) : 0xFF;
	uint64_t um = pmregs_cat_term_mask(&c->terms[1]);
	const struct pmregs_cat_extra *x = e->extra < c->nextras ? &c->extras[e->extra] : 0;
	*want_out = want;
	if (want == got && (!x || nlib < 2 || lib_extra == x->value))
		return AGREE;
	if (want == got)
		return C4;
	if ((want & ev) != (got & ev))
		return (want & ev) == 0 || (got & ev) == 0 ? C1 : C5;
	if ((want & um) == (got & um))
		return C2;
	return C3;
}

static void check_table(const struct pmregs_catalog *c, const struct pmregs_cat_table *t, const char *pmu)
{
	long cls[NCLASS], lacks = 0;
	size_t i, k;
	memset(cls, 0, sizeof cls);
	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	if (pfm_initialize() != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize failed for %s\n", pmu);
		failures++;
		return;
	}
	for (i = 0; i < t->count; i++) {
		const struct pmregs_cat_event *e = &c->events[t->first + i];
		const char *name = pmregs_cat_event_name(c, e);
		char cand[3][256];
		int ncand = 0, found = 0, nlib = 0, cl;
		uint64_t lib = 0, lib_extra = 0, want;
		if (strcmp(c->vendor_id, "AuthenticAMD") == 0) {
			for (k = 0; k < t->naliases && ncand < 3; k++)
				if (&c->events[c->aliases[t->first_alias + k].event] == e)
					snprintf(cand[ncand++], sizeof cand[0], "%s",
						 pmregs_cat_str(c, c->aliases[t->first_alias + k].name));
		} else if (strlen(name) < sizeof cand[0]) {
			char *dot;
			snprintf(cand[0], sizeof cand[0], "%s", name);
			if ((dot = strchr(cand[0], '.')) != 0) {
				*dot = ':';
				strcpy(cand[1], cand[0]);
				while ((dot = strchr(cand[1], '.')) != 0)
					*dot = ':';
				ncand = strcmp(cand[0], cand[1]) ? 2 : 1;
			} else {
				ncand = 1;
			}
		}
		for (k = 0; k < (size_t)ncand && !found; k++)
			found = encode(pmu, cand[k], &lib, &lib_extra, &nlib) == 0;
		if (!found) {
			lacks++;
			continue;
		}
		cl = classify(c, e, lib, lib_extra, nlib, &want);
		if (cl != AGREE && cl != C4 && (lib_extra != 0) != (e->extra < c->nextras) && nlib >= 2)
			cl = UNEXPLAINED; /* an extra MSR on one side only is no known class */
		cls[cl]++;
		if (cl == UNEXPLAINED || getenv("CATALOG_PFM_VERBOSE"))
			fprintf(cl == UNEXPLAINED ? stderr : stdout, "  %s %s %s: catalogue %#llx, libpfm4 %s -> %#llx"
				" (extra %#llx)\n", class_name[cl], pmregs_cat_table_name(c, t), name,
				(unsigned long long)want, cand[k - 1], (unsigned long long)lib, (unsigned long long)lib_extra);
	}
	printf("catalog_pfm: %-9s (%s): %4u events, %4ld agree", pmregs_cat_table_name(c, t), pmu, (unsigned)t->count,
	       cls[AGREE]);
	for (k = C1; k < NCLASS; k++)
		if (cls[k])
			printf(", %s %ld", class_name[k], cls[k]);
	printf(", libpfm4 lacks %ld\n", lacks);
	for (k = 0; k < NCLASS; k++)
		total[k] += cls[k];
	total_events += (long)t->count;
	total_lacks += lacks;
	if (cls[UNEXPLAINED])
		failures++;
	if (cls[AGREE] < 10) {
		fprintf(stderr, "%s: only %ld agreements: the name mapping or the PMU is wrong\n",
			pmregs_cat_table_name(c, t), cls[AGREE]);
		failures++;
	}
}

int main(void)
{
	size_t i, k, n;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	for (i = 0; i < sizeof pmu_map / sizeof pmu_map[0]; i++) {
		const struct pmregs_catalog *c = 0;
		const struct pmregs_cat_table *t = 0;
		for (k = 0; k < n && !t; k++) {
			c = d[k].catalog();
			t = pmregs_cat_table_find(c, pmu_map[i][0]);
		}
		if (!t) {
			fprintf(stderr, "no catalogue table %s\n", pmu_map[i][0]);
			failures++;
			continue;
		}
		check_table(c, t, pmu_map[i][1]);
	}
	printf("catalog_pfm: %ld events in %u tables libpfm4 has: %ld agree", total_events,
	       (unsigned)(sizeof pmu_map / sizeof pmu_map[0]), total[AGREE]);
	for (k = C1; k < NCLASS; k++)
		printf(", %s %ld", class_name[k], total[k]);
	printf(", libpfm4 lacks %ld\n", total_lacks);
	for (k = C1; k < NCLASS; k++)
		if (total[k] != pinned[k]) {
			fprintf(stderr, "class %s: %ld disagreements, %ld pinned: look at them again (CATALOG_PFM_VERBOSE=1)\n",
				class_name[k], total[k], pinned[k]);
			failures++;
		}
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
