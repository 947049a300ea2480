/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A tiny RISC-V hart and a random-program generator, for the E-Trace encoder
 * tests and benchmark.
 *
 * hart_generate() writes a random program into an image of real RV32/RV64
 * encodings (with C): functions made of straight code, if/else and loops,
 * calls (jal, c.jal, through a function pointer, auipc/lui + jalr pairs;
 * x1 or x5 as link), tail calls, switch tables, recursion, returns (jalr,
 * c.jr, through x1 or x5), co-routine swaps, "longjmp" returns that skip
 * frames, ecall/ebreak/c.ebreak and illegal instructions taken to a handler
 * that returns with mret (user code runs at privilege 0, the handler at 3).
 * hart_run() executes it (branch outcomes, indirect targets and interrupts
 * drawn at random; everything else follows the encodings) and reports every
 * retired instruction and every trap: the ground truth. hart_ingress() turns
 * that into ingress blocks (one instruction per block, or random blocks of
 * several) with context changes, notify requests and qualification windows,
 * and hart_csv() into the hart trace CSV of the E-Trace reference flow
 * (VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT).
 *
 * The model is not an ISA simulator: it knows what it generated (a tag per
 * instruction), so it needs no instruction decoder; the decoder under test
 * sees only the bytes.
 */
#ifndef PMREGS_TEST_ETRACE_HART_H
#define PMREGS_TEST_ETRACE_HART_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pmregs/etrace_encoder.h>

#define HART_IMG   (64 * 1024) /* bytes of code at most */
#define HART_FUNCS 40
#define HART_FIX   8192
#define HART_CASES 1024

/* what the model knows about each instruction (by half-word index) */
enum hart_tag {
	T_NONE, /* not an instruction start */
	T_PLAIN,
	T_CONST,     /* auipc/lui/c.lui: plain, and may start a sequentially inferable pair */
	T_BRANCH,    /* aux: target; naux: 0 if/else, 1 loop back edge, 2 recursion guard */
	T_JAL,       /* jal/c.j/c.jal: aux target */
	T_CALL_IND,  /* jalr/c.jalr with a link register through a function pointer: any function of link */
	T_PAIR,      /* jalr after auipc/lui/c.lui: to aux (sequentially inferable) */
	T_SWITCH,    /* jr through a register: one of the case labels cases[aux..aux+naux) */
	T_TAIL_IND,  /* jr through a function pointer: any function of the same link */
	T_RET,       /* return through link[] */
	T_LONGJMP,   /* a return whose target is an outer frame's return address */
	T_SWAP,      /* co-routine swap: return through x1, link into x5 */
	T_ECALL,     /* ecall, ebreak, c.ebreak: retire, then trap */
	T_ILLEGAL,   /* traps without retiring */
	T_MRET
};

enum { F_BRANCH, F_CBRANCH, F_JAL, F_CJ, F_AUIPC_PAIR, F_LUI_PAIR, F_CLUI_PAIR };

struct hart_fix {
	uint32_t at;     /* byte offset of the instruction */
	uint32_t target; /* target byte offset, or a function index (calls) */
	uint8_t kind;    /* F_* */
	uint8_t func;    /* 1: target is a function index */
};

struct hart_prog {
	uint8_t img[HART_IMG];
	uint8_t tag[HART_IMG / 2];
	uint8_t len[HART_IMG / 2];  /* bytes */
	uint8_t rd[HART_IMG / 2];   /* register written: link of calls, rd of auipc/lui */
	uint8_t rs[HART_IMG / 2];   /* register read by jalr/c.jr/c.jalr */
	uint32_t aux[HART_IMG / 2];
	uint16_t naux[HART_IMG / 2];
	uint32_t cases[HART_CASES];
	unsigned ncases;
	uint64_t base;
	uint32_t size;
	uint32_t func[HART_FUNCS];
	uint8_t flink[HART_FUNCS]; /* the link register each function is called with */
	unsigned nfunc;
	uint32_t handler; /* trap handler offset (mtvec) */
	uint32_t main_loop;
	unsigned xlen;
	struct hart_fix fix[HART_FIX];
	unsigned nfix;
	uint64_t rng;
};

static inline uint64_t hart_rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}
static inline unsigned hart_pick(uint64_t *s, unsigned n)
{
	return (unsigned)(hart_rnd(s) % n);
}

