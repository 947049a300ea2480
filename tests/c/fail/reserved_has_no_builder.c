/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* Reserved bits get masks but no builder or setter: they cannot be set by name.
 * expect-error: PMREGS_X86_DEBUGCTL_RSVD_5_3 */
#include <pmregs/x86.h>
static const uint64_t v = PMREGS_X86_DEBUGCTL_RSVD_5_3(1);
int use_v(void) { return (int)(v & 1); }
