/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Event-catalogue costs (`make bench`): the bytes of each catalogue's data, and lookups by name (the
 * generated hash index) measured side by side with a plain linear scan over the same table (what a
 * tool without an index does). The names are every event of every table with a random case, in a shuffled order
 * that repeats nothing, so no branch predictor learns the stream. Never a pass/fail test.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <pmregs/catalogs.h>

#define TEST_SEED 0x2545F4914F6CDD1Du
#include "../common/xorshift.h"

/* CPU time of this thread: on a machine shared with other work, wall time would measure the others too */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MAXQ 40000

struct query {
	const struct pmregs_catalog *c;
	const struct pmregs_cat_table *t;
	char name[160];
};
static struct query q[MAXQ];
static volatile uintptr_t sink;

/* The baseline: the first event of t whose name equals name ignoring case, scanning every row. */
static const struct pmregs_cat_event *linear_scan(const struct pmregs_catalog *c, const struct pmregs_cat_table *t,
					     const char *name)
{
	size_t i;
	for (i = 0; i < t->count; i++)
		if (pmregs_cat_cmp(name, (size_t)-1, pmregs_cat_str(c, c->events[t->first + i].name), 0) == 0)
			return &c->events[t->first + i];
	return 0;
}

static double min(double a, double b)
{
	return a < b ? a : b;
}

static size_t bytes(const struct pmregs_catalog *c, size_t *descs)
{
	*descs = c->ndescs * PMREGS_CAT_CHUNK;
	return c->npool * PMREGS_CAT_CHUNK + c->ntables * sizeof c->tables[0] + c->nevents * sizeof c->events[0] +
	       c->naliases * sizeof c->aliases[0] + c->nextras * sizeof c->extras[0] + c->ncpus * sizeof c->cpus[0] +
	       (c->nhash + PMREGS_CAT_HASH_ROW - 1) / PMREGS_CAT_HASH_ROW * sizeof c->hash[0];
}

int main(void)
{
	size_t n, i, j, k, nq = 0, miss = 0, rep;
	const struct pmregs_catalog_entry *d = pmregs_catalogs(&n);
	double t0, t_find, t_lin, t_parse;
	printf("%-20s %7s %7s %10s %12s %s\n", "catalogue", "tables", "events", "data bytes", "descriptions",
	       "(strings shared by every table; descriptions left out with PMREGS_NO_DESCRIPTIONS)");
	for (i = 0; i < n; i++) {
		const struct pmregs_catalog *c = d[i].catalog();
		size_t db, b = bytes(c, &db);
		printf("%-20s %7zu %7zu %10zu %12zu\n", c->name, c->ntables, c->nevents, b, db);
		for (j = 0; j < c->ntables; j++)
			for (k = 0; k < c->tables[j].count && nq < MAXQ; k++) {
				const char *s = pmregs_cat_event_name(c, &c->events[c->tables[j].first + k]);
				size_t m;
				q[nq].c = c;
				q[nq].t = &c->tables[j];
				for (m = 0; s[m] && m + 1 < sizeof q[nq].name; m++) {
					char ch = s[m];
					if (rnd() & 1)
						ch = (char)(ch >= 'a' && ch <= 'z' ? ch - 32 : ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
					q[nq].name[m] = ch;
				}
				q[nq].name[m] = 0;
				nq++;
			}
	}
	for (i = nq; i > 1; i--) { /* shuffle */
		struct query tmp;
		j = (size_t)(rnd() % i);
		tmp = q[i - 1];
		q[i - 1] = q[j];
		q[j] = tmp;
	}
	t_find = t_lin = t_parse = 1e9;
	for (rep = 0; rep < 3; rep++) { /* the best of three runs of each: the machine may be busy */
		t0 = now();
		for (i = 0; i < nq; i++) {
			const struct pmregs_cat_event *e = pmregs_cat_event_find(q[i].c, q[i].t, q[i].name);
			miss += !e;
			sink += (uintptr_t)e;
		}
		t_find = min(t_find, now() - t0);
		t0 = now();
		for (i = 0; i < nq; i++)
			sink += (uintptr_t)linear_scan(q[i].c, q[i].t, q[i].name);
		t_lin = min(t_lin, now() - t0);
		t0 = now();
		for (i = 0; i < nq; i++) {
			struct pmregs_cat_request r;
			size_t where;
			sink += (uintptr_t)pmregs_cat_parse(q[i].c, q[i].t, q[i].name, &r, &where);
		}
		t_parse = min(t_parse, now() - t0);
	}
	printf("\n%zu lookups by name (every event of every table, random case, shuffled); %zu not found\n", nq, miss);
	printf("%-44s %10s %8s\n", "", "CPU ns/lookup", "ratio");
	printf("%-44s %10.0f %7.2fx\n", "pmregs_cat_event_find (hash index)", 1e9 * t_find / (double)nq, 1.0);
	printf("%-44s %10.0f %7.2fx\n", "pmregs_cat_parse (name, then the syntaxes)", 1e9 * t_parse / (double)nq,
	       t_parse / t_find);
	printf("%-44s %10.0f %7.2fx\n", "linear scan, same comparison", 1e9 * t_lin / (double)nq, t_lin / t_find);
	return miss != 0;
}
