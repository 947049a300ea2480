/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/etrace_decoder.h - the E-Trace instruction trace decoder: te_inst
 * packets plus the program image in, the retired instructions out.
 *
 * Hand-written. It follows the pseudo-code of the E-Trace specification's
 * "Decoder" chapter (process_te_inst, follow_execution_path, next_pc, the
 * return stack, the branch map) and adds what that chapter leaves out but the
 * "Branch Trace" and payload chapters define: the return stack of
 * 2^return_stack_size_p entries (or 2^call_counter_size_p with a call
 * counter), the jump target cache (format 0.1) and the branch predictor
 * (format 0.0), the options learnt from support packets, and irreport/irdepth,
 * notify and updiscon in every "looplabel" case.
 *
 * What it needs from the caller:
 *   - the parameters (struct pmregs_etrace_params) the packets were decoded with;
 *   - the program image: sorted address ranges of instruction bytes
 *     (struct pmregs_etrace_image_range), optionally each with a caller-owned
 *     array of pre-decoded instructions (one 8-byte record per halfword, filled
 *     lazily or up front by pmregs_etrace_image_predecode()), and/or a read
 *     callback for code outside the ranges;
 *   - storage for the return stack, the jump target cache and the branch
 *     predictor, sized by pmregs_etrace_decoder_stack_entries() and friends.
 * No heap, no globals: one struct pmregs_etrace_decoder per hart.
 *
 * Packets go in one at a time (pmregs_etrace_decoder_packet(), or
 * pmregs_etrace_decode_smi() which pulls them from an SMI stream walker).
 * Results come out as struct pmregs_etrace_item records in the caller's array:
 * one per retired instruction, trap, context report and inconsistency. When
 * the array is full the call returns PMREGS_ENOSPC and the next call (with the
 * same packet) resumes exactly where it stopped. Or they go to a consumer
 * function, one call per item, to the end of the stream
 * (pmregs_etrace_decode_smi_each(): inlined with a static consumer, no item is
 * stored, the fastest form).
 *
 * An inconsistent trace (a branch with no map bit, branches left when the
 * reported address is reached, an address that is not code, a packet that
 * cannot follow the ones before it, a path that never reaches the reported
 * address) gives an item of type PMREGS_ETRACE_ITEM_ERROR naming the packet and
 * the reason (pmregs_etrace_decoder_reason_name()); the call returns
 * PMREGS_EINVAL and the decoder waits for the next synchronisation packet
 * (format 3 subformat 0, or subformat 1 with thaddr = 1). The work per packet
 * is bounded: at most max_run instructions are followed between two resolved
 * branches (see struct pmregs_etrace_decoder_config), so a path that never
 * reaches the reported address stops with PMREGS_ETRACE_REASON_RUNAWAY; a packet
 * resolves at most 63 map bits, or branch_count + 32 predicted branches (format
 * 0.0), and config.max_steps caps the instructions one packet may follow
 * (within max_run) for callers that must bound the work of hostile input. An
 * instruction is only read inside an image range (or through the callback):
 * anything else is PMREGS_ETRACE_REASON_NOT_CODE.
 *
 * Choices where the specification leaves something open (each pinned by
 * tests/etrace/test_etrace_decoder.c):
 *   - Addresses are taken modulo 2^min(iaddress_width_p, XLEN): a
 *     differential address is sign-extended from the address field's width,
 *     added, and the sum masked; a full address is masked, never sign-extended
 *     (so 0x80000000 on RV32 stays 0x80000000). Image range bases are masked
 *     the same way when they are looked up.
 *   - jalr with rs1 = x0 is an inferable jump to the absolute address imm & ~1
 *     (the ISA's rule; the reference decoder adds the pc).
 *   - The return stack holds 2^return_stack_size_p entries; with a call counter
 *     instead it holds up to 2^call_counter_size_p - 1 (the largest count the
 *     counter's irdepth can report; pmregs_etrace_decoder_stack_depth_max()).
 *     A push onto a full stack drops the oldest entry. irdepth is compared,
 *     as the pseudo-code does, with the depth at a return before it pops (a
 *     return met at that depth is the reported one: its target is the
 *     packet's address) and with the depth at the reported address.
 *   - An instruction reached through an implicit return or a sequentially
 *     inferable jump may be the reported one (the pseudo-code's
 *     !is_uninferable_discon(last_pc) in follow_execution_path would exclude
 *     it, leaving the decoder no way to stop there). As for any other
 *     instruction met there, the depth must equal irdepth when irreport is
 *     asserted, and is not looked at when it is not: an encoder that cannot
 *     tell the instruction by its depth (the same depth reached by an earlier
 *     return since the last packet) leaves the branches to tell it, the first
 *     execution after the last branch (pmregs' encoder does; it never reports
 *     a later one without a new branch or a restart). With irdepth the depth
 *     before the reported return instead, the pseudo-code's own rule stops at
 *     the return.
 *   - Calls and returns are the ingress port chapter's classes with both link
 *     registers x1 and x5 (pmregs_riscv_insn_decode()'s CALL and RETURN flags);
 *     a co-routine swap pops (when implicit return applies) and then pushes.
 *   - The target of a sequentially inferable jump is masked with ~1, as jalr does.
 *   - Branch map bits above the packet's branch count are ignored (the
 *     pseudo-code ORs the whole field in).
 *   - The differential address base is the address of the instruction reported
 *     by the last packet that reported one: a format 0.1 packet (a jump target
 *     cache index) and a trap packet without address (implicit exception) move
 *     it too (the same reading as pmregs' encoder). A trap with thaddr = 0
 *     reports no instruction and leaves it.
 *   - Jump target cache: 2^cache_size_p entries, direct mapped, indexed by bits
 *     cache_size_p:1 of the target (cache_size_p+1:2 when iaddress_lsb_p is 2
 *     or more: no compressed instructions). Every uninferable discontinuity whose target
 *     a packet reports (a jump or an xRET followed to a reported address) writes
 *     its target into its entry; implicit returns and sequentially inferable
 *     jumps do not. A sync packet (format 3 subformat 0 or 1 with an address)
 *     invalidates every entry once the decoder has followed to its address. A
 *     format 0.1 packet naming an invalid entry is PMREGS_ETRACE_REASON_CACHE.
 *   - Branch predictor: 2^bpred_size_p two-bit states indexed by bits
 *     bpred_size_p:1 of the branch's address (bpred_size_p+1:2 when
 *     iaddress_lsb_p is 2 or more), every state 01 after a sync packet (reset once the
 *     decoder has followed to its address, so the branch that a sync packet's
 *     branch field reports updates the fresh table). Every branch the decoder
 *     resolves updates its state (whether its outcome came from a map bit or
 *     from the prediction) while branch prediction is on: the high bit is the
 *     prediction, the low bit the last outcome, and a prediction changes after
 *     two failures in a row. A format 0.0 packet adds branch_count + 31
 *     correctly predicted branches after the ones already pending; with
 *     branch_fmt addr_fail or no_addr one more branch follows them that failed
 *     its prediction. With no_addr the decoder stops at that branch (as at the
 *     last branch of a full format 1 map); with addr or addr_fail it follows to
 *     the address as for format 1.
 *   - Options come from support packets in the caller's ioptions layout
 *     (PMREGS_ETRACE_IOPTIONS_REF or _PULP); options a layout has no bit for
 *     (sijump in the reference layout) keep the value the caller configured.
 *   - Implicit exception: a trap packet without address (thaddr = 1) goes to
 *     the handler the caller's xtvec value for the packet's privilege gives
 *     (struct pmregs_etrace_decoder_config.tvec: direct, or vectored for
 *     interrupts), as the privileged ISA computes it.
 *   - An instruction whose encoding pmregs_riscv_insn_decode() flags illegal
 *     but whose length is known (e.g. a custom extension) runs on sequentially;
 *     one of reserved length is PMREGS_ETRACE_REASON_NOT_CODE.
 *   - The trap item's EPC (exceptions only, as the pseudo-code's report_epc):
 *     the reported address when thaddr = 0 and the last instruction is an
 *     uninferable discontinuity, the ecall/ebreak itself, else the instruction
 *     after the last one (computed by next_pc, which moves the state on as the
 *     pseudo-code does). At the start of a trace a thaddr = 0 trap's address is
 *     the EPC (the payload chapter's "exception on the 1st traced
 *     instruction"). After an inconsistency, and for interrupts, it is unknown.
 *   - An inconsistency met while processing a format 3 subformat 0 packet, or a
 *     subformat 1 packet with thaddr = 1, restarts the decoder at that
 *     packet's address at once (it is a full synchronisation); any other
 *     packet makes it wait for the next one. A format 0-2 packet before the
 *     first synchronisation is one PMREGS_ETRACE_REASON_NO_SYNC; the decoder
 *     skips the ones after it silently until a synchronisation packet comes.
 *
 * Parallel decoding: a synchronisation packet restarts the state (only the
 * options carry over), so a trace splits at them into chunks that decode
 * independently; see pmregs_etrace_decoder_is_restart(),
 * pmregs_etrace_smi_split() and the chunk modes of pmregs_etrace_decoder_init().
 */
#ifndef PMREGS_ETRACE_DECODER_H
#define PMREGS_ETRACE_DECODER_H

#include "etrace.h"
#include "riscv.h"

#ifndef __ASSEMBLER__

PMREGS_C_BEGIN

/* ---- the program image ---- */

/*
 * One pre-decoded instruction (8 bytes): what the decoder needs of the
 * instruction at a halfword. length 0 marks a record not decoded yet, so a
 * zero-filled array is an empty cache.
 */
struct pmregs_etrace_dinsn {
	int32_t imm;    /* branch/jal offset, jalr immediate, auipc/lui/c.lui value (pmregs_riscv_insn.imm); for any other
	                 * instruction that goes on at pc + length: its run (PMREGS_ETRACE_RUN_*), 0 = not known yet */
	uint8_t length; /* bytes (2, 4, 6, 8); 0 = not decoded yet */
	uint8_t kind;   /* enum pmregs_riscv_kind, or PMREGS_ETRACE_DKIND_BAD */
	uint8_t act;    /* PMREGS_ETRACE_ACT_* (low 3 bits) | PMREGS_ETRACE_DF_* flags */
	uint8_t reg;    /* rs1 of a jalr/c.jr/c.jalr, rd of auipc/lui/c.lui; for a bad record the reason */
};

#define PMREGS_ETRACE_DKIND_BAD 0xffu /* the halfword does not start a readable instruction */

/*
 * The run of a sequential record (act SEQ without DF_AUIPC/DF_LUI): the
 * instruction n after it (n >= 1) is span bytes on, and every instruction in
 * between goes on at pc + length too, so the decoder may step there at once.
 */
#define PMREGS_ETRACE_RUN_SPAN(imm) ((uint32_t)(imm) & 0xffffu)
#define PMREGS_ETRACE_RUN_N(imm)    ((uint32_t)(imm) >> 16)
#define PMREGS_ETRACE_RUN_MAX_N     0x7fffu /* imm stays positive */
#define PMREGS_ETRACE_RUN_MAX_SPAN  0xfffeu
/* Internal: a record whose imm is its run. */
#define PMREGS_ETRACE_DINSN_HAS_RUN(act) (((act) & (7u | PMREGS_ETRACE_DF_AUIPC | PMREGS_ETRACE_DF_LUI)) == PMREGS_ETRACE_ACT_SEQ)

/* What next_pc does with an instruction (act & 7). */
#define PMREGS_ETRACE_ACT_SEQ    0u /* goes on at pc + length */
#define PMREGS_ETRACE_ACT_BRANCH 1u /* conditional branch: pc + imm when taken */
#define PMREGS_ETRACE_ACT_JUMP   2u /* jal, c.j, c.jal: pc + imm */
#define PMREGS_ETRACE_ACT_JABS   3u /* jalr with rs1 = x0: imm & ~1 */
#define PMREGS_ETRACE_ACT_UNINF  4u /* jalr, c.jr, c.jalr with rs1 != x0 */
#define PMREGS_ETRACE_ACT_XRET   5u /* return from trap */
#define PMREGS_ETRACE_ACT_BAD    7u /* not an instruction the decoder can follow */
/* Flags in act's upper bits (also in an instruction item's info). */
#define PMREGS_ETRACE_DF_CALL   0x08u /* pushes a return address */
#define PMREGS_ETRACE_DF_RETURN 0x10u /* pops one (implicit return) */
#define PMREGS_ETRACE_DF_AUIPC  0x20u /* auipc: a sequentially inferable jump's base is its pc + imm */
#define PMREGS_ETRACE_DF_LUI    0x40u /* lui, c.lui: its base is imm */
#define PMREGS_ETRACE_DF_TRAPS  0x80u /* ecall, ebreak, c.ebreak: the exception address is the instruction itself */

/* One range of instruction bytes. Ranges are sorted by base and do not overlap. */
struct pmregs_etrace_image_range {
	uint64_t base;                      /* address of bytes[0] */
	const unsigned char *bytes;
	uint64_t len;                       /* bytes */
	struct pmregs_etrace_dinsn *cache;  /* optional: (len + 1) / 2 records, zero-filled or predecoded; 0 = none */
};

/*
 * The program image. read, when set, is asked for instructions outside every
 * range: it copies up to n (at most 8) bytes at address into buf and returns
 * how many it copied (0 = not code).
 */
struct pmregs_etrace_image {
	const struct pmregs_etrace_image_range *ranges;
	size_t nranges;
	unsigned (*read)(void *ctx, uint64_t address, unsigned char *buf, unsigned n);
	void *ctx;
	unsigned xlen; /* 32 or 64: RV32 or RV64 instruction classes (c.jal vs c.addiw) */
	uint8_t pmregs_pad[4]; /* unused: the struct's size without implicit padding */
};

/* Reasons a halfword is not a readable instruction (a bad record's reg). */
#define PMREGS_ETRACE_BAD_OUTSIDE  1u /* outside every range and the callback */
#define PMREGS_ETRACE_BAD_STRADDLE 2u /* the instruction runs past the end of its range */
#define PMREGS_ETRACE_BAD_LENGTH   3u /* a reserved or longer-than-64-bit length encoding */
#define PMREGS_ETRACE_BAD_ODD      4u /* an odd address */

/* Decode the instruction in b[0..avail) into *r (xlen 32 or 64). */
static inline void pmregs_etrace_dinsn_make(struct pmregs_etrace_dinsn *r, const unsigned char *b, uint64_t avail, unsigned xlen)
{
	struct pmregs_riscv_insn i;
	uint32_t w;
	unsigned len, act;
	r->imm = 0;
	r->kind = (uint8_t)PMREGS_ETRACE_DKIND_BAD;
	r->act = (uint8_t)PMREGS_ETRACE_ACT_BAD;
	r->length = 1; /* decoded, but bad */
	if (avail < 2) {
		r->reg = (uint8_t)PMREGS_ETRACE_BAD_STRADDLE;
		return;
	}
	w = (uint32_t)b[0] | ((uint32_t)b[1] << 8);
	len = pmregs_riscv_insn_length(w);
	if (len == 0) {
		r->reg = (uint8_t)PMREGS_ETRACE_BAD_LENGTH;
		return;
	}
	if ((uint64_t)len > avail) {
		r->reg = (uint8_t)PMREGS_ETRACE_BAD_STRADDLE;
		return;
	}
	if (len >= 4)
		w |= ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
	i = pmregs_riscv_insn_decode(w, xlen);
	r->length = (uint8_t)len;
	r->kind = i.kind;
	r->imm = (int32_t)i.imm;
	r->reg = i.rd;
	act = PMREGS_ETRACE_ACT_SEQ;
	switch (i.kind) {
	case PMREGS_RISCV_KIND_BRANCH:
		act = PMREGS_ETRACE_ACT_BRANCH;
		break;
	case PMREGS_RISCV_KIND_JAL:
		act = PMREGS_ETRACE_ACT_JUMP;
		break;
	case PMREGS_RISCV_KIND_JALR:
		act = (i.flags & PMREGS_RISCV_FLAG_UNINFERABLE) ? PMREGS_ETRACE_ACT_UNINF : PMREGS_ETRACE_ACT_JABS;
		r->reg = i.rs1;
		break;
	case PMREGS_RISCV_KIND_AUIPC:
		act |= PMREGS_ETRACE_DF_AUIPC;
		break;
	case PMREGS_RISCV_KIND_LUI:
		act |= PMREGS_ETRACE_DF_LUI;
		break;
	case PMREGS_RISCV_KIND_ECALL:
	case PMREGS_RISCV_KIND_EBREAK:
		act |= PMREGS_ETRACE_DF_TRAPS;
		break;
	case PMREGS_RISCV_KIND_XRET:
		act = PMREGS_ETRACE_ACT_XRET;
		break;
	default:
		break;
	}
	if (i.flags & PMREGS_RISCV_FLAG_CALL)
		act |= PMREGS_ETRACE_DF_CALL;
	if (i.flags & PMREGS_RISCV_FLAG_RETURN)
		act |= PMREGS_ETRACE_DF_RETURN;
	r->act = (uint8_t)act;
	if (PMREGS_ETRACE_DINSN_HAS_RUN(act))
		r->imm = 0; /* its run: not known yet */
}

/*
 * Internal: the run of the sequential record at byte offset off of a range's
 * records rec (bytes b, len bytes), and of every sequential record on the way:
 * over sequential instructions up to the first other one, the caps, or the
 * offset limit (no instruction at or past it is stepped to). Records on the way
 * not decoded yet are decoded.
 */
static inline void pmregs_etrace_dinsn_run(struct pmregs_etrace_dinsn *rec, const unsigned char *b, uint64_t len, uint64_t limit,
					   uint64_t off, unsigned xlen)
{
	uint64_t x = off, n = 0, end, k;
	for (;;) {
		uint64_t nx = x + rec[x >> 1].length;
		if ((rec[x >> 1].act & 7u) != PMREGS_ETRACE_ACT_SEQ || nx >= limit || nx - off > PMREGS_ETRACE_RUN_MAX_SPAN ||
		    n == PMREGS_ETRACE_RUN_MAX_N)
			break;
		if (!rec[nx >> 1].length)
			pmregs_etrace_dinsn_make(&rec[nx >> 1], b + nx, len - nx, xlen);
		x = nx;
		n++;
	}
	end = x;
	if (n == 0) {
		rec[off >> 1].imm = (int32_t)(rec[off >> 1].length | (1u << 16)); /* the next instruction only */
		return;
	}
	for (x = off, k = n; k > 0; k--) {
		if (PMREGS_ETRACE_DINSN_HAS_RUN(rec[x >> 1].act))
			rec[x >> 1].imm = (int32_t)((uint32_t)(end - x) | ((uint32_t)k << 16));
		x += rec[x >> 1].length;
	}
}

/*
 * Fill a range's cache (range->cache must hold (len + 1) / 2 records) with
 * every halfword decoded, runs included. Optional: the decoder fills records
 * lazily as it meets them; this moves the work before decoding (and makes the
 * records read-only, so threads may share them).
 */
static inline void pmregs_etrace_image_predecode(const struct pmregs_etrace_image_range *range, unsigned xlen)
{
	uint64_t off;
	if (!range->cache)
		return;
	for (off = 0; off < range->len; off += 2)
		pmregs_etrace_dinsn_make(&range->cache[off >> 1], range->bytes + off, range->len - off, xlen);
	for (off = 0; off < range->len; off += 2)
		if (PMREGS_ETRACE_DINSN_HAS_RUN(range->cache[off >> 1].act) && range->cache[off >> 1].imm == 0)
			pmregs_etrace_dinsn_run(range->cache, range->bytes, range->len, range->len, off, xlen);
}

/* ---- ELF images ---- */

/* Why pmregs_etrace_elf_ranges() refuses a file. */
#define PMREGS_ETRACE_ELF_OK        0
#define PMREGS_ETRACE_ELF_NOT_ELF   1 /* no ELF magic, or shorter than an ELF header */
#define PMREGS_ETRACE_ELF_CLASS     2 /* neither ELFCLASS32 nor ELFCLASS64 */
#define PMREGS_ETRACE_ELF_ENDIAN    3 /* not little-endian */
#define PMREGS_ETRACE_ELF_MACHINE   4 /* not RISC-V (e_machine 243) */
#define PMREGS_ETRACE_ELF_PHDRS     5 /* the program header table lies outside the file or has a bad entry size */
#define PMREGS_ETRACE_ELF_SEGMENT   6 /* a loadable segment's bytes lie outside the file */
#define PMREGS_ETRACE_ELF_OVERLAP   7 /* two loadable segments overlap */
#define PMREGS_ETRACE_ELF_TOO_MANY  8 /* more executable segments than the caller's array holds */
#define PMREGS_ETRACE_ELF_NO_CODE   9 /* no loadable segment with bytes */

/* A sentence for a PMREGS_ETRACE_ELF_* status of pmregs_etrace_elf_ranges(). */
static inline const char *pmregs_etrace_elf_strerror(int e)
{
	switch (e) {
	case PMREGS_ETRACE_ELF_OK:
		return "ok";
	case PMREGS_ETRACE_ELF_NOT_ELF:
		return "not an ELF file";
	case PMREGS_ETRACE_ELF_CLASS:
		return "neither a 32-bit nor a 64-bit ELF file";
	case PMREGS_ETRACE_ELF_ENDIAN:
		return "not a little-endian ELF file";
	case PMREGS_ETRACE_ELF_MACHINE:
		return "not a RISC-V ELF file";
	case PMREGS_ETRACE_ELF_PHDRS:
		return "program header table outside the file";
	case PMREGS_ETRACE_ELF_SEGMENT:
		return "loadable segment outside the file";
	case PMREGS_ETRACE_ELF_OVERLAP:
		return "loadable segments overlap";
	case PMREGS_ETRACE_ELF_TOO_MANY:
		return "too many loadable segments";
	case PMREGS_ETRACE_ELF_NO_CODE:
		return "no loadable segment with bytes";
	default:
		return "unknown ELF error";
	}
}

/*
 * The instruction ranges of a little-endian RISC-V ELF file (ELF32 or ELF64)
 * held in elf[0..len): its loadable (PT_LOAD) segments that are executable
 * (PF_X), or every loadable segment when none is, each the segment's file
 * bytes at its virtual address, sorted by address; range.cache is set to 0.
 * *xlen is 32 or 64 from the file's class. Every offset and size is checked
 * against len, so a truncated or hostile file is refused, never read past.
 * Returns the number of ranges (>= 1), or -(PMREGS_ETRACE_ELF_*).
 */
static inline int pmregs_etrace_elf_ranges(const void *elf, size_t len, struct pmregs_etrace_image_range *out, size_t max,
					   unsigned *xlen)
{
	const unsigned char *e = (const unsigned char *)elf;
	uint64_t phoff, phentsize, phnum, i;
	size_t n = 0, k;
	int is64, pass;
	if (len < 52 || e[0] != 0x7f || e[1] != 'E' || e[2] != 'L' || e[3] != 'F')
		return -PMREGS_ETRACE_ELF_NOT_ELF;
	if (e[4] != 1 && e[4] != 2)
		return -PMREGS_ETRACE_ELF_CLASS;
	is64 = e[4] == 2;
	if (e[5] != 1)
		return -PMREGS_ETRACE_ELF_ENDIAN;
	if (is64 && len < 64)
		return -PMREGS_ETRACE_ELF_NOT_ELF;
	if (pmregs_load_le16(e + 18) != 243)
		return -PMREGS_ETRACE_ELF_MACHINE;
	*xlen = is64 ? 64u : 32u;
	phoff = is64 ? pmregs_load_le64(e + 32) : pmregs_load_le32(e + 28);
	phentsize = pmregs_load_le16(e + (is64 ? 54 : 42));
	phnum = pmregs_load_le16(e + (is64 ? 56 : 44));
	if (phnum && (phentsize < (is64 ? 56u : 32u) || phoff > len || phnum > (len - phoff) / phentsize))
		return -PMREGS_ETRACE_ELF_PHDRS;
	/* pass 0: executable segments; pass 1 (when there are none): every loadable one */
	for (pass = 0; pass < 2 && n == 0; pass++) {
		for (i = 0; i < phnum; i++) {
			const unsigned char *ph = e + phoff + i * phentsize;
			uint64_t type = pmregs_load_le32(ph), flags, off, vaddr, filesz;
			if (type != 1)
				continue;
			if (is64) {
				flags = pmregs_load_le32(ph + 4);
				off = pmregs_load_le64(ph + 8);
				vaddr = pmregs_load_le64(ph + 16);
				filesz = pmregs_load_le64(ph + 32);
			} else {
				off = pmregs_load_le32(ph + 4);
				vaddr = pmregs_load_le32(ph + 8);
				filesz = pmregs_load_le32(ph + 16);
				flags = pmregs_load_le32(ph + 24);
			}
			if (off > len || filesz > len - off)
				return -PMREGS_ETRACE_ELF_SEGMENT;
			if (filesz == 0 || (pass == 0 && !(flags & 1u)))
				continue;
			if (vaddr + filesz < vaddr)
				return -PMREGS_ETRACE_ELF_SEGMENT;
			if (n == max)
				return -PMREGS_ETRACE_ELF_TOO_MANY;
			/* insert sorted by address */
			for (k = n; k > 0 && out[k - 1].base > vaddr; k--)
				out[k] = out[k - 1];
			out[k].base = vaddr;
			out[k].bytes = e + off;
			out[k].len = filesz;
			out[k].cache = PMREGS_NULL;
			n++;
		}
	}
	if (n == 0)
		return -PMREGS_ETRACE_ELF_NO_CODE;
	for (k = 1; k < n; k++)
		if (out[k - 1].base + out[k - 1].len > out[k].base)
			return -PMREGS_ETRACE_ELF_OVERLAP;
	return (int)n;
}

/* ---- output items ---- */

#define PMREGS_ETRACE_ITEM_INSN    0u /* a retired instruction */
#define PMREGS_ETRACE_ITEM_TRAP    1u /* an exception or interrupt */
#define PMREGS_ETRACE_ITEM_CONTEXT 2u /* a context packet (format 3 subformat 2) */
#define PMREGS_ETRACE_ITEM_ERROR   3u /* an inconsistency: the decoder waits for, or restarts at, a sync packet */

/* A trap item's length bits. */
#define PMREGS_ETRACE_TRAP_INTERRUPT 1u /* an interrupt (else an exception) */
#define PMREGS_ETRACE_TRAP_THADDR    2u /* the packet's thaddr: the handler's first instruction follows */
#define PMREGS_ETRACE_TRAP_EPC       4u /* address holds the EPC */

/*
 * One output record (24 bytes).
 *   INSN:    address, length, kind (enum pmregs_riscv_kind), privilege;
 *            info = the PMREGS_ETRACE_DF_CALL / _RETURN flags; value = the
 *            index of the packet whose processing retired it.
 *   TRAP:    address = the EPC when length has PMREGS_ETRACE_TRAP_EPC, else 0;
 *            value = tval (0 for an interrupt); info = ecause (its low 32
 *            bits); length = PMREGS_ETRACE_TRAP_* bits; privilege = the packet's.
 *   CONTEXT: address = the context value, value = the time value, privilege.
 *   ERROR:   address = the pc the decoder had reached, value = the index of
 *            the packet, info = the reason (PMREGS_ETRACE_REASON_*).
 * Packet indices count every te_inst packet given to the decoder, from 0.
 */
struct pmregs_etrace_item {
	uint64_t address;
	uint64_t value;
	uint32_t info;
	uint8_t length;
	uint8_t kind;
	uint8_t privilege;
	uint8_t type; /* PMREGS_ETRACE_ITEM_* */
};

/* A consumer of items (pmregs_etrace_decode_smi_each()): called for each, in order; item is a temporary. */
typedef void (*pmregs_etrace_item_fn)(void *ctx, const struct pmregs_etrace_item *item);

/* Internal: 1 where an item's info..type may be written as one little-endian 64-bit word. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PMREGS_ETRACE_ITEM_WORD 1
#else
#define PMREGS_ETRACE_ITEM_WORD 0
#endif

/* ---- why a trace is inconsistent ---- */

#define PMREGS_ETRACE_REASON_NONE          0u
#define PMREGS_ETRACE_REASON_NO_SYNC       1u  /* a format 0-2 packet before the first synchronisation */
#define PMREGS_ETRACE_REASON_NO_BRANCH     2u  /* a branch with no map bit or prediction left to resolve it */
#define PMREGS_ETRACE_REASON_UNPROCESSED   3u  /* the reported address was reached with branches left */
#define PMREGS_ETRACE_REASON_UNINFERABLE   4u  /* an uninferable discontinuity before the last branch of a full map */
#define PMREGS_ETRACE_REASON_NOT_CODE      5u  /* an address outside the image, odd, or not an instruction */
#define PMREGS_ETRACE_REASON_RUNAWAY       6u  /* max_run instructions followed without resolving a branch */
#define PMREGS_ETRACE_REASON_CACHE         7u  /* format 0.1 names an empty jump target cache entry (or there is no cache) */
#define PMREGS_ETRACE_REASON_PREDICTOR     8u  /* format 0.0 without predictor storage, or with a branch_fmt that cannot occur */
#define PMREGS_ETRACE_REASON_BAD_PACKET    9u  /* a packet shape the decoder does not know */
#define PMREGS_ETRACE_REASON_NO_HANDLER    10u /* a trap without address and no trap vector for its privilege */
#define PMREGS_ETRACE_REASON_COUNT         11u

/* A short name for a reason ("unprocessed-branches", ...). */
static inline const char *pmregs_etrace_decoder_reason_name(unsigned reason)
{
	switch (reason) {
	case PMREGS_ETRACE_REASON_NONE:
		return "none";
	case PMREGS_ETRACE_REASON_NO_SYNC:
		return "no-sync";
	case PMREGS_ETRACE_REASON_NO_BRANCH:
		return "no-branch-bit";
	case PMREGS_ETRACE_REASON_UNPROCESSED:
		return "unprocessed-branches";
	case PMREGS_ETRACE_REASON_UNINFERABLE:
		return "unexpected-uninferable";
	case PMREGS_ETRACE_REASON_NOT_CODE:
		return "not-code";
	case PMREGS_ETRACE_REASON_RUNAWAY:
		return "runaway";
	case PMREGS_ETRACE_REASON_CACHE:
		return "jump-cache-miss";
	case PMREGS_ETRACE_REASON_PREDICTOR:
		return "branch-count";
	case PMREGS_ETRACE_REASON_BAD_PACKET:
		return "bad-packet";
	case PMREGS_ETRACE_REASON_NO_HANDLER:
		return "no-trap-handler";
	default:
		return "unknown";
	}
}

/* A sentence for a reason. */
static inline const char *pmregs_etrace_decoder_reason_text(unsigned reason)
{
	switch (reason) {
	case PMREGS_ETRACE_REASON_NONE:
		return "no inconsistency";
	case PMREGS_ETRACE_REASON_NO_SYNC:
		return "packet before the first synchronisation packet";
	case PMREGS_ETRACE_REASON_NO_BRANCH:
		return "branch with no map bit or prediction to resolve it";
	case PMREGS_ETRACE_REASON_UNPROCESSED:
		return "reported address reached with branches left to process";
	case PMREGS_ETRACE_REASON_UNINFERABLE:
		return "uninferable discontinuity before the last branch of a full branch map";
	case PMREGS_ETRACE_REASON_NOT_CODE:
		return "address is not an instruction of the image";
	case PMREGS_ETRACE_REASON_RUNAWAY:
		return "reported address not reached within the run limit";
	case PMREGS_ETRACE_REASON_CACHE:
		return "jump target cache entry is empty";
	case PMREGS_ETRACE_REASON_PREDICTOR:
		return "branch count packet the decoder cannot use";
	case PMREGS_ETRACE_REASON_BAD_PACKET:
		return "packet shape the decoder does not know";
	case PMREGS_ETRACE_REASON_NO_HANDLER:
		return "trap without address and no trap vector for its privilege";
	default:
		return "unknown reason";
	}
}

/* ---- options ---- */

/* Run-time options (the first five are the reference flow's ioptions bits). */
#define PMREGS_ETRACE_OPT_IMPLICIT_RETURN    0x01u
#define PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION 0x02u
#define PMREGS_ETRACE_OPT_FULL_ADDRESS       0x04u
#define PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE  0x08u
#define PMREGS_ETRACE_OPT_BRANCH_PREDICTION  0x10u
#define PMREGS_ETRACE_OPT_SIJUMP             0x20u

/* Which ioptions layout support packets use. */
#define PMREGS_ETRACE_IOPTIONS_NONE 0u /* support packets' ioptions are ignored: the configured options stay */
#define PMREGS_ETRACE_IOPTIONS_REF  1u /* layout ioptions_ref (reference flow, FZI's reference options): 5 bits, no sijump */
#define PMREGS_ETRACE_IOPTIONS_PULP 2u /* layout ioptions_pulp (PULP rv_tracer): 7 bits */

/* The options an ioptions value of the given layout carries, and the mask of those it can say anything about. */
static inline uint32_t pmregs_etrace_ioptions_to_options(unsigned layout, uint32_t ioptions, uint32_t *known)
{
	uint32_t o = 0;
	if (layout == PMREGS_ETRACE_IOPTIONS_REF) {
		*known = 0x1fu;
		return ioptions & 0x1fu;
	}
	if (layout == PMREGS_ETRACE_IOPTIONS_PULP) {
		*known = 0x3fu;
		o |= (ioptions & 0x01u) ? PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE : 0u;
		o |= (ioptions & 0x02u) ? PMREGS_ETRACE_OPT_BRANCH_PREDICTION : 0u;
		o |= (ioptions & 0x04u) ? PMREGS_ETRACE_OPT_IMPLICIT_RETURN : 0u;
		o |= (ioptions & 0x08u) ? PMREGS_ETRACE_OPT_SIJUMP : 0u;
		o |= (ioptions & 0x10u) ? PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION : 0u;
		o |= (ioptions & 0x20u) ? PMREGS_ETRACE_OPT_FULL_ADDRESS : 0u;
		return o;
	}
	*known = 0;
	return 0;
}

/* ---- storage sizes ---- */

/* Return stack entries to provide (uint64_t each): 2^return_stack_size_p, else 2^call_counter_size_p. */
static inline uint64_t pmregs_etrace_decoder_stack_entries(const struct pmregs_etrace_params *p)
{
	return (uint64_t)1 << (p->return_stack_size_p ? p->return_stack_size_p : p->call_counter_size_p);
}

/*
 * The deepest the return stack gets (the pseudo-code's irstack_depth_max): 2^return_stack_size_p
 * with a return stack; with a call counter 2^call_counter_size_p - 1, the largest count its
 * call_counter_size_p-bit irdepth can report (the pseudo-code says 2^call_counter_size_p, which
 * irdepth cannot carry; the counter saturates there instead).
 */
static inline uint64_t pmregs_etrace_decoder_stack_depth_max(const struct pmregs_etrace_params *p)
{
	if (p->return_stack_size_p)
		return (uint64_t)1 << p->return_stack_size_p;
	return ((uint64_t)1 << p->call_counter_size_p) - 1;
}

/* Jump target cache entries (uint64_t each): 2^cache_size_p. */
static inline uint64_t pmregs_etrace_decoder_cache_entries(const struct pmregs_etrace_params *p)
{
	return (uint64_t)1 << p->cache_size_p;
}

/* Branch predictor entries (uint8_t each, one 2-bit state): 2^bpred_size_p. */
static inline uint64_t pmregs_etrace_decoder_bpred_entries(const struct pmregs_etrace_params *p)
{
	return (uint64_t)1 << p->bpred_size_p;
}

/* ---- configuration and state ---- */

/* How the first and the last packet given to the decoder are treated (parallel chunks). */
#define PMREGS_ETRACE_CHUNK_FIRST 1u /* the first packet is a chunk's opening sync: processed as a start of trace, its trap item left to the chunk before */
#define PMREGS_ETRACE_CHUNK_LAST  2u /* see pmregs_etrace_decoder_end_chunk() */

struct pmregs_etrace_decoder_config {
	const struct pmregs_etrace_params *params; /* must outlive the decoder; never written */
	const struct pmregs_etrace_image *image;   /* must outlive the decoder */
	uint64_t *return_stack; /* pmregs_etrace_decoder_stack_entries() entries; 0 = no implicit return */
	uint64_t *jump_cache;   /* pmregs_etrace_decoder_cache_entries() entries; 0 = format 0.1 is an error */
	uint8_t *bpred;         /* pmregs_etrace_decoder_bpred_entries() entries; 0 = format 0.0 is an error */
	uint64_t max_run;         /* instructions followed without resolving a branch before RUNAWAY; 0 = the default */
	uint64_t max_steps;       /* instructions one packet may follow (counted at its branches); 0 = no limit */
	uint64_t tvec[8];         /* implicit exception: the xtvec value (base | mode) for a handler of each privilege; 0 = none */
	uint64_t first_packet;    /* index of the first packet given (a chunk's; 0 for a whole trace) */
	unsigned ioptions_layout; /* PMREGS_ETRACE_IOPTIONS_* */
	uint32_t options;         /* PMREGS_ETRACE_OPT_* in force before the first support packet */
	unsigned chunk;           /* PMREGS_ETRACE_CHUNK_FIRST or 0 */
	uint8_t pmregs_pad[4]; /* unused: the struct's size without implicit padding */
};

/*
 * A walker over an SMI stream and the packet being decoded. Its parameter copy
 * p decodes the packets; its implicit_exception follows the decoder's options
 * (which support packets may change).
 */
struct pmregs_etrace_smi_feed {
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it; /* the packet being decoded (its frame and payload_len are not always filled) */
	/* the widths only the parameters decide, filled by each pmregs_etrace_decode_smi() call from p
	 * (implicit_exception, which changes, is none of them) */
	struct pmregs_etrace_smi_layout fl;
	struct pmregs_etrace_te_inst_layout tl;
	size_t end;         /* a chunk's end: the offset of the next chunk's first packet (or the length) */
	uint64_t unreadable; /* stream items that could not be read (each makes the decoder lose its place) */
	uint64_t inconsistent; /* packets the decoder found inconsistent */
	int pending;        /* it holds a packet the decoder has not finished */
	struct pmregs_etrace_params p; /* bytes only */
	uint8_t pmregs_pad[3]; /* unused: the struct's size without implicit padding */
};
/* pmregs_etrace_dec_follow()'s returns under a feed besides PMREGS_OK (internal): the packet is done and ... */
#define PMREGS_ETRACE_DEC_NEXT 1 /* ... the feed's next item is in it, not looked at yet */
#define PMREGS_ETRACE_DEC_END  2 /* ... the stream ended */
/* pmregs_etrace_decoder_packet()'s return under pmregs_etrace_decode_smi_each() (internal): the packet is to be followed */
#define PMREGS_ETRACE_DEC_FOLLOW 3

/* The state. Treat it as opaque; the counters and the last error may be read. */
struct pmregs_etrace_decoder {
	/* configuration */
	const struct pmregs_etrace_params *p;
	const struct pmregs_etrace_image *img;
	uint64_t *stack, *jcache;
	uint8_t *bpred;
	uint64_t stack_mask, stack_max, jcache_mask, bpred_mask, amask, max_run, max_steps;
	uint64_t tvec[8];
	unsigned idx_shift, lsb, ashift, layout, xlen; /* ashift: 64 - the address field's width (at least 1) */
	uint32_t options;
	/* the range last looked up; offsets below rfast have records and do not wrap the address space */
	uint64_t rbase, rlen, rfast;
	const unsigned char *rbytes;
	struct pmregs_etrace_dinsn *rcache;
	struct pmregs_etrace_smi_feed *feed; /* during pmregs_etrace_decode_smi() and _each(): where the packets come from */
	/* the pseudo-code's globals */
	uint64_t pc, last_pc, address, base, prev_address;
	struct pmregs_etrace_dinsn cur, last; /* the instructions at pc and last_pc */
	uint64_t branch_map, branch_inv, bq_run;
	uint64_t stack_base, irstack_depth;
	uint64_t run, steps;
	uint64_t jtc_index;
	uint64_t irdepth; /* of the packet being processed */
	/* counters: te_inst packets seen, items written by type */
	uint64_t packets, insns, traps, contexts, errors;
	/* the last inconsistency */
	uint64_t err_packet, err_address;
	unsigned err_reason;
	unsigned branches, bq_head;
	uint8_t start_of_trace, inferred_address, stop_at_last_branch, privilege;
	uint8_t lost, chunk_first, end_chunk, phase;
	uint8_t jtc_deferred; /* a format 0.1 packet's cache entry is read once the inferred address is passed */
	/* the packet being processed */
	uint8_t notify, updiscon, irreport, fmt3;
	uint8_t tables_dirty; /* the jump target cache or the predictor was written since the last reset */
	uint8_t use; /* PMREGS_ETRACE_USE_*: what the options and the storage turn on, from pmregs_etrace_dec_set_options() */
	uint8_t sem_due; /* notify, updiscon, irreport and irdepth are still to be read from the packet (pmregs_etrace_dec_sem()) */
	uint8_t each; /* under pmregs_etrace_decode_smi_each(): pmregs_etrace_decoder_packet() leaves the follow to it */
	uint8_t pmregs_pad[3]; /* unused: the struct's size without implicit padding */
};

/* What the options and the storage turn on (internal; the decoder's use). */
#define PMREGS_ETRACE_USE_STACK 0x01u /* implicit return with a return stack that holds entries */
#define PMREGS_ETRACE_USE_TRAIN 0x02u /* branch prediction with predictor storage */
#define PMREGS_ETRACE_USE_JTC   0x04u /* the jump target cache with storage */
#define PMREGS_ETRACE_USE_SIJ   0x08u /* sequentially inferable jumps */

/* Free items a call needs to make progress: an instruction, an error and a restart report. */
#define PMREGS_ETRACE_ROOM 3u

/* Processing phases of a packet (internal). */
#define PMREGS_ETRACE_PH_NEW    0u
#define PMREGS_ETRACE_PH_FOLLOW 2u /* inside follow_execution_path */
#define PMREGS_ETRACE_PH_REPORT 3u /* the start report (pc = address) is next */
#define PMREGS_ETRACE_PH_NTR    4u /* inside the ended_ntr loop of process_support */

/*
 * Internal: empty the jump-target cache and set every branch predictor entry to its reset state.
 * Only when something was written since the last reset: a sync packet comes often, a table write
 * (options jump target cache or branch prediction) maybe never.
 */
static inline void pmregs_etrace_dec_reset_tables(struct pmregs_etrace_decoder *d)
{
	uint64_t i;
	if (!d->tables_dirty)
		return;
	d->tables_dirty = 0;
	if (d->jcache)
		for (i = 0; i <= d->jcache_mask; i++)
			d->jcache[i] = 1; /* an odd value: no instruction address */
	if (d->bpred)
		for (i = 0; i <= d->bpred_mask; i++)
			d->bpred[i] = 1;
}

/* Internal: the options in force, and what they turn on with the storage given. */
static inline void pmregs_etrace_dec_set_options(struct pmregs_etrace_decoder *d, uint32_t options)
{
	unsigned u = 0;
	d->options = options;
	if ((options & PMREGS_ETRACE_OPT_IMPLICIT_RETURN) && d->stack && d->stack_max)
		u |= PMREGS_ETRACE_USE_STACK;
	if ((options & PMREGS_ETRACE_OPT_BRANCH_PREDICTION) && d->bpred)
		u |= PMREGS_ETRACE_USE_TRAIN;
	if ((options & PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE) && d->jcache)
		u |= PMREGS_ETRACE_USE_JTC;
	if (options & PMREGS_ETRACE_OPT_SIJUMP)
		u |= PMREGS_ETRACE_USE_SIJ;
	d->use = (uint8_t)u;
}

/* Set up a decoder. Returns PMREGS_OK, or PMREGS_EINVAL for an image XLEN other than 32 or 64. */
static inline int pmregs_etrace_decoder_init(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_decoder_config *c)
{
	const struct pmregs_etrace_params *p = c->params;
	unsigned w, i;
	uint64_t total = 0;
	size_t k;
	if (c->image->xlen != 32 && c->image->xlen != 64)
		return PMREGS_EINVAL;
	d->p = p;
	d->img = c->image;
	d->stack = c->return_stack;
	d->jcache = c->jump_cache;
	d->bpred = c->bpred;
	d->stack_mask = pmregs_etrace_decoder_stack_entries(p) - 1;
	d->stack_max = pmregs_etrace_decoder_stack_depth_max(p);
	d->jcache_mask = pmregs_etrace_decoder_cache_entries(p) - 1;
	d->bpred_mask = pmregs_etrace_decoder_bpred_entries(p) - 1;
	w = p->iaddress_width_p < c->image->xlen ? p->iaddress_width_p : c->image->xlen;
	d->amask = pmregs_lowmask(w);
	d->xlen = c->image->xlen;
	d->lsb = p->iaddress_lsb_p;
	w = (unsigned)(p->iaddress_width_p - p->iaddress_lsb_p);
	d->ashift = 64u - (w ? w : 1u);
	d->idx_shift = p->iaddress_lsb_p >= 2 ? 2u : 1u;
	d->layout = c->ioptions_layout;
	pmregs_etrace_dec_set_options(d, c->options | (p->implicit_exception ? PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION : 0u));
	for (k = 0; k < c->image->nranges; k++)
		total += c->image->ranges[k].len;
	d->max_run = c->max_run ? c->max_run : (c->image->nranges ? total + 1024u : (uint64_t)1 << 22);
	d->max_steps = c->max_steps ? c->max_steps : ~(uint64_t)0;
	for (i = 0; i < 8; i++)
		d->tvec[i] = c->tvec[i];
	d->rbase = 0;
	d->rlen = 0;
	d->rfast = 0;
	d->rbytes = PMREGS_NULL;
	d->rcache = PMREGS_NULL;
	d->feed = PMREGS_NULL;
	d->pc = d->last_pc = d->address = d->base = d->prev_address = 0;
	d->cur.imm = d->last.imm = 0;
	d->cur.length = d->last.length = 1;
	d->cur.kind = d->last.kind = (uint8_t)PMREGS_ETRACE_DKIND_BAD;
	d->cur.act = d->last.act = (uint8_t)PMREGS_ETRACE_ACT_BAD;
	d->cur.reg = d->last.reg = (uint8_t)PMREGS_ETRACE_BAD_OUTSIDE;
	d->branch_map = d->branch_inv = d->bq_run = 0;
	d->branches = d->bq_head = 0;
	d->stack_base = d->irstack_depth = 0;
	d->run = 0;
	d->steps = 0;
	d->start_of_trace = 1;
	d->inferred_address = 0;
	d->stop_at_last_branch = 0;
	d->privilege = 0;
	d->lost = 0;
	d->chunk_first = (uint8_t)((c->chunk & PMREGS_ETRACE_CHUNK_FIRST) != 0);
	d->end_chunk = 0;
	d->phase = PMREGS_ETRACE_PH_NEW;
	d->jtc_deferred = 0;
	d->jtc_index = 0;
	d->notify = d->updiscon = d->irreport = d->fmt3 = d->sem_due = d->each = 0;
	d->irdepth = 0;
	d->packets = c->first_packet;
	d->insns = d->traps = d->contexts = d->errors = 0;
	d->err_packet = d->err_address = 0;
	d->err_reason = PMREGS_ETRACE_REASON_NONE;
	d->tables_dirty = 1;
	pmregs_etrace_dec_reset_tables(d);
	return PMREGS_OK;
}

/* ---- reading instructions ---- */

/* The instruction at pc (masked) into *r, looked up outside the current range. */
static inline void pmregs_etrace_dec_fetch_slow(struct pmregs_etrace_decoder *d, uint64_t pc, struct pmregs_etrace_dinsn *r)
{
	const struct pmregs_etrace_image *img = d->img;
	size_t lo = 0, hi = img->nranges;
	if (pc & 1u) {
		r->imm = 0;
		r->length = 1;
		r->kind = (uint8_t)PMREGS_ETRACE_DKIND_BAD;
		r->act = (uint8_t)PMREGS_ETRACE_ACT_BAD;
		r->reg = (uint8_t)PMREGS_ETRACE_BAD_ODD;
		return;
	}
	/* the last range whose (masked) base is <= pc */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((img->ranges[mid].base & d->amask) <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const struct pmregs_etrace_image_range *g = &img->ranges[lo - 1];
		uint64_t off = pc - (g->base & d->amask);
		if (off < g->len) {
			d->rbase = g->base & d->amask;
			d->rlen = g->len;
			d->rbytes = g->bytes;
			d->rcache = g->cache;
			d->rfast = g->cache && !(d->rbase & 1u) ? g->len : 0;
			if (d->rfast && d->rfast - 1 > d->amask - d->rbase)
				d->rfast = d->amask - d->rbase + 1;
			if (g->cache && ((off | d->rbase) & 1u) == 0) {
				struct pmregs_etrace_dinsn *c = &g->cache[off >> 1];
				if (!c->length)
					pmregs_etrace_dinsn_make(c, g->bytes + off, g->len - off, d->xlen);
				*r = *c;
			} else {
				pmregs_etrace_dinsn_make(r, g->bytes + off, g->len - off, d->xlen);
			}
			return;
		}
	}
	if (img->read) {
		unsigned char b[8];
		unsigned n = img->read(img->ctx, pc, b, 8);
		if (n > 0) {
			pmregs_etrace_dinsn_make(r, b, n > 8 ? 8 : n, d->xlen);
			return;
		}
	}
	r->imm = 0;
	r->length = 1;
	r->kind = (uint8_t)PMREGS_ETRACE_DKIND_BAD;
	r->act = (uint8_t)PMREGS_ETRACE_ACT_BAD;
	r->reg = (uint8_t)PMREGS_ETRACE_BAD_OUTSIDE;
}

/* The instruction at pc into *r: from the current range's cache when it can. */
PMREGS_HOT void pmregs_etrace_dec_fetch(struct pmregs_etrace_decoder *d, uint64_t pc, struct pmregs_etrace_dinsn *r)
{
	uint64_t off = pc - d->rbase;
	if (off < d->rlen && d->rcache && ((off | d->rbase) & 1u) == 0) {
		struct pmregs_etrace_dinsn *c = &d->rcache[off >> 1];
		if (!c->length)
			pmregs_etrace_dinsn_make(c, d->rbytes + off, d->rlen - off, d->xlen);
		*r = *c;
		return;
	}
	pmregs_etrace_dec_fetch_slow(d, pc, r);
}

/* ---- the pieces of the pseudo-code ---- */

/* Write an item (the caller made room). */
static inline void pmregs_etrace_dec_item(struct pmregs_etrace_item *o, unsigned type, uint64_t address, uint64_t value, uint32_t info,
				       unsigned length, unsigned kind, unsigned privilege)
{
	o->address = address;
	o->value = value;
	o->info = info;
	o->length = (uint8_t)length;
	o->kind = (uint8_t)kind;
	o->privilege = (uint8_t)privilege;
	o->type = (uint8_t)type;
}

/* Record an inconsistency: an ERROR item, and the decoder loses its place. */
static inline void pmregs_etrace_dec_error(struct pmregs_etrace_decoder *d, unsigned reason, struct pmregs_etrace_item *out, size_t *n)
{
	d->err_reason = reason;
	d->err_packet = d->packets - 1;
	d->err_address = d->pc;
	d->errors++;
	pmregs_etrace_dec_item(&out[(*n)++], PMREGS_ETRACE_ITEM_ERROR, d->pc, d->packets - 1, reason, 0, 0, d->privilege);
	d->start_of_trace = 1;
	d->lost = 1;
	d->inferred_address = 0;
	d->stop_at_last_branch = 0;
	d->jtc_deferred = 0;
	d->phase = PMREGS_ETRACE_PH_NEW;
}

/* Sign-extend (differential) or take (full) a packet's address field, shifted and masked. */
static inline uint64_t pmregs_etrace_dec_address(const struct pmregs_etrace_decoder *d, uint64_t field, uint64_t base)
{
	if (d->options & PMREGS_ETRACE_OPT_FULL_ADDRESS)
		return (field << d->lsb) & d->amask;
	/* sign-extended from the field's width: shifted up and arithmetically back (as pmregs_sext()) */
	return (base + ((uint64_t)((int64_t)(field << d->ashift) >> d->ashift) << d->lsb)) & d->amask;
}

/* Pending branches: map entries plus predicted ones. */
static inline uint64_t pmregs_etrace_dec_pending(const struct pmregs_etrace_decoder *d)
{
	return (uint64_t)d->branches + d->bq_run;
}

/* unprocessed_branches(): anything pending beyond the one the instruction at pc may be. */
static inline int pmregs_etrace_dec_unprocessed(const struct pmregs_etrace_decoder *d, const struct pmregs_etrace_dinsn *at)
{
	return pmregs_etrace_dec_pending(d) != ((at->act & 7u) == PMREGS_ETRACE_ACT_BRANCH ? 1u : 0u);
}

/* Append n map bits (bit 0 first; 1 = not taken) after the pending ones. */
static inline void pmregs_etrace_dec_add_bits(struct pmregs_etrace_decoder *d, uint64_t bits, unsigned n)
{
	bits &= pmregs_lowmask(n);
	if (d->branches < 64)
		d->branch_map |= bits << d->branches;
	d->branches += n;
}

/* Internal: the branch predictor's guess (1: taken) for the branch at pc. */
static inline int pmregs_etrace_dec_predict(const struct pmregs_etrace_decoder *d, uint64_t pc)
{
	return (d->bpred[(pc >> d->idx_shift) & d->bpred_mask] >> 1) & 1;
}

/* The predictor's state after an outcome: a prediction changes after two failures in a row. */
static inline void pmregs_etrace_dec_train(struct pmregs_etrace_decoder *d, uint64_t pc, int taken)
{
	uint8_t *s = &d->bpred[(pc >> d->idx_shift) & d->bpred_mask];
	unsigned pred = ((unsigned)*s >> 1) & 1u, last = (unsigned)*s & 1u, a = (unsigned)taken;
	if (pred != a && last == a)
		pred = a;
	*s = (uint8_t)((pred << 1) | a);
	d->tables_dirty = 1;
}

/*
 * is_taken_branch() for the branch at pc: 1 taken, 0 not taken, -1 nothing to resolve it with,
 * -2 the packet followed more than max_steps instructions.
 */
static inline int pmregs_etrace_dec_resolve(struct pmregs_etrace_decoder *d, uint64_t pc)
{
	int taken;
	if (!d->branches && !d->bq_run)
		return -1;
	d->steps += d->run;
	d->run = 0;
	if (d->steps > d->max_steps)
		return -2;
	if (d->bq_run && d->bq_head == 0) {
		taken = pmregs_etrace_dec_predict(d, pc);
		d->bq_run--;
	} else {
		if (d->branches == 0)
			return -1;
		if (d->branch_inv & 1u)
			taken = d->bpred ? !pmregs_etrace_dec_predict(d, pc) : 0;
		else
			taken = !(int)(d->branch_map & 1u);
		d->branch_map >>= 1;
		d->branch_inv >>= 1;
		d->branches--;
		if (d->bq_head)
			d->bq_head--;
	}
	if (d->bpred && (d->options & PMREGS_ETRACE_OPT_BRANCH_PREDICTION))
		pmregs_etrace_dec_train(d, pc, taken);
	return taken;
}

/* Internal: push a return address on the implicit-return stack (the oldest entry goes when it is full). */
static inline void pmregs_etrace_dec_push(struct pmregs_etrace_decoder *d, uint64_t link)
{
	if (!(d->options & PMREGS_ETRACE_OPT_IMPLICIT_RETURN) || !d->stack)
		return;
	if (d->stack_max == 0)
		return;
	if (d->irstack_depth == d->stack_max)
		d->stack_base++; /* full: the oldest entry goes */
	else
		d->irstack_depth++;
	d->stack[(d->stack_base + d->irstack_depth - 1) & d->stack_mask] = link;
}

/*
 * next_pc(): step from the instruction at d->pc (d->cur) to the next one. target is
 * where an uninferable discontinuity goes. Returns 1 when it stopped at an uninferable
 * discontinuity (stop_here), 0 otherwise, or -(reason) for an inconsistency. d->cur is
 * not updated (the caller fetches the new pc).
 */
static inline int pmregs_etrace_dec_next_pc(struct pmregs_etrace_decoder *d, uint64_t target)
{
	const struct pmregs_etrace_dinsn in = d->cur;
	uint64_t this_pc = d->pc;
	int stop = 0;
	switch (in.act & 7u) {
	case PMREGS_ETRACE_ACT_SEQ:
		d->pc = (this_pc + in.length) & d->amask;
		break;
	case PMREGS_ETRACE_ACT_BRANCH: {
		int t = pmregs_etrace_dec_resolve(d, this_pc);
		if (t < 0)
			return -(int)(t == -1 ? PMREGS_ETRACE_REASON_NO_BRANCH : PMREGS_ETRACE_REASON_RUNAWAY);
		d->pc = (this_pc + (t ? (uint64_t)(int64_t)in.imm : (uint64_t)in.length)) & d->amask;
		break;
	}
	case PMREGS_ETRACE_ACT_JUMP:
		d->pc = (this_pc + (uint64_t)(int64_t)in.imm) & d->amask;
		break;
	case PMREGS_ETRACE_ACT_JABS:
		d->pc = ((uint64_t)(int64_t)in.imm & ~(uint64_t)1) & d->amask;
		break;
	case PMREGS_ETRACE_ACT_UNINF:
		if ((d->options & PMREGS_ETRACE_OPT_SIJUMP) && (d->last.act & (PMREGS_ETRACE_DF_AUIPC | PMREGS_ETRACE_DF_LUI)) &&
		    d->last.reg == in.reg && (d->last.act & 7u) == PMREGS_ETRACE_ACT_SEQ) {
			/* sequentially inferable: lui/auipc then a jump through the same register */
			uint64_t t = (uint64_t)(int64_t)d->last.imm + (uint64_t)(int64_t)in.imm;
			if (d->last.act & PMREGS_ETRACE_DF_AUIPC)
				t += d->last_pc;
			d->pc = t & ~(uint64_t)1 & d->amask;
			break;
		}
		if ((in.act & PMREGS_ETRACE_DF_RETURN) && (d->options & PMREGS_ETRACE_OPT_IMPLICIT_RETURN) && d->stack &&
		    d->irstack_depth > 0 && !(d->irreport && d->irdepth == d->irstack_depth)) {
			/* implicit return (a co-routine swap pushes again below) */
			d->irstack_depth--;
			d->pc = d->stack[(d->stack_base + d->irstack_depth) & d->stack_mask];
			break;
		}
		goto uninferable; /* an uninferable discontinuity */
	case PMREGS_ETRACE_ACT_XRET:
	uninferable:
		if (d->stop_at_last_branch)
			return -(int)PMREGS_ETRACE_REASON_UNINFERABLE;
		d->pc = target;
		stop = 1;
		if (d->jcache && (d->options & PMREGS_ETRACE_OPT_JUMP_TARGET_CACHE)) {
			d->jcache[(target >> d->idx_shift) & d->jcache_mask] = target;
			d->tables_dirty = 1;
		}
		break;
	default:
		return -(int)PMREGS_ETRACE_REASON_NOT_CODE;
	}
	if (in.act & PMREGS_ETRACE_DF_CALL)
		pmregs_etrace_dec_push(d, (this_pc + in.length) & d->amask);
	d->last_pc = this_pc;
	d->last = in;
	return stop;
}

/* The instruction item for d->pc (d->cur). */
static inline void pmregs_etrace_dec_report(struct pmregs_etrace_decoder *d, struct pmregs_etrace_item *o)
{
	d->insns++;
	o->address = d->pc;
	o->value = d->packets - 1;
	o->info = (uint32_t)(d->cur.act & (PMREGS_ETRACE_DF_CALL | PMREGS_ETRACE_DF_RETURN));
	o->length = d->cur.length;
	o->kind = d->cur.kind;
	o->privilege = d->privilege;
	o->type = (uint8_t)PMREGS_ETRACE_ITEM_INSN;
}

/*
 * One step of a follow loop: next_pc() towards target, then the new instruction.
 * Returns stop_here (0/1) or -(reason).
 */
static inline int pmregs_etrace_dec_step(struct pmregs_etrace_decoder *d, uint64_t target)
{
	int s;
	if (++d->run > d->max_run)
		return -(int)PMREGS_ETRACE_REASON_RUNAWAY;
	s = pmregs_etrace_dec_next_pc(d, target);
	if (s < 0)
		return s;
	pmregs_etrace_dec_fetch(d, d->pc, &d->cur);
	if ((d->cur.act & 7u) == PMREGS_ETRACE_ACT_BAD)
		return -(int)PMREGS_ETRACE_REASON_NOT_CODE;
	return s;
}

/* The state after a synchronisation (its follow or start report done) at the privilege its packet reports. */
static inline void pmregs_etrace_dec_sync_end(struct pmregs_etrace_decoder *d, unsigned privilege)
{
	d->privilege = (uint8_t)privilege;
	d->start_of_trace = 0;
	d->lost = 0;
	d->irstack_depth = 0;
	d->stack_base = 0;
	pmregs_etrace_dec_reset_tables(d);
}

/* The end of processing a synchronisation packet. */
static inline void pmregs_etrace_dec_synced(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt)
{
	pmregs_etrace_dec_sync_end(d, pkt->privilege);
	d->phase = PMREGS_ETRACE_PH_NEW;
}

/* The start of processing a format 3 packet: its counters, and none of the formats 1 and 2 fields. */
static inline void pmregs_etrace_dec_fmt3_begin(struct pmregs_etrace_decoder *d)
{
	d->packets++;
	d->steps = 0;
	d->notify = d->updiscon = d->irreport = 0;
	d->irdepth = 0;
	d->sem_due = 0;
}

/*
 * Internal: notify, updiscon, irreport and irdepth of pkt, the packet being
 * followed, when the follower took it without reading them (most packets end
 * at an uninferable jump, where none of them is asked).
 */
static inline void pmregs_etrace_dec_sem(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt)
{
	struct pmregs_etrace_te_inst_semantic sem;
	if (!d->sem_due)
		return;
	d->sem_due = 0;
	(void)pmregs_etrace_te_inst_semantic_get(d->p, pkt, &sem); /* a format 1 or 2 shape: never refused */
	d->notify = sem.notify;
	d->updiscon = sem.updiscon;
	d->irreport = sem.irreport;
	d->irdepth = sem.irdepth;
}

/* (below: the follower hands it format 3 packets, and restarts at a synchronisation it took) */
static inline int pmregs_etrace_dec_start(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
				       struct pmregs_etrace_item *out, size_t *n);
static inline int pmregs_etrace_decoder_packet(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
					       struct pmregs_etrace_item *out, size_t cap, size_t *n);

/*
 * follow_execution_path() from where the packet left it, writing items into out
 * from *n while PMREGS_ETRACE_ROOM slots are free, or, with a consumer fn, giving
 * it the instruction and trap items (out then holds only the items of the
 * packets handed on and of an inconsistency; *n is 0 on entry). Returns
 * PMREGS_OK when done, PMREGS_ENOSPC to be resumed, or PMREGS_EINVAL after an
 * inconsistency. Under pmregs_etrace_decode_smi() (d->feed set, pkt its item's
 * payload) it takes the stream's next items itself while they are format 1 or 2
 * packets with room and nothing else to do, or the common format 3 traps and
 * synchronisations (a trap at the instruction just reported or, thaddr 0, after
 * an uninferable jump, an interrupt, a synchronisation whose instruction has
 * been read), its state staying in locals; it hands the other format 3
 * synchronisations and traps to
 * pmregs_etrace_decoder_packet() (whose follow takes no packet: one level deep)
 * without returning. The first other item ends it (PMREGS_ETRACE_DEC_NEXT, or
 * PMREGS_ETRACE_DEC_END at the stream's end), with the items, statuses and
 * resumption of one packet at a time.
 *
 * The state the loop touches per instruction lives in locals, and the
 * instructions are pointers to their pre-decoded records, found by their offset
 * in the current range (off = pc - rbase): sequential instructions, branches
 * resolved from map bits, inferable jumps, calls, implicit returns and
 * uninferable discontinuities to the packet's address are stepped here;
 * everything else (predicted branches, sequentially inferable jumps, an address
 * outside the current range or not decoded yet) goes through
 * pmregs_etrace_dec_step() or pmregs_etrace_dec_fetch() with the state written
 * back.
 */
PMREGS_HOT int pmregs_etrace_dec_follow_to(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
					   struct pmregs_etrace_item *out, size_t cap, size_t *n, pmregs_etrace_item_fn fn, void *ctx)
{
	struct pmregs_etrace_smi_feed *const f = d->feed;
	const uint64_t amask = d->amask, max_run = d->max_run;
	uint64_t pidx = d->packets - 1;
	int rc;
	uint64_t address = d->address;
	const unsigned use = d->use;
	const int push_on = (use & PMREGS_ETRACE_USE_STACK) != 0, train = (use & PMREGS_ETRACE_USE_TRAIN) != 0;
	const int jtc_on = (use & PMREGS_ETRACE_USE_JTC) != 0, sijump = (use & PMREGS_ETRACE_USE_SIJ) != 0;
	struct pmregs_etrace_item *o = out + *n, *const oend = out + cap - (PMREGS_ETRACE_ROOM - 1);
	uint64_t pc, run, bmap, rbase, rfast, off, aoff, soff;
	const struct pmregs_etrace_dinsn *cp, *lp;
	const unsigned char *rrec; /* the current range's records, as bytes: record of off at rrec + 4 * off */
	unsigned nb, stopmask;
	int fast_br, s;
	int inferred = d->inferred_address, last_branch = d->stop_at_last_branch;
	/* the packets after this one are the follower's to take (unchanged while it takes them) */
	const int fed = f && !d->fmt3 && !d->end_chunk && !d->start_of_trace;
	uint8_t priv = d->privilege;
	/* with a consumer fn: the instruction and trap items it is given (out has the other items; o stays at
	 * out + *n, so the room tests below hold) */
	uint64_t given = 0;
#if PMREGS_ETRACE_ITEM_WORD
	/* the word's layout, and the record's it is made from (the structs have no implicit padding: the strict
	 * builds check it) */
	(void)sizeof(char[__builtin_offsetof(struct pmregs_etrace_item, info) == 16 &&
				  __builtin_offsetof(struct pmregs_etrace_item, type) == 23 && PMREGS_ETRACE_ITEM_INSN == 0 &&
				  __builtin_offsetof(struct pmregs_etrace_dinsn, length) == 4 &&
				  __builtin_offsetof(struct pmregs_etrace_dinsn, kind) == 5 &&
				  __builtin_offsetof(struct pmregs_etrace_dinsn, act) == 6 && sizeof(struct pmregs_etrace_dinsn) == 8
			  ? 1
			  : -1]);
#endif
	/* last_pc is not kept: lp is d->last, d->cur (then the pc was d->pc) or a record of the range */
#define PMREGS_ETRACE_DEC_SAVE()                                                       \
	do {                                                                           \
		if (lp == &d->cur) {                                                   \
			d->last = d->cur;                                              \
			d->last_pc = d->pc;                                            \
		} else if (lp != &d->last) {                                           \
			d->last = *lp;                                                 \
			d->last_pc = rbase + (uint64_t)((const unsigned char *)lp - rrec) / 4u; \
		}                                                                      \
		if (cp != &d->cur)                                                     \
			d->cur = *cp;                                                  \
		d->pc = pc;                                                            \
		d->inferred_address = (uint8_t)inferred;                               \
		d->stop_at_last_branch = (uint8_t)last_branch;                         \
		d->run = run;                                                          \
		d->branch_map = bmap;                                                  \
		d->branches = nb;                                                      \
		d->insns += (uint64_t)(o - out) - *n + given;                          \
		given = 0;                                                             \
		*n = (size_t)(o - out);                                                \
	} while (0)
	/* rfast: offsets below it are in the range's records and below 2^(address width) (no wrap when added to);
	 * soff: where the address may stop the follow, none while a full map stops it at its last branch (a
	 * format 0 or 1 packet's, whose address is an earlier packet's: passing it changes nothing) */
#define PMREGS_ETRACE_DEC_LOAD()                                                       \
	do {                                                                           \
		pc = d->pc;                                                            \
		run = d->run;                                                          \
		bmap = d->branch_map;                                                  \
		nb = d->branches;                                                      \
		cp = &d->cur;                                                          \
		lp = &d->last;                                                         \
		rbase = d->rbase;                                                      \
		rfast = d->rfast;                                                      \
		rrec = (const unsigned char *)d->rcache;                               \
		off = pc - rbase;                                                      \
		aoff = address - rbase;                                                \
		soff = last_branch ? ~(uint64_t)0 : aoff;                              \
		fast_br = !d->bq_run && !d->branch_inv && !train;                      \
		stopmask = 0x80u | ((last_branch && nb + d->bq_run == 1u) ? 0x02u : 0u); \
	} while (0)
#if PMREGS_ETRACE_ITEM_WORD
	/* info, length, kind, privilege and type in one store, from the record in one load: its length and kind
	 * bytes are where the item word has them, its act's call and return flags 48 bits above info's */
#define PMREGS_ETRACE_DEC_PUT_AT(o, r, a)                                              \
	do {                                                                           \
		uint64_t r_, w_;                                                       \
		__builtin_memcpy(&r_, (r), 8);                                         \
		w_ = (r_ & PMREGS_U64(0x0000ffff00000000)) |                              \
		     ((r_ >> 48) & (PMREGS_ETRACE_DF_CALL | PMREGS_ETRACE_DF_RETURN)) | ((uint64_t)priv << 48); \
		(o)->address = (a);                                                    \
		(o)->value = pidx;                                                     \
		__builtin_memcpy((unsigned char *)(o) + 16, &w_, 8);                   \
	} while (0)
#else
#define PMREGS_ETRACE_DEC_PUT_AT(o, r, a)                                              \
	do {                                                                           \
		(o)->address = (a);                                                    \
		(o)->value = pidx;                                                     \
		(o)->info = (uint32_t)((r)->act & (PMREGS_ETRACE_DF_CALL | PMREGS_ETRACE_DF_RETURN)); \
		(o)->length = (r)->length;                                             \
		(o)->kind = (r)->kind;                                                 \
		(o)->privilege = priv;                                                 \
		(o)->type = (uint8_t)PMREGS_ETRACE_ITEM_INSN;                          \
	} while (0)
#endif
	/* the instruction item at address a whose record is r: to fn (made in a local the compiler drops where fn
	 * is inlined and does not read it) or into out */
#define PMREGS_ETRACE_DEC_EMIT_AT(r, a)                                                \
	do {                                                                           \
		if (fn) {                                                              \
			struct pmregs_etrace_item i_;                                  \
			PMREGS_ETRACE_DEC_PUT_AT(&i_, r, a);                           \
			fn(ctx, &i_);                                                  \
			given++;                                                       \
		} else {                                                               \
			PMREGS_ETRACE_DEC_PUT_AT(o, r, a);                             \
			o++;                                                           \
		}                                                                      \
	} while (0)
#define PMREGS_ETRACE_DEC_EMIT() PMREGS_ETRACE_DEC_EMIT_AT(cp, pc)
	/* stopmask: stop at a record that is bad (act 7), or a branch (act 1) that is the last one of a full map
	 * (after an uninferable discontinuity or a branch the last instruction is not a branch under a full map) */
	PMREGS_ETRACE_DEC_LOAD();
packet:
	while (inferred) {
		/* iterate again from the previously reported address to find its second occurrence */
		if (!fn && o >= oend) {
			PMREGS_ETRACE_DEC_SAVE();
			return PMREGS_ENOSPC;
		}
		PMREGS_ETRACE_DEC_SAVE();
		pmregs_etrace_dec_sem(d, pkt); /* next_pc() may ask irreport */
		s = pmregs_etrace_dec_step(d, d->prev_address);
		PMREGS_ETRACE_DEC_LOAD();
		if (s < 0)
			goto fail;
		PMREGS_ETRACE_DEC_EMIT();
		if (s) {
			inferred = 0;
			if (d->jtc_deferred) {
				uint64_t t = d->jcache[d->jtc_index];
				d->jtc_deferred = 0;
				if (t & 1u) {
					s = -(int)PMREGS_ETRACE_REASON_CACHE;
					goto fail;
				}
				address = d->address = d->base = t;
				aoff = address - rbase;
				soff = last_branch ? ~(uint64_t)0 : aoff;
			}
		}
	}
	for (;;) {
		uint64_t noff;
		unsigned act;
		if (!fn && o >= oend) {
			PMREGS_ETRACE_DEC_SAVE();
			return PMREGS_ENOSPC;
		}
		/* next_pc(address), inline for all but the rare instructions */
		if (++run > max_run) {
			s = -(int)PMREGS_ETRACE_REASON_RUNAWAY;
			goto fail;
		}
		act = cp->act;
		/* an if chain, most frequent first: a jump table's indirect branch predicts worse */
		if ((act & 7u) == PMREGS_ETRACE_ACT_SEQ) {
			uint32_t ri = (uint32_t)cp->imm;
			noff = off + cp->length;
			if (PMREGS_ETRACE_RUN_N(ri) >= 2u && PMREGS_ETRACE_DINSN_HAS_RUN(act)) {
				/* a run: its instructions in between go on at pc + length, none is the address */
				uint64_t span = PMREGS_ETRACE_RUN_SPAN(ri), nrun = PMREGS_ETRACE_RUN_N(ri);
				if (soff - off - 1u >= span - 1u && off + span < rfast && (fn || (uint64_t)(oend - o) > nrun) &&
				    max_run - run >= nrun) {
					const struct pmregs_etrace_dinsn *x = cp;
					uint64_t xoff = off, k;
					for (k = 1; k < nrun; k++) {
						xoff += x->length;
						x = (const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * xoff);
						PMREGS_ETRACE_DEC_EMIT_AT(x, rbase + xoff);
					}
					run += nrun - 1;
					cp = x; /* the instruction before the run's last (lp below) */
					noff = off + span;
				}
			} else if (ri == 0 && PMREGS_ETRACE_DINSN_HAS_RUN(act) && off < rfast &&
				   cp == (const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * off)) {
				/* not known yet: the next step takes it */
				pmregs_etrace_dinsn_run(d->rcache, d->rbytes, d->rlen, rfast, off, d->xlen);
			}
		} else if ((act & 7u) == PMREGS_ETRACE_ACT_BRANCH) {
			if (!fast_br || nb == 0)
				goto slow;
			d->steps += run;
			run = 0;
			if (d->steps > d->max_steps) {
				s = -(int)PMREGS_ETRACE_REASON_RUNAWAY;
				goto fail;
			}
			noff = off + ((bmap & 1u) ? (uint64_t)cp->length : (uint64_t)(int64_t)cp->imm);
			bmap >>= 1;
			nb--;
			if (PMREGS_UNLIKELY(nb == 1u) && last_branch)
				stopmask = 0x82u; /* the next branch is the last one */
		} else if ((act & 7u) == PMREGS_ETRACE_ACT_JUMP) {
			noff = off + (uint64_t)(int64_t)cp->imm;
			if ((act & PMREGS_ETRACE_DF_CALL) && push_on)
				pmregs_etrace_dec_push(d, (pc + cp->length) & amask);
		} else if ((act & 7u) == PMREGS_ETRACE_ACT_UNINF || (act & 7u) == PMREGS_ETRACE_ACT_XRET) {
			int ret;
			if (sijump && (act & 7u) == PMREGS_ETRACE_ACT_UNINF)
				goto slow; /* maybe sequentially inferable: next_pc() tells */
			ret = (act & PMREGS_ETRACE_DF_RETURN) && push_on && d->irstack_depth > 0 && (act & 7u) == PMREGS_ETRACE_ACT_UNINF;
			if (ret) {
				pmregs_etrace_dec_sem(d, pkt);
				ret = !(d->irreport && d->irdepth == d->irstack_depth);
			}
			if (ret) {
				/* implicit return (a co-routine swap pushes again below) */
				d->irstack_depth--;
				noff = d->stack[(d->stack_base + d->irstack_depth) & d->stack_mask] - rbase;
				if (act & PMREGS_ETRACE_DF_CALL)
					pmregs_etrace_dec_push(d, (pc + cp->length) & amask);
				s = 0;
				goto moved;
			} else {
				/* an uninferable discontinuity: to the packet's address */
				if (last_branch) {
					s = -(int)PMREGS_ETRACE_REASON_UNINFERABLE;
					goto fail;
				}
				if (jtc_on) {
					d->jcache[(address >> d->idx_shift) & d->jcache_mask] = address;
					d->tables_dirty = 1;
				}
				if ((act & PMREGS_ETRACE_DF_CALL) && push_on)
					pmregs_etrace_dec_push(d, (pc + cp->length) & amask);
				noff = aoff;
				s = 1;
				goto moved;
			}
		} else if ((act & 7u) == PMREGS_ETRACE_ACT_JABS) {
			noff = (((uint64_t)(int64_t)cp->imm & ~(uint64_t)1) & amask) - rbase;
			if ((act & PMREGS_ETRACE_DF_CALL) && push_on)
				pmregs_etrace_dec_push(d, (pc + cp->length) & amask);
		} else {
			goto slow;
		}
		/* the fast path keeps off even: lengths and offsets are even, jalr's target is made so */
		if (noff < rfast && ((const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * noff))->length) {
			lp = cp;
			cp = (const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * noff);
			off = noff;
			pc = rbase + noff;
			/* the common case: not at the address, not bad, not a branch under a full map */
			if (noff != soff && !((stopmask >> (cp->act & 7u)) & 1u)) {
				PMREGS_ETRACE_DEC_EMIT();
				continue;
			}
			if ((cp->act & 7u) == PMREGS_ETRACE_ACT_BAD) {
				s = -(int)PMREGS_ETRACE_REASON_NOT_CODE;
				goto fail;
			}
			s = 0;
			goto checks;
		}
		s = 0;
	moved:
		/* after an implicit return, or (s = 1) stopped at an uninferable discontinuity: the packet's
		 * address, maybe odd */
		if (noff < rfast && !(noff & 1u) && ((const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * noff))->length) {
			lp = cp;
			cp = (const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * noff);
			off = noff;
			pc = rbase + noff;
			if ((cp->act & 7u) == PMREGS_ETRACE_ACT_BAD) {
				s = -(int)PMREGS_ETRACE_REASON_NOT_CODE;
				goto fail;
			}
		} else {
			/* outside the current range, no cache or not decoded yet: the slow way, with the new pc */
			uint64_t nbmap = bmap, next = (rbase + noff) & amask;
			unsigned nnb = nb;
			PMREGS_ETRACE_DEC_SAVE();
			d->last = *cp;
			d->last_pc = pc;
			d->pc = next;
			d->branch_map = nbmap;
			d->branches = nnb;
			pmregs_etrace_dec_fetch(d, next, &d->cur);
			PMREGS_ETRACE_DEC_LOAD();
			if ((d->cur.act & 7u) == PMREGS_ETRACE_ACT_BAD) {
				s = -(int)PMREGS_ETRACE_REASON_NOT_CODE;
				goto fail;
			}
		}
		goto checks;
	slow:
		run--; /* pmregs_etrace_dec_step() counts it */
		PMREGS_ETRACE_DEC_SAVE();
		pmregs_etrace_dec_sem(d, pkt); /* next_pc() may ask irreport */
		s = pmregs_etrace_dec_step(d, address);
		PMREGS_ETRACE_DEC_LOAD();
		if (s < 0)
			goto fail;
	checks:
		if (last_branch && nb + d->bq_run == 1 && (cp->act & 7u) == PMREGS_ETRACE_ACT_BRANCH) {
			/* reached the final branch: its outcome is known, whether it retires is not */
			last_branch = 0;
			goto done_report;
		}
		if (s) {
			/* reached the reported address following an uninferable discontinuity */
			if (nb + d->bq_run != ((cp->act & 7u) == PMREGS_ETRACE_ACT_BRANCH ? 1u : 0u)) {
				PMREGS_ETRACE_DEC_EMIT();
				s = -(int)PMREGS_ETRACE_REASON_UNPROCESSED;
				goto fail;
			}
			if (d->fmt3) {
				priv = pkt->privilege; /* the reported instruction's privilege */
				if (d->end_chunk)
					goto done;
			}
			goto done_report;
		}
		if (pc == address) {
			int unprocessed = nb + d->bq_run != ((cp->act & 7u) == PMREGS_ETRACE_ACT_BRANCH ? 1u : 0u);
			pmregs_etrace_dec_sem(d, pkt);
			if (!d->fmt3) {
				if (!last_branch && d->notify && !unprocessed)
					goto done_report; /* reported because of a notification, not as an uninferable jump target */
				/* the pseudo-code's !is_uninferable_discon(last_pc) here would exclude an address reached through an
				 * implicit return or a sequentially inferable jump (the only ways to reach it after one without
				 * stopping there already): both may be the reported instruction. With irreport asserted
				 * the depth must be irdepth, whatever led there. */
				if (!last_branch && !d->updiscon && !unprocessed && (!d->irreport || d->irdepth == d->irstack_depth)) {
					/* reached the address, not as an uninferable jump target: this may not be the last one */
					inferred = 1;
					goto done_report;
				}
			} else if (!unprocessed && (pkt->privilege == priv || (lp->act & 7u) == PMREGS_ETRACE_ACT_XRET)) {
				priv = pkt->privilege; /* the reported instruction's privilege */
				if (d->end_chunk)
					goto done;
				goto done_report;
			}
		}
		PMREGS_ETRACE_DEC_EMIT();
	}
done_report:
	PMREGS_ETRACE_DEC_EMIT();
done:
	rc = PMREGS_OK;
	if (fed) {
		/* under pmregs_etrace_decode_smi(): its step and pmregs_etrace_decoder_packet()'s for the next items,
		 * as long as they are format 1 or 2 packets with room and nothing else to do, the state staying here,
		 * or format 3 synchronisations and traps, which pmregs_etrace_decoder_packet() does from here */
		unsigned add;
		pkt = &f->it.payload; /* (it was already) */
		f->pending = 0;
		if (PMREGS_UNLIKELY(d->fmt3)) {
			/* the end of a synchronisation this took (pmregs_etrace_dec_synced()) */
			d->fmt3 = 0;
			priv = pkt->privilege;
			/* (d->privilege is kept equal to priv while this takes packets: pmregs_etrace_decoder_packet() below
			 * reads it) */
			pmregs_etrace_dec_sync_end(d, priv);
		}
		{
			/* the common packet's payload alone, its frame not filled (nothing reads the feed's) */
			size_t at = f->s.pos, m;
			if (PMREGS_LIKELY(f->s.len - at >= 36u + PMREGS_INPLACE_SLACK) &&
			    (m = pmregs_etrace_smi_stream_read_fast(f->s.buf + at, &f->p, &f->fl, &f->tl, PMREGS_NULL, &f->it.payload,
								    PMREGS_NULL)) != 0) {
				f->it.offset = at;
				f->it.size = m;
				f->it.status = PMREGS_OK;
				f->it.has_payload = 1;
				f->s.pos = at + m;
				goto taken;
			}
		}
		do {
			/* (f->p.implicit_exception is as pmregs_etrace_decode_smi() set it: only a support packet, which
			 * ends this, changes the options) */
			if (!pmregs_etrace_smi_stream_next_l(&f->s, &f->p, &f->fl, &f->tl, &f->it)) {
				rc = PMREGS_ETRACE_DEC_END;
				goto leave;
			}
		} while (f->it.status >= 0 && !f->it.has_payload);
	taken:
		rc = PMREGS_ETRACE_DEC_NEXT;
		if (f->it.status < 0 || f->it.offset >= f->end)
			goto leave;
		if (PMREGS_UNLIKELY(pkt->format == 3) && pkt->subformat <= 1) {
			/* the common traps and synchronisations, as pmregs_etrace_decoder_packet() does them, the state staying
			 * here: h is the reported address's instruction when it is in the range, read before and code */
			const uint64_t hoff = ((pkt->address << d->lsb) & amask) - rbase;
			const struct pmregs_etrace_dinsn *h = PMREGS_NULL;
			const unsigned cact = cp->act & 7u;
			int trap;
			if (o < oend && hoff < rfast && !(hoff & 1u)) {
				h = (const struct pmregs_etrace_dinsn *)(const void *)(rrec + 4 * hoff);
				if (!h->length || (h->act & 7u) == PMREGS_ETRACE_ACT_BAD)
					h = PMREGS_NULL;
			}
			trap = pkt->subformat == 1 && o < oend &&
			       (pkt->thaddr ? h && !(d->options & PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION) &&
						      (pkt->interrupt || (cp->act & PMREGS_ETRACE_DF_TRAPS))
					    : pkt->interrupt || cact == PMREGS_ETRACE_ACT_UNINF || cact == PMREGS_ETRACE_ACT_XRET);
			if (trap || (pkt->subformat == 0 && h && nb < 63)) {
				pmregs_etrace_dec_fmt3_begin(d);
				pidx++;
			}
			if (trap) {
				/* an interrupt, or an exception at the instruction just reported (ecall, ebreak) or at the
				 * reported address (after an uninferable jump, thaddr 0): the trap's report */
				unsigned bits = pkt->interrupt ? PMREGS_ETRACE_TRAP_INTERRUPT : PMREGS_ETRACE_TRAP_EPC;
				pmregs_etrace_dec_item(o, PMREGS_ETRACE_ITEM_TRAP,
						       pkt->interrupt ? 0 : pkt->thaddr ? pc : rbase + hoff, pkt->interrupt ? 0 : pkt->tval,
						       (uint32_t)pkt->ecause, bits | (pkt->thaddr ? PMREGS_ETRACE_TRAP_THADDR : 0u), 0,
						       pkt->privilege);
				d->traps++;
				if (fn) {
					fn(ctx, o);
				} else {
					o++;
					d->insns--; /* (the save counts every item from o as an instruction) */
				}
				if (!pkt->thaddr)
					goto done;
				/* and the handler's address: a synchronisation there, and its start report */
				inferred = 0;
				lp = cp = h;
				off = hoff;
				pc = address = d->address = d->base = rbase + hoff;
				d->branch_inv = d->bq_run = 0;
				d->bq_head = 0;
				nb = (h->act & 7u) == PMREGS_ETRACE_ACT_BRANCH ? 1u : 0u;
				bmap = nb ? pkt->branch : 0u;
				priv = pkt->privilege;
				PMREGS_ETRACE_DEC_EMIT();
				pmregs_etrace_dec_sync_end(d, priv);
				goto done;
			}
			if (pkt->subformat == 0 && h && nb < 63) {
				/* a synchronisation: followed to its address like a plain packet, fmt3 set for the rules of the
				 * follow that differ and for its end (at done) */
				f->pending = 1;
				d->fmt3 = 1;
				inferred = 0;
				address = d->address = d->base = rbase + hoff;
				aoff = hoff;
				if ((h->act & 7u) == PMREGS_ETRACE_ACT_BRANCH)
					bmap |= (uint64_t)(pkt->branch & 1u) << nb++;
				d->prev_address = pc;
				run = 0;
				soff = last_branch ? ~(uint64_t)0 : aoff;
				stopmask = 0x80u | ((last_branch && nb + d->bq_run == 1u) ? 0x02u : 0u);
				goto packet;
			}
			/* any other synchronisation or trap: pmregs_etrace_decoder_packet() does it here (its own follow, to a
			 * synchronisation, takes no packet), and the plain packets after it stay here. Once it is done
			 * fmt3 is cleared: this packet's caller then has no format 3 packet to end, and the next is
			 * taken as after any other. (The hint lays this out away from the plain packets' path: unhinted,
			 * streams with few such packets ran up to 20% slower in some code layouts.) */
			f->pending = 1;
			PMREGS_ETRACE_DEC_SAVE(); /* (d->privilege is priv: the format 3 packets taken above keep it so) */
			d->phase = PMREGS_ETRACE_PH_NEW;
			if (fn)
				d->each = 0; /* (its follow is its own, into out) */
			rc = pmregs_etrace_decoder_packet(d, pkt, out, cap, n);
			if (fn)
				d->each = 1;
			if (rc == PMREGS_ENOSPC)
				return rc; /* the packet stays pending, in its own phase */
			d->fmt3 = 0;
			if (rc != PMREGS_OK)
				return rc; /* (an inconsistency, reported: pmregs_etrace_decode_smi() goes on after it) */
			d->phase = PMREGS_ETRACE_PH_FOLLOW;
			if (fn) {
				/* its items to fn now, in their order */
				size_t k;
				for (k = 0; k < *n; k++)
					fn(ctx, &out[k]);
				*n = 0;
			}
			o = out + *n;
			pidx = d->packets - 1;
			address = d->address;
			inferred = d->inferred_address; /* (last_branch is still 0) */
			priv = d->privilege;
			PMREGS_ETRACE_DEC_LOAD();
			goto done;
		}
		if ((unsigned)pkt->format - 1u > 1u)
			goto leave; /* not format 1 or 2 */
		add = pkt->format == 1 ? (pkt->branches ? pkt->branches : 31u) : 0u;
		if (nb + add > 63)
			goto leave; /* pmregs_etrace_decoder_packet() reports it */
		f->pending = 1;
		d->packets++;
		pidx++;
		d->steps = 0;
		d->sem_due = 1; /* read when asked */
		run = 0;
		d->prev_address = pc;
		if (pkt->format == 2 || pkt->branches != 0) {
			last_branch = 0;
			address = d->address = d->base = pmregs_etrace_dec_address(d, pkt->address, d->base);
			aoff = address - rbase;
		}
		if (pkt->format == 1) {
			last_branch = pkt->branches == 0;
			bmap |= ((uint64_t)pkt->branch_map & pmregs_lowmask(add)) << nb; /* (pmregs_etrace_dec_add_bits(), nb < 64) */
			nb += add;
		}
		soff = last_branch ? ~(uint64_t)0 : aoff;
		stopmask = 0x80u | ((last_branch && nb + d->bq_run == 1u) ? 0x02u : 0u);
		goto packet;
	}
leave:
	PMREGS_ETRACE_DEC_SAVE();
	d->privilege = priv;
	return rc;
fail:
	PMREGS_ETRACE_DEC_SAVE();
	pmregs_etrace_dec_error(d, (unsigned)-s, out, n);
	if (fed && d->fmt3) {
		/* a synchronisation this took: restart at it (room is left), as pmregs_etrace_decoder_packet() would, which
		 * then has no format 3 packet to end (this may be under its resumed follow) */
		(void)pmregs_etrace_dec_start(d, pkt, out, n);
		d->fmt3 = 0;
	}
	return PMREGS_EINVAL;
#undef PMREGS_ETRACE_DEC_SAVE
#undef PMREGS_ETRACE_DEC_LOAD
#undef PMREGS_ETRACE_DEC_EMIT
#undef PMREGS_ETRACE_DEC_EMIT_AT
#undef PMREGS_ETRACE_DEC_PUT_AT
}

/* The follower into out[*n..cap). */
static inline int pmregs_etrace_dec_follow(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
					struct pmregs_etrace_item *out, size_t cap, size_t *n)
{
	return pmregs_etrace_dec_follow_to(d, pkt, out, cap, n, PMREGS_NULL, PMREGS_NULL);
}

/* The start report of a synchronisation packet: pc = address. */
static inline int pmregs_etrace_dec_start(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
				       struct pmregs_etrace_item *out, size_t *n)
{
	d->pc = d->address;
	pmregs_etrace_dec_fetch(d, d->pc, &d->cur);
	if ((d->cur.act & 7u) == PMREGS_ETRACE_ACT_BAD) {
		pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_NOT_CODE, out, n);
		return PMREGS_EINVAL;
	}
	d->privilege = pkt->privilege; /* the reported instruction's privilege */
	if (!d->end_chunk)
		pmregs_etrace_dec_report(d, &out[(*n)++]);
	d->last_pc = d->pc;
	d->last = d->cur;
	pmregs_etrace_dec_synced(d, pkt);
	return PMREGS_OK;
}

/*
 * The synchronisation part of a format 3 subformat 0/1 packet (after any trap report):
 * set the address and the branch of the reported instruction, then follow or start.
 */
static inline int pmregs_etrace_dec_sync(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
				      struct pmregs_etrace_item *out, size_t *n)
{
	struct pmregs_etrace_dinsn at;
	d->inferred_address = 0;
	if (pkt->subformat == 1 && pkt->thaddr && (d->options & PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION)) {
		/* no address: the handler from the trap vector of the packet's privilege */
		uint64_t tv = d->tvec[pkt->privilege & 7u];
		if (!tv) {
			pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_NO_HANDLER, out, n);
			return PMREGS_EINVAL;
		}
		d->address = tv & ~(uint64_t)3;
		if ((tv & 3u) == 1u && pkt->interrupt)
			d->address += 4u * pkt->ecause;
		d->address &= d->amask;
	} else {
		d->address = (pkt->address << d->lsb) & d->amask;
	}
	d->base = d->address;
	if (pkt->subformat == 1 || d->start_of_trace) {
		d->branches = 0;
		d->branch_map = d->branch_inv = 0;
		d->bq_run = 0;
		d->bq_head = 0;
	}
	pmregs_etrace_dec_fetch(d, d->address, &at);
	if ((at.act & 7u) == PMREGS_ETRACE_ACT_BRANCH)
		pmregs_etrace_dec_add_bits(d, pkt->branch, 1);
	if (pkt->subformat == 0 && !d->start_of_trace) {
		d->prev_address = d->pc;
		d->run = 0;
		d->phase = PMREGS_ETRACE_PH_FOLLOW;
		return PMREGS_OK;
	}
	d->phase = PMREGS_ETRACE_PH_REPORT;
	return PMREGS_OK;
}

/* exception_address(): the EPC of the trap pkt reports; 0 with *known = 0 when it cannot be told. */
static inline int pmregs_etrace_dec_epc(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt, uint64_t *epc)
{
	int s;
	if ((d->cur.act & 7u) == PMREGS_ETRACE_ACT_BAD)
		return -(int)PMREGS_ETRACE_REASON_NOT_CODE;
	if (((d->cur.act & 7u) == PMREGS_ETRACE_ACT_UNINF || (d->cur.act & 7u) == PMREGS_ETRACE_ACT_XRET) && !pkt->thaddr) {
		*epc = (pkt->address << d->lsb) & d->amask;
		return 0;
	}
	if (d->cur.act & PMREGS_ETRACE_DF_TRAPS) {
		*epc = d->pc;
		return 0;
	}
	s = pmregs_etrace_dec_next_pc(d, d->pc);
	if (s < 0)
		return s;
	pmregs_etrace_dec_fetch(d, d->pc, &d->cur);
	*epc = d->pc;
	return 0;
}

/* After the follow of pkt that returned rc: the end of a synchronisation, or a restart at it after an
 * inconsistency on the way (room is left). */
static inline int pmregs_etrace_dec_followed(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
					     struct pmregs_etrace_item *out, size_t *n, int rc)
{
	if (rc >= PMREGS_OK) {
		if (d->fmt3)
			pmregs_etrace_dec_synced(d, pkt);
		d->phase = PMREGS_ETRACE_PH_NEW;
	} else if (rc == PMREGS_EINVAL && d->fmt3 && !d->end_chunk) {
		(void)pmregs_etrace_dec_start(d, pkt, out, n);
	}
	return rc;
}

/*
 * Process one te_inst packet. Items go to out[*n..cap) and *n advances. Returns
 * PMREGS_OK when the packet is done; PMREGS_ENOSPC when out is full (call again
 * with the same packet: it resumes where it stopped); PMREGS_EINVAL when the
 * packet is inconsistent with the trace (an ERROR item says why; d->err_*
 * too). cap - *n must be at least PMREGS_ETRACE_ROOM (3) for progress.
 */
static inline int pmregs_etrace_decoder_packet(struct pmregs_etrace_decoder *d, const struct pmregs_etrace_te_inst *pkt,
					       struct pmregs_etrace_item *out, size_t cap, size_t *n)
{
	int rc;
	if (d->phase == PMREGS_ETRACE_PH_NEW) {
		struct pmregs_etrace_te_inst_semantic sem;
		if (cap - *n < PMREGS_ETRACE_ROOM)
			return PMREGS_ENOSPC;
		d->fmt3 = (uint8_t)(pkt->format == 3);
		if (pkt->format == 3 && pkt->shape <= PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT) {
			pmregs_etrace_dec_fmt3_begin(d); /* (format 3 shapes have none of the fields) */
		} else {
			d->packets++;
			d->steps = 0;
			d->sem_due = 0;
			if (pmregs_etrace_te_inst_semantic_get(d->p, pkt, &sem) != PMREGS_OK) {
				pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_BAD_PACKET, out, n);
				return PMREGS_EINVAL;
			}
			d->notify = sem.notify;
			d->updiscon = sem.updiscon;
			d->irreport = sem.irreport;
			d->irdepth = sem.irdepth;
		}
		if (pkt->format == 3) {
			int first = d->chunk_first;
			d->chunk_first = 0;
			if (pkt->subformat == 3) {
				/* support: the options, and the end of tracing */
				uint32_t known, o = pmregs_etrace_ioptions_to_options(d->layout, pkt->ioptions, &known);
				pmregs_etrace_dec_set_options(d, (d->options & ~known) | (o & known));
				if (pkt->qual_status != 0) {
					d->start_of_trace = 1;
					if (pkt->qual_status == 3 && d->inferred_address && !d->lost) {
						d->prev_address = d->pc;
						d->inferred_address = 0;
						d->run = 0;
						d->phase = PMREGS_ETRACE_PH_NTR;
						goto ntr;
					}
				}
				return PMREGS_OK;
			}
			if (pkt->subformat == 2) {
				pmregs_etrace_dec_item(&out[(*n)++], PMREGS_ETRACE_ITEM_CONTEXT, pkt->context, pkt->time, 0, 0, 0, pkt->privilege);
				d->contexts++;
				return PMREGS_OK;
			}
			if (pkt->subformat == 1 && !(first && pkt->thaddr)) {
				/* report the trap, and the EPC for an exception */
				unsigned bits = (pkt->interrupt ? PMREGS_ETRACE_TRAP_INTERRUPT : 0u) | (pkt->thaddr ? PMREGS_ETRACE_TRAP_THADDR : 0u);
				uint64_t epc = 0;
				int s = 0;
				if (!pkt->interrupt) {
					if (d->lost) {
						s = 1;
					} else if (d->start_of_trace) {
						if (!pkt->thaddr)
							epc = (pkt->address << d->lsb) & d->amask;
						else
							s = 1;
					} else {
						s = pmregs_etrace_dec_epc(d, pkt, &epc);
					}
					if (s == 0)
						bits |= PMREGS_ETRACE_TRAP_EPC;
				}
				pmregs_etrace_dec_item(&out[(*n)++], PMREGS_ETRACE_ITEM_TRAP, epc, pkt->interrupt ? 0 : pkt->tval, (uint32_t)pkt->ecause,
						    bits, 0, pkt->privilege);
				d->traps++;
				if (s < 0) {
					pmregs_etrace_dec_error(d, (unsigned)-s, out, n);
					if (!pkt->thaddr)
						return PMREGS_EINVAL;
					if (d->end_chunk)
						return PMREGS_EINVAL;
					/* a trap with the handler's address is a full synchronisation: restart at it */
					rc = pmregs_etrace_dec_sync(d, pkt, out, n);
					if (rc != PMREGS_OK)
						return rc;
					d->phase = PMREGS_ETRACE_PH_REPORT;
					goto report;
				}
				if (!pkt->thaddr)
					return PMREGS_OK;
			} else if (pkt->subformat == 1 && !pkt->thaddr) {
				return PMREGS_OK;
			}
			if (first)
				d->start_of_trace = 1;
			if (d->end_chunk && (d->start_of_trace || pkt->subformat == 1))
				return PMREGS_OK; /* the next chunk reports it */
			goto sync;
		}
		/* formats 0, 1 and 2 */
		if (d->start_of_trace) {
			if (d->lost)
				return PMREGS_OK;
			pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_NO_SYNC, out, n);
			return PMREGS_EINVAL;
		}
		d->run = 0;
		d->prev_address = d->pc;
		if (pkt->format == 0) {
			if (pkt->shape == PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE) {
				d->notify = d->updiscon = 0;
				if (!d->jcache || pkt->index > d->jcache_mask || (!d->inferred_address && (d->jcache[pkt->index] & 1u))) {
					pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_CACHE, out, n);
					return PMREGS_EINVAL;
				}
				d->stop_at_last_branch = 0;
				if (d->inferred_address) {
					/* the entry may be the target of the jump that ends the inferred address's second pass:
					 * read it when that jump has written it */
					d->jtc_deferred = 1;
					d->jtc_index = pkt->index;
				} else {
					d->address = d->jcache[pkt->index];
					d->base = d->address;
				}
				pmregs_etrace_dec_add_bits(d, pkt->branch_map, pkt->branches);
			} else {
				/* branch count: branch_count + 31 correctly predicted, then maybe one that failed */
				unsigned fmt = pkt->branch_fmt;
				if (!d->bpred || fmt == 1) {
					pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_PREDICTOR, out, n);
					return PMREGS_EINVAL;
				}
				if (d->bq_run && d->branches > d->bq_head) {
					/* a new run after map entries that follow a pending run: the previous packet was not followed through */
					pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_UNPROCESSED, out, n);
					return PMREGS_EINVAL;
				}
				if (fmt >= 2) {
					d->stop_at_last_branch = 0;
					d->address = pmregs_etrace_dec_address(d, pkt->address, d->base);
					d->base = d->address;
				}
				if (!d->bq_run)
					d->bq_head = d->branches;
				d->bq_run += (uint64_t)pkt->branch_count + 31u;
				if (fmt != 2) {
					if (d->branches < 64)
						d->branch_inv |= (uint64_t)1 << d->branches;
					d->branches++;
				}
				if (fmt == 0)
					d->stop_at_last_branch = 1;
			}
		} else {
			if (pkt->format == 2 || pkt->branches != 0) {
				d->stop_at_last_branch = 0;
				d->address = pmregs_etrace_dec_address(d, pkt->address, d->base);
				d->base = d->address;
			}
			if (pkt->format == 1) {
				d->stop_at_last_branch = (uint8_t)(pkt->branches == 0);
				pmregs_etrace_dec_add_bits(d, pkt->branch_map, pkt->branches ? pkt->branches : 31u);
			}
		}
		if (d->branches > 63) {
			pmregs_etrace_dec_error(d, PMREGS_ETRACE_REASON_UNPROCESSED, out, n);
			return PMREGS_EINVAL;
		}
		d->phase = PMREGS_ETRACE_PH_FOLLOW;
		if (d->each)
			return PMREGS_ETRACE_DEC_FOLLOW;
		rc = pmregs_etrace_dec_follow(d, pkt, out, cap, n);
		if (rc >= PMREGS_OK)
			d->phase = PMREGS_ETRACE_PH_NEW;
		return rc;
	}
	/* resume */
	switch (d->phase) {
	case PMREGS_ETRACE_PH_REPORT:
		if (cap - *n < PMREGS_ETRACE_ROOM)
			return PMREGS_ENOSPC;
		goto report;
	case PMREGS_ETRACE_PH_FOLLOW:
		goto follow;
	case PMREGS_ETRACE_PH_NTR:
		goto ntr;
	default:
		d->phase = PMREGS_ETRACE_PH_NEW;
		return PMREGS_OK;
	}
