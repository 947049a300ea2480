/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* A constant wider than its field must not compile: CMASK is 8 bits (SDM3 Fig 18-1).
 * expect-error: pmregs_fits|does not fit its field */
#include <pmregs/x86.h>
static const uint64_t sel = PMREGS_X86_PERFEVTSEL_CMASK(0x100);
int use_sel(void) { return (int)(sel & 1); }
