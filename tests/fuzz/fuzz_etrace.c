/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for <pmregs/etrace.h>: the te_inst decoder, both frame
 * decoders and both stream walkers, under ASan and UBSan.
 *
 * Input: byte 0 picks the parameters (bit 7 clear: one of eight fixed sets,
 * bits 0-2; bit 7 set: the next NPARAMS bytes give every parameter, reduced
 * into its range, and the input is skipped unless the set is legal). The rest
 * is fed to the decoders. Anything accepted must re-encode and decode to the
 * same packet, and the walkers' items must cover the input exactly.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-opt: -O1 -fno-inline
 * pmregs-fuzz-cmp: off (edges reached in 50000 runs, seeds 1-3: 1018, 1017, 1018 with it, 1018,
 *   1019, 1023 without)
 * pmregs-fuzz-share: etrace
 */
#include <stdlib.h>
#include <string.h>
#include <pmregs/etrace_tools.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static void fixed_params(unsigned k, struct pmregs_etrace_params *p)
{
	pmregs_etrace_params_default(p);
	switch (k & 7) {
	case 1: /* the specification's transport examples */
		p->iaddress_width_p = 64;
		p->iaddress_lsb_p = 0;
		p->nocontext_p = 0;
		p->context_width_p = 32;
		p->ecause_width_p = 5;
		p->encap_srcid_bits = 6;
		p->encap_type_bits = 2;
		p->encap_type_inst = 2;
		break;
	case 2:
		p->iaddress_width_p = 16;
		p->return_stack_size_p = 2;
		p->f0s_width_p = 1;
		p->cache_size_p = 4;
		p->encap_srcid_bits = 4;
		p->encap_timestamp_bytes = 1;
		break;
	case 3:
		p->iaddress_width_p = 64;
		p->notime_p = 0;
		p->time_width_p = 64;
		p->nocontext_p = 0;
		p->context_width_p = 64;
		p->ecause_width_p = 64;
		p->call_counter_size_p = 9;
		p->encap_srcid_bits = 16;
		p->encap_timestamp_bytes = 8;
		break;
	case 4:
		p->iaddress_width_p = 40;
		p->iaddress_lsb_p = 2;
		p->implicit_exception = 1;
		p->f0s_width_p = 2;
		p->smi_index_bits = 5;
		break;
	case 5:
		p->iaddress_lsb_p = 0;
		p->f0s_inferred = 1;
		p->cache_size_p = 6;
		p->encap_srcid_bits = 8;
		break;
	case 6:
		p->iaddress_width_p = 2;
		p->privilege_width_p = 8;
		p->return_stack_size_p = 31;
		p->call_counter_size_p = 31;
		p->encap_type_bits = 1;
		break;
	case 7:
		p->encoder_mode_width = 32;
		p->ioptions_width = 32;
		p->doptions_width = 32;
		p->smi_index_bits = 16;
		break;
	default:
		break;
	}
}

static void check_te_inst(const struct pmregs_etrace_params *p, const unsigned char *d, size_t n)
{
	struct pmregs_etrace_te_inst t, u;
	struct pmregs_etrace_te_inst_semantic s;
	unsigned char c[64];
	char text[64];
	int m;
	int rc = pmregs_etrace_te_inst_decode(p, d, n, &t);
	if (n <= PMREGS_ETRACE_TE_INST_MAX_BYTES) {
		/* the padded decoder agrees, whatever follows the packet */
		unsigned char pad[PMREGS_ETRACE_TE_INST_PAD_BYTES];
		memset(pad, n ? d[n - 1] ^ 0x5a : 0, sizeof pad);
		if (n)
			memcpy(pad, d, n);
		REQUIRE(pmregs_etrace_te_inst_decode_padded(p, pad, n, &u) == rc);
		REQUIRE(rc != PMREGS_OK || pmregs_etrace_te_inst_encode(p, &u, c, sizeof c) ==
					       pmregs_etrace_te_inst_encode(p, &t, c, sizeof c));
	}
	if (rc != PMREGS_OK)
		return;
	m = pmregs_etrace_te_inst_encode(p, &t, c, sizeof c);
	REQUIRE(m > 0 && (size_t)m <= n);
	REQUIRE(pmregs_etrace_te_inst_decode(p, c, (size_t)m, &u) == PMREGS_OK);
	REQUIRE(memcmp(&t, &u, sizeof t) == 0 || pmregs_etrace_te_inst_encode(p, &u, c, sizeof c) == m);
	REQUIRE(pmregs_etrace_te_inst_bits(p, &t) > 0);
	REQUIRE(pmregs_etrace_te_inst_semantic_get(p, &t, &s) == PMREGS_OK);
	u = t;
	REQUIRE(pmregs_etrace_te_inst_semantic_set(p, &u, &s) == PMREGS_OK);
	REQUIRE(u.notify == t.notify && u.updiscon == t.updiscon && u.irreport == t.irreport);
	pmregs_etrace_te_inst_snprint(text, sizeof text, p, &t);
}