sync:
	rc = pmregs_etrace_dec_sync(d, pkt, out, n);
	if (rc != PMREGS_OK)
		return rc;
	if (d->phase == PMREGS_ETRACE_PH_REPORT)
		goto report;
follow:
	if (d->each)
		return PMREGS_ETRACE_DEC_FOLLOW; /* (the phase is PMREGS_ETRACE_PH_FOLLOW) */
	rc = pmregs_etrace_dec_follow(d, pkt, out, cap, n);
	return pmregs_etrace_dec_followed(d, pkt, out, n, rc);
report:
	d->phase = PMREGS_ETRACE_PH_NEW;
	return pmregs_etrace_dec_start(d, pkt, out, n);
ntr:
	/* ended_ntr: the trace ended at the second occurrence of the inferred address */
	for (;;) {
		int s;
		if (cap - *n < PMREGS_ETRACE_ROOM)
			return PMREGS_ENOSPC;
		s = pmregs_etrace_dec_step(d, d->prev_address);
		if (s < 0) {
			pmregs_etrace_dec_error(d, (unsigned)-s, out, n);
			return PMREGS_EINVAL;
		}
		pmregs_etrace_dec_report(d, &out[(*n)++]);
		if (s)
			break;
	}
	d->phase = PMREGS_ETRACE_PH_NEW;
	return PMREGS_OK;
}

