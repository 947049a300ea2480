/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* A negative constant is not a field value.
 * expect-error: pmregs_fits|does not fit its field */
#include <pmregs/x86.h>
static const uint64_t sel = PMREGS_X86_PERFEVTSEL_UMASK(-1);
int use_sel(void) { return (int)(sel & 1); }
