/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The hand-written base on its own: <pmregs/base_core.h> alone is enough for
 * the error codes and pmregs_strerror(), and every code has its own message.
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/base_core.h>

static int failures, checks;
#define CHECK(c) do { checks++; if (!(c)) { failures++; fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)

static void strerror_messages(void)
{
	static const int codes[] = { PMREGS_ERANGE, PMREGS_EINVAL, PMREGS_ETRUNC, PMREGS_ETOOLONG,
				     PMREGS_ENOSPC, PMREGS_ENOENT, PMREGS_EBUSY };
	const unsigned n = (unsigned)(sizeof codes / sizeof codes[0]);
	unsigned i, j;
	for (i = 0; i < n; i++) {
		const char *m = pmregs_strerror(codes[i]);
		CHECK(m != NULL && m[0] != '\0');
		CHECK(strcmp(m, pmregs_strerror(PMREGS_OK)) != 0);
		CHECK(strcmp(m, pmregs_strerror(-1000)) != 0);
		for (j = 0; j < i; j++)
			CHECK(strcmp(m, pmregs_strerror(codes[j])) != 0);
	}
	CHECK(strcmp(pmregs_strerror(PMREGS_ERANGE), "value does not fit its field") == 0);
	CHECK(strcmp(pmregs_strerror(PMREGS_OK), "success") == 0);
	CHECK(strcmp(pmregs_strerror(3), "success") == 0); /* a count */
	CHECK(strcmp(pmregs_strerror(-8), "unknown error") == 0);
	CHECK(strcmp(pmregs_strerror(-2147483647 - 1), "unknown error") == 0);
}

int main(void)
{
	strerror_messages();
	printf("base: %d checks, %d failures\n", checks, failures);
	return failures != 0;
}
