/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * FUZZ_ORACLE_BEGIN ... FUZZ_ORACLE_END around a fuzz target's own checking code: a
 * reference model, the loops that record and compare results. clang builds the
 * functions defined between them without SanitizerCoverage (no edge counters,
 * no comparison hooks): libFuzzer is steered by the code under test alone, and
 * the checking code, which compares every item of every run, no longer spends
 * most of a run in the hooks. ASan and UBSan still check it.
 *
 * Only for code that calls no pmregs function: what the compiler inlines into
 * such a function is built without coverage too. A function of the region that
 * the target's covered code calls directly is marked FUZZ_ORACLE_CALL (not
 * inlined: inlined into covered code, it would be covered there).
 */
#ifndef PMREGS_TEST_FUZZ_ORACLE_H
#define PMREGS_TEST_FUZZ_ORACLE_H
#if defined(__clang__)
#define FUZZ_ORACLE_BEGIN _Pragma("clang attribute push(__attribute__((no_sanitize(\"coverage\"))), apply_to = function)")
#define FUZZ_ORACLE_END _Pragma("clang attribute pop")
#define FUZZ_ORACLE_CALL __attribute__((noinline))
#else
#define FUZZ_ORACLE_CALL
#define FUZZ_ORACLE_BEGIN
#define FUZZ_ORACLE_END
#endif
#endif
