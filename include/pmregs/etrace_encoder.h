/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/etrace_encoder.h - the E-Trace instruction trace encoder: the
 * specification's example algorithm as a streaming encoder (hand-written).
 *
 * Input: the hart-to-encoder interface of the specification's chapter "Hart
 * to encoder interface" (the ingress port), one block at a time: itype,
 * iretire and ilastsize, iaddr, priv, cause, tval, context, ctype, time and
 * sijump, plus the sideband (filter qualification, trace-notify trigger,
 * halted, reset). Output: te_inst payloads (struct pmregs_etrace_te_inst of
 * <pmregs/etrace.h>), queued in the state; take them out as structs, or let
 * the writers frame them straight into an SMI, encapsulation or ATB stream.
 *
 * Algorithm: the flowchart of the chapter "Reference Compressed Branch Trace
 * Algorithm" (figure "Instruction delta trace algorithm") with its 3-stage
 * pipeline (previous, current and next instruction), the resynchronisation
 * FSM of its section "Resynchronisation", the format choices of its section
 * "Format selection", and the rules of the chapter "Instruction Trace
 * Encoder Output Packets" for notify, updiscon, irreport/irdepth and
 * qual_status. Every run-time option the specification defines: delta or
 * full addresses, implicit exception, implicit return with a return address
 * stack (2^return_stack_size_p entries) or a call counter, sequentially
 * inferable jumps, the jump target cache (format 0.1) and branch prediction
 * (format 0.0); resynchronisation after N packets, N cycles or N retired
 * half-words; notify requests; qualification windows; trace-lost reports.
 *
 * No heap, no globals, nothing but <stdint.h>/<stddef.h>: one struct
 * pmregs_etrace_encoder per hart; the return stack, the jump target cache
 * and the branch predictor live in a work area the caller provides
 * (pmregs_etrace_encoder_work_size() says how big).
 *
 *   struct pmregs_etrace_encoder e;
 *   struct pmregs_etrace_encoder_config cfg;
 *   pmregs_etrace_encoder_config_default(&cfg);
 *   cfg.options |= PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN;
 *   pmregs_etrace_encoder_init(&e, &params, &cfg, work, sizeof work);
 *   for each block:  pmregs_etrace_encoder_step(&e, &block);
 *                    n = pmregs_etrace_encoder_take(&e, pkts, 16);   (or _put_smi())
 *   at the end:      pmregs_etrace_encoder_finish(&e, 0);  and take the rest
 *
 * -------------------------------------------------------------------------
 * Readings of the specification. Where it leaves something open this
 * encoder chooses as follows; a decoder must follow the same rules (the
 * pmregs decoder does), and the tests pin each one.
 *
 * Blocks. A block of several instructions is handled through its first and
 * its last instruction only (section "Multiple retirement
 * considerations"): the others cannot change the encoder's state. A block
 * whose itype is 1 or 2 and that retires instructions is its instructions
 * (the last with itype 0) followed by the trap, which is a pipeline element
 * of its own with nothing retired ("exc_only"), as the chapter's note on
 * simultaneous retirement and trap says ("the flow diagram must be traversed
 * twice"). The address of a trap without retirement is iaddr, which must be
 * the address of the instruction that did not retire (the EPC), for
 * interrupts too. Blocks in single-retirement and in multiple-retirement
 * form give the same packets, except that a resynchronisation that single
 * retirement makes on an instruction inside a block is made on the block's
 * last instruction (the encoder never sees the others).
 *
 * Resynchronisation (section "Resynchronisation"): a counter of te_inst
 * packets, of cycles or of retired half-words. State 1: counting. State 2
 * (the counter reached max): the branch map is flushed with a format 0/1
 * packet (with the current address) if it holds branches; state 3 follows
 * the first packet other than a sync sent in state 2: the next instruction
 * gets a format 3.0. So a resynchronisation packet always comes right after
 * another packet, and a decoder finds its address by following one step.
 * Counting packets, every te_inst packet counts except format 3.0 and 3.1,
 * which reset the counter (as the reference encoder does, where max_resync is
 * 2^(resync-max + 4)). Counting half-words, the counter holds the half-words
 * retired since the sync (the sync's instruction included) and is compared
 * with max on the last instruction of blocks whose itype is not 0; counting
 * cycles, each block is one cycle, pmregs_etrace_encoder_idle() adds more.
 *
 * Sequentially inferable jumps: a jump whose block has sijump set (itype 6,
 * 8, 10, 12 or 14) is inferable when the option is on, unless the jump is
 * the instruction a format 3.1, or a format 3.0 that starts a trace, reports
 * (the decoder then does not know the instruction before it). With the
 * reference ioptions layout, which has no sijump bit, the mode is announced
 * by the parameter: it is on exactly when sijump_p is 1. The PULP layout has
 * its own bit.
 *
 * Implicit return (itype 4 bits wide; calls are itype 8 and 9, returns 13, a
 * co-routine swap 12 is a return followed by a call): calls push the address
 * after the call; the stack keeps the newest 2^return_stack_size_p entries
 * (a push onto a full stack drops the oldest); a return is implicit when the
 * stack is not empty and its top is the return's actual target, and then pops
 * it. A return whose target differs (a misprediction) is not popped and is
 * reported as an uninferable jump: the packet that reports its target has
 * irreport asserted and irdepth = the number of entries on the stack. A
 * return with an empty stack is a plain uninferable jump. With a call counter
 * (return_stack_size_p = 0), the count saturates at 2^call_counter_size_p - 1
 * (so it always fits irdepth, which is call_counter_size_p bits wide), and a
 * return is implicit when the count is not 0. The stack and the counter are
 * emptied by a format 3.0 or a 3.1 with thaddr = 1 (before the instruction
 * it reports takes effect). A packet that reports the instruction before a
 * format 3 (a trap, a privilege or precise context change, a resync, the end
 * of tracing) also reports the depth, per the payload chapter: when the
 * instruction follows an implicit return and the depth is not 0, or when
 * there was an implicit return since the last call and no branch since it.
 * A decoder treats the first return it meets at depth irdepth (while it
 * follows the path to such a packet's address) as the reported one; if an
 * implicit return at that same depth was followed since the previous packet,
 * irdepth cannot identify the instruction, and the encoder says so instead of
 * sending an ambiguous packet: a support packet with qual_status trace_lost,
 * then a format 3.0 at the instruction. So it does when the target of a
 * mispredicted return already executed since the last branch or packet (a
 * decoder could stop at that earlier execution, and walking on from there
 * under the next packet's irdepth would take the mispredicted return as
 * implicit). A format 3.0 has no irreport: a
 * decoder following to its address takes a return as implicit whenever its
 * stack is not empty. So a resync due right after a mispredicted return
 * waits one instruction (the return's target is reported first, with
 * irreport), and a privilege or precise context change right after one
 * gets the support packet with trace_lost before its format 3.0.
 *
 * Jump target cache (format 0.1): 2^cache_size_p entries, direct mapped,
 * indexed by address bits cache_size_p:1 (cache_size_p+1:2 when
 * iaddress_lsb_p is 2 or more). Every address a format 0, 1 or 2 packet
 * reports is stored (a decoder reading such a packet cannot always tell
 * whether its address follows an uninferable jump: the looplabel case);
 * implicit returns, not being reported, never touch it. An address that
 * follows an uninferable jump (including a mispredicted return) and is
 * found in the cache is reported with format 0.1, unless the packet needs
 * notify or updiscon asserted (format 0.1 has no such bits) or 31 or more
 * correct predictions are pending (format 0.0 then); the cached address
 * becomes the base of the next differential address; a format 3.0 or 3.1
 * with thaddr = 1 empties the cache.
 *
 * Branch prediction (format 0.0): 2^bpred_size_p two-bit counters indexed
 * like the cache, each set to 01 by a format 3.0 or 3.1 with thaddr = 1
 * (before the branch it may report updates it); every branch updates its
 * counter after the packet choice. While the branches since the last packet
 * were all predicted correctly they are counted; at 31 the branch map is
 * dropped and only the count kept. Then a failed prediction sends format
 * 0.0 without an address (branch_count = correct predictions - 31, the
 * failing branch implied), and a packet with an address is a format 0.0
 * with branch_fmt 2 (the count includes the reported instruction if it is a
 * correctly predicted branch) or 3 (it is a branch that failed). A branch
 * count of 0xffffffff is reported with an address at once.
 *
 * Traps. The trap of an exception or interrupt is reported by a format 3.1
 * with thaddr = 1 at the first instruction of the handler; with thaddr = 0
 * and the address of the instruction that did not retire when the trap
 * follows an uninferable jump, when it starts the trace, or when another
 * trap follows before the handler retires anything (then the first handler
 * instruction gets a format 3.0, or the later trap's 3.1). A trap with
 * thaddr = 0 changes neither the differential base nor the stack, cache or
 * predictor (a decoder returns before reading its address). The end of
 * tracing with a trap still unreported reports it with thaddr = 0 too. The
 * format 3 packet after a trap with thaddr = 0 reports the next instruction
 * that retires: a decoder goes there directly (as after a 3.1 with thaddr =
 * 1), without taking the jump before the trap again (with implicit return,
 * following it could take a mispredicted return as predicted).
 *
 * Qualification and support packets. A support packet (ienable 1,
 * qual_status no_change) comes first; the end of qualification (an
 * unqualified, halted or reset block, pmregs_etrace_encoder_finish()) sends
 * the packet that reports the last traced instruction, with updiscon
 * asserted when that instruction follows an uninferable jump (the encoder
 * knows the next instruction's filter result), then a support packet with
 * qual_status ended_rep (the payload chapter's rule for encoders that know
 * the filter result early); tracing starts again with a format 3.0. A change
 * of options ends qualification the same way, the support packet carrying
 * the new ioptions. Packets the caller reports lost (or that overflow the
 * state's queue) are followed by a support packet with qual_status
 * trace_lost, then tracing starts again with a format 3.0.
 *
 * Privilege and precise context changes: the instruction before one is
 * reported (format 0/1/2) when branches are pending (ppccd_br), when the
 * change's first instruction already retired since the last branch or
 * packet, itself included (a decoder following to the 3.0's address would stop there; only
 * implicit returns lead back without a branch or a report), and also
 * when the last packet reported a jump target that had already executed
 * since the last branch: a decoder may have stopped at that earlier,
 * fall-through occurrence (the looplabel case), and it resolves that
 * through a format 0/1/2 packet (the decoder pseudo-code keeps the earlier
 * occurrence on a format 3).
 *
 * Reports by fall-through. A decoder finds an address reported for another
 * reason than following an uninferable jump (before a trap or a privilege
 * change, a resync flush, a notification, the end of tracing) at its first
 * execution after the last branch; when the encoder sees that the
 * instruction already retired since the last branch or packet (it keeps the
 * address ranges of the last 32 blocks), it sends a support packet with
 * qual_status trace_lost and a format 3.0 at the instruction instead, as for
 * an ambiguous irdepth. The same happens when the last packet reported a
 * jump target that already executed since the last branch and a full branch
 * map without an address would come next: a decoder that stopped at the
 * earlier execution walks on to the jump under that packet, where
 * stop_at_last_branch makes the jump an error.
 *
 * Notify: a block with PMREGS_ETRACE_INGRESS_NOTIFY makes its last
 * instruction reported; notify is asserted unless the instruction follows an
 * uninferable jump (it is reported then anyway). updiscon is asserted when
 * the reported instruction follows an uninferable jump and the next packet
 * is a format 3; in single-retirement mode (iretire counting instructions)
 * also when the next instruction traps after retiring (an ecall), as the
 * reference encoder does (asserting it for a jump target is always safe; a
 * block does not show the instruction after its first, so blocks do not).
 */
#ifndef PMREGS_ETRACE_ENCODER_H
#define PMREGS_ETRACE_ENCODER_H

#include "etrace.h"

#ifndef __ASSEMBLER__
PMREGS_C_BEGIN

/* ---- the ingress port ------------------------------------------------------------ */

/* itype codes of the ingress port (specification table "Instruction Type (itype) encoding"). */
#define PMREGS_ETRACE_ITYPE_NONE            0
#define PMREGS_ETRACE_ITYPE_EXCEPTION       1
#define PMREGS_ETRACE_ITYPE_INTERRUPT       2
#define PMREGS_ETRACE_ITYPE_TRAP_RETURN     3
#define PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH 4
#define PMREGS_ETRACE_ITYPE_TAKEN_BRANCH    5
#define PMREGS_ETRACE_ITYPE_UNINF_JUMP3     6  /* any uninferable jump, itype_width_p = 3 */
#define PMREGS_ETRACE_ITYPE_UNINF_CALL      8
#define PMREGS_ETRACE_ITYPE_INF_CALL        9
#define PMREGS_ETRACE_ITYPE_UNINF_JUMP      10
#define PMREGS_ETRACE_ITYPE_INF_JUMP        11
#define PMREGS_ETRACE_ITYPE_COROUTINE_SWAP  12
#define PMREGS_ETRACE_ITYPE_RETURN          13
#define PMREGS_ETRACE_ITYPE_OTHER_UNINF     14
#define PMREGS_ETRACE_ITYPE_OTHER_INF       15

/* ctype codes (table "Context type ctype values and corresponding actions"). */
#define PMREGS_ETRACE_CTYPE_UNREPORTED 0
#define PMREGS_ETRACE_CTYPE_IMPRECISE  1
#define PMREGS_ETRACE_CTYPE_PRECISE    2
#define PMREGS_ETRACE_CTYPE_ASYNC      3 /* treated as a trap: the last instruction before and the first after are reported */

/* Sideband bits of struct pmregs_etrace_ingress.flags. */
#define PMREGS_ETRACE_INGRESS_UNQUALIFIED 0x01u /* the filters do not select this block: it is not traced */
#define PMREGS_ETRACE_INGRESS_NOTIFY      0x02u /* trigger[2] (trace-notify): report the block's last instruction */
#define PMREGS_ETRACE_INGRESS_HALTED      0x04u /* the hart is halted: as unqualified */
#define PMREGS_ETRACE_INGRESS_RESET       0x08u /* the hart is in reset: as unqualified */

/*
 * One block of the ingress port (specification tables "Instruction interface
 * signals" and "... multiple retirement per block"): the instructions retired
 * in one cycle, contiguous from iaddr, the last of type itype. iretire counts
 * half-words (or instructions, 0 or 1, when the encoder's config says the
 * hart retires one at a time); the last instruction is 2^ilastsize
 * half-words long. iretire = 0 with itype 1 or 2 is a trap with nothing
 * retired (iaddr is then the address of the instruction that did not
 * retire); iretire = 0 with itype 0 is an idle cycle.
 */
struct pmregs_etrace_ingress {
	uint64_t iaddr;   /* address of the first instruction retired (or of the trapping one) */
	uint64_t cause;   /* exception or interrupt cause (itype 1, 2); must fit ecause_width_p */
	uint64_t tval;    /* trap value (itype 1) */
	uint64_t context; /* context of the instructions of this block */
	uint64_t time;    /* time, sampled into format 3 packets */
	uint32_t iretire; /* half-words retired (or instructions, see iretire_unit) */
	uint8_t itype;    /* PMREGS_ETRACE_ITYPE_*: the type of the last instruction (3 or 4 bits) */
	uint8_t ilastsize; /* the last instruction is 2^ilastsize half-words */
	uint8_t priv;     /* privilege level (0 U, 1 S/HS, 3 M, 4 D, 5 VU, 6 VS); must fit privilege_width_p */
	uint8_t ctype;    /* PMREGS_ETRACE_CTYPE_* for context */
	uint8_t sijump;   /* 1: the jump that ends the block is sequentially inferable (itype 6, 8, 10, 12, 14) */
	uint8_t flags;    /* PMREGS_ETRACE_INGRESS_* */
	uint8_t pmregs_pad[6]; /* unused: the struct's size without implicit padding */
};

/* ---- configuration ------------------------------------------------------------------ */

/* Run-time options (struct pmregs_etrace_encoder_config.options). Implicit exception is the
 * parameter implicit_exception of struct pmregs_etrace_params (it changes the trap packet's layout). */
#define PMREGS_ETRACE_ENCODER_FULL_ADDRESS      0x01u /* addresses in formats 0, 1 and 2 are full, not differential */
#define PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN   0x02u /* returns predicted by the stack or counter are not reported */
#define PMREGS_ETRACE_ENCODER_SIJUMP            0x04u /* sequentially inferable jumps are not reported (needs sijump_p) */
#define PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE 0x08u /* format 0.1 (needs cache_size_p) */
#define PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION 0x10u /* format 0.0 (needs bpred_size_p) */
#define PMREGS_ETRACE_ENCODER_OPTIONS_ALL       0x1fu

/* What the resynchronisation counter counts. */
#define PMREGS_ETRACE_ENCODER_RESYNC_PACKETS   0
#define PMREGS_ETRACE_ENCODER_RESYNC_HALFWORDS 1
#define PMREGS_ETRACE_ENCODER_RESYNC_CYCLES    2

/* What iretire counts. */
#define PMREGS_ETRACE_ENCODER_IRETIRE_HALFWORDS    0 /* blocks of any size (multiple retirement) */
#define PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS 1 /* 0 or 1 instruction (single retirement, retires_p = 1) */

/* How the options are written into the support packet's ioptions. */
#define PMREGS_ETRACE_ENCODER_IOPTIONS_REF  0 /* layout ioptions_ref (needs ioptions_width >= 5) */
#define PMREGS_ETRACE_ENCODER_IOPTIONS_PULP 1 /* layout ioptions_pulp (needs ioptions_width >= 7) */

struct pmregs_etrace_encoder_config {
	uint32_t options;       /* PMREGS_ETRACE_ENCODER_* option bits */
	uint32_t resync_max;    /* resynchronise when the counter reaches this; 0 = never */
	uint8_t resync_unit;    /* PMREGS_ETRACE_ENCODER_RESYNC_* */
	uint8_t itype_width;    /* itype_width_p: 3 or 4 */
	uint8_t iretire_unit;   /* PMREGS_ETRACE_ENCODER_IRETIRE_* */
	uint8_t ioptions_layout; /* PMREGS_ETRACE_ENCODER_IOPTIONS_* */
};

/* No options, itype 4 bits wide, blocks in half-words, the reference ioptions layout, a
 * resynchronisation after 2^(0 + 4) = 16 packets (the reference encoder's default). */
static inline void pmregs_etrace_encoder_config_default(struct pmregs_etrace_encoder_config *c)
{
	c->options = 0;
	c->resync_max = 16;
	c->resync_unit = PMREGS_ETRACE_ENCODER_RESYNC_PACKETS;
	c->itype_width = 4;
	c->iretire_unit = PMREGS_ETRACE_ENCODER_IRETIRE_HALFWORDS;
	c->ioptions_layout = PMREGS_ETRACE_ENCODER_IOPTIONS_REF;
}

/* ---- state ---------------------------------------------------------------------------- */

#define PMREGS_ETRACE_ENCODER_QUEUE    32 /* packets the state can hold (a power of two) */
#define PMREGS_ETRACE_ENCODER_STEP_MAX 12 /* most packets one block (or finish) can add */

/* Internal: one element of the pipeline (an instruction, a trap without retirement, or "not traced"). */
struct pmregs_etrace_encoder_el {
	uint64_t addr;
	uint64_t context;
	uint64_t time;
	uint64_t cause;
	uint64_t tval;
	uint32_t hw;    /* half-words the element adds to a half-word resync counter */
	uint8_t kind;   /* 0: not traced, 1: instruction, 2: trap without retirement */
	uint8_t itype;
	uint8_t priv;
	uint8_t ctype;
	uint8_t size;   /* bytes (the last instruction of a block); 0 when not known */
	uint8_t flags;
	uint8_t qual;   /* not traced: the support packet's qual_status and ienable */
	uint8_t ienable;
	uint8_t pmregs_pad[4]; /* unused: the struct's size without implicit padding */
};

/* Counters for the caller (never read by the encoder). */
struct pmregs_etrace_encoder_stats {
	uint64_t blocks;      /* blocks stepped, idle ones included */
	uint64_t packets;     /* te_inst packets queued */
	uint64_t dropped;     /* packets that did not fit the queue */
	uint64_t ambiguous;   /* irreport/irdepth that could not identify the instruction (see above) */
	uint64_t repeated;    /* reports by fall-through of an instruction that already retired since the last branch */
	uint64_t bad_blocks;  /* blocks refused by pmregs_etrace_encoder_step() */
};

/* Internal: an SMI stream that pmregs_etrace_encoder_run_smi() lets the encoder write packets of formats 1 and 2
 * into straight, while no packet waits in the queue (out[o..cap), message type msg_type). */
struct pmregs_etrace_enc_sink {
	unsigned char *out;
	size_t o, cap;
	size_t msg_type;
};

struct pmregs_etrace_encoder {
	struct pmregs_etrace_encoder_el el[4]; /* ring: previous, current, next */
	struct pmregs_etrace_encoder_stats stats;
	uint64_t last_addr;  /* base of differential addresses */
	uint64_t amask;      /* iaddress_width_p low bits */
	uint64_t pbc;        /* correctly predicted branches since the last packet, while all were */
	uint64_t rs_count;   /* resynchronisation counter */
	uint64_t rs_max;
	uint64_t ir_seen;    /* bit d-1: an implicit return at depth d since the last packet (d <= 64) */
	uint64_t fast_tab;   /* four bits per itype i < 16 for the run of short paths: 8 a block of itype i can take it
			      * (as fast_in), 4 a call that pushes onto the stack or counter, 3 the class of fast_cur */
	uint64_t fast_kmask; /* the run of short paths compares eight bytes of a block from iretire on, masked by this, */
	uint64_t fast_key0;  /* ... with these two keys (a 16-bit and a 32-bit instruction in privilege 0) */
	uint64_t fast_key1;
	uint64_t fast_kpriv; /* ... to which the privilege times this is added */
	uint64_t fast_irmax; /* irdepth with every bit set */
	uint64_t *stack;     /* 2^return_stack_size_p entries (work area), or null */
	uint64_t *jtc;       /* 2^cache_size_p entries (work area), or null */
	uint8_t *bp;         /* 2^bpred_size_p two-bit counters, one per byte (work area), or null */
	struct pmregs_etrace_enc_sink *sink; /* during pmregs_etrace_encoder_run_smi() (a plain framing), else null */
	uint64_t hist_open;  /* first address of the block whose last instruction comes next */
	uint64_t hist[32][2];
	struct pmregs_etrace_te_inst q[PMREGS_ETRACE_ENCODER_QUEUE];
	struct pmregs_etrace_te_inst scratch; /* where a packet that does not fit the queue is built */
	struct pmregs_etrace_te_inst blank;   /* a packet with every field 0 */
	uint32_t depth;      /* entries on the return stack, or the call count */
	uint32_t depth_max;
	uint32_t stack_top;  /* index of the top entry (the stack is a ring: a push onto a full one drops the oldest) */
	uint32_t jtc_mask, bp_mask;
	uint32_t bmap;       /* branch map: bit i is the i-th branch, 1 = not taken */
	uint32_t options;
	uint32_t ioptions;   /* what support packets carry */
	uint32_t mispred_depth;
	unsigned cur;        /* index of the current (pending) element in el[] */
	unsigned qhead, qtail;
	uint8_t branches;    /* valid bits in bmap */
	uint8_t have_cur;    /* el[cur] is waiting for its next element */
	uint8_t tracing;     /* a trace has started and not ended */
	uint8_t counting;    /* branch prediction: 31 or more correct predictions, only counted */
	uint8_t rs_state;    /* resynchronisation FSM: 1, 2 or 3 */
	uint8_t rs_unit;
	uint8_t itype_width;
	uint8_t iretire_unit;
	uint8_t layout;
	uint8_t trep;        /* the previous trap was already reported with thaddr = 0 */
	uint8_t fresh;       /* the current instruction was reported by a packet that restarts a decoder */
	uint8_t prev_updiscon; /* the previous instruction is an uninferable discontinuity */
	uint8_t prev_mispred;  /* ... a return that failed the prediction */
	uint8_t prev_ret;      /* ... a return predicted correctly */
	uint8_t ret_since_call;   /* an implicit return since the last call */
	uint8_t branch_since_ret; /* a branch since the last implicit return */
	uint8_t ir_seen_high;  /* an implicit return deeper than 64 since the last packet */
	uint8_t lost;        /* packets were lost: a trace_lost support packet is due */
	uint8_t shift;       /* index bits of the cache and predictor start here */
	uint8_t inferred;    /* the last packet reported a jump target that a decoder may first meet by falling through */
	uint8_t nhist;       /* address ranges retired since the last branch or packet (hist[], at most 32) */
	uint8_t hist_over;   /* ... and there were more */
	struct pmregs_etrace_params p; /* bytes only */
	uint8_t fast;        /* the current element can take the short path of pmregs_etrace_encoder_step(): 1, or 2 as the
			      * target of an uninferable jump; 3 a trap (pmregs_etrace_enc_ready()) */
	uint32_t fast_in;    /* bit i: a block of itype i can take the short path */
	uint32_t fast_cur;   /* two bits per itype i of the current element: 1 not a jump or an inferable one, 2 a branch,
			      * 3 an uninferable jump that is not an implicit return */
	uint8_t fast_one;    /* the iretire of a single instruction: 1 (instructions), or 0 (as many half-words as it is long) */
	uint8_t fast_rs;     /* the resynchronisation counter counts cycles or half-words */
	uint8_t fast_tgt;    /* targets of uninferable jumps can take the short path (no return stack, cache or predictor) */
	uint8_t fast_aw;     /* iaddress_width_p - iaddress_lsb_p: the bits of an address field */
	uint8_t fast_dw;     /* the bits of irdepth */
	uint8_t pmregs_pad2[3]; /* unused: the struct's size without implicit padding */
};

/* Internal element kinds and flags. */
#define PMREGS_ETRACE_ENC_OFF  0
#define PMREGS_ETRACE_ENC_INSN 1
#define PMREGS_ETRACE_ENC_TRAP 2
#define PMREGS_ETRACE_ENC_SIJUMP    0x01u
#define PMREGS_ETRACE_ENC_NOTIFY    0x02u
#define PMREGS_ETRACE_ENC_FIRST     0x04u /* first of a block of several instructions */
#define PMREGS_ETRACE_ENC_BLKTRAP   0x08u /* the last instruction of a block that ends in a trap, or the trap */
#define PMREGS_ETRACE_ENC_INTERRUPT 0x10u /* a trap: an interrupt */
#define PMREGS_ETRACE_ENC_ELIGIBLE  0x20u /* last of a block whose itype is not 0: resync counters are compared here */
#define PMREGS_ETRACE_ENC_FINAL     0x40u /* not traced: the end of the trace */

/*
 * The bytes of work area the encoder needs for the parameters p (return
 * stack, jump target cache, branch predictor), in *bytes. The area must be
 * aligned for uint64_t. Returns PMREGS_OK, or PMREGS_ERANGE when the sizes do
 * not fit a size_t.
 */
static inline int pmregs_etrace_encoder_work_size(const struct pmregs_etrace_params *p, size_t *bytes)
{
	unsigned lim = (unsigned)(8u * sizeof(size_t) - 5u);
	size_t n = 0;
	if (p->return_stack_size_p > lim || p->cache_size_p > lim || p->bpred_size_p > lim)
		return PMREGS_ERANGE;
	if (p->return_stack_size_p)
		n += (size_t)8 << p->return_stack_size_p;
	if (p->cache_size_p)
		n += (size_t)8 << p->cache_size_p;
	if (p->bpred_size_p)
		n += ((size_t)1 << p->bpred_size_p) + 7u;
	*bytes = n;
	return PMREGS_OK;
}

/* The ioptions value for options (PMREGS_ETRACE_ENCODER_*) under layout (PMREGS_ETRACE_ENCODER_IOPTIONS_*). */
static inline uint32_t pmregs_etrace_encoder_ioptions_of(const struct pmregs_etrace_params *p, uint32_t options, unsigned layout)
{
	uint32_t v = 0;
	if (layout == PMREGS_ETRACE_ENCODER_IOPTIONS_PULP) {
		v |= (options & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE) ? PMREGS_ETRACE_IOPTIONS_PULP_JUMP_TARGET_CACHE_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION) ? PMREGS_ETRACE_IOPTIONS_PULP_BRANCH_PREDICTION_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) ? PMREGS_ETRACE_IOPTIONS_PULP_IMPLICIT_RETURN_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_SIJUMP) ? PMREGS_ETRACE_IOPTIONS_PULP_SIJUMP_MASK : 0u;
		v |= p->implicit_exception ? PMREGS_ETRACE_IOPTIONS_PULP_IMPLICIT_EXCEPTION_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_FULL_ADDRESS) ? PMREGS_ETRACE_IOPTIONS_PULP_FULL_ADDRESS_MASK
								    : PMREGS_ETRACE_IOPTIONS_PULP_DELTA_ADDRESS_MASK;
	} else {
		v |= (options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) ? PMREGS_ETRACE_IOPTIONS_REF_IMPLICIT_RETURN_MASK : 0u;
		v |= p->implicit_exception ? PMREGS_ETRACE_IOPTIONS_REF_IMPLICIT_EXCEPTION_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_FULL_ADDRESS) ? PMREGS_ETRACE_IOPTIONS_REF_FULL_ADDRESS_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE) ? PMREGS_ETRACE_IOPTIONS_REF_JUMP_TARGET_CACHE_MASK : 0u;
		v |= (options & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION) ? PMREGS_ETRACE_IOPTIONS_REF_BRANCH_PREDICTION_MASK : 0u;
	}
	return v;
}

/*
 * PMREGS_OK when options (under config c) can run with parameters p;
 * otherwise PMREGS_EINVAL, and *why (if why is not a null pointer) says
 * which rule is broken.
 */
static inline int pmregs_etrace_encoder_check(const struct pmregs_etrace_params *p, const struct pmregs_etrace_encoder_config *c,
					      const char **why)
{
	const char *w = "";
	uint32_t o = c->options, iopt;
	int rc = pmregs_etrace_params_check_why(p, &w);
	if (rc == PMREGS_OK) {
		rc = PMREGS_EINVAL;
		iopt = pmregs_etrace_encoder_ioptions_of(p, o, c->ioptions_layout);
		if (o & ~PMREGS_ETRACE_ENCODER_OPTIONS_ALL)
			w = "unknown option bits";
		else if (c->itype_width != 3 && c->itype_width != 4)
			w = "itype_width must be 3 or 4";
		else if (c->resync_unit > PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
			w = "resync_unit is not one of PMREGS_ETRACE_ENCODER_RESYNC_*";
		else if (c->iretire_unit > PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS)
			w = "iretire_unit is not one of PMREGS_ETRACE_ENCODER_IRETIRE_*";
		else if (c->ioptions_layout > PMREGS_ETRACE_ENCODER_IOPTIONS_PULP)
			w = "ioptions_layout is not one of PMREGS_ETRACE_ENCODER_IOPTIONS_*";
		else if (!pmregs_fits(iopt, p->ioptions_width))
			w = "the options do not fit ioptions_width (the reference layout needs 5 bits, PULP's 7)";
		else if ((o & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) && c->itype_width != 4)
			w = "implicit return needs itype_width 4 (calls and returns are not told apart with 3)";
		else if ((o & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) && !p->return_stack_size_p && !p->call_counter_size_p)
			w = "implicit return needs return_stack_size_p or call_counter_size_p";
		else if ((o & PMREGS_ETRACE_ENCODER_SIJUMP) && !p->sijump_p)
			w = "sequentially inferable jumps need sijump_p = 1";
		else if (c->ioptions_layout == PMREGS_ETRACE_ENCODER_IOPTIONS_REF && !(o & PMREGS_ETRACE_ENCODER_SIJUMP) != !p->sijump_p)
			w = "with the reference ioptions layout (no sijump bit) the sijump option must equal sijump_p";
		else if ((o & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE) && !p->cache_size_p)
			w = "the jump target cache needs cache_size_p";
		else if ((o & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION) && !p->bpred_size_p)
			w = "branch prediction needs bpred_size_p";
		else if ((o & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE) && (o & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION) &&
			 !p->f0s_width_p)
			w = "the jump target cache and branch prediction together need f0s_width_p >= 1";
		else if ((o & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE) && !p->f0s_width_p && p->f0s_inferred != 1)
			w = "the jump target cache with f0s_width_p = 0 needs f0s_inferred = 1";
		else if ((o & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION) && !p->f0s_width_p && p->f0s_inferred != 0)
			w = "branch prediction with f0s_width_p = 0 needs f0s_inferred = 0";
		else if (p->iaddress_lsb_p >= p->iaddress_width_p)
			w = "iaddress_lsb_p must be below iaddress_width_p";
		else if ((o & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) && p->return_stack_size_p > 30)
			w = "return_stack_size_p above 30";
		else if (p->call_counter_size_p > 31 || p->cache_size_p > 30 || p->bpred_size_p > 30)
			w = "cache_size_p and bpred_size_p above 30";
		else
			rc = PMREGS_OK;
	}
	if (why)
		*why = rc == PMREGS_OK ? "" : w;
	return rc;
}

/* ---- internals --------------------------------------------------------------------- */

/* A blank packet of this shape to fill: the queue's next slot, or scratch space when the queue is full. */
static inline struct pmregs_etrace_te_inst *pmregs_etrace_enc_slot(struct pmregs_etrace_encoder *e, unsigned shape)
{
	struct pmregs_etrace_te_inst *t = &e->scratch;
	if (e->qtail - e->qhead < PMREGS_ETRACE_ENCODER_QUEUE)
		t = &e->q[e->qtail & (PMREGS_ETRACE_ENCODER_QUEUE - 1)];
	*t = e->blank; /* every field 0 */
	t->shape = (uint8_t)shape;
	return t;
}

/* Count a packet sent (sync: a 3.0 or a 3.1) for the caller and the resynchronisation FSM. */
static inline void pmregs_etrace_enc_counted(struct pmregs_etrace_encoder *e, int sync)
{
	e->stats.packets++;
	if (sync) {
		e->rs_count = 0;
		e->rs_state = 1;
		return;
	}
	if (e->rs_state == 2)
		e->rs_state = 3;
	if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_PACKETS && e->rs_max) {
		e->rs_count++;
		if (e->rs_state == 1 && e->rs_count >= e->rs_max)
			e->rs_state = 2;
	}
}

/* Queue the packet just built (sync: a 3.0 or a 3.1) and count it. */
static inline void pmregs_etrace_enc_commit(struct pmregs_etrace_encoder *e, int sync)
{
	if (e->qtail - e->qhead >= PMREGS_ETRACE_ENCODER_QUEUE) {
		/* full: the packet is lost; a trace_lost support packet comes when there is room */
		e->stats.dropped++;
		e->lost = 1;
		return;
	}
	e->qtail++;
	pmregs_etrace_enc_counted(e, sync);
}

/* Queue a support packet (format 3, subformat 3) with this qual_status and ienable. */
static inline void pmregs_etrace_enc_support(struct pmregs_etrace_encoder *e, unsigned qual, unsigned ienable)
{
	struct pmregs_etrace_te_inst *t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_SUPPORT);
	t->format = 3;
	t->subformat = 3;
	t->ienable = (uint8_t)ienable;
	t->encoder_mode = PMREGS_ETRACE_TE_INST_ENCODER_MODE_BRANCH_TRACE;
	t->qual_status = (uint8_t)qual;
	t->ioptions = e->ioptions;
	pmregs_etrace_enc_commit(e, 0);
}