/* ---- encodings ---- */
static inline uint32_t hart_i(unsigned op, unsigned rd, unsigned f3, unsigned rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static inline uint32_t hart_u(unsigned op, unsigned rd, uint32_t imm20)
{
	return (imm20 & 0xfffffu) << 12 | rd << 7 | op;
}
static inline uint32_t hart_b(uint32_t insn, int32_t off)
{
	uint32_t o = (uint32_t)off;
	return (insn & 0x01fff07fu) | ((o >> 12) & 1u) << 31 | ((o >> 5) & 0x3fu) << 25 | ((o >> 1) & 0xfu) << 8 | ((o >> 11) & 1u) << 7;
}
static inline uint32_t hart_j(uint32_t insn, int32_t off)
{
	uint32_t o = (uint32_t)off;
	return (insn & 0xfffu) | ((o >> 20) & 1u) << 31 | ((o >> 1) & 0x3ffu) << 21 | ((o >> 11) & 1u) << 20 | ((o >> 12) & 0xffu) << 12;
}
static inline uint32_t hart_cj(uint32_t insn, int32_t off)
{
	uint32_t o = (uint32_t)off;
	return (insn & 0xe003u) | ((o >> 11) & 1u) << 12 | ((o >> 4) & 1u) << 11 | ((o >> 8) & 3u) << 9 | ((o >> 10) & 1u) << 8 |
	       ((o >> 6) & 1u) << 7 | ((o >> 7) & 1u) << 6 | ((o >> 1) & 7u) << 3 | ((o >> 5) & 1u) << 2;
}
static inline uint32_t hart_cb(uint32_t insn, int32_t off)
{
	uint32_t o = (uint32_t)off;
	return (insn & 0xe383u) | ((o >> 8) & 1u) << 12 | ((o >> 3) & 3u) << 10 | ((o >> 6) & 3u) << 5 | ((o >> 1) & 3u) << 3 |
	       ((o >> 5) & 1u) << 2;
}

static inline uint32_t hart_get(const struct hart_prog *g, uint32_t at, unsigned n)
{
	uint32_t v = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		v |= (uint32_t)g->img[at + i] << (8 * i);
	return v;
}
static inline void hart_put(struct hart_prog *g, uint32_t at, uint32_t v, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		g->img[at + i] = (uint8_t)(v >> (8 * i));
}

static inline int hart_full(const struct hart_prog *g)
{
	return g->size + 256 > HART_IMG || g->nfix + 16 > HART_FIX || g->ncases + 16 > HART_CASES;
}

static inline uint32_t hart_emit(struct hart_prog *g, uint32_t insn, unsigned bytes, unsigned tag)
{
	uint32_t at = g->size, h = at / 2;
	hart_put(g, at, insn, bytes);
	g->tag[h] = (uint8_t)tag;
	g->len[h] = (uint8_t)bytes;
	g->rd[h] = 0;
	g->rs[h] = 0;
	g->aux[h] = 0;
	g->naux[h] = 0;
	g->size += bytes;
	return at;
}

static inline void hart_fixup(struct hart_prog *g, uint32_t at, unsigned kind, uint32_t target, unsigned func)
{
	struct hart_fix *f = &g->fix[g->nfix++];
	f->at = at;
	f->kind = (uint8_t)kind;
	f->target = target;
	f->func = (uint8_t)func;
}

/* a random instruction that does not change control flow */
static inline void hart_plain(struct hart_prog *g)
{
	unsigned r = hart_pick(&g->rng, 12), rd = 10 + hart_pick(&g->rng, 6);
	uint32_t at;
	switch (r) {
	case 0:
		hart_emit(g, 0x0001, 2, T_PLAIN); /* c.nop */
		break;
	case 1:
		hart_emit(g, 0x0001u | rd << 7 | (1u + hart_pick(&g->rng, 15)) << 2, 2, T_PLAIN); /* c.addi */
		break;
	case 2:
		hart_emit(g, 0x8002u | rd << 7 | (10u + hart_pick(&g->rng, 6)) << 2, 2, T_PLAIN); /* c.mv */
		break;
	case 3:
		at = hart_emit(g, hart_u(0x37, rd, (uint32_t)hart_rnd(&g->rng)), 4, T_CONST); /* lui */
		g->rd[at / 2] = (uint8_t)rd;
		break;
	case 4:
		at = hart_emit(g, hart_u(0x17, rd, (uint32_t)hart_rnd(&g->rng)), 4, T_CONST); /* auipc */
		g->rd[at / 2] = (uint8_t)rd;
		break;
	case 5:
		at = hart_emit(g, 0x6001u | rd << 7 | (1u + hart_pick(&g->rng, 15)) << 2, 2, T_CONST); /* c.lui */
		g->rd[at / 2] = (uint8_t)rd;
		break;
	case 6:
		hart_emit(g, 0x00b50533u | rd << 7, 4, T_PLAIN); /* add rd, a0, a1 */
		break;
	case 7:
		hart_emit(g, 0x0000a503u | rd << 7, 4, T_PLAIN); /* lw rd, 0(ra) */
		break;
	default:
		hart_emit(g, hart_i(0x13, rd, 0, rd, (int32_t)hart_pick(&g->rng, 4096) - 2048), 4, T_PLAIN); /* addi */
		break;
	}
}

/* a conditional branch whose target is patched later; returns its fixup index */
static inline unsigned hart_branch(struct hart_prog *g, unsigned kind, int compressed)
{
	uint32_t at;
	if (compressed) {
		at = hart_emit(g, (6u + hart_pick(&g->rng, 2)) << 13 | hart_pick(&g->rng, 8) << 7 | 1u, 2, T_BRANCH);
		hart_fixup(g, at, F_CBRANCH, 0, 0);
	} else {
		static const unsigned f3[6] = { 0, 1, 4, 5, 6, 7 };
		at = hart_emit(g, 0x63u | f3[hart_pick(&g->rng, 6)] << 12 | (10u + hart_pick(&g->rng, 6)) << 15 |
					  (10u + hart_pick(&g->rng, 6)) << 20,
			       4, T_BRANCH);
		hart_fixup(g, at, F_BRANCH, 0, 0);
	}
	g->naux[at / 2] = (uint16_t)kind;
	return g->nfix - 1;
}

/* auipc/lui/c.lui t1, hi; jalr lnk, lo(t1): a sequentially inferable call (lnk 1 or 5) or tail call (lnk 0) */
static inline void hart_pair(struct hart_prog *g, unsigned lnk, unsigned callee)
{
	unsigned kind = F_AUIPC_PAIR, r = hart_pick(&g->rng, 3);
	uint32_t at;
	if (r == 1 && g->base + HART_IMG < 0x7ffff000u)
		kind = F_LUI_PAIR;
	if (r == 2 && g->base + HART_IMG < 0x1f000u)
		kind = F_CLUI_PAIR;
	if (kind == F_CLUI_PAIR) {
		at = hart_emit(g, 0x6001u | 6u << 7 | 1u << 2, 2, T_CONST);
	} else {
		at = hart_emit(g, hart_u(kind == F_LUI_PAIR ? 0x37 : 0x17, 6, 0), 4, T_CONST);
	}
	g->rd[at / 2] = 6;
	hart_emit(g, hart_i(0x67, lnk, 0, 6, 0), 4, T_PAIR);
	g->rd[(g->size - 4) / 2] = (uint8_t)lnk;
	g->rs[(g->size - 4) / 2] = 6;
	hart_fixup(g, at, kind, callee, 1);
}

/* a call of function callee through link register lnk; indirect: through a function pointer */
static inline void hart_call(struct hart_prog *g, unsigned caller, unsigned callee, int indirect)
{
	unsigned lnk = g->flink[callee], r = hart_pick(&g->rng, 8);
	uint32_t at;
	if (indirect) {
		if (lnk == 1 && (r & 1))
			at = hart_emit(g, 0x9002u | 15u << 7, 2, T_CALL_IND); /* c.jalr a5 */
		else
			at = hart_emit(g, hart_i(0x67, lnk, 0, 15, 0), 4, T_CALL_IND); /* jalr lnk, 0(a5) */
		g->rd[at / 2] = (uint8_t)lnk;
		g->rs[at / 2] = 15;
		return;
	}
	if (r == 0 || r == 1) {
		hart_pair(g, lnk, callee);
		return;
	}
	if (r == 2 && g->xlen == 32 && lnk == 1 && callee < caller) {
		/* c.jal (RV32 only) back to a function already placed, when in reach */
		int32_t off = (int32_t)g->func[callee] - (int32_t)g->size;
		if (off >= -2048) {
			at = hart_emit(g, hart_cj(0x2001u, off), 2, T_JAL);
			g->rd[at / 2] = 1;
			g->aux[at / 2] = g->func[callee];
			return;
		}
	}
	at = hart_emit(g, 0x6fu | lnk << 7, 4, T_JAL);
	g->rd[at / 2] = (uint8_t)lnk;
	hart_fixup(g, at, F_JAL, callee, 1);
}

/* a return of function f */
static inline void hart_ret(struct hart_prog *g, unsigned f, unsigned tag)
{
	unsigned lnk = g->flink[f];
	uint32_t at;
	if (hart_pick(&g->rng, 2))
		at = hart_emit(g, 0x8002u | lnk << 7, 2, tag); /* c.jr lnk */
	else
		at = hart_emit(g, hart_i(0x67, 0, 0, lnk, 0), 4, tag); /* jalr x0, 0(lnk) */
	g->rs[at / 2] = (uint8_t)lnk;
}

/* a forward jump to a label patched later (c.j or jal x0) */
static inline unsigned hart_jump(struct hart_prog *g)
{
	uint32_t at;
	if (hart_pick(&g->rng, 2)) {
		at = hart_emit(g, 0xa001u, 2, T_JAL);
		hart_fixup(g, at, F_CJ, 0, 0);
	} else {
		at = hart_emit(g, 0x6fu, 4, T_JAL);
		hart_fixup(g, at, F_JAL, 0, 0);
	}
	return g->nfix - 1;
}

/* statements of function f, up to budget of them, nested to depth */
static inline void hart_stmts(struct hart_prog *g, unsigned f, unsigned depth, unsigned budget)
{
	unsigned k, n = 1 + hart_pick(&g->rng, budget), r, i, fx;
	for (k = 0; k < n && !hart_full(g); k++) {
		r = hart_pick(&g->rng, 100);
		if (r < 30) {
			unsigned m = 1 + hart_pick(&g->rng, 5);
			for (i = 0; i < m; i++)
				hart_plain(g);
		} else if (r < 42 && depth < 3) {
			/* if (...) { body } [else { body }] */
			int small = hart_pick(&g->rng, 2) == 0;
			fx = hart_branch(g, 0, small);
			hart_stmts(g, f, depth + 1, small ? 2 : 4);
			if (!small && hart_pick(&g->rng, 2)) {
				unsigned j = hart_jump(g);
				g->fix[fx].target = g->size;
				hart_stmts(g, f, depth + 1, 3);
				g->fix[j].target = g->size;
			} else {
				g->fix[fx].target = g->size;
			}
			if (small && g->size - g->fix[fx].at > 250)
				g->fix[fx].kind = F_BRANCH; /* cannot happen with the budgets above: checked at patch time */
		} else if (r < 52 && depth < 3) {
			/* loop: body; branch back */
			uint32_t top = g->size;
			int small;
			hart_stmts(g, f, depth + 1, 3);
			small = g->size - top < 200 && hart_pick(&g->rng, 2);
			fx = hart_branch(g, 1, small);
			g->fix[fx].target = top;
		} else if (r < 68 && f + 1 < g->nfunc) {
			/* a call of a later function (the call graph has no cycles but recursion below) */
			unsigned callee = f + 1 + hart_pick(&g->rng, g->nfunc - f - 1);
			if (callee == g->nfunc - 1 && g->nfunc > 2)
				callee = f + 1; /* the last function is the swap helper: called below only */
			if (hart_pick(&g->rng, 4) == 0) {
				/* a5 = &callee (the model chooses any function of the same link at run time) */
				hart_emit(g, 0x8002u | 15u << 7 | 10u << 2, 2, T_PLAIN); /* c.mv a5, a0 */
				hart_call(g, f, callee, 1);
			} else {
				hart_call(g, f, callee, 0);
			}
		} else if (r < 70 && f + 2 < g->nfunc && depth == 0) {
			/* a tail call of a later function with the same link (jal x0 or an auipc/lui pair), then dead code */
			unsigned callee = f + 1 + hart_pick(&g->rng, g->nfunc - f - 2), t;
			if (g->flink[callee] == g->flink[f]) {
				fx = hart_branch(g, 0, 0);
				t = hart_pick(&g->rng, 3);
				if (t == 0) {
					uint32_t at = hart_emit(g, 0x6fu, 4, T_JAL);
					hart_fixup(g, at, F_JAL, callee, 1);
				} else {
					hart_pair(g, 0, callee);
				}
				g->fix[fx].target = g->size;
			}
		} else if (r < 72 && g->flink[f] == 1) {
			/* recursion, guarded: the model skips the call when its stack is deep */
			fx = hart_branch(g, 2, 0);
			hart_call(g, f, f, 0);
			g->fix[fx].target = g->size;
		} else if (r < 78 && depth < 2) {
			/* switch: jr t1 to one of the cases, each ending with a jump to the end */
			unsigned nc = 2 + hart_pick(&g->rng, 4), c, ends[6];
			uint32_t at = hart_emit(g, hart_i(0x67, 0, 0, 6, 0), 4, T_SWITCH);
			g->rs[at / 2] = 6;
			g->aux[at / 2] = g->ncases;
			g->naux[at / 2] = (uint16_t)nc;
			for (c = 0; c < nc; c++) {
				g->cases[g->ncases++] = g->size;
				hart_stmts(g, f, depth + 1, 2);
				ends[c] = hart_jump(g);
			}
			for (c = 0; c < nc; c++)
				g->fix[ends[c]].target = g->size;
		} else if (r < 81) {
			/* ecall, ebreak, c.ebreak (trap and come back) or an illegal instruction */
			unsigned t = hart_pick(&g->rng, 4);
			if (t == 0)
				hart_emit(g, 0x00000073u, 4, T_ECALL);
			else if (t == 1)
				hart_emit(g, 0x00100073u, 4, T_ECALL);
			else if (t == 2)
				hart_emit(g, 0x9002u, 2, T_ECALL);
			else
				hart_emit(g, 0x0000u, 2, T_ILLEGAL); /* c.unimp */
		} else if (r < 84 && f + 2 < g->nfunc) {
			/* a call of the co-routine swap helper (the last function) */
			hart_call(g, f, g->nfunc - 1, 0);
		} else if (r < 86 && g->flink[f] == 1 && depth == 0) {
			/* longjmp: a return to an outer frame (the model unwinds when it can) */
			fx = hart_branch(g, 0, 0);
			hart_ret(g, f, T_LONGJMP);
			g->fix[fx].target = g->size;
		} else {
			hart_plain(g);
		}
	}
}

static int32_t hart_lo12(int32_t off)
{
	return (int32_t)((uint32_t)off << 20) >> 20;
}

/* Generate a program for xlen at base, from seed. */
static inline void hart_generate(struct hart_prog *g, uint64_t seed, unsigned xlen, uint64_t base, unsigned nfunc)
{
	unsigned f, k;
	memset(g->tag, 0, sizeof g->tag);
	g->rng = seed | 1u;
	g->xlen = xlen;
	g->base = base;
	g->size = 0;
	g->nfix = 0;
	g->ncases = 0;
	g->nfunc = nfunc < 3 ? 3 : nfunc > HART_FUNCS ? HART_FUNCS : nfunc;
	for (f = 0; f < g->nfunc; f++)
		g->flink[f] = (uint8_t)(f > 0 && hart_pick(&g->rng, 5) == 0 ? 5 : 1);
	g->flink[g->nfunc - 1] = 1;
	/* the trap handler: some code, maybe a call, then mret */
	g->handler = g->size;
	hart_plain(g);
	hart_plain(g);
	k = hart_branch(g, 0, 1);
	hart_plain(g);
	g->fix[k].target = g->size;
	k = hart_branch(g, 3, 0); /* nested traps skip the call */
	hart_call(g, 0, g->nfunc - 2, 0);
	g->fix[k].target = g->size;
	hart_plain(g);
	hart_emit(g, 0x30200073u, 4, T_MRET);
	/* main: its statements in an endless loop */
	g->func[0] = g->size;
	g->main_loop = g->size;
	hart_stmts(g, 0, 0, 24);
	/* the back edge is a branch (always taken): a loop with no branch and no uninferable jump
	 * cannot be traced exactly (E-Trace has no iteration count for it) */
	k = hart_branch(g, 4, 0);
	g->fix[k].target = g->main_loop;
	for (f = 1; f + 1 < g->nfunc; f++) {
		g->func[f] = g->size;
		if (!hart_full(g))
			hart_stmts(g, f, 0, 10);
		hart_ret(g, f, T_RET);
	}
	/* the swap helper: jalr t0, 0(ra) back into its caller, which returns into it (through x5) */
	f = g->nfunc - 1;
	g->func[f] = g->size;
	hart_plain(g);
	k = hart_emit(g, hart_i(0x67, 5, 0, 1, 0), 4, T_SWAP);
	g->rd[k / 2] = 5;
	g->rs[k / 2] = 1;
	hart_plain(g);
	hart_ret(g, f, T_RET); /* resumed by its caller's return, it returns to its caller's caller */
	/* patch */
	for (k = 0; k < g->nfix; k++) {
		struct hart_fix *x = &g->fix[k];
		uint32_t tgt = x->func ? g->func[x->target] : x->target;
		int32_t off = (int32_t)tgt - (int32_t)x->at;
		uint32_t h = x->at / 2;
		g->aux[h] = tgt;
		switch (x->kind) {
		case F_BRANCH:
			if (off < -4096 || off > 4094) {
				off = 4; /* out of reach: a branch to the next instruction */
				g->aux[h] = x->at + 4;
			}
			hart_put(g, x->at, hart_b(hart_get(g, x->at, 4), off), 4);
			break;
		case F_CBRANCH:
			if (off < -256 || off > 254) {
				/* out of reach: make it a branch to the next instruction (never happens with the budgets) */
				off = 2;
				g->aux[h] = x->at + 2;
			}
			hart_put(g, x->at, hart_cb(hart_get(g, x->at, 2), off), 2);
			break;
		case F_JAL:
			hart_put(g, x->at, hart_j(hart_get(g, x->at, 4), off), 4);
			break;
		case F_CJ:
			if (off < -2048 || off > 2046) {
				/* out of reach of c.j: turn the pair into c.nop + fall through is impossible; use the target as is */
				off = 2;
				g->aux[h] = x->at + 2;
			}
			hart_put(g, x->at, hart_cj(hart_get(g, x->at, 2), off), 2);
			break;
		case F_AUIPC_PAIR:
		case F_LUI_PAIR:
		case F_CLUI_PAIR: {
			uint32_t v = x->kind == F_AUIPC_PAIR ? (uint32_t)off : (uint32_t)(g->base + tgt);
			int32_t lo = hart_lo12((int32_t)v);
			uint32_t hi = (v - (uint32_t)lo) >> 12;
			unsigned n = x->kind == F_CLUI_PAIR ? 2 : 4;
			if (x->kind == F_CLUI_PAIR)
				hart_put(g, x->at, 0x6001u | 6u << 7 | ((hi >> 5) & 1u) << 12 | (hi & 0x1fu) << 2, 2);
			else
				hart_put(g, x->at, hart_u(x->kind == F_LUI_PAIR ? 0x37 : 0x17, 6, hi), 4);
			hart_put(g, x->at + n, (hart_get(g, x->at + n, 4) & 0xfffffu) | ((uint32_t)lo & 0xfffu) << 20, 4);
			g->aux[(x->at + n) / 2] = tgt;
			break;
		}
		default:
			break;
		}
	}
}

/* ---- execution ---- */

/* what the sink sees: one retired instruction, or a trap */
struct hart_event {
	uint64_t addr;    /* instruction address (a trap: its EPC) */
	uint64_t cause;   /* trap */
	uint64_t tval;
	uint32_t insn;
	uint8_t len;      /* bytes; 0: a trap without retirement */
	uint8_t itype;    /* the ingress itype (4-bit codes) of the retired instruction */
	uint8_t priv;
	uint8_t trap;     /* 1 exception, 2 interrupt (a retired ecall: itype 1 and trap 1) */
	uint8_t sijump;
};

#define HART_STACK 256

struct hart_state {
	uint64_t ret[HART_STACK]; /* the call stack: return addresses */
	unsigned sp;
	uint64_t tres[16]; /* trap frames: resume address, privilege */
	uint8_t tpriv[16];
	unsigned tsp;
	uint64_t pc;
	uint8_t priv;
	uint8_t last_const_rd; /* rd of the last retired auipc/lui/c.lui, if it was the previous instruction */
	uint64_t rng;
	unsigned irq_rate;     /* 1/irq_rate of instructions are interrupted */
};

/* The ingress itype of the retired instruction at offset at (4-bit codes), jalr classes by link registers. */
static inline unsigned hart_itype(const struct hart_prog *g, uint32_t at, int taken)
{
	unsigned h = at / 2, rd = g->rd[h], rs = g->rs[h];
	int lrd = rd == 1 || rd == 5, lrs = rs == 1 || rs == 5;
	switch (g->tag[h]) {
	case T_BRANCH:
		return taken ? PMREGS_ETRACE_ITYPE_TAKEN_BRANCH : PMREGS_ETRACE_ITYPE_NONTAKEN_BRANCH;
	case T_JAL:
		return lrd ? PMREGS_ETRACE_ITYPE_INF_CALL : rd == 0 ? PMREGS_ETRACE_ITYPE_INF_JUMP : PMREGS_ETRACE_ITYPE_OTHER_INF;
	case T_MRET:
		return PMREGS_ETRACE_ITYPE_TRAP_RETURN;
	case T_CALL_IND:
	case T_PAIR:
	case T_SWITCH:
	case T_TAIL_IND:
	case T_RET:
	case T_LONGJMP:
	case T_SWAP:
		if (lrd && lrs && rd != rs)
			return PMREGS_ETRACE_ITYPE_COROUTINE_SWAP;
		if (lrd)
			return PMREGS_ETRACE_ITYPE_UNINF_CALL;
		if (lrs)
			return PMREGS_ETRACE_ITYPE_RETURN;
		return rd == 0 ? PMREGS_ETRACE_ITYPE_UNINF_JUMP : PMREGS_ETRACE_ITYPE_OTHER_UNINF;
	default:
		return 0;
	}
}

/* a function of link register lnk at random */
static inline unsigned hart_any(const struct hart_prog *g, struct hart_state *s, unsigned lnk)
{
	unsigned f, k;
	for (k = 0; k < 8; k++) {
		f = 1 + hart_pick(&s->rng, g->nfunc - 2);
		if (g->flink[f] == lnk)
			return f;
	}
	return 0;
}

typedef void (*hart_sink)(void *ctx, const struct hart_event *ev);

/* the model's call stack keeps the newest HART_STACK return addresses */
static inline void hart_push(struct hart_state *s, uint64_t a)
{
	if (s->sp == HART_STACK) {
		memmove(s->ret, s->ret + 1, (HART_STACK - 1) * sizeof s->ret[0]);
		s->sp--;
	}
	s->ret[s->sp++] = a;
}

/*
 * Run the program for n retired instructions, from main at privilege 0.
 * no_longjmp: longjmp returns return normally (a call counter, unlike a return
 * stack, cannot trace a program that changes return addresses).
 */
static inline void hart_run(const struct hart_prog *g, uint64_t seed, unsigned irq_rate, int no_longjmp, uint64_t n, hart_sink sink,
			    void *ctx)
{
	struct hart_state s;
	struct hart_event ev;
	uint64_t done = 0, amask = g->xlen == 32 ? 0xffffffffu : ~(uint64_t)0;
	memset(&s, 0, sizeof s);
	s.rng = seed | 1u;
	s.pc = g->base + g->func[0];
	s.priv = 0;
	s.irq_rate = irq_rate;
	while (done < n) {
		uint32_t at = (uint32_t)(s.pc - g->base), h = at / 2;
		unsigned tag = g->tag[h], len = g->len[h], it;
		uint64_t next = (s.pc + len) & amask;
		int taken = 0, trap_after = 0;
		uint8_t restore = s.priv;
		memset(&ev, 0, sizeof ev);
		if (s.irq_rate && s.tsp < 15 && hart_pick(&s.rng, s.irq_rate) == 0) {
			/* an interrupt before this instruction */
			ev.addr = s.pc;
			ev.insn = hart_get(g, at, len);
			ev.priv = s.priv;
			ev.trap = 2;
			ev.cause = 7;
			sink(ctx, &ev);
			s.tres[s.tsp] = s.pc;
			s.tpriv[s.tsp++] = s.priv;
			s.pc = g->base + g->handler;
			s.priv = 3;
			s.last_const_rd = 0;
			continue;
		}
		if (tag == T_ILLEGAL) {
			ev.addr = s.pc;
			ev.priv = s.priv;
			ev.trap = 1;
			ev.cause = 2;
			ev.insn = hart_get(g, at, len);
			ev.len = 0;
			sink(ctx, &ev);
			if (s.tsp >= 15) {
				s.pc = next; /* too deep: skip it */
				continue;
			}
			s.tres[s.tsp] = next;
			s.tpriv[s.tsp++] = s.priv;
			s.pc = g->base + g->handler;
			s.priv = 3;
			s.last_const_rd = 0;
			continue;
		}
		switch (tag) {
		case T_BRANCH: {
			unsigned kind = g->naux[h];
			if (kind == 1)
				taken = hart_pick(&s.rng, 4) != 0;
			else if (kind == 2)
				taken = s.sp > 24 || hart_pick(&s.rng, 3) == 0; /* guard: skip the recursive call */
			else if (kind == 3)
				taken = s.tsp > 1 || hart_pick(&s.rng, 2) == 0;
			else if (kind == 4)
				taken = 1;
			else
				taken = (int)hart_pick(&s.rng, 2);
			if (taken)
				next = g->base + g->aux[h];
			break;
		}
		case T_JAL:
			next = g->base + g->aux[h];
			if (g->rd[h])
				hart_push(&s, (s.pc + len) & amask);
			break;
		case T_PAIR:
			next = g->base + g->aux[h];
			if (g->rd[h])
				hart_push(&s, (s.pc + len) & amask);
			break;
		case T_CALL_IND: {
			unsigned f = hart_any(g, &s, g->rd[h]);
			next = g->base + g->func[f];
			hart_push(&s, (s.pc + len) & amask);
			break;
		}
		case T_SWITCH:
			next = g->base + g->cases[g->aux[h] + hart_pick(&s.rng, g->naux[h])];
			break;
		case T_RET:
			next = s.sp ? s.ret[--s.sp] : g->base + g->main_loop;
			break;
		case T_LONGJMP:
			if (s.sp >= 3 && !no_longjmp)
				s.sp -= 2; /* skip two frames */
			next = s.sp ? s.ret[--s.sp] : g->base + g->main_loop;
			break;
		case T_SWAP: {
			uint64_t back = s.sp ? s.ret[--s.sp] : g->base + g->main_loop;
			hart_push(&s, (s.pc + len) & amask);
			next = back;
			break;
		}
		case T_ECALL:
			trap_after = s.tsp < 15;
			break;
		case T_MRET:
			if (s.tsp) {
				s.tsp--;
				next = s.tres[s.tsp];
				restore = s.tpriv[s.tsp];
			} else {
				next = g->base + g->main_loop;
				restore = 0;
			}
			break;
		default:
			break;
		}
		it = hart_itype(g, at, taken);
		ev.addr = s.pc;
		ev.len = (uint8_t)len;
		ev.insn = hart_get(g, at, len);
		ev.itype = (uint8_t)it;
		ev.priv = s.priv;
		ev.sijump = (uint8_t)((tag == T_PAIR || tag == T_CALL_IND || tag == T_SWITCH || tag == T_RET) && s.last_const_rd &&
				      s.last_const_rd == g->rs[h] && it != PMREGS_ETRACE_ITYPE_RETURN);
		if (trap_after) {
			ev.trap = 1;
			ev.cause = (ev.insn & 0xffff) == 0x9002 || ev.insn == 0x00100073u ? 3 : 8 + s.priv;
			ev.itype = PMREGS_ETRACE_ITYPE_EXCEPTION;
		}
		sink(ctx, &ev);
		done++;
		s.last_const_rd = (uint8_t)(tag == T_CONST ? g->rd[h] : 0);
		if (tag == T_MRET)
			s.priv = restore;
		if (trap_after) {
			s.tres[s.tsp] = next;
			s.tpriv[s.tsp++] = s.priv;
			s.pc = g->base + g->handler;
			s.priv = 3;
			s.last_const_rd = 0;
			continue;
		}
		s.pc = next;
	}
}

/* ---- from events to ingress blocks, the truth, and the hart trace CSV ---- */

struct hart_log { /* the events of a run */
	struct hart_event *ev;
	size_t n, cap;
};
static inline void hart_log_sink(void *ctx, const struct hart_event *ev)
{
	struct hart_log *l = (struct hart_log *)ctx;
	if (l->n < l->cap)
		l->ev[l->n++] = *ev;
}

struct hart_opts {
	unsigned block_max;   /* instructions per block at most (1: single retirement) */
	unsigned itype_width; /* 3 or 4 */
	unsigned ctx_rate;    /* 1 in ctx_rate instructions changes the context (0: never) */
	unsigned notify_rate; /* 1 in notify_rate instructions asks for a notification (0: never) */
	unsigned off_rate;    /* 1 in off_rate blocks ends a qualification window (0: never) */
	unsigned on_rate;     /* 1 in on_rate blocks starts one again */
	uint64_t seed;
};

static uint8_t hart_itype3(unsigned it)
{
	switch (it) {
	case PMREGS_ETRACE_ITYPE_UNINF_CALL:
	case PMREGS_ETRACE_ITYPE_UNINF_JUMP:
	case PMREGS_ETRACE_ITYPE_COROUTINE_SWAP:
	case PMREGS_ETRACE_ITYPE_RETURN:
	case PMREGS_ETRACE_ITYPE_OTHER_UNINF:
		return PMREGS_ETRACE_ITYPE_UNINF_JUMP3;
	case PMREGS_ETRACE_ITYPE_INF_CALL:
	case PMREGS_ETRACE_ITYPE_INF_JUMP:
	case PMREGS_ETRACE_ITYPE_OTHER_INF:
		return 0;
	default:
		return (uint8_t)it;
	}
}

/*
 * Blocks for the encoder from the events ev[0..n): into blk (cap entries), the
 * addresses of the traced (qualified) instructions into truth (tcap). A block
 * ends at an instruction whose itype is not 0, at a notification, before a
 * change of privilege, context or qualification, and at block_max
 * instructions. Returns the number of blocks; bstart[k] (cap entries, or a
 * null pointer) is the index in truth of block k's first instruction.
 */
static inline size_t hart_ingress(const struct hart_event *ev, size_t n, const struct hart_opts *o, struct pmregs_etrace_ingress *blk,
			   size_t cap, uint64_t *truth, size_t tcap, size_t *ntruth, size_t *bstart)
{
	size_t k = 0, i, nt = 0;
	uint64_t rng = o->seed | 1u, irng = (o->seed * 0x9E3779B97F4A7C15u) | 1u, context = 0;
	unsigned in_block = 0, qualified = 1, limit = 1, ctype = 0, open_priv = 0;
	struct pmregs_etrace_ingress *b = PMREGS_NULL;
	for (i = 0; i < n && k + 2 < cap; i++) {
		const struct hart_event *e = &ev[i];
		int change = 0;
		/* per-instruction choices use their own random stream: the same whatever the blocks */
		unsigned notify = o->notify_rate && hart_pick(&irng, o->notify_rate) == 0;
		if (o->ctx_rate && hart_pick(&irng, o->ctx_rate) == 0) {
			context++;
			ctype = 1 + hart_pick(&irng, 3);
			change = 1;
		}
		if (e->len == 0) {
			/* a trap without retirement: a block of its own */
			in_block = 0;
			if (bstart)
				bstart[k] = nt;
			b = &blk[k++];
			memset(b, 0, sizeof *b);
			b->iaddr = e->addr;
			b->itype = e->trap;
			b->cause = e->cause;
			b->tval = e->tval;
			b->priv = e->priv;
			b->context = context;
			b->ctype = (uint8_t)(change ? ctype : 0);
			b->flags = (uint8_t)(qualified ? 0 : PMREGS_ETRACE_INGRESS_UNQUALIFIED);
			continue;
		}
		if (in_block && (change || e->priv != open_priv || b->iretire / 2 >= 64 || --limit == 0))
			in_block = 0;
		if (!in_block) {
			if (qualified && o->off_rate && hart_pick(&rng, o->off_rate) == 0)
				qualified = 0;
			else if (!qualified && hart_pick(&rng, o->on_rate ? o->on_rate : 1) == 0)
				qualified = 1;
			if (bstart)
				bstart[k] = nt;
			b = &blk[k++];
			memset(b, 0, sizeof *b);
			b->iaddr = e->addr;
			b->priv = e->priv;
			b->context = context;
			b->ctype = (uint8_t)(change ? ctype : 0);
			b->flags = (uint8_t)(qualified ? 0 : PMREGS_ETRACE_INGRESS_UNQUALIFIED);
			open_priv = e->priv;
			in_block = 1;
			limit = o->block_max > 1 ? 1 + hart_pick(&rng, o->block_max) : 1;
		}
		b->iretire += e->len / 2u;
		b->ilastsize = (uint8_t)(e->len == 2 ? 0 : e->len == 4 ? 1 : 2);
		if (qualified && nt < tcap)
			truth[nt++] = e->addr;
		if (e->trap) {
			b->itype = PMREGS_ETRACE_ITYPE_EXCEPTION;
			b->cause = e->cause;
			b->tval = e->tval;
			in_block = 0;
		} else if (e->itype) {
			b->itype = (uint8_t)(o->itype_width == 3 ? hart_itype3(e->itype) : e->itype);
			b->sijump = e->sijump;
			in_block = 0;
		}
		if (notify) {
			b->flags |= PMREGS_ETRACE_INGRESS_NOTIFY;
			in_block = 0;
		}
	}
	*ntruth = nt;
	if (bstart)
		bstart[k] = nt;
	return k;
}

/* The events as the hart trace CSV of the reference flow. */
static inline void hart_csv(FILE *f, const struct hart_event *ev, size_t n)
{
	size_t i;
	fprintf(f, "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n");
	for (i = 0; i < n; i++) {
		const struct hart_event *e = &ev[i];
		fprintf(f, "1,%llx,%lx,%x,%d,%llx,%llx,%d\n", (unsigned long long)e->addr, (unsigned long)e->insn, e->priv,
			e->trap ? 1 : 0, (unsigned long long)e->cause, (unsigned long long)e->tval, e->trap == 2 ? 1 : 0);
	}
}

/*
 * Segment s of the benches' long traces that do not repeat: seglen events of
 * prog run with seed 777 + 2s (an interrupt in about 2000 instructions) into
 * ev, turned into single-retirement blocks (4-bit itypes, seed 99 + 2s) in in
 * (seglen + seglen / 4 entries), their retired addresses into truth (seglen).
 * Returns the number of blocks; *nt is the number of addresses.
 */
static inline size_t hart_bench_segment(const struct hart_prog *prog, unsigned s, size_t seglen, struct hart_event *ev,
					struct pmregs_etrace_ingress *in, uint64_t *truth, size_t *nt)
{
	struct hart_log l;
	struct hart_opts o;
	l.ev = ev;
	l.n = 0;
	l.cap = seglen;
	hart_run(prog, 777 + 2 * (uint64_t)s, 2000, 0, seglen, hart_log_sink, &l); /* odd seeds: the model ORs in 1 */
	memset(&o, 0, sizeof o);
	o.itype_width = 4;
	o.seed = 99 + 2 * (uint64_t)s;
	o.block_max = 1;
	return hart_ingress(ev, l.n, &o, in, seglen + seglen / 4, truth, seglen, nt, 0);
}

/*
 * The blocks in[0..n) encoded by *enc, set up afresh (parameters p, options c,
 * work area work of size bytes), as SMI messages framed by *f from buf + *len
 * on (buf holds cap bytes), ending with the finishing support packet; *len
 * grows by the bytes written. Returns 0, or -1 when the encoder refuses its
 * set-up or less than 4 KB of buf would be left.
 */
static inline int hart_encode_smi(struct pmregs_etrace_encoder *enc, const struct pmregs_etrace_params *p,
				  const struct pmregs_etrace_encoder_config *c, void *work, size_t size,
				  const struct pmregs_etrace_ingress *in, size_t n, const struct pmregs_etrace_smi *f,
				  unsigned char *buf, size_t cap, size_t *len)
{
	size_t k = 0, used;
	if (pmregs_etrace_encoder_init(enc, p, c, work, size) != PMREGS_OK)
		return -1;
	while (k < n) {
		k += pmregs_etrace_encoder_run_smi(enc, in + k, n - k, f, buf + *len, cap - *len, &used);
		*len += used;
		if (cap - *len < 4096)
			return -1;
	}
	pmregs_etrace_encoder_finish(enc, 0);
	pmregs_etrace_encoder_put_smi(enc, f, buf + *len, cap - *len, &used);
	*len += used;
	return 0;
}

#endif
