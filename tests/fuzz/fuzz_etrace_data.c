/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for the E-Trace data trace payloads of <pmregs/etrace.h>: the
 * te_data decoder (copied and padded) and the Siemens-style data stream walker,
 * under ASan and UBSan.
 *
 * Input: byte 0 picks the parameters (bit 7 clear: one of eight fixed sets, bits
 * 0-2; bit 7 set: the next NPARAMS bytes give every parameter, reduced into its
 * range, and the input is skipped unless the set is legal). The rest is fed to the
 * decoders. Anything accepted must re-encode to a prefix of the input that decodes
 * to the same packet, and the walker's items must cover the input exactly.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-opt: -O1 -fno-inline
 * pmregs-fuzz-cmp: off (edges reached in 50000 runs, seeds 1 and 3: 646 with it and without)
 * pmregs-fuzz-share: etrace
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace.h>
#include <pmregs/etrace_tools.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static void data_params(unsigned k, struct pmregs_etrace_params *p)
{
	pmregs_etrace_params_default(p);
	switch (k & 7) {
	case 1: /* 64-bit data and addresses, split transfers, 64-bit CSRs */
		p->data_width_p = 64;
		p->daddress_width_p = 64;
		p->dsplit = 1;
		p->lrid_width_p = 5;
		p->dcsr_len_width = 3;
		break;
	case 2: /* unified loads and stores only, one compression type, byte-wide data */
		p->dformat_width = 2;
		p->ddiff_width = 1;
		p->data_width_p = 8;
		p->daddress_width_p = 16;
		break;
	case 3: /* addresses only */
		p->dno_data = 1;
		p->dsplit = 1;
		p->lrid_width_p = 0;
		break;
	case 4: /* data only, 16-bit bus, 16-bit request IDs */
		p->dno_address = 1;
		p->data_width_p = 16;
		p->lrid_width_p = 16;
		break;
	case 5: /* data only, 64-bit data, split */
		p->dno_address = 1;
		p->data_width_p = 64;
		p->dsplit = 1;
		break;
	case 6: /* SMI messages with an index and 64-bit addresses */
		p->daddress_width_p = 64;
		p->smi_index_bits = 5;
		break;
	case 7: /* 1-bit addresses */
		p->daddress_width_p = 1;
		p->ddiff_width = 1;
		break;
	default:
		break;
	}
}

static void check_te_data(const struct pmregs_etrace_params *p, const unsigned char *d, size_t n)
{
	struct pmregs_etrace_te_data t, u;
	unsigned char c[64];
	char text[64];
	int m;
	int rc = pmregs_etrace_te_data_decode(p, d, n, &t);
	if (n <= PMREGS_ETRACE_TE_DATA_MAX_BYTES) {
		/* the padded decoder agrees, whatever follows the packet */
		unsigned char pad[PMREGS_ETRACE_TE_DATA_PAD_BYTES];
		memset(pad, n ? d[n - 1] ^ 0x5a : 0, sizeof pad);
		if (n)
			memcpy(pad, d, n);
		REQUIRE(pmregs_etrace_te_data_decode_padded(p, pad, n, &u) == rc);
	}
	if (rc != PMREGS_OK)
		return;
	m = pmregs_etrace_te_data_encode(p, &t, c, sizeof c);
	REQUIRE(m > 0 && (size_t)m <= n);
	REQUIRE((size_t)m == n || memcmp(c, d, (size_t)m - 1) == 0);
	REQUIRE(pmregs_etrace_te_data_decode(p, c, (size_t)m, &u) == PMREGS_OK);
	REQUIRE(pmregs_etrace_te_data_encode(p, &u, c, sizeof c) == m);
	REQUIRE(pmregs_etrace_te_data_bits(p, &t) > 0);
	pmregs_etrace_te_data_snprint(text, sizeof text, p, &t);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct pmregs_etrace_params p;
	struct pmregs_etrace_smi_data_stream s;
	struct pmregs_etrace_smi_data_stream_item it;
	size_t i, covered;
	if (size < 1)
		return 0;
	if (data[0] & 0x80) {
		size_t n;
		const struct pmregs_param_desc *d = pmregs_etrace_params_desc(&n);
		if (size < 1 + n)
			return 0;
		for (i = 0; i < n; i++)
			pmregs_etrace_param_set(&p, i, d[i].min + data[1 + i] % (d[i].max - d[i].min + 1));
		if (pmregs_etrace_params_check(&p) != PMREGS_OK)
			return 0;
		data += 1 + n;
		size -= 1 + n;
	} else {
		data_params(data[0], &p);
		REQUIRE(pmregs_etrace_params_check(&p) == PMREGS_OK);
		data++;
		size--;
	}
	check_te_data(&p, data, size);
	covered = 0;
	pmregs_etrace_smi_data_stream_init(&s, data, size, size ? data[0] & 1 : 1);
	while (pmregs_etrace_smi_data_stream_next(&s, &p, &it)) {
		REQUIRE(it.offset == covered && it.size > 0);
		covered += it.size;
		if (it.has_payload) {
			unsigned char c[64], x[128], y[128];
			int n = pmregs_etrace_te_data_encode(&p, &it.payload, c, sizeof c), m;
			REQUIRE(it.frame.msg_type == 3);
			REQUIRE(n > 0);
			/* framed again in one pass: the bytes of the two steps */
			m = pmregs_etrace_smi_encode(&p, &it.frame, c, (size_t)n, x, sizeof x);
			REQUIRE(pmregs_etrace_smi_data_stream_put(&p, &it.frame, &it.payload, y, sizeof y) == m);
			REQUIRE(m <= 0 || memcmp(x, y, (size_t)m) == 0);
		}
	}
	REQUIRE(covered == size);
	return 0;
}