/* Forget everything a synchronisation packet restarts. */
static inline void pmregs_etrace_enc_resync_state(struct pmregs_etrace_encoder *e)
{
	uint32_t i;
	e->branches = 0;
	e->bmap = 0;
	e->pbc = 0;
	e->counting = 0;
	e->depth = 0;
	e->ret_since_call = 0;
	e->branch_since_ret = 0;
	e->ir_seen = 0;
	e->ir_seen_high = 0;
	if (e->jtc)
		for (i = 0; i <= e->jtc_mask; i++)
			e->jtc[i] = 1; /* no instruction address is odd */
	if (e->bp)
		for (i = 0; i <= e->bp_mask; i++)
			e->bp[i] = 1;
}

/* Internal: x (width w, 0..64) after the *n (0..63) bits of *acc, which follow the words b[0..*i); a full word goes
 * to b[(*i)++]; *over gets bits when x is wider than w (the words then hold stray bits). */
static inline void pmregs_etrace_enc_put(uint64_t *b, unsigned *i, uint64_t *acc, unsigned *n, uint64_t *over, unsigned w,
					 uint64_t x)
{
	*over |= (x >> (w & 63u)) & ((uint64_t)0 - (uint64_t)(w < 64u));
	*acc |= x << *n;
	if (*n + w >= 64u) {
		b[(*i)++] = *acc;
		*acc = (x >> 1) >> (63u - *n);
		*n = *n + w - 64u;
	} else {
		*n += w;
	}
}

