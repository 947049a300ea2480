/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* A bytecode interpreter: a dense switch (a jump table), calls through a
 * table of function pointers, and a callback-driven loop. Argument: runs. */
#include "rt.h"

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC, OP_CALL, OP_DROP, OP_XOR, OP_SHL, OP_HALT };

typedef long (*fn)(long, long);
__attribute__((noinline)) static long f_max(long a, long b) { return a > b ? a : b; }
__attribute__((noinline)) static long f_min(long a, long b) { return a < b ? a : b; }
__attribute__((noinline)) static long f_mix(long a, long b) { return (long)(((ulong)a * 31u) ^ (ulong)b) & 0xffff; }
__attribute__((noinline)) static long f_avg(long a, long b) { return (a + b) / 2; }
static fn const table[4] = {f_max, f_min, f_mix, f_avg};

static const unsigned char prog[] = {
	OP_PUSH, 0, OP_PUSH, 40, /* stack: acc, counter */
	/* 4: loop */
	OP_SWAP, OP_PUSH, 7, OP_ADD, OP_DUP, OP_PUSH, 3, OP_XOR, OP_CALL, 2, OP_PUSH, 1, OP_SHL, OP_PUSH, 9, OP_CALL, 0,
	OP_PUSH, 5, OP_CALL, 3, OP_PUSH, 2, OP_MUL, OP_PUSH, 1, OP_SUB, OP_SWAP, OP_DEC, OP_DUP, OP_JNZ, 4, OP_DROP, OP_HALT};

__attribute__((noinline)) static long run(const unsigned char *pc0)
{
	long st[32];
	int sp = 0;
	const unsigned char *pc = pc0;
	for (;;) {
		unsigned op = *pc++;
		switch (op) {
		case OP_PUSH:
			st[sp++] = *pc++;
			break;
		case OP_ADD:
			sp--;
			st[sp - 1] += st[sp];
			break;
		case OP_SUB:
			sp--;
			st[sp - 1] -= st[sp];
			break;
		case OP_MUL:
			sp--;
			st[sp - 1] *= st[sp];
			break;
		case OP_DUP:
			st[sp] = st[sp - 1];
			sp++;
			break;
		case OP_SWAP: {
			long t = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = t;
			break;
		}
		case OP_JNZ:
			if (st[--sp])
				pc = pc0 + *pc;
			else
				pc++;
			break;
		case OP_DEC:
			st[sp - 1]--;
			break;
		case OP_CALL:
			sp--;
			st[sp - 1] = table[*pc++ & 3](st[sp - 1], st[sp]);
			break;
		case OP_DROP:
			sp--;
			break;
		case OP_XOR:
			sp--;
			st[sp - 1] ^= st[sp];
			break;
		case OP_SHL:
			sp--;
			st[sp - 1] <<= st[sp] & 15;
			break;
		case OP_HALT:
			return st[sp - 1];
		default:
			return -1;
		}
	}
}

static long apply(fn f, const long *v, int n)
{
	long acc = v[0];
	int i;
	for (i = 1; i < n; i++)
		acc = f(acc, v[i]);
	return acc;
}

int main(int argc, char **argv)
{
	ulong runs = argc > 1 ? rt_atou(argv[1]) : 2, r;
	long v[16], sum = 0;
	int i;
	for (i = 0; i < 16; i++)
		v[i] = (i * 37) % 23;
	for (r = 0; r < runs; r++) {
		sum += run(prog);
		sum += apply(table[r & 3], v, 16);
	}
	rt_putu((ulong)sum);
	return 0;
}
