/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * perf_count: count an event with Linux perf_event_open, from the event-select value a driver
 * would write (an AMD PERF_CTL or an Intel IA32_PERFEVTSELx), and show what the IBS PMUs take.
 *
 * The event-select value is turned into perf_event_attr the way the kernel reads it back:
 * pmregs_<vendor>_perf_raw_config() keeps the bits attr.config carries, the exclude_* flags
 * come from USR/OS (and AMD's HostOnly/GuestOnly), and pmregs_<vendor>_perf_raw_refused()
 * names the bits perf would silently drop. Where the machine has no PMU for the event (a
 * virtual machine without a virtual PMU, a kernel without perf events) it says so and why,
 * and still exits 0: only an inconsistency in pmregs itself is a failure.
 *
 *
 * perf_count EVENT [MODEL]: count an event given by name (any syntax pmregs-decode --event takes:
 * INST_RETIRED.ANY_P, ex_ret_instr, RETIRED_INSTRUCTIONS:u, cpu/event=0xc0/, r01c0) on this processor,
 * or on MODEL's table (spr, zen4, GenuineIntel-6-8F, ...) when given: the catalogue gives the
 * event-select value, the extra MSR and every perf_event_attr field, including the PMU's type for
 * hybrid parts (cpu_core, cpu_atom: read from sysfs).
 *
 * pmregs-test: host-specific-output
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmregs/amd.h>
#include <pmregs/catalogs.h>
#include <pmregs/x86.h>
/* Linux, with the kernel's user-space headers for this target (a -m32 build may lack them) */
#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/perf_event.h>) && __has_include(<asm/errno.h>)
#define HAVE_PERF_EVENT_OPEN 1
#endif
#endif
#ifdef HAVE_PERF_EVENT_OPEN
#include <errno.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

enum vendor { VENDOR_OTHER, VENDOR_AMD, VENDOR_INTEL };

static enum vendor cpu_vendor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char id[13];
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return VENDOR_OTHER;
	memcpy(id, &b, 4);
	memcpy(id + 4, &d, 4);
	memcpy(id + 8, &c, 4);
	id[12] = 0;
	if (strcmp(id, "AuthenticAMD") == 0 || strcmp(id, "HygonGenuine") == 0)
		return VENDOR_AMD;
	if (strcmp(id, "GenuineIntel") == 0)
		return VENDOR_INTEL;
#endif
	return VENDOR_OTHER;
}

/* What the event-select value becomes in perf_event_attr. */
struct raw_event {
	const char *what;
	const char *pmu; /* sysfs PMU: "cpu" is PERF_TYPE_RAW */
	uint64_t evtsel, config, config1, config2, refused;
	int exclude_user, exclude_kernel, exclude_host, exclude_guest;
};

static void show(const struct raw_event *r)
{
	printf("%s\n  event select  0x%016llx\n  attr.config   0x%016llx  (type PERF_TYPE_RAW)\n", r->what,
	       (unsigned long long)r->evtsel, (unsigned long long)r->config);
	printf("  exclude_user=%d exclude_kernel=%d exclude_host=%d exclude_guest=%d\n", r->exclude_user,
	       r->exclude_kernel, r->exclude_host, r->exclude_guest);
	if (r->refused)
		printf("  refused bits  0x%016llx  (the kernel owns them: USR/OS are the exclude_* flags, INT comes from sampling, EN from enabling)\n",
		       (unsigned long long)r->refused);
}

#ifdef HAVE_PERF_EVENT_OPEN
static long perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

static int read_int_file(const char *path, long *out)
{
	FILE *f = fopen(path, "r");
	int ok;
	if (!f)
		return 0;
	ok = fscanf(f, "%ld", out) == 1;
	fclose(f);
	return ok;
}

/* Why perf_event_open failed, in words. */
static void explain(int err, const char *pmu)
{
	long paranoid = 0;
	printf("  perf_event_open: %s\n", strerror(err));
	switch (err) {
	case ENOENT:
	case ENODEV:
		printf("  -> no %s PMU for this event type: usually a virtual machine without a virtual PMU,\n"
		       "     or a processor the kernel's perf driver does not support (see /sys/bus/event_source/devices)\n",
		       pmu);
		break;
	case EOPNOTSUPP:
		printf("  -> the PMU exists but cannot do this (no free counter, or no sampling/exclusion support)\n");
		break;
	case EACCES:
	case EPERM:
		if (read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid))
			printf("  -> not permitted: kernel.perf_event_paranoid = %ld (2 allows user-space-only counting\n"
			       "     of your own processes; lower it or run with CAP_PERFMON)\n", paranoid);
		else
			printf("  -> not permitted (seccomp, a container, or kernel.perf_event_paranoid)\n");
		break;
	case ENOSYS:
		printf("  -> this kernel has no perf events (CONFIG_PERF_EVENTS) or a filter blocks the call\n");
		break;
	case EINVAL:
		printf("  -> the kernel refused the attributes (a config bit this PMU does not accept)\n");
		break;
	default:
		printf("  -> unexpected; see perf_event_open(2)\n");
	}
}