/* Internal: the SMI framing f has a message header without index or timestamp (what pmregs_etrace_enc_smi_short() writes). */
static inline int pmregs_etrace_enc_smi_plain(const struct pmregs_etrace_params *p, const struct pmregs_etrace_smi *f)
{
	return !(f->shape != PMREGS_ETRACE_SMI_SHAPE_MESSAGE || f->timestamp_present || p->smi_index_bits || f->index ||
		 f->index_pad || f->msg_type > 3u);
}

/*
 * Internal: the SMI message of the payload bits b[0..pos) (nw words) with
 * the general writer's sign-based compression: the bits past
 * the last one repeat it; the payload ends after the last bit that differs
 * from it, and one more. Returns the bytes written, PMREGS_ENOSPC, or 0 when
 * the payload is longer than a message header can say.
 */
PMREGS_HOT int pmregs_etrace_enc_smi_pack(unsigned msg_type, uint64_t *b, const unsigned nw, unsigned pos, unsigned char *out,
					     size_t cap)
{
	unsigned top = (pos - 1u) >> 6, i, m = 1, nbytes;
	uint64_t fill = (uint64_t)0 - ((b[top] >> ((pos - 1u) & 63u)) & 1u), keep = pmregs_lowmask(((pos - 1u) & 63u) + 1u);
	b[top] = (b[top] & keep) | (fill & ~keep);
	for (i = top + 1u; i < nw; i++)
		b[i] = fill;
	for (i = top + 1u; i-- > 0;)
		if (b[i] ^ fill) {
			m = 64u * i + pmregs_msb64(b[i] ^ fill) + 2u;
			break;
		}
	nbytes = (m + 7u) / 8u;
	if (nbytes > 31u)
		return 0;
	if (cap < nbytes + 1u)
		return PMREGS_ENOSPC;
	out[0] = (unsigned char)(nbytes | (msg_type << 5));
	pmregs_ip_store_room(b, nbytes, out + 1, cap - 1u); /* whole words, as the general writer's */
	return (int)nbytes + 1;
}

/*
 * Internal: a synchronisation packet (format 3.0 or 3.1) for
 * pmregs_etrace_enc_smi_short(), under parameters p (aw the bits of an
 * address); with own (a constant) 1, t was built by the encoder: every field
 * fits its width and is not checked.
 */
PMREGS_HOT int pmregs_etrace_enc_smi_sync(unsigned msg_type, const struct pmregs_etrace_params *p, unsigned aw,
					     const struct pmregs_etrace_te_inst *t, const int own, unsigned char *out, size_t cap)
{
	/* format, subformat, branch, privilege, time, context, [ecause, interrupt, thaddr,] address, [tval] */
	uint64_t b[4] = { 0, 0, 0, 0 }, acc, over = 0;
	unsigned trap = t->shape == PMREGS_ETRACE_TE_INST_SHAPE_TRAP, tw = pmregs_etrace_time_width(p), cw = pmregs_etrace_context_width(p);
	unsigned ew = trap ? p->ecause_width_p : 0u, pw = p->privilege_width_p, i = 0, n = 5;
	unsigned xaw = trap && p->implicit_exception && t->thaddr ? 0u : aw, vw = trap && !t->interrupt ? p->iaddress_width_p : 0u;
	if ((!own && (t->branch > 1u || t->interrupt > 1u || t->thaddr > 1u)) || 5u + pw + tw + cw + ew + 2u * trap + xaw + vw > 256u)
		return 0;
	acc = 3u | ((uint64_t)t->subformat << 2) | ((uint64_t)t->branch << 4);
	pmregs_etrace_enc_put(b, &i, &acc, &n, &over, pw, t->privilege);
	pmregs_etrace_enc_put(b, &i, &acc, &n, &over, tw, t->time);
	pmregs_etrace_enc_put(b, &i, &acc, &n, &over, cw, t->context);
	if (trap) {
		pmregs_etrace_enc_put(b, &i, &acc, &n, &over, ew, t->ecause);
		pmregs_etrace_enc_put(b, &i, &acc, &n, &over, 2, (uint64_t)t->interrupt | ((uint64_t)t->thaddr << 1));
	}
	pmregs_etrace_enc_put(b, &i, &acc, &n, &over, xaw, t->address);
	pmregs_etrace_enc_put(b, &i, &acc, &n, &over, vw, t->tval);
	if (n)
		b[i] = acc; /* (i < 4: at most 256 bits) */
	return !own && over ? 0 : pmregs_etrace_enc_smi_pack(msg_type, b, 4, 64u * i + n, out, cap);
}

/* The fields of a format 3.0 (subformat 0) or 3.1 (trap: the trap element tr) at instruction c into t. */
static inline void pmregs_etrace_enc_sync_fill(const struct pmregs_etrace_encoder *e, struct pmregs_etrace_te_inst *t,
					       const struct pmregs_etrace_encoder_el *c, const struct pmregs_etrace_encoder_el *tr,
					       unsigned thaddr)
{
	const struct pmregs_etrace_params *p = &e->p;
	t->format = 3;
	t->subformat = (uint8_t)(tr ? 1 : 0);
	t->branch = (uint8_t)(c->itype == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH ? 0 : 1);
	t->privilege = (uint8_t)(c->priv & pmregs_lowmask(p->privilege_width_p));
	t->time = p->notime_p ? 0 : c->time & pmregs_lowmask(p->time_width_p);
	t->context = p->nocontext_p ? 0 : c->context & pmregs_lowmask(p->context_width_p);
	t->address = (c->addr & e->amask) >> p->iaddress_lsb_p;
	if (tr) {
		t->ecause = tr->cause;
		t->interrupt = (uint8_t)((tr->flags & PMREGS_ETRACE_ENC_INTERRUPT) ? 1 : 0);
		t->thaddr = (uint8_t)thaddr;
		t->tval = t->interrupt ? 0 : tr->tval & e->amask;
		if (thaddr && p->implicit_exception)
			t->address = 0;
	}
}

/* A format 3.0 (subformat 0) or 3.1 (trap: the trap element tr) at instruction c. */
static inline void pmregs_etrace_enc_sync(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *c,
					  const struct pmregs_etrace_encoder_el *tr, unsigned thaddr)
{
	unsigned shape = tr ? PMREGS_ETRACE_TE_INST_SHAPE_TRAP : PMREGS_ETRACE_TE_INST_SHAPE_START;
	struct pmregs_etrace_enc_sink *k = e->sink;
	int rc = 0;
	if (k && e->qtail == e->qhead) {
		/* nothing waits: the SMI message goes out straight (the fields the writer reads, those of no 3.1 zero) */
		struct pmregs_etrace_te_inst t;
		t.shape = (uint8_t)shape;
		t.interrupt = t.thaddr = 0;
		t.ecause = t.tval = 0;
		pmregs_etrace_enc_sync_fill(e, &t, c, tr, thaddr);
		rc = pmregs_etrace_enc_smi_sync((unsigned)k->msg_type, &e->p, e->fast_aw, &t, 1, k->out + k->o, k->cap - k->o);
	}
	if (rc > 0) {
		k->o += (size_t)rc;
		pmregs_etrace_enc_counted(e, 1);
	} else {
		pmregs_etrace_enc_sync_fill(e, pmregs_etrace_enc_slot(e, shape), c, tr, thaddr);
		pmregs_etrace_enc_commit(e, 1);
	}
	e->rs_count = 0;
	e->inferred = 0;
	e->nhist = 0;
	e->hist_over = 0;
	if (!tr || thaddr) {
		/* what a decoder restarts: the differential base, branches, stack, cache, predictor */
		e->last_addr = c->addr;
		pmregs_etrace_enc_resync_state(e);
		e->tracing = 1;
	}
}

/* Is depth d among the implicit returns since the last packet? */
static inline int pmregs_etrace_enc_seen(const struct pmregs_etrace_encoder *e, uint32_t d)
{
	if (d == 0)
		return 0;
	if (d > 64)
		return e->ir_seen_high;
	return (int)((e->ir_seen >> (d - 1)) & 1u);
}

/* Has address a retired since the last branch or packet (as far as the ranges kept tell)? */
static inline int pmregs_etrace_enc_repeated(const struct pmregs_etrace_encoder *e, uint64_t a)
{
	unsigned i;
	if (e->hist_over)
		return 1;
	for (i = 0; i < e->nhist; i++)
		if (a >= e->hist[i][0] && a <= e->hist[i][1])
			return 1;
	return 0;
}

/*
 * Internal: pmregs_etrace_enc_smi_pack() for a payload of end bits (1..128)
 * in the words lo, hi (their bits at and past end 0): the sign fill, the
 * compressed length and the message header in one pass over two words.
 */