/* Walk the buffer as SMI, as encapsulation and as ATB messages twice: item by item, and with batches of 3 (then one item
 * whenever a batch stops); both must see the same payloads in the same order and end at the same place. Each payload
 * framed again by the one-pass writer gives the bytes of te_inst_encode() and the frame's encoder. */
#define BATCH_CHECK(prefix)                                                                                     \
	do {                                                                                                    \
		struct pmregs_etrace_##prefix##_stream a, b;                                                    \
		struct pmregs_etrace_##prefix##_stream_item it;                                                 \
		struct pmregs_etrace_te_inst got[3], want[64];                                                  \
		size_t nw = 0, ng = 0, k, j;                                                                    \
		pmregs_etrace_##prefix##_stream_init(&a, data, size, 1);                                         \
		while (pmregs_etrace_##prefix##_stream_next(&a, p, &it))                                         \
			if (it.has_payload && nw < 64) {                                                        \
				unsigned char pl_[64], x_[128], y_[128];                                        \
				int n_ = pmregs_etrace_te_inst_encode(p, &it.payload, pl_, sizeof pl_), m_ = n_; \
				/* the one-pass writer frames it as the two steps do */                         \
				if (n_ > 0)                                                                     \
					m_ = pmregs_etrace_##prefix##_encode(p, &it.frame, pl_, (size_t)n_, x_, sizeof x_); \
				REQUIRE(pmregs_etrace_##prefix##_stream_put(p, &it.frame, &it.payload, y_, sizeof y_) == m_); \
				REQUIRE(m_ <= 0 || memcmp(x_, y_, (size_t)m_) == 0);                            \
				want[nw++] = it.payload;                                                        \
			}                                                                                       \
		pmregs_etrace_##prefix##_stream_init(&b, data, size, 1);                                         \
		for (;;) {                                                                                      \
			k = pmregs_etrace_##prefix##_stream_batch(&b, p, got, 3);                               \
			for (j = 0; j < k; j++, ng++)                                                           \
				REQUIRE(ng >= 64 || memcmp(&got[j], &want[ng], sizeof got[j]) == 0);            \
			if (k == 3)                                                                             \
				continue;                                                                       \
			if (!pmregs_etrace_##prefix##_stream_next(&b, p, &it))                                   \
				break;                                                                          \
			if (it.has_payload) {                                                                   \
				REQUIRE(ng >= 64 || memcmp(&it.payload, &want[ng], sizeof it.payload) == 0);    \
				ng++;                                                                           \
			}                                                                                       \
		}                                                                                               \
		REQUIRE(ng == nw || (ng > 64 && nw == 64));                                                     \
		REQUIRE(a.pos == b.pos && b.pos == size);                                                       \
	} while (0)

static void check_batches(const struct pmregs_etrace_params *p, const unsigned char *data, size_t size)
{
	BATCH_CHECK(smi);
	BATCH_CHECK(encap);
	BATCH_CHECK(atb);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct pmregs_etrace_params p;
	struct pmregs_etrace_encap f;
	struct pmregs_etrace_smi sm;
	struct pmregs_etrace_encap_stream es;
	struct pmregs_etrace_encap_stream_item ei;
	struct pmregs_etrace_smi_stream ss;
	struct pmregs_etrace_smi_stream_item si;
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
		fixed_params(data[0], &p);
		REQUIRE(pmregs_etrace_params_check(&p) == PMREGS_OK);
		data++;
		size--;
	}
	check_te_inst(&p, data, size);
	if (pmregs_etrace_encap_decode(&p, data, size, &f) > 0)
		REQUIRE((size_t)f.payload_offset + f.payload_bits <= 8 * size);
	if (pmregs_etrace_smi_decode(&p, data, size, &sm) > 0)
		REQUIRE((size_t)sm.payload_offset + sm.payload_bits <= 8 * size);
	covered = 0;
	pmregs_etrace_encap_stream_init(&es, data, size, size ? data[0] & 1 : 1);
	while (pmregs_etrace_encap_stream_next(&es, &p, &ei)) {
		REQUIRE(ei.offset == covered && ei.size > 0);
		covered += ei.size;
		if (ei.has_payload) {
			/* the payload read in place is the payload copied out and decoded */
			unsigned char pb[64];
			struct pmregs_etrace_te_inst t;
			int n = pmregs_bits_extract_sext(pb, sizeof pb, data + ei.offset, ei.frame.payload_offset,
							 ei.frame.payload_bits);
			REQUIRE(n > 0 && (size_t)n == ei.payload_len);
			REQUIRE(pmregs_etrace_te_inst_decode(&p, pb, (size_t)n, &t) == PMREGS_OK);
			REQUIRE(memcmp(&t, &ei.payload, sizeof t) == 0);
			check_te_inst(&p, pb, (size_t)n);
		}
	}
	REQUIRE(covered == size);
	covered = 0;
	pmregs_etrace_smi_stream_init(&ss, data, size, 1);
	while (pmregs_etrace_smi_stream_next(&ss, &p, &si)) {
		REQUIRE(si.offset == covered && si.size > 0);
		covered += si.size;
	}
	REQUIRE(covered == size);
	/* batches interleaved with single items give the same payloads as the walker alone */
	check_batches(&p, data, size);
	return 0;
}
