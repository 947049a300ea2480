/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for the NetBurst event encoder in <pmregs/netburst.h>, under
 * ASan and UBSan: arbitrary requests (every field from the input, out of range
 * or not), arbitrary register values to decode, and arbitrary EVENT:NAME text.
 *
 * Input: the first bytes fill a request field by field and a set of register
 * values; whatever is left is a string for the parser. Anything that encodes
 * must decode back to a request that encodes to the same values, print and
 * parse back to the same event and mask, and schedule in one pass; anything
 * that fails must name a check that reports that error and write no value.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-cmp: off (edges reached in 50000 runs, seeds 1 and 3: 219 with it and without)
 * pmregs-fuzz-share: pmu
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/netburst_tools.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

typedef struct pmregs_netburst_event_request req_t;
typedef struct pmregs_netburst_event_encoding enc_t;

#include "../common/fuzz_reader.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size)
{
	static struct pmregs_netburst_event_work work;
	struct reader rd;
	req_t r, d, tmpl;
	enc_t e, f, in;
	char text[300], buf[300];
	const char *bad;
	size_t len;
	int rc, minimal;

	rd.d = data;
	rd.n = size;
	rd.pos = 0;
	/* a request: event and place values wrap into a little past the valid range */
	memset(&r, 0, sizeof r);
	r.event = (uint16_t)(take(&rd, 1) % (PMREGS_NETBURST_EVENTS_COUNT + 2));
	r.escr = (int16_t)((int)(take(&rd, 1) % 82) - 1);
	r.counter = (int16_t)((int)(take(&rd, 1) % 20) - 1);
	r.mask = (uint16_t)take(&rd, 2);
	{
		uint64_t flags = take(&rd, 3);
		r.t0_os = (uint8_t)(flags & 1);
		r.t0_usr = (uint8_t)(flags >> 1 & 1);
		r.t1_os = (uint8_t)(flags >> 2 & 1);
		r.t1_usr = (uint8_t)(flags >> 3 & 1);
		r.tag_enable = (uint8_t)(flags >> 4 & 1);
		r.enable = (uint8_t)(flags >> 5 & 1);
		r.compare = (uint8_t)(flags >> 6 & 1);
		r.complement = (uint8_t)(flags >> 7 & 1);
		r.edge = (uint8_t)(flags >> 8 & 1);
		r.force_ovf = (uint8_t)(flags >> 9 & 1);
		r.ovf_pmi_t0 = (uint8_t)(flags >> 10 & 1);
		r.ovf_pmi_t1 = (uint8_t)(flags >> 11 & 1);
		r.cascade = (uint8_t)(flags >> 12 & 1);
		r.ext_cascade = (uint8_t)(flags >> 13 & 1);
		r.ovf = (uint8_t)(flags >> 14 & 1);
		r.fast = (uint8_t)(flags >> 15 & 1);
		r.ht = (uint8_t)(flags >> 16 & 1);
		r.pebs = (uint8_t)(flags >> 17 & 1);
		r.select_policy = (enum pmregs_netburst_select_policy)(flags >> 18 & 3) == 3
					  ? PMREGS_NETBURST_SELECT_POLICY_REFUSE
					  : (enum pmregs_netburst_select_policy)(flags >> 18 & 3);
	}
	r.tag_value = (uint8_t)take(&rd, 1);
	r.active_thread = (uint8_t)take(&rd, 1);
	r.threshold = (uint8_t)take(&rd, 1);
	r.model = (uint8_t)take(&rd, 1);

	rc = pmregs_netburst_event_encode(&r, &e);
	if (rc == PMREGS_OK) {
		REQUIRE(e.check == -1 && e.event == r.event);
		REQUIRE(pmregs_netburst_escr_valid(e.escr_value) && pmregs_netburst_cccr_ext_valid(e.cccr_value));
		pmregs_netburst_event_request_init(&tmpl, 0);
		tmpl.ht = r.ht;
		tmpl.model = r.model;
		tmpl.select_policy = r.select_policy;
		tmpl.fast = r.fast;
		tmpl.pebs = r.pebs;
		REQUIRE(pmregs_netburst_event_decode(&e, &tmpl, &d) == PMREGS_OK);
		REQUIRE(pmregs_netburst_event_encode(&d, &f) == PMREGS_OK);
		REQUIRE(f.escr_msr == e.escr_msr && f.escr_value == e.escr_value && f.cccr_msr == e.cccr_msr &&
			f.cccr_value == e.cccr_value);
		len = pmregs_netburst_event_snprint(buf, sizeof buf, &r);
		REQUIRE(len < sizeof buf);
		REQUIRE(pmregs_netburst_event_parse(&d, buf, &bad) == PMREGS_OK && d.event == r.event && d.mask == r.mask);
		REQUIRE(pmregs_netburst_event_schedule(&r, 1, &f, &work, 0, &minimal) == 1 && f.pass == 0);
	} else {
		REQUIRE(rc < 0 && e.check >= 0 && e.check < PMREGS_NETBURST_EVENT_CHECKS);
		REQUIRE(pmregs_netburst_event_check_error(e.check) == rc);
		REQUIRE(e.escr_value == 0 && e.cccr_value == 0 && e.escr_msr == 0 && e.counter_msr == 0);
	}

	/* register values from the input, decoded with the same template */
	memset(&in, 0, sizeof in);
	in.escr_msr = (uint32_t)(0x3A0 + take(&rd, 1) % 0x48);
	in.escr_value = take(&rd, 4);
	in.cccr_msr = (uint32_t)(0x360 + take(&rd, 1) % 0x14);
	in.cccr_value = take(&rd, 4);
	pmregs_netburst_event_request_init(&tmpl, 0);
	tmpl.select_policy = r.select_policy;
	if (pmregs_netburst_event_decode(&in, &tmpl, &d) == PMREGS_OK) {
		REQUIRE(pmregs_netburst_event_encode(&d, &f) == PMREGS_OK);
		REQUIRE(f.escr_msr == in.escr_msr && f.escr_value == in.escr_value && f.cccr_msr == in.cccr_msr &&
			f.cccr_value == in.cccr_value);
	}

	/* the rest as text */
	len = rd.n - rd.pos < sizeof text - 1 ? rd.n - rd.pos : sizeof text - 1;
	memcpy(text, rd.d + rd.pos, len);
	text[len] = 0;
	d = r;
	bad = 0;
	rc = pmregs_netburst_event_parse(&d, text, &bad);
	if (rc == PMREGS_OK) {
		REQUIRE(d.event < PMREGS_NETBURST_EVENTS_COUNT);
		REQUIRE((d.mask & ~pmregs_netburst_events(0)[d.event].mask) == 0);
	} else {
		REQUIRE(rc == PMREGS_ENOENT || rc == PMREGS_EINVAL);
		REQUIRE(bad >= text && bad <= text + len);
		REQUIRE(memcmp(&d, &r, sizeof d) == 0);
	}
	return 0;
}