static inline int pmregs_etrace_enc_smi_pack2(unsigned msg_type, uint64_t lo, uint64_t hi, unsigned end, unsigned char *out,
					      size_t cap)
{
	uint64_t b[2], fill, d;
	unsigned m, nbytes;
	if (end <= 64u) {
		fill = (uint64_t)0 - ((lo >> (end - 1u)) & 1u);
		lo |= fill << (end - 1u); /* the bits past the last one repeat it */
		hi = fill;
	} else {
		fill = (uint64_t)0 - ((hi >> (end - 65u)) & 1u);
		hi |= fill << (end - 65u);
	}
	if ((d = hi ^ fill) != 0)
		m = 64u + pmregs_msb64(d) + 2u;
	else if ((d = lo ^ fill) != 0)
		m = pmregs_msb64(d) + 2u;
	else
		m = 1u;
	nbytes = (m + 7u) >> 3; /* at most 16 (bit 127, if any, is the fill): always fits a message header */
	if (cap < nbytes + 1u)
		return PMREGS_ENOSPC;
	out[0] = (unsigned char)(nbytes | (msg_type << 5));
	if (cap > 16u) {
		/* whole words, as the general writer's (pmregs_ip_store_room(); nbytes is at most 16) */
		pmregs_ip_store64(out + 1, lo);
		if (nbytes > 8u)
			pmregs_ip_store64(out + 9, hi);
	} else {
		b[0] = lo;
		b[1] = hi;
		pmregs_ip_store_room(b, nbytes, out + 1, cap - 1u);
	}
	return (int)nbytes + 1;
}

/*
 * Internal: the SMI message (message type msg_type) of a packet that reports an address with a branch map of
 * branches (1..31) bits bmap (format 1), or without one (branches 0: format 2): address (aw bits, 1..64), then
 * x, the bits notify, updiscon and irreport and irdepth (dw bits) from bit 3 on, each value within its width
 * and aw + dw <= 87, dw <= 60.
 */
PMREGS_HOT int pmregs_etrace_enc_smi_addr(unsigned msg_type, unsigned aw, unsigned dw, unsigned branches, uint32_t bmap,
					     uint64_t address, uint64_t x, unsigned char *out, size_t cap)
{
	uint64_t lo = 2, hi;
	unsigned pos = 2, q;
	if (branches) {
		lo = 1u | ((uint64_t)branches << 2) | ((uint64_t)bmap << 7);
		pos = 6u + (2u << pmregs_msb64(branches)); /* 7 + the map's length: 1, 3, 7, 15 or 31 bits */
	}
	/* pos is 2..38, so aw + dw <= 87 keeps the payload within 128 bits */
	lo |= address << pos;
	hi = address >> (64u - pos);
	q = pos + aw;
	if (q < 64u) {
		lo |= x << q;
		hi |= x >> (64u - q);
	} else {
		hi |= x << (q - 64u);
	}
	return pmregs_etrace_enc_smi_pack2(msg_type, lo, hi, q + 3u + dw, out, cap);
}

#define PMREGS_ETRACE_ENC_R_TARGET 1 /* the instruction follows an uninferable discontinuity */
#define PMREGS_ETRACE_ENC_R_F3NEXT 2 /* the next packet is a format 3 */
#define PMREGS_ETRACE_ENC_R_BLKTRAP 4 /* the next instruction traps after retiring (single retirement) */
#define PMREGS_ETRACE_ENC_R_PLAIN 8 /* (a constant) implicit return and the cache are off and the branches not only counted */

/*
 * A packet that reports instruction c with an address (format 0.0 with
 * branch_fmt 2/3, 0.1, 1 or 2). Returns 0, or 1 when irreport/irdepth could
 * not be sent unambiguously (nothing queued: the caller restarts the trace).
 */
PMREGS_HOT int pmregs_etrace_enc_addr(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *c, unsigned why,
					 int failed)
{
	const struct pmregs_etrace_params *p = &e->p;
	struct pmregs_etrace_te_inst_semantic s;
	struct pmregs_etrace_te_inst *t;
	unsigned notify = 0, updiscon = 0, irreport = 0, hit = 0;
	uint32_t d = 0, idx = 0;
	if (!(why & PMREGS_ETRACE_ENC_R_TARGET) && pmregs_etrace_enc_repeated(e, c->addr)) {
		/* a decoder looking for c by falling through would stop at its earlier execution */
		e->stats.repeated++;
		return 1;
	}
	if (c->flags & PMREGS_ETRACE_ENC_NOTIFY)
		notify = !(why & PMREGS_ETRACE_ENC_R_TARGET);
	if ((why & PMREGS_ETRACE_ENC_R_TARGET) && (why & (PMREGS_ETRACE_ENC_R_F3NEXT | PMREGS_ETRACE_ENC_R_BLKTRAP)))
		updiscon = 1;
	if (!(why & PMREGS_ETRACE_ENC_R_PLAIN) && (e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN)) {
		if ((why & PMREGS_ETRACE_ENC_R_TARGET) && e->prev_mispred) {
			irreport = 1;
			d = e->mispred_depth;
		} else if ((why & PMREGS_ETRACE_ENC_R_F3NEXT) && !(why & PMREGS_ETRACE_ENC_R_TARGET)) {
			/* the decoder reaches a jump target by the jump itself: only other addresses need the depth */
			if (e->prev_ret) {
				irreport = e->depth != 0;
			} else {
				irreport = e->ret_since_call && !e->branch_since_ret;
			}
			d = e->depth;
		}
		if (irreport && (pmregs_etrace_enc_seen(e, d) ||
				 ((why & PMREGS_ETRACE_ENC_R_TARGET) && e->prev_mispred && pmregs_etrace_enc_repeated(e, c->addr)))) {
			e->stats.ambiguous++;
			if (!((why & PMREGS_ETRACE_ENC_R_TARGET) && e->prev_mispred)) {
				/* a depth report a decoder would misread: the decoder finds the instruction by
				 * its branches instead (the depth only tells recursion levels apart) */
				irreport = 0;
				d = 0;
			} else {
				return 1;
			}
		}
	}
	if (!(why & PMREGS_ETRACE_ENC_R_PLAIN) && e->jtc) {
		/* every reported address goes through the cache (a decoder cannot always tell a jump
		 * target from another report when it reads the packet); only jump targets use format 0.1 */
		idx = (uint32_t)(c->addr >> e->shift) & e->jtc_mask;
		hit = e->jtc[idx] == c->addr;
		e->jtc[idx] = c->addr;
		hit = hit && (why & PMREGS_ETRACE_ENC_R_TARGET) && !notify && !updiscon && !e->counting;
	}
	if (hit) {
		t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_JUMP_TARGET_CACHE);
		t->format = 0;
		t->subformat = PMREGS_ETRACE_TE_INST_SUBFORMAT_JUMP_TARGET_CACHE;
		t->index = idx;
		t->branches = e->branches;
		t->branch_map = e->bmap;
		s.notify = (uint8_t)notify;
		s.updiscon = (uint8_t)updiscon;
		s.irreport = (uint8_t)irreport;
		s.irdepth_reported = (uint8_t)irreport;
		s.irdepth = d;
		(void)pmregs_etrace_te_inst_semantic_set(p, t, &s);
		pmregs_etrace_enc_commit(e, 0);
	} else {
		uint64_t a = ((e->options & PMREGS_ETRACE_ENCODER_FULL_ADDRESS) ? c->addr : c->addr - e->last_addr) & e->amask;
		/* the raw bits: each differs from the bit before it when asserted (the address's MSB first) */
		unsigned rn = notify ^ ((unsigned)(a >> (p->iaddress_width_p - 1u)) & 1u), ru = updiscon ^ rn, ri = irreport ^ ru;
		uint64_t x = (uint64_t)rn | ((uint64_t)ru << 1) | ((uint64_t)ri << 2) | ((uint64_t)(irreport ? d : (ri ? e->fast_irmax : 0)) << 3);
		struct pmregs_etrace_enc_sink *k = e->sink;
		int rc;
		a >>= p->iaddress_lsb_p;
		if (((why & PMREGS_ETRACE_ENC_R_PLAIN) || !e->counting) && k && e->qtail == e->qhead && (x >> 3) <= e->fast_irmax &&
		    (rc = pmregs_etrace_enc_smi_addr((unsigned)k->msg_type, e->fast_aw, e->fast_dw, e->branches, e->bmap, a, x,
						     k->out + k->o, k->cap - k->o)) > 0) {
			/* nothing waits: the SMI message goes out straight */
			k->o += (size_t)rc;
			pmregs_etrace_enc_counted(e, 0);
		} else {
			if (!(why & PMREGS_ETRACE_ENC_R_PLAIN) && e->counting) {
				t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT_ADDR);
				t->format = 0;
				t->subformat = PMREGS_ETRACE_TE_INST_SUBFORMAT_BRANCH_COUNT;
				t->branch_count = (uint32_t)(e->pbc - 31u);
				t->branch_fmt =
					(uint8_t)(failed ? PMREGS_ETRACE_TE_INST_BRANCH_FMT_ADDR_FAIL : PMREGS_ETRACE_TE_INST_BRANCH_FMT_ADDR);
			} else if (e->branches) {
				t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA);
				t->format = 1;
				t->branches = e->branches;
				t->branch_map = e->bmap;
			} else {
				t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY);
				t->format = 2;
			}
			t->address = a;
			t->notify = (uint8_t)rn;
			t->updiscon = (uint8_t)ru;
			t->irreport = (uint8_t)ri;
			t->irdepth = x >> 3;
			pmregs_etrace_enc_commit(e, 0);
		}
	}
	/* a decoder may stop at an earlier, fall-through execution of a jump target only if one happened since the last branch */
	e->inferred = (uint8_t)((why & PMREGS_ETRACE_ENC_R_TARGET) && !updiscon && !notify && pmregs_etrace_enc_repeated(e, c->addr));
	e->nhist = 0;
	e->hist_over = 0;
	e->last_addr = c->addr;
	e->branches = 0;
	e->bmap = 0;
	e->pbc = 0;
	e->counting = 0;
	if (!e->inferred) {
		/* a decoder that stopped at an earlier execution of c walks on to this one under the
		 * next packet: keep the returns since the packet before for that one's irdepth */
		e->ir_seen = 0;
		e->ir_seen_high = 0;
	}
	return 0;
}

/* Branch information without an address: a full branch map (format 1), or a failed prediction after 31 or more correct ones (format 0.0). */
static inline void pmregs_etrace_enc_branches(struct pmregs_etrace_encoder *e)
{
	struct pmregs_etrace_te_inst *t;
	if (e->counting) {
		t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_BRANCH_COUNT);
		t->format = 0;
		t->subformat = PMREGS_ETRACE_TE_INST_SUBFORMAT_BRANCH_COUNT;
		t->branch_count = (uint32_t)(e->pbc - 31u);
		t->branch_fmt = PMREGS_ETRACE_TE_INST_BRANCH_FMT_NO_ADDR;
	} else {
		t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL);
		t->format = 1;
		t->branches = 0;
		t->branch_map = e->bmap;
	}
	pmregs_etrace_enc_commit(e, 0);
	e->branches = 0;
	e->bmap = 0;
	e->pbc = 0;
	e->counting = 0;
	e->ir_seen = 0;
	e->ir_seen_high = 0;
	e->inferred = 0;
	e->nhist = 0;
	e->hist_over = 0;
}

/* Queue a context packet (format 3, subformat 2) for the privilege, time and context of c. */
static inline void pmregs_etrace_enc_context(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *c)
{
	const struct pmregs_etrace_params *p = &e->p;
	struct pmregs_etrace_te_inst *t = pmregs_etrace_enc_slot(e, PMREGS_ETRACE_TE_INST_SHAPE_CONTEXT);
	t->format = 3;
	t->subformat = 2;
	t->privilege = (uint8_t)(c->priv & pmregs_lowmask(p->privilege_width_p));
	t->time = p->notime_p ? 0 : c->time & pmregs_lowmask(p->time_width_p);
	t->context = p->nocontext_p ? 0 : c->context & pmregs_lowmask(p->context_width_p);
	pmregs_etrace_enc_commit(e, 0);
}

/* Privilege change, or a context change to report precisely or as a discontinuity, from a to b. */
static inline int pmregs_etrace_enc_ppccd(const struct pmregs_etrace_encoder_el *a, const struct pmregs_etrace_encoder_el *b,
					  unsigned a_updiscon)
{
	if (b->priv != a->priv)
		return 1;
	return b->context != a->context &&
	       (b->ctype == PMREGS_ETRACE_CTYPE_PRECISE || b->ctype == PMREGS_ETRACE_CTYPE_ASYNC || a_updiscon);
}

/* The branch-predictor table entry of the branch at addr. */
static inline unsigned pmregs_etrace_enc_bp_index(const struct pmregs_etrace_encoder *e, uint64_t addr)
{
	return (unsigned)(addr >> e->shift) & e->bp_mask;
}

/*
 * The control-flow class of instruction c (whose successor is n): is it an
 * uninferable discontinuity (*upd), a return that failed the prediction
 * (*mis), a return predicted correctly (*ret)? Pure: the stack is not touched.
 */
static inline void pmregs_etrace_enc_classify(const struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *c,
					      const struct pmregs_etrace_encoder_el *n, unsigned *upd, unsigned *mis, unsigned *ret)
{
	unsigned it = c->itype, sij, is_ret = 0;
	*upd = 0;
	*mis = 0;
	*ret = 0;
	if (it < PMREGS_ETRACE_ITYPE_TRAP_RETURN || it == PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH ||
	    it == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH || it == PMREGS_ETRACE_ITYPE_INF_CALL || it == PMREGS_ETRACE_ITYPE_INF_JUMP ||
	    it == PMREGS_ETRACE_ITYPE_OTHER_INF)
		return;
	sij = (e->options & PMREGS_ETRACE_ENCODER_SIJUMP) && (c->flags & PMREGS_ETRACE_ENC_SIJUMP) && !e->fresh &&
	      it != PMREGS_ETRACE_ITYPE_TRAP_RETURN && it != PMREGS_ETRACE_ITYPE_RETURN;
	if (sij)
		return;
	if (it == PMREGS_ETRACE_ITYPE_RETURN || it == PMREGS_ETRACE_ITYPE_COROUTINE_SWAP)
		is_ret = (e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) != 0;
	if (!is_ret) {
		*upd = 1;
		return;
	}
	if (e->depth == 0) {
		*upd = 1;
	} else if (e->stack && n->kind != PMREGS_ETRACE_ENC_OFF && e->stack[e->stack_top] != n->addr) {
		*upd = 1;
		*mis = 1;
	} else {
		*ret = 1;
	}
}

/* A call the implicit-return option counts: its return address ra onto the stack (if there is one), one call deeper. */
static inline void pmregs_etrace_enc_call(struct pmregs_etrace_encoder *e, uint64_t ra)
{
	if (e->stack) {
		e->stack_top = (e->stack_top + 1u) & (e->depth_max - 1u);
		e->stack[e->stack_top] = ra;
	}
	if (e->depth < e->depth_max)
		e->depth++;
	e->ret_since_call = 0;
}

