/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* The builders are for constants; a run-time value must use the _set() accessor, which the error names.
 * expect-error: builder_takes_a_constant_call_pmregs_x86_perfevtsel_umask_set|takes a constant; for a run-time value call pmregs_x86_perfevtsel_umask_set\(\)|pmregs_const_check<false, (\w+\([^)]*\)::)?pmregs_x86_perfevtsel_umask_set> */
#include <pmregs/x86.h>
uint64_t build(uint64_t x);
uint64_t build(uint64_t x) { return PMREGS_X86_PERFEVTSEL_UMASK(x); }
