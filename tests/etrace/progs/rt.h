/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A tiny freestanding runtime for the E-Trace test programs: _start, raw
 * Linux write/exit system calls, a number printer and argument parsing.
 * The programs are built with -nostdlib -static for RV64GC and RV32GC and
 * run under qemu-user, whose execution log is the ground truth the decoder
 * is checked against (tests/etrace/checks.sh).
 */
#ifndef RT_H
#define RT_H

typedef unsigned long ulong;

static long rt_syscall3(long n, long a, long b, long c)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	return a0;
}

static void rt_write(const char *s, long n) { rt_syscall3(64, 1, (long)s, n); }

__attribute__((noreturn)) static void rt_exit(int code)
{
	rt_syscall3(93, code, 0, 0);
	for (;;)
		;
}

static void rt_puts(const char *s)
{
	long n = 0;
	while (s[n])
		n++;
	rt_write(s, n);
}

static void rt_putu(ulong v)
{
	char b[24];
	int i = 23;
	b[i] = '\n';
	do {
		b[--i] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	rt_write(b + i, 24 - i);
}

static ulong rt_atou(const char *s)
{
	ulong v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10u + (ulong)(*s++ - '0');
	return v;
}

int main(int argc, char **argv);

/* The kernel (or qemu-user) leaves argc at sp, then argv. */
__attribute__((noreturn, used)) void rt_start_c(long *sp) { rt_exit(main((int)sp[0], (char **)(sp + 1))); }

__asm__(".globl _start\n"
	"_start:\n"
	"	.option push\n"
	"	.option norelax\n"
	"	la gp, __global_pointer$\n"
	"	.option pop\n"
	"	mv a0, sp\n"
	"	call rt_start_c\n");

#endif