/* After the packet choice for c: the predictor learns c's outcome, calls push, returns pop. */
static inline void pmregs_etrace_enc_effects(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *c, unsigned ret)
{
	unsigned it = c->itype;
	if (it == PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH || it == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH) {
		if (e->bp) {
			uint8_t *b = &e->bp[pmregs_etrace_enc_bp_index(e, c->addr)];
			unsigned taken = it == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH, pred = *b >> 1;
			/* 00 -> 01 on failure; 01 -> 00 on success, 11 on failure; 11 -> 10 on failure; 10 -> 11 on success, 00 on failure */
			if (pred == taken)
				*b = (uint8_t)(pred ? 3 : 0);
			else
				*b = (uint8_t)((*b & 1u) ? (pred ? 0 : 3) : (pred ? 2 : 1));
		}
		e->branch_since_ret = 1;
		return;
	}
	if (!(e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN))
		return;
	if (ret) {
		if (e->depth > 64)
			e->ir_seen_high = 1;
		else
			e->ir_seen |= (uint64_t)1 << (e->depth - 1);
		e->depth--;
		if (e->stack)
			e->stack_top = (e->stack_top - 1u) & (e->depth_max - 1u);
		e->ret_since_call = 1;
		e->branch_since_ret = 0;
	}
	if (it == PMREGS_ETRACE_ITYPE_UNINF_CALL || it == PMREGS_ETRACE_ITYPE_INF_CALL || it == PMREGS_ETRACE_ITYPE_COROUTINE_SWAP)
		pmregs_etrace_enc_call(e, c->addr + c->size);
}

/* The flowchart for the trap element c (nothing retired), between p and n. */
static inline void pmregs_etrace_enc_trap(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *p,
					  const struct pmregs_etrace_encoder_el *c, const struct pmregs_etrace_encoder_el *n)
{
	unsigned reported = 0;
	e->trep = 0;
	e->fresh = 0;
	if (p->kind == PMREGS_ETRACE_ENC_TRAP) {
		/* a second trap before the handler retired anything: report the first with thaddr = 0 */
		pmregs_etrace_enc_sync(e, c, p, 0);
	} else if (!e->tracing || (p->kind == PMREGS_ETRACE_ENC_INSN && e->prev_updiscon)) {
		/* at the target of an uninferable jump, or where the trace starts: the EPC is not inferable */
		pmregs_etrace_enc_sync(e, c, c, 0);
		reported = 1;
		e->tracing = 1; /* the handler's first instruction then gets a 3.0 */
	}
	if (n->kind == PMREGS_ETRACE_ENC_OFF && !reported) {
		/* tracing ends before the handler: report this trap now */
		pmregs_etrace_enc_sync(e, c, c, 0);
		reported = 1;
	}
	e->trep = (uint8_t)reported;
	e->prev_updiscon = 0;
	e->prev_mispred = 0;
	e->prev_ret = 0;
}

/* The flowchart for instruction c, between p and n. */
static inline void pmregs_etrace_enc_insn(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *p,
					  const struct pmregs_etrace_encoder_el *c, const struct pmregs_etrace_encoder_el *n)
{
	unsigned it = c->itype, is_br = it == PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH || it == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH;
	unsigned upd, mis, ret, rpt = 0, failed = 0, full = 0, why = 0, sync = 0, addr = 0, pend, trep = e->trep;
	if (it == 0 && p->kind == PMREGS_ETRACE_ENC_INSN && n->kind == PMREGS_ETRACE_ENC_INSN && e->tracing && e->rs_state == 1 &&
	    !e->prev_updiscon && !((c->flags | n->flags) & PMREGS_ETRACE_ENC_NOTIFY) && c->priv == p->priv && n->priv == c->priv &&
	    c->context == p->context && n->context == c->context) {
		/* the common case: nothing to report, nothing to learn (the flowchart's "no" on every diamond; n may end a
		 * block that traps: that only matters to the report of a jump target, and c is none) */
		if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_HALFWORDS)
			e->rs_count += c->hw;
		if (c->flags & PMREGS_ETRACE_ENC_FIRST) {
			e->hist_open = c->addr;
		} else if (e->nhist < 32) {
			e->hist[e->nhist][0] = (p->flags & PMREGS_ETRACE_ENC_FIRST) ? e->hist_open : c->addr;
			e->hist[e->nhist][1] = c->addr;
			e->nhist++;
		} else {
			e->hist_over = 1;
		}
		e->trep = 0;
		e->fresh = 0;
		e->prev_mispred = 0;
		e->prev_ret = 0;
		return;
	}
	e->trep = 0;
	/* a packet that makes a decoder forget the instruction before c (a trap's 3.1, a trace's first 3.0):
	 * c cannot be the second half of a sequentially inferable jump */
	e->fresh = (uint8_t)(p->kind == PMREGS_ETRACE_ENC_TRAP || !e->tracing);
	pmregs_etrace_enc_classify(e, c, n, &upd, &mis, &ret);

	/* Branch?  Update the branch map and the count of correct predictions */
	if (is_br) {
		unsigned taken = it == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH, correct = 0;
		if (e->bp)
			correct = (unsigned)(e->bp[pmregs_etrace_enc_bp_index(e, c->addr)] >> 1) == taken;
		if (e->counting) {
			if (correct) {
				e->pbc++;
				full = e->pbc - 31u == 0xffffffffu;
			} else {
				failed = 1;
				rpt = 1;
			}
		} else {
			e->bmap |= (uint32_t)!taken << e->branches;
			e->branches++;
			if (correct && e->pbc + 1u == e->branches)
				e->pbc++;
			if (e->branches == 31) {
				if (e->pbc == 31) {
					e->counting = 1; /* 31 correct predictions: keep counting, drop the map */
					e->branches = 0;
					e->bmap = 0;
				} else {
					rpt = 1;
				}
			}
		}
	}
	pend = e->branches != 0 || e->counting;

	if (p->kind == PMREGS_ETRACE_ENC_TRAP) {
		/* Exception previous: the trap's 3.1 with the handler's first instruction (a 3.0 if reported) */
		pmregs_etrace_enc_sync(e, c, trep ? PMREGS_NULL : p, 1);
		sync = 1;
	} else if (!e->tracing || (e->rs_state == 3 && !e->prev_mispred) || pmregs_etrace_enc_ppccd(p, c, e->prev_updiscon)) {
		/* first qualified, privilege or precise context change, resync */
		if (e->tracing && e->prev_mispred) {
			/* a decoder following to the 3.0's address would take the return before c as implicit */
			e->stats.ambiguous++;
			pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST, 1);
		}
		pmregs_etrace_enc_sync(e, c, PMREGS_NULL, 0);
		sync = 1;
	} else {
		/* (a resync due after a mispredicted return waits: c is reported as its target first) */
		if (n->kind != PMREGS_ETRACE_ENC_INSN || pmregs_etrace_enc_ppccd(c, n, upd) || e->rs_state >= 2)
			why |= PMREGS_ETRACE_ENC_R_F3NEXT;
		if ((n->flags & PMREGS_ETRACE_ENC_BLKTRAP) && e->iretire_unit == PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS)
			why |= PMREGS_ETRACE_ENC_R_BLKTRAP; /* the reference encoder's reading, single retirement only */
		if (e->prev_updiscon) {
			/* Updiscon previous: the target of the jump */
			why |= PMREGS_ETRACE_ENC_R_TARGET;
			addr = 1;
		} else if ((e->rs_state == 2 && pend) || (c->flags & PMREGS_ETRACE_ENC_NOTIFY)) {
			addr = 1; /* resync_br, er_n */
		} else if (n->kind != PMREGS_ETRACE_ENC_INSN ||
			   (pmregs_etrace_enc_ppccd(c, n, upd) &&
			    (pend || e->inferred || n->addr == c->addr || pmregs_etrace_enc_repeated(e, n->addr) ||
			     (p->kind == PMREGS_ETRACE_ENC_INSN && (p->flags & PMREGS_ETRACE_ENC_FIRST) && !(c->flags & PMREGS_ETRACE_ENC_FIRST) &&
			      n->addr >= e->hist_open && n->addr <= c->addr))) ||
			   (n->context != c->context && n->ctype == PMREGS_ETRACE_CTYPE_ASYNC) || full) {
			addr = 1; /* next is exc_only, ppccd_br or unqualified (or the branch count is full) */
		}
		if (addr) {
			rpt = 0;
			if (pmregs_etrace_enc_addr(e, c, why, (int)failed)) {
				/* irdepth cannot name the instruction: say trace lost, start again at c */
				pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST, 1);
				pmregs_etrace_enc_sync(e, c, PMREGS_NULL, 0);
				sync = 1;
				e->fresh = 1;
			}
		}
		if (rpt && e->inferred) {
			/* a full branch map without an address: a decoder that stopped at an earlier execution
			 * of the last jump target cannot walk on to it (stop_at_last_branch forbids the jump) */
			e->stats.repeated++;
			pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST, 1);
			pmregs_etrace_enc_sync(e, c, PMREGS_NULL, 0);
			sync = 1;
			e->fresh = 1;
			rpt = 0;
		}
		if (rpt)
			pmregs_etrace_enc_branches(e); /* rpt_br */
		if (!sync && c->context != p->context && c->ctype == PMREGS_ETRACE_CTYPE_IMPRECISE)
			pmregs_etrace_enc_context(e, c); /* cci */
	}
	if (sync)
		pmregs_etrace_enc_classify(e, c, n, &upd, &mis, &ret); /* the sync emptied the stack: c's return is not implicit */
	/* a resync counter of half-words holds those since the sync (its instruction included); those of
	 * cycles and half-words are compared with max at the last instruction of blocks that end in a
	 * jump, branch or trap (the instructions that single and multiple retirement both see) */
	if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_HALFWORDS)
		e->rs_count = sync ? ((c->flags & PMREGS_ETRACE_ENC_FIRST) ? 0u : c->size / 2u) : e->rs_count + c->hw;
	if (e->rs_max && e->rs_state == 1 && (c->flags & PMREGS_ETRACE_ENC_ELIGIBLE) &&
	    e->rs_unit != PMREGS_ETRACE_ENCODER_RESYNC_PACKETS && e->rs_count >= e->rs_max)
		e->rs_state = 2;
	if (mis)
		e->mispred_depth = e->depth;
	/* the addresses retired since the last branch or packet: a branch starts afresh */
	if (is_br) {
		e->nhist = 0;
		e->hist_over = 0;
	} else if (c->flags & PMREGS_ETRACE_ENC_FIRST) {
		e->hist_open = c->addr;
	} else if (!addr && !sync) {
		uint64_t lo = (p->kind == PMREGS_ETRACE_ENC_INSN && (p->flags & PMREGS_ETRACE_ENC_FIRST)) ? e->hist_open : c->addr;
		if (e->nhist < 32) {
			e->hist[e->nhist][0] = lo;
			e->hist[e->nhist][1] = c->addr;
			e->nhist++;
		} else {
			e->hist_over = 1;
		}
	}
	pmregs_etrace_enc_effects(e, c, ret);
	e->prev_updiscon = (uint8_t)upd;
	e->prev_mispred = (uint8_t)mis;
	e->prev_ret = (uint8_t)ret;
}

/* End of a trace at element c (followed by the not-traced element n): the support packet. */
static inline void pmregs_etrace_enc_end(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *n)
{
	pmregs_etrace_enc_support(e, n->qual, n->ienable);
	e->tracing = 0;
	e->prev_updiscon = 0;
	e->prev_mispred = 0;
	e->prev_ret = 0;
	e->trep = 0;
}

/* Process the current element with n as its successor, then make n current. */
static inline void pmregs_etrace_enc_advance(struct pmregs_etrace_encoder *e, unsigned ni)
{
	struct pmregs_etrace_encoder_el *c = &e->el[e->cur], *p = &e->el[(e->cur + 3u) & 3u], *n = &e->el[ni];
	if (!e->have_cur) {
		e->have_cur = 1;
		e->cur = ni;
		return;
	}
	if (c->kind == PMREGS_ETRACE_ENC_INSN) {
		pmregs_etrace_enc_insn(e, p, c, n);
		if (n->kind == PMREGS_ETRACE_ENC_OFF && e->tracing)
			pmregs_etrace_enc_end(e, n);
	} else if (c->kind == PMREGS_ETRACE_ENC_TRAP) {
		pmregs_etrace_enc_trap(e, p, c, n);
		if (n->kind == PMREGS_ETRACE_ENC_OFF && e->tracing)
			pmregs_etrace_enc_end(e, n);
	} else if (n->kind == PMREGS_ETRACE_ENC_OFF && (n->flags & PMREGS_ETRACE_ENC_FINAL)) {
		pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE, n->ienable);
	}
	e->cur = ni;
}

/* A slot for the next element (the one after the current). */
static inline struct pmregs_etrace_encoder_el *pmregs_etrace_enc_next(struct pmregs_etrace_encoder *e, unsigned *ni)
{
	*ni = e->have_cur ? (e->cur + 1u) & 3u : e->cur;
	return &e->el[*ni];
}

/* Restart after lost packets: a trace_lost support packet, then the next instruction starts a trace. */
static inline void pmregs_etrace_enc_recover(struct pmregs_etrace_encoder *e)
{
	if (e->qtail - e->qhead > PMREGS_ETRACE_ENCODER_QUEUE - PMREGS_ETRACE_ENCODER_STEP_MAX)
		return; /* still no room: the next call tries again */
	e->lost = 0;
	pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_TRACE_LOST, 1);
	/* whatever was pending is dropped; the element before the next one is "not traced" */
	e->tracing = 0;
	e->have_cur = 0;
	e->el[(e->cur + 3u) & 3u].kind = PMREGS_ETRACE_ENC_OFF;
	e->el[(e->cur + 3u) & 3u].flags = 0;
	e->prev_updiscon = 0;
	e->prev_mispred = 0;
	e->prev_ret = 0;
	e->trep = 0;
}

/* Internal: the eight bytes of a block from iretire on (iretire, itype, ilastsize, priv, ctype) as one word in the
 * host's byte order. */
static inline uint64_t pmregs_etrace_enc_word(const struct pmregs_etrace_ingress *b)
{
	const unsigned char *s = (const unsigned char *)b + offsetof(struct pmregs_etrace_ingress, iretire);
	uint64_t w;
#if defined(__GNUC__) || defined(__clang__)
	__builtin_memcpy(&w, s, 8);
#else
	unsigned char *d = (unsigned char *)&w;
	unsigned i;
	for (i = 0; i < 8; i++)
		d[i] = s[i];
#endif
	return w;
}