/*
 * The decoder forgets where it is, silently (the caller knows packets were lost,
 * e.g. unreadable stream bytes): it waits for the next synchronisation packet.
 * Not between the calls of a packet that returned PMREGS_ENOSPC.
 */
static inline void pmregs_etrace_decoder_lose(struct pmregs_etrace_decoder *d)
{
	d->start_of_trace = 1;
	d->lost = 1;
	d->inferred_address = 0;
	d->stop_at_last_branch = 0;
	d->phase = PMREGS_ETRACE_PH_NEW;
}

/* ---- pulling packets from an SMI stream ---- */


/* Start feeding the SMI stream in buf[0..len) (synced: it starts at a message boundary), decoded with
 * parameters p, to a decoder with pmregs_etrace_decode_smi() or pmregs_etrace_decode_smi_each() (or a
 * chunk of it: pmregs_etrace_smi_feed_chunk()). */
static inline void pmregs_etrace_smi_feed_init(struct pmregs_etrace_smi_feed *f, const struct pmregs_etrace_params *p, const void *buf,
					       size_t len, int synced)
{
	pmregs_etrace_smi_stream_init(&f->s, buf, len, synced);
	f->p = *p;
	f->end = len;
	f->pending = 0;
	f->unreadable = 0;
	f->inconsistent = 0;
}

