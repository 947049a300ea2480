/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* Recursion deeper than any return stack (a 400-deep descent, Ackermann,
 * Towers of Hanoi, mutual recursion), and setjmp/longjmp-style unwinding
 * out of a deep recursion. Argument: depth. */
#include "rt.h"

/* A minimal setjmp/longjmp: ra, sp, s0-s11. */
typedef ulong jbuf[14];
int rt_setjmp(jbuf b);
__attribute__((noreturn)) void rt_longjmp(jbuf b, int v);
#if __riscv_xlen == 64
#define SR "sd"
#define LR "ld"
#define W "8"
#else
#define SR "sw"
#define LR "lw"
#define W "4"
#endif
__asm__(".globl rt_setjmp\n"
	"rt_setjmp:\n"
	"	" SR " ra, 0*" W "(a0)\n	" SR " sp, 1*" W "(a0)\n	" SR " s0, 2*" W "(a0)\n	" SR " s1, 3*" W "(a0)\n"
	"	" SR " s2, 4*" W "(a0)\n	" SR " s3, 5*" W "(a0)\n	" SR " s4, 6*" W "(a0)\n	" SR " s5, 7*" W "(a0)\n"
	"	" SR " s6, 8*" W "(a0)\n	" SR " s7, 9*" W "(a0)\n	" SR " s8, 10*" W "(a0)\n	" SR " s9, 11*" W "(a0)\n"
	"	" SR " s10, 12*" W "(a0)\n	" SR " s11, 13*" W "(a0)\n"
	"	li a0, 0\n	ret\n"
	".globl rt_longjmp\n"
	"rt_longjmp:\n"
	"	" LR " ra, 0*" W "(a0)\n	" LR " sp, 1*" W "(a0)\n	" LR " s0, 2*" W "(a0)\n	" LR " s1, 3*" W "(a0)\n"
	"	" LR " s2, 4*" W "(a0)\n	" LR " s3, 5*" W "(a0)\n	" LR " s4, 6*" W "(a0)\n	" LR " s5, 7*" W "(a0)\n"
	"	" LR " s6, 8*" W "(a0)\n	" LR " s7, 9*" W "(a0)\n	" LR " s8, 10*" W "(a0)\n	" LR " s9, 11*" W "(a0)\n"
	"	" LR " s10, 12*" W "(a0)\n	" LR " s11, 13*" W "(a0)\n"
	"	mv a0, a1\n	bnez a0, 1f\n	li a0, 1\n1:	ret\n");

static jbuf env;
static volatile int limit;

__attribute__((noinline)) static ulong descend(int d)
{
	ulong r;
	if (d == limit)
		rt_longjmp(env, d);
	if (d > 100000)
		return 0;
	r = descend(d + 1);
	return r + (ulong)d; /* not a tail call */
}

__attribute__((noinline)) static ulong deep(int d)
{
	if (d == 0)
		return 1;
	return deep(d - 1) + (ulong)(d & 3);
}

__attribute__((noinline)) static ulong ack(ulong m, ulong n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static ulong moves;
__attribute__((noinline)) static void hanoi(int n, int a, int b, int c)
{
	if (n == 0)
		return;
	hanoi(n - 1, a, c, b);
	moves++;
	hanoi(n - 1, c, b, a);
}

__attribute__((noinline)) static int is_odd(int n);
__attribute__((noinline)) static int is_even(int n) { return n == 0 ? 1 : 1 - is_odd(n - 1) + 0 * n; }
__attribute__((noinline)) static int is_odd(int n) { return n == 0 ? 0 : 1 - is_even(n - 1) + 0 * n; }

int main(int argc, char **argv)
{
	int depth = argc > 1 ? (int)rt_atou(argv[1]) : 400, v;
	ulong sum = deep(depth);
	sum += ack(2, 3);
	hanoi(7, 1, 2, 3);
	sum += moves;
	sum += (ulong)is_even(depth / 2 + 1);
	limit = depth / 2;
	v = rt_setjmp(env);
	if (v == 0)
		sum += descend(0);
	else
		sum += (ulong)v;
	rt_putu(sum);
	return 0;
}
