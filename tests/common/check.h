/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The C tests' checks. CHECK(cond) and CHECK_EQ(a, b) count every check and
 * report each failure with its file and line (the first CHECK_REPORT_MAX of
 * them: after that they are only counted); check_done(name) prints the totals
 * and returns main's exit status. A file may set CHECK_REPORT_MAX before
 * including this.
 */
#ifndef PMREGS_TEST_CHECK_H
#define PMREGS_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#ifndef CHECK_REPORT_MAX
#define CHECK_REPORT_MAX 40
#endif

static unsigned long failures, checks;

/* Count a failed check; true while it should still be reported. */
static inline int check_failed(void)
{
	return ++failures <= CHECK_REPORT_MAX;
}

#define CHECK(cond)                                                                             \
	do {                                                                                    \
		checks++;                                                                       \
		if (!(cond) && check_failed())                                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} while (0)

/* Equality as unsigned 64-bit values, printing both on failure. */
#define CHECK_EQ(a, b)                                                                               \
	do {                                                                                         \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);       \
		checks++;                                                                            \
		if (a_ != b_ && check_failed())                                                      \
			fprintf(stderr, "%s:%d: %s = %#llx, expected %#llx\n", __FILE__, __LINE__, #a, a_, b_); \
	} while (0)

/*
 * test_scale(n): how many random rounds to run: n, or n divided by the environment variable
 * PMREGS_TEST_SCALE when it is set (at least 1). make check sets it for the sanitizer, the 32-bit
 * and the emulated big-endian runs, and compares the output of the last two with a native run at
 * the same scale.
 */
/* the divisor an environment variable sets: its value, 1 when it is unset or 0 */
static inline unsigned long test_env_divisor(const char *name)
{
	const char *s = getenv(name);
	unsigned long div = s ? strtoul(s, NULL, 10) : 1;
	return div ? div : 1;
}

static inline unsigned long test_scale(unsigned long n)
{
	static unsigned long div;
	if (div == 0)
		div = test_env_divisor("PMREGS_TEST_SCALE");
	return n / div ? n / div : 1;
}

/*
 * test_sparse(): 1, or the environment variable PMREGS_TEST_SPARSE when it is set (at least 1).
 * make check sets it for the emulated big-endian run only, whose point is the byte order: the
 * exhaustive sweeps and fixed-size loops that use it there visit an evenly spread 1/test_sparse()
 * of their cases (the native, sanitizer and 32-bit runs visit every one). That run's output is
 * compared with a native run with the same setting.
 */
static inline unsigned long test_sparse(void)
{
	static unsigned long div;
	if (div == 0)
		div = test_env_divisor("PMREGS_TEST_SPARSE");
	return div;
}

/*
 * TEST_COLD_BEGIN ... TEST_COLD_END: a stretch of a test's own code that runs a fixed, short while
 * (worked examples, table walks, error cases: not its random rounds), compiled with little
 * optimisation in an optimised build: gcc -Og, clang none (optnone). The headers' functions the
 * stretch calls keep the build's optimisation (they are defined before it, and are called, not
 * inlined), as do the sanitizers' checks, which an optnone function gets too; the stretch's own
 * code was most of the optimiser's work in the E-Trace tests. Nothing checked depends on how the
 * test's own code is optimised. Unoptimised builds (-O0) are left as they are.
 */
#if defined(__clang__) && defined(__OPTIMIZE__)
#define TEST_COLD_BEGIN _Pragma("clang optimize off")
#define TEST_COLD_END _Pragma("clang optimize on")
#elif defined(__GNUC__) && defined(__OPTIMIZE__)
#define TEST_COLD_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize (\"Og\")")
#define TEST_COLD_END _Pragma("GCC pop_options")
#else
#define TEST_COLD_BEGIN
#define TEST_COLD_END
#endif

static inline int check_done(const char *name)
{
	printf("%s: %lu checks, %lu failed\n", name, checks, failures);
	if (failures > CHECK_REPORT_MAX)
		fprintf(stderr, "%s: only the first %d failures were reported\n", name, CHECK_REPORT_MAX);
	return failures != 0;
}

#endif