/* pmregs_etrace_decode_smi(), and with fn its consumer's form: fn is given the items, out holds those of the
 * rare paths until they are given, and this goes on to the end. */
PMREGS_HOT int pmregs_etrace_dec_smi(struct pmregs_etrace_decoder *d, struct pmregs_etrace_smi_feed *f, struct pmregs_etrace_item *out,
				  size_t cap, size_t *n, pmregs_etrace_item_fn fn, void *ctx)
{
	int rc;
	size_t k;
	pmregs_etrace_smi_layout_init(&f->p, &f->fl);
	pmregs_etrace_te_inst_layout_init(&f->p, &f->tl);
	d->feed = f; /* pmregs_etrace_dec_follow() takes the plain packets after the one it follows */
	d->each = (uint8_t)(fn != PMREGS_NULL);
	for (;;) {
		if (!f->pending) {
			f->p.implicit_exception = (uint8_t)((d->options & PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION) != 0);
			if (!pmregs_etrace_smi_stream_next_l(&f->s, &f->p, &f->fl, &f->tl, &f->it))
				break;
		item:
			if (f->it.status < 0) {
				f->unreadable++;
				pmregs_etrace_decoder_lose(d);
				continue;
			}
			if (!f->it.has_payload)
				continue;
			if (f->it.offset > f->end)
				break;
			if (f->it.offset == f->end && f->end < f->s.len)
				d->end_chunk = 1; /* the next chunk's first packet: follow to it, leave its report to that chunk */
			f->pending = 1;
		}
		rc = pmregs_etrace_decoder_packet(d, &f->it.payload, out, cap, n);
		if (fn) {
			if (rc == PMREGS_ETRACE_DEC_FOLLOW) {
				for (k = 0; k < *n; k++)
					fn(ctx, &out[k]);
				*n = 0;
				rc = pmregs_etrace_dec_follow_to(d, &f->it.payload, out, cap, n, fn, ctx);
				rc = pmregs_etrace_dec_followed(d, &f->it.payload, out, n, rc);
			}
			for (k = 0; k < *n; k++)
				fn(ctx, &out[k]);
			*n = 0;
			if (rc == PMREGS_ENOSPC)
				continue; /* (out was full: the packet resumes) */
		} else if (rc == PMREGS_ENOSPC) {
			d->feed = PMREGS_NULL;
			return rc;
		}
		f->pending = 0;
		if (rc == PMREGS_ETRACE_DEC_NEXT)
			goto item; /* the packets before it are done */
		if (rc == PMREGS_ETRACE_DEC_END)
			break;
		if (rc == PMREGS_EINVAL)
			f->inconsistent++;
		if (d->end_chunk)
			break;
	}
	d->feed = PMREGS_NULL;
	d->each = 0;
	return PMREGS_OK;
}

