/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* A split field's builder (the 12-bit AMD event select, bits 35:32 and 7:0) refuses a run-time value
 * the same way, naming its accessor.
 * expect-error: builder_takes_a_constant_call_pmregs_amd_perf_ctl_event_select_set|takes a constant; for a run-time value call pmregs_amd_perf_ctl_event_select_set\(\)|pmregs_const_check<false, (\w+\([^)]*\)::)?pmregs_amd_perf_ctl_event_select_set> */
#include <pmregs/amd.h>
uint64_t build(uint16_t event);
uint64_t build(uint16_t event) { return PMREGS_AMD_PERF_CTL_EVENT_SELECT(event & 0xfff); }
