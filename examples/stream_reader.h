/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * The input layer of pmregs-decode: a byte source read in windows of a fixed
 * size (a file, standard input, anything with a read function), and a stream
 * walk that resumes across refills, so that a packet split between two reads
 * decodes as if the input had been read whole. Memory is the window, whatever
 * the input's length: /dev/zero is walked like any file.
 *
 *   struct sr_reader r;  sr_init(&r, sr_file_read, &file, buf, sizeof buf);
 *   sr_fill(&r);                 the window: r.buf[0..r.len) = stream bytes r.base..
 *   sr_drop(&r, n);              the first n bytes are done with: the rest moves to the front
 *   sr_walk_stream(&w);          every item of a packet stream, offsets in the whole stream
 *
 * sr_walk_stream() calls the walker of a struct pmregs_stream_desc on the
 * window and stops it before any item that reaches the window's end (more
 * bytes may complete it: a truncated packet, or a skipped stretch that has not
 * found its resynchronisation point yet), refills, and walks on from that
 * item's start, synchronised there unless the item was bytes before the first
 * packet boundary. A skipped stretch longer than the window is cut, keeping the
 * window's last `keep` bytes (more than any zero run a stream resynchronises
 * on), and reported as one item when it ends. The items are those the walker
 * gives on the whole input at once (tests/fuzz/fuzz_stream_reader.c checks it).
 * It names no family; it needs <pmregs/base_desc.h> and <stdio.h>.
 */
#ifndef PMREGS_EXAMPLES_STREAM_READER_H
#define PMREGS_EXAMPLES_STREAM_READER_H

#include <stdio.h>
#include <string.h>

#include <pmregs/base_desc.h>

/* Reads up to n bytes into dst; returns how many, 0 at the end of the source (or on an error it keeps). */
typedef size_t (*sr_read_fn)(void *src, unsigned char *dst, size_t n);

struct sr_reader {
	sr_read_fn read;
	void *src;
	unsigned char *buf; /* the window: buf[0..len) are the stream's bytes base..base+len */
	size_t cap, len;
	uint64_t base;
	int eof; /* the source has ended: what the window holds is all that is left */
};

static inline void sr_init(struct sr_reader *r, sr_read_fn read, void *src, unsigned char *buf, size_t cap)
{
	r->read = read;
	r->src = src;
	r->buf = buf;
	r->cap = cap;
	r->len = 0;
	r->base = 0;
	r->eof = 0;
}

/* Read until the window is full or the source ends; returns the bytes added. */
static inline size_t sr_fill(struct sr_reader *r)
{
	size_t added = 0;
	while (!r->eof && r->len < r->cap) {
		size_t got = r->read(r->src, r->buf + r->len, r->cap - r->len);
		if (got == 0)
			r->eof = 1;
		r->len += got;
		added += got;
	}
	return added;
}

/* The first n bytes of the window are done with. */
static inline void sr_drop(struct sr_reader *r, size_t n)
{
	if (n > r->len)
		n = r->len;
	memmove(r->buf, r->buf + n, r->len - n);
	r->len -= n;
	r->base += n;
}

/* A source that is a FILE (a file, or standard input). */
struct sr_file {
	FILE *f;
	int error; /* set when a read failed (then the source ends) */
};

static inline size_t sr_file_read(void *src, unsigned char *dst, size_t n)
{
	struct sr_file *s = (struct sr_file *)src;
	size_t got = fread(dst, 1, n, s->f);
	if (got == 0 && ferror(s->f))
		s->error = 1;
	return got;
}

/* ---- a packet stream over a reader ---- */

#define SR_HEAD 16 /* bytes of an item's start handed to the callback (its whole start for a printout) */

/* Called for each item: ev->offset is in the whole stream; head holds its first min(size, SR_HEAD) bytes. */
typedef int (*sr_item_fn)(void *ctx, const struct pmregs_stream_event *ev, const unsigned char *head);

struct sr_walk {
	/* set by the caller */
	const struct pmregs_stream_desc *st;
	const uint64_t *params;
	size_t nparams;
	struct sr_reader *r;
	int synced;        /* the input starts at a packet boundary */
	sr_item_fn fn;
	void *ctx;
	size_t keep;       /* bytes kept at the window's end when a skipped stretch fills it (< r->cap / 2) */
	uint64_t max_skip; /* hand over a skipped stretch as soon as it is this long (0: only when it ends) */
	/* kept by sr_walk_stream() */
	int pending;       /* a skipped stretch cut at the window's end, waiting for its end */
	struct pmregs_stream_event skip;
	unsigned char skip_head[SR_HEAD];
	int stopped, resume_synced, user_rc;
	size_t resume;
};

