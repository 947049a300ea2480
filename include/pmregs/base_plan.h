/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_plan.h - programming several events at once: counters, selector registers, passes.
 *
 * The family-independent planner behind the generated `passes` construct; the
 * search itself is pmregs_schedule() (base_schedule.h). Recognising events in
 * control-register values again (decoding) is in base_plan_tools.h.
 */
#ifndef PMREGS_BASE_PLAN_H
#define PMREGS_BASE_PLAN_H

#include "base_core.h"
#include "base_schedule.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* ---- programming several events at once: counters, shared selector registers, passes ---- */

/*
 * A family's generated "passes" construct describes, as constant data, how each
 * event can be counted: on which counter, taking which exclusive resources, and
 * which bits of which control register (a "slot") that writes. The functions
 * below use only that data: they place a list of events in as few passes as
 * possible (pmregs_schedule() does the search); those of base_plan_tools.h
 * recognise events in control register values again. Nothing here knows a family.
 */
/* (Members go widest first, then explicit padding: no implicit padding anywhere.) */
struct pmregs_pm_write {
	uint64_t mask;  /* the bits written */
	uint64_t value; /* their new value (within mask) */
	uint8_t slot;   /* control register of the pass */
	uint8_t pmregs_pad[7]; /* unused: the struct's size without implicit padding */
};

struct pmregs_pm_option {
	uint64_t resources;   /* exclusive resources taken (bit r) */
	uint32_t models;      /* bit m: exists on CPU model m */
	uint16_t event;       /* row of the family's event table */
	uint16_t first_write;
	uint8_t counter;      /* counter that counts it */
	uint8_t nwrites;      /* writes[first_write .. first_write + nwrites) */
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};

struct pmregs_pm_table {
	const uint16_t *first; /* options of event e: first[e] .. first[e + 1] - 1 */
	const struct pmregs_pm_option *options;
	const struct pmregs_pm_write *writes;
	uint16_t nevents;
	uint16_t noptions;
	uint8_t pmregs_pad[4]; /* unused: the struct's size without implicit padding */
};

/* An event counted in every pass (a trigger, a correlate or a sampling event). */
struct pmregs_pm_pin {
	uint32_t counters; /* bit c: counter c may take it */
	uint16_t event;
	uint8_t pmregs_pad[2]; /* unused: the struct's size without implicit padding */
};

#define PMREGS_PM_NOT_COUNTED (-1) /* pass of an event no counter of the model can take */
#define PMREGS_PM_EVERY_PASS  (-2) /* pass of a pinned event */
#define PMREGS_PM_MAX_OPTIONS 16   /* options of one event considered */
#define PMREGS_PM_MAX_PINS    4

struct pmregs_pm_place {
	int16_t pass;   /* 0-based pass, PMREGS_PM_EVERY_PASS or PMREGS_PM_NOT_COUNTED */
	int16_t option; /* index into the table's options, or -1 */
};

/* Scratch space for pmregs_pm_plan(): the caller provides it, so the planner needs no heap and is reentrant. */
struct pmregs_pm_work {
	struct pmregs_sched_request req[PMREGS_SCHED_MAX];
	struct pmregs_sched_assign out[PMREGS_SCHED_MAX];
	uint64_t res[PMREGS_SCHED_MAX][PMREGS_PM_MAX_OPTIONS];
	uint16_t opt[PMREGS_SCHED_MAX][PMREGS_PM_MAX_OPTIONS];
	uint8_t who[PMREGS_SCHED_MAX]; /* request k serves events[who[k]] */
};

/* 1 when option o exists on CPU model `model` (bit `model` of its models), else 0. */
static inline int pmregs_pm_option_on(const struct pmregs_pm_option *o, unsigned model)
{
	return model < 32 && ((o->models >> model) & 1u);
}

/*
 * Place events[0..n) and the pinned events pins[0..npins) on counters of CPU
 * model `model`. A pinned event takes one counter it allows in every pass;
 * the others are spread over passes so that no resource serves two events in
 * a pass. The result is, in this order of priority: the pins placed (an
 * earlier pin before all later ones), as many events counted as possible, as
 * few passes as possible;
 * every combination of pin placements is tried and each is scheduled exactly.
 * place[i] (n entries) and pin_place[p] (npins entries) say where each went.
 * Returns the number of passes (0 when nothing but pins, or nothing, is
 * counted) or PMREGS_EINVAL: n > PMREGS_SCHED_MAX, npins > PMREGS_PM_MAX_PINS,
 * an event number outside the table, or an event given twice.
 * *minimal (may be null) is 1 when the pass count is proved to be the fewest.
 */