/* Internal: the short path's tables for the configuration of e. */
static inline void pmregs_etrace_enc_fast_setup(struct pmregs_etrace_encoder *e)
{
	struct pmregs_etrace_ingress t;
	unsigned i;
	/* blocks: every itype but the traps' and the reserved ones */
	e->fast_in = e->itype_width == 4 ? 0xff39u : 0x79u;
	/* current elements: itype 0 and the inferable jumps (1), branches (2) */
	e->fast_cur = 1u | (3u << 6) | (2u << 8) | (2u << 10);
	if (e->itype_width == 4) {
		e->fast_cur |= (3u << 16) | (1u << 18) | (3u << 20) | (1u << 22) | (3u << 28) | (1u << 30);
		if (!(e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN))
			e->fast_cur |= (3u << 24) | (3u << 26); /* co-routine swaps and returns are plain uninferable jumps */
	} else {
		e->fast_cur |= 3u << 12;
	}
	e->fast_aw = (uint8_t)(e->p.iaddress_width_p - e->p.iaddress_lsb_p);
	e->fast_dw = (uint8_t)pmregs_etrace_irdepth_width(&e->p);
	e->fast_irmax = pmregs_lowmask(e->fast_dw);
	e->fast_tab = 0;
	for (i = 0; i < 16; i++)
		e->fast_tab |= (uint64_t)((((e->fast_in >> i) & 1u) << 3) | ((e->fast_cur >> (2u * i)) & 3u) |
					  ((i == PMREGS_ETRACE_ITYPE_INF_CALL || i == PMREGS_ETRACE_ITYPE_UNINF_CALL) &&
							   (e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN)
						   ? 4u
						   : 0u))
				<< (4u * i);
	e->fast_one = (uint8_t)(e->iretire_unit == PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS);
	/* the keys: iretire, ilastsize, privilege and itype's bits 4-7 (0) with ctype and itype's bits 0-3 masked
	 * out (with single retirement ilastsize 0 and 1 are one key: bit 0 masked out); built in a block of their
	 * own, so the byte order does not matter */
	t.iaddr = t.cause = t.tval = t.context = t.time = 0;
	t.ctype = t.sijump = t.flags = 0;
	t.itype = 0xf0u;
	t.iretire = 0xffffffffu;
	t.ilastsize = (uint8_t)(e->fast_one ? 0xfeu : 0xffu);
	t.priv = 0xffu;
	e->fast_kmask = pmregs_etrace_enc_word(&t);
	t.iretire = 0;
	t.itype = 0;
	t.ilastsize = 0;
	t.priv = 1;
	e->fast_kpriv = pmregs_etrace_enc_word(&t);
	t.priv = 0;
	t.iretire = 1u;
	e->fast_key0 = pmregs_etrace_enc_word(&t) & e->fast_kmask;
	t.iretire = e->fast_one ? 1u : 2u;
	t.ilastsize = 1;
	e->fast_key1 = pmregs_etrace_enc_word(&t) & e->fast_kmask;
	e->fast_rs = (uint8_t)(e->rs_unit != PMREGS_ETRACE_ENCODER_RESYNC_PACKETS);
	e->fast_tgt = (uint8_t)(!(e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) && !e->jtc && !e->bp);
}

/* ---- API ------------------------------------------------------------------------------ */

/*
 * Set up e for parameters p and configuration c, with work (bytes long,
 * aligned for uint64_t; at least pmregs_etrace_encoder_work_size()) for the
 * return stack, jump target cache and branch predictor. Queues the first
 * support packet (ienable 1, qual_status no_change). Returns PMREGS_OK,
 * PMREGS_EINVAL (see pmregs_etrace_encoder_check()), PMREGS_ERANGE, or
 * PMREGS_ENOSPC when work is too small.
 */
static inline int pmregs_etrace_encoder_init(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_params *p,
					     const struct pmregs_etrace_encoder_config *c, void *work, size_t bytes)
{
	size_t need = 0, off = 0;
	unsigned char *w = (unsigned char *)work;
	unsigned i;
	int rc = pmregs_etrace_encoder_check(p, c, PMREGS_NULL);
	if (rc != PMREGS_OK)
		return rc;
	if ((rc = pmregs_etrace_encoder_work_size(p, &need)) != PMREGS_OK)
		return rc;
	if (bytes < need || (need && !work))
		return PMREGS_ENOSPC;
	e->p = *p;
	(void)pmregs_etrace_te_inst_init(&e->blank, PMREGS_ETRACE_TE_INST_SHAPE_START);
	e->blank.format = 0;
	e->stats.blocks = e->stats.packets = e->stats.dropped = e->stats.ambiguous = e->stats.repeated = e->stats.bad_blocks = 0;
	e->amask = pmregs_lowmask(p->iaddress_width_p);
	e->options = c->options;
	e->ioptions = pmregs_etrace_encoder_ioptions_of(p, c->options, c->ioptions_layout);
	e->rs_max = c->resync_max;
	e->rs_unit = c->resync_unit;
	e->itype_width = c->itype_width;
	e->iretire_unit = c->iretire_unit;
	e->layout = c->ioptions_layout;
	e->shift = (uint8_t)(p->iaddress_lsb_p >= 2 ? 2 : 1);
	e->stack = PMREGS_NULL;
	e->jtc = PMREGS_NULL;
	e->bp = PMREGS_NULL;
	e->sink = PMREGS_NULL;
	e->depth_max = 0;
	if (c->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) {
		if (p->return_stack_size_p) {
			e->stack = (uint64_t *)(void *)(w + off);
			off += (size_t)8 << p->return_stack_size_p;
			e->depth_max = (uint32_t)1 << p->return_stack_size_p;
		} else {
			e->depth_max = (uint32_t)(((uint64_t)1 << p->call_counter_size_p) - 1u);
		}
	} else if (p->return_stack_size_p) {
		off += (size_t)8 << p->return_stack_size_p;
	}
	if (p->cache_size_p) {
		if (c->options & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE)
			e->jtc = (uint64_t *)(void *)(w + off);
		off += (size_t)8 << p->cache_size_p;
	}
	e->jtc_mask = p->cache_size_p ? (uint32_t)((1u << p->cache_size_p) - 1u) : 0;
	if (p->bpred_size_p && (c->options & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION))
		e->bp = w + off;
	e->bp_mask = p->bpred_size_p ? (uint32_t)((1u << p->bpred_size_p) - 1u) : 0;
	e->stack_top = 0;
	e->qhead = e->qtail = 0;
	for (i = 0; i < 4; i++) {
		e->el[i].kind = PMREGS_ETRACE_ENC_OFF;
		e->el[i].flags = 0;
		e->el[i].addr = 0;
		e->el[i].context = 0;
		e->el[i].priv = 0;
	}
	e->cur = 1; /* el[0] is the previous element: not traced */
	e->have_cur = 0;
	e->tracing = 0;
	e->lost = 0;
	e->trep = 0;
	e->fresh = 0;
	e->inferred = 0;
	e->prev_updiscon = e->prev_mispred = e->prev_ret = 0;
	e->mispred_depth = 0;
	e->last_addr = 0;
	e->rs_count = 0;
	e->rs_state = 1;
	e->fast = 0;
	pmregs_etrace_enc_fast_setup(e);
	pmregs_etrace_enc_resync_state(e);
	pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE, 1);
	return PMREGS_OK;
}

/* The ioptions value the support packets carry. */
static inline uint32_t pmregs_etrace_encoder_ioptions(const struct pmregs_etrace_encoder *e)
{
	return e->ioptions;
}

/* Packets waiting in e. */
static inline unsigned pmregs_etrace_encoder_pending(const struct pmregs_etrace_encoder *e)
{
	return e->qtail - e->qhead;
}

/* Move up to n waiting packets into out[]; returns how many. */
static inline size_t pmregs_etrace_encoder_take(struct pmregs_etrace_encoder *e, struct pmregs_etrace_te_inst *out, size_t n)
{
	size_t k = 0;
	while (k < n && e->qhead != e->qtail) {
		out[k++] = e->q[e->qhead & (PMREGS_ETRACE_ENCODER_QUEUE - 1)];
		e->qhead++;
	}
	return k;
}

/* Add a not-traced element (end of qualification): its support packet says qual and ienable. */
static inline void pmregs_etrace_enc_off(struct pmregs_etrace_encoder *e, unsigned qual, unsigned ienable, unsigned final)
{
	unsigned ni;
	struct pmregs_etrace_encoder_el *n;
	if (e->have_cur && e->el[e->cur].kind == PMREGS_ETRACE_ENC_OFF && !final)
		return; /* already not tracing */
	n = pmregs_etrace_enc_next(e, &ni);
	n->kind = PMREGS_ETRACE_ENC_OFF;
	n->flags = (uint8_t)(final ? PMREGS_ETRACE_ENC_FINAL : 0);
	n->qual = (uint8_t)qual;
	n->ienable = (uint8_t)ienable;
	n->addr = 0;
	n->itype = 0;
	n->priv = 0xff;
	n->context = 0;
	n->ctype = 0;
	n->hw = 0;
	pmregs_etrace_enc_advance(e, ni);
}

/* Internal: block b as a pipeline element (one instruction, nothing else: see pmregs_etrace_encoder_step(); the
 * elements of a larger block's first instruction and of a trap's instruction start from it). */
static inline void pmregs_etrace_enc_el_of(struct pmregs_etrace_encoder_el *n, const struct pmregs_etrace_ingress *b)
{
	unsigned lhw = 1u << b->ilastsize;
	n->kind = PMREGS_ETRACE_ENC_INSN;
	n->addr = b->iaddr;
	n->context = b->context;
	n->time = b->time;
	n->priv = b->priv;
	n->ctype = b->ctype;
	n->itype = b->itype;
	n->size = (uint8_t)(2u * lhw);
	n->hw = lhw;
	n->flags = (uint8_t)((b->sijump ? PMREGS_ETRACE_ENC_SIJUMP : 0) | (b->itype ? PMREGS_ETRACE_ENC_ELIGIBLE : 0));
}

/* The trap element of trap block in (after its hw half-words retired), then the flowchart on the element before it. */
static inline void pmregs_etrace_enc_trap_el(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in, uint32_t hw)
{
	unsigned ni;
	struct pmregs_etrace_encoder_el *n = pmregs_etrace_enc_next(e, &ni);
	n->kind = PMREGS_ETRACE_ENC_TRAP;
	n->addr = hw ? in->iaddr + 2u * (uint64_t)hw : in->iaddr;
	n->context = in->context;
	n->time = in->time;
	n->priv = in->priv;
	n->ctype = 0;
	n->itype = in->itype;
	n->cause = in->cause;
	n->tval = in->tval;
	n->size = 0;
	n->hw = 0;
	n->flags = (uint8_t)(PMREGS_ETRACE_ENC_BLKTRAP | (in->itype == PMREGS_ETRACE_ITYPE_INTERRUPT ? PMREGS_ETRACE_ENC_INTERRUPT : 0));
	pmregs_etrace_enc_advance(e, ni);
}

/*
 * One block of the ingress port. Returns the number of packets waiting
 * (take them before the queue fills: PMREGS_ETRACE_ENCODER_STEP_MAX per call
 * at most), or PMREGS_EINVAL for a block the interface does not allow (a
 * reserved itype, iretire shorter than the last instruction, more than one
 * instruction in single-retirement mode, a retirement-free block that is no
 * trap) and PMREGS_ERANGE for a privilege or cause wider than its parameter;
 * a refused block changes nothing.
 */
static inline int pmregs_etrace_enc_step_slow(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in)
{
	unsigned it = in->itype, ni, trap = it == PMREGS_ETRACE_ITYPE_EXCEPTION || it == PMREGS_ETRACE_ITYPE_INTERRUPT;
	uint32_t hw = in->iretire, lhw;
	struct pmregs_etrace_encoder_el *n;
	if (e->itype_width == 4 ? (it > 15 || it == 6 || it == 7) : it > 6) {
		e->stats.bad_blocks++;
		return PMREGS_EINVAL;
	}
	if (in->ilastsize > 3 || (in->priv >> e->p.privilege_width_p) != 0 || (trap && !pmregs_fits(in->cause, e->p.ecause_width_p))) {
		e->stats.bad_blocks++;
		return in->ilastsize > 3 ? PMREGS_EINVAL : PMREGS_ERANGE;
	}
	lhw = 1u << in->ilastsize;
	if (e->iretire_unit == PMREGS_ETRACE_ENCODER_IRETIRE_INSTRUCTIONS) {
		if (hw > 1) {
			e->stats.bad_blocks++;
			return PMREGS_EINVAL;
		}
		hw = hw ? lhw : 0;
	}
	if ((hw && hw < lhw) || (!hw && it != 0 && !trap)) {
		e->stats.bad_blocks++;
		return PMREGS_EINVAL;
	}
	e->stats.blocks++;
	if (e->lost)
		pmregs_etrace_enc_recover(e);
	if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
		e->rs_count++;
	if (in->flags & (PMREGS_ETRACE_INGRESS_UNQUALIFIED | PMREGS_ETRACE_INGRESS_HALTED | PMREGS_ETRACE_INGRESS_RESET)) {
		if (hw || trap)
			pmregs_etrace_enc_off(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP, 1, 0);
		return (int)(e->qtail - e->qhead);
	}
	if (!hw && !trap)
		return (int)(e->qtail - e->qhead); /* idle */
	if (hw) {
		uint64_t last = in->iaddr + 2u * (uint64_t)(hw - lhw);
		unsigned blk = trap ? PMREGS_ETRACE_ENC_BLKTRAP : 0;
		if (hw > lhw) {
			/* the first instruction (the block's element, but no jump, of no known size, no half-words), then the last */
			n = pmregs_etrace_enc_next(e, &ni);
			pmregs_etrace_enc_el_of(n, in);
			n->itype = 0;
			n->size = 0;
			n->hw = 0;
			n->flags = (uint8_t)PMREGS_ETRACE_ENC_FIRST;
			pmregs_etrace_enc_advance(e, ni);
		}
		n = pmregs_etrace_enc_next(e, &ni);
		n->kind = PMREGS_ETRACE_ENC_INSN;
		n->addr = last;
		n->context = in->context;
		n->time = in->time;
		n->priv = in->priv;
		n->ctype = hw > lhw ? 0 : in->ctype;
		n->itype = (uint8_t)(trap ? 0 : it);
		n->size = (uint8_t)(2u * lhw);
		n->hw = hw;
		n->flags = (uint8_t)(blk | (in->sijump ? PMREGS_ETRACE_ENC_SIJUMP : 0) |
				     ((in->flags & PMREGS_ETRACE_INGRESS_NOTIFY) ? PMREGS_ETRACE_ENC_NOTIFY : 0) |
				     ((it || trap) ? PMREGS_ETRACE_ENC_ELIGIBLE : 0));
		pmregs_etrace_enc_advance(e, ni);
	}
	if (trap)
		pmregs_etrace_enc_trap_el(e, in, hw);
	return (int)(e->qtail - e->qhead);
}

/*
 * Internal: may the current element take the short path? It is an
 * instruction (not the first of a block) after an instruction, traced, with
 * the privilege and context of the one before, no notify, no trap after it,
 * no resynchronisation under way, nothing lost: 1 when no uninferable jump
 * comes before it, 2 when one does (and fast_tgt allows). 3: it is a trap
 * that pmregs_etrace_enc_trap() reports later (after a traced instruction
 * that is no jump target), whatever block comes next.
 */
static inline uint8_t pmregs_etrace_enc_ready(const struct pmregs_etrace_encoder *e)
{
	const struct pmregs_etrace_encoder_el *c = &e->el[e->cur], *p = &e->el[(e->cur + 3u) & 3u];
	if (e->have_cur && c->kind == PMREGS_ETRACE_ENC_TRAP && p->kind == PMREGS_ETRACE_ENC_INSN && e->tracing && !e->lost &&
	    !e->prev_updiscon)
		return 3;
	if (!(e->have_cur && c->kind == PMREGS_ETRACE_ENC_INSN && p->kind == PMREGS_ETRACE_ENC_INSN && e->tracing && e->rs_state == 1 &&
	      !e->lost && !(c->flags & (PMREGS_ETRACE_ENC_NOTIFY | PMREGS_ETRACE_ENC_BLKTRAP | PMREGS_ETRACE_ENC_FIRST)) &&
	      c->priv == p->priv && c->context == p->context))
		return 0;
	if (!e->prev_updiscon)
		return 1;
	return (uint8_t)(e->fast_tgt ? 2 : 0);
}

