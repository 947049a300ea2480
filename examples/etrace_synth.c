/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * etrace_synth: the instruction trace a simulator's encoder model writes for
 * a small program, framed in Siemens-style (SMI) messages and read back.
 *
 * The program starts at 0x80000000, runs a loop whose closing branch is taken
 * 40 times and then falls through, returns to 0x80000100 and jumps through a
 * register to 0x80000200. Its trace: a support packet, a start packet with
 * the full address, a full 31-branch map, the last 10 taken branches and the
 * not-taken one with the return's address, and an address-only packet for
 * the jump. Addresses after the start are differential: the encoder runs
 * without full-address mode. Each packet is encoded and framed in one pass
 * (pmregs_etrace_smi_stream_put()); the stream walker then decodes the bytes
 * and each packet is printed and compared with what was sent.
 *
 * Parameters: the reference flow's preset (64-bit addresses from bit 0, SMI
 * messages without an index), a compile-time constant the codecs fold.
 */
#include <stdio.h>
#include <string.h>
#include <pmregs/etrace_tools.h>

typedef struct pmregs_etrace_te_inst pkt_t;

static const struct pmregs_etrace_params P = PMREGS_ETRACE_PRESET_REFERENCE_FLOW;

static pkt_t sent[8];
static size_t nsent;

/* Frame t as the next message of buf; its notify, updiscon and irreport flags are not asserted. */
static int put(pkt_t *t, unsigned char *buf, size_t *len, size_t cap)
{
	struct pmregs_etrace_te_inst_semantic s;
	struct pmregs_etrace_smi msg;
	int n;
	memset(&s, 0, sizeof s);
	if (pmregs_etrace_te_inst_semantic_set(&P, t, &s) != PMREGS_OK)
		return -1;
	pmregs_etrace_smi_init(&msg, PMREGS_ETRACE_SMI_SHAPE_MESSAGE);
	msg.msg_type = PMREGS_ETRACE_SMI_MSG_TYPE_TE_INST;
	n = pmregs_etrace_smi_stream_put(&P, &msg, t, buf + *len, cap - *len);
	if (n < 0) {
		fprintf(stderr, "etrace_synth: %s\n", pmregs_strerror(n));
		return -1;
	}
	*len += (size_t)n;
	sent[nsent++] = *t;
	return 0;
}

int main(void)
{
	unsigned char buf[256];
	size_t len = 0, k = 0;
	uint64_t last = 0x80000000u; /* the last address the trace reported */
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it;
	pkt_t t;
	int bad = 0;

	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	t.ienable = 1; /* branch trace, no option set: differential addresses */
	bad |= put(&t, buf, &len, sizeof buf);

	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_START);
	t.branch = 1; /* the first instruction is not a taken branch */
	t.privilege = PMREGS_ETRACE_TE_INST_PRIVILEGE_M;
	t.address = last;
	bad |= put(&t, buf, &len, sizeof buf);

	/* 31 taken branches (0 = taken): a full map, no address */
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
	t.branch_map = 0;
	bad |= put(&t, buf, &len, sizeof buf);

	/* 9 more taken, the 41st not taken (bit 9), then the return to 0x80000100 */
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
	t.branches = 10;
	t.branch_map = 1u << 9;
	t.address = 0x80000100u - last;
	last = 0x80000100u;
	bad |= put(&t, buf, &len, sizeof buf);

	/* the jump through a register: no branch since, an address */
	pmregs_etrace_te_inst_init(&t, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
	t.address = 0x80000200u - last;
	bad |= put(&t, buf, &len, sizeof buf);
	if (bad)
		return 1;

	printf("%zu packets in %zu bytes of SMI messages\n", nsent, len);
	pmregs_etrace_smi_stream_init(&s, buf, len, 1);
	while (pmregs_etrace_smi_stream_next(&s, &P, &it)) {
		char text[256];
		size_t i;
		if (it.status != PMREGS_OK || !it.has_payload || k >= nsent) {
			fprintf(stderr, "etrace_synth: message at %zu: %s\n", it.offset, pmregs_strerror(it.status));
			return 1;
		}
		printf("%04zx ", it.offset);
		for (i = 0; i < 12; i++)
			printf(i < it.size ? " %02x" : "   ", i < it.size ? buf[it.offset + i] : 0);
		pmregs_etrace_te_inst_snprint(text, sizeof text, &P, &it.payload);
		printf("  %s\n", text);
		if (memcmp(&it.payload, &sent[k], sizeof it.payload) != 0) {
			fprintf(stderr, "etrace_synth: packet %zu does not decode as it was sent\n", k);
			return 1;
		}
		k++;
	}
	return k == nsent ? 0 : 1;
}
