/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* A value too wide for a field's total width fails even where the builder places parts.
 * expect-error: pmregs_fits|does not fit its field */
#include <pmregs/x86.h>
static const uint64_t v = PMREGS_X86_FIXED_CTR_CTRL_EN0(4);
int use_v(void) { return (int)(v & 1); }