/*
 * Decode the stream's te_inst packets into out[*n..cap) until the stream ends
 * (returns PMREGS_OK) or out is full (returns PMREGS_ENOSPC: consume the items
 * and call again; it resumes exactly where it stopped). Inconsistencies are
 * ERROR items (and counted in f->inconsistent), unreadable bytes make the
 * decoder wait for the next synchronisation packet.
 */
static inline int pmregs_etrace_decode_smi(struct pmregs_etrace_decoder *d, struct pmregs_etrace_smi_feed *f, struct pmregs_etrace_item *out,
					   size_t cap, size_t *n)
{
	return pmregs_etrace_dec_smi(d, f, out, cap, n, PMREGS_NULL, PMREGS_NULL);
}

/* Items pmregs_etrace_decode_smi_each() holds for the rare paths (at least PMREGS_ETRACE_ROOM). */
#define PMREGS_ETRACE_EACH_ITEMS 16u

/*
 * pmregs_etrace_decode_smi() with a consumer: fn(ctx, item) for every item, in
 * order, until the stream (or the chunk) ends; returns PMREGS_OK. The counters
 * and the feed's are as after pmregs_etrace_decode_smi(). It is inlined where
 * it is called, and so is fn where the compiler sees its body (a static
 * function): the fields of an item that fn does not read are never made, and
 * no item is stored. item points to a temporary: fn copies what it keeps, and
 * it must not use d or f.
 */
