/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for the event-catalogue parser (pmregs_cat_parse(): every syntax) and printer
 * (pmregs_cat_perf_snprint()), under ASan and UBSan.
 *
 * Input: which table (1 byte), then the request text (NUL-terminated copy in an exact-size
 * allocation). A request that parses is encoded and printed; the perf string must parse back to
 * the same register value, extra MSR value and privilege bits, and printing into buffers of 0 to
 * 32 bytes must follow snprintf's convention (the same length, exactly min(L, n - 1) characters).
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-runs: 20000
 * pmregs-fuzz-opt: -O0
 * pmregs-fuzz-cmp: off (edges reached in 20000 runs, seeds 1 and 3: 324, 334 with it, 327, 329
 *   without)
 * pmregs-fuzz-share: tools (pmregs-decode's build has the catalogue code)
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/catalogs.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	size_t n, i, where = 0, len;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	const struct pmregs_catalog *c;
	const struct pmregs_cat_table *t;
	struct pmregs_cat_request r, q;
	struct pmregs_cat_encoding a, b;
	char full[512], *s;
	size_t pick, total = 0;
	if (size < 1)
		return 0;
	for (i = 0; i < n; i++)
		total += d[i].catalog()->ntables;
	pick = data[0] % total;
	for (i = 0;; i++) {
		c = d[i].catalog();
		if (pick < c->ntables)
			break;
		pick -= c->ntables;
	}
	t = &c->tables[pick];
	s = (char *)malloc(size);
	REQUIRE(s);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	if (pmregs_cat_parse(c, t, s, &r, &where) != PMREGS_OK) {
		REQUIRE(where <= strlen(s));
		free(s);
		return 0;
	}
	free(s);
	pmregs_cat_encode(&r, &a);
	len = pmregs_cat_perf_snprint(full, sizeof full, &r);
	REQUIRE(len < sizeof full && strlen(full) == len);
	for (n = 0; n <= 32; n++) {
		char *buf = (char *)malloc(n ? n : 1);
		size_t k = len < n ? len : (n ? n - 1 : 0);
		REQUIRE(buf);
		REQUIRE(pmregs_cat_perf_snprint(n ? buf : 0, n, &r) == len);
		if (n)
			REQUIRE(memcmp(buf, full, k) == 0 && buf[k] == 0);
		free(buf);
	}
	/* the perf string says the same (config1/config2 set by terms only; an MSR perf has no term for aside) */
	if (r.extra_term != PMREGS_CAT_NONE || !r.extra_msr) {
		REQUIRE(pmregs_cat_parse(c, t, full, &q, &where) == PMREGS_OK);
		pmregs_cat_encode(&q, &b);
		REQUIRE(a.config == b.config && a.evtsel == b.evtsel && a.exclude_user == b.exclude_user &&
			a.exclude_kernel == b.exclude_kernel && a.exclude_host == b.exclude_host &&
			a.exclude_guest == b.exclude_guest);
		REQUIRE(r.extra_term == PMREGS_CAT_NONE || a.config1 == b.config1 || a.config2 == b.config2);
	}
	return 0;
}
