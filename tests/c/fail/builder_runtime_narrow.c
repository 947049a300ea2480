/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* A run-time value in a constant builder must not compile, even one narrow enough for the field
 * (a uint8_t in the 8-bit UMASK, which a compiler could prove fits), and every compiler's error
 * names the accessor to call instead.
 * expect-error: builder_takes_a_constant_call_pmregs_amd_perf_ctl_umask_set|takes a constant; for a run-time value call pmregs_amd_perf_ctl_umask_set\(\)|pmregs_const_check<false, (\w+\([^)]*\)::)?pmregs_amd_perf_ctl_umask_set> */
#include <pmregs/amd.h>
uint64_t build(uint8_t umask);
uint64_t build(uint8_t umask) { return PMREGS_AMD_PERF_CTL_UMASK(umask); }