PMREGS_HOT int pmregs_etrace_decode_smi_each(struct pmregs_etrace_decoder *d, struct pmregs_etrace_smi_feed *f, pmregs_etrace_item_fn fn,
					  void *ctx)
{
	struct pmregs_etrace_item held[PMREGS_ETRACE_EACH_ITEMS];
	size_t n = 0;
	return pmregs_etrace_dec_smi(d, f, held, PMREGS_ETRACE_EACH_ITEMS, &n, fn, ctx);
}

/* ---- parallel decoding: chunks ---- */

/*
 * Does pkt restart the decoder (a format 3 subformat 0 packet, or subformat 1
 * with thaddr = 1)? The state after it depends on nothing before it but the
 * options, so a trace splits into chunks there.
 */
static inline int pmregs_etrace_decoder_is_restart(const struct pmregs_etrace_te_inst *pkt)
{
	return pkt->format == 3 && (pkt->subformat == 0 || (pkt->subformat == 1 && pkt->thaddr));
}

/*
 * One chunk of a trace: decode it with a decoder configured with options,
 * first_packet = packet and, unless first is 0 (the trace's start), chunk =
 * PMREGS_ETRACE_CHUNK_FIRST; feed it from offset up to and including the
 * packet at the next chunk's offset (pmregs_etrace_smi_feed_chunk() does
 * both). The chunks' items, concatenated in order, are the items of the whole
 * trace decoded at once: the restart packet that ends a chunk is followed to
 * (its instructions and its trap belong to that chunk), its own instruction
 * is the next chunk's first item.
 */
