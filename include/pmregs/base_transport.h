/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base_transport.h - byte-stream transport helpers for the packet streams.
 *
 *   pmregs_atb_gather()   the valid bytes of Arm Trace Bus beats (ATDATA + ATBYTES), in order,
 *                         ready for a stream walker
 *   pmregs_block_place()  keep a packet just written to a buffer off an M-byte block
 *                         boundary: move it to the next block and zero-fill the gap
 *
 * Both follow the E-Trace specification's transport notes: a packet on ATB may end in a
 * partial beat whose ATBYTES field gives its valid bytes, and packets written to memory in
 * M-byte blocks start every block with a packet, padding the end of a block with zero bytes
 * (which the stream walkers skip as fill). Nothing here allocates or calls the C library.
 */
#ifndef PMREGS_BASE_TRANSPORT_H
#define PMREGS_BASE_TRANSPORT_H

#include "base_core.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/*
 * Gather ATB beats in place. buf holds nbeats beats of beat_bytes bytes each (ATDATA,
 * least significant byte first); atbytes[i] is beat i's ATBYTES, its number of valid bytes
 * minus 1, and the valid bytes are the beat's low ones. The valid bytes of every beat are
 * moved, in order, to the front of buf and their count stored in *len. Returns PMREGS_OK,
 * or PMREGS_EINVAL (buf, atbytes and len untouched) when beat_bytes is 0 or a beat's
 * ATBYTES says more bytes than the beat has.
 */
static inline int pmregs_atb_gather(unsigned char *buf, size_t nbeats, size_t beat_bytes, const uint8_t *atbytes,
				    size_t *len)
{
	size_t i, j, out = 0;
	if (beat_bytes == 0)
		return PMREGS_EINVAL;
	for (i = 0; i < nbeats; i++)
		if ((size_t)atbytes[i] >= beat_bytes)
			return PMREGS_EINVAL;
	for (i = 0; i < nbeats; i++)
		for (j = 0; j <= (size_t)atbytes[i]; j++)
			buf[out++] = buf[i * beat_bytes + j]; /* out <= i * beat_bytes + j: never ahead of the source */
	*len = out;
	return PMREGS_OK;
}

/*
 * The block writer's step. A packet of n bytes (1 <= n <= block) has just been written at
 * buf[at]; the buffer is divided into blocks of `block` bytes from buf[0] and no packet may
 * span a block boundary. When this one would, it is moved to the start of the next block and
 * the bytes from buf[at] to that boundary become zero fill. *next is then where the next
 * packet goes. Returns PMREGS_OK; PMREGS_EINVAL when block is 0, n is 0 or n > block (the
 * packet can never fit); PMREGS_ENOSPC when the moved packet would pass cap. On an error
 * nothing is moved and *next is left alone.
 *
 *   n = pmregs_etrace_smi_stream_put(p, &frame, &pkt, buf + used, cap - used);
 *   if (n > 0) rc = pmregs_block_place(buf, cap, used, (size_t)n, 1024, &used);
 */
static inline int pmregs_block_place(unsigned char *buf, size_t cap, size_t at, size_t n, size_t block, size_t *next)
{
	size_t room, k;
	if (block == 0 || n == 0 || n > block || at > cap || n > cap - at)
		return PMREGS_EINVAL;
	room = block - at % block;
	if (n <= room) {
		*next = at + n;
		return PMREGS_OK;
	}
	if (room > cap - at - n)
		return PMREGS_ENOSPC;
	for (k = n; k-- > 0;) /* backwards: the destination lies past the source */
		buf[at + room + k] = buf[at + k];
	for (k = 0; k < room; k++)
		buf[at + k] = 0;
	*next = at + room + n;
	return PMREGS_OK;
}

PMREGS_C_END
#endif /* __ASSEMBLER__ */

#endif /* PMREGS_BASE_TRANSPORT_H */
