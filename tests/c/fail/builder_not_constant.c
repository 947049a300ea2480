/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* The builders are for constants; a run-time value must use the _set() accessor.
 * expect-error: bit-field|constant|template argument */
#include <pmregs/x86.h>
uint64_t build(uint64_t x) { return PMREGS_X86_PERFEVTSEL_UMASK(x); }