static volatile unsigned long sink;

static void count(const struct raw_event *r)
{
	struct perf_event_attr attr;
	unsigned long i;
	uint64_t value = 0;
	long fd;
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_RAW;
	if (r->pmu && strcmp(r->pmu, "cpu") != 0) {
		char path[128];
		long type;
		snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/type", r->pmu);
		if (!read_int_file(path, &type)) {
			printf("  no %s PMU in sysfs: this kernel does not drive that core type here\n", r->pmu);
			return;
		}
		attr.type = (uint32_t)type;
	}
	attr.config = r->config;
	attr.config1 = r->config1;
	attr.config2 = r->config2;
	attr.disabled = 1;
	attr.exclude_user = r->exclude_user ? 1 : 0;
	attr.exclude_kernel = r->exclude_kernel ? 1 : 0;
	attr.exclude_hv = 1;
	attr.exclude_host = r->exclude_host ? 1 : 0;
	attr.exclude_guest = r->exclude_guest ? 1 : 0;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		explain(errno, "cpu");
		return;
	}
	ioctl((int)fd, PERF_EVENT_IOC_RESET, 0);
	ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 1000000; i++)
		sink += i;
	ioctl((int)fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read((int)fd, &value, sizeof value) == (ssize_t)sizeof value)
		printf("  counted %llu in a loop of 1000000 iterations\n", (unsigned long long)value);
	else
		printf("  read: %s\n", strerror(errno));
	close((int)fd);
}

/* Open (and close) an IBS event: the ibs_op/ibs_fetch PMU's type number is in sysfs. */
static void try_ibs(const char *pmu, uint64_t config, uint64_t config1)
{
	char path[128];
	struct perf_event_attr attr;
	long type, fd;
	snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/type", pmu);
	if (!read_int_file(path, &type)) {
		printf("  no %s PMU in sysfs: IBS is not exposed here (a virtual machine, or no IBS)\n", pmu);
		return;
	}
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = (uint32_t)type;
	attr.config = config;
	attr.config1 = config1;
	attr.disabled = 1;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		explain(errno, pmu);
		return;
	}
	printf("  %s (type %ld) accepted the configuration\n", pmu, type);
	close((int)fd);
}
#endif

/* An event of a catalogue as perf_event_attr: every field from pmregs_cat_encode(), and the check that
 * attr.config is what the vendor family's perf_raw_config() keeps of the event-select value. */
static int from_catalog(const struct pmregs_catalog *c, const struct pmregs_cat_request *q, struct raw_event *r)
{
	struct pmregs_cat_encoding e;
	pmregs_cat_encode(q, &e);
	r->pmu = e.pmu;
	r->evtsel = e.evtsel;
	r->config = e.config;
	r->config1 = e.config1;
	r->config2 = e.config2;
	r->exclude_user = e.exclude_user;
	r->exclude_kernel = e.exclude_kernel;
	r->exclude_host = e.exclude_host;
	r->exclude_guest = e.exclude_guest;
	if (strcmp(c->layout, "perf_ctl") != 0 && strcmp(c->layout, "perfevtsel") != 0) {
		/* another PMU (AMD L3, DF, UMC): perf's config is the register less its enable bit */
		r->refused = e.evtsel & ~e.config;
		return e.config == (e.evtsel & ~c->enable) && !e.exclude_user && !e.exclude_kernel;
	}
	if (strcmp(c->family, "amd") == 0) {
		r->refused = pmregs_amd_perf_raw_refused(e.evtsel);
		return e.config == pmregs_amd_perf_raw_config(e.evtsel) &&
		       e.exclude_user == pmregs_amd_perf_exclude_user(e.evtsel) &&
		       e.exclude_kernel == pmregs_amd_perf_exclude_kernel(e.evtsel) &&
		       e.exclude_host == pmregs_amd_perf_exclude_host(e.evtsel) &&
		       e.exclude_guest == pmregs_amd_perf_exclude_guest(e.evtsel);
	}
	r->refused = pmregs_x86_perf_raw_refused(e.evtsel);
	return e.config == pmregs_x86_perf_raw_config(e.evtsel) && e.exclude_user == pmregs_x86_perf_exclude_user(e.evtsel) &&
	       e.exclude_kernel == pmregs_x86_perf_exclude_kernel(e.evtsel);
}