struct pmregs_etrace_chunk {
	size_t offset;    /* byte offset of the chunk's first item in the stream */
	uint64_t packet;  /* index of its first te_inst packet */
	uint32_t options; /* decoder options in force there */
	int first;        /* 1: it starts at a restart packet */
};

/*
 * Split an SMI stream at restart packets into at most max chunks, each at
 * least min_packets te_inst packets long (the last may be shorter), for a
 * decoder that starts with options and reads support packets in layout.
 * Returns the number of chunks written (>= 1 when max >= 1). Walks the whole
 * stream with pmregs_etrace_smi_stream_next(), as a decoder's feed does, so
 * the offsets are the feed's.
 */
static inline size_t pmregs_etrace_smi_split(const struct pmregs_etrace_params *params, const void *buf, size_t len, int synced,
					     unsigned layout, uint32_t options, uint64_t min_packets, struct pmregs_etrace_chunk *out, size_t max)
{
	struct pmregs_etrace_smi_stream s;
	struct pmregs_etrace_smi_stream_item it;
	struct pmregs_etrace_params p = *params;
	uint64_t packets = 0;
	size_t n = 0;
	if (max == 0)
		return 0;
	options |= params->implicit_exception ? PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION : 0u;
	out[0].offset = 0;
	out[0].packet = 0;
	out[0].options = options;
	out[0].first = 0;
	n = 1;
	pmregs_etrace_smi_stream_init(&s, buf, len, synced);
	for (;;) {
		p.implicit_exception = (uint8_t)((options & PMREGS_ETRACE_OPT_IMPLICIT_EXCEPTION) != 0);
		if (!pmregs_etrace_smi_stream_next(&s, &p, &it))
			break;
		if (it.status < 0 || !it.has_payload)
			continue;
		if (pmregs_etrace_decoder_is_restart(&it.payload) && packets >= out[n - 1].packet + min_packets && packets > 0) {
			if (n == max)
				break;
			out[n].offset = it.offset;
			out[n].packet = packets;
			out[n].options = options;
			out[n].first = 1;
			n++;
		}
		if (it.payload.format == 3 && it.payload.subformat == 3) {
			uint32_t known, o = pmregs_etrace_ioptions_to_options(layout, it.payload.ioptions, &known);
			options = (options & ~known) | (o & known);
		}
		packets++;
	}
	return n;
}

/*
 * Set f up to feed the chunk c of buf[0..len), whose successor starts at end
 * (len for the last chunk), and the decoder config *cfg (its other fields set
 * by the caller) to decode it. synced is as for the whole stream (it matters
 * for the first chunk only).
 */
static inline void pmregs_etrace_smi_feed_chunk(struct pmregs_etrace_smi_feed *f, const struct pmregs_etrace_params *p, const void *buf,
						size_t len, int synced, const struct pmregs_etrace_chunk *c, size_t end,
						struct pmregs_etrace_decoder_config *cfg)
{
	pmregs_etrace_smi_feed_init(f, p, buf, len, c->first ? 1 : synced);
	f->s.pos = c->offset;
	f->end = end;
	cfg->options = c->options;
	cfg->first_packet = c->packet;
	cfg->chunk = c->first ? PMREGS_ETRACE_CHUNK_FIRST : 0u;
}

PMREGS_C_END

#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_ETRACE_DECODER_H */
