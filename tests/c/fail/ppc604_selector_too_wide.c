/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* On the 604/604e only the low 5 bits of PMC1SELECT select an event (UM604 p.373):
 * selector 0x20 does not fit the 604 layout's pmc1sel and must not compile.
 * expect-error: pmregs_fits|does not fit its field */
#include <pmregs/ppc604.h>
static const uint32_t mmcr0 = PMREGS_PPC604_MMCR0_604_PMC1SEL(0x20);
int use_mmcr0(void) { return (int)(mmcr0 & 1); }