/*
 * Internal: the short path's report of c, the target of an uninferable jump
 * (class cls in fast_cur: 2 a branch, whose bit joins the map first), with
 * its address (format 1 or 2): with neither return stack, cache nor
 * predictor, and the next block in c's privilege and context, that is all
 * the flowchart does besides c's own jump.
 */
PMREGS_HOT void pmregs_etrace_enc_target(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_el *c, unsigned cls)
{
	if (cls == 2) {
		e->bmap |= (uint32_t)(c->itype != PMREGS_ETRACE_ITYPE_TAKEN_BRANCH) << e->branches;
		e->branches++;
	}
	/* a jump target: never refused (and with fast_tgt, not while counting: plain) */
	(void)pmregs_etrace_enc_addr(e, c, PMREGS_ETRACE_ENC_R_TARGET | PMREGS_ETRACE_ENC_R_PLAIN, 0);
	if (cls == 2) {
		e->nhist = 0;
		e->hist_over = 0;
		e->branch_since_ret = 1;
	}
}


/*
 * One block of the ingress port: the short path for the common case, which
 * makes exactly the state changes the flowchart (pmregs_etrace_enc_insn())
 * makes there, without its general tests. The block retires one instruction
 * (no trap, no sideband flags) with the current element's privilege and
 * context, and the current element (see pmregs_etrace_enc_ready()) is not a
 * jump, or an inferable one, or a branch that neither fills the branch map
 * nor meets the predictor's count: no packet comes out. Anything else goes
 * the long way.
 */