#define SR_STOP 0x5352 /* the window's walk stops here (an item the window's end may cut short) */

static inline int sr_flush(struct sr_walk *w)
{
	if (!w->pending)
		return 0;
	w->pending = 0;
	return w->fn(w->ctx, &w->skip, w->skip_head);
}

/* A skipped stretch (or the start of one) at stream offset `at`, of `size` bytes, becomes the pending one. */
static inline void sr_hold(struct sr_walk *w, const struct pmregs_stream_event *ev, uint64_t at, size_t size,
		    const unsigned char *head)
{
	size_t n = size < SR_HEAD ? size : SR_HEAD;
	w->pending = 1;
	w->skip = *ev;
	w->skip.offset = (size_t)at;
	w->skip.size = size;
	memcpy(w->skip_head, head, n);
}

static inline int sr_on_item(void *ctx, const struct pmregs_stream_event *ev)
{
	struct sr_walk *w = (struct sr_walk *)ctx;
	struct sr_reader *r = w->r;
	struct pmregs_stream_event e;
	int skipped = ev->status < 0 && ev->status != PMREGS_ETRUNC;
	int rc;
	if (!r->eof && ev->offset + ev->size >= r->len) {
		/* more bytes may change this item: walk it again once they are in */
		w->stopped = 1;
		w->resume = ev->offset;
		w->resume_synced = ev->status != PMREGS_ENOENT;
		if (ev->offset == 0 && r->len == r->cap) {
			/* it fills the window, so more bytes cannot make room for it */
			size_t cut = r->len - w->keep;
			if (!skipped) {
				/* a packet as long as the window (none is): hand it over as it is, walk on after it */
				if ((rc = sr_flush(w)) != 0 || (e = *ev, e.offset = (size_t)r->base,
								 rc = w->fn(w->ctx, &e, r->buf)) != 0)
					return w->user_rc = rc;
				w->resume = ev->size;
				return SR_STOP;
			}
			/* a skipped stretch: all but the window's last `keep` bytes are skipped for sure (its
			 * resynchronisation point is past the window's end); walk on from there without a boundary */
			if (w->pending && ev->status == PMREGS_ENOENT && (uint64_t)w->skip.offset + w->skip.size == r->base)
				w->skip.size += cut;
			else {
				if ((rc = sr_flush(w)) != 0)
					return w->user_rc = rc;
				sr_hold(w, ev, r->base, cut, r->buf);
			}
			w->resume = cut;
			w->resume_synced = 0;
			if (w->max_skip && w->skip.size >= w->max_skip && (rc = sr_flush(w)) != 0)
				return w->user_rc = rc;
		}
		return SR_STOP;
	}
	e = *ev;
	e.offset = (size_t)(r->base + ev->offset);
	if (skipped && w->pending && (uint64_t)w->skip.offset + w->skip.size == r->base + ev->offset &&
	    ev->status == PMREGS_ENOENT) {
		/* the rest of a stretch cut at the window's end */
		w->skip.size += ev->size;
		if (w->max_skip && w->skip.size >= w->max_skip && (rc = sr_flush(w)) != 0)
			return w->user_rc = rc;
		return 0;
	}
	if ((rc = sr_flush(w)) != 0)
		return w->user_rc = rc;
	rc = w->fn(w->ctx, &e, r->buf + ev->offset);
	return rc ? (w->user_rc = rc) : 0;
}

/*
 * Walk the stream over everything the reader yields. Returns 0 at the end of the input, the callback's
 * non-zero value when it stops the walk, or the walker's error for parameters it refuses (the callback is
 * not called then).
 */
static inline int sr_walk_stream(struct sr_walk *w)
{
	struct sr_reader *r = w->r;
	int synced = w->synced, rc;
	w->pending = 0;
	w->user_rc = 0;
	sr_fill(r);
	for (;;) {
		w->stopped = 0;
		rc = w->st->walk(w->params, w->nparams, r->buf, r->len, synced, sr_on_item, w);
		if (w->user_rc)
			return w->user_rc;
		if (rc != 0 && rc != SR_STOP)
			return rc;
		if (!w->stopped) {
			if (r->eof)
				break;
			sr_drop(r, r->len);
		} else {
			sr_drop(r, w->resume);
			synced = w->resume_synced;
		}
		sr_fill(r);
		if (r->len == 0 && r->eof)
			break;
	}
	return sr_flush(w);
}

#endif
