/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for pmregs-decode's input layer (examples/stream_reader.h),
 * under ASan and UBSan: a packet stream read in windows of 96 to 351 bytes,
 * arriving in chunks of random sizes, must give exactly the items the stream's
 * walker gives on the whole input at once -- offsets, sizes, statuses, shapes,
 * every field value and the bytes handed over -- whatever the cuts, including
 * skipped stretches longer than the window (cut, then merged back).
 *
 * Input: byte 0 picks the stream (of every family's streams) and whether the
 * input starts at a boundary, byte 1 the window size, bytes 2-3 the seed of the
 * chunk sizes, byte 4 the largest chunk; the rest is the stream, followed by
 * as many copies of its last byte as byte 5 says, times 64 (long zero runs and
 * long bad stretches without a long input).
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-runs: 3000
 * pmregs-fuzz-cmp: off (edges reached in 3000 runs, seeds 1 and 3: 674, 689 with it, 688, 688
 *   without at -O1; seeds 1-3 at -O1 -fno-inline: 625, 626, 627 with it, 612, 625, 625 without)
 * pmregs-fuzz-opt: -O1 -fno-inline
 * pmregs-fuzz-share: etrace (tools.h's E-Trace walkers and decoders, most of its build, are the E-Trace
 *   targets' too: built once with them, the build about 7 s CPU alone at -O1, about 2 s more in theirs)
 */
#include <stdlib.h>
#include <string.h>

#include <pmregs/tools.h>
#include "../../examples/stream_reader.h"
#include "../common/fuzz_oracle.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
#define MAXIN (256 + 255 * 64)
#define SR_MAXITEMS (MAXIN + 1)
#define MAXF 32

struct item {
	size_t offset, size;
	int status, has_payload;
	const char *shape[2];
	unsigned nfields[2];
	uint64_t value[2][MAXF];
	const char *name[2][MAXF];
	unsigned char head[SR_HEAD];
};

struct list {
	struct item *it;
	size_t n;
	const unsigned char *in; /* the whole input, to check the bytes handed over */
};

/* the windowed walk's items so far, each compared with the whole walk's item at its place */
struct check {
	const struct list *whole;
	size_t n;
};

/* recording, feeding and comparing the items: the target's own code, no coverage */
FUZZ_ORACLE_BEGIN
static void view(struct item *t, int k, const struct pmregs_packet_view *v)
{
	unsigned i;
	t->shape[k] = v->shape;
	t->nfields[k] = v->nfields < MAXF ? v->nfields : MAXF;
	for (i = 0; i < t->nfields[k]; i++) {
		t->value[k][i] = v->fields[i].value;
		t->name[k][i] = v->fields[i].name;
	}
}

/* an item's members, each set (the field arrays up to nfields, which is all that is compared) */
static void keep(struct list *l, const struct pmregs_stream_event *ev, const unsigned char *head)
{
	struct item *t;
	size_t h = ev->size < SR_HEAD ? ev->size : SR_HEAD, i;
	REQUIRE(l->n < SR_MAXITEMS);
	t = &l->it[l->n++];
	t->offset = ev->offset;
	t->size = ev->size;
	t->status = ev->status;
	t->has_payload = ev->has_payload;
	t->shape[0] = t->shape[1] = NULL;
	t->nfields[0] = t->nfields[1] = 0;
	if (ev->status >= 0)
		view(t, 0, &ev->frame);
	if (ev->has_payload)
		view(t, 1, &ev->payload);
	for (i = 0; i < SR_HEAD; i++) /* a loop: the library calls' interceptors cost more for 16 bytes */
		t->head[i] = i < h ? head[i] : 0;
}

static int whole_item(void *ctx, const struct pmregs_stream_event *ev)
{
	struct list *l = (struct list *)ctx;
	keep(l, ev, l->in + ev->offset);
	return 0;
}

/* what v shows is what item a recorded as its frame (k = 0) or payload (k = 1) */
static int same_view(const struct item *a, int k, const struct pmregs_packet_view *v)
{
	unsigned i, n = v->nfields < MAXF ? v->nfields : MAXF;
	if (a->shape[k] != v->shape || a->nfields[k] != n)
		return 0;
	for (i = 0; i < n; i++)
		if (a->value[k][i] != v->fields[i].value || a->name[k][i] != v->fields[i].name)
			return 0;
	return 1;
}

/* the event and its first bytes are the recorded item: offset, size, status, the bytes handed over,
 * shapes, every field's value and name (a view not taken is no shape and no fields on both sides) */
static int same(const struct item *a, const struct pmregs_stream_event *ev, const unsigned char *head)
{
	size_t i;
	if (a->offset != ev->offset || a->size != ev->size || a->status != ev->status ||
	    a->has_payload != ev->has_payload)
		return 0;
	for (i = 0; i < ev->size && i < SR_HEAD; i++)
		if (a->head[i] != head[i])
			return 0;
	if (ev->status >= 0 && !same_view(a, 0, &ev->frame))
		return 0;
	return !ev->has_payload || same_view(a, 1, &ev->payload);
}

static int window_item(void *ctx, const struct pmregs_stream_event *ev, const unsigned char *head)
{
	struct check *c = (struct check *)ctx;
	REQUIRE(c->n < c->whole->n && same(&c->whole->it[c->n], ev, head));
	c->n++;
	return 0;
}

struct chunks {
	const unsigned char *d;
	size_t n, pos;
	uint32_t seed;
	unsigned most;
};

static size_t chunk_read(void *src, unsigned char *dst, size_t n)
{
	struct chunks *c = (struct chunks *)src;
	size_t k;
	c->seed = c->seed * 1103515245u + 12345u;
	k = 1 + (c->seed >> 16) % c->most;
	if (k > n)
		k = n;
	if (k > c->n - c->pos)
		k = c->n - c->pos;
	memcpy(dst, c->d + c->pos, k);
	c->pos += k;
	return k;
}

/* the stream: the input, then as many copies of its last byte as `copies` says */
FUZZ_ORACLE_CALL static size_t extend(unsigned char *in, const unsigned char *d, size_t n, size_t copies)
{
	memcpy(in, d, n);
	if (n == 0)
		return 0;
	if (copies > MAXIN - n)
		copies = MAXIN - n;
	memset(in + n, in[n - 1], copies);
	return n + copies;
}
FUZZ_ORACLE_END

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size)
{
	static unsigned char in[MAXIN], window[351];
	static struct item a[SR_MAXITEMS];
	static const struct pmregs_stream_desc *streams[64];
	static uint64_t params[64][64];
	static size_t nparams[64], nstreams;
	struct list whole;
	struct check part;
	struct chunks src;
	struct sr_reader r;
	struct sr_walk w;
	size_t n, k, cap;
	int synced, rc;

	if (!nstreams) {
		/* every stream of every family, its parameters at their defaults */
		size_t nf, ns, np, f, s, p;
		const struct pmregs_family_desc *fam = pmregs_families(&nf);
		for (f = 0; f < nf; f++) {
			const struct pmregs_stream_desc *sd = fam[f].streams ? fam[f].streams(&ns) : 0;
			const struct pmregs_param_desc *pd = fam[f].params ? fam[f].params(&np) : 0;
			for (s = 0; sd && s < ns && nstreams < 64; s++) {
				for (p = 0; p < np && p < 64; p++)
					params[nstreams][p] = pd[p].def;
				nparams[nstreams] = np < 64 ? np : 64;
				streams[nstreams++] = &sd[s];
			}
		}
		REQUIRE(nstreams > 0);
	}
	if (size < 6)
		return 0;
	k = data[0] % nstreams;
	synced = !(data[0] & 0x80);
	cap = 96 + data[1];
	n = extend(in, data + 6, size - 6 < 256 ? size - 6 : 256, (size_t)data[5] * 64);

	whole.it = a;
	whole.n = 0;
	whole.in = in;
	rc = streams[k]->walk(params[k], nparams[k], in, n, synced, whole_item, &whole);
	REQUIRE(rc == 0);

	src.d = in;
	src.n = n;
	src.pos = 0;
	src.seed = (uint32_t)data[2] | (uint32_t)data[3] << 8;
	src.most = 1u + data[4];
	sr_init(&r, chunk_read, &src, window, cap);
	part.whole = &whole;
	part.n = 0;
	memset(&w, 0, sizeof w);
	w.st = streams[k];
	w.params = params[k];
	w.nparams = nparams[k];
	w.r = &r;
	w.synced = synced;
	w.fn = window_item;
	w.ctx = &part;
	w.keep = 64;
	rc = sr_walk_stream(&w);
	REQUIRE(rc == 0);

	REQUIRE(part.n == whole.n);
	return 0;
}