/* perf_event_attr for every catalogued event, checked against the families' perf functions. */
static int check_every_event(void)
{
	size_t i, j, k, n, events = 0, bad = 0;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	for (i = 0; i < n; i++) {
		const struct pmregs_catalog *c = d[i].catalog();
		for (j = 0; j < c->ntables; j++)
			for (k = 0; k < c->tables[j].count; k++) {
				struct pmregs_cat_request q;
				struct raw_event r;
				pmregs_cat_request_init(&q, c, &c->tables[j], &c->events[c->tables[j].first + k]);
				q.user = (uint8_t)(k & 1); /* both privilege choices over the run */
				events++;
				if (!from_catalog(c, &q, &r)) {
					if (bad++ < 5)
						fprintf(stderr, "perf_count: %s %s: attr.config %#llx disagrees with perf_raw_config\n",
							pmregs_cat_table_name(c, &c->tables[j]),
							pmregs_cat_event_name(c, q.event), (unsigned long long)r.config);
				}
			}
	}
	printf("perf_event_attr built for %zu catalogued events; config and exclude_* agree with the families'"
	       " perf_raw_config() (core PMUs) or the register less its enable bit (others) for %zu\n", events,
	       events - bad);
	return bad == 0;
}

/* perf_count EVENT [MODEL] */
static int count_named(const char *name, const char *model)
{
	const struct pmregs_catalog *c = 0;
	const struct pmregs_cat_table *t;
	struct pmregs_cpu_sig sig;
	struct pmregs_cat_request q;
	struct raw_event r;
	char perf[256], what[512];
	size_t where = 0;
	int rc;
	t = model ? pmregs_catalogs_table(model, &c) : pmregs_catalogs_host(&c, &sig);
	if (!t) {
		if (model)
			printf("no processor model '%s' in the catalogues (pmregs-decode --cpu lists them)\n", model);
		else if (pmregs_cpu_sig_host(&sig) != PMREGS_OK)
			printf("not an x86 processor: no catalogue applies; name a model to see the encoding\n");
		else
			printf("%s-%u-%X-%X: no catalogue table for this processor; name a model to see the encoding\n",
			       sig.vendor, sig.family, sig.model, sig.stepping);
		return model ? 3 : 0;
	}
	rc = pmregs_cat_parse(c, t, name, &q, &where);
	if (rc != PMREGS_OK) {
		printf("%s: %s at '%s' (%s)\n", name, rc == PMREGS_ENOENT ? "no such event" : "bad modifier or value",
		       name + where, pmregs_cat_table_name(c, t));
		return 3;
	}
	pmregs_cat_perf_snprint(perf, sizeof perf, &q);
	snprintf(what, sizeof what, "%s on %s (%s): %s", q.event ? pmregs_cat_event_name(c, q.event) : name,
		 pmregs_cat_table_name(c, t), pmregs_cat_str(c, t->title), perf);
	r.what = what;
	if (!from_catalog(c, &q, &r)) {
		fprintf(stderr, "perf_count: inconsistent perf mapping for %s\n", name);
		return 1;
	}
	show(&r);
	if (q.extra_msr)
		printf("  extra MSR 0x%x = 0x%llx (attr.config1 0x%llx)\n", q.extra_msr, (unsigned long long)q.extra_value,
		       (unsigned long long)r.config1);
#ifdef HAVE_PERF_EVENT_OPEN
	if (model && pmregs_cpu_sig_host(&sig) == PMREGS_OK && pmregs_cat_table_for_sig(c, &sig) != t) {
		printf("  not this processor's model (%s-%u-%X-%X): not opening it\n", sig.vendor, sig.family, sig.model,
		       sig.stepping);
		return 0;
	}
	count(&r);
#endif
	return 0;
}

