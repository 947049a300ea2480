/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_plan_tools.h - recognising the events that control-register values program,
 * with the option tables of base_plan.h: what the decoders of the generated `passes`
 * construct call. Each <pmregs/FAMILY_tools.h> of a family with passes includes it; a
 * driver's <pmregs/FAMILY.h>, which only encodes, does not.
 */
#ifndef PMREGS_BASE_PLAN_TOOLS_H
#define PMREGS_BASE_PLAN_TOOLS_H

#include "base_plan.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* Whether every write of option o holds in the control register values regs[]. */
static inline int pmregs_pm_option_matches(const struct pmregs_pm_table *t, unsigned o, const uint64_t *regs)
{
	unsigned k;
	const struct pmregs_pm_option *op = &t->options[o];
	for (k = op->first_write; k < (unsigned)op->first_write + op->nwrites; k++)
		if ((regs[t->writes[k].slot] & t->writes[k].mask) != t->writes[k].value)
			return 0;
	return 1;
}

/* The event that regs[] program on `counter` of `model`, or PMREGS_ENOENT when none does. */
static inline int pmregs_pm_match(const struct pmregs_pm_table *t, unsigned model, const uint64_t *regs, unsigned counter)
{
	unsigned o;
	for (o = 0; o < t->noptions; o++)
		if (t->options[o].counter == counter && pmregs_pm_option_on(&t->options[o], model) &&
		    pmregs_pm_option_matches(t, o, regs))
			return t->options[o].event;
	return PMREGS_ENOENT;
}

/*
 * The event regs[] program on each of counters 0..n-1 (n <= 64) of `model`, in
 * one walk over the options: ev[c] is the event, or PMREGS_ENOENT when none is.
 */
static inline void pmregs_pm_match_all(const struct pmregs_pm_table *t, unsigned model, const uint64_t *regs,
				       int *ev, unsigned n)
{
	unsigned o, c;
	uint64_t open = 0;
	for (c = 0; c < n; c++) {
		ev[c] = PMREGS_ENOENT;
		open |= (uint64_t)1 << c;
	}
	for (o = 0; o < t->noptions && open; o++) {
		c = t->options[o].counter;
		if (c < n && ((open >> c) & 1u) && pmregs_pm_option_on(&t->options[o], model) &&
		    pmregs_pm_option_matches(t, o, regs)) {
			ev[c] = t->options[o].event;
			open &= ~((uint64_t)1 << c);
		}
	}
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_PLAN_TOOLS_H */