PMREGS_HOT int pmregs_etrace_encoder_step(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in)
{
	unsigned it = in->itype, ni, cit, cls, lhw = 1u << (in->ilastsize & 3u), trap = 0;
	struct pmregs_etrace_encoder_el *c, *p, *n;
	int rc;
	/* reserved itypes go the long way (fast_in); a plain block of one instruction goes to the flowchart directly
	 * (general); a trap that retires one instruction takes the short path for the current element (an
	 * instruction after an instruction that is no jump target) when that is 1: the block's trap changes nothing
	 * for it, then its instruction and trap elements go the long way (any other trap: slow) */
	if (e->lost || in->flags || in->ilastsize > 3 || it > 31 || in->iretire != (e->fast_one ? 1u : lhw))
		goto slow;
	if (!((e->fast_in >> it) & 1u)) {
		trap = it == PMREGS_ETRACE_ITYPE_EXCEPTION || it == PMREGS_ETRACE_ITYPE_INTERRUPT;
		if (!trap || e->fast != 1 || !pmregs_fits(in->cause, e->p.ecause_width_p))
			goto slow;
	}
	if (!e->fast)
		goto general;
	c = &e->el[e->cur];
	if ((in->priv != c->priv || in->context != c->context) && e->fast != 3)
		goto general;
	cit = c->itype;
	cls = (e->fast_cur >> (2u * (cit & 15u))) & 3u;
	p = &e->el[(e->cur + 3u) & 3u];
	if (e->fast == 2) {
		/* c is the target of an uninferable jump (pmregs_etrace_enc_target()) */
		unsigned cupd = cls == 3 && !((c->flags & PMREGS_ETRACE_ENC_SIJUMP) && (e->options & PMREGS_ETRACE_ENCODER_SIJUMP));
		if (cls == 0 || e->counting || e->branches >= 31)
			goto general;
		e->stats.blocks++;
		if (e->fast_rs && e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
			e->rs_count++;
		e->trep = 0;
		e->fresh = 0;
		pmregs_etrace_enc_target(e, c, cls);
		e->prev_updiscon = (uint8_t)cupd;
		e->fast = (uint8_t)(e->lost || e->rs_state != 1 ? 0 : (cupd ? 2 : 1));
	} else if (cls == 2) {
		unsigned taken = cit == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH, correct = 0;
		uint8_t *b = PMREGS_NULL;
		if (e->counting || e->branches >= 30)
			goto general; /* the map fills (a packet), or only the count of correct predictions goes on */
		if (e->bp) {
			b = &e->bp[pmregs_etrace_enc_bp_index(e, c->addr)];
			correct = (unsigned)(*b >> 1) == taken;
		}
		e->stats.blocks++;
		if (e->fast_rs && e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
			e->rs_count++;
		e->bmap |= (uint32_t)!taken << e->branches;
		e->branches++;
		if (correct && e->pbc + 1u == e->branches)
			e->pbc++;
		e->nhist = 0;
		e->hist_over = 0;
		if (b) {
			unsigned pred = *b >> 1;
			if (pred == taken)
				*b = (uint8_t)(pred ? 3 : 0);
			else
				*b = (uint8_t)((*b & 1u) ? (pred ? 0 : 3) : (pred ? 2 : 1));
		}
		e->branch_since_ret = 1;
	} else if (cls == 1 || (cls == 3 && !((c->flags & PMREGS_ETRACE_ENC_SIJUMP) && (e->options & PMREGS_ETRACE_ENCODER_SIJUMP)))) {
		/* (an uninferable jump: its target is reported by the next step) */
		e->stats.blocks++;
		if (e->fast_rs && e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
			e->rs_count++;
		if (e->nhist < 32) {
			e->hist[e->nhist][0] = (p->flags & PMREGS_ETRACE_ENC_FIRST) ? e->hist_open : c->addr;
			e->hist[e->nhist][1] = c->addr;
			e->nhist++;
		} else {
			e->hist_over = 1;
		}
		if ((cit == PMREGS_ETRACE_ITYPE_INF_CALL || cit == PMREGS_ETRACE_ITYPE_UNINF_CALL) &&
		    (e->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN))
			pmregs_etrace_enc_call(e, c->addr + c->size);
		if (cls == 3) {
			e->prev_updiscon = 1;
			e->fast = (uint8_t)(e->fast_tgt ? 2 : 0);
		}
	} else if (e->fast == 3) { /* (a trap has class 0) */
		/* c is a trap that reports nothing now: what pmregs_etrace_enc_trap() clears is cleared below (c has
		 * no half-words and is not eligible for the resynchronisation counters); the block, the handler's
		 * first instruction, follows a trap: the long way */
		if ((in->priv >> e->p.privilege_width_p) != 0)
			goto slow; /* (a trap's successor may change privilege and context) */
		e->stats.blocks++;
		if (e->fast_rs && e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
			e->rs_count++;
		e->fast = 0;
	} else {
		goto general;
	}
	/* the resynchronisation counters of cycles and half-words (itype 0 is never compared with max) */
	if (e->fast_rs) {
		if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_HALFWORDS)
			e->rs_count += c->hw;
		if (e->rs_max && (c->flags & PMREGS_ETRACE_ENC_ELIGIBLE) && e->rs_count >= e->rs_max) {
			e->rs_state = 2;
			e->fast = 0;
		}
	}
	e->trep = 0;
	e->fresh = 0;
	e->prev_mispred = 0;
	e->prev_ret = 0;
	/* the block becomes the current element */
	ni = (e->cur + 1u) & 3u;
	pmregs_etrace_enc_el_of(&e->el[ni], in);
	e->cur = ni;
	if (trap) {
		/* as pmregs_etrace_enc_step_slow(): the instruction is no jump and ends a block that traps; the trap */
		e->el[ni].itype = 0;
		e->el[ni].flags |= PMREGS_ETRACE_ENC_BLKTRAP;
		pmregs_etrace_enc_trap_el(e, in, lhw);
		e->fast = pmregs_etrace_enc_ready(e);
	}
	return (int)(e->qtail - e->qhead);
general:
	/* what pmregs_etrace_enc_step_slow() does for this block, without its general tests */
	if (trap || (in->priv >> e->p.privilege_width_p) != 0)
		goto slow;
	e->stats.blocks++;
	if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
		e->rs_count++;
	n = pmregs_etrace_enc_next(e, &ni);
	pmregs_etrace_enc_el_of(n, in);
	pmregs_etrace_enc_advance(e, ni);
	e->fast = pmregs_etrace_enc_ready(e);
	return (int)(e->qtail - e->qhead);
slow:
	rc = pmregs_etrace_enc_step_slow(e, in);
	e->fast = pmregs_etrace_enc_ready(e);
	return rc;
}

/* Internal: the state of a run of short paths (pmregs_etrace_enc_burst()), kept in locals. */
struct pmregs_etrace_enc_run {
	const struct pmregs_etrace_ingress *pb; /* the current element's block once one was read, else null */
	uint64_t caddr, lo;   /* the current element's address and the first address of its range */
	uint64_t plim;        /* the loop reports such targets while the encoder has sent fewer packets than this */
	uint32_t bmap;
	unsigned cit, ccls;   /* its itype and its four bits of fast_tab */
	unsigned nh, hover, branches, pbc, bsr;
	unsigned upd;         /* the current element is the target of an uninferable jump */
	unsigned pmregs_pad;  /* unused: the struct's size without implicit padding */
};

/*
 * Internal: the loop of pmregs_etrace_enc_burst() over blocks in[0..n) in the
 * privilege and context of the current element (keys key0/key1, mask kmask);
 * with general 0 (a constant) the loop without sijump, return stack or
 * counter, jump target cache and branch predictor. The target of an uninferable jump is
 * reported as pmregs_etrace_encoder_step() does (with fast_tgt, while fewer
 * than r->qmax packets wait). Returns the blocks consumed.
 */
PMREGS_HOT size_t pmregs_etrace_enc_burst_loop(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in, size_t n,
						  struct pmregs_etrace_enc_run *r, uint64_t key0, uint64_t key1, uint64_t ctx,
						  unsigned csize, unsigned csij, const int general)
{
	const uint64_t kmask = e->fast_kmask, tab = e->fast_tab;
	const struct pmregs_etrace_ingress *b, *pb = r->pb;
	uint64_t caddr = r->caddr, lo = r->lo;
	uint64_t(*hp)[2] = &e->hist[r->nh];
	uint64_t(*const hend)[2] = &e->hist[32];
	uint32_t bmap = r->bmap;
	unsigned cit = r->cit, ccls = r->ccls, hover = r->hover, branches = r->branches, pbc = r->pbc, bsr = 0, upd = r->upd;
	unsigned sij = general && (e->options & PMREGS_ETRACE_ENCODER_SIJUMP) != 0, tgt = !general || e->fast_tgt, stop = 0;
	uint8_t *bp = general ? e->bp : PMREGS_NULL;
	size_t k;
	for (k = 0; k < n; k++) {
		uint64_t w;
		unsigned it, cls, x;
		b = &in[k];
		w = pmregs_etrace_enc_word(b) & kmask;
		it = b->itype;
		if ((w != key0 && w != key1) || b->flags || b->context != ctx)
			break;
		x = (unsigned)(tab >> (4u * (it & 15u))); /* (it < 16: the keys) */
		if (!(x & 8u))
			break;
		cls = ccls & 3u;
		if (upd) {
			/* the current element is the target of an uninferable jump: its packet */
			struct pmregs_etrace_encoder_el t;
			if (cls == 0 || branches >= 31 || e->stats.packets >= r->plim)
				break;
			e->nhist = (uint8_t)(hp - &e->hist[0]);
			e->hist_over = (uint8_t)hover;
			e->bmap = bmap;
			e->branches = (uint8_t)branches;
			e->pbc = pbc;
			t.addr = caddr;
			t.itype = (uint8_t)cit;
			t.flags = 0;
			pmregs_etrace_enc_target(e, &t, cls);
			hp = &e->hist[0];
			hover = 0;
			bmap = 0;
			branches = 0;
			pbc = 0;
			upd = cls == 3 && !(sij && (pb ? pb->sijump != 0 : csij));
			stop = e->rs_state != 1 || e->lost;
		} else if (cls == 2) {
			unsigned taken = cit == PMREGS_ETRACE_ITYPE_TAKEN_BRANCH;
			if (branches >= 30)
				break;
			bmap |= (uint32_t)!taken << branches;
			branches++;
			if (bp) {
				uint8_t *q = &bp[(unsigned)(caddr >> e->shift) & e->bp_mask];
				unsigned pred = *q >> 1;
				if (pred == taken && pbc + 1u == branches)
					pbc++;
				if (pred == taken)
					*q = (uint8_t)(pred ? 3 : 0);
				else
					*q = (uint8_t)((*q & 1u) ? (pred ? 0 : 3) : (pred ? 2 : 1));
			}
			hp = &e->hist[0];
			hover = 0;
			bsr = 1;
		} else {
			if (cls == 0 || (cls == 3 && sij && (pb ? pb->sijump != 0 : csij)))
				break;
			if (hp != hend) {
				(*hp)[0] = lo;
				(*hp)[1] = caddr;
				hp++;
			} else {
				hover = 1;
			}
			if (general && (ccls & 4u))
				pmregs_etrace_enc_call(e, caddr + (pb ? 2u << pb->ilastsize : csize));
			/* an uninferable jump: the next block reports its target */
			upd = cls == 3;
			stop = upd && !tgt;
		}
		pb = b;
		caddr = b->iaddr;
		lo = caddr;
		cit = it;
		ccls = x & 7u;
		if (stop) {
			k++;
			break;
		}
	}
	r->nh = (unsigned)(hp - &e->hist[0]);
	r->hover = hover;
	r->bmap = bmap;
	r->branches = branches;
	r->pbc = pbc;
	r->bsr = bsr;
	r->upd = upd;
	return k;
}

/*
 * Internal: the short path of pmregs_etrace_encoder_step() over a run of
 * blocks, the state kept in locals and the pipeline written back at the end.
 * Returns the blocks consumed; it stops before the first block the short
 * path does not take, and before a jump target's packet when qmax packets
 * wait. Not for resynchronisation counters of cycles or half-words (the
 * short path of step() serves those).
 */
PMREGS_HOT size_t pmregs_etrace_enc_burst(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in, size_t n,
					  size_t qmax)
{
	const struct pmregs_etrace_encoder_el *c0, *p0;
	struct pmregs_etrace_enc_run r;
	uint64_t key0, key1, kp;
	unsigned ni;
	size_t k;
	if (!e->fast || e->fast == 3 || e->lost || e->fast_rs || e->counting || !n)
		return 0;
	c0 = &e->el[e->cur];
	p0 = &e->el[(e->cur + 3u) & 3u];
	r.pb = PMREGS_NULL;
	r.caddr = c0->addr;
	r.cit = c0->itype;
	r.ccls = (unsigned)(e->fast_tab >> (4u * (r.cit & 15u))) & 7u;
	r.lo = (p0->flags & PMREGS_ETRACE_ENC_FIRST) ? e->hist_open : r.caddr;
	r.nh = e->nhist;
	r.hover = e->hist_over;
	r.bmap = e->bmap;
	r.branches = e->branches;
	r.pbc = (unsigned)e->pbc; /* below 31 while not counting */
	r.upd = e->fast == 2;
	/* packets waiting and those the loop sends (queued, or written straight to e->sink) stay below qmax */
	if (qmax > PMREGS_ETRACE_ENCODER_QUEUE - PMREGS_ETRACE_ENCODER_STEP_MAX)
		qmax = PMREGS_ETRACE_ENCODER_QUEUE - PMREGS_ETRACE_ENCODER_STEP_MAX;
	r.plim = e->stats.packets + (qmax > e->qtail - e->qhead ? qmax - (e->qtail - e->qhead) : 0u);
	r.pmregs_pad = 0;
	/* iretire, ilastsize and privilege of a 16-bit and of a 32-bit instruction in c's privilege (longer ones go
	 * through pmregs_etrace_encoder_step()) */
	kp = (uint64_t)c0->priv * e->fast_kpriv;
	key0 = e->fast_key0 + kp;
	key1 = e->fast_key1 + kp;
	if ((e->options & (PMREGS_ETRACE_ENCODER_SIJUMP | PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN)) || e->jtc || e->bp)
		k = pmregs_etrace_enc_burst_loop(e, in, n, &r, key0, key1, c0->context, c0->size,
						 (c0->flags & PMREGS_ETRACE_ENC_SIJUMP) != 0, 1);
	else
		k = pmregs_etrace_enc_burst_loop(e, in, n, &r, key0, key1, c0->context, 0, 0, 0);
	if (r.bsr)
		e->branch_since_ret = 1;
	if (!k)
		return 0;
	e->prev_updiscon = (uint8_t)r.upd;
	e->fast = (uint8_t)(e->lost || e->rs_state != 1 ? 0 : !r.upd ? 1 : e->fast_tgt ? 2 : 0);
	e->nhist = (uint8_t)r.nh;
	e->hist_over = (uint8_t)r.hover;
	e->bmap = r.bmap;
	e->branches = (uint8_t)r.branches;
	e->pbc = r.pbc;
	e->stats.blocks += k;
	e->trep = 0;
	e->fresh = 0;
	e->prev_mispred = 0;
	e->prev_ret = 0;
	/* the last two blocks become the previous and the current element */
	ni = (e->cur + 1u) & 3u;
	if (k >= 2) {
		pmregs_etrace_enc_el_of(&e->el[ni], &in[k - 2]);
		ni = (ni + 1u) & 3u;
	}
	pmregs_etrace_enc_el_of(&e->el[ni], &in[k - 1]);
	e->cur = ni;
	return k;
}

/* n cycles in which the hart retired nothing (for a resynchronisation counter of cycles). */
static inline void pmregs_etrace_encoder_idle(struct pmregs_etrace_encoder *e, uint64_t n)
{
	if (e->rs_unit == PMREGS_ETRACE_ENCODER_RESYNC_CYCLES)
		e->rs_count += n;
}

/*
 * The end of the trace (the encoder is disabled when ienable is 0, or
 * tracing stops): the last traced instruction is reported, then a support
 * packet with ienable and qual_status ended_rep (no_change when nothing was
 * being traced). The next block starts a new trace with a format 3.0.
 */
static inline int pmregs_etrace_encoder_finish(struct pmregs_etrace_encoder *e, unsigned ienable)
{
	if (e->lost)
		pmregs_etrace_enc_recover(e);
	if (e->have_cur)
		pmregs_etrace_enc_off(e, e->el[e->cur].kind != PMREGS_ETRACE_ENC_OFF ? PMREGS_ETRACE_TE_INST_QUAL_STATUS_ENDED_REP
										    : PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE,
				      ienable ? 1u : 0u, 1);
	else
		pmregs_etrace_enc_support(e, PMREGS_ETRACE_TE_INST_QUAL_STATUS_NO_CHANGE, ienable ? 1u : 0u);
	e->fast = pmregs_etrace_enc_ready(e);
	return (int)(e->qtail - e->qhead);
}

/*
 * Packets taken from e were lost on their way (the transport overflowed):
 * the next packet is a support packet with qual_status trace_lost, and
 * tracing starts again with a format 3.0 at the next instruction (whatever
 * was pending is dropped).
 */
static inline void pmregs_etrace_encoder_lost(struct pmregs_etrace_encoder *e)
{
	e->lost = 1;
	pmregs_etrace_enc_recover(e);
	e->fast = pmregs_etrace_enc_ready(e);
}

/*
 * Change the run-time options (and the resynchronisation settings) to those
 * of c: tracing ends as at pmregs_etrace_encoder_finish(e, 1), the support
 * packet carries the new ioptions, and tracing starts again with a format
 * 3.0. Returns PMREGS_OK, or PMREGS_EINVAL (see pmregs_etrace_encoder_check();
 * itype_width, iretire_unit and the layout cannot change).
 */
static inline int pmregs_etrace_encoder_set_options(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encoder_config *c)
{
	uint32_t keep = e->options;
	if (pmregs_etrace_encoder_check(&e->p, c, PMREGS_NULL) != PMREGS_OK || c->itype_width != e->itype_width ||
	    c->iretire_unit != e->iretire_unit || c->ioptions_layout != e->layout)
		return PMREGS_EINVAL;
	if ((c->options & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN) && !(keep & PMREGS_ETRACE_ENCODER_IMPLICIT_RETURN))
		return PMREGS_EINVAL; /* the work area was laid out without the return stack */
	if (((c->options & ~keep) & (PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE | PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION)) != 0)
		return PMREGS_EINVAL;
	e->ioptions = pmregs_etrace_encoder_ioptions_of(&e->p, c->options, c->ioptions_layout);
	pmregs_etrace_encoder_finish(e, 1);
	e->options = c->options;
	if (!(c->options & PMREGS_ETRACE_ENCODER_JUMP_TARGET_CACHE))
		e->jtc = PMREGS_NULL;
	if (!(c->options & PMREGS_ETRACE_ENCODER_BRANCH_PREDICTION))
		e->bp = PMREGS_NULL;
	e->rs_max = c->resync_max;
	e->rs_unit = c->resync_unit;
	e->rs_count = 0;
	e->rs_state = 1;
	pmregs_etrace_enc_fast_setup(e);
	e->fast = pmregs_etrace_enc_ready(e);
	return PMREGS_OK;
}

/*
 * The batch form: step through in[0..n), moving the packets into out[]
 * (cap entries); stops before a block when out[] has fewer than
 * PMREGS_ETRACE_ENCODER_STEP_MAX free entries left, or at a refused block
 * (which pmregs_etrace_encoder_step() then reports). Returns the blocks
 * consumed; *nout is the packets written.
 */
PMREGS_HOT size_t pmregs_etrace_encoder_run(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in, size_t n,
					    struct pmregs_etrace_te_inst *out, size_t cap, size_t *nout)
{
	size_t k, o = pmregs_etrace_encoder_take(e, out, cap);
	int stop;
	for (k = 0; k < n; k++) {
		if (cap - o < PMREGS_ETRACE_ENCODER_STEP_MAX)
			break;
		/* the run's packets and the step's fit out[] and the queue */
		k += pmregs_etrace_enc_burst(e, in + k, n - k, cap - o - PMREGS_ETRACE_ENCODER_STEP_MAX);
		stop = k == n || pmregs_etrace_encoder_step(e, &in[k]) < 0;
		if (e->qtail != e->qhead)
			o += pmregs_etrace_encoder_take(e, out + o, cap - o);
		if (stop)
			break;
	}
	*nout = o;
	return k;
}

/* Internal: the oldest packet waiting in the queue. */
static inline const struct pmregs_etrace_te_inst *pmregs_etrace_enc_oldest(const struct pmregs_etrace_encoder *e)
{
	return &e->q[e->qhead & (PMREGS_ETRACE_ENCODER_QUEUE - 1)];
}

/*
 * Internal: account for rc, what a framing's _stream_put() returned for the oldest packet: its bytes
 * (added to *o, the packet counted in *k) or an error (the packet dropped, the next support packet says
 * trace_lost). Returns 0 when it did not fit (PMREGS_ENOSPC: the packet stays queued), else 1.
 */
static inline int pmregs_etrace_enc_wrote(struct pmregs_etrace_encoder *e, int rc, size_t *o, size_t *k)
{
	if (rc == PMREGS_ENOSPC)
		return 0;
	e->qhead++;
	if (rc < 0) {
		e->stats.dropped++;
		e->lost = 1;
		return 1;
	}
	*o += (size_t)rc;
	(*k)++;
	return 1;
}

/*
 * Internal: the SMI message of te_inst packet t written straight, for the
 * packets that report an address with a branch map or without (formats 1
 * and 2) and the synchronisation packets (formats 3.0 and 3.1) in a message
 * header without index or timestamp: the bytes of
 * pmregs_etrace_smi_stream_put() (the same sign-based compression) without
 * its general field walk; aw (1..64) and dw are the bits of the address and of
 * irdepth under parameters p; f must pass pmregs_etrace_enc_smi_plain().
 * Returns the bytes written, PMREGS_ENOSPC, or 0 for anything else (the
 * caller then takes the general writer).
 */
PMREGS_HOT int pmregs_etrace_enc_smi_short(const struct pmregs_etrace_smi *f, const struct pmregs_etrace_params *p, unsigned aw,
					      unsigned dw, const struct pmregs_etrace_te_inst *t, unsigned char *out, size_t cap)
{
	unsigned n = t->branches;
	if (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_ADDR_ONLY && t->format == 2) {
		n = 0;
	} else if (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA && t->format == 1 && n >= 1 && n <= 31) {
		unsigned bl = n | (n >> 1) | (n >> 2) | (n >> 3) | (n >> 4);
		if (bl < 32 && (t->branch_map >> bl) != 0)
			return 0;
	} else if (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_DIFF_DELTA_FULL && t->format == 1 && t->branches == 0 &&
		   (t->branch_map >> 31) == 0) {
		return pmregs_etrace_enc_smi_pack2(f->msg_type, 1u | ((uint64_t)t->branch_map << 7), 0, 38, out, cap);
	} else if (((t->shape == PMREGS_ETRACE_TE_INST_SHAPE_START && t->subformat == 0) ||
		    (t->shape == PMREGS_ETRACE_TE_INST_SHAPE_TRAP && t->subformat == 1)) &&
		   t->format == 3) {
		return pmregs_etrace_enc_smi_sync(f->msg_type, p, aw, t, 0, out, cap);
	} else {
		return 0;
	}
	/* address, then notify, updiscon, irreport and irdepth as one field of 3 + dw bits */
	if (aw + dw > 87u || dw > 60u || ((t->notify | t->updiscon | t->irreport) >> 1) != 0 || (t->address >> 1 >> ((aw - 1u) & 63u)) != 0 ||
	    (t->irdepth >> dw) != 0)
		return 0;
	return pmregs_etrace_enc_smi_addr(f->msg_type, aw, dw, n, t->branch_map, t->address,
					  (uint64_t)t->notify | ((uint64_t)t->updiscon << 1) | ((uint64_t)t->irreport << 2) | (t->irdepth << 3),
					  out, cap);
}

/*
 * Write the waiting packets into buf (cap bytes) as an SMI stream, each
 * framed by *f (pmregs_etrace_smi_stream_put()). Stops at the first packet
 * that does not fit; returns the packets written, *used the bytes. A packet
 * that cannot be encoded (a caller's value too wide for its field) is
 * dropped and the next support packet says trace_lost.
 */
static inline size_t pmregs_etrace_encoder_put_smi(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_smi *f, void *buf,
						   size_t cap, size_t *used)
{
	unsigned char *out = (unsigned char *)buf;
	size_t o = 0, k = 0;
	const int plain = pmregs_etrace_enc_smi_plain(&e->p, f);
	while (e->qhead != e->qtail) {
		const struct pmregs_etrace_te_inst *t = pmregs_etrace_enc_oldest(e);
		int rc = plain ? pmregs_etrace_enc_smi_short(f, &e->p, e->fast_aw, e->fast_dw, t, out + o, cap - o) : 0;
		if (rc == 0)
			rc = pmregs_etrace_smi_stream_put(&e->p, f, t, out + o, cap - o);
		if (!pmregs_etrace_enc_wrote(e, rc, &o, &k))
			break;
	}
	*used = o;
	return k;
}

/* pmregs_etrace_encoder_put_smi() for the RISC-V trace encapsulation. */
static inline size_t pmregs_etrace_encoder_put_encap(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_encap *f, void *buf,
						     size_t cap, size_t *used)
{
	unsigned char *out = (unsigned char *)buf;
	size_t o = 0, k = 0;
	while (e->qhead != e->qtail &&
	       pmregs_etrace_enc_wrote(e, pmregs_etrace_encap_stream_put(&e->p, f, pmregs_etrace_enc_oldest(e), out + o, cap - o), &o, &k))
		;
	*used = o;
	return k;
}

/* pmregs_etrace_encoder_put_smi() for the specification's ATB example transport. */
static inline size_t pmregs_etrace_encoder_put_atb(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_atb *f, void *buf,
						   size_t cap, size_t *used)
{
	unsigned char *out = (unsigned char *)buf;
	size_t o = 0, k = 0;
	while (e->qhead != e->qtail &&
	       pmregs_etrace_enc_wrote(e, pmregs_etrace_atb_stream_put(&e->p, f, pmregs_etrace_enc_oldest(e), out + o, cap - o), &o, &k))
		;
	*used = o;
	return k;
}

/*
 * Step through in[0..n) and write the packets into buf (cap bytes) as an SMI
 * stream framed by *f; stops before a block when fewer than
 * PMREGS_ETRACE_ENCODER_STEP_MAX * PMREGS_ETRACE_SMI_MAX_BYTES bytes are
 * left, or at a refused block. Returns the blocks consumed; *used is the
 * bytes written.
 */
PMREGS_HOT size_t pmregs_etrace_encoder_run_smi(struct pmregs_etrace_encoder *e, const struct pmregs_etrace_ingress *in, size_t n,
						const struct pmregs_etrace_smi *f, void *buf, size_t cap, size_t *used)
{
	struct pmregs_etrace_enc_sink s;
	size_t k, u;
	const size_t room = (size_t)PMREGS_ETRACE_ENCODER_STEP_MAX * PMREGS_ETRACE_SMI_MAX_BYTES + 8u;
	int stop;
	s.out = (unsigned char *)buf;
	s.cap = cap;
	s.msg_type = f->msg_type;
	(void)pmregs_etrace_encoder_put_smi(e, f, s.out, cap, &u);
	s.o = u;
	/* packets of formats 1 and 2 that find the queue empty go out straight (the bytes of the short writer) */
	if (pmregs_etrace_enc_smi_plain(&e->p, f) && e->fast_aw + e->fast_dw <= 87u && e->fast_dw <= 60u)
		e->sink = &s;
	for (k = 0; k < n; k++) {
		if (cap - s.o < room)
			break;
		/* the run's packets and the step's fit buf and the queue */
		k += pmregs_etrace_enc_burst(e, in + k, n - k, (cap - s.o - room) / PMREGS_ETRACE_SMI_MAX_BYTES);
		stop = k == n || pmregs_etrace_encoder_step(e, &in[k]) < 0;
		if (e->qtail != e->qhead) {
			(void)pmregs_etrace_encoder_put_smi(e, f, s.out + s.o, cap - s.o, &u);
			s.o += u;
		}
		if (stop)
			break;
	}
	e->sink = PMREGS_NULL;
	*used = s.o;
	return k;
}

PMREGS_C_END
#endif /* !__ASSEMBLER__ */
#endif /* PMREGS_ETRACE_ENCODER_H */
