/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* Loops with many branches: a bitwise CRC-32, a sieve of Eratosthenes,
 * population counts and a small string search. Argument: rounds. */
#include "rt.h"

static unsigned crc32(const unsigned char *p, int n, unsigned crc)
{
	int i, k;
	crc = ~crc;
	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc & 1u) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

static int sieve(int n)
{
	static unsigned char composite[2048];
	int i, j, count = 0;
	for (i = 0; i < n; i++)
		composite[i] = 0;
	for (i = 2; i < n; i++) {
		if (composite[i])
			continue;
		count++;
		for (j = i + i; j < n; j += i)
			composite[j] = 1;
	}
	return count;
}

static int popcount(unsigned v)
{
	int c = 0;
	while (v) {
		if (v & 1u)
			c++;
		v >>= 1;
	}
	return c;
}

static int find(const char *hay, const char *needle)
{
	int i, j;
	for (i = 0; hay[i]; i++) {
		for (j = 0; needle[j] && hay[i + j] == needle[j]; j++)
			;
		if (!needle[j])
			return i;
	}
	return -1;
}

int main(int argc, char **argv)
{
	static unsigned char buf[256];
	ulong rounds = argc > 1 ? rt_atou(argv[1]) : 2, r, sum = 0;
	unsigned crc = 0;
	int i;
	for (i = 0; i < 256; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	for (r = 0; r < rounds; r++) {
		crc = crc32(buf, 256, crc);
		sum += (ulong)sieve(1000 + (int)(r % 7) * 100);
		for (i = 0; i < 64; i++)
			sum += (ulong)popcount(crc ^ (unsigned)i * 0x9e3779b9u);
		sum += (ulong)find("the quick brown fox jumps over the lazy dog", r & 1 ? "lazy" : "fox");
	}
	rt_putu(sum + crc);
	return 0;
}