int main(int argc, char **argv)
{
	struct raw_event amd, intel;
	uint64_t v, op, fetch;
	enum vendor vendor = cpu_vendor();
	if (argc > 1)
		return count_named(argv[1], argc > 2 ? argv[2] : 0);
	memset(&amd, 0, sizeof amd);
	memset(&intel, 0, sizeof intel);

	/* AMD: Linux's "instructions" on Zen (generic_events_zen1, the same on every Zen), user mode only, as a driver writes it */
	v = pmregs_amd_perf_ctl_event_select_set(0, PMREGS_AMD_GENERIC_EVENTS_ZEN1_INSTRUCTIONS_EVENT_SELECT) |
	    PMREGS_AMD_PERF_CTL_USR(1) | PMREGS_AMD_PERF_CTL_INT_EN(1) | PMREGS_AMD_PERF_CTL_EN(1);
	amd.what = "AMD PERF_CTL: instructions (event 0x0C0), USR, INT, EN";
	amd.evtsel = v;
	amd.config = pmregs_amd_perf_raw_config(v);
	amd.refused = pmregs_amd_perf_raw_refused(v);
	amd.exclude_user = pmregs_amd_perf_exclude_user(v);
	amd.exclude_kernel = pmregs_amd_perf_exclude_kernel(v);
	amd.exclude_host = pmregs_amd_perf_exclude_host(v);
	amd.exclude_guest = pmregs_amd_perf_exclude_guest(v);

	/* Intel: the architectural Instruction Retired event (SDM Table 18-1), user mode only */
	v = PMREGS_X86_PERFEVTSEL_EVENT_SELECT(PMREGS_X86_ARCH_EVENTS_INSTRUCTION_RETIRED_EVENT_SELECT) |
	    PMREGS_X86_PERFEVTSEL_UMASK(PMREGS_X86_ARCH_EVENTS_INSTRUCTION_RETIRED_UMASK) |
	    PMREGS_X86_PERFEVTSEL_USR(1) | PMREGS_X86_PERFEVTSEL_INT_EN(1) | PMREGS_X86_PERFEVTSEL_EN(1);
	intel.what = "Intel IA32_PERFEVTSELx: Instruction Retired (event 0xC0, umask 0x00), USR, INT, EN";
	intel.evtsel = v;
	intel.config = pmregs_x86_perf_raw_config(v);
	intel.refused = pmregs_x86_perf_raw_refused(v);
	intel.exclude_user = pmregs_x86_perf_exclude_user(v);
	intel.exclude_kernel = pmregs_x86_perf_exclude_kernel(v);
	intel.exclude_host = intel.exclude_guest = 0;

	/* The mapping must not lose or invent bits: what is refused plus what config carries is the whole value
	 * minus the bits the exclude_* flags express. */
	if ((amd.config | amd.refused) != amd.evtsel || (amd.config & amd.refused) != 0 ||
	    (intel.config | intel.refused) != intel.evtsel || amd.config != 0xC0 || intel.config != 0xC0) {
		fprintf(stderr, "perf_count: inconsistent perf mapping\n");
		return 1;
	}

	/* IBS: sample every 0x10000 dispatched ops, and fetches every 0x10000 fetches with randomisation */
	op = pmregs_amd_ibs_op_set_period(PMREGS_AMD_IBS_OP_CTL_CNT_CTL(1) | PMREGS_AMD_IBS_OP_CTL_EN(1), 0x10000);
	fetch = PMREGS_AMD_IBS_FETCH_CTL_MAX_CNT(0x1000) | PMREGS_AMD_IBS_FETCH_CTL_RAND_EN(1) |
		PMREGS_AMD_IBS_FETCH_CTL_EN(1);

	if (!check_every_event())
		return 1;
	printf("\n");
	show(&amd);
	printf("\n");
	show(&intel);
	printf("\nAMD IBS: IbsOpCtl 0x%016llx -> ibs_op config 0x%llx config1 0x%llx (refused 0x%llx: En)\n",
	       (unsigned long long)op, (unsigned long long)pmregs_amd_ibs_op_perf_config(op),
	       (unsigned long long)pmregs_amd_ibs_op_perf_config1(op),
	       (unsigned long long)pmregs_amd_ibs_op_perf_refused(op));
	printf("         IbsFetchCtl 0x%016llx -> ibs_fetch config 0x%llx (refused 0x%llx: En)\n",
	       (unsigned long long)fetch, (unsigned long long)pmregs_amd_ibs_fetch_perf_config(fetch),
	       (unsigned long long)pmregs_amd_ibs_fetch_perf_refused(fetch));

#ifdef HAVE_PERF_EVENT_OPEN
	printf("\nThis processor: %s\n", vendor == VENDOR_AMD ? "AMD" : vendor == VENDOR_INTEL ? "Intel" : "not x86");
	if (vendor == VENDOR_OTHER) {
		printf("  raw x86 event codes mean nothing to this processor's PMU; not opening them\n");
		return 0;
	}
	count(vendor == VENDOR_AMD ? &amd : &intel);
	if (vendor == VENDOR_AMD) {
		try_ibs("ibs_op", pmregs_amd_ibs_op_perf_config(op), pmregs_amd_ibs_op_perf_config1(op));
		try_ibs("ibs_fetch", pmregs_amd_ibs_fetch_perf_config(fetch), 0);
	}
#else
	(void)vendor;
	printf("\nbuilt without Linux's <linux/perf_event.h> for this target: not opening events\n");
#endif
	return 0;
}
