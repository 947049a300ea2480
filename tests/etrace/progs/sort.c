/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* Sorting: recursive quicksort, heapsort and insertion sort of pseudo-random
 * arrays, each checked; many data-dependent branches. Argument: rounds. */
#include "rt.h"

#define N 160

static unsigned seed = 12345u;
static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) & 0xffffu;
}

static void insertion(int *a, int n)
{
	int i, j;
	for (i = 1; i < n; i++) {
		int v = a[i];
		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void quick(int *a, int lo, int hi)
{
	while (hi - lo > 8) {
		int p = a[(lo + hi) / 2], i = lo, j = hi;
		while (i <= j) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i <= j) {
				int t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (j - lo < hi - i) {
			quick(a, lo, j);
			lo = i;
		} else {
			quick(a, i, hi);
			hi = j;
		}
	}
	insertion(a + lo, hi - lo + 1);
}

static void sift(int *a, int i, int n)
{
	for (;;) {
		int c = 2 * i + 1, t;
		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

static void heap(int *a, int n)
{
	int i;
	for (i = n / 2 - 1; i >= 0; i--)
		sift(a, i, n);
	for (i = n - 1; i > 0; i--) {
		int t = a[0];
		a[0] = a[i];
		a[i] = t;
		sift(a, 0, i);
	}
}

static int sorted(const int *a, int n)
{
	int i;
	for (i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static int a[N];
	ulong rounds = argc > 1 ? rt_atou(argv[1]) : 3, r, sum = 0;
	int i, ok = 1;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < N; i++)
			a[i] = (int)rnd();
		switch (r % 3) {
		case 0:
			quick(a, 0, N - 1);
			break;
		case 1:
			heap(a, N);
			break;
		default:
			insertion(a, N);
			break;
		}
		ok &= sorted(a, N);
		sum += (ulong)a[N / 2];
	}
	rt_puts(ok ? "sorted " : "NOT sorted ");
	rt_putu(sum);
	return ok ? 0 : 1;
}