static inline int pmregs_pm_plan(const struct pmregs_pm_table *t, unsigned model, const uint16_t *events, unsigned n,
				 const struct pmregs_pm_pin *pins, unsigned npins, struct pmregs_pm_work *w,
				 struct pmregs_pm_place *place, struct pmregs_pm_place *pin_place, int *minimal)
{
	/* cand[p][0..ncand[p]) are pin p's usable options; index ncand[p] stands for "not placed" */
	int cand[PMREGS_PM_MAX_PINS][PMREGS_PM_MAX_OPTIONS];
	unsigned ncand[PMREGS_PM_MAX_PINS], idx[PMREGS_PM_MAX_PINS];
	unsigned i, j, p, best_lost = ~0u, best_unc = ~0u;
	int best_passes = 0, floor = 0;
	if (n > PMREGS_SCHED_MAX || npins > PMREGS_PM_MAX_PINS)
		return PMREGS_EINVAL;
	for (i = 0; i < n + npins; i++) {
		unsigned e = i < n ? events[i] : pins[i - n].event;
		if (e >= t->nevents)
			return PMREGS_EINVAL;
		for (j = 0; j < i; j++)
			if ((j < n ? events[j] : pins[j - n].event) == e)
				return PMREGS_EINVAL;
	}
	for (i = 0; i < n; i++) {
		place[i].pass = PMREGS_PM_NOT_COUNTED;
		place[i].option = -1;
	}
	for (p = 0; p < npins; p++) {
		unsigned o, e = pins[p].event;
		pin_place[p].pass = PMREGS_PM_NOT_COUNTED;
		pin_place[p].option = -1;
		ncand[p] = 0;
		idx[p] = 0;
		for (o = t->first[e]; o < t->first[e + 1] && ncand[p] < PMREGS_PM_MAX_OPTIONS; o++) {
			const struct pmregs_pm_option *op = &t->options[o];
			if (pmregs_pm_option_on(op, model) && op->counter < 32 && ((pins[p].counters >> op->counter) & 1u))
				cand[p][ncand[p]++] = (int)o;
		}
	}
	/* Every combination of pin choices, placed ones first (an odometer over idx[]). */
	for (;;) {
		uint64_t reserved = 0;
		unsigned lost = 0, unc = 0, k = 0;
		int clash = 0, passes, min = 1, lb;
		for (p = 0; p < npins; p++) {
			if (idx[p] == ncand[p]) {
				lost |= 1u << (npins - 1 - p); /* losing an earlier pin weighs more */
				continue;
			}
			if (reserved & t->options[cand[p][idx[p]]].resources)
				clash = 1;
			reserved |= t->options[cand[p][idx[p]]].resources;
		}
		if (!clash && lost <= best_lost) {
			for (i = 0; i < n; i++) {
				unsigned cnt = 0, o;
				for (o = t->first[events[i]]; o < t->first[events[i] + 1] && cnt < PMREGS_PM_MAX_OPTIONS; o++) {
					if (!pmregs_pm_option_on(&t->options[o], model) || (t->options[o].resources & reserved))
						continue;
					w->res[k][cnt] = t->options[o].resources;
					w->opt[k][cnt] = (uint16_t)o;
					cnt++;
				}
				if (cnt == 0) {
					unc++;
					continue;
				}
				w->req[k].options = w->res[k];
				w->req[k].noptions = cnt;
				w->who[k] = (uint8_t)i;
				k++;
			}
			passes = pmregs_schedule(w->req, k, w->out, 0, &min);
			if (passes < 0)
				return passes;
			lb = min ? passes : (int)pmregs_sched_lower_bound(w->req, k);
			if (lost < best_lost || (lost == best_lost && unc < best_unc))
				floor = lb; /* a better class of result: its proof starts afresh */
			else if (lost == best_lost && unc == best_unc && lb < floor)
				floor = lb;
			if (lost < best_lost || (lost == best_lost && (unc < best_unc || (unc == best_unc && passes < best_passes)))) {
				best_lost = lost;
				best_unc = unc;
				best_passes = passes;
				for (i = 0; i < n; i++) {
					place[i].pass = PMREGS_PM_NOT_COUNTED;
					place[i].option = -1;
				}
				for (j = 0; j < k; j++) {
					place[w->who[j]].pass = (int16_t)w->out[j].pass;
					place[w->who[j]].option = (int16_t)w->opt[j][w->out[j].option];
				}
				for (p = 0; p < npins; p++) {
					int placed = idx[p] < ncand[p];
					pin_place[p].pass = (int16_t)(placed ? PMREGS_PM_EVERY_PASS : PMREGS_PM_NOT_COUNTED);
					pin_place[p].option = (int16_t)(placed ? cand[p][idx[p]] : -1);
				}
			}
		}
		for (p = 0; p < npins; p++) {
			if (++idx[p] <= ncand[p])
				break;
			idx[p] = 0;
		}
		if (p == npins)
			break;
	}
	/* proved when no combination of the winning class can do better than best_passes */
	if (minimal)
		*minimal = floor >= best_passes;
	return best_passes;
}

/* The option of `event` on `counter` for `model`, or -1. */
static inline int pmregs_pm_option_of(const struct pmregs_pm_table *t, unsigned model, unsigned event, unsigned counter)
{
	unsigned o;
	if (event >= t->nevents)
		return -1;
	for (o = t->first[event]; o < t->first[event + 1]; o++)
		if (t->options[o].counter == counter && pmregs_pm_option_on(&t->options[o], model))
			return (int)o;
	return -1;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_BASE_PLAN_H */
