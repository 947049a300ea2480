/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs' view of a file of RISC-V encodings, for tests/riscv/objdump_check.py.
 *
 *   riscv_view SIZE XLEN IN OUT
 *
 * IN holds little-endian items of SIZE bytes (2: 16-bit parcels, 4: 32-bit words);
 * each is classified with pmregs_riscv_insn_decode(item, XLEN) and written to OUT as
 * a 16-byte record: imm (8 bytes, little-endian two's complement), length, kind, rd,
 * rs1, itype, flags, two zero bytes.
 *
 * Built with -DRISCV_VIEW_PEERS it classifies jalr with rs1 = x0 as the public peers do
 * (uninferable), so that tests/riscv/checks.sh can show the comparison fails it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <pmregs/riscv.h>

int main(int argc, char **argv)
{
	FILE *in, *out;
	unsigned size, xlen, i;
	unsigned char b[4], r[16];
	if (argc != 5) {
		fprintf(stderr, "usage: riscv_view SIZE XLEN IN OUT\n");
		return 2;
	}
	size = (unsigned)atoi(argv[1]);
	xlen = (unsigned)atoi(argv[2]);
	if ((size != 2 && size != 4) || (xlen != 32 && xlen != 64)) {
		fprintf(stderr, "riscv_view: SIZE is 2 or 4, XLEN 32 or 64\n");
		return 2;
	}
	in = fopen(argv[3], "rb");
	out = fopen(argv[4], "wb");
	if (!in || !out) {
		perror("riscv_view");
		return 1;
	}
	while (fread(b, 1, size, in) == size) {
		uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (size == 4 ? (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0);
		struct pmregs_riscv_insn d = pmregs_riscv_insn_decode(w, xlen);
		uint64_t imm;
#ifdef RISCV_VIEW_PEERS
		if (d.kind == PMREGS_RISCV_KIND_JALR && d.rs1 == 0) {
			d.flags = (uint8_t)(d.flags ^ (PMREGS_RISCV_FLAG_INFERABLE | PMREGS_RISCV_FLAG_UNINFERABLE));
			d.itype = (uint8_t)(d.itype - 1);
		}
#endif
		imm = (uint64_t)d.imm;
		for (i = 0; i < 8; i++)
			r[i] = (unsigned char)(imm >> (8 * i));
		r[8] = d.length;
		r[9] = d.kind;
		r[10] = d.rd;
		r[11] = d.rs1;
		r[12] = d.itype;
		r[13] = d.flags;
		r[14] = r[15] = 0;
		if (fwrite(r, 1, 16, out) != 16) {
			perror("riscv_view");
			return 1;
		}
	}
	if (ferror(in) || fclose(out) != 0) {
		perror("riscv_view");
		return 1;
	}
	fclose(in);
	return 0;
}
